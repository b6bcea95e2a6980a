//! Primitive assembly: a draw's vertex sequence (with restart markers) into primitives.
//!
//! Output primitives list their vertices in the order a geometry program sees them and
//! record which of them is the provoking vertex, following the GL 3.2 tables (triangle i
//! of a strip is (i, i+1, i+2) for even i and (i+1, i, i+2) for odd i; fans keep the hub
//! first; adjacency forms put the main vertices at even positions for triangles).

use crate::error::{check_alloc, PipelineError};
use crate::fetch::RESTART;

/// The `mode` of a draw call.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PrimitiveMode {
    /// GL_POINTS: one point per vertex.
    Points,
    /// GL_LINES: a line per pair of vertices.
    Lines,
    /// GL_LINE_LOOP: a strip closed back to the first vertex.
    LineLoop,
    /// GL_LINE_STRIP: a line between each vertex and the next.
    LineStrip,
    /// GL_TRIANGLES: a triangle per three vertices.
    Triangles,
    /// GL_TRIANGLE_STRIP: each vertex after the second makes a triangle with the two before
    /// it.
    TriangleStrip,
    /// GL_TRIANGLE_FAN: triangles sharing the first vertex.
    TriangleFan,
    /// GL_QUADS: two triangles per four vertices.
    Quads,
    /// GL_QUAD_STRIP: two triangles per new pair of vertices.
    QuadStrip,
    /// GL_POLYGON: one convex polygon, drawn as a fan.
    Polygon,
    /// GL_LINES_ADJACENCY: four vertices per line, the outer two adjacency.
    LinesAdjacency,
    /// GL_LINE_STRIP_ADJACENCY: a strip with an adjacency vertex at each end.
    LineStripAdjacency,
    /// GL_TRIANGLES_ADJACENCY: six vertices per triangle, adjacency at odd positions.
    TrianglesAdjacency,
    /// GL_TRIANGLE_STRIP_ADJACENCY: a strip whose triangles carry adjacency vertices.
    TriangleStripAdjacency,
    /// GL_PATCHES: GL_PATCH_VERTICES vertices per patch, for tessellation.
    Patches,
}

impl PrimitiveMode {
    /// The primitive class the mode produces (before any geometry/tessellation stage).
    pub fn class(self, patch_vertices: u32) -> PrimClass {
        use PrimitiveMode as M;
        match self {
            M::Points => PrimClass::Points,
            M::Lines | M::LineLoop | M::LineStrip => PrimClass::Lines,
            M::Triangles
            | M::TriangleStrip
            | M::TriangleFan
            | M::Quads
            | M::QuadStrip
            | M::Polygon => PrimClass::Triangles,
            M::LinesAdjacency | M::LineStripAdjacency => PrimClass::LinesAdjacency,
            M::TrianglesAdjacency | M::TriangleStripAdjacency => PrimClass::TrianglesAdjacency,
            M::Patches => PrimClass::Patches(patch_vertices),
        }
    }
}

/// Kind of assembled primitive; fixes the vertex count per primitive.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PrimClass {
    /// One vertex per primitive.
    Points,
    /// Two vertices per primitive.
    Lines,
    /// Three vertices per primitive.
    Triangles,
    /// Lines with adjacency: four vertices (main ones at 1 and 2).
    LinesAdjacency,
    /// Triangles with adjacency: six vertices (main ones at even positions).
    TrianglesAdjacency,
    /// Patches of this many vertices.
    Patches(u32),
}

impl PrimClass {
    /// Number of vertices each primitive of the class has.
    pub fn vertices(self) -> usize {
        match self {
            PrimClass::Points => 1,
            PrimClass::Lines => 2,
            PrimClass::Triangles => 3,
            PrimClass::LinesAdjacency => 4,
            PrimClass::TrianglesAdjacency => 6,
            PrimClass::Patches(n) => n as usize,
        }
    }

    /// The class left when adjacency vertices are dropped (no geometry program).
    pub fn without_adjacency(self) -> PrimClass {
        match self {
            PrimClass::LinesAdjacency => PrimClass::Lines,
            PrimClass::TrianglesAdjacency => PrimClass::Triangles,
            c => c,
        }
    }
}

