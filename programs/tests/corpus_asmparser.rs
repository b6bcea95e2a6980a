//! The piglit asmparsertest corpus: every ARBvp1.0/ARBfp1.0 program must load exactly
//! when it has no `# FAIL` line (or is listed in `INVALID_BY_SPEC`), with LF and with CRLF
//! line endings.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::{assemble, Stage};
use glemu_test_support::external;
use std::path::PathBuf;

/// Extensions glemu claims (the `# REQUIRE` lines name them).
const CLAIMED: &[&str] = &[
    "GL_ARB_fragment_program_shadow",
    "GL_ARB_texture_cube_map",
    "GL_ARB_texture_rectangle",
    "GL_EXT_texture3D",
    "GL_NV_fragment_program_option",
    "GL_NV_vertex_program2_option",
    "GL_NV_vertex_program3",
];

/// Corpus programs piglit expects to load although their spec says they fail to load, with
/// the rule: glemu follows the spec (piglit checks Mesa's parser, not NVIDIA's).
const INVALID_BY_SPEC: &[(&str, &str)] = &[(
    "ARBvp1.0/astack-09.txt",
    "NV_vertex_program3, POPA: a program will fail to load if it includes ... a condition code write mask test other than TR",
)];

#[test]
fn asmparser_corpus_agrees() {
    let Some(corpus_dir) = external(
        "programs/tests/corpus_asmparser.rs asmparser_corpus_agrees",
        "corpus/piglit/tests/asmparsertest/shaders",
    ) else {
        return;
    };
    let mut passed = 0;
    let mut failed = Vec::new();
    let mut skipped = Vec::new();
    for (dir, stage) in [("ARBvp1.0", Stage::Vertex), ("ARBfp1.0", Stage::Fragment)] {
        let Ok(entries) = std::fs::read_dir(corpus_dir.join(dir)) else {
            panic!("corpus directory {dir} is missing");
        };
        let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for path in files {
            if path.extension().and_then(|e| e.to_str()) != Some("txt") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let name = format!(
                "{dir}/{}",
                path.file_name()
                    .map_or(String::new(), |n| n.to_string_lossy().into_owned())
            );
            let unclaimed = text
                .lines()
                .filter_map(|l| l.trim().strip_prefix("# REQUIRE "))
                .any(|r| !CLAIMED.contains(&r.trim()));
            if unclaimed {
                skipped.push(name);
                continue;
            }
            let expect_fail =
                text.contains("# FAIL") || INVALID_BY_SPEC.iter().any(|(n, _)| *n == name);
            let crlf = text.replace("\r\n", "\n").replace('\n', "\r\n");
            for (variant, t) in [("LF", &text), ("CRLF", &crlf)] {
                let r = assemble(t, Some(stage));
                if r.is_err() == expect_fail {
                    passed += 1;
                } else {
                    let why = match r {
                        Ok(_) => "loaded but expected failure".to_string(),
                        Err(e) => e.render(t),
                    };
                    failed.push(format!("{name} ({variant}): {why}"));
                }
            }
        }
    }
    println!("{passed} passed, {} failed", failed.len());
    println!("skipped (unclaimed REQUIRE): {skipped:?}");
    for f in &failed {
        println!("  FAIL {f}");
    }
    assert!(passed > 400, "too few corpus programs found: {passed}");
    assert!(
        failed.is_empty(),
        "{} corpus programs disagree",
        failed.len()
    );
}
