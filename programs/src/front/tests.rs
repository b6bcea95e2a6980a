//! Lowering tests: what the front end puts into the compiled form.

use crate::assemble;
use crate::error::ErrorKind;
use crate::ir::*;

fn asm(text: &str) -> Program {
    match assemble(text, None) {
        Ok(p) => p,
        Err(e) => panic!("{}", e.render(text)),
    }
}

fn err(text: &str) -> crate::ProgramError {
    match assemble(text, None) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e,
    }
}

#[test]
fn arb_fragment_bindings_become_slots() {
    let p = asm("!!ARBfp1.0\nMOV result.color, fragment.color.secondary;\nEND");
    assert_eq!(
        p.inputs[0].binding,
        InputBinding::FragColor { secondary: true }
    );
    assert_eq!(
        p.outputs[0].binding,
        OutputBinding::FragColor {
            target: 0,
            index: 0
        }
    );
    let i = &p.instructions[0];
    assert_eq!(i.op, Opcode::Mov);
    assert_eq!(
        i.dst.as_ref().map(|d| (d.file, d.index, d.mask)),
        Some((File::Output, Index::Direct(0), 0xF))
    );
    assert_eq!(i.srcs[0].file, File::Input);
}

#[test]
fn flow_targets_are_resolved() {
    let p = asm(
        "!!NVvp4.0\nTEMP t;\nMOVC t, t;\nREP {3};\nIF NE.x;\nBRK;\nELSE;\nCONT;\nENDIF;\nENDREP;\nCAL f;\nRET;\nf:\nRET;\nEND",
    );
    let flow: Vec<(Opcode, u32)> = p
        .instructions
        .iter()
        .filter_map(|i| match i.extra {
            Extra::Flow { target, .. } => Some((i.op, target)),
            _ => None,
        })
        .collect();
    use Opcode::*;
    assert_eq!(
        flow,
        vec![
            (Rep, 7),
            (If, 4),
            (Brk, 1),
            (Else, 6),
            (Cont, 1),
            (EndIf, 2),
            (EndRep, 1),
            (Cal, 10),
            (Ret, 9),
            (Ret, 10)
        ]
    );
    assert_eq!(p.labels, vec![10]);
}

#[test]
fn main_label_sets_entry() {
    let p = asm("!!NVfp4.0\nsub:\nRET;\nmain:\nMOV result.color, 1;\nEND");
    assert_eq!(p.entry, 1);
}

#[test]
fn constants_are_shared_params() {
    let p = asm(
        "!!ARBvp1.0\nTEMP t;\nADD t, {1,2,3,4}, {1,2,3,4};\nMUL t, t, 0.5;\nMUL t, t, 0.5;\nEND",
    );
    assert_eq!(p.params.len(), 2);
    assert_eq!(
        p.params[0],
        ParamSource::Constant([
            1.0f32.to_bits(),
            2.0f32.to_bits(),
            3.0f32.to_bits(),
            4.0f32.to_bits()
        ])
    );
    assert_eq!(p.params[1], ParamSource::Constant([0.5f32.to_bits(); 4]));
}

#[test]
fn integer_constants_follow_the_variable_type() {
    let p = asm("!!NVvp4.0\nINT PARAM k = { -1, 2, 3, 4 };\nINT TEMP i;\nADD.S i, i, k;\nEND");
    assert_eq!(p.params[0], ParamSource::Constant([u32::MAX, 2, 3, 4]));
}

#[test]
fn swizzles_masks_and_conditions_decode() {
    let p = asm("!!NVfp4.0\nTEMP a, b;\nMOV a.yw (GT1.zzxy), -|b.wzyx|;\nMOV a, b.y;\nEND");
    let i = &p.instructions[0];
    let d = i.dst.as_ref().unwrap();
    assert_eq!(d.mask, 0b1010);
    assert_eq!(
        d.cond,
        Some(CondTest {
            op: CondOp::Gt,
            cc: 1,
            swizzle: [2, 2, 0, 1]
        })
    );
    assert_eq!(i.srcs[0].swizzle, [3, 2, 1, 0]);
    assert!(i.srcs[0].abs && i.srcs[0].negate);
    assert_eq!(p.instructions[1].srcs[0].swizzle, [1, 1, 1, 1]);
}

