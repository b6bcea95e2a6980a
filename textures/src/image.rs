//! Image load, store and atomics (EXT_shader_image_load_store: LOADIM, STOREIM, ATOMIM).
//!
//! Loads and atomics are *unformatted*: they move the raw words of a texel (table X.2
//! layouts, which are exactly this crate's little-endian storage). Stores are unformatted
//! with a storage modifier, or *formatted* (converted to the image unit format) without.
//! Invalid accesses (missing texel, incompatible formats, bad layer) load zero, store
//! nothing and make atomics return zero, as the spec requires.

use crate::error::TexError;
use crate::format::Format;
use crate::texture::{Target, Texture};

/// An image unit binding (`BindImageTextureEXT` minus the texture).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ImageBinding {
    /// Level bound.
    pub level: u32,
    /// `layered`: the coordinate selects layers/faces; otherwise `layer` does.
    pub layered: bool,
    /// Layer (layer-face for cube maps and cube arrays) when not layered.
    pub layer: u32,
    /// The image unit format (table X.2).
    pub format: Format,
}

/// Storage modifiers of LOADIM / STOREIM / ATOMIM.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Storage {
    /// `.S8`: one sign-extended byte.
    S8,
    /// `.U8`: one zero-extended byte.
    U8,
    /// `.S16`: one sign-extended 16-bit value.
    S16,
    /// `.U16`: one zero-extended 16-bit value.
    U16,
    /// `.F32`: one word (float).
    F32,
    /// `.S32`: one word (signed).
    S32,
    /// `.U32`: one word (unsigned).
    U32,
    /// `.F32X2`: two words (float).
    F32X2,
    /// `.S32X2`: two words (signed).
    S32X2,
    /// `.U32X2`: two words (unsigned).
    U32X2,
    /// `.F32X4`: four words (float).
    F32X4,
    /// `.S32X4`: four words (signed).
    S32X4,
    /// `.U32X4`: four words (unsigned).
    U32X4,
}

impl Storage {
    /// Bytes moved.
    pub fn bytes(self) -> usize {
        match self {
            Storage::S8 | Storage::U8 => 1,
            Storage::S16 | Storage::U16 => 2,
            Storage::F32 | Storage::S32 | Storage::U32 => 4,
            Storage::F32X2 | Storage::S32X2 | Storage::U32X2 => 8,
            _ => 16,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Storage::F32 | Storage::F32X2 | Storage::F32X4)
    }
}

/// Base data type of a formatted store's data.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DataType {
    /// Floats (converted like `TexImage(RGBA, FLOAT)`).
    F32,
    /// Signed integers.
    S32,
    /// Unsigned integers.
    U32,
}

/// ATOMIM operations (table X.4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// `ADD`: memory + operand.
    Add,
    /// `MIN`: minimum.
    Min,
    /// `MAX`: maximum.
    Max,
    /// `IWRAP`: increment, wrapping to 0 past the operand.
    Iwrap,
    /// `DWRAP`: decrement, wrapping to the operand below 0.
    Dwrap,
    /// `AND`.
    And,
    /// `OR`.
    Or,
    /// `XOR`.
    Xor,
    /// `EXCH`: store the operand.
    Exch,
    /// `CSWAP`: store operand.y if memory equals operand.x.
    Cswap,
}

/// True if `format` can be an image unit format (table X.2).
pub fn is_image_format(format: Format) -> bool {
    use Format as F;
    matches!(
        format,
        F::RGBA32F
            | F::RGBA16F
            | F::RG32F
            | F::RG16F
            | F::R11fG11fB10f
            | F::R32F
            | F::R16F
            | F::RGBA32UI
            | F::RGBA16UI
            | F::Rgb10A2Ui
            | F::RGBA8UI
            | F::RG32UI
            | F::RG16UI
            | F::RG8UI
            | F::R32UI
            | F::R16UI
            | F::R8UI
            | F::RGBA32I
            | F::RGBA16I
            | F::RGBA8I
            | F::RG32I
            | F::RG16I
            | F::RG8I
            | F::R32I
            | F::R16I
            | F::R8I
            | F::RGBA16
            | F::Rgb10A2
            | F::RGBA8
            | F::RG16
            | F::RG8
            | F::R16
            | F::R8
            | F::RGBA16_SNORM
            | F::RGBA8_SNORM
            | F::RG16_SNORM
            | F::RG8_SNORM
            | F::R16_SNORM
            | F::R8_SNORM
    )
}

