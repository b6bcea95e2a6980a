//! What glemu claims is what it has: every limit of `caps::LIMIT_TABLE` is what
//! `get_integer_v`/`get_program_iv`, `[require]` and `glemu info` report, and the
//! assembler enforces the program-visible ones at exactly that value; every extension of
//! `caps::EXTENSIONS` is what `get_string`, `get_string_i`, `[require]` and `glemu info`
//! list, and each one's program option or entry points work.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::caps::{self, Query, EXTENSIONS, LIMIT_TABLE};
use glemu::programs::Stage;
use glemu::scene;
use glemu::{gl, Context};

fn info() -> String {
    let mut out = Vec::new();
    assert_eq!(glemu::cli::info::run(&mut out), 0);
    String::from_utf8(out).expect("utf-8")
}

#[test]
fn every_limit_is_reported_alike_everywhere() {
    let ctx = Context::new(4, 4).expect("context");
    let info = info();
    for l in LIMIT_TABLE {
        match l.query {
            Query::Integer => {
                assert_eq!(
                    ctx.get_integer_v(l.pname).ok().as_deref(),
                    Some(l.value),
                    "{}",
                    l.name
                );
            }
            Query::Program => {
                for target in [gl::VERTEX_PROGRAM_ARB, gl::FRAGMENT_PROGRAM_ARB] {
                    assert_eq!(
                        ctx.get_program_iv(target, l.pname).ok(),
                        Some(l.value[0]),
                        "{}",
                        l.name
                    );
                }
            }
        }
        assert_eq!(
            scene::limit(&format!("GL_{}", l.name)),
            Some(i64::from(l.value[0])),
            "{}",
            l.name
        );
        let v: Vec<String> = l.value.iter().map(i32::to_string).collect();
        let line = format!("  GL_{} = {}\n", l.name, v.join(" "));
        assert!(info.contains(&line), "glemu info lacks {line:?}");
    }
}

/// How a reported limit bounds what a program may say.
enum Bound {
    /// Indices `0..n` are allowed: `n - 1` loads, `n` does not.
    Count,
    /// The value itself is allowed, one more is not.
    Max,
    /// The value itself is allowed, one less is not.
    Min,
}

