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

use crate::avx2::{Levels, ANY_WRAP, CLAMP_TO_EDGE, REPEAT_POW2};
use crate::call::{Ctx, MAX_LEVELS};
use crate::error::TexError;
use crate::format::Base;
use crate::lod;
use crate::lod_avx2::LodParams;
use crate::nv::NvOpcode;
use crate::request::{Lanes, LodMode, OpKind, TexOp};
use crate::sample::execute;
use crate::sampler::{Filter, SamplerState, Swizzle, Wrap, MAX_LOD_BIAS};
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
    /// Sizes by absolute level number (base..=q filled).
    sizes: [Size; MAX_LEVELS],
    wrap: [Wrap; 2],
    /// Every level base..=q has a power-of-two width / height.
    pow2: [bool; 2],
    border: [f32; 4],
    /// lambda decides the levels (mipmapped) or the filter; otherwise every lane reads
    /// `base`.
    lod_matters: bool,
    mag_linear: bool,
    /// The sampler's LOD state for [`crate::lod_avx2::group_lod`].
    lod: crate::lod_avx2::LodParams,
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
        sample_registers(
            &self.texture,
            k,
            mode,
            implicit,
            offset,
            txp,
            coord,
            mask,
            out,
        )
    }
}

/// One texture instruction (TEX/TXP/TXB/TXL of a non-shadow 2D lookup with a constant
/// offset) of a binding with a specialised path, resolved once per draw
/// ([`Bound::site`]): [`Site::sample`] goes straight to the kernel picked for the
/// instruction's operation and the binding's filter and wrap, with no per-call choice
/// among them.
#[derive(Clone, Debug)]
pub struct Site {
    texture: Arc<Texture>,
    plan: Rgba8Plan,
    offset: [i32; 2],
    /// Which kernel, chosen by [`Bound::site`].
    run: crate::simd::SiteKernel,
    /// The kernel of a binding whose lanes all read the base level ([`run_level`]).
    level: LevelFn<SITE_LANES>,
    /// The base level's size, read by `avx2::site_level16` in every call (from the plan
    /// it was two dependent loads and an index check).
    base: Size,
}

/// A [`Site`]'s kernel as a plain function.
pub(crate) type SiteFn =
    fn(&Site, &[[u32; SITE_LANES]; 4], u64, &mut [[u32; SITE_LANES]; 4]) -> bool;

/// Lanes of a [`Site`]'s calls.
pub const SITE_LANES: usize = 16;

impl Bound {
    /// The [`Site`] of instruction `opcode` with texel offset `offset` (`fragment`:
    /// implicit derivatives exist, as for [`Bound::sample_nv`]), if this binding has a
    /// specialised path for it on this CPU.
    pub fn site(&self, opcode: NvOpcode, offset: [i32; 2], fragment: bool) -> Option<Site> {
        let k = self.rgba8.as_ref()?;
        if crate::simd::isa() < crate::simd::Isa::Avx2 {
            return None;
        }
        use crate::simd::SiteKernel;
        let plain: SiteFn = match opcode {
            // Every lane reads the base level with the magnification filter: bilinear
            // with a fixed wrap, where AVX-512 runs, straight into the sixteen-lane
            // kernel (no wrapper between the call and the kernel, no fallback kept
            // alive across it: a decline returns false to the caller's general path).
            NvOpcode::Tex | NvOpcode::Txb | NvOpcode::Txl if !k.lod_matters => {
                let identity = k.swizzle == [Swizzle::R, Swizzle::G, Swizzle::B, Swizzle::A];
                let wide = match (fixed_wrap(k), k.mag_linear, identity) {
                    (REPEAT_POW2, true, true) => SiteKernel::level16::<REPEAT_POW2, true>(),
                    (REPEAT_POW2, true, false) => SiteKernel::level16::<REPEAT_POW2, false>(),
                    (CLAMP_TO_EDGE, true, true) => SiteKernel::level16::<CLAMP_TO_EDGE, true>(),
                    (CLAMP_TO_EDGE, true, false) => SiteKernel::level16::<CLAMP_TO_EDGE, false>(),
                    _ => None,
                };
                match wide {
                    Some(run) => return Some(self.make_site(k, offset, run)),
                    None => run_level,
                }
            }
            NvOpcode::Tex if fragment => run_plan::<IMPLICIT, true, false>,
            NvOpcode::Tex => run_plan::<IMPLICIT, false, false>,
            NvOpcode::Txp if fragment => run_plan::<IMPLICIT, true, true>,
            NvOpcode::Txp => run_plan::<IMPLICIT, false, true>,
            NvOpcode::Txb if fragment => run_plan::<BIAS, true, false>,
            NvOpcode::Txb => run_plan::<BIAS, false, false>,
            NvOpcode::Txl => run_plan::<EXPLICIT, false, false>,
            _ => return None,
        };
        Some(self.make_site(k, offset, SiteKernel::plain(plain)))
    }

