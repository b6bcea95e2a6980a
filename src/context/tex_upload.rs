//! Updating texture images after definition: `glTexSubImage*`, compressed images
//! (`glCompressedTexImage*`/`SubImage*`, S3TC/BC1-3) and the unpack pixel-store state.

use super::gl_enum::{pixel_format, pixel_type};
use super::textures::{from_tex, from_unpack, storage_dims, target_of, MAX_TEXTURE_SIZE};
use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_textures::upload::Pixels;
use glemu_textures::{Format, Target};
use std::sync::Arc;

/// A GL box (offset, size in GL terms) in glemu-textures' layout: 1D-array layers are
/// the second GL coordinate but the third physical one; a cube face is z.
pub(super) fn physical(
    t: Target,
    face: Option<u32>,
    offset: [u32; 3],
    size: [u32; 3],
) -> ([u32; 3], [u32; 3]) {
    match (t, face) {
        (Target::Array1D, _) => ([offset[0], 0, offset[1]], [size[0], 1, size[1]]),
        (_, Some(f)) => ([offset[0], offset[1], f], [size[0], size[1], 1]),
        _ => (offset, size),
    }
}

/// A checked sub-image box: the texture's format, then offset and size in
/// glemu-textures' layout.
pub(super) type SubBox = (Format, [u32; 3], [u32; 3]);

