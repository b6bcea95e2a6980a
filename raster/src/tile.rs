//! One tile: coverage of 2×2 quads (8×8-pixel blocks trivially accepted or rejected),
//! batching into shader calls, then tests, blending and writes into the tile's memory.

use crate::color::{self, ColorFormat};
use crate::deadline::Deadline;
use crate::draw_ctx::{DrawCtx, RtInfo, RtMode};
use crate::error::RasterError;
use crate::fragops;
use crate::framebuffer::{encode_depth, TileMem, TILE};
use crate::setup::{
    flat_depth, flat_w, lane_w, sample_z, AttrPlane, DrawSetup, PrimSetup, SUBPIXEL,
};
use crate::shader::{
    BlockRows, FragmentBatch, FragmentOutputs, FragmentShader, LaneData, SampleRows, Strip,
    StripColors, StripOrigin, LANES,
};

use crate::block::{self, BLOCK};
use crate::pack;

/// Largest region edge, in pixels, of a primitive whose quads are walked directly.
const SMALL: i32 = 4;

/// A worker's reusable state: shader scratch, lane data, outputs and the pending batch.
///
/// The pending batch collects quads across primitives of one chunk (small triangles
/// have one or two quads each, which alone would leave most lanes of a shader call
/// idle), or single covered pixels when the program's lanes are independent
/// (`DrawCtx::pack`); it is shaded when full, when a primitive of the other facing
/// comes, and at the end of the chunk's primitives in the tile.
pub(crate) struct Worker<T> {
    scratch: T,
    lanes: LaneData,
    /// The lanes of a fully covered block's four strips (`DrawCtx::strips`).
    strip_lanes: [LaneData; 4],
    out: FragmentOutputs,
    /// Lanes of the pending batch in use.
    n: usize,
    x: [i32; LANES],
    y: [i32; LANES],
    sid: [u32; LANES],
    /// Index in the chunk's setup of each lane's primitive.
    prim: [u32; LANES],
    cov: [u32; LANES],
    /// The facing of the pending batch's primitives (when `n` > 0).
    front: bool,
    /// Fragment batches shaded, for the watchdog's check every [`WATCHDOG_BATCHES`].
    batches: u32,
}

/// The watchdog looks at the clock every this many primitives of a tile's list and every
/// this many fragment batches of a worker: often enough that a draw stops within
/// milliseconds of its deadline, rarely enough that the clock reads cost nothing.
const WATCHDOG_PRIMS: usize = 256;
const WATCHDOG_BATCHES: u32 = 64;

impl<T> Worker<T> {
    pub fn new(scratch: T) -> Self {
        Worker {
            scratch,
            lanes: LaneData::default(),
            strip_lanes: Default::default(),
            out: FragmentOutputs::default(),
            n: 0,
            x: [0; LANES],
            y: [0; LANES],
            sid: [0; LANES],
            prim: [0; LANES],
            cov: [0; LANES],
            front: true,
            batches: 0,
        }
    }
}

/// Primitive-level data for the quad loop.
struct PrimCtx<'a> {
    prim: &'a PrimSetup,
    /// Index of `prim` in the chunk's setup.
    index: u32,
    /// Edge value offsets of each evaluated sample from the pixel corner (the first
    /// `n_eval` of each edge's row).
    soff: &'a [[i64; 16]; 4],
    n_eval: usize,
    /// Pixels this primitive may touch in this tile: its bounds ∩ clip ∩ tile.
    region: [i32; 4],
    /// Clip rectangle ∩ tile: blocks inside it need no per-pixel bounds checks.
    clip: [i32; 4],
}

/// Iterates set bits.
#[inline(always)]
fn for_bits(mut m: u32, mut f: impl FnMut(usize)) {
    while m != 0 {
        f(m.trailing_zeros() as usize);
        m &= m - 1;
    }
}

/// Rasterizes the primitives `list` of one set-up chunk into one tile.
pub(crate) fn run_tile<S: FragmentShader>(
    ctx: &DrawCtx<'_, S>,
    setup: &DrawSetup,
    mem: &mut TileMem<'_>,
    list: &[u32],
    w: &mut Worker<S::Scratch>,
) -> Result<u64, RasterError> {
    let tx0 = (mem.tx * TILE) as i32;
    let ty0 = (mem.ty * TILE) as i32;
    let t = TILE as i32;
    let mut passed = 0u64;
    let centre = [(SUBPIXEL / 2, SUBPIXEL / 2)];
    let evals: &[(i64, i64)] = if ctx.msaa { &ctx.sample_fixed } else { &centre };
    // Filled per primitive (only the entries in use), not zeroed per primitive.
    let mut soff = [[0i64; 16]; 4];
    for (k, &pi) in list.iter().enumerate() {
        if k % WATCHDOG_PRIMS == WATCHDOG_PRIMS - 1 {
            Deadline::check(ctx.state.deadline)?;
        }
        let Some(prim) = setup.prims.get(pi as usize) else {
            continue;
        };
        let region = [
            prim.bbox[0].max(tx0),
            prim.bbox[1].max(ty0),
            prim.bbox[2].min(tx0 + t),
            prim.bbox[3].min(ty0 + t),
        ];
        if region[0] >= region[2] || region[1] >= region[3] {
            continue;
        }
        let tiny = tiny_region(ctx, region);
        if !tiny {
            for (e, row) in prim.edges().iter().zip(soff.iter_mut()) {
                for (o, &(sx, sy)) in row.iter_mut().zip(evals) {
                    *o = i64::from(e.a) * sx + i64::from(e.b) * sy;
                }
            }
        }
        let pc = PrimCtx {
            prim,
            index: pi,
            soff: &soff,
            n_eval: evals.len(),
            region,
            clip: {
                let c = setup.clips.get(usize::from(prim.clip)).unwrap_or(&[0; 4]);
                [
                    c[0].max(tx0),
                    c[1].max(ty0),
                    c[2].min(tx0 + t),
                    c[3].min(ty0 + t),
                ]
            },
        };
        passed += if tiny {
            raster_tiny(ctx, setup, &pc, mem, w)?
        } else {
            raster_prim(ctx, setup, &pc, mem, w)?
        };
    }
    if w.n > 0 {
        passed += process_batch(ctx, setup, mem, w)?;
    }
    Ok(passed)
}

#[derive(PartialEq)]
enum Class {
    Reject,
    Accept,
    Partial,
}

/// Where the `width`×`height` pixel rectangle at (bx, by) lies relative to the primitive.
fn classify(prim: &PrimSetup, bx: i32, by: i32, width: i32, height: i32) -> Class {
    let s = SUBPIXEL;
    let (x_lo, y_lo) = (i64::from(bx) * s, i64::from(by) * s);
    let (x_hi, y_hi) = (
        x_lo + i64::from(width) * s - 1,
        y_lo + i64::from(height) * s - 1,
    );
    let mut all_in = true;
    for e in prim.edges() {
        let (xmax, xmin) = if e.a > 0 { (x_hi, x_lo) } else { (x_lo, x_hi) };
        let (ymax, ymin) = if e.b > 0 { (y_hi, y_lo) } else { (y_lo, y_hi) };
        if e.at(xmax, ymax) < 0 {
            return Class::Reject;
        }
        if e.at(xmin, ymin) < 0 {
            all_in = false;
        }
    }
    if all_in {
        Class::Accept
    } else {
        Class::Partial
    }
}

/// Coverage masks of the four pixels of the quad at (qx, qy) (before the sample mask).
/// Edge values of the other three pixels are one subpixel step away from the first.
/// Inlined: returned from a call, the four words were reloaded as one 16-byte load of
/// four 4-byte stores, which does not forward (5 % of fill_1080p_mov at one thread).
#[inline(always)]
fn quad_coverage<S, const CLIP: bool>(
    ctx: &DrawCtx<'_, S>,
    pc: &PrimCtx<'_>,
    qx: i32,
    qy: i32,
) -> [u32; 4] {
    let all = if pc.n_eval >= 32 {
        u32::MAX
    } else {
        (1u32 << pc.n_eval) - 1
    };
    let mut m = [all; 4];
    if CLIP {
        let r = &pc.clip;
        for (i, v) in m.iter_mut().enumerate() {
            let (x, y) = (qx + (i & 1) as i32, qy + (i >> 1) as i32);
            if x < r[0] || x >= r[2] || y < r[1] || y >= r[3] {
                *v = 0;
            }
        }
    }
    let (px, py) = (i64::from(qx) * SUBPIXEL, i64::from(qy) * SUBPIXEL);
    for (e, off) in pc.prim.edges().iter().zip(pc.soff) {
        let b0 = e.at(px, py);
        let (sx, sy) = (i64::from(e.a) * SUBPIXEL, i64::from(e.b) * SUBPIXEL);
        let bases = [b0, b0 + sx, b0 + sy, b0 + sx + sy];
        if pc.n_eval == 1 {
            for i in 0..4 {
                if bases[i] + off[0] < 0 {
                    m[i] = 0;
                }
            }
        } else {
            for i in 0..4 {
                let mut em = 0u32;
                for (s, o) in off[..pc.n_eval].iter().enumerate() {
                    em |= u32::from(bases[i] + o >= 0) << s;
                }
                m[i] &= em;
            }
        }
    }
    if ctx.msaa {
        m
    } else {
        m.map(|v| if v != 0 { ctx.full_mask } else { 0 })
    }
}

