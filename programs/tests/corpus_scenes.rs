//! Program sections of every scene file (`.shader_test`) in the shared scenes, the piglit
//! corpus and the reftests assemble, each as the stage its section names.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::{assemble, Stage};
use glemu_test_support::externals;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().and_then(|x| x.to_str()) == Some("shader_test") {
            out.push(p);
        }
    }
}

fn stage_of(section: &str) -> Option<Stage> {
    Some(match section {
        "vertex program" => Stage::Vertex,
        "tess control program" => Stage::TessControl,
        "tess eval program" => Stage::TessEval,
        "geometry program" => Stage::Geometry,
        "fragment program" => Stage::Fragment,
        _ => return None,
    })
}

/// (file, first line, stage, text) of each program section.
fn programs(path: &Path) -> Vec<(usize, Stage, String)> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut cur: Option<(usize, Stage, String)> = None;
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('[') {
            if let Some(c) = cur.take() {
                out.push(c);
            }
            let name = line.trim().trim_start_matches('[').trim_end_matches(']');
            cur = stage_of(name).map(|s| (n + 2, s, String::new()));
        } else if let Some((_, _, t)) = cur.as_mut() {
            t.push_str(line);
            t.push('\n');
        }
    }
    out.extend(cur);
    out
}

/// Scene programs that must fail to load, with the rule they break.
const EXPECTED_FAIL: &[(&str, &str)] = &[(
    "g_arb_error_demo.shader_test",
    "an error-reporting demo: uses the undeclared name 'bogus'",
)];

#[test]
fn reftest_scene_programs_assemble() {
    let mut files = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../reftests"),
        &mut files,
    );
    assemble_all(files, 100);
}

#[test]
fn external_scene_programs_assemble() {
    let Some(dirs) = externals(
        "programs/tests/corpus_scenes.rs external_scene_programs_assemble",
        &["scenes", "corpus/piglit", "oracle"],
    ) else {
        return;
    };
    let mut files = Vec::new();
    for d in dirs {
        walk(&d, &mut files);
    }
    assemble_all(files, 90);
}

/// Every program section of `files` assembles (at least `min` of them), except those in
/// `EXPECTED_FAIL`, which must fail.
fn assemble_all(mut files: Vec<PathBuf>, min: usize) {
    files.sort();
    let (mut ok, mut bad) = (0, Vec::new());
    for f in &files {
        let fname = f
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let expect_fail = EXPECTED_FAIL.iter().find(|(n, _)| *n == fname);
        for (line, stage, text) in programs(f) {
            if let Some((_, rule)) = expect_fail {
                if assemble(&text, Some(stage)).is_ok() {
                    bad.push(format!("{}: loaded, but should fail: {rule}", f.display()));
                }
                continue;
            }
            match assemble(&text, Some(stage)) {
                Ok(p) => {
                    ok += 1;
                    let ir = glemu_programs::print::print_program(&p);
                    assert!(
                        ir.lines().count() > p.instructions.len(),
                        "--ir output too short"
                    );
                }
                Err(e) => {
                    let (l, c) = e.line_col(&text);
                    bad.push(format!(
                        "{}:{}:{c}: {}",
                        f.display(),
                        line + l as usize - 1,
                        e.message
                    ));
                }
            }
        }
    }
    println!(
        "{} scene files, {ok} programs assembled, {} failed",
        files.len(),
        bad.len()
    );
    for b in &bad {
        println!("  {b}");
    }
    assert!(ok >= min, "too few scene programs found: {ok}");
    assert!(
        bad.is_empty(),
        "{} scene programs failed to assemble",
        bad.len()
    );
}
