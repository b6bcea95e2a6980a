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
