//! Primitive setup: window-space vertices → fixed-point edge functions, a pixel bounding
//! box, and plane equations for depth, 1/w and every varying.
//!
//! Positions are snapped to 1/256 pixel (8 subpixel bits). Edge functions are evaluated in
//! i64: with |coordinates| ≤ 2^20 pixels, snapped values fit in 29 bits, edge coefficients
//! in 30 and every product in 60, so stepping them is exact — watertightness follows from
//! adjacent triangles evaluating the *same* integer edge function with opposite signs.
//!
//! Fill rule (DESIGN.md): GL window coordinates, y up; a sample exactly on an edge belongs
//! to the primitive for which that edge is a left edge or a horizontal edge below the
//! interior. With the polygon put in counter-clockwise order (interior on the left of
//! each directed edge) those are the edges with dy < 0, or dy == 0 and dx > 0.

use crate::error::RasterError;
use crate::framebuffer::{encode_depth, DepthFormat};
use crate::input::{DrawInput, Primitive, PrimitiveKind, WindowVertex};
use crate::shader_info::{InterpMode, ShaderInfo};
use crate::state::{
    CullMode, FixedFunctionState, FrontFace, PointSpriteOrigin, PolygonMode, Rect, MAX_VIEWPORTS,
};

/// Subpixel steps per pixel.
pub const SUBPIXEL: i64 = 256;
/// Largest |window coordinate| accepted, in pixels.
pub const MAX_COORD: f32 = (1 << 20) as f32;

/// `c + dx * x + dy * y`, with (x, y) relative to the primitive's origin.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Plane {
    /// Value at the origin.
    pub c: f32,
    /// Change per pixel in x.
    pub dx: f32,
    /// Change per pixel in y.
    pub dy: f32,
}

impl Plane {
    #[inline(always)]
    /// Value at (x, y), relative to the primitive's origin.
    pub fn at(&self, x: f32, y: f32) -> f32 {
        self.c + self.dx * x + self.dy * y
    }
    fn constant(c: f32) -> Self {
        Plane {
            c,
            dx: 0.0,
            dy: 0.0,
        }
    }
}

/// One varying's plane (of value·1/w when perspective-correct) and its flat bits.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct AttrPlane {
    /// The interpolation plane (unused for flat varyings).
    pub plane: Plane,
    /// Raw bits of the provoking vertex, for flat varyings.
    pub flat: u32,
}

/// `a * X + b * Y + c` over subpixel positions; a sample is inside when it is ≥ 0 (the
/// fill-rule bias is folded into `c`). `a` and `b` are differences of snapped
/// coordinates (|v| ≤ 2^28), so they fit in 30 bits; products need i64.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Edge {
    /// Coefficient of X (subpixels).
    pub a: i32,
    /// Coefficient of Y (subpixels).
    pub b: i32,
    /// Constant term, fill-rule bias included.
    pub c: i64,
}

impl Edge {
    #[inline(always)]
    /// Edge function at subpixel position (x, y): inside when ≥ 0.
    pub fn at(&self, x: i64, y: i64) -> i64 {
        i64::from(self.a) * x + i64::from(self.b) * y + self.c
    }
}

/// A primitive ready for tile rasterization: a convex polygon of up to 4 edges. Only
/// what the tiles read (144 bytes); attribute planes live in [`DrawSetup::attrs`].
#[derive(Debug, Clone, PartialEq)]
pub struct PrimSetup {
    /// Edge functions; the first `n_edges` are used.
    pub edges: [Edge; 4],
    /// Pixel bounds (x0, y0, x1, y1), half-open, clipped to framebuffer and scissor.
    pub bbox: [i32; 4],
    /// Plane origin in window coordinates.
    pub ox: f32,
    /// Plane origin y (see `ox`).
    pub oy: f32,
    /// Window depth plane.
    pub z: Plane,
    /// 1/w plane, for perspective-correct varyings.
    pub inv_w: Plane,
    /// Fragment depth clamp range.
    pub z_clamp: [f32; 2],
    /// `primitive.id` the fragment program reads.
    pub id: u32,
    /// First of this primitive's planes in [`DrawSetup::attrs`].
    pub attr_start: u32,
    /// Points: d(s)/dx and d(t)/dy of the sprite coordinate (1/size, ±1/size); zero
    /// for other primitives.
    pub point_scale: [f32; 2],
    /// Edges in use: 3 for triangles, up to 4 for lines and points.
    pub n_edges: u8,
    /// Front-facing (`fragment.facing`, two-sided stencil).
    pub front: bool,
    /// Which of [`DrawSetup::clips`] bounds the primitive.
    pub clip: u8,
}

impl PrimSetup {
    /// Window depth after depth clamp / [0, 1] clamp.
    #[inline(always)]
    pub fn frag_z(&self, z: f32) -> f32 {
        z.max(self.z_clamp[0]).min(self.z_clamp[1])
    }

    /// The edges in use.
    #[inline(always)]
    pub fn edges(&self) -> &[Edge] {
        self.edges
            .get(..usize::from(self.n_edges))
            .unwrap_or(&self.edges)
    }

    /// Point-sprite coordinate planes (s, t), relative to the point's centre.
    pub fn point_coord(&self) -> Option<[Plane; 2]> {
        let [ds, dt] = self.point_scale;
        (ds != 0.0).then_some([
            Plane {
                c: 0.5,
                dx: ds,
                dy: 0.0,
            },
            Plane {
                c: 0.5,
                dx: 0.0,
                dy: dt,
            },
        ])
    }

    /// A triangle for unit tests: edges that accept everything (the bounding box
    /// decides), the given origin and plane as both depth and 1/w, depth clamped to
    /// [0, 1]; tests change the rest with struct update syntax.
    #[cfg(test)]
    pub(crate) fn for_tests(bbox: [i32; 4], [ox, oy]: [f32; 2], z: Plane) -> Self {
        Self {
            edges: Default::default(),
            bbox,
            ox,
            oy,
            z,
            inv_w: z,
            z_clamp: [0.0, 1.0],
            id: 0,
            attr_start: 0,
            point_scale: [0.0; 2],
            n_edges: 3,
            front: true,
            clip: 0,
        }
    }
}

