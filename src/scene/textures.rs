//! `texture ...` commands: piglit's test patterns (as scene-format.md defines them, row 0
//! at the bottom) uploaded through the public Context texture calls.

use super::command::TextureCmd;
use super::run::Runner;
use crate::{caps, gl, Error};
use glemu_textures::Format;

type Texel = [f32; 4];

const RED: Texel = [1.0, 0.0, 0.0, 1.0];
const GREEN: Texel = [0.0, 1.0, 0.0, 1.0];
const BLUE: Texel = [0.0, 0.0, 1.0, 1.0];
const WHITE: Texel = [1.0, 1.0, 1.0, 1.0];
const PALETTE: [Texel; 8] = [
    RED,
    GREEN,
    BLUE,
    WHITE,
    [1.0, 1.0, 0.0, 1.0],
    [1.0, 0.0, 1.0, 1.0],
    [0.0, 1.0, 1.0, 1.0],
    [0.5, 0.5, 0.5, 1.0],
];

/// piglit rgbw: quadrants red (bottom-left), green (bottom-right), blue (top-left), white.
pub(crate) fn rgbw(w: u32, h: u32) -> Vec<Texel> {
    let mut out = Vec::with_capacity((w * h) as usize);
    for y in 0..h {
        for x in 0..w {
            let right = x >= w / 2 && w > 1;
            let top = y >= h / 2 && h > 1;
            out.push(match (top, right) {
                (false, false) => RED,
                (false, true) => GREEN,
                (true, false) => BLUE,
                (true, true) => WHITE,
            });
        }
    }
    out
}

/// Checkerboard of `sq`-sized squares, `c0` at the bottom-left.
pub(crate) fn checkerboard(w: u32, h: u32, c0: Texel, c1: Texel, sq: (u32, u32)) -> Vec<Texel> {
    let (sw, sh) = (sq.0.max(1), sq.1.max(1));
    (0..h)
        .flat_map(|y| {
            (0..w).map(move |x| {
                if ((x / sw) + (y / sh)) % 2 == 0 {
                    c0
                } else {
                    c1
                }
            })
        })
        .collect()
}

/// piglit quads: tiles alternate bl, br in even rows (from the bottom), tl, tr in odd.
pub(crate) fn quads(w: u32, h: u32, sw: u32, sh: u32, c: [Texel; 4]) -> Vec<Texel> {
    let (sw, sh) = (sw.max(1), sh.max(1));
    (0..h)
        .flat_map(|y| {
            (0..w).map(move |x| {
                let odd_row = (y / sh) % 2 == 1;
                let odd_col = (x / sw) % 2 == 1;
                c[usize::from(odd_row) * 2 + usize::from(odd_col)]
            })
        })
        .collect()
}

impl Runner {
    fn params(&mut self, target: u32, p: &[(u32, u32)]) -> Result<(), Error> {
        for &(k, v) in p {
            self.ctx.tex_parameter_i(target, k, v as i32)?;
        }
        Ok(())
    }

    fn new_texture(&mut self, unit: u32, target: u32) -> Result<(), Error> {
        self.ctx.active_texture(unit)?;
        let id = self.ctx.gen_textures(1)?[0];
        self.ctx.bind_texture(target, id)?;
        self.last_texture = Some((target, id));
        Ok(())
    }

    fn upload(
        &mut self,
        target: u32,
        level: u32,
        fmt: Format,
        size: [u32; 3],
        t: &[Texel],
    ) -> Result<(), Error> {
        self.ctx
            // The pattern's floats passed as their bits in place (no second copy: a 2^26-texel
            // pattern is 1 GiB).
            .tex_image_texels(target, level, fmt, size, Some(bytemuck::cast_slice(t)))
    }

