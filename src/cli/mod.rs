//! The `glemu` command line: `check`, `run`, `render`, `bench`, `info`, and with no
//! arguments a built-in default scene rendered to `glemu-default.png`.

pub mod check;
pub mod info;
pub mod scene_cmds;

use std::io::Write;

const USAGE: &str = "usage:
  glemu check FILE... [--ir] [--target vertex|tess-control|tess-eval|geometry|fragment]
  glemu run SCENE.shader_test
  glemu render SCENE.shader_test -o OUT.png
  glemu bench SCENE.shader_test [--frames N] [--warmup W] [--threads T]
  glemu info
  glemu                 (renders the built-in default scene to glemu-default.png)";

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
                let _ = writeln!(out, "{USAGE}");
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

/// Runs the CLI with `args` (without the program name); returns the exit code.
///
/// ```
/// let mut out = Vec::new();
/// let mut err = Vec::new();
/// assert_eq!(glemu::cli::main(&["nonsense".to_string()], &mut out, &mut err), 2);
/// assert_eq!(glemu::cli::main(&["info".to_string()], &mut out, &mut err), 0);
/// ```
pub fn main(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let Some(cmd) = args.first() else {
        return default_scene(out, err);
    };
    let rest = args.get(1..).unwrap_or(&[]);
    match cmd.as_str() {
        "check" => check::run(rest, out, err),
        "run" => scene_cmds::run(rest, out, err),
        "render" => scene_cmds::render(rest, out, err),
        "bench" => scene_cmds::bench(rest, out, err),
        "info" if rest.is_empty() => info::run(out),
        "info" => {
            let _ = writeln!(err, "usage: glemu info (it takes no arguments)");
            2
        }
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