/// Physical texel address of one access.
#[derive(Copy, Clone, Debug)]
struct Addr {
    x: u32,
    y: u32,
    z: u32,
    sample: u32,
}

fn resolve(tex: &Texture, b: &ImageBinding, target: Target, c: [i32; 4]) -> Option<Addr> {
    if !is_image_format(b.format)
        || !is_image_format(tex.format())
        || b.format.bytes_per_texel() != tex.format().bytes_per_texel()
    {
        return None;
    }
    let lv = tex.level(b.level)?;
    // Components the instruction's target does not use are zeroed (LOADIM pseudo-code).
    let mut c = c;
    if matches!(target, Target::T1D | Target::Buffer) {
        c[1] = 0;
    }
    if matches!(
        target,
        Target::T1D | Target::T2D | Target::Buffer | Target::Rect | Target::T2DMs
    ) {
        c[2] = 0;
    }
    if !target.is_multisample() {
        c[3] = 0;
    }
    let has_layers = tex.target().is_array() || tex.target().is_cube();
    // Table X.1: which coordinate is i, j, k and which selects the layer/face.
    let (i, j, k, layer) = match tex.target() {
        Target::T1D | Target::Buffer => (c[0], 0, 0, 0),
        Target::T2D | Target::Rect | Target::T2DMs => (c[0], c[1], 0, 0),
        Target::T3D => (c[0], c[1], c[2], 0),
        Target::Array1D => (c[0], 0, 0, c[1]),
        Target::Cube | Target::Array2D | Target::ArrayCube | Target::Array2DMs => {
            (c[0], c[1], 0, c[2])
        }
    };
    let z = if has_layers {
        if b.layered {
            layer
        } else {
            if layer != 0 {
                return None;
            }
            i32::try_from(b.layer).ok()?
        }
    } else {
        k
    };
    let ok = |v: i32, n: u32| v >= 0 && (v as u32) < n;
    if !ok(i, lv.width) || !ok(j, lv.height) || !ok(z, lv.depth) || !ok(c[3], tex.samples()) {
        return None;
    }
    Some(Addr {
        x: i as u32,
        y: j as u32,
        z: z as u32,
        sample: c[3] as u32,
    })
}

fn raw_bytes(tex: &Texture, b: &ImageBinding, a: Addr) -> Option<[u8; 16]> {
    let lv = tex.level(b.level)?;
    let bpt = tex.format().bytes_per_texel();
    let idx = ((a.z as usize * lv.height as usize + a.y as usize) * lv.width as usize
        + a.x as usize)
        * tex.samples() as usize
        + a.sample as usize;
    let src = lv.bytes().get(idx * bpt..(idx + 1) * bpt)?;
    let mut out = [0u8; 16];
    for (d, s) in out.iter_mut().zip(src) {
        *d = *s;
    }
    Some(out)
}

fn word(b: &[u8; 16], i: usize) -> u32 {
    u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
}

/// LOADIM for the lanes in `mask`: `coords` are (x, y, z, sample) per lane; results are
/// raw words per the storage modifier (unused components 0, 0, 1 with 1 as float or int).
pub fn load<const N: usize>(
    tex: &Texture,
    b: &ImageBinding,
    target: Target,
    storage: Storage,
    coords: &[[i32; N]; 4],
    mask: u64,
    out: &mut [[u32; N]; 4],
) {
    let one = if storage.is_float() {
        1.0f32.to_bits()
    } else {
        1
    };
    let valid = storage.bytes() == b.format.bytes_per_texel();
    for i in lanes(mask, N) {
        let c = [coords[0][i], coords[1][i], coords[2][i], coords[3][i]];
        let raw = if valid {
            resolve(tex, b, target, c).and_then(|a| raw_bytes(tex, b, a))
        } else {
            None
        };
        let v = match raw {
            None => [0; 4],
            Some(r) => match storage {
                Storage::S8 => [r[0] as i8 as i32 as u32, 0, 0, one],
                Storage::U8 => [r[0] as u32, 0, 0, one],
                Storage::S16 => [i16::from_le_bytes([r[0], r[1]]) as i32 as u32, 0, 0, one],
                Storage::U16 => [u16::from_le_bytes([r[0], r[1]]) as u32, 0, 0, one],
                Storage::F32 | Storage::S32 | Storage::U32 => [word(&r, 0), 0, 0, one],
                Storage::F32X2 | Storage::S32X2 | Storage::U32X2 => {
                    [word(&r, 0), word(&r, 1), 0, one]
                }
                _ => [word(&r, 0), word(&r, 1), word(&r, 2), word(&r, 3)],
            },
        };
        for c in 0..4 {
            out[c][i] = v[c];
        }
    }
}

