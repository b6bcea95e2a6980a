//! Programmable supersampling with IPAS and IPAO beside plain shading, split screen.
//!
//! A checkered floor runs to the horizon; the fragment program projects it from the
//! interpolated device position, so far away a pixel spans many checks. The left third
//! shades each pixel once (the attribute at its centre: moiré), the middle third
//! re-interpolates the attribute at every sample of the framebuffer with `IPAS` and
//! averages (as good as the MSAA mode: `m` cycles 1, 2, 4, 8, 16 samples), the right third
//! averages a 4×4 grid of `IPAO` offsets whatever the mode. One fragment program does all
//! three (`src/supersample/floor.nvfp`, the mode in `program.local[0]`), drawn once per
//! column through a scissor box.

use crate::demo::Demo;
use crate::upload::{array_buffer, program};
use crate::Result;
use glemu::{gl, Context};

const VERTEX: &str = include_str!("supersample/quad.nvvp");
const FRAGMENT: &str = include_str!("supersample/floor.nvfp");

/// The sample counts `m` cycles through.
pub const SAMPLE_COUNTS: [u32; 5] = [1, 2, 4, 8, 16];

/// Horizon height (normalized device y) and checks per floor unit.
pub const HORIZON: f32 = 0.3509;
const CHECKS: f32 = 2.45;
/// Fog: fully the sky's colour at distance 1 / FOG.
const FOG: f32 = 0.025;

/// How a column shades its pixels (the program's `local[0].x`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shading {
    /// Once, at the pixel centre.
    Plain = 0,
    /// The mean over the framebuffer's samples (IPAS).
    Samples = 1,
    /// The mean over a 4×4 grid of offsets (IPAO).
    Offsets = 2,
}

/// The columns, left to right.
pub const COLUMNS: [Shading; 3] = [Shading::Plain, Shading::Samples, Shading::Offsets];

/// The split-screen supersampling demo.
#[derive(Debug)]
pub struct Supersample {
    /// Index into [`SAMPLE_COUNTS`].
    pub msaa: usize,
}

impl Default for Supersample {
    fn default() -> Self {
        Supersample { msaa: 2 }
    }
}

/// The column boundaries of a `width`-pixel frame: column k covers x in
/// `[b[k], b[k + 1])`, and the pixel at each inner boundary is the divider.
pub fn columns(width: u32) -> [u32; 4] {
    [0, width / 3, 2 * width / 3, width]
}

/// The floor's view at time `t`: env[0] and env[1] of the fragment program.
pub fn view(t: f32) -> [[f32; 4]; 2] {
    let turn = 0.15 * (0.3 * t).sin();
    [
        [HORIZON, CHECKS, turn.cos(), turn.sin()],
        [0.8 * t, FOG, 0.0, 0.0],
    ]
}

impl Supersample {
    fn sample_count(&self) -> u32 {
        SAMPLE_COUNTS[self.msaa % SAMPLE_COUNTS.len()]
    }
}

impl Demo for Supersample {
    fn samples(&self) -> u32 {
        self.sample_count()
    }

