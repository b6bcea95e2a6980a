//! `glemu::Context`: GL objects and state with entry points named after GL's, each
//! returning `Result<_, glemu::Error>` whose error carries the GL error it stands for.
//!
//! The Context's calls are grouped by the chapter of the GL 4.6 (compatibility profile)
//! specification they come from, one module per group, declared below in chapter order
//! so the documentation lists them that way; each `impl Context` block's heading names
//! its chapter. `state` holds the plain GL state, `params` resolves a program's
//! parameter slots per draw, `snapshot` and `draw` build and submit draws.

// The plain GL state and the draw snapshot; context creation and capabilities (chapters
// 10.2, 14, 17) are in this file, listed last.
pub(crate) mod snapshot;

pub(crate) mod state;

mod names;

// Chapter 4: queries.
pub mod queries;

// Chapter 5: object names.
mod create;

mod is_object;

// Chapter 6: buffer objects.
pub mod buffers;

mod buffer_storage;

mod mapping;

mod buffer_clear;

// Chapter 8: textures and samplers.
pub mod textures;

mod tex_upload;

mod tex_storage;

mod tex_copy;

mod samplers;

pub mod images;

// Chapter 9: framebuffer objects.
pub mod fbo;

mod render_texture;

// Chapter 10: vertex specification and drawing.
pub mod arrays;

mod attrib_binding;

mod draw;

mod draw_multi;

mod limits;
pub use limits::DEFAULT_DRAW_TIME_LIMIT;

// Chapter 11: assembly programs.
pub mod programs;

pub(crate) mod params;

mod param_buffers;

mod program_query;

pub mod subroutines;

mod executors;

// Chapter 12: fixed-function vertex processing.
mod legacy_state;

mod fixed;

// Chapter 13: transform feedback, viewports.
pub mod xfb;

mod xfb_objects;

mod viewports;

// glemu's own: the pixel `glemu trace` follows through draws.
mod trace;

// Chapter 17: writing to the framebuffer.
pub mod framebuffer;

mod clear_buffer;

mod draw_buffers;

// Chapter 18: reading pixels.
pub mod readback;

// Chapter 19: compute (NV_compute_program5 dispatches).
pub mod compute;

// Chapter 22: state queries.
mod get;

use crate::error::{Error, GlError, Result};
use crate::gl;
use glemu_pipeline::GpuMemory;
use programs::Programs;
use state::GlState;
use std::sync::Arc;

/// Most rasterizer threads a context starts (`set_threads`).
///
/// ```
/// use glemu::{context::MAX_THREADS, Context, GlError};
/// let mut ctx = Context::new(4, 4).unwrap();
/// ctx.set_threads(2).unwrap();
/// let e = ctx.set_threads(MAX_THREADS + 1).unwrap_err();
/// assert_eq!(e.gl, GlError::InvalidValue);
/// ```
pub const MAX_THREADS: usize = 256;

/// INVALID_ENUM for a texture unit index past `count` (GL takes `TEXTUREi` enums; the
/// API takes `i`, so the message names the index rather than a wrapped enum).
pub(crate) fn bad_texture_unit(unit: u32, count: usize) -> Error {
    Error::new(
        GlError::InvalidEnum,
        format!("texture unit {unit} (max {})", count.saturating_sub(1)),
    )
}

/// `MAX_VIEWPORT_DIMS` (each side): `viewport` clamps sizes to it.
pub(crate) const MAX_VIEWPORT_DIM: i32 = crate::caps::MAX_VIEWPORT_DIM;
/// `VIEWPORT_BOUNDS_RANGE`: `viewport` clamps its origin to it (GL 4.6 section 13.6.1),
/// which keeps every window coordinate of a draw far inside the rasterizer's range.
pub(crate) const VIEWPORT_BOUNDS_RANGE: [i32; 2] = [-32768, 32767];

