//! A draw's big buffers (indices, post-transform vertices, clipping's per-vertex window
//! positions, assembled primitives) kept between draws.
//!
//! Allocated afresh each draw, a multi-megabyte buffer went back to the kernel when
//! freed (a pool thread's malloc arena trims its top) and the next frame faulted it in
//! again page by page: ~8,000 page faults a frame on a one-million-triangle draw at two
//! threads, each also shooting down the other core's TLB. Buffers handed back here are
//! reused as they are, so a steady frame touches no new page. Process-wide, as glibc's
//! arenas are: draws of any context, on any thread, share them.

use std::sync::Mutex;

/// Buffers smaller than this are not worth keeping (malloc keeps those itself).
const MIN_BYTES: usize = 64 << 10;
/// Buffers kept per element type; beyond that the smallest is freed.
const MAX_KEPT: usize = 6;

/// Spare buffers of one element type.
pub(crate) struct Kept<T> {
    bufs: Mutex<Vec<Vec<T>>>,
}

impl<T> Kept<T> {
    const fn new() -> Self {
        Kept {
            bufs: Mutex::new(Vec::new()),
        }
    }

    /// An empty buffer for `len` elements: the smallest kept one that holds them, else a
    /// new one (growing a kept one would free it, and take it from the draw stage whose
    /// size it has).
    pub(crate) fn take(&self, len: usize) -> Vec<T> {
        let mut bufs = self.bufs.lock().unwrap_or_else(|e| e.into_inner());
        let fit = (bufs.iter().enumerate())
            .filter(|(_, b)| b.capacity() >= len)
            .min_by_key(|(_, b)| b.capacity())
            .map(|(i, _)| i);
        match fit {
            Some(i) => bufs.swap_remove(i),
            None => Vec::new(),
        }
    }

    /// An empty buffer with room for `len` elements: [`Kept::take`]'s, else a new one of
    /// that capacity.
    pub(crate) fn with_capacity(&self, len: usize) -> Vec<T> {
        let mut v = self.take(len);
        v.reserve_exact(len);
        v
    }

    /// `len` copies of `value`, in [`Kept::take`]'s buffer; a big one is filled on every
    /// worker of the current rayon pool (the vertex stage's and clipping's buffers, tens
    /// of megabytes for a million-triangle draw, were filled on one thread).
    pub(crate) fn filled(&self, len: usize, value: T) -> Vec<T>
    where
        T: Clone + Send,
    {
        use rayon::iter::ParallelExtend;
        let mut v = self.take(len);
        if len >= PAR_FILL {
            v.par_extend(rayon::iter::repeat_n(value, len));
        } else {
            v.resize(len, value);
        }
        v
    }

    /// Hands `buf` back for a later [`Kept::take`] (emptied).
    pub(crate) fn give(&self, mut buf: Vec<T>) {
        if buf.capacity() * std::mem::size_of::<T>().max(1) < MIN_BYTES {
            return;
        }
        buf.clear();
        let mut bufs = self.bufs.lock().unwrap_or_else(|e| e.into_inner());
        bufs.push(buf);
        if bufs.len() > MAX_KEPT {
            if let Some(i) = (bufs.iter().enumerate())
                .min_by_key(|(_, b)| b.capacity())
                .map(|(i, _)| i)
            {
                bufs.swap_remove(i);
            }
        }
    }
}

/// Elements from which [`Kept::filled`] fills in parallel.
const PAR_FILL: usize = 1 << 16;

/// Index lists, post-transform numbering, outcodes, varyings, assembled vertex lists.
pub(crate) static WORDS: Kept<u32> = Kept::new();
/// The post-transform cache's (vertex id, instance) list.
pub(crate) static JOBS: Kept<(u32, u32)> = Kept::new();
/// Vertex stage outputs (rows of vec4s).
pub(crate) static VEC4S: Kept<[u32; 4]> = Kept::new();
/// Clipping's per-vertex window positions.
pub(crate) static WINDOWS: Kept<glemu_raster::WindowVertex> = Kept::new();

/// A zeroed buffer of `len` words.
pub(crate) fn zeroed_words(len: usize) -> Vec<u32> {
    WORDS.filled(len, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_prefers_the_smallest_that_fits() {
        let k: Kept<u32> = Kept::new();
        assert_eq!(k.take(10).capacity(), 0);
        for cap in [1 << 20, 1 << 16, 1 << 18] {
            k.give(Vec::with_capacity(cap));
        }
        // Too small to keep.
        k.give(Vec::with_capacity(100));
        let b = k.take(1 << 17);
        assert!(b.is_empty() && b.capacity() >= 1 << 18 && b.capacity() < 1 << 20);
        // Nothing holds 2^21: a new buffer, the kept ones stay.
        assert_eq!(k.take(1 << 21).capacity(), 0);
        assert!(k.take(1 << 19).capacity() >= 1 << 20);
        assert!(k.take(1).capacity() >= 1 << 16);
        assert_eq!(k.take(1).capacity(), 0);
    }

    #[test]
    fn keeps_at_most_max_kept() {
        let k: Kept<u8> = Kept::new();
        for i in 0..MAX_KEPT + 3 {
            let mut v = Vec::with_capacity(MIN_BYTES + i);
            v.push(1);
            k.give(v);
        }
        let bufs = k.bufs.lock().unwrap_or_else(|e| e.into_inner());
        assert_eq!(bufs.len(), MAX_KEPT);
        assert!(bufs
            .iter()
            .all(|b| b.is_empty() && b.capacity() >= MIN_BYTES + 3));
    }
}
