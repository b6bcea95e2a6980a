//! f32 arithmetic with the specs' rules for specials.
//!
//! Precision: the specs only bound the error of the "approximate" instructions (RCP,
//! RSQ, EX2, LG2, SIN, COS, POW); glemu computes RCP and RSQ correctly rounded and the
//! others with glemu-math's ports of glibc's functions (well inside the bounds), so results
//! are the same on every machine and C library.

/// `a` where `c`, else `b`, as bit operations: no branch, so lane loops over it
/// vectorise (`exec::block` runs the interpreter's lane functions over whole blocks).
#[inline(always)]
fn select(c: bool, a: f32, b: f32) -> f32 {
    let m = u32::from(c).wrapping_neg();
    f32::from_bits((a.to_bits() & m) | (b.to_bits() & !m))
}

/// `r` (the result of a binary operation on `x` and `y`) with the NaN rule of SSE/AVX,
/// spelled out: when an operand is NaN the result is the first NaN operand, quieted.
/// Written explicitly because the compiler may swap the operands of the commutative
/// `x + y` and `x * y` (which NaN comes out is unspecified in Rust), while the native
/// backend must reproduce the interpreter bit for bit.
#[inline(always)]
fn nan_first(x: f32, y: f32, r: f32) -> f32 {
    const QUIET: u32 = 0x0040_0000;
    let xq = f32::from_bits(x.to_bits() | QUIET);
    let yq = f32::from_bits(y.to_bits() | QUIET);
    select(x.is_nan(), xq, select(y.is_nan(), yq, r))
}

/// `x + y` with NaN operands resolved as SSE does ([`nan_first`]).
#[inline(always)]
pub(crate) fn add(x: f32, y: f32) -> f32 {
    nan_first(x, y, x + y)
}

/// `x * y` with NaN operands resolved as SSE does ([`nan_first`]).
#[inline(always)]
pub(crate) fn mul(x: f32, y: f32) -> f32 {
    nan_first(x, y, x * y)
}

/// MAD: the product rounded, then the sum (never fused).
#[inline(always)]
pub(crate) fn mad(x: f32, y: f32, z: f32) -> f32 {
    add(mul(x, y), z)
}

/// LRP: `t * x + (1 - t) * y`, each product rounded.
#[inline(always)]
pub(crate) fn lrp(t: f32, x: f32, y: f32) -> f32 {
    add(mul(t, x), mul(1.0 - t, y))
}

/// MIN: a NaN operand yields the other operand; -0 is less than +0.
#[inline(always)]
pub(crate) fn fmin(a: f32, b: f32) -> f32 {
    let tie = (a == b) & a.is_sign_negative();
    select(!a.is_nan() & (b.is_nan() | (a < b) | tie), a, b)
}

/// MAX: a NaN operand yields the other operand; +0 is greater than -0.
#[inline(always)]
pub(crate) fn fmax(a: f32, b: f32) -> f32 {
    let tie = (a == b) & b.is_sign_negative();
    select(!a.is_nan() & (b.is_nan() | (a > b) | tie), a, b)
}

/// RCC: the reciprocal clamped to [2^-64, 2^64] or [-2^64, -2^-64] by its sign
/// (NV_vertex_program1_1 / NV_gpu_program4 RCC). The sign bit decides, so RCC(+inf) =
/// +2^-64 and RCC(-inf) = -2^-64 (the text's "not greater than zero" would send +0 to the
/// negative range, which no hardware does). A NaN stays NaN.
pub(crate) fn rcc(x: f32) -> f32 {
    let r = 1.0 / x;
    if r.is_nan() {
        return r;
    }
    let lo = f32::from_bits(0x1f80_0000); // 2^-64
    let hi = f32::from_bits(0x5f80_0000); // 2^64
    r.abs().clamp(lo, hi).copysign(r)
}

/// SSG / sign of a float: 1, 0 or -1 (NaN gives 0).
#[inline]
pub(crate) fn ssg(x: f32) -> f32 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// FLR/CEIL/TRUNC/ROUND of `x` by `f`, with a NaN returned unchanged (a signalling NaN
/// is not quieted): what the software floor of the host library does, made explicit so
/// the native backend (whose rounding instruction would quiet it) can match.
#[inline]
pub(crate) fn round_keep_nan(f: fn(f32) -> f32, x: f32) -> f32 {
    if x.is_nan() {
        x
    } else {
        f(x)
    }
}

/// ROUND: nearest integer, ties to even.
#[inline]
pub(crate) fn round_even(x: f32) -> f32 {
    x.round_ties_even()
}

/// LIT's specular power with the exponent clamped to (-128, 128) and 0^0 = 1.
pub(crate) fn lit(x: f32, y: f32, w: f32) -> [f32; 4] {
    // "128 - epsilon": the largest f32 below 128.
    let eps = f32::from_bits(0x42ff_ffff);
    let x = if x < 0.0 { 0.0 } else { x };
    let y = if y < 0.0 { 0.0 } else { y };
    let w = w.clamp(-eps, eps);
    let z = if x > 0.0 { glemu_math::pow(y, w) } else { 0.0 };
    [1.0, x, z, 1.0]
}

/// ARB/VP1 EXP: (2^floor(x), x - floor(x), 2^x, 1).
pub(crate) fn exp_partial(x: f32) -> [f32; 4] {
    let fl = x.floor();
    [glemu_math::exp2(fl), x - fl, glemu_math::exp2(x), 1.0]
}

