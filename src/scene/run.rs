//! Running a parsed scene through the public Context API: `[require]` checks, program
//! loading, `[test]` commands and probes (piglit's tolerance rules).

use super::command::Command;
use super::parse::Scene;
use super::SceneError;
use crate::{gl, Cause, Context, Error};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

mod commands;
mod draws;
mod options;
mod probes;
mod requirements;

pub use options::{DiffImages, Outcome, Report, RunOptions};
use requirements::unsupported;
pub use requirements::{check_requirements, extensions, limit, GL_VERSION, MAX_SAMPLES};

/// Runs a scene. `dir` is where PNG files named by the scene live.
///
/// ```
/// let text = "[require]\nSIZE 4 4\n[test]\nclear color 0 1 0 1\nclear\nprobe all rgba 0 1 0 1\n";
/// use glemu::scene::{parse, Outcome, RunOptions, Runner};
/// let mut r = Runner::new(parse(text).unwrap(), std::path::Path::new("."), RunOptions::default()).unwrap();
/// r.run_commands().unwrap();
/// assert_eq!(r.report().outcome, Outcome::Pass);
/// assert_eq!(r.context().read_pixel(0, 0).unwrap(), [0.0, 1.0, 0.0, 1.0]);
/// ```
pub struct Runner {
    pub(crate) ctx: Context,
    scene: Scene,
    dir: PathBuf,
    opts: RunOptions,
    tolerance: [f64; 4],
    failed: bool,
    messages: Vec<String>,
    /// Scratch buffers reused across frames (bench mode).
    rect_buffer: u32,
    /// Texture each `texture` line created: line → (target, id).
    texture_cache: HashMap<usize, (u32, u32)>,
    /// (target, name) of the texture a `texture` command last bound to each unit, for
    /// `image unit N texture U`.
    unit_textures: HashMap<u32, (u32, u32)>,
    pub(crate) last_texture: Option<(u32, u32)>,
    rect_texcoords: bool,
    vertex_buffer: Option<u32>,
    element_buffer: Option<u32>,
    grids: HashMap<(u32, u32), (u32, u32, u32)>,
    named_buffers: HashMap<String, u32>,
    param_buffers: HashMap<(u32, u32), u32>,
    counter_buffers: HashMap<u32, u32>,
    xfb_buffers: HashMap<u32, u32>,
    xfb_queries: Vec<(u32, u32, u32)>,
    xfb_results: HashMap<(bool, u32), u64>,
    occlusion: Option<u32>,
    samples_passed: u64,
    triangles: u64,
    pixels: u64,
    /// Every probe line run, with whether it passed (`glemu run --verbose`).
    probes: Vec<(usize, bool)>,
}

fn fail_at(line: usize, e: impl std::fmt::Display) -> SceneError {
    SceneError {
        line,
        message: e.to_string(),
    }
}

