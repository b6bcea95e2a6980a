//! Clipping (frustum with depth clamp, user clip planes/distances, a guard band for x/y)
//! and the viewport transform, producing the rasterizer's [`DrawInput`].
//!
//! Filled triangles are clipped in x and y only to a guard band far outside the viewport;
//! the rasterizer bounds them by their viewport's pixel rectangle
//! ([`glemu_raster::ViewportState::rect`]), which gives the image clipping to the view
//! volume would without cutting every triangle that crosses the viewport edge. Points,
//! lines and triangles drawn as lines or points (polygon mode) are clipped to the view
//! volume itself: their width may then reach past the viewport, as GL specifies. Each
//! primitive uses the viewport its provoking vertex selects with `result.viewport`
//! (ARB_viewport_array; 0 when not written or out of range).
//!
//! Triangles entirely inside every plane pass through untouched (vertices shared with
//! their neighbours); a triangle crossing a plane is clipped as a polygon
//! (Sutherland–Hodgman) and fanned from its first vertex. Varyings at new vertices are
//! interpolated linearly in clip space, which is what keeps perspective-correct
//! interpolation exact; flat varyings are first copied from the provoking vertex to the
//! whole primitive so every output triangle carries them.

use crate::assembly::{PrimClass, Primitives};
use crate::scratch;
use crate::state::VertexProcessing;
use crate::vertices::Vertices;
use glemu_programs::ir::VaryingSlot;
use glemu_raster::{DrawInput, Primitive, WindowVertex};
use rayon::prelude::*;
use std::ops::Range;

/// Which scalars of a vertex go to the rasterizer, in [`DrawInput`] varying order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RasterPlan {
    /// (layout index in [`Vertices::slots`], component, flat) per raster varying; `None`
    /// layout index = constant zero (the stage does not write that slot).
    pub picks: Vec<(Option<usize>, usize, bool)>,
}

/// Largest |x_ndc|, |y_ndc| kept without clipping, as a multiple of the largest viewport
/// half size: window coordinates stay within ±8192 pixels of the viewport, well inside
/// the rasterizer's fixed-point range.
const GUARD_PIXELS: f32 = 8192.0;

/// Why a plane is there; points use the exact frustum for x and y.
#[derive(Copy, Clone)]
struct Planes {
    gb_x: f32,
    gb_y: f32,
    near_far: bool,
    user: u8,
}

const MAX_PLANES: usize = 7 + 8;

/// Per-vertex clip data: position and the signed distance to each plane.
#[derive(Clone, Debug)]
struct ClipVert {
    pos: [f32; 4],
    dist: [f32; MAX_PLANES],
    vary: Vec<u32>,
    point_size: f32,
    /// The polygon edge leaving this vertex is drawn in polygon mode LINE/POINT.
    edge: bool,
}

fn distances(pos: [f32; 4], user: &[f32; 8], p: &Planes, exact_xy: bool) -> [f32; MAX_PLANES] {
    let [x, y, z, w] = pos;
    let (gx, gy) = if exact_xy {
        (1.0, 1.0)
    } else {
        (p.gb_x, p.gb_y)
    };
    let mut d = [0.0f32; MAX_PLANES];
    d[0] = gx * w + x;
    d[1] = gx * w - x;
    d[2] = gy * w + y;
    d[3] = gy * w - y;
    if p.near_far {
        d[4] = w + z;
        d[5] = w - z;
    }
    // Keep w positive so 1/w exists and is finite (matters with depth clamp, where the
    // near plane is off).
    // A vertex with an infinite or NaN coordinate has no position at all: outside.
    d[6] = if pos.iter().all(|c| c.is_finite()) {
        w - 1e-30
    } else {
        -1.0
    };
    for i in 0..8 {
        if p.user & (1 << i) != 0 {
            d[7 + i] = user[i];
        }
    }
    d
}

/// Bit k set = distance k is negative or NaN (outside plane k); a flat loop, so it
/// vectorizes (the per-vertex pass runs it for every vertex of a draw).
#[inline]
fn outside(d: &[f32; MAX_PLANES]) -> u32 {
    let mut m = 0u32;
    for (k, x) in d.iter().enumerate() {
        m |= u32::from(*x < 0.0 || x.is_nan()) << k;
    }
    m
}

/// A clipped vertex that maps to a finite window position.
fn usable(c: &ClipVert) -> bool {
    c.pos[3] > 0.0 && c.pos.iter().all(|x| x.is_finite()) && (1.0 / c.pos[3]).is_finite()
}

