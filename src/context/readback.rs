//! Reading the framebuffer back (`glReadPixels`, GL 4.6 §18.2): colour, depth and stencil
//! in any client format/type pair, rows padded to `PACK_ALIGNMENT`, with GL's conversion
//! rules; plus the whole read buffer as an `image::RgbaImage` and as a PNG file.
//!
//! Reads see what the buffer stores: an RGBA32F target returns its floats unclamped, an
//! R32UI one its integers; only fixed-point buffers hold values in [0, 1]. RGBA8 reads of
//! RGBA8 buffers copy stored bytes (no float round trip) on the rasterizer's threads.

use super::fbo_state::Attachment;
use super::framebuffer::from_raster;
use super::gl_enum::{pixel_format, pixel_type};
use super::Context;
use crate::error::{Error, GlError, Result};
use crate::gl;
use glemu_raster::{color, ColorFormat, Framebuffer};
use glemu_textures::download::{self, PackError, ReadColor, Reads};
use glemu_textures::upload::{PixelFormat, PixelType};
use glemu_textures::Base;
use half::f16;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Why [`Context::save_png`] failed: the read itself, or writing the file.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The read buffer could not be read as RGBA8 (a GL error).
    #[error(transparent)]
    Read(#[from] Error),
    /// Encoding or writing the file failed.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file being written.
        path: PathBuf,
        /// What went wrong.
        source: image::ImageError,
    },
}

fn from_pack(e: PackError) -> Error {
    match e {
        PackError::Enum(m) => Error::new(GlError::InvalidEnum, m),
        PackError::Operation(m) => Error::invalid_operation(m),
    }
}

/// What a read takes from the read framebuffer, fixed once per call.
#[derive(Copy, Clone, Debug)]
enum Source {
    /// Colour plane `rt` of `format`, holding the components of `base`.
    Color {
        rt: usize,
        format: ColorFormat,
        base: Base,
    },
    /// The depth and/or stencil buffer.
    DepthStencil,
}

/// The colours a read of pixels (x, y) .. (x + w, y) of plane `rt` sees: resolved values
/// rounded to the buffer's precision (a multisampled buffer resolves into a
/// single-sampled one of its format), missing components of the attached image's base
/// format as 0 and 1.
fn row_colors(
    fb: &Framebuffer,
    (rt, format, base): (usize, ColorFormat, Base),
    x: u32,
    y: u32,
    w: u32,
) -> Vec<ReadColor> {
    let keep = |c: [u32; 4], one: u32| match base {
        Base::Rgba => c,
        _ => base.expand(base.select(c), one),
    };
    let n = w as usize;
    if format.is_integer() {
        let mut raw = vec![[0u32; 4]; n];
        fb.read_row_raw(rt, x, y, &mut raw);
        return raw
            .into_iter()
            .map(|v| match format {
                ColorFormat::Rgba32Ui => ReadColor::Uint(keep(v, 1)),
                _ => ReadColor::Sint(keep(v, 1).map(|c| c as i32)),
            })
            .collect();
    }
    let mut row = vec![[0.0f32; 4]; n];
    fb.read_row(rt, x, y, &mut row);
    let multisampled = fb.samples() > 1;
    row.into_iter()
        .map(|v| {
            let stored = match format {
                ColorFormat::Rgba8Unorm | ColorFormat::Srgb8Alpha8 if multisampled => {
                    v.map(|c| color::unorm8(c) as f32 / 255.0)
                }
                ColorFormat::Rgba16F if multisampled => v.map(|c| f16::from_f32(c).to_f32()),
                _ => v,
            };
            let bits = keep(stored.map(f32::to_bits), 1.0f32.to_bits());
            ReadColor::Float(bits.map(f32::from_bits))
        })
        .collect()
}

/// A read rectangle cut to the framebuffer: the first pixel read, the first output row
/// and group it lands in, and how many pixels in each direction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Clip {
    x: u32,
    y: u32,
    skip_cols: usize,
    skip_rows: usize,
    w: u32,
    h: u32,
}

/// `x, y, w, h` intersected with `[0, fw) × [0, fh)`; `None` when nothing is inside.
fn clip(x: i32, y: i32, w: i32, h: i32, fw: u32, fh: u32) -> Option<Clip> {
    let span = |p: i32, n: i32, max: u32| {
        let (lo, hi) = (
            i64::from(p).max(0),
            (i64::from(p) + i64::from(n)).min(max.into()),
        );
        (hi > lo).then(|| (lo as u32, (lo - i64::from(p)) as usize, (hi - lo) as u32))
    };
    let (cx, skip_cols, cw) = span(x, w, fw)?;
    let (cy, skip_rows, ch) = span(y, h, fh)?;
    Some(Clip {
        x: cx,
        y: cy,
        skip_cols,
        skip_rows,
        w: cw,
        h: ch,
    })
}