/// (limit, stage, program text with `#` for the number, how the limit bounds it).
const ENFORCED: &[(&str, Stage, &str, Bound)] = &[
    ("MAX_VERTEX_ATTRIBS", Stage::Vertex, "!!ARBvp1.0\nMOV result.position, vertex.attrib[#];\nEND\n", Bound::Count),
    ("MAX_TEXTURE_COORDS", Stage::Fragment, "!!ARBfp1.0\nMOV result.color, fragment.texcoord[#];\nEND\n", Bound::Count),
    ("MAX_TEXTURE_IMAGE_UNITS", Stage::Fragment, "!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[#], 2D;\nEND\n", Bound::Count),
    ("MAX_COMBINED_TEXTURE_IMAGE_UNITS", Stage::Fragment, "!!NVfp5.0\nTEX result.color, fragment.texcoord[0], texture[#], 2D;\nEND\n", Bound::Count),
    ("MAX_LIGHTS", Stage::Vertex, "!!ARBvp1.0\nMOV result.position, state.light[#].diffuse;\nEND\n", Bound::Count),
    ("MAX_CLIP_PLANES", Stage::Vertex, "!!ARBvp1.0\nMOV result.position, state.clip[#].plane;\nEND\n", Bound::Count),
    ("MAX_DRAW_BUFFERS", Stage::Fragment, "!!NVfp4.0\nOPTION ARB_draw_buffers;\nMOV result.color[#], fragment.color;\nEND\n", Bound::Count),
    ("MAX_PROGRAM_MATRICES_ARB", Stage::Vertex, "!!ARBvp1.0\nMOV result.position, state.matrix.program[#].row[0];\nEND\n", Bound::Count),
    ("MAX_PROGRAM_ENV_PARAMETERS_ARB", Stage::Vertex, "!!ARBvp1.0\nMOV result.position, program.env[#];\nEND\n", Bound::Count),
    ("MAX_PROGRAM_LOCAL_PARAMETERS_ARB", Stage::Fragment, "!!ARBfp1.0\nMOV result.color, program.local[#];\nEND\n", Bound::Count),
    ("MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV", Stage::Fragment, "!!NVfp5.0\nCBUFFER cb[] = { program.buffer[#] };\nTEMP t;\nLDC.F32X4 t, cb[0];\nMOV result.color, t;\nEND\n", Bound::Count),
    ("MAX_ATOMIC_COUNTER_BUFFER_BINDINGS", Stage::Fragment, "!!NVfp5.0\nOPTION NV_shader_atomic_counters;\nCOUNTER c = program.counter[#][0];\nUINT TEMP u;\nATOMCTR.INCR u, c;\nEND\n", Bound::Count),
    ("MAX_SHADER_STORAGE_BUFFER_BINDINGS", Stage::Fragment, "!!NVfp5.0\nOPTION NV_shader_storage_buffer;\nSTORAGE s = program.storage[#];\nUINT TEMP u;\nLDB.U32 u, s[0];\nEND\n", Bound::Count),
    ("MAX_IMAGE_UNITS", Stage::Fragment, "!!NVfp5.0\nIMAGE i = image[#];\nEND\n", Bound::Count),
    ("MAX_PROGRAM_ADDRESS_REGISTERS_ARB", Stage::Vertex, "!!ARBvp1.0\nOPTION NV_vertex_program2;\nADDRESS a#;\nMOV result.position, vertex.position;\nEND\n", Bound::Count),
    ("MAX_PROGRAM_TEMPORARIES_ARB", Stage::Vertex, "!!NVvp4.0\nTEMP t[#];\nMOV result.position, t[0];\nEND\n", Bound::Max),
    ("MAX_GEOMETRY_OUTPUT_VERTICES", Stage::Geometry, "!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT #;\nEMIT;\nEND\n", Bound::Max),
    ("MAX_GEOMETRY_SHADER_INVOCATIONS", Stage::Geometry, "!!NVgp5.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nINVOCATIONS #;\nEMIT;\nEND\n", Bound::Max),
    ("MAX_PATCH_VERTICES", Stage::TessControl, "!!NVtcp5.0\nVERTICES_OUT #;\nEND\n", Bound::Max),
    ("MAX_PROGRAM_TEXEL_OFFSET", Stage::Fragment, "!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D, (#, 0);\nEND\n", Bound::Max),
    ("MIN_PROGRAM_TEXEL_OFFSET", Stage::Fragment, "!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D, (#, 0);\nEND\n", Bound::Min),
    ("MAX_COMPUTE_WORK_GROUP_INVOCATIONS", Stage::Compute, "!!NVcp5.0\nGROUP_SIZE 1 #;\nEND\n", Bound::Max),
    ("MAX_COMPUTE_SHARED_MEMORY_SIZE", Stage::Compute, "!!NVcp5.0\nGROUP_SIZE 1;\nSHARED_MEMORY #;\nEND\n", Bound::Max),
];

/// What loading `text` as `stage` through the Context says.
fn load(stage: Stage, text: &str) -> Result<(), String> {
    let target = match stage {
        Stage::Vertex => gl::VERTEX_PROGRAM_ARB,
        Stage::Fragment => gl::FRAGMENT_PROGRAM_ARB,
        Stage::Geometry => gl::GEOMETRY_PROGRAM_NV,
        Stage::TessControl => gl::TESS_CONTROL_PROGRAM_NV,
        Stage::TessEval => gl::TESS_EVALUATION_PROGRAM_NV,
        Stage::Compute => gl::COMPUTE_PROGRAM_NV,
    };
    let mut ctx = Context::new(4, 4).expect("context");
    ctx.bind_program(target, 1).expect("bind");
    ctx.program_string(target, text).map_err(|e| e.to_string())
}

