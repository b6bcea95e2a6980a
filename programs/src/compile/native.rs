//! The one place where glemu-programs runs machine code it generated: owning the JIT
//! memory of a kernel, calling a kernel on a [`Frame`] built around a run (`run`), and the
//! `extern "C"` entry points kernels call back into (which turn the raw frame pointer back
//! into a reference). It sits above `frame`, whose interpreter steps the entry points
//! call, so the two do not import each other.
//!
//! Everything here is `unsafe` by nature; every block says why it is sound. The rest of
//! the back end builds Cranelift IR with safe code, and that IR only touches memory
//! through the pointers of a [`Frame`], at offsets checked against the program's register
//! files before the kernel is called (see `Kernel::fits` in `compile/mod.rs`).
#![allow(unsafe_code)]

use super::frame::{self, Frame};
use super::math;
use crate::exec::{ExecStats, LaneState, RunEnv, Vec4, MAX_LANES};
use crate::ir::Program;
use cranelift_jit::JITModule;
use std::ffi::c_void;
use std::sync::Mutex;

/// Signature of every kernel: `fn(frame) -> status` (0 = finished, else see `Frame`).
type Entry = unsafe extern "C" fn(*mut Frame) -> u32;

/// Signature of a fused block kernel (`compile::block`): `fn(frame, strip) -> status`.
type BlockEntry = unsafe extern "C" fn(*mut Frame, *mut StripArgs) -> u32;

/// Signature of a compute work group's kernel (`lower/group.rs`): `fn(frame, record) ->
/// status`.
type GroupEntry = unsafe extern "C" fn(*mut Frame, *mut GroupSlot) -> u32;

/// Signature of a run of a block program's ALU instructions (`exec/block_asm.rs`):
/// `fn(registers)`, assembled for the System V calling convention.
type AluEntry = unsafe extern "sysv64" fn(*mut u8);

/// What a kernel was compiled as.
#[derive(Clone, Copy)]
enum Entries {
    /// With the number of block registers it reads and writes.
    Alu(AluEntry, usize),
    Batch(Entry),
    /// With the words of each row it stores (8 per sample of a pixel).
    Block(BlockEntry, usize),
    /// With the slots of the group record it reads and writes.
    Group(GroupEntry, usize),
}

/// Machine code of one kernel and the JIT memory holding it.
pub(crate) struct Code {
    entry: Entries,
    /// Kept only to free the memory on drop (a `Mutex` because `JITModule` is `Send` but
    /// not `Sync`, while kernels are shared between the raster's worker threads).
    module: Mutex<Option<JITModule>>,
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Code")
    }
}

impl Code {
    /// Take ownership of `module`, whose definitions are finalized, with `entry` the
    /// address of the kernel function in it.
    pub(crate) fn new(module: JITModule, entry: *const u8) -> Code {
        // SAFETY: `entry` is what `JITModule::get_finalized_function` returned for a
        // function declared with the signature `fn(i64) -> i32` in the SystemV/host
        // calling convention (`lower::signature`), which is the ABI of
        // `extern "C" fn(*mut Frame) -> u32` on the 64-bit hosts Cranelift supports. The
        // memory stays mapped and executable while `module` lives, i.e. as long as this
        // `Code`.
        let entry = unsafe { std::mem::transmute::<*const u8, Entry>(entry) };
        Code {
            entry: Entries::Batch(entry),
            module: Mutex::new(Some(module)),
        }
    }

    /// [`Code::new`] for a fused block kernel, declared `fn(i64, i64) -> i32`
    /// (`compile::block`), which stores `words` words into each of a strip's two rows.
    pub(crate) fn new_block(module: JITModule, entry: *const u8, words: usize) -> Code {
        // SAFETY: as in `Code::new`, for a function declared `fn(i64, i64) -> i32` in the
        // host calling convention: the ABI of
        // `extern "C" fn(*mut Frame, *mut StripArgs) -> u32`.
        let entry = unsafe { std::mem::transmute::<*const u8, BlockEntry>(entry) };
        Code {
            entry: Entries::Block(entry, words),
            module: Mutex::new(Some(module)),
        }
    }

