//! `glemu trace SCENE X Y`: what the fragment program did for one pixel, instruction by
//! instruction, in every draw that reached it, ending in the value stored there.

use super::trace_ops::{self, DrawOps, FragmentOps};
use crate::scene::{self, Command, RunOptions, Runner};
use crate::{gl, Context, FragmentTrace, TracedFragment};
use glemu_pipeline::trace::{FedPrimitive, Invocation, TracedInvocation};
use glemu_programs::exec::{TraceOperand, TraceStep};
use glemu_programs::ir::{DataType, InputBinding, OpClass, Opcode, Program, Stage};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// Trace one pixel: its fragments through the fragment program, and with --stage the
/// invocations of earlier stages that made their primitives.
///
/// Runs the scene; for every draw whose fragments reach pixel (X, Y) it prints each
/// fragment program invocation there: the inputs, every executed instruction with its
/// scene line, the values each operand read and the register it wrote (per component,
/// as float and hex), condition codes, where branches went, texture lookups (unit,
/// coordinates, the LOD the sampler computed, the filtered texel), outputs and KIL; then
/// its per-fragment operations: the stencil and depth tests (early or late: the values
/// compared, pass or fail, what was written) and the blend (factors, source, destination,
/// result), replayed in order with the rasterizer's own functions and checked against the
/// pixel the draw left; the pixel's colour, depth and stencil before and after the draw;
/// and last the value stored at the pixel. Fragments an early depth or stencil test
/// rejects before the program runs are listed with those tests and no program steps.
///
/// With --stage (vertex, tess_control, tess_eval, geometry or all), each draw first
/// shows the primitives whose fragments reach the pixel, each with its vertices'
/// result.position and the invocations that made it, printed the same way (inputs,
/// steps, outputs): the vertex program for each of its vertices, every control
/// invocation of its patch, the evaluation program for each of its generated vertices,
/// the geometry invocation that emitted it.
///
/// X and Y are window coordinates as in probes: (0, 0) is the bottom-left pixel. The
/// traced batches run in the interpreter (the reference the compiled back end matches);
/// the image is the one `glemu render` writes.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  glemu trace reftests/scenes/raster/blend_src_alpha.shader_test 20 30\n  glemu trace reftests/scenes/tessellation/tess_tri_equal_fill.shader_test 30 20 --stage all\n  glemu trace scene.shader_test 5 5 --draw 2 --json | jq '.draws[0].fragments[0].steps | length'"
)]
pub struct TraceArgs {
    /// The scene (.shader_test).
    #[arg(value_name = "SCENE")]
    pub scene: String,
    /// Pixel column (0 = left).
    #[arg(value_name = "X")]
    pub x: i32,
    /// Pixel row (0 = bottom, as in probes).
    #[arg(value_name = "Y")]
    pub y: i32,
    /// With per-sample shading, only this sample's invocations.
    #[arg(long, value_name = "S")]
    pub sample: Option<u32>,
    /// Only the N-th draw of the scene (1 = the first draw command that draws anything).
    #[arg(long, value_name = "N")]
    pub draw: Option<usize>,
    /// Which stage to trace: the fragment program (default), or the vertex,
    /// tessellation control or evaluation, or geometry program invocations that made the
    /// primitives whose fragments reach the pixel (`all`: every stage).
    #[arg(long, value_name = "STAGE", default_value = "fragment",
          value_parser = ["vertex", "tess_control", "tess_eval", "geometry", "fragment", "all"])]
    pub stage: String,
    /// One JSON object instead of text (the same content; values as raw bits and floats).
    #[arg(long)]
    pub json: bool,
}

/// The pixel's colour, depth and stencil.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PixelState {
    color: [f32; 4],
    depth: Option<f32>,
    stencil: Option<u8>,
}

fn pixel(ctx: &Context, x: i32, y: i32) -> PixelState {
    PixelState {
        color: ctx.read_pixel(x, y).unwrap_or([f32::NAN; 4]),
        depth: ctx.read_depth(x, y).ok(),
        stencil: ctx.read_stencil(x, y).ok(),
    }
}

/// A draw that reached the pixel.
struct DrawRecord {
    index: usize,
    line: usize,
    fragments: Vec<TracedFragment>,
    /// With `--stage`: the primitives of those fragments and the invocations that fed them.
    primitives: Vec<FedPrimitive>,
    before: PixelState,
    after: PixelState,
    tests: String,
    /// The per-fragment operations replayed at the pixel.
    ops: DrawOps,
}

