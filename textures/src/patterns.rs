//! piglit's test textures, byte-exact, each with the sampler state piglit sets for it
//! (from piglit's `piglit-util-gl.c` and `shader_runner.c`), plus the glemu additions of
//! the scene format (`ramp`, `cube`, `layers`).
//!
//! All images are in GL orientation: row 0 is the bottom row (t = 0).

use crate::error::TexError;
use crate::format::Format;
use crate::sampler::{CompareFunc, Filter, MinFilter, SamplerState, Wrap};
use crate::texture::{Target, Texture};

/// A generated texture and the parameters piglit sets on it.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// The texture.
    pub texture: Texture,
    /// Its texture parameters.
    pub sampler: SamplerState,
}

const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
const WHITE: [f32; 4] = [1.0, 1.0, 1.0, 1.0];
/// piglit's `color_wheel`.
const COLOR_WHEEL: [[f32; 4]; 4] = [RED, GREEN, BLUE, WHITE];
/// The `layers` palette of the scene format.
const LAYER_PALETTE: [[f32; 4]; 8] = [
    RED,
    GREEN,
    BLUE,
    WHITE,
    [1.0, 1.0, 0.0, 1.0],
    [1.0, 0.0, 1.0, 1.0],
    [0.0, 1.0, 1.0, 1.0],
    [0.5, 0.5, 0.5, 1.0],
];

fn bits(c: [f32; 4]) -> [u32; 4] {
    c.map(f32::to_bits)
}

fn nearest_clamp() -> SamplerState {
    SamplerState::simple(Filter::Nearest, Wrap::ClampToEdge)
}

fn fill(
    tex: &mut Texture,
    level: u32,
    size: [u32; 3],
    f: impl Fn(u32, u32, u32) -> [f32; 4],
) -> Result<(), TexError> {
    let mut v = Vec::with_capacity(size[0] as usize * size[1] as usize * size[2] as usize);
    for z in 0..size[2] {
        for y in 0..size[1] {
            for x in 0..size[0] {
                v.push(bits(f(x, y, z)));
            }
        }
    }
    tex.write_texels(level, [0, 0, 0], size, &v)
}

/// `texture rgbw N (W, H) [FORMAT]`: `piglit_rgbw_texture(fmt, w, h, no mip, no alpha,
/// UNSIGNED_NORMALIZED)` — quadrants red (bottom-left), green (bottom-right), blue
/// (top-left), white (top-right); NEAREST, CLAMP_TO_EDGE.
pub fn rgbw(w: u32, h: u32, format: Option<Format>) -> Result<Pattern, TexError> {
    let format = format.unwrap_or(Format::RGBA8);
    if format.is_integer() || format.is_depth() {
        return Err(TexError::Unsupported(format!(
            "rgbw pattern in {}",
            format.name()
        )));
    }
    let mut texture = Texture::new(Target::T2D, format, [w, h, 1], 1)?;
    if format.is_compressed() {
        return Err(TexError::Unsupported(
            "rgbw pattern in compressed formats".into(),
        ));
    }
    fill(&mut texture, 0, [w, h, 1], |x, y, _| rgbw_color(x, y, w, h))?;
    Ok(Pattern {
        texture,
        sampler: nearest_clamp(),
    })
}

fn rgbw_color(x: u32, y: u32, w: u32, h: u32) -> [f32; 4] {
    if x < w / 2 && y < h / 2 {
        RED
    } else if y < h / 2 {
        GREEN
    } else if x < w / 2 {
        BLUE
    } else {
        WHITE
    }
}

/// `texture rgbw 1D N`: `piglit_rgbw_texture_1d` — 4 texels red, green, blue, white.
pub fn rgbw_1d() -> Result<Pattern, TexError> {
    let mut texture = Texture::new(Target::T1D, Format::RGBA8, [4, 1, 1], 1)?;
    fill(&mut texture, 0, [4, 1, 1], |x, _, _| {
        COLOR_WHEEL[x as usize % 4]
    })?;
    Ok(Pattern {
        texture,
        sampler: nearest_clamp(),
    })
}

