//! The viewport array (GL 4.1 / ARB_viewport_array): viewports, depth ranges and scissor
//! boxes per index. A primitive uses the index its last vertex-processing stage writes to
//! `result.viewport` (0 otherwise); the non-indexed calls set every index and the
//! non-indexed queries read index 0.

use super::state::{MAX_DRAW_BUFFERS, MAX_VIEWPORTS};
use super::Context;
use crate::caps::{MAX_VIEWPORT_DIM, VIEWPORT_BOUNDS_RANGE};
use crate::error::{Error, Result};
use crate::gl;

fn check_index(what: &str, index: u32, count: usize) -> Result<usize> {
    let i = index as usize;
    if i.checked_add(count).is_none_or(|end| end > MAX_VIEWPORTS) {
        return Err(Error::invalid_value(format!(
            "{what} {index}..{} past MAX_VIEWPORTS ({MAX_VIEWPORTS})",
            i.saturating_add(count)
        )));
    }
    Ok(i)
}

/// # Chapter 13.6 — Viewports, scissor boxes and depth ranges
impl Context {
    /// `glViewport`: sets every viewport of the array.
    ///
    /// ```
    /// use glemu::{Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.viewport(0, 0, 2, 2).unwrap();
    /// assert_eq!(ctx.viewport(0, 0, -1, 2).unwrap_err().gl, GlError::InvalidValue);
    /// // Sizes clamp to MAX_VIEWPORT_DIMS and the origin to VIEWPORT_BOUNDS_RANGE.
    /// ctx.viewport(i32::MIN, 5, i32::MAX, 2).unwrap();
    /// assert_eq!(ctx.get_integer_v(glemu::gl::VIEWPORT).unwrap(), [-32768, 5, 16384, 2]);
    /// ```
    pub fn viewport(&mut self, x: i32, y: i32, w: i32, h: i32) -> Result<()> {
        if w < 0 || h < 0 {
            return Err(Error::invalid_value("negative viewport size"));
        }
        let v = [x as f32, y as f32, w as f32, h as f32];
        let all = [v; MAX_VIEWPORTS];
        self.viewport_array_v(0, &all)
    }

