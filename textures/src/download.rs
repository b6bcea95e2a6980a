//! Pixel transfer out of the GL (`glReadPixels`, GL 4.6 §18.2): values read from a colour,
//! depth or stencil buffer are converted to client pixels of a format/type pair and
//! packed into rows padded to `PACK_ALIGNMENT` — the reverse of [`crate::upload`].
//!
//! The conversions are GL's "final conversion" (§18.2.8–18.2.9, table 18.7 / 8.7): float
//! values become unsigned normalized with `round(clamp(f, 0, 1) × (2^b − 1))` and signed
//! normalized with `round(clamp(f, −1, 1) × (2^(b−1) − 1))` (equations 2.3 / 2.4),
//! `HALF_FLOAT`/`FLOAT` keep the value, and integer values are clamped to the range of the
//! type. LUMINANCE is `R + G + B` (the compatibility profile's "conversion to L").

use crate::format::Format;
use crate::pack::{f32_to_snorm, f32_to_unorm};
use crate::upload::{PixelFormat, PixelType};
use half::f16;

/// One pixel as the read buffer holds it, before the final conversion.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum ReadColor {
    /// Fixed-point (already converted to `[0, 1]`) or floating-point components.
    Float([f32; 4]),
    /// Unsigned integer components.
    Uint([u32; 4]),
    /// Signed integer components.
    Sint([i32; 4]),
}

/// Why a format/type pair cannot be read, in the GL error it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackError {
    /// `INVALID_ENUM`.
    Enum(String),
    /// `INVALID_OPERATION`.
    Operation(String),
}

/// What a format reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reads {
    /// Colour components (fixed-point or float buffers).
    Color,
    /// Integer colour components.
    IntegerColor,
    /// Depth values.
    Depth,
    /// Stencil indices.
    Stencil,
    /// Depth and stencil packed together.
    DepthStencil,
}

impl PixelFormat {
    /// Which buffer a read in this format takes its values from.
    ///
    /// ```
    /// use glemu_textures::download::Reads;
    /// use glemu_textures::upload::PixelFormat;
    /// assert_eq!(PixelFormat::RgbaInteger.reads(), Reads::IntegerColor);
    /// assert_eq!(PixelFormat::Bgra.reads(), Reads::Color);
    /// ```
    pub fn reads(self) -> Reads {
        match self {
            PixelFormat::DepthComponent => Reads::Depth,
            PixelFormat::StencilIndex => Reads::Stencil,
            PixelFormat::DepthStencil => Reads::DepthStencil,
            f if f.is_integer() => Reads::IntegerColor,
            _ => Reads::Color,
        }
    }
}

/// Checks that `format`/`ty` make a readable pair (GL 4.6 §8.4.4.2 and §18.2.2): a packed
/// type must fit the format, the depth-stencil types go with `DEPTH_STENCIL` only, and an
/// integer format takes no float type.
///
/// ```
/// use glemu_textures::download::{check_pair, PackError};
/// use glemu_textures::upload::{PixelFormat as F, PixelType as T};
/// assert!(check_pair(F::Rgb, T::UnsignedShort565).is_ok());
/// assert!(matches!(check_pair(F::Rgba, T::UnsignedShort565), Err(PackError::Operation(_))));
/// assert!(matches!(check_pair(F::RgbaInteger, T::Float), Err(PackError::Operation(_))));
/// assert!(matches!(check_pair(F::DepthStencil, T::Float), Err(PackError::Enum(_))));
/// ```
pub fn check_pair(format: PixelFormat, ty: PixelType) -> Result<(), PackError> {
    use PixelType::*;
    let depth_stencil_type = matches!(ty, UnsignedInt248 | Float32UnsignedInt248Rev);
    if format == PixelFormat::DepthStencil {
        return match depth_stencil_type {
            true => Ok(()),
            false => Err(PackError::Enum(format!(
                "DEPTH_STENCIL reads take UNSIGNED_INT_24_8 or FLOAT_32_UNSIGNED_INT_24_8_REV, not {ty:?}"
            ))),
        };
    }
    if depth_stencil_type {
        return Err(PackError::Operation(format!(
            "{ty:?} is for DEPTH_STENCIL, not {format:?}"
        )));
    }
    if format.is_integer()
        && matches!(
            ty,
            HalfFloat | Float | UnsignedInt10f11f11fRev | UnsignedInt5999Rev
        )
    {
        return Err(PackError::Operation(format!(
            "integer format {format:?} with the float type {ty:?}"
        )));
    }
    let fits = match ty {
        UnsignedInt10f11f11fRev | UnsignedInt5999Rev => format == PixelFormat::Rgb,
        _ => match ty.fields() {
            Some(f) => {
                f.len() == format.slots().len()
                    && matches!(
                        format,
                        PixelFormat::Rgb
                            | PixelFormat::Bgr
                            | PixelFormat::Rgba
                            | PixelFormat::Bgra
                            | PixelFormat::RgbInteger
                            | PixelFormat::BgrInteger
                            | PixelFormat::RgbaInteger
                            | PixelFormat::BgraInteger
                    )
            }
            None => true,
        },
    };
    if !fits {
        return Err(PackError::Operation(format!(
            "the packed type {ty:?} does not fit {format:?}"
        )));
    }
    Ok(())
}

