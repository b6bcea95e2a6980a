//! Bilinear lookups of RGBA8 2D levels with explicit AVX2 vectors, eight lanes per
//! vector: coordinates, floor, wrap, weights, channel decode and the three lerps all run
//! across the lanes. The texels: when the group reads one level and its footprints lie
//! within eight columns and four rows (magnified, or minified up to ~2 texels a pixel),
//! whole rows are loaded and each tap is a permute of them ([`window`]); else each row of
//! the group is a gather of (left, right) pairs, or per-lane loads at seams and borders.
//! A base-level lookup takes two groups at once where the CPU has AVX-512: their taps
//! found as above, their channels decoded and blended in 512-bit vectors
//! ([`lookup_level_pair`]).
//!
//! Every step is the reference's IEEE operation in the reference's order (no fused
//! multiply-add where it has none), so results are bit-identical to
//! [`crate::sample::execute_reference`]; NaN results are the canonical quiet NaN, as the
//! reference's `lerp` makes them. The functions need AVX2 and FMA (the pair AVX-512 F,
//! BW, DQ and VL too): they are called only through [`crate::simd`], which checks the
//! CPU.
//!
//! Vectors move in and out of arrays with `bytemuck` casts, so this module has no
//! `unsafe` of its own.

use crate::sampler::{Swizzle, Wrap};
use crate::wrap::wrap;
use std::arch::x86_64::*;

/// Lanes per vector.
pub(crate) const W: usize = 8;

/// Per-lane inputs of one group of [`W`] lanes.
pub(crate) struct Group<'a> {
    /// Normalised s and t.
    pub(crate) s: &'a [f32; W],
    pub(crate) t: &'a [f32; W],
    /// Texel offsets along s and t.
    pub(crate) off_u: &'a [i32; W],
    pub(crate) off_v: &'a [i32; W],
    /// The level each lane reads (by reference: a copy of the eight slices stalled on
    /// store forwarding).
    pub(crate) levels: &'a Levels<'a>,
}

/// The level each lane of a group reads: its size as integers and floats, and its bytes
/// (RGBA8, 4 per texel). Small (the per-lane tables are borrowed): built on the stack for
/// each group, a by-value enum sized for the tables was copied field by field in every
/// lookup.
pub(crate) enum Levels<'a> {
    /// Every lane reads this one (nothing per lane to build; the 2×2 footprints can be
    /// gathered).
    One {
        w: i32,
        h: i32,
        fw: f32,
        fh: f32,
        bytes: &'a [u8],
    },
    /// Lane by lane.
    PerLane {
        w: &'a [i32; W],
        h: &'a [i32; W],
        fw: &'a [f32; W],
        fh: &'a [f32; W],
        bytes: &'a [&'a [u8]; W],
    },
}

impl<'a> Levels<'a> {
    /// The bytes lane `l` reads.
    #[inline(always)]
    fn bytes(&self, l: usize) -> &'a [u8] {
        match self {
            Levels::One { bytes, .. } => bytes,
            Levels::PerLane { bytes, .. } => bytes[l],
        }
    }
}

/// Every lane's level width and height, as integers and as floats.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn sizes(g: &Group<'_>) -> (__m256i, __m256i, __m256, __m256) {
    match g.levels {
        Levels::One { w, h, fw, fh, .. } => (
            _mm256_set1_epi32(*w),
            _mm256_set1_epi32(*h),
            _mm256_set1_ps(*fw),
            _mm256_set1_ps(*fh),
        ),
        Levels::PerLane { w, h, fw, fh, .. } => (i(w), i(h), f(fw), f(fh)),
    }
}

/// What does not vary per lane.
pub(crate) struct Params {
    pub(crate) wrap: [Wrap; 2],
    /// The border as floats (the canonical texel of the format).
    pub(crate) border: [f32; 4],
    /// Every lane's level has power-of-two width (`pow2[0]`) / height (`pow2[1]`).
    pub(crate) pow2: [bool; 2],
}

#[inline(always)]
fn f(a: &[f32; W]) -> __m256 {
    bytemuck::cast(*a)
}

#[inline(always)]
fn i(a: &[i32; W]) -> __m256i {
    bytemuck::cast(*a)
}

/// `floor_i` of every lane: floor, saturating to i32 (NaN to 0).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn floor_i(x: __m256) -> __m256i {
    let r = _mm256_cvttps_epi32(_mm256_floor_ps(x));
    // cvtt gives i32::MIN for everything out of range: right below, wrong above and NaN.
    let big = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_GE_OQ>(x, _mm256_set1_ps(2147483648.0)));
    let r = _mm256_blendv_epi8(r, _mm256_set1_epi32(i32::MAX), big);
    let nan = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(x, x));
    _mm256_andnot_si256(nan, r)
}

/// The unnormalised coordinate `c * size + offset`, pre-clamped for CLAMP/MIRROR_CLAMP.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn texel_coord(mode: Wrap, c: __m256, size: __m256, off: __m256i) -> __m256 {
    let u = _mm256_add_ps(_mm256_mul_ps(c, size), _mm256_cvtepi32_ps(off));
    // f32::clamp: NaN passes; max/min return their second operand when either is NaN.
    let lo = match mode {
        Wrap::Clamp => _mm256_setzero_ps(),
        Wrap::MirrorClamp => _mm256_sub_ps(_mm256_setzero_ps(), size),
        _ => return u,
    };
    _mm256_min_ps(size, _mm256_max_ps(lo, u))
}

/// Wraps texel indices `x` for level sizes `size` (as [`wrap`]; `linear`: the LINEAR
/// variant of CLAMP and MIRROR_CLAMP); also
/// returns the lanes whose index lies inside `0..size` (the others read the border).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn wrap_v(mode: Wrap, pow2: bool, linear: bool, x: __m256i, size: __m256i) -> (__m256i, __m256i) {
    let one = _mm256_set1_epi32(1);
    let all = _mm256_set1_epi32(-1);
    let max = _mm256_sub_epi32(size, one);
    match mode {
        Wrap::Repeat if pow2 => (_mm256_and_si256(x, max), all),
        Wrap::ClampToEdge => (
            _mm256_min_epi32(_mm256_max_epi32(x, _mm256_setzero_si256()), max),
            all,
        ),
        _ => wrap_lanes(mode, linear, x, size),
    }
}

/// [`wrap_v`] for the modes without a vector form: [`wrap`] lane by lane. Kept out of
/// line so that `wrap_v` stays small enough to inline.
#[inline(never)]
#[target_feature(enable = "avx2,fma")]
fn wrap_lanes(mode: Wrap, linear: bool, x: __m256i, size: __m256i) -> (__m256i, __m256i) {
    let xs: [i32; W] = bytemuck::cast(x);
    let ss: [i32; W] = bytemuck::cast(size);
    let r: [i32; W] = std::array::from_fn(|l| wrap(mode, xs[l], ss[l], linear));
    let r = i(&r);
    let inside = _mm256_andnot_si256(
        _mm256_cmpgt_epi32(_mm256_setzero_si256(), r),
        _mm256_cmpgt_epi32(size, r),
    );
    (r, inside)
}

/// `1/255` split in two: the f32 nearest to it, and the f32 nearest to the rest. A byte
/// `v` decodes to `v / 255` correctly rounded as `v·r_hi + v·r_lo` with one rounding of
/// the exact `v·r_hi` (a fused multiply-add): the division's bits for every byte, one
/// operation fewer than correcting `v·r` by its residual ([`channel`]).
const R_HI: f32 = 1.0 / 255.0;
const R_LO: f32 = (1.0f64 / 255.0 - R_HI as f64) as f32;

/// `p + (q - p) * t` without the NaN canonicalisation (done once at the end).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn lerp(p: __m256, q: __m256, t: __m256) -> __m256 {
    _mm256_add_ps(p, _mm256_mul_ps(_mm256_sub_ps(q, p), t))
}

