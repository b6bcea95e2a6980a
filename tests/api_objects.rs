//! Transform feedback objects and their draws (ARB_transform_feedback2/3), buffer range
//! mappings and flushes, buffer-to-buffer copies and multi-draw-indirect, checked by
//! pixels, query counts and buffer contents.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod common;

use common::passthrough;
use glemu::{gl, Context};

const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const CLEAR: [f32; 4] = [0.0, 0.0, 0.0, 0.0];

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Attribute 0 (`pos` components) and 1 (4 components) from `buffer`, interleaved with
/// `stride` bytes per vertex, colour at byte `color_at`.
fn attribs_from(ctx: &mut Context, buffer: u32, pos: i32, stride: i32, color_at: u64) {
    ctx.bind_buffer(gl::ARRAY_BUFFER, buffer).unwrap();
    ctx.vertex_attrib_pointer(0, pos, gl::FLOAT, false, stride, 0)
        .unwrap();
    ctx.vertex_attrib_pointer(1, 4, gl::FLOAT, false, stride, color_at)
        .unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
    ctx.enable_vertex_attrib_array(1).unwrap();
}

/// Vertices 0..6 cover the left half in red, 6..12 the right half in green (position and
/// colour interleaved in buffer `buffer`, bound as the draw's attributes).
fn red_green_halves(ctx: &mut Context, buffer: u32) {
    let mut v = Vec::new();
    for (x0, x1, c) in [(-1.0, 0.0, RED), (0.0, 1.0, GREEN)] {
        for p in [
            [x0, -1.0],
            [x1, -1.0],
            [x1, 1.0],
            [x0, -1.0],
            [x1, 1.0],
            [x0, 1.0],
        ] {
            v.extend_from_slice(&p);
            v.extend_from_slice(&c);
        }
    }
    ctx.bind_buffer(gl::ARRAY_BUFFER, buffer).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &v, gl::STATIC_DRAW)
        .unwrap();
    attribs_from(ctx, buffer, 2, 24, 8);
}

/// xy + rgba per vertex: a full-screen quad (two triangles) in `quad` colour, then one
/// lower-left triangle in `tri` colour.
fn scene_vertices(quad: [f32; 4], tri: [f32; 4]) -> Vec<f32> {
    let mut v = Vec::new();
    for p in [
        [-1.0, -1.0],
        [1.0, -1.0],
        [1.0, 1.0],
        [-1.0, -1.0],
        [1.0, 1.0],
        [-1.0, 1.0],
    ] {
        v.extend_from_slice(&p);
        v.extend_from_slice(&quad);
    }
    for p in [[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]] {
        v.extend_from_slice(&p);
        v.extend_from_slice(&tri);
    }
    v
}

fn primitives_generated(ctx: &mut Context, draw: impl FnOnce(&mut Context)) -> u32 {
    let q = ctx.gen_queries(1).unwrap()[0];
    ctx.begin_query(gl::PRIMITIVES_GENERATED, q).unwrap();
    draw(ctx);
    ctx.end_query(gl::PRIMITIVES_GENERATED).unwrap();
    ctx.get_query_object_uiv(q, gl::QUERY_RESULT).unwrap()
}

/// Captured vertices hold position and colour: 8 floats, 32 bytes.
const CAPTURE_STRIDE: i32 = 32;

/// Object A captures the quad (6 vertices) into buffer 20, object B the triangle (3
/// vertices) into buffer 21; rasterization is discarded while capturing.
fn capture_two_objects(ctx: &mut Context) -> (u32, u32) {
    passthrough(ctx);
    ctx.bind_buffer(gl::ARRAY_BUFFER, 10).unwrap();
    ctx.buffer_data(
        gl::ARRAY_BUFFER,
        &scene_vertices(RED, GREEN),
        gl::STATIC_DRAW,
    )
    .unwrap();
    attribs_from(ctx, 10, 2, 24, 8);
    ctx.transform_feedback_attribs(0, &["result.position", "result.color"])
        .unwrap();
    let t = ctx.gen_transform_feedbacks(2).unwrap();
    ctx.enable(gl::RASTERIZER_DISCARD).unwrap();
    for (obj, buffer, first, n) in [(t[0], 20, 0, 6), (t[1], 21, 6, 3)] {
        ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, obj)
            .unwrap();
        ctx.bind_buffer(gl::TRANSFORM_FEEDBACK_BUFFER, buffer)
            .unwrap();
        ctx.buffer_data_size(gl::TRANSFORM_FEEDBACK_BUFFER, 1024, gl::STATIC_DRAW)
            .unwrap();
        ctx.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, 0, buffer)
            .unwrap();
        ctx.begin_transform_feedback(gl::TRIANGLES).unwrap();
        ctx.draw_arrays(gl::TRIANGLES, first, n).unwrap();
        ctx.end_transform_feedback().unwrap();
    }
    ctx.disable(gl::RASTERIZER_DISCARD).unwrap();
    ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, 0)
        .unwrap();
    (t[0], t[1])
}

