//! Texture instructions resolved once per draw: for each texture instruction of a
//! program with a fixed unit, the environment may hand over a [`TexSite`], a sampler
//! already specialised for that instruction's unit, target, operation and offset, so that
//! a compiled kernel's call reaches it without building a [`TexCall`] and without the
//! environment finding the binding again in every 16-lane call.

use super::env::TexCall;
use super::texture::{fixed_offsets, tex_op};
use super::{LaneMask, Vec4};
use crate::ir::{Extra, Program, TexUnit};
use std::sync::Arc;

/// One texture instruction's sampler, resolved for a draw.
pub trait TexSite: Send + Sync {
    /// The instruction on the lanes of `mask` (not 0), from its coordinate register:
    /// writes those lanes of `out` with the bits [`super::Env::texture`] gives for the
    /// call, and leaves the other lanes alone; or returns false, and the call goes
    /// through [`super::Env::texture`] (which rewrites every lane of `mask`).
    fn sample(&self, coord: &Vec4, mask: LaneMask, out: &mut Vec4) -> bool;

    /// Every lane of each strip `coords[i]` into `outs[i]`, in order (a block program's
    /// strips, one call for all of them); returns how many strips were sampled before
    /// the site declined one, which the caller then samples another way with the rest.
    fn sample_strips(&self, coords: &[Vec4], outs: &mut [Vec4]) -> usize {
        let all = LaneMask::MAX >> (LaneMask::BITS as usize - super::MAX_LANES);
        let mut done = 0;
        for (coord, out) in coords.iter().zip(outs.iter_mut()) {
            if !self.sample(coord, all, out) {
                break;
            }
            done += 1;
        }
        done
    }
}

/// The [`TexSite`]s of one program, by instruction.
#[derive(Clone)]
pub struct TexSites {
    /// The program the sites were resolved for: a kernel of another program finds none.
    program: Arc<Program>,
    by_pc: Vec<Option<Arc<dyn TexSite>>>,
}

impl std::fmt::Debug for TexSites {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.by_pc.iter().filter(|s| s.is_some()).count();
        write!(f, "TexSites({n} of {})", self.by_pc.len())
    }
}

impl TexSites {
    /// `resolve` is asked about every texture instruction of `program` with a fixed unit
    /// and no register offsets, with the call its kernel would make ([`TexCall::coord`]
    /// and the other operands zero, [`TexCall::lanes`] empty: it must decide on the rest).
    pub fn new(
        program: &Arc<Program>,
        mut resolve: impl FnMut(&TexCall<'_>) -> Option<Arc<dyn TexSite>>,
    ) -> TexSites {
        let zero: Vec4 = [[0; super::MAX_LANES]; 4];
        let by_pc = program
            .instructions
            .iter()
            .map(|inst| {
                let (Extra::Tex(info), Some(op)) = (&inst.extra, tex_op(inst.op)) else {
                    return None;
                };
                let TexUnit::Fixed(unit) = info.unit else {
                    return None;
                };
                let offsets = fixed_offsets(&info.offset)?;
                let n = inst.srcs.len();
                resolve(&TexCall {
                    op,
                    stage: program.stage,
                    unit,
                    target: info.target,
                    lanes: 0,
                    coord: &zero,
                    operand2: (n > 1).then_some(&zero),
                    operand3: (n > 2).then_some(&zero),
                    offsets,
                    gather_comp: info.gather_comp,
                    lod_clamp: info.lod_clamp,
                    dtype: inst.dtype,
                })
            })
            .collect();
        TexSites {
            program: Arc::clone(program),
            by_pc,
        }
    }

    /// The site of instruction `pc` of `program`, if it has one.
    #[inline]
    pub fn get(&self, program: &Program, pc: u32) -> Option<&dyn TexSite> {
        if !std::ptr::eq(program, Arc::as_ptr(&self.program)) {
            return None;
        }
        self.by_pc.get(pc as usize)?.as_deref()
    }

    /// How many instructions have a site.
    pub fn count(&self) -> usize {
        self.by_pc.iter().filter(|s| s.is_some()).count()
    }
}
