//! Anisotropic filtering as an elliptical weighted average (EWA; Heckbert, "Fundamentals
//! of Texture Mapping and Image Warping", 1989): the pixel's footprint in texel space is the
//! ellipse spanned by the two screen-space derivative vectors, widened by one texel (the
//! reconstruction filter) so it never shrinks below a texel; every texel centre inside it
//! contributes with a Gaussian weight `exp(-2 r^2)` of its elliptical radius `r` (1 on the
//! boundary). This is the filter Mesa's llvmpipe and softpipe use, so reference images
//! agree with glemu's.
//!
//! EXT_texture_filter_anisotropic leaves the footprint to the implementation but bounds
//! the degree of anisotropy: the level is chosen from `max(Pmin, Pmax / max_aniso)`, so
//! with a finer level than isotropic filtering would pick, the ellipse stays at most
//! about `2 * max_aniso` texels long.
//!
//! Where llvmpipe (Mesa 22.3) differs, on purpose:
//! * it always takes the level from `Pmin` (its `Pmax / max_aniso` test never fires), so
//!   any TEXTURE_MAX_ANISOTROPY above 1 acts as unlimited; the two agree wherever
//!   `Pmax / Pmin <= max_aniso`;
//! * it filters magnified footprints with the ellipse too (a Gaussian blur of radius one
//!   texel); glemu keeps the magnification filter when both axes are magnified;
//! * it reads each texel at its corner rather than its centre, which under the mirrored
//!   wrap modes picks the neighbouring texel in every mirrored period.

use std::sync::OnceLock;

/// Entries of the weight table, indexed by `r^2` scaled to `0..=LUT_SIZE - 1`.
const LUT_SIZE: usize = 1024;

/// Gaussian falloff: the weight at the ellipse's boundary is `exp(-ALPHA)`.
const ALPHA: f32 = 2.0;

/// Bound on `sqrt(F)`, the ellipse's area over pi (texels of the chosen level), i.e. on
/// the texels one lookup weighs (about `pi * sqrt(F)`). With derivatives `dx`, `dy`,
/// `F = det(dx, dy)^2 + |dx|^2 + |dy|^2 + 1`; the level choice keeps `Pmin < 2` and
/// `Pmax < 2 * max_aniso <= 32`, so `F < 72^2` and no ordinary footprint comes near it.
/// Only one the mip chain cannot shrink (a level clamped by BASE/MAX_LEVEL or MIN/MAX_LOD,
/// a texture without mipmaps, a large negative LOD bias) exceeds it, and shrinks to it
/// as a whole, keeping its shape.
pub const MAX_SQRT_F: f32 = 80.0;

/// Weights for `r^2 = i / (LUT_SIZE - 1)`: a table keeps `exp` out of the inner loop and
/// quantizes `r^2` the way Mesa's table does.
fn weights() -> &'static [f32; LUT_SIZE] {
    static LUT: OnceLock<[f32; LUT_SIZE]> = OnceLock::new();
    LUT.get_or_init(|| std::array::from_fn(|i| (-ALPHA * i as f32 / (LUT_SIZE - 1) as f32).exp()))
}

/// The footprint ellipse `A u^2 + B u v + C v^2 <= F` around a sample point, in texels
/// of one level.
#[derive(Clone, Copy, Debug)]
pub struct Ellipse {
    a: f32,
    b: f32,
    c: f32,
    /// `(LUT_SIZE - 1) / F`: turns `A u^2 + B u v + C v^2` into a table index.
    scale: f32,
    /// Half extents of the bounding box.
    half_u: f32,
    half_v: f32,
    lut: &'static [f32; LUT_SIZE],
}

impl Ellipse {
    /// The ellipse of derivative vectors `dx = (du/dx, dv/dx)` and `dy` (texels of the
    /// level filtered), or `None` when they are not finite numbers.
    pub fn new(dx: [f32; 2], dy: [f32; 2]) -> Option<Ellipse> {
        let lengths = dx[0] * dx[0] + dx[1] * dx[1] + dy[0] * dy[0] + dy[1] * dy[1];
        let det = dx[0] * dy[1] - dx[1] * dy[0];
        let f = det * det + lengths + 1.0;
        if !f.is_finite() {
            return None;
        }
        // Scaling both derivatives by k gives F(k) = det^2 k^4 + lengths k^2 + 1; solve
        // F(k) = MAX_SQRT_F^2 for k^2 (the root written without cancellation).
        let k = if f > MAX_SQRT_F * MAX_SQRT_F {
            let room = MAX_SQRT_F * MAX_SQRT_F - 1.0;
            let disc = lengths * lengths + 4.0 * det * det * room;
            (2.0 * room / (lengths + disc.sqrt())).sqrt()
        } else {
            1.0
        };
        let (ux, vx, uy, vy) = (dx[0] * k, dx[1] * k, dy[0] * k, dy[1] * k);
        let a = vx * vx + vy * vy + 1.0;
        let b = -2.0 * (ux * vx + uy * vy);
        let c = ux * ux + uy * uy + 1.0;
        // F = A C - B^2 / 4 >= A + C - 1 > 0 thanks to the added unit circle.
        let f = a * c - b * b / 4.0;
        if !(f > 0.0 && f.is_finite()) {
            return None;
        }
        Some(Ellipse {
            a,
            b,
            c,
            scale: (LUT_SIZE - 1) as f32 / f,
            // The bounding box of A u^2 + B u v + C v^2 = F with 4F = 4AC - B^2.
            half_u: c.sqrt(),
            half_v: a.sqrt(),
            lut: weights(),
        })
    }

