//! Level of detail of a group of eight lanes with explicit AVX2 vectors: the implicit
//! derivatives of its two quads, rho, log2, bias and clamps, and the mipmap levels each
//! lane reads, in the reference's IEEE operations and order
//! ([`crate::call::Ctx::lane_lod`], [`crate::lod::select_levels`]), so the levels and
//! weights are the reference's.
//!
//! log2 is the reference's [`glemu_math::log2`] (glibc's `log2f` as its FMA build runs:
//! exact-exponent extraction, a 16-entry table, a degree-4 polynomial in double precision,
//! five fused multiply-adds) on four lanes: glemu-math's vector common path
//! ([`glemu_math::log2_normal`]) with subnormals scaled first and glibc's special cases
//! blended after, and `log2_is_the_reference_on_every_input`
//! compares the two on every non-negative f32 (the only inputs rho can be: a maximum of
//! square roots, or NaN).
//!
//! Called only through [`crate::simd::lod_pair`], which checks the CPU.

use crate::avx2::W;
use std::arch::x86_64::*;

/// Where lambda_base comes from.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum LodFrom {
    /// log2(rho) of each quad's implicit derivatives.
    Derivatives,
    /// The lane's LOD operand (TXL).
    Lod,
    /// No derivatives (outside a fragment program): rho is 0, lambda_base -inf.
    Nothing,
}

/// What is fixed per draw: the sampler's LOD state and the levels of the texture.
#[derive(Clone, Debug)]
pub(crate) struct LodParams {
    /// Base level width and height (texel-space derivatives).
    pub(crate) fw: f32,
    pub(crate) fh: f32,
    /// The sampler's bias (added to a TXB operand before the clamp).
    pub(crate) lod_bias: f32,
    /// `(lod_bias + 0).clamp(±MAX_LOD_BIAS)`: the bias of lookups without an operand.
    pub(crate) bias: f32,
    /// MIN_LOD as `adjust_clamped` uses it (`min_lod.max(-inf)`: never NaN).
    pub(crate) min_lod: f32,
    /// MAX_LOD, +inf when NaN (`min` then keeps its other operand).
    pub(crate) max_lod: f32,
    /// Magnification when lambda <= this.
    pub(crate) threshold: f32,
    /// 0 no mipmaps, 1 NEAREST, 2 LINEAR between levels.
    pub(crate) mipmap: u8,
    pub(crate) base: i32,
    pub(crate) q: i32,
    /// `(q - base) as f32`.
    pub(crate) span: f32,
    pub(crate) mag_linear: bool,
    pub(crate) min_linear: bool,
}

/// The levels of one group of lanes.
#[derive(Clone, Copy, Default)]
pub(crate) struct GroupLod {
    /// First and second level of each lane, and the second's weight.
    pub(crate) l0: [i32; W],
    pub(crate) l1: [i32; W],
    pub(crate) weight: [f32; W],
    /// The level every lane of the mask reads as its first (second), or -1.
    pub(crate) one0: i32,
    pub(crate) one1: i32,
    /// Lanes filtered LINEAR (the others NEAREST).
    pub(crate) linear: u32,
    /// Lanes of the mask that blend in a second level.
    pub(crate) second: u32,
}

#[inline(always)]
fn f(a: &[f32; W]) -> __m256 {
    bytemuck::cast(*a)
}

/// [`glemu_math::log2`] of four lanes, bit for bit (NaN: a NaN).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn log2(x: __m128) -> __m128 {
    let ix0 = _mm_castps_si128(x);
    // Subnormals: scaled by 2^23 into normals, the exponent lowered by 23.
    let sub = _mm_and_si128(
        _mm_cmpgt_epi32(ix0, _mm_setzero_si128()),
        _mm_cmplt_epi32(ix0, _mm_set1_epi32(0x0080_0000)),
    );
    let scaled = _mm_sub_epi32(
        _mm_castps_si128(_mm_mul_ps(x, _mm_set1_ps(8_388_608.0))),
        _mm_set1_epi32(23 << 23),
    );
    let ix = _mm_blendv_epi8(ix0, scaled, sub);
    let mut res = glemu_math::log2_normal(ix);
    // glibc's special cases: 1 is exactly 0, ±0 is -inf, +inf itself, negatives and NaN
    // are NaN.
    let is = |v: u32| _mm_castsi128_ps(_mm_cmpeq_epi32(ix0, _mm_set1_epi32(v as i32)));
    res = _mm_blendv_ps(res, _mm_setzero_ps(), is(0x3f80_0000));
    res = _mm_blendv_ps(res, _mm_set1_ps(f32::INFINITY), is(0x7f80_0000));
    let nan = _mm_castsi128_ps(_mm_or_si128(
        _mm_cmplt_epi32(ix0, _mm_setzero_si128()),
        _mm_cmpgt_epi32(ix0, _mm_set1_epi32(0x7f80_0000)),
    ));
    res = _mm_blendv_ps(res, _mm_set1_ps(f32::NAN), nan);
    let zero = _mm_cmp_ps::<_CMP_EQ_OQ>(x, _mm_setzero_ps());
    _mm_blendv_ps(res, _mm_set1_ps(f32::NEG_INFINITY), zero)
}

