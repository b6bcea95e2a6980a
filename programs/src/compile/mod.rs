//! Native code for programs: the compiled form lowered to machine code with Cranelift,
//! run over the same 16-lane structure-of-arrays batches as the interpreter.
//!
//! The interpreter stays the reference: a kernel gives the same bits as
//! [`Executor::run`](crate::exec::Executor::run) in the interpreter for every register it
//! writes back (outputs and the kill mask, plus temporaries, address registers and
//! condition codes with [`Backend::NativeAllRegisters`](crate::exec::Backend)), and the
//! same errors. Instructions without a vector lowering run as one interpreted step from
//! inside the kernel; programs the translator cannot express at all (see [`Fallback`])
//! run in the interpreter.
//!
//! Kernels are compiled lazily, once per executor and variant (every lane active or
//! not), and shared by every thread that runs the executor.

mod block;
mod frame;
mod graph;
// The lowering translates only what `scan` admitted; its `expect`s name the scan rule
// that guarantees each (operand count, opcode, loop context), so a failure is a bug in
// scan, not bad input.
#[allow(clippy::expect_used)]
mod lower;
mod math;
mod native;
mod scan;
mod work_group;

pub use block::{BlockKernel, BlockSpec};
pub(crate) use native::Code as AluCode;
pub use scan::Fallback;

use crate::exec::{ExecError, ExecStats, LaneState, RunEnv};
use crate::ir::Program;
use cranelift_codegen::ir::{types, AbiParam, UserFuncName};
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Linkage, Module};
use lower::{Needs, Variant};
use std::sync::OnceLock;

