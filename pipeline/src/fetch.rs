//! Vertex fetch: attribute formats, arrays, index buffers and current values.
//!
//! Every attribute is delivered to the vertex program as four raw 32-bit words: f32 bits
//! for float/normalized/scaled formats, integer bits for `VertexAttribIPointer`-style
//! (NV_vertex_program4 integer) formats, and (low, high) word pairs for the 64-bit formats
//! of NV_vertex_attrib_integer_64bit.

use crate::error::{check_alloc, PipelineError};
use crate::memory::Buffer;
use rayon::prelude::*;
use std::sync::Arc;

/// Component type of an attribute array (the `type` of glVertexAttribPointer).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttribType {
    /// GL_BYTE: signed 8-bit.
    Byte,
    /// GL_UNSIGNED_BYTE: unsigned 8-bit.
    UnsignedByte,
    /// GL_SHORT: signed 16-bit.
    Short,
    /// GL_UNSIGNED_SHORT: unsigned 16-bit.
    UnsignedShort,
    /// GL_INT: signed 32-bit.
    Int,
    /// GL_UNSIGNED_INT: unsigned 32-bit.
    UnsignedInt,
    /// GL_HALF_FLOAT: 16-bit float.
    Half,
    /// GL_FLOAT: 32-bit float.
    Float,
    /// GL_DOUBLE: 64-bit float (converted to f32 unless read with glVertexAttribLPointer).
    Double,
    /// GL_INT_2_10_10_10_REV
    Int2101010Rev,
    /// GL_UNSIGNED_INT_2_10_10_10_REV
    UnsignedInt2101010Rev,
    /// NV_vertex_attrib_integer_64bit
    Int64,
    /// NV_vertex_attrib_integer_64bit: unsigned 64-bit.
    UnsignedInt64,
}

impl AttribType {
    /// Bytes one component takes (packed types: the whole 4-byte word).
    pub fn component_size(self) -> u32 {
        match self {
            AttribType::Byte | AttribType::UnsignedByte => 1,
            AttribType::Short | AttribType::UnsignedShort | AttribType::Half => 2,
            AttribType::Int
            | AttribType::UnsignedInt
            | AttribType::Float
            | AttribType::Int2101010Rev
            | AttribType::UnsignedInt2101010Rev => 4,
            AttribType::Double | AttribType::Int64 | AttribType::UnsignedInt64 => 8,
        }
    }

    fn is_packed(self) -> bool {
        matches!(
            self,
            AttribType::Int2101010Rev | AttribType::UnsignedInt2101010Rev
        )
    }
}

/// How array components become the values a program sees.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttribConversion {
    /// glVertexAttribPointer with normalized = FALSE: integers converted to float as is.
    Float,
    /// normalized = TRUE: unsigned to 0..=1, signed to -1..=1 (GL 4.2 rule max(c/MAX, -1)).
    Normalized,
    /// glVertexAttribIPointer: integer bits delivered unchanged (sign- or zero-extended).
    Integer,
    /// glVertexAttribLPointer / 64-bit integers: each component is two words (lo, hi).
    Long,
}

/// Layout of one attribute array.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct AttribFormat {
    /// Type of each stored component.
    pub ty: AttribType,
    /// Components stored per vertex: 1..=4.
    pub size: u8,
    /// GL_BGRA size: four components stored B, G, R, A.
    pub bgra: bool,
    /// How components become the program's input values.
    pub conversion: AttribConversion,
}

impl AttribFormat {
    /// Plain float components.
    pub fn float(size: u8) -> AttribFormat {
        AttribFormat {
            ty: AttribType::Float,
            size,
            bgra: false,
            conversion: AttribConversion::Float,
        }
    }

    /// Bytes one element takes (the stride of a tightly packed array).
    pub fn element_size(&self) -> u32 {
        if self.ty.is_packed() {
            4
        } else {
            self.ty.component_size() * u32::from(self.size)
        }
    }

