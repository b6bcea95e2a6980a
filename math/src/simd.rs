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

/// Proof that multiversioned functions run with AVX-512 here ([`isa`] chose it), and the
/// 16-lane arithmetic whose NaN operand order that proof allows.
///
/// Why: when both operands of `x + y` or `x * y` are NaN, SSE and AVX return the first
/// one, quieted; but the compiler treats the two operations as commutative and swaps
/// their operands as it likes (Rust leaves the NaN payload unspecified), so code that
/// must give the bits of a written-down operand order has to test for NaN lanes and
/// select, three to five instructions around each operation. These methods issue the one
/// instruction with the operands in the order given.
#[derive(Clone, Copy, Debug)]
pub struct Avx512(());

/// `vaddps`, `vsubps`, `vmulps`: the operations [`ordered`] issues.
const ADD: u8 = 0;
const SUB: u8 = 1;
const MUL: u8 = 2;

impl Avx512 {
    /// The proof, when [`isa`] is [`Isa::Avx512`].
    #[inline(always)]
    pub fn get() -> Option<Avx512> {
        (isa() == Isa::Avx512).then_some(Avx512(()))
    }

    /// `x + y` per lane; a NaN result is the first NaN operand quieted, else the
    /// operation's own (default) NaN.
    #[inline(always)]
    pub fn add(self, x: [f32; LANES], y: [f32; LANES]) -> [f32; LANES] {
        self.ordered::<ADD>(x, y)
    }

    /// `x - y` per lane, NaN as [`Avx512::add`].
    #[inline(always)]
    pub fn sub(self, x: [f32; LANES], y: [f32; LANES]) -> [f32; LANES] {
        self.ordered::<SUB>(x, y)
    }

    /// `x * y` per lane, NaN as [`Avx512::add`].
    #[inline(always)]
    pub fn mul(self, x: [f32; LANES], y: [f32; LANES]) -> [f32; LANES] {
        self.ordered::<MUL>(x, y)
    }

    #[inline(always)]
    fn ordered<const OP: u8>(self, x: [f32; LANES], y: [f32; LANES]) -> [f32; LANES] {
        let _ = self;
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: an `Avx512` is made only by `get`, when `isa()` is Avx512, which
            // `force` and `choose` allow only after is_x86_feature_detected! found
            // avx512f (see `detected`): the feature `ordered_avx512` is compiled with.
            unsafe { ordered_avx512::<OP>(x, y) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            // Never made on other machines (`isa` is Baseline there); the rule spelled out.
            std::array::from_fn(|l| {
                let (a, b) = (x[l], y[l]);
                let quiet = |v: f32| f32::from_bits(v.to_bits() | 0x0040_0000);
                match (a.is_nan(), b.is_nan(), OP) {
                    (true, _, _) => quiet(a),
                    (false, true, _) => quiet(b),
                    (_, _, ADD) => a + b,
                    (_, _, SUB) => a - b,
                    _ => a * b,
                }
            })
        }
    }
}

/// [`Avx512::ordered`]'s instruction, written in assembly so that the compiler cannot
/// swap its operands. Inlined into callers compiled with AVX-512 (the multiversioned
/// functions' `avx512` copies), where the arrays stay in registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn ordered_avx512<const OP: u8>(x: [f32; LANES], y: [f32; LANES]) -> [f32; LANES] {
    use std::arch::asm;
    use std::arch::x86_64::__m512;
    // SAFETY (the transmutes): [f32; 16] and __m512 are both 64 bytes, and every bit
    // pattern is a valid value of either.
    let (a, b) = unsafe {
        (
            std::mem::transmute::<[f32; LANES], __m512>(x),
            std::mem::transmute::<[f32; LANES], __m512>(y),
        )
    };
    let r: __m512;
    // SAFETY: one register-to-register AVX-512F instruction (avx512f is enabled for this
    // function, so the zmm registers exist): no memory, stack or flags touched. Intel
    // syntax: `r = a op b`, `a` the first source, whose NaN wins when both are NaN.
    unsafe {
        match OP {
            ADD => asm!("vaddps {r}, {a}, {b}", r = lateout(zmm_reg) r, a = in(zmm_reg) a,
                b = in(zmm_reg) b, options(pure, nomem, nostack, preserves_flags)),
            SUB => asm!("vsubps {r}, {a}, {b}", r = lateout(zmm_reg) r, a = in(zmm_reg) a,
                b = in(zmm_reg) b, options(pure, nomem, nostack, preserves_flags)),
            _ => asm!("vmulps {r}, {a}, {b}", r = lateout(zmm_reg) r, a = in(zmm_reg) a,
                b = in(zmm_reg) b, options(pure, nomem, nostack, preserves_flags)),
        }
    }
    // SAFETY: as above.
    unsafe { std::mem::transmute::<__m512, [f32; LANES]>(r) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule the methods promise, spelled out lane by lane.
    fn first_nan(x: f32, y: f32, r: f32) -> u32 {
        let quiet = |v: f32| v.to_bits() | 0x0040_0000;
        match (x.is_nan(), y.is_nan()) {
            (true, _) => quiet(x),
            (false, true) => quiet(y),
            _ => r.to_bits(),
        }
    }

    #[test]
    fn ordered_arithmetic_keeps_the_first_nan() {
        let specials = [
            0x7fc0_0000u32,
            0xffc0_0001,
            0x7f80_0001,
            0xff80_0123,
            0x7fc0_0abc,
            0,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            1.5f32.to_bits(),
            (-3.0f32).to_bits(),
            1,
            0x8000_0001,
            0x7f7f_ffff,
        ];
        let Some(t) = Avx512::get() else {
            // Nothing to compare without AVX-512 (the methods are never reached).
            assert_ne!(isa(), Isa::Avx512);
            return;
        };
        let pairs: Vec<(u32, u32)> = specials
            .iter()
            .flat_map(|&a| specials.iter().map(move |&b| (a, b)))
            .collect();
        for chunk in pairs.chunks(LANES) {
            let x: [f32; LANES] =
                std::array::from_fn(|l| f32::from_bits(chunk.get(l).map_or(0, |p| p.0)));
            let y: [f32; LANES] =
                std::array::from_fn(|l| f32::from_bits(chunk.get(l).map_or(0, |p| p.1)));
            let (add, sub, mul) = (t.add(x, y), t.sub(x, y), t.mul(x, y));
            for l in 0..LANES {
                let (a, b) = (x[l], y[l]);
                assert_eq!(add[l].to_bits(), first_nan(a, b, a + b), "{a:?} + {b:?}");
                assert_eq!(sub[l].to_bits(), first_nan(a, b, a - b), "{a:?} - {b:?}");
                assert_eq!(mul[l].to_bits(), first_nan(a, b, a * b), "{a:?} * {b:?}");
            }
        }
    }
}