/// Assembled primitives: `verts` holds `class.vertices()` entries per primitive, each an
/// item of the input sequence; `provoking[p]` is the position (within primitive `p`) of
/// its provoking vertex.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Primitives {
    /// Vertex indices into the input sequence, `class.vertices()` per primitive.
    pub verts: Vec<u32>,
    /// Position of each primitive's provoking vertex within the primitive.
    pub provoking: Vec<u8>,
    /// Per triangle, bit i set = the edge from vertex i to vertex i+1 is a polygon edge
    /// (drawn in polygon mode LINE/POINT); empty = every edge is. Quads and polygons
    /// split into triangles hide their diagonals.
    pub edge_flags: Vec<u8>,
}

impl Primitives {
    /// Number of primitives.
    pub fn len(&self) -> usize {
        self.provoking.len()
    }
    /// True when there are no primitives.
    pub fn is_empty(&self) -> bool {
        self.provoking.is_empty()
    }
    fn push(&mut self, v: &[u32], provoking: u8) {
        self.verts.extend_from_slice(v);
        self.provoking.push(provoking);
        if !self.edge_flags.is_empty() {
            self.edge_flags.push(0b111);
        }
    }

    /// Pushes a triangle with explicit edge flags.
    fn push_flagged(&mut self, v: &[u32], provoking: u8, flags: u8) {
        if self.edge_flags.is_empty() {
            self.edge_flags = vec![0b111; self.provoking.len()];
        }
        self.verts.extend_from_slice(v);
        self.provoking.push(provoking);
        self.edge_flags.push(flags);
    }

    /// Edge flags of primitive `p`.
    pub fn edges(&self, p: usize) -> u8 {
        self.edge_flags.get(p).copied().unwrap_or(0b111)
    }

    /// Primitives `range` (of `per` vertices each) as a set of their own.
    pub fn slice(&self, range: std::ops::Range<usize>, per: usize) -> Primitives {
        let (lo, hi) = (range.start.min(self.len()), range.end.min(self.len()));
        let lo = lo.min(hi);
        Primitives {
            verts: self.verts.get(lo * per..hi * per).unwrap_or(&[]).to_vec(),
            provoking: self.provoking.get(lo..hi).unwrap_or(&[]).to_vec(),
            edge_flags: self.edge_flags.get(lo..hi).unwrap_or(&[]).to_vec(),
        }
    }

    /// Appends `other`, whose vertex indices move up by `base`.
    pub fn append(&mut self, other: &Primitives, base: u32) {
        if !other.edge_flags.is_empty() || !self.edge_flags.is_empty() {
            self.edge_flags.resize(self.len(), 0b111);
            self.edge_flags
                .extend((0..other.len()).map(|p| other.edges(p)));
        }
        self.verts
            .extend(other.verts.iter().map(|v| v.wrapping_add(base)));
        self.provoking.extend_from_slice(&other.provoking);
    }
}

/// Assembles `seq` (vertex ids, [`RESTART`] splitting it into independent runs).
pub fn assemble(
    mode: PrimitiveMode,
    seq: &[u32],
    patch_vertices: u32,
    provoking_last: bool,
) -> Result<(PrimClass, Primitives), PipelineError> {
    let class = mode.class(patch_vertices);
    if let PrimClass::Patches(n) = class {
        if !(1..=32).contains(&n) {
            return Err(PipelineError::invalid_value(format!(
                "patch vertex count {n} is not 1..32"
            )));
        }
    }
    let mut out = Primitives::default();
    // Each run yields at most ~2 primitives per vertex with at most 6 vertices each.
    check_alloc(seq.len() as u64 * 6, "assembled vertices")?;
    // Independent primitives without restarts: the sequence itself, in one copy.
    let per = class.vertices();
    let independent = match mode {
        PrimitiveMode::Points | PrimitiveMode::Lines | PrimitiveMode::Triangles => true,
        PrimitiveMode::Patches => per > 0,
        _ => false,
    };
    if independent && !seq.contains(&RESTART) {
        let n = seq.len() / per;
        out.verts = crate::scratch::WORDS.take(n * per);
        out.verts.extend_from_slice(&seq[..n * per]);
        let provoking = if provoking_last && mode != PrimitiveMode::Patches {
            per as u8 - 1
        } else {
            0
        };
        out.provoking = vec![provoking; n];
        return Ok((class, out));
    }
    out.verts = crate::scratch::WORDS.with_capacity(seq.len() * per);
    for run in seq.split(|v| *v == RESTART) {
        assemble_run(mode, class, run, provoking_last, &mut out);
    }
    Ok((class, out))
}

