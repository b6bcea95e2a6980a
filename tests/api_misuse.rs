//! Misuse of the Context API: each case must fail with the GL error GL specifies, and
//! leave the context usable.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::{gl, Context, GlError};

type Case = (&'static str, GlError, fn(&mut Context) -> glemu::Result<()>);

fn buffer_with(ctx: &mut Context, bytes: usize) -> u32 {
    let b = ctx.gen_buffers(1).unwrap()[0];
    ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
    ctx.buffer_data_size(gl::ARRAY_BUFFER, bytes as u64, gl::STATIC_DRAW)
        .unwrap();
    b
}

const CASES: &[Case] = &[
    ("enable of a non-capability", GlError::InvalidEnum, |c| {
        c.enable(gl::TRIANGLES)
    }),
    ("depth func of a blend factor", GlError::InvalidEnum, |c| {
        c.depth_func(gl::ONE)
    }),
    ("blend equation of a func", GlError::InvalidEnum, |c| {
        c.blend_equation(gl::LESS)
    }),
    ("stencil op of a compare func", GlError::InvalidEnum, |c| {
        c.stencil_op(gl::KEEP, gl::LESS, gl::KEEP)
    }),
    ("draw with an unknown mode", GlError::InvalidEnum, |c| {
        c.draw_arrays(0x77, 0, 3)
    }),
    ("draw with a negative count", GlError::InvalidValue, |c| {
        c.draw_arrays(gl::TRIANGLES, 0, -3)
    }),
    (
        "draw elements with a float index type",
        GlError::InvalidEnum,
        |c| c.draw_elements(gl::TRIANGLES, 3, gl::FLOAT, 0),
    ),
    (
        "draw elements without an element buffer",
        GlError::InvalidOperation,
        |c| c.draw_elements(gl::TRIANGLES, 3, gl::UNSIGNED_INT, 0),
    ),
    (
        "draw with the vertex program enabled but none loaded",
        GlError::InvalidOperation,
        |c| {
            c.enable(gl::VERTEX_PROGRAM_ARB)?;
            c.draw_arrays(gl::TRIANGLES, 0, 3)
        },
    ),
    (
        "draw with a geometry program enabled but none loaded",
        GlError::InvalidOperation,
        |c| {
            c.enable(gl::GEOMETRY_PROGRAM_NV)?;
            c.draw_arrays(gl::POINTS, 0, 1)
        },
    ),
    (
        "dual-source blending with a second draw buffer (MAX_DUAL_SOURCE_DRAW_BUFFERS = 1)",
        GlError::InvalidOperation,
        |c| {
            let t = c.gen_textures(2).unwrap();
            let f = c.gen_framebuffers(1).unwrap()[0];
            c.bind_framebuffer(gl::FRAMEBUFFER, f)?;
            for (k, &tex) in t.iter().enumerate() {
                c.bind_texture(gl::TEXTURE_2D, tex)?;
                c.tex_image_2d(
                    gl::TEXTURE_2D,
                    0,
                    gl::RGBA8,
                    4,
                    4,
                    gl::RGBA,
                    gl::UNSIGNED_BYTE,
                    None,
                )?;
                let at = gl::COLOR_ATTACHMENT0 + k as u32;
                c.framebuffer_texture_2d(gl::FRAMEBUFFER, at, gl::TEXTURE_2D, tex, 0)?;
            }
            c.draw_buffers(&[gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT0 + 1])?;
            c.enable(gl::BLEND)?;
            c.blend_func(gl::SRC1_COLOR, gl::ONE_MINUS_SRC1_COLOR)?;
            c.draw_arrays(gl::TRIANGLES, 0, 3)
        },
    ),
    (
        "draw PATCHES without a tessellation program",
        GlError::InvalidOperation,
        |c| c.draw_arrays(gl::PATCHES, 0, 3),
    ),
    (
        "draw mode different from the transform feedback mode",
        GlError::InvalidOperation,
        |c| {
            c.begin_transform_feedback(gl::POINTS)?;
            c.draw_arrays(gl::TRIANGLES, 0, 3)
        },
    ),
    (
        "program string for an unknown target",
        GlError::InvalidEnum,
        |c| c.program_string(gl::TEXTURE_2D, "!!ARBvp1.0\nEND\n"),
    ),
    (
        "program text for the wrong stage",
        GlError::InvalidOperation,
        |c| c.program_string(gl::VERTEX_PROGRAM_ARB, "!!ARBfp1.0\nEND\n"),
    ),
    (
        "program text with a syntax error",
        GlError::InvalidOperation,
        |c| {
            c.program_string(
                gl::FRAGMENT_PROGRAM_ARB,
                "!!ARBfp1.0\nMOV result.color, ;\nEND\n",
            )
        },
    ),
    (
        "env parameter index out of range",
        GlError::InvalidValue,
        |c| c.program_env_parameter_4f(gl::VERTEX_PROGRAM_ARB, 256, [0.0; 4]),
    ),
    (
        "local parameter index out of range",
        GlError::InvalidValue,
        |c| c.program_local_parameter_4f(gl::FRAGMENT_PROGRAM_ARB, 5000, [0.0; 4]),
    ),
    (
        "binding a program name to a second target",
        GlError::InvalidOperation,
        |c| {
            c.bind_program(gl::VERTEX_PROGRAM_ARB, 5)?;
            c.bind_program(gl::FRAGMENT_PROGRAM_ARB, 5)
        },
    ),
    (
        "buffer data with nothing bound",
        GlError::InvalidOperation,
        |c| c.buffer_data(gl::ARRAY_BUFFER, &[1u8], gl::STATIC_DRAW),
    ),
    ("buffer data with a bad usage", GlError::InvalidEnum, |c| {
        buffer_with(c, 4);
        c.buffer_data(gl::ARRAY_BUFFER, &[1u8], gl::TRIANGLES)
    }),
    ("sub data past the end", GlError::InvalidValue, |c| {
        buffer_with(c, 4);
        c.buffer_sub_data(gl::ARRAY_BUFFER, 2, &[0u8; 4])
    }),
    ("mapping twice", GlError::InvalidOperation, |c| {
        buffer_with(c, 4);
        let _m = c.map_buffer(gl::ARRAY_BUFFER, gl::READ_WRITE)?;
        c.map_buffer(gl::ARRAY_BUFFER, gl::READ_WRITE).map(|_| ())
    }),
    (
        "unmapping an unmapped buffer",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 4);
            c.unmap_buffer(gl::ARRAY_BUFFER)
        },
    ),
    (
        "drawing from a mapped buffer",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 64);
            c.vertex_pointer(4, gl::FLOAT, 0, 0)?;
            c.enable_client_state(gl::VERTEX_ARRAY)?;
            let _m = c.map_buffer(gl::ARRAY_BUFFER, gl::READ_ONLY)?;
            c.draw_arrays(gl::POINTS, 0, 1)
        },
    ),
    (
        "writing through a read-only mapping",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 4);
            let m = c.map_buffer(gl::ARRAY_BUFFER, gl::READ_ONLY)?;
            m.write(0, &[1u8])
        },
    ),
    (
        "GPU address of a buffer that is not resident",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 4);
            c.buffer_gpu_address(gl::ARRAY_BUFFER).map(|_| ())
        },
    ),
    (
        "making a resident buffer resident again",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 4);
            c.make_buffer_resident(gl::ARRAY_BUFFER, gl::READ_ONLY)?;
            c.make_buffer_resident(gl::ARRAY_BUFFER, gl::READ_ONLY)
        },
    ),
    ("a huge buffer", GlError::OutOfMemory, |c| {
        buffer_with(c, 4);
        c.buffer_data_size(gl::ARRAY_BUFFER, 1 << 40, gl::STATIC_DRAW)
    }),
    ("indexed binding out of range", GlError::InvalidValue, |c| {
        let b = buffer_with(c, 16);
        c.bind_buffer_range(gl::UNIFORM_BUFFER, 1000, b, 0, 16)
    }),
    (
        "indexed binding on a non-indexed target",
        GlError::InvalidEnum,
        |c| {
            let b = buffer_with(c, 16);
            c.bind_buffer_base(gl::ARRAY_BUFFER, 0, b)
        },
    ),
    (
        "vertex attribute index out of range",
        GlError::InvalidValue,
        |c| c.enable_vertex_attrib_array(64),
    ),
    ("vertex attribute size 5", GlError::InvalidValue, |c| {
        buffer_with(c, 16);
        c.vertex_attrib_pointer(0, 5, gl::FLOAT, false, 0, 0)
    }),
    ("integer pointer of floats", GlError::InvalidEnum, |c| {
        buffer_with(c, 16);
        c.vertex_attrib_i_pointer(0, 4, gl::FLOAT, 0, 0)
    }),
    ("texture unit out of range", GlError::InvalidEnum, |c| {
        c.active_texture(1000)
    }),
    (
        "tex parameter with a bad value",
        GlError::InvalidEnum,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_WRAP_S, gl::LESS as i32)
        },
    ),
    (
        "tex image with no texture bound",
        GlError::InvalidOperation,
        |c| {
            c.tex_image_2d(
                gl::TEXTURE_2D,
                0,
                gl::RGBA8,
                2,
                2,
                gl::RGBA,
                gl::UNSIGNED_BYTE,
                None,
            )
        },
    ),
    (
        "texture bound to two targets",
        GlError::InvalidOperation,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 3)?;
            c.bind_texture(gl::TEXTURE_CUBE_MAP, 3)
        },
    ),
    (
        "reading a pixel outside the framebuffer",
        GlError::InvalidValue,
        |c| c.read_pixel(-1, 0).map(|_| ()),
    ),
    (
        "reading a sample that does not exist",
        GlError::InvalidValue,
        |c| c.read_sample(0, 0, 1).map(|_| ()),
    ),
    ("clear with unknown bits", GlError::InvalidValue, |c| {
        c.clear(0x10)
    }),
    ("begin a query twice", GlError::InvalidOperation, |c| {
        let q = c.gen_queries(2).unwrap();
        c.begin_query(gl::SAMPLES_PASSED, q[0])?;
        c.begin_query(gl::SAMPLES_PASSED, q[1])
    }),
    (
        "result of an active query",
        GlError::InvalidOperation,
        |c| {
            let q = c.gen_queries(1).unwrap()[0];
            c.begin_query(gl::PRIMITIVES_GENERATED, q)?;
            c.get_query_result(q).map(|_| ())
        },
    ),
    (
        "end transform feedback when not active",
        GlError::InvalidOperation,
        |c| c.end_transform_feedback(),
    ),
    (
        "transform feedback of an unknown result",
        GlError::InvalidValue,
        |c| c.transform_feedback_attribs(0, &["result.bogus"]),
    ),
    (
        "rebinding a feedback buffer while active",
        GlError::InvalidOperation,
        |c| {
            let b = buffer_with(c, 64);
            c.begin_transform_feedback(gl::POINTS)?;
            c.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, 0, b)
        },
    ),
    ("negative viewport", GlError::InvalidValue, |c| {
        c.viewport(0, 0, -1, 1)
    }),
    ("zero point size", GlError::InvalidValue, |c| {
        c.point_size(0.0)
    }),
    (
        "matrix mode of a texture target",
        GlError::InvalidEnum,
        |c| c.matrix_mode(gl::TEXTURE_2D),
    ),
    ("degenerate frustum", GlError::InvalidValue, |c| {
        c.frustum(-1.0, 1.0, -1.0, 1.0, 0.0, 1.0)
    }),
    (
        "TrackMatrixNV at an unaligned address",
        GlError::InvalidValue,
        |c| c.track_matrix_nv(gl::VERTEX_PROGRAM_ARB, 3, gl::MODELVIEW, 0x862A),
    ),
    (
        "indirect draw without an indirect buffer",
        GlError::InvalidOperation,
        |c| c.draw_arrays_indirect(gl::TRIANGLES, 0),
    ),
    (
        "attaching to the default framebuffer",
        GlError::InvalidOperation,
        |c| c.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, 1),
    ),
    (
        "clearing an incomplete framebuffer object",
        GlError::InvalidFramebufferOperation,
        |c| {
            let f = c.gen_framebuffers(1).unwrap()[0];
            c.bind_framebuffer(gl::FRAMEBUFFER, f)?;
            c.clear(gl::COLOR_BUFFER_BIT)
        },
    ),
    (
        "renderbuffer storage of a bad format",
        GlError::InvalidEnum,
        |c| {
            c.bind_renderbuffer(gl::RENDERBUFFER, 1)?;
            c.renderbuffer_storage(gl::RENDERBUFFER, gl::TRIANGLES, 4, 4)
        },
    ),
    (
        "subroutine parameters for a non-program target",
        GlError::InvalidEnum,
        |c| c.program_subroutine_parameters_uiv(gl::TEXTURE_2D, &[0]),
    ),
    (
        "subroutine parameters with no program loaded",
        GlError::InvalidOperation,
        |c| c.program_subroutine_parameters_uiv(gl::FRAGMENT_PROGRAM_ARB, &[]),
    ),
    (
        "subroutine parameter query past the limit",
        GlError::InvalidValue,
        |c| {
            c.get_program_subroutine_parameter_uiv(gl::VERTEX_PROGRAM_ARB, 5000)
                .map(|_| ())
        },
    ),
    (
        "texture attachment on the default framebuffer",
        GlError::InvalidOperation,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, 1, 0)
        },
    ),
    (
        "texture attachment of a name that is no texture",
        GlError::InvalidOperation,
        |c| {
            let f = c.gen_framebuffers(1).unwrap()[0];
            c.bind_framebuffer(gl::FRAMEBUFFER, f)?;
            c.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, 42, 0)
        },
    ),
    (
        "texture layer attachment of a 2D texture",
        GlError::InvalidOperation,
        |c| {
            let f = c.gen_framebuffers(1).unwrap()[0];
            c.bind_framebuffer(gl::FRAMEBUFFER, f)?;
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.framebuffer_texture_layer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, 1, 0, 0)
        },
    ),
    (
        "FramebufferTexture2D with a 3D textarget",
        GlError::InvalidEnum,
        |c| {
            let f = c.gen_framebuffers(1).unwrap()[0];
            c.bind_framebuffer(gl::FRAMEBUFFER, f)?;
            c.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_3D, 0, 0)
        },
    ),
    (
        "texture attachment at a negative level",
        GlError::InvalidValue,
        |c| {
            let f = c.gen_framebuffers(1).unwrap()[0];
            c.bind_framebuffer(gl::FRAMEBUFFER, f)?;
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, 1, -1)
        },
    ),
    (
        "multisample texture storage with 0 samples",
        GlError::InvalidValue,
        |c| {
            c.bind_texture(gl::TEXTURE_2D_MULTISAMPLE, 1)?;
            c.tex_image_2d_multisample(gl::TEXTURE_2D_MULTISAMPLE, 0, gl::RGBA8, 4, 4, true)
        },
    ),
    (
        "integer query of a non-state enum",
        GlError::InvalidEnum,
        |c| c.get_integer_v(gl::TRIANGLES).map(|_| ()),
    ),
    (
        "light model of an unknown parameter",
        GlError::InvalidEnum,
        |c| c.light_model_i(gl::FOG, 1),
    ),
    ("nine draw buffers", GlError::InvalidValue, |c| {
        c.draw_buffers(&[gl::NONE; 9])
    }),
    (
        "a framebuffer-object draw buffer on the default framebuffer",
        GlError::InvalidOperation,
        |c| c.draw_buffers(&[gl::COLOR_ATTACHMENT0]),
    ),
    (
        "reading colour with read buffer NONE",
        GlError::InvalidOperation,
        |c| {
            c.read_buffer(gl::NONE)?;
            c.read_pixel(0, 0).map(|_| ())
        },
    ),
    (
        "colour material of a non-material property",
        GlError::InvalidEnum,
        |c| c.color_material(gl::FRONT, gl::SHININESS),
    ),
    (
        "fog coordinate source of a non-source",
        GlError::InvalidEnum,
        |c| c.fog_fv(gl::FOG_COORD_SRC, &[gl::LINEAR as f32]),
    ),
    (
        "mapping a zero-length range",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 16);
            c.map_buffer_range(gl::ARRAY_BUFFER, 4, 0, gl::MAP_READ_BIT)
                .map(|_| ())
        },
    ),
    ("mapping a range past the end", GlError::InvalidValue, |c| {
        buffer_with(c, 16);
        c.map_buffer_range(gl::ARRAY_BUFFER, 8, 9, gl::MAP_READ_BIT)
            .map(|_| ())
    }),
    (
        "mapping with an unknown access bit",
        GlError::InvalidValue,
        |c| {
            buffer_with(c, 16);
            c.map_buffer_range(gl::ARRAY_BUFFER, 0, 4, gl::MAP_READ_BIT | 0x100)
                .map(|_| ())
        },
    ),
    (
        "mapping without MAP_READ_BIT or MAP_WRITE_BIT",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 16);
            c.map_buffer_range(gl::ARRAY_BUFFER, 0, 4, gl::MAP_UNSYNCHRONIZED_BIT)
                .map(|_| ())
        },
    ),
    (
        "mapping for reading with an invalidate bit",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 16);
            let bits = gl::MAP_READ_BIT | gl::MAP_INVALIDATE_RANGE_BIT;
            c.map_buffer_range(gl::ARRAY_BUFFER, 0, 4, bits).map(|_| ())
        },
    ),
    (
        "MAP_FLUSH_EXPLICIT_BIT without MAP_WRITE_BIT",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 16);
            let bits = gl::MAP_READ_BIT | gl::MAP_FLUSH_EXPLICIT_BIT;
            c.map_buffer_range(gl::ARRAY_BUFFER, 0, 4, bits).map(|_| ())
        },
    ),
    (
        "a persistent mapping of a glBufferData store",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 16);
            let bits = gl::MAP_WRITE_BIT | gl::MAP_PERSISTENT_BIT;
            c.map_buffer_range(gl::ARRAY_BUFFER, 0, 4, bits).map(|_| ())
        },
    ),
    (
        "a range mapping of a mapped buffer",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 16);
            let _m = c.map_buffer(gl::ARRAY_BUFFER, gl::READ_ONLY)?;
            c.map_buffer_range(gl::ARRAY_BUFFER, 0, 4, gl::MAP_READ_BIT)
                .map(|_| ())
        },
    ),
    (
        "flushing a mapping made without MAP_FLUSH_EXPLICIT_BIT",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 16);
            let _m = c.map_buffer_range(gl::ARRAY_BUFFER, 0, 8, gl::MAP_WRITE_BIT)?;
            c.flush_mapped_buffer_range(gl::ARRAY_BUFFER, 0, 4)
        },
    ),
    (
        "flushing past the mapped range",
        GlError::InvalidValue,
        |c| {
            buffer_with(c, 16);
            let bits = gl::MAP_WRITE_BIT | gl::MAP_FLUSH_EXPLICIT_BIT;
            let _m = c.map_buffer_range(gl::ARRAY_BUFFER, 8, 8, bits)?;
            c.flush_mapped_buffer_range(gl::ARRAY_BUFFER, 4, 5)
        },
    ),
    (
        "flushing a buffer that is not mapped",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 16);
            c.flush_mapped_buffer_range(gl::ARRAY_BUFFER, 0, 4)
        },
    ),
    (
        "copying between overlapping ranges of one buffer",
        GlError::InvalidValue,
        |c| {
            buffer_with(c, 16);
            c.copy_buffer_sub_data(gl::ARRAY_BUFFER, gl::ARRAY_BUFFER, 0, 4, 8)
        },
    ),
    (
        "copying past the end of a buffer",
        GlError::InvalidValue,
        |c| {
            let b = buffer_with(c, 16);
            c.bind_buffer(gl::COPY_WRITE_BUFFER, b)?;
            c.copy_buffer_sub_data(gl::ARRAY_BUFFER, gl::COPY_WRITE_BUFFER, 12, 0, 8)
        },
    ),
    (
        "copying from a mapped buffer",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 16);
            c.bind_buffer(gl::COPY_WRITE_BUFFER, 99)?;
            c.buffer_data_size(gl::COPY_WRITE_BUFFER, 16, gl::STATIC_DRAW)?;
            let _m = c.map_buffer(gl::ARRAY_BUFFER, gl::READ_ONLY)?;
            c.copy_buffer_sub_data(gl::ARRAY_BUFFER, gl::COPY_WRITE_BUFFER, 0, 0, 4)
        },
    ),
    (
        "copying with nothing bound to the write target",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 16);
            c.copy_buffer_sub_data(gl::ARRAY_BUFFER, gl::COPY_WRITE_BUFFER, 0, 0, 4)
        },
    ),
    (
        "reading back a mapped buffer",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 16);
            let _m = c.map_buffer_range(gl::ARRAY_BUFFER, 8, 4, gl::MAP_READ_BIT)?;
            c.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, 4).map(|_| ())
        },
    ),
    (
        "typed read back past the buffer's end",
        GlError::InvalidValue,
        |c| {
            buffer_with(c, 16);
            c.get_buffer_sub_data_as::<[f32; 4]>(gl::ARRAY_BUFFER, 4, 1)
                .map(|_| ())
        },
    ),
    (
        "typed read back of a count that overflows the range",
        GlError::InvalidValue,
        |c| {
            buffer_with(c, 16);
            c.get_buffer_sub_data_as::<[f32; 4]>(gl::ARRAY_BUFFER, 0, usize::MAX)
                .map(|_| ())
        },
    ),
    (
        "sub data into a mapped range",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 16);
            let _m = c.map_buffer_range(gl::ARRAY_BUFFER, 8, 4, gl::MAP_READ_BIT)?;
            c.buffer_sub_data(gl::ARRAY_BUFFER, 6, &[0u8; 3])
        },
    ),
    ("buffer storage of zero bytes", GlError::InvalidValue, |c| {
        buffer_with(c, 16);
        c.buffer_storage_size(gl::ARRAY_BUFFER, 0, gl::MAP_READ_BIT)
    }),
    (
        "persistent storage without read or write",
        GlError::InvalidValue,
        |c| {
            buffer_with(c, 16);
            c.buffer_storage_size(gl::ARRAY_BUFFER, 16, gl::MAP_PERSISTENT_BIT)
        },
    ),
    (
        "buffer data into immutable storage",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 16);
            c.buffer_storage_size(gl::ARRAY_BUFFER, 16, gl::DYNAMIC_STORAGE_BIT)?;
            c.buffer_data(gl::ARRAY_BUFFER, &[0u8; 4], gl::STATIC_DRAW)
        },
    ),
    (
        "mapping for writing storage made without MAP_WRITE_BIT",
        GlError::InvalidOperation,
        |c| {
            buffer_with(c, 16);
            c.buffer_storage_size(gl::ARRAY_BUFFER, 16, gl::MAP_READ_BIT)?;
            c.map_buffer(gl::ARRAY_BUFFER, gl::WRITE_ONLY).map(|_| ())
        },
    ),
    (
        "invalidating a name that is no buffer",
        GlError::InvalidValue,
        |c| c.invalidate_buffer_data(42),
    ),
    (
        "multi-bind past the binding points",
        GlError::InvalidOperation,
        |c| {
            let b = buffer_with(c, 16);
            c.bind_buffers_base(gl::ATOMIC_COUNTER_BUFFER, 7, &[b, b])
        },
    ),
    (
        "multi-bind of transform feedback buffers while capturing",
        GlError::InvalidOperation,
        |c| {
            let b = buffer_with(c, 16);
            c.begin_transform_feedback(gl::POINTS)?;
            c.bind_buffers_range(gl::TRANSFORM_FEEDBACK_BUFFER, 0, &[b], &[0], &[16])
        },
    ),
    ("an unknown buffer parameter", GlError::InvalidEnum, |c| {
        buffer_with(c, 16);
        c.get_buffer_parameter_iv(gl::ARRAY_BUFFER, gl::TEXTURE_2D)
            .map(|_| ())
    }),
    (
        "binding a transform feedback name never generated",
        GlError::InvalidOperation,
        |c| c.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, 5),
    ),
    (
        "binding transform feedback to another target",
        GlError::InvalidEnum,
        |c| c.bind_transform_feedback(gl::ARRAY_BUFFER, 0),
    ),
    (
        "rebinding transform feedback while it captures",
        GlError::InvalidOperation,
        |c| {
            let t = c.gen_transform_feedbacks(1).unwrap()[0];
            c.begin_transform_feedback(gl::POINTS)?;
            c.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, t)
        },
    ),
    (
        "deleting a paused transform feedback object",
        GlError::InvalidOperation,
        |c| {
            let t = c.gen_transform_feedbacks(1).unwrap()[0];
            c.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, t)?;
            c.begin_transform_feedback(gl::POINTS)?;
            c.pause_transform_feedback(true)?;
            c.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, 0)?;
            c.delete_transform_feedbacks(&[t])
        },
    ),
    (
        "resuming transform feedback that is not paused",
        GlError::InvalidOperation,
        |c| {
            c.begin_transform_feedback(gl::POINTS)?;
            c.resume_transform_feedback()
        },
    ),
    (
        "drawing the captures of an object that never ended one",
        GlError::InvalidOperation,
        |c| {
            c.begin_transform_feedback(gl::POINTS)?;
            c.draw_transform_feedback(gl::POINTS, 0)
        },
    ),
    (
        "drawing the captures of a generated but never bound name",
        GlError::InvalidValue,
        |c| {
            let t = c.gen_transform_feedbacks(1).unwrap()[0];
            c.draw_transform_feedback(gl::POINTS, t)
        },
    ),
    (
        "drawing the captures of vertex stream 4",
        GlError::InvalidValue,
        |c| c.draw_transform_feedback_stream(gl::POINTS, 0, 4),
    ),
    (
        "multi-draw-indirect with a stride not a multiple of 4",
        GlError::InvalidValue,
        |c| {
            c.bind_buffer(gl::DRAW_INDIRECT_BUFFER, 3)?;
            c.buffer_data_size(gl::DRAW_INDIRECT_BUFFER, 64, gl::STATIC_DRAW)?;
            c.multi_draw_arrays_indirect(gl::POINTS, 0, 2, 18)
        },
    ),
    (
        "multi-draw-indirect with a negative draw count",
        GlError::InvalidValue,
        |c| {
            c.bind_buffer(gl::DRAW_INDIRECT_BUFFER, 3)?;
            c.buffer_data_size(gl::DRAW_INDIRECT_BUFFER, 64, gl::STATIC_DRAW)?;
            c.multi_draw_elements_indirect(gl::POINTS, gl::UNSIGNED_INT, 0, -1, 0)
        },
    ),
    (
        "multi-draw-indirect reading past the buffer",
        GlError::InvalidOperation,
        |c| {
            c.bind_buffer(gl::DRAW_INDIRECT_BUFFER, 3)?;
            c.buffer_data_size(gl::DRAW_INDIRECT_BUFFER, 64, gl::STATIC_DRAW)?;
            c.multi_draw_arrays_indirect(gl::POINTS, 0, 3, 28)
        },
    ),
    (
        "an indirect count without a parameter buffer",
        GlError::InvalidOperation,
        |c| {
            c.bind_buffer(gl::DRAW_INDIRECT_BUFFER, 3)?;
            c.buffer_data_size(gl::DRAW_INDIRECT_BUFFER, 64, gl::STATIC_DRAW)?;
            c.multi_draw_arrays_indirect_count(gl::POINTS, 0, 0, 1, 0)
        },
    ),
    (
        "an indirect count with a negative maximum",
        GlError::InvalidValue,
        |c| {
            c.bind_buffer(gl::PARAMETER_BUFFER, 3)?;
            c.buffer_data_size(gl::PARAMETER_BUFFER, 4, gl::STATIC_DRAW)?;
            c.multi_draw_arrays_indirect_count(gl::POINTS, 0, 0, -1, 0)
        },
    ),
    ("begin query of TIMESTAMP", GlError::InvalidEnum, |c| {
        let q = c.gen_queries(1).unwrap()[0];
        c.begin_query(gl::TIMESTAMP, q)
    }),
    (
        "a timestamp into an active query",
        GlError::InvalidOperation,
        |c| {
            let q = c.gen_queries(1).unwrap()[0];
            c.begin_query(gl::SAMPLES_PASSED, q)?;
            c.query_counter(q, gl::TIMESTAMP)
        },
    ),
    (
        "a query parameter of a non-query target",
        GlError::InvalidEnum,
        |c| {
            c.get_query_iv(gl::TEXTURE_2D, gl::CURRENT_QUERY)
                .map(|_| ())
        },
    ),
    (
        "the result of an active query",
        GlError::InvalidOperation,
        |c| {
            let q = c.gen_queries(1).unwrap()[0];
            c.begin_query(gl::SAMPLES_PASSED, q)?;
            c.get_query_object_uiv(q, gl::QUERY_RESULT_AVAILABLE)
                .map(|_| ())
        },
    ),
    (
        "an unknown query object parameter",
        GlError::InvalidEnum,
        |c| {
            let q = c.gen_queries(1).unwrap()[0];
            c.begin_query(gl::SAMPLES_PASSED, q)?;
            c.end_query(gl::SAMPLES_PASSED)?;
            c.get_query_object_ui64v(q, gl::BUFFER_SIZE).map(|_| ())
        },
    ),
    (
        "read_pixels of an unknown format",
        GlError::InvalidEnum,
        |c| {
            c.read_pixels(0, 0, 1, 1, gl::TRIANGLES, gl::UNSIGNED_BYTE)
                .map(|_| ())
        },
    ),
    (
        "read_pixels of an unknown type",
        GlError::InvalidEnum,
        |c| {
            c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::TRIANGLES)
                .map(|_| ())
        },
    ),
    (
        "read_pixels of a negative size",
        GlError::InvalidValue,
        |c| {
            c.read_pixels(0, 0, 1, -1, gl::RGBA, gl::UNSIGNED_BYTE)
                .map(|_| ())
        },
    ),
    (
        "read_pixels of a packed type that does not fit the format",
        GlError::InvalidOperation,
        |c| {
            c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_SHORT_5_6_5)
                .map(|_| ())
        },
    ),
    (
        "read_pixels of an integer format from an RGBA8 buffer",
        GlError::InvalidOperation,
        |c| {
            c.read_pixels(0, 0, 1, 1, gl::RGBA_INTEGER, gl::INT)
                .map(|_| ())
        },
    ),
    (
        "read_pixels of DEPTH_STENCIL as FLOAT",
        GlError::InvalidEnum,
        |c| {
            c.read_pixels(0, 0, 1, 1, gl::DEPTH_STENCIL, gl::FLOAT)
                .map(|_| ())
        },
    ),
    (
        "read_pixels with read buffer NONE",
        GlError::InvalidOperation,
        |c| {
            c.read_buffer(gl::NONE)?;
            c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE)
                .map(|_| ())
        },
    ),
    (
        "read_pixels of an incomplete framebuffer object",
        GlError::InvalidFramebufferOperation,
        |c| {
            let f = c.gen_framebuffers(1).unwrap()[0];
            c.bind_framebuffer(gl::READ_FRAMEBUFFER, f)?;
            c.read_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE)
                .map(|_| ())
        },
    ),
    (
        "read_image of an incomplete framebuffer object",
        GlError::InvalidFramebufferOperation,
        |c| {
            let f = c.gen_framebuffers(1).unwrap()[0];
            c.bind_framebuffer(gl::READ_FRAMEBUFFER, f)?;
            c.read_image().map(|_| ())
        },
    ),
    ("blend func of draw buffer 8", GlError::InvalidValue, |c| {
        c.blend_func_i(8, gl::ONE, gl::ONE)
    }),
    (
        "blend func of one draw buffer with a bad factor",
        GlError::InvalidEnum,
        |c| c.blend_func_separate_i(0, gl::ONE, gl::ONE, gl::LESS, gl::ONE),
    ),
    (
        "blend equation of one draw buffer with a bad mode",
        GlError::InvalidEnum,
        |c| c.blend_equation_separate_i(1, gl::FUNC_ADD, gl::ONE),
    ),
    ("colour mask of draw buffer 9", GlError::InvalidValue, |c| {
        c.color_mask_i(9, [true; 4])
    }),
    (
        "enabling blend of draw buffer 8",
        GlError::InvalidValue,
        |c| c.enable_i(gl::BLEND, 8),
    ),
    (
        "pushing a full projection stack",
        GlError::StackOverflow,
        |c| {
            c.matrix_mode(gl::PROJECTION)?;
            for _ in 0..4 {
                c.push_matrix()?;
            }
            Ok(())
        },
    ),
    (
        "popping an empty modelview stack",
        GlError::StackUnderflow,
        |c| c.pop_matrix(),
    ),
    (
        "rotating the matrix of a texture unit without one",
        GlError::InvalidOperation,
        |c| {
            c.active_texture(12)?;
            c.matrix_mode(gl::TEXTURE)?;
            c.rotate(30.0, 0.0, 0.0, 1.0)
        },
    ),
    ("get_string of a non-string", GlError::InvalidEnum, |c| {
        c.get_string(gl::BLEND).map(|_| ())
    }),
    (
        "get_string_i past the last extension",
        GlError::InvalidValue,
        |c| c.get_string_i(gl::EXTENSIONS, 10_000).map(|_| ()),
    ),
    ("get_string_i of VENDOR", GlError::InvalidEnum, |c| {
        c.get_string_i(gl::VENDOR, 0).map(|_| ())
    }),
    (
        "get_float_v of a non-state enum",
        GlError::InvalidEnum,
        |c| c.get_float_v(gl::TRIANGLES).map(|_| ()),
    ),
    (
        "env parameters running past the last one",
        GlError::InvalidValue,
        |c| c.program_env_parameters_4fv(gl::VERTEX_PROGRAM_ARB, 250, &[[0.0; 4]; 7]),
    ),
    (
        "local parameters for an unknown target",
        GlError::InvalidEnum,
        |c| c.program_local_parameters_4fv(gl::TEXTURE_2D, 0, &[[0.0; 4]]),
    ),
    (
        "stencil mask separate of a non-face",
        GlError::InvalidEnum,
        |c| c.stencil_mask_separate(gl::BLEND, 0xff),
    ),
    ("clear_buffer_fv of STENCIL", GlError::InvalidEnum, |c| {
        c.clear_buffer_fv(gl::STENCIL, 0, &[0.0])
    }),
    (
        "clear_buffer_fv of draw buffer 8",
        GlError::InvalidValue,
        |c| c.clear_buffer_fv(gl::COLOR, 8, &[0.0; 4]),
    ),
    (
        "clear_buffer_fv with 3 colour values",
        GlError::InvalidValue,
        |c| c.clear_buffer_fv(gl::COLOR, 0, &[0.0; 3]),
    ),
    (
        "clear_buffer_iv of stencil buffer 1",
        GlError::InvalidValue,
        |c| c.clear_buffer_iv(gl::STENCIL, 1, &[0]),
    ),
    ("clear_buffer_uiv of DEPTH", GlError::InvalidEnum, |c| {
        c.clear_buffer_uiv(gl::DEPTH, 0, &[0])
    }),
    ("clear_buffer_fi of COLOR", GlError::InvalidEnum, |c| {
        c.clear_buffer_fi(gl::COLOR, 0, 1.0, 0)
    }),
    (
        "clear_buffer of an incomplete framebuffer object",
        GlError::InvalidFramebufferOperation,
        |c| {
            let f = c.create_framebuffer().unwrap();
            c.bind_framebuffer(gl::FRAMEBUFFER, f)?;
            c.clear_buffer_fv(gl::COLOR, 0, &[0.0; 4])
        },
    ),
    ("tex_storage_2d of a 3D target", GlError::InvalidEnum, |c| {
        c.bind_texture(gl::TEXTURE_3D, 1)?;
        c.tex_storage_2d(gl::TEXTURE_3D, 1, gl::RGBA8, 4, 4)
    }),
    (
        "tex_storage_2d of an unsized format",
        GlError::InvalidEnum,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA, 4, 4)
        },
    ),
    ("tex_storage_2d of 0 levels", GlError::InvalidValue, |c| {
        c.bind_texture(gl::TEXTURE_2D, 1)?;
        c.tex_storage_2d(gl::TEXTURE_2D, 0, gl::RGBA8, 4, 4)
    }),
    (
        "tex_storage_2d of too many levels",
        GlError::InvalidOperation,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 4, gl::RGBA8, 4, 4)
        },
    ),
    ("tex_storage_2d twice", GlError::InvalidOperation, |c| {
        c.bind_texture(gl::TEXTURE_2D, 1)?;
        c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 4, 4)?;
        c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 4, 4)
    }),
    (
        "tex_storage_3d_multisample of a 2D multisample target",
        GlError::InvalidEnum,
        |c| {
            c.bind_texture(gl::TEXTURE_2D_MULTISAMPLE, 1)?;
            let t = gl::TEXTURE_2D_MULTISAMPLE;
            c.tex_storage_3d_multisample(t, 4, gl::RGBA8, 4, 4, 2, true)
        },
    ),
    (
        "tex_storage_3d_multisample of an unsized format",
        GlError::InvalidEnum,
        |c| {
            let t = gl::TEXTURE_2D_MULTISAMPLE_ARRAY;
            c.bind_texture(t, 1)?;
            c.tex_storage_3d_multisample(t, 4, gl::RGBA, 4, 4, 2, true)
        },
    ),
    (
        "tex_storage_3d_multisample of a compressed format",
        GlError::InvalidEnum,
        |c| {
            let t = gl::TEXTURE_2D_MULTISAMPLE_ARRAY;
            c.bind_texture(t, 1)?;
            let bc1 = gl::COMPRESSED_RGBA_S3TC_DXT1_EXT;
            c.tex_storage_3d_multisample(t, 4, bc1, 4, 4, 2, true)
        },
    ),
    (
        "tex_storage_3d_multisample with 0 samples",
        GlError::InvalidValue,
        |c| {
            let t = gl::TEXTURE_2D_MULTISAMPLE_ARRAY;
            c.bind_texture(t, 1)?;
            c.tex_storage_3d_multisample(t, 0, gl::RGBA8, 4, 4, 2, true)
        },
    ),
    (
        "tex_storage_3d_multisample with more than MAX_SAMPLES",
        GlError::InvalidOperation,
        |c| {
            let t = gl::TEXTURE_2D_MULTISAMPLE_ARRAY;
            c.bind_texture(t, 1)?;
            c.tex_storage_3d_multisample(t, 17, gl::RGBA8, 4, 4, 2, true)
        },
    ),
    (
        "tex_storage_3d_multisample past MAX_ARRAY_TEXTURE_LAYERS",
        GlError::InvalidValue,
        |c| {
            let t = gl::TEXTURE_2D_MULTISAMPLE_ARRAY;
            c.bind_texture(t, 1)?;
            c.tex_storage_3d_multisample(t, 4, gl::RGBA8, 4, 4, 4096, true)
        },
    ),
    (
        "tex_storage_3d_multisample with no texture bound",
        GlError::InvalidOperation,
        |c| {
            let t = gl::TEXTURE_2D_MULTISAMPLE_ARRAY;
            c.tex_storage_3d_multisample(t, 4, gl::RGBA8, 4, 4, 2, true)
        },
    ),
    (
        "tex_storage_3d_multisample twice",
        GlError::InvalidOperation,
        |c| {
            let t = gl::TEXTURE_2D_MULTISAMPLE_ARRAY;
            c.bind_texture(t, 1)?;
            c.tex_storage_3d_multisample(t, 4, gl::RGBA8, 4, 4, 2, true)?;
            c.tex_image_3d_multisample(t, 4, gl::RGBA8, 4, 4, 2, true)
        },
    ),
    (
        "tex_storage_2d of a non-square cube",
        GlError::InvalidValue,
        |c| {
            c.bind_texture(gl::TEXTURE_CUBE_MAP, 1)?;
            c.tex_storage_2d(gl::TEXTURE_CUBE_MAP, 1, gl::RGBA8, 4, 2)
        },
    ),
    (
        "tex_storage_3d with nothing bound",
        GlError::InvalidOperation,
        |c| c.tex_storage_3d(gl::TEXTURE_2D_ARRAY, 1, gl::RGBA8, 4, 4, 2),
    ),
    (
        "tex_storage_1d of a negative width",
        GlError::InvalidValue,
        |c| {
            c.bind_texture(gl::TEXTURE_1D, 1)?;
            c.tex_storage_1d(gl::TEXTURE_1D, 1, gl::RGBA8, -4)
        },
    ),
    (
        "tex_image of immutable storage",
        GlError::InvalidOperation,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 4, 4)?;
            c.tex_image_2d(
                gl::TEXTURE_2D,
                0,
                gl::RGBA8,
                4,
                4,
                gl::RGBA,
                gl::UNSIGNED_BYTE,
                None,
            )
        },
    ),
    ("tex_buffer of a 2D target", GlError::InvalidEnum, |c| {
        c.bind_texture(gl::TEXTURE_2D, 1)?;
        c.tex_buffer(gl::TEXTURE_2D, gl::R32F, 0)
    }),
    ("tex_buffer of an RGB8 format", GlError::InvalidEnum, |c| {
        c.bind_texture(gl::TEXTURE_BUFFER, 1)?;
        c.tex_buffer(gl::TEXTURE_BUFFER, gl::RGB8, 0)
    }),
    (
        "tex_buffer of a name that is no buffer",
        GlError::InvalidOperation,
        |c| {
            c.bind_texture(gl::TEXTURE_BUFFER, 1)?;
            c.tex_buffer(gl::TEXTURE_BUFFER, gl::R32F, 77)
        },
    ),
    (
        "tex_buffer_range past the buffer's end",
        GlError::InvalidValue,
        |c| {
            let b = buffer_with(c, 32);
            c.bind_texture(gl::TEXTURE_BUFFER, 1)?;
            c.tex_buffer_range(gl::TEXTURE_BUFFER, gl::R32F, b, 16, 32)
        },
    ),
    (
        "tex_buffer_range at an unaligned offset",
        GlError::InvalidValue,
        |c| {
            let b = buffer_with(c, 32);
            c.bind_texture(gl::TEXTURE_BUFFER, 1)?;
            c.tex_buffer_range(gl::TEXTURE_BUFFER, gl::R32F, b, 4, 4)
        },
    ),
    (
        "tex_buffer with no texture bound",
        GlError::InvalidOperation,
        |c| c.tex_buffer(gl::TEXTURE_BUFFER, gl::R32F, 0),
    ),
    (
        "program buffer parameters of an unknown target",
        GlError::InvalidEnum,
        |c| c.program_buffer_parameters_fv(gl::TEXTURE_2D, 0, 0, &[0.0]),
    ),
    (
        "program buffer parameters of binding 16",
        GlError::InvalidValue,
        |c| c.program_buffer_parameters_iiv(gl::VERTEX_PROGRAM_ARB, 16, 0, &[0]),
    ),
    (
        "program buffer parameters with no buffer bound",
        GlError::InvalidOperation,
        |c| c.program_buffer_parameters_iuiv(gl::GEOMETRY_PROGRAM_NV, 0, 0, &[0]),
    ),
    (
        "program buffer parameters past the buffer's end",
        GlError::InvalidValue,
        |c| {
            let b = buffer_with(c, 16);
            c.bind_buffer_base(gl::VERTEX_PROGRAM_PARAMETER_BUFFER_NV, 0, b)?;
            c.program_buffer_parameters_fv(gl::VERTEX_PROGRAM_ARB, 0, 2, &[0.0; 3])
        },
    ),
    (
        "create_texture of a face target",
        GlError::InvalidEnum,
        |c| {
            c.create_texture(gl::TEXTURE_CUBE_MAP_POSITIVE_X)
                .map(|_| ())
        },
    ),
    (
        "program_env_matrix past the last parameter",
        GlError::InvalidValue,
        |c| c.program_env_matrix(gl::VERTEX_PROGRAM_ARB, 253, glam::Mat4::IDENTITY),
    ),
    ("ortho of an empty volume", GlError::InvalidValue, |c| {
        c.ortho(0.0, 1.0, 0.0, 1.0, 2.0, 2.0)
    }),
    (
        "copy_tex_image_2d with a border",
        GlError::InvalidValue,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.copy_tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, 0, 0, 2, 2, 1)
        },
    ),
    (
        "copy_tex_image_2d of a 3D target",
        GlError::InvalidEnum,
        |c| {
            c.bind_texture(gl::TEXTURE_3D, 1)?;
            c.copy_tex_image_2d(gl::TEXTURE_3D, 0, gl::RGBA8, 0, 0, 2, 2, 0)
        },
    ),
    (
        "copy_tex_image_2d of a negative size",
        GlError::InvalidValue,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.copy_tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, 0, 0, -2, 2, 0)
        },
    ),
    (
        "copy_tex_image_2d of an integer format from RGBA8",
        GlError::InvalidOperation,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.copy_tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA32UI, 0, 0, 2, 2, 0)
        },
    ),
    (
        "copy_tex_image_2d into immutable storage",
        GlError::InvalidOperation,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 2, 2)?;
            c.copy_tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, 0, 0, 2, 2, 0)
        },
    ),
    (
        "copy_tex_image_2d from an incomplete framebuffer object",
        GlError::InvalidFramebufferOperation,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            let f = c.create_framebuffer().unwrap();
            c.bind_framebuffer(gl::FRAMEBUFFER, f)?;
            c.copy_tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, 0, 0, 2, 2, 0)
        },
    ),
    (
        "copy_tex_image_1d of a 2D target",
        GlError::InvalidEnum,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.copy_tex_image_1d(gl::TEXTURE_2D, 0, gl::RGBA8, 0, 0, 2, 0)
        },
    ),
    (
        "copy_tex_sub_image_2d of an undefined level",
        GlError::InvalidOperation,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.copy_tex_sub_image_2d(gl::TEXTURE_2D, 0, 0, 0, 0, 0, 2, 2)
        },
    ),
    (
        "copy_tex_sub_image_2d past the level's edge",
        GlError::InvalidValue,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 2, 2)?;
            c.copy_tex_sub_image_2d(gl::TEXTURE_2D, 0, 1, 0, 0, 0, 2, 2)
        },
    ),
    (
        "copy_tex_sub_image_2d at a negative offset",
        GlError::InvalidValue,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 2, 2)?;
            c.copy_tex_sub_image_2d(gl::TEXTURE_2D, 0, -1, 0, 0, 0, 1, 1)
        },
    ),
    (
        "copy_tex_sub_image_3d of a 2D target",
        GlError::InvalidEnum,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.copy_tex_sub_image_3d(gl::TEXTURE_2D, 0, 0, 0, 0, 0, 0, 1, 1)
        },
    ),
    (
        "copy_image_sub_data of a name that is no renderbuffer",
        GlError::InvalidValue,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 2, 2)?;
            let (r, t) = (gl::RENDERBUFFER, gl::TEXTURE_2D);
            c.copy_image_sub_data(9, r, 0, [0; 3], 1, t, 0, [0; 3], [1, 1, 1])
        },
    ),
    (
        "copy_image_sub_data of renderbuffer level 1",
        GlError::InvalidValue,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 2, 2)?;
            c.bind_renderbuffer(gl::RENDERBUFFER, 2)?;
            c.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, 2, 2)?;
            let (r, t) = (gl::RENDERBUFFER, gl::TEXTURE_2D);
            c.copy_image_sub_data(2, r, 1, [0; 3], 1, t, 0, [0; 3], [1, 1, 1])
        },
    ),
    (
        "copy_image_sub_data from a BC1 block to a texel of another size",
        GlError::InvalidOperation,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            let bc1 = gl::COMPRESSED_RGB_S3TC_DXT1_EXT;
            c.compressed_tex_image(gl::TEXTURE_2D, 0, bc1, [4, 4, 1], &[0; 8])?;
            c.bind_texture(gl::TEXTURE_2D, 2)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::R32UI, 1, 1)?;
            let t = gl::TEXTURE_2D;
            c.copy_image_sub_data(1, t, 0, [0; 3], 2, t, 0, [0; 3], [4, 4, 1])
        },
    ),
    (
        "copy_image_sub_data of a name that is no texture",
        GlError::InvalidValue,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 2, 2)?;
            c.copy_image_sub_data(
                1,
                gl::TEXTURE_2D,
                0,
                [0; 3],
                9,
                gl::TEXTURE_2D,
                0,
                [0; 3],
                [1, 1, 1],
            )
        },
    ),
    (
        "copy_image_sub_data of a cube face target",
        GlError::InvalidEnum,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 2, 2)?;
            let f = gl::TEXTURE_CUBE_MAP_POSITIVE_X;
            c.copy_image_sub_data(1, gl::TEXTURE_2D, 0, [0; 3], 1, f, 0, [0; 3], [1, 1, 1])
        },
    ),
    (
        "copy_image_sub_data with a target not the texture's",
        GlError::InvalidEnum,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 2, 2)?;
            c.copy_image_sub_data(
                1,
                gl::TEXTURE_3D,
                0,
                [0; 3],
                1,
                gl::TEXTURE_2D,
                0,
                [0; 3],
                [1, 1, 1],
            )
        },
    ),
    (
        "copy_image_sub_data of an undefined level",
        GlError::InvalidValue,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 2, 2)?;
            c.copy_image_sub_data(
                1,
                gl::TEXTURE_2D,
                1,
                [0; 3],
                1,
                gl::TEXTURE_2D,
                0,
                [0; 3],
                [1, 1, 1],
            )
        },
    ),
    (
        "copy_image_sub_data between texel sizes",
        GlError::InvalidOperation,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 2, 2)?;
            c.bind_texture(gl::TEXTURE_2D, 2)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA32F, 2, 2)?;
            c.copy_image_sub_data(
                1,
                gl::TEXTURE_2D,
                0,
                [0; 3],
                2,
                gl::TEXTURE_2D,
                0,
                [0; 3],
                [1, 1, 1],
            )
        },
    ),
    (
        "copy_image_sub_data past the level's edge",
        GlError::InvalidValue,
        |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 2, 2)?;
            c.copy_image_sub_data(
                1,
                gl::TEXTURE_2D,
                0,
                [1, 0, 0],
                1,
                gl::TEXTURE_2D,
                0,
                [0; 3],
                [2, 1, 1],
            )
        },
    ),
    (
        "bind_vertex_buffer of binding 16",
        GlError::InvalidValue,
        |c| c.bind_vertex_buffer(16, 0, 0, 16),
    ),
    (
        "bind_vertex_buffer of a negative stride",
        GlError::InvalidValue,
        |c| c.bind_vertex_buffer(0, 0, 0, -4),
    ),
    (
        "bind_vertex_buffer of a stride over 2048",
        GlError::InvalidValue,
        |c| c.bind_vertex_buffer(0, 0, 0, 4096),
    ),
    (
        "bind_vertex_buffer of a negative offset",
        GlError::InvalidValue,
        |c| c.bind_vertex_buffer(0, 0, -16, 16),
    ),
    (
        "bind_vertex_buffer of a name that is no buffer",
        GlError::InvalidOperation,
        |c| c.bind_vertex_buffer(0, 42, 0, 16),
    ),
    (
        "vertex_attrib_format of a relative offset over 2047",
        GlError::InvalidValue,
        |c| c.vertex_attrib_format(0, 4, gl::FLOAT, false, 2048),
    ),
    (
        "vertex_attrib_format of 5 components",
        GlError::InvalidValue,
        |c| c.vertex_attrib_format(0, 5, gl::FLOAT, false, 0),
    ),
    (
        "vertex_attrib_format of attribute 16",
        GlError::InvalidValue,
        |c| c.vertex_attrib_format(16, 4, gl::FLOAT, false, 0),
    ),
    (
        "vertex_attrib_format of a non-type",
        GlError::InvalidEnum,
        |c| c.vertex_attrib_format(0, 4, gl::TEXTURE_2D, false, 0),
    ),
    (
        "vertex_attrib_format of BGRA floats",
        GlError::InvalidOperation,
        |c| c.vertex_attrib_format(0, gl::BGRA as i32, gl::FLOAT, false, 0),
    ),
    (
        "vertex_attrib_i_format of floats",
        GlError::InvalidEnum,
        |c| c.vertex_attrib_i_format(0, 1, gl::FLOAT, 0),
    ),
    (
        "vertex_attrib_binding of binding 16",
        GlError::InvalidValue,
        |c| c.vertex_attrib_binding(0, 16),
    ),
    (
        "vertex_attrib_binding of attribute 16",
        GlError::InvalidValue,
        |c| c.vertex_attrib_binding(16, 0),
    ),
    (
        "vertex_binding_divisor of binding 16",
        GlError::InvalidValue,
        |c| c.vertex_binding_divisor(16, 1),
    ),
];

