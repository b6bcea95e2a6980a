//! Buffer mapping: glMapBuffer, glMapBufferRange (GL 4.6 section 6.3), explicit flushes
//! and glUnmapBuffer. A mapping is a window (offset, length) onto the data store; with
//! `MAP_FLUSH_EXPLICIT_BIT` writes land in a staging copy of the window and reach the
//! store only through [`Context::flush_mapped_buffer_range`], so unflushed writes are
//! dropped at unmap (GL leaves them undefined; dropping them is one allowed outcome).

use super::Context;
use crate::error::{from_pipeline, zeroed, Error, Result};
use crate::gl;
use glemu_pipeline::memory::HeldBytes;
use glemu_pipeline::Buffer;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// Every access bit glMapBufferRange defines.
const ALL_MAP_BITS: u32 = gl::MAP_READ_BIT
    | gl::MAP_WRITE_BIT
    | gl::MAP_INVALIDATE_RANGE_BIT
    | gl::MAP_INVALIDATE_BUFFER_BIT
    | gl::MAP_FLUSH_EXPLICIT_BIT
    | gl::MAP_UNSYNCHRONIZED_BIT
    | gl::MAP_PERSISTENT_BIT
    | gl::MAP_COHERENT_BIT;

/// The storage flags of a store made by glBufferData (GL 4.6 section 6.2): persistent
/// and coherent mappings need a glBufferStorage store that has those flags.
pub(crate) const MUTABLE_STORAGE_FLAGS: u32 =
    gl::MAP_READ_BIT | gl::MAP_WRITE_BIT | gl::DYNAMIC_STORAGE_BIT;

/// The mapped state of a buffer object (BUFFER_MAPPED and the values GL reports for it).
#[derive(Debug)]
pub(crate) struct MapState {
    pub live: Arc<AtomicBool>,
    /// BUFFER_ACCESS_FLAGS.
    pub access: u32,
    pub offset: u64,
    pub length: u64,
    /// The window's staging copy when `MAP_FLUSH_EXPLICIT_BIT` is set.
    pub staging: Option<Arc<Buffer>>,
}

impl MapState {
    /// Ends the mapping: every [`Mapping`] handle of it goes stale.
    pub(crate) fn end(&self) {
        self.live.store(false, Ordering::Release);
    }
}

/// A mapped buffer range (glMapBuffer / glMapBufferRange). Offsets are relative to the
/// start of the mapped range, as GL's returned pointer is. Valid until
/// [`Context::unmap_buffer`]; afterwards every access is `INVALID_OPERATION`.
///
/// ```
/// use glemu::{gl, Context, GlError};
/// let mut ctx = Context::new(4, 4).unwrap();
/// let b = ctx.gen_buffers(1).unwrap()[0];
/// ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
/// ctx.buffer_data(gl::ARRAY_BUFFER, &[0u8; 8], gl::STATIC_DRAW).unwrap();
/// let m = ctx.map_buffer(gl::ARRAY_BUFFER, gl::WRITE_ONLY).unwrap();
/// m.write(4, &[9u8, 9]).unwrap();
/// ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap();
/// assert_eq!(m.write(0, &[1u8]).unwrap_err().gl, GlError::InvalidOperation); // stale
/// assert_eq!(ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 4, 2).unwrap(), vec![9, 9]);
/// ```
#[derive(Debug)]
pub struct Mapping {
    /// Where reads and writes go: the data store, or the staging copy.
    data: Arc<Buffer>,
    /// Offset of the window in `data`.
    base: u64,
    len: u64,
    live: Arc<AtomicBool>,
    writable: bool,
    readable: bool,
    /// The context's count of live [`MappedBytes`] guards.
    guards: Arc<AtomicUsize>,
}

/// The bytes of a mapped range, locked for direct access ([`Mapping::bytes`]); a slice
/// of exactly the mapped range.
///
/// ```
/// use glemu::{gl, Context};
/// let mut ctx = Context::new(4, 4).unwrap();
/// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
/// ctx.buffer_data(gl::ARRAY_BUFFER, &[1u8, 2, 3, 4], gl::STATIC_DRAW).unwrap();
/// let m = ctx.map_buffer_range(gl::ARRAY_BUFFER, 1, 2, gl::MAP_READ_BIT | gl::MAP_WRITE_BIT).unwrap();
/// let mut bytes = m.bytes().unwrap();
/// assert_eq!(&*bytes, &[2, 3]);
/// bytes.reverse();
/// drop(bytes);
/// ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap();
/// assert_eq!(ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, 4).unwrap(), vec![1, 3, 2, 4]);
/// ```
#[derive(Debug)]
pub struct MappedBytes<'a> {
    held: HeldBytes<'a>,
    start: usize,
    end: usize,
    /// Counted in the context while alive: draws refuse to start meanwhile.
    _alive: GuardCount,
}

