//! Copies into textures: from the read framebuffer (`glCopyTexImage1D/2D`,
//! `glCopyTexSubImage1D/2D/3D`, GL 4.6 section 8.6) and between texture images
//! (`glCopyImageSubData`, section 18.3.3).
//!
//! A framebuffer copy reads the rectangle as `read_pixels` would (in a client format that
//! holds every value the destination can store: floats, 32-bit integers or depth and
//! stencil) and writes it as a texture upload converts it, so the two share their rules.
//! `copy_image_sub_data` copies the stored bytes, as GL's raw texel copy does.

use super::textures::{from_tex, storage_dims, target_of, unpack_client};
use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_raster::ColorFormat;
use glemu_textures::{Filter, Format, SampleType, Target};
use std::sync::Arc;

/// The client format/type a framebuffer copy reads for a texture of format `fmt`.
fn read_format(fmt: Format) -> (u32, u32) {
    if fmt.has_stencil() {
        (gl::DEPTH_STENCIL, gl::FLOAT_32_UNSIGNED_INT_24_8_REV)
    } else if fmt.is_depth() {
        (gl::DEPTH_COMPONENT, gl::FLOAT)
    } else {
        match fmt.sample_type() {
            SampleType::Sint => (gl::RGBA_INTEGER, gl::INT),
            SampleType::Uint => (gl::RGBA_INTEGER, gl::UNSIGNED_INT),
            _ => (gl::RGBA, gl::FLOAT),
        }
    }
}

/// The targets a 2D copy writes: `TEXTURE_2D`, `TEXTURE_RECTANGLE`, `TEXTURE_1D_ARRAY`
/// and the cube faces (`INVALID_ENUM` otherwise).
fn check_2d_target(call: &str, target: u32) -> Result<()> {
    let (t, _) = target_of(target)?;
    let two_d = matches!(
        t,
        Target::T2D | Target::Rect | Target::Cube | Target::Array1D
    );
    if !two_d || target == gl::TEXTURE_CUBE_MAP {
        return Err(Error::invalid_enum(&format!("{call} target"), target));
    }
    Ok(())
}

/// Non-negative GL coordinates, or `INVALID_VALUE` naming them.
fn unsigned<const N: usize>(what: &str, v: [i32; N]) -> Result<[u32; N]> {
    if v.iter().any(|&c| c < 0) {
        return Err(Error::invalid_value(format!("{what} {v:?} is negative")));
    }
    Ok(v.map(|c| c as u32))
}

/// # Chapter 8.6, 18.3 — Copying into textures
///
/// `copy_tex_image_1d/2d`, `copy_tex_sub_image_1d/2d/3d`, `copy_image_sub_data`.
impl Context {
    /// The rectangle `x, y, w, h` of the read framebuffer as canonical texels of `fmt`.
    /// Integer textures need an integer read buffer of the same signedness, depth
    /// textures a depth buffer, others a non-integer colour buffer (`INVALID_OPERATION`);
    /// a multisampled read framebuffer is `INVALID_OPERATION`, an incomplete one
    /// `INVALID_FRAMEBUFFER_OPERATION`.
    fn framebuffer_texels(
        &self,
        x: i32,
        y: i32,
        w: u32,
        h: u32,
        fmt: Format,
    ) -> Result<Vec<[u32; 4]>> {
        let (format, ty) = read_format(fmt);
        if fmt.is_integer() {
            let cf = self.read_target()?.color_format(self.read_plane()?);
            let signed = fmt.sample_type() == SampleType::Sint;
            if cf.is_some_and(|c| c.is_integer() && (c == ColorFormat::Rgba32I) != signed) {
                return Err(Error::invalid_operation(format!(
                    "copying a {cf:?} read buffer into a {} texture: integer signedness differs",
                    fmt.name()
                )));
            }
        }
        let bytes = self.read_pixels(x, y, w as i32, h as i32, format, ty)?;
        unpack_client(format, ty, &bytes, [w, h, 1], self.pack_alignment(), fmt)
    }

