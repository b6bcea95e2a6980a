//! Which SIMD instruction set the block kernels (depth rows, colour packing and blending)
//! run with, chosen at run time — never by a build flag. This is the crate's one module
//! with `unsafe`; it follows glemu-textures' `simd` module, both taking the CPU's
//! detection from glemu-math.
//!
//! A kernel is written once as plain lane loops and compiled three times by
//! [`multiversion!`](crate::multiversion): for baseline x86-64 (SSE2), for AVX2 + FMA and
//! for AVX-512; the first call detects the CPU and every call takes the widest version it
//! supports. The arithmetic is the same IEEE operation in every version (Rust never fuses
//! a multiply and an add on its own), so the three give identical bits; the differential
//! tests run each of them (see [`force`]).

use std::sync::atomic::{AtomicU8, Ordering};

/// The instruction sets and the CPU's widest one: glemu-math's, shared by every crate
/// that chooses kernels at run time.
pub use glemu_math::{detected, Isa};

/// 0 = not decided yet, else `Isa as u8 + 1`.
static CHOSEN: AtomicU8 = AtomicU8::new(0);

fn encode(isa: Isa) -> u8 {
    isa as u8 + 1
}

/// The instruction set kernels run with: the detected one, lowered by the environment
/// variable `GLEMU_SIMD` (`baseline`, `avx2`, `avx512`) or by [`force`].
#[inline(always)]
pub fn isa() -> Isa {
    #[cfg(test)]
    if let Some(isa) = forced() {
        return isa;
    }
    match CHOSEN.load(Ordering::Relaxed) {
        1 => Isa::Baseline,
        2 => Isa::Avx2,
        3 => Isa::Avx512,
        _ => choose(),
    }
}

/// The first call's choice, out of line: with the environment lookup inside it, `isa`
/// was not inlined and every multiversioned kernel call paid a call to it (1.1 % of
/// blend_depth_1080p's profile).
#[cold]
#[inline(never)]
fn choose() -> Isa {
    let isa = glemu_math::requested();
    CHOSEN.store(encode(isa), Ordering::Relaxed);
    isa
}

/// Runs kernels with `isa` or the widest supported set below it (tests use this to
/// compare every version); returns the set now in use. In this crate's unit tests the
/// choice is the calling thread's (and the pools of rasterizers it then creates), so
/// that tests running in parallel do not change each other's paths halfway through a
/// comparison.
pub fn force(isa: Isa) -> Isa {
    let isa = isa.min(detected());
    #[cfg(test)]
    set_forced(Some(isa));
    #[cfg(not(test))]
    CHOSEN.store(encode(isa), Ordering::Relaxed);
    isa
}

#[cfg(test)]
thread_local! {
    /// [`force`]'s choice on this thread (unit tests only).
    static FORCED: std::cell::Cell<Option<Isa>> = const { std::cell::Cell::new(None) };
}

/// [`force`]'s choice on this thread, if any (unit tests only).
#[cfg(test)]
pub(crate) fn forced() -> Option<Isa> {
    FORCED.with(|f| f.get())
}

/// Sets this thread's forced instruction set (unit tests only; a rasterizer's pool
/// threads take their creator's).
#[cfg(test)]
pub(crate) fn set_forced(isa: Option<Isa>) {
    FORCED.with(|f| f.set(isa));
}