/// Everything `glemu trace` found.
pub struct TraceResult {
    draws: Vec<DrawRecord>,
    /// The stored value at the pixel after the scene.
    pub final_color: [f32; 4],
    /// Every program of the scene, assembled, with its text and first scene line (to
    /// print the source of earlier stages' steps).
    programs: Vec<(Program, String, usize)>,
    /// The stages whose steps are shown.
    stages: Vec<Stage>,
    scene_lines: Vec<String>,
    x: i32,
    y: i32,
}

impl TraceResult {
    /// Every traced fragment invocation, draw by draw.
    pub fn fragments(&self) -> impl Iterator<Item = &TracedFragment> {
        self.draws.iter().flat_map(|d| d.fragments.iter())
    }

    /// The primitives that reached the pixel (with `--stage`), draw by draw.
    pub fn primitives(&self) -> impl Iterator<Item = &FedPrimitive> {
        self.draws.iter().flat_map(|d| d.primitives.iter())
    }

    /// Each draw's replay of the per-fragment operations at the pixel.
    pub fn replays(&self) -> impl Iterator<Item = &DrawOps> {
        self.draws.iter().map(|d| &d.ops)
    }

    /// `result.color` (draw buffer 0) of the last fragment invocation that was not
    /// killed, as floats: what the pixel receives when nothing after it (tests, blending,
    /// a later draw) changes it.
    pub fn last_color_output(&self) -> Option<[f32; 4]> {
        let f = self
            .fragments()
            .filter(|f| !f.killed && !f.rejected_early)
            .last()?;
        let slot = f.output_bindings.iter().position(|b| {
            matches!(
                b,
                glemu_programs::ir::OutputBinding::FragColor {
                    target: 0,
                    index: 0
                }
            )
        })?;
        f.outputs.get(slot).map(|v| v.map(f32::from_bits))
    }
}

fn enum_name(v: i32) -> String {
    gl::NAMES
        .iter()
        .find(|(n, e)| *e == v as u32 && !n.starts_with("ZERO") && *n != "NONE")
        .map_or(format!("0x{v:x}"), |(n, _)| format!("GL_{n}"))
}

fn tests_in_effect(ctx: &Context) -> String {
    let on = |cap| ctx.is_enabled(cap).unwrap_or(false);
    let mut s = Vec::new();
    if on(gl::DEPTH_TEST) {
        let f = ctx
            .get_integer_v(gl::DEPTH_FUNC)
            .ok()
            .and_then(|v| v.first().copied())
            .map_or("?".into(), enum_name);
        s.push(format!("depth test {f}"));
    } else {
        s.push("depth test off".into());
    }
    s.push(format!(
        "stencil test {}",
        if on(gl::STENCIL_TEST) { "on" } else { "off" }
    ));
    s.push(format!(
        "blending {}",
        if on(gl::BLEND) { "on" } else { "off" }
    ));
    s.join(", ")
}

/// Runs `text` (a scene in `dir`) with pixel (x, y) traced.
///
/// ```
/// let text = "[require]\nSIZE 4 4\n[vertex program]\n!!NVvp5.0\nMOV result.position, vertex.position;\nEND\n\
///     [fragment program]\n!!NVfp5.0\nMOV result.color, {0, 1, 0, 1};\nEND\n[test]\ndraw rect -1 -1 2 2\n";
/// let t = glemu::cli::trace::trace_scene(text, std::path::Path::new("."), 1, 2, None, None).unwrap();
/// assert_eq!(t.final_color, [0.0, 1.0, 0.0, 1.0]);
/// assert_eq!(t.fragments().count(), 1);
/// ```
pub fn trace_scene(
    text: &str,
    dir: &Path,
    x: i32,
    y: i32,
    sample: Option<u32>,
    only_draw: Option<usize>,
) -> Result<TraceResult, String> {
    trace_scene_stages(text, dir, x, y, sample, only_draw, &[Stage::Fragment])
}

/// The stages `--stage NAME` shows.
pub fn stages_named(name: &str) -> Result<Vec<Stage>, String> {
    const TRACED: [Stage; 5] = [
        Stage::Vertex,
        Stage::TessControl,
        Stage::TessEval,
        Stage::Geometry,
        Stage::Fragment,
    ];
    if name == "all" {
        return Ok(TRACED.to_vec());
    }
    // The names are the ones the JSON output gives each stage.
    TRACED
        .into_iter()
        .find(|&s| stage_name(s) == name)
        .map(|s| vec![s])
        .ok_or_else(|| format!("unknown stage {name:?}"))
}

