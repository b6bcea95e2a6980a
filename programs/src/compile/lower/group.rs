//! Compute work groups: a batch's kernel suspends at each BAR and resumes there.
//!
//! `Executor::run_group` runs every batch of a group until it finishes or its next lane
//! group is at a `BAR`, then steps the waiting batches past it and starts the next phase.
//! A structured kernel cannot return from inside its loops and blocks and come back, so
//! at a BAR (with lanes) it saves every Cranelift variable declared so far (registers,
//! masks, group steps, counters, and the bookkeeping of every open IF, loop and call,
//! which `flow.rs` keeps in variables in group kernels: [`Held`]) into the group record,
//! notes which BAR it stopped at, and returns `BARRIER`. The next call finds that BAR in
//! the record, reloads every variable and goes on after it, so the rest of the program
//! runs as if it had never stopped. The record's header also gives the host the BAR's pc
//! and the group's steps, for the budget and interrupt checks the interpreter makes when
//! it steps a batch past a barrier (`exec/group.rs`).

use super::*;
use crate::compile::frame::{ASK_INTERRUPT, BARRIER, INTERRUPTED, YIELD};
use crate::exec::INTERRUPT_STEPS;
use cranelift_codegen::entity::EntityRef;
use cranelift_codegen::ir::BlockArg;

/// The header of a group record (slot 0): which BAR the kernel stopped at (1-based; 0 =
/// not started), its pc, and the running lane group's steps before it.
pub(crate) const RESUME_AT: i32 = 0;
pub(crate) const BAR_PC: i32 = 4;
pub(crate) const BAR_STEPS: i32 = 8;
/// Bytes of one slot of a group record.
pub(crate) const SLOT: usize = 16;

/// A group kernel's resumption points.
pub(crate) struct Resume {
    /// The group record (second argument).
    record: Value,
    /// The BAR the record says to resume at (header), read on entry.
    at: Value,
    /// Where an entry with a non-zero `at` goes.
    dispatch: Block,
    /// Per BAR, the block that reloads the variables and goes on after it.
    bars: Vec<Block>,
    /// `(pc, steps)` parameters of the block that reports an interrupted run.
    interrupted: Block,
}

/// Why a kernel suspends.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Stop {
    /// At a BAR of a work group: the call that resumes counts it.
    Bar,
    /// At a lock-step point of a control patch (`Variant::lockstep`): the results are
    /// stored into the lane state for the host to publish, and reloaded on resumption
    /// (publishing may have changed the per-patch ones).
    Yield,
}

/// A value computed before a nested region and used after it (or inside it, after a BAR).
/// In group and lock-step kernels a region may suspend and resume in a block that the
/// value's definition does not dominate, so it is kept in a variable (which a suspension
/// saves); elsewhere it stays a plain value, as before.
#[derive(Copy, Clone)]
pub(crate) enum Held {
    Value(Value),
    Var(Variable),
}

impl<'a, 'f> Lower<'a, 'f> {
    /// Keep `v` for use after a nested region.
    pub(super) fn hold(&mut self, v: Value) -> Held {
        if !(self.variant.group || self.variant.lockstep) {
            return Held::Value(v);
        }
        let ty = self.b.func.dfg.value_type(v);
        let var = self.b.declare_var(ty);
        self.b.def_var(var, v);
        Held::Var(var)
    }

    /// The value kept by [`Lower::hold`].
    pub(super) fn held(&mut self, h: Held) -> Value {
        match h {
            Held::Value(v) => v,
            Held::Var(var) => self.b.use_var(var),
        }
    }

    /// Group kernels, at the start of the body: an entry whose record names a BAR goes
    /// to that BAR's resumption (made by `barrier`, dispatched in `group_exits`).
    pub(super) fn group_entry(&mut self) {
        let Some(entry) = self.b.func.layout.entry_block() else {
            return;
        };
        let record = self.b.func.dfg.block_params(entry)[1];
        let at = self.b.ins().load(types::I32, mem(), record, RESUME_AT);
        let dispatch = self.b.create_block();
        self.b.set_cold_block(dispatch);
        let interrupted = self.b.create_block();
        self.b.append_block_param(interrupted, types::I32);
        self.b.set_cold_block(interrupted);
        let start = self.b.create_block();
        self.b.ins().brif(at, dispatch, &[], start, &[]);
        self.b.switch_to_block(start);
        self.group = Some(Resume {
            record,
            at,
            dispatch,
            bars: Vec::new(),
            interrupted,
        });
    }

