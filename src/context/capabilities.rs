//! `glEnable` / `glDisable` / `glIsEnabled`: one table says what each capability
//! switches, and all three calls read it.

use super::state::{self, tex_enable, GlState};
use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_programs::Stage;

/// What a capability switches.
#[derive(Copy, Clone)]
enum Switch {
    /// A flag of the state: how to read it and how to set it.
    Flag(fn(&GlState) -> bool, fn(&mut GlState, bool)),
    /// The fixed-function texture target bit of the active unit.
    Texture(u8),
    /// The programs of a stage.
    Program(Stage),
    /// User clip plane / clip distance `n`.
    ClipPlane(u32),
    /// Fixed-function light `n`.
    Light(usize),
    /// Accepted and without effect on what glemu renders (smoothing, dither).
    Ignored,
    /// Accepted when disabled; enabling is "not supported" (alpha test, texgen).
    Unsupported,
}

/// `Switch::Flag` for the boolean field `$f` of the state.
macro_rules! flag {
    ($f:ident) => {
        Switch::Flag(|s| s.$f, |s, on| s.$f = on)
    };
}

/// Every capability with a fixed enum value.
const CAPABILITIES: &[(u32, Switch)] = &[
    (gl::DEPTH_TEST, flag!(depth_test)),
    (gl::STENCIL_TEST, flag!(stencil_test)),
    // BLEND enables every draw buffer's blending and reports draw buffer 0's.
    (
        gl::BLEND,
        Switch::Flag(
            |s| s.draw_blend[0].enabled,
            |s, on| s.draw_blend.iter_mut().for_each(|b| b.enabled = on),
        ),
    ),
    // SCISSOR_TEST switches every viewport's scissor test and reports viewport 0's.
    (
        gl::SCISSOR_TEST,
        Switch::Flag(
            |s| s.scissor_test & 1 != 0,
            |s, on| s.scissor_test = if on { !0 } else { 0 },
        ),
    ),
    (gl::CULL_FACE, flag!(cull_face)),
    (gl::POLYGON_OFFSET_FILL, flag!(polygon_offset_fill)),
    (gl::POLYGON_OFFSET_LINE, flag!(polygon_offset_line)),
    (gl::POLYGON_OFFSET_POINT, flag!(polygon_offset_point)),
    (gl::MULTISAMPLE, flag!(multisample)),
    (gl::SAMPLE_SHADING, flag!(sample_shading)),
    (gl::SAMPLE_ALPHA_TO_COVERAGE, flag!(alpha_to_coverage)),
    (gl::SAMPLE_ALPHA_TO_ONE, flag!(alpha_to_one)),
    (gl::SAMPLE_MASK, flag!(sample_mask_enabled)),
    (gl::DEPTH_CLAMP, flag!(depth_clamp)),
    (gl::RASTERIZER_DISCARD, flag!(rasterizer_discard)),
    (gl::PROGRAM_POINT_SIZE, flag!(program_point_size)),
    (gl::VERTEX_PROGRAM_TWO_SIDE, flag!(two_side)),
    (gl::POINT_SPRITE, flag!(point_sprite)),
    (gl::PRIMITIVE_RESTART, flag!(primitive_restart)),
    (gl::FRAMEBUFFER_SRGB, flag!(framebuffer_srgb)),
    (gl::COLOR_LOGIC_OP, flag!(logic_op)),
    (gl::FOG, flag!(fog_enabled)),
    (gl::LIGHTING, flag!(lighting)),
    (gl::NORMALIZE, flag!(normalize)),
    (gl::COLOR_MATERIAL, flag!(color_material)),
    (gl::COLOR_SUM, flag!(color_sum)),
    (gl::TEXTURE_1D, Switch::Texture(tex_enable::T1D)),
    (gl::TEXTURE_2D, Switch::Texture(tex_enable::T2D)),
    (gl::TEXTURE_3D, Switch::Texture(tex_enable::T3D)),
    (gl::TEXTURE_CUBE_MAP, Switch::Texture(tex_enable::CUBE)),
    (gl::TEXTURE_RECTANGLE, Switch::Texture(tex_enable::RECT)),
    (gl::VERTEX_PROGRAM_ARB, program(gl::VERTEX_PROGRAM_ARB)),
    (gl::FRAGMENT_PROGRAM_ARB, program(gl::FRAGMENT_PROGRAM_ARB)),
    (gl::FRAGMENT_PROGRAM_NV, program(gl::FRAGMENT_PROGRAM_NV)),
    (gl::GEOMETRY_PROGRAM_NV, program(gl::GEOMETRY_PROGRAM_NV)),
    (
        gl::TESS_CONTROL_PROGRAM_NV,
        program(gl::TESS_CONTROL_PROGRAM_NV),
    ),
    (
        gl::TESS_EVALUATION_PROGRAM_NV,
        program(gl::TESS_EVALUATION_PROGRAM_NV),
    ),
    (gl::COMPUTE_PROGRAM_NV, program(gl::COMPUTE_PROGRAM_NV)),
    (gl::DITHER, Switch::Ignored),
    (gl::LINE_SMOOTH, Switch::Ignored),
    (gl::POINT_SMOOTH, Switch::Ignored),
    (gl::POLYGON_SMOOTH, Switch::Ignored),
    (gl::ALPHA_TEST, Switch::Unsupported),
];

