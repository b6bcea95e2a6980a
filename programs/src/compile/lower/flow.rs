//! Flow control in kernels: structured blocks over lane masks, with the interpreter's
//! group bookkeeping reproduced exactly.
//!
//! The interpreter runs lanes in groups and splits a group where its lanes disagree
//! (`exec::flow`). As long as lanes that split meet again only where their block ends,
//! the lowest-pc-first scheduler runs the groups in program order: the THEN lanes, then
//! the ELSE lanes; the lanes still in a loop before the lanes that left it; the lanes
//! inside a subroutine before those waiting after the CAL. That is the order of a
//! structured translation where a block runs with the mask of the lanes that entered
//! it, so each instruction sees the registers (neighbouring lanes included) and the
//! environment exactly as in the interpreter. Per group the kernel also keeps the
//! interpreter's `Group::steps` (the largest count of the groups that merged), so the
//! budget stops at the same instruction, and it counts `instructions` and
//! `lane_instructions` as the interpreter's groups do.
//!
//! Where the interpreter would keep two groups apart at the same place and run them
//! interleaved (different per-lane loop counts, CONT taken by some lanes of an
//! iteration), the kernel stops with status `RERUN` and the interpreter runs the batch
//! from the start; `scan::check` admits such programs only when they make no
//! environment call, so nothing has been observed before.

use super::group::Held;
use super::*;
use crate::compile::graph::Graph;
use crate::exec::executor::MAX_CALL_DEPTH;
use cranelift_codegen::ir::BlockArg;

/// An open REP loop.
pub(crate) struct LoopCtx {
    /// Lanes that left by BRK (i32 bits), and the group steps of the last of them.
    brk: Variable,
    brk_steps: Variable,
    /// Lanes that took CONT in this iteration (all its lanes, or none), and their steps.
    cont: Variable,
    cont_steps: Variable,
    /// `Lower::waiting` entries that belong to enclosing blocks outside the loop.
    waiting: usize,
}

/// An open subroutine call (subroutines are translated inline at each CAL).
pub(crate) struct CallCtx {
    /// Lanes that returned by RET (i32 bits), and the largest steps among them.
    ret: Variable,
    ret_steps: Variable,
    /// The CAL's pc (a lane's lock-step position starts with its open calls' sites).
    pub(super) site: u32,
}

/// Instructions a stretch of straight-line code can hold.
fn plain(op: Opcode) -> bool {
    op.class() != crate::ir::OpClass::Flow
}

/// Matching instruction of a flow instruction (`scan::check` verified the structure).
fn target(inst: &Inst) -> usize {
    match &inst.extra {
        crate::ir::Extra::Flow { target, .. } => *target as usize,
        _ => unreachable!("scan::check verified flow targets"),
    }
}

impl<'a, 'f> Lower<'a, 'f> {
    /// Translate the program from its entry to the end of its text: as `graph` when
    /// `scan::check` built one (BRA or PUSHA/POPA).
    pub(crate) fn body(&mut self, graph: Option<&Graph>) {
        if let Some(g) = graph {
            self.graph_body(g);
            return;
        }
        if self.variant.group || self.variant.lockstep {
            self.group_entry();
        }
        let n = self.prog.instructions.len();
        self.region(self.prog.entry as usize, n);
    }

