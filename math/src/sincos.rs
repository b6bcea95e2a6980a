//! glibc's `sinf` and `cosf` as their FMA build runs them: the argument reduced modulo π/2
//! in double precision (one fused multiply-subtract below 120, a 4/π table of 192 bits
//! above), then an odd sine or an even cosine polynomial by the quadrant; every product
//! glibc's compiler fused with an addition is `mul_add` here.

/// `__sincosf_table[0]`'s constants (the second entry only negates the cosine polynomial,
/// which [`poly`] does by negating its result: negation is exact).
pub(crate) mod k {
    /// 2/π · 2^24 (`TOINT_INTRINSICS` is 0 on x86-64): the quadrant lands in bits 24..31.
    pub(crate) const HPI_INV: f64 = f64::from_bits(0x4164_5f30_6dc9_c883);
    /// π/2.
    pub(crate) const HPI: f64 = f64::from_bits(0x3ff9_21fb_5444_2d18);
    /// The cosine polynomial.
    pub(crate) const C: [f64; 5] = [
        1.0,
        f64::from_bits(0xbfdf_ffff_fd0c_621c),
        f64::from_bits(0x3fa5_5553_e106_8f19),
        f64::from_bits(0xbf56_c087_e89a_359d),
        f64::from_bits(0x3ef9_9343_027b_f8c3),
    ];
    /// The sine polynomial (its linear term is 1).
    pub(crate) const S: [f64; 3] = [
        f64::from_bits(0xbfc5_5554_5995_a603),
        f64::from_bits(0x3f81_1076_0523_0bc4),
        f64::from_bits(0xbf29_94eb_3774_cf24),
    ];
}

/// `__inv_pio4`: 4/π to 192 bits, 8 new bits per entry.
const INV_PIO4: [u32; 24] = [
    0xa2, 0xa2f9, 0xa2f983, 0xa2f9836e, 0xf9836e4e, 0x836e4e44, 0x6e4e4415, 0x4e441529, 0x441529fc,
    0x1529fc27, 0x29fc2757, 0xfc2757d1, 0x2757d1f5, 0x57d1f534, 0xd1f534dd, 0xf534ddc0, 0x34ddc0db,
    0xddc0db62, 0xc0db6295, 0xdb629599, 0x6295993c, 0x95993c43, 0x993c4390, 0x3c439041,
];

/// The top 12 bits of `x` without its sign.
#[inline]
fn abstop12(x: f32) -> u32 {
    (x.to_bits() >> 20) & 0x7ff
}

/// sin(x), bit for bit glibc's `sinf` (its FMA build).
#[inline(always)]
pub(crate) fn sin(x: f32) -> f32 {
    sin_cos(x, 0)
}

/// cos(x), bit for bit glibc's `cosf` (its FMA build).
#[inline(always)]
pub(crate) fn cos(x: f32) -> f32 {
    sin_cos(x, 1)
}

/// sin(x + shift·π/2): glibc's `sinf` (`shift` 0) or `cosf` (1).
#[inline(always)]
fn sin_cos(y: f32, shift: i32) -> f32 {
    let top = abstop12(y);
    let x = f64::from(y);
    if top < 0x398 {
        // |y| < 2^-12: glibc returns y (sine) or 1 (cosine) before any arithmetic.
        return if shift == 0 { y } else { 1.0 };
    }
    let (r, n, sign) = if top < 0x42f {
        // |y| < 120 (below π/4 the quadrant is 0 and r is y itself, as glibc's first branch).
        let (r, n) = reduce_fast(x);
        (r, n, 0)
    } else if top < 0x7f8 {
        // glibc picks the sign and table by the quadrant plus the argument's sign here, the
        // polynomial by the quadrant alone.
        let (r, n) = reduce_large(y.to_bits());
        (r, n, (y.to_bits() >> 31) as i32)
    } else {
        return crate::invalid(y);
    };
    poly(r, n.wrapping_add(sign), n.wrapping_add(shift))
}

/// `reduce_fast` without `TOINT_INTRINSICS`: (x modulo π/2 in [-π/4, π/4], the quadrant).
#[inline(always)]
pub(crate) fn reduce_fast(x: f64) -> (f64, i32) {
    let r = x * k::HPI_INV;
    // `(int32_t) r` truncates; |r| < 2^31 below 120.
    let n = (r as i32).wrapping_add(0x80_0000) >> 24;
    ((-f64::from(n)).mul_add(k::HPI, x), n)
}

/// `reduce_large`: the reduction of |x| >= 120 from its bits (the sign ignored) by a
/// 32×96-bit product with 4/π: (the remainder times π/2, the quadrant).
fn reduce_large(xi: u32) -> (f64, i32) {
    let arr = &INV_PIO4[((xi >> 26) & 15) as usize..];
    let shift = (xi >> 23) & 7;
    let xi = ((xi & 0xff_ffff) | 0x80_0000) << shift;
    // `xi * arr[0]` is a 32-bit product in C.
    let res0 = u64::from(xi.wrapping_mul(arr[0]));
    let res1 = u64::from(xi) * u64::from(arr[4]);
    let res2 = u64::from(xi) * u64::from(arr[8]);
    let res0 = ((res2 >> 32) | (res0 << 32)).wrapping_add(res1);
    let n = res0.wrapping_add(1 << 61) >> 62;
    let res0 = res0.wrapping_sub(n << 62);
    // 2π · 2^-64.
    let pi63 = f64::from_bits(0x3c19_21fb_5444_2d18);
    ((res0 as i64 as f64) * pi63, n as i32)
}

/// `sinf_poly` of the reduced `x`: glibc's `sinf_poly(x * sign[q & 3], x * x, table[q & 2],
/// n)`, the sine polynomial for even `n`, the cosine's for odd; the quadrant's sign `q` as
/// a negation of the result (both polynomials are odd or even in the exact operations
/// glibc does, so the negation is exact).
#[inline(always)]
fn poly(x: f64, q: i32, n: i32) -> f32 {
    let x2 = x * x;
    let (v, negate) = if n & 1 == 0 {
        let s = k::S;
        let x3 = x * x2;
        let s1 = x2.mul_add(s[2], s[1]);
        let x7 = x3 * x2;
        let p = x3.mul_add(s[0], x);
        (x7.mul_add(s1, p), matches!(q & 3, 1 | 2))
    } else {
        let c = k::C;
        let x4 = x2 * x2;
        let c2 = x2.mul_add(c[4], c[3]);
        let c1 = x2.mul_add(c[1], c[0]);
        let x6 = x4 * x2;
        let p = x4.mul_add(c[2], c1);
        (x6.mul_add(c2, p), q & 2 != 0)
    };
    let v = v as f32;
    if negate {
        -v
    } else {
        v
    }
}