/// A region of at most 2×2 pixels without multisampling: most primitives of a dense
/// mesh (a ~1-pixel triangle), rasterized by [`raster_tiny`].
#[inline(always)]
fn tiny_region<S>(ctx: &DrawCtx<'_, S>, r: [i32; 4]) -> bool {
    !ctx.msaa && r[2] - r[0] <= 2 && r[3] - r[1] <= 2
}

/// A primitive whose region is tiny ([`tiny_region`]): only the region's pixel centres
/// are tested (at most four, where the quad walk tested every pixel of up to four
/// quads), then the quads holding covered pixels are pushed in the quad walk's order.
/// The same masks: the region lies inside the clip rectangle (setup clips the bounds)
/// and a pixel outside the bounds has its centre outside the primitive.
fn raster_tiny<S: FragmentShader>(
    ctx: &DrawCtx<'_, S>,
    setup: &DrawSetup,
    pc: &PrimCtx<'_>,
    mem: &mut TileMem<'_>,
    w: &mut Worker<S::Scratch>,
) -> Result<u64, RasterError> {
    let [x0, y0, x1, y1] = pc.region;
    let half = SUBPIXEL / 2;
    let covered = |x: i32, y: i32| {
        let (cx, cy) = (
            i64::from(x) * SUBPIXEL + half,
            i64::from(y) * SUBPIXEL + half,
        );
        pc.prim.edges().iter().all(|e| e.at(cx, cy) >= 0)
    };
    let mut passed = 0;
    if ctx.pack {
        // Pixels one by one (a primitive's own pixels are distinct, so their order
        // within it does not matter). Not `raster_small_packed`: the same pixels in the
        // same order, but its 4×4 test made geometry_1m_tris ~10 % slower at 1 thread.
        let m = ctx.full_mask & ctx.coverage_mask;
        if m == 0 {
            return Ok(0);
        }
        for y in y0..y1 {
            for x in x0..x1 {
                if covered(x, y) {
                    passed += push_pixel(ctx, setup, pc, mem, w, x, y, m)?;
                }
            }
        }
        return Ok(passed);
    }
    let mut qy = y0 & !1;
    while qy < y1 {
        let mut qx = x0 & !1;
        while qx < x1 {
            let mut cov = [0u32; 4];
            for (i, c) in cov.iter_mut().enumerate() {
                let (x, y) = (qx + (i & 1) as i32, qy + (i >> 1) as i32);
                if x >= x0 && x < x1 && y >= y0 && y < y1 && covered(x, y) {
                    *c = ctx.full_mask;
                }
            }
            if cov != [0; 4] {
                passed += push_quad(ctx, setup, pc, mem, w, qx, qy, cov)?;
            }
            qx += 2;
        }
        qy += 2;
    }
    Ok(passed)
}

/// A primitive of at most 4×4 pixels, lanes packed (`DrawCtx::pack`), no multisampling:
/// the covered pixel centres of the region in one test ([`pack::centres_4x4`]), each
/// pushed as a lane. The region lies inside the clip rectangle (setup clips the bounds).
#[inline(never)]
fn raster_small_packed<S: FragmentShader>(
    ctx: &DrawCtx<'_, S>,
    setup: &DrawSetup,
    pc: &PrimCtx<'_>,
    mem: &mut TileMem<'_>,
    w: &mut Worker<S::Scratch>,
) -> Result<u64, RasterError> {
    let [x0, y0, x1, y1] = pc.region;
    let m = ctx.full_mask & ctx.coverage_mask;
    if m == 0 {
        return Ok(0);
    }
    let bits = pack::centres_4x4(pc.prim.edges(), x0, y0) & pack::region_bits(x1 - x0, y1 - y0);
    let mut passed = 0;
    let mut b = bits;
    while b != 0 {
        let p = b.trailing_zeros() as i32;
        b &= b - 1;
        passed += push_pixel(ctx, setup, pc, mem, w, x0 + (p & 3), y0 + (p >> 2), m)?;
    }
    Ok(passed)
}

fn raster_prim<S: FragmentShader>(
    ctx: &DrawCtx<'_, S>,
    setup: &DrawSetup,
    pc: &PrimCtx<'_>,
    mem: &mut TileMem<'_>,
    w: &mut Worker<S::Scratch>,
) -> Result<u64, RasterError> {
    let [x0, y0, x1, y1] = pc.region;
    let mut passed = 0;
    // Small primitives (most of a dense mesh): the quads of the region directly, without
    // block classification.
    if ctx.pack && !ctx.msaa && x1 - x0 <= 4 && y1 - y0 <= 4 {
        return raster_small_packed(ctx, setup, pc, mem, w);
    }
    if x1 - x0 <= SMALL && y1 - y0 <= SMALL {
        let c = &pc.clip;
        let mut qy = y0 & !1;
        while qy < y1 {
            let mut qx = x0 & !1;
            while qx < x1 {
                let inside = qx >= c[0] && qy >= c[1] && qx + 2 <= c[2] && qy + 2 <= c[3];
                let cov = if inside {
                    quad_coverage::<S, false>(ctx, pc, qx, qy)
                } else {
                    quad_coverage::<S, true>(ctx, pc, qx, qy)
                };
                passed += push_quad(ctx, setup, pc, mem, w, qx, qy, cov)?;
                qx += 2;
            }
            qy += 2;
        }
        return Ok(passed);
    }
    // What every fully covered block of the primitive shares, made at its first one.
    let mut shared = None;
    if ctx.blocks && ctx.strips && region_blocks_full(pc) {
        let bp = shared.insert(BlockPrim::new(ctx, setup, pc.prim));
        if let Some(run) = FullRun::new(ctx, bp, mem) {
            return full_region(ctx, setup, bp, run, mem, w, pc.region);
        }
    }
    // Whole-tile trivial accept: every block is fully covered.
    let t = TILE as i32;
    let (tx, ty) = (x0 - x0.rem_euclid(t), y0 - y0.rem_euclid(t));
    let c = &pc.clip;
    let tile_full = x1 - x0 == t
        && y1 - y0 == t
        && c[0] <= tx
        && c[1] <= ty
        && c[2] >= tx + t
        && c[3] >= ty + t
        && classify(pc.prim, tx, ty, t, t) == Class::Accept;
    let mut by = y0 & !(BLOCK - 1);
    while by < y1 {
        let mut bx = x0 & !(BLOCK - 1);
        while bx < x1 {
            let class = if tile_full {
                Class::Accept
            } else {
                classify(pc.prim, bx, by, BLOCK, BLOCK)
            };
            if class != Class::Reject {
                let c = &pc.clip;
                let inside = bx >= c[0] && by >= c[1] && bx + BLOCK <= c[2] && by + BLOCK <= c[3];
                let full = class == Class::Accept && inside;
                if full
                    && ctx.blocks
                    && bx >= x0
                    && by >= y0
                    && bx + BLOCK <= x1
                    && by + BLOCK <= y1
                {
                    // The block after this one, a block's work ahead.
                    let (nx, ny) = match bx + BLOCK < x1 {
                        true => (bx + BLOCK, by),
                        false => (x0 & !(BLOCK - 1), by + BLOCK),
                    };
                    if ny < y1 {
                        block::prefetch_block(ctx, mem, nx, ny);
                    }
                    let bp = shared.get_or_insert_with(|| BlockPrim::new(ctx, setup, pc.prim));
                    passed += push_block(ctx, setup, bp, mem, w, bx, by)?;
                    bx += BLOCK;
                    continue;
                }
                let mut qy = by;
                while qy < by + BLOCK {
                    if qy + 1 >= y0 && qy < y1 {
                        let mut qx = bx;
                        while qx < bx + BLOCK {
                            if qx + 1 >= x0 && qx < x1 {
                                let c = if full {
                                    [ctx.full_mask; 4]
                                } else if inside {
                                    quad_coverage::<S, false>(ctx, pc, qx, qy)
                                } else {
                                    quad_coverage::<S, true>(ctx, pc, qx, qy)
                                };
                                passed += push_quad(ctx, setup, pc, mem, w, qx, qy, c)?;
                            }
                            qx += 2;
                        }
                    }
                    qy += 2;
                }
            }
            bx += BLOCK;
        }
        by += BLOCK;
    }
    Ok(passed)
}