/// (left, right) texels of a row of lane `l` as one 64-bit value: texels `k0[l]` and
/// `k1[l]`, adjacent when bit `l` of `pair` is set.
#[inline(always)]
fn row(g: &Group<'_>, pair: u32, l: usize, k0: &[i32; W], k1: &[i32; W]) -> i64 {
    let bytes = g.levels.bytes(l);
    let v = if pair & (1 << l) != 0 {
        load8(bytes, k0[l])
    } else {
        load4(bytes, k0[l]) | load4(bytes, k1[l]) << 32
    };
    v as i64
}

/// The rows of every lane straight into vector registers (through an array, the 8-byte
/// stores would not forward to the vector loads). A macro, not a function: as a call
/// (a `target_feature` function is not always inlined) its pair of vectors came back
/// through memory, and the loads of them stalled `filter` (perf: ~18 % of `filter`).
macro_rules! rows {
    ($g:expr, $pair:expr, $k0:expr, $k1:expr) => {{
        let (g, pair, k0, k1) = ($g, $pair, $k0, $k1);
        let lo = _mm256_set_epi64x(
            row(g, pair, 3, k0, k1),
            row(g, pair, 2, k0, k1),
            row(g, pair, 1, k0, k1),
            row(g, pair, 0, k0, k1),
        );
        let hi = _mm256_set_epi64x(
            row(g, pair, 7, k0, k1),
            row(g, pair, 6, k0, k1),
            row(g, pair, 5, k0, k1),
            row(g, pair, 4, k0, k1),
        );
        (_mm256_castsi256_ps(lo), _mm256_castsi256_ps(hi))
    }};
}

/// Each 64-bit lane holds (left texel, right texel): split into the left and right
/// texels of all eight lanes, in lane order.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn split((lo, hi): (__m256, __m256)) -> (__m256i, __m256i) {
    let even = _mm256_castps_si256(_mm256_shuffle_ps::<0b10_00_10_00>(lo, hi));
    let odd = _mm256_castps_si256(_mm256_shuffle_ps::<0b11_01_11_01>(lo, hi));
    (
        _mm256_permute4x64_epi64::<0b11_01_10_00>(even),
        _mm256_permute4x64_epi64::<0b11_01_10_00>(odd),
    )
}

/// 8 bytes of `b` at texel `k` (0 when out of range: those taps read the border).
#[inline(always)]
fn load8(b: &[u8], k: i32) -> u64 {
    let k = k as usize * 4;
    match b.get(k..k + 8) {
        Some(x) => u64::from_le_bytes([x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]]),
        None => 0,
    }
}

/// 4 bytes of `b` at texel `k` (0 when out of range).
#[inline(always)]
fn load4(b: &[u8], k: i32) -> u64 {
    let k = k as usize * 4;
    match b.get(k..k + 4) {
        Some(x) => u64::from(u32::from_le_bytes([x[0], x[1], x[2], x[3]])),
        None => 0,
    }
}

/// Bilinear RGBA8 lookups of one group of lanes, `out[channel][lane]` as f32.
#[target_feature(enable = "avx2,fma")]
pub(crate) fn bilinear(p: &Params, g: &Group<'_>, out: &mut [[f32; W]; 4]) {
    let r = filter(p, g);
    for (o, r) in out.iter_mut().zip(r) {
        *o = bytemuck::cast(canonical(r));
    }
}

