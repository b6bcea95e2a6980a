//! Buffer objects: data, sub-data, mapping, indexed bindings, and NV_shader_buffer_load
//! residency (GPU addresses in the pipeline's emulated address space).

use super::Context;
use crate::error::{Error, GlError, Result};
use crate::gl;
use glemu_pipeline::memory::MAX_BUFFER_SIZE;
use glemu_pipeline::{Buffer, PipelineError, PipelineErrorKind};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, MutexGuard};

/// Maps a pipeline error to the GL error it stands for.
pub(crate) fn from_pipeline(e: PipelineError) -> Error {
    let gl = match e.kind {
        PipelineErrorKind::InvalidValue => GlError::InvalidValue,
        PipelineErrorKind::OutOfMemory => GlError::OutOfMemory,
        _ => GlError::InvalidOperation,
    };
    Error::new(gl, e.message)
}

/// One buffer object.
#[derive(Debug)]
pub(crate) struct BufferObject {
    pub data: Arc<Buffer>,
    pub mapped: Option<Arc<AtomicBool>>,
    pub resident: bool,
}

/// A range bound to an indexed binding point.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct IndexedBinding {
    pub id: u32,
    pub offset: u64,
    /// `None` = the whole buffer (glBindBufferBase).
    pub size: Option<u64>,
}

/// Buffer objects and bindings.
#[derive(Debug, Default)]
pub(crate) struct Buffers {
    pub objects: HashMap<u32, BufferObject>,
    pub next_id: u32,
    /// Non-indexed binding per target.
    pub bound: HashMap<u32, u32>,
    /// Indexed bindings: (target, index) → range.
    pub indexed: HashMap<(u32, u32), IndexedBinding>,
}

const TARGETS: &[u32] = &[
    gl::ARRAY_BUFFER,
    gl::ELEMENT_ARRAY_BUFFER,
    gl::UNIFORM_BUFFER,
    gl::SHADER_STORAGE_BUFFER,
    gl::ATOMIC_COUNTER_BUFFER,
    gl::TRANSFORM_FEEDBACK_BUFFER,
    gl::DRAW_INDIRECT_BUFFER,
    gl::COPY_READ_BUFFER,
    gl::COPY_WRITE_BUFFER,
    gl::TEXTURE_BUFFER,
    gl::VERTEX_PROGRAM_PARAMETER_BUFFER_NV,
    gl::GEOMETRY_PROGRAM_PARAMETER_BUFFER_NV,
    gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV,
    gl::TESS_CONTROL_PROGRAM_PARAMETER_BUFFER_NV,
    gl::TESS_EVALUATION_PROGRAM_PARAMETER_BUFFER_NV,
];

/// Targets with indexed binding points, and how many.
fn indexed_limit(target: u32) -> Option<u32> {
    Some(match target {
        gl::UNIFORM_BUFFER | gl::SHADER_STORAGE_BUFFER => 16,
        gl::ATOMIC_COUNTER_BUFFER => 8,
        gl::TRANSFORM_FEEDBACK_BUFFER => 4,
        gl::VERTEX_PROGRAM_PARAMETER_BUFFER_NV
        | gl::GEOMETRY_PROGRAM_PARAMETER_BUFFER_NV
        | gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV
        | gl::TESS_CONTROL_PROGRAM_PARAMETER_BUFFER_NV
        | gl::TESS_EVALUATION_PROGRAM_PARAMETER_BUFFER_NV => 16,
        _ => return None,
    })
}

/// Parameter-buffer binding target of a program target index.
pub(crate) fn param_buffer_target(t: usize) -> u32 {
    match t {
        0 => gl::VERTEX_PROGRAM_PARAMETER_BUFFER_NV,
        1 => gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV,
        2 => gl::GEOMETRY_PROGRAM_PARAMETER_BUFFER_NV,
        3 => gl::TESS_CONTROL_PROGRAM_PARAMETER_BUFFER_NV,
        _ => gl::TESS_EVALUATION_PROGRAM_PARAMETER_BUFFER_NV,
    }
}

/// Parameter-buffer binding target of a program target enum (`VERTEX_PROGRAM_ARB`, ...).
///
/// ```
/// use glemu::{context::buffers::param_buffer_target_for, gl};
/// assert_eq!(
///     param_buffer_target_for(gl::FRAGMENT_PROGRAM_ARB),
///     Some(gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV)
/// );
/// assert_eq!(param_buffer_target_for(gl::ARRAY_BUFFER), None);
/// ```
pub fn param_buffer_target_for(program_target: u32) -> Option<u32> {
    super::programs::target_index(program_target).map(param_buffer_target)
}

