//! `glemu run`, `glemu render`, `glemu bench`.

use crate::scene::{self, Outcome, Report, RunOptions, Runner};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn read_scene(path: &str, err: &mut dyn Write) -> Option<(String, PathBuf)> {
    match crate::caps::read_input_file(Path::new(path)) {
        Ok(t) => {
            let dir = Path::new(path)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default();
            Some((t, dir))
        }
        Err(e) => {
            let _ = writeln!(err, "{path}: error: {e}");
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

/// Run a scene and check its probes: prints PASS, FAIL or SKIP.
///
/// Failed probes and errors are printed before the verdict, one per line, as
/// `SCENE: line N: MESSAGE`. Also runs piglit's old `.vpfp` files.
///
/// Exit code: 0 PASS, 1 FAIL (or an unreadable/invalid scene), 77 SKIP, 2 usage error.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  glemu run reftests/scenes/tessellation/tess_quad_levels_fill.shader_test\n  glemu run -v reftests/scenes/raster/stencil_ops.shader_test"
)]
pub struct RunArgs {
    /// The scene (.shader_test or .vpfp).
    #[arg(value_name = "SCENE")]
    pub scene: String,
    /// Print every probe line with its outcome (`SCENE:LINE: probe ... -> pass|FAIL`),
    /// not only the failures.
    #[arg(short, long)]
    pub verbose: bool,
    // (A doc comment here would replace the help text of the flattened arguments.)
    #[allow(missing_docs)]
    #[command(flatten)]
    pub timeout: TimeoutArg,
}

/// `--timeout SECONDS`, shared by run, render and bench.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct TimeoutArg {
    /// The longest one draw may run, in seconds (default 5; 0 = no limit, for
    /// benchmarks). A draw past it stops with GL_INVALID_OPERATION saying so.
    #[arg(long = "timeout", value_name = "SECONDS", value_parser = seconds)]
    pub seconds: Option<f64>,
}

impl TimeoutArg {
    /// The per-draw time limit it asks for.
    ///
    /// ```
    /// use glemu::cli::scene_cmds::TimeoutArg;
    /// use std::time::Duration;
    /// assert_eq!(TimeoutArg { seconds: Some(2.5) }.limit(), Some(Duration::from_millis(2500)));
    /// assert_eq!(TimeoutArg { seconds: Some(0.0) }.limit(), None);
    /// assert_eq!(TimeoutArg { seconds: None }.limit(), Some(glemu::context::DEFAULT_DRAW_TIME_LIMIT));
    /// ```
    pub fn limit(self) -> Option<Duration> {
        match self.seconds {
            None => Some(crate::context::DEFAULT_DRAW_TIME_LIMIT),
            Some(s) if s > 0.0 => Some(Duration::from_secs_f64(s)),
            Some(_) => None,
        }
    }
}

/// Seconds from 0 to 1,000,000 (clap's value parser for `--timeout`).
fn seconds(v: &str) -> Result<f64, String> {
    v.parse::<f64>()
        .ok()
        .filter(|s| (0.0..=1e6).contains(s))
        .ok_or_else(|| format!("--timeout takes seconds from 0 (no limit) to 1000000, found '{v}'"))
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
    super::subcommand("run", args, out, err)
}

/// `glemu run` with parsed arguments.
pub fn exec_run(args: &RunArgs, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let path = &args.scene;
    let Some((text, dir)) = read_scene(path, err) else {
        return 1;
    };
    if path.ends_with(".vpfp") {
        return print_report(path, &scene::vpfp::run_vpfp(&text), out);
    }
    let opts = RunOptions {
        draw_time_limit: args.timeout.limit(),
        ..RunOptions::default()
    };
    let (r, probes) = scene::run_text_probes(&text, &dir, opts);
    if args.verbose {
        let lines: Vec<&str> = text.lines().collect();
        for (line, passed) in probes {
            let src = lines.get(line - 1).map_or("", |l| l.trim());
            let verdict = if passed { "pass" } else { "FAIL" };
            let _ = writeln!(out, "{path}:{line}: {src} -> {verdict}");
        }
    }
    print_report(path, &r, out)
}

