//! Compute dispatches: NV_compute_program5 programs run with ARB_compute_shader's model.
//!
//! A dispatch of `X×Y×Z` work groups runs each group on one rayon worker (groups spread
//! over every core of the pool the caller installs, such as the rasterizer's). Inside a
//! group the executor runs the invocations batch after batch between barriers
//! ([`Executor::run_group`](glemu_programs::exec::Executor::run_group)) with the group's
//! shared memory in the environment (its `ComputeHooks`), zero at the start of the
//! group (the spec leaves it undefined) and bounds-checked on every access. Buffers,
//! images and counters are shared by all groups: atomics are exact, so a program whose
//! groups do not race on memory leaves the same bytes at any thread count.

use crate::env::{forward_env_to_base, Resources, StageEnv};
use crate::error::PipelineError;
use crate::images::ImageUnit;
use crate::memory::GpuMemory;
use crate::state::{BufferRange, StageProgram, TextureUnit};
use crate::vertex_stage::thread_value;
use glemu_programs::exec::{
    Compute, ComputeHooks, Env, EnvError, ExecStats, ImageCall, LaneState, MemRegion, TexCall,
    Vec4, MAX_LANES,
};
use glemu_programs::ir::{InputBinding, Stage};
use rayon::prelude::*;
use std::sync::Arc;

/// Everything a dispatch needs: the compute program and what it can reach.
///
/// ```
/// use glemu_pipeline::compute::{dispatch, ComputeState};
/// use glemu_pipeline::{Buffer, BufferRange, GpuMemory, StageProgram};
/// use glemu_programs::{assemble, ir::ParamSource};
/// use std::sync::Arc;
/// // Each invocation writes its global id into storage buffer 0.
/// let text = "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 4;\nSTORAGE s[] = { program.storage[0] };\nUINT TEMP g, a;\n\
///             MOV.U g, invocation.globalid;\nMUL.U a.x, g.x, 4;\nSTB.U32 g, s[a.x];\nEND";
/// let p = Arc::new(assemble(text, None).unwrap());
/// let params = p.params.iter().map(|s| match s { ParamSource::Constant(c) => *c, _ => [0; 4] }).collect();
/// let out = Buffer::new(32).unwrap();
/// let state = ComputeState {
///     program: StageProgram::new(p, params),
///     textures: Vec::new(),
///     counter_buffers: Vec::new(),
///     storage_buffers: vec![Some(BufferRange::whole(out.clone()))],
///     memory: Arc::new(GpuMemory::new()),
///     images: Vec::new(),
///     deadline: None,
/// };
/// let stats = dispatch(&state, [2, 1, 1]).unwrap();
/// assert_eq!((stats.groups, stats.invocations), (2, 8));
/// let words: Vec<u32> = out.to_vec().chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
/// assert_eq!(words, [0, 1, 2, 3, 4, 5, 6, 7]);
/// ```
#[derive(Clone, Debug)]
pub struct ComputeState {
    /// The compute program and its parameters.
    pub program: StageProgram,
    /// Texture image units, by unit number.
    pub textures: Vec<TextureUnit>,
    /// Atomic counter buffer bindings, by binding point.
    pub counter_buffers: Vec<Option<BufferRange>>,
    /// Shader storage buffer bindings, by binding point.
    pub storage_buffers: Vec<Option<BufferRange>>,
    /// The GPU address space LOAD/STORE/ATOM reach.
    pub memory: Arc<GpuMemory>,
    /// Image units, by unit number.
    pub images: Vec<Option<ImageUnit>>,
    /// The dispatch's watchdog: past it, groups stop and the dispatch fails.
    pub deadline: Option<glemu_raster::Deadline>,
}

/// What a dispatch did.
///
/// ```
/// let s = glemu_pipeline::compute::ComputeStats::default();
/// assert_eq!((s.groups, s.invocations, s.instructions), (0, 0, 0));
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ComputeStats {
    /// Work groups run.
    pub groups: u64,
    /// Invocations run (groups × GROUP_SIZE).
    pub invocations: u64,
    /// Instructions executed, per lane group (see [`ExecStats`]).
    pub instructions: u64,
    /// Memory accesses out of range or misaligned (they read zero / were dropped).
    pub bad_accesses: u64,
}