/// `texture rgbw 3D N`: `piglit_rgbw_texture_3d` — 2×2×2 texels red, green, blue, white,
/// yellow, magenta, cyan, black.
pub fn rgbw_3d() -> Result<Pattern, TexError> {
    const IMG: [[f32; 4]; 8] = [
        RED,
        GREEN,
        BLUE,
        WHITE,
        [1.0, 1.0, 0.0, 1.0],
        [1.0, 0.0, 1.0, 1.0],
        [0.0, 1.0, 1.0, 1.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let mut texture = Texture::new(Target::T3D, Format::RGBA8, [2, 2, 2], 1)?;
    fill(&mut texture, 0, [2, 2, 2], |x, y, z| {
        IMG[(z * 4 + y * 2 + x) as usize % 8]
    })?;
    Ok(Pattern {
        texture,
        sampler: nearest_clamp(),
    })
}

/// `texture rgbw 2DArray N (W, H, L)` / `texture rgbw 1DArray N (W, L)`:
/// `piglit_array_texture` — layer k solid `color_wheel[k % 4]`.
pub fn rgbw_array(target: Target, w: u32, h: u32, layers: u32) -> Result<Pattern, TexError> {
    let size = match target {
        Target::Array1D => [w, layers, 1],
        Target::Array2D => [w, h, layers],
        _ => {
            return Err(TexError::Invalid(format!(
                "rgbw array pattern for {target:?}"
            )))
        }
    };
    let mut texture = Texture::new(target, Format::RGBA8, size, 1)?;
    let phys_h = if target == Target::Array1D { 1 } else { h };
    fill(&mut texture, 0, [w, phys_h, layers], |_, _, z| {
        COLOR_WHEEL[z as usize % 4]
    })?;
    Ok(Pattern {
        texture,
        sampler: nearest_clamp(),
    })
}

/// `texture quads N LEVEL (W, H) (SW, SH) (bl) (br) (tl) (tr)`: `piglit_quads_texture` —
/// a grid of SW×SH tiles whose colour depends on the parity of the tile row and column;
/// NEAREST, CLAMP_TO_BORDER with border (1, 0, 0, 1). Only `level` holds the image (the
/// texture's level 0 is `W << LEVEL` wide, as GL would need for the chain).
pub fn quads(
    level: u32,
    w: u32,
    h: u32,
    sq: [u32; 2],
    corners: [[f32; 4]; 4],
) -> Result<Pattern, TexError> {
    if level > 15 {
        return Err(TexError::Invalid(format!("level {level}")));
    }
    let [bl, br, tl, tr] = corners;
    let (sw, sh) = (sq[0].max(1), sq[1].max(1));
    let base = [
        w.checked_shl(level).unwrap_or(0),
        h.checked_shl(level).unwrap_or(0),
        1,
    ];
    let mut texture = Texture::new(Target::T2D, Format::RGBA8, base, level + 1)?;
    if texture.num_levels() <= level {
        return Err(TexError::Invalid(format!(
            "level {level} does not fit a {w}x{h} image"
        )));
    }
    fill(&mut texture, level, [w, h, 1], |x, y, _| {
        let (row, col) = (y / sh, x / sw);
        match (row & 1, col & 1) {
            (1, 1) => tr,
            (1, _) => tl,
            (_, 1) => br,
            _ => bl,
        }
    })?;
    let mut sampler = SamplerState::simple(Filter::Nearest, Wrap::ClampToBorder);
    sampler.border = bits(RED);
    Ok(Pattern { texture, sampler })
}

/// `texture checkerboard N LEVEL (W, H) (c0) (c1) [(SQW, SQH)]`:
/// `piglit_checkerboard_texture` — `black` (c0) at bottom-left and top-right tiles,
/// `white` (c1) at the others; tiles default to W/2 × H/2.
pub fn checkerboard(
    level: u32,
    w: u32,
    h: u32,
    black: [f32; 4],
    white: [f32; 4],
    sq: Option<[u32; 2]>,
) -> Result<Pattern, TexError> {
    let sq = sq.unwrap_or([w / 2, h / 2]);
    quads(level, w, h, sq, [black, white, white, black])
}

/// `texture miptree N`: `piglit_miptree_texture` — 8×8 with 4 levels solid red, green,
/// blue, white; NEAREST_MIPMAP_NEAREST / NEAREST, CLAMP_TO_EDGE.
pub fn miptree() -> Result<Pattern, TexError> {
    let mut texture = Texture::new(Target::T2D, Format::RGBA8, [8, 8, 1], 4)?;
    for l in 0..4u32 {
        let s = 8 >> l;
        fill(&mut texture, l, [s, s, 1], |_, _, _| {
            COLOR_WHEEL[l as usize]
        })?;
    }
    let mut sampler = nearest_clamp();
    sampler.min_filter = MinFilter {
        filter: Filter::Nearest,
        mipmap: Some(Filter::Nearest),
    };
    Ok(Pattern { texture, sampler })
}

/// The shadow patterns: `piglit_depth_texture(target, DEPTH_COMPONENT, ...)` — depth
/// x / (W-1) in every row and layer; NEAREST, CLAMP_TO_EDGE, compare mode on with
/// GREATER (as shader_runner sets). `size` is GL-style (W, H or layers, layers).
pub fn shadow(target: Target, size: [u32; 3]) -> Result<Pattern, TexError> {
    let (w, phys) = match target {
        Target::T1D => (size[0], [size[0], 1, 1]),
        Target::T2D | Target::Rect => (size[0], [size[0], size[1], 1]),
        Target::Array1D => (size[0], [size[0], 1, size[1]]),
        Target::Array2D => (size[0], [size[0], size[1], size[2]]),
        _ => return Err(TexError::Invalid(format!("shadow pattern for {target:?}"))),
    };
    let mut texture = Texture::new(target, Format::Depth24, size, 1)?;
    let denom = (w as f32 - 1.0).max(1.0);
    let mut v = Vec::new();
    for _ in 0..phys[2] {
        for _ in 0..phys[1] {
            for x in 0..phys[0] {
                v.push([(x as f32 / denom).to_bits(), 0, 0, 1.0f32.to_bits()]);
            }
        }
    }
    texture.write_texels(0, [0, 0, 0], phys, &v)?;
    let mut sampler = nearest_clamp();
    sampler.compare_mode = true;
    sampler.compare_func = CompareFunc::Greater;
    Ok(Pattern { texture, sampler })
}

/// `texture ramp N (W, H)`: RGBA8, texel (i, j) = (i/(W-1), j/(H-1), 0.5, 1); LINEAR,
/// REPEAT, no mipmaps.
pub fn ramp(w: u32, h: u32) -> Result<Pattern, TexError> {
    let mut texture = Texture::new(Target::T2D, Format::RGBA8, [w, h, 1], 1)?;
    let (dw, dh) = ((w as f32 - 1.0).max(1.0), (h as f32 - 1.0).max(1.0));
    fill(&mut texture, 0, [w, h, 1], |x, y, _| {
        [x as f32 / dw, y as f32 / dh, 0.5, 1.0]
    })?;
    Ok(Pattern {
        texture,
        sampler: SamplerState::simple(Filter::Linear, Wrap::Repeat),
    })
}

/// `texture cube N (S)`: S×S faces, solid per face (+X red, -X cyan, +Y green, -Y
/// magenta, +Z blue, -Z yellow); NEAREST, CLAMP_TO_EDGE.
pub fn cube(s: u32) -> Result<Pattern, TexError> {
    const FACES: [[f32; 4]; 6] = [
        RED,
        [0.0, 1.0, 1.0, 1.0],
        GREEN,
        [1.0, 0.0, 1.0, 1.0],
        BLUE,
        [1.0, 1.0, 0.0, 1.0],
    ];
    let mut texture = Texture::new(Target::Cube, Format::RGBA8, [s, s, 6], 1)?;
    fill(&mut texture, 0, [s, s, 6], |_, _, z| FACES[z as usize % 6])?;
    Ok(Pattern {
        texture,
        sampler: nearest_clamp(),
    })
}

/// `texture layers N TARGET (W, H, L)`: layer k solid in the palette red, green, blue,
/// white, yellow, magenta, cyan, grey, repeating. For `Array1D` H is ignored; for
/// `ArrayCube` L counts cubes (all six faces of cube k share colour k); for `T3D` L is the
/// depth and slice k gets colour k. NEAREST, CLAMP_TO_EDGE.
pub fn layers(target: Target, w: u32, h: u32, l: u32) -> Result<Pattern, TexError> {
    let (size, phys, per) = match target {
        Target::Array1D => ([w, l, 1], [w, 1, l], 1),
        Target::Array2D | Target::T3D => ([w, h, l], [w, h, l], 1),
        Target::ArrayCube => ([w, h, l.saturating_mul(6)], [w, h, l.saturating_mul(6)], 6),
        _ => return Err(TexError::Invalid(format!("layers pattern for {target:?}"))),
    };
    let mut texture = Texture::new(target, Format::RGBA8, size, 1)?;
    fill(&mut texture, 0, phys, |_, _, z| {
        LAYER_PALETTE[(z / per) as usize % 8]
    })?;
    Ok(Pattern {
        texture,
        sampler: nearest_clamp(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn px(t: &Texture, l: u32, x: u32, y: u32, z: u32) -> [u8; 4] {
        let lv = t.level(l).unwrap();
        let i = (((z * lv.height + y) * lv.width + x) * 4) as usize;
        let b = lv.bytes();
        [b[i], b[i + 1], b[i + 2], b[i + 3]]
    }

    #[test]
    fn rgbw_quadrants_bottom_row_first() {
        let p = rgbw(8, 4, None).unwrap();
        let t = &p.texture;
        assert_eq!(px(t, 0, 0, 0, 0), [255, 0, 0, 255]); // bottom-left red
        assert_eq!(px(t, 0, 7, 0, 0), [0, 255, 0, 255]); // bottom-right green
        assert_eq!(px(t, 0, 0, 3, 0), [0, 0, 255, 255]); // top-left blue
        assert_eq!(px(t, 0, 7, 3, 0), [255, 255, 255, 255]); // top-right white
        assert_eq!(px(t, 0, 3, 1, 0), [255, 0, 0, 255]);
        assert_eq!(px(t, 0, 4, 2, 0), [255, 255, 255, 255]);
        assert_eq!(p.sampler.wrap[0], Wrap::ClampToEdge);
        assert_eq!(p.sampler.min_filter.mipmap, None);
        // Odd sizes split at w/2 (integer division).
        let p = rgbw(3, 3, None).unwrap();
        assert_eq!(px(&p.texture, 0, 1, 0, 0), [0, 255, 0, 255]);
    }

    #[test]
    fn checkerboard_and_quads() {
        let p = checkerboard(0, 4, 4, [0.0, 0.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0], None).unwrap();
        let t = &p.texture;
        assert_eq!(px(t, 0, 0, 0, 0), [0, 0, 0, 255]);
        assert_eq!(px(t, 0, 2, 0, 0), [255, 255, 255, 255]);
        assert_eq!(px(t, 0, 0, 2, 0), [255, 255, 255, 255]);
        assert_eq!(px(t, 0, 3, 3, 0), [0, 0, 0, 255]);
        assert_eq!(p.sampler.wrap[1], Wrap::ClampToBorder);
        assert_eq!(p.sampler.border, bits(RED));
        let q = quads(1, 2, 2, [1, 1], [RED, GREEN, BLUE, WHITE]).unwrap();
        assert_eq!(q.texture.size(0), Some([4, 4, 0]));
        assert_eq!(px(&q.texture, 1, 1, 0, 0), [0, 255, 0, 255]);
        assert_eq!(px(&q.texture, 1, 0, 1, 0), [0, 0, 255, 255]);
    }

    #[test]
    fn miptree_levels() {
        let p = miptree().unwrap();
        assert_eq!(p.texture.num_levels(), 4);
        assert_eq!(px(&p.texture, 0, 0, 0, 0), [255, 0, 0, 255]);
        assert_eq!(px(&p.texture, 1, 3, 3, 0), [0, 255, 0, 255]);
        assert_eq!(px(&p.texture, 2, 1, 0, 0), [0, 0, 255, 255]);
        assert_eq!(px(&p.texture, 3, 0, 0, 0), [255, 255, 255, 255]);
    }

    #[test]
    fn shadow_gradient() {
        let p = shadow(Target::T2D, [5, 2, 1]).unwrap();
        let t = &p.texture;
        assert_eq!(t.texel(0, 0, 1, 0, 0).unwrap()[0], 0.0f32.to_bits());
        assert_eq!(t.texel(0, 4, 1, 0, 0).unwrap()[0], 1.0f32.to_bits());
        assert!((f32::from_bits(t.texel(0, 2, 0, 0, 0).unwrap()[0]) - 0.5).abs() < 1e-6);
        assert!(p.sampler.compare_mode);
        let a = shadow(Target::Array2D, [4, 4, 3]).unwrap();
        assert_eq!(a.texture.layers(), 3);
        assert_eq!(a.texture.texel(0, 3, 0, 2, 0).unwrap()[0], 1.0f32.to_bits());
    }

    #[test]
    fn ramp_cube_layers() {
        let r = ramp(3, 2).unwrap();
        assert_eq!(px(&r.texture, 0, 1, 1, 0), [128, 255, 128, 255]);
        let c = cube(2).unwrap();
        assert_eq!(px(&c.texture, 0, 0, 0, 1), [0, 255, 255, 255]);
        assert_eq!(px(&c.texture, 0, 1, 1, 5), [255, 255, 0, 255]);
        let l = layers(Target::Array2D, 2, 2, 9).unwrap();
        assert_eq!(px(&l.texture, 0, 0, 0, 7), [128, 128, 128, 255]);
        assert_eq!(px(&l.texture, 0, 0, 0, 8), [255, 0, 0, 255]);
        let ca = layers(Target::ArrayCube, 2, 2, 2).unwrap();
        assert_eq!(px(&ca.texture, 0, 0, 0, 6), [0, 255, 0, 255]);
        assert_eq!(px(&ca.texture, 0, 0, 0, 5), [255, 0, 0, 255]);
        let one = layers(Target::Array1D, 4, 99, 3).unwrap();
        assert_eq!(one.texture.layers(), 3);
        assert_eq!(px(&rgbw_3d().unwrap().texture, 0, 1, 1, 1), [0, 0, 0, 255]);
        assert_eq!(
            px(&rgbw_1d().unwrap().texture, 0, 2, 0, 0),
            [0, 0, 255, 255]
        );
    }
}