/// One group of lanes of a 2D RGBA8 lookup, written to the lanes of `mask` of `out`
/// (f32 bits): filtered at the levels of `g0` (bilinear in the lanes of `linear`,
/// nearest in the others); with `g1`, also at the levels of `g1` and blended with its
/// weight in the lanes of its mask (the second level of a mipmapped lookup); then
/// swizzled. NaNs are canonical where the reference lerps (LINEAR lanes, two levels);
/// a NEAREST border keeps its bits.
#[target_feature(enable = "avx2,fma")]
pub(crate) fn lookup(
    p: &Params,
    g0: &Group<'_>,
    g1: Option<(&Group<'_>, &[f32; W], u32)>,
    linear: u32,
    swizzle: [Swizzle; 4],
    mask: u32,
    out: [&mut [u32; W]; 4],
) {
    let mut v = filters(p, g0, linear, mask);
    let mut lerped = linear;
    if let Some((g1, weight, second)) = g1 {
        let v1 = filters(p, g1, linear, second);
        let t = f(weight);
        let m = lane_mask(second);
        for (v, v1) in v.iter_mut().zip(v1) {
            *v = _mm256_blendv_ps(*v, lerp(*v, v1, t), m);
        }
        lerped |= second;
    }
    finish(v, lerped, swizzle, mask, out);
}

/// [`lookup`] of one group whose lanes all read one level with one filter (`LINEAR`)
/// and no second level, without its choices: the wrap fixed when compiled as `MODE`
/// (the caller picks it as [`filter`] would), and the filter inlined.
#[target_feature(enable = "avx2,fma")]
pub(crate) fn lookup_level<const MODE: u8, const LINEAR: bool>(
    p: &Params,
    g: &Group<'_>,
    swizzle: [Swizzle; 4],
    mask: u32,
    out: [&mut [u32; W]; 4],
) {
    let v = if LINEAR {
        #[cfg(test)]
        if MODE != ANY_WRAP {
            crate::simd::FIXED_WRAP_FILTERS.with(|n| n.set(n.get() + 1));
        }
        filter_as::<MODE, 1>(p, g)
    } else {
        nearest(p, g)
    };
    finish(v, if LINEAR { 0xff } else { 0 }, swizzle, mask, out);
}

/// Lanes of a call that [`lookup_level_pair`] takes at once: two groups.
pub(crate) const PAIR: usize = 2 * W;

/// [`lookup_level`] of two groups of lanes (`g0` = lanes 0-7 of `mask` and `out`, `g1`
/// = lanes 8-15), bilinear, every lane's texel offset `offset` (the groups' `off_u` and
/// `off_v` hold it in each lane): the sixteen lanes' taps found at once in 512-bit
/// vectors where they share a window of rows ([`taps16`]), else each group's as
/// [`filter_as`] finds them; then the channel decodes, the lerps and the result of both
/// in 512-bit vectors (half the operations of two groups; the 256-bit decode and lerps
/// are most of the filter's). Taps outside the level (a wrap not fixed when compiled)
/// are weighed per group, with the border, as [`filter_as`] does.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
pub(crate) fn lookup_level_pair<const MODE: u8>(
    p: &Params,
    g0: &Group<'_>,
    g1: &Group<'_>,
    offset: [i32; 2],
    swizzle: [Swizzle; 4],
    mask: u32,
    out: [&mut [u32; PAIR]; 4],
) {
    #[cfg(test)]
    if MODE != ANY_WRAP {
        crate::simd::FIXED_WRAP_FILTERS.with(|n| n.set(n.get() + 2));
    }
    // Sixteen lanes' taps at once where their footprints share a window of rows; else
    // each group's as `filter_as` finds them, joined when all lie inside the level.
    let found = match taps16::<MODE>(g0, g1, offset) {
        Some(t) => Ok(t),
        None => {
            let x0 = taps_as::<MODE, 4>(p, g0);
            let x1 = taps_as::<MODE, 5>(p, g1);
            if x0.all_inside && x1.all_inside {
                let t = [
                    join_i(x0.t[0], x1.t[0]),
                    join_i(x0.t[1], x1.t[1]),
                    join_i(x0.t[2], x1.t[2]),
                    join_i(x0.t[3], x1.t[3]),
                ];
                Ok((t, join(x0.a, x1.a), join(x0.b, x1.b)))
            } else {
                Err((x0, x1))
            }
        }
    };
    let v: [__m512; 4] = match found {
        // Written out per channel, not as a closure over a channel index: the closure
        // stayed a call, with a branch on the channel in each decode.
        Ok((t, a, b)) => [
            weigh16::<0>(&t, a, b),
            weigh16::<1>(&t, a, b),
            weigh16::<2>(&t, a, b),
            weigh16::<3>(&t, a, b),
        ],
        Err((x0, x1)) => {
            let (v0, v1) = (weigh(p, &x0), weigh(p, &x1));
            [
                join(v0[0], v1[0]),
                join(v0[1], v1[1]),
                join(v0[2], v1[2]),
                join(v0[3], v1[3]),
            ]
        }
    };
    // Every lane lerped: NaNs canonical in all of them.
    let v = [
        canonical16(v[0]),
        canonical16(v[1]),
        canonical16(v[2]),
        canonical16(v[3]),
    ];
    // The identity tested first, as in `finish`: the match per channel was a jump
    // through a table in each call (perf: ~5 % of this kernel's samples).
    let r: [__m512i; 4] = if swizzle == [Swizzle::R, Swizzle::G, Swizzle::B, Swizzle::A] {
        v
    } else {
        swizzle.map(|sw| match sw {
            Swizzle::R => v[0],
            Swizzle::G => v[1],
            Swizzle::B => v[2],
            Swizzle::A => v[3],
            Swizzle::Zero => _mm512_setzero_si512(),
            Swizzle::One => _mm512_set1_epi32(0x3f80_0000),
        })
    };
    let all = mask & 0xffff == 0xffff;
    for (o, r) in out.into_iter().zip(r) {
        // As in `finish`: the old words are read only for a partial mask.
        let r = if all {
            r
        } else {
            let [lo, hi]: [__m256i; 2] = bytemuck::cast(*o);
            _mm512_mask_blend_epi32(mask as u16, join_i(lo, hi), r)
        };
        let halves = [_mm512_castsi512_si256(r), _mm512_extracti64x4_epi64::<1>(r)];
        *o = bytemuck::cast(halves);
    }
}

/// The taps of [`lookup_level_pair`]'s sixteen lanes (as [`Taps::t`]) and their weights
/// along u and v, found in 512-bit vectors, where the wrap is fixed when compiled (`MODE`
/// not [`ANY_WRAP`]: every tap inside), both groups read one level and every footprint is
/// two adjacent columns of two adjacent rows, the sixteen within sixteen columns and
/// three rows: those rows loaded whole, each tap one two-row permute (`vpermt2d`) of two
/// of them. `None` (nothing decided) otherwise: the caller finds each group's taps.
/// Each step is [`taps_as`]'s on sixteen lanes, so the taps and weights are its bits.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn taps16<const MODE: u8>(
    g0: &Group<'_>,
    g1: &Group<'_>,
    offset: [i32; 2],
) -> Option<([__m512i; 4], __m512, __m512)> {
    if MODE == ANY_WRAP || !std::ptr::eq(g0.levels, g1.levels) {
        return None;
    }
    let Levels::One {
        w,
        h,
        fw,
        fh,
        bytes,
    } = *g0.levels
    else {
        return None;
    };
    let s = join(f(g0.s), f(g1.s));
    let t = join(f(g0.t), f(g1.t));
    // The offset as scalars, not the groups' arrays: the caller writes those with
    // narrower stores than a vector load of them could forward from (perf: a stall).
    let ([i0, i1, j0, j1], a, b) = footprint16::<MODE>(s, t, offset, [fw, fh], [w, h]);
    let one = _mm512_set1_epi32(1);
    // Both taps of a row adjacent (not split by the wrap, nor clamped onto one texel).
    let adjacent = _mm512_cmpeq_epi32_mask(i1, _mm512_add_epi32(i0, one))
        & _mm512_cmpeq_epi32_mask(j1, _mm512_add_epi32(j0, one));
    if adjacent != 0xffff {
        return None;
    }
    // Lane 0's footprint, moved left so that the row loads stay inside the level's rows
    // where they can.
    let x0 = _mm512_cvtsi512_si32(i0);
    let x0 = if w >= 16 { x0.min(w - 16) } else { x0 };
    let y0 = _mm512_cvtsi512_si32(j0);
    let d = _mm512_sub_epi32(i0, _mm512_set1_epi32(x0));
    let e = _mm512_sub_epi32(j0, _mm512_set1_epi32(y0));
    // 0 <= d <= 14 (so d + 1 <= 15) and 0 <= e <= 1, as unsigned compares.
    let fits = _mm512_cmple_epu32_mask(d, _mm512_set1_epi32(14)) & _mm512_cmple_epu32_mask(e, one);
    if fits != 0xffff || x0 < 0 || y0 < 0 {
        return None;
    }
    let (x0, y0, w) = (x0 as usize, y0 as usize, w as usize);
    let r0 = row16(bytes, y0 * w + x0)?;
    let r1 = row16(bytes, (y0 + 1) * w + x0)?;
    // The third row only where a lane's footprint starts on the second (at a level's
    // last row, the rows below it are not there to load).
    let r2 = if _mm512_cmpeq_epi32_mask(e, one) != 0 {
        row16(bytes, (y0 + 2) * w + x0)?
    } else {
        r1
    };
    #[cfg(test)]
    crate::simd::WINDOWS16.with(|n| n.set(n.get() + 1));
    // Bit 4 of an index picks the second table: lane l's row j0 is r0 or r1 at e, j1 is
    // r1 or r2.
    let k = _mm512_add_epi32(d, _mm512_slli_epi32::<4>(e));
    let kn = _mm512_add_epi32(k, one);
    let taps = [
        _mm512_permutex2var_epi32(r0, k, r1),
        _mm512_permutex2var_epi32(r0, kn, r1),
        _mm512_permutex2var_epi32(r1, k, r2),
        _mm512_permutex2var_epi32(r1, kn, r2),
    ];
    Some((taps, a, b))
}

/// A level every lane of a [`level16`] call reads: its size (as [`Levels::One`]) and its
/// RGBA8 bytes.
pub(crate) struct Level<'a> {
    pub(crate) w: i32,
    pub(crate) h: i32,
    pub(crate) fw: f32,
    pub(crate) fh: f32,
    pub(crate) bytes: &'a [u8],
}

/// [`level16`] of a [`crate::bound::Site`]'s call, entered straight from it (the site
/// holds the base level's size; [`crate::simd::SiteKernel`] hands this out only where
/// the CPU has AVX-512): false (nothing written) where `level16` declines.
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
pub(crate) fn site_level16<const MODE: u8, const IDENTITY: bool>(
    site: &crate::bound::Site,
    coord: &[[u32; PAIR]; 4],
    mask: u64,
    out: &mut [[u32; PAIR]; 4],
) -> bool {
    let (level, offset, swizzle) = site.level16_args();
    let f: &[[f32; PAIR]; 4] = bytemuck::cast_ref(coord);
    level16::<MODE, IDENTITY>(&level, &f[0], &f[1], offset, swizzle, mask as u32, out)
}

