//! Every real-world program in `shared/corpus/realworld/` loads (all dialects, through the
//! header dispatch of `assemble`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::assemble;
use glemu_test_support::external;
use std::path::PathBuf;

/// Programs believed to break a load-time rule of their spec, with the rule. All three are
/// Mesa's own NV-parser syntax exercisers (MANIFEST: never checked against NVIDIA); the
/// legacy front end rejects them citing these rules. They must keep failing.
const INVALID_BY_SPEC: &[(&str, &str)] = &[
    (
        "fp1_mesademos_02.txt",
        "NV_fragment_program: a program may write o[COLR] or o[COLH], not both",
    ),
    (
        "fp1_mesademos_03.txt",
        "NV_fragment_program: constants in instructions are numbers or DEFINEd names, not DECLAREd parameters",
    ),
    (
        "vp1_mesademos_04.txt",
        "NV_vertex_program: a vertex program must write o[HPOS]",
    ),
];

#[test]
fn realworld_corpus_loads() {
    let Some(dir) = external(
        "programs/tests/corpus_realworld.rs realworld_corpus_loads",
        "corpus/realworld",
    ) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        panic!("corpus directory {} is missing", dir.display());
    };
    let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    let mut passed = 0;
    let mut failed = Vec::new();
    for path in files {
        let name = path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        if !name.ends_with(".txt") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if let Some((_, rule)) = INVALID_BY_SPEC.iter().find(|(n, _)| *n == name) {
            if assemble(&text, None).is_ok() {
                failed.push(format!("{name}: loaded, but breaks the rule: {rule}"));
            }
            continue;
        }
        match assemble(&text, None) {
            Ok(_) => passed += 1,
            Err(e) => failed.push(format!("{name}: {}", e.render(&text))),
        }
    }
    println!("{passed} passed, {} failed", failed.len());
    for f in &failed {
        println!("  FAIL {f}");
    }
    assert!(passed >= 40, "too few real-world programs found: {passed}");
    assert!(
        failed.is_empty(),
        "{} real-world programs failed to load",
        failed.len()
    );
}