/// # Chapter 18.2 — Reading pixels
///
/// `read_pixels` with GL's format/type, `read_image`, `save_png`.
impl Context {
    /// `glPixelStorei(PACK_ALIGNMENT)` as set (1, 2, 4 or 8; initially 4).
    pub(crate) fn pack_alignment(&self) -> usize {
        self.textures.pack_alignment
    }

    /// The base format of the image the read buffer reads: what an attached texture
    /// stores (an R32UI texture reads as (R, 0, 0, 1)); RGBA for renderbuffers and the
    /// default framebuffer.
    fn read_base(&self) -> Base {
        let Some(fbo) = self
            .fbos
            .objects
            .get(&self.fbos.read)
            .filter(|_| self.fbos.read != 0)
        else {
            return Base::Rgba;
        };
        let buf = self.buffers(self.fbos.read).read;
        let k = buf.wrapping_sub(gl::COLOR_ATTACHMENT0) as usize;
        match fbo.color.get(k).copied().flatten() {
            Some(Attachment::Texture(t)) => self
                .textures
                .objects
                .get(&t.id)
                .and_then(|o| o.image.as_ref())
                .map_or(Base::Rgba, |img| img.format().base()),
            _ => Base::Rgba,
        }
    }

    /// Checks a read of `format`/`ty` against the read framebuffer (GL 4.6 §18.2.2) and
    /// says where its values come from.
    fn read_source(&self, format: PixelFormat, ty: PixelType) -> Result<Source> {
        let fb = self.read_target()?;
        if self.fbos.read != 0 && fb.samples() > 1 {
            return Err(Error::invalid_operation(
                "the read framebuffer is multisampled: resolve it with blit_framebuffer first",
            ));
        }
        download::check_pair(format, ty).map_err(from_pack)?;
        let fbo = self
            .fbos
            .objects
            .get(&self.fbos.read)
            .filter(|_| self.fbos.read != 0);
        let reads = format.reads();
        match reads {
            Reads::Color | Reads::IntegerColor => {
                let rt = self.read_plane()?;
                let cf = fb
                    .color_format(rt)
                    .ok_or_else(|| Error::invalid_operation("the read buffer has no image"))?;
                let integer = reads == Reads::IntegerColor;
                if integer != cf.is_integer() {
                    return Err(Error::invalid_operation(format!(
                        "{format:?} reads of a {} colour buffer ({cf:?}): integer buffers \
                         take the _INTEGER formats and only they",
                        if cf.is_integer() {
                            "integer"
                        } else {
                            "non-integer"
                        }
                    )));
                }
                Ok(Source::Color {
                    rt,
                    format: cf,
                    base: self.read_base(),
                })
            }
            Reads::Depth | Reads::Stencil | Reads::DepthStencil => {
                let depth = fbo.is_none_or(|f| f.depth.is_some());
                let stencil = fbo.is_none_or(|f| f.stencil.is_some());
                let (need_depth, need_stencil) = match reads {
                    Reads::Depth => (true, false),
                    Reads::Stencil => (false, true),
                    _ => (true, true),
                };
                if (need_depth && !depth) || (need_stencil && !stencil) {
                    return Err(Error::invalid_operation(format!(
                        "{format:?} read: the read framebuffer has no {} buffer",
                        if need_depth && !depth {
                            "depth"
                        } else {
                            "stencil"
                        }
                    )));
                }
                Ok(Source::DepthStencil)
            }
        }
    }

