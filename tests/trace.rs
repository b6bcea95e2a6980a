//! `glemu trace`: the traced run gives the rendered image, its fragment outputs are what
//! the pixel stores, and the trace of a known program is the stored expectation.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::cli::trace::{to_json, to_text, trace_scene, trace_scene_stages, TraceResult};
use glemu::cli::trace_ops::DrawOps;
use glemu::programs::ir::{InputBinding, OutputBinding, Stage, VaryingSlot};
use glemu::scene::{parse, RunOptions, Runner};
use glemu_pipeline::trace::{FedPrimitive, TracedInvocation};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The pixel as a plain (untraced) run leaves it.
fn rendered(text: &str, dir: &Path, x: i32, y: i32) -> [f32; 4] {
    let opts = RunOptions {
        skip_png_probes: true,
        ..RunOptions::default()
    };
    let mut r = Runner::new(parse(text).expect("scene"), dir, opts).expect("runner");
    r.run_commands().expect("commands");
    r.context().read_pixel(x, y).expect("pixel")
}

fn unorm8(c: [f32; 4]) -> [i32; 4] {
    c.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as i32)
}

/// Traces (x, y) of a scene and checks the stored value against a plain render, and the
/// last fragment's colour output against the stored value (these pixels are written by
/// one unblended fragment last).
fn check(name: &str, text: &str, dir: &Path, x: i32, y: i32) {
    let t = trace_scene(text, dir, x, y, None, None).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        t.fragments().count() > 0,
        "{name}: no fragment traced at ({x}, {y})"
    );
    assert!(
        t.fragments()
            .all(|f| f.rejected_early || (!f.trace.steps.is_empty() && f.error.is_none())),
        "{name}: empty trace"
    );
    let plain = rendered(text, dir, x, y);
    assert_eq!(t.final_color, plain, "{name}: tracing changed the image");
    let out = t
        .last_color_output()
        .unwrap_or_else(|| panic!("{name}: no colour output"));
    let (a, b) = (unorm8(out), unorm8(t.final_color));
    assert!(
        a.iter().zip(&b).all(|(p, q)| (p - q).abs() <= 1),
        "{name} ({x}, {y}): fragment output {out:?} but the pixel stores {:?}",
        t.final_color
    );
}

#[test]
fn traced_pixels_end_in_the_rendered_value() {
    for (scene, x, y) in [
        ("tessellation/tess_quad_levels_fill.shader_test", 32, 32),
        ("tessellation/tess_tri_equal_fill.shader_test", 30, 20),
        ("geometry/gs_triangle_recolor.shader_test", 32, 20),
        ("geometry/gs_amplify_endprim.shader_test", 10, 25),
        ("legacy/arbfp_cmp_kil_lrp.shader_test", 40, 40),
        ("raster/points_sizes.shader_test", 19, 19),
        ("textures/tex_1d_rgbw.shader_test", 8, 30),
    ] {
        let path = root().join("reftests/scenes").join(scene);
        let text = std::fs::read_to_string(&path).expect("scene");
        check(scene, &text, path.parent().expect("dir"), x, y);
    }
}

#[test]
fn traced_pixel_of_tessellation_plus_geometry() {
    // The built-in scene runs vertex, tessellation control and evaluation, geometry and
    // fragment programs, textured.
    for (x, y) in [(90, 90), (110, 130), (60, 200)] {
        check("default scene", glemu::cli::DEFAULT_SCENE, &root(), x, y);
    }
}

#[test]
fn trace_of_a_known_program_matches_the_stored_expectation() {
    let dir = root().join("tests/data");
    let text = std::fs::read_to_string(dir.join("trace_branch.shader_test")).expect("scene");
    let t = trace_scene(&text, &dir, 1, 1, None, None).expect("trace");
    let got = to_text(&t, "trace_branch.shader_test");
    let want = std::fs::read_to_string(dir.join("trace_branch.expected")).expect("expectation");
    assert_eq!(got, want, "got:\n{got}");
}

