//! Render to texture: draws and clears into texture levels, layers and cube faces through
//! framebuffer objects, then later draws sample what was rendered (exact probes);
//! multisample textures resolved by blits; completeness statuses (GL 4.6 section 9.4).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod common;

use glemu::{gl, Context, GlError};

/// Vertex program: position from attribute 0, texture coordinate = position * 0.5 + 0.5.
const VP: &str = "!!ARBvp1.0
ATTRIB p = vertex.attrib[0];
MOV result.position, p;
MAD result.texcoord[0], p, {0.5, 0.5, 0.5, 0.5}, {0.5, 0.5, 0.5, 0.5};
MOV result.color, vertex.attrib[1];
END
";

/// A context with pass-through programs enabled and a `w`×`h` window.
fn context(w: u32, h: u32) -> Context {
    let mut ctx = Context::new(w, h).unwrap();
    ctx.bind_program(gl::VERTEX_PROGRAM_ARB, 1).unwrap();
    ctx.program_string(gl::VERTEX_PROGRAM_ARB, VP).unwrap();
    ctx.enable(gl::VERTEX_PROGRAM_ARB).unwrap();
    ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 2).unwrap();
    ctx.enable(gl::FRAGMENT_PROGRAM_ARB).unwrap();
    ctx
}

fn fragment(ctx: &mut Context, text: &str) {
    ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, text).unwrap();
}

/// Draws the rectangle [x0, x1]×[y0, y1] (NDC) at "depth" attribute z in colour `c`.
fn rect(ctx: &mut Context, [x0, y0, x1, y1]: [f32; 4], z: f32, c: [f32; 4]) {
    let mut v = Vec::new();
    for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y0), (x1, y1), (x0, y1)] {
        v.extend_from_slice(&[x, y, z, 1.0]);
        v.extend_from_slice(&c);
    }
    ctx.bind_buffer(gl::ARRAY_BUFFER, 100).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &v, gl::STREAM_DRAW)
        .unwrap();
    ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 32, 0)
        .unwrap();
    ctx.vertex_attrib_pointer(1, 4, gl::FLOAT, false, 32, 16)
        .unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
    ctx.enable_vertex_attrib_array(1).unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
}

const FULL: [f32; 4] = [-1.0, -1.0, 1.0, 1.0];
const COLOR: &str = "!!ARBfp1.0\nMOV result.color, fragment.color;\nEND\n";

fn nearest(ctx: &mut Context, target: u32) {
    ctx.tex_parameter_i(target, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32)
        .unwrap();
    ctx.tex_parameter_i(target, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32)
        .unwrap();
}

fn texture(ctx: &mut Context, target: u32, size: [u32; 3], format: u32) -> u32 {
    let t = ctx.gen_textures(1).unwrap()[0];
    ctx.bind_texture(target, t).unwrap();
    let faces: Vec<u32> = if target == gl::TEXTURE_CUBE_MAP {
        (0..6)
            .map(|f| gl::TEXTURE_CUBE_MAP_POSITIVE_X + f)
            .collect()
    } else {
        vec![target]
    };
    for f in faces {
        ctx.tex_image(f, 0, format, size, gl::RGBA, gl::UNSIGNED_BYTE, None)
            .unwrap();
    }
    nearest(ctx, target);
    t
}

fn status(ctx: &Context) -> u32 {
    ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap()
}

fn px(ctx: &Context, x: i32, y: i32) -> [f32; 4] {
    ctx.read_pixel(x, y).unwrap()
}

