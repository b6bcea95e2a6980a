//! The error every Context call returns: the GL error it stands for, plus a message.

use glemu_pipeline::{PipelineError, PipelineErrorKind};
use std::fmt;

/// The GL error code an [`Error`] stands for (what `glGetError` would return).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
///
/// ```
/// use glemu::{gl, Context, GlError};
/// let mut ctx = Context::new(4, 4).unwrap();
/// let e = ctx.enable(0xDEAD).unwrap_err();
/// assert_eq!(e.gl, GlError::InvalidEnum);
/// assert_eq!(e.gl.code(), gl::INVALID_ENUM);
/// ```
pub enum GlError {
    /// `GL_INVALID_ENUM`: an enum argument is not one the call accepts.
    InvalidEnum,
    /// `GL_INVALID_VALUE`: a numeric argument is out of range.
    InvalidValue,
    /// `GL_INVALID_OPERATION`: the call is not allowed in the current state.
    InvalidOperation,
    /// `GL_OUT_OF_MEMORY`: an allocation would exceed glemu's limits.
    OutOfMemory,
    /// `GL_INVALID_FRAMEBUFFER_OPERATION`: the framebuffer is not complete.
    InvalidFramebufferOperation,
    /// `GL_STACK_OVERFLOW`: a push onto a full stack (glPushMatrix).
    StackOverflow,
    /// `GL_STACK_UNDERFLOW`: a pop from a stack holding one entry (glPopMatrix).
    StackUnderflow,
}

impl GlError {
    /// The numeric GL code (e.g. `0x0500` for `INVALID_ENUM`).
    ///
    /// ```
    /// assert_eq!(glemu::GlError::InvalidValue.code(), glemu::gl::INVALID_VALUE);
    /// ```
    pub fn code(self) -> u32 {
        match self {
            GlError::InvalidEnum => crate::gl::INVALID_ENUM,
            GlError::InvalidValue => crate::gl::INVALID_VALUE,
            GlError::InvalidOperation => crate::gl::INVALID_OPERATION,
            GlError::OutOfMemory => crate::gl::OUT_OF_MEMORY,
            GlError::InvalidFramebufferOperation => crate::gl::INVALID_FRAMEBUFFER_OPERATION,
            GlError::StackOverflow => crate::gl::STACK_OVERFLOW,
            GlError::StackUnderflow => crate::gl::STACK_UNDERFLOW,
        }
    }

    /// The GL name, e.g. `"GL_INVALID_ENUM"`.
    ///
    /// ```
    /// assert_eq!(glemu::GlError::InvalidEnum.name(), "GL_INVALID_ENUM");
    /// ```
    pub fn name(self) -> &'static str {
        crate::gl::error_name(self.code())
    }
}

/// A failed Context call: the GL error plus a message saying what was wrong, and for a
/// program that failed to load or to run, where in its text ([`Error::program`]) and the
/// error of the layer below ([`Error::cause`], also `std::error::Error::source`).
///
/// ```
/// let e = glemu::Error::invalid_value("index 99 is out of range");
/// assert_eq!(e.gl, glemu::GlError::InvalidValue);
/// assert_eq!(e.to_string(), "GL_INVALID_VALUE: index 99 is out of range");
/// assert!(e.program.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The GL error this stands for.
    pub gl: GlError,
    /// What went wrong, for humans.
    pub message: String,
    /// Where in a program's text the error is, when a program failed to load or to run.
    pub program: Option<ProgramLocation>,
    /// The error of the layer below this one came from, as data.
    pub cause: Option<Box<Cause>>,
}

/// A place in a program's text: the one a load error points at, or the instruction a
/// run-time error stopped at.
///
/// ```
/// use glemu::{gl, Context, ProgramLocation};
/// let mut ctx = Context::new(4, 4).unwrap();
/// let text = "!!ARBvp1.0\nTEMP t;\n  FOO t;\nEND\n";
/// let e = ctx.program_string(gl::VERTEX_PROGRAM_ARB, text).unwrap_err();
/// let at = e.program.unwrap();
/// assert_eq!((at.line, at.column, at.byte, at.instruction), (3, 3, 21, None));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ProgramLocation {
    /// The program's stage.
    pub stage: glemu_programs::Stage,
    /// Index into the program's instructions, for a run-time error.
    pub instruction: Option<u32>,
    /// Byte offset in the program text (`PROGRAM_ERROR_POSITION` for a load error).
    pub byte: u32,
    /// 1-based line of `byte` in the program text.
    pub line: u32,
    /// 1-based column of `byte` (bytes from the start of its line).
    pub column: u32,
}

