//! Programs with BRA or PUSHA/POPA: the places of `compile::graph`, each with a pending
//! lane mask and group steps, and a dispatcher that always resumes the lowest pending
//! place, as the interpreter's scheduler picks the lowest group (merging groups at one
//! place: their lanes, and the larger of their steps).

use super::*;
use crate::compile::graph::{Exit, Graph};
use cranelift_codegen::ir::BlockArg;

impl<'a, 'f> Lower<'a, 'f> {
    /// Translate the program as the graph `g` (`graph::build`).
    pub(crate) fn graph_body(&mut self, g: &Graph) {
        self.flush();
        let n = g.places.len();
        // Pending lanes (i32) and steps (i64) per place, in memory: as variables they
        // would be block parameters of every block of the dispatch loop.
        let pend = self.b.create_sized_stack_slot(ir::StackSlotData::new(
            ir::StackSlotKind::ExplicitSlot,
            (n.max(1) * 16) as u32,
            4,
        ));
        let z32 = self.b.ins().iconst(types::I32, 0);
        let z64 = self.b.ins().iconst(types::I64, 0);
        for i in 0..n {
            self.store_pending(pend, i, z32, z64);
        }
        if let Some(e) = g.entry {
            let all = self.mask_bits();
            self.b
                .ins()
                .stack_store(types::I64, all, pend, (16 * e) as i32);
        }
        self.mask_all = false;
        self.maybe_empty = false;
        let dispatch = self.b.create_block();
        let finished = self.b.create_block();
        let blocks: Vec<Block> = (0..n).map(|_| self.b.create_block()).collect();
        self.b.ins().jump(dispatch, &[]);

        // The lowest place with lanes waiting runs next.
        self.b.switch_to_block(dispatch);
        for i in 0..n {
            let b = self
                .b
                .ins()
                .stack_load(types::I64, types::I32, pend, (16 * i) as i32);
            let next = if i + 1 < n {
                self.b.create_block()
            } else {
                finished
            };
            self.b.ins().brif(b, blocks[i], &[], next, &[]);
            if i + 1 < n {
                self.b.switch_to_block(next);
            }
        }
        if n == 0 {
            self.b.ins().jump(finished, &[]);
        }

        for (i, p) in g.places.iter().enumerate() {
            self.b.switch_to_block(blocks[i]);
            self.cc_src = [[[None; CHUNKS]; 4]; 2];
            let bits = self
                .b
                .ins()
                .stack_load(types::I64, types::I32, pend, (16 * i) as i32);
            let s = self
                .b
                .ins()
                .stack_load(types::I64, types::I64, pend, (16 * i + 8) as i32);
            let z32 = self.b.ins().iconst(types::I32, 0);
            let z64 = self.b.ins().iconst(types::I64, 0);
            self.store_pending(pend, i, z32, z64);
            self.set_mask_bits(bits);
            self.b.def_var(self.steps, s);
            self.place_code(p.pc as usize, p.end as usize, p.depth);
            let end = p.end as usize;
            let inst = &self.prog.instructions[end];
            match p.exit {
                Exit::Next(next) => {
                    self.flush();
                    let all = self.mask_bits();
                    self.deposit(pend, next, all);
                }
                Exit::Bra { taken, next } => {
                    let (t, stay) = self.split(end, inst);
                    self.deposit(pend, taken, t);
                    self.deposit(pend, next, stay);
                }
                Exit::Ret { back, next } => {
                    let (t, stay) = self.split(end, inst);
                    self.deposit(pend, back, t);
                    self.deposit(pend, next, stay);
                }
                Exit::Cal { callee, next } => {
                    let (t, stay) = self.split(end, inst);
                    match callee {
                        Some(_) => self.deposit(pend, callee, t),
                        None => {
                            let go = self.b.create_block();
                            let pc_v = self.b.ins().iconst(types::I32, end as i64);
                            self.b
                                .ins()
                                .brif(t, self.too_deep, &[BlockArg::Value(pc_v)], go, &[]);
                            self.b.switch_to_block(go);
                        }
                    }
                    self.deposit(pend, next, stay);
                }
            }
            self.b.ins().jump(dispatch, &[]);
        }
        self.b.switch_to_block(finished);
        self.mask_all = false;
    }

    /// The code of a place, `[from, to]` (its last instruction's flow part excepted: the
    /// caller translates it), with the PUSHA stack `depth` deep on entry.
    fn place_code(&mut self, from: usize, to: usize, mut depth: u32) {
        let prog = self.prog;
        let mut pc = from;
        while pc <= to {
            let op = prog.instructions[pc].op;
            match op {
                Opcode::Pusha | Opcode::Popa => {
                    self.count_flow(pc);
                    let d = self.b.ins().iconst(types::I32, i64::from(depth));
                    self.b
                        .ins()
                        .store(mem(), d, self.frame, offset_of!(Frame, push_depth) as i32);
                    self.step(pc, &prog.instructions[pc]);
                    depth = if op == Opcode::Pusha {
                        depth + 1
                    } else {
                        depth.saturating_sub(1)
                    };
                    pc += 1;
                }
                op if op.class() == crate::ir::OpClass::Flow => {
                    // The place's exit (`graph::build` ends places there).
                    break;
                }
                _ => {
                    let mut end = pc + 1;
                    while end <= to && prog.instructions[end].op.class() != crate::ir::OpClass::Flow
                    {
                        end += 1;
                    }
                    self.stretch(pc, end);
                    pc = end;
                }
            }
        }
    }

    /// The running group executes the branch, call or return at `pc`: the lanes that
    /// pass its condition and the others (bits).
    fn split(&mut self, pc: usize, inst: &Inst) -> (Value, Value) {
        self.count_flow(pc);
        self.flush();
        let taken = self.cond_any(&flow_cond(inst));
        let taken = self.bits(&taken);
        let all = self.mask_bits();
        let stay = self.b.ins().band_not(all, taken);
        (taken, stay)
    }

    /// Place `i`'s pending lanes (i32) and steps (i64) become `bits` and `steps`.
    fn store_pending(&mut self, pend: ir::StackSlot, i: usize, bits: Value, steps: Value) {
        let at = (16 * i) as i32;
        self.b.ins().stack_store(types::I64, bits, pend, at);
        self.b.ins().stack_store(types::I64, steps, pend, at + 8);
    }

    /// The lanes of `bits` (maybe none) wait at place `to` with the running group's
    /// steps; they merge with the lanes already there (the larger steps).
    fn deposit(&mut self, pend: ir::StackSlot, to: Option<usize>, bits: Value) {
        let Some(to) = to else {
            return;
        };
        let (pb, ps) = ((16 * to) as i32, (16 * to + 8) as i32);
        let s = self.b.use_var(self.steps);
        let old = self.b.ins().stack_load(types::I64, types::I32, pend, pb);
        let merged = self.b.ins().bor(old, bits);
        self.b.ins().stack_store(types::I64, merged, pend, pb);
        let old_s = self.b.ins().stack_load(types::I64, types::I64, pend, ps);
        let s = self.max_if(bits, s, old_s);
        self.b.ins().stack_store(types::I64, s, pend, ps);
    }
}