/// Builds the rasterizer input for a set of primitives of one class.
///
/// Made once per draw: every vertex's outcode, window position and picked varyings are
/// computed up front, a chunk of vertices per task, into [`ClipContext::shared`]. A
/// primitive inside the guard band then only names its vertices there, so chunks of
/// primitives can be clipped in parallel ([`ClipContext::add`]), each writing only the
/// vertices clipping creates into an input of its own.
pub struct ClipContext<'a> {
    /// The vertices the primitives index.
    pub(crate) verts: &'a Vertices,
    /// Which varyings go to the rasterizer and how they are interpolated.
    pub(crate) plan: &'a RasterPlan,
    /// Viewports, clip planes and the other fixed vertex processing state.
    pub(crate) vp: &'a VertexProcessing,
    /// Layout index of each enabled user plane's written distance, if any.
    user_src: [Option<usize>; 8],
    point_size_src: Option<usize>,
    /// Layout index of `result.viewport`, if written.
    viewport_src: Option<usize>,
    /// Layout index of `result.position`, if written (found once, not per vertex).
    pos_src: Option<usize>,
    /// Layout index of `result.viewportmask[0]` (NV_viewport_array2), if written.
    mask_src: Option<usize>,
    planes: Planes,
    /// Per `verts` index: bit k set = outside plane k (guard band for x and y).
    outcodes: Vec<u32>,
    /// Per `verts` index: window position (in the viewport the vertex itself selects) and
    /// picked varyings (meaningful where the outcode is 0).
    shared: DrawInput,
}

/// A mask of the `n` viewports that exist (bits past MAX_VIEWPORTS are ignored; the spec
/// leaves them undefined).
fn viewport_bits(n: usize) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// Vertices per task of the per-vertex pass.
const VERTEX_CHUNK: usize = 4096;

impl<'a> ClipContext<'a> {
    /// Clipping for filled triangles (see [`ClipContext::with_outlines`]).
    pub fn new(verts: &'a Vertices, plan: &'a RasterPlan, vp: &'a VertexProcessing) -> Self {
        Self::with_outlines(verts, plan, vp, false)
    }

    /// `outlined`: triangles are drawn as lines or points (polygon mode) on some face, so
    /// they are clipped to the view volume in x and y as well: their edges' width is not
    /// bounded by the viewport rectangle the way filled triangles are.
    pub fn with_outlines(
        verts: &'a Vertices,
        plan: &'a RasterPlan,
        vp: &'a VertexProcessing,
        outlined: bool,
    ) -> Self {
        let mut user_src = [None; 8];
        for (i, u) in user_src.iter_mut().enumerate() {
            *u = verts
                .find(VaryingSlot::ClipDistance(i as u32))
                .or_else(|| verts.find(VaryingSlot::ClipLegacy(i as u32)));
        }
        let half_w = vp
            .viewports
            .iter()
            .fold(1.0f32, |m, v| m.max(v.width * 0.5));
        let half_h = vp
            .viewports
            .iter()
            .fold(1.0f32, |m, v| m.max(v.height * 0.5));
        let gb = |half: f32| {
            if outlined {
                1.0
            } else {
                (GUARD_PIXELS / half).max(1.0)
            }
        };
        let mut cc = ClipContext {
            verts,
            plan,
            vp,
            user_src,
            point_size_src: if vp.program_point_size {
                verts.find(VaryingSlot::PointSize)
            } else {
                None
            },
            viewport_src: verts.find(VaryingSlot::ViewportIndex),
            pos_src: verts.find(VaryingSlot::Position),
            mask_src: verts.find(VaryingSlot::ViewportMask),
            planes: Planes {
                gb_x: gb(half_w),
                gb_y: gb(half_h),
                near_far: !vp.clip.depth_clamp,
                user: vp.clip.enabled,
            },
            outcodes: Vec::new(),
            shared: DrawInput::new(plan.picks.len()),
        };
        let n = verts.len();
        let nv = plan.picks.len();
        let mut outcodes = scratch::zeroed_words(n);
        let mut windows = scratch::WINDOWS.filled(n, WindowVertex::default());
        let mut varyings = scratch::zeroed_words(n * nv);
        let this = &cc;
        outcodes
            .par_chunks_mut(VERTEX_CHUNK)
            .zip(windows.par_chunks_mut(VERTEX_CHUNK))
            .enumerate()
            .for_each(|(c, (codes, wins))| {
                for (i, (code, win)) in codes.iter_mut().zip(wins.iter_mut()).enumerate() {
                    let v = c * VERTEX_CHUNK + i;
                    *code = this.compute_outcode(v);
                    if *code == 0 {
                        let pos = this.position(v);
                        *win = this.window(pos, this.point_size(v), this.viewport_of(v));
                    }
                }
            });
        if nv > 0 {
            varyings
                .par_chunks_mut(VERTEX_CHUNK * nv)
                .enumerate()
                .for_each(|(c, vary)| {
                    for (i, dst) in vary.chunks_exact_mut(nv).enumerate() {
                        let row = this.verts.row(c * VERTEX_CHUNK + i);
                        for (d, (k, c, _)) in dst.iter_mut().zip(&this.plan.picks) {
                            *d = k
                                .and_then(|k| row.get(k))
                                .and_then(|r| r.get(*c))
                                .copied()
                                .unwrap_or(0);
                        }
                    }
                });
        }
        cc.outcodes = outcodes;
        cc.shared.vertices = windows;
        cc.shared.varyings = varyings;
        cc
    }

