//! Immutable texture storage (`glTexStorage1D/2D/3D` and the multisample forms) and
//! buffer textures (`glTexBuffer`, `glTexBufferRange`).

use super::textures::{from_tex, target_of, TexBuffer, MAX_TEXTURE_SIZE};
use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_textures::texture::full_chain_levels;
use glemu_textures::{Format, Target, Texture};
use std::sync::Arc;

/// `TEXTURE_BUFFER_OFFSET_ALIGNMENT`.
pub const TEXTURE_BUFFER_OFFSET_ALIGNMENT: u64 = 16;

/// Base internal formats, which glTexStorage does not take (it needs sized ones).
fn is_unsized(internal_format: u32) -> bool {
    matches!(
        internal_format,
        gl::RED
            | gl::RG
            | gl::RGB
            | gl::RGBA
            | gl::ALPHA
            | gl::LUMINANCE
            | gl::LUMINANCE_ALPHA
            | gl::INTENSITY
            | gl::DEPTH_COMPONENT
            | gl::DEPTH_STENCIL
    )
}

/// The formats a buffer texture may have (GL 4.6 table 8.16): 1, 2 or 4 components of
/// 8-, 16- or 32-bit normalized, float and integer types, and the 32-bit RGB ones.
fn buffer_texture_format(internal_format: u32) -> Result<Format> {
    use glemu_textures::{Base, Channel};
    let bad = || Error::invalid_enum("buffer texture internal format", internal_format);
    let fmt = Format::from_gl(internal_format).ok_or_else(bad)?;
    match fmt {
        Format::Plain(Base::R | Base::Rg | Base::Rgba, ch)
            if !matches!(ch, Channel::Snorm8 | Channel::Snorm16) =>
        {
            Ok(fmt)
        }
        Format::Plain(Base::Rgb, Channel::F32 | Channel::U32 | Channel::I32) => Ok(fmt),
        _ => Err(bad()),
    }
}