#[test]
fn draw_transform_feedback_draws_each_objects_own_count() {
    let mut ctx = Context::new(8, 8).unwrap();
    let (a, b) = capture_two_objects(&mut ctx);
    // What was captured: B's buffer starts with the green triangle's first vertex.
    ctx.bind_buffer(gl::COPY_READ_BUFFER, 21).unwrap();
    let head = f32s(
        &ctx.get_buffer_sub_data(gl::COPY_READ_BUFFER, 0, 32)
            .unwrap(),
    );
    assert_eq!(head, vec![-1.0, -1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]);

    // A's 6 vertices from A's buffer: the whole quad, red.
    attribs_from(&mut ctx, 20, 4, CAPTURE_STRIDE, 16);
    let n = primitives_generated(&mut ctx, |c| {
        c.draw_transform_feedback(gl::TRIANGLES, a).unwrap()
    });
    assert_eq!(n, 2, "A captured two triangles");
    assert_eq!(ctx.read_pixel(6, 6).unwrap(), RED);
    assert_eq!(ctx.read_pixel(1, 1).unwrap(), RED);

    // B's 3 vertices from B's buffer: the lower-left triangle only.
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    attribs_from(&mut ctx, 21, 4, CAPTURE_STRIDE, 16);
    let n = primitives_generated(&mut ctx, |c| {
        c.draw_transform_feedback(gl::TRIANGLES, b).unwrap()
    });
    assert_eq!(n, 1, "B captured one triangle");
    assert_eq!(ctx.read_pixel(1, 1).unwrap(), GREEN);
    assert_eq!(ctx.read_pixel(6, 6).unwrap(), CLEAR);

    // A's count with B's buffer reads past B's triangle: 6 vertices, 2 triangles.
    let n = primitives_generated(&mut ctx, |c| {
        c.draw_transform_feedback(gl::TRIANGLES, a).unwrap()
    });
    assert_eq!(n, 2);
    // Instanced: 3 instances of A's two triangles.
    let n = primitives_generated(&mut ctx, |c| {
        c.draw_transform_feedback_instanced(gl::TRIANGLES, a, 3)
            .unwrap()
    });
    assert_eq!(n, 6);
    // Nothing was captured on stream 1.
    let n = primitives_generated(&mut ctx, |c| {
        c.draw_transform_feedback_stream(gl::TRIANGLES, a, 1)
            .unwrap()
    });
    assert_eq!(n, 0);
    // The captured vertices drawn as points: A has 6.
    let n = primitives_generated(&mut ctx, |c| {
        c.draw_transform_feedback_stream_instanced(gl::POINTS, a, 0, 1)
            .unwrap()
    });
    assert_eq!(n, 6);
}

