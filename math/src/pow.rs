//! glibc's `powf` as its FMA build runs it: log2(x) in double precision from
//! [`crate::log2`]'s table with a degree-5 polynomial, times y, then [`crate::exp2`]'s
//! 2^(y·log2 x); the sign of a negative x with an odd integer y rides in the exponent.

/// `__powf_log2_data.poly`: log1p(r)/ln 2 to degree 5.
pub(crate) const POLY: [u64; 5] = [
    0x3fd2_7616_c949_6e0b,
    0xbfd7_1969_a075_c67a,
    0x3fde_c70a_6ca7_badd,
    0xbfe7_1547_48be_f6c8,
    0x3ff7_1547_652a_b82b,
];

/// The sign of a negative result, added to the exponent of 2^(k/32) (bit 63 after `<< 47`).
const SIGN_BIAS: u64 = 1 << 16;

/// 0 when `iy` is not an integer, 1 odd, 2 even.
fn checkint(iy: u32) -> u32 {
    let e = (iy >> 23) & 0xff;
    if e < 0x7f {
        return 0;
    }
    if e > 0x7f + 23 {
        return 2;
    }
    if iy & ((1 << (0x7f + 23 - e)) - 1) != 0 {
        return 0;
    }
    if iy & (1 << (0x7f + 23 - e)) != 0 {
        return 1;
    }
    2
}

/// Zero, infinity or NaN.
fn zeroinfnan(i: u32) -> bool {
    (i << 1).wrapping_sub(1) >= 2 * 0x7f80_0000 - 1
}

/// A signalling NaN.
fn signaling(x: f32) -> bool {
    x.is_nan() && x.to_bits() & 0x0040_0000 == 0
}

/// x^y, bit for bit glibc's `powf` (its FMA build).
#[inline(always)]
pub(crate) fn pow(x: f32, y: f32) -> f32 {
    let mut sign = 0;
    let (mut ix, iy) = (x.to_bits(), y.to_bits());
    if ix.wrapping_sub(0x0080_0000) >= 0x7f80_0000 - 0x0080_0000 || zeroinfnan(iy) {
        // x below the smallest normal, inf or NaN, or y zero, inf or NaN.
        if zeroinfnan(iy) {
            if (iy << 1) == 0 {
                return if signaling(x) {
                    crate::nan_first(x, y, 0.0)
                } else {
                    1.0
                };
            }
            if ix == 0x3f80_0000 {
                return if signaling(y) {
                    crate::nan_first(x, y, 0.0)
                } else {
                    1.0
                };
            }
            if (ix << 1) > 2 * 0x7f80_0000 || (iy << 1) > 2 * 0x7f80_0000 {
                return crate::nan_first(x, y, 0.0);
            }
            if (ix << 1) == 2 * 0x3f80_0000 {
                return 1.0;
            }
            if ((ix << 1) < 2 * 0x3f80_0000) == (iy & 0x8000_0000 == 0) {
                // |x| < 1 and y = inf, or |x| > 1 and y = -inf.
                return 0.0;
            }
            return y * y;
        }
        if zeroinfnan(ix) {
            let mut x2 = if x.is_nan() { crate::quiet(x) } else { x * x };
            if ix & 0x8000_0000 != 0 && checkint(iy) == 1 {
                x2 = -x2;
            }
            return if iy & 0x8000_0000 != 0 {
                if x2.is_nan() {
                    x2
                } else {
                    1.0 / x2
                }
            } else {
                x2
            };
        }
        // x and y are finite and non-zero.
        if ix & 0x8000_0000 != 0 {
            match checkint(iy) {
                0 => return crate::invalid(x),
                1 => sign = SIGN_BIAS,
                _ => {}
            }
            ix &= 0x7fff_ffff;
        }
        if ix < 0x0080_0000 {
            // Subnormal x: scaled into the normals, the exponent lowered by 23.
            ix =
                ((f32::from_bits(ix) * 8_388_608.0).to_bits() & 0x7fff_ffff).wrapping_sub(23 << 23);
        }
    }
    let ylogx = f64::from(y) * log2_inline(ix);
    if (ylogx.to_bits() >> 47) & 0xffff >= 126.0f64.to_bits() >> 47 {
        // |y log2 x| >= 126.
        if ylogx > f64::from_bits(0x405f_ffff_ffd1_d571) {
            return if sign != 0 {
                f32::NEG_INFINITY
            } else {
                f32::INFINITY
            };
        }
        if ylogx <= -150.0 {
            return if sign != 0 { -0.0 } else { 0.0 };
        }
    }
    crate::exp2::scaled(ylogx, sign)
}

/// log2 of the positive normal (or normalised) float of bits `ix`, in double precision.
#[inline(always)]
pub(crate) fn log2_inline(ix: u32) -> f64 {
    let (z, invc, y0) = crate::log2::split(ix);
    let a = POLY.map(f64::from_bits);
    // log2(x) = log1p(z/c - 1)/ln 2 + log2(c) + k, glibc's six fused steps in its order.
    let r = z.mul_add(invc, -1.0);
    let r2 = r * r;
    let y = a[0].mul_add(r, a[1]);
    let p = a[2].mul_add(r, a[3]);
    let r4 = r2 * r2;
    let q = a[4].mul_add(r, y0);
    let q = p.mul_add(r2, q);
    y.mul_add(r4, q)
}
