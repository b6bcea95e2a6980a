//! The specialised path for filtered 2D lookups: the common case of every fragment
//! program, run as lane loops over the whole batch instead of one lane at a time.
//!
//! It takes TEX/TXB/TXL/TXD/TXP on a `TEXTURE_2D` of a float-returning colour format with
//! no sRGB decode, no depth comparison, isotropic filtering and one sample; everything
//! else goes through [`crate::sample`]'s per-lane code, which stays the reference: both
//! give the same bits (see the differential tests in `fast_tests.rs`).
//!
//! Per call: levels of detail per quad (per lane for TXB/TXL/TXD) with the reference's own
//! scalar code, then each filter over all lanes at once: coordinates, floor, wrap, texel
//! fetch and the linear weights as loops over the lanes, compiled per instruction set
//! ([`crate::simd`]). Filtering is the reference's f32 arithmetic in the same order.

// Lane loops index several per-lane arrays in step: the shape that vectorises.
#![allow(clippy::needless_range_loop)]

use crate::call::{Ctx, LaneLod, Lv, MAX_LEVELS};
use crate::filter_math::{floor_i, lerp};
use crate::format::Base;
use crate::lod;
use crate::request::{Lanes, LodMode, TexOp};
use crate::sampler::{Filter, Swizzle, Wrap};
use crate::texture::{Target, Texels};
use crate::wrap::{preclamp, wrap};

const IDENTITY: [Swizzle; 4] = [Swizzle::R, Swizzle::G, Swizzle::B, Swizzle::A];

/// Whether [`sample_2d`] takes this filtered lookup (`ewa`: anisotropic filtering).
#[inline]
pub(crate) fn applies(ctx: &Ctx<'_>, op: &TexOp, ewa: bool) -> bool {
    op.target == Target::T2D && ctx.plain && !ctx.integer && !ctx.depth && !ewa
}

/// Level parameters of every lane, gathered from the level each lane reads.
struct LaneLevels<'a, const N: usize> {
    w: [i32; N],
    h: [i32; N],
    fw: [f32; N],
    fh: [f32; N],
    /// Level of each lane, an index into `levels`.
    level: [u8; N],
    levels: &'a [Lv<'a>],
}

impl<'a, const N: usize> LaneLevels<'a, N> {
    #[inline(always)]
    fn new(levels: &'a [Lv<'a>], lane_level: &[u8; N]) -> Self {
        let mut l = LaneLevels {
            w: [0; N],
            h: [0; N],
            fw: [0.0; N],
            fh: [0.0; N],
            level: *lane_level,
            levels,
        };
        let first = lane_level.first().copied().unwrap_or(0);
        if lane_level.iter().all(|&v| v == first) {
            let lv = levels.get(first as usize).copied().unwrap_or_default();
            l.w = [lv.w; N];
            l.h = [lv.h; N];
            l.fw = [lv.fw; N];
            l.fh = [lv.fh; N];
            return l;
        }
        for i in 0..N {
            let lv = levels
                .get(lane_level[i] as usize)
                .copied()
                .unwrap_or_default();
            l.w[i] = lv.w;
            l.h[i] = lv.h;
            l.fw[i] = lv.fw;
            l.fh[i] = lv.fh;
        }
        l
    }

    /// The canonical texel at (i, j) of lane `lane`'s level, or the border outside it.
    #[inline(always)]
    fn texel(&self, ctx: &Ctx<'_>, lane: usize, i: i32, j: i32) -> [u32; 4] {
        let lv = self
            .levels
            .get(self.level[lane] as usize)
            .copied()
            .unwrap_or_default();
        if i < 0 || j < 0 || i >= lv.w || j >= lv.h {
            return ctx.border;
        }
        let idx = j as usize * lv.w as usize + i as usize;
        lv.texels.get(idx).unwrap_or(ctx.border)
    }

    /// The bytes of the level every lane reads when that level is RGBA8 (the common
    /// case: one level per batch), else `None`.
    #[inline(always)]
    fn uniform_rgba8(&self) -> Option<(&'a [u8], i32, i32)> {
        let first = self.level[0];
        if self.level.iter().any(|&l| l != first) {
            return None;
        }
        let lv = self.levels.get(first as usize)?;
        match lv.texels {
            Texels::Unorm8 {
                bytes,
                base: Base::Rgba,
            } => Some((bytes, lv.w, lv.h)),
            _ => None,
        }
    }

    /// Texel (i[l], j[l]) of every lane as f32 channels, `out[c][lane]`.
    #[inline(always)]
    fn taps(&self, ctx: &Ctx<'_>, i: &[i32; N], j: &[i32; N], out: &mut [[f32; N]; 4]) {
        if let Some((bytes, w, h)) = self.uniform_rgba8() {
            // One 32-bit word per lane, then each channel decoded across the lanes:
            // v / 255 in f32 is the table's value for every byte (see the tests).
            let mut word = [0u32; N];
            let mut inside = [false; N];
            for l in 0..N {
                let ok = i[l] >= 0 && j[l] >= 0 && i[l] < w && j[l] < h;
                let k = (j[l] as usize)
                    .wrapping_mul(w as usize)
                    .wrapping_add(i[l] as usize);
                let b = if ok {
                    bytes.get(k * 4..k * 4 + 4)
                } else {
                    None
                };
                inside[l] = b.is_some();
                word[l] = b.map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            }
            // With FMA, x / 255 is x·r corrected once by the exact residual x - q·255: the
            // correctly rounded quotient for every byte (see the tests), without a division.
            let fma = crate::simd::isa() != crate::simd::Isa::Baseline;
            const R: f32 = 1.0 / 255.0;
            for c in 0..4 {
                let border = f32::from_bits(ctx.border[c]);
                for l in 0..N {
                    let x = ((word[l] >> (8 * c)) & 0xff) as f32;
                    let v = if fma {
                        let q = x * R;
                        (-q).mul_add(255.0, x).mul_add(R, q)
                    } else {
                        x / 255.0
                    };
                    out[c][l] = if inside[l] { v } else { border };
                }
            }
            return;
        }
        for l in 0..N {
            let t = self.texel(ctx, l, i[l], j[l]);
            for c in 0..4 {
                out[c][l] = f32::from_bits(t[c]);
            }
        }
    }
}

