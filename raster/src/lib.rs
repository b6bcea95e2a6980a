//! glemu-raster: turns clipped, viewport-transformed primitives into fragments and writes
//! them to a [`Framebuffer`].
//!
//! - [`setup`]: fixed-point (8 subpixel bits) edge functions with the fill rule of
//!   DESIGN.md, face culling, polygon modes and offset, diamond-exit lines (rectangles
//!   when multisampled), points/sprites,
//!   and attribute plane equations.
//! - [`draw`]: bins primitives into 64×64 tiles and rasterizes tiles on a rayon pool,
//!   primitives in submission order within a tile, so output is thread-count independent.
//! - [`shader`]: the [`FragmentShader`] trait the pipeline implements and the
//!   [`FragmentBatch`] (16 lanes = 4 quads of one primitive) it receives.
//! - [`fragops`]: depth/stencil tests, blending, logic ops, colour masks, sRGB.
//! - [`framebuffer`]: tile-major per-sample storage, clears, readback and resolve.
//!
//! A draw, as the pipeline makes one:
//!
//! ```text
//! let raster = Rasterizer::new(threads)?;                 // once; owns the worker pool
//! let mut fb = Framebuffer::new(w, h, samples, &[ColorFormat::Rgba8Unorm], DepthFormat::D24S8)?;
//! let mut input = DrawInput::new(scalar_varyings_per_vertex);
//! let v0 = input.push_vertex(WindowVertex { pos: [xw, yw, zw, 1/wc], point_size: -1.0 }, &bits);
//! input.primitives.push(Primitive::triangle([v0, v1, v2], provoking, primitive_id));
//! let stats = raster.draw(&mut fb, &draw_state, &input, &shader)?; // shader: impl FragmentShader
//! ```
//!
//! Fragment depth and stencil results are thread-count independent; so are colours, as
//! long as the shader itself is deterministic.

// Lane loops index several fixed-size per-lane arrays in step; that is the shape that
// vectorizes, so the iterator rewrite clippy suggests would only obscure it.
#![allow(clippy::needless_range_loop)]
#![warn(missing_docs)]

mod bin;
pub mod blit;
mod block;
pub mod color;
mod deadline;
pub mod draw;
mod draw_ctx;
pub mod error;
pub mod fragops;
pub mod framebuffer;
pub mod input;
mod lanes;
mod pack;
pub mod samples;
pub mod setup;
pub mod shader;
mod shader_info;
pub mod simd;
pub mod state;
mod tile;

pub use blit::{Blit, BlitFilter, BlitTexels};
pub use color::ColorFormat;
pub use deadline::Deadline;
pub use draw::{DrawStats, PrimitiveSource, Rasterizer, CHUNK_PRIMS};
pub use error::{RasterError, ShaderError};
pub use framebuffer::{DepthFormat, Framebuffer, TILE};
pub use input::{DrawInput, Primitive, PrimitiveKind, WindowVertex};
pub use shader::{
    flat_strips, perspective_strips, shade_block_by_strips, shade_samples_by_strips, store_block,
    store_block_flat, store_block_samples, store_strip, store_strip_samples, BlockRows,
    FragmentBatch, FragmentOutputs, FragmentShader, InterpLocation, InterpMode, SampleRows,
    ShaderInfo, Strip, StripColors, VaryingInterp, LANES, QUADS_PER_BATCH,
};
pub use state::*;
