//! Compute dispatch (ARB_compute_shader's commands for NV_compute_program5 programs):
//! `dispatch_compute`, `dispatch_compute_indirect` and the compute limits.
//!
//! The program is the one bound to `COMPUTE_PROGRAM_NV` while that target is enabled; it
//! reaches the same storage buffers, atomic counters, textures and image units as draws,
//! plus its own parameter buffers (`COMPUTE_PROGRAM_PARAMETER_BUFFER_NV`). Work groups run
//! on the context's threads; image stores land in their textures when the dispatch ends.

use super::buffers::param_buffer_target;
use super::Context;
use crate::caps::LIMITS;
use crate::error::from_pipeline;
use crate::error::{Error, Result};
use crate::gl;
use glemu_pipeline::compute::{dispatch, ComputeState, ComputeStats};
use glemu_programs::Stage;

/// `MAX_COMPUTE_WORK_GROUP_COUNT` in each dimension (ARB_compute_shader's minimum).
///
/// ```
/// use glemu::{context::compute::MAX_COMPUTE_WORK_GROUP_COUNT, gl, Context};
/// let ctx = Context::new(4, 4).unwrap();
/// let x = ctx.get_integer_i_v(gl::MAX_COMPUTE_WORK_GROUP_COUNT, 0).unwrap();
/// assert_eq!(x, i64::from(MAX_COMPUTE_WORK_GROUP_COUNT));
/// ```
pub const MAX_COMPUTE_WORK_GROUP_COUNT: u32 = crate::caps::MAX_COMPUTE_WORK_GROUP_COUNT;