/// An RGBA8 texel's bytes as canonical floats: v / 255, correctly rounded. With FMA it is
/// x·r corrected once by the exact residual x - q·255, which gives the same bits for
/// every byte (see the tests) without a division.
#[inline(always)]
fn decode_rgba8(b: [u8; 4]) -> [f32; 4] {
    const R: f32 = 1.0 / 255.0;
    let x = b.map(f32::from);
    if crate::simd::isa() != crate::simd::Isa::Baseline {
        x.map(|x| {
            let q = x * R;
            (-q).mul_add(255.0, x).mul_add(R, q)
        })
    } else {
        x.map(|x| x / 255.0)
    }
}

/// Wraps `x` (texel indices of each lane) into `0..size` or the border indices -1/size,
/// as [`wrap`] does, with loops the common modes vectorise.
#[inline(always)]
fn wrap_lanes<const N: usize>(mode: Wrap, x: &mut [i32; N], size: &[i32; N], linear: bool) {
    match mode {
        Wrap::Repeat if size.iter().all(|&s| s > 0 && s & (s - 1) == 0) => {
            for i in 0..N {
                x[i] &= size[i] - 1;
            }
        }
        Wrap::ClampToEdge => {
            for i in 0..N {
                let c = x[i].max(0).min(size[i] - 1);
                x[i] = if size[i] <= 0 { -1 } else { c };
            }
        }
        _ => {
            for i in 0..N {
                x[i] = wrap(mode, x[i], size[i], linear);
            }
        }
    }
}

/// Unnormalised coordinates of every lane along one axis: `c * size + offset`, after the
/// CLAMP / MIRROR_CLAMP pre-clamp.
#[inline(always)]
fn texel_coords<const N: usize>(
    mode: Wrap,
    c: &[f32; N],
    size: &[f32; N],
    off: &[i32; N],
) -> [f32; N] {
    let mut u = [0.0f32; N];
    for i in 0..N {
        u[i] = c[i] * size[i] + off[i] as f32;
    }
    if matches!(mode, Wrap::Clamp | Wrap::MirrorClamp) {
        for i in 0..N {
            u[i] = preclamp(mode, u[i], size[i]);
        }
    }
    u
}

/// floor() of every lane as an integer ([`floor_i`]).
#[inline(always)]
fn floor_lanes<const N: usize>(x: &[f32; N]) -> [i32; N] {
    let mut r = [0i32; N];
    for i in 0..N {
        r[i] = floor_i(x[i]);
    }
    r
}

