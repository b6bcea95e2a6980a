//! The one error type of a draw call. Errors are values: nothing a scene, a program or an
//! index buffer can contain makes the pipeline panic.

use glemu_programs::exec::ExecError;
use glemu_programs::Stage;
use glemu_raster::RasterError;
use std::fmt;
use std::time::Duration;

/// Why a draw (or a memory/buffer operation) failed. A program that fails while running
/// is [`PipelineError::Program`], carrying the executor's error (the instruction it
/// stopped at) as data, so callers locate it without reading the message.
///
/// ```
/// use glemu_pipeline::{PipelineError, PipelineErrorKind};
/// let e = PipelineError::invalid_value("offset 9 past the end");
/// assert_eq!(e.kind(), PipelineErrorKind::InvalidValue);
/// assert_eq!(e.to_string(), "offset 9 past the end");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PipelineError {
    /// A program stopped with a run-time error (instruction budget, call stack, an
    /// environment failure ...).
    #[error("{}: {source}", ProgramName(*.stage, *.work_group))]
    Program {
        /// The stage whose program failed.
        stage: Stage,
        /// The compute work group it ran for (compute only).
        work_group: Option<[u32; 3]>,
        /// The executor's error: the instruction index and its span in the program text.
        #[source]
        source: ExecError,
    },
    /// The draw ran past its time limit (the per-draw watchdog) and was stopped.
    #[error(
        "the draw ran past its time limit of {:.3} s and was stopped \
         (Context::set_draw_time_limit, glemu --timeout)",
        .limit.as_secs_f64()
    )]
    TimedOut {
        /// The limit it ran past.
        limit: Duration,
    },
    /// The rasterizer failed for a reason of its own.
    #[error(transparent)]
    Raster(RasterError),
    /// The draw's state is inconsistent (GL would raise INVALID_OPERATION).
    #[error("{0}")]
    InvalidOperation(String),
    /// A value is out of range (GL INVALID_VALUE).
    #[error("{0}")]
    InvalidValue(String),
    /// The draw would need more memory than the pipeline allows itself.
    #[error("{0}")]
    OutOfMemory(String),
    /// A valid feature glemu does not implement yet.
    #[error("not supported: {0}")]
    NotSupported(String),
}

/// How a failed program names itself: "fragment program", "compute program, work
/// group (1, 0, 0)".
struct ProgramName(Stage, Option<[u32; 3]>);

impl fmt::Display for ProgramName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Stage::Vertex => "vertex program",
            Stage::TessControl => "tessellation control program",
            Stage::TessEval => "tessellation evaluation program",
            Stage::Geometry => "geometry program",
            Stage::Fragment => "fragment program",
            Stage::Compute => "compute program",
        })?;
        match self.1 {
            Some([x, y, z]) => write!(f, ", work group ({x}, {y}, {z})"),
            None => Ok(()),
        }
    }
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
    /// A program or the rasterizer failed while running (instruction budget, call
    /// stack, ...).
    Execution,
    /// The draw ran past its time limit (the per-draw watchdog) and was stopped.
    TimedOut,
    /// A valid feature glemu does not implement yet.
    NotSupported,
}

impl PipelineError {
    /// The error's class.
    pub fn kind(&self) -> PipelineErrorKind {
        match self {
            PipelineError::Program { .. } | PipelineError::Raster(_) => {
                PipelineErrorKind::Execution
            }
            PipelineError::TimedOut { .. } => PipelineErrorKind::TimedOut,
            PipelineError::InvalidOperation(_) => PipelineErrorKind::InvalidOperation,
            PipelineError::InvalidValue(_) => PipelineErrorKind::InvalidValue,
            PipelineError::OutOfMemory(_) => PipelineErrorKind::OutOfMemory,
            PipelineError::NotSupported(_) => PipelineErrorKind::NotSupported,
        }
    }
    /// A program of `stage` failed.
    pub fn program(stage: Stage, source: ExecError) -> PipelineError {
        PipelineError::Program {
            stage,
            work_group: None,
            source,
        }
    }
    /// [`PipelineError::InvalidOperation`].
    pub fn invalid_op(message: impl Into<String>) -> PipelineError {
        PipelineError::InvalidOperation(message.into())
    }
    /// [`PipelineError::InvalidValue`].
    pub fn invalid_value(message: impl Into<String>) -> PipelineError {
        PipelineError::InvalidValue(message.into())
    }
    /// [`PipelineError::OutOfMemory`].
    pub fn out_of_memory(message: impl Into<String>) -> PipelineError {
        PipelineError::OutOfMemory(message.into())
    }
    /// `not supported: WHAT`.
    pub fn not_supported(what: impl fmt::Display) -> PipelineError {
        PipelineError::NotSupported(what.to_string())
    }
}

/// The rasterizer's errors: a fragment program's run-time error comes back as
/// [`PipelineError::Program`], the watchdog as [`PipelineError::TimedOut`].
impl From<RasterError> for PipelineError {
    fn from(e: RasterError) -> PipelineError {
        match e {
            RasterError::TimedOut(limit) => PipelineError::TimedOut { limit },
            RasterError::Shader(s) => match s.downcast_ref::<ExecError>() {
                Some(x) => PipelineError::program(Stage::Fragment, x.clone()),
                None => PipelineError::Raster(RasterError::Shader(s)),
            },
            RasterError::NotSupported(m) => PipelineError::NotSupported(m),
            e => PipelineError::Raster(e),
        }
    }
}

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
