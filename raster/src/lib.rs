//! glemu-raster: turns clipped, viewport-transformed primitives into fragments and writes
//! them to a [`Framebuffer`].
//!
//! - [`setup`]: fixed-point (8 subpixel bits) edge functions with the fill rule of
//!   DESIGN.md, face culling, polygon modes and offset, diamond-exit lines, points/sprites,
//!   and attribute plane equations.
//! - [`draw`]: bins primitives into 64×64 tiles and rasterizes tiles on a rayon pool,
//!   primitives in submission order within a tile, so output is thread-count independent.
//! - [`shader`]: the [`FragmentShader`] trait the pipeline implements and the
//!   [`FragmentBatch`] (16 lanes = 4 quads of one primitive) it receives.
//! - [`fragops`]: depth/stencil tests, blending, logic ops, colour masks, sRGB.
//! - [`framebuffer`]: tile-major per-sample storage, clears, readback and resolve.

// Lane loops index several fixed-size per-lane arrays in step; that is the shape that
// vectorizes, so the iterator rewrite clippy suggests would only obscure it.
#![allow(clippy::needless_range_loop)]

pub mod color;
pub mod draw;
pub mod error;
pub mod fragops;
pub mod framebuffer;
pub mod input;
pub mod samples;
pub mod setup;
pub mod shader;
pub mod state;
mod tile;

pub use color::ColorFormat;
pub use draw::{DrawStats, Rasterizer};
pub use error::{RasterError, ShaderError};
pub use framebuffer::{DepthFormat, Framebuffer, TILE};
pub use input::{DrawInput, Primitive, PrimitiveKind, WindowVertex};
pub use shader::{
    FragmentBatch, FragmentOutputs, FragmentShader, InterpLocation, InterpMode, ShaderInfo,
    VaryingInterp, LANES, QUADS_PER_BATCH,
};
pub use state::*;
