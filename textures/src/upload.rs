//! Pixel transfer into textures: client pixels described by a GL format/type pair are
//! unpacked to RGBA groups (GL 4.6 §8.4.4, compatibility-profile luminance rules) and
//! then stored in the texture's internal format.

use crate::error::TexError;
use crate::format::Format;
use crate::pack::{sign_extend, snorm_to_f32, unorm_to_f32};
use crate::texture::Texture;

/// Client pixel format (the `format` argument of `glTexImage*`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PixelFormat {
    /// `RED`.
    Red,
    /// `GREEN`.
    Green,
    /// `BLUE`.
    Blue,
    /// `ALPHA`.
    Alpha,
    /// `RG`.
    Rg,
    /// `RGB`.
    Rgb,
    /// `BGR`.
    Bgr,
    /// `RGBA`.
    Rgba,
    /// `BGRA`.
    Bgra,
    /// `LUMINANCE`.
    Luminance,
    /// `LUMINANCE_ALPHA`.
    LuminanceAlpha,
    /// `DEPTH_COMPONENT`.
    DepthComponent,
    /// `DEPTH_STENCIL`.
    DepthStencil,
    /// `STENCIL_INDEX` (reads only: no texture format stores stencil alone).
    StencilIndex,
    /// `RED_INTEGER`.
    RedInteger,
    /// `RG_INTEGER`.
    RgInteger,
    /// `RGB_INTEGER`.
    RgbInteger,
    /// `BGR_INTEGER`.
    BgrInteger,
    /// `RGBA_INTEGER`.
    RgbaInteger,
    /// `BGRA_INTEGER`.
    BgraInteger,
}

/// Client pixel type (the `type` argument of `glTexImage*`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PixelType {
    /// `UNSIGNED_BYTE`.
    UnsignedByte,
    /// `BYTE`.
    Byte,
    /// `UNSIGNED_SHORT`.
    UnsignedShort,
    /// `SHORT`.
    Short,
    /// `UNSIGNED_INT`.
    UnsignedInt,
    /// `INT`.
    Int,
    /// `HALF_FLOAT`.
    HalfFloat,
    /// `FLOAT`.
    Float,
    /// `UNSIGNED_BYTE_3_3_2`.
    UnsignedByte332,
    /// `UNSIGNED_SHORT_5_6_5`.
    UnsignedShort565,
    /// `UNSIGNED_SHORT_4_4_4_4`.
    UnsignedShort4444,
    /// `UNSIGNED_SHORT_5_5_5_1`.
    UnsignedShort5551,
    /// `UNSIGNED_INT_8_8_8_8`.
    UnsignedInt8888,
    /// `UNSIGNED_INT_8_8_8_8_REV`.
    UnsignedInt8888Rev,
    /// `UNSIGNED_INT_10_10_10_2`.
    UnsignedInt1010102,
    /// `UNSIGNED_INT_2_10_10_10_REV`.
    UnsignedInt2101010Rev,
    /// `UNSIGNED_INT_24_8`.
    UnsignedInt248,
    /// `UNSIGNED_INT_10F_11F_11F_REV`.
    UnsignedInt10f11f11fRev,
    /// `UNSIGNED_INT_5_9_9_9_REV`.
    UnsignedInt5999Rev,
    /// `FLOAT_32_UNSIGNED_INT_24_8_REV`.
    Float32UnsignedInt248Rev,
}

impl PixelFormat {
    /// Parses a GL name (`GL_RGBA`, `rgba_integer`, ...).
    pub fn from_name(name: &str) -> Option<Self> {
        use PixelFormat::*;
        let n = name.trim_start_matches("GL_").to_ascii_uppercase();
        Some(match n.as_str() {
            "RED" => Red,
            "GREEN" => Green,
            "BLUE" => Blue,
            "ALPHA" => Alpha,
            "RG" => Rg,
            "RGB" => Rgb,
            "BGR" => Bgr,
            "RGBA" => Rgba,
            "BGRA" => Bgra,
            "LUMINANCE" => Luminance,
            "LUMINANCE_ALPHA" => LuminanceAlpha,
            "DEPTH_COMPONENT" => DepthComponent,
            "DEPTH_STENCIL" => DepthStencil,
            "STENCIL_INDEX" => StencilIndex,
            "RED_INTEGER" => RedInteger,
            "RG_INTEGER" => RgInteger,
            "RGB_INTEGER" => RgbInteger,
            "BGR_INTEGER" => BgrInteger,
            "RGBA_INTEGER" => RgbaInteger,
            "BGRA_INTEGER" => BgraInteger,
            _ => return None,
        })
    }