/// Whether every 8×8 block of `pc`'s region is fully covered and inside the clip
/// rectangle, so that the block loop would take each of them whole: the region's edges
/// on block boundaries, the clip around it, and the primitive accepting the whole region
/// (an edge function is linear, so its least value over a block is no less than over a
/// rectangle holding it: each block classifies as Accept too).
fn region_blocks_full(pc: &PrimCtx<'_>) -> bool {
    let [x0, y0, x1, y1] = pc.region;
    let c = &pc.clip;
    (x0 | y0 | x1 | y1) & (BLOCK - 1) == 0
        && c[0] <= x0
        && c[1] <= y0
        && c[2] >= x1
        && c[3] >= y1
        && classify(pc.prim, x0, y0, x1 - x0, y1 - y0) == Class::Accept
}

/// What [`full_region`] needs beyond a region of full blocks: a shader that reads only
/// centre planes, a primitive with constant 1/w (so strips carry only their position),
/// and one attachment replaced whole (`DrawCtx::block_target`) whose plane holds the
/// whole tile (so every block's rows exist).
#[derive(Clone, Copy)]
struct FullRun {
    /// The primitive's constant perspective factor.
    fw: f32,
    /// The attachment and the output it stores.
    target: (usize, usize),
}

impl FullRun {
    fn new<S: FragmentShader>(
        ctx: &DrawCtx<'_, S>,
        bp: &BlockPrim<'_>,
        mem: &TileMem<'_>,
    ) -> Option<Self> {
        let fw = bp.fw?;
        let target = ctx.block_target?;
        let ns = ctx.samples as usize;
        let whole = mem
            .colors
            .get(target.0)
            .is_some_and(|p| p.len() >= TILE * TILE * ns);
        (whole && ctx.shader.strips_read_planes_only()).then_some(FullRun { fw, target })
    }
}

/// The blocks of a region that [`region_blocks_full`], in the block loop's order: what
/// [`push_block`] and [`shade_strips`] do for each (the pending batch first, the depth
/// test, one count per shaded strip, the shader storing the block's rows), without the
/// per-block classification, clip and region checks, and with the four strips made once
/// for the region: only their live lanes and positions change from block to block.
#[allow(clippy::too_many_arguments)]
fn full_region<S: FragmentShader>(
    ctx: &DrawCtx<'_, S>,
    setup: &DrawSetup,
    bp: &BlockPrim<'_>,
    run: FullRun,
    mem: &mut TileMem<'_>,
    w: &mut Worker<S::Scratch>,
    [x0, y0, x1, y1]: [i32; 4],
) -> Result<u64, RasterError> {
    let cov = ctx.full_mask & ctx.coverage_mask;
    if cov == 0 {
        return Ok(0);
    }
    let mut passed = 0;
    if w.n > 0 {
        passed += process_batch(ctx, setup, mem, w)?;
    }
    #[cfg(test)]
    block::count_strip_path(block::StripPath::Region);
    let (t, output) = run.target;
    let ns = ctx.samples as usize;
    let alpha_one = ctx.state.multisample.alpha_to_one && ctx.msaa;
    let tested = ctx.early && !ctx.state.depth_stencil.stencil_test;
    let (prims, prim) = (&bp.prims, bp.prims.p[0]);
    let Worker {
        scratch,
        strip_lanes,
        batches,
        ..
    } = w;
    // All a planes-only shader reads of the lanes when strips carry their position.
    for l in strip_lanes.iter_mut() {
        l.quads = LANES / 4;
        l.per_sample = false;
    }
    let strip_lanes = &*strip_lanes;
    let origin = |bx: i32, qy: i32| Some(StripOrigin { bx, qy, w: run.fw });
    let mut strips: [Strip<'_>; 4] = std::array::from_fn(|r| Strip {
        batch: fragment_batch(ctx, &strip_lanes[r], prims),
        live: 0,
        origin: origin(x0, y0),
    });
    let mut depths = tested.then(|| block::BlockDepths::new(ctx, prim, bp.flat_z, cov));
    // Untested, every block's lanes are these.
    let mut covs = [[cov; LANES]; 4];
    // A block left strips out of its call, moving later strips' batches forward.
    let mut moved = false;
    let mut by = y0;
    while by < y1 {
        let mut bx = x0;
        while bx < x1 {
            let (nx, ny) = match bx + BLOCK < x1 {
                true => (bx + BLOCK, by),
                false => (x0, by + BLOCK),
            };
            if ny < y1 {
                match (ns, mem.colors.get(t)) {
                    (1, Some(plane)) => {
                        let depth = ctx.tests.then_some(&mem.depth[..]);
                        block::prefetch_one_sample(depth, plane, nx, ny);
                    }
                    _ => block::prefetch_block(ctx, mem, nx, ny),
                }
            }
            let lives = match &mut depths {
                Some(d) => d.test(mem, bx, by, &mut covs),
                None => [0xffff; 4],
            };
            // Strip r of the block is entry rows[k] of the call: the live ones, in order.
            let mut rows = [0, 1, 2, 3];
            let mut n = 4;
            if lives.iter().all(|&l| l != 0) {
                // Every strip shaded (the usual case): entry k is strip k, whose batch
                // it holds unless a block before left strips out.
                for (r, s) in strips.iter_mut().enumerate() {
                    if moved {
                        s.batch.lanes = &strip_lanes[r];
                    }
                    s.live = lives[r];
                    // Only the position moves (every strip's origin is set, its w the
                    // primitive's): two stores, where a whole new origin was four.
                    if let Some(o) = &mut s.origin {
                        (o.bx, o.qy) = (bx, by + 2 * r as i32);
                    }
                }
                moved = false;
            } else {
                n = 0;
                for (r, &live) in lives.iter().enumerate() {
                    if live == 0 {
                        continue;
                    }
                    if let Some(s) = strips.get_mut(n) {
                        // Only the lanes' place differs between the four strips' batches.
                        s.batch.lanes = &strip_lanes[r];
                        s.live = live;
                        s.origin = origin(bx, by + 2 * r as i32);
                    }
                    rows[n] = r;
                    n += 1;
                }
                moved = true;
            }
            if n > 0 {
                // One count per shaded strip; no strip is shaded before all are counted
                // (as in `shade_strips`), so the watchdog's look comes at the same point.
                count_batches(ctx, batches, n as u32)?;
                // Written out (rows[k] < 4): `rows.map` became a call whose four 8-byte
                // stores were read back with 16-byte loads, a store forwarding stall a
                // block (a quarter of run_tile's samples in fill_1080p_mov).
                let [c0, c1, c2, c3] = &covs;
                let at = |r: usize| match r {
                    0 => c0,
                    1 => c1,
                    2 => c2,
                    _ => c3,
                };
                let cv = match n {
                    4 => [c0, c1, c2, c3],
                    _ => [at(rows[0]), at(rows[1]), at(rows[2]), at(rows[3])],
                };
                let mut kills = [0u32; 4];
                let plane = mem.colors.get_mut(t).map_or(&mut [][..], |p| &mut p[..]);
                // `FullRun::new` checked the plane holds the tile: the rows are there.
                if ns > 1 {
                    if let Some(mut rows8) = block::sample_block_rows(plane, bx, by, ns) {
                        order_rows(&mut rows8, &rows[..n]);
                        let mut dst = SampleRows {
                            output,
                            alpha_one,
                            samples: ns,
                            rows: &mut rows8,
                            covs: &cv,
                        };
                        ctx.shader.shade_block_samples(
                            scratch,
                            &strips[..n],
                            &mut dst,
                            &mut kills,
                        )?;
                        for (k, &kill) in kills.iter().enumerate().take(n) {
                            let c = &covs[rows[k]];
                            passed += match kill {
                                0 => block::samples_in(c),
                                _ => block::samples_in(&block::unkilled_lanes(c, kill)),
                            };
                        }
                    }
                } else if let Some(mut rows8) = block::block_rows(plane, bx, by) {
                    order_rows(&mut rows8, &rows[..n]);
                    let mut dst = BlockRows {
                        output,
                        alpha_one,
                        rows: &mut rows8,
                        covs: &cv,
                    };
                    ctx.shader
                        .shade_block(scratch, &strips[..n], &mut dst, &mut kills)?;
                    passed += passed_lanes(&lives, &rows, &kills, n);
                }
            }
            bx += BLOCK;
        }
        by += BLOCK;
    }
    Ok(passed)
}