#[test]
fn the_assembler_enforces_the_reported_limits() {
    for (name, stage, template, bound) in ENFORCED {
        let l = caps::limit_by_name(name).unwrap_or_else(|| panic!("{name} is not reported"));
        let v = i64::from(l.value[0]);
        let (ok, bad) = match bound {
            Bound::Count => (v - 1, v),
            Bound::Max => (v, v + 1),
            Bound::Min => (v, v - 1),
        };
        let text = |n: i64| {
            if *name == "MAX_PROGRAM_ADDRESS_REGISTERS_ARB" {
                // n + 1 registers named a0..an.
                let regs: Vec<String> = (0..=n).map(|i| format!("a{i}")).collect();
                template.replace("a#", &regs.join(", "))
            } else {
                template.replace('#', &n.to_string())
            }
        };
        if let Err(e) = load(*stage, &text(ok)) {
            panic!("{name} = {v}: refused: {e}\n{}", text(ok));
        }
        assert!(
            load(*stage, &text(bad)).is_err(),
            "{name} = {v}: accepted\n{}",
            text(bad)
        );
    }
}

#[test]
fn every_extension_is_listed_alike_everywhere() {
    let ctx = Context::new(4, 4).expect("context");
    let listed = ctx.get_string(gl::EXTENSIONS).expect("EXTENSIONS");
    assert_eq!(listed.split(' ').collect::<Vec<_>>(), EXTENSIONS);
    let n = ctx
        .get_integer_v(gl::NUM_EXTENSIONS)
        .expect("NUM_EXTENSIONS")[0];
    assert_eq!(n as usize, EXTENSIONS.len());
    let info = info();
    for (i, e) in EXTENSIONS.iter().enumerate() {
        assert_eq!(
            ctx.get_string_i(gl::EXTENSIONS, i as u32).ok().as_deref(),
            Some(*e)
        );
        assert!(info.contains(&format!("  {e}\n")), "glemu info lacks {e}");
        let needs = scene::parse(&format!("[require]\n{e}\n[test]\nclear\n")).expect("scene");
        assert_eq!(scene::check_requirements(&needs), None, "[require] {e}");
    }
    let other = scene::parse("[require]\nGL_ARB_bindless_texture\n[test]\nclear\n").expect("scene");
    assert!(scene::check_requirements(&other).is_some());
}

const VP: &str = "!!ARBvp1.0\nMOV result.position, vertex.position;\nEND\n";

/// What shows an extension at work: programs that must load (the option or header it
/// adds), and entry points that must accept a call.
/// A new buffer of `size` zero bytes bound to `target`.
fn buffer(c: &mut Context, target: u32, size: u64) -> glemu::Result<u32> {
    let b = c.gen_buffers(1).unwrap()[0];
    c.bind_buffer(target, b)?;
    c.buffer_data_size(target, size, gl::STATIC_DRAW)?;
    Ok(b)
}

