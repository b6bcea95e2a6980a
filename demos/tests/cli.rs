//! `glemu-demos --help` lists every demo (what scripts/gallery.sh reads) and exits 0; a
//! wrong demo name is a usage error (exit 2).

use std::process::Command;

#[test]
fn help_lists_every_demo_and_exits_0() {
    let out = Command::new(env!("CARGO_BIN_EXE_glemu-demos"))
        .arg("--help")
        .output()
        .expect("run glemu-demos");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let listed: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("demos:"))
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let names: Vec<&str> = glemu_demos::NAMES.iter().map(|(n, _)| *n).collect();
    assert_eq!(listed, names);
    for flag in ["--headless", "--frames", "--size", "--no-overlay", "--keys"] {
        assert!(text.contains(flag), "{flag} missing from the help");
    }
}

#[test]
fn an_unknown_demo_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_glemu-demos"))
        .arg("nonesuch")
        .output()
        .expect("run glemu-demos");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no demo 'nonesuch'"));
}