/// [`lookup_level_pair`] of sixteen lanes (`s`, `t`) in one level, bilinear, with the
/// wrap fixed when compiled: true when done; false (nothing written) when `MODE` is
/// [`ANY_WRAP`] or `bytes` is too short for the level. Where every footprint is two
/// adjacent columns of two adjacent rows and the sixteen lie within eight columns and
/// three rows (a strip of 8x2 pixels read at up to ~0.8 texels a pixel, fill_1080p's:
/// [`window8`]), those rows are loaded eight texels each and decoded once per channel,
/// and the taps are permutes of the decoded floats: two decodes of sixteen lanes per
/// channel where [`taps16`] makes four. A channel whose byte is the same in all those
/// rows' texels ([`flat_channels`]: an opaque texture's alpha, a magnified texture's flat
/// areas) is that byte decoded once, without permutes or lerps, where the weights are
/// finite. Elsewhere (the wrap's seams, clamped edges, wider footprints, levels under
/// eight texels wide) each tap is gathered. Each step is [`taps16`]'s, and the decode a
/// function of the texel alone, so the bits are the same.
#[allow(clippy::too_many_arguments)]
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn level16<const MODE: u8, const IDENTITY: bool>(
    level: &Level<'_>,
    s: &[f32; PAIR],
    t: &[f32; PAIR],
    offset: [i32; 2],
    swizzle: [Swizzle; 4],
    mask: u32,
    out: &mut [[u32; PAIR]; 4],
) -> bool {
    let Level {
        w,
        h,
        fw,
        fh,
        bytes,
    } = *level;
    if MODE == ANY_WRAP {
        return false;
    }
    let [s, t]: [[[f32; W]; 2]; 2] = [bytemuck::cast(*s), bytemuck::cast(*t)];
    let s = join(f(&s[0]), f(&s[1]));
    let t = join(f(&t[0]), f(&t[1]));
    let ([i0, i1, j0, j1], a, b) = footprint16::<MODE>(s, t, offset, [fw, fh], [w, h]);
    // Decoded taps lie in [0, 1]: with both weights within [-1, 1] every lerp stays
    // finite (|q - p| <= 1, so the u lerps lie in [-1, 2] and the v lerp's difference in
    // [-3, 3]), and no lane can be NaN. Only NaN, infinite or huge coordinates make other
    // weights.
    let one_f = _mm512_set1_ps(1.0);
    let small = _mm512_cmp_ps_mask::<_CMP_LE_OQ>(_mm512_abs_ps(a), one_f)
        & _mm512_cmp_ps_mask::<_CMP_LE_OQ>(_mm512_abs_ps(b), one_f)
        == 0xffff;
    let v = match window8::<MODE>(bytes, w, [i0, i1, j0, j1]) {
        Some((rows, de)) => {
            // A channel whose byte is the same in all the window's texels lerps to that
            // byte's value in every lane while the weights are finite: p + (p - p) * a
            // is p + (±0), which is p (decoded values are never -0). Its decode,
            // permutes and lerps are then one decode of the first texel.
            let first = _mm512_broadcastd_epi32(_mm512_castsi512_si128(rows.0));
            let flat = if small { flat_channels(rows, first) } else { 0 };
            if flat == 0b1111 {
                #[cfg(test)]
                crate::simd::FLAT16.with(|n| n.set(n.get() + 4));
                #[cfg(test)]
                crate::simd::FLAT_WINDOWS16.with(|n| n.set(n.get() + 1));
                texel_channels(first)
            } else {
                let at = window_taps(de);
                [
                    window_channel::<0>(rows, &at, a, b, flat, first),
                    window_channel::<1>(rows, &at, a, b, flat, first),
                    window_channel::<2>(rows, &at, a, b, flat, first),
                    window_channel::<3>(rows, &at, a, b, flat, first),
                ]
            }
        }
        None => {
            // At the wrap's seams, clamped edges, wider footprints and narrow levels:
            // each tap gathered (the wrap is fixed, so every tap lies inside the level).
            let wv = _mm512_set1_epi32(w);
            let (r0, r1) = (_mm512_mullo_epi32(j0, wv), _mm512_mullo_epi32(j1, wv));
            let taps = (
                crate::simd::gather16(bytes, _mm512_add_epi32(r0, i0)),
                crate::simd::gather16(bytes, _mm512_add_epi32(r0, i1)),
                crate::simd::gather16(bytes, _mm512_add_epi32(r1, i0)),
                crate::simd::gather16(bytes, _mm512_add_epi32(r1, i1)),
            );
            let (Some(t00), Some(t10), Some(t01), Some(t11)) = taps else {
                return false;
            };
            let t = [t00, t10, t01, t11];
            [
                weigh16::<0>(&t, a, b),
                weigh16::<1>(&t, a, b),
                weigh16::<2>(&t, a, b),
                weigh16::<3>(&t, a, b),
            ]
        }
    };
    let v = if small {
        #[cfg(test)]
        crate::simd::FINITE16.with(|n| n.set(n.get() + 1));
        [
            _mm512_castps_si512(v[0]),
            _mm512_castps_si512(v[1]),
            _mm512_castps_si512(v[2]),
            _mm512_castps_si512(v[3]),
        ]
    } else {
        [
            canonical16(v[0]),
            canonical16(v[1]),
            canonical16(v[2]),
            canonical16(v[3]),
        ]
    };
    // Each channel picked in registers: `swizzle.map` with a closure stayed a call, and
    // the four vectors went through the stack in every call. The identity (`IDENTITY`,
    // chosen per draw) picks nothing.
    let (zero, unit) = (_mm512_setzero_si512(), _mm512_set1_epi32(0x3f80_0000));
    let r = if IDENTITY {
        v
    } else {
        [
            swizzled(&v, zero, unit, swizzle[0]),
            swizzled(&v, zero, unit, swizzle[1]),
            swizzled(&v, zero, unit, swizzle[2]),
            swizzled(&v, zero, unit, swizzle[3]),
        ]
    };
    let all = mask & 0xffff == 0xffff;
    for (o, r) in out.iter_mut().zip(r) {
        let r = if all {
            r
        } else {
            let [lo, hi]: [__m256i; 2] = bytemuck::cast(*o);
            _mm512_mask_blend_epi32(mask as u16, join_i(lo, hi), r)
        };
        let halves = [_mm512_castsi512_si256(r), _mm512_extracti64x4_epi64::<1>(r)];
        *o = bytemuck::cast(halves);
    }
    true
}

/// Channel `sw` of `v` (R, G, B, A), or `zero` or `one`.
#[inline(always)]
fn swizzled(v: &[__m512i; 4], zero: __m512i, one: __m512i, sw: Swizzle) -> __m512i {
    match sw {
        Swizzle::R => v[0],
        Swizzle::G => v[1],
        Swizzle::B => v[2],
        Swizzle::A => v[3],
        Swizzle::Zero => zero,
        Swizzle::One => one,
    }
}

/// [`level16`]'s window: where every footprint (taps `i0`, `i1`, `j0`, `j1`, wrapped
/// inside the level `w` texels wide whose texels are `bytes`) is two adjacent columns of
/// two adjacent rows and the sixteen lie within eight columns and three rows, those rows
/// (0|1 as one vector, 2 in both halves of another) and where each lane's four taps lie
/// in them as one table of 32 texels ((i0, j0), (i1, j0), (i0, j1), (i1, j1)); `None`
/// otherwise. Row 1 in a second vector (rows 1|2) would make the same taps, but LLVM
/// then decoded the three rows in 256-bit halves and joined them per channel.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn window8<const MODE: u8>(
    bytes: &[u8],
    w: i32,
    [i0, i1, j0, j1]: [__m512i; 4],
) -> Option<((__m512i, __m512i), (__m512i, __m512i))> {
    let one = _mm512_set1_epi32(1);
    // Both taps of a row adjacent (not split by the wrap, nor clamped onto one texel).
    // Under REPEAT on a power-of-two level the columns need no test: the fit test
    // below puts every i0 at or left of w - 2, and there i1 = (i0 + 1) & (w - 1) is
    // i0 + 1.
    let columns = match MODE {
        REPEAT_POW2 => 0xffff,
        _ => _mm512_cmpeq_epi32_mask(i1, _mm512_add_epi32(i0, one)),
    };
    let adjacent = columns & _mm512_cmpeq_epi32_mask(j1, _mm512_add_epi32(j0, one));
    if adjacent != 0xffff || w < W as i32 {
        return None;
    }
    // Lane 0's footprint, moved left so that the row loads stay inside the level's rows.
    let x0 = _mm512_cvtsi512_si32(i0).min(w - W as i32);
    let y0 = _mm512_cvtsi512_si32(j0);
    let d = _mm512_sub_epi32(i0, _mm512_set1_epi32(x0));
    let e = _mm512_sub_epi32(j0, _mm512_set1_epi32(y0));
    // 0 <= d <= 6 (so d + 1 <= 7) and 0 <= e <= 1, as unsigned compares.
    let fits = _mm512_cmple_epu32_mask(d, _mm512_set1_epi32(6)) & _mm512_cmple_epu32_mask(e, one);
    if fits != 0xffff || x0 < 0 || y0 < 0 {
        return None;
    }
    // The third row only where a lane's footprint starts on the second (at a level's
    // last row, the rows below it are not there to load); else the second again. A
    // select of the index, not a branch: which strips need it follows the texture's
    // rows, not a pattern a predictor learns.
    let third = _mm512_cmpeq_epi32_mask(e, one) != 0;
    let (x0, y0, w) = (x0 as usize, y0 as usize, w as usize);
    let k0 = y0 * w + x0;
    let k2 = k0 + if third { 2 * w } else { w };
    let (r0, r1, r2) = (row8(bytes, k0)?, row8(bytes, k0 + w)?, row8(bytes, k2)?);
    #[cfg(test)]
    crate::simd::LEVELS16.with(|n| n.set(n.get() + 1));
    Some(((join_i(r0, r1), join_i(r2, r2)), (d, e)))
}