/// One live [`MappedBytes`] guard in its context's count.
#[derive(Debug)]
struct GuardCount(Arc<AtomicUsize>);

impl GuardCount {
    fn new(count: &Arc<AtomicUsize>) -> GuardCount {
        count.fetch_add(1, Ordering::AcqRel);
        GuardCount(Arc::clone(count))
    }
}

impl Drop for GuardCount {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Deref for MappedBytes<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.held.get(self.start..self.end).unwrap_or(&[])
    }
}

impl DerefMut for MappedBytes<'_> {
    fn deref_mut(&mut self) -> &mut [u8] {
        let (s, e) = (self.start, self.end);
        self.held.get_mut(s..e).unwrap_or(&mut [])
    }
}

impl Mapping {
    fn check(&self) -> Result<()> {
        if self.live.load(Ordering::Acquire) {
            Ok(())
        } else {
            Err(Error::invalid_operation("the buffer is no longer mapped"))
        }
    }

    /// Where `len` bytes at window offset `offset` are in `data`.
    fn locate(&self, offset: usize, len: usize) -> Result<u64> {
        let end = (offset as u64).checked_add(len as u64);
        match end {
            Some(end) if end <= self.len => Ok(self.base + offset as u64),
            _ => Err(Error::invalid_value(format!(
                "bytes {offset}+{len} are outside the {}-byte mapped range",
                self.len
            ))),
        }
    }

    /// Length of the mapped range in bytes.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 16, gl::STATIC_DRAW).unwrap();
    /// let m = ctx.map_buffer_range(gl::ARRAY_BUFFER, 4, 8, gl::MAP_READ_BIT).unwrap();
    /// assert_eq!(m.len(), 8);
    /// ```
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the mapped range is empty (only a zero-sized buffer's glMapBuffer is).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// assert!(ctx.map_buffer(gl::ARRAY_BUFFER, gl::READ_ONLY).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Reads `len` bytes at `offset` of the mapped range.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.gen_buffers(1).unwrap()[0];
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
    /// ctx.buffer_data(gl::ARRAY_BUFFER, &[1u8, 2, 3, 4], gl::STATIC_DRAW).unwrap();
    /// let m = ctx.map_buffer(gl::ARRAY_BUFFER, gl::READ_ONLY).unwrap();
    /// assert_eq!(m.read(1, 2).unwrap(), vec![2, 3]);
    /// ```
    pub fn read(&self, offset: usize, len: usize) -> Result<Vec<u8>> {
        self.check()?;
        if !self.readable {
            return Err(Error::invalid_operation("the buffer is mapped write-only"));
        }
        let at = self.locate(offset, len)?;
        let mut out = vec![0; len];
        self.data.read(at, &mut out).map_err(from_pipeline)?;
        Ok(out)
    }

    /// Writes `bytes` at `offset` of the mapped range.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.gen_buffers(1).unwrap()[0];
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 4, gl::STATIC_DRAW).unwrap();
    /// let m = ctx.map_buffer(gl::ARRAY_BUFFER, gl::WRITE_ONLY).unwrap();
    /// m.write(0, &[9u8]).unwrap();
    /// ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap();
    /// assert!(m.write(0, &[9u8]).is_err());
    /// assert_eq!(ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, 1).unwrap(), vec![9]);
    /// ```
    pub fn write<T: bytemuck::Pod>(&self, offset: usize, data: &[T]) -> Result<()> {
        let bytes: &[u8] = bytemuck::cast_slice(data);
        self.check()?;
        if !self.writable {
            return Err(Error::invalid_operation("the buffer is mapped read-only"));
        }
        let at = self.locate(offset, bytes.len())?;
        self.data.write(at, bytes).map_err(from_pipeline)
    }

