//! Which SIMD instruction set the sampling kernels run with, chosen at run time — never by
//! a build flag. This is the crate's one module with `unsafe`.
//!
//! A kernel is written once as plain lane loops and compiled three times by
//! [`multiversion!`](crate::multiversion): for baseline x86-64 (SSE2), for AVX2 + FMA and
//! for AVX-512; the first call detects the CPU and every call takes the widest version it
//! supports. The arithmetic is the same IEEE operation in every version (Rust never fuses
//! a multiply and an add on its own), so the three give identical bits; the differential
//! tests run each of them (see [`force`]). Kernels written with explicit intrinsics
//! ([`crate::avx2`]) are entered through this module too.

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
    if let Some(isa) = FORCED.with(|f| f.get()) {
        return isa;
    }
    match CHOSEN.load(Ordering::Relaxed) {
        1 => Isa::Baseline,
        2 => Isa::Avx2,
        3 => Isa::Avx512,
        _ => choose(),
    }
}

/// The first call's choice (out of line: the environment lookup kept [`isa`] from
/// inlining, and it was a call in every lookup).
#[cold]
#[inline(never)]
fn choose() -> Isa {
    let isa = glemu_math::requested();
    CHOSEN.store(encode(isa), Ordering::Relaxed);
    isa
}

/// Runs kernels with `isa` or the widest supported set below it (tests use this to
/// compare every version); returns the set now in use. In this crate's unit tests the
/// choice is the calling thread's, so that tests running in parallel do not change each
/// other's paths halfway through a comparison.
pub fn force(isa: Isa) -> Isa {
    let isa = isa.min(detected());
    #[cfg(test)]
    FORCED.with(|f| f.set(Some(isa)));
    #[cfg(not(test))]
    CHOSEN.store(encode(isa), Ordering::Relaxed);
    isa
}

#[cfg(test)]
thread_local! {
    /// [`force`]'s choice on this thread (unit tests only).
    static FORCED: std::cell::Cell<Option<Isa>> = const { std::cell::Cell::new(None) };
}

/// Defines `fn NAME(args) -> R { body }` compiled for each [`Isa`] and dispatching on
/// [`isa()`] at every call. The body and everything it calls that should be vectorised
/// with the wider instruction set must be `#[inline(always)]`.
#[macro_export]
#[doc(hidden)]
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

/// Runs `$call`, a call of a function compiled with the target features of `Isa::$isa`
/// (`Avx2`: `avx2,fma`; `Avx512`: `avx512f,avx512bw,avx512dq,avx512vl,avx2,fma`; every
/// caller below names one), when [`isa`] allows that set: true when it ran, false (nothing
/// run) when this CPU or [`force`] rules it out. With `$counter`, a run is counted there
/// in unit tests (they check that the kernel ran).
#[cfg(target_arch = "x86_64")]
macro_rules! isa_call {
    ($isa:ident, $call:expr) => {
        isa() >= Isa::$isa && {
            // SAFETY: isa() returns a set at or above `Isa::$isa` only when [`detected`]'s
            // is_x86_feature_detected! found every feature of that set (listed above),
            // the features the called function is compiled with.
            #[allow(unsafe_code)]
            unsafe {
                $call
            };
            true
        }
    };
    ($isa:ident, $call:expr, $counter:ident) => {{
        let ran = isa_call!($isa, $call);
        #[cfg(test)]
        if ran {
            $counter.with(|n| n.set(n.get() + 1));
        }
        ran
    }};
}

/// Bilinear RGBA8 lookups of eight lanes with the explicit AVX2 kernel
/// ([`crate::avx2::bilinear`]); false (nothing written) when this CPU or [`force`] rules
/// AVX2 out.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn bilinear_rgba8(
    p: &crate::avx2::Params,
    g: &crate::avx2::Group<'_>,
    out: &mut [[f32; crate::avx2::W]; 4],
) -> bool {
    isa_call!(Avx2, crate::avx2::bilinear(p, g, out), BILINEAR_GROUPS)
}

