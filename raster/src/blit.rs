//! Framebuffer blits (GL 4.6 section 18.3.1): each destination pixel centre maps back to
//! a source position, read with NEAREST or LINEAR filtering. The read happens in full
//! before anything is written ([`Blit::read`], then [`BlitTexels::write`]), because the
//! read and draw framebuffers may be the same one.

use crate::error::RasterError;
use crate::framebuffer::Framebuffer;
use crate::state::Rect;

/// How a scaled colour blit filters the source.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BlitFilter {
    /// The source pixel holding the mapped centre.
    Nearest,
    /// Bilinear between the four nearest source pixel centres, clamped at the edges as a
    /// texture with CLAMP_TO_EDGE filters (colour only).
    Linear,
}

/// One blit: which source rectangle maps onto which destination rectangle and what
/// is copied.
#[derive(Clone, Debug)]
pub struct Blit {
    /// Source rectangle `[x0, y0, x1, y1]` in the read framebuffer (may be inverted).
    pub src: [i32; 4],
    /// Destination rectangle `[x0, y0, x1, y1]` in the draw framebuffer (may be inverted).
    pub dst: [i32; 4],
    /// Destination pixels that may be written besides the draw framebuffer's bounds.
    pub scissor: Option<Rect>,
    /// How scaled colour is filtered (depth and stencil always take the nearest pixel).
    pub filter: BlitFilter,
    /// The read framebuffer's colour plane copied to every destination plane; `None`
    /// copies no colour.
    pub color: Option<usize>,
    /// Copy depth.
    pub depth: bool,
    /// Copy stencil.
    pub stencil: bool,
}

/// What a blit read for one destination pixel.
#[derive(Copy, Clone, Debug)]
struct BlitTexel {
    x: i32,
    y: i32,
    color: Option<[f32; 4]>,
    depth: Option<f32>,
    stencil: Option<u8>,
}

/// What a blit read, per destination pixel, waiting to be written.
#[derive(Clone, Debug, Default)]
pub struct BlitTexels {
    texels: Vec<BlitTexel>,
}

impl Blit {
    /// Reads the source values of every destination pixel inside a `draw_size` draw
    /// framebuffer and the scissor box. Only those pixels are visited, so huge or
    /// inverted rectangles cost what they cover.
    pub fn read(&self, read: &Framebuffer, draw_size: (u32, u32)) -> BlitTexels {
        let [sx0, sy0, sx1, sy1] = self.src.map(f64::from);
        let [dx0, dy0, dx1, dy1] = self.dst.map(f64::from);
        let (dw, dh) = (dx1 - dx0, dy1 - dy0);
        let mut out = BlitTexels::default();
        if dw == 0.0 || dh == 0.0 || sx1 == sx0 || sy1 == sy0 {
            return out;
        }
        let dst = self.dst;
        let (w, h) = (i64::from(draw_size.0), i64::from(draw_size.1));
        let mut bx = [
            i64::from(dst[0].min(dst[2])).max(0),
            i64::from(dst[0].max(dst[2])).min(w),
        ];
        let mut by = [
            i64::from(dst[1].min(dst[3])).max(0),
            i64::from(dst[1].max(dst[3])).min(h),
        ];
        if let Some(r) = self.scissor {
            let (x0, y0) = (i64::from(r.x), i64::from(r.y));
            bx = [bx[0].max(x0), bx[1].min(x0 + i64::from(r.width))];
            by = [by[0].max(y0), by[1].min(y0 + i64::from(r.height))];
        }
        let (rw, rh) = (read.width() as i64, read.height() as i64);
        let linear = self.filter == BlitFilter::Linear;
        for y in by[0]..by[1] {
            for x in bx[0]..bx[1] {
                // The source position of this pixel's centre.
                let u = sx0 + (x as f64 + 0.5 - dx0) * (sx1 - sx0) / dw;
                let v = sy0 + (y as f64 + 0.5 - dy0) * (sy1 - sy0) / dh;
                let (sx, sy) = (u.floor() as i64, v.floor() as i64);
                if sx < 0 || sy < 0 || sx >= rw || sy >= rh {
                    continue;
                }
                let (ux, uy) = (sx as u32, sy as u32);
                let color = self.color.and_then(|p| {
                    if !linear {
                        return read.read_pixel(p, ux, uy);
                    }
                    let (fu, fv) = (u - 0.5, v - 0.5);
                    let (i0, j0) = (fu.floor(), fv.floor());
                    let (a, b) = ((fu - i0) as f32, (fv - j0) as f32);
                    let at = |i: f64, j: f64| {
                        let i = (i as i64).clamp(0, rw - 1) as u32;
                        let j = (j as i64).clamp(0, rh - 1) as u32;
                        read.read_pixel(p, i, j)
                    };
                    let (t00, t10) = (at(i0, j0)?, at(i0 + 1.0, j0)?);
                    let (t01, t11) = (at(i0, j0 + 1.0)?, at(i0 + 1.0, j0 + 1.0)?);
                    Some(std::array::from_fn(|c| {
                        let top = t00[c] + (t10[c] - t00[c]) * a;
                        let bottom = t01[c] + (t11[c] - t01[c]) * a;
                        top + (bottom - top) * b
                    }))
                });
                let depth = self.depth.then(|| read.read_depth(ux, uy, 0)).flatten();
                let stencil = self.stencil.then(|| read.read_stencil(ux, uy, 0)).flatten();
                out.texels.push(BlitTexel {
                    x: x as i32,
                    y: y as i32,
                    color,
                    depth,
                    stencil,
                });
            }
        }
        out
    }
}

