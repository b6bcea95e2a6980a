//! Level-of-detail: rho from derivatives, bias and clamps, and mipmap level selection
//! (GL 4.6 §8.14.1–8.14.3, EXT_texture_filter_anisotropic).

use crate::sampler::{Filter, SamplerState, MAX_LOD_BIAS};

/// Scale factor rho (eq. 8.7 with the Euclidean norms) from texel-space derivatives
/// `dx = (du/dx, dv/dx, dw/dx)` and `dy`.
#[inline]
pub fn rho(dx: [f32; 3], dy: [f32; 3]) -> f32 {
    let lx = (dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]).sqrt();
    let ly = (dy[0] * dy[0] + dy[1] * dy[1] + dy[2] * dy[2]).sqrt();
    lx.max(ly)
}

/// lambda = clamp(lambda_base + clamp(bias_sampler + bias_shader, ±max), min_lod, max_lod).
#[inline]
pub fn adjust(lambda_base: f32, shader_bias: f32, s: &SamplerState) -> f32 {
    adjust_clamped(lambda_base, shader_bias, s, f32::NEG_INFINITY)
}

/// [`adjust`] with the shader's LOD clamp (ARB_sparse_texture_clamp eq. 8.6: lod_min =
/// max(TEXTURE_MIN_LOD, lodClamp)).
#[inline]
pub fn adjust_clamped(lambda_base: f32, shader_bias: f32, s: &SamplerState, clamp: f32) -> f32 {
    let min = s.min_lod.max(clamp);
    let bias = (s.lod_bias + shader_bias).clamp(-MAX_LOD_BIAS, MAX_LOD_BIAS);
    let l = lambda_base + bias;
    let l = if l.is_nan() { min } else { l };
    l.max(min).min(s.max_lod)
}

/// The lambda threshold `c` between magnification and minification. GL 3.1+ lets an
/// implementation always use 0, which is what llvmpipe (the reference renderer) does; the
/// older rule (0.5 for mag LINEAR with min NEAREST_MIPMAP_*) applies only when
/// [`SamplerState::legacy_mag_threshold`] is set.
#[inline]
pub fn mag_threshold(s: &SamplerState) -> f32 {
    if s.legacy_mag_threshold
        && s.mag_filter == Filter::Linear
        && s.min_filter.filter == Filter::Nearest
        && s.min_filter.mipmap.is_some()
    {
        0.5
    } else {
        0.0
    }
}

/// ceil() of a non-negative value without the libm call `f32::ceil` is on baseline x86-64.
#[inline]
fn ceil_pos(x: f32) -> u32 {
    let t = x as u32;
    if (t as f32) < x {
        t + 1
    } else {
        t
    }
}

/// The levels a minified lookup reads: `(d1, d2, weight of d2)` with absolute level
/// numbers. `base` is level_base and `q` the last usable level.
#[inline]
pub fn select_levels(lambda: f32, mipmap: Filter, base: u32, q: u32) -> (u32, u32, f32) {
    let span = q.saturating_sub(base) as f32;
    match mipmap {
        Filter::Nearest => {
            let d = if lambda <= 0.5 {
                base
            } else if lambda <= span + 0.5 {
                // ceil(base + lambda + 0.5) - 1, done relative to base to stay exact.
                base + ceil_pos(lambda + 0.5).saturating_sub(1)
            } else {
                q
            };
            (d.min(q), d.min(q), 0.0)
        }
        Filter::Linear => {
            if lambda >= span {
                (q, q, 0.0)
            } else {
                let l = lambda.max(0.0);
                // l < span here, so truncation is floor and fits.
                let whole = l as u32;
                let d1 = base + whole;
                (d1, (d1 + 1).min(q), l - whole as f32)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sampler::MinFilter;

    #[test]
    fn rho_is_max_of_axis_lengths() {
        assert_eq!(rho([3.0, 4.0, 0.0], [1.0, 0.0, 0.0]), 5.0);
        assert_eq!(rho([0.0, 0.0, 0.0], [0.0, 2.0, 0.0]), 2.0);
        assert_eq!(rho([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]).log2(), 0.0);
    }

    #[test]
    fn bias_and_clamps() {
        let mut s = SamplerState::default();
        assert_eq!(adjust(1.0, 0.5, &s), 1.5);
        s.lod_bias = 1.0;
        assert_eq!(adjust(1.0, 0.5, &s), 2.5);
        // The summed bias is clamped to ±MAX_TEXTURE_LOD_BIAS.
        assert_eq!(adjust(0.0, 100.0, &s), 16.0);
        s.min_lod = 0.25;
        s.max_lod = 2.0;
        assert_eq!(adjust(-5.0, 0.0, &s), 0.25);
        assert_eq!(adjust(5.0, 0.0, &s), 2.0);
        assert_eq!(adjust(f32::NEG_INFINITY, 0.0, &s), 0.25);
    }

    #[test]
    fn mag_threshold_rule() {
        let mut s = SamplerState::default(); // mag LINEAR, min NEAREST_MIPMAP_LINEAR
        assert_eq!(mag_threshold(&s), 0.0);
        s.legacy_mag_threshold = true;
        assert_eq!(mag_threshold(&s), 0.5);
        s.min_filter = MinFilter {
            filter: Filter::Linear,
            mipmap: Some(Filter::Linear),
        };
        assert_eq!(mag_threshold(&s), 0.0);
        s.min_filter = MinFilter {
            filter: Filter::Nearest,
            mipmap: None,
        };
        assert_eq!(mag_threshold(&s), 0.0);
    }

    #[test]
    fn nearest_mipmap_level_selection() {
        // base 0, q 4
        assert_eq!(select_levels(0.4, Filter::Nearest, 0, 4).0, 0);
        assert_eq!(select_levels(0.5, Filter::Nearest, 0, 4).0, 0);
        assert_eq!(select_levels(0.51, Filter::Nearest, 0, 4).0, 1);
        assert_eq!(select_levels(1.5, Filter::Nearest, 0, 4).0, 1);
        assert_eq!(select_levels(1.51, Filter::Nearest, 0, 4).0, 2);
        assert_eq!(select_levels(9.0, Filter::Nearest, 0, 4).0, 4);
        // base level 2: levels are absolute.
        assert_eq!(select_levels(1.0, Filter::Nearest, 2, 4).0, 3);
        assert_eq!(select_levels(0.2, Filter::Nearest, 2, 4).0, 2);
    }

    #[test]
    fn linear_mipmap_weights() {
        assert_eq!(select_levels(1.25, Filter::Linear, 0, 4), (1, 2, 0.25));
        assert_eq!(select_levels(4.0, Filter::Linear, 0, 4), (4, 4, 0.0));
        assert_eq!(select_levels(3.5, Filter::Linear, 0, 4), (3, 4, 0.5));
        assert_eq!(select_levels(0.75, Filter::Linear, 1, 4), (1, 2, 0.75));
    }
}