#[test]
fn draw_into_a_texture_then_sample_it() {
    let mut ctx = context(8, 8);
    let t = texture(&mut ctx, gl::TEXTURE_2D, [8, 8, 1], gl::RGBA8);
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, t, 0)
        .unwrap();
    assert_eq!(status(&ctx), gl::FRAMEBUFFER_COMPLETE);
    fragment(&mut ctx, COLOR);
    ctx.clear_color([0.0, 0.0, 1.0, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    // Left half red.
    rect(&mut ctx, [-1.0, -1.0, 0.0, 1.0], 0.0, [1.0, 0.0, 0.0, 1.0]);
    // The framebuffer object reads back what the texture holds.
    assert_eq!(px(&ctx, 1, 1), [1.0, 0.0, 0.0, 1.0]);

    ctx.bind_framebuffer(gl::FRAMEBUFFER, 0).unwrap();
    fragment(
        &mut ctx,
        "!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nEND\n",
    );
    rect(&mut ctx, FULL, 0.0, [0.0; 4]);
    assert_eq!(px(&ctx, 2, 5), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(px(&ctx, 6, 5), [0.0, 0.0, 1.0, 1.0]);
}

#[test]
fn a_mip_level_renders_at_its_size() {
    let mut ctx = context(4, 4);
    let t = texture(&mut ctx, gl::TEXTURE_2D, [16, 16, 1], gl::RGBA8);
    ctx.generate_mipmap(gl::TEXTURE_2D).unwrap();
    let mip = gl::NEAREST_MIPMAP_NEAREST as i32;
    ctx.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, mip)
        .unwrap();
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    ctx.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, t, 2)
        .unwrap();
    assert_eq!(status(&ctx), gl::FRAMEBUFFER_COMPLETE);
    ctx.clear_color([0.0, 1.0, 0.0, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.bind_framebuffer(gl::FRAMEBUFFER, 0).unwrap();
    fragment(
        &mut ctx,
        "!!NVfp4.0\nTEMP c;\nMOV c, fragment.texcoord[0];\nMOV c.w, {2, 2, 2, 2};\nTXL result.color, c, texture[0], 2D;\nEND\n",
    );
    rect(&mut ctx, FULL, 0.0, [0.0; 4]);
    assert_eq!(px(&ctx, 1, 2), [0.0, 1.0, 0.0, 1.0], "level 2 was rendered");
    fragment(
        &mut ctx,
        "!!NVfp4.0\nTEMP c;\nMOV c, fragment.texcoord[0];\nMOV c.w, {1, 1, 1, 1};\nTXL result.color, c, texture[0], 2D;\nEND\n",
    );
    rect(&mut ctx, FULL, 0.0, [0.0; 4]);
    assert_eq!(px(&ctx, 1, 2), [0.0; 4], "level 1 untouched");
}

#[test]
fn cube_faces_array_layers_and_3d_slices() {
    let mut ctx = context(4, 4);
    let cube = texture(&mut ctx, gl::TEXTURE_CUBE_MAP, [4, 4, 1], gl::RGBA8);
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    ctx.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        gl::COLOR_ATTACHMENT0,
        gl::TEXTURE_CUBE_MAP_POSITIVE_X + 3, // -Y
        cube,
        0,
    )
    .unwrap();
    assert_eq!(
        ctx.get_framebuffer_attachment_parameter_iv(
            gl::FRAMEBUFFER,
            gl::COLOR_ATTACHMENT0,
            gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE
        )
        .unwrap(),
        (gl::TEXTURE_CUBE_MAP_POSITIVE_X + 3) as i32
    );
    ctx.clear_color([1.0, 1.0, 0.0, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();

    ctx.active_texture(1).unwrap();
    let arr = texture(&mut ctx, gl::TEXTURE_2D_ARRAY, [4, 4, 3], gl::RGBA8);
    ctx.framebuffer_texture_layer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, arr, 0, 1)
        .unwrap();
    ctx.clear_color([0.0, 1.0, 1.0, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();

    ctx.active_texture(2).unwrap();
    let vol = texture(&mut ctx, gl::TEXTURE_3D, [4, 4, 4], gl::RGBA8);
    ctx.framebuffer_texture_layer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, vol, 0, 3)
        .unwrap();
    fragment(&mut ctx, COLOR);
    rect(&mut ctx, FULL, 0.0, [1.0, 0.0, 1.0, 1.0]);

    ctx.bind_framebuffer(gl::FRAMEBUFFER, 0).unwrap();
    let probe = |ctx: &mut Context, fp: &str| {
        fragment(ctx, fp);
        rect(ctx, FULL, 0.0, [0.0; 4]);
        px(ctx, 1, 1)
    };
    let down = "!!ARBfp1.0\nTEX result.color, {0.1, -1, 0.2, 0}, texture[0], CUBE;\nEND\n";
    let up = "!!ARBfp1.0\nTEX result.color, {0.1, 1, 0.2, 0}, texture[0], CUBE;\nEND\n";
    assert_eq!(probe(&mut ctx, down), [1.0, 1.0, 0.0, 1.0]);
    assert_eq!(probe(&mut ctx, up), [0.0; 4]);
    let layer = |l: u32| {
        format!("!!NVfp4.0\nTEX result.color, {{0.5, 0.5, {l}, 0}}, texture[1], ARRAY2D;\nEND\n")
    };
    assert_eq!(probe(&mut ctx, &layer(1)), [0.0, 1.0, 1.0, 1.0]);
    assert_eq!(probe(&mut ctx, &layer(2)), [0.0; 4]);
    let slice = |r: f32| {
        format!("!!ARBfp1.0\nTEX result.color, {{0.5, 0.5, {r}, 0}}, texture[2], 3D;\nEND\n")
    };
    assert_eq!(probe(&mut ctx, &slice(0.875)), [1.0, 0.0, 1.0, 1.0]);
    assert_eq!(probe(&mut ctx, &slice(0.625)), [0.0; 4]);
}

#[test]
fn depth_texture_attachment_keeps_what_the_depth_test_wrote() {
    let mut ctx = context(4, 4);
    let color = texture(&mut ctx, gl::TEXTURE_2D, [4, 4, 1], gl::RGBA8);
    let depth = ctx.gen_textures(1).unwrap()[0];
    ctx.active_texture(1).unwrap();
    ctx.bind_texture(gl::TEXTURE_2D, depth).unwrap();
    ctx.tex_image(
        gl::TEXTURE_2D,
        0,
        gl::DEPTH_COMPONENT24,
        [4, 4, 1],
        gl::DEPTH_COMPONENT,
        gl::FLOAT,
        None,
    )
    .unwrap();
    nearest(&mut ctx, gl::TEXTURE_2D);
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    ctx.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        gl::COLOR_ATTACHMENT0,
        gl::TEXTURE_2D,
        color,
        0,
    )
    .unwrap();
    ctx.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        gl::DEPTH_ATTACHMENT,
        gl::TEXTURE_2D,
        depth,
        0,
    )
    .unwrap();
    assert_eq!(status(&ctx), gl::FRAMEBUFFER_COMPLETE);
    ctx.clear_depth(1.0).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT)
        .unwrap();
    ctx.enable(gl::DEPTH_TEST).unwrap();
    // A fragment program writing depth 0.25 on the left half.
    fragment(
        &mut ctx,
        "!!ARBfp1.0\nMOV result.color, fragment.color;\nMOV result.depth.z, {0.25, 0.25, 0.25, 0.25};\nEND\n",
    );
    rect(&mut ctx, [-1.0, -1.0, 0.0, 1.0], 0.0, [1.0, 0.0, 0.0, 1.0]);
    ctx.disable(gl::DEPTH_TEST).unwrap();
    ctx.bind_framebuffer(gl::FRAMEBUFFER, 0).unwrap();
    fragment(
        &mut ctx,
        "!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[1], 2D;\nEND\n",
    );
    rect(&mut ctx, FULL, 0.0, [0.0; 4]);
    let q = (0.25f32 * 16_777_215.0).round() / 16_777_215.0;
    let left = px(&ctx, 0, 0);
    assert!((left[0] - q).abs() < 1.0 / 255.0, "{left:?}");
    assert_eq!(px(&ctx, 3, 0)[0], 1.0);
}

