//! The one error type of the demos.

use std::fmt;

/// What can go wrong running a demo.
#[derive(Debug)]
pub enum DemoError {
    /// A GL call was rejected (program text, state, ...).
    Gl(glemu::Error),
    /// Writing the PNG failed.
    Save(glemu::context::readback::SaveError),
    /// The command line is wrong; the text says how.
    Usage(String),
    /// The window or its surface could not be made or drawn.
    Window(String),
}

/// Result with [`DemoError`].
pub type Result<T> = std::result::Result<T, DemoError>;

impl fmt::Display for DemoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DemoError::Gl(e) => write!(f, "GL error: {e}"),
            DemoError::Save(e) => write!(f, "saving the image: {e}"),
            DemoError::Usage(m) => write!(f, "usage: {m}"),
            DemoError::Window(m) => write!(f, "window: {m}"),
        }
    }
}

impl std::error::Error for DemoError {}

impl From<glemu::Error> for DemoError {
    fn from(e: glemu::Error) -> Self {
        DemoError::Gl(e)
    }
}

impl From<glemu::context::readback::SaveError> for DemoError {
    fn from(e: glemu::context::readback::SaveError) -> Self {
        DemoError::Save(e)
    }
}
