//! Vertex fetch + the vertex program, run in batches of [`MAX_LANES`] lanes, with a
//! post-transform cache: each distinct (vertex id, instance) of a draw runs once.

use crate::env::{Resources, StageEnv};
use crate::error::{check_alloc, PipelineError};
use crate::fetch::{
    element_index, fetch_array, read_indices, AttribBinding, AttribConversion, AttribSlot, RESTART,
};
use crate::state::{DrawState, StageProgram};
use crate::trace::{Invocation, StageTrace};
use crate::vertices::Vertices;
use glemu_programs::exec::{LaneState, Vec4, MAX_LANES};
use glemu_programs::ir::{Dialect, InputBinding, Program, Stage, ThreadMaskKind, VaryingSlot};
use rayon::prelude::*;

use crate::scratch;
use std::collections::HashMap;

/// Where one vertex program input comes from.
#[derive(Clone, Debug)]
enum Source<'a> {
    Array(&'a AttribBinding),
    Value([u32; 4]),
    VertexId,
    InstanceId,
    /// NV_shader_thread_group: lane number / lane masks within the batch.
    Thread(Option<ThreadMaskKind>),
}

/// `thread id` or a lane mask (NV_shader_thread_group) for lane `lane` of a batch.
pub fn thread_value(kind: Option<ThreadMaskKind>, lane: u32) -> u32 {
    let bit = 1u32.checked_shl(lane).unwrap_or(0);
    match kind {
        None => lane,
        Some(ThreadMaskKind::Eq) => bit,
        Some(ThreadMaskKind::Ge) => !(bit.wrapping_sub(1)),
        Some(ThreadMaskKind::Gt) => !(bit.wrapping_sub(1)) & !bit,
        Some(ThreadMaskKind::Le) => bit.wrapping_sub(1) | bit,
        Some(ThreadMaskKind::Lt) => bit.wrapping_sub(1),
    }
}

fn slot_for(binding: &InputBinding) -> Option<AttribSlot> {
    Some(match binding {
        InputBinding::VertexAttrib(n) => AttribSlot::Generic(*n),
        InputBinding::VertexPosition => AttribSlot::Position,
        InputBinding::VertexWeight(0) => AttribSlot::Weight,
        InputBinding::VertexNormal => AttribSlot::Normal,
        InputBinding::VertexColor { secondary: false } => AttribSlot::Color,
        InputBinding::VertexColor { secondary: true } => AttribSlot::SecondaryColor,
        InputBinding::VertexFogCoord => AttribSlot::FogCoord,
        InputBinding::VertexTexCoord(n) => AttribSlot::TexCoord(*n),
        _ => return None,
    })
}

/// Resolves an input, applying attribute aliasing: generic attribute 0 is always the
/// position; NV_vertex_program dialects alias every conventional array (table X.2).
fn resolve<'a>(
    binding: &InputBinding,
    state: &'a DrawState,
    dialect: Dialect,
) -> Result<Source<'a>, PipelineError> {
    let attribs = &state.attribs;
    match binding {
        InputBinding::VertexId => return Ok(Source::VertexId),
        InputBinding::VertexInstance => return Ok(Source::InstanceId),
        InputBinding::VertexBaseVertex => {
            let base = if state.call.indices.is_some() {
                state.call.base_vertex as u32
            } else {
                0
            };
            return Ok(Source::Value([base, 0, 0, 0]));
        }
        InputBinding::VertexBaseInstance => {
            return Ok(Source::Value([state.call.base_instance, 0, 0, 0]))
        }
        InputBinding::VertexDrawId => return Ok(Source::Value([state.call.draw_id, 0, 0, 0])),
        InputBinding::ThreadId => return Ok(Source::Thread(None)),
        InputBinding::ThreadMask(k) => return Ok(Source::Thread(Some(*k))),
        // One SM running one warp at a time (see the ir docs).
        InputBinding::WarpId | InputBinding::SmId => return Ok(Source::Value([0; 4])),
        _ => {}
    }
    let Some(slot) = slot_for(binding) else {
        return match binding {
            // Unused fixed-function inputs read as their initial current value.
            InputBinding::VertexWeight(_) | InputBinding::VertexMatrixIndex(_) => {
                Ok(Source::Value([0, 0, 0, 1.0f32.to_bits()]))
            }
            b => Err(PipelineError::not_supported(format!(
                "vertex program input {b:?}"
            ))),
        };
    };
    let nv = matches!(dialect, Dialect::Vp10 | Dialect::Vp11 | Dialect::Vp20);
    let alias = match slot {
        AttribSlot::Generic(0) | AttribSlot::Position => slot.nv_alias(),
        _ if nv => slot.nv_alias(),
        _ => None,
    };
    let find = |s: AttribSlot| attribs.iter().find(|a| a.slot == s);
    let with_array = |s: Option<AttribSlot>| s.and_then(find).filter(|a| a.array.is_some());
    if let Some(a) = with_array(Some(slot)).or_else(|| with_array(alias)) {
        return Ok(Source::Array(a));
    }
    if let Some(a) = find(slot).or_else(|| alias.and_then(find)) {
        return Ok(Source::Value(a.current));
    }
    Ok(Source::Value(slot.default_value()))
}