impl BlitTexels {
    /// Writes what was read into `draw`: colour into each of `planes` (plane, channel
    /// mask) that `draw` has, depth and stencil into its depth buffer.
    pub fn write(
        &self,
        draw: &mut Framebuffer,
        planes: &[(usize, [bool; 4])],
    ) -> Result<(), RasterError> {
        let n = draw.color_targets();
        for t in &self.texels {
            let r = Rect {
                x: t.x,
                y: t.y,
                width: 1,
                height: 1,
            };
            if let Some(c) = t.color {
                for &(rt, mask) in planes.iter().filter(|p| p.0 < n) {
                    draw.clear_color(rt, c, Some(r), mask, false)?;
                }
            }
            if let Some(d) = t.depth {
                draw.clear_depth(d, Some(r));
            }
            if let Some(s) = t.stencil {
                draw.clear_stencil(s, 0xff, Some(r));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ColorFormat, DepthFormat};

    fn fb(w: u32, h: u32) -> Framebuffer {
        Framebuffer::new(w, h, 1, &[ColorFormat::Rgba32F], DepthFormat::D32FS8).unwrap()
    }

    #[test]
    fn nearest_mirrors_and_linear_filters_between_centres() {
        let mut src = fb(2, 1);
        let one = |x| {
            Some(Rect {
                x,
                y: 0,
                width: 1,
                height: 1,
            })
        };
        src.clear_color(0, [1.0, 0.0, 0.0, 1.0], one(0), [true; 4], false)
            .unwrap();
        src.clear_color(0, [0.0, 0.0, 1.0, 1.0], one(1), [true; 4], false)
            .unwrap();
        src.clear_depth(0.25, one(1));
        let mut blit = Blit {
            src: [0, 0, 2, 1],
            dst: [4, 0, 0, 1],
            scissor: None,
            filter: BlitFilter::Nearest,
            color: Some(0),
            depth: true,
            stencil: false,
        };
        let mut dst = fb(4, 1);
        blit.read(&src, (4, 1))
            .write(&mut dst, &[(0, [true; 4])])
            .unwrap();
        // Inverted x: the right source pixel lands on the left.
        assert_eq!(dst.read_pixel(0, 0, 0), Some([0.0, 0.0, 1.0, 1.0]));
        assert_eq!(dst.read_pixel(0, 3, 0), Some([1.0, 0.0, 0.0, 1.0]));
        assert_eq!(dst.read_depth(1, 0, 0), Some(0.25));
        // Linear: destination pixel 1's centre maps to source x = 0.75, a quarter of the
        // way from the first centre to the second.
        blit.dst = [0, 0, 4, 1];
        blit.filter = BlitFilter::Linear;
        blit.depth = false;
        blit.read(&src, (4, 1))
            .write(&mut dst, &[(0, [true; 4])])
            .unwrap();
        assert_eq!(dst.read_pixel(0, 1, 0), Some([0.75, 0.0, 0.25, 1.0]));
        assert_eq!(
            dst.read_pixel(0, 0, 0),
            Some([1.0, 0.0, 0.0, 1.0]),
            "clamped"
        );
    }

    #[test]
    fn only_covered_pixels_inside_the_scissor_are_visited() {
        let src = fb(1, 1);
        let blit = Blit {
            src: [0, 0, 1, 1],
            dst: [-(1 << 30), -(1 << 30), 1 << 30, 1 << 30],
            scissor: Some(Rect {
                x: 1,
                y: 1,
                width: 2,
                height: 1,
            }),
            filter: BlitFilter::Nearest,
            color: Some(0),
            depth: false,
            stencil: false,
        };
        assert_eq!(blit.read(&src, (4, 4)).texels.len(), 2);
    }
}
