//! The reftest harness (`harness = false`): runs every scene of `reftests/scenes/**`, the
//! piglit corpus (`shared/corpus/piglit/tests/spec/**/*.shader_test` and
//! `shaders/generic/*.vpfp`) and the shared NV scenes (`shared/scenes/*.nv.shader_test`)
//! through glemu's scene runner in parallel, prints one line per folder and a total, and
//! exits non-zero if any scene failed or an expected failure passed.
//!
//! `cargo test -p glemu-reftests --test reftests [-- WORD...]` runs the scenes whose id
//! contains one of the words. Every result is named on its own line (PASS, FAIL, SKIP,
//! XFAIL, XPASS). For each scene that does not pass, the rendered image goes
//! to `target/reftests/<id>.png` and, when the scene has a `probe png` reference, the
//! difference (bad pixels red) to `target/reftests/<id>.diff.png`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod runner;

use glemu_reftests::child;
use glemu_reftests::discover::{self, Roots, SceneEntry};
use glemu_reftests::expected;
use glemu_reftests::imagediff::{self, Rgba8};
use glemu_reftests::lint;
use glemu_reftests::pngprobe;
use glemu_reftests::report::{classify, Status, Summary, Verdict};
use glemu_test_support::external;
use rayon::prelude::*;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// `target/reftests`: two levels above the test executable (`target/<profile>/deps/`).
fn output_dir() -> PathBuf {
    let from_exe = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent()?.parent()?.parent().map(Path::to_path_buf));
    from_exe
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"))
        .join("reftests")
}

/// How long one scene may run before its process is killed.
const SCENE_TIMEOUT: Duration = Duration::from_secs(120);

/// Child mode: runs one scene and reports on stdout; the image goes to `image_path`.
/// Each scene runs in its own process so that a crash (a stack overflow cannot be
/// caught) or a hang in glemu fails that scene only.
fn run_child(scene: &Path, image_path: &Path) -> ExitCode {
    let outcome = runner::run(scene);
    if let Some(img) = &outcome.image {
        if let Err(e) = img.save_png(image_path) {
            eprintln!("reftests: {e}");
        }
    }
    println!("{}", child::format_result(&outcome.status));
    ExitCode::SUCCESS
}

