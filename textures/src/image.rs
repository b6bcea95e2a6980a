//! Image load, store and atomics (EXT_shader_image_load_store: LOADIM, STOREIM, ATOMIM).
//!
//! Loads and atomics are *unformatted*: they move the raw words of a texel (table X.2
//! layouts, which are exactly this crate's little-endian storage). Stores are unformatted
//! with a storage modifier, or *formatted* (converted to the image unit format) without.
//! Invalid accesses (missing texel, incompatible formats, bad layer) load zero, store
//! nothing and make atomics return zero, as the spec requires.
//!
//! A draw works on [`ImageMemory`], a copy of the bound level in atomic words that any
//! number of threads share, and writes it back into the [`Texture`] when it ends.

use crate::error::TexError;
use crate::format::Format;
use crate::texture::{Target, Texture};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// An image unit binding (`BindImageTextureEXT` minus the texture).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ImageBinding {
    /// Level bound (the level the [`ImageMemory`] is made from).
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
    /// NV_gpu_program5_mem_extended: `.F16`, `.F16X2`, `.F16X4`, `.S8X2`, `.S8X4`,
    /// `.U8X2`, `.U8X4`, `.S16X2`, `.S16X4`, `.U16X2`, `.U16X4`: `count` packed elements
    /// of `elem`. Loads fill the listed components and zero the rest (the extension's
    /// BufferMemoryLoad); stores keep the low bits of integers and convert floats to
    /// half.
    Packed {
        /// The element type: one of `S8`, `U8`, `S16`, `U16` or `F16`.
        elem: Elem,
        /// 1 (F16 only), 2 or 4.
        count: u8,
    },
}

/// The element type of a [`Storage::Packed`] modifier.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    /// Signed byte.
    S8,
    /// Unsigned byte.
    U8,
    /// Signed 16-bit integer.
    S16,
    /// Unsigned 16-bit integer.
    U16,
    /// Half float (read as f32 bits).
    F16,
}

impl Elem {
    fn bytes(self) -> usize {
        match self {
            Elem::S8 | Elem::U8 => 1,
            _ => 2,
        }
    }

    /// The element at the start of `b` as a 32-bit register value.
    fn decode(self, b: &[u8]) -> u32 {
        let byte = |i: usize| b.get(i).copied().unwrap_or(0);
        let h = |_: &[u8]| u16::from_le_bytes([byte(0), byte(1)]);
        match self {
            Elem::S8 => byte(0) as i8 as i32 as u32,
            Elem::U8 => u32::from(byte(0)),
            Elem::S16 => h(b) as i16 as i32 as u32,
            Elem::U16 => u32::from(h(b)),
            Elem::F16 => half::f16::from_bits(h(b)).to_f32().to_bits(),
        }
    }

    /// A register value as this element's little-endian bytes (low bits of integers).
    fn encode(self, v: u32) -> [u8; 2] {
        match self {
            Elem::F16 => half::f16::from_f32(f32::from_bits(v))
                .to_bits()
                .to_le_bytes(),
            _ => (v as u16).to_le_bytes(),
        }
    }
}

