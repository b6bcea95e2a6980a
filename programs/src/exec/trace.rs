//! What one lane did, instruction by instruction (`glemu trace`): the executor's own run
//! with a hook around each instruction ([`Executor::run_traced`]).
//!
//! The hook is a type parameter of the interpreter's loop: [`Executor::run`] passes a
//! hook whose `ON` is false, so its calls compile away. Operand values are read with the
//! executor's own operand code before the instruction runs, results from the register
//! file after it, texture samples at the environment boundary — nothing here computes
//! what an instruction does.

use super::env::{Env, EnvError, ImageCall, InterpCall, MemRegion, RunEnv, TexCall, TexOp};
use super::error::ExecStats;
use super::operand::{load_raw, resolve_index, shape32, Access};
use super::run::{Frame, Group, Groups};
use super::state::LaneState;
use super::{LaneMask, Vec4, MAX_LANES};
use crate::ir::{File, Inst, Program};

/// Called around every instruction a group runs (the interpreter's loop is generic over
/// it; `ON = false` removes the calls).
pub(crate) trait Hook<E: ?Sized> {
    const ON: bool;
    fn before(&mut self, prog: &Program, st: &LaneState, params: &[[u32; 4]], g: &Group);
    fn after(&mut self, prog: &Program, st: &LaneState, groups: &Groups, env: &mut E);
}

/// No tracing: what [`super::Executor::run`] uses.
pub(crate) struct NoHook;

impl<E: ?Sized> Hook<E> for NoHook {
    const ON: bool = false;
    #[inline(always)]
    fn before(&mut self, _: &Program, _: &LaneState, _: &[[u32; 4]], _: &Group) {}
    #[inline(always)]
    fn after(&mut self, _: &Program, _: &LaneState, _: &Groups, _: &mut E) {}
}

/// One source operand as the instruction read it: the register components its swizzle
/// selects (before `-` and `|..|`, which the instruction text shows), raw bits; 64-bit
/// registers give 64-bit words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceOperand {
    /// The four selected components.
    Value {
        /// Raw bits of each selected component.
        bits: [u64; 4],
        /// True when read from a 64-bit (`LONG`) register.
        wide: bool,
    },
    /// Read through the environment (BUFFER operands of memory instructions).
    Environment,
    /// An index outside its array (reads zero).
    OutOfRange,
}

/// A texture access of one instruction, for the traced lane.
#[derive(Clone, Debug, PartialEq)]
pub struct TexSample {
    /// Which texture instruction.
    pub op: TexOp,
    /// Texture image unit sampled.
    pub unit: u32,
    /// Target named in the instruction.
    pub target: crate::ir::TexTarget,
    /// The coordinate operand (raw bits).
    pub coord: [u32; 4],
    /// The level of detail the sampler computes for these coordinates (fragment programs'
    /// implicit-LOD lookups; from the environment's own LOD query): (clamped, unclamped).
    pub lod: Option<[f32; 2]>,
    /// The filtered result (raw bits).
    pub texel: [u32; 4],
}

/// One instruction the traced lane ran.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceStep {
    /// Instruction index in `Program::instructions`.
    pub pc: u32,
    /// Each source operand's value.
    pub reads: Vec<TraceOperand>,
    /// The destination register after the instruction (every component; `write_mask`
    /// says which the instruction writes), when it has one.
    pub wrote: Option<[u64; 4]>,
    /// Write mask of the destination (bit 0 = x).
    pub write_mask: u8,
    /// Condition codes CC0 and CC1 after the instruction, per component: bits SF=1,
    /// ZF=2, OF=4, CF=8.
    pub cc: [[u8; 4]; 2],
    /// Where the lane goes next (None: it finished or was killed).
    pub next_pc: Option<u32>,
    /// Whether the lane is killed after this instruction.
    pub killed: bool,
    /// Texture lookups the instruction made.
    pub textures: Vec<TexSample>,
}