/// [`trace_scene`] showing `stages`: the fragment stage's invocations at the pixel, and
/// for earlier stages the invocations that made the primitives whose fragments reach
/// it (each draw's [`FedPrimitive`]s).
///
/// ```
/// use glemu::programs::ir::Stage;
/// let text = "[require]\nSIZE 4 4\n[vertex program]\n!!NVvp5.0\nMOV result.position, vertex.position;\nEND\n\
///     [fragment program]\n!!NVfp5.0\nMOV result.color, {0, 1, 0, 1};\nEND\n[test]\ndraw rect -1 -1 2 2\n";
/// let t = glemu::cli::trace::trace_scene_stages(text, std::path::Path::new("."), 1, 2, None, None, &[Stage::Vertex]).unwrap();
/// let p = t.primitives().next().unwrap();
/// // A triangle of the rectangle: its three vertex-program invocations.
/// assert_eq!(p.invocations.len(), 3);
/// ```
pub fn trace_scene_stages(
    text: &str,
    dir: &Path,
    x: i32,
    y: i32,
    sample: Option<u32>,
    only_draw: Option<usize>,
    stages: &[Stage],
) -> Result<TraceResult, String> {
    let sc = scene::parse(text).map_err(|e| e.to_string())?;
    if let Some(reason) = scene::check_requirements(&sc) {
        return Err(format!("SKIP: {reason}"));
    }
    let (w, h) = sc.size();
    if x < 0 || y < 0 || x as u32 >= w || y as u32 >= h {
        return Err(format!(
            "pixel ({x}, {y}) is outside the {w}x{h} framebuffer"
        ));
    }
    let programs: Vec<(Program, String, usize)> = sc
        .programs
        .iter()
        .filter_map(|p| {
            let prog =
                glemu_programs::assemble_with(&p.text, Some(p.stage), &crate::caps::LIMITS).ok()?;
            Some((prog, p.text.clone(), p.first_line))
        })
        .collect();
    let opts = RunOptions {
        skip_png_probes: true,
        ..Default::default()
    };
    let mut r = Runner::new(sc, dir, opts).map_err(|e| e.to_string())?;
    let earlier: Vec<Stage> = stages
        .iter()
        .copied()
        .filter(|s| *s != Stage::Fragment)
        .collect();
    let mut ft = FragmentTrace::new(x, y, sample);
    if !earlier.is_empty() {
        ft = ft.with_stages(earlier);
    }
    let trace = Arc::new(ft);
    r.ctx.set_fragment_trace(Some(trace.clone()));
    let mut draws = Vec::new();
    let mut draw_index = 0;
    let mut before = None;
    let mut vertices = 0;
    let mut observe = |line: usize, _: &Command, ctx: &mut Context, after: bool| {
        if !after {
            before = Some(pixel(ctx, x, y));
            vertices = ctx.pipeline_statistics().vertices_submitted;
            return;
        }
        let drew = ctx.pipeline_statistics().vertices_submitted != vertices;
        draw_index += usize::from(drew);
        let fragments = trace.take();
        let ops_state = trace.take_ops_state();
        let primitives = trace
            .stages
            .as_ref()
            .map(|s| s.take_primitives())
            .unwrap_or_default();
        if fragments.is_empty() || only_draw.is_some_and(|n| n != draw_index) {
            return;
        }
        let before = before.unwrap_or(PixelState {
            color: [f32::NAN; 4],
            depth: None,
            stencil: None,
        });
        let after = pixel(ctx, x, y);
        let ops = match ops_state {
            Some(st) => trace_ops::replay(
                &st,
                &fragments,
                (before.color, before.depth, before.stencil),
                (after.color, after.depth, after.stencil),
            ),
            None => DrawOps::NotReplayed("the draw recorded no per-fragment state".into()),
        };
        draws.push(DrawRecord {
            index: draw_index,
            line,
            fragments,
            primitives,
            before,
            after,
            tests: tests_in_effect(ctx),
            ops,
        });
    };
    r.run_commands_observed(&mut observe)
        .map_err(|e| e.to_string())?;
    r.ctx.set_fragment_trace(None);
    let final_color = r.context().read_pixel(x, y).map_err(|e| e.to_string())?;
    Ok(TraceResult {
        draws,
        final_color,
        programs,
        stages: stages.to_vec(),
        scene_lines: text.lines().map(str::to_string).collect(),
        x,
        y,
    })
}