    /// [`Code::new`] for a compute work group's kernel, declared `fn(i64, i64) -> i32`,
    /// which reads and writes the first `slots` slots of its group record.
    pub(crate) fn new_group(module: JITModule, entry: *const u8, slots: usize) -> Code {
        // SAFETY: as in `Code::new`, for a function declared `fn(i64, i64) -> i32` in the
        // host calling convention: the ABI of
        // `extern "C" fn(*mut Frame, *mut GroupSlot) -> u32`.
        let entry = unsafe { std::mem::transmute::<*const u8, GroupEntry>(entry) };
        Code {
            entry: Entries::Group(entry, slots),
            module: Mutex::new(Some(module)),
        }
    }

    /// [`Code::new`] for an ALU run of a block program: machine code from
    /// `exec/block_asm.rs` defined as bytes, which reads and writes the first `regs`
    /// registers of a block state.
    pub(crate) fn new_alu(module: JITModule, entry: *const u8, regs: usize) -> Code {
        // SAFETY: `entry` is what `JITModule::get_finalized_function` returned for the
        // bytes `block_asm::assemble` produced: a function that takes its one pointer
        // argument in rdi, clobbers only rdi, rcx, rax, vector and mask registers (all
        // caller-saved in the System V convention), touches no stack and returns with
        // `ret` — the ABI of `extern "sysv64" fn(*mut u8)`. The memory stays mapped and
        // executable while `module` lives, i.e. as long as this `Code`.
        let entry = unsafe { std::mem::transmute::<*const u8, AluEntry>(entry) };
        Code {
            entry: Entries::Alu(entry, regs),
            module: Mutex::new(Some(module)),
        }
    }

    /// Run an ALU run's code over a block state's registers; false (and nothing run)
    /// when there are fewer than the code addresses.
    pub(crate) fn call_alu(&self, regs: &mut [crate::exec::block::Reg]) -> bool {
        match self.entry {
            // SAFETY: the code reads and writes only 64-byte rows at offsets below
            // `needed * 1024` bytes from its argument (`block_asm::Gen::row`: register
            // index * 1024 + component * 64 + strip * 256, for registers below `needed`,
            // components and strips below 4), and `Reg` is exactly 1024 bytes of `u32`
            // lanes (any bits are valid), so with `regs.len() >= needed` every access is
            // inside `regs`, which is exclusively borrowed for the call.
            Entries::Alu(entry, needed) if regs.len() >= needed => {
                const { assert!(std::mem::size_of::<crate::exec::block::Reg>() == 1024) };
                unsafe { entry(regs.as_mut_ptr().cast::<u8>()) };
                true
            }
            _ => false,
        }
    }

    /// Run the kernel on `frame`.
    pub(crate) fn call(&self, frame: &mut Frame) -> u32 {
        // SAFETY: the kernel reads and writes only through the pointers of `frame`
        // (register files of a `LaneState` that `Kernel::fits` checked against the
        // program: slot counts, vertex copies and parameter count), within the sizes
        // those checks guarantee, and calls only the entry points below, passing `frame`
        // back. `frame` is exclusively borrowed for the call, and the buffers its pointers
        // name are not reallocated while it runs (register files have a fixed size).
        match self.entry {
            Entries::Batch(entry) => unsafe { entry(frame) },
            // Block and group kernels are only ever called through `call_block` and
            // `call_group`.
            Entries::Block(..) | Entries::Group(..) | Entries::Alu(..) => frame::FAILED,
        }
    }

    /// Run a work group's kernel on `frame` and one batch's group record.
    fn call_group(&self, frame: &mut Frame, record: &mut [GroupSlot]) -> u32 {
        match self.entry {
            // SAFETY: as in `Code::call` for the frame. Besides it the kernel reads and
            // writes the first `slots` 16-byte slots of `record` (`lower/group.rs`: the
            // header and one slot per saved variable, each access within its slot),
            // which the length check keeps inside the slice the caller holds exclusively
            // for the whole call; the slots are 16-byte aligned for vector stores.
            Entries::Group(entry, slots) if record.len() >= slots => unsafe {
                entry(frame, record.as_mut_ptr())
            },
            _ => frame::FAILED,
        }
    }

