//! Colour formats of attachments and conversions between stored words and f32.

use half::f16;
use std::sync::OnceLock;

/// Colour attachment formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorFormat {
    /// 8-bit normalised RGBA (GL_RGBA8).
    Rgba8Unorm,
    /// 8-bit sRGB-encoded colour with linear alpha (GL_SRGB8_ALPHA8); decoded and encoded
    /// only when GL_FRAMEBUFFER_SRGB asks for it.
    Srgb8Alpha8,
    /// 16-bit float RGBA (GL_RGBA16F).
    Rgba16F,
    /// 32-bit float RGBA (GL_RGBA32F).
    Rgba32F,
    /// 32-bit unsigned integer RGBA (GL_RGBA32UI): no blending.
    Rgba32Ui,
    /// 32-bit signed integer RGBA (GL_RGBA32I): no blending.
    Rgba32I,
}

impl ColorFormat {
    /// 32-bit words stored per sample.
    pub fn words(self) -> usize {
        match self {
            ColorFormat::Rgba8Unorm | ColorFormat::Srgb8Alpha8 => 1,
            ColorFormat::Rgba16F => 2,
            ColorFormat::Rgba32F | ColorFormat::Rgba32Ui | ColorFormat::Rgba32I => 4,
        }
    }
    /// Integer formats take raw integer outputs and are never blended.
    pub fn is_integer(self) -> bool {
        matches!(self, ColorFormat::Rgba32Ui | ColorFormat::Rgba32I)
    }
    /// Fixed-point formats clamp sources to [0, 1] and support logic ops.
    pub fn is_unorm(self) -> bool {
        matches!(self, ColorFormat::Rgba8Unorm | ColorFormat::Srgb8Alpha8)
    }
}

/// sRGB-encoded value → linear.
pub fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// Linear value → sRGB-encoded (clamped to [0, 1]).
pub fn linear_to_srgb(c: f32) -> f32 {
    let c = if c.is_nan() { 0.0 } else { c.clamp(0.0, 1.0) };
    if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

fn srgb_lut() -> &'static [f32; 256] {
    static LUT: OnceLock<[f32; 256]> = OnceLock::new();
    LUT.get_or_init(|| {
        let mut t = [0.0; 256];
        for (i, v) in t.iter_mut().enumerate() {
            *v = srgb_to_linear(i as f32 / 255.0);
        }
        t
    })
}

/// f32 → 8-bit UNORM, round to nearest (ties to even, as SSE conversions do); NaN → 0.
///
/// Adding 2^23 to a value in [0, 255] leaves a float whose unit in the last place is 1,
/// so the addition itself rounds to an integer and the low mantissa bits hold it. Only
/// float adds and bit operations: a loop over lanes vectorizes.
#[inline(always)]
#[allow(clippy::manual_clamp)] // clamp() keeps NaN; max/min turn it into 0 as wanted.
pub fn unorm8(v: f32) -> u32 {
    ((v.max(0.0).min(1.0) * 255.0) + 8_388_608.0).to_bits() & 0xff
}

/// Float RGBA → packed RGBA8 UNORM word (r in the low byte).
#[inline(always)]
pub fn pack_unorm8(c: [f32; 4]) -> u32 {
    unorm8(c[0]) | unorm8(c[1]) << 8 | unorm8(c[2]) << 16 | unorm8(c[3]) << 24
}

/// Stored words of one sample → float RGBA. Integer formats convert their values.
/// `decode_srgb`: sRGB attachments return linear values (GL_FRAMEBUFFER_SRGB on).
#[inline]
pub fn decode(format: ColorFormat, w: &[u32], decode_srgb: bool) -> [f32; 4] {
    let word = |i: usize| w.get(i).copied().unwrap_or(0);
    match format {
        ColorFormat::Rgba8Unorm | ColorFormat::Srgb8Alpha8 => {
            let p = word(0);
            let ch = |i: u32| ((p >> (8 * i)) & 0xff) as usize;
            if format == ColorFormat::Srgb8Alpha8 && decode_srgb {
                let lut = srgb_lut();
                [lut[ch(0)], lut[ch(1)], lut[ch(2)], ch(3) as f32 / 255.0]
            } else {
                [0, 1, 2, 3].map(|i| ch(i) as f32 / 255.0)
            }
        }
        ColorFormat::Rgba16F => {
            let h = |v: u32| f16::from_bits(v as u16).to_f32();
            let (a, b) = (word(0), word(1));
            [h(a), h(a >> 16), h(b), h(b >> 16)]
        }
        ColorFormat::Rgba32F => [0, 1, 2, 3].map(|i| f32::from_bits(word(i))),
        ColorFormat::Rgba32Ui => [0, 1, 2, 3].map(|i| word(i) as f32),
        ColorFormat::Rgba32I => [0, 1, 2, 3].map(|i| word(i) as i32 as f32),
    }
}

