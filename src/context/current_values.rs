//! Current vertex attribute values, patch parameters and the primitive restart index.

use super::state;
use super::{bad_texture_unit, Context};
use crate::error::{Error, Result};

/// # Chapter 10.1–10.2 — Current vertex attribute values and patch parameters
///
/// Also the primitive restart index (chapter 10.3.6).
impl Context {
    /// `glColor4f`: the current colour.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.color_4f([0.25, 0.5, 0.75, 1.0]).unwrap();
    /// ```
    pub fn color_4f(&mut self, c: impl Into<[f32; 4]>) -> Result<()> {
        let c = c.into();
        self.st.current_color = c;
        Ok(())
    }

    /// `glSecondaryColor3f`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.secondary_color_3f([0.5, 0.5, 0.5]).unwrap();
    /// ```
    pub fn secondary_color_3f(&mut self, c: [f32; 3]) -> Result<()> {
        self.st.current_secondary_color = [c[0], c[1], c[2], 1.0];
        Ok(())
    }

    /// `glNormal3f`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.normal_3f([0.0, 1.0, 0.0]).unwrap();
    /// ```
    pub fn normal_3f(&mut self, n: [f32; 3]) -> Result<()> {
        self.st.current_normal = [n[0], n[1], n[2], 1.0];
        Ok(())
    }

    /// `glFogCoordf`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.fog_coord_f(2.0).unwrap();
    /// ```
    pub fn fog_coord_f(&mut self, f: f32) -> Result<()> {
        self.st.current_fog_coord = f;
        Ok(())
    }

    /// `glMultiTexCoord4f` with `unit` as an index (0 = `GL_TEXTURE0`).
    ///
    /// ```
    /// use glemu::{Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.multi_tex_coord_4f(1, [0.5, 0.5, 0.0, 1.0]).unwrap();
    /// assert_eq!(ctx.multi_tex_coord_4f(99, [0.0; 4]).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn multi_tex_coord_4f(&mut self, unit: u32, v: impl Into<[f32; 4]>) -> Result<()> {
        let v = v.into();
        let slot = self
            .st
            .current_texcoord
            .get_mut(unit as usize)
            .ok_or_else(|| bad_texture_unit(unit, state::MAX_TEXTURE_COORDS))?;
        *slot = v;
        Ok(())
    }

    /// `glVertexAttrib4f` (generic attribute current value).
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.vertex_attrib_4f(3, [1.0, 0.0, 0.0, 1.0]).unwrap();
    /// assert!(ctx.vertex_attrib_4f(16, [0.0; 4]).is_err());
    /// ```
    pub fn vertex_attrib_4f(&mut self, index: u32, v: impl Into<[f32; 4]>) -> Result<()> {
        let v = v.into();
        self.vertex_attrib_i4ui(index, v.map(f32::to_bits))
    }

    /// `glVertexAttribI4ui`: raw 32-bit current value.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.vertex_attrib_i4ui(0, [1, 2, 3, 4]).unwrap();
    /// ```
    pub fn vertex_attrib_i4ui(&mut self, index: u32, v: [u32; 4]) -> Result<()> {
        let slot = self
            .st
            .current_attrib
            .get_mut(index as usize)
            .ok_or_else(|| {
                Error::invalid_value(format!(
                    "vertex attribute {index} (max {})",
                    state::MAX_VERTEX_ATTRIBS - 1
                ))
            })?;
        *slot = v;
        Ok(())
    }

    /// `glPatchParameteri(GL_PATCH_VERTICES, n)`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.patch_vertices(4).unwrap();
    /// assert!(ctx.patch_vertices(0).is_err());
    /// ```
    pub fn patch_vertices(&mut self, n: u32) -> Result<()> {
        if n == 0 || n > 32 {
            return Err(Error::invalid_value(format!(
                "patch vertices {n} is not 1..=32"
            )));
        }
        self.st.patch_vertices = n;
        Ok(())
    }

    /// `glPatchParameterfv(GL_PATCH_DEFAULT_OUTER_LEVEL / INNER_LEVEL)`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.patch_default_levels([4.0; 4], [4.0; 2]).unwrap();
    /// ```
    pub fn patch_default_levels(&mut self, outer: [f32; 4], inner: [f32; 2]) -> Result<()> {
        self.st.patch_outer = outer;
        self.st.patch_inner = inner;
        Ok(())
    }

    /// `glPrimitiveRestartIndex`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.primitive_restart_index(0xffff).unwrap();
    /// ```
    pub fn primitive_restart_index(&mut self, index: u32) -> Result<()> {
        self.st.primitive_restart_index = index;
        Ok(())
    }
}