    /// Which RGBA slot each element of a group fills (4 = luminance, 5 = depth,
    /// 6 = stencil).
    pub(crate) fn slots(self) -> &'static [usize] {
        use PixelFormat::*;
        match self {
            Red | RedInteger => &[0],
            Green => &[1],
            Blue => &[2],
            Alpha => &[3],
            Rg | RgInteger => &[0, 1],
            Rgb | RgbInteger => &[0, 1, 2],
            Bgr | BgrInteger => &[2, 1, 0],
            Rgba | RgbaInteger => &[0, 1, 2, 3],
            Bgra | BgraInteger => &[2, 1, 0, 3],
            Luminance => &[4],
            LuminanceAlpha => &[4, 3],
            DepthComponent => &[5],
            DepthStencil => &[5, 6],
            StencilIndex => &[6],
        }
    }

    /// The `_INTEGER` formats, which carry integer values unconverted.
    pub fn is_integer(self) -> bool {
        use PixelFormat::*;
        matches!(
            self,
            RedInteger | RgInteger | RgbInteger | BgrInteger | RgbaInteger | BgraInteger
        )
    }
}

impl PixelType {
    /// Parses a GL name (`GL_UNSIGNED_BYTE`, `float`, `UNSIGNED_INT_24_8`, ...).
    pub fn from_name(name: &str) -> Option<Self> {
        use PixelType::*;
        let n = name.trim_start_matches("GL_").to_ascii_uppercase();
        let n = n.trim_end_matches("_EXT").trim_end_matches("_ARB");
        Some(match n {
            "UNSIGNED_BYTE" => UnsignedByte,
            "BYTE" => Byte,
            "UNSIGNED_SHORT" => UnsignedShort,
            "SHORT" => Short,
            "UNSIGNED_INT" => UnsignedInt,
            "INT" => Int,
            "HALF_FLOAT" => HalfFloat,
            "FLOAT" => Float,
            "UNSIGNED_BYTE_3_3_2" => UnsignedByte332,
            "UNSIGNED_SHORT_5_6_5" => UnsignedShort565,
            "UNSIGNED_SHORT_4_4_4_4" => UnsignedShort4444,
            "UNSIGNED_SHORT_5_5_5_1" => UnsignedShort5551,
            "UNSIGNED_INT_8_8_8_8" => UnsignedInt8888,
            "UNSIGNED_INT_8_8_8_8_REV" => UnsignedInt8888Rev,
            "UNSIGNED_INT_10_10_10_2" => UnsignedInt1010102,
            "UNSIGNED_INT_2_10_10_10_REV" => UnsignedInt2101010Rev,
            "UNSIGNED_INT_24_8" => UnsignedInt248,
            "UNSIGNED_INT_10F_11F_11F_REV" => UnsignedInt10f11f11fRev,
            "UNSIGNED_INT_5_9_9_9_REV" => UnsignedInt5999Rev,
            "FLOAT_32_UNSIGNED_INT_24_8_REV" => Float32UnsignedInt248Rev,
            _ => return None,
        })
    }

    /// Packed fields (shift, bits) in element order, for packed types.
    pub(crate) fn fields(self) -> Option<&'static [(u32, u32)]> {
        use PixelType::*;
        Some(match self {
            UnsignedByte332 => &[(5, 3), (2, 3), (0, 2)],
            UnsignedShort565 => &[(11, 5), (5, 6), (0, 5)],
            UnsignedShort4444 => &[(12, 4), (8, 4), (4, 4), (0, 4)],
            UnsignedShort5551 => &[(11, 5), (6, 5), (1, 5), (0, 1)],
            UnsignedInt8888 => &[(24, 8), (16, 8), (8, 8), (0, 8)],
            UnsignedInt8888Rev => &[(0, 8), (8, 8), (16, 8), (24, 8)],
            UnsignedInt1010102 => &[(22, 10), (12, 10), (2, 10), (0, 2)],
            UnsignedInt2101010Rev => &[(0, 10), (10, 10), (20, 10), (30, 2)],
            _ => return None,
        })
    }

    /// Bytes per element (non-packed) or per group (packed).
    pub(crate) fn size(self) -> usize {
        use PixelType::*;
        match self {
            UnsignedByte | Byte | UnsignedByte332 => 1,
            UnsignedShort | Short | HalfFloat | UnsignedShort565 | UnsignedShort4444
            | UnsignedShort5551 => 2,
            Float32UnsignedInt248Rev => 8,
            _ => 4,
        }
    }

    fn packed(self) -> bool {
        !matches!(
            self,
            PixelType::UnsignedByte
                | PixelType::Byte
                | PixelType::UnsignedShort
                | PixelType::Short
                | PixelType::UnsignedInt
                | PixelType::Int
                | PixelType::HalfFloat
                | PixelType::Float
        )
    }
}

