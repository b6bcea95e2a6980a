//! Buffer storage and the emulated GPU address space (NV_shader_buffer_load/store).
//!
//! A [`Buffer`] is shared storage (`Arc<Buffer>`) used for every buffer object role: vertex
//! and index data, parameter buffers, counters, stream-out targets and resident memory.
//! Its bytes sit behind one mutex, which makes every ATOM on it atomic with respect to the
//! fragment threads without needing per-word atomics for 8/16/64-bit accesses.
//!
//! [`GpuMemory`] hands out 64-bit addresses to buffers made resident: non-zero, aligned to
//! [`PAGE_SIZE`], separated by an unmapped guard page and never reused while the address
//! space lives, so a stale pointer faults instead of reaching another buffer. Every access
//! is bounds- and alignment-checked; a bad access never touches host memory, is counted
//! in [`GpuMemory::faults`], and loads zero / drops the store.

use crate::error::PipelineError;
use glemu_programs::ir::AtomOp;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};

/// Granularity of GPU addresses; every resident buffer starts on a page boundary.
pub const PAGE_SIZE: u64 = 1 << 16;
/// The first address handed out: well above zero so NULL and small integers fault.
const FIRST_ADDRESS: u64 = 1 << 32;
/// Largest buffer the emulated GPU accepts (bytes).
pub const MAX_BUFFER_SIZE: u64 = 1 << 31;

/// Storage of one buffer object. Its size is fixed: a new data store is a new `Buffer`.
#[derive(Debug, Default)]
pub struct Buffer {
    data: Mutex<Vec<u8>>,
    /// The size, readable without the lock (a held store still answers BUFFER_SIZE).
    len: u64,
    /// A [`HeldBytes`] guard has the bytes: every checked access fails instead of waiting
    /// for a lock that the waiting thread itself may hold.
    held: AtomicBool,
}

/// The bytes of a buffer, locked for direct access by [`Buffer::hold`] until dropped.
/// While it lives, [`Buffer::read`] and [`Buffer::write`] are `InvalidOperation`
/// errors, so a caller on the holding thread gets an error rather than a deadlock.
///
/// ```
/// use glemu_pipeline::Buffer;
/// let b = Buffer::from_bytes(vec![1, 2, 3]);
/// let mut held = b.hold().unwrap();
/// held[0] = 9;
/// assert!(b.hold().is_err() && b.read(0, &mut [0]).is_err() && b.write(0, &[0]).is_err());
/// drop(held);
/// let mut one = [0];
/// b.read(0, &mut one).unwrap();
/// assert_eq!(one, [9]);
/// ```
#[derive(Debug)]
pub struct HeldBytes<'a> {
    guard: MutexGuard<'a, Vec<u8>>,
    held: &'a AtomicBool,
}

impl Drop for HeldBytes<'_> {
    fn drop(&mut self) {
        self.held.store(false, Ordering::Release);
    }
}

impl std::ops::Deref for HeldBytes<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.guard
    }
}

impl std::ops::DerefMut for HeldBytes<'_> {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.guard
    }
}

/// The bytes of a buffer under its lock, for the pipeline's own short accesses.
#[derive(Debug)]
pub struct LockedBytes<'a>(MutexGuard<'a, Vec<u8>>);

impl std::ops::Deref for LockedBytes<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl std::ops::DerefMut for LockedBytes<'_> {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
}

/// `size` zero bytes, or `None` when they cannot be allocated. The allocator hands out
/// zeroed pages (calloc), so a large buffer costs no page faults until it is written: a
/// resize-with-zeros would touch every page (a 2 GiB buffer took 12 s of page faults).
pub fn try_zeroed_bytes(size: u64) -> Option<Vec<u8>> {
    let n = usize::try_from(size).ok()?;
    bytemuck::allocation::try_zeroed_vec(n).ok()
}

