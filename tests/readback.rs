//! `read_pixels` per format/type pair against GL's conversion formulas (GL 4.6 §18.2):
//! what the read buffer stores comes back, converted as GL converts it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::{gl, Context, GlError};

/// A 4x4 framebuffer object whose colour attachment is a renderbuffer of `format`.
fn fbo_with(format: u32) -> Context {
    let mut ctx = Context::new(4, 4).unwrap();
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    ctx.bind_renderbuffer(gl::RENDERBUFFER, 1).unwrap();
    ctx.renderbuffer_storage(gl::RENDERBUFFER, format, 4, 4)
        .unwrap();
    ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, 1)
        .unwrap();
    ctx
}

/// A 4x4 framebuffer object rendering into a texture of `internal` filled with `data`.
fn texture_fbo(internal: u32, format: u32, ty: u32, data: &[u8]) -> Context {
    let mut ctx = Context::new(4, 4).unwrap();
    ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
    ctx.tex_image_2d(gl::TEXTURE_2D, 0, internal, 4, 4, format, ty, Some(data))
        .unwrap();
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, 1, 0)
        .unwrap();
    assert_eq!(
        ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap(),
        gl::FRAMEBUFFER_COMPLETE
    );
    ctx
}

fn one<T: bytemuck::Pod>(ctx: &Context, format: u32, ty: u32) -> Vec<T> {
    ctx.read_pixels_as(1, 2, 1, 1, format, ty).unwrap()
}

const VALUE: [f32; 4] = [0.123_456, 2.5, -1.0, 1.0];

#[test]
fn float_buffers_read_back_unclamped() {
    let mut ctx = fbo_with(gl::RGBA32F);
    ctx.clear_color(VALUE).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    assert_eq!(one::<[f32; 4]>(&ctx, gl::RGBA, gl::FLOAT), [VALUE]);
    assert_eq!(ctx.read_pixel(3, 3).unwrap(), VALUE);
    // Unsigned normalized: round(clamp(f, 0, 1) × (2^b − 1)).
    assert_eq!(
        one::<[u8; 4]>(&ctx, gl::RGBA, gl::UNSIGNED_BYTE),
        [[31, 255, 0, 255]]
    );
    let us = one::<[u16; 4]>(&ctx, gl::RGBA, gl::UNSIGNED_SHORT);
    assert_eq!(us, [[8091, 65535, 0, 65535]]);
    // Signed normalized: round(clamp(f, −1, 1) × (2^(b−1) − 1)).
    assert_eq!(
        one::<[i8; 4]>(&ctx, gl::RGBA, gl::BYTE),
        [[16, 127, -127, 127]]
    );
    let ints = one::<[i32; 4]>(&ctx, gl::RGBA, gl::INT);
    assert_eq!(ints, [[265_119_744, i32::MAX, -i32::MAX, i32::MAX]]);
    let halves = one::<[u16; 2]>(&ctx, gl::BGR, gl::HALF_FLOAT);
    assert_eq!(halves.len(), 2, "3 halves, padded to 8 bytes");
    let h = ctx
        .read_pixels(1, 2, 1, 1, gl::BGR, gl::HALF_FLOAT)
        .unwrap();
    let f16s: Vec<f32> = h[..6]
        .chunks(2)
        .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
        .collect();
    assert_eq!(f16s, [-1.0, 2.5, half::f16::from_f32(0.123_456).to_f32()]);
    assert_eq!(one::<f32>(&ctx, gl::GREEN, gl::FLOAT), [2.5]);
    assert_eq!(
        one::<f32>(&ctx, gl::LUMINANCE, gl::FLOAT),
        [0.123_456 + 2.5 - 1.0]
    );
}