impl Runner {
    /// Creates the context for `scene` (size, samples), checks requirements and loads
    /// its programs. `Err` = the scene cannot run (a program failed to load, ...).
    ///
    /// ```
    /// use glemu::scene::{parse, RunOptions, Runner};
    /// let bad = parse("[fragment program]\n!!ARBfp1.0\nMOV result.color, nothing;\nEND\n[test]\nclear\n").unwrap();
    /// let e = Runner::new(bad, std::path::Path::new("."), RunOptions::default()).err().unwrap();
    /// assert!(e.message.contains("nothing"), "{e}");
    /// ```
    pub fn new(scene: Scene, dir: &Path, opts: RunOptions) -> Result<Runner, SceneError> {
        let (w, h) = scene.size();
        let samples = opts.samples_override.unwrap_or(scene.samples());
        let mut ctx = Context::with_samples(w, h, samples).map_err(|e| fail_at(0, e))?;
        ctx.set_draw_time_limit(opts.draw_time_limit);
        let mut r = Runner {
            ctx,
            scene,
            dir: dir.to_path_buf(),
            opts,
            tolerance: [0.01; 4],
            failed: false,
            messages: Vec::new(),
            rect_buffer: 0,
            texture_cache: HashMap::new(),
            unit_textures: HashMap::new(),
            last_texture: None,
            rect_texcoords: true,
            vertex_buffer: None,
            element_buffer: None,
            grids: HashMap::new(),
            named_buffers: HashMap::new(),
            param_buffers: HashMap::new(),
            counter_buffers: HashMap::new(),
            xfb_buffers: HashMap::new(),
            xfb_queries: Vec::new(),
            xfb_results: HashMap::new(),
            occlusion: None,
            samples_passed: 0,
            triangles: 0,
            pixels: 0,
            probes: Vec::new(),
        };
        r.rect_buffer = r.ctx.gen_buffers(1).map_err(|e| fail_at(0, e))?[0];
        // piglit's `draw rect` sends no texture coordinates, so a scene that sets the
        // current texcoord 0 (`texcoord 0 ...`) reads it; otherwise rects carry
        // texcoord0 = (0..1, 0..1, 0, 1) as scene-format.md describes.
        r.rect_texcoords = !r
            .scene
            .commands
            .iter()
            .any(|(_, c)| matches!(c, Command::TexCoord(0, _)));
        r.load_programs()?;
        r.upload_vertex_data()?;
        Ok(r)
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Rasterizer worker threads (0 = one per CPU).
    ///
    /// ```
    /// let text = "[require]\nSIZE 4 4\n[test]\nclear color 0 1 0 1\nclear\nprobe all rgba 0 1 0 1\n";
    /// use glemu::scene::{parse, Outcome, RunOptions, Runner};
    /// let mut r = Runner::new(parse(text).unwrap(), std::path::Path::new("."), RunOptions::default()).unwrap();
    /// r.set_threads(1).unwrap();
    /// r.run_commands().unwrap();
    /// assert_eq!(r.report().outcome, Outcome::Pass);
    /// ```
    pub fn set_threads(&mut self, threads: usize) -> Result<(), Error> {
        self.ctx.set_threads(threads)
    }

    /// The context (for rendering the result).
    ///
    /// ```
    /// let text = "[require]\nSIZE 4 4\n[test]\nclear color 0 1 0 1\nclear\nprobe all rgba 0 1 0 1\n";
    /// use glemu::scene::{parse, RunOptions, Runner};
    /// let mut r = Runner::new(parse(text).unwrap(), std::path::Path::new("."), RunOptions::default()).unwrap();
    /// r.run_commands().unwrap();
    /// assert_eq!(r.context().size(), (4, 4));
    /// ```
    pub fn context(&self) -> &Context {
        &self.ctx
    }

    fn load_programs(&mut self) -> Result<(), SceneError> {
        let programs = self.scene.programs.clone();
        for p in &programs {
            let target = crate::context::programs::stage_target(p.stage);
            let line = p.first_line;
            let id = self.ctx.gen_programs(1).map_err(|e| fail_at(line, e))?[0];
            self.ctx
                .bind_program(target, id)
                .map_err(|e| fail_at(line, e))?;
            if let Err(e) = self.ctx.program_string(target, &p.text) {
                let Some(at) = e.program else {
                    return Err(fail_at(line, e));
                };
                let msg = match e.cause.as_deref() {
                    Some(Cause::Load(load)) => load.message.clone(),
                    _ => e.message,
                };
                let line = line + at.line as usize - 1;
                return Err(SceneError {
                    line,
                    message: format!("{line}:{}: {msg}", at.column),
                });
            }
            self.ctx.enable(target).map_err(|e| fail_at(line, e))?;
        }
        Ok(())
    }

    /// A run-time program error's message, with where its instruction is in the scene
    /// file (as load errors say it).
    fn locate_in_scene(&self, e: Error) -> String {
        let Some(at) = e.program.filter(|at| at.instruction.is_some()) else {
            return e.to_string();
        };
        match self
            .scene
            .programs
            .iter()
            .rev()
            .find(|p| p.stage == at.stage)
        {
            Some(p) => format!(
                "{e} (scene line {}, column {})",
                p.first_line + at.line as usize - 1,
                at.column
            ),
            None => e.to_string(),
        }
    }

    fn upload_vertex_data(&mut self) -> Result<(), SceneError> {
        if let Some(vd) = &self.scene.vertex_data {
            let id = self.ctx.gen_buffers(1).map_err(|e| fail_at(0, e))?[0];
            self.ctx
                .bind_buffer(gl::ARRAY_BUFFER, id)
                .map_err(|e| fail_at(0, e))?;
            self.ctx
                .buffer_data(gl::ARRAY_BUFFER, &vd.bytes, gl::STATIC_DRAW)
                .map_err(|e| fail_at(0, e))?;
            self.vertex_buffer = Some(id);
        }
        if !self.scene.elements.is_empty() {
            let id = self.ctx.gen_buffers(1).map_err(|e| fail_at(0, e))?[0];
            self.ctx
                .bind_buffer(gl::ELEMENT_ARRAY_BUFFER, id)
                .map_err(|e| fail_at(0, e))?;
            self.ctx
                .buffer_data(
                    gl::ELEMENT_ARRAY_BUFFER,
                    &self.scene.elements,
                    gl::STATIC_DRAW,
                )
                .map_err(|e| fail_at(0, e))?;
            self.element_buffer = Some(id);
        }
        Ok(())
    }

    /// Runs the `[test]` commands once (a frame).
    ///
    /// ```
    /// use glemu::scene::{parse, RunOptions, Runner};
    /// let s = parse("[test]\nclear\ndraw arrays GL_TRIANGLES 0 3\n").unwrap();
    /// let mut r = Runner::new(s, std::path::Path::new("."), RunOptions::default()).unwrap();
    /// // No [vertex data] and no program: the draw line fails and names its line.
    /// assert_eq!(r.run_commands().unwrap_err().line, 3);
    /// ```
    pub fn run_commands(&mut self) -> Result<(), SceneError> {
        self.run_commands_observed(&mut |_, _, _, _| {})
    }

    /// [`Runner::run_commands`], calling `observe(line, command, context, after)` before
    /// (`after` false) and after each command (`glemu trace` reads the traced pixel
    /// around every draw).
    ///
    /// ```
    /// use glemu::scene::{parse, RunOptions, Runner};
    /// let s = parse("[require]\nSIZE 4 4\n[test]\nclear color 0 1 0 1\nclear\n").unwrap();
    /// let mut r = Runner::new(s, std::path::Path::new("."), RunOptions::default()).unwrap();
    /// let mut seen = Vec::new();
    /// r.run_commands_observed(&mut |line, _, ctx, after| seen.push((line, after, ctx.read_pixel(0, 0).unwrap()[1]))).unwrap();
    /// assert_eq!(seen, [(4, false, 0.0), (4, true, 0.0), (5, false, 0.0), (5, true, 1.0)]);
    /// ```
    pub fn run_commands_observed(
        &mut self,
        observe: &mut dyn FnMut(usize, &Command, &mut Context, bool),
    ) -> Result<(), SceneError> {
        self.restart_occlusion().map_err(|e| fail_at(0, e))?;
        let commands = self.scene.commands.clone();
        for (line, cmd) in &commands {
            let failures = self.messages.len();
            observe(*line, cmd, &mut self.ctx, false);
            let done = self.command(*line, cmd);
            observe(*line, cmd, &mut self.ctx, true);
            done.map_err(|e| fail_at(*line, self.locate_in_scene(e)))?;
            if cmd.is_probe() {
                self.probes.push((*line, self.messages.len() == failures));
            }
        }
        if let Some(q) = self.occlusion.take() {
            let _ = self.ctx.end_query(gl::SAMPLES_PASSED);
            let _ = q;
        }
        Ok(())
    }

    /// PASS/FAIL and messages so far.
    ///
    /// ```
    /// let text = "[require]\nSIZE 4 4\n[test]\nclear color 0 1 0 1\nclear\nprobe all rgba 0 1 0 1\n";
    /// use glemu::scene::{parse, RunOptions, Runner};
    /// let mut r = Runner::new(parse(text).unwrap(), std::path::Path::new("."), RunOptions::default()).unwrap();
    /// r.run_commands().unwrap();
    /// assert!(r.report().messages.is_empty());
    /// ```
    pub fn report(&self) -> Report {
        Report {
            outcome: if self.failed {
                Outcome::Fail
            } else {
                Outcome::Pass
            },
            messages: self.messages.clone(),
            triangles: self.triangles,
            pixels: self.pixels,
        }
    }

    /// Each probe run so far: its scene line and whether it passed (a failed one also left
    /// a message in the report).
    ///
    /// ```
    /// use glemu::scene::{parse, RunOptions, Runner};
    /// let s = parse("[require]\nSIZE 4 4\n[test]\nclear color 0 1 0 1\nclear\nprobe all rgba 0 1 0 1\nprobe all rgba 1 0 0 1\n").unwrap();
    /// let mut r = Runner::new(s, std::path::Path::new("."), RunOptions::default()).unwrap();
    /// r.run_commands().unwrap();
    /// assert_eq!(r.probe_results(), &[(6, true), (7, false)]);
    /// ```
    pub fn probe_results(&self) -> &[(usize, bool)] {
        &self.probes
    }

    /// Resets per-frame counters (bench mode).
    ///
    /// ```
    /// use glemu::scene::{parse, RunOptions, Runner};
    /// let s = parse("[require]\nSIZE 8 8\n[test]\nclear\ndraw rect -1 -1 2 2\n").unwrap();
    /// let mut r = Runner::new(s, std::path::Path::new("."), RunOptions::default()).unwrap();
    /// r.run_commands().unwrap();
    /// assert_eq!(r.report().triangles, 2);
    /// r.reset_counters();
    /// assert_eq!(r.report().triangles, 0);
    /// ```
    pub fn reset_counters(&mut self) {
        self.triangles = 0;
        self.pixels = 0;
    }

    /// The bytes of the buffer the scene made with `buffer NAME SIZE`, if it exists.
    ///
    /// ```
    /// let text = "[require]\nSIZE 4 4\n[test]\nbuffer b 8 uint (7, 9)\n";
    /// use glemu::scene::{parse, RunOptions, Runner};
    /// let mut r = Runner::new(parse(text).unwrap(), std::path::Path::new("."), RunOptions::default()).unwrap();
    /// r.run_commands().unwrap();
    /// assert_eq!(r.buffer_bytes("b").unwrap(), [7, 0, 0, 0, 9, 0, 0, 0]);
    /// assert!(r.buffer_bytes("nope").is_none());
    /// ```
    pub fn buffer_bytes(&self, name: &str) -> Option<Vec<u8>> {
        let id = *self.named_buffers.get(name)?;
        Some(self.ctx.buffer_store(id).ok()?.to_vec())
    }

    /// The names of the buffers the scene made with `buffer NAME SIZE`, sorted.
    ///
    /// ```
    /// let text = "[require]\nSIZE 4 4\n[test]\nbuffer b 4\nbuffer a 4\n";
    /// use glemu::scene::{parse, RunOptions, Runner};
    /// let mut r = Runner::new(parse(text).unwrap(), std::path::Path::new("."), RunOptions::default()).unwrap();
    /// r.run_commands().unwrap();
    /// assert_eq!(r.buffer_names(), ["a", "b"]);
    /// ```
    pub fn buffer_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.named_buffers.keys().cloned().collect();
        v.sort();
        v
    }
}

