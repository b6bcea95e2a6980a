//! Particles by stream-out: a fountain simulated entirely by a vertex program.
//!
//! Each step draws the particle buffer as points with rasterization discarded, and
//! transform feedback captures the vertex program's results (the next position/age and
//! velocity/seed) into the other buffer: ping-pong, one step per 1/30 s. The drawing pass
//! reads the current buffer and a geometry program expands each point into a
//! camera-facing sprite coloured by age, blended additively. `+`/`-` double or halve the
//! particle count (64 to 65536; the fountain starts again). Programs: `src/particles/`.

use crate::demo::Demo;
use crate::upload::program;
use crate::Result;
use glam::{Mat4, Vec3};
use glemu::{gl, Context};

const SIMULATE: &str = include_str!("particles/simulate.nvvp");
const DRAW: &str = include_str!("particles/draw.nvvp");
const SPRITE: &str = include_str!("particles/sprite.nvgp");
const FRAGMENT: &str = include_str!("sprites/fragment.nvfp");

/// Simulation steps per second (the headless clock's rate, so frame N is N steps).
pub const STEPS_PER_SECOND: f32 = 30.0;
/// Gravity (world units / s²), the time step, a particle's lifetime (s) and its sideways
/// speed: the simulation program's env[0].
pub const PHYSICS: [f32; 4] = [-4.0, 1.0 / STEPS_PER_SECOND, 2.5, 0.8];
/// The emitter's position and the upward launch speed: env[1].
pub const EMITTER: [f32; 4] = [0.0, 0.05, 0.0, 3.4];
/// Half the side of a sprite, world units.
pub const HALF_SIZE: f32 = 0.035;
/// Fewest and most particles the keys reach.
pub const COUNTS: (usize, usize) = (64, 65536);
/// Steps a window frame may catch up; more and the simulation slows down instead.
const CATCH_UP: u64 = 6;
/// Steps the first frame may take (a headless frame N takes all N).
const FIRST_FRAME_STEPS: u64 = 1200;

/// Bytes of one particle: position + age, velocity + seed.
const STRIDE: i32 = 32;

/// The particle fountain.
#[derive(Debug)]
pub struct Particles {
    /// Particles simulated and drawn.
    pub count: usize,
    programs: [u32; 3],
    buffers: [u32; 2],
    /// Index into `buffers` of the current state.
    current: usize,
    /// The count the buffers were made for (0: not yet).
    built: usize,
    /// Steps simulated since the start, and the time the fountain started.
    steps: u64,
    start: f32,
}

impl Default for Particles {
    fn default() -> Self {
        Particles::with_count(4096)
    }
}

/// The state particle `i` of `n` starts in: at the emitter, born `i / n` of a lifetime
/// from now (a negative age), with a seed spread over [0, 1) (the R1 sequence).
pub fn initial(i: usize, n: usize) -> [[f32; 4]; 2] {
    let age = -(i as f32 / n as f32) * PHYSICS[2];
    let seed = (i as f64 * 0.618_033_988_75).fract() as f32;
    [
        [EMITTER[0], EMITTER[1], EMITTER[2], age],
        [0.0, 0.0, 0.0, seed],
    ]
}

impl Particles {
    /// A fountain of `count` particles.
    pub fn with_count(count: usize) -> Self {
        Particles {
            count: count.clamp(COUNTS.0, COUNTS.1),
            programs: [0; 3],
            buffers: [0; 2],
            current: 0,
            built: 0,
            steps: 0,
            start: 0.0,
        }
    }

    /// Steps simulated since the fountain (re)started.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The current state buffer's particles (position + age, velocity + seed).
    pub fn state(&self, ctx: &mut Context) -> Result<Vec<[[f32; 4]; 2]>> {
        ctx.bind_buffer(gl::ARRAY_BUFFER, self.buffers[self.current])?;
        Ok(ctx.get_buffer_sub_data_as(gl::ARRAY_BUFFER, 0, self.count)?)
    }

    fn build(&mut self, ctx: &mut Context) -> Result<()> {
        let data: Vec<[[f32; 4]; 2]> = (0..self.count).map(|i| initial(i, self.count)).collect();
        for &b in &self.buffers {
            ctx.bind_buffer(gl::ARRAY_BUFFER, b)?;
            ctx.buffer_data(gl::ARRAY_BUFFER, &data, gl::DYNAMIC_COPY)?;
        }
        self.current = 0;
        self.built = self.count;
        self.steps = 0;
        Ok(())
    }

