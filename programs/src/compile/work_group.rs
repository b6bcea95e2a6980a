//! A compute work group's batches as machine code, phase after phase between barriers,
//! in the interpreter's order (`exec/group.rs`): each batch's kernel runs until it
//! finishes or suspends at a BAR (`lower/group.rs`), and when every batch has stopped,
//! the waiting ones are stepped past their BAR one after another (the budget and
//! interrupt checks the interpreter makes there) and resumed in the next phase.

use super::frame::{BARRIER, DONE, INTERRUPTED, RERUN};
use super::lower::group::{BAR_PC, BAR_STEPS};
use super::native::{self, GroupSlot};
use super::{count_native_batch, outcome, Kernels, NATIVE_RERUNS};
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

fn word<const N: usize>(record: &[GroupSlot], at: i32) -> Option<[u8; N]> {
    let at = usize::try_from(at).ok()?;
    record.first()?.0.get(at..at + N)?.try_into().ok()
}

impl Kernels {
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
        let mut batches = Vec::with_capacity(states.len());
        for (b, st) in states.iter().enumerate() {
            let lanes = invocations.saturating_sub(b * MAX_LANES).min(MAX_LANES);
            let active = lanes_mask(lanes);
            let mut record = Vec::new();
            if active != 0 {
                let kernel = self.get_group(prog, lanes == MAX_LANES).as_ref().ok()?;
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
        loop {
            let mut waiting: SmallVec<[usize; 64]> = SmallVec::new();
            for (b, (batch, st)) in batches.iter_mut().zip(states.iter_mut()).enumerate() {
                if batch.done {
                    continue;
                }
                let kernel = self
                    .get_group(prog, batch.active == lanes_mask(MAX_LANES))
                    .as_ref()
                    .ok()?;
                let record = &mut batch.record;
                let stats = &mut batch.stats;
                let r = native::with_frame(prog, st, params, budget, env, |r| {
                    let status = r.call_group(&kernel.code, batch.active, record);
                    let f = &mut *r.frame;
                    *stats += std::mem::take(&mut f.stats);
                    match status {
                        DONE => {
                            stats.instructions = f.instructions;
                            stats.lane_instructions = f.lane_instructions;
                            Ok(true)
                        }
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
                    }
                });
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
        let mut total = ExecStats::default();
        for b in &batches {
            total += b.stats;
        }
        Some(Ok(total))
    }
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