/// A primitive's facts every one of its fully covered blocks reads: made once per
/// primitive and tile, not per block.
struct BlockPrim<'a> {
    prims: Quads<'a>,
    /// 1/w constant over the primitive: its w.
    fw: Option<f32>,
    /// z constant over the primitive: its encoded depth.
    flat_z: Option<u32>,
}

impl<'a> BlockPrim<'a> {
    fn new<S>(ctx: &DrawCtx<'_, S>, setup: &'a DrawSetup, prim: &'a PrimSetup) -> Self {
        let attrs = setup
            .attrs
            .get(prim.attr_start as usize..prim.attr_start as usize + setup.varyings)
            .unwrap_or(&[]);
        BlockPrim {
            prims: Quads {
                p: [prim; LANES],
                a: [attrs; LANES],
                uniform: true,
            },
            fw: flat_w(&prim.inv_w),
            flat_z: flat_depth(prim, ctx.depth_format),
        }
    }
}

/// A fully covered block inside the primitive's region: the pending batch first (its
/// quads come earlier in submission order), then the block's four strips of two rows.
fn push_block<S: FragmentShader>(
    ctx: &DrawCtx<'_, S>,
    setup: &DrawSetup,
    bp: &BlockPrim<'_>,
    mem: &mut TileMem<'_>,
    w: &mut Worker<S::Scratch>,
    bx: i32,
    by: i32,
) -> Result<u64, RasterError> {
    let cov = ctx.full_mask & ctx.coverage_mask;
    if cov == 0 {
        return Ok(0);
    }
    let mut passed = 0;
    if w.n > 0 {
        passed += process_batch(ctx, setup, mem, w)?;
    }
    let (prims, prim, fw) = (&bp.prims, bp.prims.p[0], bp.fw);
    let tested = ctx.early && !ctx.state.depth_stencil.stencil_test;
    let covs = match tested {
        true => block::block_depth(ctx, prim, bp.flat_z, mem, bx, by, cov),
        false => [[cov; LANES]; 4],
    };
    if ctx.strips {
        return Ok(passed + shade_strips(ctx, prims, fw, mem, w, bx, by, cov, &covs)?);
    }
    for (r, c) in covs.iter().enumerate() {
        let qy = by + 2 * r as i32;
        if tested && ctx.shader.wants_early_rejects() && c.contains(&0) {
            block::strip_lanes::<true>(&mut w.lanes, bx, qy, cov, prim, fw);
            report_rejected(ctx, w, prims, &[cov; LANES], c);
        }
        if c.iter().all(|&m| m == 0) {
            continue;
        }
        count_batch(ctx, w)?;
        block::strip_lanes::<true>(&mut w.lanes, bx, qy, cov, prim, fw);
        w.lanes.coverage = *c;
        passed += finish_batch(ctx, mem, w, prims, Some((bx, qy)), tested)?;
    }
    Ok(passed)
}

/// Whether a draw's fully covered blocks can be shaded strip by strip straight into the
/// framebuffer ([`shade_strips`]): the shader takes strips, its only results are
/// colours, the tests (if any) are depth-only and early (the block path runs them over
/// the whole block first), and every written attachment is RGBA8 UNORM, replaced
/// whole or blended, which the block kernels write from the colour registers.
pub(crate) fn strips_allowed<S: FragmentShader>(ctx: &DrawCtx<'_, S>) -> bool {
    let ms = &ctx.state.multisample;
    let info = ctx.info;
    let tests_ok = !ctx.tests || (ctx.early && !ctx.state.depth_stencil.stencil_test);
    let targets_ok = ctx.targets.iter().flatten().all(|rt| {
        rt.format == ColorFormat::Rgba8Unorm
            && match rt.mode {
                RtMode::Replace => rt.keep[0] == 0,
                RtMode::Blend => true,
                _ => false,
            }
    });
    ctx.shader.shades_strips()
        && !ctx.shader.wants_early_rejects()
        && !ctx.per_sample
        && !info.writes_depth
        && !info.writes_sample_mask
        && (!ctx.msaa || !ms.alpha_to_coverage)
        && tests_ok
        && targets_ok
}

/// The strips of the fully covered block at (bx, by) whose early tests left lanes
/// `covs` (every pixel covered by `cov`): one [`FragmentShader::shade_strips`] call, each
/// strip's colours packed (or blended) and stored from the program's registers as it
/// comes back. The same words as [`finish_batch`] writes for each strip in turn. `fw` is
/// the primitive's [`flat_w`] ([`BlockPrim`]).
#[allow(clippy::too_many_arguments)]
fn shade_strips<S: FragmentShader>(
    ctx: &DrawCtx<'_, S>,
    prims: &Quads<'_>,
    fw: Option<f32>,
    mem: &mut TileMem<'_>,
    w: &mut Worker<S::Scratch>,
    bx: i32,
    by: i32,
    cov: u32,
    covs: &[[u32; LANES]; 4],
) -> Result<u64, RasterError> {
    let prim = prims.p[0];
    // Multisampled blending reads the lanes' positions below; a multisampled target
    // replaced whole (`block_target`) does not.
    let planes_only =
        (ctx.samples == 1 || ctx.block_target.is_some()) && ctx.shader.strips_read_planes_only();
    // Such a shader's strips with constant 1/w carry their position instead of lanes.
    let origin = fw.filter(|_| planes_only);
    // Strip r of the block is entry rows[k] of the call.
    let mut rows = [0usize; 4];
    let mut lives = [0u32; 4];
    // Samples of each strip before the shader's kills.
    let mut counts = [0u64; 4];
    let mut n = 0;
    for (r, c) in covs.iter().enumerate() {
        let live = crate::simd::nonzero_lanes(c);
        lives[r] = live;
        if ctx.samples > 1 {
            counts[r] = block::samples_in(c);
        }
        if live == 0 {
            continue;
        }
        count_batch(ctx, w)?;
        let l = &mut w.strip_lanes[r];
        let qy = by + 2 * r as i32;
        // A shader that reads only the planes at the centre skips the positions,
        // coverage and sample ids (a quarter of the lanes' stores), and with constant
        // 1/w the offsets and factor too (`Strip::perspective_n` makes them).
        match (planes_only, origin) {
            (true, Some(_)) => {
                l.quads = LANES / 4;
                l.per_sample = false;
            }
            (true, None) => block::strip_lanes::<false>(l, bx, qy, cov, prim, fw),
            (false, _) => {
                block::strip_lanes::<true>(l, bx, qy, cov, prim, fw);
                l.coverage = *c;
            }
        }
        rows[n] = r;
        n += 1;
    }
    if n == 0 {
        return Ok(0);
    }
    let Worker {
        scratch,
        strip_lanes,
        ..
    } = w;
    let strip = |k: usize| {
        let r = rows[k];
        Strip {
            batch: fragment_batch(ctx, &strip_lanes[r], prims),
            live: lives[r],
            origin: origin.map(|w| StripOrigin {
                bx,
                qy: by + 2 * r as i32,
                w,
            }),
        }
    };
    // Entries past n (`rows[k]` is 0 there) are never read: `strips[..n]`. Not `k % n`:
    // three divisions a block.
    let strips = [strip(0), strip(1), strip(2), strip(3)];
    let ns = ctx.samples as usize;
    let alpha_to_one = ctx.state.multisample.alpha_to_one && ctx.msaa;
    let mut passed = 0;
    // The coverage of the shader's strips, for either block store below. Entries past n
    // are never read (rows[k] is 0 there).
    let cv = rows.map(|r| &covs[r]);
    // Not through Option combinators: each move of the eight row references was a copy
    // whose 16-byte loads waited on 8-byte stores (8 % of fill_1080p_mov at one thread).
    let (t, output) = ctx.block_target.unwrap_or((usize::MAX, 0));
    if ns > 1 {
        if let Some(mut rows8) = mem
            .colors
            .get_mut(t)
            .and_then(|p| block::sample_block_rows(p, bx, by, ns))
        {
            #[cfg(test)]
            block::count_strip_path(block::StripPath::SampleBlock);
            order_rows(&mut rows8, &rows[..n]);
            let mut dst = SampleRows {
                output,
                alpha_one: alpha_to_one,
                samples: ns,
                rows: &mut rows8,
                covs: &cv,
            };
            let mut kills = [0u32; 4];
            ctx.shader
                .shade_block_samples(scratch, &strips[..n], &mut dst, &mut kills)?;
            for (k, &kill) in kills.iter().enumerate().take(n) {
                let r = rows[k];
                passed += match kill {
                    0 => counts[r],
                    _ => block::samples_in(&block::unkilled_lanes(&covs[r], kill)),
                };
            }
            return Ok(passed);
        }
    } else if let Some(mut rows8) = mem
        .colors
        .get_mut(t)
        .and_then(|p| block::block_rows(p, bx, by))
    {
        order_rows(&mut rows8, &rows[..n]);
        let mut dst = BlockRows {
            output,
            alpha_one: alpha_to_one,
            rows: &mut rows8,
            covs: &cv,
        };
        let mut kills = [0u32; 4];
        ctx.shader
            .shade_block(scratch, &strips[..n], &mut dst, &mut kills)?;
        return Ok(passed_lanes(&lives, &rows, &kills, n));
    }
    let k = ctx.state.blend.constant.map(|v| v.clamp(0.0, 1.0));
    let mut sink = |strip: usize, kill: u32, colors: &StripColors<'_>| {
        let r = rows[strip];
        let final_cov = block::unkilled_lanes(&covs[r], kill);
        // One sample per pixel: a lane's coverage is 0 or 1.
        let p = match (ns, kill) {
            (1, _) => u64::from((lives[r] & !kill).count_ones()),
            (_, 0) => counts[r],
            _ => block::samples_in(&final_cov),
        };
        if p == 0 {
            return;
        }
        passed += p;
        let qy = by + 2 * r as i32;
        // Output 1: dual-source blending's second colour.
        let src1 = colors.color.get(1).copied().flatten();
        for (plane, rt) in mem.colors.iter_mut().zip(&ctx.targets) {
            let Some(rt) = rt else { continue };
            let src = colors.color.get(rt.output).copied().flatten();
            match rt.mode {
                RtMode::Blend if ns == 1 => {
                    let x = block::BlendSources {
                        src,
                        src1,
                        dual_source: rt.dual_source,
                        alpha_to_one,
                    };
                    let (bt, keep) = (&rt.blend, rt.keep[0]);
                    block::blend_strip(plane, bx, qy, bt, keep, k, &x, &final_cov);
                }
                RtMode::Blend => {
                    let lanes = &strip_lanes[r];
                    let x = BlendSrc { src, src1 };
                    blend_rgba8(plane, rt, k, alpha_to_one, ns, lanes, &final_cov, x);
                }
                _ => {
                    let c = src.unwrap_or(&[[0; LANES]; 4]);
                    let full = ctx.full_mask;
                    block::store_rgba8(plane, bx, qy, ns, full, c, alpha_to_one, &final_cov);
                }
            }
        }
    };
    ctx.shader.shade_strips(scratch, &strips[..n], &mut sink)?;
    Ok(passed)
}

