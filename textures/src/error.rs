//! Errors of texture creation, upload and lookup.

use thiserror::Error;

/// Everything that can go wrong in this crate. Lookups never panic on bad input: they
/// return one of these or (where GL leaves results undefined) zeros.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum TexError {
    /// Invalid arguments (sizes, levels, formats, ranges).
    #[error("invalid texture operation: {0}")]
    Invalid(String),
    /// A level past [`crate::texture::MAX_LEVEL_TEXELS`] texels or with an image past
    /// [`crate::texture::MAX_TEXELS`], or memory that could not be had (GL's
    /// OUT_OF_MEMORY).
    #[error("out of memory: {0}")]
    TooLarge(String),
    /// A feature this crate does not implement.
    #[error("not supported: {0}")]
    Unsupported(String),
    /// The instruction's target does not match the bound texture's target.
    #[error("texture target mismatch: instruction uses {wanted}, texture is {have}")]
    TargetMismatch {
        /// Target named by the instruction.
        wanted: String,
        /// Target of the bound texture.
        have: String,
    },
    /// Image decoding failed (PNG/JPEG).
    #[error("image file: {0}")]
    Image(String),
}
