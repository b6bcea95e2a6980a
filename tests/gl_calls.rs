//! GL calls an app reaches for: indexed blend state, matrix stacks, strings and float
//! queries, batched program parameters — each checked through what it changes.

use glemu::{gl, Context};

/// A framebuffer object with two RGBA8 colour attachments, both draw buffers on, and a
/// fragment program writing `(0.5, 0.5, 0.5, 0.5)` to both outputs over the whole 4x4.
fn two_buffers() -> Context {
    let mut ctx = Context::new(4, 4).unwrap();
    let f = ctx.gen_framebuffers(1)[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    for (i, rb) in ctx.gen_renderbuffers(2).into_iter().enumerate() {
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
    let fp = "!!NVfp5.0\nOUTPUT c0 = result.color[0];\nOUTPUT c1 = result.color[1];\nMOV c0, 0.5;\nMOV c1, 0.5;\nEND\n";
    ctx.bind_program(gl::VERTEX_PROGRAM_ARB, 1).unwrap();
    ctx.program_string(gl::VERTEX_PROGRAM_ARB, vp).unwrap();
    ctx.enable(gl::VERTEX_PROGRAM_ARB).unwrap();
    ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 2).unwrap();
    ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, fp).unwrap();
    ctx.enable(gl::FRAGMENT_PROGRAM_ARB).unwrap();
    let quad: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    ctx.buffer_data(
        gl::ARRAY_BUFFER,
        bytemuck::cast_slice(&quad),
        gl::STATIC_DRAW,
    )
    .unwrap();
    ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 0, 0)
        .unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
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
