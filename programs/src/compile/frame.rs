//! What a kernel sees of a run: the [`Frame`] (pointers to the lane state's register
//! files and the run's outputs), and the interpreter step kernels call for the
//! instructions they do not lower themselves.

use crate::exec::executor::{self, Frame as CtlFrame, Group, Next, Run};
use crate::exec::texture;
use crate::exec::{Env, ExecErrorKind, ExecStats, LaneState, RunEnv, TexCall, Vec4, MAX_LANES};
use crate::ir::{Extra, Opcode, Program, TexUnit};
use smallvec::SmallVec;
use std::any::Any;
use std::ffi::c_void;

/// Status a kernel returns: it ran to the end.
pub(crate) const DONE: u32 = 0;
/// Status: an instruction failed; `Frame::error` says which and why.
pub(crate) const FAILED: u32 = 1;
/// Status: the lanes would split into groups the interpreter runs interleaved (per-lane
/// loop counts, CONT taken by some lanes): the run goes to the interpreter from the
/// start. Kernels that can return it make no environment call before (`scan::check`).
pub(crate) const RERUN: u32 = 2;
/// Status: the instruction budget ran out before the instruction at `Frame::error_pc`.
pub(crate) const BUDGET: u32 = 3;
/// Status: the CAL at `Frame::error_pc` exceeded the call depth.
pub(crate) const CALL_DEPTH: u32 = 4;
/// Status of a group kernel: its lanes wait at a BAR; the group record says which, and
/// the next call goes on from there (`lower/group.rs`).
pub(crate) const BARRIER: u32 = 5;
/// Status of a group kernel: the environment said the run was interrupted when the
/// group's steps reached a multiple of `INTERRUPT_STEPS` at `Frame::error_pc`.
pub(crate) const INTERRUPTED: u32 = 6;
/// Status of a lock-step kernel: its lanes wait before a lock-step point; the group
/// record says which (`lower/group.rs`).
pub(crate) const YIELD: u32 = 7;
/// The `pc` with which a kernel calls the step entry to ask whether the run was
/// interrupted instead of running an instruction: it answers 1 if so, else 0.
pub(crate) const ASK_INTERRUPT: u32 = u32::MAX;

/// A kernel's view of one run. Generated code reads the fields before `env` at the
/// offsets `offset_of!` gives (they are stable for one build of this crate); the rest is
/// for the entry points in `native.rs`.
#[repr(C)]
pub(crate) struct Frame {
    /// `LaneState::inputs.lo`: `[slot][comp][lane]` words.
    pub inputs: *const u32,
    /// `LaneState::outputs.lo`.
    pub outputs: *mut u32,
    /// `LaneState::temps.lo`.
    pub temps: *mut u32,
    /// `LaneState::address`: `[reg][comp][lane]` i32.
    pub address: *mut i32,
    /// `LaneState::cc`: `[cc][comp][lane]` flag bytes.
    pub cc: *mut u8,
    /// The run's parameters, `[index][comp]` words.
    pub params: *const u32,
    /// Entry point running one instruction in the interpreter (`native::step_entry`).
    pub step: extern "C" fn(*mut Frame, u32, u32) -> u32,
    /// Entry point for a texture instruction (`native::texture_entry`): operands and
    /// result in a `[Vec4; 4]` (coordinate, operand 2, operand 3, result), and the
    /// coordinate to read (that slot's first `Vec4`, or the input register it is).
    pub texture: extern "C" fn(*mut Frame, u32, u32, *mut Vec4, *const Vec4) -> u32,
    /// Lanes that run (entry mask).
    pub active: u32,
    /// Out: the instruction that exceeded the budget (status [`BUDGET`]).
    pub error_pc: u32,
    /// The executor's instruction budget per lane group.
    pub budget: u64,
    /// The counter of the innermost LOOP (0 outside), for interpreted steps that index
    /// with it.
    pub loop_counter: i32,
    /// Out: lanes killed.
    pub kill: u32,
    /// The PUSHA stack's depth at the PUSHA or POPA the kernel steps next (it is the
    /// same for every lane group there: `compile::graph`).
    pub push_depth: u32,
    /// Out: instructions executed (once per instruction with at least one lane).
    pub instructions: u64,
    /// Out: instructions × lanes executing them.
    pub lane_instructions: u64,
    // ---- not read by generated code ----
    /// The `&mut E` of the run, erased (see `native::step_entry`).
    pub env: *mut c_void,
    pub state: *mut LaneState,
    pub prog: *const Program,
    pub params_slice: *const [[u32; 4]],
    /// Counters of interpreted steps (out-of-range accesses ...).
    pub stats: ExecStats,
    /// The failing instruction and why.
    pub error: Option<(u32, ExecErrorKind)>,
    /// A panic raised inside an interpreted step, resumed once the kernel returned.
    pub panic: Option<Box<dyn Any + Send>>,
    /// The PUSHA stack: each slot holds, per lane, what that lane pushed last at that
    /// depth (a group's own stack in the interpreter; a lane reads only its own values).
    pub pushed: Vec<[[i32; MAX_LANES]; 4]>,
}