fn assemble_run(
    mode: PrimitiveMode,
    class: PrimClass,
    r: &[u32],
    last: bool,
    out: &mut Primitives,
) {
    use PrimitiveMode as M;
    let n = r.len();
    let pick = |first: u8, last_pos: u8| if last { last_pos } else { first };
    match mode {
        M::Points => r.iter().for_each(|v| out.push(&[*v], 0)),
        M::Lines => r.chunks_exact(2).for_each(|c| out.push(c, pick(0, 1))),
        M::LineStrip | M::LineLoop => {
            for w in r.windows(2) {
                out.push(w, pick(0, 1));
            }
            if mode == M::LineLoop && n >= 2 {
                out.push(&[r[n - 1], r[0]], pick(0, 1));
            }
        }
        M::Triangles => r.chunks_exact(3).for_each(|c| out.push(c, pick(0, 2))),
        M::TriangleStrip => {
            for (i, w) in r.windows(3).enumerate() {
                if i % 2 == 0 {
                    out.push(w, pick(0, 2));
                } else {
                    // vertex i sits at position 1
                    out.push(&[w[1], w[0], w[2]], pick(1, 2));
                }
            }
        }
        M::TriangleFan => {
            for i in 1..n.saturating_sub(1) {
                out.push(&[r[0], r[i], r[i + 1]], pick(1, 2));
            }
        }
        M::Quads => r
            .chunks_exact(4)
            .for_each(|c| quad(c[0], c[1], c[2], c[3], last, out)),
        M::QuadStrip => {
            let mut i = 0;
            while i + 3 < n {
                quad(r[i], r[i + 1], r[i + 3], r[i + 2], last, out);
                i += 2;
            }
        }
        M::Polygon => {
            // A polygon's provoking vertex is always its first (GL 2.x flat shading).
            for i in 1..n.saturating_sub(1) {
                let flags = 0b010 | u8::from(i == 1) | (u8::from(i + 2 == n) << 2);
                out.push_flagged(&[r[0], r[i], r[i + 1]], 0, flags);
            }
        }
        M::LinesAdjacency => r.chunks_exact(4).for_each(|c| out.push(c, pick(1, 2))),
        M::LineStripAdjacency => {
            for w in r.windows(4) {
                out.push(w, pick(1, 2));
            }
        }
        M::TrianglesAdjacency => r.chunks_exact(6).for_each(|c| out.push(c, pick(0, 4))),
        M::TriangleStripAdjacency => tri_strip_adjacency(r, last, out),
        M::Patches => {
            let k = class.vertices().max(1);
            r.chunks_exact(k).for_each(|c| out.push(c, 0));
        }
    }
}

/// Splits a quad (in polygon order) as the Mesa draw module does, so the diagonal matches
/// the reference renderer: the provoking (last) vertex is shared by both triangles.
fn quad(a: u32, b: u32, c: u32, d: u32, last: bool, out: &mut Primitives) {
    // Diagonal edges (bit of the edge b→d or c→a) are hidden.
    if last {
        out.push_flagged(&[a, b, d], 2, 0b101);
        out.push_flagged(&[b, c, d], 2, 0b011);
    } else {
        out.push_flagged(&[a, b, c], 0, 0b011);
        out.push_flagged(&[a, c, d], 0, 0b110);
    }
}

