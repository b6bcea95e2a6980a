//! Tessellation: control program (one lane per output vertex of a patch), the
//! fixed-function [`tessellator`](crate::tessellator), and the evaluation program (one
//! lane per generated vertex).
//!
//! Per-patch results of a control program (`result.patch.*`) live in each lane's output
//! registers; the patch takes, per component, the value of the first invocation that
//! left it non-zero (all invocations writing the same value, or only one invocation
//! writing it, are both exact).
//!
//! The spec runs a patch's invocations in lock-step, so `primitive.out` reads see
//! per-patch values written by any invocation in earlier instructions. The executor has
//! no lane-to-lane channel within a run, so a program that reads `primitive.out` runs
//! again with those inputs holding the per-patch values of the previous pass, until a
//! pass reproduces what it read. That equals lock-step execution whenever each per-patch
//! value read is written once before its reads (the usual "one invocation sets the
//! levels, all use them"); a value read and then rewritten reads its final value; and a
//! value that feeds back into itself never settles and is reported as not supported.
//! `vertex.out` reads are rejected by the front end.

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

/// Most passes [`run_control`] makes over one patch before giving up on a program whose
/// per-patch outputs feed back into themselves: beyond the first pass each one settles
/// at least one more link of a write → `primitive.out` read → write chain.
const EXTRA_PASSES_PER_SLOT: usize = 1;

/// What one pass over a patch's invocations produced: per-vertex rows and per-patch values.
struct PassOut {
    rows: Vec<Vec<[u32; 4]>>,
    per_patch: Vec<(VaryingSlot, [u32; 4])>,
}

/// Everything a control pass needs besides the patch itself.
struct Control<'a> {
    tcs: &'a StageProgram,
    input: &'a Vertices,
    n_in: usize,
    n_out: usize,
    vertex_cols: Vec<(usize, VaryingSlot)>,
    patch_cols: Vec<(usize, VaryingSlot)>,
}

impl Control<'_> {
    /// Runs every invocation of one patch; `primitive.out` reads see `patch_view`.
    fn pass(
        &self,
        ls: &mut LaneState,
        env: &mut StageEnv<'_>,
        pv: &[u32],
        id: u32,
        patch_view: &[(VaryingSlot, [u32; 4])],
    ) -> Result<PassOut, PipelineError> {
        let prog = &self.tcs.program;
        let mut out = PassOut {
            rows: Vec::with_capacity(self.n_out),
            per_patch: self.patch_cols.iter().map(|(_, s)| (*s, [0; 4])).collect(),
        };
        // More output vertices than lanes run as consecutive batches of invocations.
        for start in (0..self.n_out).step_by(MAX_LANES) {
            let width = (self.n_out - start).min(MAX_LANES);
            for (slot, inp) in prog.inputs.iter().enumerate() {
                for lane in 0..width {
                    let invocation = (start + lane) as u32;
                    for (v, vid) in pv.iter().enumerate() {
                        let val = match &inp.binding {
                            InputBinding::Varying(s) => {
                                self.input.slot(*vid as usize, *s).unwrap_or([0; 4])
                            }
                            InputBinding::PrimitiveId => [id, 0, 0, 0],
                            InputBinding::PrimitiveInvocation => [invocation, 0, 0, 0],
                            InputBinding::PrimitiveVertexCount => [self.n_in as u32, 0, 0, 0],
                            InputBinding::PatchOut(s) => patch_view
                                .iter()
                                .find(|(x, _)| x == s)
                                .map_or([0; 4], |(_, v)| *v),
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
            self.tcs
                .executor
                .run(ls, lanes_mask(width), &self.tcs.params, env)
                .map_err(|e| {
                    PipelineError::execution(format!("tessellation control program: {e}"))
                })?;
            for lane in 0..width {
                out.rows.push(
                    self.vertex_cols
                        .iter()
                        .map(|(o, _)| ls.output_lane(*o, lane))
                        .collect(),
                );
            }
            for ((o, _), (_, v)) in self.patch_cols.iter().zip(out.per_patch.iter_mut()) {
                for (c, val) in v.iter_mut().enumerate() {
                    if *val == 0 {
                        *val = (0..width)
                            .map(|l| ls.output_lane(*o, l)[c])
                            .find(|x| *x != 0)
                            .unwrap_or(0);
                    }
                }
            }
        }
        Ok(out)
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
    let ctl = Control {
        tcs,
        input,
        n_in,
        n_out,
        vertex_cols: layout
            .iter()
            .copied()
            .filter(|(_, s)| !is_patch_slot(*s))
            .collect(),
        patch_cols: layout
            .iter()
            .copied()
            .filter(|(_, s)| is_patch_slot(*s))
            .collect(),
    };
    let reads_patch_out = prog
        .inputs
        .iter()
        .any(|i| matches!(i.binding, InputBinding::PatchOut(_)));
    let max_passes = if reads_patch_out {
        1 + ctl.patch_cols.len() * EXTRA_PASSES_PER_SLOT + 1
    } else {
        1
    };
    let mut verts = Vertices::new(ctl.vertex_cols.iter().map(|(_, s)| *s).collect());
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
        // `primitive.out` reads see the per-patch values the previous pass settled on
        // (nothing written yet reads zero, which the spec leaves undefined); the patch is
        // done when a pass reproduces the values it read.
        let mut view: Vec<(VaryingSlot, [u32; 4])> = Vec::new();
        let mut settled = None;
        for _ in 0..max_passes {
            let out = ctl.pass(&mut ls, &mut env, pv, id, &view)?;
            if !reads_patch_out || out.per_patch == view {
                settled = Some(out);
                break;
            }
            view = out.per_patch;
        }
        let out = settled.ok_or_else(|| {
            PipelineError::not_supported(
                "tessellation control program whose per-patch outputs depend on \
                 primitive.out reads of their own earlier values",
            )
        })?;
        let first = verts.len();
        for row in &out.rows {
            verts.push_row(row);
        }
        patches.push(Patch {
            first,
            count: n_out,
            per_patch: out.per_patch,
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

#[cfg(test)]
mod tests {
    use super::*;
    use glemu_programs::assemble;
    use std::sync::Arc;

    fn control(text: &str) -> StageProgram {
        let p = assemble(text, Some(Stage::TessControl)).unwrap_or_else(|e| panic!("{e:?}"));
        let params = p
            .params
            .iter()
            .map(|s| match s {
                glemu_programs::ir::ParamSource::Constant(c) => *c,
                _ => [0; 4],
            })
            .collect();
        StageProgram::new(Arc::new(p), params)
    }

    fn res() -> Resources {
        Resources {
            textures: Vec::new(),
            counter_buffers: Vec::new(),
            storage_buffers: Vec::new(),
            memory: None,
            images: Vec::new(),
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
    fn self_dependent_per_patch_values_are_not_supported() {
        let e = run_one(
            "!!NVtcp5.0\nVERTICES_OUT 1;\n\
             ADD result.patch.tessouter[0].x, primitive.out.tessouter[0].x, 1.0;\nEND\n",
        )
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
        assert!(e.contains("not supported"), "{e}");
    }

    #[test]
    fn programs_without_primitive_out_reads_run_once() {
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
