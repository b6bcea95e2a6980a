//! EXT_shader_image_load_store through the NV assembly path, end to end: image units
//! bound with `bind_image_texture`, LOADIM / STOREIM / ATOMIM in vertex, geometry and
//! fragment programs, results read back from the texture objects. Every expected value is
//! exact (section 2.X.8.Z pseudo-code and section 3.9.X of the EXT spec).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod common;

use glemu::{gl, Context, GlError};
use glemu_textures::Format;

const W: u32 = 8;

/// A context with `threads` rasterizer threads, a pass-through vertex program reading
/// attribute 0, a full-screen quad in attribute 0 and `fp` as the fragment program.
fn context(threads: usize, fp: &str) -> Context {
    let mut ctx = Context::new(W, W).unwrap();
    ctx.set_threads(threads).unwrap();
    program(
        &mut ctx,
        gl::VERTEX_PROGRAM_ARB,
        "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nEND\n",
    );
    program(&mut ctx, gl::FRAGMENT_PROGRAM_ARB, fp);
    let quad = [
        -1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0, 1.0,
    ];
    positions(&mut ctx, &quad);
    ctx
}

fn program(ctx: &mut Context, target: u32, text: &str) {
    ctx.bind_program(target, target).unwrap();
    ctx.program_string(target, text)
        .unwrap_or_else(|e| panic!("{e}"));
    ctx.enable(target).unwrap();
}

fn positions(ctx: &mut Context, xy: &[f32]) {
    ctx.bind_buffer(gl::ARRAY_BUFFER, 100).unwrap();
    ctx.buffer_data(gl::ARRAY_BUFFER, xy, gl::STATIC_DRAW)
        .unwrap();
    ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 0, 0)
        .unwrap();
    ctx.enable_vertex_attrib_array(0).unwrap();
}

/// A new 2D texture of `format` and size w×h, filled with `texels` (canonical values).
fn texture(ctx: &mut Context, format: Format, w: u32, h: u32, texels: &[[u32; 4]]) -> u32 {
    let t = ctx.gen_textures(1).unwrap()[0];
    ctx.bind_texture(gl::TEXTURE_2D, t).unwrap();
    ctx.tex_image_texels(gl::TEXTURE_2D, 0, format, [w, h, 1], Some(texels))
        .unwrap();
    // One level, sampled by TXF too: NEAREST keeps it complete (also for integers).
    for pname in [gl::TEXTURE_MIN_FILTER, gl::TEXTURE_MAG_FILTER] {
        ctx.tex_parameter_i(gl::TEXTURE_2D, pname, gl::NEAREST as i32)
            .unwrap();
    }
    t
}

fn zeros(n: u32) -> Vec<[u32; 4]> {
    vec![[0; 4]; n as usize]
}

/// Channel 0 of every texel of level 0 (the single-channel images these tests use).
fn red(ctx: &Context, tex: u32) -> Vec<u32> {
    let texels = ctx.get_texture_texels(tex, 0).unwrap();
    texels.iter().map(|t| t[0]).collect()
}

/// Binds level 0 of `tex`, not layered, to image unit `unit`.
fn bind(ctx: &mut Context, unit: u32, tex: u32, access: u32, format: u32) {
    ctx.bind_image_texture(unit, tex, 0, false, 0, access, format)
        .unwrap();
}

const WINDOW_POSITION_FP: &str = "!!NVfp5.0
INT TEMP c;
FLR.S c.xy, fragment.position;
MOV.S c.zw, {7, 9, 0, 0}.xxxy;
STOREIM.U32X4 image[0], c, c, 2D;
MOV result.color, {1, 0, 0, 1};
END
";

#[test]
fn fragment_stores_its_window_position() {
    for threads in [1, 2] {
        let mut ctx = context(threads, WINDOW_POSITION_FP);
        let t = texture(&mut ctx, Format::RGBA32UI, W, W, &zeros(W * W));
        bind(&mut ctx, 0, t, gl::WRITE_ONLY, gl::RGBA32UI);
        ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
        let texels = ctx.get_texture_texels(t, 0).unwrap();
        for y in 0..W {
            for x in 0..W {
                assert_eq!(texels[(y * W + x) as usize], [x, y, 7, 9], "({x},{y})");
            }
        }
    }
}