/// How STOREIM writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StoreKind {
    /// Formatted: data of this type converted to the image unit format.
    Formatted(DataType),
    /// Unformatted: raw words of this storage size.
    Raw(Storage),
}

/// STOREIM for the lanes in `mask` (lanes in increasing order, so the highest active lane
/// wins when several write one texel).
pub fn store<const N: usize>(
    tex: &mut Texture,
    b: &ImageBinding,
    target: Target,
    kind: StoreKind,
    data: &[[u32; N]; 4],
    coords: &[[i32; N]; 4],
    mask: u64,
) -> Result<(), TexError> {
    if let StoreKind::Raw(s) = kind {
        if s.bytes() != b.format.bytes_per_texel() {
            return Ok(());
        }
    }
    if let StoreKind::Formatted(dt) = kind {
        let int_fmt = b.format.is_integer();
        if int_fmt == (dt == DataType::F32) {
            return Ok(());
        }
    }
    for i in lanes(mask, N) {
        let c = [coords[0][i], coords[1][i], coords[2][i], coords[3][i]];
        let Some(a) = resolve(tex, b, target, c) else {
            continue;
        };
        let v = [data[0][i], data[1][i], data[2][i], data[3][i]];
        match kind {
            StoreKind::Formatted(_) => {
                tex.set_texel_as(b.format, b.level, a.x, a.y, a.z, a.sample, v)?
            }
            StoreKind::Raw(s) => {
                let (bytes, texel, fmt) = tex.texel_bytes_mut(b.level, a.x, a.y, a.z, a.sample)?;
                let mut raw = [0u8; 16];
                for (k, w) in v.iter().enumerate() {
                    raw[4 * k..4 * k + 4].copy_from_slice(&w.to_le_bytes());
                }
                for (d, s) in bytes.iter_mut().zip(raw.iter()).take(s.bytes()) {
                    *d = *s;
                }
                *texel = fmt.decode(bytes);
            }
        }
    }
    Ok(())
}

/// ATOMIM for the lanes in `mask`, in lane order: `data.x` is the operand (`data.y` the
/// new value of CSWAP); each lane's result (the old value, 0 when invalid) is written to
/// all four components of `out`. Only 32-bit images (U32 / S32 storage) are supported.
#[allow(clippy::too_many_arguments)]
pub fn atomic<const N: usize>(
    tex: &mut Texture,
    b: &ImageBinding,
    target: Target,
    op: AtomicOp,
    signed: bool,
    data: &[[u32; N]; 4],
    coords: &[[i32; N]; 4],
    mask: u64,
    out: &mut [[u32; N]; 4],
) -> Result<(), TexError> {
    for i in lanes(mask, N) {
        let c = [coords[0][i], coords[1][i], coords[2][i], coords[3][i]];
        let mut old = 0u32;
        if b.format.bytes_per_texel() == 4 {
            if let Some(a) = resolve(tex, b, target, c) {
                let (bytes, texel, fmt) = tex.texel_bytes_mut(b.level, a.x, a.y, a.z, a.sample)?;
                let mut w = [0u8; 4];
                for (d, s) in w.iter_mut().zip(bytes.iter()) {
                    *d = *s;
                }
                old = u32::from_le_bytes(w);
                let new = atomic_op(op, signed, old, data[0][i], data[1][i]);
                for (d, s) in bytes.iter_mut().zip(new.to_le_bytes()) {
                    *d = s;
                }
                *texel = fmt.decode(bytes);
            }
        }
        for ch in out.iter_mut() {
            ch[i] = old;
        }
    }
    Ok(())
}