/// # Chapter 8.19, 8.9 — Immutable texture storage and buffer textures
///
/// `tex_storage_1d/2d/3d`, `tex_storage_2d/3d_multisample`, `tex_image_3d_multisample`,
/// `tex_buffer`, `tex_buffer_range`.
impl Context {
    /// `glTexStorage1D`. See [`Context::tex_storage_3d`].
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_1D, 1).unwrap();
    /// ctx.tex_storage_1d(gl::TEXTURE_1D, 3, gl::RGBA8, 4).unwrap();
    /// ```
    pub fn tex_storage_1d(
        &mut self,
        target: u32,
        levels: i32,
        internal_format: u32,
        width: i32,
    ) -> Result<()> {
        self.tex_storage(target, 1, levels, internal_format, [width, 1, 1])
    }

    /// `glTexStorage2D` (`TEXTURE_2D`, `TEXTURE_RECTANGLE`, `TEXTURE_CUBE_MAP`,
    /// `TEXTURE_1D_ARRAY`). See [`Context::tex_storage_3d`].
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
    /// ctx.tex_storage_2d(gl::TEXTURE_2D, 3, gl::RGBA8, 4, 4).unwrap();
    /// // Every level exists: a mipmapped sampler sees a complete texture, and the
    /// // storage can never be redefined.
    /// let e = ctx.tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, None);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidOperation);
    /// assert_eq!(ctx.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 4, 4).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn tex_storage_2d(
        &mut self,
        target: u32,
        levels: i32,
        internal_format: u32,
        width: i32,
        height: i32,
    ) -> Result<()> {
        self.tex_storage(target, 2, levels, internal_format, [width, height, 1])
    }

    /// `glTexStorage3D` (`TEXTURE_3D`, `TEXTURE_2D_ARRAY`, `TEXTURE_CUBE_MAP_ARRAY`):
    /// immutable storage of `levels` levels in a sized `internal_format`, every level of
    /// every face defined (contents zero). Errors: another target or an unsized format
    /// `INVALID_ENUM`; a size or `levels` below 1, or a cube map that is not square,
    /// `INVALID_VALUE`; more levels than the size has, no texture bound, or storage
    /// that is already immutable `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D_ARRAY, 1).unwrap();
    /// let e = ctx.tex_storage_3d(gl::TEXTURE_2D_ARRAY, 4, gl::RGBA8, 4, 4, 2).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // a 4x4 array has 3 levels
    /// let e = ctx.tex_storage_3d(gl::TEXTURE_2D_ARRAY, 1, gl::RGBA, 4, 4, 2).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidEnum);
    /// ctx.tex_storage_3d(gl::TEXTURE_2D_ARRAY, 3, gl::RGBA8, 4, 4, 2).unwrap();
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn tex_storage_3d(
        &mut self,
        target: u32,
        levels: i32,
        internal_format: u32,
        width: i32,
        height: i32,
        depth: i32,
    ) -> Result<()> {
        self.tex_storage(target, 3, levels, internal_format, [width, height, depth])
    }

    fn tex_storage(
        &mut self,
        target: u32,
        dims: usize,
        levels: i32,
        internal_format: u32,
        size: [i32; 3],
    ) -> Result<()> {
        let (t, face) = target_of(target)?;
        let fits = match dims {
            1 => t == Target::T1D,
            2 => matches!(
                t,
                Target::T2D | Target::Rect | Target::Cube | Target::Array1D
            ),
            _ => matches!(t, Target::T3D | Target::Array2D | Target::ArrayCube),
        };
        if face.is_some() || !fits {
            return Err(Error::invalid_enum(
                &format!("glTexStorage{dims}D target"),
                target,
            ));
        }
        let fmt = Format::from_gl(internal_format)
            .filter(|_| !is_unsized(internal_format))
            .ok_or_else(|| Error::invalid_enum("sized internal format", internal_format))?;
        if levels < 1 || size.iter().any(|&s| s < 1 || s as u32 > MAX_TEXTURE_SIZE) {
            return Err(Error::invalid_value(format!(
                "glTexStorage{dims}D of {levels} levels, size {size:?}: each at least 1, sides at most {MAX_TEXTURE_SIZE}"
            )));
        }
        let [w, h, d] = size.map(|s| s as u32);
        if matches!(t, Target::Cube | Target::ArrayCube) && w != h {
            return Err(Error::invalid_value(format!(
                "a {w}x{h} cube map face is not square"
            )));
        }
        if t == Target::ArrayCube && d % 6 != 0 {
            return Err(Error::invalid_value(format!(
                "a cube map array of {d} layer-faces (a multiple of 6)"
            )));
        }
        let max = match t {
            Target::Rect => 1,
            Target::T1D | Target::Array1D => full_chain_levels(w, 1, 1),
            Target::T3D => full_chain_levels(w, h, d),
            _ => full_chain_levels(w, h, 1),
        };
        if levels as u32 > max {
            return Err(Error::invalid_operation(format!(
                "{levels} levels for a {w}x{h}x{d} texture (at most {max})"
            )));
        }
        let (in_use, budget) = (self.memory_in_use(), self.memory_budget());
        let (o, _, _) = self.bound_texture_mut(target)?;
        if o.immutable.is_some() {
            return Err(Error::invalid_operation(
                "the texture's storage is immutable already (glTexStorage was called)",
            ));
        }
        let bytes = Texture::bytes_for(t, fmt, [w, h, d], levels as u32, 1).unwrap_or(u64::MAX);
        let old = o.image.as_deref().map_or(0, Texture::heap_bytes);
        let what = format_args!("glTexStorage{dims}D of {w}x{h}x{d}, {levels} levels");
        super::limits::charge(in_use, budget, bytes, old, &what)?;
        let img = Texture::new(t, fmt, [w, h, d], levels as u32).map_err(from_tex)?;
        o.image = Some(Arc::new(img));
        o.defined = [(1u32 << levels) - 1; 6];
        o.immutable = Some(levels as u32);
        self.refresh_bound_fbos();
        Ok(())
    }

    /// `glTexStorage2DMultisample`: immutable multisample storage (see
    /// [`Context::tex_image_2d_multisample`]).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D_MULTISAMPLE, 1).unwrap();
    /// ctx.tex_storage_2d_multisample(gl::TEXTURE_2D_MULTISAMPLE, 4, gl::RGBA8, 8, 8, true).unwrap();
    /// let e = ctx.tex_image_2d_multisample(gl::TEXTURE_2D_MULTISAMPLE, 4, gl::RGBA8, 8, 8, true);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn tex_storage_2d_multisample(
        &mut self,
        target: u32,
        samples: u32,
        internal_format: u32,
        width: u32,
        height: u32,
        fixed_sample_locations: bool,
    ) -> Result<()> {
        let _ = fixed_sample_locations;
        let size = [width, height, 1];
        self.multisample_storage(target, 2, samples, internal_format, size, true)
    }

    /// `glTexImage3DMultisample(TEXTURE_2D_MULTISAMPLE_ARRAY, ...)`: `depth` layers of
    /// multisample storage for the texture bound to `TEXTURE_2D_MULTISAMPLE_ARRAY`,
    /// contents zero; errors and sample counts as [`Context::tex_image_2d_multisample`],
    /// and `INVALID_VALUE` for more than `MAX_ARRAY_TEXTURE_LAYERS` layers.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D_MULTISAMPLE_ARRAY, 1).unwrap();
    /// let t = gl::TEXTURE_2D_MULTISAMPLE_ARRAY;
    /// ctx.tex_image_3d_multisample(t, 4, gl::RGBA8, 8, 8, 3, true).unwrap();
    /// let e = ctx.tex_image_3d_multisample(t, 4, gl::RGBA8, 8, 8, 4096, true).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn tex_image_3d_multisample(
        &mut self,
        target: u32,
        samples: u32,
        internal_format: u32,
        width: u32,
        height: u32,
        depth: u32,
        fixed_sample_locations: bool,
    ) -> Result<()> {
        let _ = fixed_sample_locations;
        let size = [width, height, depth];
        self.multisample_storage(target, 3, samples, internal_format, size, false)
    }

    /// `glTexStorage3DMultisample` (GL 4.3, ARB_texture_storage_multisample): immutable
    /// [`Context::tex_image_3d_multisample`] storage. An unsized internal format is
    /// `INVALID_ENUM`; a texture whose storage is immutable already `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let t = gl::TEXTURE_2D_MULTISAMPLE_ARRAY;
    /// ctx.bind_texture(t, 1).unwrap();
    /// ctx.tex_storage_3d_multisample(t, 2, gl::RGBA8, 8, 8, 2, true).unwrap();
    /// let e = ctx.tex_storage_3d_multisample(t, 2, gl::RGBA8, 8, 8, 2, true).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation);
    /// let e = ctx.tex_storage_3d_multisample(gl::TEXTURE_2D_MULTISAMPLE, 2, gl::RGBA8, 8, 8, 2, true);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn tex_storage_3d_multisample(
        &mut self,
        target: u32,
        samples: u32,
        internal_format: u32,
        width: u32,
        height: u32,
        depth: u32,
        fixed_sample_locations: bool,
    ) -> Result<()> {
        let _ = fixed_sample_locations;
        let size = [width, height, depth];
        self.multisample_storage(target, 3, samples, internal_format, size, true)
    }

    /// The multisample storage calls in one (GL 4.6 sections 8.8 and 8.19): `dims` 2 is
    /// `TEXTURE_2D_MULTISAMPLE`, 3 `TEXTURE_2D_MULTISAMPLE_ARRAY`; `immutable` for the
    /// glTexStorage forms. Sample counts up to 16 round up to 1, 2, 4, 8 or 16.
    pub(super) fn multisample_storage(
        &mut self,
        target: u32,
        dims: usize,
        samples: u32,
        internal_format: u32,
        [w, h, d]: [u32; 3],
        immutable: bool,
    ) -> Result<()> {
        let call = match immutable {
            true => "glTexStorage",
            false => "glTexImage",
        };
        let (want, t) = match dims {
            2 => (gl::TEXTURE_2D_MULTISAMPLE, Target::T2DMs),
            _ => (gl::TEXTURE_2D_MULTISAMPLE_ARRAY, Target::Array2DMs),
        };
        if target != want {
            let what = format!("{call}{dims}DMultisample target");
            return Err(Error::invalid_enum(&what, target));
        }
        let fmt = Format::from_gl(internal_format)
            .filter(|f| !f.is_compressed() && (!immutable || !is_unsized(internal_format)))
            .ok_or_else(|| {
                let what = match immutable {
                    true => "sized renderable internal format",
                    false => "renderable internal format",
                };
                Error::invalid_enum(what, internal_format)
            })?;
        let max = MAX_TEXTURE_SIZE;
        let layers = crate::caps::MAX_ARRAY_TEXTURE_LAYERS;
        if [w, h, d].contains(&0) || w > max || h > max || d > layers {
            return Err(Error::invalid_value(format!(
                "{call}{dims}DMultisample of {w}x{h}x{d}: sides 1..={max}, layers 1..={layers}"
            )));
        }
        if samples == 0 {
            return Err(Error::invalid_value("0 samples"));
        }
        // GL 4.6 section 8.8: more samples than the format supports is INVALID_OPERATION.
        let most = crate::caps::MAX_SAMPLES;
        if samples > most {
            return Err(Error::invalid_operation(format!(
                "{samples} samples (at most {most})"
            )));
        }
        let s = [1, 2, 4, 8, 16]
            .into_iter()
            .find(|&c| c >= samples)
            .unwrap_or(16);
        let (in_use, budget) = (self.memory_in_use(), self.memory_budget());
        let (o, _, _) = self.bound_texture_mut(target)?;
        if o.immutable.is_some() {
            return Err(Error::invalid_operation(
                "the texture's storage is immutable already (glTexStorage was called)",
            ));
        }
        let bytes = Texture::bytes_for(t, fmt, [w, h, d], 1, s).unwrap_or(u64::MAX);
        let old = o.image.as_deref().map_or(0, Texture::heap_bytes);
        let what = format_args!("{call}{dims}DMultisample of {w}x{h}x{d} with {s} samples");
        super::limits::charge(in_use, budget, bytes, old, &what)?;
        let img = Texture::new_multisample(t, fmt, [w, h, d], s).map_err(from_tex)?;
        o.image = Some(Arc::new(img));
        o.defined = [1, 0, 0, 0, 0, 0];
        if immutable {
            o.immutable = Some(1);
        }
        self.refresh_bound_fbos();
        Ok(())
    }

    /// `glTexBuffer(TEXTURE_BUFFER, internal_format, buffer)`: the texture bound to
    /// `TEXTURE_BUFFER` views all of buffer `buffer`'s data store as texels of
    /// `internal_format` (R/RG/RGBA of 8/16/32-bit types, RGB32F/I/UI); buffer 0
    /// detaches. Programs read it with `TXF ..., BUFFER`, seeing the buffer's contents at
    /// the time of each draw.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.create_buffer().unwrap();
    /// ctx.bind_buffer(gl::TEXTURE_BUFFER, b).unwrap();
    /// ctx.buffer_data(gl::TEXTURE_BUFFER, &[1.0f32, 2.0, 3.0, 4.0], gl::STATIC_DRAW).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_BUFFER, 7).unwrap();
    /// ctx.tex_buffer(gl::TEXTURE_BUFFER, gl::R32F, b).unwrap();
    /// assert_eq!(ctx.tex_buffer(gl::TEXTURE_BUFFER, gl::RGB8, b).unwrap_err().gl, GlError::InvalidEnum);
    /// assert_eq!(ctx.tex_buffer(gl::TEXTURE_BUFFER, gl::R32F, 99).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn tex_buffer(&mut self, target: u32, internal_format: u32, buffer: u32) -> Result<()> {
        self.set_tex_buffer(target, internal_format, buffer, 0, None)
    }

    /// `glTexBufferRange`: like [`Context::tex_buffer`] over `size` bytes at `offset`.
    /// A negative offset, a size of 0 or less, a range past the buffer's end or an
    /// offset not a multiple of `TEXTURE_BUFFER_OFFSET_ALIGNMENT` (16) is `INVALID_VALUE`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.create_buffer().unwrap();
    /// ctx.bind_buffer(gl::TEXTURE_BUFFER, b).unwrap();
    /// ctx.buffer_data_size(gl::TEXTURE_BUFFER, 64, gl::STATIC_DRAW).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_BUFFER, 7).unwrap();
    /// ctx.tex_buffer_range(gl::TEXTURE_BUFFER, gl::RGBA32F, b, 16, 32).unwrap();
    /// let e = ctx.tex_buffer_range(gl::TEXTURE_BUFFER, gl::RGBA32F, b, 8, 32).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn tex_buffer_range(
        &mut self,
        target: u32,
        internal_format: u32,
        buffer: u32,
        offset: i64,
        size: i64,
    ) -> Result<()> {
        if offset < 0
            || size <= 0
            || !(offset as u64).is_multiple_of(TEXTURE_BUFFER_OFFSET_ALIGNMENT)
        {
            return Err(Error::invalid_value(format!(
                "buffer texture range {offset}+{size}: offset >= 0 and a multiple of \
                 {TEXTURE_BUFFER_OFFSET_ALIGNMENT}, size > 0"
            )));
        }
        if buffer != 0 {
            let len = self.buffer_len(buffer)?;
            if (offset as u64)
                .checked_add(size as u64)
                .is_none_or(|end| end > len)
            {
                return Err(Error::invalid_value(format!(
                    "buffer texture range {offset}+{size} runs past buffer {buffer}'s {len} bytes"
                )));
            }
        }
        self.set_tex_buffer(
            target,
            internal_format,
            buffer,
            offset as u64,
            Some(size as u64),
        )
    }

    fn set_tex_buffer(
        &mut self,
        target: u32,
        internal_format: u32,
        buffer: u32,
        offset: u64,
        size: Option<u64>,
    ) -> Result<()> {
        if target != gl::TEXTURE_BUFFER {
            return Err(Error::invalid_enum("buffer texture target", target));
        }
        let format = buffer_texture_format(internal_format)?;
        if buffer != 0 {
            self.buffer_len(buffer)?;
        }
        let (o, _, _) = self.bound_texture_mut(target)?;
        o.buffer = (buffer != 0).then_some(TexBuffer {
            buffer,
            format,
            offset,
            size,
        });
        Ok(())
    }

    /// The size of buffer `id`'s data store; a name that is no buffer object is
    /// `INVALID_OPERATION`.
    fn buffer_len(&self, id: u32) -> Result<u64> {
        self.buffers
            .objects
            .get(&id)
            .map(|b| b.data.len())
            .ok_or_else(|| Error::invalid_operation(format!("{id} is not a buffer object")))
    }

    /// The texels a buffer texture shows now: its range of the buffer's current data.
    pub(crate) fn buffer_texture(&self, tb: &TexBuffer) -> Option<Texture> {
        let data = &self.buffers.objects.get(&tb.buffer)?.data;
        let len = data.len();
        let start = tb.offset.min(len);
        let end = tb.size.map_or(len, |s| start.saturating_add(s).min(len));
        let mut bytes = vec![0u8; usize::try_from(end - start).ok()?];
        data.read(start, &mut bytes).ok()?;
        Texture::from_buffer(tb.format, &bytes).ok()
    }
}

