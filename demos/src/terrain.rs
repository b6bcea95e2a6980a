//! Tessellation and a geometry program together: hills on a 6×6 grid of quad patches.
//!
//! The control program sets one level for every patch (`+`/`-`; animated until a key
//! fixes it), the evaluation program displaces the generated vertices and derives the
//! normal (loaded three times, one per spacing mode: `s` cycles EQUAL, FRACTIONAL_ODD,
//! FRACTIONAL_EVEN), and a geometry program re-emits each triangle with barycentric
//! coordinates so the fragment program draws the tessellation's edges over the shading
//! (`w` toggles the overlay). The programs are the `.nv*` files in `src/terrain/`.

use crate::demo::Demo;
use crate::upload::{array_buffer, program};
use crate::Result;
use glam::{Mat4, Vec3};
use glemu::{gl, Context};

const VERTEX: &str = include_str!("terrain/terrain.nvvp");
const CONTROL: &str = include_str!("terrain/terrain.nvtcp");
const EVAL: &str = include_str!("terrain/terrain.nvtep");
const GEOMETRY: &str = include_str!("terrain/terrain.nvgp");
const FRAGMENT: &str = include_str!("terrain/terrain.nvfp");

/// Patches per side.
const GRID: usize = 6;

/// The spacing modes `s` cycles through, as TESS_SPACING names them.
pub const SPACINGS: [&str; 3] = ["EQUAL", "FRACTIONAL_ODD", "FRACTIONAL_EVEN"];

/// Clear colour (the sky).
pub const CLEAR: [f32; 4] = [0.55, 0.7, 0.9, 1.0];

/// Wire colour of the overlay.
const WIRE: [f32; 3] = [0.1, 0.1, 0.12];

/// The terrain demo.
#[derive(Debug)]
pub struct Terrain {
    /// Tessellation level; `None` animates it.
    pub level: Option<f32>,
    /// Index into [`SPACINGS`].
    pub spacing: usize,
    /// Draw the geometry program's wireframe overlay.
    pub wireframe: bool,
    eval: [u32; 3],
}

impl Default for Terrain {
    fn default() -> Self {
        Terrain {
            level: None,
            spacing: 1,
            wireframe: true,
            eval: [0; 3],
        }
    }
}

impl Terrain {
    /// The level at time `t` (fractional while animating, so the fractional spacing
    /// modes show their sliding vertices).
    pub fn level_at(&self, t: f32) -> f32 {
        self.level
            .unwrap_or_else(|| 4.5 + 3.5 * (0.5 * t).sin())
            .clamp(1.0, 64.0)
    }

    fn mvp(aspect: f32, t: f32) -> Mat4 {
        let proj = Mat4::perspective_rh_gl(0.8, aspect, 0.5, 10.0);
        let view = Mat4::from_translation(Vec3::new(0.0, -0.1, -3.0))
            * Mat4::from_axis_angle(Vec3::X, -0.95)
            * Mat4::from_axis_angle(Vec3::Z, 0.15 * t);
        proj * view
    }
}