/// One level per lane, filtered with `filter`; results as f32 per channel.
#[inline(always)]
fn filter_lanes<const N: usize>(
    ctx: &Ctx<'_>,
    filter: Filter,
    lv: &LaneLevels<'_, N>,
    lanes: &Lanes<N>,
    out: &mut [[f32; N]; 4],
) {
    #[cfg(target_arch = "x86_64")]
    if filter == Filter::Linear && bilinear_rgba8_avx2(ctx, lv, lanes, out) {
        return;
    }
    let ws = ctx.s.wrap;
    let u = texel_coords(ws[0], &lanes.coord[0], &lv.fw, &lanes.offset[0]);
    let v = texel_coords(ws[1], &lanes.coord[1], &lv.fh, &lanes.offset[1]);
    match filter {
        Filter::Nearest => {
            let mut i = floor_lanes(&u);
            let mut j = floor_lanes(&v);
            wrap_lanes(ws[0], &mut i, &lv.w, false);
            wrap_lanes(ws[1], &mut j, &lv.h, false);
            lv.taps(ctx, &i, &j, out);
        }
        Filter::Linear => {
            let mut x = [0.0f32; N];
            let mut y = [0.0f32; N];
            for l in 0..N {
                x[l] = u[l] - 0.5;
                y[l] = v[l] - 0.5;
            }
            let mut i0 = floor_lanes(&x);
            let mut j0 = floor_lanes(&y);
            let mut a = [0.0f32; N];
            let mut b = [0.0f32; N];
            let mut i1 = [0i32; N];
            let mut j1 = [0i32; N];
            for l in 0..N {
                a[l] = x[l] - i0[l] as f32;
                b[l] = y[l] - j0[l] as f32;
                i1[l] = i0[l].wrapping_add(1);
                j1[l] = j0[l].wrapping_add(1);
            }
            wrap_lanes(ws[0], &mut i0, &lv.w, true);
            wrap_lanes(ws[0], &mut i1, &lv.w, true);
            wrap_lanes(ws[1], &mut j0, &lv.h, true);
            wrap_lanes(ws[1], &mut j1, &lv.h, true);
            if let Some((bytes, w, h)) = lv.uniform_rgba8() {
                // One lane at a time with its four channels side by side: each tap is one
                // 32-bit load and a 4-wide decode, no gathers across lanes.
                let border = ctx.border.map(f32::from_bits);
                let fetch = |i: i32, j: i32| -> [f32; 4] {
                    let ok = i >= 0 && j >= 0 && i < w && j < h;
                    let k = (j as usize)
                        .wrapping_mul(w as usize)
                        .wrapping_add(i as usize);
                    match ok.then(|| bytes.get(k * 4..k * 4 + 4)).flatten() {
                        Some(b) => decode_rgba8([b[0], b[1], b[2], b[3]]),
                        None => border,
                    }
                };
                // RGBA8 texels are in [0, 1]: with a border in [0, 1] and weights in [0, 1]
                // every step stays in [0, 1] and none can make a NaN, so the
                // canonicalising lerp is not needed.
                let unit = |v: &f32| (0.0..=1.0).contains(v);
                let finite = border.iter().all(unit) && a.iter().chain(&b).all(unit);
                if finite {
                    let lerp4 = |p: [f32; 4], q: [f32; 4], t: f32| -> [f32; 4] {
                        std::array::from_fn(|c| p[c] + (q[c] - p[c]) * t)
                    };
                    for l in 0..N {
                        let top = lerp4(fetch(i0[l], j0[l]), fetch(i1[l], j0[l]), a[l]);
                        let bottom = lerp4(fetch(i0[l], j1[l]), fetch(i1[l], j1[l]), a[l]);
                        let r = lerp4(top, bottom, b[l]);
                        for c in 0..4 {
                            out[c][l] = r[c];
                        }
                    }
                    return;
                }
                let lerp4 = |p: [f32; 4], q: [f32; 4], t: f32| -> [f32; 4] {
                    std::array::from_fn(|c| lerp(p[c], q[c], t))
                };
                for l in 0..N {
                    let top = lerp4(fetch(i0[l], j0[l]), fetch(i1[l], j0[l]), a[l]);
                    let bottom = lerp4(fetch(i0[l], j1[l]), fetch(i1[l], j1[l]), a[l]);
                    let r = lerp4(top, bottom, b[l]);
                    for c in 0..4 {
                        out[c][l] = r[c];
                    }
                }
                return;
            }
            let mut t = [[[0.0f32; N]; 4]; 4];
            lv.taps(ctx, &i0, &j0, &mut t[0]);
            lv.taps(ctx, &i1, &j0, &mut t[1]);
            lv.taps(ctx, &i0, &j1, &mut t[2]);
            lv.taps(ctx, &i1, &j1, &mut t[3]);
            // The reference's lerp4(lerp4(t00, t10, a), lerp4(t01, t11, a), b).
            for c in 0..4 {
                for l in 0..N {
                    let top = lerp(t[0][c][l], t[1][c][l], a[l]);
                    let bottom = lerp(t[2][c][l], t[3][c][l], a[l]);
                    out[c][l] = lerp(top, bottom, b[l]);
                }
            }
        }
    }
}