/// Client pixels: format, type, data, and the unpack row alignment (GL default 4).
#[derive(Copy, Clone, Debug)]
pub struct Pixels<'a> {
    /// Layout of one group.
    pub format: PixelFormat,
    /// Type of the elements.
    pub ty: PixelType,
    /// The bytes, rows bottom first.
    pub data: &'a [u8],
    /// UNPACK_ALIGNMENT: 1, 2, 4 or 8.
    pub alignment: usize,
}

/// Bytes one group occupies.
pub(crate) fn group_bytes(format: PixelFormat, ty: PixelType) -> usize {
    if ty.packed() {
        ty.size()
    } else {
        ty.size() * format.slots().len()
    }
}

fn read_le(b: &[u8], n: usize) -> u64 {
    let mut v = 0u64;
    for (i, x) in b.iter().take(n).enumerate() {
        v |= (*x as u64) << (8 * i);
    }
    v
}

/// Unpacks `w × h × d` groups to canonical RGBA values ready to encode into `target`:
/// float bits for float/normalized/depth formats, raw integers for integer formats.
pub fn unpack(
    px: &Pixels,
    w: u32,
    h: u32,
    d: u32,
    target: Format,
) -> Result<Vec<[u32; 4]>, TexError> {
    let row = check(px, w, h, d, target)?;
    convert(px, row, w, h as usize * d as usize, target)
}

/// Checks that `px` holds `w × h × d` groups that can go into `target`; the bytes from
/// one row to the next.
pub fn check(px: &Pixels, w: u32, h: u32, d: u32, target: Format) -> Result<usize, TexError> {
    let fmt = px.format;
    let ty = px.ty;
    if fmt == PixelFormat::StencilIndex {
        return Err(TexError::Invalid(format!(
            "STENCIL_INDEX data for {} textures",
            target.name()
        )));
    }
    let int_dst = target.is_integer();
    if fmt.is_integer() != int_dst {
        return Err(TexError::Invalid(format!(
            "{fmt:?} data for {} textures",
            target.name()
        )));
    }
    let depth_src = matches!(fmt, PixelFormat::DepthComponent | PixelFormat::DepthStencil);
    if depth_src != target.is_depth() {
        return Err(TexError::Invalid(format!(
            "{fmt:?} data for {} textures",
            target.name()
        )));
    }
    let fields = ty.fields();
    match ty {
        PixelType::UnsignedInt248 | PixelType::Float32UnsignedInt248Rev
            if fmt != PixelFormat::DepthStencil =>
        {
            return Err(TexError::Invalid(format!("{ty:?} needs DEPTH_STENCIL")));
        }
        PixelType::UnsignedInt10f11f11fRev | PixelType::UnsignedInt5999Rev
            if fmt != PixelFormat::Rgb =>
        {
            return Err(TexError::Invalid(format!("{ty:?} needs RGB")));
        }
        _ => {}
    }
    if let Some(f) = fields {
        if f.len() != fmt.slots().len() {
            return Err(TexError::Invalid(format!("{ty:?} does not fit {fmt:?}")));
        }
    }
    if fmt == PixelFormat::DepthStencil
        && !matches!(
            ty,
            PixelType::UnsignedInt248 | PixelType::Float32UnsignedInt248Rev
        )
    {
        return Err(TexError::Invalid(
            "DEPTH_STENCIL needs a packed depth-stencil type".into(),
        ));
    }
    let gb = group_bytes(fmt, ty);
    let align = px.alignment.clamp(1, 8);
    let row = (w as usize * gb).div_ceil(align) * align;
    let need = row * h as usize * d as usize;
    if px.data.len() < need.saturating_sub(row - w as usize * gb) {
        return Err(TexError::Invalid(format!(
            "{} bytes of pixel data, {} needed",
            px.data.len(),
            need
        )));
    }
    Ok(row)
}

