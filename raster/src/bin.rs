//! Binning: which primitives of a set-up chunk can touch which 64×64 tile.
//!
//! A chunk's bins are one compressed table over the range of tiles the chunk touches
//! (starts + one list), built by a counting sort that keeps primitives in submission
//! order within each tile. The buffers live in the chunk's slot and are reused by every
//! later chunk, draw and frame, so binning allocates nothing once warm.

use crate::framebuffer::TILE;
use crate::setup::{DrawSetup, PrimSetup, SUBPIXEL};

/// Primitive indices per tile of one chunk.
#[derive(Debug, Default)]
pub(crate) struct Bins {
    /// First tile index (row-major) `starts` covers.
    lo: usize,
    /// `list[starts[t - lo]..starts[t - lo + 1]]` are tile `t`'s primitives.
    starts: Vec<u32>,
    list: Vec<u32>,
    /// (tile, primitive) pairs in primitive order; scratch for the sort.
    pairs: Vec<(u32, u32)>,
}

impl Bins {
    /// Bins the primitives of `setup` into a `tiles_x` × `tiles_y` grid.
    pub(crate) fn build(&mut self, setup: &DrawSetup, (tiles_x, tiles_y): (usize, usize)) {
        self.pairs.clear();
        self.starts.clear();
        self.list.clear();
        self.lo = 0;
        let (mut lo, mut hi) = (usize::MAX, 0usize);
        for (i, p) in setup.prims.iter().enumerate() {
            let [x0, y0, x1, y1] = p.bbox;
            if x0 >= x1 || y0 >= y1 {
                continue;
            }
            let tx0 = x0.max(0) as usize / TILE;
            let ty0 = y0.max(0) as usize / TILE;
            let tx1 = ((x1 - 1).max(0) as usize / TILE).min(tiles_x.saturating_sub(1));
            let ty1 = ((y1 - 1).max(0) as usize / TILE).min(tiles_y.saturating_sub(1));
            // Inside one tile the bounding box already says enough: the tile finds no
            // coverage if the edges miss it.
            let single = tx0 == tx1 && ty0 == ty1;
            for ty in ty0..=ty1 {
                for tx in tx0..=tx1 {
                    if single || tile_touches(p, tx, ty) {
                        let t = ty * tiles_x + tx;
                        lo = lo.min(t);
                        hi = hi.max(t);
                        self.pairs.push((t as u32, i as u32));
                    }
                }
            }
        }
        if self.pairs.is_empty() {
            return;
        }
        self.lo = lo;
        self.starts.resize(hi - lo + 2, 0);
        for &(t, _) in &self.pairs {
            self.starts[t as usize - lo + 1] += 1;
        }
        for k in 1..self.starts.len() {
            self.starts[k] += self.starts[k - 1];
        }
        self.list.resize(self.pairs.len(), 0);
        // `starts[t - lo]` is used as the insertion cursor, then shifted back.
        for &(t, i) in &self.pairs {
            let c = &mut self.starts[t as usize - lo];
            self.list[*c as usize] = i;
            *c += 1;
        }
        for k in (1..self.starts.len()).rev() {
            self.starts[k] = self.starts[k - 1];
        }
        self.starts[0] = 0;
    }

    /// Tile `t`'s primitives, in submission order.
    pub(crate) fn tile(&self, t: usize) -> &[u32] {
        let Some(k) = t.checked_sub(self.lo) else {
            return &[];
        };
        match (self.starts.get(k), self.starts.get(k + 1)) {
            (Some(&a), Some(&b)) => self.list.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Whether any primitive was binned.
    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The tile range `[lo, hi)` (row-major indices) holding every binned primitive.
    pub(crate) fn range(&self) -> (usize, usize) {
        (self.lo, self.lo + self.starts.len().saturating_sub(1))
    }
}

/// Conservative test whether a primitive's edges can cover any sample of a tile.
fn tile_touches(p: &PrimSetup, tx: usize, ty: usize) -> bool {
    let s = SUBPIXEL;
    let x_lo = (tx * TILE) as i64 * s;
    let y_lo = (ty * TILE) as i64 * s;
    let (x_hi, y_hi) = (x_lo + TILE as i64 * s - 1, y_lo + TILE as i64 * s - 1);
    p.edges().iter().all(|e| {
        let x = if e.a > 0 { x_hi } else { x_lo };
        let y = if e.b > 0 { y_hi } else { y_lo };
        e.at(x, y) >= 0
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::Plane;

    fn prim(bbox: [i32; 4]) -> PrimSetup {
        PrimSetup::for_tests(bbox, [0.0; 2], Plane::default())
    }

    #[test]
    fn keeps_submission_order_per_tile() {
        let t = TILE as i32;
        let setup = DrawSetup {
            prims: vec![
                prim([0, 0, 2 * t, 1]),     // tiles 0, 1
                prim([t + 1, 0, t + 2, 1]), // tile 1
                prim([0, 0, 1, 1]),         // tile 0
                prim([5, 5, 5, 9]),         // empty
                prim([0, t, 1, t + 1]),     // tile 2 (second row)
            ],
            ..Default::default()
        };
        let mut b = Bins::default();
        b.build(&setup, (2, 2));
        assert_eq!(b.tile(0), &[0, 2]);
        assert_eq!(b.tile(1), &[0, 1]);
        assert_eq!(b.tile(2), &[4]);
        assert_eq!(b.tile(3), &[] as &[u32]);
        assert_eq!(b.range(), (0, 3));
        // Reuse: a later chunk replaces everything.
        let one = DrawSetup {
            prims: vec![prim([t, t, t + 1, t + 1])],
            ..Default::default()
        };
        b.build(&one, (2, 2));
        assert_eq!((b.tile(0), b.tile(3)), (&[] as &[u32], &[0u32][..]));
        assert_eq!(b.range(), (3, 4));
        b.build(&DrawSetup::default(), (2, 2));
        assert!(b.is_empty() && b.tile(3).is_empty());
    }
}