    /// Run a fused block kernel on `frame` and one strip.
    fn call_block(&self, frame: &mut Frame, strip: &mut StripArgs) -> u32 {
        match self.entry {
            // SAFETY: as in `Code::call` for the frame. Besides it the kernel reads
            // `strip`'s coverage (16 words: `block.rs` asserts MAX_LANES == 16) and reads
            // and writes its two rows (`words` words each, at most `strip.words`: the
            // guard), at the offsets of `StripArgs`'s fields, which `StripArgs::new`
            // took from live references (rows of `strip.words` words at least) that the
            // caller holds exclusively (rows) or shared (coverage) for the whole call;
            // and it writes `strip.whole` (a `u32` inside the record, exclusively
            // borrowed here).
            Entries::Block(entry, words) if words <= strip.words => unsafe { entry(frame, strip) },
            Entries::Block(..) => frame::FAILED,
            Entries::Batch(_) | Entries::Group(..) | Entries::Alu(..) => frame::FAILED,
        }
    }
}

impl Drop for Code {
    fn drop(&mut self) {
        let module = match self.module.get_mut() {
            Ok(m) => m.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        if let Some(module) = module {
            // SAFETY: the only pointer into this memory is `self.entry`, and `&mut self`
            // proves no call through it is running and none can start afterwards.
            unsafe { module.free_memory() };
        }
    }
}

/// Run `code` over `state` (already checked against the kernel) and hand its status and
/// frame to `then`. The frame stays where it was built: returning it by value cost a
/// copy per batch that stalled on store forwarding (13 % of a one-instruction fragment
/// program's scene).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn run<E: RunEnv + ?Sized, R>(
    code: &Code,
    prog: &Program,
    state: &mut LaneState,
    active: u32,
    params: &[[u32; 4]],
    budget: u64,
    env: &mut E,
    then: impl FnOnce(u32, &mut Frame) -> R,
) -> R {
    with_frame(prog, state, params, budget, env, |r| {
        let status = r.call(code, active);
        then(status, r.frame)
    })
}

/// A kernel frame built once around a run's lane state, parameters and environment, for
/// any number of kernel calls ([`Runner::call`]); between calls the caller reaches the
/// lane state through [`Runner::state`] (to write the next batch's inputs and read the
/// last one's outputs). Building the frame once is what makes a batch of a fully covered
/// block cost little more than its program.
pub(crate) struct Runner<'f> {
    pub(crate) frame: &'f mut Frame,
}

