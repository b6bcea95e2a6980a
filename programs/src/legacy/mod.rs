//! Front end for the older NV dialects: `!!VP1.0`, `!!VP1.1`, `!!VP2.0`, `!!VSP1.0`,
//! `!!FP1.0`. Owned by the legacy-dialect work (issue 2); replaced by the real parser.

use crate::assemble::Header;
use crate::error::{ErrorKind, ProgramError};
use crate::ir::Program;

/// Assembles a VP1.x/VP2.0/VSP1.0/FP1.0 program whose header was already read.
pub fn assemble_legacy(_text: &str, header: Header) -> Result<Program, ProgramError> {
    Err(ProgramError::new(
        ErrorKind::Unsupported,
        header.span,
        "not supported: the VP1/VP2/FP1 front end is not built yet",
    ))
}
