//! The load rules of `programs/LOAD_RULES.md`, one file per rule in `tests/load_rules/`:
//! each holds programs that must load (`=== loads`) and programs that must fail with a
//! message containing the given text (`=== fails: TEXT`). Every rule file is cited in the
//! table and every file the table cites exists, so the table and the tests cannot drift.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::assemble;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// One program of a rule file: `None` = must load, `Some(text)` = must fail with it.
struct Case {
    line: usize,
    expect: Option<String>,
    text: String,
}

fn rules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/load_rules")
}

fn cases(text: &str) -> Result<Vec<Case>, String> {
    let mut out: Vec<Case> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(head) = line.strip_prefix("=== ") {
            let expect = match head.trim() {
                "loads" => None,
                h => match h.strip_prefix("fails:") {
                    Some(msg) if !msg.trim().is_empty() => Some(msg.trim().to_string()),
                    _ => return Err(format!("line {}: bad case header '{line}'", n + 1)),
                },
            };
            out.push(Case {
                line: n + 1,
                expect,
                text: String::new(),
            });
        } else if let Some(c) = out.last_mut() {
            c.text.push_str(line);
            c.text.push('\n');
        }
    }
    Ok(out)
}

fn rule_files() -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(rules_dir()) else {
        panic!("missing {}", rules_dir().display());
    };
    let mut v: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("txt"))
        .collect();
    v.sort();
    v
}

fn stem(p: &Path) -> String {
    p.file_stem()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned())
}

#[test]
fn every_rule_loads_and_fails_as_stated() {
    let mut bad = Vec::new();
    let files = rule_files();
    let mut n_cases = 0;
    for p in &files {
        let name = stem(p);
        let text = std::fs::read_to_string(p).unwrap_or_default();
        let cs = match cases(&text) {
            Ok(c) => c,
            Err(e) => {
                bad.push(format!("{name}: {e}"));
                continue;
            }
        };
        if !cs.iter().any(|c| c.expect.is_none()) || !cs.iter().any(|c| c.expect.is_some()) {
            bad.push(format!(
                "{name}: needs at least one '=== loads' and one '=== fails:' case"
            ));
        }
        for c in &cs {
            n_cases += 1;
            match (assemble(&c.text, None), &c.expect) {
                (Ok(_), None) => {}
                (Err(e), None) => bad.push(format!(
                    "{name}:{}: should load, got {}",
                    c.line,
                    e.render(&c.text)
                )),
                (Ok(_), Some(want)) => bad.push(format!(
                    "{name}:{}: loaded, expected an error containing '{want}'",
                    c.line
                )),
                (Err(e), Some(want)) if !e.message.contains(want.as_str()) => bad.push(format!(
                    "{name}:{}: wrong error {} (wanted '{want}')",
                    c.line,
                    e.render(&c.text)
                )),
                (Err(_), Some(_)) => {}
            }
        }
    }
    println!("{} rule files, {n_cases} programs", files.len());
    for b in &bad {
        println!("  {b}");
    }
    assert!(files.len() >= 50, "too few rule files: {}", files.len());
    assert!(bad.is_empty(), "{} rule programs misbehaved", bad.len());
}

/// Test names cited in the rule tables of LOAD_RULES.md (tables whose last column is
/// headed "Test"): the backticked words of that column.
fn cited() -> BTreeSet<String> {
    let md = Path::new(env!("CARGO_MANIFEST_DIR")).join("LOAD_RULES.md");
    let text = std::fs::read_to_string(&md).unwrap_or_default();
    let mut out = BTreeSet::new();
    let mut in_rules = false;
    for line in text.lines() {
        if !line.trim_start().starts_with('|') {
            in_rules = false;
            continue;
        }
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').collect();
        let last = cells.last().copied().unwrap_or("").trim();
        if last == "Test" {
            in_rules = true;
            continue;
        }
        if !in_rules {
            continue;
        }
        for (i, part) in last.split('`').enumerate() {
            if i % 2 == 1 && !part.is_empty() {
                out.insert(part.to_string());
            }
        }
    }
    out
}

#[test]
fn the_table_and_the_rule_files_match() {
    let cited = cited();
    let files: BTreeSet<String> = rule_files().iter().map(|p| stem(p)).collect();
    let missing: Vec<&String> = cited.difference(&files).collect();
    let uncited: Vec<&String> = files.difference(&cited).collect();
    assert!(
        missing.is_empty(),
        "LOAD_RULES.md cites tests with no file in tests/load_rules: {missing:?}"
    );
    assert!(
        uncited.is_empty(),
        "rule files LOAD_RULES.md does not cite: {uncited:?}"
    );
}
