//! The `glemu` command line: `check`, `run`, `render`, `bench`, `trace`, `info`, and with no
//! arguments a built-in default scene rendered to `glemu-default.png`.
//!
//! Parsing is clap's (every subcommand has its own `--help`); usage errors exit with 2
//! and name the option and what it accepts.

pub mod check;
pub mod info;
pub mod scene_cmds;
pub mod trace;
pub mod trace_ops;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser, Subcommand};
use std::io::Write;

/// glemu: a software GPU running NVIDIA assembly programs (NV_gpu_program5 and ancestors).
///
/// With no command, renders a built-in scene (vertex, tessellation, geometry and fragment
/// programs, textured) to glemu-default.png and says where.
#[derive(Parser, Debug)]
#[command(
    name = "glemu",
    version,
    after_help = "Exit codes: 0 success/PASS, 1 failure/FAIL or an unreadable file, \
2 usage error, 77 SKIP (a [require] line is not met).\n\
Run 'glemu COMMAND --help' for each command's options."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    Check(check::CheckArgs),
    Run(scene_cmds::RunArgs),
    Render(scene_cmds::RenderArgs),
    Bench(scene_cmds::BenchArgs),
    Trace(trace::TraceArgs),
    Info(info::InfoArgs),
}

/// The top-level help (`glemu --help`), printed after the default scene is rendered.
fn usage() -> String {
    Cli::command().render_help().to_string()
}

/// The built-in scene `glemu` renders with no arguments.
///
/// ```
/// let s = glemu::scene::parse(glemu::cli::DEFAULT_SCENE).unwrap();
/// assert!(s.programs.iter().any(|p| p.text.starts_with("!!NVtcp5.0")));
/// ```
pub const DEFAULT_SCENE: &str = include_str!("default_scene.shader_test");

/// Renders [`DEFAULT_SCENE`] to `glemu-default.png` (in `out/` when that directory
/// exists) and says where.
fn default_scene(out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let path = if std::path::Path::new("out").is_dir() {
        "out/glemu-default.png"
    } else {
        "glemu-default.png"
    };
    let sc = match crate::scene::parse(DEFAULT_SCENE) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "glemu: default scene: {e}");
            return 1;
        }
    };
    let opts = crate::scene::RunOptions {
        skip_png_probes: true,
        ..Default::default()
    };
    let result =
        crate::scene::Runner::new(sc, std::path::Path::new("."), opts).and_then(|mut r| {
            r.run_commands()?;
            Ok(r)
        });
    match result {
        Ok(r) => match scene_cmds::write_png(r.context(), std::path::Path::new(path)) {
            Ok(()) => {
                // The full path, so a newcomer can open it whatever directory they ran in.
                let shown = std::fs::canonicalize(path)
                    .map_or_else(|_| path.to_string(), |p| p.display().to_string());
                let _ = writeln!(out, "glemu: rendered the built-in default scene (NV_gpu_program5 vertex + tessellation + geometry + fragment programs, textured) to {shown}");
                let _ = writeln!(out, "{}", usage());
                0
            }
            Err(e) => {
                let _ = writeln!(err, "glemu: {e}");
                1
            }
        },
        Err(e) => {
            let _ = writeln!(err, "glemu: default scene: {e}");
            1
        }
    }
}

/// A numeric option's range, checked by clap and named in its error.
fn ranged(
    name: &'static str,
    lo: usize,
    hi: usize,
) -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
    move |v: &str| {
        v.parse::<usize>()
            .ok()
            .filter(|n| (lo..=hi).contains(n))
            .ok_or_else(|| range_message(name, lo, hi, &format!("'{v}'")))
    }
}

fn range_message(name: &str, lo: usize, hi: usize, found: &str) -> String {
    format!("{name} takes a number from {lo} to {hi}, found {found}")
}

/// Ranges of the numeric options, so a missing value is explained like a wrong one.
fn option_range(name: &str) -> Option<(usize, usize)> {
    Some(match name {
        "--frames" => (1, scene_cmds::MAX_BENCH_FRAMES),
        "--warmup" => (0, scene_cmds::MAX_BENCH_FRAMES),
        "--threads" => (1, crate::context::MAX_THREADS),
        "--zoom" => (1, scene_cmds::MAX_ZOOM),
        _ => return None,
    })
}