impl Storage {
    /// Bytes moved.
    pub fn bytes(self) -> usize {
        match self {
            Storage::S8 | Storage::U8 => 1,
            Storage::S16 | Storage::U16 => 2,
            Storage::F32 | Storage::S32 | Storage::U32 => 4,
            Storage::F32X2 | Storage::S32X2 | Storage::U32X2 => 8,
            Storage::Packed { elem, count } => elem.bytes() * usize::from(count.min(4)),
            _ => 16,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Storage::F32 | Storage::F32X2 | Storage::F32X4)
            || matches!(
                self,
                Storage::Packed {
                    elem: Elem::F16,
                    ..
                }
            )
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

/// How STOREIM writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum StoreKind {
    /// Formatted: data of this type converted to the image unit format.
    Formatted(DataType),
    /// Unformatted: raw words of this storage size.
    Raw(Storage),
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

/// A texture level as image memory for the duration of a draw: its bytes as 32-bit words
/// with std atomics, so every invocation of every stage, on any thread, loads, stores and
/// runs atomics on it without locks and without data races. [`ImageMemory::write_back`]
/// puts the result into the texture (bytes and decoded texels) after the draw.
///
/// Texels of 1 and 2 bytes share a word with their neighbours; they are written with a
/// compare-and-swap loop on that word, so concurrent stores to neighbouring texels never
/// lose each other. 8- and 16-byte texels are written word by word: concurrent stores to
/// one such texel may interleave, which the spec leaves undefined anyway.
#[derive(Debug)]
pub struct ImageMemory {
    target: Target,
    format: Format,
    level: u32,
    width: u32,
    height: u32,
    depth: u32,
    samples: u32,
    /// Bytes of the level.
    len: usize,
    words: Vec<AtomicU32>,
    written: AtomicBool,
    /// One flag per row (y, z) of the level: rows written during the draw, the only ones
    /// [`ImageMemory::write_back`] copies and re-decodes.
    dirty_rows: Vec<AtomicBool>,
}

/// Where one access lands: byte offset and size.
#[derive(Copy, Clone, Debug)]
struct Texel {
    offset: usize,
    size: usize,
    /// Row index `z × height + y`.
    row: usize,
}

impl ImageMemory {
    /// Copies `level` of `tex` into image memory. Fails if the level does not exist.
    pub fn new(tex: &Texture, level: u32) -> Result<ImageMemory, TexError> {
        let lv = tex
            .level(level)
            .ok_or_else(|| TexError::Invalid(format!("level {level} does not exist")))?;
        // Formats outside table X.2 (compressed, depth, sRGB ...) make every access
        // invalid, so their bytes are never needed.
        let bytes = if is_image_format(tex.format()) {
            lv.bytes()
        } else {
            &[]
        };
        let mut words = Vec::new();
        let n = bytes.len().div_ceil(4);
        words
            .try_reserve_exact(n)
            .map_err(|_| TexError::TooLarge(format!("{} bytes of image memory", bytes.len())))?;
        words.extend(bytes.chunks(4).map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            AtomicU32::new(u32::from_le_bytes(w))
        }));
        Ok(ImageMemory {
            target: tex.target(),
            format: tex.format(),
            level,
            width: lv.width,
            height: lv.height,
            depth: lv.depth,
            samples: tex.samples(),
            len: bytes.len(),
            words,
            written: AtomicBool::new(false),
            dirty_rows: (0..lv.height as usize * lv.depth as usize)
                .map(|_| AtomicBool::new(false))
                .collect(),
        })
    }

    /// Bytes [`ImageMemory::new`] allocates for `level` of `tex` (what a memory budget
    /// checks first): the level's bytes, for formats images can access.
    pub fn bytes_for(tex: &Texture, level: u32) -> u64 {
        match tex.level(level) {
            Some(lv) if is_image_format(tex.format()) => lv.bytes().len().div_ceil(4) as u64 * 4,
            _ => 0,
        }
    }

    /// Bytes the memory holds.
    pub fn heap_bytes(&self) -> u64 {
        (self.words.capacity() * 4 + self.dirty_rows.capacity()) as u64
    }

    /// The texture level this memory holds.
    pub fn level(&self) -> u32 {
        self.level
    }

    /// True once a store or atomic has changed (or may have changed) a texel.
    pub fn written(&self) -> bool {
        self.written.load(Ordering::Relaxed)
    }

    /// Copies the rows written since creation or the last write-back into `tex` (the
    /// texture it was made from, or one of the same shape), updating bytes and decoded
    /// texels, and marks them clean: the memory and the texture are equal afterwards, so
    /// the memory can serve the next draw. Call it when no draw is using the memory.
    pub fn write_back(&self, tex: &mut Texture) -> Result<(), TexError> {
        let row_bytes = self.width as usize * self.samples as usize * self.format.bytes_per_texel();
        let dirty = |r: usize| {
            self.dirty_rows
                .get(r)
                .is_some_and(|d| d.swap(false, Ordering::Relaxed))
        };
        self.written.store(false, Ordering::Relaxed);
        let mut row = 0;
        while row < self.dirty_rows.len() {
            if !dirty(row) {
                row += 1;
                continue;
            }
            // A run of dirty rows within one slice is one sub-image write.
            let (y, z) = (row % self.height as usize, row / self.height as usize);
            let mut end = row + 1;
            while end < self.dirty_rows.len() && end % self.height as usize != 0 && dirty(end) {
                end += 1;
            }
            let bytes = self.bytes(row * row_bytes, end * row_bytes)?;
            tex.write_bytes(
                self.level,
                [0, y as u32, z as u32],
                [self.width, (end - row) as u32, 1],
                &bytes,
            )?;
            row = end;
        }
        Ok(())
    }