/// Where one input slot's value comes from, per invocation.
#[derive(Copy, Clone, Debug)]
enum Src {
    LocalId,
    GlobalId,
    GroupId,
    GroupCount,
    GroupSize,
    LocalIndex,
    /// NV_shader_thread_group: lane within the batch, or a lane mask.
    Thread(Option<glemu_programs::ir::ThreadMaskKind>),
    Zero,
}

/// Runs `groups` (X, Y, Z) work groups of `state.program` and waits for them. Counts of
/// zero run nothing.
pub fn dispatch(state: &ComputeState, groups: [u32; 3]) -> Result<ComputeStats, PipelineError> {
    let prog = &state.program.program;
    if prog.stage != Stage::Compute {
        return Err(PipelineError::invalid_op(
            "the dispatched program is not a compute program",
        ));
    }
    let size = prog
        .decls
        .group_size
        .ok_or_else(|| PipelineError::invalid_op("compute program without GROUP_SIZE"))?;
    let srcs: Vec<Src> = prog
        .inputs
        .iter()
        .map(|i| match &i.binding {
            InputBinding::LocalId => Ok(Src::LocalId),
            InputBinding::GlobalId => Ok(Src::GlobalId),
            InputBinding::GroupId => Ok(Src::GroupId),
            InputBinding::GroupCount => Ok(Src::GroupCount),
            InputBinding::GroupSize => Ok(Src::GroupSize),
            InputBinding::LocalIndex => Ok(Src::LocalIndex),
            InputBinding::ThreadId => Ok(Src::Thread(None)),
            InputBinding::ThreadMask(k) => Ok(Src::Thread(Some(*k))),
            // One warp (a batch) at a time on one SM, as in the other stages.
            InputBinding::WarpId | InputBinding::SmId => Ok(Src::Zero),
            b => Err(PipelineError::not_supported(format!(
                "compute program input {b:?}"
            ))),
        })
        .collect::<Result<_, _>>()?;
    let total = groups.iter().map(|&g| u64::from(g)).product::<u64>();
    if total == 0 {
        return Ok(ComputeStats::default());
    }
    let res = Resources {
        stage_trace: None,
        textures: Resources::bind_textures(&state.textures),
        texture_sites: Vec::new(),
        counter_buffers: state.counter_buffers.clone(),
        storage_buffers: state.storage_buffers.clone(),
        memory: Some(state.memory.clone()),
        images: state.images.clone(),
        deadline: state.deadline,
    };
    let faults_before = state.memory.faults();
    let job = GroupJob {
        state,
        res: &res,
        srcs: &srcs,
        size,
        count: groups,
        invocations: (size[0] * size[1] * size[2]) as usize,
        shared_bytes: prog.decls.shared_memory.unwrap_or(0) as usize,
    };
    let stats = (0..total)
        .into_par_iter()
        .map_init(|| Scratch::new(&job), |scratch, g| job.run(scratch, g))
        .try_reduce(ExecStats::default, |mut a, b| {
            a += b;
            Ok(a)
        })
        .map_err(|e| match state.deadline {
            Some(d) if d.passed() => PipelineError::TimedOut { limit: d.limit },
            _ => e,
        })?;
    Ok(ComputeStats {
        groups: total,
        invocations: total * job.invocations as u64,
        instructions: stats.instructions,
        bad_accesses: stats.oob_reads
            + stats.oob_writes
            + stats.misaligned
            + (state.memory.faults() - faults_before),
    })
}

/// One worker's reusable state: the lane states of a group and its shared memory.
struct Scratch {
    states: Vec<LaneState>,
    shared: Vec<u8>,
}

impl Scratch {
    fn new(job: &GroupJob<'_>) -> Scratch {
        let ex = &job.state.program.executor;
        Scratch {
            states: (0..job.invocations.div_ceil(MAX_LANES))
                .map(|_| ex.new_state(MAX_LANES))
                .collect(),
            shared: vec![0; job.shared_bytes],
        }
    }
}

/// What every group of a dispatch shares.
struct GroupJob<'a> {
    state: &'a ComputeState,
    res: &'a Resources,
    srcs: &'a [Src],
    size: [u32; 3],
    count: [u32; 3],
    invocations: usize,
    shared_bytes: usize,
}