/// All primitives of a draw after setup, in submission order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DrawSetup {
    /// Every primitive's setup, in submission order.
    pub prims: Vec<PrimSetup>,
    /// Varying planes of every primitive (`PrimSetup::attr_start` indexes them).
    pub attrs: Vec<AttrPlane>,
    /// Scalar varyings per primitive.
    pub varyings: usize,
    /// Pixel rectangles (x0, y0, x1, y1), half-open, that bound primitives
    /// ([`PrimSetup::clip`]): for viewport i, `2 * i` is framebuffer ∩ scissor i (points
    /// and lines) and `2 * i + 1` that ∩ viewport rectangle i (filled triangles, which the
    /// pipeline clips in x and y only to a guard band). No fragment lies outside.
    pub clips: [[i32; 4]; 2 * MAX_VIEWPORTS],
}

/// Framebuffer facts setup needs.
#[derive(Debug, Clone, Copy)]
pub struct Target {
    /// Framebuffer width in pixels.
    pub width: u32,
    /// Framebuffer height in pixels.
    pub height: u32,
    /// Depth format (decides the polygon offset unit).
    pub depth_format: DepthFormat,
    /// Multisample rasterization (samples > 1 and GL_MULTISAMPLE on): lines become
    /// rectangles instead of following the diamond-exit rule.
    pub multisample: bool,
}

/// `v` in 1/256 pixel, rounded half away from zero (what `f64::round` does) without a
/// libm call: `v * 256` is exact in f32 (a power-of-two scale), truncation gives the
/// integer part, and the remainder `x - t` is exact too (below 2^24 both are exact in
/// f32; above it `x` is already an integer). Infinities saturate and NaN gives 0, as the
/// float-to-integer cast of `round` did.
#[inline(always)]
pub(crate) fn snap(v: f32) -> i64 {
    let x = v * SUBPIXEL as f32;
    let t = x as i64;
    let f = x - t as f32;
    t.saturating_add(i64::from(f >= 0.5))
        .saturating_sub(i64::from(f <= -0.5))
}

/// [`snap`] of a finite `v` with |v| <= [`MAX_COORD`] (what setup accepts): `v * 256` is
/// below 2^29 in magnitude, so i32 holds it and nothing saturates; the same bits.
#[inline(always)]
pub(crate) fn snap_in_range(v: f32) -> i64 {
    let x = v * SUBPIXEL as f32;
    let t = x as i32;
    let f = x - t as f32;
    i64::from(t + i32::from(f >= 0.5) - i32::from(f <= -0.5))
}

/// Marks a vertex [`snap_shared`] leaves to the checks of setup (a NaN coordinate, or
/// |x| or |y| beyond [`MAX_COORD`]); no snapped coordinate in range reaches it.
const UNSNAPPED: i32 = i32::MIN;

/// Each vertex's snapped window x and y, once per draw rather than once for each of the
/// (in a mesh, about six) triangles that use it; [`UNSNAPPED`] where the per-primitive
/// checks must decide. Runs in parallel on the current rayon pool; `out` keeps its buffer.
pub(crate) fn snap_shared(vertices: &[WindowVertex], out: &mut Vec<[i32; 2]>) {
    use rayon::prelude::*;
    out.clear();
    out.resize(vertices.len(), [0; 2]);
    out.par_chunks_mut(4096)
        .zip(vertices.par_chunks(4096))
        .for_each(|(out, vs)| {
            for (o, v) in out.iter_mut().zip(vs) {
                let p = v.pos;
                let plain = p[0].abs() <= MAX_COORD
                    && p[1].abs() <= MAX_COORD
                    && !p[2].is_nan()
                    && !p[3].is_nan();
                *o = if plain {
                    [snap_in_range(p[0]) as i32, snap_in_range(p[1]) as i32]
                } else {
                    [UNSNAPPED; 2]
                };
            }
        });
}

/// Edges of a convex polygon given by snapped vertices (any winding). `None` when it has
/// no area.
pub(crate) fn polygon_edges(pts: &[(i64, i64)]) -> Option<([Edge; 4], usize)> {
    let n = pts.len();
    if !(3..=4).contains(&n) {
        return None;
    }
    let mut area2 = 0i64;
    for i in 0..n {
        let (x0, y0) = pts[i];
        let (x1, y1) = pts[(i + 1) % n];
        area2 += x0 * y1 - x1 * y0;
    }
    if area2 == 0 {
        return None;
    }
    let mut edges = [Edge::default(); 4];
    for (i, e) in edges.iter_mut().enumerate().take(n) {
        *e = if area2 > 0 {
            edge(pts[i], pts[(i + 1) % n])
        } else {
            edge(pts[(i + 1) % n], pts[i])
        };
    }
    Some((edges, n))
}

/// The edge from `p` to `q` of a polygon whose interior is on its left.
#[inline(always)]
fn edge(p: (i64, i64), q: (i64, i64)) -> Edge {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    // Interior on the left: E(P) = dx * (Py - py) - dy * (Px - px) > 0.
    let inclusive = dy < 0 || (dy == 0 && dx > 0);
    Edge {
        a: -dy as i32,
        b: dx as i32,
        c: dy * p.0 - dx * p.1 - i64::from(!inclusive),
    }
}

