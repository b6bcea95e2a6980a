//! The hostile-input suite (issue 17): every scene of tests/hostile, plus inputs made at
//! run time, through the CLI under a 4 GiB address-space limit and a 10 s timeout. Each
//! must end with 0 (PASS), 1 (FAIL, with a message) or 77 (SKIP): never a signal, an
//! abort or a hang. HARDENING.md lists the classes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The address-space limit, in KiB (`ulimit -v`).
const ADDRESS_SPACE_KIB: u64 = 4 << 20;
const TIMEOUT: Duration = Duration::from_secs(10);

/// Runs `glemu ARGS...` limited as above; returns (exit code, elapsed, output).
fn run_limited(args: &[&Path]) -> (Option<i32>, Duration, String) {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("ulimit -v {ADDRESS_SPACE_KIB} && exec \"$@\""))
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_glemu"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let t0 = Instant::now();
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start sh: {e}"));
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if t0.elapsed() > TIMEOUT => {
                let _ = child.kill();
                break;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => panic!("{e}"),
        }
    }
    let elapsed = t0.elapsed();
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), elapsed, text)
}

/// The exit a scene must end with when it says so in a `# expect exit: N` line (inputs
/// that check nothing must fail, not pass); an empty file must fail.
fn expected_exit(scene: &Path) -> Option<i32> {
    let text = std::fs::read(scene).unwrap_or_default();
    if text.is_empty() {
        return Some(1);
    }
    String::from_utf8_lossy(&text)
        .lines()
        .find_map(|l| l.strip_prefix("# expect exit:"))
        .and_then(|v| v.trim().parse().ok())
}

fn check(name: &str, args: &[&Path]) -> (i32, String) {
    let (code, elapsed, text) = run_limited(args);
    assert!(
        elapsed <= TIMEOUT,
        "{name}: still running after {TIMEOUT:?}: {text}"
    );
    match code {
        Some(c @ (0 | 1 | 77)) => (c, text),
        _ => panic!("{name}: exit {code:?} (a signal or an abort) after {elapsed:?}: {text}"),
    }
}

fn hostile_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile")
}

#[test]
fn every_hostile_scene_ends_cleanly_within_limits() {
    let mut scenes: Vec<PathBuf> = std::fs::read_dir(hostile_dir())
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "shader_test"))
        .collect();
    scenes.sort();
    assert!(scenes.len() >= 10, "{scenes:?}");
    for s in &scenes {
        let name = s
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let (code, text) = check(&name, &[Path::new("run"), s]);
        eprintln!("{name}: {}", text.lines().last().unwrap_or(""));
        if let Some(want) = expected_exit(s) {
            assert_eq!(code, want, "{name}: {text}");
        }
    }
}

#[test]
fn endless_and_huge_input_files_are_refused() {
    let (_, text) = check("/dev/zero", &[Path::new("run"), Path::new("/dev/zero")]);
    assert!(text.contains("larger than 64 MiB"), "{text}");
    // A 10 MB program (the assembled form is tens of times the text).
    let dir = std::env::temp_dir().join(format!("glemu-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let scene = dir.join("huge_program.shader_test");
    let mut body = String::from("[require]\nSIZE 8 8\n\n[fragment program]\n!!ARBfp1.0\nTEMP t;\n");
    while body.len() < 10 << 20 {
        body.push_str("ADD t, t, fragment.color;\n");
    }
    body.push_str("MOV result.color, t;\nEND\n\n[test]\ndraw rect -1 -1 2 2\n");
    std::fs::write(&scene, body).unwrap_or_else(|e| panic!("{e}"));
    let (_, text) = check("huge_program", &[Path::new("run"), &scene]);
    assert!(text.contains("exceeds glemu's limit"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
