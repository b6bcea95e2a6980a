//! `glHint`.

use super::Context;
use crate::error::{Error, Result};
use crate::gl;

/// # Chapter 21.5 — Hints
impl Context {
    /// `glHint`: accepted and ignored (glemu always renders at full quality).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.hint(gl::FOG_HINT, gl::NICEST).unwrap();
    /// assert!(ctx.hint(gl::FOG_HINT, gl::LESS).is_err());
    /// ```
    pub fn hint(&mut self, target: u32, mode: u32) -> Result<()> {
        if !matches!(
            target,
            gl::PERSPECTIVE_CORRECTION_HINT
                | gl::POINT_SMOOTH_HINT
                | gl::LINE_SMOOTH_HINT
                | gl::POLYGON_SMOOTH_HINT
                | gl::FOG_HINT
                | gl::FRAGMENT_SHADER_DERIVATIVE_HINT
        ) {
            return Err(Error::invalid_enum("hint target", target));
        }
        if !matches!(mode, gl::DONT_CARE | gl::FASTEST | gl::NICEST) {
            return Err(Error::invalid_enum("hint mode", mode));
        }
        Ok(())
    }
}
