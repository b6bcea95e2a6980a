//! Render targets: colour attachments and a depth/stencil buffer, stored per sample.
//!
//! Storage is tile-major: the image is cut into [`TILE`]×[`TILE`] tiles (edge tiles padded)
//! and each tile's samples are contiguous, so a worker thread owns one tile's memory
//! outright while it rasterizes it, and that memory stays in its cache.

use crate::color::{self, ColorFormat};
use crate::error::RasterError;
use crate::samples;
use crate::state::{Rect, MAX_COLOR_TARGETS};

/// Tile edge in pixels.
pub const TILE: usize = 64;
/// Largest framebuffer edge accepted.
pub const MAX_SIZE: u32 = 16384;
/// Largest single plane (32-bit words), so absurd size × samples × format combinations
/// are refused instead of exhausting memory: 1 GiB.
pub const MAX_PLANE_WORDS: usize = 1 << 28;

/// Depth/stencil formats. Stencil is 8 bits in both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DepthFormat {
    /// 24-bit UNORM depth + 8-bit stencil.
    D24S8,
    /// 32-bit float depth + 8-bit stencil.
    D32FS8,
}

/// One colour attachment's storage.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ColorPlane {
    pub format: ColorFormat,
    pub data: Plane,
}

/// A plane's words, starting on a 64-byte boundary (a slice of a buffer 15 words
/// longer): a multisampled block's row of 8 pixels then spans whole cache lines, and the
/// 16-word vectors of the block kernels (`simd`) never split across two lines. The
/// allocator's large blocks start 16 bytes past a page, so every such vector of a 4-sample
/// row was split, and every 128-byte row touched three lines.
#[derive(Default)]
pub(crate) struct Plane {
    buf: Vec<u32>,
    off: usize,
    len: usize,
}

impl Plane {
    /// `n` words of zero, or an error when they do not fit (as `zeroed`).
    fn zeroed(n: usize) -> Result<Self, RasterError> {
        Ok(Self::aligned(zeroed_extra(n, 15)?, n))
    }

    /// The aligned `n` words of `buf` (which holds at least `n + 15`).
    fn aligned(buf: Vec<u32>, n: usize) -> Self {
        // Words to the next 64-byte boundary: the buffer's words are 4-byte aligned.
        let off = (16 - (buf.as_ptr() as usize / 4) % 16) % 16;
        Plane { buf, off, len: n }
    }
}

impl std::ops::Deref for Plane {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        self.buf.get(self.off..self.off + self.len).unwrap_or(&[])
    }
}

impl std::ops::DerefMut for Plane {
    fn deref_mut(&mut self) -> &mut [u32] {
        self.buf
            .get_mut(self.off..self.off + self.len)
            .unwrap_or(&mut [])
    }
}

impl Clone for Plane {
    fn clone(&self) -> Self {
        // A new buffer has its own offset to the boundary.
        let mut p = Plane::aligned(vec![0; self.len + 15], self.len);
        p.copy_from_slice(self);
        p
    }
}

impl PartialEq for Plane {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for Plane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// A framebuffer: colour attachments + depth/stencil, `samples` samples per pixel.
#[derive(Debug, Clone, PartialEq)]
pub struct Framebuffer {
    width: u32,
    height: u32,
    samples: u32,
    tiles_x: usize,
    tiles_y: usize,
    pub(crate) colors: Vec<ColorPlane>,
    depth_format: DepthFormat,
    /// Per sample: 24-bit UNORM value (D24S8) or f32 bits (D32FS8).
    pub(crate) depth: Plane,
    pub(crate) stencil: Vec<u8>,
}

/// Mutable view of one tile's memory, handed to the worker that rasterizes it.
pub(crate) struct TileMem<'a> {
    pub tx: usize,
    pub ty: usize,
    pub colors: Vec<&'a mut [u32]>,
    pub depth: &'a mut [u32],
    pub stencil: &'a mut [u8],
}