/// Runs one scene in a child process; `image_path` receives its image, if any.
fn run_scene(entry: &SceneEntry, image_path: &Path) -> Status {
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => return Status::Fail(format!("cannot find the harness executable: {e}")),
    };
    let _ = std::fs::remove_file(image_path);
    let mut child = match Command::new(exe)
        .arg("--child")
        .arg(&entry.path)
        .arg(image_path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => return Status::Fail(format!("cannot start the scene process: {e}")),
    };
    // Drain the pipes on threads so a chatty child cannot block on a full pipe.
    let read_all = |p: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut p) = p {
                let _ = p.read_to_string(&mut s);
            }
            s
        })
    };
    let out = read_all(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = read_all(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    let exit = loop {
        match child.try_wait() {
            Ok(Some(st)) => break Some(st),
            Ok(None) if start.elapsed() > SCENE_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Status::Fail(format!("waiting for the scene process: {e}")),
        }
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let Some(exit) = exit else {
        return Status::Fail(format!("timed out after {} s", SCENE_TIMEOUT.as_secs()));
    };
    match child::parse_result(&stdout) {
        Some(status) => status,
        None => {
            let last = stderr
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("no output");
            Status::Fail(format!("the scene process died ({exit}): {last}"))
        }
    }
}

/// The suite's structural rules ([`lint::problems`]) for scenes below `roots.suite`.
fn suite_lint(entry: &SceneEntry, roots: &Roots) -> Vec<String> {
    if !entry.path.starts_with(&roots.suite) {
        return Vec::new();
    }
    match std::fs::read_to_string(&entry.path) {
        Ok(text) => lint::problems(&entry.path, &text, &|p: &Path| p.exists()),
        Err(e) => vec![format!("cannot read the scene: {e}")],
    }
}

/// Writes the actual image and, if the scene has a reference, the diff image. Returns a
/// note for the report.
fn save_images(entry: &SceneEntry, image: &Rgba8, out: &Path) -> Result<String, String> {
    let actual = out.join(format!("{}.png", entry.id));
    if let Some(dir) = actual.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    image.save_png(&actual)?;
    let text = std::fs::read_to_string(&entry.path).map_err(|e| e.to_string())?;
    let Some(probe) = pngprobe::find(&text) else {
        return Ok(format!("image: {}", actual.display()));
    };
    let dir = entry.path.parent().unwrap_or(Path::new("."));
    let reference = Rgba8::load_png(&dir.join(&probe.file))?;
    let Some(cmp) = imagediff::compare(image, &reference, probe.tolerance) else {
        return Ok(format!(
            "image: {} ({}x{}, reference is {}x{})",
            actual.display(),
            image.width,
            image.height,
            reference.width,
            reference.height
        ));
    };
    let diff = out.join(format!("{}.diff.png", entry.id));
    cmp.diff.save_png(&diff)?;
    Ok(format!(
        "{} pixels differ by more than {}/255 (max {}), {} allowed; diff: {}",
        cmp.bad_pixels,
        probe.tolerance,
        cmp.max_diff,
        probe.pixels,
        diff.display()
    ))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, scene, image] = args.as_slice() {
        if flag == "--child" {
            return run_child(Path::new(scene), Path::new(image));
        }
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The suite's own scenes always run; the external ones when they are beside the
    // repository (the shared policy decides: skip with a line, or fail in CI).
    let roots = Roots {
        suite: manifest.join("scenes"),
        piglit: external("reftests (piglit scenes)", "corpus/piglit/tests"),
        shared_scenes: external("reftests (NV example scenes)", "scenes"),
    };
    let filters: Vec<String> = args.into_iter().filter(|a| !a.starts_with('-')).collect();

    let scenes = match discover::all_scenes(&roots) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("reftests: cannot list scenes: {e}");
            return ExitCode::FAILURE;
        }
    };
    let list_path = manifest.join("expected-failures.txt");
    let expected = match std::fs::read_to_string(&list_path)
        .map_err(|e| format!("{}: {e}", list_path.display()))
        .and_then(|t| expected::parse(&t).map_err(|e| e.to_string()))
    {
        Ok(l) => l,
        Err(e) => {
            eprintln!("reftests: {e}");
            return ExitCode::FAILURE;
        }
    };
    let selected: Vec<&SceneEntry> = scenes
        .iter()
        .filter(|s| filters.is_empty() || filters.iter().any(|f| s.id.contains(f.as_str())))
        .collect();
    let out = output_dir();

    let results: Vec<(&SceneEntry, Verdict, Option<String>)> = selected
        .par_iter()
        .map(|entry| {
            let image_path = out.join(format!("{}.png", entry.id));
            if let Some(dir) = image_path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let status = run_scene(entry, &image_path);
            let lint = suite_lint(entry, &roots);
            let verdict = if lint.is_empty() {
                classify(&status, expected.get(&entry.id).map(String::as_str))
            } else {
                // A scene that breaks the suite's rules fails whatever glemu does.
                Verdict::Fail(format!("scene rules: {}", lint.join("; ")))
            };
            let image = Rgba8::load_png(&image_path).ok();
            let note = match (&verdict, image) {
                (Verdict::Pass | Verdict::Skip(_) | Verdict::UnexpectedPass(_), _) => {
                    // Only failures keep their images, so target/reftests shows what to look at.
                    let _ = std::fs::remove_file(&image_path);
                    let _ = std::fs::remove_file(image_path.with_extension("diff.png"));
                    None
                }
                (_, None) => None,
                (_, Some(img)) => Some(save_images(entry, &img, &out).unwrap_or_else(|e| e)),
            };
            (*entry, verdict, note)
        })
        .collect();

    let mut summary = Summary::default();
    for (entry, verdict, note) in &results {
        summary.add(&entry.group, verdict);
        match verdict {
            Verdict::Pass => println!("PASS {}", entry.id),
            Verdict::Skip(why) => println!("SKIP {}: {}", entry.id, why.trim_end()),
            Verdict::Fail(why) | Verdict::UnexpectedPass(why) | Verdict::Xfail(why) => {
                println!("{} {}: {}", verdict.word(), entry.id, why.trim_end());
                if let Some(n) = note {
                    println!("      {n}");
                }
            }
        }
    }
    // An entry that names no scene is stale: report it so the list is kept true.
    if filters.is_empty() {
        // Entries for an external source that is absent cannot be judged.
        let absent = |id: &str| {
            (roots.piglit.is_none() && id.starts_with("piglit/"))
                || (roots.shared_scenes.is_none() && id.starts_with("shared/"))
        };
        for id in expected.keys() {
            if !absent(id) && !scenes.iter().any(|s| &s.id == id) {
                println!("FAIL expected-failures.txt: `{id}` names no scene");
                summary.add_global_failure();
            }
        }
    }
    for line in summary.lines() {
        println!("{line}");
    }
    if summary.total.failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
