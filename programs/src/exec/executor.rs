//! The executor: lane groups, scheduling and dispatch of each instruction.

use super::env::{Env, RunEnv};
use super::error::{ExecError, ExecErrorKind, ExecStats};
use super::state::LaneState;
// The native back end reaches the run types through here (compile::frame, scan, lower).
use super::run::{initial_groups, position, Groups};
pub(crate) use super::run::{Frame, Group, Next, Run, MAX_CALL_DEPTH};
use super::trace::{traced_lanes, Hook, LaneTrace, Lanes, NoHook, Recording, TracingEnv};
use super::{alu, flow, memory, texture, LaneMask, MAX_LANES};
use crate::ir::{File, OpClass, Opcode, Program, Stage};
use std::sync::Arc;

/// Default instruction budget per invocation: generous for real programs (a million
/// instructions), small enough that a runaway loop ends within a fraction of a second.
pub(crate) const DEFAULT_BUDGET: u64 = 1 << 20;

/// A group asks [`Env::interrupted`] every this many instructions: a long loop stops
/// soon after a draw's deadline, and the question costs nothing next to the steps.
pub const INTERRUPT_STEPS: u64 = 1 << 14;

/// Runs one compiled program over batches of lanes. Build once, share across threads.
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
/// let ex = Executor::new(p);
/// let mut st = ex.new_state(1);
/// st.set_input_f32(0, 0, [1.0, 2.0, 3.0, 4.0]);
/// ex.run(&mut st, 1, &[], &mut NullEnv).unwrap();
/// assert_eq!(st.output_f32(0, 0), [2.0, 4.0, 6.0, 8.0]);
/// ```
#[derive(Debug, Clone)]
pub struct Executor {
    program: Arc<Program>,
    budget: u64,
    /// `labels` as a bitmap over instruction indices, for the implicit return at a label.
    label_at: Vec<bool>,
    backend: Backend,
    /// Native kernels of the program (compiled on first use) when the backend is native.
    kernels: Option<Arc<crate::compile::Kernels>>,
    /// The program's validation: a program that fails it never runs.
    valid: Result<(), crate::validate::ValidationError>,
    /// The stage hooks the program calls (first instruction that does): a run whose
    /// environment lacks them is refused.
    needs_hooks: Option<(Stage, u32, Opcode)>,
    /// The program for whole blocks ([`Executor::block_program`]), decided on first use.
    block_program: Arc<std::sync::OnceLock<Option<super::BlockProgram>>>,
}

/// How an [`Executor`] runs its program.
///
/// ```
/// # use glemu_programs::{assemble, exec::*};
/// # use std::sync::Arc;
/// let p = Arc::new(assemble("!!ARBvp1.0\nADD result.position, vertex.position, vertex.position;\nEND", None).unwrap());
/// for backend in [Backend::Interpreter, Backend::Native, Backend::NativeAllRegisters] {
///     let ex = Executor::new(p.clone()).with_backend(backend);
///     assert_eq!(ex.backend(), backend);
///     let mut st = ex.new_state(16);
///     st.set_input_f32(0, 3, [1.0, 2.0, 3.0, 4.0]);
///     ex.run(&mut st, 0xffff, &[], &mut NullEnv).unwrap();
///     assert_eq!(st.output_f32(0, 3), [2.0, 4.0, 6.0, 8.0]);
/// }
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Backend {
    /// Interpret every instruction (the reference; what debugging tools want).
    #[default]
    Interpreter,
    /// Machine code compiled with Cranelift when the program allows (see
    /// [`Executor::native_status`]), the interpreter otherwise. Bit-identical outputs and
    /// kill masks; temporaries, address registers and condition codes are not written
    /// back to the [`LaneState`] (they are only kept inside the compiled code).
    Native,
    /// [`Backend::Native`] that also writes temporaries, address registers and condition
    /// codes back, so the whole register file can be compared with the interpreter's.
    NativeAllRegisters,
}

