//! The programs in `examples/` run as part of the test suite: cargo builds them beside the
//! test binaries (`target/<profile>/examples/`), and each is run in a scratch directory and
//! its output checked.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use std::path::PathBuf;
use std::process::Command;

fn example_binary(name: &str) -> PathBuf {
    // target/<profile>/deps/examples-HASH -> target/<profile>/examples/NAME
    let exe = std::env::current_exe().expect("test binary path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

/// Runs example `name` in a fresh scratch directory; its stdout and the directory.
fn run(name: &str) -> (String, PathBuf) {
    let bin = example_binary(name);
    assert!(bin.exists(), "{} was not built", bin.display());
    let dir = std::env::temp_dir().join(format!("glemu-example-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let out = Command::new(&bin)
        .current_dir(&dir)
        .output()
        .expect("run example");
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (String::from_utf8_lossy(&out.stdout).into_owned(), dir)
}

/// The number printed after `label` in `out`.
fn number_after(out: &str, label: &str) -> u64 {
    let rest = &out[out
        .find(label)
        .unwrap_or_else(|| panic!("{label:?} in {out}"))
        + label.len()..];
    rest.trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a number after {label:?} in {out}"))
}

#[test]
fn fbo_msaa_example_resolves_partial_coverage() {
    let (out, dir) = run("fbo_msaa");
    assert!(number_after(&out, "fully inside:") > 1000, "{out}");
    // A 64x64 triangle edge at 4 samples: tens of pixels between 0 and 255.
    assert!(number_after(&out, "partial coverage:") > 40, "{out}");
    assert!(dir.join("fbo_msaa.png").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn transform_feedback_example_matches_the_cpu() {
    let (out, dir) = run("transform_feedback");
    assert!(out.contains("\nok"), "{out}");
    assert_eq!(number_after(&out, "bounced off the ground:"), 256, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tess_geometry_example_generates_the_tessellation() {
    let (out, dir) = run("tess_geometry");
    // Level 4 everywhere on a triangle: 24 triangles, each passed through the geometry
    // program.
    assert_eq!(number_after(&out, "4:"), 24, "{out}");
    assert!(number_after(&out, "triangles generated,") > 1000, "{out}");
    assert!(dir.join("tess_geometry.png").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn buffers_atomics_example_counts_every_fragment() {
    let (out, dir) = run("buffers_atomics");
    assert_eq!(number_after(&out, "fragments counted:"), 64 * 16, "{out}");
    assert!(out.contains("[256, 256, 256, 256]"), "{out}");
    assert!(out.contains("\nok"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn triangle_example_writes_a_triangle() {
    let (out, dir) = run("triangle");
    assert!(out.contains("wrote triangle.png"));
    let img = image::open(dir.join("triangle.png"))
        .expect("triangle.png")
        .to_rgba8();
    assert_eq!(img.dimensions(), (256, 256));
    // Top row first: the corner is the clear colour, the centre is inside the triangle and
    // mixes the three vertex colours.
    let bg = img.get_pixel(2, 2).0;
    assert_eq!(bg, [26, 26, 26, 255]);
    let c = img.get_pixel(128, 140).0;
    assert!(c[0] > 40 && c[1] > 40 && c[2] > 40, "centre {c:?}");
    assert_ne!(c, bg);
    let _ = std::fs::remove_dir_all(&dir);
}