/// The lanes of a block's `n` shaded strips (strip k: block strip `rows[k]`, live lanes
/// `lives[rows[k]]`) that the shader did not kill (`kills[k]`). One count of the four
/// 16-bit masks side by side: without POPCNT in the baseline instruction set, a count
/// per strip was ~12 instructions each (~2 % of fill_1080p_mov's samples at one thread).
#[inline(always)]
fn passed_lanes(lives: &[u32; 4], rows: &[usize; 4], kills: &[u32; 4], n: usize) -> u64 {
    let mut all = 0u64;
    for k in 0..n.min(4) {
        let m = lives[rows[k] & 3] & !kills[k] & 0xffff;
        all |= u64::from(m) << (16 * k);
    }
    u64::from(all.count_ones())
}

/// The colour attachment (its index) and output whose rows a fully covered block's
/// strips may store themselves ([`FragmentShader::shade_block`], multisampled:
/// [`FragmentShader::shade_block_samples`]), when the draw writes one attachment
/// replaced whole; once per draw (`DrawCtx::block_target`).
pub(crate) fn block_target<S>(ctx: &DrawCtx<'_, S>) -> Option<(usize, usize)> {
    if !matches!(ctx.samples, 1 | 2 | 4 | 8 | 16) || ctx.targets.iter().flatten().count() != 1 {
        return None;
    }
    let (t, rt) = ctx
        .targets
        .iter()
        .enumerate()
        .find_map(|(t, rt)| Some((t, rt.as_ref()?)))?;
    matches!(rt.mode, RtMode::Replace).then_some((t, rt.output))
}

/// Puts the rows of the strips `strips` (strip k = block rows 2·strips[k] and the one
/// after; ascending, as `shade_strips` lists them) of a block's eight `rows` first, in
/// that order.
#[inline(always)]
fn order_rows<R>(rows: &mut [R; 8], strips: &[usize]) {
    // Every strip live (the usual case): ascending, they are 0..4 and the rows are in
    // order already. The count, not the list: comparing the list loaded it in one
    // 16-byte read right after its four 8-byte stores, which waited for them (18 % of
    // the block loop's samples at 2 threads).
    if strips.len() == 4 {
        return;
    }
    #[cfg(test)]
    block::count_strip_path(block::StripPath::Reorder);
    let mut at: [usize; 8] = std::array::from_fn(|i| i);
    for j in 0..2 * strips.len() {
        let want = 2 * strips[j / 2] + j % 2;
        if let Some(p) = at.iter().position(|&r| r == want) {
            rows.swap(j, p);
            at.swap(j, p);
        }
    }
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn push_quad<S: FragmentShader>(
    ctx: &DrawCtx<'_, S>,
    setup: &DrawSetup,
    pc: &PrimCtx<'_>,
    mem: &mut TileMem<'_>,
    w: &mut Worker<S::Scratch>,
    qx: i32,
    qy: i32,
    c: [u32; 4],
) -> Result<u64, RasterError> {
    let c = c.map(|m| m & ctx.coverage_mask);
    if c == [0; 4] {
        return Ok(0);
    }
    let mut passed = 0;
    if ctx.per_sample {
        let mut res = Ok(());
        for_bits(c[0] | c[1] | c[2] | c[3], |s| {
            if res.is_err() {
                return;
            }
            let bit = 1u32 << s;
            match push_one(ctx, setup, pc, mem, w, qx, qy, c.map(|m| m & bit), s as u32) {
                Ok(p) => passed += p,
                Err(e) => res = Err(e),
            }
        });
        res?;
    } else {
        passed += push_one(ctx, setup, pc, mem, w, qx, qy, c, 0)?;
    }
    Ok(passed)
}

#[allow(clippy::too_many_arguments)]
#[inline]
fn push_one<S: FragmentShader>(
    ctx: &DrawCtx<'_, S>,
    setup: &DrawSetup,
    pc: &PrimCtx<'_>,
    mem: &mut TileMem<'_>,
    w: &mut Worker<S::Scratch>,
    qx: i32,
    qy: i32,
    c: [u32; 4],
    sid: u32,
) -> Result<u64, RasterError> {
    if ctx.pack {
        let mut passed = 0;
        for (i, &m) in c.iter().enumerate() {
            if m != 0 {
                let (x, y) = (qx + (i & 1) as i32, qy + (i >> 1) as i32);
                passed += push_pixel(ctx, setup, pc, mem, w, x, y, m)?;
            }
        }
        return Ok(passed);
    }
    let x = [0, 1, 0, 1].map(|d| qx + d);
    let y = [0, 0, 1, 1].map(|d| qy + d);
    append(ctx, setup, pc, mem, w, x, y, c, sid)
}

/// Pixel (x, y) of the primitive, with coverage `m`, as one lane of the pending batch
/// (`DrawCtx::pack`). Per-pixel order holds: a later primitive's pixel is a later
/// lane, and tests and writes go lane by lane (finish_batch).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn push_pixel<S: FragmentShader>(
    ctx: &DrawCtx<'_, S>,
    setup: &DrawSetup,
    pc: &PrimCtx<'_>,
    mem: &mut TileMem<'_>,
    w: &mut Worker<S::Scratch>,
    x: i32,
    y: i32,
    m: u32,
) -> Result<u64, RasterError> {
    append(ctx, setup, pc, mem, w, [x], [y], [m], 0)
}

/// Appends `K` lanes (pixels `x`, `y` with coverage `cov`, shading sample `sid`) of the
/// primitive to the pending batch; shades it when full. `K` divides [`LANES`] and the
/// batch holds a multiple of it (a draw pushes quads or, packed, single pixels).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn append<S: FragmentShader, const K: usize>(
    ctx: &DrawCtx<'_, S>,
    setup: &DrawSetup,
    pc: &PrimCtx<'_>,
    mem: &mut TileMem<'_>,
    w: &mut Worker<S::Scratch>,
    x: [i32; K],
    y: [i32; K],
    cov: [u32; K],
    sid: u32,
) -> Result<u64, RasterError> {
    let mut passed = 0;
    // A batch has one facing (two-sided colour and fragment.facing are per batch).
    if w.n > 0 && w.front != pc.prim.front {
        passed += process_batch(ctx, setup, mem, w)?;
    }
    w.front = pc.prim.front;
    let n = w.n;
    for i in 0..K {
        w.x[n + i] = x[i];
        w.y[n + i] = y[i];
        w.sid[n + i] = sid;
        w.prim[n + i] = pc.index;
        w.cov[n + i] = cov[i];
    }
    w.n += K;
    if w.n == LANES {
        passed += process_batch(ctx, setup, mem, w)?;
    }
    Ok(passed)
}