impl Backend {
    /// The backend apps get by default: [`Backend::Native`], or [`Backend::Interpreter`]
    /// when the environment variable `GLEMU_INTERPRET` is set to anything but `0` or an
    /// empty string (for bisecting a suspected compiler bug).
    ///
    /// ```
    /// # use glemu_programs::exec::Backend;
    /// let b = Backend::from_env();
    /// assert!(matches!(b, Backend::Native | Backend::Interpreter));
    /// ```
    pub fn from_env() -> Backend {
        match std::env::var("GLEMU_INTERPRET") {
            Ok(v) if !v.is_empty() && v != "0" => Backend::Interpreter,
            _ => Backend::Native,
        }
    }
}

impl Executor {
    /// Prepare `program` for execution.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!ARBvp1.0\nMOV result.position, vertex.position;\nEND", None).unwrap());
    /// let ex = Executor::new(p.clone());
    /// assert!(Arc::ptr_eq(ex.program(), &p));
    /// ```
    pub fn new(program: Arc<Program>) -> Executor {
        let n = program.instructions.len();
        let mut label_at = vec![false; n + 1];
        // Labels end subroutines only in the structured dialects; where BRA exists
        // (NV_vertex_program2 and its ARB option) labels are plain branch targets.
        let has_bra = program.instructions.iter().any(|i| i.op == Opcode::Bra);
        for &l in program.labels.iter().filter(|_| !has_bra) {
            if let Some(b) = label_at.get_mut(l as usize) {
                *b = true;
            }
        }
        let valid = crate::validate::validate(&program);
        Executor {
            valid,
            needs_hooks: super::env::hooks_needed(&program),
            program,
            budget: DEFAULT_BUDGET,
            label_at,
            backend: Backend::Interpreter,
            kernels: None,
            block_program: Arc::default(),
        }
    }

    /// Choose how the program runs (the interpreter by default).
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!ARBfp1.0\nMOV result.color, fragment.color;\nEND", None).unwrap());
    /// let ex = Executor::new(p).with_backend(Backend::Native);
    /// assert_eq!(ex.backend(), Backend::Native);
    /// ```
    pub fn with_backend(mut self, backend: Backend) -> Executor {
        self.backend = backend;
        self.kernels = match backend {
            Backend::Interpreter => None,
            Backend::Native => Some(Arc::new(crate::compile::Kernels::new(false))),
            Backend::NativeAllRegisters => Some(Arc::new(crate::compile::Kernels::new(true))),
        };
        self
    }

    /// The backend chosen with [`Executor::with_backend`].
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!ARBfp1.0\nMOV result.color, fragment.color;\nEND", None).unwrap());
    /// assert_eq!(Executor::new(p).backend(), Backend::Interpreter);
    /// ```
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// With a native backend: compile the program now (if not done yet) and tell whether
    /// it runs as machine code, or why it falls back to the interpreter. None for the
    /// interpreter backend.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!ARBfp1.0\nMOV result.color, fragment.color;\nEND", None).unwrap());
    /// let ex = Executor::new(p.clone()).with_backend(Backend::Native);
    /// assert_eq!(ex.native_status(), Some(Ok(())));
    /// assert_eq!(Executor::new(p).native_status(), None);
    /// ```
    pub fn native_status(&self) -> Option<Result<(), crate::compile::Fallback>> {
        self.kernels.as_ref().map(|k| k.status(&self.program))
    }

    /// [`Executor::native_status`] of the kernels that run a tessellation control patch
    /// in lock-step ([`Executor::run_patch`] of two batches, or of invocations that read
    /// each other's results): they make no environment call.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::Stage};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVtcp5.0\nVERTICES_OUT 3;\nMOV result.attrib[0], vertex.out[1].attrib[0];\nEND", Some(Stage::TessControl)).unwrap());
    /// let ex = Executor::new(p).with_backend(Backend::Native);
    /// assert_eq!(ex.native_patch_status(), Some(Ok(())));
    /// ```
    pub fn native_patch_status(&self) -> Option<Result<(), crate::compile::Fallback>> {
        self.kernels
            .as_ref()
            .map(|k| k.lockstep_status(&self.program))
    }

