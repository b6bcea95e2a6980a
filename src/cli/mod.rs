//! The `glemu` command line: `check`, `run`, `render`, `bench`, `info`, and with no
//! arguments a built-in default scene rendered to `glemu-default.png`.

pub mod check;

use std::io::Write;

const USAGE: &str = "usage:
  glemu check FILE... [--ir] [--target vertex|tess-control|tess-eval|geometry|fragment]
  glemu run SCENE.shader_test
  glemu render SCENE.shader_test -o OUT.png
  glemu bench SCENE.shader_test [--frames N] [--warmup W] [--threads T]
  glemu info
  glemu                 (renders the built-in default scene to glemu-default.png)";

/// Runs the CLI with `args` (without the program name); returns the exit code.
///
/// ```
/// let mut out = Vec::new();
/// let mut err = Vec::new();
/// assert_eq!(glemu::cli::main(&["nonsense".to_string()], &mut out, &mut err), 2);
/// ```
pub fn main(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let Some(cmd) = args.first() else {
        return 2;
    };
    let rest = args.get(1..).unwrap_or(&[]);
    match cmd.as_str() {
        "check" => check::run(rest, out, err),
        "-h" | "--help" | "help" => {
            let _ = writeln!(out, "{USAGE}");
            0
        }
        other => {
            let _ = writeln!(err, "glemu: unknown command '{other}'\n{USAGE}");
            2
        }
    }
}
