//! Scene files (piglit's `.shader_test` format, see `shared/scene-format.md`) parsed and run
//! through the public [`crate::Context`] API.

mod command;
mod parse;
mod run;
mod textures;
pub mod vpfp;

pub use command::{parse_command, Command, MatrixTarget, ParamKind, ProbeRegion, TextureCmd};
pub use parse::{
    parse, program_sections, AttribTarget, Column, ProgramSection, Require, Scene, VertexData,
};
pub use run::{
    check_requirements, extensions, limit, run_text, run_text_probes, run_text_with, DiffImages,
    Outcome, Report, RunOptions, Runner, GL_VERSION, MAX_SAMPLES,
};

use std::fmt;

/// A scene line that could not be parsed or run.
#[derive(Clone, Debug, PartialEq, Eq)]
///
/// ```
/// let e = glemu::scene::parse("[test]\nclear\nprobe rgba 1 2\n").unwrap_err();
/// assert_eq!(e.line, 3);
/// assert!(e.to_string().starts_with("line 3: "));
/// ```
pub struct SceneError {
    /// 1-based scene-file line.
    pub line: usize,
    /// What was expected or what failed.
    pub message: String,
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SceneError {}