    /// Checks the combinations GL accepts.
    pub fn validate(&self) -> Result<(), PipelineError> {
        if !(1..=4).contains(&self.size) {
            return Err(PipelineError::invalid_value(format!(
                "attribute size {} is not 1..4",
                self.size
            )));
        }
        if self.ty.is_packed() && self.size != 4 {
            return Err(PipelineError::invalid_op(
                "packed 2_10_10_10 attributes need size 4 (or BGRA)",
            ));
        }
        if self.bgra
            && !(self.size == 4
                && (self.ty == AttribType::UnsignedByte || self.ty.is_packed())
                && self.conversion == AttribConversion::Normalized)
        {
            return Err(PipelineError::invalid_op(
                "BGRA attributes must be normalized UNSIGNED_BYTE or 2_10_10_10 with 4 components",
            ));
        }
        match self.conversion {
            AttribConversion::Integer
                if matches!(
                    self.ty,
                    AttribType::Half | AttribType::Float | AttribType::Double
                ) || self.ty.is_packed() =>
            {
                Err(PipelineError::invalid_op(
                    "integer attributes need an integer component type",
                ))
            }
            AttribConversion::Long
                if !matches!(
                    self.ty,
                    AttribType::Double | AttribType::Int64 | AttribType::UnsignedInt64
                ) =>
            {
                Err(PipelineError::invalid_op(
                    "64-bit attributes need DOUBLE, INT64 or UNSIGNED_INT64",
                ))
            }
            AttribConversion::Long if self.size > 2 => Err(PipelineError::not_supported(
                "64-bit attributes with more than 2 components",
            )),
            _ => Ok(()),
        }
    }
}

/// An enabled attribute array.
#[derive(Clone, Debug)]
pub struct VertexArray {
    /// The buffer holding the array.
    pub buffer: Arc<Buffer>,
    /// Byte offset of element 0.
    pub offset: u64,
    /// Bytes between elements, as given: 0 reads element 0's bytes for every vertex
    /// (GL's `glBindVertexBuffer` stride; `glVertexAttribPointer`'s 0 = tightly packed is
    /// resolved by the caller).
    pub stride: u32,
    /// How each element is laid out and converted.
    pub format: AttribFormat,
    /// 0: per vertex; n: advance once every n instances (glVertexAttribDivisor).
    pub divisor: u32,
}

/// What a vertex program input reads: a generic attribute or a conventional array.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AttribSlot {
    /// `vertex.attrib[n]`: generic attribute n.
    Generic(u32),
    /// glVertexPointer: the position.
    Position,
    /// glWeightPointerARB: vertex blending weights.
    Weight,
    /// glNormalPointer.
    Normal,
    /// glColorPointer: the primary colour.
    Color,
    /// glSecondaryColorPointer.
    SecondaryColor,
    /// glFogCoordPointer.
    FogCoord,
    /// glTexCoordPointer of texture unit n.
    TexCoord(u32),
}

impl AttribSlot {
    /// NV_vertex_program's aliasing of generic attributes onto conventional ones
    /// (table X.2: 0 position, 1 weight, 2 normal, 3 color, 4 secondary color, 5 fog,
    /// 8-15 texture coordinates).
    pub fn nv_alias(self) -> Option<AttribSlot> {
        Some(match self {
            AttribSlot::Generic(0) => AttribSlot::Position,
            AttribSlot::Generic(1) => AttribSlot::Weight,
            AttribSlot::Generic(2) => AttribSlot::Normal,
            AttribSlot::Generic(3) => AttribSlot::Color,
            AttribSlot::Generic(4) => AttribSlot::SecondaryColor,
            AttribSlot::Generic(5) => AttribSlot::FogCoord,
            AttribSlot::Generic(n @ 8..=15) => AttribSlot::TexCoord(n - 8),
            AttribSlot::Position => AttribSlot::Generic(0),
            AttribSlot::Weight => AttribSlot::Generic(1),
            AttribSlot::Normal => AttribSlot::Generic(2),
            AttribSlot::Color => AttribSlot::Generic(3),
            AttribSlot::SecondaryColor => AttribSlot::Generic(4),
            AttribSlot::FogCoord => AttribSlot::Generic(5),
            AttribSlot::TexCoord(n @ 0..=7) => AttribSlot::Generic(n + 8),
            _ => return None,
        })
    }

    /// The value a slot has when neither an array nor a current value was given
    /// (GL's initial current values).
    pub fn default_value(self) -> [u32; 4] {
        let one = 1.0f32.to_bits();
        match self {
            AttribSlot::Color => [one; 4],
            AttribSlot::Normal => [0, 0, one, one],
            _ => [0, 0, 0, one],
        }
    }
}

