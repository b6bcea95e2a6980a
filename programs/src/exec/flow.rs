//! Flow control: IF/ELSE/ENDIF, REP/LOOP blocks, BRK/CONT, CAL/CALI/RET, BRA, KIL,
//! PUSHA/POPA and the geometry instructions, with per-lane decisions splitting groups.

use super::env::{Env, RunEnv};
use super::error::{invariant, ExecErrorKind};
use super::operand::{cond_any, load32, resolve_index, store_address_vec};
use super::run::{Frame, Group, Next, Run, MAX_CALL_DEPTH};
use super::{LaneMask, MAX_LANES};
use crate::ir::{DataType, Extra, Inst, Opcode, Stage};

type Res<T> = Result<T, ExecErrorKind>;

fn flow_of(inst: &Inst) -> Res<(u32, Option<crate::ir::CondTest>)> {
    match &inst.extra {
        Extra::Flow { target, cond } => Ok((*target, *cond)),
        _ => Err(invariant("flow instruction without a target")),
    }
}

fn flow_cond(inst: &Inst) -> Option<crate::ir::CondTest> {
    match &inst.extra {
        Extra::Flow { cond, .. } => *cond,
        Extra::CallIndirect { cond, .. } => *cond,
        _ => None,
    }
}

/// Lanes `taken` of `g` continue at `pc_taken` (after `apply` changes their stack); the
/// others go to the next instruction. The group keeps the larger part? No: the group keeps
/// the lanes that did not take the branch and a new group carries the taken ones, so the
/// scheduler's lowest-pc rule decides who runs first.
fn branch<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &mut Group,
    taken: LaneMask,
    apply: impl FnOnce(&mut Group) -> Res<()>,
) -> Res<Next> {
    if taken == 0 {
        return Ok(Next::Seq);
    }
    if taken == g.mask {
        apply(g)?;
        return Ok(Next::Moved);
    }
    let mut t = g.with_mask(taken);
    apply(&mut t)?;
    g.mask &= !taken;
    g.pc += 1;
    run.spawned.push(t);
    Ok(Next::Moved)
}

/// End of a subroutine without RET (a label or the end of the text): return if inside a
/// call. Returns false if the group is not in a subroutine (the program ends for it).
pub(crate) fn implicit_return(g: &mut Group) -> bool {
    while let Some(f) = g.frames.pop() {
        if let Frame::Call { ret } = f {
            g.pc = ret;
            return true;
        }
    }
    false
}

/// Pop the innermost loop (IF blocks keep no frames, so it is the top frame); returns
/// the loop's start.
fn pop_loop(g: &mut Group) -> Res<u32> {
    match g.frames.pop() {
        Some(Frame::Rep { start, .. }) | Some(Frame::Loop { start, .. }) => Ok(start),
        _ => Err(invariant("BRK/CONT with no loop frame on top")),
    }
}

fn loop_end(run_prog: &crate::ir::Program, start: u32) -> Res<u32> {
    let inst = run_prog
        .instructions
        .get(start as usize)
        .ok_or_else(|| invariant("loop start out of range"))?;
    flow_of(inst).map(|(t, _)| t)
}

/// ENDREP/ENDLOOP for a group whose top frame is the loop: next iteration or exit.
fn end_of_iteration(g: &mut Group, end: u32) -> Res<()> {
    match g.frames.last_mut() {
        Some(Frame::Rep { start, remaining }) => {
            let start = *start;
            match remaining {
                None => g.pc = start.saturating_add(1),
                Some(r) => {
                    *r -= 1;
                    if *r > 0 {
                        g.pc = start.saturating_add(1);
                    } else {
                        g.frames.pop();
                        g.pc = end.saturating_add(1);
                    }
                }
            }
            Ok(())
        }
        Some(Frame::Loop {
            start,
            remaining,
            counter,
            step,
        }) => {
            let start = *start;
            *remaining -= 1;
            *counter = counter.wrapping_add(*step);
            if *remaining > 0 {
                g.pc = start.saturating_add(1);
            } else {
                g.frames.pop();
                g.pc = end.saturating_add(1);
            }
            Ok(())
        }
        _ => Err(invariant("ENDREP/ENDLOOP with no loop frame on top")),
    }
}