thread_local! {
    /// Batches this thread ran as machine code: see [`native_batches`].
    static NATIVE_BATCHES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Kernel calls this thread stopped for a rerun: see [`native_reruns`].
    static NATIVE_RERUNS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Strips a fused kernel stored whole: see [`native_whole_strips`].
    static NATIVE_WHOLE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Strips a fused kernel stored through its select: see [`native_selected_strips`].
    static NATIVE_SELECTED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many strips fused block kernels of the calling thread have stored lane by lane
/// (sample by sample when multisampled), reading the rows first: the strips they
/// finished that were not stored whole ([`native_whole_strips`]).
pub fn native_selected_strips() -> u64 {
    NATIVE_SELECTED.with(|c| c.get())
}

/// How many strips fused block kernels of the calling thread have stored without reading
/// the rows first (every lane covered and alive), so a test can show that path ran.
pub fn native_whole_strips() -> u64 {
    NATIVE_WHOLE.with(|c| c.get())
}

/// How many kernel calls of the calling thread have stopped so far to have the
/// interpreter run their batch from the start (lanes that would run interleaved: per-lane
/// loop counts, CONT taken by some lanes of an iteration). With [`native_batches`] a
/// differential test knows exactly why a run of a compiled program did not end in
/// machine code: every batch is one or the other, else it fell back silently.
pub fn native_reruns() -> u64 {
    NATIVE_RERUNS.with(|c| c.get())
}

/// How many batches the calling thread has run as machine code so far (kernel calls that
/// ended in results or an error, not in a fall back to the interpreter). Differential tests
/// read it before and after a native run, so a run that silently fell back to the
/// interpreter (and so compared the interpreter with itself) fails them. Per thread, so
/// the count costs one unshared increment per batch and parallel tests do not mix.
pub fn native_batches() -> u64 {
    NATIVE_BATCHES.with(|c| c.get())
}

fn count_native_batch() {
    count_native_batches(1);
}

fn count_native_batches(n: u64) {
    NATIVE_BATCHES.with(|c| c.set(c.get() + n));
}

/// One compiled variant of a program.
#[derive(Debug)]
pub(crate) struct Kernel {
    code: native::Code,
    needs: Needs,
    /// The program has LONG registers: the lane state is reset before a run, as the
    /// interpreter does, because interpreted steps keep their high words there.
    long: bool,
}

impl Kernel {
    /// Whether this kernel may run `state` (see [`Kernel::fits`]), with `state` reset
    /// for it when the program has LONG registers.
    fn prepare(&self, state: &mut LaneState, params: &[[u32; 4]]) -> bool {
        if !self.fits(state, params) {
            return false;
        }
        if self.long {
            state.reset_run();
        }
        true
    }

    /// Whether this kernel may run `state` with `params`: else the run goes to the
    /// interpreter, which reports what the kernel could not (short parameter lists read
    /// as zero and counted, missing vertex copies).
    fn fits(&self, state: &LaneState, params: &[[u32; 4]]) -> bool {
        self.needs.params <= params.len() && self.needs.vertices <= state.vertices
    }
}

/// Machine code `bytes` (from `exec/block_asm.rs`), which reads and writes the first
/// `regs` registers of a block state, loaded into executable memory.
pub(crate) fn load_alu(bytes: &[u8], regs: usize) -> Result<AluCode, String> {
    let isa = isa()?;
    let mut module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
    let mut sig = module.make_signature();
    sig.params.push(AbiParam::new(types::I64));
    let id = module
        .declare_function("alu", Linkage::Local, &sig)
        .map_err(|e| e.to_string())?;
    module
        .define_function_bytes(id, 64, bytes, &[])
        .map_err(|e| e.to_string())?;
    module.finalize_definitions().map_err(|e| e.to_string())?;
    let entry = module.get_finalized_function(id);
    Ok(AluCode::new_alu(module, entry, regs))
}

/// The host's code generator (detected once: SSE4.1/AVX/... as the CPU has them).
fn isa() -> Result<OwnedTargetIsa, String> {
    static ISA: OnceLock<Result<OwnedTargetIsa, String>> = OnceLock::new();
    ISA.get_or_init(|| {
        let mut flags = settings::builder();
        let set = |f: &mut settings::Builder, k: &str, v: &str| {
            f.set(k, v)
                .map_err(|e| format!("cranelift setting {k}: {e}"))
        };
        set(&mut flags, "opt_level", "speed")?;
        set(&mut flags, "use_colocated_libcalls", "false")?;
        set(&mut flags, "is_pic", "false")?;
        set(
            &mut flags,
            "enable_verifier",
            if cfg!(debug_assertions) {
                "true"
            } else {
                "false"
            },
        )?;
        let builder = cranelift_native::builder().map_err(|e| e.to_string())?;
        builder
            .finish(settings::Flags::new(flags))
            .map_err(|e| e.to_string())
    })
    .clone()
}

fn codegen_error(e: impl std::fmt::Display) -> Fallback {
    Fallback::program(format!("code generation failed: {e}"))
}

/// Translate and compile one variant of `prog`.
fn compile(prog: &Program, variant: Variant) -> Result<Kernel, Fallback> {
    compile_with(prog, variant, None, None)
}

/// Compile `prog` fused with `spec`'s colour store (`block`): every lane active, the
/// strip's pointers as a second argument.
fn compile_block(prog: &Program, spec: &BlockSpec) -> Result<Kernel, Fallback> {
    if !matches!(spec.samples(), 1 | 2 | 4 | 8 | 16) {
        return Err(Fallback::program(format!(
            "a block store of {} samples",
            spec.samples
        )));
    }
    let variant = Variant {
        full_mask: true,
        all_registers: false,
        patch: false,
        group: false,
        lockstep: false,
    };
    compile_with(prog, variant, None, Some(spec))
}

/// The machine code of `prog`'s kernel (every lane active when `full_mask`, outputs
/// written back) as Cranelift prints it before encoding: registers allocated, spills and
/// reloads named (`spillslot`). For measuring what a lowering change does to register
/// pressure (`tests/exec_native.rs` counts the spills of a benchmark program).
pub fn disassemble(prog: &Program, full_mask: bool) -> Result<String, Fallback> {
    let mut text = String::new();
    let variant = Variant {
        full_mask,
        all_registers: false,
        patch: false,
        group: false,
        lockstep: false,
    };
    compile_with(prog, variant, Some(&mut text), None)?;
    Ok(text)
}

/// [`compile`], keeping the disassembly in `disasm` when given; with `block`, the fused
/// block kernel of that spec.
fn compile_with(
    prog: &Program,
    variant: Variant,
    disasm: Option<&mut String>,
    block: Option<&BlockSpec>,
) -> Result<Kernel, Fallback> {
    guard_codegen(|| translate(prog, variant, disasm, block))
}

/// Runs `f`, turning a panic inside it into a [`Fallback`]. Programs are untrusted: a
/// lowering mistake that Cranelift meets as a panic (its register allocator asserts on
/// a value used where it is not defined, for one) must cost the program its machine code,
/// not the process. Everything `f` builds is its own and dropped on the way out, so no
/// state outlives the unwind half-made.
fn guard_codegen(f: impl FnOnce() -> Result<Kernel, Fallback>) -> Result<Kernel, Fallback> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".into());
        Err(codegen_error(format!("internal error: {why}")))
    })
}

