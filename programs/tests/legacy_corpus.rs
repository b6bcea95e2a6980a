//! Every real-world VP1/VP1.1/VSP1/FP1 program of the shared corpus, and piglit's `!!VP1.0`
//! programs,
//! assembles, except the few that break a load-time rule of their spec; those must fail
//! with exactly that rule.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::ir::{Dialect, Stage};
use glemu_programs::{assemble, ErrorKind};
use std::path::PathBuf;

mod legacy_files;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/legacy")
}

/// Programs that break their spec, with a phrase the error must contain.
const SPEC_VIOLATIONS: &[(&str, &str)] = &[
    // Writes o[COL0] only: "fails to load if it does not write at least one component of
    // the HPOS register".
    ("vp1_mesademos_04.txt", "HPOS"),
    // Writes both o[COLR] and o[COLH]: "fails to load if it writes to both".
    ("fp1_mesademos_02.txt", "o[COLR] and o[COLH]"),
    // `DECLARE bar3 = bar;` initialises from a local parameter, but the initial value
    // must be a constant (<scalarConstant> names only DEFINEd constants).
    ("fp1_mesademos_03.txt", "not a constant"),
];

#[test]
fn piglit_extracts_assemble() {
    let files = legacy_files::extracts();
    assert_eq!(files.len(), 3, "tests/legacy is missing files");
    assemble_all(&files);
}

#[test]
fn corpus_programs_assemble() {
    let Some(files) =
        legacy_files::realworld("programs/tests/legacy_corpus.rs corpus_programs_assemble")
    else {
        return;
    };
    assert!(files.len() >= 32, "corpus is missing files");
    assemble_all(&files);
}

/// Each file assembles as the stage its name says, or breaks the spec rule listed for it.
fn assemble_all(files: &[PathBuf]) {
    let mut failures = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let result = assemble(&text, None);
        match (SPEC_VIOLATIONS.iter().find(|v| v.0 == name), result) {
            (None, Ok(p)) => {
                let want = if name.starts_with("fp1") {
                    Stage::Fragment
                } else {
                    Stage::Vertex
                };
                assert_eq!(p.stage, want, "{name}");
                assert!(!p.instructions.is_empty(), "{name}");
            }
            (None, Err(e)) => failures.push(format!("{name}: {}", e.render(&text))),
            (Some((_, phrase)), Err(e)) => {
                assert_eq!(e.kind, ErrorKind::Semantic, "{name}: {e}");
                assert!(e.message.contains(phrase), "{name}: {e}");
            }
            (Some(_), Ok(_)) => failures.push(format!("{name}: loaded but breaks its spec")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn piglit_arl_lowers_to_relative_env_block() {
    let text = std::fs::read_to_string(dir().join("piglit_nv-arl.txt")).unwrap();
    let p = assemble(&text, None).unwrap();
    assert_eq!(p.dialect, Dialect::Vp10);
    assert_eq!(p.address_regs, 1);
    // c[0..96] occupy the first 96 slots so c[A0.x + 20] indexes them.
    assert!(p.params.len() >= 96);
    let rel = p
        .instructions
        .iter()
        .flat_map(|i| i.srcs.iter())
        .find(|s| matches!(s.index, glemu_programs::ir::Index::Relative { .. }))
        .unwrap();
    assert_eq!(
        rel.index,
        glemu_programs::ir::Index::Relative {
            reg: glemu_programs::ir::IndexReg::Address { reg: 0, comp: 0 },
            offset: 20,
            base: 0,
            len: 96
        }
    );
}