/// Pixel bounds of snapped points, clipped to `clip` (x0, y0, x1, y1): the pixels with a
/// sample position inside the points' bounding box, samples lying `span` = (first, last)
/// subpixels from the pixel corner (the centre alone without multisampling, where this
/// leaves out the ring of pixels a looser bound would hand to the tiles for nothing).
fn pixel_bbox(pts: &[(i64, i64)], clip: [i32; 4], span: (i64, i64)) -> [i32; 4] {
    let (mut x0, mut y0, mut x1, mut y1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
    for &(x, y) in pts {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    // Pixel p has a sample in [v0, v1] when p*256 + last >= v0 and p*256 + first <= v1.
    let lo = |v: i64| (v - span.1 + SUBPIXEL - 1).div_euclid(SUBPIXEL);
    let hi = |v: i64| (v - span.0).div_euclid(SUBPIXEL) + 1;
    [
        (lo(x0).max(i64::from(clip[0]))) as i32,
        (lo(y0).max(i64::from(clip[1]))) as i32,
        (hi(x1).min(i64::from(clip[2]))) as i32,
        (hi(y1).min(i64::from(clip[3]))) as i32,
    ]
}

#[cold]
fn bad_vertex(i: u32) -> RasterError {
    RasterError::Invalid(format!("vertex index {i} (or its varyings) out of range"))
}

#[cold]
fn beyond_range(v: &WindowVertex) -> RasterError {
    RasterError::NotSupported(format!(
        "window coordinate beyond ±{MAX_COORD} ({:?})",
        v.pos
    ))
}

fn bbox_empty(b: &[i32; 4]) -> bool {
    b[0] >= b[2] || b[1] >= b[3]
}

/// Per-draw facts setup needs, shared by every chunk of the draw.
pub(crate) struct SetupCtx<'a> {
    shared: &'a DrawInput,
    /// `shared`'s vertices snapped ([`snap_shared`]), as many as it has.
    snapped: &'a [[i32; 2]],
    state: &'a FixedFunctionState,
    info: &'a ShaderInfo,
    target: Target,
    /// As [`DrawSetup::clips`].
    clips: [[i32; 4]; 2 * MAX_VIEWPORTS],
    /// Depth clamp range per viewport.
    z_clamps: [[f32; 2]; MAX_VIEWPORTS],
    /// Interpolation of each varying.
    modes: Vec<InterpMode>,
    /// Where coverage samples lie in a pixel: (first, last) subpixel offset on either
    /// axis.
    sample_span: (i64, i64),
}

/// One chunk being set up: the draw's facts and the chunk's own vertices, numbered after
/// the shared ones.
struct Ctx<'a> {
    draw: &'a SetupCtx<'a>,
    extra: &'a DrawInput,
    /// Viewport of the primitive being set up.
    vp: usize,
}

fn check_varyings(input: &DrawInput, nv: usize) -> Result<(), RasterError> {
    if input.varyings_per_vertex != nv
        || input.varyings.len() < input.vertices.len().saturating_mul(nv)
    {
        return Err(RasterError::Invalid(format!(
            "{} varying words for {} vertices of {}",
            input.varyings.len(),
            input.vertices.len(),
            input.varyings_per_vertex
        )));
    }
    Ok(())
}

impl<'a> SetupCtx<'a> {
    /// Setup facts of a draw whose primitives may index `shared`'s vertices.
    pub(crate) fn new(
        shared: &'a DrawInput,
        snapped: &'a [[i32; 2]],
        state: &'a FixedFunctionState,
        info: &'a ShaderInfo,
        target: Target,
    ) -> Result<Self, RasterError> {
        check_varyings(shared, shared.varyings_per_vertex)?;
        if snapped.len() != shared.vertices.len() {
            return Err(RasterError::Invalid(format!(
                "{} snapped positions for {} vertices",
                snapped.len(),
                shared.vertices.len()
            )));
        }
        let mut clips = [[0; 4]; 2 * MAX_VIEWPORTS];
        for (v, c) in state.raster.viewports.iter().zip(clips.chunks_exact_mut(2)) {
            let mut clip = [0, 0, target.width as i32, target.height as i32];
            if let Some(r) = v.scissor {
                intersect(&mut clip, r);
            }
            c[0] = clip;
            if let Some(r) = v.rect {
                intersect(&mut clip, r);
            }
            c[1] = clip;
        }
        let z_clamps = state.raster.viewports.map(|v| {
            if state.depth_stencil.depth_clamp {
                let [n, f] = v.depth_range;
                [n.min(f).max(0.0), n.max(f).min(1.0)]
            } else {
                [0.0, 1.0]
            }
        });
        Ok(SetupCtx {
            shared,
            snapped,
            state,
            info,
            target,
            clips,
            z_clamps,
            modes: (0..shared.varyings_per_vertex)
                .map(|k| info.interp(k).mode)
                .collect(),
            sample_span: if target.multisample {
                (0, SUBPIXEL - 1)
            } else {
                (SUBPIXEL / 2, SUBPIXEL / 2)
            },
        })
    }

    /// Sets up `prims` (indexing the shared vertices, then `extra`'s) into `out`, which is
    /// cleared first and keeps its buffers.
    pub(crate) fn run(
        &self,
        extra: &DrawInput,
        prims: &[Primitive],
        out: &mut DrawSetup,
    ) -> Result<(), RasterError> {
        let nv = self.shared.varyings_per_vertex;
        out.prims.clear();
        out.attrs.clear();
        out.varyings = nv;
        out.clips = self.clips;
        check_varyings(extra, nv)?;
        out.prims.reserve(prims.len());
        out.attrs.reserve(prims.len() * nv);
        for prim in prims {
            let vp = usize::from(prim.viewport);
            let ctx = Ctx {
                draw: self,
                extra,
                vp: if vp < MAX_VIEWPORTS { vp } else { 0 },
            };
            ctx.primitive(prim, out)?;
        }
        Ok(())
    }
}

/// Narrows the half-open pixel rectangle `clip` to `r`.
fn intersect(clip: &mut [i32; 4], r: Rect) {
    clip[0] = clip[0].max(r.x);
    clip[1] = clip[1].max(r.y);
    clip[2] = clip[2].min(r.x.saturating_add(r.width.max(0)));
    clip[3] = clip[3].min(r.y.saturating_add(r.height.max(0)));
}

/// Runs setup for every primitive of a draw.
pub fn setup_draw(
    input: &DrawInput,
    state: &FixedFunctionState,
    info: &ShaderInfo,
    target: Target,
) -> Result<DrawSetup, RasterError> {
    let mut snapped = Vec::new();
    snap_shared(&input.vertices, &mut snapped);
    let ctx = SetupCtx::new(input, &snapped, state, info, target)?;
    let mut out = DrawSetup::default();
    ctx.run(
        &DrawInput::new(input.varyings_per_vertex),
        &input.primitives,
        &mut out,
    )?;
    Ok(out)
}