    /// Translate `[from, to)`, a sequence of whole blocks. On return the mask holds the
    /// lanes that reach `to` (possibly none).
    fn region(&mut self, from: usize, to: usize) {
        let joins = self.joins.len();
        let prog = self.prog;
        let mut pc = from;
        while pc < to {
            if self.maybe_empty {
                self.skip_if_empty();
            }
            let inst = &prog.instructions[pc];
            pc = match inst.op {
                Opcode::If => {
                    let full = self.mask_all;
                    let next = self.if_block(pc, inst);
                    self.keep_full(full, pc, next);
                    next
                }
                Opcode::Rep | Opcode::Loop => {
                    let full = self.mask_all;
                    let next = self.rep_block(pc, inst);
                    self.keep_full(full, pc, next);
                    next
                }
                Opcode::Cal => {
                    self.cal(pc, inst);
                    pc + 1
                }
                Opcode::Brk => {
                    self.brk(pc, inst);
                    pc + 1
                }
                Opcode::Cont => {
                    // Lanes that take it go back to the loop's start.
                    self.yield_point(pc);
                    self.cont(pc, inst);
                    pc + 1
                }
                Opcode::Ret => {
                    self.ret(pc, inst);
                    pc + 1
                }
                Opcode::Kil => {
                    self.count_flow(pc);
                    self.kil(inst);
                    pc + 1
                }
                Opcode::Bar if self.variant.group => {
                    self.barrier(pc);
                    pc + 1
                }
                op if plain(op) => {
                    let mut end = pc + 1;
                    let group = self.variant.group;
                    while end < to
                        && plain(prog.instructions[end].op)
                        && !(group && prog.instructions[end].op == Opcode::Bar)
                    {
                        end += 1;
                    }
                    self.stretch(pc, end);
                    end
                }
                _ => unreachable!("scan::check admits only structured flow"),
            };
        }
        while self.joins.len() > joins {
            let j = self.joins.pop().expect("checked length");
            self.flush();
            self.b.ins().jump(j, &[]);
            self.b.switch_to_block(j);
        }
    }

    /// Whether no instruction of `[from, to)` can take lanes away for good (KIL, BRK, CONT,
    /// RET, calls): the lanes that enter an IF or loop over that range all meet again
    /// after it.
    fn keeps_lanes(&self, from: usize, to: usize) -> bool {
        self.prog.instructions[from..to].iter().all(|i| {
            matches!(
                i.op,
                Opcode::If
                    | Opcode::Else
                    | Opcode::EndIf
                    | Opcode::Rep
                    | Opcode::EndRep
                    | Opcode::Loop
                    | Opcode::EndLoop
            ) || plain(i.op)
        })
    }

    /// Whether the mask set before `[from, to)` is still the mask after it: straight-line
    /// instructions only, in a kernel that never suspends. The lanes that arrive at its
    /// end are then the bits the mask was made from, without taking them back out of the
    /// mask's vectors (four MOVMSKPS, shifts and ORs). A group or lock-step kernel may
    /// suspend inside (a BAR, a patch read) and resume in a block that those bits' value
    /// does not dominate: Cranelift fails to compile it (checked).
    fn keeps_mask(&self, from: usize, to: usize) -> bool {
        !self.variant.group
            && !self.variant.lockstep
            && self.prog.instructions[from..to].iter().all(|i| plain(i.op))
    }

    /// After the block `[pc, next)`: when every lane ran into it and it keeps lanes, every
    /// lane runs after it, so writes need no mask again (the merged mask is all lanes at
    /// run time; this makes it known at compile time).
    fn keep_full(&mut self, full: bool, pc: usize, next: usize) {
        if full && self.keeps_lanes(pc, next) {
            self.mask_all = true;
            self.maybe_empty = false;
        }
    }

    /// The rest of the region runs only if a lane is left.
    fn skip_if_empty(&mut self) {
        self.flush();
        self.maybe_empty = false;
        let bits = self.mask_bits();
        let run = self.b.create_block();
        let join = self.b.create_block();
        self.b.ins().brif(bits, run, &[], join, &[]);
        self.b.switch_to_block(run);
        self.joins.push(join);
    }

    /// Straight-line instructions `[from, to)`. The budget is charged per run that ends
    /// with an instruction that can fail (an interpreted step or a texture call), so an
    /// error of that instruction and an exceeded budget come in the interpreter's order.
    pub(super) fn stretch(&mut self, from: usize, to: usize) {
        let prog = self.prog;
        let mut charged = from;
        for pc in from..to {
            if pc == charged {
                let mut end = pc;
                while end < to && scan::native(prog, &prog.instructions[end]) {
                    end += 1;
                }
                let end = (end + 1).min(to);
                self.charge(pc, (end - pc) as u64);
                charged = end;
            }
            let inst = &prog.instructions[pc];
            if self.variant.lockstep && scan::reads_or_writes_patch(prog, inst) {
                self.yield_point(pc);
            }
            self.pending += 1;
            if scan::native(prog, inst) {
                self.native(inst);
            } else if scan::native_texture(prog, inst) {
                self.texture(pc, inst);
            } else {
                self.step(pc, inst);
            }
            if inst.dst.as_ref().is_some_and(|d| d.file == File::Output) {
                self.publish_patch();
            }
        }
    }

