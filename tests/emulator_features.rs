//! What the options emulator GLASM back ends use compute, end to end: `.LODCLAMP`
//! (ARB_sparse_texture_clamp), `.SPARSE` with `RESIDENT`/`NONRESIDENT` tests
//! (EXT_sparse_texture2), formatted `LOADIM` (EXT_shader_image_load_formatted) and
//! F16X2 atomics (NV_shader_atomic_fp16_vector), in the textual form those back ends
//! print. Every expected value follows from the specs.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod common;

use glemu::scene::{self, Outcome};
use glemu::{gl, Context};
use glemu_textures::Format;

fn pass(text: &str) {
    let r = scene::run_text(text, std::path::Path::new("."));
    assert_eq!(
        r.outcome,
        Outcome::Pass,
        "{}\n{text}",
        r.messages.join("\n")
    );
}

/// An 8×8 scene sampling `texture miptree 0` (levels red, green, blue, white; nearest
/// mipmapping) at one texel per pixel, so the implicit LOD is 0: `body` is the fragment
/// program's body, with R1 holding the coordinates.
fn miptree_scene(body: &str, probe: &str) -> String {
    format!(
        "[require]\nGL_NV_gpu_program5\nSIZE 8 8\n\n[fragment program]\n!!NVfp5.0\n\
         OPTION NV_internal;OPTION ARB_sparse_texture_clamp;OPTION EXT_sparse_texture2;\
         TEMP R0,R1,R2,RC;MOV.F R1,{{0,0,0,0}};MUL.F R1.xy,fragment.position,0.125;{body}END\n\n\
         [test]\ntexture miptree 0\ndraw rect -1 -1 2 2\n{probe}\n"
    )
}

#[test]
fn lod_clamp_raises_the_implicit_lod() {
    // No clamp: level 0 (red).
    pass(&miptree_scene(
        "TEX.F R0,R1,texture[0],2D;MOV result.color,R0;",
        "probe all rgba 1 0 0 1",
    ));
    // TEX.LODCLAMP with the clamp in the second operand's x: level 1 (green), level 2.
    pass(&miptree_scene(
        "MOV.F R2,{1,2,0,0};TEX.F.LODCLAMP R0,R1,R2.x,texture[0],2D;MOV result.color,R0;",
        "probe all rgba 0 1 0 1",
    ));
    pass(&miptree_scene(
        "MOV.F R2,{1,2,0,0};TEX.F.LODCLAMP R0,R1,R2.y,texture[0],2D;MOV result.color,R0;",
        "probe all rgba 0 0 1 1",
    ));
    // A clamp below the computed LOD changes nothing.
    pass(&miptree_scene(
        "TEX.F.LODCLAMP R0,R1,-4.0,texture[0],2D;MOV result.color,R0;",
        "probe all rgba 1 0 0 1",
    ));
    // TXB: bias in w, clamp in the second operand (bias 1 + clamp 3 = level 3, white).
    pass(&miptree_scene(
        "MOV.F R1.w,1;MOV.F R2,{3,0,0,0};TXB.F.LODCLAMP R0,R1,R2.x,texture[0],2D;MOV result.color,R0;",
        "probe all rgba 1 1 1 1",
    ));
    // TXD: zero derivatives (LOD -inf), clamp in the w of the y derivatives.
    pass(&miptree_scene(
        "MOV.F R2,{0,0,0,2};TXD.F.LODCLAMP R0,R1,{0,0,0,0},R2,texture[0],2D;MOV result.color,R0;",
        "probe all rgba 0 0 1 1",
    ));
}

#[test]
fn sparse_lookups_are_always_resident() {
    // The emitters' pattern: R2 = -1, then 0 where NONRESIDENT; R3 = 1 where RESIDENT.
    pass(&miptree_scene(
        "TEX.F.SPARSE R0,R1,texture[0],2D;MOV.S R2,-1;MOV.S R2(NONRESIDENT),0;\
         MOV.F R0.y,0;MOV.F R0.y(RESIDENT),0.5;\
         SNE.S RC.x,R2.x,0;MOV.F R0.z,0;MOV.F R0.z(NE.x),1;MOV result.color,R0;",
        "probe all rgba 1 0.5 1 1",
    ));
    // TXF.SPARSE / LODCLAMP together on level 1.
    pass(&miptree_scene(
        "MOV.S R2,{1,1,0,1};TXF.F.SPARSE R0,R2,texture[0],2D;MOV result.color,R0;",
        "probe all rgba 0 1 0 1",
    ));
}