/// Where each lane's four taps lie in [`window8`]'s rows as one table of 32 texels, from
/// the lane's column `d` and row `e` in the window: its (i0, j0), (i1, j0), (i0, j1),
/// (i1, j1). Apart from [`window8`], so that a window whose channels are all flat does
/// not compute them.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn window_taps((d, e): (__m512i, __m512i)) -> [__m512i; 4] {
    // Lane l's row j0 is lane d + 8e of rows 0|1, j1 lane d + 8e + 8 of rows 0|1|2.
    let k = _mm512_add_epi32(d, _mm512_slli_epi32::<3>(e));
    let kn = _mm512_add_epi32(k, _mm512_set1_epi32(1));
    let eight = _mm512_set1_epi32(W as i32);
    [
        k,
        kn,
        _mm512_add_epi32(k, eight),
        _mm512_add_epi32(kn, eight),
    ]
}

/// Channel `C` of [`level16`]'s sixteen lanes: its rows (0|1, and 2 in the low half)
/// decoded, each lane's four taps permuted out of them (`at`: the lane's (i0, j0), (i1,
/// j0), (i0, j1), (i1, j1) in the rows as one table), lerped along u by `a` and along v
/// by `b`, as [`weigh16`] does.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn weigh_rows<const C: usize>(
    rows: (__m512i, __m512i),
    at: &[__m512i; 4],
    a: __m512,
    b: __m512,
) -> __m512 {
    let (p, q) = (channel512::<C>(rows.0), channel512::<C>(rows.1));
    let tap = [
        _mm512_permutexvar_ps(at[0], p),
        _mm512_permutexvar_ps(at[1], p),
        _mm512_permutex2var_ps(p, at[2], q),
        _mm512_permutex2var_ps(p, at[3], q),
    ];
    lerp16(lerp16(tap[0], tap[1], a), lerp16(tap[2], tap[3], a), b)
}

/// The channels (bit c for channel c) whose byte is the same in all the texels of
/// [`window8`]'s `rows` (0|1, 2|2) as in `first` (a texel of them in every lane).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn flat_channels(rows: (__m512i, __m512i), first: __m512i) -> u32 {
    // (rows 0|1 ^ first) | (rows 2|2 ^ first) in one ternary op (A = 0xf0, B = 0xcc,
    // C = 0xaa: 0x5a | 0x66), then a bit for each byte that is zero there.
    let x = _mm512_ternarylogic_epi32::<0x7e>(rows.0, rows.1, first);
    // Every byte the same (a window inside a flat area: 3 in 4 of fill_1080p's) in one
    // test, before the per-channel bits.
    if _mm512_test_epi8_mask(x, x) == 0 {
        return 0b1111;
    }
    let same = _mm512_testn_epi8_mask(x, x);
    // Byte c of every texel.
    const BYTE0: u64 = 0x1111_1111_1111_1111;
    let mut flat = 0;
    for c in 0..4 {
        if (same >> c) & BYTE0 == BYTE0 {
            flat |= 1 << c;
        }
    }
    flat
}

/// Channel `C` of [`level16`]'s window: [`weigh_rows`], or where [`flat_channels`] found
/// it the same in every texel (bit `C` of `flat`), that byte decoded from `first`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn window_channel<const C: usize>(
    rows: (__m512i, __m512i),
    at: &[__m512i; 4],
    a: __m512,
    b: __m512,
    flat: u32,
    first: __m512i,
) -> __m512 {
    if flat & (1 << C) != 0 {
        #[cfg(test)]
        crate::simd::FLAT16.with(|n| n.set(n.get() + 1));
        channel512::<C>(first)
    } else {
        weigh_rows::<C>(rows, at, a, b)
    }
}

/// [`channel`] `C` of sixteen lanes in 512-bit operations (written as two halves, as
/// [`channel16`], LLVM decoded rows 0 and 1 apart and joined them).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn channel512<const C: usize>(t: __m512i) -> __m512 {
    let x = match C {
        0 => _mm512_and_si512(t, _mm512_set1_epi32(0xff)),
        1 => _mm512_and_si512(t, _mm512_set1_epi32(0xff00)),
        2 => _mm512_and_si512(t, _mm512_set1_epi32(0xff_0000)),
        _ => _mm512_srli_epi32::<24>(t),
    };
    let x = _mm512_cvtepi32_ps(x);
    _mm512_fmadd_ps(
        x,
        _mm512_set1_ps(R_HI * SCALE[C & 3]),
        _mm512_mul_ps(x, _mm512_set1_ps(R_LO * SCALE[C & 3])),
    )
}

/// The four channels of the texel in every lane of `first`, each decoded and broadcast
/// to sixteen lanes: [`channel512`]'s values, from one decode of the texel's four bytes
/// (four times, in the low 16 bytes) and a shuffle per channel. `channel512` decodes
/// channel c as its byte times 256^c (unshifted), scaled by 256^-c in the constants:
/// powers of two, so every product and the fused step round as the byte's own do.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn texel_channels(first: __m512i) -> [__m512; 4] {
    let x = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm512_castsi512_si128(first)));
    let v = _mm512_fmadd_ps(
        x,
        _mm512_set1_ps(R_HI),
        _mm512_mul_ps(x, _mm512_set1_ps(R_LO)),
    );
    [
        _mm512_shuffle_ps::<0x00>(v, v),
        _mm512_shuffle_ps::<0x55>(v, v),
        _mm512_shuffle_ps::<0xaa>(v, v),
        _mm512_shuffle_ps::<0xff>(v, v),
    ]
}

/// [`floor_i`] of sixteen lanes for [`taps16`] (the conversion rounds down itself), but
/// NaN lanes are i32::MIN, not 0: the same taps after the fixed wraps (REPEAT masks both
/// to 0 and MIN + 1 to 1; CLAMP_TO_EDGE clamps i0 to 0 and i1 to 0, not adjacent, so the
/// call declines) and the same NaN weight.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn floor_i16(x: __m512) -> __m512i {
    let r = _mm512_cvt_roundps_epi32::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(x);
    // Out of range converts to i32::MIN: right below, wrong above.
    let big = _mm512_cmp_ps_mask::<_CMP_GE_OQ>(x, _mm512_set1_ps(2147483648.0));
    _mm512_mask_mov_epi32(r, big, _mm512_set1_epi32(i32::MAX))
}

/// Sixteen lanes' bilinear footprint at (`s`, `t`) + `offset` in a level of `size`
/// texels (`fsize` as floats): the wrapped tap columns i0, i1 and rows j0, j1, and the
/// weights a, b. [`taps_as`]'s steps on sixteen lanes ([`taps16`], [`level16`]).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn footprint16<const MODE: u8>(
    s: __m512,
    t: __m512,
    offset: [i32; 2],
    [fw, fh]: [f32; 2],
    [w, h]: [i32; 2],
) -> ([__m512i; 4], __m512, __m512) {
    let half = _mm512_set1_ps(0.5);
    let (su, tv) = (
        _mm512_mul_ps(s, _mm512_set1_ps(fw)),
        _mm512_mul_ps(t, _mm512_set1_ps(fh)),
    );
    // Adding a zero offset changes only -0 (to +0), which the - 0.5 after it makes -0.5
    // either way: without an offset, the add is left out.
    let (x, y) = if offset == [0, 0] {
        (_mm512_sub_ps(su, half), _mm512_sub_ps(tv, half))
    } else {
        let off_u = _mm512_set1_ps(offset[0] as f32);
        let off_v = _mm512_set1_ps(offset[1] as f32);
        (
            _mm512_sub_ps(_mm512_add_ps(su, off_u), half),
            _mm512_sub_ps(_mm512_add_ps(tv, off_v), half),
        )
    };
    let (i0, j0) = (floor_i16(x), floor_i16(y));
    let a = _mm512_sub_ps(x, _mm512_cvtepi32_ps(i0));
    let b = _mm512_sub_ps(y, _mm512_cvtepi32_ps(j0));
    let one = _mm512_set1_epi32(1);
    let taps = [
        wrap16::<MODE>(i0, w),
        wrap16::<MODE>(_mm512_add_epi32(i0, one), w),
        wrap16::<MODE>(j0, h),
        wrap16::<MODE>(_mm512_add_epi32(j0, one), h),
    ];
    (taps, a, b)
}

