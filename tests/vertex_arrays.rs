//! Vertex array objects: per-VAO layouts and element buffers survive switching.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod common;

use common::passthrough;
use glemu::{gl, Context, GlError};

/// VAO `a`: separate position/colour buffers, red, `draw_arrays`.
/// VAO `b`: one interleaved buffer plus an element buffer, green, `draw_elements`.
fn two_vaos(ctx: &mut Context) -> (u32, u32) {
    let ids = ctx.gen_vertex_arrays(2).unwrap();
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

/// ARB_vertex_attrib_binding: two attributes of one interleaved buffer through one
/// binding, formats with relative offsets.
#[test]
fn attribute_formats_read_a_shared_binding() {
    let mut ctx = Context::new(4, 4).unwrap();
    passthrough(&mut ctx);
    // Per vertex: colour as 4 normalized bytes at 0, position as 2 floats at 4.
    let mut bytes: Vec<u8> = Vec::new();
    for p in [[-1.0f32, -1.0], [3.0, -1.0], [-1.0, 3.0]] {
        bytes.extend_from_slice(&[0, 255, 51, 255]);
        bytes.extend_from_slice(bytemuck::cast_slice(&p));
    }
    let b = ctx.create_buffer().unwrap();
    ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &bytes, gl::STATIC_DRAW)
        .unwrap();
    ctx.bind_buffer(gl::ARRAY_BUFFER, 0).unwrap();
    ctx.bind_vertex_buffer(5, b, 0, 12).unwrap();
    ctx.vertex_attrib_format(0, 2, gl::FLOAT, false, 4).unwrap();
    ctx.vertex_attrib_format(1, 4, gl::UNSIGNED_BYTE, true, 0)
        .unwrap();
    ctx.vertex_attrib_binding(0, 5).unwrap();
    ctx.vertex_attrib_binding(1, 5).unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
    ctx.enable_vertex_attrib_array(1).unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap();
    assert_eq!(centre(&ctx), [0.0, 1.0, 0.2, 1.0]);
    // glVertexAttribPointer(1, ...) rebinds attribute 1 to binding 1: attribute 0 keeps
    // reading binding 5.
    let red = ctx.create_buffer().unwrap();
    ctx.bind_buffer(gl::ARRAY_BUFFER, red).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &[1.0f32, 0.0, 0.0, 1.0], gl::STATIC_DRAW)
        .unwrap();
    ctx.vertex_attrib_pointer(1, 4, gl::FLOAT, false, 0, 0)
        .unwrap();
    ctx.bind_vertex_buffer(1, red, 0, 0).unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap();
    assert_eq!(centre(&ctx), [1.0, 0.0, 0.0, 1.0]);
}

/// A binding's divisor is shared by every attribute reading it, and
/// glVertexAttribDivisor sets the divisor of the attribute's own binding.
#[test]
fn binding_divisors_step_per_instance() {
    let mut ctx = Context::new(4, 4).unwrap();
    passthrough(&mut ctx);
    let tri = [-1.0f32, -1.0, 3.0, -1.0, -1.0, 3.0];
    let colours = [[0.0f32, 0.0, 1.0, 1.0], [0.0, 1.0, 0.0, 1.0]];
    let (pos, col) = (ctx.create_buffer().unwrap(), ctx.create_buffer().unwrap());
    ctx.bind_buffer(gl::ARRAY_BUFFER, pos).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &tri, gl::STATIC_DRAW)
        .unwrap();
    ctx.bind_buffer(gl::ARRAY_BUFFER, col).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &colours, gl::STATIC_DRAW)
        .unwrap();
    ctx.bind_vertex_buffer(0, pos, 0, 8).unwrap();
    ctx.bind_vertex_buffer(1, col, 0, 16).unwrap();
    ctx.vertex_attrib_format(0, 2, gl::FLOAT, false, 0).unwrap();
    ctx.vertex_attrib_format(1, 4, gl::FLOAT, false, 0).unwrap();
    ctx.vertex_attrib_binding(0, 0).unwrap();
    ctx.vertex_attrib_binding(1, 1).unwrap();
    ctx.vertex_binding_divisor(1, 1).unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
    ctx.enable_vertex_attrib_array(1).unwrap();
    // Two instances over the same pixels: the second (green) is drawn last.
    ctx.draw_arrays_instanced(gl::TRIANGLES, 0, 3, 2).unwrap();
    assert_eq!(centre(&ctx), [0.0, 1.0, 0.0, 1.0]);
    // glVertexAttribDivisor(1, 0) sets the divisor of binding 1 (attribute 1's own);
    // with a stride of 0 every vertex of every instance reads colour 0.
    ctx.vertex_attrib_divisor(1, 0).unwrap();
    ctx.bind_vertex_buffer(1, col, 0, 0).unwrap();
    ctx.draw_arrays_instanced(gl::TRIANGLES, 0, 3, 2).unwrap();
    assert_eq!(
        centre(&ctx),
        [0.0, 0.0, 1.0, 1.0],
        "stride 0: every vertex reads colour 0"
    );
}