/// `a.max(b)` (IEEE maxNum: a NaN operand gives the other) where a ±0 tie cannot occur.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn max_num(a: __m256, b: __m256) -> __m256 {
    // MAXPS gives its second operand when either is NaN: right when `a` is, not `b`.
    let m = _mm256_max_ps(a, b);
    _mm256_blendv_ps(m, a, _mm256_cmp_ps::<_CMP_UNORD_Q>(b, b))
}

/// rho of the four quads of two groups (`s0`, `s1` the groups' s; quad q is lanes
/// 4q..4q+3 of the sixteen), in quad order: Ctx::lane_lod's coarse derivatives scaled by
/// the base level, then `lod::rho`. The quads' x and y derivatives share one vector, so
/// the four quads take one square root.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn rho_quads(p: &LodParams, s: [__m256; 2], t: [__m256; 2], r: [__m256; 2]) -> __m128 {
    // Per 128-bit half (a quad of each group): [dx, dy] of group 0's quad, then group 1's.
    let d = |[a, b]: [__m256; 2]| {
        _mm256_sub_ps(
            _mm256_shuffle_ps::<0b10_01_10_01>(a, b),
            _mm256_shuffle_ps::<0>(a, b),
        )
    };
    let (ds, dt, dr) = (d(s), d(t), d(r));
    // The third axis is scaled by 0 (a 2D target), which still turns inf and NaN into NaN.
    let (a, b, c) = (
        _mm256_mul_ps(ds, _mm256_set1_ps(p.fw)),
        _mm256_mul_ps(dt, _mm256_set1_ps(p.fh)),
        _mm256_mul_ps(dr, _mm256_setzero_ps()),
    );
    let len = _mm256_sqrt_ps(_mm256_add_ps(
        _mm256_add_ps(_mm256_mul_ps(a, a), _mm256_mul_ps(b, b)),
        _mm256_mul_ps(c, c),
    ));
    let rho = max_num(
        _mm256_permute_ps::<0b10_10_00_00>(len),
        _mm256_permute_ps::<0b11_11_01_01>(len),
    );
    // Lanes 0, 4, 2, 6 hold quads 0, 1, 2, 3.
    let order = _mm256_setr_epi32(0, 4, 2, 6, 0, 4, 2, 6);
    _mm256_castps256_ps128(_mm256_permutevar8x32_ps(rho, order))
}

