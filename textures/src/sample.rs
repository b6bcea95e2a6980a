//! The batch entry point: runs one texture instruction for up to 64 lanes.
//!
//! Results are raw bits per lane in `out[component][lane]`: f32 bit patterns for float
//! and depth textures, i32/u32 values for integer textures (and for TXQ). Inactive lanes
//! are left untouched. Sampling an incomplete texture returns (0, 0, 0, 1).
//!
//! Precision note: texels are decoded to f32 once (at upload) and filtered in f32 with
//! exact GL weights; llvmpipe filters 8-bit formats with 8-bit fixed-point weights, so
//! bilinear results may differ from it by at most one 8-bit step.

use crate::aniso;
use crate::call::{Ctx, LaneLod, Lv, MAX_LEVELS, ONE};
use crate::cube;
use crate::error::TexError;
use crate::filter_math::{ceil_i, floor_i, lerp4, split};
use crate::lod;
use crate::pack::srgb_decode_unorm8;
use crate::request::{Lanes, LodMode, OpKind, TexOp};
use crate::sampler::{Filter, SamplerState, Wrap};
use crate::texture::{Target, Texture};
use crate::wrap::{preclamp, wrap};

/// Most lanes one call handles (the active mask is a `u64`).
pub const MAX_LANES: usize = 64;

/// Runs `op` for the lanes set in `mask` (bit i = lane i), writing `out[c][lane]`.
///
/// Filtered 2D lookups of plain colour textures take the specialised lane-loop path
/// ([`crate::fast`]); it gives the same bits as [`execute_reference`].
pub fn execute<const N: usize>(
    tex: &Texture,
    sampler: &SamplerState,
    op: &TexOp,
    lanes: &Lanes<N>,
    mask: u64,
    out: &mut [[u32; N]; 4],
) -> Result<(), TexError> {
    execute_with(tex, sampler, op, lanes, mask, out, true)
}

/// [`execute`] one lane at a time, never taking a specialised path: the reference the
/// fast paths are tested against.
pub fn execute_reference<const N: usize>(
    tex: &Texture,
    sampler: &SamplerState,
    op: &TexOp,
    lanes: &Lanes<N>,
    mask: u64,
    out: &mut [[u32; N]; 4],
) -> Result<(), TexError> {
    execute_with(tex, sampler, op, lanes, mask, out, false)
}

fn execute_with<const N: usize>(
    tex: &Texture,
    sampler: &SamplerState,
    op: &TexOp,
    lanes: &Lanes<N>,
    mask: u64,
    out: &mut [[u32; N]; 4],
    fast: bool,
) -> Result<(), TexError> {
    if N > MAX_LANES {
        return Err(TexError::Invalid(format!(
            "batch of {N} lanes (at most {MAX_LANES})"
        )));
    }
    let mask = if N == 64 {
        mask
    } else {
        mask & ((1u64 << N) - 1)
    };
    if op.target != tex.target() {
        return Err(TexError::TargetMismatch {
            wanted: format!("{:?}", op.target),
            have: format!("{:?}", tex.target()),
        });
    }
    let ctx = Ctx::new(tex, sampler, op)?;
    match op.kind {
        OpKind::Size => {
            for_lanes(mask, |i| {
                let l = ctx.base as i64 + lanes.icoord[0][i] as i64;
                let size = u32::try_from(l)
                    .ok()
                    .and_then(|l| tex.size(l))
                    .unwrap_or([0; 3]);
                out[0][i] = size[0];
                out[1][i] = size[1];
                out[2][i] = size[2];
                out[3][i] = 0;
            });
            Ok(())
        }
        OpKind::Fetch | OpKind::FetchMs => {
            for_lanes(mask, |i| {
                let v = ctx.fetch(op, lanes, i);
                for c in 0..4 {
                    out[c][i] = v[c];
                }
            });
            Ok(())
        }
        _ if ctx.q == u32::MAX => {
            let one = if ctx.integer { 1 } else { ONE };
            for_lanes(mask, |i| {
                out[0][i] = 0;
                out[1][i] = 0;
                out[2][i] = 0;
                out[3][i] = one;
            });
            Ok(())
        }
        OpKind::Gather { comp } | OpKind::GatherOffsets { comp } => {
            if !matches!(
                op.target,
                Target::T2D | Target::Rect | Target::Array2D | Target::Cube | Target::ArrayCube
            ) {
                return Err(TexError::Unsupported(format!(
                    "gather from {:?}",
                    op.target
                )));
            }
            let per_texel = matches!(op.kind, OpKind::GatherOffsets { .. });
            for_lanes(mask, |i| {
                let v = ctx.gather(op, lanes, i, comp, per_texel);
                for c in 0..4 {
                    out[c][i] = v[c];
                }
            });
            Ok(())
        }
        OpKind::Sample(mode) => {
            if op.target == Target::Buffer || op.target.is_multisample() {
                return Err(TexError::Invalid(format!(
                    "filtered lookup from {:?}",
                    op.target
                )));
            }
            ctx.sample_batch(op, mode, lanes, mask, out, false, fast)
        }
        OpKind::QueryLod => ctx.sample_batch(op, LodMode::Implicit, lanes, mask, out, true, false),
    }
}

