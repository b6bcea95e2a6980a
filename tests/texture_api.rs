//! Texture uploads (every client format path, alignment, sub-images, compressed images)
//! and sampler objects, checked through pixels a fragment program samples.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::{gl, Context, GlError};

/// A context whose draws put texture unit 0 (2D) across a 4×4 framebuffer with
/// texcoords 0..1, one texel per pixel for a 4×4 texture.
fn textured_quad_ctx() -> Context {
    let mut ctx = Context::new(4, 4).unwrap();
    let vp = "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nMOV result.texcoord[0], vertex.attrib[1];\nEND\n";
    let fp = "!!NVfp5.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nEND\n";
    ctx.bind_program(gl::VERTEX_PROGRAM_ARB, 1).unwrap();
    ctx.program_string(gl::VERTEX_PROGRAM_ARB, vp).unwrap();
    ctx.enable(gl::VERTEX_PROGRAM_ARB).unwrap();
    ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 2).unwrap();
    ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, fp).unwrap();
    ctx.enable(gl::FRAGMENT_PROGRAM_ARB).unwrap();
    #[rustfmt::skip]
    let verts: [f32; 16] = [
        -1.0, -1.0, 0.0, 0.0,
         1.0, -1.0, 1.0, 0.0,
        -1.0,  1.0, 0.0, 1.0,
         1.0,  1.0, 1.0, 1.0,
    ];
    ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &verts, gl::STATIC_DRAW)
        .unwrap();
    ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 16, 0)
        .unwrap();
    ctx.vertex_attrib_pointer(1, 2, gl::FLOAT, false, 16, 8)
        .unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
    ctx.enable_vertex_attrib_array(1).unwrap();
    ctx.bind_texture(gl::TEXTURE_2D, 7).unwrap();
    ctx.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32)
        .unwrap();
    ctx.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32)
        .unwrap();
    ctx
}

/// Defines level 0 of the bound 2D texture from tightly packed RGBA8 bytes.
fn upload_rgba8(ctx: &mut Context, size: [u32; 2], data: &[u8]) {
    let (format, ty) = (gl::RGBA, gl::UNSIGNED_BYTE);
    ctx.tex_image(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8,
        [size[0], size[1], 1],
        format,
        ty,
        Some(data),
    )
    .unwrap();
}

/// Draws the quad and returns the 4×4 image as RGBA8, bottom row first.
fn draw(ctx: &mut Context) -> Vec<[u8; 4]> {
    ctx.clear_color([0.0, 0.0, 0.0, 0.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.draw_arrays(gl::TRIANGLE_STRIP, 0, 4).unwrap();
    ctx.read_pixels_as::<[f32; 4]>(0, 0, 4, 4, gl::RGBA, gl::FLOAT)
        .unwrap()
        .iter()
        .map(|p| p.map(|c| (c * 255.0).round() as u8))
        .collect()
}

#[test]
fn rgb_ubyte_rows_follow_unpack_alignment() {
    // A 3×1 RGB image is 9 bytes per row; with the default alignment of 4 each row takes
    // 12 bytes. Upload 4×2 texels: rows of 12 bytes exactly (no padding needed) would
    // hide the rule, so use width 3 and rows of 12 bytes.
    let mut ctx = textured_quad_ctx();
    let mut data = Vec::new();
    for row in 0..4u8 {
        for x in 0..3u8 {
            data.extend_from_slice(&[row * 60, x * 100, 7]);
        }
        data.extend_from_slice(&[0xEE, 0xEE, 0xEE]); // padding to 12 bytes
    }
    // The level is 3 wide, so map it onto the 4-pixel quad with REPEAT off.
    ctx.tex_image(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8,
        [3, 4, 1],
        gl::RGB,
        gl::UNSIGNED_BYTE,
        Some(&data),
    )
    .unwrap();
    let px = draw(&mut ctx);
    // Pixel x covers texcoord (x + 0.5) / 4 → texel floor(3 (x + 0.5) / 4) = 0, 1, 1, 2.
    let texel_x = [0u8, 1, 1, 2];
    for y in 0..4usize {
        for x in 0..4usize {
            let want = [y as u8 * 60, texel_x[x] * 100, 7, 255];
            assert_eq!(px[y * 4 + x], want, "pixel ({x}, {y})");
        }
    }
    // The same bytes read with alignment 1 shift every row after the first.
    ctx.pixel_store_i(gl::UNPACK_ALIGNMENT, 1).unwrap();
    ctx.tex_image(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8,
        [3, 4, 1],
        gl::RGB,
        gl::UNSIGNED_BYTE,
        Some(&data),
    )
    .unwrap();
    let px = draw(&mut ctx);
    assert_eq!(px[4], [0xEE, 0xEE, 0xEE, 255], "row 1 starts at byte 9");
}

#[test]
fn packed_short_and_integer_upload_paths() {
    let mut ctx = textured_quad_ctx();
    // RGB565: red 31 → 1.0, green 0, blue 31 → 1.0.
    let texel: u16 = (31 << 11) | 31;
    let data: Vec<u8> = bytemuck::cast_slice(&[texel; 16]).to_vec();
    ctx.tex_image(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8,
        [4, 4, 1],
        gl::RGB,
        gl::UNSIGNED_SHORT_5_6_5,
        Some(&data),
    )
    .unwrap();
    assert!(draw(&mut ctx).iter().all(|p| *p == [255, 0, 255, 255]));
    // BGRA + UNSIGNED_INT_8_8_8_8_REV is the usual little-endian BGRA8 word.
    let word: u32 = 0x80_40_20_10; // A=0x80 R=0x40 G=0x20 B=0x10
    let data: Vec<u8> = bytemuck::cast_slice(&[word; 16]).to_vec();
    ctx.tex_image(
        gl::TEXTURE_2D,
        0,
        gl::RGBA8,
        [4, 4, 1],
        gl::BGRA,
        gl::UNSIGNED_INT_8_8_8_8_REV,
        Some(&data),
    )
    .unwrap();
    assert!(draw(&mut ctx)
        .iter()
        .all(|p| *p == [0x40, 0x20, 0x10, 0x80]));
    // Integer data cannot go into a normalized texture (INVALID_OPERATION), and an
    // unknown type is INVALID_ENUM.
    let e = ctx
        .tex_image(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8,
            [4, 4, 1],
            gl::RGBA_INTEGER,
            gl::UNSIGNED_BYTE,
            Some(&[0; 64]),
        )
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidOperation);
    let e = ctx
        .tex_image(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8,
            [4, 4, 1],
            gl::RGBA,
            0x1234,
            None,
        )
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidEnum);
}

