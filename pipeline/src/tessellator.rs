//! The fixed-function tessellation primitive generator (ARB_tessellation_shader 2.X.2),
//! computed the way the Direct3D 11 reference tessellator does it — the algorithm NVIDIA
//! hardware and Mesa (llvmpipe's `tessellator.cpp`, a port of Microsoft's reference) both
//! follow, so that emulators comparing images against hardware get the same vertices.
//!
//! The GL spec fixes the level rounding and the symmetry of fractional segments but leaves
//! their exact lengths and the triangulation to the implementation; this module
//! reproduces the reference bit for bit: levels are clamped (NaN → the minimum), rounded
//! per spacing and converted to 16.16 fixed point; each edge is split from both ends
//! towards its middle, point `i` of a half edge interpolated between its positions for
//! the floor and ceiling of half the level (the "ruler function" order decides which
//! point splits first); rings are stitched to each other with the reference's fixed
//! diagonal patterns. Coordinates are the fixed-point values converted to float (exact);
//! the order of points, triangles and of each triangle's vertices is the reference's.
//! Tests compare against tables captured from llvmpipe (`tess_tables.txt`).

use crate::assembly::PrimClass;
use glemu_programs::ir::{TessMode, TessSpacing};

/// MAX_TESS_GEN_LEVEL.
pub const MAX_TESS_LEVEL: f32 = 64.0;

/// Tessellation layout from the evaluation program's declarations.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TessConfig {
    /// `TESS_MODE`: the domain.
    pub mode: TessMode,
    /// `TESS_SPACING`: how levels become segments.
    pub spacing: TessSpacing,
    /// `cw` vertex order (default ccw).
    pub cw: bool,
    /// `TESS_POINT_MODE`: points instead of lines or triangles.
    pub point_mode: bool,
}

/// The generated primitives: domain coordinates and, per primitive, indices into them.
#[derive(Clone, Debug, PartialEq)]
pub struct Tessellation {
    /// (u, v, w) for triangles; (u, v, 0) for quads and isolines.
    pub coords: Vec<[f32; 3]>,
    /// `Points`, `Lines` or `Triangles`.
    pub class: PrimClass,
    /// Indices into `coords`, `class.vertices()` per primitive.
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
    /// Number of primitives generated.
    pub fn primitive_count(&self) -> usize {
        self.indices.len() / self.class.vertices()
    }
}

/// A 16.16 fixed-point number. The reference computes in unsigned 32-bit arithmetic;
/// every operation here wraps the same way.
type Fxp = u32;
const FRAC_BITS: u32 = 16;
const FRAC_MASK: Fxp = 0x0000_ffff;
const INT_MASK: Fxp = 0x7fff_0000;
const ONE: Fxp = 1 << FRAC_BITS;
const ONE_HALF: Fxp = 0x8000;
const ONE_THIRD: Fxp = 0x5555;
const TWO_THIRDS: Fxp = 0xaaaa;
/// 2^-16: an odd inner level is raised to 1 + this when any outer level exceeds 1, so
/// the patch keeps a ring of its own (the "picture frame").
const EPSILON: f32 = 1.0 / 65536.0;

/// 1/n in 16.16, rounded to nearest (entry 0, 1/0, is never used for a real point).
const RECIPROCAL: [Fxp; 65] = {
    let mut t = [0xffff_ffff; 65];
    let mut n = 1;
    while n < 65 {
        t[n] = ((2 << FRAC_BITS) + n as u32) / (2 * n as u32);
        n += 1;
    }
    t
};

fn fxp_ceil(x: Fxp) -> Fxp {
    if x & FRAC_MASK != 0 {
        (x & INT_MASK).wrapping_add(ONE)
    } else {
        x
    }
}

fn fxp_floor(x: Fxp) -> Fxp {
    x & INT_MASK
}

/// A clamped level (within [1, 64]) in 16.16, rounded to nearest even at the last bit.
fn to_fixed(level: f32) -> Fxp {
    (f64::from(level) * f64::from(ONE)).round_ties_even() as Fxp
}

/// Exact: a coordinate has at most 17 significant bits.
fn to_float(x: Fxp) -> f32 {
    (x >> FRAC_BITS) as f32 + (x & FRAC_MASK) as f32 / ONE as f32
}

/// Whether a level is split into an even or odd number of segments.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Parity {
    Even,
    Odd,
}

impl Parity {
    /// Of a rounded integer level (equal spacing); the reference truncates to int.
    fn of(level: f32) -> Parity {
        if (level as i32) & 1 == 0 {
            Parity::Even
        } else {
            Parity::Odd
        }
    }
    fn odd(self) -> bool {
        self == Parity::Odd
    }
}