    /// Half extents (u, v) of the ellipse's bounding box.
    pub fn half_extents(&self) -> (f32, f32) {
        (self.half_u, self.half_v)
    }

    /// Weight of a texel centre at offset (u, v) from the sample point: `exp(-2 r^2)`
    /// inside, 0 outside.
    #[inline(always)]
    pub fn weight(&self, u: f32, v: f32) -> f32 {
        self.weight_at((self.a * u * u + self.b * u * v + self.c * v * v) * self.scale)
    }

    /// The weight of table position `q` (`r^2` scaled to the table; see [`Ellipse::row`]).
    #[inline(always)]
    pub fn weight_at(&self, q: f32) -> f32 {
        // q >= 0 up to rounding (the form is positive definite); truncation as a table.
        self.lut.get(q.max(0.0) as usize).copied().unwrap_or(0.0)
    }

    /// Walking a row: `(q, dq, ddq)` with `q` the table position of offset (u, v); the
    /// texel one step further along u is at `q + dq`, and `dq` grows by `ddq` per step
    /// (the form is quadratic in u).
    #[inline(always)]
    pub fn row(&self, u: f32, v: f32) -> (f32, f32, f32) {
        let q = (self.a * u * u + self.b * u * v + self.c * v * v) * self.scale;
        let dq = (self.a * (2.0 * u + 1.0) + self.b * v) * self.scale;
        (q, dq, 2.0 * self.a * self.scale)
    }

    /// The offsets `u` of row offset `v` that can lie inside: `(lo, hi)`, empty when
    /// `lo > hi`. Widened by the table's last step so no texel with a weight is missed.
    #[inline]
    pub fn row_span(&self, v: f32) -> (f32, f32) {
        let f = LUT_SIZE as f32 / self.scale;
        let bv = self.b * v;
        let disc = bv * bv - 4.0 * self.a * (self.c * v * v - f);
        if disc < 0.0 {
            return (1.0, -1.0);
        }
        let r = disc.sqrt();
        ((-bv - r) / (2.0 * self.a), (-bv + r) / (2.0 * self.a))
    }
}

/// The level of detail anisotropic filtering uses: `(lambda_base, lambda_major)` from
/// texel-space derivatives, with `lambda_base = log2(max(Pmin, Pmax / max_aniso))` (the
/// level whose texels the ellipse walks) and `lambda_major = log2(Pmax)` (which decides
/// minification: a footprint magnified along both axes takes the magnification filter).
#[inline]
pub fn lambdas(dx: [f32; 3], dy: [f32; 3], max_aniso: f32) -> (f32, f32) {
    let px = dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2];
    let py = dy[0] * dy[0] + dy[1] * dy[1] + dy[2] * dy[2];
    let (pmax2, pmin2) = if px >= py { (px, py) } else { (py, px) };
    let n = max_aniso.max(1.0);
    let minor2 = pmin2.max(pmax2 / (n * n));
    let log2 = glemu_math::log2;
    (0.5 * log2(minor2), 0.5 * log2(pmax2))
}

