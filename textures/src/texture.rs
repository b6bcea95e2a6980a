//! Texture objects: a target, a format and a chain of levels.
//!
//! Each level keeps its texels as bytes in the internal format: the truth, what image
//! load/store and reinterpretation see. Formats of 8-bit UNORM components (RGBA8, RGB8,
//! R8, L8, sRGB8, ...) are sampled straight from those bytes, one table lookup per
//! component; every other format also keeps its decoded canonical texels (`[u32; 4]`, see
//! [`crate::format`]) so the hot path never decodes. [`Level::source`] reads either.
//! Every write goes through this module and keeps both in step.
//!
//! Layout: a level is `width × height × depth` texels, x fastest. Array layers, cube faces
//! (+X, -X, +Y, -Y, +Z, -Z) and cube-array layer-faces (layer × 6 + face) are slices of the
//! depth dimension; a 1D array's layers are its depth (not its height). Multisample textures
//! store `samples` consecutive texels per pixel.

use crate::bc::{decode_blocks, decode_image_into, Blocks};
use crate::error::TexError;
use crate::format::{Base, Format, ONE_F, UNORM8};
use std::borrow::Cow;

/// Texture targets (the SHADOW forms are a sampling mode, see [`crate::TexOp`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// `TEXTURE_1D`.
    T1D,
    /// `TEXTURE_2D`.
    T2D,
    /// `TEXTURE_3D`.
    T3D,
    /// `TEXTURE_CUBE_MAP`.
    Cube,
    /// `TEXTURE_RECTANGLE`.
    Rect,
    /// `TEXTURE_1D_ARRAY`.
    Array1D,
    /// `TEXTURE_2D_ARRAY`.
    Array2D,
    /// `TEXTURE_CUBE_MAP_ARRAY`.
    ArrayCube,
    /// `TEXTURE_BUFFER`.
    Buffer,
    /// `TEXTURE_2D_MULTISAMPLE`.
    T2DMs,
    /// `TEXTURE_2D_MULTISAMPLE_ARRAY`.
    Array2DMs,
}

impl Target {
    /// Number of coordinate dimensions used for filtering (1, 2 or 3).
    pub fn dims(self) -> usize {
        match self {
            Target::T1D | Target::Array1D | Target::Buffer => 1,
            Target::T3D => 3,
            _ => 2,
        }
    }

    /// True for targets with layers (arrays; cube arrays count layer-faces).
    pub fn is_array(self) -> bool {
        matches!(
            self,
            Target::Array1D | Target::Array2D | Target::ArrayCube | Target::Array2DMs
        )
    }

    /// True for cube and cube-array targets.
    pub fn is_cube(self) -> bool {
        matches!(self, Target::Cube | Target::ArrayCube)
    }

    /// True for targets that may have mipmaps.
    pub fn has_mipmaps(self) -> bool {
        !matches!(
            self,
            Target::Rect | Target::Buffer | Target::T2DMs | Target::Array2DMs
        )
    }

    /// True for multisample targets.
    pub fn is_multisample(self) -> bool {
        matches!(self, Target::T2DMs | Target::Array2DMs)
    }

    /// Parses a scene-file/GL target name: `1D 2D 3D Rect Cube 1DArray 2DArray CubeArray
    /// Buffer 2DMS 2DMSArray`, also `TEXTURE_2D`-style GL names (case-insensitive).
    pub fn from_name(name: &str) -> Option<Target> {
        let n = name
            .trim_start_matches("GL_")
            .trim_start_matches("TEXTURE_")
            .to_ascii_uppercase();
        Some(match n.as_str() {
            "1D" => Target::T1D,
            "2D" => Target::T2D,
            "3D" => Target::T3D,
            "RECT" | "RECTANGLE" | "RECTANGLE_ARB" | "RECTANGLE_NV" => Target::Rect,
            "CUBE" | "CUBE_MAP" => Target::Cube,
            "1DARRAY" | "1D_ARRAY" | "1D_ARRAY_EXT" | "ARRAY1D" => Target::Array1D,
            "2DARRAY" | "2D_ARRAY" | "2D_ARRAY_EXT" | "ARRAY2D" => Target::Array2D,
            "CUBEARRAY" | "CUBE_MAP_ARRAY" | "CUBE_MAP_ARRAY_ARB" | "ARRAYCUBE" => {
                Target::ArrayCube
            }
            "BUFFER" | "BUFFER_EXT" => Target::Buffer,
            "2DMS" | "2D_MULTISAMPLE" => Target::T2DMs,
            "2DMSARRAY" | "2D_MULTISAMPLE_ARRAY" | "ARRAY2DMS" => Target::Array2DMs,
            _ => return None,
        })
    }
}

/// One mipmap level.
#[derive(Clone, Debug)]
pub struct Level {
    /// Width in texels.
    pub width: u32,
    /// Height in texels (1 for 1D targets).
    pub height: u32,
    /// Depth, layers, faces or layer-faces.
    pub depth: u32,
    bytes: Vec<u8>,
    /// Decoded texels; empty when `unorm8` is set.
    texels: Vec<[u32; 4]>,
    /// Sampled from `bytes`: 8-bit UNORM components of this base format.
    unorm8: Option<Base>,
}

/// The texels of a level as sampling reads them, by index (x fastest, then y, then z,
/// then sample).
#[derive(Copy, Clone, Debug)]
pub enum Texels<'a> {
    /// Decoded canonical texels.
    Decoded(&'a [[u32; 4]]),
    /// 8-bit UNORM bytes, `base.stored()` per texel, decoded on each read.
    Unorm8 {
        /// The level's bytes.
        bytes: &'a [u8],
        /// Which components they are.
        base: Base,
    },
}

