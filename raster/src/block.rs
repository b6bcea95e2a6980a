//! Fully covered 8×8 blocks: their shader batches are built straight from a table (a batch
//! is a strip of two pixel rows, every lane covered, one primitive) and their depth tests
//! and RGBA8 stores run over contiguous rows of the tile's memory instead of lane by lane.
//!
//! The per-quad path stays the reference: each kernel here computes the same formula in
//! the same order for every word it touches, so the bits agree (draw_tests compares whole
//! draws both ways, [`crate::Rasterizer::set_block_path`] turns this path off).

use crate::draw_ctx::DrawCtx;
use crate::framebuffer::{encode_depth, TileMem, TILE};
use crate::lanes::{LaneData, LANES};
use crate::setup::{lane_w, sample_z, PrimSetup};
use crate::simd::multiversion;
use crate::state::{BlendEquation, BlendFactor, BlendTarget, CompareFunc};

/// Block edge in pixels.
pub(crate) const BLOCK: i32 = 8;

/// A block-path kernel whose runs the tests count (per thread, see [`strip_paths`]).
#[cfg(test)]
#[derive(Copy, Clone, Debug)]
pub(crate) enum StripPath {
    /// One-sample strips blended through [`blend_strip`].
    Blend,
    /// Rows stored through the 2- and 4-sample row stores ([`store_row_words`]).
    RowStore,
    /// Multisampled strips filled whole ([`strip_fill`]).
    Fill,
    /// Blocks depth-tested through [`depth_block`].
    DepthBlock,
    /// Blocks stored whole by the shader with some strips not shaded, their rows put
    /// first (`tile::order_rows`).
    Reorder,
    /// Multisampled blocks handed to the shader to store
    /// ([`crate::FragmentShader::shade_block_samples`]).
    SampleBlock,
    /// Regions of fully covered blocks walked whole (`tile::full_region`).
    Region,
    /// Blocks with flat z depth-tested by [`crate::simd::depth_flat_one`] or
    /// [`crate::simd::depth_flat_samples`].
    FlatDepth,
}

#[cfg(test)]
thread_local! {
    /// Runs of each [`StripPath`] on this thread: draw tests check those paths ran.
    static STRIP_PATHS: std::cell::Cell<[u64; 8]> = const { std::cell::Cell::new([0; 8]) };
}

/// [`STRIP_PATHS`] of the calling thread, indexed by `StripPath as usize`.
#[cfg(test)]
pub(crate) fn strip_paths() -> [u64; 8] {
    STRIP_PATHS.with(|c| c.get())
}

#[cfg(test)]
pub(crate) fn count_strip_path(path: StripPath) {
    STRIP_PATHS.with(|c| {
        let mut v = c.get();
        v[path as usize] += 1;
        c.set(v);
    });
}

/// Column (0..8) within its strip of each lane: lane 4q + i is quad q's pixel
/// (i & 1, i >> 1), quads left to right.
const LANE_COL: [i32; LANES] = {
    let mut t = [0; LANES];
    let mut l = 0;
    while l < LANES {
        t[l] = 2 * (l / 4) as i32 + (l & 1) as i32;
        l += 1;
    }
    t
};

/// Row (0 or 1) within its strip of each lane.
const LANE_ROW: [i32; LANES] = {
    let mut t = [0; LANES];
    let mut l = 0;
    while l < LANES {
        t[l] = ((l >> 1) & 1) as i32;
        l += 1;
    }
    t
};

/// The lane of each pixel of a strip, by row then column.
const LANE_AT: [[usize; 8]; 2] = {
    let mut t = [[0; 8]; 2];
    let mut r = 0;
    while r < 2 {
        let mut c = 0;
        while c < 8 {
            t[r][c] = 4 * (c / 2) + 2 * r + (c & 1);
            c += 1;
        }
        r += 1;
    }
    t
};

/// Index of pixel (x, y)'s first sample in its tile's planes.
#[inline(always)]
fn tile_index(x: i32, y: i32, ns: usize) -> usize {
    (((y as usize) % TILE) * TILE + (x as usize) % TILE) * ns
}

/// The pixel positions of the strip of two rows at (bx, qy) and their centres' offsets
/// from a plane origin (ox, oy), as the per-quad path computes them: `([x, y], [rx,
/// ry])`. Inlined into vector code (whole lane arrays built first: each line is a vector
/// operation).
#[inline(always)]
#[allow(clippy::type_complexity)]
pub(crate) fn strip_offsets(
    bx: i32,
    qy: i32,
    ox: f32,
    oy: f32,
) -> ([[i32; LANES]; 2], [[f32; LANES]; 2]) {
    let (bxs, qys) = ([bx; LANES], [qy; LANES]);
    let (oxs, oys) = ([ox; LANES], [oy; LANES]);
    let mut x = [0i32; LANES];
    let mut y = [0i32; LANES];
    let mut rx = [0.0f32; LANES];
    let mut ry = [0.0f32; LANES];
    for i in 0..LANES {
        x[i] = bxs[i] + LANE_COL[i];
        y[i] = qys[i] + LANE_ROW[i];
    }
    for i in 0..LANES {
        rx[i] = x[i] as f32 + 0.5 - oxs[i];
        ry[i] = y[i] as f32 + 0.5 - oys[i];
    }
    ([x, y], [rx, ry])
}

multiversion! {
    /// Lanes of the strip of two rows at (bx, qy) of `prim`, every lane covered by `cov`:
    /// positions, centre offsets from the plane origin and the perspective factor
    /// (`flat_w` when 1/w is constant), as the per-quad path computes them. Without
    /// `POS` only the offsets and the factor are written (the positions, coverage and
    /// sample ids keep what they held), for a shader that reads nothing else
    /// ([`crate::FragmentShader::strips_read_planes_only`]).
    pub(crate) fn strip_lanes<const POS: bool>(
        l: &mut LaneData,
        bx: i32,
        qy: i32,
        cov: u32,
        prim: &PrimSetup,
        flat_w: Option<f32>,
    ) {
        let iw = &prim.inv_w;
        l.quads = LANES / 4;
        l.per_sample = false;
        let ([x, y], [rx, ry]) = strip_offsets(bx, qy, prim.ox, prim.oy);
        if POS {
            l.x = x;
            l.y = y;
            l.coverage = [cov; LANES];
            l.sample_id = [0; LANES];
        }
        l.rx = rx;
        l.ry = ry;
        l.w = match flat_w {
            Some(w) => [w; LANES],
            None => {
                let mut w = [0.0f32; LANES];
                for i in 0..LANES {
                    w[i] = lane_w(iw, rx[i], ry[i]);
                }
                w
            }
        };
    }
}

/// Depth test of the eight rows of a one-sample block: row r's words `z[r]` against the
/// stored words `d[r * TILE..][..8]`, word by word where `live` is 1. `pass[r]` gets
/// 1 where the test passes (0 elsewhere); passing words are written when `write`.
#[inline(always)]
fn depth_rows(
    func: CompareFunc,
    write: bool,
    z: &[[u32; 8]; 8],
    live: &[u32; 8],
    d: &mut [u32],
    pass: &mut [[u32; 8]; 8],
) {
    // One bounds check for the block: its rows then lie in a slice of known length, so
    // the per-row checks fold away (a block past the plane's end keeps them).
    match d.get_mut(..7 * TILE + 8) {
        Some(d) => crate::state::per_compare!(func, never => *pass = [[0; 8]; 8], |cmp| {
            rows(z, live, d, pass, write, cmp)
        }),
        None => crate::state::per_compare!(func, never => *pass = [[0; 8]; 8], |cmp| {
            rows(z, live, d, pass, write, cmp)
        }),
    }
}

