//! The one error type of a draw call. Errors are values: nothing a scene, a program or an
//! index buffer can contain makes the pipeline panic.

use std::fmt;

/// Why a draw (or a memory/buffer operation) failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineError {
    pub kind: PipelineErrorKind,
    pub message: String,
}

/// Broad class of a [`PipelineError`], so callers can map it to a GL error.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PipelineErrorKind {
    /// The draw's state is inconsistent (GL would raise INVALID_OPERATION).
    InvalidOperation,
    /// A value is out of range (GL INVALID_VALUE).
    InvalidValue,
    /// The draw would need more memory than the pipeline allows itself.
    OutOfMemory,
    /// A program failed while running (instruction budget, call stack, ...).
    Execution,
    /// The draw ran past its time limit (the per-draw watchdog) and was stopped.
    TimedOut,
    /// A valid feature glemu does not implement yet.
    NotSupported,
}

impl PipelineError {
    pub fn new(kind: PipelineErrorKind, message: impl Into<String>) -> PipelineError {
        PipelineError {
            kind,
            message: message.into(),
        }
    }
    pub fn invalid_op(message: impl Into<String>) -> PipelineError {
        PipelineError::new(PipelineErrorKind::InvalidOperation, message)
    }
    pub fn invalid_value(message: impl Into<String>) -> PipelineError {
        PipelineError::new(PipelineErrorKind::InvalidValue, message)
    }
    pub fn out_of_memory(message: impl Into<String>) -> PipelineError {
        PipelineError::new(PipelineErrorKind::OutOfMemory, message)
    }
    pub fn execution(message: impl Into<String>) -> PipelineError {
        PipelineError::new(PipelineErrorKind::Execution, message)
    }
    /// `not supported: WHAT`.
    pub fn not_supported(what: impl fmt::Display) -> PipelineError {
        PipelineError::new(
            PipelineErrorKind::NotSupported,
            format!("not supported: {what}"),
        )
    }
}

impl fmt::Display for PipelineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PipelineError {}

/// Largest number of vertices/primitives/bytes a single draw may allocate for; anything
/// bigger fails with [`PipelineErrorKind::OutOfMemory`] instead of aborting the process.
pub const MAX_DRAW_ELEMENTS: u64 = 1 << 26;

/// Checks that `n` items may be allocated for one draw.
pub fn check_alloc(n: u64, what: &str) -> Result<usize, PipelineError> {
    if n > MAX_DRAW_ELEMENTS {
        return Err(PipelineError::out_of_memory(format!(
            "{what}: {n} exceeds the per-draw limit of {MAX_DRAW_ELEMENTS}"
        )));
    }
    usize::try_from(n).map_err(|_| PipelineError::out_of_memory(format!("{what}: {n} too large")))
}