/// The record of one lane of a run ([`super::Executor::run_traced`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LaneTrace {
    /// The lane followed.
    pub lane: usize,
    /// What it ran, in order.
    pub steps: Vec<TraceStep>,
    /// Stop recording after this many steps (the run itself goes on); 0 = 100 000.
    pub limit: usize,
    /// Steps were left out past `limit`.
    pub truncated: bool,
    /// The step being run (between `before` and `after`).
    open: Option<(TraceStep, i32)>,
}

impl LaneTrace {
    /// A trace of `lane`.
    pub fn new(lane: usize) -> LaneTrace {
        LaneTrace {
            lane,
            ..LaneTrace::default()
        }
    }

    fn bit(&self) -> LaneMask {
        if self.lane < MAX_LANES {
            1 << self.lane
        } else {
            0
        }
    }

    fn full(&self) -> bool {
        let limit = if self.limit == 0 { 100_000 } else { self.limit };
        self.steps.len() >= limit
    }
}

/// The register a destination names, for one lane (`None`: no register, or an index out
/// of range).
fn dst_value(st: &LaneState, acc: &Access, inst: &Inst, lane: usize) -> Option<[u64; 4]> {
    let dst = inst.dst.as_ref()?;
    let slots = resolve_index(st, acc, &dst.index).ok()?;
    let slot = slots.get(lane).copied().flatten()? as usize;
    if dst.file == File::Address {
        let a = st.address.get(slot)?;
        return Some(std::array::from_fn(|c| a[c][lane] as u32 as u64));
    }
    let file = match dst.file {
        File::Temp => &st.temps,
        File::Output => &st.outputs,
        _ => return None,
    };
    let lo = file.lo.get(slot)?;
    let hi = file.is_long(slot).then(|| file.hi.get(slot)).flatten();
    Some(std::array::from_fn(|c| {
        u64::from(lo[c][lane]) | hi.map_or(0, |h| u64::from(h[c][lane]) << 32)
    }))
}

fn operand(st: &LaneState, acc: &Access, src: &crate::ir::Src, lane: usize) -> TraceOperand {
    if src.file == File::Buffer && acc.prefetched.is_empty() {
        return TraceOperand::Environment;
    }
    let mut stats = ExecStats::default();
    let Ok(raw) = load_raw(st, acc, src, &mut stats) else {
        return TraceOperand::Environment;
    };
    if stats.oob_reads > 0 {
        return TraceOperand::OutOfRange;
    }
    if src.ext_swizzle.is_some() {
        // SWZ (ARB, float only): the executor's own shaping applies its 0/1/-x selectors.
        let v = shape32(&raw, src, crate::ir::DataType::F32);
        return TraceOperand::Value {
            bits: std::array::from_fn(|c| u64::from(v[c][lane])),
            wide: false,
        };
    }
    TraceOperand::Value {
        bits: std::array::from_fn(|c| {
            let k = (src.swizzle[c] & 3) as usize;
            let lo = u64::from(raw.lo[k][lane]);
            if raw.long {
                lo | (u64::from(raw.hi[k][lane]) << 32)
            } else {
                lo
            }
        }),
        wide: raw.long,
    }
}