/// Depth/stencil tests of the samples in `cov` of pixel (x, y); returns survivors.
#[allow(clippy::too_many_arguments)]
#[inline]
fn test_samples<S>(
    ctx: &DrawCtx<'_, S>,
    prim: &PrimSetup,
    mem: &mut TileMem<'_>,
    x: i32,
    y: i32,
    mut cov: u32,
    z_override: Option<f32>,
) -> u32 {
    let ns = ctx.samples as usize;
    let local = (((y as usize) % TILE) * TILE + (x as usize) % TILE) * ns;
    let ds = &ctx.state.depth_stencil;
    for_bits(cov, |s| {
        let z = match z_override {
            Some(z) => z,
            None => {
                let p = if ctx.msaa {
                    ctx.sample_pos.get(s).copied().unwrap_or([0.5; 2])
                } else {
                    [0.5; 2]
                };
                sample_z(prim, x, y, p)
            }
        };
        let (Some(d), Some(st)) = (mem.depth.get_mut(local + s), mem.stencil.get_mut(local + s))
        else {
            cov &= !(1 << s);
            return;
        };
        if !fragops::depth_stencil_sample(ds, prim.front, ctx.depth_format, z, d, st) {
            cov &= !(1 << s);
        }
    });
    cov
}

/// Depth test without stencil for a whole batch (the common case), specialised on the
/// comparison so the per-sample loop has no branches on state.
fn depth_only_lanes<S>(
    ctx: &DrawCtx<'_, S>,
    prims: &Quads<'_>,
    mem: &mut TileMem<'_>,
    lanes: &LaneData,
    cov: &mut [u32; LANES],
    z_override: Option<&[f32; LANES]>,
) {
    let f = ctx.state.depth_stencil.depth_func;
    crate::state::per_compare!(f, never => *cov = [0; LANES], |cmp| {
        depth_loop(ctx, prims, mem, lanes, cov, z_override, cmp)
    })
}

#[inline(always)]
fn depth_loop<S, C: Fn(u32, u32) -> bool>(
    ctx: &DrawCtx<'_, S>,
    prims: &Quads<'_>,
    mem: &mut TileMem<'_>,
    lanes: &LaneData,
    cov: &mut [u32; LANES],
    z_override: Option<&[f32; LANES]>,
    pass: C,
) {
    let ns = ctx.samples as usize;
    let write = ctx.state.depth_stencil.depth_write;
    let fmt = ctx.depth_format;
    // z constant over a primitive: c + 0·x + 0·y is c up to the sign of a zero, which
    // encode_depth discards, so one encoded value serves every sample.
    let mut flat_z = [flat_depth(prims.p[0], fmt); LANES];
    if !prims.uniform {
        for lane in 1..LANES {
            if !std::ptr::eq(prims.p[lane], prims.p[lane - 1]) {
                flat_z[lane] = flat_depth(prims.p[lane], fmt);
            } else {
                flat_z[lane] = flat_z[lane - 1];
            }
        }
    }
    // One z per lane (every sample of a pixel shares it) first, as one loop over the
    // lanes; then the tests against the tile's stored words.
    let mut zq = [0u32; LANES];
    let per_lane = if let Some(z) = z_override {
        for lane in 0..LANES {
            zq[lane] = encode_depth(fmt, prims.lane(lane).frag_z(z[lane]));
        }
        true
    } else if flat_z.iter().all(Option::is_some) {
        for lane in 0..LANES {
            zq[lane] = flat_z[lane].unwrap_or(0);
        }
        true
    } else if !ctx.msaa {
        for lane in 0..LANES {
            zq[lane] = match flat_z[lane] {
                Some(f) => f,
                None => encode_depth(
                    fmt,
                    sample_z(prims.lane(lane), lanes.x[lane], lanes.y[lane], [0.5; 2]),
                ),
            };
        }
        true
    } else {
        false
    };
    for lane in 0..LANES {
        let m = cov[lane];
        if m == 0 {
            continue;
        }
        let (x, y) = (lanes.x[lane], lanes.y[lane]);
        let local = ((y as usize % TILE) * TILE + x as usize % TILE) * ns;
        let Some(d) = mem.depth.get_mut(local..local + ns) else {
            cov[lane] = 0;
            continue;
        };
        let mut out = m;
        if per_lane {
            let z = zq[lane];
            if ns == 1 {
                test_one(&pass, write, z, d, 0, &mut out);
            } else {
                for_bits(m, |s| test_one(&pass, write, z, d, s, &mut out));
            }
        } else {
            let prim = prims.lane(lane);
            for_bits(m, |s| {
                let p = ctx.sample_pos.get(s).copied().unwrap_or([0.5; 2]);
                let zq = encode_depth(fmt, sample_z(prim, x, y, p));
                test_one(&pass, write, zq, d, s, &mut out);
            });
        }
        cov[lane] = out;
    }
}

#[inline(always)]
fn test_one<C: Fn(u32, u32) -> bool>(
    pass: &C,
    write: bool,
    zq: u32,
    d: &mut [u32],
    s: usize,
    out: &mut u32,
) {
    if let Some(v) = d.get_mut(s) {
        if pass(zq, *v) {
            if write {
                *v = zq;
            }
            return;
        }
    }
    *out &= !(1 << s);
}

/// The primitive of each lane of a batch and its attribute planes.
struct Quads<'a> {
    p: [&'a PrimSetup; LANES],
    a: [&'a [AttrPlane]; LANES],
    /// Every lane's primitive is `p[0]`.
    uniform: bool,
}

impl Quads<'_> {
    #[inline(always)]
    fn lane(&self, lane: usize) -> &PrimSetup {
        self.p[lane % LANES]
    }
}

/// Counts one fragment batch about to be shaded, and every `WATCHDOG_BATCHES` asks the
/// draw's deadline: both the quad batches and the block path's strips pass here, so a
/// fully covered tile of long-running fragments stops within a few dozen batches.
#[inline]
fn count_batch<S: FragmentShader>(
    ctx: &DrawCtx<'_, S>,
    w: &mut Worker<S::Scratch>,
) -> Result<(), RasterError> {
    count_batches(ctx, &mut w.batches, 1)
}

/// [`count_batch`] of `n` batches at once, given the worker's count alone: the deadline
/// is asked when the count passes a multiple of [`WATCHDOG_BATCHES`].
#[inline]
fn count_batches<S>(ctx: &DrawCtx<'_, S>, batches: &mut u32, n: u32) -> Result<(), RasterError> {
    let before = *batches;
    *batches = before.wrapping_add(n);
    if *batches % WATCHDOG_BATCHES < n {
        Deadline::check(ctx.state.deadline)?;
    }
    Ok(())
}