#[test]
fn sub_image_replaces_only_its_box() {
    let mut ctx = textured_quad_ctx();
    let white = [255u8; 64];
    upload_rgba8(&mut ctx, [4, 4], &white);
    let red: Vec<f32> = [1.0f32, 0.0, 0.0, 1.0].repeat(2);
    let bytes: Vec<u8> = bytemuck::cast_slice(&red).to_vec();
    ctx.tex_sub_image(
        gl::TEXTURE_2D,
        0,
        [1, 2, 0],
        [2, 1, 1],
        gl::RGBA,
        gl::FLOAT,
        &bytes,
    )
    .unwrap();
    let px = draw(&mut ctx);
    for y in 0..4 {
        for x in 0..4 {
            let inside = y == 2 && (1..3).contains(&x);
            let want = if inside { [255, 0, 0, 255] } else { [255; 4] };
            assert_eq!(px[y * 4 + x], want, "pixel ({x}, {y})");
        }
    }
    // Level 1 was never given an image.
    let e = ctx
        .tex_sub_image(
            gl::TEXTURE_2D,
            1,
            [0, 0, 0],
            [1, 1, 1],
            gl::RGBA,
            gl::FLOAT,
            &[0; 16],
        )
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidOperation);
    // Defined now (2×2), a 3-wide box does not fit it.
    ctx.tex_image(
        gl::TEXTURE_2D,
        1,
        gl::RGBA8,
        [2, 2, 1],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    )
    .unwrap();
    let e = ctx
        .tex_sub_image(
            gl::TEXTURE_2D,
            1,
            [0, 0, 0],
            [3, 1, 1],
            gl::RGBA,
            gl::FLOAT,
            &[0; 48],
        )
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidValue);
    let e = ctx
        .tex_sub_image(
            gl::TEXTURE_2D,
            9,
            [0, 0, 0],
            [1, 1, 1],
            gl::RGBA,
            gl::FLOAT,
            &[0; 16],
        )
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidOperation);
}