    /// The running group executes the `n` instructions from `first` on: its steps grow
    /// by `n`, or the kernel stops at the one that exceeds the budget.
    fn charge(&mut self, first: usize, n: u64) {
        let s = self.b.use_var(self.steps);
        let ns = self.b.ins().iadd_imm_s(s, n as i64);
        let budget = self.b.ins().load(
            types::I64,
            mem_ro(),
            self.frame,
            offset_of!(Frame, budget) as i32,
        );
        let over = self.b.ins().icmp(IntCC::UnsignedGreaterThan, ns, budget);
        let next = self.b.create_block();
        if self.variant.group {
            self.charge_group(first, s, ns, over, next);
            self.b.def_var(self.steps, ns);
            return;
        }
        let first = self.b.ins().iconst(types::I32, first as i64);
        self.b.ins().brif(
            over,
            self.over,
            &[BlockArg::Value(first), BlockArg::Value(s)],
            next,
            &[],
        );
        self.continue_in(next);
        self.b.def_var(self.steps, ns);
    }

    /// The running group executes the flow instruction at `pc`.
    pub(super) fn count_flow(&mut self, pc: usize) {
        self.charge(pc, 1);
        self.pending += 1;
    }

    /// The lanes of `bits` (a group, if any) execute the flow instruction at `pc`; the
    /// mask is theirs.
    fn count_flow_if_any(&mut self, pc: usize, bits: Value) {
        self.flush();
        let run = self.b.create_block();
        let join = self.b.create_block();
        self.b.ins().brif(bits, run, &[], join, &[]);
        self.b.switch_to_block(run);
        self.count_flow(pc);
        self.flush();
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
    }

    /// Lane mask chunks of lane bits.
    pub(super) fn chunks_of_bits(&mut self, bits: Value) -> Chunks {
        let v = self.b.ins().splat(V, bits);
        std::array::from_fn(|k| {
            let sel: Vec<u8> = (0..4u32)
                .flat_map(|i| (1u32 << (4 * k as u32 + i)).to_le_bytes())
                .collect();
            let sel = self.lanes_const(sel);
            let m = self.b.ins().band(v, sel);
            // `m == sel` is one PCMPEQD; `m != 0` would be PCMPEQD, all ones and PXOR.
            self.b.ins().icmp(IntCC::Equal, m, sel)
        })
    }

    /// The running lanes become `bits`.
    pub(super) fn set_mask_bits(&mut self, bits: Value) {
        self.flush();
        let m = self.chunks_of_bits(bits);
        for k in 0..CHUNKS {
            self.b.def_var(self.mask[k], m[k]);
        }
        self.mask_all = false;
        let n = self.b.ins().popcnt(bits);
        let n = self.b.ins().uextend(types::I64, n);
        self.b.def_var(self.live, n);
    }

    /// The steps of a merged group: the largest of the arriving groups' (`bits` non-zero).
    fn merged_steps(&mut self, groups: &[(Value, Value)]) -> Value {
        let mut acc = self.b.ins().iconst(types::I64, 0);
        for &(bits, steps) in groups {
            let zero = self.b.ins().iconst(types::I64, 0);
            let s = self.b.ins().select(bits, steps, zero);
            let gt = self.b.ins().icmp(IntCC::UnsignedGreaterThan, s, acc);
            acc = self.b.ins().select(gt, s, acc);
        }
        acc
    }

    /// `max(s, old)` if `bits` is non-zero (a group left with steps `s`), else `old`.
    pub(super) fn max_if(&mut self, bits: Value, s: Value, old: Value) -> Value {
        let gt = self.b.ins().icmp(IntCC::UnsignedGreaterThan, s, old);
        let max = self.b.ins().select(gt, s, old);
        self.b.ins().select(bits, max, old)
    }