#[cfg(test)]
mod tests {
    use crate::{gl, Context};

    /// A layer of a multisample array texture renders and resolves like a 2D
    /// multisample texture; the other layers keep their zeros.
    #[test]
    fn multisample_array_layers_render_and_resolve() {
        let mut ctx = Context::new(8, 8).unwrap();
        let t = gl::TEXTURE_2D_MULTISAMPLE_ARRAY;
        ctx.bind_texture(t, 1).unwrap();
        ctx.tex_storage_3d_multisample(t, 4, gl::RGBA8, 8, 8, 3, true)
            .unwrap();
        ctx.bind_framebuffer(gl::FRAMEBUFFER, 1).unwrap();
        let resolved = |ctx: &mut Context, layer| {
            ctx.bind_framebuffer(gl::READ_FRAMEBUFFER, 1).unwrap();
            let a = gl::COLOR_ATTACHMENT0;
            ctx.framebuffer_texture_layer(gl::READ_FRAMEBUFFER, a, 1, 0, layer)
                .unwrap();
            ctx.bind_framebuffer(gl::DRAW_FRAMEBUFFER, 0).unwrap();
            let r = [0, 0, 8, 8];
            ctx.blit_framebuffer(r, r, gl::COLOR_BUFFER_BIT, gl::NEAREST)
                .unwrap();
            ctx.bind_framebuffer(gl::READ_FRAMEBUFFER, 0).unwrap();
            ctx.read_pixels(3, 3, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE)
                .unwrap()
        };
        let a = gl::COLOR_ATTACHMENT0;
        ctx.framebuffer_texture_layer(gl::FRAMEBUFFER, a, 1, 0, 2)
            .unwrap();
        assert_eq!(
            ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap(),
            gl::FRAMEBUFFER_COMPLETE
        );
        ctx.clear_color([0.0, 1.0, 0.0, 1.0]).unwrap();
        ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
        assert_eq!(resolved(&mut ctx, 2), [0, 255, 0, 255]);
        assert_eq!(resolved(&mut ctx, 0), [0, 0, 0, 0]);
    }
}
