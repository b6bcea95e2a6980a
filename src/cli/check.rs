//! `glemu check FILE... [--ir] [--target T]`.

use glemu_programs::{assemble_with, Stage};
use std::io::Write;

/// Parses a `--target` name.
///
/// ```
/// use glemu::{cli::check::stage_by_name, programs::Stage};
/// assert_eq!(stage_by_name("tess-eval"), Some(Stage::TessEval));
/// assert_eq!(stage_by_name("compute"), None);
/// ```
pub fn stage_by_name(name: &str) -> Option<Stage> {
    Some(match name {
        "vertex" => Stage::Vertex,
        "tess-control" => Stage::TessControl,
        "tess-eval" => Stage::TessEval,
        "geometry" => Stage::Geometry,
        "fragment" => Stage::Fragment,
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
    let mut files = Vec::new();
    let mut ir = false;
    let mut target = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--ir" => ir = true,
            "--target" => {
                let Some(t) = it.next() else {
                    let _ = writeln!(err, "glemu check: --target needs a stage (vertex tess-control tess-eval geometry fragment)");
                    return 2;
                };
                match stage_by_name(t) {
                    Some(s) => target = Some(s),
                    None => {
                        let _ = writeln!(err, "glemu check: unknown target '{t}' (vertex tess-control tess-eval geometry fragment)");
                        return 2;
                    }
                }
            }
            f => files.push(f.to_string()),
        }
    }
    if files.is_empty() {
        let _ = writeln!(err, "usage: glemu check FILE... [--ir] [--target vertex|tess-control|tess-eval|geometry|fragment]");
        return 2;
    }
    let mut code = 0;
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(err, "{f}: error: cannot read: {e}");
                code = 1;
                continue;
            }
        };
        match assemble_with(&text, target, &crate::caps::LIMITS) {
            Ok(p) => {
                if ir {
                    let _ = writeln!(out, "{}", print_ir(&p));
                }
            }
            Err(e) => {
                let _ = writeln!(err, "{f}:{}", e.render(&text));
                code = 1;
            }
        }
    }
    code
}

/// The compiled form as text: the programs crate's printer (`--ir`).
fn print_ir(p: &glemu_programs::Program) -> String {
    glemu_programs::print::print_program(p)
}
