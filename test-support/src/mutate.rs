//! Mutations of text inputs for the fuzz tests (proptest strategies): byte flips,
//! truncation, token swaps, duplication and deletion, applied to corpus files.

use proptest::prelude::*;

/// One change to a text.
#[derive(Debug, Clone)]
#[allow(missing_docs)] // the fields are positions and lengths, as the variants say
pub enum Mutation {
    /// Byte `at` becomes `byte`.
    Flip { at: usize, byte: u8 },
    /// Everything from `at` on goes.
    Truncate { at: usize },
    /// Tokens `a` and `b` (split at whitespace, `,` and `;`) change places.
    SwapTokens { a: usize, b: usize },
    /// `len` bytes from `at` are repeated after themselves.
    Duplicate { at: usize, len: usize },
    /// `len` bytes from `at` go.
    Delete { at: usize, len: usize },
}

/// Any one [`Mutation`], with positions taken modulo the text's length.
pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Flip { at, byte }),
        any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapTokens { a, b }),
        (any::<usize>(), 1usize..40).prop_map(|(at, len)| Mutation::Duplicate { at, len }),
        (any::<usize>(), 1usize..20).prop_map(|(at, len)| Mutation::Delete { at, len }),
    ]
}

/// `text` with `muts` applied in order (invalid UTF-8 replaced).
pub fn apply(text: &str, muts: &[Mutation]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for m in muts {
        let n = bytes.len().max(1);
        match *m {
            Mutation::Flip { at, byte } => {
                if let Some(b) = bytes.get_mut(at % n) {
                    *b = byte;
                }
            }
            Mutation::Truncate { at } => bytes.truncate(at % n),
            Mutation::SwapTokens { a, b } => {
                let s = String::from_utf8_lossy(&bytes).into_owned();
                let mut toks: Vec<&str> = s
                    .split_inclusive(|c: char| c.is_whitespace() || c == ',' || c == ';')
                    .collect();
                if !toks.is_empty() {
                    let (i, j) = (a % toks.len(), b % toks.len());
                    toks.swap(i, j);
                }
                bytes = toks.concat().into_bytes();
            }
            Mutation::Duplicate { at, len } => {
                let start = at % n;
                let end = (start + len).min(bytes.len());
                let piece: Vec<u8> = bytes
                    .get(start..end)
                    .map(<[u8]>::to_vec)
                    .unwrap_or_default();
                let pos = end.min(bytes.len());
                bytes.splice(pos..pos, piece);
            }
            Mutation::Delete { at, len } => {
                let start = at % n;
                let end = (start + len).min(bytes.len());
                if start < end {
                    bytes.drain(start..end);
                }
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}
