//! The contract between the rasterizer and the fragment program the pipeline runs.
//!
//! The rasterizer calls [`FragmentShader::shade`] once per [`FragmentBatch`]: up to
//! [`QUADS_PER_BATCH`] 2×2 quads, [`LANES`] lanes in all. Lane `4q + i` is quad `q`'s
//! pixel `(x + (i & 1), y + (i >> 1))` (y up, so lanes 2, 3 are the row above): DDX =
//! lane1 − lane0, DDY = lane2 − lane0. Lanes whose coverage is 0 are helpers: shade them
//! (derivatives need them) but their outputs are discarded.
//!
//! The quads of a batch may come from different primitives of one draw (small triangles
//! fill a batch together); each quad is wholly one primitive's, and all primitives of a
//! batch face the same way. Two quads may cover the same pixel: the rasterizer applies
//! tests and writes lane by lane in order, which is submission order. When the program's
//! lanes are independent ([`ShaderInfo::lanes_independent`]) a batch's lanes are single
//! pixels of any primitives, at any positions (a "quad" is then just four lanes).

use crate::error::ShaderError;
use crate::setup::{AttrPlane, Plane, PrimSetup};
pub use crate::shader_info::{InterpLocation, InterpMode, ShaderInfo, VaryingInterp};
use crate::state::MAX_COLOR_TARGETS;

pub(crate) use crate::lanes::LaneData;
pub use crate::lanes::{LANES, QUADS_PER_BATCH};

/// Per-lane outputs of one shader call. Values are raw 32-bit words: f32 bits for float,
/// UNORM and sRGB targets, u32/i32 bits for integer targets. Each worker's outputs start
/// zeroed at the start of a draw and keep what the draw's earlier calls left, so a colour
/// the shader never writes reads as zero.
#[derive(Debug, Clone, PartialEq)]
pub struct FragmentOutputs {
    /// `color[output][channel][lane]`. With dual-source blending, output 1 is the second
    /// source colour (SRC1_*) of attachment 0.
    pub color: [[[u32; LANES]; 4]; MAX_COLOR_TARGETS],
    /// Window depth per lane (read when [`ShaderInfo::writes_depth`]).
    pub depth: [f32; LANES],
    /// Sample mask per lane (read when [`ShaderInfo::writes_sample_mask`]).
    pub sample_mask: [u32; LANES],
    /// Lanes killed by the program (bit per lane). Reset to 0 before every call.
    pub kill: u32,
}

impl Default for FragmentOutputs {
    fn default() -> Self {
        FragmentOutputs {
            color: [[[0; LANES]; 4]; MAX_COLOR_TARGETS],
            depth: [0.0; LANES],
            sample_mask: [!0; LANES],
            kill: 0,
        }
    }
}

impl FragmentOutputs {
    /// Sets output `rt` of `lane` to float colour `c` (convenience for tests and simple
    /// shaders). Out-of-range indices are ignored.
    pub fn set_color_f32(&mut self, rt: usize, lane: usize, c: [f32; 4]) {
        if let Some(out) = self.color.get_mut(rt) {
            for (ch, v) in out.iter_mut().zip(c) {
                if let Some(slot) = ch.get_mut(lane) {
                    *slot = v.to_bits();
                }
            }
        }
    }
}

