//! Compute work groups (NV_compute_program5): the invocations of one group run batch
//! after batch between barriers.
//!
//! Invocation `i` of a group is lane `i % MAX_LANES` of batch `i / MAX_LANES`. Each batch
//! runs on its own (with the usual lowest-position-first order inside it) until every
//! lane has finished or the group that comes next is at a `BAR`. When every batch has
//! stopped, the batches waiting at a `BAR` step past it and the next phase starts.
//! Everything an invocation wrote before a `BAR` is therefore visible to every invocation
//! after it, as the spec requires, and a group runs on one thread in a fixed order, so a
//! race-free program gives the same memory contents at any thread count. A `BAR` in
//! divergent flow control (undefined in the spec) cannot hang: the barrier opens once
//! every batch is either waiting or finished.

use super::batches::total_stats;
use super::env::RunEnv;
use super::error::{ExecError, ExecStats};
use super::executor::Executor;
use super::run::Groups;
use super::state::LaneState;
use crate::ir::Opcode;
use smallvec::SmallVec;

impl Executor {
    /// Runs the `invocations` invocations of one compute work group (see the module
    /// comment): `states[b]` holds invocations `16b..16b+15` and needs its inputs set by
    /// the caller. Shared memory is the environment's, through its
    /// [`ComputeHooks`](super::ComputeHooks) ([`Compute`](super::Compute)`(&mut env)`).
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// // Each invocation stores its index; after BAR it reads its neighbour's.
    /// struct Shared(Vec<u8>);
    /// impl Env for Shared {}
    /// impl ComputeHooks for Shared {
    ///     fn shared_read(&mut self, a: u64, out: &mut [u8]) -> Result<bool, EnvError> {
    ///         let a = a as usize;
    ///         out.copy_from_slice(&self.0[a..a + out.len()]);
    ///         Ok(true)
    ///     }
    ///     fn shared_write(&mut self, a: u64, d: &[u8]) -> Result<bool, EnvError> {
    ///         let a = a as usize;
    ///         self.0[a..a + d.len()].copy_from_slice(d);
    ///         Ok(true)
    ///     }
    ///     fn shared_atomic(&mut self, _: u64, _: u8, _: &dyn Fn(u64) -> Option<u64>) -> Result<Option<u64>, EnvError> {
    ///         Err(EnvError::not_supported("shared atomics"))
    ///     }
    /// }
    /// let t = "!!NVcp5.0\nGROUP_SIZE 20;\nSHARED_MEMORY 80;\nSHARED s[] = { program.sharedmem };\n\
    ///          UINT TEMP i, a, r;\nMOV.U i, invocation.localindex;\nMUL.U a.x, i.x, 4;\n\
    ///          STS.U32 i, s[a.x];\nBAR;\nADD.U i.x, i.x, 1;\nMOD.U i.x, i.x, 20;\nMUL.U a.x, i.x, 4;\n\
    ///          LDS.U32 r, s[a.x];\nEND";
    /// let p = Arc::new(assemble(t, None).unwrap());
    /// let params: Vec<[u32; 4]> = p.params.iter().map(|s| match s { ParamSource::Constant(c) => *c, _ => [0; 4] }).collect();
    /// let ex = Executor::new(p.clone());
    /// let mut states: Vec<LaneState> = (0..2).map(|_| ex.new_state(MAX_LANES)).collect();
    /// for i in 0..20 {
    ///     states[i / MAX_LANES].set_input(0, i % MAX_LANES, [i as u32; 4]);
    /// }
    /// ex.run_group(&mut states, 20, &params, &mut Compute(&mut Shared(vec![0; 80]))).unwrap();
    /// // Temp 2 (r) of invocation 19 holds what invocation 0 stored.
    /// assert_eq!(states[1].temp_lane(2, 3)[0], 0);
    /// assert_eq!(states[0].temp_lane(2, 5)[0], 6);
    /// ```
    pub fn run_group<E: RunEnv + ?Sized>(
        &self,
        states: &mut [LaneState],
        invocations: usize,
        params: &[[u32; 4]],
        env: &mut E,
    ) -> Result<ExecStats, ExecError> {
        let prog = &**self.program();
        self.check_hooks(env)?;
        let mut batches = self.start_batches(states, invocations, |_, _| Ok(()))?;
        if let Some(r) = self.run_group_native(states, invocations, params, env) {
            return r;
        }
        let at_bar = |groups: &Groups, gi: usize| {
            groups
                .get(gi)
                .and_then(|g| prog.instructions.get(g.pc as usize))
                .is_some_and(|i| i.op == Opcode::Bar)
        };
        loop {
            let mut waiting: SmallVec<[usize; 64]> = SmallVec::new();
            for (b, (batch, st)) in batches.iter_mut().zip(states.iter_mut()).enumerate() {
                let mut at_barrier = false;
                self.run_batch(batch, st, params, env, |ex, groups| {
                    let gi = ex.pick(groups)?;
                    at_barrier = at_bar(groups, gi);
                    (!at_barrier).then_some(gi)
                })?;
                if at_barrier {
                    waiting.push(b);
                }
            }
            if waiting.is_empty() {
                break;
            }
            // Every batch is at a barrier or done: step the waiting ones past it.
            for b in waiting {
                let (Some(batch), Some(st)) = (batches.get_mut(b), states.get_mut(b)) else {
                    continue;
                };
                let mut once = true;
                self.run_batch(batch, st, params, env, |ex, groups| {
                    std::mem::take(&mut once).then(|| ex.pick(groups)).flatten()
                })?;
            }
        }
        Ok(total_stats(&batches))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assemble;
    use crate::exec::{Compute, ComputeHooks, Env, EnvError, MAX_LANES};
    use std::sync::Arc;

    /// Shared memory as a byte vector; every access in range.
    struct Mem(Vec<u8>);

    impl Env for Mem {}

    impl ComputeHooks for Mem {
        fn shared_read(&mut self, a: u64, out: &mut [u8]) -> Result<bool, EnvError> {
            let a = a as usize;
            match self.0.get(a..a + out.len()) {
                Some(s) => out.copy_from_slice(s),
                None => return Ok(false),
            }
            Ok(true)
        }
        fn shared_write(&mut self, a: u64, d: &[u8]) -> Result<bool, EnvError> {
            let a = a as usize;
            match self.0.get_mut(a..a + d.len()) {
                Some(s) => s.copy_from_slice(d),
                None => return Ok(false),
            }
            Ok(true)
        }
        fn shared_atomic(
            &mut self,
            a: u64,
            size: u8,
            f: &dyn Fn(u64) -> Option<u64>,
        ) -> Result<Option<u64>, EnvError> {
            let a = a as usize;
            let n = usize::from(size);
            let Some(s) = self.0.get_mut(a..a + n) else {
                return Ok(None);
            };
            let mut w = [0u8; 8];
            w[..n].copy_from_slice(s);
            let old = u64::from_le_bytes(w);
            if let Some(new) = f(old) {
                s.copy_from_slice(&new.to_le_bytes()[..n]);
            }
            Ok(Some(old))
        }
    }

    /// Runs `body` as a compute program of `n` invocations (`GROUP_SIZE n`, shared memory
    /// of `bytes`); input 0 must be `invocation.localindex`. Returns the shared memory.
    fn run(n: usize, bytes: usize, body: &str) -> Vec<u8> {
        let text = format!(
            "!!NVcp5.0\nGROUP_SIZE {n};\nSHARED_MEMORY {bytes};\nSHARED s[] = {{ program.sharedmem }};\n\
             UINT TEMP i, a, r, t;\nMOV.U i, invocation.localindex;\n{body}\nEND\n"
        );
        let p = Arc::new(assemble(&text, None).unwrap_or_else(|e| panic!("{e}")));
        let ex = Executor::new(p);
        let mut states: Vec<LaneState> = (0..n.div_ceil(MAX_LANES))
            .map(|_| ex.new_state(MAX_LANES))
            .collect();
        for i in 0..n {
            states[i / MAX_LANES].set_input(0, i % MAX_LANES, [i as u32; 4]);
        }
        let params: Vec<[u32; 4]> = ex
            .program()
            .params
            .iter()
            .map(|s| match s {
                crate::ir::ParamSource::Constant(c) => *c,
                _ => [0; 4],
            })
            .collect();
        let mut mem = Mem(vec![0; bytes]);
        ex.run_group(&mut states, n, &params, &mut Compute(&mut mem))
            .unwrap_or_else(|e| panic!("{e}"));
        mem.0
    }

    #[test]
    fn shared_memory_without_compute_hooks_is_refused_naming_them() {
        let text =
            "!!NVcp5.0\nGROUP_SIZE 1;\nSHARED_MEMORY 4;\nSHARED s[] = { program.sharedmem };\n\
                    UINT TEMP r;\nLDS.U32 r, s[0];\nEND";
        let p = Arc::new(assemble(text, None).unwrap_or_else(|e| panic!("{e}")));
        let ex = Executor::new(p);
        let mut states = vec![ex.new_state(MAX_LANES)];
        let e = ex
            .run_group(&mut states, 1, &[], &mut crate::exec::NullEnv)
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some(
                "instruction 0 (byte 90): bad lane state: Load needs the environment's \
                 ComputeHooks: run it with exec::Compute(env)"
            )
        );
    }