#[inline]
fn for_lanes(mut mask: u64, mut f: impl FnMut(usize)) {
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        f(i);
    }
}

// The per-lane reference: texel reads, filters, gathers and fetches (the call's
// context and each lane's level of detail are in `call`).
impl<'a> Ctx<'a> {
    #[inline]
    fn layer_index(&self, layer: f32) -> i32 {
        floor_i(layer + 0.5).clamp(0, (self.layers - 1).max(0))
    }

    /// Raw canonical texel or the border for out-of-range indices.
    #[inline(always)]
    fn raw(&self, lv: &Lv, i: i32, j: i32, k: i32) -> ([u32; 4], bool) {
        if i < 0 || j < 0 || k < 0 || i >= lv.w || j >= lv.h || k >= lv.d {
            return (self.border, false);
        }
        let idx = ((k as usize * lv.h as usize + j as usize) * lv.w as usize + i as usize)
            * self.samples as usize;
        match lv.texels.get(idx) {
            Some(t) => (t, true),
            None => (self.border, false),
        }
    }

    /// A texel as floats, sRGB-decoded and depth-compared (channel 0) when applicable.
    #[inline(always)]
    fn tap(&self, lv: &Lv, i: i32, j: i32, k: i32, reference: f32) -> [f32; 4] {
        let off_i = i < 0 || i >= lv.w;
        let off_j = j < 0 || j >= lv.h;
        if self.seamless && off_i && off_j {
            // A corner of a cube face touches three faces: GL takes the average of the
            // three texels meeting there (§8.14.2.1).
            let ci = i.clamp(0, lv.w - 1);
            let cj = j.clamp(0, lv.h - 1);
            let a = self.tap_one(lv, ci, cj, k, reference);
            let b = self.tap_one(lv, i, cj, k, reference);
            let c = self.tap_one(lv, ci, j, k, reference);
            return std::array::from_fn(|n| (a[n] + b[n] + c[n]) / 3.0);
        }
        self.tap_one(lv, i, j, k, reference)
    }

    /// [`Ctx::tap`] for a texel at most one edge off its cube face.
    #[inline(always)]
    fn tap_one(&self, lv: &Lv, i: i32, j: i32, k: i32, reference: f32) -> [f32; 4] {
        let (i, j, k) = if self.seamless && (i < 0 || j < 0 || i >= lv.w || j >= lv.h) {
            let face = k.rem_euclid(6);
            let (f, ni, nj) = cube::remap_texel(face as u32, i, j, lv.w);
            (ni, nj, k - face + f as i32)
        } else {
            (i, j, k)
        };
        let (t, inside) = self.raw(lv, i, j, k);
        let mut v = t.map(f32::from_bits);
        if self.srgb && inside {
            for c in v.iter_mut().take(3) {
                *c = srgb_decode_unorm8(*c);
            }
        }
        if let Some((func, clamp)) = self.compare {
            let (r, d) = if clamp {
                (reference.clamp(0.0, 1.0), v[0].clamp(0.0, 1.0))
            } else {
                (reference, v[0])
            };
            v[0] = if func.test(r, d) { 1.0 } else { 0.0 };
        }
        v
    }

