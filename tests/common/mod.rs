//! Helpers shared by the integration tests (each test file includes this with `mod common;`).
// Every test file uses a different subset; the rest would warn as dead in that file.
#![allow(dead_code)]

use glemu::{gl, Context};

/// Binds and enables ARB programs that take the position from attribute 0 and the colour
/// from attribute 1, and write the interpolated colour.
pub fn passthrough(ctx: &mut Context) {
    ctx.bind_program(gl::VERTEX_PROGRAM_ARB, 1).unwrap();
    ctx.program_string(
        gl::VERTEX_PROGRAM_ARB,
        "!!ARBvp1.0\nMOV result.position, vertex.attrib[0];\nMOV result.color, vertex.attrib[1];\nEND\n",
    )
    .unwrap();
    ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 2).unwrap();
    ctx.program_string(
        gl::FRAGMENT_PROGRAM_ARB,
        "!!ARBfp1.0\nMOV result.color, fragment.color;\nEND\n",
    )
    .unwrap();
    ctx.enable(gl::VERTEX_PROGRAM_ARB).unwrap();
    ctx.enable(gl::FRAGMENT_PROGRAM_ARB).unwrap();
}

/// Loads and enables vertex program `vp` and fragment program `fp` (names 1 and 2).
pub fn programs(ctx: &mut Context, vp: &str, fp: &str) {
    ctx.bind_program(gl::VERTEX_PROGRAM_ARB, 1).unwrap();
    ctx.program_string(gl::VERTEX_PROGRAM_ARB, vp).unwrap();
    ctx.enable(gl::VERTEX_PROGRAM_ARB).unwrap();
    ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 2).unwrap();
    ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, fp).unwrap();
    ctx.enable(gl::FRAGMENT_PROGRAM_ARB).unwrap();
}

/// A full-screen quad (a 4-vertex TRIANGLE_STRIP) in attribute 0, from a new buffer.
pub fn fullscreen_strip(ctx: &mut Context) {
    let quad: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
    let b = ctx.create_buffer().unwrap();
    ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &quad, gl::STATIC_DRAW)
        .unwrap();
    ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 0, 0)
        .unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
}