    /// `glCopyTexImage1D`: level `level` of the `TEXTURE_1D` texture becomes `width`
    /// pixels of row `y` of the read framebuffer. See [`Context::copy_tex_image_2d`].
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_1D, 1).unwrap();
    /// ctx.copy_tex_image_1d(gl::TEXTURE_1D, 0, gl::RGBA8, 0, 0, 4, 0).unwrap();
    /// let e = ctx.copy_tex_image_1d(gl::TEXTURE_2D, 0, gl::RGBA8, 0, 0, 4, 0).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidEnum);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn copy_tex_image_1d(
        &mut self,
        target: u32,
        level: u32,
        internal_format: u32,
        x: i32,
        y: i32,
        width: i32,
        border: i32,
    ) -> Result<()> {
        if target != gl::TEXTURE_1D {
            return Err(Error::invalid_enum("glCopyTexImage1D target", target));
        }
        self.copy_tex_image(target, level, internal_format, [x, y], [width, 1], border)
    }

    /// `glCopyTexImage2D`: defines level `level` of the bound texture (`TEXTURE_2D`,
    /// `TEXTURE_RECTANGLE`, `TEXTURE_1D_ARRAY` or a cube face) as `internal_format` from
    /// the `width` x `height` rectangle at (`x`, `y`) of the read framebuffer's read
    /// buffer, values converted as `read_pixels` then `tex_image` convert them (depth
    /// formats read the depth buffer). Pixels outside the framebuffer read zero (GL leaves
    /// them undefined).
    ///
    /// Errors: another target `INVALID_ENUM`; a border other than 0 or a negative size
    /// `INVALID_VALUE`; integer against non-integer (or signed against unsigned) read
    /// buffer, a depth format without a depth buffer, a multisampled read framebuffer,
    /// immutable storage or no texture bound `INVALID_OPERATION`; an incomplete read
    /// framebuffer `INVALID_FRAMEBUFFER_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.clear_color([1.0, 0.5, 0.0, 1.0]).unwrap();
    /// ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
    /// ctx.copy_tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, 1, 1, 2, 2, 0).unwrap();
    /// let e = ctx.copy_tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, 0, 0, 2, 2, 1).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue); // border
    /// let e = ctx.copy_tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA32UI, 0, 0, 2, 2, 0).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // an RGBA8 read buffer is not integer
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn copy_tex_image_2d(
        &mut self,
        target: u32,
        level: u32,
        internal_format: u32,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        border: i32,
    ) -> Result<()> {
        check_2d_target("glCopyTexImage2D", target)?;
        self.copy_tex_image(
            target,
            level,
            internal_format,
            [x, y],
            [width, height],
            border,
        )
    }

    fn copy_tex_image(
        &mut self,
        target: u32,
        level: u32,
        internal_format: u32,
        [x, y]: [i32; 2],
        size: [i32; 2],
        border: i32,
    ) -> Result<()> {
        if border != 0 {
            return Err(Error::invalid_value(format!(
                "border {border} (copies take 0)"
            )));
        }
        let [w, h] = unsigned("copy size", size)?;
        let fmt = Format::from_gl(internal_format)
            .ok_or_else(|| Error::invalid_enum("internal format", internal_format))?;
        if fmt.is_compressed() {
            return Err(Error::invalid_operation(format!(
                "copying into the compressed format {}",
                fmt.name()
            )));
        }
        // The destination is checked before the pixels are read: a copy into immutable
        // storage or with no texture bound fails without reading.
        let (o, _, _) = self.bound_texture_mut(target)?;
        if o.immutable.is_some() {
            return Err(Error::invalid_operation(
                "the texture's storage is immutable (glTexStorage): use copy_tex_sub_image",
            ));
        }
        let texels = self.framebuffer_texels(x, y, w, h, fmt)?;
        self.tex_image_texels(target, level, fmt, [w, h, 1], Some(&texels))
    }

    /// `glCopyTexSubImage1D`. See [`Context::copy_tex_sub_image_3d`].
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_1D, 1).unwrap();
    /// ctx.tex_storage_1d(gl::TEXTURE_1D, 1, gl::RGBA8, 8).unwrap();
    /// ctx.copy_tex_sub_image_1d(gl::TEXTURE_1D, 0, 4, 0, 0, 4).unwrap();
    /// ```
    pub fn copy_tex_sub_image_1d(
        &mut self,
        target: u32,
        level: u32,
        xoffset: i32,
        x: i32,
        y: i32,
        width: i32,
    ) -> Result<()> {
        if target != gl::TEXTURE_1D {
            return Err(Error::invalid_enum("glCopyTexSubImage1D target", target));
        }
        self.copy_tex_sub_image(target, level, [xoffset, 0, 0], [x, y], [width, 1])
    }

    /// `glCopyTexSubImage2D` (`TEXTURE_2D`, `TEXTURE_RECTANGLE`, `TEXTURE_1D_ARRAY`, cube
    /// faces). See [`Context::copy_tex_sub_image_3d`].
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
    /// ctx.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 4, 4).unwrap();
    /// ctx.copy_tex_sub_image_2d(gl::TEXTURE_2D, 0, 2, 2, 0, 0, 2, 2).unwrap();
    /// let e = ctx.copy_tex_sub_image_2d(gl::TEXTURE_2D, 0, 3, 3, 0, 0, 2, 2).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue); // past the level's edge
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn copy_tex_sub_image_2d(
        &mut self,
        target: u32,
        level: u32,
        xoffset: i32,
        yoffset: i32,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
    ) -> Result<()> {
        check_2d_target("glCopyTexSubImage2D", target)?;
        self.copy_tex_sub_image(
            target,
            level,
            [xoffset, yoffset, 0],
            [x, y],
            [width, height],
        )
    }

    /// `glCopyTexSubImage3D` (`TEXTURE_3D`, `TEXTURE_2D_ARRAY`, `TEXTURE_CUBE_MAP_ARRAY`):
    /// the `width` x `height` rectangle at (`x`, `y`) of the read buffer replaces texels
    /// at (`xoffset`, `yoffset`) of slice `zoffset` of level `level`, converted as
    /// [`Context::copy_tex_image_2d`] converts. Errors: another target `INVALID_ENUM`; a
    /// negative offset or size, or a box outside the level, `INVALID_VALUE`; an undefined
    /// level and the read-buffer mismatches of `copy_tex_image_2d` `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D_ARRAY, 1).unwrap();
    /// ctx.tex_storage_3d(gl::TEXTURE_2D_ARRAY, 1, gl::RGBA8, 4, 4, 3).unwrap();
    /// ctx.copy_tex_sub_image_3d(gl::TEXTURE_2D_ARRAY, 0, 0, 0, 2, 0, 0, 4, 4).unwrap();
    /// let e = ctx.copy_tex_sub_image_3d(gl::TEXTURE_2D_ARRAY, 0, 0, 0, 3, 0, 0, 4, 4).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue); // layer 3 of 3
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn copy_tex_sub_image_3d(
        &mut self,
        target: u32,
        level: u32,
        xoffset: i32,
        yoffset: i32,
        zoffset: i32,
        x: i32,
        y: i32,
        width: i32,
        height: i32,
    ) -> Result<()> {
        if !matches!(
            target,
            gl::TEXTURE_3D | gl::TEXTURE_2D_ARRAY | gl::TEXTURE_CUBE_MAP_ARRAY
        ) {
            return Err(Error::invalid_enum("glCopyTexSubImage3D target", target));
        }
        self.copy_tex_sub_image(
            target,
            level,
            [xoffset, yoffset, zoffset],
            [x, y],
            [width, height],
        )
    }

    fn copy_tex_sub_image(
        &mut self,
        target: u32,
        level: u32,
        offset: [i32; 3],
        [x, y]: [i32; 2],
        size: [i32; 2],
    ) -> Result<()> {
        let offset = unsigned("copy offset", offset)?;
        let [w, h] = unsigned("copy size", size)?;
        let Some((fmt, poff, psize)) = self.sub_image_box(target, level, offset, [w, h, 1])? else {
            return Ok(());
        };
        let texels = self.framebuffer_texels(x, y, w, h, fmt)?;
        self.write_sub_texels(target, level, poff, psize, &texels)
    }

    /// `glCopyImageSubData`: copies the stored bytes of a `size` box (GL terms: a 1D
    /// array's layers are y, a cube map's faces and an array's layers z) from level
    /// `src_level` of texture `src` to level `dst_level` of texture `dst`, without
    /// conversion. Either end may be a renderbuffer (target `RENDERBUFFER`, level 0).
    /// The formats must be the same, or both non-depth formats of the same texel size
    /// (RGBA8 and R32UI, RGBA32F and RGBA32I ...), where a compressed format's texel
    /// is its 4x4 block (BC1 and RG32UI, BC3 and RGBA32F: GL 4.6 section 18.3.3; `size`
    /// is in the source's texels, so one block of the source is one texel of the
    /// destination and back). The objects need not be bound.
    ///
    /// Errors: a target that is not a texture target or `RENDERBUFFER` (or a cube face,
    /// or `TEXTURE_BUFFER`), or one that does not match the object's, `INVALID_ENUM`; a
    /// name that is no texture or renderbuffer, a level that is not defined (any but 0
    /// of a renderbuffer), a negative or out-of-level box, a compressed box not on block
    /// edges `INVALID_VALUE`; incompatible formats, different sample counts or a texture
    /// whose base level is incomplete `INVALID_OPERATION`. A renderbuffer that glemu
    /// stores in a wider format than asked (R8 as RGBA8 ...) is "not supported".
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let (a, b) = (ctx.create_texture(gl::TEXTURE_2D).unwrap(), ctx.create_texture(gl::TEXTURE_2D).unwrap());
    /// ctx.bind_texture(gl::TEXTURE_2D, a).unwrap();
    /// ctx.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D, b).unwrap();
    /// ctx.tex_storage_2d(gl::TEXTURE_2D, 1, gl::R32UI, 4, 4).unwrap();
    /// ctx.copy_image_sub_data(a, gl::TEXTURE_2D, 0, [0, 0, 0], b, gl::TEXTURE_2D, 0, [2, 2, 0], [2, 2, 1]).unwrap();
    /// let e = ctx.copy_image_sub_data(a, gl::TEXTURE_2D, 0, [3, 3, 0], b, gl::TEXTURE_2D, 0, [0, 0, 0], [2, 2, 1]);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn copy_image_sub_data(
        &mut self,
        src: u32,
        src_target: u32,
        src_level: u32,
        src_offset: [i32; 3],
        dst: u32,
        dst_target: u32,
        dst_level: u32,
        dst_offset: [i32; 3],
        size: [i32; 3],
    ) -> Result<()> {
        let src_box = self.copy_image_end(src, src_target, src_level, src_offset, size)?;
        // GL 4.6 section 18.3.3: between a compressed and an uncompressed image, one
        // block is one texel, so the destination's box is the source's in blocks (or
        // four times it).
        let dst_size = match (
            self.end_format(dst, dst_target),
            src_box.format.is_compressed(),
        ) {
            (Some(df), true) if !df.is_compressed() => [
                size[0].saturating_add(3) / 4,
                size[1].saturating_add(3) / 4,
                size[2],
            ],
            (Some(df), false) if df.is_compressed() => [
                size[0].saturating_mul(4),
                size[1].saturating_mul(4),
                size[2],
            ],
            _ => size,
        };
        let dst_box = self.copy_image_end(dst, dst_target, dst_level, dst_offset, dst_size)?;
        let (sf, df) = (src_box.format, dst_box.format);
        let compatible = sf == df
            || (!sf.is_depth() && !df.is_depth() && sf.bytes_per_texel() == df.bytes_per_texel());
        if !compatible {
            return Err(Error::invalid_operation(format!(
                "copy_image_sub_data from {} to {}: the formats are not compatible",
                sf.name(),
                df.name()
            )));
        }
        if src_box.samples != dst_box.samples {
            return Err(Error::invalid_operation(format!(
                "copy_image_sub_data from {} samples to {}",
                src_box.samples, dst_box.samples
            )));
        }
        if src_box.size.contains(&0) {
            return Ok(());
        }
        let bytes = box_bytes(self.end_image(src, src_target)?, &src_box)?;
        let (at, n) = (dst_box.offset, dst_box.size);
        if dst_target == gl::RENDERBUFFER {
            self.fbos.flush_renderbuffer(dst);
            let rb = self
                .fbos
                .renderbuffers
                .get_mut(&dst)
                .ok_or_else(|| Error::invalid_value(format!("{dst} is not a renderbuffer")))?;
            // Stored as asked (the same check as the source's).
            rb.raw_image(dst)?;
            if let Some(img) = rb.image.as_mut() {
                img.write_bytes(0, at, n, &bytes).map_err(from_tex)?;
            }
            // Framebuffers holding the old contents reload them.
            rb.version += 1;
        } else {
            let o = self
                .textures
                .objects
                .get_mut(&dst)
                .ok_or_else(|| Error::invalid_value(format!("{dst} is not a texture")))?;
            let img = o
                .image
                .as_mut()
                .ok_or_else(|| Error::invalid_value(format!("texture {dst} has no image")))?;
            Arc::make_mut(img)
                .write_bytes(dst_level, at, n, &bytes)
                .map_err(from_tex)?;
        }
        self.refresh_bound_fbos();
        Ok(())
    }

    /// The format of one end's image, if the name has one (no checks: see
    /// `copy_image_end`).
    fn end_format(&self, name: u32, target: u32) -> Option<Format> {
        match target {
            gl::RENDERBUFFER => self.fbos.renderbuffers.get(&name)?.requested,
            _ => Some(self.textures.objects.get(&name)?.image.as_deref()?.format()),
        }
    }

    /// The image of one end (a renderbuffer's after its pending writes are stored).
    fn end_image(&mut self, name: u32, target: u32) -> Result<&glemu_textures::Texture> {
        if target == gl::RENDERBUFFER {
            self.fbos.flush_renderbuffer(name);
            let rb = self
                .fbos
                .renderbuffers
                .get(&name)
                .ok_or_else(|| Error::invalid_value(format!("{name} is not a renderbuffer")))?;
            return rb.raw_image(name);
        }
        self.textures
            .objects
            .get(&name)
            .and_then(|o| o.image.as_deref())
            .ok_or_else(|| Error::invalid_value(format!("texture {name} has no image")))
    }

    /// Checks one end of a `copy_image_sub_data` and says where its box lies.
    fn copy_image_end(
        &self,
        name: u32,
        target: u32,
        level: u32,
        offset: [i32; 3],
        size: [i32; 3],
    ) -> Result<CopyBox> {
        if target == gl::RENDERBUFFER {
            return self.renderbuffer_end(name, level, offset, size);
        }
        let (t, face) = target_of(target)?;
        if face.is_some() || t == Target::Buffer {
            return Err(Error::invalid_enum("glCopyImageSubData target", target));
        }
        let o = self
            .textures
            .objects
            .get(&name)
            .filter(|_| name != 0)
            .ok_or_else(|| Error::invalid_value(format!("{name} is not a texture object")))?;
        if o.target.is_some_and(|ot| ot != t) {
            return Err(Error::invalid_enum(
                &format!("glCopyImageSubData target of texture {name}"),
                target,
            ));
        }
        let img = o
            .image
            .as_deref()
            .filter(|_| o.target.is_some())
            .ok_or_else(|| Error::invalid_value(format!("texture {name} has no image")))?;
        let faces = if t == Target::Cube { 6 } else { 1 };
        let lv = img
            .level(level)
            .filter(|_| (0..faces).all(|f| o.is_defined(f, level)))
            .ok_or_else(|| {
                Error::invalid_value(format!("level {level} of texture {name} is not defined"))
            })?;
        // Base-level completeness, as drivers ask it of copies: the filter does not
        // matter, only that the base level is there (on every face).
        let mut base = o.sampler.clone();
        base.min_filter.filter = Filter::Nearest;
        base.min_filter.mipmap = None;
        base.mag_filter = Filter::Nearest;
        if !o.is_complete(&base) {
            return Err(Error::invalid_operation(format!(
                "texture {name} is incomplete (its base level is not defined on every face)"
            )));
        }
        let offset = unsigned("copy offset", offset)?;
        let size = unsigned("copy size", size)?;
        let dims = match t {
            Target::Cube => [lv.width, lv.height, 6],
            _ => storage_dims(lv, t),
        };
        if (0..3).any(|i| u64::from(offset[i]) + u64::from(size[i]) > u64::from(dims[i])) {
            return Err(Error::invalid_value(format!(
                "box at {offset:?} of size {size:?} is outside level {level} of texture {name} ({dims:?})"
            )));
        }
        let fmt = img.format();
        if fmt.is_compressed() {
            let edge = |i: usize| offset[i] + size[i] == dims[i];
            let aligned = |i: usize| offset[i] % 4 == 0 && (size[i] % 4 == 0 || edge(i));
            if !aligned(0) || !aligned(1) {
                return Err(Error::invalid_value(format!(
                    "compressed box at {offset:?} of size {size:?} is not on 4x4 block edges"
                )));
            }
        }
        let (offset, size) = match t {
            Target::Array1D => ([offset[0], 0, offset[1]], [size[0], 1, size[1]]),
            _ => (offset, size),
        };
        Ok(CopyBox {
            format: fmt,
            samples: img.samples(),
            level,
            offset,
            size,
        })
    }

    /// Checks a renderbuffer end of a `copy_image_sub_data` (level 0, a box inside it).
    fn renderbuffer_end(
        &self,
        name: u32,
        level: u32,
        offset: [i32; 3],
        size: [i32; 3],
    ) -> Result<CopyBox> {
        let rb = self
            .fbos
            .renderbuffers
            .get(&name)
            .filter(|_| name != 0)
            .ok_or_else(|| Error::invalid_value(format!("{name} is not a renderbuffer")))?;
        let img = rb
            .image
            .as_ref()
            .ok_or_else(|| Error::invalid_value(format!("renderbuffer {name} has no storage")))?;
        if level != 0 {
            return Err(Error::invalid_value(format!(
                "level {level} of renderbuffer {name} (a renderbuffer has level 0 only)"
            )));
        }
        let offset = unsigned("copy offset", offset)?;
        let size = unsigned("copy size", size)?;
        let dims = img
            .level(0)
            .map_or([0; 3], |l| [l.width, l.height, l.depth]);
        if (0..3).any(|i| u64::from(offset[i]) + u64::from(size[i]) > u64::from(dims[i])) {
            return Err(Error::invalid_value(format!(
                "box at {offset:?} of size {size:?} is outside renderbuffer {name} ({dims:?})"
            )));
        }
        Ok(CopyBox {
            format: rb.requested.unwrap_or(img.format()),
            samples: img.samples(),
            level: 0,
            offset,
            size,
        })
    }
}

