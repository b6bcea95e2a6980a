//! The program options emulator GLASM back ends put in every program they print, each
//! per its spec: programs that must load, programs that must not (with the reason), and
//! what the options' instructions compute.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod exec_util;

use exec_util::*;
use glemu_programs::ir::{InputBinding, Opcode, Stage};

fn loads(text: &str) {
    if let Err(e) = glemu_programs::assemble(text, None) {
        panic!("should load: {}\n{text}", e.render(text));
    }
}

/// The program fails to load with a message containing `why`.
fn rejects(text: &str, why: &str) {
    match glemu_programs::assemble(text, None) {
        Ok(_) => panic!("should not load:\n{text}"),
        Err(e) => assert!(
            e.message.contains(why),
            "error '{}' does not mention '{why}'\n{text}",
            e.message
        ),
    }
}

const HEADERS: [(&str, &str); 5] = [
    ("!!NVvp5.0", "MOV result.position, 0;"),
    ("!!NVtcp5.0", "VERTICES_OUT 3;MOV result.attrib[0], 0;"),
    ("!!NVtep5.0", "TESS_MODE TRIANGLES;MOV result.position, 0;"),
    (
        "!!NVgp5.0",
        "PRIMITIVE_IN TRIANGLES;PRIMITIVE_OUT POINTS;VERTICES_OUT 1;EMIT;",
    ),
    ("!!NVfp5.0", "MOV result.color, 0;"),
];

#[test]
fn nv_internal_loads_in_every_nv_stage_and_is_ignored() {
    for (h, body) in HEADERS {
        loads(&format!("{h}\nOPTION NV_internal;{body}END"));
        // Twice, and next to the other options an emulator prints first.
        loads(&format!(
            "{h}\nOPTION NV_internal;OPTION NV_shader_storage_buffer;OPTION NV_gpu_program_fp64;OPTION NV_internal;{body}END"
        ));
    }
    for h in ["!!NVvp4.0", "!!NVfp4.0", "!!NVgp4.0"] {
        let body = match h {
            "!!NVgp4.0" => "PRIMITIVE_IN POINTS;PRIMITIVE_OUT POINTS;VERTICES_OUT 1;EMIT;",
            "!!NVvp4.0" => "MOV result.position, 0;",
            _ => "MOV result.color, 0;",
        };
        loads(&format!("{h}\nOPTION NV_internal;{body}END"));
    }
    let p = glemu_programs::assemble(
        "!!NVfp5.0\nOPTION NV_internal;MOV result.color, 0;END",
        None,
    )
    .unwrap();
    assert_eq!(p.instructions.len(), 1);
    // ARB programs never had it.
    rejects(
        "!!ARBvp1.0\nOPTION NV_internal;MOV result.position, 0;END",
        "unknown or unsupported option 'NV_internal'",
    );
    // Options still come first.
    rejects(
        "!!NVfp5.0\nTEMP R0;OPTION NV_internal;MOV result.color, 0;END",
        "OPTION must come before",
    );
}

#[test]
fn texture_multisample_option_loads_in_nv_programs() {
    loads("!!NVfp5.0\nOPTION NV_texture_multisample;INT TEMP c;TXFMS result.color, c, texture[0], 2DMS;END");
    loads("!!NVvp5.0\nOPTION NV_texture_multisample;INT TEMP c;TXFMS result.position, c, texture[0], ARRAY2DMS;END");
    rejects(
        "!!ARBfp1.0\nOPTION NV_texture_multisample;MOV result.color, 0;END",
        "unsupported option",
    );
    // TXFMS still reads only multisample targets.
    rejects(
        "!!NVfp5.0\nOPTION NV_texture_multisample;INT TEMP c;TXFMS result.color, c, texture[0], 2D;END",
        "cannot be used with TXFMS",
    );
}

const DERIV: &str = "!!NVfp5.0\nOPTION ARB_derivative_control;TEMP R0;";