#[test]
fn objects_keep_their_buffer_bindings_and_paused_captures() {
    let mut ctx = Context::new(8, 8).unwrap();
    passthrough(&mut ctx);
    ctx.bind_buffer(gl::ARRAY_BUFFER, 10).unwrap();
    ctx.buffer_data(
        gl::ARRAY_BUFFER,
        &scene_vertices(RED, GREEN),
        gl::STATIC_DRAW,
    )
    .unwrap();
    attribs_from(&mut ctx, 10, 2, 24, 8);
    ctx.transform_feedback_attribs(0, &["result.position", "result.color"])
        .unwrap();
    ctx.enable(gl::RASTERIZER_DISCARD).unwrap();
    let t = ctx.gen_transform_feedbacks(2).unwrap();
    let binding = |c: &Context| {
        c.get_integer_i_v(gl::TRANSFORM_FEEDBACK_BUFFER_BINDING, 0)
            .unwrap()
    };
    for (obj, buffer) in [(t[0], 20), (t[1], 21)] {
        ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, obj)
            .unwrap();
        assert_eq!(binding(&ctx), 0, "a new object has no bindings");
        ctx.bind_buffer(gl::TRANSFORM_FEEDBACK_BUFFER, buffer)
            .unwrap();
        ctx.buffer_data_size(gl::TRANSFORM_FEEDBACK_BUFFER, 1024, gl::STATIC_DRAW)
            .unwrap();
        ctx.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, 0, buffer)
            .unwrap();
    }
    // A captures one triangle and pauses; B captures the quad meanwhile; A resumes and
    // captures one more triangle: A's count is 6 vertices, B's 6.
    ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, t[0])
        .unwrap();
    assert_eq!(binding(&ctx), 20);
    ctx.begin_transform_feedback(gl::TRIANGLES).unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 6, 3).unwrap();
    ctx.pause_transform_feedback(true).unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap(); // paused: not captured
    ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, t[1])
        .unwrap();
    assert_eq!(binding(&ctx), 21);
    assert_eq!(
        ctx.get_transform_feedback_iv(t[0], gl::TRANSFORM_FEEDBACK_PAUSED)
            .unwrap(),
        1
    );
    assert_eq!(
        ctx.get_transform_feedback_iv(t[1], gl::TRANSFORM_FEEDBACK_ACTIVE)
            .unwrap(),
        0
    );
    ctx.begin_transform_feedback(gl::TRIANGLES).unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    ctx.end_transform_feedback().unwrap();
    ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, t[0])
        .unwrap();
    ctx.resume_transform_feedback().unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 3, 3).unwrap();
    ctx.end_transform_feedback().unwrap();
    ctx.disable(gl::RASTERIZER_DISCARD).unwrap();

    // A's buffer: the green triangle, then the second red triangle, nothing between.
    ctx.bind_buffer(gl::COPY_READ_BUFFER, 20).unwrap();
    let a = f32s(
        &ctx.get_buffer_sub_data(gl::COPY_READ_BUFFER, 0, 6 * 32)
            .unwrap(),
    );
    assert_eq!(&a[4..8], &GREEN);
    assert_eq!(&a[3 * 8 + 4..3 * 8 + 8], &RED);
    assert_eq!(&a[3 * 8..3 * 8 + 2], &[-1.0, -1.0]);

    attribs_from(&mut ctx, 20, 4, CAPTURE_STRIDE, 16);
    for (obj, want) in [(t[0], 2), (t[1], 2)] {
        let n = primitives_generated(&mut ctx, |c| {
            c.draw_transform_feedback(gl::TRIANGLES, obj).unwrap()
        });
        assert_eq!(n, want, "object {obj}");
    }
    // Deleting the bound object falls back to the default object.
    ctx.delete_transform_feedbacks(&[t[0]]).unwrap();
    assert!(!ctx.is_transform_feedback(t[0]));
    assert!(ctx.is_transform_feedback(t[1]));
    assert_eq!(binding(&ctx), 0, "the default object has no bindings");
}

#[test]
fn map_buffer_range_windows_and_explicit_flushes() {
    let mut ctx = Context::new(8, 8).unwrap();
    let b = ctx.gen_buffers(1).unwrap()[0];
    ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
    let init: Vec<u8> = (0..32).collect();
    ctx.buffer_data(gl::ARRAY_BUFFER, &init, gl::DYNAMIC_DRAW)
        .unwrap();

    // A read window sees only its bytes, at window-relative offsets.
    let m = ctx
        .map_buffer_range(gl::ARRAY_BUFFER, 8, 8, gl::MAP_READ_BIT)
        .unwrap();
    assert_eq!(m.read(0, 8).unwrap(), (8..16).collect::<Vec<u8>>());
    assert!(m.read(4, 5).is_err(), "past the window");
    assert!(m.write(0, &[1u8]).is_err(), "read-only");
    assert_eq!(&*m.bytes().unwrap(), &init[8..16]);
    ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap();
    assert!(m.read(0, 1).is_err(), "stale after unmap");

    // A write window with INVALIDATE_RANGE writes through.
    let m = ctx
        .map_buffer_range(
            gl::ARRAY_BUFFER,
            4,
            4,
            gl::MAP_WRITE_BIT | gl::MAP_INVALIDATE_RANGE_BIT | gl::MAP_UNSYNCHRONIZED_BIT,
        )
        .unwrap();
    m.write(0, &[90u8, 91, 92, 93]).unwrap();
    ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap();
    assert_eq!(
        ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 3, 6).unwrap(),
        vec![3, 90, 91, 92, 93, 8]
    );

    // FLUSH_EXPLICIT: only the flushed sub-ranges reach the buffer.
    let m = ctx
        .map_buffer_range(
            gl::ARRAY_BUFFER,
            16,
            16,
            gl::MAP_WRITE_BIT | gl::MAP_READ_BIT | gl::MAP_FLUSH_EXPLICIT_BIT,
        )
        .unwrap();
    m.bytes().unwrap().fill(200);
    ctx.flush_mapped_buffer_range(gl::ARRAY_BUFFER, 2, 3)
        .unwrap();
    assert_eq!(
        ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 16, 6)
            .unwrap_err()
            .gl,
        glemu::GlError::InvalidOperation,
        "a mapped buffer cannot be read through the API"
    );
    ctx.flush_mapped_buffer_range(gl::ARRAY_BUFFER, 15, 1)
        .unwrap();
    assert_eq!(
        ctx.get_buffer_parameter_i64v(gl::ARRAY_BUFFER, gl::BUFFER_MAP_OFFSET)
            .unwrap(),
        16
    );
    ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap();
    let after = ctx.get_buffer_sub_data(gl::ARRAY_BUFFER, 16, 16).unwrap();
    let mut want: Vec<u8> = (16..32).collect();
    want[2..5].fill(200);
    want[15] = 200;
    assert_eq!(after, want, "unflushed writes are dropped");
    assert_eq!(
        ctx.get_buffer_parameter_iv(gl::ARRAY_BUFFER, gl::BUFFER_MAPPED)
            .unwrap(),
        0
    );
    assert_eq!(
        ctx.get_buffer_parameter_iv(gl::ARRAY_BUFFER, gl::BUFFER_ACCESS)
            .unwrap(),
        gl::READ_WRITE as i32
    );
}

