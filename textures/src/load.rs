//! Image files (PNG, JPEG) as RGBA8 2D textures, through the `image` crate.

use crate::error::TexError;
use crate::format::Format;
use crate::patterns::Pattern;
use crate::sampler::{Filter, MinFilter, SamplerState, Wrap};
use crate::texture::{Target, Texture};

/// Decodes PNG/JPEG bytes into an RGBA8 2D texture. Files store the top row first; GL
/// textures the bottom row first, so rows are flipped (t = 0 is the image's bottom).
/// With `mipmap`, the full chain is generated and the sampler is
/// LINEAR_MIPMAP_LINEAR; otherwise LINEAR. Wrap is REPEAT (GL's default).
pub fn decode_image(bytes: &[u8], mipmap: bool) -> Result<Pattern, TexError> {
    let img = image::load_from_memory(bytes)
        .map_err(|e| TexError::Image(e.to_string()))?
        .to_rgba8();
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
    let bytes =
        std::fs::read(path).map_err(|e| TexError::Image(format!("{}: {e}", path.display())))?;
    decode_image(&bytes, mipmap)
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