    /// Bytes `start..end` of the level.
    fn bytes(&self, start: usize, end: usize) -> Result<Vec<u8>, TexError> {
        let first = start / 4;
        let mut out = Vec::with_capacity(end.saturating_sub(start) + 8);
        for w in self.words.get(first..end.div_ceil(4)).unwrap_or(&[]) {
            out.extend_from_slice(&w.load(Ordering::Relaxed).to_le_bytes());
        }
        out.get(start - first * 4..end - first * 4)
            .map(<[u8]>::to_vec)
            .ok_or_else(|| TexError::Invalid("image write-back out of range".into()))
    }

    fn mark(&self, t: Texel) {
        self.written.store(true, Ordering::Relaxed);
        if let Some(d) = self.dirty_rows.get(t.row) {
            d.store(true, Ordering::Relaxed);
        }
    }

    /// The texel `coords` select through binding `b` with an instruction of target
    /// `target`, or `None` when the access is invalid (EXT_shader_image_load_store
    /// section 3.9.X and Table X.5, which maps assembly coordinates to texels).
    fn resolve(&self, b: &ImageBinding, target: Target, coords: [i32; 4]) -> Option<Texel> {
        if !is_image_format(b.format)
            || !is_image_format(self.format)
            || b.format.bytes_per_texel() != self.format.bytes_per_texel()
        {
            return None;
        }
        // The instruction target zeroes the components it does not use (LOADIM
        // pseudo-code).
        let mut c = coords;
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
        // A single layer of a layered texture is a texture of the layer's own target.
        let layered_tex =
            self.target.is_array() || self.target.is_cube() || self.target == Target::T3D;
        let bound = if layered_tex && !b.layered {
            match self.target {
                Target::Array1D => Target::T1D,
                Target::Array2DMs => Target::T2DMs,
                _ => Target::T2D,
            }
        } else {
            self.target
        };
        // Table X.5: which components are i, j, k and the face/layer; the others must be 0.
        let (i, j, k, layer) = match bound {
            Target::T1D | Target::Buffer => {
                if c[1] != 0 || c[2] != 0 {
                    return None;
                }
                (c[0], 0, 0, 0)
            }
            Target::T2D | Target::Rect | Target::T2DMs => {
                if c[2] != 0 {
                    return None;
                }
                (c[0], c[1], 0, 0)
            }
            Target::T3D => (c[0], c[1], c[2], 0),
            Target::Array1D => {
                if c[1] != 0 {
                    return None;
                }
                (c[0], 0, 0, c[2])
            }
            Target::Cube | Target::Array2D | Target::ArrayCube | Target::Array2DMs => {
                (c[0], c[1], 0, c[2])
            }
        };
        let z = if bound != self.target {
            i32::try_from(b.layer).ok()?
        } else if bound == Target::T3D {
            k
        } else {
            layer
        };
        let ok = |v: i32, n: u32| v >= 0 && (v as u32) < n;
        if !ok(i, self.width) || !ok(j, self.height) || !ok(z, self.depth) {
            return None;
        }
        if !ok(c[3], self.samples) {
            return None;
        }
        let size = self.format.bytes_per_texel();
        let index = ((z as usize * self.height as usize + j as usize) * self.width as usize
            + i as usize)
            * self.samples as usize
            + c[3] as usize;
        let offset = index.checked_mul(size)?;
        let row = z as usize * self.height as usize + j as usize;
        (offset.checked_add(size)? <= self.len).then_some(Texel { offset, size, row })
    }

    fn read(&self, t: Texel) -> Option<[u8; 16]> {
        let mut out = [0u8; 16];
        let first = t.offset / 4;
        let nwords = t.size.div_ceil(4);
        let mut raw = [0u8; 16];
        for k in 0..nwords {
            let w = self.words.get(first + k)?.load(Ordering::Relaxed);
            raw.get_mut(4 * k..4 * k + 4)?
                .copy_from_slice(&w.to_le_bytes());
        }
        let shift = t.offset % 4;
        out.get_mut(..t.size)?
            .copy_from_slice(raw.get(shift..shift + t.size)?);
        Some(out)
    }

