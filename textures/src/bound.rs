//! A texture bound with its sampler state, prepared once per draw: completeness, the
//! border, level sizes and which specialised path its lookups take are decided here, not
//! in every 16-lane call.
//!
//! [`Bound::sample_nv`] runs TEX/TXP/TXB/TXL straight from the instruction's registers
//! when the binding has a specialised path (today: a 2D RGBA8 texture, any filter, wrap,
//! mipmap mode and swizzle, not anisotropic, with the AVX2 kernels of [`crate::avx2`]);
//! everything else goes
//! through [`Bound::execute`], i.e. [`crate::execute`]. Both give the bits of
//! [`crate::execute_reference`] (differential tests in `bound_tests.rs`).

// Lane loops index several per-lane arrays in step.
#![allow(clippy::needless_range_loop)]

use crate::avx2::Levels;
use crate::call::{Ctx, MAX_LEVELS};
use crate::error::TexError;
use crate::format::Base;
use crate::lod;
use crate::nv::NvOpcode;
use crate::request::{Lanes, LodMode, OpKind, TexOp};
use crate::sample::execute;
use crate::sampler::{Filter, SamplerState, Swizzle, Wrap};
use crate::texture::{Target, Texels, Texture};
use std::sync::Arc;

/// A texture and the sampler state it is read with, with per-draw decisions made.
#[derive(Clone, Debug)]
pub struct Bound {
    texture: Arc<Texture>,
    sampler: SamplerState,
    rgba8: Option<Rgba8Plan>,
}

/// Size of one level as the kernels use it.
#[derive(Copy, Clone, Debug, Default)]
struct Size {
    w: i32,
    h: i32,
    fw: f32,
    fh: f32,
}

/// A complete 2D RGBA8 texture, no sRGB decode, no compare, not anisotropic: lookups
/// take [`crate::avx2::lookup`] on every level they read.
#[derive(Clone, Debug)]
struct Rgba8Plan {
    base: u32,
    q: u32,
    /// Sizes by absolute level number (base..=q filled).
    sizes: [Size; MAX_LEVELS],
    wrap: [Wrap; 2],
    /// Every level base..=q has a power-of-two width / height.
    pow2: [bool; 2],
    border: [f32; 4],
    /// lambda decides the levels (mipmapped); otherwise every lane reads `base`.
    lod_matters: bool,
    mag_linear: bool,
    min_linear: bool,
    mipmap: Option<Filter>,
    threshold: f32,
    swizzle: [Swizzle; 4],
}

impl Bound {
    /// Prepares `texture` read with `sampler`.
    pub fn new(texture: Arc<Texture>, sampler: SamplerState) -> Bound {
        let rgba8 = Rgba8Plan::new(&texture, &sampler);
        Bound {
            texture,
            sampler,
            rgba8,
        }
    }

    /// The texture.
    pub fn texture(&self) -> &Arc<Texture> {
        &self.texture
    }

    /// The sampler state.
    pub fn sampler(&self) -> &SamplerState {
        &self.sampler
    }

    /// Whether lookups of this binding have a specialised path (see [`Bound::sample_nv`];
    /// it runs where the CPU has AVX2 and FMA).
    pub fn specialised(&self) -> bool {
        self.rgba8.is_some()
    }

    /// [`crate::execute`] with this binding.
    pub fn execute<const N: usize>(
        &self,
        op: &TexOp,
        lanes: &Lanes<N>,
        mask: u64,
        out: &mut [[u32; N]; 4],
    ) -> Result<(), TexError> {
        execute(&self.texture, &self.sampler, op, lanes, mask, out)
    }

