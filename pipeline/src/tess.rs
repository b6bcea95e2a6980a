//! Tessellation: control program (one lane per output vertex of a patch), the
//! fixed-function [`tessellator`](crate::tessellator), and the evaluation program (one
//! lane per generated vertex).
//!
//! Per-patch results of a control program (`result.patch.*`) live in each lane's output
//! registers; the patch takes, per component, the value of the first invocation that
//! left it non-zero (all invocations writing the same value, or only invocation 0
//! writing it, are both exact). Reading `primitive.out` values written by other
//! invocations of the same patch is not supported (reads zero).

use crate::assembly::{PrimClass, Primitives};
use crate::env::{Resources, StageEnv};
use crate::error::{check_alloc, PipelineError};
use crate::state::{StageProgram, TessState};
use crate::tessellator::{tessellate, TessConfig};
use crate::vertices::Vertices;
use glemu_programs::exec::{lanes_mask, LaneState, MAX_LANES};
use glemu_programs::ir::{InputBinding, Stage, TessSpacing, VaryingSlot};

/// The result of tessellating a set of patches.
#[derive(Clone, Debug)]
pub struct TessOut {
    pub verts: Vertices,
    pub class: PrimClass,
    pub prims: Primitives,
    pub ids: Vec<u32>,
}

fn is_patch_slot(s: VaryingSlot) -> bool {
    matches!(
        s,
        VaryingSlot::PatchAttrib(_) | VaryingSlot::TessOuter(_) | VaryingSlot::TessInner(_)
    )
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
    let layout = Vertices::layout_of(prog);
    let vertex_cols: Vec<(usize, VaryingSlot)> = layout
        .iter()
        .copied()
        .filter(|(_, s)| !is_patch_slot(*s))
        .collect();
    let patch_cols: Vec<(usize, VaryingSlot)> = layout
        .iter()
        .copied()
        .filter(|(_, s)| is_patch_slot(*s))
        .collect();
    let mut verts = Vertices::new(vertex_cols.iter().map(|(_, s)| *s).collect());
    let mut ls = LaneState::with_vertices(prog, MAX_LANES, n_in);
    let mut env = StageEnv {
        res,
        stage: Stage::TessControl,
        param_buffers: &tcs.param_buffers,
        subroutines: &tcs.subroutines,
    };
    let mut patches = Vec::new();
    for (p, pv) in prims.verts.chunks_exact(n_in).enumerate() {
        let id = ids.get(p).copied().unwrap_or(p as u32);
        let first = verts.len();
        let mut per_patch: Vec<(VaryingSlot, [u32; 4])> =
            patch_cols.iter().map(|(_, s)| (*s, [0; 4])).collect();
        // More output vertices than lanes run as consecutive batches of invocations.
        for start in (0..n_out).step_by(MAX_LANES) {
            let width = (n_out - start).min(MAX_LANES);
            for (slot, inp) in prog.inputs.iter().enumerate() {
                for lane in 0..width {
                    let invocation = (start + lane) as u32;
                    for (v, vid) in pv.iter().enumerate() {
                        let val = match &inp.binding {
                            InputBinding::Varying(s) => {
                                input.slot(*vid as usize, *s).unwrap_or([0; 4])
                            }
                            InputBinding::PrimitiveId => [id, 0, 0, 0],
                            InputBinding::PrimitiveInvocation => [invocation, 0, 0, 0],
                            InputBinding::PrimitiveVertexCount => [n_in as u32, 0, 0, 0],
                            InputBinding::PatchOut(_) | InputBinding::PatchIn(_) => [0; 4],
                            b => {
                                return Err(PipelineError::not_supported(format!(
                                    "tessellation control program input {b:?}"
                                )))
                            }
                        };
                        if let Some(r) = ls.input_vertex_mut(v, slot) {
                            for c in 0..4 {
                                r[c][lane] = val[c];
                            }
                        }
                    }
                }
            }
            tcs.executor
                .run(&mut ls, lanes_mask(width), &tcs.params, &mut env)
                .map_err(|e| {
                    PipelineError::execution(format!("tessellation control program: {e}"))
                })?;
            for lane in 0..width {
                let row: Vec<[u32; 4]> = vertex_cols
                    .iter()
                    .map(|(o, _)| ls.output_lane(*o, lane))
                    .collect();
                verts.push_row(&row);
            }
            for ((o, _), (_, v)) in patch_cols.iter().zip(per_patch.iter_mut()) {
                for (c, out) in v.iter_mut().enumerate() {
                    if *out == 0 {
                        *out = (0..width)
                            .map(|l| ls.output_lane(*o, l)[c])
                            .find(|x| *x != 0)
                            .unwrap_or(0);
                    }
                }
            }
        }
        patches.push(Patch {
            first,
            count: n_out,
            per_patch,
            id,
        });
    }
    Ok((verts, patches))
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
    let (pverts, patches) = match tcs {
        Some(t) => run_control(t, res, input, n_in, prims, ids)?,
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
    };
    let max_vertices = patches.iter().map(|p| p.count).max().unwrap_or(1);
    let mut ls = LaneState::with_vertices(prog, MAX_LANES, max_vertices);
    let mut env = StageEnv {
        res,
        stage: Stage::TessEval,
        param_buffers: &tes.param_buffers,
        subroutines: &tes.subroutines,
    };
    let level = |p: &Patch, s: VaryingSlot| f32::from_bits(p.value(s).unwrap_or([0; 4])[0]);
    for patch in &patches {
        let outer = [0, 1, 2, 3].map(|i| level(patch, VaryingSlot::TessOuter(i)));
        let inner = [0, 1].map(|i| level(patch, VaryingSlot::TessInner(i)));
        let t = tessellate(&cfg, outer, inner);
        if t.indices.is_empty() {
            continue;
        }
        check_alloc(
            (out.verts.len() + t.coords.len()) as u64,
            "tessellated vertices",
        )?;
        let base = out.verts.len() as u32;
        for chunk in t.coords.chunks(MAX_LANES) {
            for (slot, inp) in prog.inputs.iter().enumerate() {
                for (lane, tc) in chunk.iter().enumerate() {
                    let per_vertex = matches!(inp.binding, InputBinding::Varying(_));
                    let copies = if per_vertex { patch.count } else { 1 };
                    for v in 0..copies {
                        let val = match &inp.binding {
                            InputBinding::Varying(s) => {
                                pverts.slot(patch.first + v, *s).unwrap_or([0; 4])
                            }
                            InputBinding::TessCoord => {
                                [tc[0].to_bits(), tc[1].to_bits(), tc[2].to_bits(), 0]
                            }
                            InputBinding::PatchIn(s) => patch.value(*s).unwrap_or([0; 4]),
                            InputBinding::PrimitiveId => [patch.id, 0, 0, 0],
                            InputBinding::PrimitiveVertexCount => [patch.count as u32, 0, 0, 0],
                            b => {
                                return Err(PipelineError::not_supported(format!(
                                    "tessellation evaluation program input {b:?}"
                                )))
                            }
                        };
                        if let Some(r) = ls.input_vertex_mut(v, slot) {
                            for c in 0..4 {
                                r[c][lane] = val[c];
                            }
                        }
                    }
                }
            }
            tes.executor
                .run(&mut ls, lanes_mask(chunk.len()), &tes.params, &mut env)
                .map_err(|e| {
                    PipelineError::execution(format!("tessellation evaluation program: {e}"))
                })?;
            for lane in 0..chunk.len() {
                let row: Vec<[u32; 4]> = layout
                    .iter()
                    .map(|(o, _)| ls.output_lane(*o, lane))
                    .collect();
                out.verts.push_row(&row);
            }
        }
        let per = t.class.vertices();
        for prim in t.indices.chunks_exact(per) {
            out.prims.verts.extend(prim.iter().map(|i| base + i));
            out.prims.provoking.push(0);
            out.ids.push(patch.id);
        }
    }
    Ok(out)
}
