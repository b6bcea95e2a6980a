//! Front end for `!!ARBvp1.0`/`!!ARBfp1.0` (with every OPTION) and the NV_gpu_program4/4_1/5
//! family. Owned by the front-end work (issue 2); replaced wholesale by the real parser.

use crate::assemble::Header;
use crate::error::{ErrorKind, ProgramError};
use crate::ir::Program;

/// Assembles an ARB or NV_gpu_program4/5 program whose header was already read.
pub fn assemble_gpu(_text: &str, header: Header) -> Result<Program, ProgramError> {
    Err(ProgramError::new(
        ErrorKind::Unsupported,
        header.span,
        "not supported: the ARB/NV_gpu_program front end is not built yet",
    ))
}