impl Default for Texels<'_> {
    fn default() -> Self {
        Texels::Decoded(&[])
    }
}

impl Texels<'_> {
    /// Number of texels.
    #[inline]
    pub fn len(&self) -> usize {
        match *self {
            Texels::Decoded(t) => t.len(),
            Texels::Unorm8 { bytes, base } => bytes.len() / base.stored(),
        }
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Canonical texel `i`, if it exists.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<[u32; 4]> {
        match *self {
            Texels::Decoded(t) => t.get(i).copied(),
            Texels::Unorm8 { bytes, base } => {
                let n = base.stored();
                let b = bytes.get(i.checked_mul(n)?..(i + 1).checked_mul(n)?)?;
                let mut c = [0u32; 4];
                for (c, &b) in c.iter_mut().zip(b) {
                    *c = UNORM8[b as usize];
                }
                Some(base.expand(c, ONE_F))
            }
        }
    }
}

// Beside the levels it fills, not in `format`: compressed formats decode through `bc`,
// which builds on `format`.
impl Format {
    /// Decodes a whole image (`w × h × d` texels, rows tightly packed) to canonical texels.
    ///
    /// The decoded copy is 16 bytes a texel whatever the format, so its allocation is
    /// fallible (`TooLarge`).
    pub fn decode_image(
        self,
        bytes: &[u8],
        w: u32,
        h: u32,
        d: u32,
    ) -> Result<Vec<[u32; 4]>, TexError> {
        let count = w as usize * h as usize * d as usize;
        let mut out = Vec::new();
        out.try_reserve_exact(count).map_err(|_| {
            TexError::TooLarge(format!(
                "{} bytes for the decoded texels of a {w}x{h}x{d} image",
                count.saturating_mul(16)
            ))
        })?;
        if self.is_compressed() {
            decode_image_into(self, bytes, w, h, d, &mut out);
            return Ok(out);
        }
        let bpt = self.bytes_per_texel();
        out.extend(bytes.chunks_exact(bpt).take(count).map(|t| self.decode(t)));
        out.resize(count, [0; 4]);
        Ok(out)
    }
}

impl Level {
    fn new(
        format: Format,
        width: u32,
        height: u32,
        depth: u32,
        samples: u32,
        bytes: Vec<u8>,
    ) -> Result<Level, TexError> {
        let unorm8 = format.unorm8_base();
        let texels = match unorm8 {
            Some(_) => Vec::new(),
            None => format.decode_image(&bytes, width, height, depth * samples)?,
        };
        Ok(Level {
            width,
            height,
            depth,
            bytes,
            texels,
            unorm8,
        })
    }

    /// Bytes the level holds (its bytes and, for formats sampled decoded, the texels).
    pub fn heap_bytes(&self) -> u64 {
        (self.bytes.capacity() + self.texels.capacity() * std::mem::size_of::<[u32; 4]>()) as u64
    }

    /// The texels as sampling reads them.
    #[inline]
    pub fn source(&self) -> Texels<'_> {
        match self.unorm8 {
            Some(base) => Texels::Unorm8 {
                bytes: &self.bytes,
                base,
            },
            None => Texels::Decoded(&self.texels),
        }
    }

    /// Decoded canonical texels, x fastest then y then z (then sample): borrowed when the
    /// level keeps them, decoded from the bytes otherwise.
    pub fn texels(&self) -> Cow<'_, [[u32; 4]]> {
        match self.source() {
            Texels::Decoded(t) => Cow::Borrowed(t),
            src => Cow::Owned((0..src.len()).filter_map(|i| src.get(i)).collect()),
        }
    }

    /// The level's bytes in the internal format.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// Number of levels of a full mipmap chain for a base image of the given size.
pub fn full_chain_levels(w: u32, h: u32, d: u32) -> u32 {
    32 - w.max(h).max(d).max(1).leading_zeros()
}

/// A texture: target, internal format and levels (level `i` is at index `i`).
#[derive(Clone, Debug)]
pub struct Texture {
    target: Target,
    format: Format,
    samples: u32,
    levels: Vec<Level>,
}

/// Largest accepted dimension, so sizes and byte counts never overflow.
pub const MAX_SIZE: u32 = 1 << 15;
/// Largest accepted number of texels (samples counted) in one image of a level: a layer,
/// a cube face, a 3D slice.
pub const MAX_TEXELS: u64 = 1 << 28;
/// Largest accepted number of texels (samples counted) in a whole level: a cube map of
/// `MAX_TEXELS`-texel faces, the `MAX_CUBE_MAP_TEXTURE_SIZE` glemu advertises. Texel
/// indices into a level stay below `i32::MAX`.
pub const MAX_LEVEL_TEXELS: u64 = 6 * MAX_TEXELS;

impl Texture {
    /// Creates a texture with `levels` zero-filled levels. `size` is in GL terms:
    /// `(width, height, depth)` with layers as the height of a 1D array and the depth of a
    /// 2D array, depth ignored for cube maps (6 faces) and layer-faces (a multiple of 6) for
    /// cube arrays. Levels halve width, height and (3D only) depth.
    pub fn new(
        target: Target,
        format: Format,
        size: [u32; 3],
        levels: u32,
    ) -> Result<Texture, TexError> {
        Self::with_samples(target, format, size, levels, 1)
    }