/// Per-lane loop counts from REP/LOOP operands, as integers (floats are floored).
fn counts<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &Group,
    inst: &Inst,
    comp: usize,
) -> Res<[i64; MAX_LANES]> {
    let src = inst
        .srcs
        .first()
        .ok_or_else(|| invariant("LOOP/REP count without its operand"))?;
    let acc = run.access(g);
    let v = load32(run.st, &acc, src, inst.dtype, &mut run.stats)?;
    let mut out = [0i64; MAX_LANES];
    for (o, x) in out.iter_mut().zip(v[comp].iter()) {
        *o = match inst.dtype {
            DataType::F32 | DataType::F64 => {
                let f = f32::from_bits(*x).floor();
                if f.is_nan() {
                    0
                } else {
                    f as i64
                }
            }
            DataType::U32 | DataType::U64 => i64::from(*x),
            DataType::S32 | DataType::S64 => i64::from(*x as i32),
        };
    }
    Ok(out)
}

/// Split `g` by a per-lane key: one group per distinct key, each passed to `f`.
fn split_by<E: RunEnv + ?Sized, K: Copy + PartialEq>(
    run: &mut Run<'_, E>,
    g: &mut Group,
    keys: &[K; MAX_LANES],
    mut f: impl FnMut(&mut Group, K) -> Res<()>,
) -> Res<Next> {
    let mut rest = g.mask;
    let mut first = true;
    while rest != 0 {
        let l = rest.trailing_zeros() as usize;
        let k = keys[l];
        let mut m = 0;
        for (i, kk) in keys.iter().enumerate() {
            if rest & (1 << i) != 0 && *kk == k {
                m |= 1 << i;
            }
        }
        rest &= !m;
        if first {
            first = false;
            if m == g.mask {
                f(g, k)?;
                return Ok(Next::Moved);
            }
        }
        let mut ng = g.with_mask(m);
        f(&mut ng, k)?;
        run.spawned.push(ng);
    }
    // Every lane went into a spawned group.
    g.mask = 0;
    Ok(Next::Moved)
}

