//! The fixed-function tessellation primitive generator (ARB_tessellation_shader 2.X.2).
//!
//! Levels are clamped and rounded per spacing; edges are split into `n` segments, with the
//! fractional modes placing the two shorter segments symmetrically next to the middle of
//! the edge (so identical levels give identical splits on every edge). Triangles are built
//! from concentric rings (inner-level subdivision) stitched to the outer edges
//! (outer-level subdivision); quads from an inner grid plus a stitched border.
//!
//! Notes against the reference renderer: llvmpipe uses the D3D11 reference tessellator,
//! whose triangulation of the stitched border and placement of fractional segments
//! differ in detail (the spec leaves both implementation-dependent). Primitive and vertex
//! counts match for every domain and spacing checked (`counts_match_llvmpipe`), and so do
//! equal-spacing coordinates up to D3D11's 16.16 fixed point (1/3 → 0.333328). Fractional
//! coordinates differ: the spec fixes only that the two short segments are equal,
//! symmetric and shrink with n - f; glemu makes the n - 2 long ones 1/f (level 3.7 odd:
//! 0.2703 long, 0.0946 short), D3D11 lengthens them (0.2867 long, 0.0700 short). For quads the first inner level subdivides the
//! horizontal (v==0 / v==1) edges as in Figure X.3 and later GL specs; the 2.X.2.2 text of
//! the extension states it the other way round.

use crate::assembly::PrimClass;
use glemu_programs::ir::{TessMode, TessSpacing};

/// MAX_TESS_GEN_LEVEL.
pub const MAX_TESS_LEVEL: f32 = 64.0;

/// Tessellation layout from the evaluation program's declarations.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TessConfig {
    pub mode: TessMode,
    pub spacing: TessSpacing,
    /// `cw` vertex order (default ccw).
    pub cw: bool,
    pub point_mode: bool,
}

/// The generated primitives: domain coordinates and, per primitive, indices into them.
#[derive(Clone, Debug, PartialEq)]
pub struct Tessellation {
    /// (u, v, w) for triangles; (u, v, 0) for quads and isolines.
    pub coords: Vec<[f32; 3]>,
    /// `Points`, `Lines` or `Triangles`.
    pub class: PrimClass,
    pub indices: Vec<u32>,
}

impl Tessellation {
    fn empty(class: PrimClass) -> Tessellation {
        Tessellation {
            coords: Vec::new(),
            class,
            indices: Vec::new(),
        }
    }
    pub fn primitive_count(&self) -> usize {
        self.indices.len() / self.class.vertices()
    }
}

/// A clamped and rounded level: `n` segments, `f` the clamped float level.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Level {
    n: u32,
    f: f32,
}

/// Clamps a level; NaN becomes the minimum.
fn clamp_level(level: f32, lo: f32, hi: f32) -> f32 {
    if level.is_nan() {
        lo
    } else {
        level.clamp(lo, hi)
    }
}

fn round_level(level: f32, spacing: TessSpacing) -> Level {
    match spacing {
        TessSpacing::Equal => {
            let f = clamp_level(level, 1.0, MAX_TESS_LEVEL);
            Level {
                n: f.ceil() as u32,
                f,
            }
        }
        TessSpacing::FractionalEven => {
            let f = clamp_level(level, 2.0, MAX_TESS_LEVEL);
            let n = f.ceil() as u32;
            Level { n: n + (n & 1), f }
        }
        TessSpacing::FractionalOdd => {
            let f = clamp_level(level, 1.0, MAX_TESS_LEVEL - 1.0);
            let n = f.ceil() as u32;
            Level {
                n: n + (1 - (n & 1)),
                f,
            }
        }
    }
}

/// An inner level of 1 with some outer level above 1 acts as 1 + epsilon.
fn bump_inner(l: Level, spacing: TessSpacing) -> Level {
    if l.n > 1 {
        return l;
    }
    match spacing {
        TessSpacing::Equal => Level { n: 2, f: 2.0 },
        TessSpacing::FractionalEven => Level { n: 2, f: 2.0 },
        TessSpacing::FractionalOdd => Level { n: 3, f: 1.0 },
    }
}

/// Parameters (0..=1) of the `n + 1` points splitting an edge.
fn edge_params(l: Level, spacing: TessSpacing) -> Vec<f32> {
    let n = l.n.max(1);
    let fractional =
        spacing != TessSpacing::Equal && n > 2 || spacing == TessSpacing::FractionalEven;
    if !fractional || (n as f32) == l.f || n == 1 {
        return (0..=n).map(|i| i as f32 / n as f32).collect();
    }
    // n-2 segments of 1/f and two of (f-n+2)/(2f), the short ones beside the middle.
    let full = 1.0 / l.f;
    let short = (l.f - n as f32 + 2.0) / (2.0 * l.f);
    let mut lens = Vec::with_capacity(n as usize);
    if n.is_multiple_of(2) {
        let half = (n - 2) / 2;
        lens.extend(std::iter::repeat_n(full, half as usize));
        lens.extend([short, short]);
        lens.extend(std::iter::repeat_n(full, half as usize));
    } else {
        let side = (n - 3) / 2;
        lens.extend(std::iter::repeat_n(full, side as usize));
        lens.extend([short, full, short]);
        lens.extend(std::iter::repeat_n(full, side as usize));
    }
    let mut out = Vec::with_capacity(n as usize + 1);
    let mut acc = 0.0f32;
    out.push(0.0);
    for (i, len) in lens.iter().enumerate() {
        acc += len;
        // The last point is exactly 1; middle points mirror exactly.
        out.push(if i + 1 == lens.len() { 1.0 } else { acc });
    }
    // Enforce exact symmetry so the edge split is identical in both directions.
    let m = out.len();
    for i in m.div_ceil(2)..m {
        out[i] = 1.0 - out[m - 1 - i];
    }
    out
}