    /// IF .. [ELSE ..] ENDIF at `pc`; returns the pc after the block.
    fn if_block(&mut self, pc: usize, inst: &Inst) -> usize {
        let prog = self.prog;
        let t = target(inst);
        let has_else = prog.instructions[t].op == Opcode::Else;
        let endif = if has_else {
            target(&prog.instructions[t])
        } else {
            t
        };
        self.count_flow(pc);
        self.flush();
        let pass = self.cond_any(&flow_cond(inst));
        let pass = self.bits(&pass);
        let all = self.mask_bits();
        let fail = self.b.ins().band_not(all, pass);
        let s_if = self.b.use_var(self.steps);
        let (fail_h, s_if_h) = (self.hold(fail), self.hold(s_if));
        let then_bits = self.b.declare_var(types::I32);
        let then_steps = self.b.declare_var(types::I64);
        let z32 = self.b.ins().iconst(types::I32, 0);
        let z64 = self.b.ins().iconst(types::I64, 0);
        self.b.def_var(then_bits, z32);
        self.b.def_var(then_steps, z64);

        // THEN lanes (the group keeps them; the failing lanes wait).
        let then_blk = self.b.create_block();
        let after_then = self.b.create_block();
        self.b.ins().brif(pass, then_blk, &[], after_then, &[]);
        self.b.switch_to_block(then_blk);
        self.set_mask_bits(pass);
        self.waiting.push(fail_h);
        self.region(pc + 1, t);
        self.waiting.pop();
        self.maybe_empty = false;
        self.flush();
        let arrived = if self.keeps_mask(pc + 1, t) {
            pass
        } else {
            self.mask_bits()
        };
        // ELSE (jumping to ENDIF) or ENDIF, for the THEN lanes still running.
        self.count_flow_if_any(t, arrived);
        let s = self.b.use_var(self.steps);
        self.b.def_var(then_bits, arrived);
        self.b.def_var(then_steps, s);
        self.b.ins().jump(after_then, &[]);
        self.b.switch_to_block(after_then);
        let tb = self.b.use_var(then_bits);
        let ts = self.b.use_var(then_steps);
        let fail = self.held(fail_h);
        let s_if = self.held(s_if_h);

        if !has_else {
            let merged = self.b.ins().bor(tb, fail);
            let s = self.merged_steps(&[(tb, ts), (fail, s_if)]);
            self.set_mask_bits(merged);
            self.b.def_var(self.steps, s);
            self.maybe_empty = true;
            return t + 1;
        }

        // ELSE lanes, while the THEN lanes wait at ENDIF.
        let (tb_h, ts_h) = (self.hold(tb), self.hold(ts));
        let z32 = self.b.ins().iconst(types::I32, 0);
        let z64 = self.b.ins().iconst(types::I64, 0);
        let else_bits = self.b.declare_var(types::I32);
        let else_steps = self.b.declare_var(types::I64);
        self.b.def_var(else_bits, z32);
        self.b.def_var(else_steps, z64);
        let else_blk = self.b.create_block();
        let after_else = self.b.create_block();
        self.b.ins().brif(fail, else_blk, &[], after_else, &[]);
        self.b.switch_to_block(else_blk);
        self.set_mask_bits(fail);
        self.b.def_var(self.steps, s_if);
        self.waiting.push(tb_h);
        self.region(t + 1, endif);
        self.waiting.pop();
        self.maybe_empty = false;
        self.flush();
        let arrived = if self.keeps_mask(t + 1, endif) {
            fail
        } else {
            self.mask_bits()
        };
        let s = self.b.use_var(self.steps);
        self.b.def_var(else_bits, arrived);
        self.b.def_var(else_steps, s);
        self.b.ins().jump(after_else, &[]);
        self.b.switch_to_block(after_else);
        let eb = self.b.use_var(else_bits);
        let es = self.b.use_var(else_steps);
        let (tb, ts) = (self.held(tb_h), self.held(ts_h));
        let merged = self.b.ins().bor(tb, eb);
        let s = self.merged_steps(&[(tb, ts), (eb, es)]);
        self.set_mask_bits(merged);
        self.b.def_var(self.steps, s);
        self.count_flow_if_any(endif, merged);
        self.maybe_empty = true;
        endif + 1
    }