#[test]
fn compressed_dxt1_image_and_sub_image() {
    let mut ctx = textured_quad_ctx();
    // colour0 = red (0xF800) > colour1 = blue (0x001F): 4-colour mode; index 0 = colour0,
    // index 1 = colour1. Indices 0x55 = every texel of a row uses index 1.
    let red_block = [0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0];
    ctx.compressed_tex_image(
        gl::TEXTURE_2D,
        0,
        gl::COMPRESSED_RGB_S3TC_DXT1_EXT,
        [4, 4, 1],
        &red_block,
    )
    .unwrap();
    assert!(draw(&mut ctx).iter().all(|p| *p == [255, 0, 0, 255]));
    let blue_block = [0x00, 0xF8, 0x1F, 0x00, 0x55, 0x55, 0x55, 0x55];
    ctx.compressed_tex_sub_image(
        gl::TEXTURE_2D,
        0,
        [0, 0, 0],
        [4, 4, 1],
        gl::COMPRESSED_RGB_S3TC_DXT1_EXT,
        &blue_block,
    )
    .unwrap();
    assert!(draw(&mut ctx).iter().all(|p| *p == [0, 0, 255, 255]));
    // Wrong format, short data, and a non-compressed format are all rejected.
    let e = ctx
        .compressed_tex_sub_image(
            gl::TEXTURE_2D,
            0,
            [0, 0, 0],
            [4, 4, 1],
            gl::COMPRESSED_RGBA_S3TC_DXT5_EXT,
            &[0; 16],
        )
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidOperation);
    let e = ctx
        .compressed_tex_image(
            gl::TEXTURE_2D,
            0,
            gl::COMPRESSED_RGB_S3TC_DXT1_EXT,
            [8, 4, 1],
            &red_block,
        )
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidValue);
    let e = ctx
        .compressed_tex_image(gl::TEXTURE_2D, 0, gl::RGBA8, [4, 4, 1], &[0; 64])
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidEnum);
    let e = ctx
        .tex_image(
            gl::TEXTURE_2D,
            0,
            gl::COMPRESSED_RGB_S3TC_DXT1_EXT,
            [4, 4, 1],
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            None,
        )
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidOperation);
}

#[test]
fn sampler_object_overrides_texture_sampling_state_until_unbound() {
    let mut ctx = textured_quad_ctx();
    // A 2×2 texture over 4×4 pixels: pixel x samples texel coordinate
    // (x + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25, so NEAREST gives whole texels and
    // LINEAR blends neighbours (and, at the edges, the wrapped or clamped texel).
    // Texels: red, blue in both rows.
    let data = [[255u8, 0, 0, 255], [0, 0, 255, 255]].repeat(2).concat();
    upload_rgba8(&mut ctx, [2, 2], &data);
    let nearest = draw(&mut ctx);
    assert_eq!(
        &nearest[..4],
        &[
            [255, 0, 0, 255],
            [255, 0, 0, 255],
            [0, 0, 255, 255],
            [0, 0, 255, 255]
        ]
    );
    let s = ctx.gen_samplers(1).unwrap()[0];
    ctx.sampler_parameter_i(s, gl::TEXTURE_MIN_FILTER, gl::LINEAR as i32)
        .unwrap();
    ctx.sampler_parameter_i(s, gl::TEXTURE_MAG_FILTER, gl::LINEAR as i32)
        .unwrap();
    ctx.sampler_parameter_i(s, gl::TEXTURE_WRAP_S, gl::CLAMP_TO_EDGE as i32)
        .unwrap();
    ctx.bind_sampler(0, s).unwrap();
    assert_eq!(ctx.sampler_binding(0).unwrap(), s);
    let clamped = draw(&mut ctx);
    // x = 0: clamped to texel 0 (red); x = 1: 0.75 red + 0.25 blue.
    assert_eq!(clamped[0], [255, 0, 0, 255]);
    assert_eq!(clamped[1], [191, 0, 64, 255]);
    ctx.sampler_parameter_i(s, gl::TEXTURE_WRAP_S, gl::REPEAT as i32)
        .unwrap();
    let repeated = draw(&mut ctx);
    // x = 0 at -0.25 blends 0.25 of the wrapped blue texel with 0.75 red.
    assert_eq!(repeated[0], [191, 0, 64, 255]);
    // The texture's own state is untouched and applies again once the unit's sampler
    // is unbound.
    ctx.bind_sampler(0, 0).unwrap();
    assert_eq!(draw(&mut ctx), nearest);
}

#[test]
fn sampler_misuse_errors() {
    let mut ctx = Context::new(4, 4).unwrap();
    let s = ctx.gen_samplers(1).unwrap()[0];
    let units = ctx
        .get_integer_v(gl::MAX_COMBINED_TEXTURE_IMAGE_UNITS)
        .unwrap()[0] as u32;
    ctx.bind_sampler(units - 1, s).unwrap();
    assert_eq!(
        ctx.bind_sampler(units, s).unwrap_err().gl,
        GlError::InvalidValue
    );
    assert_eq!(
        ctx.bind_sampler(0, 1234).unwrap_err().gl,
        GlError::InvalidOperation
    );
    let e = ctx
        .sampler_parameter_i(s, gl::TEXTURE_SWIZZLE_R, gl::GREEN as i32)
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidEnum);
    let e = ctx
        .sampler_parameter_i(s, gl::TEXTURE_WRAP_S, gl::NEAREST as i32)
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidEnum);
    ctx.delete_samplers(&[s]);
    let e = ctx
        .sampler_parameter_i(s, gl::TEXTURE_WRAP_S, gl::REPEAT as i32)
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidOperation);
}

