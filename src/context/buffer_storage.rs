//! Immutable buffer storage (glBufferStorage, GL 4.6 section 6.2 / ARB_buffer_storage)
//! and buffer invalidation (glInvalidateBufferData / SubData, section 6.5). Storage
//! flags decide which mappings are allowed; persistent mappings leave the buffer usable
//! while mapped.

use super::Context;
use crate::error::from_pipeline;
use crate::error::{Error, Result};
use crate::gl;
use glemu_pipeline::memory::MAX_BUFFER_SIZE;
use glemu_pipeline::Buffer;

/// Every flag glBufferStorage defines.
const STORAGE_BITS: u32 = gl::DYNAMIC_STORAGE_BIT
    | gl::MAP_READ_BIT
    | gl::MAP_WRITE_BIT
    | gl::MAP_PERSISTENT_BIT
    | gl::MAP_COHERENT_BIT
    | gl::CLIENT_STORAGE_BIT;

/// # Chapter 6.2 — Immutable buffer storage
///
/// `buffer_storage`, invalidation.
impl Context {
    /// `glBufferStorage` with initial contents: an immutable store of `data.len()` bytes
    /// with `flags` (`DYNAMIC_STORAGE_BIT`, `MAP_READ_BIT`, `MAP_WRITE_BIT`,
    /// `MAP_PERSISTENT_BIT`, `MAP_COHERENT_BIT`, `CLIENT_STORAGE_BIT`). Zero size, unknown
    /// flags, PERSISTENT without READ or WRITE, or COHERENT without PERSISTENT are
    /// `INVALID_VALUE`; a buffer that already has immutable storage `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// let flags = gl::MAP_WRITE_BIT | gl::MAP_PERSISTENT_BIT | gl::MAP_COHERENT_BIT;
    /// ctx.buffer_storage(gl::ARRAY_BUFFER, &[0u8; 8], flags).unwrap();
    /// let m = ctx.map_buffer_range(gl::ARRAY_BUFFER, 0, 8, flags).unwrap();
    /// m.write(0, &[5u8]).unwrap();
    /// // Persistently mapped, the buffer stays readable through the API.
    /// assert_eq!(ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, 1).unwrap(), vec![5]);
    /// // Immutable: no second storage, no glBufferData, no sub-data without DYNAMIC_STORAGE_BIT.
    /// assert_eq!(ctx.buffer_storage(gl::ARRAY_BUFFER, &[0u8; 8], flags).unwrap_err().gl, GlError::InvalidOperation);
    /// assert_eq!(ctx.buffer_data(gl::ARRAY_BUFFER, &[0u8], gl::STATIC_DRAW).unwrap_err().gl, GlError::InvalidOperation);
    /// assert_eq!(ctx.buffer_sub_data(gl::ARRAY_BUFFER, 0, &[1u8]).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn buffer_storage<T: bytemuck::Pod>(
        &mut self,
        target: u32,
        data: &[T],
        flags: u32,
    ) -> Result<()> {
        let bytes: &[u8] = bytemuck::cast_slice(data);
        self.buffer_storage_inner(target, bytes.len() as u64, Some(bytes), flags)
    }

    /// `glBufferStorage(target, size, NULL, flags)`: `size` zero bytes.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::UNIFORM_BUFFER, 1).unwrap();
    /// let e = ctx.buffer_storage_size(gl::UNIFORM_BUFFER, 0, gl::MAP_READ_BIT).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// let e = ctx.buffer_storage_size(gl::UNIFORM_BUFFER, 16, gl::MAP_COHERENT_BIT).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue); // coherent without persistent
    /// ctx.buffer_storage_size(gl::UNIFORM_BUFFER, 16, gl::DYNAMIC_STORAGE_BIT).unwrap();
    /// ctx.buffer_sub_data(gl::UNIFORM_BUFFER, 0, &[1u8, 2]).unwrap();
    /// let e = ctx.map_buffer_range(gl::UNIFORM_BUFFER, 0, 4, gl::MAP_READ_BIT).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // no MAP_READ_BIT in the storage flags
    /// assert_eq!(ctx.get_buffer_parameter_iv(gl::UNIFORM_BUFFER, gl::BUFFER_IMMUTABLE_STORAGE).unwrap(), 1);
    /// ```
    pub fn buffer_storage_size(&mut self, target: u32, size: u64, flags: u32) -> Result<()> {
        self.buffer_storage_inner(target, size, None, flags)
    }

    fn buffer_storage_inner(
        &mut self,
        target: u32,
        size: u64,
        data: Option<&[u8]>,
        flags: u32,
    ) -> Result<()> {
        let (id, o) = self.bound_object(target)?;
        if size == 0 {
            return Err(Error::invalid_value("buffer storage of 0 bytes"));
        }
        if flags & !STORAGE_BITS != 0 {
            return Err(Error::invalid_value(format!(
                "unknown storage flags 0x{:X}",
                flags & !STORAGE_BITS
            )));
        }
        let rw = gl::MAP_READ_BIT | gl::MAP_WRITE_BIT;
        if flags & gl::MAP_PERSISTENT_BIT != 0 && flags & rw == 0 {
            return Err(Error::invalid_value(
                "MAP_PERSISTENT_BIT without MAP_READ_BIT or MAP_WRITE_BIT",
            ));
        }
        if flags & gl::MAP_COHERENT_BIT != 0 && flags & gl::MAP_PERSISTENT_BIT == 0 {
            return Err(Error::invalid_value(
                "MAP_COHERENT_BIT without MAP_PERSISTENT_BIT",
            ));
        }
        if o.immutable {
            return Err(Error::invalid_operation(format!(
                "buffer {id} already has immutable storage"
            )));
        }
        if size > MAX_BUFFER_SIZE {
            return Err(Error::out_of_memory(format!(
                "buffer of {size} bytes (max {MAX_BUFFER_SIZE})"
            )));
        }
        self.charge_store(target, size)?;
        let fresh = match data {
            Some(d) => Buffer::from_bytes(d.to_vec()),
            None => Buffer::new(size).map_err(from_pipeline)?,
        };
        let Some(o) = self.buffers.objects.get_mut(&id) else {
            return Err(Error::invalid_operation("buffer vanished"));
        };
        o.replace_store(&self.memory, fresh);
        o.usage = gl::DYNAMIC_DRAW;
        o.immutable = true;
        o.storage_flags = flags;
        Ok(())
    }

    /// `glInvalidateBufferData`: the contents become undefined; glemu keeps them. A
    /// buffer mapped other than persistently is `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.gen_buffers(1).unwrap()[0];
    /// assert_eq!(ctx.invalidate_buffer_data(b).unwrap_err().gl, GlError::InvalidValue); // never bound
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 8, gl::STATIC_DRAW).unwrap();
    /// ctx.invalidate_buffer_data(b).unwrap();
    /// let _m = ctx.map_buffer(gl::ARRAY_BUFFER, gl::READ_ONLY).unwrap();
    /// assert_eq!(ctx.invalidate_buffer_data(b).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn invalidate_buffer_data(&mut self, id: u32) -> Result<()> {
        let size = self.named_buffer(id)?.data.len();
        self.invalidate_buffer_sub_data(id, 0, size)
    }

    /// `glInvalidateBufferSubData`: a range outside the buffer or a name that is not a
    /// buffer is `INVALID_VALUE`; a range overlapping a non-persistent mapping
    /// `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 3).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 8, gl::STATIC_DRAW).unwrap();
    /// let _m = ctx.map_buffer_range(gl::ARRAY_BUFFER, 4, 4, gl::MAP_WRITE_BIT).unwrap();
    /// ctx.invalidate_buffer_sub_data(3, 0, 4).unwrap();
    /// assert_eq!(ctx.invalidate_buffer_sub_data(3, 2, 4).unwrap_err().gl, GlError::InvalidOperation);
    /// assert_eq!(ctx.invalidate_buffer_sub_data(3, 6, 4).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn invalidate_buffer_sub_data(&mut self, id: u32, offset: u64, length: u64) -> Result<()> {
        let o = self.named_buffer(id)?;
        let size = o.data.len();
        let end = offset
            .checked_add(length)
            .filter(|&e| e <= size)
            .ok_or_else(|| {
                Error::invalid_value(format!(
                    "range {offset}+{length} is outside the buffer's {size} bytes"
                ))
            })?;
        if let Some(m) = o.mapped.as_ref().filter(|_| o.mapped_exclusively()) {
            if offset < m.offset + m.length && m.offset < end {
                return Err(Error::invalid_operation(format!(
                    "bytes {offset}..{end} of buffer {id} are mapped"
                )));
            }
        }
        // Undefined contents may as well be the old ones.
        Ok(())
    }

    fn named_buffer(&self, id: u32) -> Result<&super::buffers::BufferObject> {
        self.buffers
            .objects
            .get(&id)
            .filter(|o| o.created)
            .ok_or_else(|| Error::invalid_value(format!("{id} is not a buffer object")))
    }
}