/// [`compile_with`] without the panic guard.
fn translate(
    prog: &Program,
    variant: Variant,
    disasm: Option<&mut String>,
    block: Option<&BlockSpec>,
) -> Result<Kernel, Fallback> {
    // Kernels rely on SSE's NaN propagation (the first NaN operand wins), which the
    // interpreter spells out; other hosts would need explicit selects.
    if !cfg!(target_arch = "x86_64") {
        return Err(Fallback::program(
            "native code is generated on x86-64 hosts only",
        ));
    }
    // A program with BRA or PUSHA/POPA is translated as its graph of places, built once
    // here for the check and the lowering.
    if variant.lockstep {
        scan::check_lockstep(prog)?;
    }
    let graph = if graph::wanted(prog) {
        if variant.group || variant.lockstep {
            // No dialect has BRA or PUSHA/POPA and compute or control programs.
            return Err(Fallback::program(
                "a work group or control patch with BRA or PUSHA/POPA",
            ));
        }
        Some(graph::build(prog)?)
    } else {
        scan::check(prog)?;
        None
    };
    let isa = isa().map_err(codegen_error)?;
    let mut module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
    let mut ctx = module.make_context();
    let mut fctx = FunctionBuilderContext::new();
    ctx.func.signature = lower::signature(module.make_signature());
    if block.is_some() || variant.group || variant.lockstep {
        // The strip (`native::StripArgs`) or the group record (`native::GroupSlot`).
        ctx.func.signature.params.push(AbiParam::new(types::I64));
    }
    let mut step_sig = module.make_signature();
    step_sig.params.push(AbiParam::new(types::I64));
    step_sig.params.push(AbiParam::new(types::I32));
    step_sig.params.push(AbiParam::new(types::I32));
    step_sig.returns.push(AbiParam::new(types::I32));
    let id = module
        .declare_function("kernel", Linkage::Local, &ctx.func.signature)
        .map_err(codegen_error)?;
    ctx.func.name = UserFuncName::user(0, id.as_u32());
    let config = module.target_config();
    let needs = {
        let b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let mut l = lower::Lower::new(prog, b, variant, step_sig, config);
        l.body(graph.as_ref());
        match block {
            None => l.finish(),
            // The outputs are not written back: the caller reads only the kill mask.
            Some(spec) => l.finish_with(false, |l| block::epilogue(l, spec)),
        }
    };
    ctx.set_disasm(disasm.is_some());
    module
        .define_function(id, &mut ctx)
        .map_err(codegen_error)?;
    if let Some(out) = disasm {
        if let Some(text) = ctx.compiled_code().and_then(|c| c.vcode.as_ref()) {
            out.push_str(text);
        }
    }
    module.clear_context(&mut ctx);
    module.finalize_definitions().map_err(codegen_error)?;
    let entry = module.get_finalized_function(id);
    let code = match block {
        None if variant.group || variant.lockstep => {
            native::Code::new_group(module, entry, needs.saved.max(1))
        }
        None => native::Code::new(module, entry),
        Some(spec) => native::Code::new_block(module, entry, 8 * spec.samples()),
    };
    Ok(Kernel {
        code,
        needs,
        long: scan::has_long(prog),
    })
}

/// The kernels of one executor: compiled on first use, per variant.
#[derive(Debug, Default)]
pub(crate) struct Kernels {
    all_registers: bool,
    /// `[partial mask, full mask]`.
    variants: [OnceLock<Result<Kernel, Fallback>>; 2],
    /// The same for one tessellation control patch (`run_patch`): the output patch is
    /// published after each result write.
    patch_variants: [OnceLock<Result<Kernel, Fallback>>; 2],
    /// The same for one batch of a compute work group (`run_group`): suspended at each
    /// BAR.
    group_variants: [OnceLock<Result<Kernel, Fallback>>; 2],
    /// The same for one batch of a control patch run in lock-step (`run_patch`):
    /// suspended at each lock-step point.
    lockstep_variants: [OnceLock<Result<Kernel, Fallback>>; 2],
    /// Fused block kernels, by spec.
    blocks: block::BlockKernels,
}