#[test]
fn multisampled_renderbuffer_blits_resolved() {
    let mut ctx = Context::new(8, 8).unwrap();
    let rb = ctx.gen_renderbuffers(1).unwrap()[0];
    ctx.bind_renderbuffer(gl::RENDERBUFFER, rb).unwrap();
    ctx.renderbuffer_storage_multisample(gl::RENDERBUFFER, 4, gl::RGBA8, 8, 8)
        .unwrap();
    let f = ctx.gen_framebuffers(1).unwrap()[0];
    ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb)
        .unwrap();
    assert_eq!(
        ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap(),
        gl::FRAMEBUFFER_COMPLETE
    );
    ctx.clear_color([0.0, 0.0, 1.0, 1.0]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.bind_framebuffer(gl::DRAW_FRAMEBUFFER, 0).unwrap();
    ctx.blit_framebuffer(
        [0, 0, 8, 8],
        [0, 0, 4, 4],
        gl::COLOR_BUFFER_BIT,
        gl::NEAREST,
    )
    .unwrap();
    ctx.bind_framebuffer(gl::READ_FRAMEBUFFER, 0).unwrap();
    assert_eq!(ctx.read_pixel(1, 1).unwrap(), [0.0, 0.0, 1.0, 1.0]);
    assert_eq!(
        ctx.read_pixel(6, 6).unwrap(),
        [0.0, 0.0, 0.0, 0.0],
        "outside the blit target"
    );
}

