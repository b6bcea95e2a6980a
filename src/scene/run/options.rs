//! What a scene run is told (`RunOptions`) and what it reports (`Report`, `Outcome`).

use std::path::PathBuf;

/// How a scene run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
///
/// ```
/// let text = "[require]\nSIZE 4 4\n[test]\nclear color 0 1 0 1\nclear\nprobe all rgba 0 1 0 1\n";
/// let r = glemu::scene::run_text(text, std::path::Path::new("."));
/// assert_eq!(r.outcome, glemu::scene::Outcome::Pass);
/// ```
pub enum Outcome {
    /// Every probe passed.
    Pass,
    /// A probe failed or a command errored (messages in [`Report::messages`]).
    Fail,
    /// A `[require]` line is not met.
    Skip(String),
}

/// What a run printed and how it ended.
#[derive(Clone, Debug)]
///
/// ```
/// let text = "[require]\nSIZE 4 4\n[test]\nclear color 1 0 0 1\nclear\nprobe all rgba 0 1 0 1\n";
/// let r = glemu::scene::run_text(text, std::path::Path::new("."));
/// assert_eq!(r.outcome, glemu::scene::Outcome::Fail);
/// assert!(r.messages[0].contains("line 6"), "{:?}", r.messages);
/// ```
pub struct Report {
    /// PASS, FAIL or SKIP.
    pub outcome: Outcome,
    /// Probe failures and errors, one per line, with scene line numbers.
    pub messages: Vec<String>,
    /// Triangles submitted (for `glemu bench`).
    pub triangles: u64,
    /// Covered pixels of `draw rect`/`draw grid` (for `glemu bench`).
    pub pixels: u64,
}

/// Options of a run.
#[derive(Clone, Debug)]
///
/// ```
/// use glemu::scene::{run_text_with, Outcome, RunOptions};
/// // A reference run skips `probe png` (the PNG does not exist yet).
/// let text = "[require]\nSIZE 4 4\n[test]\nclear\nprobe png missing.png\n";
/// let opts = RunOptions { skip_png_probes: true, ..RunOptions::default() };
/// let r = run_text_with(text, std::path::Path::new("."), opts);
/// assert_eq!(r.outcome, Outcome::Pass);
/// ```
pub struct RunOptions {
    /// Skip `probe png` lines (making a reference image).
    pub skip_png_probes: bool,
    /// Where a failed `probe png` writes its difference image.
    pub diff_images: DiffImages,
    /// Samples per pixel of the window framebuffer instead of the scene's `samples N`
    /// (`glemu render --samples-override`; 0 and 1 both mean single-sampled).
    pub samples_override: Option<u32>,
    /// The longest one draw may run (None: no limit); see
    /// [`Context::set_draw_time_limit`].
    pub draw_time_limit: Option<std::time::Duration>,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            skip_png_probes: false,
            diff_images: DiffImages::default(),
            samples_override: None,
            draw_time_limit: Some(crate::context::DEFAULT_DRAW_TIME_LIMIT),
        }
    }
}

/// Where a failed `probe png FILE` writes `FILE.diff.png` (bad pixels red, the rest of
/// the rendered image darkened).
///
/// ```
/// use glemu::scene::{run_text_with, DiffImages, Outcome, RunOptions};
/// let dir = std::env::temp_dir().join("glemu-doc-diff-images");
/// std::fs::create_dir_all(&dir).unwrap();
/// image::RgbaImage::from_pixel(4, 4, image::Rgba([0, 255, 0, 255])).save(dir.join("green.png")).unwrap();
/// let text = "[require]\nSIZE 4 4\n[test]\nclear color 1 0 0 1\nclear\nprobe png green.png\n";
/// let out = dir.join("out");
/// let opts = RunOptions { diff_images: DiffImages::In(out.clone()), ..RunOptions::default() };
/// assert_eq!(run_text_with(text, &dir, opts).outcome, Outcome::Fail);
/// assert!(out.join("green.png.diff.png").exists());
/// assert!(!dir.join("green.png.diff.png").exists());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DiffImages {
    /// Beside the reference image (what `glemu run` does, per the scene-format contract).
    #[default]
    BesideReference,
    /// In this directory (created if missing), for runs whose scene folder is read-only
    /// or must stay clean.
    In(PathBuf),
    /// Not written (the caller makes its own).
    Off,
}
