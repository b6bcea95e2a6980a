//! Internal formats: what a texel looks like in memory and how it decodes to the RGBA
//! value texturing sees (GL 4.6 table 8.11 / GL 2.1 table 3.21 component mapping).
//!
//! The decoded value of a texel is a *canonical texel*: `[u32; 4]` holding f32 bit
//! patterns for normalized/float formats, raw two's-complement or unsigned integers for
//! integer formats, and `[depth f32 bits, stencil, 0, 1.0 bits]` for depth formats.
//! Encoding takes the same representation, so `decode(encode(x)) == x` for every value a
//! format can represent.

use crate::pack::*;

/// Which components a format stores (its base internal format).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    /// RED: (R, 0, 0, 1).
    R,
    /// RG: (R, G, 0, 1).
    Rg,
    /// RGB: (R, G, B, 1).
    Rgb,
    /// RGBA.
    Rgba,
    /// LUMINANCE: (L, L, L, 1).
    L,
    /// ALPHA: (0, 0, 0, A).
    A,
    /// INTENSITY: (I, I, I, I).
    I,
    /// LUMINANCE_ALPHA: (L, L, L, A).
    La,
}

impl Base {
    /// Number of components stored per texel.
    pub fn stored(self) -> usize {
        match self {
            Base::R | Base::L | Base::A | Base::I => 1,
            Base::Rg | Base::La => 2,
            Base::Rgb => 3,
            Base::Rgba => 4,
        }
    }

    /// Expands stored components `c[0..stored]` to RGBA; `one` is 1 in the format's
    /// representation (1.0f32 bits or integer 1).
    #[inline]
    pub fn expand(self, c: [u32; 4], one: u32) -> [u32; 4] {
        match self {
            Base::R => [c[0], 0, 0, one],
            Base::Rg => [c[0], c[1], 0, one],
            Base::Rgb => [c[0], c[1], c[2], one],
            Base::Rgba => c,
            Base::L => [c[0], c[0], c[0], one],
            Base::A => [0, 0, 0, c[0]],
            Base::I => [c[0]; 4],
            Base::La => [c[0], c[0], c[0], c[1]],
        }
    }

    /// Picks the stored components out of an RGBA value (inverse of [`Base::expand`]:
    /// luminance and intensity come from R, alpha from A).
    #[inline]
    pub fn select(self, rgba: [u32; 4]) -> [u32; 4] {
        match self {
            Base::R | Base::L | Base::I | Base::Rgb | Base::Rg | Base::Rgba => rgba,
            Base::A => [rgba[3], 0, 0, 0],
            Base::La => [rgba[0], rgba[3], 0, 0],
        }
    }
}

/// Storage of one component of a plain (array-of-components) format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Channel {
    /// 8-bit unsigned normalized.
    Unorm8,
    /// 8-bit signed normalized.
    Snorm8,
    /// 16-bit unsigned normalized.
    Unorm16,
    /// 16-bit signed normalized.
    Snorm16,
    /// 16-bit float.
    F16,
    /// 32-bit float.
    F32,
    /// 8-bit unsigned integer.
    U8,
    /// 8-bit signed integer.
    I8,
    /// 16-bit unsigned integer.
    U16,
    /// 16-bit signed integer.
    I16,
    /// 32-bit unsigned integer.
    U32,
    /// 32-bit signed integer.
    I32,
}

impl Channel {
    /// Bytes per component.
    pub fn size(self) -> usize {
        match self {
            Channel::Unorm8 | Channel::Snorm8 | Channel::U8 | Channel::I8 => 1,
            Channel::Unorm16 | Channel::Snorm16 | Channel::F16 | Channel::U16 | Channel::I16 => 2,
            Channel::F32 | Channel::U32 | Channel::I32 => 4,
        }
    }

    fn sample_type(self) -> SampleType {
        match self {
            Channel::U8 | Channel::U16 | Channel::U32 => SampleType::Uint,
            Channel::I8 | Channel::I16 | Channel::I32 => SampleType::Sint,
            _ => SampleType::Float,
        }
    }

    #[inline]
    fn read(self, b: &[u8]) -> u32 {
        let raw = match self.size() {
            1 => b.first().map_or(0, |&v| v as u32),
            2 => b
                .get(..2)
                .map_or(0, |s| u16::from_le_bytes([s[0], s[1]]) as u32),
            _ => b
                .get(..4)
                .map_or(0, |s| u32::from_le_bytes([s[0], s[1], s[2], s[3]])),
        };
        match self {
            Channel::Unorm8 => unorm_to_f32(raw, 8).to_bits(),
            Channel::Snorm8 => snorm_to_f32(sign_extend(raw, 8), 8).to_bits(),
            Channel::Unorm16 => unorm_to_f32(raw, 16).to_bits(),
            Channel::Snorm16 => snorm_to_f32(sign_extend(raw, 16), 16).to_bits(),
            Channel::F16 => half::f16::from_bits(raw as u16).to_f32().to_bits(),
            Channel::F32 | Channel::U8 | Channel::U16 | Channel::U32 | Channel::I32 => raw,
            Channel::I8 => sign_extend(raw, 8) as u32,
            Channel::I16 => sign_extend(raw, 16) as u32,
        }
    }