impl Ctx<'_> {
    /// Index into [`DrawSetup::clips`] of this primitive's bounds (`fill`: a filled
    /// triangle).
    fn clip_index(&self, fill: bool) -> u8 {
        (2 * self.vp + usize::from(fill)) as u8
    }

    fn clip_rect(&self, fill: bool) -> [i32; 4] {
        self.draw.clips[usize::from(self.clip_index(fill))]
    }

    fn z_clamp(&self) -> [f32; 2] {
        self.draw.z_clamps[self.vp]
    }

    /// Vertex `i` and its varyings, by reference: a copy of the vertex through a
    /// returned `Result` stalled setup on store forwarding (about a quarter of its time
    /// on small triangles).
    #[inline(always)]
    fn vertex(&self, i: u32) -> Result<(&WindowVertex, &[u32]), RasterError> {
        let shared = self.draw.shared;
        let n = shared.vertices.len();
        let (input, k) = match (i as usize).checked_sub(n) {
            None => (shared, i as usize),
            Some(k) => (self.extra, k),
        };
        let (Some(v), Some(vary)) = (input.vertices.get(k), input.vertex_varyings(k as u32)) else {
            return Err(bad_vertex(i));
        };
        if v.pos[0].abs() > MAX_COORD || v.pos[1].abs() > MAX_COORD {
            return Err(beyond_range(v));
        }
        Ok((v, vary))
    }

    /// Shared vertex `i` and its varyings, for a vertex [`snap_shared`] found plain.
    #[inline(always)]
    fn shared_vertex(&self, i: u32) -> Result<(&WindowVertex, &[u32]), RasterError> {
        let shared = self.draw.shared;
        match (shared.vertices.get(i as usize), shared.vertex_varyings(i)) {
            (Some(v), Some(vary)) => Ok((v, vary)),
            _ => Err(bad_vertex(i)),
        }
    }

    fn primitive(&self, prim: &Primitive, out: &mut DrawSetup) -> Result<(), RasterError> {
        let prov = prim.provoking.min(2) as usize;
        match prim.kind {
            PrimitiveKind::Triangle => {
                let snapped = self.draw.snapped;
                if let [Some(&[x0, y0]), Some(&[x1, y1]), Some(&[x2, y2])] =
                    prim.v.map(|i| snapped.get(i as usize))
                {
                    if x0 != UNSNAPPED && x1 != UNSNAPPED && x2 != UNSNAPPED {
                        // Shared vertices snap_shared found plain: no check is left.
                        let vs = [
                            self.shared_vertex(prim.v[0])?,
                            self.shared_vertex(prim.v[1])?,
                            self.shared_vertex(prim.v[2])?,
                        ];
                        let pts = [x0, y0, x1, y1, x2, y2].map(i64::from);
                        let pts = [(pts[0], pts[1]), (pts[2], pts[3]), (pts[4], pts[5])];
                        self.triangle(prim, &vs, &pts, prov, out);
                        return Ok(());
                    }
                }
                let vs = [
                    self.vertex(prim.v[0])?,
                    self.vertex(prim.v[1])?,
                    self.vertex(prim.v[2])?,
                ];
                if vs.iter().any(|(v, _)| v.pos.iter().any(|c| c.is_nan())) {
                    return Ok(());
                }
                // Ctx::vertex and the NaN test above leave only finite |x|, |y| <= MAX_COORD.
                let pts = vs.map(|(v, _)| (snap_in_range(v.pos[0]), snap_in_range(v.pos[1])));
                self.triangle(prim, &vs, &pts, prov, out);
            }
            PrimitiveKind::Line => {
                let a = self.vertex(prim.v[0])?;
                let b = self.vertex(prim.v[1])?;
                let flat = if prov == 0 { a.1 } else { b.1 };
                self.line(a, b, flat, true, prim.id, 0.0, out);
            }
            PrimitiveKind::Point => {
                let a = self.vertex(prim.v[0])?;
                self.point(a, true, prim.id, 0.0, out);
            }
        }
        Ok(())
    }

    fn triangle(
        &self,
        prim: &Primitive,
        vs: &[(&WindowVertex, &[u32]); 3],
        pts: &[(i64, i64); 3],
        prov: usize,
        out: &mut DrawSetup,
    ) {
        let area2 = (pts[1].0 - pts[0].0) * (pts[2].1 - pts[0].1)
            - (pts[2].0 - pts[0].0) * (pts[1].1 - pts[0].1);
        if area2 == 0 {
            return;
        }
        let rs = &self.draw.state.raster;
        let front = (area2 > 0) == (rs.front_face == FrontFace::Ccw);
        let culled = match rs.cull {
            CullMode::None => false,
            CullMode::Front => front,
            CullMode::Back => !front,
            CullMode::FrontAndBack => true,
        };
        if culled {
            return;
        }
        let mode = if front {
            rs.polygon_mode_front
        } else {
            rs.polygon_mode_back
        };
        let (p0, p1, p2) = (vs[0].0.pos, vs[1].0.pos, vs[2].0.pos);
        let frame = TriFrame::new(p0, p1, p2);
        let z = frame.plane([p0[2], p1[2], p2[2]]);
        let po = &rs.polygon_offset;
        let offset_on = match mode {
            PolygonMode::Fill => po.fill,
            PolygonMode::Line => po.line,
            PolygonMode::Point => po.point,
        };
        let offset = if offset_on {
            let m = z.dx.abs().max(z.dy.abs());
            let r = match self.draw.target.depth_format {
                DepthFormat::D24S8 => 1.0 / 16_777_215.0,
                DepthFormat::D32FS8 => {
                    let zmax = p0[2].abs().max(p1[2].abs()).max(p2[2].abs());
                    // 2^(e - 23), e = exponent of the largest depth in the primitive.
                    let e = if zmax > 0.0 {
                        zmax.log2().floor()
                    } else {
                        -126.0
                    };
                    (e - 23.0).exp2()
                }
            };
            po.factor * m + po.units * r
        } else {
            0.0
        };
        let flat = vs[prov].1;
        match mode {
            PolygonMode::Fill => {
                // The snapped area's sign gives the winding, so the edges need no second
                // area computation.
                let edges = if area2 > 0 {
                    [
                        edge(pts[0], pts[1]),
                        edge(pts[1], pts[2]),
                        edge(pts[2], pts[0]),
                    ]
                } else {
                    [
                        edge(pts[1], pts[0]),
                        edge(pts[2], pts[1]),
                        edge(pts[0], pts[2]),
                    ]
                };
                let bbox = pixel_bbox(pts, self.clip_rect(true), self.draw.sample_span);
                if bbox_empty(&bbox) {
                    return;
                }
                let inv_w = frame.plane([p0[3], p1[3], p2[3]]);
                let attr_start = out.attrs.len() as u32;
                // Every vertex has exactly `modes.len()` varyings (Ctx::vertex); one
                // extend of a zip reserves once instead of checking per plane.
                let (a, b, c) = (vs[0].1, vs[1].1, vs[2].1);
                let planes = (self.draw.modes.iter().zip(a).zip(b).zip(c).zip(flat)).map(
                    |((((mode, &a), &b), &c), &flat)| {
                        let (a, b, c) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
                        let plane = match mode {
                            InterpMode::Flat => Plane::default(),
                            InterpMode::NoPerspective => frame.plane([a, b, c]),
                            InterpMode::Perspective => {
                                frame.plane([a * p0[3], b * p1[3], c * p2[3]])
                            }
                        };
                        AttrPlane { plane, flat }
                    },
                );
                out.attrs.extend(planes);
                out.prims.push(PrimSetup {
                    edges: [edges[0], edges[1], edges[2], Edge::default()],
                    bbox,
                    ox: p0[0],
                    oy: p0[1],
                    z: Plane {
                        c: z.c + offset,
                        ..z
                    },
                    inv_w,
                    z_clamp: self.z_clamp(),
                    id: prim.id,
                    attr_start,
                    point_scale: [0.0; 2],
                    n_edges: 3,
                    front,
                    clip: self.clip_index(true),
                });
            }
            PolygonMode::Line => {
                for i in 0..3 {
                    if prim.edge_flags & (1 << i) != 0 {
                        let j = (i + 1) % 3;
                        self.line(vs[i], vs[j], flat, front, prim.id, offset, out);
                    }
                }
            }
            PolygonMode::Point => {
                for (i, v) in vs.iter().enumerate() {
                    if prim.edge_flags & (1 << i) != 0 {
                        self.point(*v, front, prim.id, offset, out);
                    }
                }
            }
        }
    }

    /// Pushes varyings for a primitive whose value varies only along direction (ux, uy)
    /// from vertex `a` to `b` (t = ux * x + uy * y relative to a; points pass 0, 0).
    fn push_linear_attrs(
        &self,
        a: (&WindowVertex, &[u32]),
        b: (&WindowVertex, &[u32]),
        u: (f32, f32),
        flat: &[u32],
        out: &mut DrawSetup,
    ) -> u32 {
        let start = out.attrs.len() as u32;
        for k in 0..out.varyings {
            let fa = f32::from_bits(a.1.get(k).copied().unwrap_or(0));
            let fb = f32::from_bits(b.1.get(k).copied().unwrap_or(0));
            let (va, vb) = match self.draw.info.interp(k).mode {
                InterpMode::Perspective => (fa * a.0.pos[3], fb * b.0.pos[3]),
                _ => (fa, fb),
            };
            out.attrs.push(AttrPlane {
                plane: Plane {
                    c: va,
                    dx: (vb - va) * u.0,
                    dy: (vb - va) * u.1,
                },
                flat: flat.get(k).copied().unwrap_or(0),
            });
        }
        start
    }

    #[allow(clippy::too_many_arguments)]
    fn line(
        &self,
        a: (&WindowVertex, &[u32]),
        b: (&WindowVertex, &[u32]),
        flat: &[u32],
        front: bool,
        id: u32,
        offset: f32,
        out: &mut DrawSetup,
    ) {
        let (pa, pb) = (a.0.pos, b.0.pos);
        if pa.iter().chain(&pb).any(|c| c.is_nan()) {
            return;
        }
        let lw = self.draw.state.raster.line_width;
        let width = if lw.is_finite() {
            lw.round().clamp(1.0, 1024.0)
        } else {
            1.0
        };
        let quad = if self.draw.target.multisample {
            line_rect([pa[0], pa[1]], [pb[0], pb[1]], lw.clamp(1.0, 1024.0))
        } else {
            line_quad([pa[0], pa[1]], [pb[0], pb[1]], width)
        };
        let Some(quad) = quad else {
            return;
        };
        let pts = quad.map(|(x, y)| (snap(x), snap(y)));
        let Some((edges, n_edges)) = polygon_edges(&pts) else {
            return;
        };
        let bbox = pixel_bbox(&pts, self.clip_rect(false), self.draw.sample_span);
        if bbox_empty(&bbox) {
            return;
        }
        let (dx, dy) = (pb[0] - pa[0], pb[1] - pa[1]);
        let len2 = dx * dx + dy * dy;
        let u = if len2 > 0.0 {
            (dx / len2, dy / len2)
        } else {
            (0.0, 0.0)
        };
        let lin = |va: f32, vb: f32| Plane {
            c: va,
            dx: (vb - va) * u.0,
            dy: (vb - va) * u.1,
        };
        let z = lin(pa[2], pb[2]);
        let inv_w = lin(pa[3], pb[3]);
        let attr_start = self.push_linear_attrs(a, b, u, flat, out);
        out.prims.push(PrimSetup {
            edges,
            bbox,
            ox: pa[0],
            oy: pa[1],
            z: Plane {
                c: z.c + offset,
                ..z
            },
            inv_w,
            z_clamp: self.z_clamp(),
            id,
            attr_start,
            point_scale: [0.0; 2],
            n_edges: n_edges as u8,
            front,
            clip: self.clip_index(false),
        });
    }

    fn point(
        &self,
        a: (&WindowVertex, &[u32]),
        front: bool,
        id: u32,
        offset: f32,
        out: &mut DrawSetup,
    ) {
        let p = a.0.pos;
        if p.iter().any(|c| c.is_nan()) {
            return;
        }
        let rs = &self.draw.state.raster;
        let size = if a.0.point_size >= 0.0 {
            a.0.point_size
        } else {
            rs.point_size
        };
        let size = if rs.point_sprite {
            size.max(1.0)
        } else {
            size.round().max(1.0)
        }
        .min(2048.0);
        let h = size * 0.5;
        let quad = [
            (p[0] - h, p[1] - h),
            (p[0] + h, p[1] - h),
            (p[0] + h, p[1] + h),
            (p[0] - h, p[1] + h),
        ];
        let pts = quad.map(|(x, y)| (snap(x), snap(y)));
        let Some((edges, n_edges)) = polygon_edges(&pts) else {
            return;
        };
        let bbox = pixel_bbox(&pts, self.clip_rect(false), self.draw.sample_span);
        if bbox_empty(&bbox) {
            return;
        }
        let attr_start = self.push_linear_attrs(a, a, (0.0, 0.0), a.1, out);
        let t_dir = match rs.point_sprite_origin {
            PointSpriteOrigin::UpperLeft => -1.0,
            PointSpriteOrigin::LowerLeft => 1.0,
        };
        out.prims.push(PrimSetup {
            edges,
            bbox,
            ox: p[0],
            oy: p[1],
            z: Plane::constant(p[2] + offset),
            inv_w: Plane::constant(p[3]),
            z_clamp: self.z_clamp(),
            id,
            attr_start,
            point_scale: [1.0 / size, t_dir / size],
            n_edges: n_edges as u8,
            front,
            clip: self.clip_index(false),
        });
    }
}

