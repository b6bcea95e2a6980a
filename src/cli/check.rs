//! `glemu check FILE... [--ir] [--target T]`.

use glemu_programs::{assemble_with, Stage};
use std::io::Write;
use std::path::PathBuf;

/// Assemble and validate programs (program files or .shader_test scenes).
///
/// A program file is checked as the stage its `!!` header names (or --target's). A
/// `.shader_test` file has every `[... program]` section checked as the stage of its
/// header, with errors at the scene's line numbers; a scene line that does not parse is
/// reported too. Errors go to stderr as `FILE:LINE:COL: error: MESSAGE`.
///
/// Exit code: 0 when every program is valid, 1 when any is invalid or a file cannot be
/// read, 2 on a usage error.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  glemu check shader.fp\n  glemu check --target geometry --ir wire.gp\n  glemu check reftests/scenes/tessellation/*.shader_test"
)]
pub struct CheckArgs {
    /// Program files (any dialect: !!ARBvp1.0 ... !!NVfp5.0) or .shader_test scenes.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Print the compiled form (slots, decoded operands, resolved flow control) of each
    /// valid program to stdout.
    #[arg(long)]
    pub ir: bool,
    /// Require program files to be of this stage (a !!NVfp5.0 file checked as vertex is an
    /// error). Scene sections are always checked as the stage their header names.
    #[arg(long, value_name = "STAGE", value_parser = ["vertex", "tess-control", "tess-eval", "geometry", "fragment", "compute"])]
    pub target: Option<String>,
}

/// Parses a `--target` name.
///
/// ```
/// use glemu::{cli::check::stage_by_name, programs::Stage};
/// assert_eq!(stage_by_name("tess-eval"), Some(Stage::TessEval));
/// assert_eq!(stage_by_name("compute"), Some(Stage::Compute));
/// assert_eq!(stage_by_name("pixel"), None);
/// ```
pub fn stage_by_name(name: &str) -> Option<Stage> {
    Some(match name {
        "vertex" => Stage::Vertex,
        "tess-control" => Stage::TessControl,
        "tess-eval" => Stage::TessEval,
        "geometry" => Stage::Geometry,
        "fragment" => Stage::Fragment,
        "compute" => Stage::Compute,
        _ => return None,
    })
}

/// Assembles each file; errors go to `err` as `FILE:LINE:COL: error: MESSAGE`, `--ir`
/// output to `out`. Returns the exit code (0 all valid, 1 any invalid or unreadable).
///
/// ```
/// let path = std::env::temp_dir().join("glemu-doc-check.fp");
/// std::fs::write(&path, "!!ARBfp1.0\nMOV result.color, fragment.nothing;\nEND\n").unwrap();
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let code = glemu::cli::check::run(&[path.to_string_lossy().into_owned()], &mut out, &mut err);
/// assert_eq!(code, 1);
/// assert!(String::from_utf8(err).unwrap().contains(":2:"));
/// ```
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    super::subcommand("check", args, out, err)
}

/// `glemu check` with parsed arguments.
pub fn exec(args: &CheckArgs, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let target = args.target.as_deref().and_then(stage_by_name);
    let mut code = 0;
    for path in &args.files {
        let f = path.display();
        let text = match crate::caps::read_input_file(path) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(err, "{f}: error: {e}");
                code = 1;
                continue;
            }
        };
        let ok = if path.extension().is_some_and(|e| e == "shader_test") {
            check_scene(&f.to_string(), &text, args.ir, out, err)
        } else {
            check_program(&f.to_string(), &text, target, 0, args.ir, out, err)
        };
        if !ok {
            code = 1;
        }
    }
    code
}

/// Assembles one program whose first line is scene line `first_line` (0: a file of its
/// own); errors name the file's line.
fn check_program(
    f: &str,
    text: &str,
    target: Option<Stage>,
    first_line: usize,
    ir: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> bool {
    match assemble_with(text, target, &crate::caps::LIMITS) {
        Ok(p) => {
            if ir {
                if first_line > 0 {
                    let _ = writeln!(out, "# {f}:{first_line}");
                }
                let _ = writeln!(out, "{}", glemu_programs::print::print_program(&p));
            }
            true
        }
        Err(e) if first_line == 0 => {
            let _ = writeln!(err, "{f}:{}", e.render(text));
            false
        }
        Err(e) => {
            let (l, c) = e.line_col(text);
            let line = first_line + l as usize - 1;
            let _ = writeln!(err, "{f}:{line}:{c}: error: {}", e.message);
            false
        }
    }
}

/// Every program section of a scene, then the scene's own syntax.
fn check_scene(f: &str, text: &str, ir: bool, out: &mut dyn Write, err: &mut dyn Write) -> bool {
    let mut ok = true;
    let sections = crate::scene::program_sections(text);
    for s in &sections {
        ok &= check_program(f, &s.text, Some(s.stage), s.first_line, ir, out, err);
    }
    if let Err(e) = crate::scene::parse(text) {
        let _ = writeln!(err, "{f}:{}: error: {}", e.line, e.message);
        ok = false;
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scene_sections_are_checked_at_scene_lines() {
        let dir = tempfile::Builder::new()
            .prefix("glemu-check-")
            .tempdir()
            .unwrap();
        let path = dir.path().join("two.shader_test");
        // Line 6 has the bad operand of the second program; the first is fine.
        std::fs::write(
            &path,
            "[require]\nGL >= 1.3\n[vertex program]\n!!ARBvp1.0\n\
             [fragment program]\n!!ARBfp1.0\nMOV result.color, fragment.colour;\nEND\n[test]\nclear\n",
        )
        .unwrap();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run(&[path.to_string_lossy().into_owned()], &mut out, &mut err);
        let err = String::from_utf8(err).unwrap();
        assert_eq!(code, 1, "{err}");
        let lines: Vec<&str> = err.lines().collect();
        // The vertex program lacks END (line 5 is the next header), the fragment program's
        // error is on scene line 7.
        assert_eq!(lines.len(), 2, "{err}");
        assert!(
            lines[0].starts_with(&format!("{}:", path.display())),
            "{err}"
        );
        assert!(lines[1].contains(":7:28: error: "), "{err}");
    }
}