/// [`wrap_tap`] of sixteen lanes of a level `size` wide, for the fixed wraps.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn wrap16<const MODE: u8>(x: __m512i, size: i32) -> __m512i {
    let max = _mm512_set1_epi32(size.wrapping_sub(1));
    match MODE {
        REPEAT_POW2 => _mm512_and_si512(x, max),
        _ => _mm512_min_epi32(_mm512_max_epi32(x, _mm512_setzero_si512()), max),
    }
}

/// 64 bytes of `b` from texel `k` (sixteen RGBA8 texels), if `b` has them.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn row16(b: &[u8], k: usize) -> Option<__m512i> {
    let r: &[u8; 64] = b.get(k * 4..k * 4 + 64)?.try_into().ok()?;
    let [lo, hi]: [__m256i; 2] = bytemuck::cast(*r);
    Some(join_i(lo, hi))
}

/// `lo` in lanes 0-7, `hi` in lanes 8-15.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn join(lo: __m256, hi: __m256) -> __m512 {
    _mm512_insertf32x8::<1>(_mm512_castps256_ps512(lo), hi)
}

/// [`join`] of integer lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn join_i(lo: __m256i, hi: __m256i) -> __m512i {
    _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
}

/// Channel `C` of sixteen lanes' taps `t` (as [`Taps::t`]), lerped along u by `a` and
/// along v by `b`, as [`weigh`] does for eight.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn weigh16<const C: usize>(t: &[__m512i; 4], a: __m512, b: __m512) -> __m512 {
    let tap = [
        channel16::<C>(t[0]),
        channel16::<C>(t[1]),
        channel16::<C>(t[2]),
        channel16::<C>(t[3]),
    ];
    lerp16(lerp16(tap[0], tap[1], a), lerp16(tap[2], tap[3], a), b)
}

/// [`channel`] `C` of sixteen lanes, written as the decode of each half: LLVM joins the
/// halves' operations back into 512-bit ones (the pair kernel's machine code is that of
/// the decode spelled out in 512-bit intrinsics, but for one register move).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn channel16<const C: usize>(t: __m512i) -> __m512 {
    join(
        channel(_mm512_castsi512_si256(t), C),
        channel(_mm512_extracti64x4_epi64::<1>(t), C),
    )
}

/// [`canonical`] of sixteen lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn canonical16(v: __m512) -> __m512i {
    let nan = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(v, v);
    _mm512_castps_si512(_mm512_mask_blend_ps(nan, v, _mm512_set1_ps(f32::NAN)))
}

/// [`lerp`] of sixteen lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn lerp16(p: __m512, q: __m512, t: __m512) -> __m512 {
    _mm512_add_ps(p, _mm512_mul_ps(_mm512_sub_ps(q, p), t))
}

/// [`lookup`] of a group whose lanes read a second level (`g1`'s, blended with `weight`
/// in the lanes of `second`), every lane of `mask` and `second` with the bilinear filter:
/// the wrap fixed when compiled as `MODE` (the caller picks it as [`filter`] would), and
/// each level's filter its own inlined copy, so that the two levels' loads and
/// arithmetic interleave.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn lookup_two<const MODE: u8>(
    p: &Params,
    g0: &Group<'_>,
    g1: &Group<'_>,
    weight: &[f32; W],
    second: u32,
    swizzle: [Swizzle; 4],
    mask: u32,
    out: [&mut [u32; W]; 4],
) {
    #[cfg(test)]
    if MODE != ANY_WRAP {
        crate::simd::FIXED_WRAP_FILTERS.with(|n| n.set(n.get() + 2));
    }
    let v0 = filter_as::<MODE, 2>(p, g0);
    let v1 = filter_as::<MODE, 3>(p, g1);
    let t = f(weight);
    let m = lane_mask(second);
    let v = std::array::from_fn(|c| _mm256_blendv_ps(v0[c], lerp(v0[c], v1[c], t), m));
    finish(v, 0xff, swizzle, mask, out);
}

/// A group's filtered channels `v`, canonical in the lanes of `lerped`, swizzled and
/// written to the lanes of `mask` of `out`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn finish(v: [__m256; 4], lerped: u32, swizzle: [Swizzle; 4], mask: u32, out: [&mut [u32; W]; 4]) {
    // Unconditional and in registers: as a branch over an array, the compiler kept `v`
    // on the stack, wrote it with masked stores and read it back (a masked store does
    // not forward: the reloads stalled, ~30 % of `lookup`'s samples).
    let canon = lane_mask(lerped);
    let v = v.map(|v| _mm256_blendv_ps(v, canonical(v), canon));
    let r: [__m256i; 4] = if swizzle == [Swizzle::R, Swizzle::G, Swizzle::B, Swizzle::A] {
        v.map(|v| _mm256_castps_si256(v))
    } else {
        swizzle.map(|sw| match sw {
            Swizzle::R => _mm256_castps_si256(v[0]),
            Swizzle::G => _mm256_castps_si256(v[1]),
            Swizzle::B => _mm256_castps_si256(v[2]),
            Swizzle::A => _mm256_castps_si256(v[3]),
            Swizzle::Zero => _mm256_setzero_si256(),
            Swizzle::One => _mm256_set1_epi32(0x3f80_0000),
        })
    };
    let m = _mm256_castps_si256(lane_mask(mask));
    for (o, r) in out.into_iter().zip(r) {
        // Every lane written: the old words are not read (the callers have just zeroed
        // them with narrower stores, which a wider load cannot forward from).
        *o = if mask & 0xff == 0xff {
            bytemuck::cast(r)
        } else {
            bytemuck::cast(_mm256_blendv_epi8(i(&bytemuck::cast(*o)), r, m))
        };
    }
}

/// Bilinear in the lanes of `linear`, nearest in the others; only the filters some lane
/// of `need` uses are run.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn filters(p: &Params, g: &Group<'_>, linear: u32, need: u32) -> [__m256; 4] {
    let lin = linear & need != 0;
    let near = !linear & need & 0xff != 0;
    match (lin, near) {
        (true, false) => filter(p, g),
        (false, _) => nearest(p, g),
        (true, true) => {
            let (a, b) = (filter(p, g), nearest(p, g));
            let m = lane_mask(linear);
            std::array::from_fn(|c| _mm256_blendv_ps(b[c], a[c], m))
        }
    }
}

/// Unnormalised coordinates (u, v) of every lane of a group.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn coords(p: &Params, g: &Group<'_>, fw: __m256, fh: __m256) -> (__m256, __m256) {
    (
        texel_coord(p.wrap[0], f(g.s), fw, i(g.off_u)),
        texel_coord(p.wrap[1], f(g.t), fh, i(g.off_v)),
    )
}

/// Channel `c` of RGBA8 texels (one per 32-bit lane) as floats, `v / 255` of its byte
/// ([`R_HI`]). No shuffle (whose port the window's permutes load): the byte is masked in
/// place (channels 0-2, `v · 256^c`, exact in f32) or shifted down (channel 3, which
/// masked in place would read as a negative i32), and the constants are scaled by
/// `256^-c` ([`SCALE`]: powers of two, far from the subnormals), so the exact product and
/// the rounded one are those of the byte itself (`channel_scaling_is_exact` checks all
/// 256 bytes of each channel).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn channel(t: __m256i, c: usize) -> __m256 {
    let x = match c {
        0 => _mm256_and_si256(t, _mm256_set1_epi32(0xff)),
        1 => _mm256_and_si256(t, _mm256_set1_epi32(0xff00)),
        2 => _mm256_and_si256(t, _mm256_set1_epi32(0xff_0000)),
        _ => _mm256_srli_epi32::<24>(t),
    };
    let x = _mm256_cvtepi32_ps(x);
    _mm256_fmadd_ps(
        x,
        _mm256_set1_ps(R_HI * SCALE[c & 3]),
        _mm256_mul_ps(x, _mm256_set1_ps(R_LO * SCALE[c & 3])),
    )
}