    fn setup(&mut self, ctx: &mut Context) -> Result<()> {
        program(ctx, gl::VERTEX_PROGRAM_ARB, VERTEX)?;
        program(ctx, gl::FRAGMENT_PROGRAM_ARB, FRAGMENT)?;
        let quad = [-1.0, -1.0, 0.0, 1.0, 1.0, -1.0, 0.0, 1.0];
        let quad2 = [-1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0];
        array_buffer(ctx, &[quad, quad2].concat())?;
        ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 16, 0)?;
        ctx.enable_vertex_attrib_array(0)?;
        ctx.clear_color([1.0, 1.0, 1.0, 1.0])?;
        Ok(())
    }

    fn draw(&mut self, ctx: &mut Context, t: f32) -> Result<()> {
        let (w, h) = ctx.size();
        let n = self.sample_count();
        if ctx.samples() != n {
            ctx.resize_framebuffer(w, h, n)?;
        }
        ctx.program_env_parameters_4fv(gl::FRAGMENT_PROGRAM_ARB, 0, &view(t))?;
        // White everywhere first: what the scissored columns leave is the dividers.
        ctx.disable(gl::SCISSOR_TEST)?;
        ctx.clear(gl::COLOR_BUFFER_BIT)?;
        ctx.enable(gl::SCISSOR_TEST)?;
        let b = columns(w);
        for (k, mode) in COLUMNS.iter().enumerate() {
            let x0 = if k == 0 { b[k] } else { b[k] + 1 };
            let width = b[k + 1].saturating_sub(x0);
            ctx.scissor(x0 as i32, 0, width as i32, h as i32)?;
            let m = [*mode as u32 as f32, n as f32, 1.0 / n as f32, 0.0];
            ctx.program_local_parameter_4f(gl::FRAGMENT_PROGRAM_ARB, 0, m)?;
            ctx.draw_arrays(gl::TRIANGLE_STRIP, 0, 4)?;
        }
        ctx.disable(gl::SCISSOR_TEST)?;
        Ok(())
    }

    fn keys(&self) -> &'static str {
        "m MSAA 1/2/4/8/16"
    }

    fn status(&self) -> String {
        format!(
            "left plain, middle IPAS x{n}, right IPAO 4x4 (MSAA {n}x)",
            n = self.sample_count()
        )
    }

    fn key(&mut self, key: char) {
        if key == 'm' {
            self.msaa = (self.msaa + 1) % SAMPLE_COUNTS.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{assert_matches_oracle, render, Frame};

    /// How rough a column is just below the horizon, where a pixel spans more than one
    /// check but the fog has not yet covered them (device y 0.06 to 0.32): the mean
    /// absolute difference between horizontal neighbours (aliasing makes them disagree).
    fn roughness(f: &Frame, column: usize) -> f32 {
        let b = columns(f.w);
        let (x0, x1) = (b[column] + 2, b[column + 1] - 2);
        let mut sum = 0.0;
        let mut n = 0;
        for y in f.h * 53 / 100..f.h * 66 / 100 {
            for x in x0..x1 - 1 {
                let (a, c) = (f.at(x, y), f.at(x + 1, y));
                sum += (0..3).map(|i| (a[i] - c[i]).abs()).sum::<f32>();
                n += 1;
            }
        }
        sum / n as f32
    }

    /// Supersampled columns are smoother than the plain one, and IPAS gets smoother with
    /// more samples.
    #[test]
    fn supersampling_smooths_the_distance() {
        let frame = |msaa| render(&mut Supersample { msaa }, 192, 120, 9);
        let four = frame(2);
        let (plain, ipas, ipao) = (
            roughness(&four, 0),
            roughness(&four, 1),
            roughness(&four, 2),
        );
        assert!(ipas < 0.7 * plain, "IPAS x4 {ipas} vs plain {plain}");
        assert!(ipao < 0.7 * plain, "IPAO 4x4 {ipao} vs plain {plain}");
        let one = roughness(&frame(0), 1);
        let sixteen = roughness(&frame(4), 1);
        assert!(sixteen < one * 0.8, "IPAS x16 {sixteen} vs x1 {one}");
        // with one sample IPAS is the pixel centre: the plain column's shading
        let single = frame(0);
        assert!((roughness(&single, 0) - one).abs() < 0.2 * one);
    }

    /// Frame 0 at 192x120 with 4 samples against the oracle's render of the GLSL twin
    /// (interpolateAtSample / interpolateAtOffset): at most 12 pixels (0.05%) may differ,
    /// where a sample lands within rounding of a check's edge.
    #[test]
    fn frame_0_matches_the_oracle_twin() {
        let f = render(&mut Supersample::default(), 192, 120, 0);
        assert_matches_oracle("supersample", &f, 12);
    }

    #[test]
    fn dividers_are_white_and_m_cycles_the_sample_count() {
        let f = render(&mut Supersample::default(), 96, 48, 0);
        let b = columns(96);
        for y in [0, 20, 47] {
            assert_eq!(f.at(b[1], y), [1.0; 4]);
            assert_eq!(f.at(b[2], y), [1.0; 4]);
        }
        let mut d = Supersample::default();
        let seen: Vec<u32> = (0..5)
            .map(|_| {
                d.key('m');
                d.samples()
            })
            .collect();
        assert_eq!(seen, [8, 16, 1, 2, 4]);
    }
}
