//! The compiled form → Cranelift IR.
//!
//! A batch of [`MAX_LANES`] lanes is four 128-bit chunks per register component
//! (`i32x4`, lanes 4k..4k+3 in chunk k: one 2×2 quad). Temporaries, outputs, address
//! registers and condition codes live in Cranelift variables, so within straight-line code
//! they are SSA values in machine registers; inputs and parameters are loaded from the
//! frame's memory where they are read. Swizzles, write masks, negate/absolute value,
//! saturation and condition-code tests are resolved here, at compile time.
//!
//! Lane masks: writes select between the new and old value with the current execution
//! mask, except while the mask is known to hold all sixteen lanes (the "full" variant,
//! until a KIL). Results of inactive lanes then equal the interpreter's exactly, which
//! matters because DDX/DDY and texture LOD read neighbouring lanes.
//!
//! Instructions without a vector lowering run as one interpreted step (`frame::step`):
//! the registers they touch are stored into the lane state first and the written ones
//! reloaded afterwards, so every instruction the interpreter knows also runs here with
//! its exact semantics.

// Registers are `[comp][chunk]` arrays indexed in step; iterator chains would hide it.
#![allow(clippy::needless_range_loop)]

mod branch;
mod flow;
pub(crate) mod group;

use super::frame::{Frame, BUDGET, CALL_DEPTH, DONE, FAILED, RERUN};
use super::math;
use super::scan::{self, flow_cond, Touch};
use crate::exec::texture;
use crate::exec::MAX_LANES;
use crate::ir::{
    CondOp, CondTest, DataType, Dialect, ExtSwizzle, File, Index, Inst, Opcode, OutputBinding,
    Program, Saturate, Src, Stage,
};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    self, types, AbiParam, Block, ConstantData, Endianness, InstBuilder, MemFlagsData, Type, Value,
};
use cranelift_codegen::isa::TargetFrontendConfig;
use cranelift_frontend::{FunctionBuilder, Variable};
use std::mem::offset_of;

const V: Type = types::I32X4;
const F: Type = types::F32X4;
const CHUNKS: usize = MAX_LANES / 4;

/// One component of a register across the batch.
pub(crate) type Chunks = [Value; CHUNKS];
/// A four-component register across the batch.
pub(crate) type Reg = [Chunks; 4];
type Vars = [[Variable; CHUNKS]; 4];

/// What a kernel is specialised on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Variant {
    /// Every lane of the batch runs (entry mask = all sixteen lanes).
    pub full_mask: bool,
    /// Temporaries, address registers and condition codes are written back to the lane
    /// state at the end (else only outputs and the kill mask are).
    pub all_registers: bool,
    /// The lanes are the invocations of one tessellation control patch: after each
    /// instruction that writes a result, the per-patch results are published
    /// (`publish_patch`, as `exec::lockstep`).
    pub patch: bool,
    /// The lanes are one batch of a compute work group (`Executor::run_group`): at a BAR
    /// the kernel suspends (status `BARRIER`, every variable saved in the group record
    /// that is its second argument) and a later call resumes it there (`lower/group.rs`).
    pub group: bool,
    /// The lanes are one batch of a tessellation control patch whose invocations read
    /// each other's results or span two batches (`Executor::run_patch`): the kernel
    /// suspends (status `YIELD`) before each instruction that reads or writes a result
    /// or the output patch and before each jump back to a loop's start, giving its
    /// lock-step position, so the host runs the batches in lock-step order and publishes
    /// the output patch between them (`lower/group.rs`).
    pub lockstep: bool,
}

/// Facts about a translated kernel the caller checks before each run.
#[derive(Clone, Debug, Default)]
pub(crate) struct Needs {
    /// Parameters read directly: `params.len()` must be at least this.
    pub params: usize,
    /// Vertex copies of the inputs read directly.
    pub vertices: usize,
    /// Group kernels: 16-byte slots of the group record a suspension saves (its header
    /// and every variable).
    pub saved: usize,
    /// Per resumption point (the record's 1-based `RESUME_AT`), the lock-step position of
    /// the lanes waiting there: their open calls' CAL sites, then the pc.
    pub positions: Vec<smallvec::SmallVec<[u32; 4]>>,
}

/// A condition-code component that holds `flags(value, dtype)` for every lane, written in
/// `block`.
#[derive(Copy, Clone)]
struct CcSource {
    block: Block,
    value: Value,
    dtype: DataType,
}

/// Write enable of one component: never, for every lane, or for the lanes of a mask.
#[derive(Copy, Clone)]
enum En {
    Off,
    All,
    Lanes(Chunks),
}

/// The kernel's signature: `fn(*mut Frame) -> u32`.
pub(crate) fn signature(call_conv: ir::Signature) -> ir::Signature {
    let mut sig = call_conv;
    sig.params.push(AbiParam::new(types::I64));
    sig.returns.push(AbiParam::new(types::I32));
    sig
}

pub(crate) struct Lower<'a, 'f> {
    prog: &'a Program,
    b: FunctionBuilder<'f>,
    frame: Value,
    temps: Vec<Vars>,
    outputs: Vec<Vars>,
    address: Vec<Vars>,
    cc: [Vars; 2],
    mask: [Variable; CHUNKS],
    /// Lanes in the mask (i64).
    live: Variable,
    /// Killed lanes (i32 bits).
    kill: Variable,
    instructions: Variable,
    lane_instructions: Variable,
    /// Instructions executed since the counters were last updated.
    pending: u64,
    /// The mask is known to hold all sixteen lanes.
    mask_all: bool,
    /// Instructions the running lane group has executed (the interpreter's
    /// `Group::steps`, which the budget limits), i64.
    steps: Variable,
    /// The mask may have become empty since it was last tested: test it before the next
    /// instruction (`flow::Flow`).
    maybe_empty: bool,
    /// Blocks where skipped code (empty mask) rejoins, closed at the end of each region.
    joins: Vec<Block>,
    /// Open loops, innermost last.
    loops: Vec<flow::LoopCtx>,
    /// Open (inlined) subroutine calls, innermost last.
    calls: Vec<flow::CallCtx>,
    /// The innermost LOOP's counter (i32), 0 outside loops.
    loop_counter: Variable,
    /// Lanes waiting inside the open IF blocks (ELSE lanes not yet run, THEN lanes
    /// waiting at ENDIF), innermost last.
    waiting: Vec<group::Held>,
    done: Block,
    failed: Block,
    /// Budget exceeded: parameters (first pc of the charged run, steps before it).
    over: Block,
    /// Call depth exceeded: parameter the pc of the CAL.
    too_deep: Block,
    rerun: Block,
    step_sig: ir::SigRef,
    texture_sig: ir::SigRef,
    /// `fn(io, op)` of `native::math_entry`.
    math_sig: ir::SigRef,
    /// The stack slot `math` passes its lanes through (made on first use).
    math_slot: Option<ir::StackSlot>,
    variant: Variant,
    needs: Needs,
    config: TargetFrontendConfig,
    /// Per condition code, component and chunk: the result whose flags the register
    /// holds, when every lane's flags came from it in the current block (no mask, no
    /// step since). A test of those flags is then one comparison of the result
    /// (`test_value`), and flags only tests read are never computed.
    cc_src: [[[Option<CcSource>; CHUNKS]; 4]; 2],
    /// Patch variant: each per-patch output slot with the shared value of its
    /// components (i32 variables).
    shared: Vec<(usize, [Variable; 4])>,
    /// The lanes that run (the patch's invocations), as chunks defined on entry.
    entry_mask: Option<Chunks>,
    /// Stack slot `publish_patch` reads one lane of a register through.
    lane_slot: Option<ir::StackSlot>,
    /// Group kernels: the group record (the second argument) and where each BAR resumes.
    group: Option<group::Resume>,
}

fn mem() -> MemFlagsData {
    MemFlagsData::trusted()
}

/// Memory the kernel never writes and no interpreted step changes while it runs
/// (inputs, parameters, the frame's pointers).
fn mem_ro() -> MemFlagsData {
    MemFlagsData::trusted().with_readonly().with_can_move()
}

fn le() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

