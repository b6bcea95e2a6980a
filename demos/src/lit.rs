//! ARB_vertex_program + ARB_fragment_program: a textured cube turning above a textured
//! floor, lit per pixel (Blinn-Phong through `LIT`) with a light circling it, rendered
//! with 4× multisampling. Uses the conventional vertex arrays (`vertex.position`,
//! `vertex.normal`, `vertex.texcoord[0]`) and GL's matrix state (`state.matrix.mvp`,
//! `state.matrix.modelview.invtrans`), the way ARB-era programs did.

use crate::demo::Demo;
use crate::upload::{array_buffer, program, texture_rgba8};
use crate::Result;
use glam::{Mat4, Vec3, Vec4};
use glemu::{gl, Context};

const VERTEX: &str = include_str!("lit/vertex.arbvp");

/// texcoord[1] = eye-space normal, texcoord[2] = eye-space position.
const FRAGMENT: &str = include_str!("lit/fragment.arbfp");

/// Clear colour (tests expect it where nothing is drawn).
pub const CLEAR: [f32; 4] = [0.1, 0.12, 0.16, 1.0];
/// Texture size (square).
const TEX: u32 = 64;

/// The lit, textured, multisampled demo.
#[derive(Debug)]
pub struct Lit {
    samples: u32,
    cube_first: i32,
    cube_count: i32,
    floor_count: i32,
}

impl Default for Lit {
    fn default() -> Self {
        Lit::with_samples(4)
    }
}

impl Lit {
    /// The demo at another sample count (tests compare against 1).
    pub fn with_samples(samples: u32) -> Self {
        Lit {
            samples,
            cube_first: 0,
            cube_count: 0,
            floor_count: 0,
        }
    }
}

/// Interleaved (position xyz, normal xyz, texcoord st) per vertex.
fn push_quad(v: &mut Vec<f32>, corners: [[f32; 3]; 4], n: [f32; 3], tc: f32) {
    let st = [[0.0, 0.0], [tc, 0.0], [tc, tc], [0.0, tc]];
    for i in [0, 1, 2, 0, 2, 3] {
        v.extend_from_slice(&corners[i]);
        v.extend_from_slice(&n);
        v.extend_from_slice(&st[i]);
    }
}

