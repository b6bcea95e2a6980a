//! The Context's documentation a GL programmer navigates (issue 18 point 8): every
//! `impl Context` block is headed by the GL chapter (or glemu's own area) it holds, so
//! the generated page lists the calls grouped that way, and the program-binding table
//! is part of the Context's docs.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use std::path::Path;

/// Each `impl Context {` line and the doc comment right above it.
fn impl_blocks(text: &str) -> Vec<(usize, Vec<&str>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim_end() != "impl Context {" {
            continue;
        }
        let mut doc = Vec::new();
        for l in lines[..i].iter().rev() {
            match l.strip_prefix("///") {
                Some(d) => doc.push(d.trim()),
                None if l.starts_with("#[") => {}
                None => break,
            }
        }
        doc.reverse();
        out.push((i + 1, doc));
    }
    out
}

#[test]
fn every_context_impl_block_has_a_chapter_heading() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/context");
    let mut blocks = 0;
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (line, doc) in impl_blocks(&text) {
            blocks += 1;
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !doc.first().is_some_and(|h| h.starts_with("# ")) {
                missing.push(format!("{name}:{line}"));
            }
        }
    }
    assert!(blocks >= 30, "{blocks} impl Context blocks found");
    assert!(
        missing.is_empty(),
        "impl Context without a `/// # ...` heading: {missing:?}"
    );
}

#[test]
fn the_binding_table_is_in_the_context_docs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/context");
    let module = std::fs::read_to_string(root.join("mod.rs")).unwrap();
    assert!(module.contains("#[doc = include_str!(\"bindings.md\")]"));
    let table = std::fs::read_to_string(root.join("bindings.md")).unwrap();
    for binding in [
        "program.env",
        "program.local",
        "program.buffer",
        "program.storage",
        "program.counter",
        "image",
        "texture",
    ] {
        assert!(
            table.contains(binding),
            "bindings.md does not name {binding}"
        );
    }
}
