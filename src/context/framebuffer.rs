//! The default framebuffer: clears, readback (resolved, per sample, depth, stencil) and
//! re-creation at another size or sample count.

use super::snapshot::scissor_rect;
use super::state::MAX_VIEWPORTS;
use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_raster::{ColorFormat, DepthFormat, Framebuffer, RasterError};

pub(crate) fn from_raster(e: RasterError) -> Error {
    match e {
        RasterError::NotSupported(m) => Error::not_supported(m),
        other => Error::invalid_value(other.to_string()),
    }
}

pub(crate) fn new_framebuffer(w: u32, h: u32, samples: u32) -> Result<Framebuffer> {
    if u64::from(w) * u64::from(h) * u64::from(samples) > 1 << 28 {
        return Err(Error::out_of_memory(format!(
            "a {w}x{h} framebuffer with {samples} samples"
        )));
    }
    Framebuffer::new(
        w,
        h,
        samples,
        &[ColorFormat::Rgba8Unorm],
        DepthFormat::D24S8,
    )
    .map_err(from_raster)
}

/// # Chapter 17.4 — Clearing and per-sample reads
impl Context {
    /// Re-creates the framebuffer at `width`×`height` with `samples` samples per pixel
    /// (contents are lost; viewport and scissor reset to the new size).
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.resize_framebuffer(8, 2, 4).unwrap();
    /// assert_eq!(ctx.size(), (8, 2));
    /// assert_eq!(ctx.samples(), 4);
    /// assert!(ctx.resize_framebuffer(8, 2, 3).is_err());
    /// ```
    pub fn resize_framebuffer(&mut self, width: u32, height: u32, samples: u32) -> Result<()> {
        // RGBA8 colour, 24/8 depth-stencil: 9 bytes a sample.
        let bytes = u64::from(width) * u64::from(height) * u64::from(samples.max(1)) * 9;
        let old = super::limits::framebuffer_bytes(&self.fb);
        let what = format_args!("a {width}x{height} framebuffer with {samples} samples");
        self.charge(bytes, old, &what)?;
        self.fb = new_framebuffer(width, height, samples.max(1))?;
        self.width = width;
        self.height = height;
        self.st.viewports = [[0.0, 0.0, width as f32, height as f32]; MAX_VIEWPORTS];
        self.st.scissors = [[0, 0, width as i32, height as i32]; MAX_VIEWPORTS];
        Ok(())
    }

    /// Samples per pixel of the framebuffer.
    ///
    /// ```
    /// assert_eq!(glemu::Context::new(4, 4).unwrap().samples(), 1);
    /// ```
    pub fn samples(&self) -> u32 {
        self.fb.samples()
    }

    /// `glClear` with `COLOR_BUFFER_BIT | DEPTH_BUFFER_BIT | STENCIL_BUFFER_BIT`; honours
    /// the scissor test, colour mask, depth mask and stencil write mask.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(2, 2).unwrap();
    /// ctx.clear_color([0.0, 1.0, 0.0, 1.0]).unwrap();
    /// ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    /// assert_eq!(ctx.read_pixel(1, 1).unwrap(), [0.0, 1.0, 0.0, 1.0]);
    /// assert_eq!(ctx.clear(0x8000_0000).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn clear(&mut self, mask: u32) -> Result<()> {
        let all = gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT;
        if mask & !all != 0 {
            return Err(Error::invalid_value(format!(
                "clear mask 0x{mask:X} has unknown bits"
            )));
        }
        let sc = scissor_rect(&self.st);
        let (cc, srgb, cd, dm) = (
            self.st.clear_color,
            self.st.framebuffer_srgb,
            self.st.clear_depth as f32,
            self.st.depth_mask,
        );
        let (cs, wm) = (
            (self.st.clear_stencil & 0xff) as u8,
            (self.st.stencil[0].write_mask & 0xff) as u8,
        );
        // Clears write the draw buffers only (GL 4.6 section 17.4.3), each under its mask.
        let planes = self.draw_planes();
        let fb = self.draw_target()?;
        if mask & gl::COLOR_BUFFER_BIT != 0 {
            let n = fb.color_targets();
            for &(rt, _, cm) in planes.iter().filter(|p| p.0 < n) {
                fb.clear_color(rt, cc, sc, cm, srgb).map_err(from_raster)?;
            }
        }
        if mask & gl::DEPTH_BUFFER_BIT != 0 && dm {
            fb.clear_depth(cd, sc);
        }
        if mask & gl::STENCIL_BUFFER_BIT != 0 {
            fb.clear_stencil(cs, wm, sc);
        }
        self.store_draw_target(true)
    }

    /// The planes of the draw framebuffer's storage that draw buffers write: (plane,
    /// draw buffer, that buffer's colour mask).
    pub(crate) fn draw_planes(&self) -> Vec<(usize, usize, [bool; 4])> {
        let outputs = self.plane_outputs();
        let planes = outputs.iter().enumerate();
        let written = planes.filter_map(|(p, o)| Some((p, usize::from((*o)?))));
        written
            .filter_map(|(p, o)| Some((p, o, self.st.draw_blend.get(o)?.color_mask)))
            .collect()
    }

    pub(super) fn check_xy(&self, x: i32, y: i32) -> Result<(u32, u32)> {
        let fb = self.read_target()?;
        if x < 0 || y < 0 || x as u32 >= fb.width() || y as u32 >= fb.height() {
            return Err(Error::invalid_value(format!(
                "pixel ({x}, {y}) is outside the {}x{} framebuffer",
                fb.width(),
                fb.height()
            )));
        }
        Ok((x as u32, y as u32))
    }

    /// Sample `s` of a pixel of the unresolved colour buffer.
    ///
    /// ```
    /// let ctx = glemu::Context::with_samples(2, 2, 4).unwrap();
    /// assert!(ctx.read_sample(0, 0, 3).is_ok());
    /// assert!(ctx.read_sample(0, 0, 4).is_err());
    /// ```
    pub fn read_sample(&self, x: i32, y: i32, s: u32) -> Result<[f32; 4]> {
        let (x, y) = self.check_xy(x, y)?;
        if s >= self.read_target()?.samples() {
            return Err(Error::invalid_value(format!(
                "sample {s} (the framebuffer has {})",
                self.read_target()?.samples()
            )));
        }
        self.read_target()?
            .read_sample(self.read_plane()?, x, y, s)
            .ok_or_else(|| Error::invalid_value("sample outside the framebuffer"))
    }

    /// Depth of a pixel (sample 0).
    ///
    /// ```
    /// let ctx = glemu::Context::new(2, 2).unwrap();
    /// assert_eq!(ctx.read_depth(0, 0).unwrap(), 1.0);
    /// ```
    pub fn read_depth(&self, x: i32, y: i32) -> Result<f32> {
        let (x, y) = self.check_xy(x, y)?;
        self.read_target()?
            .read_depth(x, y, 0)
            .ok_or_else(|| Error::invalid_value("pixel outside the framebuffer"))
    }

    /// Stencil value of a pixel (sample 0).
    ///
    /// ```
    /// let ctx = glemu::Context::new(2, 2).unwrap();
    /// assert_eq!(ctx.read_stencil(1, 1).unwrap(), 0);
    /// ```
    pub fn read_stencil(&self, x: i32, y: i32) -> Result<u8> {
        let (x, y) = self.check_xy(x, y)?;
        self.read_target()?
            .read_stencil(x, y, 0)
            .ok_or_else(|| Error::invalid_value("pixel outside the framebuffer"))
    }
}
