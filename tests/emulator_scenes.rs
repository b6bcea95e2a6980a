//! The scenes of `tests/emulator/`: programs in the textual form emulator GLASM back ends
//! print, run end to end with probes whose values follow from the specs. Each scene runs
//! at 1 and 2 threads (the `corpus_*` scenes draw programs of
//! `programs/tests/emulator_corpus/`); both must pass and leave identical pixels and buffer bytes (every
//! scene is race-free).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::gl;
use glemu::scene::{parse, Outcome, RunOptions, Runner};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/emulator")
}

/// What a run leaves: the framebuffer and every named buffer.
type Result = (Vec<u8>, Vec<(String, Vec<u8>)>);

fn run(name: &str, threads: usize) -> Result {
    let path = dir().join(format!("{name}.shader_test"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let scene = parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut r =
        Runner::new(scene, &dir(), RunOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    r.set_threads(threads).unwrap();
    r.run_commands().unwrap_or_else(|e| panic!("{name}: {e}"));
    let report = r.report();
    assert_eq!(
        report.outcome,
        Outcome::Pass,
        "{name} at {threads} threads: {}",
        report.messages.join("\n")
    );
    let (w, h) = r.context().size();
    let pixels = r
        .context()
        .read_pixels(0, 0, w as i32, h as i32, gl::RGBA, gl::UNSIGNED_BYTE)
        .unwrap();
    let buffers = r
        .buffer_names()
        .into_iter()
        .map(|n| {
            let b = r.buffer_bytes(&n).unwrap_or_default();
            (n, b)
        })
        .collect();
    (pixels, buffers)
}

fn check(name: &str) {
    let one = run(name, 1);
    let two = run(name, 2);
    assert!(one == two, "{name}: results differ between 1 and 2 threads");
}

#[test]
fn every_scene_is_listed() {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| {
            let n = e.ok()?.file_name().into_string().ok()?;
            n.strip_suffix(".shader_test").map(str::to_string)
        })
        .collect();
    names.sort();
    assert_eq!(names, SCENES);
}

const SCENES: &[&str] = &[
    "compute_histogram",
    "compute_indirect",
    "compute_reduction",
    "corpus_atomics",
    "corpus_cbuffer",
    "corpus_compute_shared",
    "corpus_local_memory",
    "corpus_loops",
    "corpus_storage",
    "corpus_tess_geometry",
];

#[test]
fn compute_histogram() {
    check("compute_histogram");
}

#[test]
fn compute_indirect() {
    check("compute_indirect");
}

#[test]
fn compute_reduction() {
    check("compute_reduction");
}

#[test]
fn corpus_atomics() {
    check("corpus_atomics");
}

#[test]
fn corpus_cbuffer() {
    check("corpus_cbuffer");
}

#[test]
fn corpus_compute_shared() {
    check("corpus_compute_shared");
}

#[test]
fn corpus_local_memory() {
    check("corpus_local_memory");
}

#[test]
fn corpus_loops() {
    check("corpus_loops");
}

#[test]
fn corpus_storage() {
    check("corpus_storage");
}

#[test]
fn corpus_tess_geometry() {
    check("corpus_tess_geometry");
}

#[test]
fn the_probes_compare() {
    // The reduction scene with a BAR taken out, and with a wrong expected sum, fail.
    let text = std::fs::read_to_string(dir().join("compute_reduction.shader_test")).unwrap();
    for broken in [
        text.replacen("ENDIF;BAR;SHR.U", "ENDIF;SHR.U", 1),
        text.replace("3182,", "3183,"),
    ] {
        assert_ne!(broken, text);
        let r = glemu::scene::run_text(&broken, &dir());
        assert_eq!(r.outcome, Outcome::Fail, "{}", r.messages.join("\n"));
    }
}
