//! glemu: a software GPU that runs NVIDIA assembly programs.
//!
//! - [`Context`]: GL objects and state, entry points named after GL's (`program_string`,
//!   `bind_program`, `buffer_data`, `draw_arrays`, ...), each returning
//!   `Result<_, glemu::Error>` where the error carries the GL error it stands for.
//! - [`gl`]: the GL enum values the Context takes.
//! - [`scene`]: piglit `.shader_test` scene files run through the public Context API.
//! - [`cli`]: the `glemu` command line (check, run, render, bench, info).
//! - [`programs`]: assembling program text without a context.

pub mod cli;
pub mod context;
pub mod error;
pub mod gl;
pub mod scene;

pub use context::Context;
pub use error::{Error, GlError, Result};

/// The assembler's entry points: program text to a checked, compiled [`programs::Program`]
/// (the type `Context::program` returns) or a [`programs::ProgramError`] with the byte
/// position GL reports. The compiled form's internals (instructions, slots, interface
/// tables) are the `glemu-programs` crate's `ir` module.
///
/// ```
/// use glemu::programs::{assemble, Stage};
/// let p = assemble("!!NVvp5.0\nMOV result.position, vertex.position;\nEND\n", None).unwrap();
/// assert_eq!(p.stage, Stage::Vertex);
/// ```
pub mod programs {
    pub use glemu_programs::{
        assemble, detect_header, ErrorKind, Header, Program, ProgramError, Stage,
    };
}
