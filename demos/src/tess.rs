//! NV_tessellation_program5: a rippling water surface made of 8×8 quad patches.
//!
//! The tessellation control program computes each patch edge's level from the distance
//! of the edge's midpoint to a focus point that wanders over the surface (so adjacent
//! patches agree on shared edges and the mesh has no cracks); the largest level comes
//! from a program parameter (animated, `+`/`-` in the window). The evaluation program
//! displaces the generated vertices with two travelling waves and derives the exact
//! normal; the fragment program lights it. A second pass draws the wireframe on top
//! (`w` toggles it) so the adaptive tessellation is visible.

use crate::demo::Demo;
use crate::upload::{array_buffer, program};
use crate::Result;
use glam::{Mat4, Vec3};
use glemu::{gl, Context};

/// Patches per side of the surface.
const GRID: usize = 8;

const VERTEX: &str = include_str!("tess/vertex.nvvp");

/// Edge levels fall from `lv.x` at the focus to `lv.y` at distance `1/sqrt(lv.z)`.
/// Quad domain: outer[0] is the edge u = 0 (control points 0, 3), outer[1] v = 0 (0, 1),
/// outer[2] u = 1 (1, 2), outer[3] v = 1 (3, 2).
const CONTROL: &str = include_str!("tess/control.nvtcp");

/// Height `A sin(kx + t) cos(ky + 0.8t)`; `result.attrib[0]` is the unnormalized
/// normal `(-dh/dx, -dh/dy, 1)`, `result.attrib[1].x` the height.
const EVAL: &str = include_str!("tess/eval.nvtep");

const SHADE: &str = include_str!("tess/shade.nvfp");

const WIRE: &str = include_str!("tess/wire.nvfp");

/// Wireframe colour; alpha is its opacity over the surface.
pub const WIRE_COLOR: [f32; 4] = [0.85, 0.95, 1.0, 0.3];
/// Camera tilt about x, radians.
const TILT: f32 = 0.85;

/// Clear colour (also what tests expect where the surface is not).
pub const CLEAR: [f32; 4] = [0.02, 0.02, 0.06, 1.0];

/// The tessellation demo.
#[derive(Debug)]
pub struct Tess {
    /// Largest tessellation level (at the focus) before animation; `None` animates it.
    pub max_level: Option<f32>,
    /// Draw the wireframe pass.
    pub wireframe: bool,
    shade: u32,
    wire: u32,
}

impl Default for Tess {
    fn default() -> Self {
        Tess {
            max_level: None,
            wireframe: true,
            shade: 0,
            wire: 0,
        }
    }
}

/// A `grid`×`grid` square of quad patches over [-1, 1]²: 4 control points per patch,
/// (x, y, 0, 1) each, corners in the order the evaluation programs interpolate: (0,0)
/// (1,0) (1,1) (0,1). (The terrain demo uses it too.)
pub(crate) fn patches(grid: usize) -> Vec<f32> {
    let step = 2.0 / grid as f32;
    let mut v = Vec::with_capacity(grid * grid * 16);
    for j in 0..grid {
        for i in 0..grid {
            let (x0, y0) = (-1.0 + i as f32 * step, -1.0 + j as f32 * step);
            let (x1, y1) = (x0 + step, y0 + step);
            for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] {
                v.extend_from_slice(&[x, y, 0.0, 1.0]);
            }
        }
    }
    v
}

impl Tess {
    /// The largest level at time `t`.
    pub fn level_at(&self, t: f32) -> f32 {
        self.max_level
            .unwrap_or_else(|| 7.0 + 6.0 * (0.4 * t).sin())
            .clamp(1.0, 64.0)
    }

    /// Camera looking down at the surface from the front, tilted.
    fn mvp(aspect: f32) -> Mat4 {
        let proj = Mat4::perspective_rh_gl(0.8, aspect, 0.5, 10.0);
        let view = Mat4::from_translation(Vec3::new(0.0, -0.05, -3.0))
            * Mat4::from_axis_angle(Vec3::X, -TILT);
        proj * view
    }
}