/// The floor (6 vertices) then a unit cube (36), counter-clockwise from outside.
fn geometry() -> Vec<f32> {
    let mut v = Vec::new();
    let f = 3.0;
    let y = -1.2;
    push_quad(
        &mut v,
        [[-f, y, f], [f, y, f], [f, y, -f], [-f, y, -f]],
        [0.0, 1.0, 0.0],
        6.0,
    );
    // each face: normal axis, then two in-plane axes forming a right-handed frame
    let faces: [([f32; 3], [f32; 3], [f32; 3]); 6] = [
        ([1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]),
        ([-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
        ([0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]),
        ([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
        ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        ([0.0, 0.0, -1.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
    ];
    for (n, u, w) in faces {
        let at = |a: f32, b: f32| {
            [
                n[0] + a * u[0] + b * w[0],
                n[1] + a * u[1] + b * w[1],
                n[2] + a * u[2] + b * w[2],
            ]
        };
        push_quad(
            &mut v,
            [at(-1.0, -1.0), at(1.0, -1.0), at(1.0, 1.0), at(-1.0, 1.0)],
            n,
            1.0,
        );
    }
    v
}

/// Terracotta tiles with dark grout and a lighter speck per tile; bottom row first.
fn tiles() -> Vec<u8> {
    let mut px = Vec::with_capacity((TEX * TEX * 4) as usize);
    for y in 0..TEX {
        for x in 0..TEX {
            let (cx, cy) = (x % 16, y % 16);
            let grout = cx == 0 || cy == 0;
            let alt = ((x / 16) + (y / 16)) % 2 == 1;
            let rgb = if grout {
                [40, 36, 34]
            } else if (4..7).contains(&cx) && (4..7).contains(&cy) {
                [240, 220, 180]
            } else if alt {
                [196, 98, 54]
            } else {
                [222, 186, 120]
            };
            px.extend_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
        }
    }
    px
}

impl Demo for Lit {
    fn samples(&self) -> u32 {
        self.samples
    }

    fn setup(&mut self, ctx: &mut Context) -> Result<()> {
        program(ctx, gl::VERTEX_PROGRAM_ARB, VERTEX)?;
        program(ctx, gl::FRAGMENT_PROGRAM_ARB, FRAGMENT)?;
        ctx.program_local_parameter_4f(gl::FRAGMENT_PROGRAM_ARB, 1, [0.6, 0.6, 0.55, 40.0])?;
        ctx.active_texture(0)?;
        texture_rgba8(ctx, TEX, TEX, &tiles())?;
        let geo = geometry();
        array_buffer(ctx, &geo)?;
        let stride = 32;
        ctx.vertex_pointer(3, gl::FLOAT, stride, 0)?;
        ctx.normal_pointer(gl::FLOAT, stride, 12)?;
        ctx.tex_coord_pointer(2, gl::FLOAT, stride, 24)?;
        ctx.enable_client_state(gl::VERTEX_ARRAY)?;
        ctx.enable_client_state(gl::NORMAL_ARRAY)?;
        ctx.enable_client_state(gl::TEXTURE_COORD_ARRAY)?;
        self.floor_count = 6;
        self.cube_first = 6;
        self.cube_count = i32::try_from(geo.len() / 8).unwrap_or(0) - 6;
        ctx.enable(gl::DEPTH_TEST)?;
        ctx.enable(gl::MULTISAMPLE)?;
        ctx.clear_color(CLEAR)?;
        Ok(())
    }

    fn draw(&mut self, ctx: &mut Context, t: f32) -> Result<()> {
        let (w, h) = ctx.size();
        let proj = Mat4::perspective_rh_gl(0.9, w as f32 / h.max(1) as f32, 0.5, 30.0);
        let view = Mat4::from_translation(Vec3::new(0.0, -0.3, -6.0))
            * Mat4::from_axis_angle(Vec3::X, 0.45);
        let light_world = Vec4::new(3.0 * (0.7 * t).cos(), 2.5, 3.0 * (0.7 * t).sin(), 1.0);
        let light = view * light_world;
        ctx.program_local_parameter_4f(gl::FRAGMENT_PROGRAM_ARB, 0, light)?;
        ctx.matrix_mode(gl::PROJECTION)?;
        ctx.load_matrix_f(&proj.to_cols_array())?;
        ctx.matrix_mode(gl::MODELVIEW)?;
        ctx.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT)?;
        ctx.load_matrix_f(&view.to_cols_array())?;
        ctx.draw_arrays(gl::TRIANGLES, 0, self.floor_count)?;
        let spin = Mat4::from_axis_angle(Vec3::Y, 0.6 * t + 0.5)
            * Mat4::from_axis_angle(Vec3::new(0.6, 0.0, 0.8), 0.35);
        ctx.load_matrix_f(&(view * spin).to_cols_array())?;
        ctx.draw_arrays(gl::TRIANGLES, self.cube_first, self.cube_count)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{assert_near, render};

    #[test]
    fn cube_and_floor_are_lit_and_textured() {
        let f = render(&mut Lit::default(), 80, 60, 4);
        assert!(f.distinct() > 200, "only {} colours", f.distinct());
        assert_near(
            f.at(0, 59),
            &CLEAR,
            1.5 / 255.0,
            "top-left corner is background",
        );
        let centre = f.at(40, 30);
        assert!(
            (0..3).any(|i| (centre[i] - CLEAR[i]).abs() > 0.1),
            "centre {centre:?} should be the cube"
        );
    }

    /// 4× multisampling changes only edge pixels: some, not most.
    #[test]
    fn msaa_smooths_edges_only() {
        let one = render(&mut Lit::with_samples(1), 80, 60, 4);
        let four = render(&mut Lit::with_samples(4), 80, 60, 4);
        let differ = one
            .px
            .chunks_exact(4)
            .zip(four.px.chunks_exact(4))
            .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 8))
            .count();
        assert!(differ > 20, "only {differ} pixels differ with 4x MSAA");
        assert!(
            differ < 80 * 60 / 4,
            "{differ} pixels differ: more than edges"
        );
    }

    #[test]
    fn tile_texture_has_grout_and_two_tile_colours() {
        let t = tiles();
        assert_eq!(t.len(), (TEX * TEX * 4) as usize);
        assert_eq!(&t[..4], &[40, 36, 34, 255]);
        let at = |x: u32, y: u32| &t[((y * TEX + x) * 4) as usize..][..3];
        assert_ne!(at(10, 10), at(26, 10));
    }
}
