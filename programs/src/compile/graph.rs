//! Programs with BRA (jumps anywhere) or PUSHA/POPA, as a graph of places the
//! interpreter's lane groups can wait at.
//!
//! A place is a call context (the CAL sites of the open calls, outermost first) and a
//! pc: exactly the interpreter's lock-step `position` of a group there. Groups wait only
//! at leaders (the entry, jump and call targets, the instruction after a branch, call
//! or return, labels), and the group that runs is always the one at the lowest
//! position, so a kernel that keeps one pending lane mask per place and always resumes
//! the lowest non-empty one runs the groups in the interpreter's order, merging them
//! where it does (`lower/branch.rs`). Each place's code runs from its leader to the next
//! branch, call, return or leader.
//!
//! The PUSHA stack's depth must be the same at a place however lanes reach it (the
//! interpreter keeps groups of different depths apart, an order a place cannot hold);
//! else the program stays in the interpreter. So does a program with KIL, which no
//! dialect has together with BRA or PUSHA/POPA.

use super::scan::{flow_target, Fallback};
use crate::exec::executor::MAX_CALL_DEPTH;
use crate::ir::{Opcode, Program};
use std::collections::BTreeMap;

/// Most instructions the places of one program may hold together (code is translated
/// once per place).
const MAX_PLACED: usize = 1_000;

/// Where lanes go after a place's code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Exit {
    /// The lanes go on to the next place (the code ended before a leader).
    Next(Option<usize>),
    /// BRA: the lanes that pass go to `taken`, the others to `next`.
    Bra {
        taken: Option<usize>,
        next: Option<usize>,
    },
    /// CAL: the lanes that pass enter `callee` (None: the call depth is exceeded), the
    /// others go to `next`.
    Cal {
        callee: Option<usize>,
        next: Option<usize>,
    },
    /// RET: the lanes that pass go to `back` (None: the program ends for them), the
    /// others to `next`.
    Ret {
        back: Option<usize>,
        next: Option<usize>,
    },
}

/// One place (of a context that `Graph::places`' order reflects): its code `[pc, end]`
/// (the last instruction may be a branch, call or return), the PUSHA depth on
/// entry, and where the lanes go.
#[derive(Clone, Debug)]
pub(crate) struct Place {
    pub pc: u32,
    pub end: u32,
    pub depth: u32,
    pub exit: Exit,
}

/// Every place a run can reach, in the interpreter's scheduling order (lowest position
/// first); `entry` is where the run starts (None: an empty program).
#[derive(Debug)]
pub(crate) struct Graph {
    pub places: Vec<Place>,
    pub entry: Option<usize>,
}

/// Whether `prog` is translated as a graph of places (it has BRA, PUSHA or POPA).
pub(crate) fn wanted(prog: &Program) -> bool {
    prog.instructions
        .iter()
        .any(|i| matches!(i.op, Opcode::Bra | Opcode::Pusha | Opcode::Popa))
}

/// The jump or call target of the instruction at `pc` (the end of the text if none).
fn target(prog: &Program, pc: usize) -> usize {
    flow_target(&prog.instructions[pc]).unwrap_or(prog.instructions.len())
}

/// Key of a place in scheduling order: its context, then its pc.
type Key = Vec<u32>;

fn key(ctx: &[u32], pc: usize) -> Key {
    let mut k = ctx.to_vec();
    k.push(pc as u32);
    k
}

struct Builder {
    n: usize,
    has_bra: bool,
    leader: Vec<bool>,
    label: Vec<bool>,
    /// Places found, by key: (PUSHA depth on entry, its place once explored).
    found: BTreeMap<Key, u32>,
    work: Vec<(Vec<u32>, usize, u32)>,
    size: usize,
}

impl Builder {
    /// The place lanes reaching `pc` in `ctx` other than by a call wait at (the
    /// interpreter's `Executor::arrive`): at the end of the text, and without BRA at a
    /// label, a subroutine returns (None: the program ends for them).
    fn place(&self, mut ctx: Vec<u32>, mut pc: usize) -> Option<(Vec<u32>, usize)> {
        while pc >= self.n || (!self.has_bra && self.label[pc] && !ctx.is_empty()) {
            pc = ctx.pop()? as usize + 1;
        }
        Some((ctx, pc))
    }

    /// Note that lanes reach `to` with PUSHA depth `depth`.
    fn reach(&mut self, to: Option<(Vec<u32>, usize)>, depth: u32) -> Result<(), Fallback> {
        let Some((ctx, pc)) = to else {
            return Ok(());
        };
        match self.found.get(&key(&ctx, pc)) {
            Some(&d) if d == depth => Ok(()),
            Some(_) => Err(Fallback::at(pc, "PUSHA stack depth differs between paths")),
            None => {
                self.found.insert(key(&ctx, pc), depth);
                self.work.push((ctx, pc, depth));
                Ok(())
            }
        }
    }
}

