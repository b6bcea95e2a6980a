//! The legacy front ends never panic: mutated corpus programs and random token soups
//! either assemble or return an error whose position lies inside the text.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::assemble;
use proptest::prelude::*;

mod legacy_files;

/// The piglit extracts, and the real-world legacy programs when the external corpus is there
/// (read once: proptest asks for every case).
fn corpus() -> &'static [String] {
    static C: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    C.get_or_init(|| {
        let mut files = legacy_files::extracts();
        files.extend(
            legacy_files::realworld(
                "programs/tests/legacy_fuzz.rs (external part of the fuzz corpus)",
            )
            .unwrap_or_default(),
        );
        files
            .iter()
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect()
    })
}

fn check(text: &str) {
    if let Err(e) = assemble(text, None) {
        assert!(e.position() <= text.len(), "{e} beyond {}", text.len());
    }
}

#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    // Bytes worth trying: the grammar's punctuation, digits, letters and a few odd ones.
    let byte =
        prop::sample::select(b"[]{}().,;:|+-#!xyzwRHC0123456789AOcvopf_$ \n\t@\xff".to_vec());
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(p, b)| Edit::Replace(p, b)),
        (any::<usize>(), byte).prop_map(|(p, b)| Edit::Insert(p, b)),
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut b = text.as_bytes().to_vec();
    for e in edits {
        let n = b.len().max(1);
        match *e {
            Edit::Replace(p, c) if !b.is_empty() => b[p % n] = c,
            Edit::Insert(p, c) => b.insert(p % (b.len() + 1), c),
            Edit::Delete(p) if !b.is_empty() => {
                b.remove(p % n);
            }
            Edit::Truncate(p) => b.truncate(p % (b.len() + 1)),
            _ => {}
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

const WORDS: &[&str] = &[
    "!!VP1.0",
    "!!VP1.1",
    "!!VP2.0",
    "!!VSP1.0",
    "!!FP1.0",
    "MOV",
    "ARL",
    "ARA",
    "BRA",
    "CAL",
    "RET",
    "MADC",
    "TEX",
    "TXD",
    "KIL",
    "DEFINE",
    "DECLARE",
    "OPTION",
    "NV_position_invariant",
    "END",
    "R0",
    "H1",
    "RC",
    "HC",
    "CC",
    "A0",
    "A1",
    "o",
    "v",
    "c",
    "f",
    "p",
    "HPOS",
    "COLR",
    "COLH",
    "TEX0",
    "2D",
    "CUBE",
    "x",
    "xyzw",
    "GT",
    "NE",
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    ".",
    ",",
    ";",
    ":",
    "|",
    "+",
    "-",
    "0",
    "5",
    "96",
    "255",
    "1.5",
    "main",
    "a",
    "=",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn mutated_corpus_programs_never_panic(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        let programs = corpus();
        let text = &programs[pick.index(programs.len())];
        check(&apply(text, &edits));
    }

    #[test]
    fn token_soup_never_panics(
        header in 0usize..5,
        words in prop::collection::vec(prop::sample::select(WORDS.to_vec()), 0..60),
    ) {
        let mut text = String::from(WORDS[header]);
        for w in words {
            text.push(' ');
            text.push_str(w);
        }
        check(&text);
    }
}