    /// TEX/TXP/TXB/TXL of a non-shadow 2D lookup straight from the instruction's
    /// coordinate register (`coord[component][lane]`, f32 bits) with an immediate offset,
    /// when this binding has a specialised path: returns false (nothing written) when it
    /// has none, and the caller unpacks the operands for [`Bound::execute`]. `fragment`:
    /// implicit derivatives exist (lanes 4q..4q+3 form quads).
    pub fn sample_nv<const N: usize>(
        &self,
        opcode: NvOpcode,
        coord: &[[u32; N]; 4],
        offset: [i32; 2],
        fragment: bool,
        mask: u64,
        out: &mut [[u32; N]; 4],
    ) -> bool {
        let Some(k) = &self.rgba8 else {
            return false;
        };
        if !N.is_multiple_of(crate::avx2::W) || crate::simd::isa() < crate::simd::Isa::Avx2 {
            return false;
        }
        let mode = match opcode {
            NvOpcode::Tex | NvOpcode::Txp => LodMode::Implicit,
            NvOpcode::Txb => LodMode::Bias,
            NvOpcode::Txl => LodMode::Explicit,
            _ => return false,
        };
        let mask = if N == 64 {
            mask
        } else {
            mask & ((1u64 << N) - 1)
        };
        let implicit = matches!(mode, LodMode::Implicit | LodMode::Bias) && fragment;
        let txp = opcode == NvOpcode::Txp;
        // False only if the kernels became unavailable since the check above (tests
        // force instruction sets concurrently): the caller then takes the general path,
        // which rewrites every lane of the mask.
        sample_registers(self, k, mode, implicit, offset, txp, coord, mask, out)
    }
}

/// One lookup's fixed inputs. Built by the callee from scalar arguments: built by the
/// caller and passed by reference, its fields were stored one by one and loaded in wider
/// pairs, and the loads stalled on store forwarding (perf: a third of the samples of
/// `sample_registers` in fill_1080p).
struct Call<'a> {
    k: &'a Rgba8Plan,
    tex: &'a Texture,
    s: &'a SamplerState,
    mode: LodMode,
    implicit: bool,
    offset: [i32; 2],
}

crate::multiversion! {
    /// [`Rgba8Plan::sample`] from coordinate registers (TXP: divided by w), compiled
    /// per instruction set so its lane loops and copies are vectorised.
    #[allow(clippy::too_many_arguments)]
    fn sample_registers<const N: usize>(
        bound: &Bound,
        k: &Rgba8Plan,
        mode: LodMode,
        implicit: bool,
        offset: [i32; 2],
        txp: bool,
        coord: &[[u32; N]; 4],
        mask: u64,
        out: &mut [[u32; N]; 4],
    ) -> bool {
        let call = Call {
            k,
            tex: &bound.texture,
            s: &bound.sampler,
            mode,
            implicit,
            offset,
        };
        let mut c = [[0.0f32; N]; 3];
        let mut w = [0.0f32; N];
        for i in 0..N {
            w[i] = f32::from_bits(coord[3][i]);
            for a in 0..3 {
                c[a][i] = f32::from_bits(coord[a][i]);
            }
        }
        if txp {
            for a in &mut c {
                for i in 0..N {
                    a[i] /= w[i];
                }
            }
        }
        call.k.sample(&call, &c, &w, mask, out)
    }
}

impl Rgba8Plan {
    fn new(tex: &Texture, s: &SamplerState) -> Option<Rgba8Plan> {
        if tex.target() != Target::T2D || s.max_anisotropy > 1.0 {
            return None;
        }
        let op = TexOp {
            kind: OpKind::Sample(LodMode::Implicit),
            target: Target::T2D,
            shadow: false,
            quad_derivatives: true,
        };
        let ctx = Ctx::new(tex, s, &op).ok()?;
        if !ctx.plain || ctx.integer || ctx.depth || ctx.q == u32::MAX {
            return None;
        }
        let mut sizes = [Size::default(); MAX_LEVELS];
        let mut pow2 = [true; 2];
        for l in ctx.base..=ctx.q {
            let lv = ctx.level(l);
            if !matches!(
                lv.texels,
                Texels::Unorm8 {
                    base: Base::Rgba,
                    ..
                }
            ) || lv.w <= 0
                || lv.h <= 0
            {
                return None;
            }
            *sizes.get_mut(l as usize)? = Size {
                w: lv.w,
                h: lv.h,
                fw: lv.fw,
                fh: lv.fh,
            };
            pow2[0] &= lv.w & (lv.w - 1) == 0;
            pow2[1] &= lv.h & (lv.h - 1) == 0;
        }
        Some(Rgba8Plan {
            base: ctx.base,
            q: ctx.q,
            sizes,
            wrap: [s.wrap[0], s.wrap[1]],
            pow2,
            border: ctx.border.map(f32::from_bits),
            lod_matters: s.min_filter.mipmap.is_some() || s.min_filter.filter != s.mag_filter,
            mag_linear: s.mag_filter == Filter::Linear,
            min_linear: s.min_filter.filter == Filter::Linear,
            mipmap: s.min_filter.mipmap,
            threshold: lod::mag_threshold(s),
            swizzle: s.swizzle,
        })
    }