/// The places of `prog` (see the module documentation), or why it cannot be translated.
pub(crate) fn build(prog: &Program) -> Result<Graph, Fallback> {
    use Opcode::*;
    let n = prog.instructions.len();
    let has_bra = prog.instructions.iter().any(|i| i.op == Bra);
    let mut leader = vec![false; n + 1];
    let mut label = vec![false; n + 1];
    if let Some(l) = leader.get_mut(prog.entry as usize) {
        *l = true;
    }
    for &l in &prog.labels {
        if let Some(x) = label.get_mut(l as usize) {
            *x = true;
        }
        if let Some(x) = leader.get_mut(l as usize) {
            *x = true;
        }
    }
    for (pc, inst) in prog.instructions.iter().enumerate() {
        match inst.op {
            // BRA and PUSHA/POPA are vertex-program instructions and KIL a
            // fragment-program one in every dialect the assembler reads.
            Kil => return Err(Fallback::at(pc, "KIL with BRA or PUSHA/POPA")),
            Bra | Cal | Ret => {
                leader[pc + 1] = true;
                if matches!(inst.op, Bra | Cal) {
                    let t = target(prog, pc);
                    if t >= n {
                        return Err(Fallback::at(pc, "unstructured flow control"));
                    }
                    leader[t] = true;
                }
            }
            Pusha | Popa => {}
            op if op.class() == crate::ir::OpClass::Flow => {
                return Err(Fallback::at(
                    pc,
                    "BRA or PUSHA/POPA with structured flow control",
                ))
            }
            _ => {}
        }
    }
    let mut b = Builder {
        n,
        has_bra,
        leader,
        label,
        found: BTreeMap::new(),
        work: Vec::new(),
        size: 0,
    };
    let start = b.place(Vec::new(), prog.entry as usize);
    b.reach(start.clone(), 0)?;
    // Each place with the keys of where its lanes go (next, other): indices once every
    // place is known.
    let mut places: BTreeMap<Key, (Place, [Option<Key>; 2])> = BTreeMap::new();
    while let Some((ctx, pc, depth)) = b.work.pop() {
        let mut end = pc;
        let mut d = depth;
        loop {
            let op = prog.instructions[end].op;
            match op {
                Pusha => d += 1,
                Popa => d = d.saturating_sub(1),
                _ => {}
            }
            if matches!(op, Bra | Cal | Ret) || b.leader[end + 1] || end + 1 >= n {
                break;
            }
            end += 1;
        }
        b.size += end + 1 - pc;
        if b.size > MAX_PLACED {
            return Err(Fallback::program("subroutine calls too deep to inline"));
        }
        let inst = &prog.instructions[end];
        let next = b.place(ctx.clone(), end + 1);
        let (exit, other) = match inst.op {
            Bra => (
                Exit::Bra {
                    taken: None,
                    next: None,
                },
                b.place(ctx.clone(), target(prog, end)),
            ),
            Cal => {
                let callee = (ctx.len() < MAX_CALL_DEPTH).then(|| {
                    let mut c = ctx.clone();
                    c.push(end as u32);
                    (c, target(prog, end))
                });
                (
                    Exit::Cal {
                        callee: None,
                        next: None,
                    },
                    callee,
                )
            }
            Ret => {
                let back = if ctx.is_empty() {
                    None
                } else {
                    let mut c = ctx.clone();
                    let s = c.pop().map_or(n, |s| s as usize + 1);
                    b.place(c, s)
                };
                (
                    Exit::Ret {
                        back: None,
                        next: None,
                    },
                    back,
                )
            }
            _ => (Exit::Next(None), None),
        };
        b.reach(next.clone(), d)?;
        b.reach(other.clone(), d)?;
        let k = key(&ctx, pc);
        let keyed = |x: Option<(Vec<u32>, usize)>| x.map(|(c, p)| key(&c, p));
        let place = Place {
            pc: pc as u32,
            end: end as u32,
            depth,
            exit,
        };
        places.insert(k, (place, [keyed(next), keyed(other)]));
    }
    let order: BTreeMap<&Key, usize> = places.keys().enumerate().map(|(i, k)| (k, i)).collect();
    let at = |k: &Option<Key>| k.as_ref().and_then(|k| order.get(k).copied());
    let mut out = Vec::with_capacity(places.len());
    for (p, [next, other]) in places.values() {
        let (next, other) = (at(next), at(other));
        let exit = match p.exit {
            Exit::Bra { .. } => Exit::Bra { taken: other, next },
            Exit::Cal { .. } => Exit::Cal {
                callee: other,
                next,
            },
            Exit::Ret { .. } => Exit::Ret { back: other, next },
            Exit::Next(_) => Exit::Next(next),
        };
        out.push(Place { exit, ..*p });
    }
    let entry = start.and_then(|(c, p)| order.get(&key(&c, p)).copied());
    Ok(Graph { places: out, entry })
}
