//! Vertex array objects: per-VAO layouts and element buffers survive switching.

mod common;

use common::passthrough;
use glemu::{gl, Context, GlError};

/// VAO `a`: separate position/colour buffers, red, `draw_arrays`.
/// VAO `b`: one interleaved buffer plus an element buffer, green, `draw_elements`.
fn two_vaos(ctx: &mut Context) -> (u32, u32) {
    let ids = ctx.gen_vertex_arrays(2);
    let (a, b) = (ids[0], ids[1]);
    let quad = [
        -1.0f32, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0, 1.0,
    ];
    ctx.bind_vertex_array(a).unwrap();
    ctx.bind_buffer(gl::ARRAY_BUFFER, 10).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &quad, gl::STATIC_DRAW)
        .unwrap();
    ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 0, 0)
        .unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
    ctx.bind_buffer(gl::ARRAY_BUFFER, 11).unwrap();
    ctx.buffer_data(
        gl::ARRAY_BUFFER,
        &[1.0f32, 0.0, 0.0, 1.0].repeat(6),
        gl::STATIC_DRAW,
    )
    .unwrap();
    ctx.vertex_attrib_pointer(1, 4, gl::FLOAT, false, 0, 0)
        .unwrap();
    ctx.enable_vertex_attrib_array(1).unwrap();

    ctx.bind_vertex_array(b).unwrap();
    let mut inter = Vec::new();
    for p in [[-1.0f32, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]] {
        inter.extend_from_slice(&[0.0, 1.0, 0.0, 1.0, p[0], p[1]]);
    }
    ctx.bind_buffer(gl::ARRAY_BUFFER, 12).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &inter, gl::STATIC_DRAW)
        .unwrap();
    ctx.vertex_attrib_pointer(1, 4, gl::FLOAT, false, 24, 0)
        .unwrap();
    ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 24, 16)
        .unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
    ctx.enable_vertex_attrib_array(1).unwrap();
    ctx.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, 13).unwrap();
    ctx.buffer_data(
        gl::ELEMENT_ARRAY_BUFFER,
        &[0u32, 1, 2, 0, 2, 3],
        gl::STATIC_DRAW,
    )
    .unwrap();
    (a, b)
}

fn centre(ctx: &Context) -> [f32; 4] {
    ctx.read_pixels_as::<[f32; 4]>(2, 2, 1, 1, gl::RGBA, gl::FLOAT)
        .unwrap()[0]
}

#[test]
fn two_layouts_drawn_alternately() {
    let mut ctx = Context::new(4, 4).unwrap();
    passthrough(&mut ctx);
    let (a, b) = two_vaos(&mut ctx);
    for round in 0..2 {
        ctx.bind_vertex_array(a).unwrap();
        ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
        assert_eq!(centre(&ctx), [1.0, 0.0, 0.0, 1.0], "round {round} vao a");
        ctx.bind_vertex_array(b).unwrap();
        ctx.draw_elements(gl::TRIANGLES, 6, gl::UNSIGNED_INT, 0)
            .unwrap();
        assert_eq!(centre(&ctx), [0.0, 1.0, 0.0, 1.0], "round {round} vao b");
    }
}

#[test]
fn element_buffer_binding_is_per_vao() {
    let mut ctx = Context::new(4, 4).unwrap();
    passthrough(&mut ctx);
    let (a, b) = two_vaos(&mut ctx);
    ctx.bind_vertex_array(a).unwrap();
    let e = ctx
        .draw_elements(gl::TRIANGLES, 6, gl::UNSIGNED_INT, 0)
        .unwrap_err();
    assert_eq!(e.gl, GlError::InvalidOperation);
    ctx.bind_vertex_array(0).unwrap();
    assert!(ctx
        .draw_elements(gl::TRIANGLES, 6, gl::UNSIGNED_INT, 0)
        .is_err());
    ctx.bind_vertex_array(b).unwrap();
    ctx.draw_elements(gl::TRIANGLES, 6, gl::UNSIGNED_INT, 0)
        .unwrap();
}

#[test]
fn deleting_bound_vao_rebinds_default() {
    let mut ctx = Context::new(4, 4).unwrap();
    passthrough(&mut ctx);
    let (a, b) = two_vaos(&mut ctx);
    assert!(ctx.is_vertex_array(a) && ctx.is_vertex_array(b));
    ctx.delete_vertex_arrays(&[b]);
    assert!(!ctx.is_vertex_array(b));
    // Default VAO has no element buffer and no enabled arrays.
    assert!(ctx
        .draw_elements(gl::TRIANGLES, 6, gl::UNSIGNED_INT, 0)
        .is_err());
    ctx.bind_vertex_array(a).unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    assert_eq!(centre(&ctx), [1.0, 0.0, 0.0, 1.0]);
}