    /// Change the per-invocation instruction budget.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVvp4.0\nREP;\nBRK (FL.x);\nENDREP;\nMOV result.position, 0;\nEND", None).unwrap());
    /// let ex = Executor::new(p).with_budget(1000);
    /// let e = ex.run(&mut ex.new_state(1), 1, &[], &mut NullEnv).unwrap_err();
    /// assert_eq!(e.kind, ExecErrorKind::BudgetExceeded(1000));
    /// ```
    pub fn with_budget(mut self, budget: u64) -> Executor {
        self.budget = budget.max(1);
        self
    }

    /// The program this executor runs.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// assert_eq!(ex.program().instructions.len(), 1);
    /// ```
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// A lane state sized for this program.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// let st = ex.new_state(5);
    /// assert_eq!((st.width(), st.all_lanes()), (5, 0b11111));
    /// ```
    pub fn new_state(&self, width: usize) -> LaneState {
        LaneState::new(&self.program, width)
    }

    /// Run the program on the lanes of `active` (bits at or above the state's width are
    /// ignored). `params` holds one vec4 per `Program::params` entry (raw bits); missing
    /// entries read as zero and are counted as out-of-range reads.
    ///
    /// On return the outputs and kill mask of `state` hold the results; on error they are
    /// partial and should be discarded.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// let mut st = ex.new_state(4);
    /// st.set_input_f32(0, 3, [1.0; 4]);
    /// ex.run(&mut st, 0b1000, &[], &mut NullEnv).unwrap();
    /// assert_eq!(st.output_f32(0, 3), [2.0; 4]);
    /// assert_eq!(st.output_f32(0, 0), [0.0; 4]);
    /// ```
    pub fn run<E: RunEnv + ?Sized>(
        &self,
        state: &mut LaneState,
        active: LaneMask,
        params: &[[u32; 4]],
        env: &mut E,
    ) -> Result<ExecStats, ExecError> {
        let prog = &*self.program;
        self.check_state(state)?;
        self.check_hooks(env)?;
        let active = active & state.all_lanes();
        if let Some(k) = &self.kernels {
            if let Some(r) = k.run(prog, self.budget, state, active, params, env) {
                return r;
            }
        }
        self.interpret(state, active, params, env, &mut NoHook)
    }

    /// [`Executor::run`] of `n` batches in turn on one lane state, with the same
    /// parameters and environment: `fill(i, state)` sets up batch `i`'s inputs and returns
    /// its active lanes (0 skips it), `done(i, state)` reads its outputs and kill mask.
    /// The state is checked and a compiled program's frame built once for all the
    /// batches (a fully covered block's strips: per batch, that glue cost more than a
    /// short program). Stops at the first error. The run's counters ([`ExecStats`]) are
    /// not kept: reading them back from a kernel cost more than a short program.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!ARBfp1.0\nADD result.color, fragment.color, fragment.color;\nEND", None).unwrap());
    /// let ex = Executor::new(p).with_backend(Backend::Native);
    /// let mut st = ex.new_state(MAX_LANES);
    /// let mut got = Vec::new();
    /// ex.run_each(&mut st, &[], &mut NullEnv, 3,
    ///     |i, st| { st.set_input_f32(0, 0, [i as f32; 4]); 1 },
    ///     |_, st| got.push(st.output_f32(0, 0)[0])).unwrap();
    /// assert_eq!(got, [0.0, 2.0, 4.0]);
    /// ```
    pub fn run_each<E: RunEnv + ?Sized>(
        &self,
        state: &mut LaneState,
        params: &[[u32; 4]],
        env: &mut E,
        n: usize,
        fill: impl FnMut(usize, &mut LaneState) -> LaneMask,
        mut done: impl FnMut(usize, &LaneState),
    ) -> Result<(), ExecError> {
        let none: Option<crate::compile::BlockRun<'_, '_, &mut [u32]>> = None;
        self.run_each_with(state, params, env, n, none, fill, |i, st, _| done(i, st))
    }

