//! Tessellation: control program (one lane per output vertex of a patch), the
//! fixed-function [`tessellator`](crate::tessellator), and the evaluation program (one
//! lane per generated vertex).
//!
//! The control program's invocations of one patch run in lock-step as the lanes of one
//! or two batches (NV_tessellation_program5 allows 32 output vertices); the executor
//! keeps `vertex.out[m]` and `primitive.out` reads current after every instruction and
//! holds the per-patch results in every lane (see `glemu_programs::exec`'s lockstep
//! module for the order it picks where the spec leaves one open).

use crate::assembly::{PrimClass, Primitives};
use crate::env::{Resources, StageEnv};
use crate::error::{check_alloc, PipelineError};
use crate::scratch;
use crate::state::{StageProgram, TessState};
use crate::tessellator::{tessellate, TessConfig, Tessellation};
use crate::trace::{Invocation, StageTrace};
use crate::vertex_stage::{programs_have_side_effects, thread_value};
use crate::vertices::Vertices;
use glemu_programs::exec::{LaneState, MAX_LANES};
use glemu_programs::ir::{InputBinding, Stage, TessSpacing, ThreadMaskKind, VaryingSlot};
use rayon::prelude::*;
use std::sync::atomic::Ordering;

/// The result of tessellating a set of patches.
#[derive(Clone, Debug)]
pub struct TessOut {
    /// Every evaluated vertex.
    pub verts: Vertices,
    /// Primitive class of the output (points, lines or triangles).
    pub class: PrimClass,
    /// The output primitives, indexing `verts`.
    pub prims: Primitives,
    /// `primitive.id` of each output primitive (the patch it came from).
    pub ids: Vec<u32>,
    /// (patch id, generated vertex) of each row, when stages are traced (else empty).
    pub row_src: Vec<(u32, u32)>,
}

/// One output patch: per-vertex rows (layout `verts.slots`) and per-patch values.
struct Patch {
    first: usize,
    count: usize,
    per_patch: Vec<(VaryingSlot, [u32; 4])>,
    id: u32,
}

impl Patch {
    fn value(&self, s: VaryingSlot) -> Option<[u32; 4]> {
        self.per_patch
            .iter()
            .find(|(x, _)| *x == s)
            .map(|(_, v)| *v)
    }
}

/// Where a control program input's value comes from.
enum ControlInput {
    /// A varying of input vertex copy `v` (copies past the input patch read zero).
    Vary(VaryingSlot),
    Id,
    Invocation,
    VertexCount,
    /// NV_shader_thread_group: the invocation is the thread of a 32-wide warp.
    Thread(Option<ThreadMaskKind>),
    /// Warp and SM ids: a patch is one warp on one SM.
    Zero,
    /// `vertex.out` / `primitive.out`: kept by the executor while the patch runs.
    OutputPatch,
}

fn control_inputs(prog: &glemu_programs::ir::Program) -> Result<Vec<ControlInput>, PipelineError> {
    prog.inputs
        .iter()
        .map(|i| match i.binding {
            InputBinding::Varying(s) => Ok(ControlInput::Vary(s)),
            InputBinding::PrimitiveId => Ok(ControlInput::Id),
            InputBinding::PrimitiveInvocation => Ok(ControlInput::Invocation),
            InputBinding::PrimitiveVertexCount => Ok(ControlInput::VertexCount),
            InputBinding::ThreadId => Ok(ControlInput::Thread(None)),
            InputBinding::ThreadMask(k) => Ok(ControlInput::Thread(Some(k))),
            InputBinding::WarpId | InputBinding::SmId => Ok(ControlInput::Zero),
            InputBinding::VertexOut(_) | InputBinding::PatchOut(_) => Ok(ControlInput::OutputPatch),
            ref b => Err(PipelineError::not_supported(format!(
                "tessellation control program input {b:?}"
            ))),
        })
        .collect()
}