pub(crate) fn exec<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &mut Group,
    inst: &Inst,
) -> Res<Next> {
    let pc = g.pc;
    match inst.op {
        Opcode::If => {
            let (target, cond) = flow_of(inst)?;
            let pass = cond_any(run.st, &cond, g.mask);
            // Lanes failing the test skip to after the ELSE/ENDIF.
            branch(run, g, g.mask & !pass, |t| {
                t.pc = target.saturating_add(1);
                Ok(())
            })
        }
        Opcode::Else => {
            let (target, _) = flow_of(inst)?;
            g.pc = target;
            Ok(Next::Moved)
        }
        Opcode::EndIf => Ok(Next::Seq),
        Opcode::Rep => {
            let (end, _) = flow_of(inst)?;
            if inst.srcs.is_empty() {
                push_frame(
                    g,
                    Frame::Rep {
                        start: pc,
                        remaining: None,
                    },
                )?;
                return Ok(Next::Seq);
            }
            let c = counts(run, g, inst, 0)?;
            split_by(run, g, &c, |ng, n| {
                if n <= 0 {
                    ng.pc = end.saturating_add(1);
                } else {
                    push_frame(
                        ng,
                        Frame::Rep {
                            start: pc,
                            remaining: Some(n),
                        },
                    )?;
                    ng.pc = pc.saturating_add(1);
                }
                Ok(())
            })
        }
        Opcode::Loop => {
            let (end, _) = flow_of(inst)?;
            let n = counts(run, g, inst, 0)?;
            let i0 = counts(run, g, inst, 1)?;
            let s = counts(run, g, inst, 2)?;
            let mut keys = [(0i64, 0i64, 0i64); MAX_LANES];
            for l in 0..MAX_LANES {
                keys[l] = (n[l], i0[l], s[l]);
            }
            split_by(run, g, &keys, |ng, (n, i0, s)| {
                if n <= 0 {
                    ng.pc = end.saturating_add(1);
                } else {
                    push_frame(
                        ng,
                        Frame::Loop {
                            start: pc,
                            remaining: n,
                            counter: i0 as i32,
                            step: s as i32,
                        },
                    )?;
                    ng.pc = pc.saturating_add(1);
                }
                Ok(())
            })
        }
        Opcode::EndRep | Opcode::EndLoop => {
            end_of_iteration(g, pc)?;
            Ok(Next::Moved)
        }
        Opcode::Brk => {
            let cond = flow_cond(inst);
            let pass = cond_any(run.st, &cond, g.mask);
            let prog = run.prog;
            branch(run, g, pass, |t| {
                let start = pop_loop(t)?;
                t.pc = loop_end(prog, start)? + 1;
                Ok(())
            })
        }
        Opcode::Cont => {
            let cond = flow_cond(inst);
            let pass = cond_any(run.st, &cond, g.mask);
            let prog = run.prog;
            branch(run, g, pass, |t| {
                // The innermost loop is the top frame: run its ENDREP/ENDLOOP.
                let start = match t.frames.last() {
                    Some(Frame::Rep { start, .. }) | Some(Frame::Loop { start, .. }) => *start,
                    _ => return Err(invariant("CONT with no loop frame on top")),
                };
                let end = loop_end(prog, start)?;
                end_of_iteration(t, end)
            })
        }
        Opcode::Bra => {
            let (target, cond) = flow_of(inst)?;
            let pass = cond_any(run.st, &cond, g.mask);
            branch(run, g, pass, |t| {
                t.pc = target;
                Ok(())
            })
        }
        Opcode::Cal => {
            let (target, cond) = flow_of(inst)?;
            let pass = cond_any(run.st, &cond, g.mask);
            branch(run, g, pass, |t| {
                push_frame(
                    t,
                    Frame::Call {
                        ret: pc.saturating_add(1),
                    },
                )?;
                t.pc = target;
                Ok(())
            })
        }
        Opcode::Cali => cali(run, g, inst),
        Opcode::Ret => {
            let cond = flow_cond(inst);
            let pass = cond_any(run.st, &cond, g.mask);
            branch(run, g, pass, |t| {
                if !implicit_return(t) {
                    // RET with an empty call stack ends the program for these lanes.
                    t.mask = 0;
                }
                Ok(())
            })
        }
        Opcode::Kil => kil(run, g, inst),
        Opcode::Pusha => {
            if g.pushed.len() >= MAX_CALL_DEPTH {
                return Err(ExecErrorKind::CallStackOverflow);
            }
            let src = inst
                .srcs
                .first()
                .ok_or_else(|| invariant("PUSHA without operand"))?;
            let acc = run.access(g);
            let v = load32(run.st, &acc, src, DataType::S32, &mut run.stats)?;
            g.pushed.push(v.map(|c| c.map(|x| x as i32)));
            Ok(Next::Seq)
        }
        Opcode::Popa => {
            let v = g.pushed.pop().ok_or(ExecErrorKind::AddressStackUnderflow)?;
            let dst = inst
                .dst
                .as_ref()
                .ok_or_else(|| invariant("POPA without destination"))?;
            let acc = run.access(g);
            store_address_vec(run.st, &acc, dst, &v)?;
            Ok(Next::Seq)
        }
        _ => Err(invariant("not a flow instruction")),
    }
}

fn push_frame(g: &mut Group, f: Frame) -> Res<()> {
    let calls = g
        .frames
        .iter()
        .filter(|f| matches!(f, Frame::Call { .. }))
        .count();
    if matches!(f, Frame::Call { .. }) && calls >= MAX_CALL_DEPTH {
        return Err(ExecErrorKind::CallStackOverflow);
    }
    g.frames.push(f);
    Ok(())
}