struct Builder {
    coords: Vec<[f32; 3]>,
    indices: Vec<u32>,
    cw: bool,
}

impl Builder {
    fn vertex(&mut self, c: [f32; 3]) -> u32 {
        self.coords.push(c);
        (self.coords.len() - 1) as u32
    }
    /// Adds a triangle given in counter-clockwise order.
    fn tri(&mut self, a: u32, b: u32, c: u32) {
        if self.cw {
            self.indices.extend([a, c, b]);
        } else {
            self.indices.extend([a, b, c]);
        }
    }
    /// Fills the strip between an outer edge and the inner edge beside it, both walked in
    /// the same (counter-clockwise) direction; `op`/`ip` are positions along the edge.
    fn stitch(&mut self, outer: &[u32], op: &[f32], inner: &[u32], ip: &[f32]) {
        let (m, k) = (outer.len() - 1, inner.len() - 1);
        let (mut j, mut i) = (0, 0);
        while j < m || i < k {
            let advance_outer = if i == k {
                true
            } else if j == m {
                false
            } else {
                // Advance the side whose next segment midpoint comes first; on a tie the
                // inner side goes first, which gives the diagonals llvmpipe's (D3D11)
                // tessellator draws for symmetric levels.
                op[j] + op[j + 1] < ip[i] + ip[i + 1] - 1e-5
            };
            if advance_outer {
                self.tri(outer[j], outer[j + 1], inner[i]);
                j += 1;
            } else {
                self.tri(outer[j], inner[i + 1], inner[i]);
                i += 1;
            }
        }
    }
}

/// Runs the primitive generator for one patch. An empty result means the patch was
/// discarded (a relevant outer level ≤ 0 or NaN).
pub fn tessellate(cfg: &TessConfig, outer: [f32; 4], inner: [f32; 2]) -> Tessellation {
    let relevant = match cfg.mode {
        TessMode::Triangles => 3,
        TessMode::Quads => 4,
        TessMode::Isolines => 2,
    };
    let mut t = match cfg.mode {
        TessMode::Isolines => isolines(cfg, outer),
        TessMode::Triangles => triangles(cfg, outer, inner),
        TessMode::Quads => quads(cfg, outer, inner),
    };
    if outer.iter().take(relevant).any(|l| l.is_nan() || *l <= 0.0) {
        return Tessellation::empty(t.class);
    }
    if cfg.point_mode {
        t.indices = (0..t.coords.len() as u32).collect();
        t.class = PrimClass::Points;
    }
    t
}

fn isolines(cfg: &TessConfig, outer: [f32; 4]) -> Tessellation {
    let lines = round_level(outer[0], TessSpacing::Equal).n;
    let seg = round_level(outer[1], cfg.spacing);
    let us = edge_params(seg, cfg.spacing);
    let mut b = Builder {
        coords: Vec::new(),
        indices: Vec::new(),
        cw: false,
    };
    for j in 0..lines {
        let v = j as f32 / lines as f32;
        let first = b.coords.len() as u32;
        for u in &us {
            b.vertex([*u, v, 0.0]);
        }
        for i in 0..us.len() as u32 - 1 {
            b.indices.extend([first + i, first + i + 1]);
        }
    }
    Tessellation {
        coords: b.coords,
        class: PrimClass::Lines,
        indices: b.indices,
    }
}