impl Framebuffer {
    /// A framebuffer of `width`×`height` pixels with `samples` (1, 2, 4, 8, 16) samples,
    /// one colour attachment per entry of `colors` (at most 8), cleared to zero, depth 1.
    pub fn new(
        width: u32,
        height: u32,
        samples: u32,
        colors: &[ColorFormat],
        depth_format: DepthFormat,
    ) -> Result<Self, RasterError> {
        if width == 0 || height == 0 || width > MAX_SIZE || height > MAX_SIZE {
            return Err(RasterError::Invalid(format!(
                "framebuffer size {width}x{height} (1..={MAX_SIZE})"
            )));
        }
        if !samples::is_supported_sample_count(samples) {
            return Err(RasterError::NotSupported(format!(
                "{samples} samples per pixel"
            )));
        }
        if colors.len() > MAX_COLOR_TARGETS {
            return Err(RasterError::Invalid(format!(
                "{} colour attachments (max {MAX_COLOR_TARGETS})",
                colors.len()
            )));
        }
        let tiles_x = (width as usize).div_ceil(TILE);
        let tiles_y = (height as usize).div_ceil(TILE);
        let per_plane = tiles_x * tiles_y * TILE * TILE * samples as usize;
        let mut planes = Vec::with_capacity(colors.len());
        for &format in colors {
            planes.push(ColorPlane {
                format,
                data: Plane::zeroed(per_plane * format.words())?,
            });
        }
        let mut fb = Framebuffer {
            width,
            height,
            samples,
            tiles_x,
            tiles_y,
            colors: planes,
            depth_format,
            depth: Plane::zeroed(per_plane)?,
            stencil: zeroed(per_plane)?,
        };
        fb.clear_depth(1.0, None);
        Ok(fb)
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }
    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }
    /// Samples per pixel (1 when not multisampled).
    pub fn samples(&self) -> u32 {
        self.samples
    }
    /// Format of the depth plane.
    pub fn depth_format(&self) -> DepthFormat {
        self.depth_format
    }
    /// Number of colour attachments.
    pub fn color_targets(&self) -> usize {
        self.colors.len()
    }
    /// Format of colour attachment `rt`.
    pub fn color_format(&self, rt: usize) -> Option<ColorFormat> {
        self.colors.get(rt).map(|c| c.format)
    }
    pub(crate) fn tiles(&self) -> (usize, usize) {
        (self.tiles_x, self.tiles_y)
    }

    /// Index of the first sample of pixel (x, y) in a per-sample plane, or `None` outside.
    fn sample_index(&self, x: u32, y: u32) -> Option<usize> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let (x, y) = (x as usize, y as usize);
        let tile = (y / TILE) * self.tiles_x + x / TILE;
        let local = (y % TILE) * TILE + x % TILE;
        Some((tile * TILE * TILE + local) * self.samples as usize)
    }

    /// Pixels of `scissor` ∩ framebuffer as half-open ranges.
    fn clear_region(&self, scissor: Option<Rect>) -> (u32, u32, u32, u32) {
        let (w, h) = (self.width as i64, self.height as i64);
        match scissor {
            None => (0, 0, self.width, self.height),
            Some(r) => {
                let x0 = i64::from(r.x).clamp(0, w);
                let y0 = i64::from(r.y).clamp(0, h);
                let x1 = (i64::from(r.x) + i64::from(r.width.max(0))).clamp(x0, w);
                let y1 = (i64::from(r.y) + i64::from(r.height.max(0))).clamp(y0, h);
                (x0 as u32, y0 as u32, x1 as u32, y1 as u32)
            }
        }
    }

    /// Clears colour attachment `rt` to `value` (f32 for float/UNORM formats, given as
    /// floats also for integer formats where they convert) within `scissor`, writing only
    /// channels enabled in `mask`. `srgb` encodes for sRGB attachments.
    pub fn clear_color(
        &mut self,
        rt: usize,
        value: [f32; 4],
        scissor: Option<Rect>,
        mask: [bool; 4],
        srgb: bool,
    ) -> Result<(), RasterError> {
        let format = self
            .color_format(rt)
            .ok_or_else(|| RasterError::Invalid(format!("colour attachment {rt}")))?;
        let mut words = [0u32; 4];
        color::encode(format, value, srgb, &mut words);
        self.clear_color_words(rt, words, scissor, mask)
    }

    /// Clears an integer attachment with raw values (glClearBufferiv/uiv).
    pub fn clear_color_raw(
        &mut self,
        rt: usize,
        value: [u32; 4],
        scissor: Option<Rect>,
        mask: [bool; 4],
    ) -> Result<(), RasterError> {
        let format = self
            .color_format(rt)
            .ok_or_else(|| RasterError::Invalid(format!("colour attachment {rt}")))?;
        if !format.is_integer() {
            return Err(RasterError::Invalid(format!("raw clear of {format:?}")));
        }
        self.clear_color_words(rt, value, scissor, mask)
    }

    fn clear_color_words(
        &mut self,
        rt: usize,
        words: [u32; 4],
        scissor: Option<Rect>,
        mask: [bool; 4],
    ) -> Result<(), RasterError> {
        let format = self
            .color_format(rt)
            .ok_or_else(|| RasterError::Invalid(format!("colour attachment {rt}")))?;
        let nw = format.words();
        let keep = channel_keep_masks(format, mask);
        let region = self.clear_region(scissor);
        let per_pixel = self.samples as usize * nw;
        let layout = (self.tiles_x, per_pixel);
        let plane = &mut self.colors[rt].data;
        fill_region(plane, layout, region, |run| {
            for dst in run.chunks_exact_mut(nw) {
                for i in 0..nw {
                    dst[i] = (dst[i] & keep[i]) | (words[i] & !keep[i]);
                }
            }
        });
        Ok(())
    }

    /// Clears depth to `d` (clamped to [0, 1]) within `scissor`.
    pub fn clear_depth(&mut self, d: f32, scissor: Option<Rect>) {
        let v = encode_depth(self.depth_format, d);
        let region = self.clear_region(scissor);
        let layout = (self.tiles_x, self.samples as usize);
        fill_region(&mut self.depth, layout, region, |run| run.fill(v));
    }

    /// Clears stencil to `value` under `write_mask` within `scissor`.
    pub fn clear_stencil(&mut self, value: u8, write_mask: u8, scissor: Option<Rect>) {
        let region = self.clear_region(scissor);
        let layout = (self.tiles_x, self.samples as usize);
        fill_region(&mut self.stencil, layout, region, |run| {
            for v in run {
                *v = (*v & !write_mask) | (value & write_mask);
            }
        });
    }

    /// Stored words of sample `s` of pixel (x, y) in attachment `rt`: f32 bits for float
    /// and UNORM formats (UNORM/sRGB as stored, not decoded), raw integers otherwise.
    pub fn read_sample_raw(&self, rt: usize, x: u32, y: u32, s: u32) -> Option<[u32; 4]> {
        let plane = self.colors.get(rt)?;
        if s >= self.samples {
            return None;
        }
        let nw = plane.format.words();
        let o = (self.sample_index(x, y)? + s as usize) * nw;
        let w = plane.data.get(o..o + nw)?;
        Some(match plane.format {
            ColorFormat::Rgba32Ui | ColorFormat::Rgba32I | ColorFormat::Rgba32F => {
                [w[0], w[1], w[2], w[3]]
            }
            f => color::decode(f, w, false).map(f32::to_bits),
        })
    }

    /// Sample `s` of pixel (x, y) as floats (integers converted; sRGB not decoded).
    pub fn read_sample(&self, rt: usize, x: u32, y: u32, s: u32) -> Option<[f32; 4]> {
        let plane = self.colors.get(rt)?;
        if s >= self.samples {
            return None;
        }
        let nw = plane.format.words();
        let o = (self.sample_index(x, y)? + s as usize) * nw;
        Some(color::decode(
            plane.format,
            plane.data.get(o..o + nw)?,
            false,
        ))
    }

    /// Stores sample `s` of pixel (x, y) in attachment `rt` from words in the form
    /// [`Framebuffer::read_sample_raw`] returns (f32 bits for float and UNORM formats, sRGB
    /// values as stored; raw integers for integer formats), so a texture's texels can be
    /// loaded into the attachment it renders through. False outside the framebuffer.
    pub fn write_sample_raw(&mut self, rt: usize, x: u32, y: u32, s: u32, v: [u32; 4]) -> bool {
        if s >= self.samples {
            return false;
        }
        let Some(base) = self.sample_index(x, y) else {
            return false;
        };
        let Some(plane) = self.colors.get_mut(rt) else {
            return false;
        };
        let nw = plane.format.words();
        let o = (base + s as usize) * nw;
        let Some(dst) = plane.data.get_mut(o..o + nw) else {
            return false;
        };
        match plane.format {
            ColorFormat::Rgba32Ui | ColorFormat::Rgba32I | ColorFormat::Rgba32F => {
                color::encode_raw(v, dst)
            }
            f => color::encode(f, v.map(f32::from_bits), false, dst),
        }
        true
    }

    /// Stores depth `d` (clamped to [0, 1]) in sample `s` of pixel (x, y).
    pub fn write_depth(&mut self, x: u32, y: u32, s: u32, d: f32) -> bool {
        let v = encode_depth(self.depth_format, d);
        match self.sample_at(x, y, s).and_then(|i| self.depth.get_mut(i)) {
            Some(dst) => {
                *dst = v;
                true
            }
            None => false,
        }
    }

    /// Stores stencil `v` in sample `s` of pixel (x, y).
    pub fn write_stencil(&mut self, x: u32, y: u32, s: u32, v: u8) -> bool {
        match self
            .sample_at(x, y, s)
            .and_then(|i| self.stencil.get_mut(i))
        {
            Some(dst) => {
                *dst = v;
                true
            }
            None => false,
        }
    }

    fn sample_at(&self, x: u32, y: u32, s: u32) -> Option<usize> {
        (s < self.samples).then_some(self.sample_index(x, y)? + s as usize)
    }

    /// Pixel (x, y) resolved: the average of its samples (sample 0 for integer formats).
    pub fn read_pixel(&self, rt: usize, x: u32, y: u32) -> Option<[f32; 4]> {
        let format = self.color_format(rt)?;
        if format.is_integer() || self.samples == 1 {
            return self.read_sample(rt, x, y, 0);
        }
        let mut acc = [0.0f32; 4];
        for s in 0..self.samples {
            let v = self.read_sample(rt, x, y, s)?;
            for (a, b) in acc.iter_mut().zip(v) {
                *a += b;
            }
        }
        Some(acc.map(|a| a / self.samples as f32))
    }

    /// Depth of sample `s` of pixel (x, y) as a float in [0, 1].
    pub fn read_depth(&self, x: u32, y: u32, s: u32) -> Option<f32> {
        if s >= self.samples {
            return None;
        }
        let v = *self.depth.get(self.sample_index(x, y)? + s as usize)?;
        Some(decode_depth(self.depth_format, v))
    }

    /// Stencil of sample `s` of pixel (x, y).
    pub fn read_stencil(&self, x: u32, y: u32, s: u32) -> Option<u8> {
        if s >= self.samples {
            return None;
        }
        self.stencil
            .get(self.sample_index(x, y)? + s as usize)
            .copied()
    }

    /// The `w`×`h` pixels at (`x`, `y`) of RGBA8 or sRGB8_ALPHA8 attachment `rt` as RGBA8
    /// bytes (stored values, no sRGB decoding): row `j` of the rectangle goes to
    /// `out[j * stride..]`, counting from the top row when `top_down`. Single-sampled
    /// planes are copied word by word; multisampled ones are resolved as
    /// [`Framebuffer::read_pixel`] resolves them, then rounded to 8 bits. Rows run in
    /// parallel on the current rayon pool; the bytes do not depend on its size.
    ///
    /// Errors for another format, a rectangle reaching outside, or an `out` too short.
    #[allow(clippy::too_many_arguments)]
    pub fn read_rgba8(
        &self,
        rt: usize,
        (x, y, w, h): (u32, u32, u32, u32),
        stride: usize,
        top_down: bool,
        out: &mut [u8],
    ) -> Result<(), RasterError> {
        use rayon::prelude::*;
        let format = self
            .color_format(rt)
            .ok_or_else(|| RasterError::Invalid(format!("colour attachment {rt}")))?;
        if !format.is_unorm() {
            return Err(RasterError::Invalid(format!("RGBA8 read of {format:?}")));
        }
        let inside = |p: u32, n: u32, max: u32| u64::from(p) + u64::from(n) <= u64::from(max);
        let row = w as usize * 4;
        if !inside(x, w, self.width) || !inside(y, h, self.height) || stride < row {
            return Err(RasterError::Invalid(format!(
                "RGBA8 read of {w}x{h} at ({x}, {y}) from a {}x{} framebuffer",
                self.width, self.height
            )));
        }
        let needed = (h as usize).saturating_sub(1) * stride + row;
        let out = match out.get_mut(..needed) {
            Some(o) if h > 0 && w > 0 => o,
            _ if h == 0 || w == 0 => return Ok(()),
            _ => {
                return Err(RasterError::Invalid(
                    "RGBA8 read into a short buffer".into(),
                ))
            }
        };
        let data = &self.colors[rt].data;
        let ns = self.samples as usize;
        out.par_chunks_mut(stride).enumerate().for_each(|(j, dst)| {
            let j = j as u32;
            let py = if top_down { y + h - 1 - j } else { y + j };
            let dst = &mut dst[..row];
            if ns == 1 {
                // One word per pixel, R in the low byte: a tile's row is contiguous.
                let mut px = x;
                let mut d = dst.chunks_exact_mut(4);
                while px < x + w {
                    let run = ((TILE as u32 - px % TILE as u32).min(x + w - px)) as usize;
                    let Some(base) = self.sample_index(px, py) else {
                        break;
                    };
                    for &word in data.get(base..base + run).unwrap_or(&[]) {
                        if let Some(o) = d.next() {
                            o.copy_from_slice(&word.to_le_bytes());
                        }
                    }
                    px += run as u32;
                }
            } else {
                for (i, o) in dst.chunks_exact_mut(4).enumerate() {
                    let v = self.read_pixel(rt, x + i as u32, py).unwrap_or([0.0; 4]);
                    for (b, c) in o.iter_mut().zip(v) {
                        *b = color::unorm8(c) as u8;
                    }
                }
            }
        });
        Ok(())
    }

    /// Pixels (`x`, `y`) .. (`x + out.len()`, `y`) of attachment `rt` as
    /// [`Framebuffer::read_pixel`] returns them (resolved floats; sample 0 converted for
    /// integer formats), reading each tile's run of the row at once. Pixels outside are
    /// left as they are.
    pub fn read_row(&self, rt: usize, x: u32, y: u32, out: &mut [[f32; 4]]) {
        let Some(plane) = self.colors.get(rt) else {
            return;
        };
        if self.samples > 1 && !plane.format.is_integer() {
            for (i, o) in out.iter_mut().enumerate() {
                if let Some(v) = self.read_pixel(rt, x + i as u32, y) {
                    *o = v;
                }
            }
            return;
        }
        self.row_runs(rt, x, y, out.len(), |i, w| {
            if let Some(o) = out.get_mut(i) {
                *o = color::decode(plane.format, w, false);
            }
        });
    }

    /// Like [`Framebuffer::read_row`], the stored words of sample 0 in the form
    /// [`Framebuffer::read_sample_raw`] returns them.
    pub fn read_row_raw(&self, rt: usize, x: u32, y: u32, out: &mut [[u32; 4]]) {
        let Some(format) = self.color_format(rt) else {
            return;
        };
        self.row_runs(rt, x, y, out.len(), |i, w| {
            if let Some(o) = out.get_mut(i) {
                *o = match format {
                    ColorFormat::Rgba32Ui | ColorFormat::Rgba32I | ColorFormat::Rgba32F => {
                        [w[0], w[1], w[2], w[3]]
                    }
                    f => color::decode(f, w, false).map(f32::to_bits),
                };
            }
        });
    }

    /// Calls `f(i, words)` with sample 0 of pixels (`x + i`, `y`) for `i < n` inside the
    /// framebuffer, one contiguous tile run at a time.
    fn row_runs(&self, rt: usize, x: u32, y: u32, n: usize, mut f: impl FnMut(usize, &[u32])) {
        let Some(plane) = self.colors.get(rt) else {
            return;
        };
        let (nw, ns) = (plane.format.words(), self.samples as usize);
        let end = (u64::from(x) + n as u64).min(u64::from(self.width)) as u32;
        let mut px = x;
        while px < end {
            let run = (TILE as u32 - px % TILE as u32).min(end - px) as usize;
            let Some(base) = self.sample_index(px, y) else {
                return;
            };
            let words = plane
                .data
                .get(base * nw..(base + run * ns) * nw)
                .unwrap_or(&[]);
            for (k, w) in words.chunks_exact(nw * ns).enumerate() {
                f((px - x) as usize + k, &w[..nw]);
            }
            px += run as u32;
        }
    }

    /// Attachment `rt` (RGBA8 or sRGB8_ALPHA8) resolved to RGBA8 bytes, top row first
    /// (for PNG output).
    pub fn to_rgba8_top_down(&self, rt: usize) -> Result<Vec<u8>, RasterError> {
        let (w, h) = (self.width, self.height);
        let mut out = vec![0u8; w as usize * h as usize * 4];
        self.read_rgba8(rt, (0, 0, w, h), w as usize * 4, true, &mut out)?;
        Ok(out)
    }

    /// Splits the storage into one mutable view per tile (row-major tile order).
    pub(crate) fn tile_mems(&mut self) -> Vec<TileMem<'_>> {
        let ns = self.samples as usize;
        let per_tile = TILE * TILE * ns;
        let n_tiles = self.tiles_x * self.tiles_y;
        let mut color_iters: Vec<_> = self
            .colors
            .iter_mut()
            .map(|c| {
                let w = c.format.words();
                c.data.chunks_mut(per_tile * w)
            })
            .collect();
        let mut depth = self.depth.chunks_mut(per_tile);
        let mut stencil = self.stencil.chunks_mut(per_tile);
        let mut out = Vec::with_capacity(n_tiles);
        for t in 0..n_tiles {
            let (Some(d), Some(s)) = (depth.next(), stencil.next()) else {
                break;
            };
            let colors: Vec<&mut [u32]> = color_iters.iter_mut().filter_map(|i| i.next()).collect();
            out.push(TileMem {
                tx: t % self.tiles_x,
                ty: t / self.tiles_x,
                colors,
                depth: d,
                stencil: s,
            });
        }
        out
    }
}

