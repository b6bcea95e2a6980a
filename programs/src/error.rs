//! Load-time errors: what `PROGRAM_ERROR_POSITION` and `PROGRAM_ERROR_STRING` report.

use crate::span::{line_col, Span};
use std::fmt;

/// A program that failed to load. `span.start` is the byte offset GL would report as
/// `PROGRAM_ERROR_POSITION`; `message` names the offending token and the rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramError {
    pub span: Span,
    pub kind: ErrorKind,
    pub message: String,
}

/// Broad class of an error, so tests and tools can match on it without parsing messages.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Bad characters, malformed numbers.
    Lexical,
    /// The text does not follow the grammar.
    Syntax,
    /// Grammatical but breaks a "will fail to load if" rule (types, limits, declarations).
    Semantic,
    /// A valid construct glemu does not implement.
    Unsupported,
    /// The program's header names a different stage than the one it was loaded as.
    WrongTarget,
}

impl ProgramError {
    pub fn new(kind: ErrorKind, span: Span, message: impl Into<String>) -> ProgramError {
        ProgramError {
            span,
            kind,
            message: message.into(),
        }
    }

    /// Byte offset of the error (`PROGRAM_ERROR_POSITION`).
    pub fn position(&self) -> usize {
        self.span.start as usize
    }

    /// 1-based (line, column) of the error in `text`.
    pub fn line_col(&self, text: &str) -> (u32, u32) {
        line_col(text, self.position())
    }

    /// `LINE:COL: error: MESSAGE`, the form `glemu check` prints after the file name.
    pub fn render(&self, text: &str) -> String {
        let (l, c) = self.line_col(text);
        format!("{l}:{c}: error: {}", self.message)
    }
}

impl fmt::Display for ProgramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.span.start, self.message)
    }
}

impl std::error::Error for ProgramError {}