    /// Creates a multisample texture (`T2DMs` or `Array2DMs`) with `samples` per texel.
    pub fn new_multisample(
        target: Target,
        format: Format,
        size: [u32; 3],
        samples: u32,
    ) -> Result<Texture, TexError> {
        if !target.is_multisample() {
            return Err(TexError::Invalid(
                "multisample storage needs a 2DMS target".into(),
            ));
        }
        Self::with_samples(target, format, size, 1, samples.max(1))
    }

    fn with_samples(
        target: Target,
        format: Format,
        size: [u32; 3],
        levels: u32,
        samples: u32,
    ) -> Result<Texture, TexError> {
        let [w, h, d] = Self::physical_size(target, size)?;
        if w == 0 || h == 0 || d == 0 || w > MAX_SIZE || h > MAX_SIZE || d > MAX_SIZE * 6 {
            return Err(TexError::Invalid(format!(
                "texture size {w}x{h}x{d} out of range"
            )));
        }
        if samples > 32 {
            return Err(TexError::Invalid(format!("{samples} samples")));
        }
        if format.is_compressed()
            && !matches!(
                target,
                Target::T2D | Target::Array2D | Target::Cube | Target::ArrayCube
            )
        {
            return Err(TexError::Unsupported(format!(
                "compressed {target:?} textures"
            )));
        }
        let max_levels = if target.has_mipmaps() {
            Self::chain_for(target, w, h, d)
        } else {
            1
        };
        let levels = levels.clamp(1, max_levels);
        let mut tex = Texture {
            target,
            format,
            samples,
            levels: Vec::new(),
        };
        for l in 0..levels {
            tex.push_zero_level(w, h, d, l)?;
        }
        Ok(tex)
    }

    /// Appends level `l` of a chain whose level 0 is `w`×`h`×`d`, zero-filled.
    fn push_zero_level(&mut self, w: u32, h: u32, d: u32, l: u32) -> Result<(), TexError> {
        let [lw, lh, ld] = self.level_dims(w, h, d, l);
        let samples = self.samples;
        let image = u64::from(lw) * u64::from(lh) * u64::from(samples);
        let count = image * u64::from(ld);
        if image > MAX_TEXELS || count > MAX_LEVEL_TEXELS {
            return Err(TexError::TooLarge(format!(
                "a texture level of {count} texels, {image} in each image \
                 (at most {MAX_LEVEL_TEXELS}, {MAX_TEXELS} in each image)"
            )));
        }
        let n = self.format.image_bytes(lw, lh, ld * samples);
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(n).map_err(|_| {
            TexError::TooLarge(format!("{n} bytes for a {lw}x{lh}x{ld} texture level"))
        })?;
        bytes.resize(n, 0);
        let format = self.format;
        self.levels
            .push(Level::new(format, lw, lh, ld, samples, bytes)?);
        Ok(())
    }

    /// Bytes [`Texture::new`] (`samples` 1) or [`Texture::new_multisample`] would allocate
    /// for these arguments, computed without allocating (what a memory budget checks
    /// first); `None` when they name no valid texture.
    ///
    /// ```
    /// use glemu_textures::{Format, Target, Texture};
    /// let b = Texture::bytes_for(Target::T2D, Format::RGBA8, [16384, 16384, 1], 1, 1);
    /// assert_eq!(b, Some(1 << 30));
    /// let t = Texture::new(Target::Cube, Format::RGBA8, [8, 8, 1], 4).unwrap();
    /// assert_eq!(Texture::bytes_for(Target::Cube, Format::RGBA8, [8, 8, 1], 4, 1), Some(t.heap_bytes()));
    /// ```
    pub fn bytes_for(
        target: Target,
        format: Format,
        size: [u32; 3],
        levels: u32,
        samples: u32,
    ) -> Option<u64> {
        let [w, h, d] = Self::physical_size(target, size).ok()?;
        let shape = Texture {
            target,
            format,
            samples: samples.max(1),
            levels: Vec::new(),
        };
        let max = match target.has_mipmaps() {
            true => Self::chain_for(target, w, h, d),
            false => 1,
        };
        Some(shape.level_range_bytes(w, h, d, 0..levels.clamp(1, max)))
    }

    /// Bytes [`Texture::ensure_levels`] would add for `levels`.
    pub fn bytes_to_grow(&self, levels: u32) -> u64 {
        let Some(base) = self.levels.first() else {
            return 0;
        };
        let (w, h, d) = (base.width, base.height, base.depth);
        let max = match self.target.has_mipmaps() {
            true => Self::chain_for(self.target, w, h, d),
            false => 1,
        };
        self.level_range_bytes(w, h, d, self.num_levels()..levels.min(max))
    }

    fn level_range_bytes(&self, w: u32, h: u32, d: u32, levels: std::ops::Range<u32>) -> u64 {
        let decoded = match self.format.unorm8_base() {
            Some(_) => 0,
            None => std::mem::size_of::<[u32; 4]>() as u64,
        };
        levels
            .map(|l| {
                let [lw, lh, ld] = self.level_dims(w, h, d, l);
                let ld = ld.saturating_mul(self.samples);
                let texels = u64::from(lw) * u64::from(lh) * u64::from(ld);
                self.format.image_bytes(lw, lh, ld) as u64 + decoded * texels
            })
            .sum()
    }

    /// Grows the chain to `levels` levels (at most the full chain), the new ones
    /// zero-filled with the sizes level 0 implies: GL defines levels one image at a time,
    /// so a texture holds only the levels given so far.
    pub fn ensure_levels(&mut self, levels: u32) -> Result<(), TexError> {
        let Some(base) = self.levels.first() else {
            return Ok(());
        };
        let (w, h, d) = (base.width, base.height, base.depth);
        let max = match self.target.has_mipmaps() {
            true => Self::chain_for(self.target, w, h, d),
            false => 1,
        };
        for l in self.num_levels()..levels.min(max) {
            self.push_zero_level(w, h, d, l)?;
        }
        Ok(())
    }