#[test]
fn derivative_control_modifiers_need_the_option() {
    loads(&format!(
        "{DERIV}DDX.FINE R0.x, fragment.color.x;DDY.FINE R0.y, R0.x;DDX.COARSE R0.z, R0.x;DDY.COARSE R0.w, R0.x;MOV result.color, R0;END"
    ));
    loads(&format!(
        "{DERIV}DDX.F.COARSE.SAT R0, fragment.color;DDY.COARSE.F.CC R0, R0;MOV result.color, R0;END"
    ));
    rejects(
        "!!NVfp5.0\nTEMP R0;DDX.FINE R0, fragment.color;MOV result.color, R0;END",
        "needs OPTION ARB_derivative_control",
    );
    rejects(
        &format!("{DERIV}ADD.FINE R0, R0, R0;MOV result.color, R0;END"),
        "not an instruction modifier",
    );
    rejects(
        &format!("{DERIV}DDX.FINE.COARSE R0, R0;MOV result.color, R0;END"),
        "more than one derivative modifier",
    );
    // A fragment-only option (and DDX stays fragment-only).
    rejects(
        "!!NVvp5.0\nOPTION ARB_derivative_control;MOV result.position, 0;END",
        "unsupported option",
    );
    let p = glemu_programs::assemble(
        &format!(
            "{DERIV}DDX.FINE R0, R0;DDY.COARSE R0, R0;DDX.COARSE R0, R0;MOV result.color, R0;END"
        ),
        None,
    )
    .unwrap();
    let ops: Vec<Opcode> = p.instructions.iter().map(|i| i.op).collect();
    assert_eq!(
        ops[..3],
        [Opcode::Ddx, Opcode::DdyCoarse, Opcode::DdxCoarse]
    );
}

#[test]
fn coarse_derivatives_are_one_value_per_quad_fine_ones_per_row_and_column() {
    // One quad: (x,y) (x+1,y) (x,y+1) (x+1,y+1) hold 1, 3, 10, 20.
    let quad = [1.0f32, 3.0, 10.0, 20.0].map(|v| [v, 0.0, 0.0, 0.0]);
    let run = |op: &str| -> Vec<f32> {
        let text = format!("{DERIV}{op} R0, fragment.color;MOV result.color, R0;END");
        frag(&text, &quad).iter().map(|v| v[0]).collect()
    };
    assert_eq!(run("DDX"), [2.0, 2.0, 10.0, 10.0]);
    assert_eq!(run("DDX.FINE"), [2.0, 2.0, 10.0, 10.0]);
    assert_eq!(run("DDY.FINE"), [9.0, 17.0, 9.0, 17.0]);
    assert_eq!(run("DDX.COARSE"), [2.0; 4]);
    assert_eq!(run("DDY.COARSE"), [9.0; 4]);
}

#[test]
fn fragment_layer_and_viewport_need_their_option() {
    let text = "!!NVfp5.0\nOPTION ARB_fragment_layer_viewport;INT TEMP R0;MOV.S R0.x, fragment.layer.x;MOV.S R0.y, fragment.viewport.x;I2F result.color, R0;END";
    loads(text);
    let p = glemu_programs::assemble(text, None).unwrap();
    let b: Vec<&InputBinding> = p.inputs.iter().map(|i| &i.binding).collect();
    assert_eq!(
        b,
        [&InputBinding::FragLayer, &InputBinding::FragViewportIndex]
    );
    for which in ["layer", "viewport"] {
        rejects(
            &format!(
                "!!NVfp5.0\nINT TEMP R0;MOV.S R0.x, fragment.{which}.x;I2F result.color, R0;END"
            ),
            &format!("'fragment.{which}' needs OPTION ARB_fragment_layer_viewport"),
        );
    }
    rejects(
        "!!NVvp5.0\nOPTION ARB_fragment_layer_viewport;MOV result.position, 0;END",
        "unsupported option",
    );
}

#[test]
fn thread_group_ballot_needs_the_option() {
    loads("!!NVvp5.0\nOPTION NV_shader_thread_group;TEMP R0;TGBALLOT R0.x, R0.x;TGBALLOT.S R0, R0;MOV result.position, R0;END");
    rejects(
        "!!NVfp5.0\nTEMP R0;TGBALLOT R0.x, R0.x;MOV result.color, R0;END",
        "TGBALLOT needs OPTION NV_shader_thread_group",
    );
    rejects(
        "!!NVfp4.0\nOPTION NV_shader_thread_group;TEMP R0;TGBALLOT R0, R0;MOV result.color, R0;END",
        "not an instruction of this program version",
    );
    // The result is an unsigned mask: a FLOAT destination needs .NTC.
    rejects(
        "!!NVfp5.0\nOPTION NV_shader_thread_group;FLOAT TEMP R0;TGBALLOT R0, R0;MOV result.color, R0;END",
        "does not match",
    );
}

