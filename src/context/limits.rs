//! What one context allows: the per-draw watchdog (a GPU's TDR), so a legal draw that
//! would run for minutes ends with an error instead, and the memory budget, so an
//! allocation an app or a scene can size ends as `GL_OUT_OF_MEMORY` before the process
//! runs out of memory (an abort, for a library, is as bad as a crash).

use super::Context;
use crate::error::{Error, Result};
use std::sync::OnceLock;
use std::time::Duration;

/// The time a draw gets unless [`Context::set_draw_time_limit`] says otherwise.
pub const DEFAULT_DRAW_TIME_LIMIT: Duration = Duration::from_secs(5);

/// A context's resource limits.
#[derive(Clone, Debug)]
pub(crate) struct Limits {
    pub draw_time: Option<Duration>,
    /// Bytes of objects (buffers, textures, renderbuffers, framebuffers, names) allowed.
    pub memory: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            draw_time: Some(DEFAULT_DRAW_TIME_LIMIT),
            memory: default_memory_budget(),
        }
    }
}

/// The memory budget of a new context: half the machine's physical memory, and at most
/// half the process's address-space limit (`ulimit -v`; draws need room beside the
/// objects); 4 GiB where neither can be read.
///
/// ```
/// let b = glemu::context::default_memory_budget();
/// assert!(b >= 1 << 20);
/// assert_eq!(glemu::Context::new(4, 4).unwrap().memory_budget(), b);
/// ```
pub fn default_memory_budget() -> u64 {
    static BUDGET: OnceLock<u64> = OnceLock::new();
    *BUDGET.get_or_init(|| {
        let physical = proc_value("/proc/meminfo", "MemTotal:").map(|kib| kib.saturating_mul(1024));
        let address_space = proc_value("/proc/self/limits", "Max address space");
        match (physical, address_space) {
            (None, None) => 4 << 30,
            (p, a) => p.unwrap_or(u64::MAX).min(a.unwrap_or(u64::MAX)) / 2,
        }
    })
}

/// The first number after `key` on its line of a /proc file (`None`: no file, no such
/// line, or "unlimited").
fn proc_value(path: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    line.get(key.len()..)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Bytes a raster framebuffer holds: colour planes, depth words and stencil bytes for
/// every sample.
pub(crate) fn framebuffer_bytes(fb: &glemu_raster::Framebuffer) -> u64 {
    let colors: Vec<_> = (0..fb.color_targets())
        .filter_map(|i| fb.color_format(i))
        .collect();
    framebuffer_bytes_for(fb.width(), fb.height(), fb.samples(), &colors)
}

/// [`framebuffer_bytes`] of a framebuffer not built yet.
pub(crate) fn framebuffer_bytes_for(
    w: u32,
    h: u32,
    samples: u32,
    colors: &[glemu_raster::ColorFormat],
) -> u64 {
    let samples = u64::from(w) * u64::from(h) * u64::from(samples);
    let color_words: usize = colors.iter().map(|f| f.words()).sum();
    samples * (4 * color_words as u64 + 5)
}

/// # glemu's memory budget
///
/// Every allocation an input can size (buffer stores, texture and renderbuffer images,
/// framebuffers, object names) is checked against it first.
impl Context {
    /// Sets the bytes this context's objects may hold together (buffer stores, texture,
    /// renderbuffer and framebuffer images, object names). A call that would go past it
    /// is `GL_OUT_OF_MEMORY` with a message, and changes nothing. Lowering the budget
    /// below what is in use frees nothing; later allocations fail until objects go.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.set_memory_budget(ctx.memory_in_use() + (2 << 20));
    /// let e = ctx.buffer_data_size(gl::ARRAY_BUFFER, 3 << 20, gl::STATIC_DRAW).unwrap_err();
    /// assert_eq!(e.gl, GlError::OutOfMemory);
    /// assert!(e.message.contains("memory budget"), "{e}");
    /// // The context keeps working, and re-specifying a store counts only the new one.
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 3 << 19, gl::STATIC_DRAW).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 2 << 20, gl::STATIC_DRAW).unwrap();
    /// ```
    pub fn set_memory_budget(&mut self, bytes: u64) {
        self.limits.memory = bytes;
    }

    /// The budget [`Context::set_memory_budget`] set (by default
    /// [`default_memory_budget`](crate::context::default_memory_budget)).
    pub fn memory_budget(&self) -> u64 {
        self.limits.memory
    }

    /// Bytes the context's objects hold now, as the budget counts them.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let before = ctx.memory_in_use();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 1000, gl::STATIC_DRAW).unwrap();
    /// assert!(ctx.memory_in_use() >= before + 1000);
    /// ```
    pub fn memory_in_use(&self) -> u64 {
        let buffers: u64 = self.buffers.objects.values().map(|o| o.data.len()).sum();
        let textures: u64 = (self.textures.objects.values())
            .filter_map(|t| t.image.as_deref())
            .map(glemu_textures::Texture::heap_bytes)
            .sum();
        let renderbuffers: u64 = (self.fbos.renderbuffers.values())
            .filter_map(|r| r.image.as_ref())
            .map(glemu_textures::Texture::heap_bytes)
            .sum();
        let framebuffers: u64 = (self.fbos.objects.values())
            .filter_map(|f| f.fb.as_ref())
            .chain(std::iter::once(&self.fb))
            .map(framebuffer_bytes)
            .sum();
        let names = NAME_BYTES as u64
            * (self.programs.objects.len()
                + self.queries.objects.len()
                + self.textures.samplers.len()
                + self.arrays.vaos.len()
                + self.xfb.objects.len()
                + self.fbos.renderbuffers.len()
                + self.fbos.objects.len()
                + self.buffers.objects.len()
                + self.textures.objects.len()) as u64;
        let images: u64 = (self.images.cache.values())
            .map(|(_, m)| m.heap_bytes())
            .sum();
        buffers + textures + renderbuffers + framebuffers + images + names
    }

    /// `OUT_OF_MEMORY` unless `bytes` more fit in the budget once `freed` bytes (an
    /// object's store the new one replaces) are gone.
    pub(crate) fn charge(
        &self,
        bytes: u64,
        freed: u64,
        what: &dyn std::fmt::Display,
    ) -> Result<()> {
        charge(self.memory_in_use(), self.limits.memory, bytes, freed, what)
    }

    /// Bytes left in the budget.
    pub(crate) fn memory_room(&self) -> u64 {
        self.limits.memory.saturating_sub(self.memory_in_use())
    }
}