/// How a spacing clamps and rounds levels.
#[derive(Copy, Clone)]
struct Partitioning {
    /// Equal spacing: levels round up to integers and each edge takes its own parity.
    integer: bool,
    /// The parity of fractional spacing.
    parity: Parity,
    lo: f32,
    hi: f32,
}

impl Partitioning {
    fn new(spacing: TessSpacing) -> Partitioning {
        let (integer, parity, lo, hi) = match spacing {
            TessSpacing::Equal => (true, Parity::Even, 1.0, MAX_TESS_LEVEL),
            TessSpacing::FractionalEven => (false, Parity::Even, 2.0, MAX_TESS_LEVEL),
            TessSpacing::FractionalOdd => (false, Parity::Odd, 1.0, MAX_TESS_LEVEL - 1.0),
        };
        Partitioning {
            integer,
            parity,
            lo,
            hi,
        }
    }

    /// Clamps to [lo, hi] (NaN → lo), rounding up for equal spacing.
    fn clamp(&self, level: f32, lo: f32) -> f32 {
        let l = if level.is_nan() {
            lo
        } else {
            level.max(lo).min(self.hi)
        };
        if self.integer {
            l.ceil()
        } else {
            l
        }
    }

    fn outer_parity(&self, level: f32) -> Parity {
        if self.integer {
            Parity::of(level)
        } else {
            self.parity
        }
    }

    /// An inner level of exactly 1 counts as even (its ring degenerates onto the edges).
    fn inner_parity(&self, level: f32) -> Parity {
        if self.integer {
            if level == 1.0 {
                Parity::Even
            } else {
                Parity::of(level)
            }
        } else {
            self.parity
        }
    }

    /// The lower bound of inner levels: fractional odd spacing keeps a ring (1 + 2^-16)
    /// when any of `levels` is above 1.
    fn inner_lo(&self, levels: &[f32]) -> f32 {
        let frame = !self.integer && self.parity.odd();
        if frame && levels.iter().any(|&l| l > 1.0 + EPSILON / 2.0) {
            self.lo + EPSILON
        } else {
            self.lo
        }
    }

    /// Whether every level being 1 draws the bare patch (not for fractional even, whose
    /// minimum is 2).
    fn minimum_possible(&self) -> bool {
        self.integer || self.parity.odd()
    }
}

/// What placing the points of one level along an edge needs.
#[derive(Copy, Clone, Debug, Default)]
struct Edge1D {
    inv_floor_segments: Fxp,
    inv_ceil_segments: Fxp,
    half_fraction: Fxp,
    half_points: i32,
    split_point: i32,
}

/// `val` without its highest set bit (searching 8 bits down from the top of its byte
/// range, as the reference does).
fn remove_msb(val: i32) -> i32 {
    let mut check: i32 = if val <= 0xffff {
        if val <= 0xff {
            0x80
        } else {
            0x8000
        }
    } else if val <= 0x00ff_ffff {
        0x0080_0000
    } else {
        i32::MIN
    };
    for _ in 0..8 {
        if val & check != 0 {
            return val & !check;
        }
        check = ((check as u32) >> 1) as i32;
    }
    0
}

fn num_points(level: Fxp, parity: Parity) -> i32 {
    let half = level.wrapping_add(1) / 2;
    if parity.odd() {
        ((fxp_ceil(ONE_HALF.wrapping_add(half)).wrapping_mul(2)) >> FRAC_BITS) as i32
    } else {
        ((fxp_ceil(half).wrapping_mul(2) >> FRAC_BITS) + 1) as i32
    }
}

fn edge_1d(level: Fxp, parity: Parity) -> Edge1D {
    let odd = parity.odd();
    let mut half = level.wrapping_add(1) / 2;
    // Level 1 in even parity pretends to be even with half = 1/2 + 1/2.
    if odd || half == ONE_HALF {
        half = half.wrapping_add(ONE_HALF);
    }
    let floor = fxp_floor(half);
    let ceil = fxp_ceil(half);
    let half_points = (ceil >> FRAC_BITS) as i32;
    let split_point = if ceil == floor {
        half_points + 1
    } else if odd {
        if floor == ONE {
            0
        } else {
            (remove_msb((floor >> FRAC_BITS) as i32 - 1) << 1) + 1
        }
    } else {
        (remove_msb((floor >> FRAC_BITS) as i32) << 1) + 1
    };
    let mut floor_segments = (floor.wrapping_mul(2) >> FRAC_BITS) as usize;
    let mut ceil_segments = (ceil.wrapping_mul(2) >> FRAC_BITS) as usize;
    if odd {
        floor_segments = floor_segments.wrapping_sub(1);
        ceil_segments = ceil_segments.wrapping_sub(1);
    }
    let inv = |n: usize| RECIPROCAL.get(n).copied().unwrap_or(0xffff_ffff);
    Edge1D {
        inv_floor_segments: inv(floor_segments),
        inv_ceil_segments: inv(ceil_segments),
        half_fraction: half.wrapping_sub(floor),
        half_points,
        split_point,
    }
}

