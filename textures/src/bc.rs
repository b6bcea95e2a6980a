//! BC1–BC3 (S3TC DXT1/3/5) block decoding, following EXT_texture_compression_s3tc.
//!
//! Colours are expanded from 5/6 bits by bit replication and interpolated in 8-bit
//! integer arithmetic (`(2*c0 + c1) / 3`), which is what Mesa's decoder does, so the
//! decoded images match the reference renderer.

use crate::format::Format;
use crate::pack::unorm_to_f32;

fn expand565(c: u16) -> [u32; 3] {
    let r = (c >> 11) as u32 & 0x1f;
    let g = (c >> 5) as u32 & 0x3f;
    let b = c as u32 & 0x1f;
    [
        (r << 3) | (r >> 2),
        (g << 2) | (g >> 4),
        (b << 3) | (b >> 2),
    ]
}

/// Decodes the colour half of a block (8 bytes) into 16 RGBA8 texels.
/// `four_colour` forces the 4-colour mode (BC2/BC3); `punch_alpha` makes index 3 of the
/// 3-colour mode transparent (BC1 RGBA).
fn colour_block(b: &[u8; 8], four_colour: bool, punch_alpha: bool) -> [[u32; 4]; 16] {
    let c0 = u16::from_le_bytes([b[0], b[1]]);
    let c1 = u16::from_le_bytes([b[2], b[3]]);
    let e0 = expand565(c0);
    let e1 = expand565(c1);
    let mut pal = [[0u32; 4]; 4];
    pal[0] = [e0[0], e0[1], e0[2], 255];
    pal[1] = [e1[0], e1[1], e1[2], 255];
    if four_colour || c0 > c1 {
        for i in 0..3 {
            pal[2][i] = (2 * e0[i] + e1[i]) / 3;
            pal[3][i] = (e0[i] + 2 * e1[i]) / 3;
        }
        pal[2][3] = 255;
        pal[3][3] = 255;
    } else {
        for i in 0..3 {
            pal[2][i] = (e0[i] + e1[i]) / 2;
        }
        pal[2][3] = 255;
        pal[3] = [0, 0, 0, if punch_alpha { 0 } else { 255 }];
    }
    let idx = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
    std::array::from_fn(|t| pal[((idx >> (2 * t)) & 3) as usize])
}

fn bc3_alpha(b: &[u8; 8]) -> [u32; 16] {
    let a0 = b[0] as u32;
    let a1 = b[1] as u32;
    let mut pal = [0u32; 8];
    pal[0] = a0;
    pal[1] = a1;
    if a0 > a1 {
        for i in 1..7 {
            pal[i + 1] = ((7 - i as u32) * a0 + i as u32 * a1) / 7;
        }
    } else {
        for i in 1..5 {
            pal[i + 1] = ((5 - i as u32) * a0 + i as u32 * a1) / 5;
        }
        pal[6] = 0;
        pal[7] = 255;
    }
    let mut bits = 0u64;
    for (i, v) in b[2..8].iter().enumerate() {
        bits |= (*v as u64) << (8 * i);
    }
    std::array::from_fn(|t| pal[((bits >> (3 * t)) & 7) as usize])
}

/// Decodes one block to 16 RGBA8 texels in row-major order (row 0 first).
pub fn decode_block(format: Format, block: &[u8]) -> [[u32; 4]; 16] {
    let mut b = [0u8; 16];
    for (d, s) in b.iter_mut().zip(block.iter()) {
        *d = *s;
    }
    let half = |o: usize| -> [u8; 8] { std::array::from_fn(|i| b[o + i]) };
    // sRGB variants store the same blocks; the sRGB decode happens when sampling.
    match format.linear() {
        Format::Bc1Rgb => colour_block(&half(0), false, false),
        Format::Bc1Rgba => colour_block(&half(0), false, true),
        Format::Bc2 => {
            let mut t = colour_block(&half(8), true, false);
            for (i, texel) in t.iter_mut().enumerate() {
                let a = (b[i / 2] >> (4 * (i % 2))) & 0xf;
                texel[3] = (a as u32) * 17;
            }
            t
        }
        Format::Bc3 => {
            let mut t = colour_block(&half(8), true, false);
            let a = bc3_alpha(&half(0));
            for (texel, a) in t.iter_mut().zip(a) {
                texel[3] = a;
            }
            t
        }
        _ => [[0; 4]; 16],
    }
}

/// Decodes a compressed image of `w × h × d` texels (blocks row-major per slice) to
/// canonical texels (f32 bits, alpha 1 for BC1 RGB).
pub fn decode_image(format: Format, bytes: &[u8], w: u32, h: u32, d: u32) -> Vec<[u32; 4]> {
    let mut out = Vec::new();
    decode_image_into(format, bytes, w, h, d, &mut out);
    out
}

/// [`decode_image`] into `out` (emptied first; the caller reserves its room).
pub(crate) fn decode_image_into(
    format: Format,
    bytes: &[u8],
    w: u32,
    h: u32,
    d: u32,
    out: &mut Vec<[u32; 4]>,
) {
    out.clear();
    out.resize(w as usize * h as usize * d as usize, [0u32; 4]);
    let all = Blocks {
        x: 0..w.div_ceil(4) as usize,
        y: 0..h.div_ceil(4) as usize,
        z: 0..d as usize,
    };
    decode_blocks(format, bytes, [w, h, d], &all, out);
}