/// A fragment program as the rasterizer runs it.
///
/// `Sync` because tiles run on worker threads; each worker makes its own `Scratch` once
/// (registers, temporaries) and passes it to every call it makes.
pub trait FragmentShader: Sync {
    /// Per-worker mutable state.
    type Scratch: Send;
    /// What the rasterizer needs to know about the program.
    fn info(&self) -> &ShaderInfo;
    /// Makes one worker's scratch state.
    fn new_scratch(&self) -> Self::Scratch;
    /// Shades one batch. `out.kill` is 0 on entry; other outputs hold what this draw's
    /// earlier calls on the worker left (zeros at first).
    fn shade(
        &self,
        scratch: &mut Self::Scratch,
        batch: &FragmentBatch<'_>,
        out: &mut FragmentOutputs,
    ) -> Result<(), ShaderError>;
    /// Whether the shader wants [`FragmentShader::early_rejected`] calls (asked once per
    /// batch that runs early tests; false, the default, skips keeping the coverage the
    /// tests started from).
    fn wants_early_rejects(&self) -> bool {
        false
    }
    /// The fragments early depth/stencil tests rejected before the program ran
    /// (`glemu trace` lists them): `batch`'s coverage is what each lane had before the
    /// tests, and only lanes the tests left with nothing are covered.
    fn early_rejected(&self, _batch: &FragmentBatch<'_>) {}
    /// Whether the rasterizer may shade the strips of a fully covered block through
    /// [`FragmentShader::shade_strips`] (asked once per draw; false, the default, keeps
    /// every batch on [`FragmentShader::shade`]). Only colours are read back that way: a
    /// shader writing depth or a sample mask is never asked.
    fn shades_strips(&self) -> bool {
        false
    }
    /// Whether [`FragmentShader::shade_strips`] and [`FragmentShader::shade_block`] read
    /// a strip only through varyings declared perspective at the pixel centre
    /// ([`Strip::perspective_n`]) and its primitive's facing (asked once per block;
    /// false, the default, gives them every lane fact): the rasterizer then leaves the
    /// lanes' positions, coverage and sample ids unset (stale) in strips' batches, and
    /// for a primitive with constant 1/w their offsets and perspective factor too.
    fn strips_read_planes_only(&self) -> bool {
        false
    }
    /// Shades `strips` in order, as [`FragmentShader::shade`] would one after another,
    /// and hands each one's kill mask and colours to `sink(index, kill, colours)` before
    /// the next starts. The default runs [`FragmentShader::shade`] on each.
    fn shade_strips(
        &self,
        scratch: &mut Self::Scratch,
        strips: &[Strip<'_>],
        sink: &mut dyn FnMut(usize, u32, &StripColors<'_>),
    ) -> Result<(), ShaderError> {
        let mut out = FragmentOutputs::default();
        for (i, st) in strips.iter().enumerate() {
            out.kill = 0;
            self.shade(scratch, &st.batch, &mut out)?;
            let mut colors = StripColors::default();
            for (c, o) in colors.color.iter_mut().zip(&out.color) {
                *c = Some(o);
            }
            sink(i, out.kill, &colors);
        }
        Ok(())
    }
    /// [`FragmentShader::shade_strips`] with the colours stored into `dst` ([`store_strip`]
    /// of each strip, which a shader may do itself); strip k's kill mask goes into
    /// `kills[k]`. Asked only of a shader that [`FragmentShader::shades_strips`].
    ///
    /// `dst` by reference and the kills as an array, not a sink: a `BlockRows` moved in
    /// by value was copied with 16-byte loads of the caller's 8-byte stores (a store
    /// forwarding stall per block), and a sink was a dynamic call per strip.
    fn shade_block(
        &self,
        scratch: &mut Self::Scratch,
        strips: &[Strip<'_>],
        dst: &mut BlockRows<'_, '_>,
        kills: &mut [u32; 4],
    ) -> Result<(), ShaderError> {
        shade_block_by_strips(self, scratch, strips, dst, kills)
    }
    /// [`FragmentShader::shade_block`] into a multisampled attachment: strip k's colour
    /// goes to each sample of its pixels whose bit its coverage word has
    /// ([`store_strip_samples`], which a shader may do itself). Asked only of a shader
    /// that [`FragmentShader::shades_strips`].
    fn shade_block_samples(
        &self,
        scratch: &mut Self::Scratch,
        strips: &[Strip<'_>],
        dst: &mut SampleRows<'_, '_>,
        kills: &mut [u32; 4],
    ) -> Result<(), ShaderError> {
        shade_samples_by_strips(self, scratch, strips, dst, kills)
    }
}

/// [`FragmentShader::shade_block_samples`]' default: [`FragmentShader::shade_strips`],
/// each strip's colours stored by [`store_strip_samples`].
pub fn shade_samples_by_strips<S: FragmentShader + ?Sized>(
    shader: &S,
    scratch: &mut S::Scratch,
    strips: &[Strip<'_>],
    dst: &mut SampleRows<'_, '_>,
    kills: &mut [u32; 4],
) -> Result<(), ShaderError> {
    let (output, alpha_one, ns) = (dst.output, dst.alpha_one, dst.samples);
    let (rows, covs) = (&mut *dst.rows, dst.covs);
    shader.shade_strips(scratch, strips, &mut |k, kill, colors| {
        if let (Some(r), Some(cov)) = (rows.get_mut(2 * k..2 * k + 2), covs.get(k)) {
            let c = colors.color.get(output).copied().flatten();
            store_strip_samples(r, c, alpha_one, ns, cov, kill);
        }
        if let Some(x) = kills.get_mut(k) {
            *x = kill;
        }
    })
}

/// [`FragmentShader::shade_block`]'s default: [`FragmentShader::shade_strips`], each
/// strip's colours stored by [`store_strip`].
pub fn shade_block_by_strips<S: FragmentShader + ?Sized>(
    shader: &S,
    scratch: &mut S::Scratch,
    strips: &[Strip<'_>],
    dst: &mut BlockRows<'_, '_>,
    kills: &mut [u32; 4],
) -> Result<(), ShaderError> {
    let (output, alpha_one) = (dst.output, dst.alpha_one);
    let (rows, covs) = (&mut *dst.rows, dst.covs);
    shader.shade_strips(scratch, strips, &mut |k, kill, colors| {
        if let (Some(r), Some(cov)) = (rows.get_mut(2 * k..2 * k + 2), covs.get(k)) {
            let c = colors.color.get(output).copied().flatten();
            store_strip(r, c, alpha_one, cov, kill);
        }
        if let Some(x) = kills.get_mut(k) {
            *x = kill;
        }
    })
}

/// The RGBA8 destination of the strips of one fully covered block
/// ([`FragmentShader::shade_block`]): one sample per pixel, one colour attachment,
/// replaced whole.
#[derive(Debug)]
pub struct BlockRows<'r, 'a> {
    /// The colour output stored (an index of [`FragmentOutputs::color`]).
    pub output: usize,
    /// Alpha is stored as 255 (alpha-to-one).
    pub alpha_one: bool,
    /// Strip `k`'s pixel rows: `rows[2k]` holds its lanes 0, 1 of each quad (left to
    /// right), `rows[2k + 1]` its lanes 2, 3. Only the first two per strip shaded are
    /// read. Arrays, not slices: a slice's pointer and length, stored 8 bytes at a time
    /// by the rasterizer, were read back 16 bytes at a time (a store forwarding stall).
    pub rows: &'r mut [&'a mut [u32; 8]; 8],
    /// Strip `k`'s coverage per lane after the early tests: 0 leaves the pixel alone.
    pub covs: &'r [&'a [u32; LANES]; 4],
}

/// [`BlockRows`] of a multisampled attachment ([`FragmentShader::shade_block_samples`]):
/// rows of eight pixels of `samples` words each.
#[derive(Debug)]
pub struct SampleRows<'r, 'a> {
    /// The colour output stored (an index of [`FragmentOutputs::color`]).
    pub output: usize,
    /// Alpha is stored as 255 (alpha-to-one).
    pub alpha_one: bool,
    /// Samples per pixel (2 to 16): a row is `8 * samples` words, a pixel's adjacent.
    pub samples: usize,
    /// Strip `k`'s pixel rows, as [`BlockRows::rows`].
    pub rows: &'r mut [&'a mut [u32]; 8],
    /// Strip `k`'s coverage per lane after the early tests: the samples each lane writes.
    pub covs: &'r [&'a [u32; LANES]; 4],
}

/// The reference of a strip's store into [`SampleRows`]: colour `c` (f32 bits,
/// channel-major; None reads as zeros) packed as RGBA8 UNORM into the samples of `cov`
/// of `rows` (two rows of `ns` words a pixel) at the lanes the shader did not kill.
pub fn store_strip_samples(
    rows: &mut [&mut [u32]],
    c: Option<&[[u32; LANES]; 4]>,
    alpha_one: bool,
    ns: usize,
    cov: &[u32; LANES],
    kill: u32,
) {
    let cov = crate::block::unkilled_lanes(cov, kill);
    let c = c.unwrap_or(&[[0; LANES]; 4]);
    crate::block::store_sample_rows(rows, c, alpha_one, ns, &cov);
}

/// The reference of a strip's store into [`BlockRows`]: colour `c` (f32 bits,
/// channel-major; None reads as zeros) packed as RGBA8 UNORM into `rows` (two rows, as
/// [`BlockRows::rows`]) at the lanes of `cov` the shader did not kill.
pub fn store_strip(
    rows: &mut [&mut [u32; 8]],
    c: Option<&[[u32; LANES]; 4]>,
    alpha_one: bool,
    cov: &[u32; LANES],
    kill: u32,
) {
    let cov = crate::block::unkilled_lanes(cov, kill);
    crate::block::store_rows(rows, c.unwrap_or(&[[0; LANES]; 4]), alpha_one, &cov);
}

/// [`store_strip`] of each strip k of a block (rows `rows[2k..2k + 2]`, colour
/// `colors[k]`, coverage `covs[k]`, no lane killed), compiled for the CPU's widest
/// vectors: for colours written with whatever width (a compiled kernel's 128-bit stores
/// are `block::store_rgba8`'s case, kept baseline for forwarding). With AVX-512 through
/// `simd::store_block_rgba8`, else the lane loops.
pub fn store_block(
    rows: &mut [&mut [u32; 8]],
    colors: &[&[[u32; LANES]; 4]],
    alpha_one: bool,
    covs: &[&[u32; LANES]],
) {
    if !crate::simd::store_block_rgba8(rows, colors, alpha_one, covs) {
        store_block_lanes(rows, colors, alpha_one, covs)
    }
}

/// [`store_block`] of a block whose every lane of every strip has colour `color` (f32
/// bits): packed once (`color::unorm8`'s operations, as every lane's), then the word
/// stored at each strip's covered lanes. With AVX-512 by `simd::store_block_word`: per
/// strip one permutation and test of its coverage and two masked stores, where a
/// strip's pack took four loads and some twenty operations.
#[inline]
pub fn store_block_flat(
    rows: &mut [&mut [u32; 8]],
    color: [u32; 4],
    alpha_one: bool,
    covs: &[&[u32; LANES]],
) {
    let word = crate::block::pack_word(color, alpha_one);
    if !crate::simd::store_block_word(rows, word, covs) {
        store_block_word_lanes(rows, word, covs)
    }
}

crate::simd::multiversion! {
    /// [`store_block_flat`] by the row stores of [`store_strip`], every lane's word the
    /// same (a store per covered lane: 133.3 M instructions a frame of fill_1080p_mov
    /// under valgrind, against 48.7 M).
    fn store_block_word_lanes(rows: &mut [&mut [u32; 8]], word: u32, covs: &[&[u32; LANES]]) {
        let packed = [word; LANES];
        for (k, cov) in covs.iter().enumerate() {
            if let Some(r) = rows.get_mut(2 * k..2 * k + 2) {
                for (row, dst) in r.iter_mut().enumerate() {
                    crate::block::store_row(dst, row, &packed, cov);
                }
            }
        }
    }
}

crate::simd::multiversion! {
    /// [`store_block`] by the lane loops of [`store_strip`].
    fn store_block_lanes(
        rows: &mut [&mut [u32; 8]],
        colors: &[&[[u32; LANES]; 4]],
        alpha_one: bool,
        covs: &[&[u32; LANES]],
    ) {
        for (k, (c, cov)) in colors.iter().zip(covs).enumerate() {
            if let Some(r) = rows.get_mut(2 * k..2 * k + 2) {
                crate::block::store_rows(r, c, alpha_one, cov);
            }
        }
    }
}

/// [`store_strip_samples`] of each strip k of a block (rows `rows[2k..2k + 2]` of `ns`
/// words a pixel, colour `colors[k]`, coverage `covs[k]`, no lane killed): a
/// multisampled block's colours converted once per pixel and written to each covered
/// sample. With AVX-512 through `simd::store_block_samples_rgba8`, else the lane loops.
pub fn store_block_samples(
    rows: &mut [&mut [u32]],
    colors: &[&[[u32; LANES]; 4]],
    alpha_one: bool,
    ns: usize,
    covs: &[&[u32; LANES]],
) {
    if !crate::simd::store_block_samples_rgba8(rows, colors, alpha_one, ns, covs) {
        store_block_samples_lanes(rows, colors, alpha_one, ns, covs)
    }
}

crate::simd::multiversion! {
    /// [`store_block_samples`] by the lane loops of [`store_strip_samples`].
    fn store_block_samples_lanes(
        rows: &mut [&mut [u32]],
        colors: &[&[[u32; LANES]; 4]],
        alpha_one: bool,
        ns: usize,
        covs: &[&[u32; LANES]],
    ) {
        for (k, (c, cov)) in colors.iter().zip(covs).enumerate() {
            if let Some(r) = rows.get_mut(2 * k..2 * k + 2) {
                crate::block::store_sample_strip(r, c, alpha_one, ns, cov);
            }
        }
    }
}

/// One strip of two pixel rows of a fully covered block of one primitive
/// ([`FragmentShader::shade_strips`]): four quads left to right.
#[derive(Debug, Clone, Copy)]
pub struct Strip<'a> {
    /// The strip as a batch (every quad the same primitive).
    pub batch: FragmentBatch<'a>,
    /// Bit per lane: lanes that are real fragments, i.e. the batch's lanes whose
    /// coverage is not 0 (the others are helpers), computed once by the rasterizer.
    pub live: u32,
    /// Set when the batch's lane arrays were not written (a shader that
    /// [`FragmentShader::strips_read_planes_only`], a primitive with constant 1/w):
    /// [`Strip::perspective_n`] evaluates the planes from it.
    pub(crate) origin: Option<StripOrigin>,
}

/// Where a [`Strip`] lies, for its planes evaluated without lane arrays.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StripOrigin {
    /// The strip's lower left pixel.
    pub bx: i32,
    pub qy: i32,
    /// The primitive's constant perspective factor (`setup::flat_w`).
    pub w: f32,
}

impl Strip<'_> {
    /// [`FragmentBatch::perspective_n`] of the strip's batch, which a shader that
    /// [`FragmentShader::strips_read_planes_only`] must call instead: the strip's lane
    /// arrays may be unset, and the planes are then evaluated from its position (writing
    /// the offsets and factor into lane arrays only to read them right back cost more
    /// than the arithmetic).
    #[inline]
    pub fn perspective_n(&self, k: usize, n: usize, out: &mut [[u32; LANES]; 4]) -> bool {
        let Some(at) = &self.origin else {
            return self.batch.perspective_n(k, n, out);
        };
        let Some(a) = self.batch.uniform_planes(k, n) else {
            return false;
        };
        let prim = self.batch.prims[0];
        planes_origin(a, at, prim.ox, prim.oy, out);
        true
    }
}

