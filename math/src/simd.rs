//! Whether the vector forms run, and whether the scalar ports are compiled with FMA,
//! chosen at run time (never by a build flag). This is the crate's one module with
//! `unsafe`.

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

/// The scalar port of `f`, compiled with FMA where the CPU has it: its `mul_add`s are then
/// instructions, where baseline x86-64 calls the C library's `fma` for each. The bits are
/// the same (`mul_add` rounds once either way; tested).
#[inline]
pub(crate) fn scalar(f: Func, x: f32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("fma") {
        // SAFETY: fma was detected, the feature `port_fma` is compiled with.
        return unsafe { port_fma(f, x) };
    }
    port(f, x)
}

/// [`crate::pow::pow`], compiled with FMA where the CPU has it (see [`scalar`]).
#[inline]
pub(crate) fn scalar_pow(x: f32, y: f32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("fma") {
        // SAFETY: fma was detected, the feature `pow_fma` is compiled with.
        return unsafe { pow_fma(x, y) };
    }
    crate::pow::pow(x, y)
}

/// The scalar port of `f` as the target's baseline compiles it.
#[inline(always)]
pub(crate) fn port(f: Func, x: f32) -> f32 {
    match f {
        Func::Sin => crate::sincos::sin(x),
        Func::Cos => crate::sincos::cos(x),
        Func::Exp2 => crate::exp2::exp2(x),
        Func::Log2 => crate::log2::log2(x),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
fn port_fma(f: Func, x: f32) -> f32 {
    port(f, x)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
fn pow_fma(x: f32, y: f32) -> f32 {
    crate::pow::pow(x, y)
}