    /// Hands the per-vertex buffers to the next draw (crate::scratch).
    pub(crate) fn recycle(self) {
        scratch::WORDS.give(self.outcodes);
        scratch::WINDOWS.give(self.shared.vertices);
        scratch::WORDS.give(self.shared.varyings);
    }

    /// Every vertex in window coordinates, indexed like [`ClipContext::verts`]: the
    /// vertices unclipped primitives use.
    pub fn shared(&self) -> &DrawInput {
        &self.shared
    }

    fn user_distances(&self, v: usize, pos: [f32; 4]) -> [f32; 8] {
        let mut d = [0.0; 8];
        for (i, out) in d.iter_mut().enumerate() {
            if self.planes.user & (1 << i) == 0 {
                continue;
            }
            *out = match self.user_src[i] {
                Some(k) => f32::from_bits(self.verts.get(v, k)[0]),
                None => {
                    let p = self.vp.clip.planes[i];
                    p[0] * pos[0] + p[1] * pos[1] + p[2] * pos[2] + p[3] * pos[3]
                }
            };
        }
        d
    }

    /// Clip-space position of vertex `v` ((0, 0, 0, 0) when not written).
    #[inline]
    fn position(&self, v: usize) -> [f32; 4] {
        match self.pos_src {
            Some(k) => self.verts.get(v, k).map(f32::from_bits),
            None => [0.0; 4],
        }
    }

    fn point_size(&self, v: usize) -> f32 {
        self.point_size_src
            .map(|k| f32::from_bits(self.verts.get(v, k)[0]))
            .unwrap_or(-1.0)
    }

    fn clip_vert(&self, v: usize, exact_xy: bool) -> ClipVert {
        let pos = self.position(v);
        let user = self.user_distances(v, pos);
        ClipVert {
            pos,
            dist: distances(pos, &user, &self.planes, exact_xy),
            vary: self
                .plan
                .picks
                .iter()
                .map(|(k, c, _)| k.map(|k| self.verts.get(v, k)[*c]).unwrap_or(0))
                .collect(),
            point_size: self.point_size(v),
            edge: true,
        }
    }

    /// The viewport vertex `v` selects: `result.viewport.x` when written and in range,
    /// else 0 (the spec leaves an out-of-range index undefined; Mesa uses 0 too).
    fn viewport_of(&self, v: usize) -> u8 {
        let Some(k) = self.viewport_src else {
            return 0;
        };
        let i = self.verts.get(v, k)[0] as i32;
        if (0..self.vp.viewports.len() as i32).contains(&i) {
            i as u8
        } else {
            0
        }
    }

    fn window(&self, pos: [f32; 4], point_size: f32, viewport: u8) -> WindowVertex {
        let vp = &self.vp.viewports[usize::from(viewport) % self.vp.viewports.len()];
        let inv_w = 1.0 / pos[3];
        let (x, y, z) = (pos[0] * inv_w, pos[1] * inv_w, pos[2] * inv_w);
        let mut zw = vp.near + (z + 1.0) * 0.5 * (vp.far - vp.near);
        if self.vp.clip.depth_clamp {
            zw = zw.clamp(vp.near.min(vp.far), vp.near.max(vp.far));
        }
        WindowVertex {
            pos: [
                vp.x + (x + 1.0) * 0.5 * vp.width,
                vp.y + (y + 1.0) * 0.5 * vp.height,
                zw,
                inv_w,
            ],
            point_size,
        }
    }

    /// Appends a vertex made by clipping to the chunk's own vertices; returns its index
    /// (numbered after the shared vertices).
    fn emit_clip_vert(&self, cv: &ClipVert, viewport: u8, out: &mut DrawInput) -> u32 {
        let base = self.shared.vertices.len() as u32;
        base + out.push_vertex(self.window(cv.pos, cv.point_size, viewport), &cv.vary)
    }