#[test]
fn ballot_sets_the_bits_of_running_lanes_with_non_zero_operands() {
    // Lanes 0..6 with x = lane % 3 (zero for 0 and 3); y = 1 everywhere; only lanes with
    // z != 0 run the ballot.
    let text =
        "!!NVfp5.0\nOPTION NV_shader_thread_group;UINT TEMP R0;TEMP t;MOV t, fragment.color;\
                SNE.CC t.w, t.z, 0;IF NE.w;TGBALLOT R0, t;ENDIF;MOV.U result.color, R0;END";
    let p = assemble(text, Stage::Fragment);
    let lanes: Vec<[f32; 4]> = (0..6)
        .map(|l| [(l % 3) as f32, 1.0, if l == 4 { 0.0 } else { 1.0 }, 0.0])
        .collect();
    let r = run_with(&p, lanes.len(), &[], TestEnv::default(), |st| {
        for (l, v) in lanes.iter().enumerate() {
            st.set_input_f32(0, l, *v);
        }
    });
    r.stats.unwrap();
    // Running: lanes 0,1,2,3,5. Non-zero x: 1, 2, 5 (4 is not running); w is the IF test.
    let out = r.state.output_lane(0, 0);
    assert_eq!(out, [0b100110, 0b101111, 0b101111, 0b101111]);
    // Every running lane sees the same mask; lane 4 wrote nothing.
    assert_eq!(r.state.output_lane(0, 5), out);
    assert_eq!(r.state.output_lane(0, 4), [0; 4]);
}

#[test]
fn draw_parameter_bindings_need_the_option() {
    let text = "!!NVvp5.0\nOPTION ARB_shader_draw_parameters;INT TEMP R0;\
                MOV.S R0.x, vertex.baseVertex.x;MOV.S R0.y, vertex.baseInstance.x;MOV.S R0.z, vertex.draw.id.x;\
                I2F result.position, R0;END";
    let p = glemu_programs::assemble(text, None).unwrap();
    let b: Vec<&InputBinding> = p.inputs.iter().map(|i| &i.binding).collect();
    assert_eq!(
        b,
        [
            &InputBinding::VertexBaseVertex,
            &InputBinding::VertexBaseInstance,
            &InputBinding::VertexDrawId
        ]
    );
    for which in ["baseVertex", "baseInstance", "draw.id"] {
        rejects(
            &format!("!!NVvp5.0\nINT TEMP R0;MOV.S R0, vertex.{which};I2F result.position, R0;END"),
            "needs OPTION ARB_shader_draw_parameters",
        );
    }
    rejects(
        "!!NVvp5.0\nOPTION ARB_shader_draw_parameters;INT TEMP R0;MOV.S R0, vertex.draw.x;I2F result.position, R0;END",
        "expected 'id'",
    );
    rejects(
        "!!NVfp5.0\nOPTION ARB_shader_draw_parameters;MOV result.color, 0;END",
        "unsupported option",
    );
}

#[test]
fn bar_loads_in_tessellation_control_programs_only() {
    loads("!!NVtcp5.0\nVERTICES_OUT 3;TEMP R0;BAR;MOV result.attrib[0], R0;BAR;END");
    for (h, body) in HEADERS.iter().filter(|(h, _)| *h != "!!NVtcp5.0") {
        rejects(&format!("{h}\nBAR;{body}END"), "'BAR' is not allowed");
    }
    rejects(
        "!!NVtcp5.0\nVERTICES_OUT 3;BAR.CC;MOV result.attrib[0], 0;END",
        "not allowed on BAR",
    );
    rejects(
        "!!NVtcp5.0\nVERTICES_OUT 3;TEMP R0;BAR R0;MOV result.attrib[0], 0;END",
        "';'",
    );
}

#[test]
fn txl_on_shadow_array_2d_takes_its_lod_from_a_second_operand() {
    // A deliberate leniency (programs/LOAD_RULES.md): the form emulators print, the
    // reference in coord.w and the LOD in the second operand's x.
    let text = "!!NVfp5.0\nTEMP R0,R1;MOV.F R1,{0.5,0.5,2,0.25};TXL.F R0,R1,3.0,texture[0],SHADOWARRAY2D;MOV result.color,R0;END";
    let p = assemble(text, Stage::Fragment);
    let r = run_with(&p, 1, &[], TestEnv::default(), |_| {});
    r.stats.unwrap();
    let log = &r.env.tex_ops[0];
    assert_eq!(log.operand2, Some(3.0f32.to_bits()));
    // Without the operand there is no room for both: the spec's load failure stands.
    rejects(
        "!!NVfp5.0\nTEMP R0;TXL.F R0,R0,texture[0],SHADOWARRAY2D;MOV result.color,R0;END",
        "no room for the reference value",
    );
}

