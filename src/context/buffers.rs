//! Buffer objects: data, sub-data, mapping, indexed bindings, and NV_shader_buffer_load
//! residency (GPU addresses in the pipeline's emulated address space).

use super::mapping::{MapState, MUTABLE_STORAGE_FLAGS};
use super::Context;
use crate::error::{from_pipeline, zeroed, Error, Result};
use crate::gl;
use glemu_pipeline::memory::MAX_BUFFER_SIZE;
use glemu_pipeline::{Buffer, GpuMemory};
use glemu_programs::Stage;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// One buffer object.
#[derive(Debug)]
pub(crate) struct BufferObject {
    pub data: Arc<Buffer>,
    pub mapped: Option<MapState>,
    pub resident: bool,
    /// BUFFER_USAGE.
    pub usage: u32,
    /// BUFFER_ACCESS of the latest mapping.
    pub access: u32,
    /// Bound at least once: a name from glGenBuffers is not a buffer object before that.
    pub created: bool,
    /// BUFFER_IMMUTABLE_STORAGE: made by glBufferStorage.
    pub immutable: bool,
    /// BUFFER_STORAGE_FLAGS.
    pub storage_flags: u32,
}

impl BufferObject {
    /// A new data store (glBufferData, glBufferStorage): a mapping ends first (GL 4.6
    /// section 6.2), and the GPU address goes with the old store (NV_shader_buffer_load:
    /// respecifying makes a buffer non-resident). Draws that captured the old store keep it.
    pub(crate) fn replace_store(&mut self, memory: &GpuMemory, fresh: Arc<Buffer>) {
        if let Some(m) = self.mapped.take() {
            m.end();
        }
        if self.resident {
            memory.make_non_resident(&self.data);
            self.resident = false;
        }
        self.data = fresh;
    }
}

impl BufferObject {
    fn new(created: bool) -> BufferObject {
        BufferObject {
            data: Buffer::from_bytes(Vec::new()),
            mapped: None,
            resident: false,
            usage: gl::STATIC_DRAW,
            access: gl::READ_WRITE,
            created,
            immutable: false,
            storage_flags: MUTABLE_STORAGE_FLAGS,
        }
    }

    /// Mapped other than persistently: GL then forbids other uses of the store.
    pub(crate) fn mapped_exclusively(&self) -> bool {
        self.mapped
            .as_ref()
            .is_some_and(|m| m.access & gl::MAP_PERSISTENT_BIT == 0)
    }
}

/// The usages glBufferData accepts.
const USAGES: &[u32] = &[
    gl::STREAM_DRAW,
    gl::STREAM_READ,
    gl::STREAM_COPY,
    gl::STATIC_DRAW,
    gl::STATIC_READ,
    gl::STATIC_COPY,
    gl::DYNAMIC_DRAW,
    gl::DYNAMIC_READ,
    gl::DYNAMIC_COPY,
];

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
    /// Live `Mapping::bytes()` guards (each holds its buffer's lock).
    pub guards: Arc<AtomicUsize>,
}

impl Buffers {
    /// A draw or dispatch may reach any buffer (bindings, GPU addresses), and its workers
    /// would wait forever for a lock a `Mapping::bytes()` guard of this thread holds.
    pub(crate) fn check_no_guard(&self) -> Result<()> {
        match self.guards.load(Ordering::Acquire) {
            0 => Ok(()),
            n => Err(Error::invalid_operation(format!(
                "{n} Mapping::bytes() guard(s) still hold buffer contents; drop them before drawing"
            ))),
        }
    }
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
    gl::PARAMETER_BUFFER,
    gl::TEXTURE_BUFFER,
    gl::VERTEX_PROGRAM_PARAMETER_BUFFER_NV,
    gl::GEOMETRY_PROGRAM_PARAMETER_BUFFER_NV,
    gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV,
    gl::TESS_CONTROL_PROGRAM_PARAMETER_BUFFER_NV,
    gl::TESS_EVALUATION_PROGRAM_PARAMETER_BUFFER_NV,
    gl::COMPUTE_PROGRAM_PARAMETER_BUFFER_NV,
    gl::DISPATCH_INDIRECT_BUFFER,
];