/// A GL context: the objects and state a sequence of GL calls builds, and draws that
/// render into its framebuffer. `Send`, so it can move to a worker thread.
///
/// ```
/// use glemu::{gl, Context};
/// let mut ctx = Context::new(64, 32).unwrap();
/// ctx.enable(gl::DEPTH_TEST).unwrap();
/// ctx.depth_func(gl::LEQUAL).unwrap();
/// assert!(ctx.is_enabled(gl::DEPTH_TEST).unwrap());
/// ```
///
/// The calls are grouped below by GL chapter, one heading per group.
///
#[doc = include_str!("bindings.md")]
#[derive(Debug)]
pub struct Context {
    pub(crate) st: GlState,
    pub(crate) programs: Programs,
    pub(crate) buffers: buffers::Buffers,
    pub(crate) arrays: arrays::Arrays,
    pub(crate) xfb: xfb::Xfb,
    pub(crate) queries: queries::Queries,
    /// The pixel `glemu trace` follows through every draw ([`Context::set_fragment_trace`]).
    pub(crate) trace: Option<Arc<glemu_pipeline::FragmentTrace>>,
    pub(crate) memory: Arc<GpuMemory>,
    pub(crate) fb: glemu_raster::Framebuffer,
    pub(crate) rasterizer: Arc<glemu_raster::Rasterizer>,
    pub(crate) fixed: fixed::FixedCache,
    pub(crate) executors: executors::Executors,
    pub(crate) fbos: fbo::Fbos,
    pub(crate) textures: textures::Textures,
    pub(crate) subroutines: subroutines::Subroutines,
    pub(crate) images: images::Images,
    pub(crate) limits: limits::Limits,
    pub(crate) width: u32,
    pub(crate) height: u32,
}

fn check_func(f: u32) -> Result<u32> {
    if (gl::NEVER..=gl::ALWAYS).contains(&f) {
        Ok(f)
    } else {
        Err(Error::invalid_enum("comparison function", f))
    }
}

fn check_blend_factor(f: u32) -> Result<u32> {
    match f {
        gl::ZERO
        | gl::ONE
        | gl::SRC_COLOR..=gl::SRC_ALPHA_SATURATE
        | gl::CONSTANT_COLOR..=gl::ONE_MINUS_CONSTANT_ALPHA
        | gl::SRC1_ALPHA
        | gl::SRC1_COLOR..=gl::ONE_MINUS_SRC1_ALPHA => Ok(f),
        _ => Err(Error::invalid_enum("blend factor", f)),
    }
}

/// src rgb, dst rgb, src alpha, dst alpha, each checked.
fn check_blend_factors(f: [u32; 4]) -> Result<[u32; 4]> {
    for v in f {
        check_blend_factor(v)?;
    }
    Ok(f)
}

fn check_blend_equation(e: u32) -> Result<u32> {
    match e {
        gl::FUNC_ADD | gl::MIN | gl::MAX | gl::FUNC_SUBTRACT | gl::FUNC_REVERSE_SUBTRACT => Ok(e),
        _ => Err(Error::invalid_enum("blend equation", e)),
    }
}

fn check_stencil_op(o: u32) -> Result<u32> {
    match o {
        gl::KEEP
        | gl::ZERO
        | gl::REPLACE
        | gl::INCR
        | gl::DECR
        | gl::INVERT
        | gl::INCR_WRAP
        | gl::DECR_WRAP => Ok(o),
        _ => Err(Error::invalid_enum("stencil operation", o)),
    }
}

fn check_face(f: u32) -> Result<u32> {
    match f {
        gl::FRONT | gl::BACK | gl::FRONT_AND_BACK => Ok(f),
        _ => Err(Error::invalid_enum("face", f)),
    }
}

fn faces(face: u32) -> &'static [usize] {
    match face {
        gl::FRONT => &[0],
        gl::BACK => &[1],
        _ => &[0, 1],
    }
}

/// # Context creation, capabilities and fixed-function state
///
/// `new`, `enable`/`disable`, depth, stencil, blending, colour masks (chapter 17), culling,
/// polygon and point state (chapter 14), current vertex attributes (chapter 10.2) and patch
/// parameters (chapter 10.1.15).
impl Context {
    /// A context with a `width`×`height` RGBA8 framebuffer (single-sampled) plus a
    /// 24/8 depth-stencil buffer, in GL's initial state.
    ///
    /// ```
    /// let ctx = glemu::Context::new(250, 250).unwrap();
    /// assert_eq!(ctx.size(), (250, 250));
    /// assert!(glemu::Context::new(0, 1).is_err());
    /// ```
    pub fn new(width: u32, height: u32) -> Result<Context> {
        Context::with_samples(width, height, 1)
    }