/// Position (0..=1) of point `point` of an edge.
fn place(e: &Edge1D, point: i32, parity: Parity) -> Fxp {
    let mut point = point;
    let flip = point >= e.half_points;
    if flip {
        point = (e.half_points << 1) - point;
        if parity.odd() {
            point -= 1;
        }
    }
    if point == e.half_points {
        // 16.16 arithmetic below cannot reach 1/2 exactly.
        return ONE_HALF;
    }
    let on_ceil = point as u32;
    let on_floor = if point > e.split_point {
        on_ceil.wrapping_sub(1)
    } else {
        on_ceil
    };
    let at_floor = on_floor.wrapping_mul(e.inv_floor_segments);
    let at_ceil = on_ceil.wrapping_mul(e.inv_ceil_segments);
    let loc = at_floor
        .wrapping_mul(ONE.wrapping_sub(e.half_fraction))
        .wrapping_add(at_ceil.wrapping_mul(e.half_fraction));
    let loc = loc.wrapping_add(ONE_HALF) >> FRAC_BITS;
    if flip {
        ONE.wrapping_sub(loc)
    } else {
        loc
    }
}

/// One level with everything the generators need about it.
#[derive(Copy, Clone, Debug)]
struct Level {
    parity: Parity,
    edge: Edge1D,
    points: i32,
}

impl Level {
    fn new(level: f32, parity: Parity) -> Level {
        let fx = to_fixed(level);
        Level {
            parity,
            edge: edge_1d(fx, parity),
            points: num_points(fx, parity),
        }
    }
    fn place(&self, point: i32) -> Fxp {
        place(&self.edge, point, self.parity)
    }
}

/// Index remapping for the stitch that closes a ring (the reference's two patch
/// contexts): the stitch functions see two increasing rows of points while the real
/// indices wrap around to the ring's start or run backwards along a degenerate row.
#[derive(Copy, Clone, Debug)]
enum Remap {
    None,
    Wrap {
        inside_delta: i32,
        inside_bad: i32,
        inside_replacement: i32,
        outside_base: i32,
        outside_delta: i32,
        outside_bad: i32,
        outside_replacement: i32,
    },
    Invert {
        base: i32,
        corner_bad: i32,
        corner_replacement: i32,
        end: i32,
    },
}

impl Remap {
    fn apply(&self, index: i32) -> i32 {
        match *self {
            Remap::None => index,
            Remap::Wrap {
                inside_delta,
                inside_bad,
                inside_replacement,
                outside_base,
                outside_delta,
                outside_bad,
                outside_replacement,
            } => {
                if index >= outside_base {
                    if index == outside_bad {
                        outside_replacement
                    } else {
                        index + outside_delta
                    }
                } else if index == inside_bad {
                    inside_replacement
                } else {
                    index + inside_delta
                }
            }
            Remap::Invert {
                base,
                corner_bad,
                corner_replacement,
                end,
            } => {
                if index == corner_bad {
                    corner_replacement
                } else if index >= base {
                    end - index
                } else {
                    index
                }
            }
        }
    }
}

/// How the diagonals of a row of quads between two rings run.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Diagonals {
    InsideToOutside,
    InsideToOutsideExceptMiddle,
    Mirrored,
}

/// Order of stitch-transition splits: where point i of a half edge ends up at the
/// largest level (the ruler function; supports odd levels up to 65, even up to 64).
const FINAL_POINT_POSITION: [i32; 33] = [
    0, 32, 16, 8, 17, 4, 18, 9, 19, 2, 20, 10, 21, 5, 22, 11, 23, 1, 24, 12, 25, 6, 26, 13, 27, 3,
    28, 14, 29, 7, 30, 15, 31,
];
/// First and last entries of [`FINAL_POINT_POSITION`] below each half level (0 and 1
/// skip the loop).
const LOOP_START: [i32; 33] = [
    1, 1, 17, 9, 9, 5, 5, 5, 5, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2,
];
const LOOP_END: [i32; 33] = [
    0, 0, 17, 17, 25, 25, 25, 25, 29, 29, 29, 29, 29, 29, 29, 29, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 32,
];

fn table(t: &[i32; 33], i: i32) -> i32 {
    usize::try_from(i)
        .ok()
        .and_then(|i| t.get(i))
        .copied()
        .unwrap_or(0)
}

