//! glemu-pipeline: a draw call end to end (see ARCHITECTURE.md).
//!
//! The Context snapshots GL state into a [`DrawState`] and calls [`draw()`] with the
//! framebuffer (or a [`RenderTarget`] giving one per layer), a [`glemu_raster::Rasterizer`] and its [`XfbState`]:
//!
//! 1. [`vertex_stage`] — vertex fetch ([`fetch`]: every attribute format, index buffers,
//!    restart, instancing) and the vertex program in batches, with a post-transform cache.
//! 2. [`assembly`] — primitives for every draw mode (adjacency, patches, provoking vertex).
//! 3. [`tess`] + [`tessellator`] — control program, fixed-function primitive generator,
//!    evaluation program.
//! 4. [`geometry`] — geometry programs with invocations, EMIT/EMITS/ENDPRIM and streams.
//! 5. [`xfb`] — stream-out.
//! 6. [`clip`] — frustum/user clipping, guard band, viewport transform; [`layer`] routes
//!    each primitive to the layer it selects on a layered target ([`RenderTarget`]).
//! 7. [`fragment`] — the fragment program as the rasterizer's shader.
//!
//! Compute programs run outside the draw: [`compute::dispatch`] runs work groups on
//! every core.
//!
//! Programs reach buffers, textures, image units ([`images`]) and the GPU address space
//! ([`memory`]) through [`mod@env`]. Errors are [`PipelineError`] values, never panics.
//!
//! A whole draw, from program text to pixels:
//!
//! ```
//! use glemu_pipeline::fetch::{AttribBinding, AttribFormat, AttribSlot, VertexArray};
//! use glemu_pipeline::*;
//! use glemu_programs::{assemble, Stage};
//! use glemu_raster::{ColorFormat, DepthFormat, Framebuffer, Rasterizer};
//! use std::sync::Arc;
//!
//! let vp = "!!ARBvp1.0\nMOV result.position, vertex.position;\nEND\n";
//! let fp = "!!ARBfp1.0\nMOV result.color, {0, 1, 0, 1};\nEND\n";
//! let stage = |text: &str, st| {
//!     let p = Arc::new(assemble(text, Some(st)).unwrap());
//!     // Parameters are resolved by the caller: here only literals.
//!     let params = p.params.iter().map(|s| match s {
//!         glemu_programs::ir::ParamSource::Constant(c) => *c,
//!         _ => [0; 4],
//!     }).collect();
//!     StageProgram::new(p, params)
//! };
//! let xy: Vec<u8> = bytemuck::cast_slice(&[-1.0f32, -1.0, 3.0, -1.0, -1.0, 3.0]).to_vec();
//! let state = DrawState {
//!     programs: StagePrograms {
//!         vertex: Some(stage(vp, Stage::Vertex)),
//!         fragment: Some(stage(fp, Stage::Fragment)),
//!         ..Default::default()
//!     },
//!     attribs: vec![AttribBinding {
//!         slot: AttribSlot::Position,
//!         array: Some(VertexArray {
//!             buffer: Buffer::from_bytes(xy),
//!             offset: 0,
//!             stride: 8,
//!             format: AttribFormat::float(2),
//!             divisor: 0,
//!         }),
//!         current: [0, 0, 0, 1.0f32.to_bits()],
//!     }],
//!     call: DrawCall::arrays(PrimitiveMode::Triangles, 0, 3),
//!     vertex: VertexProcessing::new(8, 8),
//!     textures: Vec::new(),
//!     raster: glemu_raster::FixedFunctionState::default(),
//!     counter_buffers: Vec::new(),
//!     storage_buffers: Vec::new(),
//!     memory: Arc::new(GpuMemory::new()),
//!     images: Vec::new(),
//!     layers: None,
//! };
//! let mut fb = Framebuffer::new(8, 8, 1, &[ColorFormat::Rgba8Unorm], DepthFormat::D24S8).unwrap();
//! let stats = draw(&state, &Rasterizer::new(1).unwrap(), &mut fb, None).unwrap();
//! assert_eq!(stats.primitives_generated[0], 1);
//! assert_eq!(fb.read_pixel(0, 4, 4), Some([0.0, 1.0, 0.0, 1.0]));
//! ```

// Lane loops index several SoA arrays with the same lane number, which reads better as
// `for i in 0..n` than as zipped iterators.
#![allow(clippy::needless_range_loop)]
#![warn(missing_docs)]

pub mod assembly;
pub mod clip;
pub mod compute;
pub mod draw;
pub mod env;
pub mod error;
pub mod fetch;
pub mod fragment;
pub mod geometry;
pub mod images;
pub mod layer;
pub mod memory;
mod scratch;
pub mod state;
pub mod tess;
pub mod tessellator;
pub mod trace;
pub mod vertex_stage;
pub mod vertices;
pub mod xfb;

pub use assembly::{PrimClass, PrimitiveMode};
pub use draw::{draw, draw_traced};
pub use error::{PipelineError, PipelineErrorKind};
pub use images::{ImageAccess, ImageUnit};
pub use layer::RenderTarget;
pub use memory::{Buffer, GpuMemory};
pub use state::*;
pub use trace::{FragmentTrace, OpsState, TracedFragment};
pub use xfb::{XfbAttrib, XfbBinding, XfbMode, XfbState};

#[cfg(test)]
mod draw_tests;

#[cfg(test)]
mod proptests;