impl GroupJob<'_> {
    /// Runs work group `g` (x fastest, then y, then z).
    fn run(&self, scratch: &mut Scratch, g: u64) -> Result<ExecStats, PipelineError> {
        self.res.check_deadline()?;
        let (cx, cy) = (u64::from(self.count[0]), u64::from(self.count[1]));
        let group = [
            (g % cx) as u32,
            (g / cx % cy) as u32,
            (g / (cx * cy)) as u32,
        ];
        let [sx, sy, _] = self.size;
        for i in 0..self.invocations {
            let li = i as u32;
            let local = [li % sx, li / sx % sy, li / (sx * sy)];
            let (lane, st) = (i % MAX_LANES, &mut scratch.states[i / MAX_LANES]);
            for (slot, src) in self.srcs.iter().enumerate() {
                let v3 = |v: [u32; 3]| [v[0], v[1], v[2], 0];
                let val = match src {
                    Src::LocalId => v3(local),
                    Src::GlobalId => v3(std::array::from_fn(|d| {
                        group[d].wrapping_mul(self.size[d]).wrapping_add(local[d])
                    })),
                    Src::GroupId => v3(group),
                    Src::GroupCount => v3(self.count),
                    Src::GroupSize => v3(self.size),
                    Src::LocalIndex => [li, 0, 0, 0],
                    Src::Thread(k) => [thread_value(*k, lane as u32), 0, 0, 0],
                    Src::Zero => [0; 4],
                };
                st.set_input(slot, lane, val);
            }
        }
        scratch.shared.fill(0);
        let sp = &self.state.program;
        let mut env = GroupEnv {
            base: StageEnv {
                res: self.res,
                stage: Stage::Compute,
                param_buffers: &sp.param_buffers,
                subroutines: &sp.subroutines,
            },
            shared: &mut scratch.shared,
        };
        sp.executor
            .run_group(
                &mut scratch.states,
                self.invocations,
                &sp.params,
                &mut Compute(&mut env),
            )
            .map_err(|source| PipelineError::Program {
                stage: Stage::Compute,
                work_group: Some(group),
                source,
            })
    }
}

/// A work group's environment: the shared [`StageEnv`] plus the group's shared memory.
struct GroupEnv<'a> {
    base: StageEnv<'a>,
    shared: &'a mut [u8],
}

impl GroupEnv<'_> {
    fn range(&self, address: u64, len: usize) -> Option<std::ops::Range<usize>> {
        let a = usize::try_from(address).ok()?;
        let end = a.checked_add(len)?;
        (end <= self.shared.len()).then_some(a..end)
    }
}

impl Env for GroupEnv<'_> {
    forward_env_to_base!();
}