#[test]
fn multisample_texture_renders_and_blits_resolved() {
    let mut ctx = context(4, 4);
    let t = ctx.gen_textures(1).unwrap()[0];
    ctx.bind_texture(gl::TEXTURE_2D_MULTISAMPLE, t).unwrap();
    ctx.tex_image_2d_multisample(gl::TEXTURE_2D_MULTISAMPLE, 4, gl::RGBA8, 4, 4, true)
        .unwrap();
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    ctx.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        gl::COLOR_ATTACHMENT0,
        gl::TEXTURE_2D_MULTISAMPLE,
        t,
        0,
    )
    .unwrap();
    assert_eq!(status(&ctx), gl::FRAMEBUFFER_COMPLETE);
    assert_eq!(ctx.get_integer_v(gl::SAMPLES).unwrap(), vec![4]);
    // A renderbuffer of another sample count cannot join it.
    let rb = ctx.gen_renderbuffers(1).unwrap()[0];
    ctx.bind_renderbuffer(gl::RENDERBUFFER, rb).unwrap();
    ctx.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH24_STENCIL8, 4, 4)
        .unwrap();
    ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::DEPTH_ATTACHMENT, gl::RENDERBUFFER, rb)
        .unwrap();
    assert_eq!(status(&ctx), gl::FRAMEBUFFER_INCOMPLETE_MULTISAMPLE);
    ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::DEPTH_ATTACHMENT, gl::RENDERBUFFER, 0)
        .unwrap();
    fragment(&mut ctx, COLOR);
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    // A diagonal edge through pixel (1, 1)'s corner: the pixels it splits get partial
    // coverage; pixels fully inside are white.
    let v: Vec<f32> = [[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]
        .iter()
        .flat_map(|p| [p[0], p[1], 0.0, 1.0, 1.0, 1.0, 1.0, 1.0])
        .collect();
    ctx.bind_buffer(gl::ARRAY_BUFFER, 100).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &v, gl::STREAM_DRAW)
        .unwrap();
    ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 32, 0)
        .unwrap();
    ctx.vertex_attrib_pointer(1, 4, gl::FLOAT, false, 32, 16)
        .unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
    ctx.enable_vertex_attrib_array(1).unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap();
    let samples: Vec<f32> = (0..4)
        .map(|s| ctx.read_sample(1, 2, s).unwrap()[0])
        .collect();
    assert!(
        samples.contains(&1.0) && samples.contains(&0.0),
        "{samples:?}"
    );

    ctx.bind_framebuffer(gl::DRAW_FRAMEBUFFER, 0).unwrap();
    // Each sample of the texture holds what was rendered (TXFMS fetches it).
    for (sample, want) in samples.iter().enumerate() {
        fragment(
            &mut ctx,
            &format!(
                "!!NVfp4.0\nOPTION NV_texture_multisample;\nINT TEMP c;\nMOV.S c, {{1, 2, 0, {sample}}};\nTXFMS result.color, c, texture[0], 2DMS;\nEND\n"
            ),
        );
        rect(&mut ctx, FULL, 0.0, [0.0; 4]);
        ctx.bind_framebuffer(gl::READ_FRAMEBUFFER, 0).unwrap();
        assert_eq!(px(&ctx, 0, 0)[0], *want, "sample {sample}");
        ctx.bind_framebuffer(gl::READ_FRAMEBUFFER, f).unwrap();
    }
    ctx.blit_framebuffer(
        [0, 0, 4, 4],
        [0, 0, 4, 4],
        gl::COLOR_BUFFER_BIT,
        gl::NEAREST,
    )
    .unwrap();
    ctx.bind_framebuffer(gl::READ_FRAMEBUFFER, 0).unwrap();
    let covered = samples.iter().filter(|&&c| c == 1.0).count() as f32;
    assert_eq!(px(&ctx, 0, 0), [1.0; 4]);
    assert_eq!(px(&ctx, 3, 3), [0.0; 4]);
    let want = (covered / 4.0 * 255.0).round() / 255.0;
    assert_eq!(px(&ctx, 1, 2)[0], want);
}