/// The vertex stage's result: shaded vertices of all instances and, per instance, the
/// draw's vertex sequence as indices into them ([`RESTART`] kept).
#[derive(Debug, Default)]
pub struct VertexStageOut {
    /// Every distinct vertex shaded, of all instances.
    pub vertices: Vertices,
    /// Per instance, the draw's vertex sequence as indices into `vertices`.
    pub sequences: Vec<Vec<u32>>,
    /// Vertex program invocations run (distinct vertices, not submitted ones).
    pub invocations: u64,
}

/// Whether the vertex stage clamps its colour outputs (GL_CLAMP_VERTEX_COLOR with no
/// later stage, which would clamp its own outputs instead): while it writes them, on
/// every worker, rather than in a pass of its own over all the draw's vertices after it.
pub(crate) fn clamps_colours(state: &DrawState) -> bool {
    let p = &state.programs;
    state.vertex.clamp_vertex_color && p.tess_eval.is_none() && p.geometry.is_none()
}

/// The draw's vertex ids (indices + base vertex, or first..first+count).
pub fn vertex_ids(state: &DrawState) -> Result<Vec<u32>, PipelineError> {
    let call = &state.call;
    match &call.indices {
        Some(ib) => {
            let mut ids = read_indices(ib, call.count, call.primitive_restart)?;
            if call.base_vertex != 0 {
                let base = i64::from(call.base_vertex);
                ids.par_iter_mut()
                    .with_min_len(1 << 14)
                    .filter(|v| **v != RESTART)
                    .for_each(|v| *v = (i64::from(*v) + base) as u32);
            }
            Ok(ids)
        }
        None => {
            check_alloc(u64::from(call.count), "vertex count")?;
            Ok((0..call.count)
                .map(|i| call.first.wrapping_add(i))
                .collect())
        }
    }
}

/// Appends the values of `src` for the (vertex id, instance) pairs of `batch`.
fn fetch_source(
    src: &Source<'_>,
    batch: &[(u32, u32)],
    state: &DrawState,
    out: &mut Vec<[u32; 4]>,
) {
    match src {
        Source::Array(a) => match &a.array {
            Some(arr) => {
                let elems = batch
                    .iter()
                    .map(|(v, i)| element_index(arr, *v, *i, state.call.base_instance));
                fetch_array(arr, elems, out);
            }
            None => out.extend(batch.iter().map(|_| a.current)),
        },
        Source::Value(v) => out.extend(batch.iter().map(|_| *v)),
        Source::VertexId => out.extend(batch.iter().map(|(v, _)| [*v; 4])),
        Source::InstanceId => out.extend(batch.iter().map(|(_, i)| [*i; 4])),
        Source::Thread(k) => {
            out.extend((0..batch.len() as u32).map(|l| [thread_value(*k, l), 0, 0, 0]))
        }
    }
}

