//! `glEnable` / `glDisable` / `glIsEnabled`.

use super::state::{self, GlState};
use super::Context;
use crate::error::{Error, Result};
use crate::gl;

/// # Capabilities
///
/// `enable`, `disable` and `is_enabled` for every capability glemu knows (the chapter
/// of the state each one switches names it).
impl Context {
    /// `glEnable`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.enable(gl::BLEND).unwrap();
    /// assert_eq!(ctx.enable(0xDEAD).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn enable(&mut self, cap: u32) -> Result<()> {
        self.set_capability(cap, true)
    }

    /// `glDisable`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.disable(gl::MULTISAMPLE).unwrap();
    /// assert!(!ctx.is_enabled(gl::MULTISAMPLE).unwrap());
    /// ```
    pub fn disable(&mut self, cap: u32) -> Result<()> {
        self.set_capability(cap, false)
    }

    /// `glIsEnabled`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let ctx = Context::new(4, 4).unwrap();
    /// assert!(ctx.is_enabled(gl::MULTISAMPLE).unwrap());
    /// assert!(!ctx.is_enabled(gl::DEPTH_TEST).unwrap());
    /// ```
    pub fn is_enabled(&self, cap: u32) -> Result<bool> {
        use state::tex_enable as te;
        let st = &self.st;
        let tex = |bit: u8| {
            st.texture_enables
                .get(st.active_texture as usize)
                .is_some_and(|e| e & bit != 0)
        };
        Ok(match cap {
            gl::DEPTH_TEST => st.depth_test,
            gl::STENCIL_TEST => st.stencil_test,
            gl::BLEND => st.draw_blend[0].enabled,
            gl::SCISSOR_TEST => st.scissor_test & 1 != 0,
            gl::CULL_FACE => st.cull_face,
            gl::POLYGON_OFFSET_FILL => st.polygon_offset_fill,
            gl::POLYGON_OFFSET_LINE => st.polygon_offset_line,
            gl::POLYGON_OFFSET_POINT => st.polygon_offset_point,
            gl::MULTISAMPLE => st.multisample,
            gl::SAMPLE_SHADING => st.sample_shading,
            gl::SAMPLE_ALPHA_TO_COVERAGE => st.alpha_to_coverage,
            gl::SAMPLE_ALPHA_TO_ONE => st.alpha_to_one,
            gl::SAMPLE_MASK => st.sample_mask_enabled,
            gl::DEPTH_CLAMP => st.depth_clamp,
            gl::RASTERIZER_DISCARD => st.rasterizer_discard,
            gl::PROGRAM_POINT_SIZE => st.program_point_size,
            gl::VERTEX_PROGRAM_TWO_SIDE => st.two_side,
            gl::POINT_SPRITE => st.point_sprite,
            gl::PRIMITIVE_RESTART => st.primitive_restart,
            gl::FRAMEBUFFER_SRGB => st.framebuffer_srgb,
            gl::COLOR_LOGIC_OP => st.logic_op,
            gl::FOG => st.fog_enabled,
            gl::LIGHTING => st.lighting,
            gl::TEXTURE_1D => tex(te::T1D),
            gl::TEXTURE_2D => tex(te::T2D),
            gl::TEXTURE_3D => tex(te::T3D),
            gl::TEXTURE_CUBE_MAP => tex(te::CUBE),
            gl::TEXTURE_RECTANGLE => tex(te::RECT),
            gl::VERTEX_PROGRAM_ARB => st.program_enabled[0],
            gl::FRAGMENT_PROGRAM_ARB | gl::FRAGMENT_PROGRAM_NV => st.program_enabled[1],
            gl::GEOMETRY_PROGRAM_NV => st.program_enabled[2],
            gl::TESS_CONTROL_PROGRAM_NV => st.program_enabled[3],
            gl::TESS_EVALUATION_PROGRAM_NV => st.program_enabled[4],
            gl::COMPUTE_PROGRAM_NV => st.program_enabled[5],
            c if (gl::CLIP_PLANE0..gl::CLIP_PLANE0 + state::MAX_CLIP_PLANES as u32)
                .contains(&c) =>
            {
                st.clip_enabled & (1 << (c - gl::CLIP_PLANE0)) != 0
            }
            c if (gl::LIGHT0..gl::LIGHT0 + state::MAX_LIGHTS as u32).contains(&c) => {
                st.light_enabled[(c - gl::LIGHT0) as usize]
            }
            gl::NORMALIZE => st.normalize,
            gl::COLOR_MATERIAL => st.color_material,
            gl::COLOR_SUM => st.color_sum,
            gl::DITHER
            | gl::LINE_SMOOTH
            | gl::POINT_SMOOTH
            | gl::POLYGON_SMOOTH
            | gl::ALPHA_TEST => false,
            c if (gl::TEXTURE_GEN_S..=gl::TEXTURE_GEN_Q).contains(&c) => false,
            c => return Err(Error::invalid_enum("capability", c)),
        })
    }

    fn set_capability(&mut self, cap: u32, on: bool) -> Result<()> {
        Self::capability(&mut self.st, cap, on)
    }

    fn capability(st: &mut GlState, cap: u32, on: bool) -> Result<()> {
        use state::tex_enable as te;
        let unit = st.active_texture as usize;
        let set_tex = |st: &mut GlState, bit: u8| {
            if let Some(e) = st.texture_enables.get_mut(unit) {
                if on {
                    *e |= bit
                } else {
                    *e &= !bit
                }
            }
        };
        match cap {
            gl::DEPTH_TEST => st.depth_test = on,
            gl::STENCIL_TEST => st.stencil_test = on,
            gl::BLEND => st.draw_blend.iter_mut().for_each(|b| b.enabled = on),
            gl::SCISSOR_TEST => st.scissor_test = if on { !0 } else { 0 },
            gl::CULL_FACE => st.cull_face = on,
            gl::POLYGON_OFFSET_FILL => st.polygon_offset_fill = on,
            gl::POLYGON_OFFSET_LINE => st.polygon_offset_line = on,
            gl::POLYGON_OFFSET_POINT => st.polygon_offset_point = on,
            gl::MULTISAMPLE => st.multisample = on,
            gl::SAMPLE_SHADING => st.sample_shading = on,
            gl::SAMPLE_ALPHA_TO_COVERAGE => st.alpha_to_coverage = on,
            gl::SAMPLE_ALPHA_TO_ONE => st.alpha_to_one = on,
            gl::SAMPLE_MASK => st.sample_mask_enabled = on,
            gl::DEPTH_CLAMP => st.depth_clamp = on,
            gl::RASTERIZER_DISCARD => st.rasterizer_discard = on,
            gl::PROGRAM_POINT_SIZE => st.program_point_size = on,
            gl::VERTEX_PROGRAM_TWO_SIDE => st.two_side = on,
            gl::POINT_SPRITE => st.point_sprite = on,
            gl::PRIMITIVE_RESTART => st.primitive_restart = on,
            gl::FRAMEBUFFER_SRGB => st.framebuffer_srgb = on,
            gl::COLOR_LOGIC_OP => st.logic_op = on,
            gl::FOG => st.fog_enabled = on,
            gl::LIGHTING => st.lighting = on,
            gl::TEXTURE_1D => set_tex(st, te::T1D),
            gl::TEXTURE_2D => set_tex(st, te::T2D),
            gl::TEXTURE_3D => set_tex(st, te::T3D),
            gl::TEXTURE_CUBE_MAP => set_tex(st, te::CUBE),
            gl::TEXTURE_RECTANGLE => set_tex(st, te::RECT),
            gl::VERTEX_PROGRAM_ARB => st.program_enabled[0] = on,
            gl::FRAGMENT_PROGRAM_ARB | gl::FRAGMENT_PROGRAM_NV => st.program_enabled[1] = on,
            gl::GEOMETRY_PROGRAM_NV => st.program_enabled[2] = on,
            gl::TESS_CONTROL_PROGRAM_NV => st.program_enabled[3] = on,
            gl::TESS_EVALUATION_PROGRAM_NV => st.program_enabled[4] = on,
            gl::COMPUTE_PROGRAM_NV => st.program_enabled[5] = on,
            // Accepted and without effect on what glemu renders (smoothing, dither and
            // texgen are not part of the program paths).
            gl::NORMALIZE => st.normalize = on,
            gl::COLOR_MATERIAL => st.color_material = on,
            gl::COLOR_SUM => st.color_sum = on,
            gl::DITHER | gl::LINE_SMOOTH | gl::POINT_SMOOTH | gl::POLYGON_SMOOTH => {}
            c if (gl::CLIP_PLANE0..gl::CLIP_PLANE0 + state::MAX_CLIP_PLANES as u32)
                .contains(&c) =>
            {
                let bit = 1 << (c - gl::CLIP_PLANE0);
                if on {
                    st.clip_enabled |= bit
                } else {
                    st.clip_enabled &= !bit
                }
            }
            c if (gl::LIGHT0..gl::LIGHT0 + state::MAX_LIGHTS as u32).contains(&c) => {
                st.light_enabled[(c - gl::LIGHT0) as usize] = on
            }
            c if c == gl::ALPHA_TEST || (gl::TEXTURE_GEN_S..=gl::TEXTURE_GEN_Q).contains(&c) => {
                if on {
                    return Err(Error::not_supported(format!("capability {}", gl::name(c))));
                }
            }
            c => return Err(Error::invalid_enum("capability", c)),
        }
        Ok(())
    }
}
