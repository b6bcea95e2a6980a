//! The scenes of `tests/scene_commands/`: glemu's own `[test]` commands (README, "Scene
//! commands beyond the contract") — image units and image probes, writes through a buffer
//! mapping, DrawTransformFeedback — each run end to end, and each shown able to fail.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::scene::{run_text, Outcome};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scene_commands")
}

fn text(name: &str) -> String {
    let path = dir().join(format!("{name}.shader_test"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn outcome(text: &str) -> (Outcome, String) {
    let r = run_text(text, &dir());
    (r.outcome, r.messages.join("\n"))
}

/// The scene passes as written, and fails with `edit` applied (the edit must change it).
fn passes_and_can_fail(name: &str, from: &str, to: &str) {
    let t = text(name);
    let (o, m) = outcome(&t);
    assert_eq!(o, Outcome::Pass, "{name}: {m}");
    let broken = t.replacen(from, to, 1);
    assert_ne!(broken, t, "{name}: '{from}' is not in the scene");
    let (o, m) = outcome(&broken);
    assert_eq!(o, Outcome::Fail, "{name} with '{to}': {m}");
}

#[test]
fn image_unit_store() {
    passes_and_can_fail(
        "image_unit_store",
        "probe image 0 3 5 (3, 5, 7, 9)",
        "probe image 0 3 5 (3, 4, 7, 9)",
    );
}

#[test]
fn image_probe_outside_the_level_is_an_error() {
    let t = text("image_unit_store").replace("probe image 0 7 7", "probe image 0 8 7");
    let (o, m) = outcome(&t);
    assert_eq!(o, Outcome::Fail, "{m}");
    assert!(m.contains("outside level 0"), "{m}");
}

#[test]
fn map_buffer_write() {
    passes_and_can_fail(
        "map_buffer_write",
        "map buffer colors 16 float (0.25, 0.5, 0.75, 1)",
        "map buffer colors 16 float (0.5, 0.5, 0.75, 1)",
    );
}

#[test]
fn map_buffer_write_past_the_end_is_an_error() {
    let t = text("map_buffer_write").replace("map buffer colors 16", "map buffer colors 24");
    let (o, m) = outcome(&t);
    assert_eq!(o, Outcome::Fail, "{m}");
}

#[test]
fn draw_transform_feedback() {
    // Capturing one triangle instead of two leaves the upper right triangle black.
    passes_and_can_fail(
        "draw_transform_feedback",
        "draw arrays GL_TRIANGLES 0 6\nend",
        "draw arrays GL_TRIANGLES 0 3\nend",
    );
}

#[test]
fn every_scene_has_a_test() {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| {
            let n = e.ok()?.file_name().into_string().ok()?;
            n.strip_suffix(".shader_test").map(str::to_string)
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "draw_transform_feedback",
            "image_unit_store",
            "map_buffer_write"
        ]
    );
}