impl<E: RunEnv + ?Sized> Hook<TracingEnv<'_, E>> for LaneTrace {
    const ON: bool = true;

    fn before(&mut self, prog: &Program, st: &LaneState, params: &[[u32; 4]], g: &Group) {
        self.open = None;
        if g.mask & self.bit() == 0 || self.full() {
            self.truncated |= g.mask & self.bit() != 0;
            return;
        }
        let Some(inst) = prog.instructions.get(g.pc as usize) else {
            return;
        };
        let acc = Access {
            params,
            loop_counter: g.loop_counter(),
            mask: g.mask,
            prefetched: Vec::new(),
        };
        let reads = inst
            .srcs
            .iter()
            .map(|s| operand(st, &acc, s, self.lane))
            .collect();
        let step = TraceStep {
            pc: g.pc,
            reads,
            wrote: None,
            write_mask: inst.dst.as_ref().map_or(0, |d| d.mask),
            cc: [[0; 4]; 2],
            next_pc: None,
            killed: false,
            textures: Vec::new(),
        };
        self.open = Some((step, g.loop_counter()));
    }

    fn after(
        &mut self,
        prog: &Program,
        st: &LaneState,
        groups: &Groups,
        env: &mut TracingEnv<'_, E>,
    ) {
        let lane = self.lane;
        let mut samples = Vec::new();
        env.0.samples.retain(|(l, t)| {
            if *l == lane {
                samples.push(t.clone());
            }
            *l != lane
        });
        let Some((mut step, loop_counter)) = self.open.take() else {
            return;
        };
        if let Some(inst) = prog.instructions.get(step.pc as usize) {
            let acc = Access {
                params: &[],
                loop_counter,
                mask: self.bit(),
                prefetched: Vec::new(),
            };
            step.wrote = dst_value(st, &acc, inst, lane);
        }
        step.cc = std::array::from_fn(|i| st.cc_lane(i, lane));
        step.killed = st.kill_mask() & self.bit() != 0;
        // Past the last instruction outside a subroutine, the lane has ended.
        let n = prog.instructions.len() as u32;
        step.next_pc = groups
            .iter()
            .find(|g| g.mask & self.bit() != 0)
            .filter(|g| g.pc < n || g.frames.iter().any(|f| matches!(f, Frame::Call { .. })))
            .map(|g| g.pc);
        step.textures = samples;
        self.steps.push(step);
    }
}

/// Several lanes of one batch traced at once (each [`LaneTrace`] follows its own lane).
pub(crate) struct Lanes<'a>(pub &'a mut [LaneTrace]);

impl<E: RunEnv + ?Sized> Hook<TracingEnv<'_, E>> for Lanes<'_> {
    const ON: bool = true;

    fn before(&mut self, prog: &Program, st: &LaneState, params: &[[u32; 4]], g: &Group) {
        for t in self.0.iter_mut() {
            Hook::<TracingEnv<'_, E>>::before(t, prog, st, params, g);
        }
    }

    fn after(
        &mut self,
        prog: &Program,
        st: &LaneState,
        groups: &Groups,
        env: &mut TracingEnv<'_, E>,
    ) {
        for t in self.0.iter_mut() {
            t.after(prog, st, groups, env);
        }
        // Lookups of lanes no trace here follows (a patch's other batch).
        env.0.samples.clear();
    }
}

/// The lanes `traces` follow.
pub(crate) fn traced_lanes(traces: &[LaneTrace]) -> LaneMask {
    traces.iter().fold(0, |m, t| m | t.bit())
}

/// The environment of a traced run: every call goes to the run's environment; texture
/// lookups of the traced lanes are recorded too (with the LOD the environment computes
/// for them). The stage hooks pass through untouched.
pub(crate) struct TracingEnv<'a, E: ?Sized>(pub Recording<'a, E>);

impl<'a, E: RunEnv + ?Sized> RunEnv for TracingEnv<'a, E> {
    type Resources = Recording<'a, E>;
    fn resources(&mut self) -> &mut Recording<'a, E> {
        &mut self.0
    }
    fn hooks(&self) -> Option<crate::ir::Stage> {
        self.0.inner.hooks()
    }
    fn interpolate(&mut self, call: &InterpCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
        self.0.inner.interpolate(call, out)
    }
    fn emit(&mut self, stream: u32, lane: usize, state: &LaneState) -> Result<(), EnvError> {
        self.0.inner.emit(stream, lane, state)
    }
    fn end_primitive(&mut self, lane: usize) -> Result<(), EnvError> {
        self.0.inner.end_primitive(lane)
    }
    fn region_read(&mut self, r: MemRegion, a: u64, out: &mut [u8]) -> Result<bool, EnvError> {
        self.0.inner.region_read(r, a, out)
    }
    fn region_write(&mut self, r: MemRegion, a: u64, data: &[u8]) -> Result<bool, EnvError> {
        self.0.inner.region_write(r, a, data)
    }
    fn region_atomic(
        &mut self,
        r: MemRegion,
        a: u64,
        size: u8,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<Option<u64>, EnvError> {
        self.0.inner.region_atomic(r, a, size, update)
    }
}