fn cali<E: RunEnv + ?Sized>(run: &mut Run<'_, E>, g: &mut Group, inst: &Inst) -> Res<Next> {
    let (var, array_index, cond) = match &inst.extra {
        Extra::CallIndirect {
            var,
            array_index,
            cond,
        } => (*var, *array_index, *cond),
        _ => return Err(invariant("CALI without a subroutine variable")),
    };
    let sv = run
        .prog
        .subroutine_vars
        .get(var as usize)
        .ok_or_else(|| invariant("CALI variable out of range"))?;
    let pass = cond_any(run.st, &cond, g.mask);
    if pass == 0 {
        return Ok(Next::Seq);
    }
    let acc = run.access(g);
    let idx = match &array_index {
        None => [Some(0); MAX_LANES],
        Some(i) => resolve_index(run.st, &acc, i)?,
    };
    // Target instruction per lane; None = out-of-range element or unknown function (the
    // call is skipped and counted).
    let mut targets = [None; MAX_LANES];
    for l in 0..MAX_LANES {
        if pass & (1 << l) == 0 {
            continue;
        }
        let Some(i) = idx[l].filter(|&i| i < sv.len) else {
            run.stats.oob_reads += 1;
            continue;
        };
        let func = run
            .env
            .resources()
            .subroutine(sv.first.saturating_add(i))
            .map_err(|e| ExecErrorKind::Env(e.0))?;
        match sv.functions.iter().find(|(f, _)| *f == func) {
            Some((_, at)) => targets[l] = Some(*at),
            None => run.stats.oob_reads += 1,
        }
    }
    let pc = g.pc;
    split_by(run, g, &targets, |ng, t| {
        match t {
            Some(at) if ng.mask & pass == ng.mask => {
                push_frame(
                    ng,
                    Frame::Call {
                        ret: pc.saturating_add(1),
                    },
                )?;
                ng.pc = at;
            }
            _ => ng.pc = pc.saturating_add(1),
        }
        Ok(())
    })
}

fn kil<E: RunEnv + ?Sized>(run: &mut Run<'_, E>, g: &mut Group, inst: &Inst) -> Res<Next> {
    let killed = if let Some(src) = inst.srcs.first() {
        // KIL with an operand: kill if any component is negative.
        let acc = run.access(g);
        let v = load32(run.st, &acc, src, inst.dtype, &mut run.stats)?;
        let mut m = 0;
        for l in 0..MAX_LANES {
            let neg = (0..4).any(|c| match inst.dtype {
                DataType::F32 | DataType::F64 => f32::from_bits(v[c][l]) < 0.0,
                DataType::S32 | DataType::S64 => (v[c][l] as i32) < 0,
                DataType::U32 | DataType::U64 => false,
            });
            if neg {
                m |= 1 << l;
            }
        }
        m & g.mask
    } else {
        cond_any(run.st, &flow_cond(inst), g.mask)
    };
    if run.prog.stage == Stage::Fragment {
        run.st.kill |= killed;
        g.mask &= !killed;
    }
    Ok(Next::Seq)
}

/// EMIT / EMITS / ENDPRIM: one call per lane, lanes in order (each lane is one geometry
/// invocation).
pub(crate) fn geometry<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &mut Group,
    inst: &Inst,
) -> Res<()> {
    let streams = match inst.op {
        Opcode::Emits => {
            let src = inst
                .srcs
                .first()
                .ok_or_else(|| invariant("EMITS without operand"))?;
            let acc = run.access(g);
            let v = load32(run.st, &acc, src, DataType::S32, &mut run.stats)?;
            v[0]
        }
        _ => [0; MAX_LANES],
    };
    let live = g.mask & !run.st.helper;
    for l in 0..MAX_LANES {
        if live & (1 << l) == 0 {
            continue;
        }
        let r = match inst.op {
            Opcode::EndPrim => run.env.end_primitive(l),
            _ => run.env.emit(streams[l], l, run.st),
        };
        r.map_err(|e| ExecErrorKind::Env(e.0))?;
    }
    Ok(())
}