    fn write(&self, t: Texel, data: &[u8]) -> Option<()> {
        let data = data.get(..t.size)?;
        if t.size >= 4 {
            for (k, chunk) in data.chunks_exact(4).enumerate() {
                let w = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
                self.words
                    .get(t.offset / 4 + k)?
                    .store(w, Ordering::Relaxed);
            }
        } else {
            let shift = (t.offset % 4) * 8;
            let mut value = 0u32;
            for (k, b) in data.iter().enumerate() {
                value |= u32::from(*b) << (8 * k);
            }
            let mask = (u32::MAX >> (32 - 8 * t.size as u32)) << shift;
            let word = self.words.get(t.offset / 4)?;
            // Never fails: the closure always returns Some.
            let _ = word.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
                Some(old & !mask | (value << shift) & mask)
            });
        }
        self.mark(t);
        Some(())
    }

    /// LOADIM of one texel: raw words per the storage modifier, `None` when invalid
    /// (the storage size must equal the unit format's texel size, table X.3). Unused
    /// components are 0, 0, 1 (float 1 for `F32*` storage).
    pub fn load(
        &self,
        b: &ImageBinding,
        target: Target,
        storage: Storage,
        coords: [i32; 4],
    ) -> Option<[u32; 4]> {
        if storage.bytes() != b.format.bytes_per_texel() {
            return None;
        }
        let r = self.read(self.resolve(b, target, coords)?)?;
        if let Storage::Packed { elem, count } = storage {
            let mut v = [0u32; 4];
            let n = elem.bytes();
            for (k, c) in v.iter_mut().enumerate().take(usize::from(count.min(4))) {
                *c = elem.decode(r.get(k * n..)?);
            }
            return Some(v);
        }
        let one = if storage.is_float() {
            1.0f32.to_bits()
        } else {
            1
        };
        Some(match storage {
            Storage::S8 => [r[0] as i8 as i32 as u32, 0, 0, one],
            Storage::U8 => [u32::from(r[0]), 0, 0, one],
            Storage::S16 => [i16::from_le_bytes([r[0], r[1]]) as i32 as u32, 0, 0, one],
            Storage::U16 => [u32::from(u16::from_le_bytes([r[0], r[1]])), 0, 0, one],
            Storage::F32 | Storage::S32 | Storage::U32 => [word(&r, 0), 0, 0, one],
            Storage::F32X2 | Storage::S32X2 | Storage::U32X2 => [word(&r, 0), word(&r, 1), 0, one],
            _ => [word(&r, 0), word(&r, 1), word(&r, 2), word(&r, 3)],
        })
    }

    /// A formatted LOADIM (EXT_shader_image_load_formatted) of one texel: the texel
    /// converted from the image unit format as a texture fetch would (normalized formats
    /// to floats, missing components 0, 0, 1); `None` when invalid.
    pub fn load_formatted(
        &self,
        b: &ImageBinding,
        target: Target,
        coords: [i32; 4],
    ) -> Option<[u32; 4]> {
        let r = self.read(self.resolve(b, target, coords)?)?;
        Some(b.format.decode(&r))
    }

    /// STOREIM of one texel; `false` when the access is invalid and nothing was written.
    pub fn store(
        &self,
        b: &ImageBinding,
        target: Target,
        kind: StoreKind,
        data: [u32; 4],
        coords: [i32; 4],
    ) -> bool {
        let mut bytes = [0u8; 16];
        match kind {
            StoreKind::Raw(s) => {
                if s.bytes() != b.format.bytes_per_texel() {
                    return false;
                }
                if let Storage::Packed { elem, count } = s {
                    let n = elem.bytes();
                    for (k, w) in data.iter().enumerate().take(usize::from(count.min(4))) {
                        bytes[k * n..(k + 1) * n].copy_from_slice(&elem.encode(*w)[..n]);
                    }
                } else {
                    for (k, w) in data.iter().enumerate() {
                        bytes[4 * k..4 * k + 4].copy_from_slice(&w.to_le_bytes());
                    }
                }
            }
            StoreKind::Formatted(dt) => {
                let Some(v) = formatted_value(b.format, dt, data) else {
                    return false;
                };
                let n = b.format.bytes_per_texel().min(16);
                b.format.encode(v, &mut bytes[..n]);
            }
        }
        match self.resolve(b, target, coords) {
            Some(t) => self.write(t, &bytes).is_some(),
            None => false,
        }
    }

    /// ATOMIM on one 32-bit texel: atomically replaces the word `old` by `update(old)`
    /// (no store when it returns `None`) and returns `old`; `None` when invalid (only
    /// 1x32 formats, table X.4 storage U32/S32/F32).
    pub fn atomic(
        &self,
        b: &ImageBinding,
        target: Target,
        storage: Storage,
        coords: [i32; 4],
        update: &dyn Fn(u32) -> Option<u32>,
    ) -> Option<u32> {
        if storage.bytes() != 4 || b.format.bytes_per_texel() != 4 {
            return None;
        }
        let t = self.resolve(b, target, coords)?;
        let word = self.words.get(t.offset / 4)?;
        let old = match word.fetch_update(Ordering::AcqRel, Ordering::Acquire, update) {
            Ok(old) => {
                self.mark(t);
                old
            }
            Err(old) => old,
        };
        Some(old)
    }
}

