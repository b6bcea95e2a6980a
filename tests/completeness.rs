//! Texture completeness (GL 4.6 §8.17): sampling an incomplete texture returns
//! (0, 0, 0, 1) (§11.1.3.5; ARB_fragment_program issue 23), one test per rule.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod common;

use glemu::{gl, Context};

const TEXEL: [u8; 4] = [255, 128, 0, 255];
const INCOMPLETE: [f32; 4] = [0.0, 0.0, 0.0, 1.0];
const SAMPLED: [f32; 4] = [1.0, 128.0 / 255.0, 0.0, 1.0];

/// A 4x4 context drawing a full-screen quad through `fp` (texcoord 0 = 0.5, 0.5).
fn ctx_with(fp: &str) -> Context {
    let mut ctx = Context::new(4, 4).unwrap();
    let vp = "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nMOV result.texcoord[0], {0.5, 0.5, 0, 1};\nEND\n";
    common::programs(&mut ctx, vp, fp);
    common::fullscreen_strip(&mut ctx);
    ctx
}

fn sample(ctx: &mut Context) -> [f32; 4] {
    ctx.clear_color([0.5; 4]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.draw_arrays(gl::TRIANGLE_STRIP, 0, 4).unwrap();
    ctx.read_pixel(1, 1).unwrap()
}

const TEX_2D: &str = "!!NVfp5.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nEND\n";

/// A 2D texture whose level 0 is `size`² texels of `TEXEL`.
fn texture_2d(ctx: &mut Context, size: u32) {
    ctx.bind_texture(gl::TEXTURE_2D, 9).unwrap();
    let data = TEXEL.repeat((size * size) as usize);
    ctx.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8,
        size,
        size,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        Some(&data),
    )
    .unwrap();
}

fn param(ctx: &mut Context, target: u32, pname: u32, v: u32) {
    ctx.tex_parameter_i(target, pname, v as i32).unwrap();
}

#[test]
fn level_zero_alone_is_incomplete_under_a_mipmap_filter() {
    let mut ctx = ctx_with(TEX_2D);
    texture_2d(&mut ctx, 4);
    // The default min filter is NEAREST_MIPMAP_LINEAR: "forgot the mipmaps".
    assert_eq!(sample(&mut ctx), INCOMPLETE);
    param(&mut ctx, gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::LINEAR);
    assert_eq!(sample(&mut ctx), SAMPLED);
    param(
        &mut ctx,
        gl::TEXTURE_2D,
        gl::TEXTURE_MIN_FILTER,
        gl::LINEAR_MIPMAP_LINEAR,
    );
    assert_eq!(sample(&mut ctx), INCOMPLETE);
    ctx.generate_mipmap(gl::TEXTURE_2D).unwrap();
    assert_eq!(sample(&mut ctx), SAMPLED);
}

#[test]
fn every_level_up_to_the_last_must_be_defined() {
    let mut ctx = ctx_with(TEX_2D);
    texture_2d(&mut ctx, 4);
    let level = |ctx: &mut Context, l: u32, s: u32| {
        let data = TEXEL.repeat((s * s) as usize);
        ctx.tex_image_2d(
            gl::TEXTURE_2D,
            l,
            gl::RGBA8,
            s,
            s,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&data),
        )
        .unwrap();
    };
    level(&mut ctx, 2, 1);
    assert_eq!(sample(&mut ctx), INCOMPLETE, "level 1 is missing");
    level(&mut ctx, 1, 2);
    assert_eq!(sample(&mut ctx), SAMPLED);
}

#[test]
fn base_and_max_level_bound_the_levels_needed() {
    let mut ctx = ctx_with(TEX_2D);
    texture_2d(&mut ctx, 4);
    // MAX_LEVEL 0: level 0 is the whole chain.
    param(&mut ctx, gl::TEXTURE_2D, gl::TEXTURE_MAX_LEVEL, 0);
    assert_eq!(sample(&mut ctx), SAMPLED);
    // BASE_LEVEL above MAX_LEVEL is incomplete under a mipmap filter.
    param(&mut ctx, gl::TEXTURE_2D, gl::TEXTURE_BASE_LEVEL, 1);
    assert_eq!(sample(&mut ctx), INCOMPLETE);
    // A base level without an image is incomplete whatever the filter.
    param(&mut ctx, gl::TEXTURE_2D, gl::TEXTURE_MAX_LEVEL, 1000);
    param(
        &mut ctx,
        gl::TEXTURE_2D,
        gl::TEXTURE_MIN_FILTER,
        gl::NEAREST,
    );
    assert_eq!(sample(&mut ctx), INCOMPLETE);
    ctx.tex_image_2d(
        gl::TEXTURE_2D,
        1,
        gl::RGBA8,
        2,
        2,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        Some(&TEXEL.repeat(4)),
    )
    .unwrap();
    assert_eq!(sample(&mut ctx), SAMPLED);
}