const FP: &str = "!!NVfp5.0\nOPTION NV_internal;TEMP R0,R1,R2,RC;";

#[test]
fn sparse_modifier_and_residency_tests() {
    loads(&format!(
        "{FP}TEX.F.SPARSE R0,R1,texture[0],2D;MOV.S R2,-1;MOV.S R2(NONRESIDENT),0;MOV result.color,R0;END"
    ));
    loads(&format!(
        "{FP}INT TEMP c;TXF.F.SPARSE R0,c,texture[0],2D;TXG.F.SPARSE R1,R1,texture[1].y,2D;\
         LOADIM.U32.SPARSE R2,c,image[0],2D;IF RESIDENT.x;MOV R0.x,1;ENDIF;MOV result.color,R0;END"
    ));
    // Every texel is resident: RESIDENT is TR and NONRESIDENT FL.
    let p = glemu_programs::assemble(
        &format!("{FP}MOV R0(RESIDENT),1;MOV R0(NONRESIDENT.x),2;MOV result.color,R0;END"),
        None,
    )
    .unwrap();
    let ops: Vec<_> = p.instructions[..2]
        .iter()
        .map(|i| i.dst.as_ref().and_then(|d| d.cond).map(|c| c.op))
        .collect();
    use glemu_programs::ir::CondOp;
    assert_eq!(ops, [Some(CondOp::Tr), Some(CondOp::Fl)]);
    rejects(
        &format!("{FP}ADD.SPARSE R0,R0,R0;MOV result.color,R0;END"),
        "not an instruction modifier",
    );
    rejects(
        &format!("{FP}TEX.SPARSE.SPARSE R0,R1,texture[0],2D;MOV result.color,R0;END"),
        "more than one sparse modifier",
    );
    rejects(
        "!!NVfp4.0\nTEMP R0;TEX.SPARSE R0,R0,texture[0],2D;MOV result.color,R0;END",
        "not an instruction modifier",
    );
    rejects(
        "!!NVfp4.0\nTEMP R0;MOV R0(NONRESIDENT),1;MOV result.color,R0;END",
        "not a condition code test",
    );
}

#[test]
fn lod_clamp_takes_a_second_operand_on_tex_and_txb() {
    loads(&format!(
        "{FP}TEX.F.LODCLAMP.SPARSE R0,R1,R2.y,texture[0],2D,offset(R2);MOV.F R1.w,R2.x;\
         TXB.F.LODCLAMP R0,R1,R2.y,texture[0],2D;TXB.F.LODCLAMP R0,R1,R2,texture[1],ARRAYCUBE;\
         TXD.F.LODCLAMP R0,R1,R2,R1,texture[2],2D;TEX.F.LODCLAMP R0,R1,R2,texture[3],SHADOWCUBE;\
         MOV result.color,R0;END"
    ));
    let p = glemu_programs::assemble(
        &format!("{FP}TEX.F.LODCLAMP R0,R1,R2.y,texture[0],2D;MOV result.color,R0;END"),
        None,
    )
    .unwrap();
    let glemu_programs::ir::Extra::Tex(t) = &p.instructions[0].extra else {
        panic!("not a texture instruction")
    };
    assert!(t.lod_clamp && !t.sparse);
    assert_eq!(p.instructions[0].srcs.len(), 2);
    rejects(
        &format!("{FP}TEX.F.LODCLAMP R0,R1,texture[0],2D;MOV result.color,R0;END"),
        "needs a second operand holding the LOD clamp",
    );
    rejects(
        &format!("{FP}TEX.F.LODCLAMP R0,R1,R2.x,texture[0],RECT;MOV result.color,R0;END"),
        "not supported with target 'RECT'",
    );
    // Explicit-LOD lookups have nothing to clamp.
    rejects(
        &format!("{FP}TXL.F.LODCLAMP R0,R1,texture[0],2D;MOV result.color,R0;END"),
        "not an instruction modifier",
    );
    // Without LODCLAMP a 2D lookup still takes one operand.
    rejects(
        &format!("{FP}TEX.F R0,R1,R2.x,texture[0],2D;MOV result.color,R0;END"),
        "second coordinate operand",
    );
}

