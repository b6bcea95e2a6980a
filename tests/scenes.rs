//! The NV example scenes of `shared/scenes/*.nv.shader_test`: every probe (ending with a
//! `probe png` against the oracle's rendering of the GLSL twin) must pass.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::scene::{self, Outcome};
use glemu_test_support::external;
use std::path::PathBuf;

/// `shared/scenes`, or `None` (skipped) when it is not beside the repository.
fn scenes_dir(test: &str) -> Option<PathBuf> {
    external(&format!("tests/scenes.rs {test}"), "scenes")
}

fn run(name: &str) {
    let Some(dir) = scenes_dir(name) else {
        return;
    };
    let path = dir.join(format!("{name}.nv.shader_test"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let r = scene::run_text(&text, &dir);
    assert_eq!(
        r.outcome,
        Outcome::Pass,
        "{name}: {}",
        r.messages.join("\n")
    );
}

#[test]
fn gs_point_quads() {
    run("gs_point_quads");
}

#[test]
fn ldc_basic() {
    run("ldc_basic");
}

#[test]
fn msaa_ipas_stripes() {
    run("msaa_ipas_stripes");
}

#[test]
fn tess_quad_basic() {
    run("tess_quad_basic");
}

#[test]
fn tex_txg_rgbw() {
    run("tex_txg_rgbw");
}

#[test]
fn xfb_basic() {
    run("xfb_basic");
}

#[test]
fn a_broken_probe_fails() {
    // The png probe really compares: the xfb scene against another scene's image.
    let Some(dir) = scenes_dir("a_broken_probe_fails") else {
        return;
    };
    let path = dir.join("xfb_basic.nv.shader_test");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let text = text.replace("probe png xfb_basic.png", "probe png ldc_basic.png");
    let r = scene::run_text(&text, &dir);
    assert_eq!(r.outcome, Outcome::Fail);
}