const COUNT_FP: &str = "!!NVfp5.0
INT TEMP c, old;
FLR.S c.xy, fragment.position;
MOV.S c.zw, {0, 0, 0, 0};
ATOMIM.ADD.U32 old.x, {1, 0, 0, 0}, {0, 0, 0, 0}, image[1], 2D;
ADD.S old.x, old.x, 1;
STOREIM.U32 image[2], old, c, 2D;
MOV result.color, {1, 0, 0, 1};
END
";

/// Draws a triangle with COUNT_FP: returns (atomic count, per-pixel 1 + old value,
/// pixels the framebuffer shows covered).
fn count_triangle(threads: usize) -> (u32, Vec<u32>, u32) {
    let mut ctx = context(threads, COUNT_FP);
    positions(&mut ctx, &[-0.9, -0.8, 0.85, -0.3, -0.2, 0.95]);
    let counter = texture(&mut ctx, Format::R32UI, 1, 1, &zeros(1));
    let map = texture(&mut ctx, Format::R32UI, W, W, &zeros(W * W));
    bind(&mut ctx, 1, counter, gl::READ_WRITE, gl::R32UI);
    bind(&mut ctx, 2, map, gl::WRITE_ONLY, gl::R32UI);
    ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap();
    let count = ctx.get_texture_texels(counter, 0).unwrap()[0][0];
    let olds = red(&ctx, map);
    let covered = ctx
        .read_pixels_as::<[f32; 4]>(0, 0, W as i32, W as i32, gl::RGBA, gl::FLOAT)
        .unwrap()
        .iter()
        .filter(|p| p[0] == 1.0)
        .count() as u32;
    (count, olds, covered)
}

#[test]
fn atomic_add_counts_covered_pixels_exactly() {
    for threads in [1, 2] {
        let (count, olds, covered) = count_triangle(threads);
        assert!(covered > 10 && covered < 60, "{covered}");
        assert_eq!(count, covered, "threads {threads}");
        // Each fragment got a distinct old value: 0..count, each once.
        let mut got: Vec<u32> = olds.iter().copied().filter(|&v| v != 0).collect();
        got.sort_unstable();
        assert_eq!(got, (1..=count).collect::<Vec<_>>());
    }
    // One thread processes fragments in a fixed order: identical maps.
    assert_eq!(count_triangle(1).1, count_triangle(1).1);
}

