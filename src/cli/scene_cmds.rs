//! `glemu run`, `glemu render`, `glemu bench`.

use crate::scene::{self, Outcome, Report, RunOptions, Runner};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn read_scene(path: &str, err: &mut dyn Write) -> Option<(String, PathBuf)> {
    match std::fs::read_to_string(path) {
        Ok(t) => {
            let dir = Path::new(path)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default();
            Some((t, dir))
        }
        Err(e) => {
            let _ = writeln!(err, "{path}: error: cannot read: {e}");
            None
        }
    }
}

/// Prints a report; returns the exit code (0 pass, 1 fail, 77 skip).
///
/// ```
/// use glemu::scene::{Outcome, Report};
/// let r = Report { outcome: Outcome::Skip("needs GL_FOO".into()), messages: vec![], triangles: 0, pixels: 0 };
/// let mut out = Vec::new();
/// assert_eq!(glemu::cli::scene_cmds::print_report("x.shader_test", &r, &mut out), 77);
/// assert_eq!(String::from_utf8(out).unwrap(), "SKIP: needs GL_FOO\n");
/// ```
pub fn print_report(path: &str, r: &Report, out: &mut dyn Write) -> i32 {
    for m in &r.messages {
        let _ = writeln!(out, "{path}: {m}");
    }
    match &r.outcome {
        Outcome::Pass => {
            let _ = writeln!(out, "PASS");
            0
        }
        Outcome::Fail => {
            let _ = writeln!(out, "FAIL");
            1
        }
        Outcome::Skip(reason) => {
            let _ = writeln!(out, "SKIP: {reason}");
            77
        }
    }
}

/// `glemu run SCENE`.
///
/// ```
/// let dir = std::env::temp_dir().join("glemu-doc-run");
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("green.shader_test");
/// std::fs::write(&path, "[require]\nSIZE 4 4\n[test]\nclear color 0 1 0 1\nclear\nprobe all rgba 0 1 0 1\n").unwrap();
/// let path = path.to_string_lossy().into_owned();
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// assert_eq!(glemu::cli::scene_cmds::run(&[path], &mut out, &mut err), 0);
/// assert!(String::from_utf8(out).unwrap().ends_with("PASS\n"));
/// ```
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let [path] = args else {
        let _ = writeln!(err, "usage: glemu run SCENE.shader_test");
        return 2;
    };
    let Some((text, dir)) = read_scene(path, err) else {
        return 1;
    };
    let r = if path.ends_with(".vpfp") {
        scene::vpfp::run_vpfp(&text)
    } else {
        scene::run_text(&text, &dir)
    };
    print_report(path, &r, out)
}

/// Renders a scene's text; returns the runner (for the image) or a failed report.
fn render_runner(text: &str, dir: &Path, opts: RunOptions) -> Result<Runner, Report> {
    let fail = |m: String| Report {
        outcome: Outcome::Fail,
        messages: vec![m],
        triangles: 0,
        pixels: 0,
    };
    let sc = scene::parse(text).map_err(|e| fail(e.to_string()))?;
    if let Some(reason) = scene::check_requirements(&sc) {
        return Err(Report {
            outcome: Outcome::Skip(reason),
            messages: Vec::new(),
            triangles: 0,
            pixels: 0,
        });
    }
    let mut r = Runner::new(sc, dir, opts).map_err(|e| fail(e.to_string()))?;
    r.run_commands().map_err(|e| fail(e.to_string()))?;
    Ok(r)
}

/// Writes the context's read buffer as a PNG, creating the directory it goes in.
///
/// ```
/// let mut ctx = glemu::Context::new(3, 2).unwrap();
/// ctx.clear(glemu::gl::COLOR_BUFFER_BIT).unwrap();
/// let png = std::env::temp_dir().join("glemu-doc-write.png");
/// glemu::cli::scene_cmds::write_png(&ctx, &png).unwrap();
/// assert!(std::fs::metadata(&png).unwrap().len() > 0);
/// ```
pub fn write_png(ctx: &crate::Context, path: &Path) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        if !parent.as_os_str().is_empty() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
    }
    ctx.save_png(path).map_err(|e| e.to_string())
}

/// `glemu render SCENE -o OUT.png`.
///
/// ```
/// let dir = std::env::temp_dir().join("glemu-doc-render");
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("green.shader_test");
/// std::fs::write(&path, "[require]\nSIZE 4 4\n[test]\nclear color 0 1 0 1\nclear\nprobe all rgba 0 1 0 1\n").unwrap();
/// let path = path.to_string_lossy().into_owned();
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let png = format!("{path}.png");
/// let args = [path.clone(), "-o".to_string(), png.clone()];
/// assert_eq!(glemu::cli::scene_cmds::render(&args, &mut out, &mut err), 0);
/// assert!(std::path::Path::new(&png).exists());
/// ```
pub fn render(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let mut scene_path = None;
    let mut out_path = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-o" => out_path = it.next().cloned(),
            p => scene_path = Some(p.to_string()),
        }
    }
    let (Some(path), Some(png)) = (scene_path, out_path) else {
        let _ = writeln!(err, "usage: glemu render SCENE.shader_test -o OUT.png");
        return 2;
    };
    let Some((text, dir)) = read_scene(&path, err) else {
        return 1;
    };
    let opts = RunOptions {
        skip_png_probes: true,
        ..Default::default()
    };
    match render_runner(&text, &dir, opts) {
        Ok(r) => match write_png(r.context(), Path::new(&png)) {
            Ok(()) => {
                let _ = writeln!(out, "wrote {png}");
                0
            }
            Err(e) => {
                let _ = writeln!(err, "glemu render: {e}");
                1
            }
        },
        Err(rep) => print_report(&path, &rep, err),
    }
}