impl ComputeHooks for GroupEnv<'_> {
    fn shared_read(&mut self, a: u64, out: &mut [u8]) -> Result<bool, EnvError> {
        let Some(range) = self.range(a, out.len()) else {
            return Ok(false);
        };
        out.copy_from_slice(&self.shared[range]);
        Ok(true)
    }

    fn shared_write(&mut self, a: u64, data: &[u8]) -> Result<bool, EnvError> {
        let Some(range) = self.range(a, data.len()) else {
            return Ok(false);
        };
        self.shared[range].copy_from_slice(data);
        Ok(true)
    }

    fn shared_atomic(
        &mut self,
        a: u64,
        size: u8,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<Option<u64>, EnvError> {
        // One group runs on one thread: a read-modify-write is atomic for its invocations.
        let n = usize::from(size.min(8));
        let Some(range) = self.range(a, n) else {
            return Ok(None);
        };
        let bytes = &mut self.shared[range];
        let mut w = [0u8; 8];
        w[..n].copy_from_slice(bytes);
        let old = u64::from_le_bytes(w);
        if let Some(new) = update(old) {
            bytes.copy_from_slice(&new.to_le_bytes()[..n]);
        }
        Ok(Some(old))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Buffer;
    use glemu_programs::{assemble, ir::ParamSource};

    fn state(text: &str, out: &Arc<Buffer>) -> ComputeState {
        let p = Arc::new(assemble(text, None).unwrap_or_else(|e| panic!("{e}")));
        let params = p
            .params
            .iter()
            .map(|s| match s {
                ParamSource::Constant(c) => *c,
                _ => [0; 4],
            })
            .collect();
        ComputeState {
            program: StageProgram::new(p, params),
            textures: Vec::new(),
            counter_buffers: Vec::new(),
            storage_buffers: vec![Some(BufferRange::whole(out.clone()))],
            memory: Arc::new(GpuMemory::new()),
            images: Vec::new(),
            deadline: None,
        }
    }

    fn words(b: &Buffer) -> Vec<u32> {
        b.to_vec()
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    #[test]
    fn ids_cover_a_three_dimensional_dispatch() {
        // Each invocation writes globalid packed into one word at its flattened global
        // index, and the group id and local id agree with it.
        let text = "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 2 3 2;\nSTORAGE s[] = { program.storage[0] };\n\
                    UINT TEMP g, l, n, a, v;\nMOV.U g, invocation.globalid;\nMOV.U l, invocation.groupid;\n\
                    MOV.U n, invocation.groupsize;\nMAD.U v.xyz, l, n, invocation.localid;\n\
                    SNE.U v.w, v.x, g.x;\nSNE.U a.w, v.y, g.y;\nOR.U v.w, v.w, a.w;\nSNE.U a.w, v.z, g.z;\nOR.U v.w, v.w, a.w;\n\
                    MOV.U a, invocation.groupcount;\nMUL.U a.x, a.x, n.x;\nMUL.U a.y, a.y, n.y;\n\
                    MAD.U a.z, g.z, a.y, g.y;\nMAD.U a.z, a.z, a.x, g.x;\nMUL.U a.z, a.z, 4;\n\
                    SHL.U v.y, g.y, 8;\nSHL.U v.z, g.z, 16;\nOR.U v.x, g.x, v.y;\nOR.U v.x, v.x, v.z;\nOR.U v.x, v.x, v.w;\n\
                    STB.U32 v, s[a.z];\nEND";
        let [gx, gy, gz] = [3u32, 2, 2];
        let (w, h, d) = (gx * 2, gy * 3, gz * 2);
        let out = Buffer::new(u64::from(w * h * d) * 4).unwrap();
        let st = state(text, &out);
        let stats = dispatch(&st, [gx, gy, gz]).unwrap();
        assert_eq!(stats.groups, 12);
        assert_eq!(stats.invocations, 144);
        let want: Vec<u32> = (0..d)
            .flat_map(|z| (0..h).flat_map(move |y| (0..w).map(move |x| x | y << 8 | z << 16)))
            .collect();
        assert_eq!(words(&out), want);
    }

    #[test]
    fn zero_groups_run_nothing_and_other_stages_are_refused() {
        let out = Buffer::new(4).unwrap();
        let st = state("!!NVcp5.0\nGROUP_SIZE 1;\nEND", &out);
        assert_eq!(dispatch(&st, [4, 0, 1]).unwrap(), ComputeStats::default());
        let vp = Arc::new(assemble("!!NVvp5.0\nMOV result.position, 0;\nEND", None).unwrap());
        let mut st = st;
        st.program = StageProgram::new(vp, vec![[0; 4]]);
        assert!(dispatch(&st, [1, 1, 1]).is_err());
    }

    #[test]
    fn shared_memory_is_per_group_and_bounds_checked() {
        // Every invocation adds 1 to shared word 0 and stores the sum after BAR; an access
        // past SHARED_MEMORY (byte 8 of 8) reads zero instead of another group's memory.
        let text =
            "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 33;\nSHARED_MEMORY 8;\nSHARED m[] = { program.sharedmem };\n\
                    STORAGE s[] = { program.storage[0] };\nUINT TEMP g, a, r;\n\
                    ATOMS.ADD.U32 r.x, 1, m[0];\nBAR;\nLDS.U32 r.x, m[0];\n\
                    MOV.U a.x, 8;\nLDS.U32 r.y, m[a.x];\n\
                    MOV.U g, invocation.groupid;\nMUL.U a.x, g.x, 8;\nSTB.U32X2 r, s[a.x];\nEND";
        let out = Buffer::new(8 * 5).unwrap();
        let st = state(text, &out);
        let stats = dispatch(&st, [5, 1, 1]).unwrap();
        assert_eq!(words(&out), [33, 0, 33, 0, 33, 0, 33, 0, 33, 0]);
        assert_eq!(stats.bad_accesses, 5 * 33);
    }
}