/// A zero-filled buffer, or an error instead of an abort when memory runs out (sizes come
/// from scene files).
fn zeroed<T: Clone + Default>(n: usize) -> Result<Vec<T>, RasterError> {
    zeroed_extra(n, 0)
}

/// [`zeroed`] of `n` elements with `extra` more after them (not counted against the
/// plane limit).
fn zeroed_extra<T: Clone + Default>(n: usize, extra: usize) -> Result<Vec<T>, RasterError> {
    if n > MAX_PLANE_WORDS {
        return Err(RasterError::NotSupported(format!(
            "framebuffer plane of {n} words (max {MAX_PLANE_WORDS})"
        )));
    }
    let mut v = Vec::new();
    v.try_reserve_exact(n + extra).map_err(|_| {
        RasterError::Invalid(format!(
            "framebuffer of {n} elements does not fit in memory"
        ))
    })?;
    v.resize(n + extra, T::default());
    Ok(v)
}

/// Per stored word, the bits a colour mask keeps (1 = keep old).
pub(crate) fn channel_keep_masks(format: ColorFormat, mask: [bool; 4]) -> [u32; 4] {
    let m = |b: bool, bits: u32| if b { 0 } else { bits };
    match format.words() {
        1 => [
            m(mask[0], 0xff) | m(mask[1], 0xff00) | m(mask[2], 0xff_0000) | m(mask[3], 0xff00_0000),
            0,
            0,
            0,
        ],
        2 => [
            m(mask[0], 0xffff) | m(mask[1], 0xffff_0000),
            m(mask[2], 0xffff) | m(mask[3], 0xffff_0000),
            0,
            0,
        ],
        _ => mask.map(|b| m(b, !0)),
    }
}