impl Buffer {
    /// A zero-filled buffer of `size` bytes.
    pub fn new(size: u64) -> Result<Arc<Buffer>, PipelineError> {
        if size > MAX_BUFFER_SIZE {
            return Err(PipelineError::out_of_memory(format!(
                "buffer of {size} bytes exceeds {MAX_BUFFER_SIZE}"
            )));
        }
        let data = try_zeroed_bytes(size).ok_or_else(|| {
            PipelineError::out_of_memory(format!("cannot allocate a buffer of {size} bytes"))
        })?;
        Ok(Buffer::from_bytes(data))
    }

    /// A buffer holding `bytes`.
    pub fn from_bytes(bytes: Vec<u8>) -> Arc<Buffer> {
        Arc::new(Buffer {
            len: bytes.len() as u64,
            data: Mutex::new(bytes),
            held: AtomicBool::new(false),
        })
    }

    /// Locks the contents (waiting for other threads). Poisoning is ignored: a
    /// panicking holder cannot leave the bytes in a state that is unsafe to read. Only
    /// for accesses that end before the caller does anything else. Draws and dispatches
    /// lock without asking [`Buffer::is_held`]: the Context refuses them while any
    /// mapping guard of its buffers lives, so no [`HeldBytes`] can be out then.
    pub fn lock(&self) -> LockedBytes<'_> {
        LockedBytes(self.raw_lock())
    }

    fn raw_lock(&self) -> MutexGuard<'_, Vec<u8>> {
        self.data.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Locks the contents until the returned guard is dropped; a second hold, and every
    /// [`Buffer::read`] / [`Buffer::write`] meanwhile, fails with `InvalidOperation`.
    pub fn hold(&self) -> Result<HeldBytes<'_>, PipelineError> {
        if self.held.swap(true, Ordering::AcqRel) {
            return Err(held_error());
        }
        Ok(HeldBytes {
            guard: self.raw_lock(),
            held: &self.held,
        })
    }

    /// Whether a [`HeldBytes`] guard has the bytes.
    pub fn is_held(&self) -> bool {
        self.held.load(Ordering::Acquire)
    }

    fn unheld(&self) -> Result<MutexGuard<'_, Vec<u8>>, PipelineError> {
        if self.is_held() {
            return Err(held_error());
        }
        Ok(self.raw_lock())
    }

    /// Size in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True for a zero-byte buffer.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Copies `out.len()` bytes from `offset`.
    pub fn read(&self, offset: u64, out: &mut [u8]) -> Result<(), PipelineError> {
        let data = self.unheld()?;
        let range = byte_range(offset, out.len() as u64, data.len())?;
        out.copy_from_slice(&data[range]);
        Ok(())
    }

    /// Writes `bytes` at `offset` (glBufferSubData).
    pub fn write(&self, offset: u64, bytes: &[u8]) -> Result<(), PipelineError> {
        let mut data = self.unheld()?;
        let range = byte_range(offset, bytes.len() as u64, data.len())?;
        data[range].copy_from_slice(bytes);
        Ok(())
    }

    /// A copy of the whole contents.
    pub fn to_vec(&self) -> Vec<u8> {
        self.raw_lock().clone()
    }
}

fn held_error() -> PipelineError {
    PipelineError::invalid_op(
        "the buffer's bytes are held by a Mapping::bytes() guard; drop it first",
    )
}

fn byte_range(offset: u64, len: u64, size: usize) -> Result<std::ops::Range<usize>, PipelineError> {
    match offset.checked_add(len) {
        Some(end) if end <= size as u64 => Ok(offset as usize..end as usize),
        _ => Err(PipelineError::invalid_value(format!(
            "buffer access of {len} bytes at offset {offset} is outside the {size}-byte buffer"
        ))),
    }
}

/// Why a GPU memory access failed (counted, never fatal).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MemFault {
    /// No resident buffer covers the address range.
    Unmapped {
        /// The first address of the access.
        address: u64,
    },
    /// The address is not a multiple of the access size.
    Misaligned {
        /// The address of the access.
        address: u64,
        /// The alignment it needed, in bytes.
        align: u64,
    },
}

