//! NV_gpu_program5 geometry program: every particle (a point) becomes a round sprite,
//! and `INVOCATIONS 3` runs the program three times per point, each invocation turning
//! the particle by another 120° and tinting it: a kaleidoscope of a spiral galaxy,
//! blended additively.

use crate::demo::Demo;
use crate::upload::{array_buffer, program};
use crate::Result;
use glemu::{gl, Context};

/// One particle circling the centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Particle {
    /// Angle at time 0, radians.
    pub angle: f32,
    /// Distance from the centre in NDC (before the aspect correction of x).
    pub radius: f32,
    /// Angular speed, radians per second.
    pub speed: f32,
    /// Sprite size as a multiple of [`HALF_SIZE`].
    pub size: f32,
    /// Colour (scaled by each invocation's tint).
    pub color: [f32; 4],
}

/// Half the side of a size-1 sprite, NDC units along y.
pub const HALF_SIZE: f32 = 0.022;

/// Per-invocation tints.
pub const TINTS: [[f32; 4]; 3] = [
    [1.0, 0.55, 0.35, 1.0],
    [0.45, 1.0, 0.5, 1.0],
    [0.45, 0.6, 1.0, 1.0],
];

const VERTEX: &str = include_str!("sprites/vertex.nvvp");

/// `view.x` scales x by height/width (after the turn, so the turn stays a rotation on
/// screen); `view.y` is the half size. `result.attrib[1]` is the corner in [-1, 1]².
const GEOMETRY: &str = include_str!("sprites/geometry.nvgp");

/// Brightness `(1 - r²)²` inside the unit disc, nothing outside.
const FRAGMENT: &str = include_str!("sprites/fragment.nvfp");

/// The sprites demo.
#[derive(Debug)]
pub struct Sprites {
    particles: Vec<Particle>,
}

impl Default for Sprites {
    fn default() -> Self {
        Sprites::with_particles(galaxy(1200))
    }
}

