//! Geometry programs (NV_geometry_program4, NV_gpu_program5): one lane per (input
//! primitive, invocation); EMIT/EMITS append the lane's current outputs to a vertex
//! stream, ENDPRIM cuts the strip. Lanes are replayed in order (primitive, then
//! invocation) so output order matches running invocations one after another.

use crate::assembly::{assemble, PrimClass, PrimitiveMode, Primitives};
use crate::env::forward_env_to_base;
use crate::env::{Resources, StageEnv};
use crate::error::{PipelineError, MAX_DRAW_ELEMENTS};
use crate::fetch::RESTART;
use crate::scratch;
use crate::state::{StageProgram, VertexProcessing};
use crate::trace::{Invocation, StageTrace};
use crate::vertex_stage::{programs_have_side_effects, thread_value};
use crate::vertices::Vertices;
use glemu_programs::exec::{
    Env, EnvError, Geometry, GeometryHooks, ImageCall, LaneState, MemRegion, TexCall, Vec4,
    MAX_LANES,
};
use glemu_programs::ir::{InputBinding, PrimKind, Stage, ThreadMaskKind, VaryingSlot};
use rayon::prelude::*;
use std::sync::atomic::Ordering;

/// Per-stream output of a geometry stage.
#[derive(Clone, Debug, Default)]
pub struct StreamOut {
    /// The stream's primitives, indexing `GeometryOut::verts`.
    pub prims: Primitives,
    /// `primitive.id` of each output primitive.
    pub ids: Vec<u32>,
}

/// Everything a geometry stage produced.
#[derive(Clone, Debug)]
pub struct GeometryOut {
    /// Every emitted vertex, of all streams.
    pub verts: Vertices,
    /// Primitive class of the output (points, lines or triangles).
    pub class: PrimClass,
    /// Streams 0 to 3 (only stream 0 is rasterized).
    pub streams: [StreamOut; 4],
    /// (input primitive, invocation) of each row, when stages are traced (else empty).
    pub row_src: Vec<(u32, u32)>,
}

/// What a lane did, in order. The k-th `Vertex` of a lane is row k of its `rows`.
enum Event {
    Vertex { stream: u32 },
    Cut,
}

struct GeomEnv<'a> {
    base: StageEnv<'a>,
    layout: &'a [(usize, VaryingSlot)],
    events: Vec<Vec<Event>>,
    /// Per lane: the rows of its emitted vertices, back to back.
    rows: Vec<Vec<[u32; 4]>>,
    emitted: Vec<u32>,
    max_vertices: u32,
}

impl Env for GeomEnv<'_> {
    forward_env_to_base!();
}