/// What channel `c`'s byte is multiplied by where [`channel`] leaves it: `256^-c`
/// (channel 3 is shifted down to its byte).
const SCALE: [f32; 4] = [1.0, 1.0 / 256.0, 1.0 / 65536.0, 1.0];

/// Nearest filtering of one group: the texel under each lane's coordinate.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn nearest(p: &Params, g: &Group<'_>) -> [__m256; 4] {
    let (w, h, fw, fh) = sizes(g);
    let (u, v) = coords(p, g, fw, fh);
    let (x, in_x) = wrap_v(p.wrap[0], p.pow2[0], false, floor_i(u), w);
    let (y, in_y) = wrap_v(p.wrap[1], p.pow2[1], false, floor_i(v), h);
    let inside = _mm256_and_si256(in_x, in_y);
    let k = _mm256_add_epi32(
        _mm256_mullo_epi32(_mm256_and_si256(y, inside), w),
        _mm256_and_si256(x, inside),
    );
    let k: [i32; W] = bytemuck::cast(k);
    let t = _mm256_setr_epi32(
        load4(g.levels.bytes(0), k[0]) as i32,
        load4(g.levels.bytes(1), k[1]) as i32,
        load4(g.levels.bytes(2), k[2]) as i32,
        load4(g.levels.bytes(3), k[3]) as i32,
        load4(g.levels.bytes(4), k[4]) as i32,
        load4(g.levels.bytes(5), k[5]) as i32,
        load4(g.levels.bytes(6), k[6]) as i32,
        load4(g.levels.bytes(7), k[7]) as i32,
    );
    let all_inside = _mm256_movemask_ps(_mm256_castsi256_ps(inside)) == 0xff;
    let inside = _mm256_castsi256_ps(inside);
    let mut r = [_mm256_setzero_ps(); 4];
    for (c, r) in r.iter_mut().enumerate() {
        *r = channel(t, c);
        if !all_inside {
            // The border's bits as they are: NEAREST does no arithmetic on them.
            let border = _mm256_castsi256_ps(_mm256_set1_epi32(p.border[c].to_bits() as i32));
            *r = _mm256_blendv_ps(border, *r, inside);
        }
    }
    r
}

/// Lanes of the bits of `mask` as all-ones vector lanes.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn lane_mask(mask: u32) -> __m256 {
    let bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    let m = _mm256_and_si256(_mm256_set1_epi32(mask as i32), bits);
    _mm256_castsi256_ps(_mm256_cmpeq_epi32(m, bits))
}

/// NaN lanes as the canonical quiet NaN (the reference's `lerp` makes them so; a NaN
/// step anywhere makes the result NaN, so once at the end gives the same bits).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn canonical(r: __m256) -> __m256 {
    let nan = _mm256_cmp_ps::<_CMP_UNORD_Q>(r, r);
    _mm256_blendv_ps(r, _mm256_set1_ps(f32::NAN), nan)
}

/// 32 bytes of `b` from texel `k` (eight RGBA8 texels), if `b` has them.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn row8(b: &[u8], k: usize) -> Option<__m256i> {
    let r: &[u8; 32] = b.get(k * 4..k * 4 + 32)?.try_into().ok()?;
    Some(bytemuck::cast(*r))
}

/// The four taps (rows `j0`, `j1` = `j0` + 1, columns `i0`, `i0` + 1, all inside the
/// level of width `w` whose texels are `bytes`) of a group whose footprints lie within
/// eight columns and four rows, from whole-row loads: each tap is a permute of a row,
/// picked per lane by its row. `None` when the footprints do not fit (they are measured
/// from lane 0's) or a row would read past `bytes`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn window(bytes: &[u8], w: i32, i0: __m256i, j0: __m256i, j1: __m256i) -> Option<[__m256i; 4]> {
    let one = _mm256_set1_epi32(1);
    let rows_adjacent = _mm256_cmpeq_epi32(j1, _mm256_add_epi32(j0, one));
    if _mm256_movemask_ps(_mm256_castsi256_ps(rows_adjacent)) != 0xff {
        return None;
    }
    // Lane 0's footprint, moved left so that the row loads stay inside the level's rows
    // where they can.
    let x0 = _mm256_cvtsi256_si32(i0);
    let x0 = if w >= W as i32 {
        x0.min(w - W as i32)
    } else {
        x0
    };
    let y0 = _mm256_cvtsi256_si32(j0);
    let d = _mm256_sub_epi32(i0, _mm256_set1_epi32(x0));
    let e = _mm256_sub_epi32(j0, _mm256_set1_epi32(y0));
    // 0 <= d <= 6 (so d + 1 <= 7) and 0 <= e <= 2, as unsigned compares.
    let fits = _mm256_and_si256(
        _mm256_cmpeq_epi32(_mm256_min_epu32(d, _mm256_set1_epi32(6)), d),
        _mm256_cmpeq_epi32(_mm256_min_epu32(e, _mm256_set1_epi32(2)), e),
    );
    if _mm256_movemask_ps(_mm256_castsi256_ps(fits)) != 0xff || x0 < 0 || y0 < 0 {
        return None;
    }
    let e2 = _mm256_cmpeq_epi32(e, _mm256_set1_epi32(2));
    let third = _mm256_movemask_ps(_mm256_castsi256_ps(e2)) != 0;
    let (x0, y0, w) = (x0 as usize, y0 as usize, w as usize);
    let r0 = row8(bytes, y0 * w + x0)?;
    let r1 = row8(bytes, (y0 + 1) * w + x0)?;
    let r2 = row8(bytes, (y0 + 2) * w + x0)?;
    #[cfg(test)]
    crate::simd::WINDOWS.with(|n| n.set(n.get() + 1));
    let e1 = _mm256_cmpeq_epi32(e, one);
    let dn = _mm256_add_epi32(d, one);
    let (p0, p0n) = (
        _mm256_permutevar8x32_epi32(r0, d),
        _mm256_permutevar8x32_epi32(r0, dn),
    );
    let (p1, p1n) = (
        _mm256_permutevar8x32_epi32(r1, d),
        _mm256_permutevar8x32_epi32(r1, dn),
    );
    let (p2, p2n) = (
        _mm256_permutevar8x32_epi32(r2, d),
        _mm256_permutevar8x32_epi32(r2, dn),
    );
    let mut t = [
        _mm256_blendv_epi8(p0, p1, e1),
        _mm256_blendv_epi8(p0n, p1n, e1),
        _mm256_blendv_epi8(p1, p2, e1),
        _mm256_blendv_epi8(p1n, p2n, e1),
    ];
    if third {
        let r3 = row8(bytes, (y0 + 3) * w + x0)?;
        let (p3, p3n) = (
            _mm256_permutevar8x32_epi32(r3, d),
            _mm256_permutevar8x32_epi32(r3, dn),
        );
        t = [
            _mm256_blendv_epi8(t[0], p2, e2),
            _mm256_blendv_epi8(t[1], p2n, e2),
            _mm256_blendv_epi8(t[2], p3, e2),
            _mm256_blendv_epi8(t[3], p3n, e2),
        ];
    }
    Some(t)
}

/// Bilinear filtering of one group, NaNs not yet canonical.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn filter(p: &Params, g: &Group<'_>) -> [__m256; 4] {
    match (p.wrap, p.pow2) {
        ([Wrap::Repeat, Wrap::Repeat], [true, true]) => {
            #[cfg(test)]
            crate::simd::FIXED_WRAP_FILTERS.with(|n| n.set(n.get() + 1));
            filter_as::<REPEAT_POW2, 0>(p, g)
        }
        ([Wrap::ClampToEdge, Wrap::ClampToEdge], _) => {
            #[cfg(test)]
            crate::simd::FIXED_WRAP_FILTERS.with(|n| n.set(n.get() + 1));
            filter_as::<CLAMP_TO_EDGE, 0>(p, g)
        }
        _ => filter_as::<ANY_WRAP, 0>(p, g),
    }
}