#[test]
fn completeness_statuses() {
    let mut ctx = context(4, 4);
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    assert_eq!(status(&ctx), gl::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT);
    let rgba16 = texture(&mut ctx, gl::TEXTURE_2D, [4, 4, 1], 0x805B); // RGBA16
    ctx.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        gl::COLOR_ATTACHMENT0,
        gl::TEXTURE_2D,
        rgba16,
        0,
    )
    .unwrap();
    assert_eq!(status(&ctx), gl::FRAMEBUFFER_UNSUPPORTED);
    // A colour texture at the depth attachment; a level with no image.
    let c = texture(&mut ctx, gl::TEXTURE_2D, [4, 4, 1], gl::RGBA8);
    ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, c, 0)
        .unwrap();
    assert_eq!(status(&ctx), gl::FRAMEBUFFER_COMPLETE);
    ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::DEPTH_ATTACHMENT, gl::TEXTURE_2D, c, 0)
        .unwrap();
    assert_eq!(status(&ctx), gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
    ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::DEPTH_ATTACHMENT, gl::TEXTURE_2D, 0, 0)
        .unwrap();
    let rect_tex = ctx.gen_textures(1).unwrap()[0];
    ctx.bind_texture(gl::TEXTURE_RECTANGLE, rect_tex).unwrap();
    ctx.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        gl::COLOR_ATTACHMENT0 + 1,
        gl::TEXTURE_RECTANGLE,
        rect_tex,
        0,
    )
    .unwrap();
    assert_eq!(
        status(&ctx),
        gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT,
        "no image"
    );
    ctx.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        gl::COLOR_ATTACHMENT0 + 1,
        gl::TEXTURE_2D,
        0,
        0,
    )
    .unwrap();
    // Layered and non-layered attachments together.
    let arr = texture(&mut ctx, gl::TEXTURE_2D_ARRAY, [4, 4, 2], gl::RGBA8);
    ctx.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0 + 1, arr, 0)
        .unwrap();
    assert_eq!(status(&ctx), gl::FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS);
    // Drawing into an incomplete framebuffer.
    fragment(&mut ctx, COLOR);
    let e = ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap_err();
    assert_eq!(e.gl, GlError::InvalidFramebufferOperation);
}