    /// BAR at `pc` in a group kernel: the running lanes (if any) suspend here; the call
    /// that resumes them counts the BAR (the host has checked its budget and interrupt,
    /// in the interpreter's order) and goes on.
    pub(super) fn barrier(&mut self, pc: usize) {
        self.suspend(pc, Stop::Bar);
    }

    /// In a lock-step kernel, the running lanes (if any) suspend before the instruction
    /// at `pc`; elsewhere nothing.
    pub(super) fn yield_point(&mut self, pc: usize) {
        if self.variant.lockstep {
            self.suspend(pc, Stop::Yield);
        }
    }

    fn suspend(&mut self, pc: usize, stop: Stop) {
        self.flush();
        let Some(record) = self.group.as_ref().map(|g| g.record) else {
            return;
        };
        let bits = self.mask_bits();
        let suspend = self.b.create_block();
        let go_on = self.b.create_block();
        self.b.ins().brif(bits, suspend, &[], go_on, &[]);

        // Every variable declared so far, in slots 1.. (a variable never defined on the
        // way here reads zero).
        self.b.switch_to_block(suspend);
        let count = self.b.declare_var(types::I8).index();
        let mut types_of = Vec::with_capacity(count);
        for i in 0..count {
            let v = self.b.use_var(Variable::from_u32(i as u32));
            types_of.push(self.b.func.dfg.value_type(v));
            self.b
                .ins()
                .store(mem(), v, record, (SLOT * (i + 1)) as i32);
        }
        self.needs.saved = self.needs.saved.max(count + 1);
        if stop == Stop::Yield {
            self.store_file(offset_of!(Frame, outputs), |s| &s.outputs);
        }
        let mut position: smallvec::SmallVec<[u32; 4]> =
            self.calls.iter().map(|c| c.site).collect();
        position.push(pc as u32);
        self.needs.positions.push(position);
        let resume = self.needs.positions.len();
        let at = self.b.ins().iconst(types::I32, resume as i64);
        self.b.ins().store(mem(), at, record, RESUME_AT);
        let pc_v = self.b.ins().iconst(types::I32, pc as i64);
        self.b.ins().store(mem(), pc_v, record, BAR_PC);
        let s = self.b.use_var(self.steps);
        self.b.ins().store(mem(), s, record, BAR_STEPS);
        let status = if stop == Stop::Bar { BARRIER } else { YIELD };
        let st = self.b.ins().iconst(types::I32, status as i64);
        self.b.ins().return_(&[st]);

        let back = self.b.create_block();
        if let Some(g) = self.group.as_mut() {
            g.bars.push(back);
        }
        self.b.switch_to_block(back);
        for (i, ty) in types_of.into_iter().enumerate() {
            let v = self
                .b
                .ins()
                .load(ty, mem(), record, (SLOT * (i + 1)) as i32);
            self.b.def_var(Variable::from_u32(i as u32), v);
        }
        if stop == Stop::Bar {
            // The BAR itself, for the lanes that waited at it.
            let s = self.b.use_var(self.steps);
            let s = self.b.ins().iadd_imm_s(s, 1);
            self.b.def_var(self.steps, s);
            self.pending += 1;
            self.flush();
        } else {
            let base = self.frame_ptr(offset_of!(Frame, outputs));
            for r in 0..self.outputs.len() {
                self.load_reg(base, |s| &s.outputs, r);
            }
        }
        self.b.ins().jump(go_on, &[]);
        self.b.switch_to_block(go_on);
    }