impl Kernels {
    pub(crate) fn new(all_registers: bool) -> Kernels {
        Kernels {
            all_registers,
            variants: Default::default(),
            patch_variants: Default::default(),
            group_variants: Default::default(),
            lockstep_variants: Default::default(),
            blocks: Default::default(),
        }
    }

    fn get(&self, prog: &Program, full_mask: bool, patch: bool) -> &Result<Kernel, Fallback> {
        let cells = if patch {
            &self.patch_variants
        } else {
            &self.variants
        };
        self.cached(cells, prog, full_mask, patch, false, false)
    }

    /// The kernel of one variant, compiled on first use into its cell of `cells` (a pair
    /// by `full_mask`).
    fn cached<'a>(
        &self,
        cells: &'a [OnceLock<Result<Kernel, Fallback>>; 2],
        prog: &Program,
        full_mask: bool,
        patch: bool,
        group: bool,
        lockstep: bool,
    ) -> &'a Result<Kernel, Fallback> {
        cells[usize::from(full_mask)].get_or_init(|| {
            let all_registers = self.all_registers;
            let variant = Variant {
                full_mask,
                all_registers,
                patch,
                group,
                lockstep,
            };
            compile(prog, variant)
        })
    }

    /// The kernel for one batch of a compute work group, or with `lockstep` of a control
    /// patch run in lock-step: both suspend and resume (`lower/group.rs`).
    fn get_suspending(
        &self,
        prog: &Program,
        full_mask: bool,
        lockstep: bool,
    ) -> &Result<Kernel, Fallback> {
        let cells = if lockstep {
            &self.lockstep_variants
        } else {
            &self.group_variants
        };
        self.cached(cells, prog, full_mask, false, !lockstep, lockstep)
    }

    /// Compile (if not done) and report whether a control patch that runs in lock-step
    /// (see `work_group.rs`) runs natively.
    pub(crate) fn lockstep_status(&self, prog: &Program) -> Result<(), Fallback> {
        self.get_suspending(prog, true, true)
            .as_ref()
            .map(|_| ())
            .map_err(Clone::clone)
    }

    /// Compile (if not done) and report whether the program runs natively.
    pub(crate) fn status(&self, prog: &Program) -> Result<(), Fallback> {
        self.get(prog, true, false)
            .as_ref()
            .map(|_| ())
            .map_err(Clone::clone)
    }

    /// The kernel for a run of the lanes of `active` (not none) over `state`, with
    /// `state` reset for it when the program has LONG registers; None when the run
    /// belongs to the interpreter (the program does not compile, or the kernel does not
    /// fit the state or parameters).
    fn ready(
        &self,
        prog: &Program,
        patch: bool,
        state: &mut LaneState,
        active: u32,
        params: &[[u32; 4]],
    ) -> Option<&Kernel> {
        let full = active == crate::exec::lanes_mask(crate::exec::MAX_LANES);
        let kernel = self.get(prog, full, patch).as_ref().ok()?;
        kernel.prepare(state, params).then_some(kernel)
    }

    /// Run natively, or return None when this run belongs to the interpreter (the program
    /// does not compile, the kernel does not fit the state or parameters, or it stops for
    /// the interpreter to rerun the batch: per-lane loop counts).
    /// `state` is already checked against the program and `active` is within its width.
    pub(crate) fn run<E: RunEnv + ?Sized>(
        &self,
        prog: &Program,
        budget: u64,
        state: &mut LaneState,
        active: u32,
        params: &[[u32; 4]],
        env: &mut E,
    ) -> Option<Result<ExecStats, ExecError>> {
        self.run_variant(false, prog, budget, state, active, params, env)
    }

    /// [`Kernels::run`], or with `patch` for the invocations of one tessellation control
    /// patch in the lanes of `active` (at most one batch), publishing the per-patch
    /// results after each result write as `Executor::run_patch` does. A patch program
    /// must read no `vertex.out` / `primitive.out` input (the caller checks).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run_variant<E: RunEnv + ?Sized>(
        &self,
        patch: bool,
        prog: &Program,
        budget: u64,
        state: &mut LaneState,
        active: u32,
        params: &[[u32; 4]],
        env: &mut E,
    ) -> Option<Result<ExecStats, ExecError>> {
        if active == 0 {
            return None;
        }
        let kernel = self.ready(prog, patch, state, active, params)?;
        let (result, kill) = native::run(
            &kernel.code,
            prog,
            state,
            active,
            params,
            budget,
            env,
            |status, frame| outcome(prog, budget, status, frame),
        );
        if let Some(Ok(_)) = result {
            state.kill = kill;
        }
        if result.is_some() {
            count_native_batch();
        }
        result
    }

    /// [`Kernels::run`] of batches `from..n` in turn, with one frame for all of them (see
    /// [`Executor::run_each`](crate::exec::Executor::run_each)): `fill` sets up each
    /// batch and gives its lanes, `done` reads its results. Stops at the first batch the
    /// interpreter must run ([`Each::Interpret`]) or the first error. With `block`, each
    /// batch is a strip its fused kernel stores ([`Kernels::run_strips`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run_each<E: RunEnv + ?Sized, R: AsMut<[u32]>>(
        &self,
        prog: &Program,
        budget: u64,
        state: &mut LaneState,
        params: &[[u32; 4]],
        env: &mut E,
        from: usize,
        n: usize,
        block: Option<&mut BlockRun<'_, '_, R>>,
        fill: &mut impl FnMut(usize, &mut LaneState) -> u32,
        done: &mut impl FnMut(usize, &LaneState),
    ) -> Each {
        if let Some(b) = block {
            return self.run_strips(prog, budget, state, params, env, from, n, b, fill, done);
        }
        let all = state.all_lanes();
        let mut ran = 0u64;
        let end = native::with_frame(prog, state, params, budget, env, |r| {
            for i in from..n {
                let active = fill(i, r.state()) & all;
                if active == 0 {
                    continue;
                }
                let Some(kernel) = self.ready(prog, false, r.state(), active, params) else {
                    return Each::Interpret { at: i, active };
                };
                let status = r.call(&kernel.code, active);
                if let Some(end) = after_call(prog, budget, status, r, i, active, &mut ran, done) {
                    return end;
                }
            }
            Each::Done
        });
        count_native_batches(ran);
        end
    }

    /// [`Kernels::run_each`] of the strips of a fully covered block with their fused
    /// kernel. What does not change between strips is decided once: the kernel, whether
    /// it fits the state and parameters.
    #[allow(clippy::too_many_arguments)]
    fn run_strips<E: RunEnv + ?Sized, R: AsMut<[u32]>>(
        &self,
        prog: &Program,
        budget: u64,
        state: &mut LaneState,
        params: &[[u32; 4]],
        env: &mut E,
        from: usize,
        n: usize,
        b: &mut BlockRun<'_, '_, R>,
        fill: &mut impl FnMut(usize, &mut LaneState) -> u32,
        done: &mut impl FnMut(usize, &LaneState),
    ) -> Each {
        let full = crate::exec::lanes_mask(crate::exec::MAX_LANES);
        let all = state.all_lanes();
        let kernel = &b.kernel.kernel;
        // A kernel that does not fit, or strips past the rows or coverage given, go to the
        // interpreter (which reports what the kernel could not).
        let fits = kernel.fits(state, params) && all == full;
        // Counted here and added once: a thread-local update per strip showed in profiles.
        let (mut ran, mut whole) = (0u64, 0u64);
        let end = native::with_frame(prog, state, params, budget, env, |r| {
            for i in from..n {
                let active = fill(i, r.state()) & all;
                if active == 0 {
                    continue;
                }
                if !fits || active != full {
                    return Each::Interpret { at: i, active };
                }
                let (Some(cov), Some([r0, r1])) = (b.covs.get(i), b.rows.get_mut(2 * i..2 * i + 2))
                else {
                    return Each::Interpret { at: i, active };
                };
                let mut args = native::StripArgs::new(r0.as_mut(), r1.as_mut(), cov);
                if kernel.long {
                    r.state().reset_run();
                }
                let status = r.call_block(&kernel.code, active, &mut args);
                whole += u64::from(args.whole);
                if let Some(end) = after_call(prog, budget, status, r, i, active, &mut ran, done) {
                    return end;
                }
            }
            Each::Done
        });
        count_native_batches(ran);
        if whole != 0 {
            NATIVE_WHOLE.with(|c| c.set(c.get() + whole));
        }
        // Added only when there are some: every strip whole is the common case.
        if ran > whole {
            NATIVE_SELECTED.with(|c| c.set(c.get() + ran - whole));
        }
        end
    }
}

