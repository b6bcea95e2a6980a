//! NV_shader_thread_group's `*.warpid` / `*.smid` bindings: glemu runs one warp (an
//! executor batch) at a time on one SM, so both read 0 in every stage that supports them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::{gl, Context};

/// Draws a full-screen quad with the given programs and returns pixel (1, 1) as RGBA8.
fn draw(vp: &str, fp: &str) -> [u8; 4] {
    let mut ctx = Context::new(4, 4).unwrap();
    ctx.bind_program(gl::VERTEX_PROGRAM_ARB, 1).unwrap();
    ctx.program_string(gl::VERTEX_PROGRAM_ARB, vp).unwrap();
    ctx.enable(gl::VERTEX_PROGRAM_ARB).unwrap();
    ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 2).unwrap();
    ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, fp).unwrap();
    ctx.enable(gl::FRAGMENT_PROGRAM_ARB).unwrap();
    let verts: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &verts, gl::STATIC_DRAW)
        .unwrap();
    ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 8, 0)
        .unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
    ctx.clear_color([0.5, 0.5, 0.5, 0.5]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.draw_arrays(gl::TRIANGLE_STRIP, 0, 4).unwrap();
    let px = ctx
        .read_pixels_as::<[f32; 4]>(0, 0, 4, 4, gl::RGBA, gl::FLOAT)
        .unwrap();
    px[5].map(|c| (c * 255.0).round() as u8)
}

#[test]
fn warpid_and_smid_read_zero_in_vertex_and_fragment_programs() {
    // Green = 1 - (warpid + smid) of the vertex stage; blue the same of the fragment stage.
    let vp = "!!NVvp5.0\nOPTION NV_shader_thread_group;\nUINT TEMP t;\nTEMP f;\nADD.U t.x, vertex.warpid.x, vertex.smid.x;\nI2F.U f.x, t.x;\nMOV result.position, vertex.attrib[0];\nSUB result.texcoord[0], 1, f.x;\nEND\n";
    let fp = "!!NVfp5.0\nOPTION NV_shader_thread_group;\nUINT TEMP t;\nTEMP f;\nADD.U t.x, fragment.warpid.x, fragment.smid.x;\nI2F.U f.x, t.x;\nMOV result.color, {0, 0, 0, 1};\nMOV result.color.y, fragment.texcoord[0].x;\nSUB result.color.z, 1, f.x;\nEND\n";
    assert_eq!(draw(vp, fp), [0, 255, 255, 255]);
}