/// Bilinear lookups of every lane with the AVX2 kernel ([`crate::avx2`]) when every lane
/// reads an RGBA8 level and the CPU has AVX2; false (nothing written) otherwise.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn bilinear_rgba8_avx2<const N: usize>(
    ctx: &Ctx<'_>,
    lv: &LaneLevels<'_, N>,
    lanes: &Lanes<N>,
    out: &mut [[f32; N]; 4],
) -> bool {
    use crate::avx2::{Group, Levels, Params, W};
    if !N.is_multiple_of(W) || crate::simd::isa() < crate::simd::Isa::Avx2 {
        return false;
    }
    let mut bytes: [&[u8]; N] = [&[]; N];
    for l in 0..N {
        let texels = lv.levels.get(lv.level[l] as usize).map(|x| x.texels);
        match texels {
            Some(Texels::Unorm8 {
                bytes: b,
                base: Base::Rgba,
            }) if lv.w[l] > 0 && lv.h[l] > 0 => bytes[l] = b,
            _ => return false,
        }
    }
    let pow2 = |s: &[i32; N]| s.iter().all(|&s| s & (s - 1) == 0);
    let p = Params {
        wrap: [ctx.s.wrap[0], ctx.s.wrap[1]],
        border: ctx.border.map(f32::from_bits),
        pow2: [pow2(&lv.w), pow2(&lv.h)],
    };
    fn chunks<T>(a: &[T]) -> &[[T; W]] {
        a.as_chunks::<W>().0
    }
    let groups = chunks(&lanes.coord[0])
        .iter()
        .zip(chunks(&lanes.coord[1]))
        .zip(
            chunks(&lanes.offset[0])
                .iter()
                .zip(chunks(&lanes.offset[1])),
        )
        .zip(chunks(&lv.w).iter().zip(chunks(&lv.h)))
        .zip(chunks(&lv.fw).iter().zip(chunks(&lv.fh)))
        .zip(chunks(&bytes));
    for (k, (((((s, t), (off_u, off_v)), (w, h)), (fw, fh)), bytes)) in groups.enumerate() {
        let levels = if bytes.iter().all(|b| std::ptr::eq(*b, bytes[0])) {
            Levels::One {
                w: w[0],
                h: h[0],
                fw: fw[0],
                fh: fh[0],
                bytes: bytes[0],
            }
        } else {
            Levels::PerLane {
                w,
                h,
                fw,
                fh,
                bytes,
            }
        };
        let g = Group {
            s,
            t,
            off_u,
            off_v,
            levels: &levels,
        };
        let mut r = [[0.0f32; W]; 4];
        if !crate::simd::bilinear_rgba8(&p, &g, &mut r) {
            return false;
        }
        for c in 0..4 {
            out[c][k * W..k * W + W].copy_from_slice(&r[c]);
        }
    }
    true
}

/// How each lane filters: the filter, the two levels and the weight of the second.
struct LanePlan<const N: usize> {
    linear: [bool; N],
    l0: [u8; N],
    l1: [u8; N],
    weight: [f32; N],
    /// The second level contributes (the reference lerps only then).
    two: [bool; N],
}