/// Targets with indexed binding points, and how many (the counts programs may name).
pub(crate) fn indexed_limit(target: u32) -> Option<u32> {
    use crate::caps::{LIMITS, MAX_TRANSFORM_FEEDBACK_BUFFERS};
    Some(match target {
        gl::UNIFORM_BUFFER => 16,
        gl::SHADER_STORAGE_BUFFER => LIMITS.max_storage_buffer_bindings,
        gl::ATOMIC_COUNTER_BUFFER => LIMITS.max_atomic_counter_bindings,
        gl::TRANSFORM_FEEDBACK_BUFFER => MAX_TRANSFORM_FEEDBACK_BUFFERS,
        gl::VERTEX_PROGRAM_PARAMETER_BUFFER_NV
        | gl::GEOMETRY_PROGRAM_PARAMETER_BUFFER_NV
        | gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV
        | gl::TESS_CONTROL_PROGRAM_PARAMETER_BUFFER_NV
        | gl::TESS_EVALUATION_PROGRAM_PARAMETER_BUFFER_NV
        | gl::COMPUTE_PROGRAM_PARAMETER_BUFFER_NV => LIMITS.max_program_parameter_buffer_bindings,
        _ => return None,
    })
}

/// Parameter-buffer binding target of a stage's programs.
pub(crate) fn param_buffer_target(stage: Stage) -> u32 {
    match stage {
        Stage::Vertex => gl::VERTEX_PROGRAM_PARAMETER_BUFFER_NV,
        Stage::Fragment => gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV,
        Stage::Geometry => gl::GEOMETRY_PROGRAM_PARAMETER_BUFFER_NV,
        Stage::TessControl => gl::TESS_CONTROL_PROGRAM_PARAMETER_BUFFER_NV,
        Stage::TessEval => gl::TESS_EVALUATION_PROGRAM_PARAMETER_BUFFER_NV,
        Stage::Compute => gl::COMPUTE_PROGRAM_PARAMETER_BUFFER_NV,
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
    super::programs::target_stage(program_target).map(param_buffer_target)
}

pub use super::mapping::{MappedBytes, Mapping};

/// # Chapter 6 — Buffer objects
///
/// Names, bindings (indexed too), `buffer_data` / `buffer_sub_data` of any `bytemuck::Pod`
/// slice, copies, GPU addresses.
impl Context {
    /// `glGenBuffers`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.gen_buffers(3).unwrap().len(), 3);
    /// ```
    pub fn gen_buffers(&mut self, n: usize) -> Result<Vec<u32>> {
        let room = self.memory_room();
        let b = &mut self.buffers;
        super::names::generate(
            "buffer",
            n,
            room,
            &mut b.next_id,
            &mut b.objects,
            super::names::NONE_OUTSIDE,
            || BufferObject::new(false),
        )
    }

    /// `glDeleteBuffers`: unbinds them everywhere and makes them non-resident.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let ids = ctx.gen_buffers(1).unwrap();
    /// ctx.delete_buffers(&ids);
    /// ```
    pub fn delete_buffers(&mut self, ids: &[u32]) {
        for id in ids {
            if let Some(o) = self.buffers.objects.remove(id) {
                self.memory.make_non_resident(&o.data);
                if let Some(m) = o.mapped {
                    m.end();
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
            .or_insert_with(|| BufferObject::new(true))
            .created = true;
    }

    /// `glBindBufferRange`: binds `size` bytes at `offset` to binding `index` of an
    /// indexed target (uniform, storage, atomic counter, transform feedback, NV parameter
    /// buffers).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.gen_buffers(1).unwrap()[0];
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
    /// let b = ctx.gen_buffers(1).unwrap()[0];
    /// ctx.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, 0, b).unwrap();
    /// ```
    pub fn bind_buffer_base(&mut self, target: u32, index: u32, id: u32) -> Result<()> {
        self.bind_indexed(target, index, id, 0, None)
    }

    /// `glBindBuffersBase` (GL 4.4 multi-bind): binds `buffers[i]` whole to binding
    /// `first + i` (0 unbinds); the generic binding is left alone. A range past the
    /// target's bindings is `INVALID_OPERATION`, as is a name that is not a buffer
    /// object: that binding stays as it was, the others are made, and the first error is
    /// returned.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.gen_buffers(2).unwrap();
    /// ctx.bind_buffers_base(gl::UNIFORM_BUFFER, 3, &[b[0], 0, b[1]]).unwrap();
    /// assert_eq!(ctx.get_integer_i_v(gl::UNIFORM_BUFFER_BINDING, 5).unwrap(), i64::from(b[1]));
    /// assert_eq!(ctx.get_integer_v(gl::UNIFORM_BUFFER_BINDING).unwrap(), vec![0]);
    /// let e = ctx.bind_buffers_base(gl::UNIFORM_BUFFER, 14, &[b[0], 77]).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // only 16 bindings
    /// let e = ctx.bind_buffers_base(gl::UNIFORM_BUFFER, 0, &[77, b[1]]).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // 77 is no buffer; binding 1 is made
    /// assert_eq!(ctx.get_integer_i_v(gl::UNIFORM_BUFFER_BINDING, 1).unwrap(), i64::from(b[1]));
    /// ```
    pub fn bind_buffers_base(&mut self, target: u32, first: u32, buffers: &[u32]) -> Result<()> {
        let ranges: Vec<(u32, u64, Option<u64>)> = buffers.iter().map(|&b| (b, 0, None)).collect();
        self.bind_many(target, first, &ranges)
    }

    /// `glBindBuffersRange`: binds `sizes[i]` bytes at `offsets[i]` of `buffers[i]` to
    /// binding `first + i`, with the errors of [`Context::bind_buffers_base`]; a zero
    /// size of a non-zero buffer is `INVALID_VALUE` for that binding, and slices of
    /// different lengths `INVALID_VALUE` for the call.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.gen_buffers(1).unwrap()[0];
    /// ctx.bind_buffers_range(gl::SHADER_STORAGE_BUFFER, 0, &[b, b], &[0, 64], &[64, 32]).unwrap();
    /// assert_eq!(ctx.get_integer_i_v(gl::SHADER_STORAGE_BUFFER_START, 1).unwrap(), 64);
    /// let e = ctx.bind_buffers_range(gl::SHADER_STORAGE_BUFFER, 0, &[b], &[0], &[0]).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn bind_buffers_range(
        &mut self,
        target: u32,
        first: u32,
        buffers: &[u32],
        offsets: &[u64],
        sizes: &[u64],
    ) -> Result<()> {
        if buffers.len() != offsets.len() || buffers.len() != sizes.len() {
            return Err(Error::invalid_value(
                "buffers, offsets and sizes differ in length",
            ));
        }
        let ranges: Vec<(u32, u64, Option<u64>)> = buffers
            .iter()
            .zip(offsets.iter().zip(sizes))
            .map(|(&b, (&o, &s))| (b, o, Some(s)))
            .collect();
        self.bind_many(target, first, &ranges)
    }

    fn bind_many(
        &mut self,
        target: u32,
        first: u32,
        ranges: &[(u32, u64, Option<u64>)],
    ) -> Result<()> {
        let limit = indexed_limit(target)
            .ok_or_else(|| Error::invalid_enum("indexed buffer target", target))?;
        let end = u64::from(first) + ranges.len() as u64;
        if end > u64::from(limit) {
            return Err(Error::invalid_operation(format!(
                "bindings {first}..{end} (the target has {limit})"
            )));
        }
        if target == gl::TRANSFORM_FEEDBACK_BUFFER && self.xfb.is_active() {
            return Err(Error::invalid_operation("transform feedback is active"));
        }
        let mut first_error = None;
        for (index, &(id, offset, size)) in (first..).zip(ranges) {
            let problem = if id != 0 && !self.buffers.objects.contains_key(&id) {
                Some(Error::invalid_operation(format!(
                    "{id} is not a buffer object"
                )))
            } else if id != 0 && size == Some(0) {
                Some(Error::invalid_value(format!("binding {index} of 0 bytes")))
            } else {
                None
            };
            if let Some(e) = problem {
                first_error.get_or_insert(e);
                continue;
            }
            self.set_indexed(target, index, id, offset, size);
        }
        first_error.map_or(Ok(()), Err)
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
        self.set_indexed(target, index, id, offset, size);
        // Indexed binds also set the generic binding, as GL does.
        self.bind_buffer(target, id)
    }

    /// Binding `index` of `target` becomes buffer `id`'s range (0 unbinds).
    fn set_indexed(&mut self, target: u32, index: u32, id: u32, offset: u64, size: Option<u64>) {
        if id == 0 {
            self.buffers.indexed.remove(&(target, index));
        } else {
            self.ensure_buffer(id);
            self.buffers
                .indexed
                .insert((target, index), IndexedBinding { id, offset, size });
        }
    }

    pub(super) fn bound_object(&self, target: u32) -> Result<(u32, &BufferObject)> {
        if !TARGETS.contains(&target) {
            return Err(Error::invalid_enum("buffer target", target));
        }
        let id = *self.buffers.bound.get(&target).ok_or_else(|| {
            Error::invalid_operation(format!("no buffer is bound to target {}", gl::name(target)))
        })?;
        let o = self
            .buffers
            .objects
            .get(&id)
            .ok_or_else(|| Error::invalid_operation(format!("buffer {id} does not exist")))?;
        Ok((id, o))
    }

    /// `glBufferData` with initial contents: a new data store (a mapped buffer is
    /// unmapped first, GL 4.6 section 6.2).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.buffer_data(gl::ARRAY_BUFFER, &[0u8; 4], gl::STATIC_DRAW).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn buffer_data<T: bytemuck::Pod>(
        &mut self,
        target: u32,
        data: &[T],
        usage: u32,
    ) -> Result<()> {
        let bytes: &[u8] = bytemuck::cast_slice(data);
        self.charge_store(target, bytes.len() as u64)?;
        let mut v = zeroed(bytes.len() as u64)?;
        v.copy_from_slice(bytes);
        self.buffer_data_inner(target, v, usage)
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
        self.charge_store(target, size)?;
        self.buffer_data_inner(target, zeroed(size)?, usage)
    }

    /// The memory budget's check for a new `size`-byte store of the buffer bound to
    /// `target` (its old store goes).
    pub(crate) fn charge_store(&self, target: u32, size: u64) -> Result<()> {
        let (id, o) = self.bound_object(target)?;
        self.charge(
            size,
            o.data.len(),
            &format_args!("a new store for buffer {id}"),
        )
    }

    fn buffer_data_inner(&mut self, target: u32, bytes: Vec<u8>, usage: u32) -> Result<()> {
        let (id, o) = self.bound_object(target)?;
        if !USAGES.contains(&usage) {
            return Err(Error::invalid_enum("buffer usage", usage));
        }
        if o.immutable {
            return Err(Error::invalid_operation(format!(
                "buffer {id} has immutable storage"
            )));
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
            o.replace_store(&self.memory, fresh);
            o.usage = usage;
        }
        Ok(())
    }

    /// `glBufferSubData`: writing into a mapped range is `INVALID_OPERATION`; the rest
    /// of a range-mapped buffer may be written.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 4, gl::STATIC_DRAW).unwrap();
    /// ctx.buffer_sub_data(gl::ARRAY_BUFFER, 2, &[5u8, 6]).unwrap();
    /// assert_eq!(ctx.buffer_sub_data(gl::ARRAY_BUFFER, 3, &[5u8, 6]).unwrap_err().gl, GlError::InvalidValue);
    /// let _m = ctx.map_buffer_range(gl::ARRAY_BUFFER, 2, 2, gl::MAP_READ_BIT).unwrap();
    /// ctx.buffer_sub_data(gl::ARRAY_BUFFER, 0, &[1u8, 1]).unwrap();
    /// assert_eq!(ctx.buffer_sub_data(gl::ARRAY_BUFFER, 1, &[1u8, 1]).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn buffer_sub_data<T: bytemuck::Pod>(
        &mut self,
        target: u32,
        offset: u64,
        data: &[T],
    ) -> Result<()> {
        let bytes: &[u8] = bytemuck::cast_slice(data);
        let (id, o) = self.bound_object(target)?;
        check_range(offset, bytes.len() as u64, o.data.len())?;
        if o.immutable && o.storage_flags & gl::DYNAMIC_STORAGE_BIT == 0 {
            return Err(Error::invalid_operation(format!(
                "buffer {id}'s storage lacks DYNAMIC_STORAGE_BIT"
            )));
        }
        if let Some(m) = o.mapped.as_ref().filter(|_| o.mapped_exclusively()) {
            // Both ranges lie inside the buffer, so the sums cannot overflow.
            let end = offset + bytes.len() as u64;
            if offset < m.offset + m.length && m.offset < end {
                return Err(Error::invalid_operation(format!(
                    "bytes {offset}..{end} of buffer {id} are mapped"
                )));
            }
        }
        o.data.write(offset, bytes).map_err(from_pipeline)
    }

    /// `glGetBufferSubData`; a mapped buffer is `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data(gl::ARRAY_BUFFER, &[1u8, 2, 3], gl::STATIC_DRAW).unwrap();
    /// assert_eq!(ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 1, 2).unwrap(), vec![2, 3]);
    /// ```
    pub fn get_buffer_sub_data(&self, target: u32, offset: u64, len: u64) -> Result<Vec<u8>> {
        let (id, o) = self.bound_object(target)?;
        if o.mapped_exclusively() {
            return Err(Error::invalid_operation(format!("buffer {id} is mapped")));
        }
        check_range(offset, len, o.data.len())?;
        let mut out = vec![0; len as usize];
        o.data.read(offset, &mut out).map_err(from_pipeline)?;
        Ok(out)
    }

    /// [`get_buffer_sub_data`](Self::get_buffer_sub_data) as `count` values of `T` (any
    /// `bytemuck::Pod`: `u32`, `f32`, `[f32; 4]`, `glam::Vec4`, ...) read from byte
    /// `offset`: typed data out, as `buffer_data` takes typed data in. A range past the
    /// buffer's end is `INVALID_VALUE`, as for the byte call.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data(gl::ARRAY_BUFFER, &[1.5f32, -2.0, 7.0], gl::STATIC_DRAW).unwrap();
    /// let v: Vec<f32> = ctx.get_buffer_sub_data_as(gl::ARRAY_BUFFER, 4, 2).unwrap();
    /// assert_eq!(v, [-2.0, 7.0]);
    /// assert!(ctx.get_buffer_sub_data_as::<[f32; 4]>(gl::ARRAY_BUFFER, 0, 1).is_err());
    /// ```
    pub fn get_buffer_sub_data_as<T: bytemuck::Pod>(
        &self,
        target: u32,
        offset: u64,
        count: usize,
    ) -> Result<Vec<T>> {
        let len = (count as u64)
            .checked_mul(std::mem::size_of::<T>() as u64)
            .ok_or_else(|| {
                Error::invalid_value(format!("{count} values overflow a buffer range"))
            })?;
        let bytes = self.get_buffer_sub_data(target, offset, len)?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
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

    /// `glIsBuffer`: a name from `gen_buffers` becomes a buffer object when first bound.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.gen_buffers(1).unwrap()[0];
    /// assert!(!ctx.is_buffer(b));
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
    /// assert!(ctx.is_buffer(b));
    /// ctx.delete_buffers(&[b]);
    /// assert!(!ctx.is_buffer(b) && !ctx.is_buffer(0));
    /// ```
    pub fn is_buffer(&self, id: u32) -> bool {
        self.buffers.objects.get(&id).is_some_and(|o| o.created)
    }

    /// `glGetBufferParameteri64v` of the bound buffer: `BUFFER_SIZE`, `BUFFER_USAGE`,
    /// `BUFFER_ACCESS`, `BUFFER_ACCESS_FLAGS`, `BUFFER_MAPPED`, `BUFFER_MAP_OFFSET`,
    /// `BUFFER_MAP_LENGTH`, `BUFFER_IMMUTABLE_STORAGE`, `BUFFER_STORAGE_FLAGS`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::COPY_READ_BUFFER, 1).unwrap();
    /// ctx.buffer_data_size(gl::COPY_READ_BUFFER, 64, gl::DYNAMIC_DRAW).unwrap();
    /// let _m = ctx.map_buffer_range(gl::COPY_READ_BUFFER, 16, 8, gl::MAP_READ_BIT).unwrap();
    /// let get = |p| ctx.get_buffer_parameter_i64v(gl::COPY_READ_BUFFER, p).unwrap();
    /// assert_eq!(get(gl::BUFFER_USAGE), gl::DYNAMIC_DRAW as i64);
    /// assert_eq!(get(gl::BUFFER_MAPPED), 1);
    /// assert_eq!((get(gl::BUFFER_MAP_OFFSET), get(gl::BUFFER_MAP_LENGTH)), (16, 8));
    /// assert_eq!(get(gl::BUFFER_ACCESS_FLAGS), gl::MAP_READ_BIT as i64);
    /// let e = ctx.get_buffer_parameter_i64v(gl::COPY_READ_BUFFER, gl::TRIANGLES).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidEnum);
    /// ```
    pub fn get_buffer_parameter_i64v(&self, target: u32, pname: u32) -> Result<i64> {
        let (_, o) = self.bound_object(target)?;
        let m = o.mapped.as_ref();
        let v = match pname {
            gl::BUFFER_SIZE => o.data.len(),
            gl::BUFFER_USAGE => u64::from(o.usage),
            gl::BUFFER_ACCESS => u64::from(o.access),
            gl::BUFFER_ACCESS_FLAGS => m.map_or(0, |m| u64::from(m.access)),
            gl::BUFFER_MAPPED => u64::from(m.is_some()),
            gl::BUFFER_MAP_OFFSET => m.map_or(0, |m| m.offset),
            gl::BUFFER_MAP_LENGTH => m.map_or(0, |m| m.length),
            gl::BUFFER_IMMUTABLE_STORAGE => u64::from(o.immutable),
            gl::BUFFER_STORAGE_FLAGS => u64::from(o.storage_flags),
            p => return Err(Error::invalid_enum("buffer parameter", p)),
        };
        // Sizes are capped at MAX_BUFFER_SIZE, far below i64::MAX.
        Ok(i64::try_from(v).unwrap_or(i64::MAX))
    }

    /// `glGetBufferParameteriv`: [`Context::get_buffer_parameter_i64v`] with values past
    /// `i32::MAX` clamped, as GL converts them.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 12, gl::STATIC_DRAW).unwrap();
    /// assert_eq!(ctx.get_buffer_parameter_iv(gl::ARRAY_BUFFER, gl::BUFFER_SIZE).unwrap(), 12);
    /// assert_eq!(ctx.get_buffer_parameter_iv(gl::ARRAY_BUFFER, gl::BUFFER_MAPPED).unwrap(), 0);
    /// ```
    pub fn get_buffer_parameter_iv(&self, target: u32, pname: u32) -> Result<i32> {
        let v = self.get_buffer_parameter_i64v(target, pname)?;
        Ok(i32::try_from(v).unwrap_or(i32::MAX))
    }

    /// `glCopyBufferSubData`: copies `size` bytes from `read_offset` of the buffer bound
    /// to `read_target` to `write_offset` of the one bound to `write_target` (any buffer
    /// targets; `COPY_READ_BUFFER` / `COPY_WRITE_BUFFER` exist for this). A range outside
    /// either buffer, or overlapping ranges of one buffer, is `INVALID_VALUE`; nothing
    /// bound or a mapped buffer is `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::COPY_READ_BUFFER, 1).unwrap();
    /// ctx.buffer_data(gl::COPY_READ_BUFFER, &[1u8, 2, 3, 4], gl::STATIC_DRAW).unwrap();
    /// ctx.bind_buffer(gl::COPY_WRITE_BUFFER, 2).unwrap();
    /// ctx.buffer_data_size(gl::COPY_WRITE_BUFFER, 4, gl::STATIC_DRAW).unwrap();
    /// ctx.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::COPY_WRITE_BUFFER, 1, 0, 3).unwrap();
    /// assert_eq!(ctx.get_buffer_sub_data(gl::COPY_WRITE_BUFFER, 0, 4).unwrap(), vec![2, 3, 4, 0]);
    /// // Within one buffer the ranges must not overlap.
    /// let e = ctx.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::COPY_READ_BUFFER, 0, 1, 2);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// ctx.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::COPY_READ_BUFFER, 0, 2, 2).unwrap();
    /// assert_eq!(ctx.get_buffer_sub_data(gl::COPY_READ_BUFFER, 0, 4).unwrap(), vec![1, 2, 1, 2]);
    /// ```
    pub fn copy_buffer_sub_data(
        &mut self,
        read_target: u32,
        write_target: u32,
        read_offset: u64,
        write_offset: u64,
        size: u64,
    ) -> Result<()> {
        let (rid, r) = self.bound_object(read_target)?;
        let (wid, w) = self.bound_object(write_target)?;
        for (id, o) in [(rid, r), (wid, w)] {
            if o.mapped_exclusively() {
                return Err(Error::invalid_operation(format!("buffer {id} is mapped")));
            }
        }
        check_range(read_offset, size, r.data.len())?;
        check_range(write_offset, size, w.data.len())?;
        // Both ends fit in the buffers (checked above), so the sums cannot overflow.
        if rid == wid && read_offset < write_offset + size && write_offset < read_offset + size {
            return Err(Error::invalid_value(format!(
                "source {read_offset}+{size} and destination {write_offset}+{size} overlap in buffer {rid}"
            )));
        }
        let mut bytes = vec![0; size as usize];
        r.data
            .read(read_offset, &mut bytes)
            .map_err(from_pipeline)?;
        w.data.write(write_offset, &bytes).map_err(from_pipeline)
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
    pub(crate) fn buffer_store(&self, id: u32) -> Result<Arc<Buffer>> {
        let o = self
            .buffers
            .objects
            .get(&id)
            .ok_or_else(|| Error::invalid_operation(format!("buffer {id} does not exist")))?;
        if o.mapped_exclusively() {
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
            buffer: self.buffer_store(b.id)?,
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
