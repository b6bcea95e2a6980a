//! Flatshading and clip planes (GL's "fixed-function vertex post-processing").

use super::gl_enum::{GlEnum, ProvokingVertex, ShadeModel};
use super::state;
use super::Context;
use crate::error::{Error, Result};
use crate::gl;

/// # Chapter 13 — Flatshading and clip planes
impl Context {
    /// `glShadeModel`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.shade_model(gl::FLAT).unwrap();
    /// ```
    pub fn shade_model(&mut self, mode: u32) -> Result<()> {
        self.st.shade_model = ShadeModel::parse(mode)?;
        Ok(())
    }

    /// `glProvokingVertex`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.provoking_vertex(gl::FIRST_VERTEX_CONVENTION).unwrap();
    /// ```
    pub fn provoking_vertex(&mut self, mode: u32) -> Result<()> {
        self.st.provoking_vertex = ProvokingVertex::parse(mode)?;
        Ok(())
    }

    /// `glClipPlane`: the plane is transformed to eye space by the inverse modelview, as
    /// GL does.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.clip_plane(gl::CLIP_PLANE0 + 1, [1.0, 0.0, 0.0, 0.0]).unwrap();
    /// ```
    pub fn clip_plane(&mut self, plane: u32, eq: [f64; 4]) -> Result<()> {
        let i = plane.wrapping_sub(gl::CLIP_PLANE0) as usize;
        if i >= state::MAX_CLIP_PLANES {
            return Err(Error::invalid_enum("clip plane", plane));
        }
        // plane' = plane · M⁻¹ (a row vector times the inverse)
        let inv = state::inverse_or_zero(&self.st.modelview);
        self.st.clip_planes[i] = (inv.transpose() * glam::DVec4::from_array(eq)).to_array();
        Ok(())
    }
}