/// Points (16.16 u, v) and triangles as the reference generates them.
struct Builder {
    points: Vec<[Fxp; 2]>,
    indices: Vec<i32>,
    cw: bool,
    remap: Remap,
}

impl Builder {
    fn new(cw: bool) -> Builder {
        Builder {
            points: Vec::new(),
            indices: Vec::new(),
            cw,
            remap: Remap::None,
        }
    }

    fn point(&mut self, u: Fxp, v: Fxp) {
        self.points.push([u, v]);
    }

    /// A triangle in the reference's clockwise order, stored in the requested winding.
    /// The reference's clockwise is counter-clockwise in GL's (u, v) domain (its v axis
    /// points the other way), so GL's `ccw` keeps the order and `cw` swaps.
    fn tri(&mut self, a: i32, b: i32, c: i32) {
        let (b, c) = if self.cw { (c, b) } else { (b, c) };
        for i in [a, b, c] {
            let i = self.remap.apply(i);
            self.indices.push(i);
        }
    }

    fn stitch_regular(
        &mut self,
        trapezoid: bool,
        diagonals: Diagonals,
        inside_points: i32,
        inside_base: i32,
        outside_base: i32,
    ) {
        let (mut ip, mut op) = (inside_base, outside_base);
        if trapezoid {
            self.tri(op, op + 1, ip);
            op += 1;
        }
        let n = inside_points;
        match diagonals {
            Diagonals::InsideToOutside => {
                for _ in 0..n - 1 {
                    self.tri(ip, op, op + 1);
                    self.tri(ip, op + 1, ip + 1);
                    ip += 1;
                    op += 1;
                }
            }
            Diagonals::InsideToOutsideExceptMiddle => {
                let mut p = 0;
                while p < n / 2 - 1 {
                    self.tri(op, op + 1, ip);
                    self.tri(ip, op + 1, ip + 1);
                    ip += 1;
                    op += 1;
                    p += 1;
                }
                self.tri(op, ip + 1, ip);
                self.tri(op, op + 1, ip + 1);
                ip += 1;
                op += 1;
                p += 2;
                while p < n {
                    self.tri(op, op + 1, ip);
                    self.tri(ip, op + 1, ip + 1);
                    ip += 1;
                    op += 1;
                    p += 1;
                }
            }
            Diagonals::Mirrored => {
                let mut p = 0;
                while p < n / 2 {
                    self.tri(op, ip + 1, ip);
                    self.tri(op, op + 1, ip + 1);
                    ip += 1;
                    op += 1;
                    p += 1;
                }
                while p < n - 1 {
                    self.tri(ip, op, op + 1);
                    self.tri(ip, op + 1, ip + 1);
                    ip += 1;
                    op += 1;
                    p += 1;
                }
            }
        }
        if trapezoid {
            self.tri(op, op + 1, ip);
        }
    }

    /// Stitches the outer edge to the first ring, whose levels may differ: points are
    /// added on whichever side the ruler function reaches first, from both ends of the
    /// edge towards its middle.
    fn stitch_transition(
        &mut self,
        inside_base: i32,
        inside: &Level,
        outside_base: i32,
        outside: &Level,
    ) {
        let inside_half = inside.edge.half_points - i32::from(inside.parity.odd());
        let outside_half = outside.edge.half_points - i32::from(outside.parity.odd());
        let (mut ip, mut op) = (inside_base, outside_base);
        let start = table(&LOOP_START, inside_half).min(table(&LOOP_START, outside_half));
        let end = table(&LOOP_END, inside_half).max(table(&LOOP_END, outside_half));
        if FINAL_POINT_POSITION[0] < outside_half {
            self.tri(op, op + 1, ip);
            op += 1;
        }
        for i in start..=end {
            if table(&FINAL_POINT_POSITION, i) < inside_half {
                self.tri(ip, op, ip + 1);
                ip += 1;
            }
            if table(&FINAL_POINT_POSITION, i) < outside_half {
                self.tri(op, op + 1, ip);
                op += 1;
            }
        }
        if inside.parity != outside.parity || inside.parity.odd() {
            if inside.parity == outside.parity {
                // A quad in the middle.
                self.tri(ip, op, ip + 1);
                self.tri(ip + 1, op, op + 1);
                ip += 1;
                op += 1;
            } else if inside.parity == Parity::Even {
                // A triangle pointing inside.
                self.tri(ip, op, op + 1);
                op += 1;
            } else {
                // A triangle pointing outside.
                self.tri(ip, op, ip + 1);
                ip += 1;
            }
        }
        for i in (start..=end).rev() {
            if table(&FINAL_POINT_POSITION, i) < outside_half {
                self.tri(op, op + 1, ip);
                op += 1;
            }
            if table(&FINAL_POINT_POSITION, i) < inside_half {
                self.tri(ip, op, ip + 1);
                ip += 1;
            }
        }
        if FINAL_POINT_POSITION[0] < outside_half {
            self.tri(op, op + 1, ip);
        }
    }