/// The wrap of both axes as [`filter_as`] is compiled for: read from [`Params`] at run
/// time, or fixed (REPEAT on power-of-two levels, CLAMP_TO_EDGE), where every tap is
/// inside, so that the inside masks, index masks, border blends and checks fold away.
pub(crate) const ANY_WRAP: u8 = 0;
pub(crate) const REPEAT_POW2: u8 = 1;
pub(crate) const CLAMP_TO_EDGE: u8 = 2;

/// [`wrap_v`] of a LINEAR tap, with the wrap `MODE` [`filter_as`] is compiled for.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn wrap_tap<const MODE: u8>(
    mode: Wrap,
    pow2: bool,
    x: __m256i,
    size: __m256i,
) -> (__m256i, __m256i) {
    let max = _mm256_sub_epi32(size, _mm256_set1_epi32(1));
    let all = _mm256_set1_epi32(-1);
    match MODE {
        REPEAT_POW2 => (_mm256_and_si256(x, max), all),
        CLAMP_TO_EDGE => (
            _mm256_min_epi32(_mm256_max_epi32(x, _mm256_setzero_si256()), max),
            all,
        ),
        _ => wrap_v(mode, pow2, true, x, size),
    }
}

/// [`filter`] with the wrap modes fixed when compiled (`MODE`, see [`ANY_WRAP`]) or read
/// from `p`. `COPY` only tells copies apart: each caller has its own, so that each copy
/// has one call site and inlines there (called, the four channels came back through
/// memory).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn filter_as<const MODE: u8, const COPY: u8>(p: &Params, g: &Group<'_>) -> [__m256; 4] {
    let taps = taps_as::<MODE, COPY>(p, g);
    weigh(p, &taps)
}

/// A group's bilinear footprints before their channels are decoded: the texels of its
/// four taps (`t[0]` = (i0, j0), `t[1]` = (i1, j0), `t[2]` = (i0, j1), `t[3]` = (i1,
/// j1)), the weights along u (`a`) and v (`b`), and which taps lie inside the level.
struct Taps {
    t: [__m256i; 4],
    a: __m256,
    b: __m256,
    inside: [__m256; 4],
    /// Every tap of every lane inside (always, when the wrap is fixed).
    all_inside: bool,
}

/// The [`Taps`] of [`filter_as`] (`MODE` and `COPY` as there).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn taps_as<const MODE: u8, const COPY: u8>(p: &Params, g: &Group<'_>) -> Taps {
    let (w, h, fw, fh) = sizes(g);
    let (u, v) = coords(p, g, fw, fh);
    let half = _mm256_set1_ps(0.5);
    let (x, y) = (_mm256_sub_ps(u, half), _mm256_sub_ps(v, half));
    let (i0, j0) = (floor_i(x), floor_i(y));
    let a = _mm256_sub_ps(x, _mm256_cvtepi32_ps(i0));
    let b = _mm256_sub_ps(y, _mm256_cvtepi32_ps(j0));
    let one = _mm256_set1_epi32(1);
    let (i1, j1) = (_mm256_add_epi32(i0, one), _mm256_add_epi32(j0, one));
    let (i0, in_i0) = wrap_tap::<MODE>(p.wrap[0], p.pow2[0], i0, w);
    let (i1, in_i1) = wrap_tap::<MODE>(p.wrap[0], p.pow2[0], i1, w);
    let (j0, in_j0) = wrap_tap::<MODE>(p.wrap[1], p.pow2[1], j0, h);
    let (j1, in_j1) = wrap_tap::<MODE>(p.wrap[1], p.pow2[1], j1, h);
    // Indices of taps outside the level are replaced by 0 (any index that loads); their
    // values are replaced by the border after the decode.
    let (i0s, i1s) = (_mm256_and_si256(i0, in_i0), _mm256_and_si256(i1, in_i1));
    let (r0, r1) = (
        _mm256_mullo_epi32(_mm256_and_si256(j0, in_j0), w),
        _mm256_mullo_epi32(_mm256_and_si256(j1, in_j1), w),
    );
    // Columns i0, i0 + 1 of both rows, both inside: one 8-byte load per row.
    let pair = _mm256_and_si256(
        _mm256_and_si256(in_i0, in_i1),
        _mm256_cmpeq_epi32(i1, _mm256_add_epi32(i0, one)),
    );
    let pair = _mm256_movemask_ps(_mm256_castsi256_ps(pair)) as u32;
    let (j0s, j1s) = (_mm256_and_si256(j0, in_j0), _mm256_and_si256(j1, in_j1));
    // Every footprint two adjacent columns of one level, and the group's footprints
    // within eight columns and four rows: the rows loaded whole, the taps permuted out of
    // them. Else, each row of the eight lanes is one gather of (left, right) pairs (fewer
    // operations than the per-lane loads, and no branches); the gather checks its indices
    // against the level and declines if one does not fit.
    let taps = match g.levels {
        Levels::One { bytes, w, .. } if pair == 0xff => {
            window(bytes, *w, i0, j0s, j1s).or_else(|| {
                let (k00, k01) = (_mm256_add_epi32(r0, i0s), _mm256_add_epi32(r1, i0s));
                let a = crate::simd::gather_pairs(bytes, k00)?;
                let b = crate::simd::gather_pairs(bytes, k01)?;
                let ((t00, t10), (t01, t11)) = (split(a), split(b));
                Some([t00, t10, t01, t11])
            })
        }
        _ => None,
    };
    let t = match taps {
        Some(t) => t,
        None => {
            let k00: [i32; W] = bytemuck::cast(_mm256_add_epi32(r0, i0s));
            let k01: [i32; W] = bytemuck::cast(_mm256_add_epi32(r1, i0s));
            let k10: [i32; W] = bytemuck::cast(_mm256_add_epi32(r0, i1s));
            let k11: [i32; W] = bytemuck::cast(_mm256_add_epi32(r1, i1s));
            let ((t00, t10), (t01, t11)) = (
                split(rows!(g, pair, &k00, &k10)),
                split(rows!(g, pair, &k01, &k11)),
            );
            [t00, t10, t01, t11]
        }
    };
    let inside = [
        _mm256_castsi256_ps(_mm256_and_si256(in_i0, in_j0)),
        _mm256_castsi256_ps(_mm256_and_si256(in_i1, in_j0)),
        _mm256_castsi256_ps(_mm256_and_si256(in_i0, in_j1)),
        _mm256_castsi256_ps(_mm256_and_si256(in_i1, in_j1)),
    ];
    let all_inside = _mm256_movemask_ps(_mm256_and_ps(
        _mm256_and_ps(inside[0], inside[1]),
        _mm256_and_ps(inside[2], inside[3]),
    )) == 0xff;
    Taps {
        t,
        a,
        b,
        inside,
        all_inside,
    }
}

/// The bilinear blend of a group's [`Taps`]: each channel decoded (outside taps read the
/// border) and lerped along u, then v. NaNs not yet canonical.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn weigh(p: &Params, taps: &Taps) -> [__m256; 4] {
    let [t00, t10, t01, t11] = taps.t;
    let (a, b) = (taps.a, taps.b);
    let mut r = [_mm256_setzero_ps(); 4];
    for (c, r) in r.iter_mut().enumerate() {
        let mut tap = [
            channel(t00, c),
            channel(t10, c),
            channel(t01, c),
            channel(t11, c),
        ];
        if !taps.all_inside {
            let border = _mm256_set1_ps(p.border[c]);
            for (t, m) in tap.iter_mut().zip(&taps.inside) {
                *t = _mm256_blendv_ps(border, *t, *m);
            }
        }
        *r = lerp(lerp(tap[0], tap[1], a), lerp(tap[2], tap[3], a), b);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::{R_HI, R_LO, SCALE};

    /// `channel`'s steps in scalar form for each channel (the byte where the mask or
    /// shift leaves it, the scaled constants) give `v / 255`'s bits for every byte.
    #[test]
    fn channel_scaling_is_exact() {
        for (c, &s) in SCALE.iter().enumerate() {
            for v in 0..=255u32 {
                let x = if c == 3 { v } else { v << (8 * c) } as f32;
                let got = x.mul_add(R_HI * s, x * (R_LO * s));
                assert_eq!(got.to_bits(), (v as f32 / 255.0).to_bits(), "{c} {v}");
            }
        }
    }
}