#[test]
fn formatted_image_loads_need_their_option() {
    let text = "!!NVfp5.0\nOPTION EXT_shader_image_load_formatted;TEMP R0;INT TEMP c;\
                LOADIM.U R0,c,image[0],2D;LOADIM.F R0,c,image[1],2D;LOADIM.S R0,c,image[2],ARRAY2D;\
                LOADIM R0,c,image[3],2D;LOADIM.U32 R0,c,image[4],2D;MOV result.color,R0;END";
    let p = glemu_programs::assemble(text, None).unwrap();
    let formatted: Vec<bool> = p
        .instructions
        .iter()
        .filter_map(|i| match &i.extra {
            glemu_programs::ir::Extra::Mem(m) => Some(m.formatted),
            _ => None,
        })
        .collect();
    assert_eq!(formatted, [true, true, true, true, false]);
    rejects(
        "!!NVfp5.0\nTEMP R0;INT TEMP c;LOADIM.U R0,c,image[0],2D;MOV result.color,R0;END",
        "needs OPTION EXT_shader_image_load_formatted",
    );
    rejects(
        "!!NVfp5.0\nTEMP R0;INT TEMP c;LOADIM R0,c,image[0],2D;MOV result.color,R0;END",
        "needs a storage modifier",
    );
    rejects(
        "!!NVfp5.0\nOPTION EXT_shader_image_load_formatted;TEMP R0;INT TEMP c;LOADIM.F.U R0,c,image[0],2D;MOV result.color,R0;END",
        "more than one data type",
    );
    // Atomics stay unformatted.
    rejects(
        "!!NVfp5.0\nOPTION EXT_shader_image_load_formatted;TEMP R0;INT TEMP c;ATOMIM.ADD R0,R0,c,image[0],2D;MOV result.color,R0;END",
        "needs a storage modifier",
    );
}

#[test]
fn fp16_vector_atomics_need_their_option() {
    let head = "!!NVfp5.0\nOPTION NV_shader_storage_buffer;OPTION NV_shader_atomic_fp16_vector;\
                STORAGE s[]={program.storage[0]};TEMP R0,R1;LONG TEMP D0;INT TEMP c;";
    for m in ["F16X2", "F16x2", "F16X4", "F16x4"] {
        for op in ["ADD", "MIN", "MAX", "EXCH"] {
            loads(&format!(
                "{head}ATOMB.{op}.{m} R0,R1,s[0];ATOM.{op}.{m} R0,R1,D0.x;MOV result.color,R0;END"
            ));
        }
    }
    loads(&format!(
        "{head}ATOMIM.ADD.F16X2 R0,R1,c,image[0],2D;MOV result.color,R0;END"
    ));
    rejects(
        &format!("{head}ATOMB.AND.F16X2 R0,R1,s[0];MOV result.color,R0;END"),
        "ATOMB.AND with the .F16 storage modifier is not supported",
    );
    rejects(
        &format!("{head}ATOMB.ADD.F16 R0,R1,s[0];MOV result.color,R0;END"),
        "'.F16' is not allowed on ATOMB",
    );
    rejects(
        "!!NVfp5.0\nOPTION NV_shader_storage_buffer;STORAGE s[]={program.storage[0]};TEMP R0;\
         ATOMB.ADD.F16X2 R0,R0,s[0];MOV result.color,R0;END",
        "needs OPTION NV_shader_atomic_fp16_vector",
    );
    // The lower-case spelling is only for the F16 vectors.
    rejects(
        &format!("{head}ATOMB.ADD.U32x2 R0,R1,s[0];MOV result.color,R0;END"),
        "not an instruction modifier",
    );
}

const GS: &str =
    "!!NVgp5.0\nOPTION NV_internal;OPTION NV_geometry_shader_passthrough;PRIMITIVE_IN TRIANGLES;";