impl std::fmt::Display for MemFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MemFault::Unmapped { address } => write!(f, "unmapped GPU address {address:#x}"),
            MemFault::Misaligned { address, align } => {
                write!(f, "GPU address {address:#x} is not {align}-byte aligned")
            }
        }
    }
}

/// Value type of an atomic operation: decides comparison, width and arithmetic.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AtomType {
    /// Unsigned 32-bit.
    U32,
    /// Signed 32-bit.
    S32,
    /// Unsigned 64-bit.
    U64,
    /// Signed 64-bit.
    S64,
    /// NV_shader_atomic_float: ADD and EXCH only.
    F32,
}

impl AtomType {
    /// Bytes the operation reads and writes.
    pub fn size(self) -> u64 {
        match self {
            AtomType::U32 | AtomType::S32 | AtomType::F32 => 4,
            AtomType::U64 | AtomType::S64 => 8,
        }
    }
}

/// Computes the value an atomic writes given the value in memory (`old`), following
/// NV_gpu_program5's ATOM pseudo-code; `None` means no store (a failed CSWAP).
/// Operands are raw bits (low 32 bits for 32-bit types).
pub fn atomic_result(
    op: AtomOp,
    ty: AtomType,
    old: u64,
    a: u64,
    b: u64,
) -> Result<Option<u64>, PipelineError> {
    let is32 = ty.size() == 4;
    let mask = if is32 { 0xffff_ffff } else { u64::MAX };
    let (old, a, b) = (old & mask, a & mask, b & mask);
    let signed_cmp = |x: u64, y: u64| -> std::cmp::Ordering {
        if is32 {
            (x as u32 as i32).cmp(&(y as u32 as i32))
        } else {
            (x as i64).cmp(&(y as i64))
        }
    };
    let cmp = |x: u64, y: u64| match ty {
        AtomType::S32 | AtomType::S64 => signed_cmp(x, y),
        _ => x.cmp(&y),
    };
    let v = match (op, ty) {
        (AtomOp::Add, AtomType::F32) => {
            (f32::from_bits(old as u32) + f32::from_bits(a as u32)).to_bits() as u64
        }
        (AtomOp::Exch, _) => a,
        (_, AtomType::F32) => {
            return Err(PipelineError::not_supported(format!(
                "float atomic {op:?} (only ADD and EXCH exist)"
            )))
        }
        (AtomOp::Add, _) => old.wrapping_add(a) & mask,
        (AtomOp::Min, _) => std::cmp::min_by(old, a, |x, y| cmp(*x, *y)),
        (AtomOp::Max, _) => std::cmp::max_by(old, a, |x, y| cmp(*x, *y)),
        (AtomOp::IWrap, _) => {
            if old >= a {
                0
            } else {
                old + 1
            }
        }
        (AtomOp::DWrap, _) => {
            if old == 0 || old > a {
                a
            } else {
                old - 1
            }
        }
        (AtomOp::And, _) => old & a,
        (AtomOp::Or, _) => old | a,
        (AtomOp::Xor, _) => old ^ a,
        (AtomOp::CSwap, _) => {
            if old == a {
                b
            } else {
                return Ok(None);
            }
        }
        (AtomOp::Incr, _) => old.wrapping_add(1) & mask,
        (AtomOp::Decr, _) => old.wrapping_sub(1) & mask,
        (AtomOp::Get, _) => return Ok(None),
    };
    Ok(Some(v))
}

#[derive(Debug)]
struct Region {
    len_reserved: u64,
    buffer: Arc<Buffer>,
}

#[derive(Debug)]
struct AddressSpace {
    next: u64,
    regions: BTreeMap<u64, Region>,
}

/// The emulated GPU address space. Thread-safe; shared by all draws of a context.
#[derive(Debug)]
pub struct GpuMemory {
    space: RwLock<AddressSpace>,
    faults: AtomicU64,
}

impl Default for GpuMemory {
    fn default() -> Self {
        GpuMemory::new()
    }
}