/// [`Strip::perspective_n`] of each of `strips` (one block's, at most four) into
/// `out[s]`, in one call: the same planes at the same positions, without a dispatch and
/// a plane look-up per strip. False (nothing written) unless every strip is of the first
/// one's primitive and has its origin set.
pub fn perspective_strips(
    strips: &[Strip<'_>],
    k: usize,
    n: usize,
    out: &mut [[[u32; LANES]; 4]],
) -> bool {
    let Some(first) = strips.first() else {
        return true;
    };
    let Some(a) = first.batch.uniform_planes(k, n) else {
        return false;
    };
    let prim = first.batch.prims[0];
    let mut at = [StripOrigin {
        bx: 0,
        qy: 0,
        w: 0.0,
    }; 4];
    if strips.len() > at.len() || out.len() < strips.len() {
        return false;
    }
    for (o, s) in at.iter_mut().zip(strips) {
        let same = s.batch.uniform
            && std::ptr::eq(s.batch.prims[0], prim)
            && std::ptr::eq(s.batch.attrs[0], first.batch.attrs[0]);
        match (&s.origin, same) {
            (Some(x), true) => *o = *x,
            _ => return false,
        }
    }
    planes_strips(a, &at, strips.len(), prim.ox, prim.oy, out);
    true
}

/// The bits every lane of `strips` gets from [`perspective_strips`] of varyings `k..k +
/// 4` when they are one value a component over the whole block (a colour the vertices
/// share): the strips are of one primitive with their origins set and one perspective
/// factor, and [`flat_planes`] holds for the planes. None otherwise (nothing is decided
/// then: the caller evaluates the planes). Inlined into the caller: returned through
/// memory, its four 4-byte stores were read back as one 16-byte load, a
/// store-forwarding stall a block.
#[inline(always)]
pub fn flat_strips(strips: &[Strip<'_>], k: usize) -> Option<[u32; 4]> {
    let first = strips.first()?;
    let at = first.origin.as_ref()?;
    let a = first.batch.uniform_planes(k, 4)?;
    let prim = first.batch.prims[0];
    for s in strips {
        let same = s.batch.uniform
            && std::ptr::eq(s.batch.prims[0], prim)
            && std::ptr::eq(s.batch.attrs[0], first.batch.attrs[0])
            && s.origin.is_some_and(|o| o.w.to_bits() == at.w.to_bits());
        if !same {
            return None;
        }
    }
    flat_planes(a, at.w, prim.ox, prim.oy)
}

/// What [`planes_at_origin`] gives every lane of every strip of a primitive whose plane
/// origin is (ox, oy), with the constant perspective factor `w`, when four `planes` have
/// one value each over the primitive; None unless that is proven from the planes
/// themselves (whatever the vertex values were: an infinite or NaN vertex value leaves a
/// NaN gradient, declined here). Per lane the formula is `((c + dx·rx) + dy·ry)·w` with
/// rx = x + 0.5 − ox, ry likewise:
/// - ox, oy finite, so rx and ry are finite for every pixel, and with dx, dy each +0 or
///   −0 both products are ±0;
/// - c + (±0) + (±0) is c when c is not −0: a nonzero or infinite c is unchanged, +0 +
///   (±0) is +0 (round to nearest), and a NaN c comes back quieted, its payload kept,
///   as the multiply below quiets it too. Only −0 + (+0) = +0 differs: c = −0 declined;
/// - so each lane is c·w, one multiply of the same two operands. `w` is not NaN, so a
///   NaN c is the only NaN operand (which of two NaNs a multiply returns depends on the
///   operand order the compiler picked); 0·∞ gives the default NaN either way.
#[inline(always)]
fn flat_planes(planes: &[AttrPlane], w: f32, ox: f32, oy: f32) -> Option<[u32; 4]> {
    let zero = |v: f32| v.to_bits() << 1 == 0;
    if w.is_nan() || !ox.is_finite() || !oy.is_finite() || planes.len() != 4 {
        return None;
    }
    let mut v = [0u32; 4];
    for (o, a) in v.iter_mut().zip(planes) {
        let p = &a.plane;
        if !zero(p.dx) || !zero(p.dy) || p.c.to_bits() == (-0.0f32).to_bits() {
            return None;
        }
        *o = (p.c * w).to_bits();
    }
    Some(v)
}

crate::simd::multiversion! {
    /// [`planes_origin`] of strips `at[..n]` into `out[..n]`.
    fn planes_strips(
        planes: &[crate::setup::AttrPlane],
        at: &[StripOrigin; 4],
        n: usize,
        ox: f32,
        oy: f32,
        out: &mut [[[u32; LANES]; 4]],
    ) {
        for (at, out) in at.iter().zip(out.iter_mut()).take(n) {
            planes_at_origin(planes, at, ox, oy, out)
        }
    }
}

/// A strip's colour outputs as the program left them: `color[o]` is output `o`'s
/// `[channel][lane]` words, None when the program does not write it (it reads as zeros).
#[derive(Debug, Clone, Copy, Default)]
pub struct StripColors<'a> {
    /// Per output, as [`FragmentOutputs::color`].
    pub color: [Option<&'a [[u32; LANES]; 4]>; MAX_COLOR_TARGETS],
}

/// `plane` at every lane's (rx, ry), times the perspective factor `w` if given, as f32
/// bits.
#[inline(always)]
fn plane_at_lanes(
    plane: &Plane,
    rx: &[f32; LANES],
    ry: &[f32; LANES],
    w: Option<&[f32; LANES]>,
    out: &mut [u32; LANES],
) {
    // The plane splat into lane arrays first: every lane is then the same vector
    // expression (Plane::at's operations in its order), which compiles to whole
    // vectors instead of lanes picked apart.
    let c = [plane.c; LANES];
    let dx = [plane.dx; LANES];
    let dy = [plane.dy; LANES];
    let mut v = [0.0f32; LANES];
    for i in 0..LANES {
        v[i] = c[i] + dx[i] * rx[i] + dy[i] * ry[i];
    }
    if let Some(w) = w {
        for i in 0..LANES {
            v[i] *= w[i];
        }
    }
    *out = v.map(f32::to_bits);
}

crate::simd::multiversion! {
    /// [`plane_at_lanes`].
    fn plane_lanes(
        plane: &Plane,
        rx: &[f32; LANES],
        ry: &[f32; LANES],
        w: Option<&[f32; LANES]>,
        out: &mut [u32; LANES],
    ) {
        plane_at_lanes(plane, rx, ry, w, out)
    }
}

/// [`plane_at_lanes`] with perspective of each of `planes` (at most four) into `out` in
/// order.
#[inline(always)]
fn planes_at(
    planes: &[crate::setup::AttrPlane],
    rx: &[f32; LANES],
    ry: &[f32; LANES],
    w: &[f32; LANES],
    out: &mut [[u32; LANES]; 4],
) {
    // Written out, not a loop: LLVM vectorizes a loop over the planes across them
    // (with gathers) instead of across the lanes.
    let [o0, o1, o2, o3] = out;
    if let Some(a) = planes.first() {
        plane_at_lanes(&a.plane, rx, ry, Some(w), o0);
    }
    if let Some(a) = planes.get(1) {
        plane_at_lanes(&a.plane, rx, ry, Some(w), o1);
    }
    if let Some(a) = planes.get(2) {
        plane_at_lanes(&a.plane, rx, ry, Some(w), o2);
    }
    if let Some(a) = planes.get(3) {
        plane_at_lanes(&a.plane, rx, ry, Some(w), o3);
    }
}

crate::simd::multiversion! {
    /// [`planes_at`] in one call (a dispatch per plane cost more than the arithmetic).
    ///
    /// Multiversioned, though the compiled program reads these registers 128 bits at a
    /// time right after: BENCHMARKS.md step 18 had found baseline code faster for that
    /// (wide stores read narrow), and step 33, measured again after steps 26-30, found
    /// the wide code 4 % faster (fill_1080p_mov at one thread, medians 138.6 -> 133.3
    /// ms CPU a frame).
    fn planes_lanes(
        planes: &[crate::setup::AttrPlane],
        rx: &[f32; LANES],
        ry: &[f32; LANES],
        w: &[f32; LANES],
        out: &mut [[u32; LANES]; 4],
    ) {
        planes_at(planes, rx, ry, w, out)
    }
}

crate::simd::multiversion! {
    /// [`planes_at`] at the centres of the strip at (bx, qy) (offsets from the plane
    /// origin (ox, oy), `block::strip_offsets`) with the constant perspective factor
    /// `w`: the strip's offsets made in registers, not read back from lane arrays.
    fn planes_origin(
        planes: &[crate::setup::AttrPlane],
        at: &StripOrigin,
        ox: f32,
        oy: f32,
        out: &mut [[u32; LANES]; 4],
    ) {
        planes_at_origin(planes, at, ox, oy, out)
    }
}

/// [`planes_at`] at the centres of the strip `at` ([`planes_origin`]'s and
/// [`planes_strips`]' one body, so a block's planes are a strip's bits).
#[inline(always)]
fn planes_at_origin(
    planes: &[crate::setup::AttrPlane],
    at: &StripOrigin,
    ox: f32,
    oy: f32,
    out: &mut [[u32; LANES]; 4],
) {
    let (_, [rx, ry]) = crate::block::strip_offsets(at.bx, at.qy, ox, oy);
    planes_at(planes, &rx, &ry, &[at.w; LANES], out)
}

/// One shader call's inputs: lane positions, coverage, and each quad's primitive with its
/// attribute plane equations, with helpers to evaluate them anywhere in the pixel.
#[derive(Debug, Clone, Copy)]
pub struct FragmentBatch<'a> {
    pub(crate) lanes: &'a LaneData,
    /// The primitive of each lane (an unused lane repeats the lane at its place in the
    /// first quad when that one is used, else lane 0: `tile::process_batch`).
    pub(crate) prims: &'a [&'a PrimSetup; LANES],
    /// Each lane's primitive's attribute planes.
    pub(crate) attrs: &'a [&'a [AttrPlane]; LANES],
    /// Every lane is `prims[0]`'s: the plane of a varying is the same in every lane.
    pub(crate) uniform: bool,
    pub(crate) info: &'a ShaderInfo,
    /// Sample positions (fraction of a pixel) of the framebuffer's pattern.
    pub(crate) sample_pos: &'a [[f32; 2]],
    pub(crate) fb_height: u32,
}

