//! glemu-pipeline: a draw call end to end (see ARCHITECTURE.md).
//!
//! The Context snapshots GL state into a [`DrawState`] and calls [`draw`] with the
//! framebuffer, a [`glemu_raster::Rasterizer`] and its [`XfbState`]:
//!
//! 1. [`vertex_stage`] — vertex fetch ([`fetch`]: every attribute format, index buffers,
//!    restart, instancing) and the vertex program in batches, with a post-transform cache.
//! 2. [`assembly`] — primitives for every draw mode (adjacency, patches, provoking vertex).
//! 3. [`tess`] + [`tessellator`] — control program, fixed-function primitive generator,
//!    evaluation program.
//! 4. [`geometry`] — geometry programs with invocations, EMIT/EMITS/ENDPRIM and streams.
//! 5. [`xfb`] — stream-out.
//! 6. [`clip`] — frustum/user clipping, guard band, viewport transform.
//! 7. [`fragment`] — the fragment program as the rasterizer's shader.
//!
//! Programs reach buffers, textures and the GPU address space ([`memory`]) through
//! [`env`]. Errors are [`PipelineError`] values, never panics.

// Lane loops index several SoA arrays with the same lane number, which reads better as
// `for i in 0..n` than as zipped iterators.
#![allow(clippy::needless_range_loop)]

pub mod assembly;
pub mod clip;
pub mod draw;
pub mod env;
pub mod error;
pub mod fetch;
pub mod fragment;
pub mod geometry;
pub mod memory;
pub mod state;
pub mod tess;
pub mod tessellator;
pub mod vertex_stage;
pub mod vertices;
pub mod xfb;

pub use assembly::{PrimClass, PrimitiveMode};
pub use draw::draw;
pub use error::{PipelineError, PipelineErrorKind};
pub use memory::{Buffer, GpuMemory};
pub use state::*;
pub use xfb::{XfbAttrib, XfbBinding, XfbMode, XfbState};

#[cfg(test)]
mod draw_tests;

#[cfg(test)]
mod proptests;
