//! Every piglit `.shader_test` and `.vpfp` of the corpus, run unmodified through the
//! scene runner: each must PASS, except the files listed in `EXPECTED_NOT_PASSING` with
//! the reason.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::scene::{self, Outcome};
use glemu_test_support::external;
use std::path::{Path, PathBuf};

/// Files that do not pass, and why (relative to `corpus/piglit/tests`).
const EXPECTED_NOT_PASSING: &[(&str, &str)] = &[];

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p
            .extension()
            .is_some_and(|x| x == "shader_test" || x == "vpfp")
        {
            out.push(p);
        }
    }
}

#[test]
fn piglit_corpus_passes() {
    let Some(root) = external(
        "tests/piglit.rs piglit_corpus_passes",
        "corpus/piglit/tests",
    ) else {
        return;
    };
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    assert!(
        files.len() >= 50,
        "expected the piglit corpus under {}",
        root.display()
    );
    let mut failures = Vec::new();
    let mut passed = 0;
    for f in &files {
        let rel = f
            .strip_prefix(&root)
            .unwrap_or(f)
            .to_string_lossy()
            .to_string();
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let dir = f.parent().unwrap_or(&root);
        let r = if rel.ends_with(".vpfp") {
            scene::vpfp::run_vpfp(&text)
        } else {
            scene::run_text(&text, dir)
        };
        let expected_bad = EXPECTED_NOT_PASSING.iter().any(|(p, _)| *p == rel);
        match (&r.outcome, expected_bad) {
            (Outcome::Pass, false) => passed += 1,
            (Outcome::Pass, true) => failures.push(format!(
                "{rel}: passes now; remove it from EXPECTED_NOT_PASSING"
            )),
            (_, true) => {}
            (o, false) => failures.push(format!("{rel}: {o:?} {}", r.messages.join(" | "))),
        }
    }
    eprintln!("piglit: {passed}/{} pass", files.len());
    assert!(
        failures.is_empty(),
        "{} files:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