/// # Chapter 19 — Compute shaders (NV_compute_program5)
///
/// `dispatch_compute`, `dispatch_compute_indirect`.
impl Context {
    /// `glDispatchCompute`: runs `x`×`y`×`z` work groups of the enabled compute program.
    /// A count above [`MAX_COMPUTE_WORK_GROUP_COUNT`] is `INVALID_VALUE`; no enabled,
    /// loaded compute program `INVALID_OPERATION`; a zero count runs nothing.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.dispatch_compute(1, 1, 1).unwrap_err().gl, GlError::InvalidOperation);
    /// ctx.bind_program(gl::COMPUTE_PROGRAM_NV, 1).unwrap();
    /// ctx.program_string(gl::COMPUTE_PROGRAM_NV, "!!NVcp5.0\nGROUP_SIZE 8;\nEND").unwrap();
    /// ctx.enable(gl::COMPUTE_PROGRAM_NV).unwrap();
    /// ctx.dispatch_compute(2, 1, 1).unwrap();
    /// assert_eq!(ctx.dispatch_compute(65536, 1, 1).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn dispatch_compute(&mut self, x: u32, y: u32, z: u32) -> Result<()> {
        self.dispatch_groups([x, y, z]).map(|_| ())
    }

    /// `glDispatchComputeIndirect`: reads `{x, y, z}` (u32) at `offset` of the buffer bound
    /// to `DISPATCH_INDIRECT_BUFFER`. An offset that is not a multiple of 4 is
    /// `INVALID_VALUE`; no buffer, or a command past its end, `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_program(gl::COMPUTE_PROGRAM_NV, 1).unwrap();
    /// ctx.program_string(gl::COMPUTE_PROGRAM_NV, "!!NVcp5.0\nGROUP_SIZE 8;\nEND").unwrap();
    /// ctx.enable(gl::COMPUTE_PROGRAM_NV).unwrap();
    /// assert_eq!(ctx.dispatch_compute_indirect(0).unwrap_err().gl, GlError::InvalidOperation);
    /// ctx.bind_buffer(gl::DISPATCH_INDIRECT_BUFFER, 3).unwrap();
    /// ctx.buffer_data(gl::DISPATCH_INDIRECT_BUFFER, &[2u32, 1, 1], gl::STATIC_DRAW).unwrap();
    /// ctx.dispatch_compute_indirect(0).unwrap();
    /// assert_eq!(ctx.dispatch_compute_indirect(2).unwrap_err().gl, GlError::InvalidValue);
    /// assert_eq!(ctx.dispatch_compute_indirect(4).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn dispatch_compute_indirect(&mut self, offset: u64) -> Result<()> {
        if !offset.is_multiple_of(4) {
            return Err(Error::invalid_value(
                "indirect dispatch offset is not a multiple of 4",
            ));
        }
        let id = self
            .buffers
            .bound
            .get(&gl::DISPATCH_INDIRECT_BUFFER)
            .copied()
            .filter(|&id| id != 0)
            .ok_or_else(|| Error::invalid_operation("no DISPATCH_INDIRECT_BUFFER is bound"))?;
        let buf = self.buffer_store(id)?;
        let mut bytes = [0u8; 12];
        buf.read(offset, &mut bytes).map_err(|_| {
            Error::invalid_operation(
                "the indirect dispatch command reads past the end of the buffer",
            )
        })?;
        let w = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        self.dispatch_groups([w(0), w(4), w(8)]).map(|_| ())
    }

    /// Validates and runs a dispatch; its statistics (for benchmarks and tests).
    pub(crate) fn dispatch_groups(&mut self, groups: [u32; 3]) -> Result<ComputeStats> {
        self.buffers.check_no_guard()?;
        if let Some(g) = groups.iter().find(|&&g| g > MAX_COMPUTE_WORK_GROUP_COUNT) {
            return Err(Error::invalid_value(format!(
                "{g} work groups exceed MAX_COMPUTE_WORK_GROUP_COUNT ({MAX_COMPUTE_WORK_GROUP_COUNT})"
            )));
        }
        if !self.st.program_enabled[Stage::Compute] {
            return Err(Error::invalid_operation(
                "no compute program: COMPUTE_PROGRAM_NV is not enabled",
            ));
        }
        let program = self
            .stage_program(Stage::Compute)?
            .ok_or_else(|| Error::invalid_operation("no compute program is bound"))?;
        let mut counter_buffers = Vec::new();
        let mut storage_buffers = Vec::new();
        for i in 0..16 {
            counter_buffers.push(self.indexed_range(gl::ATOMIC_COUNTER_BUFFER, i)?);
            storage_buffers.push(self.indexed_range(gl::SHADER_STORAGE_BUFFER, i)?);
        }
        debug_assert_eq!(
            param_buffer_target(Stage::Compute),
            gl::COMPUTE_PROGRAM_PARAMETER_BUFFER_NV
        );
        let images = self.image_units_of(&[&program])?;
        let state = ComputeState {
            program,
            textures: self.texture_units(),
            counter_buffers,
            storage_buffers,
            memory: std::sync::Arc::clone(&self.memory),
            images,
            deadline: self
                .limits
                .draw_time
                .and_then(glemu_raster::Deadline::after),
        };
        let rasterizer = std::sync::Arc::clone(&self.rasterizer);
        let result = rasterizer.install(|| dispatch(&state, groups));
        // The snapshot's texture references go before image stores are written back.
        drop(state);
        let written = self.write_back_images();
        let stats = result.map_err(|e| self.locate_run_error(from_pipeline(e)))?;
        written?;
        Ok(stats)
    }

    /// The indexed compute limits of `get_integer_i_v` (dimension 0..2), if `pname` names
    /// one; `Some(Err)` for a dimension past z.
    pub(crate) fn compute_limit_indexed(pname: u32, index: u32) -> Option<Result<i64>> {
        let per_dim = match pname {
            gl::MAX_COMPUTE_WORK_GROUP_COUNT => [MAX_COMPUTE_WORK_GROUP_COUNT; 3],
            gl::MAX_COMPUTE_WORK_GROUP_SIZE => LIMITS.max_compute_work_group_size,
            _ => return None,
        };
        Some(
            per_dim
                .get(index as usize)
                .map(|&v| i64::from(v))
                .ok_or_else(|| {
                    Error::invalid_value(format!("compute dimension {index} (only 0, 1, 2)"))
                }),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_queryable() {
        let ctx = Context::new(4, 4).unwrap();
        assert_eq!(
            ctx.get_integer_v(gl::MAX_COMPUTE_WORK_GROUP_INVOCATIONS)
                .unwrap(),
            vec![1024]
        );
        assert_eq!(
            ctx.get_integer_v(gl::MAX_COMPUTE_SHARED_MEMORY_SIZE)
                .unwrap(),
            vec![49152]
        );
        let size: Vec<i64> = (0..3)
            .map(|i| {
                ctx.get_integer_i_v(gl::MAX_COMPUTE_WORK_GROUP_SIZE, i)
                    .unwrap()
            })
            .collect();
        assert_eq!(size, [1024, 1024, 64]);
        assert!(ctx
            .get_integer_i_v(gl::MAX_COMPUTE_WORK_GROUP_COUNT, 3)
            .is_err());
    }

    #[test]
    fn a_dispatch_writes_storage_buffers_at_any_thread_count() {
        for threads in [1, 2] {
            let mut ctx = Context::new(4, 4).unwrap();
            ctx.set_threads(threads).unwrap();
            ctx.bind_program(gl::COMPUTE_PROGRAM_NV, 1).unwrap();
            let text = "!!NVcp5.0\nOPTION NV_shader_storage_buffer;\nGROUP_SIZE 4 2;\nSTORAGE s[] = { program.storage[1] };\n\
                        UINT TEMP g, a;\nMOV.U g, invocation.globalid;\nMAD.U a.x, g.y, 8, g.x;\n\
                        MUL.U a.y, a.x, 4;\nSTB.U32 a, s[a.y];\nEND";
            ctx.program_string(gl::COMPUTE_PROGRAM_NV, text)
                .unwrap_or_else(|e| panic!("{e}"));
            ctx.enable(gl::COMPUTE_PROGRAM_NV).unwrap();
            ctx.bind_buffer(gl::SHADER_STORAGE_BUFFER, 9).unwrap();
            ctx.buffer_data(gl::SHADER_STORAGE_BUFFER, &[0xff; 64], gl::STATIC_DRAW)
                .unwrap();
            ctx.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 1, 9)
                .unwrap();
            let stats = ctx.dispatch_groups([2, 1, 1]).unwrap();
            assert_eq!((stats.groups, stats.invocations), (2, 16));
            let b = ctx
                .get_buffer_sub_data(gl::SHADER_STORAGE_BUFFER, 0, 64)
                .unwrap();
            let words: Vec<u32> = b
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            assert_eq!(words, (0..16).collect::<Vec<u32>>());
        }
    }
}
