//! The on-frame overlay (fps and keys), drawn by glemu itself over the demo's frame.
//!
//! Text is the public-domain 8×8 font of the `font8x8` crate, drawn as one-pixel points
//! (one per lit font pixel, with a dark shadow one pixel down-right) by the ARB programs
//! in `src/overlay/`. Points ignore the polygon mode and the font needs no texture, so the
//! overlay touches little state; what it touches it reads first and puts back, so a demo
//! keeps the state it set up once.

use crate::Result;
use glemu::{gl, Context};

const VERTEX: &str = include_str!("overlay/overlay.arbvp");
const FRAGMENT: &str = include_str!("overlay/overlay.arbfp");

/// Pixels between the frame's edge and the text.
pub const MARGIN: u32 = 4;
/// Height of a text line in pixels (8 of glyph, 2 of spacing).
pub const LINE: u32 = 10;
/// Colour of the text.
pub const TEXT: [f32; 4] = [1.0, 1.0, 0.85, 1.0];
/// Colour of the shadow under it.
pub const SHADOW: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

/// The points for `lines` (top line first) on a `height`-pixel frame: `(x, y, r, g, b, a)`
/// per point, window coordinates at pixel centres, shadows first so the text covers them.
pub fn points(lines: &[String], height: u32) -> Vec<[f32; 6]> {
    let mut text = Vec::new();
    for (row, line) in lines.iter().enumerate() {
        let top = height as f32 - (MARGIN + LINE * row as u32) as f32;
        for (col, ch) in line.chars().enumerate() {
            let glyph = font8x8::legacy::BASIC_LEGACY
                .get(ch as usize)
                .copied()
                .unwrap_or(font8x8::legacy::BASIC_LEGACY[usize::from(b'?')]);
            for (gy, bits) in glyph.iter().enumerate() {
                for gx in 0..8 {
                    // bit 0 is the glyph's leftmost pixel
                    if bits & (1 << gx) != 0 {
                        let x = (MARGIN + 8 * col as u32 + gx) as f32 + 0.5;
                        let y = top - gy as f32 - 0.5;
                        text.push((x, y));
                    }
                }
            }
        }
    }
    let at = |(x, y): (f32, f32), c: [f32; 4]| [x, y, c[0], c[1], c[2], c[3]];
    let shadows = text.iter().map(|&(x, y)| at((x + 1.0, y - 1.0), SHADOW));
    let lit = text.iter().map(|&p| at(p, TEXT));
    shadows.chain(lit).collect()
}

/// Program, array and buffer objects of the overlay, made on its first draw.
#[derive(Debug, Default)]
pub struct Overlay {
    objects: Option<[u32; 4]>,
}

const PROGRAM_TARGETS: [u32; 5] = [
    gl::VERTEX_PROGRAM_ARB,
    gl::TESS_CONTROL_PROGRAM_NV,
    gl::TESS_EVALUATION_PROGRAM_NV,
    gl::GEOMETRY_PROGRAM_NV,
    gl::FRAGMENT_PROGRAM_ARB,
];

/// Capabilities the overlay turns off while it draws (and back on after).
const CAPS_OFF: [u32; 10] = [
    gl::DEPTH_TEST,
    gl::STENCIL_TEST,
    gl::BLEND,
    gl::CULL_FACE,
    gl::SCISSOR_TEST,
    gl::RASTERIZER_DISCARD,
    gl::PROGRAM_POINT_SIZE,
    gl::SAMPLE_ALPHA_TO_COVERAGE,
    gl::COLOR_LOGIC_OP,
    gl::SAMPLE_SHADING,
];

/// What the overlay changes, as the demo left it.
struct Saved {
    programs: [(bool, u32); 5],
    caps: [bool; 10],
    vao: u32,
    array_buffer: u32,
    draw_fbo: u32,
    viewport: Vec<i32>,
    color_mask: Vec<i32>,
    point_size: f32,
}

fn one(v: Vec<i32>) -> u32 {
    v.first().copied().unwrap_or(0) as u32
}