/// GL 3.2 table 2.4 (1-based vertex numbers in the comments).
fn tri_strip_adjacency(r: &[u32], last: bool, out: &mut Primitives) {
    let n = r.len();
    if n < 6 {
        return;
    }
    let tris = (n - 4) / 2;
    // 1-based accessor
    let v = |k: usize| r.get(k.wrapping_sub(1)).copied().unwrap_or(0);
    for i in 0..tris {
        let (a, b, c, ab, bc, ca) = if tris == 1 {
            (1, 3, 5, 2, 6, 4)
        } else if i == 0 {
            (1, 3, 5, 2, 7, 4)
        } else if i == tris - 1 {
            if i % 2 == 1 {
                (
                    2 * i + 3,
                    2 * i + 1,
                    2 * i + 5,
                    2 * i - 1,
                    2 * i + 4,
                    2 * i + 6,
                )
            } else {
                (
                    2 * i + 1,
                    2 * i + 3,
                    2 * i + 5,
                    2 * i - 1,
                    2 * i + 6,
                    2 * i + 4,
                )
            }
        } else if i % 2 == 1 {
            (
                2 * i + 3,
                2 * i + 1,
                2 * i + 5,
                2 * i - 1,
                2 * i + 4,
                2 * i + 7,
            )
        } else {
            (
                2 * i + 1,
                2 * i + 3,
                2 * i + 5,
                2 * i - 1,
                2 * i + 7,
                2 * i + 4,
            )
        };
        let prim = [a, ab, b, bc, c, ca];
        // Provoking vertex: 2i+1 (first) or 2i+5 (last), wherever it landed.
        let want = if last { 2 * i + 5 } else { 2 * i + 1 };
        let pos = prim.iter().position(|k| *k == want).unwrap_or(0) as u8;
        out.push(&prim.map(v), pos);
    }
}