/// An 8x1 window whose two left pixels are black and white.
fn black_white_ctx() -> Context {
    let mut ctx = Context::new(8, 1).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.enable(gl::SCISSOR_TEST).unwrap();
    ctx.scissor(1, 0, 1, 1).unwrap();
    ctx.clear_color([1.0; 4]).unwrap();
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.disable(gl::SCISSOR_TEST).unwrap();
    ctx
}

fn reds(ctx: &Context, x: i32, n: i32) -> Vec<u8> {
    let px = ctx
        .read_pixels_as::<[f32; 4]>(x, 0, n, 1, gl::RGBA, gl::FLOAT)
        .unwrap();
    px.iter().map(|p| (p[0] * 255.0).round() as u8).collect()
}

#[test]
fn scaled_blits_filter_nearest_and_linear() {
    // Source pixels 0..2 onto destination 4..8: centres map to u = 0.25, 0.75, 1.25, 1.75.
    let mut ctx = black_white_ctx();
    ctx.blit_framebuffer(
        [0, 0, 2, 1],
        [4, 0, 8, 1],
        gl::COLOR_BUFFER_BIT,
        gl::NEAREST,
    )
    .unwrap();
    assert_eq!(reds(&ctx, 4, 4), [0, 0, 255, 255]);
    // LINEAR filters the read buffer as a CLAMP_TO_EDGE texture (as Mesa does): the
    // first pixel clamps at x = 0 (black), the last mixes white x = 1 with the black
    // x = 2 just outside the source rectangle: 0, 0.25, 0.75, 0.75 (64 and 191 stored).
    let mut ctx = black_white_ctx();
    ctx.blit_framebuffer([0, 0, 2, 1], [4, 0, 8, 1], gl::COLOR_BUFFER_BIT, gl::LINEAR)
        .unwrap();
    assert_eq!(reds(&ctx, 4, 4), [0, 64, 191, 191]);
    // A mirrored destination (x1 < x0) flips the image.
    let mut ctx = black_white_ctx();
    ctx.blit_framebuffer(
        [0, 0, 2, 1],
        [8, 0, 6, 1],
        gl::COLOR_BUFFER_BIT,
        gl::NEAREST,
    )
    .unwrap();
    assert_eq!(reds(&ctx, 6, 2), [255, 0]);
}

