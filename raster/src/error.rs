//! Errors a draw, clear or readback can report.

use std::sync::Arc;
use thiserror::Error;

/// Everything that can go wrong inside the rasterizer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RasterError {
    /// The fragment shader reported an error (e.g. its instruction budget ran out); the
    /// shader's own error is the source.
    #[error("fragment shader: {0}")]
    Shader(#[source] ShaderError),
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

/// The error a [`crate::FragmentShader`] returns, passed through as
/// [`RasterError::Shader`]. The rasterizer does not know what runs the shader, so it
/// carries the shader's own error as a value: the caller gets it back with
/// [`ShaderError::downcast_ref`] (the pipeline recovers the program's run-time error and
/// the instruction it stopped at).
///
/// ```
/// use glemu_raster::{RasterError, ShaderError};
/// let e = RasterError::from(ShaderError::new(std::fmt::Error));
/// let RasterError::Shader(s) = &e else { unreachable!() };
/// assert!(s.downcast_ref::<std::fmt::Error>().is_some());
/// assert_eq!(e.to_string(), format!("fragment shader: {}", std::fmt::Error));
/// ```
#[derive(Debug, Clone, Error)]
#[error("{0}")]
pub struct ShaderError(Arc<dyn std::error::Error + Send + Sync>);

impl ShaderError {
    /// Wraps the shader's error (a `&str` or `String` works too).
    pub fn new(e: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> ShaderError {
        ShaderError(Arc::from(e.into()))
    }

    /// The shader's error, if it is an `E`.
    pub fn downcast_ref<E: std::error::Error + 'static>(&self) -> Option<&E> {
        self.0.downcast_ref::<E>()
    }
}

/// Two shader errors are equal when they say the same (the wrapped types need not be
/// comparable).
impl PartialEq for ShaderError {
    fn eq(&self, o: &ShaderError) -> bool {
        Arc::ptr_eq(&self.0, &o.0) || self.0.to_string() == o.0.to_string()
    }
}

impl Eq for ShaderError {}

impl From<ShaderError> for RasterError {
    fn from(e: ShaderError) -> Self {
        RasterError::Shader(e)
    }
}
