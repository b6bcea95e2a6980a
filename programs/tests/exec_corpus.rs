//! Every corpus program that assembles (and every program of `tests/programs/valid` and
//! the `=== loads` cases of `tests/load_rules`) runs on 16 lanes without panicking and without a
//! "malformed program" error (which would mean the executor and the front end disagree
//! on the compiled form). Environment failures ("not supported" from the test env) are
//! fine: they are the environment's answer, not the executor's.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod exec_util;
use exec_util::*;
use glemu_programs::exec::{ExecErrorKind, Executor, LaneState, MAX_LANES};
use std::path::{Path, PathBuf};

#[test]
fn reftest_programs_run_without_malformed_errors() {
    let mut paths = Vec::new();
    // The reftests, the valid test programs and the loading cases of the load rules.
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    files(&here.join("../reftests"), &mut paths);
    files(&here.join("tests/programs/valid"), &mut paths);
    files(&here.join("tests/load_rules"), &mut paths);
    run_all(paths);
}

#[test]
fn corpus_programs_run_without_malformed_errors() {
    if let Some(paths) =
        corpus_paths("programs/tests/exec_corpus.rs corpus_programs_run_without_malformed_errors")
    {
        run_all(paths);
    }
}

/// Runs every program that assembles in `paths` (more than 100 of them) on 16 lanes.
fn run_all(mut paths: Vec<PathBuf>) {
    paths.sort();
    let (mut ran, mut env_errors) = (0, 0);
    let mut bad = Vec::new();
    for path in &paths {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        for prog in programs(&text) {
            let Ok(p) = glemu_programs::assemble(&prog, None) else {
                continue;
            };
            let p = std::sync::Arc::new(p);
            let ex = Executor::new(p.clone()).with_budget(100_000);
            let mut st = LaneState::with_vertices(&p, MAX_LANES, 3);
            for v in 0..3 {
                for s in 0..p.inputs.len() {
                    if let Some(r) = st.input_vertex_mut(v, s) {
                        for (c, comp) in r.iter_mut().enumerate() {
                            for (l, x) in comp.iter_mut().enumerate() {
                                *x = ((l as f32 - 7.0) * 0.25 + c as f32 + v as f32).to_bits();
                            }
                        }
                    }
                }
            }
            let prm = params(&p, &[[0.5, 1.0, 2.0, 0.25]; 16]);
            let mut env = TestEnv {
                mem: vec![0; 4096],
                counters: vec![0; 8],
                subroutines: vec![0; 8],
                image: vec![[0; 4]; 16],
                ..Default::default()
            };
            let all = st.all_lanes();
            ran += 1;
            match run_stage(&ex, &mut st, all, &prm, &mut env) {
                Ok(_) => {}
                Err(e) => match e.kind {
                    ExecErrorKind::Env(_) | ExecErrorKind::BudgetExceeded(_) => env_errors += 1,
                    _ => bad.push(format!("{}: {e}", path.display())),
                },
            }
        }
    }
    println!("{ran} programs ran, {env_errors} stopped by the test environment or budget");
    assert!(ran > 100, "only {ran} programs found");
    assert!(
        bad.is_empty(),
        "{} failures:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