    /// `glReadPixels(x, y, w, h, format, type)`: the rectangle of the read framebuffer as
    /// client pixels, rows bottom-up, each row padded to `PACK_ALIGNMENT`
    /// ([`Context::pixel_store_i`]); the returned bytes hold `h` padded rows. Formats:
    /// `RED`, `GREEN`, `BLUE`, `ALPHA`, `RG`, `RGB`, `BGR`, `RGBA`, `BGRA`, `LUMINANCE`,
    /// `LUMINANCE_ALPHA`, the `_INTEGER` forms, `DEPTH_COMPONENT`, `STENCIL_INDEX`,
    /// `DEPTH_STENCIL`; every GL type including the packed ones. Values convert as GL
    /// says: float buffers keep their values for `FLOAT`, fixed-point ones read `n/255`,
    /// normalized types clamp and round, integers clamp to the type. Pixels outside the
    /// framebuffer are left zero (GL leaves them undefined).
    ///
    /// Errors: an unknown format or type is `INVALID_ENUM`, a negative size
    /// `INVALID_VALUE`; an integer format of a non-integer buffer (or the reverse), a
    /// packed type that does not fit the format, a `NONE` read buffer, a missing depth or
    /// stencil buffer or a multisampled framebuffer object is `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.clear_color([1.0, 0.5, 0.0, 1.0]).unwrap();
    /// ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    /// let px = ctx.read_pixels(1, 1, 2, 1, gl::RGBA, gl::UNSIGNED_BYTE).unwrap();
    /// assert_eq!(px, [255, 128, 0, 255, 255, 128, 0, 255]);
    /// // RGB rows of 3 pixels are padded from 9 to 12 bytes (PACK_ALIGNMENT 4).
    /// assert_eq!(ctx.read_pixels(0, 0, 3, 2, gl::RGB, gl::UNSIGNED_BYTE).unwrap().len(), 24);
    /// let e = ctx.read_pixels(0, 0, 1, 1, gl::RGBA_INTEGER, gl::UNSIGNED_INT).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // an RGBA8 buffer is not integer
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn read_pixels(
        &self,
        x: i32,
        y: i32,
        w: i32,
        h: i32,
        format: u32,
        ty: u32,
    ) -> Result<Vec<u8>> {
        let (pf, pt) = (pixel_format(format)?, pixel_type(ty)?);
        if w < 0 || h < 0 {
            return Err(Error::invalid_value(format!(
                "read_pixels size {w}x{h} is negative"
            )));
        }
        let source = self.read_source(pf, pt)?;
        let stride = download::row_bytes(pf, pt, w as usize, self.pack_alignment());
        let total = stride
            .checked_mul(h as usize)
            .filter(|&n| n <= isize::MAX as usize)
            .ok_or_else(|| Error::out_of_memory(format!("a {w}x{h} read")))?;
        let mut out = Vec::new();
        out.try_reserve_exact(total)
            .map_err(|_| Error::out_of_memory(format!("{total} bytes for a {w}x{h} read")))?;
        out.resize(total, 0);
        let fb = self.read_target()?;
        if let Some(c) = clip(x, y, w, h, fb.width(), fb.height()) {
            self.pack_rows(fb, source, pf, pt, c, stride, false, &mut out)?;
        }
        Ok(out)
    }

