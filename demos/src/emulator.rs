//! An emulator-style frame: the whole pipeline in NV_gpu_program5 as an emulator's GLASM
//! back end emits it (`OPTION NV_internal`, typed opcodes, named outputs).
//!
//! 72 spinning cubes are drawn instanced into a 4× multisampled framebuffer object. Every
//! stage reads the frame's uniform block (a parameter buffer, `CBUFFER` + `LDC`): the
//! vertex program its view-projection rows and time, the geometry program its light and
//! colours to light each face flat, the fragment program the frame width to address its
//! pixel. The fragment program counts its invocations with `ATOMCTR` and adds one to its
//! pixel's word of a storage buffer with `ATOMB`. The frame is resolved to the window by
//! `glBlitFramebuffer`, and then a full-screen pass reads each pixel's count (`LDB`),
//! stores zero back (`STB`) for the next frame and, with the heat map on (`h`), shows the
//! overdraw as a palette read from the uniform block by a computed `LDC` offset.
//! Programs: `src/emulator/`.

use crate::demo::Demo;
use crate::upload::program;
use crate::Result;
use glam::{Mat4, Vec3};
use glemu::{gl, Context};

const CUBES_VP: &str = include_str!("emulator/cubes.nvvp");
const FACES_GP: &str = include_str!("emulator/faces.nvgp");
const SHADE_FP: &str = include_str!("emulator/shade.nvfp");
const QUAD_VP: &str = include_str!("emulator/quad.nvvp");
const HEAT_FP: &str = include_str!("emulator/heat.nvfp");

/// Samples of the offscreen framebuffer.
pub const SAMPLES: u32 = 4;
/// Cubes along x, y and z.
pub const GRID: [usize; 3] = [6, 4, 3];
/// Half the side of a cube.
const HALF: f32 = 0.3;
/// Clear colour of the offscreen framebuffer.
pub const CLEAR: [f32; 4] = [0.05, 0.05, 0.08, 1.0];
/// Overdraw palette: counts 0 to 14, and 15 or more.
pub const PALETTE: [[f32; 4]; 16] = [
    [0.02, 0.02, 0.08, 1.0],
    [0.1, 0.2, 0.6, 1.0],
    [0.1, 0.6, 0.3, 1.0],
    [0.7, 0.8, 0.1, 1.0],
    [0.95, 0.5, 0.05, 1.0],
    [0.9, 0.1, 0.05, 1.0],
    [1.0, 0.4, 0.6, 1.0],
    [0.8, 0.3, 0.9, 1.0],
    [0.6, 0.6, 1.0, 1.0],
    [0.7, 0.9, 1.0, 1.0],
    [0.75, 1.0, 0.8, 1.0],
    [0.9, 1.0, 0.6, 1.0],
    [1.0, 0.9, 0.7, 1.0],
    [1.0, 0.95, 0.85, 1.0],
    [0.9, 0.9, 0.9, 1.0],
    [1.0, 1.0, 1.0, 1.0],
];

/// 32-bit words of the uniform block (see the programs' comments for the layout).
const BLOCK_WORDS: usize = 36 + 4 * PALETTE.len();

/// The emulator-style frame.
#[derive(Debug, Default)]
pub struct Emulator {
    /// Show the overdraw heat map instead of the shaded frame.
    pub heat: bool,
    /// Fragment program invocations of the last frame's scene, by its ATOMCTR.
    pub fragments: u32,
    objects: Objects,
    /// The size the framebuffer object and the overdraw buffer were made for.
    size: (u32, u32),
}

#[derive(Debug, Default)]
struct Objects {
    programs: [u32; 5],
    vaos: [u32; 2],
    block: u32,
    overdraw: u32,
    counter: u32,
    fbo: u32,
    renderbuffers: [u32; 2],
}

/// The 36 corners of a cube of half side 1, two counter-clockwise (seen from outside)
/// triangles per face.
pub fn cube() -> Vec<[f32; 4]> {
    let mut v = Vec::with_capacity(36);
    for axis in 0..3 {
        for sign in [-1.0f32, 1.0] {
            let (u, w) = ((axis + 1) % 3, (axis + 2) % 3);
            let corner = |a: f32, b: f32| {
                let mut p = [0.0, 0.0, 0.0, 1.0];
                p[axis] = sign;
                p[u] = a;
                p[w] = b;
                p
            };
            // (u, w, axis) is right-handed: u x w points along +axis.
            let quad = if sign > 0.0 {
                [
                    corner(-1.0, -1.0),
                    corner(1.0, -1.0),
                    corner(1.0, 1.0),
                    corner(-1.0, 1.0),
                ]
            } else {
                [
                    corner(-1.0, -1.0),
                    corner(-1.0, 1.0),
                    corner(1.0, 1.0),
                    corner(1.0, -1.0),
                ]
            };
            v.extend([quad[0], quad[1], quad[2], quad[0], quad[2], quad[3]]);
        }
    }
    v
}