/// Decides filter and levels per lane exactly as [`Ctx::sample_batch`] does.
#[inline(always)]
fn plan_lanes<const N: usize>(
    ctx: &Ctx<'_>,
    mode: LodMode,
    implicit: bool,
    lanes: &Lanes<N>,
    mask: u64,
    out: &mut [[u32; N]; 4],
) -> LanePlan<N> {
    let s = ctx.s;
    let lod_matters = (s.min_filter.mipmap.is_some() && ctx.target.has_mipmaps())
        || s.min_filter.filter != s.mag_filter;
    let threshold = lod::mag_threshold(s);
    let mut p = LanePlan {
        linear: [s.mag_filter == Filter::Linear; N],
        l0: [ctx.base as u8; N],
        l1: [ctx.base as u8; N],
        weight: [0.0; N],
        two: [false; N],
    };
    if !lod_matters {
        return p;
    }
    // With implicit derivatives every lane of a quad has the same lambda on a 2D
    // target (the derivatives are the quad's, the coordinate does not enter).
    let per_quad = mode == LodMode::Implicit && N.is_multiple_of(4);
    let mut lod = LaneLod::default();
    for i in 0..N {
        if mask & (1 << i) == 0 && !(per_quad && mask & (0xf << (i & !3)) != 0) {
            continue;
        }
        if !per_quad || i & 3 == 0 {
            lod = ctx.lane_lod(mode, implicit, false, false, lanes, i, out);
        }
        let lambda = lod.lambda;
        let (filter, levels) = if lambda > threshold {
            let lv = match s.min_filter.mipmap {
                Some(m) if ctx.target.has_mipmaps() => {
                    lod::select_levels(lambda, m, ctx.base, ctx.q)
                }
                _ => (ctx.base, ctx.base, 0.0),
            };
            (s.min_filter.filter, lv)
        } else {
            (s.mag_filter, (ctx.base, ctx.base, 0.0))
        };
        p.linear[i] = filter == Filter::Linear;
        p.l0[i] = levels.0 as u8;
        p.l1[i] = levels.1 as u8;
        p.weight[i] = levels.2;
        p.two[i] = levels.1 != levels.0 && levels.2 > 0.0;
    }
    p
}

/// One filter over the lanes in `which`, trilinear blend included, into `res`.
#[inline(always)]
fn filter_group<const N: usize>(
    ctx: &Ctx<'_>,
    filter: Filter,
    p: &LanePlan<N>,
    which: u64,
    levels: &[Lv<'_>],
    lanes: &Lanes<N>,
    res: &mut [[f32; N]; 4],
) {
    let mut v0 = [[0.0f32; N]; 4];
    filter_lanes(ctx, filter, &LaneLevels::new(levels, &p.l0), lanes, &mut v0);
    let mut second = 0u64;
    for i in 0..N {
        if p.two[i] {
            second |= 1 << i;
        }
    }
    second &= which;
    if second != 0 {
        let mut v1 = [[0.0f32; N]; 4];
        filter_lanes(ctx, filter, &LaneLevels::new(levels, &p.l1), lanes, &mut v1);
        for c in 0..4 {
            for i in 0..N {
                let l = lerp(v0[c][i], v1[c][i], p.weight[i]);
                v0[c][i] = if second & (1 << i) != 0 { l } else { v0[c][i] };
            }
        }
    }
    for c in 0..4 {
        for i in 0..N {
            if which & (1 << i) != 0 {
                res[c][i] = v0[c][i];
            }
        }
    }
}

crate::multiversion! {
    /// Filtered 2D lookups of the lanes in `mask` (see [`applies`]), written to `out`.
    pub(crate) fn sample_2d<const N: usize>(
        ctx: &Ctx<'_>,
        mode: LodMode,
        implicit: bool,
        lanes: &Lanes<N>,
        mask: u64,
        out: &mut [[u32; N]; 4],
    ) {
        let p = plan_lanes(ctx, mode, implicit, lanes, mask, out);
        // Lanes read levels base..=q only.
        let mut levels = [Lv::default(); MAX_LEVELS];
        let last = (ctx.q as usize).min(levels.len() - 1);
        for l in (ctx.base as usize).min(last)..=last {
            levels[l] = ctx.level(l as u32);
        }
        let mut linear = 0u64;
        for i in 0..N {
            if p.linear[i] {
                linear |= 1 << i;
            }
        }
        let mut res = [[0.0f32; N]; 4];
        if mask & linear != 0 {
            filter_group(ctx, Filter::Linear, &p, mask & linear, &levels, lanes, &mut res);
        }
        if mask & !linear != 0 {
            filter_group(ctx, Filter::Nearest, &p, mask & !linear, &levels, lanes, &mut res);
        }
        if ctx.s.swizzle == IDENTITY {
            // No swizzle and no depth expansion (colour formats only come here).
            for c in 0..4 {
                for i in 0..N {
                    let keep = mask & (1 << i) == 0;
                    out[c][i] = if keep { out[c][i] } else { res[c][i].to_bits() };
                }
            }
            return;
        }
        for i in 0..N {
            if mask & (1 << i) != 0 {
                let v = ctx.finish_float([res[0][i], res[1][i], res[2][i], res[3][i]]);
                for c in 0..4 {
                    out[c][i] = v[c];
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "fast_tests.rs"]
pub(crate) mod tests;