    /// Unclipped vertex `v` of a primitive in `viewport`: the shared one when the vertex
    /// selects that viewport itself, else a copy transformed by it in the chunk's own.
    fn unclipped(&self, v: usize, viewport: u8, out: &mut DrawInput) -> u32 {
        if self.viewport_of(v) == viewport {
            return v as u32;
        }
        let base = self.shared.vertices.len() as u32;
        let win = self.window(self.position(v), self.point_size(v), viewport);
        let vary = self.shared.vertex_varyings(v as u32).unwrap_or(&[]);
        base + out.push_vertex(win, vary)
    }

    /// Which planes vertex `v` is outside of, with x and y against the view volume.
    fn exact_outcode(&self, v: usize) -> u32 {
        let pos = self.position(v);
        let user = self.user_distances(v, pos);
        outside(&distances(pos, &user, &self.planes, true))
    }

    /// Which planes vertex `v` is outside of (guard band for x/y).
    fn compute_outcode(&self, v: usize) -> u32 {
        let pos = self.position(v);
        let user = if self.planes.user != 0 {
            self.user_distances(v, pos)
        } else {
            [0.0; 8]
        };
        outside(&distances(pos, &user, &self.planes, false))
    }

    fn outcode(&self, v: usize) -> u32 {
        // A primitive naming a vertex that does not exist is outside everything.
        self.outcodes.get(v).copied().unwrap_or(u32::MAX)
    }

    /// Clips primitives `range` of `prims` (of `class`: points, lines or triangles) and
    /// appends them to `out`, whose own vertices are numbered after the shared ones;
    /// `ids[p]` is primitive `p`'s `primitive.id`.
    pub fn add(
        &self,
        class: PrimClass,
        prims: &Primitives,
        ids: &[u32],
        range: Range<usize>,
        out: &mut DrawInput,
    ) {
        let per = class.vertices();
        let lo = range.start.min(prims.len());
        let hi = range.end.min(prims.len());
        out.primitives.reserve(hi - lo);
        let verts = prims.verts.get(lo * per..hi * per).unwrap_or(&[]);
        if class == PrimClass::Triangles && self.mask_src.is_none() && self.viewport_src.is_none() {
            // Every triangle in viewport 0 (the common case): no per-primitive mask walk.
            for (p, vs) in (lo..hi).zip(verts.chunks_exact(3)) {
                let id = ids.get(p).copied().unwrap_or(p as u32);
                let prov = prims.provoking.get(p).copied().unwrap_or(0);
                let idx = [vs[0] as usize, vs[1] as usize, vs[2] as usize];
                self.add_triangle(&idx, prov, id, prims.edges(p), 0, out);
            }
            return;
        }
        for (p, vs) in (lo..hi).zip(verts.chunks_exact(per)) {
            let id = ids.get(p).copied().unwrap_or(p as u32);
            let prov = prims.provoking.get(p).copied().unwrap_or(0);
            let mut idx = [0usize; 3];
            for (d, v) in idx.iter_mut().zip(vs) {
                *d = *v as usize;
            }
            let pv = idx[usize::from(prov).min(per - 1)];
            // NV_viewport_array2: one copy per viewport of the provoking vertex's mask, in
            // increasing viewport order; else the one viewport it selects.
            let mask = match self.mask_src {
                Some(k) => self.verts.get(pv, k)[0] & viewport_bits(self.vp.viewports.len()),
                None => 1 << self.viewport_of(pv),
            };
            for vp in (0..32u8).filter(|b| mask & (1 << b) != 0) {
                let first = out.primitives.len();
                match class {
                    PrimClass::Points => self.add_point(idx[0], id, vp, out),
                    PrimClass::Lines => self.add_line(&idx, prov, id, vp, out),
                    PrimClass::Triangles => {
                        self.add_triangle(&idx, prov, id, prims.edges(p), vp, out)
                    }
                    _ => {}
                }
                for prim in out.primitives.get_mut(first..).unwrap_or_default() {
                    prim.viewport = vp;
                }
            }
        }
    }

    fn add_point(&self, v: usize, id: u32, vp: u8, out: &mut DrawInput) {
        if self.exact_outcode(v) != 0 {
            return;
        }
        // Inside the exact frustum means inside the guard band: the shared vertex is it.
        let e = self.unclipped(v, vp, out);
        out.primitives.push(Primitive::point(e, id));
    }