/// Reduces adjacency primitives to their main vertices (used when no geometry program
/// consumes the adjacency).
pub fn drop_adjacency(class: PrimClass, prims: &Primitives) -> Primitives {
    let (keep, per): (&[usize], usize) = match class {
        PrimClass::LinesAdjacency => (&[1, 2], 4),
        PrimClass::TrianglesAdjacency => (&[0, 2, 4], 6),
        _ => return prims.clone(),
    };
    let mut out = Primitives::default();
    for (p, chunk) in prims.verts.chunks_exact(per).enumerate() {
        let prov = prims.provoking.get(p).copied().unwrap_or(0) as usize;
        let new_prov = keep.iter().position(|k| *k == prov).unwrap_or(0) as u8;
        let v: Vec<u32> = keep.iter().filter_map(|k| chunk.get(*k).copied()).collect();
        out.push(&v, new_prov);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use PrimitiveMode as M;

    fn run(mode: M, n: u32, last: bool) -> (Vec<Vec<u32>>, Vec<u8>) {
        let seq: Vec<u32> = (0..n).collect();
        let (class, p) = assemble(mode, &seq, 3, last).unwrap();
        let per = class.vertices();
        (
            p.verts.chunks(per).map(|c| c.to_vec()).collect(),
            p.provoking,
        )
    }

    #[test]
    fn lists() {
        assert_eq!(run(M::Points, 3, false).0, vec![vec![0], vec![1], vec![2]]);
        assert_eq!(run(M::Lines, 5, false).0, vec![vec![0, 1], vec![2, 3]]);
        assert_eq!(
            run(M::Triangles, 7, true),
            (vec![vec![0, 1, 2], vec![3, 4, 5]], vec![2, 2])
        );
        assert_eq!(
            run(M::Patches, 7, false).0,
            vec![vec![0, 1, 2], vec![3, 4, 5]]
        );
    }

    #[test]
    fn strips_loops_fans() {
        assert_eq!(run(M::LineStrip, 3, false).0, vec![vec![0, 1], vec![1, 2]]);
        assert_eq!(
            run(M::LineLoop, 3, false).0,
            vec![vec![0, 1], vec![1, 2], vec![2, 0]]
        );
        assert_eq!(run(M::LineLoop, 1, false).0, Vec::<Vec<u32>>::new());
        let (t, p) = run(M::TriangleStrip, 5, false);
        assert_eq!(t, vec![vec![0, 1, 2], vec![2, 1, 3], vec![2, 3, 4]]);
        // first-vertex convention: triangle i is provoked by vertex i
        assert_eq!(
            p.iter()
                .zip(&t)
                .map(|(p, t)| t[*p as usize])
                .collect::<Vec<_>>(),
            [0, 1, 2]
        );
        let (t, p) = run(M::TriangleFan, 5, false);
        assert_eq!(t, vec![vec![0, 1, 2], vec![0, 2, 3], vec![0, 3, 4]]);
        assert_eq!(
            p.iter()
                .zip(&t)
                .map(|(p, t)| t[*p as usize])
                .collect::<Vec<_>>(),
            [1, 2, 3]
        );
        let (_, p) = run(M::TriangleFan, 4, true);
        assert_eq!(p, vec![2, 2]);
    }

    #[test]
    fn quads_and_polygons() {
        assert_eq!(run(M::Quads, 4, true).0, vec![vec![0, 1, 3], vec![1, 2, 3]]);
        assert_eq!(
            run(M::Quads, 4, false).0,
            vec![vec![0, 1, 2], vec![0, 2, 3]]
        );
        assert_eq!(run(M::QuadStrip, 6, false).0.len(), 4);
        assert_eq!(run(M::Polygon, 5, false).0.len(), 3);
        let (_, p) = assemble(M::Polygon, &[0, 1, 2, 3, 4], 0, false).unwrap();
        assert_eq!(p.edge_flags, vec![0b011, 0b010, 0b110]);
        let (_, p) = assemble(M::Quads, &[0, 1, 2, 3], 0, true).unwrap();
        assert_eq!(p.edge_flags, vec![0b101, 0b011]);
        let (_, p) = assemble(M::Triangles, &[0, 1, 2], 0, true).unwrap();
        assert_eq!((p.edges(0), p.edge_flags.len()), (0b111, 0));
    }

    #[test]
    fn adjacency() {
        assert_eq!(
            run(M::LinesAdjacency, 8, false),
            (vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]], vec![1, 1])
        );
        assert_eq!(
            run(M::LineStripAdjacency, 5, true).0,
            vec![vec![0, 1, 2, 3], vec![1, 2, 3, 4]]
        );
        assert_eq!(
            run(M::TrianglesAdjacency, 6, false).0,
            vec![vec![0, 1, 2, 3, 4, 5]]
        );
        // strip with adjacency: one triangle from 6 vertices (table row "only")
        assert_eq!(
            run(M::TriangleStripAdjacency, 6, false).0,
            vec![vec![0, 1, 2, 5, 4, 3]]
        );
        // 10 vertices: 3 triangles: first, middle (odd), last (even)
        let (t, p) = run(M::TriangleStripAdjacency, 10, false);
        assert_eq!(
            t,
            vec![
                vec![0, 1, 2, 6, 4, 3],
                vec![4, 0, 2, 5, 6, 8],
                vec![4, 2, 6, 9, 8, 7]
            ]
        );
        assert_eq!(
            p.iter()
                .zip(&t)
                .map(|(p, t)| t[*p as usize])
                .collect::<Vec<_>>(),
            [0, 2, 4]
        );
        let (class, prims) = assemble(M::TrianglesAdjacency, &[0, 1, 2, 3, 4, 5], 0, true).unwrap();
        let d = drop_adjacency(class, &prims);
        assert_eq!(d.verts, vec![0, 2, 4]);
        assert_eq!(d.provoking, vec![2]);
    }

    #[test]
    fn restart_splits_runs() {
        let seq = [0, 1, 2, RESTART, 3, 4, 5, 6];
        let (_, p) = assemble(M::TriangleStrip, &seq, 0, false).unwrap();
        assert_eq!(p.verts, vec![0, 1, 2, 3, 4, 5, 5, 4, 6]);
        assert!(assemble(M::Patches, &seq, 0, false).is_err());
        assert!(assemble(M::Patches, &seq, 33, false).is_err());
    }
}