    /// lambda of lane `i`, as [`Ctx::lane_lod`] computes it for a 2D target.
    #[inline(always)]
    fn lambda<const N: usize>(
        &self,
        s: &SamplerState,
        mode: LodMode,
        implicit: bool,
        c: &[[f32; N]; 3],
        lod: &[f32; N],
        i: usize,
    ) -> f32 {
        let (dx, dy) = match mode {
            LodMode::Implicit | LodMode::Bias if implicit => {
                let q0 = i & !3;
                let d = |a: usize, k: usize| c[k].get(a).copied().unwrap_or(0.0) - c[k][q0];
                (
                    [d(q0 + 1, 0), d(q0 + 1, 1), d(q0 + 1, 2)],
                    [d(q0 + 2, 0), d(q0 + 2, 1), d(q0 + 2, 2)],
                )
            }
            _ => ([0.0; 3], [0.0; 3]),
        };
        let b = self.sizes[self.base as usize];
        let sc = [b.fw, b.fh, 0.0];
        let tdx = [dx[0] * sc[0], dx[1] * sc[1], dx[2] * sc[2]];
        let tdy = [dy[0] * sc[0], dy[1] * sc[1], dy[2] * sc[2]];
        let lambda_base = match mode {
            LodMode::Explicit => lod[i],
            _ => lod::rho(tdx, tdy).log2(),
        };
        let bias = if mode == LodMode::Bias { lod[i] } else { 0.0 };
        lod::adjust_clamped(lambda_base, bias, s, f32::NEG_INFINITY)
    }

    /// Filters every lane (`c`: s, t, r; `lod`: the TXB bias / TXL level) and writes the
    /// lanes of `mask` to `out`; false if the AVX2 kernels are not available.
    #[inline(always)]
    fn sample<const N: usize>(
        &self,
        call: &Call<'_>,
        c: &[[f32; N]; 3],
        lod: &[f32; N],
        mask: u64,
        out: &mut [[u32; N]; 4],
    ) -> bool {
        let (tex, s, mode, implicit, offset) =
            (call.tex, call.s, call.mode, call.implicit, call.offset);
        // Level pairs and the weight of the second, per lane.
        let mut l0 = [self.base as u8; N];
        let mut l1 = [self.base as u8; N];
        let mut weight = [0.0f32; N];
        let mut second = 0u64;
        // Lanes filtered LINEAR (the others NEAREST).
        let mut linear = if self.mag_linear { u64::MAX } else { 0 };
        if self.lod_matters {
            // With implicit derivatives the four lanes of a quad share lambda (the
            // reference computes it at the quad's first lane): levels once per quad.
            let per_quad = mode == LodMode::Implicit && N.is_multiple_of(4);
            let step = if per_quad { 4 } else { 1 };
            for i in (0..N).step_by(step) {
                let lanes: u64 = if per_quad { 0xf << i } else { 1 << i };
                if mask & lanes == 0 {
                    continue;
                }
                let lambda = self.lambda(s, mode, implicit, c, lod, i);
                if lambda <= self.threshold {
                    continue;
                }
                if self.min_linear {
                    linear |= lanes;
                } else {
                    linear &= !lanes;
                }
                let (a, b, t) = match self.mipmap {
                    Some(m) => lod::select_levels(lambda, m, self.base, self.q),
                    None => (self.base, self.base, 0.0),
                };
                for k in i..i + step {
                    l0[k] = a as u8;
                    l1[k] = b as u8;
                    weight[k] = t;
                }
                if b != a && t > 0.0 {
                    second |= lanes;
                }
            }
        }
        second &= mask;
        use crate::avx2::{Params, W};
        let p = Params {
            wrap: self.wrap,
            border: self.border,
            pow2: self.pow2,
        };
        let off_u = [offset[0]; W];
        let off_v = [offset[1]; W];
        let weights = weight.as_chunks::<W>().0;
        let mut out = out.each_mut().map(|o| o.as_chunks_mut::<W>().0);
        // Without mipmaps every lane reads the base level: its sizes once per call.
        let base = self
            .mipmap
            .is_none()
            .then(|| self.levels(tex, &[self.base as u8; W]));
        for g in 0..N / W {
            let o = g * W;
            let lanes = Lanes2d {
                s: c[0][o..o + W].try_into().unwrap_or(&[0.0; W]),
                t: c[1][o..o + W].try_into().unwrap_or(&[0.0; W]),
                off_u: &off_u,
                off_v: &off_v,
            };
            let l0: &[u8; W] = l0[o..o + W].try_into().unwrap_or(&[0; W]);
            let l1: &[u8; W] = l1[o..o + W].try_into().unwrap_or(&[0; W]);
            let own;
            let g0 = match &base {
                Some(b) => b,
                None => {
                    own = self.levels(tex, l0);
                    &own
                }
            };
            let g0 = lanes.group(g0);
            let sec = ((second >> o) & 0xff) as u32;
            let g1 = (sec != 0).then(|| self.levels(tex, l1));
            let g1 = g1.as_ref().map(|g| lanes.group(g));
            let part = out.each_mut().map(|o| &mut o[g]);
            let wt = weights.get(g).unwrap_or(&[0.0; W]);
            let done = crate::simd::lookup_rgba8(
                &p,
                &g0,
                g1.as_ref().map(|g| (g, wt, sec)),
                ((linear >> o) & 0xff) as u32,
                self.swizzle,
                ((mask >> o) & 0xff) as u32,
                part,
            );
            if !done {
                return false;
            }
        }
        true
    }