    fn chain_for(target: Target, w: u32, h: u32, d: u32) -> u32 {
        match target {
            Target::T3D => full_chain_levels(w, h, d),
            Target::T1D | Target::Array1D => full_chain_levels(w, 1, 1),
            _ => full_chain_levels(w, h, 1),
        }
    }

    fn physical_size(target: Target, [w, h, d]: [u32; 3]) -> Result<[u32; 3], TexError> {
        Ok(match target {
            Target::T1D | Target::Buffer => [w, 1, 1],
            Target::Array1D => [w, 1, h],
            Target::T2D | Target::Rect | Target::T2DMs => [w, h, 1],
            Target::Cube => {
                if w != h {
                    return Err(TexError::Invalid("cube map faces must be square".into()));
                }
                [w, h, 6]
            }
            Target::ArrayCube => {
                if w != h || d % 6 != 0 {
                    return Err(TexError::Invalid(
                        "cube array needs square faces and a multiple of 6 layer-faces".into(),
                    ));
                }
                [w, h, d]
            }
            Target::T3D | Target::Array2D | Target::Array2DMs => [w, h, d],
        })
    }

    fn level_dims(&self, w: u32, h: u32, d: u32, l: u32) -> [u32; 3] {
        let m = |x: u32| (x >> l).max(1);
        match self.target {
            Target::T3D => [m(w), m(h), m(d)],
            Target::T1D | Target::Array1D => [m(w), 1, d],
            _ => [m(w), m(h), d],
        }
    }

    /// Creates a buffer texture (`TEXTURE_BUFFER`) viewing `bytes` as texels of `format`
    /// (whole texels only; the size is `bytes.len() / bytes_per_texel`).
    pub fn from_buffer(format: Format, bytes: &[u8]) -> Result<Texture, TexError> {
        if format.is_compressed() || format.is_depth() {
            return Err(TexError::Unsupported(format!(
                "{} buffer textures",
                format.name()
            )));
        }
        let bpt = format.bytes_per_texel();
        // GL 4.6 section 8.9: the texel count is clamped to MAX_TEXTURE_BUFFER_SIZE.
        let n = (bytes.len() / bpt).min(MAX_TEXELS as usize) as u32;
        let w = n.max(1);
        let mut data = bytes.get(..n as usize * bpt).unwrap_or(&[]).to_vec();
        data.resize(w as usize * bpt, 0);
        let mut level = Level::new(format, w, 1, 1, 1, data)?;
        if n == 0 {
            level.width = 0;
        }
        Ok(Texture {
            target: Target::Buffer,
            format,
            samples: 1,
            levels: vec![level],
        })
    }

    /// The target.
    pub fn target(&self) -> Target {
        self.target
    }

    /// The internal format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Samples per texel (1 unless multisample).
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// Number of levels allocated.
    pub fn num_levels(&self) -> u32 {
        self.levels.len() as u32
    }

    /// All levels.
    pub fn levels(&self) -> &[Level] {
        &self.levels
    }

    /// Bytes the texture's levels hold (what a memory budget counts).
    pub fn heap_bytes(&self) -> u64 {
        self.levels.iter().map(Level::heap_bytes).sum()
    }

    /// One level, if it exists.
    pub fn level(&self, level: u32) -> Option<&Level> {
        self.levels.get(level as usize)
    }

    /// Number of layers (array layers, cube-array cubes; 1 otherwise).
    pub fn layers(&self) -> u32 {
        let d = self.levels.first().map_or(1, |l| l.depth);
        match self.target {
            Target::Array1D | Target::Array2D | Target::Array2DMs => d,
            Target::ArrayCube => d / 6,
            _ => 1,
        }
    }

    /// Size of a level in GL terms, as TXQ reports it: (width, height or 1D-array layers,
    /// depth or 2D-array layers or cube-array cubes).
    pub fn size(&self, level: u32) -> Option<[u32; 3]> {
        let l = self.level(level)?;
        Some(match self.target {
            Target::T1D | Target::Buffer => [l.width, 0, 0],
            Target::Array1D => [l.width, l.depth, 0],
            Target::T2D | Target::Rect | Target::T2DMs | Target::Cube => [l.width, l.height, 0],
            Target::ArrayCube => [l.width, l.height, l.depth / 6],
            Target::T3D | Target::Array2D | Target::Array2DMs => [l.width, l.height, l.depth],
        })
    }

    fn texel_index(
        &self,
        level: u32,
        x: u32,
        y: u32,
        z: u32,
        sample: u32,
    ) -> Result<(usize, usize), TexError> {
        let l = self
            .level(level)
            .ok_or(TexError::Invalid(format!("level {level} does not exist")))?;
        if x >= l.width || y >= l.height || z >= l.depth || sample >= self.samples {
            return Err(TexError::Invalid(format!(
                "texel ({x},{y},{z}) sample {sample} out of range"
            )));
        }
        let idx = ((z as usize * l.height as usize + y as usize) * l.width as usize + x as usize)
            * self.samples as usize
            + sample as usize;
        Ok((level as usize, idx))
    }

