//! Load-time errors: what `PROGRAM_ERROR_POSITION` and `PROGRAM_ERROR_STRING` report.

use crate::span::{line_col, Span};
use std::fmt;

/// A program that failed to load. `span.start` is the byte offset GL would report as
/// `PROGRAM_ERROR_POSITION`; `message` names the offending token and the rule it breaks.
///
/// ```
/// use glemu_programs::assemble;
/// let text = "!!ARBfp1.0\nMOV result.color, fragment.colour;\nEND\n";
/// let e = assemble(text, None).unwrap_err();
/// assert_eq!(&text[e.position()..e.position() + 6], "colour");
/// assert!(e.message.contains("colour"), "{}", e.message);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramError {
    /// Bytes of the offending token (`start` is `PROGRAM_ERROR_POSITION`).
    pub span: Span,
    /// Which class of rule the program broke.
    pub kind: ErrorKind,
    /// What is wrong, naming the token and the rule (`PROGRAM_ERROR_STRING`).
    pub message: String,
}

/// Broad class of an error, so tests and tools can match on it without parsing messages.
///
/// ```
/// use glemu_programs::{assemble, ErrorKind};
/// let kind = |t: &str| assemble(t, None).unwrap_err().kind;
/// assert_eq!(kind("!!NVfp5.0\nMOV result.color, @;\nEND"), ErrorKind::Lexical);
/// assert_eq!(kind("!!NVfp5.0\nMOV result.color;\nEND"), ErrorKind::Syntax);
/// assert_eq!(kind("!!NVfp5.0\nTEMP a, a;\nEND"), ErrorKind::Semantic);
/// ```
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
    /// An error of `kind` at `span`.
    ///
    /// ```
    /// use glemu_programs::{span::Span, ErrorKind, ProgramError};
    /// let e = ProgramError::new(ErrorKind::Semantic, Span { start: 4, end: 7 }, "bad");
    /// assert_eq!(e.to_string(), "at byte 4: bad");
    /// ```
    pub fn new(kind: ErrorKind, span: Span, message: impl Into<String>) -> ProgramError {
        ProgramError {
            span,
            kind,
            message: message.into(),
        }
    }

    /// Byte offset of the error (`PROGRAM_ERROR_POSITION`).
    ///
    /// ```
    /// let e = glemu_programs::assemble("!!ARBvp1.0\nFOO;\nEND", None).unwrap_err();
    /// assert_eq!(e.position(), 11);
    /// ```
    pub fn position(&self) -> usize {
        self.span.start as usize
    }

    /// 1-based (line, column) of the error in `text`.
    ///
    /// ```
    /// let text = "!!ARBvp1.0\r\nTEMP a;\r\n  FOO;\r\nEND";
    /// let e = glemu_programs::assemble(text, None).unwrap_err();
    /// assert_eq!(e.line_col(text), (3, 3));
    /// ```
    pub fn line_col(&self, text: &str) -> (u32, u32) {
        line_col(text, self.position())
    }

    /// `LINE:COL: error: MESSAGE`, the form `glemu check` prints after the file name.
    ///
    /// ```
    /// let text = "!!ARBvp1.0\nFOO;\nEND";
    /// let e = glemu_programs::assemble(text, None).unwrap_err();
    /// assert!(e.render(text).starts_with("2:1: error: "), "{}", e.render(text));
    /// ```
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