/// [`Context::charge`] with the figures taken before a field of the context is borrowed.
pub(crate) fn charge(
    in_use: u64,
    budget: u64,
    bytes: u64,
    freed: u64,
    what: &dyn std::fmt::Display,
) -> Result<()> {
    let after = in_use.saturating_sub(freed).saturating_add(bytes);
    if after > budget {
        return Err(Error::out_of_memory(format!(
            "{what} ({bytes} bytes) would bring this context to {after} bytes, past its \
             memory budget of {budget} (Context::set_memory_budget)"
        )));
    }
    Ok(())
}

/// What the budget counts per object name (the table entry and its smallest object).
pub(crate) const NAME_BYTES: usize = 256;

/// # Chapter 10.3 — Drawing: the per-draw time limit (glemu's own)
impl Context {
    /// The longest one draw call or compute dispatch may run (None: no limit, for
    /// benchmarks). Past it the call stops at its next check point (a batch of vertices,
    /// primitives or work groups, a tile, a few thousand instructions of a program) with
    /// `GL_INVALID_OPERATION` saying so; what it drew before stays, and the context keeps
    /// working.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// use std::time::Duration;
    /// let mut ctx = Context::new(128, 128).unwrap();
    /// assert_eq!(ctx.draw_time_limit(), Some(glemu::context::DEFAULT_DRAW_TIME_LIMIT));
    /// // 400,000 loop trips per fragment: minutes of work for a 128×128 rectangle.
    /// ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 1).unwrap();
    /// ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, "!!NVfp5.0\nTEMP t;\nMOV t, 0;\n\
    ///     REP 400000;\nADD t.x, t.x, 1;\nENDREP;\nMOV result.color, t;\nEND\n").unwrap();
    /// ctx.enable(gl::FRAGMENT_PROGRAM_ARB).unwrap();
    /// let tri = [-1.0f32, -1.0, 3.0, -1.0, -1.0, 3.0];
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data(gl::ARRAY_BUFFER, &tri, gl::STATIC_DRAW).unwrap();
    /// ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 0, 0).unwrap();
    /// ctx.enable_vertex_attrib_array(0).unwrap();
    /// ctx.set_draw_time_limit(Some(Duration::from_millis(100)));
    /// let e = ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation);
    /// assert!(e.message.contains("time limit of 0.100 s"), "{e}");
    /// // The context keeps working.
    /// ctx.disable(gl::FRAGMENT_PROGRAM_ARB).unwrap();
    /// ctx.clear_color([0.0, 1.0, 0.0, 1.0]).unwrap();
    /// ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    /// assert_eq!(ctx.read_pixel(5, 5).unwrap(), [0.0, 1.0, 0.0, 1.0]);
    /// ctx.set_draw_time_limit(None);
    /// assert_eq!(ctx.draw_time_limit(), None);
    /// ```
    pub fn set_draw_time_limit(&mut self, limit: Option<Duration>) {
        self.limits.draw_time = limit;
    }