/// Parses and runs `text` (a scene file whose PNGs live in `dir`).
///
/// ```
/// let r = glemu::scene::run_text("[require]\nGL_NOT_AN_EXTENSION\n[test]\nclear\n", std::path::Path::new("."));
/// assert!(matches!(r.outcome, glemu::scene::Outcome::Skip(_)));
/// ```
pub fn run_text(text: &str, dir: &Path) -> Report {
    run_text_with(text, dir, RunOptions::default())
}

/// [`run_text`] with options.
///
/// ```
/// use glemu::scene::{run_text_with, Outcome, RunOptions};
/// let r = run_text_with("[test]\nbogus command\n", std::path::Path::new("."), RunOptions::default());
/// assert_eq!(r.outcome, Outcome::Fail);
/// assert!(r.messages[0].starts_with("line 2"), "{:?}", r.messages);
/// ```
pub fn run_text_with(text: &str, dir: &Path, opts: RunOptions) -> Report {
    run_text_probes(text, dir, opts).0
}

/// [`run_text_with`], also returning each probe's scene line and whether it passed
/// (`glemu run --verbose`).
///
/// ```
/// use glemu::scene::{run_text_probes, RunOptions};
/// let text = "[require]\nSIZE 4 4\n[test]\nclear\nprobe all rgba 0 0 0 0\n";
/// let (_, probes) = run_text_probes(text, std::path::Path::new("."), RunOptions::default());
/// assert_eq!(probes, [(5, true)]);
/// ```
pub fn run_text_probes(text: &str, dir: &Path, opts: RunOptions) -> (Report, Vec<(usize, bool)>) {
    let fail = |e: SceneError| Report {
        // A feature glemu lacks is a SKIP (exit 77), not a failure of the scene.
        outcome: unsupported(&e.message).map_or(Outcome::Fail, Outcome::Skip),
        messages: vec![
            if e.line > 0 && !e.message.starts_with(&format!("{}:", e.line)) {
                format!("line {}: {}", e.line, e.message)
            } else {
                e.message
            },
        ],
        triangles: 0,
        pixels: 0,
    };
    let scene = match super::parse(text) {
        Ok(s) => s,
        Err(e) => return (fail(e), Vec::new()),
    };
    if let Some(reason) = check_requirements(&scene) {
        let skip = Report {
            outcome: Outcome::Skip(reason),
            messages: Vec::new(),
            triangles: 0,
            pixels: 0,
        };
        return (skip, Vec::new());
    }
    let mut r = match Runner::new(scene, dir, opts) {
        Ok(r) => r,
        Err(e) => return (fail(e), Vec::new()),
    };
    if let Err(e) = r.run_commands() {
        let mut rep = r.report();
        rep.outcome = match (rep.outcome, unsupported(&e.message)) {
            (Outcome::Pass, Some(what)) => Outcome::Skip(what),
            _ => Outcome::Fail,
        };
        rep.messages.push(format!("line {}: {}", e.line, e.message));
        return (rep, r.probes);
    }
    (r.report(), r.probes)
}