/// Depth value → stored word (public for `glemu trace`'s replay of the tests).
#[inline(always)]
#[allow(clippy::manual_clamp)] // NaN must become 0, which clamp() would not do.
pub fn encode_depth(format: DepthFormat, d: f32) -> u32 {
    // max/min send NaN to 0; `+ 0.0` turns -0.0 into +0.0. Stored words of both formats
    // are then ordered like the depths they hold, so tests compare them as integers.
    let d = d.max(0.0).min(1.0) + 0.0;
    match format {
        // Round to nearest (ties to even) without a libm call or a saturating cast: adding
        // 2^52 to a value in [0, 2^24) leaves its rounded integer in the low mantissa bits.
        DepthFormat::D24S8 => {
            ((f64::from(d) * f64::from(0xff_ffffu32) + 4_503_599_627_370_496.0).to_bits()
                & 0xff_ffff) as u32
        }
        DepthFormat::D32FS8 => d.to_bits(),
    }
}

/// Stored word → depth value.
#[inline]
pub fn decode_depth(format: DepthFormat, v: u32) -> f32 {
    match format {
        DepthFormat::D24S8 => (f64::from(v) / f64::from(0xff_ffffu32)) as f32,
        DepthFormat::D32FS8 => f32::from_bits(v),
    }
}