/// Bytes one row of `width` groups takes, padded to `alignment` (1, 2, 4 or 8).
///
/// ```
/// use glemu_textures::download::row_bytes;
/// use glemu_textures::upload::{PixelFormat as F, PixelType as T};
/// assert_eq!(row_bytes(F::Rgb, T::UnsignedByte, 5, 4), 16);
/// assert_eq!(row_bytes(F::Rgb, T::UnsignedByte, 5, 1), 15);
/// ```
pub fn row_bytes(format: PixelFormat, ty: PixelType, width: usize, alignment: usize) -> usize {
    let align = alignment.clamp(1, 8);
    (width * crate::upload::group_bytes(format, ty)).div_ceil(align) * align
}

/// Writes the low `n` bytes of `v` little-endian at the start of `out` (what a client
/// reading the buffer as its native types sees on the little-endian hosts glemu runs on).
#[inline(always)]
fn put(out: &mut [u8], n: usize, v: u64) {
    // Fixed-size copies: this runs once per component of every pixel read.
    fn copy<const N: usize>(out: &mut [u8], v: u64) {
        if let (Some(dst), Some(src)) = (out.get_mut(..N), v.to_le_bytes().get(..N)) {
            dst.copy_from_slice(src);
        }
    }
    match n {
        1 => copy::<1>(out, v),
        2 => copy::<2>(out, v),
        4 => copy::<4>(out, v),
        _ => copy::<8>(out, v),
    }
}

/// The element one component becomes in a non-packed type.
#[inline(always)]
fn element(ty: PixelType, c: Component) -> u64 {
    use PixelType::*;
    match c {
        Component::Float(f) => match ty {
            UnsignedByte => u64::from(f32_to_unorm(f, 8)),
            UnsignedShort => u64::from(f32_to_unorm(f, 16)),
            UnsignedInt => u64::from(f32_to_unorm(f, 32)),
            Byte => u64::from(f32_to_snorm(f, 8) as u8),
            Short => u64::from(f32_to_snorm(f, 16) as u16),
            Int => u64::from(f32_to_snorm(f, 32) as u32),
            HalfFloat => u64::from(f16::from_f32(f).to_bits()),
            _ => u64::from(f.to_bits()),
        },
        Component::Int(i) => {
            // Integers are clamped to the range of the type (§18.2.9).
            let clamp = |lo: i64, hi: i64| i.clamp(lo, hi) as u64;
            match ty {
                UnsignedByte => clamp(0, 0xff),
                UnsignedShort => clamp(0, 0xffff),
                UnsignedInt => clamp(0, 0xffff_ffff),
                Byte => u64::from(i.clamp(-128, 127) as i8 as u8),
                Short => u64::from(i.clamp(-32768, 32767) as i16 as u16),
                Int => u64::from(i.clamp(i32::MIN.into(), i32::MAX.into()) as i32 as u32),
                HalfFloat => u64::from(f16::from_f32(i as f32).to_bits()),
                _ => u64::from((i as f32).to_bits()),
            }
        }
    }
}

