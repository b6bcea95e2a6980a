//! Image files (PNG, JPEG) as RGBA8 2D textures, through the `image` crate.

use crate::error::TexError;
use crate::format::Format;
use crate::patterns::Pattern;
use crate::sampler::{Filter, MinFilter, SamplerState, Wrap};
use crate::texture::{Target, Texture};

/// Most bytes the image decoder may allocate for one file (a 4096² RGBA16 image): a
/// small compressed file cannot decode to gigabytes.
pub const MAX_DECODE_BYTES: u64 = 128 << 20;

/// Decodes an image file, or PNG/JPEG bytes, to RGBA8 under glemu's limits: no side above
/// `max_side` (the texture size limit) and no decoder allocation above
/// [`MAX_DECODE_BYTES`]; what goes past them is an error, not an allocation.
///
/// ```
/// use glemu_textures::load::read_rgba8;
/// let mut png = Vec::new();
/// image::RgbaImage::new(40, 2).write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).unwrap();
/// assert_eq!(read_rgba8(&png, 64).unwrap().dimensions(), (40, 2));
/// assert!(read_rgba8(&png, 32).is_err());
/// ```
pub fn read_rgba8(bytes: &[u8], max_side: u32) -> Result<image::RgbaImage, TexError> {
    let mut r = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| TexError::Image(e.to_string()))?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(max_side);
    limits.max_image_height = Some(max_side);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    r.limits(limits);
    let img = r.decode().map_err(|e| TexError::Image(e.to_string()))?;
    let (w, h) = (img.width(), img.height());
    if u64::from(w) * u64::from(h) * 4 > MAX_DECODE_BYTES {
        return Err(TexError::Image(format!(
            "a {w}x{h} image exceeds glemu's decode limit of {} MiB as RGBA8",
            MAX_DECODE_BYTES >> 20
        )));
    }
    Ok(img.to_rgba8())
}

/// [`read_rgba8`] of a file (at most [`MAX_DECODE_BYTES`] of it are read).
pub fn open_rgba8(path: &std::path::Path, max_side: u32) -> Result<image::RgbaImage, TexError> {
    read_rgba8(&read_capped(path)?, max_side)
        .map_err(|e| TexError::Image(format!("{}: {e}", path.display())))
}

/// At most [`MAX_DECODE_BYTES`] of a file.
fn read_capped(path: &std::path::Path) -> Result<Vec<u8>, TexError> {
    use std::io::Read;
    let named = |e: std::io::Error| TexError::Image(format!("{}: {e}", path.display()));
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(named)?
        .take(MAX_DECODE_BYTES)
        .read_to_end(&mut bytes)
        .map_err(named)?;
    Ok(bytes)
}

/// Decodes PNG/JPEG bytes into an RGBA8 2D texture. Files store the top row first; GL
/// textures the bottom row first, so rows are flipped (t = 0 is the image's bottom).
/// With `mipmap`, the full chain is generated and the sampler is
/// LINEAR_MIPMAP_LINEAR; otherwise LINEAR. Wrap is REPEAT (GL's default).
pub fn decode_image(bytes: &[u8], mipmap: bool) -> Result<Pattern, TexError> {
    let img = read_rgba8(bytes, crate::texture::MAX_SIZE)?;
    let (w, h) = img.dimensions();
    let mut texture = Texture::new(Target::T2D, Format::RGBA8, [w, h, 1], 1)?;
    let row = w as usize * 4;
    let raw = img.as_raw();
    let mut flipped = Vec::with_capacity(raw.len());
    for y in (0..h as usize).rev() {
        flipped.extend_from_slice(raw.get(y * row..(y + 1) * row).unwrap_or(&[]));
    }
    texture.write_bytes(0, [0, 0, 0], [w, h, 1], &flipped)?;
    let mut sampler = SamplerState::simple(Filter::Linear, Wrap::Repeat);
    if mipmap {
        texture.generate_mipmaps(0)?;
        sampler.min_filter = MinFilter {
            filter: Filter::Linear,
            mipmap: Some(Filter::Linear),
        };
    }
    Ok(Pattern { texture, sampler })
}

/// Reads and decodes an image file (see [`decode_image`]).
pub fn load_image(path: &std::path::Path, mipmap: bool) -> Result<Pattern, TexError> {
    decode_image(&read_capped(path)?, mipmap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_rows_are_flipped_and_mipmapped() {
        let mut img = image::RgbaImage::new(2, 2);
        img.put_pixel(0, 0, image::Rgba([255, 0, 0, 255])); // top-left in the file
        img.put_pixel(1, 1, image::Rgba([0, 0, 255, 255])); // bottom-right in the file
        let mut bytes = Vec::new();
        img.write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .unwrap();
        let p = decode_image(&bytes, true).unwrap();
        let b = p.texture.level(0).unwrap().bytes();
        // GL row 1 (top) starts with the file's top-left red texel.
        assert_eq!(&b[8..12], &[255, 0, 0, 255]);
        // GL row 0 (bottom) ends with the file's bottom-right blue texel.
        assert_eq!(&b[4..8], &[0, 0, 255, 255]);
        assert_eq!(p.texture.num_levels(), 2);
        assert!(decode_image(b"not an image", false).is_err());
    }
}