/// Run `f` for the instruction at `pc`, turning its error or panic into the kernel's
/// status (a panic is resumed by [`native::run`](super::native::run) once the kernel
/// has returned).
fn guarded(
    frame: &mut Frame,
    pc: u32,
    f: impl FnOnce(&mut ExecStats) -> Result<(), ExecErrorKind>,
) -> u32 {
    let mut stats = ExecStats::default();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&mut stats)));
    frame.stats += stats;
    match result {
        Ok(Ok(())) => DONE,
        Ok(Err(kind)) => {
            frame.error = Some((pc, kind));
            FAILED
        }
        Err(panic) => {
            frame.panic = Some(panic);
            FAILED
        }
    }
}

/// One instruction at `pc` in the interpreter, for the lanes of `mask`: the kernel has
/// stored every register the instruction reads or writes into `state` and reloads the
/// ones it writes afterwards.
#[allow(clippy::too_many_arguments)]
pub(crate) fn step<E: RunEnv + ?Sized>(
    frame: &mut Frame,
    prog: &Program,
    params: &[[u32; 4]],
    state: &mut LaneState,
    env: &mut E,
    pc: u32,
    mask: u32,
) -> u32 {
    if pc == ASK_INTERRUPT {
        return u32::from(env.resources().interrupted());
    }
    let counter = frame.loop_counter;
    let depth = frame.push_depth as usize;
    let mut stack = std::mem::take(&mut frame.pushed);
    let status = guarded(frame, pc, |stats| {
        let op = prog.instructions.get(pc as usize).map(|i| i.op);
        let stacked = matches!(op, Some(Opcode::Pusha | Opcode::Popa));
        if stacked && stack.len() < depth {
            stack.resize(depth, [[0; MAX_LANES]; 4]);
        }
        let mut run = Run::new(prog, state, params, env);
        // Only the loop counter of the control stack matters to a non-flow instruction.
        let mut frames = SmallVec::<[CtlFrame; 8]>::new();
        frames.push(CtlFrame::Loop {
            start: 0,
            remaining: 1,
            counter,
            step: 0,
        });
        let mut g = Group {
            pc,
            mask,
            frames,
            pushed: if stacked {
                stack[..depth].to_vec()
            } else {
                Vec::new()
            },
            steps: 0,
        };
        let r = executor::step(&mut run, &mut g);
        run.st.operand_buf = run.srcs.take();
        *stats = run.stats;
        if let (Some(Opcode::Pusha), Ok(_), Some(v)) = (op, &r, g.pushed.last()) {
            if stack.len() <= depth {
                stack.resize(depth + 1, [[0; MAX_LANES]; 4]);
            }
            for (slot, new) in stack[depth].iter_mut().zip(v) {
                for (l, (x, y)) in slot.iter_mut().zip(new).enumerate() {
                    if mask & (1 << l) != 0 {
                        *x = *y;
                    }
                }
            }
        }
        match r {
            Ok(Next::Seq) if run.spawned.is_empty() && g.mask == mask => Ok(()),
            Ok(_) => Err(ExecErrorKind::Malformed(
                "an interpreted step changed the flow of control".into(),
            )),
            Err(e) => Err(e),
        }
    });
    frame.pushed = stack;
    status
}

/// A texture instruction with a fixed unit (`lower::Lower::texture`): `coord` is the
/// loaded coordinate, `io` the extra operands; the result goes into `io[2]`.
pub(crate) fn texture<E: RunEnv + ?Sized>(
    frame: &mut Frame,
    prog: &Program,
    env: &mut E,
    pc: u32,
    mask: u32,
    coord: &Vec4,
    io: [&mut Vec4; 3],
) -> u32 {
    guarded(frame, pc, |_stats| {
        let malformed = |m: &str| ExecErrorKind::Malformed(m.to_string());
        let inst = prog
            .instructions
            .get(pc as usize)
            .ok_or_else(|| malformed("pc out of range"))?;
        let (Extra::Tex(info), Some(op)) = (&inst.extra, texture::tex_op(inst.op)) else {
            return Err(malformed("not a texture instruction"));
        };
        let TexUnit::Fixed(unit) = info.unit else {
            return Err(malformed("texture unit is not fixed"));
        };
        // A register offset read as none would be a wrong image: kernels never call here
        // for one (`scan::native_texture`), and if one did, it is an error.
        let offsets = texture::fixed_offsets(&info.offset)
            .ok_or_else(|| malformed("register texel offsets in a compiled texture call"))?;
        let [op2, op3, out] = io;
        let n = inst.srcs.len();
        // `texture::sample` for one fixed unit, without its copies: one environment call
        // straight into the kernel's result slot (zeroed first, as `sample` zeroes its
        // part), lanes outside the mask zero as `sample` leaves them.
        *out = [[0; MAX_LANES]; 4];
        if mask == 0 {
            return Ok(());
        }
        let call = TexCall {
            op,
            stage: prog.stage,
            unit,
            target: info.target,
            lanes: mask,
            coord,
            operand2: (n > 1).then_some(&*op2),
            operand3: (n > 2).then_some(&*op3),
            offsets,
            gather_comp: info.gather_comp,
            lod_clamp: info.lod_clamp,
            dtype: inst.dtype,
        };
        env.resources()
            .texture(&call, out)
            .map_err(|e| ExecErrorKind::Env(e.0))?;
        if mask != crate::exec::lanes_mask(MAX_LANES) {
            for comp in out.iter_mut() {
                for (k, v) in comp.iter_mut().enumerate() {
                    if mask & (1 << k) == 0 {
                        *v = 0;
                    }
                }
            }
        }
        Ok(())
    })
}