impl<'a> FragmentBatch<'a> {
    /// Number of quads in use (lanes past `4 * quads()` are unused helpers).
    pub fn quads(&self) -> usize {
        self.lanes.quads
    }
    /// Pixel x of each lane.
    pub fn pixel_x(&self) -> &[i32; LANES] {
        &self.lanes.x
    }
    /// Pixel y of each lane (GL window coordinates, y up).
    pub fn pixel_y(&self) -> &[i32; LANES] {
        &self.lanes.y
    }
    /// Coverage mask per lane (bit s = sample s). 0 = helper lane. This is the
    /// `fragment.samplemask` input.
    pub fn coverage(&self) -> &[u32; LANES] {
        &self.lanes.coverage
    }
    /// Bit per lane: lanes that are real fragments (not helpers).
    pub fn live_mask(&self) -> u32 {
        let mut m = 0;
        for (i, c) in self.lanes.coverage.iter().enumerate() {
            if *c != 0 {
                m |= 1 << i;
            }
        }
        m
    }
    /// Under per-sample shading, the sample each lane shades.
    pub fn sample_id(&self) -> Option<&[u32; LANES]> {
        self.lanes.per_sample.then_some(&self.lanes.sample_id)
    }
    /// Whether the batch's primitives are front-facing (lines and points always are; a
    /// batch never mixes facings).
    pub fn front_facing(&self) -> bool {
        self.prims[0].front
    }
    /// `primitive.id` of each lane's primitive.
    pub fn primitive_ids(&self) -> [u32; LANES] {
        std::array::from_fn(|i| self.prim(i).id)
    }
    /// The primitive of lane `i`.
    #[inline(always)]
    fn prim(&self, i: usize) -> &PrimSetup {
        self.prims[i % LANES]
    }
    /// Framebuffer height (for upper-left origin fragment coordinates).
    pub fn framebuffer_height(&self) -> u32 {
        self.fb_height
    }
    /// Number of scalar varyings the primitives carry.
    pub fn varyings(&self) -> usize {
        self.attrs[0].len()
    }
    /// Number of samples per pixel.
    pub fn samples(&self) -> u32 {
        self.sample_pos.len() as u32
    }
    /// Position of sample `s` within the pixel (fractions, y up), if it exists.
    pub fn sample_position(&self, s: u32) -> Option<[f32; 2]> {
        self.sample_pos.get(s as usize).copied()
    }