/// ARB/VP1 LOG of |x|: (floor(log2), mantissa in [1,2), log2, 1).
pub(crate) fn log_partial(x: f32) -> [f32; 4] {
    let a = x.abs();
    if a == 0.0 {
        return [f32::NEG_INFINITY, 1.0, f32::NEG_INFINITY, 1.0];
    }
    if a.is_infinite() {
        return [f32::INFINITY, 1.0, f32::INFINITY, 1.0];
    }
    if a.is_nan() {
        return [a, a, a, 1.0];
    }
    let l = glemu_math::log2(a);
    // The spec's "floor of the exact logarithm" and the mantissa, both from the bits: the
    // floor of the rounded log2 is one too high just below a power of two among the
    // denormals (bits 0x7ffff: log2 rounds to -130, the exponent is -131).
    let bits = a.to_bits();
    let (e, m) = if a.is_normal() {
        ((bits >> 23) as i32 - 127, bits & 0x007f_ffff)
    } else {
        // A denormal: its highest set bit is the leading 1 of the normalised mantissa.
        let top = 31 - bits.leading_zeros();
        (top as i32 - 149, (bits << (23 - top)) & 0x007f_ffff)
    };
    [e as f32, f32::from_bits(m | 0x3f80_0000), l, 1.0]
}

/// Convert a float to a signed integer, saturating (NaN → 0): the defined choice for
/// the specs' "undefined" out-of-range conversions.
#[inline]
pub(crate) fn f2s(x: f32) -> u32 {
    (x as i32) as u32
}

/// Convert a float to an unsigned integer, saturating (negative and NaN → 0).
#[inline]
pub(crate) fn f2u(x: f32) -> u32 {
    x as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_nan_wins() {
        let a = f32::from_bits(0x7fc0_0001);
        let b = f32::from_bits(0xff80_0002); // signalling: comes out quiet
        assert_eq!(add(a, b).to_bits(), 0x7fc0_0001);
        assert_eq!(mul(b, a).to_bits(), 0xffc0_0002);
        assert_eq!(add(1.0, b).to_bits(), 0xffc0_0002);
        assert_eq!(mul(2.0, 3.0), 6.0);
    }

    #[test]
    fn min_max_specials() {
        assert_eq!(fmin(f32::NAN, 2.0), 2.0);
        assert_eq!(fmax(1.0, f32::NAN), 1.0);
        assert!(fmin(0.0, -0.0).is_sign_negative());
        assert!(fmax(-0.0, 0.0).is_sign_positive());
    }

    #[test]
    fn rcc_clamps() {
        assert_eq!(rcc(0.0), f32::from_bits(0x5f80_0000));
        assert_eq!(rcc(-0.0), -f32::from_bits(0x5f80_0000));
        assert_eq!(rcc(f32::INFINITY), f32::from_bits(0x1f80_0000));
        assert_eq!(rcc(f32::NEG_INFINITY), -f32::from_bits(0x1f80_0000));
        assert_eq!(rcc(4.0), 0.25);
        assert_eq!(rcc(1e-30), f32::from_bits(0x5f80_0000));
        assert!(rcc(f32::NAN).is_nan());
    }

    #[test]
    fn log_exp_partials() {
        assert_eq!(log_partial(8.0), [3.0, 1.0, 3.0, 1.0]);
        assert_eq!(log_partial(-12.0)[0..2], [3.0, 1.5]);
        assert_eq!(exp_partial(2.5), [4.0, 0.5, glemu_math::exp2(2.5), 1.0]);
        assert_eq!(log_partial(0.0)[0], f32::NEG_INFINITY);
    }

    /// Every denormal: x is the exact exponent and y in [1, 2) with x and y giving back the
    /// input exactly (y · 2^x), the spec's pseudo-code with the exact logarithm.
    #[test]
    fn log_partial_of_denormals_is_exact() {
        // Just below 2^-130, where the rounded log2 is -130.0 but the exponent is -131.
        let [x, y, _, w] = log_partial(f32::from_bits(0x0007_ffff));
        assert_eq!((x, w), (-131.0, 1.0));
        assert_eq!(y, f32::from_bits(0x3fff_ffe0));
        for bits in 1..0x0080_0000u32 {
            let a = f32::from_bits(bits);
            let [x, y, ..] = log_partial(-a);
            assert!((1.0..2.0).contains(&y), "{bits:#x}: y = {y}");
            let top = 31 - bits.leading_zeros();
            assert_eq!(x, (top as i32 - 149) as f32, "{bits:#x}");
            // y · 2^x rebuilt in f64, where every denormal is exact.
            assert_eq!(
                f64::from(y) * 2f64.powi(x as i32),
                f64::from(a),
                "{bits:#x}"
            );
        }
        // The smallest normal continues the sequence.
        assert_eq!(log_partial(f32::MIN_POSITIVE)[0..2], [-126.0, 1.0]);
    }

    #[test]
    fn lit_cases() {
        assert_eq!(lit(-1.0, 0.5, 2.0), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(lit(0.5, 0.5, 2.0), [1.0, 0.5, 0.25, 1.0]);
        assert_eq!(lit(0.5, 0.0, 0.0), [1.0, 0.5, 1.0, 1.0]);
        // Exponent clamped below 128.
        assert!(lit(1.0, 2.0, 1000.0)[2].is_finite());
    }
}