/// `glemu trace` with parsed arguments.
pub fn exec(args: &TraceArgs, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let text = match crate::caps::read_input_file(Path::new(&args.scene)) {
        Ok(t) => t,
        Err(e) => {
            let _ = writeln!(err, "{}: error: {e}", args.scene);
            return 1;
        }
    };
    let dir = Path::new(&args.scene)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let stages = match stages_named(&args.stage) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "glemu trace: {e}");
            return 2;
        }
    };
    match trace_scene_stages(&text, &dir, args.x, args.y, args.sample, args.draw, &stages) {
        Ok(t) => {
            let s = if args.json {
                format!("{:#}\n", to_json(&t, &args.scene))
            } else {
                to_text(&t, &args.scene)
            };
            let _ = out.write_all(s.as_bytes());
            0
        }
        Err(e) if e.starts_with("SKIP: ") => {
            let _ = writeln!(out, "{e}");
            77
        }
        Err(e) => {
            let _ = writeln!(err, "glemu trace: {}: {e}", args.scene);
            1
        }
    }
}

/// `x 0.5 (0x3f000000)`-style components, the value shown as `ty` reads it (integer
/// registers as integers, not as the floats their bits would be).
fn typed_components(bits: &[u64; 4], mask: u8, wide: bool, ty: DataType) -> String {
    let names = ['x', 'y', 'z', 'w'];
    (0..4)
        .filter(|c| mask & (1 << c) != 0)
        .map(|c| {
            let b = bits[c];
            let value = match (ty, wide) {
                (DataType::S32 | DataType::S64, true) => (b as i64).to_string(),
                (DataType::U32 | DataType::U64, true) => b.to_string(),
                (DataType::S32 | DataType::S64, false) => (b as u32 as i32).to_string(),
                (DataType::U32 | DataType::U64, false) => (b as u32).to_string(),
                (_, true) => f64::from_bits(b).to_string(),
                (_, false) => f32::from_bits(b as u32).to_string(),
            };
            if wide {
                format!("{} {value} (0x{b:016x})", names[c])
            } else {
                format!("{} {value} (0x{:08x})", names[c], b as u32)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn components(bits: &[u64; 4], mask: u8, wide: bool) -> String {
    typed_components(bits, mask, wide, DataType::F32)
}

/// How an instruction's sources and destination are typed: its data type, except that
/// conversions read (FLR, CEIL, TRUNC, ROUND, F2I) or write (I2F) floats.
fn operand_types(inst: &glemu_programs::ir::Inst) -> (DataType, DataType) {
    let t = inst.dtype;
    match inst.op {
        Opcode::Flr | Opcode::Ceil | Opcode::Trunc | Opcode::Round | Opcode::F2i => {
            (DataType::F32, t)
        }
        Opcode::I2f => (t, DataType::F32),
        _ => (t, t),
    }
}

fn vec4_text(v: &[u32; 4]) -> String {
    components(&v.map(u64::from), 0xf, false)
}

fn color_text(c: &[f32; 4]) -> String {
    format!("({}, {}, {}, {})", c[0], c[1], c[2], c[3])
}

fn cc_text(cc: &[u8; 4]) -> String {
    let flag = |f: u8| {
        let mut s = String::new();
        for (bit, n) in [(1, "S"), (2, "Z"), (4, "O"), (8, "C")] {
            if f & bit != 0 {
                s.push_str(n);
            }
        }
        if s.is_empty() {
            "-".into()
        } else {
            s
        }
    };
    format!(
        "x:{} y:{} z:{} w:{}",
        flag(cc[0]),
        flag(cc[1]),
        flag(cc[2]),
        flag(cc[3])
    )
}

/// Source text of a span, or the fallback.
fn span_text(text: &str, start: u32, end: u32, fallback: &str) -> String {
    text.get(start as usize..end as usize)
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| fallback.to_string())
}

fn is_flow(op: Opcode) -> bool {
    op.class() == OpClass::Flow && !matches!(op, Opcode::Pusha | Opcode::Popa)
}

fn step_lines(step: &TraceStep, prog: &Program, text: &str, first_line: usize, s: &mut String) {
    let Some(inst) = prog.instructions.get(step.pc as usize) else {
        return;
    };
    let (l, _) = glemu_programs::span::line_col(text, inst.span.start as usize);
    let scene_line = first_line + l as usize - 1;
    let src_line = text
        .lines()
        .nth(l as usize - 1)
        .map_or(String::new(), |t| t.trim().to_string());
    *s += &format!("    [line {scene_line}] {}: {src_line}\n", step.pc);
    for (src, read) in inst.srcs.iter().zip(&step.reads) {
        let name = span_text(text, src.span.start, src.span.end, "operand");
        match read {
            TraceOperand::Value { bits, wide } => {
                let ty = operand_types(inst).0;
                *s += &format!(
                    "        read  {name} = {}\n",
                    typed_components(bits, 0xf, *wide, ty)
                );
            }
            TraceOperand::Environment => {
                *s += &format!("        read  {name} (through the environment)\n");
            }
            TraceOperand::OutOfRange => {
                *s += &format!("        read  {name}: index out of range (reads 0)\n");
            }
        }
    }
    for t in &step.textures {
        let lod = t.lod.map_or(String::new(), |l| {
            format!(", LOD {} (unclamped {})", l[0], l[1])
        });
        *s += &format!(
            "        texture {:?} unit {} {:?}: coord {}{lod} -> texel {}\n",
            t.op,
            t.unit,
            t.target,
            vec4_text(&t.coord),
            vec4_text(&t.texel)
        );
    }
    if let (Some(d), Some(v)) = (&inst.dst, &step.wrote) {
        let name = span_text(text, d.span.start, d.span.end, "destination");
        let wide = v.iter().any(|x| *x > u64::from(u32::MAX));
        let cond = if d.cond.is_some() {
            " (conditional write: see the condition codes)"
        } else {
            ""
        };
        *s += &format!(
            "        wrote {name} = {}{cond}\n",
            typed_components(v, d.mask, wide, operand_types(inst).1)
        );
    }
    if inst.cc_update.is_some() || inst.dst.as_ref().is_some_and(|d| d.cond.is_some()) {
        *s += &format!(
            "        CC0 {}  CC1 {}\n",
            cc_text(&step.cc[0]),
            cc_text(&step.cc[1])
        );
    }
    match inst.op {
        Opcode::Emit | Opcode::Emits => {
            *s += "        emitted a vertex: the result registers as they stand\n";
        }
        Opcode::EndPrim => *s += "        ended the output primitive\n",
        _ => {}
    }
    if step.killed && inst.op == Opcode::Kil {
        *s += "        -> killed\n";
    } else if is_flow(inst.op) || step.next_pc != Some(step.pc + 1) {
        match step.next_pc {
            Some(n) if n as usize >= prog.instructions.len() => *s += "        -> end\n",
            Some(n) => {
                let line = prog.instructions.get(n as usize).map(|i| {
                    first_line
                        + glemu_programs::span::line_col(text, i.span.start as usize).0 as usize
                        - 1
                });
                let at = line.map_or(String::new(), |l| format!(" (line {l})"));
                *s += &format!("        -> {n}{at}\n");
            }
            None => *s += "        -> end\n",
        }
    }
}

/// The per-fragment operations of one fragment as text.
fn ops_lines(o: &FragmentOps, s: &mut String) {
    *s += &format!(
        "    per-fragment operations ({} tests):\n",
        if o.early { "early" } else { "late" }
    );
    if o.killed && !o.early {
        *s += "      discarded by KIL before the tests\n";
    }
    if let Some(st) = &o.stencil {
        *s += &format!(
            "      stencil test {} ref {} mask 0x{:x} against {}: {} (stencil now {})\n",
            st.func,
            st.reference,
            st.value_mask,
            st.stored,
            if st.pass { "pass" } else { "FAIL" },
            st.after
        );
    }
    if let Some(d) = &o.depth {
        *s += &format!(
            "      depth test {}: fragment z {} against stored {}: {}{}\n",
            d.func,
            d.z,
            d.stored,
            if d.pass { "pass" } else { "FAIL" },
            if d.written { " (depth written)" } else { "" }
        );
    }
    if o.killed && o.early {
        *s += "      discarded by KIL after the tests\n";
    }
    if let Some(b) = &o.blend {
        *s += &format!(
            "      blend {}/{}: source {} x {} [{}, {}] + destination {} x {} [{}, {}] = {}\n",
            b.equations[0],
            b.equations[1],
            color_text(&b.src),
            color_text(&b.src_factor),
            b.factor_names[0],
            b.factor_names[2],
            color_text(&b.dst),
            color_text(&b.dst_factor),
            b.factor_names[1],
            b.factor_names[3],
            color_text(&b.result)
        );
    } else if o.written {
        *s += "      no blending: the colour replaces the stored one\n";
    }
    *s += &format!("      stored colour after it: {}\n", color_text(&o.color));
}

fn ops_json(o: &FragmentOps) -> Value {
    json!({
        "early": o.early, "killed": o.killed, "written": o.written, "color": o.color,
        "stencil": o.stencil.as_ref().map(|st| json!({
            "func": st.func, "reference": st.reference, "value_mask": st.value_mask,
            "stored": st.stored, "pass": st.pass, "after": st.after,
        })),
        "depth": o.depth.as_ref().map(|d| json!({
            "func": d.func, "z": d.z, "stored": d.stored, "pass": d.pass, "written": d.written,
        })),
        "blend": o.blend.as_ref().map(|b| json!({
            "factors": b.factor_names, "equations": b.equations,
            "src_factor": b.src_factor, "dst_factor": b.dst_factor,
            "src": b.src, "dst": b.dst, "result": b.result,
        })),
    })
}

fn pixel_text(p: &PixelState) -> String {
    let mut s = format!("colour {}", color_text(&p.color));
    if let Some(d) = p.depth {
        s += &format!(", depth {d}");
    }
    if let Some(st) = p.stencil {
        s += &format!(", stencil {st}");
    }
    s
}

/// The trace as text.
pub fn to_text(t: &TraceResult, scene: &str) -> String {
    let mut s = format!("glemu trace: {scene} pixel ({}, {})\n", t.x, t.y);
    if t.draws.is_empty() {
        s += "no fragment reached the pixel\n";
    }
    for d in &t.draws {
        let cmd = t.scene_lines.get(d.line - 1).map_or("", |l| l.trim());
        s += &format!(
            "draw {} (line {}: {cmd}): {} fragment invocation{}\n",
            d.index,
            d.line,
            d.fragments.len(),
            if d.fragments.len() == 1 { "" } else { "s" }
        );
        for p in &d.primitives {
            primitive_lines(t, p, &mut s);
        }
        let steps_shown = t.stages.contains(&Stage::Fragment);
        for (i, f) in d.fragments.iter().enumerate() {
            let sample = f.sample.map_or(String::new(), |s| format!(", sample {s}"));
            s += &format!(
                "  fragment {}: primitive {}{sample}, coverage 0x{:x}, position ({}, {}, {}, {})\n",
                i + 1,
                f.primitive,
                f.coverage,
                f.position[0],
                f.position[1],
                f.position[2],
                f.position[3]
            );
            let ops = match &d.ops {
                DrawOps::Replayed { fragments, .. } => fragments.get(i),
                DrawOps::NotReplayed(_) => None,
            };
            if f.rejected_early {
                s += "    rejected by the early depth/stencil tests: the program did not run\n";
                if let Some(o) = ops {
                    ops_lines(o, &mut s);
                }
                continue;
            }
            if !steps_shown {
                if f.killed {
                    s += "    killed by KIL: no colour, depth or stencil write\n";
                }
                if let Some(o) = ops {
                    ops_lines(o, &mut s);
                }
                continue;
            }
            let Some((prog, text, first)) = fragment_source(t, f) else {
                s += "    (fixed-function fragment processing: no program to trace)\n";
                if let Some(c) = &f.fogged {
                    s += &format!("    after fog: colour {}\n", vec4_text(c));
                }
                if let Some(o) = ops {
                    ops_lines(o, &mut s);
                }
                continue;
            };
            s += "    inputs:\n";
            for (slot, v) in prog.inputs.iter().zip(&f.inputs) {
                s += &format!("      {:?} = {}\n", slot.binding, vec4_text(v));
            }
            for step in &f.trace.steps {
                step_lines(step, prog, text, *first, &mut s);
            }
            if f.trace.truncated {
                s += "    ... (more steps not recorded)\n";
            }
            s += "    outputs:\n";
            for (slot, v) in prog.outputs.iter().zip(&f.outputs) {
                s += &format!("      {:?} = {}\n", slot.binding, vec4_text(v));
            }
            if let Some(c) = &f.fogged {
                s += &format!("    after fog: colour {}\n", vec4_text(c));
            }
            if f.killed {
                s += "    killed by KIL: no colour, depth or stencil write\n";
            }
            if let Some(e) = &f.error {
                s += &format!("    error: {e}\n");
            }
            if let Some(o) = ops {
                ops_lines(o, &mut s);
            }
        }
        s += &format!("  tests: {}\n", d.tests);
        s += &format!("  pixel before the draw: {}\n", pixel_text(&d.before));
        s += &format!("  pixel after the draw:  {}\n", pixel_text(&d.after));
        match &d.ops {
            DrawOps::Replayed { matches: true, .. } => {
                s += "  replayed per-fragment operations: the same pixel as the draw left\n";
            }
            DrawOps::Replayed { color, .. } => {
                s += &format!(
                    "  replayed per-fragment operations: colour {} DIFFERS from the draw's (fragments not traced here reached it, or a state the replay does not model)\n",
                    color_text(color)
                );
            }
            DrawOps::NotReplayed(why) => {
                s += &format!("  per-fragment operations not replayed: {why}\n");
            }
        }
    }
    s += &format!(
        "stored at ({}, {}): {}\n",
        t.x,
        t.y,
        color_text(&t.final_color)
    );
    s
}

fn operand_json(r: &TraceOperand) -> Value {
    match r {
        TraceOperand::Value { bits, wide } => {
            let floats: Vec<f64> = bits
                .iter()
                .map(|b| {
                    if *wide {
                        f64::from_bits(*b)
                    } else {
                        f64::from(f32::from_bits(*b as u32))
                    }
                })
                .collect();
            json!({ "bits": bits, "float": floats, "wide": wide })
        }
        TraceOperand::Environment => json!("environment"),
        TraceOperand::OutOfRange => json!("out of range"),
    }
}

/// Each step of a trace as JSON, with its scene line and source when the program's text
/// is known.
fn steps_json(steps: &[TraceStep], program: Option<&(Program, String, usize)>) -> Vec<Value> {
    steps
        .iter()
        .map(|st| {
            let (line, source) = program.map_or((0, String::new()), |(p, text, first)| {
                p.instructions
                    .get(st.pc as usize)
                    .map_or((0, String::new()), |i| {
                        let (l, _) = glemu_programs::span::line_col(text, i.span.start as usize);
                        let src = text.lines().nth(l as usize - 1).unwrap_or("").trim();
                        (first + l as usize - 1, src.to_string())
                    })
            });
            let textures: Vec<Value> = st
                .textures
                .iter()
                .map(|x| {
                    json!({"op": format!("{:?}", x.op), "unit": x.unit,
                        "target": format!("{:?}", x.target), "coord": x.coord, "lod": x.lod,
                        "texel": x.texel})
                })
                .collect();
            json!({
                "pc": st.pc, "line": line, "source": source,
                "reads": st.reads.iter().map(operand_json).collect::<Vec<_>>(),
                "wrote": st.wrote, "write_mask": st.write_mask,
                "cc": st.cc, "next_pc": st.next_pc, "killed": st.killed,
                "textures": textures,
            })
        })
        .collect()
}

/// The scene's fragment program that ran for `f` (draws may switch programs); None for
/// fixed-function fragment processing, which runs a generated program with no source.
fn fragment_source<'a>(
    t: &'a TraceResult,
    f: &TracedFragment,
) -> Option<&'a (Program, String, usize)> {
    source_of(t, f.program.as_deref()?)
}

/// The scene program that ran as `prog` (to show source lines), if any.
fn source_of<'a>(t: &'a TraceResult, prog: &Program) -> Option<&'a (Program, String, usize)> {
    t.programs.iter().find(|(p, _, _)| p == prog)
}