/// The one level the ellipse is walked on: `base + floor(lambda)` clamped to `[base, q]`.
/// The finer of the two levels trilinear filtering would blend keeps the most detail; the
/// weighted average already removes what that level has beyond the pixel's footprint.
#[inline]
pub fn level(lambda: f32, base: u32, q: u32) -> u32 {
    // `as` saturates: NaN and negatives give 0, huge values the top.
    let whole = lambda.max(0.0) as u32;
    base.saturating_add(whole).min(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_fall_from_one_to_exp_minus_two() {
        let e = Ellipse::new([0.0, 0.0], [0.0, 0.0]).unwrap();
        // Zero derivatives: the unit circle.
        assert_eq!(e.half_extents(), (1.0, 1.0));
        assert_eq!(e.weight(0.0, 0.0), 1.0);
        let edge = e.weight(0.999, 0.0);
        assert!((edge - (-2.0f32 * 0.998).exp()).abs() < 3e-3, "{edge}");
        assert_eq!(e.weight(1.01, 0.0), 0.0);
        assert_eq!(e.weight(0.75, 0.75), 0.0);
        let mid = e.weight(0.5, 0.5);
        assert!((mid - (-1.0f32).exp()).abs() < 3e-3, "{mid}");
    }

    #[test]
    fn ellipse_follows_the_derivatives() {
        // 8 texels per pixel along u, 1 along v: semi-axes sqrt(65) and sqrt(2).
        let e = Ellipse::new([8.0, 0.0], [0.0, 1.0]).unwrap();
        let (hu, hv) = e.half_extents();
        assert!((hu - 65f32.sqrt()).abs() < 1e-5 && (hv - 2f32.sqrt()).abs() < 1e-5);
        assert!(e.weight(7.9, 0.0) > 0.0);
        assert_eq!(e.weight(0.0, 1.5), 0.0);
        // The same footprint turned 90 degrees swaps the axes.
        let r = Ellipse::new([0.0, 8.0], [1.0, 0.0]).unwrap();
        assert_eq!(r.half_extents(), (hv, hu));
        assert_eq!(r.weight(0.0, 7.9), e.weight(7.9, 0.0));
        // A sheared footprint tilts the ellipse: along the diagonal it reaches further.
        let s = Ellipse::new([4.0, 4.0], [0.5, -0.5]).unwrap();
        assert!(s.weight(3.0, 3.0) > 0.0);
        assert_eq!(s.weight(3.0, -3.0), 0.0);
    }

    #[test]
    fn row_span_brackets_every_weighted_texel() {
        let e = Ellipse::new([5.0, 2.0], [-1.0, 3.0]).unwrap();
        let (_, hv) = e.half_extents();
        let mut v = -hv;
        while v <= hv {
            let (lo, hi) = e.row_span(v);
            let mut u = -20.0;
            while u <= 20.0 {
                if e.weight(u, v) > 0.0 {
                    assert!(lo <= u && u <= hi, "({u}, {v}) outside [{lo}, {hi}]");
                }
                u += 0.125;
            }
            v += 0.25;
        }
    }

    #[test]
    fn stepping_a_row_matches_direct_evaluation() {
        let e = Ellipse::new([6.0, -2.5], [1.5, 2.0]).unwrap();
        let v = 0.75;
        let (mut q, mut dq, ddq) = e.row(-5.25, v);
        for n in 0..11 {
            let u = -5.25 + n as f32;
            let want = e.weight(u, v);
            assert!(
                (e.weight_at(q) - want).abs() < 3e-3,
                "{u}: {} {want}",
                e.weight_at(q)
            );
            q += dq;
            dq += ddq;
        }
    }

    #[test]
    fn huge_or_invalid_footprints() {
        assert!(Ellipse::new([f32::NAN, 0.0], [0.0, 1.0]).is_none());
        assert!(Ellipse::new([f32::INFINITY, 0.0], [0.0, 1.0]).is_none());
        // Shrunk to the budget, shape kept: 1000:1 stays a thin ellipse along u.
        let e = Ellipse::new([1e6, 0.0], [0.0, 1e3]).unwrap();
        let (hu, hv) = e.half_extents();
        assert!(hu <= MAX_SQRT_F + 1.0 && hv < 1.01, "{hu} {hv}");
        let f = |e: &Ellipse| (LUT_SIZE - 1) as f32 / e.scale;
        assert!((f(&e).sqrt() - MAX_SQRT_F).abs() < 0.5, "{}", f(&e).sqrt());
        // Isotropic 1000 texels: a circle of radius about sqrt(80).
        let e = Ellipse::new([1e3, 0.0], [0.0, 1e3]).unwrap();
        let (hu, hv) = e.half_extents();
        assert!(
            (hu - hv).abs() < 1e-3 && (hu - 80f32.sqrt()).abs() < 0.1,
            "{hu}"
        );
        // The largest ordinary footprint (Pmin < 2, Pmax < 32) is left alone.
        let e = Ellipse::new([31.9, 0.0], [0.0, 1.99]).unwrap();
        assert!((e.half_extents().0 - (31.9f32 * 31.9 + 1.0).sqrt()).abs() < 1e-3);
    }

    #[test]
    fn lambda_is_limited_by_max_anisotropy() {
        // 8:1 footprint: with 16x the minor axis decides, with 2x the major one / 2.
        assert_eq!(lambdas([8.0, 0.0, 0.0], [0.0, 1.0, 0.0], 16.0), (0.0, 3.0));
        assert_eq!(lambdas([8.0, 0.0, 0.0], [0.0, 1.0, 0.0], 2.0), (2.0, 3.0));
        assert_eq!(lambdas([0.0, 2.0, 0.0], [32.0, 0.0, 0.0], 4.0), (3.0, 5.0));
        // Isotropic: both are log2(rho).
        assert_eq!(lambdas([4.0, 0.0, 0.0], [0.0, 4.0, 0.0], 16.0), (2.0, 2.0));
    }

    #[test]
    fn level_is_the_finer_one() {
        assert_eq!(level(1.9, 0, 8), 1);
        assert_eq!(level(-3.0, 2, 8), 2);
        assert_eq!(level(0.5, 2, 8), 2);
        assert_eq!(level(30.0, 0, 8), 8);
        assert_eq!(level(f32::NAN, 1, 8), 1);
    }
}
