//! What glemu's tests share across crates.
//!
//! Some tests need material that lives outside the repository, in a `shared/` folder
//! beside it: the conformance corpora (`shared/corpus`: piglit and real-world programs),
//! the NV example scenes (`shared/scenes`) and the reference renderer's outputs
//! (`shared/oracle`). [`external`] is the one place that decides what such a test does:
//!
//! - present: the test runs (and must pass);
//! - absent: the test is skipped, with one `SKIP` line on stderr saying what is missing
//!   and where it is expected;
//! - absent while the `CI` environment variable is set: the test fails, naming what is
//!   missing, so CI can never skip silently.
//!
//! `GLEMU_SHARED` overrides where `shared/` is looked for (a git worktree is not beside it).

#![warn(missing_docs)]

pub mod mutate;

use std::io::Write;
use std::path::{Path, PathBuf};

/// The `shared/` folder: `$GLEMU_SHARED` when set, else the folder beside the repository.
pub fn shared_root() -> PathBuf {
    match std::env::var_os("GLEMU_SHARED") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => {
            let here = Path::new(env!("CARGO_MANIFEST_DIR"));
            let beside_repo = here.parent().and_then(Path::parent).unwrap_or(here);
            beside_repo.join("shared")
        }
    }
}

/// True when the `CI` environment variable is set (to anything but empty, `0` or `false`).
pub fn running_in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false"))
}

/// What a test does about the external material it needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Everything is there: run with these paths.
    Run(Vec<PathBuf>),
    /// Something is absent outside CI: skip, printing this line.
    Skip(String),
    /// Something is absent in CI: fail with this message.
    Fail(String),
}

/// The policy, without touching the environment: `test` names the test, `needs` lists
/// where each piece of material is expected and whether it is there, `ci` whether CI runs.
pub fn decide(test: &str, needs: &[(PathBuf, bool)], ci: bool) -> Decision {
    let missing: Vec<String> = needs
        .iter()
        .filter(|(_, present)| !present)
        .map(|(path, _)| format!("{} at {}", describe(path), path.display()))
        .collect();
    if missing.is_empty() {
        return Decision::Run(needs.iter().map(|(p, _)| p.clone()).collect());
    }
    let missing = missing.join(" and ");
    if ci {
        Decision::Fail(format!(
            "{test}: missing {missing} (CI is set, so tests that need it may not be skipped)"
        ))
    } else {
        Decision::Skip(format!("SKIP {test}: not found: {missing}"))
    }
}

/// A name for the material at `path`, from its place under `shared/`.
fn describe(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let under = parts
        .iter()
        .rposition(|p| p == "shared")
        .map_or(&parts[..0], |i| &parts[i + 1..]);
    match under.first().map(String::as_str) {
        Some("corpus") => "the external conformance corpus",
        Some("scenes") => "the external NV example scenes",
        Some("oracle") => "the reference renderer's outputs",
        _ => "external material",
    }
    .to_string()
}

/// The external material at `shared/<relative>` for the test `test`: `Some(path)` when it
/// is there; `None` after printing one `SKIP` line when it is absent; a panic naming it when
/// it is absent and CI runs (the test fails).
pub fn external(test: &str, relative: &str) -> Option<PathBuf> {
    externals(test, &[relative]).and_then(|mut v| v.pop())
}

/// [`external`] for a test that needs several pieces: all of them or a skip (one line
/// naming every missing piece).
pub fn externals(test: &str, relatives: &[&str]) -> Option<Vec<PathBuf>> {
    let root = shared_root();
    let needs: Vec<(PathBuf, bool)> = relatives
        .iter()
        .map(|r| {
            let p = root.join(r);
            let present = p.exists();
            (p, present)
        })
        .collect();
    match decide(test, &needs, running_in_ci()) {
        Decision::Run(paths) => Some(paths),
        Decision::Skip(line) => {
            skip_line(&line);
            None
        }
        #[allow(clippy::panic)] // a failing test is the point
        Decision::Fail(message) => panic!("{message}"),
    }
}