    /// The program compiled together with the RGBA8 store of `spec` (see
    /// [`Executor::run_block`]), compiled on first use and kept; None with the interpreter
    /// backend or when the program does not compile.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*, compile::BlockSpec};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!ARBfp1.0\nMOV result.color, fragment.color;\nEND", None).unwrap());
    /// let spec = BlockSpec { color: 0, alpha_one: false, samples: 1 };
    /// assert!(Executor::new(p.clone()).with_backend(Backend::Native).block_kernel(&spec).is_some());
    /// assert!(Executor::new(p).block_kernel(&spec).is_none());
    /// ```
    pub fn block_kernel(
        &self,
        spec: &crate::compile::BlockSpec,
    ) -> Option<Arc<crate::compile::BlockKernel>> {
        self.kernels.as_ref()?.block(&self.program, spec)
    }

    /// The program as a [`BlockProgram`](super::BlockProgram), run over all the strips of
    /// a fully covered block at once, when the backend is [`Backend::Native`] and the
    /// program is one it takes (`None` otherwise: strips run as before). It is a fast
    /// path like the compiled kernels, so a forced interpreter never takes it.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!ARBfp1.0\nMOV result.color, fragment.color;\nEND", None).unwrap());
    /// assert!(Executor::new(p.clone()).with_backend(Backend::Native).block_program().is_some());
    /// assert!(Executor::new(p).block_program().is_none());
    /// ```
    pub fn block_program(&self) -> Option<&super::BlockProgram> {
        if self.backend != Backend::Native || self.valid.is_err() {
            return None;
        }
        self.block_program
            .get_or_init(|| super::BlockProgram::new(&self.program).ok())
            .as_ref()
    }

    /// [`Executor::run_each`] of the `n` strips of a fully covered block (every lane
    /// active), each strip's colour output packed and stored by the compiled program
    /// itself: `kernel`'s spec names the output; strip `i` goes into `rows[2i]` (lanes 0,
    /// 1 of each quad) and `rows[2i + 1]` (lanes 2, 3), where `covs[i]` is not 0 and the
    /// program did not kill the lane. With `samples` (the spec's, [`BlockSpec::samples`])
    /// above one a row is eight pixels of that many words, and a lane's word goes to the
    /// samples whose bits its coverage word has. `done(i, state, rows)` gets the rows
    /// when the strip ran in the interpreter instead: the caller stores its colours from
    /// `state` then.
    ///
    /// [`BlockSpec::samples`]: crate::compile::BlockSpec::samples
    #[allow(clippy::too_many_arguments)]
    pub fn run_block<E: RunEnv + ?Sized, R: AsMut<[u32]>>(
        &self,
        kernel: &crate::compile::BlockKernel,
        state: &mut LaneState,
        params: &[[u32; 4]],
        env: &mut E,
        rows: &mut [R],
        covs: &[&[u32; MAX_LANES]],
        fill: impl FnMut(usize, &mut LaneState) -> LaneMask,
        done: impl FnMut(usize, &LaneState, Option<&mut [R]>),
    ) -> Result<(), ExecError> {
        let n = covs.len();
        let words = 8 * kernel.spec.samples();
        if rows.len() != 2 * n || rows.iter_mut().any(|r| r.as_mut().len() != words) {
            return Err(ExecError::at(
                &self.program,
                0,
                ExecErrorKind::Malformed(format!(
                    "run_block: {} rows for {n} strips of {words} words",
                    rows.len()
                )),
            ));
        }
        let block = crate::compile::BlockRun { kernel, rows, covs };
        self.run_each_with(state, params, env, n, Some(block), fill, done)
    }