fn lerp3(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

fn triangles(cfg: &TessConfig, outer: [f32; 4], inner: [f32; 2]) -> Tessellation {
    let sp = cfg.spacing;
    let ol = [outer[0], outer[1], outer[2]].map(|l| round_level(l, sp));
    let il = round_level(inner[0], sp);
    let mut b = Builder {
        coords: Vec::new(),
        indices: Vec::new(),
        cw: cfg.cw,
    };
    // Corners in counter-clockwise order and the outer level of the edge leaving each:
    // (0,0,1)→(1,0,0) is v==0 (OL1), (1,0,0)→(0,1,0) is w==0 (OL2), (0,1,0)→(0,0,1) is
    // u==0 (OL0).
    let corners = [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    let edge_levels = [ol[1], ol[2], ol[0]];
    if il.n == 1 && ol.iter().all(|l| l.n == 1) {
        let v: Vec<u32> = corners.iter().map(|c| b.vertex(*c)).collect();
        b.tri(v[0], v[1], v[2]);
        return finish_tris(b);
    }
    let il = bump_inner(il, sp);
    let n = il.n;
    let t = edge_params(il, sp);
    // Outer ring: per edge, vertex ids (start corner .. end corner) and positions.
    let corner_ids: Vec<u32> = corners.iter().map(|c| b.vertex(*c)).collect();
    let mut outer_edges: Vec<(Vec<u32>, Vec<f32>)> = Vec::new();
    for e in 0..3 {
        let (a, c) = (corners[e], corners[(e + 1) % 3]);
        let ps = edge_params(edge_levels[e], sp);
        let mut ids = vec![corner_ids[e]];
        for p in &ps[1..ps.len() - 1] {
            ids.push(b.vertex(lerp3(a, c, *p)));
        }
        ids.push(corner_ids[(e + 1) % 3]);
        outer_edges.push((ids, ps));
    }
    let center = [1.0 / 3.0; 3];
    let mut prev = outer_edges;
    let mut r = 1u32;
    loop {
        let segs = n.saturating_sub(2 * r);
        let ring: Vec<(Vec<u32>, Vec<f32>)> = if segs == 0 {
            let c = b.vertex(center);
            (0..3).map(|_| (vec![c], vec![0.5])).collect()
        } else {
            let d = t[r as usize];
            let s = 1.0 - 2.0 * d;
            // Inner corner on the line from the centre to the corner.
            let ic: Vec<[f32; 3]> = corners.iter().map(|c| lerp3(center, *c, s)).collect();
            let ic_ids: Vec<u32> = ic.iter().map(|c| b.vertex(*c)).collect();
            (0..3)
                .map(|e| {
                    let ps: Vec<f32> = t[r as usize..=(n - r) as usize].to_vec();
                    let (lo, hi) = (ps[0], ps[ps.len() - 1]);
                    let mut ids = vec![ic_ids[e]];
                    for p in &ps[1..ps.len() - 1] {
                        let k = if hi > lo { (p - lo) / (hi - lo) } else { 0.5 };
                        ids.push(b.vertex(lerp3(ic[e], ic[(e + 1) % 3], k)));
                    }
                    ids.push(ic_ids[(e + 1) % 3]);
                    (ids, ps)
                })
                .collect()
        };
        for e in 0..3 {
            b.stitch(&prev[e].0, &prev[e].1, &ring[e].0, &ring[e].1);
        }
        if segs <= 1 {
            if segs == 1 {
                b.tri(ring[0].0[0], ring[1].0[0], ring[2].0[0]);
            }
            break;
        }
        prev = ring;
        r += 1;
    }
    finish_tris(b)
}

fn finish_tris(b: Builder) -> Tessellation {
    Tessellation {
        coords: b.coords,
        class: PrimClass::Triangles,
        indices: b.indices,
    }
}

fn quads(cfg: &TessConfig, outer: [f32; 4], inner: [f32; 2]) -> Tessellation {
    let sp = cfg.spacing;
    let ol = outer.map(|l| round_level(l, sp));
    let il = inner.map(|l| round_level(l, sp));
    let mut b = Builder {
        coords: Vec::new(),
        indices: Vec::new(),
        cw: cfg.cw,
    };
    if il.iter().chain(ol.iter()).all(|l| l.n == 1) {
        let v: Vec<u32> = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
            .iter()
            .map(|c| b.vertex([c[0], c[1], 0.0]))
            .collect();
        b.tri(v[0], v[1], v[2]);
        b.tri(v[0], v[2], v[3]);
        return finish_tris(b);
    }
    let (lu, lv) = (bump_inner(il[0], sp), bump_inner(il[1], sp));
    let (tu, tv) = (edge_params(lu, sp), edge_params(lv, sp));
    let (nu, nv) = (lu.n as usize, lv.n as usize);
    // Inner grid vertices (i in 1..=nu-1, j in 1..=nv-1).
    let mut grid = vec![0u32; (nu + 1) * (nv + 1)];
    for j in 1..nv {
        for i in 1..nu {
            grid[j * (nu + 1) + i] = b.vertex([tu[i], tv[j], 0.0]);
        }
    }
    let g = |i: usize, j: usize| grid[j * (nu + 1) + i];
    // Interior cells: diagonals point at the domain centre (mirrored per quadrant), the
    // centre cell itself split NW–SE, as in llvmpipe's images.
    for j in 1..nv.saturating_sub(1) {
        for i in 1..nu.saturating_sub(1) {
            let cu = (tu[i] + tu[i + 1]) * 0.5 - 0.5;
            let cv = (tv[j] + tv[j + 1]) * 0.5 - 0.5;
            let sw_ne = cu.abs() > 1e-6 && cv.abs() > 1e-6 && (cu > 0.0) == (cv > 0.0);
            if sw_ne {
                b.tri(g(i, j), g(i + 1, j), g(i + 1, j + 1));
                b.tri(g(i, j), g(i + 1, j + 1), g(i, j + 1));
            } else {
                b.tri(g(i, j), g(i + 1, j), g(i, j + 1));
                b.tri(g(i + 1, j), g(i + 1, j + 1), g(i, j + 1));
            }
        }
    }
    // Inner ring edges, counter-clockwise, with positions along the outer edge direction.
    let bottom: Vec<u32> = (1..nu).map(|i| g(i, 1)).collect();
    let right: Vec<u32> = (1..nv).map(|j| g(nu - 1, j)).collect();
    let top: Vec<u32> = (1..nu).rev().map(|i| g(i, nv - 1)).collect();
    let left: Vec<u32> = (1..nv).rev().map(|j| g(1, j)).collect();
    let bp: Vec<f32> = (1..nu).map(|i| tu[i]).collect();
    let rp: Vec<f32> = (1..nv).map(|j| tv[j]).collect();
    let tp: Vec<f32> = (1..nu).rev().map(|i| 1.0 - tu[i]).collect();
    let lp: Vec<f32> = (1..nv).rev().map(|j| 1.0 - tv[j]).collect();
    // Outer edges: bottom v==0 (OL1), right u==1 (OL2), top v==1 (OL3), left u==0 (OL0).
    let corners = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    let corner_ids: Vec<u32> = corners
        .iter()
        .map(|c| b.vertex([c[0], c[1], 0.0]))
        .collect();
    let levels = [ol[1], ol[2], ol[3], ol[0]];
    let inner_edges = [(bottom, bp), (right, rp), (top, tp), (left, lp)];
    for e in 0..4 {
        let ps = edge_params(levels[e], sp);
        let (a, c) = (corners[e], corners[(e + 1) % 4]);
        let mut ids = vec![corner_ids[e]];
        for p in &ps[1..ps.len() - 1] {
            let q = lerp3([a[0], a[1], 0.0], [c[0], c[1], 0.0], *p);
            ids.push(b.vertex(q));
        }
        ids.push(corner_ids[(e + 1) % 4]);
        let (ii, ip) = &inner_edges[e];
        b.stitch(&ids, &ps, ii, ip);
    }
    finish_tris(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use TessMode::*;
    use TessSpacing::*;

    fn cfg(mode: TessMode, spacing: TessSpacing) -> TessConfig {
        TessConfig {
            mode,
            spacing,
            cw: false,
            point_mode: false,
        }
    }

    /// 2D position of a domain coordinate as drawn in Figure X.1.
    fn pos(mode: TessMode, c: [f32; 3]) -> (f64, f64) {
        match mode {
            Triangles => (
                c[0] as f64 + 0.5 * c[1] as f64,
                c[1] as f64 * 0.75f64.sqrt(),
            ),
            _ => (c[0] as f64, c[1] as f64),
        }
    }

    fn signed_areas(t: &Tessellation, mode: TessMode) -> Vec<f64> {
        t.indices
            .chunks(3)
            .map(|tri| {
                let p: Vec<(f64, f64)> = tri
                    .iter()
                    .map(|i| pos(mode, t.coords[*i as usize]))
                    .collect();
                0.5 * ((p[1].0 - p[0].0) * (p[2].1 - p[0].1)
                    - (p[2].0 - p[0].0) * (p[1].1 - p[0].1))
            })
            .collect()
    }

    /// Every triangle is counter-clockwise (or degenerate) and together they cover the
    /// domain's area exactly once.
    fn check_cover(t: &Tessellation, mode: TessMode) {
        let areas = signed_areas(t, mode);
        assert!(areas.iter().all(|a| *a >= -1e-9), "all ccw: {areas:?}");
        let total: f64 = areas.iter().sum();
        let want = if mode == Triangles {
            0.75f64.sqrt() / 2.0
        } else {
            1.0
        };
        assert!((total - want).abs() < 1e-5, "area {total} want {want}");
        for c in &t.coords {
            assert!(c.iter().all(|x| (-1e-6..=1.0 + 1e-6).contains(x)), "{c:?}");
            if mode == Triangles {
                assert!((c[0] + c[1] + c[2] - 1.0).abs() < 1e-5);
            }
        }
    }

    fn distinct(t: &Tessellation) -> usize {
        let mut v: Vec<[u32; 3]> = t
            .coords
            .iter()
            .map(|c| c.map(|x| (x * 1e5).round() as u32))
            .collect();
        v.sort();
        v.dedup();
        v.len()
    }

    #[test]
    fn level_rounding() {
        assert_eq!(round_level(2.1, Equal).n, 3);
        assert_eq!(round_level(0.3, Equal).n, 1);
        assert_eq!(round_level(100.0, Equal).n, 64);
        assert_eq!(round_level(2.1, FractionalEven).n, 4);
        assert_eq!(round_level(1.0, FractionalEven).n, 2);
        assert_eq!(round_level(2.1, FractionalOdd).n, 3);
        assert_eq!(round_level(3.0, FractionalOdd).n, 3);
        assert_eq!(round_level(64.0, FractionalOdd).n, 63);
        assert_eq!(round_level(f32::NAN, Equal).n, 1);
    }

    #[test]
    fn fractional_edges_are_symmetric_with_short_middle_segments() {
        let p = edge_params(round_level(3.5, FractionalOdd), FractionalOdd);
        assert_eq!(p.len(), 6);
        let seg: Vec<f32> = p.windows(2).map(|w| w[1] - w[0]).collect();
        assert!((seg[0] - 1.0 / 3.5).abs() < 1e-6 && (seg[4] - 1.0 / 3.5).abs() < 1e-6);
        assert!((seg[1] - 0.25 / 3.5).abs() < 1e-6, "{seg:?}");
        assert!((seg[2] - 1.0 / 3.5).abs() < 1e-6);
        for i in 0..p.len() / 2 {
            assert_eq!(p[p.len() - 1 - i], 1.0 - p[i]);
        }
        let e = edge_params(round_level(3.0, FractionalEven), FractionalEven);
        assert_eq!(e.len(), 5);
        assert!((e[2] - 0.5).abs() < 1e-7);
        assert!((e[1] - 1.0 / 3.0).abs() < 1e-6);
        // integer level: all equal
        assert_eq!(
            edge_params(round_level(4.0, FractionalEven), FractionalEven),
            vec![0.0, 0.25, 0.5, 0.75, 1.0]
        );
    }

    #[test]
    fn triangle_counts_table() {
        // (outer, inner, spacing, vertices, triangles)
        type Row = ([f32; 3], f32, TessSpacing, usize, usize);
        let table: &[Row] = &[
            ([1.0; 3], 1.0, Equal, 3, 1),
            ([2.0; 3], 1.0, Equal, 7, 6),
            ([1.0; 3], 2.0, Equal, 4, 3),
            ([2.0; 3], 2.0, Equal, 7, 6),
            ([3.0; 3], 3.0, Equal, 12, 13),
            ([4.0; 3], 4.0, Equal, 19, 24),
            ([1.0, 2.0, 3.0], 3.0, Equal, 9, 10),
            ([2.0; 3], 2.0, FractionalEven, 7, 6),
            ([1.0; 3], 1.0, FractionalEven, 7, 6),
            ([2.5; 3], 2.5, FractionalEven, 19, 24),
            ([1.0; 3], 1.0, FractionalOdd, 3, 1),
            ([2.0; 3], 1.0, FractionalOdd, 12, 13),
            ([3.0; 3], 3.0, FractionalOdd, 12, 13),
            ([5.0; 3], 5.0, FractionalOdd, 27, 37),
        ];
        for (outer, inner, sp, nv, nt) in table {
            let t = tessellate(
                &cfg(Triangles, *sp),
                [outer[0], outer[1], outer[2], 1.0],
                [*inner, 0.0],
            );
            assert_eq!(
                (t.coords.len(), t.primitive_count()),
                (*nv, *nt),
                "{outer:?} {inner} {sp:?}"
            );
            check_cover(&t, Triangles);
        }
    }

    #[test]
    fn triangle_coordinates() {
        let t = tessellate(&cfg(Triangles, Equal), [2.0; 4], [2.0, 0.0]);
        let mut c = t.coords.clone();
        c.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let third = 1.0 / 3.0;
        assert_eq!(
            c,
            vec![
                [0.0, 0.0, 1.0],
                [0.0, 0.5, 0.5],
                [0.0, 1.0, 0.0],
                [third, third, third],
                [0.5, 0.0, 0.5],
                [0.5, 0.5, 0.0],
                [1.0, 0.0, 0.0]
            ]
        );
        // inner 3: ring corner for (1,0,0) at perpendiculars through 1/3 → (5/9, 2/9, 2/9)
        let t = tessellate(&cfg(Triangles, Equal), [3.0; 4], [3.0, 0.0]);
        assert!(t
            .coords
            .iter()
            .any(|c| (c[0] - 5.0 / 9.0).abs() < 1e-6 && (c[1] - 2.0 / 9.0).abs() < 1e-6));
    }

    #[test]
    fn quad_counts_table() {
        type Row = ([f32; 4], [f32; 2], TessSpacing, usize, usize);
        let table: &[Row] = &[
            ([1.0; 4], [1.0; 2], Equal, 4, 2),
            ([2.0; 4], [2.0; 2], Equal, 9, 8),
            ([4.0; 4], [4.0, 2.0], Equal, 19, 20),
            ([3.0; 4], [3.0; 2], Equal, 16, 18),
            ([1.0; 4], [3.0; 2], Equal, 8, 10),
            ([2.0, 1.0, 1.0, 1.0], [1.0; 2], Equal, 6, 5),
            ([1.0; 4], [1.0; 2], FractionalEven, 9, 8),
            ([3.0; 4], [3.0; 2], FractionalEven, 25, 32),
            ([1.0; 4], [1.0; 2], FractionalOdd, 4, 2),
            ([3.0; 4], [3.0; 2], FractionalOdd, 16, 18),
            ([1.5; 4], [1.5; 2], FractionalOdd, 16, 18),
        ];
        for (outer, inner, sp, nv, nt) in table {
            let t = tessellate(&cfg(Quads, *sp), *outer, *inner);
            assert_eq!(
                (t.coords.len(), t.primitive_count()),
                (*nv, *nt),
                "{outer:?} {inner:?} {sp:?}"
            );
            check_cover(&t, Quads);
        }
        // uniform grids have exactly (n+1)(m+1) distinct coordinates
        let t = tessellate(&cfg(Quads, Equal), [3.0, 2.0, 3.0, 2.0], [2.0, 3.0]);
        assert_eq!(distinct(&t), 12);
    }

    #[test]
    fn isolines_table() {
        let t = tessellate(&cfg(Isolines, Equal), [4.0, 6.0, 0.0, 0.0], [0.0; 2]);
        assert_eq!((t.coords.len(), t.primitive_count()), (28, 24));
        assert_eq!(t.coords[7], [0.0, 0.25, 0.0]);
        assert_eq!(t.coords[6], [1.0, 0.0, 0.0]);
        // spacing ignored for the line count; applied to segments
        let t = tessellate(
            &cfg(Isolines, FractionalEven),
            [1.5, 3.0, 0.0, 0.0],
            [0.0; 2],
        );
        assert_eq!((t.coords.len(), t.primitive_count()), (10, 8));
        assert!(t.coords.iter().all(|c| c[1] < 1.0), "no line at v == 1");
    }

    #[test]
    fn discard_and_point_mode_and_cw() {
        for mode in [Triangles, Quads, Isolines] {
            let t = tessellate(&cfg(mode, Equal), [0.0, 2.0, 2.0, 2.0], [2.0; 2]);
            assert_eq!(t.primitive_count(), 0, "{mode:?}");
            let t = tessellate(&cfg(mode, Equal), [2.0, f32::NAN, 2.0, 2.0], [2.0; 2]);
            assert_eq!(t.primitive_count(), 0);
        }
        // irrelevant outer levels do not discard
        assert_eq!(
            tessellate(&cfg(Triangles, Equal), [1.0, 1.0, 1.0, 0.0], [1.0; 2]).primitive_count(),
            1
        );
        assert_eq!(
            tessellate(&cfg(Isolines, Equal), [1.0, 1.0, -1.0, 0.0], [1.0; 2]).primitive_count(),
            1
        );
        // negative inner levels clamp
        assert_eq!(
            tessellate(&cfg(Quads, Equal), [1.0; 4], [-5.0; 2]).primitive_count(),
            2
        );
        let mut c = cfg(Quads, Equal);
        c.point_mode = true;
        let t = tessellate(&c, [2.0; 4], [2.0; 2]);
        assert_eq!((t.class, t.primitive_count()), (PrimClass::Points, 9));
        let mut c = cfg(Triangles, Equal);
        c.cw = true;
        let t = tessellate(&c, [3.0; 4], [3.0; 2]);
        assert!(signed_areas(&t, Triangles).iter().all(|a| *a <= 1e-9));
    }

    /// Primitive and point-mode vertex counts for level sets across every domain and
    /// spacing. The expected counts were read from Mesa llvmpipe (oracle GLSL scenes
    /// capturing `gl_TessCoord` with transform feedback, `probe primitives generated`) and
    /// each agrees with the spec's rounding rules: equal → ceil, fractional_even →
    /// next even ≥ 2, fractional_odd → next odd ≤ 63, MAX_TESS_GEN_LEVEL 64 clamping,
    /// inner 1 + outer > 1 → 1 + epsilon, isoline count always equal-spacing rounded.
    #[test]
    fn counts_match_llvmpipe() {
        // (mode, spacing, outer, inner, primitives, point-mode vertices)
        type Row = (TessMode, TessSpacing, [f32; 4], [f32; 2], usize, usize);
        let table: &[Row] = &[
            (Triangles, Equal, [1.0; 4], [1.0; 2], 1, 3),
            (Triangles, Equal, [2.0, 2.0, 2.0, 1.0], [1.0; 2], 6, 7),
            (Triangles, Equal, [2.5, 3.7, 1.0, 1.0], [3.7, 1.0], 20, 15),
            (
                Triangles,
                Equal,
                [64.0, 64.0, 64.0, 1.0],
                [64.0, 1.0],
                6144,
                3169,
            ),
            // above MAX_TESS_GEN_LEVEL: same as 64
            (
                Triangles,
                Equal,
                [100.0, 100.0, 100.0, 1.0],
                [100.0, 1.0],
                6144,
                3169,
            ),
            (Triangles, FractionalOdd, [1.0; 4], [1.0; 2], 1, 3),
            // inner 1 + epsilon → 3 segments, the inner ring collapses onto the edges
            (
                Triangles,
                FractionalOdd,
                [2.0, 2.0, 2.0, 1.0],
                [1.0; 2],
                13,
                12,
            ),
            (
                Triangles,
                FractionalOdd,
                [3.7, 3.7, 3.7, 1.0],
                [3.7, 1.0],
                37,
                27,
            ),
            (
                Triangles,
                FractionalOdd,
                [2.5, 2.5, 2.5, 1.0],
                [2.5, 1.0],
                13,
                12,
            ),
            // fractional odd clamps to 63
            (
                Triangles,
                FractionalOdd,
                [64.0, 64.0, 64.0, 1.0],
                [64.0, 1.0],
                5953,
                3072,
            ),
            // fractional even clamps to ≥ 2
            (Triangles, FractionalEven, [1.0; 4], [1.0; 2], 6, 7),
            (
                Triangles,
                FractionalEven,
                [2.5, 2.5, 2.5, 1.0],
                [2.5, 1.0],
                24,
                19,
            ),
            (
                Triangles,
                FractionalEven,
                [3.7, 3.7, 3.7, 1.0],
                [3.7, 1.0],
                24,
                19,
            ),
            (
                Triangles,
                FractionalEven,
                [100.0, 100.0, 100.0, 1.0],
                [100.0, 1.0],
                6144,
                3169,
            ),
            // quads: inner 1 with outer > 1 → inner treated as 1 + epsilon (2 segments)
            (Quads, Equal, [3.0; 4], [1.0; 2], 12, 13),
            (Quads, Equal, [2.0, 1.0, 1.0, 1.0], [1.0; 2], 5, 6),
            (Quads, Equal, [2.5, 3.7, 1.0, 1.0], [3.7, 2.5], 19, 15),
            (Quads, FractionalOdd, [3.7; 4], [3.7; 2], 50, 36),
            (Quads, FractionalOdd, [2.0, 1.0, 1.0, 1.0], [1.0; 2], 12, 10),
            (Quads, FractionalEven, [2.5; 4], [2.5; 2], 32, 25),
            (Quads, FractionalEven, [1.0; 4], [1.0; 2], 8, 9),
            (Quads, FractionalEven, [64.0; 4], [64.0; 2], 8192, 4225),
            // isolines: 2.5 lines round up to 3 whatever the spacing; segments follow it
            (Isolines, Equal, [2.5, 3.7, 1.0, 1.0], [1.0; 2], 12, 15),
            (
                Isolines,
                FractionalOdd,
                [2.5, 3.7, 1.0, 1.0],
                [1.0; 2],
                15,
                18,
            ),
            (
                Isolines,
                FractionalEven,
                [2.5, 3.7, 1.0, 1.0],
                [1.0; 2],
                12,
                15,
            ),
            (Isolines, FractionalEven, [1.0; 4], [1.0; 2], 2, 3),
        ];
        for (mode, sp, outer, inner, prims, points) in table {
            let mut c = cfg(*mode, *sp);
            let t = tessellate(&c, *outer, *inner);
            let what = format!("{mode:?} {sp:?} {outer:?} {inner:?}");
            assert_eq!(t.primitive_count(), *prims, "{what}");
            if *mode != Isolines {
                check_cover(&t, *mode);
            }
            c.point_mode = true;
            let p = tessellate(&c, *outer, *inner);
            assert_eq!(p.primitive_count(), *points, "point mode {what}");
            assert_eq!(p.coords, t.coords, "point mode keeps the vertex set {what}");
        }
    }

    /// Point mode emits each generated vertex once, and only coincident "inner" vertices
    /// of fractional odd spacing with an inner level of 1 share coordinates (the spec
    /// keeps them distinct).
    #[test]
    fn point_mode_vertices_are_distinct() {
        for (mode, sp, outer, inner) in [
            (Triangles, Equal, [3.0; 4], [4.0; 2]),
            (Quads, FractionalEven, [2.5; 4], [3.7; 2]),
            (Isolines, FractionalOdd, [2.0, 3.7, 0.0, 0.0], [0.0; 2]),
            (Quads, Equal, [1.0, 2.0, 3.0, 4.0], [5.0, 6.0]),
        ] {
            let mut c = cfg(mode, sp);
            c.point_mode = true;
            let t = tessellate(&c, outer, inner);
            assert_eq!(distinct(&t), t.coords.len(), "{mode:?} {sp:?}");
            assert_eq!(t.indices.len(), t.coords.len());
        }
        let mut c = cfg(Quads, FractionalOdd);
        c.point_mode = true;
        let t = tessellate(&c, [2.0, 1.0, 1.0, 1.0], [1.0; 2]);
        assert_eq!((t.coords.len(), distinct(&t)), (10, 6));
    }

    /// Fractional edge splits follow 2.X.2: n-2 equal segments plus two equal shorter
    /// ones, placed symmetrically; equal to the others when n == f, shrinking towards zero
    /// as n - f approaches 2.
    #[test]
    fn fractional_segments_follow_the_spec() {
        for sp in [FractionalOdd, FractionalEven] {
            let mut last = (0u32, 0.0f32);
            for f in [3.0f32, 3.2, 3.5, 3.7, 3.99, 5.0, 5.3, 5.9, 17.5, 63.0] {
                let l = round_level(f, sp);
                let p = edge_params(l, sp);
                assert_eq!(p.len(), l.n as usize + 1, "{sp:?} {f}");
                assert_eq!((p[0], p[p.len() - 1]), (0.0, 1.0));
                let mut seg: Vec<f32> = p.windows(2).map(|w| w[1] - w[0]).collect();
                assert!(seg.iter().all(|s| *s > 0.0), "{sp:?} {f}: {seg:?}");
                for i in 0..seg.len() {
                    assert!((seg[i] - seg[seg.len() - 1 - i]).abs() < 1e-5, "symmetric");
                }
                seg.sort_by(f32::total_cmp);
                let (short, long) = (seg[0], seg[seg.len() - 1]);
                assert!(
                    (seg[1] - short).abs() < 1e-5,
                    "two short segments {sp:?} {f}"
                );
                assert!(
                    seg[2..].iter().all(|s| (s - long).abs() < 1e-5),
                    "{sp:?} {f}"
                );
                if l.n as f32 == f {
                    assert!((short - long).abs() < 1e-5, "n == f: all equal");
                }
                // same n, growing f (shrinking n - f): the short segments grow
                let ratio = short / long;
                if last.0 == l.n {
                    assert!(ratio > last.1, "{sp:?} {f}: {ratio} after {}", last.1);
                }
                last = (l.n, ratio);
            }
        }
        // level 3.7, fractional odd: n = 5, three segments of 1/3.7 (glemu's choice; the
        // spec leaves the long length open) — llvmpipe's D3D11 tessellator gives
        // 0.286667 long / 0.069992 short at the same level.
        let p = edge_params(round_level(3.7, FractionalOdd), FractionalOdd);
        let want = [
            0.0,
            1.0 / 3.7,
            0.5 - 0.5 / 3.7,
            0.5 + 0.5 / 3.7,
            1.0 - 1.0 / 3.7,
            1.0,
        ];
        for (a, b) in p.iter().zip(want) {
            assert!((a - b).abs() < 1e-6, "{p:?}");
        }
        // level 1 with fractional odd: not subdivided; fractional even clamps to 2.
        assert_eq!(
            edge_params(round_level(1.0, FractionalOdd), FractionalOdd),
            [0.0, 1.0]
        );
        assert_eq!(
            edge_params(round_level(1.0, FractionalEven), FractionalEven),
            [0.0, 0.5, 1.0]
        );
    }

    /// Levels above MAX_TESS_GEN_LEVEL (and infinity) clamp: 64 for equal and fractional
    /// even, 63 for fractional odd.
    #[test]
    fn clamping_at_max_level() {
        for l in [64.0f32, 64.5, 1000.0, f32::INFINITY] {
            assert_eq!(round_level(l, Equal).n, 64);
            assert_eq!(round_level(l, FractionalEven).n, 64);
            assert_eq!(round_level(l, FractionalOdd).n, 63);
        }
        assert_eq!(round_level(62.5, FractionalOdd).n, 63);
        assert_eq!(round_level(62.5, FractionalEven).n, 64);
        let t = tessellate(&cfg(Isolines, Equal), [1000.0, 1000.0, 0.0, 0.0], [0.0; 2]);
        assert_eq!(t.primitive_count(), 64 * 64);
    }

    /// Triangles: the single-triangle case needs inner and all three outer levels at 1
    /// after rounding; fractional even never reaches it (levels clamp to 2).
    #[test]
    fn triangle_inner_one_cases() {
        let one = tessellate(&cfg(Triangles, Equal), [1.0, 0.5, 0.9, 7.0], [0.2, 9.0]);
        assert_eq!((one.coords.len(), one.primitive_count()), (3, 1));
        // one outer level above 1 → inner 1 + epsilon → equal: 2 segments (centre point)
        let t = tessellate(&cfg(Triangles, Equal), [1.0, 1.0, 1.5, 1.0], [1.0, 0.0]);
        assert!(t.coords.contains(&[1.0 / 3.0; 3]), "{:?}", t.coords);
        assert_eq!((t.coords.len(), t.primitive_count()), (5, 4));
        // fractional odd: 3 segments with f = 1 → the inner triangle sits on the corners
        let t = tessellate(
            &cfg(Triangles, FractionalOdd),
            [1.0, 1.0, 2.0, 1.0],
            [1.0, 0.0],
        );
        check_cover(&t, Triangles);
        assert_eq!(t.coords.len(), 3 + 2 + 3);
    }

    /// Equal-spacing domain coordinates as llvmpipe emits them in point mode (xfb of
    /// `gl_TessCoord`): the same vertex sets, up to D3D11's 16.16 fixed point.
    #[test]
    fn equal_spacing_coordinates_match_llvmpipe() {
        let tri: &[[f32; 3]] = &[
            [0.0, 1.0, 0.0],
            [0.0, 0.666672, 0.333328],
            [0.0, 0.333328, 0.666672],
            [0.0, 0.0, 1.0],
            [0.25, 0.0, 0.75],
            [0.5, 0.0, 0.5],
            [0.75, 0.0, 0.25],
            [1.0, 0.0, 0.0],
            [0.166672, 0.666656, 0.166672],
            [0.166672, 0.416656, 0.416672],
            [0.166656, 0.166672, 0.666672],
            [0.416656, 0.166672, 0.416672],
            [0.666656, 0.166672, 0.166672],
            [0.416656, 0.416672, 0.166672],
            [0.333328, 0.333328, 0.333344],
        ];
        let quad: &[[f32; 3]] = &[
            [0.0, 1.0, 0.0],
            [0.0, 0.666672, 0.0],
            [0.0, 0.333328, 0.0],
            [0.0, 0.0, 0.0],
            [0.25, 0.0, 0.0],
            [0.5, 0.0, 0.0],
            [0.75, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.25, 0.666672, 0.0],
            [0.25, 0.333328, 0.0],
            [0.5, 0.333328, 0.0],
            [0.75, 0.333328, 0.0],
            [0.75, 0.666672, 0.0],
            [0.5, 0.666672, 0.0],
        ];
        for (mode, outer, inner, want) in [
            (Triangles, [2.5, 3.7, 1.0, 1.0], [3.7, 1.0], tri),
            (Quads, [2.5, 3.7, 1.0, 1.0], [3.7, 2.5], quad),
        ] {
            let t = tessellate(&cfg(mode, Equal), outer, inner);
            assert_eq!(t.coords.len(), want.len(), "{mode:?}");
            for w in want {
                let near = |c: &[f32; 3]| c.iter().zip(w).all(|(a, b)| (a - b).abs() < 1e-4);
                assert_eq!(
                    t.coords.iter().filter(|c| near(c)).count(),
                    1,
                    "{mode:?} {w:?}"
                );
            }
        }
    }
}
