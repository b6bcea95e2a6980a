//! Scalar conversions shared by decoding, encoding and pixel transfer: normalized
//! integers, the small float formats (11/10-bit, shared exponent) and the sRGB curve.
//!
//! Every function here is exact with respect to the GL formulas (GL 4.6 §2.3.5 and the
//! EXT_packed_float / EXT_texture_shared_exponent / EXT_texture_sRGB specs), so the
//! round-trip tests can compare bit patterns.

/// Unsigned normalized integer of `bits` bits to float: `c / (2^bits - 1)`.
#[inline]
pub fn unorm_to_f32(c: u32, bits: u32) -> f32 {
    let max = ((1u64 << bits) - 1) as f64;
    (c as f64 / max) as f32
}

/// Signed normalized integer of `bits` bits (already sign-extended) to float:
/// `max(c / (2^(bits-1) - 1), -1)`.
#[inline]
pub fn snorm_to_f32(c: i32, bits: u32) -> f32 {
    let max = ((1i64 << (bits - 1)) - 1) as f64;
    ((c as f64 / max).max(-1.0)) as f32
}

/// Float to unsigned normalized: clamp to `[0, 1]`, scale and round to nearest (NaN → 0).
#[inline]
pub fn f32_to_unorm(v: f32, bits: u32) -> u32 {
    let max = ((1u64 << bits) - 1) as f64;
    let v = if v.is_nan() {
        0.0
    } else {
        (v as f64).clamp(0.0, 1.0)
    };
    (v * max).round() as u32
}

/// Float to signed normalized: clamp to [-1,1], scale and round to nearest (NaN → 0).
#[inline]
pub fn f32_to_snorm(v: f32, bits: u32) -> i32 {
    let max = ((1i64 << (bits - 1)) - 1) as f64;
    let v = if v.is_nan() {
        0.0
    } else {
        (v as f64).clamp(-1.0, 1.0)
    };
    (v * max).round() as i32
}

/// Sign-extends the low `bits` bits of `v`.
#[inline]
pub fn sign_extend(v: u32, bits: u32) -> i32 {
    let shift = 32 - bits;
    ((v << shift) as i32) >> shift
}

/// Decodes an unsigned float with 5 exponent bits and `mbits` mantissa bits
/// (the 11- and 10-bit components of R11F_G11F_B10F).
pub fn ufloat_to_f32(v: u32, mbits: u32) -> f32 {
    let m = v & ((1 << mbits) - 1);
    let e = (v >> mbits) & 0x1f;
    let scale = (1u32 << mbits) as f32;
    match e {
        0 => (m as f32 / scale) * (2.0f32).powi(-14),
        31 => {
            if m == 0 {
                f32::INFINITY
            } else {
                f32::NAN
            }
        }
        _ => (2.0f32).powi(e as i32 - 15) * (1.0 + m as f32 / scale),
    }
}

/// Encodes an unsigned float with 5 exponent bits and `mbits` mantissa bits, rounding to
/// nearest even; negatives and -0 become 0, values above the largest finite value saturate
/// to it, +Inf stays Inf and NaN stays NaN (EXT_packed_float).
pub fn f32_to_ufloat(v: f32, mbits: u32) -> u32 {
    let exp_mask = 0x1f << mbits;
    if v.is_nan() {
        return exp_mask | 1;
    }
    if v == f32::INFINITY {
        return exp_mask;
    }
    if v <= 0.0 {
        return 0;
    }
    let bits = v.to_bits();
    let e = ((bits >> 23) & 0xff) as i32 - 127;
    let max_finite = (30 << mbits) | ((1 << mbits) - 1);
    if e > 15 {
        return max_finite;
    }
    // Work in units of the smallest denormal (2^(-14 - mbits)) for small values and with
    // the implicit bit for normal ones; both become "value / ulp" rounded to nearest even.
    let mant = (bits & 0x7f_ffff) | 0x80_0000; // value = mant * 2^(e-23)
    let (exp_field, shift) = if e < -14 {
        // Denormal: value / 2^(-14-mbits) = mant * 2^(e - 23 + 14 + mbits)
        (0u32, 23 - mbits as i32 - 14 - e)
    } else {
        ((e + 15) as u32, 23 - mbits as i32)
    };
    if shift >= 32 {
        return 0;
    }
    let shift = shift as u32;
    let q = mant >> shift;
    let rem = mant & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    let q = if rem > half || (rem == half && (q & 1) == 1) {
        q + 1
    } else {
        q
    };
    let out = if exp_field == 0 {
        // q may round up into the first normal: the encoding carries over naturally.
        q
    } else {
        // q includes the implicit bit (1 << mbits); a carry bumps the exponent.
        (exp_field << mbits) + (q - (1 << mbits))
    };
    out.min(max_finite)
}