#[inline(always)]
fn rows<C: Fn(u32, u32) -> bool>(
    z: &[[u32; 8]; 8],
    live: &[u32; 8],
    d: &mut [u32],
    pass: &mut [[u32; 8]; 8],
    write: bool,
    cmp: C,
) {
    for r in 0..8 {
        let Some(row) = d.get_mut(r * TILE..r * TILE + 8) else {
            pass[r] = [0; 8];
            continue;
        };
        // Whole rows as lane arrays (load, compare, select, store): vector operations.
        let mut st = [0u32; 8];
        st.copy_from_slice(row);
        let z = &z[r];
        let mut ok = [0u32; 8];
        for i in 0..8 {
            ok[i] = u32::from(cmp(z[i], st[i])) & live[i];
        }
        if write {
            for i in 0..8 {
                let m = 0u32.wrapping_sub(ok[i]);
                st[i] = (z[i] & m) | (st[i] & !m);
            }
            row.copy_from_slice(&st);
        }
        pass[r] = ok;
    }
}

multiversion! {
    /// Coverage after the shader: `cov` where the lane's bit in `kill` is clear.
    pub(crate) fn unkilled(cov: &[u32; LANES], kill: u32) -> [u32; LANES] {
        unkilled_lanes(cov, kill)
    }
}

/// [`unkilled`] inlined into the caller's own code (the strip sink, where a dispatched
/// kernel's wide loads would wait on the baseline stores just before).
#[inline(always)]
pub(crate) fn unkilled_lanes(cov: &[u32; LANES], kill: u32) -> [u32; LANES] {
    let mut out = [0u32; LANES];
    for lane in 0..LANES {
        out[lane] = if (kill >> lane) & 1 != 0 {
            0
        } else {
            cov[lane]
        };
    }
    out
}

multiversion! {
    /// Samples in the coverage masks of all lanes.
    pub(crate) fn count_samples(cov: &[u32; LANES]) -> u64 {
        samples_in(cov)
    }
}

/// [`count_samples`] inlined into the caller's own code (the strip path, as
/// [`unkilled_lanes`]).
#[inline(always)]
pub(crate) fn samples_in(cov: &[u32; LANES]) -> u64 {
    let mut n = 0u32;
    for c in cov {
        n += c.count_ones();
    }
    u64::from(n)
}

multiversion! {
    /// Output colour `c` (f32 bits, channel-major) of every lane as RGBA8 UNORM words;
    /// `alpha_one` stores alpha 1 (alpha-to-one).
    pub(crate) fn pack_rgba8(c: &[[u32; LANES]; 4], alpha_one: bool) -> [u32; LANES] {
        pack_lanes(c, alpha_one)
    }
}

#[inline(always)]
fn pack_lanes(c: &[[u32; LANES]; 4], alpha_one: bool) -> [u32; LANES] {
    let mut packed = [0u32; LANES];
    for (lane, p) in packed.iter_mut().enumerate() {
        *p = pack_word([c[0][lane], c[1][lane], c[2][lane], c[3][lane]], alpha_one);
    }
    packed
}

/// One lane of colour `c` (f32 bits) as an RGBA8 UNORM word; `alpha_one` stores alpha 1.
#[inline(always)]
pub(crate) fn pack_word(c: [u32; 4], alpha_one: bool) -> u32 {
    let u = |v: u32| crate::color::unorm8(f32::from_bits(v));
    let word = u(c[0]) | u(c[1]) << 8 | u(c[2]) << 16 | u(c[3]) << 24;
    match alpha_one {
        // unorm8(1.0) is 255.
        true => word | 0xff << 24,
        false => word,
    }
}

/// [`pack_rgba8`] of `c`, then [`strip_store`] of the words, in one call.
///
/// Baseline (128-bit) code on purpose: `c` is usually a compiled program's output
/// register, stored 128 bits at a time just before, and wider loads of it do not
/// forward from those stores in flight (they waited for them to retire).
#[allow(clippy::too_many_arguments)]
pub(crate) fn store_rgba8(
    plane: &mut [u32],
    bx: i32,
    qy: i32,
    ns: usize,
    full: u32,
    c: &[[u32; LANES]; 4],
    alpha_one: bool,
    cov: &[u32; LANES],
) {
    let packed = pack_lanes(c, alpha_one);
    // Every sample of every pixel (a multisampled strip that passed whole): each row is
    // the lanes' words repeated, stored without reading it (the per-sample select loaded
    // every row and held most of store_rgba8's time at 4x MSAA).
    if ns > 1 && cov.iter().fold(true, |a, &m| a & (m == full)) {
        match ns {
            2 => return strip_fill::<16>(plane, bx, qy, &packed),
            4 => return strip_fill::<32>(plane, bx, qy, &packed),
            8 => return strip_fill::<64>(plane, bx, qy, &packed),
            16 => return strip_fill::<128>(plane, bx, qy, &packed),
            _ => {}
        }
    }
    strip_store(plane, bx, qy, ns, full, &packed, cov)
}

/// Each lane's word to every sample of its pixel in the strip at (bx, qy) of `plane`,
/// `W` / 8 samples per pixel: both rows built as lane permutations and stored whole.
#[inline(always)]
fn strip_fill<const W: usize>(plane: &mut [u32], bx: i32, qy: i32, packed: &[u32; LANES]) {
    let ns = W / 8;
    #[cfg(test)]
    count_strip_path(StripPath::Fill);
    for row in 0..2 {
        let base = tile_index(bx, qy + row as i32, ns);
        let Some(dst) = plane
            .get_mut(base..base + W)
            .and_then(|r| <&mut [u32; W]>::try_from(r).ok())
        else {
            continue;
        };
        let mut words = [0u32; W];
        for (i, v) in words.iter_mut().enumerate() {
            *v = packed[LANE_AT[row][i / ns]];
        }
        *dst = words;
    }
}

/// One channel's blend factor for every lane: [`crate::fragops::blend`]'s `factor`
/// with the choice made once for all lanes.
#[inline(always)]
fn factor_lanes(f: BlendFactor, ch: usize, x: &BlendInputs<'_>) -> [f32; LANES] {
    let (src, src1, dst, k) = (x.src, x.src1, x.dst, x.k);
    let map = |a: &[f32; LANES], g: fn(f32) -> f32| a.map(g);
    let one_minus = |v: f32| 1.0 - v;
    match f {
        BlendFactor::Zero => [0.0; LANES],
        BlendFactor::One => [1.0; LANES],
        BlendFactor::SrcColor => src[ch],
        BlendFactor::OneMinusSrcColor => map(&src[ch], one_minus),
        BlendFactor::DstColor => dst[ch],
        BlendFactor::OneMinusDstColor => map(&dst[ch], one_minus),
        BlendFactor::SrcAlpha => src[3],
        BlendFactor::OneMinusSrcAlpha => map(&src[3], one_minus),
        BlendFactor::DstAlpha => dst[3],
        BlendFactor::OneMinusDstAlpha => map(&dst[3], one_minus),
        BlendFactor::ConstantColor => [k[ch]; LANES],
        BlendFactor::OneMinusConstantColor => [1.0 - k[ch]; LANES],
        BlendFactor::ConstantAlpha => [k[3]; LANES],
        BlendFactor::OneMinusConstantAlpha => [1.0 - k[3]; LANES],
        BlendFactor::SrcAlphaSaturate => match ch {
            3 => [1.0; LANES],
            _ => std::array::from_fn(|i| src[3][i].min(1.0 - dst[3][i])),
        },
        BlendFactor::Src1Color => src1[ch],
        BlendFactor::OneMinusSrc1Color => map(&src1[ch], one_minus),
        BlendFactor::Src1Alpha => src1[3],
        BlendFactor::OneMinusSrc1Alpha => map(&src1[3], one_minus),
    }
}