/// One group of a 2D RGBA8 lookup with the AVX2 kernel ([`crate::avx2::lookup`]);
/// false (nothing written) when this CPU or [`force`] rules AVX2 out.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn lookup_rgba8(
    p: &crate::avx2::Params,
    g0: &crate::avx2::Group<'_>,
    g1: Option<(&crate::avx2::Group<'_>, &[f32; crate::avx2::W], u32)>,
    linear: u32,
    swizzle: [crate::sampler::Swizzle; 4],
    mask: u32,
    out: [&mut [u32; crate::avx2::W]; 4],
) -> bool {
    isa_call!(
        Avx2,
        crate::avx2::lookup(p, g0, g1, linear, swizzle, mask, out)
    )
}

/// One group reading one level with one filter, with the AVX2 kernel
/// ([`crate::avx2::lookup_level`]); false (nothing written) when this CPU or [`force`]
/// rules AVX2 out.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn lookup_level<const MODE: u8, const LINEAR: bool>(
    p: &crate::avx2::Params,
    g: &crate::avx2::Group<'_>,
    swizzle: [crate::sampler::Swizzle; 4],
    mask: u32,
    out: [&mut [u32; crate::avx2::W]; 4],
) -> bool {
    isa_call!(
        Avx2,
        crate::avx2::lookup_level::<MODE, LINEAR>(p, g, swizzle, mask, out)
    )
}

/// Two groups reading one level with the bilinear filter, their channels decoded and
/// blended in 512-bit vectors ([`crate::avx2::lookup_level_pair`]); false (nothing
/// written) when this CPU or [`force`] rules AVX-512 out.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn lookup_level_pair<const MODE: u8>(
    p: &crate::avx2::Params,
    g0: &crate::avx2::Group<'_>,
    g1: &crate::avx2::Group<'_>,
    offset: [i32; 2],
    swizzle: [crate::sampler::Swizzle; 4],
    mask: u32,
    out: [&mut [u32; crate::avx2::PAIR]; 4],
) -> bool {
    isa_call!(
        Avx512,
        crate::avx2::lookup_level_pair::<MODE>(p, g0, g1, offset, swizzle, mask, out),
        LEVEL_PAIRS
    )
}

/// A [`Site`](crate::bound::Site)'s kernel: a plain function, or the sixteen-lane
/// AVX-512 kernel entered straight from the site's call ([`crate::avx2::site_level16`]),
/// which [`SiteKernel::level16`] hands out only where this CPU has AVX-512. The site's
/// call is then one indirect jump into the kernel: through a plain function that checked
/// the instruction set and called it, fill_1080p spent ~3 % of its time in that wrapper.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SiteKernel(SiteKernelFn);

type SiteKernelFn = unsafe fn(
    &crate::bound::Site,
    &[[u32; crate::bound::SITE_LANES]; 4],
    u64,
    &mut [[u32; crate::bound::SITE_LANES]; 4],
) -> bool;

impl SiteKernel {
    /// `f`, which any CPU runs.
    pub(crate) fn plain(f: crate::bound::SiteFn) -> SiteKernel {
        SiteKernel(f)
    }

    /// [`crate::avx2::site_level16`] with the wrap `MODE` and the swizzle fixed
    /// (`IDENTITY`), when [`isa`] allows AVX-512 now; `None` otherwise.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn level16<const MODE: u8, const IDENTITY: bool>() -> Option<SiteKernel> {
        (isa() >= Isa::Avx512).then_some(SiteKernel(
            crate::avx2::site_level16::<MODE, IDENTITY> as SiteKernelFn,
        ))
    }

    /// No wide kernel off x86-64.
    #[cfg(not(target_arch = "x86_64"))]
    pub(crate) fn level16<const MODE: u8, const IDENTITY: bool>() -> Option<SiteKernel> {
        None
    }

    /// Runs the kernel.
    #[inline(always)]
    pub(crate) fn call(
        self,
        site: &crate::bound::Site,
        coord: &[[u32; crate::bound::SITE_LANES]; 4],
        mask: u64,
        out: &mut [[u32; crate::bound::SITE_LANES]; 4],
    ) -> bool {
        // SAFETY: the pointer is either a safe function ([`SiteKernel::plain`]) or
        // `avx2::site_level16`, handed out by [`SiteKernel::level16`] only when isa()
        // returned Avx512, which it does only when [`detected`]'s is_x86_feature_detected!
        // found avx512f, avx512bw, avx512dq, avx512vl, avx2 and fma on this CPU: the
        // features that kernel is compiled with. A CPU's features do not change while
        // the process runs ([`force`] and `GLEMU_SIMD` only lower the choice below
        // them), and the kernel's own work is safe code.
        #[allow(unsafe_code)]
        unsafe {
            (self.0)(site, coord, mask, out)
        }
    }
}

