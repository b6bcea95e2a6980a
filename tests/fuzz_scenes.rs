//! Scene text (issue 17 point 10): proptest mutates the repository's scenes (byte flips,
//! truncation, token swaps, duplication, deletion) and runs each in-process. The parser
//! and the runner must never panic; a scene ends as PASS, FAIL (with a line number) or
//! SKIP. Bounded: 150 scenes, each draw stopped after 0.5 s, in about ten seconds.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::scene::{run_text_with, Outcome, RunOptions};
use glemu_test_support::mutate::{apply, mutation};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

/// (folder, text) of every scene under tests/emulator, tests/scene_commands and
/// reftests/scenes (GLSL twins excluded: glemu does not run them).
fn corpus() -> &'static Vec<(PathBuf, String)> {
    static C: OnceLock<Vec<(PathBuf, String)>> = OnceLock::new();
    C.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![
            root.join("tests/emulator"),
            root.join("tests/scene_commands"),
        ];
        if let Ok(rd) = std::fs::read_dir(root.join("reftests/scenes")) {
            dirs.extend(rd.filter_map(|e| e.ok().map(|e| e.path())));
        }
        let mut v = Vec::new();
        for d in dirs {
            let Ok(rd) = std::fs::read_dir(&d) else {
                continue;
            };
            let mut paths: Vec<_> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
            paths.sort();
            for p in paths {
                let name = p.to_string_lossy();
                if name.ends_with(".shader_test") && !name.ends_with(".glsl.shader_test") {
                    if let Ok(t) = std::fs::read_to_string(&p) {
                        v.push((d.clone(), t));
                    }
                }
            }
        }
        v
    })
}

/// The corpus is there and runs: unmutated, its scenes pass (so the mutated runs below
/// reach the drawing code, not only the parser).
#[test]
fn the_corpus_is_there_and_runs() {
    let c = corpus();
    assert!(c.len() >= 30, "{} scenes", c.len());
    let passed = c
        .iter()
        .step_by(7)
        .filter(|(dir, text)| {
            run_text_with(text, dir, RunOptions::default()).outcome == Outcome::Pass
        })
        .count();
    assert!(
        passed * 2 >= c.len().div_ceil(7),
        "{passed} of {} passed",
        c.len().div_ceil(7)
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_scenes_never_panic(pick in any::<usize>(), muts in prop::collection::vec(mutation(), 1..4)) {
        let c = corpus();
        prop_assume!(!c.is_empty());
        let (dir, text) = &c[pick % c.len()];
        let text = apply(text, &muts);
        let opts = RunOptions {
            skip_png_probes: true,
            draw_time_limit: Some(Duration::from_millis(500)),
            ..RunOptions::default()
        };
        // Outcome and message are free; returning at all is the property.
        let _ = run_text_with(&text, dir, opts);
    }
}