/// The operands of a blend, channel-major over the lanes.
pub(crate) struct BlendInputs<'a> {
    pub src: &'a [[f32; LANES]; 4],
    pub src1: &'a [[f32; LANES]; 4],
    pub dst: &'a [[f32; LANES]; 4],
    pub k: [f32; 4],
}

multiversion! {
    /// [`crate::fragops::blend`] of every lane, clamped to [0, 1] and packed as RGBA8
    /// UNORM: the same operations in the same order per lane, the choices of factor and
    /// equation made once for all lanes.
    pub(crate) fn blend_rgba8(bt: &BlendTarget, x: &BlendInputs<'_>) -> [u32; LANES] {
        blend_lanes(bt, x)
    }
}

/// [`blend_rgba8`] inlined into the caller's own code.
#[inline(always)]
fn blend_lanes(bt: &BlendTarget, x: &BlendInputs<'_>) -> [u32; LANES] {
    let mut r = [[0.0f32; LANES]; 4];
    for ch in 0..4 {
        let (fs, fd, eq) = match ch {
            3 => (bt.src_alpha, bt.dst_alpha, bt.eq_alpha),
            _ => (bt.src_rgb, bt.dst_rgb, bt.eq_rgb),
        };
        let (s, d) = (&x.src[ch], &x.dst[ch]);
        let sf = factor_lanes(fs, ch, x);
        let df = factor_lanes(fd, ch, x);
        let o = &mut r[ch];
        match eq {
            BlendEquation::Add => {
                for i in 0..LANES {
                    o[i] = s[i] * sf[i] + d[i] * df[i];
                }
            }
            BlendEquation::Subtract => {
                for i in 0..LANES {
                    o[i] = s[i] * sf[i] - d[i] * df[i];
                }
            }
            BlendEquation::ReverseSubtract => {
                for i in 0..LANES {
                    o[i] = d[i] * df[i] - s[i] * sf[i];
                }
            }
            BlendEquation::Min => {
                for i in 0..LANES {
                    o[i] = s[i].min(d[i]);
                }
            }
            BlendEquation::Max => {
                for i in 0..LANES {
                    o[i] = s[i].max(d[i]);
                }
            }
        }
    }
    let u = |v: f32| crate::color::unorm8(v.clamp(0.0, 1.0));
    let mut packed = [0u32; LANES];
    for i in 0..LANES {
        packed[i] = u(r[0][i]) | u(r[1][i]) << 8 | u(r[2][i]) << 16 | u(r[3][i]) << 24;
    }
    packed
}

multiversion! {
    /// RGBA8 UNORM words → float channels (v / 255), channel-major.
    pub(crate) fn unpack_rgba8(w: &[u32; LANES]) -> [[f32; LANES]; 4] {
        unpack_lanes(w)
    }
}

/// [`unpack_rgba8`] inlined into the caller's own code.
#[inline(always)]
fn unpack_lanes(w: &[u32; LANES]) -> [[f32; LANES]; 4] {
    let mut out = [[0.0f32; LANES]; 4];
    for (ch, o) in out.iter_mut().enumerate() {
        for i in 0..LANES {
            o[i] = ((w[i] >> (8 * ch)) & 0xff) as f32 / 255.0;
        }
    }
    out
}

/// A blend's source colours: output `src` of the program (f32 bits, channel-major; None =
/// not written, zeros) and, for dual-source blending, output 1 (`src1`).
pub(crate) struct BlendSources<'a> {
    pub src: Option<&'a [[u32; LANES]; 4]>,
    pub src1: Option<&'a [[u32; LANES]; 4]>,
    pub dual_source: bool,
    pub alpha_to_one: bool,
}

/// A colour output's lanes as blend operands: clamped to [0, 1], alpha 1 with `alpha_one`.
#[inline(always)]
pub(crate) fn blend_channels(o: Option<&[[u32; LANES]; 4]>, alpha_one: bool) -> [[f32; LANES]; 4] {
    let mut c = [[0.0f32; LANES]; 4];
    if let Some(src) = o {
        for ch in 0..4 {
            for lane in 0..LANES {
                let v = f32::from_bits(src[ch][lane]);
                c[ch][lane] = (if ch == 3 && alpha_one { 1.0 } else { v }).clamp(0.0, 1.0);
            }
        }
    }
    c
}

multiversion! {
/// Blends a strip of one-sample pixels (the strip at (bx, qy) of `plane`, RGBA8 UNORM,
/// not sRGB) with the lanes' colours where `cov` is not 0, keeping the bits `keep`: the
/// words the per-lane blend (`tile::blend_rgba8`) writes, with the strip's two rows read
/// and written whole, and the operands, blend and stores in one dispatched kernel (the
/// dispatched unpack and blend kernels' wide loads waited on the glue's narrow stores
/// between them).
#[allow(clippy::too_many_arguments)]
pub(crate) fn blend_strip(
    plane: &mut [u32],
    bx: i32,
    qy: i32,
    bt: &BlendTarget,
    keep: u32,
    k: [f32; 4],
    x: &BlendSources<'_>,
    cov: &[u32; LANES],
) {
    let src = blend_channels(x.src, x.alpha_to_one);
    let src1 = match x.dual_source {
        true => blend_channels(x.src1, false),
        false => [[0.0; LANES]; 4],
    };
    let (b0, b1) = (tile_index(bx, qy, 1), tile_index(bx, qy + 1, 1));
    let (Some(r0), Some(r1)) = (
        plane.get(b0..b0 + 8).and_then(|r| <&[u32; 8]>::try_from(r).ok()),
        plane.get(b1..b1 + 8).and_then(|r| <&[u32; 8]>::try_from(r).ok()),
    ) else {
        return;
    };
    #[cfg(test)]
    count_strip_path(StripPath::Blend);
    let rows = [*r0, *r1];
    let mut dw = [0u32; LANES];
    for lane in 0..LANES {
        dw[lane] = rows[LANE_ROW[lane] as usize][LANE_COL[lane] as usize];
    }
    let dst = unpack_lanes(&dw);
    let res = blend_lanes(
        bt,
        &BlendInputs {
            src: &src,
            src1: &src1,
            dst: &dst,
            k,
        },
    );
    for (row, b) in [b0, b1].into_iter().enumerate() {
        if let Some(dst) = plane
            .get_mut(b..b + 8)
            .and_then(|r| <&mut [u32; 8]>::try_from(r).ok())
        {
            store_row_keep(dst, row, &res, cov, keep);
        }
    }
}
}

