//! `glClearBuffer*`: clearing one draw buffer, the depth buffer or the stencil buffer
//! to a given value (GL 4.6 section 17.4.3.1), under the scissor test and the masks
//! `clear` honours.

use super::framebuffer::from_raster;
use super::snapshot::scissor_rect;
use super::state::MAX_DRAW_BUFFERS;
use super::Context;
use crate::error::{Error, Result};
use crate::gl;

/// A colour clear value as the caller gave it.
#[derive(Copy, Clone, Debug)]
enum ColorValue {
    Float([f32; 4]),
    Int([i32; 4]),
    Uint([u32; 4]),
}

/// The first `n` values of `v`, or `INVALID_VALUE` naming how many the call needs.
fn values<T: Copy + Default, const N: usize>(v: &[T], what: &str) -> Result<[T; N]> {
    let mut out = [T::default(); N];
    if v.len() < N {
        return Err(Error::invalid_value(format!(
            "{what} needs {N} values, got {}",
            v.len()
        )));
    }
    out.copy_from_slice(&v[..N]);
    Ok(out)
}

/// # Chapter 17.4.3.1 — Clearing individual buffers
///
/// `clear_buffer_fv/iv/uiv/fi`.
impl Context {
    /// `glClearBufferfv`: `COLOR` clears draw buffer `drawbuffer` to `value` (4 floats);
    /// `DEPTH` clears the depth buffer to `value[0]` (`drawbuffer` 0). Honours the
    /// scissor test, that draw buffer's colour mask and the depth mask. Another `buffer`
    /// is `INVALID_ENUM`; a draw buffer past `MAX_DRAW_BUFFERS` (or not 0 for `DEPTH`),
    /// or too few values, `INVALID_VALUE`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.clear_buffer_fv(gl::COLOR, 0, &[0.0, 1.0, 0.0, 1.0]).unwrap();
    /// assert_eq!(ctx.read_pixel(2, 2).unwrap(), [0.0, 1.0, 0.0, 1.0]);
    /// ctx.clear_buffer_fv(gl::DEPTH, 0, &[0.25]).unwrap();
    /// assert_eq!(ctx.clear_buffer_fv(gl::STENCIL, 0, &[1.0]).unwrap_err().gl, GlError::InvalidEnum);
    /// assert_eq!(ctx.clear_buffer_fv(gl::DEPTH, 1, &[1.0]).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn clear_buffer_fv(&mut self, buffer: u32, drawbuffer: i32, value: &[f32]) -> Result<()> {
        match buffer {
            gl::COLOR => {
                let v = values::<f32, 4>(value, "glClearBufferfv(COLOR)")?;
                self.clear_color_buffer(drawbuffer, ColorValue::Float(v))
            }
            gl::DEPTH => {
                check_zero(buffer, drawbuffer)?;
                let [d] = values::<f32, 1>(value, "glClearBufferfv(DEPTH)")?;
                self.clear_depth_stencil(Some(d), None)
            }
            b => Err(Error::invalid_enum("glClearBufferfv buffer", b)),
        }
    }

    /// `glClearBufferiv`: `COLOR` clears draw buffer `drawbuffer` to signed integers
    /// (an integer buffer takes them as they are; GL leaves other formats undefined,
    /// glemu converts); `STENCIL` clears the stencil buffer to `value[0]` under the
    /// stencil write mask (`drawbuffer` 0).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.clear_buffer_iv(gl::STENCIL, 0, &[7]).unwrap();
    /// assert_eq!(ctx.read_stencil(3, 3).unwrap(), 7);
    /// ```
    pub fn clear_buffer_iv(&mut self, buffer: u32, drawbuffer: i32, value: &[i32]) -> Result<()> {
        match buffer {
            gl::COLOR => {
                let v = values::<i32, 4>(value, "glClearBufferiv(COLOR)")?;
                self.clear_color_buffer(drawbuffer, ColorValue::Int(v))
            }
            gl::STENCIL => {
                check_zero(buffer, drawbuffer)?;
                let [s] = values::<i32, 1>(value, "glClearBufferiv(STENCIL)")?;
                self.clear_depth_stencil(None, Some(s))
            }
            b => Err(Error::invalid_enum("glClearBufferiv buffer", b)),
        }
    }

    /// `glClearBufferuiv`: `COLOR` only, unsigned integers.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.clear_buffer_uiv(gl::DEPTH, 0, &[1]).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidEnum);
    /// ```
    pub fn clear_buffer_uiv(&mut self, buffer: u32, drawbuffer: i32, value: &[u32]) -> Result<()> {
        match buffer {
            gl::COLOR => {
                let v = values::<u32, 4>(value, "glClearBufferuiv(COLOR)")?;
                self.clear_color_buffer(drawbuffer, ColorValue::Uint(v))
            }
            b => Err(Error::invalid_enum("glClearBufferuiv buffer", b)),
        }
    }

    /// `glClearBufferfi(DEPTH_STENCIL, 0, depth, stencil)`: both at once, each under its
    /// mask.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.clear_buffer_fi(gl::DEPTH_STENCIL, 0, 0.5, 3).unwrap();
    /// assert_eq!(ctx.read_stencil(0, 0).unwrap(), 3);
    /// assert_eq!(ctx.clear_buffer_fi(gl::COLOR, 0, 0.5, 3).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn clear_buffer_fi(
        &mut self,
        buffer: u32,
        drawbuffer: i32,
        depth: f32,
        stencil: i32,
    ) -> Result<()> {
        if buffer != gl::DEPTH_STENCIL {
            return Err(Error::invalid_enum("glClearBufferfi buffer", buffer));
        }
        check_zero(buffer, drawbuffer)?;
        self.clear_depth_stencil(Some(depth), Some(stencil))
    }

    fn clear_color_buffer(&mut self, drawbuffer: i32, v: ColorValue) -> Result<()> {
        let buf = usize::try_from(drawbuffer)
            .ok()
            .filter(|&b| b < MAX_DRAW_BUFFERS)
            .ok_or_else(|| {
                Error::invalid_value(format!(
                    "draw buffer {drawbuffer} (MAX_DRAW_BUFFERS is {MAX_DRAW_BUFFERS})"
                ))
            })?;
        let sc = scissor_rect(&self.st);
        let srgb = self.st.framebuffer_srgb;
        // The plane draw buffer `buf` writes, if it names one.
        let plane = self.draw_planes().into_iter().find(|p| p.1 == buf);
        let fb = self.draw_target()?;
        let Some((rt, _, mask)) = plane.filter(|p| p.0 < fb.color_targets()) else {
            return Ok(());
        };
        let integer = fb.color_format(rt).is_some_and(|f| f.is_integer());
        match (v, integer) {
            (ColorValue::Int(i), true) => fb.clear_color_raw(rt, i.map(|c| c as u32), sc, mask),
            (ColorValue::Uint(u), true) => fb.clear_color_raw(rt, u, sc, mask),
            (ColorValue::Float(f), _) => fb.clear_color(rt, f, sc, mask, srgb),
            (ColorValue::Int(i), false) => fb.clear_color(rt, i.map(|c| c as f32), sc, mask, srgb),
            (ColorValue::Uint(u), false) => fb.clear_color(rt, u.map(|c| c as f32), sc, mask, srgb),
        }
        .map_err(from_raster)?;
        self.store_draw_target(true)
    }

    fn clear_depth_stencil(&mut self, depth: Option<f32>, stencil: Option<i32>) -> Result<()> {
        let sc = scissor_rect(&self.st);
        let depth = depth.filter(|_| self.st.depth_mask);
        let wm = (self.st.stencil[0].write_mask & 0xff) as u8;
        let fb = self.draw_target()?;
        if let Some(d) = depth {
            fb.clear_depth(d, sc);
        }
        if let Some(s) = stencil {
            fb.clear_stencil((s & 0xff) as u8, wm, sc);
        }
        self.store_draw_target(true)
    }
}

/// `DEPTH`, `STENCIL` and `DEPTH_STENCIL` have one buffer, number 0.
fn check_zero(buffer: u32, drawbuffer: i32) -> Result<()> {
    if drawbuffer != 0 {
        return Err(Error::invalid_value(format!(
            "draw buffer {drawbuffer} of {} (only 0)",
            gl::name(buffer)
        )));
    }
    Ok(())
}