impl<'a, 'f> Lower<'a, 'f> {
    pub(crate) fn new(
        prog: &'a Program,
        mut b: FunctionBuilder<'f>,
        variant: Variant,
        step_sig: ir::Signature,
        config: TargetFrontendConfig,
    ) -> Lower<'a, 'f> {
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let frame = b.block_params(entry)[0];
        let mut texture_sig = step_sig.clone();
        texture_sig.params.push(AbiParam::new(types::I64));
        texture_sig.params.push(AbiParam::new(types::I64));
        let mut math_sig = step_sig.clone();
        math_sig.params = vec![AbiParam::new(types::I64), AbiParam::new(types::I32)];
        math_sig.returns.clear();
        let math_sig = b.import_signature(math_sig);
        let step_sig = b.import_signature(step_sig);
        let texture_sig = b.import_signature(texture_sig);
        let vars = |b: &mut FunctionBuilder<'f>| -> Vars {
            std::array::from_fn(|_| std::array::from_fn(|_| b.declare_var(V)))
        };
        let temps = (0..prog.temps.len()).map(|_| vars(&mut b)).collect();
        let outputs = (0..prog.outputs.len()).map(|_| vars(&mut b)).collect();
        let address = (0..prog.address_regs).map(|_| vars(&mut b)).collect();
        let cc = [vars(&mut b), vars(&mut b)];
        let mask = std::array::from_fn(|_| b.declare_var(V));
        let live = b.declare_var(types::I64);
        let kill = b.declare_var(types::I32);
        let instructions = b.declare_var(types::I64);
        let lane_instructions = b.declare_var(types::I64);
        let done = b.create_block();
        let failed = b.create_block();
        b.set_cold_block(failed);
        let over = b.create_block();
        b.append_block_param(over, types::I32);
        b.append_block_param(over, types::I64);
        b.set_cold_block(over);
        let rerun = b.create_block();
        b.set_cold_block(rerun);
        let too_deep = b.create_block();
        b.append_block_param(too_deep, types::I32);
        b.set_cold_block(too_deep);
        let steps = b.declare_var(types::I64);
        let loop_counter = b.declare_var(types::I32);
        let mut l = Lower {
            prog,
            b,
            frame,
            temps,
            outputs,
            address,
            cc,
            mask,
            live,
            kill,
            instructions,
            lane_instructions,
            pending: 0,
            mask_all: variant.full_mask,
            steps,
            maybe_empty: false,
            joins: Vec::new(),
            loops: Vec::new(),
            calls: Vec::new(),
            loop_counter,
            waiting: Vec::new(),
            done,
            failed,
            over,
            too_deep,
            rerun,
            step_sig,
            texture_sig,
            math_sig,
            math_slot: None,
            variant,
            needs: Needs::default(),
            config,
            cc_src: [[[None; CHUNKS]; 4]; 2],
            shared: Vec::new(),
            entry_mask: None,
            lane_slot: None,
            group: None,
        };
        l.prologue();
        l
    }

    // ---- constants and memory ----

    fn splat(&mut self, bits: u32) -> Value {
        let bytes: Vec<u8> = (0..4).flat_map(|_| bits.to_le_bytes()).collect();
        self.lanes_const(bytes)
    }

    fn lanes_const(&mut self, bytes: Vec<u8>) -> Value {
        let c = self.b.func.dfg.constants.insert(ConstantData::from(bytes));
        self.b.ins().vconst(V, c)
    }

    fn splat_reg(&mut self, bits: [u32; 4]) -> Reg {
        bits.map(|x| {
            let v = self.splat(x);
            [v; CHUNKS]
        })
    }

    fn frame_ptr(&mut self, offset: usize) -> Value {
        self.b
            .ins()
            .load(types::I64, mem_ro(), self.frame, offset as i32)
    }

    fn frame_u32(&mut self, offset: usize) -> Value {
        self.b
            .ins()
            .load(types::I32, mem_ro(), self.frame, offset as i32)
    }

    /// Byte offset of `[reg][comp][chunk]` in a `Vec4` register file.
    fn reg_offset(reg: usize, comp: usize, chunk: usize) -> i32 {
        ((reg * 4 + comp) * MAX_LANES * 4 + chunk * 16) as i32
    }

    // ---- bit casts and lane-wise helpers ----

    fn as_f32x4(&mut self, v: Value) -> Value {
        self.b.ins().bitcast(F, le(), v)
    }

    fn as_bits(&mut self, v: Value) -> Value {
        self.b.ins().bitcast(V, le(), v)
    }

    /// f32 operation on two chunks, as bits.
    fn fbin(
        &mut self,
        a: Value,
        b: Value,
        op: fn(&mut FunctionBuilder, Value, Value) -> Value,
    ) -> Value {
        let (x, y) = (self.as_f32x4(a), self.as_f32x4(b));
        let r = op(&mut self.b, x, y);
        self.as_bits(r)
    }

    fn fadd(&mut self, a: Value, b: Value) -> Value {
        self.fbin(a, b, |b, x, y| b.ins().fadd(x, y))
    }
    fn fsub(&mut self, a: Value, b: Value) -> Value {
        self.fbin(a, b, |b, x, y| b.ins().fsub(x, y))
    }
    fn fmul(&mut self, a: Value, b: Value) -> Value {
        self.fbin(a, b, |b, x, y| b.ins().fmul(x, y))
    }
    fn fdiv(&mut self, a: Value, b: Value) -> Value {
        self.fbin(a, b, |b, x, y| b.ins().fdiv(x, y))
    }

    /// f32 comparison as a lane mask.
    fn fcmp(&mut self, cc: FloatCC, a: Value, b: Value) -> Value {
        let (x, y) = (self.as_f32x4(a), self.as_f32x4(b));
        let m = self.b.ins().fcmp(cc, x, y);
        self.as_bits(m)
    }

    fn funary(&mut self, a: Value, op: fn(&mut FunctionBuilder, Value) -> Value) -> Value {
        let x = self.as_f32x4(a);
        let r = op(&mut self.b, x);
        self.as_bits(r)
    }

    /// Lane mask of `x <cc> 0`.
    fn icmp0(&mut self, cc: IntCC, x: Value) -> Value {
        let z = self.splat(0);
        self.b.ins().icmp(cc, x, z)
    }

    fn select(&mut self, m: Value, a: Value, b: Value) -> Value {
        self.b.ins().bitselect(m, a, b)
    }

    fn map1(&mut self, a: &Reg, mut f: impl FnMut(&mut Self, Value) -> Value) -> Reg {
        let mut r = *a;
        for c in 0..4 {
            for k in 0..CHUNKS {
                r[c][k] = f(self, a[c][k]);
            }
        }
        r
    }

    fn map2(
        &mut self,
        a: &Reg,
        b: &Reg,
        mut f: impl FnMut(&mut Self, Value, Value) -> Value,
    ) -> Reg {
        let mut r = *a;
        for c in 0..4 {
            for k in 0..CHUNKS {
                r[c][k] = f(self, a[c][k], b[c][k]);
            }
        }
        r
    }

    fn map3(
        &mut self,
        a: &Reg,
        b: &Reg,
        d: &Reg,
        mut f: impl FnMut(&mut Self, Value, Value, Value) -> Value,
    ) -> Reg {
        let mut r = *a;
        for c in 0..4 {
            for k in 0..CHUNKS {
                r[c][k] = f(self, a[c][k], b[c][k], d[c][k]);
            }
        }
        r
    }

    /// `[x; 4]`: component x of `a` in every component.
    fn xxxx(a: &Reg) -> Reg {
        [a[0]; 4]
    }

    // ---- entry, exit ----

    fn prologue(&mut self) {
        let zero = self.splat(0);
        let all: Vec<&Vars> = self
            .temps
            .iter()
            .chain(self.outputs.iter())
            .chain(self.address.iter())
            .chain(self.cc.iter())
            .collect();
        let vars: Vec<Variable> = all
            .into_iter()
            .flat_map(|r| r.iter().flat_map(|c| c.iter().copied()))
            .collect();
        for v in vars {
            self.b.def_var(v, zero);
        }
        let active = self.frame_u32(offset_of!(Frame, active));
        if self.variant.full_mask {
            let ones = self.splat(u32::MAX);
            for k in 0..CHUNKS {
                self.b.def_var(self.mask[k], ones);
            }
            self.entry_mask = Some([ones; CHUNKS]);
            let n = self.b.ins().iconst(types::I64, MAX_LANES as i64);
            self.b.def_var(self.live, n);
        } else {
            let m = self.chunks_of_bits(active);
            for k in 0..CHUNKS {
                self.b.def_var(self.mask[k], m[k]);
            }
            self.entry_mask = Some(m);
            let n = self.b.ins().popcnt(active);
            let n = self.b.ins().uextend(types::I64, n);
            self.b.def_var(self.live, n);
        }
        if self.variant.patch {
            let z = self.b.ins().iconst(types::I32, 0);
            for (k, o) in self.prog.outputs.iter().enumerate() {
                if matches!(o.binding, OutputBinding::Varying(s) if s.is_per_patch()) {
                    let vars = std::array::from_fn(|_| self.b.declare_var(types::I32));
                    for v in vars {
                        self.b.def_var(v, z);
                    }
                    self.shared.push((k, vars));
                }
            }
        }
        let z32 = self.b.ins().iconst(types::I32, 0);
        self.b.def_var(self.kill, z32);
        self.b.def_var(self.loop_counter, z32);
        let z64 = self.b.ins().iconst(types::I64, 0);
        self.b.def_var(self.steps, z64);
        self.b.def_var(self.instructions, z64);
        self.b.def_var(self.lane_instructions, z64);
    }

    /// Bring the instruction counters up to date.
    fn flush(&mut self) {
        if self.pending == 0 {
            return;
        }
        let n = self.pending as i64;
        self.pending = 0;
        let i = self.b.use_var(self.instructions);
        let i = self.b.ins().iadd_imm_s(i, n);
        self.b.def_var(self.instructions, i);
        let live = self.b.use_var(self.live);
        let add = self.b.ins().imul_imm_s(live, n);
        let l = self.b.use_var(self.lane_instructions);
        let l = self.b.ins().iadd(l, add);
        self.b.def_var(self.lane_instructions, l);
    }

    fn store_file(&mut self, base_off: usize, which: fn(&Self) -> &Vec<Vars>) {
        let n = which(self).len();
        if n == 0 {
            return;
        }
        let base = self.frame_ptr(base_off);
        for r in 0..n {
            self.store_reg(base, which, r);
        }
    }

    fn store_reg(&mut self, base: Value, which: fn(&Self) -> &Vec<Vars>, r: usize) {
        for c in 0..4 {
            for k in 0..CHUNKS {
                let var = which(self)[r][c][k];
                let v = self.b.use_var(var);
                self.b
                    .ins()
                    .store(mem(), v, base, Self::reg_offset(r, c, k));
            }
        }
    }

    fn load_reg(&mut self, base: Value, which: fn(&Self) -> &Vec<Vars>, r: usize) {
        for c in 0..4 {
            for k in 0..CHUNKS {
                let v = self.b.ins().load(V, mem(), base, Self::reg_offset(r, c, k));
                let var = which(self)[r][c][k];
                self.b.def_var(var, v);
            }
        }
    }

    fn store_cc(&mut self) {
        let base = self.frame_ptr(offset_of!(Frame, cc));
        for (i, regs) in self.cc.into_iter().enumerate() {
            for (c, comp) in regs.iter().enumerate() {
                let v: Vec<Value> = comp.iter().map(|var| self.b.use_var(*var)).collect();
                let lo = self.b.ins().snarrow(v[0], v[1]);
                let hi = self.b.ins().snarrow(v[2], v[3]);
                let bytes = self.b.ins().unarrow(lo, hi);
                let off = ((i * 4 + c) * MAX_LANES) as i32;
                self.b.ins().store(mem(), bytes, base, off);
            }
        }
    }

    fn load_cc(&mut self) {
        self.cc_src = [[[None; CHUNKS]; 4]; 2];
        let base = self.frame_ptr(offset_of!(Frame, cc));
        for i in 0..2 {
            for c in 0..4 {
                let off = ((i * 4 + c) * MAX_LANES) as i32;
                let bytes = self.b.ins().load(types::I8X16, mem(), base, off);
                let lo = self.b.ins().uwiden_low(bytes);
                let hi = self.b.ins().uwiden_high(bytes);
                let parts = [
                    self.b.ins().uwiden_low(lo),
                    self.b.ins().uwiden_high(lo),
                    self.b.ins().uwiden_low(hi),
                    self.b.ins().uwiden_high(hi),
                ];
                for k in 0..CHUNKS {
                    self.b.def_var(self.cc[i][c][k], parts[k]);
                }
            }
        }
    }

    /// The end of the program for every lane: write back and return.
    pub(crate) fn finish(self) -> Needs {
        self.finish_with(true, |_| {})
    }

    /// [`Lower::finish`], with `epilogue` emitted after the write-back of a run that
    /// finished (`compile::block`'s colour store), and the outputs written back to the
    /// lane state only when `outputs`.
    pub(crate) fn finish_with(mut self, outputs: bool, epilogue: impl FnOnce(&mut Self)) -> Needs {
        self.flush();
        self.b.ins().jump(self.done, &[]);
        self.b.switch_to_block(self.done);
        if outputs {
            self.store_file(offset_of!(Frame, outputs), |s| &s.outputs);
        }
        epilogue(&mut self);
        if self.variant.all_registers {
            self.store_file(offset_of!(Frame, temps), |s| &s.temps);
            self.store_file(offset_of!(Frame, address), |s| &s.address);
            self.store_cc();
        }
        let kill = self.b.use_var(self.kill);
        self.b
            .ins()
            .store(mem(), kill, self.frame, offset_of!(Frame, kill) as i32);
        let i = self.b.use_var(self.instructions);
        self.b
            .ins()
            .store(mem(), i, self.frame, offset_of!(Frame, instructions) as i32);
        let l = self.b.use_var(self.lane_instructions);
        self.b.ins().store(
            mem(),
            l,
            self.frame,
            offset_of!(Frame, lane_instructions) as i32,
        );
        let ok = self.b.ins().iconst(types::I32, DONE as i64);
        self.b.ins().return_(&[ok]);
        self.b.switch_to_block(self.failed);
        let bad = self.b.ins().iconst(types::I32, FAILED as i64);
        self.b.ins().return_(&[bad]);
        self.b.switch_to_block(self.over);
        let (first, before) = (
            self.b.block_params(self.over)[0],
            self.b.block_params(self.over)[1],
        );
        // The instruction at which `before + k + 1` first exceeds the budget.
        let budget = self.b.ins().load(
            types::I64,
            mem_ro(),
            self.frame,
            offset_of!(Frame, budget) as i32,
        );
        let k = self.b.ins().isub(budget, before);
        let k = self.b.ins().ireduce(types::I32, k);
        let pc = self.b.ins().iadd(first, k);
        self.b
            .ins()
            .store(mem(), pc, self.frame, offset_of!(Frame, error_pc) as i32);
        let st = self.b.ins().iconst(types::I32, BUDGET as i64);
        self.b.ins().return_(&[st]);
        self.b.switch_to_block(self.rerun);
        let st = self.b.ins().iconst(types::I32, RERUN as i64);
        self.b.ins().return_(&[st]);
        self.b.switch_to_block(self.too_deep);
        let pc = self.b.block_params(self.too_deep)[0];
        self.b
            .ins()
            .store(mem(), pc, self.frame, offset_of!(Frame, error_pc) as i32);
        let st = self.b.ins().iconst(types::I32, CALL_DEPTH as i64);
        self.b.ins().return_(&[st]);
        self.group_exits();
        self.b.seal_all_blocks();
        self.b.finalize(self.config);
        self.needs
    }

    // ---- what `compile::block`'s epilogue reads ----

    /// The function builder, positioned where the epilogue goes.
    pub(crate) fn builder(&mut self) -> &mut FunctionBuilder<'f> {
        &mut self.b
    }

    /// Output `slot`'s value at the end of the program (zeros where never written).
    pub(crate) fn output_value(&mut self, slot: usize) -> Option<Reg> {
        let vars = *self.outputs.get(slot)?;
        Some(vars.map(|c| c.map(|v| self.b.use_var(v))))
    }

    /// The killed lanes (i32 bits) at the end of the program.
    pub(crate) fn kill_value(&mut self) -> Value {
        self.b.use_var(self.kill)
    }

    // ---- masks ----

    /// The mask's chunks. While the mask is known to hold every lane they are constants,
    /// not the variables: in a loop, reading the variables would carry the mask around
    /// the loop in four vector registers, and the latch would rebuild it from bits in
    /// every iteration, although it is all lanes each time.
    fn mask_vals(&mut self) -> Chunks {
        if self.mask_all {
            let ones = self.splat(u32::MAX);
            return [ones; CHUNKS];
        }
        std::array::from_fn(|k| self.b.use_var(self.mask[k]))
    }

    /// Lane bits (i32) of a mask.
    fn bits(&mut self, m: &Chunks) -> Value {
        let mut acc = None;
        for (k, c) in m.iter().enumerate() {
            let b = self.b.ins().vhigh_bits(types::I32, *c);
            let b = if k == 0 {
                b
            } else {
                self.b.ins().ishl_imm_u(b, 4 * k as i64)
            };
            acc = Some(match acc {
                None => b,
                Some(a) => self.b.ins().bor(a, b),
            });
        }
        acc.unwrap_or_else(|| self.b.ins().iconst(types::I32, 0))
    }

    fn mask_bits(&mut self) -> Value {
        if self.mask_all {
            return self
                .b
                .ins()
                .iconst(types::I32, ((1u64 << MAX_LANES) - 1) as i64);
        }
        let m = self.mask_vals();
        self.bits(&m)
    }

    // ---- operands ----

    fn reg_vars(&self, file: File, i: usize) -> Option<&Vars> {
        match file {
            File::Temp => self.temps.get(i),
            File::Output => self.outputs.get(i),
            _ => None,
        }
    }

    /// The unswizzled register behind a natively loadable source.
    fn raw(&mut self, s: &Src, dtype: DataType) -> Reg {
        let Index::Direct(i) = s.index else {
            unreachable!("scan::src_native admits direct operands only")
        };
        let i = i as usize;
        match s.file {
            File::Temp | File::Output => {
                let vars = *self
                    .reg_vars(s.file, i)
                    .expect("scan::src_native checked the index");
                vars.map(|c| c.map(|v| self.b.use_var(v)))
            }
            File::Input => {
                let (base, slot, published) = self.input_at(s, i);
                let flags = if published { mem() } else { mem_ro() };
                std::array::from_fn(|c| {
                    std::array::from_fn(|k| {
                        self.b
                            .ins()
                            .load(V, flags, base, Self::reg_offset(slot, c, k))
                    })
                })
            }
            File::Param => {
                self.needs.params = self.needs.params.max(i + 1);
                let base = self.frame_ptr(offset_of!(Frame, params));
                std::array::from_fn(|c| {
                    let x = self
                        .b
                        .ins()
                        .load(types::I32, mem_ro(), base, ((i * 4 + c) * 4) as i32);
                    let v = self.b.ins().splat(V, x);
                    [v; CHUNKS]
                })
            }
            File::Immediate => {
                // A 64-bit literal read as a 32-bit operand (`shape32` of the interpreter).
                let bits = s.imm.map(|w| match dtype {
                    DataType::F32 | DataType::F64 => (f64::from_bits(w) as f32).to_bits(),
                    _ => w as u32,
                });
                self.splat_reg(bits)
            }
            File::Address | File::Buffer => {
                unreachable!("scan::src_native rejects address and buffer operands")
            }
        }
    }

    fn negate(&mut self, v: Value, dtype: DataType) -> Value {
        match dtype {
            DataType::F32 | DataType::F64 => {
                let s = self.splat(0x8000_0000);
                self.b.ins().bxor(v, s)
            }
            _ => self.b.ins().ineg(v),
        }
    }

    /// A source operand as 32-bit values of `dtype`: swizzled, negate/abs applied.
    fn load(&mut self, s: &Src, dtype: DataType) -> Reg {
        let raw = self.raw(s, dtype);
        let mut out = raw;
        match &s.ext_swizzle {
            None => {
                for c in 0..4 {
                    out[c] = raw[(s.swizzle[c] & 3) as usize];
                }
            }
            Some(ext) => {
                let one = if dtype.is_float() {
                    1.0f32.to_bits()
                } else {
                    1
                };
                let neg = |x: u32| {
                    if dtype.is_float() {
                        x ^ 0x8000_0000
                    } else {
                        x.wrapping_neg()
                    }
                };
                for c in 0..4 {
                    out[c] = match ext[c] {
                        ExtSwizzle::Zero => [self.splat(0); CHUNKS],
                        ExtSwizzle::One => [self.splat(one); CHUNKS],
                        ExtSwizzle::Comp(k) => raw[(k & 3) as usize],
                        ExtSwizzle::NegZero => [self.splat(neg(0)); CHUNKS],
                        ExtSwizzle::NegOne => [self.splat(neg(one)); CHUNKS],
                        ExtSwizzle::NegComp(k) => {
                            let r = raw[(k & 3) as usize];
                            r.map(|v| self.negate(v, dtype))
                        }
                    };
                }
            }
        }
        if !s.abs && !s.negate {
            return out;
        }
        match dtype {
            DataType::F32 | DataType::F64 => {
                let and = self.splat(if s.abs { 0x7fff_ffff } else { u32::MAX });
                let xor = self.splat(if s.negate { 0x8000_0000 } else { 0 });
                self.map1(&out, |l, v| {
                    let v = if s.abs { l.b.ins().band(v, and) } else { v };
                    if s.negate {
                        l.b.ins().bxor(v, xor)
                    } else {
                        v
                    }
                })
            }
            DataType::S32 | DataType::S64 => self.map1(&out, |l, v| {
                let v = if s.abs { l.b.ins().iabs(v) } else { v };
                if s.negate {
                    l.b.ins().ineg(v)
                } else {
                    v
                }
            }),
            DataType::U32 | DataType::U64 => {
                if s.negate {
                    self.map1(&out, |l, v| l.b.ins().ineg(v))
                } else {
                    out
                }
            }
        }
    }

    // ---- condition codes ----

    /// Table X.16 of NV_gpu_program4 on flag chunks, as a lane mask.
    fn test_flags(&mut self, op: CondOp, f: Value) -> Value {
        let bit = |l: &mut Self, b: u32| {
            let m = l.splat(b);
            let x = l.b.ins().band(f, m);
            l.icmp0(IntCC::NotEqual, x)
        };
        use CondOp::*;
        match op {
            Tr => self.splat(u32::MAX),
            Fl => self.splat(0),
            _ => {
                let sf = bit(self, 1);
                let zf = bit(self, 2);
                let of = bit(self, 4);
                let cf = bit(self, 8);
                let b = &mut self.b;
                match op {
                    Eq => b.ins().band_not(zf, sf),
                    Ne => {
                        let nz = b.ins().bnot(zf);
                        b.ins().bor(sf, nz)
                    }
                    Lt => {
                        let t = b.ins().band_not(sf, zf);
                        b.ins().bxor(t, of)
                    }
                    Ge => {
                        let t = b.ins().bxor(sf, of);
                        b.ins().bnot(t)
                    }
                    Le => {
                        let t = b.ins().bor(zf, of);
                        b.ins().bxor(sf, t)
                    }
                    Gt => {
                        let t = b.ins().bxor(sf, of);
                        let n = b.ins().bor(t, zf);
                        b.ins().bnot(n)
                    }
                    Nan => b.ins().band(sf, zf),
                    Leg => {
                        let t = b.ins().band(sf, zf);
                        b.ins().bnot(t)
                    }
                    Cf => cf,
                    Ncf => b.ins().bnot(cf),
                    Of => of,
                    Nof => b.ins().bnot(of),
                    Ab => b.ins().band_not(cf, zf),
                    Ble => {
                        let nc = b.ins().bnot(cf);
                        b.ins().bor(zf, nc)
                    }
                    Sf => sf,
                    Nsf => b.ins().bnot(sf),
                    Tr | Fl => unreachable!("handled above"),
                }
            }
        }
    }

    /// After an instruction that wrote a result, in a patch kernel: each per-patch result
    /// component that some invocation now holds differently from the shared value takes
    /// the highest such invocation's value, in every lane (`exec::lockstep::publish`).
    pub(super) fn publish_patch(&mut self) {
        if !self.variant.patch || self.shared.is_empty() {
            return;
        }
        let entry = self.entry_mask.expect("set by the prologue");
        let slot = match self.lane_slot {
            Some(s) => s,
            None => {
                let s = self.b.create_sized_stack_slot(ir::StackSlotData::new(
                    ir::StackSlotKind::ExplicitSlot,
                    (MAX_LANES * 4) as u32,
                    4,
                ));
                self.lane_slot = Some(s);
                s
            }
        };
        for (k, shared) in self.shared.clone() {
            let vars = self.outputs[k];
            for c in 0..4 {
                let sh = self.b.use_var(shared[c]);
                let shv = self.b.ins().splat(V, sh);
                let vals: Chunks = std::array::from_fn(|j| self.b.use_var(vars[c][j]));
                let differs: Chunks = std::array::from_fn(|j| {
                    let d = self.b.ins().icmp(IntCC::NotEqual, vals[j], shv);
                    self.b.ins().band(d, entry[j])
                });
                let bits = self.bits(&differs);
                let changed = self.b.ins().icmp_imm_s(IntCC::NotEqual, bits, 0);
                // The highest differing lane (lane 0 when none: its value is not used).
                let lz = self.b.ins().clz(bits);
                let k31 = self.b.ins().iconst(types::I32, 31);
                let high = self.b.ins().isub(k31, lz);
                let zero = self.b.ins().iconst(types::I32, 0);
                let lane = self.b.ins().select(changed, high, zero);
                for j in 0..CHUNKS {
                    self.b
                        .ins()
                        .stack_store(types::I64, vals[j], slot, 16 * j as i32);
                }
                let base = self.b.ins().stack_addr(types::I64, slot, 0);
                let off = self.b.ins().ishl_imm_u(lane, 2);
                let off = self.b.ins().uextend(types::I64, off);
                let addr = self.b.ins().iadd(base, off);
                let picked = self.b.ins().load(types::I32, mem(), addr, 0);
                let new = self.b.ins().select(changed, picked, sh);
                self.b.def_var(shared[c], new);
                let all = self.b.ins().uextend(types::I32, changed);
                let all = self.b.ins().ineg(all);
                let all = self.b.ins().splat(V, all);
                let newv = self.b.ins().splat(V, new);
                for j in 0..CHUNKS {
                    let r = self.select(all, newv, vals[j]);
                    self.b.def_var(vars[c][j], r);
                }
            }
        }
    }

    /// Go on in `next`, the only successor of the current block besides an exit: the
    /// condition-code sources of the current block stay valid there.
    pub(super) fn continue_in(&mut self, next: Block) {
        let cur = self.b.current_block();
        self.b.switch_to_block(next);
        for s in self.cc_src.iter_mut().flatten().flatten().flatten() {
            if Some(s.block) == cur {
                s.block = next;
            }
        }
    }

    /// Table X.16 applied to `flags(v, dtype)` (only the sign and zero flags set: the
    /// flags of every result the kernel writes itself), as one comparison of `v`: the
    /// same lane mask as `test_flags` of those flags.
    fn test_value(&mut self, op: CondOp, v: Value, dtype: DataType) -> Value {
        use CondOp::*;
        let float = dtype.is_float();
        let zero = self.splat(0);
        let f = |l: &mut Self, cc: FloatCC| l.fcmp(cc, v, zero);
        let i = |l: &mut Self, cc: IntCC| l.icmp0(cc, v);
        match op {
            Tr | Ncf | Nof | Ble => self.splat(u32::MAX),
            Fl | Cf | Of | Ab => zero,
            // Ordered comparisons: a NaN sets both flags, which fails each of these.
            Eq if float => f(self, FloatCC::Equal),
            Lt if float => f(self, FloatCC::LessThan),
            Ge if float => f(self, FloatCC::GreaterThanOrEqual),
            Le if float => f(self, FloatCC::LessThanOrEqual),
            Gt if float => f(self, FloatCC::GreaterThan),
            Nsf if float => f(self, FloatCC::GreaterThanOrEqual),
            Leg if float => f(self, FloatCC::Ordered),
            // A NaN passes these.
            Ne if float => f(self, FloatCC::NotEqual),
            Sf if float => f(self, FloatCC::UnorderedOrLessThan),
            Nan if float => f(self, FloatCC::Unordered),
            Eq => i(self, IntCC::Equal),
            Ne => i(self, IntCC::NotEqual),
            Lt | Sf => i(self, IntCC::SignedLessThan),
            Ge | Nsf => i(self, IntCC::SignedGreaterThanOrEqual),
            Le => i(self, IntCC::SignedLessThanOrEqual),
            Gt => i(self, IntCC::SignedGreaterThan),
            Nan => zero,
            Leg => self.splat(u32::MAX),
        }
    }

    /// `[comp]` lane masks of a condition test (after its swizzle).
    fn cond_test(&mut self, t: &CondTest) -> Reg {
        let regs = self.cc[(t.cc & 1) as usize];
        std::array::from_fn(|c| {
            let comp = (t.swizzle[c] & 3) as usize;
            let src = regs[comp];
            std::array::from_fn(|k| match self.cc_src[(t.cc & 1) as usize][comp][k] {
                Some(s) if self.b.current_block() == Some(s.block) => {
                    self.test_value(t.op, s.value, s.dtype)
                }
                _ => {
                    let f = self.b.use_var(src[k]);
                    self.test_flags(t.op, f)
                }
            })
        })
    }

    /// Lanes for which any component passes (all lanes when there is no test), within
    /// the current mask.
    fn cond_any(&mut self, t: &Option<CondTest>) -> Chunks {
        let m = self.mask_vals();
        let Some(t) = t else {
            return m;
        };
        let r = self.cond_test(t);
        let all = self.mask_all;
        std::array::from_fn(|k| {
            let a = self.b.ins().bor(r[0][k], r[1][k]);
            let b2 = self.b.ins().bor(r[2][k], r[3][k]);
            let any = self.b.ins().bor(a, b2);
            if all {
                any
            } else {
                self.b.ins().band(any, m[k])
            }
        })
    }

    /// Condition-code flags of a 32-bit result.
    fn flags(&mut self, v: Value, dtype: DataType) -> Value {
        let (neg, zero) = match dtype {
            DataType::F32 | DataType::F64 => {
                let z = self.splat(0);
                let nan = self.fcmp(FloatCC::Unordered, v, v);
                let lt = self.fcmp(FloatCC::LessThan, v, z);
                let eq = self.fcmp(FloatCC::Equal, v, z);
                (self.b.ins().bor(lt, nan), self.b.ins().bor(eq, nan))
            }
            _ => (
                self.icmp0(IntCC::SignedLessThan, v),
                self.icmp0(IntCC::Equal, v),
            ),
        };
        let one = self.splat(1);
        let two = self.splat(2);
        let s = self.b.ins().band(neg, one);
        let z = self.b.ins().band(zero, two);
        self.b.ins().bor(s, z)
    }

    // ---- results ----

    /// `.SAT` / `.SSAT` of an f32 result: NaN → lower bound, -0 → +0 for [0, 1].
    fn saturate(&mut self, v: Value, lo: f32) -> Value {
        let lo_v = self.splat(lo.to_bits());
        let one = self.splat(1.0f32.to_bits());
        // x > lo ? x : lo  (false for NaN, and for -0 against +0, which gives +0)
        let gt = self.fcmp(FloatCC::GreaterThan, v, lo_v);
        let r = self.select(gt, v, lo_v);
        let lt = self.fcmp(FloatCC::LessThan, r, one);
        self.select(lt, r, one)
    }

    fn enables(&mut self, inst: &Inst) -> [En; 4] {
        let Some(dst) = &inst.dst else {
            return [En::Off; 4];
        };
        let cond = dst.cond.as_ref().map(|t| self.cond_test(t));
        let mask = if self.mask_all {
            None
        } else {
            Some(self.mask_vals())
        };
        std::array::from_fn(|c| {
            if dst.mask & (1 << c) == 0 {
                return En::Off;
            }
            match (&cond, &mask) {
                (None, None) => En::All,
                (None, Some(m)) => En::Lanes(*m),
                (Some(t), None) => En::Lanes(t[c]),
                (Some(t), Some(m)) => {
                    En::Lanes(std::array::from_fn(|k| self.b.ins().band(t[c][k], m[k])))
                }
            }
        })
    }

    fn assign(&mut self, var: Variable, en: &En, k: usize, v: Value) {
        match en {
            En::Off => {}
            En::All => self.b.def_var(var, v),
            En::Lanes(m) => {
                let old = self.b.use_var(var);
                let r = self.select(m[k], v, old);
                self.b.def_var(var, r);
            }
        }
    }

    /// Finish and store a 32-bit result of type `rtype` (`alu::write32` of the
    /// interpreter).
    fn write(&mut self, inst: &Inst, rtype: DataType, mut v: Reg) {
        let Some(dst) = &inst.dst else {
            return;
        };
        if rtype == DataType::F32 {
            match inst.sat {
                Saturate::None => {}
                Saturate::Sat => {
                    v = self.map1(&v, |l, x| l.saturate(x, 0.0));
                }
                Saturate::SSat => {
                    v = self.map1(&v, |l, x| l.saturate(x, -1.0));
                }
            }
        }
        let en = self.enables(inst);
        if let Some(cc) = inst.cc_update {
            let regs = self.cc[(cc & 1) as usize];
            for c in 0..4 {
                for k in 0..CHUNKS {
                    if matches!(en[c], En::Off) {
                        continue;
                    }
                    let f = self.flags(v[c][k], rtype);
                    self.assign(regs[c][k], &en[c], k, f);
                    self.cc_src[(cc & 1) as usize][c][k] = match en[c] {
                        En::All => self.b.current_block().map(|block| CcSource {
                            block,
                            value: v[c][k],
                            dtype: rtype,
                        }),
                        _ => None,
                    };
                }
            }
        }
        let Index::Direct(i) = dst.index else {
            unreachable!("scan::native admits direct destinations only")
        };
        let vars = *self
            .reg_vars(dst.file, i as usize)
            .expect("scan::native checked the destination");
        for c in 0..4 {
            for k in 0..CHUNKS {
                self.assign(vars[c][k], &en[c], k, v[c][k]);
            }
        }
    }

    // ---- instructions ----

    fn kil(&mut self, inst: &Inst) {
        let m = self.mask_vals();
        let killed: Chunks = match inst.srcs.first() {
            Some(s) => {
                let dt = inst.dtype;
                let v = self.load(s, dt);
                let zero = self.splat(0);
                std::array::from_fn(|k| {
                    let negs: Vec<Value> = (0..4)
                        .map(|c| match dt {
                            DataType::F32 | DataType::F64 => {
                                self.fcmp(FloatCC::LessThan, v[c][k], zero)
                            }
                            DataType::S32 | DataType::S64 => {
                                self.icmp0(IntCC::SignedLessThan, v[c][k])
                            }
                            DataType::U32 | DataType::U64 => zero,
                        })
                        .collect();
                    let a = self.b.ins().bor(negs[0], negs[1]);
                    let b2 = self.b.ins().bor(negs[2], negs[3]);
                    let any = self.b.ins().bor(a, b2);
                    self.b.ins().band(any, m[k])
                })
            }
            None => self.cond_any(&flow_cond(inst)),
        };
        if self.prog.stage != Stage::Fragment {
            return;
        }
        self.flush();
        let bits = self.bits(&killed);
        let kill = self.b.use_var(self.kill);
        let kill = self.b.ins().bor(kill, bits);
        self.b.def_var(self.kill, kill);
        self.remove_lanes(&killed);
    }

    /// Call the entry point stored at `field` of the frame with `(frame, pc, args...)`;
    /// a non-zero status leaves the kernel through the failure exit.
    fn call_entry(&mut self, field: usize, sig: ir::SigRef, pc: usize, args: &[Value]) {
        let f = self
            .b
            .ins()
            .load(types::I64, mem_ro(), self.frame, field as i32);
        let pc_v = self.b.ins().iconst(types::I32, pc as i64);
        let mut all = vec![self.frame, pc_v];
        all.extend_from_slice(args);
        let call = self.b.ins().call_indirect(sig, f, &all);
        let status = self.b.inst_results(call)[0];
        let next = self.b.create_block();
        self.b.ins().brif(status, self.failed, &[], next, &[]);
        self.continue_in(next);
    }

    /// Run `inst` in the interpreter for the lanes of the mask.
    fn step(&mut self, pc: usize, inst: &Inst) {
        self.flush();
        let t = Touch::of(inst);
        let temps = self.frame_ptr(offset_of!(Frame, temps));
        let outputs = self.frame_ptr(offset_of!(Frame, outputs));
        let address = self.frame_ptr(offset_of!(Frame, address));
        let regs = |list: &[(u32, u32)], n: usize| -> Vec<usize> {
            let mut v: Vec<usize> = list
                .iter()
                .flat_map(|&(s, l)| s as usize..(s as usize).saturating_add(l as usize))
                .filter(|&r| r < n)
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let nt = self.temps.len();
        let no = self.outputs.len();
        let read_t = regs(&t.temps, nt);
        let read_o = if t.all_outputs {
            (0..no).collect()
        } else {
            regs(&t.outputs, no)
        };
        for &r in &read_t {
            self.store_reg(temps, |s| &s.temps, r);
        }
        for &r in &read_o {
            self.store_reg(outputs, |s| &s.outputs, r);
        }
        if t.address {
            for r in 0..self.address.len() {
                self.store_reg(address, |s| &s.address, r);
            }
        }
        if t.cc {
            self.store_cc();
        }
        if self.prog.instructions.iter().any(|i| i.op == Opcode::Loop) {
            let lc = self.b.use_var(self.loop_counter);
            self.b.ins().store(
                mem(),
                lc,
                self.frame,
                offset_of!(Frame, loop_counter) as i32,
            );
        }
        let mask = self.mask_bits();
        self.call_entry(offset_of!(Frame, step), self.step_sig, pc, &[mask]);
        for r in regs(&t.temps_written, nt) {
            self.load_reg(temps, |s| &s.temps, r);
        }
        for r in regs(&t.outputs_written, no) {
            self.load_reg(outputs, |s| &s.outputs, r);
        }
        if t.address_written {
            for r in 0..self.address.len() {
                self.load_reg(address, |s| &s.address, r);
            }
        }
        if t.cc {
            self.load_cc();
        }
    }

    /// A texture instruction: one call into the sampler (`native::texture_entry`) with
    /// the operands in a stack slot as SoA, the result written like any other. A
    /// coordinate that is an input register as it stands is not copied: the entry reads
    /// it where the lane state holds it. Copied, its 16-byte stores were read back by the
    /// sampler's 32-byte loads, which do not forward from them.
    fn texture(&mut self, pc: usize, inst: &Inst) {
        self.flush();
        let op = texture::tex_op(inst.op).expect("scan::native_texture checked the opcode");
        let (coord_ty, extra_ty) = texture::operand_types(op);
        const VEC4: u32 = (4 * MAX_LANES * 4) as u32;
        let slot = self.b.create_sized_stack_slot(ir::StackSlotData::new(
            ir::StackSlotKind::ExplicitSlot,
            4 * VEC4,
            4,
        ));
        let in_place = inst.srcs.first().and_then(|s| self.input_in_place(s));
        for (i, s) in inst.srcs.iter().enumerate() {
            if i == 0 && in_place.is_some() {
                continue;
            }
            let v = self.load(s, if i == 0 { coord_ty } else { extra_ty });
            for c in 0..4 {
                for k in 0..CHUNKS {
                    let off = i as u32 * VEC4 + Self::reg_offset(0, c, k) as u32;
                    self.b
                        .ins()
                        .stack_store(types::I64, v[c][k], slot, off as i32);
                }
            }
        }
        let mask = self.mask_bits();
        let io = self.b.ins().stack_addr(types::I64, slot, 0);
        let coord = in_place.unwrap_or(io);
        self.call_entry(
            offset_of!(Frame, texture),
            self.texture_sig,
            pc,
            &[mask, io, coord],
        );
        let out: Reg = std::array::from_fn(|c| {
            std::array::from_fn(|k| {
                let off = 3 * VEC4 + Self::reg_offset(0, c, k) as u32;
                self.b.ins().stack_load(types::I64, V, slot, off as i32)
            })
        });
        self.write(inst, texture::result_type(op, inst.dtype), out);
    }

    /// The address of input operand `s`'s four components in the lane state, when `s`
    /// reads them as they are (no swizzle, sign or absolute value) and nothing writes
    /// inputs while the kernel runs (a lock-step kernel's output patch does).
    fn input_in_place(&mut self, s: &Src) -> Option<Value> {
        let (File::Input, Index::Direct(i)) = (s.file, s.index) else {
            return None;
        };
        let i = i as usize;
        let plain = s.ext_swizzle.is_none()
            && !s.abs
            && !s.negate
            && (0..4).all(|c| s.swizzle[c] & 3 == c as u8);
        if !plain || i >= self.prog.inputs.len() {
            return None;
        }
        let (base, slot, published) = self.input_at(s, i);
        if published {
            return None;
        }
        Some(
            self.b
                .ins()
                .iadd_imm_s(base, i64::from(Self::reg_offset(slot, 0, 0))),
        )
    }

    /// Where input operand `s` (register `i`, vertex checked direct by
    /// `scan::src_native`) lives: the lane state's inputs, its slot there, and whether
    /// it is the output patch a lock-step kernel publishes (it changes between the
    /// kernel's calls).
    fn input_at(&mut self, s: &Src, i: usize) -> (Value, usize, bool) {
        let vertex = match s.vertex {
            Some(Index::Direct(v)) => v as usize,
            _ => 0,
        };
        self.needs.vertices = self.needs.vertices.max(vertex + 1);
        let slot = vertex * self.prog.inputs.len() + i;
        let base = self.frame_ptr(offset_of!(Frame, inputs));
        let published = self.variant.lockstep
            && self
                .prog
                .inputs
                .get(i)
                .is_some_and(|inp| scan::is_output_patch(&inp.binding));
        (base, slot, published)
    }

    /// One component of every lane through `math::lanes` (glemu-math's 16-lane forms of
    /// the ports the interpreter calls, so the bits are its own): `x` and, for POW, `y` go through a stack slot; the
    /// result comes back in `x`'s place.
    fn math(&mut self, op: math::Op, x: &Chunks, y: Option<&Chunks>) -> Chunks {
        const LANES: u32 = (MAX_LANES * 4) as u32;
        let slot = match self.math_slot {
            Some(s) => s,
            None => {
                let s = self.b.create_sized_stack_slot(ir::StackSlotData::new(
                    ir::StackSlotKind::ExplicitSlot,
                    2 * LANES,
                    4,
                ));
                self.math_slot = Some(s);
                s
            }
        };
        for (i, v) in std::iter::once(x).chain(y).enumerate() {
            for k in 0..CHUNKS {
                let off = i as u32 * LANES + 16 * k as u32;
                self.b.ins().stack_store(types::I64, v[k], slot, off as i32);
            }
        }
        let io = self.b.ins().stack_addr(types::I64, slot, 0);
        let f = self.b.ins().iconst(
            types::I64,
            super::native::math_entry as *const () as usize as i64,
        );
        let op = self.b.ins().iconst(types::I32, op as i64);
        self.b.ins().call_indirect(self.math_sig, f, &[io, op]);
        std::array::from_fn(|k| self.b.ins().stack_load(types::I64, V, slot, 16 * k as i32))
    }

    fn native(&mut self, inst: &Inst) {
        use Opcode::*;
        let dt = inst.dtype;
        let load_ty = match inst.op {
            Round | Trunc | Flr | Ceil => DataType::F32,
            _ => dt,
        };
        let srcs: Vec<Reg> = inst.srcs.iter().map(|s| self.load(s, load_ty)).collect();
        let (a, b, c) = (
            srcs.first().copied(),
            srcs.get(1).copied(),
            srcs.get(2).copied(),
        );
        let a = || a.expect("scan::native checked the operand count");
        let b = || b.expect("scan::native checked the operand count");
        let c = || c.expect("scan::native checked the operand count");
        let float = dt.is_float();
        let r: Reg = match inst.op {
            Mov | Swz => a(),
            Abs => match dt {
                DataType::S32 => self.map1(&a(), |l, x| l.b.ins().iabs(x)),
                DataType::U32 => a(),
                _ => {
                    let m = self.splat(0x7fff_ffff);
                    self.map1(&a(), |l, x| l.b.ins().band(x, m))
                }
            },
            Add if float => self.map2(&a(), &b(), Self::fadd),
            Sub if float => self.map2(&a(), &b(), Self::fsub),
            Mul if float => self.map2(&a(), &b(), Self::fmul),
            Add => self.map2(&a(), &b(), |l, x, y| l.b.ins().iadd(x, y)),
            Sub => self.map2(&a(), &b(), |l, x, y| l.b.ins().isub(x, y)),
            Mul => self.map2(&a(), &b(), |l, x, y| l.b.ins().imul(x, y)),
            Mad if float => self.map3(&a(), &b(), &c(), |l, x, y, z| {
                let p = l.fmul(x, y);
                l.fadd(p, z)
            }),
            Mad => self.map3(&a(), &b(), &c(), |l, x, y, z| {
                let p = l.b.ins().imul(x, y);
                l.b.ins().iadd(p, z)
            }),
            Min | Max => {
                let max = inst.op == Max;
                match dt {
                    DataType::S32 if max => self.map2(&a(), &b(), |l, x, y| l.b.ins().smax(x, y)),
                    DataType::S32 => self.map2(&a(), &b(), |l, x, y| l.b.ins().smin(x, y)),
                    DataType::U32 if max => self.map2(&a(), &b(), |l, x, y| l.b.ins().umax(x, y)),
                    DataType::U32 => self.map2(&a(), &b(), |l, x, y| l.b.ins().umin(x, y)),
                    _ => self.map2(&a(), &b(), |l, x, y| l.min_max(x, y, max)),
                }
            }
            Cmp => {
                let zero = self.splat(0);
                self.map3(&a(), &b(), &c(), |l, x, y, z| {
                    let neg = match dt {
                        DataType::S32 => l.icmp0(IntCC::SignedLessThan, x),
                        DataType::U32 => zero,
                        _ => l.fcmp(FloatCC::LessThan, x, zero),
                    };
                    l.select(neg, y, z)
                })
            }
            Lrp => {
                let one = self.splat(1.0f32.to_bits());
                self.map3(&a(), &b(), &c(), |l, t, x, y| {
                    let tx = l.fmul(t, x);
                    let u = l.fsub(one, t);
                    let uy = l.fmul(u, y);
                    l.fadd(tx, uy)
                })
            }
            Dp2 => self.dot(&a(), &b(), 2, false),
            Dp3 => self.dot(&a(), &b(), 3, false),
            Dp4 => self.dot(&a(), &b(), 4, false),
            Dph => self.dot(&a(), &b(), 3, true),
            Dp2a => {
                let d = self.dot(&a(), &b(), 2, false);
                let cx = c()[0];
                let x: Chunks = std::array::from_fn(|k| self.fadd(d[0][k], cx[k]));
                [x; 4]
            }
            Dst => {
                let (a, b) = (a(), b());
                let one = self.splat(1.0f32.to_bits());
                let y: Chunks = std::array::from_fn(|k| self.fmul(a[1][k], b[1][k]));
                [[one; CHUNKS], y, a[2], b[3]]
            }
            Xpd => {
                let (a, b) = (a(), b());
                let cross = |l: &mut Self, i: usize, j: usize| -> Chunks {
                    std::array::from_fn(|k| {
                        let p = l.fmul(a[i][k], b[j][k]);
                        let q = l.fmul(a[j][k], b[i][k]);
                        l.fsub(p, q)
                    })
                };
                let x = cross(self, 1, 2);
                let y = cross(self, 2, 0);
                let z = cross(self, 0, 1);
                let w = self.splat(0);
                [x, y, z, [w; CHUNKS]]
            }
            Nrm => {
                let a = a();
                let one = self.splat(1.0f32.to_bits());
                let mut r = a;
                for k in 0..CHUNKS {
                    let xx = self.fmul(a[0][k], a[0][k]);
                    let yy = self.fmul(a[1][k], a[1][k]);
                    let zz = self.fmul(a[2][k], a[2][k]);
                    let s = self.fadd(xx, yy);
                    let s = self.fadd(s, zz);
                    let s = self.funary(s, |b, x| b.ins().sqrt(x));
                    let s = self.fdiv(one, s);
                    for comp in 0..3 {
                        r[comp][k] = self.fmul(a[comp][k], s);
                    }
                }
                r
            }
            Div => {
                let s = Self::xxxx(&b());
                self.map2(&a(), &s, Self::fdiv)
            }
            Rcp => {
                let one = self.splat(1.0f32.to_bits());
                let x: Chunks = std::array::from_fn(|k| self.fdiv(one, a()[0][k]));
                [x; 4]
            }
            Rsq => {
                let abs = legacy_abs(self.prog.dialect);
                let one = self.splat(1.0f32.to_bits());
                let m = self.splat(0x7fff_ffff);
                let x: Chunks = std::array::from_fn(|k| {
                    let v = a()[0][k];
                    let v = if abs { self.b.ins().band(v, m) } else { v };
                    let s = self.funary(v, |b, x| b.ins().sqrt(x));
                    self.fdiv(one, s)
                });
                [x; 4]
            }
            Sin | Cos | Ex2 => {
                let op = match inst.op {
                    Sin => math::Op::Sin,
                    Cos => math::Op::Cos,
                    _ => math::Op::Ex2,
                };
                [self.math(op, &a()[0], None); 4]
            }
            Lg2 => {
                let mut x = a()[0];
                if legacy_abs(self.prog.dialect) {
                    let m = self.splat(0x7fff_ffff);
                    x = x.map(|v| self.b.ins().band(v, m));
                }
                [self.math(math::Op::Lg2, &x, None); 4]
            }
            Pow => [self.math(math::Op::Pow, &a()[0], Some(&b()[0])); 4],
            Scs => {
                let x = a()[0];
                let zero = [self.splat(0); CHUNKS];
                let cos = self.math(math::Op::Cos, &x, None);
                let sin = self.math(math::Op::Sin, &x, None);
                [cos, sin, zero, zero]
            }
            Frc => {
                let one = self.splat(1.0f32.to_bits());
                let below = self.splat(0x3f7f_ffff);
                self.map1(&a(), |l, x| {
                    let fl = l.funary(x, |b, v| b.ins().floor(v));
                    let r = l.fsub(x, fl);
                    let ge = l.fcmp(FloatCC::GreaterThanOrEqual, r, one);
                    l.select(ge, below, r)
                })
            }
            Flr | Ceil | Round | Trunc => {
                let f: fn(&mut FunctionBuilder, Value) -> Value = match inst.op {
                    Flr => |b, v| b.ins().floor(v),
                    Ceil => |b, v| b.ins().ceil(v),
                    Round => |b, v| b.ins().nearest(v),
                    _ => |b, v| b.ins().trunc(v),
                };
                self.map1(&a(), |l, x| {
                    let fx = l.as_f32x4(x);
                    let r = f(&mut l.b, fx);
                    match dt {
                        DataType::S32 => l.b.ins().fcvt_to_sint_sat(V, r),
                        DataType::U32 => l.b.ins().fcvt_to_uint_sat(V, r),
                        _ => {
                            // A NaN comes back unchanged (`float::round_keep_nan`).
                            let r = l.as_bits(r);
                            let nan = l.fcmp(FloatCC::Unordered, x, x);
                            l.select(nan, x, r)
                        }
                    }
                })
            }
            Ssg => match dt {
                DataType::S32 => {
                    let one = self.splat(1);
                    self.map1(&a(), |l, x| {
                        // (x > 0) - (x < 0) with masks: -gt + lt
                        let gt = l.icmp0(IntCC::SignedGreaterThan, x);
                        let lt = l.icmp0(IntCC::SignedLessThan, x);
                        let p = l.b.ins().band(gt, one);
                        l.b.ins().bor(p, lt)
                    })
                }
                DataType::U32 => {
                    let one = self.splat(1);
                    self.map1(&a(), |l, x| {
                        let nz = l.icmp0(IntCC::NotEqual, x);
                        l.b.ins().band(nz, one)
                    })
                }
                _ => {
                    let zero = self.splat(0);
                    let one = self.splat(1.0f32.to_bits());
                    let mone = self.splat((-1.0f32).to_bits());
                    self.map1(&a(), |l, x| {
                        let gt = l.fcmp(FloatCC::GreaterThan, x, zero);
                        let lt = l.fcmp(FloatCC::LessThan, x, zero);
                        let r = l.select(lt, mone, zero);
                        l.select(gt, one, r)
                    })
                }
            },
            Seq | Sne | Slt | Sle | Sgt | Sge => {
                let t = self.splat(truth_bits(dt));
                let op = inst.op;
                self.map2(&a(), &b(), |l, x, y| {
                    let m = match dt {
                        DataType::S32 | DataType::U32 => {
                            let s = dt == DataType::S32;
                            let cc = match op {
                                Seq => IntCC::Equal,
                                Sne => IntCC::NotEqual,
                                Slt if s => IntCC::SignedLessThan,
                                Sle if s => IntCC::SignedLessThanOrEqual,
                                Sgt if s => IntCC::SignedGreaterThan,
                                Sge if s => IntCC::SignedGreaterThanOrEqual,
                                Slt => IntCC::UnsignedLessThan,
                                Sle => IntCC::UnsignedLessThanOrEqual,
                                Sgt => IntCC::UnsignedGreaterThan,
                                _ => IntCC::UnsignedGreaterThanOrEqual,
                            };
                            l.b.ins().icmp(cc, x, y)
                        }
                        _ => {
                            let cc = match op {
                                Seq => FloatCC::Equal,
                                // Unordered counts as "not equal".
                                Sne => FloatCC::NotEqual,
                                Slt => FloatCC::LessThan,
                                Sle => FloatCC::LessThanOrEqual,
                                Sgt => FloatCC::GreaterThan,
                                _ => FloatCC::GreaterThanOrEqual,
                            };
                            l.fcmp(cc, x, y)
                        }
                    };
                    l.b.ins().band(m, t)
                })
            }
            Sfl => self.splat_reg([0; 4]),
            Str => {
                let t = truth_bits(dt);
                self.splat_reg([t; 4])
            }
            Ddx | Ddy if self.prog.stage != Stage::Fragment => self.splat_reg([0; 4]),
            Ddx | Ddy => {
                let ddy = inst.op == Ddy;
                self.map1(&a(), |l, x| l.derivative(x, ddy))
            }
            And => self.map2(&a(), &b(), |l, x, y| l.b.ins().band(x, y)),
            Or => self.map2(&a(), &b(), |l, x, y| l.b.ins().bor(x, y)),
            Xor => self.map2(&a(), &b(), |l, x, y| l.b.ins().bxor(x, y)),
            Not => self.map1(&a(), |l, x| l.b.ins().bnot(x)),
            _ => unreachable!("scan::native admits only the opcodes above"),
        };
        self.write(inst, dt, r);
    }

    /// MIN/MAX with the interpreter's rules: a NaN operand yields the other operand, and
    /// -0 < +0. Built on SSE's MINPS/MAXPS (`x < y ? x : y`, `x > y ? x : y`), which
    /// give the second operand for a NaN or a tie: `u` = op(y, x) is right when y is a
    /// NaN and for every other pair but ±0 ties, where the bits ORed (MIN: -0 if either
    /// is) or ANDed (MAX: +0 if either is) decide (equal non-zero values have equal
    /// bits), and y itself when x is a NaN. Six operations instead of thirteen.
    fn min_max(&mut self, x: Value, y: Value, max: bool) -> Value {
        let u = self.sse_min_max(y, x, max);
        let x_nan = self.fcmp(FloatCC::Unordered, x, x);
        let eq = self.fcmp(FloatCC::Equal, x, y);
        let tie = if max {
            self.b.ins().band(x, y)
        } else {
            self.b.ins().bor(x, y)
        };
        let r = self.select(eq, tie, u);
        self.select(x_nan, y, r)
    }

    /// `x < y ? x : y` (MIN) or `y < x ? x : y` (MAX) on f32 lanes, as bits: the shape
    /// Cranelift's x64 back end emits as one MINPS / MAXPS.
    fn sse_min_max(&mut self, x: Value, y: Value, max: bool) -> Value {
        let (fx, fy) = (self.as_f32x4(x), self.as_f32x4(y));
        let m = if max {
            self.b.ins().fcmp(FloatCC::LessThan, fy, fx)
        } else {
            self.b.ins().fcmp(FloatCC::LessThan, fx, fy)
        };
        let m = self.b.ins().bitcast(F, le(), m);
        let r = self.b.ins().bitselect(m, fx, fy);
        self.as_bits(r)
    }

    /// `0 + a0*b0 + a1*b1 ...` in this order (the sum starts at +0, so -0 products give
    /// +0 as in the interpreter), replicated.
    fn dot(&mut self, a: &Reg, b: &Reg, n: usize, homogeneous: bool) -> Reg {
        let zero = self.splat(0);
        let x: Chunks = std::array::from_fn(|k| {
            let mut acc = zero;
            for c in 0..n {
                let p = self.fmul(a[c][k], b[c][k]);
                acc = self.fadd(acc, p);
            }
            if homogeneous {
                acc = self.fadd(acc, b[3][k]);
            }
            acc
        });
        [x; 4]
    }

    /// Fine derivative within each 2×2 quad (one chunk): lanes (x,y), (x+1,y), (x,y+1),
    /// (x+1,y+1).
    fn derivative(&mut self, v: Value, ddy: bool) -> Value {
        let (hi, lo): ([u8; 4], [u8; 4]) = if ddy {
            ([2, 3, 2, 3], [0, 1, 0, 1])
        } else {
            ([1, 1, 3, 3], [0, 0, 2, 2])
        };
        let h = self.lane_shuffle(v, hi);
        let l = self.lane_shuffle(v, lo);
        self.fsub(h, l)
    }

    fn lane_shuffle(&mut self, v: Value, lanes: [u8; 4]) -> Value {
        let bytes: Vec<u8> = lanes
            .iter()
            .flat_map(|&l| (0..4).map(move |i| l * 4 + i))
            .collect();
        let imm = self.b.func.dfg.immediates.push(ConstantData::from(bytes));
        let x = self.b.ins().bitcast(types::I8X16, le(), v);
        let s = self.b.ins().shuffle(x, x, imm);
        self.b.ins().bitcast(V, le(), s)
    }
}

/// TRUE of the "set on" instructions for a type.
fn truth_bits(dt: DataType) -> u32 {
    if dt.is_float() {
        1.0f32.to_bits()
    } else {
        u32::MAX
    }
}

/// The legacy dialects take |x| in RSQ and LG2 (as `alu::legacy_abs`).
fn legacy_abs(d: Dialect) -> bool {
    matches!(
        d,
        Dialect::Arb | Dialect::Vp10 | Dialect::Vp11 | Dialect::Vp20 | Dialect::Vsp10
    )
}