/// One attribute: an enabled array, or the current value used when the array is disabled.
#[derive(Clone, Debug)]
pub struct AttribBinding {
    /// Which program input the attribute feeds.
    pub slot: AttribSlot,
    /// The enabled array, or `None` to use `current`.
    pub array: Option<VertexArray>,
    /// Raw bits of the current value (glVertexAttrib4f / glColor4f ...).
    pub current: [u32; 4],
}

/// Width of the entries of an index buffer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IndexType {
    /// GL_UNSIGNED_BYTE indices.
    U8,
    /// GL_UNSIGNED_SHORT indices.
    U16,
    /// GL_UNSIGNED_INT indices.
    U32,
}

impl IndexType {
    /// Bytes per index.
    pub fn size(self) -> u64 {
        match self {
            IndexType::U8 => 1,
            IndexType::U16 => 2,
            IndexType::U32 => 4,
        }
    }
}

/// The element array of an indexed draw.
#[derive(Clone, Debug)]
pub struct IndexBuffer {
    /// The buffer holding the indices (GL_ELEMENT_ARRAY_BUFFER).
    pub buffer: Arc<Buffer>,
    /// Byte offset of the first index (the `indices` pointer of glDrawElements).
    pub offset: u64,
    /// Width of each index.
    pub ty: IndexType,
}

/// Marks a restart in an index list produced by [`read_indices`].
pub const RESTART: u32 = u32::MAX;

/// Reads `count` indices; those equal to `restart` become [`RESTART`]. A u32 index of
/// 0xffffffff that is not the restart index also acts as a restart: it can never name a
/// real element (GL leaves such a vertex undefined), and dropping its primitives is
/// the least surprising undefined behaviour.
pub fn read_indices(
    ib: &IndexBuffer,
    count: u32,
    restart: Option<u32>,
) -> Result<Vec<u32>, PipelineError> {
    let n = check_alloc(u64::from(count), "index count")?;
    let size = ib.ty.size();
    let data = ib.buffer.lock();
    let end = ib
        .offset
        .checked_add(size * u64::from(count))
        .filter(|e| *e <= data.len() as u64)
        .ok_or_else(|| {
            PipelineError::invalid_op(format!(
                "{count} indices at offset {} overrun the {}-byte element array",
                ib.offset,
                data.len()
            ))
        })?;
    let bytes = data.get(ib.offset as usize..end as usize).unwrap_or(&[]);
    let mut out = crate::scratch::WORDS.with_capacity(n);
    // One loop per index size, so each compiles to plain loads (a byte-wise read_le per
    // index cost as much as the rest of index processing); on every worker of the
    // current rayon pool, each writing its part of `out` in place.
    let restart = |v: u32| if Some(v) == restart { RESTART } else { v };
    const MIN: usize = 1 << 14;
    match size {
        4 => out.par_extend(
            bytes
                .par_chunks_exact(4)
                .with_min_len(MIN)
                .map(|c| restart(u32::from_le_bytes([c[0], c[1], c[2], c[3]]))),
        ),
        2 => out.par_extend(
            bytes
                .par_chunks_exact(2)
                .with_min_len(MIN)
                .map(|c| restart(u32::from(u16::from_le_bytes([c[0], c[1]])))),
        ),
        _ => out.par_extend(
            bytes
                .par_chunks_exact(size as usize)
                .with_min_len(MIN)
                .map(|c| restart(crate::memory::read_le(c) as u32)),
        ),
    }
    Ok(out)
}