/// A triangle's window-space frame for plane equations: edge vectors from vertex 0 and
/// the reciprocal of their determinant, shared by the depth, 1/w and every varying plane
/// (one f64 division per triangle instead of two per plane; the quotient differs from
/// dividing by at most an f64 rounding, far below the f32 the plane is stored in).
struct TriFrame {
    x1: f64,
    y1: f64,
    x2: f64,
    y2: f64,
    /// 1 / det; 0 when the window positions are collinear (constant planes).
    inv_det: f64,
}

impl TriFrame {
    fn new(p0: [f32; 4], p1: [f32; 4], p2: [f32; 4]) -> TriFrame {
        let (x1, y1) = (f64::from(p1[0] - p0[0]), f64::from(p1[1] - p0[1]));
        let (x2, y2) = (f64::from(p2[0] - p0[0]), f64::from(p2[1] - p0[1]));
        let det = x1 * y2 - x2 * y1;
        TriFrame {
            x1,
            y1,
            x2,
            y2,
            inv_det: if det == 0.0 { 0.0 } else { 1.0 / det },
        }
    }

    /// Plane through three vertices' values, relative to vertex 0's window position.
    #[inline(always)]
    fn plane(&self, v: [f32; 3]) -> Plane {
        if self.inv_det == 0.0 {
            return Plane::constant(v[0]);
        }
        let (a1, a2) = (
            f64::from(v[1]) - f64::from(v[0]),
            f64::from(v[2]) - f64::from(v[0]),
        );
        Plane {
            c: v[0],
            dx: ((a1 * self.y2 - a2 * self.y1) * self.inv_det) as f32,
            dy: ((a2 * self.x1 - a1 * self.x2) * self.inv_det) as f32,
        }
    }
}