    fn make_site(&self, k: &Rgba8Plan, offset: [i32; 2], run: crate::simd::SiteKernel) -> Site {
        Site {
            texture: Arc::clone(&self.texture),
            plan: k.clone(),
            offset,
            run,
            level: level_kernel(k),
            base: k.sizes.get(k.base as usize).copied().unwrap_or_default(),
        }
    }
}

impl Site {
    /// The lanes of `mask` (f32 bits in `coord[component][lane]`), as
    /// [`Bound::sample_nv`] writes them; false (the caller takes the general path) when
    /// the kernels are not available.
    #[inline]
    pub fn sample(
        &self,
        coord: &[[u32; SITE_LANES]; 4],
        mask: u64,
        out: &mut [[u32; SITE_LANES]; 4],
    ) -> bool {
        #[cfg(test)]
        SITE_CALLS.with(|n| n.set(n.get() + 1));
        self.run.call(self, coord, mask & 0xffff, out)
    }

    /// What `avx2::site_level16` reads of the site: the base level (its size and RGBA8
    /// bytes), the texel offset and the swizzle.
    #[inline(always)]
    pub(crate) fn level16_args(&self) -> (crate::avx2::Level<'_>, [i32; 2], [Swizzle; 4]) {
        let z = self.base;
        let level = crate::avx2::Level {
            w: z.w,
            h: z.h,
            fw: z.fw,
            fh: z.fh,
            bytes: bytes_of(&self.texture, self.plan.base as i32),
        };
        (level, self.offset, self.plan.swizzle)
    }
}

#[cfg(test)]
thread_local! {
    /// Calls of [`Site::sample`] on this thread (tests prove the path ran).
    pub(crate) static SITE_CALLS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// [`LodMode`] as a constant of the [`Site`] kernels.
const IMPLICIT: u8 = 0;
const BIAS: u8 = 1;
const EXPLICIT: u8 = 2;

/// A [`Site`]'s lookup through [`sample_registers`] (the level of detail, then each
/// group's levels), with the operation fixed when compiled.
fn run_plan<const MODE: u8, const FRAGMENT: bool, const TXP: bool>(
    site: &Site,
    coord: &[[u32; SITE_LANES]; 4],
    mask: u64,
    out: &mut [[u32; SITE_LANES]; 4],
) -> bool {
    let mode = match MODE {
        IMPLICIT => LodMode::Implicit,
        BIAS => LodMode::Bias,
        _ => LodMode::Explicit,
    };
    let implicit = MODE != EXPLICIT && FRAGMENT;
    sample_registers(
        &site.texture,
        &site.plan,
        mode,
        implicit,
        site.offset,
        TXP,
        coord,
        mask,
        out,
    )
}

/// A [`Site`]'s lookup of a binding whose lanes all read the base level with the
/// magnification filter.
fn run_level(
    site: &Site,
    coord: &[[u32; SITE_LANES]; 4],
    mask: u64,
    out: &mut [[u32; SITE_LANES]; 4],
) -> bool {
    let f: &[[f32; SITE_LANES]; 4] = bytemuck::cast_ref(coord);
    (site.level)(
        &site.plan,
        &site.texture,
        [&f[0], &f[1]],
        site.offset,
        mask,
        out,
    )
}

/// One lookup's fixed inputs. Built by the callee from scalar arguments: built by the
/// caller and passed by reference, its fields were stored one by one and loaded in wider
/// pairs, and the loads stalled on store forwarding (perf: a third of the samples of
/// `sample_registers` in fill_1080p).
struct Call<'a> {
    k: &'a Rgba8Plan,
    tex: &'a Texture,
    mode: LodMode,
    implicit: bool,
    offset: [i32; 2],
}

