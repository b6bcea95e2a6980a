//! The `!!` header that opens every program: which stage and dialect it is. Read before
//! anything else (the assembler dispatches on it) and by the front ends that need it.

use crate::error::{ErrorKind, ProgramError};
use crate::ir::{Dialect, Stage};
use crate::lexer::{Lexer, Tok};
use crate::span::Span;

/// What a program's first token says it is.
///
/// ```
/// use glemu_programs::{detect_header, ir::Dialect, Stage};
/// let h = detect_header("\n!!NVtcp5.0\nEND\n").unwrap();
/// assert_eq!((h.stage, h.dialect), (Stage::TessControl, Dialect::Nv5));
/// assert_eq!((h.span.start, h.span.end), (1, 11));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Stage the header names (`vp`, `fp`, `gp`, ...).
    pub stage: Stage,
    /// Program language and version the header names.
    pub dialect: Dialect,
    /// Byte span of the header token.
    pub span: Span,
}

/// Reads the `!!` header (after any leading whitespace or blank lines).
///
/// ```
/// use glemu_programs::{detect_header, Stage};
/// assert_eq!(detect_header("!!VP2.0\nEND").unwrap().stage, Stage::Vertex);
/// let e = detect_header("!!NVfp9.0\nEND").unwrap_err();
/// assert_eq!(e.message, "unknown program header '!!NVfp9.0'");
/// ```
pub fn detect_header(text: &str) -> Result<Header, ProgramError> {
    let mut lx = Lexer::new(text);
    let t = lx.next_token()?;
    let Tok::Header(h) = &t.tok else {
        return Err(ProgramError::new(
            ErrorKind::Syntax,
            t.span,
            format!(
                "expected a program header such as '!!ARBvp1.0' or '!!NVfp5.0', found {}",
                t.tok.describe()
            ),
        ));
    };
    use Dialect::*;
    use Stage::*;
    let (stage, dialect) = match h.as_str() {
        "ARBvp1.0" => (Vertex, Arb),
        "ARBfp1.0" => (Fragment, Arb),
        "NVvp4.0" => (Vertex, Nv4),
        "NVfp4.0" => (Fragment, Nv4),
        "NVgp4.0" => (Geometry, Nv4),
        "NVvp4.1" => (Vertex, Nv41),
        "NVfp4.1" => (Fragment, Nv41),
        "NVgp4.1" => (Geometry, Nv41),
        "NVvp5.0" => (Vertex, Nv5),
        "NVtcp5.0" => (TessControl, Nv5),
        "NVtep5.0" => (TessEval, Nv5),
        "NVgp5.0" => (Geometry, Nv5),
        "NVfp5.0" => (Fragment, Nv5),
        "NVcp5.0" => (Compute, Nv5),
        "VP1.0" => (Vertex, Vp10),
        "VP1.1" => (Vertex, Vp11),
        "VP2.0" => (Vertex, Vp20),
        "VSP1.0" => (Vertex, Vsp10),
        "FP1.0" => (Fragment, Fp10),
        other => {
            return Err(ProgramError::new(
                ErrorKind::Syntax,
                t.span,
                format!("unknown program header '!!{other}'"),
            ))
        }
    };
    Ok(Header {
        stage,
        dialect,
        span: t.span,
    })
}