/// Multisampled line (GL 3.5.4): a rectangle `width` wide, as long as the segment and
/// centred on it; each sample inside it is covered.
pub(crate) fn line_rect(a: [f32; 2], b: [f32; 2], width: f32) -> Option<[(f32, f32); 4]> {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len = (dx * dx + dy * dy).sqrt();
    if len == 0.0 || !len.is_finite() {
        return None;
    }
    let h = if width.is_finite() { width * 0.5 } else { 0.5 };
    let (nx, ny) = (-dy / len * h, dx / len * h);
    Some([
        (a[0] - nx, a[1] - ny),
        (b[0] - nx, b[1] - ny),
        (b[0] + nx, b[1] + ny),
        (a[0] + nx, a[1] + ny),
    ])
}

/// Line as a parallelogram under the GL diamond-exit rule (see `diamond`).
/// Returns `None` for a zero-length line or one that produces no fragment.
pub(crate) fn line_quad(a: [f32; 2], b: [f32; 2], width: f32) -> Option<[(f32, f32); 4]> {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    if dx == 0.0 && dy == 0.0 {
        return None;
    }
    if dx.abs() >= dy.abs() {
        let q = major_quad(a, b, width)?;
        Some(q)
    } else {
        // Transpose, solve as x-major, transpose back.
        let q = major_quad([a[1], a[0]], [b[1], b[0]], width)?;
        Some(q.map(|(x, y)| (y, x)))
    }
}