    /// Copies the provoking vertex's flat varyings to every vertex of a clipped primitive.
    fn flatten(&self, cvs: &mut [ClipVert], prov: usize) {
        let Some(src) = cvs.get(prov).map(|c| c.vary.clone()) else {
            return;
        };
        for cv in cvs.iter_mut() {
            for (k, (_, _, flat)) in self.plan.picks.iter().enumerate() {
                if *flat {
                    if let (Some(d), Some(s)) = (cv.vary.get_mut(k), src.get(k)) {
                        *d = *s;
                    }
                }
            }
        }
    }

    fn add_line(&self, idx: &[usize], prov: u8, id: u32, vp: u8, out: &mut DrawInput) {
        let (c0, c1) = (self.exact_outcode(idx[0]), self.exact_outcode(idx[1]));
        if c0 & c1 != 0 {
            return;
        }
        if c0 | c1 == 0 {
            let a = self.unclipped(idx[0], vp, out);
            let b = self.unclipped(idx[1], vp, out);
            out.primitives.push(Primitive::line(a, b, prov, id));
            return;
        }
        let mut cvs = [self.clip_vert(idx[0], true), self.clip_vert(idx[1], true)];
        if cvs.iter().any(|c| c.pos.iter().any(|x| !x.is_finite())) {
            return;
        }
        let (mut t0, mut t1) = (0.0f32, 1.0f32);
        for k in 0..MAX_PLANES {
            let (d0, d1) = (cvs[0].dist[k], cvs[1].dist[k]);
            if d0 < 0.0 && d1 < 0.0 || d0.is_nan() || d1.is_nan() {
                return;
            }
            if d0 < 0.0 {
                t0 = t0.max(d0 / (d0 - d1));
            } else if d1 < 0.0 {
                t1 = t1.min(d0 / (d0 - d1));
            }
        }
        if t0 > t1 {
            return;
        }
        // No plane cut the line, yet an endpoint was outside one: it lies on that plane to
        // within rounding, e.g. w = 0 against the w > 0 plane, so check it maps to a window
        // position before passing the line through unclipped.
        if t0 == 0.0 && t1 == 1.0 {
            if !usable(&cvs[0]) || !usable(&cvs[1]) {
                return;
            }
            let ea = self.emit_clip_vert(&cvs[0], vp, out);
            let eb = self.emit_clip_vert(&cvs[1], vp, out);
            out.primitives.push(Primitive::line(ea, eb, prov, id));
            return;
        }
        self.flatten(&mut cvs, prov as usize);
        let a = self.lerp(&cvs[0], &cvs[1], t0);
        let b = self.lerp(&cvs[0], &cvs[1], t1);
        if !usable(&a) || !usable(&b) {
            return;
        }
        let ea = self.emit_clip_vert(&a, vp, out);
        let eb = self.emit_clip_vert(&b, vp, out);
        out.primitives.push(Primitive::line(ea, eb, prov, id));
    }

    fn lerp(&self, a: &ClipVert, b: &ClipVert, t: f32) -> ClipVert {
        let l = |x: f32, y: f32| x + (y - x) * t;
        let mut pos = [0.0; 4];
        let mut dist = [0.0; MAX_PLANES];
        for i in 0..4 {
            pos[i] = l(a.pos[i], b.pos[i]);
        }
        for i in 0..MAX_PLANES {
            dist[i] = l(a.dist[i], b.dist[i]);
        }
        let vary = a
            .vary
            .iter()
            .zip(&b.vary)
            .zip(&self.plan.picks)
            .map(|((x, y), (_, _, flat))| {
                if *flat {
                    *x
                } else {
                    l(f32::from_bits(*x), f32::from_bits(*y)).to_bits()
                }
            })
            .collect();
        ClipVert {
            pos,
            dist,
            vary,
            point_size: l(a.point_size, b.point_size),
            edge: a.edge,
        }
    }

