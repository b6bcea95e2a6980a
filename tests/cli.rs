//! The command-line contract (scene-format.md): output formats and exit codes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use std::path::{Path, PathBuf};
use std::process::Command;

fn glemu() -> Command {
    Command::new(env!("CARGO_BIN_EXE_glemu"))
}

/// A scene of the repository's own (tests/data), so the CLI tests need nothing beside it.
fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// A file in a directory of its own, removed when the test ends, passed or failed (a
/// directory per process was left behind by every run).
struct Scratch {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.path.as_os_str()
    }
}

fn tmp(name: &str, text: &str) -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix("glemu-cli-")
        .tempdir()
        .unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    Scratch { _dir: dir, path }
}

#[test]
fn check_valid_and_invalid() {
    let good = tmp(
        "good.fp",
        "!!ARBfp1.0\nMOV result.color, fragment.color;\nEND\n",
    );
    let bad = tmp(
        "bad.fp",
        "\r\n!!ARBfp1.0\r\nMOV result.color, fragment.colour;\r\nEND\r\n",
    );
    let o = glemu().args(["check"]).arg(&good).output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let o = glemu()
        .args(["check"])
        .arg(&good)
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    let line = err.lines().next().unwrap_or("");
    assert!(line.starts_with(&format!("{}:3:", bad.display())), "{err}");
    assert!(line.contains(": error: "), "{err}");
}

#[test]
fn run_time_program_errors_name_the_scene_line() {
    // A REP of 10^8 iterations: the instruction budget stops it, and the report points at
    // the instruction that ran out of it: ENDREP (instruction 2, byte 51 of the program,
    // scene line 13).
    let scene = tmp(
        "runaway.shader_test",
        "[require]\nSIZE 4 4\n\n[vertex program]\n!!NVvp5.0\nMOV result.position, vertex.position;\nEND\n\n[fragment program]\n!!NVfp5.0\nREP 100000000;\nADD result.color.x, 1, 1;\nENDREP;\nEND\n\n[test]\ndraw rect -1 -1 2 2\n",
    );
    let o = glemu().arg("run").arg(&scene).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("line 17: "), "{out}");
    assert!(out.contains("instruction budget"), "{out}");
    assert!(out.contains("instruction 2 (byte 51)"), "{out}");
    assert!(out.contains("(scene line 13, column 1)"), "{out}");
}

#[test]
fn check_target_rejects_other_stages() {
    let fp = tmp("t.fp", "!!ARBfp1.0\nEND\n");
    let o = glemu()
        .args(["check", "--target", "vertex"])
        .arg(&fp)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let o = glemu()
        .args(["check", "--target", "fragment", "--ir"])
        .arg(&fp)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(!o.stdout.is_empty(), "--ir prints the compiled form");
}

#[test]
fn run_pass_fail_skip() {
    let pass = tmp(
        "p.shader_test",
        "[require]\nSIZE 8 8\n[test]\nclear color 0 1 0 1\nclear\nprobe all rgba 0 1 0 1\n",
    );
    let o = glemu().arg("run").arg(&pass).output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).lines().last(),
        Some("PASS")
    );

    let fail = tmp(
        "f.shader_test",
        "[require]\nSIZE 8 8\n[test]\nclear color 0 1 0 1\nclear\nprobe all rgb 1 0 0\n",
    );
    let o = glemu().arg("run").arg(&fail).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.lines().last(), Some("FAIL"));
    assert!(out.contains("line 6"), "{out}");

    let skip = tmp(
        "s.shader_test",
        "[require]\nGL_EXT_not_a_thing\n[test]\nclear\n",
    );
    let o = glemu().arg("run").arg(&skip).output().unwrap();
    assert_eq!(o.status.code(), Some(77));
    assert!(String::from_utf8_lossy(&o.stdout)
        .lines()
        .last()
        .unwrap_or("")
        .starts_with("SKIP: "));

    let bad = tmp("b.shader_test", "[test]\nclear\nfrobnicate\n");
    let o = glemu().arg("run").arg(&bad).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("line 3"));
}

#[test]
fn render_writes_a_top_down_png() {
    let scene = tmp(
        "r.shader_test",
        "[require]\nSIZE 4 4\n[test]\nclear color 0 0 1 1\nclear\nscissor 0 0 4 2\nenable GL_SCISSOR_TEST\nclear color 1 0 0 1\nclear\n",
    );
    let out = scene.with_extension("png");
    let o = glemu()
        .arg("render")
        .arg(&scene)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let img = image::open(&out).unwrap().to_rgba8();
    assert_eq!(
        img.get_pixel(0, 0).0,
        [0, 0, 255, 255],
        "top row is the top of the framebuffer"
    );
    assert_eq!(img.get_pixel(0, 3).0, [255, 0, 0, 255]);
}

