//! GL calls an app reaches for: indexed blend state, matrix stacks, strings and float
//! queries, batched program parameters — each checked through what it changes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod common;

use glemu::{gl, Context};

/// A framebuffer object with two RGBA8 colour attachments, both draw buffers on, and a
/// fragment program writing `(0.5, 0.5, 0.5, 0.5)` to both outputs over the whole 4x4.
fn two_buffers() -> Context {
    let mut ctx = Context::new(4, 4).unwrap();
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    for (i, rb) in ctx.gen_renderbuffers(2).unwrap().into_iter().enumerate() {
        ctx.bind_renderbuffer(gl::RENDERBUFFER, rb).unwrap();
        ctx.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, 4, 4)
            .unwrap();
        let at = gl::COLOR_ATTACHMENT0 + i as u32;
        ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, at, gl::RENDERBUFFER, rb)
            .unwrap();
    }
    ctx.draw_buffers(&[gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT0 + 1])
        .unwrap();
    let vp = "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nEND\n";
    let fp = "!!NVfp5.0\nOPTION ARB_draw_buffers;\nOUTPUT c0 = result.color[0];\nOUTPUT c1 = result.color[1];\nMOV c0, 0.5;\nMOV c1, 0.5;\nEND\n";
    common::programs(&mut ctx, vp, fp);
    common::fullscreen_strip(&mut ctx);
    ctx
}

fn pixel_of(ctx: &mut Context, buffer: u32) -> [u8; 4] {
    ctx.read_buffer(gl::COLOR_ATTACHMENT0 + buffer).unwrap();
    let px: Vec<[u8; 4]> = ctx
        .read_pixels_as(1, 1, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE)
        .unwrap();
    px[0]
}

