//! Copies into textures: glCopyTexImage/glCopyTexSubImage from the read framebuffer, and
//! glCopyImageSubData between textures. Results are read back through a framebuffer
//! object the texture is attached to.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::{gl, Context, GlError};

/// A `w`x`h` texture of `format` bound to `TEXTURE_2D` as immutable storage.
fn texture(ctx: &mut Context, format: u32, w: i32, h: i32) -> u32 {
    let t = ctx.create_texture(gl::TEXTURE_2D).unwrap();
    ctx.bind_texture(gl::TEXTURE_2D, t).unwrap();
    ctx.tex_storage_2d(gl::TEXTURE_2D, 1, format, w, h).unwrap();
    t
}

/// Binds a framebuffer object reading (and drawing) texture `t`'s level 0 through
/// `attachment`.
fn read_through(ctx: &mut Context, t: u32, attachment: u32) {
    let f = ctx.create_framebuffer().unwrap();
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, attachment, gl::TEXTURE_2D, t, 0)
        .unwrap();
}

#[test]
fn copy_tex_image_keeps_float_values_and_clamps_into_unorm() {
    let mut ctx = Context::new(4, 4).unwrap();
    let src = texture(&mut ctx, gl::RGBA32F, 4, 4);
    read_through(&mut ctx, src, gl::COLOR_ATTACHMENT0);
    let v = [0.123456, 2.5, -1.0, 1.0];
    ctx.clear_buffer_fv(gl::COLOR, 0, &v).unwrap();
    // Into a float texture: the stored values exactly.
    let exact = ctx.create_texture(gl::TEXTURE_2D).unwrap();
    ctx.bind_texture(gl::TEXTURE_2D, exact).unwrap();
    ctx.copy_tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA32F, 1, 1, 2, 2, 0)
        .unwrap();
    // Into RGBA8: clamped to [0, 1] and rounded to 8 bits.
    let unorm = ctx.create_texture(gl::TEXTURE_2D).unwrap();
    ctx.bind_texture(gl::TEXTURE_2D, unorm).unwrap();
    ctx.copy_tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, 0, 0, 2, 2, 0)
        .unwrap();
    read_through(&mut ctx, exact, gl::COLOR_ATTACHMENT0);
    let px: Vec<[f32; 4]> = ctx.read_pixels_as(0, 0, 2, 2, gl::RGBA, gl::FLOAT).unwrap();
    assert_eq!(px, vec![v; 4]);
    read_through(&mut ctx, unorm, gl::COLOR_ATTACHMENT0);
    let px: Vec<[u8; 4]> = ctx
        .read_pixels_as(1, 1, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE)
        .unwrap();
    let r = (0.123456f32 * 255.0).round() as u8;
    assert_eq!(px[0], [r, 255, 0, 255]);
}

#[test]
fn copy_tex_image_of_integers_and_depth() {
    let mut ctx = Context::new(4, 4).unwrap();
    let src = texture(&mut ctx, gl::R32UI, 4, 4);
    read_through(&mut ctx, src, gl::COLOR_ATTACHMENT0);
    ctx.clear_buffer_uiv(gl::COLOR, 0, &[123_456_789, 0, 0, 0])
        .unwrap();
    let dst = ctx.create_texture(gl::TEXTURE_2D).unwrap();
    ctx.bind_texture(gl::TEXTURE_2D, dst).unwrap();
    ctx.copy_tex_image_2d(gl::TEXTURE_2D, 0, gl::R32UI, 0, 0, 4, 4, 0)
        .unwrap();
    let e = ctx.copy_tex_image_2d(gl::TEXTURE_2D, 0, gl::R32I, 0, 0, 4, 4, 0);
    assert_eq!(e.unwrap_err().gl, GlError::InvalidOperation, "signedness");
    let e = ctx.copy_tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, 0, 0, 4, 4, 0);
    assert_eq!(
        e.unwrap_err().gl,
        GlError::InvalidOperation,
        "integer buffer"
    );
    read_through(&mut ctx, dst, gl::COLOR_ATTACHMENT0);
    let px: Vec<u32> = ctx
        .read_pixels_as(3, 3, 1, 1, gl::RED_INTEGER, gl::UNSIGNED_INT)
        .unwrap();
    assert_eq!(px, [123_456_789]);

    // Depth from the default framebuffer's depth buffer.
    ctx.bind_framebuffer(gl::FRAMEBUFFER, 0).unwrap();
    ctx.clear_depth(0.375).unwrap();
    ctx.clear(gl::DEPTH_BUFFER_BIT).unwrap();
    // The default depth buffer's own value (24-bit fixed point), copied unchanged.
    let want: Vec<f32> = ctx
        .read_pixels_as(2, 2, 1, 1, gl::DEPTH_COMPONENT, gl::FLOAT)
        .unwrap();
    assert!((want[0] - 0.375).abs() < 1e-6);
    let depth = ctx.create_texture(gl::TEXTURE_2D).unwrap();
    ctx.bind_texture(gl::TEXTURE_2D, depth).unwrap();
    ctx.copy_tex_image_2d(gl::TEXTURE_2D, 0, gl::DEPTH_COMPONENT32F, 0, 0, 4, 4, 0)
        .unwrap();
    read_through(&mut ctx, depth, gl::DEPTH_ATTACHMENT);
    let d: Vec<f32> = ctx
        .read_pixels_as(2, 2, 1, 1, gl::DEPTH_COMPONENT, gl::FLOAT)
        .unwrap();
    assert_eq!(d, want);
}

