//! glemu-pipeline: a draw call end to end (see ARCHITECTURE.md).
//!
//! - [`memory`]: buffer storage and the emulated GPU address space.
//! - [`fetch`]: vertex attribute formats, arrays, index buffers.
//! - [`assembly`]: primitive assembly for every draw mode.
//! - [`tessellator`]: the fixed-function primitive generator of ARB_tessellation_shader.
//! - [`xfb`]: stream-out (NV_transform_feedback / ARB_transform_feedback3).
//! - [`clip`]: frustum and user clipping, viewport transform.
//! - [`state`]: the per-draw snapshot ([`DrawState`]) the Context builds.

pub mod assembly;
pub mod error;
pub mod fetch;
pub mod memory;
pub mod state;
pub mod tessellator;

pub use assembly::PrimitiveMode;
pub use error::{PipelineError, PipelineErrorKind};
pub use memory::{Buffer, GpuMemory};
pub use state::*;