/// Decodes RGB9_E5 (9-bit mantissas, shared 5-bit exponent, bias 15).
pub fn rgb9e5_to_f32(v: u32) -> [f32; 3] {
    let e = (v >> 27) as i32;
    let scale = (2.0f32).powi(e - 15 - 9);
    [
        (v & 0x1ff) as f32 * scale,
        ((v >> 9) & 0x1ff) as f32 * scale,
        ((v >> 18) & 0x1ff) as f32 * scale,
    ]
}

/// Encodes RGB9_E5 with the algorithm of EXT_texture_shared_exponent.
pub fn f32_to_rgb9e5(rgb: [f32; 3]) -> u32 {
    const N: i32 = 9;
    const B: i32 = 15;
    let max = ((1 << N) - 1) as f32 / (1 << N) as f32 * (2.0f32).powi(31 - B);
    let c = rgb.map(|x| if x.is_nan() { 0.0 } else { x.clamp(0.0, max) });
    let maxc = c[0].max(c[1]).max(c[2]);
    let floor_log2 = if maxc > 0.0 {
        maxc.log2().floor() as i32
    } else {
        -B - 1
    };
    let mut exp = floor_log2.max(-B - 1) + 1 + B;
    let maxs = (maxc / (2.0f32).powi(exp - B - N) + 0.5).floor() as i32;
    if maxs == 1 << N {
        exp += 1;
    }
    let scale = (2.0f32).powi(exp - B - N);
    let q = c.map(|x| ((x / scale + 0.5).floor() as u32).min(511));
    q[0] | (q[1] << 9) | (q[2] << 18) | ((exp as u32) << 27)
}

/// sRGB transfer function, encoded → linear (EXT_texture_sRGB).
#[inline]
pub fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// sRGB transfer function, linear → encoded.
#[inline]
pub fn linear_to_srgb(l: f32) -> f32 {
    if l.is_nan() || l <= 0.0 {
        0.0
    } else if l < 0.0031308 {
        l * 12.92
    } else if l < 1.0 {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    } else {
        1.0
    }
}

/// Decoded values of every 8-bit sRGB code, so sampling decodes with a table lookup.
pub fn srgb8_table() -> &'static [f32; 256] {
    use std::sync::OnceLock;
    static TABLE: OnceLock<[f32; 256]> = OnceLock::new();
    TABLE.get_or_init(|| std::array::from_fn(|i| srgb_to_linear(i as f32 / 255.0)))
}