/// Early depth test (no stencil) of the fully covered block at (bx, by), every pixel
/// covered by `cov`, `flat` = [`crate::setup::flat_depth`] of `prim`: returns the samples that passed
/// for each lane of its four strips.
/// The block's pixels are distinct and one primitive's, so testing them all before any
/// strip is shaded equals testing each strip just before it.
pub(crate) fn block_depth<S>(
    ctx: &DrawCtx<'_, S>,
    prim: &PrimSetup,
    flat: Option<u32>,
    mem: &mut TileMem<'_>,
    bx: i32,
    by: i32,
    cov: u32,
) -> [[u32; LANES]; 4] {
    match ctx.samples {
        1 => block_depth_n::<S, 8>(ctx, prim, flat, mem, bx, by, cov),
        2 => block_depth_n::<S, 16>(ctx, prim, flat, mem, bx, by, cov),
        4 => block_depth_n::<S, 32>(ctx, prim, flat, mem, bx, by, cov),
        8 => block_depth_n::<S, 64>(ctx, prim, flat, mem, bx, by, cov),
        _ => block_depth_n::<S, 128>(ctx, prim, flat, mem, bx, by, cov),
    }
}

/// [`block_depth`] for `W` / 8 samples per pixel: a row of the block is `W` words.
fn block_depth_n<S, const W: usize>(
    ctx: &DrawCtx<'_, S>,
    prim: &PrimSetup,
    flat: Option<u32>,
    mem: &mut TileMem<'_>,
    bx: i32,
    by: i32,
    cov: u32,
) -> [[u32; LANES]; 4] {
    let ns = W / 8;
    let ds = &ctx.state.depth_stencil;
    let b = DepthBlock {
        prim,
        fmt: ctx.depth_format,
        flat,
        func: ds.depth_func,
        write: ds.depth_write,
        sample_pos: if ctx.msaa { &ctx.sample_pos } else { &[] },
        bx,
        by,
        cov,
    };
    let base = tile_index(bx, by, ns);
    let d = mem.depth.get_mut(base..).unwrap_or(&mut []);
    #[cfg(test)]
    count_strip_path(StripPath::DepthBlock);
    let mut out = [[0u32; LANES]; 4];
    if depth_flat::<W>(&b, d, &mut out).is_some() {
        return out;
    }
    depth_block::<W>(&b, d)
}

/// What [`depth_block`] tests: a fully covered block of `prim` at (bx, by), every pixel
/// covered by `cov`, its z flat (`flat`, encoded) or per sample.
struct DepthBlock<'a> {
    prim: &'a PrimSetup,
    fmt: crate::framebuffer::DepthFormat,
    flat: Option<u32>,
    func: CompareFunc,
    write: bool,
    /// The sample positions when multisampled, else empty (pixel centres).
    sample_pos: &'a [[f32; 2]],
    bx: i32,
    by: i32,
    cov: u32,
}

/// [`block_depth`] for the blocks of a region one after another, its facts gathered
/// once ([`crate::tile`]'s run of fully covered blocks): each call tests the block at
/// (bx, by), leaves its four strips' lanes in `covs` and returns each strip's live lanes
/// (bit per lane: its word is not 0).
pub(crate) struct BlockDepths<'a> {
    b: DepthBlock<'a>,
    samples: u32,
}

impl<'a> BlockDepths<'a> {
    pub(crate) fn new<S>(
        ctx: &'a DrawCtx<'_, S>,
        prim: &'a PrimSetup,
        flat: Option<u32>,
        cov: u32,
    ) -> Self {
        let ds = &ctx.state.depth_stencil;
        BlockDepths {
            b: DepthBlock {
                prim,
                fmt: ctx.depth_format,
                flat,
                func: ds.depth_func,
                write: ds.depth_write,
                sample_pos: if ctx.msaa { &ctx.sample_pos } else { &[] },
                bx: 0,
                by: 0,
                cov,
            },
            samples: ctx.samples,
        }
    }

    #[inline(always)]
    pub(crate) fn test(
        &mut self,
        mem: &mut TileMem<'_>,
        bx: i32,
        by: i32,
        covs: &mut [[u32; LANES]; 4],
    ) -> [u32; 4] {
        (self.b.bx, self.b.by) = (bx, by);
        #[cfg(test)]
        count_strip_path(StripPath::DepthBlock);
        match self.samples {
            1 => self.test_n::<8>(mem, covs),
            2 => self.test_n::<16>(mem, covs),
            4 => self.test_n::<32>(mem, covs),
            8 => self.test_n::<64>(mem, covs),
            _ => self.test_n::<128>(mem, covs),
        }
    }

    #[inline(always)]
    fn test_n<const W: usize>(
        &self,
        mem: &mut TileMem<'_>,
        covs: &mut [[u32; LANES]; 4],
    ) -> [u32; 4] {
        let base = tile_index(self.b.bx, self.b.by, W / 8);
        let d = mem.depth.get_mut(base..).unwrap_or(&mut []);
        if let Some(lives) = depth_flat::<W>(&self.b, d, covs) {
            return lives;
        }
        depth_lives::<W>(&self.b, d, covs)
    }
}

multiversion! {
    /// [`depth_block`] with its result written to `covs` and each strip's live lanes
    /// returned ([`BlockDepths::test`]): returned by value, the 256 bytes were copied
    /// once more (~30 instructions a block), and the caller's live-lane scan of them
    /// waited for the copy's stores.
    fn depth_lives<const W: usize>(
        b: &DepthBlock<'_>,
        d: &mut [u32],
        covs: &mut [[u32; LANES]; 4],
    ) -> [u32; 4] {
        depth_block_body::<W>(b, d, covs);
        covs.each_ref().map(crate::simd::nonzero_lanes)
    }
}

multiversion! {
    /// The whole of [`block_depth_n`]'s work in one dispatched kernel (z, live samples,
    /// the row tests against `d` (the block's first row onwards), the passing samples as
    /// strip lanes): built outside it with baseline stores, its wide loads of z and the
    /// live words waited for those stores to retire (perf: most of the row test's time).
    fn depth_block<const W: usize>(b: &DepthBlock<'_>, d: &mut [u32]) -> [[u32; LANES]; 4] {
        let mut out = [[0u32; LANES]; 4];
        depth_block_body::<W>(b, d, &mut out);
        out
    }
}

/// [`depth_block`]'s work, inlined into each kernel that does it: the strips' lanes into
/// `out`, in place (returned, the 256 bytes were copied once more).
#[inline(always)]
fn depth_block_body<const W: usize>(
    b: &DepthBlock<'_>,
    d: &mut [u32],
    out: &mut [[u32; LANES]; 4],
) {
    if W == 8 {
        return depth_block_one(b, d, out);
    }
    let ns = W / 8;
    // Each word's bit in its pixel's mask, where the sample is live.
    let mut live = [0u32; W];
    for (i, l) in live.iter_mut().enumerate() {
        *l = b.cov & (1 << (i % ns));
    }
    let mut m = [[0u32; 8]; 8];
    crate::state::per_compare!(b.func, never => {}, |cmp| {
        for (r, mr) in m.iter_mut().enumerate() {
            *mr = depth_row::<W, _>(b, &live, r, d, &cmp);
        }
    });
    strip_order(&m, out)
}

/// [`depth_block`] of a block with flat z through the AVX-512 kernels: at one sample
/// [`crate::simd::depth_flat_one`] (a strip's rows as one vector, no scatter), at two
/// and four [`crate::simd::depth_flat_samples`] (no per-pixel folds). None when they do
/// not apply (z not flat, another sample count, no AVX-512, rows past the plane), for
/// the lane loops to do it.
#[inline(always)]
fn depth_flat<const W: usize>(
    b: &DepthBlock<'_>,
    d: &mut [u32],
    out: &mut [[u32; LANES]; 4],
) -> Option<[u32; 4]> {
    let z = b.flat?;
    let lives = match W {
        8 if b.cov & 1 != 0 => crate::simd::depth_flat_one(b.func, b.write, z, d, out),
        16 => crate::simd::depth_flat_samples::<2>(b.func, b.write, z, b.cov, d, out),
        32 => crate::simd::depth_flat_samples::<4>(b.func, b.write, z, b.cov, d, out),
        _ => None,
    }?;
    #[cfg(test)]
    count_strip_path(StripPath::FlatDepth);
    Some(lives)
}