/// Most frames (timed or warm-up) one `glemu bench` runs.
const MAX_BENCH_FRAMES: usize = 100_000;

/// `glemu bench SCENE [--frames N] [--warmup W] [--threads T]`.
///
/// ```
/// let dir = std::env::temp_dir().join("glemu-doc-bench");
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("green.shader_test");
/// std::fs::write(&path, "[require]\nSIZE 4 4\n[test]\nclear color 0 1 0 1\nclear\nprobe all rgba 0 1 0 1\n").unwrap();
/// let path = path.to_string_lossy().into_owned();
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let args = [path, "--frames".into(), "2".into(), "--warmup".into(), "0".into()];
/// assert_eq!(glemu::cli::scene_cmds::bench(&args, &mut out, &mut err), 0, "{}", String::from_utf8_lossy(&err));
/// assert!(!out.is_empty());
/// ```
pub fn bench(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let mut path = None;
    let mut frames = 20usize;
    let mut warmup = 2usize;
    let mut threads = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        // Each option takes a whole number in a range; anything else is a usage error
        // that says which option and what it accepts.
        let mut num = |name: &str, lo: usize, hi: usize| -> Option<usize> {
            let given = it.next();
            let v = given
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|v| (lo..=hi).contains(v));
            if v.is_none() {
                let found = given.map_or("nothing".to_string(), |g| format!("'{g}'"));
                let _ = writeln!(
                    err,
                    "glemu bench: {name} takes a number from {lo} to {hi}, found {found}"
                );
            }
            v
        };
        match a.as_str() {
            "--frames" => match num("--frames", 1, MAX_BENCH_FRAMES) {
                Some(v) => frames = v,
                None => return 2,
            },
            "--warmup" => match num("--warmup", 0, MAX_BENCH_FRAMES) {
                Some(v) => warmup = v,
                None => return 2,
            },
            "--threads" => match num("--threads", 1, crate::context::MAX_THREADS) {
                Some(v) => threads = Some(v),
                None => return 2,
            },
            o if o.starts_with("--") => {
                let _ = writeln!(err, "glemu bench: unknown option '{o}'");
                return 2;
            }
            p if path.is_none() => path = Some(p.to_string()),
            p => {
                let _ = writeln!(err, "glemu bench: one scene at a time (also given '{p}')");
                return 2;
            }
        }
    }
    let Some(path) = path else {
        let _ = writeln!(
            err,
            "usage: glemu bench SCENE.shader_test [--frames N] [--warmup W] [--threads T]"
        );
        return 2;
    };
    let Some((text, dir)) = read_scene(&path, err) else {
        return 1;
    };
    let result = bench_frames(&text, &dir, frames, warmup, threads.unwrap_or(0));
    match result {
        Ok(line) => {
            let _ = writeln!(out, "{line}");
            0
        }
        Err(e) => {
            let _ = writeln!(err, "glemu bench: {e}");
            1
        }
    }
}

fn bench_frames(
    text: &str,
    dir: &Path,
    frames: usize,
    warmup: usize,
    threads: usize,
) -> Result<String, String> {
    let sc = scene::parse(text).map_err(|e| e.to_string())?;
    if let Some(reason) = scene::check_requirements(&sc) {
        return Err(format!("SKIP: {reason}"));
    }
    let (w, h) = sc.size();
    let samples = sc.samples();
    let mut r = Runner::new(
        sc,
        dir,
        RunOptions {
            skip_png_probes: true,
            ..Default::default()
        },
    )
    .map_err(|e| e.to_string())?;
    r.set_threads(threads).map_err(|e| e.to_string())?;
    let mut times = Vec::with_capacity(frames);
    let mut tris = 0;
    let mut pixels = 0;
    for i in 0..warmup + frames {
        r.reset_counters();
        let t0 = Instant::now();
        r.run_commands().map_err(|e| e.to_string())?;
        // The frame ends with a resolve + 1-pixel readback, as the oracle's does.
        let _ = r.context().read_pixel(0, 0).map_err(|e| e.to_string())?;
        let dt = t0.elapsed().as_secs_f64();
        if i >= warmup {
            times.push(dt);
            let rep = r.report();
            tris = rep.triangles;
            pixels = rep.pixels;
        }
    }
    let total: f64 = times.iter().sum();
    times.sort_by(|a, b| a.total_cmp(b));
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let median_ms = median * 1e3;
    let fps = if median > 0.0 { 1.0 / median } else { 0.0 };
    Ok(format!(
        "BENCH fps={fps:.2} median_ms={median_ms:.3} Mpixels_per_s={:.2} Mtris_per_s={:.3} size={w}x{h} samples={samples} frames={frames} total_s={total:.3} tris_per_frame={tris} covered_pixels_per_frame={pixels}",
        pixels as f64 * fps / 1e6,
        tris as f64 * fps / 1e6,
    ))
}