impl GpuMemory {
    /// An empty address space: no buffer resident.
    pub fn new() -> GpuMemory {
        GpuMemory {
            space: RwLock::new(AddressSpace {
                next: FIRST_ADDRESS,
                regions: BTreeMap::new(),
            }),
            faults: AtomicU64::new(0),
        }
    }

    fn read_space(&self) -> std::sync::RwLockReadGuard<'_, AddressSpace> {
        self.space.read().unwrap_or_else(|e| e.into_inner())
    }
    fn write_space(&self) -> std::sync::RwLockWriteGuard<'_, AddressSpace> {
        self.space.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes `buffer` resident and returns its GPU address (the same one if it already is).
    /// The address range reserved is the buffer's size at this moment, rounded up to pages.
    pub fn make_resident(&self, buffer: &Arc<Buffer>) -> Result<u64, PipelineError> {
        if let Some(a) = self.address_of(buffer) {
            return Ok(a);
        }
        let len = buffer.len().max(1);
        let mut space = self.write_space();
        let reserved = len.div_ceil(PAGE_SIZE) * PAGE_SIZE;
        let addr = space.next;
        // One unmapped guard page after each buffer.
        space.next = addr
            .checked_add(reserved + PAGE_SIZE)
            .ok_or_else(|| PipelineError::out_of_memory("GPU address space exhausted"))?;
        space.regions.insert(
            addr,
            Region {
                len_reserved: reserved,
                buffer: Arc::clone(buffer),
            },
        );
        Ok(addr)
    }

    /// Makes the buffer at `address` non-resident; its addresses are not handed out again.
    pub fn make_non_resident(&self, buffer: &Arc<Buffer>) -> bool {
        let mut space = self.write_space();
        let key = space
            .regions
            .iter()
            .find(|(_, r)| Arc::ptr_eq(&r.buffer, buffer))
            .map(|(k, _)| *k);
        key.map(|k| space.regions.remove(&k).is_some())
            .unwrap_or(false)
    }

    /// The GPU address of a resident buffer.
    pub fn address_of(&self, buffer: &Arc<Buffer>) -> Option<u64> {
        self.read_space()
            .regions
            .iter()
            .find(|(_, r)| Arc::ptr_eq(&r.buffer, buffer))
            .map(|(k, _)| *k)
    }

    /// Number of faulting accesses so far.
    pub fn faults(&self) -> u64 {
        self.faults.load(Ordering::Relaxed)
    }

    fn fault(&self, f: MemFault) -> MemFault {
        self.faults.fetch_add(1, Ordering::Relaxed);
        f
    }

    /// Finds the buffer and offset for `size` bytes at `address`, checking alignment to
    /// `align` bytes.
    fn resolve(&self, address: u64, size: u64, align: u64) -> Result<(Arc<Buffer>, u64), MemFault> {
        if align > 1 && !address.is_multiple_of(align) {
            return Err(self.fault(MemFault::Misaligned { address, align }));
        }
        let space = self.read_space();
        let found = space
            .regions
            .range(..=address)
            .next_back()
            .and_then(|(base, r)| {
                let off = address - base;
                let end = off.checked_add(size)?;
                (end <= r.len_reserved).then(|| (Arc::clone(&r.buffer), off))
            });
        found.ok_or_else(|| self.fault(MemFault::Unmapped { address }))
    }

    /// Loads `out.len()` bytes at `address` (aligned to `align`); on a fault `out` is zeroed.
    pub fn load(&self, address: u64, align: u64, out: &mut [u8]) -> Result<(), MemFault> {
        let result = self
            .resolve(address, out.len() as u64, align)
            .and_then(|(buf, off)| {
                buf.read(off, out)
                    .map_err(|_| self.fault(MemFault::Unmapped { address }))
            });
        if result.is_err() {
            out.fill(0);
        }
        result
    }

    /// Stores `bytes` at `address` (aligned to `align`); a faulting store is dropped.
    pub fn store(&self, address: u64, align: u64, bytes: &[u8]) -> Result<(), MemFault> {
        let (buf, off) = self.resolve(address, bytes.len() as u64, align)?;
        buf.write(off, bytes)
            .map_err(|_| self.fault(MemFault::Unmapped { address }))
    }

    /// Atomically applies `update` to the `size`-byte value at `address` (aligned to its
    /// size) and returns the old value.
    pub fn atomic_with(
        &self,
        address: u64,
        size: u64,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<u64, MemFault> {
        let (buf, off) = self.resolve(address, size, size)?;
        atomic_on(&buf, off, size, update).ok_or_else(|| self.fault(MemFault::Unmapped { address }))
    }

    /// Performs an atomic read-modify-write and returns the old value (0 on a fault, which
    /// is also reported).
    pub fn atomic(
        &self,
        address: u64,
        op: AtomOp,
        ty: AtomType,
        a: u64,
        b: u64,
    ) -> Result<Result<u64, MemFault>, PipelineError> {
        let size = ty.size();
        let (buf, off) = match self.resolve(address, size, size) {
            Ok(x) => x,
            Err(f) => return Ok(Err(f)),
        };
        let mut data = buf.lock();
        let Ok(range) = byte_range(off, size, data.len()) else {
            return Ok(Err(self.fault(MemFault::Unmapped { address })));
        };
        let bytes = &mut data[range];
        let old = read_le(bytes);
        if let Some(new) = atomic_result(op, ty, old, a, b)? {
            write_le(bytes, new);
        }
        Ok(Ok(old))
    }
}