#[test]
fn half_float_buffers_round_to_half_precision() {
    let mut ctx = fbo_with(gl::RGBA16F);
    ctx.clear_color([0.1, 1000.0, -3.0, 0.5]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    let want = [0.1f32, 1000.0, -3.0, 0.5].map(|v| half::f16::from_f32(v).to_f32());
    assert_eq!(one::<[f32; 4]>(&ctx, gl::RGBA, gl::FLOAT), [want]);
}

#[test]
fn fixed_point_buffers_read_n_over_255() {
    let mut ctx = Context::new(4, 4).unwrap();
    ctx.clear_color([0.2, 0.5, 1.5, -1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    let f = one::<[f32; 4]>(&ctx, gl::RGBA, gl::FLOAT);
    assert_eq!(f, [[51.0 / 255.0, 128.0 / 255.0, 1.0, 0.0]]);
    assert_eq!(
        one::<[u8; 4]>(&ctx, gl::BGRA, gl::UNSIGNED_BYTE),
        [[255, 128, 51, 0]]
    );
    // One 2-byte group, padded to 4 (PACK_ALIGNMENT).
    let packed = one::<u16>(&ctx, gl::RGB, gl::UNSIGNED_SHORT_5_6_5);
    let r5 = (51.0f64 / 255.0 * 31.0).round() as u16;
    let g6 = (128.0f64 / 255.0 * 63.0).round() as u16;
    assert_eq!(packed, [r5 << 11 | g6 << 5 | 31, 0]);
    let rev = one::<u32>(&ctx, gl::RGBA, gl::UNSIGNED_INT_8_8_8_8_REV);
    assert_eq!(rev, [u32::from_le_bytes([51, 128, 255, 0])]);
}

#[test]
fn integer_buffers_read_their_integers() {
    let v: u32 = 123_456_789;
    let ctx = texture_fbo(
        gl::R32UI,
        gl::RED_INTEGER,
        gl::UNSIGNED_INT,
        bytemuck::cast_slice(&[v; 16]),
    );
    assert_eq!(one::<u32>(&ctx, gl::RED_INTEGER, gl::UNSIGNED_INT), [v]);
    // An R32UI image reads as (R, 0, 0, 1); integers clamp to the type.
    assert_eq!(
        one::<[u32; 4]>(&ctx, gl::RGBA_INTEGER, gl::UNSIGNED_INT),
        [[v, 0, 0, 1]]
    );
    assert_eq!(
        one::<[u8; 4]>(&ctx, gl::RGBA_INTEGER, gl::UNSIGNED_BYTE),
        [[255, 0, 0, 1]]
    );
    assert_eq!(
        one::<[i16; 2]>(&ctx, gl::RG_INTEGER, gl::SHORT),
        [[i16::MAX, 0]]
    );
    for (format, ty) in [(gl::RGBA, gl::FLOAT), (gl::RED, gl::UNSIGNED_BYTE)] {
        let e = ctx.read_pixels(0, 0, 1, 1, format, ty).unwrap_err();
        assert_eq!(e.gl, GlError::InvalidOperation, "{format:#x}/{ty:#x}");
    }
    let e = ctx
        .read_pixels(0, 0, 1, 1, gl::RGBA_INTEGER, gl::FLOAT)
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidOperation);
    assert_eq!(
        ctx.read_pixel(0, 0).unwrap_err().gl,
        GlError::InvalidOperation
    );
    assert_eq!(ctx.read_image().unwrap_err().gl, GlError::InvalidOperation);
}

#[test]
fn signed_integer_buffers_clamp_per_type() {
    let v: [i32; 4] = [-5, 70_000, i32::MIN, 7];
    let ctx = texture_fbo(
        gl::RGBA32I,
        gl::RGBA_INTEGER,
        gl::INT,
        bytemuck::cast_slice(&[v; 16]),
    );
    assert_eq!(one::<[i32; 4]>(&ctx, gl::RGBA_INTEGER, gl::INT), [v]);
    assert_eq!(
        one::<[u16; 4]>(&ctx, gl::RGBA_INTEGER, gl::UNSIGNED_SHORT),
        [[0, 65535, 0, 7]]
    );
    assert_eq!(
        one::<[i8; 4]>(&ctx, gl::BGRA_INTEGER, gl::BYTE),
        [[-128, 127, -5, 7]]
    );
}

#[test]
fn textures_of_fewer_components_read_zero_and_one() {
    let ctx = texture_fbo(gl::RG8, gl::RG, gl::UNSIGNED_BYTE, &[10u8, 20].repeat(16));
    assert_eq!(
        one::<[u8; 4]>(&ctx, gl::RGBA, gl::UNSIGNED_BYTE),
        [[10, 20, 0, 255]]
    );
}

#[test]
fn pack_alignment_pads_rows() {
    let mut ctx = Context::new(4, 4).unwrap();
    ctx.clear_color([1.0, 0.0, 0.0, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    for (align, row) in [(1, 9), (2, 10), (4, 12), (8, 16)] {
        ctx.pixel_store_i(gl::PACK_ALIGNMENT, align).unwrap();
        let px = ctx
            .read_pixels(0, 0, 3, 2, gl::RGB, gl::UNSIGNED_BYTE)
            .unwrap();
        assert_eq!(px.len(), 2 * row, "alignment {align}");
        assert_eq!(&px[row..row + 3], [255, 0, 0], "alignment {align}");
    }
    assert_eq!(
        ctx.pixel_store_i(gl::PACK_ALIGNMENT, 3).unwrap_err().gl,
        GlError::InvalidValue
    );
}

#[test]
fn depth_and_stencil_read_back() {
    let mut ctx = Context::new(4, 4).unwrap();
    ctx.clear_depth(0.5).unwrap();
    ctx.clear_stencil(0x5a).unwrap();
    ctx.clear(gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT)
        .unwrap();
    let d24 = (0.5f64 * 16_777_215.0).round() / 16_777_215.0;
    assert_eq!(
        one::<f32>(&ctx, gl::DEPTH_COMPONENT, gl::FLOAT),
        [d24 as f32]
    );
    // One group each, its row padded to 4 bytes.
    let d16 = one::<u16>(&ctx, gl::DEPTH_COMPONENT, gl::UNSIGNED_SHORT);
    assert_eq!(d16, [32768, 0]);
    let s8 = one::<u8>(&ctx, gl::STENCIL_INDEX, gl::UNSIGNED_BYTE);
    assert_eq!(s8, [0x5a, 0, 0, 0]);
    assert_eq!(one::<f32>(&ctx, gl::STENCIL_INDEX, gl::FLOAT), [90.0]);
    let ds = one::<u32>(&ctx, gl::DEPTH_STENCIL, gl::UNSIGNED_INT_24_8);
    assert_eq!(ds, [0x80_0000 << 8 | 0x5a]);
    let e = ctx
        .read_pixels(0, 0, 1, 1, gl::DEPTH_STENCIL, gl::FLOAT)
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidEnum);
    // A framebuffer object with no depth attachment has no depth to read.
    let ctx = fbo_with(gl::RGBA8);
    let e = ctx
        .read_pixels(0, 0, 1, 1, gl::DEPTH_COMPONENT, gl::FLOAT)
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidOperation);
}

#[test]
fn rectangles_reaching_outside_read_what_is_inside() {
    let mut ctx = Context::new(4, 4).unwrap();
    ctx.clear_color([0.0, 1.0, 0.0, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    let px: Vec<[u8; 4]> = ctx
        .read_pixels_as(3, -1, 2, 2, gl::RGBA, gl::UNSIGNED_BYTE)
        .unwrap();
    // Row y = -1 and column x = 4 are outside: left zero.
    assert_eq!(px, [[0; 4], [0; 4], [0, 255, 0, 255], [0; 4]]);
    let e = ctx
        .read_pixels(0, 0, -1, 1, gl::RGBA, gl::UNSIGNED_BYTE)
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidValue);
    let e = ctx
        .read_pixels(0, 0, i32::MAX, i32::MAX, gl::RGBA, gl::FLOAT)
        .unwrap_err();
    assert_eq!(e.gl, GlError::OutOfMemory);
}

#[test]
fn multisampled_reads() {
    // The default framebuffer resolves; a multisampled framebuffer object must be
    // resolved by a blit first.
    let mut ctx = Context::with_samples(70, 3, 4).unwrap();
    ctx.clear_color([0.25, 0.5, 0.75, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    let img = ctx.read_image().unwrap();
    let rows = ctx
        .read_pixels(0, 0, 70, 3, gl::RGBA, gl::UNSIGNED_BYTE)
        .unwrap();
    assert_eq!(img.as_raw()[..280], rows[2 * 280..]);
    assert_eq!(img.get_pixel(69, 2).0, [64, 128, 191, 255]);
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    ctx.bind_renderbuffer(gl::RENDERBUFFER, 1).unwrap();
    ctx.renderbuffer_storage_multisample(gl::RENDERBUFFER, 4, gl::RGBA8, 4, 4)
        .unwrap();
    ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, 1)
        .unwrap();
    let e = ctx
        .read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE)
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidOperation);
}

#[test]
fn reads_are_identical_at_any_thread_count() {
    let mut ctx = Context::new(130, 70).unwrap();
    ctx.clear_color([0.3, 0.6, 0.9, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    let mut seen = Vec::new();
    for t in [1, 2, 3] {
        ctx.set_threads(t).unwrap();
        let a = ctx.read_image().unwrap().into_raw();
        let b = ctx
            .read_pixels(1, 1, 129, 69, gl::BGRA, gl::UNSIGNED_BYTE)
            .unwrap();
        seen.push((a, b));
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn read_image_and_save_png_see_the_read_framebuffer() {
    let mut ctx = fbo_with(gl::RGBA8);
    ctx.clear_color([1.0, 0.0, 1.0, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    let img = ctx.read_image().unwrap();
    assert_eq!(img.dimensions(), (4, 4));
    let path = std::env::temp_dir().join(format!("glemu-readback-{}.png", std::process::id()));
    ctx.save_png(&path).unwrap();
    let back = image::open(&path).unwrap().to_rgba8();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(back, img);
    let e = ctx.save_png("/nonexistent-dir/x.png").unwrap_err();
    assert!(e.to_string().contains("/nonexistent-dir/x.png"), "{e}");
}