/// Build the frame of a run over `state` and hand it to `f` as a [`Runner`].
pub(crate) fn with_frame<E: RunEnv + ?Sized, R>(
    prog: &Program,
    state: &mut LaneState,
    params: &[[u32; 4]],
    budget: u64,
    env: &mut E,
    f: impl FnOnce(&mut Runner<'_>) -> R,
) -> R {
    let mut frame = Frame {
        // Set from `state` before each call (`Runner::call`).
        inputs: std::ptr::null(),
        outputs: std::ptr::null_mut(),
        temps: std::ptr::null_mut(),
        address: std::ptr::null_mut(),
        cc: std::ptr::null_mut(),
        params: params.as_ptr().cast::<u32>(),
        step: step_entry::<E>,
        texture: texture_entry::<E>,
        active: 0,
        error_pc: 0,
        budget,
        loop_counter: 0,
        kill: 0,
        push_depth: 0,
        instructions: 0,
        lane_instructions: 0,
        env: std::ptr::null_mut(),
        state,
        prog,
        params_slice: params,
        stats: ExecStats::default(),
        error: None,
        panic: None,
        pushed: Vec::new(),
    };
    let mut env_ref: &mut E = env;
    frame.env = (&mut env_ref as *mut &mut E).cast::<c_void>();
    f(&mut Runner { frame: &mut frame })
}

impl Runner<'_> {
    /// The run's lane state, between kernel calls.
    pub(crate) fn state(&mut self) -> &mut LaneState {
        // SAFETY: `frame.state` was made by `with_frame` from the `&mut LaneState` it
        // holds for as long as this runner lives, and nothing else uses that borrow
        // meanwhile. Kernels and the entry points reach the state only inside
        // `Runner::call`, which takes `&mut self`, so the reference returned here (tied
        // to `&mut self`) is the only live one while it exists.
        unsafe { &mut *self.frame.state }
    }

    /// Run `code` (checked against the state, as `run`'s) on the lanes of `active`; the
    /// frame's outputs (kill, counters, error) are this call's.
    pub(crate) fn call(&mut self, code: &Code, active: u32) -> u32 {
        self.call_with(code, active, Arg::None)
    }

    /// [`Runner::call`] of a fused block kernel on one strip.
    pub(crate) fn call_block(&mut self, code: &Code, active: u32, strip: &mut StripArgs) -> u32 {
        self.call_with(code, active, Arg::Strip(strip))
    }

    /// [`Runner::call`] of a work group's kernel with one batch's group record.
    pub(crate) fn call_group(&mut self, code: &Code, active: u32, record: &mut [GroupSlot]) -> u32 {
        self.call_with(code, active, Arg::Group(record))
    }

    #[inline]
    fn call_with(&mut self, code: &Code, active: u32, arg: Arg<'_>) -> u32 {
        // The register-file pointers are taken afresh from the state's own buffers (the
        // caller may have reborrowed the state since the last call).
        let st = self.state();
        let inputs = st.inputs.lo.as_ptr().cast::<u32>();
        let outputs = st.outputs.lo.as_mut_ptr().cast::<u32>();
        let temps = st.temps.lo.as_mut_ptr().cast::<u32>();
        let address = st.address.as_mut_ptr().cast::<i32>();
        let cc = st.cc.as_mut_ptr().cast::<u8>();
        let f = &mut *self.frame;
        f.inputs = inputs;
        f.outputs = outputs;
        f.temps = temps;
        f.address = address;
        f.cc = cc;
        f.active = active;
        f.error_pc = 0;
        f.loop_counter = 0;
        f.kill = 0;
        f.error = None;
        let status = match arg {
            Arg::None => code.call(f),
            Arg::Strip(s) => code.call_block(f, s),
            Arg::Group(r) => code.call_group(f, r),
        };
        if let Some(p) = f.panic.take() {
            std::panic::resume_unwind(p);
        }
        status
    }
}

/// Entry point kernels call to run one instruction in the interpreter (see
/// `frame::step`). Generic over the environment so the call into it is static.
pub(crate) extern "C" fn step_entry<E: RunEnv + ?Sized>(
    frame: *mut Frame,
    pc: u32,
    mask: u32,
) -> u32 {
    // SAFETY: kernels pass back the frame pointer they were called with; `Code::call`
    // holds the only borrow of that frame and does not touch it until the kernel
    // returns, so this is the only live reference. `E` is the environment type
    // `Frame::env` was erased from (`run` stores the matching `step_entry::<E>`).
    let frame = unsafe { &mut *frame };
    // SAFETY: `run` set `env` to the `&mut E` it keeps on its stack, `state` to
    // the lane state it exclusively borrows, and `prog` / `params_slice` to borrowed
    // values, all for the whole kernel call; no other reference to any of them is used
    // while this entry point runs. `E` is the type `env` was erased from, because
    // `run` stored this very `step_entry::<E>` beside it.
    let (env, state, prog, params) = unsafe {
        (
            &mut **frame.env.cast::<&mut E>(),
            &mut *frame.state,
            &*frame.prog,
            &*frame.params_slice,
        )
    };
    frame::step(frame, prog, params, state, env, pc, mask)
}