    /// Reads one decoded texel (physical coordinates, see module docs).
    pub fn texel(
        &self,
        level: u32,
        x: u32,
        y: u32,
        z: u32,
        sample: u32,
    ) -> Result<[u32; 4], TexError> {
        let (l, i) = self.texel_index(level, x, y, z, sample)?;
        self.levels
            .get(l)
            .and_then(|lv| lv.source().get(i))
            .ok_or(TexError::Invalid("texel".into()))
    }

    /// Writes one texel from a canonical value (encoded into the format, then re-decoded so
    /// the sampled value is exactly what the format stores).
    pub fn set_texel(
        &mut self,
        level: u32,
        x: u32,
        y: u32,
        z: u32,
        sample: u32,
        value: [u32; 4],
    ) -> Result<(), TexError> {
        self.set_texel_as(self.format, level, x, y, z, sample, value)
    }

    /// Writes one texel's bytes interpreting them as `view` (a format of the same texel
    /// size, as image stores through a compatible format do), then re-decodes it.
    #[allow(clippy::too_many_arguments)]
    pub fn set_texel_as(
        &mut self,
        view: Format,
        level: u32,
        x: u32,
        y: u32,
        z: u32,
        sample: u32,
        value: [u32; 4],
    ) -> Result<(), TexError> {
        if self.format.is_compressed() {
            return Err(TexError::Unsupported(
                "texel writes to compressed textures".into(),
            ));
        }
        let bpt = self.view_texel_size(view)?;
        let (l, i) = self.texel_index(level, x, y, z, sample)?;
        let format = self.format;
        let lv = self
            .levels
            .get_mut(l)
            .ok_or(TexError::Invalid("level".into()))?;
        let bytes = lv
            .bytes
            .get_mut(i * bpt..(i + 1) * bpt)
            .ok_or(TexError::Invalid("texel bytes".into()))?;
        view.encode(value, bytes);
        let dec = format.decode(bytes);
        if let Some(t) = lv.texels.get_mut(i) {
            *t = dec;
        }
        Ok(())
    }

    /// Bytes per texel shared by the storage format and `view`, or an error when `view`
    /// cannot reinterpret this texture's texels (different size, or compressed).
    fn view_texel_size(&self, view: Format) -> Result<usize, TexError> {
        let bpt = self.format.bytes_per_texel();
        if view.bytes_per_texel() != bpt || view.is_compressed() || self.format.is_compressed() {
            return Err(TexError::Invalid(format!(
                "{} is not size-compatible with {}",
                view.name(),
                self.format.name()
            )));
        }
        Ok(bpt)
    }

    /// Reads one texel's bytes decoded as `view` (size-compatible reinterpretation).
    #[allow(clippy::too_many_arguments)]
    pub fn texel_as(
        &self,
        view: Format,
        level: u32,
        x: u32,
        y: u32,
        z: u32,
        sample: u32,
    ) -> Result<[u32; 4], TexError> {
        let bpt = self.view_texel_size(view)?;
        let (l, i) = self.texel_index(level, x, y, z, sample)?;
        let lv = self
            .levels
            .get(l)
            .ok_or(TexError::Invalid("level".into()))?;
        let bytes = lv
            .bytes
            .get(i * bpt..(i + 1) * bpt)
            .ok_or(TexError::Invalid("texel bytes".into()))?;
        Ok(view.decode(bytes))
    }

    /// Replaces a box of a level with bytes already in the internal format (rows tightly
    /// packed; for compressed formats `offset` and `size` must be block-aligned except at the
    /// level's edge).
    pub fn write_bytes(
        &mut self,
        level: u32,
        offset: [u32; 3],
        size: [u32; 3],
        data: &[u8],
    ) -> Result<(), TexError> {
        let format = self.format;
        let samples = self.samples;
        let lv = self
            .levels
            .get_mut(level as usize)
            .ok_or(TexError::Invalid(format!("level {level} does not exist")))?;
        let [x0, y0, z0] = offset;
        let [w, h, d] = size;
        if x0 as u64 + w as u64 > lv.width as u64
            || y0 as u64 + h as u64 > lv.height as u64
            || z0 as u64 + d as u64 > lv.depth as u64
        {
            return Err(TexError::Invalid("sub-image box outside the level".into()));
        }
        if format.is_compressed() {
            let aligned = |o: u32, s: u32, full: u32| o & 3 == 0 && (s & 3 == 0 || o + s == full);
            if !aligned(x0, w, lv.width) || !aligned(y0, h, lv.height) {
                return Err(TexError::Invalid(
                    "compressed sub-image not block aligned".into(),
                ));
            }
            let bsz = format.bytes_per_texel();
            let (lbw, lbh) = (
                lv.width.div_ceil(4) as usize,
                lv.height.div_ceil(4) as usize,
            );
            let (bw, bh) = (w.div_ceil(4) as usize, h.div_ceil(4) as usize);
            if data.len() < bw * bh * d as usize * bsz {
                return Err(TexError::Invalid("not enough compressed data".into()));
            }
            for z in 0..d as usize {
                for by in 0..bh {
                    let src = ((z * bh + by) * bw) * bsz;
                    let dst = (((z0 as usize + z) * lbh + y0 as usize / 4 + by) * lbw
                        + x0 as usize / 4)
                        * bsz;
                    let (Some(s), Some(t)) = (
                        data.get(src..src + bw * bsz),
                        lv.bytes.get_mut(dst..dst + bw * bsz),
                    ) else {
                        return Err(TexError::Invalid("compressed copy out of range".into()));
                    };
                    t.copy_from_slice(s);
                }
            }
            if lv.unorm8.is_none() {
                let count = lv.width as usize * lv.height as usize * lv.depth as usize;
                if lv.texels.len() == count {
                    // Only the blocks written are decoded again, not the whole level.
                    let (bx, by) = (x0 as usize / 4, y0 as usize / 4);
                    let blocks = Blocks {
                        x: bx..bx + bw,
                        y: by..by + bh,
                        z: z0 as usize..z0 as usize + d as usize,
                    };
                    let size = [lv.width, lv.height, lv.depth];
                    decode_blocks(format, &lv.bytes, size, &blocks, &mut lv.texels);
                } else {
                    lv.texels = format.decode_image(&lv.bytes, lv.width, lv.height, lv.depth)?;
                }
            }
            return Ok(());
        }
        let bpt = format.bytes_per_texel();
        let row = w as usize * bpt * samples as usize;
        if data.len() < row * h as usize * d as usize {
            return Err(TexError::Invalid("not enough pixel data".into()));
        }
        for z in 0..d as usize {
            for y in 0..h as usize {
                let src = (z * h as usize + y) * row;
                let first = (((z0 as usize + z) * lv.height as usize + y0 as usize + y)
                    * lv.width as usize
                    + x0 as usize)
                    * samples as usize;
                let dst = first * bpt;
                let (Some(s), Some(t)) =
                    (data.get(src..src + row), lv.bytes.get_mut(dst..dst + row))
                else {
                    return Err(TexError::Invalid("sub-image copy out of range".into()));
                };
                t.copy_from_slice(s);
                if lv.unorm8.is_some() {
                    continue;
                }
                for (k, texel) in s.chunks_exact(bpt).enumerate() {
                    if let Some(slot) = lv.texels.get_mut(first + k) {
                        *slot = format.decode(texel);
                    }
                }
            }
        }
        Ok(())
    }