#[test]
fn passthrough_geometry_programs() {
    let p = glemu_programs::assemble(
        &format!("{GS}PASSTHROUGH result.attrib[0];PASSTHROUGH result.position;PASSTHROUGH result.attrib[2].xy;PASSTHROUGH result.attrib[2].w;\
                  TEMP R0;MOV.S R0.x,primitive.id;MOV.F result.attrib[1].x,R0.x;END"),
        None,
    )
    .unwrap();
    use glemu_programs::ir::VaryingSlot;
    assert!(p.decls.passthrough);
    assert_eq!(
        p.decls.passthrough_slots,
        [
            (VaryingSlot::Attrib(0), 0xf),
            (VaryingSlot::Position, 0xf),
            (VaryingSlot::Attrib(2), 0b1011)
        ]
    );
    // The other spelling of the option; no PASSTHROUGH at all is fine too.
    loads("!!NVgp5.0\nOPTION NV_geometry_program_passthrough;PRIMITIVE_IN POINTS;MOV result.attrib[1], 1;END");
    loads("!!NVgp4.0\nOPTION NV_geometry_program_passthrough;PRIMITIVE_IN LINES;PASSTHROUGH result.texcoord[0..1];END");
    for (bad, why) in [
        (
            "PRIMITIVE_OUT TRIANGLE_STRIP;",
            "'PRIMITIVE_OUT' is not allowed in a passthrough",
        ),
        (
            "VERTICES_OUT 3;",
            "'VERTICES_OUT' is not allowed in a passthrough",
        ),
        (
            "INVOCATIONS 2;",
            "'INVOCATIONS' is not allowed in a passthrough",
        ),
        ("EMIT;", "'EMIT' is not allowed in a passthrough"),
        ("ENDPRIM;", "'ENDPRIM' is not allowed in a passthrough"),
        ("PASSTHROUGH result.primid;", "cannot be passed through"),
        ("PASSTHROUGH result.layer;", "cannot be passed through"),
        (
            "PASSTHROUGH result.attrib[0].x;MOV result.attrib[0].y, 1;",
            "declared PASSTHROUGH and may not also be written",
        ),
        (
            "MOV result.position, 0;PASSTHROUGH result.position;",
            "must come before",
        ),
    ] {
        rejects(&format!("{GS}{bad}END"), why);
    }
    rejects(
        "!!NVgp5.0\nOPTION NV_geometry_shader_passthrough;PRIMITIVE_IN LINES_ADJACENCY;END",
        "PRIMITIVE_IN POINTS, LINES or TRIANGLES",
    );
    rejects(
        "!!NVgp5.0\nPRIMITIVE_IN TRIANGLES;PRIMITIVE_OUT POINTS;VERTICES_OUT 1;PASSTHROUGH result.position;EMIT;END",
        "needs OPTION NV_geometry_shader_passthrough",
    );
    rejects(
        "!!NVvp5.0\nOPTION NV_geometry_shader_passthrough;MOV result.position, 0;END",
        "unsupported option",
    );
}

#[test]
fn viewport_mask_needs_its_option_and_excludes_result_viewport() {
    for h in [
        "!!NVvp5.0",
        "!!NVtep5.0\nTESS_MODE TRIANGLES;",
        "!!NVgp5.0\nPRIMITIVE_IN POINTS;PRIMITIVE_OUT POINTS;VERTICES_OUT 1;",
    ] {
        let (head, rest) = h.split_once('\n').unwrap_or((h, ""));
        loads(&format!(
            "{head}\nOPTION NV_internal;OPTION NV_viewport_array2;{rest}TEMP R0;MOV.S R0.x,11;MOV.F result.viewportmask[0].x,R0.x;MOV.S result.viewportmask.x,R0.x;MOV result.position,0;END"
        ));
    }
    rejects(
        "!!NVvp5.0\nTEMP R0;MOV.S result.viewportmask[0].x,R0.x;MOV result.position,0;END",
        "needs OPTION NV_viewport_array2",
    );
    rejects(
        "!!NVvp5.0\nOPTION NV_viewport_array2;TEMP R0;MOV.S result.viewportmask[1].x,R0.x;MOV result.position,0;END",
        "out of range",
    );
    rejects(
        "!!NVvp5.0\nOPTION NV_viewport_array2;TEMP R0;MOV.S result.viewportmask[0].x,R0.x;MOV.S result.viewport.x,R0.x;END",
        "both result.viewport and result.viewportmask",
    );
    rejects(
        "!!NVfp5.0\nOPTION NV_viewport_array2;MOV result.color,0;END",
        "unsupported option",
    );
}