    pub(crate) fn texture(&mut self, unit: u32, cmd: &TextureCmd) -> Result<(), Error> {
        use TextureCmd as T;
        let (w, h, d) = match cmd {
            T::Rgbw { w, h, .. } | T::Ramp { w, h } => (*w, *h, 1),
            T::Checkerboard { w, h, .. } | T::Quads { w, h, .. } => (*w, *h, 1),
            T::Shadow { w, h, layers, .. } | T::Layers { w, h, layers, .. } => (*w, *h, *layers),
            T::Cube { size } => (*size, *size, 6),
            _ => (1, 1, 1),
        };
        // Patterns are generated in memory first: refuse sizes GL would reject anyway.
        let (side, layers) = (caps::MAX_TEXTURE_SIZE, caps::MAX_ARRAY_TEXTURE_LAYERS);
        if w == 0
            || h == 0
            || d == 0
            || w > side
            || h > side
            || d > layers
            || u64::from(w) * u64::from(h) * u64::from(d) > 1 << 26
        {
            return Err(Error::invalid_value(format!(
                "texture size {w}x{h}x{d}: sides 1..={side}, layers 1..={layers}, at most 2^26 \
                 texels for a generated pattern"
            )));
        }
        let nearest_edge = [
            (gl::TEXTURE_MIN_FILTER, gl::NEAREST),
            (gl::TEXTURE_MAG_FILTER, gl::NEAREST),
            (gl::TEXTURE_WRAP_S, gl::CLAMP_TO_EDGE),
            (gl::TEXTURE_WRAP_T, gl::CLAMP_TO_EDGE),
            (gl::TEXTURE_WRAP_R, gl::CLAMP_TO_EDGE),
        ];
        let nearest_border = [
            (gl::TEXTURE_MIN_FILTER, gl::NEAREST),
            (gl::TEXTURE_MAG_FILTER, gl::NEAREST),
            (gl::TEXTURE_WRAP_S, gl::CLAMP_TO_BORDER),
            (gl::TEXTURE_WRAP_T, gl::CLAMP_TO_BORDER),
        ];
        match cmd {
            T::Rgbw { w, h, format } => {
                let fmt = match format {
                    Some(f) => Format::from_gl(*f)
                        .ok_or_else(|| Error::invalid_enum("texture format", *f))?,
                    None => Format::RGBA8,
                };
                self.new_texture(unit, gl::TEXTURE_2D)?;
                self.upload(gl::TEXTURE_2D, 0, fmt, [*w, *h, 1], &rgbw(*w, *h))?;
                self.params(gl::TEXTURE_2D, &nearest_edge)?;
            }
            T::Rgbw1D => {
                self.new_texture(unit, gl::TEXTURE_1D)?;
                self.upload(
                    gl::TEXTURE_1D,
                    0,
                    Format::RGBA8,
                    [4, 1, 1],
                    &[RED, GREEN, BLUE, WHITE],
                )?;
                self.params(gl::TEXTURE_1D, &nearest_edge)?;
            }
            T::Rgbw3D => {
                self.new_texture(unit, gl::TEXTURE_3D)?;
                let t = [
                    RED,
                    GREEN,
                    BLUE,
                    WHITE,
                    [1.0, 1.0, 0.0, 1.0],
                    [1.0, 0.0, 1.0, 1.0],
                    [0.0, 1.0, 1.0, 1.0],
                    [0.0, 0.0, 0.0, 1.0],
                ];
                self.upload(gl::TEXTURE_3D, 0, Format::RGBA8, [2, 2, 2], &t)?;
                self.params(gl::TEXTURE_3D, &nearest_edge)?;
            }
            T::Checkerboard {
                level,
                w,
                h,
                c0,
                c1,
                square,
            } => {
                self.new_texture(unit, gl::TEXTURE_2D)?;
                let sq = square.unwrap_or((w / 2, h / 2));
                let t = checkerboard(*w, *h, *c0, *c1, sq);
                self.level_upload(gl::TEXTURE_2D, *level, [*w, *h, 1], &t)?;
                self.params(gl::TEXTURE_2D, &nearest_border)?;
                self.ctx
                    .tex_parameter_fv(gl::TEXTURE_2D, gl::TEXTURE_BORDER_COLOR, &RED)?;
            }
            T::Quads {
                level,
                w,
                h,
                sw,
                sh,
                colors,
            } => {
                self.new_texture(unit, gl::TEXTURE_2D)?;
                let t = quads(*w, *h, *sw, *sh, *colors);
                self.level_upload(gl::TEXTURE_2D, *level, [*w, *h, 1], &t)?;
                self.params(gl::TEXTURE_2D, &nearest_border)?;
                self.ctx
                    .tex_parameter_fv(gl::TEXTURE_2D, gl::TEXTURE_BORDER_COLOR, &RED)?;
            }
            T::Miptree => {
                self.new_texture(unit, gl::TEXTURE_2D)?;
                for (level, c) in [RED, GREEN, BLUE, WHITE].iter().enumerate() {
                    let s = 8 >> level;
                    self.upload(
                        gl::TEXTURE_2D,
                        level as u32,
                        Format::RGBA8,
                        [s, s, 1],
                        &vec![*c; (s * s) as usize],
                    )?;
                }
                self.params(
                    gl::TEXTURE_2D,
                    &[
                        (gl::TEXTURE_MIN_FILTER, gl::NEAREST_MIPMAP_NEAREST),
                        (gl::TEXTURE_MAG_FILTER, gl::NEAREST),
                        (gl::TEXTURE_WRAP_S, gl::CLAMP_TO_EDGE),
                        (gl::TEXTURE_WRAP_T, gl::CLAMP_TO_EDGE),
                    ],
                )?;
            }
            T::Shadow {
                target,
                w,
                h,
                layers,
            } => {
                self.new_texture(unit, *target)?;
                let mut t = Vec::new();
                for _ in 0..*layers {
                    for _ in 0..*h {
                        for x in 0..*w {
                            let d = if *w > 1 {
                                x as f32 / (*w - 1) as f32
                            } else {
                                0.0
                            };
                            t.push([d, 0.0, 0.0, 1.0]);
                        }
                    }
                }
                let size = if *target == gl::TEXTURE_2D_ARRAY {
                    [*w, *h, *layers]
                } else {
                    [*w, *h, 1]
                };
                self.upload(*target, 0, Format::Depth24, size, &t)?;
                self.params(
                    *target,
                    &[
                        (gl::TEXTURE_MIN_FILTER, gl::NEAREST),
                        (gl::TEXTURE_MAG_FILTER, gl::NEAREST),
                        (gl::TEXTURE_WRAP_S, gl::CLAMP_TO_EDGE),
                        (gl::TEXTURE_WRAP_T, gl::CLAMP_TO_EDGE),
                        (gl::TEXTURE_COMPARE_MODE, gl::COMPARE_REF_TO_TEXTURE),
                        (gl::TEXTURE_COMPARE_FUNC, gl::GREATER),
                        (gl::DEPTH_TEXTURE_MODE, gl::INTENSITY),
                    ],
                )?;
            }
            T::Ramp { w, h } => {
                self.new_texture(unit, gl::TEXTURE_2D)?;
                let (dw, dh) = ((*w).max(2) - 1, (*h).max(2) - 1);
                let t: Vec<Texel> = (0..*h)
                    .flat_map(|j| {
                        (0..*w).map(move |i| [i as f32 / dw as f32, j as f32 / dh as f32, 0.5, 1.0])
                    })
                    .collect();
                self.upload(gl::TEXTURE_2D, 0, Format::RGBA8, [*w, *h, 1], &t)?;
                self.params(
                    gl::TEXTURE_2D,
                    &[
                        (gl::TEXTURE_MIN_FILTER, gl::LINEAR),
                        (gl::TEXTURE_MAG_FILTER, gl::LINEAR),
                        (gl::TEXTURE_WRAP_S, gl::REPEAT),
                        (gl::TEXTURE_WRAP_T, gl::REPEAT),
                    ],
                )?;
            }
            T::Cube { size } => {
                self.new_texture(unit, gl::TEXTURE_CUBE_MAP)?;
                let colors = [
                    RED,
                    [0.0, 1.0, 1.0, 1.0],
                    GREEN,
                    [1.0, 0.0, 1.0, 1.0],
                    BLUE,
                    [1.0, 1.0, 0.0, 1.0],
                ];
                for (f, c) in colors.iter().enumerate() {
                    let t = vec![*c; (size * size) as usize];
                    self.upload(
                        gl::TEXTURE_CUBE_MAP_POSITIVE_X + f as u32,
                        0,
                        Format::RGBA8,
                        [*size, *size, 1],
                        &t,
                    )?;
                }
                self.params(gl::TEXTURE_CUBE_MAP, &nearest_edge)?;
            }
            T::Layers {
                target,
                w,
                h,
                layers,
            } => {
                self.new_texture(unit, *target)?;
                let (h, n) = match *target {
                    gl::TEXTURE_1D_ARRAY => (1, *layers),
                    _ => (*h, *layers),
                };
                let mut t = Vec::new();
                for k in 0..n {
                    let c = PALETTE[k as usize % PALETTE.len()];
                    t.resize(t.len() + (w * h) as usize, c);
                }
                let size = if *target == gl::TEXTURE_1D_ARRAY {
                    [*w, n, 1]
                } else {
                    [*w, h, n]
                };
                self.upload(*target, 0, Format::RGBA8, size, &t)?;
                self.params(*target, &nearest_edge)?;
            }
            T::Png { file, mipmap } => {
                let path = self.dir().join(file);
                let img = glemu_textures::load::open_rgba8(&path, crate::caps::MAX_TEXTURE_SIZE)
                    .map_err(|e| Error::invalid_operation(format!("cannot read {e}")))?;
                let (w, h) = img.dimensions();
                // PNG rows are top first; GL rows bottom first.
                let mut t = Vec::new();
                t.try_reserve_exact(w as usize * h as usize)
                    .map_err(|_| Error::out_of_memory(format!("a {w}x{h} image texture")))?;
                for y in (0..h).rev() {
                    for x in 0..w {
                        let p = img.get_pixel(x, y).0;
                        t.push(p.map(|c| f32::from(c) / 255.0));
                    }
                }
                self.new_texture(unit, gl::TEXTURE_2D)?;
                self.upload(gl::TEXTURE_2D, 0, Format::RGBA8, [w, h, 1], &t)?;
                if *mipmap {
                    self.ctx.generate_mipmap(gl::TEXTURE_2D)?;
                    self.params(
                        gl::TEXTURE_2D,
                        &[
                            (gl::TEXTURE_MIN_FILTER, gl::LINEAR_MIPMAP_LINEAR),
                            (gl::TEXTURE_MAG_FILTER, gl::LINEAR),
                        ],
                    )?;
                } else {
                    self.params(
                        gl::TEXTURE_2D,
                        &[
                            (gl::TEXTURE_MIN_FILTER, gl::NEAREST),
                            (gl::TEXTURE_MAG_FILTER, gl::NEAREST),
                        ],
                    )?;
                }
            }
        }
        Ok(())
    }