/// Applies `f` to every run of `region`'s pixels (x0, y0, x1, y1, half-open) in a plane
/// stored tile by tile (`layout` = tiles per row, elements per pixel): one run per tile
/// row, the tiles in parallel on the current rayon pool. Each element is written by `f`
/// exactly as a pixel-by-pixel walk would, so the bytes do not depend on the pool's size,
/// and the padding of edge tiles (outside the framebuffer) is left as it is.
fn fill_region<T: Send>(
    data: &mut [T],
    (tiles_x, per_pixel): (usize, usize),
    (x0, y0, x1, y1): (u32, u32, u32, u32),
    f: impl Fn(&mut [T]) + Sync,
) {
    use rayon::prelude::*;
    let (x0, y0, x1, y1) = (x0 as usize, y0 as usize, x1 as usize, y1 as usize);
    if x0 >= x1 || y0 >= y1 || per_pixel == 0 || tiles_x == 0 {
        return;
    }
    data.par_chunks_mut(TILE * TILE * per_pixel)
        .enumerate()
        .for_each(|(t, tile)| {
            let (tx, ty) = ((t % tiles_x) * TILE, (t / tiles_x) * TILE);
            let (xa, xb) = (x0.max(tx), x1.min(tx + TILE));
            let (ya, yb) = (y0.max(ty), y1.min(ty + TILE));
            if xa >= xb || ya >= yb {
                return;
            }
            for y in ya..yb {
                let start = ((y - ty) * TILE + (xa - tx)) * per_pixel;
                if let Some(run) = tile.get_mut(start..start + (xb - xa) * per_pixel) {
                    f(run);
                }
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Colour and depth planes start on a 64-byte boundary, also when cloned (a new
    /// buffer, its own offset), and keep their words and length.
    #[test]
    fn planes_start_on_cache_lines() {
        for samples in [1, 4] {
            let mut fb = Framebuffer::new(
                100,
                70,
                samples,
                &[ColorFormat::Rgba8Unorm, ColorFormat::Rgba32F],
                DepthFormat::D24S8,
            )
            .unwrap_or_else(|e| panic!("{e}"));
            let words = 2 * 2 * TILE * TILE * samples as usize;
            fb.colors[1].data[7] = 9;
            let copy = fb.clone();
            for f in [&fb, &copy] {
                let planes = [&f.colors[0].data[..], &f.colors[1].data[..], &f.depth[..]];
                for (p, n) in planes.into_iter().zip([words, 4 * words, words]) {
                    assert_eq!(p.as_ptr() as usize % 64, 0);
                    assert_eq!(p.len(), n);
                }
                assert_eq!(f.colors[1].data[7], 9);
            }
            assert!(copy == fb);
        }
    }

    /// Clears attachment 0 to opaque red, then writes green 1 and alpha 0 within `r`
    /// (red and blue masked off): (1, 1, 0, 0) inside, (1, 0, 0, 1) outside.
    fn red_then_green_alpha_in(fb: &mut Framebuffer, r: Rect) {
        fb.clear_color(0, [1.0, 0.0, 0.0, 1.0], None, [true; 4], false)
            .unwrap_or_else(|e| panic!("{e}"));
        fb.clear_color(
            0,
            [0.0, 1.0, 1.0, 0.0],
            Some(r),
            [false, true, false, true],
            false,
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn clears_by_tile_runs_touch_exactly_the_scissored_pixels() {
        // Framebuffers not a whole number of tiles, scissors across tile edges and past
        // the framebuffer: every sample of every pixel checked against the rectangle.
        for (w, h, samples) in [(150u32, 70u32, 2u32), (64, 64, 1), (1, 130, 4)] {
            for r in [
                Rect {
                    x: 60,
                    y: 5,
                    width: 10,
                    height: 70,
                },
                Rect {
                    x: -5,
                    y: -5,
                    width: 400,
                    height: 3,
                },
                Rect {
                    x: 63,
                    y: 63,
                    width: 2,
                    height: 2,
                },
                Rect {
                    x: 10,
                    y: 10,
                    width: 0,
                    height: 5,
                },
            ] {
                let mut fb = Framebuffer::new(
                    w,
                    h,
                    samples,
                    &[ColorFormat::Rgba8Unorm],
                    DepthFormat::D24S8,
                )
                .unwrap_or_else(|e| panic!("{e}"));
                fb.clear_depth(1.0, None);
                fb.clear_stencil(0x11, 0xff, None);
                red_then_green_alpha_in(&mut fb, r);
                fb.clear_depth(0.5, Some(r));
                fb.clear_stencil(0xab, 0x0f, Some(r));
                for y in 0..h {
                    for x in 0..w {
                        let inside = i64::from(x) >= i64::from(r.x)
                            && i64::from(x) < i64::from(r.x) + i64::from(r.width)
                            && i64::from(y) >= i64::from(r.y)
                            && i64::from(y) < i64::from(r.y) + i64::from(r.height);
                        let (c, d, st) = match inside {
                            true => ([1.0, 1.0, 0.0, 0.0], 0.5, 0x1b),
                            false => ([1.0, 0.0, 0.0, 1.0], 1.0, 0x11),
                        };
                        for s in 0..samples {
                            assert_eq!(
                                fb.read_sample(0, x, y, s),
                                Some(c),
                                "{w}x{h} {r:?} ({x}, {y})"
                            );
                            let got = fb.read_depth(x, y, s).unwrap_or(f32::NAN);
                            assert!(
                                (got - d).abs() < 1e-6,
                                "{w}x{h} {r:?} ({x}, {y}) depth {got}"
                            );
                            assert_eq!(fb.read_stencil(x, y, s), Some(st));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn clear_respects_scissor_and_mask() {
        let mut fb = Framebuffer::new(100, 70, 4, &[ColorFormat::Rgba8Unorm], DepthFormat::D24S8)
            .unwrap_or_else(|e| panic!("{e}"));
        let r = Rect {
            x: 65,
            y: 10,
            width: 10,
            height: 60,
        };
        red_then_green_alpha_in(&mut fb, r);
        assert_eq!(fb.read_sample(0, 64, 10, 3), Some([1.0, 0.0, 0.0, 1.0]));
        assert_eq!(fb.read_sample(0, 65, 10, 3), Some([1.0, 1.0, 0.0, 0.0]));
        assert_eq!(fb.read_sample(0, 74, 69, 0), Some([1.0, 1.0, 0.0, 0.0]));
        assert_eq!(fb.read_sample(0, 75, 69, 0), Some([1.0, 0.0, 0.0, 1.0]));
        assert_eq!(fb.read_sample(0, 100, 0, 0), None);
        assert_eq!(fb.read_depth(99, 69, 3), Some(1.0));
        fb.clear_stencil(0xab, 0x0f, None);
        assert_eq!(fb.read_stencil(3, 3, 1), Some(0x0b));
    }

    #[test]
    fn rejects_bad_sizes_and_counts() {
        assert!(Framebuffer::new(0, 1, 1, &[], DepthFormat::D24S8).is_err());
        assert!(Framebuffer::new(8, 8, 3, &[], DepthFormat::D24S8).is_err());
        let huge = Framebuffer::new(
            16384,
            16384,
            16,
            &[ColorFormat::Rgba32F],
            DepthFormat::D24S8,
        );
        assert!(matches!(huge, Err(RasterError::NotSupported(_))));
        assert!(
            Framebuffer::new(8, 8, 1, &[ColorFormat::Rgba8Unorm; 9], DepthFormat::D24S8).is_err()
        );
    }

    #[test]
    fn depth_encoding_is_exact_at_ends() {
        assert_eq!(encode_depth(DepthFormat::D24S8, 1.0), 0xff_ffff);
        assert_eq!(encode_depth(DepthFormat::D24S8, 0.0), 0);
        assert_eq!(decode_depth(DepthFormat::D24S8, 0xff_ffff), 1.0);
        assert_eq!(encode_depth(DepthFormat::D32FS8, 2.0), 1.0f32.to_bits());
    }

    #[test]
    fn raw_writes_round_trip_per_sample() {
        let formats = [ColorFormat::Srgb8Alpha8, ColorFormat::Rgba32I];
        let mut fb = Framebuffer::new(70, 3, 4, &formats, DepthFormat::D24S8)
            .unwrap_or_else(|e| panic!("{e}"));
        let srgb = [0.2f32, 1.0, 0.0, 0.6].map(|c| ((c * 255.0).round() / 255.0).to_bits());
        assert!(fb.write_sample_raw(0, 66, 2, 3, srgb));
        assert_eq!(fb.read_sample_raw(0, 66, 2, 3), Some(srgb));
        assert_eq!(fb.read_sample_raw(0, 66, 2, 2), Some([0; 4]));
        let ints = [u32::MAX, 7, 0x8000_0000, 1];
        assert!(fb.write_sample_raw(1, 0, 0, 0, ints));
        assert_eq!(fb.read_sample_raw(1, 0, 0, 0), Some(ints));
        assert!(!fb.write_sample_raw(0, 70, 0, 0, srgb));
        assert!(!fb.write_sample_raw(0, 0, 0, 4, srgb));
        assert!(fb.write_depth(69, 1, 1, 0.25));
        assert_eq!(
            fb.read_depth(69, 1, 1),
            Some(decode_depth(DepthFormat::D24S8, 0x40_0000))
        );
        assert_eq!(fb.read_depth(69, 1, 0), Some(1.0));
        assert!(fb.write_stencil(5, 2, 3, 0x5a));
        assert_eq!(fb.read_stencil(5, 2, 3), Some(0x5a));
        assert!(!fb.write_stencil(5, 3, 0, 1));
    }

    #[test]
    fn rgba8_reads_match_read_pixel_in_every_layout() {
        for samples in [1, 4] {
            let mut fb = Framebuffer::new(
                130,
                67,
                samples,
                &[ColorFormat::Rgba8Unorm],
                DepthFormat::D24S8,
            )
            .unwrap_or_else(|e| panic!("{e}"));
            for (i, x) in [0u32, 63, 64, 65, 128, 129].into_iter().enumerate() {
                for s in 0..samples {
                    let v = [i as f32 / 7.0, s as f32 / 5.0, 0.5, 1.0];
                    let v = v.map(|c| c.to_bits());
                    fb.write_sample_raw(0, x, 66 - i as u32, s, v);
                }
            }
            let (x, y, w, h) = (1u32, 2u32, 129u32, 65u32);
            let stride = w as usize * 4 + 3;
            let mut out = vec![0u8; stride * h as usize];
            for top_down in [false, true] {
                fb.read_rgba8(0, (x, y, w, h), stride, top_down, &mut out)
                    .unwrap_or_else(|e| panic!("{e}"));
                for j in 0..h {
                    let py = if top_down { y + h - 1 - j } else { y + j };
                    for i in 0..w {
                        let want = fb
                            .read_pixel(0, x + i, py)
                            .unwrap_or_default()
                            .map(|c| color::unorm8(c) as u8);
                        let o = j as usize * stride + i as usize * 4;
                        assert_eq!(
                            out[o..o + 4],
                            want,
                            "samples {samples} pixel ({}, {py})",
                            x + i
                        );
                    }
                }
            }
            assert!(fb
                .read_rgba8(0, (2, 0, 129, 1), 1000, false, &mut out)
                .is_err());
            assert!(fb
                .read_rgba8(0, (0, 0, 2, 2), 8, false, &mut [0u8; 15])
                .is_err());
        }
    }

    #[test]
    fn rows_read_like_pixels() {
        let formats = [
            ColorFormat::Rgba16F,
            ColorFormat::Rgba32I,
            ColorFormat::Rgba8Unorm,
        ];
        for samples in [1, 2] {
            let mut fb = Framebuffer::new(140, 3, samples, &formats, DepthFormat::D24S8)
                .unwrap_or_else(|e| panic!("{e}"));
            for x in [0u32, 1, 63, 64, 127, 128, 139] {
                for s in 0..samples {
                    let v = [x as f32 * 0.25, -(s as f32), 3.0, 0.5].map(f32::to_bits);
                    let ints = [x, s, u32::MAX, 7];
                    fb.write_sample_raw(0, x, 1, s, v);
                    fb.write_sample_raw(1, x, 1, s, ints);
                    fb.write_sample_raw(2, x, 1, s, v);
                }
            }
            for rt in 0..3 {
                let mut row = vec![[9.0f32; 4]; 139];
                let mut raw = vec![[9u32; 4]; 139];
                fb.read_row(rt, 1, 1, &mut row);
                fb.read_row_raw(rt, 1, 1, &mut raw);
                for (i, (v, r)) in row.iter().zip(&raw).enumerate() {
                    let x = 1 + i as u32;
                    assert_eq!(Some(*v), fb.read_pixel(rt, x, 1), "rt {rt} x {x}");
                    assert_eq!(Some(*r), fb.read_sample_raw(rt, x, 1, 0), "rt {rt} x {x}");
                }
            }
            // Past the right edge nothing is written.
            let mut row = vec![[9.0f32; 4]; 4];
            fb.read_row(0, 138, 1, &mut row);
            assert_eq!(row[2..], [[9.0; 4]; 2]);
        }
    }

    #[test]
    fn top_down_rows_flip() {
        let mut fb = Framebuffer::new(2, 2, 1, &[ColorFormat::Rgba8Unorm], DepthFormat::D24S8)
            .unwrap_or_else(|e| panic!("{e}"));
        let r = Rect {
            x: 0,
            y: 0,
            width: 1,
            height: 1,
        };
        fb.clear_color(0, [1.0, 1.0, 1.0, 1.0], Some(r), [true; 4], false)
            .unwrap_or(());
        let b = fb.to_rgba8_top_down(0).unwrap_or_default();
        assert_eq!(&b[8..12], &[255, 255, 255, 255]);
        assert_eq!(&b[0..4], &[0, 0, 0, 0]);
    }
}