    fn words(b: &[u8]) -> Vec<u32> {
        b.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    #[test]
    fn a_tree_reduction_needs_its_barriers() {
        // 64 invocations sum their indices in shared memory by halving strides.
        let body = "MUL.U a.x, i.x, 4;\nSTS.U32 i, s[a.x];\nBAR;\n\
             MOV.U r.y, 32;\nREP;\n\
             SLT.U.CC r.z, i.x, r.y;\nIF NE.z;\n\
             ADD.U r.w, i.x, r.y;\nMUL.U r.w, r.w, 4;\nLDS.U32 r.x, s[r.w];\n\
             LDS.U32 t.x, s[a.x];\nADD.U r.x, r.x, t.x;\nSTS.U32 r.x, s[a.x];\nENDIF;\n\
             BAR;\nSHR.U r.y, r.y, 1;\nSEQ.U.CC r.z, r.y, 0;\nBRK (NE.z);\nENDREP;";
        assert_eq!(words(&run(64, 256, body))[0], (0..64).sum::<u32>());
        // Without them the first batch reads halves the others have not stored yet.
        let racy = run(64, 256, &body.replace("BAR;", ""));
        assert_ne!(words(&racy)[0], (0..64).sum::<u32>());
    }

    #[test]
    fn shared_atomics_count_every_invocation() {
        let m = run(
            40,
            8,
            "ATOMS.ADD.U32 r.x, 1, s[0];\nAND.U a.x, i.x, 1;\nMUL.U a.x, a.x, 4;\nATOMS.MAX.U32 r.x, i.x, s[4];",
        );
        assert_eq!(words(&m), [40, 39]);
    }

    #[test]
    fn barriers_in_divergent_flow_do_not_hang() {
        // Only the first batch reaches the BAR; the barrier opens when the other batch
        // has finished.
        let m = run(
            32,
            4,
            "SLT.U.CC r.x, i.x, 16;\nIF NE.x;\nBAR;\nATOMS.ADD.U32 r.y, 1, s[0];\nENDIF;",
        );
        assert_eq!(words(&m), [16]);
    }
}
