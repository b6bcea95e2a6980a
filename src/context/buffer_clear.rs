//! glClearBufferData / glClearBufferSubData (GL 4.6 section 6.4): one texel given in a
//! client format/type is converted to a buffer-texture internal format (table 8.22),
//! as a texture upload converts it, and repeated over a range of the buffer.

use super::textures::unpack_client;
use super::Context;
use crate::error::{Error, Result};
use glemu_textures::Format;

/// The internal formats of buffer textures (GL 4.6 table 8.22).
const BUFFER_FORMATS: &[&str] = &[
    "R8", "R16", "R16F", "R32F", "R8I", "R16I", "R32I", "R8UI", "R16UI", "R32UI", "RG8", "RG16",
    "RG16F", "RG32F", "RG8I", "RG16I", "RG32I", "RG8UI", "RG16UI", "RG32UI", "RGB32F", "RGB32I",
    "RGB32UI", "RGBA8", "RGBA16", "RGBA16F", "RGBA32F", "RGBA8I", "RGBA16I", "RGBA32I", "RGBA8UI",
    "RGBA16UI", "RGBA32UI",
];

/// The buffer-texture format `internal_format` names (the legacy component counts 1..4
/// are not sized formats).
fn buffer_format(internal_format: u32) -> Result<Format> {
    Format::from_gl(internal_format)
        .filter(|f| internal_format > 4 && BUFFER_FORMATS.contains(&f.name()))
        .ok_or_else(|| Error::invalid_enum("buffer internal format", internal_format))
}