    /// The limit [`Context::set_draw_time_limit`] set.
    pub fn draw_time_limit(&self) -> Option<Duration> {
        self.limits.draw_time
    }
}

#[cfg(test)]
mod tests {
    use crate::caps::{MAX_ARRAY_TEXTURE_LAYERS, MAX_CUBE_MAP_TEXTURE_SIZE, MAX_TEXTURE_SIZE};
    use crate::{gl, Context, GlError};

    /// The size limits glemu advertises can be allocated (issue 17: a 16384² RGBA8
    /// `tex_image_2d` aborted the process), each at its maximum with the other
    /// dimensions small; a budget too small for them is `OUT_OF_MEMORY`, and the
    /// context keeps working.
    #[test]
    fn advertised_size_limits_are_allocatable() {
        let max = MAX_TEXTURE_SIZE;
        let mut ctx = Context::new(4, 4).unwrap();
        let largest_2d = |ctx: &mut Context, id| {
            ctx.bind_texture(gl::TEXTURE_2D, id).unwrap();
            let (f, ty) = (gl::RGBA, gl::UNSIGNED_BYTE);
            ctx.tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, max, max, f, ty, None)
        };
        largest_2d(&mut ctx, 1).unwrap();
        assert!(ctx.memory_in_use() >= 1 << 30);
        ctx.bind_texture(gl::TEXTURE_3D, 2).unwrap();
        ctx.tex_storage_3d(gl::TEXTURE_3D, 1, gl::RGBA8, 1, 1, max as i32)
            .unwrap();
        ctx.bind_texture(gl::TEXTURE_2D_ARRAY, 3).unwrap();
        let layers = MAX_ARRAY_TEXTURE_LAYERS as i32;
        ctx.tex_storage_3d(gl::TEXTURE_2D_ARRAY, 1, gl::RGBA32F, 4, 4, layers)
            .unwrap();
        ctx.bind_renderbuffer(gl::RENDERBUFFER, 4).unwrap();
        ctx.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, max, 1)
            .unwrap();
        // The same 2D image with too small a budget.
        ctx.set_memory_budget(ctx.memory_in_use() + (64 << 20));
        let e = largest_2d(&mut ctx, 5).unwrap_err();
        assert_eq!(e.gl, GlError::OutOfMemory, "{e}");
        assert!(e.message.contains("memory budget"), "{e}");
        let e = ctx
            .renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, 8192, 8192)
            .unwrap_err();
        assert_eq!(e.gl, GlError::OutOfMemory, "{e}");
        assert_eq!(
            ctx.gen_programs(1 << 20).unwrap_err().gl,
            GlError::OutOfMemory
        );
        // Freeing the big image makes room again.
        ctx.delete_textures(&[1]);
        ctx.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, 8192, 8192)
            .unwrap();
        ctx.gen_programs(1000).unwrap();
        // MAX_CUBE_MAP_TEXTURE_SIZE: six 16384² faces (1.5 GiB in R8) make one level.
        ctx.delete_renderbuffers(&[4]);
        ctx.set_memory_budget(ctx.memory_in_use() + (1600 << 20));
        ctx.bind_texture(gl::TEXTURE_CUBE_MAP, 6).unwrap();
        let side = MAX_CUBE_MAP_TEXTURE_SIZE as i32;
        ctx.tex_storage_2d(gl::TEXTURE_CUBE_MAP, 1, gl::R8, side, side)
            .unwrap();
        ctx.bind_texture(gl::TEXTURE_CUBE_MAP, 7).unwrap();
        let e = ctx
            .tex_storage_2d(gl::TEXTURE_CUBE_MAP, 1, gl::R8, side, side)
            .unwrap_err();
        assert_eq!(e.gl, GlError::OutOfMemory, "{e}");
    }
}