#[test]
fn vertices_written_through_a_mapped_window_are_drawn() {
    let mut ctx = Context::new(8, 8).unwrap();
    passthrough(&mut ctx);
    ctx.bind_buffer(gl::ARRAY_BUFFER, 10).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &scene_vertices(RED, RED), gl::STATIC_DRAW)
        .unwrap();
    // Recolour the quad's second triangle (vertices 3..6, colour at byte 8 of 24) green.
    let m = ctx
        .map_buffer_range(gl::ARRAY_BUFFER, 3 * 24, 3 * 24, gl::MAP_WRITE_BIT)
        .unwrap();
    for v in 0..3 {
        m.write(v * 24 + 8, &GREEN).unwrap();
    }
    ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap();
    attribs_from(&mut ctx, 10, 2, 24, 8);
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    // Triangle 0 is below the diagonal (x > y), triangle 1 above it.
    assert_eq!(ctx.read_pixel(6, 1).unwrap(), RED);
    assert_eq!(ctx.read_pixel(1, 6).unwrap(), GREEN);
}

#[test]
fn copied_vertices_are_drawn() {
    let mut ctx = Context::new(8, 8).unwrap();
    passthrough(&mut ctx);
    let staging = scene_vertices(GREEN, RED);
    ctx.bind_buffer(gl::COPY_READ_BUFFER, 30).unwrap();
    ctx.buffer_data(gl::COPY_READ_BUFFER, &staging, gl::STATIC_COPY)
        .unwrap();
    ctx.bind_buffer(gl::COPY_WRITE_BUFFER, 31).unwrap();
    ctx.buffer_data_size(gl::COPY_WRITE_BUFFER, 6 * 24, gl::DYNAMIC_DRAW)
        .unwrap();
    // The green quad from the staging buffer...
    ctx.copy_buffer_sub_data(gl::COPY_READ_BUFFER, gl::COPY_WRITE_BUFFER, 0, 0, 6 * 24)
        .unwrap();
    assert_eq!(
        ctx.get_buffer_sub_data(gl::COPY_WRITE_BUFFER, 0, 6 * 24)
            .unwrap(),
        bytemuck::cast_slice::<f32, u8>(&staging)[..6 * 24].to_vec()
    );
    // ...then the red triangle's colour over vertex 3's, and within the destination from
    // vertex 3 to vertices 4 and 5 (disjoint ranges of one buffer): the quad's second
    // triangle turns red.
    ctx.copy_buffer_sub_data(
        gl::COPY_READ_BUFFER,
        gl::COPY_WRITE_BUFFER,
        6 * 24 + 8,
        3 * 24 + 8,
        16,
    )
    .unwrap();
    for v in 4..6u64 {
        ctx.copy_buffer_sub_data(
            gl::COPY_WRITE_BUFFER,
            gl::COPY_WRITE_BUFFER,
            3 * 24 + 8,
            v * 24 + 8,
            16,
        )
        .unwrap();
    }
    attribs_from(&mut ctx, 31, 2, 24, 8);
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    assert_eq!(ctx.read_pixel(6, 1).unwrap(), GREEN);
    assert_eq!(ctx.read_pixel(1, 6).unwrap(), RED);
}