    #[allow(clippy::too_many_arguments)]
    fn run_each_with<E: RunEnv + ?Sized, R: AsMut<[u32]>>(
        &self,
        state: &mut LaneState,
        params: &[[u32; 4]],
        env: &mut E,
        n: usize,
        mut block: Option<crate::compile::BlockRun<'_, '_, R>>,
        mut fill: impl FnMut(usize, &mut LaneState) -> LaneMask,
        mut done: impl FnMut(usize, &LaneState, Option<&mut [R]>),
    ) -> Result<(), ExecError> {
        let prog = &*self.program;
        self.check_state(state)?;
        self.check_hooks(env)?;
        let all = state.all_lanes();
        let mut i = 0;
        while i < n {
            // Batch `i` set up by a kernel's attempt that handed it to the interpreter.
            let mut filled = None;
            if let Some(k) = &self.kernels {
                use crate::compile::Each;
                match k.run_each(
                    prog,
                    self.budget,
                    state,
                    params,
                    env,
                    i,
                    n,
                    block.as_mut(),
                    &mut fill,
                    &mut |i, st| done(i, st, None),
                ) {
                    Each::Done => return Ok(()),
                    Each::Failed(e) => return Err(e),
                    Each::Interpret { at, active } => {
                        i = at;
                        filled = Some(active);
                    }
                }
            }
            let active = match filled {
                Some(a) => a,
                None => fill(i, state) & all,
            };
            if active != 0 {
                self.interpret(state, active, params, env, &mut NoHook)?;
                let rows = block
                    .as_mut()
                    .and_then(|b| b.rows.get_mut(2 * i..2 * i + 2));
                done(i, state, rows);
            }
            i += 1;
        }
        Ok(())
    }

    /// [`Executor::run`] in the interpreter (whatever the backend), recording what
    /// `trace.lane` does: every instruction with the values it read and wrote, condition
    /// codes, where the lane went next and its texture lookups (`glemu trace`). The
    /// results in `state` are the same as [`Executor::run`]'s.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVfp5.0\nTEMP t;\nADD t, fragment.color, 1;\nMOV result.color, t;\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// let mut st = ex.new_state(2);
    /// st.set_input_f32(0, 1, [0.5, 0.0, 0.0, 0.0]);
    /// let mut trace = LaneTrace::new(1);
    /// ex.run_traced(&mut st, 0b11, &[[1f32.to_bits(); 4]], &mut NullEnv, &mut trace).unwrap();
    /// let add = &trace.steps[0];
    /// assert_eq!(add.reads[0], TraceOperand::Value { bits: [0.5f32.to_bits().into(), 0, 0, 0], wide: false });
    /// assert_eq!(add.wrote.unwrap()[0], u64::from(1.5f32.to_bits()));
    /// assert_eq!((add.next_pc, trace.steps[1].next_pc), (Some(1), None));
    /// ```
    pub fn run_traced<E: RunEnv + ?Sized>(
        &self,
        state: &mut LaneState,
        active: LaneMask,
        params: &[[u32; 4]],
        env: &mut E,
        trace: &mut LaneTrace,
    ) -> Result<ExecStats, ExecError> {
        self.run_traced_lanes(state, active, params, env, std::slice::from_mut(trace))
    }