    /// Writes a box of canonical texels (x fastest; `values.len()` must cover the box).
    pub fn write_texels(
        &mut self,
        level: u32,
        offset: [u32; 3],
        size: [u32; 3],
        values: &[[u32; 4]],
    ) -> Result<(), TexError> {
        let bpt = self.format.bytes_per_texel();
        if self.format.is_compressed() {
            return Err(TexError::Unsupported(
                "encoding into compressed formats".into(),
            ));
        }
        let count = size[0] as usize * size[1] as usize * size[2] as usize * self.samples as usize;
        if values.len() < count {
            return Err(TexError::Invalid("not enough texel values".into()));
        }
        let mut bytes = vec![0u8; count * bpt];
        for (v, out) in values.iter().zip(bytes.chunks_exact_mut(bpt)) {
            self.format.encode(*v, out);
        }
        self.write_bytes(level, offset, size, &bytes)
    }

    /// Fills every level above `base` by averaging 2×2(×2) blocks of the level below
    /// (box filter, in linear space for sRGB formats), allocating the rest of the full
    /// chain first — what `glGenerateMipmap` does.
    pub fn generate_mipmaps(&mut self, base: u32) -> Result<(), TexError> {
        if self.format.is_integer() || self.format.is_compressed() || !self.target.has_mipmaps() {
            return Err(TexError::Invalid(format!(
                "cannot generate mipmaps for {} {:?}",
                self.format.name(),
                self.target
            )));
        }
        let b = self
            .level(base)
            .ok_or(TexError::Invalid("base level missing".into()))?
            .clone();
        let is3d = self.target == Target::T3D;
        let total = base
            + Self::chain_for(
                self.target,
                b.width,
                b.height,
                if is3d { b.depth } else { 1 },
            );
        self.levels.truncate(base as usize + 1);
        let srgb = self.format.is_srgb();
        let mut prev = b;
        for _ in base + 1..total {
            let (w, h) = ((prev.width / 2).max(1), (prev.height / 2).max(1));
            let (w, h) = if matches!(self.target, Target::T1D | Target::Array1D) {
                ((prev.width / 2).max(1), 1)
            } else {
                (w, h)
            };
            let d = if is3d {
                (prev.depth / 2).max(1)
            } else {
                prev.depth
            };
            let mut vals = Vec::with_capacity(w as usize * h as usize * d as usize);
            for z in 0..d {
                for y in 0..h {
                    for x in 0..w {
                        vals.push(box_filter(&prev, x, y, z, is3d, srgb));
                    }
                }
            }
            let mut bytes = vec![0u8; self.format.image_bytes(w, h, d)];
            for (v, out) in vals
                .iter()
                .zip(bytes.chunks_exact_mut(self.format.bytes_per_texel()))
            {
                self.format.encode(*v, out);
            }
            let level = Level::new(self.format, w, h, d, 1, bytes)?;
            prev = level.clone();
            self.levels.push(level);
        }
        Ok(())
    }

