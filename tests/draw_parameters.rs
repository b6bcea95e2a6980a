//! ARB_shader_draw_parameters in vertex programs (`OPTION ARB_shader_draw_parameters`):
//! `vertex.baseVertex`, `vertex.baseInstance` and `vertex.draw.id` carry what the draw
//! command was given, as emulators' GLASM back ends read them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod common;

use glemu::{gl, Context};

/// A 4×1 framebuffer with a vertex program writing (baseVertex, baseInstance, draw id)
/// / 8 as the colour of a point at x = attribute 0.
fn setup() -> Context {
    let mut ctx = Context::new(4, 1).unwrap();
    let vp = "!!NVvp5.0\nOPTION NV_internal;OPTION ARB_shader_draw_parameters;INT TEMP R0;TEMP R1;\
              MOV.S R0.x,vertex.baseVertex.x;MOV.S R0.y,vertex.baseInstance.x;MOV.S R0.z,vertex.draw.id.x;\
              I2F R1.xyz,R0;MUL.F result.color.xyz,R1,0.125;MOV.F result.color.w,1;\
              MOV.F result.position,vertex.attrib[0];END";
    let fp = "!!NVfp5.0\nMOV result.color, fragment.color;\nEND\n";
    ctx.bind_program(gl::VERTEX_PROGRAM_ARB, 1).unwrap();
    ctx.program_string(gl::VERTEX_PROGRAM_ARB, vp).unwrap();
    ctx.enable(gl::VERTEX_PROGRAM_ARB).unwrap();
    ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 2).unwrap();
    ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, fp).unwrap();
    ctx.enable(gl::FRAGMENT_PROGRAM_ARB).unwrap();
    // Point k sits on pixel k (NDC x = -0.75 + 0.5k).
    let xy: Vec<f32> = (0..4).flat_map(|k| [-0.75 + 0.5 * k as f32, 0.0]).collect();
    ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &xy, gl::STATIC_DRAW)
        .unwrap();
    ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 8, 0)
        .unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
    ctx.clear_color([0.0; 4]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx
}

/// Pixel k's colour × 8, rounded: (baseVertex, baseInstance, draw id).
fn params(ctx: &mut Context) -> Vec<[i32; 3]> {
    let px = ctx
        .read_pixels_as::<[f32; 4]>(0, 0, 4, 1, gl::RGBA, gl::FLOAT)
        .unwrap();
    px.iter()
        .map(|c| [0, 1, 2].map(|i| (c[i] * 8.0).round() as i32))
        .collect()
}

#[test]
fn multi_draw_gives_each_draw_its_index() {
    let mut ctx = setup();
    ctx.multi_draw_arrays(gl::POINTS, &[0, 1, 2, 3], &[1, 1, 1, 1])
        .unwrap();
    // Non-indexed draws have no base vertex parameter: 0 (the spec), not `first`.
    assert_eq!(
        params(&mut ctx),
        [[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 0, 3]]
    );
    // A plain draw afterwards is draw 0 again.
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.draw_arrays(gl::POINTS, 3, 1).unwrap();
    assert_eq!(params(&mut ctx)[3], [0, 0, 0]);
}

#[test]
fn base_vertex_and_base_instance_come_from_the_command() {
    let mut ctx = setup();
    ctx.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, 2).unwrap();
    ctx.buffer_data(gl::ELEMENT_ARRAY_BUFFER, &[0u32, 1], gl::STATIC_DRAW)
        .unwrap();
    // Indices 0, 1 + base vertex 2: pixels 2 and 3.
    ctx.draw_elements_instanced_base_vertex_base_instance(
        gl::POINTS,
        2,
        gl::UNSIGNED_INT,
        0,
        1,
        2,
        5,
    )
    .unwrap();
    ctx.draw_arrays_instanced_base_instance(gl::POINTS, 0, 1, 1, 3)
        .unwrap();
    assert_eq!(
        params(&mut ctx),
        [[0, 3, 0], [0, 0, 0], [2, 5, 0], [2, 5, 0]]
    );
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.multi_draw_elements_base_vertex(gl::POINTS, &[1, 1], gl::UNSIGNED_INT, &[0, 4], &[0, 1])
        .unwrap();
    // Draw 1: index 1 + base vertex 1 = vertex 2.
    let p = params(&mut ctx);
    assert_eq!((p[0], p[2]), ([0, 0, 0], [1, 0, 1]));
}