/// Runs the control program over every patch: its `VERTICES_OUT` invocations run in
/// lock-step as the lanes of one or two batches ([`Executor::run_patch`]), so they read
/// each other's results through `vertex.out` and `primitive.out`.
///
/// [`Executor::run_patch`]: glemu_programs::exec::Executor::run_patch
fn run_control(
    tcs: &StageProgram,
    res: &Resources,
    input: &Vertices,
    n_in: usize,
    prims: &Primitives,
    ids: &[u32],
) -> Result<(Vertices, Vec<Patch>), PipelineError> {
    let prog = &tcs.program;
    if prog.stage != Stage::TessControl {
        return Err(PipelineError::invalid_op(
            "the tessellation control stage's program is not a tessellation control program",
        ));
    }
    let n_out = prog.decls.vertices_out.unwrap_or(0) as usize;
    if !(1..=32).contains(&n_out) {
        return Err(PipelineError::invalid_op(format!(
            "tessellation control program VERTICES_OUT {n_out} is not 1..32"
        )));
    }
    let sources = control_inputs(prog)?;
    let layout = Vertices::layout_of(prog);
    let (patch_cols, vertex_cols): (Vec<_>, Vec<_>) =
        layout.iter().copied().partition(|(_, s)| s.is_per_patch());
    let mut verts = Vertices::new(vertex_cols.iter().map(|(_, s)| *s).collect());
    // Copies of the per-vertex inputs: the input patch's vertices, and the output
    // patch's for `vertex.out[m]`.
    let copies = n_in.max(n_out);
    let mut states: Vec<LaneState> = (0..n_out.div_ceil(MAX_LANES))
        .map(|_| LaneState::with_vertices(prog, MAX_LANES, copies))
        .collect();
    let mut env = StageEnv {
        res,
        stage: Stage::TessControl,
        param_buffers: &tcs.param_buffers,
        subroutines: &tcs.subroutines,
    };
    let mut patches = Vec::new();
    for (p, pv) in prims.verts.chunks_exact(n_in).enumerate() {
        res.check_deadline()?;
        let id = ids.get(p).copied().unwrap_or(p as u32);
        for (b, ls) in states.iter_mut().enumerate() {
            for (slot, src) in sources.iter().enumerate() {
                for v in 0..copies {
                    let val = |lane: usize| match src {
                        ControlInput::Vary(s) => pv
                            .get(v)
                            .and_then(|vid| input.slot(*vid as usize, *s))
                            .unwrap_or([0; 4]),
                        ControlInput::Id => [id, 0, 0, 0],
                        ControlInput::Invocation => [(b * MAX_LANES + lane) as u32, 0, 0, 0],
                        ControlInput::VertexCount => [n_in as u32, 0, 0, 0],
                        ControlInput::Thread(k) => {
                            [thread_value(*k, (b * MAX_LANES + lane) as u32), 0, 0, 0]
                        }
                        ControlInput::OutputPatch | ControlInput::Zero => [0; 4],
                    };
                    if let Some(r) = ls.input_vertex_mut(v, slot) {
                        for lane in 0..MAX_LANES {
                            let x = val(lane);
                            for c in 0..4 {
                                r[c][lane] = x[c];
                            }
                        }
                    }
                }
            }
        }
        StageTrace::run_patch(
            res.stage_trace.as_deref(),
            tcs,
            &mut states,
            n_out,
            &mut env,
            id,
        )
        .map_err(|e| PipelineError::program(Stage::TessControl, e))?;
        let first = verts.len();
        for (m, ls) in (0..n_out).filter_map(|m| Some((m, states.get(m / MAX_LANES)?))) {
            let row: Vec<[u32; 4]> = vertex_cols
                .iter()
                .map(|(o, _)| ls.output_lane(*o, m % MAX_LANES))
                .collect();
            verts.push_row(&row);
        }
        // Every lane holds the patch's per-patch values.
        let per_patch = patch_cols
            .iter()
            .map(|(o, s)| {
                let v = states.first().map_or([0; 4], |ls| ls.output_lane(*o, 0));
                (*s, v)
            })
            .collect();
        patches.push(Patch {
            first,
            count: n_out,
            per_patch,
            id,
        });
    }
    Ok((verts, patches))
}

/// Patches per control-program task.
const CONTROL_CHUNK: usize = 64;