/// The stored bytes of a box of `img`, rows tightly packed (in 4x4 blocks for
/// compressed formats), as `Texture::write_bytes` takes them.
fn box_bytes(img: &glemu_textures::Texture, b: &CopyBox) -> Result<Vec<u8>> {
    let lv = img
        .level(b.level)
        .ok_or_else(|| Error::invalid_value(format!("level {} does not exist", b.level)))?;
    let bpt = b.format.bytes_per_texel();
    let samples = b.samples.max(1) as usize;
    // Compressed levels are addressed in blocks of 4x4 texels.
    let (unit, lw, lh) = match b.format.is_compressed() {
        true => (4, lv.width.div_ceil(4), lv.height.div_ceil(4)),
        false => (1, lv.width, lv.height),
    };
    let [x0, y0, z0] = b.offset.map(|v| (v / unit) as usize);
    let (w, h) = (
        b.size[0].div_ceil(unit) as usize,
        b.size[1].div_ceil(unit) as usize,
    );
    let row = w * bpt * samples;
    let mut out = Vec::new();
    let n = row * h * b.size[2] as usize;
    out.try_reserve_exact(n)
        .map_err(|_| Error::out_of_memory(format!("{n} bytes of a copy_image_sub_data box")))?;
    for z in 0..b.size[2] as usize {
        for y in 0..h {
            let first = (((z0 + z) * lh as usize + y0 + y) * lw as usize + x0) * samples * bpt;
            let src = lv
                .bytes()
                .get(first..first + row)
                .ok_or_else(|| Error::invalid_value("copy_image_sub_data box outside the level"))?;
            out.extend_from_slice(src);
        }
    }
    Ok(out)
}

