//! glibc's `log2f` (2.28 and later, from Arm's optimized-routines: exact exponent
//! extraction, a 16-entry table, a degree-4 polynomial in double precision) as its FMA build
//! runs it, with the five multiply-adds its compiler fused. The sampler's level of detail
//! (glemu-textures: its reference and its AVX2 kernel) and the programs' LG2 compute this
//! sequence, so their bits agree whatever the platform's C library is; on a machine whose
//! `f32::log2` is glibc's FMA build (tested) they are the ones `f32::log2` gave.

/// glibc's `__log2f_data`: (1/c, log2(c)) for the 16 subintervals of [0x3f330000, 2·that).
pub const TABLE: [(u64, u64); 16] = [
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
pub const POLY: [u64; 4] = [
    0xbfd712b6f70a7e4d,
    0x3fdecabf496832e0,
    0xbfe715479ffae3de,
    0x3ff715475f35c8b8,
];

/// log2 of `x`, bit for bit glibc's `log2f` (its FMA build), NaN payloads included.
#[inline(always)]
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
            return crate::invalid(x);
        }
        // Subnormal: scaled into the normals, the exponent lowered by 23.
        ix = (x * 8_388_608.0).to_bits().wrapping_sub(23 << 23);
    }
    let (z, invc, y0) = split(ix);
    let a = POLY.map(f64::from_bits);
    // log2(x) = log1p(z/c - 1)/ln2 + log2(c) + k, glibc's five fused steps in its order.
    let r = z.mul_add(invc, -1.0);
    let r2 = r * r;
    let y = a[1].mul_add(r, a[2]);
    let y = a[0].mul_add(r2, y);
    let p = a[3].mul_add(r, y0);
    y.mul_add(r2, p) as f32
}

/// x = 2^k z with z in [0x3f330000, 2·that) and exact, for `ix` the bits of a positive
/// normal float: (z, 1/c, log2(c) + k) of the subinterval z is in (`log2f` and `powf`
/// split alike).
#[inline(always)]
pub(crate) fn split(ix: u32) -> (f64, f64, f64) {
    let tmp = ix.wrapping_sub(0x3f33_0000);
    let i = ((tmp >> 19) % 16) as usize;
    let z = f64::from(f32::from_bits(ix.wrapping_sub(tmp & 0xff80_0000)));
    let k = (tmp as i32) >> 23;
    let (invc, logc) = TABLE[i];
    (z, f64::from_bits(invc), f64::from_bits(logc) + f64::from(k))
}
