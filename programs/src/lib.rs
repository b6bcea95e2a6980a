//! glemu-programs: assembly program text → checked program → compiled form → execution.
//!
//! - [`assemble()`] reads a program of any supported dialect (its `!!` header decides) and
//!   returns the compiled [`ir::Program`] or a [`ProgramError`] with the byte position and a
//!   message naming the token and the rule.
//! - [`exec`] runs a compiled program over a batch of lanes.
//!
//! This crate depends on no other glemu crate: what it needs from the rest of the GPU
//! (texture lookups, buffer memory, counters, interpolation, geometry output) it states as
//! traits that `glemu-pipeline` implements.

#![warn(missing_docs)]

pub mod assemble;
pub mod compile;
pub mod error;
pub mod exec;
pub mod front;
mod header;
pub mod ir;
pub(crate) mod legacy;
pub(crate) mod lexer;
pub(crate) mod parse;
pub mod print;
pub(crate) mod slots;
pub mod span;
pub mod validate;

pub use assemble::{assemble, assemble_with, detect_header, Header};
pub use error::{ErrorKind, ProgramError};
pub use front::limits::Limits;
pub use ir::{Program, Stage};