/// # Chapter 8.4–8.7 — Pixel storage, sub-images, compressed images
///
/// `pixel_store_i`, `tex_sub_image`, `compressed_tex_image`.
impl Context {
    /// `glPixelStorei` for the row alignments (1, 2, 4 or 8; initially 4):
    /// `UNPACK_ALIGNMENT` pads each client row of `tex_image`/`tex_sub_image` data,
    /// `PACK_ALIGNMENT` each row `read_pixels` returns.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.pixel_store_i(gl::UNPACK_ALIGNMENT, 1).unwrap();
    /// assert_eq!(ctx.pixel_store_i(gl::UNPACK_ALIGNMENT, 3).unwrap_err().gl, GlError::InvalidValue);
    /// assert_eq!(ctx.pixel_store_i(gl::BLEND, 1).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn pixel_store_i(&mut self, pname: u32, value: i32) -> Result<()> {
        match pname {
            gl::UNPACK_ALIGNMENT | gl::PACK_ALIGNMENT => {
                if ![1, 2, 4, 8].contains(&value) {
                    return Err(Error::invalid_value(format!(
                        "alignment {value} is not 1, 2, 4 or 8"
                    )));
                }
                match pname {
                    gl::UNPACK_ALIGNMENT => self.textures.unpack_alignment = value as usize,
                    _ => self.textures.pack_alignment = value as usize,
                }
                Ok(())
            }
            p => Err(Error::invalid_enum("pixel store parameter", p)),
        }
    }

    /// `glTexSubImage1D/2D/3D`: replaces the box `offset`..`offset + size` (GL terms:
    /// x, y or 1D-array layer, z or layer) of level `level` of the bound texture with
    /// client pixels in `format`/`ty`. A box outside the level is `INVALID_VALUE`; a
    /// texture without that level is `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
    /// ctx.tex_image(gl::TEXTURE_2D, 0, gl::RGBA8, [4, 4, 1], gl::RGBA, gl::UNSIGNED_BYTE, None).unwrap();
    /// let green = [0u8, 255, 0, 255].repeat(2);
    /// ctx.tex_sub_image(gl::TEXTURE_2D, 0, [2, 3, 0], [2, 1, 1], gl::RGBA, gl::UNSIGNED_BYTE, &green).unwrap();
    /// let e = ctx.tex_sub_image(gl::TEXTURE_2D, 0, [3, 3, 0], [2, 1, 1], gl::RGBA, gl::UNSIGNED_BYTE, &green);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn tex_sub_image(
        &mut self,
        target: u32,
        level: u32,
        offset: [u32; 3],
        size: [u32; 3],
        format: u32,
        ty: u32,
        data: &[u8],
    ) -> Result<()> {
        let px = Pixels {
            format: pixel_format(format)?,
            ty: pixel_type(ty)?,
            data,
            alignment: self.textures.unpack_alignment,
        };
        let Some((fmt, poff, psize)) = self.sub_image_box(target, level, offset, size)? else {
            return Ok(());
        };
        glemu_textures::upload::check(&px, size[0], size[1], size[2], fmt).map_err(from_unpack)?;
        self.bound_image_mut(target)?
            .upload(level, poff, psize, &px)
            .map_err(from_unpack)?;
        self.refresh_bound_fbos();
        Ok(())
    }

    /// Checks a sub-image box (GL terms) of level `level` of the texture bound to
    /// `target`: the level must be defined and hold the box. Returns the texture's
    /// format and the box in glemu-textures' layout, or `None` for an empty box.
    pub(super) fn sub_image_box(
        &mut self,
        target: u32,
        level: u32,
        offset: [u32; 3],
        size: [u32; 3],
    ) -> Result<Option<SubBox>> {
        let (o, t, face) = self.bound_texture_mut(target)?;
        let defined = o.is_defined(face.unwrap_or(0), level);
        let img = o
            .image
            .as_ref()
            .ok_or_else(|| Error::invalid_operation("the texture has no image to update"))?;
        let fmt = img.format();
        if fmt.is_compressed() {
            return Err(Error::invalid_operation(
                "a compressed texture takes compressed_tex_sub_image",
            ));
        }
        let (poff, psize) = physical(t, face, offset, size);
        check_box(
            img.level(level)
                .filter(|_| defined)
                .map(|l| storage_dims(l, t)),
            level,
            poff,
            psize,
            face,
        )?;
        Ok((!psize.contains(&0)).then_some((fmt, poff, psize)))
    }

    /// Writes canonical texels over a box [`Context::sub_image_box`] checked.
    pub(super) fn write_sub_texels(
        &mut self,
        target: u32,
        level: u32,
        poff: [u32; 3],
        psize: [u32; 3],
        texels: &[[u32; 4]],
    ) -> Result<()> {
        self.bound_image_mut(target)?
            .write_texels(level, poff, psize, texels)
            .map_err(from_tex)?;
        self.refresh_bound_fbos();
        Ok(())
    }

    /// The image of the texture bound to `target`, to be written (copied first if a
    /// draw still shares it).
    fn bound_image_mut(&mut self, target: u32) -> Result<&mut glemu_textures::Texture> {
        let (o, _, _) = self.bound_texture_mut(target)?;
        let img = o
            .image
            .as_mut()
            .ok_or_else(|| Error::invalid_operation("the texture has no image to update"))?;
        Ok(Arc::make_mut(img))
    }

    /// `glCompressedTexImage2D/3D`: defines level `level` of the bound texture from
    /// S3TC blocks (`COMPRESSED_RGB(A)_S3TC_DXT1/3/5_EXT`, and the sRGB ones
    /// `COMPRESSED_SRGB(_ALPHA)_S3TC_DXT1/3/5_EXT` whose colour is sRGB-decoded when
    /// sampled): 8 or 16 bytes per 4×4 block, rows of blocks bottom first. `data` shorter
    /// than the image is `INVALID_VALUE`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
    /// // One DXT1 block: colour0 = colour1 = pure red (RGB565 0xF800), all indices 0.
    /// let block = [0x00, 0xF8, 0x00, 0xF8, 0, 0, 0, 0];
    /// ctx.compressed_tex_image(gl::TEXTURE_2D, 0, gl::COMPRESSED_RGB_S3TC_DXT1_EXT, [4, 4, 1], &block).unwrap();
    /// assert!(ctx.compressed_tex_image(gl::TEXTURE_2D, 0, gl::COMPRESSED_RGB_S3TC_DXT1_EXT, [8, 8, 1], &block).is_err());
    /// ctx.compressed_tex_image(gl::TEXTURE_2D, 0, gl::COMPRESSED_SRGB_S3TC_DXT1_EXT, [4, 4, 1], &block).unwrap();
    /// ```
    pub fn compressed_tex_image(
        &mut self,
        target: u32,
        level: u32,
        internal_format: u32,
        size: [u32; 3],
        data: &[u8],
    ) -> Result<()> {
        let fmt = compressed_format(internal_format)?;
        let (t, _) = target_of(target)?;
        if !matches!(
            t,
            Target::T2D | Target::Cube | Target::Array2D | Target::ArrayCube
        ) {
            return Err(Error::invalid_enum("compressed texture target", target));
        }
        if size.contains(&0) || size.iter().any(|&s| s > MAX_TEXTURE_SIZE) {
            return Err(Error::invalid_value(format!(
                "texture size {size:?}: each side must be 1..={MAX_TEXTURE_SIZE}"
            )));
        }
        check_compressed_len(fmt, size, data)?;
        let (img, store, z) = self.define_level(target, level, fmt, size)?;
        img.write_bytes(level, [0, 0, z], store, data)
            .map_err(|e| Error::invalid_value(e.to_string()))
    }

    /// `glCompressedTexSubImage2D/3D`: replaces a block-aligned box of a compressed
    /// level (offsets multiples of 4; sizes too, except where the box reaches the level's
    /// edge). The format must be the texture's.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
    /// let f = gl::COMPRESSED_RGB_S3TC_DXT1_EXT;
    /// ctx.compressed_tex_image(gl::TEXTURE_2D, 0, f, [8, 8, 1], &[0; 32]).unwrap();
    /// ctx.compressed_tex_sub_image(gl::TEXTURE_2D, 0, [4, 4, 0], [4, 4, 1], f, &[0xFF; 8]).unwrap();
    /// let e = ctx.compressed_tex_sub_image(gl::TEXTURE_2D, 0, [2, 0, 0], [4, 4, 1], f, &[0; 8]);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn compressed_tex_sub_image(
        &mut self,
        target: u32,
        level: u32,
        offset: [u32; 3],
        size: [u32; 3],
        internal_format: u32,
        data: &[u8],
    ) -> Result<()> {
        let fmt = compressed_format(internal_format)?;
        let (o, t, face) = self.bound_texture_mut(target)?;
        let defined = o.is_defined(face.unwrap_or(0), level);
        let img = o
            .image
            .as_mut()
            .ok_or_else(|| Error::invalid_operation("the texture has no image to update"))?;
        if img.format() != fmt {
            return Err(Error::invalid_operation(format!(
                "the texture is {}, not {}",
                img.format().name(),
                fmt.name()
            )));
        }
        let (poff, psize) = physical(t, face, offset, size);
        let dims = img
            .level(level)
            .filter(|_| defined)
            .map(|l| storage_dims(l, t));
        check_box(dims, level, poff, psize, face)?;
        let full = dims.unwrap_or([0; 3]);
        let aligned =
            |o: u32, s: u32, f: u32| o.is_multiple_of(4) && (s.is_multiple_of(4) || o + s == f);
        if !aligned(poff[0], psize[0], full[0]) || !aligned(poff[1], psize[1], full[1]) {
            return Err(Error::invalid_operation(
                "compressed sub-image boxes must be aligned to 4x4 blocks",
            ));
        }
        check_compressed_len(fmt, psize, data)?;
        Arc::make_mut(img)
            .write_bytes(level, poff, psize, data)
            .map_err(|e| Error::invalid_value(e.to_string()))
    }
}