    fn finish(self, mode: TessMode) -> Tessellation {
        let coords = self
            .points
            .iter()
            .map(|&[u, v]| {
                let (u, v) = (to_float(u), to_float(v));
                match mode {
                    TessMode::Triangles => [u, v, 1.0 - u - v],
                    _ => [u, v, 0.0],
                }
            })
            .collect();
        Tessellation {
            coords,
            class: if mode == TessMode::Isolines {
                PrimClass::Lines
            } else {
                PrimClass::Triangles
            },
            indices: self.indices.iter().map(|&i| i.max(0) as u32).collect(),
        }
    }
}

/// Runs the primitive generator for one patch. An empty result means the patch was
/// discarded (a relevant outer level ≤ 0 or NaN).
pub fn tessellate(cfg: &TessConfig, outer: [f32; 4], inner: [f32; 2]) -> Tessellation {
    let part = Partitioning::new(cfg.spacing);
    let mut t = match cfg.mode {
        TessMode::Isolines => isolines(part, outer),
        TessMode::Triangles => triangles(part, cfg.cw, outer, inner),
        TessMode::Quads => quads(part, cfg.cw, outer, inner),
    };
    if cfg.point_mode {
        t.indices = (0..t.coords.len() as u32).collect();
        t.class = PrimClass::Points;
    }
    t
}

/// Whether any of `levels` discards the patch (`!(level > 0)`, NaN included).
fn culled(levels: &[f32]) -> bool {
    levels.iter().any(|l| l.is_nan() || *l <= 0.0)
}

fn isolines(part: Partitioning, outer: [f32; 4]) -> Tessellation {
    let mut b = Builder::new(false);
    if culled(&outer[..2]) {
        return Tessellation::empty(PrimClass::Lines);
    }
    // The line count always uses equal spacing.
    let density = Partitioning::new(TessSpacing::Equal);
    let density_level = density.clamp(outer[0], density.lo);
    let detail_level = part.clamp(outer[1], part.lo);
    let detail = Level::new(detail_level, part.outer_parity(detail_level));
    let lines = Level::new(density_level, Parity::of(density_level));
    // No line at v == 1.
    for line in 0..lines.points - 1 {
        let v = lines.place(line);
        for p in 0..detail.points {
            b.point(detail.place(p), v);
        }
    }
    let per = detail.points;
    for line in 0..lines.points - 1 {
        for p in 1..per {
            b.indices.push(line * per + p - 1);
            b.indices.push(line * per + p);
        }
    }
    b.finish(TessMode::Isolines)
}