/// One atomic computation (ATOMIM pseudo-code): the value written back.
pub fn atomic_op(op: AtomicOp, signed: bool, mem: u32, a: u32, b: u32) -> u32 {
    match op {
        AtomicOp::Add => mem.wrapping_add(a),
        AtomicOp::Min if signed => (mem as i32).min(a as i32) as u32,
        AtomicOp::Min => mem.min(a),
        AtomicOp::Max if signed => (mem as i32).max(a as i32) as u32,
        AtomicOp::Max => mem.max(a),
        AtomicOp::Iwrap => {
            if mem >= a {
                0
            } else {
                mem + 1
            }
        }
        AtomicOp::Dwrap => {
            if mem == 0 || mem > a {
                a
            } else {
                mem - 1
            }
        }
        AtomicOp::And => mem & a,
        AtomicOp::Or => mem | a,
        AtomicOp::Xor => mem ^ a,
        AtomicOp::Exch => a,
        AtomicOp::Cswap => {
            if mem == a {
                b
            } else {
                mem
            }
        }
    }
}

fn lanes(mask: u64, n: usize) -> impl Iterator<Item = usize> {
    let mask = if n >= 64 {
        mask
    } else {
        mask & ((1u64 << n) - 1)
    };
    (0..64usize).filter(move |i| mask >> i & 1 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bind(format: Format) -> ImageBinding {
        ImageBinding {
            level: 0,
            layered: true,
            layer: 0,
            format,
        }
    }

    #[test]
    fn store_then_load_raw_and_formatted() {
        let mut t = Texture::new(Target::T2D, Format::RGBA8, [2, 2, 1], 1).unwrap();
        let b = bind(Format::RGBA8);
        let mut data = [[0u32; 4]; 4];
        data[0][1] = 1.0f32.to_bits();
        data[3][1] = 0.5f32.to_bits();
        let mut coords = [[0i32; 4]; 4];
        coords[0][1] = 1;
        coords[1][1] = 1;
        store(
            &mut t,
            &b,
            Target::T2D,
            StoreKind::Formatted(DataType::F32),
            &data,
            &coords,
            0b10,
        )
        .unwrap();
        let mut out = [[7u32; 4]; 4];
        load(
            &t,
            &bind(Format::R32UI),
            Target::T2D,
            Storage::U32,
            &coords,
            0b10,
            &mut out,
        );
        assert_eq!(out[0][1], 0x8000_00ff);
        assert_eq!(out[3][1], 1);
        // Lane 0 was not in the mask.
        assert_eq!(out[0][0], 7);
        // The sampled copy follows.
        assert_eq!(t.texel(0, 1, 1, 0, 0).unwrap()[0], 1.0f32.to_bits());
        // Unformatted store through a 32-bit view.
        let mut raw = [[0u32; 4]; 4];
        raw[0][0] = 0x0000_ff00;
        store(
            &mut t,
            &bind(Format::R32UI),
            Target::T2D,
            StoreKind::Raw(Storage::U32),
            &raw,
            &[[0; 4]; 4],
            1,
        )
        .unwrap();
        assert_eq!(t.texel(0, 0, 0, 0, 0).unwrap()[1], 1.0f32.to_bits());
    }

    #[test]
    fn invalid_accesses() {
        let mut t = Texture::new(Target::T2D, Format::R32UI, [2, 2, 1], 1).unwrap();
        let mut out = [[9u32; 1]; 4];
        let far = [[5i32; 1]; 4];
        load(
            &t,
            &bind(Format::R32UI),
            Target::T2D,
            Storage::U32,
            &far,
            1,
            &mut out,
        );
        assert_eq!(out, [[0]; 4]);
        // Size-incompatible view: invalid.
        load(
            &t,
            &bind(Format::R8UI),
            Target::T2D,
            Storage::U8,
            &[[0; 1]; 4],
            1,
            &mut out,
        );
        assert_eq!(out[0][0], 0);
        // Wrong storage width for the format: invalid.
        load(
            &t,
            &bind(Format::R32UI),
            Target::T2D,
            Storage::U32X2,
            &[[0; 1]; 4],
            1,
            &mut out,
        );
        assert_eq!(out[0][0], 0);
        // Float data into an integer image: ignored.
        store(
            &mut t,
            &bind(Format::R32UI),
            Target::T2D,
            StoreKind::Formatted(DataType::F32),
            &[[1; 1]; 4],
            &[[0; 1]; 4],
            1,
        )
        .unwrap();
        assert_eq!(t.texel(0, 0, 0, 0, 0).unwrap()[0], 0);
    }

    #[test]
    fn atomics() {
        let mut t = Texture::new(Target::Array2D, Format::R32UI, [1, 1, 2], 1).unwrap();
        let b = ImageBinding {
            level: 0,
            layered: false,
            layer: 1,
            format: Format::R32UI,
        };
        let mut out = [[0u32; 4]; 4];
        let data = [[5u32; 4], [0; 4], [0; 4], [0; 4]];
        atomic(
            &mut t,
            &b,
            Target::T2D,
            AtomicOp::Add,
            false,
            &data,
            &[[0; 4]; 4],
            0b1111,
            &mut out,
        )
        .unwrap();
        assert_eq!(out[0], [0, 5, 10, 15]);
        assert_eq!(t.texel(0, 0, 0, 1, 0).unwrap()[0], 20);
        assert_eq!(t.texel(0, 0, 0, 0, 0).unwrap()[0], 0);
        assert_eq!(atomic_op(AtomicOp::Iwrap, false, 3, 3, 0), 0);
        assert_eq!(atomic_op(AtomicOp::Iwrap, false, 2, 3, 0), 3);
        assert_eq!(atomic_op(AtomicOp::Dwrap, false, 0, 3, 0), 3);
        assert_eq!(atomic_op(AtomicOp::Dwrap, false, 2, 3, 0), 1);
        assert_eq!(
            atomic_op(AtomicOp::Min, true, (-1i32) as u32, 1, 0),
            (-1i32) as u32
        );
        assert_eq!(atomic_op(AtomicOp::Min, false, (-1i32) as u32, 1, 0), 1);
        assert_eq!(atomic_op(AtomicOp::Cswap, false, 4, 4, 9), 9);
        assert_eq!(atomic_op(AtomicOp::Cswap, false, 4, 5, 9), 4);
        assert_eq!(atomic_op(AtomicOp::Exch, false, 4, 5, 9), 5);
    }

    #[test]
    fn layered_cube_and_1d_array_coordinates() {
        let mut t = Texture::new(Target::Cube, Format::R32UI, [2, 2, 6], 1).unwrap();
        let b = bind(Format::R32UI);
        let mut coords = [[0i32; 1]; 4];
        coords[2][0] = 4; // +Z face
        store(
            &mut t,
            &b,
            Target::Cube,
            StoreKind::Raw(Storage::U32),
            &[[77; 1], [0; 1], [0; 1], [0; 1]],
            &coords,
            1,
        )
        .unwrap();
        assert_eq!(t.texel(0, 0, 0, 4, 0).unwrap()[0], 77);
        coords[2][0] = 6; // no such face
        let mut out = [[1u32; 1]; 4];
        load(&t, &b, Target::Cube, Storage::U32, &coords, 1, &mut out);
        assert_eq!(out[0][0], 0);
        let mut a = Texture::new(Target::Array1D, Format::R8UI, [4, 3, 1], 1).unwrap();
        let c = [[1i32; 1], [2; 1], [0; 1], [0; 1]]; // x = 1, layer = 2
        store(
            &mut a,
            &bind(Format::R8UI),
            Target::Array1D,
            StoreKind::Formatted(DataType::U32),
            &[[300; 1], [0; 1], [0; 1], [0; 1]],
            &c,
            1,
        )
        .unwrap();
        assert_eq!(a.texel(0, 1, 0, 2, 0).unwrap()[0], 255); // formatted stores saturate
        load(
            &a,
            &bind(Format::R8I),
            Target::Array1D,
            Storage::S8,
            &c,
            1,
            &mut out,
        );
        assert_eq!(out[0][0], u32::MAX); // raw 0xff read as S8 is -1
    }
}