#[test]
fn a_cube_map_needs_all_six_faces() {
    let fp = "!!NVfp5.0\nTEX result.color, {1, 0.2, 0.3, 0}, texture[0], CUBE;\nEND\n";
    let mut ctx = ctx_with(fp);
    ctx.bind_texture(gl::TEXTURE_CUBE_MAP, 3).unwrap();
    param(
        &mut ctx,
        gl::TEXTURE_CUBE_MAP,
        gl::TEXTURE_MIN_FILTER,
        gl::NEAREST,
    );
    for face in 0..6 {
        assert_eq!(sample(&mut ctx), INCOMPLETE, "{face} faces");
        let target = gl::TEXTURE_CUBE_MAP_POSITIVE_X + face;
        ctx.tex_image_2d(
            target,
            0,
            gl::RGBA8,
            2,
            2,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&TEXEL.repeat(4)),
        )
        .unwrap();
    }
    assert_eq!(sample(&mut ctx), SAMPLED);
}

#[test]
fn integer_textures_must_be_filtered_nearest() {
    let fp = "!!NVfp5.0\nUINT TEMP v;\nTEX.U v, fragment.texcoord[0], texture[0], 2D;\nI2F.U result.color, v;\nEND\n";
    let mut ctx = ctx_with(fp);
    ctx.bind_texture(gl::TEXTURE_2D, 4).unwrap();
    let texel = [1u8, 0, 1, 1].repeat(4);
    ctx.tex_image_2d(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8UI,
        2,
        2,
        gl::RGBA_INTEGER,
        gl::UNSIGNED_BYTE,
        Some(&texel),
    )
    .unwrap();
    param(
        &mut ctx,
        gl::TEXTURE_2D,
        gl::TEXTURE_MIN_FILTER,
        gl::NEAREST,
    );
    // The default mag filter is LINEAR.
    assert_eq!(sample(&mut ctx), INCOMPLETE);
    param(
        &mut ctx,
        gl::TEXTURE_2D,
        gl::TEXTURE_MAG_FILTER,
        gl::NEAREST,
    );
    assert_eq!(sample(&mut ctx), [1.0, 0.0, 1.0, 1.0]);
    ctx.generate_mipmap(gl::TEXTURE_2D).unwrap_err(); // not for integer formats
    ctx.tex_image_2d(
        gl::TEXTURE_2D,
        1,
        gl::RGBA8UI,
        1,
        1,
        gl::RGBA_INTEGER,
        gl::UNSIGNED_BYTE,
        Some(&texel[..4]),
    )
    .unwrap();
    param(
        &mut ctx,
        gl::TEXTURE_2D,
        gl::TEXTURE_MIN_FILTER,
        gl::NEAREST_MIPMAP_NEAREST,
    );
    assert_eq!(sample(&mut ctx), [1.0, 0.0, 1.0, 1.0]);
    param(
        &mut ctx,
        gl::TEXTURE_2D,
        gl::TEXTURE_MIN_FILTER,
        gl::NEAREST_MIPMAP_LINEAR,
    );
    assert_eq!(sample(&mut ctx), INCOMPLETE);
}

#[test]
fn a_sampler_object_decides_with_its_own_filters() {
    let mut ctx = ctx_with(TEX_2D);
    texture_2d(&mut ctx, 4);
    assert_eq!(sample(&mut ctx), INCOMPLETE);
    let s = ctx.gen_samplers(1).unwrap()[0];
    ctx.sampler_parameter_i(s, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32)
        .unwrap();
    ctx.bind_sampler(0, s).unwrap();
    assert_eq!(sample(&mut ctx), SAMPLED);
}
