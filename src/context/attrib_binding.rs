//! ARB_vertex_attrib_binding (GL 4.3, section 10.3.1): attribute formats separate from
//! the buffers they read. A generic attribute has a format and a relative offset and
//! reads one of `MAX_VERTEX_ATTRIB_BINDINGS` vertex buffer bindings (buffer, offset,
//! stride, divisor); `glVertexAttribPointer` is defined in terms of these calls, so the
//! two styles mix as GL says.

use super::arrays::{attrib_format, ArrayState};
use super::Context;
use crate::caps::{
    MAX_VERTEX_ATTRIB_BINDINGS, MAX_VERTEX_ATTRIB_RELATIVE_OFFSET, MAX_VERTEX_ATTRIB_STRIDE,
};
use crate::error::{Error, Result};
use glemu_pipeline::fetch::AttribConversion;

fn check_binding(binding: u32) -> Result<()> {
    if binding >= MAX_VERTEX_ATTRIB_BINDINGS {
        return Err(Error::invalid_value(format!(
            "vertex buffer binding {binding} (MAX_VERTEX_ATTRIB_BINDINGS is {MAX_VERTEX_ATTRIB_BINDINGS})"
        )));
    }
    Ok(())
}

/// # Chapter 10.3.1 — Vertex attribute bindings (ARB_vertex_attrib_binding)
impl Context {
    /// `glBindVertexBuffer`: binding `binding` reads buffer `buffer` (0: none) from byte
    /// `offset`, `stride` bytes per vertex (0 is a stride of 0: every vertex reads the
    /// same element). A binding past `MAX_VERTEX_ATTRIB_BINDINGS` (16), a negative offset
    /// or stride, or a stride over `MAX_VERTEX_ATTRIB_STRIDE` (2048) is `INVALID_VALUE`;
    /// a name that is no buffer object `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.create_buffer().unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
    /// ctx.buffer_data(gl::ARRAY_BUFFER, &[0.0f32; 12], gl::STATIC_DRAW).unwrap();
    /// ctx.bind_vertex_buffer(0, b, 0, 8).unwrap();
    /// ctx.vertex_attrib_format(0, 2, gl::FLOAT, false, 0).unwrap();
    /// ctx.vertex_attrib_binding(0, 0).unwrap();
    /// assert_eq!(ctx.bind_vertex_buffer(16, b, 0, 8).unwrap_err().gl, GlError::InvalidValue);
    /// assert_eq!(ctx.bind_vertex_buffer(0, 99, 0, 8).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn bind_vertex_buffer(
        &mut self,
        binding: u32,
        buffer: u32,
        offset: i64,
        stride: i32,
    ) -> Result<()> {
        check_binding(binding)?;
        if offset < 0 || stride < 0 || stride as u32 > MAX_VERTEX_ATTRIB_STRIDE {
            return Err(Error::invalid_value(format!(
                "vertex buffer offset {offset} and stride {stride}: offset >= 0, stride 0..={MAX_VERTEX_ATTRIB_STRIDE}"
            )));
        }
        if buffer != 0 && !self.buffers.objects.contains_key(&buffer) {
            return Err(Error::invalid_operation(format!(
                "{buffer} is not a buffer object"
            )));
        }
        let b = self.arrays.bindings.entry(binding).or_default();
        b.buffer = buffer;
        b.offset = offset as u64;
        b.stride = stride as u32;
        self.arrays.resolve_bindings();
        Ok(())
    }

    /// `glVertexAttribFormat`: generic attribute `index` has `size` (1..4 or `BGRA`)
    /// components of `ty`, converted to float (normalized if asked), starting
    /// `relative_offset` bytes into each vertex of its binding. Errors as
    /// `vertex_attrib_pointer`'s, and a relative offset over
    /// `MAX_VERTEX_ATTRIB_RELATIVE_OFFSET` (2047) is `INVALID_VALUE`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.vertex_attrib_format(1, 4, gl::UNSIGNED_BYTE, true, 8).unwrap();
    /// assert_eq!(ctx.vertex_attrib_format(1, 4, gl::FLOAT, false, 4096).unwrap_err().gl, GlError::InvalidValue);
    /// assert_eq!(ctx.vertex_attrib_format(1, 4, gl::TRIANGLES, false, 0).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn vertex_attrib_format(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        normalized: bool,
        relative_offset: u32,
    ) -> Result<()> {
        let conv = if normalized {
            AttribConversion::Normalized
        } else {
            AttribConversion::Float
        };
        self.set_attrib_format(index, size, ty, conv, relative_offset)
    }

    /// `glVertexAttribIFormat`: integer components passed through unconverted; a float
    /// or packed type is `INVALID_ENUM`. See [`Context::vertex_attrib_format`].
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.vertex_attrib_i_format(2, 1, gl::UNSIGNED_INT, 0).unwrap();
    /// assert_eq!(ctx.vertex_attrib_i_format(2, 1, gl::FLOAT, 0).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn vertex_attrib_i_format(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        relative_offset: u32,
    ) -> Result<()> {
        self.set_attrib_format(index, size, ty, AttribConversion::Integer, relative_offset)
    }

    fn set_attrib_format(
        &mut self,
        index: u32,
        size: i32,
        ty: u32,
        conversion: AttribConversion,
        relative_offset: u32,
    ) -> Result<()> {
        let slot = Self::generic_slot(index)?;
        let format = attrib_format(size, ty, conversion)?;
        if relative_offset > MAX_VERTEX_ATTRIB_RELATIVE_OFFSET {
            return Err(Error::invalid_value(format!(
                "relative offset {relative_offset} (MAX_VERTEX_ATTRIB_RELATIVE_OFFSET is {MAX_VERTEX_ATTRIB_RELATIVE_OFFSET})"
            )));
        }
        let a = self
            .arrays
            .slots
            .entry(slot)
            .or_insert(ArrayState::initial(slot));
        a.format = format;
        a.relative_offset = relative_offset;
        self.arrays.resolve_bindings();
        Ok(())
    }

    /// `glVertexAttribBinding`: generic attribute `index` reads vertex buffer binding
    /// `binding`. Either past its limit (16) is `INVALID_VALUE`.
    ///
    /// ```
    /// use glemu::{Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.vertex_attrib_binding(3, 0).unwrap();
    /// assert_eq!(ctx.vertex_attrib_binding(3, 16).unwrap_err().gl, GlError::InvalidValue);
    /// assert_eq!(ctx.vertex_attrib_binding(16, 0).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn vertex_attrib_binding(&mut self, index: u32, binding: u32) -> Result<()> {
        let slot = Self::generic_slot(index)?;
        check_binding(binding)?;
        self.arrays
            .slots
            .entry(slot)
            .or_insert(ArrayState::initial(slot))
            .binding = binding;
        self.arrays.resolve_bindings();
        Ok(())
    }

    /// `glVertexBindingDivisor`: the attributes reading binding `binding` advance once
    /// per `divisor` instances (0: per vertex). A binding past 15 is `INVALID_VALUE`.
    ///
    /// ```
    /// use glemu::{Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.vertex_binding_divisor(1, 2).unwrap();
    /// assert_eq!(ctx.vertex_binding_divisor(16, 1).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn vertex_binding_divisor(&mut self, binding: u32, divisor: u32) -> Result<()> {
        check_binding(binding)?;
        self.arrays.bindings.entry(binding).or_default().divisor = divisor;
        self.arrays.resolve_bindings();
        Ok(())
    }
}