#[test]
fn blits_with_extreme_rectangles_touch_only_the_framebuffer() {
    // Destination spanning the whole i32 range: only the 8 framebuffer pixels are
    // visited (this took minutes and overflowed i32 when every pixel was walked).
    let mut ctx = black_white_ctx();
    ctx.blit_framebuffer(
        [0, 0, 2, 1],
        [i32::MIN, 0, i32::MAX, 1],
        gl::COLOR_BUFFER_BIT,
        gl::NEAREST,
    )
    .unwrap();
    // The source spans 2 pixels over 2^32 destination pixels: x = 0..8 all map to the
    // source pixel at the middle (x = 1, white).
    assert_eq!(reds(&ctx, 0, 8), [255; 8]);
    let mut ctx = black_white_ctx();
    ctx.blit_framebuffer(
        [i32::MIN, i32::MIN, i32::MAX, i32::MAX],
        [0, 0, 8, 1],
        gl::COLOR_BUFFER_BIT,
        gl::NEAREST,
    )
    .unwrap();
    // Every destination pixel maps far outside the source: nothing is written.
    assert_eq!(reds(&ctx, 0, 2), [0, 255]);
}

#[test]
fn misuse_returns_the_gl_error() {
    let mut wrong = Vec::new();
    for (name, want, f) in CASES {
        let mut ctx = Context::new(8, 8).unwrap();
        match f(&mut ctx) {
            Ok(()) => wrong.push(format!("{name}: succeeded, expected {}", want.name())),
            Err(e) if e.gl != *want => wrong.push(format!("{name}: {e}, expected {}", want.name())),
            Err(e) => assert!(!e.message.is_empty(), "{name}: empty message"),
        }
        // The context stays usable after the error.
        ctx.bind_framebuffer(gl::FRAMEBUFFER, 0).unwrap();
        ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn program_errors_report_position_and_string() {
    let mut ctx = Context::new(4, 4).unwrap();
    let text = "!!ARBfp1.0\nMOV result.color, fragment.color;\nFOO;\nEND\n";
    assert!(ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, text).is_err());
    let pos = ctx.program_error_position();
    assert_eq!(text.get(pos as usize..pos as usize + 3), Some("FOO"));
    assert!(
        ctx.program_error_string().starts_with("3:1:"),
        "{}",
        ctx.program_error_string()
    );
    ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, "!!ARBfp1.0\nEND\n")
        .unwrap();
    assert_eq!(ctx.program_error_position(), -1);
    assert!(ctx.program_error_string().is_empty());
}