    fn bind_state(&self, ctx: &mut Context, buffer: u32) -> Result<()> {
        ctx.bind_buffer(gl::ARRAY_BUFFER, buffer)?;
        ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, STRIDE, 0)?;
        ctx.vertex_attrib_pointer(1, 4, gl::FLOAT, false, STRIDE, 16)?;
        Ok(())
    }

    /// `n` simulation steps: points in, rasterization discarded, results captured into
    /// the other buffer, which becomes the current one.
    fn simulate(&mut self, ctx: &mut Context, n: u64) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        ctx.disable(gl::GEOMETRY_PROGRAM_NV)?;
        ctx.disable(gl::FRAGMENT_PROGRAM_ARB)?;
        ctx.bind_program(gl::VERTEX_PROGRAM_ARB, self.programs[0])?;
        ctx.enable(gl::RASTERIZER_DISCARD)?;
        let count = i32::try_from(self.count).unwrap_or(i32::MAX);
        for _ in 0..n {
            let (src, dst) = (self.buffers[self.current], self.buffers[1 - self.current]);
            self.bind_state(ctx, src)?;
            ctx.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, 0, dst)?;
            ctx.begin_transform_feedback(gl::POINTS)?;
            ctx.draw_arrays(gl::POINTS, 0, count)?;
            ctx.end_transform_feedback()?;
            self.current = 1 - self.current;
        }
        self.steps += n;
        ctx.disable(gl::RASTERIZER_DISCARD)?;
        Ok(())
    }

    fn view_projection(aspect: f32, t: f32) -> Mat4 {
        let eye = Vec3::new(4.2 * (0.1 * t).sin(), 1.5, 4.2 * (0.1 * t).cos());
        Mat4::perspective_rh_gl(0.9, aspect, 0.1, 30.0)
            * Mat4::look_at_rh(eye, Vec3::new(0.0, 1.1, 0.0), Vec3::Y)
    }
}

impl Demo for Particles {
    fn setup(&mut self, ctx: &mut Context) -> Result<()> {
        self.programs = [
            program(ctx, gl::VERTEX_PROGRAM_ARB, SIMULATE)?,
            program(ctx, gl::VERTEX_PROGRAM_ARB, DRAW)?,
            program(ctx, gl::GEOMETRY_PROGRAM_NV, SPRITE)?,
        ];
        program(ctx, gl::FRAGMENT_PROGRAM_ARB, FRAGMENT)?;
        ctx.program_env_parameter_4f(gl::VERTEX_PROGRAM_ARB, 0, PHYSICS)?;
        ctx.program_env_parameter_4f(gl::VERTEX_PROGRAM_ARB, 1, EMITTER)?;
        self.buffers = [ctx.create_buffer()?, ctx.create_buffer()?];
        ctx.transform_feedback_attribs(0, &["result.attrib[0]", "result.attrib[1]"])?;
        ctx.transform_feedback_buffer_mode(gl::INTERLEAVED_ATTRIBS)?;
        ctx.enable_vertex_attrib_array(0)?;
        ctx.enable_vertex_attrib_array(1)?;
        ctx.enable(gl::BLEND)?;
        ctx.blend_func(gl::ONE, gl::ONE)?;
        ctx.clear_color([0.02, 0.02, 0.06, 1.0])?;
        Ok(())
    }

    fn draw(&mut self, ctx: &mut Context, t: f32) -> Result<()> {
        if self.built != self.count {
            // The first fountain starts at time 0 (so headless frame N is N steps), one
            // rebuilt for a new count starts now.
            if self.built != 0 {
                self.start = t;
            }
            self.build(ctx)?;
        }
        let due = ((t - self.start) * STEPS_PER_SECOND + 1e-3)
            .floor()
            .max(0.0) as u64;
        let behind = due.saturating_sub(self.steps);
        let limit = if self.steps == 0 {
            FIRST_FRAME_STEPS
        } else {
            CATCH_UP
        };
        self.simulate(ctx, behind.min(limit))?;
        // Too far behind (a slow window): let simulated time slip rather than stall.
        self.steps = self.steps.max(due.saturating_sub(CATCH_UP));

        let (w, h) = ctx.size();
        let vp = Particles::view_projection(w as f32 / h.max(1) as f32, t);
        ctx.bind_program(gl::VERTEX_PROGRAM_ARB, self.programs[1])?;
        ctx.enable(gl::GEOMETRY_PROGRAM_NV)?;
        ctx.enable(gl::FRAGMENT_PROGRAM_ARB)?;
        ctx.program_env_matrix(gl::GEOMETRY_PROGRAM_NV, 0, vp)?;
        let sprite = [HALF_SIZE, vp.x_axis.x, vp.y_axis.y, PHYSICS[2]];
        ctx.program_env_parameter_4f(gl::GEOMETRY_PROGRAM_NV, 4, sprite)?;
        self.bind_state(ctx, self.buffers[self.current])?;
        ctx.clear(gl::COLOR_BUFFER_BIT)?;
        let count = i32::try_from(self.count).unwrap_or(i32::MAX);
        ctx.draw_arrays(gl::POINTS, 0, count)?;
        Ok(())
    }