type Probe = (
    Vec<(Stage, &'static str)>,
    fn(&mut Context) -> glemu::Result<()>,
);

fn probe(ext: &str) -> Option<Probe> {
    use Stage::*;
    fn none(_: &mut Context) -> glemu::Result<()> {
        Ok(())
    }
    fn tex(target: u32) -> impl Fn(&mut Context) -> glemu::Result<()> {
        move |c| c.bind_texture(target, 1)
    }
    let probe: Probe = match ext {
        "GL_ARB_vertex_program" => (vec![(Vertex, VP)], none),
        "GL_ARB_fragment_program" => (vec![(Fragment, "!!ARBfp1.0\nMOV result.color, fragment.color;\nEND\n")], none),
        "GL_ARB_fragment_program_shadow" => (vec![(Fragment, "!!ARBfp1.0\nOPTION ARB_fragment_program_shadow;\nTEX result.color, fragment.texcoord[0], texture[0], SHADOW2D;\nEND\n")], none),
        "GL_ARB_fragment_coord_conventions" => (vec![(Fragment, "!!ARBfp1.0\nOPTION ARB_fragment_coord_origin_upper_left;\nOPTION ARB_fragment_coord_pixel_center_integer;\nMOV result.color, fragment.position;\nEND\n")], none),
        "GL_ARB_draw_buffers" => (vec![(Fragment, "!!ARBfp1.0\nOPTION ARB_draw_buffers;\nMOV result.color[1], fragment.color;\nEND\n")], none),
        "GL_ATI_draw_buffers" => (vec![(Fragment, "!!ARBfp1.0\nOPTION ATI_draw_buffers;\nMOV result.color[1], fragment.color;\nEND\n")], none),
        "GL_ARB_texture_rectangle" => (vec![(Fragment, "!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[0], RECT;\nEND\n")], |c| tex(gl::TEXTURE_RECTANGLE)(c)),
        "GL_ARB_texture_cube_map" => (vec![(Fragment, "!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[0], CUBE;\nEND\n")], |c| tex(gl::TEXTURE_CUBE_MAP)(c)),
        "GL_EXT_texture3D" => (vec![(Fragment, "!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[0], 3D;\nEND\n")], |c| tex(gl::TEXTURE_3D)(c)),
        "GL_EXT_texture_array" => (vec![(Fragment, "!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[0], ARRAY2D;\nEND\n")], |c| tex(gl::TEXTURE_2D_ARRAY)(c)),
        "GL_ARB_texture_gather" => (vec![(Fragment, "!!NVfp4.1\nTXG result.color, fragment.texcoord[0], texture[0].y, 2D;\nEND\n")], |c| c.get_integer_v(gl::MAX_PROGRAM_TEXTURE_GATHER_COMPONENTS).map(drop)),
        "GL_ARB_sample_shading" => (vec![], |c| {
            c.enable(gl::SAMPLE_SHADING)?;
            c.min_sample_shading(0.5)
        }),
        "GL_ARB_transform_feedback3" => (vec![], |c| {
            let q = c.gen_queries(1).unwrap()[0];
            c.begin_query_indexed(gl::PRIMITIVES_GENERATED, 1, q)?;
            c.end_query_indexed(gl::PRIMITIVES_GENERATED, 1)
        }),
        "GL_ARB_pipeline_statistics_query" => (vec![], |c| {
            let q = c.gen_queries(1).unwrap()[0];
            c.begin_query(gl::FRAGMENT_SHADER_INVOCATIONS_ARB, q)?;
            c.end_query(gl::FRAGMENT_SHADER_INVOCATIONS_ARB)
        }),
        "GL_ARB_blend_func_extended" => (vec![(Fragment, "!!NVfp5.0\nOPTION ARB_blend_func_extended;\nMOV result.color.primary, fragment.color;\nMOV result.color.secondary, fragment.color;\nEND\n")], |c| c.blend_func(gl::ONE, gl::SRC1_COLOR)),
        "GL_ARB_viewport_array" => (vec![(Geometry, "!!NVgp5.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nMOV result.position, vertex[0].position;\nMOV.S result.viewport.x, 1;\nEMIT;\nEND\n")], |c| {
            c.viewport_indexed_f(1, 0.0, 0.0, 2.0, 2.0)?;
            c.scissor_indexed(1, 0, 0, 2, 2)?;
            c.depth_range_indexed(1, 0.0, 1.0)
        }),
        "GL_ARB_fragment_layer_viewport" => (vec![(Fragment, "!!NVfp5.0\nOPTION ARB_fragment_layer_viewport;\nINT TEMP r;\nMOV.S r.x, fragment.layer.x;\nMOV.S r.y, fragment.viewport.x;\nI2F result.color, r;\nEND\n")], none),
        "GL_ARB_vertex_attrib_binding" => (vec![], |c| {
            c.vertex_attrib_format(0, 4, gl::FLOAT, false, 0)?;
            c.vertex_attrib_binding(0, 1)?;
            c.vertex_binding_divisor(1, 0)?;
            c.bind_vertex_buffer(1, 0, 0, 16)
        }),
        "GL_ARB_copy_image" => (vec![], |c| {
            let t = c.create_texture(gl::TEXTURE_2D)?;
            c.bind_texture(gl::TEXTURE_2D, t)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 2, 2)?;
            c.copy_image_sub_data(t, gl::TEXTURE_2D, 0, [0; 3], t, gl::TEXTURE_2D, 0, [1, 1, 0], [1, 1, 1])
        }),
        "GL_ARB_texture_storage" => (vec![], |c| {
            c.bind_texture(gl::TEXTURE_2D, 1)?;
            c.tex_storage_2d(gl::TEXTURE_2D, 3, gl::RGBA8, 4, 4)
        }),
        "GL_ARB_texture_buffer_object" => (vec![(Fragment, "!!NVfp4.0\nTXF result.color, {0, 0, 0, 0}, texture[0], BUFFER;\nEND\n")], |c| {
            let b = c.create_buffer().unwrap();
            c.bind_buffer(gl::TEXTURE_BUFFER, b)?;
            c.buffer_data(gl::TEXTURE_BUFFER, &[1.0f32; 4], gl::STATIC_DRAW)?;
            c.bind_texture(gl::TEXTURE_BUFFER, 1)?;
            c.tex_buffer(gl::TEXTURE_BUFFER, gl::RGBA32F, b)
        }),
        "GL_ARB_derivative_control" => (vec![(Fragment, "!!NVfp5.0\nOPTION ARB_derivative_control;\nTEMP t;\nDDX.FINE t, fragment.color;\nDDY.COARSE t, t;\nMOV result.color, t;\nEND\n")], none),
        "GL_ARB_shader_draw_parameters" => (vec![(Vertex, "!!NVvp5.0\nOPTION ARB_shader_draw_parameters;\nINT TEMP r;\nMOV.S r.x, vertex.baseVertex.x;\nMOV.S r.y, vertex.baseInstance.x;\nMOV.S r.z, vertex.draw.id.x;\nI2F result.position, r;\nEND\n")], none),
        "GL_EXT_shader_image_load_formatted" => (vec![(Fragment, "!!NVfp5.0\nOPTION EXT_shader_image_load_formatted;\nTEMP t;\nINT TEMP c;\nLOADIM.F t, c, image[0], 2D;\nMOV result.color, t;\nEND\n")], none),
        "GL_NV_geometry_shader_passthrough" => (vec![(Geometry, "!!NVgp5.0\nOPTION NV_geometry_shader_passthrough;\nPRIMITIVE_IN TRIANGLES;\nPASSTHROUGH result.position;\nPASSTHROUGH result.attrib[0];\nMOV result.attrib[1], 0.25;\nEND\n")], none),
        "GL_NV_viewport_array2" => (vec![(Vertex, "!!NVvp5.0\nOPTION NV_viewport_array2;\nINT TEMP r;\nMOV.S r.x, 3;\nMOV.S result.viewportmask[0].x, r.x;\nMOV result.position, vertex.position;\nEND\n")], none),
        "GL_EXT_shader_image_load_store" => (vec![(Fragment, "!!NVfp5.0\nIMAGE i = image[0];\nUINT TEMP u;\nINT TEMP c;\nLOADIM.U32 u, c, i, 2D;\nEND\n")], |c| c.bind_image_texture(0, 0, 0, false, 0, gl::READ_ONLY, gl::R32UI)),
        "GL_NV_vertex_program" => (vec![(Vertex, "!!VP1.0\nMOV o[HPOS], v[OPOS];\nEND\n")], none),
        "GL_NV_vertex_program1_1" => (vec![(Vertex, "!!VP1.1\nMOV o[HPOS], v[OPOS];\nEND\n")], none),
        "GL_NV_vertex_program2" => (vec![(Vertex, "!!VP2.0\nMOV o[HPOS], v[OPOS];\nEND\n")], none),
        "GL_NV_vertex_program2_option" => (vec![(Vertex, "!!ARBvp1.0\nOPTION NV_vertex_program2;\nMOV result.position, vertex.position;\nEND\n")], none),
        "GL_NV_vertex_program3" => (vec![(Vertex, "!!ARBvp1.0\nOPTION NV_vertex_program3;\nMOV result.position, vertex.position;\nEND\n")], none),
        "GL_NV_fragment_program" => (vec![(Fragment, "!!FP1.0\nMOV o[COLR], f[COL0];\nEND\n")], none),
        "GL_NV_fragment_program_option" => (vec![(Fragment, "!!ARBfp1.0\nOPTION NV_fragment_program;\nMOV result.color, fragment.color;\nEND\n")], none),
        "GL_NV_fragment_program2" => (vec![(Fragment, "!!ARBfp1.0\nOPTION NV_fragment_program2;\nMOV result.color, fragment.color;\nEND\n")], none),
        "GL_NV_gpu_program4" => (vec![(Vertex, "!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n"), (Fragment, "!!NVfp4.0\nMOV result.color, fragment.color;\nEND\n")], none),
        "GL_NV_gpu_program4_1" => (vec![(Fragment, "!!NVfp4.1\nMOV result.color, fragment.color;\nEND\n")], none),
        "GL_NV_gpu_program5" => (vec![(Vertex, "!!NVvp5.0\nMOV result.position, vertex.position;\nEND\n"), (Fragment, "!!NVfp5.0\nMOV result.color, fragment.color;\nEND\n")], none),
        "GL_NV_gpu_program5_mem_extended" => (vec![(Fragment, "!!NVfp5.0\nOPTION NV_gpu_program5_mem_extended;\nOPTION NV_shader_storage_buffer;\nSTORAGE s = program.storage[0];\nTEMP t;\nLDB.F16X2 t, s[0];\nMOV result.color, t;\nEND\n")], none),
        "GL_NV_gpu_program_fp64" => (vec![(Fragment, "!!NVfp5.0\nOPTION NV_gpu_program_fp64;\nLONG TEMP d;\nADD.F64 d, d, d;\nEND\n")], none),
        "GL_NV_geometry_program4" => (vec![(Geometry, "!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nMOV result.position, vertex[0].position;\nEMIT;\nEND\n")], none),
        "GL_NV_tessellation_program5" => (vec![(TessControl, "!!NVtcp5.0\nVERTICES_OUT 3;\nEND\n"), (TessEval, "!!NVtep5.0\nTESS_MODE TRIANGLES;\nMOV result.position, vertex.tesscoord;\nEND\n")], |c| c.patch_vertices(3)),
        "GL_NV_compute_program5" => (vec![(Compute, "!!NVcp5.0\nGROUP_SIZE 4 2;\nSHARED_MEMORY 16;\nSHARED s[] = { program.sharedmem };\nUINT TEMP u;\nMOV.U u, invocation.localindex;\nSTS.U32 u, s[0];\nBAR;\nLDS.U32 u, s[0];\nEND\n")], |c| {
            c.bind_program(gl::COMPUTE_PROGRAM_NV, 1)?;
            c.program_string(gl::COMPUTE_PROGRAM_NV, "!!NVcp5.0\nGROUP_SIZE 1;\nEND\n")?;
            c.enable(gl::COMPUTE_PROGRAM_NV)?;
            c.dispatch_compute(1, 1, 1)
        }),
        "GL_NV_parameter_buffer_object" => (vec![(Fragment, "!!NVfp4.0\nBUFFER b[] = { program.buffer[0] };\nMOV result.color, b[0];\nEND\n")], |c| {
            let b = buffer(c, gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV, 64)?;
            c.bind_buffer_base(gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV, 0, b)
        }),
        "GL_NV_parameter_buffer_object2" => (vec![(Fragment, "!!NVfp5.0\nCBUFFER cb[] = { program.buffer[0] };\nTEMP a;\nLDC.F32X4 a, cb[0];\nMOV result.color, a;\nEND\n")], none),
        "GL_NV_shader_atomic_counters" => (vec![(Fragment, "!!NVfp5.0\nOPTION NV_shader_atomic_counters;\nCOUNTER c = program.counter[0][0];\nUINT TEMP u;\nATOMCTR.INCR u, c;\nEND\n")], |c| {
            let b = buffer(c, gl::ATOMIC_COUNTER_BUFFER, 16)?;
            c.bind_buffer_base(gl::ATOMIC_COUNTER_BUFFER, 0, b)
        }),
        "GL_NV_shader_buffer_load" => (vec![(Fragment, "!!NVfp5.0\nLONG TEMP p;\nTEMP t;\nLOAD.F32X4 t, p.x;\nMOV result.color, t;\nEND\n")], |c| {
            buffer(c, gl::ARRAY_BUFFER, 16)?;
            c.make_buffer_resident(gl::ARRAY_BUFFER, gl::READ_ONLY)?;
            c.buffer_gpu_address(gl::ARRAY_BUFFER).map(drop)
        }),
        "GL_NV_shader_buffer_store" => (vec![(Fragment, "!!NVfp5.0\nLONG TEMP p;\nSTORE.F32 fragment.color, p.x;\nEND\n")], none),
        "GL_NV_shader_storage_buffer_object" => (vec![(Fragment, "!!NVfp5.0\nOPTION NV_shader_storage_buffer;\nSTORAGE s = program.storage[0];\nUINT TEMP u;\nLDB.U32 u, s[0];\nSTB.U32 u, s[4];\nEND\n")], |c| {
            let b = buffer(c, gl::SHADER_STORAGE_BUFFER, 16)?;
            c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, 0, b)
        }),
        "GL_NV_shader_thread_group" => (vec![(Fragment, "!!NVfp5.0\nOPTION NV_shader_thread_group;\nUINT TEMP i;\nMOV.U i.x, fragment.threadid.x;\nEND\n")], none),
        "GL_NV_shader_thread_shuffle" => (vec![(Fragment, include_str!("../programs/tests/programs/valid/fp5_thread_shuffle.txt"))], none),
        "GL_NV_transform_feedback" => (vec![], |c| c.transform_feedback_attribs(0, &["result.position"])),
        _ => return None,
    };
    Some(probe)
}