#[test]
fn each_draw_buffer_blends_and_masks_on_its_own() {
    let mut ctx = two_buffers();
    ctx.clear_color([0.25; 4]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    // Buffer 0 adds, buffer 1 replaces but keeps only red.
    ctx.enable_i(gl::BLEND, 0).unwrap();
    ctx.blend_func_i(0, gl::ONE, gl::ONE).unwrap();
    ctx.blend_func_i(1, gl::ZERO, gl::ONE).unwrap(); // would keep the old colour if on
    ctx.color_mask_i(1, [true, false, false, false]).unwrap();
    ctx.draw_arrays(gl::TRIANGLE_STRIP, 0, 4).unwrap();
    assert_eq!(pixel_of(&mut ctx, 0), [192; 4]);
    assert_eq!(pixel_of(&mut ctx, 1), [128, 64, 64, 64]);
    assert!(ctx.is_enabled_i(gl::BLEND, 0).unwrap());
    assert!(!ctx.is_enabled_i(gl::BLEND, 1).unwrap());
    // Clears take each buffer's mask too.
    ctx.clear_color([1.0; 4]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    assert_eq!(pixel_of(&mut ctx, 0), [255; 4]);
    assert_eq!(pixel_of(&mut ctx, 1), [255, 64, 64, 64]);
    // The unindexed calls set every buffer again.
    ctx.color_mask([true; 4]).unwrap();
    ctx.disable(gl::BLEND).unwrap();
    ctx.draw_arrays(gl::TRIANGLE_STRIP, 0, 4).unwrap();
    assert_eq!(pixel_of(&mut ctx, 0), [128; 4]);
    assert_eq!(pixel_of(&mut ctx, 1), [128; 4]);
}

fn modelview(ctx: &Context) -> Vec<f32> {
    ctx.get_float_v(gl::MODELVIEW_MATRIX).unwrap()
}

#[test]
fn matrix_calls_give_gls_matrices() {
    let mut ctx = Context::new(4, 4).unwrap();
    ctx.translate(1.0, 2.0, 3.0).unwrap();
    ctx.scale(2.0, 2.0, 2.0).unwrap();
    #[rustfmt::skip]
    let want = [
        2.0, 0.0, 0.0, 0.0,
        0.0, 2.0, 0.0, 0.0,
        0.0, 0.0, 2.0, 0.0,
        1.0, 2.0, 3.0, 1.0,
    ];
    assert_eq!(modelview(&ctx), want);
    ctx.push_matrix().unwrap();
    // 90 degrees about x: y goes to z, z to -y (GL 4.6 compatibility, 12.1.1).
    ctx.load_identity().unwrap();
    ctx.rotate(90.0, 1.0, 0.0, 0.0).unwrap();
    let m = modelview(&ctx);
    let c = (std::f64::consts::FRAC_PI_2).cos() as f32; // 6.1e-17, not 0
    #[rustfmt::skip]
    let rot = [
        1.0, 0.0, 0.0, 0.0,
        0.0, c, 1.0, 0.0,
        0.0, -1.0, c, 0.0,
        0.0, 0.0, 0.0, 1.0,
    ];
    assert_eq!(m, rot);
    assert_eq!(ctx.get_integer_v(gl::MODELVIEW_STACK_DEPTH).unwrap(), [2]);
    ctx.pop_matrix().unwrap();
    assert_eq!(modelview(&ctx), want);
    // glOrtho and glFrustum multiply the projection as GL 4.6 compatibility 12.1.1 says.
    ctx.matrix_mode(gl::PROJECTION).unwrap();
    ctx.ortho(0.0, 4.0, 0.0, 2.0, -1.0, 1.0).unwrap();
    let p = ctx.get_float_v(gl::PROJECTION_MATRIX).unwrap();
    assert_eq!(
        [p[0], p[5], p[10], p[12], p[13], p[14]],
        [0.5, 1.0, -1.0, -1.0, -1.0, 0.0]
    );
    ctx.load_identity().unwrap();
    ctx.frustum(-1.0, 1.0, -1.0, 1.0, 1.0, 3.0).unwrap();
    let p = ctx.get_float_v(gl::PROJECTION_MATRIX).unwrap();
    assert_eq!(
        [p[0], p[5], p[10], p[11], p[14], p[15]],
        [1.0, 1.0, -2.0, -1.0, -3.0, 0.0]
    );
}

#[test]
fn texture_matrix_stacks_are_per_unit() {
    let mut ctx = Context::new(4, 4).unwrap();
    ctx.matrix_mode(gl::TEXTURE).unwrap();
    ctx.active_texture(1).unwrap();
    ctx.push_matrix().unwrap();
    assert_eq!(ctx.get_integer_v(gl::TEXTURE_STACK_DEPTH).unwrap(), [2]);
    ctx.active_texture(0).unwrap();
    assert_eq!(ctx.get_integer_v(gl::TEXTURE_STACK_DEPTH).unwrap(), [1]);
    assert!(ctx.pop_matrix().is_err());
}

#[test]
fn strings_and_counts_agree() {
    let ctx = Context::new(4, 4).unwrap();
    let n = ctx.get_integer_v(gl::NUM_EXTENSIONS).unwrap()[0] as u32;
    let listed: Vec<String> = (0..n)
        .map(|i| ctx.get_string_i(gl::EXTENSIONS, i).unwrap())
        .collect();
    assert_eq!(ctx.get_string(gl::EXTENSIONS).unwrap(), listed.join(" "));
    let v = ctx.get_string(gl::VERSION).unwrap();
    let major = ctx.get_integer_v(gl::MAJOR_VERSION).unwrap()[0];
    let minor = ctx.get_integer_v(gl::MINOR_VERSION).unwrap()[0];
    assert!(v.starts_with(&format!("{major}.{minor} ")), "{v}");
    assert!(!ctx.get_string(gl::RENDERER).unwrap().is_empty());
}

#[test]
fn batched_parameters_take_glam_vectors() {
    let mut ctx = Context::new(4, 4).unwrap();
    let rows = [glam::Vec4::X, glam::Vec4::new(0.0, 2.0, 0.0, 0.5)];
    ctx.program_env_parameters_4fv(gl::FRAGMENT_PROGRAM_ARB, 10, &rows)
        .unwrap();
    let got = ctx
        .get_program_env_parameter(gl::FRAGMENT_PROGRAM_ARB, 11)
        .unwrap();
    assert_eq!(got.map(f32::from_bits), [0.0, 2.0, 0.0, 0.5]);
    // Nothing is written when the range runs past the end.
    assert!(ctx
        .program_env_parameters_4fv(gl::FRAGMENT_PROGRAM_ARB, 255, &rows)
        .is_err());
    assert_eq!(
        ctx.get_program_env_parameter(gl::FRAGMENT_PROGRAM_ARB, 255)
            .unwrap(),
        [0; 4]
    );
}

/// A 4x4 context drawing a full-screen quad through fragment program `fp`.
fn quad_with(fp: &str) -> Context {
    let mut ctx = Context::new(4, 4).unwrap();
    let vp = "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nEND\n";
    common::programs(&mut ctx, vp, fp);
    common::fullscreen_strip(&mut ctx);
    ctx
}

fn drawn(ctx: &mut Context) -> [f32; 4] {
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.draw_arrays(gl::TRIANGLE_STRIP, 0, 4).unwrap();
    ctx.read_pixel(1, 1).unwrap()
}

#[test]
fn buffer_textures_read_the_buffer_at_draw_time() {
    let fp = "!!NVfp5.0\nTEMP t;\nTXF t, {2, 0, 0, 0}, texture[0], BUFFER;\nMUL result.color, t.x, 0.25;\nEND\n";
    let mut ctx = quad_with(fp);
    let b = ctx.create_buffer().unwrap();
    ctx.bind_buffer(gl::TEXTURE_BUFFER, b).unwrap();
    ctx.buffer_data(
        gl::TEXTURE_BUFFER,
        &[1.0f32, 2.0, 3.0, 4.0],
        gl::DYNAMIC_DRAW,
    )
    .unwrap();
    let t = ctx.create_texture(gl::TEXTURE_BUFFER).unwrap();
    ctx.bind_texture(gl::TEXTURE_BUFFER, t).unwrap();
    ctx.tex_buffer(gl::TEXTURE_BUFFER, gl::R32F, b).unwrap();
    let unorm = |v: f32| (v * 255.0).round() / 255.0;
    assert_eq!(drawn(&mut ctx), [unorm(0.75); 4]);
    // A later write to the buffer is what the next draw reads.
    ctx.buffer_sub_data(gl::TEXTURE_BUFFER, 8, &[2.0f32])
        .unwrap();
    assert_eq!(drawn(&mut ctx), [unorm(0.5); 4]);
    // A range of the first 8 bytes: texel 2 lies past it, so reads 0.
    ctx.tex_buffer_range(gl::TEXTURE_BUFFER, gl::R32F, b, 0, 8)
        .unwrap();
    assert_eq!(drawn(&mut ctx), [0.0; 4]);
}

#[test]
fn immutable_storage_is_complete_and_fixed() {
    let fp = "!!NVfp5.0\nTEX result.color, {0.5, 0.5, 0, 0}, texture[0], 2D;\nEND\n";
    let mut ctx = quad_with(fp);
    let t = ctx.create_texture(gl::TEXTURE_2D).unwrap();
    ctx.bind_texture(gl::TEXTURE_2D, t).unwrap();
    ctx.tex_storage_2d(gl::TEXTURE_2D, 2, gl::RGBA8, 2, 2)
        .unwrap();
    let red = [255u8, 0, 0, 255];
    ctx.tex_sub_image(
        gl::TEXTURE_2D,
        0,
        [0, 0, 0],
        [2, 2, 1],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &red.repeat(4),
    )
    .unwrap();
    ctx.tex_sub_image(
        gl::TEXTURE_2D,
        1,
        [0, 0, 0],
        [1, 1, 1],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &red,
    )
    .unwrap();
    // The default NEAREST_MIPMAP_LINEAR filter finds both levels.
    assert_eq!(drawn(&mut ctx), [1.0, 0.0, 0.0, 1.0]);
    let e = ctx.generate_mipmap(gl::TEXTURE_2D).map(|_| ());
    assert!(e.is_ok(), "{e:?}");
    let e = ctx.tex_image_2d(
        gl::TEXTURE_2D,
        1,
        gl::RGBA8,
        1,
        1,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    );
    assert_eq!(e.unwrap_err().gl, glemu::GlError::InvalidOperation);
}

#[test]
fn clear_buffer_clears_one_buffer() {
    let mut ctx = two_buffers();
    ctx.clear_color([0.0; 4]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.clear_buffer_fv(gl::COLOR, 1, &[1.0, 0.5, 0.0, 1.0])
        .unwrap();
    assert_eq!(pixel_of(&mut ctx, 0), [0; 4]);
    assert_eq!(pixel_of(&mut ctx, 1), [255, 128, 0, 255]);
    // Under the scissor test and the draw buffer's colour mask.
    ctx.enable(gl::SCISSOR_TEST).unwrap();
    ctx.scissor(0, 0, 1, 1).unwrap();
    ctx.color_mask_i(0, [false, true, false, false]).unwrap();
    ctx.clear_buffer_fv(gl::COLOR, 0, &[1.0; 4]).unwrap();
    assert_eq!(pixel_of(&mut ctx, 0), [0; 4], "outside the scissor box");
    ctx.read_buffer(gl::COLOR_ATTACHMENT0).unwrap();
    let px: Vec<[u8; 4]> = ctx
        .read_pixels_as(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE)
        .unwrap();
    assert_eq!(px[0], [0, 255, 0, 0]);
}

#[test]
fn clear_buffer_of_integers_depth_and_stencil() {
    let mut ctx = Context::new(4, 4).unwrap();
    let t = ctx.create_texture(gl::TEXTURE_2D).unwrap();
    ctx.bind_texture(gl::TEXTURE_2D, t).unwrap();
    ctx.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA32I, 4, 4)
        .unwrap();
    let f = ctx.create_framebuffer().unwrap();
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, t, 0)
        .unwrap();
    ctx.clear_buffer_iv(gl::COLOR, 0, &[-7, 1 << 30, 0, 1])
        .unwrap();
    let px: Vec<[i32; 4]> = ctx
        .read_pixels_as(2, 2, 1, 1, gl::RGBA_INTEGER, gl::INT)
        .unwrap();
    assert_eq!(px[0], [-7, 1 << 30, 0, 1]);
    ctx.bind_framebuffer(gl::FRAMEBUFFER, 0).unwrap();
    ctx.clear_buffer_fi(gl::DEPTH_STENCIL, 0, 0.25, 0x1ff)
        .unwrap();
    assert_eq!(ctx.read_stencil(1, 1).unwrap(), 0xff);
    assert!((ctx.read_depth(1, 1).unwrap() - 0.25).abs() < 1e-7);
    ctx.depth_mask(false).unwrap();
    ctx.clear_buffer_fv(gl::DEPTH, 0, &[1.0]).unwrap();
    assert!(
        (ctx.read_depth(1, 1).unwrap() - 0.25).abs() < 1e-7,
        "depth mask off"
    );
}

#[test]
fn parameter_buffer_words_reach_programs() {
    // BUFFER4 elements are vec4s (a plain BUFFER indexes single words).
    let fp = "!!NVfp5.0\nBUFFER4 buf[] = { program.buffer[3] };\nMOV result.color, buf[1];\nEND\n";
    let mut ctx = quad_with(fp);
    let b = ctx.create_buffer().unwrap();
    ctx.bind_buffer(gl::UNIFORM_BUFFER, b).unwrap();
    ctx.buffer_data_size(gl::UNIFORM_BUFFER, 32, gl::DYNAMIC_DRAW)
        .unwrap();
    ctx.bind_buffer_base(gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV, 3, b)
        .unwrap();
    ctx.program_buffer_parameters_fv(gl::FRAGMENT_PROGRAM_ARB, 3, 4, &[0.0, 1.0, 0.5, 1.0])
        .unwrap();
    assert_eq!(drawn(&mut ctx), [0.0, 1.0, 128.0 / 255.0, 1.0]);
}