    #[inline]
    fn write(self, v: u32, b: &mut [u8]) {
        let f = f32::from_bits(v);
        let raw: u32 = match self {
            Channel::Unorm8 => f32_to_unorm(f, 8),
            Channel::Snorm8 => f32_to_snorm(f, 8) as u32 & 0xff,
            Channel::Unorm16 => f32_to_unorm(f, 16),
            Channel::Snorm16 => f32_to_snorm(f, 16) as u32 & 0xffff,
            Channel::F16 => half::f16::from_f32(f).to_bits() as u32,
            Channel::F32 | Channel::U32 | Channel::I32 => v,
            Channel::U8 => v.min(0xff),
            Channel::U16 => v.min(0xffff),
            Channel::I8 => (v as i32).clamp(-128, 127) as u32 & 0xff,
            Channel::I16 => (v as i32).clamp(-32768, 32767) as u32 & 0xffff,
        };
        let bytes = raw.to_le_bytes();
        for (dst, src) in b.iter_mut().zip(bytes.iter()).take(self.size()) {
            *dst = *src;
        }
    }
}

/// What a texture lookup returns for a format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SampleType {
    /// Floating-point results (normalized, float and sRGB formats).
    Float,
    /// Signed integer results (raw i32 bits).
    Sint,
    /// Unsigned integer results (raw u32 bits).
    Uint,
    /// Depth (optionally with stencil): float depth, compared when sampled with a SHADOW
    /// target or compare mode.
    Depth,
}

/// An internal texture format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Array of same-typed components, e.g. `Plain(Base::Rgba, Channel::Unorm8)` = RGBA8.
    Plain(Base, Channel),
    /// 8-bit sRGB-encoded RGB (SRGB8).
    Srgb8,
    /// 8-bit sRGB-encoded RGB with linear alpha (SRGB8_ALPHA8).
    Srgb8Alpha8,
    /// 16-bit R5 G6 B5 (R in the high bits, UNSIGNED_SHORT_5_6_5).
    Rgb565,
    /// 16-bit R5 G5 B5 A1 (UNSIGNED_SHORT_5_5_5_1).
    Rgb5A1,
    /// 16-bit R4 G4 B4 A4 (UNSIGNED_SHORT_4_4_4_4).
    Rgba4,
    /// 32-bit R10 G10 B10 A2 unorm, R in the low bits (UNSIGNED_INT_2_10_10_10_REV).
    Rgb10A2,
    /// RGB10_A2UI: the same layout as unsigned integers.
    Rgb10A2Ui,
    /// R11F_G11F_B10F packed unsigned floats (UNSIGNED_INT_10F_11F_11F_REV).
    R11fG11fB10f,
    /// RGB9_E5 shared-exponent floats (UNSIGNED_INT_5_9_9_9_REV).
    Rgb9E5,
    /// 16-bit unorm depth.
    Depth16,
    /// 24-bit unorm depth in the low bits of a 32-bit word.
    Depth24,
    /// 32-bit float depth.
    Depth32F,
    /// 24-bit unorm depth (high bits) + 8-bit stencil (low bits) (UNSIGNED_INT_24_8).
    Depth24Stencil8,
    /// 32-bit float depth + a word whose low 8 bits are stencil.
    Depth32FStencil8,
    /// BC1 / DXT1 without alpha.
    Bc1Rgb,
    /// BC1 / DXT1 with 1-bit alpha.
    Bc1Rgba,
    /// BC2 / DXT3.
    Bc2,
    /// BC3 / DXT5.
    Bc3,
    /// BC1 / DXT1 without alpha, sRGB-encoded colour (COMPRESSED_SRGB_S3TC_DXT1_EXT).
    Bc1Srgb,
    /// BC1 / DXT1 with 1-bit alpha, sRGB-encoded colour.
    Bc1SrgbAlpha,
    /// BC2 / DXT3, sRGB-encoded colour, linear alpha.
    Bc2Srgb,
    /// BC3 / DXT5, sRGB-encoded colour, linear alpha.
    Bc3Srgb,
}

/// Canonical bits of each 8-bit UNORM value (`unorm_to_f32(v, 8)`), so formats sampled
/// straight from their bytes decode with one lookup per component.
pub(crate) static UNORM8: [u32; 256] = unorm8_table();

const fn unorm8_table() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = ((i as f64 / 255.0) as f32).to_bits();
        i += 1;
    }
    t
}

macro_rules! plain {
    ($($name:ident = $base:ident $ch:ident;)*) => {
        impl Format {
            $(
                #[doc = concat!("`", stringify!($name), "`.")]
                pub const $name: Format = Format::Plain(Base::$base, Channel::$ch);
            )*
        }
    };
}

