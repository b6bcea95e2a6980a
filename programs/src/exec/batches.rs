//! Runs over several lane states at once: a compute work group (`group.rs`) and a
//! tessellation control patch (`lockstep.rs`). Invocation `i` is lane `i % MAX_LANES` of
//! batch `i / MAX_LANES`; each batch keeps its lane groups between the steps the two
//! schedulers take in their own orders.

use super::env::RunEnv;
use super::error::{ExecError, ExecErrorKind, ExecStats};
use super::executor::Executor;
use super::run::{initial_groups, Groups, Run};
use super::state::LaneState;
use super::trace::{Hook, NoHook};
use super::{lanes_mask, MAX_LANES};

/// One lane state's lane groups and counters between steps.
pub(crate) struct Batch {
    pub groups: Groups,
    pub stats: ExecStats,
}

/// Lanes of batch `b` that hold one of `invocations` invocations.
pub(crate) fn lanes_of(b: usize, invocations: usize) -> usize {
    invocations.saturating_sub(b * MAX_LANES).min(MAX_LANES)
}

/// A caller's error about the lane states it passed (not about the program).
pub(crate) fn bad_state(m: String) -> ExecError {
    ExecError::new(0, Default::default(), ExecErrorKind::BadState(m))
}

impl Executor {
    /// Checks that `states` hold `invocations` invocations for this program (`extra`
    /// adds the caller's own check of each state, after the common ones) and starts a
    /// batch on each, its lanes at the entry point.
    pub(crate) fn start_batches(
        &self,
        states: &mut [LaneState],
        invocations: usize,
        extra: impl Fn(usize, &LaneState) -> Result<(), ExecError>,
    ) -> Result<Vec<Batch>, ExecError> {
        if states.len() * MAX_LANES < invocations {
            return Err(bad_state(format!(
                "{} lane states cannot hold {invocations} invocations",
                states.len()
            )));
        }
        let prog = &**self.program();
        let mut batches = Vec::with_capacity(states.len());
        for (b, st) in states.iter_mut().enumerate() {
            self.check_state(st)?;
            let lanes = lanes_of(b, invocations);
            if st.width < lanes {
                return Err(bad_state(format!(
                    "lane state {b} is narrower than {lanes} lanes"
                )));
            }
            extra(b, st)?;
            st.reset_run();
            batches.push(Batch {
                groups: initial_groups(prog, lanes_mask(lanes)),
                stats: ExecStats::default(),
            });
        }
        Ok(batches)
    }

    /// Runs `batch`'s lane groups over `st` while `next` names one to run (given the
    /// groups, it returns the index of the next group or `None` to stop).
    pub(crate) fn run_batch<E: RunEnv + ?Sized>(
        &self,
        batch: &mut Batch,
        st: &mut LaneState,
        params: &[[u32; 4]],
        env: &mut E,
        next: impl FnMut(&Self, &mut Groups) -> Option<usize>,
    ) -> Result<(), ExecError> {
        self.run_batch_hooked(batch, st, params, env, None::<&mut NoHook>, next)
    }

    /// [`Executor::run_batch`] with `hook` around every instruction (`glemu trace`).
    pub(crate) fn run_batch_hooked<E: RunEnv + ?Sized, H: Hook<E>>(
        &self,
        batch: &mut Batch,
        st: &mut LaneState,
        params: &[[u32; 4]],
        env: &mut E,
        mut hook: Option<&mut H>,
        mut next: impl FnMut(&Self, &mut Groups) -> Option<usize>,
    ) -> Result<(), ExecError> {
        let mut run = Run::new(self.program(), st, params, env);
        run.stats = batch.stats;
        let mut result = Ok(());
        while let Some(gi) = next(self, &mut batch.groups) {
            if let Some(h) = hook.as_deref_mut().filter(|_| H::ON) {
                h.before(run.prog, run.st, run.params, &batch.groups[gi]);
            }
            result = self.exec_group(&mut run, &mut batch.groups, gi);
            if let Some(h) = hook.as_deref_mut().filter(|_| H::ON) {
                h.after(run.prog, run.st, &batch.groups, run.env);
            }
            if result.is_err() {
                break;
            }
        }
        batch.stats = run.stats;
        run.st.operand_buf = run.srcs.take();
        result
    }
}

/// The counters of every batch together.
pub(crate) fn total_stats(batches: &[Batch]) -> ExecStats {
    let mut stats = ExecStats::default();
    for b in batches {
        stats += b.stats;
    }
    stats
}