impl Saved {
    fn read(ctx: &Context) -> Result<Saved> {
        let mut programs = [(false, 0); 5];
        for (p, &t) in programs.iter_mut().zip(&PROGRAM_TARGETS) {
            let bound = ctx.get_program_iv(t, gl::PROGRAM_BINDING_ARB)?;
            *p = (ctx.is_enabled(t)?, bound as u32);
        }
        let caps = CAPS_OFF.map(|c| ctx.is_enabled(c).unwrap_or(false));
        Ok(Saved {
            programs,
            caps,
            vao: one(ctx.get_integer_v(gl::VERTEX_ARRAY_BINDING)?),
            array_buffer: one(ctx.get_integer_v(gl::ARRAY_BUFFER_BINDING)?),
            draw_fbo: one(ctx.get_integer_v(gl::DRAW_FRAMEBUFFER_BINDING)?),
            viewport: ctx.get_integer_v(gl::VIEWPORT)?,
            color_mask: ctx.get_integer_v(gl::COLOR_WRITEMASK)?,
            point_size: ctx
                .get_float_v(gl::POINT_SIZE)?
                .first()
                .copied()
                .unwrap_or(1.0),
        })
    }

    fn restore(&self, ctx: &mut Context) -> Result<()> {
        for (&(on, id), &t) in self.programs.iter().zip(&PROGRAM_TARGETS) {
            ctx.bind_program(t, id)?;
            if on {
                ctx.enable(t)?;
            } else {
                ctx.disable(t)?;
            }
        }
        for (&on, &c) in self.caps.iter().zip(&CAPS_OFF) {
            if on {
                ctx.enable(c)?;
            }
        }
        ctx.bind_vertex_array(self.vao)?;
        ctx.bind_buffer(gl::ARRAY_BUFFER, self.array_buffer)?;
        ctx.bind_framebuffer(gl::DRAW_FRAMEBUFFER, self.draw_fbo)?;
        if let [x, y, w, h] = self.viewport[..] {
            ctx.viewport(x, y, w, h)?;
        }
        if let [r, g, b, a] = self.color_mask[..] {
            ctx.color_mask([r != 0, g != 0, b != 0, a != 0])?;
        }
        ctx.point_size(self.point_size)?;
        Ok(())
    }
}

impl Overlay {
    /// Draws `lines` (top line first) in the top-left corner of the default framebuffer.
    pub fn draw(&mut self, ctx: &mut Context, lines: &[String]) -> Result<()> {
        let saved = Saved::read(ctx)?;
        let drawn = self.draw_text(ctx, lines);
        // Put the demo's state back even when drawing failed.
        let restored = saved.restore(ctx);
        drawn.and(restored)
    }

    fn objects(&mut self, ctx: &mut Context) -> Result<[u32; 4]> {
        if let Some(o) = self.objects {
            return Ok(o);
        }
        let vp = ctx.create_program()?;
        ctx.bind_program(gl::VERTEX_PROGRAM_ARB, vp)?;
        ctx.program_string(gl::VERTEX_PROGRAM_ARB, VERTEX)?;
        let fp = ctx.create_program()?;
        ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, fp)?;
        ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, FRAGMENT)?;
        let vao = ctx.create_vertex_array()?;
        let buf = ctx.create_buffer()?;
        ctx.bind_vertex_array(vao)?;
        ctx.bind_buffer(gl::ARRAY_BUFFER, buf)?;
        ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 24, 0)?;
        ctx.vertex_attrib_pointer(1, 4, gl::FLOAT, false, 24, 8)?;
        ctx.enable_vertex_attrib_array(0)?;
        ctx.enable_vertex_attrib_array(1)?;
        let o = [vp, fp, vao, buf];
        self.objects = Some(o);
        Ok(o)
    }

    fn draw_text(&mut self, ctx: &mut Context, lines: &[String]) -> Result<()> {
        let [vp, fp, vao, buf] = self.objects(ctx)?;
        let (w, h) = ctx.size();
        let pts = points(lines, h);
        if pts.is_empty() {
            return Ok(());
        }
        for t in PROGRAM_TARGETS {
            ctx.disable(t)?;
        }
        ctx.bind_program(gl::VERTEX_PROGRAM_ARB, vp)?;
        ctx.enable(gl::VERTEX_PROGRAM_ARB)?;
        ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, fp)?;
        ctx.enable(gl::FRAGMENT_PROGRAM_ARB)?;
        let scale = [2.0 / w.max(1) as f32, 2.0 / h.max(1) as f32, 0.0, 0.0];
        ctx.program_local_parameter_4f(gl::VERTEX_PROGRAM_ARB, 0, scale)?;
        for c in CAPS_OFF {
            if ctx.is_enabled(c).unwrap_or(false) {
                ctx.disable(c)?;
            }
        }
        ctx.bind_framebuffer(gl::DRAW_FRAMEBUFFER, 0)?;
        ctx.viewport(0, 0, w as i32, h as i32)?;
        ctx.color_mask([true; 4])?;
        ctx.point_size(1.0)?;
        ctx.bind_vertex_array(vao)?;
        ctx.bind_buffer(gl::ARRAY_BUFFER, buf)?;
        let flat: Vec<f32> = pts.iter().flatten().copied().collect();
        ctx.buffer_data(gl::ARRAY_BUFFER, &flat, gl::STREAM_DRAW)?;
        let n = i32::try_from(pts.len()).unwrap_or(i32::MAX);
        ctx.draw_arrays(gl::POINTS, 0, n)?;
        Ok(())
    }
}