/// After a kernel call of [`Kernels::run_each`]'s batch `i`: its results handed to `done`
/// (None: go on), or how the run ends.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn after_call(
    prog: &Program,
    budget: u64,
    status: u32,
    r: &mut native::Runner<'_>,
    i: usize,
    active: u32,
    ran: &mut u64,
    done: &mut impl FnMut(usize, &LaneState),
) -> Option<Each> {
    let frame = &mut *r.frame;
    if status == frame::DONE {
        *ran += 1;
        // The counters are not read: loading the two the kernel has just stored cost a
        // store-forwarding stall per batch (a third of a one-instruction program's
        // scene).
        let kill = frame.kill;
        let st = r.state();
        st.kill = kill;
        done(i, st);
        return None;
    }
    Some(match outcome(prog, budget, status, frame) {
        (Some(Err(e)), _) => {
            *ran += 1;
            Each::Failed(e)
        }
        // The interpreter runs the batch again: its counters are the rerun's.
        _ => Each::Interpret { at: i, active },
    })
}

/// The strips of a [`Kernels::run_each`] with a fused block kernel: strip `i` stores
/// into `rows[2i..2i + 2]` (8 words a sample each) the lanes of `covs[i]`.
pub(crate) struct BlockRun<'r, 'a, R> {
    pub kernel: &'r BlockKernel,
    pub rows: &'r mut [R],
    pub covs: &'r [&'a [u32; crate::exec::MAX_LANES]],
}

