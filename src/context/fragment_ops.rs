//! Per-fragment state: depth and stencil tests, blending, write masks and clear values.

use super::gl_enum::{Face, GlEnum};
use super::state;
use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_raster::{BlendEquation, BlendFactor, CompareFunc, LogicOp, StencilOp};

/// src rgb, dst rgb, src alpha, dst alpha.
fn blend_factors(f: [u32; 4]) -> Result<[BlendFactor; 4]> {
    Ok([
        BlendFactor::parse(f[0])?,
        BlendFactor::parse(f[1])?,
        BlendFactor::parse(f[2])?,
        BlendFactor::parse(f[3])?,
    ])
}

/// rgb, alpha.
fn blend_equations(rgb: u32, alpha: u32) -> Result<[BlendEquation; 2]> {
    Ok([BlendEquation::parse(rgb)?, BlendEquation::parse(alpha)?])
}

/// # Chapter 17.3–17.4 — Per-fragment operations, write masks and clear values
///
/// Depth, stencil, blending (per draw buffer too), colour masks, clear values.
impl Context {
    /// `glDepthFunc`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.depth_func(gl::GREATER).unwrap();
    /// assert_eq!(ctx.depth_func(gl::BLEND).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn depth_func(&mut self, func: u32) -> Result<()> {
        self.st.depth_func = CompareFunc::parse(func)?;
        Ok(())
    }

    /// `glDepthMask`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.depth_mask(false).unwrap();
    /// ```
    pub fn depth_mask(&mut self, on: bool) -> Result<()> {
        self.st.depth_mask = on;
        Ok(())
    }

    /// `glStencilFuncSeparate`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.stencil_func_separate(gl::FRONT_AND_BACK, gl::EQUAL, 1, 0xff).unwrap();
    /// ```
    pub fn stencil_func_separate(
        &mut self,
        face: u32,
        func: u32,
        reference: i32,
        mask: u32,
    ) -> Result<()> {
        let face = Face::parse(face)?;
        let func = CompareFunc::parse(func)?;
        for &f in face.indices() {
            let s = &mut self.st.stencil[f];
            s.func = func;
            s.reference = reference;
            s.value_mask = mask;
        }
        Ok(())
    }

    /// `glStencilFunc` (both faces).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.stencil_func(gl::ALWAYS, 0, !0).unwrap();
    /// ```
    pub fn stencil_func(&mut self, func: u32, reference: i32, mask: u32) -> Result<()> {
        self.stencil_func_separate(gl::FRONT_AND_BACK, func, reference, mask)
    }

    /// `glStencilOpSeparate`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.stencil_op_separate(gl::BACK, gl::KEEP, gl::INCR, gl::REPLACE).unwrap();
    /// ```
    pub fn stencil_op_separate(
        &mut self,
        face: u32,
        sfail: u32,
        dpfail: u32,
        dppass: u32,
    ) -> Result<()> {
        let face = Face::parse(face)?;
        let ops = [
            StencilOp::parse(sfail)?,
            StencilOp::parse(dpfail)?,
            StencilOp::parse(dppass)?,
        ];
        for &f in face.indices() {
            self.st.stencil[f].ops = ops;
        }
        Ok(())
    }

    /// `glStencilOp` (both faces).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.stencil_op(gl::KEEP, gl::KEEP, gl::LESS).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn stencil_op(&mut self, sfail: u32, dpfail: u32, dppass: u32) -> Result<()> {
        self.stencil_op_separate(gl::FRONT_AND_BACK, sfail, dpfail, dppass)
    }

    /// `glStencilMask`: the stencil bits draws and clears may write, both faces.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.stencil_mask(0x0f).unwrap();
    /// ctx.clear_stencil(0xff).unwrap();
    /// ctx.clear(gl::STENCIL_BUFFER_BIT).unwrap();
    /// assert_eq!(ctx.read_stencil(0, 0).unwrap(), 0x0f);
    /// assert_eq!(ctx.get_integer_v(gl::STENCIL_BACK_WRITEMASK).unwrap(), [0x0f]);
    /// ```
    pub fn stencil_mask(&mut self, mask: u32) -> Result<()> {
        self.stencil_mask_separate(gl::FRONT_AND_BACK, mask)
    }

    /// `glStencilMaskSeparate`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.stencil_mask_separate(gl::FRONT, 0x0f).unwrap();
    /// ```
    pub fn stencil_mask_separate(&mut self, face: u32, mask: u32) -> Result<()> {
        for &f in Face::parse(face)?.indices() {
            self.st.stencil[f].write_mask = mask;
        }
        Ok(())
    }

    /// `glBlendFuncSeparate`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.blend_func_separate(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA, gl::ONE, gl::ZERO).unwrap();
    /// assert!(ctx.blend_func_separate(gl::LESS, gl::ONE, gl::ONE, gl::ONE).is_err());
    /// ```
    pub fn blend_func_separate(
        &mut self,
        src: u32,
        dst: u32,
        src_a: u32,
        dst_a: u32,
    ) -> Result<()> {
        let func = blend_factors([src, dst, src_a, dst_a])?;
        self.st.draw_blend.iter_mut().for_each(|b| b.func = func);
        Ok(())
    }

    /// `glBlendFunc`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.blend_func(gl::ONE, gl::ONE).unwrap();
    /// ```
    pub fn blend_func(&mut self, src: u32, dst: u32) -> Result<()> {
        self.blend_func_separate(src, dst, src, dst)
    }

    /// `glBlendEquationSeparate`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.blend_equation_separate(gl::FUNC_ADD, gl::MAX).unwrap();
    /// ```
    pub fn blend_equation_separate(&mut self, rgb: u32, alpha: u32) -> Result<()> {
        let eq = blend_equations(rgb, alpha)?;
        self.st.draw_blend.iter_mut().for_each(|b| b.equation = eq);
        Ok(())
    }

    /// `glBlendEquation`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.blend_equation(gl::FUNC_REVERSE_SUBTRACT).unwrap();
    /// ```
    pub fn blend_equation(&mut self, mode: u32) -> Result<()> {
        self.blend_equation_separate(mode, mode)
    }

    /// `glBlendColor`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.blend_color([0.5; 4]).unwrap();
    /// ```
    pub fn blend_color(&mut self, c: impl Into<[f32; 4]>) -> Result<()> {
        let c = c.into();
        self.st.blend_color = c;
        Ok(())
    }

    /// `glLogicOp`: the operation that replaces blending while `COLOR_LOGIC_OP` is
    /// enabled (on normalized fixed-point and integer colour buffers).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.logic_op(gl::XOR).unwrap();
    /// assert_eq!(ctx.get_integer_v(gl::LOGIC_OP_MODE).unwrap(), [gl::XOR as i32]);
    /// assert_eq!(ctx.logic_op(gl::ONE).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn logic_op(&mut self, opcode: u32) -> Result<()> {
        self.st.logic_op_mode = LogicOp::parse(opcode)?;
        Ok(())
    }

    /// `glColorMask`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.color_mask([true, false, true, true]).unwrap();
    /// ```
    pub fn color_mask(&mut self, m: [bool; 4]) -> Result<()> {
        self.st.draw_blend.iter_mut().for_each(|b| b.color_mask = m);
        Ok(())
    }

    /// The blend state of draw buffer `buf`; `INVALID_VALUE` past `MAX_DRAW_BUFFERS`.
    fn draw_buffer_blend(&mut self, buf: u32) -> Result<&mut state::DrawBufferBlend> {
        self.st.draw_blend.get_mut(buf as usize).ok_or_else(|| {
            Error::invalid_value(format!(
                "draw buffer {buf} (MAX_DRAW_BUFFERS is {})",
                state::MAX_DRAW_BUFFERS
            ))
        })
    }

    /// `glBlendFunci`: the blend factors of draw buffer `buf` only.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.blend_func_i(1, gl::ONE, gl::ONE).unwrap();
    /// assert_eq!(ctx.blend_func_i(8, gl::ONE, gl::ONE).unwrap_err().gl, GlError::InvalidValue);
    /// assert_eq!(ctx.blend_func_i(0, gl::LESS, gl::ONE).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn blend_func_i(&mut self, buf: u32, src: u32, dst: u32) -> Result<()> {
        self.blend_func_separate_i(buf, src, dst, src, dst)
    }

    /// `glBlendFuncSeparatei`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.blend_func_separate_i(2, gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA, gl::ONE, gl::ZERO).unwrap();
    /// ```
    pub fn blend_func_separate_i(
        &mut self,
        buf: u32,
        src: u32,
        dst: u32,
        src_a: u32,
        dst_a: u32,
    ) -> Result<()> {
        let func = blend_factors([src, dst, src_a, dst_a])?;
        self.draw_buffer_blend(buf)?.func = func;
        Ok(())
    }

    /// `glBlendEquationi`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.blend_equation_i(3, gl::MAX).unwrap();
    /// assert_eq!(ctx.blend_equation_i(3, gl::ONE).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn blend_equation_i(&mut self, buf: u32, mode: u32) -> Result<()> {
        self.blend_equation_separate_i(buf, mode, mode)
    }

    /// `glBlendEquationSeparatei`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.blend_equation_separate_i(0, gl::FUNC_ADD, gl::MIN).unwrap();
    /// let e = ctx.blend_equation_separate_i(9, gl::FUNC_ADD, gl::MIN).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn blend_equation_separate_i(&mut self, buf: u32, rgb: u32, alpha: u32) -> Result<()> {
        let eq = blend_equations(rgb, alpha)?;
        self.draw_buffer_blend(buf)?.equation = eq;
        Ok(())
    }

    /// `glColorMaski`: which components draws and clears write to draw buffer `buf`.
    ///
    /// ```
    /// use glemu::{Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.color_mask_i(1, [true, false, false, true]).unwrap();
    /// assert_eq!(ctx.color_mask_i(8, [true; 4]).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn color_mask_i(&mut self, buf: u32, m: [bool; 4]) -> Result<()> {
        self.draw_buffer_blend(buf)?.color_mask = m;
        Ok(())
    }

    /// `glClearColor`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.clear_color([0.0, 0.0, 0.0, 1.0]).unwrap();
    /// ```
    pub fn clear_color(&mut self, c: impl Into<[f32; 4]>) -> Result<()> {
        let c = c.into();
        self.st.clear_color = c;
        Ok(())
    }

    /// `glClearDepth` (clamped to [0, 1]).
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.clear_depth(0.5).unwrap();
    /// ```
    pub fn clear_depth(&mut self, d: f64) -> Result<()> {
        self.st.clear_depth = d.clamp(0.0, 1.0);
        Ok(())
    }

    /// `glClearStencil`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.clear_stencil(3).unwrap();
    /// ```
    pub fn clear_stencil(&mut self, s: i32) -> Result<()> {
        self.st.clear_stencil = s;
        Ok(())
    }
}
