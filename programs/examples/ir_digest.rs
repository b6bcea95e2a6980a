//! Prints one line per program text: its name and a digest of what `assemble` returns
//! for it (the IR's or the error's Debug form). Texts are every program in the corpus
//! (`../shared/corpus`, or the directory given as the first argument) and in
//! `programs/tests`, each also with 100 seeded mutations. Run it before and after a
//! change to the front ends and diff the two outputs: any line that differs is a program
//! whose IR or error changed.
//!
//! `cargo run --release -p glemu-programs --example ir_digest [CORPUS] > digests.txt`

#![allow(clippy::unwrap_used, clippy::expect_used)] // a developer tool: a bad path may stop it

use glemu_programs::assemble;
use glemu_test_support::mutate::{apply, mutation};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

const MUTANTS: u64 = 100;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Every program in `text`: from a line starting with `!!` to the next line that is
/// `END` (inclusive) or to the next `[section]`/end of text.
fn programs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t.starts_with("!!") {
            if let Some(p) = cur.take() {
                out.push(p);
            }
            cur = Some(String::new());
        } else if t.starts_with('[') && cur.is_some() {
            out.extend(cur.take());
        }
        if let Some(p) = cur.as_mut() {
            p.push_str(line);
            if t == "END" {
                out.extend(cur.take());
            }
        }
    }
    out.extend(cur);
    out
}

fn hash(text: &str) -> u64 {
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

fn digest(text: &str, loaded: &mut usize) -> u64 {
    let result = assemble(text, None);
    *loaded += usize::from(result.is_ok());
    hash(&format!("{result:?}"))
}

fn main() {
    let corpus = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("../shared/corpus"), PathBuf::from);
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut paths = Vec::new();
    for root in [&corpus, &here] {
        let mut found = Vec::new();
        files(root, &mut found);
        paths.extend(found.into_iter().map(|p| (root.clone(), p)));
    }
    let (mut texts, mut changed, mut loaded) = (0usize, 0usize, 0usize);
    for (root, path) in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        // Names relative to their root, so two worktrees print the same names.
        let rel = path
            .strip_prefix(&root)
            .unwrap_or(&path)
            .display()
            .to_string();
        for (i, prog) in programs(&text).iter().enumerate() {
            let name = format!("{rel}#{i}");
            println!("{name}\t{:016x}", digest(prog, &mut loaded));
            // The fuzz tests' mutations, from a generator seeded by the name, so every
            // run mutates alike.
            let seed = hash(&name).to_le_bytes();
            let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 4].concat());
            let mut runner = TestRunner::new_with_rng(Config::default(), rng);
            let mutations = proptest::collection::vec(mutation(), 1..=3);
            for m in 0..MUTANTS {
                let muts = mutations.new_tree(&mut runner).unwrap().current();
                let mutant = apply(prog, &muts);
                if mutant != *prog {
                    changed += 1;
                }
                println!("{name}~{m}\t{:016x}", digest(&mutant, &mut loaded));
            }
            texts += 1 + MUTANTS as usize;
        }
    }
    eprintln!("{texts} texts, {loaded} load ({changed} mutants differ from their program)");
}
