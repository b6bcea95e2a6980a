//! log2 of the level of detail, the same bits on every machine: glibc's `log2f` (2.28 and
//! later, from Arm's optimized-routines: exact exponent extraction, a 16-entry table, a
//! degree-4 polynomial in double precision) as its FMA build runs it, with the five
//! multiply-adds its compiler fused. The reference ([`crate::call`]) and the AVX2 kernel
//! (`lod_avx2`) both compute this sequence, so their levels agree whatever the platform's
//! C library is; on a machine whose `f32::log2` is glibc's FMA build (tested) the images
//! are the ones `f32::log2` gave.

/// glibc's `__log2f_data`: (1/c, log2(c)) for the 16 subintervals of [0x3f330000, 2·that).
pub(crate) const TABLE: [(u64, u64); 16] = [
    (0x3ff661ec79f8f3be, 0xbfdefec65b963019),
    (0x3ff571ed4aaf883d, 0xbfdb0b6832d4fca4),
    (0x3ff49539f0f010b0, 0xbfd7418b0a1fb77b),
    (0x3ff3c995b0b80385, 0xbfd39de91a6dcf7b),
    (0x3ff30d190c8864a5, 0xbfd01d9bf3f2b631),
    (0x3ff25e227b0b8ea0, 0xbfc97c1d1b3b7af0),
    (0x3ff1bb4a4a1a343f, 0xbfc2f9e393af3c9f),
    (0x3ff12358f08ae5ba, 0xbfb960cbbf788d5c),
    (0x3ff0953f419900a7, 0xbfaa6f9db6475fce),
    (0x3ff0000000000000, 0x0000000000000000),
    (0x3fee608cfd9a47ac, 0x3fb338ca9f24f53d),
    (0x3feca4b31f026aa0, 0x3fc476a9543891ba),
    (0x3feb2036576afce6, 0x3fce840b4ac4e4d2),
    (0x3fe9c2d163a1aa2d, 0x3fd40645f0c6651c),
    (0x3fe886e6037841ed, 0x3fd88e9c2c1b9ff8),
    (0x3fe767dcf5534862, 0x3fdce0a44eb17bcc),
];

/// glibc's polynomial coefficients A[0..4] for log1p(r)/ln 2.
pub(crate) const POLY: [u64; 4] = [
    0xbfd712b6f70a7e4d,
    0x3fdecabf496832e0,
    0xbfe715479ffae3de,
    0x3ff715475f35c8b8,
];

/// log2 of `x`, bit for bit glibc's `log2f` (its FMA build), NaN payloads included.
pub(crate) fn log2(x: f32) -> f32 {
    let mut ix = x.to_bits();
    if ix == 0x3f80_0000 {
        return 0.0;
    }
    if ix.wrapping_sub(0x0080_0000) >= 0x7f80_0000 - 0x0080_0000 {
        // Below the smallest normal, inf or NaN.
        if ix << 1 == 0 {
            return f32::NEG_INFINITY;
        }
        if ix == 0x7f80_0000 {
            return x;
        }
        if ix & 0x8000_0000 != 0 || ix << 1 >= 0xff00_0000 {
            // glibc's __math_invalidf: the NaN the hardware makes of 0/0 or of x.
            #[allow(clippy::eq_op)]
            return (x - x) / (x - x);
        }
        // Subnormal: scaled into the normals, the exponent lowered by 23.
        ix = (x * 8_388_608.0).to_bits().wrapping_sub(23 << 23);
    }
    // x = 2^k z, z in [0x3f330000, 2·that) and exact; i picks the subinterval.
    let tmp = ix.wrapping_sub(0x3f33_0000);
    let i = ((tmp >> 19) % 16) as usize;
    let top = tmp & 0xff80_0000;
    let iz = ix.wrapping_sub(top);
    let k = (tmp as i32) >> 23;
    let (invc, logc) = (f64::from_bits(TABLE[i].0), f64::from_bits(TABLE[i].1));
    let a = POLY.map(f64::from_bits);
    let z = f64::from(f32::from_bits(iz));
    // log2(x) = log1p(z/c - 1)/ln2 + log2(c) + k, glibc's five fused steps in its order.
    let r = z.mul_add(invc, -1.0);
    let y0 = logc + f64::from(k);
    let r2 = r * r;
    let y = a[1].mul_add(r, a[2]);
    let y = a[0].mul_add(r2, y);
    let p = a[3].mul_add(r, y0);
    y.mul_add(r2, p) as f32
}

#[cfg(test)]
mod tests {
    use super::log2;

    /// Every non-negative f32 and every 4099th negative one, on two threads: the port gives
    /// the bits of `f32::log2` where that is glibc's FMA build (x86-64 glibc with AVX2 and
    /// FMA, which the reftests' images were made on); elsewhere the port is only run.
    #[test]
    fn log2_is_glibc_on_every_input() {
        #[cfg(all(target_arch = "x86_64", target_os = "linux", target_env = "gnu"))]
        let glibc_fma = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
        #[cfg(not(all(target_arch = "x86_64", target_os = "linux", target_env = "gnu")))]
        let glibc_fma = false;
        let check = |from: u64, to: u64, step: u64| {
            let mut x = from;
            while x < to {
                let v = f32::from_bits(x as u32);
                let got = log2(v);
                if glibc_fma {
                    let want = v.log2();
                    assert_eq!(got.to_bits(), want.to_bits(), "log2({x:#x})");
                }
                x += step;
            }
        };
        std::thread::scope(|sc| {
            sc.spawn(|| check(0, 0x4000_0000, 1));
            check(0x4000_0000, 0x8000_0000, 1);
        });
        check(0x8000_0000, 0x1_0000_0000, 4099);
    }

    #[test]
    fn special_values() {
        assert_eq!(log2(1.0).to_bits(), 0);
        assert_eq!(log2(0.0), f32::NEG_INFINITY);
        assert_eq!(log2(-0.0), f32::NEG_INFINITY);
        assert_eq!(log2(f32::INFINITY), f32::INFINITY);
        assert!(log2(-1.0).is_nan() && log2(f32::NAN).is_nan());
        assert_eq!(log2(8.0), 3.0);
        assert_eq!(log2(f32::from_bits(1)), -149.0);
    }
}