/// The overlay's lines for a demo: its name and fps (or the headless frame), its status,
/// and its keys.
pub fn lines(name: &str, rate: &str, status: &str, keys: &str) -> Vec<String> {
    let mut v = vec![format!("{name}  {rate}")];
    if !status.is_empty() {
        v.push(status.to_string());
    }
    v.push(format!("keys: {keys}  o overlay  Esc quit"));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::upload::program;

    /// Text lands in the top-left corner, exactly the font's pixels, on top of whatever
    /// the frame had; the demo's state (its programs, depth test, blending) survives.
    #[test]
    fn text_pixels_are_the_fonts_and_state_is_restored() {
        let (w, h) = (64u32, 24u32);
        let mut ctx = Context::new(w, h).unwrap();
        let vp = program(
            &mut ctx,
            gl::VERTEX_PROGRAM_ARB,
            "!!ARBvp1.0\nMOV result.position, vertex.position;\nEND\n",
        )
        .unwrap();
        ctx.enable(gl::DEPTH_TEST).unwrap();
        ctx.enable(gl::BLEND).unwrap();
        ctx.clear_color([0.0, 0.0, 1.0, 1.0]).unwrap();
        ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
        Overlay::default()
            .draw(&mut ctx, &["H".to_string()])
            .unwrap();
        let glyph = font8x8::legacy::BASIC_LEGACY[usize::from(b'H')];
        let img = ctx.read_image().unwrap();
        for (gy, bits) in glyph.iter().enumerate() {
            for gx in 0..8u32 {
                let (x, row) = (MARGIN + gx, MARGIN + gy as u32); // row 0 = top
                let p = img.get_pixel(x, row).0;
                if bits & (1 << gx) != 0 {
                    assert_eq!(p, [255, 255, 217, 255], "text at ({x}, {row})");
                } else {
                    assert_ne!(p, [255, 255, 217, 255], "no text at ({x}, {row})");
                }
            }
        }
        assert_eq!(
            img.get_pixel(40, 20).0,
            [0, 0, 255, 255],
            "away from the text"
        );
        assert!(ctx.is_enabled(gl::DEPTH_TEST).unwrap());
        assert!(ctx.is_enabled(gl::BLEND).unwrap());
        assert!(ctx.is_enabled(gl::VERTEX_PROGRAM_ARB).unwrap());
        assert!(!ctx.is_enabled(gl::FRAGMENT_PROGRAM_ARB).unwrap());
        let bound = ctx
            .get_program_iv(gl::VERTEX_PROGRAM_ARB, gl::PROGRAM_BINDING_ARB)
            .unwrap();
        assert_eq!(bound as u32, vp);
    }

    #[test]
    fn shadows_come_first_and_unknown_characters_draw_a_question_mark() {
        let p = points(&["\u{e9}".to_string()], 20);
        let q = points(&["?".to_string()], 20);
        assert_eq!(p, q);
        let half = p.len() / 2;
        assert!(p[..half].iter().all(|v| v[2..] == SHADOW));
        assert!(p[half..].iter().all(|v| v[2..] == TEXT));
    }
}
