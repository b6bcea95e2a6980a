//! Runs over several batches whose kernels suspend and resume (`lower/group.rs`):
//!
//! - a compute work group, phase after phase between barriers, in the interpreter's
//!   order (`exec/group.rs`): each batch's kernel runs until it finishes or suspends at a
//!   BAR, and when every batch has stopped, the waiting ones are stepped past their BAR
//!   one after another (the budget and interrupt checks the interpreter makes there) and
//!   resumed in the next phase;
//! - a tessellation control patch in lock-step (`exec/lockstep.rs`): each batch's kernel
//!   suspends before every instruction that reads or writes a result or the output patch
//!   and before every jump back to a loop's start, at its lock-step position; the batch
//!   at the lowest position (the first batch on a tie) runs next, as the interpreter's
//!   lowest group does, and the output patch is published after each run. Between two
//!   such points a batch's position only grows and it touches nothing the other batch
//!   sees, so the order of everything observable is the interpreter's.

use super::frame::{Frame, BARRIER, DONE, INTERRUPTED, RERUN, YIELD};
use super::lower::group::RESUME_AT;
use super::lower::group::{BAR_PC, BAR_STEPS};
use super::native::{self, GroupSlot};
use super::{count_native_batch, count_native_batches, outcome, Kernel, Kernels, NATIVE_RERUNS};
use crate::exec::{
    lanes_mask, Env, ExecError, ExecErrorKind, ExecStats, LaneState, RunEnv, INTERRUPT_STEPS,
    MAX_LANES,
};
use crate::ir::Program;
use smallvec::SmallVec;

/// One batch of the group between phases.
struct Batch {
    /// The batch's lanes (0: it holds no invocation).
    active: u32,
    /// Its kernel's record: where it waits and what it saved.
    record: Vec<GroupSlot>,
    stats: ExecStats,
    done: bool,
}

impl Batch {
    /// One call of the batch's kernel from where its record says it stopped: its
    /// counters are added to the batch's (the totals taken when it is done), and `then`
    /// reads the status with the frame.
    #[allow(clippy::too_many_arguments)]
    fn run<E: RunEnv + ?Sized, R>(
        &mut self,
        kernel: &Kernel,
        prog: &Program,
        st: &mut LaneState,
        params: &[[u32; 4]],
        budget: u64,
        env: &mut E,
        then: impl FnOnce(u32, &mut Frame) -> R,
    ) -> R {
        native::with_frame(prog, st, params, budget, env, |r| {
            let status = r.call_group(&kernel.code, self.active, &mut self.record);
            let f = &mut *r.frame;
            self.stats += std::mem::take(&mut f.stats);
            if status == DONE {
                self.stats.instructions = f.instructions;
                self.stats.lane_instructions = f.lane_instructions;
            }
            then(status, f)
        })
    }
}

fn word<const N: usize>(record: &[GroupSlot], at: i32) -> Option<[u8; N]> {
    let at = usize::try_from(at).ok()?;
    record.first()?.0.get(at..at + N)?.try_into().ok()
}

impl Kernels {
    /// One batch per state, with its group record (`lockstep`: for lock-step kernels);
    /// None when a batch's kernel does not compile or fit.
    fn batches(
        &self,
        prog: &Program,
        lockstep: bool,
        states: &[LaneState],
        invocations: usize,
        params: &[[u32; 4]],
    ) -> Option<Vec<Batch>> {
        let mut batches = Vec::with_capacity(states.len());
        for (b, st) in states.iter().enumerate() {
            let lanes = invocations.saturating_sub(b * MAX_LANES).min(MAX_LANES);
            let active = lanes_mask(lanes);
            let mut record = Vec::new();
            if active != 0 {
                let kernel = self.kernel(prog, lockstep, active)?;
                if !kernel.fits(st, params) {
                    return None;
                }
                record = vec![GroupSlot::default(); kernel.needs.saved.max(1)];
            }
            batches.push(Batch {
                active,
                record,
                stats: ExecStats::default(),
                done: active == 0,
            });
        }
        Some(batches)
    }

    /// The suspending kernel for a batch of lanes `active`.
    fn kernel(&self, prog: &Program, lockstep: bool, active: u32) -> Option<&Kernel> {
        let full = active == lanes_mask(MAX_LANES);
        self.get_suspending(prog, full, lockstep).as_ref().ok()
    }

