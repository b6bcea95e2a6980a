//! One texture call's context: everything that does not vary per lane (levels,
//! completeness, border, sampler state), each lane's level of detail and the final
//! depth-mode expansion and swizzle. The per-lane reference ([`crate::sample`]) and the
//! batch fast path ([`crate::fast`]) both build on it.

use crate::aniso;
use crate::cube;
use crate::error::TexError;
use crate::format::{Base, Channel, Format, SampleType};
use crate::lod;
use crate::request::{Lanes, LodMode, TexOp};
use crate::sampler::{CompareFunc, DepthMode, Filter, SamplerState, Swizzle};
use crate::texture::{Level, Target, Texels, Texture};

pub(crate) const MAX_LEVELS: usize = 17;

pub(crate) use crate::format::ONE_F as ONE;

/// Level `l` in the form the filters use (sizes as int and float); a missing level reads
/// as empty, so every texel of it is the border.
#[inline(always)]
fn lv_of(levels: &[Level], l: u32) -> Lv<'_> {
    match levels.get(l as usize) {
        Some(x) => Lv {
            w: x.width as i32,
            h: x.height as i32,
            d: x.depth as i32,
            fw: x.width as f32,
            fh: x.height as f32,
            fd: x.depth as f32,
            texels: x.source(),
        },
        None => Lv::default(),
    }
}

#[derive(Copy, Clone, Default)]
pub(crate) struct Lv<'a> {
    pub(crate) w: i32,
    pub(crate) h: i32,
    pub(crate) d: i32,
    pub(crate) fw: f32,
    pub(crate) fh: f32,
    pub(crate) fd: f32,
    pub(crate) texels: Texels<'a>,
}

/// One lane's level of detail.
#[derive(Clone, Copy, Default)]
pub(crate) struct LaneLod {
    /// lambda after bias and clamps (anisotropic filtering: of the level it walks).
    pub(crate) lambda: f32,
    /// Anisotropic filtering: lambda of the footprint's major axis (bias and clamps
    /// applied), which decides minification.
    pub(crate) lambda_major: f32,
    /// Texel-space derivatives (base level) along x and y.
    pub(crate) dx: [f32; 3],
    pub(crate) dy: [f32; 3],
}

/// Everything about one call that does not vary per lane.
pub(crate) struct Ctx<'a> {
    pub(crate) levels: &'a [Level],
    pub(crate) base: u32,
    pub(crate) q: u32,
    pub(crate) s: &'a SamplerState,
    pub(crate) target: Target,
    pub(crate) border: [u32; 4],
    pub(crate) integer: bool,
    pub(crate) depth: bool,
    pub(crate) srgb: bool,
    pub(crate) compare: Option<(CompareFunc, bool)>,
    pub(crate) seamless: bool,
    /// No sRGB decode, compare or seamless remap: texels are used as stored.
    pub(crate) plain: bool,
    pub(crate) layers: i32,
    pub(crate) samples: u32,
}

fn normalized_range(format: Format) -> Option<(f32, f32)> {
    match format {
        Format::Plain(_, Channel::Unorm8 | Channel::Unorm16) => Some((0.0, 1.0)),
        Format::Plain(_, Channel::Snorm8 | Channel::Snorm16) => Some((-1.0, 1.0)),
        Format::Plain(..) | Format::R11fG11fB10f | Format::Rgb9E5 | Format::Rgb10A2Ui => None,
        Format::Depth32F | Format::Depth32FStencil8 => None,
        _ => Some((0.0, 1.0)),
    }
}