#[test]
fn layered_clear_writes_every_layer_and_redefinition_is_seen() {
    let mut ctx = context(4, 4);
    let arr = texture(&mut ctx, gl::TEXTURE_2D_ARRAY, [2, 2, 3], gl::RGBA8);
    let f = ctx.gen_framebuffers(2).unwrap();
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f[0]).unwrap();
    ctx.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, arr, 0)
        .unwrap();
    assert_eq!(status(&ctx), gl::FRAMEBUFFER_COMPLETE);
    ctx.clear_color([0.0, 0.0, 1.0, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    // Read each layer back through a second framebuffer.
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f[1]).unwrap();
    for layer in 0..3 {
        ctx.framebuffer_texture_layer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, arr, 0, layer)
            .unwrap();
        assert_eq!(px(&ctx, 1, 1), [0.0, 0.0, 1.0, 1.0], "layer {layer}");
    }
    // An upload into the attached layer is what reads through the framebuffer see.
    ctx.bind_texture(gl::TEXTURE_2D_ARRAY, arr).unwrap();
    let white = [255u8; 16];
    ctx.tex_sub_image(
        gl::TEXTURE_2D_ARRAY,
        0,
        [0, 0, 2],
        [2, 2, 1],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &white,
    )
    .unwrap();
    assert_eq!(px(&ctx, 1, 1), [1.0; 4]);
    // Redefining the attached image resizes what the framebuffer renders into.
    ctx.bind_texture(gl::TEXTURE_2D_ARRAY, arr).unwrap();
    ctx.tex_image(
        gl::TEXTURE_2D_ARRAY,
        0,
        gl::RGBA8,
        [3, 3, 3],
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        None,
    )
    .unwrap();
    ctx.clear_color([1.0, 0.0, 0.0, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    assert_eq!(px(&ctx, 2, 2), [1.0, 0.0, 0.0, 1.0]);
}

#[test]
fn feedback_loop_samples_the_texture_as_before_the_draw() {
    let mut ctx = context(4, 4);
    let t = texture(&mut ctx, gl::TEXTURE_2D, [4, 4, 1], gl::RGBA8);
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, t, 0)
        .unwrap();
    ctx.clear_color([0.25, 0.0, 0.0, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    // Each pass adds the sampled value to itself: 0.25 -> 0.5 -> 1.0.
    fragment(
        &mut ctx,
        "!!ARBfp1.0\nTEMP c;\nTEX c, fragment.texcoord[0], texture[0], 2D;\nADD result.color, c, c;\nEND\n",
    );
    rect(&mut ctx, FULL, 0.0, [0.0; 4]);
    assert_eq!(px(&ctx, 2, 2)[0], 128.0 / 255.0);
    rect(&mut ctx, FULL, 0.0, [0.0; 4]);
    assert_eq!(px(&ctx, 2, 2)[0], 1.0);
}

#[test]
fn attach_errors() {
    let mut ctx = context(4, 4);
    let t = texture(&mut ctx, gl::TEXTURE_2D, [4, 4, 1], gl::RGBA8);
    let e = ctx
        .framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, t, 0)
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidOperation, "default framebuffer");
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    let cases: [(GlError, glemu::Result<()>); 6] = [
        (
            GlError::InvalidOperation,
            ctx.framebuffer_texture_2d(
                gl::FRAMEBUFFER,
                gl::COLOR_ATTACHMENT0,
                gl::TEXTURE_2D,
                77,
                0,
            ),
        ),
        (
            GlError::InvalidValue,
            ctx.framebuffer_texture_2d(
                gl::FRAMEBUFFER,
                gl::COLOR_ATTACHMENT0,
                gl::TEXTURE_2D,
                t,
                -1,
            ),
        ),
        (
            GlError::InvalidOperation,
            ctx.framebuffer_texture_layer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, t, 0, 0),
        ),
        (
            GlError::InvalidEnum,
            ctx.framebuffer_texture(gl::FRAMEBUFFER, gl::BLEND, t, 0),
        ),
        (
            GlError::InvalidEnum,
            ctx.framebuffer_texture(gl::TEXTURE_2D, gl::COLOR_ATTACHMENT0, t, 0),
        ),
        (
            GlError::InvalidEnum,
            ctx.tex_image_2d_multisample(gl::TEXTURE_2D, 4, gl::RGBA8, 4, 4, true),
        ),
    ];
    for (i, (want, got)) in cases.into_iter().enumerate() {
        assert_eq!(got.unwrap_err().gl, want, "case {i}");
    }
}

#[test]
fn deleting_an_attached_texture_detaches_it_from_the_bound_framebuffer() {
    let mut ctx = context(4, 4);
    let a = texture(&mut ctx, gl::TEXTURE_2D, [4, 4, 1], gl::RGBA8);
    let b = texture(&mut ctx, gl::TEXTURE_2D, [4, 4, 1], gl::RGBA8);
    let f = ctx.gen_framebuffers(2).unwrap();
    // f[1] holds `a` but is not bound when `a` goes: it stays attached there.
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f[1]).unwrap();
    ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, a, 0)
        .unwrap();
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f[0]).unwrap();
    ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, b, 0)
        .unwrap();
    ctx.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        gl::COLOR_ATTACHMENT0 + 1,
        gl::TEXTURE_2D,
        a,
        0,
    )
    .unwrap();
    assert_eq!(status(&ctx), gl::FRAMEBUFFER_COMPLETE);
    ctx.delete_textures(&[a]);
    assert_eq!(status(&ctx), gl::FRAMEBUFFER_COMPLETE, "only `b` is left");
    let ty = gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE;
    let at1 = gl::COLOR_ATTACHMENT0 + 1;
    assert_eq!(
        ctx.get_framebuffer_attachment_parameter_iv(gl::FRAMEBUFFER, at1, ty)
            .unwrap(),
        0
    );
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f[1]).unwrap();
    assert_eq!(status(&ctx), gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
}