#[test]
fn every_listed_extension_works() {
    let mut missing = Vec::new();
    for ext in EXTENSIONS {
        let Some((programs, call)) = probe(ext) else {
            missing.push(*ext);
            continue;
        };
        for (stage, text) in programs {
            if let Err(e) = load(stage, text) {
                panic!("{ext}: refused: {e}\n{text}");
            }
        }
        let mut ctx = Context::new(4, 4).expect("context");
        if let Err(e) = call(&mut ctx) {
            panic!("{ext}: {e}");
        }
    }
    assert!(
        missing.is_empty(),
        "listed without a probe here: {missing:?}"
    );
}

/// The Context's own entry points take exactly the counts the table reports: index
/// `n - 1` is accepted and `n` is `INVALID_VALUE` (or `INVALID_ENUM` where GL says so).
#[test]
fn context_calls_accept_exactly_the_reported_counts() {
    use glemu::GlError;
    let value = |name: &str| {
        caps::limit_by_name(name)
            .unwrap_or_else(|| panic!("{name} is not reported"))
            .value[0] as u32
    };
    type Call = fn(&mut Context, u32) -> glemu::Result<()>;
    let bind = |target: u32| -> Call {
        match target {
            gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV => |c, i| {
                let b = buffer(c, gl::UNIFORM_BUFFER, 64)?;
                c.bind_buffer_base(gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV, i, b)
            },
            gl::ATOMIC_COUNTER_BUFFER => |c, i| {
                let b = buffer(c, gl::ATOMIC_COUNTER_BUFFER, 64)?;
                c.bind_buffer_base(gl::ATOMIC_COUNTER_BUFFER, i, b)
            },
            gl::SHADER_STORAGE_BUFFER => |c, i| {
                let b = buffer(c, gl::SHADER_STORAGE_BUFFER, 64)?;
                c.bind_buffer_base(gl::SHADER_STORAGE_BUFFER, i, b)
            },
            _ => |c, i| {
                let b = buffer(c, gl::TRANSFORM_FEEDBACK_BUFFER, 64)?;
                c.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, i, b)
            },
        }
    };
    let rows: &[(&str, Call, GlError)] = &[
        (
            "MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV",
            bind(gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV),
            GlError::InvalidValue,
        ),
        (
            "MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV",
            |c, i| {
                let b = buffer(c, gl::UNIFORM_BUFFER, 64)?;
                let n = caps::LIMITS.max_program_parameter_buffer_bindings;
                let last = i.min(n - 1);
                c.bind_buffer_base(gl::FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV, last, b)?;
                c.program_buffer_parameters_fv(gl::FRAGMENT_PROGRAM_ARB, i, 0, &[1.0])
            },
            GlError::InvalidValue,
        ),
        (
            "MAX_ATOMIC_COUNTER_BUFFER_BINDINGS",
            bind(gl::ATOMIC_COUNTER_BUFFER),
            GlError::InvalidValue,
        ),
        (
            "MAX_SHADER_STORAGE_BUFFER_BINDINGS",
            bind(gl::SHADER_STORAGE_BUFFER),
            GlError::InvalidValue,
        ),
        (
            "MAX_TRANSFORM_FEEDBACK_BUFFERS",
            bind(gl::TRANSFORM_FEEDBACK_BUFFER),
            GlError::InvalidValue,
        ),
        (
            "MAX_VERTEX_ATTRIBS",
            |c, i| c.vertex_attrib_4f(i, [0.0; 4]),
            GlError::InvalidValue,
        ),
        (
            "MAX_VERTEX_ATTRIB_BINDINGS",
            |c, i| c.bind_vertex_buffer(i, 0, 0, 16),
            GlError::InvalidValue,
        ),
        (
            "MAX_DRAW_BUFFERS",
            |c, i| c.color_mask_i(i, [true; 4]),
            GlError::InvalidValue,
        ),
        (
            "MAX_TEXTURE_IMAGE_UNITS",
            |c, i| c.active_texture(i),
            GlError::InvalidEnum,
        ),
        (
            "MAX_CLIP_PLANES",
            |c, i| c.clip_plane(gl::CLIP_PLANE0 + i, [0.0; 4]),
            GlError::InvalidEnum,
        ),
        (
            "MAX_LIGHTS",
            |c, i| c.enable(gl::LIGHT0 + i),
            GlError::InvalidEnum,
        ),
        (
            "MAX_VIEWPORTS",
            |c, i| c.viewport_indexed_f(i, 0.0, 0.0, 1.0, 1.0),
            GlError::InvalidValue,
        ),
        (
            "MAX_PATCH_VERTICES",
            |c, i| c.patch_vertices(i + 1),
            GlError::InvalidValue,
        ),
        (
            "MAX_MODELVIEW_STACK_DEPTH",
            |c, i| {
                c.matrix_mode(gl::MODELVIEW)?;
                // The current matrix is one of the stack's entries.
                (0..i).try_for_each(|_| c.push_matrix())
            },
            GlError::StackOverflow,
        ),
    ];
    for &(name, call, refused) in rows {
        let n = value(name);
        let mut c = Context::new(4, 4).expect("context");
        if let Err(e) = call(&mut c, n - 1) {
            panic!("{name} = {n}: {} refused: {e}", n - 1);
        }
        let mut c = Context::new(4, 4).expect("context");
        match call(&mut c, n) {
            Err(e) => assert_eq!(e.gl, refused, "{name} = {n}: {e}"),
            Ok(()) => panic!("{name} = {n}: {n} accepted"),
        }
    }
    let max = caps::MAX_TEXTURE_SIZE;
    assert!(Context::new(max, 1).is_ok());
    assert!(Context::new(max + 1, 1).is_err());
}
