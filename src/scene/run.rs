//! Running a parsed scene through the public Context API: `[require]` checks, program
//! loading, `[test]` commands and probes (piglit's tolerance rules).

use super::command::{Command, MatrixTarget, ParamKind, ProbeRegion};
use super::parse::{AttribTarget, Require, Scene};
use super::SceneError;
use crate::context::buffers::param_buffer_target_for;
use crate::{gl, Cause, Context, Error};
use glemu_textures::SampleType;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// How a scene run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
///
/// ```
/// let text = "[require]\nSIZE 4 4\n[test]\nclear color 0 1 0 1\nclear\nprobe all rgba 0 1 0 1\n";
/// let r = glemu::scene::run_text(text, std::path::Path::new("."));
/// assert_eq!(r.outcome, glemu::scene::Outcome::Pass);
/// ```
pub enum Outcome {
    /// Every probe passed.
    Pass,
    /// A probe failed or a command errored (messages in [`Report::messages`]).
    Fail,
    /// A `[require]` line is not met.
    Skip(String),
}

/// What a run printed and how it ended.
#[derive(Clone, Debug)]
///
/// ```
/// let text = "[require]\nSIZE 4 4\n[test]\nclear color 1 0 0 1\nclear\nprobe all rgba 0 1 0 1\n";
/// let r = glemu::scene::run_text(text, std::path::Path::new("."));
/// assert_eq!(r.outcome, glemu::scene::Outcome::Fail);
/// assert!(r.messages[0].contains("line 6"), "{:?}", r.messages);
/// ```
pub struct Report {
    /// PASS, FAIL or SKIP.
    pub outcome: Outcome,
    /// Probe failures and errors, one per line, with scene line numbers.
    pub messages: Vec<String>,
    /// Triangles submitted (for `glemu bench`).
    pub triangles: u64,
    /// Covered pixels of `draw rect`/`draw grid` (for `glemu bench`).
    pub pixels: u64,
}

/// Options of a run.
#[derive(Clone, Debug)]
///
/// ```
/// use glemu::scene::{run_text_with, Outcome, RunOptions};
/// // A reference run skips `probe png` (the PNG does not exist yet).
/// let text = "[require]\nSIZE 4 4\n[test]\nclear\nprobe png missing.png\n";
/// let opts = RunOptions { skip_png_probes: true, ..RunOptions::default() };
/// let r = run_text_with(text, std::path::Path::new("."), opts);
/// assert_eq!(r.outcome, Outcome::Pass);
/// ```
pub struct RunOptions {
    /// Skip `probe png` lines (making a reference image).
    pub skip_png_probes: bool,
    /// Where a failed `probe png` writes its difference image.
    pub diff_images: DiffImages,
    /// Samples per pixel of the window framebuffer instead of the scene's `samples N`
    /// (`glemu render --samples-override`; 0 and 1 both mean single-sampled).
    pub samples_override: Option<u32>,
    /// The longest one draw may run (None: no limit); see
    /// [`Context::set_draw_time_limit`].
    pub draw_time_limit: Option<std::time::Duration>,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            skip_png_probes: false,
            diff_images: DiffImages::default(),
            samples_override: None,
            draw_time_limit: Some(crate::context::DEFAULT_DRAW_TIME_LIMIT),
        }
    }
}

/// Where a failed `probe png FILE` writes `FILE.diff.png` (bad pixels red, the rest of
/// the rendered image darkened).
///
/// ```
/// use glemu::scene::{run_text_with, DiffImages, Outcome, RunOptions};
/// let dir = std::env::temp_dir().join("glemu-doc-diff-images");
/// std::fs::create_dir_all(&dir).unwrap();
/// image::RgbaImage::from_pixel(4, 4, image::Rgba([0, 255, 0, 255])).save(dir.join("green.png")).unwrap();
/// let text = "[require]\nSIZE 4 4\n[test]\nclear color 1 0 0 1\nclear\nprobe png green.png\n";
/// let out = dir.join("out");
/// let opts = RunOptions { diff_images: DiffImages::In(out.clone()), ..RunOptions::default() };
/// assert_eq!(run_text_with(text, &dir, opts).outcome, Outcome::Fail);
/// assert!(out.join("green.png.diff.png").exists());
/// assert!(!dir.join("green.png.diff.png").exists());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum DiffImages {
    /// Beside the reference image (what `glemu run` does, per the scene-format contract).
    #[default]
    BesideReference,
    /// In this directory (created if missing), for runs whose scene folder is read-only
    /// or must stay clean.
    In(PathBuf),
    /// Not written (the caller makes its own).
    Off,
}

/// GL version glemu reports (×10).
///
/// ```
/// let text = "[require]\nGL >= 4.7\n[test]\nclear\n";
/// assert_eq!(glemu::scene::GL_VERSION, 46);
/// let r = glemu::scene::run_text(text, std::path::Path::new("."));
/// assert!(matches!(r.outcome, glemu::scene::Outcome::Skip(_)));
/// ```
pub use crate::caps::GL_VERSION;
/// Largest sample count.
///
/// ```
/// assert_eq!(glemu::scene::limit("GL_MAX_SAMPLES"), Some(i64::from(glemu::scene::MAX_SAMPLES)));
/// assert!(glemu::Context::with_samples(4, 4, glemu::scene::MAX_SAMPLES).is_ok());
/// ```
pub use crate::caps::MAX_SAMPLES;

/// Extensions glemu claims in `[require]` and `glemu info`: [`crate::caps::EXTENSIONS`].
///
/// ```
/// assert!(glemu::scene::extensions().contains(&"GL_NV_gpu_program5"));
/// ```
pub fn extensions() -> &'static [&'static str] {
    crate::caps::EXTENSIONS
}