/// Fetches and shades every vertex the draw references.
pub fn run(
    state: &DrawState,
    vs: &StageProgram,
    res: &Resources,
) -> Result<VertexStageOut, PipelineError> {
    let prog: &Program = &vs.program;
    if prog.stage != Stage::Vertex {
        return Err(PipelineError::invalid_op(
            "the vertex stage's program is not a vertex program",
        ));
    }
    let mut ids = vertex_ids(state)?;
    let instances = state.call.instances;
    check_alloc(
        ids.len() as u64 * u64::from(instances),
        "vertices x instances",
    )?;
    let sources: Vec<Source<'_>> = prog
        .inputs
        .iter()
        .map(|i| resolve(&i.binding, state, prog.dialect))
        .collect::<Result<_, _>>()?;
    for s in &sources {
        if let Source::Array(a) = s {
            if let Some(arr) = &a.array {
                arr.format.validate()?;
            }
        }
    }
    let layout = Vertices::layout_of(prog);
    let mut slots: Vec<VaryingSlot> = layout.iter().map(|(_, v)| *v).collect();
    // ARB_position_invariant: the position is the fixed-function transform of
    // vertex.position, computed here exactly as DP4 with the MVP rows would.
    let invariant_pos =
        if prog.options.position_invariant && !slots.contains(&VaryingSlot::Position) {
            let src = resolve(&InputBinding::VertexPosition, state, prog.dialect)?;
            slots.push(VaryingSlot::Position);
            Some(src)
        } else {
            None
        };
    let mut out = VertexStageOut {
        vertices: Vertices::new(slots),
        ..Default::default()
    };
    // (vertex id, instance) of each vertex to shade, in first-use order.
    let mut jobs: Vec<(u32, u32)> = scratch::JOBS.take(0);
    let indexed = state.call.indices.is_some();
    // The post-transform cache is a direct table when the ids span a compact range
    // (the common case), a hash map otherwise.
    let (lo, hi) = ids
        .par_iter()
        .with_min_len(1 << 14)
        .filter(|v| **v != RESTART || !indexed)
        .fold(|| (u32::MAX, 0u32), |(lo, hi), v| (lo.min(*v), hi.max(*v)))
        .reduce(|| (u32::MAX, 0u32), |(a, b), (c, d)| (a.min(c), b.max(d)));
    let span = u64::from(hi.saturating_sub(lo)) + 1;
    let use_table = lo <= hi && span <= (ids.len() as u64 * 4).max(1024);
    let mut table: Vec<u32> = if use_table {
        scratch::WORDS.take(span as usize)
    } else {
        Vec::new()
    };
    let mut map: HashMap<u32, u32> = HashMap::new();
    if use_table {
        jobs.reserve(span.min(ids.len() as u64) as usize);
    }
    for inst in 0..instances {
        if use_table {
            table.clear();
            table.resize(span as usize, u32::MAX);
        } else {
            map.clear();
        }
        // Each id becomes its cache slot in place; the last instance takes the id list
        // itself rather than a copy.
        let mut seq = if inst + 1 == instances {
            std::mem::take(&mut ids)
        } else {
            ids.clone()
        };
        let mut n = 0;
        for k in 0..seq.len() {
            let v = seq[k];
            let item = if v == RESTART && indexed {
                RESTART
            } else {
                let slot = if use_table {
                    table.get_mut((v - lo) as usize)
                } else {
                    Some(map.entry(v).or_insert(u32::MAX))
                };
                let Some(slot) = slot else {
                    continue;
                };
                if *slot == u32::MAX {
                    jobs.push((v, inst));
                    *slot = (jobs.len() - 1) as u32;
                }
                *slot
            };
            seq[n] = item;
            n += 1;
        }
        seq.truncate(n);
        out.sequences.push(seq);
    }
    let row = layout.len() + usize::from(invariant_pos.is_some());
    scratch::WORDS.give(table);
    out.vertices.data = scratch::VEC4S.filled(jobs.len() * row, [0; 4]);
    let clamped = match clamps_colours(state) {
        true => crate::vertices::colour_slots(&out.vertices.slots),
        false => Vec::new(),
    };
    let shade = |data: &mut [[u32; 4]], jobs: &[(u32, u32)]| {
        shade_chunk(
            state,
            vs,
            res,
            &sources,
            invariant_pos.as_ref(),
            (&layout, &clamped),
            jobs,
            data,
        )
    };
    let chunks = out
        .vertices
        .data
        .chunks_mut(SHADE_CHUNK * row.max(1))
        .zip(jobs.chunks(SHADE_CHUNK));
    if programs_have_side_effects(prog) {
        // Stores and atomics see the invocations in one order at any thread count.
        for (data, jobs) in chunks {
            shade(data, jobs)?;
        }
    } else {
        let results: Vec<Result<(), PipelineError>> = chunks
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|(data, jobs)| shade(data, jobs))
            .collect();
        for r in results {
            r?;
        }
    }
    out.invocations = jobs.len() as u64;
    scratch::JOBS.give(jobs);
    Ok(out)
}