/// Writes `line` to the process's stderr directly, past the test harness's output capture,
/// so a skip shows in a plain `cargo test` run.
fn skip_line(line: &str) {
    // One write, so the line is not interleaved with the harness's own output.
    let _ = std::io::stderr().write_all(format!("{line}\n").as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn present_runs_absent_skips_absent_in_ci_fails() {
        let p = PathBuf::from("/x/shared/corpus/piglit/tests");
        let q = PathBuf::from("/x/shared/scenes");
        let run = Decision::Run(vec![p.clone(), q.clone()]);
        let both = [(p.clone(), true), (q.clone(), true)];
        assert_eq!(decide("t", &both, false), run);
        assert_eq!(decide("t", &both, true), run);
        let one_missing = [(p.clone(), false), (q.clone(), true)];
        assert_eq!(
            decide("piglit", &one_missing, false),
            Decision::Skip(
                "SKIP piglit: not found: the external conformance corpus at \
                 /x/shared/corpus/piglit/tests"
                    .into()
            )
        );
        let Decision::Fail(msg) = decide("piglit", &one_missing, true) else {
            panic!("absent in CI must fail");
        };
        assert!(
            msg.starts_with(
                "piglit: missing the external conformance corpus at /x/shared/corpus/piglit/tests"
            ),
            "{msg}"
        );
        let Decision::Skip(line) = decide("t", &[(p, false), (q, false)], false) else {
            panic!("absent outside CI must skip");
        };
        assert!(line.contains("corpus at /x/shared/corpus/piglit/tests and the external NV example scenes at /x/shared/scenes"), "{line}");
    }

    #[test]
    fn each_kind_is_named() {
        for (rel, says) in [
            ("scenes", "NV example scenes"),
            ("oracle/bench", "reference renderer"),
            ("corpus/realworld", "conformance corpus"),
        ] {
            let p = Path::new("/r/shared").join(rel);
            let Decision::Skip(line) = decide("t", &[(p, false)], false) else {
                panic!("absent outside CI must skip");
            };
            assert!(line.contains(says), "{line}");
        }
    }

    #[test]
    fn external_follows_the_environment() {
        // The real entry point, in child processes so the variables are theirs: material
        // present runs, absent skips with its line, absent in CI fails naming it.
        let exe = std::env::current_exe().expect("test binary");
        let present = std::env::temp_dir().join(format!("glemu-ts-{}", std::process::id()));
        std::fs::create_dir_all(present.join("scenes")).expect("temp dir");
        let absent = Path::new("/nonexistent/glemu-test-support/shared");
        for (root, ci, success, says) in [
            (present.as_path(), Some("true"), true, "probe found "),
            (
                absent,
                None,
                true,
                "SKIP probe: not found: the external NV example scenes",
            ),
            (absent, Some("false"), true, "SKIP probe: not found"),
            (
                absent,
                Some("true"),
                false,
                "probe: missing the external NV example scenes at /nonexistent",
            ),
        ] {
            let mut cmd = std::process::Command::new(&exe);
            cmd.args([
                "--exact",
                "tests::probe",
                "--include-ignored",
                "--nocapture",
            ])
            .env("GLEMU_SHARED", root);
            match ci {
                Some(v) => cmd.env("CI", v),
                None => cmd.env_remove("CI"),
            };
            let out = cmd.output().expect("run the probe");
            let all = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(out.status.success(), success, "CI={ci:?}\n{all}");
            assert!(all.contains(says), "CI={ci:?}: wanted {says:?} in\n{all}");
        }
        let _ = std::fs::remove_dir_all(&present);
    }

    /// Run only by `external_follows_the_environment`, in a child process.
    #[test]
    #[ignore = "driven by external_follows_the_environment"]
    fn probe() {
        if let Some(p) = external("probe", "scenes") {
            skip_line(&format!("probe found {}", p.display()));
        }
    }
}