/// [`depth_block`] at one sample per pixel: the block's z and pass words as whole 8×8
/// arrays and one test over its rows; a pixel's pass word (0 or 1) is its mask, moved
/// into the strips' lanes by [`strip_order`]. Measured against the per-row form
/// multisampled blocks take, this form is faster here (fill_1080p_mov at one thread
/// 127 against 136 ms a frame: the per-row form, unrolled for every compare function,
/// grew the kernel to ~100 KB).
#[inline(always)]
fn depth_block_one(b: &DepthBlock<'_>, d: &mut [u32], out: &mut [[u32; LANES]; 4]) {
    let live = [b.cov & 1; 8];
    let mut z = [[0u32; 8]; 8];
    match b.flat {
        Some(f) => z = [[f; 8]; 8],
        None => {
            let p = b.sample_pos.first().copied().unwrap_or([0.5; 2]);
            for (row, zr) in z.iter_mut().enumerate() {
                for (col, v) in zr.iter_mut().enumerate() {
                    let (x, y) = (b.bx + col as i32, b.by + row as i32);
                    *v = encode_depth(b.fmt, sample_z(b.prim, x, y, p));
                }
            }
        }
    }
    let mut pass = [[0u32; 8]; 8];
    depth_rows(b.func, b.write, &z, &live, d, &mut pass);
    strip_order(&pass, out)
}

/// A block's per-pixel masks `m` (row, column) as its four strips' lanes: strip k's lane
/// 4q + j is row 2k + (j >> 1), column 2q + (j & 1). Pairs of words moved whole, so the
/// lanes leave as vector stores; one word at a time, the strip loop's 16-byte loads of
/// them waited for the 4-byte stores.
#[inline(always)]
fn strip_order(m: &[[u32; 8]; 8], out: &mut [[u32; LANES]; 4]) {
    for (k, o) in out.iter_mut().enumerate() {
        for q in 0..4 {
            for j in 0..4 {
                o[4 * q + j] = m[2 * k + (j >> 1)][2 * q + (j & 1)];
            }
        }
    }
}

/// Row `r` of [`depth_block`]: its `W` words tested where `live` (each word's bit in its
/// pixel's mask, or 0) is set, and written where they pass when the block writes depth;
/// returns each pixel's passing samples as a mask.
/// A flat z is splatted per row and a row's pass words folded into masks in vector
/// steps: the whole block's z built first (1 KB at 4 samples) and the pass words
/// gathered pixel by pixel held most of the kernel's time.
#[inline(always)]
fn depth_row<const W: usize, C: Fn(u32, u32) -> bool>(
    b: &DepthBlock<'_>,
    live: &[u32; W],
    r: usize,
    d: &mut [u32],
    cmp: &C,
) -> [u32; 8] {
    let ns = W / 8;
    let at = r * TILE * ns;
    let Some(row) = d
        .get_mut(at..at + W)
        .and_then(|w| <&mut [u32; W]>::try_from(w).ok())
    else {
        return [0; 8];
    };
    let z: [u32; W] = match b.flat {
        Some(f) => [f; W],
        None => std::array::from_fn(|i| {
            let p = b.sample_pos.get(i % ns).copied().unwrap_or([0.5; 2]);
            let (x, y) = (b.bx + (i / ns) as i32, b.by + r as i32);
            encode_depth(b.fmt, sample_z(b.prim, x, y, p))
        }),
    };
    // Whole rows as lane arrays (load, compare, select, store): vector operations. Each
    // word's pass bit goes straight to its sample's place in the pixel's mask.
    let st = *row;
    let mut bits = [0u32; W];
    for i in 0..W {
        bits[i] = 0u32.wrapping_sub(u32::from(cmp(z[i], st[i]))) & live[i];
    }
    if b.write {
        let mut new = st;
        for i in 0..W {
            let m = 0u32.wrapping_sub(u32::from(bits[i] != 0));
            new[i] = (z[i] & m) | (st[i] & !m);
        }
        *row = new;
    }
    pixel_masks::<W>(&bits)
}

/// Each pixel's mask from a row's words `bits` (a pixel's `W` / 8 samples adjacent, each
/// word 0 or its sample's bit, so or-ing them gives the mask): the row halved by or-ing
/// its even and odd words log2(samples) times, whole arrays at a time.
#[inline(always)]
fn pixel_masks<const W: usize>(bits: &[u32; W]) -> [u32; 8] {
    let mut bits = *bits;
    let mut n = W;
    while n > 8 {
        let mut half = [0u32; W];
        for i in 0..n / 2 {
            half[i] = bits[2 * i] | bits[2 * i + 1];
        }
        bits = half;
        n /= 2;
    }
    std::array::from_fn(|c| bits[c])
}

/// Asks for the block at (bx, by)'s depth rows (when the draw tests depth) and the rows
/// of every written colour attachment to be brought into cache: called a block ahead,
/// their loads no longer wait on memory (each draw streams the whole framebuffer, and
/// a block's rows are a tile row apart, which the hardware prefetchers did not follow).
pub(crate) fn prefetch_block<S>(ctx: &DrawCtx<'_, S>, mem: &TileMem<'_>, bx: i32, by: i32) {
    let ns = ctx.samples as usize;
    let at = tile_index(bx, by, ns);
    if ns == 1 {
        if ctx.tests {
            crate::simd::prefetch_short_rows(mem.depth, at, TILE, 8);
        }
        for (plane, rt) in mem.colors.iter().zip(&ctx.targets) {
            if let Some(rt) = rt {
                let nw = rt.format.words();
                crate::simd::prefetch_short_rows(plane, at * nw, TILE * nw, 8 * nw);
            }
        }
        return;
    }
    if ctx.tests {
        crate::simd::prefetch_rows(mem.depth, at, TILE * ns, 8, 8 * ns);
    }
    for (plane, rt) in mem.colors.iter().zip(&ctx.targets) {
        if let Some(rt) = rt {
            let nw = rt.format.words();
            crate::simd::prefetch_rows(plane, at * nw, TILE * ns * nw, 8, 8 * ns * nw);
        }
    }
}

/// [`prefetch_block`] of a one-sample block whose only written attachment is the RGBA8
/// `color` plane (a region walked whole, `tile::full_region`), `depth` when the draw
/// tests depth: inlined into the block loop, without the call and the walk over the
/// attachments (~100 instructions a block of fill_1080p_mov, by cachegrind, for 16
/// hints).
#[inline(always)]
pub(crate) fn prefetch_one_sample(depth: Option<&[u32]>, color: &[u32], bx: i32, by: i32) {
    let at = tile_index(bx, by, 1);
    if let Some(d) = depth {
        crate::simd::prefetch_short_rows(d, at, TILE, 8);
    }
    crate::simd::prefetch_short_rows(color, at, TILE, 8);
}

