//! The front ends never panic and stay fast on damaged input: proptest mutates corpus
//! programs (byte flips, truncation, token swaps and duplication) and assembles them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::assemble;
use glemu_test_support::external;
use glemu_test_support::mutate::{apply, mutation};
use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Instant;

fn corpus() -> &'static Vec<String> {
    static C: OnceLock<Vec<String>> = OnceLock::new();
    C.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![
            root.join("tests/programs/valid"),
            root.join("tests/programs/invalid"),
        ];
        // The external corpus adds ~200 programs when it is beside the repository.
        if let Some(corpus) = external(
            "programs/tests/fuzz_front.rs (external part of the fuzz corpus)",
            "corpus",
        ) {
            dirs.push(corpus.join("piglit/tests/asmparsertest/shaders/ARBvp1.0"));
            dirs.push(corpus.join("piglit/tests/asmparsertest/shaders/ARBfp1.0"));
            dirs.push(corpus.join("realworld"));
        }
        let mut v = Vec::new();
        for d in dirs {
            let Ok(rd) = std::fs::read_dir(d) else {
                continue;
            };
            let mut paths: Vec<_> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
            paths.sort();
            for p in paths {
                if p.extension().and_then(|e| e.to_str()) == Some("txt") {
                    if let Ok(t) = std::fs::read_to_string(&p) {
                        v.push(t);
                    }
                }
            }
        }
        v
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_programs_never_panic(pick in any::<usize>(), muts in prop::collection::vec(mutation(), 1..4)) {
        let c = corpus();
        prop_assume!(!c.is_empty());
        let text = apply(&c[pick % c.len()], &muts);
        // The machine is shared, so a slow run is retried and the fastest one counts.
        let mut elapsed = std::time::Duration::MAX;
        for _ in 0..3 {
            let t0 = Instant::now();
            if let Ok(p) = assemble(&text, None) {
                // The --ir printer must handle whatever the front ends accept.
                let _ = glemu_programs::print::print_program(&p);
            }
            elapsed = elapsed.min(t0.elapsed());
            if elapsed.as_secs_f64() < 0.001 {
                break;
            }
        }
        let kb = (text.len() as f64 / 1024.0).max(1.0);
        prop_assert!(elapsed.as_secs_f64() < 0.010 * kb, "took {elapsed:?} for {} bytes", text.len());
    }
}

/// Words the grammars use, so random sequences reach deep into the parser.
const VOCAB: &[&str] = &[
    "TEMP",
    "PARAM",
    "ATTRIB",
    "OUTPUT",
    "ADDRESS",
    "ALIAS",
    "TEXTURE",
    "BUFFER",
    "CBUFFER",
    "INT",
    "UINT",
    "LONG",
    "SHORT",
    "FLAT",
    "SAMPLE",
    "OPTION",
    "NV_fragment_program2",
    "MOV",
    "ADD.S",
    "MAD.SAT",
    "TEX",
    "TXG",
    "TXGO",
    "LDC.F32X4",
    "ATOM.ADD.U32",
    "IF",
    "ELSE",
    "ENDIF",
    "REP",
    "ENDREP",
    "LOOP",
    "ENDLOOP",
    "BRK",
    "CAL",
    "RET",
    "KIL",
    "SWZ",
    "ARL",
    "EMIT",
    "CALI",
    "MOVC",
    "DP4",
    "PRIMITIVE_IN",
    "POINTS",
    "VERTICES_OUT",
    "TESS_MODE",
    "t",
    "a",
    "c",
    "A0",
    "R0",
    "vertex",
    "fragment",
    "result",
    "state",
    "program",
    "primitive",
    "texture",
    "position",
    "color",
    "texcoord",
    "attrib",
    "matrix",
    "mvp",
    "row",
    "env",
    "local",
    "buffer",
    "x",
    "xy",
    "xyzw",
    "w",
    "2D",
    "CUBE",
    "SHADOW2D",
    "ARRAYCUBE",
    "NE",
    "GT1",
    "offset",
    "0",
    "1",
    "3",
    "-1",
    "1.5",
    "4000000000",
    ".",
    "..",
    ",",
    ";",
    ":",
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    "=",
    "+",
    "-",
    "|",
    "\n",
];

const HEADERS: &[&str] = &[
    "!!ARBvp1.0",
    "!!ARBfp1.0",
    "!!NVvp4.0",
    "!!NVfp4.1",
    "!!NVgp4.0",
    "!!NVvp5.0",
    "!!NVtcp5.0",
    "!!NVtep5.0",
    "!!NVgp5.0",
    "!!NVfp5.0",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn token_soup_never_panics(h in 0usize..HEADERS.len(), words in prop::collection::vec(0usize..VOCAB.len(), 0..60)) {
        let mut text = String::from(HEADERS[h]);
        for w in words {
            text.push(' ');
            text.push_str(VOCAB[w]);
        }
        text.push_str(" END");
        if let Ok(p) = assemble(&text, None) {
            let _ = glemu_programs::print::print_program(&p);
        }
    }
}

#[test]
fn corpus_is_present() {
    assert!(
        corpus().len() > 100,
        "fuzz corpus too small: {}",
        corpus().len()
    );
}