#[test]
fn multi_draw_indirect_packed_and_strided() {
    let mut ctx = Context::new(8, 8).unwrap();
    passthrough(&mut ctx);
    // Left half red (vertices 0..6), right half green (6..12).
    red_green_halves(&mut ctx, 10);

    // Packed: {count, instances, first, baseInstance} × 2.
    ctx.bind_buffer(gl::DRAW_INDIRECT_BUFFER, 11).unwrap();
    ctx.buffer_data(
        gl::DRAW_INDIRECT_BUFFER,
        &[6u32, 1, 0, 0, 6, 1, 6, 0],
        gl::STATIC_DRAW,
    )
    .unwrap();
    let n = primitives_generated(&mut ctx, |c| {
        c.multi_draw_arrays_indirect(gl::TRIANGLES, 0, 2, 0)
            .unwrap()
    });
    assert_eq!(n, 4);
    assert_eq!(ctx.read_pixel(1, 4).unwrap(), RED);
    assert_eq!(ctx.read_pixel(6, 4).unwrap(), GREEN);

    // Strided (32 bytes, padding words 99) starting at byte 4, only the green half.
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.buffer_data(
        gl::DRAW_INDIRECT_BUFFER,
        &[
            99u32, 6, 1, 6, 0, 99, 99, 99, 99, 0, 1, 0, 0, 99, 99, 99, 99,
        ],
        gl::STATIC_DRAW,
    )
    .unwrap();
    let n = primitives_generated(&mut ctx, |c| {
        c.multi_draw_arrays_indirect(gl::TRIANGLES, 4, 2, 32)
            .unwrap()
    });
    assert_eq!(n, 2, "the second command has count 0");
    assert_eq!(ctx.read_pixel(1, 4).unwrap(), CLEAR);
    assert_eq!(ctx.read_pixel(6, 4).unwrap(), GREEN);

    // The count from a PARAMETER_BUFFER caps the packed pair at its first command.
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.buffer_data(
        gl::DRAW_INDIRECT_BUFFER,
        &[6u32, 1, 0, 0, 6, 1, 6, 0],
        gl::STATIC_DRAW,
    )
    .unwrap();
    ctx.bind_buffer(gl::PARAMETER_BUFFER, 13).unwrap();
    ctx.buffer_data(gl::PARAMETER_BUFFER, &[7u32, 1], gl::STATIC_DRAW)
        .unwrap();
    let n = primitives_generated(&mut ctx, |c| {
        c.multi_draw_arrays_indirect_count(gl::TRIANGLES, 0, 4, 2, 0)
            .unwrap()
    });
    assert_eq!(n, 2, "one command of two triangles");
    assert_eq!(ctx.read_pixel(1, 4).unwrap(), RED);
    assert_eq!(ctx.read_pixel(6, 4).unwrap(), CLEAR);
    let n = primitives_generated(&mut ctx, |c| {
        c.multi_draw_arrays_indirect_count(gl::TRIANGLES, 0, 0, 2, 0)
            .unwrap()
    });
    assert_eq!(n, 4, "7 asked for, capped at 2");

    // Elements: {count, instances, firstIndex, baseVertex, baseInstance}; one index list
    // drawn at base vertex 0 (left, red) and 6 (right, green).
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, 12).unwrap();
    ctx.buffer_data(
        gl::ELEMENT_ARRAY_BUFFER,
        &[0u32, 1, 2, 3, 4, 5],
        gl::STATIC_DRAW,
    )
    .unwrap();
    ctx.buffer_data(
        gl::DRAW_INDIRECT_BUFFER,
        &[3u32, 1, 0, 0, 0, 3, 1, 3, 6, 0],
        gl::STATIC_DRAW,
    )
    .unwrap();
    let n = primitives_generated(&mut ctx, |c| {
        c.multi_draw_elements_indirect(gl::TRIANGLES, gl::UNSIGNED_INT, 0, 2, 0)
            .unwrap()
    });
    assert_eq!(n, 2);
    // Left: the lower-right triangle of the red half; right: the upper-left of green.
    assert_eq!(ctx.read_pixel(3, 1).unwrap(), RED);
    assert_eq!(ctx.read_pixel(4, 6).unwrap(), GREEN);
    assert_eq!(ctx.read_pixel(0, 6).unwrap(), CLEAR);
    assert_eq!(ctx.read_pixel(7, 1).unwrap(), CLEAR);
}