    /// `fragment.position` per lane: window (x, y) of the pixel centre (the sample under
    /// per-sample shading), interpolated z, and 1/w_clip; as f32 bits.
    pub fn position(&self, out: &mut [[u32; LANES]; 4]) {
        let l = self.lanes;
        for i in 0..LANES {
            let (rx, ry) = (l.rx[i], l.ry[i]);
            let p = self.prim(i);
            out[0][i] = (rx + p.ox).to_bits();
            out[1][i] = (ry + p.oy).to_bits();
            out[2][i] = p.frag_z(p.z.at(rx, ry)).to_bits();
            out[3][i] = p.inv_w.at(rx, ry).to_bits();
        }
    }

    /// Point-sprite coordinate (s, t) per lane as f32 bits; (0, 0) for non-points.
    pub fn point_coord(&self, out: &mut [[u32; LANES]; 2]) {
        let l = self.lanes;
        for i in 0..LANES {
            let (s, t) = match &self.prim(i).point_coord() {
                Some(p) => (p[0].at(l.rx[i], l.ry[i]), p[1].at(l.rx[i], l.ry[i])),
                None => (0.0, 0.0),
            };
            out[0][i] = s.to_bits();
            out[1][i] = t.to_bits();
        }
    }

    /// Evaluates varying `k` for every lane at its declared location (centre, centroid or
    /// sample) — the hot path. Out-of-range `k` yields zeros.
    pub fn interpolate(&self, k: usize, out: &mut [u32; LANES]) {
        let interp = self.info.interp(k);
        if interp.location == InterpLocation::Centroid && !self.lanes.per_sample {
            self.interpolate_at_centroid(k, out);
            return;
        }
        let l = self.lanes;
        if !self.uniform {
            self.eval_at(k, &l.rx, &l.ry, Some(&l.w), out);
            return;
        }
        let Some(a) = self.attrs[0].get(k) else {
            *out = [0; LANES];
            return;
        };
        match interp.mode {
            InterpMode::Flat => *out = [a.flat; LANES],
            InterpMode::NoPerspective => plane_lanes(&a.plane, &l.rx, &l.ry, None, out),
            InterpMode::Perspective => plane_lanes(&a.plane, &l.rx, &l.ry, Some(&l.w), out),
        }
    }