/// Converts `rows` rows of `w` groups, `row` bytes apart from the start of `px.data`,
/// which [`check`] accepted.
fn convert(
    px: &Pixels,
    row: usize,
    w: u32,
    rows: usize,
    target: Format,
) -> Result<Vec<[u32; 4]>, TexError> {
    let (fmt, ty) = (px.format, px.ty);
    let int_dst = target.is_integer();
    let depth_src = matches!(fmt, PixelFormat::DepthComponent | PixelFormat::DepthStencil);
    let fields = ty.fields();
    let gb = group_bytes(fmt, ty);
    let one = if int_dst { 1u32 } else { 1.0f32.to_bits() };
    let clamp_depth = !matches!(target, Format::Depth32F | Format::Depth32FStencil8);
    let mut out = Vec::new();
    let n = w as usize * rows;
    out.try_reserve_exact(n)
        .map_err(|_| TexError::TooLarge(format!("{n} unpacked texels")))?;
    // Depth sources fill alpha with 1.0 whatever the destination.
    let blank = if depth_src {
        [0, 0, 0, 1.0f32.to_bits()]
    } else {
        [0u32, 0, 0, one]
    };
    let put = |slot: usize, v: u32, rgba: &mut [u32; 4]| match slot {
        0..=3 => rgba[slot] = v,
        4 => {
            rgba[0] = v;
            rgba[1] = v;
            rgba[2] = v;
        }
        5 => {
            let f = f32::from_bits(v);
            rgba[0] = if clamp_depth {
                f.clamp(0.0, 1.0).to_bits()
            } else {
                v
            };
        }
        _ => rgba[1] = v,
    };
    for y in 0..rows {
        let row_start = y * row;
        for x in 0..w as usize {
            let off = row_start + x * gb;
            let g = px.data.get(off..off + gb).unwrap_or(&[]);
            let mut rgba = blank;
            match ty {
                PixelType::UnsignedInt248 => {
                    let v = read_le(g, 4) as u32;
                    put(5, unorm_to_f32(v >> 8, 24).to_bits(), &mut rgba);
                    put(6, v & 0xff, &mut rgba);
                }
                PixelType::Float32UnsignedInt248Rev => {
                    let v = read_le(g, 8);
                    put(5, v as u32, &mut rgba);
                    put(6, ((v >> 32) as u32) & 0xff, &mut rgba);
                }
                PixelType::UnsignedInt10f11f11fRev => {
                    let v = read_le(g, 4) as u32;
                    let c = Format::R11fG11fB10f.decode(&v.to_le_bytes());
                    rgba = [c[0], c[1], c[2], one];
                }
                PixelType::UnsignedInt5999Rev => {
                    let v = read_le(g, 4) as u32;
                    let c = Format::Rgb9E5.decode(&v.to_le_bytes());
                    rgba = [c[0], c[1], c[2], one];
                }
                _ if fields.is_some() => {
                    let v = read_le(g, ty.size()) as u32;
                    for (slot, (shift, bits)) in fmt.slots().iter().zip(fields.unwrap_or(&[])) {
                        let c = (v >> shift) & ((1u32 << bits) - 1);
                        let val = if int_dst {
                            c
                        } else {
                            unorm_to_f32(c, *bits).to_bits()
                        };
                        put(*slot, val, &mut rgba);
                    }
                }
                _ => {
                    let es = ty.size();
                    for (k, slot) in fmt.slots().iter().enumerate() {
                        let raw = read_le(g.get(k * es..).unwrap_or(&[]), es) as u32;
                        let val = element(ty, raw, int_dst);
                        put(*slot, val, &mut rgba);
                    }
                }
            }
            out.push(rgba);
        }
    }
    Ok(out)
}

/// Converts one non-packed element: integers stay integers for integer destinations,
/// otherwise normalized (unsigned c/(2^n-1), signed max(c/(2^(n-1)-1), -1)) or float.
fn element(ty: PixelType, raw: u32, int_dst: bool) -> u32 {
    use PixelType::*;
    if int_dst {
        return match ty {
            Byte => sign_extend(raw, 8) as u32,
            Short => sign_extend(raw, 16) as u32,
            Float => f32::from_bits(raw) as i32 as u32,
            HalfFloat => half::f16::from_bits(raw as u16).to_f32() as i32 as u32,
            _ => raw,
        };
    }
    let f = match ty {
        UnsignedByte => unorm_to_f32(raw, 8),
        Byte => snorm_to_f32(sign_extend(raw, 8), 8),
        UnsignedShort => unorm_to_f32(raw, 16),
        Short => snorm_to_f32(sign_extend(raw, 16), 16),
        UnsignedInt => unorm_to_f32(raw, 32),
        Int => snorm_to_f32(raw as i32, 32),
        HalfFloat => half::f16::from_bits(raw as u16).to_f32(),
        _ => f32::from_bits(raw),
    };
    f.to_bits()
}