    #[inline]
    fn add_triangle(
        &self,
        idx: &[usize],
        prov: u8,
        id: u32,
        edges: u8,
        vp: u8,
        out: &mut DrawInput,
    ) {
        let codes = [
            self.outcode(idx[0]),
            self.outcode(idx[1]),
            self.outcode(idx[2]),
        ];
        if codes[0] & codes[1] & codes[2] != 0 {
            return;
        }
        if codes[0] | codes[1] | codes[2] == 0 {
            let e = [
                self.unclipped(idx[0], vp, out),
                self.unclipped(idx[1], vp, out),
                self.unclipped(idx[2], vp, out),
            ];
            let mut t = Primitive::triangle(e, prov, id);
            t.edge_flags = edges;
            out.primitives.push(t);
            return;
        }
        let mut poly: Vec<ClipVert> = idx.iter().map(|v| self.clip_vert(*v, false)).collect();
        // A non-finite vertex leaves no meaningful intersection (GL: undefined); drop it.
        if poly.iter().any(|c| c.pos.iter().any(|x| !x.is_finite())) {
            return;
        }
        for (k, cv) in poly.iter_mut().enumerate() {
            cv.edge = edges & (1 << k) != 0;
        }
        self.flatten(&mut poly, prov as usize);
        for k in 0..MAX_PLANES {
            if poly.iter().all(|c| c.dist[k] >= 0.0) {
                continue;
            }
            let mut next = Vec::with_capacity(poly.len() + 1);
            for i in 0..poly.len() {
                let a = &poly[i];
                let b = &poly[(i + 1) % poly.len()];
                let (da, db) = (a.dist[k], b.dist[k]);
                if da >= 0.0 {
                    next.push(a.clone());
                }
                if (da >= 0.0) != (db >= 0.0) {
                    let t = da / (da - db);
                    let mut v = self.lerp(a, b, t);
                    // Leaving the volume, the new edge runs along the clip plane: hidden
                    // (as Mesa's clipper does); entering, it continues a's edge.
                    v.edge = da < 0.0 && a.edge;
                    next.push(v);
                }
            }
            poly = next;
            if poly.len() < 3 {
                return;
            }
        }
        // Extreme inputs can cancel to w <= 0 at an intersection; such a primitive has no
        // sensible window-space shape.
        if !poly.iter().all(usable) {
            return;
        }
        let e: Vec<u32> = poly
            .iter()
            .map(|c| self.emit_clip_vert(c, vp, out))
            .collect();
        let n = e.len();
        for i in 1..n - 1 {
            // Flat values were copied to every vertex, so any position can provoke.
            let mut t = Primitive::triangle([e[0], e[i], e[i + 1]], 0, id);
            t.edge_flags = u8::from(i == 1 && poly[0].edge)
                | (u8::from(poly[i].edge) << 1)
                | (u8::from(i + 2 == n && poly[n - 1].edge) << 2);
            out.primitives.push(t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verts(positions: &[[f32; 4]]) -> Vertices {
        let mut v = Vertices::new(vec![VaryingSlot::Position, VaryingSlot::TexCoord(0)]);
        for (i, p) in positions.iter().enumerate() {
            v.push_row(&[p.map(f32::to_bits), [(i as f32).to_bits(), 7, 0, 0]]);
        }
        v
    }

    fn plan() -> RasterPlan {
        RasterPlan {
            picks: vec![(Some(1), 0, false), (Some(1), 1, true)],
        }
    }

    /// Clips `prims` as one chunk and returns a standalone input: the shared vertices
    /// the primitives use and the chunk's own, renumbered in first-use order.
    fn clip(
        v: &Vertices,
        vp: &VertexProcessing,
        class: PrimClass,
        prims: &Primitives,
        ids: &[u32],
    ) -> DrawInput {
        clip_as(v, vp, class, prims, ids, &plan(), false)
    }

    /// [`clip`] with a plan and polygon-mode outlines of one's own.
    fn clip_as(
        v: &Vertices,
        vp: &VertexProcessing,
        class: PrimClass,
        prims: &Primitives,
        ids: &[u32],
        plan: &RasterPlan,
        outlined: bool,
    ) -> DrawInput {
        let cc = ClipContext::with_outlines(v, plan, vp, outlined);
        let mut chunk = DrawInput::new(plan.picks.len());
        cc.add(class, prims, ids, 0..prims.len(), &mut chunk);
        let shared = cc.shared();
        let n = shared.vertices.len() as u32;
        let mut out = DrawInput::new(plan.picks.len());
        let mut map = std::collections::HashMap::new();
        for p in &chunk.primitives {
            let mut q = *p;
            for i in q.v.iter_mut() {
                *i = *map.entry(*i).or_insert_with(|| {
                    let (src, k) = if *i < n {
                        (shared, *i)
                    } else {
                        (&chunk, *i - n)
                    };
                    let vary = src.vertex_varyings(k).unwrap_or(&[]).to_vec();
                    out.push_vertex(src.vertices[k as usize], &vary)
                });
            }
            out.primitives.push(q);
        }
        out
    }

    fn tri(v: &Vertices, vp: &VertexProcessing) -> DrawInput {
        let prims = Primitives {
            verts: vec![0, 1, 2],
            provoking: vec![2],
            edge_flags: vec![],
        };
        clip(v, vp, PrimClass::Triangles, &prims, &[5])
    }

    #[test]
    fn inside_triangle_passes_with_viewport_transform() {
        let vp = VertexProcessing::new(100, 50);
        let v = verts(&[
            [-1.0, -1.0, 0.0, 1.0],
            [1.0, -1.0, 0.5, 1.0],
            [0.0, 1.0, -1.0, 2.0],
        ]);
        let out = tri(&v, &vp);
        assert_eq!(out.primitives.len(), 1);
        assert_eq!(out.primitives[0].provoking, 2);
        assert_eq!(out.primitives[0].id, 5);
        assert_eq!(out.vertices[0].pos, [0.0, 0.0, 0.5, 1.0]);
        assert_eq!(out.vertices[1].pos, [100.0, 0.0, 0.75, 1.0]);
        assert_eq!(out.vertices[2].pos, [50.0, 37.5, 0.25, 0.5]);
    }

    #[test]
    fn near_plane_clips_and_interpolates() {
        let vp = VertexProcessing::new(100, 100);
        // vertex 2 is behind the near plane (z < -w)
        let v = verts(&[
            [-0.5, -0.5, 0.0, 1.0],
            [0.5, -0.5, 0.0, 1.0],
            [0.0, 0.5, -3.0, 1.0],
        ]);
        let out = tri(&v, &vp);
        // a quad remains: two triangles, four vertices; the fan diagonal and the edge
        // along the near plane are hidden in polygon line mode
        assert_eq!(out.primitives.len(), 2);
        assert_eq!(out.primitives[0].edge_flags, 0b011);
        assert_eq!(out.primitives[1].edge_flags, 0b100);
        assert_eq!(out.vertices.len(), 4);
        for w in &out.vertices {
            assert!(w.pos[2] >= -1e-6, "depth inside [0,1]: {:?}", w.pos);
        }
        // new vertex on edge 1→2 at t = 1/3: texcoord.x = 1 + 1/3
        let tc: Vec<f32> = (0..4)
            .map(|i| f32::from_bits(out.vertex_varyings(i).unwrap()[0]))
            .collect();
        assert!(tc.iter().any(|t| (t - 4.0 / 3.0).abs() < 1e-6), "{tc:?}");
        // flat varying comes from the provoking vertex everywhere
        assert!((0..4).all(|i| out.vertex_varyings(i).unwrap()[1] == 7));
        let mut clamp = vp.clone();
        clamp.clip.depth_clamp = true;
        let out = tri(&v, &clamp);
        assert_eq!(
            out.primitives.len(),
            1,
            "depth clamp disables near clipping"
        );
        assert_eq!(out.vertices[2].pos[2], 0.0);
    }

    #[test]
    fn user_planes_cull_and_clip() {
        let mut vp = VertexProcessing::new(100, 100);
        vp.clip.enabled = 1;
        vp.clip.planes[0] = [1.0, 0.0, 0.0, 0.0]; // keep x >= 0
        let v = verts(&[
            [-0.5, -0.5, 0.0, 1.0],
            [-0.1, -0.5, 0.0, 1.0],
            [-0.2, 0.5, 0.0, 1.0],
        ]);
        assert_eq!(tri(&v, &vp).primitives.len(), 0);
        let v = verts(&[
            [-0.5, -0.5, 0.0, 1.0],
            [0.5, -0.5, 0.0, 1.0],
            [0.5, 0.5, 0.0, 1.0],
        ]);
        let out = tri(&v, &vp);
        assert!(!out.primitives.is_empty());
        assert!(out.vertices.iter().all(|w| w.pos[0] >= 50.0 - 1e-3));
    }

    #[test]
    fn guard_band_avoids_xy_clipping_and_points_use_the_frustum() {
        let vp = VertexProcessing::new(100, 100);
        let v = verts(&[
            [-3.0, -1.0, 0.0, 1.0],
            [3.0, -1.0, 0.0, 1.0],
            [0.0, 1.0, 0.0, 1.0],
        ]);
        let out = tri(&v, &vp);
        assert_eq!((out.primitives.len(), out.vertices.len()), (1, 3));
        let prims = Primitives {
            verts: vec![0, 2],
            provoking: vec![0, 0],
            edge_flags: vec![],
        };
        let out = clip(&v, &vp, PrimClass::Points, &prims, &[0, 1]);
        assert_eq!(out.primitives.len(), 1, "the point at x = -3w is outside");
    }

    #[test]
    fn lines_and_outlined_triangles_are_clipped_to_the_view_volume_in_x_and_y() {
        let vp = VertexProcessing::new(100, 100);
        let v = verts(&[
            [-3.0, 0.0, 0.0, 1.0],
            [0.5, 0.0, 0.0, 1.0],
            [0.0, 3.0, 0.0, 1.0],
        ]);
        let line = Primitives {
            verts: vec![0, 1],
            provoking: vec![0],
            edge_flags: vec![],
        };
        let out = clip(&v, &vp, PrimClass::Lines, &line, &[0]);
        assert_eq!(out.vertices[0].pos[0], 0.0, "cut at x = -w, window x 0");
        assert_eq!(out.vertices[1].pos[0], 75.0);
        let tri = Primitives {
            verts: vec![0, 1, 2],
            provoking: vec![0],
            edge_flags: vec![],
        };
        let filled = clip(&v, &vp, PrimClass::Triangles, &tri, &[0]);
        assert_eq!(filled.primitives.len(), 1, "inside the guard band");
        let out = clip_as(&v, &vp, PrimClass::Triangles, &tri, &[0], &plan(), true);
        assert!(out.primitives.len() > 1, "cut into a polygon");
        for w in &out.vertices {
            assert!((0.0..=100.0).contains(&w.pos[0]) && (0.0..=100.0).contains(&w.pos[1]));
        }
    }

    #[test]
    fn primitives_take_the_viewport_their_provoking_vertex_selects() {
        let mut vp = VertexProcessing::new(64, 64);
        vp.viewports[2] = crate::state::Viewport {
            x: 32.0,
            y: 0.0,
            width: 32.0,
            height: 16.0,
            near: 0.5,
            far: 1.0,
        };
        let mut v = Vertices::new(vec![VaryingSlot::Position, VaryingSlot::ViewportIndex]);
        let rows = [
            ([0.0f32, 0.0, 0.0, 1.0], 2i32),
            ([1.0, 0.0, 0.0, 1.0], 0),
            ([0.0, 1.0, 0.0, 1.0], 99),
        ];
        for (p, i) in rows {
            v.push_row(&[p.map(f32::to_bits), [i as u32, 0, 0, 0]]);
        }
        // Triangle (0 1 2) provoked by vertex 0 (viewport 2), then by vertex 1 (0), then by
        // vertex 2 (99: out of range, viewport 0).
        let prims = Primitives {
            verts: vec![0, 1, 2, 0, 1, 2, 0, 1, 2],
            provoking: vec![0, 1, 2],
            edge_flags: vec![],
        };
        let plan = RasterPlan::default();
        let out = clip_as(
            &v,
            &vp,
            PrimClass::Triangles,
            &prims,
            &[0, 1, 2],
            &plan,
            false,
        );
        let vps: Vec<u8> = out.primitives.iter().map(|p| p.viewport).collect();
        assert_eq!(vps, [2, 0, 0]);
        let pos = |p: usize| out.primitives[p].v.map(|i| out.vertices[i as usize].pos);
        assert_eq!(pos(0)[0], [48.0, 8.0, 0.75, 1.0]);
        assert_eq!(pos(0)[1], [64.0, 8.0, 0.75, 1.0]);
        assert_eq!(pos(1)[0], [32.0, 32.0, 0.5, 1.0]);
        assert_eq!(pos(1), pos(2));
    }

    #[test]
    fn line_to_a_w_zero_vertex_is_dropped_not_divided_by_zero() {
        // Found by the clipping proptest: the w > 0 plane's intersection rounds to t = 1.
        let v = verts(&[[0.0, 0.0, 0.0, 1.0218688], [0.0, 0.0, 0.0, 0.0]]);
        let vp = VertexProcessing::new(64, 64);
        let prims = Primitives {
            verts: vec![0, 1],
            provoking: vec![0],
            edge_flags: vec![],
        };
        let out = clip(&v, &vp, PrimClass::Lines, &prims, &[]);
        assert!(out
            .vertices
            .iter()
            .all(|w| w.pos.iter().all(|x| x.is_finite())));
    }

    #[test]
    fn lines_clip_parametrically() {
        let vp = VertexProcessing::new(100, 100);
        let v = verts(&[[0.0, 0.0, -3.0, 1.0], [0.0, 0.0, 1.0, 1.0]]);
        let prims = Primitives {
            verts: vec![0, 1],
            provoking: vec![1],
            edge_flags: vec![],
        };
        let out = clip(&v, &vp, PrimClass::Lines, &prims, &[0]);
        assert_eq!(out.primitives.len(), 1);
        assert!((out.vertices[0].pos[2] - 0.0).abs() < 1e-6);
        assert_eq!(out.vertex_varyings(0).unwrap()[1], 7);
    }
}
