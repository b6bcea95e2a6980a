//! The harness's only contact with glemu: runs one scene file through the public scene
//! API (`glemu::scene::{parse, check_requirements, Runner}`) and reads back the resolved
//! colour buffer (`Context::read_image`). A scene that passes is run again at 1 and 8
//! rasterizer threads (2 first) and fails unless the images are identical.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::scene::{self, DiffImages, RunOptions, Runner};
use glemu_reftests::imagediff::Rgba8;
use glemu_reftests::report::Status;
use std::path::Path;

/// A scene's status and, when it got far enough to render, its final image.
pub struct Outcome {
    pub status: Status,
    pub image: Option<Rgba8>,
}

fn failed(message: String) -> Outcome {
    Outcome {
        status: Status::Fail(message),
        image: None,
    }
}

/// At most three messages on one line; the count of the rest.
fn join(messages: &[String]) -> String {
    let mut s = messages
        .iter()
        .take(3)
        .map(|m| m.trim())
        .collect::<Vec<_>>()
        .join("; ");
    if messages.len() > 3 {
        s.push_str(&format!("; ... {} more", messages.len() - 3));
    }
    if s.is_empty() {
        s.push_str("failed without a message");
    }
    s
}

fn status_of(outcome: &scene::Outcome, messages: &[String]) -> Status {
    match outcome {
        scene::Outcome::Pass => Status::Pass,
        scene::Outcome::Fail => Status::Fail(join(messages)),
        scene::Outcome::Skip(reason) => Status::Skip(reason.clone()),
    }
}

/// Runs the scene at `path` (a `.shader_test`, or a piglit `.vpfp` file).
pub fn run(path: &Path) -> Outcome {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return failed(format!("cannot read {}: {e}", path.display())),
    };
    if path.extension().is_some_and(|e| e == "vpfp") {
        let r = scene::vpfp::run_vpfp(&text);
        return Outcome {
            status: status_of(&r.outcome, &r.messages),
            image: None,
        };
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let parsed = match scene::parse(&text) {
        Ok(s) => s,
        Err(e) => return failed(e.to_string()),
    };
    if let Some(reason) = scene::check_requirements(&parsed) {
        return Outcome {
            status: Status::Skip(reason),
            image: None,
        };
    }
    let mut outcome = run_parsed(&parsed, dir, THREADS[0]);
    if outcome.status != Status::Pass {
        return outcome;
    }
    // The image must not depend on the number of rasterizer threads.
    for &threads in &THREADS[1..] {
        let other = run_parsed(&parsed, dir, threads);
        let same = match (&outcome.image, &other.image) {
            (Some(a), Some(b)) => a == b,
            (a, b) => a.is_none() && b.is_none(),
        };
        if other.status != Status::Pass || !same {
            outcome.status = Status::Fail(match other.status {
                Status::Pass => format!(
                    "the image at {threads} threads differs from the one at {}",
                    THREADS[0]
                ),
                Status::Fail(m) | Status::Skip(m) => format!("at {threads} threads: {m}"),
            });
            return outcome;
        }
    }
    outcome
}

/// Rasterizer thread counts every scene runs at; their images must be identical.
const THREADS: [usize; 3] = [2, 1, 8];

/// Runs a parsed scene with `threads` rasterizer threads.
fn run_parsed(parsed: &scene::Scene, dir: &Path, threads: usize) -> Outcome {
    let mut runner = match Runner::new(
        parsed.clone(),
        dir,
        // The harness writes its own diff under target/; the scene folders stay clean.
        RunOptions {
            diff_images: DiffImages::Off,
            ..RunOptions::default()
        },
    ) {
        Ok(r) => r,
        Err(e) => return failed(e.to_string()),
    };
    if let Err(e) = runner.set_threads(threads) {
        return failed(e.to_string());
    }
    let ran = runner.run_commands();
    let report = runner.report();
    let ctx = runner.context();
    let image = ctx
        .read_image()
        .ok()
        .and_then(|img| Rgba8::new(img.width(), img.height(), img.into_raw()));
    let status = match ran {
        Ok(()) => status_of(&report.outcome, &report.messages),
        Err(e) => {
            let mut m = report.messages.clone();
            m.push(e.to_string());
            Status::Fail(join(&m))
        }
    };
    Outcome { status, image }
}
