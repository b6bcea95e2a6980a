#![warn(missing_docs)]
//! glemu-math: glibc's single-precision `sinf`, `cosf`, `exp2f`, `log2f` and `powf` (2.28
//! and later, from Arm's optimized-routines) ported to Rust as glibc's x86-64 FMA build runs
//! them, so glemu's images do not depend on the platform's C library; and vector forms of
//! them over the 16 lanes of one register component that give the same bits.
//!
//! The scalar ports ([`sin`], [`cos`], [`exp2`], [`log2`](log2()), [`pow`]) are the
//! reference: the program interpreter and the sampler's level of detail call them. On x86-64
//! glibc with AVX2 and FMA they equal `f32::sin` ... `f32::powf` (tests: every input of the
//! unary functions, a large sample of `pow`'s pairs). [`lanes`] and [`pow_lanes`] compute
//! 16 lanes at once with AVX2 and FMA when the CPU has them (run-time detection), the
//! lanes a vector form does not handle (NaN, infinities, the arguments glibc sends to its
//! slow paths) through the scalar port; without AVX2 and FMA every lane goes through it.
//!
//! NaN results are spelled out as x86-64 computes them: a NaN operand comes back quieted
//! (payload and sign kept), an invalid operation on numbers gives the default NaN
//! `0xffc00000`.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
pub use avx2::log2_normal;
#[cfg(test)]
mod exhaustive;
mod exp2;
pub mod log2;
mod pow;
mod simd;
pub use simd::{detected, force, isa, requested, Avx512, Isa};
mod sincos;

/// sin(x), bit for bit glibc's `sinf` (its x86-64 FMA build), on every machine.
pub fn sin(x: f32) -> f32 {
    simd::scalar(Func::Sin, x)
}

/// cos(x), bit for bit glibc's `cosf` (its x86-64 FMA build), on every machine.
pub fn cos(x: f32) -> f32 {
    simd::scalar(Func::Cos, x)
}

/// 2^x, bit for bit glibc's `exp2f` (its x86-64 FMA build), on every machine.
pub fn exp2(x: f32) -> f32 {
    simd::scalar(Func::Exp2, x)
}

/// log2(x), bit for bit glibc's `log2f` (its x86-64 FMA build), on every machine.
pub fn log2(x: f32) -> f32 {
    simd::scalar(Func::Log2, x)
}

/// x^y, bit for bit glibc's `powf` (its x86-64 FMA build), on every machine.
pub fn pow(x: f32, y: f32) -> f32 {
    simd::scalar_pow(x, y)
}

/// Lanes of one register component: what [`lanes`] and [`pow_lanes`] compute at once.
pub const LANES: usize = 16;

/// A unary function [`lanes`] computes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Func {
    /// [`sin`].
    Sin,
    /// [`cos`].
    Cos,
    /// [`exp2`].
    Exp2,
    /// [`log2`](log2()).
    Log2,
}

impl Func {
    /// The scalar port.
    pub fn scalar(self) -> fn(f32) -> f32 {
        match self {
            Func::Sin => sin,
            Func::Cos => cos,
            Func::Exp2 => exp2,
            Func::Log2 => log2,
        }
    }
}

/// `x[l] = f(x[l])` on f32 bit patterns, the bits of the scalar port on every lane.
pub fn lanes(f: Func, x: &mut [u32; LANES]) {
    let input = *x;
    let slow = simd::unary(f, &input, x).unwrap_or(u32::MAX);
    let f = f.scalar();
    scalar_lanes(x, slow, |l| f(f32::from_bits(input[l])));
}

/// `x[l] = pow(x[l], y[l])` on f32 bit patterns, the bits of [`pow`] on every lane.
pub fn pow_lanes(x: &mut [u32; LANES], y: &[u32; LANES]) {
    let input = *x;
    let slow = simd::pow(&input, y, x).unwrap_or(u32::MAX);
    scalar_lanes(x, slow, |l| {
        pow(f32::from_bits(input[l]), f32::from_bits(y[l]))
    });
}

/// `out[l] = port(l)` for the lanes `l` of the mask `slow`.
#[inline]
fn scalar_lanes(out: &mut [u32; LANES], slow: u32, port: impl Fn(usize) -> f32) {
    let mut rest = slow & 0xffff;
    while rest != 0 {
        let l = rest.trailing_zeros() as usize;
        out[l] = port(l).to_bits();
        rest &= rest - 1;
    }
}

/// `x` quieted: what an x86-64 arithmetic instruction returns for a NaN operand.
#[inline]
fn quiet(x: f32) -> f32 {
    f32::from_bits(x.to_bits() | 0x0040_0000)
}

/// glibc's `__math_invalidf(x)`, `(x - x) / (x - x)`, as x86-64 computes it: a NaN `x`
/// quieted, else the default NaN. Spelled out so that no constant folding can pick another
/// NaN.
#[inline]
fn invalid(x: f32) -> f32 {
    if x.is_nan() {
        quiet(x)
    } else {
        f32::from_bits(0xffc0_0000)
    }
}

/// The first NaN of `x`, `y` quieted (x86-64's rule for `x + y`), or `r`.
#[inline]
fn nan_first(x: f32, y: f32, r: f32) -> f32 {
    if x.is_nan() {
        quiet(x)
    } else if y.is_nan() {
        quiet(y)
    } else {
        r
    }
}