crate::multiversion! {
    /// [`Rgba8Plan::sample`] from coordinate registers (TXP: divided by w), compiled
    /// per instruction set so its lane loops and copies are vectorised.
    #[allow(clippy::too_many_arguments)]
    fn sample_registers<const N: usize>(
        tex: &Texture,
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
            tex,
            mode,
            implicit,
            offset,
        };
        // The registers are read in place as floats (a copy of them cost stores and
        // loads in every call), except TXP's, divided by w.
        let f: &[f32] = bytemuck::cast_slice(coord.as_flattened());
        let row = |a: usize| -> &[f32; N] {
            f.get(a * N..a * N + N)
                .and_then(|r| r.try_into().ok())
                .unwrap_or(&[0.0; N])
        };
        let (mut c, w) = ([row(0), row(1), row(2)], row(3));
        let divided: [[f32; N]; 3];
        if txp {
            divided = std::array::from_fn(|a| std::array::from_fn(|i| c[a][i] / w[i]));
            c = [&divided[0], &divided[1], &divided[2]];
        }
        call.k.sample(&call, c, w, mask, out)
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
        let base = sizes.get(ctx.base as usize).copied().unwrap_or_default();
        Some(Rgba8Plan {
            base: ctx.base,
            sizes,
            wrap: [s.wrap[0], s.wrap[1]],
            pow2,
            border: ctx.border.map(f32::from_bits),
            lod_matters: s.min_filter.mipmap.is_some() || s.min_filter.filter != s.mag_filter,
            mag_linear: s.mag_filter == Filter::Linear,
            lod: LodParams {
                fw: base.fw,
                fh: base.fh,
                lod_bias: s.lod_bias,
                bias: (s.lod_bias + 0.0).clamp(-MAX_LOD_BIAS, MAX_LOD_BIAS),
                min_lod: s.min_lod.max(f32::NEG_INFINITY),
                max_lod: if s.max_lod.is_nan() {
                    f32::INFINITY
                } else {
                    s.max_lod
                },
                threshold: lod::mag_threshold(s),
                mipmap: match s.min_filter.mipmap {
                    None => 0,
                    Some(Filter::Nearest) => 1,
                    Some(Filter::Linear) => 2,
                },
                base: ctx.base as i32,
                q: ctx.q as i32,
                span: ctx.q.saturating_sub(ctx.base) as f32,
                mag_linear: s.mag_filter == Filter::Linear,
                min_linear: s.min_filter.filter == Filter::Linear,
            },
            swizzle: s.swizzle,
        })
    }

    /// Filters every lane (`c`: s, t, r; `lod`: the TXB bias / TXL level) and writes the
    /// lanes of `mask` to `out`; false if the AVX2 kernels are not available. (As one
    /// `target_feature` function entered once per call instead, fill_1080p took 10 % more
    /// CPU time, in and around the sampler.)
    #[inline(always)]
    fn sample<const N: usize>(
        &self,
        call: &Call<'_>,
        c: [&[f32; N]; 3],
        lod: &[f32; N],
        mask: u64,
        out: &mut [[u32; N]; 4],
    ) -> bool {
        use crate::avx2::{Params, W};
        use crate::lod_avx2::LodFrom;
        let (tex, mode, implicit, offset) = (call.tex, call.mode, call.implicit, call.offset);
        let from = match mode {
            LodMode::Explicit => LodFrom::Lod,
            _ if implicit => LodFrom::Derivatives,
            _ => LodFrom::Nothing,
        };
        let lane_bias = mode == LodMode::Bias;
        let p = Params {
            wrap: self.wrap,
            border: self.border,
            pow2: self.pow2,
        };
        if !self.lod_matters {
            return level_kernel(self)(self, tex, [c[0], c[1]], offset, mask, out);
        }
        let off_u = [offset[0]; W];
        let off_v = [offset[1]; W];
        let mut out = out.each_mut().map(|o| o.as_chunks_mut::<W>().0);
        let mut lods = [crate::lod_avx2::GroupLod::default(); 2];
        // Pairs of groups: their four quads share one log2.
        for pair in 0..N.div_ceil(2 * W) {
            let o = pair * 2 * W;
            let pair_mask = ((mask >> o) & 0xffff) as u32;
            if pair_mask == 0 {
                continue;
            }
            let k = &self.lod;
            let done = match (
                sixteen(c[0], o),
                sixteen(c[1], o),
                sixteen(c[2], o),
                sixteen(lod, o),
            ) {
                (Some(s), Some(t), Some(r), Some(l)) => {
                    crate::simd::lod_pair(k, from, lane_bias, s, t, r, l, pair_mask, &mut lods)
                }
                _ => lod_pair_padded(k, from, lane_bias, c, lod, o, pair_mask, &mut lods),
            };
            if !done {
                return false;
            }
            for half in 0..2 {
                let g = 2 * pair + half;
                let m = (pair_mask >> (half * W)) & 0xff;
                if g >= N / W || m == 0 {
                    continue;
                }
                let o = g * W;
                let lanes = Lanes2d {
                    s: group_of(c[0], o),
                    t: group_of(c[1], o),
                    off_u: &off_u,
                    off_v: &off_v,
                };
                let l = &lods[half];
                let (t0, t1);
                let first = if l.one0 >= 0 {
                    self.one_level(tex, l.one0)
                } else {
                    t0 = self.lane_levels(tex, &l.l0);
                    t0.levels()
                };
                let second = match l.second {
                    0 => None,
                    _ if l.one1 >= 0 => Some(self.one_level(tex, l.one1)),
                    _ => {
                        t1 = self.lane_levels(tex, &l.l1);
                        Some(t1.levels())
                    }
                };
                let g0 = lanes.group(&first);
                let g1 = second.as_ref().map(|g| lanes.group(g));
                let part = out.each_mut().map(|o| &mut o[g]);
                let done = match &g1 {
                    // Both levels bilinear in every lane that reads them.
                    Some(g1) if !l.linear & (m | l.second) & 0xff == 0 => {
                        let two = match fixed_wrap(self) {
                            REPEAT_POW2 => crate::simd::lookup_two::<REPEAT_POW2>,
                            CLAMP_TO_EDGE => crate::simd::lookup_two::<CLAMP_TO_EDGE>,
                            _ => crate::simd::lookup_two::<ANY_WRAP>,
                        };
                        two(&p, &g0, g1, &l.weight, l.second, self.swizzle, m, part)
                    }
                    _ => crate::simd::lookup_rgba8(
                        &p,
                        &g0,
                        g1.as_ref().map(|g| (g, &l.weight, l.second)),
                        l.linear,
                        self.swizzle,
                        m,
                        part,
                    ),
                };
                if !done {
                    return false;
                }
            }
        }
        true
    }

    /// Sizes and bytes of level `l`, which every lane of a group reads.
    #[inline(always)]
    fn one_level<'t>(&self, tex: &'t Texture, l: i32) -> Levels<'t> {
        let z = self.sizes.get(l as usize).copied().unwrap_or_default();
        Levels::One {
            w: z.w,
            h: z.h,
            fw: z.fw,
            fh: z.fh,
            bytes: bytes_of(tex, l),
        }
    }

    /// Sizes and bytes of the level each lane of a group reads (`level`), for a group
    /// whose lanes read several.
    #[cold]
    fn lane_levels<'t>(&self, tex: &'t Texture, level: &[i32; crate::avx2::W]) -> LaneLevels<'t> {
        let mut t = LaneLevels::default();
        for l in 0..crate::avx2::W {
            let z = self
                .sizes
                .get(level[l] as usize)
                .copied()
                .unwrap_or_default();
            (t.w[l], t.h[l], t.fw[l], t.fh[l]) = (z.w, z.h, z.fw, z.fh);
            t.bytes[l] = bytes_of(tex, level[l]);
        }
        t
    }
}