/// Each cube's grid position (xyz) and phase (w).
pub fn instances() -> Vec<[f32; 4]> {
    let [nx, ny, nz] = GRID;
    let mut v = Vec::with_capacity(nx * ny * nz);
    for z in 0..nz {
        for y in 0..ny {
            for x in 0..nx {
                let at = |i: usize, n: usize| (i as f32 - (n as f32 - 1.0) / 2.0) * 0.9;
                let i = v.len() as f32;
                v.push([at(x, nx), at(y, ny), at(z, nz), i * 0.7]);
            }
        }
    }
    v
}

/// The uniform block for a `w`×`h` frame at time `t`, as 32-bit words.
pub fn block(w: u32, h: u32, t: f32) -> [u32; BLOCK_WORDS] {
    let aspect = w as f32 / h.max(1) as f32;
    let eye = Vec3::new(1.6 * (0.2 * t).sin(), 1.5, 7.6);
    let vp = Mat4::perspective_rh_gl(0.75, aspect, 0.5, 20.0)
        * Mat4::look_at_rh(eye, Vec3::ZERO, Vec3::Y);
    let l = Vec3::new(0.4, 0.8, 0.6).normalize();
    let mut f = [0.0f32; BLOCK_WORDS];
    for r in 0..4 {
        f[4 * r..4 * r + 4].copy_from_slice(&vp.row(r).to_array());
    }
    f[16..20].copy_from_slice(&[t, w as f32, h as f32, HALF]);
    f[20..24].copy_from_slice(&[l.x, l.y, l.z, 0.25]);
    f[24..28].copy_from_slice(&[0.95, 0.55, 0.2, 1.0]);
    f[28..32].copy_from_slice(&[0.25, 0.6, 0.95, 1.0]);
    for (i, c) in PALETTE.iter().enumerate() {
        f[36 + 4 * i..40 + 4 * i].copy_from_slice(c);
    }
    let mut words = f.map(f32::to_bits);
    words[32] = w; // u32 at byte 128: the overdraw buffer's row length
    words
}

impl Emulator {
    /// Makes the 4× framebuffer object and the overdraw buffer for `w`×`h`.
    fn resize(&mut self, ctx: &mut Context, w: u32, h: u32) -> Result<()> {
        let o = &self.objects;
        let formats = [gl::RGBA8, gl::DEPTH_COMPONENT24];
        let points = [gl::COLOR_ATTACHMENT0, gl::DEPTH_ATTACHMENT];
        ctx.bind_framebuffer(gl::FRAMEBUFFER, o.fbo)?;
        for ((&rb, format), point) in o.renderbuffers.iter().zip(formats).zip(points) {
            ctx.bind_renderbuffer(gl::RENDERBUFFER, rb)?;
            ctx.renderbuffer_storage_multisample(gl::RENDERBUFFER, SAMPLES, format, w, h)?;
            ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, point, gl::RENDERBUFFER, rb)?;
        }
        ctx.bind_framebuffer(gl::FRAMEBUFFER, 0)?;
        let zeros = vec![0u32; (w * h) as usize];
        ctx.bind_buffer(gl::SHADER_STORAGE_BUFFER, o.overdraw)?;
        ctx.buffer_data(gl::SHADER_STORAGE_BUFFER, &zeros, gl::DYNAMIC_COPY)?;
        self.size = (w, h);
        Ok(())
    }

    /// The overdraw buffer: one count per pixel, bottom row first (zero after a frame:
    /// the heat pass clears what it reads).
    pub fn overdraw(&self, ctx: &mut Context) -> Result<Vec<u32>> {
        ctx.bind_buffer(gl::SHADER_STORAGE_BUFFER, self.objects.overdraw)?;
        let (w, h) = self.size;
        Ok(ctx.get_buffer_sub_data_as(gl::SHADER_STORAGE_BUFFER, 0, (w * h) as usize)?)
    }
}