/// Stores each lane's RGBA8 word `packed` to the samples `cov` of its pixel in the strip at
/// (bx, qy) of `plane` (`ns` samples per pixel, `full` = every sample).
#[inline(always)]
fn strip_store(
    plane: &mut [u32],
    bx: i32,
    qy: i32,
    ns: usize,
    full: u32,
    packed: &[u32; LANES],
    cov: &[u32; LANES],
) {
    for row in 0..2 {
        let base = tile_index(bx, qy + row as i32, ns);
        let Some(dst) = plane.get_mut(base..base + 8 * ns) else {
            continue;
        };
        match ns {
            1 => {
                if let Ok(dst) = <&mut [u32; 8]>::try_from(dst) {
                    store_row(dst, row, packed, cov);
                }
                continue;
            }
            2 => {
                store_row_words::<16>(dst, row, packed, cov);
                continue;
            }
            4 => {
                store_row_words::<32>(dst, row, packed, cov);
                continue;
            }
            _ => {}
        }
        for (col, px) in dst.chunks_exact_mut(ns).enumerate() {
            let l = LANE_AT[row][col];
            let m = cov[l];
            if m == full {
                px.fill(packed[l]);
            } else {
                for (s, v) in px.iter_mut().enumerate() {
                    if m & (1 << s) != 0 {
                        *v = packed[l];
                    }
                }
            }
        }
    }
}

/// Row `row` (0 or 1) of a strip's one-sample pixels: each lane's word of `packed` where
/// its coverage is not 0.
#[inline(always)]
pub(crate) fn store_row(dst: &mut [u32; 8], row: usize, packed: &[u32; LANES], cov: &[u32; LANES]) {
    store_row_keep(dst, row, packed, cov, 0);
}

/// [`store_row`] keeping the bits `keep` of every word (a colour mask).
#[inline(always)]
fn store_row_keep(
    dst: &mut [u32; 8],
    row: usize,
    packed: &[u32; LANES],
    cov: &[u32; LANES],
    keep: u32,
) {
    // The row as a whole (load, select through the lane permutation, store): vector
    // operations, where a store per covered lane was a branch each.
    let mut cur = *dst;
    for col in 0..8 {
        let l = LANE_AT[row][col];
        let m = 0u32.wrapping_sub(u32::from(cov[l] != 0)) & !keep;
        cur[col] = (packed[l] & m) | (cur[col] & !m);
    }
    *dst = cur;
}

/// [`store_row_samples`] of row `row` (0 or 1), `dst` being its `W` words.
#[inline(always)]
fn store_row_words<const W: usize>(
    dst: &mut [u32],
    row: usize,
    packed: &[u32; LANES],
    cov: &[u32; LANES],
) {
    if let Ok(dst) = <&mut [u32; W]>::try_from(dst) {
        #[cfg(test)]
        count_strip_path(StripPath::RowStore);
        match row {
            0 => store_row_samples::<W, 0>(dst, packed, cov),
            _ => store_row_samples::<W, 1>(dst, packed, cov),
        }
    }
}

/// [`store_row`] of row `ROW` for `W` / 8 samples per pixel: each lane's word where its
/// sample's coverage bit is set.
#[inline(always)]
fn store_row_samples<const W: usize, const ROW: usize>(
    dst: &mut [u32; W],
    packed: &[u32; LANES],
    cov: &[u32; LANES],
) {
    let ns = W / 8;
    // Row ROW of quad q is lanes 4q + 2·ROW (+ 1), columns 2q (+ 1): a pixel's samples
    // as one vector select (bit s of the coverage against a constant), where a branch
    // per pixel and per sample left most of store_rgba8's time at 4x MSAA in its loops.
    for q in 0..4 {
        for j in 0..2 {
            let l = 4 * q + 2 * ROW + j;
            let (p, c) = (packed[l], cov[l]);
            let px = &mut dst[(2 * q + j) * ns..(2 * q + j + 1) * ns];
            for (s, v) in px.iter_mut().enumerate() {
                let m = 0u32.wrapping_sub(u32::from(c & (1 << s) != 0));
                *v = (p & m) | (*v & !m);
            }
        }
    }
}

/// [`store_rgba8`] into a strip's two rows given as such (`rows[0]` = lanes 0, 1 of each
/// quad).
#[inline(always)]
pub(crate) fn store_rows(
    rows: &mut [&mut [u32; 8]],
    c: &[[u32; LANES]; 4],
    alpha_one: bool,
    cov: &[u32; LANES],
) {
    let packed = pack_lanes(c, alpha_one);
    for (row, dst) in rows.iter_mut().enumerate().take(2) {
        store_row(dst, row, &packed, cov);
    }
}

/// [`store_sample_rows`] by vector selects: each row's words chosen by the samples'
/// coverage bits ([`store_row_samples`]), for 2, 4, 8 or 16 samples a pixel (other
/// counts, and rows not of `8 * ns` words, by [`store_sample_rows`]).
#[inline(always)]
pub(crate) fn store_sample_strip(
    rows: &mut [&mut [u32]],
    c: &[[u32; LANES]; 4],
    alpha_one: bool,
    ns: usize,
    cov: &[u32; LANES],
) {
    if !matches!(ns, 2 | 4 | 8 | 16) || rows.iter().take(2).any(|r| r.len() != 8 * ns) {
        return store_sample_rows(rows, c, alpha_one, ns, cov);
    }
    let packed = pack_lanes(c, alpha_one);
    for (row, dst) in rows.iter_mut().enumerate().take(2) {
        match ns {
            2 => store_row_words::<16>(dst, row, &packed, cov),
            4 => store_row_words::<32>(dst, row, &packed, cov),
            8 => store_row_words::<64>(dst, row, &packed, cov),
            _ => store_row_words::<128>(dst, row, &packed, cov),
        }
    }
}

/// The eight rows of the one-sample block at (bx, by) of a colour plane, as arrays.
/// Inlined: returned from a call, the eight references were reloaded with 16-byte loads
/// of its 8-byte stores, which do not forward (10 % of fill_1080p_mov at one thread).
#[inline(always)]
pub(crate) fn block_rows(plane: &mut [u32], bx: i32, by: i32) -> Option<[&mut [u32; 8]; 8]> {
    // Whole tile rows from the block's first, then each row's eight words from its
    // column (at most TILE - 8): no failure left after the one bounds check.
    let (y, x) = ((by as usize) % TILE, ((bx as usize) % TILE) & !7);
    let (rows, _) = plane
        .get_mut(y * TILE..(y + 8) * TILE)?
        .as_chunks_mut::<TILE>();
    let [r0, r1, r2, r3, r4, r5, r6, r7] = rows else {
        return None;
    };
    fn at(r: &mut [u32; TILE], x: usize) -> Option<&mut [u32; 8]> {
        r.get_mut(x..)?.first_chunk_mut::<8>()
    }
    Some([
        at(r0, x)?,
        at(r1, x)?,
        at(r2, x)?,
        at(r3, x)?,
        at(r4, x)?,
        at(r5, x)?,
        at(r6, x)?,
        at(r7, x)?,
    ])
}

/// The eight rows of the multisampled block at (bx, by) of a colour plane, `ns` samples
/// a pixel (8·ns words a row): [`block_rows`] for [`crate::FragmentShader::shade_block_samples`].
#[inline(always)]
pub(crate) fn sample_block_rows(
    plane: &mut [u32],
    bx: i32,
    by: i32,
    ns: usize,
) -> Option<[&mut [u32]; 8]> {
    let (y, x) = ((by as usize) % TILE, ((bx as usize) % TILE) & !7);
    let stride = TILE * ns;
    let mut rows = plane
        .get_mut(y * stride..(y + 8) * stride)?
        .chunks_exact_mut(stride)
        .map(|r| r.get_mut(x * ns..(x + 8) * ns));
    let mut row = || rows.next().flatten();
    Some([
        row()?,
        row()?,
        row()?,
        row()?,
        row()?,
        row()?,
        row()?,
        row()?,
    ])
}