    /// The invocations of one work group (`states[b]` holds invocations `16b..16b+15`, set
    /// up and checked by `Executor::run_group`) as machine code; None when the group
    /// belongs to the interpreter: a batch's kernel does not compile or fit, or a kernel
    /// stopped for an interpreter rerun (then the program makes no environment call, so
    /// nothing observable has happened, and the caller starts the group over).
    pub(crate) fn run_group<E: RunEnv + ?Sized>(
        &self,
        prog: &Program,
        budget: u64,
        states: &mut [LaneState],
        invocations: usize,
        params: &[[u32; 4]],
        env: &mut E,
    ) -> Option<Result<ExecStats, ExecError>> {
        let mut batches = self.batches(prog, false, states, invocations, params)?;
        loop {
            let mut waiting: SmallVec<[usize; 64]> = SmallVec::new();
            for (b, (batch, st)) in batches.iter_mut().zip(states.iter_mut()).enumerate() {
                if batch.done {
                    continue;
                }
                let kernel = self.kernel(prog, false, batch.active)?;
                let r = batch.run(
                    kernel,
                    prog,
                    st,
                    params,
                    budget,
                    env,
                    |status, f| match status {
                        DONE => Ok(true),
                        BARRIER => Ok(false),
                        RERUN => Err(None),
                        INTERRUPTED => Err(Some(ExecError::at(
                            prog,
                            f.error_pc,
                            ExecErrorKind::Interrupted,
                        ))),
                        _ => match outcome(prog, budget, status, f) {
                            (Some(Err(e)), _) => Err(Some(e)),
                            _ => Err(Some(ExecError::at(
                                prog,
                                0,
                                ExecErrorKind::Malformed(format!("group kernel status {status}")),
                            ))),
                        },
                    },
                );
                match r {
                    Ok(true) => {
                        count_native_batch();
                        batch.done = true;
                    }
                    Ok(false) => waiting.push(b),
                    Err(Some(e)) => {
                        count_native_batch();
                        return Some(Err(e));
                    }
                    Err(None) => {
                        NATIVE_RERUNS.with(|c| c.set(c.get() + 1));
                        return None;
                    }
                }
            }
            if waiting.is_empty() {
                break;
            }
            // Every batch is at a barrier or done: the interpreter steps the waiting ones
            // past it in turn, each BAR one step of its lane group.
            for &b in &waiting {
                let Some(batch) = batches.get(b) else {
                    continue;
                };
                let pc = word::<4>(&batch.record, BAR_PC).map_or(0, u32::from_ne_bytes);
                let steps = word::<8>(&batch.record, BAR_STEPS).map_or(0, u64::from_ne_bytes);
                let steps = steps.saturating_add(1);
                let stop = if steps > budget {
                    Some(ExecErrorKind::BudgetExceeded(budget))
                } else if steps.is_multiple_of(INTERRUPT_STEPS) && env.resources().interrupted() {
                    Some(ExecErrorKind::Interrupted)
                } else {
                    None
                };
                if let Some(kind) = stop {
                    count_native_batch();
                    return Some(Err(ExecError::at(prog, pc, kind)));
                }
            }
        }
        Some(Ok(total(&batches)))
    }

    /// The invocations of one tessellation control patch (`states[b]` holds invocations
    /// `16b..16b+15`, set up, checked and published by `Executor::run_patch`) in
    /// lock-step as machine code, `publish` publishing the output patch after each run of
    /// a batch; None when the patch belongs to the interpreter: a batch's kernel does not
    /// compile or fit, or stopped for any reason but finishing (an error, a rerun). The
    /// program makes no environment call (`scan::check_lockstep`), so nothing observable
    /// has happened then, and the caller starts the patch over in the interpreter, which
    /// gives the error in its own order.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run_lockstep<E: RunEnv + ?Sized>(
        &self,
        prog: &Program,
        budget: u64,
        states: &mut [LaneState],
        invocations: usize,
        params: &[[u32; 4]],
        env: &mut E,
        publish: &mut dyn FnMut(&mut [LaneState]),
    ) -> Option<Result<ExecStats, ExecError>> {
        let mut batches = self.batches(prog, true, states, invocations, params)?;
        // Where each waiting batch stands (None: finished or empty).
        let mut at: Vec<Option<&[u32]>> = vec![None; batches.len()];
        // Every batch runs to its first lock-step point (nothing before it is seen by
        // the other batch), then the lowest waiting one runs on, until none waits.
        let mut order: Vec<usize> = (0..batches.len()).collect();
        while !order.is_empty() {
            for b in order.drain(..) {
                let (Some(batch), Some(st)) = (batches.get_mut(b), states.get_mut(b)) else {
                    continue;
                };
                if batch.done {
                    continue;
                }
                let kernel = self.kernel(prog, true, batch.active)?;
                let status = batch.run(kernel, prog, st, params, budget, env, |s, _| s);
                let record = &batch.record;
                at[b] = match status {
                    DONE => {
                        batch.done = true;
                        None
                    }
                    YIELD => {
                        let k = word::<4>(record, RESUME_AT).map_or(0, u32::from_ne_bytes);
                        let i = (k as usize).checked_sub(1)?;
                        Some(kernel.needs.positions.get(i)?.as_slice())
                    }
                    _ => {
                        NATIVE_RERUNS.with(|c| c.set(c.get() + 1));
                        return None;
                    }
                };
                publish(states);
            }
            // `min_by` keeps the first of equal positions: the lower batch.
            let lowest = at
                .iter()
                .enumerate()
                .filter_map(|(b, p)| p.map(|p| (b, p)))
                .min_by(|x, y| x.1.cmp(y.1));
            order.extend(lowest.map(|(b, _)| b));
        }
        // Counted once the patch is done: a rerun runs every batch again.
        count_native_batches(batches.iter().filter(|b| b.active != 0).count() as u64);
        Some(Ok(total(&batches)))
    }
}

/// The counters of every batch together.
fn total(batches: &[Batch]) -> ExecStats {
    let mut total = ExecStats::default();
    for b in batches {
        total += b.stats;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_reads_back_what_a_kernel_stores() {
        let mut record = vec![GroupSlot::default(); 2];
        record[0].0[4..8].copy_from_slice(&7u32.to_ne_bytes());
        record[0].0[8..16].copy_from_slice(&9u64.to_ne_bytes());
        assert_eq!(word::<4>(&record, BAR_PC).map(u32::from_ne_bytes), Some(7));
        assert_eq!(
            word::<8>(&record, BAR_STEPS).map(u64::from_ne_bytes),
            Some(9)
        );
        assert_eq!(word::<8>(&record, 12), None);
        assert_eq!(word::<4>(&[], 0), None);
    }
}
