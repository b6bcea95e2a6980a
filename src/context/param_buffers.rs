//! `glProgramBufferParameters*NV` (NV_parameter_buffer_object): writing words of the
//! buffer bound to a program target's parameter-buffer binding point.

use super::buffers::param_buffer_target;
use super::Context;
use crate::error::from_pipeline;
use crate::error::{Error, Result};

use crate::caps::LIMITS;

/// Parameter-buffer binding points per program target.
const BINDINGS: u32 = LIMITS.max_program_parameter_buffer_bindings;
/// `MAX_PROGRAM_PARAMETER_BUFFER_SIZE_NV` (in vec4s) in 32-bit words.
const MAX_WORDS: u64 = LIMITS.max_program_parameter_buffer_size as u64 * 4;

/// # Chapter 11 — Parameter buffers (NV_parameter_buffer_object)
impl Context {
    /// `glProgramBufferParametersfvNV`: writes `params` to words `word..` of the buffer
    /// bound to parameter-buffer binding `binding` of program target `target` (what
    /// `program.buffer[binding]` reads). An unknown target is `INVALID_ENUM`; a binding
    /// past `MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV` - 1, or words past the buffer's end, `INVALID_VALUE`; no buffer bound there
    /// `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.create_buffer().unwrap();
    /// ctx.bind_buffer(gl::UNIFORM_BUFFER, b).unwrap();
    /// ctx.buffer_data_size(gl::UNIFORM_BUFFER, 64, gl::DYNAMIC_DRAW).unwrap();
    /// ctx.bind_buffer_base(gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV, 2, b).unwrap();
    /// ctx.program_buffer_parameters_fv(gl::FRAGMENT_PROGRAM_ARB, 2, 4, &[1.0, 2.0]).unwrap();
    /// let bytes = ctx.get_buffer_sub_data(gl::UNIFORM_BUFFER, 16, 8).unwrap();
    /// assert_eq!(bytemuck::pod_collect_to_vec::<u8, f32>(&bytes), [1.0, 2.0]);
    /// let e = ctx.program_buffer_parameters_fv(gl::FRAGMENT_PROGRAM_ARB, 2, 15, &[0.0; 2]);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn program_buffer_parameters_fv(
        &mut self,
        target: u32,
        binding: u32,
        word: u32,
        params: &[f32],
    ) -> Result<()> {
        self.program_buffer_words(target, binding, word, bytemuck::cast_slice(params))
    }

    /// `glProgramBufferParametersIivNV`: signed integers (see
    /// [`Context::program_buffer_parameters_fv`]).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.program_buffer_parameters_iiv(gl::VERTEX_PROGRAM_ARB, 0, 0, &[1]);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidOperation); // nothing bound
    /// ```
    pub fn program_buffer_parameters_iiv(
        &mut self,
        target: u32,
        binding: u32,
        word: u32,
        params: &[i32],
    ) -> Result<()> {
        self.program_buffer_words(target, binding, word, bytemuck::cast_slice(params))
    }

    /// `glProgramBufferParametersIuivNV`: unsigned integers (see
    /// [`Context::program_buffer_parameters_fv`]).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.program_buffer_parameters_iuiv(gl::VERTEX_PROGRAM_ARB, 16, 0, &[1]);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn program_buffer_parameters_iuiv(
        &mut self,
        target: u32,
        binding: u32,
        word: u32,
        params: &[u32],
    ) -> Result<()> {
        self.program_buffer_words(target, binding, word, bytemuck::cast_slice(params))
    }

    fn program_buffer_words(
        &mut self,
        target: u32,
        binding: u32,
        word: u32,
        bytes: &[u8],
    ) -> Result<()> {
        let t = super::programs::target(target)?;
        if binding >= BINDINGS {
            return Err(Error::invalid_value(format!(
                "parameter buffer binding {binding} (max {})",
                BINDINGS - 1
            )));
        }
        let bound = self.buffers.indexed.get(&(param_buffer_target(t), binding));
        let b = bound.copied().ok_or_else(|| {
            Error::invalid_operation(format!(
                "no buffer is bound to parameter buffer binding {binding} of {}",
                crate::gl::name(target)
            ))
        })?;
        let o =
            self.buffers.objects.get(&b.id).ok_or_else(|| {
                Error::invalid_operation(format!("buffer {} does not exist", b.id))
            })?;
        let words = (o.data.len() / 4).min(MAX_WORDS);
        let end = u64::from(word) + bytes.len() as u64 / 4;
        if end > words {
            return Err(Error::invalid_value(format!(
                "words {word}..{end} of a parameter buffer of {words} words"
            )));
        }
        o.data
            .write(u64::from(word) * 4, bytes)
            .map_err(from_pipeline)
    }
}