/// [`Rgba8Plan::sample`] of a binding whose lanes all read the base level with the
/// magnification filter: [`level_groups`] compiled for its filter and wrap.
type LevelFn<const N: usize> =
    fn(&Rgba8Plan, &Texture, [&[f32; N]; 2], [i32; 2], u64, &mut [[u32; N]; 4]) -> bool;

/// The wrap a bilinear kernel of `k` is compiled with, as `avx2::filter` fixes it.
fn fixed_wrap(k: &Rgba8Plan) -> u8 {
    match (k.wrap, k.pow2) {
        ([Wrap::Repeat, Wrap::Repeat], [true, true]) => REPEAT_POW2,
        ([Wrap::ClampToEdge, Wrap::ClampToEdge], _) => CLAMP_TO_EDGE,
        _ => ANY_WRAP,
    }
}

/// The [`LevelFn`] of `k`.
fn level_kernel<const N: usize>(k: &Rgba8Plan) -> LevelFn<N> {
    match (fixed_wrap(k), k.mag_linear) {
        (REPEAT_POW2, true) => level_groups::<N, REPEAT_POW2, true>,
        (CLAMP_TO_EDGE, true) => level_groups::<N, CLAMP_TO_EDGE, true>,
        (_, true) => level_groups::<N, ANY_WRAP, true>,
        (_, false) => level_groups::<N, ANY_WRAP, false>,
    }
}