/// The shared resources of a traced run (see [`TracingEnv`]).
pub(crate) struct Recording<'a, E: ?Sized> {
    pub inner: &'a mut E,
    /// The lanes whose lookups are recorded.
    pub lanes: LaneMask,
    /// This instruction's lookups: (lane, lookup).
    pub samples: Vec<(usize, TexSample)>,
}

impl<E: RunEnv + ?Sized> Env for Recording<'_, E> {
    fn texture(&mut self, call: &TexCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
        self.inner.resources().texture(call, out)?;
        let traced = call.lanes & self.lanes;
        if traced == 0 {
            return Ok(());
        }
        let implicit = matches!(call.op, TexOp::Sample | TexOp::Bias | TexOp::Proj)
            && call.stage == crate::ir::Stage::Fragment;
        let lod = if implicit {
            let mut q = [[0u32; MAX_LANES]; 4];
            let query = TexCall {
                op: TexOp::QueryLod,
                dtype: crate::ir::DataType::F32,
                ..*call
            };
            self.inner
                .resources()
                .texture(&query, &mut q)
                .ok()
                .map(|()| q)
        } else {
            None
        };
        for l in (0..MAX_LANES).filter(|l| traced & (1 << l) != 0) {
            self.samples.push((
                l,
                TexSample {
                    op: call.op,
                    unit: call.unit,
                    target: call.target,
                    coord: std::array::from_fn(|c| call.coord[c][l]),
                    lod: lod.map(|q| [f32::from_bits(q[0][l]), f32::from_bits(q[1][l])]),
                    texel: std::array::from_fn(|c| out[c][l]),
                },
            ));
        }
        Ok(())
    }
    fn mem_read(&mut self, r: MemRegion, a: u64, out: &mut [u8]) -> Result<bool, EnvError> {
        self.inner.resources().mem_read(r, a, out)
    }
    fn mem_write(&mut self, r: MemRegion, a: u64, data: &[u8]) -> Result<bool, EnvError> {
        self.inner.resources().mem_write(r, a, data)
    }
    fn mem_atomic(
        &mut self,
        r: MemRegion,
        a: u64,
        size: u8,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<Option<u64>, EnvError> {
        self.inner.resources().mem_atomic(r, a, size, update)
    }
    fn counter_atomic(
        &mut self,
        binding: u32,
        index: u32,
        update: &dyn Fn(u32) -> u32,
    ) -> Result<Option<u32>, EnvError> {
        self.inner
            .resources()
            .counter_atomic(binding, index, update)
    }
    fn image_load(&mut self, c: &ImageCall, xy: [i32; 4]) -> Result<Option<[u32; 4]>, EnvError> {
        self.inner.resources().image_load(c, xy)
    }
    fn image_store(&mut self, c: &ImageCall, xy: [i32; 4], v: [u32; 4]) -> Result<bool, EnvError> {
        self.inner.resources().image_store(c, xy, v)
    }
    fn image_atomic(
        &mut self,
        c: &ImageCall,
        xy: [i32; 4],
        update: &dyn Fn(u32) -> Option<u32>,
    ) -> Result<Option<u32>, EnvError> {
        self.inner.resources().image_atomic(c, xy, update)
    }
    fn subroutine(&mut self, slot: u32) -> Result<u32, EnvError> {
        self.inner.resources().subroutine(slot)
    }
    fn memory_barrier(&mut self) -> Result<(), EnvError> {
        self.inner.resources().memory_barrier()
    }
    // Without it a traced draw would ignore the draw's deadline (the default never
    // interrupts) and run a long loop to the instruction budget.
    fn interrupted(&mut self) -> bool {
        self.inner.resources().interrupted()
    }
}