#[test]
fn object_names_become_objects_when_bound() {
    let mut ctx = Context::new(4, 4).unwrap();
    let b = ctx.gen_buffers(1).unwrap()[0];
    let t = ctx.gen_textures(1).unwrap()[0];
    let p = ctx.gen_programs(1).unwrap()[0];
    let q = ctx.gen_queries(1).unwrap()[0];
    let x = ctx.gen_transform_feedbacks(1).unwrap()[0];
    assert!(!ctx.is_buffer(b) && !ctx.is_texture(t) && !ctx.is_program(p));
    assert!(!ctx.is_query(q) && !ctx.is_transform_feedback(x));
    ctx.bind_buffer(gl::UNIFORM_BUFFER, b).unwrap();
    ctx.bind_texture(gl::TEXTURE_3D, t).unwrap();
    ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, p).unwrap();
    ctx.begin_query(gl::SAMPLES_PASSED, q).unwrap();
    ctx.end_query(gl::SAMPLES_PASSED).unwrap();
    ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, x)
        .unwrap();
    assert!(ctx.is_buffer(b) && ctx.is_texture(t) && ctx.is_program(p));
    assert!(ctx.is_query(q) && ctx.is_transform_feedback(x));
    ctx.delete_queries(&[q]);
    assert!(!ctx.is_query(q));
    assert!(ctx.get_query_object_uiv(q, gl::QUERY_RESULT).is_err());
}

#[test]
fn draw_transform_feedback_stream_draws_that_streams_count() {
    let mut ctx = Context::new(8, 8).unwrap();
    let programs = [
        (
            gl::VERTEX_PROGRAM_ARB,
            "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nEND\n",
        ),
        // One vertex to stream 0 and two to stream 1 per input point.
        (
            gl::GEOMETRY_PROGRAM_NV,
            "!!NVgp5.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 3;\n\
             MOV result.position, vertex[0].position;\nEMITS 0;\n\
             MOV result.attrib[1], vertex[0].position;\nEMITS 1;\nEMITS 1;\nEND\n",
        ),
        (
            gl::FRAGMENT_PROGRAM_ARB,
            "!!NVfp5.0\nMOV result.color, 1.0;\nEND\n",
        ),
    ];
    for (i, (target, text)) in programs.into_iter().enumerate() {
        ctx.bind_program(target, i as u32 + 1).unwrap();
        ctx.program_string(target, text).unwrap();
        ctx.enable(target).unwrap();
    }
    ctx.enable(gl::RASTERIZER_DISCARD).unwrap();
    let pts: Vec<f32> = (0..3)
        .flat_map(|i| [i as f32 * 0.1, 0.0, 0.0, 1.0])
        .collect();
    ctx.bind_buffer(gl::ARRAY_BUFFER, 10).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &pts, gl::STATIC_DRAW)
        .unwrap();
    ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 0, 0)
        .unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
    ctx.transform_feedback_attribs(0, &["result.position"])
        .unwrap();
    ctx.transform_feedback_attribs(1, &["result.attrib[1]"])
        .unwrap();
    for (i, b) in [(0, 20), (1, 21)] {
        ctx.bind_buffer(gl::TRANSFORM_FEEDBACK_BUFFER, b).unwrap();
        ctx.buffer_data_size(gl::TRANSFORM_FEEDBACK_BUFFER, 1024, gl::STATIC_DRAW)
            .unwrap();
        ctx.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, i, b)
            .unwrap();
    }
    let t = ctx.gen_transform_feedbacks(1).unwrap()[0];
    ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, t)
        .unwrap();
    // The object's bindings start empty; bind again inside it.
    for (i, b) in [(0, 20), (1, 21)] {
        ctx.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, i, b)
            .unwrap();
    }
    ctx.begin_transform_feedback(gl::POINTS).unwrap();
    ctx.draw_arrays(gl::POINTS, 0, 3).unwrap();
    ctx.end_transform_feedback().unwrap();
    ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, 0)
        .unwrap();

    ctx.bind_buffer(gl::COPY_READ_BUFFER, 21).unwrap();
    let s1 = f32s(
        &ctx.get_buffer_sub_data(gl::COPY_READ_BUFFER, 0, 48)
            .unwrap(),
    );
    assert_eq!(
        s1,
        vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.1, 0.0, 0.0, 1.0],
        "stream 1 holds each point twice"
    );

    // Replays feed the captured positions of stream 1 (16 bytes each) back as points;
    // the geometry program emits one stream-0 point per input vertex.
    ctx.bind_buffer(gl::ARRAY_BUFFER, 21).unwrap();
    ctx.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 0, 0)
        .unwrap();
    for (stream, want) in [(0, 3), (1, 6), (2, 0)] {
        let n = primitives_generated(&mut ctx, |c| {
            c.draw_transform_feedback_stream(gl::POINTS, t, stream)
                .unwrap()
        });
        assert_eq!(n, want, "stream {stream}");
    }
    let n = primitives_generated(&mut ctx, |c| {
        c.draw_transform_feedback_stream_instanced(gl::POINTS, t, 1, 2)
            .unwrap()
    });
    assert_eq!(n, 12, "two instances of stream 1's six vertices");
}