#[test]
fn program_errors_carry_their_place_in_the_program() {
    use glemu::programs::Stage;
    use glemu::{Cause, GlError, PipelineError};
    let mut ctx = Context::new(4, 4).unwrap();
    // Load error: the place of the offending token, and the assembler's own error.
    let bad = "!!ARBvp1.0\nTEMP t;\n  FOO t;\nEND\n";
    let e = ctx.program_string(gl::VERTEX_PROGRAM_ARB, bad).unwrap_err();
    let at = e.program.unwrap();
    assert_eq!(
        (at.stage, at.line, at.column, at.instruction),
        (Stage::Vertex, 3, 3, None)
    );
    assert!(matches!(e.cause.as_deref(), Some(Cause::Load(l)) if l.position() == 21));
    // Run-time error: a subroutine that calls itself overflows the call stack at the CAL
    // inside it (instruction 0, line 3); the pipeline's error says so as data.
    let runaway = "!!NVvp5.0\nf:\nCAL f;\nRET;\nmain:\nCAL f;\nMOV result.position, 0;\nEND\n";
    ctx.program_string(gl::VERTEX_PROGRAM_ARB, runaway).unwrap();
    ctx.enable(gl::VERTEX_PROGRAM_ARB).unwrap();
    let e = ctx.draw_arrays(gl::POINTS, 0, 1).unwrap_err();
    assert_eq!(e.gl, GlError::InvalidOperation);
    let at = e.program.unwrap();
    assert_eq!(
        (at.stage, at.instruction, at.line, at.column),
        (Stage::Vertex, Some(0), 3, 1)
    );
    let Some(Cause::Pipeline(PipelineError::Program { stage, source, .. })) = e.cause.as_deref()
    else {
        panic!("{e:?}");
    };
    assert_eq!(*stage, Stage::Vertex);
    assert_eq!(source.inst, 0);
    assert!(
        e.message
            .starts_with("vertex program: instruction 0 (byte 13): "),
        "{e}"
    );
    let source = std::error::Error::source(&e).unwrap();
    assert!(
        source.source().is_some(),
        "the chain reaches the executor's error"
    );
}