/// [`run_control`] over chunks of patches on every worker, results joined in order.
fn control_chunked(
    tcs: &StageProgram,
    res: &Resources,
    input: &Vertices,
    n_in: usize,
    prims: &Primitives,
    ids: &[u32],
    serial: bool,
) -> Result<(Vertices, Vec<Patch>), PipelineError> {
    let n = prims.len();
    if serial || n <= CONTROL_CHUNK {
        return run_control(tcs, res, input, n_in, prims, ids);
    }
    let parts: Vec<Result<(Vertices, Vec<Patch>), PipelineError>> = (0..n.div_ceil(CONTROL_CHUNK))
        .into_par_iter()
        .map(|c| {
            let range = c * CONTROL_CHUNK..((c + 1) * CONTROL_CHUNK).min(n);
            let sub = prims.slice(range.clone(), n_in);
            let sub_ids = ids.get(range.clone()).unwrap_or(&[]);
            // Ids default to the patch's index in the draw, not in the chunk.
            let own_ids: Vec<u32>;
            let sub_ids = if sub_ids.len() == range.len() {
                sub_ids
            } else {
                own_ids = range
                    .map(|p| ids.get(p).copied().unwrap_or(p as u32))
                    .collect();
                &own_ids
            };
            run_control(tcs, res, input, n_in, &sub, sub_ids)
        })
        .collect();
    let mut verts: Option<Vertices> = None;
    let mut patches = Vec::with_capacity(n);
    for part in parts {
        let (v, ps) = part?;
        let base = verts.as_ref().map_or(0, Vertices::len);
        patches.extend(ps.into_iter().map(|p| Patch {
            first: p.first + base,
            ..p
        }));
        match verts.as_mut() {
            None => verts = Some(v),
            Some(all) => all.data.extend_from_slice(&v.data),
        }
    }
    Ok((verts.unwrap_or_default(), patches))
}