fn triangles(part: Partitioning, cw: bool, outer: [f32; 4], inner: [f32; 2]) -> Tessellation {
    let mut b = Builder::new(cw);
    if culled(&outer[..3]) {
        return Tessellation::empty(PrimClass::Triangles);
    }
    let o = [0, 1, 2].map(|i| part.clamp(outer[i], part.lo));
    let i = part.clamp(inner[0], part.inner_lo(&o));
    let outside = o.map(|l| Level::new(l, part.outer_parity(l)));
    let mut inside = Level::new(i, part.inner_parity(i));
    if part.minimum_possible() && to_fixed(i) == ONE && o.iter().all(|l| to_fixed(*l) == ONE) {
        b.point(0, ONE);
        b.point(0, 0);
        b.point(ONE, 0);
        b.tri(0, 1, 2);
        return b.finish(TessMode::Triangles);
    }
    // A degenerate inner ring when the inner level is 1 (an odd ring needs 4 points).
    inside.points = inside.points.max(if inside.parity.odd() { 4 } else { 3 });

    // Outer ring, clockwise from v = 1 along u = 0 (edge 0: v falls; 1: u rises; 2: u
    // falls, v = 1 - u).
    for (edge, l) in outside.iter().enumerate() {
        let end = l.points - 1;
        for p in 0..end {
            let q = if edge & 1 == 1 { p } else { end - p };
            let x = l.place(q);
            match edge {
                0 => b.point(0, x),
                1 => b.point(x, 0),
                _ => b.point(x, ONE.wrapping_sub(x)),
            }
        }
    }
    // Inner rings, clockwise, spiralling in.
    let rings = inside.points >> 1;
    for ring in 1..rings {
        let (start, end) = (ring, inside.points - 1 - ring);
        for edge in 0..3 {
            // Maps the ring's distance to barycentric space: 2/3 of the 1D position.
            let perp = inside.place(start).wrapping_mul(TWO_THIRDS);
            let perp = perp.wrapping_add(ONE_HALF) >> FRAC_BITS;
            let shift = perp.wrapping_add(1) / 2;
            for p in start..end {
                let q = if edge & 1 == 1 { p } else { end - (p - start) };
                let x = inside.place(q).wrapping_sub(shift);
                match edge {
                    0 => b.point(perp, x),
                    1 => b.point(x, perp),
                    _ => b.point(x, ONE.wrapping_sub(x).wrapping_sub(perp)),
                }
            }
        }
    }
    if !inside.parity.odd() {
        b.point(ONE_THIRD, ONE_THIRD);
    }

    // Connectivity: each ring stitched to the one outside it, one side at a time.
    let rings = (inside.points + 1) >> 1;
    let mut outer_levels = outside;
    let mut outside_points = outside.map(|l| l.points);
    let mut inside_base: i32 = outside_points.iter().sum::<i32>() - 3;
    let mut outside_base = 0;
    for ring in 1..rings {
        let inside_points = inside.points - 2 * ring;
        let (edge0_inside, edge0_outside) = (inside_base, outside_base);
        for edge in 0..3 {
            let (ib, ob) = if edge == 2 {
                let inside_bad = inside_points - 1;
                let patch_base = inside_bad + 1;
                b.remap = Remap::Wrap {
                    inside_delta: inside_base,
                    inside_bad,
                    inside_replacement: edge0_inside,
                    outside_base: patch_base,
                    outside_delta: outside_base - patch_base,
                    outside_bad: patch_base + outside_points[edge] - 1,
                    outside_replacement: edge0_outside,
                };
                (0, patch_base)
            } else {
                (inside_base, outside_base)
            };
            if ring == 1 {
                b.stitch_transition(ib, &inside, ob, &outer_levels[edge]);
            } else {
                b.stitch_regular(true, Diagonals::Mirrored, inside_points, ib, ob);
            }
            b.remap = Remap::None;
            outside_base += outside_points[edge] - 1;
            inside_base += inside_points - 1;
            outside_points[edge] = inside_points;
        }
        if ring == 1 {
            outer_levels = [inside; 3];
        }
    }
    if inside.parity.odd() {
        // The centre: one triangle.
        b.tri(outside_base, outside_base + 1, outside_base + 2);
    }
    b.finish(TessMode::Triangles)
}