#[test]
fn context_is_send() {
    fn is_send<T: Send>() {}
    is_send::<Context>();
}

#[test]
fn vertex_array_misuse() {
    let mut ctx = Context::new(4, 4).unwrap();
    assert_eq!(
        ctx.bind_vertex_array(5).unwrap_err().gl,
        GlError::InvalidOperation
    );
    let ids = ctx.gen_vertex_arrays(1).unwrap();
    ctx.delete_vertex_arrays(&ids);
    assert_eq!(
        ctx.bind_vertex_array(ids[0]).unwrap_err().gl,
        GlError::InvalidOperation
    );
    // Deleting 0 and unknown names is silently ignored.
    ctx.delete_vertex_arrays(&[0, 77]);
    ctx.bind_vertex_array(0).unwrap();
}

/// The dual-source rule names draw buffers at index 1 and above only: with draw buffer 0
/// alone (or blending off) the same state draws.
#[test]
fn dual_source_blending_draws_with_one_draw_buffer() {
    let mut c = Context::new(4, 4).unwrap();
    assert_eq!(
        c.get_integer_v(gl::MAX_DUAL_SOURCE_DRAW_BUFFERS).unwrap(),
        [1]
    );
    let t = c.gen_textures(2).unwrap();
    let f = c.gen_framebuffers(1).unwrap()[0];
    c.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    for (k, &tex) in t.iter().enumerate() {
        c.bind_texture(gl::TEXTURE_2D, tex).unwrap();
        c.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8,
            4,
            4,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            None,
        )
        .unwrap();
        let at = gl::COLOR_ATTACHMENT0 + k as u32;
        c.framebuffer_texture_2d(gl::FRAMEBUFFER, at, gl::TEXTURE_2D, tex, 0)
            .unwrap();
    }
    c.enable(gl::BLEND).unwrap();
    c.blend_func(gl::SRC1_COLOR, gl::ONE_MINUS_SRC1_COLOR)
        .unwrap();
    c.draw_buffers(&[gl::COLOR_ATTACHMENT0, gl::NONE]).unwrap();
    c.draw_arrays(gl::TRIANGLES, 0, 3).unwrap();
    c.draw_buffers(&[gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT0 + 1])
        .unwrap();
    assert_eq!(
        c.draw_arrays(gl::TRIANGLES, 0, 3).unwrap_err().gl,
        GlError::InvalidOperation
    );
    c.disable(gl::BLEND).unwrap();
    c.draw_arrays(gl::TRIANGLES, 0, 3).unwrap();
}