impl Demo for Emulator {
    fn setup(&mut self, ctx: &mut Context) -> Result<()> {
        let o = &mut self.objects;
        o.programs = [
            program(ctx, gl::VERTEX_PROGRAM_ARB, CUBES_VP)?,
            program(ctx, gl::GEOMETRY_PROGRAM_NV, FACES_GP)?,
            program(ctx, gl::FRAGMENT_PROGRAM_ARB, SHADE_FP)?,
            program(ctx, gl::VERTEX_PROGRAM_ARB, QUAD_VP)?,
            program(ctx, gl::FRAGMENT_PROGRAM_ARB, HEAT_FP)?,
        ];
        // Scene arrays: cube corners per vertex, cube placement per instance.
        o.vaos = [ctx.create_vertex_array()?, ctx.create_vertex_array()?];
        ctx.bind_vertex_array(o.vaos[0])?;
        crate::upload::array_buffer(ctx, cube().as_flattened())?;
        ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 16, 0)?;
        ctx.enable_vertex_attrib_array(0)?;
        crate::upload::array_buffer(ctx, instances().as_flattened())?;
        ctx.vertex_attrib_pointer(1, 4, gl::FLOAT, false, 16, 0)?;
        ctx.vertex_attrib_divisor(1, 1)?;
        ctx.enable_vertex_attrib_array(1)?;
        ctx.bind_vertex_array(o.vaos[1])?;
        let quad = [
            -1.0f32, -1.0, 0.0, 1.0, 1.0, -1.0, 0.0, 1.0, -1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0,
        ];
        crate::upload::array_buffer(ctx, &quad)?;
        ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 16, 0)?;
        ctx.enable_vertex_attrib_array(0)?;
        ctx.bind_vertex_array(0)?;
        // The uniform block, bound as program.buffer[0] of every stage.
        o.block = ctx.create_buffer()?;
        ctx.bind_buffer(gl::UNIFORM_BUFFER, o.block)?;
        ctx.buffer_data(gl::UNIFORM_BUFFER, &[0u32; BLOCK_WORDS], gl::DYNAMIC_DRAW)?;
        for target in [
            gl::VERTEX_PROGRAM_PARAMETER_BUFFER_NV,
            gl::GEOMETRY_PROGRAM_PARAMETER_BUFFER_NV,
            gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV,
        ] {
            ctx.bind_buffer_base(target, 0, o.block)?;
        }
        o.overdraw = ctx.create_buffer()?;
        ctx.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, o.overdraw)?;
        o.counter = ctx.create_buffer()?;
        ctx.bind_buffer(gl::ATOMIC_COUNTER_BUFFER, o.counter)?;
        ctx.buffer_data(gl::ATOMIC_COUNTER_BUFFER, &[0u32], gl::DYNAMIC_COPY)?;
        ctx.bind_buffer_base(gl::ATOMIC_COUNTER_BUFFER, 0, o.counter)?;
        o.fbo = ctx.create_framebuffer()?;
        o.renderbuffers = [ctx.create_renderbuffer()?, ctx.create_renderbuffer()?];
        ctx.clear_color(CLEAR)?;
        Ok(())
    }

    fn draw(&mut self, ctx: &mut Context, t: f32) -> Result<()> {
        let (w, h) = ctx.size();
        if self.size != (w, h) {
            self.resize(ctx, w, h)?;
        }
        let o = &self.objects;
        ctx.bind_buffer(gl::UNIFORM_BUFFER, o.block)?;
        ctx.buffer_sub_data(gl::UNIFORM_BUFFER, 0, &block(w, h, t))?;
        ctx.bind_buffer(gl::ATOMIC_COUNTER_BUFFER, o.counter)?;
        ctx.buffer_sub_data(gl::ATOMIC_COUNTER_BUFFER, 0, &[0u32])?;

        // The scene, into the 4x framebuffer object.
        ctx.bind_framebuffer(gl::FRAMEBUFFER, o.fbo)?;
        ctx.viewport(0, 0, w as i32, h as i32)?;
        ctx.enable(gl::DEPTH_TEST)?;
        ctx.enable(gl::CULL_FACE)?;
        ctx.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT)?;
        ctx.bind_program(gl::VERTEX_PROGRAM_ARB, o.programs[0])?;
        ctx.bind_program(gl::GEOMETRY_PROGRAM_NV, o.programs[1])?;
        ctx.enable(gl::GEOMETRY_PROGRAM_NV)?;
        ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, o.programs[2])?;
        ctx.bind_vertex_array(o.vaos[0])?;
        let cubes = (GRID[0] * GRID[1] * GRID[2]) as i32;
        ctx.draw_arrays_instanced(gl::TRIANGLES, 0, 36, cubes)?;

        // Resolve to the window.
        ctx.bind_framebuffer(gl::READ_FRAMEBUFFER, o.fbo)?;
        ctx.bind_framebuffer(gl::DRAW_FRAMEBUFFER, 0)?;
        let all = [0, 0, w as i32, h as i32];
        ctx.blit_framebuffer(all, all, gl::COLOR_BUFFER_BIT, gl::NEAREST)?;
        ctx.bind_framebuffer(gl::FRAMEBUFFER, 0)?;

        // Heat-map pass: reads and clears the counts; shows them only when asked.
        ctx.disable(gl::DEPTH_TEST)?;
        ctx.disable(gl::CULL_FACE)?;
        ctx.disable(gl::GEOMETRY_PROGRAM_NV)?;
        ctx.bind_program(gl::VERTEX_PROGRAM_ARB, o.programs[3])?;
        ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, o.programs[4])?;
        ctx.bind_vertex_array(o.vaos[1])?;
        ctx.color_mask([self.heat; 4])?;
        ctx.draw_arrays(gl::TRIANGLE_STRIP, 0, 4)?;
        ctx.color_mask([true; 4])?;
        ctx.bind_vertex_array(0)?;

        ctx.bind_buffer(gl::ATOMIC_COUNTER_BUFFER, o.counter)?;
        let c: Vec<u32> = ctx.get_buffer_sub_data_as(gl::ATOMIC_COUNTER_BUFFER, 0, 1)?;
        self.fragments = c.first().copied().unwrap_or(0);
        Ok(())
    }

    fn keys(&self) -> &'static str {
        "h overdraw heat map"
    }

    fn status(&self) -> String {
        let (w, h) = self.size;
        let per_pixel = f64::from(self.fragments) / f64::from((w * h).max(1));
        format!(
            "{} fragments shaded (ATOMCTR), {per_pixel:.2} per pixel{}",
            self.fragments,
            if self.heat { ", heat map" } else { "" }
        )
    }

    fn key(&mut self, key: char) {
        if key == 'h' {
            self.heat = !self.heat;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::context_for;
    use crate::testutil::{assert_matches_reference, render};

    /// ATOMCTR counts exactly the fragment program runs the pipeline statistics count
    /// for the scene (the heat pass adds one per pixel), and the heat pass's STB leaves
    /// the overdraw buffer zero.
    #[test]
    fn counters_agree_with_the_pipeline_and_stb_clears() {
        let (w, h) = (96u32, 64u32);
        let mut demo = Emulator::default();
        let mut ctx = context_for(&mut demo, w, h).unwrap();
        ctx.reset_pipeline_statistics();
        demo.draw(&mut ctx, 0.5).unwrap();
        let stats = ctx.pipeline_statistics();
        assert!(demo.fragments > w * h / 4, "{} fragments", demo.fragments);
        assert_eq!(
            u64::from(demo.fragments),
            stats.fragment_invocations - u64::from(w * h)
        );
        assert!(demo.overdraw(&mut ctx).unwrap().iter().all(|&c| c == 0));
    }

    /// With the heat map on every pixel shows a palette colour, the counts they stand for
    /// add up to the ATOMCTR total (none reaches 15 here), and some pixels were shaded 3+
    /// times (cubes behind cubes).
    #[test]
    fn heat_map_counts_add_up_to_the_counter() {
        let (w, h) = (96u32, 64u32);
        let mut demo = Emulator {
            heat: true,
            ..Emulator::default()
        };
        let mut ctx = context_for(&mut demo, w, h).unwrap();
        demo.draw(&mut ctx, 0.5).unwrap();
        let img = ctx.read_image().unwrap();
        let near = |c: &[f32; 4], p: [u8; 4]| {
            (0..4).all(|i| (c[i] * 255.0 - f32::from(p[i])).abs() <= 1.0)
        };
        let mut total = 0u32;
        let mut hot = 0;
        for p in img.pixels() {
            let k = PALETTE
                .iter()
                .position(|c| near(c, p.0))
                .unwrap_or_else(|| panic!("{:?} is no palette colour", p.0));
            assert!(k < 15, "a pixel shaded 15+ times");
            total += k as u32;
            hot += usize::from(k >= 3);
        }
        assert_eq!(total, demo.fragments);
        assert!(hot > 20, "{hot} pixels shaded 3+ times");
    }

    #[test]
    fn cube_faces_point_outward() {
        let c = cube();
        for t in c.chunks_exact(3) {
            let p = |i: usize| Vec3::new(t[i][0], t[i][1], t[i][2]);
            let n = (p(1) - p(0)).cross(p(2) - p(0));
            let centre = (p(0) + p(1) + p(2)) / 3.0;
            assert!(n.dot(centre) > 0.0, "{t:?}");
        }
    }

    /// The resolved frame and the heat map against reviewed references (see
    /// reference/README.md: no oracle twin, as the oracle has no NV assembly, and the
    /// frame's point is the emulator-form programs themselves).
    #[test]
    fn frames_match_the_reviewed_references() {
        let f = render(&mut Emulator::default(), 160, 120, 30);
        assert_matches_reference("emulator", &f);
        let heat = render(
            &mut Emulator {
                heat: true,
                ..Emulator::default()
            },
            160,
            120,
            30,
        );
        assert_matches_reference("emulator_heat", &heat);
    }
}