/// The levels, weights and filters of two groups of lanes (`s`, `t`, `r` their
/// coordinates, `lod` their TXB/TXL operands, `mask` the lanes that count), written to
/// `out` (returned, the pair was copied through unaligned wide moves that stalled on
/// store forwarding). Where lambda is one per quad (implicit derivatives or none, no
/// per-lane bias) the four quads' levels are chosen in one vector and then spread to
/// their lanes; the choice is a function of lambda alone, so the bits are those of
/// choosing per lane.
#[target_feature(enable = "avx2,fma")]
#[allow(clippy::too_many_arguments)]
pub(crate) fn lod_pair(
    p: &LodParams,
    from: LodFrom,
    lane_bias: bool,
    s: &[f32; 2 * W],
    t: &[f32; 2 * W],
    r: &[f32; 2 * W],
    lod: &[f32; 2 * W],
    mask: u32,
    out: &mut [GroupLod; 2],
) {
    #[cfg(test)]
    crate::simd::LOD_GROUPS.with(|n| n.set(n.get() + 1));
    let half = |a: &[f32; 2 * W], g: usize| -> __m256 {
        let h: &[f32; W] = a[g * W..g * W + W].try_into().unwrap_or(&[0.0; W]);
        f(h)
    };
    let both = |a: &[f32; 2 * W]| [half(a, 0), half(a, 1)];
    // Quads 0, 1 are group 0's, 2, 3 group 1's.
    let spread = [
        _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1),
        _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3),
    ];
    let quads = match from {
        LodFrom::Derivatives => log2(rho_quads(p, both(s), both(t), both(r))),
        LodFrom::Nothing => _mm_set1_ps(f32::NEG_INFINITY),
        LodFrom::Lod => _mm_setzero_ps(),
    };
    let masks = [mask & 0xff, (mask >> W) & 0xff];
    if from != LodFrom::Lod && !lane_bias {
        #[cfg(test)]
        crate::simd::LOD_QUADS.with(|n| n.set(n.get() + 1));
        let q = _mm256_set_m128(quads, quads);
        let c = choose(p, q, _mm256_setzero_ps(), false);
        for g in 0..2 {
            let e = |v: __m256i| _mm256_permutevar8x32_epi32(v, spread[g]);
            let lanes = Chosen {
                l0: e(c.l0),
                l1: e(c.l1),
                weight: _mm256_castsi256_ps(e(_mm256_castps_si256(c.weight))),
                minified: _mm256_castsi256_ps(e(_mm256_castps_si256(c.minified))),
            };
            out[g] = lanes.group(p, masks[g]);
        }
        return;
    }
    let lod = both(lod);
    for g in 0..2 {
        let base = match from {
            LodFrom::Lod => lod[g],
            _ => _mm256_permutevar8x32_ps(_mm256_castps128_ps256(quads), spread[g]),
        };
        out[g] = choose(p, base, lod[g], lane_bias).group(p, masks[g]);
    }
}

/// What [`choose`] decides for each lane.
struct Chosen {
    l0: __m256i,
    l1: __m256i,
    weight: __m256,
    /// All ones where lambda is past the magnification threshold.
    minified: __m256,
}

impl Chosen {
    /// The group's levels of the lanes of `mask`.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    fn group(&self, p: &LodParams, mask: u32) -> GroupLod {
        let mm = _mm256_movemask_ps(self.minified) as u32;
        let linear =
            (if p.min_linear { mm } else { 0 }) | (if p.mag_linear { !mm & 0xff } else { 0 });
        let two = _mm256_andnot_si256(
            _mm256_cmpeq_epi32(self.l0, self.l1),
            _mm256_castps_si256(_mm256_cmp_ps::<_CMP_GT_OQ>(
                self.weight,
                _mm256_setzero_ps(),
            )),
        );
        let second = _mm256_movemask_ps(_mm256_castsi256_ps(two)) as u32 & mask;
        GroupLod {
            l0: bytemuck::cast(self.l0),
            l1: bytemuck::cast(self.l1),
            weight: bytemuck::cast(self.weight),
            one0: one(self.l0, mask),
            one1: one(self.l1, second),
            linear,
            second,
        }
    }
}