plain! {
    R8 = R Unorm8; RG8 = Rg Unorm8; RGB8 = Rgb Unorm8; RGBA8 = Rgba Unorm8;
    R8_SNORM = R Snorm8; RG8_SNORM = Rg Snorm8; RGB8_SNORM = Rgb Snorm8; RGBA8_SNORM = Rgba Snorm8;
    R16 = R Unorm16; RG16 = Rg Unorm16; RGB16 = Rgb Unorm16; RGBA16 = Rgba Unorm16;
    R16_SNORM = R Snorm16; RG16_SNORM = Rg Snorm16; RGB16_SNORM = Rgb Snorm16;
    RGBA16_SNORM = Rgba Snorm16;
    R16F = R F16; RG16F = Rg F16; RGB16F = Rgb F16; RGBA16F = Rgba F16;
    R32F = R F32; RG32F = Rg F32; RGB32F = Rgb F32; RGBA32F = Rgba F32;
    R8UI = R U8; RG8UI = Rg U8; RGB8UI = Rgb U8; RGBA8UI = Rgba U8;
    R8I = R I8; RG8I = Rg I8; RGB8I = Rgb I8; RGBA8I = Rgba I8;
    R16UI = R U16; RG16UI = Rg U16; RGB16UI = Rgb U16; RGBA16UI = Rgba U16;
    R16I = R I16; RG16I = Rg I16; RGB16I = Rgb I16; RGBA16I = Rgba I16;
    R32UI = R U32; RG32UI = Rg U32; RGB32UI = Rgb U32; RGBA32UI = Rgba U32;
    R32I = R I32; RG32I = Rg I32; RGB32I = Rgb I32; RGBA32I = Rgba I32;
    LUMINANCE8 = L Unorm8; ALPHA8 = A Unorm8; INTENSITY8 = I Unorm8; LUMINANCE8_ALPHA8 = La Unorm8;
    LUMINANCE16 = L Unorm16; ALPHA16 = A Unorm16; INTENSITY16 = I Unorm16;
    LUMINANCE16_ALPHA16 = La Unorm16;
    LUMINANCE16F = L F16; ALPHA16F = A F16; INTENSITY16F = I F16; LUMINANCE_ALPHA16F = La F16;
    LUMINANCE32F = L F32; ALPHA32F = A F32; INTENSITY32F = I F32; LUMINANCE_ALPHA32F = La F32;
}

/// 1.0f32's bits: the alpha (or 1) of texels that store none.
pub(crate) const ONE_F: u32 = 0x3f80_0000;

