//! Wrap modes applied to texel coordinates (NV_gpu_program4 table X.19 / GL 4.6 §8.14.2).
//!
//! Results may be `-1` or `size`, which name the border: the caller substitutes the border
//! colour for any index outside `0..size`.

use crate::sampler::Wrap;

#[inline(always)]
fn mirror(a: i32) -> i32 {
    if a >= 0 {
        a
    } else {
        -(1 + a)
    }
}

/// Applies the coordinate clamp of CLAMP and MIRROR_CLAMP to an unnormalized coordinate
/// `u` (texel units) before `floor`, as the specs do for those two legacy modes.
#[inline(always)]
pub fn preclamp(mode: Wrap, u: f32, size: f32) -> f32 {
    match mode {
        Wrap::Clamp => u.clamp(0.0, size),
        Wrap::MirrorClamp => u.clamp(-size, size),
        _ => u,
    }
}

/// Wraps integer texel coordinate `i` for a level dimension of `size` texels.
/// `linear` selects the LINEAR-filter variant of CLAMP and MIRROR_CLAMP.
#[inline(always)]
pub fn wrap(mode: Wrap, i: i32, size: i32, linear: bool) -> i32 {
    if size <= 0 {
        return -1;
    }
    match mode {
        Wrap::Repeat => {
            // Power-of-two sizes (nearly every texture) wrap with a mask: two's complement
            // `&` is the euclidean remainder, and an integer division costs ~25 cycles per
            // texel index on the bilinear hot path.
            if size & (size - 1) == 0 {
                return i & (size - 1);
            }
            // rem_euclid, written out because the std call is not inlined here.
            let r = i % size;
            if r < 0 {
                r + size
            } else {
                r
            }
        }
        Wrap::ClampToEdge => i.clamp(0, size - 1),
        Wrap::ClampToBorder => i.clamp(-1, size),
        Wrap::Clamp => {
            if linear {
                i.clamp(-1, size)
            } else {
                i.clamp(0, size - 1)
            }
        }
        Wrap::MirroredRepeat => {
            let period = 2 * size as i64;
            let r = i as i64 % period;
            let r = if r < 0 { r + period } else { r };
            (size - 1) - mirror((r - size as i64) as i32)
        }
        Wrap::MirrorClampToEdge => mirror(i).clamp(0, size - 1),
        Wrap::MirrorClampToBorder => mirror(i).clamp(0, size),
        Wrap::MirrorClamp => {
            if linear {
                mirror(i).clamp(0, size)
            } else {
                mirror(i).clamp(0, size - 1)
            }
        }
    }
}

/// True if the mode is defined for rectangle textures (unnormalized coordinates).
pub fn valid_for_rect(mode: Wrap) -> bool {
    matches!(mode, Wrap::Clamp | Wrap::ClampToEdge | Wrap::ClampToBorder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeat_and_mirrored_repeat() {
        let got: Vec<i32> = (-5..9).map(|i| wrap(Wrap::Repeat, i, 4, false)).collect();
        assert_eq!(got, vec![3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0]);
        // Mirrored: 0 1 2 3 | 3 2 1 0 | 0 1 2 3, and to the left the mirror image.
        let got: Vec<i32> = (-5..9)
            .map(|i| wrap(Wrap::MirroredRepeat, i, 4, false))
            .collect();
        assert_eq!(got, vec![3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0]);
    }

    #[test]
    fn repeat_equals_euclidean_remainder_for_every_size() {
        for size in 1..=70 {
            for i in (-300..300).chain([i32::MIN, i32::MIN + 1, i32::MAX - 1, i32::MAX]) {
                let want = (i64::from(i)).rem_euclid(i64::from(size)) as i32;
                assert_eq!(wrap(Wrap::Repeat, i, size, true), want, "i={i} size={size}");
            }
        }
    }

    #[test]
    fn clamps_at_and_past_edges() {
        assert_eq!(wrap(Wrap::ClampToEdge, -3, 4, true), 0);
        assert_eq!(wrap(Wrap::ClampToEdge, 4, 4, true), 3);
        assert_eq!(wrap(Wrap::ClampToBorder, -3, 4, true), -1);
        assert_eq!(wrap(Wrap::ClampToBorder, 9, 4, false), 4);
        assert_eq!(wrap(Wrap::ClampToBorder, 3, 4, false), 3);
        assert_eq!(wrap(Wrap::Clamp, -1, 4, true), -1);
        assert_eq!(wrap(Wrap::Clamp, -1, 4, false), 0);
        assert_eq!(wrap(Wrap::Clamp, 4, 4, false), 3);
        assert_eq!(preclamp(Wrap::Clamp, 7.5, 4.0), 4.0);
        assert_eq!(preclamp(Wrap::Clamp, -0.2, 4.0), 0.0);
        assert_eq!(preclamp(Wrap::MirrorClamp, -7.5, 4.0), -4.0);
        assert_eq!(preclamp(Wrap::Repeat, -7.5, 4.0), -7.5);
    }

    #[test]
    fn mirror_clamps() {
        assert_eq!(wrap(Wrap::MirrorClampToEdge, -1, 4, true), 0);
        assert_eq!(wrap(Wrap::MirrorClampToEdge, -3, 4, true), 2);
        assert_eq!(wrap(Wrap::MirrorClampToEdge, -9, 4, true), 3);
        assert_eq!(wrap(Wrap::MirrorClampToEdge, 9, 4, true), 3);
        assert_eq!(wrap(Wrap::MirrorClampToBorder, -9, 4, true), 4);
        assert_eq!(wrap(Wrap::MirrorClampToBorder, -4, 4, true), 3);
        assert_eq!(wrap(Wrap::MirrorClamp, -5, 4, true), 4);
        assert_eq!(wrap(Wrap::MirrorClamp, -5, 4, false), 3);
        // A missing level (size 0) reads the border.
        assert_eq!(wrap(Wrap::Repeat, 3, 0, false), -1);
        assert_eq!(
            wrap(Wrap::Repeat, i32::MIN, 3, false),
            (i32::MIN as i64).rem_euclid(3) as i32
        );
    }
}