/// One component on its way out: a float, or an integer wide enough for both signed and
/// unsigned 32-bit values.
#[derive(Copy, Clone, Debug)]
enum Component {
    Float(f32),
    Int(i64),
}

impl ReadColor {
    fn component(self, i: usize) -> Component {
        match self {
            ReadColor::Float(c) => Component::Float(c[i]),
            ReadColor::Uint(c) => Component::Int(c[i].into()),
            ReadColor::Sint(c) => Component::Int(c[i].into()),
        }
    }
}

/// Converts one colour to a group of `format`/`ty` at the start of `out` (which holds
/// at least one group). The pair must have passed [`check_pair`].
///
/// ```
/// use glemu_textures::download::{pack_color, ReadColor};
/// use glemu_textures::upload::{PixelFormat as F, PixelType as T};
/// let mut out = [0u8; 4];
/// pack_color(F::Bgra, T::UnsignedByte, ReadColor::Float([1.0, 0.5, 0.0, 2.0]), &mut out);
/// assert_eq!(out, [0, 128, 255, 255]);
/// let mut out = [0u8; 2];
/// pack_color(F::Red, T::Short, ReadColor::Float([-1.0, 0.0, 0.0, 1.0]), &mut out);
/// assert_eq!(i16::from_le_bytes(out), -32767);
/// ```
#[inline]
pub fn pack_color(format: PixelFormat, ty: PixelType, c: ReadColor, out: &mut [u8]) {
    use PixelType::*;
    let float = |i: usize| match c.component(i) {
        Component::Float(f) => f,
        Component::Int(v) => v as f32,
    };
    let small_float = match ty {
        UnsignedInt10f11f11fRev => Some(Format::R11fG11fB10f),
        UnsignedInt5999Rev => Some(Format::Rgb9E5),
        _ => None,
    };
    if let Some(f) = small_float {
        let rgb = [float(0), float(1), float(2), 1.0].map(f32::to_bits);
        f.encode(rgb, out);
        return;
    }
    // Luminance is R + G + B, then converted like any component.
    let luminance = || match c {
        ReadColor::Float(v) => Component::Float(v[0] + v[1] + v[2]),
        _ => {
            let s = (0..3).map(|i| match c.component(i) {
                Component::Int(v) => v,
                Component::Float(f) => f as i64,
            });
            Component::Int(s.sum())
        }
    };
    let value = |slot: usize| match slot {
        4 => luminance(),
        s => c.component(s.min(3)),
    };
    match ty.fields() {
        Some(fields) => {
            let mut word = 0u64;
            for (&slot, &(shift, bits)) in format.slots().iter().zip(fields) {
                let max = (1u64 << bits) - 1;
                let v = match value(slot) {
                    Component::Float(f) => u64::from(f32_to_unorm(f, bits)),
                    Component::Int(i) => i.clamp(0, max as i64) as u64,
                };
                word |= v << shift;
            }
            put(out, ty.size(), word);
        }
        None => {
            let es = ty.size();
            for (k, &slot) in format.slots().iter().enumerate() {
                if let Some(dst) = out.get_mut(k * es..) {
                    put(dst, es, element(ty, value(slot)));
                }
            }
        }
    }
}