/// Each group of `c` (s, t) with lanes in `mask` through `avx2::lookup_level`, or two
/// groups at a time through `avx2::lookup_level_pair` (bilinear, AVX-512): the base
/// level's sizes once per call.
fn level_groups<const N: usize, const MODE: u8, const LINEAR: bool>(
    k: &Rgba8Plan,
    tex: &Texture,
    c: [&[f32; N]; 2],
    offset: [i32; 2],
    mask: u64,
    out: &mut [[u32; N]; 4],
) -> bool {
    use crate::avx2::{Params, PAIR, W};
    let p = Params {
        wrap: k.wrap,
        border: k.border,
        pow2: k.pow2,
    };
    let off_u = [offset[0]; W];
    let off_v = [offset[1]; W];
    let levels = k.one_level(tex, k.base as i32);
    // Pairs of groups, bilinear, in 512-bit vectors where the CPU has them.
    let mut first = 0;
    if LINEAR && crate::simd::isa() >= crate::simd::Isa::Avx512 {
        let mut pairs = out.each_mut().map(|o| o.as_chunks_mut::<PAIR>().0);
        for q in 0..N / PAIR {
            let o = q * PAIR;
            let m = ((mask >> o) & 0xffff) as u32;
            if m == 0 {
                continue;
            }
            let half = |o: usize| Lanes2d {
                s: group_of(c[0], o),
                t: group_of(c[1], o),
                off_u: &off_u,
                off_v: &off_v,
            };
            let (l0, l1) = (half(o), half(o + W));
            let (g0, g1) = (l0.group(&levels), l1.group(&levels));
            let part = pairs.each_mut().map(|o| &mut o[q]);
            let pair = crate::simd::lookup_level_pair::<MODE>;
            if !pair(&p, &g0, &g1, offset, k.swizzle, m, part) {
                return false;
            }
        }
        first = N / PAIR * (PAIR / W);
    }
    let mut out = out.each_mut().map(|o| o.as_chunks_mut::<W>().0);
    for g in first..N / W {
        let o = g * W;
        let m = ((mask >> o) & 0xff) as u32;
        if m == 0 {
            continue;
        }
        let lanes = Lanes2d {
            s: group_of(c[0], o),
            t: group_of(c[1], o),
            off_u: &off_u,
            off_v: &off_v,
        };
        let part = out.each_mut().map(|o| &mut o[g]);
        let g0 = lanes.group(&levels);
        if !crate::simd::lookup_level::<MODE, LINEAR>(&p, &g0, k.swizzle, m, part) {
            return false;
        }
    }
    true
}

/// The per-lane tables [`Levels::PerLane`] borrows.
#[derive(Default)]
struct LaneLevels<'t> {
    w: [i32; crate::avx2::W],
    h: [i32; crate::avx2::W],
    fw: [f32; crate::avx2::W],
    fh: [f32; crate::avx2::W],
    bytes: [&'t [u8]; crate::avx2::W],
}

impl<'t> LaneLevels<'t> {
    fn levels(&self) -> Levels<'_> {
        Levels::PerLane {
            w: &self.w,
            h: &self.h,
            fw: &self.fw,
            fh: &self.fh,
            bytes: &self.bytes,
        }
    }
}

/// The 16 lanes of `a` from `o`, if `a` has them.
#[inline(always)]
fn sixteen<const N: usize>(a: &[f32; N], o: usize) -> Option<&[f32; 16]> {
    a.get(o..o + 16).and_then(|x| x.try_into().ok())
}

/// [`crate::simd::lod_pair`] of the lanes from `o` of a call with fewer than 16 left:
/// copied with zeros past `N`.
#[cold]
#[allow(clippy::too_many_arguments)]
fn lod_pair_padded<const N: usize>(
    k: &LodParams,
    from: crate::lod_avx2::LodFrom,
    lane_bias: bool,
    c: [&[f32; N]; 3],
    lod: &[f32; N],
    o: usize,
    mask: u32,
    out: &mut [crate::lod_avx2::GroupLod; 2],
) -> bool {
    let pad = |a: &[f32; N]| -> [f32; 16] {
        let mut r = [0.0; 16];
        for (r, a) in r.iter_mut().zip(a.iter().skip(o)) {
            *r = *a;
        }
        r
    };
    let (s, t, r, l) = (pad(c[0]), pad(c[1]), pad(c[2]), pad(lod));
    crate::simd::lod_pair(k, from, lane_bias, &s, &t, &r, &l, mask, out)
}

/// The [`crate::avx2::W`] lanes of `a` from `o`.
#[inline(always)]
fn group_of<const N: usize>(a: &[f32; N], o: usize) -> &[f32; crate::avx2::W] {
    a[o..o + crate::avx2::W]
        .try_into()
        .unwrap_or(&[0.0; crate::avx2::W])
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
fn bytes_of(tex: &Texture, l: i32) -> &[u8] {
    match tex.levels().get(l as usize).map(|x| x.source()) {
        Some(Texels::Unorm8 { bytes, .. }) => bytes,
        _ => &[],
    }
}

#[cfg(test)]
#[path = "bound_tests.rs"]
mod tests;