    /// [`Executor::run_traced`] following several lanes of the batch at once, one
    /// [`LaneTrace`] each (a primitive's vertices shaded in one batch).
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*};
    /// # use std::sync::Arc;
    /// let p = Arc::new(assemble("!!NVvp5.0\nADD result.position, vertex.attrib[0], 1;\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// let mut st = ex.new_state(3);
    /// st.set_input_f32(0, 2, [2.0; 4]);
    /// let mut traces = [LaneTrace::new(0), LaneTrace::new(2)];
    /// ex.run_traced_lanes(&mut st, 0b111, &[[1f32.to_bits(); 4]], &mut NullEnv, &mut traces).unwrap();
    /// assert_eq!(traces[0].steps[0].wrote.unwrap()[0], u64::from(1f32.to_bits()));
    /// assert_eq!(traces[1].steps[0].wrote.unwrap()[0], u64::from(3f32.to_bits()));
    /// ```
    pub fn run_traced_lanes<E: RunEnv + ?Sized>(
        &self,
        state: &mut LaneState,
        active: LaneMask,
        params: &[[u32; 4]],
        env: &mut E,
        traces: &mut [LaneTrace],
    ) -> Result<ExecStats, ExecError> {
        self.check_state(state)?;
        self.check_hooks(env)?;
        let active = active & state.all_lanes();
        let mut env = TracingEnv(Recording {
            inner: env,
            lanes: traced_lanes(traces),
            samples: Vec::new(),
        });
        self.interpret(state, active, params, &mut env, &mut Lanes(traces))
    }

    /// The invocations of one tessellation control patch (the lanes of `active`, one
    /// batch) in native code, publishing per-patch results as the lock-step loop does;
    /// None when the backend is the interpreter or the kernel cannot run them. The
    /// caller has checked `state` and that the program reads no other invocation's
    /// results (`exec::lockstep`).
    pub(crate) fn run_patch_native<E: RunEnv + ?Sized>(
        &self,
        state: &mut LaneState,
        active: LaneMask,
        params: &[[u32; 4]],
        env: &mut E,
    ) -> Option<Result<ExecStats, ExecError>> {
        // High words of LONG results are published too, and kernels do not keep them.
        if self.program.outputs.iter().any(|o| o.info.long) {
            return None;
        }
        let k = self.kernels.as_ref()?;
        k.run_variant(true, &self.program, self.budget, state, active, params, env)
    }

    /// The invocations of one compute work group in native code (see
    /// `compile/work_group.rs`); None when the backend is the interpreter or the group
    /// belongs to it, with `states` then as `start_batches` left them. The caller has
    /// checked and reset the states.
    pub(crate) fn run_group_native<E: RunEnv + ?Sized>(
        &self,
        states: &mut [LaneState],
        invocations: usize,
        params: &[[u32; 4]],
        env: &mut E,
    ) -> Option<Result<ExecStats, ExecError>> {
        let k = self.kernels.as_ref()?;
        let r = k.run_group(&self.program, self.budget, states, invocations, params, env);
        reset_if_handed_back(r, states)
    }

    /// The invocations of one tessellation control patch in lock-step as machine code
    /// (see `compile/work_group.rs`), `publish` publishing the output patch after each
    /// run of a batch; None when the backend is the interpreter or the patch belongs to
    /// it, with `states`' registers reset. The caller has checked and reset the states and
    /// published the output patch once.
    pub(crate) fn run_patch_lockstep_native<E: RunEnv + ?Sized>(
        &self,
        states: &mut [LaneState],
        invocations: usize,
        params: &[[u32; 4]],
        env: &mut E,
        publish: &mut dyn FnMut(&mut [LaneState]),
    ) -> Option<Result<ExecStats, ExecError>> {
        // High words of LONG results are published too, and kernels do not keep them.
        if self.program.outputs.iter().any(|o| o.info.long) {
            return None;
        }
        let k = self.kernels.as_ref()?;
        let prog = &self.program;
        let r = k.run_lockstep(prog, self.budget, states, invocations, params, env, publish);
        reset_if_handed_back(r, states)
    }

    /// The interpreter's loop; `hook` sees every instruction (compiled away for
    /// [`NoHook`]).
    fn interpret<E: RunEnv + ?Sized, H: Hook<E>>(
        &self,
        state: &mut LaneState,
        active: LaneMask,
        params: &[[u32; 4]],
        env: &mut E,
        hook: &mut H,
    ) -> Result<ExecStats, ExecError> {
        let prog = &*self.program;
        state.reset_run();
        let mut run = Run::new(prog, state, params, env);
        let mut groups = initial_groups(prog, active);
        let mut result = Ok(());
        while let Some(gi) = self.pick(&mut groups) {
            if H::ON {
                hook.before(prog, run.st, run.params, &groups[gi]);
            }
            result = self.exec_group(&mut run, &mut groups, gi);
            if H::ON {
                hook.after(prog, run.st, &groups, run.env);
            }
            if result.is_err() {
                break;
            }
        }
        run.st.operand_buf = run.srcs.take();
        result.map(|()| run.stats)
    }

    /// The group that runs next (after merging groups that met), or None when every lane
    /// has finished. Groups at the end of the text return from their subroutine or end.
    pub(crate) fn pick(&self, groups: &mut Groups) -> Option<usize> {
        let n = self.program.instructions.len() as u32;
        loop {
            if groups.is_empty() {
                return None;
            }
            let gi = if groups.len() == 1 {
                0
            } else {
                pick_and_merge(groups)
            };
            let g = &mut groups[gi];
            if g.pc < n {
                return Some(gi);
            }
            // End of the program text: a subroutine returns, the main program ends.
            if flow::implicit_return(g) {
                self.arrive(g);
            } else {
                // Dropped in place: swap_remove would move the ~250-byte group out first,
                // a measurable cost when a batch runs only a few instructions.
                if gi + 1 == groups.len() {
                    groups.truncate(gi);
                } else {
                    groups.swap_remove(gi);
                }
            }
        }
    }

    /// Execute the instruction at the pc of `groups[gi]` for that group.
    pub(crate) fn exec_group<E: RunEnv + ?Sized>(
        &self,
        run: &mut Run<'_, E>,
        groups: &mut Groups,
        gi: usize,
    ) -> Result<(), ExecError> {
        let prog = &*self.program;
        let Some(g) = groups.get_mut(gi) else {
            return Ok(());
        };
        g.steps += 1;
        let stop = if g.steps > self.budget {
            Some(ExecErrorKind::BudgetExceeded(self.budget))
        } else if g.steps % INTERRUPT_STEPS == 0 && run.env.resources().interrupted() {
            Some(ExecErrorKind::Interrupted)
        } else {
            None
        };
        if let Some(kind) = stop {
            return Err(ExecError::at(prog, g.pc, kind));
        }
        run.stats.instructions += 1;
        run.stats.lane_instructions += u64::from(g.mask.count_ones());
        let pc = g.pc;
        let depth = g.frames.len();
        let next = step(run, g).map_err(|kind| ExecError::at(prog, pc, kind))?;
        if let Next::Seq = next {
            g.pc = pc.saturating_add(1);
        }
        // Only a CAL/CALI enters a subroutine at its label, pushing a frame; lanes that
        // reach a label any other way (next instruction, IF skip, loop exit, return,
        // left behind by a partial CAL/RET) return there.
        let call = prog
            .instructions
            .get(pc as usize)
            .is_some_and(|i| matches!(i.op, Opcode::Cal | Opcode::Cali));
        if !(call && g.frames.len() > depth) {
            self.arrive(g);
        }
        if g.mask == 0 {
            groups.swap_remove(gi);
        }
        if !run.spawned.is_empty() {
            run.stats.splits += run.spawned.len() as u64;
            for s in run.spawned.iter_mut() {
                if !(call && s.frames.len() > depth) {
                    self.arrive(s);
                }
            }
            groups.extend(run.spawned.drain(..).filter(|s| s.mask != 0));
        }
        Ok(())
    }

    /// NV_gpu_program4 2.X.8.Z (CAL): execution in a subroutine that reaches an
    /// instruction label returns "as though an unconditional RET instruction were
    /// inserted immediately before the instruction label", again if the caller resumes
    /// at a label. The main subroutine has no call to return from and runs on.
    fn arrive(&self, g: &mut Group) {
        while self.label_at.get(g.pc as usize).copied().unwrap_or(false)
            && g.frames.iter().any(|f| matches!(f, Frame::Call { .. }))
        {
            flow::implicit_return(g);
        }
    }

    /// Refuses a run whose environment lacks the stage hooks the program calls.
    pub(crate) fn check_hooks<E: RunEnv + ?Sized>(&self, env: &E) -> Result<(), ExecError> {
        match self.needs_hooks {
            Some((stage, at, op)) if env.hooks() != Some(stage) => {
                let (wrapper, hooks) = match stage {
                    Stage::Fragment => ("Fragment", "FragmentHooks"),
                    Stage::Compute => ("Compute", "ComputeHooks"),
                    _ => ("Geometry", "GeometryHooks"),
                };
                Err(ExecError::at(
                    &self.program,
                    at,
                    ExecErrorKind::BadState(format!(
                        "{op:?} needs the environment's {hooks}: run it with exec::{wrapper}(env)"
                    )),
                ))
            }
            _ => Ok(()),
        }
    }

    /// Refuses a program that does not validate (everything the executor assumes of its
    /// program) and a lane state built for another program.
    pub(crate) fn check_state(&self, st: &LaneState) -> Result<(), ExecError> {
        let p = &*self.program;
        if let Err(e) = &self.valid {
            return Err(ExecError::at(
                p,
                e.inst.unwrap_or(0),
                ExecErrorKind::Malformed(e.message.clone()),
            ));
        }
        if st.temps.lo.len() != p.temps.len()
            || st.outputs.lo.len() != p.outputs.len()
            || st.n_inputs != p.inputs.len()
            || st.address.len() != p.address_regs as usize
        {
            return Err(ExecError::new(
                0,
                Default::default(),
                ExecErrorKind::BadState("lane state was built for a different program".into()),
            ));
        }
        Ok(())
    }
}

