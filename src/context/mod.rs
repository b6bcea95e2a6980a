//! `glemu::Context`: GL objects and state with entry points named after GL's, each
//! returning `Result<_, glemu::Error>` whose error carries the GL error it stands for.
//!
//! The Context's calls are grouped by the chapter of the GL 4.6 (compatibility profile)
//! specification they come from, one module per group, declared below in chapter order
//! so the documentation lists them that way; each `impl Context` block's heading names
//! its chapter. `state` holds the plain GL state, `params` resolves a program's
//! parameter slots per draw, `snapshot` and `draw` build and submit draws. This file
//! holds the `Context` struct and its creation (listed last).

// The plain GL state and the draw snapshot.
pub(crate) mod snapshot;

pub(crate) mod state;

// GL enum parameters as Rust enums, parsed once by their setters.
pub(crate) mod gl_enum;

// One value per program stage.
pub(crate) mod stage_map;

mod names;

// enable / disable / is_enabled.
mod capabilities;

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
mod fbo_state;

mod render_texture;

// Chapter 10: vertex specification and drawing.
mod current_values;

pub mod arrays;

mod attrib_binding;

mod draw;

mod draw_multi;

mod limits;
pub use limits::{default_memory_budget, DEFAULT_DRAW_TIME_LIMIT};

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

// Chapter 13: transform feedback, flatshading, clip planes, viewports.
pub mod xfb;

mod xfb_objects;

mod vertex_post;

mod viewports;

// Chapter 14: rasterization.
mod rasterization;

// glemu's own: the pixel `glemu trace` follows through draws.
mod trace;

// Chapter 17: per-fragment operations, writing to the framebuffer.
mod fragment_ops;

pub mod framebuffer;

mod clear_buffer;

mod draw_buffers;

// Chapter 18: reading pixels.
pub mod readback;

// Chapter 19: compute (NV_compute_program5 dispatches).
pub mod compute;

// Chapter 21: hints.
mod hints;

// Chapter 22: state queries.
mod get;

use crate::error::{Error, GlError, Result};
use glemu_pipeline::GpuMemory;
use programs::ProgramObjects;
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
    pub(crate) programs: ProgramObjects,
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

/// # Context creation
///
/// `new`, `with_samples`, the rasterizer's thread count, the framebuffer size.
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
            programs: ProgramObjects::default(),
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
}