    /// The group kernel's cold exits: the dispatch of a resuming entry to its BAR, and
    /// the report of an interrupted run.
    pub(super) fn group_exits(&mut self) {
        let Some(g) = self.group.take() else {
            return;
        };
        self.b.switch_to_block(g.dispatch);
        for (k, &bar) in g.bars.iter().enumerate() {
            let is = self.b.ins().icmp_imm_s(IntCC::Equal, g.at, (k + 1) as i64);
            let next = self.b.create_block();
            self.b.ins().brif(is, bar, &[], next, &[]);
            self.b.switch_to_block(next);
        }
        // A record this kernel did not write.
        self.b.ins().jump(self.failed, &[]);
        self.b.switch_to_block(g.interrupted);
        let pc = self.b.block_params(g.interrupted)[0];
        self.b
            .ins()
            .store(mem(), pc, self.frame, offset_of!(Frame, error_pc) as i32);
        let st = self.b.ins().iconst(types::I32, INTERRUPTED as i64);
        self.b.ins().return_(&[st]);
    }

    /// [`Lower::charge`] in a group kernel: besides the budget, the interpreter asks the
    /// environment whether the run was interrupted each time a group's steps reach a
    /// multiple of `INTERRUPT_STEPS`; the kernel asks when a charge crosses one, and
    /// reports the instruction at which the interpreter would have stopped; `next` goes
    /// on.
    pub(super) fn charge_group(
        &mut self,
        first: usize,
        s: Value,
        ns: Value,
        over: Value,
        next: Block,
    ) {
        let interrupted = self.group.as_ref().map(|g| g.interrupted);
        let Some(interrupted) = interrupted else {
            return;
        };
        let from = self.b.current_block();
        let first_v = self.b.ins().iconst(types::I32, first as i64);
        let x = self.b.ins().bxor(s, ns);
        let crossed =
            self.b
                .ins()
                .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, x, INTERRUPT_STEPS as i64);
        let stop = self.b.ins().bor(over, crossed);
        let check = self.b.create_block();
        self.b.set_cold_block(check);
        self.b.ins().brif(stop, check, &[], next, &[]);
        self.b.switch_to_block(check);
        // The instruction whose step reaches the multiple (`ki`), and the one that exceeds
        // the budget (`kb`, when `over`): the interpreter checks the budget first.
        let rem = self.b.ins().band_imm_u(s, (INTERRUPT_STEPS - 1) as i64);
        let last = self
            .b
            .ins()
            .iconst(types::I64, (INTERRUPT_STEPS - 1) as i64);
        let ki = self.b.ins().isub(last, rem);
        let budget = self.b.ins().load(
            types::I64,
            mem_ro(),
            self.frame,
            offset_of!(Frame, budget) as i32,
        );
        let kb = self.b.ins().isub(budget, s);
        let first_budget = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, ki, kb);
        let budget_first = self.b.ins().band(over, first_budget);
        let ask_blk = self.b.create_block();
        let budget_blk = self.b.create_block();
        let ask = self.b.ins().band_not(crossed, budget_first);
        self.b.ins().brif(ask, ask_blk, &[], budget_blk, &[]);
        self.b.switch_to_block(ask_blk);
        let f = self.b.ins().load(
            types::I64,
            mem_ro(),
            self.frame,
            offset_of!(Frame, step) as i32,
        );
        let ask = self.b.ins().iconst(types::I32, i64::from(ASK_INTERRUPT));
        let zero = self.b.ins().iconst(types::I32, 0);
        let call = self
            .b
            .ins()
            .call_indirect(self.step_sig, f, &[self.frame, ask, zero]);
        let yes = self.b.inst_results(call)[0];
        let ki32 = self.b.ins().ireduce(types::I32, ki);
        let pc = self.b.ins().iadd(first_v, ki32);
        self.b
            .ins()
            .brif(yes, interrupted, &[BlockArg::Value(pc)], budget_blk, &[]);
        self.b.switch_to_block(budget_blk);
        self.b.ins().brif(
            over,
            self.over,
            &[BlockArg::Value(first_v), BlockArg::Value(s)],
            next,
            &[],
        );
        // The checks change no register: the condition-code sources stay valid in `next`
        // (`Lower::continue_in`).
        self.b.switch_to_block(next);
        for src in self.cc_src.iter_mut().flatten().flatten().flatten() {
            if Some(src.block) == from {
                src.block = next;
            }
        }
    }
}