    /// Filters one level. `c` holds normalized coordinates (texel units for RECT; face
    /// s, t for cubes), `k` the layer/face slice for non-3D targets.
    fn filter_level(
        &self,
        l: u32,
        filter: Filter,
        c: [f32; 3],
        k: i32,
        off: [i32; 3],
        reference: f32,
    ) -> [f32; 4] {
        let lv = &self.level(l);
        let dims = self.target.dims();
        let rect = self.target == Target::Rect;
        let w = self.s.wrap;
        let (su, sv, sw) = if rect {
            (1.0, 1.0, 1.0)
        } else {
            (lv.fw, lv.fh, lv.fd)
        };
        let u = preclamp(w[0], c[0] * su + off[0] as f32, lv.fw);
        let v = if dims >= 2 {
            preclamp(w[1], c[1] * sv + off[1] as f32, lv.fh)
        } else {
            0.5
        };
        let is3d = dims == 3;
        let r = if is3d {
            preclamp(w[2], c[2] * sw + off[2] as f32, lv.fd)
        } else {
            0.0
        };
        let cube = self.seamless;
        let wr = |m, x: i32, size: i32, lin: bool| if cube { x } else { wrap(m, x, size, lin) };
        match filter {
            Filter::Nearest => {
                let i = wr(w[0], floor_i(u), lv.w, false);
                let j = if dims >= 2 {
                    wr(w[1], floor_i(v), lv.h, false)
                } else {
                    0
                };
                let kk = if is3d {
                    wrap(w[2], floor_i(r), lv.d, false)
                } else {
                    k
                };
                if self.plain {
                    return self.raw(lv, i, j, kk).0.map(f32::from_bits);
                }
                self.tap(lv, i, j, kk, reference)
            }
            Filter::Linear => {
                let (i0, a) = split(u - 0.5);
                let i1 = wr(w[0], i0.wrapping_add(1), lv.w, true);
                let i0 = wr(w[0], i0, lv.w, true);
                if dims == 1 {
                    let t0 = self.tap(lv, i0, 0, k, reference);
                    let t1 = self.tap(lv, i1, 0, k, reference);
                    return lerp4(t0, t1, a);
                }
                let (j0, b) = split(v - 0.5);
                let j1 = wr(w[1], j0.wrapping_add(1), lv.h, true);
                let j0 = wr(w[1], j0, lv.h, true);
                if !is3d && self.plain {
                    return self.bilinear_plain(lv, [i0, i1], [j0, j1], k, a, b);
                }
                let bilinear = |kk: i32| {
                    let t00 = self.tap(lv, i0, j0, kk, reference);
                    let t10 = self.tap(lv, i1, j0, kk, reference);
                    let t01 = self.tap(lv, i0, j1, kk, reference);
                    let t11 = self.tap(lv, i1, j1, kk, reference);
                    lerp4(lerp4(t00, t10, a), lerp4(t01, t11, a), b)
                };
                if !is3d {
                    return bilinear(k);
                }
                let (k0, g) = split(r - 0.5);
                let k1 = wrap(w[2], k0.wrapping_add(1), lv.d, true);
                let k0 = wrap(w[2], k0, lv.d, true);
                lerp4(bilinear(k0), bilinear(k1), g)
            }
        }
    }

    /// Bilinear filtering of one 2D slice for the common case (no sRGB decode, no depth
    /// compare, no seamless cube edges): row offsets are computed once and each texel is
    /// one bounds-checked read, the border standing in for anything outside.
    #[inline(always)]
    fn bilinear_plain(
        &self,
        lv: &Lv,
        i: [i32; 2],
        j: [i32; 2],
        k: i32,
        a: f32,
        b: f32,
    ) -> [f32; 4] {
        let row = |jj: i32| -> Option<usize> {
            (jj >= 0 && jj < lv.h && k >= 0 && k < lv.d)
                .then(|| (k as usize * lv.h as usize + jj as usize) * lv.w as usize)
        };
        let col = |ii: i32| -> Option<usize> { (ii >= 0 && ii < lv.w).then_some(ii as usize) };
        let (r0, r1, c0, c1) = (row(j[0]), row(j[1]), col(i[0]), col(i[1]));
        let get = |r: Option<usize>, c: Option<usize>| -> [f32; 4] {
            let t = match (r, c) {
                (Some(r), Some(c)) => lv.texels.get(r + c).unwrap_or(self.border),
                _ => self.border,
            };
            t.map(f32::from_bits)
        };
        let top = lerp4(get(r0, c0), get(r0, c1), a);
        let bottom = lerp4(get(r1, c0), get(r1, c1), a);
        lerp4(top, bottom, b)
    }