#[test]
fn draw_buffers_route_outputs_to_attachments_with_gaps() {
    let mut ctx = context(4, 4);
    let a = texture(&mut ctx, gl::TEXTURE_2D, [4, 4, 1], gl::RGBA8);
    ctx.active_texture(1).unwrap();
    let c = texture(&mut ctx, gl::TEXTURE_2D, [4, 4, 1], gl::RGBA8);
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    let at = |k: u32| gl::COLOR_ATTACHMENT0 + k;
    ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, at(0), gl::TEXTURE_2D, a, 0)
        .unwrap();
    ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, at(2), gl::TEXTURE_2D, c, 0)
        .unwrap();
    assert_eq!(
        status(&ctx),
        gl::FRAMEBUFFER_COMPLETE,
        "a gap at attachment 1"
    );
    ctx.draw_buffers(&[at(2), at(0)]).unwrap();
    assert_eq!(
        ctx.get_integer_v(gl::DRAW_BUFFER0 + 1).unwrap(),
        vec![at(0) as i32]
    );
    fragment(
        &mut ctx,
        "!!ARBfp1.0\nOPTION ARB_draw_buffers;\nMOV result.color[0], {1, 0, 0, 1};\nMOV result.color[1], {0, 1, 0, 1};\nEND\n",
    );
    rect(&mut ctx, FULL, 0.0, [0.0; 4]);
    assert_eq!(
        px(&ctx, 1, 1),
        [0.0, 1.0, 0.0, 1.0],
        "output 1 at attachment 0"
    );
    // Clears write the draw buffers only: attachment 2 keeps red.
    ctx.draw_buffer(at(0)).unwrap();
    ctx.clear_color([0.0, 0.0, 1.0, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.read_buffer(at(2)).unwrap();
    assert_eq!(px(&ctx, 1, 1), [1.0, 0.0, 0.0, 1.0]);
    ctx.read_buffer(at(0)).unwrap();
    assert_eq!(px(&ctx, 1, 1), [0.0, 0.0, 1.0, 1.0]);
    ctx.read_buffer(at(1)).unwrap();
    assert_eq!(
        ctx.read_pixel(1, 1).unwrap_err().gl,
        GlError::InvalidOperation
    );
    // What was rendered is in the textures.
    ctx.bind_framebuffer(gl::FRAMEBUFFER, 0).unwrap();
    fragment(
        &mut ctx,
        "!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[1], 2D;\nEND\n",
    );
    rect(&mut ctx, FULL, 0.0, [0.0; 4]);
    assert_eq!(px(&ctx, 2, 2), [1.0, 0.0, 0.0, 1.0]);
}

/// A geometry program sends each input triangle to layers 2 (red), 0 (green) and 7 (one
/// the array lacks: not drawn) of a layered 2D-array attachment (NV_geometry_program4:
/// each primitive goes to the layer of its provoking vertex's result.layer).
#[test]
fn geometry_program_selects_layers_of_a_layered_attachment() {
    let mut ctx = context(4, 4);
    let arr = texture(&mut ctx, gl::TEXTURE_2D_ARRAY, [4, 4, 3], gl::RGBA8);
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    ctx.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, arr, 0)
        .unwrap();
    ctx.clear_color([0.0, 0.0, 1.0, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.bind_program(gl::GEOMETRY_PROGRAM_NV, 3).unwrap();
    ctx.program_string(
        gl::GEOMETRY_PROGRAM_NV,
        "!!NVgp4.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 9;
PARAM layers[3] = { {2, 0, 0, 0}, {0, 0, 0, 0}, {7, 0, 0, 0} };
PARAM cols[3] = { {1, 0, 0, 1}, {0, 1, 0, 1}, {1, 1, 1, 1} };
INT TEMP k, l;
MOV.S k.x, 0;
REP 3;
  FLR.S l.x, layers[k.x];
  MOV result.position, vertex[0].position;
  MOV result.color, cols[k.x];
  MOV.S result.layer.x, l.x;
  EMIT;
  MOV result.position, vertex[1].position;
  MOV result.color, cols[k.x];
  MOV.S result.layer.x, l.x;
  EMIT;
  MOV result.position, vertex[2].position;
  MOV result.color, cols[k.x];
  MOV.S result.layer.x, l.x;
  EMIT;
  ENDPRIM;
  ADD.S k.x, k.x, 1;
ENDREP;
END
",
    )
    .unwrap();
    ctx.enable(gl::GEOMETRY_PROGRAM_NV).unwrap();
    fragment(&mut ctx, COLOR);
    ctx.begin_query(gl::PRIMITIVES_GENERATED, 1).unwrap();
    rect(&mut ctx, FULL, 0.0, [0.0; 4]);
    ctx.end_query(gl::PRIMITIVES_GENERATED).unwrap();
    // Counted once, not once per layer pass: 2 triangles in, 3 out each.
    assert_eq!(ctx.get_query_result(1).unwrap(), 6);
    ctx.disable(gl::GEOMETRY_PROGRAM_NV).unwrap();
    let g = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, g).unwrap();
    let want = [
        [0.0, 1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, 1.0],
        [1.0, 0.0, 0.0, 1.0],
    ];
    for (layer, want) in want.iter().enumerate() {
        ctx.framebuffer_texture_layer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, arr, 0, layer as i32)
            .unwrap();
        assert_eq!(px(&ctx, 2, 1), *want, "layer {layer}");
    }
}