/// How [`Kernels::run_each`] ended.
pub(crate) enum Each {
    /// Every batch ran.
    Done,
    /// Batch `at`, set up with lanes `active`, belongs to the interpreter (and the batches
    /// after it have not started).
    Interpret {
        at: usize,
        active: u32,
    },
    Failed(ExecError),
}

/// A kernel call's status and frame as [`Kernels::run`]'s answer and the kill mask: None
/// when the run belongs to the interpreter.
fn outcome(
    prog: &Program,
    budget: u64,
    status: u32,
    frame: &mut frame::Frame,
) -> (Option<Result<ExecStats, ExecError>>, u32) {
    match status {
        frame::DONE => {
            let mut stats = frame.stats;
            stats.instructions = frame.instructions;
            stats.lane_instructions = frame.lane_instructions;
            (Some(Ok(stats)), frame.kill)
        }
        frame::RERUN => {
            NATIVE_RERUNS.with(|c| c.set(c.get() + 1));
            (None, 0)
        }
        frame::BUDGET => (
            Some(Err(ExecError::at(
                prog,
                frame.error_pc,
                crate::exec::ExecErrorKind::BudgetExceeded(budget),
            ))),
            0,
        ),
        frame::CALL_DEPTH => (
            Some(Err(ExecError::at(
                prog,
                frame.error_pc,
                crate::exec::ExecErrorKind::CallStackOverflow,
            ))),
            0,
        ),
        _ => {
            let (pc, kind) = frame.error.take().unwrap_or((
                0,
                crate::exec::ExecErrorKind::Malformed(format!("kernel status {status}")),
            ));
            (Some(Err(ExecError::at(prog, pc, kind))), 0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic in code generation becomes a fallback that names it; a fallback passes
    /// through unchanged.
    #[test]
    fn codegen_panics_become_fallbacks() {
        let fell = guard_codegen(|| panic!("regalloc: value v7 not defined"));
        let reason = fell.err().map(|f| f.reason).unwrap_or_default();
        assert!(
            reason.contains("internal error: regalloc: value v7 not defined"),
            "{reason}"
        );
        let n = 3;
        let fell = guard_codegen(|| panic!("{n} blocks unsealed"));
        let reason = fell.err().map(|f| f.reason).unwrap_or_default();
        assert!(
            reason.contains("internal error: 3 blocks unsealed"),
            "{reason}"
        );
        let fell = guard_codegen(|| Err(Fallback::at(4, "flow control: CALI")));
        assert_eq!(
            fell.err(),
            Some(Fallback::at(4, "flow control: CALI")),
            "a fallback passes through"
        );
    }
}