    /// Uploads `t` as level `level` (LEVEL > 0 sets BASE_LEVEL, as piglit does); the
    /// levels below are allocated with the sizes the chain implies.
    fn level_upload(
        &mut self,
        target: u32,
        level: u32,
        size: [u32; 3],
        t: &[Texel],
    ) -> Result<(), Error> {
        if level == 0 {
            return self.upload(target, 0, Format::RGBA8, size, t);
        }
        let grow = |s: u32| {
            s.checked_shl(level)
                .filter(|b| b >> level == s)
                .ok_or_else(|| Error::invalid_value(format!("level {level} of a {s}-texel side")))
        };
        let base = [grow(size[0])?, grow(size[1])?, 1];
        self.ctx
            .tex_image_texels(target, 0, Format::RGBA8, base, None)?;
        self.upload(target, level, Format::RGBA8, size, t)?;
        self.ctx
            .tex_parameter_i(target, gl::TEXTURE_BASE_LEVEL, level as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgbw_quadrants_bottom_up() {
        let t = rgbw(4, 4);
        assert_eq!(t[0], RED);
        assert_eq!(t[3], GREEN);
        assert_eq!(t[12], BLUE);
        assert_eq!(t[15], WHITE);
    }

    #[test]
    fn quads_alternate_by_row() {
        let c = [RED, GREEN, BLUE, WHITE];
        let t = quads(4, 4, 2, 2, c);
        assert_eq!((t[0], t[2], t[8], t[10]), (RED, GREEN, BLUE, WHITE));
        let cb = checkerboard(4, 4, RED, BLUE, (2, 2));
        assert_eq!((cb[0], cb[2], cb[8], cb[10]), (RED, BLUE, BLUE, RED));
    }
}