#[test]
fn base_vertex_and_base_instance_draws() {
    let mut ctx = Context::new(8, 8).unwrap();
    passthrough(&mut ctx);
    // Left half red (vertices 0..6), right half green (6..12), one index list.
    red_green_halves(&mut ctx, 10);
    ctx.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, 11).unwrap();
    ctx.buffer_data(
        gl::ELEMENT_ARRAY_BUFFER,
        &[0u8, 1, 2, 3, 4, 5],
        gl::STATIC_DRAW,
    )
    .unwrap();

    ctx.draw_elements_base_vertex(gl::TRIANGLES, 6, gl::UNSIGNED_BYTE, 0, 6)
        .unwrap();
    assert_eq!(ctx.read_pixel(6, 4).unwrap(), GREEN);
    assert_eq!(ctx.read_pixel(1, 4).unwrap(), CLEAR);

    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    // The second triangle of each half: indices 3..6 at byte offset 3.
    ctx.multi_draw_elements_base_vertex(
        gl::TRIANGLES,
        &[3, 3],
        gl::UNSIGNED_BYTE,
        &[3, 3],
        &[0, 6],
    )
    .unwrap();
    assert_eq!(ctx.read_pixel(0, 6).unwrap(), RED);
    assert_eq!(ctx.read_pixel(4, 6).unwrap(), GREEN);
    assert_eq!(ctx.read_pixel(3, 1).unwrap(), CLEAR);

    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.draw_range_elements_base_vertex(gl::TRIANGLES, 0, 2, 3, gl::UNSIGNED_BYTE, 0, 0)
        .unwrap();
    assert_eq!(ctx.read_pixel(3, 1).unwrap(), RED);
    assert_eq!(ctx.read_pixel(7, 1).unwrap(), CLEAR);

    // Colour per instance from buffer 12: base instance 1 picks the second, green.
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.bind_buffer(gl::ARRAY_BUFFER, 12).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, &[RED, GREEN].concat(), gl::STATIC_DRAW)
        .unwrap();
    ctx.vertex_attrib_pointer(1, 4, gl::FLOAT, false, 0, 0)
        .unwrap();
    ctx.vertex_attrib_divisor(1, 1).unwrap();
    ctx.draw_elements_instanced_base_instance(gl::TRIANGLES, 6, gl::UNSIGNED_BYTE, 0, 1, 1)
        .unwrap();
    assert_eq!(ctx.read_pixel(1, 4).unwrap(), GREEN);
    ctx.draw_elements_instanced_base_instance(gl::TRIANGLES, 6, gl::UNSIGNED_BYTE, 0, 1, 0)
        .unwrap();
    assert_eq!(ctx.read_pixel(1, 4).unwrap(), RED);
}

#[test]
fn persistently_mapped_vertices_are_drawn_while_mapped() {
    let mut ctx = Context::new(8, 8).unwrap();
    passthrough(&mut ctx);
    let flags = gl::MAP_WRITE_BIT | gl::MAP_PERSISTENT_BIT | gl::MAP_COHERENT_BIT;
    ctx.bind_buffer(gl::ARRAY_BUFFER, 10).unwrap();
    ctx.buffer_storage(gl::ARRAY_BUFFER, &scene_vertices(RED, RED), flags)
        .unwrap();
    attribs_from(&mut ctx, 10, 2, 24, 8);
    let m = ctx
        .map_buffer_range(gl::ARRAY_BUFFER, 0, 6 * 24, flags)
        .unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    assert_eq!(ctx.read_pixel(4, 4).unwrap(), RED);
    // Rewrite the colours through the live mapping and draw again, still mapped.
    for v in 0..6 {
        m.write(v * 24 + 8, &GREEN).unwrap();
    }
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    assert_eq!(ctx.read_pixel(4, 4).unwrap(), GREEN);
    assert_eq!(
        ctx.get_buffer_parameter_iv(gl::ARRAY_BUFFER, gl::BUFFER_ACCESS_FLAGS)
            .unwrap(),
        flags as i32
    );
    // A non-persistent mapping of the same store blocks draws.
    ctx.unmap_buffer(gl::ARRAY_BUFFER).unwrap();
    let _m = ctx
        .map_buffer_range(gl::ARRAY_BUFFER, 0, 24, gl::MAP_WRITE_BIT)
        .unwrap();
    assert_eq!(
        ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap_err().gl,
        glemu::GlError::InvalidOperation
    );
}

