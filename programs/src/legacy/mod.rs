//! Front end for the older NV dialects: `!!VP1.0`, `!!VP1.1`, `!!VP2.0`, `!!VSP1.0`
//! (NV_vertex_program, NV_vertex_program1_1, NV_vertex_program2) and `!!FP1.0`
//! (NV_fragment_program). Each is parsed straight into the compiled form the ARB/NV
//! front end produces, so one executor runs every dialect.
//!
//! Every load-time rule of those specs is checked here; grammar violations are
//! `ErrorKind::Syntax`, "fails to load if" rules `ErrorKind::Semantic`. Rules that can only
//! be decided after the whole program is read are reported at the end of the text, as
//! the specs' PROGRAM_ERROR_POSITION does.

mod builder;
mod common;
mod fragment;
mod fragment_consts;
mod fragment_ops;
mod vertex;
mod vertex_ops;

use crate::error::{ErrorKind, ProgramError};
use crate::header::Header;
use crate::ir::{Dialect, Program};

/// Assembles a VP1.x/VP2.0/VSP1.0/FP1.0 program whose header was already read.
pub(crate) fn assemble_legacy(text: &str, header: Header) -> Result<Program, ProgramError> {
    match header.dialect {
        Dialect::Vp10 | Dialect::Vp11 | Dialect::Vp20 | Dialect::Vsp10 => {
            vertex::assemble_vertex(text, header)
        }
        Dialect::Fp10 => fragment::assemble_fragment(text),
        other => Err(ProgramError::new(
            ErrorKind::Unsupported,
            header.span,
            format!("not supported: {other:?} is not a legacy NV dialect"),
        )),
    }
}