fn stage_name(s: Stage) -> &'static str {
    match s {
        Stage::Vertex => "vertex",
        Stage::TessControl => "tess_control",
        Stage::TessEval => "tess_eval",
        Stage::Geometry => "geometry",
        Stage::Fragment => "fragment",
        _ => "compute",
    }
}

fn invocation_text(at: &Invocation, instance: u32) -> String {
    let what = match at {
        Invocation::Vertex { id } => format!("vertex program, vertex {id}"),
        Invocation::Control { patch, invocation } => {
            format!("tessellation control program, patch {patch} invocation {invocation}")
        }
        Invocation::Eval { patch, point } => {
            format!("tessellation evaluation program, patch {patch} generated vertex {point}")
        }
        Invocation::Geometry {
            primitive,
            invocation,
        } => format!("geometry program, input primitive {primitive} invocation {invocation}"),
    };
    format!("{what} (instance {instance})")
}

fn invocation_json(t: &TraceResult, i: &TracedInvocation) -> Value {
    let at = match i.at {
        Invocation::Vertex { id } => json!({"vertex": id}),
        Invocation::Control { patch, invocation } => {
            json!({"patch": patch, "invocation": invocation})
        }
        Invocation::Eval { patch, point } => json!({"patch": patch, "point": point}),
        Invocation::Geometry {
            primitive,
            invocation,
        } => json!({"primitive": primitive, "invocation": invocation}),
    };
    json!({
        "stage": stage_name(i.stage), "instance": i.instance, "at": at,
        "inputs": i.inputs, "outputs": i.outputs, "error": i.error,
        "truncated": i.trace.truncated,
        "steps": steps_json(&i.trace.steps, source_of(t, &i.program)),
    })
}