/// The internal format of a compressed-image call: one glemu can decode.
fn compressed_format(internal_format: u32) -> Result<Format> {
    match Format::from_gl(internal_format) {
        Some(f) if f.is_compressed() => Ok(f),
        Some(f) => Err(Error::invalid_enum(
            &format!(
                "compressed internal format ({} is not compressed)",
                f.name()
            ),
            internal_format,
        )),
        None => Err(Error::invalid_enum(
            "compressed internal format",
            internal_format,
        )),
    }
}

/// `imageSize` must cover the blocks of `size`.
fn check_compressed_len(fmt: Format, size: [u32; 3], data: &[u8]) -> Result<()> {
    let blocks = size[0].div_ceil(4) as usize * size[1].div_ceil(4) as usize * size[2] as usize;
    let need = blocks * fmt.bytes_per_texel();
    if data.len() < need {
        return Err(Error::invalid_value(format!(
            "{} bytes of compressed data, {need} needed",
            data.len()
        )));
    }
    Ok(())
}

/// A sub-image box must lie inside an existing level.
fn check_box(
    dims: Option<[u32; 3]>,
    level: u32,
    offset: [u32; 3],
    size: [u32; 3],
    face: Option<u32>,
) -> Result<()> {
    let dims = dims.ok_or_else(|| {
        Error::invalid_operation(format!("level {level} of the texture is not defined"))
    })?;
    // A cube face is one slice of the level (z = face), whatever `dims` says.
    let limit = match face {
        Some(_) => [dims[0], dims[1], 6],
        None => dims,
    };
    if (0..3).any(|i| u64::from(offset[i]) + u64::from(size[i]) > u64::from(limit[i])) {
        return Err(Error::invalid_value(format!(
            "box at {offset:?} of size {size:?} is outside level {level} ({dims:?})"
        )));
    }
    Ok(())
}