/// One group reading two levels, bilinear in every lane, with the AVX2 kernel
/// ([`crate::avx2::lookup_two`]); false (nothing written) when this CPU or [`force`]
/// rules AVX2 out.
#[cfg(target_arch = "x86_64")]
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn lookup_two<const MODE: u8>(
    p: &crate::avx2::Params,
    g0: &crate::avx2::Group<'_>,
    g1: &crate::avx2::Group<'_>,
    weight: &[f32; crate::avx2::W],
    second: u32,
    swizzle: [crate::sampler::Swizzle; 4],
    mask: u32,
    out: [&mut [u32; crate::avx2::W]; 4],
) -> bool {
    isa_call!(
        Avx2,
        crate::avx2::lookup_two::<MODE>(p, g0, g1, weight, second, swizzle, mask, out),
        TWO_LEVELS
    )
}

/// The levels of two groups of eight lanes with the AVX2 kernel
/// ([`crate::lod_avx2::lod_pair`]) into `out`; false (nothing written) when this CPU or
/// [`force`] rules AVX2 out.
#[cfg(target_arch = "x86_64")]
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn lod_pair(
    p: &crate::lod_avx2::LodParams,
    from: crate::lod_avx2::LodFrom,
    lane_bias: bool,
    s: &[f32; 2 * crate::avx2::W],
    t: &[f32; 2 * crate::avx2::W],
    r: &[f32; 2 * crate::avx2::W],
    lod: &[f32; 2 * crate::avx2::W],
    mask: u32,
    out: &mut [crate::lod_avx2::GroupLod; 2],
) -> bool {
    isa_call!(
        Avx2,
        crate::lod_avx2::lod_pair(p, from, lane_bias, s, t, r, lod, mask, out)
    )
}

/// [`crate::lod_avx2::log2`] of four f32 bit patterns; `None` without AVX2 and FMA.
#[cfg(all(test, target_arch = "x86_64"))]
pub(crate) fn log2_bits(x: [u32; 4]) -> Option<[u32; 4]> {
    if detected() < Isa::Avx2 {
        return None;
    }
    // SAFETY: avx2 and fma were detected, the features `log2` is compiled with.
    #[allow(unsafe_code)]
    let r = unsafe { crate::lod_avx2::log2(bytemuck::cast(x)) };
    Some(bytemuck::cast(r))
}