/// A program target's switch: its stage as the program calls see it (`target_stage`), so
/// the two cannot disagree.
const fn program(target: u32) -> Switch {
    match super::programs::target_stage(target) {
        Some(s) => Switch::Program(s),
        None => Switch::Unsupported,
    }
}

/// What `cap` switches; `INVALID_ENUM` for anything else.
fn switch(cap: u32) -> Result<Switch> {
    if let Some((_, s)) = CAPABILITIES.iter().find(|(c, _)| *c == cap) {
        return Ok(*s);
    }
    if let Some(n) = cap
        .checked_sub(gl::CLIP_PLANE0)
        .filter(|&n| (n as usize) < state::MAX_CLIP_PLANES)
    {
        return Ok(Switch::ClipPlane(n));
    }
    if let Some(n) = cap
        .checked_sub(gl::LIGHT0)
        .filter(|&n| (n as usize) < state::MAX_LIGHTS)
    {
        return Ok(Switch::Light(n as usize));
    }
    if (gl::TEXTURE_GEN_S..=gl::TEXTURE_GEN_Q).contains(&cap) {
        return Ok(Switch::Unsupported);
    }
    Err(Error::invalid_enum("capability", cap))
}

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
        let st = &self.st;
        Ok(match switch(cap)? {
            Switch::Flag(get, _) => get(st),
            Switch::Texture(bit) => st
                .texture_enables
                .get(st.active_texture as usize)
                .is_some_and(|e| e & bit != 0),
            Switch::Program(s) => st.program_enabled[s],
            Switch::ClipPlane(n) => st.clip_enabled & (1 << n) != 0,
            Switch::Light(n) => st.light_enabled.get(n).copied().unwrap_or(false),
            Switch::Ignored | Switch::Unsupported => false,
        })
    }

    fn set_capability(&mut self, cap: u32, on: bool) -> Result<()> {
        let st = &mut self.st;
        match switch(cap)? {
            Switch::Flag(_, set) => set(st, on),
            Switch::Texture(bit) => {
                if let Some(e) = st.texture_enables.get_mut(st.active_texture as usize) {
                    if on {
                        *e |= bit
                    } else {
                        *e &= !bit
                    }
                }
            }
            Switch::Program(s) => st.program_enabled[s] = on,
            Switch::ClipPlane(n) => {
                if on {
                    st.clip_enabled |= 1 << n
                } else {
                    st.clip_enabled &= !(1 << n)
                }
            }
            Switch::Light(n) => {
                if let Some(e) = st.light_enabled.get_mut(n) {
                    *e = on;
                }
            }
            Switch::Ignored => {}
            Switch::Unsupported => {
                if on {
                    return Err(Error::not_supported(format!(
                        "capability {}",
                        gl::name(cap)
                    )));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every capability glemu switches reads back as set, and only its own state moves.
    #[test]
    fn enable_disable_and_is_enabled_agree() {
        let caps = CAPABILITIES
            .iter()
            .map(|(c, _)| *c)
            .chain((0..state::MAX_CLIP_PLANES as u32).map(|n| gl::CLIP_PLANE0 + n))
            .chain((0..state::MAX_LIGHTS as u32).map(|n| gl::LIGHT0 + n));
        for cap in caps {
            let mut ctx = Context::new(4, 4).unwrap();
            let before = ctx.is_enabled(cap).unwrap();
            match switch(cap).unwrap() {
                Switch::Ignored => {
                    ctx.enable(cap).unwrap();
                    assert!(!ctx.is_enabled(cap).unwrap());
                }
                Switch::Unsupported => {
                    assert!(ctx.enable(cap).is_err());
                    ctx.disable(cap).unwrap();
                    assert!(!ctx.is_enabled(cap).unwrap());
                }
                _ => {
                    ctx.enable(cap).unwrap();
                    assert!(ctx.is_enabled(cap).unwrap(), "{}", gl::name(cap));
                    ctx.disable(cap).unwrap();
                    assert!(!ctx.is_enabled(cap).unwrap(), "{}", gl::name(cap));
                    // Only MULTISAMPLE starts enabled.
                    assert_eq!(before, cap == gl::MULTISAMPLE, "{}", gl::name(cap));
                }
            }
        }
        let mut ctx = Context::new(4, 4).unwrap();
        ctx.enable(gl::LIGHT0 + 1).unwrap();
        assert!(!ctx.is_enabled(gl::LIGHT0).unwrap());
        assert!(ctx.enable(gl::LIGHT0 + state::MAX_LIGHTS as u32).is_err());
        assert!(ctx
            .is_enabled(gl::CLIP_PLANE0 + state::MAX_CLIP_PLANES as u32)
            .is_err());
    }
}