/// One end of a `copy_image_sub_data`, in glemu-textures' layout.
struct CopyBox {
    format: Format,
    samples: u32,
    level: u32,
    offset: [u32; 3],
    size: [u32; 3],
}

#[cfg(test)]
mod tests {
    use crate::{gl, Context, GlError};

    fn texture(ctx: &mut Context, fmt: u32, w: i32, h: i32) -> u32 {
        let t = ctx.create_texture(gl::TEXTURE_2D).unwrap();
        ctx.bind_texture(gl::TEXTURE_2D, t).unwrap();
        ctx.tex_storage_2d(gl::TEXTURE_2D, 1, fmt, w, h).unwrap();
        t
    }

    /// What a texture or renderbuffer holds at (x, y), read through a framebuffer.
    fn read(ctx: &mut Context, target: u32, name: u32, x: i32, y: i32) -> Vec<u8> {
        let f = ctx.gen_framebuffers(1).unwrap()[0];
        ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
        let a = gl::COLOR_ATTACHMENT0;
        match target {
            gl::RENDERBUFFER => ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, a, target, name),
            _ => ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, a, target, name, 0),
        }
        .unwrap();
        let px = ctx
            .read_pixels(x, y, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE)
            .unwrap();
        ctx.bind_framebuffer(gl::FRAMEBUFFER, 0).unwrap();
        px
    }

    #[test]
    fn renderbuffers_copy_both_ways() {
        let mut ctx = Context::new(4, 4).unwrap();
        let rb = ctx.gen_renderbuffers(1).unwrap()[0];
        ctx.bind_renderbuffer(gl::RENDERBUFFER, rb).unwrap();
        ctx.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, 4, 4)
            .unwrap();
        // A clear the renderbuffer's framebuffer still holds (stored lazily).
        let f = ctx.gen_framebuffers(1).unwrap()[0];
        ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
        let a = gl::COLOR_ATTACHMENT0;
        ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, a, gl::RENDERBUFFER, rb)
            .unwrap();
        ctx.clear_color([1.0, 0.0, 0.0, 1.0]).unwrap();
        ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
        ctx.bind_framebuffer(gl::FRAMEBUFFER, 0).unwrap();
        let t = texture(&mut ctx, gl::RGBA8, 4, 4);
        let (r, t2) = (gl::RENDERBUFFER, gl::TEXTURE_2D);
        ctx.copy_image_sub_data(rb, r, 0, [0; 3], t, t2, 0, [0; 3], [4, 4, 1])
            .unwrap();
        assert_eq!(read(&mut ctx, t2, t, 3, 3), [255, 0, 0, 255]);
        // Back: a green texel into the renderbuffer, which its framebuffer then shows.
        let g = texture(&mut ctx, gl::RGBA8, 1, 1);
        let (rgba, ub) = (gl::RGBA, gl::UNSIGNED_BYTE);
        ctx.tex_sub_image(t2, 0, [0; 3], [1, 1, 1], rgba, ub, &[0, 255, 0, 255])
            .unwrap();
        ctx.copy_image_sub_data(g, t2, 0, [0; 3], rb, r, 0, [2, 1, 0], [1, 1, 1])
            .unwrap();
        assert_eq!(read(&mut ctx, r, rb, 2, 1), [0, 255, 0, 255]);
        assert_eq!(read(&mut ctx, r, rb, 1, 1), [255, 0, 0, 255]);
        // Level 1 of a renderbuffer, a box past its edge.
        let e = ctx.copy_image_sub_data(rb, r, 1, [0; 3], t, t2, 0, [0; 3], [1, 1, 1]);
        assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
        let e = ctx.copy_image_sub_data(rb, r, 0, [3, 0, 0], t, t2, 0, [0; 3], [2, 1, 1]);
        assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
        // A renderbuffer kept wider than asked (DEPTH_COMPONENT24 with a stencil)
        // cannot be copied bit for bit.
        let narrow = ctx.gen_renderbuffers(1).unwrap()[0];
        ctx.bind_renderbuffer(gl::RENDERBUFFER, narrow).unwrap();
        let d24 = gl::DEPTH_COMPONENT24;
        ctx.renderbuffer_storage(gl::RENDERBUFFER, d24, 4, 4)
            .unwrap();
        let t = ctx.create_texture(gl::TEXTURE_2D).unwrap();
        ctx.bind_texture(gl::TEXTURE_2D, t).unwrap();
        ctx.tex_storage_2d(gl::TEXTURE_2D, 1, d24, 4, 4).unwrap();
        let e = ctx
            .copy_image_sub_data(narrow, r, 0, [0; 3], t, t2, 0, [0; 3], [1, 1, 1])
            .unwrap_err();
        assert!(e.message.contains("not supported"), "{e}");
    }

    const RGBA16UI: u32 = 0x8D76;

    /// A BC1 block (8 bytes) is one RGBA16UI texel and back (GL 4.6 section 18.3.3).
    #[test]
    fn compressed_blocks_copy_as_texels_of_their_size() {
        let mut ctx = Context::new(4, 4).unwrap();
        let t2 = gl::TEXTURE_2D;
        let fmt = gl::COMPRESSED_RGB_S3TC_DXT1_EXT;
        let bc1 = |ctx: &mut Context, blocks: &[u8]| {
            let t = ctx.create_texture(t2).unwrap();
            ctx.bind_texture(t2, t).unwrap();
            ctx.compressed_tex_image(t2, 0, fmt, [8, 4, 1], blocks)
                .unwrap();
            t
        };
        // Block 0 pure red (RGB565 0xF800 twice), block 1 pure blue (0x001F twice).
        let a = bc1(
            &mut ctx,
            &[0, 0xF8, 0, 0xF8, 0, 0, 0, 0, 0x1F, 0, 0x1F, 0, 0, 0, 0, 0],
        );
        let words = |ctx: &mut Context, from: u32| {
            let w = texture(ctx, RGBA16UI, 2, 1);
            ctx.copy_image_sub_data(from, t2, 0, [0; 3], w, t2, 0, [0; 3], [8, 4, 1])
                .unwrap();
            let f = ctx.gen_framebuffers(1).unwrap()[0];
            ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
            let at = gl::COLOR_ATTACHMENT0;
            ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, at, t2, w, 0)
                .unwrap();
            let px = ctx
                .read_pixels(0, 0, 2, 1, gl::RGBA_INTEGER, gl::UNSIGNED_INT)
                .unwrap();
            ctx.bind_framebuffer(gl::FRAMEBUFFER, 0).unwrap();
            (w, bytemuck::pod_collect_to_vec::<u8, u32>(&px))
        };
        let (wa, got) = words(&mut ctx, a);
        assert_eq!(got, [0xF800, 0xF800, 0, 0, 0x1F, 0x1F, 0, 0]);
        // Back, swapped: texel 1 into block 0, texel 0 into block 1 (4x4 texels each).
        let b = bc1(&mut ctx, &[0; 16]);
        ctx.copy_image_sub_data(wa, t2, 0, [1, 0, 0], b, t2, 0, [0; 3], [1, 1, 1])
            .unwrap();
        ctx.copy_image_sub_data(wa, t2, 0, [0; 3], b, t2, 0, [4, 0, 0], [1, 1, 1])
            .unwrap();
        assert_eq!(
            words(&mut ctx, b).1,
            [0x1F, 0x1F, 0, 0, 0xF800, 0xF800, 0, 0]
        );
        // A block and a texel of another size do not match.
        let r32 = texture(&mut ctx, gl::R32UI, 2, 1);
        let e = ctx.copy_image_sub_data(a, t2, 0, [0; 3], r32, t2, 0, [0; 3], [4, 4, 1]);
        assert_eq!(e.unwrap_err().gl, GlError::InvalidOperation);
    }
}