    /// Locks the mapped range for direct access. While the guard lives, every other
    /// access to the buffer's bytes is `INVALID_OPERATION` instead of waiting for this
    /// lock: a second `bytes()`, [`Mapping::read`] / [`Mapping::write`],
    /// `get_buffer_sub_data`, `buffer_sub_data`, copies and flushes of the buffer, and
    /// every draw and dispatch of the context (a draw may reach any buffer through a
    /// binding or a GPU address).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.gen_buffers(1).unwrap()[0];
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 8, gl::STATIC_DRAW).unwrap();
    /// let m = ctx.map_buffer_range(gl::ARRAY_BUFFER, 4, 4, gl::MAP_WRITE_BIT).unwrap();
    /// m.bytes().unwrap()[3] = 1;
    /// assert_eq!(m.bytes().unwrap().len(), 4);
    /// ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap();
    /// assert_eq!(ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 7, 1).unwrap(), vec![1]);
    /// ```
    pub fn bytes(&self) -> Result<MappedBytes<'_>> {
        self.check()?;
        Ok(MappedBytes {
            held: self.data.hold().map_err(from_pipeline)?,
            start: self.base as usize,
            end: (self.base + self.len) as usize,
            _alive: GuardCount::new(&self.guards),
        })
    }
}

/// # Chapter 6.3 — Mapping buffers
///
/// `map_buffer`, `map_buffer_range`, flushes.
impl Context {
    /// `glMapBuffer`: maps the whole bound buffer (`READ_ONLY`, `WRITE_ONLY` or
    /// `READ_WRITE`); mapping a mapped buffer is `INVALID_OPERATION`.
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
        let bits = match access {
            gl::READ_ONLY => gl::MAP_READ_BIT,
            gl::WRITE_ONLY => gl::MAP_WRITE_BIT,
            gl::READ_WRITE => gl::MAP_READ_BIT | gl::MAP_WRITE_BIT,
            a => return Err(Error::invalid_enum("map access", a)),
        };
        let (id, o) = self.bound_object(target)?;
        if o.mapped.is_some() {
            return Err(Error::invalid_operation(format!(
                "buffer {id} is already mapped"
            )));
        }
        if bits & !o.storage_flags != 0 {
            return Err(Error::invalid_operation(format!(
                "access 0x{access:04X} needs storage flags buffer {id} lacks"
            )));
        }
        let len = o.data.len();
        self.start_mapping(id, 0, len, bits)
    }

    /// `glMapBufferRange`: maps `length` bytes at `offset` of the bound buffer with the
    /// `MAP_*_BIT` flags in `access`. Errors (GL 4.6 section 6.3): a range outside the
    /// buffer or unknown bits `INVALID_VALUE`; zero length, an already mapped buffer,
    /// neither READ nor WRITE, READ with an INVALIDATE or UNSYNCHRONIZED bit,
    /// FLUSH_EXPLICIT without WRITE, or a READ/WRITE/PERSISTENT/COHERENT bit missing
    /// from the buffer's storage flags (a glBufferData store has READ and WRITE only)
    /// `INVALID_OPERATION`. Writes reach the store at once, so every mapping is
    /// coherent; a persistent one leaves the buffer usable by draws, copies and
    /// sub-data calls. Draws are synchronous, so UNSYNCHRONIZED changes nothing, and
    /// invalidated contents are kept (GL makes them undefined).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data(gl::ARRAY_BUFFER, &[0u8, 1, 2, 3, 4, 5], gl::STATIC_DRAW).unwrap();
    /// let m = ctx.map_buffer_range(gl::ARRAY_BUFFER, 2, 3, gl::MAP_READ_BIT | gl::MAP_WRITE_BIT).unwrap();
    /// assert_eq!(m.read(0, 3).unwrap(), vec![2, 3, 4]);
    /// m.write(2, &[40u8]).unwrap();
    /// assert!(m.write(3, &[50u8]).is_err()); // outside the window
    /// ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap();
    /// assert_eq!(ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 4, 2).unwrap(), vec![40, 5]);
    /// let e = ctx.map_buffer_range(gl::ARRAY_BUFFER, 4, 4, gl::MAP_READ_BIT).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn map_buffer_range(
        &mut self,
        target: u32,
        offset: u64,
        length: u64,
        access: u32,
    ) -> Result<Mapping> {
        let (id, o) = self.bound_object(target)?;
        let size = o.data.len();
        if offset.checked_add(length).is_none_or(|end| end > size) {
            return Err(Error::invalid_value(format!(
                "range {offset}+{length} is outside the buffer's {size} bytes"
            )));
        }
        if access & !ALL_MAP_BITS != 0 {
            return Err(Error::invalid_value(format!(
                "unknown map access bits 0x{:X}",
                access & !ALL_MAP_BITS
            )));
        }
        if length == 0 {
            return Err(Error::invalid_operation("mapping a zero-length range"));
        }
        if o.mapped.is_some() {
            return Err(Error::invalid_operation(format!(
                "buffer {id} is already mapped"
            )));
        }
        let read = access & gl::MAP_READ_BIT != 0;
        let write = access & gl::MAP_WRITE_BIT != 0;
        if !read && !write {
            return Err(Error::invalid_operation(
                "neither MAP_READ_BIT nor MAP_WRITE_BIT is set",
            ));
        }
        let read_conflicts = gl::MAP_INVALIDATE_RANGE_BIT
            | gl::MAP_INVALIDATE_BUFFER_BIT
            | gl::MAP_UNSYNCHRONIZED_BIT;
        if read && access & read_conflicts != 0 {
            return Err(Error::invalid_operation(
                "MAP_READ_BIT with an INVALIDATE or UNSYNCHRONIZED bit",
            ));
        }
        if access & gl::MAP_FLUSH_EXPLICIT_BIT != 0 && !write {
            return Err(Error::invalid_operation(
                "MAP_FLUSH_EXPLICIT_BIT without MAP_WRITE_BIT",
            ));
        }
        let storage_bits =
            gl::MAP_READ_BIT | gl::MAP_WRITE_BIT | gl::MAP_PERSISTENT_BIT | gl::MAP_COHERENT_BIT;
        let missing = access & storage_bits & !o.storage_flags;
        if missing != 0 {
            return Err(Error::invalid_operation(format!(
                "access bits 0x{missing:X} are not in the storage flags of buffer {id}"
            )));
        }
        self.start_mapping(id, offset, length, access)
    }

    fn start_mapping(&mut self, id: u32, offset: u64, length: u64, access: u32) -> Result<Mapping> {
        let o = self
            .buffers
            .objects
            .get_mut(&id)
            .ok_or_else(|| Error::invalid_operation("buffer vanished"))?;
        let live = Arc::new(AtomicBool::new(true));
        let staging = if access & gl::MAP_FLUSH_EXPLICIT_BIT != 0 {
            let mut window = zeroed(length)?;
            o.data.read(offset, &mut window).map_err(from_pipeline)?;
            Some(Buffer::from_bytes(window))
        } else {
            None
        };
        let (data, base) = match &staging {
            Some(s) => (Arc::clone(s), 0),
            None => (Arc::clone(&o.data), offset),
        };
        o.access = match access & (gl::MAP_READ_BIT | gl::MAP_WRITE_BIT) {
            gl::MAP_READ_BIT => gl::READ_ONLY,
            gl::MAP_WRITE_BIT => gl::WRITE_ONLY,
            _ => gl::READ_WRITE,
        };
        o.mapped = Some(MapState {
            live: Arc::clone(&live),
            access,
            offset,
            length,
            staging,
        });
        Ok(Mapping {
            data,
            base,
            len: length,
            live,
            writable: access & gl::MAP_WRITE_BIT != 0,
            readable: access & gl::MAP_READ_BIT != 0,
            guards: Arc::clone(&self.buffers.guards),
        })
    }

    /// `glFlushMappedBufferRange`: makes `length` bytes at `offset` (relative to the
    /// mapped range) of a `MAP_FLUSH_EXPLICIT_BIT` mapping reach the buffer. A range
    /// outside the mapping is `INVALID_VALUE`; a buffer that is not mapped, or mapped
    /// without the flag, `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 8, gl::STATIC_DRAW).unwrap();
    /// let bits = gl::MAP_WRITE_BIT | gl::MAP_FLUSH_EXPLICIT_BIT;
    /// let m = ctx.map_buffer_range(gl::ARRAY_BUFFER, 4, 4, bits).unwrap();
    /// m.write(0, &[7u8, 8]).unwrap();
    /// ctx.flush_mapped_buffer_range(gl::ARRAY_BUFFER, 1, 1).unwrap();
    /// let e = ctx.flush_mapped_buffer_range(gl::ARRAY_BUFFER, 2, 3).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap();
    /// // Only the flushed byte arrived.
    /// assert_eq!(ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 4, 2).unwrap(), vec![0, 8]);
    /// ```
    pub fn flush_mapped_buffer_range(
        &mut self,
        target: u32,
        offset: u64,
        length: u64,
    ) -> Result<()> {
        let (id, o) = self.bound_object(target)?;
        let m = o
            .mapped
            .as_ref()
            .ok_or_else(|| Error::invalid_operation(format!("buffer {id} is not mapped")))?;
        let staging = m.staging.as_ref().ok_or_else(|| {
            Error::invalid_operation(format!(
                "buffer {id} was mapped without MAP_FLUSH_EXPLICIT_BIT"
            ))
        })?;
        if offset.checked_add(length).is_none_or(|end| end > m.length) {
            return Err(Error::invalid_value(format!(
                "flush range {offset}+{length} is outside the {}-byte mapping",
                m.length
            )));
        }
        let mut bytes = vec![0; length as usize];
        staging.read(offset, &mut bytes).map_err(from_pipeline)?;
        o.data
            .write(m.offset + offset, &bytes)
            .map_err(from_pipeline)
    }

    /// `glUnmapBuffer`; unmapping a buffer that is not mapped is `INVALID_OPERATION`.
    /// Unflushed writes of a `MAP_FLUSH_EXPLICIT_BIT` mapping are dropped.
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
            Some(m) => {
                m.end();
                Ok(())
            }
            None => Err(Error::invalid_operation(format!(
                "buffer {id} is not mapped"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mapped(bits: u32) -> (Context, Mapping) {
        let mut ctx = Context::new(4, 4).unwrap();
        ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
        ctx.buffer_data(
            gl::ARRAY_BUFFER,
            &[0u8, 1, 2, 3, 4, 5, 6, 7],
            gl::STATIC_DRAW,
        )
        .unwrap();
        let m = ctx.map_buffer_range(gl::ARRAY_BUFFER, 2, 4, bits).unwrap();
        (ctx, m)
    }

    #[test]
    fn direct_windows_see_the_store() {
        let (ctx, m) = mapped(gl::MAP_READ_BIT | gl::MAP_WRITE_BIT);
        assert_eq!(&*m.bytes().unwrap(), &[2, 3, 4, 5]);
        m.bytes().unwrap()[0] = 20;
        let o = ctx.buffers.objects.get(&1).unwrap();
        assert_eq!(o.data.to_vec()[2], 20, "writes land in the store at once");
        assert!(m.locate(4, 1).is_err() && m.locate(usize::MAX, 2).is_err());
    }

    #[test]
    fn explicit_flush_windows_stage_their_writes() {
        let (mut ctx, m) = mapped(gl::MAP_WRITE_BIT | gl::MAP_FLUSH_EXPLICIT_BIT);
        m.write(0, &[9u8, 9, 9, 9]).unwrap();
        let store = |c: &Context| c.buffers.objects.get(&1).unwrap().data.to_vec();
        assert_eq!(
            store(&ctx),
            vec![0, 1, 2, 3, 4, 5, 6, 7],
            "nothing flushed yet"
        );
        ctx.flush_mapped_buffer_range(gl::ARRAY_BUFFER, 3, 1)
            .unwrap();
        assert_eq!(store(&ctx), vec![0, 1, 2, 3, 4, 9, 6, 7]);
        assert!(ctx
            .flush_mapped_buffer_range(gl::ARRAY_BUFFER, 4, 1)
            .is_err());
        ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap();
        assert!(m.bytes().is_err());
    }
    #[test]
    fn new_data_unmaps() {
        let (mut ctx, m) = mapped(gl::MAP_READ_BIT);
        ctx.buffer_data(gl::ARRAY_BUFFER, &[1u8], gl::STREAM_DRAW)
            .unwrap();
        assert!(m.read(0, 1).is_err(), "the old mapping is stale");
        assert!(ctx.unmap_buffer(gl::ARRAY_BUFFER).is_err());
        let usage = ctx.get_buffer_parameter_iv(gl::ARRAY_BUFFER, gl::BUFFER_USAGE);
        assert_eq!(usage.unwrap(), gl::STREAM_DRAW as i32);
    }

    /// Runs `f` on its own thread; a call that waits for the held lock fails the test
    /// after 10 s instead of hanging the suite.
    fn without_deadlock(f: impl FnOnce() + Send + 'static) {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            f();
            let _ = tx.send(());
        });
        match rx.recv_timeout(std::time::Duration::from_secs(10)) {
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                panic!("deadlock: a call waited for the lock of a Mapping::bytes() guard")
            }
            // A panic inside `f` (a failed assertion) drops the sender.
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => panic!("the check failed"),
            Ok(()) => {}
        }
    }

    /// The call failed because of the guard (not for another reason).
    fn invalid_op<T: std::fmt::Debug>(r: Result<T>) {
        let e = r.unwrap_err();
        assert_eq!(e.gl, crate::GlError::InvalidOperation, "{e}");
        assert!(e.to_string().contains("Mapping::bytes() guard"), "{e}");
    }

    /// A persistently mapped vertex buffer with a held guard, and the calls that would
    /// have waited for its lock on the holding thread.
    #[test]
    fn calls_during_a_held_guard_are_invalid_operation() {
        without_deadlock(|| {
            let mut ctx = Context::new(4, 4).unwrap();
            let flags = gl::MAP_READ_BIT
                | gl::MAP_WRITE_BIT
                | gl::MAP_PERSISTENT_BIT
                | gl::DYNAMIC_STORAGE_BIT;
            ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
            ctx.buffer_storage(gl::ARRAY_BUFFER, &[0.0f32; 8], flags)
                .unwrap();
            ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 0, 0)
                .unwrap();
            ctx.enable_vertex_attrib_array(0).unwrap();
            let bits = gl::MAP_READ_BIT | gl::MAP_WRITE_BIT | gl::MAP_PERSISTENT_BIT;
            let m = ctx.map_buffer_range(gl::ARRAY_BUFFER, 0, 32, bits).unwrap();
            let mut held = m.bytes().unwrap();
            held[0] = 1;
            // Draws and dispatches (the draw's workers would wait for this thread).
            invalid_op(ctx.draw_arrays(gl::POINTS, 0, 2));
            invalid_op(ctx.dispatch_compute(1, 1, 1));
            // The buffer's contents through the context.
            invalid_op(ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, 4));
            invalid_op(ctx.buffer_sub_data(gl::ARRAY_BUFFER, 0, &[1u8]));
            ctx.bind_buffer(gl::COPY_WRITE_BUFFER, 2).unwrap();
            ctx.buffer_data_size(gl::COPY_WRITE_BUFFER, 8, gl::STATIC_DRAW)
                .unwrap();
            invalid_op(ctx.copy_buffer_sub_data(gl::ARRAY_BUFFER, gl::COPY_WRITE_BUFFER, 0, 0, 4));
            // The mapping itself.
            invalid_op(m.read(0, 4));
            invalid_op(m.write(0, &[2u8]));
            invalid_op(m.bytes());
            // What needs no lock still answers.
            let size = ctx.get_buffer_parameter_iv(gl::ARRAY_BUFFER, gl::BUFFER_SIZE);
            assert_eq!(size.unwrap(), 32);
            drop(held);
            assert_eq!(m.read(0, 2).unwrap(), vec![1, 0]);
            ctx.draw_arrays(gl::POINTS, 0, 2).unwrap();
            ctx.buffer_sub_data(gl::ARRAY_BUFFER, 0, &[3u8]).unwrap();
            assert_eq!(
                ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, 1).unwrap(),
                vec![3]
            );
        });
    }

    /// A guard that outlives its mapping still keeps the lock: the buffer's next
    /// users get errors, and an explicit-flush mapping's staging copy is guarded too.
    #[test]
    fn a_guard_outliving_its_mapping_or_on_a_staging_copy_blocks_nothing() {
        without_deadlock(|| {
            let (mut ctx, m) = mapped(gl::MAP_READ_BIT | gl::MAP_WRITE_BIT);
            let held = m.bytes().unwrap();
            ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap();
            invalid_op(ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, 1));
            let flush = gl::MAP_WRITE_BIT | gl::MAP_FLUSH_EXPLICIT_BIT;
            invalid_op(ctx.map_buffer_range(gl::ARRAY_BUFFER, 0, 4, flush));
            drop(held);
            let m = ctx.map_buffer_range(gl::ARRAY_BUFFER, 0, 4, flush).unwrap();
            let held = m.bytes().unwrap();
            invalid_op(ctx.flush_mapped_buffer_range(gl::ARRAY_BUFFER, 0, 1));
            drop(held);
            ctx.flush_mapped_buffer_range(gl::ARRAY_BUFFER, 0, 1)
                .unwrap();
        });
    }
}