/// Converts one stored element (its bytes) to four raw words.
pub fn decode_element(format: &AttribFormat, bytes: &[u8]) -> [u32; 4] {
    // Missing components default to (0, 0, 0, 1) in the attribute's own type.
    let mut out = match format.conversion {
        AttribConversion::Integer => [0, 0, 0, 1],
        AttribConversion::Float | AttribConversion::Normalized => [0, 0, 0, 1.0f32.to_bits()],
        AttribConversion::Long => [0; 4],
    };
    if format.ty.is_packed() {
        let w = crate::memory::read_le(bytes) as u32;
        let signed = format.ty == AttribType::Int2101010Rev;
        let fields = [
            (w & 0x3ff, 10),
            ((w >> 10) & 0x3ff, 10),
            ((w >> 20) & 0x3ff, 10),
            (w >> 30, 2),
        ];
        for (i, (v, bits)) in fields.into_iter().enumerate() {
            let f = if signed {
                let s = ((v << (32 - bits)) as i32) >> (32 - bits);
                if format.conversion == AttribConversion::Normalized {
                    (s as f32 / ((1 << (bits - 1)) - 1) as f32).max(-1.0)
                } else {
                    s as f32
                }
            } else if format.conversion == AttribConversion::Normalized {
                v as f32 / ((1u32 << bits) - 1) as f32
            } else {
                v as f32
            };
            out[i] = f.to_bits();
        }
        if format.bgra {
            out.swap(0, 2);
        }
        return out;
    }
    let cs = format.ty.component_size() as usize;
    for i in 0..usize::from(format.size.min(4)) {
        let Some(c) = bytes.get(i * cs..(i + 1) * cs) else {
            break;
        };
        let raw = crate::memory::read_le(c);
        if format.conversion == AttribConversion::Long {
            // Two words per component; only x and y fit in four words.
            if let Some(pair) = out.get_mut(2 * i..2 * i + 2) {
                pair[0] = raw as u32;
                pair[1] = (raw >> 32) as u32;
            }
            continue;
        }
        out[i] = convert_component(format.ty, format.conversion, raw);
    }
    if format.bgra {
        out.swap(0, 2);
    }
    out
}

fn convert_component(ty: AttribType, conv: AttribConversion, raw: u64) -> u32 {
    use AttribType as T;
    let (int, bits, signed): (i64, u32, bool) = match ty {
        T::Half => return half::f16::from_bits(raw as u16).to_f32().to_bits(),
        T::Float => return raw as u32,
        T::Double => return (f64::from_bits(raw) as f32).to_bits(),
        T::Byte => (i64::from(raw as u8 as i8), 8, true),
        T::UnsignedByte => (i64::from(raw as u8), 8, false),
        T::Short => (i64::from(raw as u16 as i16), 16, true),
        T::UnsignedShort => (i64::from(raw as u16), 16, false),
        T::Int => (i64::from(raw as u32 as i32), 32, true),
        T::UnsignedInt => (i64::from(raw as u32), 32, false),
        T::Int64 => (raw as i64, 64, true),
        T::UnsignedInt64 => return (raw as f32).to_bits(),
        T::Int2101010Rev | T::UnsignedInt2101010Rev => (0, 1, false),
    };
    match conv {
        AttribConversion::Integer | AttribConversion::Long => int as u32,
        AttribConversion::Float => (int as f32).to_bits(),
        AttribConversion::Normalized => {
            let f = if signed {
                let max = ((1u64 << (bits - 1)) - 1) as f64;
                (int as f64 / max).max(-1.0)
            } else {
                int as f64 / ((1u64 << bits) - 1) as f64
            };
            (f as f32).to_bits()
        }
    }
}

/// Element index of an array for a vertex/instance (divisors and base instance applied).
pub fn element_index(array: &VertexArray, vertex: u32, instance: u32, base_instance: u32) -> u64 {
    match instance.checked_div(array.divisor) {
        Some(i) => u64::from(i) + u64::from(base_instance),
        None => u64::from(vertex),
    }
}