    /// A new texture holding levels `first..first+count` and layers (or layer-faces for
    /// cube arrays, faces for cubes) `first_layer..first_layer+layers` of this one, with
    /// `target` (e.g. one layer of a 2D array viewed as `T2D`).
    pub fn view(
        &self,
        target: Target,
        first_level: u32,
        levels: u32,
        first_layer: u32,
        layers: u32,
    ) -> Result<Texture, TexError> {
        let mut out = Vec::new();
        for l in first_level..first_level.saturating_add(levels) {
            let lv = self
                .level(l)
                .ok_or(TexError::Invalid(format!("view level {l} does not exist")))?;
            let slice = if self.target == Target::T3D {
                0..lv.depth
            } else {
                first_layer..first_layer.saturating_add(layers)
            };
            if slice.end > lv.depth {
                return Err(TexError::Invalid("view layers out of range".into()));
            }
            let per = if self.format.is_compressed() {
                lv.width.div_ceil(4) as usize
                    * lv.height.div_ceil(4) as usize
                    * self.format.bytes_per_texel()
            } else {
                lv.width as usize
                    * lv.height as usize
                    * self.format.bytes_per_texel()
                    * self.samples as usize
            };
            let tper = lv.width as usize * lv.height as usize * self.samples as usize;
            let bytes = lv
                .bytes
                .get(slice.start as usize * per..slice.end as usize * per)
                .unwrap_or(&[])
                .to_vec();
            let texels = lv
                .texels
                .get(slice.start as usize * tper..slice.end as usize * tper)
                .unwrap_or(&[])
                .to_vec();
            out.push(Level {
                width: lv.width,
                height: lv.height,
                depth: slice.end - slice.start,
                bytes,
                texels,
                unorm8: lv.unorm8,
            });
        }
        let ok_depth = out.first().is_some_and(|l| match target {
            Target::Cube => l.depth == 6 && l.width == l.height,
            Target::ArrayCube => l.depth % 6 == 0 && l.depth > 0,
            Target::T1D | Target::T2D | Target::Rect | Target::T2DMs | Target::Buffer => {
                l.depth == 1
            }
            _ => l.depth >= 1,
        });
        if !ok_depth
            || (target == Target::T1D || target == Target::Array1D)
                && out.iter().any(|l| l.height != 1)
        {
            return Err(TexError::Invalid(format!(
                "view shape does not fit {target:?}"
            )));
        }
        Ok(Texture {
            target,
            format: self.format,
            samples: self.samples,
            levels: out,
        })
    }
}

