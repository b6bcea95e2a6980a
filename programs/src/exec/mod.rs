//! Execution of compiled programs over batches of lanes.
//!
//! A [`Executor`] is built once per [`Program`](crate::ir::Program) and runs it over a
//! [`LaneState`]: a batch of up to [`MAX_LANES`] invocations stored as structure of arrays
//! (every register component is an array across lanes), so each instruction is applied to
//! the whole batch in straight loops the compiler vectorizes.
//!
//! Flow control is per lane. Lanes that make the same decisions run together as one
//! *group* (one program counter, one call/loop stack, a lane mask); when lanes disagree at
//! a branch the group splits, and groups that reach the same instruction with the same
//! stack merge again. The group with the lowest program counter always runs next (lanes
//! inside a subroutine count as being at their CAL, so they run before lanes waiting after
//! it), so lanes that diverge inside an IF, a loop or a conditional CAL reconverge after
//! it. Tessellation control patches use the same order to run their invocations in
//! lock-step across batches ([`Executor::run_patch`]). Because each group only ever
//! touches its own lanes, results equal running each lane alone, including across
//! arbitrary `BRA` jumps.
//!
//! Where the specs leave results undefined, glemu picks one documented answer so every
//! batch width agrees and nothing traps: temporaries and outputs start at zero; shift
//! counts use their low 5 bits (6 for 64-bit); integer division by zero gives all ones
//! (unsigned) or ∓1 (signed); BFE/BFI clip offset+width to the register; float → int
//! conversions saturate (NaN → 0); out-of-range relative indices read zero and drop
//! writes; misaligned memory accesses behave as out of range; scalar results of ATOM,
//! ATOMCTR and ATOMIM are replicated to all components; DDX/DDY are fine (per row/column
//! of the 2×2 quad) and zero outside fragment programs; RCC clamps by the sign bit.
//!
//! What the rest of the GPU provides comes through the [`Env`] trait (textures, memory,
//! counters, images, subroutine uniforms), which the pipeline implements, and the
//! per-stage hook traits [`FragmentHooks`] (interpolation) and [`GeometryHooks`]
//! (geometry output), which a run gets through [`Fragment`] / [`Geometry`]. Texture and
//! interpolation calls are made once per group with SoA operands; memory, counter and
//! image calls are made per lane.

// SoA loops index several `[comp][lane]` arrays with the same counters; iterator
// chains over four zipped arrays would hide that and vectorize no better.
#![allow(clippy::needless_range_loop)]

mod alu;
mod batches;
pub(crate) mod block;
mod block_asm;
mod convert;
mod env;
mod error;
pub(crate) mod executor;
mod float;
mod flow;
mod group;
mod int;
mod lockstep;
mod memory;
mod operand;
mod run;
mod state;
mod tex_sites;
pub(crate) mod texture;
mod trace;
mod wide;

pub use block::{BlockProgram, BlockState, STRIPS as BLOCK_STRIPS};
pub use env::{
    Compute, ComputeHooks, Env, EnvError, Fragment, FragmentHooks, Geometry, GeometryHooks,
    ImageCall, InterpCall, InterpKind, MemRegion, NullEnv, RunEnv, TexCall, TexOffsets, TexOp,
};
pub use error::{ExecError, ExecErrorKind, ExecStats};
pub use executor::{Backend, Executor, INTERRUPT_STEPS};
pub use state::LaneState;
pub use tex_sites::{TexSite, TexSites};
pub use trace::{LaneTrace, TexSample, TraceOperand, TraceStep};

/// Lanes per batch. 16 covers a 4×4 block of fragments (four 2×2 quads, the unit the
/// raster hands to the fragment stage) and a vertex batch; per-register SoA arrays are
/// then 64 bytes per component, which keeps a typical program's registers in L1 while
/// the inner loops still span whole SIMD registers.
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
/// let ex = Executor::new(p);
/// assert_eq!(ex.new_state(MAX_LANES + 1).width(), MAX_LANES);
/// assert!(MAX_LANES <= LaneMask::BITS as usize);
/// ```
pub const MAX_LANES: usize = 16;

/// One bit per lane: bit `i` set = lane `i` takes part.
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// let p = assemble("!!ARBfp1.0\nKIL fragment.texcoord[0];\nMOV result.color, fragment.color;\nEND", None).unwrap();
/// let ex = Executor::new(Arc::new(p));
/// let mut st = ex.new_state(2);
/// st.set_input_f32(0, 0, [-1.0; 4]);
/// ex.run(&mut st, 0b11, &[], &mut NullEnv).unwrap();
/// let killed: LaneMask = st.kill_mask();
/// assert_eq!(killed, 0b01);
/// ```
pub type LaneMask = u32;

/// One 32-bit component across all lanes of a batch.
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
/// let ex = Executor::new(p);
/// let mut st = ex.new_state(3);
/// let x: &mut Lanes = &mut st.input_mut(0).unwrap()[0];
/// x[2] = 4.0f32.to_bits();
/// ex.run(&mut st, 0b111, &[], &mut NullEnv).unwrap();
/// assert_eq!(f32::from_bits(st.output(0).unwrap()[0][2]), 8.0);
/// ```
pub type Lanes = [u32; MAX_LANES];

/// A four-component register across all lanes (raw bits; f32/s32/u32 by instruction type).
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
/// let ex = Executor::new(p);
/// let mut st = ex.new_state(1);
/// st.set_input_f32(0, 0, [0.5; 4]);
/// ex.run(&mut st, 1, &[], &mut NullEnv).unwrap();
/// let r: &Vec4 = st.output(0).unwrap();
/// assert!(r.iter().all(|c| f32::from_bits(c[0]) == 1.0));
/// ```
pub type Vec4 = [Lanes; 4];

/// Mask with the first `width` lanes set.
///
/// ```
/// # use glemu_programs::exec::lanes_mask;
/// assert_eq!(lanes_mask(3), 0b111);
/// assert_eq!(lanes_mask(0), 0);
/// assert_eq!(lanes_mask(40), u32::MAX);
/// ```
pub fn lanes_mask(width: usize) -> LaneMask {
    if width >= 32 {
        u32::MAX
    } else {
        (1u32 << width) - 1
    }
}
