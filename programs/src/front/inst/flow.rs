//! Flow-control instructions: IF/ELSE/ENDIF, REP/LOOP, BRK/CONT, CAL/CALI/BRA/RET and the
//! block stack they open and close.

use super::*;

impl Parser {
    pub(super) fn flow_inst(
        &mut self,
        info: &OpInfo,
        _m: &Mods,
        mut inst: Inst,
        idx: u32,
    ) -> Result<Inst, ProgramError> {
        use Opcode::*;
        let span = inst.span;
        match info.op {
            If => {
                let depth = self
                    .blocks
                    .iter()
                    .filter(|b| matches!(b.0, Block::If | Block::Else { .. }))
                    .count();
                if depth as u32 >= self.lim.max_program_if_depth {
                    return Err(semantic(
                        span,
                        format!(
                            "IF nested {depth} deep: the limit is {max_program_if_depth}",
                            max_program_if_depth = self.lim.max_program_if_depth
                        ),
                    ));
                }
                let cond = self.cc_test()?;
                inst.extra = Extra::Flow {
                    target: idx,
                    cond: Some(cond),
                };
                self.blocks.push((Block::If, idx, span));
            }
            Else => {
                let Some((Block::If, start, _)) = self.blocks.last().copied() else {
                    return Err(semantic(span, "ELSE without a matching IF"));
                };
                self.blocks.pop();
                self.set_flow_target(start, idx);
                inst.extra = Extra::Flow {
                    target: idx,
                    cond: None,
                };
                self.blocks.push((Block::Else { if_at: start }, idx, span));
            }
            EndIf => {
                let (if_at, start) = match self.blocks.last().copied() {
                    Some((Block::If, start, _)) => (start, start),
                    Some((Block::Else { if_at }, start, _)) => (if_at, start),
                    _ => return Err(semantic(span, "ENDIF without a matching IF")),
                };
                self.blocks.pop();
                self.set_flow_target(start, idx);
                // ENDIF points back at its IF.
                inst.extra = Extra::Flow {
                    target: if_at,
                    cond: None,
                };
            }
            Rep | Loop => {
                let depth = self
                    .blocks
                    .iter()
                    .filter(|b| matches!(b.0, Block::Rep | Block::Loop))
                    .count();
                if depth as u32 >= self.lim.max_program_loop_depth {
                    return Err(semantic(
                        span,
                        format!(
                            "{} nested {depth} deep: the limit is {max_program_loop_depth}",
                            info.name,
                            max_program_loop_depth = self.lim.max_program_loop_depth
                        ),
                    ));
                }
                let has_operand = self.c.peek() != &Tok::Semi;
                if has_operand {
                    let kind = Shape::Vector;
                    let dt = if self.is_nv() {
                        inst.dtype
                    } else {
                        DataType::F32
                    };
                    let s = self.src(kind, dt, true, info.name)?;
                    if !self.is_nv() && s.file != File::Param {
                        return Err(semantic(
                            s.span,
                            format!("the {} operand must be a program parameter", info.name),
                        ));
                    }
                    inst.srcs.push(s);
                } else if info.op == Loop || !self.is_nv() {
                    return Err(self.c.unexpected("a loop count operand"));
                }
                inst.extra = Extra::Flow {
                    target: idx,
                    cond: None,
                };
                self.blocks.push((
                    if info.op == Rep {
                        Block::Rep
                    } else {
                        Block::Loop
                    },
                    idx,
                    span,
                ));
            }
            EndRep | EndLoop => {
                let want = if info.op == EndRep {
                    Block::Rep
                } else {
                    Block::Loop
                };
                match self.blocks.last().copied() {
                    Some((b, start, rep_span)) if b == want => {
                        self.blocks.pop();
                        if b == Block::Rep {
                            self.check_rep_exit(start, rep_span)?;
                        }
                        self.set_flow_target(start, idx);
                        inst.extra = Extra::Flow {
                            target: start,
                            cond: None,
                        };
                    }
                    _ => {
                        return Err(semantic(
                            span,
                            format!(
                                "{} without a matching {}",
                                info.name,
                                if want == Block::Rep { "REP" } else { "LOOP" }
                            ),
                        ))
                    }
                }
            }
            Brk | Cont => {
                let Some(&(_, start, _)) = self
                    .blocks
                    .iter()
                    .rev()
                    .find(|b| matches!(b.0, Block::Rep | Block::Loop))
                else {
                    return Err(semantic(
                        span,
                        format!("{} outside of a REP or LOOP block", info.name),
                    ));
                };
                let cond = self.opt_branch_cond()?;
                inst.extra = Extra::Flow {
                    target: start,
                    cond,
                };
            }
            Ret => {
                let cond = self.opt_branch_cond()?;
                inst.extra = Extra::Flow { target: idx, cond };
            }
            Bra | Cal => {
                let (label, ls) = self.c.ident("a label")?;
                let cond = self.opt_branch_cond()?;
                self.label_refs
                    .push((label, self.prog.instructions.len(), ls));
                inst.extra = Extra::Flow { target: 0, cond };
            }
            Cali => {
                let (n, s) = self.c.ident("a subroutine variable")?;
                let Some(Sym::SubroutineVar { index, .. }) = self.syms.get(&n).map(|x| x.0.clone())
                else {
                    return Err(semantic(
                        s,
                        format!("CALI needs a SUBROUTINE variable, '{n}' is not one"),
                    ));
                };
                let len = self
                    .prog
                    .subroutine_vars
                    .get(index as usize)
                    .map_or(1, |v| v.len);
                let array_index = if self.c.peek() == &Tok::LBracket {
                    Some(self.array_index_rel(&n, 0, len)?)
                } else {
                    None
                };
                let cond = self.opt_branch_cond()?;
                inst.extra = Extra::CallIndirect {
                    var: index,
                    array_index,
                    cond,
                };
            }
            _ => {}
        }
        Ok(inst)
    }

    /// NV_gpu_program4 2.X.5: "a program will fail to load if it contains a REP/ENDREP
    /// block that contains neither a BRK instruction at the current nesting level or a
    /// RET instruction at any nesting level" -- for a REP without a loop count.
    pub(super) fn check_rep_exit(&self, start: u32, span: Span) -> Result<(), ProgramError> {
        let body = self.prog.instructions.get(start as usize..).unwrap_or(&[]);
        let Some((rep, body)) = body.split_first() else {
            return Ok(());
        };
        if !rep.srcs.is_empty() {
            return Ok(());
        }
        let exits = body.iter().any(|i| {
            i.op == Opcode::Ret
                || (i.op == Opcode::Brk
                    && matches!(i.extra, Extra::Flow { target, .. } if target == start))
        });
        if exits {
            return Ok(());
        }
        Err(semantic(
            span,
            "a REP without a loop count needs a BRK for this loop or a RET inside it (an obvious infinite loop)",
        ))
    }

    pub(super) fn set_flow_target(&mut self, at: u32, target: u32) {
        if let Some(Inst {
            extra: Extra::Flow { target: t, .. },
            ..
        }) = self.prog.instructions.get_mut(at as usize)
        {
            *t = target;
        }
    }
}