/// # Chapter 6.4 — Clearing buffer data
///
/// `clear_buffer_data`, `clear_buffer_sub_data`.
impl Context {
    /// `glClearBufferData`: [`Context::clear_buffer_sub_data`] of the whole buffer.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data_size(gl::ARRAY_BUFFER, 8, gl::STATIC_DRAW).unwrap();
    /// let texel = [255u8, 0, 128, 64];
    /// ctx.clear_buffer_data(gl::ARRAY_BUFFER, gl::RGBA8, gl::RGBA, gl::UNSIGNED_BYTE, Some(&texel)).unwrap();
    /// assert_eq!(ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, 8).unwrap(), [texel, texel].concat());
    /// ```
    pub fn clear_buffer_data(
        &mut self,
        target: u32,
        internal_format: u32,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> Result<()> {
        let size = self.bound_object(target)?.1.data.len();
        self.clear_buffer_sub_data(target, internal_format, 0, size, format, ty, data)
    }

    /// `glClearBufferSubData`: fills `size` bytes at `offset` of the bound buffer with
    /// the texel `data` (one group of `format`/`ty`; `None` = zeros) converted to
    /// `internal_format`. An internal format that buffer textures lack is
    /// `INVALID_ENUM`; a range outside the buffer or not a whole number of texels
    /// `INVALID_VALUE`; a range overlapping a non-persistent mapping, or data that does
    /// not convert (integer data for a float format, too few bytes)
    /// `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data(gl::ARRAY_BUFFER, &[9u8; 12], gl::STATIC_DRAW).unwrap();
    /// // One float 0.5 as R16F (half 0x3800), over bytes 4..8.
    /// let half = bytemuck::bytes_of(&0.5f32);
    /// ctx.clear_buffer_sub_data(gl::ARRAY_BUFFER, gl::R16F, 4, 4, gl::RED, gl::FLOAT, Some(half)).unwrap();
    /// assert_eq!(ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 2, 8).unwrap(), vec![9, 9, 0, 0x38, 0, 0x38, 9, 9]);
    /// let e = ctx.clear_buffer_sub_data(gl::ARRAY_BUFFER, gl::RGBA32F, 0, 6, gl::RGBA, gl::FLOAT, None);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue); // not whole 16-byte texels
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn clear_buffer_sub_data(
        &mut self,
        target: u32,
        internal_format: u32,
        offset: u64,
        size: u64,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> Result<()> {
        let (id, o) = self.bound_object(target)?;
        let fmt = buffer_format(internal_format)?;
        let texel_bytes = fmt.bytes_per_texel() as u64;
        let end = offset
            .checked_add(size)
            .filter(|&e| e <= o.data.len())
            .ok_or_else(|| {
                Error::invalid_value(format!(
                    "range {offset}+{size} is outside the buffer's {} bytes",
                    o.data.len()
                ))
            })?;
        if texel_bytes == 0
            || !offset.is_multiple_of(texel_bytes)
            || !size.is_multiple_of(texel_bytes)
        {
            return Err(Error::invalid_value(format!(
                "range {offset}+{size} is not whole {texel_bytes}-byte {} texels",
                fmt.name()
            )));
        }
        if let Some(m) = o.mapped.as_ref().filter(|_| o.mapped_exclusively()) {
            if offset < m.offset + m.length && m.offset < end {
                return Err(Error::invalid_operation(format!(
                    "bytes {offset}..{end} of buffer {id} are mapped"
                )));
            }
        }
        let mut texel = vec![0u8; texel_bytes as usize];
        if let Some(d) = data {
            let values = unpack_client(format, ty, d, [1, 1, 1], 1, fmt)?;
            let v = values
                .first()
                .copied()
                .ok_or_else(|| Error::invalid_operation("no texel in the clear data"))?;
            fmt.encode(v, &mut texel);
        }
        let fill: Vec<u8> = texel.iter().copied().cycle().take(size as usize).collect();
        o.data
            .write(offset, &fill)
            .map_err(crate::error::from_pipeline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::GlError;
    use crate::gl;

    fn ctx_with(bytes: usize) -> Context {
        let mut ctx = Context::new(4, 4).unwrap();
        ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
        ctx.buffer_data_size(gl::ARRAY_BUFFER, bytes as u64, gl::STATIC_DRAW)
            .unwrap();
        ctx
    }

    fn words(ctx: &Context) -> Vec<u32> {
        let size = ctx.buffer_size(gl::ARRAY_BUFFER).unwrap();
        ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, size)
            .unwrap()
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    #[test]
    fn texels_convert_and_repeat() {
        let mut ctx = ctx_with(24);
        let rgb: Vec<u8> = bytemuck::cast_slice(&[1.0f32, 2.0, 3.0]).to_vec();
        ctx.clear_buffer_data(gl::ARRAY_BUFFER, gl::RGB32F, gl::RGB, gl::FLOAT, Some(&rgb))
            .unwrap();
        let one = 1.0f32.to_bits();
        let (two, three) = (2.0f32.to_bits(), 3.0f32.to_bits());
        assert_eq!(words(&ctx), vec![one, two, three, one, two, three]);
        // Integer data saturates into 8-bit unsigned components.
        let v: Vec<u8> = bytemuck::cast_slice(&[300u32, 7, 0, 255]).to_vec();
        let data = Some(v.as_slice());
        ctx.clear_buffer_sub_data(
            gl::ARRAY_BUFFER,
            gl::RGBA8UI,
            4,
            8,
            gl::RGBA_INTEGER,
            gl::UNSIGNED_INT,
            data,
        )
        .unwrap();
        assert_eq!(&words(&ctx)[..3], &[one, 0xFF00_07FF, 0xFF00_07FF]);
        ctx.clear_buffer_sub_data(gl::ARRAY_BUFFER, gl::R32UI, 0, 24, gl::RED, gl::FLOAT, None)
            .unwrap();
        assert_eq!(words(&ctx), vec![0; 6], "no data: zeros");
    }

    #[test]
    fn errors() {
        let mut ctx = ctx_with(16);
        let err = |c: &mut Context, f: u32, off: u64, size: u64, fmt: u32, ty: u32| {
            let data = [0u8; 16];
            c.clear_buffer_sub_data(gl::ARRAY_BUFFER, f, off, size, fmt, ty, Some(&data))
                .unwrap_err()
                .gl
        };
        assert_eq!(
            err(&mut ctx, gl::RGB8, 0, 4, gl::RGB, gl::UNSIGNED_BYTE),
            GlError::InvalidEnum
        );
        assert_eq!(
            err(&mut ctx, 4, 0, 4, gl::RGBA, gl::UNSIGNED_BYTE),
            GlError::InvalidEnum
        );
        assert_eq!(
            err(&mut ctx, gl::R32F, 2, 4, gl::RED, gl::FLOAT),
            GlError::InvalidValue
        );
        assert_eq!(
            err(&mut ctx, gl::R32F, 12, 8, gl::RED, gl::FLOAT),
            GlError::InvalidValue
        );
        let e = err(&mut ctx, gl::R32F, 0, 4, gl::RED_INTEGER, gl::INT);
        assert_eq!(
            e,
            GlError::InvalidOperation,
            "integer data for a float format"
        );
        let _m = ctx
            .map_buffer_range(gl::ARRAY_BUFFER, 8, 4, gl::MAP_READ_BIT)
            .unwrap();
        assert_eq!(
            err(&mut ctx, gl::R32F, 8, 4, gl::RED, gl::FLOAT),
            GlError::InvalidOperation
        );
        ctx.clear_buffer_sub_data(gl::ARRAY_BUFFER, gl::R32F, 0, 8, gl::RED, gl::FLOAT, None)
            .unwrap();
    }
}
