//! glibc's `exp2f` as its FMA build runs it: x = k/32 + r, 2^(k/32) from a 32-entry table
//! whose exponent is completed by k's integer bits, and a degree-3 polynomial for 2^r in
//! double precision; the three multiply-adds its compiler fused are `mul_add` here.

/// `__exp2f_data.tab`: the bits of 2^(i/32) less i << 47, so that adding k << 47 to entry
/// k % 32 gives 2^(k/32) for any |k| < 150·32.
pub(crate) const TABLE: [u64; 32] = [
    0x3ff0000000000000,
    0x3fefd9b0d3158574,
    0x3fefb5586cf9890f,
    0x3fef9301d0125b51,
    0x3fef72b83c7d517b,
    0x3fef54873168b9aa,
    0x3fef387a6e756238,
    0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715,
    0x3feef1a7373aa9cb,
    0x3feedea64c123422,
    0x3feece086061892d,
    0x3feebfdad5362a27,
    0x3feeb42b569d4f82,
    0x3feeab07dd485429,
    0x3feea47eb03a5585,
    0x3feea09e667f3bcd,
    0x3fee9f75e8ec5f74,
    0x3feea11473eb0187,
    0x3feea589994cce13,
    0x3feeace5422aa0db,
    0x3feeb737b0cdc5e5,
    0x3feec49182a3f090,
    0x3feed503b23e255d,
    0x3feee89f995ad3ad,
    0x3feeff76f2fb5e47,
    0x3fef199bdd85529c,
    0x3fef3720dcef9069,
    0x3fef5818dcfba487,
    0x3fef7c97337b9b5f,
    0x3fefa4afa2a490da,
    0x3fefd0765b6e4540,
];

/// `__exp2f_data.poly`: 0x1.c6af84b912394p-5, 0x1.ebfce50fac4f3p-3, 0x1.62e42ff0c52d6p-1.
pub(crate) const POLY: [u64; 3] = [0x3fac6af84b912394, 0x3fcebfce50fac4f3, 0x3fe62e42ff0c52d6];

/// `__exp2f_data.shift_scaled`: 0x1.8p+52 / 32, which rounds x to a multiple of 1/32.
pub(crate) const SHIFT: f64 = 6755399441055744.0 / 32.0;

/// 2^x, bit for bit glibc's `exp2f` (its FMA build).
#[inline(always)]
pub(crate) fn exp2(x: f32) -> f32 {
    let abstop = (x.to_bits() >> 20) & 0x7ff;
    if abstop >= 0x430 {
        // |x| >= 128 or NaN.
        if x.to_bits() == 0xff80_0000 {
            return 0.0;
        }
        if abstop >= 0x7f8 {
            // glibc's x + x: +inf, or the NaN quieted.
            return crate::nan_first(x, x, x);
        }
        if x > 0.0 {
            return f32::INFINITY;
        }
        if x <= -150.0 {
            return 0.0;
        }
    }
    scaled(f64::from(x), 0)
}

/// 2^xd for |xd| < 150, negated when `sign` (glibc's `exp2_inline`; [`exp2`] and `powf`
/// share it).
#[inline(always)]
pub(crate) fn scaled(xd: f64, sign: u64) -> f32 {
    let c = POLY.map(f64::from_bits);
    // x = k/32 + r, r in [-1/64, 1/64].
    let kd = xd + SHIFT;
    let ki = kd.to_bits();
    let r = xd - (kd - SHIFT);
    let t = TABLE[(ki % 32) as usize].wrapping_add((ki.wrapping_add(sign)) << 47);
    let s = f64::from_bits(t);
    // 2^(k/32) · (c0 r^3 + c1 r^2 + c2 r + 1), glibc's three fused steps in its order.
    let z = c[0].mul_add(r, c[1]);
    let r2 = r * r;
    let y = c[2].mul_add(r, 1.0);
    let y = z.mul_add(r2, y);
    (y * s) as f32
}