/// Integer limits a `[require]` `INT` line may test: the first value of the
/// [`crate::caps::LIMIT_TABLE`] row the name finds.
///
/// ```
/// assert_eq!(glemu::scene::limit("GL_MAX_PROGRAM_ENV_PARAMETERS_ARB"), Some(256));
/// assert_eq!(glemu::scene::limit("GL_NOT_A_LIMIT"), None);
/// ```
pub fn limit(name: &str) -> Option<i64> {
    crate::caps::limit_by_name(name)
        .and_then(|l| l.value.first())
        .map(|&v| i64::from(v))
}

fn compare(op: &str, a: i64, b: i64) -> bool {
    match op {
        ">=" => a >= b,
        ">" => a > b,
        "<=" => a <= b,
        "<" => a < b,
        "==" | "=" => a == b,
        "!=" => a != b,
        _ => false,
    }
}

/// Why the scene would be skipped, if it would.
///
/// ```
/// use glemu::scene::{check_requirements, parse};
/// let ok = parse("[require]\nGL_NV_gpu_program5\n[test]\nclear\n").unwrap();
/// assert_eq!(check_requirements(&ok), None);
/// let skip = parse("[require]\nGL_EXT_no_such_thing\n[test]\nclear\n").unwrap();
/// assert!(check_requirements(&skip).unwrap().contains("GL_EXT_no_such_thing"));
/// ```
pub fn check_requirements(scene: &Scene) -> Option<String> {
    for (_, r) in &scene.requires {
        match r {
            Require::GlVersion { op, version }
                if !compare(op, i64::from(GL_VERSION), i64::from(*version)) =>
            {
                return Some(format!(
                    "GL {op} {}.{} not met (glemu is GL {}.{})",
                    version / 10,
                    version % 10,
                    GL_VERSION / 10,
                    GL_VERSION % 10
                ));
            }
            Require::Extension { name, present } => {
                let have = extensions().contains(&name.as_str());
                if have != *present {
                    return Some(if *present {
                        format!("{name} is not supported")
                    } else {
                        format!("{name} is supported")
                    });
                }
            }
            Require::Samples(n) if *n > MAX_SAMPLES => {
                return Some(format!("{n} samples (max {MAX_SAMPLES})"))
            }
            Require::Limit { name, op, value } => match limit(name) {
                Some(v) if compare(op, v, *value) => {}
                Some(v) => return Some(format!("{name} = {v}, need {op} {value}")),
                None => return Some(format!("unknown limit {name}")),
            },
            _ => {}
        }
    }
    None
}

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

    fn probe_fail(&mut self, line: usize, msg: String) {
        self.failed = true;
        self.messages.push(format!("line {line}: {msg}"));
    }

    fn restart_occlusion(&mut self) -> Result<(), Error> {
        if self.occlusion.is_some() {
            self.ctx.end_query(gl::SAMPLES_PASSED)?;
        }
        let q = match self.occlusion {
            Some(q) => q,
            None => self.ctx.gen_queries(1)?[0],
        };
        self.ctx.begin_query(gl::SAMPLES_PASSED, q)?;
        self.occlusion = Some(q);
        self.samples_passed = 0;
        Ok(())
    }

    fn set_param(&mut self, kind: ParamKind, index: u32, bits: [u32; 4]) -> Result<(), Error> {
        if kind.env {
            self.ctx
                .program_env_parameter_bits(kind.target, index, bits)
        } else {
            self.ctx
                .program_local_parameter_bits(kind.target, index, bits)
        }
    }

    fn command(&mut self, line: usize, cmd: &Command) -> Result<(), Error> {
        let c = &mut self.ctx;
        match cmd {
            Command::ClearColor(v) => c.clear_color(*v)?,
            Command::ClearDepth(d) => c.clear_depth(*d)?,
            Command::ClearStencil(s) => c.clear_stencil(*s)?,
            Command::Clear => {
                c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT)?;
                self.restart_occlusion()?;
            }
            Command::Size(w, h) => {
                let s = c.samples();
                c.resize_framebuffer(*w, *h, s)?
            }
            Command::Samples(n) => {
                let (w, h) = c.size();
                c.resize_framebuffer(w, h, *n)?
            }
            Command::Viewport(v) => c.viewport(v[0], v[1], v[2], v[3])?,
            Command::Scissor(v) => c.scissor(v[0], v[1], v[2], v[3])?,
            Command::ViewportIndexed(i, [x, y, w, h]) => {
                c.viewport_indexed_f(*i, *x, *y, *w, *h)?
            }
            Command::ScissorIndexed(i, [x, y, w, h]) => c.scissor_indexed(*i, *x, *y, *w, *h)?,
            Command::DepthRange(None, [n, f]) => c.depth_range(*n, *f)?,
            Command::DepthRange(Some(i), [n, f]) => c.depth_range_indexed(*i, *n, *f)?,
            Command::Enable(cap) => c.enable(*cap)?,
            Command::Disable(cap) => c.disable(*cap)?,
            Command::EnableIndexed(cap, i, true) => c.enable_i(*cap, *i)?,
            Command::EnableIndexed(cap, i, false) => c.disable_i(*cap, *i)?,
            Command::DepthFunc(f) => c.depth_func(*f)?,
            Command::DepthMask(m) => c.depth_mask(*m)?,
            Command::StencilFunc(f, r, m) => c.stencil_func(*f, *r, *m)?,
            Command::StencilOp(a, b, d) => c.stencil_op(*a, *b, *d)?,
            Command::BlendFunc(a, b, d, e) => c.blend_func_separate(*a, *b, *d, *e)?,
            Command::BlendEquation(a, b) => c.blend_equation_separate(*a, *b)?,
            Command::BlendColor(v) => c.blend_color(*v)?,
            Command::ColorMask(m) => c.color_mask(*m)?,
            Command::CullFace(f) => c.cull_face(*f)?,
            Command::FrontFace(f) => c.front_face(*f)?,
            Command::ShadeModel(m) => c.shade_model(*m)?,
            Command::ProvokingVertex(m) => c.provoking_vertex(*m)?,
            Command::PolygonMode(f, m) => c.polygon_mode(*f, *m)?,
            Command::PolygonOffset(f, u) => c.polygon_offset(*f, *u)?,
            Command::PointSize(s) => c.point_size(*s)?,
            Command::LineWidth(w) => c.line_width(*w)?,
            Command::MinSampleShading(v) => c.min_sample_shading(*v)?,
            Command::SampleMask(m) => {
                c.enable(gl::SAMPLE_MASK)?;
                c.sample_mask_i(0, *m)?
            }
            Command::PrimitiveRestartIndex(i) => c.primitive_restart_index(*i)?,
            Command::Color(v) => c.color_4f(*v)?,
            Command::TexCoord(u, v) => c.multi_tex_coord_4f(*u, *v)?,
            Command::ClipPlane(n, p) => c.clip_plane(gl::CLIP_PLANE0 + n, *p)?,
            Command::Hint(t, m) => c.hint(*t, *m)?,
            Command::Tolerance(t) => self.tolerance = *t,
            Command::OrthoWindow => {
                let (w, h) = c.size();
                c.matrix_mode(gl::PROJECTION)?;
                c.load_identity()?;
                c.ortho(0.0, f64::from(w), 0.0, f64::from(h), -1.0, 1.0)?;
                c.matrix_mode(gl::MODELVIEW)?;
                c.load_identity()?;
            }
            Command::Ortho(v) => {
                c.matrix_mode(gl::PROJECTION)?;
                c.load_identity()?;
                c.ortho(v[0], v[1], v[2], v[3], -1.0, 1.0)?;
                c.matrix_mode(gl::MODELVIEW)?;
            }
            Command::Frustum(v) => {
                c.matrix_mode(gl::PROJECTION)?;
                c.load_identity()?;
                c.frustum(v[0], v[1], v[2], v[3], v[4], v[5])?;
                c.matrix_mode(gl::MODELVIEW)?;
            }
            Command::Matrix(t, m) => {
                let saved_unit = c.active_texture_unit();
                match t {
                    MatrixTarget::ModelView => c.matrix_mode(gl::MODELVIEW)?,
                    MatrixTarget::Projection => c.matrix_mode(gl::PROJECTION)?,
                    MatrixTarget::Texture(n) => {
                        c.active_texture(*n)?;
                        c.matrix_mode(gl::TEXTURE)?
                    }
                    MatrixTarget::Program(n) => c.matrix_mode(gl::MATRIX0_ARB + n)?,
                }
                match m {
                    Some(m) => c.load_matrix_f(m)?,
                    None => c.load_identity()?,
                }
                c.matrix_mode(gl::MODELVIEW)?;
                c.active_texture(saved_unit)?;
            }
            Command::Light(n, p, v) => c.light_fv(gl::LIGHT0 + n, *p, v)?,
            Command::LightModelAmbient(v) => c.light_model_ambient(*v)?,
            Command::Material(f, p, v) => c.material_fv(*f, *p, v)?,
            Command::Fog(p, v) => c.fog_fv(*p, v)?,
            Command::Parameter { kind, index, bits } => self.set_param(*kind, *index, *bits)?,
            Command::ParameterBuffer {
                stage,
                binding,
                offset,
                data,
            } => {
                let target = param_buffer_target_for(*stage)
                    .ok_or_else(|| Error::invalid_enum("stage", *stage))?;
                let key = (target, *binding);
                let id = match self.param_buffers.get(&key) {
                    Some(id) => *id,
                    None => {
                        let id = self.ctx.gen_buffers(1)?[0];
                        self.param_buffers.insert(key, id);
                        id
                    }
                };
                self.write_growing(id, *offset, data)?;
                self.ctx.bind_buffer_base(target, *binding, id)?;
            }
            Command::AtomicCounters { binding, values } => {
                let id = match self.counter_buffers.get(binding) {
                    Some(id) => *id,
                    None => {
                        let id = self.ctx.gen_buffers(1)?[0];
                        self.counter_buffers.insert(*binding, id);
                        id
                    }
                };
                self.ctx.bind_buffer(gl::ATOMIC_COUNTER_BUFFER, id)?;
                self.ctx
                    .buffer_data(gl::ATOMIC_COUNTER_BUFFER, values, gl::DYNAMIC_DRAW)?;
                self.ctx
                    .bind_buffer_base(gl::ATOMIC_COUNTER_BUFFER, *binding, id)?;
            }
            Command::ProbeAtomicCounter {
                binding,
                index,
                value,
            } => {
                let id = *self.counter_buffers.get(binding).ok_or_else(|| {
                    Error::invalid_operation(format!(
                        "no atomic counter buffer at binding {binding}"
                    ))
                })?;
                self.ctx.bind_buffer(gl::COPY_READ_BUFFER, id)?;
                let b =
                    self.ctx
                        .get_buffer_sub_data(gl::COPY_READ_BUFFER, u64::from(*index) * 4, 4)?;
                let got = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                if got != *value {
                    self.probe_fail(
                        line,
                        format!(
                            "atomic counter {binding}[{index}]: expected {value}, observed {got}"
                        ),
                    );
                }
            }
            Command::Buffer { name, size, data } => {
                let id = match self.named_buffers.get(name) {
                    Some(id) => *id,
                    None => {
                        let id = self.ctx.gen_buffers(1)?[0];
                        self.named_buffers.insert(name.clone(), id);
                        id
                    }
                };
                // Allocated once, by the context (fallibly), then the given values.
                let total = (*size).max(data.len()) as u64;
                self.ctx.bind_buffer(gl::COPY_WRITE_BUFFER, id)?;
                self.ctx
                    .buffer_data_size(gl::COPY_WRITE_BUFFER, total, gl::DYNAMIC_DRAW)?;
                if !data.is_empty() {
                    self.ctx.buffer_sub_data(gl::COPY_WRITE_BUFFER, 0, data)?;
                }
                self.ctx
                    .make_buffer_resident(gl::COPY_WRITE_BUFFER, gl::READ_WRITE)?;
            }
            Command::BufferAddress {
                kind,
                index,
                name,
                offset,
            } => {
                let id = *self
                    .named_buffers
                    .get(name)
                    .ok_or_else(|| Error::invalid_operation(format!("no buffer named '{name}'")))?;
                self.ctx.bind_buffer(gl::COPY_WRITE_BUFFER, id)?;
                let a = self
                    .ctx
                    .buffer_gpu_address(gl::COPY_WRITE_BUFFER)?
                    .wrapping_add(*offset);
                self.set_param(*kind, *index, [a as u32, (a >> 32) as u32, 0, 0])?;
            }
            Command::Compute(g) => self.ctx.dispatch_compute(g[0], g[1], g[2])?,
            Command::ComputeIndirect { name, offset } => {
                let id = self.named_buffer(name)?;
                self.ctx.bind_buffer(gl::DISPATCH_INDIRECT_BUFFER, id)?;
                self.ctx.dispatch_compute_indirect(*offset)?;
            }
            Command::StorageBuffer { index, name } => {
                let id = self.named_buffer(name)?;
                self.ctx
                    .bind_buffer_base(gl::SHADER_STORAGE_BUFFER, *index, id)?;
            }
            Command::MemoryBarrier => self.ctx.memory_barrier(gl::ALL_BARRIER_BITS)?,
            Command::MapBufferWrite { name, offset, data } => {
                let id = self.named_buffer(name)?;
                self.ctx.bind_buffer(gl::COPY_WRITE_BUFFER, id)?;
                let map = self.ctx.map_buffer_range(
                    gl::COPY_WRITE_BUFFER,
                    *offset,
                    data.len() as u64,
                    gl::MAP_WRITE_BIT,
                )?;
                let written = map.write(0, data);
                self.ctx.unmap_buffer(gl::COPY_WRITE_BUFFER)?;
                written?;
            }
            Command::ImageUnit {
                unit,
                texture_unit,
                format,
                access,
                level,
                layer,
            } => {
                let (_, id) = *self.unit_textures.get(texture_unit).ok_or_else(|| {
                    Error::invalid_operation(format!(
                        "no texture command bound a texture to unit {texture_unit}"
                    ))
                })?;
                self.ctx.bind_image_texture(
                    *unit,
                    id,
                    *level,
                    layer.is_none(),
                    layer.unwrap_or(0),
                    *access,
                    *format,
                )?;
            }
            Command::ProbeImage { unit, at, values } => {
                let (texel, format) = self.ctx.image_unit_texel(*unit, *at)?;
                let got: Vec<f64> = texel
                    .iter()
                    .map(|&b| match format.sample_type() {
                        SampleType::Sint => f64::from(b as i32),
                        SampleType::Uint => f64::from(b),
                        _ => f64::from(f32::from_bits(b)),
                    })
                    .collect();
                let exact = format.is_integer();
                let bad = values.iter().enumerate().any(|(i, want)| {
                    let d = (got[i] - want).abs();
                    if exact {
                        d != 0.0
                    } else {
                        d > self.tolerance[i]
                    }
                });
                if bad {
                    let [x, y, z] = at;
                    self.probe_fail(
                        line,
                        format!(
                            "image unit {unit} texel ({x}, {y}, layer {z}): expected {values:?}, observed {:?}",
                            &got[..values.len()]
                        ),
                    );
                }
            }
            Command::ProbeBuffer {
                name,
                offset,
                ty,
                values,
            } => {
                let id = *self
                    .named_buffers
                    .get(name)
                    .ok_or_else(|| Error::invalid_operation(format!("no buffer named '{name}'")))?;
                self.ctx.bind_buffer(gl::COPY_READ_BUFFER, id)?;
                self.probe_buffer(line, *offset as u64, ty, values)?;
            }
            Command::Texture { unit, cmd } => {
                // Repeated frames (bench) reuse the texture the line made the first time.
                if let Some(&(target, id)) = self.texture_cache.get(&line) {
                    self.ctx.active_texture(*unit)?;
                    self.ctx.bind_texture(target, id)?;
                    self.unit_textures.insert(*unit, (target, id));
                } else {
                    self.texture(*unit, cmd)?;
                    if let Some(made) = self.last_texture.take() {
                        self.texture_cache.insert(line, made);
                        self.unit_textures.insert(*unit, made);
                    }
                }
            }
            Command::TexParameter {
                target,
                pname,
                values,
            } => self.ctx.tex_parameter_fv(*target, *pname, values)?,
            Command::ActiveTexture(u) => c.active_texture(*u)?,
            Command::DrawRect {
                ortho,
                patch,
                rect,
                tex,
                instances,
            } => self.draw_rect(*ortho, *patch, *rect, *tex, *instances)?,
            Command::DrawArrays {
                mode,
                first,
                count,
                instances,
            } => {
                self.bind_vertex_data()?;
                self.count_tris(*mode, *count, *instances);
                self.ctx.draw_arrays_instanced(
                    *mode,
                    *first as i32,
                    *count as i32,
                    *instances as i32,
                )?
            }
            Command::DrawElements {
                mode,
                count,
                base_vertex,
                instances,
            } => {
                self.bind_vertex_data()?;
                let eb = self.element_buffer.ok_or_else(|| {
                    Error::invalid_operation("draw elements without an [elements] section")
                })?;
                self.ctx.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, eb)?;
                self.count_tris(*mode, *count, *instances);
                self.ctx.draw_elements_instanced_base_vertex(
                    *mode,
                    *count as i32,
                    gl::UNSIGNED_INT,
                    0,
                    *instances as i32,
                    *base_vertex,
                )?
            }
            Command::DrawGrid(nx, ny) => self.draw_grid(*nx, *ny)?,
            Command::DrawTransformFeedback {
                mode,
                stream,
                instances,
            } => {
                self.bind_vertex_data()?;
                self.ctx.draw_transform_feedback_stream_instanced(
                    *mode,
                    0,
                    *stream,
                    *instances as i32,
                )?
            }
            Command::PatchVertices(n) => c.patch_vertices(*n)?,
            Command::PatchOuter(o) => {
                let inner = c.patch_default_inner();
                c.patch_default_levels(*o, inner)?
            }
            Command::PatchInner(i) => {
                let outer = c.patch_default_outer();
                c.patch_default_levels(outer, *i)?
            }
            Command::XfbAttribs { stream, names } => {
                let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
                c.transform_feedback_attribs(*stream, &refs)?
            }
            Command::XfbInterleaved(i) => c.transform_feedback_buffer_mode(if *i {
                gl::INTERLEAVED_ATTRIBS
            } else {
                gl::SEPARATE_ATTRIBS
            })?,
            Command::XfbBuffer(index, size) => {
                let id = match self.xfb_buffers.get(index) {
                    Some(id) => *id,
                    None => {
                        let id = self.ctx.gen_buffers(1)?[0];
                        self.xfb_buffers.insert(*index, id);
                        id
                    }
                };
                self.ctx.bind_buffer(gl::TRANSFORM_FEEDBACK_BUFFER, id)?;
                self.ctx.buffer_data_size(
                    gl::TRANSFORM_FEEDBACK_BUFFER,
                    *size as u64,
                    gl::DYNAMIC_DRAW,
                )?;
                self.ctx
                    .bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, *index, id)?;
            }
            Command::BeginTransformFeedback(mode) => {
                self.xfb_queries.clear();
                for s in 0..4 {
                    for (written, target) in [
                        (false, gl::PRIMITIVES_GENERATED),
                        (true, gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN),
                    ] {
                        let q = self.ctx.gen_queries(1)?[0];
                        self.ctx.begin_query_indexed(target, s, q)?;
                        self.xfb_queries.push((u32::from(written), s, q));
                    }
                }
                self.ctx.begin_transform_feedback(*mode)?
            }
            Command::EndTransformFeedback => {
                self.ctx.end_transform_feedback()?;
                self.xfb_results.clear();
                for (written, s, q) in std::mem::take(&mut self.xfb_queries) {
                    let target = if written == 1 {
                        gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN
                    } else {
                        gl::PRIMITIVES_GENERATED
                    };
                    self.ctx.end_query_indexed(target, s)?;
                    self.xfb_results
                        .insert((written == 1, s), self.ctx.get_query_result(q)?);
                }
            }
            Command::ProbeXfb {
                index,
                offset,
                values,
            } => {
                let id = *self.xfb_buffers.get(index).ok_or_else(|| {
                    Error::invalid_operation(format!("no transform feedback buffer {index}"))
                })?;
                self.ctx.bind_buffer(gl::COPY_READ_BUFFER, id)?;
                let bytes = self.ctx.get_buffer_sub_data(
                    gl::COPY_READ_BUFFER,
                    (*offset as u64) * 4,
                    values.len() as u64 * 4,
                )?;
                for (k, (want, got)) in values.iter().zip(bytes.chunks_exact(4)).enumerate() {
                    let got = f32::from_le_bytes([got[0], got[1], got[2], got[3]]);
                    if (got - want).abs() > 1e-5 + 1e-5 * want.abs()
                        || got.is_nan() != want.is_nan()
                    {
                        self.probe_fail(
                            line,
                            format!(
                                "xfb buffer {index} float {}: expected {want}, observed {got}",
                                offset + k
                            ),
                        );
                    }
                }
            }
            Command::ProbePrimitives {
                written,
                stream,
                count,
            } => {
                let got = self
                    .xfb_results
                    .get(&(*written, *stream))
                    .copied()
                    .ok_or_else(|| {
                        Error::invalid_operation(
                            "no transform feedback results (begin/end transform feedback first)",
                        )
                    })?;
                if got != *count {
                    let what = if *written { "written" } else { "generated" };
                    self.probe_fail(
                        line,
                        format!(
                            "primitives {what} (stream {stream}): expected {count}, observed {got}"
                        ),
                    );
                }
            }
            Command::ProbeSamplesPassed(n) => {
                if let Some(q) = self.occlusion {
                    self.ctx.end_query(gl::SAMPLES_PASSED)?;
                    self.samples_passed += self.ctx.get_query_result(q)?;
                    self.ctx.begin_query(gl::SAMPLES_PASSED, q)?;
                }
                if self.samples_passed != *n {
                    self.probe_fail(
                        line,
                        format!(
                            "samples passed: expected {n}, observed {}",
                            self.samples_passed
                        ),
                    );
                }
            }
            Command::ProbeColor {
                region,
                rgba,
                expected,
            } => self.probe_color(line, region, *rgba, *expected)?,
            Command::ProbeDepth(x, y, d) => {
                let got = f64::from(c.read_depth(*x, *y)?);
                if (got - d).abs() > self.tolerance[0] {
                    self.probe_fail(
                        line,
                        format!("depth at ({x}, {y}): expected {d}, observed {got}"),
                    );
                }
            }
            Command::ProbeStencil(x, y, s) => {
                let got = u32::from(c.read_stencil(*x, *y)?);
                if got != *s {
                    self.probe_fail(
                        line,
                        format!("stencil at ({x}, {y}): expected {s}, observed {got}"),
                    );
                }
            }
            Command::ProbeSample {
                x,
                y,
                sample,
                expected,
            } => {
                let got = c.read_sample(*x, *y, *sample)?;
                if !self.close(got, *expected, true) {
                    self.probe_fail(line, format!("sample {sample} at ({x}, {y}): expected {expected:?}, observed {got:?}"));
                }
            }
            Command::ProbePng {
                file,
                tolerance,
                pixels,
            } => {
                if !self.opts.skip_png_probes {
                    self.probe_png(line, file, *tolerance, *pixels)?
                }
            }
        }
        Ok(())
    }

    fn write_growing(&mut self, id: u32, offset: usize, data: &[u8]) -> Result<(), Error> {
        self.ctx.bind_buffer(gl::COPY_WRITE_BUFFER, id)?;
        let size = self.ctx.buffer_size(gl::COPY_WRITE_BUFFER)? as usize;
        let end = offset.saturating_add(data.len());
        if end as u64 > glemu_pipeline::memory::MAX_BUFFER_SIZE {
            return Err(Error::out_of_memory(format!(
                "parameter buffer of {end} bytes"
            )));
        }
        if end > size {
            let mut bytes = self
                .ctx
                .get_buffer_sub_data(gl::COPY_WRITE_BUFFER, 0, size as u64)?;
            bytes.resize(end, 0);
            self.ctx
                .buffer_data(gl::COPY_WRITE_BUFFER, &bytes, gl::DYNAMIC_DRAW)?;
        }
        self.ctx
            .buffer_sub_data(gl::COPY_WRITE_BUFFER, offset as u64, data)
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

    /// The id of a buffer the scene made with `buffer NAME SIZE`.
    fn named_buffer(&self, name: &str) -> Result<u32, Error> {
        self.named_buffers
            .get(name)
            .copied()
            .ok_or_else(|| Error::invalid_operation(format!("no buffer named '{name}'")))
    }

    fn probe_buffer(
        &mut self,
        line: usize,
        offset: u64,
        ty: &str,
        values: &[f64],
    ) -> Result<(), Error> {
        let size = match ty {
            "double" | "int64" | "uint64" => 8,
            _ => 4,
        };
        let bytes = self.ctx.get_buffer_sub_data(
            gl::COPY_READ_BUFFER,
            offset,
            values.len() as u64 * size,
        )?;
        for (k, (want, b)) in values
            .iter()
            .zip(bytes.chunks_exact(size as usize))
            .enumerate()
        {
            let mut w = [0u8; 8];
            w[..b.len()].copy_from_slice(b);
            let raw = u64::from_le_bytes(w);
            let (got, ok) = match ty {
                "float" => {
                    let g = f64::from(f32::from_bits(raw as u32));
                    (g, (g - want).abs() <= 1e-5 + 1e-5 * want.abs())
                }
                "double" => {
                    let g = f64::from_bits(raw);
                    (g, (g - want).abs() <= 1e-9 + 1e-9 * want.abs())
                }
                "int" => (
                    (raw as u32 as i32) as f64,
                    (raw as u32 as i32) as f64 == *want,
                ),
                "int64" => ((raw as i64) as f64, (raw as i64) as f64 == *want),
                "uint64" => (raw as f64, raw as f64 == *want),
                _ => (raw as u32 as f64, raw as u32 as f64 == *want),
            };
            if !ok {
                self.probe_fail(
                    line,
                    format!(
                        "buffer at byte {}: expected {want}, observed {got}",
                        offset + k as u64 * size
                    ),
                );
            }
        }
        Ok(())
    }

    fn close(&self, got: [f32; 4], want: [f64; 4], rgba: bool) -> bool {
        let n = if rgba { 4 } else { 3 };
        (0..n).all(|i| (f64::from(got[i]) - want[i]).abs() <= self.tolerance[i])
    }

    fn probe_color(
        &mut self,
        line: usize,
        region: &ProbeRegion,
        rgba: bool,
        expected: [f64; 4],
    ) -> Result<(), Error> {
        let (w, h) = self.ctx.size();
        let (w, h) = (w as i32, h as i32);
        let (x0, y0, rw, rh) = match *region {
            ProbeRegion::Pixel(x, y) => (x, y, 1, 1),
            ProbeRegion::Relative(fx, fy) => {
                let x = ((fx * f64::from(w)) as i32).min(w - 1);
                let y = ((fy * f64::from(h)) as i32).min(h - 1);
                (x, y, 1, 1)
            }
            ProbeRegion::Rect(x, y, rw, rh) => (x, y, rw, rh),
            ProbeRegion::RelativeRect(fx, fy, fw, fh) => (
                (fx * f64::from(w)) as i32,
                (fy * f64::from(h)) as i32,
                // A positive size (the parser checks) covers at least one pixel.
                ((fw * f64::from(w)) as i32).max(1),
                ((fh * f64::from(h)) as i32).max(1),
            ),
            ProbeRegion::All => (0, 0, w, h),
        };
        let px = self.read_probe(x0, y0, rw, rh)?;
        for (i, p) in px.iter().enumerate() {
            if !self.close(*p, expected, rgba) {
                let x = x0 + (i as i32 % rw.max(1));
                let y = y0 + (i as i32 / rw.max(1));
                let n = if rgba { 4 } else { 3 };
                self.probe_fail(
                    line,
                    format!(
                        "probe at ({x}, {y}): expected {:?}, observed {:?}",
                        &expected[..n],
                        &p[..n]
                    ),
                );
                break;
            }
        }
        Ok(())
    }

    /// The probed rectangle as floats: `RGBA`/`FLOAT`, or for integer colour buffers
    /// (which GL reads only with integer formats) their values converted.
    fn read_probe(&self, x: i32, y: i32, w: i32, h: i32) -> Result<Vec<[f32; 4]>, Error> {
        match self
            .ctx
            .read_pixels_as::<[f32; 4]>(x, y, w, h, gl::RGBA, gl::FLOAT)
        {
            Err(_)
                if self
                    .ctx
                    .read_pixels(0, 0, 0, 0, gl::RGBA_INTEGER, gl::INT)
                    .is_ok() =>
            {
                let px: Vec<[i32; 4]> =
                    self.ctx
                        .read_pixels_as(x, y, w, h, gl::RGBA_INTEGER, gl::INT)?;
                Ok(px.into_iter().map(|p| p.map(|c| c as f32)).collect())
            }
            r => r,
        }
    }

    fn probe_png(
        &mut self,
        line: usize,
        file: &str,
        tolerance: f64,
        pixels: usize,
    ) -> Result<(), Error> {
        let path = self.dir.join(file);
        let img = glemu_textures::load::open_rgba8(&path, crate::caps::MAX_TEXTURE_SIZE)
            .map_err(|e| Error::invalid_operation(format!("cannot read {e}")))?;
        let (w, h) = self.ctx.size();
        if img.width() != w || img.height() != h {
            self.probe_fail(
                line,
                format!(
                    "{file} is {}x{}, the framebuffer is {w}x{h}",
                    img.width(),
                    img.height()
                ),
            );
            return Ok(());
        }
        let ours = self.ctx.read_image()?.into_raw();
        let theirs = img.as_raw();
        let mut bad = 0usize;
        let mut diff = image::RgbaImage::new(w, h);
        for (i, (a, b)) in ours.chunks_exact(4).zip(theirs.chunks_exact(4)).enumerate() {
            let d = a
                .iter()
                .zip(b)
                .map(|(x, y)| (i32::from(*x) - i32::from(*y)).abs())
                .max()
                .unwrap_or(0);
            let px = if f64::from(d) > tolerance {
                bad += 1;
                [255, 0, 0, 255]
            } else {
                [a[0] / 3, a[1] / 3, a[2] / 3, 255]
            };
            diff.put_pixel(i as u32 % w, i as u32 / w, image::Rgba(px));
        }
        if bad > pixels {
            let name = format!("{file}.diff.png");
            let dpath = match &self.opts.diff_images {
                DiffImages::BesideReference => Some(self.dir.join(name)),
                DiffImages::In(d) => std::fs::create_dir_all(d).ok().map(|()| d.join(name)),
                DiffImages::Off => None,
            };
            let saved = dpath.filter(|p| diff.save(p).is_ok());
            self.probe_fail(
                line,
                format!(
                    "{bad} pixels differ from {file} by more than {tolerance}/255 (allowed {pixels}){}",
                    saved.map_or(String::new(), |p| format!("; see {}", p.display()))
                ),
            );
        }
        Ok(())
    }

    fn count_tris(&mut self, mode: u32, count: u32, instances: u32) {
        let n = u64::from(count);
        let t = match mode {
            gl::TRIANGLES => n / 3,
            gl::TRIANGLE_STRIP | gl::TRIANGLE_FAN | gl::POLYGON => n.saturating_sub(2),
            gl::QUADS => n / 4 * 2,
            gl::QUAD_STRIP => n.saturating_sub(2) / 2 * 2,
            gl::TRIANGLES_ADJACENCY => n / 6,
            gl::TRIANGLE_STRIP_ADJACENCY => n.saturating_sub(4) / 2,
            _ => 0,
        };
        self.triangles += t * u64::from(instances);
    }

    fn bind_vertex_data(&mut self) -> Result<(), Error> {
        let vb = self
            .vertex_buffer
            .ok_or_else(|| Error::invalid_operation("draw without a [vertex data] section"))?;
        let Some(vd) = self.scene.vertex_data.clone() else {
            return Ok(());
        };
        self.reset_arrays()?;
        self.ctx.bind_buffer(gl::ARRAY_BUFFER, vb)?;
        let stride = vd.stride as i32;
        for col in &vd.columns {
            let off = col.offset as u64;
            let size = col.size as i32;
            match col.target {
                AttribTarget::Generic(n) => {
                    if col.integer {
                        self.ctx
                            .vertex_attrib_i_pointer(n, size, col.ty, stride, off)?
                    } else {
                        self.ctx
                            .vertex_attrib_pointer(n, size, col.ty, false, stride, off)?
                    }
                    self.ctx.enable_vertex_attrib_array(n)?;
                }
                AttribTarget::Position => {
                    self.ctx.vertex_pointer(size, col.ty, stride, off)?;
                    self.ctx.enable_client_state(gl::VERTEX_ARRAY)?;
                }
                AttribTarget::Color => {
                    self.ctx.color_pointer(size, col.ty, stride, off)?;
                    self.ctx.enable_client_state(gl::COLOR_ARRAY)?;
                }
                AttribTarget::SecondaryColor => {
                    self.ctx
                        .secondary_color_pointer(size, col.ty, stride, off)?;
                    self.ctx.enable_client_state(gl::SECONDARY_COLOR_ARRAY)?;
                }
                AttribTarget::Normal => {
                    self.ctx.normal_pointer(col.ty, stride, off)?;
                    self.ctx.enable_client_state(gl::NORMAL_ARRAY)?;
                }
                AttribTarget::FogCoord => {
                    self.ctx.fog_coord_pointer(col.ty, stride, off)?;
                    self.ctx.enable_client_state(gl::FOG_COORD_ARRAY)?;
                }
                AttribTarget::TexCoord(u) => {
                    self.ctx.client_active_texture(u)?;
                    self.ctx.tex_coord_pointer(size, col.ty, stride, off)?;
                    self.ctx.enable_client_state(gl::TEXTURE_COORD_ARRAY)?;
                    self.ctx.client_active_texture(0)?;
                }
            }
        }
        Ok(())
    }

    fn reset_arrays(&mut self) -> Result<(), Error> {
        for i in 0..crate::context::state::MAX_VERTEX_ATTRIBS as u32 {
            self.ctx.disable_vertex_attrib_array(i)?;
        }
        for a in [
            gl::VERTEX_ARRAY,
            gl::COLOR_ARRAY,
            gl::SECONDARY_COLOR_ARRAY,
            gl::NORMAL_ARRAY,
            gl::FOG_COORD_ARRAY,
        ] {
            self.ctx.disable_client_state(a)?;
        }
        for u in 0..crate::context::state::MAX_TEXTURE_COORDS as u32 {
            self.ctx.client_active_texture(u)?;
            self.ctx.disable_client_state(gl::TEXTURE_COORD_ARRAY)?;
        }
        self.ctx.client_active_texture(0)
    }

    fn draw_rect(
        &mut self,
        ortho: bool,
        patch: bool,
        r: [f32; 4],
        tex: Option<[f32; 4]>,
        instances: u32,
    ) -> Result<(), Error> {
        let (w, h) = self.ctx.size();
        let [mut x, mut y, mut rw, mut rh] = r;
        if ortho {
            // window pixels → NDC
            x = x / w as f32 * 2.0 - 1.0;
            y = y / h as f32 * 2.0 - 1.0;
            rw = rw / w as f32 * 2.0;
            rh = rh / h as f32 * 2.0;
        }
        let [tx, ty, tw, th] = tex.unwrap_or([0.0, 0.0, 1.0, 1.0]);
        let verts: [[f32; 8]; 4] = [
            [x, y, 0.0, 1.0, tx, ty, 0.0, 1.0],
            [x + rw, y, 0.0, 1.0, tx + tw, ty, 0.0, 1.0],
            [x, y + rh, 0.0, 1.0, tx, ty + th, 0.0, 1.0],
            [x + rw, y + rh, 0.0, 1.0, tx + tw, ty + th, 0.0, 1.0],
        ];
        self.reset_arrays()?;
        self.ctx.bind_buffer(gl::ARRAY_BUFFER, self.rect_buffer)?;
        self.ctx
            .buffer_data(gl::ARRAY_BUFFER, &verts, gl::STREAM_DRAW)?;
        self.ctx.vertex_pointer(4, gl::FLOAT, 32, 0)?;
        self.ctx.enable_client_state(gl::VERTEX_ARRAY)?;
        if self.rect_texcoords || tex.is_some() {
            self.ctx.tex_coord_pointer(4, gl::FLOAT, 32, 16)?;
            self.ctx.enable_client_state(gl::TEXTURE_COORD_ARRAY)?;
        }
        // Covered area for the bench figure: the rect clipped to NDC, in pixels.
        let cx0 = x.max(-1.0);
        let cx1 = (x + rw).min(1.0);
        let cy0 = y.max(-1.0);
        let cy1 = (y + rh).min(1.0);
        if cx1 > cx0 && cy1 > cy0 {
            self.pixels += (f64::from((cx1 - cx0) / 2.0 * w as f32)
                * f64::from((cy1 - cy0) / 2.0 * h as f32)) as u64;
        }
        if patch {
            self.ctx.patch_vertices(4)?;
            self.ctx
                .draw_arrays_instanced(gl::PATCHES, 0, 4, instances as i32)
        } else {
            self.triangles += 2 * u64::from(instances);
            self.ctx
                .draw_arrays_instanced(gl::TRIANGLE_STRIP, 0, 4, instances as i32)
        }
    }

    fn draw_grid(&mut self, nx: u32, ny: u32) -> Result<(), Error> {
        if nx == 0 || ny == 0 || u64::from(nx) * u64::from(ny) > 4_000_000 {
            return Err(Error::invalid_value(format!("grid {nx}x{ny}")));
        }
        let (vb, ib, n) = match self.grids.get(&(nx, ny)) {
            Some(g) => *g,
            None => {
                let mut verts: Vec<[f32; 4]> = Vec::new();
                for j in 0..=ny {
                    for i in 0..=nx {
                        let (u, v) = (i as f32 / nx as f32, j as f32 / ny as f32);
                        verts.push([u * 2.0 - 1.0, v * 2.0 - 1.0, u, v]);
                    }
                }
                let mut idx: Vec<u32> = Vec::new();
                let at = |i: u32, j: u32| j * (nx + 1) + i;
                for j in 0..ny {
                    for i in 0..nx {
                        for k in [
                            at(i, j),
                            at(i + 1, j),
                            at(i, j + 1),
                            at(i + 1, j),
                            at(i + 1, j + 1),
                            at(i, j + 1),
                        ] {
                            idx.push(k);
                        }
                    }
                }
                let ids = self.ctx.gen_buffers(2)?;
                self.ctx.bind_buffer(gl::ARRAY_BUFFER, ids[0])?;
                self.ctx
                    .buffer_data(gl::ARRAY_BUFFER, &verts, gl::STATIC_DRAW)?;
                self.ctx.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, ids[1])?;
                self.ctx
                    .buffer_data(gl::ELEMENT_ARRAY_BUFFER, &idx, gl::STATIC_DRAW)?;
                let g = (ids[0], ids[1], nx * ny * 6);
                self.grids.insert((nx, ny), g);
                g
            }
        };
        self.reset_arrays()?;
        self.ctx.bind_buffer(gl::ARRAY_BUFFER, vb)?;
        self.ctx.vertex_pointer(2, gl::FLOAT, 16, 0)?;
        self.ctx.enable_client_state(gl::VERTEX_ARRAY)?;
        self.ctx.tex_coord_pointer(2, gl::FLOAT, 16, 8)?;
        self.ctx.enable_client_state(gl::TEXTURE_COORD_ARRAY)?;
        self.ctx.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, ib)?;
        let (w, h) = self.ctx.size();
        self.pixels += u64::from(w) * u64::from(h);
        self.triangles += u64::from(n / 3);
        self.ctx
            .draw_elements(gl::TRIANGLES, n as i32, gl::UNSIGNED_INT, 0)
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

/// `not supported: X` when an error message says a feature glemu lacks stopped the run.
///
/// ```
/// let r = glemu::scene::run_text("[require]\nSIZE 4 4\nsamples 3\n[test]\nclear\n", std::path::Path::new("."));
/// assert!(matches!(&r.outcome, glemu::scene::Outcome::Skip(w) if w.starts_with("not supported: 3 samples")), "{r:?}");
/// ```
fn unsupported(message: &str) -> Option<String> {
    message
        .find("not supported: ")
        .map(|i| message[i..].to_string())
}