/// Read-modify-write of `size` bytes under the buffer's lock.
pub fn atomic_on(
    buf: &Buffer,
    off: u64,
    size: u64,
    update: &dyn Fn(u64) -> Option<u64>,
) -> Option<u64> {
    let mut data = buf.lock();
    let start = usize::try_from(off).ok()?;
    let end = start.checked_add(size as usize)?;
    let bytes = data.get_mut(start..end)?;
    let old = read_le(bytes);
    if let Some(new) = update(old) {
        write_le(bytes, new);
    }
    Some(old)
}

/// Reads up to 8 little-endian bytes as an integer.
pub fn read_le(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .take(8)
        .enumerate()
        .fold(0u64, |acc, (i, b)| acc | (u64::from(*b) << (8 * i)))
}

/// Writes the low `bytes.len()` bytes of `v` little-endian.
pub fn write_le(bytes: &mut [u8], v: u64) {
    for (i, b) in bytes.iter_mut().take(8).enumerate() {
        *b = (v >> (8 * i)) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> (GpuMemory, Arc<Buffer>, u64) {
        let mem = GpuMemory::new();
        let buf = Buffer::new(64).unwrap();
        let addr = mem.make_resident(&buf).unwrap();
        (mem, buf, addr)
    }

    #[test]
    fn addresses_are_nonzero_page_aligned_and_unique() {
        let mem = GpuMemory::new();
        let a = Buffer::new(10).unwrap();
        let b = Buffer::new(PAGE_SIZE * 3).unwrap();
        let c = Buffer::new(1).unwrap();
        let aa = mem.make_resident(&a).unwrap();
        let ab = mem.make_resident(&b).unwrap();
        assert_ne!(aa, 0);
        assert_eq!(aa % PAGE_SIZE, 0);
        assert_eq!(ab % PAGE_SIZE, 0);
        assert_eq!(
            mem.make_resident(&a).unwrap(),
            aa,
            "resident twice keeps its address"
        );
        assert!(mem.make_non_resident(&a));
        let ac = mem.make_resident(&c).unwrap();
        assert!(ac > ab + 3 * PAGE_SIZE, "freed ranges are not reused");
        assert_eq!(mem.address_of(&a), None);
    }

    #[test]
    fn load_store_round_trip_and_faults() {
        let (mem, buf, addr) = setup();
        mem.store(addr + 8, 4, &7u32.to_le_bytes()).unwrap();
        let mut out = [0u8; 4];
        mem.load(addr + 8, 4, &mut out).unwrap();
        assert_eq!(u32::from_le_bytes(out), 7);
        assert_eq!(buf.to_vec()[8], 7);
        assert_eq!(mem.faults(), 0);
        // misaligned
        assert!(matches!(
            mem.load(addr + 2, 4, &mut out),
            Err(MemFault::Misaligned { .. })
        ));
        // past the end of the buffer (inside the reserved page)
        assert!(mem.load(addr + 64, 4, &mut out).is_err());
        assert_eq!(out, [0; 4]);
        // null and guard page
        assert!(mem.store(0, 4, &[1, 2, 3, 4]).is_err());
        assert!(mem.load(addr + PAGE_SIZE, 1, &mut out[..1]).is_err());
        assert_eq!(mem.faults(), 4);
        // a dropped store leaves memory unchanged
        assert!(mem.store(addr + 62, 1, &[1, 2, 3, 4]).is_err());
        assert_eq!(&buf.to_vec()[60..], &[0, 0, 0, 0]);
    }

    #[test]
    fn atomic_ops_follow_the_spec() {
        use AtomOp::*;
        let t = AtomType::U32;
        assert_eq!(atomic_result(Add, t, 0xffff_ffff, 2, 0).unwrap(), Some(1));
        assert_eq!(
            atomic_result(Min, AtomType::S32, 5, (-3i32) as u32 as u64, 0).unwrap(),
            Some(0xffff_fffd)
        );
        assert_eq!(
            atomic_result(Min, t, 5, (-3i32) as u32 as u64, 0).unwrap(),
            Some(5)
        );
        assert_eq!(
            atomic_result(Max, AtomType::S32, 5, (-3i32) as u32 as u64, 0).unwrap(),
            Some(5)
        );
        assert_eq!(atomic_result(IWrap, t, 3, 3, 0).unwrap(), Some(0));
        assert_eq!(atomic_result(IWrap, t, 2, 3, 0).unwrap(), Some(3));
        assert_eq!(atomic_result(DWrap, t, 0, 9, 0).unwrap(), Some(9));
        assert_eq!(atomic_result(DWrap, t, 10, 9, 0).unwrap(), Some(9));
        assert_eq!(atomic_result(DWrap, t, 4, 9, 0).unwrap(), Some(3));
        assert_eq!(atomic_result(And, t, 6, 3, 0).unwrap(), Some(2));
        assert_eq!(atomic_result(Or, t, 6, 3, 0).unwrap(), Some(7));
        assert_eq!(atomic_result(Xor, t, 6, 3, 0).unwrap(), Some(5));
        assert_eq!(atomic_result(Exch, t, 6, 3, 0).unwrap(), Some(3));
        assert_eq!(atomic_result(CSwap, t, 6, 6, 9).unwrap(), Some(9));
        assert_eq!(atomic_result(CSwap, t, 6, 5, 9).unwrap(), None);
        assert_eq!(
            atomic_result(Add, AtomType::U64, u64::MAX, 2, 0).unwrap(),
            Some(1)
        );
        let f = atomic_result(
            Add,
            AtomType::F32,
            1.5f32.to_bits() as u64,
            2.0f32.to_bits() as u64,
            0,
        )
        .unwrap();
        assert_eq!(f, Some(3.5f32.to_bits() as u64));
        assert!(atomic_result(Min, AtomType::F32, 0, 0, 0).is_err());
    }

    #[test]
    fn atomics_are_atomic_across_threads() {
        let (mem, buf, addr) = setup();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..1000 {
                        mem.atomic(addr, AtomOp::Add, AtomType::U32, 1, 0)
                            .unwrap()
                            .unwrap();
                        mem.atomic(addr + 8, AtomOp::Add, AtomType::U64, 3, 0)
                            .unwrap()
                            .unwrap();
                    }
                });
            }
        });
        let bytes = buf.to_vec();
        assert_eq!(read_le(&bytes[0..4]), 4000);
        assert_eq!(read_le(&bytes[8..16]), 12000);
        assert!(mem
            .atomic(addr + 2, AtomOp::Add, AtomType::U32, 1, 0)
            .unwrap()
            .is_err());
    }
}
