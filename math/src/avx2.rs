//! The scalar ports as AVX2 + FMA vectors, four lanes per double-precision vector: the same
//! IEEE operations in the same order, so the same bits. Each form computes glibc's common
//! path and returns the mask of lanes that take another (NaN, infinities, zeros and
//! subnormals where they are special, sine and cosine from 120 on, `pow`'s special operands
//! and results near overflow); [`crate::lanes`] sends those through the scalar port.
//!
//! Called only through [`crate::simd`], which checks the CPU.

use crate::{exp2, log2, pow, sincos::k, Func, LANES};
use std::arch::x86_64::*;

/// Four lanes of a function: (result bits, the lanes it leaves to the scalar port).
type Four = (__m128i, i32);

/// `f` of every lane of `x` into `out`: the mask of lanes left to the scalar port.
#[target_feature(enable = "avx2,fma")]
pub(crate) fn unary(f: Func, x: &[u32; LANES], out: &mut [u32; LANES]) -> u32 {
    match f {
        Func::Sin => each(out, |q| sin_cos(load(x, q), 0)),
        Func::Cos => each(out, |q| sin_cos(load(x, q), 1)),
        Func::Exp2 => each(out, |q| exp2x4(load(x, q))),
        Func::Log2 => each(out, |q| log2x4(load(x, q))),
    }
}

/// `pow(x, y)` of every lane into `out`: the mask of lanes left to the scalar port.
#[target_feature(enable = "avx2,fma")]
pub(crate) fn pow16(x: &[u32; LANES], y: &[u32; LANES], out: &mut [u32; LANES]) -> u32 {
    each(out, |q| pow4(load(x, q), load(y, q)))
}

/// `f` of each four lanes `q` (one function per loop, so its iterations can overlap).
#[inline(always)]
fn each(out: &mut [u32; LANES], f: impl Fn(usize) -> Four) -> u32 {
    let mut slow = 0;
    for q in 0..LANES / 4 {
        let (r, s) = f(q);
        let r: [u32; 4] = bytemuck::cast(r);
        out[4 * q..4 * q + 4].copy_from_slice(&r);
        slow |= (s as u32) << (4 * q);
    }
    slow
}

#[inline]
#[target_feature(enable = "avx2,fma")]
fn load(x: &[u32; LANES], q: usize) -> __m128i {
    bytemuck::cast([x[4 * q], x[4 * q + 1], x[4 * q + 2], x[4 * q + 3]])
}

#[inline]
#[target_feature(enable = "avx2,fma")]
fn splat(bits: u64) -> __m256d {
    _mm256_set1_pd(f64::from_bits(bits))
}

#[inline]
#[target_feature(enable = "avx2,fma")]
fn i(v: i32) -> __m128i {
    _mm_set1_epi32(v)
}

/// `sincos::sin_cos` (`shift` 0: sine, 1: cosine) for |y| < 120.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn sin_cos(y: __m128i, shift: i32) -> Four {
    let top = _mm_and_si128(_mm_srli_epi32::<20>(y), i(0x7ff));
    let slow = _mm_cmpgt_epi32(top, i(0x42e));
    let tiny = _mm_cmplt_epi32(top, i(0x398));
    // reduce_fast: the quadrant n and x - n·π/2 fused.
    let x = _mm256_cvtps_pd(_mm_castsi128_ps(y));
    let r = _mm256_mul_pd(x, _mm256_set1_pd(k::HPI_INV));
    let n = _mm_srai_epi32::<24>(_mm_add_epi32(_mm256_cvttpd_epi32(r), i(0x80_0000)));
    let x = _mm256_fnmadd_pd(_mm256_cvtepi32_pd(n), _mm256_set1_pd(k::HPI), x);
    let x2 = _mm256_mul_pd(x, x);
    let c = |j: usize| _mm256_set1_pd(k::C[j]);
    let s = |j: usize| _mm256_set1_pd(k::S[j]);
    // Both polynomials of `sincos::poly`, on the unsigned quadrant's x.
    let x3 = _mm256_mul_pd(x, x2);
    let s1 = _mm256_fmadd_pd(x2, s(2), s(1));
    let x7 = _mm256_mul_pd(x3, x2);
    let sp = _mm256_fmadd_pd(x7, s1, _mm256_fmadd_pd(x3, s(0), x));
    let x4 = _mm256_mul_pd(x2, x2);
    let c2 = _mm256_fmadd_pd(x2, c(4), c(3));
    let c1 = _mm256_fmadd_pd(x2, c(1), c(0));
    let x6 = _mm256_mul_pd(x4, x2);
    let cp = _mm256_fmadd_pd(x6, c2, _mm256_fmadd_pd(x4, c(2), c1));
    // m's parity picks the polynomial; bit 1 of m is the sign both polynomials take from
    // the quadrant (the sine's for quadrants 1 and 2, the cosine's for 2 and 3).
    let m = _mm_add_epi32(n, i(shift));
    let odd = _mm_castsi128_ps(_mm_slli_epi32::<31>(m));
    let v = _mm_blendv_ps(_mm256_cvtpd_ps(sp), _mm256_cvtpd_ps(cp), odd);
    let v = _mm_xor_si128(
        _mm_castps_si128(v),
        _mm_slli_epi32::<30>(_mm_and_si128(m, i(2))),
    );
    let small = if shift == 0 { y } else { i(0x3f80_0000) };
    (
        _mm_blendv_epi8(v, small, tiny),
        _mm_movemask_ps(_mm_castsi128_ps(slow)),
    )
}