/// The canonical value a formatted store of `data` (of type `dt`) encodes into `format`
/// (converted as TexImage with RGBA/FLOAT, RGBA_INTEGER/INT or RGBA_INTEGER/UNSIGNED_INT
/// would), or `None` when data and format disagree on float versus integer.
fn formatted_value(format: Format, dt: DataType, data: [u32; 4]) -> Option<[u32; 4]> {
    use crate::format::SampleType;
    match (format.sample_type(), dt) {
        (SampleType::Float, DataType::F32) => Some(data),
        (SampleType::Uint, DataType::U32) | (SampleType::Sint, DataType::S32) => Some(data),
        // Integers are clamped to the other signedness before the format saturates them.
        (SampleType::Uint, DataType::S32) => Some(data.map(|v| (v as i32).max(0) as u32)),
        (SampleType::Sint, DataType::U32) => Some(data.map(|v| v.min(i32::MAX as u32))),
        _ => None,
    }
}

fn word(b: &[u8; 16], i: usize) -> u32 {
    u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
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

    fn f(v: f32) -> u32 {
        v.to_bits()
    }

    #[test]
    fn formatted_store_then_raw_load_and_write_back() {
        let mut t = Texture::new(Target::T2D, Format::RGBA8, [2, 2, 1], 1).unwrap();
        let m = ImageMemory::new(&t, 0).unwrap();
        let b = bind(Format::RGBA8);
        let data = [f(1.0), 0, 0, f(0.5)];
        assert!(m.store(
            &b,
            Target::T2D,
            StoreKind::Formatted(DataType::F32),
            data,
            [1, 1, 0, 0]
        ));
        let raw = m.load(
            &bind(Format::R32UI),
            Target::T2D,
            Storage::U32,
            [1, 1, 0, 0],
        );
        assert_eq!(raw, Some([0x8000_00ff, 0, 0, 1]));
        // Integer data into a normalized format is not a conversion the spec defines.
        assert!(!m.store(
            &b,
            Target::T2D,
            StoreKind::Formatted(DataType::U32),
            [1; 4],
            [0; 4]
        ));
        assert!(m.written());
        // Unformatted store through a 32-bit view, then back into the texture.
        assert!(m.store(
            &bind(Format::R32UI),
            Target::T2D,
            StoreKind::Raw(Storage::U32),
            [0x0000_ff00, 0, 0, 0],
            [0; 4]
        ));
        m.write_back(&mut t).unwrap();
        assert_eq!(t.texel(0, 1, 1, 0, 0).unwrap()[0], f(1.0));
        assert_eq!(t.texel(0, 1, 1, 0, 0).unwrap()[3], 0x3f00_8081); // 128/255
        assert_eq!(t.texel(0, 0, 0, 0, 0).unwrap()[1], f(1.0));
    }

    #[test]
    fn float_formats_convert_on_store() {
        let t = Texture::new(Target::T2D, Format::RGBA32F, [1, 1, 1], 1).unwrap();
        let m = ImageMemory::new(&t, 0).unwrap();
        let b = bind(Format::RGBA32F);
        let v = [f(1.5), f(-2.0), f(0.25), f(8.0)];
        assert!(m.store(
            &b,
            Target::T2D,
            StoreKind::Formatted(DataType::F32),
            v,
            [0; 4]
        ));
        assert_eq!(m.load(&b, Target::T2D, Storage::F32X4, [0; 4]), Some(v));
        let r = Texture::new(Target::T2D, Format::R32F, [1, 1, 1], 1).unwrap();
        let m = ImageMemory::new(&r, 0).unwrap();
        let b = bind(Format::R32F);
        assert!(m.store(
            &b,
            Target::T2D,
            StoreKind::Formatted(DataType::F32),
            v,
            [0; 4]
        ));
        assert_eq!(
            m.load(&b, Target::T2D, Storage::F32, [0; 4]),
            Some([f(1.5), 0, 0, f(1.0)])
        );
        // R32UI formatted store of signed data clamps negatives to 0.
        let u = Texture::new(Target::T2D, Format::R32UI, [1, 1, 1], 1).unwrap();
        let m = ImageMemory::new(&u, 0).unwrap();
        let b = bind(Format::R32UI);
        let neg = [(-5i32) as u32; 4];
        assert!(m.store(
            &b,
            Target::T2D,
            StoreKind::Formatted(DataType::S32),
            neg,
            [0; 4]
        ));
        assert_eq!(
            m.load(&b, Target::T2D, Storage::U32, [0; 4]),
            Some([0, 0, 0, 1])
        );
    }

    #[test]
    fn invalid_accesses() {
        let t = Texture::new(Target::T2D, Format::R32UI, [2, 2, 1], 1).unwrap();
        let m = ImageMemory::new(&t, 0).unwrap();
        let b = bind(Format::R32UI);
        assert_eq!(m.load(&b, Target::T2D, Storage::U32, [5, 0, 0, 0]), None);
        assert_eq!(m.load(&b, Target::T2D, Storage::U32, [-1, 0, 0, 0]), None);
        // Size-incompatible view.
        assert_eq!(
            m.load(&bind(Format::R8UI), Target::T2D, Storage::U8, [0; 4]),
            None
        );
        // Storage width other than the format's.
        assert_eq!(m.load(&b, Target::T2D, Storage::U32X2, [0; 4]), None);
        // A z the 2D texture does not have (ARRAY2D target keeps it): invalid.
        assert_eq!(
            m.load(&b, Target::Array2D, Storage::U32, [0, 0, 1, 0]),
            None
        );
        // ... but the 2D target zeroes it first.
        assert!(m
            .load(&b, Target::T2D, Storage::U32, [0, 0, 1, 0])
            .is_some());
        // Float data into an integer image: ignored.
        assert!(!m.store(
            &b,
            Target::T2D,
            StoreKind::Formatted(DataType::F32),
            [1; 4],
            [0; 4]
        ));
        assert!(!m.written());
        assert_eq!(
            m.atomic(&b, Target::T2D, Storage::U32, [2, 0, 0, 0], &Some),
            None
        );
        // Formats outside table X.2 are never accessed.
        let d = Texture::new(Target::T2D, Format::Srgb8Alpha8, [1, 1, 1], 1).unwrap();
        let m = ImageMemory::new(&d, 0).unwrap();
        assert_eq!(
            m.load(&bind(Format::RGBA8), Target::T2D, Storage::U32, [0; 4]),
            None
        );
        assert!(ImageMemory::new(&d, 3).is_err());
    }

    #[test]
    fn atomics_return_the_old_value() {
        let t = Texture::new(Target::Array2D, Format::R32UI, [1, 1, 2], 1).unwrap();
        let m = ImageMemory::new(&t, 0).unwrap();
        let b = ImageBinding {
            level: 0,
            layered: false,
            layer: 1,
            format: Format::R32UI,
        };
        let add5 = |v: u32| Some(v + 5);
        let olds: Vec<_> = (0..4)
            .map(|_| m.atomic(&b, Target::T2D, Storage::U32, [0; 4], &add5))
            .collect();
        assert_eq!(olds, [Some(0), Some(5), Some(10), Some(15)]);
        // A failed compare-and-swap stores nothing.
        assert_eq!(
            m.atomic(&b, Target::T2D, Storage::U32, [0; 4], &|_| None),
            Some(20)
        );
        let layered = bind(Format::R32UI);
        assert_eq!(
            m.load(&layered, Target::Array2D, Storage::U32, [0, 0, 1, 0])
                .map(|v| v[0]),
            Some(20)
        );
        assert_eq!(
            m.load(&layered, Target::Array2D, Storage::U32, [0, 0, 0, 0])
                .map(|v| v[0]),
            Some(0)
        );
        // Not layered: a non-zero layer coordinate is invalid.
        assert_eq!(
            m.load(&b, Target::Array2D, Storage::U32, [0, 0, 1, 0]),
            None
        );
        // Atomics need a 32-bit texel.
        let r8 = Texture::new(Target::T2D, Format::R8UI, [4, 1, 1], 1).unwrap();
        let m8 = ImageMemory::new(&r8, 0).unwrap();
        assert_eq!(
            m8.atomic(&bind(Format::R8UI), Target::T2D, Storage::U8, [0; 4], &add5),
            None
        );
    }

    #[test]
    fn atomics_are_atomic_across_threads() {
        let t = Texture::new(Target::T2D, Format::R32UI, [1, 1, 1], 1).unwrap();
        let m = ImageMemory::new(&t, 0).unwrap();
        let b = bind(Format::R32UI);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..1000 {
                        m.atomic(&b, Target::T2D, Storage::U32, [0; 4], &|v| Some(v + 1));
                    }
                });
            }
        });
        assert_eq!(
            m.load(&b, Target::T2D, Storage::U32, [0; 4]).map(|v| v[0]),
            Some(4000)
        );
    }

    #[test]
    fn byte_texels_sharing_a_word_do_not_clobber_each_other() {
        let mut t = Texture::new(Target::T1D, Format::R8UI, [4, 1, 1], 1).unwrap();
        let m = ImageMemory::new(&t, 0).unwrap();
        let b = bind(Format::R8UI);
        std::thread::scope(|s| {
            for x in 0..4 {
                let (m, b) = (&m, &b);
                s.spawn(move || {
                    for v in 0..200u32 {
                        m.store(
                            b,
                            Target::T1D,
                            StoreKind::Raw(Storage::U8),
                            [v + x as u32, 0, 0, 0],
                            [x, 0, 0, 0],
                        );
                    }
                });
            }
        });
        m.write_back(&mut t).unwrap();
        for x in 0..4 {
            assert_eq!(t.texel(0, x, 0, 0, 0).unwrap()[0], 199 + x);
        }
    }

    #[test]
    fn layered_cube_1d_array_and_3d_coordinates() {
        let mut t = Texture::new(Target::Cube, Format::R32UI, [2, 2, 6], 1).unwrap();
        let m = ImageMemory::new(&t, 0).unwrap();
        let b = bind(Format::R32UI);
        let st = |m: &ImageMemory, b: &ImageBinding, tg, c| {
            m.store(b, tg, StoreKind::Raw(Storage::U32), [77, 0, 0, 0], c)
        };
        assert!(st(&m, &b, Target::Cube, [0, 0, 4, 0])); // +Z face
        assert!(!st(&m, &b, Target::Cube, [0, 0, 6, 0])); // no such face
        m.write_back(&mut t).unwrap();
        assert_eq!(t.texel(0, 0, 0, 4, 0).unwrap()[0], 77);
        // Table X.5: a 1D array's layer is z; y must be 0.
        let mut a = Texture::new(Target::Array1D, Format::R8UI, [4, 3, 1], 1).unwrap();
        let m = ImageMemory::new(&a, 0).unwrap();
        let b8 = bind(Format::R8UI);
        let fmt = StoreKind::Formatted(DataType::U32);
        assert!(m.store(&b8, Target::Array1D, fmt, [300, 0, 0, 0], [1, 0, 2, 0]));
        assert!(!m.store(&b8, Target::Array1D, fmt, [1, 0, 0, 0], [1, 1, 2, 0]));
        let s8 = m.load(
            &bind(Format::R8I),
            Target::Array1D,
            Storage::S8,
            [1, 0, 2, 0],
        );
        assert_eq!(s8.map(|v| v[0]), Some(u32::MAX)); // saturated 255 read as S8 is -1
        m.write_back(&mut a).unwrap();
        assert_eq!(a.texel(0, 1, 0, 2, 0).unwrap()[0], 255);
        // A 3D texture bound layered uses z; one slice bound alone is a 2D image.
        let d = Texture::new(Target::T3D, Format::R32UI, [2, 2, 3], 1).unwrap();
        let m = ImageMemory::new(&d, 0).unwrap();
        assert!(st(&m, &b, Target::T3D, [1, 1, 2, 0]));
        let slice = ImageBinding {
            layered: false,
            layer: 2,
            ..b
        };
        assert_eq!(
            m.load(&slice, Target::T2D, Storage::U32, [1, 1, 0, 0])
                .map(|v| v[0]),
            Some(77)
        );
        assert_eq!(
            m.load(&slice, Target::T3D, Storage::U32, [1, 1, 2, 0]),
            None
        );
    }

    #[test]
    fn write_back_copies_only_written_rows() {
        let mut t = Texture::new(Target::Array2D, Format::R8UI, [3, 3, 2], 1).unwrap();
        let m = ImageMemory::new(&t, 0).unwrap();
        // A texel changed behind the memory's back in a row no program writes survives.
        t.set_texel(0, 2, 0, 1, 0, [5, 0, 0, 0]).unwrap();
        let b = bind(Format::R8UI);
        let raw = StoreKind::Raw(Storage::U8);
        assert!(m.store(&b, Target::Array2D, raw, [7, 0, 0, 0], [1, 1, 1, 0]));
        assert!(m.store(&b, Target::Array2D, raw, [8, 0, 0, 0], [2, 2, 1, 0]));
        m.write_back(&mut t).unwrap();
        assert!(!m.written());
        assert_eq!(t.texel(0, 2, 0, 1, 0).unwrap()[0], 5);
        assert_eq!(t.texel(0, 1, 1, 1, 0).unwrap()[0], 7);
        assert_eq!(t.texel(0, 2, 2, 1, 0).unwrap()[0], 8);
        assert_eq!(t.texel(0, 1, 1, 0, 0).unwrap()[0], 0);
        // Written rows are clean again: a later write-back copies only new stores.
        t.set_texel(0, 0, 1, 1, 0, [6, 0, 0, 0]).unwrap();
        assert!(m.store(&b, Target::Array2D, raw, [9, 0, 0, 0], [0, 0, 0, 0]));
        m.write_back(&mut t).unwrap();
        assert_eq!(t.texel(0, 0, 1, 1, 0).unwrap()[0], 6);
        assert_eq!(t.texel(0, 0, 0, 0, 0).unwrap()[0], 9);
    }

    #[test]
    fn mem_extended_packed_storage() {
        let t = Texture::new(Target::T2D, Format::RGBA8UI, [1, 1, 1], 1).unwrap();
        let m = ImageMemory::new(&t, 0).unwrap();
        let b = bind(Format::RGBA8UI);
        let s8x4 = Storage::Packed {
            elem: Elem::S8,
            count: 4,
        };
        let v = [(-2i32) as u32, 300, 5, 0x7f];
        assert!(m.store(&b, Target::T2D, StoreKind::Raw(s8x4), v, [0; 4]));
        // 300 keeps its low byte (44); -2 is 0xfe, read back sign-extended.
        assert_eq!(
            m.load(&b, Target::T2D, s8x4, [0; 4]),
            Some([(-2i32) as u32, 44, 5, 0x7f])
        );
        let u16x2 = Storage::Packed {
            elem: Elem::U16,
            count: 2,
        };
        assert_eq!(
            m.load(&b, Target::T2D, u16x2, [0; 4]),
            Some([0x2cfe, 0x7f05, 0, 0])
        );
        let f16x2 = Storage::Packed {
            elem: Elem::F16,
            count: 2,
        };
        let h = [1.5f32.to_bits(), (-0.25f32).to_bits(), 9, 9];
        assert!(m.store(&b, Target::T2D, StoreKind::Raw(f16x2), h, [0; 4]));
        assert_eq!(
            m.load(&b, Target::T2D, f16x2, [0; 4]),
            Some([h[0], h[1], 0, 0])
        );
        // Size must match the unit format: F16 (2 bytes) on a 4-byte format is invalid.
        let f16 = Storage::Packed {
            elem: Elem::F16,
            count: 1,
        };
        assert_eq!(m.load(&b, Target::T2D, f16, [0; 4]), None);
    }

    #[test]
    fn multisample_sample_coordinate() {
        let t = Texture::new_multisample(Target::T2DMs, Format::R32UI, [2, 2, 1], 4).unwrap();
        let m = ImageMemory::new(&t, 0).unwrap();
        let b = bind(Format::R32UI);
        let raw = StoreKind::Raw(Storage::U32);
        assert!(m.store(&b, Target::T2DMs, raw, [9, 0, 0, 0], [1, 0, 0, 3]));
        assert!(!m.store(&b, Target::T2DMs, raw, [9, 0, 0, 0], [1, 0, 0, 4]));
        assert_eq!(
            m.load(&b, Target::T2DMs, Storage::U32, [1, 0, 0, 3])
                .map(|v| v[0]),
            Some(9)
        );
        // A 2D target zeroes w: sample 0.
        assert_eq!(
            m.load(&b, Target::T2D, Storage::U32, [1, 0, 0, 3])
                .map(|v| v[0]),
            Some(0)
        );
    }
}