    /// Nearest integer texel for integer formats (never filtered).
    fn nearest_raw(&self, l: u32, c: [f32; 3], k: i32, off: [i32; 3]) -> [u32; 4] {
        let lv = &self.level(l);
        let dims = self.target.dims();
        let rect = self.target == Target::Rect;
        let w = self.s.wrap;
        let (su, sv, sw) = if rect {
            (1.0, 1.0, 1.0)
        } else {
            (lv.fw, lv.fh, lv.fd)
        };
        let mut i = floor_i(preclamp(w[0], c[0] * su + off[0] as f32, lv.fw));
        let mut j = if dims >= 2 {
            floor_i(preclamp(w[1], c[1] * sv + off[1] as f32, lv.fh))
        } else {
            0
        };
        let mut kk = k;
        if self.seamless {
            if i < 0 || j < 0 || i >= lv.w || j >= lv.h {
                let face = k.rem_euclid(6);
                let (f, ni, nj) = cube::remap_texel(face as u32, i, j, lv.w);
                (i, j, kk) = (ni, nj, k - face + f as i32);
            }
        } else {
            i = wrap(w[0], i, lv.w, false);
            if dims >= 2 {
                j = wrap(w[1], j, lv.h, false);
            }
            if dims == 3 {
                kk = wrap(
                    w[2],
                    floor_i(preclamp(w[2], c[2] * sw + off[2] as f32, lv.fd)),
                    lv.d,
                    false,
                );
            }
        }
        self.raw(lv, i, j, kk).0
    }