/// On a 4-layer target the vertex and geometry programs run once per draw, not once per
/// layer (GL runs the geometry stages once and routes each primitive by its layer): a
/// triangle's 3 vertex invocations and 1 geometry invocation each increment a counter,
/// the geometry program emits one triangle per layer, and stream-out captures those 4
/// triangles once.
#[test]
fn layered_draw_runs_the_geometry_stages_once() {
    let mut ctx = context(4, 4);
    ctx.program_string(
        gl::VERTEX_PROGRAM_ARB,
        "!!NVvp5.0
OPTION NV_shader_atomic_counters;
COUNTER vertices = program.counter[0][0];
UINT TEMP u;
ATOMCTR.INCR u.x, vertices;
MOV result.position, vertex.attrib[0];
END
",
    )
    .unwrap();
    ctx.bind_program(gl::GEOMETRY_PROGRAM_NV, 3).unwrap();
    ctx.program_string(
        gl::GEOMETRY_PROGRAM_NV,
        "!!NVgp5.0
OPTION NV_shader_atomic_counters;
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 12;
COUNTER invocations = program.counter[1][0];
PARAM cols[4] = { {1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1} };
INT TEMP k;
UINT TEMP u;
ATOMCTR.INCR u.x, invocations;
MOV.S k.x, 0;
REP 4;
  MOV result.position, vertex[0].position;
  MOV result.color, cols[k.x];
  MOV.S result.layer.x, k.x;
  EMIT;
  MOV result.position, vertex[1].position;
  MOV result.color, cols[k.x];
  MOV.S result.layer.x, k.x;
  EMIT;
  MOV result.position, vertex[2].position;
  MOV result.color, cols[k.x];
  MOV.S result.layer.x, k.x;
  EMIT;
  ENDPRIM;
  ADD.S k.x, k.x, 1;
ENDREP;
END
",
    )
    .unwrap();
    ctx.enable(gl::GEOMETRY_PROGRAM_NV).unwrap();
    fragment(&mut ctx, COLOR);
    let counters: Vec<u32> = (0..2)
        .map(|binding| {
            let b = ctx.create_buffer().unwrap();
            ctx.bind_buffer(gl::ATOMIC_COUNTER_BUFFER, b).unwrap();
            ctx.buffer_data(gl::ATOMIC_COUNTER_BUFFER, &[0u32], gl::DYNAMIC_COPY)
                .unwrap();
            ctx.bind_buffer_base(gl::ATOMIC_COUNTER_BUFFER, binding, b)
                .unwrap();
            b
        })
        .collect();
    let captured = ctx.create_buffer().unwrap();
    ctx.bind_buffer(gl::TRANSFORM_FEEDBACK_BUFFER, captured)
        .unwrap();
    ctx.buffer_data_size(gl::TRANSFORM_FEEDBACK_BUFFER, 1024, gl::STATIC_DRAW)
        .unwrap();
    ctx.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, 0, captured)
        .unwrap();
    ctx.transform_feedback_attribs(0, &["result.color"])
        .unwrap();

    let arr = texture(&mut ctx, gl::TEXTURE_2D_ARRAY, [4, 4, 4], gl::RGBA8);
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    ctx.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, arr, 0)
        .unwrap();
    assert_eq!(status(&ctx), gl::FRAMEBUFFER_COMPLETE);
    ctx.begin_query(gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, 1)
        .unwrap();
    ctx.begin_transform_feedback(gl::TRIANGLES).unwrap();
    // One triangle covering the whole target.
    let tri = [
        [-1.0f32, -1.0, 0.0, 1.0],
        [3.0, -1.0, 0.0, 1.0],
        [-1.0, 3.0, 0.0, 1.0],
    ];
    let vb = ctx.create_buffer().unwrap();
    ctx.bind_buffer(gl::ARRAY_BUFFER, vb).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &tri, gl::STATIC_DRAW)
        .unwrap();
    ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 0, 0)
        .unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap();
    ctx.end_transform_feedback().unwrap();
    ctx.end_query(gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
        .unwrap();

    let count = |ctx: &mut Context, b: u32| {
        ctx.bind_buffer(gl::ATOMIC_COUNTER_BUFFER, b).unwrap();
        let bytes = ctx
            .get_buffer_sub_data(gl::ATOMIC_COUNTER_BUFFER, 0, 4)
            .unwrap();
        u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
    };
    assert_eq!(count(&mut ctx, counters[0]), 3, "vertex invocations");
    assert_eq!(count(&mut ctx, counters[1]), 1, "geometry invocations");
    assert_eq!(ctx.get_query_result(1).unwrap(), 4, "primitives captured");
    // The captured triangles in emission order: one per layer, each in its colour.
    ctx.bind_buffer(gl::TRANSFORM_FEEDBACK_BUFFER, captured)
        .unwrap();
    let bytes = ctx
        .get_buffer_sub_data(gl::TRANSFORM_FEEDBACK_BUFFER, 0, 4 * 3 * 16)
        .unwrap();
    let floats: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let want = [
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
        [0.0, 0.0, 1.0, 1.0],
        [1.0, 1.0, 1.0, 1.0],
    ];
    for (k, colour) in want.iter().enumerate() {
        for v in 0..3 {
            let at = (k * 3 + v) * 4;
            assert_eq!(floats[at..at + 4], colour[..], "triangle {k} vertex {v}");
        }
    }
    // Each layer holds its triangle.
    ctx.disable(gl::GEOMETRY_PROGRAM_NV).unwrap();
    let g = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, g).unwrap();
    for (layer, colour) in want.iter().enumerate() {
        ctx.framebuffer_texture_layer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, arr, 0, layer as i32)
            .unwrap();
        assert_eq!(px(&ctx, 2, 1), *colour, "layer {layer}");
    }
}