impl Demo for Terrain {
    fn setup(&mut self, ctx: &mut Context) -> Result<()> {
        program(ctx, gl::VERTEX_PROGRAM_ARB, VERTEX)?;
        program(ctx, gl::TESS_CONTROL_PROGRAM_NV, CONTROL)?;
        for (i, s) in SPACINGS.iter().enumerate() {
            let text = EVAL.replace("TESS_SPACING EQUAL;", &format!("TESS_SPACING {s};"));
            self.eval[i] = program(ctx, gl::TESS_EVALUATION_PROGRAM_NV, &text)?;
        }
        program(ctx, gl::GEOMETRY_PROGRAM_NV, GEOMETRY)?;
        program(ctx, gl::FRAGMENT_PROGRAM_ARB, FRAGMENT)?;
        array_buffer(ctx, &crate::tess::patches(GRID))?;
        ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 16, 0)?;
        ctx.enable_vertex_attrib_array(0)?;
        ctx.patch_vertices(4)?;
        ctx.enable(gl::DEPTH_TEST)?;
        ctx.clear_color(CLEAR)?;
        let l = Vec3::new(0.4, -0.5, 0.75).normalize();
        ctx.program_env_parameter_4f(gl::FRAGMENT_PROGRAM_ARB, 0, [l.x, l.y, l.z, 0.0])?;
        Ok(())
    }

    fn draw(&mut self, ctx: &mut Context, t: f32) -> Result<()> {
        let (w, h) = ctx.size();
        let mvp = Terrain::mvp(w as f32 / h.max(1) as f32, t);
        ctx.bind_program(
            gl::TESS_EVALUATION_PROGRAM_NV,
            self.eval[self.spacing % SPACINGS.len()],
        )?;
        ctx.program_env_matrix(gl::TESS_EVALUATION_PROGRAM_NV, 0, mvp)?;
        let waves = [1.3 * t, 0.14, 3.5, 0.0];
        ctx.program_env_parameter_4f(gl::TESS_EVALUATION_PROGRAM_NV, 4, waves)?;
        let level = self.level_at(t);
        ctx.program_env_parameter_4f(gl::TESS_CONTROL_PROGRAM_NV, 0, [level, level, 0.0, 0.0])?;
        let strength = if self.wireframe { 0.85 } else { 0.0 };
        let wire = [WIRE[0], WIRE[1], WIRE[2], strength];
        ctx.program_env_parameter_4f(gl::FRAGMENT_PROGRAM_ARB, 1, wire)?;
        ctx.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT)?;
        ctx.draw_arrays(gl::PATCHES, 0, (GRID * GRID * 4) as i32)?;
        Ok(())
    }

    fn keys(&self) -> &'static str {
        "w wireframe  s spacing  +/- level  a animate"
    }

    fn status(&self) -> String {
        let level = self
            .level
            .map_or_else(|| "animated".to_string(), |l| format!("{l}"));
        format!("level {level}, {}", SPACINGS[self.spacing % SPACINGS.len()])
    }

    fn key(&mut self, key: char) {
        match key {
            'w' => self.wireframe = !self.wireframe,
            's' => self.spacing = (self.spacing + 1) % SPACINGS.len(),
            '+' | '=' => self.level = Some((self.level_at(0.0).floor() + 1.0).min(64.0)),
            '-' => self.level = Some((self.level_at(0.0).ceil() - 1.0).max(1.0)),
            'a' => self.level = None,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{assert_near, render};

    fn frame(level: f32, spacing: usize, wireframe: bool) -> crate::testutil::Frame {
        frame_sized(level, spacing, wireframe, 160, 120)
    }

    fn frame_sized(
        level: f32,
        spacing: usize,
        wireframe: bool,
        w: u32,
        h: u32,
    ) -> crate::testutil::Frame {
        let mut demo = Terrain {
            level: Some(level),
            spacing,
            wireframe,
            ..Terrain::default()
        };
        render(&mut demo, w, h, 6)
    }

    /// Pixels the overlay darkens.
    fn wire_pixels(level: f32, spacing: usize) -> usize {
        let with = frame_sized(level, spacing, true, 400, 300);
        let without = frame_sized(level, spacing, false, 400, 300);
        with.px
            .chunks_exact(4)
            .zip(without.px.chunks_exact(4))
            .filter(|(a, b)| a != b)
            .count()
    }

    #[test]
    fn terrain_is_drawn_under_the_sky() {
        let f = frame(4.0, 0, false);
        assert!(f.distinct() > 100, "only {} colours", f.distinct());
        assert_near(f.at(0, 119), &CLEAR, 1.5 / 255.0, "top-left is sky");
        let c = f.at(80, 50);
        assert!(
            (c[2] - CLEAR[2]).abs() > 0.1,
            "centre {c:?} should be terrain"
        );
    }

    #[test]
    fn the_geometry_program_overlay_follows_the_level() {
        let coarse = wire_pixels(2.0, 0);
        let fine = wire_pixels(8.0, 0);
        assert!(coarse > 200, "level 2: {coarse} wire pixels");
        // Four times the triangles; edges at level 8 are a few pixels apart, so the
        // overlay covers about twice the pixels (1.9x at 400x300).
        assert!(
            fine > coarse * 3 / 2,
            "level 8: {fine} wire pixels, level 2: {coarse}"
        );
    }

    #[test]
    fn spacing_modes_make_different_meshes() {
        // At a fractional level the three spacings split edges differently.
        let frames: Vec<Vec<u8>> = (0..3).map(|s| frame(3.4, s, true).px).collect();
        assert_ne!(frames[0], frames[1], "EQUAL vs FRACTIONAL_ODD");
        assert_ne!(frames[1], frames[2], "FRACTIONAL_ODD vs FRACTIONAL_EVEN");
        assert_ne!(frames[0], frames[2], "EQUAL vs FRACTIONAL_EVEN");
    }

    #[test]
    fn keys_change_level_spacing_and_overlay() {
        let mut d = Terrain::default();
        d.key('w');
        assert!(!d.wireframe);
        d.key('s');
        assert_eq!(d.spacing, 2);
        d.key('s');
        assert_eq!(d.spacing, 0);
        d.key('+');
        assert_eq!(d.level, Some(5.0));
        d.key('-');
        d.key('-');
        assert_eq!(d.level, Some(3.0));
        d.key('a');
        assert_eq!(d.level, None);
    }
}