/// Converts a depth value and/or stencil index to a group of `format` (`DEPTH_COMPONENT`,
/// `STENCIL_INDEX` or `DEPTH_STENCIL`) and `ty` at the start of `out`.
///
/// ```
/// use glemu_textures::download::pack_depth_stencil;
/// use glemu_textures::upload::{PixelFormat as F, PixelType as T};
/// let mut out = [0u8; 4];
/// pack_depth_stencil(F::DepthStencil, T::UnsignedInt248, 1.0, 0x5a, &mut out);
/// assert_eq!(u32::from_le_bytes(out), 0xffff_ff5a);
/// pack_depth_stencil(F::DepthComponent, T::Float, 0.25, 0, &mut out);
/// assert_eq!(f32::from_le_bytes(out), 0.25);
/// ```
pub fn pack_depth_stencil(
    format: PixelFormat,
    ty: PixelType,
    depth: f32,
    stencil: u8,
    out: &mut [u8],
) {
    match (format, ty) {
        (PixelFormat::DepthStencil, PixelType::UnsignedInt248) => {
            put(
                out,
                4,
                u64::from(f32_to_unorm(depth, 24) << 8 | u32::from(stencil)),
            );
        }
        (PixelFormat::DepthStencil, _) => {
            put(
                out,
                8,
                u64::from(depth.to_bits()) | u64::from(stencil) << 32,
            );
        }
        (PixelFormat::StencilIndex, _) => {
            put(out, ty.size(), element(ty, Component::Int(stencil.into())));
        }
        _ => put(out, ty.size(), element(ty, Component::Float(depth))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PixelFormat as F;
    use PixelType as T;

    fn packed(format: F, ty: T, c: ReadColor) -> Vec<u8> {
        let mut out = vec![0u8; crate::upload::group_bytes(format, ty)];
        pack_color(format, ty, c, &mut out);
        out
    }

    #[test]
    fn float_colours_follow_the_normalized_formulas() {
        let c = ReadColor::Float([0.123_456, 2.5, -1.0, 1.0]);
        // Unsigned: clamp to [0, 1], round(f × 255).
        assert_eq!(packed(F::Rgba, T::UnsignedByte, c), [31, 255, 0, 255]);
        // Signed: clamp to [-1, 1], round(f × 127).
        assert_eq!(packed(F::Rgba, T::Byte, c), [16, 127, 0x81, 127]);
        let us: Vec<u16> = packed(F::Rgba, T::UnsignedShort, c)
            .chunks(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        assert_eq!(
            us,
            [(0.123_456f64 * 65535.0).round() as u16, 65535, 0, 65535]
        );
        let ui = packed(
            F::Red,
            T::UnsignedInt,
            ReadColor::Float([0.5, 0.0, 0.0, 0.0]),
        );
        assert_eq!(
            u32::from_le_bytes([ui[0], ui[1], ui[2], ui[3]]),
            0x8000_0000
        );
        // FLOAT keeps the value unclamped; HALF_FLOAT rounds it to half precision.
        let f = packed(F::Rgba, T::Float, c);
        let back: Vec<f32> = f
            .chunks(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        assert_eq!(back, [0.123_456, 2.5, -1.0, 1.0]);
        let h = packed(F::Rg, T::HalfFloat, c);
        let want = [f16::from_f32(0.123_456), f16::from_f32(2.5)].map(f16::to_bits);
        assert_eq!(h, [want[0].to_le_bytes(), want[1].to_le_bytes()].concat());
        assert_eq!(want[1], 0x4100);
    }

    #[test]
    fn integer_colours_clamp_to_the_type() {
        let c = ReadColor::Uint([123_456_789, 300, 0, 1]);
        let ui = packed(F::RedInteger, T::UnsignedInt, c);
        assert_eq!(
            u32::from_le_bytes([ui[0], ui[1], ui[2], ui[3]]),
            123_456_789
        );
        assert_eq!(packed(F::RgbaInteger, T::UnsignedByte, c), [255, 255, 0, 1]);
        assert_eq!(packed(F::RgInteger, T::Byte, c), [127, 127]);
        let s = ReadColor::Sint([-5, i32::MAX, i32::MIN, 7]);
        assert_eq!(packed(F::RgbaInteger, T::UnsignedByte, s), [0, 255, 0, 7]);
        let i: Vec<i32> = packed(F::RgbaInteger, T::Int, s)
            .chunks(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        assert_eq!(i, [-5, i32::MAX, i32::MIN, 7]);
        let u = ReadColor::Uint([u32::MAX, 0, 0, 0]);
        let v = packed(F::RedInteger, T::Int, u);
        assert_eq!(i32::from_le_bytes([v[0], v[1], v[2], v[3]]), i32::MAX);
        // Packed integer types clamp to each field.
        let p = packed(
            F::RgbaInteger,
            T::UnsignedInt2101010Rev,
            ReadColor::Uint([2000, 5, 6, 9]),
        );
        assert_eq!(
            u32::from_le_bytes([p[0], p[1], p[2], p[3]]),
            1023 | 5 << 10 | 6 << 20 | 3 << 30
        );
    }

    #[test]
    fn formats_pick_and_order_components() {
        let c = ReadColor::Float([0.2, 0.4, 0.6, 0.8]);
        assert_eq!(packed(F::Bgr, T::UnsignedByte, c), [153, 102, 51]);
        assert_eq!(packed(F::Green, T::UnsignedByte, c), [102]);
        assert_eq!(packed(F::Alpha, T::UnsignedByte, c), [204]);
        // L = R + G + B, clamped by the normalized conversion.
        assert_eq!(packed(F::LuminanceAlpha, T::UnsignedByte, c), [255, 204]);
        let l = packed(F::Luminance, T::Float, c);
        assert_eq!(
            f32::from_le_bytes([l[0], l[1], l[2], l[3]]),
            0.2 + 0.4 + 0.6
        );
        let p = packed(
            F::Rgb,
            T::UnsignedShort565,
            ReadColor::Float([1.0, 0.0, 1.0, 1.0]),
        );
        assert_eq!(u16::from_le_bytes([p[0], p[1]]), 0xf81f);
        let p = packed(F::Rgba, T::UnsignedInt8888, c);
        assert_eq!(u32::from_le_bytes([p[0], p[1], p[2], p[3]]), 0x3366_99cc);
    }

    #[test]
    fn small_float_types_round_trip() {
        let c = ReadColor::Float([1.5, 0.25, 64.0, 1.0]);
        let p = packed(F::Rgb, T::UnsignedInt10f11f11fRev, c);
        let v = Format::R11fG11fB10f.decode(&p);
        assert_eq!(
            v[..3],
            [1.5f32.to_bits(), 0.25f32.to_bits(), 64.0f32.to_bits()]
        );
        let p = packed(F::Rgb, T::UnsignedInt5999Rev, c);
        let v = Format::Rgb9E5.decode(&p);
        assert_eq!(
            v[..3],
            [1.5f32.to_bits(), 0.25f32.to_bits(), 64.0f32.to_bits()]
        );
    }

    #[test]
    fn depth_and_stencil_conversions() {
        let mut out = [0u8; 8];
        pack_depth_stencil(F::DepthComponent, T::UnsignedShort, 0.5, 0, &mut out);
        assert_eq!(u16::from_le_bytes([out[0], out[1]]), 32768);
        pack_depth_stencil(F::DepthComponent, T::UnsignedInt, 1.0, 0, &mut out);
        assert_eq!(
            u32::from_le_bytes([out[0], out[1], out[2], out[3]]),
            u32::MAX
        );
        pack_depth_stencil(F::StencilIndex, T::Float, 0.0, 200, &mut out);
        assert_eq!(f32::from_le_bytes([out[0], out[1], out[2], out[3]]), 200.0);
        pack_depth_stencil(F::StencilIndex, T::Byte, 0.0, 200, &mut out);
        assert_eq!(out[0], 127);
        pack_depth_stencil(
            F::DepthStencil,
            T::Float32UnsignedInt248Rev,
            0.75,
            3,
            &mut out,
        );
        assert_eq!(out, [0, 0, 0x40, 0x3f, 3, 0, 0, 0]);
    }

    #[test]
    fn pairs_are_checked() {
        assert!(check_pair(F::Bgra, T::UnsignedInt8888Rev).is_ok());
        assert!(check_pair(F::RgbaInteger, T::UnsignedInt2101010Rev).is_ok());
        assert!(check_pair(F::Rg, T::UnsignedShort565).is_err());
        assert!(check_pair(F::Rgba, T::UnsignedInt5999Rev).is_err());
        assert!(check_pair(F::DepthComponent, T::UnsignedInt248).is_err());
        assert_eq!(row_bytes(F::Rgba, T::Float, 3, 8), 48);
        assert_eq!(row_bytes(F::Red, T::UnsignedByte, 3, 8), 8);
    }
}
