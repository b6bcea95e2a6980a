//! The error every Context call returns: the GL error it stands for, plus a message.

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

/// A failed Context call: the GL error plus a message saying what was wrong.
///
/// ```
/// let e = glemu::Error::invalid_value("index 99 is out of range");
/// assert_eq!(e.gl, glemu::GlError::InvalidValue);
/// assert_eq!(e.to_string(), "GL_INVALID_VALUE: index 99 is out of range");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The GL error this stands for.
    pub gl: GlError,
    /// What went wrong, for humans.
    pub message: String,
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
        }
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

impl std::error::Error for Error {}

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
