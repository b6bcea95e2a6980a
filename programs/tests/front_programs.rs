//! NV_gpu_program4/5 test programs: every file in `programs/valid/` loads; every file in
//! `programs/invalid/` fails with an error whose message contains the text of its
//! `# ERROR: ...` line.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::assemble;
use std::path::{Path, PathBuf};

fn files(sub: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(sub);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        panic!("missing test directory {}", dir.display());
    };
    let mut v: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("txt"))
        .collect();
    v.sort();
    v
}

fn name(p: &Path) -> String {
    p.file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned())
}

#[test]
fn valid_programs_load() {
    let mut bad = Vec::new();
    let all = files("valid");
    for p in &all {
        let text = std::fs::read_to_string(p).unwrap_or_default();
        if let Err(e) = assemble(&text, None) {
            bad.push(format!("{}: {}", name(p), e.render(&text)));
        }
    }
    println!("{} valid programs, {} rejected", all.len(), bad.len());
    for b in &bad {
        println!("  {b}");
    }
    assert!(all.len() >= 20, "too few valid programs");
    assert!(bad.is_empty(), "{} valid programs were rejected", bad.len());
}

#[test]
fn invalid_programs_fail_with_their_message() {
    let mut bad = Vec::new();
    let all = files("invalid");
    for p in &all {
        let text = std::fs::read_to_string(p).unwrap_or_default();
        let Some(want) = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("# ERROR:"))
            .map(str::trim)
        else {
            bad.push(format!("{}: no '# ERROR:' line", name(p)));
            continue;
        };
        match assemble(&text, None) {
            Ok(_) => bad.push(format!(
                "{}: loaded, expected error containing '{want}'",
                name(p)
            )),
            Err(e) if !e.message.contains(want) => bad.push(format!(
                "{}: wrong error {} (wanted '{want}')",
                name(p),
                e.render(&text)
            )),
            Err(_) => {}
        }
    }
    println!("{} invalid programs, {} wrong", all.len(), bad.len());
    for b in &bad {
        println!("  {b}");
    }
    assert!(all.len() >= 20, "too few invalid programs");
    assert!(bad.is_empty(), "{} invalid programs misbehaved", bad.len());
}