/// Entry point kernels call for a texture instruction (see `frame::texture`).
pub(crate) extern "C" fn texture_entry<E: RunEnv + ?Sized>(
    frame: *mut Frame,
    pc: u32,
    mask: u32,
    io: *mut Vec4,
    coord: *const Vec4,
) -> u32 {
    // SAFETY: as in `step_entry`: the kernel passes back its own frame, whose borrow
    // `Code::call` holds without touching it during the call.
    let frame = unsafe { &mut *frame };
    // SAFETY: `env` and `prog` as in `step_entry`. `io` is the kernel's 1024-byte,
    // 16-byte-aligned stack slot (`Lower::texture`), i.e. a `[Vec4; 4]` that lives for the
    // whole call and that nothing else accesses while it runs; its last three `Vec4`s are
    // borrowed here, each once. `coord` is either that slot's first `Vec4` (borrowed by
    // nothing else) or an input register of the lane state: `frame.inputs` plus the
    // offset of a slot the kernel's own input loads are checked to reach
    // (`Lower::input_in_place`, `Kernel::prepare`), 4-byte aligned, which neither the
    // kernel nor anything else writes during the call.
    let (env, prog, coord, op2, op3, out) = unsafe {
        (
            &mut **frame.env.cast::<&mut E>(),
            &*frame.prog,
            &*coord,
            &mut *io.add(1),
            &mut *io.add(2),
            &mut *io.add(3),
        )
    };
    // The draw's sampler for this instruction, resolved once (`TexSites`), straight from
    // the coordinate register; lanes outside the mask read zero, as in `frame::texture`.
    let sites = crate::exec::Env::texture_sites(env.resources());
    if let Some(site) = sites.and_then(|s| s.get(prog, pc)) {
        if mask != crate::exec::lanes_mask(MAX_LANES) {
            *out = [[0; MAX_LANES]; 4];
        }
        // A panic may not unwind into the kernel: kept for `Runner::call_with` to resume.
        let sampled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            mask == 0 || site.sample(coord, mask, out)
        }));
        match sampled {
            Ok(true) => return frame::DONE,
            Ok(false) => {}
            Err(panic) => {
                frame.panic = Some(panic);
                return frame::FAILED;
            }
        }
    }
    frame::texture(frame, prog, env, pc, mask, coord, [op2, op3, out])
}

/// Entry point kernels call for SIN/COS/EX2/LG2/POW (`Lower::math`): `io` holds the
/// operand lanes (`x`, then `y`) and receives the result in `x`'s place.
pub(crate) extern "C" fn math_entry(io: *mut u32, op: u32) {
    // SAFETY: `io` is the kernel's 128-byte, 16-byte-aligned stack slot (`Lower::math`),
    // i.e. a `[[u32; 16]; 2]` that lives for the whole call and that nothing else accesses
    // while it runs.
    let io = unsafe { &mut *io.cast::<[[u32; MAX_LANES]; 2]>() };
    math::lanes(op, io);
}

/// A kernel's second argument, by what it was compiled as.
enum Arg<'a> {
    None,
    Strip(&'a mut StripArgs),
    Group(&'a mut [GroupSlot]),
}

/// One 16-byte slot of a batch's group record (`lower/group.rs`): slot 0 is the header
/// (the BAR the kernel waits at, its pc, the group's steps), the others hold the
/// kernel's variables while it waits.
#[repr(C, align(16))]
#[derive(Clone, Copy, Default)]
pub(crate) struct GroupSlot(pub(crate) [u8; 16]);

/// One strip as a fused kernel reads it: the destination rows and the coverage words.
/// Built from references by [`StripArgs::new`], so the kernel's accesses stay within
/// memory the caller holds for the call.
#[repr(C)]
pub(crate) struct StripArgs {
    /// Row 0 (lanes 0, 1 of each quad) and row 1 (lanes 2, 3): eight pixels each, a
    /// pixel's samples adjacent.
    pub(super) rows: [*mut u32; 2],
    /// Sixteen words, lane order: 0 = leave the pixel alone.
    pub(super) cov: *const u32,
    /// Set by the kernel: 1 when every lane was alive and the rows were stored without
    /// being read, else 0 (counted for tests: [`super::native_whole_strips`]).
    pub(super) whole: u32,
    /// Words each row holds (not read by the kernel: `Code::call_block` checks it
    /// against the words the kernel stores).
    words: usize,
}

impl StripArgs {
    /// Inlined: returned from a call, the record was copied with 16-byte loads of the
    /// callee's 8-byte stores, which do not forward (a stall per strip).
    #[inline(always)]
    pub(crate) fn new(r0: &mut [u32], r1: &mut [u32], cov: &[u32; MAX_LANES]) -> StripArgs {
        StripArgs {
            rows: [r0.as_mut_ptr(), r1.as_mut_ptr()],
            cov: cov.as_ptr(),
            whole: 0,
            words: r0.len().min(r1.len()),
        }
    }
}
