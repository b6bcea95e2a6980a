//! Errors a draw, clear or readback can report.

use thiserror::Error;

/// Everything that can go wrong inside the rasterizer.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RasterError {
    /// The fragment shader reported an error (e.g. its instruction budget ran out).
    #[error("fragment shader: {0}")]
    Shader(String),
    /// The input refers to something that does not exist (vertex index, render target...).
    #[error("invalid input: {0}")]
    Invalid(String),
    /// A feature this rasterizer does not implement.
    #[error("not supported: {0}")]
    NotSupported(String),
    /// The draw ran past its [`crate::Deadline`] (the per-draw watchdog).
    #[error("the draw ran past its time limit of {0:?} and was stopped")]
    TimedOut(std::time::Duration),
    /// Building the worker thread pool failed.
    #[error("thread pool: {0}")]
    ThreadPool(String),
}

/// The error a [`crate::FragmentShader`] returns; it is passed through as
/// [`RasterError::Shader`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct ShaderError(pub String);

impl From<ShaderError> for RasterError {
    fn from(e: ShaderError) -> Self {
        RasterError::Shader(e.0)
    }
}