/// Index of the group that comes first in lock-step order ([`position`]: lowest pc,
/// callers' CAL sites first), after merging every group at the same place into it.
/// Within one subroutine level this is the lowest pc, so lanes split by IF or a loop
/// reconverge where their blocks end.
fn pick_and_merge(groups: &mut Groups) -> usize {
    let mut best = 0;
    let mut best_at = position(&groups[0]);
    for (i, g) in groups.iter().enumerate().skip(1) {
        let at = position(g);
        if at < best_at {
            best = i;
            best_at = at;
        }
    }
    let mut i = 0;
    while i < groups.len() {
        if i != best && groups[i].same_place(&groups[best]) {
            let o = groups.swap_remove(i);
            if best == groups.len() {
                // `best` was the last element and moved into slot `i`.
                best = i;
            }
            groups[best].absorb(o);
        } else {
            i += 1;
        }
    }
    best
}

/// Execute the instruction at `g.pc` for group `g`.
pub(crate) fn step<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &mut Group,
) -> Result<Next, ExecErrorKind> {
    let prog = run.prog;
    let inst = prog
        .instructions
        .get(g.pc as usize)
        .ok_or_else(|| super::error::invariant("pc out of range"))?;
    use Opcode::*;
    run.prefetched.clear();
    let class = inst.op.class();
    let is_mem = class == OpClass::Memory;
    // BUFFER/BUFFER4 operands are read before the instruction runs, memory instructions
    // included (their data, address or coordinate operand may be one).
    if inst.op != Atomctr && inst.srcs.iter().any(|s| s.file == File::Buffer) {
        memory::prefetch_buffers(run, g, inst, is_mem)?;
    }
    match class {
        OpClass::Flow => flow::exec(run, g, inst),
        OpClass::Texture => texture::exec(run, g, inst).map(|_| Next::Seq),
        OpClass::Memory => memory::exec(run, g, inst).map(|_| Next::Seq),
        OpClass::Interpolate => texture::interpolate(run, g, inst).map(|_| Next::Seq),
        OpClass::GeometryOutput => flow::geometry(run, g, inst).map(|_| Next::Seq),
        // A tessellation control patch runs in lock-step (lockstep.rs): every invocation
        // that reaches a BAR has executed everything before it once it runs.
        OpClass::Barrier => Ok(Next::Seq),
        OpClass::Alu
            if matches!(inst.op, Ddx | Ddy | DdxCoarse | DdyCoarse)
                && prog.stage != Stage::Fragment =>
        {
            alu::zero_result(run, g, inst)
        }
        OpClass::Alu => alu::exec(run, g, inst).map(|_| Next::Seq),
    }
}

/// A group or patch the kernels handed back (`None`) starts over in the interpreter:
/// the registers they wrote are cleared (they made no environment call, so nothing else
/// happened).
fn reset_if_handed_back<T>(r: Option<T>, states: &mut [LaneState]) -> Option<T> {
    if r.is_none() {
        for st in states.iter_mut() {
            st.reset_run();
        }
    }
    r
}