#[test]
fn multi_draw_elements_draws_each_range() {
    // Two triangles through one index buffer: the left and right halves of the quad.
    let mut ctx = textured_quad_ctx();
    let white = [255u8; 64];
    upload_rgba8(&mut ctx, [4, 4], &white);
    ctx.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, 9).unwrap();
    ctx.buffer_data(
        gl::ELEMENT_ARRAY_BUFFER,
        &[0u16, 1, 2, 1, 3, 2],
        gl::STATIC_DRAW,
    )
    .unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.multi_draw_elements(gl::TRIANGLES, &[3], gl::UNSIGNED_SHORT, &[0])
        .unwrap();
    let lit = |ctx: &Context| {
        ctx.read_pixels_as::<[f32; 4]>(0, 0, 4, 4, gl::RGBA, gl::FLOAT)
            .unwrap()
            .iter()
            .filter(|p| p[0] > 0.5)
            .count()
    };
    // The first triangle alone covers some pixels but not all; both cover every pixel.
    let first = lit(&ctx);
    assert!(first > 0 && first < 16, "{first}");
    ctx.multi_draw_elements(gl::TRIANGLES, &[3, 3], gl::UNSIGNED_SHORT, &[0, 6])
        .unwrap();
    assert_eq!(lit(&ctx), 16);
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.draw_range_elements(gl::TRIANGLES, 0, 3, 6, gl::UNSIGNED_SHORT, 0)
        .unwrap();
    assert_eq!(lit(&ctx), 16);
}

#[test]
fn oversized_levels_are_out_of_memory_and_buffer_textures_clamp() {
    let mut ctx = Context::new(4, 4).unwrap();
    ctx.bind_texture(gl::TEXTURE_3D, 1).unwrap();
    // Each side is within MAX_3D_TEXTURE_SIZE, the level as a whole is not storable.
    let e = ctx
        .tex_image(
            gl::TEXTURE_3D,
            0,
            gl::RGBA8,
            [16384, 16384, 16384],
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            None,
        )
        .unwrap_err();
    assert_eq!(e.gl, GlError::OutOfMemory, "{e}");
    assert!(e.message.contains("texels"), "{e}");
    let max = ctx.get_integer_v(gl::MAX_TEXTURE_BUFFER_SIZE).unwrap();
    assert_eq!(max, vec![1 << 28]);
}

/// Messages name enums (`GL_TEXTURE_2D (0x0DE1)`) and say what a texture parameter
/// accepts.
#[test]
fn errors_name_enums_and_what_is_accepted() {
    let mut ctx = Context::new(4, 4).unwrap();
    let msg = |e: glemu::Error| e.to_string();
    let e = ctx.clear_buffer_fv(gl::STENCIL, 0, &[0.0]).unwrap_err();
    assert!(msg(e).contains("GL_STENCIL (0x1802)"));
    let e = ctx.bind_texture(0x1234, 1).unwrap_err();
    assert!(msg(e).contains("0x1234"));
    ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
    let e = ctx
        .tex_parameter_i(
            gl::TEXTURE_2D,
            gl::TEXTURE_MAG_FILTER,
            gl::LINEAR_MIPMAP_LINEAR as i32,
        )
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidEnum);
    let m = msg(e);
    assert!(m.contains("GL_TEXTURE_MAG_FILTER (0x2800)"), "{m}");
    assert!(m.contains("GL_LINEAR_MIPMAP_LINEAR (0x2703)"), "{m}");
    assert!(m.contains("it takes NEAREST, LINEAR"), "{m}");
    let e = ctx
        .tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_WRAP_S, 7)
        .unwrap_err();
    assert!(msg(e).contains("REPEAT, CLAMP, CLAMP_TO_EDGE"));
    let e = ctx
        .tex_parameter_i(gl::TEXTURE_2D, gl::BLEND, 0)
        .unwrap_err();
    let m = msg(e);
    assert!(
        m.contains("GL_BLEND (0x0BE2)") && m.contains("TEXTURE_MIN_FILTER"),
        "{m}"
    );
}