/// (name without `GL_`, GL enum, format). Unsized names map to their 8-bit format.
const TABLE: &[(&str, u32, Format)] = &[
    ("R8", 0x8229, Format::R8),
    ("R16", 0x822A, Format::R16),
    ("RG8", 0x822B, Format::RG8),
    ("RG16", 0x822C, Format::RG16),
    ("R16F", 0x822D, Format::R16F),
    ("R32F", 0x822E, Format::R32F),
    ("RG16F", 0x822F, Format::RG16F),
    ("RG32F", 0x8230, Format::RG32F),
    ("R8I", 0x8231, Format::R8I),
    ("R8UI", 0x8232, Format::R8UI),
    ("R16I", 0x8233, Format::R16I),
    ("R16UI", 0x8234, Format::R16UI),
    ("R32I", 0x8235, Format::R32I),
    ("R32UI", 0x8236, Format::R32UI),
    ("RG8I", 0x8237, Format::RG8I),
    ("RG8UI", 0x8238, Format::RG8UI),
    ("RG16I", 0x8239, Format::RG16I),
    ("RG16UI", 0x823A, Format::RG16UI),
    ("RG32I", 0x823B, Format::RG32I),
    ("RG32UI", 0x823C, Format::RG32UI),
    ("RGB8", 0x8051, Format::RGB8),
    ("RGB16", 0x8054, Format::RGB16),
    ("RGBA4", 0x8056, Format::Rgba4),
    ("RGB5_A1", 0x8057, Format::Rgb5A1),
    ("RGBA8", 0x8058, Format::RGBA8),
    ("RGB10_A2", 0x8059, Format::Rgb10A2),
    ("RGBA16", 0x805B, Format::RGBA16),
    ("RGB565", 0x8D62, Format::Rgb565),
    ("RGB10_A2UI", 0x906F, Format::Rgb10A2Ui),
    ("RGBA32F", 0x8814, Format::RGBA32F),
    ("RGB32F", 0x8815, Format::RGB32F),
    ("ALPHA32F_ARB", 0x8816, Format::ALPHA32F),
    ("INTENSITY32F_ARB", 0x8817, Format::INTENSITY32F),
    ("LUMINANCE32F_ARB", 0x8818, Format::LUMINANCE32F),
    ("LUMINANCE_ALPHA32F_ARB", 0x8819, Format::LUMINANCE_ALPHA32F),
    ("RGBA16F", 0x881A, Format::RGBA16F),
    ("RGB16F", 0x881B, Format::RGB16F),
    ("ALPHA16F_ARB", 0x881C, Format::ALPHA16F),
    ("INTENSITY16F_ARB", 0x881D, Format::INTENSITY16F),
    ("LUMINANCE16F_ARB", 0x881E, Format::LUMINANCE16F),
    ("LUMINANCE_ALPHA16F_ARB", 0x881F, Format::LUMINANCE_ALPHA16F),
    ("RGBA32UI", 0x8D70, Format::RGBA32UI),
    ("RGB32UI", 0x8D71, Format::RGB32UI),
    ("RGBA16UI", 0x8D76, Format::RGBA16UI),
    ("RGB16UI", 0x8D77, Format::RGB16UI),
    ("RGBA8UI", 0x8D7C, Format::RGBA8UI),
    ("RGB8UI", 0x8D7D, Format::RGB8UI),
    ("RGBA32I", 0x8D82, Format::RGBA32I),
    ("RGB32I", 0x8D83, Format::RGB32I),
    ("RGBA16I", 0x8D88, Format::RGBA16I),
    ("RGB16I", 0x8D89, Format::RGB16I),
    ("RGBA8I", 0x8D8E, Format::RGBA8I),
    ("RGB8I", 0x8D8F, Format::RGB8I),
    ("R8_SNORM", 0x8F94, Format::R8_SNORM),
    ("RG8_SNORM", 0x8F95, Format::RG8_SNORM),
    ("RGB8_SNORM", 0x8F96, Format::RGB8_SNORM),
    ("RGBA8_SNORM", 0x8F97, Format::RGBA8_SNORM),
    ("R16_SNORM", 0x8F98, Format::R16_SNORM),
    ("RG16_SNORM", 0x8F99, Format::RG16_SNORM),
    ("RGB16_SNORM", 0x8F9A, Format::RGB16_SNORM),
    ("RGBA16_SNORM", 0x8F9B, Format::RGBA16_SNORM),
    ("SRGB8", 0x8C41, Format::Srgb8),
    ("SRGB8_ALPHA8", 0x8C43, Format::Srgb8Alpha8),
    ("R11F_G11F_B10F", 0x8C3A, Format::R11fG11fB10f),
    ("RGB9_E5", 0x8C3D, Format::Rgb9E5),
    ("DEPTH_COMPONENT16", 0x81A5, Format::Depth16),
    ("DEPTH_COMPONENT24", 0x81A6, Format::Depth24),
    ("DEPTH_COMPONENT32", 0x81A7, Format::Depth24),
    ("DEPTH_COMPONENT32F", 0x8CAC, Format::Depth32F),
    ("DEPTH24_STENCIL8", 0x88F0, Format::Depth24Stencil8),
    ("DEPTH32F_STENCIL8", 0x8CAD, Format::Depth32FStencil8),
    ("ALPHA8", 0x803C, Format::ALPHA8),
    ("ALPHA16", 0x803E, Format::ALPHA16),
    ("LUMINANCE8", 0x8040, Format::LUMINANCE8),
    ("LUMINANCE16", 0x8042, Format::LUMINANCE16),
    ("LUMINANCE8_ALPHA8", 0x8045, Format::LUMINANCE8_ALPHA8),
    ("LUMINANCE16_ALPHA16", 0x8048, Format::LUMINANCE16_ALPHA16),
    ("INTENSITY8", 0x804B, Format::INTENSITY8),
    ("INTENSITY16", 0x804D, Format::INTENSITY16),
    ("COMPRESSED_RGB_S3TC_DXT1_EXT", 0x83F0, Format::Bc1Rgb),
    ("COMPRESSED_RGBA_S3TC_DXT1_EXT", 0x83F1, Format::Bc1Rgba),
    ("COMPRESSED_RGBA_S3TC_DXT3_EXT", 0x83F2, Format::Bc2),
    ("COMPRESSED_RGBA_S3TC_DXT5_EXT", 0x83F3, Format::Bc3),
    ("COMPRESSED_SRGB_S3TC_DXT1_EXT", 0x8C4C, Format::Bc1Srgb),
    (
        "COMPRESSED_SRGB_ALPHA_S3TC_DXT1_EXT",
        0x8C4D,
        Format::Bc1SrgbAlpha,
    ),
    (
        "COMPRESSED_SRGB_ALPHA_S3TC_DXT3_EXT",
        0x8C4E,
        Format::Bc2Srgb,
    ),
    (
        "COMPRESSED_SRGB_ALPHA_S3TC_DXT5_EXT",
        0x8C4F,
        Format::Bc3Srgb,
    ),
    // Unsized and legacy internal formats.
    ("RED", 0x1903, Format::R8),
    ("RG", 0x8227, Format::RG8),
    ("RGB", 0x1907, Format::RGB8),
    ("RGBA", 0x1908, Format::RGBA8),
    ("ALPHA", 0x1906, Format::ALPHA8),
    ("LUMINANCE", 0x1909, Format::LUMINANCE8),
    ("LUMINANCE_ALPHA", 0x190A, Format::LUMINANCE8_ALPHA8),
    ("INTENSITY", 0x8049, Format::INTENSITY8),
    ("DEPTH_COMPONENT", 0x1902, Format::Depth24),
    ("DEPTH_STENCIL", 0x84F9, Format::Depth24Stencil8),
    ("SRGB", 0x8C40, Format::Srgb8),
    ("SRGB_ALPHA", 0x8C42, Format::Srgb8Alpha8),
];

impl Format {
    /// Looks up an internal format by GL enum value (sized, unsized or legacy 1..4).
    pub fn from_gl(value: u32) -> Option<Format> {
        match value {
            1 => Some(Format::LUMINANCE8),
            2 => Some(Format::LUMINANCE8_ALPHA8),
            3 => Some(Format::RGB8),
            4 => Some(Format::RGBA8),
            _ => TABLE.iter().find(|e| e.1 == value).map(|e| e.2),
        }
    }

