//! The one entry point: pick the dialect from the `!!` header and hand the text to its
//! front end.

use crate::error::{ErrorKind, ProgramError};
use crate::front::limits::Limits;
use crate::ir::{Dialect, Program, Stage};
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
    pub stage: Stage,
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

/// Assembles `text`. With `target` set, the program is loaded as that stage (as
/// `ProgramStringARB(target, ...)` would) and a header for another stage is an error.
///
/// ```
/// use glemu_programs::{assemble, ErrorKind, Stage};
/// let text = "!!NVfp5.0\nTEMP t;\nMUL t, fragment.color, 0.5;\nMOV result.color, t;\nEND\n";
/// let p = assemble(text, None).unwrap();
/// assert_eq!(p.stage, Stage::Fragment);
/// assert_eq!(p.instructions.len(), 2);
/// let e = assemble(text, Some(Stage::Vertex)).unwrap_err();
/// assert_eq!(e.kind, ErrorKind::WrongTarget);
/// ```
pub fn assemble(text: &str, target: Option<Stage>) -> Result<Program, ProgramError> {
    assemble_with(text, target, &Limits::NVIDIA)
}

/// [`assemble`] against the given implementation limits (the ones the GL queries report).
///
/// ```
/// use glemu_programs::{assemble_with, Limits};
/// let fp = "!!NVfp5.0\nCBUFFER cb[] = { program.buffer[13] };\nTEMP t;\nLDC.F32X4 t, cb[0];\nMOV result.color, t;\nEND\n";
/// assert!(assemble_with(fp, None, &Limits::NVIDIA).is_ok());
/// let fewer = Limits { max_program_parameter_buffer_bindings: 8, ..Limits::NVIDIA };
/// assert!(assemble_with(fp, None, &fewer).is_err());
/// ```
pub fn assemble_with(
    text: &str,
    target: Option<Stage>,
    limits: &Limits,
) -> Result<Program, ProgramError> {
    let header = detect_header(text)?;
    if let Some(t) = target {
        if t != header.stage {
            return Err(ProgramError::new(
                ErrorKind::WrongTarget,
                header.span,
                format!(
                    "a {} program header cannot be loaded as a {} program",
                    header.stage.name(),
                    t.name()
                ),
            ));
        }
    }
    match header.dialect {
        Dialect::Vp10 | Dialect::Vp11 | Dialect::Vp20 | Dialect::Vsp10 | Dialect::Fp10 => {
            crate::legacy::assemble_legacy(text, header)
        }
        Dialect::Arb | Dialect::Nv4 | Dialect::Nv41 | Dialect::Nv5 => {
            crate::front::assemble_gpu(text, header, limits)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_pick_stage_and_dialect() {
        let h = detect_header("\n\n  !!NVtcp5.0\nEND").unwrap();
        assert_eq!((h.stage, h.dialect), (Stage::TessControl, Dialect::Nv5));
        assert!(detect_header("!!NVxx9.0").is_err());
        assert!(detect_header("MOV").is_err());
    }

    #[test]
    fn wrong_target_is_rejected() {
        let e = assemble("!!ARBfp1.0\nEND\n", Some(Stage::Vertex)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::WrongTarget);
    }
}