impl Demo for Tess {
    fn setup(&mut self, ctx: &mut Context) -> Result<()> {
        program(ctx, gl::VERTEX_PROGRAM_ARB, VERTEX)?;
        program(ctx, gl::TESS_CONTROL_PROGRAM_NV, CONTROL)?;
        program(ctx, gl::TESS_EVALUATION_PROGRAM_NV, EVAL)?;
        self.wire = program(ctx, gl::FRAGMENT_PROGRAM_ARB, WIRE)?;
        self.shade = program(ctx, gl::FRAGMENT_PROGRAM_ARB, SHADE)?;
        array_buffer(ctx, &patches(GRID))?;
        ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 16, 0)?;
        ctx.enable_vertex_attrib_array(0)?;
        ctx.patch_vertices(4)?;
        ctx.enable(gl::DEPTH_TEST)?;
        ctx.depth_func(gl::LEQUAL)?;
        ctx.polygon_offset(1.0, 1.0)?;
        ctx.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA)?;
        ctx.clear_color(CLEAR)?;
        let norm = |v: [f32; 4]| {
            let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            [v[0] / n, v[1] / n, v[2] / n, 0.0]
        };
        // surface space: the camera sits towards -y and +z (see `mvp`), the light to the
        // right and behind; the half vector gives a highlight across the far waves
        let light = norm([0.5, 0.6, 0.62, 0.0]);
        let eye = [0.0, -(TILT.sin()), TILT.cos(), 0.0];
        let half = norm([light[0] + eye[0], light[1] + eye[1], light[2] + eye[2], 0.0]);
        ctx.program_env_parameters_4fv(gl::FRAGMENT_PROGRAM_ARB, 0, &[light, half, WIRE_COLOR])?;
        Ok(())
    }

    fn draw(&mut self, ctx: &mut Context, t: f32) -> Result<()> {
        let (w, h) = ctx.size();
        let mvp = Tess::mvp(w as f32 / h.max(1) as f32);
        ctx.program_env_matrix(gl::TESS_EVALUATION_PROGRAM_NV, 0, mvp)?;
        let waves = [1.7 * t, 0.12, 4.0, 0.0];
        ctx.program_env_parameter_4f(gl::TESS_EVALUATION_PROGRAM_NV, 4, waves)?;
        let focus = [0.7 * (0.53 * t).sin(), 0.7 * (0.37 * t).cos(), 0.0, 0.0];
        let top = self.level_at(t);
        let levels = [top, top.min(2.0), 0.8, 0.0];
        ctx.program_env_parameters_4fv(gl::TESS_CONTROL_PROGRAM_NV, 0, &[levels, focus])?;
        ctx.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT)?;
        let count = (GRID * GRID * 4) as i32;
        ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, self.shade)?;
        ctx.polygon_mode(gl::FRONT_AND_BACK, gl::FILL)?;
        ctx.enable(gl::POLYGON_OFFSET_FILL)?;
        ctx.draw_arrays(gl::PATCHES, 0, count)?;
        ctx.disable(gl::POLYGON_OFFSET_FILL)?;
        if self.wireframe {
            ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, self.wire)?;
            ctx.polygon_mode(gl::FRONT_AND_BACK, gl::LINE)?;
            ctx.enable(gl::BLEND)?;
            ctx.draw_arrays(gl::PATCHES, 0, count)?;
            ctx.disable(gl::BLEND)?;
            ctx.polygon_mode(gl::FRONT_AND_BACK, gl::FILL)?;
        }
        Ok(())
    }

    fn keys(&self) -> &'static str {
        "w wireframe  +/- largest level  a animate"
    }

    fn status(&self) -> String {
        self.max_level.map_or_else(
            || "largest level animated".to_string(),
            |l| format!("largest level {l}"),
        )
    }

    fn key(&mut self, key: char) {
        match key {
            'w' => self.wireframe = !self.wireframe,
            '+' | '=' => self.max_level = Some((self.level_at(0.0) + 1.0).min(64.0)),
            '-' => self.max_level = Some((self.level_at(0.0) - 1.0).max(1.0)),
            'a' => self.max_level = None,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{assert_near, render};

    /// Pixels the wireframe pass changes at largest level `level`.
    fn wire_pixels(level: f32) -> usize {
        let frame = |wireframe| {
            let mut demo = Tess {
                max_level: Some(level),
                wireframe,
                ..Tess::default()
            };
            render(&mut demo, 320, 240, 10)
        };
        let (with, without) = (frame(true), frame(false));
        with.px
            .chunks_exact(4)
            .zip(without.px.chunks_exact(4))
            .filter(|(a, b)| a != b)
            .count()
    }

    #[test]
    fn surface_is_drawn_over_the_clear_colour() {
        let f = render(&mut Tess::default(), 96, 72, 5);
        assert!(f.distinct() > 50, "only {} colours", f.distinct());
        assert_near(
            f.at(0, 71),
            &CLEAR,
            1.5 / 255.0,
            "top-left corner is background",
        );
        let centre = f.at(48, 36);
        assert!(
            (centre[2] - CLEAR[2]).abs() > 0.1 || (centre[0] - CLEAR[0]).abs() > 0.1,
            "centre {centre:?} should be the surface"
        );
    }

    #[test]
    fn higher_level_parameter_draws_more_wireframe() {
        let coarse = wire_pixels(1.0);
        let fine = wire_pixels(16.0);
        assert!(coarse > 100, "coarse wireframe has {coarse} pixels");
        assert!(
            fine > coarse * 3 / 2,
            "level 16: {fine} wire pixels, level 1: {coarse}"
        );
    }

    #[test]
    fn keys_change_level_and_wireframe() {
        let mut demo = Tess::default();
        demo.key('w');
        assert!(!demo.wireframe);
        demo.key('+');
        assert_eq!(demo.max_level, Some(8.0));
        demo.key('-');
        demo.key('-');
        assert_eq!(demo.max_level, Some(6.0));
        demo.key('a');
        assert_eq!(demo.max_level, None);
    }
}