#[test]
fn matrix_state_expands_to_rows() {
    let p = asm("!!ARBvp1.0\nPARAM m[] = { state.matrix.modelview.invtrans };\nEND");
    assert_eq!(p.params.len(), 4);
    assert_eq!(
        p.params[3],
        ParamSource::State(StateBinding::MatrixRow {
            matrix: MatrixName::ModelView(0),
            modifier: MatrixModifier::InvTrans,
            row: 3
        })
    );
    assert_eq!(p.symbols[0].len, 4);
}

#[test]
fn relative_addressing_decodes() {
    let p = asm("!!ARBvp1.0\nADDRESS a;\nPARAM c[4] = { program.env[0..3] };\nARL a.x, vertex.position.x;\nMOV result.position, c[a.x - 2];\nEND");
    assert_eq!(
        p.instructions[1].srcs[0].index,
        Index::Relative {
            reg: IndexReg::Address { reg: 0, comp: 0 },
            offset: -2,
            base: 0,
            len: 4
        }
    );
    assert_eq!(p.address_regs, 1);
}

#[test]
fn error_points_at_the_offending_token() {
    let text = "!!NVvp4.0\nTEMP t;\nMOV t, nope;\nEND";
    let e = err(text);
    assert_eq!(e.kind, ErrorKind::Semantic);
    assert_eq!(e.position(), text.find("nope").unwrap());
    assert_eq!(e.render(text), "3:8: error: 'nope' is not declared");
    let crlf = text.replace('\n', "\r\n");
    let e2 = err(&crlf);
    assert_eq!(e2.line_col(&crlf), (3, 8));
}

#[test]
fn texture_units_record_their_targets() {
    let p = asm("!!NVfp4.0\nTEMP t;\nTEX t, t, texture[3], 3D;\nTXF t, t, texture[1], BUFFER;\nTEX t, t, texture[3], 3D, (1, 2, -3);\nEND");
    assert_eq!(
        p.texture_targets,
        vec![(1, TexTarget::Buffer), (3, TexTarget::T3D)]
    );
    match &p.instructions[2].extra {
        Extra::Tex(t) => assert_eq!(t.offset, Some(TexOffset::Const([1, 2, -3]))),
        other => panic!("{other:?}"),
    }
}