    /// REP [count] .. ENDREP at `pc`; returns the pc after the loop.
    fn rep_block(&mut self, pc: usize, inst: &Inst) -> usize {
        let end = target(inst);
        let all_entered = self.mask_all;
        self.count_flow(pc);
        self.flush();
        let all = self.mask_bits();
        let s_rep = self.b.use_var(self.steps);
        let counted = !inst.srcs.is_empty();
        let is_loop = inst.op == Opcode::Loop;
        let remaining = self.b.declare_var(types::I64);
        let saved_counter = self.b.use_var(self.loop_counter);
        let (enter, init, step) = if counted {
            let (enter, n, init, step) = self.rep_count(inst);
            self.b.def_var(remaining, n);
            (enter, init, step)
        } else {
            let z = self.b.ins().iconst(types::I64, 0);
            self.b.def_var(remaining, z);
            (all, None, None)
        };
        let skip = self.b.ins().band_not(all, enter);
        let (skip_h, s_rep_h) = (self.hold(skip), self.hold(s_rep));
        let saved_h = self.hold(saved_counter);
        let step_h = step.map(|v| self.hold(v));
        let var = |l: &mut Self, ty: Type| {
            let v = l.b.declare_var(ty);
            let z = l.b.ins().iconst(ty, 0);
            l.b.def_var(v, z);
            v
        };
        let ctx = LoopCtx {
            brk: var(self, types::I32),
            brk_steps: var(self, types::I64),
            cont: var(self, types::I32),
            cont_steps: var(self, types::I64),
            waiting: self.waiting.len(),
        };
        let (brk, brk_steps, cont, cont_steps) = (ctx.brk, ctx.brk_steps, ctx.cont, ctx.cont_steps);
        let exit_bits = var(self, types::I32);
        let exit_steps = var(self, types::I64);

        let pre = self.b.create_block();
        let head = self.b.create_block();
        let exit = self.b.create_block();
        self.b.ins().brif(enter, pre, &[], exit, &[]);
        self.b.switch_to_block(pre);
        self.set_mask_bits(enter);
        // Every lane enters a loop with one count for all lanes (or none: `enter` is all
        // or nothing, and no lane runs the body), and a body that keeps lanes brings them
        // all back to each iteration: the body's writes need no mask either.
        let uniform_count = !counted || inst.srcs.first().is_some_and(scan::uniform);
        if all_entered && uniform_count && self.keeps_lanes(pc, end + 1) {
            self.mask_all = true;
        }
        if let Some(init) = init {
            self.b.def_var(self.loop_counter, init);
        }
        self.flush();
        self.b.ins().jump(head, &[]);

        self.b.switch_to_block(head);
        self.loops.push(ctx);
        self.region(pc + 1, end);
        self.loops.pop();
        self.maybe_empty = false;
        // The lanes at ENDREP go back to the loop's start.
        self.yield_point(end);
        self.flush();
        let arrived = self.mask_bits();
        self.count_flow_if_any(end, arrived);
        // End of the iteration for the lanes at ENDREP and those that took CONT (never
        // both: a partial CONT reruns).
        let s = self.b.use_var(self.steps);
        let c = self.b.use_var(cont);
        let cs = self.b.use_var(cont_steps);
        let next = self.b.ins().bor(arrived, c);
        let s = self.merged_steps(&[(arrived, s), (c, cs)]);
        let z32 = self.b.ins().iconst(types::I32, 0);
        self.b.def_var(cont, z32);
        let latch = self.b.create_block();
        let left = self.b.create_block();
        self.b.ins().brif(next, latch, &[], exit, &[]);
        self.b.switch_to_block(latch);
        self.set_mask_bits(next);
        self.b.def_var(self.steps, s);
        self.flush();
        if let (true, Some(step)) = (is_loop, step_h) {
            let step = self.held(step);
            let lc = self.b.use_var(self.loop_counter);
            let lc = self.b.ins().iadd(lc, step);
            self.b.def_var(self.loop_counter, lc);
        }
        if counted {
            let r = self.b.use_var(remaining);
            let r = self.b.ins().iadd_imm_s(r, -1);
            self.b.def_var(remaining, r);
            let more = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThan, r, 0);
            self.b.ins().brif(more, head, &[], left, &[]);
        } else {
            self.b.ins().jump(head, &[]);
        }
        self.b.switch_to_block(left);
        let s = self.b.use_var(self.steps);
        self.b.def_var(exit_bits, next);
        self.b.def_var(exit_steps, s);
        self.b.ins().jump(exit, &[]);