/// A w×h context running `fp` over a triangle covering the window.
fn fullscreen(w: u32, h: u32, threads: usize, fp: &str) -> Context {
    let mut ctx = Context::new(w, h).unwrap();
    ctx.set_threads(threads).unwrap();
    ctx.bind_program(gl::VERTEX_PROGRAM_ARB, 1).unwrap();
    ctx.program_string(
        gl::VERTEX_PROGRAM_ARB,
        "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nEND\n",
    )
    .unwrap();
    ctx.enable(gl::VERTEX_PROGRAM_ARB).unwrap();
    ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 2).unwrap();
    ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, fp)
        .unwrap_or_else(|e| panic!("{e}"));
    ctx.enable(gl::FRAGMENT_PROGRAM_ARB).unwrap();
    let tri = [-1.0f32, -1.0, 3.0, -1.0, -1.0, 3.0];
    ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &tri, gl::STATIC_DRAW)
        .unwrap();
    ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 0, 0)
        .unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
    ctx
}

#[test]
fn formatted_image_loads_convert_from_the_unit_format() {
    let fp = "!!NVfp5.0\nOPTION NV_internal;OPTION EXT_shader_image_load_formatted;TEMP R0,R1;\
              INT TEMP c;FLR.S c.xy,fragment.position;MOV.S c.zw,0;\
              LOADIM.F R0,c,image[0],2D;LOADIM.U R1,c,image[1],2D;\
              I2F.U R1,R1;MAD.F result.color,R1,0.25,R0;END";
    let mut ctx = fullscreen(2, 1, 1, fp);
    // Image 0: RGBA8 texels read back as normalized floats; image 1: R8UI as integers
    // with the missing components 0, 0, 1.
    let rgba8 = ctx.gen_textures(1).unwrap()[0];
    ctx.bind_texture(gl::TEXTURE_2D, rgba8).unwrap();
    let half = 0.5f32.to_bits();
    let one = 1.0f32.to_bits();
    ctx.tex_image_texels(
        gl::TEXTURE_2D,
        0,
        Format::RGBA8,
        [2, 1, 1],
        Some(&[[0, half, 0, one], [half, 0, 0, one]]),
    )
    .unwrap();
    let r8 = ctx.gen_textures(1).unwrap()[0];
    ctx.bind_texture(gl::TEXTURE_2D, r8).unwrap();
    ctx.tex_image_texels(
        gl::TEXTURE_2D,
        0,
        Format::R8UI,
        [2, 1, 1],
        Some(&[[2, 0, 0, 1], [1, 0, 0, 1]]),
    )
    .unwrap();
    ctx.bind_image_texture(0, rgba8, 0, false, 0, gl::READ_ONLY, gl::RGBA8)
        .unwrap();
    ctx.bind_image_texture(1, r8, 0, false, 0, gl::READ_ONLY, gl::R8UI)
        .unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap();
    let px = ctx
        .read_pixels_as::<[f32; 4]>(0, 0, 2, 1, gl::RGBA, gl::FLOAT)
        .unwrap();
    let q = |v: [f32; 4]| v.map(|c| (c * 255.0).round() as u8);
    // RGBA8 (0, 128, 0, 255)/255 + R8UI (2, 0, 0, 1)/4, clamped.
    assert_eq!(q(px[0]), [128, 128, 0, 255]);
    assert_eq!(q(px[1]), [192, 0, 0, 255]);
}

#[test]
fn f16x2_storage_atomics_update_each_half() {
    // Four fragments each add (0.5, 1.0) to the first word and take the max with their
    // window position in the second; emulators spell the modifier F16x2.
    let fp = "!!NVfp5.0\nOPTION NV_internal;OPTION NV_shader_storage_buffer;OPTION NV_shader_atomic_fp16_vector;\
              STORAGE ssbo0[]={program.storage[0]};TEMP R0,R1;\
              MOV.F R1,{0.5,1,0,0};ATOMB.ADD.F16x2 R0,R1,ssbo0[0];\
              MOV.F R1,fragment.position;ATOMB.MAX.F16X2 R0,R1,ssbo0[4];\
              MOV result.color,{0,1,0,1};END";
    for threads in [1, 2] {
        let mut ctx = fullscreen(2, 2, threads, fp);
        ctx.bind_buffer(gl::SHADER_STORAGE_BUFFER, 7).unwrap();
        ctx.buffer_data(gl::SHADER_STORAGE_BUFFER, &[0u8; 8], gl::STATIC_DRAW)
            .unwrap();
        ctx.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, 7)
            .unwrap();
        ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap();
        let b = ctx
            .get_buffer_sub_data(gl::SHADER_STORAGE_BUFFER, 0, 8)
            .unwrap();
        let h = |i: usize| half::f16::from_le_bytes([b[2 * i], b[2 * i + 1]]).to_f32();
        assert_eq!([h(0), h(1), h(2), h(3)], [2.0, 4.0, 1.5, 1.5]);
    }
}