/// A mapped buffer's contents (glMapBuffer). Valid until [`Context::unmap_buffer`];
/// afterwards every access is `INVALID_OPERATION`.
#[derive(Debug)]
///
/// ```
/// use glemu::{gl, Context, GlError};
/// let mut ctx = Context::new(4, 4).unwrap();
/// let b = ctx.gen_buffers(1)[0];
/// ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
/// ctx.buffer_data(gl::ARRAY_BUFFER, &[0; 8], gl::STATIC_DRAW).unwrap();
/// let m = ctx.map_buffer(gl::ARRAY_BUFFER, gl::WRITE_ONLY).unwrap();
/// m.write(4, &[9, 9]).unwrap();
/// ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap();
/// assert_eq!(m.write(0, &[1]).unwrap_err().gl, GlError::InvalidOperation); // stale
/// assert_eq!(ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 4, 2).unwrap(), vec![9, 9]);
/// ```
pub struct Mapping {
    data: Arc<Buffer>,
    live: Arc<AtomicBool>,
    writable: bool,
    readable: bool,
}

impl Mapping {
    fn check(&self) -> Result<()> {
        if self.live.load(Ordering::Acquire) {
            Ok(())
        } else {
            Err(Error::invalid_operation("the buffer is no longer mapped"))
        }
    }

    /// Reads `len` bytes at `offset`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.gen_buffers(1)[0];
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
    /// ctx.buffer_data(gl::ARRAY_BUFFER, &[1, 2, 3, 4], gl::STATIC_DRAW).unwrap();
    /// let m = ctx.map_buffer(gl::ARRAY_BUFFER, gl::READ_ONLY).unwrap();
    /// assert_eq!(m.read(1, 2).unwrap(), vec![2, 3]);
    /// ```
    pub fn read(&self, offset: usize, len: usize) -> Result<Vec<u8>> {
        self.check()?;
        if !self.readable {
            return Err(Error::invalid_operation("the buffer is mapped write-only"));
        }
        let mut out = vec![0; len];
        self.data
            .read(offset as u64, &mut out)
            .map_err(from_pipeline)?;
        Ok(out)
    }

    /// Writes `bytes` at `offset`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.gen_buffers(1)[0];
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 4, gl::STATIC_DRAW).unwrap();
    /// let m = ctx.map_buffer(gl::ARRAY_BUFFER, gl::WRITE_ONLY).unwrap();
    /// m.write(0, &[9]).unwrap();
    /// ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap();
    /// assert!(m.write(0, &[9]).is_err());
    /// assert_eq!(ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, 1).unwrap(), vec![9]);
    /// ```
    pub fn write(&self, offset: usize, bytes: &[u8]) -> Result<()> {
        self.check()?;
        if !self.writable {
            return Err(Error::invalid_operation("the buffer is mapped read-only"));
        }
        self.data.write(offset as u64, bytes).map_err(from_pipeline)
    }

    /// Locks the whole contents for direct access.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.gen_buffers(1)[0];
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 8, gl::STATIC_DRAW).unwrap();
    /// let m = ctx.map_buffer(gl::ARRAY_BUFFER, gl::READ_WRITE).unwrap();
    /// m.bytes().unwrap()[7] = 1;
    /// ```
    pub fn bytes(&self) -> Result<MutexGuard<'_, Vec<u8>>> {
        self.check()?;
        Ok(self.data.lock())
    }
}

impl Context {
    /// `glGenBuffers`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.gen_buffers(3).len(), 3);
    /// ```
    pub fn gen_buffers(&mut self, n: usize) -> Vec<u32> {
        let b = &mut self.buffers;
        (0..n)
            .map(|_| {
                b.next_id += 1;
                let id = b.next_id;
                b.objects.insert(
                    id,
                    BufferObject {
                        data: Buffer::from_bytes(Vec::new()),
                        mapped: None,
                        resident: false,
                    },
                );
                id
            })
            .collect()
    }

    /// `glDeleteBuffers`: unbinds them everywhere and makes them non-resident.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let ids = ctx.gen_buffers(1);
    /// ctx.delete_buffers(&ids);
    /// ```
    pub fn delete_buffers(&mut self, ids: &[u32]) {
        for id in ids {
            if let Some(o) = self.buffers.objects.remove(id) {
                self.memory.make_non_resident(&o.data);
                if let Some(m) = o.mapped {
                    m.store(false, Ordering::Release);
                }
            }
            self.buffers.bound.retain(|_, b| b != id);
            self.buffers.indexed.retain(|_, b| b.id != *id);
            self.arrays.unbind_buffer(*id);
        }
    }