    /// Like [`Context::new`] with `samples` samples per pixel (1, 2, 4, 8, 16).
    ///
    /// ```
    /// let ctx = glemu::Context::with_samples(16, 16, 4).unwrap();
    /// assert_eq!(ctx.size(), (16, 16));
    /// ```
    pub fn with_samples(width: u32, height: u32, samples: u32) -> Result<Context> {
        let max = crate::caps::MAX_TEXTURE_SIZE;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(Error::invalid_value(format!(
                "framebuffer size {width}x{height} is not 1..={max}"
            )));
        }
        Ok(Context {
            st: GlState::new(width, height),
            programs: Programs::default(),
            buffers: Default::default(),
            arrays: Default::default(),
            xfb: Default::default(),
            queries: Default::default(),
            trace: None,
            memory: Arc::new(GpuMemory::new()),
            fb: framebuffer::new_framebuffer(width, height, samples)?,
            rasterizer: Arc::new(
                glemu_raster::Rasterizer::new(0).map_err(|e| {
                    Error::out_of_memory(format!("cannot start the rasterizer: {e}"))
                })?,
            ),
            fixed: Default::default(),
            executors: Default::default(),
            fbos: Default::default(),
            textures: Default::default(),
            subroutines: Default::default(),
            images: Default::default(),
            limits: Default::default(),
            width,
            height,
        })
    }

    /// Uses `threads` rasterizer worker threads (0 = one per CPU). The image does not
    /// depend on the count.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.set_threads(1).unwrap();
    /// ```
    pub fn set_threads(&mut self, threads: usize) -> Result<()> {
        if threads > MAX_THREADS {
            return Err(Error::invalid_value(format!(
                "{threads} rasterizer threads (max {MAX_THREADS})"
            )));
        }
        self.rasterizer = Arc::new(
            glemu_raster::Rasterizer::new(threads)
                .map_err(|e| Error::out_of_memory(format!("cannot start the rasterizer: {e}")))?,
        );
        Ok(())
    }

    /// Framebuffer size in pixels.
    ///
    /// ```
    /// assert_eq!(glemu::Context::new(3, 2).unwrap().size(), (3, 2));
    /// ```
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

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

    /// `glDepthFunc`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.depth_func(gl::GREATER).unwrap();
    /// assert_eq!(ctx.depth_func(gl::BLEND).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn depth_func(&mut self, func: u32) -> Result<()> {
        self.st.depth_func = check_func(func)?;
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
        let face = check_face(face)?;
        let func = check_func(func)?;
        for &f in faces(face) {
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
        let face = check_face(face)?;
        let ops = [
            check_stencil_op(sfail)?,
            check_stencil_op(dpfail)?,
            check_stencil_op(dppass)?,
        ];
        for &f in faces(face) {
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
        for &f in faces(check_face(face)?) {
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
        let func = check_blend_factors([src, dst, src_a, dst_a])?;
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
        let eq = [check_blend_equation(rgb)?, check_blend_equation(alpha)?];
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
        let func = check_blend_factors([src, dst, src_a, dst_a])?;
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
        let eq = [check_blend_equation(rgb)?, check_blend_equation(alpha)?];
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

    /// `glCullFace`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.cull_face(gl::FRONT).unwrap();
    /// ```
    pub fn cull_face(&mut self, face: u32) -> Result<()> {
        self.st.cull_mode = check_face(face)?;
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
        match mode {
            gl::CW | gl::CCW => self.st.front_face = mode,
            m => return Err(Error::invalid_enum("front face", m)),
        }
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
        let face = check_face(face)?;
        if !matches!(mode, gl::POINT | gl::LINE | gl::FILL) {
            return Err(Error::invalid_enum("polygon mode", mode));
        }
        for &f in faces(face) {
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

    /// `glShadeModel`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.shade_model(gl::FLAT).unwrap();
    /// ```
    pub fn shade_model(&mut self, mode: u32) -> Result<()> {
        match mode {
            gl::FLAT | gl::SMOOTH => self.st.shade_model = mode,
            m => return Err(Error::invalid_enum("shade model", m)),
        }
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
        match mode {
            gl::FIRST_VERTEX_CONVENTION | gl::LAST_VERTEX_CONVENTION => {
                self.st.provoking_vertex = mode
            }
            m => return Err(Error::invalid_enum("provoking vertex", m)),
        }
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

    /// `glActiveTexture` with `unit` as an index (0 = `GL_TEXTURE0`).
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.active_texture(2).unwrap();
    /// assert!(ctx.active_texture(99).is_err());
    /// ```
    pub fn active_texture(&mut self, unit: u32) -> Result<()> {
        if unit as usize >= state::MAX_TEXTURE_UNITS {
            return Err(bad_texture_unit(unit, state::MAX_TEXTURE_UNITS));
        }
        self.st.active_texture = unit;
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
}
