//! The lane-packed small-primitive path (`DrawCtx::pack`): a small primitive's covered
//! pixels found at once, to be pushed one per lane of the pending fragment batch.

use crate::setup::{Edge, SUBPIXEL};

crate::simd::multiversion! {
    /// Bit `4j + i` set when the centre of pixel (x0 + i, y0 + j) is inside every edge:
    /// the 4×4 pixels from (x0, y0), each edge stepped one pixel at a time from its
    /// value at the first centre (exact integers: the same test as the quad walk's).
    pub(crate) fn centres_4x4(edges: &[Edge], x0: i32, y0: i32) -> u32 {
        let half = SUBPIXEL / 2;
        let (cx, cy) = (
            i64::from(x0) * SUBPIXEL + half,
            i64::from(y0) * SUBPIXEL + half,
        );
        let mut inside = [true; 16];
        for e in edges {
            let e0 = e.at(cx, cy);
            let (ax, by) = (i64::from(e.a) * SUBPIXEL, i64::from(e.b) * SUBPIXEL);
            for (p, ins) in inside.iter_mut().enumerate() {
                let v = e0 + (p & 3) as i64 * ax + (p >> 2) as i64 * by;
                *ins &= v >= 0;
            }
        }
        let mut m = 0;
        for (p, &ins) in inside.iter().enumerate() {
            m |= u32::from(ins) << p;
        }
        m
    }
}

/// Bits of [`centres_4x4`] inside a `w`×`h` region (w, h ≤ 4).
#[inline]
pub(crate) fn region_bits(w: i32, h: i32) -> u32 {
    let row = (1u32 << w.clamp(0, 4)) - 1;
    let mut m = 0;
    for j in 0..h.clamp(0, 4) {
        m |= row << (4 * j);
    }
    m
}