/// The border colour as a canonical texel of the format: components the format lacks
/// come from the base-format mapping, fixed-point formats clamp it to their range.
fn border_texel(format: Format, s: &SamplerState) -> [u32; 4] {
    let b = s.border;
    match format.sample_type() {
        SampleType::Depth => {
            let d = f32::from_bits(b[0]);
            let d = if normalized_range(format).is_some() {
                d.clamp(0.0, 1.0)
            } else {
                d
            };
            [d.to_bits(), 0, 0, ONE]
        }
        SampleType::Sint | SampleType::Uint => {
            let base = format.base();
            base.expand(base.select(b), 1)
        }
        SampleType::Float => {
            let base = format.base();
            let v = match normalized_range(format) {
                Some((lo, hi)) => b.map(|c| f32::from_bits(c).clamp(lo, hi).to_bits()),
                None => b,
            };
            let base = if matches!(format, Format::Plain(..)) {
                base
            } else {
                Base::Rgba
            };
            let mut t = base.expand(base.select(v), ONE);
            if matches!(
                format,
                Format::Srgb8
                    | Format::Rgb565
                    | Format::R11fG11fB10f
                    | Format::Rgb9E5
                    | Format::Bc1Rgb
                    | Format::Bc1Srgb
            ) {
                t[3] = ONE;
            }
            t
        }
    }
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(
        tex: &'a Texture,
        s: &'a SamplerState,
        op: &TexOp,
    ) -> Result<Ctx<'a>, TexError> {
        let levels = tex.levels();
        let format = tex.format();
        let integer = format.is_integer();
        let depth = format.is_depth();
        let nlev = tex.num_levels();
        let base = if tex.target().has_mipmaps() {
            s.base_level
        } else {
            0
        };
        // Completeness (GL 4.6 §8.17): q = u32::MAX marks an incomplete texture.
        let mut q = u32::MAX;
        if base < nlev {
            let mip = tex.target().has_mipmaps() && s.min_filter.mipmap.is_some();
            let filters_ok = !integer
                || (s.mag_filter == Filter::Nearest
                    && s.min_filter.filter == Filter::Nearest
                    && s.min_filter.mipmap != Some(Filter::Linear));
            if filters_ok {
                if mip {
                    let b = lv_of(levels, base);
                    let maxdim = match tex.target() {
                        Target::T3D => b.w.max(b.h).max(b.d),
                        Target::T1D | Target::Array1D => b.w,
                        _ => b.w.max(b.h),
                    };
                    let p = base + (31 - (maxdim.max(1) as u32).leading_zeros());
                    let want = p.min(s.max_level.max(base));
                    if want < nlev {
                        q = want;
                    }
                } else {
                    q = base;
                }
            }
        }
        let compare = if op.shadow && depth {
            Some((s.compare_func, normalized_range(format).is_some()))
        } else {
            None
        };
        Ok(Ctx {
            levels,
            base,
            q,
            s,
            target: tex.target(),
            border: border_texel(format, s),
            integer,
            depth,
            srgb: format.is_srgb() && s.srgb_decode,
            compare,
            seamless: s.seamless_cube && tex.target().is_cube(),
            plain: !(s.seamless_cube && tex.target().is_cube())
                && compare.is_none()
                && !(format.is_srgb() && s.srgb_decode)
                && tex.samples() == 1,
            layers: tex.layers() as i32,
            samples: tex.samples(),
        })
    }

    #[inline]
    pub(crate) fn level(&self, l: u32) -> Lv<'a> {
        lv_of(self.levels, l)
    }

    /// Expands a filtered depth/compare value per DEPTH_TEXTURE_MODE.
    #[inline(always)]
    fn depth_expand(&self, v: [f32; 4]) -> [f32; 4] {
        if !self.depth {
            return v;
        }
        let d = v[0];
        match self.s.depth_mode {
            DepthMode::Luminance => [d, d, d, 1.0],
            DepthMode::Intensity => [d; 4],
            DepthMode::Alpha => [0.0, 0.0, 0.0, d],
            DepthMode::Red => [d, 0.0, 0.0, 1.0],
        }
    }

    #[inline(always)]
    pub(crate) fn swizzle_bits(&self, v: [u32; 4]) -> [u32; 4] {
        let one = if self.integer { 1 } else { ONE };
        self.s.swizzle.map(|sw| match sw {
            Swizzle::R => v[0],
            Swizzle::G => v[1],
            Swizzle::B => v[2],
            Swizzle::A => v[3],
            Swizzle::Zero => 0,
            Swizzle::One => one,
        })
    }

    #[inline(always)]
    pub(crate) fn finish_float(&self, v: [f32; 4]) -> [u32; 4] {
        self.swizzle_bits(self.depth_expand(v).map(f32::to_bits))
    }

    /// Texel-space derivatives (x and y) of lane `i` from coordinate-space ones.
    #[inline]
    fn texel_derivs(&self, coord: [f32; 3], dx: [f32; 3], dy: [f32; 3]) -> ([f32; 3], [f32; 3]) {
        let b = self.level(self.base);
        match self.target {
            Target::Cube | Target::ArrayCube => {
                let (face, _, _) = cube::project(coord);
                let (sx, tx) = cube::face_derivative(face, coord, dx);
                let (sy, ty) = cube::face_derivative(face, coord, dy);
                ([sx * b.fw, tx * b.fh, 0.0], [sy * b.fw, ty * b.fh, 0.0])
            }
            Target::Rect => ([dx[0], dx[1], 0.0], [dy[0], dy[1], 0.0]),
            t => {
                let dims = t.dims();
                let sc = [
                    b.fw,
                    if dims >= 2 { b.fh } else { 0.0 },
                    if dims == 3 { b.fd } else { 0.0 },
                ];
                (
                    [dx[0] * sc[0], dx[1] * sc[1], dx[2] * sc[2]],
                    [dy[0] * sc[0], dy[1] * sc[1], dy[2] * sc[2]],
                )
            }
        }
    }

    /// lambda (after bias and clamps) and the texel-space derivatives of lane `i`; with
    /// `ewa` lambda is the anisotropic one. For LOD queries also writes the result.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn lane_lod<const N: usize>(
        &self,
        mode: LodMode,
        implicit: bool,
        ewa: bool,
        query: bool,
        lanes: &Lanes<N>,
        i: usize,
        out: &mut [[u32; N]; 4],
    ) -> LaneLod {
        let coord = [lanes.coord[0][i], lanes.coord[1][i], lanes.coord[2][i]];
        // Coordinate-space derivatives: coarse (per quad) for implicit LOD.
        let (dx, dy) = match mode {
            LodMode::Implicit | LodMode::Bias if implicit => {
                let q0 = i & !3;
                let d = |a: usize, c: usize| {
                    lanes.coord[c].get(a).copied().unwrap_or(0.0) - lanes.coord[c][q0]
                };
                (
                    [d(q0 + 1, 0), d(q0 + 1, 1), d(q0 + 1, 2)],
                    [d(q0 + 2, 0), d(q0 + 2, 1), d(q0 + 2, 2)],
                )
            }
            LodMode::Gradients => (
                [lanes.ddx[0][i], lanes.ddx[1][i], lanes.ddx[2][i]],
                [lanes.ddy[0][i], lanes.ddy[1][i], lanes.ddy[2][i]],
            ),
            _ => ([0.0; 3], [0.0; 3]),
        };
        let (tdx, tdy) = self.texel_derivs(coord, dx, dy);
        let (lambda_base, lambda_major) = match mode {
            LodMode::Explicit => (lanes.lod[i], lanes.lod[i]),
            _ if ewa => aniso::lambdas(tdx, tdy, self.s.max_anisotropy),
            _ => {
                let l = glemu_math::log2(lod::rho(tdx, tdy));
                (l, l)
            }
        };
        let bias = if mode == LodMode::Bias {
            lanes.lod[i]
        } else {
            0.0
        };
        let clamp = lanes.lod_clamp[i];
        let lambda = lod::adjust_clamped(lambda_base, bias, self.s, clamp);
        if query {
            let v = self.query_lod(
                lambda_base + (self.s.lod_bias + bias).clamp(-16.0, 16.0),
                lambda,
            );
            out[0][i] = v[0].to_bits();
            out[1][i] = v[1].to_bits();
            out[2][i] = 0;
            out[3][i] = 0;
        }
        LaneLod {
            lambda,
            lambda_major: lod::adjust_clamped(lambda_major, bias, self.s, clamp),
            dx: tdx,
            dy: tdy,
        }
    }

    fn query_lod(&self, lambda_prime: f32, lambda: f32) -> [f32; 2] {
        let span = self.q.saturating_sub(self.base) as f32;
        let x = match self.s.min_filter.mipmap {
            None => 0.0,
            Some(_) if lambda <= lod::mag_threshold(self.s) => 0.0,
            Some(Filter::Nearest) => {
                let (d, _, _) = lod::select_levels(lambda, Filter::Nearest, self.base, self.q);
                (d - self.base) as f32
            }
            Some(Filter::Linear) => lambda.clamp(0.0, span),
        };
        [x, lambda_prime]
    }
}