    /// Sizes and bytes of the level each lane of a group reads.
    #[inline(always)]
    fn levels<'t>(&self, tex: &'t Texture, level: &[u8; crate::avx2::W]) -> Levels<'t> {
        use crate::avx2::W;
        let first = level[0];
        if level.iter().all(|&l| l == first) {
            let z = self.sizes.get(first as usize).copied().unwrap_or_default();
            return Levels::One {
                w: z.w,
                h: z.h,
                fw: z.fw,
                fh: z.fh,
                bytes: bytes_of(tex, first),
            };
        }
        let (mut w, mut h, mut fw, mut fh) = ([0; W], [0; W], [0.0; W], [0.0; W]);
        let mut bytes: [&[u8]; W] = [&[]; W];
        for l in 0..W {
            let z = self
                .sizes
                .get(level[l] as usize)
                .copied()
                .unwrap_or_default();
            (w[l], h[l], fw[l], fh[l]) = (z.w, z.h, z.fw, z.fh);
            bytes[l] = bytes_of(tex, level[l]);
        }
        Levels::PerLane {
            w,
            h,
            fw,
            fh,
            bytes,
        }
    }
}

/// Coordinates and offsets of one group of lanes.
struct Lanes2d<'a> {
    s: &'a [f32; crate::avx2::W],
    t: &'a [f32; crate::avx2::W],
    off_u: &'a [i32; crate::avx2::W],
    off_v: &'a [i32; crate::avx2::W],
}

impl<'a> Lanes2d<'a> {
    /// The group of these lanes reading `levels`.
    fn group(&self, levels: &'a Levels<'a>) -> crate::avx2::Group<'a> {
        crate::avx2::Group {
            s: self.s,
            t: self.t,
            off_u: self.off_u,
            off_v: self.off_v,
            levels,
        }
    }
}

/// The bytes of RGBA8 level `l` (checked when the binding was prepared: the texture
/// behind the `Arc` does not change).
#[inline(always)]
fn bytes_of(tex: &Texture, l: u8) -> &[u8] {
    match tex.levels().get(l as usize).map(|x| x.source()) {
        Some(Texels::Unorm8 { bytes, .. }) => bytes,
        _ => &[],
    }
}

#[cfg(test)]
#[path = "bound_tests.rs"]
mod tests;