/// Float RGBA → stored words (`out` has `format.words()` entries). Integer formats take
/// `c` as already-raw bits via [`encode_raw`] instead; here they convert.
#[inline]
pub fn encode(format: ColorFormat, c: [f32; 4], encode_srgb: bool, out: &mut [u32]) {
    match format {
        ColorFormat::Rgba8Unorm | ColorFormat::Srgb8Alpha8 => {
            let s = format == ColorFormat::Srgb8Alpha8 && encode_srgb;
            let f = |v: f32| if s { linear_to_srgb(v) } else { v };
            let p =
                unorm8(f(c[0])) | unorm8(f(c[1])) << 8 | unorm8(f(c[2])) << 16 | unorm8(c[3]) << 24;
            if let Some(o) = out.get_mut(0) {
                *o = p;
            }
        }
        ColorFormat::Rgba16F => {
            let h = |v: f32| u32::from(f16::from_f32(v).to_bits());
            if let [a, b, ..] = out {
                *a = h(c[0]) | h(c[1]) << 16;
                *b = h(c[2]) | h(c[3]) << 16;
            }
        }
        ColorFormat::Rgba32F => {
            for (o, v) in out.iter_mut().zip(c) {
                *o = v.to_bits();
            }
        }
        ColorFormat::Rgba32Ui => {
            for (o, v) in out.iter_mut().zip(c) {
                *o = v as u32;
            }
        }
        ColorFormat::Rgba32I => {
            for (o, v) in out.iter_mut().zip(c) {
                *o = v as i32 as u32;
            }
        }
    }
}

/// Raw shader output words → stored words for integer formats (bits pass through).
#[inline]
pub fn encode_raw(c: [u32; 4], out: &mut [u32]) {
    for (o, v) in out.iter_mut().zip(c) {
        *o = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unorm8_rounds_and_clamps() {
        assert_eq!(unorm8(0.5), 128);
        assert_eq!(unorm8(1.5), 255);
        assert_eq!(unorm8(-1.0), 0);
        assert_eq!(unorm8(f32::NAN), 0);
        assert_eq!(unorm8(0.2), 51);
        for v in [
            -1.0,
            0.0,
            0.1,
            0.5,
            0.99,
            1.0,
            7.0,
            f32::NAN,
            f32::INFINITY,
            -f32::INFINITY,
        ] {
            assert_eq!(unorm8(v), unorm8(v), "{v}");
        }
    }

    #[test]
    fn srgb_round_trips_every_byte() {
        for i in 0..256u32 {
            let lin = srgb_to_linear(i as f32 / 255.0);
            assert_eq!(unorm8(linear_to_srgb(lin)), i);
        }
        assert!((srgb_to_linear(0.5) - 0.214_041).abs() < 1e-5);
    }

    #[test]
    fn encode_decode_each_format() {
        let c = [0.25, 0.5, 0.75, 1.0];
        for f in [
            ColorFormat::Rgba8Unorm,
            ColorFormat::Rgba16F,
            ColorFormat::Rgba32F,
        ] {
            let mut w = [0u32; 4];
            encode(f, c, false, &mut w);
            let d = decode(f, &w, false);
            for (a, b) in d.iter().zip(c) {
                assert!((a - b).abs() < 0.003, "{f:?}: {d:?}");
            }
        }
        let mut w = [0u32; 4];
        encode(
            ColorFormat::Srgb8Alpha8,
            [0.215_860_5, 0.0, 1.0, 0.5],
            true,
            &mut w,
        );
        assert_eq!(w[0] & 0xff, 128);
        encode(ColorFormat::Rgba32I, [-3.0, 2.0, 0.0, 1.0], false, &mut w);
        assert_eq!(w[0] as i32, -3);
    }
}