impl ProgramLocation {
    /// The location of byte `byte` of `text`, a program of `stage`.
    pub fn new(
        stage: glemu_programs::Stage,
        text: &str,
        byte: u32,
        instruction: Option<u32>,
    ) -> ProgramLocation {
        let (line, column) = glemu_programs::span::line_col(text, byte as usize);
        ProgramLocation {
            stage,
            instruction,
            byte,
            line,
            column,
        }
    }
}

/// The lower layer's error an [`Error`] wraps.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Cause {
    /// A program failed to load: the assembler's error (its message without the place).
    #[error(transparent)]
    Load(glemu_programs::ProgramError),
    /// A draw, dispatch or buffer operation failed in the pipeline (a program's run-time
    /// error is [`glemu_pipeline::PipelineError::Program`]).
    #[error(transparent)]
    Pipeline(glemu_pipeline::PipelineError),
}

impl Error {
    /// An error with the given code and message.
    ///
    /// ```
    /// let e = glemu::Error::new(glemu::GlError::OutOfMemory, "too big");
    /// assert_eq!(e.gl.code(), glemu::gl::OUT_OF_MEMORY);
    /// ```
    pub fn new(gl: GlError, message: impl Into<String>) -> Error {
        Error {
            gl,
            message: message.into(),
            program: None,
            cause: None,
        }
    }

    /// This error with `cause` as its source.
    pub fn caused_by(mut self, cause: Cause) -> Error {
        self.cause = Some(Box::new(cause));
        self
    }

    /// This error located at `at` in a program.
    pub fn at(mut self, at: ProgramLocation) -> Error {
        self.program = Some(at);
        self
    }

    /// `GL_INVALID_ENUM` naming the parameter and the value.
    ///
    /// ```
    /// let e = glemu::Error::invalid_enum("mode", 0x1234);
    /// assert!(e.message.contains("0x1234"));
    /// ```
    pub fn invalid_enum(what: &str, value: u32) -> Error {
        Error::new(
            GlError::InvalidEnum,
            format!("{what}: invalid enum {}", crate::gl::name(value)),
        )
    }

    /// `GL_INVALID_VALUE` with a message.
    ///
    /// ```
    /// assert_eq!(glemu::Error::invalid_value("x").gl, glemu::GlError::InvalidValue);
    /// ```
    pub fn invalid_value(message: impl Into<String>) -> Error {
        Error::new(GlError::InvalidValue, message)
    }

    /// `GL_INVALID_OPERATION` with a message.
    ///
    /// ```
    /// assert_eq!(glemu::Error::invalid_operation("x").gl, glemu::GlError::InvalidOperation);
    /// ```
    pub fn invalid_operation(message: impl Into<String>) -> Error {
        Error::new(GlError::InvalidOperation, message)
    }

    /// `GL_OUT_OF_MEMORY` with a message.
    ///
    /// ```
    /// assert_eq!(glemu::Error::out_of_memory("x").gl, glemu::GlError::OutOfMemory);
    /// ```
    pub fn out_of_memory(message: impl Into<String>) -> Error {
        Error::new(GlError::OutOfMemory, message)
    }

    /// A feature glemu does not implement: `GL_INVALID_OPERATION`, message
    /// `not supported: WHAT`.
    ///
    /// ```
    /// let e = glemu::Error::not_supported("logic op");
    /// assert_eq!(e.message, "not supported: logic op");
    /// ```
    pub fn not_supported(what: impl fmt::Display) -> Error {
        Error::new(GlError::InvalidOperation, format!("not supported: {what}"))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.gl.name(), self.message)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self.cause.as_deref()? {
            Cause::Load(e) => Some(e),
            Cause::Pipeline(e) => Some(e),
        }
    }
}

/// Maps a pipeline error to the GL error it stands for.
pub(crate) fn from_pipeline(e: PipelineError) -> Error {
    let gl = match e.kind() {
        PipelineErrorKind::InvalidValue => GlError::InvalidValue,
        PipelineErrorKind::OutOfMemory => GlError::OutOfMemory,
        _ => GlError::InvalidOperation,
    };
    Error::new(gl, e.to_string()).caused_by(Cause::Pipeline(e))
}

/// `size` zero bytes, or `OUT_OF_MEMORY` when they cannot be allocated.
pub(crate) fn zeroed(size: u64) -> Result<Vec<u8>> {
    glemu_pipeline::memory::try_zeroed_bytes(size)
        .ok_or_else(|| Error::out_of_memory(format!("cannot allocate a buffer of {size} bytes")))
}

/// Result of every Context call.
///
/// ```
/// fn clear_red(ctx: &mut glemu::Context) -> glemu::Result<()> {
///     ctx.clear_color([1.0, 0.0, 0.0, 1.0])?;
///     ctx.clear(glemu::gl::COLOR_BUFFER_BIT)
/// }
/// clear_red(&mut glemu::Context::new(2, 2).unwrap()).unwrap();
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;