#[test]
fn time_elapsed_and_conservative_occlusion_queries() {
    let mut ctx = Context::new(8, 8).unwrap();
    passthrough(&mut ctx);
    ctx.bind_buffer(gl::ARRAY_BUFFER, 10).unwrap();
    ctx.buffer_data(
        gl::ARRAY_BUFFER,
        &scene_vertices(RED, GREEN),
        gl::STATIC_DRAW,
    )
    .unwrap();
    attribs_from(&mut ctx, 10, 2, 24, 8);
    let q = ctx.gen_queries(3).unwrap();
    ctx.begin_query(gl::TIME_ELAPSED, q[0]).unwrap();
    ctx.end_query(gl::TIME_ELAPSED).unwrap();
    assert_eq!(
        ctx.get_query_object_ui64v(q[0], gl::QUERY_RESULT).unwrap(),
        0,
        "nothing drawn, no time"
    );
    ctx.begin_query(gl::TIME_ELAPSED, q[0]).unwrap();
    ctx.begin_query(gl::ANY_SAMPLES_PASSED_CONSERVATIVE, q[1])
        .unwrap();
    ctx.begin_query(gl::SAMPLES_PASSED, q[2]).unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    ctx.end_query(gl::TIME_ELAPSED).unwrap();
    ctx.end_query(gl::ANY_SAMPLES_PASSED_CONSERVATIVE).unwrap();
    ctx.end_query(gl::SAMPLES_PASSED).unwrap();
    assert!(ctx.get_query_object_ui64v(q[0], gl::QUERY_RESULT).unwrap() > 0);
    assert_eq!(ctx.get_query_object_uiv(q[1], gl::QUERY_RESULT).unwrap(), 1);
    assert_eq!(
        ctx.get_query_object_uiv(q[2], gl::QUERY_RESULT).unwrap(),
        64
    );
}

#[test]
fn transform_feedback_overflow_queries() {
    let mut ctx = Context::new(8, 8).unwrap();
    passthrough(&mut ctx);
    ctx.bind_buffer(gl::ARRAY_BUFFER, 10).unwrap();
    ctx.buffer_data(
        gl::ARRAY_BUFFER,
        &scene_vertices(RED, GREEN),
        gl::STATIC_DRAW,
    )
    .unwrap();
    attribs_from(&mut ctx, 10, 2, 24, 8);
    ctx.transform_feedback_attribs(0, &["result.position"])
        .unwrap();
    // Room for one triangle of positions: 3 × 16 bytes.
    ctx.bind_buffer(gl::TRANSFORM_FEEDBACK_BUFFER, 20).unwrap();
    ctx.buffer_data_size(gl::TRANSFORM_FEEDBACK_BUFFER, 48, gl::STATIC_DRAW)
        .unwrap();
    ctx.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, 0, 20)
        .unwrap();
    ctx.enable(gl::RASTERIZER_DISCARD).unwrap();
    let ids = ctx.gen_queries(3).unwrap();
    let q = [ids[0], ids[1], ids[2]];
    let run = |ctx: &mut Context, n: i32| {
        ctx.begin_query(gl::TRANSFORM_FEEDBACK_OVERFLOW, q[0])
            .unwrap();
        ctx.begin_query_indexed(gl::TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 0, q[1])
            .unwrap();
        ctx.begin_query_indexed(gl::TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 1, q[2])
            .unwrap();
        ctx.begin_transform_feedback(gl::TRIANGLES).unwrap();
        ctx.draw_arrays(gl::TRIANGLES, 0, n).unwrap();
        ctx.end_transform_feedback().unwrap();
        ctx.end_query(gl::TRANSFORM_FEEDBACK_OVERFLOW).unwrap();
        ctx.end_query_indexed(gl::TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 0)
            .unwrap();
        ctx.end_query_indexed(gl::TRANSFORM_FEEDBACK_STREAM_OVERFLOW, 1)
            .unwrap();
        q.map(|id| ctx.get_query_object_uiv(id, gl::QUERY_RESULT).unwrap())
    };
    assert_eq!(run(&mut ctx, 3), [0, 0, 0], "one triangle fits");
    assert_eq!(
        run(&mut ctx, 6),
        [1, 1, 0],
        "the second triangle does not; stream 1 records nothing"
    );
}