fn primitive_json(t: &TraceResult, p: &FedPrimitive) -> Value {
    json!({
        "instance": p.instance, "index": p.index,
        "fragments": p.fragments.iter().map(|f| f + 1).collect::<Vec<_>>(),
        "positions": p.positions,
        "invocations": p.invocations.iter().map(|i| invocation_json(t, i)).collect::<Vec<_>>(),
        "not_recorded": p.missing.iter().map(|(_, at)| invocation_text(at, p.instance)).collect::<Vec<_>>(),
    })
}

/// The earlier stages' invocations behind one primitive, as text.
fn primitive_lines(t: &TraceResult, p: &FedPrimitive, s: &mut String) {
    let frags: Vec<String> = p.fragments.iter().map(|f| (f + 1).to_string()).collect();
    let pos: Vec<String> = p
        .positions
        .iter()
        .map(|v| format!("({}, {}, {}, {})", v[0], v[1], v[2], v[3]))
        .collect();
    *s += &format!(
        "  rasterized primitive {} of instance {} (fragment {}): result.position {}\n",
        p.index,
        p.instance,
        frags.join(", "),
        pos.join(" ")
    );
    for i in &p.invocations {
        *s += &format!("    {}:\n", invocation_text(&i.at, i.instance));
        let src = source_of(t, &i.program);
        let prog = src.map_or(&*i.program, |(p, _, _)| p);
        *s += "      inputs:\n";
        for (v, copy) in i.inputs.iter().enumerate() {
            let tag = if i.inputs.len() > 1 {
                format!("[{v}] ")
            } else {
                String::new()
            };
            // Later copies hold only the per-vertex inputs (the rest live in copy 0).
            let per_vertex = |b: &InputBinding| v == 0 || matches!(b, InputBinding::Varying(_));
            for (slot, val) in prog.inputs.iter().zip(copy) {
                if per_vertex(&slot.binding) {
                    *s += &format!("        {tag}{:?} = {}\n", slot.binding, vec4_text(val));
                }
            }
        }
        match src {
            Some((prog, text, first)) => {
                let mut body = String::new();
                for step in &i.trace.steps {
                    step_lines(step, prog, text, *first, &mut body);
                }
                for l in body.lines() {
                    *s += &format!("  {l}\n");
                }
            }
            None => {
                *s += &format!(
                    "      {} steps (a program the scene does not spell out: no source lines)\n",
                    i.trace.steps.len()
                );
            }
        }
        if i.trace.truncated {
            *s += "      ... (more steps not recorded)\n";
        }
        *s += "      outputs:\n";
        for (slot, v) in prog.outputs.iter().zip(&i.outputs) {
            *s += &format!("        {:?} = {}\n", slot.binding, vec4_text(v));
        }
        if let Some(e) = &i.error {
            *s += &format!("      error: {e}\n");
        }
    }
    for (_, at) in &p.missing {
        *s += &format!(
            "    {}: not recorded (the draw ran more than {} such invocations)\n",
            invocation_text(at, p.instance),
            glemu_pipeline::trace::MAX_TRACED
        );
    }
}

