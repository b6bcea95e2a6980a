//! ARB_pipeline_statistics_query: the counters the pipeline's stages keep, through query
//! objects and `Context::pipeline_statistics`, for every kind of draw.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::scene::{parse, RunOptions, Runner};
use glemu::{gl, Context, PipelineStatistics};
use std::path::Path;

/// The statistics of one run of a reftest scene of the repository.
fn scene_stats(rel: &str) -> PipelineStatistics {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("reftests/scenes")
        .join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let dir = path.parent().unwrap_or(Path::new("."));
    let opts = RunOptions {
        skip_png_probes: true,
        ..RunOptions::default()
    };
    let mut r = Runner::new(parse(&text).expect("scene"), dir, opts).expect("runner");
    r.run_commands().expect("commands");
    r.context().pipeline_statistics()
}

#[test]
fn tessellation_scene_counts_patches_domain_points_and_fragments() {
    let s = scene_stats("tessellation/tess_quad_levels_fill.shader_test");
    assert!(s.tess_control_patches > 0, "{s:?}");
    // More domain points than patch vertices: the tessellator made them.
    assert!(s.tess_eval_invocations > s.vertex_invocations, "{s:?}");
    assert!(
        s.clipping_input_primitives > s.primitives_submitted,
        "{s:?}"
    );
    assert!(s.fragment_invocations > 0, "{s:?}");
    assert_eq!(s.geometry_invocations, 0, "{s:?}");
}

#[test]
fn geometry_scene_counts_invocations_and_emitted_primitives() {
    let s = scene_stats("geometry/gs_amplify_endprim.shader_test");
    assert!(s.geometry_invocations > 0, "{s:?}");
    assert!(
        s.geometry_primitives_emitted > s.primitives_submitted,
        "{s:?}"
    );
    assert_eq!(
        s.clipping_input_primitives, s.geometry_primitives_emitted,
        "{s:?}"
    );
    assert!(s.fragment_invocations > 0, "{s:?}");
    let s = scene_stats("geometry/gs_invocations.shader_test");
    assert!(
        s.geometry_invocations > s.primitives_submitted,
        "INVOCATIONS: {s:?}"
    );
}

#[test]
fn point_scene_counts_points_and_fragments() {
    let s = scene_stats("raster/points_sizes.shader_test");
    assert_eq!(s.vertices_submitted, s.primitives_submitted, "{s:?}");
    assert!(s.clipping_input_primitives > 0, "{s:?}");
    assert!(s.fragment_invocations > 0, "{s:?}");
}

/// A triangle covering the lower-left half of an 8x8 framebuffer (diagonal excluded by
/// the fill rule's tie: 28 pixel centres strictly below it, plus the 8 on it owned by
/// the top-left rule).
fn draw_half(ctx: &mut Context) -> glemu::Result<()> {
    ctx.bind_program(gl::VERTEX_PROGRAM_ARB, 1)?;
    ctx.program_string(
        gl::VERTEX_PROGRAM_ARB,
        "!!NVvp5.0\nMOV result.position, vertex.attrib[0];\nEND\n",
    )?;
    ctx.enable(gl::VERTEX_PROGRAM_ARB)?;
    ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 2)?;
    ctx.program_string(
        gl::FRAGMENT_PROGRAM_ARB,
        "!!NVfp5.0\nMOV result.color, 1;\nEND\n",
    )?;
    ctx.enable(gl::FRAGMENT_PROGRAM_ARB)?;
    let verts: [f32; 6] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0];
    ctx.bind_buffer(gl::ARRAY_BUFFER, 1)?;
    ctx.buffer_data(gl::ARRAY_BUFFER, &verts, gl::STATIC_DRAW)?;
    ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 8, 0)?;
    ctx.enable_vertex_attrib_array(0)?;
    ctx.draw_arrays(gl::TRIANGLES, 0, 3)
}

#[test]
fn query_objects_read_the_same_counters() {
    let mut ctx = Context::new(8, 8).expect("context");
    let targets = [
        gl::VERTICES_SUBMITTED_ARB,
        gl::PRIMITIVES_SUBMITTED_ARB,
        gl::VERTEX_SHADER_INVOCATIONS_ARB,
        gl::CLIPPING_INPUT_PRIMITIVES_ARB,
        gl::CLIPPING_OUTPUT_PRIMITIVES_ARB,
        gl::FRAGMENT_SHADER_INVOCATIONS_ARB,
        gl::GEOMETRY_SHADER_INVOCATIONS,
        gl::COMPUTE_SHADER_INVOCATIONS_ARB,
    ];
    let ids = ctx.gen_queries(targets.len()).unwrap();
    for (t, q) in targets.iter().zip(&ids) {
        ctx.begin_query(*t, *q).expect("begin");
    }
    draw_half(&mut ctx).expect("draw");
    draw_half(&mut ctx).expect("draw");
    for t in &targets {
        ctx.end_query(*t).expect("end");
    }
    let result: Vec<u64> = ids
        .iter()
        .map(|q| {
            ctx.get_query_object_ui64v(*q, gl::QUERY_RESULT)
                .expect("result")
        })
        .collect();
    let s = ctx.pipeline_statistics();
    let frag = s.fragment_invocations;
    assert_eq!(result, [6, 2, 6, 2, 2, frag, 0, 0]);
    // Every fragment that passed (no tests enabled) ran the program once.
    assert_eq!(frag, s.samples_passed);
    assert!((2 * 28..=2 * 36).contains(&frag), "{frag}");
    ctx.reset_pipeline_statistics();
    assert_eq!(ctx.pipeline_statistics(), PipelineStatistics::default());
}