#[test]
fn bench_prints_one_line() {
    let scene = data("bench_ldc.shader_test");
    let o = glemu()
        .arg("bench")
        .arg(&scene)
        .args(["--frames", "2", "--warmup", "0", "--threads", "1"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    let line = out.lines().next().unwrap_or("");
    for key in [
        "BENCH ",
        "fps=",
        "median_ms=",
        "Mpixels_per_s=",
        "Mtris_per_s=",
    ] {
        assert!(line.contains(key), "{line}");
    }
}

#[test]
fn bench_options_out_of_range_are_usage_errors_that_say_so() {
    let scene = data("bench_ldc.shader_test");
    for (args, says) in [
        (
            vec!["--frames", "0"],
            "--frames takes a number from 1 to 100000, found '0'",
        ),
        (
            vec!["--threads", "0"],
            "--threads takes a number from 1 to 256, found '0'",
        ),
        (vec!["--threads", "100000"], "found '100000'"),
        (
            vec!["--warmup"],
            "--warmup takes a number from 0 to 100000, found nothing",
        ),
        (vec!["--fast"], "unknown option '--fast'"),
        (vec!["other.shader_test"], "one scene at a time"),
    ] {
        let o = glemu()
            .arg("bench")
            .arg(&scene)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn info_lists_dialects_extensions_and_samples() {
    let o = glemu().args(["info", "extra"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = glemu().arg("info").output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    for key in ["!!NVfp5.0", "GL_NV_gpu_program5", "4x:", "IPAO"] {
        assert!(out.contains(key), "{key} missing from:\n{out}");
    }
}

#[test]
fn no_arguments_renders_the_default_scene() {
    let scratch = tempfile::Builder::new()
        .prefix("glemu-cli-default-")
        .tempdir()
        .unwrap();
    let dir = scratch.path();
    let o = glemu().current_dir(dir).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("glemu-default.png"));
    let img = image::open(dir.join("glemu-default.png"))
        .unwrap()
        .to_rgba8();
    let distinct: std::collections::HashSet<[u8; 4]> = img.pixels().map(|p| p.0).collect();
    assert!(
        distinct.len() > 16,
        "the default scene should not be flat ({} colours)",
        distinct.len()
    );
}

/// `key=N` of a BENCH line.
fn bench_value(line: &str, key: &str) -> u64 {
    line.split_whitespace()
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {key}= in {line}"))
}

#[test]
fn bench_counts_primitives_and_fragments_of_every_kind_of_draw() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("reftests/scenes");
    for (scene, stage_key) in [
        (
            "tessellation/tess_quad_levels_fill.shader_test",
            "tes_invocations",
        ),
        (
            "tessellation/tess_point_mode.shader_test",
            "tes_invocations",
        ),
        ("geometry/gs_amplify_endprim.shader_test", "gs_primitives"),
        ("raster/points_sizes.shader_test", "vs_invocations"),
    ] {
        let o = glemu()
            .arg("bench")
            .arg(root.join(scene))
            .args(["--frames", "1", "--warmup", "0", "--threads", "1"])
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{scene}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let out = String::from_utf8_lossy(&o.stdout);
        let line = out.lines().next().unwrap_or("");
        for key in [
            "tris_per_frame",
            "covered_pixels_per_frame",
            "clip_in",
            "fragments",
            stage_key,
        ] {
            assert!(bench_value(line, key) > 0, "{scene}: {key} is 0 in {line}");
        }
    }
}

#[test]
fn timeout_stops_a_long_draw() {
    // 250×250 fragments × 400,000 loop trips: minutes without the watchdog.
    let scene = tmp(
        "long_loop.shader_test",
        "[require]\nSIZE 250 250\n\n[vertex program]\n!!NVvp5.0\nMOV result.position, vertex.position;\nEND\n\n[fragment program]\n!!NVfp5.0\nTEMP t;\nMOV t, 0;\nREP 400000;\nADD t.x, t.x, 1;\nENDREP;\nMOV result.color, t;\nEND\n\n[test]\ndraw rect -1 -1 2 2\n",
    );
    let t0 = std::time::Instant::now();
    let o = glemu()
        .arg("run")
        .arg(&scene)
        .args(["--timeout", "0.3"])
        .output()
        .unwrap();
    assert!(t0.elapsed() < std::time::Duration::from_secs(8));
    assert_eq!(o.status.code(), Some(1));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("line 20: GL_INVALID_OPERATION: the draw ran past its time limit of 0.300 s"),
        "{text}"
    );
    let o = glemu()
        .arg("run")
        .arg(&scene)
        .args(["--timeout", "soon"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn trace_prints_text_or_json_and_refuses_pixels_outside() {
    let scene = data("trace_branch.shader_test");
    let o = glemu()
        .arg("trace")
        .arg(&scene)
        .args(["1", "1", "--json"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let steps = &v["draws"][0]["fragments"][0]["steps"];
    // MULC, IF (to ELSE's block), ADD, ENDIF.
    assert_eq!(steps.as_array().map(Vec::len), Some(4), "{v:#}");
    assert_eq!(steps[1]["next_pc"], 4);
    assert_eq!(steps[0]["line"], 13);
    assert_eq!(
        v["stored"][2].as_f64().map(|b| (b * 255.0).round()),
        Some(128.0)
    );
    let o = glemu()
        .arg("trace")
        .arg(&scene)
        .args(["8", "0"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("outside the 8x8 framebuffer"));
    // --stage all: the vertex and geometry invocations behind the primitive.
    let o = glemu()
        .arg("trace")
        .arg(data("trace_stages.shader_test"))
        .args(["1", "1", "--stage", "all", "--json"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let stages: Vec<&str> = v["draws"][0]["primitives"][0]["invocations"]
        .as_array()
        .map(|a| a.iter().filter_map(|i| i["stage"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(stages, ["vertex", "vertex", "vertex", "geometry"], "{v:#}");
    let o = glemu()
        .arg("trace")
        .arg(&scene)
        .args(["1", "1", "--stage", "pixel"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}