/// Renders a scene's text; returns the runner (for the image) or a failed report.
fn render_runner(
    text: &str,
    dir: &Path,
    opts: RunOptions,
    threads: usize,
) -> Result<Runner, Report> {
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
    r.set_threads(threads).map_err(|e| fail(e.to_string()))?;
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

/// Render a scene to a PNG (its final colour buffer, top row first).
///
/// Probes run but do not decide anything here (`probe png` lines are skipped); use
/// `glemu run` to check them. A scene that cannot run prints its error and exits 1; one
/// whose [require] is not met exits 77.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  glemu render scene.shader_test -o out.png\n  glemu render scene.shader_test -o big.png --zoom 4 --samples-override 8 --threads 1"
)]
pub struct RenderArgs {
    /// The scene (.shader_test).
    #[arg(value_name = "SCENE")]
    pub scene: String,
    /// Where the PNG goes (its directory is created).
    #[arg(short = 'o', long = "output", value_name = "OUT.png", required = true)]
    pub output: String,
    /// Rasterizer worker threads (default: one per CPU). The image is the same at any
    /// count.
    #[arg(long, value_name = "T", value_parser = super::ranged("--threads", 1, crate::context::MAX_THREADS))]
    pub threads: Option<usize>,
    /// Samples per pixel of the window framebuffer instead of the scene's `samples N`
    /// (1, 2, 4, 8 or 16; resolved to one colour per pixel in the PNG).
    #[arg(long, value_name = "N", value_parser = ["1", "2", "4", "8", "16"])]
    pub samples_override: Option<String>,
    /// Scale the PNG up by this whole factor, each pixel a ZxZ block (nearest neighbour),
    /// to look at small scenes.
    #[arg(long, value_name = "Z", default_value_t = 1, value_parser = super::ranged("--zoom", 1, MAX_ZOOM))]
    pub zoom: usize,
    // (A doc comment here would replace the help text of the flattened arguments.)
    #[allow(missing_docs)]
    #[command(flatten)]
    pub timeout: TimeoutArg,
}

/// Largest `--zoom`.
pub const MAX_ZOOM: usize = 64;

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
/// let args = [path.clone(), "-o".to_string(), png.clone(), "--zoom".to_string(), "3".to_string()];
/// assert_eq!(glemu::cli::scene_cmds::render(&args, &mut out, &mut err), 0);
/// assert_eq!(image::image_dimensions(&png).unwrap(), (12, 12));
/// ```
pub fn render(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    super::subcommand("render", args, out, err)
}

/// `glemu render` with parsed arguments.
pub fn exec_render(args: &RenderArgs, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let path = &args.scene;
    let png = &args.output;
    let Some((text, dir)) = read_scene(path, err) else {
        return 1;
    };
    let opts = RunOptions {
        skip_png_probes: true,
        samples_override: args
            .samples_override
            .as_deref()
            .and_then(|s| s.parse().ok()),
        draw_time_limit: args.timeout.limit(),
        ..Default::default()
    };
    match render_runner(&text, &dir, opts, args.threads.unwrap_or(0)) {
        Ok(r) => {
            let written = write_png(r.context(), Path::new(png))
                .and_then(|()| zoom_png(Path::new(png), args.zoom));
            match written {
                Ok(()) => {
                    let _ = writeln!(out, "wrote {png}");
                    0
                }
                Err(e) => {
                    let _ = writeln!(err, "glemu render: {e}");
                    1
                }
            }
        }
        Err(rep) => print_report(path, &rep, err),
    }
}

/// Scales a written PNG up by `zoom` (nearest neighbour).
fn zoom_png(png: &Path, zoom: usize) -> Result<(), String> {
    if zoom <= 1 {
        return Ok(());
    }
    let img = image::open(png).map_err(|e| e.to_string())?.to_rgba8();
    let z = u32::try_from(zoom).map_err(|e| e.to_string())?;
    let (w, h) = (img.width() * z, img.height() * z);
    image::imageops::resize(&img, w, h, image::imageops::FilterType::Nearest)
        .save(png)
        .map_err(|e| format!("{}: {e}", png.display()))
}

/// Most frames (timed or warm-up) one `glemu bench` runs.
pub const MAX_BENCH_FRAMES: usize = 100_000;

/// Time a scene's frames: prints one `BENCH key=value ...` line.
///
/// The line has fps, the median frame time, throughput and what the pipeline did in a
/// frame, from its own counters (ARB_pipeline_statistics_query's): vertices,
/// primitives_submitted, vs_invocations, tcs_patches, tes_invocations, gs_invocations,
/// gs_primitives, clip_in / clip_out (primitives entering / leaving clipping; also
/// tris_per_frame = clip_in), fragments (fragment program runs; also
/// covered_pixels_per_frame) and samples_passed. Mtris_per_s and Mpixels_per_s are
/// clip_in and fragments times fps. On a terminal, runs longer than a second show a
/// progress line on stderr.
///
/// Each frame runs every command of the [test] section and ends with a resolve and a
/// one-pixel read back (as the oracle's frames do). The median of the timed frames
/// decides fps.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  glemu bench bench/scenes/tess_patch_grid.nv.shader_test\n  glemu bench scene.shader_test --frames 100 --warmup 5 --threads 1"
)]
pub struct BenchArgs {
    /// The scene (.shader_test).
    #[arg(value_name = "SCENE")]
    pub scene: String,
    /// Timed frames.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = super::ranged("--frames", 1, MAX_BENCH_FRAMES))]
    pub frames: usize,
    /// Untimed frames first (caches, compiled programs).
    #[arg(long, value_name = "W", default_value_t = 2, value_parser = super::ranged("--warmup", 0, MAX_BENCH_FRAMES))]
    pub warmup: usize,
    /// Rasterizer worker threads (default: one per CPU).
    #[arg(long, value_name = "T", value_parser = super::ranged("--threads", 1, crate::context::MAX_THREADS))]
    pub threads: Option<usize>,
    // (A doc comment here would replace the help text of the flattened arguments.)
    #[allow(missing_docs)]
    #[command(flatten)]
    pub timeout: TimeoutArg,
}

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
    super::subcommand("bench", args, out, err)
}