/// x-major line from `a` to `b` (|dx| ≥ |dy| > or = 0, dx ≠ 0).
///
/// GL's diamond-exit rule produces the fragment of pixel f when the segment intersects
/// f's diamond |x − xf| + |y − yf| < 1/2 and its end point is not inside it. An x-major
/// segment crosses one diamond per column c (the one of the pixel its centre line passes
/// at x = c + 1/2), leaving it at an exit abscissa e_c in (c, c + 1) along the direction
/// of travel. So column c is drawn iff the segment starts before e_c and ends at or past
/// it; interior columns always are, only the end columns need the test. The fragments
/// are then the pixel centres inside a parallelogram whose vertical sides sit on the
/// first/last drawn column boundaries and whose slanted sides are the line ± width/2.
fn major_quad(a: [f32; 2], b: [f32; 2], width: f32) -> Option<[(f32, f32); 4]> {
    // Mirror so that travel is towards +x; mirror the result back.
    let flip = b[0] < a[0];
    let fx = |x: f32| if flip { -x } else { x };
    let (ax, bx) = (fx(a[0]), fx(b[0]));
    let m = (b[1] - a[1]) / (bx - ax);
    let y_at = |x: f32| a[1] + m * (x - ax);
    let exit = |c: f32| {
        let xc = c + 0.5;
        let yc = y_at(xc);
        let d = yc - (yc.floor() + 0.5);
        // Solve t + |d + m t| = 1/2 for t ≥ 0.
        let t1 = (0.5 - d) / (1.0 + m);
        let t = if d + m * t1 >= 0.0 && t1.is_finite() {
            t1
        } else {
            (0.5 + d) / (1.0 - m)
        };
        xc + t
    };
    let ca = ax.floor();
    let cb = bx.floor();
    let first = if ax < exit(ca) { ca } else { ca + 1.0 };
    let last = if exit(cb) <= bx { cb } else { cb - 1.0 };
    if last < first {
        return None;
    }
    let (x0, x1) = (first, last + 1.0);
    let h = width * 0.5;
    let (y0, y1) = (y_at(x0), y_at(x1));
    Some([
        (fx(x0), y0 - h),
        (fx(x1), y1 - h),
        (fx(x1), y1 + h),
        (fx(x0), y0 + h),
    ])
}

/// Window depth of pixel (x, y) at in-pixel position `p`: the one formula every depth
/// test uses, so early, late and fast paths agree bit for bit.
#[inline(always)]
pub(crate) fn sample_z(prim: &PrimSetup, x: i32, y: i32, p: [f32; 2]) -> f32 {
    prim.frag_z(
        prim.z
            .at(x as f32 - prim.ox + p[0], y as f32 - prim.oy + p[1]),
    )
}

/// The encoded depth of every sample of a primitive whose z plane is flat: c + 0·x + 0·y
/// is c for finite positions up to the sign of a zero, which encode_depth discards.
#[inline]
pub(crate) fn flat_depth(prim: &PrimSetup, fmt: DepthFormat) -> Option<u32> {
    (prim.z.dx == 0.0 && prim.z.dy == 0.0)
        .then(|| encode_depth(fmt, sample_z(prim, 0, 0, [0.5; 2])))
}

/// Perspective factor w = 1 / (interpolated 1/w) at (rx, ry); 0 where 1/w is 0.
#[inline(always)]
pub(crate) fn lane_w(iw: &Plane, rx: f32, ry: f32) -> f32 {
    let v = iw.at(rx, ry);
    if v != 0.0 {
        1.0 / v
    } else {
        0.0
    }
}