/// clap's error in glemu's words: `glemu SUB: WHAT`, then clap's usage line.
fn explain(e: &clap::Error, sub: Option<&str>) -> String {
    let sub = sub.map_or("glemu".to_string(), |s| format!("glemu {s}"));
    let string = |k| match e.get(k) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    let what = match e.kind() {
        ErrorKind::UnknownArgument => string(ContextKind::InvalidArg).map(|a| {
            if a.starts_with('-') {
                format!("unknown option '{a}'")
            } else if sub == "glemu info" {
                format!("unexpected argument '{a}' (it takes none)")
            } else {
                format!("unexpected argument '{a}' (one scene at a time)")
            }
        }),
        ErrorKind::InvalidValue
            if string(ContextKind::InvalidValue).is_some_and(|v| v.is_empty()) =>
        {
            string(ContextKind::InvalidArg).map(|a| {
                let name = a.split_whitespace().next().unwrap_or(&a).to_string();
                match option_range(&name) {
                    Some((lo, hi)) => range_message(&name, lo, hi, "nothing"),
                    None => format!("{a} needs a value"),
                }
            })
        }
        ErrorKind::ValueValidation => std::error::Error::source(e).map(|s| s.to_string()),
        _ => None,
    };
    let full = e.render().to_string();
    match what {
        Some(w) => {
            let tail = full.find("Usage:").map_or_else(
                || format!("\nFor more information, try '{sub} --help'.\n"),
                |i| format!("\n{}", &full[i..]),
            );
            format!("{sub}: {w}\n{tail}")
        }
        None => full,
    }
}

/// Runs the CLI with `args` (without the program name); returns the exit code.
///
/// ```
/// let mut out = Vec::new();
/// let mut err = Vec::new();
/// assert_eq!(glemu::cli::main(&["nonsense".to_string()], &mut out, &mut err), 2);
/// assert_eq!(glemu::cli::main(&["info".to_string()], &mut out, &mut err), 0);
/// ```
pub fn main(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let argv = std::iter::once("glemu".to_string()).chain(args.iter().cloned());
    let cli = match Cli::try_parse_from(argv) {
        Ok(c) => c,
        Err(e) => {
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    let text = e.render().to_string();
                    let nl = if text.ends_with('\n') { "" } else { "\n" };
                    let _ = write!(out, "{text}{nl}");
                    0
                }
                _ => {
                    let sub = args
                        .first()
                        .map(String::as_str)
                        .filter(|a| Cli::command().get_subcommands().any(|c| c.get_name() == *a));
                    let _ = write!(err, "{}", explain(&e, sub));
                    2
                }
            };
        }
    };
    match cli.command {
        None => default_scene(out, err),
        Some(Cmd::Check(a)) => check::exec(&a, out, err),
        Some(Cmd::Run(a)) => scene_cmds::exec_run(&a, out, err),
        Some(Cmd::Render(a)) => scene_cmds::exec_render(&a, out, err),
        Some(Cmd::Bench(a)) => scene_cmds::exec_bench(&a, out, err),
        Some(Cmd::Trace(a)) => trace::exec(&a, out, err),
        Some(Cmd::Info(a)) => info::exec(&a, out),
    }
}

/// `glemu SUB ARGS...` (for the subcommand modules' own entry points).
fn subcommand(sub: &str, args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let argv: Vec<String> = std::iter::once(sub.to_string())
        .chain(args.iter().cloned())
        .collect();
    main(&argv, out, err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> (i32, String, String) {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = main(&args, &mut out, &mut err);
        (
            code,
            String::from_utf8_lossy(&out).into_owned(),
            String::from_utf8_lossy(&err).into_owned(),
        )
    }

    #[test]
    fn the_parser_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_subcommand_has_help_naming_its_options() {
        for (sub, options) in [
            ("check", &["--ir", "--target", "shader_test"][..]),
            ("run", &["--verbose"]),
            (
                "render",
                &["--output", "--threads", "--samples-override", "--zoom"],
            ),
            ("bench", &["--frames", "--warmup", "--threads"]),
            ("info", &["--json"]),
            (
                "trace",
                &[
                    "--sample",
                    "--draw",
                    "--stage",
                    "--json",
                    "tess_eval",
                    "all",
                ],
            ),
        ] {
            let (code, out, _) = run(&[sub, "--help"]);
            assert_eq!(code, 0, "{sub}");
            for o in options {
                assert!(out.contains(o), "glemu {sub} --help lacks {o}:\n{out}");
            }
            assert!(
                out.lines().count() > 6,
                "glemu {sub} --help is thin:\n{out}"
            );
        }
        let (code, out, _) = run(&["--help"]);
        assert_eq!(code, 0);
        for sub in ["check", "run", "render", "bench", "trace", "info"] {
            assert!(out.contains(sub), "{out}");
        }
    }

    #[test]
    fn usage_errors_name_the_subcommand_and_option() {
        let (code, _, err) = run(&["render", "x.shader_test", "-o", "x.png", "--zoom"]);
        assert_eq!(code, 2);
        assert!(
            err.starts_with("glemu render: --zoom takes a number from 1 to"),
            "{err}"
        );
        let (code, _, err) = run(&["info", "--jsn"]);
        assert_eq!(code, 2);
        assert!(err.contains("unknown option '--jsn'"), "{err}");
    }
}