    /// Looks up an internal format by GL name, with or without the `GL_` prefix,
    /// case-insensitively (`"GL_RGBA8"`, `"rgba16f"`).
    pub fn from_name(name: &str) -> Option<Format> {
        let n = name.strip_prefix("GL_").unwrap_or(name);
        let n = n.strip_prefix("gl_").unwrap_or(n);
        TABLE
            .iter()
            .find(|e| e.0.eq_ignore_ascii_case(n))
            .map(|e| e.2)
    }

    /// The GL name of the format (sized), for messages and queries.
    pub fn name(self) -> &'static str {
        TABLE.iter().find(|e| e.2 == self).map_or("?", |e| e.0)
    }

    /// What lookups of this format return.
    pub fn sample_type(self) -> SampleType {
        match self {
            Format::Plain(_, ch) => ch.sample_type(),
            Format::Rgb10A2Ui => SampleType::Uint,
            Format::Depth16
            | Format::Depth24
            | Format::Depth32F
            | Format::Depth24Stencil8
            | Format::Depth32FStencil8 => SampleType::Depth,
            _ => SampleType::Float,
        }
    }

    /// True for integer formats (lookups return raw integers and are never filtered).
    pub fn is_integer(self) -> bool {
        matches!(self.sample_type(), SampleType::Sint | SampleType::Uint)
    }

    /// True for depth and depth-stencil formats.
    pub fn is_depth(self) -> bool {
        self.sample_type() == SampleType::Depth
    }

    /// True if the format has a stencil component.
    pub fn has_stencil(self) -> bool {
        matches!(self, Format::Depth24Stencil8 | Format::Depth32FStencil8)
    }

    /// True for sRGB-encoded formats (decoded to linear when sampled unless decode is
    /// skipped).
    pub fn is_srgb(self) -> bool {
        matches!(
            self,
            Format::Srgb8
                | Format::Srgb8Alpha8
                | Format::Bc1Srgb
                | Format::Bc1SrgbAlpha
                | Format::Bc2Srgb
                | Format::Bc3Srgb
        )
    }

    /// True for block-compressed formats (4×4 blocks).
    pub fn is_compressed(self) -> bool {
        matches!(
            self,
            Format::Bc1Rgb
                | Format::Bc1Rgba
                | Format::Bc2
                | Format::Bc3
                | Format::Bc1Srgb
                | Format::Bc1SrgbAlpha
                | Format::Bc2Srgb
                | Format::Bc3Srgb
        )
    }

    /// The same encoding without sRGB: what the stored bytes decode as before any sRGB
    /// conversion (SRGB8 -> RGB8, the sRGB S3TC formats -> their linear twins).
    pub fn linear(self) -> Format {
        match self {
            Format::Srgb8 => Format::RGB8,
            Format::Srgb8Alpha8 => Format::RGBA8,
            Format::Bc1Srgb => Format::Bc1Rgb,
            Format::Bc1SrgbAlpha => Format::Bc1Rgba,
            Format::Bc2Srgb => Format::Bc2,
            Format::Bc3Srgb => Format::Bc3,
            f => f,
        }
    }

    /// The base internal format's component set, for colour formats.
    pub fn base(self) -> Base {
        match self {
            Format::Plain(b, _) => b,
            Format::Srgb8 | Format::Rgb565 | Format::R11fG11fB10f | Format::Rgb9E5 => Base::Rgb,
            Format::Bc1Rgb | Format::Bc1Srgb => Base::Rgb,
            Format::Depth16
            | Format::Depth24
            | Format::Depth32F
            | Format::Depth24Stencil8
            | Format::Depth32FStencil8 => Base::R,
            _ => Base::Rgba,
        }
    }

    /// Bytes per texel; for compressed formats, bytes per 4×4 block.
    pub fn bytes_per_texel(self) -> usize {
        match self {
            Format::Plain(b, ch) => b.stored() * ch.size(),
            Format::Srgb8 => 3,
            Format::Srgb8Alpha8 => 4,
            Format::Rgb565 | Format::Rgb5A1 | Format::Rgba4 | Format::Depth16 => 2,
            Format::Rgb10A2
            | Format::Rgb10A2Ui
            | Format::R11fG11fB10f
            | Format::Rgb9E5
            | Format::Depth24
            | Format::Depth32F
            | Format::Depth24Stencil8 => 4,
            Format::Depth32FStencil8 => 8,
            Format::Bc1Rgb | Format::Bc1Rgba | Format::Bc1Srgb | Format::Bc1SrgbAlpha => 8,
            Format::Bc2 | Format::Bc3 | Format::Bc2Srgb | Format::Bc3Srgb => 16,
        }
    }

    /// Bytes of an image of `w × h × d` texels (whole blocks for compressed formats).
    pub fn image_bytes(self, w: u32, h: u32, d: u32) -> usize {
        if self.is_compressed() {
            (w.div_ceil(4) as usize)
                * (h.div_ceil(4) as usize)
                * d as usize
                * self.bytes_per_texel()
        } else {
            w as usize * h as usize * d as usize * self.bytes_per_texel()
        }
    }

    /// The representation of 1 in lookups (1.0 for float formats, 1 for integers).
    pub fn one(self) -> u32 {
        if self.is_integer() {
            1
        } else {
            ONE_F
        }
    }

    /// Decodes one texel from its bytes to a canonical texel (see module docs).
    /// Compressed formats decode whole blocks through [`crate::bc`]; asking this for one of
    /// them returns zeros. Short input reads as zero bytes.
    pub fn decode(self, b: &[u8]) -> [u32; 4] {
        let mut buf = [0u8; 16];
        let n = self.bytes_per_texel().min(16);
        for (d, s) in buf.iter_mut().zip(b.iter()).take(n) {
            *d = *s;
        }
        let w0 = u32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]]);
        let w1 = u32::from_le_bytes([buf[4], buf[5], buf[6], buf[7]]);
        let h0 = w0 & 0xffff;
        let un = |v: u32, bits: u32| unorm_to_f32(v, bits).to_bits();
        match self {
            Format::Plain(base, ch) => {
                let sz = ch.size();
                let mut c = [0u32; 4];
                for (i, v) in c.iter_mut().enumerate().take(base.stored()) {
                    *v = ch.read(&buf[i * sz..]);
                }
                base.expand(c, self.one())
            }
            Format::Srgb8 => [
                un(buf[0] as u32, 8),
                un(buf[1] as u32, 8),
                un(buf[2] as u32, 8),
                ONE_F,
            ],
            Format::Srgb8Alpha8 => [0, 1, 2, 3].map(|i| un(buf[i] as u32, 8)),
            Format::Rgb565 => [
                un(h0 >> 11, 5),
                un((h0 >> 5) & 0x3f, 6),
                un(h0 & 0x1f, 5),
                ONE_F,
            ],
            Format::Rgb5A1 => [
                un(h0 >> 11, 5),
                un((h0 >> 6) & 0x1f, 5),
                un((h0 >> 1) & 0x1f, 5),
                un(h0 & 1, 1),
            ],
            Format::Rgba4 => [12, 8, 4, 0].map(|s| un((h0 >> s) & 0xf, 4)),
            Format::Rgb10A2 => [
                un(w0 & 0x3ff, 10),
                un((w0 >> 10) & 0x3ff, 10),
                un((w0 >> 20) & 0x3ff, 10),
                un(w0 >> 30, 2),
            ],
            Format::Rgb10A2Ui => [w0 & 0x3ff, (w0 >> 10) & 0x3ff, (w0 >> 20) & 0x3ff, w0 >> 30],
            Format::R11fG11fB10f => [
                ufloat_to_f32(w0 & 0x7ff, 6).to_bits(),
                ufloat_to_f32((w0 >> 11) & 0x7ff, 6).to_bits(),
                ufloat_to_f32(w0 >> 22, 5).to_bits(),
                ONE_F,
            ],
            Format::Rgb9E5 => {
                let c = rgb9e5_to_f32(w0);
                [c[0].to_bits(), c[1].to_bits(), c[2].to_bits(), ONE_F]
            }
            Format::Depth16 => [un(h0, 16), 0, 0, ONE_F],
            Format::Depth24 => [un(w0 & 0xff_ffff, 24), 0, 0, ONE_F],
            Format::Depth32F => [w0, 0, 0, ONE_F],
            Format::Depth24Stencil8 => [un(w0 >> 8, 24), w0 & 0xff, 0, ONE_F],
            Format::Depth32FStencil8 => [w0, w1 & 0xff, 0, ONE_F],
            // Blocks decode whole (bc::decode_image), never texel by texel.
            Format::Bc1Rgb
            | Format::Bc1Rgba
            | Format::Bc2
            | Format::Bc3
            | Format::Bc1Srgb
            | Format::Bc1SrgbAlpha
            | Format::Bc2Srgb
            | Format::Bc3Srgb => [0; 4],
        }
    }

    /// Encodes a canonical RGBA value (see module docs) into one texel's bytes. Values are
    /// converted as GL does when storing: normalized formats clamp and round, integer formats
    /// saturate, luminance/intensity take R and alpha takes A. Compressed formats cannot be
    /// encoded texel by texel and write nothing.
    pub fn encode(self, v: [u32; 4], out: &mut [u8]) {
        let f = v.map(f32::from_bits);
        let unorm = |i: usize, bits: u32| f32_to_unorm(f[i], bits);
        let (word, len): (u64, usize) = match self {
            Format::Plain(base, ch) => {
                let c = base.select(v);
                let sz = ch.size();
                for (i, c) in c.iter().enumerate().take(base.stored()) {
                    if let Some(dst) = out.get_mut(i * sz..(i + 1) * sz) {
                        ch.write(*c, dst);
                    }
                }
                return;
            }
            Format::Srgb8 => (
                (unorm(0, 8) | unorm(1, 8) << 8 | unorm(2, 8) << 16) as u64,
                3,
            ),
            Format::Srgb8Alpha8 => (
                (unorm(0, 8) | unorm(1, 8) << 8 | unorm(2, 8) << 16 | unorm(3, 8) << 24) as u64,
                4,
            ),
            Format::Rgb565 => (
                (unorm(0, 5) << 11 | unorm(1, 6) << 5 | unorm(2, 5)) as u64,
                2,
            ),
            Format::Rgb5A1 => (
                (unorm(0, 5) << 11 | unorm(1, 5) << 6 | unorm(2, 5) << 1 | unorm(3, 1)) as u64,
                2,
            ),
            Format::Rgba4 => (
                (unorm(0, 4) << 12 | unorm(1, 4) << 8 | unorm(2, 4) << 4 | unorm(3, 4)) as u64,
                2,
            ),
            Format::Rgb10A2 => (
                (unorm(0, 10) | unorm(1, 10) << 10 | unorm(2, 10) << 20 | unorm(3, 2) << 30) as u64,
                4,
            ),
            Format::Rgb10A2Ui => {
                let c = [v[0].min(1023), v[1].min(1023), v[2].min(1023), v[3].min(3)];
                ((c[0] | c[1] << 10 | c[2] << 20 | c[3] << 30) as u64, 4)
            }
            Format::R11fG11fB10f => (
                (f32_to_ufloat(f[0], 6)
                    | f32_to_ufloat(f[1], 6) << 11
                    | f32_to_ufloat(f[2], 5) << 22) as u64,
                4,
            ),
            Format::Rgb9E5 => (f32_to_rgb9e5([f[0], f[1], f[2]]) as u64, 4),
            Format::Depth16 => (unorm(0, 16) as u64, 2),
            Format::Depth24 => (unorm(0, 24) as u64, 4),
            Format::Depth32F => (v[0] as u64, 4),
            Format::Depth24Stencil8 => ((unorm(0, 24) << 8 | v[1].min(255)) as u64, 4),
            Format::Depth32FStencil8 => (v[0] as u64 | ((v[1].min(255) as u64) << 32), 8),
            Format::Bc1Rgb
            | Format::Bc1Rgba
            | Format::Bc2
            | Format::Bc3
            | Format::Bc1Srgb
            | Format::Bc1SrgbAlpha
            | Format::Bc2Srgb
            | Format::Bc3Srgb => return,
        };
        for (dst, src) in out.iter_mut().zip(word.to_le_bytes().iter()).take(len) {
            *dst = *src;
        }
    }

    /// The stored components of a format whose texels are sampled straight from their
    /// bytes, one 8-bit UNORM byte each: no decoded copy of its levels is kept (RGBA8 is
    /// 4 bytes a texel, not 4 + 16).
    pub(crate) fn unorm8_base(self) -> Option<Base> {
        match self {
            Format::Plain(base, Channel::Unorm8) => Some(base),
            Format::Srgb8 => Some(Base::Rgb),
            Format::Srgb8Alpha8 => Some(Base::Rgba),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_uncompressed() -> Vec<Format> {
        let mut v: Vec<Format> = TABLE
            .iter()
            .map(|e| e.2)
            .filter(|f| !f.is_compressed())
            .collect();
        v.dedup();
        v
    }

    #[test]
    fn unorm8_formats_decode_by_table() {
        for f in all_uncompressed()
            .into_iter()
            .chain([Format::Srgb8, Format::Srgb8Alpha8])
        {
            let Some(base) = f.unorm8_base() else {
                continue;
            };
            let n = f.bytes_per_texel();
            assert_eq!(n, base.stored(), "{f:?}");
            for v in 0..=255u8 {
                let bytes = [v, v.wrapping_add(7), v.wrapping_mul(3), !v];
                let mut c = [0u32; 4];
                for (k, b) in bytes.iter().take(n).enumerate() {
                    c[k] = UNORM8[*b as usize];
                }
                assert_eq!(base.expand(c, ONE_F), f.decode(&bytes[..n]), "{f:?} {v}");
            }
        }
    }

    /// Every byte pattern a small format can hold survives decode → encode unchanged
    /// (canonical bit patterns are exact), except encodings that have several
    /// representations of one value (snorm -128/-127, NaN payloads, unused bits).
    #[test]
    fn decode_encode_round_trip_every_16_bit_pattern() {
        for f in all_uncompressed() {
            let n = f.bytes_per_texel();
            let patterns: Vec<Vec<u8>> = if n <= 2 {
                (0..1u32 << (8 * n))
                    .map(|p| p.to_le_bytes()[..n].to_vec())
                    .collect()
            } else {
                // Sampled patterns for wider formats.
                (0..4096u64)
                    .map(|i| {
                        let x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
                        x.to_le_bytes().iter().cycle().take(n).copied().collect()
                    })
                    .collect()
            };
            for p in patterns {
                let dec = f.decode(&p);
                let mut enc = vec![0u8; n];
                f.encode(dec, &mut enc);
                let dec2 = f.decode(&enc);
                let has_nan = dec.iter().any(|c| f32::from_bits(*c).is_nan()) && !f.is_integer();
                if has_nan {
                    continue;
                }
                assert_eq!(dec2, dec, "{f:?} pattern {p:?}");
            }
        }
    }

    #[test]
    fn component_mapping_table() {
        let one = 1.0f32.to_bits();
        let half = (128.0f32 / 255.0).to_bits();
        assert_eq!(Format::LUMINANCE8.decode(&[128]), [half, half, half, one]);
        assert_eq!(Format::ALPHA8.decode(&[128]), [0, 0, 0, half]);
        assert_eq!(Format::INTENSITY8.decode(&[128]), [half; 4]);
        assert_eq!(
            Format::LUMINANCE8_ALPHA8.decode(&[128, 255]),
            [half, half, half, one]
        );
        assert_eq!(Format::R8.decode(&[255]), [one, 0, 0, one]);
        assert_eq!(Format::RG8UI.decode(&[7, 9]), [7, 9, 0, 1]);
        assert_eq!(Format::R8I.decode(&[0xff]), [u32::MAX, 0, 0, 1]);
        assert_eq!(
            Format::R16I.decode(&[0x00, 0x80]),
            [(-32768i32) as u32, 0, 0, 1]
        );
    }

    #[test]
    fn packed_layouts() {
        let f = |x: f32| x.to_bits();
        // RGB565: pure red is the high 5 bits.
        assert_eq!(
            Format::Rgb565.decode(&0xf800u16.to_le_bytes()),
            [f(1.0), 0, 0, f(1.0)]
        );
        assert_eq!(
            Format::Rgb5A1.decode(&0x0001u16.to_le_bytes()),
            [0, 0, 0, f(1.0)]
        );
        assert_eq!(
            Format::Rgba4.decode(&0x0f00u16.to_le_bytes()),
            [0, f(1.0), 0, 0]
        );
        assert_eq!(
            Format::Rgb10A2.decode(&0x3ffu32.to_le_bytes()),
            [f(1.0), 0, 0, 0]
        );
        assert_eq!(
            Format::Rgb10A2Ui.decode(&0xc000_0005u32.to_le_bytes()),
            [5, 0, 0, 3]
        );
        assert_eq!(
            Format::Depth24Stencil8.decode(&0xffff_ff07u32.to_le_bytes()),
            [f(1.0), 7, 0, f(1.0)]
        );
        // R11G11B10F: 1.0 = exponent 15, mantissa 0 → 15 << 6 in each of R and G.
        let one11 = 15 << 6;
        let one10 = 15 << 5;
        let w = one11 | one11 << 11 | one10 << 22;
        assert_eq!(
            Format::R11fG11fB10f.decode(&(w as u32).to_le_bytes()),
            [f(1.0); 4]
        );
        let mut out = [0u8; 4];
        Format::R11fG11fB10f.encode([f(1.0); 4], &mut out);
        assert_eq!(u32::from_le_bytes(out), w as u32);
    }

    #[test]
    fn srgb_s3tc_formats_are_their_linear_twins_plus_decode() {
        let pairs = [
            (0x8C4C, Format::Bc1Srgb, Format::Bc1Rgb),
            (0x8C4D, Format::Bc1SrgbAlpha, Format::Bc1Rgba),
            (0x8C4E, Format::Bc2Srgb, Format::Bc2),
            (0x8C4F, Format::Bc3Srgb, Format::Bc3),
        ];
        for (value, f, lin) in pairs {
            assert_eq!(Format::from_gl(value), Some(f));
            assert!(f.is_srgb() && f.is_compressed(), "{f:?}");
            assert!(!lin.is_srgb());
            assert_eq!(f.linear(), lin);
            assert_eq!(lin.linear(), lin);
            assert_eq!(f.bytes_per_texel(), lin.bytes_per_texel());
            assert_eq!(f.image_bytes(5, 9, 1), lin.image_bytes(5, 9, 1));
            assert_eq!(f.base(), lin.base());
        }
        assert_eq!(Format::Srgb8Alpha8.linear(), Format::RGBA8);
    }

    #[test]
    fn names_and_enums() {
        assert_eq!(Format::from_name("GL_RGBA8"), Some(Format::RGBA8));
        assert_eq!(Format::from_name("rgba16f"), Some(Format::RGBA16F));
        assert_eq!(Format::from_gl(0x8C43), Some(Format::Srgb8Alpha8));
        assert_eq!(Format::from_gl(0x83F3), Some(Format::Bc3));
        assert_eq!(Format::from_gl(0xdead), None);
        assert_eq!(Format::RGBA8.name(), "RGBA8");
        assert_eq!(Format::RGBA32F.bytes_per_texel(), 16);
        assert_eq!(Format::Bc1Rgb.image_bytes(5, 5, 1), 4 * 8);
    }

    #[test]
    fn encode_saturates_integers_and_clamps_norms() {
        let mut b = [0u8; 1];
        Format::R8UI.encode([300, 0, 0, 0], &mut b);
        assert_eq!(b, [255]);
        Format::R8I.encode([(-300i32) as u32, 0, 0, 0], &mut b);
        assert_eq!(b, [0x80]);
        Format::R8.encode([2.0f32.to_bits(), 0, 0, 0], &mut b);
        assert_eq!(b, [255]);
        Format::ALPHA8.encode([0, 0, 0, 1.0f32.to_bits()], &mut b);
        assert_eq!(b, [255]);
    }
}