    /// Per-lane coordinates: (normalized coords or face s,t, slice k, direction for cubes).
    #[inline(always)]
    fn lane_coords<const N: usize>(&self, lanes: &Lanes<N>, i: usize) -> ([f32; 3], i32) {
        let c = [lanes.coord[0][i], lanes.coord[1][i], lanes.coord[2][i]];
        match self.target {
            Target::Cube | Target::ArrayCube => {
                let (face, s, t) = cube::project(c);
                let layer = if self.target == Target::ArrayCube {
                    self.layer_index(lanes.layer[i])
                } else {
                    0
                };
                ([s, t, 0.0], layer * 6 + face as i32)
            }
            Target::Array1D | Target::Array2D => (c, self.layer_index(lanes.layer[i])),
            _ => (c, 0),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn sample_batch<const N: usize>(
        &self,
        op: &TexOp,
        mode: LodMode,
        lanes: &Lanes<N>,
        mask: u64,
        out: &mut [[u32; N]; 4],
        query: bool,
        fast: bool,
    ) -> Result<(), TexError> {
        let implicit = matches!(mode, LodMode::Implicit | LodMode::Bias) && op.quad_derivatives;
        if implicit && N & 3 != 0 {
            return Err(TexError::Invalid(format!(
                "implicit derivatives need whole quads ({N} lanes)"
            )));
        }
        // Anisotropic filtering: an elliptical weighted average over one 2D level (see
        // `aniso`). Integer textures are never filtered; 1D and 3D ones filter isotropically.
        let ewa = self.s.max_anisotropy > 1.0
            && !matches!(mode, LodMode::Explicit)
            && !self.integer
            && matches!(
                self.target,
                Target::T2D | Target::Rect | Target::Array2D | Target::Cube | Target::ArrayCube
            );
        if fast && !query && crate::fast::applies(self, op, ewa) {
            crate::fast::sample_2d(self, mode, implicit, lanes, mask, out);
            return Ok(());
        }
        // With one filter for min and mag and no mipmaps, lambda changes nothing: skip the
        // derivatives and the log2 (the common case of piglit's NEAREST/LINEAR textures).
        let lod_matters = query
            || ewa
            || (self.s.min_filter.mipmap.is_some() && self.target.has_mipmaps())
            || self.s.min_filter.filter != self.s.mag_filter;
        for_lanes(mask, |i| {
            let lod = if lod_matters {
                self.lane_lod(mode, implicit, ewa, query, lanes, i, out)
            } else {
                LaneLod::default()
            };
            if query {
                return;
            }
            let lambda = lod.lambda;
            let (c, k) = self.lane_coords(lanes, i);
            let off = [lanes.offset[0][i], lanes.offset[1][i], lanes.offset[2][i]];
            let reference = lanes.reference[i];
            let threshold = lod::mag_threshold(self.s);
            // A footprint minified along its major axis is filtered anisotropically; one
            // magnified along both axes takes the magnification filter, as without.
            if ewa && lod.lambda_major > threshold {
                let l = match self.s.min_filter.mipmap {
                    Some(_) if self.target.has_mipmaps() => aniso::level(lambda, self.base, self.q),
                    _ => self.base,
                };
                let res = self.finish_float(self.ewa(l, c, k, off, reference, &lod));
                for ch in 0..4 {
                    out[ch][i] = res[ch];
                }
                return;
            }
            let minify = lambda > threshold;
            let (filter, levels) = if minify {
                let lv = match self.s.min_filter.mipmap {
                    Some(m) if self.target.has_mipmaps() => {
                        lod::select_levels(lambda, m, self.base, self.q)
                    }
                    _ => (self.base, self.base, 0.0),
                };
                (self.s.min_filter.filter, lv)
            } else {
                (self.s.mag_filter, (self.base, self.base, 0.0))
            };
            let res = if self.integer {
                self.swizzle_bits(self.nearest_raw(levels.0, c, k, off))
            } else {
                let v0 = self.filter_level(levels.0, filter, c, k, off, reference);
                let v = if levels.1 != levels.0 && levels.2 > 0.0 {
                    lerp4(
                        v0,
                        self.filter_level(levels.1, filter, c, k, off, reference),
                        levels.2,
                    )
                } else {
                    v0
                };
                self.finish_float(v)
            };
            for ch in 0..4 {
                out[ch][i] = res[ch];
            }
        });
        Ok(())
    }

    /// The elliptical weighted average of level `l` around `c` (see [`aniso`]): every
    /// texel whose centre lies in the footprint ellipse, Gaussian-weighted. Taps wrap as
    /// NEAREST lookups do; on seamless cube maps they continue onto the adjacent faces.
    fn ewa(
        &self,
        l: u32,
        c: [f32; 3],
        k: i32,
        off: [i32; 3],
        reference: f32,
        lod: &LaneLod,
    ) -> [f32; 4] {
        let lv = &self.level(l);
        let b = self.level(self.base);
        let rect = self.target == Target::Rect;
        // Derivatives in texels of level l (sizes need not halve exactly: NPOT chains).
        let (ku, kv) = if rect || b.w <= 0 || b.h <= 0 {
            (1.0, 1.0)
        } else {
            (lv.fw / b.fw, lv.fh / b.fh)
        };
        let (dx, dy) = (lod.dx, lod.dy);
        let ellipse = aniso::Ellipse::new([dx[0] * ku, dx[1] * kv], [dy[0] * ku, dy[1] * kv]);
        let (su, sv) = if rect { (1.0, 1.0) } else { (lv.fw, lv.fh) };
        let w = self.s.wrap;
        // Texel-centre space: texel (i, j) sits at (i, j).
        let cu = preclamp(w[0], c[0] * su + off[0] as f32, lv.fw) - 0.5;
        let cv = preclamp(w[1], c[1] * sv + off[1] as f32, lv.fh) - 0.5;
        // Far beyond any texture (or NaN): f32 no longer resolves texels there.
        const FAR: f32 = (1 << 24) as f32;
        let Some(e) = ellipse.filter(|_| cu.abs() < FAR && cv.abs() < FAR) else {
            return self.filter_level(l, Filter::Linear, c, k, off, reference);
        };
        let (_, half_v) = e.half_extents();
        let wr = |m, x: i32, size: i32| {
            if self.seamless {
                x
            } else {
                wrap(m, x, size, false)
            }
        };
        let (mut acc, mut acc2) = ([0.0f32; 4], [0.0f32; 4]);
        let (mut den, mut den2) = (0.0f32, 0.0f32);
        for j in floor_i(cv - half_v)..=ceil_i(cv + half_v) {
            let v = j as f32 - cv;
            let (lo, hi) = e.row_span(v);
            if lo > hi {
                continue;
            }
            let (i0, i1) = (ceil_i(cu + lo), floor_i(cu + hi));
            let jj = wr(w[1], j, lv.h);
            let (mut q, mut dq, ddq) = e.row(i0 as f32 - cu, v);
            // Plain texels: a run of consecutive texels of the row is read as one slice
            // (inside the level, or any stretch REPEAT maps onto consecutive texels).
            let row = (self.plain && (0..lv.h).contains(&jj) && (0..lv.d).contains(&k))
                .then(|| (k as usize * lv.h as usize + jj as usize) * lv.w as usize);
            let mut i = i0;
            while i <= i1 {
                let ii = wr(w[0], i, lv.w);
                let contiguous = (0..lv.w).contains(&ii) && (i == ii || w[0] == Wrap::Repeat);
                let run = match row {
                    Some(r) if contiguous => {
                        let n = (i1 - i + 1).min(lv.w - ii) as usize;
                        let start = r + ii as usize;
                        (start + n <= lv.texels.len()).then_some((start, n))
                    }
                    _ => None,
                };
                if let Some((start, n)) = run {
                    let texel = |k: usize| lv.texels.get(start + k).unwrap_or([0; 4]);
                    // Two texels per step with their own sums: halves the dependency
                    // chains (the quadratic's steps and the accumulation) per texel.
                    let mut k = 0;
                    while k + 1 < n {
                        let p = [texel(k), texel(k + 1)];
                        k += 2;
                        let (w0, w1) = (e.weight_at(q), e.weight_at(q + dq));
                        q += 2.0 * dq + ddq;
                        dq += 2.0 * ddq;
                        for c in 0..4 {
                            acc[c] += w0 * f32::from_bits(p[0][c]);
                            acc2[c] += w1 * f32::from_bits(p[1][c]);
                        }
                        den += w0;
                        den2 += w1;
                    }
                    if k < n {
                        let t = texel(k);
                        let weight = e.weight_at(q);
                        q += dq;
                        dq += ddq;
                        for (a, t) in acc.iter_mut().zip(t) {
                            *a += weight * f32::from_bits(t);
                        }
                        den += weight;
                    }
                    i += n.max(1) as i32;
                    continue;
                }
                let weight = e.weight_at(q);
                q += dq;
                dq += ddq;
                i += 1;
                if weight == 0.0 {
                    continue;
                }
                let t = if self.plain {
                    self.raw(lv, ii, jj, k).0.map(f32::from_bits)
                } else {
                    self.tap(lv, ii, jj, k, reference)
                };
                for (a, t) in acc.iter_mut().zip(t) {
                    *a += weight * t;
                }
                den += weight;
            }
        }
        let den = den + den2;
        if den > 0.0 {
            std::array::from_fn(|c| (acc[c] + acc2[c]) / den)
        } else {
            self.filter_level(l, Filter::Linear, c, k, off, reference)
        }
    }

    fn gather<const N: usize>(
        &self,
        op: &TexOp,
        lanes: &Lanes<N>,
        i: usize,
        comp: u8,
        per_texel: bool,
    ) -> [u32; 4] {
        let (c, k) = self.lane_coords(lanes, i);
        let lv = &self.level(self.base);
        let rect = self.target == Target::Rect;
        let w = self.s.wrap;
        let (su, sv) = if rect { (1.0, 1.0) } else { (lv.fw, lv.fh) };
        let reference = lanes.reference[i];
        let pick = |ii: i32, jj: i32| -> u32 {
            let wr = |m, x: i32, size: i32| {
                if self.seamless {
                    x
                } else {
                    wrap(m, x, size, true)
                }
            };
            let (ii, jj) = (wr(w[0], ii, lv.w), wr(w[1], jj, lv.h));
            if self.integer {
                let (mut ii, mut jj, mut kk) = (ii, jj, k);
                if self.seamless && (ii < 0 || jj < 0 || ii >= lv.w || jj >= lv.h) {
                    let face = k.rem_euclid(6);
                    let (f, ni, nj) = cube::remap_texel(face as u32, ii, jj, lv.w);
                    (ii, jj, kk) = (ni, nj, k - face + f as i32);
                }
                let t = self.swizzle_bits(self.raw(lv, ii, jj, kk).0);
                return t[(comp & 3) as usize];
            }
            let t = self.tap(lv, ii, jj, k, reference);
            if op.shadow && self.compare.is_some() {
                return t[0].to_bits();
            }
            self.finish_float(t)[(comp & 3) as usize]
        };
        if per_texel {
            let mut res = [0u32; 4];
            for (t, r) in res.iter_mut().enumerate() {
                let ox = lanes.gather_offsets[0][t][i];
                let oy = lanes.gather_offsets[1][t][i];
                let u = preclamp(w[0], c[0] * su + ox as f32, lv.fw) - 0.5;
                let v = preclamp(w[1], c[1] * sv + oy as f32, lv.fh) - 0.5;
                *r = pick(floor_i(u), floor_i(v));
            }
            res
        } else {
            let off = [lanes.offset[0][i], lanes.offset[1][i]];
            let u = preclamp(w[0], c[0] * su + off[0] as f32, lv.fw) - 0.5;
            let v = preclamp(w[1], c[1] * sv + off[1] as f32, lv.fh) - 0.5;
            let (i0, j0) = (floor_i(u), floor_i(v));
            [
                pick(i0, j0.wrapping_add(1)),
                pick(i0.wrapping_add(1), j0.wrapping_add(1)),
                pick(i0.wrapping_add(1), j0),
                pick(i0, j0),
            ]
        }
    }

    /// TXF / TXFMS: no wrap, no filtering; out-of-range fetches return zeros (GL leaves
    /// them undefined; zero is what robust access returns).
    fn fetch<const N: usize>(&self, op: &TexOp, lanes: &Lanes<N>, i: usize) -> [u32; 4] {
        let ic = [
            lanes.icoord[0][i],
            lanes.icoord[1][i],
            lanes.icoord[2][i],
            lanes.icoord[3][i],
        ];
        let off = [lanes.offset[0][i], lanes.offset[1][i], lanes.offset[2][i]];
        let ms = op.kind == OpKind::FetchMs;
        let (level, sample) = if ms {
            (0i64, ic[3])
        } else if self.target.has_mipmaps() {
            (self.base as i64 + ic[3] as i64, 0)
        } else {
            (0, 0)
        };
        let zero = [0u32; 4];
        if level < 0 || level >= MAX_LEVELS as i64 || sample < 0 || sample as u32 >= self.samples {
            return zero;
        }
        let lv = &self.level(level as u32);
        if lv.texels.is_empty() {
            return zero;
        }
        let (x, y, z) = match self.target {
            Target::T1D | Target::Buffer => (ic[0].wrapping_add(off[0]), 0, 0),
            Target::Array1D => (ic[0].wrapping_add(off[0]), 0, ic[1]),
            Target::T2D | Target::Rect | Target::T2DMs => {
                (ic[0].wrapping_add(off[0]), ic[1].wrapping_add(off[1]), 0)
            }
            Target::Array2D | Target::Array2DMs | Target::T3D => {
                let dz = if self.target == Target::T3D {
                    off[2]
                } else {
                    0
                };
                (
                    ic[0].wrapping_add(off[0]),
                    ic[1].wrapping_add(off[1]),
                    ic[2].wrapping_add(dz),
                )
            }
            Target::Cube | Target::ArrayCube => return zero,
        };
        if x < 0 || y < 0 || z < 0 || x >= lv.w || y >= lv.h || z >= lv.d {
            return zero;
        }
        let idx = ((z as usize * lv.h as usize + y as usize) * lv.w as usize + x as usize)
            * self.samples as usize
            + sample as usize;
        let Some(t) = lv.texels.get(idx) else {
            return zero;
        };
        if self.integer {
            return self.swizzle_bits(t);
        }
        let mut v = t.map(f32::from_bits);
        if self.srgb {
            for c in v.iter_mut().take(3) {
                *c = srgb_decode_unorm8(*c);
            }
        }
        self.finish_float(v)
    }
}

#[cfg(test)]
#[path = "sample_tests.rs"]
mod tests;
