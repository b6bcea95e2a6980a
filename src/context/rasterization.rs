//! Rasterization state: culling, polygon modes and offset, point and line size,
//! multisample state.

use super::gl_enum::{Face, GlEnum};
use super::Context;
use crate::error::{Error, Result};
use glemu_raster::{FrontFace, PolygonMode};

/// # Chapter 14 — Rasterization
///
/// Culling, polygon mode and offset, point size, line width, sample shading and mask.
impl Context {
    /// `glCullFace`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.cull_face(gl::FRONT).unwrap();
    /// ```
    pub fn cull_face(&mut self, face: u32) -> Result<()> {
        self.st.cull_mode = Face::parse(face)?;
        Ok(())
    }

    /// `glFrontFace`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.front_face(gl::CW).unwrap();
    /// assert!(ctx.front_face(gl::FRONT).is_err());
    /// ```
    pub fn front_face(&mut self, mode: u32) -> Result<()> {
        self.st.front_face = FrontFace::parse(mode)?;
        Ok(())
    }

    /// `glPolygonMode`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.polygon_mode(gl::FRONT_AND_BACK, gl::LINE).unwrap();
    /// ```
    pub fn polygon_mode(&mut self, face: u32, mode: u32) -> Result<()> {
        let face = Face::parse(face)?;
        let mode = PolygonMode::parse(mode)?;
        for &f in face.indices() {
            self.st.polygon_mode[f] = mode;
        }
        Ok(())
    }

    /// `glPolygonOffset`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.polygon_offset(1.0, 1.0).unwrap();
    /// ```
    pub fn polygon_offset(&mut self, factor: f32, units: f32) -> Result<()> {
        self.st.polygon_offset = [factor, units];
        Ok(())
    }

    /// `glPointSize` (must be positive).
    ///
    /// ```
    /// use glemu::{Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.point_size(0.0).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn point_size(&mut self, size: f32) -> Result<()> {
        if size.is_nan() || size <= 0.0 {
            return Err(Error::invalid_value(format!(
                "point size {size} is not positive"
            )));
        }
        self.st.point_size = size;
        Ok(())
    }

    /// `glLineWidth` (must be positive).
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.line_width(2.0).unwrap();
    /// ```
    pub fn line_width(&mut self, width: f32) -> Result<()> {
        if width.is_nan() || width <= 0.0 {
            return Err(Error::invalid_value(format!(
                "line width {width} is not positive"
            )));
        }
        self.st.line_width = width;
        Ok(())
    }

    /// `glMinSampleShading` (clamped to [0, 1]).
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.min_sample_shading(1.0).unwrap();
    /// ```
    pub fn min_sample_shading(&mut self, v: f32) -> Result<()> {
        self.st.min_sample_shading = v.clamp(0.0, 1.0);
        Ok(())
    }

    /// `glSampleMaski(0, mask)`; other mask words are `INVALID_VALUE`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.sample_mask_i(0, 0b0101).unwrap();
    /// assert!(ctx.sample_mask_i(1, 0).is_err());
    /// ```
    pub fn sample_mask_i(&mut self, index: u32, mask: u32) -> Result<()> {
        if index != 0 {
            return Err(Error::invalid_value(format!(
                "sample mask word {index} (max 0)"
            )));
        }
        self.st.sample_mask = mask;
        Ok(())
    }
}