/// Shades the pending batch (`w.n` lanes), tests and writes it; empties it.
fn process_batch<S: FragmentShader>(
    ctx: &DrawCtx<'_, S>,
    setup: &DrawSetup,
    mem: &mut TileMem<'_>,
    w: &mut Worker<S::Scratch>,
) -> Result<u64, RasterError> {
    let n = std::mem::take(&mut w.n);
    count_batch(ctx, w)?;
    let Some(first) = setup.prims.get(w.prim[0] as usize) else {
        return Ok(0);
    };
    let nv = setup.varyings;
    let attrs_of = |p: &PrimSetup| {
        setup
            .attrs
            .get(p.attr_start as usize..p.attr_start as usize + nv)
            .unwrap_or(&[])
    };
    let mut prims = Quads {
        p: [first; LANES],
        a: [attrs_of(first); LANES],
        uniform: true,
    };
    // Unused lanes repeat the first quad's (or lane 0's) primitive and position as
    // helpers; lanes of one primitive in a row look it up once.
    let src = |lane: usize| match (lane < n, (lane & 3) < n) {
        (true, _) => lane,
        (false, true) => lane & 3,
        (false, false) => 0,
    };
    for lane in 1..n {
        if w.prim[lane] == w.prim[lane - 1] {
            prims.p[lane] = prims.p[lane - 1];
            prims.a[lane] = prims.a[lane - 1];
        } else if let Some(p) = setup.prims.get(w.prim[lane] as usize) {
            prims.uniform = false;
            prims.p[lane] = p;
            prims.a[lane] = attrs_of(p);
        }
    }
    for lane in n..LANES {
        prims.p[lane] = prims.p[src(lane)];
        prims.a[lane] = prims.a[src(lane)];
    }
    let l = &mut w.lanes;
    l.quads = n.div_ceil(4);
    l.per_sample = ctx.per_sample;
    let mut spx = [0.5f32; LANES];
    let mut spy = [0.5f32; LANES];
    for lane in 0..LANES {
        let k = src(lane);
        let sid = if lane < n { w.sid[k] } else { 0 };
        if ctx.per_sample {
            let p = ctx
                .sample_pos
                .get(sid as usize)
                .copied()
                .unwrap_or([0.5; 2]);
            spx[lane] = p[0];
            spy[lane] = p[1];
        }
        l.x[lane] = w.x[k];
        l.y[lane] = w.y[k];
        l.coverage[lane] = if lane < n { w.cov[lane] } else { 0 };
        l.sample_id[lane] = sid;
    }
    // Flat loops over the 16 lanes so they vectorize.
    let ox: [f32; LANES] = prims.p.map(|p| p.ox);
    let oy: [f32; LANES] = prims.p.map(|p| p.oy);
    for lane in 0..LANES {
        l.rx[lane] = l.x[lane] as f32 + spx[lane] - ox[lane];
        l.ry[lane] = l.y[lane] as f32 + spy[lane] - oy[lane];
    }
    if prims.uniform {
        let iw = first.inv_w;
        if let Some(w) = flat_w(&iw) {
            l.w = [w; LANES];
        } else {
            for lane in 0..LANES {
                l.w[lane] = lane_w(&iw, l.rx[lane], l.ry[lane]);
            }
        }
    } else {
        // Lanes of several primitives: lane_w of each lane's own 1/w plane, as one loop
        // (a flat plane gives flat_w's bits: c + 0·x + 0·y is c, or a zero).
        let iw: [crate::setup::Plane; LANES] = prims.p.map(|p| p.inv_w);
        for lane in 0..LANES {
            l.w[lane] = lane_w(&iw[lane], l.rx[lane], l.ry[lane]);
        }
    }
    finish_batch(ctx, mem, w, &prims, None, false)
}

#[allow(clippy::too_many_arguments)]
/// Tests, shades and writes the batch whose lanes are set up; `strip` = the batch is
/// the strip of two rows at (bx, qy) of a fully covered block, every lane covered alike.
fn finish_batch<S: FragmentShader>(
    ctx: &DrawCtx<'_, S>,
    mem: &mut TileMem<'_>,
    w: &mut Worker<S::Scratch>,
    prims: &Quads<'_>,
    strip: Option<(i32, i32)>,
    tested: bool,
) -> Result<u64, RasterError> {
    let depth_only = !ctx.state.depth_stencil.stencil_test;
    let before =
        (ctx.early && !tested && ctx.shader.wants_early_rejects()).then_some(w.lanes.coverage);
    if ctx.early && !tested {
        if depth_only {
            let mut cov = w.lanes.coverage;
            depth_only_lanes(ctx, prims, mem, &w.lanes, &mut cov, None);
            w.lanes.coverage = cov;
        } else {
            for lane in 0..LANES {
                let cov = w.lanes.coverage[lane];
                if cov != 0 {
                    let (x, y) = (w.lanes.x[lane], w.lanes.y[lane]);
                    w.lanes.coverage[lane] =
                        test_samples(ctx, prims.lane(lane), mem, x, y, cov, None);
                }
            }
        }
    }
    if let Some(before) = before {
        let after = w.lanes.coverage;
        report_rejected(ctx, w, prims, &before, &after);
    }
    if strip.is_none() && w.lanes.coverage.iter().all(|&c| c == 0) {
        return Ok(0);
    }
    w.out.kill = 0;
    let batch = fragment_batch(ctx, &w.lanes, prims);
    ctx.shader.shade(&mut w.scratch, &batch, &mut w.out)?;

    let ms = &ctx.state.multisample;
    let a2c = ctx.msaa && ms.alpha_to_coverage;
    let mut final_cov = block::unkilled(&w.lanes.coverage, w.out.kill);
    for lane in 0..LANES {
        let mut cov = final_cov[lane];
        if !(ctx.info.writes_sample_mask || a2c) {
            break;
        }
        if cov == 0 {
            continue;
        }
        if ctx.info.writes_sample_mask {
            cov &= w.out.sample_mask[lane];
        }
        if a2c {
            let alpha = f32::from_bits(w.out.color[0][3][lane]);
            let alpha = if alpha.is_nan() {
                0.0
            } else {
                alpha.clamp(0.0, 1.0)
            };
            let k = (alpha * ctx.samples as f32 + 0.5) as u32;
            cov &= if k >= 32 { u32::MAX } else { (1u32 << k) - 1 };
        }
        final_cov[lane] = cov;
    }
    if !ctx.early && ctx.tests {
        if depth_only {
            let z = ctx.info.writes_depth.then_some(&w.out.depth);
            depth_only_lanes(ctx, prims, mem, &w.lanes, &mut final_cov, z);
        } else {
            for lane in 0..LANES {
                let cov = final_cov[lane];
                if cov != 0 {
                    let (x, y) = (w.lanes.x[lane], w.lanes.y[lane]);
                    let prim = prims.lane(lane);
                    let z = ctx
                        .info
                        .writes_depth
                        .then(|| prim.frag_z(w.out.depth[lane]));
                    final_cov[lane] = test_samples(ctx, prim, mem, x, y, cov, z);
                }
            }
        }
    }
    let passed = block::count_samples(&final_cov);
    if passed > 0 {
        // One primitive's lanes are distinct samples: blending them together equals
        // blending them one after another.
        let distinct = prims.uniform;
        write_colors(ctx, mem, &w.lanes, &final_cov, &w.out, strip, distinct);
    }
    Ok(passed)
}

#[inline]
fn masked_write(dst: &mut [u32], words: &[u32; 4], keep: &[u32; 4]) {
    for ((d, &v), &k) in dst.iter_mut().zip(words).zip(keep) {
        *d = (*d & k) | (v & !k);
    }
}

/// Output `o`'s colour of `lane` as raw words.
#[inline(always)]
fn lane_color(out: &FragmentOutputs, o: usize, lane: usize) -> [u32; 4] {
    match out.color.get(o) {
        Some(c) => [c[0][lane], c[1][lane], c[2][lane], c[3][lane]],
        None => [0; 4],
    }
}

/// The source colours of a blend: the target's output and, for dual-source blending,
/// output 1 (None = not written: zeros).
#[derive(Clone, Copy)]
struct BlendSrc<'a> {
    src: Option<&'a [[u32; LANES]; 4]>,
    src1: Option<&'a [[u32; LANES]; 4]>,
}

/// Blends the lanes' colours into an RGBA8 UNORM attachment (not sRGB-encoded), all lanes
/// at once per sample index; `cov`'s samples must be distinct words.
#[allow(clippy::too_many_arguments)]
fn blend_rgba8(
    plane: &mut [u32],
    rt: &RtInfo,
    k: [f32; 4],
    alpha_to_one: bool,
    ns: usize,
    lanes: &LaneData,
    cov: &[u32; LANES],
    x: BlendSrc<'_>,
) {
    let src = block::blend_channels(x.src, alpha_to_one);
    let src1 = match rt.dual_source {
        true => block::blend_channels(x.src1, false),
        false => [[0.0; LANES]; 4],
    };
    let mut idx = [0usize; LANES];
    for lane in 0..LANES {
        idx[lane] = ((lanes.y[lane] as usize % TILE) * TILE + lanes.x[lane] as usize % TILE) * ns;
    }
    let any = cov.iter().fold(0, |a, &c| a | c);
    for_bits(any, |s| {
        let bit = 1u32 << s;
        let mut dw = [0u32; LANES];
        for lane in 0..LANES {
            if cov[lane] & bit != 0 {
                dw[lane] = plane.get(idx[lane] + s).copied().unwrap_or(0);
            }
        }
        let dst = block::unpack_rgba8(&dw);
        let x = block::BlendInputs {
            src: &src,
            src1: &src1,
            dst: &dst,
            k,
        };
        let res = block::blend_rgba8(&rt.blend, &x);
        for lane in 0..LANES {
            if cov[lane] & bit != 0 {
                if let Some(d) = plane.get_mut(idx[lane] + s) {
                    *d = (*d & rt.keep[0]) | (res[lane] & !rt.keep[0]);
                }
            }
        }
    });
}