#[test]
fn vertex_program_loads_positions_from_an_image() {
    let mut ctx = context(1, "!!NVfp5.0\nMOV result.color, {0, 1, 0, 1};\nEND\n");
    // Vertex i reads its position from texel i; it also stores its id + 10 in texel i of
    // a second image.
    program(
        &mut ctx,
        gl::VERTEX_PROGRAM_ARB,
        "!!NVvp5.0
INT TEMP i, j;
TEMP p;
MOV.S i, {0, 0, 0, 0};
MOV.S i.x, vertex.id.x;
LOADIM.F32X4 p, i, image[3], 2D;
MOV result.position, p;
ADD.S j, i.x, 10;
STOREIM.U32 image[4], j, i, 2D;
END
",
    );
    let pos = [
        [-1.0, -1.0, 0.0, 1.0],
        [1.0, -1.0, 0.0, 1.0],
        [-1.0, 1.0, 0.0, 1.0],
    ];
    let texels: Vec<[u32; 4]> = pos.iter().map(|p| p.map(f32::to_bits)).collect();
    let src = texture(&mut ctx, Format::RGBA32F, 3, 1, &texels);
    let ids = texture(&mut ctx, Format::R32UI, 4, 1, &zeros(4));
    bind(&mut ctx, 3, src, gl::READ_ONLY, gl::RGBA32F);
    bind(&mut ctx, 4, ids, gl::READ_WRITE, gl::R32UI);
    ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap();
    let px = ctx
        .read_pixels_as::<[f32; 4]>(0, 0, W as i32, W as i32, gl::RGBA, gl::FLOAT)
        .unwrap();
    // The lower-left half (x + y < 7) is covered, the upper-right corner is not.
    assert_eq!(px[0], [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(px[(W * W - 1) as usize], [0.0, 0.0, 0.0, 0.0]);
    let stored = red(&ctx, ids);
    assert_eq!(stored, [10, 11, 12, 0]);
}

#[test]
fn geometry_program_counts_its_invocations() {
    let mut ctx = context(2, "!!NVfp5.0\nMOV result.color, {0, 0, 1, 1};\nEND\n");
    program(
        &mut ctx,
        gl::GEOMETRY_PROGRAM_NV,
        "!!NVgp5.0
PRIMITIVE_IN TRIANGLES;
PRIMITIVE_OUT TRIANGLE_STRIP;
VERTICES_OUT 3;
INT TEMP old;
ATOMIM.ADD.U32 old.x, {1, 0, 0, 0}, {0, 0, 0, 0}, image[0], 2D;
MOV result.position, vertex[0].position;
EMIT;
MOV result.position, vertex[1].position;
EMIT;
MOV result.position, vertex[2].position;
EMIT;
END
",
    );
    let counter = texture(&mut ctx, Format::R32UI, 1, 1, &zeros(1));
    bind(&mut ctx, 0, counter, gl::READ_WRITE, gl::R32UI);
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap();
    assert_eq!(ctx.get_texture_texels(counter, 0).unwrap()[0][0], 3);
    assert_eq!(
        ctx.read_pixels_as::<[f32; 4]>(4, 4, 1, 1, gl::RGBA, gl::FLOAT)
            .unwrap()[0],
        [0.0, 0.0, 1.0, 1.0]
    );
}

#[test]
fn cswap_exch_min_max_follow_the_pseudo_code() {
    let mut ctx = Context::new(1, 1).unwrap();
    program(
        &mut ctx,
        gl::VERTEX_PROGRAM_ARB,
        "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nEND\n",
    );
    program(
        &mut ctx,
        gl::FRAGMENT_PROGRAM_ARB,
        "!!NVfp5.0
INT TEMP r, s;
ATOMIM.CSWAP.U32 r.x, {5, 9, 0, 0}, {0, 0, 0, 0}, image[0], 2D;
ATOMIM.CSWAP.U32 r.y, {5, 11, 0, 0}, {1, 0, 0, 0}, image[0], 2D;
ATOMIM.EXCH.U32 r.z, {42, 0, 0, 0}, {2, 0, 0, 0}, image[0], 2D;
ATOMIM.MIN.S32 r.w, {-3, 0, 0, 0}, {3, 0, 0, 0}, image[0], 2D;
ATOMIM.MAX.U32 s.x, {100, 0, 0, 0}, {4, 0, 0, 0}, image[0], 2D;
ATOMIM.MIN.U32 s.y, {4294967295, 0, 0, 0}, {5, 0, 0, 0}, image[0], 2D;
ATOMIM.MAX.S32 s.z, {-1, 0, 0, 0}, {6, 0, 0, 0}, image[0], 2D;
ATOMIM.ADD.U32 s.w, {1, 0, 0, 0}, {8, 0, 0, 0}, image[0], 2D;
STOREIM.U32X4 image[1], r, {0, 0, 0, 0}, 2D;
STOREIM.U32X4 image[1], s, {1, 0, 0, 0}, 2D;
END
",
    );
    positions(
        &mut ctx,
        &[
            -1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0, 1.0,
        ],
    );
    let init: Vec<[u32; 4]> = (5..13).map(|v| [v, 0, 0, 0]).collect();
    let mem = texture(&mut ctx, Format::R32UI, 8, 1, &init);
    let out = texture(&mut ctx, Format::RGBA32UI, 2, 1, &zeros(2));
    bind(&mut ctx, 0, mem, gl::READ_WRITE, gl::R32I);
    bind(&mut ctx, 1, out, gl::WRITE_ONLY, gl::RGBA32UI);
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    let mem = red(&ctx, mem);
    // Texels: 5 → 9 (swapped), 6 stays (5 ≠ 6), 7 → 42, 8 → -3 (signed min), 9 → 100,
    // 10 stays (unsigned min with 0xffffffff), 11 stays (signed max with -1), 12 untouched,
    // x = 8 is outside the 8-texel image: the ADD is dropped and returns 0.
    assert_eq!(mem, [9, 6, 42, (-3i32) as u32, 100, 10, 11, 12]);
    let out = ctx.get_texture_texels(out, 0).unwrap();
    assert_eq!(out[0], [5, 6, 7, 8]);
    assert_eq!(out[1], [9, 10, 11, 0]);
}

#[test]
fn out_of_range_stores_are_dropped_and_loads_give_zero() {
    // Every fragment stores at its window position shifted by (-2, +3) into a 4×4 image
    // and loads texel (x, y) as its colour: only shifted positions inside the image land.
    let fp = "!!NVfp5.0
INT TEMP c, v;
FLR.S c.xy, fragment.position;
MOV.S c.zw, {0, 0, 0, 0};
LOADIM.U32 v, c, image[0], 2D;
I2F result.color, v;
ADD.S c.x, c.x, -2;
ADD.S c.y, c.y, 3;
STOREIM.U32 image[1], {1, 0, 0, 0}, c, 2D;
END
";
    let mut ctx = context(2, fp);
    let src: Vec<[u32; 4]> = (0..16).map(|v| [v % 2, 0, 0, 0]).collect();
    let a = texture(&mut ctx, Format::R32UI, 4, 4, &src);
    let b = texture(&mut ctx, Format::R32UI, 4, 4, &zeros(16));
    bind(&mut ctx, 0, a, gl::READ_ONLY, gl::R32UI);
    bind(&mut ctx, 1, b, gl::WRITE_ONLY, gl::R32UI);
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    let stored = red(&ctx, b);
    // Window x in 2..6 → image x 0..4; window y in 0..1 → image y 3..4.
    let want: Vec<u32> = (0..16).map(|i| u32::from(i / 4 >= 3)).collect();
    assert_eq!(stored, want);
    let px = ctx
        .read_pixels_as::<[f32; 4]>(0, 0, W as i32, W as i32, gl::RGBA, gl::FLOAT)
        .unwrap();
    for y in 0..W {
        for x in 0..W {
            let inside = x < 4 && y < 4;
            let want = if inside { (x % 2) as f32 } else { 0.0 };
            assert_eq!(px[(y * W + x) as usize][0], want, "({x},{y})");
            assert_eq!(px[(y * W + x) as usize][3], if inside { 1.0 } else { 0.0 });
        }
    }
}

#[test]
fn formatted_stores_convert_to_the_unit_format() {
    let fp = "!!NVfp5.0
INT TEMP c;
MOV.S c, {0, 0, 0, 0};
STOREIM.F image[0], {0.25, 0.75, 1.5, -1}, c, 2D;
STOREIM.F image[1], {0.25, 0.75, 1.5, -1}, c, 2D;
STOREIM.F image[2], {-2.75, 0.5, 1.5, -1}, c, 2D;
STOREIM.U image[3], {4000000000, 1, 2, 3}, c, 2D;
STOREIM.S image[4], {-5, 300, -300, 7}, c, 2D;
END
";
    let mut ctx = Context::new(1, 1).unwrap();
    program(
        &mut ctx,
        gl::VERTEX_PROGRAM_ARB,
        "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nEND\n",
    );
    program(&mut ctx, gl::FRAGMENT_PROGRAM_ARB, fp);
    positions(&mut ctx, &[-1.0, -1.0, 3.0, -1.0, -1.0, 3.0]);
    let fmts = [
        (Format::RGBA8, gl::RGBA8),
        (Format::RGBA32F, gl::RGBA32F),
        (Format::R32F, gl::R32F),
        (Format::R32UI, gl::R32UI),
        (Format::RGBA8I, gl::RGBA8I),
    ];
    let mut tex = Vec::new();
    for (unit, (f, e)) in fmts.iter().enumerate() {
        let t = texture(&mut ctx, *f, 1, 1, &zeros(1));
        ctx.bind_image_texture(unit as u32, t, 0, false, 0, gl::READ_WRITE, *e)
            .unwrap();
        tex.push(t);
    }
    ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap();
    let get = |ctx: &Context, i: usize| ctx.get_texture_texels(tex[i], 0).unwrap()[0];
    let f = |v: f32| v.to_bits();
    // RGBA8: clamped to [0, 1], rounded to 8 bits: 64, 191, 255, 0.
    assert_eq!(
        get(&ctx, 0),
        [f(64.0 / 255.0), f(191.0 / 255.0), f(1.0), f(0.0)]
    );
    assert_eq!(get(&ctx, 1), [f(0.25), f(0.75), f(1.5), f(-1.0)]);
    assert_eq!(get(&ctx, 2), [f(-2.75), 0, 0, f(1.0)]);
    assert_eq!(get(&ctx, 3), [4_000_000_000, 0, 0, 1]);
    // Signed 8-bit: saturated to [-128, 127].
    assert_eq!(get(&ctx, 4), [(-5i32) as u32, 127, (-128i32) as u32, 7]);
}

#[test]
fn unformatted_views_and_invalid_bindings() {
    // An RGBA8 texture seen through an R32UI unit: LOADIM.U32 reads the packed word; an
    // R8UI view (1 byte ≠ 4) makes every access invalid.
    let fp = "!!NVfp5.0
INT TEMP v, w;
LOADIM.U32 v, {0, 0, 0, 0}, image[0], 2D;
LOADIM.U8 w, {0, 0, 0, 0}, image[1], 2D;
MOV.S v.y, w.x;
STOREIM.U32X4 image[2], v, {0, 0, 0, 0}, 2D;
END
";
    let mut ctx = Context::new(1, 1).unwrap();
    program(
        &mut ctx,
        gl::VERTEX_PROGRAM_ARB,
        "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nEND\n",
    );
    program(&mut ctx, gl::FRAGMENT_PROGRAM_ARB, fp);
    positions(&mut ctx, &[-1.0, -1.0, 3.0, -1.0, -1.0, 3.0]);
    let one = 1.0f32.to_bits();
    let src = texture(&mut ctx, Format::RGBA8, 1, 1, &[[one, 0, one, 0]]);
    let out = texture(&mut ctx, Format::RGBA32UI, 1, 1, &[[9, 9, 9, 9]]);
    bind(&mut ctx, 0, src, gl::READ_ONLY, gl::R32UI);
    bind(&mut ctx, 1, src, gl::READ_ONLY, gl::R8UI);
    bind(&mut ctx, 2, out, gl::WRITE_ONLY, gl::RGBA32UI);
    ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap();
    assert_eq!(
        ctx.get_texture_texels(out, 0).unwrap()[0],
        [0x00ff_00ff, 0, 0, 1]
    );
    // The unit's state as GL reports it.
    ctx.bind_image_texture(5, src, 0, true, 3, gl::READ_WRITE, gl::RGBA8)
        .unwrap();
    let q = |p| ctx.get_integer_i_v(p, 5).unwrap();
    assert_eq!(
        [
            q(gl::IMAGE_BINDING_NAME),
            q(gl::IMAGE_BINDING_LEVEL),
            q(gl::IMAGE_BINDING_LAYERED),
            q(gl::IMAGE_BINDING_LAYER),
            q(gl::IMAGE_BINDING_ACCESS),
            q(gl::IMAGE_BINDING_FORMAT),
        ],
        [src as i64, 0, 1, 3, gl::READ_WRITE as i64, gl::RGBA8 as i64]
    );
    assert_eq!(
        ctx.get_integer_i_v(gl::IMAGE_BINDING_NAME, 8)
            .unwrap_err()
            .gl,
        GlError::InvalidValue
    );
    // GL errors.
    let e = |r: glemu::Result<()>| r.unwrap_err().gl;
    assert_eq!(
        e(ctx.bind_image_texture(8, src, 0, false, 0, gl::READ_ONLY, gl::R32UI)),
        GlError::InvalidValue
    );
    assert_eq!(
        e(ctx.bind_image_texture(0, src, -1, false, 0, gl::READ_ONLY, gl::R32UI)),
        GlError::InvalidValue
    );
    assert_eq!(
        e(ctx.bind_image_texture(0, src, 0, false, 0, gl::READ_ONLY, gl::SRGB8_ALPHA8)),
        GlError::InvalidValue
    );
    assert_eq!(
        e(ctx.bind_image_texture(0, src, 0, false, 0, gl::RGBA, gl::R32UI)),
        GlError::InvalidEnum
    );
    // Deleting the texture detaches it: the load through unit 0 now reads 0.
    ctx.delete_textures(&[src]);
    ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap();
    assert_eq!(ctx.get_texture_texels(out, 0).unwrap()[0], [0, 0, 0, 0]);
}

#[test]
fn stores_persist_across_draws_and_reach_texture_sampling() {
    // Draw 1 counts into texel (0,0); draw 2 samples the same texture with TXF.
    let mut ctx = context(
        2,
        "!!NVfp5.0\nINT TEMP o;\nATOMIM.ADD.U32 o.x, {1, 0, 0, 0}, {0, 0, 0, 0}, image[0], 2D;\nEND\n",
    );
    let t = texture(&mut ctx, Format::R32UI, 1, 1, &[[1000, 0, 0, 0]]);
    bind(&mut ctx, 0, t, gl::READ_WRITE, gl::R32UI);
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    ctx.memory_barrier(gl::TEXTURE_FETCH_BARRIER_BIT).unwrap();
    assert_eq!(
        ctx.get_texture_texels(t, 0).unwrap()[0][0],
        1000 + 2 * W * W
    );
    program(
        &mut ctx,
        gl::FRAGMENT_PROGRAM_ARB,
        // red = v - 1127 and green = v - 1128 (clamped to [0, 1]) are 1 and 0 only for
        // v = 1128 = 1000 + 2 × 64.
        "!!NVfp5.0\nINT TEMP v;\nTXF.S v, {0, 0, 0, 0}, texture[0], 2D;\nADD.S v.y, v.x, -1128;\nADD.S v.x, v.x, -1127;\nMOV.S v.zw, {0, 0, 0, 1};\nI2F result.color, v;\nEND\n",
    );
    ctx.bind_texture(gl::TEXTURE_2D, t).unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    assert_eq!(
        ctx.read_pixels_as::<[f32; 4]>(0, 0, 1, 1, gl::RGBA, gl::FLOAT)
            .unwrap()[0],
        [1.0, 0.0, 0.0, 1.0]
    );
}

#[test]
fn tessellation_programs_reach_image_units() {
    // One quad patch, levels 1: the control program's 4 invocations each add 1 to texel
    // (invocation, 0) of image 0; the evaluation program stores 1 + its (u, v) corner's
    // index into the 2×2 image 1 at (u, v).
    let mut ctx = context(2, "!!NVfp5.0\nMOV result.color, {1, 1, 0, 1};\nEND\n");
    program(
        &mut ctx,
        gl::TESS_CONTROL_PROGRAM_NV,
        "!!NVtcp5.0
VERTICES_OUT 4;
ATTRIB ipos = vertex.position;
INT TEMP id, old;
MOV.S id, {0, 0, 0, 0};
MOV.S id.x, primitive.invocation.x;
MOV result.position, ipos[id.x];
ATOMIM.ADD.U32 old.x, {1, 0, 0, 0}, id, image[0], 2D;
MOV result.patch.tessouter[0].x, 1.0;
MOV result.patch.tessouter[1].x, 1.0;
MOV result.patch.tessouter[2].x, 1.0;
MOV result.patch.tessouter[3].x, 1.0;
MOV result.patch.tessinner[0].x, 1.0;
MOV result.patch.tessinner[1].x, 1.0;
END
",
    );
    program(
        &mut ctx,
        gl::TESS_EVALUATION_PROGRAM_NV,
        "!!NVtep5.0
TESS_MODE QUADS;
TEMP a, b;
INT TEMP c, v;
LRP a, vertex.tesscoord.x, vertex[1].position, vertex[0].position;
LRP b, vertex.tesscoord.x, vertex[2].position, vertex[3].position;
LRP result.position, vertex.tesscoord.y, b, a;
MOV.S c, {0, 0, 0, 0};
FLR.S c.xy, vertex.tesscoord;
MAD.S v.x, c.y, 2, c.x;
ADD.S v.x, v.x, 1;
STOREIM.U32 image[1], v, c, 2D;
END
",
    );
    positions(&mut ctx, &[-1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0]);
    ctx.patch_vertices(4).unwrap();
    let counts = texture(&mut ctx, Format::R32UI, 4, 1, &zeros(4));
    let corners = texture(&mut ctx, Format::R32UI, 2, 2, &zeros(4));
    bind(&mut ctx, 0, counts, gl::READ_WRITE, gl::R32UI);
    bind(&mut ctx, 1, corners, gl::WRITE_ONLY, gl::R32UI);
    ctx.draw_arrays(gl::PATCHES, 0, 4).unwrap();
    let first = |t| -> Vec<u32> {
        ctx.get_texture_texels(t, 0)
            .unwrap()
            .iter()
            .map(|v| v[0])
            .collect()
    };
    assert_eq!(first(counts), [1, 1, 1, 1]);
    assert_eq!(first(corners), [1, 2, 3, 4]);
    assert_eq!(
        ctx.read_pixels_as::<[f32; 4]>(4, 4, 1, 1, gl::RGBA, gl::FLOAT)
            .unwrap()[0],
        [1.0, 1.0, 0.0, 1.0]
    );
}

#[test]
fn mem_extended_packed_image_access() {
    // OPTION NV_gpu_program5_mem_extended: U8X4 reads the four bytes of an RGBA8UI
    // texel, F16X2 stores two halves into an RG16F texel.
    let fp = "!!NVfp5.0
OPTION NV_gpu_program5_mem_extended;
INT TEMP v;
LOADIM.U8X4 v, {0, 0, 0, 0}, image[0], 2D;
STOREIM.U32X4 image[1], v, {0, 0, 0, 0}, 2D;
STOREIM.F16X2 image[2], {1.5, -0.25, 0, 0}, {0, 0, 0, 0}, 2D;
END
";
    let mut ctx = Context::new(1, 1).unwrap();
    program(
        &mut ctx,
        gl::VERTEX_PROGRAM_ARB,
        "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nEND\n",
    );
    program(&mut ctx, gl::FRAGMENT_PROGRAM_ARB, fp);
    positions(&mut ctx, &[-1.0, -1.0, 3.0, -1.0, -1.0, 3.0]);
    let src = texture(&mut ctx, Format::RGBA8UI, 1, 1, &[[1, 2, 250, 4]]);
    let out = texture(&mut ctx, Format::RGBA32UI, 1, 1, &zeros(1));
    let half = texture(&mut ctx, Format::RG16F, 1, 1, &zeros(1));
    for (unit, t, f) in [
        (0, src, gl::RGBA8UI),
        (1, out, gl::RGBA32UI),
        (2, half, 0x822F),
    ] {
        ctx.bind_image_texture(unit, t, 0, false, 0, gl::READ_WRITE, f)
            .unwrap();
    }
    ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap();
    assert_eq!(ctx.get_texture_texels(out, 0).unwrap()[0], [1, 2, 250, 4]);
    let f = |v: f32| v.to_bits();
    assert_eq!(
        ctx.get_texture_texels(half, 0).unwrap()[0],
        [f(1.5), f(-0.25), 0, f(1.0)]
    );
}

#[test]
fn uploads_between_draws_reach_image_loads() {
    // Image memory is kept between draws only while the texture is untouched: a
    // re-upload of the same size between two counting draws restarts the count.
    let mut ctx = context(
        2,
        "!!NVfp5.0\nINT TEMP o;\nATOMIM.ADD.U32 o.x, {1, 0, 0, 0}, {0, 0, 0, 0}, image[0], 2D;\nEND\n",
    );
    let t = texture(&mut ctx, Format::R32UI, 1, 1, &zeros(1));
    bind(&mut ctx, 0, t, gl::READ_WRITE, gl::R32UI);
    let count = |ctx: &Context| ctx.get_texture_texels(t, 0).unwrap()[0][0];
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    assert_eq!(count(&ctx), W * W);
    ctx.tex_image_texels(
        gl::TEXTURE_2D,
        0,
        Format::R32UI,
        [1, 1, 1],
        Some(&[[5, 0, 0, 0]]),
    )
    .unwrap();
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    assert_eq!(count(&ctx), 5 + W * W);
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    assert_eq!(count(&ctx), 5 + 2 * W * W);
    // Rebinding the unit to another texture name reads that texture.
    let u = texture(&mut ctx, Format::R32UI, 1, 1, &[[100, 0, 0, 0]]);
    bind(&mut ctx, 0, u, gl::READ_WRITE, gl::R32UI);
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    assert_eq!(ctx.get_texture_texels(u, 0).unwrap()[0][0], 100 + W * W);
    assert_eq!(count(&ctx), 5 + 2 * W * W);
}

#[test]
fn image_arrays_indexed_at_run_time_and_array_layers() {
    // `im[c.x]` picks image unit 2 or 3 per fragment (left or right half of the window);
    // unit 2 binds the whole 2D array layered (layer from z = 1), unit 3 binds layer 0
    // alone (a 2D image: z must be 0).
    let fp = "!!NVfp5.0
IMAGE im[2] = { image[2..3] };
INT TEMP c, p;
FLR.S p.xy, fragment.position;
DIV.S c.x, p.x, 4;
MOV.S p.zw, {0, 0, 0, 0};
MOV.S p.z, {1, 0, 0, 0}.x;
SUB.S p.z, p.z, c.x;
STOREIM.U32 im[c.x], {7, 0, 0, 0}, p, ARRAY2D;
END
";
    let mut ctx = context(2, fp);
    let t = ctx.gen_textures(1).unwrap()[0];
    ctx.bind_texture(gl::TEXTURE_2D_ARRAY, t).unwrap();
    ctx.tex_image_texels(
        gl::TEXTURE_2D_ARRAY,
        0,
        Format::R32UI,
        [W, W, 2],
        Some(&zeros(W * W * 2)),
    )
    .unwrap();
    ctx.bind_image_texture(2, t, 0, true, 0, gl::READ_WRITE, gl::R32UI)
        .unwrap();
    bind(&mut ctx, 3, t, gl::READ_WRITE, gl::R32UI);
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    let texels = ctx.get_texture_texels(t, 0).unwrap();
    for layer in 0..2 {
        for y in 0..W {
            for x in 0..W {
                let v = texels[(layer * W * W + y * W + x) as usize][0];
                // Left half → layer 1 through unit 2; right half → layer 0 through unit 3.
                let want = if (x < 4) == (layer == 1) { 7 } else { 0 };
                assert_eq!(v, want, "layer {layer} ({x},{y})");
            }
        }
    }
}

/// Image memory (a copy of the bound level the draw's threads share) is charged to the
/// memory budget: past it the draw is OUT_OF_MEMORY, and the context keeps working.
#[test]
fn image_memory_past_the_budget_is_out_of_memory() {
    let mut ctx = context(1, WINDOW_POSITION_FP);
    let big = 1024;
    let t = texture(&mut ctx, Format::RGBA32UI, big, big, &zeros(big * big));
    bind(&mut ctx, 0, t, gl::WRITE_ONLY, gl::RGBA32UI);
    // 16 MiB of texels; their image memory would take 16 MiB more.
    ctx.set_memory_budget(ctx.memory_in_use() + (8 << 20));
    let e = ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap_err();
    assert_eq!(e.gl, GlError::OutOfMemory, "{e}");
    assert!(e.message.contains("image memory"), "{e}");
    ctx.set_memory_budget(ctx.memory_in_use() + (32 << 20));
    ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    let texels = ctx.get_texture_texels(t, 0).unwrap();
    assert_eq!(texels[(3 * big + 5) as usize], [5, 3, 7, 9]);
}
