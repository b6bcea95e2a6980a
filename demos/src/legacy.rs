//! The oldest dialects: a `!!VP1.0` vertex program whose `c[0..3]` track the
//! modelview-projection matrix (`TrackMatrixNV`) and a `!!FP1.0` fragment program that
//! paints a plasma from four travelling sine waves, animated through a `DECLARE`d
//! parameter set with `ProgramNamedParameter4fNV`.

use crate::demo::Demo;
use crate::upload::{array_buffer, program};
use crate::Result;
use glam::{Mat4, Vec3};
use glemu::{gl, Context};

/// `MODELVIEW_PROJECTION_NV` and `IDENTITY_NV` for `track_matrix_nv`.
const MODELVIEW_PROJECTION_NV: u32 = 0x8629;
const IDENTITY_NV: u32 = 0x862A;

const VERTEX: &str = include_str!("legacy/vertex.vp");

/// The sum `s` of sin(10x + t), sin(10y + 1.3t), sin(7(x + y) + 0.7t) and
/// sin(12 |(x, y) - 0.5| - 2t) picks the colour 0.5 + 0.5 sin(1.5 s + (0, 2.094, 4.189));
/// [`plasma`] is the same formula on the CPU. An FP1 instruction may read only one
/// parameter or constant vector, hence the `MOV` of `speed` first.
const FRAGMENT: &str = include_str!("legacy/fragment.fp");

/// The plasma colour (rgb) at texture coordinate (`x`, `y`) and time `t`.
pub fn plasma(x: f32, y: f32, t: f32) -> [f32; 3] {
    let r = ((x - 0.5).powi(2) + (y - 0.5).powi(2)).sqrt();
    let s = (10.0 * x + t).sin()
        + (10.0 * y + 1.3 * t).sin()
        + (7.0 * (x + y) + 0.7 * t).sin()
        + (12.0 * r - 2.0 * t).sin();
    [0.0f32, 2.094, 4.189].map(|p| 0.5 + 0.5 * (1.5 * s + p).sin())
}

/// The VP1/FP1 plasma demo.
#[derive(Debug)]
pub struct Legacy {
    /// Turn and tilt the quad; without it the quad fills the framebuffer exactly.
    pub spin: bool,
}

impl Default for Legacy {
    fn default() -> Self {
        Legacy { spin: true }
    }
}

impl Demo for Legacy {
    fn setup(&mut self, ctx: &mut Context) -> Result<()> {
        program(ctx, gl::VERTEX_PROGRAM_ARB, VERTEX)?;
        program(ctx, gl::FRAGMENT_PROGRAM_NV, FRAGMENT)?;
        ctx.track_matrix_nv(
            gl::VERTEX_PROGRAM_ARB,
            0,
            MODELVIEW_PROJECTION_NV,
            IDENTITY_NV,
        )?;
        #[rustfmt::skip]
        let quad: [f32; 24] = [
            -1.0, -1.0, 0.0, 1.0,  0.0, 0.0,
             1.0, -1.0, 0.0, 1.0,  1.0, 0.0,
             1.0,  1.0, 0.0, 1.0,  1.0, 1.0,
            -1.0,  1.0, 0.0, 1.0,  0.0, 1.0,
        ];
        array_buffer(ctx, &quad)?;
        // NV_vertex_program's attribute 8 is TEX0
        ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 24, 0)?;
        ctx.vertex_attrib_pointer(8, 2, gl::FLOAT, false, 24, 16)?;
        ctx.enable_vertex_attrib_array(0)?;
        ctx.enable_vertex_attrib_array(8)?;
        ctx.clear_color([0.05, 0.05, 0.05, 1.0])?;
        Ok(())
    }

    fn draw(&mut self, ctx: &mut Context, t: f32) -> Result<()> {
        let (w, h) = ctx.size();
        let (proj, model) = if self.spin {
            let proj = Mat4::perspective_rh_gl(0.9, w as f32 / h.max(1) as f32, 0.5, 10.0);
            let model = Mat4::from_translation(Vec3::new(0.0, 0.0, -2.6))
                * Mat4::from_axis_angle(Vec3::Z, 0.25 * t)
                * Mat4::from_axis_angle(Vec3::X, 0.5 * (0.5 * t).sin());
            (proj, model)
        } else {
            (Mat4::IDENTITY, Mat4::IDENTITY)
        };
        ctx.matrix_mode(gl::PROJECTION)?;
        ctx.load_matrix_f(&proj.to_cols_array())?;
        ctx.matrix_mode(gl::MODELVIEW)?;
        ctx.load_matrix_f(&model.to_cols_array())?;
        ctx.program_named_parameter_4f("time", [t, 0.0, 0.0, 0.0])?;
        ctx.clear(gl::COLOR_BUFFER_BIT)?;
        ctx.draw_arrays(gl::TRIANGLE_FAN, 0, 4)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{assert_near, render};

    /// Without the spin the quad covers the framebuffer with texture coordinates
    /// ((x + 0.5) / w, (y + 0.5) / h), so each pixel is the CPU formula.
    #[test]
    fn plasma_matches_the_formula() {
        let (w, h, frame) = (40u32, 30u32, 9u32);
        let f = render(&mut Legacy { spin: false }, w, h, frame);
        let t = frame as f32 / crate::headless::FPS;
        for (x, y) in [(0, 0), (5, 20), (20, 15), (33, 4), (39, 29)] {
            let want = plasma((x as f32 + 0.5) / w as f32, (y as f32 + 0.5) / h as f32, t);
            assert_near(f.at(x, y), &want, 3.0 / 255.0, &format!("pixel ({x}, {y})"));
        }
        assert!(f.distinct() > 100);
    }

    #[test]
    fn spinning_quad_leaves_the_corners_clear() {
        let f = render(&mut Legacy::default(), 64, 64, 20);
        assert_near(f.at(0, 0), &[0.05, 0.05, 0.05, 1.0], 1.5 / 255.0, "corner");
        assert!(f.distinct() > 100);
    }

    #[test]
    fn plasma_moves_with_time() {
        assert_ne!(plasma(0.3, 0.6, 0.0), plasma(0.3, 0.6, 1.0));
    }
}