    /// Evaluates varyings `k..k + n` (`n` ≤ 4) into `out[..n]`: [`Self::interpolate`] of
    /// each, in one call when they share their interpolation (a vector's components do).
    pub fn interpolate_n(&self, k: usize, n: usize, out: &mut [[u32; LANES]; 4]) {
        let n = n.min(4);
        let interp = self.info.interp(k);
        let l = self.lanes;
        let plain = interp.mode == InterpMode::Perspective
            && (interp.location != InterpLocation::Centroid || l.per_sample)
            && (1..n).all(|c| self.info.interp(k + c) == interp);
        if plain && self.perspective_n(k, n, out) {
            return;
        }
        if plain && n == 4 && self.mixed_planes_4(k, out) {
            return;
        }
        for (c, o) in out.iter_mut().enumerate().take(n) {
            self.interpolate(k + c, o);
        }
    }

    /// Varyings `k..k + n` (`n` ≤ 4) as perspective-correct at the lanes' positions,
    /// into `out[..n]`, for a caller that knows they are declared so (at the pixel
    /// centre): [`Self::interpolate_n`]'s formula without its per-call checks of each
    /// component's interpolation. False (`out` untouched) when the lanes are not all one
    /// primitive's or it lacks the varyings.
    #[inline]
    pub fn perspective_n(&self, k: usize, n: usize, out: &mut [[u32; LANES]; 4]) -> bool {
        let Some(a) = self.uniform_planes(k, n) else {
            return false;
        };
        let l = self.lanes;
        planes_lanes(a, &l.rx, &l.ry, &l.w, out);
        true
    }