/// The levels, weights and filters of eight lanes from lambda_base (bias from `lod`
/// when `lane_bias`), each lane a function of its own operands only.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn choose(p: &LodParams, lambda_base: __m256, lod: __m256, lane_bias: bool) -> Chosen {
    // lod::adjust_clamped. f32::clamp lets NaN through: MAXPS/MINPS with the bound first
    // return their second operand when either is NaN.
    let bias = if lane_bias {
        let b = _mm256_add_ps(_mm256_set1_ps(p.lod_bias), lod);
        let m = crate::sampler::MAX_LOD_BIAS;
        _mm256_min_ps(_mm256_set1_ps(m), _mm256_max_ps(_mm256_set1_ps(-m), b))
    } else {
        _mm256_set1_ps(p.bias)
    };
    let min = _mm256_set1_ps(p.min_lod);
    let l = _mm256_add_ps(lambda_base, bias);
    let l = _mm256_blendv_ps(l, min, _mm256_cmp_ps::<_CMP_UNORD_Q>(l, l));
    // Neither operand is NaN now (min_lod never is, max_lod was made +inf); the sign of a
    // zero lambda does not matter: every zero is magnification.
    let lambda = _mm256_min_ps(_mm256_max_ps(l, min), _mm256_set1_ps(p.max_lod));
    let minified = _mm256_cmp_ps::<_CMP_GT_OQ>(lambda, _mm256_set1_ps(p.threshold));
    let base = _mm256_set1_epi32(p.base);
    let q = _mm256_set1_epi32(p.q);
    let span = _mm256_set1_ps(p.span);
    let minified_i = _mm256_castps_si256(minified);
    let (l0, l1, weight) = match p.mipmap {
        // lod::select_levels, LINEAR: the two levels around lambda (q from span on).
        2 => {
            let top = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_GE_OQ>(lambda, span));
            // 0 < lambda < span <= 16 where it is used: truncation is floor.
            let whole = _mm256_cvttps_epi32(lambda);
            let d1 = _mm256_add_epi32(base, whole);
            let d2 = _mm256_min_epi32(_mm256_add_epi32(d1, _mm256_set1_epi32(1)), q);
            let t = _mm256_sub_ps(lambda, _mm256_cvtepi32_ps(whole));
            let keep = _mm256_andnot_si256(top, minified_i);
            let l0 = _mm256_blendv_epi8(base, _mm256_blendv_epi8(d1, q, top), minified_i);
            let l1 = _mm256_blendv_epi8(base, _mm256_blendv_epi8(d2, q, top), minified_i);
            (l0, l1, _mm256_and_ps(t, _mm256_castsi256_ps(keep)))
        }
        // NEAREST: base up to 0.5, then ceil(lambda + 0.5) - 1 levels above it, q past
        // span + 0.5.
        1 => {
            let half = _mm256_set1_ps(0.5);
            let low = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_LE_OQ>(lambda, half));
            let mid = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_LE_OQ>(
                lambda,
                _mm256_set1_ps(p.span + 0.5),
            ));
            let up = _mm256_cvttps_epi32(_mm256_ceil_ps(_mm256_add_ps(lambda, half)));
            let up = _mm256_max_epi32(
                _mm256_sub_epi32(up, _mm256_set1_epi32(1)),
                _mm256_setzero_si256(),
            );
            let d = _mm256_blendv_epi8(q, _mm256_add_epi32(base, up), mid);
            let d = _mm256_min_epi32(_mm256_blendv_epi8(d, base, low), q);
            let d = _mm256_blendv_epi8(base, d, minified_i);
            (d, d, _mm256_setzero_ps())
        }
        _ => (base, base, _mm256_setzero_ps()),
    };
    Chosen {
        l0,
        l1,
        weight,
        minified,
    }
}

/// The level every lane of `mask` holds in `l`, or -1.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn one(l: __m256i, mask: u32) -> i32 {
    let first = mask.trailing_zeros();
    if first >= W as u32 {
        return -1;
    }
    let v = _mm256_permutevar8x32_epi32(l, _mm256_set1_epi32(first as i32));
    let same = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(l, v))) as u32;
    if same & mask == mask {
        _mm_cvtsi128_si32(_mm256_castsi256_si128(v))
    } else {
        -1
    }
}

#[cfg(test)]
mod tests {
    use crate::simd::log2_bits;

    /// Every non-negative f32 (what rho can be) and every 4099th negative one: the
    /// vector log2 gives the reference's bits (NaN: a NaN), on two threads.
    #[test]
    fn log2_is_the_reference_on_every_input() {
        if log2_bits([0; 4]).is_none() {
            eprintln!("skipped: no AVX2 and FMA on this CPU, no vector log2 to compare");
            return;
        }
        let check = |from: u64, to: u64, step: u64| {
            let mut x = from;
            while x < to {
                let v = [0, 1, 2, 3].map(|k| (x + k * step).min(to - 1) as u32);
                let got = log2_bits(v).unwrap_or_default();
                for (g, x) in got.into_iter().zip(v) {
                    let want = glemu_math::log2(f32::from_bits(x));
                    let same = g == want.to_bits() || (want.is_nan() && f32::from_bits(g).is_nan());
                    assert!(same, "log2({x:#x}) = {g:#x}, want {:#x}", want.to_bits());
                }
                x += 4 * step;
            }
        };
        std::thread::scope(|sc| {
            sc.spawn(|| check(0, 0x4000_0000, 1));
            check(0x4000_0000, 0x8000_0000, 1);
        });
        check(0x8000_0000, 0x1_0000_0000, 4099);
    }
}
