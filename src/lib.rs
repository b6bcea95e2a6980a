//! glemu: a software GPU that runs NVIDIA assembly programs.
//!
//! - [`Context`]: GL objects and state, entry points named after GL's (`program_string`,
//!   `bind_program`, `buffer_data`, `draw_arrays`, ...), each returning
//!   `Result<_, glemu::Error>` where the error carries the GL error it stands for.
//! - [`gl`]: the GL enum values the Context takes.
//! - [`scene`]: piglit `.shader_test` scene files run through the public Context API.
//! - [`cli`]: the `glemu` command line (check, run, render, bench, info).
//! - [`programs`]: the assembler and the compiled form, usable without a context.
//! - [`caps`]: what glemu claims (limits, extensions, version), in one place.

#![warn(missing_docs)]

pub mod caps;
pub mod cli;
pub mod context;
pub mod error;
pub mod gl;
pub mod scene;

pub use context::queries::PipelineStatistics;
pub use context::Context;
pub use error::{Cause, Error, GlError, ProgramLocation, Result};
pub use glemu_pipeline::{
    FragmentTrace, OpsState, PipelineError, PipelineErrorKind, TracedFragment,
};

/// The assembler and executor crate, `glemu-programs`: `programs::assemble` turns text
/// into the checked, compiled `programs::Program` that `Context::program` returns, whose
/// interface (inputs, outputs, parameters, textures, ...) is in `programs::ir`.
pub use glemu_programs as programs;
