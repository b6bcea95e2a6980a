//! Geometry programs (NV_geometry_program4, NV_gpu_program5): one lane per (input
//! primitive, invocation); EMIT/EMITS append the lane's current outputs to a vertex
//! stream, ENDPRIM cuts the strip. Lanes are replayed in order (primitive, then
//! invocation) so output order matches running invocations one after another.

use crate::assembly::{assemble, PrimClass, PrimitiveMode, Primitives};
use crate::env::forward_env_to_base;
use crate::env::{Resources, StageEnv};
use crate::error::{PipelineError, MAX_DRAW_ELEMENTS};
use crate::fetch::RESTART;
use crate::state::{StageProgram, VertexProcessing};
use crate::vertex_stage::thread_value;
use crate::vertices::Vertices;
use glemu_programs::exec::{
    lanes_mask, Env, EnvError, ImageCall, LaneState, MemRegion, TexCall, Vec4, MAX_LANES,
};
use glemu_programs::ir::{InputBinding, PrimKind, Stage, ThreadMaskKind, VaryingSlot};

/// Per-stream output of a geometry stage.
#[derive(Clone, Debug, Default)]
pub struct StreamOut {
    pub prims: Primitives,
    /// `primitive.id` of each output primitive.
    pub ids: Vec<u32>,
}

/// Everything a geometry stage produced.
#[derive(Clone, Debug)]
pub struct GeometryOut {
    pub verts: Vertices,
    pub class: PrimClass,
    pub streams: [StreamOut; 4],
}

enum Event {
    Vertex { stream: u32, row: Vec<[u32; 4]> },
    Cut,
}

struct GeomEnv<'a> {
    base: StageEnv<'a>,
    layout: &'a [(usize, VaryingSlot)],
    events: Vec<Vec<Event>>,
    emitted: Vec<u32>,
    max_vertices: u32,
}

impl Env for GeomEnv<'_> {
    forward_env_to_base!();

    fn emit(&mut self, stream: u32, lane: usize, state: &LaneState) -> Result<(), EnvError> {
        if stream >= 4 {
            return Err(EnvError(format!(
                "EMITS to stream {stream} (only 0..3 exist)"
            )));
        }
        let (Some(count), Some(events)) = (self.emitted.get_mut(lane), self.events.get_mut(lane))
        else {
            return Ok(());
        };
        // Vertices past VERTICES_OUT are dropped, as the spec allows.
        if *count >= self.max_vertices {
            return Ok(());
        }
        *count += 1;
        let row = self
            .layout
            .iter()
            .map(|(o, _)| state.output_lane(*o, lane))
            .collect();
        events.push(Event::Vertex { stream, row });
        Ok(())
    }

    fn end_primitive(&mut self, lane: usize) -> Result<(), EnvError> {
        if let Some(e) = self.events.get_mut(lane) {
            e.push(Event::Cut);
        }
        Ok(())
    }
}

fn matches_input(kind: PrimKind, class: PrimClass) -> bool {
    matches!(
        (kind, class),
        (PrimKind::Points, PrimClass::Points)
            | (PrimKind::Lines, PrimClass::Lines)
            | (PrimKind::LinesAdjacency, PrimClass::LinesAdjacency)
            | (PrimKind::Triangles, PrimClass::Triangles)
            | (PrimKind::TrianglesAdjacency, PrimClass::TrianglesAdjacency)
    ) || matches!((kind, class), (PrimKind::Patches(a), PrimClass::Patches(b)) if a == b || a == 0)
}