    /// The planes of varyings `k..k + n` (`n` ≤ 4) that every lane shares: None when the
    /// lanes are not all one primitive's or it lacks the varyings ([`Self::perspective_n`],
    /// [`Strip::perspective_n`]).
    #[inline(always)]
    fn uniform_planes(&self, k: usize, n: usize) -> Option<&'a [AttrPlane]> {
        let a = self.attrs[0].get(k..k + n.min(4))?;
        self.uniform.then_some(a)
    }

    /// Perspective varyings `k..k + 4` of lanes of several primitives at the default
    /// position: [`Self::eval_at`]'s formula, each lane's four planes gathered at once
    /// (lanes of one primitive in a row read them once). False when a lane's primitive
    /// lacks them (`out` untouched then).
    fn mixed_planes_4(&self, k: usize, out: &mut [[u32; LANES]; 4]) -> bool {
        // Per lane, its four components as one small vector (each lane's planes are
        // contiguous), then one transpose into the registers: scattering the planes
        // into per-component arrays first stalled on store forwarding.
        let l = self.lanes;
        let mut res = [[0u32; 4]; LANES];
        let mut prev: &[AttrPlane] = &[];
        let (mut c, mut dx, mut dy) = ([0.0f32; 4], [0.0f32; 4], [0.0f32; 4]);
        for (i, attrs) in self.attrs.iter().enumerate() {
            if i == 0 || !std::ptr::eq(*attrs, prev) {
                let Some(a) = attrs.get(k..k + 4) else {
                    return false;
                };
                for (comp, a) in a.iter().enumerate().take(4) {
                    c[comp] = a.plane.c;
                    dx[comp] = a.plane.dx;
                    dy[comp] = a.plane.dy;
                }
                prev = attrs;
            }
            let (rx, ry, w) = (l.rx[i], l.ry[i], l.w[i]);
            for comp in 0..4 {
                res[i][comp] = ((c[comp] + dx[comp] * rx + dy[comp] * ry) * w).to_bits();
            }
        }
        for comp in 0..4 {
            for i in 0..LANES {
                out[comp][i] = res[i][comp];
            }
        }
        true
    }

    /// Evaluates varying `k` at the given positions relative to each lane's primitive
    /// origin; `w` is the perspective factor there when the caller has it.
    fn eval_at(
        &self,
        k: usize,
        rx: &[f32; LANES],
        ry: &[f32; LANES],
        w: Option<&[f32; LANES]>,
        out: &mut [u32; LANES],
    ) {
        // Each lane's plane, gathered first, so the arithmetic below is one loop over
        // the lanes whatever the mix of primitives (and the same formula, bit for bit).
        let mut c = [0.0f32; LANES];
        let mut dx = [0.0f32; LANES];
        let mut dy = [0.0f32; LANES];
        let mut flat = [0u32; LANES];
        for (i, attrs) in self.attrs.iter().enumerate() {
            let Some(a) = attrs.get(k) else {
                *out = [0; LANES];
                return;
            };
            c[i] = a.plane.c;
            dx[i] = a.plane.dx;
            dy[i] = a.plane.dy;
            flat[i] = a.flat;
        }
        let at = |i: usize| c[i] + dx[i] * rx[i] + dy[i] * ry[i];
        match self.info.interp(k).mode {
            InterpMode::Flat => *out = flat,
            InterpMode::NoPerspective => {
                for i in 0..LANES {
                    out[i] = at(i).to_bits();
                }
            }
            InterpMode::Perspective => match w {
                Some(w) => {
                    for i in 0..LANES {
                        out[i] = (at(i) * w[i]).to_bits();
                    }
                }
                None => {
                    for i in 0..LANES {
                        let inv_w = self.prim(i).inv_w.at(rx[i], ry[i]);
                        let w = if inv_w != 0.0 { 1.0 / inv_w } else { 0.0 };
                        out[i] = (at(i) * w).to_bits();
                    }
                }
            },
        }
    }

    /// Position of lane `i`'s pixel corner relative to the plane origin.
    #[inline]
    fn corner(&self, i: usize) -> (f32, f32) {
        let p = self.prim(i);
        (self.lanes.x[i] as f32 - p.ox, self.lanes.y[i] as f32 - p.oy)
    }

    /// IPAC: varying `k` at each lane's centroid (the centre when fully covered or a
    /// helper, else the first covered sample in pattern order).
    pub fn interpolate_at_centroid(&self, k: usize, out: &mut [u32; LANES]) {
        let full = if self.sample_pos.len() >= 32 {
            u32::MAX
        } else {
            (1u32 << self.sample_pos.len()) - 1
        };
        let mut rx = [0.0; LANES];
        let mut ry = [0.0; LANES];
        for i in 0..LANES {
            let (cx, cy) = self.corner(i);
            let cov = self.lanes.coverage[i] & full;
            let p = if cov == 0 || cov == full {
                [0.5, 0.5]
            } else {
                self.sample_pos
                    .get(cov.trailing_zeros() as usize)
                    .copied()
                    .unwrap_or([0.5, 0.5])
            };
            rx[i] = cx + p[0];
            ry[i] = cy + p[1];
        }
        self.eval_at(k, &rx, &ry, None, out);
    }

    /// IPAS: varying `k` at sample `sample[lane]` of each lane's pixel (the centre when
    /// the index is out of range).
    pub fn interpolate_at_sample(&self, k: usize, sample: &[u32; LANES], out: &mut [u32; LANES]) {
        let mut rx = [0.0; LANES];
        let mut ry = [0.0; LANES];
        for i in 0..LANES {
            let (cx, cy) = self.corner(i);
            let p = self
                .sample_pos
                .get(sample[i] as usize)
                .copied()
                .unwrap_or([0.5, 0.5]);
            rx[i] = cx + p[0];
            ry[i] = cy + p[1];
        }
        self.eval_at(k, &rx, &ry, None, out);
    }

    /// IPAO: varying `k` at the pixel centre plus `(dx[lane], dy[lane])` pixels. The
    /// caller applies the program's offset clamping/rounding rules.
    pub fn interpolate_at_offset(
        &self,
        k: usize,
        dx: &[f32; LANES],
        dy: &[f32; LANES],
        out: &mut [u32; LANES],
    ) {
        let mut rx = [0.0; LANES];
        let mut ry = [0.0; LANES];
        for i in 0..LANES {
            let (cx, cy) = self.corner(i);
            rx[i] = cx + 0.5 + dx[i];
            ry[i] = cy + 0.5 + dy[i];
        }
        self.eval_at(k, &rx, &ry, None, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::{force, Isa};
    use proptest::prelude::*;

    /// A value for the flat-plane tests: ordinary, special (±0, ±inf, NaN payloads quiet
    /// and signalling, denormals) or raw bits.
    fn special(pick: u32, bits: u32) -> f32 {
        const S: [u32; 10] = [
            0,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_1234,
            0xffa0_0001,
            1,
            0x8000_0003,
            0x3f80_0000,
            0x7f7f_ffff,
        ];
        match pick % 4 {
            0 => f32::from_bits(S[bits as usize % S.len()]),
            1 => f32::from_bits(bits),
            _ => ((bits % 4000) as f32 - 2000.0) / 512.0,
        }
    }

    /// Cases `flat_planes` must take and decline, whatever the proptest draws.
    #[test]
    fn flat_planes_takes_and_declines() {
        let planes = |c: f32, dx: f32, dy: f32| {
            [AttrPlane {
                plane: Plane { c, dx, dy },
                flat: 0,
            }; 4]
        };
        let nan = f32::from_bits(0x7fa0_0001);
        // Taken: ±0 gradients with an ordinary, +0, infinite or NaN c.
        for (c, dx, dy) in [
            (0.5, 0.0, -0.0),
            (0.0, -0.0, -0.0),
            (f32::INFINITY, 0.0, 0.0),
            (nan, -0.0, 0.0),
        ] {
            assert!(
                flat_planes(&planes(c, dx, dy), 1.0, 3.5, -7.25).is_some(),
                "{c} {dx} {dy}"
            );
        }
        // Declined: -0 c, a nonzero or NaN gradient, NaN w, an infinite or NaN origin.
        assert!(flat_planes(&planes(-0.0, 0.0, 0.0), 1.0, 0.0, 0.0).is_none());
        assert!(flat_planes(&planes(0.5, 1e-30, 0.0), 1.0, 0.0, 0.0).is_none());
        assert!(flat_planes(&planes(0.5, 0.0, f32::NAN), 1.0, 0.0, 0.0).is_none());
        assert!(flat_planes(&planes(0.5, 0.0, 0.0), f32::NAN, 0.0, 0.0).is_none());
        assert!(flat_planes(&planes(0.5, 0.0, 0.0), 1.0, f32::INFINITY, 0.0).is_none());
        assert!(flat_planes(&planes(0.5, 0.0, 0.0), 1.0, 0.0, f32::NAN).is_none());
        // 0·inf: the default NaN, as the per-lane formula gives.
        let v = flat_planes(&planes(f32::INFINITY, 0.0, 0.0), 0.0, 0.0, 0.0);
        assert!(v.is_some_and(|v| f32::from_bits(v[0]).is_nan()));
    }

    /// A copy of `start`'s rows after `store` wrote into them, and what it returned.
    fn stored<R>(
        start: &[[u32; 8]],
        store: impl FnOnce(&mut [&mut [u32; 8]]) -> R,
    ) -> (Vec<[u32; 8]>, R) {
        let mut got = start.to_vec();
        let mut rows: Vec<&mut [u32; 8]> = got.iter_mut().collect();
        let r = store(&mut rows);
        (got, r)
    }

    proptest! {
        /// Where `flat_planes` gives a value, every lane of every strip position the
        /// per-lane formula evaluates (`planes_origin`, under each instruction set) has
        /// its bits: planes with ±0 gradients and special values of c, w and the origin.
        #[test]
        fn flat_planes_equal_planes_at_origin(
            c in any::<[(u32, u32); 4]>(),
            grads in any::<[(u8, u32, u32); 4]>(),
            (w, o) in (any::<(u32, u32)>(), any::<[(u32, u32); 2]>()),
            (bx, qy) in (-4096i32..4096, -4096i32..4096),
        ) {
            // Gradients mostly ±0 (1 in 8 something else), so most cases are flat.
            let grad = |pick: u8, sign: u32, bits: u32| match pick % 8 {
                0 => special(bits, bits >> 3),
                _ => f32::from_bits(sign & 0x8000_0000),
            };
            let planes: [AttrPlane; 4] = std::array::from_fn(|k| AttrPlane {
                plane: Plane {
                    c: special(c[k].0, c[k].1),
                    dx: grad(grads[k].0, grads[k].1, grads[k].2),
                    dy: grad(grads[k].0 >> 3, grads[k].2, grads[k].1),
                },
                flat: 0,
            });
            let w = special(w.0, w.1);
            let (ox, oy) = (special(o[0].0 | 2, o[0].1), special(o[1].0 | 2, o[1].1));
            // The origins mostly finite and small, sometimes anything.
            let (ox, oy) = match o[0].0 % 8 {
                0 => (special(o[0].0, o[0].1), special(o[1].0, o[1].1)),
                _ => (ox, oy),
            };
            let Some(v) = flat_planes(&planes, w, ox, oy) else {
                return Ok(());
            };
            let at = StripOrigin { bx, qy, w };
            for isa in [Isa::Baseline, Isa::Avx2, Isa::Avx512] {
                if force(isa) != isa {
                    continue;
                }
                let mut out = [[0u32; LANES]; 4];
                planes_origin(&planes, &at, ox, oy, &mut out);
                for (k, comp) in out.iter().enumerate() {
                    prop_assert!(
                        comp.iter().all(|&b| b == v[k]),
                        "{:?}: component {} is {:08x}, lanes {:08x?}", isa, k, v[k], comp
                    );
                }
            }
            force(Isa::Avx512);
        }

        /// The store of a block of one colour writes what the block store writes for
        /// the same colour in every lane, with every instruction set; with AVX-512 its
        /// kernel ran.
        #[test]
        fn store_block_flat_equals_store_block(
            pick in any::<[(u32, u32); 4]>(),
            cov in any::<[[bool; LANES]; 4]>(),
            (n, alpha_one, seed) in (0usize..=4, any::<bool>(), any::<u32>()),
        ) {
            let color = pick.map(|(p, b)| special(p, b).to_bits());
            let cov = cov.map(|s| s.map(|l| u32::from(l) * (seed | 1)));
            let start: Vec<[u32; 8]> = (0..8u32)
                .map(|r| std::array::from_fn(|i| (r * 8 + i as u32).wrapping_mul(2_654_435_761) ^ seed))
                .collect();
            let lanes = color.map(|c| [c; LANES]);
            let colors: Vec<&[[u32; LANES]; 4]> = (0..n).map(|_| &lanes).collect();
            let covs: Vec<&[u32; LANES]> = cov.iter().take(n).collect();
            let mut want = start.clone();
            for k in 0..n {
                let [a, b] = &mut want[2 * k..2 * k + 2] else { unreachable!() };
                store_strip(&mut [a, b], Some(&lanes), alpha_one, &cov[k], 0);
            }
            for isa in [Isa::Baseline, Isa::Avx2, Isa::Avx512] {
                if force(isa) != isa {
                    continue;
                }
                let (got, ()) = stored(&start, |rows| store_block(rows, &colors, alpha_one, &covs));
                prop_assert!(got == want, "{:?}", isa);
                let (got, ()) =
                    stored(&start, |rows| store_block_flat(rows, color, alpha_one, &covs));
                prop_assert!(got == want, "flat, {:?}", isa);
                let word = crate::block::pack_word(color, alpha_one);
                let (got, ran) =
                    stored(&start, |rows| crate::simd::store_block_word(rows, word, &covs));
                prop_assert_eq!(ran, isa == Isa::Avx512);
                if ran {
                    prop_assert!(got == want);
                }
            }
            force(Isa::Avx512);
        }

        /// The block store writes what the reference strip store writes (`store_strip`
        /// of each strip, no lane killed), with every instruction set; with AVX-512 its
        /// kernel ran.
        #[test]
        fn store_block_equals_strip_stores(
            c in any::<[[[u32; LANES]; 4]; 4]>(),
            cov in any::<[[bool; LANES]; 4]>(),
            (n, alpha_one, seed) in (0usize..=4, any::<bool>(), any::<u32>()),
        ) {
            // Colours in and around [0, 1], with NaN, infinities, -0 and raw bits.
            let c = c.map(|s| s.map(|ch| ch.map(|b| match b % 8 {
                0 => b,
                1 => [f32::NAN, f32::INFINITY, -0.0, f32::NEG_INFINITY][(b >> 3) as usize % 4]
                    .to_bits(),
                _ => (((b >> 8) % 1200) as f32 / 1000.0 - 0.1).to_bits(),
            })));
            let cov = cov.map(|s| s.map(|l| u32::from(l) * (seed | 1)));
            let start: Vec<[u32; 8]> = (0..8u32)
                .map(|r| std::array::from_fn(|i| (r * 8 + i as u32).wrapping_mul(2_654_435_761) ^ seed))
                .collect();
            let mut want = start.clone();
            for k in 0..n {
                let [a, b] = &mut want[2 * k..2 * k + 2] else { unreachable!() };
                store_strip(&mut [a, b], Some(&c[k]), alpha_one, &cov[k], 0);
            }
            let colors: Vec<&[[u32; LANES]; 4]> = c.iter().take(n).collect();
            let covs: Vec<&[u32; LANES]> = cov.iter().take(n).collect();
            for isa in [Isa::Baseline, Isa::Avx2, Isa::Avx512] {
                if force(isa) != isa {
                    continue;
                }
                let (got, ()) = stored(&start, |rows| store_block(rows, &colors, alpha_one, &covs));
                prop_assert!(got == want, "{:?}", isa);
                let (got, ran) = stored(&start, |rows| {
                    crate::simd::store_block_rgba8(rows, &colors, alpha_one, &covs)
                });
                prop_assert_eq!(ran, isa == Isa::Avx512);
                if ran {
                    prop_assert!(got == want);
                }
            }
            force(Isa::Avx512);
        }

        /// The multisampled block store writes what the reference strip store writes
        /// (`store_strip_samples` of each strip, no lane killed) at 2, 4, 8 and 16
        /// samples with any subset of each pixel's samples covered, with every
        /// instruction set; with AVX-512 its kernel ran.
        #[test]
        fn store_block_samples_equals_strip_stores(
            c in any::<[[[u32; LANES]; 4]; 4]>(),
            cov in any::<[[u16; LANES]; 4]>(),
            (n, alpha_one, seed, ns_at, full) in
                (0usize..=4, any::<bool>(), any::<u32>(), 0usize..4, any::<[bool; 4]>()),
        ) {
            let ns = [2usize, 4, 8, 16][ns_at];
            let all = (1u32 << ns) - 1;
            let c = c.map(|s| s.map(|ch| ch.map(|b| match b % 8 {
                0 => b,
                1 => [f32::NAN, f32::INFINITY, -0.0, f32::NEG_INFINITY][(b >> 3) as usize % 4]
                    .to_bits(),
                _ => (((b >> 8) % 1200) as f32 / 1000.0 - 0.1).to_bits(),
            })));
            // Some strips with every sample of every lane (the usual case), the others
            // any subset (0: the lane writes nothing).
            let cov: [[u32; LANES]; 4] = std::array::from_fn(|k| match full[k] {
                true => [all; LANES],
                false => cov[k].map(|m| u32::from(m) & all),
            });
            let start: Vec<Vec<u32>> = (0..8u32)
                .map(|r| (0..8 * ns as u32).map(|i| (r * 128 + i).wrapping_mul(2_654_435_761) ^ seed).collect())
                .collect();
            let mut want = start.clone();
            for k in 0..n {
                let [a, b] = &mut want[2 * k..2 * k + 2] else { unreachable!() };
                store_strip_samples(&mut [a, b], Some(&c[k]), alpha_one, ns, &cov[k], 0);
            }
            let colors: Vec<&[[u32; LANES]; 4]> = c.iter().take(n).collect();
            let covs: Vec<&[u32; LANES]> = cov.iter().take(n).collect();
            for isa in [Isa::Baseline, Isa::Avx2, Isa::Avx512] {
                if force(isa) != isa {
                    continue;
                }
                let mut got = start.clone();
                let mut rows: Vec<&mut [u32]> = got.iter_mut().map(|r| &mut r[..]).collect();
                store_block_samples(&mut rows, &colors, alpha_one, ns, &covs);
                prop_assert!(got == want, "{:?}, {} samples", isa, ns);
                let mut got = start.clone();
                let mut rows: Vec<&mut [u32]> = got.iter_mut().map(|r| &mut r[..]).collect();
                let ran =
                    crate::simd::store_block_samples_rgba8(&mut rows, &colors, alpha_one, ns, &covs);
                prop_assert_eq!(ran, isa == Isa::Avx512);
                if ran {
                    prop_assert!(got == want, "{} samples", ns);
                }
            }
            force(Isa::Avx512);
        }
    }
}