#[test]
fn a_killed_fragment_is_traced_to_its_kil() {
    let path = root().join("reftests/scenes/legacy/arbfp_cmp_kil_lrp.shader_test");
    let text = std::fs::read_to_string(&path).expect("scene");
    let t = trace_scene(&text, path.parent().expect("dir"), 10, 10, None, None).expect("trace");
    let f = t.fragments().next().expect("a fragment");
    assert!(f.killed);
    let last = f.trace.steps.last().expect("steps");
    assert!(last.killed && last.next_pc.is_none(), "{last:?}");
    assert_eq!(t.final_color, [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn texture_lookups_show_coordinates_lod_and_texel() {
    let path = root().join("reftests/scenes/textures/tex_1d_rgbw.shader_test");
    let text = std::fs::read_to_string(&path).expect("scene");
    let t = trace_scene(&text, path.parent().expect("dir"), 8, 30, None, None).expect("trace");
    let f = t.fragments().next().expect("a fragment");
    let tex = f
        .trace
        .steps
        .iter()
        .flat_map(|s| s.textures.iter())
        .next()
        .expect("a texture lookup");
    assert_eq!(tex.unit, 0);
    assert!(tex.lod.is_some(), "{tex:?}");
    // Red texel of the rgbw strip, and the instruction wrote it.
    assert_eq!(tex.texel.map(f32::from_bits), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(t.final_color, [1.0, 0.0, 0.0, 1.0]);
}

#[test]
fn trace_of_tests_and_blending_matches_the_stored_expectation() {
    let dir = root().join("tests/data");
    let text = std::fs::read_to_string(dir.join("trace_ops.shader_test")).expect("scene");
    let t = trace_scene(&text, &dir, 2, 2, None, None).expect("trace");
    let got = to_text(&t, "trace_ops.shader_test");
    let want = std::fs::read_to_string(dir.join("trace_ops.expected")).expect("expectation");
    assert_eq!(got, want, "got:\n{got}");
    // The same in JSON: the blend's factors and result.
    let j = to_json(&t, "trace_ops.shader_test");
    let b = &j["draws"][1]["fragments"][0]["ops"]["blend"];
    assert_eq!(b["factors"][0], "SrcAlpha");
    assert_eq!(b["src_factor"][0], 0.5);
    assert_eq!(b["result"][2], 0.5);
    assert_eq!(j["draws"][0]["fragments"][0]["ops"]["stencil"]["after"], 4);
    assert_eq!(j["draws"][1]["replay"]["matches"], true);
    // The green quad's fragment: rejected by the early depth test, its program not run.
    let g = &j["draws"][2]["fragments"][0];
    assert_eq!(g["rejected_early"], true);
    assert_eq!(g["ops"]["early"], true);
    assert_eq!(g["ops"]["depth"]["pass"], false);
    assert_eq!(g["steps"].as_array().map(Vec::len), Some(0));
}

/// The per-fragment operations replayed from the traced fragments (tests, blending, in
/// order, with the rasterizer's own functions) end in the pixel each draw left, for
/// scenes of every stage combination and of depth, stencil and blending; the last
/// replayed colour is the stored value.
#[test]
fn replayed_operations_end_in_the_rendered_pixel() {
    for (scene, x, y) in [
        ("raster/blend_src_alpha.shader_test", 20, 30),
        ("raster/blend_separate_funcs.shader_test", 16, 16),
        ("raster/blend_equation_subtract.shader_test", 16, 16),
        ("raster/depth_funcs.shader_test", 10, 10),
        ("raster/stencil_depth_fail_paths.shader_test", 48, 24),
        ("raster/stencil_ops.shader_test", 16, 16),
        ("raster/fragment_depth_output.shader_test", 32, 32),
        ("tessellation/tess_quad_levels_fill.shader_test", 32, 32),
        ("geometry/gs_triangle_recolor.shader_test", 32, 20),
        ("legacy/arbfp_cmp_kil_lrp.shader_test", 40, 40),
        ("legacy/ff_fog_linear.shader_test", 32, 32),
        ("legacy/arbfp_fog_linear_option.shader_test", 16, 21),
    ] {
        let path = root().join("reftests/scenes").join(scene);
        let text = std::fs::read_to_string(&path).expect("scene");
        let t = trace_scene(&text, path.parent().expect("dir"), x, y, None, None)
            .unwrap_or_else(|e| panic!("{scene}: {e}"));
        let mut last = None;
        for (i, r) in t.replays().enumerate() {
            match r {
                DrawOps::Replayed { matches, color, .. } => {
                    assert!(
                        *matches,
                        "{scene} ({x}, {y}) draw {}: replay {color:?} differs",
                        i + 1
                    );
                    last = Some(*color);
                }
                DrawOps::NotReplayed(why) => panic!("{scene}: not replayed: {why}"),
            }
        }
        let last = last.unwrap_or_else(|| panic!("{scene} ({x}, {y}): no draw traced"));
        assert_eq!(unorm8(last), unorm8(t.final_color), "{scene} ({x}, {y})");
    }
    // The built-in scene: vertex, tessellation, geometry and fragment programs.
    let t = trace_scene(glemu::cli::DEFAULT_SCENE, &root(), 90, 90, None, None).expect("trace");
    let replays: Vec<_> = t.replays().collect();
    assert!(
        !replays.is_empty()
            && replays
                .iter()
                .all(|r| matches!(r, DrawOps::Replayed { matches: true, .. })),
        "{replays:?}"
    );
}

/// A multisampled framebuffer is not replayed, and the trace says why.
#[test]
fn multisampled_draws_say_why_they_are_not_replayed() {
    let path = root().join("reftests/scenes/msaa/msaa_ipas_positions.shader_test");
    let text = std::fs::read_to_string(&path).expect("scene");
    let t = trace_scene(&text, path.parent().expect("dir"), 3, 0, None, None).expect("trace");
    let why = t
        .replays()
        .find_map(|r| match r {
            DrawOps::NotReplayed(w) => Some(w.clone()),
            DrawOps::Replayed { .. } => None,
        })
        .expect("a draw not replayed");
    assert!(why.contains("4x multisampled"), "{why}");
    assert!(to_text(&t, "s").contains("per-fragment operations not replayed: 4x multisampled"));
}

/// Integer instructions show their values as integers (FLR.U writes 3, not the float
/// 4e-45 its bits would be), conversions show the float side as floats.
#[test]
fn integer_values_are_shown_as_integers() {
    let text = "[require]\nSIZE 8 8\n[vertex program]\n!!NVvp5.0\nMOV result.position, vertex.position;\nEND\n\
        [fragment program]\n!!NVfp5.0\nINT TEMP i;\nTEMP r;\nFLR.S i.xy, fragment.position;\nSUB.S i.x, i.x, 7;\nI2F.S r.xy, i;\n\
        MUL result.color.xy, r, 0.125;\nMOV result.color.zw, {0, 0, 0, 1};\nEND\n[test]\ndraw rect -1 -1 2 2\n";
    let t = trace_scene(text, &root(), 3, 5, None, None).expect("trace");
    let s = to_text(&t, "s");
    assert!(
        s.contains("wrote i.xy = x 3 (0x00000003), y 5 (0x00000005)"),
        "{s}"
    );
    assert!(s.contains("wrote i.x = x -4 (0xfffffffc)"), "{s}");
    assert!(
        s.contains("read  fragment.position = x 3.5 (0x40600000)"),
        "{s}"
    );
    assert!(
        s.contains("wrote r.xy = x -4 (0xc0800000), y 5 (0x40a00000)"),
        "{s}"
    );
}

/// A draw after the scene's fragment program is disabled runs fixed-function fragment
/// processing (a generated program): its fragment is shown as that, not with the scene
/// program's source lines, and its colour output is what the pixel stores.
#[test]
fn each_fragment_is_shown_with_the_program_that_ran_for_it() {
    let text = "[require]\nSIZE 8 8\n[fragment program]\n!!ARBfp1.0\nMOV result.color, {0, 1, 0, 1};\nEND\n\
        [test]\ndraw rect -1 -1 2 2\ndisable GL_FRAGMENT_PROGRAM_ARB\ncolor 1 0 0 1\ndraw rect -1 -1 2 2\n";
    let t = trace_scene(text, &root(), 2, 2, None, None).expect("trace");
    let fragments: Vec<_> = t.fragments().collect();
    assert_eq!(fragments.len(), 2);
    assert_ne!(
        fragments[0].program.as_deref(),
        fragments[1].program.as_deref(),
        "the two draws ran different fragment programs"
    );
    let s = to_text(&t, "s");
    let second = &s[s.find("draw 2").expect("second draw")..];
    assert!(s.contains("MOV result.color, {0, 1, 0, 1};"), "{s}");
    assert!(
        second.contains("fixed-function fragment processing")
            && !second.contains("MOV result.color, {0, 1, 0, 1};"),
        "{s}"
    );
    assert_eq!(t.final_color, [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(t.last_color_output(), Some([1.0, 0.0, 0.0, 1.0]));
}

const ALL: [Stage; 5] = [
    Stage::Vertex,
    Stage::TessControl,
    Stage::TessEval,
    Stage::Geometry,
    Stage::Fragment,
];

fn of(p: &FedPrimitive, stage: Stage) -> Vec<&TracedInvocation> {
    p.invocations.iter().filter(|i| i.stage == stage).collect()
}

/// The result.position an invocation ended with.
fn position_out(i: &TracedInvocation) -> Option<[u32; 4]> {
    let k = i
        .program
        .outputs
        .iter()
        .position(|o| o.binding == OutputBinding::Varying(VaryingSlot::Position))?;
    i.outputs.get(k).copied()
}

/// The positions of input vertex copies `0..n` of an invocation.
fn positions_in(i: &TracedInvocation, n: usize) -> Vec<[u32; 4]> {
    let Some(k) = i
        .program
        .inputs
        .iter()
        .position(|s| s.binding == InputBinding::Varying(VaryingSlot::Position))
    else {
        return Vec::new();
    };
    i.inputs
        .iter()
        .take(n)
        .filter_map(|c| c.get(k).copied())
        .collect()
}

/// Every stage's invocations read the positions the stage before wrote, and the
/// primitive's vertices are what the last stage wrote (a geometry program's emitted
/// vertices: values some step of it wrote).
fn check_chain(name: &str, p: &FedPrimitive) {
    let order = [
        Stage::Vertex,
        Stage::TessControl,
        Stage::TessEval,
        Stage::Geometry,
    ];
    let present: Vec<Stage> = order
        .into_iter()
        .filter(|s| !of(p, *s).is_empty())
        .collect();
    for w in present.windows(2) {
        let before: Vec<[u32; 4]> = of(p, w[0]).iter().filter_map(|i| position_out(i)).collect();
        for inv in of(p, w[1]) {
            for pos in positions_in(inv, before.len()) {
                assert!(
                    before.contains(&pos),
                    "{name}: {:?} {:?} read position {pos:x?}, not one the {:?} stage wrote",
                    w[1],
                    inv.at,
                    w[0]
                );
            }
        }
    }
    let Some(last) = present.last() else {
        panic!("{name}: no earlier-stage invocation recorded");
    };
    let bits: Vec<[u32; 4]> = p.positions.iter().map(|v| v.map(f32::to_bits)).collect();
    for b in &bits {
        let made = of(p, *last).iter().any(|i| match last {
            Stage::Geometry => i.trace.steps.iter().any(|st| {
                st.wrote
                    .is_some_and(|w| w.map(|x| x as u32) == *b && st.write_mask == 0xf)
            }),
            _ => position_out(i) == Some(*b),
        });
        assert!(
            made,
            "{name}: vertex {b:x?} was not written by the {last:?} stage"
        );
    }
}

/// A pixel of the scene some fragment reaches (centre first).
fn covered_pixel(text: &str, dir: &Path) -> Option<(i32, i32, TraceResult)> {
    let sc = parse(text).expect("scene");
    let (w, h) = sc.size();
    let (w, h) = (w as i32, h as i32);
    let candidates = [
        (w / 2, h / 2),
        (w / 3, h / 3),
        (2 * w / 3, h / 3),
        (w / 3, 2 * h / 3),
        (2 * w / 3, 2 * h / 3),
        (w / 4, h / 4),
    ];
    candidates.into_iter().find_map(|(x, y)| {
        let t = trace_scene_stages(text, dir, x, y, None, None, &ALL).ok()?;
        (t.fragments().count() > 0).then_some((x, y, t))
    })
}

#[test]
fn traced_stages_feed_the_primitive_that_covered_the_pixel() {
    // Vertex, tessellation control and evaluation, geometry and fragment programs.
    let t = trace_scene_stages(glemu::cli::DEFAULT_SCENE, &root(), 90, 90, None, None, &ALL)
        .expect("trace");
    let prims: Vec<&FedPrimitive> = t.primitives().collect();
    assert!(!prims.is_empty(), "no primitive found");
    for p in &prims {
        for s in [
            Stage::Vertex,
            Stage::TessControl,
            Stage::TessEval,
            Stage::Geometry,
        ] {
            assert!(!of(p, s).is_empty(), "no {s:?} invocation: {p:#?}");
        }
        assert!(p.missing.is_empty(), "{:?}", p.missing);
        check_chain("default scene", p);
    }
    // Without a geometry program the tessellated triangle's vertices are the evaluation
    // program's outputs, and the triangle contains the pixel centre.
    let path = root().join("reftests/scenes/tessellation/tess_tri_equal_fill.shader_test");
    let text = std::fs::read_to_string(&path).expect("scene");
    let (x, y) = (30, 20);
    let t = trace_scene_stages(&text, path.parent().expect("dir"), x, y, None, None, &ALL)
        .expect("trace");
    let p = t.primitives().next().expect("a primitive");
    check_chain("tess_tri_equal_fill", p);
    assert_eq!(of(p, Stage::TessEval).len(), 3);
    let (w, h) = parse(&text).expect("scene").size();
    let win: Vec<(f32, f32)> = p
        .positions
        .iter()
        .map(|v| {
            (
                (v[0] / v[3] + 1.0) * 0.5 * w as f32,
                (v[1] / v[3] + 1.0) * 0.5 * h as f32,
            )
        })
        .collect();
    let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
    let edge = |a: (f32, f32), b: (f32, f32)| (b.0 - a.0) * (cy - a.1) - (b.1 - a.1) * (cx - a.0);
    let e = [
        edge(win[0], win[1]),
        edge(win[1], win[2]),
        edge(win[2], win[0]),
    ];
    assert!(
        e.iter().all(|v| *v >= 0.0) || e.iter().all(|v| *v <= 0.0),
        "pixel centre ({cx}, {cy}) outside {win:?}"
    );
}

#[test]
fn trace_of_every_stage_matches_the_stored_expectation() {
    let dir = root().join("tests/data");
    let text = std::fs::read_to_string(dir.join("trace_stages.shader_test")).expect("scene");
    let t = trace_scene_stages(&text, &dir, 1, 1, None, None, &ALL).expect("trace");
    let got = to_text(&t, "trace_stages.shader_test");
    let want = std::fs::read_to_string(dir.join("trace_stages.expected")).expect("expectation");
    assert_eq!(got, want, "got:\n{got}");
    let j = to_json(&t, "trace_stages.shader_test");
    let inv = &j["draws"][0]["primitives"][0]["invocations"];
    assert_eq!(inv.as_array().map(Vec::len), Some(4), "{j:#}");
    assert_eq!(inv[3]["stage"], "geometry");
    assert_eq!(inv[0]["steps"][0]["line"], 11);
}

#[test]
fn trace_of_all_stages_works_for_every_stage_combination_in_the_reftests() {
    // One scene per combination of programs the reftests hold (fixed-function vertex or
    // fragment processing runs a generated program).
    for scene in [
        "textures/tex_1d_rgbw.shader_test",         // vertex + fragment
        "geometry/gs_triangle_recolor.shader_test", // + geometry
        "tessellation/tess_no_tcp_default_levels.shader_test", // + evaluation
        "tessellation/tess_tri_equal_fill.shader_test", // + control + evaluation
        "legacy/arbfp_tex_modulate_local.shader_test", // fixed vertex + fragment
        "legacy/arbvp_nvvp2_option_branch.shader_test", // vertex + fixed fragment
    ] {
        let path = root().join("reftests/scenes").join(scene);
        let text = std::fs::read_to_string(&path).expect("scene");
        let dir = path.parent().expect("dir");
        let (x, y, t) =
            covered_pixel(&text, dir).unwrap_or_else(|| panic!("{scene}: no pixel covered"));
        assert_eq!(
            t.final_color,
            rendered(&text, dir, x, y),
            "{scene}: tracing changed the image"
        );
        let p = t
            .primitives()
            .next()
            .unwrap_or_else(|| panic!("{scene} ({x}, {y}): no primitive found"));
        assert!(
            !of(p, Stage::Vertex).is_empty(),
            "{scene}: no vertex invocation"
        );
        for (header, stage) in [
            ("[tess control program]", Stage::TessControl),
            ("[tess eval program]", Stage::TessEval),
            ("[geometry program]", Stage::Geometry),
        ] {
            assert_eq!(
                !of(p, stage).is_empty(),
                text.contains(header),
                "{scene}: {stage:?} invocations"
            );
        }
        check_chain(scene, p);
        assert!(
            t.fragments().all(|f| f.rejected_early || f.error.is_none()),
            "{scene}: a fragment failed"
        );
    }
    // Every stage at once.
    let (x, y, t) = covered_pixel(glemu::cli::DEFAULT_SCENE, &root()).expect("a pixel");
    assert_eq!(
        t.final_color,
        rendered(glemu::cli::DEFAULT_SCENE, &root(), x, y)
    );
}