    /// [`Context::read_pixels`] with the bytes reinterpreted as `T` (`f32`, `u32`, `[f32;
    /// 4]`, `[u8; 4]`, ...), for reads whose rows need no padding between elements of `T`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(2, 2).unwrap();
    /// ctx.clear_color([0.0, 1.0, 0.0, 1.0]).unwrap();
    /// ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    /// let px: Vec<[f32; 4]> = ctx.read_pixels_as(0, 0, 2, 2, gl::RGBA, gl::FLOAT).unwrap();
    /// assert_eq!(px, vec![[0.0, 1.0, 0.0, 1.0]; 4]);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn read_pixels_as<T: bytemuck::Pod>(
        &self,
        x: i32,
        y: i32,
        w: i32,
        h: i32,
        format: u32,
        ty: u32,
    ) -> Result<Vec<T>> {
        let bytes = self.read_pixels(x, y, w, h, format, ty)?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
    }

    /// One pixel of the read buffer as `RGBA`/`FLOAT` (GL's values: `n/255` for RGBA8
    /// buffers, stored floats for float buffers). (0, 0) is the bottom-left pixel; a pixel
    /// outside is `INVALID_VALUE`, an integer buffer `INVALID_OPERATION`.
    ///
    /// ```
    /// let ctx = glemu::Context::new(2, 2).unwrap();
    /// assert_eq!(ctx.read_pixel(1, 1).unwrap(), [0.0, 0.0, 0.0, 0.0]);
    /// assert!(ctx.read_pixel(2, 0).is_err());
    /// ```
    pub fn read_pixel(&self, x: i32, y: i32) -> Result<[f32; 4]> {
        self.check_xy(x, y)?;
        let px: Vec<[f32; 4]> = self.read_pixels_as(x, y, 1, 1, gl::RGBA, gl::FLOAT)?;
        px.first()
            .copied()
            .ok_or_else(|| Error::invalid_value("pixel outside the framebuffer"))
    }

    /// The whole read buffer as an RGBA8 image, top row first (as image files store it):
    /// what `read_pixels(.., RGBA, UNSIGNED_BYTE)` returns, flipped. RGBA8 buffers are
    /// copied byte for byte on the rasterizer's threads.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(3, 2).unwrap();
    /// ctx.clear_color([0.0, 0.0, 1.0, 1.0]).unwrap();
    /// ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    /// let img = ctx.read_image().unwrap();
    /// assert_eq!(img.dimensions(), (3, 2));
    /// assert_eq!(img.get_pixel(2, 0).0, [0, 0, 255, 255]);
    /// ```
    pub fn read_image(&self) -> Result<image::RgbaImage> {
        let (pf, pt) = (PixelFormat::Rgba, PixelType::UnsignedByte);
        let source = self.read_source(pf, pt)?;
        let fb = self.read_target()?;
        let (w, h) = (fb.width(), fb.height());
        let stride = w as usize * 4;
        let mut out = vec![0u8; stride * h as usize];
        if let Some(c) = clip(0, 0, w as i32, h as i32, w, h) {
            self.pack_rows(fb, source, pf, pt, c, stride, true, &mut out)?;
        }
        image::RgbaImage::from_raw(w, h, out)
            .ok_or_else(|| Error::invalid_operation("read image size mismatch"))
    }

    /// Writes the read buffer to a PNG file ([`Context::read_image`]).
    ///
    /// ```
    /// let ctx = glemu::Context::new(2, 2).unwrap();
    /// let path = std::env::temp_dir().join(format!("glemu-doc-{}.png", std::process::id()));
    /// ctx.save_png(&path).unwrap();
    /// assert_eq!(image::open(&path).unwrap().width(), 2);
    /// # std::fs::remove_file(&path).unwrap();
    /// assert!(ctx.save_png("/nonexistent/dir/x.png").is_err());
    /// ```
    pub fn save_png(&self, path: impl AsRef<Path>) -> std::result::Result<(), SaveError> {
        let path = path.as_ref();
        self.read_image()?
            .save_with_format(path, image::ImageFormat::Png)
            .map_err(|source| SaveError::Write {
                path: path.to_path_buf(),
                source,
            })
    }

    /// Converts the clipped rectangle `c` into `out` (rows of `stride` bytes, bottom-up or
    /// `top_down`), one row per task on the rasterizer's threads.
    #[allow(clippy::too_many_arguments)]
    fn pack_rows(
        &self,
        fb: &Framebuffer,
        source: Source,
        pf: PixelFormat,
        pt: PixelType,
        c: Clip,
        stride: usize,
        top_down: bool,
        out: &mut [u8],
    ) -> Result<()> {
        let group = download::row_bytes(pf, pt, 1, 1);
        let rows = out.len() / stride.max(1);
        // Output row index of read row j (0 = the bottom row read).
        let out_row = |j: usize| match top_down {
            true => rows - 1 - (c.skip_rows + j),
            false => c.skip_rows + j,
        };
        let first = c.skip_cols * group;
        if let (
            Source::Color {
                rt,
                base: Base::Rgba,
                format,
            },
            PixelFormat::Rgba,
            PixelType::UnsignedByte,
        ) = (source, pf, pt)
        {
            if format.is_unorm() {
                // Stored bytes as they are: no float round trip.
                let start = out_row(if top_down { c.h as usize - 1 } else { 0 }) * stride + first;
                let dst = out.get_mut(start..).unwrap_or(&mut []);
                return self
                    .rasterizer
                    .install(|| fb.read_rgba8(rt, (c.x, c.y, c.w, c.h), stride, top_down, dst))
                    .map_err(from_raster);
            }
        }
        let wanted = |r: usize| {
            let j = match top_down {
                true => rows - 1 - r,
                false => r,
            };
            j.checked_sub(c.skip_rows).filter(|&j| j < c.h as usize)
        };
        self.rasterizer.install(|| {
            out.par_chunks_mut(stride).enumerate().for_each(|(r, row)| {
                let Some(j) = wanted(r) else {
                    return;
                };
                let py = c.y + j as u32;
                let groups = row.get_mut(first..).unwrap_or(&mut []).chunks_mut(group);
                let groups = groups.take(c.w as usize);
                match source {
                    Source::Color { rt, format, base } => {
                        let colors = row_colors(fb, (rt, format, base), c.x, py, c.w);
                        for (g, v) in groups.zip(colors) {
                            download::pack_color(pf, pt, v, g);
                        }
                    }
                    Source::DepthStencil => {
                        for (i, g) in groups.enumerate() {
                            let px = c.x + i as u32;
                            let d = fb.read_depth(px, py, 0).unwrap_or(0.0);
                            let s = fb.read_stencil(px, py, 0).unwrap_or(0);
                            download::pack_depth_stencil(pf, pt, d, s, g);
                        }
                    }
                }
            });
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_keeps_the_inside_and_where_it_lands() {
        assert_eq!(
            clip(-2, 3, 5, 10, 4, 8),
            Some(Clip {
                x: 0,
                y: 3,
                skip_cols: 2,
                skip_rows: 0,
                w: 3,
                h: 5
            })
        );
        assert_eq!(clip(4, 0, 2, 2, 4, 4), None);
        assert_eq!(clip(0, 0, 0, 2, 4, 4), None);
        let c = clip(i32::MIN, i32::MIN, i32::MAX, i32::MAX, 4, 4);
        assert_eq!(c, None);
        let c = clip(-1, -1, i32::MAX, i32::MAX, 4, 4).map(|c| (c.w, c.h, c.skip_cols));
        assert_eq!(c, Some((4, 4, 1)));
    }
}