impl GeometryHooks for GeomEnv<'_> {
    fn emit(&mut self, stream: u32, lane: usize, state: &LaneState) -> Result<(), EnvError> {
        if stream >= 4 {
            return Err(EnvError(format!(
                "EMITS to stream {stream} (only 0..3 exist)"
            )));
        }
        let (Some(count), Some(events), Some(rows)) = (
            self.emitted.get_mut(lane),
            self.events.get_mut(lane),
            self.rows.get_mut(lane),
        ) else {
            return Ok(());
        };
        // Vertices past VERTICES_OUT are dropped, as the spec allows.
        if *count >= self.max_vertices {
            return Ok(());
        }
        *count += 1;
        rows.extend(self.layout.iter().map(|(o, _)| state.output_lane(*o, lane)));
        events.push(Event::Vertex { stream });
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
    // A passthrough program (NV_geometry_shader_passthrough) outputs its input primitive.
    let out_prim = match (d.passthrough, class) {
        (true, PrimClass::Points) => Some(PrimKind::Points),
        (true, PrimClass::Lines) => Some(PrimKind::Lines),
        (true, PrimClass::Triangles) => Some(PrimKind::Triangles),
        (true, c) => {
            return Err(PipelineError::invalid_op(format!(
                "a passthrough geometry program cannot take {c:?}"
            )))
        }
        (false, _) => d.primitive_out,
    };
    let (out_class, strip_mode) = match out_prim {
        Some(PrimKind::Points) => (PrimClass::Points, PrimitiveMode::Points),
        Some(PrimKind::LineStrip) => (PrimClass::Lines, PrimitiveMode::LineStrip),
        Some(PrimKind::TriangleStrip) => (PrimClass::Triangles, PrimitiveMode::TriangleStrip),
        Some(PrimKind::Lines) => (PrimClass::Lines, PrimitiveMode::Lines),
        Some(PrimKind::Triangles) => (PrimClass::Triangles, PrimitiveMode::Triangles),
        other => {
            return Err(PipelineError::invalid_op(format!(
                "geometry program output primitive {other:?}"
            )))
        }
    };
    let max_vertices = d.vertices_out.unwrap_or(0);
    let invocations = d.invocations.unwrap_or(1).max(1);
    let per = class.vertices();
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
    // Per output slot of a passthrough program: the input slot and the components it
    // copies from each input vertex.
    let passed: Vec<PassedSlot> = layout
        .iter()
        .map(|(_, slot)| {
            d.passthrough_slots
                .iter()
                .find(|(s, _)| s == slot)
                .map(|(s, m)| (input.find(*s), *m))
        })
        .collect();
    let mut out = GeometryOut {
        verts: Vertices::new(layout.iter().map(|(_, v)| *v).collect()),
        class: out_class,
        streams: Default::default(),
        row_src: Vec::new(),
    };
    let prim_id_k = out.verts.find(VaryingSlot::PrimitiveId);
    let shape = ChunkShape {
        gs,
        res,
        input,
        prims,
        ids,
        srcs: &srcs,
        layout: &layout,
        prim_id_k,
        per,
        invocations,
        max_vertices,
        passed: d.passthrough.then_some(&passed[..]),
    };
    let n_chunks = prims.len().div_ceil(GS_CHUNK);
    let parts: Vec<Result<ChunkOut, PipelineError>> = if programs_have_side_effects(prog) {
        // Stores and atomics see the invocations in one order at any thread count.
        (0..n_chunks).map(|c| shape.run(c)).collect()
    } else {
        (0..n_chunks)
            .into_par_iter()
            .with_max_len(1)
            .map(|c| shape.run(c))
            .collect()
    };
    let mut parts: Vec<ChunkOut> = parts.into_iter().collect::<Result<_, _>>()?;
    let rows: usize = parts.iter().map(|p| p.rows.len()).sum();
    if rows as u64 > MAX_DRAW_ELEMENTS {
        return Err(PipelineError::out_of_memory(
            "geometry program output exceeds the per-draw limit",
        ));
    }
    let mut seqs: [Vec<u32>; 4] = Default::default();
    // primitive.id carried by each output vertex.
    let mut vert_ids;
    if let [one] = &mut parts[..] {
        // One chunk (a small draw, or each instance of an instanced one): its buffers are
        // the output as they are (vertices numbered from 0, strips already apart), as the
        // merge below would copy them.
        out.verts.data = std::mem::take(&mut one.rows);
        out.row_src = std::mem::take(&mut one.row_src);
        vert_ids = std::mem::take(&mut one.vert_ids);
        seqs = std::mem::take(&mut one.seqs);
        parts.clear();
    } else {
        // Sized once: growing them chunk by chunk reallocated and page-faulted the draw's
        // whole output several times over.
        out.verts.data = scratch::VEC4S.with_capacity(rows);
        for (s, all) in seqs.iter_mut().enumerate() {
            let n = parts.iter().map(|p| p.seqs[s].len() + 1).sum();
            if n > 1 {
                *all = scratch::WORDS.take(n);
            }
            all.reserve_exact(n);
        }
        vert_ids = scratch::WORDS.with_capacity(parts.iter().map(|p| p.vert_ids.len()).sum());
    }
    for part in parts {
        let base = out.verts.len() as u32;
        out.verts.data.extend_from_slice(&part.rows);
        out.row_src.extend_from_slice(&part.row_src);
        vert_ids.extend_from_slice(&part.vert_ids);
        // A chunk starts new strips, as every lane does.
        for (all, mine) in seqs.iter_mut().zip(&part.seqs) {
            if mine.is_empty() {
                continue;
            }
            if all.last().is_some_and(|v| *v != RESTART) {
                all.push(RESTART);
            }
            all.extend(
                mine.iter()
                    .map(|&v| if v == RESTART { RESTART } else { v + base }),
            );
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
    for seq in seqs {
        scratch::WORDS.give(seq);
    }
    scratch::WORDS.give(vert_ids);
    Ok(out)
}

/// Input primitives per task: a multiple of the lane count, so batches (and the lane
/// numbers programs can read) are the same at any thread count.
/// (The chunk size does not change the output: every lane starts new strips, so chunk
/// boundaries add no break of their own; 32 batches amortise a chunk's lane state and
/// buffers.)
const GS_CHUNK: usize = 32 * MAX_LANES;

/// What one chunk of input primitives produced: vertex rows, per-stream strips (as
/// indices into the rows, [`RESTART`] between strips) and each vertex's primitive id.
struct ChunkOut {
    rows: Vec<[u32; 4]>,
    seqs: [Vec<u32>; 4],
    vert_ids: Vec<u32>,
    /// (input primitive, invocation) of each row, when stages are traced.
    row_src: Vec<(u32, u32)>,
}

/// Where each input slot's value comes from.
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

/// Everything a chunk needs to run the geometry program.
struct ChunkShape<'a> {
    gs: &'a StageProgram,
    res: &'a Resources,
    input: &'a Vertices,
    prims: &'a Primitives,
    ids: &'a [u32],
    srcs: &'a [Src],
    layout: &'a [(usize, VaryingSlot)],
    prim_id_k: Option<usize>,
    per: usize,
    invocations: u32,
    max_vertices: u32,
    /// A passthrough program's (NV_geometry_shader_passthrough) per layout slot: the
    /// input slot and components copied from each input vertex. `None` otherwise.
    passed: Option<&'a [PassedSlot]>,
}

/// Where a passthrough program's output slot comes from: the input slot (if the input
/// has it) and the components copied from it; `None` for slots the program writes.
type PassedSlot = Option<(Option<usize>, u8)>;

impl ChunkShape<'_> {
    /// Runs the program on chunk `c` of the input primitives, (primitive, invocation)
    /// lanes in order.
    fn run(&self, c: usize) -> Result<ChunkOut, PipelineError> {
        let (gs, input, per) = (self.gs, self.input, self.per);
        let lo = c * GS_CHUNK;
        let hi = (lo + GS_CHUNK).min(self.prims.len());
        let jobs: Vec<(usize, u32)> = (lo..hi)
            .flat_map(|p| (0..self.invocations).map(move |i| (p, i)))
            .collect();
        let mut ls = LaneState::with_vertices(&gs.program, MAX_LANES, per);
        let mut env = GeomEnv {
            base: StageEnv {
                res: self.res,
                stage: Stage::Geometry,
                param_buffers: &gs.param_buffers,
                subroutines: &gs.subroutines,
            },
            layout: self.layout,
            events: (0..MAX_LANES).map(|_| Vec::new()).collect(),
            rows: (0..MAX_LANES).map(|_| Vec::new()).collect(),
            emitted: vec![0; MAX_LANES],
            max_vertices: self.max_vertices,
        };
        let n = self.layout.len();
        let mut out = ChunkOut {
            rows: Vec::new(),
            seqs: Default::default(),
            vert_ids: Vec::new(),
            row_src: Vec::new(),
        };
        let tracer = self.res.stage_trace.as_deref();
        let instance = tracer.map_or(0, |t| t.instance.load(Ordering::Relaxed));
        for batch in jobs.chunks(MAX_LANES) {
            env.base.res.check_deadline()?;
            for (lane, (p, inv)) in batch.iter().enumerate() {
                let pv = self.prims.verts.get(p * per..(p + 1) * per).unwrap_or(&[]);
                let id = self.ids.get(*p).copied().unwrap_or(*p as u32);
                for (slot, src) in self.srcs.iter().enumerate() {
                    for (v, vid) in pv.iter().enumerate() {
                        let val = match src {
                            Src::Vary(k) => {
                                k.map(|k| input.get(*vid as usize, k)).unwrap_or([0; 4])
                            }
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
            for r in env.rows.iter_mut() {
                r.clear();
            }
            env.emitted.iter_mut().for_each(|c| *c = 0);
            let at = |lane: usize| {
                let (p, inv) = batch.get(lane).copied().unwrap_or_default();
                let (primitive, invocation) = (p as u32, inv);
                (
                    instance,
                    Invocation::Geometry {
                        primitive,
                        invocation,
                    },
                )
            };
            StageTrace::run(
                tracer,
                Stage::Geometry,
                gs,
                &mut ls,
                batch.len(),
                &mut Geometry(&mut env),
                at,
            )
            .map_err(|e| PipelineError::program(Stage::Geometry, e))?;
            for (lane, (p, inv)) in batch.iter().enumerate() {
                let src = (*p as u32, *inv);
                let id = self.ids.get(*p).copied().unwrap_or(*p as u32);
                if let Some(passed) = self.passed {
                    // The input primitive's vertices: passed-through components from each
                    // input vertex, everything the program wrote broadcast to all of them.
                    let pv = self.prims.verts.get(p * per..(p + 1) * per).unwrap_or(&[]);
                    for vid in pv {
                        let v = out.rows.len().checked_div(n).unwrap_or(0) as u32;
                        for ((o, _), pass) in self.layout.iter().zip(passed) {
                            let mut val = ls.output_lane(*o, lane);
                            if let Some((k, mask)) = pass {
                                let from = k.map_or([0; 4], |k| input.get(*vid as usize, k));
                                for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                                    val[c] = from[c];
                                }
                            }
                            out.rows.push(val);
                        }
                        if tracer.is_some() {
                            out.row_src.push(src);
                        }
                        out.seqs[0].push(v);
                        out.vert_ids.push(id);
                    }
                    continue;
                }
                let (Some(events), Some(rows)) = (env.events.get(lane), env.rows.get(lane)) else {
                    continue;
                };
                // Each lane's output starts a new strip on every stream.
                for s in out.seqs.iter_mut() {
                    if s.last().is_some_and(|v| *v != RESTART) {
                        s.push(RESTART);
                    }
                }
                let mut k = 0;
                for ev in events {
                    match ev {
                        Event::Vertex { stream } => {
                            let row = rows.get(k * n..(k + 1) * n).unwrap_or(&[]);
                            k += 1;
                            if (out.rows.len() + n) as u64 > MAX_DRAW_ELEMENTS {
                                return Err(PipelineError::out_of_memory(
                                    "geometry program output exceeds the per-draw limit",
                                ));
                            }
                            let v = out.rows.len().checked_div(n).unwrap_or(0) as u32;
                            out.rows.extend_from_slice(row);
                            if tracer.is_some() {
                                out.row_src.push(src);
                            }
                            if let Some(seq) = out.seqs.get_mut(*stream as usize) {
                                seq.push(v);
                            }
                            let pid = self.prim_id_k.and_then(|k| row.get(k).map(|r| r[0]));
                            out.vert_ids.push(pid.unwrap_or(id));
                        }
                        Event::Cut => {
                            if out.seqs[0].last().is_some_and(|v| *v != RESTART) {
                                out.seqs[0].push(RESTART);
                            }
                        }
                    }
                }
            }
        }
        Ok(out)
    }
}