/// A box of 4×4 blocks: block columns `x`, block rows `y`, slices `z`.
pub(crate) struct Blocks {
    pub(crate) x: std::ops::Range<usize>,
    pub(crate) y: std::ops::Range<usize>,
    pub(crate) z: std::ops::Range<usize>,
}

/// Decodes the blocks of `blocks` of a `size` image (`bytes`: all its blocks) into their
/// texels of `out` (the whole image's decoded texels); texels past the image's edge and
/// missing blocks are skipped / read as empty, as [`decode_image`] does.
pub(crate) fn decode_blocks(
    format: Format,
    bytes: &[u8],
    size: [u32; 3],
    blocks: &Blocks,
    out: &mut [[u32; 4]],
) {
    let (w, h) = (size[0] as usize, size[1] as usize);
    let bw = w.div_ceil(4);
    let bh = h.div_ceil(4);
    let bsize = format.bytes_per_texel();
    for z in blocks.z.clone() {
        for by in blocks.y.clone() {
            for bx in blocks.x.clone() {
                let off = ((z * bh + by) * bw + bx) * bsize;
                let block = bytes.get(off..off + bsize).unwrap_or(&[]);
                let texels = decode_block(format, block);
                for (t, texel) in texels.iter().enumerate() {
                    let x = bx * 4 + t % 4;
                    let y = by * 4 + t / 4;
                    if x < w && y < h {
                        if let Some(dst) = out.get_mut((z * h + y) * w + x) {
                            *dst = texel.map(|c| unorm_to_f32(c, 8).to_bits());
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bc1_four_and_three_colour_modes() {
        // c0 = pure red (0xf800) > c1 = pure blue (0x001f): four-colour mode.
        let mut blk = [0x00, 0xf8, 0x1f, 0x00, 0, 0, 0, 0];
        // indices: texel0 = 0, texel1 = 1, texel2 = 2, texel3 = 3
        blk[4] = 0b11_10_01_00;
        let t = decode_block(Format::Bc1Rgb, &blk);
        assert_eq!(t[0], [255, 0, 0, 255]);
        assert_eq!(t[1], [0, 0, 255, 255]);
        assert_eq!(t[2], [170, 0, 85, 255]);
        assert_eq!(t[3], [85, 0, 170, 255]);
        // swap endpoints: three-colour mode, index 3 transparent black for RGBA.
        let blk2 = [0x1f, 0x00, 0x00, 0xf8, 0b11_10_01_00, 0, 0, 0];
        let t = decode_block(Format::Bc1Rgba, &blk2);
        assert_eq!(t[2], [127, 0, 127, 255]);
        assert_eq!(t[3], [0, 0, 0, 0]);
        let t = decode_block(Format::Bc1Rgb, &blk2);
        assert_eq!(t[3], [0, 0, 0, 255]);
    }

    #[test]
    fn bc2_and_bc3_alpha() {
        let mut blk = [0u8; 16];
        blk[0] = 0xf0; // texel0 alpha 0, texel1 alpha 15
        let t = decode_block(Format::Bc2, &blk);
        assert_eq!(t[0][3], 0);
        assert_eq!(t[1][3], 255);
        let mut blk = [0u8; 16];
        blk[0] = 255;
        blk[1] = 0;
        // texel0 index 0 (255), texel1 index 1 (0), texel2 index 2 (6/7*255)
        blk[2] = 0b10_001_000;
        let t = decode_block(Format::Bc3, &blk);
        assert_eq!(t[0][3], 255);
        assert_eq!(t[1][3], 0);
        assert_eq!(t[2][3], 6 * 255 / 7);
        // a0 <= a1: indices 6 and 7 are 0 and 255.
        let mut blk = [0u8; 16];
        blk[0] = 10;
        blk[1] = 20;
        blk[2] = 0b110_000 | (0b11 << 6);
        blk[3] = 0b1;
        let t = decode_block(Format::Bc3, &blk);
        assert_eq!(t[1][3], 0);
        assert_eq!(t[2][3], 255);
    }

    #[test]
    fn srgb_blocks_decode_like_linear_ones() {
        // Decoding is the same; the sRGB curve is applied when sampling.
        let blk: [u8; 16] = std::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0x5a);
        for (srgb, lin) in [
            (Format::Bc1Srgb, Format::Bc1Rgb),
            (Format::Bc1SrgbAlpha, Format::Bc1Rgba),
            (Format::Bc2Srgb, Format::Bc2),
            (Format::Bc3Srgb, Format::Bc3),
        ] {
            assert_eq!(
                decode_block(srgb, &blk),
                decode_block(lin, &blk),
                "{srgb:?}"
            );
        }
    }

    #[test]
    fn image_decode_crops_partial_blocks() {
        let blk = [0x00, 0xf8, 0x00, 0xf8, 0, 0, 0, 0];
        let img = decode_image(Format::Bc1Rgb, &blk, 2, 3, 1);
        assert_eq!(img.len(), 6);
        assert!(img.iter().all(|t| t[0] == 1.0f32.to_bits() && t[1] == 0));
    }
}