fn box_filter(prev: &Level, x: u32, y: u32, z: u32, is3d: bool, srgb: bool) -> [u32; 4] {
    let xs = if prev.width > 1 {
        [2 * x, 2 * x + 1]
    } else {
        [0, 0]
    };
    let ys = if prev.height > 1 {
        [2 * y, 2 * y + 1]
    } else {
        [0, 0]
    };
    let zs = if is3d && prev.depth > 1 {
        [2 * z, 2 * z + 1]
    } else if is3d {
        [0, 0]
    } else {
        [z, z]
    };
    let mut acc = [0f64; 4];
    let mut n = 0.0;
    for &zz in &zs {
        for &yy in &ys {
            for &xx in &xs {
                let i = (zz as usize * prev.height as usize + yy as usize) * prev.width as usize
                    + xx as usize;
                let t = prev.source().get(i).unwrap_or([0; 4]);
                for (c, a) in acc.iter_mut().enumerate() {
                    let mut v = f32::from_bits(t[c]);
                    if srgb && c < 3 {
                        v = crate::pack::srgb_to_linear(v);
                    }
                    *a += v as f64;
                }
                n += 1.0;
            }
        }
    }
    let mut out = [0u32; 4];
    for c in 0..4 {
        let mut v = (acc[c] / n) as f32;
        if srgb && c < 3 {
            v = crate::pack::linear_to_srgb(v);
        }
        out[c] = v.to_bits();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_sizes_and_chain() {
        let t = Texture::new(Target::T2D, Format::RGBA8, [8, 4, 1], 100).unwrap();
        assert_eq!(t.num_levels(), 4);
        assert_eq!(t.size(3), Some([1, 1, 0]));
        let a = Texture::new(Target::Array1D, Format::RGBA8, [8, 3, 1], 100).unwrap();
        assert_eq!(a.size(1), Some([4, 3, 0]));
        assert_eq!(a.layers(), 3);
        let c = Texture::new(Target::ArrayCube, Format::RGBA8, [4, 4, 12], 1).unwrap();
        assert_eq!(c.layers(), 2);
        assert_eq!(c.size(0), Some([4, 4, 2]));
        assert!(Texture::new(Target::Cube, Format::RGBA8, [4, 2, 1], 1).is_err());
        assert!(Texture::new(Target::T2D, Format::RGBA8, [0, 2, 1], 1).is_err());
        assert_eq!(full_chain_levels(5, 1, 1), 3);
        let t3 = Texture::new(Target::T3D, Format::RGBA8, [4, 4, 16], 100).unwrap();
        assert_eq!(t3.num_levels(), 5);
        assert_eq!(t3.size(4), Some([1, 1, 1]));
    }

    #[test]
    fn unorm8_levels_keep_only_their_bytes() {
        let mut t = Texture::new(Target::T2D, Format::RGBA8, [16, 8, 1], 1).unwrap();
        t.write_bytes(0, [1, 2, 0], [1, 1, 1], &[0, 51, 255, 128])
            .unwrap();
        let lv = t.level(0).unwrap();
        assert!(lv.texels.is_empty());
        assert_eq!(lv.bytes().len(), 16 * 8 * 4);
        assert!(matches!(lv.source(), Texels::Unorm8 { .. }));
        let want = Format::RGBA8.decode(&[0, 51, 255, 128]);
        assert_eq!(t.texel(0, 1, 2, 0, 0).unwrap(), want);
        assert_eq!(lv.texels()[2 * 16 + 1], want);
        // Other formats keep their decoded texels.
        let f = Texture::new(Target::T2D, Format::RGBA16F, [4, 4, 1], 1).unwrap();
        assert_eq!(f.level(0).unwrap().texels.len(), 16);
    }

    #[test]
    fn chains_grow_level_by_level() {
        let mut t = Texture::new(Target::Array1D, Format::RGBA8, [8, 3, 1], 1).unwrap();
        assert_eq!(t.num_levels(), 1);
        t.ensure_levels(3).unwrap();
        assert_eq!((t.num_levels(), t.size(2)), (3, Some([2, 3, 0])));
        t.ensure_levels(100).unwrap();
        assert_eq!(t.num_levels(), 4);
        let mut r = Texture::new(Target::Rect, Format::RGBA8, [8, 8, 1], 1).unwrap();
        r.ensure_levels(2).unwrap();
        assert_eq!(r.num_levels(), 1);
    }

    #[test]
    fn sub_image_updates_bytes_and_texels() {
        let mut t = Texture::new(Target::T2D, Format::RGBA8, [4, 4, 1], 1).unwrap();
        t.write_bytes(0, [1, 2, 0], [2, 1, 1], &[255, 0, 0, 255, 0, 255, 0, 255])
            .unwrap();
        let one = 1.0f32.to_bits();
        assert_eq!(t.texel(0, 1, 2, 0, 0).unwrap(), [one, 0, 0, one]);
        assert_eq!(t.texel(0, 2, 2, 0, 0).unwrap(), [0, one, 0, one]);
        assert_eq!(t.texel(0, 0, 2, 0, 0).unwrap(), [0; 4]);
        assert!(t.write_bytes(0, [3, 0, 0], [2, 1, 1], &[0; 8]).is_err());
        assert!(t.texel(0, 4, 0, 0, 0).is_err());
    }

    #[test]
    fn mipmap_generation_box_filters() {
        let mut t = Texture::new(Target::T2D, Format::R8, [2, 2, 1], 1).unwrap();
        t.write_bytes(0, [0, 0, 0], [2, 2, 1], &[0, 255, 255, 0])
            .unwrap();
        t.generate_mipmaps(0).unwrap();
        assert_eq!(t.num_levels(), 2);
        assert_eq!(t.level(1).unwrap().bytes(), &[128]);
        let mut s = Texture::new(Target::T2D, Format::Srgb8Alpha8, [2, 1, 1], 1).unwrap();
        s.write_bytes(0, [0, 0, 0], [2, 1, 1], &[0, 0, 0, 0, 255, 255, 255, 255])
            .unwrap();
        s.generate_mipmaps(0).unwrap();
        // Linear average 0.5 re-encoded to sRGB is 188, not 128.
        assert_eq!(s.level(1).unwrap().bytes(), &[188, 188, 188, 128]);
        let mut i = Texture::new(Target::T2D, Format::R8UI, [2, 2, 1], 1).unwrap();
        assert!(i.generate_mipmaps(0).is_err());
    }

    #[test]
    fn views_select_layers_and_levels() {
        let mut t = Texture::new(Target::Array2D, Format::R8, [2, 2, 3], 2).unwrap();
        t.write_bytes(0, [0, 0, 1], [2, 2, 1], &[9, 9, 9, 9])
            .unwrap();
        let v = t.view(Target::T2D, 0, 1, 1, 1).unwrap();
        assert_eq!(v.level(0).unwrap().bytes(), &[9, 9, 9, 9]);
        assert!(t.view(Target::T2D, 0, 1, 3, 1).is_err());
        assert!(t.view(Target::Cube, 0, 1, 0, 3).is_err());
    }

    #[test]
    fn reinterpreting_writes() {
        let mut t = Texture::new(Target::T2D, Format::RGBA8, [1, 1, 1], 1).unwrap();
        t.set_texel_as(Format::R32UI, 0, 0, 0, 0, 0, [0xff00_00ff, 0, 0, 0])
            .unwrap();
        let one = 1.0f32.to_bits();
        assert_eq!(t.texel(0, 0, 0, 0, 0).unwrap(), [one, 0, 0, one]);
        assert_eq!(
            t.texel_as(Format::R32UI, 0, 0, 0, 0, 0).unwrap(),
            [0xff00_00ff, 0, 0, 1]
        );
        assert!(t
            .set_texel_as(Format::RG32UI, 0, 0, 0, 0, 0, [0; 4])
            .is_err());
    }

    /// A compressed sub-image decodes only the blocks it writes: the level's texels equal
    /// a decode of its whole bytes after every write (edge blocks, several slices).
    #[test]
    fn compressed_sub_images_decode_their_blocks() {
        let formats = [
            Format::Bc1Rgb,
            Format::Bc1Rgba,
            Format::Bc2,
            Format::Bc3,
            Format::Bc1Srgb,
            Format::Bc3Srgb,
        ];
        let boxes = [
            ([0u32, 0, 0], [10u32, 7, 3]),
            ([4, 4, 1], [6, 3, 1]),
            ([0, 0, 0], [8, 4, 2]),
            ([8, 0, 2], [2, 7, 1]),
            ([4, 0, 0], [4, 4, 3]),
        ];
        for format in formats {
            let mut t = Texture::new(Target::Array2D, format, [10, 7, 3], 1).unwrap();
            let mut seed = 0x1234_5678u32;
            for (offset, size) in boxes {
                let blocks = size[0].div_ceil(4) * size[1].div_ceil(4) * size[2];
                let data: Vec<u8> = (0..blocks as usize * format.bytes_per_texel())
                    .map(|_| {
                        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                        (seed >> 24) as u8
                    })
                    .collect();
                t.write_bytes(0, offset, size, &data).unwrap();
                let lv = t.level(0).unwrap();
                let whole = format.decode_image(lv.bytes(), 10, 7, 3).unwrap();
                match lv.source() {
                    Texels::Decoded(texels) => assert_eq!(texels, &whole[..], "{format:?}"),
                    Texels::Unorm8 { .. } => panic!("{format:?} is kept decoded"),
                }
            }
        }
    }
}