    /// `glViewportIndexedf`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(64, 64).unwrap();
    /// ctx.viewport_indexed_f(3, 32.5, 0.0, 16.0, 8.0).unwrap();
    /// assert_eq!(ctx.get_float_i_v(gl::VIEWPORT, 3).unwrap(), [32.5, 0.0, 16.0, 8.0]);
    /// let e = ctx.viewport_indexed_f(16, 0.0, 0.0, 1.0, 1.0).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn viewport_indexed_f(&mut self, index: u32, x: f32, y: f32, w: f32, h: f32) -> Result<()> {
        self.viewport_array_v(index, &[[x, y, w, h]])
    }

    /// `glViewportIndexedfv`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(8, 8).unwrap();
    /// ctx.viewport_indexed_fv(1, [0.0, 0.0, 4.0, 4.0]).unwrap();
    /// ```
    pub fn viewport_indexed_fv(&mut self, index: u32, v: impl Into<[f32; 4]>) -> Result<()> {
        let v = v.into();
        self.viewport_array_v(index, &[v])
    }

    /// `glViewportArrayv`: viewports `first..first + v.len()`. Sizes clamp to
    /// `MAX_VIEWPORT_DIMS` and origins to `VIEWPORT_BOUNDS_RANGE`; a negative size or a
    /// range past `MAX_VIEWPORTS` is `INVALID_VALUE` and changes nothing.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(8, 8).unwrap();
    /// ctx.viewport_array_v(14, &[[0.0, 0.0, 4.0, 4.0], [4.0, 4.0, 4.0, 4.0]]).unwrap();
    /// assert_eq!(ctx.get_integers_i(gl::VIEWPORT, 15).unwrap(), [4, 4, 4, 4]);
    /// let e = ctx.viewport_array_v(15, &[[0.0; 4], [0.0; 4]]).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// let e = ctx.viewport_array_v(0, &[[0.0, 0.0, -1.0, 1.0]]).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn viewport_array_v(&mut self, first: u32, v: &[[f32; 4]]) -> Result<()> {
        let first = check_index("viewports", first, v.len())?;
        if v.iter().any(|v| !(v[2] >= 0.0 && v[3] >= 0.0)) {
            return Err(Error::invalid_value("negative (or NaN) viewport size"));
        }
        let [lo, hi] = VIEWPORT_BOUNDS_RANGE.map(|b| b as f32);
        let max = MAX_VIEWPORT_DIM as f32;
        for (d, s) in self.st.viewports[first..].iter_mut().zip(v) {
            // NaN origins become 0 rather than poisoning every window coordinate.
            let org = |o: f32| if o.is_nan() { 0.0 } else { o.clamp(lo, hi) };
            *d = [org(s[0]), org(s[1]), s[2].min(max), s[3].min(max)];
        }
        Ok(())
    }

    /// `glDepthRange` (clamped to [0, 1]): sets every depth range of the array.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.depth_range(0.25, 0.75).unwrap();
    /// ```
    pub fn depth_range(&mut self, near: f64, far: f64) -> Result<()> {
        self.depth_range_array_v(0, &[[near, far]; MAX_VIEWPORTS])
    }

    /// `glDepthRangeIndexed` (clamped to [0, 1]).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.depth_range_indexed(2, 0.25, 2.0).unwrap();
    /// assert_eq!(ctx.get_double_i_v(gl::DEPTH_RANGE, 2).unwrap(), [0.25, 1.0]);
    /// assert_eq!(ctx.get_double_i_v(gl::DEPTH_RANGE, 0).unwrap(), [0.0, 1.0]);
    /// ```
    pub fn depth_range_indexed(&mut self, index: u32, near: f64, far: f64) -> Result<()> {
        self.depth_range_array_v(index, &[[near, far]])
    }

    /// `glDepthRangeArrayv`: depth ranges `first..first + v.len()`, each clamped to [0, 1].
    ///
    /// ```
    /// use glemu::{Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.depth_range_array_v(16, &[[0.0, 1.0]]).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn depth_range_array_v(&mut self, first: u32, v: &[[f64; 2]]) -> Result<()> {
        let first = check_index("depth ranges", first, v.len())?;
        for (d, s) in self.st.depth_ranges[first..].iter_mut().zip(v) {
            *d = s.map(|x| if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) });
        }
        Ok(())
    }

    /// `glScissor`: sets every scissor box of the array.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.scissor(1, 1, 2, 2).unwrap();
    /// ```
    pub fn scissor(&mut self, x: i32, y: i32, w: i32, h: i32) -> Result<()> {
        self.scissor_array_v(0, &[[x, y, w, h]; MAX_VIEWPORTS])
    }

    /// `glScissorIndexed`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(8, 8).unwrap();
    /// ctx.scissor_indexed(5, 1, 2, 3, 4).unwrap();
    /// assert_eq!(ctx.get_integers_i(gl::SCISSOR_BOX, 5).unwrap(), [1, 2, 3, 4]);
    /// assert_eq!(ctx.get_integers_i(gl::SCISSOR_BOX, 4).unwrap(), [0, 0, 8, 8]);
    /// ```
    pub fn scissor_indexed(&mut self, index: u32, x: i32, y: i32, w: i32, h: i32) -> Result<()> {
        self.scissor_array_v(index, &[[x, y, w, h]])
    }

    /// `glScissorIndexedv`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(8, 8).unwrap();
    /// ctx.scissor_indexed_v(0, [0, 0, 2, 2]).unwrap();
    /// ```
    pub fn scissor_indexed_v(&mut self, index: u32, v: [i32; 4]) -> Result<()> {
        self.scissor_array_v(index, &[v])
    }

    /// `glScissorArrayv`: scissor boxes `first..first + v.len()`; a negative size or a
    /// range past `MAX_VIEWPORTS` is `INVALID_VALUE` and changes nothing.
    ///
    /// ```
    /// use glemu::{Context, GlError};
    /// let mut ctx = Context::new(8, 8).unwrap();
    /// let e = ctx.scissor_array_v(0, &[[0, 0, 1, -1]]).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn scissor_array_v(&mut self, first: u32, v: &[[i32; 4]]) -> Result<()> {
        let first = check_index("scissor boxes", first, v.len())?;
        if v.iter().any(|v| v[2] < 0 || v[3] < 0) {
            return Err(Error::invalid_value("negative scissor size"));
        }
        for (d, s) in self.st.scissors[first..].iter_mut().zip(v) {
            *d = *s;
        }
        Ok(())
    }

    /// `glEnablei`: `SCISSOR_TEST` of one viewport, or `BLEND` of one draw buffer.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.enable_i(gl::BLEND, 2).unwrap();
    /// assert!(ctx.is_enabled_i(gl::BLEND, 2).unwrap());
    /// assert!(!ctx.is_enabled(gl::BLEND).unwrap()); // draw buffer 0
    /// assert_eq!(ctx.enable_i(gl::BLEND, 8).unwrap_err().gl, GlError::InvalidValue);
    /// ctx.enable_i(gl::SCISSOR_TEST, 3).unwrap();
    /// assert!(ctx.is_enabled_i(gl::SCISSOR_TEST, 3).unwrap());
    /// assert!(!ctx.is_enabled(gl::SCISSOR_TEST).unwrap());
    /// assert_eq!(ctx.enable_i(gl::SCISSOR_TEST, 16).unwrap_err().gl, GlError::InvalidValue);
    /// assert_eq!(ctx.enable_i(gl::DEPTH_TEST, 0).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn enable_i(&mut self, cap: u32, index: u32) -> Result<()> {
        self.set_indexed_capability(cap, index, true)
    }

    /// `glDisablei` (see [`Context::enable_i`]).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.enable(gl::SCISSOR_TEST).unwrap();
    /// ctx.disable_i(gl::SCISSOR_TEST, 0).unwrap();
    /// assert!(!ctx.is_enabled(gl::SCISSOR_TEST).unwrap());
    /// assert!(ctx.is_enabled_i(gl::SCISSOR_TEST, 1).unwrap());
    /// ```
    pub fn disable_i(&mut self, cap: u32, index: u32) -> Result<()> {
        self.set_indexed_capability(cap, index, false)
    }

    /// `glIsEnabledi` (see [`Context::enable_i`]).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let ctx = Context::new(4, 4).unwrap();
    /// assert!(!ctx.is_enabled_i(gl::SCISSOR_TEST, 15).unwrap());
    /// ```
    pub fn is_enabled_i(&self, cap: u32, index: u32) -> Result<bool> {
        let i = indexed_capability(cap, index)?;
        Ok(match cap {
            gl::BLEND => self.st.draw_blend[i].enabled,
            _ => self.st.scissor_test & (1 << i) != 0,
        })
    }

    fn set_indexed_capability(&mut self, cap: u32, index: u32, on: bool) -> Result<()> {
        let i = indexed_capability(cap, index)?;
        if cap == gl::BLEND {
            self.st.draw_blend[i].enabled = on;
            return Ok(());
        }
        let bit = 1u16 << i;
        if on {
            self.st.scissor_test |= bit;
        } else {
            self.st.scissor_test &= !bit;
        }
        Ok(())
    }

    /// `glGetFloati_v` for `VIEWPORT` (4 values) and `DEPTH_RANGE` (2).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let ctx = Context::new(8, 4).unwrap();
    /// assert_eq!(ctx.get_float_i_v(gl::VIEWPORT, 9).unwrap(), [0.0, 0.0, 8.0, 4.0]);
    /// assert_eq!(ctx.get_float_i_v(gl::DEPTH_RANGE, 0).unwrap(), [0.0, 1.0]);
    /// assert_eq!(ctx.get_float_i_v(gl::BLEND, 0).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn get_float_i_v(&self, pname: u32, index: u32) -> Result<Vec<f32>> {
        Ok(match pname {
            gl::VIEWPORT => self.st.viewports[viewport_index(index)?].to_vec(),
            _ => self
                .get_double_i_v(pname, index)?
                .iter()
                .map(|&v| v as f32)
                .collect(),
        })
    }

    /// `glGetDoublei_v` for `VIEWPORT` (4 values) and `DEPTH_RANGE` (2).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let ctx = Context::new(8, 4).unwrap();
    /// assert_eq!(ctx.get_double_i_v(gl::VIEWPORT, 0).unwrap(), [0.0, 0.0, 8.0, 4.0]);
    /// assert_eq!(ctx.get_double_i_v(gl::DEPTH_RANGE, 16).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn get_double_i_v(&self, pname: u32, index: u32) -> Result<Vec<f64>> {
        let i = viewport_index(index);
        match pname {
            gl::VIEWPORT => Ok(self.st.viewports[i?].map(f64::from).to_vec()),
            gl::DEPTH_RANGE => Ok(self.st.depth_ranges[i?].to_vec()),
            p => Err(Error::invalid_enum("indexed double state", p)),
        }
    }

    /// `glGetIntegeri_v` for indexed state of several values: `VIEWPORT` (rounded to the
    /// nearest integer) and `SCISSOR_BOX`. Single values (buffer bindings) are
    /// [`Context::get_integer_i_v`].
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(8, 4).unwrap();
    /// ctx.viewport_indexed_f(2, 0.5, 1.49, 3.5, 2.0).unwrap();
    /// assert_eq!(ctx.get_integers_i(gl::VIEWPORT, 2).unwrap(), [1, 1, 4, 2]);
    /// assert_eq!(ctx.get_integers_i(gl::SCISSOR_BOX, 16).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn get_integers_i(&self, pname: u32, index: u32) -> Result<Vec<i32>> {
        let i = viewport_index(index);
        match pname {
            gl::VIEWPORT => Ok(self.st.viewports[i?].map(super::get::round_int).to_vec()),
            gl::SCISSOR_BOX => Ok(self.st.scissors[i?].to_vec()),
            p => Err(Error::invalid_enum("indexed integer state", p)),
        }
    }
}

fn viewport_index(index: u32) -> Result<usize> {
    check_index("viewport", index, 1)
}

/// The viewport index of an indexed capability (only `SCISSOR_TEST` has one here).
fn indexed_capability(cap: u32, index: u32) -> Result<usize> {
    match cap {
        gl::SCISSOR_TEST => viewport_index(index),
        gl::BLEND if (index as usize) < MAX_DRAW_BUFFERS => Ok(index as usize),
        gl::BLEND => Err(Error::invalid_value(format!(
            "draw buffer {index} (MAX_DRAW_BUFFERS is {MAX_DRAW_BUFFERS})"
        ))),
        c => Err(Error::invalid_enum("indexed capability", c)),
    }
}