/// A depth renderbuffer shared by two framebuffers holds one content: what the first
/// wrote decides the second's depth test, and it survives a change of attachments.
#[test]
fn shared_depth_renderbuffer_keeps_one_content() {
    let mut ctx = context(4, 4);
    let a = texture(&mut ctx, gl::TEXTURE_2D, [4, 4, 1], gl::RGBA8);
    let b = texture(&mut ctx, gl::TEXTURE_2D, [4, 4, 1], gl::RGBA8);
    let d = ctx.gen_renderbuffers(1).unwrap()[0];
    ctx.bind_renderbuffer(gl::RENDERBUFFER, d).unwrap();
    ctx.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH24_STENCIL8, 4, 4)
        .unwrap();
    let f = ctx.gen_framebuffers(2).unwrap();
    for (&fbo, tex) in f.iter().zip([a, b]) {
        ctx.bind_framebuffer(gl::FRAMEBUFFER, fbo).unwrap();
        ctx.framebuffer_texture_2d(
            gl::FRAMEBUFFER,
            gl::COLOR_ATTACHMENT0,
            gl::TEXTURE_2D,
            tex,
            0,
        )
        .unwrap();
        ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::DEPTH_ATTACHMENT, gl::RENDERBUFFER, d)
            .unwrap();
        assert_eq!(status(&ctx), gl::FRAMEBUFFER_COMPLETE);
        ctx.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT)
            .unwrap();
    }
    ctx.enable(gl::DEPTH_TEST).unwrap();
    let at_depth = |z: f32| {
        format!("!!ARBfp1.0\nMOV result.color, fragment.color;\nMOV result.depth.z, {{{z}, {z}, {z}, {z}}};\nEND\n")
    };
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f[0]).unwrap();
    fragment(&mut ctx, &at_depth(0.25));
    rect(&mut ctx, [-1.0, -1.0, 0.0, 1.0], 0.0, [1.0, 0.0, 0.0, 1.0]);
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f[1]).unwrap();
    fragment(&mut ctx, &at_depth(0.5));
    rect(&mut ctx, FULL, 0.0, [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(px(&ctx, 0, 0), [0.0; 4], "behind what f[0] drew");
    assert_eq!(px(&ctx, 3, 0), [0.0, 1.0, 0.0, 1.0]);
    // A new attachment rebuilds f[0]'s storage; the renderbuffer keeps its depth.
    let c = texture(&mut ctx, gl::TEXTURE_2D, [4, 4, 1], gl::RGBA8);
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f[0]).unwrap();
    ctx.framebuffer_texture_2d(
        gl::FRAMEBUFFER,
        gl::COLOR_ATTACHMENT0 + 1,
        gl::TEXTURE_2D,
        c,
        0,
    )
    .unwrap();
    let q = |v: f32| (v * 16_777_215.0).round() / 16_777_215.0;
    assert!((ctx.read_depth(0, 0).unwrap() - q(0.25)).abs() < 1e-6);
    assert!((ctx.read_depth(3, 0).unwrap() - q(0.5)).abs() < 1e-6);
}