/// The trace as JSON.
pub fn to_json(t: &TraceResult, scene: &str) -> Value {
    let draws: Vec<Value> = t
        .draws
        .iter()
        .map(|d| {
            let frags: Vec<Value> = d
                .fragments
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let ops = match &d.ops {
                        DrawOps::Replayed { fragments, .. } => fragments.get(i).map(ops_json),
                        DrawOps::NotReplayed(_) => None,
                    };
                    let steps = steps_json(&f.trace.steps, fragment_source(t, f));
                    json!({
                        "ops": ops,
                        "primitive": f.primitive, "sample": f.sample, "coverage": f.coverage,
                        "position": f.position, "inputs": f.inputs, "outputs": f.outputs,
                        "killed": f.killed, "rejected_early": f.rejected_early,
                        "error": f.error, "steps": steps, "fogged": f.fogged,
                        "truncated": f.trace.truncated,
                    })
                })
                .collect();
            let px =
                |p: &PixelState| json!({"color": p.color, "depth": p.depth, "stencil": p.stencil});
            let replay = match &d.ops {
                DrawOps::Replayed { matches, color, .. } => {
                    json!({"replayed": true, "matches": matches, "color": color})
                }
                DrawOps::NotReplayed(why) => json!({"replayed": false, "reason": why}),
            };
            json!({
                "primitives": d.primitives.iter().map(|p| primitive_json(t, p)).collect::<Vec<_>>(),
                "replay": replay,
                "draw": d.index, "line": d.line, "tests": d.tests,
                "before": px(&d.before), "after": px(&d.after), "fragments": frags,
            })
        })
        .collect();
    json!({
        "scene": scene, "x": t.x, "y": t.y, "draws": draws, "stored": t.final_color,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_the_framebuffer_is_an_error() {
        let text = "[require]\nSIZE 4 4\n[test]\nclear\n";
        let e = trace_scene(text, Path::new("."), 4, 0, None, None)
            .err()
            .unwrap_or_default();
        assert!(e.contains("outside the 4x4 framebuffer"), "{e}");
    }
}
