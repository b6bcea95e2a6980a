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

/// An instruction set a [`multiversion!`](crate::multiversion) function is compiled for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Isa {
    /// Baseline x86-64 (SSE2), or any other architecture.
    Baseline,
    /// AVX2 and FMA.
    Avx2,
    /// AVX-512 F, BW, DQ and VL (with AVX2 and FMA).
    Avx512,
}

/// The widest instruction set this CPU supports.
pub fn detected() -> Isa {
    #[cfg(target_arch = "x86_64")]
    {
        let avx2 = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
        let avx512 = avx2
            && is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512dq")
            && is_x86_feature_detected!("avx512vl");
        if avx512 {
            return Isa::Avx512;
        }
        if avx2 {
            return Isa::Avx2;
        }
    }
    Isa::Baseline
}

/// 0 = not decided yet, else `Isa as u8 + 1`.
static CHOSEN: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// The instruction set multiversioned functions run with: the detected one, lowered by
/// the environment variable `GLEMU_SIMD` (`baseline`, `avx2`, `avx512`) or by [`force`].
#[inline(always)]
pub fn isa() -> Isa {
    match CHOSEN.load(std::sync::atomic::Ordering::Relaxed) {
        1 => Isa::Baseline,
        2 => Isa::Avx2,
        3 => Isa::Avx512,
        _ => choose(),
    }
}

/// The first call's choice, out of line so that [`isa`] stays one load.
#[cold]
#[inline(never)]
fn choose() -> Isa {
    force(requested())
}

/// The instruction set the environment variable `GLEMU_SIMD` (`baseline` or `sse2`,
/// `avx2`, `avx512`; unset: the widest) asks for, capped at what the CPU has: every
/// crate's first choice of its kernels.
pub fn requested() -> Isa {
    let want = match std::env::var("GLEMU_SIMD").as_deref() {
        Ok("baseline") | Ok("sse2") => Isa::Baseline,
        Ok("avx2") => Isa::Avx2,
        _ => Isa::Avx512,
    };
    want.min(detected())
}

/// Runs multiversioned functions with `isa` or the widest supported set below it, for
/// the whole process (tests compare the versions with it: each gives the same bits, so a
/// test running meanwhile on another thread is not disturbed); returns the set now in use.
pub fn force(isa: Isa) -> Isa {
    let isa = isa.min(detected());
    CHOSEN.store(isa as u8 + 1, std::sync::atomic::Ordering::Relaxed);
    isa
}

/// Defines `fn NAME(args) -> R { body }` compiled for each [`Isa`] and dispatching on
/// [`isa()`] at every call. Everything the body calls that should be vectorised with the
/// wider instruction set must be `#[inline(always)]` (or generic, hence inlinable). The
/// arithmetic is the same IEEE operation in every version (Rust never fuses a multiply and
/// an add on its own), so the versions give identical bits.
#[macro_export]
macro_rules! multiversion {
    (
        $(#[$m:meta])*
        $vis:vis fn $name:ident $(<$($lt:lifetime),*>)?
            ($($arg:ident : $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block
    ) => {
        $(#[$m])*
        $vis fn $name $(<$($lt),*>)? ($($arg: $ty),*) $(-> $ret)? {
            #[inline(always)]
            fn body $(<$($lt),*>)? ($($arg: $ty),*) $(-> $ret)? $body
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2,fma")]
            fn avx2 $(<$($lt),*>)? ($($arg: $ty),*) $(-> $ret)? {
                body($($arg),*)
            }
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
            fn avx512 $(<$($lt),*>)? ($($arg: $ty),*) $(-> $ret)? {
                body($($arg),*)
            }
            match $crate::isa() {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: isa() returns Avx512 only when is_x86_feature_detected! found
                // avx512f, avx512bw, avx512dq, avx512vl, avx2 and fma (`force` caps it
                // at `detected`): every feature `avx512` is compiled with exists here.
                #[allow(unsafe_code)]
                $crate::Isa::Avx512 => unsafe { avx512($($arg),*) },
                #[cfg(target_arch = "x86_64")]
                // SAFETY: isa() returns Avx2 only when avx2 and fma were detected.
                #[allow(unsafe_code)]
                $crate::Isa::Avx2 => unsafe { avx2($($arg),*) },
                _ => body($($arg),*),
            }
        }
    };
}