/// `glemu bench` with parsed arguments.
pub fn exec_bench(args: &BenchArgs, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let path = &args.scene;
    let Some((text, dir)) = read_scene(path, err) else {
        return 1;
    };
    // The progress line only where a person watches (a terminal on stderr).
    let progress = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let result = bench_frames(&text, &dir, args, progress, err);
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

/// The `\r` progress line on a terminal, at most 4 times a second once a run has taken a
/// second.
struct Progress {
    on: bool,
    started: Instant,
    last: Option<Instant>,
}

impl Progress {
    fn tick(&mut self, err: &mut dyn Write, done: usize, total: usize) {
        if !self.on || self.started.elapsed().as_secs_f64() < 1.0 {
            return;
        }
        if self.last.is_some_and(|l| l.elapsed().as_secs_f64() < 0.25) {
            return;
        }
        self.last = Some(Instant::now());
        let _ = write!(
            err,
            "\rglemu bench: frame {done}/{total}, {:.1} s",
            self.started.elapsed().as_secs_f64()
        );
        let _ = err.flush();
    }

    fn finish(&mut self, err: &mut dyn Write) {
        if self.last.is_some() {
            // Erase the line so only the BENCH line stays.
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
    }
}

/// One frame's pipeline statistics as `key=value` pairs of the BENCH line.
fn stats_fields(s: &crate::PipelineStatistics) -> String {
    format!(
        "vertices={} primitives_submitted={} vs_invocations={} tcs_patches={} tes_invocations={} gs_invocations={} gs_primitives={} clip_in={} clip_out={} fragments={} samples_passed={}",
        s.vertices_submitted,
        s.primitives_submitted,
        s.vertex_invocations,
        s.tess_control_patches,
        s.tess_eval_invocations,
        s.geometry_invocations,
        s.geometry_primitives_emitted,
        s.clipping_input_primitives,
        s.clipping_output_primitives,
        s.fragment_invocations,
        s.samples_passed,
    )
}

fn bench_frames(
    text: &str,
    dir: &Path,
    opts: &BenchArgs,
    progress: bool,
    err: &mut dyn Write,
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
            draw_time_limit: opts.timeout.limit(),
            ..Default::default()
        },
    )
    .map_err(|e| e.to_string())?;
    r.set_threads(opts.threads.unwrap_or(0))
        .map_err(|e| e.to_string())?;
    let (frames, warmup) = (opts.frames, opts.warmup);
    let mut times = Vec::with_capacity(frames);
    let mut stats = crate::PipelineStatistics::default();
    let mut bar = Progress {
        on: progress,
        started: Instant::now(),
        last: None,
    };
    for i in 0..warmup + frames {
        r.ctx.reset_pipeline_statistics();
        let t0 = Instant::now();
        r.run_commands().map_err(|e| e.to_string())?;
        // The frame ends with a resolve + 1-pixel readback, as the oracle's does.
        let _ = r.context().read_pixel(0, 0).map_err(|e| e.to_string())?;
        let dt = t0.elapsed().as_secs_f64();
        if i >= warmup {
            times.push(dt);
            stats = r.context().pipeline_statistics();
        }
        bar.tick(err, i + 1, warmup + frames);
    }
    bar.finish(err);
    let total: f64 = times.iter().sum();
    times.sort_by(|a, b| a.total_cmp(b));
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    let median_ms = median * 1e3;
    let fps = if median > 0.0 { 1.0 / median } else { 0.0 };
    // Primitives are those reaching clipping (points, lines or triangles, after
    // tessellation and geometry programs); pixels are fragment program runs. Both come
    // from the pipeline's own counters, so every kind of draw counts.
    let prims = stats.clipping_input_primitives;
    let fragments = stats.fragment_invocations;
    Ok(format!(
        "BENCH fps={fps:.2} median_ms={median_ms:.3} Mpixels_per_s={:.2} Mtris_per_s={:.3} size={w}x{h} samples={samples} frames={frames} total_s={total:.3} tris_per_frame={prims} covered_pixels_per_frame={fragments} {}",
        fragments as f64 * fps / 1e6,
        prims as f64 * fps / 1e6,
        stats_fields(&stats),
    ))
}
