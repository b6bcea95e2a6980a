//! The one entry point: pick the dialect from the `!!` header and hand the text to its
//! front end.

use crate::error::{ErrorKind, ProgramError};
use crate::front::limits::Limits;
pub use crate::header::{detect_header, Header};
use crate::ir::{Dialect, Program, Stage};

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
    let prog = match header.dialect {
        Dialect::Vp10 | Dialect::Vp11 | Dialect::Vp20 | Dialect::Vsp10 | Dialect::Fp10 => {
            crate::legacy::assemble_legacy(text, header)
        }
        Dialect::Arb | Dialect::Nv4 | Dialect::Nv41 | Dialect::Nv5 => {
            crate::front::assemble_gpu(text, header, limits)
        }
    }?;
    // The front ends hold the compiled form's invariants by construction; a program
    // breaking one is a front-end bug, reported instead of handed to the executor.
    crate::validate::validate(&prog).map_err(|e| {
        let span = e
            .inst
            .and_then(|i| prog.instructions.get(i as usize))
            .map_or(header.span, |i| i.span);
        ProgramError::new(
            ErrorKind::Semantic,
            span,
            format!("internal error: the compiled program is invalid ({e})"),
        )
    })?;
    Ok(prog)
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