/// Defines `fn NAME(args) -> R { body }` compiled for each [`Isa`] and dispatching on
/// [`isa()`] at every call. The body and everything it calls that should be vectorised
/// with the wider instruction set must be `#[inline(always)]`.
macro_rules! multiversion {
    (
        $(#[$m:meta])*
        $vis:vis fn $name:ident $(<$(const $cn:ident : $ct:ty),*>)?
            ($($arg:ident : $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block
    ) => {
        $(#[$m])*
        $vis fn $name $(<$(const $cn: $ct),*>)? ($($arg: $ty),*) $(-> $ret)? {
            #[inline(always)]
            fn body $(<$(const $cn: $ct),*>)? ($($arg: $ty),*) $(-> $ret)? $body
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2,fma")]
            fn avx2 $(<$(const $cn: $ct),*>)? ($($arg: $ty),*) $(-> $ret)? {
                body $(::<$($cn),*>)? ($($arg),*)
            }
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
            fn avx512 $(<$(const $cn: $ct),*>)? ($($arg: $ty),*) $(-> $ret)? {
                body $(::<$($cn),*>)? ($($arg),*)
            }
            match $crate::simd::isa() {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: isa() returns Avx512 only when is_x86_feature_detected! found
                // avx512f, avx512bw, avx512dq, avx512vl, avx2 and fma: every feature
                // `avx512` is compiled with exists on this CPU.
                #[allow(unsafe_code)]
                $crate::simd::Isa::Avx512 => unsafe { avx512 $(::<$($cn),*>)? ($($arg),*) },
                #[cfg(target_arch = "x86_64")]
                // SAFETY: isa() returns Avx2 only when avx2 and fma were detected.
                #[allow(unsafe_code)]
                $crate::simd::Isa::Avx2 => unsafe { avx2 $(::<$($cn),*>)? ($($arg),*) },
                _ => body $(::<$($cn),*>)? ($($arg),*),
            }
        }
    };
}

pub(crate) use multiversion;

/// Asks the CPU to bring the cache lines of `rows` rows of `len` words of `plane` into
/// L1 (row r = words `start + r * stride ..`), for data a caller will touch soon; nothing
/// when the rows do not all lie in `plane`. Only a hint: it changes no value, so results
/// stay the same. One bounds check for all rows and a row's first and last words' lines
/// (plus those between for rows longer than a line): the per-row clipping and line loop
/// before were most of the block loop's prefetch time at one sample per pixel.
#[inline(always)]
pub(crate) fn prefetch_rows(plane: &[u32], start: usize, stride: usize, rows: usize, len: usize) {
    // Words per 64-byte cache line.
    const LINE: usize = 16;
    if rows == 0 || len == 0 {
        return;
    }
    let end = (rows - 1)
        .saturating_mul(stride)
        .saturating_add(len)
        .saturating_add(start);
    let Some(block) = plane.get(start..end) else {
        return;
    };
    for r in 0..rows {
        let Some(row) = block.get(r * stride..r * stride + len) else {
            return;
        };
        let mut i = 0;
        while let Some(w) = row.get(i) {
            prefetch(w);
            i += LINE;
        }
        // The last word's line too: a row need not start on a line.
        if let Some(w) = row.last() {
            prefetch(w);
        }
    }
}

/// [`prefetch_rows`] of eight rows of at most a line's words each (a one-sample block's
/// rows): each row's first and last words' lines, without the row and line loops. Those
/// loops made ~230 instructions of fill_1080p_mov's block (7 % of its instructions, by
/// cachegrind) for 32 hints.
#[inline(always)]
pub(crate) fn prefetch_short_rows(plane: &[u32], start: usize, stride: usize, len: usize) {
    const LINE: usize = 16;
    if len == 0 || len > LINE {
        return prefetch_rows(plane, start, stride, 8, len);
    }
    let end = stride
        .saturating_mul(7)
        .saturating_add(len)
        .saturating_add(start);
    let Some(block) = plane.get(start..end) else {
        return;
    };
    let p = block.as_ptr();
    for r in 0..8 {
        let first = p.wrapping_add(r * stride);
        prefetch_ptr(first);
        prefetch_ptr(first.wrapping_add(len - 1));
    }
}

/// Bit `lane` set where `words[lane]` is not zero: the live lanes of a strip's coverage.
/// Four compares and one movemask (SSE2, part of every x86-64); the loop over lanes it
/// replaces stayed scalar, 11 % of the block loop's samples at 2 threads.
#[inline(always)]
pub(crate) fn nonzero_lanes(words: &[u32; 16]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of the x86-64 baseline. The four unaligned 16-byte loads read
    // words 0-3, 4-7, 8-11 and 12-15 of `words`, all inside the borrowed array.
    #[allow(unsafe_code)]
    unsafe {
        use std::arch::x86_64::*;
        let p = words.as_ptr().cast::<__m128i>();
        let zero = _mm_setzero_si128();
        let q = |i: usize| _mm_cmpeq_epi32(_mm_loadu_si128(p.add(i)), zero);
        // Each word's "is zero" as a saturated 16- then 8-bit lane, in lane order.
        let lo = _mm_packs_epi32(q(0), q(1));
        let hi = _mm_packs_epi32(q(2), q(3));
        !(_mm_movemask_epi8(_mm_packs_epi16(lo, hi)) as u32) & 0xffff
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut live = 0u32;
        for (lane, &m) in words.iter().enumerate() {
            live |= u32::from(m != 0) << lane;
        }
        live
    }
}

/// The depth test of a one-sample block whose z is one word `z` for every pixel, with
/// AVX-512 (None on a CPU without it, or when `d` does not hold the block's eight rows):
/// `d` from the block's first row (row r = words `r * TILE ..`), `func` the unsigned
/// compare of z against each stored word, passing words rewritten with z when `write`;
/// strip k's lanes (rows 2k, 2k + 1, quad order) get 1 where the test passed and 0
/// elsewhere, and its live lanes are returned. The same words as the lane loops of
/// `block::depth_block_one` (which LLVM had vectorised across the rows: one scatter per
/// column to write them back): a strip's two rows are one 16-word vector, tested with
/// one compare and written back with two masked stores, and moved into lane order by
/// one fixed permutation.
#[inline(always)]
pub(crate) fn depth_flat_one(
    func: crate::state::CompareFunc,
    write: bool,
    z: u32,
    d: &mut [u32],
    out: &mut [[u32; 16]; 4],
) -> Option<[u32; 4]> {
    use crate::framebuffer::TILE;
    use crate::state::CompareFunc as F;
    if isa() != Isa::Avx512 {
        return None;
    }
    let d: &mut [u32; 7 * TILE + 8] = d.get_mut(..7 * TILE + 8)?.try_into().ok()?;
    #[cfg(target_arch = "x86_64")]
    {
        // The predicates of `vpcmpud` (z against the stored word): 0 EQ, 1 LT, 2 LE,
        // 3 FALSE, 4 NE, 5 NLT (>=), 6 NLE (>), 7 TRUE.
        let k = match func {
            F::Equal => depth_flat_avx512::<0>,
            F::Less => depth_flat_avx512::<1>,
            F::LessEqual => depth_flat_avx512::<2>,
            F::Never => depth_flat_avx512::<3>,
            F::NotEqual => depth_flat_avx512::<4>,
            F::GreaterEqual => depth_flat_avx512::<5>,
            F::Greater => depth_flat_avx512::<6>,
            F::Always => depth_flat_avx512::<7>,
        };
        // SAFETY: isa() returned Avx512 (checked above), which it does only when
        // avx512f, avx512bw, avx512dq, avx512vl, avx2 and fma were detected: every
        // feature the kernel is compiled with exists on this CPU.
        #[allow(unsafe_code)]
        let m = unsafe { k(write, z, d, out) };
        Some(std::array::from_fn(|k| (m >> (16 * k)) as u32 & 0xffff))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (func, write, z, d, out);
        None
    }
}

/// [`depth_flat_one`]'s kernel for the `vpcmpud` predicate `P`: strip k's live lanes
/// in bits 16k.. of the result (in a register: returned as an array, its four 4-byte
/// stores were read back with one 16-byte load, a store forwarding stall a block).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn depth_flat_avx512<const P: i32>(
    write: bool,
    z: u32,
    d: &mut [u32; 7 * crate::framebuffer::TILE + 8],
    out: &mut [[u32; 16]; 4],
) -> u64 {
    use crate::framebuffer::TILE;
    use std::arch::x86_64::*;
    // Lane 4q + j of a strip is row j >> 1, column 2q + (j & 1): in a row pair's
    // vector (row 0 in words 0-7, row 1 in 8-15) that is word 8 (j >> 1) + 2q + (j & 1).
    let perm = _mm512_setr_epi32(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
    let zv = _mm512_set1_epi32(z as i32);
    let one = _mm512_set1_epi32(1);
    let mut lives = 0u64;
    let p = d.as_mut_ptr();
    for (k, o) in out.iter_mut().enumerate() {
        // SAFETY: rows 2k and 2k + 1 (k < 4) start at words 2k·TILE and (2k + 1)·TILE,
        // at most 7·TILE, and are 8 words long: inside the 7·TILE + 8 words of `d`. The
        // 256-bit loads and masked stores need no alignment. `o` is a live 16-word array.
        #[allow(unsafe_code)]
        unsafe {
            let (a, b) = (p.add(2 * k * TILE), p.add((2 * k + 1) * TILE));
            let r0 = _mm256_loadu_si256(a.cast());
            let r1 = _mm256_loadu_si256(b.cast());
            let rows = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(r0), r1);
            // Rows and lanes each with their own compare: the rows' mask for the
            // stores, the lanes' for the strip (no moves of mask bits between them).
            let pass = _mm512_cmp_epu32_mask::<P>(zv, rows);
            if write {
                let z8 = _mm512_castsi512_si256(zv);
                _mm256_mask_storeu_epi32(a.cast(), pass as u8, z8);
                _mm256_mask_storeu_epi32(b.cast(), (pass >> 8) as u8, z8);
            }
            let lanes = _mm512_permutexvar_epi32(perm, rows);
            let live = _mm512_cmp_epu32_mask::<P>(zv, lanes);
            _mm512_storeu_si512(o.as_mut_ptr().cast(), _mm512_maskz_mov_epi32(live, one));
            lives |= u64::from(live) << (16 * k);
        }
    }
    lives
}

/// [`depth_flat_one`] for `NS` = 2 or 4 samples a pixel (rows of `8 * NS` words, a
/// pixel's samples adjacent), the samples of `cov` live: each row tested in 16-word
/// vectors with one compare each (masked by the live samples) and written back with
/// masked stores, and each lane's pixel mask cut out of its row's mask bits by a
/// per-lane shift. Where the lane loops or-ed each pixel's words together (`pixel_masks`:
/// ~72 instructions a row at four samples). None as [`depth_flat_one`].
#[inline(always)]
pub(crate) fn depth_flat_samples<const NS: usize>(
    func: crate::state::CompareFunc,
    write: bool,
    z: u32,
    cov: u32,
    d: &mut [u32],
    out: &mut [[u32; 16]; 4],
) -> Option<[u32; 4]> {
    use crate::framebuffer::TILE;
    use crate::state::CompareFunc as F;
    if isa() != Isa::Avx512 || !(NS == 2 || NS == 4) {
        return None;
    }
    let d = d.get_mut(..7 * TILE * NS + 8 * NS)?;
    #[cfg(target_arch = "x86_64")]
    {
        let k = match func {
            F::Equal => depth_flat_samples_avx512::<0, NS>,
            F::Less => depth_flat_samples_avx512::<1, NS>,
            F::LessEqual => depth_flat_samples_avx512::<2, NS>,
            F::Never => depth_flat_samples_avx512::<3, NS>,
            F::NotEqual => depth_flat_samples_avx512::<4, NS>,
            F::GreaterEqual => depth_flat_samples_avx512::<5, NS>,
            F::Greater => depth_flat_samples_avx512::<6, NS>,
            F::Always => depth_flat_samples_avx512::<7, NS>,
        };
        // SAFETY: isa() returned Avx512 (checked above), which it does only when
        // avx512f, avx512bw, avx512dq, avx512vl, avx2 and fma were detected: every
        // feature the kernel is compiled with exists on this CPU. `d` holds the block's
        // 7·TILE·NS + 8·NS words, which the kernel reads and writes within.
        #[allow(unsafe_code)]
        let m = unsafe { k(write, z, cov, d, out) };
        Some(std::array::from_fn(|k| (m >> (16 * k)) as u32 & 0xffff))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (func, write, z, cov, d, out);
        None
    }
}

/// [`depth_flat_samples`]' kernel for the `vpcmpud` predicate `P` (as
/// [`depth_flat_avx512`]); strip k's live lanes in bits 16k.. of the result.
///
/// # Safety
/// `d` must hold at least 7·TILE·NS + 8·NS words (NS = 2 or 4), and the CPU must have
/// the features the kernel is compiled with.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
#[allow(unsafe_code)]
unsafe fn depth_flat_samples_avx512<const P: i32, const NS: usize>(
    write: bool,
    z: u32,
    cov: u32,
    d: &mut [u32],
    out: &mut [[u32; 16]; 4],
) -> u64 {
    use crate::framebuffer::TILE;
    use std::arch::x86_64::*;
    let full = (1u32 << NS) - 1;
    let cov = cov & full;
    // The live samples of a 16-word vector (16 / NS pixels): cov in each pixel's bits.
    let live = match NS {
        2 => (cov * 0x5555) as u16,
        _ => (cov * 0x1111) as u16,
    };
    // Lane 4q + j of a strip is row j >> 1, column 2q + (j & 1): its pixel's samples
    // are bits NS·column .. of that row's mask.
    let col = _mm512_setr_epi32(0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7);
    let shift = _mm512_mullo_epi32(col, _mm512_set1_epi32(NS as i32));
    let zv = _mm512_set1_epi32(z as i32);
    let pixel = _mm512_set1_epi32(full as i32);
    let mut lives = 0u64;
    let p = d.as_mut_ptr();
    for (k, o) in out.iter_mut().enumerate() {
        let mut m = [0u32; 2];
        for (rr, mr) in m.iter_mut().enumerate() {
            let row = p.add((2 * k + rr) * TILE * NS);
            for c in 0..NS / 2 {
                // SAFETY: row 2k + rr (at most 7) starts at word (2k + rr)·TILE·NS and
                // its 8·NS words (NS / 2 vectors of 16) lie within the 7·TILE·NS + 8·NS
                // words of `d` (the caller's contract); no alignment is needed.
                let w = row.add(16 * c);
                let st = _mm512_loadu_si512(w.cast());
                let pass = _mm512_mask_cmp_epu32_mask::<P>(live, zv, st);
                if write {
                    _mm512_mask_storeu_epi32(w.cast(), pass, zv);
                }
                *mr |= u32::from(pass) << (16 * c);
            }
        }
        // Row 2k's mask in the lanes of row 0 (j = 0, 1), row 2k + 1's in the others.
        let rows = _mm512_mask_blend_epi32(
            0xcccc,
            _mm512_set1_epi32(m[0] as i32),
            _mm512_set1_epi32(m[1] as i32),
        );
        let masks = _mm512_and_si512(_mm512_srlv_epi32(rows, shift), pixel);
        _mm512_storeu_si512(o.as_mut_ptr().cast(), masks);
        lives |= u64::from(_mm512_test_epi32_mask(masks, masks)) << (16 * k);
    }
    lives
}

/// `shader::store_block` with AVX-512 (false on a CPU without it, for the lane loops to
/// do it): each strip's four channels packed as RGBA8 UNORM (`color::unorm8`'s
/// operations in its order), put into row order by one fixed permutation and stored
/// into its two rows with masked stores where its coverage is not 0. The lane loops
/// took two shuffles a row for the colours, as many for the coverage, and a load of
/// each row to merge into.
#[inline(always)]
pub(crate) fn store_block_rgba8(
    rows: &mut [&mut [u32; 8]],
    colors: &[&[[u32; 16]; 4]],
    alpha_one: bool,
    covs: &[&[u32; 16]],
) -> bool {
    if isa() != Isa::Avx512 {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: isa() returned Avx512 (checked above), which it does only when
        // avx512f, avx512bw, avx512dq, avx512vl, avx2 and fma were detected: every
        // feature the kernel is compiled with exists on this CPU.
        #[allow(unsafe_code)]
        unsafe {
            store_block_avx512(rows, colors, alpha_one, covs)
        };
        true
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (rows, colors, alpha_one, covs);
        false
    }
}

/// [`store_block_rgba8`]'s kernel.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn store_block_avx512(
    rows: &mut [&mut [u32; 8]],
    colors: &[&[[u32; 16]; 4]],
    alpha_one: bool,
    covs: &[&[u32; 16]],
) {
    use std::arch::x86_64::*;
    // Word c of row r (r = 0, 1) of a strip is lane 4 (c >> 1) + 2r + (c & 1).
    let order = _mm512_setr_epi32(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
    for (k, (c, cov)) in colors.iter().zip(covs).enumerate() {
        let Some([r0, r1]) = rows.get_mut(2 * k..2 * k + 2) else {
            continue;
        };
        let packed = pack_rgba8_avx512(c, alpha_one);
        // SAFETY: the load reads the whole borrowed 16-word `cov`, and each masked store
        // writes within one borrowed 8-word row; none needs alignment.
        #[allow(unsafe_code)]
        unsafe {
            let words = _mm512_permutexvar_epi32(order, packed);
            let cv = _mm512_permutexvar_epi32(order, _mm512_loadu_si512(cov.as_ptr().cast()));
            let m = _mm512_test_epi32_mask(cv, cv);
            _mm256_mask_storeu_epi32(
                r0.as_mut_ptr().cast(),
                m as u8,
                _mm512_castsi512_si256(words),
            );
            let hi = _mm512_extracti64x4_epi64::<1>(words);
            _mm256_mask_storeu_epi32(r1.as_mut_ptr().cast(), (m >> 8) as u8, hi);
        }
    }
}

/// `shader::store_block_flat` with AVX-512 (false on a CPU without it, for the lane
/// loops to do it): the packed `word` stored into each strip's two rows where its
/// coverage is not 0, the coverage put into row order as [`store_block_rgba8`] puts it.
#[inline(always)]
pub(crate) fn store_block_word(rows: &mut [&mut [u32; 8]], word: u32, covs: &[&[u32; 16]]) -> bool {
    if isa() != Isa::Avx512 {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: isa() returned Avx512 (checked above), which it does only when
        // avx512f, avx512bw, avx512dq, avx512vl, avx2 and fma were detected: every
        // feature the kernel is compiled with exists on this CPU.
        #[allow(unsafe_code)]
        unsafe {
            store_block_word_avx512(rows, word, covs)
        };
        true
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (rows, word, covs);
        false
    }
}

/// [`store_block_word`]'s kernel.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn store_block_word_avx512(rows: &mut [&mut [u32; 8]], word: u32, covs: &[&[u32; 16]]) {
    use std::arch::x86_64::*;
    // As in `store_block_avx512`: word c of row r of a strip is lane 4 (c >> 1) + 2r +
    // (c & 1).
    let order = _mm512_setr_epi32(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
    let words = _mm256_set1_epi32(word as i32);
    for (k, cov) in covs.iter().enumerate() {
        let Some([r0, r1]) = rows.get_mut(2 * k..2 * k + 2) else {
            continue;
        };
        // SAFETY: the load reads the whole borrowed 16-word `cov`, and each masked store
        // writes within one borrowed 8-word row; none needs alignment.
        #[allow(unsafe_code)]
        unsafe {
            let cv = _mm512_permutexvar_epi32(order, _mm512_loadu_si512(cov.as_ptr().cast()));
            let m = _mm512_test_epi32_mask(cv, cv);
            _mm256_mask_storeu_epi32(r0.as_mut_ptr().cast(), m as u8, words);
            _mm256_mask_storeu_epi32(r1.as_mut_ptr().cast(), (m >> 8) as u8, words);
        }
    }
}

/// A strip's colour `c` (f32 bits, channel-major) as sixteen RGBA8 UNORM words, lane
/// order: `color::unorm8`'s operations in its order, max with 0 first (a NaN lane gives
/// 0: `vmaxps` returns its second operand then), min with 1, times 255, plus 2^23, the
/// low byte of the bits; alpha 255 with `alpha_one`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
#[inline]
fn pack_rgba8_avx512(c: &[[u32; 16]; 4], alpha_one: bool) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    let (zero, one) = (_mm512_setzero_ps(), _mm512_set1_ps(1.0));
    let (scale, magic) = (_mm512_set1_ps(255.0), _mm512_set1_ps(8_388_608.0));
    let byte = _mm512_set1_epi32(0xff);
    let alpha = _mm512_set1_epi32(if alpha_one { 0xff00_0000u32 as i32 } else { 0 });
    // SAFETY: each load reads one whole borrowed 16-word channel of `c`, unaligned.
    #[allow(unsafe_code)]
    let ch = |i: usize| unsafe {
        let v = _mm512_loadu_ps(c[i].as_ptr().cast());
        let v = _mm512_min_ps(_mm512_max_ps(v, zero), one);
        let v = _mm512_add_ps(_mm512_mul_ps(v, scale), magic);
        _mm512_and_si512(_mm512_castps_si512(v), byte)
    };
    let rg = _mm512_or_si512(ch(0), _mm512_slli_epi32::<8>(ch(1)));
    let ba = _mm512_or_si512(
        _mm512_slli_epi32::<16>(ch(2)),
        _mm512_slli_epi32::<24>(ch(3)),
    );
    _mm512_or_si512(_mm512_or_si512(rg, ba), alpha)
}

/// `shader::store_block_samples` with AVX-512 (false on a CPU without it, or for a
/// sample count other than 2, 4, 8 or 16, for the lane loops to do it): each strip's
/// colours packed once ([`pack_rgba8_avx512`]), then each row's `8 * ns` words as
/// 16-word vectors, each one permutation of the packed words and one of the coverage
/// words (a word's lane), one test against the word's sample bit and one masked store:
/// the rows are never read.
#[inline(always)]
pub(crate) fn store_block_samples_rgba8(
    rows: &mut [&mut [u32]],
    colors: &[&[[u32; 16]; 4]],
    alpha_one: bool,
    ns: usize,
    covs: &[&[u32; 16]],
) -> bool {
    if isa() != Isa::Avx512 {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    {
        let kernel = match ns {
            2 => store_samples_avx512::<2>,
            4 => store_samples_avx512::<4>,
            8 => store_samples_avx512::<8>,
            16 => store_samples_avx512::<16>,
            _ => return false,
        };
        // SAFETY: isa() returned Avx512 (checked above), which it does only when
        // avx512f, avx512bw, avx512dq, avx512vl, avx2 and fma were detected: every
        // feature the kernel is compiled with exists on this CPU.
        #[allow(unsafe_code)]
        unsafe {
            kernel(rows, colors, alpha_one, covs)
        };
        true
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (rows, colors, alpha_one, ns, covs);
        false
    }
}

/// [`store_block_samples_rgba8`]'s kernel for `NS` samples a pixel (2 to 16, a power of
/// two: a 16-word vector holds whole pixels, so every vector's words are the same
/// samples).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
fn store_samples_avx512<const NS: usize>(
    rows: &mut [&mut [u32]],
    colors: &[&[[u32; 16]; 4]],
    alpha_one: bool,
    covs: &[&[u32; 16]],
) {
    use std::arch::x86_64::*;
    let iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let low = _mm512_set1_epi32(NS as i32 - 1);
    // Word i of a vector is sample i % NS of its pixel.
    let bit = _mm512_sllv_epi32(_mm512_set1_epi32(1), _mm512_and_si512(iota, low));
    let log = _mm512_set1_epi32(NS.trailing_zeros() as i32);
    // The lane of each word of vector j (words 16j ..) of row r: pixel column
    // c = (16j + i) / NS, lane 4 (c >> 1) + 2r + (c & 1).
    let mut lanes = [[_mm512_setzero_si512(); 8]; 2];
    for (r, row) in lanes.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate().take(NS / 2) {
            let col = _mm512_srlv_epi32(
                _mm512_add_epi32(iota, _mm512_set1_epi32(16 * j as i32)),
                log,
            );
            let pair = _mm512_slli_epi32::<2>(_mm512_srli_epi32::<1>(col));
            let odd = _mm512_and_si512(col, _mm512_set1_epi32(1));
            *v = _mm512_or_si512(_mm512_or_si512(pair, odd), _mm512_set1_epi32(2 * r as i32));
        }
    }
    for (k, (c, cov)) in colors.iter().zip(covs).enumerate() {
        let Some(two) = rows.get_mut(2 * k..2 * k + 2) else {
            continue;
        };
        let packed = pack_rgba8_avx512(c, alpha_one);
        // SAFETY: the load reads the whole borrowed 16-word `cov`, unaligned.
        #[allow(unsafe_code)]
        let cv = unsafe { _mm512_loadu_si512(cov.as_ptr().cast()) };
        for (row, lanes) in two.iter_mut().zip(&lanes) {
            let Some(dst) = row.get_mut(..8 * NS) else {
                continue;
            };
            for (j, &at) in lanes.iter().enumerate().take(NS / 2) {
                let words = _mm512_permutexvar_epi32(at, packed);
                let m = _mm512_test_epi32_mask(_mm512_permutexvar_epi32(at, cv), bit);
                // SAFETY: `dst` holds 8·NS words and j < NS / 2, so the 16 words from
                // 16j lie in it; a masked store needs no alignment.
                #[allow(unsafe_code)]
                unsafe {
                    _mm512_mask_storeu_epi32(dst.as_mut_ptr().add(16 * j).cast(), m, words)
                };
            }
        }
    }
}

#[inline(always)]
fn prefetch(word: &u32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: PREFETCHT0 only hints the cache; it never faults and writes nothing, and
    // the address is that of a live `&u32`.
    #[allow(unsafe_code)]
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((word as *const u32).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = word;
}

#[inline(always)]
fn prefetch_ptr(word: *const u32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: PREFETCHT0 only hints the cache: it never faults, whatever the address
    // (`prefetch_short_rows` passes words of a row it has checked lie in its plane), and
    // writes nothing.
    #[allow(unsafe_code)]
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(word.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = word;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefetch_rows_takes_any_range() {
        // Rows past the plane, empty rows and no rows must not panic (the plane is
        // borrowed shared, so there are no values to check).
        let plane = vec![7u32; 100];
        for (start, stride, rows, len) in [
            (0, 10, 8, 8),
            (90, 10, 8, 8),
            (0, 50, 3, 8),
            (99, 1, 1, 1),
            (100, 1, 1, 1),
            (0, 0, 0, 8),
            (5, 10, 8, 0),
            (0, 16, 4, 40),
            (usize::MAX, usize::MAX, 8, usize::MAX),
        ] {
            prefetch_rows(&plane, start, stride, rows, len);
            prefetch_short_rows(&plane, start, stride, len);
        }
    }

    #[test]
    fn nonzero_lanes_sets_the_bits_of_nonzero_words() {
        let mut w = [0u32; 16];
        assert_eq!(nonzero_lanes(&w), 0);
        for lane in 0..16 {
            for v in [1, 0x8000_0000, u32::MAX, 0x0001_0000] {
                w = [0; 16];
                w[lane] = v;
                assert_eq!(nonzero_lanes(&w), 1 << lane, "lane {lane} value {v:#x}");
                let mut all = [v; 16];
                all[lane] = 0;
                assert_eq!(nonzero_lanes(&all), 0xffff & !(1 << lane));
            }
        }
    }

    #[test]
    fn forcing_never_exceeds_the_cpu() {
        assert_eq!(force(Isa::Baseline), Isa::Baseline);
        assert_eq!(isa(), Isa::Baseline);
        assert_eq!(force(Isa::Avx512), detected());
        assert_eq!(isa(), detected());
    }
}