/// Reads attribute values of a whole array for a list of element indices, with the
/// buffer locked once. Elements past the end of the buffer read as zero (GL leaves them
/// undefined; this is what robust buffer access returns).
pub fn fetch_array(
    array: &VertexArray,
    elements: impl Iterator<Item = u64>,
    out: &mut Vec<[u32; 4]>,
) {
    let esize = u64::from(array.format.element_size());
    let stride = u64::from(array.stride);
    let data = array.buffer.lock();
    let f = &array.format;
    if f.ty == AttribType::Float && f.conversion == AttribConversion::Float && !f.bgra {
        // Plain floats (most arrays): the words as they are, (0, 0, 0, 1) filling the rest.
        let n = usize::from(f.size.min(4));
        for e in elements {
            let bytes = e
                .checked_mul(stride)
                .and_then(|s| s.checked_add(array.offset))
                .and_then(|s| {
                    let end = s.checked_add(esize)?;
                    data.get(usize::try_from(s).ok()?..usize::try_from(end).ok()?)
                });
            let mut v = [0, 0, 0, 1.0f32.to_bits()];
            match bytes {
                Some(b) => {
                    for (d, c) in v.iter_mut().zip(b.chunks_exact(4)).take(n) {
                        *d = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                    }
                }
                None => v = [0; 4],
            }
            out.push(v);
        }
        return;
    }
    for e in elements {
        let start = e
            .checked_mul(stride)
            .and_then(|s| s.checked_add(array.offset));
        let bytes = start.and_then(|s| {
            let end = s.checked_add(esize)?;
            data.get(usize::try_from(s).ok()?..usize::try_from(end).ok()?)
        });
        out.push(match bytes {
            Some(b) => decode_element(&array.format, b),
            None => [0, 0, 0, 0],
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(bits: u32) -> f32 {
        f32::from_bits(bits)
    }

    fn fmt(ty: AttribType, size: u8, conversion: AttribConversion) -> AttribFormat {
        AttribFormat {
            ty,
            size,
            bgra: false,
            conversion,
        }
    }

    fn decode(format: AttribFormat, bytes: &[u8]) -> [u32; 4] {
        format.validate().unwrap();
        decode_element(&format, bytes)
    }

    fn floats(v: [u32; 4]) -> [f32; 4] {
        v.map(f)
    }

    #[test]
    fn float_half_double() {
        let b: Vec<u8> = bytemuck::cast_slice(&[1.5f32, -2.0]).to_vec();
        assert_eq!(
            floats(decode(AttribFormat::float(2), &b)),
            [1.5, -2.0, 0.0, 1.0]
        );
        let h: Vec<u16> = [0.5f32, 3.0, -1.0]
            .map(|x| half::f16::from_f32(x).to_bits())
            .to_vec();
        let h: Vec<u8> = bytemuck::cast_slice(&h).to_vec();
        assert_eq!(
            floats(decode(
                fmt(AttribType::Half, 3, AttribConversion::Float),
                &h
            )),
            [0.5, 3.0, -1.0, 1.0]
        );
        let d: Vec<u8> = bytemuck::cast_slice(&[0.25f64, 7.0, 1.0, 2.0]).to_vec();
        assert_eq!(
            floats(decode(
                fmt(AttribType::Double, 4, AttribConversion::Float),
                &d
            )),
            [0.25, 7.0, 1.0, 2.0]
        );
    }

    #[test]
    fn normalized_8_16_32() {
        let n = AttribConversion::Normalized;
        assert_eq!(
            floats(decode(fmt(AttribType::UnsignedByte, 2, n), &[255, 0])),
            [1.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(
            floats(decode(fmt(AttribType::Byte, 3, n), &[127, 0x80, 0x81])),
            [1.0, -1.0, -1.0, 1.0]
        );
        let s: Vec<u8> = bytemuck::cast_slice(&[32767i16, -32768]).to_vec();
        assert_eq!(
            floats(decode(fmt(AttribType::Short, 2, n), &s)),
            [1.0, -1.0, 0.0, 1.0]
        );
        let us: Vec<u8> = bytemuck::cast_slice(&[65535u16]).to_vec();
        assert_eq!(
            floats(decode(fmt(AttribType::UnsignedShort, 1, n), &us))[0],
            1.0
        );
        let i: Vec<u8> = bytemuck::cast_slice(&[i32::MAX, 0]).to_vec();
        assert_eq!(
            floats(decode(fmt(AttribType::Int, 2, n), &i))[..2],
            [1.0, 0.0]
        );
        let u: Vec<u8> = u32::MAX.to_le_bytes().to_vec();
        assert_eq!(
            floats(decode(fmt(AttribType::UnsignedInt, 1, n), &u))[0],
            1.0
        );
        // 128 of 255 in unsigned byte
        assert_eq!(
            f(decode(fmt(AttribType::UnsignedByte, 1, n), &[128])[0]),
            128.0 / 255.0
        );
    }

    #[test]
    fn scaled_and_integer() {
        let c = AttribConversion::Float;
        assert_eq!(
            floats(decode(fmt(AttribType::Byte, 2, c), &[0xfe, 5])),
            [-2.0, 5.0, 0.0, 1.0]
        );
        let s: Vec<u8> = bytemuck::cast_slice(&[-300i16, 300]).to_vec();
        assert_eq!(
            decode(fmt(AttribType::Short, 2, AttribConversion::Integer), &s),
            [(-300i32) as u32, 300, 0, 1]
        );
        assert_eq!(
            decode(
                fmt(AttribType::UnsignedByte, 4, AttribConversion::Integer),
                &[1, 2, 3, 255]
            ),
            [1, 2, 3, 255]
        );
        let u: Vec<u8> = bytemuck::cast_slice(&[7u32, 0xffff_fffe]).to_vec();
        assert_eq!(
            decode(
                fmt(AttribType::UnsignedInt, 2, AttribConversion::Integer),
                &u
            ),
            [7, 0xffff_fffe, 0, 1]
        );
        let i: Vec<u8> = bytemuck::cast_slice(&[-7i32]).to_vec();
        assert_eq!(floats(decode(fmt(AttribType::Int, 1, c), &i))[0], -7.0);
        let us: Vec<u8> = bytemuck::cast_slice(&[40000u16]).to_vec();
        assert_eq!(
            decode(
                fmt(AttribType::UnsignedShort, 1, AttribConversion::Integer),
                &us
            )[0],
            40000
        );
    }

    #[test]
    fn sixty_four_bit() {
        let v: Vec<u8> = bytemuck::cast_slice(&[0x1_0000_0002u64, u64::MAX]).to_vec();
        assert_eq!(
            decode(
                fmt(AttribType::UnsignedInt64, 2, AttribConversion::Long),
                &v
            ),
            [2, 1, u32::MAX, u32::MAX]
        );
        let d = 1.5f64.to_bits().to_le_bytes();
        let out = decode(fmt(AttribType::Double, 1, AttribConversion::Long), &d);
        assert_eq!(
            u64::from(out[0]) | (u64::from(out[1]) << 32),
            1.5f64.to_bits()
        );
        assert!(fmt(AttribType::Int64, 3, AttribConversion::Long)
            .validate()
            .is_err());
        assert!(fmt(AttribType::Float, 1, AttribConversion::Long)
            .validate()
            .is_err());
    }

    #[test]
    fn packed_2_10_10_10_and_bgra() {
        // x = 511, y = -512, z = 1, w = -1 (signed)
        let w: u32 = 511 | (512 << 10) | (1 << 20) | (3 << 30);
        let fs = decode(
            fmt(AttribType::Int2101010Rev, 4, AttribConversion::Normalized),
            &w.to_le_bytes(),
        );
        assert_eq!(floats(fs), [1.0, -1.0, 1.0 / 511.0, -1.0]);
        let fs = decode(
            fmt(AttribType::Int2101010Rev, 4, AttribConversion::Float),
            &w.to_le_bytes(),
        );
        assert_eq!(floats(fs), [511.0, -512.0, 1.0, -1.0]);
        let u: u32 = 1023 | (512 << 20) | (2 << 30); // y = 0
        let fs = decode(
            fmt(
                AttribType::UnsignedInt2101010Rev,
                4,
                AttribConversion::Normalized,
            ),
            &u.to_le_bytes(),
        );
        assert_eq!(floats(fs), [1.0, 0.0, 512.0 / 1023.0, 2.0 / 3.0]);
        let mut bgra = fmt(
            AttribType::UnsignedInt2101010Rev,
            4,
            AttribConversion::Normalized,
        );
        bgra.bgra = true;
        assert_eq!(
            floats(decode(bgra, &u.to_le_bytes())),
            [512.0 / 1023.0, 0.0, 1.0, 2.0 / 3.0]
        );
        let mut b8 = fmt(AttribType::UnsignedByte, 4, AttribConversion::Normalized);
        b8.bgra = true;
        assert_eq!(floats(decode(b8, &[0, 51, 255, 255])), [1.0, 0.2, 0.0, 1.0]);
        let mut bad = fmt(AttribType::Float, 4, AttribConversion::Float);
        bad.bgra = true;
        assert!(bad.validate().is_err());
        assert!(fmt(AttribType::Int2101010Rev, 3, AttribConversion::Float)
            .validate()
            .is_err());
    }

    fn u16_buffer(v: &[u16]) -> Arc<Buffer> {
        Buffer::from_bytes(bytemuck::cast_slice(v).to_vec())
    }

    #[test]
    fn index_types_and_restart() {
        let b8 = IndexBuffer {
            buffer: Buffer::from_bytes(vec![9, 0, 1, 255, 2]),
            offset: 1,
            ty: IndexType::U8,
        };
        assert_eq!(
            read_indices(&b8, 4, Some(255)).unwrap(),
            vec![0, 1, RESTART, 2]
        );
        let b16 = IndexBuffer {
            buffer: u16_buffer(&[3, 0xffff, 4]),
            offset: 0,
            ty: IndexType::U16,
        };
        assert_eq!(read_indices(&b16, 3, None).unwrap(), vec![3, 0xffff, 4]);
        assert_eq!(
            read_indices(&b16, 3, Some(0xffff)).unwrap(),
            vec![3, RESTART, 4]
        );
        let b32 = IndexBuffer {
            buffer: Buffer::from_bytes(bytemuck::cast_slice(&[5u32, 6]).to_vec()),
            offset: 4,
            ty: IndexType::U32,
        };
        assert_eq!(read_indices(&b32, 1, None).unwrap(), vec![6]);
        assert!(read_indices(&b32, 2, None).is_err(), "overrun is an error");
        assert!(read_indices(&b32, u32::MAX, None).is_err());
    }

    #[test]
    fn strides_offsets_divisors() {
        // interleaved: [x:f32, pad:u32] stride 8, offset 4 skips a header word
        let words: Vec<u32> = vec![
            0xdead,
            1.0f32.to_bits(),
            0,
            2.0f32.to_bits(),
            0,
            3.0f32.to_bits(),
            0,
        ];
        let buffer = Buffer::from_bytes(bytemuck::cast_slice(&words[..]).to_vec());
        let mut array = VertexArray {
            buffer,
            offset: 4,
            stride: 8,
            format: AttribFormat::float(1),
            divisor: 0,
        };
        let mut out = Vec::new();
        fetch_array(&array, [2, 0, 1, 7].into_iter(), &mut out);
        assert_eq!(
            out.iter().map(|v| f(v[0])).collect::<Vec<_>>(),
            [3.0, 1.0, 2.0, 0.0]
        );
        assert_eq!(out[3], [0; 4], "out of range reads zero");
        array.divisor = 2;
        assert_eq!(element_index(&array, 5, 3, 0), 1);
        assert_eq!(element_index(&array, 5, 4, 1), 3);
        array.divisor = 0;
        assert_eq!(element_index(&array, 5, 4, 1), 5);
    }

    #[test]
    fn plain_float_arrays_read_as_decode_element() {
        let words: Vec<u32> = (0..23).map(|i| (i as f32 * 1.5 - 4.0).to_bits()).collect();
        let buffer = Buffer::from_bytes(bytemuck::cast_slice(&words[..]).to_vec());
        for size in 1..=4u8 {
            for stride in [4u32, 12, 16] {
                let array = VertexArray {
                    buffer: buffer.clone(),
                    offset: 8,
                    stride,
                    format: AttribFormat::float(size),
                    divisor: 0,
                };
                let elems = [0u64, 3, 1, 5, 30, u64::MAX];
                let mut out = Vec::new();
                fetch_array(&array, elems.into_iter(), &mut out);
                let data = array.buffer.lock();
                let want: Vec<[u32; 4]> = elems
                    .iter()
                    .map(|&e| {
                        let s = e
                            .checked_mul(u64::from(stride))
                            .and_then(|s| s.checked_add(8));
                        let end = s.and_then(|s| s.checked_add(4 * u64::from(size)));
                        match (s, end) {
                            (Some(s), Some(e)) if e <= data.len() as u64 => {
                                decode_element(&array.format, &data[s as usize..e as usize])
                            }
                            _ => [0; 4],
                        }
                    })
                    .collect();
                assert_eq!(out, want, "size {size} stride {stride}");
            }
        }
    }

    #[test]
    fn aliases_and_defaults() {
        assert_eq!(AttribSlot::Generic(3).nv_alias(), Some(AttribSlot::Color));
        assert_eq!(
            AttribSlot::TexCoord(2).nv_alias(),
            Some(AttribSlot::Generic(10))
        );
        assert_eq!(AttribSlot::Generic(6).nv_alias(), None);
        assert_eq!(f(AttribSlot::Color.default_value()[0]), 1.0);
        assert_eq!(f(AttribSlot::TexCoord(0).default_value()[3]), 1.0);
    }
}