    fn keys(&self) -> &'static str {
        "+/- particles x2"
    }

    fn status(&self) -> String {
        format!("{} particles, step {}", self.count, self.steps)
    }

    fn key(&mut self, key: char) {
        match key {
            '+' | '=' => self.count = (self.count * 2).min(COUNTS.1),
            '-' => self.count = (self.count / 2).max(COUNTS.0),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{assert_matches_reference, render};

    /// The simulation program's step on the CPU, in its operation order (MAD fused).
    fn step(s: &mut [[f32; 4]; 2]) {
        let [g, dt, life, side] = PHYSICS;
        let [p, v] = s;
        let unborn = p[3] < 0.0;
        p[3] += dt;
        let over = p[3] >= life;
        if (unborn && p[3] >= 0.0) || over {
            if over {
                p[3] = (-life).mul_add(1.0, p[3]);
            }
            v[3] = (v[3] + 0.618034).fract();
            let a = v[3] * std::f32::consts::TAU; // the program's 6.2831853, the same f32
            let mut sp = (v[3] * 7.31).fract();
            sp = sp.mul_add(0.5, 0.75);
            v[0] = a.cos() * side;
            v[2] = a.sin() * side;
            v[1] = EMITTER[3] * sp;
            p[..3].copy_from_slice(&EMITTER[..3]);
        }
        if p[3] >= 0.0 {
            v[1] = g.mul_add(dt, v[1]);
            for c in 0..3 {
                p[c] = v[c].mul_add(dt, p[c]);
            }
            if p[1] < 0.0 {
                v[1] *= -0.55;
                p[1] *= -0.55;
            }
        }
    }

    /// 90 steps of transform-feedback ping-pong give the CPU's particles: births,
    /// flight, bounces and rebirths (a lifetime is 75 steps).
    #[test]
    fn stream_out_steps_match_the_cpu() {
        let n = 64;
        let mut demo = Particles::with_count(n);
        let mut ctx = crate::demo::context_for(&mut demo, 16, 16).unwrap();
        demo.draw(&mut ctx, 3.0).unwrap();
        assert_eq!(demo.steps(), 90);
        let gpu = demo.state(&mut ctx).unwrap();
        let mut cpu: Vec<[[f32; 4]; 2]> = (0..n).map(|i| initial(i, n)).collect();
        for _ in 0..90 {
            cpu.iter_mut().for_each(step);
        }
        let mut worst = 0.0f32;
        for (i, (g, c)) in gpu.iter().zip(&cpu).enumerate() {
            for (a, b) in g.iter().flatten().zip(c.iter().flatten()) {
                worst = worst.max((a - b).abs());
                assert!((a - b).abs() < 2e-3, "particle {i}: gpu {g:?} cpu {c:?}");
            }
        }
        let reborn = cpu
            .iter()
            .filter(|s| s[1][3] != initial(0, n)[1][3])
            .count();
        assert!(reborn > n / 2, "{reborn} particles were born");
        let bounced = gpu
            .iter()
            .filter(|s| s[1][1] > 0.0 && s[0][3] > 1.5)
            .count();
        assert!(bounced > 0, "no particle on its way up after a bounce");
        assert!(worst < 2e-3);
    }

    #[test]
    fn the_fountain_rises_over_time_and_count_keys_work() {
        let lit = |f: &crate::testutil::Frame| f.count(|p| p[0] > 40);
        let early = render(&mut Particles::with_count(1024), 96, 72, 3);
        let later = render(&mut Particles::with_count(1024), 96, 72, 45);
        assert!(
            lit(&later) > 4 * lit(&early).max(1),
            "lit pixels: frame 3 {}, frame 45 {}",
            lit(&early),
            lit(&later)
        );
        let more = render(&mut Particles::with_count(4096), 96, 72, 45);
        assert!(
            lit(&more) > lit(&later),
            "4096 particles light no more than 1024"
        );
        let mut d = Particles::with_count(1024);
        d.key('+');
        assert_eq!(d.count, 2048);
        (0..20).for_each(|_| d.key('-'));
        assert_eq!(d.count, COUNTS.0);
    }

    /// The headless frame against the reviewed reference (see reference/README.md: the
    /// oracle runs no NV assembly, and its scene format cannot swap transform feedback
    /// buffers between steps, so there is no GLSL twin of 45 ping-pong steps).
    #[test]
    fn frame_45_matches_the_reviewed_reference() {
        let f = render(&mut Particles::default(), 160, 120, 45);
        assert_matches_reference("particles", &f);
    }
}