#[test]
fn texture_array_relative_unit() {
    let p = asm("!!NVfp5.0\nTEXTURE tx[4] = { texture[4..7] };\nINT TEMP i;\nTEMP t;\nTXG t, t, tx[i.x + 1].w, 2D;\nEND");
    match &p.instructions[0].extra {
        Extra::Tex(t) => {
            assert_eq!(
                t.unit,
                TexUnit::Relative {
                    reg: IndexReg::Temp { reg: 0, comp: 0 },
                    offset: 1,
                    base: 4,
                    len: 4
                }
            );
            assert_eq!(t.gather_comp, 3);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(p.texture_targets.len(), 4);
}

#[test]
fn data_types_come_from_modifiers_and_defaults() {
    let p = asm("!!NVvp5.0\nTEMP t;\nLONG TEMP d;\nADD.U t, t, t;\nADD t, t, t;\nI2F t, t;\nADD.F64 d, d, d;\nLOAD.S8 t, d.x;\nEND");
    let types: Vec<DataType> = p.instructions.iter().map(|i| i.dtype).collect();
    use DataType::*;
    assert_eq!(types, vec![U32, F32, S32, F64, S32]);
    assert!(p.temps[1].long);
    match &p.instructions[4].extra {
        Extra::Mem(m) => assert_eq!(
            m.ty,
            MemType {
                scalar: MemScalar::S8,
                count: 1
            }
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn suffixes_set_precision_cc_and_saturation() {
    let p = asm(
        "!!ARBfp1.0\nOPTION NV_fragment_program2;\nTEMP t;\nADDHC1_SSAT t, t, t;\nMOVC CC, t;\nEND",
    );
    let i = &p.instructions[0];
    assert_eq!(
        (i.precision, i.cc_update, i.sat),
        (Precision::Half, Some(1), Saturate::SSat)
    );
    // `CC` as a destination writes a hidden temp.
    assert_eq!(p.temps.len(), 2);
    assert_eq!(p.instructions[1].cc_update, Some(0));
}

#[test]
fn interpolation_modifiers_reach_the_inputs() {
    let p = asm("!!NVfp4.0\nCENTROID NOPERSPECTIVE ATTRIB a = fragment.attrib[3];\nFLAT INT ATTRIB b = fragment.attrib[4];\nTEMP t;\nMOV t, a;\nEND");
    assert!(p.inputs[0].interp.centroid && p.inputs[0].interp.noperspective);
    assert!(p.inputs[1].interp.flat);
    assert_eq!(p.inputs[1].info.ty, VarType::Int);
}

#[test]
fn text_after_end_is_ignored() {
    asm("!!ARBvp1.0\nEND\n@@@ not a program ###");
}

#[test]
fn geometry_vertex_arrays() {
    let p = asm("!!NVgp4.0\nPRIMITIVE_IN LINES;\nPRIMITIVE_OUT LINE_STRIP;\nVERTICES_OUT 2;\nATTRIB c = vertex.color;\nMOV result.color, c[1];\nMOV result.position, vertex[0].position;\nEMIT;\nEND");
    assert_eq!(p.decls.primitive_in, Some(PrimKind::Lines));
    assert_eq!(p.instructions[0].srcs[0].vertex, Some(Index::Direct(1)));
    assert_eq!(p.instructions[1].srcs[0].vertex, Some(Index::Direct(0)));
    assert_eq!(
        p.inputs[0].binding,
        InputBinding::Varying(VaryingSlot::Color {
            back: false,
            secondary: false
        })
    );
}

#[test]
fn options_are_recorded() {
    let p = asm(
        "!!ARBfp1.0\nOPTION ARB_fog_linear;\nOPTION ARB_fragment_coord_origin_upper_left;\nEND",
    );
    assert_eq!(p.options.fog, Some(FogMode::Linear));
    assert!(p.options.origin_upper_left);
    assert_eq!(p.options.names.len(), 2);
}

#[test]
fn viewport_array_options_load() {
    let g = asm("!!NVgp5.0\nOPTION ARB_viewport_array;\nPRIMITIVE_IN TRIANGLES;\nPRIMITIVE_OUT TRIANGLE_STRIP;\nVERTICES_OUT 3;\nMOV.S result.viewport.x, 2;\nEMIT;\nEND");
    assert_eq!(g.options.names, vec!["ARB_viewport_array".to_string()]);
    let f = asm("!!NVfp4.0\nOPTION ARB_fragment_layer_viewport;\nI2F result.color, fragment.viewport.x;\nEND");
    assert_eq!(f.options.names.len(), 1);
}

#[test]
fn subroutine_functions_are_listed() {
    let p = asm("!!NVvp5.0\nSUBROUTINETYPE T { a, b };\nSUBROUTINE T v = program.subroutine[2];\nmain:\nCALI v;\nRET;\na SUBROUTINENUM(5):\nRET;\nb SUBROUTINENUM(1):\nRET;\nEND");
    assert_eq!(p.subroutine_vars[0].functions, vec![(1, 3), (5, 2)]);
    assert_eq!(p.subroutine_vars[0].first, 2);
}

#[test]
fn cvt_is_one_instruction_carrying_both_storage_types() {
    let p = asm(
        "!!NVfp5.0\nINT TEMP s;\nTEMP r;\nCVT.U8.S32.SAT r.z, s.x;\nCVT.F16.F64.CEIL r, s;\nEND",
    );
    let ops: Vec<(Opcode, DataType)> = p.instructions.iter().map(|i| (i.op, i.dtype)).collect();
    assert_eq!(
        ops,
        vec![(Opcode::Cvt, DataType::U32), (Opcode::Cvt, DataType::F32)]
    );
    assert_eq!(
        p.instructions[0].extra,
        Extra::Convert {
            from: MemScalar::S32,
            to: MemScalar::U8,
            rounding: Rounding::Default
        }
    );
    assert_eq!(p.instructions[0].sat, Saturate::Sat);
    assert_eq!(p.instructions[0].dst.as_ref().map(|d| d.mask), Some(0b0100));
    assert_eq!(
        p.instructions[1].extra,
        Extra::Convert {
            from: MemScalar::F64,
            to: MemScalar::F16,
            rounding: Rounding::Ceil
        }
    );
    assert_eq!(p.temps.len(), 2, "no hidden temps");
}

#[test]
fn thread_group_warp_and_sm_ids_are_inputs() {
    let p = asm("!!NVgp5.0\nOPTION NV_shader_thread_group;\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nUINT TEMP t;\nMOV.U t.x, primitive.warpid.x;\nMOV.U t.y, primitive.smid.x;\nEND");
    let b: Vec<&InputBinding> = p.inputs.iter().map(|i| &i.binding).collect();
    assert_eq!(b, vec![&InputBinding::WarpId, &InputBinding::SmId]);
    let p = asm("!!NVfp5.0\nOPTION NV_shader_thread_group;\nATTRIB w = fragment.warpid;\nMOV.U result.color.x, w.x;\nEND");
    assert_eq!(p.inputs[0].binding, InputBinding::WarpId);
    assert!(assemble(
        "!!NVfp4.0\nMOV.U result.color.x, fragment.smid.x;\nEND",
        None
    )
    .is_err());
}

#[test]
fn two_dimensional_cbuffer_sizes_bindings_then_elements() {
    let p = asm("!!NVfp5.0\nCBUFFER cb[2][64] = { program.buffer[3..4] };\nUINT TEMP r;\nLDC.U32 r, cb[1][60];\nEND");
    assert_eq!(
        (
            p.buffers[0].binding,
            p.buffers[0].bindings,
            p.buffers[0].len
        ),
        (3, 2, Some(64))
    );
    assert_eq!(p.instructions[0].srcs[0].vertex, Some(Index::Direct(1)));
    assert_eq!(p.instructions[0].srcs[0].index, Index::Direct(60));
    let e = assemble("!!NVfp5.0\nCBUFFER cb[2][64] = { program.buffer[3..4] };\nUINT TEMP r;\nLDC.U32 r, cb[1][64];\nEND", None).unwrap_err();
    assert!(e.to_string().contains("out of bounds"), "{e}");
    let e = assemble(
        "!!NVfp5.0\nCBUFFER cb[3][64] = { program.buffer[3..4] };\nEND",
        None,
    )
    .unwrap_err();
    assert!(e.to_string().contains("declared 3 buffers"), "{e}");
    let e = assemble("!!NVfp5.0\nCBUFFER cb[] = { program.buffer[3..4] };\nUINT TEMP r;\nLDC.U32 r, cb[2][0];\nEND", None).unwrap_err();
    assert!(e.to_string().contains("index 2 is out of bounds"), "{e}");
}

#[test]
fn tessellation_control_reads_of_the_output_patch() {
    let p = asm(
        "!!NVtcp5.0\nVERTICES_OUT 4;\nATTRIB o = vertex.out.attrib[1];\nINT TEMP i;\n\
         MOV result.attrib[0], vertex.out[3].position;\nMOV result.attrib[1], o[i.x];\n\
         MOV result.attrib[2], primitive.out.tessouter[1];\nMOV.S i, primitive.out.id;\nEND",
    );
    let bindings: Vec<&InputBinding> = p.inputs.iter().map(|i| &i.binding).collect();
    assert!(bindings.contains(&&InputBinding::VertexOut(VaryingSlot::Attrib(1))));
    assert!(bindings.contains(&&InputBinding::VertexOut(VaryingSlot::Position)));
    assert!(bindings.contains(&&InputBinding::PatchOut(VaryingSlot::TessOuter(1))));
    assert!(bindings.contains(&&InputBinding::PrimitiveId));
    let first = &p.instructions[0].srcs[0];
    assert_eq!(
        (first.file, first.vertex),
        (File::Input, Some(Index::Direct(3)))
    );
    // NV_tessellation_program5 load-time rules.
    for (text, word) in [
        (
            "!!NVtcp5.0\nVERTICES_OUT 4;\nMOV result.position, vertex.out[4].position;\nEND",
            "out of range",
        ),
        (
            "!!NVtep5.0\nTESS_MODE TRIANGLES;\nMOV result.position, vertex.out[0].position;\nEND",
            "only available in tessellation control",
        ),
        (
            "!!NVtcp5.0\nVERTICES_OUT 4;\nMOV result.position, primitive.tessouter[0];\nEND",
            "primitive.out.tessouter",
        ),
        (
            "!!NVtcp5.0\nVERTICES_OUT 4;\nMOV result.position, primitive.in.patch.attrib[0];\nEND",
            "primitive.out.patch",
        ),
    ] {
        let e = err(text);
        assert!(e.message.contains(word), "{text}: {}", e.message);
    }
}

#[test]
fn vertex_ids_travel_as_a_varying() {
    let vp = asm("!!NVvp4.0\nMOV.S result.id.x, vertex.id.x;\nEND");
    assert_eq!(
        vp.outputs[0].binding,
        OutputBinding::Varying(VaryingSlot::VertexId)
    );
    let gp = asm(
        "!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\n\
         MOV.S result.attrib[0], vertex[0].id;\nEMIT;\nEND",
    );
    assert_eq!(
        gp.inputs[0].binding,
        InputBinding::Varying(VaryingSlot::VertexId)
    );
}

#[test]
fn attrib_and_result_components_count_only_what_instructions_use() {
    let p = asm("!!NVfp4.0\nOPTION ARB_draw_buffers;\nATTRIB unused = fragment.texcoord[3];\nATTRIB tc[2] = { fragment.texcoord[0..1] };\nINT TEMP i;\nOUTPUT o = result.color[1];\nTEMP t;\nMOV t, tc[i.x];\nADD result.color, t, fragment.color;\nEND");
    // tc[0], tc[1] (relative), fragment.color; texcoord[3] is only declared.
    assert_eq!(p.attrib_components(), 12);
    assert_eq!(p.result_components(), 4);
    // A geometry program's VERTICES_OUT × written components: 256 × 4 fits 1024 even with
    // a declared, unwritten output.
    let gp = "!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 256;\nOUTPUT unused = result.color;\nMOV result.position, vertex[0].position;\nEMIT;\nEND";
    assert_eq!(asm(gp).result_components(), 4);
    let e = assemble(&gp.replace("256", "257"), None).unwrap_err();
    assert!(e.to_string().contains("exceeds the limit of 1024"), "{e}");
}

#[test]
fn shared_variables_are_not_values() {
    let text = "!!NVcp5.0\nGROUP_SIZE 1;\nSHARED_MEMORY 16;\nSHARED s[] = { program.sharedmem };\n\
                UINT TEMP r;\nMOV.U r, s[0];\nEND";
    let e = err(text);
    assert_eq!(
        (e.kind, e.message.as_str()),
        (
            ErrorKind::Semantic,
            "'s' is a SHARED variable: only LDS, STS and ATOMS access it"
        )
    );
    assert_eq!(
        text.get(e.span.start as usize..e.span.end as usize),
        Some("s")
    );
}