/// [`lane_w`] of every position when 1/w is constant over the primitive (every affine
/// draw): one division for all lanes, the same bits (c + 0·x + 0·y is c, or a zero).
#[inline]
pub(crate) fn flat_w(iw: &Plane) -> Option<f32> {
    (iw.dx == 0.0 && iw.dy == 0.0).then(|| if iw.c != 0.0 { 1.0 / iw.c } else { 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_bias_matches_fill_rule() {
        // CCW right triangle (0,0) (4,0) (0,4) in pixels.
        let s = SUBPIXEL;
        let (e, n) = polygon_edges(&[(0, 0), (4 * s, 0), (0, 4 * s)]).unwrap_or_default();
        assert_eq!(n, 3);
        let inside = |x: i64, y: i64| e[..3].iter().all(|e| e.at(x, y) >= 0);
        assert!(inside(0, 2 * s), "left edge is inclusive");
        assert!(inside(2 * s, 0), "bottom edge is inclusive");
        assert!(
            !inside(2 * s, 2 * s),
            "hypotenuse (right edge) is exclusive"
        );
        // Same triangle listed clockwise gives the same edges.
        let (e2, _) = polygon_edges(&[(0, 0), (0, 4 * s), (4 * s, 0)]).unwrap_or_default();
        let inside2 = |x: i64, y: i64| e2[..3].iter().all(|e| e.at(x, y) >= 0);
        assert_eq!(inside(0, 2 * s), inside2(0, 2 * s));
        assert_eq!(inside(2 * s, 2 * s), inside2(2 * s, 2 * s));
        assert!(polygon_edges(&[(0, 0), (s, s), (2 * s, 2 * s)]).is_none());
    }

    /// What snapping was before: f64 multiply and libm `round`.
    fn snap_libm(v: f32) -> i64 {
        (f64::from(v) * SUBPIXEL as f64).round() as i64
    }

    #[test]
    fn snap_matches_round_half_away_from_zero() {
        for v in [
            0.0f32,
            -0.0,
            0.5 / 256.0,
            -0.5 / 256.0,
            1.5 / 256.0,
            -1.5 / 256.0,
            0.499_999_97 / 256.0,
            MAX_COORD,
            -MAX_COORD,
            2.0 * MAX_COORD,
            f32::MIN_POSITIVE,
            1e-45,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            8_388_607.5,
            16_777_215.0 / 256.0,
        ] {
            assert_eq!(snap(v), snap_libm(v), "{v:e}");
        }
    }

    proptest::proptest! {
        #[test]
        fn snap_is_bit_identical_to_libm_round(bits in proptest::prelude::any::<u32>()) {
            let v = f32::from_bits(bits);
            proptest::prop_assume!(v.is_nan() || v.abs() <= 4.0 * MAX_COORD);
            proptest::prop_assert_eq!(snap(v), snap_libm(v), "{:e}", v);
        }

        #[test]
        fn snap_in_range_is_snap(bits in proptest::prelude::any::<u32>()) {
            let v = f32::from_bits(bits);
            proptest::prop_assume!(v.abs() <= MAX_COORD);
            proptest::prop_assert_eq!(snap_in_range(v), snap(v), "{:e}", v);
        }

        #[test]
        fn snap_near_half_steps(k in -(1i64 << 29)..(1i64 << 29), d in -3i32..=3) {
            // Values around k/2 subpixels, where rounding ties and near-ties live.
            let v = f32::from_bits(((k as f32 / 512.0).to_bits() as i32 + d) as u32);
            proptest::prop_assert_eq!(snap(v), snap_libm(v), "{:e}", v);
        }
    }

    /// Sets up `extra`'s primitives against `shared` with the given snapped positions.
    fn setup_with(
        shared: &DrawInput,
        extra: &DrawInput,
        snapped: &[[i32; 2]],
    ) -> Result<DrawSetup, String> {
        let state = FixedFunctionState::default();
        let info = ShaderInfo::default();
        let target = Target {
            width: 64,
            height: 48,
            depth_format: DepthFormat::D24S8,
            multisample: false,
        };
        let ctx =
            SetupCtx::new(shared, snapped, &state, &info, target).map_err(|e| format!("{e:?}"))?;
        let mut out = DrawSetup::default();
        ctx.run(extra, &extra.primitives, &mut out)
            .map(|()| out)
            .map_err(|e| format!("{e:?}"))
    }

    fn coord() -> impl proptest::strategy::Strategy<Value = f32> {
        use proptest::prelude::*;
        prop_oneof![
            12 => -8.0f32..72.0,
            1 => Just(f32::NAN),
            1 => Just(f32::INFINITY),
            1 => Just(-2.0 * MAX_COORD),
            1 => Just(MAX_COORD),
        ]
    }

    proptest::proptest! {
        /// Triangles over vertices snap_shared found plain take setup's fast path; the
        /// same draw with every vertex left to the per-primitive checks (as a clipped
        /// vertex is) must give the same records, planes and errors.
        #[test]
        fn snapped_vertices_set_up_as_checked_ones(
            verts in proptest::collection::vec(
                (coord(), coord(), coord(), coord(), -4.0f32..4.0, -4.0f32..4.0), 3..12),
            tris in proptest::collection::vec((0u32..14, 0u32..14, 0u32..14), 1..24),
        ) {
            let mut shared = DrawInput::new(2);
            for &(x, y, z, w, a, b) in &verts {
                let v = WindowVertex { pos: [x, y, z, w], point_size: -1.0 };
                shared.push_vertex(v, &[a.to_bits(), b.to_bits()]);
            }
            // Two vertices of the chunk's own (as clipping makes), indexed after the
            // shared ones.
            let mut extra = DrawInput::new(2);
            for (x, y) in [(3.5, 4.25), (30.0, 20.5)] {
                let v = WindowVertex { pos: [x, y, 0.25, 1.0], point_size: -1.0 };
                extra.push_vertex(v, &[1.0f32.to_bits(), 2.0f32.to_bits()]);
            }
            let n = verts.len() as u32;
            for (id, &(a, b, c)) in tris.iter().enumerate() {
                // Indices past the shared vertices reach the extra ones (or none).
                let v = [a, b, c].map(|i| if i < n { i } else { n + (i - n) % 3 });
                extra.primitives.push(Primitive::triangle(v, (id % 3) as u8, id as u32));
            }
            let mut snapped = Vec::new();
            snap_shared(&shared.vertices, &mut snapped);
            let unsnapped = vec![[UNSNAPPED; 2]; snapped.len()];
            let fast = setup_with(&shared, &extra, &snapped);
            let checked = setup_with(&shared, &extra, &unsnapped);
            // Debug text: NaN planes compare equal that way.
            proptest::prop_assert_eq!(format!("{fast:?}"), format!("{checked:?}"));
        }
    }

    #[test]
    fn prim_record_stays_compact() {
        assert!(std::mem::size_of::<PrimSetup>() <= 144);
    }

    #[test]
    fn tri_plane_reproduces_vertices() {
        let p0 = [1.0, 2.0, 0.0, 1.0];
        let p1 = [9.0, 3.0, 0.0, 1.0];
        let p2 = [4.0, 7.0, 0.0, 1.0];
        let pl = TriFrame::new(p0, p1, p2).plane([1.0, 5.0, -3.0]);
        assert!((pl.at(0.0, 0.0) - 1.0).abs() < 1e-5);
        assert!((pl.at(8.0, 1.0) - 5.0).abs() < 1e-5);
        assert!((pl.at(3.0, 5.0) + 3.0).abs() < 1e-5);
    }

    #[test]
    fn diamond_exit_columns() {
        // Through pixel centres: start drawn, end not.
        let q = line_quad([0.5, 0.5], [4.5, 0.5], 1.0).unwrap_or_default();
        assert_eq!((q[0].0, q[1].0), (0.0, 4.0));
        // Start inside pixel 0's diamond past its centre: still drawn; end inside pixel
        // 4's diamond: not drawn.
        let q = line_quad([0.7, 0.5], [4.7, 0.5], 1.0).unwrap_or_default();
        assert_eq!((q[0].0, q[1].0), (0.0, 4.0));
        // Leftward: from 4.5 to 0.5 draws pixels 4..1.
        let q = line_quad([4.5, 0.5], [0.5, 0.5], 1.0).unwrap_or_default();
        assert_eq!((q[0].0, q[1].0), (5.0, 1.0));
        // A line that stays inside one diamond draws nothing.
        assert!(line_quad([0.4, 0.5], [0.6, 0.5], 1.0).is_none());
        // Multisampled: a plain rectangle around the segment.
        let r = line_rect([1.0, 1.0], [5.0, 1.0], 2.0).unwrap_or_default();
        assert_eq!(r, [(1.0, 0.0), (5.0, 0.0), (5.0, 2.0), (1.0, 2.0)]);
        assert!(line_rect([1.0, 1.0], [1.0, 1.0], 2.0).is_none());
        // Starting near the top corner of pixel 0's diamond, still inside it.
        let q = line_quad([0.5, 0.95], [3.5, 0.95], 1.0).unwrap_or_default();
        assert_eq!(q[0].0, 0.0);
        // Starting in the corner between four diamonds: column 0 is not drawn.
        let q = line_quad([0.9, 0.95], [3.5, 0.95], 1.0).unwrap_or_default();
        assert_eq!(q[0].0, 1.0);
    }
}