#[cfg(test)]
thread_local! {
    /// Pairs of groups whose levels [`lod_pair`] chose, on this thread.
    pub(crate) static LOD_GROUPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Pairs of groups whose levels [`lod_pair`] chose once per quad, on this thread.
    pub(crate) static LOD_QUADS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Groups filtered with the wrap fixed when compiled (`avx2::filter_as`), on this
    /// thread.
    pub(crate) static FIXED_WRAP_FILTERS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Pairs of groups [`lookup_level_pair`] filtered, on this thread.
    pub(crate) static LEVEL_PAIRS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Groups [`lookup_two`] filtered at two levels, on this thread.
    pub(crate) static TWO_LEVELS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Groups whose taps `avx2::window` permuted out of whole rows, on this thread.
    pub(crate) static WINDOWS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Pairs of groups whose taps `avx2::taps16` permuted out of whole rows at once, on
    /// this thread.
    pub(crate) static WINDOWS16: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Calls `avx2::level16` did (its window taken), on this thread.
    pub(crate) static LEVELS16: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Channels `avx2::level16`'s window found the same in all its texels, on this
    /// thread.
    pub(crate) static FLAT16: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Windows of `avx2::level16` whose four channels were all flat, on this thread.
    pub(crate) static FLAT_WINDOWS16: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Calls of `avx2::level16` whose weights ruled NaN out (no canonicalisation), on
    /// this thread.
    pub(crate) static FINITE16: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Calls of [`gather16`] that gathered, on this thread.
    pub(crate) static GATHERS16: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Calls of [`gather_pairs`] that gathered, on this thread (tests prove the path ran).
    pub(crate) static GATHERS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Groups [`bilinear_rgba8`] ran through the AVX2 kernel, on this thread.
    pub(crate) static BILINEAR_GROUPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The texels `k` of RGBA8 `bytes` for sixteen lanes; `None` (nothing read) when a
/// lane's texel does not lie inside `bytes`.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
pub(crate) fn gather16(
    bytes: &[u8],
    k: std::arch::x86_64::__m512i,
) -> Option<std::arch::x86_64::__m512i> {
    use std::arch::x86_64::*;
    let texels = bytes.len() / 4;
    if !(1..=i32::MAX as usize).contains(&texels) {
        return None;
    }
    // Unsigned: a negative index is above every texel.
    let inside = _mm512_cmplt_epu32_mask(k, _mm512_set1_epi32(texels as i32));
    if inside != 0xffff {
        return None;
    }
    #[cfg(test)]
    GATHERS16.with(|g| g.set(g.get() + 1));
    // SAFETY: every lane of `k` lies in 0..texels (checked above, unsigned), so the 4
    // bytes at byte offset 4k (the gather scales the sign-extended i32 index by 4; each
    // index is below 2^31) end at 4k + 4 <= 4 * texels <= bytes.len(): the gather reads
    // only inside `bytes`, which is borrowed for the call. Unaligned elements are allowed
    // by vpgatherdd. AVX-512 F is enabled on this function, and its callers are AVX-512
    // functions entered only after isa() found AVX-512.
    #[allow(unsafe_code)]
    let t = unsafe { _mm512_i32gather_epi32::<4>(k, bytes.as_ptr().cast::<i32>()) };
    Some(t)
}

/// The texel pairs (texel `k`, texel `k + 1`) of RGBA8 `bytes` for the eight lanes of
/// `k`, as two vectors of four (left, right) 64-bit pairs (lanes 0-3, then 4-7); `None`
/// (nothing read) when a lane's pair does not lie inside `bytes`.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn gather_pairs(
    bytes: &[u8],
    k: std::arch::x86_64::__m256i,
) -> Option<(std::arch::x86_64::__m256, std::arch::x86_64::__m256)> {
    use std::arch::x86_64::*;
    let texels = bytes.len() / 4;
    if !(2..=i32::MAX as usize).contains(&texels) {
        return None;
    }
    let last = (texels - 2) as i32;
    let outside = _mm256_or_si256(
        _mm256_cmpgt_epi32(_mm256_setzero_si256(), k),
        _mm256_cmpgt_epi32(k, _mm256_set1_epi32(last)),
    );
    if _mm256_testz_si256(outside, outside) == 0 {
        return None;
    }
    #[cfg(test)]
    GATHERS.with(|g| g.set(g.get() + 1));
    // SAFETY: every lane of `k` lies in 0..=texels-2 (checked above), so the 8 bytes at
    // byte offset 4k (the gathers scale the sign-extended i32 index by 4) end at
    // 4k + 8 <= 4 * texels <= bytes.len(): both gathers read only inside `bytes`, which
    // is borrowed for the call. Unaligned 8-byte elements are allowed by vpgatherdq.
    // AVX2 is enabled on this function, and its callers are AVX2 functions entered only
    // after isa() found AVX2 and FMA.
    #[allow(unsafe_code)]
    let (lo, hi) = unsafe {
        let base = bytes.as_ptr().cast::<i64>();
        (
            _mm256_i32gather_epi64::<4>(base, _mm256_castsi256_si128(k)),
            _mm256_i32gather_epi64::<4>(base, _mm256_extracti128_si256::<1>(k)),
        )
    };
    Some((_mm256_castsi256_ps(lo), _mm256_castsi256_ps(hi)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forcing_never_exceeds_the_cpu() {
        assert_eq!(force(Isa::Baseline), Isa::Baseline);
        assert_eq!(isa(), Isa::Baseline);
        assert_eq!(force(Isa::Avx512), detected());
        assert_eq!(isa(), detected());
    }
}