    /// `glBindBuffer` (0 unbinds). Names need not come from `gen_buffers` (GL
    /// compatibility profile behaviour).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 7).unwrap();
    /// assert_eq!(ctx.bind_buffer(gl::TRIANGLES, 7).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn bind_buffer(&mut self, target: u32, id: u32) -> Result<()> {
        if !TARGETS.contains(&target) {
            return Err(Error::invalid_enum("buffer target", target));
        }
        if id == 0 {
            self.buffers.bound.remove(&target);
            return Ok(());
        }
        self.ensure_buffer(id);
        self.buffers.bound.insert(target, id);
        Ok(())
    }

    fn ensure_buffer(&mut self, id: u32) {
        self.buffers.next_id = self.buffers.next_id.max(id);
        self.buffers
            .objects
            .entry(id)
            .or_insert_with(|| BufferObject {
                data: Buffer::from_bytes(Vec::new()),
                mapped: None,
                resident: false,
            });
    }

    /// `glBindBufferRange`: binds `size` bytes at `offset` to binding `index` of an
    /// indexed target (uniform, storage, atomic counter, transform feedback, NV parameter
    /// buffers).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.gen_buffers(1)[0];
    /// ctx.bind_buffer_range(gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV, 0, b, 0, 16).unwrap();
    /// let e = ctx.bind_buffer_range(gl::UNIFORM_BUFFER, 99, b, 0, 16).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn bind_buffer_range(
        &mut self,
        target: u32,
        index: u32,
        id: u32,
        offset: u64,
        size: u64,
    ) -> Result<()> {
        if size == 0 && id != 0 {
            return Err(Error::invalid_value("bind_buffer_range with size 0"));
        }
        self.bind_indexed(target, index, id, offset, Some(size))
    }

    /// `glBindBufferBase`: binds the whole buffer to binding `index`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.gen_buffers(1)[0];
    /// ctx.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, 0, b).unwrap();
    /// ```
    pub fn bind_buffer_base(&mut self, target: u32, index: u32, id: u32) -> Result<()> {
        self.bind_indexed(target, index, id, 0, None)
    }

    fn bind_indexed(
        &mut self,
        target: u32,
        index: u32,
        id: u32,
        offset: u64,
        size: Option<u64>,
    ) -> Result<()> {
        let limit = indexed_limit(target)
            .ok_or_else(|| Error::invalid_enum("indexed buffer target", target))?;
        if index >= limit {
            return Err(Error::invalid_value(format!(
                "binding index {index} (max {})",
                limit - 1
            )));
        }
        if target == gl::TRANSFORM_FEEDBACK_BUFFER && self.xfb.is_active() {
            return Err(Error::invalid_operation("transform feedback is active"));
        }
        if id == 0 {
            self.buffers.indexed.remove(&(target, index));
        } else {
            self.ensure_buffer(id);
            self.buffers
                .indexed
                .insert((target, index), IndexedBinding { id, offset, size });
        }
        // Indexed binds also set the generic binding, as GL does.
        self.bind_buffer(target, id)
    }

    fn bound_object(&self, target: u32) -> Result<(u32, &BufferObject)> {
        if !TARGETS.contains(&target) {
            return Err(Error::invalid_enum("buffer target", target));
        }
        let id = *self.buffers.bound.get(&target).ok_or_else(|| {
            Error::invalid_operation(format!("no buffer is bound to target 0x{target:04X}"))
        })?;
        let o = self
            .buffers
            .objects
            .get(&id)
            .ok_or_else(|| Error::invalid_operation(format!("buffer {id} does not exist")))?;
        Ok((id, o))
    }

    /// `glBufferData` with initial contents.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.buffer_data(gl::ARRAY_BUFFER, &[0; 4], gl::STATIC_DRAW).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn buffer_data(&mut self, target: u32, data: &[u8], usage: u32) -> Result<()> {
        self.buffer_data_inner(target, data.to_vec(), usage)
    }

    /// `glBufferData(target, size, NULL, usage)`: `size` zero bytes.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// let e = ctx.buffer_data_size(gl::ARRAY_BUFFER, 1 << 40, gl::STATIC_DRAW).unwrap_err();
    /// assert_eq!(e.gl, GlError::OutOfMemory);
    /// ```
    pub fn buffer_data_size(&mut self, target: u32, size: u64, usage: u32) -> Result<()> {
        if size > MAX_BUFFER_SIZE {
            self.bound_object(target)?;
            return Err(Error::out_of_memory(format!(
                "buffer of {size} bytes (max {MAX_BUFFER_SIZE})"
            )));
        }
        self.buffer_data_inner(target, vec![0; size as usize], usage)
    }

    fn buffer_data_inner(&mut self, target: u32, bytes: Vec<u8>, usage: u32) -> Result<()> {
        let (id, o) = self.bound_object(target)?;
        if !matches!(usage, 0x88E0..=0x88EA) {
            return Err(Error::invalid_enum("buffer usage", usage));
        }
        if o.mapped.is_some() {
            return Err(Error::invalid_operation(format!("buffer {id} is mapped")));
        }
        if bytes.len() as u64 > MAX_BUFFER_SIZE {
            return Err(Error::out_of_memory(format!(
                "buffer of {} bytes (max {MAX_BUFFER_SIZE})",
                bytes.len()
            )));
        }
        // A new data store: the old one stays alive for draws that captured it, and loses
        // its GPU address (NV_shader_buffer_load: respecifying makes it non-resident).
        let fresh = Buffer::from_bytes(bytes);
        if let Some(o) = self.buffers.objects.get_mut(&id) {
            if o.resident {
                self.memory.make_non_resident(&o.data);
                o.resident = false;
            }
            o.data = fresh;
        }
        Ok(())
    }

    /// `glBufferSubData`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 4, gl::STATIC_DRAW).unwrap();
    /// ctx.buffer_sub_data(gl::ARRAY_BUFFER, 2, &[5, 6]).unwrap();
    /// assert_eq!(ctx.buffer_sub_data(gl::ARRAY_BUFFER, 3, &[5, 6]).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn buffer_sub_data(&mut self, target: u32, offset: u64, bytes: &[u8]) -> Result<()> {
        let (id, o) = self.bound_object(target)?;
        if o.mapped.is_some() {
            return Err(Error::invalid_operation(format!("buffer {id} is mapped")));
        }
        check_range(offset, bytes.len() as u64, o.data.len())?;
        o.data.write(offset, bytes).map_err(from_pipeline)
    }

    /// `glGetBufferSubData`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data(gl::ARRAY_BUFFER, &[1, 2, 3], gl::STATIC_DRAW).unwrap();
    /// assert_eq!(ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 1, 2).unwrap(), vec![2, 3]);
    /// ```
    pub fn get_buffer_sub_data(&self, target: u32, offset: u64, len: u64) -> Result<Vec<u8>> {
        let (_, o) = self.bound_object(target)?;
        check_range(offset, len, o.data.len())?;
        let mut out = vec![0; len as usize];
        o.data.read(offset, &mut out).map_err(from_pipeline)?;
        Ok(out)
    }

    /// `glGetBufferParameteriv(BUFFER_SIZE)`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 12, gl::STATIC_DRAW).unwrap();
    /// assert_eq!(ctx.buffer_size(gl::ARRAY_BUFFER).unwrap(), 12);
    /// ```
    pub fn buffer_size(&self, target: u32) -> Result<u64> {
        Ok(self.bound_object(target)?.1.data.len())
    }

    /// `glMapBuffer`: maps the bound buffer; mapping a mapped buffer is
    /// `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 4, gl::STATIC_DRAW).unwrap();
    /// let _m = ctx.map_buffer(gl::ARRAY_BUFFER, gl::READ_WRITE).unwrap();
    /// assert_eq!(ctx.map_buffer(gl::ARRAY_BUFFER, gl::READ_WRITE).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn map_buffer(&mut self, target: u32, access: u32) -> Result<Mapping> {
        let (readable, writable) = match access {
            gl::READ_ONLY => (true, false),
            gl::WRITE_ONLY => (false, true),
            gl::READ_WRITE => (true, true),
            a => return Err(Error::invalid_enum("map access", a)),
        };
        let (id, o) = self.bound_object(target)?;
        if o.mapped.is_some() {
            return Err(Error::invalid_operation(format!(
                "buffer {id} is already mapped"
            )));
        }
        let live = Arc::new(AtomicBool::new(true));
        let data = Arc::clone(&o.data);
        if let Some(o) = self.buffers.objects.get_mut(&id) {
            o.mapped = Some(Arc::clone(&live));
        }
        Ok(Mapping {
            data,
            live,
            writable,
            readable,
        })
    }

    /// `glUnmapBuffer`; unmapping a buffer that is not mapped is `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// assert_eq!(ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn unmap_buffer(&mut self, target: u32) -> Result<()> {
        let (id, _) = self.bound_object(target)?;
        let o = self
            .buffers
            .objects
            .get_mut(&id)
            .ok_or_else(|| Error::invalid_operation("buffer vanished"))?;
        match o.mapped.take() {
            Some(live) => {
                live.store(false, Ordering::Release);
                Ok(())
            }
            None => Err(Error::invalid_operation(format!(
                "buffer {id} is not mapped"
            ))),
        }
    }

    /// `glMakeBufferResidentNV`: gives the bound buffer a GPU address that LOAD/STORE/ATOM
    /// can use (`access` READ_ONLY or READ_WRITE).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 64, gl::STATIC_DRAW).unwrap();
    /// ctx.make_buffer_resident(gl::ARRAY_BUFFER, gl::READ_WRITE).unwrap();
    /// assert_ne!(ctx.buffer_gpu_address(gl::ARRAY_BUFFER).unwrap(), 0);
    /// ```
    pub fn make_buffer_resident(&mut self, target: u32, access: u32) -> Result<()> {
        if !matches!(access, gl::READ_ONLY | gl::READ_WRITE) {
            return Err(Error::invalid_enum("residency access", access));
        }
        let (id, o) = self.bound_object(target)?;
        if o.resident {
            return Err(Error::invalid_operation(format!(
                "buffer {id} is already resident"
            )));
        }
        self.memory.make_resident(&o.data).map_err(from_pipeline)?;
        if let Some(o) = self.buffers.objects.get_mut(&id) {
            o.resident = true;
        }
        Ok(())
    }

    /// `glMakeBufferNonResidentNV`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// assert_eq!(ctx.make_buffer_non_resident(gl::ARRAY_BUFFER).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn make_buffer_non_resident(&mut self, target: u32) -> Result<()> {
        let (id, o) = self.bound_object(target)?;
        if !o.resident {
            return Err(Error::invalid_operation(format!(
                "buffer {id} is not resident"
            )));
        }
        self.memory.make_non_resident(&o.data);
        if let Some(o) = self.buffers.objects.get_mut(&id) {
            o.resident = false;
        }
        Ok(())
    }

    /// `glGetBufferParameterui64vNV(BUFFER_GPU_ADDRESS_NV)`; a buffer that is not
    /// resident has no address (`INVALID_OPERATION`).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// assert_eq!(ctx.buffer_gpu_address(gl::ARRAY_BUFFER).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn buffer_gpu_address(&self, target: u32) -> Result<u64> {
        let (id, o) = self.bound_object(target)?;
        if !o.resident {
            return Err(Error::invalid_operation(format!(
                "buffer {id} is not resident"
            )));
        }
        self.memory
            .address_of(&o.data)
            .ok_or_else(|| Error::invalid_operation(format!("buffer {id} has no GPU address")))
    }

    /// Storage of buffer `id`, for draws.
    pub(crate) fn buffer_storage(&self, id: u32) -> Result<Arc<Buffer>> {
        let o = self
            .buffers
            .objects
            .get(&id)
            .ok_or_else(|| Error::invalid_operation(format!("buffer {id} does not exist")))?;
        if o.mapped.is_some() {
            return Err(Error::invalid_operation(format!("buffer {id} is mapped")));
        }
        Ok(Arc::clone(&o.data))
    }

    /// The buffer range bound at indexed binding (target, index), for draws.
    pub(crate) fn indexed_range(
        &self,
        target: u32,
        index: u32,
    ) -> Result<Option<glemu_pipeline::BufferRange>> {
        let Some(b) = self.buffers.indexed.get(&(target, index)).copied() else {
            return Ok(None);
        };
        Ok(Some(glemu_pipeline::BufferRange {
            buffer: self.buffer_storage(b.id)?,
            offset: b.offset,
            size: b.size,
        }))
    }
}

fn check_range(offset: u64, len: u64, size: u64) -> Result<()> {
    match offset.checked_add(len) {
        Some(end) if end <= size => Ok(()),
        _ => Err(Error::invalid_value(format!(
            "range {offset}+{len} is outside the buffer's {size} bytes"
        ))),
    }
}
