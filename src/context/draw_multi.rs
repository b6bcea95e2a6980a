//! Multi-draws and indirect draws (GL 4.6 sections 10.4-10.5, ARB_draw_indirect,
//! ARB_multi_draw_indirect): each command becomes one draw of `draw`'s entry points, so
//! validation and submission stay in one place.

use super::draw::{count, index_type, primitive_mode};
use super::Context;
use crate::error::{Error, Result};
use crate::gl;

/// The command count and byte step of a multi-draw-indirect call (`packed` = the size
/// of one command, the step for stride 0).
fn indirect_steps(draw_count: i32, stride: i32, packed: u64) -> Result<(u64, u64)> {
    let n = count(draw_count, "draw count")?;
    let stride = u64::try_from(stride)
        .ok()
        .filter(|s| s % 4 == 0)
        .ok_or_else(|| Error::invalid_value(format!("stride {stride} is not a multiple of 4")))?;
    Ok((u64::from(n), if stride == 0 { packed } else { stride }))
}

/// Offset of command `i` (overflow reads past any buffer: `INVALID_OPERATION`).
fn indirect_at(offset: u64, i: u64, step: u64) -> Result<u64> {
    i.checked_mul(step)
        .and_then(|d| offset.checked_add(d))
        .ok_or_else(|| {
            Error::invalid_operation("indirect command reads past the end of the buffer")
        })
}