        self.b.switch_to_block(exit);
        let (skip, s_rep) = (self.held(skip_h), self.held(s_rep_h));
        let saved_counter = self.held(saved_h);
        self.b.def_var(self.loop_counter, saved_counter);
        let (bb, bs) = (self.b.use_var(brk), self.b.use_var(brk_steps));
        let (eb, es) = (self.b.use_var(exit_bits), self.b.use_var(exit_steps));
        let merged = self.b.ins().bor(skip, bb);
        let merged = self.b.ins().bor(merged, eb);
        let s = self.merged_steps(&[(skip, s_rep), (bb, bs), (eb, es)]);
        self.set_mask_bits(merged);
        self.b.def_var(self.steps, s);
        self.maybe_empty = true;
        end + 1
    }

    /// The lanes that enter a counted REP or a LOOP, its count and (LOOP) the counter's
    /// start and step: one value each for all entering lanes, or the kernel stops with
    /// `RERUN` (the interpreter would run each combination as its own group).
    fn rep_count(&mut self, inst: &Inst) -> (Value, Value, Option<Value>, Option<Value>) {
        let src = inst.srcs.first().expect("counted REP");
        let dt = inst.dtype;
        let v = self.load(src, dt);
        let all = self.mask_bits();
        let comps = if inst.op == Opcode::Loop { 3 } else { 1 };
        if scan::uniform(src) {
            let x: Vec<Value> = (0..comps)
                .map(|c| {
                    let x0 = self.b.ins().extractlane(v[c][0], 0);
                    self.count_of(x0, dt)
                })
                .collect();
            let pos = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThan, x[0], 0);
            let z = self.b.ins().iconst(types::I32, 0);
            let enter = self.b.ins().select(pos, all, z);
            let (init, step) = self.counter_params(&x);
            return (enter, x[0], init, step);
        }
        // Per lane: keys whose equality means equal values, and whether the count is > 0.
        let m = self.mask_vals();
        let key = |l: &mut Self, x: Value| match dt {
            DataType::S32 | DataType::U32 => x,
            _ => l.funary(x, |b, v| b.ins().floor(v)),
        };
        let keys: Vec<Chunks> = (0..comps)
            .map(|c| std::array::from_fn(|k| key(self, v[c][k])))
            .collect();
        let pos: Chunks = std::array::from_fn(|k| {
            let x = keys[0][k];
            let p = match dt {
                DataType::S32 => self.icmp0(IntCC::SignedGreaterThan, x),
                DataType::U32 => self.icmp0(IntCC::NotEqual, x),
                _ => {
                    let zero = self.splat(0);
                    self.fcmp(FloatCC::GreaterThan, x, zero)
                }
            };
            self.b.ins().band(p, m[k])
        });
        let enter = self.bits(&pos);
        // Entering keys compare as unsigned bits: all equal when min == max.
        let none = self.b.ins().icmp_imm_s(IntCC::Equal, enter, 0);
        let mut same = self.b.ins().iconst(types::I8, 1);
        let mut first = Vec::new();
        for key in &keys {
            let hi = self.splat(u32::MAX);
            let lo = self.splat(0);
            let mins: Chunks = std::array::from_fn(|k| self.select(pos[k], key[k], hi));
            let maxs: Chunks = std::array::from_fn(|k| self.select(pos[k], key[k], lo));
            let min = self.reduce(mins, |b, x, y| b.ins().umin(x, y));
            let max = self.reduce(maxs, |b, x, y| b.ins().umax(x, y));
            let eq = self.b.ins().icmp(IntCC::Equal, min, max);
            same = self.b.ins().band(same, eq);
            first.push(min);
        }
        let ok = self.b.ins().bor(same, none);
        let next = self.b.create_block();
        self.b.ins().brif(ok, next, &[], self.rerun, &[]);
        self.b.switch_to_block(next);
        let x: Vec<Value> = first.iter().map(|&k| self.count_of(k, dt)).collect();
        let (init, step) = self.counter_params(&x);
        (enter, x[0], init, step)
    }

    /// A LOOP's counter start and step (`as i32` of the interpreter's i64 counts).
    fn counter_params(&mut self, x: &[Value]) -> (Option<Value>, Option<Value>) {
        if x.len() < 3 {
            return (None, None);
        }
        let init = self.b.ins().ireduce(types::I32, x[1]);
        let step = self.b.ins().ireduce(types::I32, x[2]);
        (Some(init), Some(step))
    }

    /// One lane's loop count (`exec::flow::counts`): floats floored (NaN → 0,
    /// saturating), integers widened.
    fn count_of(&mut self, x: Value, dt: DataType) -> Value {
        match dt {
            DataType::S32 | DataType::S64 => self.b.ins().sextend(types::I64, x),
            DataType::U32 | DataType::U64 => self.b.ins().uextend(types::I64, x),
            _ => {
                let f = self.b.ins().bitcast(types::F32, MemFlagsData::new(), x);
                let f = self.b.ins().floor(f);
                self.b.ins().fcvt_to_sint_sat(types::I64, f)
            }
        }
    }

    /// Horizontal reduction of sixteen lanes to a scalar.
    fn reduce(&mut self, c: Chunks, op: fn(&mut FunctionBuilder, Value, Value) -> Value) -> Value {
        let mut v = op(&mut self.b, c[0], c[1]);
        for k in 2..CHUNKS {
            v = op(&mut self.b, v, c[k]);
        }
        let s = self.lane_shuffle(v, [2, 3, 0, 1]);
        let v = op(&mut self.b, v, s);
        let s = self.lane_shuffle(v, [1, 0, 3, 2]);
        let v = op(&mut self.b, v, s);
        self.b.ins().extractlane(v, 0)
    }

    /// Lanes that pass the condition of `inst` leave the running group (bits).
    fn leave(&mut self, pc: usize, inst: &Inst) -> Value {
        self.count_flow(pc);
        self.flush();
        let taken = self.cond_any(&flow_cond(inst));
        let bits = self.bits(&taken);
        self.remove_lanes(&taken);
        bits
    }

    /// The lanes of `gone` (within the mask) leave the running group, which may end.
    pub(super) fn remove_lanes(&mut self, gone: &Chunks) {
        let m = self.mask_vals();
        for k in 0..CHUNKS {
            let r = self.b.ins().band_not(m[k], gone[k]);
            self.b.def_var(self.mask[k], r);
        }
        self.mask_all = false;
        let left = self.mask_bits();
        let n = self.b.ins().popcnt(left);
        let n = self.b.ins().uextend(types::I64, n);
        self.b.def_var(self.live, n);
        self.maybe_empty = true;
    }

    /// BRK: the lanes go to the end of the innermost loop.
    fn brk(&mut self, pc: usize, inst: &Inst) {
        let taken = self.leave(pc, inst);
        let s = self.b.use_var(self.steps);
        let ctx = self.loops.last().expect("scan::check: BRK inside a loop");
        let (brk, brk_steps) = (ctx.brk, ctx.brk_steps);
        let b = self.b.use_var(brk);
        let b = self.b.ins().bor(b, taken);
        self.b.def_var(brk, b);
        let old = self.b.use_var(brk_steps);
        let s = self.max_if(taken, s, old);
        self.b.def_var(brk_steps, s);
    }

    /// CONT: the lanes end their iteration. Only all lanes of the iteration at once
    /// (none waiting in an enclosing IF): else the interpreter's groups would run
    /// different iterations interleaved.
    fn cont(&mut self, pc: usize, inst: &Inst) {
        let before = self.mask_bits();
        let taken = self.leave(pc, inst);
        let s = self.b.use_var(self.steps);
        let ctx = self.loops.last().expect("scan::check: CONT inside a loop");
        let (cont, cont_steps, first) = (ctx.cont, ctx.cont_steps, ctx.waiting);
        let mut whole = self.b.ins().icmp(IntCC::Equal, taken, before);
        let waiting: Vec<Held> = self.waiting[first..].to_vec();
        for w in waiting {
            let w = self.held(w);
            let none = self.b.ins().icmp_imm_s(IntCC::Equal, w, 0);
            whole = self.b.ins().band(whole, none);
        }
        let none = self.b.ins().icmp_imm_s(IntCC::Equal, taken, 0);
        let ok = self.b.ins().bor(whole, none);
        let next = self.b.create_block();
        self.b.ins().brif(ok, next, &[], self.rerun, &[]);
        self.b.switch_to_block(next);
        let c = self.b.use_var(cont);
        let c = self.b.ins().bor(c, taken);
        self.b.def_var(cont, c);
        let old = self.b.use_var(cont_steps);
        let s = self.max_if(taken, s, old);
        self.b.def_var(cont_steps, s);
    }

    /// RET: the lanes return from the innermost call, or end outside one.
    fn ret(&mut self, pc: usize, inst: &Inst) {
        let taken = self.leave(pc, inst);
        let s = self.b.use_var(self.steps);
        if let Some(ctx) = self.calls.last() {
            let (ret, ret_steps) = (ctx.ret, ctx.ret_steps);
            let r = self.b.use_var(ret);
            let r = self.b.ins().bor(r, taken);
            self.b.def_var(ret, r);
            let old = self.b.use_var(ret_steps);
            let s = self.max_if(taken, s, old);
            self.b.def_var(ret_steps, s);
        }
    }

    /// CAL: the lanes that pass run the subroutine (translated here, inline) while the
    /// others wait after the CAL.
    fn cal(&mut self, pc: usize, inst: &Inst) {
        let prog = self.prog;
        let sub = target(inst);
        let end = scan::sub_end(prog, sub);
        self.count_flow(pc);
        self.flush();
        let taken = self.cond_any(&flow_cond(inst));
        let taken = self.bits(&taken);
        if self.calls.len() >= MAX_CALL_DEPTH {
            let next = self.b.create_block();
            let pc_v = self.b.ins().iconst(types::I32, pc as i64);
            self.b
                .ins()
                .brif(taken, self.too_deep, &[BlockArg::Value(pc_v)], next, &[]);
            self.b.switch_to_block(next);
            return;
        }
        let all = self.mask_bits();
        let stay = self.b.ins().band_not(all, taken);
        let s_cal = self.b.use_var(self.steps);
        let (stay_h, s_cal_h) = (self.hold(stay), self.hold(s_cal));
        let var = |l: &mut Self, ty: Type| {
            let v = l.b.declare_var(ty);
            let z = l.b.ins().iconst(ty, 0);
            l.b.def_var(v, z);
            v
        };
        let ctx = CallCtx {
            ret: var(self, types::I32),
            ret_steps: var(self, types::I64),
            site: pc as u32,
        };
        let (ret, ret_steps) = (ctx.ret, ctx.ret_steps);
        let back_bits = var(self, types::I32);
        let back_steps = var(self, types::I64);
        let call = self.b.create_block();
        let after = self.b.create_block();
        self.b.ins().brif(taken, call, &[], after, &[]);
        self.b.switch_to_block(call);
        self.set_mask_bits(taken);
        self.calls.push(ctx);
        // Blocks of the caller do not continue inside the subroutine.
        let waiting = std::mem::take(&mut self.waiting);
        let loops = std::mem::take(&mut self.loops);
        self.region(sub, end);
        self.waiting = waiting;
        self.loops = loops;
        self.calls.pop();
        self.maybe_empty = false;
        self.flush();
        let arrived = self.mask_bits();
        let s = self.b.use_var(self.steps);
        let (rb, rs) = (self.b.use_var(ret), self.b.use_var(ret_steps));
        let back = self.b.ins().bor(arrived, rb);
        let s = self.merged_steps(&[(arrived, s), (rb, rs)]);
        self.b.def_var(back_bits, back);
        self.b.def_var(back_steps, s);
        self.b.ins().jump(after, &[]);
        self.b.switch_to_block(after);
        let (bb, bs) = (self.b.use_var(back_bits), self.b.use_var(back_steps));
        let (stay, s_cal) = (self.held(stay_h), self.held(s_cal_h));
        let merged = self.b.ins().bor(stay, bb);
        let s = self.merged_steps(&[(stay, s_cal), (bb, bs)]);
        self.set_mask_bits(merged);
        self.b.def_var(self.steps, s);
        self.maybe_empty = true;
    }
}
