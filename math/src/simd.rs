//! Whether the vector forms run, chosen at run time (never by a build flag). This is the
//! crate's one module with `unsafe`.

#![allow(unsafe_code)]

use crate::{Func, LANES};

/// AVX2 and FMA, the features [`crate::avx2`] is compiled with (std caches the answer).
#[cfg(target_arch = "x86_64")]
#[inline]
fn avx2_fma() -> bool {
    is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")
}

/// `f` of `x`'s lanes into `out` by [`crate::avx2::unary`]: the mask of lanes it left to
/// the scalar port, or `None` (nothing written) without AVX2 and FMA.
#[inline]
pub(crate) fn unary(f: Func, x: &[u32; LANES], out: &mut [u32; LANES]) -> Option<u32> {
    #[cfg(target_arch = "x86_64")]
    if avx2_fma() {
        // SAFETY: avx2 and fma were detected, the features `unary` is compiled with.
        return Some(unsafe { crate::avx2::unary(f, x, out) });
    }
    let _ = (f, x, out);
    None
}

/// pow of `x`'s and `y`'s lanes into `out` by [`crate::avx2::pow16`]: the mask of lanes it
/// left to the scalar port, or `None` without AVX2 and FMA.
#[inline]
pub(crate) fn pow(x: &[u32; LANES], y: &[u32; LANES], out: &mut [u32; LANES]) -> Option<u32> {
    #[cfg(target_arch = "x86_64")]
    if avx2_fma() {
        // SAFETY: avx2 and fma were detected, the features `pow` is compiled with.
        return Some(unsafe { crate::avx2::pow16(x, y, out) });
    }
    let _ = (x, y, out);
    None
}
