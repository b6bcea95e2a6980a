//! The exact arithmetic steps of texture filtering: floor to an integer and the
//! linear-filter lerp. The per-lane reference and the batch fast path share them, so both
//! give the same bits.

/// floor() to an integer. `f32::floor` is a libm call on baseline x86-64 (no SSE4.1);
/// truncating and adjusting is exact for every value an i32 holds, and the saturating
/// casts keep huge or NaN coordinates in range (the wrap modes then handle them).
#[inline(always)]
pub(crate) fn floor_i(x: f32) -> i32 {
    let t = x as i32;
    if (t as f32) > x {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// ceil() to an integer (see [`floor_i`]).
#[inline(always)]
pub(crate) fn ceil_i(x: f32) -> i32 {
    floor_i(-x).saturating_neg()
}

/// Integer part and fraction (the linear-filter weight) of `x`.
#[inline(always)]
pub(crate) fn split(x: f32) -> (i32, f32) {
    let i = floor_i(x);
    (i, x - i as f32)
}

/// `a + (b - a) * t`, the one linear-filter step. A NaN result is the canonical quiet NaN:
/// Rust leaves the payload of an arithmetic NaN unspecified (the compiler may swap the
/// operands of `+` and `*`), so without this the bits would depend on code generation.
#[inline(always)]
pub(crate) fn lerp(a: f32, b: f32, t: f32) -> f32 {
    let r = a + (b - a) * t;
    if r.is_nan() {
        f32::NAN
    } else {
        r
    }
}

#[inline(always)]
pub(crate) fn lerp4(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
    [
        lerp(a[0], b[0], t),
        lerp(a[1], b[1], t),
        lerp(a[2], b[2], t),
        lerp(a[3], b[3], t),
    ]
}