/// `exp2::exp2` for |x| < 128.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn exp2x4(x: __m128i) -> Four {
    let top = _mm_and_si128(_mm_srli_epi32::<20>(x), i(0x7ff));
    let slow = _mm_cmpgt_epi32(top, i(0x42f));
    let v = scaled(_mm256_cvtps_pd(_mm_castsi128_ps(x)));
    (_mm_castps_si128(v), _mm_movemask_ps(_mm_castsi128_ps(slow)))
}

/// `exp2::scaled` without a sign: 2^xd.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn scaled(xd: __m256d) -> __m128 {
    let shift = _mm256_set1_pd(exp2::SHIFT);
    let kd = _mm256_add_pd(xd, shift);
    let ki = _mm256_castpd_si256(kd);
    let r = _mm256_sub_pd(xd, _mm256_sub_pd(kd, shift));
    // ki's low words (its low five bits pick the entry) as four 32-bit indices.
    let lo = _mm256_permutevar8x32_epi32(ki, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6));
    let t = _mm256_castpd_si256(lookup(&exp2::TABLE, _mm256_castsi256_si128(lo)));
    let s = _mm256_castsi256_pd(_mm256_add_epi64(t, _mm256_slli_epi64::<47>(ki)));
    let c = |j: usize| splat(exp2::POLY[j]);
    let z = _mm256_fmadd_pd(c(0), r, c(1));
    let r2 = _mm256_mul_pd(r, r);
    let y = _mm256_fmadd_pd(c(2), r, _mm256_set1_pd(1.0));
    let y = _mm256_fmadd_pd(z, r2, y);
    _mm256_cvtpd_ps(_mm256_mul_pd(y, s))
}

/// `log2::TABLE`'s columns, for [`lookup`].
const INVC: [u64; 16] = column(0);
const LOGC: [u64; 16] = column(1);

const fn column(c: usize) -> [u64; 16] {
    let mut out = [0; 16];
    let mut j = 0;
    while j < 16 {
        let (invc, logc) = log2::TABLE[j];
        out[j] = if c == 0 { invc } else { logc };
        j += 1;
    }
    out
}

/// x = 2^k z of positive normal floats: (z, 1/c, log2 c + k) of the table's subinterval.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn split(ix: __m128i) -> (__m256d, __m256d, __m256d) {
    let tmp = _mm_sub_epi32(ix, i(0x3f33_0000));
    let j = _mm_srli_epi32::<19>(tmp);
    let top = _mm_and_si128(tmp, i(0xff80_0000u32 as i32));
    let z = _mm256_cvtps_pd(_mm_castsi128_ps(_mm_sub_epi32(ix, top)));
    let k = _mm256_cvtepi32_pd(_mm_srai_epi32::<23>(tmp));
    let invc = lookup(&INVC, j);
    let logc = lookup(&LOGC, j);
    (z, invc, _mm256_add_pd(logc, k))
}

/// Lanes that are not positive normal floats.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn not_normal(ix: __m128i) -> __m128i {
    _mm_or_si128(
        _mm_cmplt_epi32(ix, i(0x0080_0000)),
        _mm_cmpgt_epi32(ix, i(0x7f7f_ffff)),
    )
}

/// `log2::log2` of positive normal floats (the other lanes left to the scalar port).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn log2x4(ix: __m128i) -> Four {
    (
        _mm_castps_si128(log2_normal(ix)),
        _mm_movemask_ps(_mm_castsi128_ps(not_normal(ix))),
    )
}