/// [`store_rows`] into multisampled rows (`ns` words a pixel): each lane's packed colour
/// to the samples whose bits `cov` has, one at a time.
pub(crate) fn store_sample_rows(
    rows: &mut [&mut [u32]],
    c: &[[u32; LANES]; 4],
    alpha_one: bool,
    ns: usize,
    cov: &[u32; LANES],
) {
    let packed = pack_lanes(c, alpha_one);
    for (row, dst) in rows.iter_mut().enumerate().take(2) {
        for (col, px) in dst.chunks_exact_mut(ns).enumerate().take(8) {
            let l = LANE_AT[row][col];
            for (s, v) in px.iter_mut().enumerate() {
                if cov[l] & (1 << s) != 0 {
                    *v = packed[l];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The reference store: lane `l`'s word to each sample of its pixel in the strip at
    /// (bx, qy) whose bit is set in `cov[l]`, one sample at a time.
    fn store_per_sample(
        plane: &mut [u32],
        bx: i32,
        qy: i32,
        ns: usize,
        words: &[u32; LANES],
        cov: &[u32; LANES],
    ) {
        for lane in 0..LANES {
            let (x, y) = (bx + LANE_COL[lane], qy + LANE_ROW[lane]);
            for s in 0..ns {
                if cov[lane] & (1 << s) != 0 {
                    plane[tile_index(x, y, ns) + s] = words[lane];
                }
            }
        }
    }

    proptest! {
        /// The strip blend writes what the per-quad path's per-sample blend writes
        /// (decode, `fragops::blend`, clamp, encode, colour mask) at covered lanes, and
        /// leaves the others alone, with every instruction set.
        #[test]
        fn blend_strip_equals_per_sample_blend(
            (bx, qy) in (0i32..8, 0i32..32),
            src in any::<[[u32; LANES]; 4]>(),
            src1 in any::<[[u32; LANES]; 4]>(),
            cov in any::<[bool; LANES]>(),
            keep in proptest::sample::select(vec![0u32, 0xff00_0000, 0x00ff_00ff]),
            preset in 0usize..4,
            (dual, alpha_one) in (any::<bool>(), any::<bool>()),
            seed in any::<u32>(),
        ) {
            use crate::state::BlendFactor as F;
            use BlendEquation as E;
            let presets = [
                (F::SrcAlpha, F::OneMinusSrcAlpha, E::Add),
                (F::DstColor, F::Src1Color, E::Subtract),
                (F::SrcAlphaSaturate, F::ConstantColor, E::ReverseSubtract),
                (F::One, F::OneMinusSrc1Alpha, E::Max),
            ];
            let (sf, df, eq) = presets[preset];
            let bt = BlendTarget {
                enabled: true,
                src_rgb: sf,
                dst_rgb: df,
                src_alpha: F::One,
                dst_alpha: df,
                eq_rgb: eq,
                eq_alpha: E::Add,
                ..Default::default()
            };
            let k = [0.3f32, 0.0, 1.0, 0.75];
            // Colours in a useful range, with NaN and out-of-range values now and then.
            let f = |c: [[u32; LANES]; 4]| {
                c.map(|ch| ch.map(|b| match b % 8 {
                    0 => b,
                    1 => f32::NAN.to_bits(),
                    _ => (((b >> 8) % 1200) as f32 / 1000.0 - 0.1).to_bits(),
                }))
            };
            let (src, src1) = (f(src), f(src1));
            let (bx, qy) = (bx * 8, qy * 2);
            let cov = cov.map(u32::from);
            let plane: Vec<u32> = (0..TILE * TILE)
                .map(|i| (i as u32).wrapping_mul(2_654_435_761) ^ seed)
                .collect();
            let mut want = plane.clone();
            for lane in 0..LANES {
                if cov[lane] == 0 {
                    continue;
                }
                let i = tile_index(bx + LANE_COL[lane], qy + LANE_ROW[lane], 1);
                let fmt = crate::color::ColorFormat::Rgba8Unorm;
                let c = |o: &[[u32; LANES]; 4]| std::array::from_fn(|ch| {
                    f32::from_bits(o[ch][lane]).clamp(0.0, 1.0)
                });
                let mut s: [f32; 4] = c(&src);
                if alpha_one {
                    s[3] = 1.0;
                }
                let s1 = if dual { c(&src1) } else { [0.0; 4] };
                let d = crate::color::decode(fmt, &want[i..i + 1], false);
                let r = crate::fragops::blend(&bt, k, s, s1, d).map(|v| v.clamp(0.0, 1.0));
                let mut w = [0u32; 4];
                crate::color::encode(fmt, r, false, &mut w);
                want[i] = (want[i] & keep) | (w[0] & !keep);
            }
            let x = BlendSources {
                src: Some(&src),
                src1: Some(&src1),
                dual_source: dual,
                alpha_to_one: alpha_one,
            };
            for isa in [crate::simd::Isa::Baseline, crate::simd::Isa::Avx2, crate::simd::Isa::Avx512] {
                // A set the CPU lacks runs a narrower one under its name: only sets it has.
                if crate::simd::force(isa) != isa {
                    continue;
                }
                let mut got = plane.clone();
                blend_strip(&mut got, bx, qy, &bt, keep, k, &x, &cov);
                prop_assert!(got == want, "{:?}", isa);
            }
            crate::simd::force(crate::simd::Isa::Avx512);
        }

        /// The strip store (row kernels for 1, 2 and 4 samples, the per-pixel loop for
        /// more) writes exactly each lane's word to its covered samples and nothing else.
        #[test]
        fn strip_store_writes_covered_samples(
            ns in proptest::sample::select(vec![1usize, 2, 4, 8, 16]),
            (bx, qy) in (0i32..8, 0i32..32),
            packed in any::<[u32; LANES]>(),
            cov in any::<[u32; LANES]>(),
            seed in any::<u32>(),
        ) {
            let (bx, qy) = (bx * 8, qy * 2);
            let full = ((1u64 << ns) - 1) as u32;
            let cov = cov.map(|c| c & full);
            let mut plane: Vec<u32> = (0..TILE * TILE * ns)
                .map(|i| (i as u32).wrapping_mul(2_654_435_761) ^ seed)
                .collect();
            let mut want = plane.clone();
            store_per_sample(&mut want, bx, qy, ns, &packed, &cov);
            strip_store(&mut plane, bx, qy, ns, full, &packed, &cov);
            prop_assert!(plane == want);
        }
    }

    proptest! {
        /// The strip's RGBA8 store (the whole fill when every sample is covered, the
        /// row selects otherwise) writes each lane's `unorm8` colour to its covered
        /// samples and nothing else.
        #[test]
        fn store_rgba8_equals_per_sample_store(
            ns in proptest::sample::select(vec![1usize, 2, 4, 8, 16]),
            (bx, qy) in (0i32..8, 0i32..32),
            c in any::<[[u32; LANES]; 4]>(),
            cov in any::<[u32; LANES]>(),
            (whole, alpha_one) in (any::<bool>(), any::<bool>()),
            seed in any::<u32>(),
        ) {
            let (bx, qy) = (bx * 8, qy * 2);
            let full = ((1u64 << ns) - 1) as u32;
            let cov = cov.map(|m| if whole { full } else { m & full });
            // Colours in and around [0, 1], with NaN, infinities and raw bits now and then.
            let c = c.map(|ch| ch.map(|b| match b % 8 {
                0 => b,
                1 => [f32::NAN, f32::INFINITY, -0.0, 0.5][(b >> 3) as usize % 4].to_bits(),
                _ => (((b >> 8) % 1200) as f32 / 1000.0 - 0.1).to_bits(),
            }));
            let mut plane: Vec<u32> = (0..TILE * TILE * ns)
                .map(|i| (i as u32).wrapping_mul(2_654_435_761) ^ seed)
                .collect();
            let words: [u32; LANES] = std::array::from_fn(|lane| {
                let mut v: [f32; 4] = std::array::from_fn(|ch| f32::from_bits(c[ch][lane]));
                if alpha_one {
                    v[3] = 1.0;
                }
                crate::color::pack_unorm8(v)
            });
            let mut want = plane.clone();
            store_per_sample(&mut want, bx, qy, ns, &words, &cov);
            let before = strip_paths()[StripPath::Fill as usize];
            store_rgba8(&mut plane, bx, qy, ns, full, &c, alpha_one, &cov);
            prop_assert!(plane == want);
            // The whole fill ran exactly when every sample of a multisampled strip is covered.
            let filled = strip_paths()[StripPath::Fill as usize] > before;
            prop_assert_eq!(filled, ns > 1 && cov.iter().all(|&m| m == full));
        }
    }

    proptest! {
        /// The block's depth test (rows tested, written and folded into per-pixel masks)
        /// gives each lane the samples a per-sample test passes and writes what it
        /// writes, flat z or per sample, every function and sample count, with every
        /// instruction set.
        #[test]
        fn depth_block_equals_per_sample_test(
            ns in proptest::sample::select(vec![1usize, 2, 4, 8, 16]),
            (bx, by) in (0i32..8, 0i32..8),
            func in 0usize..8,
            (write, flat, d32) in (any::<bool>(), any::<bool>(), any::<bool>()),
            (c, dx, dy) in (-0.2f32..1.2, -0.01f32..0.01, -0.01f32..0.01),
            cov in any::<u32>(),
            seed in any::<u32>(),
        ) {
            use crate::framebuffer::DepthFormat;
            use crate::setup::{Plane, flat_depth};
            let funcs = [
                CompareFunc::Never,
                CompareFunc::Less,
                CompareFunc::Equal,
                CompareFunc::LessEqual,
                CompareFunc::Greater,
                CompareFunc::NotEqual,
                CompareFunc::GreaterEqual,
                CompareFunc::Always,
            ];
            let func = funcs[func];
            let (bx, by) = (bx * 8, by * 8);
            let full = ((1u64 << ns) - 1) as u32;
            let cov = (cov & full).max(1);
            let z = match flat {
                true => Plane { c, dx: 0.0, dy: 0.0 },
                false => Plane { c, dx, dy },
            };
            let prim = PrimSetup::for_tests([0; 4], [3.25, -1.5], z);
            let fmt = if d32 { DepthFormat::D32FS8 } else { DepthFormat::D24S8 };
            let pos: Vec<[f32; 2]> = (0..ns)
                .map(|s| [(s as f32 + 0.5) / ns as f32, 1.0 - (s as f32 + 0.25) / ns as f32])
                .collect();
            let sample_pos: &[[f32; 2]] = if ns > 1 { &pos } else { &[] };
            let zat = |x: i32, y: i32, s: usize| {
                let p = sample_pos.get(s).copied().unwrap_or([0.5; 2]);
                encode_depth(fmt, sample_z(&prim, x, y, p))
            };
            // Stored words: random, or the sample's own z (ties) now and then.
            let base = tile_index(bx, by, ns);
            let mut plane: Vec<u32> = (0..TILE * TILE * ns)
                .map(|i| (i as u32).wrapping_mul(2_654_435_761) ^ seed)
                .collect();
            for (i, v) in plane.iter_mut().enumerate() {
                let (px, s) = (i / ns, i % ns);
                let (x, y) = ((px % TILE) as i32, (px / TILE) as i32);
                match *v % 4 {
                    0 => *v = zat(x, y, s),
                    1 if !d32 => *v &= 0xff_ffff,
                    _ => {}
                }
            }
            let mut want_d = plane.clone();
            let mut want = [[0u32; LANES]; 4];
            crate::state::per_compare!(func, never => {}, |cmp| {
                for row in 0..8 {
                    for col in 0..8 {
                        let (x, y) = (bx + col, by + row);
                        for s in 0..ns {
                            if cov & (1 << s) == 0 {
                                continue;
                            }
                            let i = tile_index(x, y, ns) + s;
                            let zs = zat(x, y, s);
                            if cmp(zs, want_d[i]) {
                                if write {
                                    want_d[i] = zs;
                                }
                                want[row as usize / 2][LANE_AT[row as usize % 2][col as usize]] |= 1 << s;
                            }
                        }
                    }
                }
            });
            let b = DepthBlock {
                prim: &prim,
                fmt,
                flat: flat_depth(&prim, fmt),
                func,
                write,
                sample_pos,
                bx,
                by,
                cov,
            };
            prop_assert_eq!(b.flat.is_some(), flat);
            for isa in [crate::simd::Isa::Baseline, crate::simd::Isa::Avx2, crate::simd::Isa::Avx512] {
                if crate::simd::force(isa) != isa {
                    continue;
                }
                let mut got_d = plane.clone();
                let got = match ns {
                    1 => depth_block::<8>(&b, &mut got_d[base..]),
                    2 => depth_block::<16>(&b, &mut got_d[base..]),
                    4 => depth_block::<32>(&b, &mut got_d[base..]),
                    8 => depth_block::<64>(&b, &mut got_d[base..]),
                    _ => depth_block::<128>(&b, &mut got_d[base..]),
                };
                prop_assert_eq!(got, want, "{:?}", isa);
                prop_assert!(got_d == want_d, "{:?}", isa);
                // The flat one-sample kernel (AVX-512 only): the same lanes, live lanes
                // and stored words, and it ran exactly where it applies.
                let mut got_d = plane.clone();
                let mut got = [[u32::MAX; LANES]; 4];
                let before = strip_paths()[StripPath::FlatDepth as usize];
                let lives = match ns {
                    1 => depth_flat::<8>(&b, &mut got_d[base..], &mut got),
                    2 => depth_flat::<16>(&b, &mut got_d[base..], &mut got),
                    4 => depth_flat::<32>(&b, &mut got_d[base..], &mut got),
                    _ => None,
                };
                let ran = strip_paths()[StripPath::FlatDepth as usize] > before;
                let kernel = matches!(ns, 1 | 2 | 4) && flat;
                prop_assert_eq!(ran, kernel && isa == crate::simd::Isa::Avx512);
                if let Some(lives) = lives {
                    prop_assert_eq!(got, want, "{:?}", isa);
                    prop_assert!(got_d == want_d, "{:?}", isa);
                    prop_assert_eq!(lives, want.each_ref().map(crate::simd::nonzero_lanes));
                }
            }
            crate::simd::force(crate::simd::Isa::Avx512);
        }
    }

    #[test]
    fn tables_match_the_quad_layout() {
        for lane in 0..LANES {
            let (q, i) = (lane / 4, lane % 4);
            assert_eq!(LANE_COL[lane], 2 * q as i32 + (i & 1) as i32);
            assert_eq!(LANE_ROW[lane], (i >> 1) as i32);
            assert_eq!(
                LANE_AT[LANE_ROW[lane] as usize][LANE_COL[lane] as usize],
                lane
            );
        }
    }
}