/// Runs control (optional), primitive generation and evaluation for `prims`, patches of
/// `n_in` vertices whose vertices are in `input`.
#[allow(clippy::too_many_arguments)]
pub fn run(
    tcs: Option<&StageProgram>,
    tes: &StageProgram,
    res: &Resources,
    tess: &TessState,
    input: &Vertices,
    n_in: usize,
    prims: &Primitives,
    ids: &[u32],
) -> Result<TessOut, PipelineError> {
    let prog = &tes.program;
    if prog.stage != Stage::TessEval {
        return Err(PipelineError::invalid_op(
            "the tessellation evaluation stage's program is not a tessellation evaluation program",
        ));
    }
    let d = &prog.decls;
    let cfg = TessConfig {
        mode: d.tess_mode.ok_or_else(|| {
            PipelineError::invalid_op("tessellation evaluation program without TESS_MODE")
        })?,
        spacing: d.tess_spacing.unwrap_or(TessSpacing::Equal),
        cw: d.tess_cw.unwrap_or(false),
        point_mode: d.tess_point_mode,
    };
    // Stores and atomics see the invocations in one order at any thread count.
    let serial = programs_have_side_effects(prog)
        || tcs.is_some_and(|t| programs_have_side_effects(&t.program));
    let (pverts, patches) = match tcs {
        Some(t) => control_chunked(t, res, input, n_in, prims, ids, serial)?,
        None => {
            // Without a control program the input patch passes through, with the
            // default levels.
            let mut per_patch = Vec::new();
            for (i, l) in tess.default_outer.iter().enumerate() {
                per_patch.push((VaryingSlot::TessOuter(i as u32), [l.to_bits(), 0, 0, 0]));
            }
            for (i, l) in tess.default_inner.iter().enumerate() {
                per_patch.push((VaryingSlot::TessInner(i as u32), [l.to_bits(), 0, 0, 0]));
            }
            let mut verts = Vertices::new(input.slots.clone());
            let mut patches = Vec::new();
            for (p, pv) in prims.verts.chunks_exact(n_in).enumerate() {
                let first = verts.len();
                for v in pv {
                    verts.push_row(input.row(*v as usize));
                }
                patches.push(Patch {
                    first,
                    count: n_in,
                    per_patch: per_patch.clone(),
                    id: ids.get(p).copied().unwrap_or(p as u32),
                });
            }
            (verts, patches)
        }
    };
    let layout = Vertices::layout_of(prog);
    let mut out = TessOut {
        verts: Vertices::new(layout.iter().map(|(_, s)| *s).collect()),
        class: if cfg.point_mode {
            PrimClass::Points
        } else if cfg.mode == glemu_programs::ir::TessMode::Isolines {
            PrimClass::Lines
        } else {
            PrimClass::Triangles
        },
        prims: Primitives::default(),
        ids: Vec::new(),
        row_src: Vec::new(),
    };
    // Each input's source, checked once.
    for inp in &prog.inputs {
        if !matches!(
            inp.binding,
            InputBinding::Varying(_)
                | InputBinding::TessCoord
                | InputBinding::PatchIn(_)
                | InputBinding::PrimitiveId
                | InputBinding::PrimitiveVertexCount
                | InputBinding::ThreadId
                | InputBinding::WarpId
                | InputBinding::SmId
                | InputBinding::ThreadMask(_)
        ) {
            return Err(PipelineError::not_supported(format!(
                "tessellation evaluation program input {:?}",
                inp.binding
            )));
        }
    }
    let max_vertices = patches.iter().map(|p| p.count).max().unwrap_or(1);
    let n = layout.len();
    // First each patch's domain points and primitives (levels come from the control
    // program); then the output rows are sized once and every patch's evaluation
    // writes its own part of them. Patches' own row buffers (above malloc's mmap size
    // for a level-64 quad) were mapped and unmapped, hence faulted in, patch by patch.
    let tessellate_one = |patch: &Patch| {
        res.check_deadline()?;
        let level = |s: VaryingSlot| f32::from_bits(patch.value(s).unwrap_or([0; 4])[0]);
        let outer = [0, 1, 2, 3].map(|i| level(VaryingSlot::TessOuter(i)));
        let inner = [0, 1].map(|i| level(VaryingSlot::TessInner(i)));
        let t = tessellate(&cfg, outer, inner);
        check_alloc(t.coords.len() as u64, "tessellated vertices")?;
        Ok::<_, PipelineError>(t)
    };
    let tessellated: Vec<Result<Tessellation, PipelineError>> = if serial {
        patches.iter().map(tessellate_one).collect()
    } else {
        patches
            .par_iter()
            .with_max_len(1)
            .map(tessellate_one)
            .collect()
    };
    let tessellated: Vec<Tessellation> = tessellated.into_iter().collect::<Result<_, _>>()?;
    // A patch without primitives is discarded: no rows.
    let rows_of = |t: &Tessellation| match t.indices.is_empty() {
        true => 0,
        false => t.coords.len(),
    };
    let total: usize = tessellated.iter().map(rows_of).sum();
    check_alloc(total as u64, "tessellated vertices")?;
    out.verts.data = scratch::VEC4S.filled(total * n, [0; 4]);
    let mut parts: Vec<&mut [[u32; 4]]> = Vec::with_capacity(patches.len());
    let mut rest = &mut out.verts.data[..];
    for t in &tessellated {
        let (mine, after) = rest.split_at_mut((rows_of(t) * n).min(rest.len()));
        parts.push(mine);
        rest = after;
    }
    let eval = |ls: &mut LaneState,
                ((patch, t), rows): ((&Patch, &Tessellation), &mut [[u32; 4]])| {
        evaluate_patch(tes, res, &layout, &pverts, patch, t, rows, ls)
    };
    let new_state = || LaneState::with_vertices(prog, MAX_LANES, max_vertices);
    let jobs = patches.iter().zip(&tessellated).zip(parts);
    let results: Vec<Result<(), PipelineError>> = if serial {
        let mut ls = new_state();
        jobs.map(|j| eval(&mut ls, j)).collect()
    } else {
        // Patches vary a lot in size, so each is a task of its own and rayon balances
        // them.
        jobs.collect::<Vec<_>>()
            .into_par_iter()
            .with_max_len(1)
            .map_init(new_state, eval)
            .collect()
    };
    for r in results {
        r?;
    }
    let mut base = 0u32;
    for (patch, t) in patches.iter().zip(&tessellated) {
        if t.indices.is_empty() {
            continue;
        }
        let n_rows = t.coords.len();
        if res.stage_trace.is_some() {
            out.row_src
                .extend((0..n_rows as u32).map(|k| (patch.id, k)));
        }
        let per = out.class.vertices();
        out.prims.verts.extend(t.indices.iter().map(|i| base + i));
        let k = t.indices.len() / per;
        out.prims.provoking.resize(out.prims.provoking.len() + k, 0);
        out.ids.resize(out.ids.len() + k, patch.id);
        base += n_rows as u32;
    }
    Ok(out)
}