#[test]
fn copy_tex_sub_image_writes_one_layer() {
    let mut ctx = Context::new(4, 4).unwrap();
    ctx.clear_color([0.0, 1.0, 0.0, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    let t = ctx.create_texture(gl::TEXTURE_2D_ARRAY).unwrap();
    ctx.bind_texture(gl::TEXTURE_2D_ARRAY, t).unwrap();
    ctx.tex_storage_3d(gl::TEXTURE_2D_ARRAY, 1, gl::RGBA8, 4, 4, 3)
        .unwrap();
    ctx.copy_tex_sub_image_3d(gl::TEXTURE_2D_ARRAY, 0, 1, 0, 1, 0, 0, 2, 2)
        .unwrap();
    let f = ctx.create_framebuffer().unwrap();
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    let mut layers = Vec::new();
    for layer in 0..3 {
        ctx.framebuffer_texture_layer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, t, 0, layer)
            .unwrap();
        let row: Vec<[u8; 4]> = ctx
            .read_pixels_as(0, 0, 4, 1, gl::RGBA, gl::UNSIGNED_BYTE)
            .unwrap();
        layers.push(row);
    }
    let (g, z) = ([0, 255, 0, 255], [0; 4]);
    assert_eq!(layers[0], [z; 4]);
    assert_eq!(layers[1], [z, g, g, z], "texels 1..3 of row 0 of layer 1");
    assert_eq!(layers[2], [z; 4]);
}

#[test]
fn copy_image_sub_data_moves_bytes_between_formats() {
    let mut ctx = Context::new(4, 4).unwrap();
    let a = texture(&mut ctx, gl::RGBA8, 4, 4);
    let texels: Vec<u8> = (0..64).collect();
    ctx.tex_sub_image(
        gl::TEXTURE_2D,
        0,
        [0, 0, 0],
        [4, 4, 1],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &texels,
    )
    .unwrap();
    let b = texture(&mut ctx, gl::R32UI, 4, 4);
    // Texels (1, 2) and (2, 2) of `a` go to (0, 0) and (1, 0) of `b`, bit for bit.
    ctx.copy_image_sub_data(
        a,
        gl::TEXTURE_2D,
        0,
        [1, 2, 0],
        b,
        gl::TEXTURE_2D,
        0,
        [0, 0, 0],
        [2, 1, 1],
    )
    .unwrap();
    read_through(&mut ctx, b, gl::COLOR_ATTACHMENT0);
    let px: Vec<u32> = ctx
        .read_pixels_as(0, 0, 3, 1, gl::RED_INTEGER, gl::UNSIGNED_INT)
        .unwrap();
    let word = |i: u32| {
        u32::from_le_bytes([
            4 * i as u8,
            4 * i as u8 + 1,
            4 * i as u8 + 2,
            4 * i as u8 + 3,
        ])
    };
    assert_eq!(px, [word(9), word(10), 0]);
}