/// `n` particles on two spiral arms, from a fixed seed.
pub fn galaxy(n: usize) -> Vec<Particle> {
    let mut seed = 0x2545_F491_u32;
    let mut rnd = move || {
        // xorshift32: deterministic, so headless frames are reproducible
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    (0..n)
        .map(|i| {
            let r = 0.06 + 0.74 * rnd().sqrt();
            let arm = (i % 2) as f32 * std::f32::consts::PI;
            let warm = 1.0 - r;
            Particle {
                angle: arm + 3.2 * r + 0.5 * (rnd() - 0.5),
                radius: r,
                speed: 0.25 / (0.25 + r),
                size: 0.5 + rnd(),
                color: [
                    0.35 + 0.3 * warm,
                    0.3 + 0.15 * warm,
                    0.35 + 0.2 * (1.0 - warm),
                    1.0,
                ],
            }
        })
        .collect()
}

impl Sprites {
    /// The demo with these particles (tests use a single one).
    pub fn with_particles(particles: Vec<Particle>) -> Self {
        Sprites { particles }
    }
}

impl Demo for Sprites {
    fn setup(&mut self, ctx: &mut Context) -> Result<()> {
        program(ctx, gl::VERTEX_PROGRAM_ARB, VERTEX)?;
        program(ctx, gl::GEOMETRY_PROGRAM_NV, GEOMETRY)?;
        program(ctx, gl::FRAGMENT_PROGRAM_ARB, FRAGMENT)?;
        let data: Vec<f32> = self
            .particles
            .iter()
            .flat_map(|p| {
                let [r, g, b, a] = p.color;
                [p.angle, p.radius, p.speed, p.size, r, g, b, a]
            })
            .collect();
        array_buffer(ctx, &data)?;
        ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 32, 0)?;
        ctx.vertex_attrib_pointer(1, 4, gl::FLOAT, false, 32, 16)?;
        ctx.enable_vertex_attrib_array(0)?;
        ctx.enable_vertex_attrib_array(1)?;
        let turns: Vec<[f32; 4]> = (0..3)
            .map(|i| {
                let a = i as f32 * std::f32::consts::TAU / 3.0;
                [a.cos(), a.sin(), 0.0, 0.0]
            })
            .collect();
        ctx.program_env_parameters_4fv(gl::GEOMETRY_PROGRAM_NV, 1, &turns)?;
        ctx.program_env_parameters_4fv(gl::GEOMETRY_PROGRAM_NV, 4, &TINTS)?;
        ctx.enable(gl::BLEND)?;
        ctx.blend_func(gl::ONE, gl::ONE)?;
        ctx.clear_color([0.0, 0.0, 0.0, 1.0])?;
        Ok(())
    }

    fn draw(&mut self, ctx: &mut Context, t: f32) -> Result<()> {
        let (w, h) = ctx.size();
        let view = [h as f32 / w.max(1) as f32, HALF_SIZE, 0.0, 0.0];
        ctx.program_env_parameters_4fv(gl::GEOMETRY_PROGRAM_NV, 0, &[view])?;
        ctx.program_env_parameters_4fv(gl::VERTEX_PROGRAM_ARB, 0, &[[t, 0.0, 0.0, 0.0]])?;
        ctx.clear(gl::COLOR_BUFFER_BIT)?;
        let n = i32::try_from(self.particles.len()).unwrap_or(i32::MAX);
        ctx.draw_arrays(gl::POINTS, 0, n)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{assert_near, render};

    #[test]
    fn galaxy_lights_up_the_middle_and_leaves_corners_black() {
        let f = render(&mut Sprites::default(), 96, 64, 12);
        assert!(f.distinct() > 100, "only {} colours", f.distinct());
        for (x, y) in [(0, 0), (95, 0), (0, 63), (95, 63)] {
            assert_near(f.at(x, y), &[0.0, 0.0, 0.0], 0.0, "corner");
        }
        let lit = f.count(|p| p[0] > 20 || p[1] > 20 || p[2] > 20);
        assert!(lit > 96 * 64 / 8, "{lit} lit pixels");
    }

    /// One white particle at (0.5, 0) on a square framebuffer: the three invocations put
    /// a sprite tinted by each at 0°, 120° and 240°; the value at a pixel near each
    /// centre is the tint times (1 - r²)², r the pixel centre's distance in sprite units.
    #[test]
    fn each_invocation_draws_a_turned_tinted_sprite() {
        let size = 5.0;
        let one = Particle {
            angle: 0.0,
            radius: 0.5,
            speed: 0.0,
            size,
            color: [1.0, 1.0, 1.0, 1.0],
        };
        let (w, h) = (64u32, 64u32);
        let f = render(&mut Sprites::with_particles(vec![one]), w, h, 0);
        let half_px = HALF_SIZE * size * h as f32 / 2.0;
        for (k, tint) in TINTS.iter().enumerate() {
            let a = k as f32 * std::f32::consts::TAU / 3.0;
            let cx = (0.5 * a.cos() + 1.0) * w as f32 / 2.0;
            let cy = (0.5 * a.sin() + 1.0) * h as f32 / 2.0;
            let (px, py) = (cx.floor(), cy.floor());
            let (u, v) = ((px + 0.5 - cx) / half_px, (py + 0.5 - cy) / half_px);
            let fall = (1.0 - (u * u + v * v)).powi(2);
            let want: Vec<f32> = tint[..3].iter().map(|c| c * fall).collect();
            assert_near(
                f.at(px as u32, py as u32),
                &want,
                2.0 / 255.0,
                "sprite centre",
            );
        }
        // between the sprites stays black
        assert_near(f.at(32, 32), &[0.0, 0.0, 0.0], 0.0, "centre");
        assert_near(f.at(10, 32), &[0.0, 0.0, 0.0], 0.0, "left");
    }

    #[test]
    fn galaxy_is_reproducible() {
        assert_eq!(galaxy(50), galaxy(50));
        assert!(galaxy(50).iter().all(|p| p.radius > 0.0 && p.radius < 0.81));
    }
}