/// Texels converted per step of an upload: what an upload allocates beside the texture
/// stays this small (16 bytes a texel) whatever the image's size.
const UPLOAD_STEP_TEXELS: usize = 1 << 16;

impl Texture {
    /// `glTexImage*` / `glTexSubImage*`: unpacks client pixels and stores them in a box
    /// of a level, a few rows at a time. `offset`/`size` are physical (see [`Texture`]:
    /// 1D-array layers are z). RGBA8 from RGBA/UNSIGNED_BYTE is copied as it is.
    ///
    /// ```
    /// use glemu_textures::upload::{PixelFormat, PixelType, Pixels};
    /// use glemu_textures::{Format, Target, Texture};
    /// let mut t = Texture::new(Target::T2D, Format::RGBA8, [3, 2, 1], 1).unwrap();
    /// // Rows of 3 RGBA8 pixels padded to UNPACK_ALIGNMENT 8: 12 bytes + 4.
    /// let data: Vec<u8> = (0..32).collect();
    /// let px = Pixels { format: PixelFormat::Rgba, ty: PixelType::UnsignedByte, data: &data, alignment: 8 };
    /// t.upload(0, [0, 0, 0], [3, 2, 1], &px).unwrap();
    /// assert_eq!(&t.level(0).unwrap().bytes()[12..16], &[16, 17, 18, 19]);
    /// let px = Pixels { data: &data[..27], ..px };
    /// assert!(t.upload(0, [0, 0, 0], [3, 2, 1], &px).is_err());
    /// ```
    pub fn upload(
        &mut self,
        level: u32,
        offset: [u32; 3],
        size: [u32; 3],
        px: &Pixels,
    ) -> Result<(), TexError> {
        let [w, h, d] = size;
        let target = self.format();
        let row = check(px, w, h, d, target)?;
        let [x0, y0, z0] = offset;
        let verbatim = target == Format::RGBA8
            && px.format == PixelFormat::Rgba
            && px.ty == PixelType::UnsignedByte
            && self.samples() == 1;
        if verbatim && row == w as usize * 4 {
            let n = row * h as usize * d as usize;
            let data = px.data.get(..n).unwrap_or(px.data);
            return self.write_bytes(level, offset, size, data);
        }
        let step = (UPLOAD_STEP_TEXELS / w.max(1) as usize).clamp(1, h.max(1) as usize) as u32;
        for z in 0..d {
            for y in (0..h).step_by(step as usize) {
                let rows = step.min(h - y);
                let start = (z as usize * h as usize + y as usize) * row;
                let part = Pixels {
                    data: px.data.get(start..).unwrap_or(&[]),
                    ..*px
                };
                let (at, n) = ([x0, y0 + y, z0 + z], [w, rows, 1]);
                if verbatim {
                    for r in 0..rows {
                        let s = r as usize * row;
                        let bytes = part.data.get(s..s + w as usize * 4).unwrap_or(&[]);
                        self.write_bytes(level, [x0, y0 + y + r, z0 + z], [w, 1, 1], bytes)?;
                    }
                    continue;
                }
                let vals = convert(&part, row, w, rows as usize, target)?;
                self.write_texels(level, at, n, &vals)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texture::Target;

    fn px<'a>(format: PixelFormat, ty: PixelType, data: &'a [u8]) -> Pixels<'a> {
        Pixels {
            format,
            ty,
            data,
            alignment: 1,
        }
    }

    #[test]
    fn rgba_ubyte_and_bgra() {
        let mut t = Texture::new(Target::T2D, Format::RGBA8, [2, 1, 1], 1).unwrap();
        t.upload(
            0,
            [0, 0, 0],
            [2, 1, 1],
            &px(
                PixelFormat::Bgra,
                PixelType::UnsignedByte,
                &[1, 2, 3, 4, 5, 6, 7, 8],
            ),
        )
        .unwrap();
        assert_eq!(t.level(0).unwrap().bytes(), &[3, 2, 1, 4, 7, 6, 5, 8]);
    }

    #[test]
    fn luminance_alpha_and_missing_components() {
        let v = unpack(
            &px(
                PixelFormat::LuminanceAlpha,
                PixelType::UnsignedByte,
                &[255, 0],
            ),
            1,
            1,
            1,
            Format::RGBA8,
        )
        .unwrap();
        let one = 1.0f32.to_bits();
        assert_eq!(v[0], [one, one, one, 0]);
        let v = unpack(
            &px(
                PixelFormat::Rg,
                PixelType::Float,
                &[0, 0, 0, 63, 0, 0, 128, 63],
            ),
            1,
            1,
            1,
            Format::RGBA32F,
        )
        .unwrap();
        assert_eq!(v[0], [0.5f32.to_bits(), one, 0, one]);
        let v = unpack(
            &px(PixelFormat::Alpha, PixelType::Byte, &[0x81]),
            1,
            1,
            1,
            Format::RGBA8,
        )
        .unwrap();
        assert_eq!(v[0], [0, 0, 0, (-1.0f32).to_bits()]);
    }

    #[test]
    fn packed_types() {
        let v = unpack(
            &px(
                PixelFormat::Rgb,
                PixelType::UnsignedShort565,
                &0xf800u16.to_le_bytes(),
            ),
            1,
            1,
            1,
            Format::RGBA8,
        )
        .unwrap();
        assert_eq!(v[0][0], 1.0f32.to_bits());
        assert_eq!(v[0][1], 0);
        let v = unpack(
            &px(
                PixelFormat::Rgba,
                PixelType::UnsignedInt2101010Rev,
                &0xc000_03ffu32.to_le_bytes(),
            ),
            1,
            1,
            1,
            Format::Rgb10A2,
        )
        .unwrap();
        assert_eq!(v[0], [1.0f32.to_bits(), 0, 0, 1.0f32.to_bits()]);
        let v = unpack(
            &px(
                PixelFormat::Bgra,
                PixelType::UnsignedInt8888Rev,
                &[10, 20, 30, 40],
            ),
            1,
            1,
            1,
            Format::RGBA8,
        )
        .unwrap();
        // Rev: first element (B) in the low byte.
        assert_eq!(v[0][2], (10.0f32 / 255.0).to_bits());
        assert_eq!(v[0][0], (30.0f32 / 255.0).to_bits());
    }

    #[test]
    fn integer_and_depth_sources() {
        let v = unpack(
            &px(
                PixelFormat::RgbaInteger,
                PixelType::Int,
                &(-5i32).to_le_bytes().repeat(4),
            ),
            1,
            1,
            1,
            Format::RGBA32I,
        )
        .unwrap();
        assert_eq!(v[0], [(-5i32) as u32; 4]);
        assert!(unpack(
            &px(PixelFormat::Rgba, PixelType::Int, &[0; 16]),
            1,
            1,
            1,
            Format::RGBA32I
        )
        .is_err());
        let mut t = Texture::new(Target::T2D, Format::Depth24Stencil8, [1, 1, 1], 1).unwrap();
        t.upload(
            0,
            [0, 0, 0],
            [1, 1, 1],
            &px(
                PixelFormat::DepthStencil,
                PixelType::UnsignedInt248,
                &0xffff_ff05u32.to_le_bytes(),
            ),
        )
        .unwrap();
        assert_eq!(
            t.texel(0, 0, 0, 0, 0).unwrap(),
            [1.0f32.to_bits(), 5, 0, 1.0f32.to_bits()]
        );
        let v = unpack(
            &px(
                PixelFormat::DepthComponent,
                PixelType::Float,
                &2.0f32.to_le_bytes(),
            ),
            1,
            1,
            1,
            Format::Depth24,
        )
        .unwrap();
        assert_eq!(v[0][0], 1.0f32.to_bits());
    }

    #[test]
    fn row_alignment() {
        // 3 RGB ubyte texels = 9 bytes, rows padded to 12 with alignment 4.
        let mut data = vec![0u8; 12 + 9];
        data[12] = 255;
        let p = Pixels {
            format: PixelFormat::Rgb,
            ty: PixelType::UnsignedByte,
            data: &data,
            alignment: 4,
        };
        let v = unpack(&p, 3, 2, 1, Format::RGB8).unwrap();
        assert_eq!(v[3][0], 1.0f32.to_bits());
        assert!(unpack(&p, 3, 3, 1, Format::RGB8).is_err());
    }
}