/// # Chapter 10.4 — Multi-draws and indirect draws
impl Context {
    /// `glMultiDrawArrays`: one draw per (first, count) pair.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.multi_draw_arrays(gl::POINTS, &[0], &[1, 2]).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn multi_draw_arrays(&mut self, mode: u32, firsts: &[i32], counts: &[i32]) -> Result<()> {
        if firsts.len() != counts.len() {
            return Err(Error::invalid_value("firsts and counts differ in length"));
        }
        primitive_mode(mode)?;
        self.each_draw(firsts.len(), |ctx, i| {
            ctx.draw_arrays(mode, firsts[i], counts[i])
        })
    }

    /// `glMultiDrawElements`: one `draw_elements` per (count, byte offset) pair.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.multi_draw_elements(gl::TRIANGLES, &[3, 3], gl::UNSIGNED_SHORT, &[0]);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn multi_draw_elements(
        &mut self,
        mode: u32,
        counts: &[i32],
        ty: u32,
        offsets: &[u64],
    ) -> Result<()> {
        if counts.len() != offsets.len() {
            return Err(Error::invalid_value("counts and offsets differ in length"));
        }
        primitive_mode(mode)?;
        index_type(ty)?;
        self.each_draw(counts.len(), |ctx, i| {
            ctx.draw_elements(mode, counts[i], ty, offsets[i])
        })
    }

    /// `glMultiDrawElementsBaseVertex`: one `draw_elements_base_vertex` per (count, byte
    /// offset, base vertex); the three slices must have one length (`INVALID_VALUE`).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.multi_draw_elements_base_vertex(gl::POINTS, &[1, 1], gl::UNSIGNED_INT, &[0, 4], &[0]);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn multi_draw_elements_base_vertex(
        &mut self,
        mode: u32,
        counts: &[i32],
        ty: u32,
        offsets: &[u64],
        base_vertices: &[i32],
    ) -> Result<()> {
        if counts.len() != offsets.len() || counts.len() != base_vertices.len() {
            return Err(Error::invalid_value(
                "counts, offsets and base vertices differ in length",
            ));
        }
        primitive_mode(mode)?;
        index_type(ty)?;
        self.each_draw(counts.len(), |ctx, i| {
            ctx.draw_elements_base_vertex(mode, counts[i], ty, offsets[i], base_vertices[i])
        })
    }

    /// `glDrawArraysIndirect`: reads `{count, instanceCount, first, baseInstance}` (u32)
    /// at `offset` of the bound `DRAW_INDIRECT_BUFFER`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.draw_arrays_indirect(gl::TRIANGLES, 0).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn draw_arrays_indirect(&mut self, mode: u32, offset: u64) -> Result<()> {
        primitive_mode(mode)?;
        let v = self.indirect_words(offset, 4)?;
        let as_i32 = |x: u32| {
            i32::try_from(x).map_err(|_| Error::invalid_value("indirect value out of range"))
        };
        self.draw_arrays_instanced_base_instance(
            mode,
            as_i32(v[2])?,
            as_i32(v[0])?,
            as_i32(v[1])?,
            v[3],
        )
    }

    /// `glDrawElementsIndirect`: reads `{count, instanceCount, firstIndex, baseVertex,
    /// baseInstance}` at `offset` of the bound `DRAW_INDIRECT_BUFFER`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.draw_elements_indirect(gl::TRIANGLES, gl::UNSIGNED_INT, 0).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation);
    /// ```
    pub fn draw_elements_indirect(&mut self, mode: u32, ty: u32, offset: u64) -> Result<()> {
        primitive_mode(mode)?;
        let ity = index_type(ty)?;
        let v = self.indirect_words(offset, 5)?;
        let as_i32 = |x: u32| {
            i32::try_from(x).map_err(|_| Error::invalid_value("indirect value out of range"))
        };
        let first_byte = u64::from(v[2]) * ity.size();
        self.draw_elements_instanced_base_vertex_base_instance(
            mode,
            as_i32(v[0])?,
            ty,
            first_byte,
            as_i32(v[1])?,
            v[3] as i32,
            v[4],
        )
    }

    /// `glMultiDrawArraysIndirect` (ARB_multi_draw_indirect): `draw_count` commands of
    /// [`Context::draw_arrays_indirect`], the first at `offset` and each next `stride`
    /// bytes on (0 = tightly packed, 16 bytes). A negative count or a stride that is not
    /// a multiple of 4 is `INVALID_VALUE`; a command past the end of the buffer
    /// `INVALID_OPERATION` (commands before it have drawn).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::DRAW_INDIRECT_BUFFER, 1).unwrap();
    /// ctx.buffer_data_size(gl::DRAW_INDIRECT_BUFFER, 32, gl::STATIC_DRAW).unwrap();
    /// ctx.multi_draw_arrays_indirect(gl::POINTS, 0, 2, 0).unwrap(); // two empty commands
    /// let e = ctx.multi_draw_arrays_indirect(gl::POINTS, 0, 3, 0).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // the third reads past the end
    /// let e = ctx.multi_draw_arrays_indirect(gl::POINTS, 0, 2, 6).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn multi_draw_arrays_indirect(
        &mut self,
        mode: u32,
        offset: u64,
        draw_count: i32,
        stride: i32,
    ) -> Result<()> {
        primitive_mode(mode)?;
        let (n, step) = indirect_steps(draw_count, stride, 16)?;
        self.each_draw(n as usize, |ctx, i| {
            ctx.draw_arrays_indirect(mode, indirect_at(offset, i as u64, step)?)
        })
    }

    /// `glMultiDrawElementsIndirect`: `draw_count` commands of
    /// [`Context::draw_elements_indirect`], `stride` bytes apart (0 = tightly packed,
    /// 20 bytes), with the errors of [`Context::multi_draw_arrays_indirect`].
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::DRAW_INDIRECT_BUFFER, 1).unwrap();
    /// ctx.buffer_data_size(gl::DRAW_INDIRECT_BUFFER, 40, gl::STATIC_DRAW).unwrap();
    /// let e = ctx.multi_draw_elements_indirect(gl::TRIANGLES, gl::UNSIGNED_INT, 0, -1, 0);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// let e = ctx.multi_draw_elements_indirect(gl::TRIANGLES, gl::UNSIGNED_INT, 0, 2, 0);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidOperation); // no element array buffer
    /// ```
    pub fn multi_draw_elements_indirect(
        &mut self,
        mode: u32,
        ty: u32,
        offset: u64,
        draw_count: i32,
        stride: i32,
    ) -> Result<()> {
        primitive_mode(mode)?;
        index_type(ty)?;
        let (n, step) = indirect_steps(draw_count, stride, 20)?;
        self.each_draw(n as usize, |ctx, i| {
            ctx.draw_elements_indirect(mode, ty, indirect_at(offset, i as u64, step)?)
        })
    }

    /// `glMultiDrawArraysIndirectCount` (GL 4.6, ARB_indirect_parameters):
    /// [`Context::multi_draw_arrays_indirect`] with the command count read as a word at
    /// `draw_count_offset` of the bound `PARAMETER_BUFFER`, capped at `max_draw_count`.
    /// An offset not a multiple of 4 or a negative maximum is `INVALID_VALUE`; no
    /// parameter buffer, or reading past its end, `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::DRAW_INDIRECT_BUFFER, 1).unwrap();
    /// ctx.buffer_data_size(gl::DRAW_INDIRECT_BUFFER, 32, gl::STATIC_DRAW).unwrap();
    /// let e = ctx.multi_draw_arrays_indirect_count(gl::POINTS, 0, 0, 2, 0).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // no PARAMETER_BUFFER
    /// ctx.bind_buffer(gl::PARAMETER_BUFFER, 2).unwrap();
    /// ctx.buffer_data(gl::PARAMETER_BUFFER, &[9u32], gl::STATIC_DRAW).unwrap();
    /// // 9 commands asked for, at most 2 taken: both fit in the 32-byte buffer.
    /// ctx.multi_draw_arrays_indirect_count(gl::POINTS, 0, 0, 2, 0).unwrap();
    /// let e = ctx.multi_draw_arrays_indirect_count(gl::POINTS, 0, 0, 3, 0).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // the third reads past the end
    /// ```
    pub fn multi_draw_arrays_indirect_count(
        &mut self,
        mode: u32,
        offset: u64,
        draw_count_offset: u64,
        max_draw_count: i32,
        stride: i32,
    ) -> Result<()> {
        primitive_mode(mode)?;
        let n = self.parameter_draw_count(draw_count_offset, max_draw_count)?;
        self.multi_draw_arrays_indirect(mode, offset, n, stride)
    }

    /// `glMultiDrawElementsIndirectCount`: [`Context::multi_draw_elements_indirect`]
    /// with the count from the `PARAMETER_BUFFER`, as
    /// [`Context::multi_draw_arrays_indirect_count`].
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::PARAMETER_BUFFER, 2).unwrap();
    /// ctx.buffer_data(gl::PARAMETER_BUFFER, &[0u8; 8], gl::STATIC_DRAW).unwrap();
    /// let e = ctx.multi_draw_elements_indirect_count(gl::POINTS, gl::UNSIGNED_INT, 0, 2, 1, 0);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue); // offset 2 is not a multiple of 4
    /// ```
    pub fn multi_draw_elements_indirect_count(
        &mut self,
        mode: u32,
        ty: u32,
        offset: u64,
        draw_count_offset: u64,
        max_draw_count: i32,
        stride: i32,
    ) -> Result<()> {
        primitive_mode(mode)?;
        index_type(ty)?;
        let n = self.parameter_draw_count(draw_count_offset, max_draw_count)?;
        self.multi_draw_elements_indirect(mode, ty, offset, n, stride)
    }

    /// Issues draws `0..n` through `draw`, each with its index as `vertex.draw.id`
    /// (ARB_shader_draw_parameters); the id is 0 again afterwards, even after an error.
    fn each_draw(
        &mut self,
        n: usize,
        mut draw: impl FnMut(&mut Self, usize) -> Result<()>,
    ) -> Result<()> {
        let mut r = Ok(());
        for i in 0..n {
            self.st.draw_id = i as u32;
            r = draw(self, i);
            if r.is_err() {
                break;
            }
        }
        self.st.draw_id = 0;
        r
    }

    /// min(the `PARAMETER_BUFFER` word at `offset`, `max`).
    fn parameter_draw_count(&self, offset: u64, max: i32) -> Result<i32> {
        count(max, "maximum draw count")?;
        let words = self.bound_words(gl::PARAMETER_BUFFER, "PARAMETER_BUFFER", offset, 1)?;
        let n = words.first().copied().unwrap_or(0);
        Ok(i32::try_from(n).map_or(max, |n| n.min(max)))
    }

    fn indirect_words(&self, offset: u64, n: usize) -> Result<Vec<u32>> {
        self.bound_words(gl::DRAW_INDIRECT_BUFFER, "DRAW_INDIRECT_BUFFER", offset, n)
    }

    /// `n` little-endian words at `offset` of the buffer bound to `target`.
    fn bound_words(&self, target: u32, name: &str, offset: u64, n: usize) -> Result<Vec<u32>> {
        let id = self
            .buffers
            .bound
            .get(&target)
            .copied()
            .ok_or_else(|| Error::invalid_operation(format!("no {name} is bound")))?;
        if !offset.is_multiple_of(4) {
            return Err(Error::invalid_value(
                "indirect offset is not a multiple of 4",
            ));
        }
        let buf = self.buffer_store(id)?;
        let mut bytes = vec![0u8; n * 4];
        buf.read(offset, &mut bytes).map_err(|_| {
            Error::invalid_operation("indirect command reads past the end of the buffer")
        })?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indirect_steps_and_offsets() {
        assert_eq!(indirect_steps(3, 0, 20).unwrap(), (3, 20));
        assert_eq!(indirect_steps(2, 32, 16).unwrap(), (2, 32));
        assert!(indirect_steps(-1, 0, 16).is_err());
        assert!(indirect_steps(1, -4, 16).is_err());
        assert!(indirect_steps(1, 6, 16).is_err());
        assert_eq!(indirect_at(4, 2, 32).unwrap(), 68);
        assert!(indirect_at(u64::MAX - 8, 1, 16).is_err());
    }
}