/// Runs the evaluation program on the domain points `t` of `patch`, writing their rows
/// (the program's `layout`) into `rows`; nothing for a patch `t` discards (no
/// primitives).
#[allow(clippy::too_many_arguments)]
fn evaluate_patch(
    tes: &StageProgram,
    res: &Resources,
    layout: &[(usize, VaryingSlot)],
    pverts: &Vertices,
    patch: &Patch,
    t: &Tessellation,
    rows: &mut [[u32; 4]],
    ls: &mut LaneState,
) -> Result<(), PipelineError> {
    let prog = &tes.program;
    if t.indices.is_empty() {
        return Ok(());
    }
    let mut env = StageEnv {
        res,
        stage: Stage::TessEval,
        param_buffers: &tes.param_buffers,
        subroutines: &tes.subroutines,
    };
    // Everything but the domain coordinate is the same for every lane and batch of the
    // patch (inputs keep their values between runs): written once.
    let mut coord_slots = Vec::new();
    for (slot, inp) in prog.inputs.iter().enumerate() {
        let per_vertex = matches!(inp.binding, InputBinding::Varying(_));
        let copies = if per_vertex { patch.count } else { 1 };
        for v in 0..copies {
            let Some(r) = ls.input_vertex_mut(v, slot) else {
                continue;
            };
            let uniform = |r: &mut glemu_programs::exec::Vec4, val: [u32; 4]| {
                for c in 0..4 {
                    r[c] = [val[c]; MAX_LANES];
                }
            };
            match &inp.binding {
                InputBinding::Varying(s) => {
                    uniform(r, pverts.slot(patch.first + v, *s).unwrap_or([0; 4]))
                }
                InputBinding::TessCoord => coord_slots.push(slot),
                InputBinding::PatchIn(s) => uniform(r, patch.value(*s).unwrap_or([0; 4])),
                InputBinding::PrimitiveId => uniform(r, [patch.id, 0, 0, 0]),
                InputBinding::PrimitiveVertexCount => uniform(r, [patch.count as u32, 0, 0, 0]),
                InputBinding::ThreadId | InputBinding::ThreadMask(_) => {
                    let k = match inp.binding {
                        InputBinding::ThreadMask(k) => Some(k),
                        _ => None,
                    };
                    for lane in 0..MAX_LANES {
                        r[0][lane] = thread_value(k, lane as u32);
                        r[1][lane] = 0;
                        r[2][lane] = 0;
                        r[3][lane] = 0;
                    }
                }
                _ => uniform(r, [0; 4]),
            }
        }
    }
    let mut dst = rows.iter_mut();
    let tracer = res.stage_trace.as_deref();
    let instance = tracer.map_or(0, |t| t.instance.load(Ordering::Relaxed));
    for (c, chunk) in t.coords.chunks(MAX_LANES).enumerate() {
        env.res.check_deadline()?;
        for &slot in &coord_slots {
            if let Some(r) = ls.input_vertex_mut(0, slot) {
                for (lane, tc) in chunk.iter().enumerate() {
                    r[0][lane] = tc[0].to_bits();
                    r[1][lane] = tc[1].to_bits();
                    r[2][lane] = tc[2].to_bits();
                    r[3][lane] = 0;
                }
            }
        }
        let at = |lane: usize| {
            let point = (c * MAX_LANES + lane) as u32;
            let patch = patch.id;
            (instance, Invocation::Eval { patch, point })
        };
        StageTrace::run(tracer, Stage::TessEval, tes, ls, chunk.len(), &mut env, at)
            .map_err(|e| PipelineError::program(Stage::TessEval, e))?;
        for lane in 0..chunk.len() {
            for (o, _) in layout {
                if let Some(d) = dst.next() {
                    *d = ls.output_lane(*o, lane);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(text: &str) -> StageProgram {
        crate::draw_tests::stage(text, Stage::TessControl, vec![])
    }

    fn res() -> Resources {
        Resources {
            stage_trace: None,
            textures: Vec::new(),
            counter_buffers: Vec::new(),
            storage_buffers: Vec::new(),
            memory: None,
            images: Vec::new(),
            deadline: None,
            texture_sites: Vec::new(),
        }
    }

    /// One patch of one input vertex, run through `text` with `n_out` output vertices.
    fn run_one(text: &str) -> Result<(Vertices, Vec<Patch>), PipelineError> {
        let tcs = control(text);
        let mut input = Vertices::new(vec![VaryingSlot::Position]);
        input.push_row(&[[0; 4]]);
        let prims = Primitives {
            verts: vec![0],
            ..Primitives::default()
        };
        run_control(&tcs, &res(), &input, 1, &prims, &[7])
    }

    fn f(bits: u32) -> f32 {
        f32::from_bits(bits)
    }

    #[test]
    fn invocations_read_per_patch_outputs_written_by_another() {
        // Only invocation 0 sets the level; every invocation then copies it through
        // `primitive.out` into its own vertex.
        let (verts, patches) = run_one(
            "!!NVtcp5.0\nVERTICES_OUT 3;\nINT TEMP id;\nTEMP t;\n\
             MOV.S id.x, primitive.invocation.x;\nSEQ.S.CC id.y, id.x, 0;\n\
             IF NE.y;\nMOV result.patch.tessouter[0].x, 5.5;\nENDIF;\n\
             MOV t, primitive.out.tessouter[0].x;\nMOV result.attrib[0], t;\nEND\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(verts.len(), 3);
        for v in 0..3 {
            let a = verts.slot(v, VaryingSlot::Attrib(0)).unwrap_or([0; 4]);
            assert_eq!(a.map(f), [5.5; 4], "vertex {v}");
        }
        let outer = patches[0]
            .value(VaryingSlot::TessOuter(0))
            .unwrap_or([0; 4]);
        assert_eq!(f(outer[0]), 5.5);
        assert_eq!(patches[0].id, 7);
    }

    #[test]
    fn chains_of_per_patch_values_settle() {
        // Invocation 2 writes patch.attrib[0]; invocation 0 derives the level from it;
        // invocation 1 derives patch.attrib[1] from the level.
        let (_, patches) = run_one(
            "!!NVtcp5.0\nVERTICES_OUT 3;\nINT TEMP id;\nTEMP t;\n\
             MOV.S id.x, primitive.invocation.x;\nSEQ.S.CC id.y, id.x, 2;\n\
             IF NE.y;\nMOV result.patch.attrib[0].x, 3.0;\nENDIF;\n\
             SEQ.S.CC id.y, id.x, 0;\nIF NE.y;\n\
             ADD result.patch.tessouter[0].x, primitive.out.patch.attrib[0].x, 1.0;\nENDIF;\n\
             SEQ.S.CC id.y, id.x, 1;\nIF NE.y;\n\
             MUL result.patch.attrib[1].x, primitive.out.tessouter[0].x, 2.0;\nENDIF;\nEND\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let p = &patches[0];
        let x = |s| f(p.value(s).unwrap_or([0; 4])[0]);
        assert_eq!(x(VaryingSlot::PatchAttrib(0)), 3.0);
        assert_eq!(x(VaryingSlot::TessOuter(0)), 4.0);
        assert_eq!(x(VaryingSlot::PatchAttrib(1)), 8.0);
    }

    #[test]
    fn per_patch_read_modify_write_sees_its_own_earlier_value() {
        // Lock-step makes this defined: each instruction reads what the previous one
        // wrote; all three invocations write the same value in one instruction.
        let (_, patches) = run_one(
            "!!NVtcp5.0\nVERTICES_OUT 3;\n\
             ADD result.patch.tessouter[0].x, primitive.out.tessouter[0].x, 1.0;\n\
             MUL result.patch.tessouter[0].x, primitive.out.tessouter[0].x, 3.0;\nEND\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let v = patches[0]
            .value(VaryingSlot::TessOuter(0))
            .unwrap_or([0; 4]);
        assert_eq!(f(v[0]), 3.0);
    }

    /// Patches of `n_in` input vertices whose positions are (p, v, 0, 1) for patch p and
    /// vertex v, run through `text`.
    fn run_patches(
        text: &str,
        n_in: usize,
        patches: usize,
    ) -> Result<(Vertices, Vec<Patch>), PipelineError> {
        let tcs = control(text);
        let mut input = Vertices::new(vec![VaryingSlot::Position]);
        for p in 0..patches {
            for v in 0..n_in {
                input.push_row(&[[p as f32, v as f32, 0.0, 1.0].map(f32::to_bits)]);
            }
        }
        let prims = Primitives {
            verts: (0..(n_in * patches) as u32).collect(),
            ..Primitives::default()
        };
        let ids: Vec<u32> = (0..patches as u32).collect();
        run_control(&tcs, &res(), &input, n_in, &prims, &ids)
    }

    fn attrib(verts: &Vertices, v: usize, n: u32) -> [f32; 4] {
        verts
            .slot(v, VaryingSlot::Attrib(n))
            .unwrap_or([0; 4])
            .map(f)
    }

    #[test]
    fn vertex_out_reads_see_the_neighbours_positions() {
        // Each output vertex copies its input vertex, then averages its two neighbours'
        // results (through vertex.out, after every invocation wrote its own).
        let text = "!!NVtcp5.0\nVERTICES_OUT 4;\nINT TEMP i;\nTEMP a;\n\
             ATTRIB o[] = { vertex.out.position };\nATTRIB ip[] = { vertex.position };\n\
             MOV.S i.x, primitive.invocation.x;\nMOV result.position, ip[i.x][0];\n\
             ADD.S i.y, i.x, 1;\nAND.S i.y, i.y, 3;\nADD.S i.z, i.x, 3;\nAND.S i.z, i.z, 3;\n\
             ADD a, o[i.y][0], o[i.z][0];\nMUL result.attrib[0], a, 0.5;\nEND\n";
        let (verts, patches) = run_patches(text, 4, 2).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(verts.len(), 8);
        assert_eq!(patches.len(), 2);
        for p in 0..2 {
            for v in 0..4 {
                let y = (((v + 1) % 4) + ((v + 3) % 4)) as f32 * 0.5;
                assert_eq!(
                    attrib(&verts, p * 4 + v, 0),
                    [p as f32, y, 0.0, 1.0],
                    "patch {p} vertex {v}"
                );
            }
        }
    }

    #[test]
    fn divergent_if_else_orders_blocks() {
        // Even invocations set a patch attribute in the IF block; odd ones read it in
        // the ELSE block (which runs after it), then everyone reads vertex 1's result.
        let text = "!!NVtcp5.0\nVERTICES_OUT 4;\nINT TEMP i;\n\
             MOV.S i.x, primitive.invocation.x;\nAND.S.CC i.y, i.x, 1;\n\
             IF EQ.y;\nMOV result.patch.attrib[2], {1, 2, 3, 4};\nMOV result.attrib[1].x, -1;\n\
             ELSE;\nMUL result.attrib[1], primitive.out.patch.attrib[2], 10;\nENDIF;\n\
             MOV result.attrib[0], vertex.out[1].attrib[1];\nEND\n";
        let (verts, patches) = run_patches(text, 3, 1).unwrap_or_else(|e| panic!("{e}"));
        for v in 0..4 {
            let own = attrib(&verts, v, 1);
            if v % 2 == 0 {
                assert_eq!(own[0], -1.0);
            } else {
                assert_eq!(own, [10.0, 20.0, 30.0, 40.0]);
            }
            assert_eq!(attrib(&verts, v, 0), [10.0, 20.0, 30.0, 40.0], "vertex {v}");
        }
        let pa = patches[0]
            .value(VaryingSlot::PatchAttrib(2))
            .unwrap_or([0; 4]);
        assert_eq!(pa.map(f), [1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn thirty_two_vertex_patches() {
        // Invocation 31 (second batch) sets the level; every vertex adds the level to
        // the invocation number of its mirror vertex (other batch for all of them).
        let text = "!!NVtcp5.0\nVERTICES_OUT 32;\nINT TEMP i;\nTEMP t;\n\
             ATTRIB o[] = { vertex.out.attrib[1] };\n\
             MOV.S i.x, primitive.invocation.x;\nI2F result.attrib[1].x, i.x;\n\
             SEQ.S.CC i.y, i.x, 31;\nIF NE.y;\nMOV result.patch.tessouter[1].x, 64;\nENDIF;\n\
             SUB.S i.z, 31, i.x;\nMOV t.x, o[i.z][0].x;\n\
             ADD result.attrib[0].x, t.x, primitive.out.tessouter[1].x;\nEND\n";
        let (verts, patches) = run_patches(text, 4, 2).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(verts.len(), 64);
        for p in 0..2 {
            for v in 0..32 {
                assert_eq!(attrib(&verts, p * 32 + v, 0)[0], 64.0 + (31 - v) as f32);
            }
            let l = patches[p]
                .value(VaryingSlot::TessOuter(1))
                .unwrap_or([0; 4]);
            assert_eq!(f(l[0]), 64.0);
        }
    }

    #[test]
    fn input_patch_and_primitive_bindings() {
        // vertex[m] of the input patch, primitive.id, primitive.vertexcount and
        // primitive.invocation.
        let text = "!!NVtcp5.0\nVERTICES_OUT 2;\nINT TEMP i;\n\
             MOV result.attrib[0], vertex[2].position;\nMOV.S i.x, primitive.id.x;\n\
             MOV.S i.y, primitive.vertexcount.x;\nMOV.S i.z, primitive.invocation.x;\n\
             I2F result.attrib[1].xyz, i;\nEND\n";
        let (verts, _) = run_patches(text, 3, 2).unwrap_or_else(|e| panic!("{e}"));
        for p in 0..2 {
            for v in 0..2 {
                assert_eq!(attrib(&verts, p * 2 + v, 0), [p as f32, 2.0, 0.0, 1.0]);
                assert_eq!(attrib(&verts, p * 2 + v, 1)[..3], [p as f32, 3.0, v as f32]);
            }
        }
    }

    #[test]
    fn vertex_ids_and_thread_ids() {
        // vertex[m].id reads the previous stage's result.id; primitive.threadid and the
        // thread masks number the invocations as the threads of one warp.
        let tcs = control(
            "!!NVtcp5.0\nOPTION NV_shader_thread_group;\nVERTICES_OUT 20;\nINT TEMP i;\n\
             MOV.U i.x, vertex[1].id.x;\nMOV.U i.y, primitive.threadid.x;\n\
             MOV.U i.z, primitive.threadltmask.x;\nMOV.U result.attrib[0], i;\nEND\n",
        );
        let mut input = Vertices::new(vec![VaryingSlot::Position, VaryingSlot::VertexId]);
        input.push_row(&[[0; 4], [40, 0, 0, 0]]);
        input.push_row(&[[0; 4], [41, 0, 0, 0]]);
        let prims = Primitives {
            verts: vec![0, 1],
            ..Primitives::default()
        };
        let (verts, _) =
            run_control(&tcs, &res(), &input, 2, &prims, &[0]).unwrap_or_else(|e| panic!("{e}"));
        for v in 0..20u32 {
            let a = verts
                .slot(v as usize, VaryingSlot::Attrib(0))
                .unwrap_or([9; 4]);
            assert_eq!(a[..3], [41, v, (1u32 << v) - 1], "invocation {v}");
        }
    }

    #[test]
    fn a_value_written_by_one_invocation_reaches_the_patch() {
        // A value written by one invocation only (not invocation 0) still reaches the
        // patch.
        let (_, patches) = run_one(
            "!!NVtcp5.0\nVERTICES_OUT 4;\nINT TEMP id;\n\
             MOV.S id.x, primitive.invocation.x;\nSEQ.S.CC id.y, id.x, 3;\n\
             IF NE.y;\nMOV result.patch.tessinner[1].x, 2.0;\nENDIF;\nEND\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let v = patches[0]
            .value(VaryingSlot::TessInner(1))
            .unwrap_or([0; 4]);
        assert_eq!(f(v[0]), 2.0);
    }
}
