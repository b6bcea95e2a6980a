//! Standard multisample positions.
//!
//! Positions are given within the pixel in GL window orientation (x right, y up), in units of
//! 1/16 pixel, exactly as the D3D standard patterns (which llvmpipe and hardware use) list
//! them. Being multiples of 1/16 they are exact in the 8-bit subpixel grid (1/256).

/// Sample counts the rasterizer supports.
pub const SUPPORTED_SAMPLE_COUNTS: [u32; 5] = [1, 2, 4, 8, 16];

const POS_1: [(u8, u8); 1] = [(8, 8)];
const POS_2: [(u8, u8); 2] = [(12, 12), (4, 4)];
const POS_4: [(u8, u8); 4] = [(6, 2), (14, 6), (2, 10), (10, 14)];
const POS_8: [(u8, u8); 8] = [
    (9, 5),
    (7, 11),
    (13, 9),
    (5, 3),
    (3, 13),
    (1, 7),
    (11, 15),
    (15, 1),
];
const POS_16: [(u8, u8); 16] = [
    (9, 9),
    (7, 5),
    (5, 10),
    (12, 7),
    (3, 6),
    (10, 13),
    (13, 11),
    (11, 3),
    (6, 14),
    (8, 1),
    (4, 2),
    (2, 12),
    (0, 8),
    (15, 4),
    (14, 15),
    (1, 0),
];

/// Whether `n` is a sample count this rasterizer supports.
pub fn is_supported_sample_count(n: u32) -> bool {
    SUPPORTED_SAMPLE_COUNTS.contains(&n)
}

/// Sample positions for `n` samples in 1/16-pixel units, or `None` for an unsupported count.
pub fn sample_positions_16ths(n: u32) -> Option<&'static [(u8, u8)]> {
    match n {
        1 => Some(&POS_1),
        2 => Some(&POS_2),
        4 => Some(&POS_4),
        8 => Some(&POS_8),
        16 => Some(&POS_16),
        _ => None,
    }
}

/// Sample `s` of an `n`-sample pattern as a fraction of the pixel (x, y), y up.
/// Returns `None` when `n` is unsupported or `s >= n`.
pub fn sample_position(n: u32, s: u32) -> Option<[f32; 2]> {
    let p = sample_positions_16ths(n)?.get(s as usize)?;
    Some([f32::from(p.0) / 16.0, f32::from(p.1) / 16.0])
}

/// Sample positions in 1/256-pixel fixed point (the rasterizer's subpixel grid).
pub(crate) fn sample_positions_fixed(n: u32) -> Option<Vec<(i64, i64)>> {
    Some(
        sample_positions_16ths(n)?
            .iter()
            .map(|&(x, y)| (i64::from(x) * 16, i64::from(y) * 16))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_x_matches_llvmpipe() {
        let want = [
            [0.375, 0.125],
            [0.875, 0.375],
            [0.125, 0.625],
            [0.625, 0.875],
        ];
        for (s, w) in want.iter().enumerate() {
            assert_eq!(sample_position(4, s as u32), Some(*w));
        }
        assert_eq!(sample_position(2, 0), Some([0.75, 0.75]));
        assert_eq!(sample_position(2, 1), Some([0.25, 0.25]));
    }

    #[test]
    fn patterns_are_distinct_and_inside_pixel() {
        for n in SUPPORTED_SAMPLE_COUNTS {
            let p = sample_positions_16ths(n).unwrap_or(&[]);
            assert_eq!(p.len(), n as usize);
            for (i, a) in p.iter().enumerate() {
                assert!(a.0 < 16 && a.1 < 16);
                for b in &p[i + 1..] {
                    assert_ne!(a, b, "{n}x has duplicate positions");
                }
            }
        }
        assert_eq!(sample_position(3, 0), None);
        assert_eq!(sample_position(4, 4), None);
    }
}
