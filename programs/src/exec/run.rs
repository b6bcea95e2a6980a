//! One run of a program over a batch: the lane groups and their control stacks, the
//! run's context ([`Run`]) and the result writes every instruction module shares. The
//! instruction modules (alu, convert, wide, flow, memory, texture) depend on this module
//! and on the operand and state modules only; the executor dispatches to them.

use super::env::RunEnv;
use super::error::{ExecErrorKind, ExecStats};
use super::operand::{finish32, store32, store64, Access, CarryFlags, Raw, Wide, WriteInfo};
use super::state::LaneState;
use super::{LaneMask, Vec4, MAX_LANES};
use crate::ir::{DataType, Index, Inst, Program};
use smallvec::SmallVec;

/// Deepest CAL/CALI nesting (MAX_PROGRAM_CALL_DEPTH_NV on NVIDIA hardware), also the
/// depth of the PUSHA stack.
pub(crate) const MAX_CALL_DEPTH: usize = 32;

/// One open block on a group's control stack.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Frame {
    /// REP at `start`; `remaining` iterations including the current one (None = no count).
    Rep { start: u32, remaining: Option<i64> },
    /// LOOP at `start` with its counter.
    Loop {
        start: u32,
        remaining: i64,
        counter: i32,
        step: i32,
    },
    /// CAL/CALI: where RET continues.
    Call { ret: u32 },
}

/// Lanes that share a program counter and a control stack.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub pc: u32,
    pub mask: LaneMask,
    pub frames: SmallVec<[Frame; 8]>,
    /// PUSHA stack: per-lane address register values.
    pub pushed: Vec<[[i32; MAX_LANES]; 4]>,
    pub steps: u64,
}

impl Group {
    /// A copy of this group restricted to `mask`.
    pub(crate) fn with_mask(&self, mask: LaneMask) -> Group {
        Group {
            pc: self.pc,
            mask,
            frames: self.frames.clone(),
            pushed: self.pushed.clone(),
            steps: self.steps,
        }
    }

    // Called for every operand access; most groups have no open block at all.
    #[inline]
    pub(crate) fn loop_counter(&self) -> i32 {
        if self.frames.is_empty() {
            return 0;
        }
        self.frames
            .iter()
            .rev()
            .find_map(|f| match f {
                Frame::Loop { counter, .. } => Some(*counter),
                _ => None,
            })
            .unwrap_or(0)
    }

    pub(crate) fn same_place(&self, o: &Group) -> bool {
        self.pc == o.pc && self.frames == o.frames && self.pushed.len() == o.pushed.len()
    }

    /// Absorb `o` (same place): lanes of `o` take their PUSHA values from `o`.
    pub(crate) fn absorb(&mut self, o: Group) {
        for (mine, theirs) in self.pushed.iter_mut().zip(o.pushed.iter()) {
            for c in 0..4 {
                for l in 0..MAX_LANES {
                    if o.mask & (1 << l) != 0 {
                        mine[c][l] = theirs[c][l];
                    }
                }
            }
        }
        self.mask |= o.mask;
        self.steps = self.steps.max(o.steps);
    }
}

/// The groups of one batch.
pub(crate) type Groups = SmallVec<[Group; 4]>;

/// One group holding every lane of `active`, at the program's entry.
pub(crate) fn initial_groups(prog: &Program, active: LaneMask) -> Groups {
    let mut groups = Groups::new();
    if active != 0 {
        groups.push(Group {
            pc: prog.entry,
            mask: active,
            frames: SmallVec::new(),
            pushed: Vec::new(),
            steps: 0,
        });
    }
    groups
}

/// Where a group stands in the lock-step order of NV_tessellation_program5 section
/// 2.X.5: the CAL site of each open call, outermost first, then its pc. Lanes inside a
/// subroutine are "at" their CAL in the caller, so they run before lanes that skipped
/// the call and wait after it, as the spec's threads do.
pub(crate) fn position(g: &Group) -> SmallVec<[u32; 4]> {
    let mut at: SmallVec<[u32; 4]> = g
        .frames
        .iter()
        .filter_map(|f| match f {
            Frame::Call { ret } => Some(ret.saturating_sub(1)),
            _ => None,
        })
        .collect();
    at.push(g.pc);
    at
}

/// What running one instruction did to the group's control flow.
pub(crate) enum Next {
    /// Continue with the next instruction.
    Seq,
    /// The group's pc/mask were updated by the instruction itself; new groups (lanes that
    /// went elsewhere) are in the vector.
    Moved,
}

/// Per-run context shared by the instruction implementations.
pub(crate) struct Run<'a, E: RunEnv + ?Sized> {
    pub prog: &'a Program,
    pub st: &'a mut LaneState,
    pub params: &'a [[u32; 4]],
    pub env: &'a mut E,
    pub stats: ExecStats,
    /// Groups created by splits during the current instruction.
    pub spawned: SmallVec<[Group; 4]>,
    /// BUFFER/BUFFER4 operands of the current instruction (see [`Access::prefetched`]).
    pub prefetched: Vec<(u32, Index, Option<Index>, Raw)>,
    /// Reused source-operand buffer for 32-bit arithmetic (taken while in use).
    pub srcs: Option<Box<[super::Vec4; 3]>>,
}

impl<'a, E: RunEnv + ?Sized> Run<'a, E> {
    /// A run of `prog` over `st`, borrowing the state's operand buffer (give it back with
    /// `st.operand_buf = run.srcs.take()`).
    pub(crate) fn new(
        prog: &'a Program,
        st: &'a mut LaneState,
        params: &'a [[u32; 4]],
        env: &'a mut E,
    ) -> Run<'a, E> {
        let srcs = st.operand_buf.take();
        Run {
            prog,
            st,
            params,
            env,
            stats: ExecStats::default(),
            spawned: SmallVec::new(),
            prefetched: Vec::new(),
            srcs,
        }
    }

    #[inline]
    pub(crate) fn access(&self, g: &Group) -> Access<'a> {
        Access {
            params: self.params,
            loop_counter: g.loop_counter(),
            mask: g.mask,
            prefetched: self.prefetched.clone(),
        }
    }
}

/// Finish and store a 32-bit result of type `rtype`.
pub(crate) fn write32<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &Group,
    inst: &Inst,
    rtype: DataType,
    mut v: Vec4,
    carry: Option<&CarryFlags>,
) -> Result<(), ExecErrorKind> {
    let Some(dst) = inst.dst.as_ref() else {
        return Ok(());
    };
    finish32(&mut v, rtype, inst.sat, inst.precision);
    let acc = run.access(g);
    let w = WriteInfo {
        dst,
        dtype: rtype,
        sat: inst.sat,
        cc_update: inst.cc_update,
        carry,
    };
    store32(run.st, &acc, &w, &v, &mut run.stats)
}

/// Store a 64-bit result of type `rtype`.
pub(crate) fn write64<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &Group,
    inst: &Inst,
    rtype: DataType,
    v: &Wide,
) -> Result<(), ExecErrorKind> {
    let Some(dst) = inst.dst.as_ref() else {
        return Ok(());
    };
    let acc = run.access(g);
    let w = WriteInfo {
        dst,
        dtype: rtype,
        sat: inst.sat,
        cc_update: inst.cc_update,
        carry: None,
    };
    store64(run.st, &acc, &w, v, &mut run.stats)
}