/// Decodes an sRGB-encoded unorm8 value held as a float in `[0, 1]`.
#[inline]
pub fn srgb_decode_unorm8(c: f32) -> f32 {
    let idx = (c.clamp(0.0, 1.0) * 255.0).round() as usize;
    srgb8_table().get(idx).copied().unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unorm_snorm_formulas() {
        assert_eq!(unorm_to_f32(255, 8), 1.0);
        assert_eq!(unorm_to_f32(0, 8), 0.0);
        assert_eq!(unorm_to_f32(128, 8), 128.0 / 255.0);
        assert_eq!(snorm_to_f32(-128, 8), -1.0);
        assert_eq!(snorm_to_f32(-127, 8), -1.0);
        assert_eq!(snorm_to_f32(127, 8), 1.0);
        for c in 0..=255u32 {
            assert_eq!(f32_to_unorm(unorm_to_f32(c, 8), 8), c);
        }
        for c in -127..=127i32 {
            assert_eq!(f32_to_snorm(snorm_to_f32(c, 8), 8), c);
        }
        for c in (0..=65535u32).step_by(7) {
            assert_eq!(f32_to_unorm(unorm_to_f32(c, 16), 16), c);
        }
        assert_eq!(f32_to_unorm(2.0, 8), 255);
        assert_eq!(f32_to_unorm(-2.0, 8), 0);
        assert_eq!(f32_to_unorm(f32::NAN, 8), 0);
        assert_eq!(sign_extend(0x3ff, 10), -1);
        assert_eq!(sign_extend(0x1ff, 10), 511);
    }

    #[test]
    fn ufloat_round_trips_every_code() {
        for mbits in [6u32, 5] {
            let max_code = (31 << mbits) - 1; // every finite code
            for code in 0..=max_code {
                let f = ufloat_to_f32(code, mbits);
                assert_eq!(
                    f32_to_ufloat(f, mbits),
                    code,
                    "mbits {mbits} code {code:#x}"
                );
            }
        }
        assert_eq!(
            ufloat_to_f32(f32_to_ufloat(f32::INFINITY, 6), 6),
            f32::INFINITY
        );
        assert!(ufloat_to_f32(f32_to_ufloat(f32::NAN, 5), 5).is_nan());
        assert_eq!(f32_to_ufloat(-3.0, 6), 0);
        assert_eq!(ufloat_to_f32(f32_to_ufloat(1e9, 6), 6), 65024.0);
        assert_eq!(ufloat_to_f32(f32_to_ufloat(1.0, 6), 6), 1.0);
        // Halfway between 1.0 and the next code rounds to even (1.0).
        let step = 1.0 / 64.0;
        assert_eq!(ufloat_to_f32(f32_to_ufloat(1.0 + step / 2.0, 6), 6), 1.0);
        assert_eq!(
            ufloat_to_f32(f32_to_ufloat(1.0 + step * 1.5, 6), 6),
            1.0 + 2.0 * step
        );
    }

    #[test]
    fn rgb9e5_matches_spec_examples() {
        assert_eq!(
            rgb9e5_to_f32(f32_to_rgb9e5([1.0, 0.5, 0.25])),
            [1.0, 0.5, 0.25]
        );
        assert_eq!(rgb9e5_to_f32(f32_to_rgb9e5([0.0, 0.0, 0.0])), [0.0; 3]);
        let big = rgb9e5_to_f32(f32_to_rgb9e5([1e10, 0.0, 0.0]));
        assert_eq!(big[0], 511.0 / 512.0 * 65536.0);
        // Round trip every mantissa with a fixed exponent.
        for m in 0..512u32 {
            let code = m | (20 << 27) | (511 << 9);
            let f = rgb9e5_to_f32(code);
            assert_eq!(rgb9e5_to_f32(f32_to_rgb9e5(f)), f);
        }
    }

    #[test]
    fn srgb_curve() {
        assert_eq!(srgb_to_linear(0.0), 0.0);
        assert!((srgb_to_linear(1.0) - 1.0).abs() < 1e-6);
        assert!((srgb_to_linear(0.5) - 0.214_041_14).abs() < 1e-6);
        for i in 0..=255u32 {
            let c = i as f32 / 255.0;
            let back = f32_to_unorm(linear_to_srgb(srgb_to_linear(c)), 8);
            assert_eq!(back, i);
            assert_eq!(srgb_decode_unorm8(c), srgb_to_linear(c));
        }
    }
}