/// Writes every lane's surviving samples (`cov`) to every attachment.
fn write_colors<S>(
    ctx: &DrawCtx<'_, S>,
    mem: &mut TileMem<'_>,
    lanes: &LaneData,
    cov: &[u32; LANES],
    out: &FragmentOutputs,
    strip: Option<(i32, i32)>,
    distinct: bool,
) {
    let ns = ctx.samples as usize;
    let bs = &ctx.state.blend;
    let alpha_to_one = ctx.state.multisample.alpha_to_one && ctx.msaa;
    for (plane, rt) in mem.colors.iter_mut().zip(&ctx.targets) {
        let Some(rt) = rt else { continue };
        let nw = rt.format.words();
        let unorm = rt.format.is_unorm();
        let clamp = |v: f32| if unorm { v.clamp(0.0, 1.0) } else { v };
        let k = bs.constant.map(clamp);
        if rt.format == ColorFormat::Rgba8Unorm
            && matches!(rt.mode, RtMode::Replace)
            && rt.keep[0] == 0
        {
            // Hot path: pack all lanes at once, then store the word to covered samples.
            let Some(c) = out.color.get(rt.output) else {
                continue;
            };
            if let Some((bx, qy)) = strip {
                block::store_rgba8(plane, bx, qy, ns, ctx.full_mask, c, alpha_to_one, cov);
                continue;
            }
            let packed = block::pack_rgba8(c, alpha_to_one);
            for lane in 0..LANES {
                let m = cov[lane];
                if m == 0 {
                    continue;
                }
                let local =
                    ((lanes.y[lane] as usize % TILE) * TILE + lanes.x[lane] as usize % TILE) * ns;
                if m == ctx.full_mask {
                    if let Some(d) = plane.get_mut(local..local + ns) {
                        d.fill(packed[lane]);
                    }
                } else {
                    for_bits(m, |s| {
                        if let Some(d) = plane.get_mut(local + s) {
                            *d = packed[lane];
                        }
                    });
                }
            }
            continue;
        }
        if distinct && rt.format == ColorFormat::Rgba8Unorm && matches!(rt.mode, RtMode::Blend) {
            let x = BlendSrc {
                src: out.color.get(rt.output),
                src1: out.color.get(1),
            };
            blend_rgba8(plane, rt, k, alpha_to_one, ns, lanes, cov, x);
            continue;
        }
        for lane in 0..LANES {
            let m = cov[lane];
            if m == 0 {
                continue;
            }
            let local =
                ((lanes.y[lane] as usize % TILE) * TILE + lanes.x[lane] as usize % TILE) * ns;
            let raw = lane_color(out, rt.output, lane);
            match rt.mode {
                RtMode::Integer => for_bits(m, |s| {
                    let o = (local + s) * nw;
                    if let Some(dst) = plane.get_mut(o..o + nw) {
                        let mut v = raw;
                        if let Some(op) = bs.logic_op {
                            for (c, d) in v.iter_mut().zip(dst.iter()) {
                                *c = fragops::logic_op(op, *c, *d);
                            }
                        }
                        masked_write(dst, &v, &rt.keep);
                    }
                }),
                RtMode::Replace | RtMode::Logic(_) => {
                    let mut src = raw.map(f32::from_bits);
                    if alpha_to_one {
                        src[3] = 1.0;
                    }
                    let mut words = [0u32; 4];
                    if rt.format == ColorFormat::Rgba8Unorm {
                        words[0] = color::pack_unorm8(src);
                    } else {
                        color::encode(rt.format, src.map(clamp), rt.srgb, &mut words);
                    }
                    if nw == 1 && rt.keep[0] == 0 && matches!(rt.mode, RtMode::Replace) {
                        for_bits(m, |s| {
                            if let Some(d) = plane.get_mut(local + s) {
                                *d = words[0];
                            }
                        });
                        continue;
                    }
                    for_bits(m, |s| {
                        let o = (local + s) * nw;
                        if let Some(dst) = plane.get_mut(o..o + nw) {
                            let mut v = words;
                            if let RtMode::Logic(op) = rt.mode {
                                for (c, d) in v.iter_mut().zip(dst.iter()) {
                                    *c = fragops::logic_op(op, *c, *d);
                                }
                            }
                            masked_write(dst, &v, &rt.keep);
                        }
                    });
                }
                RtMode::Blend => {
                    let mut src = raw.map(f32::from_bits);
                    if alpha_to_one {
                        src[3] = 1.0;
                    }
                    let src = src.map(clamp);
                    let src1 = if rt.dual_source {
                        lane_color(out, 1, lane).map(|b| clamp(f32::from_bits(b)))
                    } else {
                        [0.0; 4]
                    };
                    let bt = &rt.blend;
                    for_bits(m, |s| {
                        let o = (local + s) * nw;
                        if let Some(dst) = plane.get_mut(o..o + nw) {
                            let d = color::decode(rt.format, dst, rt.srgb);
                            let r = fragops::blend(bt, k, src, src1, d).map(clamp);
                            let mut words = [0u32; 4];
                            color::encode(rt.format, r, rt.srgb, &mut words);
                            masked_write(dst, &words, &rt.keep);
                        }
                    });
                }
            }
        }
    }
}

/// Shows the shader the lanes early tests took all coverage from (`before` = coverage
/// before the tests, `after` = what is left), as a batch of their own: only for a shader
/// that asked ([`FragmentShader::wants_early_rejects`]).
fn report_rejected<S: FragmentShader>(
    ctx: &DrawCtx<'_, S>,
    w: &Worker<S::Scratch>,
    prims: &Quads<'_>,
    before: &[u32; LANES],
    after: &[u32; LANES],
) {
    let mut lanes = w.lanes.clone();
    for i in 0..LANES {
        lanes.coverage[i] = if after[i] == 0 { before[i] } else { 0 };
    }
    if lanes.coverage.iter().all(|&c| c == 0) {
        return;
    }
    ctx.shader
        .early_rejected(&fragment_batch(ctx, &lanes, prims));
}

/// The shader's view of lanes set up for quads of `prims`.
fn fragment_batch<'a, S: FragmentShader>(
    ctx: &'a DrawCtx<'_, S>,
    lanes: &'a LaneData,
    prims: &'a Quads<'a>,
) -> FragmentBatch<'a> {
    FragmentBatch {
        lanes,
        prims: &prims.p,
        attrs: &prims.a,
        uniform: prims.uniform,
        info: ctx.info,
        sample_pos: &ctx.sample_pos,
        fb_height: ctx.fb_height,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framebuffer::DepthFormat;
    use crate::setup::Plane;
    use proptest::prelude::*;

    fn value() -> impl Strategy<Value = f32> {
        prop_oneof![
            6 => -2.0f32..2.0,
            1 => prop::sample::select(vec![
                0.0f32, -0.0, 1.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 1e-40, -1e30,
            ]),
            1 => any::<f32>(),
        ]
    }

    proptest! {
        /// The flat-plane shortcuts give the bits the per-lane formulas give anywhere in
        /// a framebuffer, at any sample position.
        #[test]
        fn flat_planes_equal_per_lane_formulas(
            c in value(),
            (ox, oy) in (-100.0f32..2100.0, -100.0f32..2100.0),
            (x, y) in (0i32..16384, 0i32..16384),
            p in (0.0f32..1.0, 0.0f32..1.0),
            clamp in (value(), value()),
            zero_signs in (any::<bool>(), any::<bool>()),
        ) {
            let zero = |neg: bool| if neg { -0.0 } else { 0.0 };
            let plane = Plane { c, dx: zero(zero_signs.0), dy: zero(zero_signs.1) };
            let prim = PrimSetup {
                z_clamp: [clamp.0.min(clamp.1), clamp.0.max(clamp.1)],
                ..PrimSetup::for_tests([0; 4], [ox, oy], plane)
            };
            for fmt in [DepthFormat::D24S8, DepthFormat::D32FS8] {
                let want = encode_depth(fmt, sample_z(&prim, x, y, [p.0, p.1]));
                prop_assert_eq!(flat_depth(&prim, fmt), Some(want));
            }
            let (rx, ry) = (x as f32 + p.0 - ox, y as f32 + p.1 - oy);
            let want = lane_w(&plane, rx, ry);
            let got = flat_w(&plane).map(f32::to_bits);
            // NaN payloads aside (1/NaN returns the operand's NaN either way).
            if want.is_nan() {
                prop_assert!(got.is_some_and(|g| f32::from_bits(g).is_nan()));
            } else {
                prop_assert_eq!(got, Some(want.to_bits()));
            }
        }
    }
}