/// Runs the geometry program over `prims` (of `class`) whose vertices are in `input`.
pub fn run(
    gs: &StageProgram,
    res: &Resources,
    input: &Vertices,
    class: PrimClass,
    prims: &Primitives,
    ids: &[u32],
    vertex: &VertexProcessing,
) -> Result<GeometryOut, PipelineError> {
    let provoking_last = vertex.provoking_last;
    let prog = &gs.program;
    if prog.stage != Stage::Geometry {
        return Err(PipelineError::invalid_op(
            "the geometry stage's program is not a geometry program",
        ));
    }
    let d = &prog.decls;
    let kind_in = d
        .primitive_in
        .ok_or_else(|| PipelineError::invalid_op("geometry program without PRIMITIVE_IN"))?;
    if !matches_input(kind_in, class) {
        return Err(PipelineError::invalid_op(format!(
            "geometry program expects {kind_in:?} but the draw provides {class:?}"
        )));
    }
    let (out_class, strip_mode) = match d.primitive_out {
        Some(PrimKind::Points) => (PrimClass::Points, PrimitiveMode::Points),
        Some(PrimKind::LineStrip) => (PrimClass::Lines, PrimitiveMode::LineStrip),
        Some(PrimKind::TriangleStrip) => (PrimClass::Triangles, PrimitiveMode::TriangleStrip),
        other => {
            return Err(PipelineError::invalid_op(format!(
                "geometry program output primitive {other:?}"
            )))
        }
    };
    let max_vertices = d.vertices_out.unwrap_or(0);
    let invocations = d.invocations.unwrap_or(1).max(1);
    let per = class.vertices();
    // Where each input slot's value comes from.
    enum Src {
        Vary(Option<usize>),
        Id,
        Invocation,
        VertexCount,
        Thread(Option<ThreadMaskKind>),
        /// The same value for every primitive: per-patch values of input patches
        /// (PRIMITIVE_IN PATCHES), warp and SM ids (one warp on one SM).
        Value([u32; 4]),
    }
    // Patches reach a geometry program straight from the vertex stage: their levels
    // are the default ones and other per-patch attributes are undefined (zero), as
    // NV_tessellation_program5 says for patches without a control program.
    let patch_value = |s: VaryingSlot| {
        match s {
            VaryingSlot::TessOuter(i) => vertex.tess.default_outer.get(i as usize).copied(),
            VaryingSlot::TessInner(i) => vertex.tess.default_inner.get(i as usize).copied(),
            _ => None,
        }
        .map_or([0; 4], |l| [l.to_bits(), 0, 0, 0])
    };
    let srcs: Vec<Src> = prog
        .inputs
        .iter()
        .map(|i| match &i.binding {
            InputBinding::Varying(s) => Ok(Src::Vary(input.find(*s))),
            InputBinding::PrimitiveId => Ok(Src::Id),
            InputBinding::PrimitiveInvocation => Ok(Src::Invocation),
            InputBinding::PrimitiveVertexCount => Ok(Src::VertexCount),
            InputBinding::ThreadId => Ok(Src::Thread(None)),
            InputBinding::ThreadMask(k) => Ok(Src::Thread(Some(*k))),
            InputBinding::PatchIn(s) => Ok(Src::Value(patch_value(*s))),
            InputBinding::WarpId | InputBinding::SmId => Ok(Src::Value([0; 4])),
            b => Err(PipelineError::not_supported(format!(
                "geometry program input {b:?}"
            ))),
        })
        .collect::<Result<_, _>>()?;
    let layout = Vertices::layout_of(prog);
    let mut out = GeometryOut {
        verts: Vertices::new(layout.iter().map(|(_, v)| *v).collect()),
        class: out_class,
        streams: Default::default(),
    };
    let prim_id_k = out.verts.find(VaryingSlot::PrimitiveId);
    let jobs: Vec<(usize, u32)> = (0..prims.len())
        .flat_map(|p| (0..invocations).map(move |i| (p, i)))
        .collect();
    let mut ls = LaneState::with_vertices(prog, MAX_LANES, per);
    let mut env = GeomEnv {
        base: StageEnv {
            res,
            stage: Stage::Geometry,
            param_buffers: &gs.param_buffers,
            subroutines: &gs.subroutines,
        },
        layout: &layout,
        events: (0..MAX_LANES).map(|_| Vec::new()).collect(),
        emitted: vec![0; MAX_LANES],
        max_vertices,
    };
    let mut seqs: [Vec<u32>; 4] = Default::default();
    // primitive.id carried by each output vertex.
    let mut vert_ids: Vec<u32> = Vec::new();
    for batch in jobs.chunks(MAX_LANES) {
        for (lane, (p, inv)) in batch.iter().enumerate() {
            let pv = prims.verts.get(p * per..(p + 1) * per).unwrap_or(&[]);
            let id = ids.get(*p).copied().unwrap_or(*p as u32);
            for (slot, src) in srcs.iter().enumerate() {
                for (v, vid) in pv.iter().enumerate() {
                    let val = match src {
                        Src::Vary(k) => k.map(|k| input.get(*vid as usize, k)).unwrap_or([0; 4]),
                        Src::Id => [id, 0, 0, 0],
                        Src::Invocation => [*inv, 0, 0, 0],
                        Src::VertexCount => [per as u32, 0, 0, 0],
                        Src::Thread(k) => [thread_value(*k, lane as u32), 0, 0, 0],
                        Src::Value(v) => *v,
                    };
                    if let Some(r) = ls.input_vertex_mut(v, slot) {
                        for c in 0..4 {
                            r[c][lane] = val[c];
                        }
                    }
                }
            }
        }
        for e in env.events.iter_mut() {
            e.clear();
        }
        env.emitted.iter_mut().for_each(|c| *c = 0);
        gs.executor
            .run(&mut ls, lanes_mask(batch.len()), &gs.params, &mut env)
            .map_err(|e| PipelineError::execution(format!("geometry program: {e}")))?;
        for (lane, (p, _)) in batch.iter().enumerate() {
            let id = ids.get(*p).copied().unwrap_or(*p as u32);
            let events = env
                .events
                .get_mut(lane)
                .map(std::mem::take)
                .unwrap_or_default();
            // Each lane's output starts a new strip on every stream.
            for s in seqs.iter_mut() {
                if s.last().is_some_and(|v| *v != RESTART) {
                    s.push(RESTART);
                }
            }
            for ev in events {
                match ev {
                    Event::Vertex { stream, row } => {
                        if out.verts.data.len() as u64 > MAX_DRAW_ELEMENTS {
                            return Err(PipelineError::out_of_memory(
                                "geometry program output exceeds the per-draw limit",
                            ));
                        }
                        let v = out.verts.push_row(&row);
                        let s = stream as usize;
                        if let Some(seq) = seqs.get_mut(s) {
                            seq.push(v);
                        }
                        let pid = prim_id_k.and_then(|k| row.get(k).map(|r| r[0]));
                        vert_ids.push(pid.unwrap_or(id));
                    }
                    Event::Cut => {
                        if seqs[0].last().is_some_and(|v| *v != RESTART) {
                            seqs[0].push(RESTART);
                        }
                    }
                }
            }
        }
    }
    for s in 0..4 {
        let (_, p) = assemble(strip_mode, &seqs[s], 0, provoking_last)?;
        // primitive.id of an output primitive: from its provoking vertex.
        let per_out = out_class.vertices();
        let idv: Vec<u32> = p
            .verts
            .chunks_exact(per_out)
            .enumerate()
            .map(|(i, chunk)| {
                let pv = chunk
                    .get(p.provoking.get(i).copied().unwrap_or(0) as usize)
                    .copied()
                    .unwrap_or(0);
                vert_ids.get(pv as usize).copied().unwrap_or(0)
            })
            .collect();
        out.streams[s] = StreamOut { prims: p, ids: idv };
    }
    Ok(out)
}