fn quads(part: Partitioning, cw: bool, outer: [f32; 4], inner: [f32; 2]) -> Tessellation {
    const U: usize = 0;
    const V: usize = 1;
    let mut b = Builder::new(cw);
    if culled(&outer) {
        return Tessellation::empty(PrimClass::Triangles);
    }
    let o = outer.map(|l| part.clamp(l, part.lo));
    // The raw inner levels count for the picture frame too.
    let frame_levels = [o[0], o[1], o[2], o[3], inner[0], inner[1]];
    let lo = part.inner_lo(&frame_levels);
    let i = inner.map(|l| part.clamp(l, lo));
    let outside = o.map(|l| Level::new(l, part.outer_parity(l)));
    let mut inside = i.map(|l| Level::new(l, part.inner_parity(l)));
    if part.minimum_possible() && i.iter().chain(&o).all(|l| to_fixed(*l) == ONE) {
        b.point(0, 0);
        b.point(ONE, 0);
        b.point(ONE, ONE);
        b.point(0, ONE);
        b.tri(0, 1, 3);
        b.tri(1, 2, 3);
        return b.finish(TessMode::Quads);
    }
    for l in &mut inside {
        l.points = l.points.max(if l.parity.odd() { 4 } else { 3 });
    }
    let (nu, nv) = (inside[U].points, inside[V].points);

    // Outer ring, clockwise from (0, 1): u = 0 (v falls), v = 0 (u rises), u = 1 (v
    // rises), v = 1 (u falls).
    for (edge, l) in outside.iter().enumerate() {
        let end = l.points - 1;
        for p in 0..end {
            let q = if edge == 1 || edge == 2 { p } else { end - p };
            let x = l.place(q);
            if edge & 1 == 1 {
                b.point(x, if edge == 3 { ONE } else { 0 });
            } else {
                b.point(if edge == 2 { ONE } else { 0 }, x);
            }
        }
    }
    // Inner rings, clockwise from (0, 1), spiralling in.
    let rings = nu.min(nv) >> 1;
    for ring in 1..rings {
        let start = ring;
        let end = [nu - 1 - start, nv - 1 - start];
        for edge in 0..4 {
            let (across, along) = (edge & 1, (edge + 1) & 1);
            let perp_point = if edge < 2 { start } else { end[across] };
            let perp = inside[across].place(perp_point);
            for p in start..end[along] {
                let q = if edge == 1 || edge == 2 {
                    p
                } else {
                    end[along] - (p - start)
                };
                let x = inside[along].place(q);
                if along == 1 {
                    b.point(perp, x);
                } else {
                    b.point(x, perp);
                }
            }
        }
    }
    // Even inner levels leave a degenerate ring: a row of points through the middle.
    if nu > nv && inside[V].parity == Parity::Even {
        for p in rings..=nu - 1 - rings {
            b.point(inside[U].place(p), ONE_HALF);
        }
    } else if nv >= nu && inside[U].parity == Parity::Even {
        for p in (rings..=nv - 1 - rings).rev() {
            b.point(ONE_HALF, inside[V].place(p));
        }
    }

    // Connectivity.
    let rows_to_centre = [(nu + 1) >> 1, (nv + 1) >> 1];
    let rings = rows_to_centre[U].min(rows_to_centre[V]);
    // Even partitioning's degenerate row reverses the point order on its ring.
    let degenerate_ring = [
        if inside[V].parity == Parity::Even {
            rows_to_centre[V] - 1
        } else {
            -1
        },
        if inside[U].parity == Parity::Even {
            rows_to_centre[U] - 1
        } else {
            -1
        },
    ];
    let mut outer_levels = outside;
    let mut outside_points = outside.map(|l| l.points);
    let mut inside_base: i32 = outside_points.iter().sum::<i32>() - 4;
    let mut outside_base = 0;
    for ring in 1..rings {
        let inside_points = [nu - 2 * ring, nv - 2 * ring];
        let (edge0_inside, edge0_outside) = (inside_base, outside_base);
        for edge in 0..4 {
            let axis = (edge + 1) & 1;
            let degenerate = ring == degenerate_ring[axis];
            let (ib, ob) = if edge == 3 && degenerate {
                let base = inside_base + 1;
                b.remap = Remap::Invert {
                    base,
                    corner_bad: outside_base + outside_points[edge] - 1,
                    corner_replacement: edge0_outside,
                    end: (base << 1) - 1,
                };
                (base, outside_base)
            } else if edge == 3 {
                let inside_bad = inside_points[axis] - 1;
                let patch_base = inside_bad + 1;
                b.remap = Remap::Wrap {
                    inside_delta: inside_base,
                    inside_bad,
                    inside_replacement: edge0_inside,
                    outside_base: patch_base,
                    outside_delta: outside_base - patch_base,
                    outside_bad: patch_base + outside_points[edge] - 1,
                    outside_replacement: edge0_outside,
                };
                (0, patch_base)
            } else if edge == 2 && degenerate {
                b.remap = Remap::Invert {
                    base: inside_base,
                    corner_bad: -1,
                    corner_replacement: -1,
                    end: inside_base << 1,
                };
                (inside_base, outside_base)
            } else {
                (inside_base, outside_base)
            };
            if ring == 1 {
                b.stitch_transition(ib, &inside[axis], ob, &outer_levels[edge]);
            } else {
                b.stitch_regular(true, Diagonals::Mirrored, inside_points[axis], ib, ob);
            }
            b.remap = Remap::None;
            outside_base += outside_points[edge] - 1;
            if edge == 2 && degenerate {
                inside_base -= inside_points[axis] - 1;
            } else {
                inside_base += inside_points[axis] - 1;
            }
            outside_points[edge] = inside_points[axis];
        }
        if ring == 1 {
            outer_levels = [inside[U], inside[V], inside[U], inside[V]];
        }
    }
    // The centre: a row of quads when the smaller inner level is odd.
    let extra = |p: Parity| if p == Parity::Even { 2 } else { 1 };
    if nu > nv && inside[V].parity.odd() {
        let strip = (((nu >> 1) - (nv >> 1)) << 1) + extra(inside[U].parity);
        let base = outside_base + strip + 2;
        b.remap = Remap::Invert {
            base,
            corner_bad: base,
            corner_replacement: outside_base,
            end: base + base + strip,
        };
        b.stitch_regular(
            false,
            Diagonals::InsideToOutside,
            strip + 1,
            base,
            outside_base + 1,
        );
        b.remap = Remap::None;
    } else if nv >= nu && inside[U].parity.odd() {
        let strip = (((nv >> 1) - (nu >> 1)) << 1) + extra(inside[V].parity);
        let base = outside_base + strip + 1;
        b.remap = Remap::Invert {
            base,
            corner_bad: -1,
            corner_replacement: -1,
            end: base + base + strip,
        };
        let diagonals = if inside[V].parity == Parity::Even {
            Diagonals::InsideToOutside
        } else {
            Diagonals::InsideToOutsideExceptMiddle
        };
        b.stitch_regular(false, diagonals, strip + 1, base, outside_base);
        b.remap = Remap::None;
    }
    b.finish(TessMode::Quads)
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
        // The centre in 16.16, as the reference (and llvmpipe) places it.
        let third = 0x5555 as f32 / 65536.0;
        assert_eq!(
            c,
            vec![
                [0.0, 0.0, 1.0],
                [0.0, 0.5, 0.5],
                [0.0, 1.0, 0.0],
                [third, third, 1.0 - 2.0 * third],
                [0.5, 0.0, 0.5],
                [0.5, 0.5, 0.0],
                [1.0, 0.0, 0.0]
            ]
        );
        // inner 3: ring corner for (1,0,0) at perpendiculars through 1/3 → (5/9, 2/9, 2/9)
        // up to 16.16
        let t = tessellate(&cfg(Triangles, Equal), [3.0; 4], [3.0, 0.0]);
        assert!(t
            .coords
            .iter()
            .any(|c| (c[0] - 5.0 / 9.0).abs() < 1e-4 && (c[1] - 2.0 / 9.0).abs() < 1e-4));
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

    /// Levels above MAX_TESS_GEN_LEVEL (and infinity) clamp: 64 for equal and fractional
    /// even, 63 for fractional odd.
    #[test]
    fn clamping_at_max_level() {
        for l in [64.0f32, 64.5, 1000.0, f32::INFINITY] {
            for (sp, n) in [(Equal, 64), (FractionalEven, 64), (FractionalOdd, 63)] {
                let t = tessellate(&cfg(Isolines, sp), [1.0, l, 0.0, 0.0], [0.0; 2]);
                assert_eq!(t.primitive_count(), n, "{sp:?} {l}");
            }
        }
        let t = tessellate(
            &cfg(Isolines, FractionalOdd),
            [1.0, 62.5, 0.0, 0.0],
            [0.0; 2],
        );
        assert_eq!(t.primitive_count(), 63);
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
        let third = 0x5555 as f32 / 65536.0;
        let centre = [third, third, 1.0 - 2.0 * third];
        assert!(t.coords.contains(&centre), "{:?}", t.coords);
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

    /// FNV-1a 64 of 32-bit little-endian words (how the tables store large patches).
    fn fnv(words: &[i32]) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for w in words {
            for b in w.to_le_bytes() {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x100_0000_01b3);
            }
        }
        h
    }

    /// Every patch of `tessellator_tables.txt` — captured from llvmpipe through transform
    /// feedback for every domain, spacing and winding, point mode, culled patches, levels
    /// below 1, fractional and above 64 — comes out with the same number of primitives,
    /// in the same order, each with the same vertices in the same order, bit for bit.
    #[test]
    fn matches_llvmpipe_tables() {
        let mut checked = 0;
        let mut wrong = Vec::new();
        for line in include_str!("tessellator_tables.txt").lines() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let parts: Vec<&str> = line.split(" : ").collect();
            let head: Vec<&str> = parts[0].split_whitespace().collect();
            let count: usize = parts[1].trim().parse().unwrap();
            let data = parts.get(2).map_or("", |d| d.trim());
            let mode = match head[0] {
                "tri" => Triangles,
                "quad" => Quads,
                _ => Isolines,
            };
            let spacing = match head[1] {
                "equal" => Equal,
                "odd" => FractionalOdd,
                _ => FractionalEven,
            };
            let l: Vec<f32> = head[4..10].iter().map(|s| s.parse().unwrap()).collect();
            let cfg = TessConfig {
                mode,
                spacing,
                cw: head[2] == "cw",
                point_mode: head[3] == "point",
            };
            let t = tessellate(&cfg, [l[0], l[1], l[2], l[3]], [l[4], l[5]]);
            let words: Vec<i32> = t
                .indices
                .iter()
                .flat_map(|&i| t.coords[i as usize])
                .map(|c| {
                    let w = c * 65536.0;
                    assert_eq!(w.fract(), 0.0, "{line}: coordinate {c} is not 16.16");
                    w as i32
                })
                .collect();
            let same = if let Some(hash) = data.strip_prefix('#') {
                u64::from_str_radix(hash, 16).ok() == Some(fnv(&words))
            } else {
                let want: Vec<i32> = data
                    .split_whitespace()
                    .map(|w| w.parse().unwrap())
                    .collect();
                want == words
            };
            if t.primitive_count() != count || !same {
                wrong.push(format!(
                    "{}: {} primitives (llvmpipe {count}){}",
                    parts[0],
                    t.primitive_count(),
                    if same { "" } else { ", different vertices" }
                ));
            }
            checked += 1;
        }
        assert!(checked > 200, "{checked} patches");
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}