/// `log2::log2` of four lanes' bits `ix`, bit for bit where they are positive normal
/// floats (other lanes: unspecified; the caller handles them): glibc's common path, its
/// table read by permutes and its five fused steps in its order. Public for the sampler's
/// level of detail, which handles zeros, subnormals, infinities and NaN around it.
///
/// # Safety
///
/// The CPU must have AVX2 and FMA: call it from code compiled with them, which is then
/// safe.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub fn log2_normal(ix: __m128i) -> __m128 {
    let (z, invc, y0) = split(ix);
    let a = |j: usize| splat(log2::POLY[j]);
    let r = _mm256_fmadd_pd(z, invc, _mm256_set1_pd(-1.0));
    let r2 = _mm256_mul_pd(r, r);
    let y = _mm256_fmadd_pd(a(1), r, a(2));
    let y = _mm256_fmadd_pd(a(0), r2, y);
    let p = _mm256_fmadd_pd(a(3), r, y0);
    _mm256_cvtpd_ps(_mm256_fmadd_pd(y, r2, p))
}

/// `pow::pow` of positive normal x and finite non-zero y with |y log2 x| < 126.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn pow4(ix: __m128i, iy: __m128i) -> Four {
    let ay = _mm_and_si128(iy, i(0x7fff_ffff));
    let slow = _mm_or_si128(
        not_normal(ix),
        _mm_or_si128(
            _mm_cmpeq_epi32(ay, _mm_setzero_si128()),
            _mm_cmpgt_epi32(ay, i(0x7f7f_ffff)),
        ),
    );
    // pow::log2_inline.
    let (z, invc, y0) = split(ix);
    let a = |j: usize| splat(pow::POLY[j]);
    let r = _mm256_fmadd_pd(z, invc, _mm256_set1_pd(-1.0));
    let r2 = _mm256_mul_pd(r, r);
    let y = _mm256_fmadd_pd(a(0), r, a(1));
    let p = _mm256_fmadd_pd(a(2), r, a(3));
    let r4 = _mm256_mul_pd(r2, r2);
    let q = _mm256_fmadd_pd(a(4), r, y0);
    let q = _mm256_fmadd_pd(p, r2, q);
    let logx = _mm256_fmadd_pd(y, r4, q);
    let ylogx = _mm256_mul_pd(_mm256_cvtps_pd(_mm_castsi128_ps(iy)), logx);
    let abs = _mm256_andnot_pd(_mm256_set1_pd(-0.0), ylogx);
    let big = _mm256_cmp_pd::<_CMP_GE_OQ>(abs, _mm256_set1_pd(126.0));
    let v = scaled(ylogx);
    (
        _mm_castps_si128(v),
        _mm_movemask_ps(_mm_castsi128_ps(slow)) | _mm256_movemask_pd(big),
    )
}

/// `table[idx % N]` of four 32-bit indices (N = 16 or 32), by permutes of the table held
/// in registers: four entries a register, picked by the index's low two bits, then a tree
/// of blends on its higher bits.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn lookup<const N: usize>(table: &[u64; N], idx: __m128i) -> __m256d {
    const { assert!(N == 16 || N == 32) };
    let e = _mm256_cvtepu32_epi64(idx);
    // Dwords 2j and 2j + 1 of a register hold its entry j.
    let dw = _mm256_slli_epi64::<1>(_mm256_and_si256(e, _mm256_set1_epi64x(3)));
    let perm = _mm256_or_si256(
        dw,
        _mm256_slli_epi64::<32>(_mm256_add_epi64(dw, _mm256_set1_epi64x(1))),
    );
    let mut level: [__m256d; 8] = [_mm256_setzero_pd(); 8];
    for (g, l) in level.iter_mut().enumerate().take(N / 4) {
        let r: __m256i = bytemuck::cast([
            table[4 * g],
            table[4 * g + 1],
            table[4 * g + 2],
            table[4 * g + 3],
        ]);
        *l = _mm256_castsi256_pd(_mm256_permutevar8x32_epi32(r, perm));
    }
    // Bit 2 + b of the index as the sign bit blendv reads.
    let bit = |b: i32| match b {
        0 => _mm256_castsi256_pd(_mm256_slli_epi64::<61>(e)),
        1 => _mm256_castsi256_pd(_mm256_slli_epi64::<60>(e)),
        _ => _mm256_castsi256_pd(_mm256_slli_epi64::<59>(e)),
    };
    let mut n = N / 4;
    let mut b = 0;
    while n > 1 {
        let m = bit(b);
        for k in 0..n / 2 {
            level[k] = _mm256_blendv_pd(level[2 * k], level[2 * k + 1], m);
        }
        n /= 2;
        b += 1;
    }
    level[0]
}