/// Vertices per parallel task: a multiple of [`MAX_LANES`], so batches (and the lane
/// numbers programs can read) are the same at any thread count.
const SHADE_CHUNK: usize = 64 * MAX_LANES;

/// Whether a program writes memory, images or counters (its invocations must then run
/// in one order).
pub fn programs_have_side_effects(prog: &Program) -> bool {
    use glemu_programs::ir::Opcode;
    prog.instructions.iter().any(|i| {
        matches!(
            i.op,
            Opcode::Store | Opcode::Atom | Opcode::Atomctr | Opcode::Storeim | Opcode::Atomim
        )
    })
}

/// Fetches and shades `jobs` (at most [`SHADE_CHUNK`]), writing their rows into `data`;
/// the `layout` entries at the indices in `clamped` are clamped as colours.
#[allow(clippy::too_many_arguments)]
fn shade_chunk(
    state: &DrawState,
    vs: &StageProgram,
    res: &Resources,
    sources: &[Source<'_>],
    invariant_pos: Option<&Source<'_>>,
    (layout, clamped): (&[(usize, VaryingSlot)], &[usize]),
    jobs: &[(u32, u32)],
    data: &mut [[u32; 4]],
) -> Result<(), PipelineError> {
    res.check_deadline()?;
    let prog: &Program = &vs.program;
    let row = layout.len() + usize::from(invariant_pos.is_some());
    let mut env = StageEnv {
        res,
        stage: Stage::Vertex,
        param_buffers: &vs.param_buffers,
        subroutines: &vs.subroutines,
    };
    let mut ls = vs.executor.new_state(MAX_LANES);
    // Each attribute of the whole chunk is read under one lock of its buffer.
    let mut fetched: Vec<Vec<[u32; 4]>> = Vec::with_capacity(sources.len());
    for src in sources {
        let mut v = Vec::with_capacity(jobs.len());
        fetch_source(src, jobs, state, &mut v);
        fetched.push(v);
    }
    let mut positions = Vec::new();
    if let Some(src) = invariant_pos {
        fetch_source(src, jobs, state, &mut positions);
    }
    for (b, (batch, rows)) in jobs
        .chunks(MAX_LANES)
        .zip(data.chunks_mut(MAX_LANES * row.max(1)))
        .enumerate()
    {
        let lanes = b * MAX_LANES..b * MAX_LANES + batch.len();
        for (slot, src) in sources.iter().enumerate() {
            let Some(vals) = fetched.get(slot).and_then(|f| f.get(lanes.clone())) else {
                continue;
            };
            let long = prog.inputs.get(slot).is_some_and(|i| i.info.long);
            let split = long
                && matches!(src, Source::Array(AttribBinding { array: Some(arr), .. })
                    if arr.format.conversion == AttribConversion::Long);
            if let Source::Thread(k) = src {
                // Lane numbers restart with every batch.
                if let Some(r) = ls.input_mut(slot) {
                    for lane in 0..batch.len() {
                        r[0][lane] = thread_value(*k, lane as u32);
                        r[1][lane] = 0;
                        r[2][lane] = 0;
                        r[3][lane] = 0;
                    }
                }
                continue;
            }
            if split {
                if let Some(hi) = ls.input_hi_mut(0, slot) {
                    for (lane, v) in vals.iter().enumerate() {
                        hi[0][lane] = v[1];
                        hi[1][lane] = v[3];
                    }
                }
                if let Some(r) = ls.input_mut(slot) {
                    for (lane, v) in vals.iter().enumerate() {
                        r[0][lane] = v[0];
                        r[1][lane] = v[2];
                        r[2][lane] = 0;
                        r[3][lane] = 0;
                    }
                }
            } else if let Some(r) = ls.input_mut(slot) {
                transpose_in(vals, r);
            }
        }
        run_batch(vs, &mut ls, batch, &mut env)?;
        for (k, (o, _)) in layout.iter().enumerate() {
            if let Some(r) = ls.output(*o) {
                for (lane, dst) in rows.chunks_mut(row).enumerate() {
                    if let Some(d) = dst.get_mut(k) {
                        *d = [r[0][lane], r[1][lane], r[2][lane], r[3][lane]];
                    }
                }
            }
            if clamped.contains(&k) {
                for dst in rows.chunks_mut(row) {
                    if let Some(d) = dst.get_mut(k) {
                        *d = d.map(crate::vertices::clamp_colour);
                    }
                }
            }
        }
        if invariant_pos.is_some() {
            let m = &state.vertex.mvp;
            for (lane, dst) in rows.chunks_mut(row).enumerate() {
                let p = positions
                    .get(b * MAX_LANES + lane)
                    .copied()
                    .unwrap_or([0; 4])
                    .map(f32::from_bits);
                let dp4 = |r: &[f32; 4]| {
                    (p[0] * r[0] + p[1] * r[1] + p[2] * r[2] + p[3] * r[3]).to_bits()
                };
                if let Some(d) = dst.last_mut() {
                    *d = [dp4(&m[0]), dp4(&m[1]), dp4(&m[2]), dp4(&m[3])];
                }
            }
        }
    }
    Ok(())
}

/// AoS values of a batch's lanes into an SoA register.
#[inline]
fn transpose_in(vals: &[[u32; 4]], r: &mut Vec4) {
    for (lane, v) in vals.iter().enumerate().take(MAX_LANES) {
        for c in 0..4 {
            r[c][lane] = v[c];
        }
    }
}

/// The one place the vertex program runs: a lane of `ls` per (vertex id, instance) of
/// `batch`.
fn run_batch(
    vs: &StageProgram,
    ls: &mut LaneState,
    batch: &[(u32, u32)],
    env: &mut StageEnv<'_>,
) -> Result<(), PipelineError> {
    let at = |lane: usize| {
        let (id, instance) = batch.get(lane).copied().unwrap_or_default();
        (instance, Invocation::Vertex { id })
    };
    let tracer = env.res.stage_trace.as_deref();
    StageTrace::run(tracer, Stage::Vertex, vs, ls, batch.len(), env, at)
        .map(|_| ())
        .map_err(|e| PipelineError::program(Stage::Vertex, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_masks() {
        assert_eq!(thread_value(None, 5), 5);
        assert_eq!(thread_value(Some(ThreadMaskKind::Eq), 3), 0b1000);
        assert_eq!(thread_value(Some(ThreadMaskKind::Lt), 3), 0b0111);
        assert_eq!(thread_value(Some(ThreadMaskKind::Le), 3), 0b1111);
        assert_eq!(thread_value(Some(ThreadMaskKind::Gt), 3), !0b1111);
        assert_eq!(thread_value(Some(ThreadMaskKind::Ge), 3), !0b0111);
        assert_eq!(thread_value(Some(ThreadMaskKind::Ge), 0), u32::MAX);
    }
}
