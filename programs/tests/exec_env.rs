//! Instructions that reach the environment: memory, counters, textures (one call per
//! batch), interpolation, geometry output, and the cross-lane instructions.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod exec_util;
use exec_util::*;
use glemu_programs::exec::{ExecErrorKind, Executor, Geometry, LaneState};
use glemu_programs::ir::Stage;

fn mem_with(words: &[u32]) -> TestEnv {
    let env = TestEnv {
        mem: bytemuck::cast_slice(words).to_vec(),
        ..Default::default()
    };
    env
}

#[test]
fn ldc_reads_byte_offsets_with_types() {
    let text = "!!NVfp5.0\nCBUFFER cb[] = { program.buffer[0] };\nTEMP r;\nINT TEMP i;\nUINT TEMP u;\nLDC.F32X4 r, cb[16];\nLDC.S8 i, cb[4];\nLDC.U16 u, cb[6];\nMOV result.color, r;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let env = mem_with(&[
        0,
        0xfffe_0080,
        0,
        0,
        1.0f32.to_bits(),
        2.0f32.to_bits(),
        3.0f32.to_bits(),
        4.0f32.to_bits(),
    ]);
    let r = run_with(&p, 1, &[], env, |_| {});
    r.stats.expect("run");
    assert_eq!(r.state.output_f32(0, 0), [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(r.state.temp_lane(1, 0)[0] as i32, -128);
    assert_eq!(r.state.temp_lane(2, 0)[0], 0xfffe);
}

#[test]
fn ldc_out_of_range_and_misaligned_read_zero() {
    let text = "!!NVfp5.0\nCBUFFER cb[] = { program.buffer[0] };\nTEMP r;\nMOV r, 1;\nLDC.F32X4 r, cb[64];\nMOV result.color, r;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let r = run_with(&p, 1, &[], mem_with(&[7; 4]), |_| {});
    let s = r.stats.expect("run");
    assert_eq!(r.state.output_f32(0, 0), [0.0; 4]);
    assert_eq!(s.oob_reads, 1);
    let text = "!!NVfp5.0\nCBUFFER cb[] = { program.buffer[0] };\nTEMP r;\nLDC.F32X4 r, cb[4];\nMOV result.color, r;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let r = run_with(&p, 1, &[], mem_with(&[7; 16]), |_| {});
    assert_eq!(r.stats.expect("run").misaligned, 1);
    assert_eq!(r.state.output_f32(0, 0), [0.0; 4]);
}

#[test]
fn buffer4_operands_and_relative_elements() {
    let text = "!!NVfp4.0\nBUFFER4 b[2] = { program.buffer[0][0..1] };\nINT TEMP i;\nTEMP r;\nFLR.S i, fragment.color;\nMOV r, b[i.x];\nMOV result.color, r;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let words: Vec<u32> = (1..=8).map(|x| (x as f32).to_bits()).collect();
    let r = run_with(&p, 3, &[], mem_with(&words), |st| {
        for l in 0..3 {
            st.set_input_f32(0, l, [l as f32, 0.0, 0.0, 0.0]);
        }
    });
    let s = r.stats.expect("run");
    assert_eq!(r.state.output_f32(0, 0), [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(r.state.output_f32(0, 1), [5.0, 6.0, 7.0, 8.0]);
    assert_eq!(r.state.output_f32(0, 2), [0.0; 4]);
    assert_eq!(s.oob_reads, 1);
}

#[test]
fn global_load_store_atomics() {
    let text = "!!NVfp5.0\nUINT TEMP a, v, o;\nMOV.U a, {0, 4, 8, 400};\nLOAD.U32 v, a.y;\nSTORE.U32 {77, 0, 0, 0}, a.x;\nATOM.ADD.U32 o, {5, 0, 0, 0}, a.z;\nATOM.CSWAP.U32 o.y, {3, 9, 0, 0}, a.y;\nSTORE.U32 v, a.w;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let r = run_with(&p, 1, &[], mem_with(&[0, 3, 10]), |_| {});
    let s = r.stats.expect("run");
    assert_eq!(r.state.temp_lane(1, 0)[0], 3);
    assert_eq!(r.state.temp_lane(2, 0)[..2], [10, 3]);
    assert_eq!(r.env.mem, bytemuck::cast_slice::<u32, u8>(&[77, 9, 15]));
    assert_eq!(s.oob_writes, 1);
}

#[test]
fn helper_lanes_do_not_store() {
    let text = "!!NVfp5.0\nUINT TEMP a;\nMOV.U a, {0, 0, 0, 0};\nATOM.ADD.U32 a, {1, 0, 0, 0}, a.x;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let ex = Executor::new(p.clone());
    let mut st = LaneState::new(&p, 4);
    st.set_helper_mask(0b1010);
    let mut env = mem_with(&[0]);
    ex.run(&mut st, 0xf, &params(&p, &[]), &mut env)
        .expect("run");
    assert_eq!(env.mem[0], 2);
}

#[test]
fn atomic_counters() {
    let text = "!!NVfp5.0\nOPTION NV_shader_atomic_counters;\nCOUNTER c = program.counter[0][0];\nUINT TEMP r;\nATOMCTR.U32.INCR r.x, c;\nATOMCTR.U32.DECR r.y, c;\nATOMCTR.U32.GET r.z, c;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let env = TestEnv {
        counters: vec![5],
        ..Default::default()
    };
    let r = run_with(&p, 2, &[], env, |_| {});
    r.stats.expect("run");
    // Lane 0 INCR → 5, lane 1 → 6; then DECR returns the decremented value.
    assert_eq!(r.state.temp_lane(0, 0)[0], 5);
    assert_eq!(r.state.temp_lane(0, 1)[0], 6);
    assert_eq!(r.state.temp_lane(0, 0)[1], 6);
    assert_eq!(r.state.temp_lane(0, 1)[1], 5);
    assert_eq!(r.env.counters, vec![5]);
}

#[test]
fn texture_is_called_once_per_batch() {
    let text = "!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[2], 2D;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let r = run_with(&p, 16, &[], TestEnv::default(), |st| {
        for l in 0..16 {
            st.set_input_f32(0, l, [l as f32, 2.0 * l as f32, 0.0, 1.0]);
        }
    });
    r.stats.expect("run");
    assert_eq!(r.env.tex_calls, vec![(2, 0xffff)]);
    assert_eq!(r.state.output_f32(0, 5), [5.0, 10.0, 0.0, 2.0]);
}

#[test]
fn texture_arrays_split_calls_by_unit() {
    let text = "!!NVfp5.0\nTEXTURE t[4] = { texture[4..7] };\nINT TEMP i;\nFLR.S i, fragment.texcoord[0];\nTEX result.color, fragment.texcoord[0], t[i.x], 2D;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let r = run_with(&p, 4, &[], TestEnv::default(), |st| {
        for l in 0..4 {
            st.set_input_f32(0, l, [(l % 2) as f32, 0.0, 0.0, 0.0]);
        }
    });
    r.stats.expect("run");
    assert_eq!(r.env.tex_calls, vec![(4, 0b0101), (5, 0b1010)]);
    assert_eq!(r.state.output_f32(0, 3)[3], 5.0);
}

#[test]
fn derivatives_over_quads() {
    let text = "!!NVfp4.0\nTEMP r;\nDDX r.x, fragment.color.x;\nDDY r.y, fragment.color.x;\nMOV result.color, r;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    // Quad (x,y),(x+1,y),(x,y+1),(x+1,y+1) with f = 3x + 5y (+ a quad offset).
    let r = run_with(&p, 8, &[], TestEnv::default(), |st| {
        for l in 0..8 {
            let (x, y) = ((l % 2) as f32, ((l / 2) % 2) as f32);
            st.set_input_f32(
                0,
                l,
                [3.0 * x + 5.0 * y + (l / 4) as f32 * 100.0, 0.0, 0.0, 0.0],
            );
        }
    });
    r.stats.expect("run");
    for l in 0..8 {
        assert_eq!(r.state.output_f32(0, l)[..2], [3.0, 5.0], "lane {l}");
    }
}

#[test]
fn thread_group_votes_over_running_lanes() {
    let text = "!!NVfp5.0\nINT TEMP v, r;\nFLR.S v, fragment.color;\nTGALL.S r.x, v.x;\nTGANY.S r.y, v.y;\nTGEQ.S r.z, v.z;\nTGEQ.S r.w, v.w;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let r = run_with(&p, 4, &[], TestEnv::default(), |st| {
        for l in 0..4 {
            st.set_input_f32(
                0,
                l,
                [(l + 1) as f32, (l == 2) as u8 as f32, 0.0, (l % 2) as f32],
            );
        }
    });
    r.stats.expect("run");
    assert_eq!(r.state.temp_lane(1, 3).map(|x| x as i32), [-1, -1, -1, 0]);
}

#[test]
fn interpolation_calls_carry_the_operand() {
    let text = "!!NVfp5.0\nTEMP r;\nIPAO r, fragment.texcoord[0], {0.25, -0.5, 0, 0};\nMOV result.color, r;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let r = run_with(&p, 2, &[], TestEnv::default(), |_| {});
    r.stats.expect("run");
    assert_eq!(r.state.output_f32(0, 1)[..2], [0.25, -0.5]);
}

#[test]
fn geometry_emits_per_lane() {
    let text = "!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 2;\nMOV result.position, vertex[0].position;\nEMIT;\nADD result.position, vertex[0].position, 1;\nEMIT;\nENDPRIM;\nEND\n";
    let p = assemble(text, Stage::Geometry);
    let ex = Executor::new(p.clone());
    let mut st = LaneState::with_vertices(&p, 2, 1);
    st.set_input_f32(0, 0, [1.0, 0.0, 0.0, 0.0]);
    st.set_input_f32(0, 1, [5.0, 0.0, 0.0, 0.0]);
    let mut env = TestEnv::default();
    // Without its hooks the geometry program is refused before it runs.
    let e = ex
        .run(&mut st, 0b11, &params(&p, &[]), &mut env)
        .unwrap_err();
    assert!(matches!(e.kind, ExecErrorKind::BadState(_)), "{e}");
    assert!(env.emitted.is_empty());
    ex.run(&mut st, 0b11, &params(&p, &[]), &mut Geometry(&mut env))
        .expect("run");
    let xs: Vec<(usize, f32)> = env
        .emitted
        .iter()
        .map(|(_, l, v)| (*l, f32::from_bits(v[0])))
        .collect();
    assert_eq!(xs, vec![(0, 1.0), (1, 5.0), (0, 2.0), (1, 6.0)]);
    assert_eq!(env.ended, vec![0, 1]);
}

#[test]
fn missing_environment_support_is_a_clear_error() {
    let text = "!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let ex = Executor::new(p.clone());
    let mut st = LaneState::new(&p, 1);
    let e = ex
        .run(
            &mut st,
            1,
            &params(&p, &[]),
            &mut glemu_programs::exec::NullEnv,
        )
        .expect_err("no textures");
    assert!(e.to_string().contains("not supported"), "{e}");
    assert_eq!(e.inst, 0);
}

#[test]
fn wide_and_vector_memory_accesses() {
    // LOAD.U64 of a 64-bit word, ATOM.ADD.U64, STORE.F32X4 and LOAD.F32X2.
    let text = "!!NVfp5.0\nLONG UINT TEMP w;\nUINT TEMP a, r;\nTEMP f;\nMOV.U a, {0, 8, 16, 0};\nLOAD.U64 w, a.x;\nATOM.ADD.U64 w.y, {5, 0, 0, 0}, a.y;\nUP64.U r, w;\nSTORE.F32X4 {1.5, 2.5, 3.5, 4.5}, a.z;\nLOAD.F32X2 f, a.z;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let mut words = vec![0u32; 8];
    words[0] = 7;
    words[1] = 1; // u64 at 0 = 2^32 + 7
    words[2] = u32::MAX; // u64 at 8 = 2^32 - 1
    let r = run_with(&p, 1, &[], mem_with(&words), |_| {});
    r.stats.expect("run");
    // r = (lo(w.x), hi(w.x), lo(w.y), hi(w.y)); w.y = old value at 8.
    assert_eq!(r.state.temp_lane(2, 0), [7, 1, u32::MAX, 0]);
    let mem: Vec<u32> = r
        .env
        .mem
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(mem[2..4], [4, 1]);
    assert_eq!(mem[4..8], [1.5f32, 2.5, 3.5, 4.5].map(f32::to_bits));
    assert_eq!(
        r.state.temp_lane(3, 0).map(f32::from_bits),
        [1.5, 2.5, 0.0, 0.0]
    );
}

#[test]
fn image_load_store_atomic() {
    let text = "!!NVfp5.0\nIMAGE im = image[3];\nUINT TEMP r, o;\nLOADIM.U32 r, {1, 2, 0, 0}, im, 2D;\nADD.U r, r, 100;\nSTOREIM.U32 im, r, {2, 2, 0, 0}, 2D;\nATOMIM.MAX.U32 o, {50, 0, 0, 0}, {3, 0, 0, 0}, im, 2D;\nLOADIM.U32 o.y, {9, 9, 0, 0}, im, 2D;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let env = TestEnv {
        image: (0..16).map(|i| [i, 0, 0, 0]).collect(),
        ..Default::default()
    };
    let r = run_with(&p, 1, &[], env, |_| {});
    let s = r.stats.expect("run");
    assert_eq!(r.state.temp_lane(0, 0)[0], 109);
    assert_eq!(r.env.image[10], [109, 100, 100, 100]);
    assert_eq!(r.state.temp_lane(1, 0)[0], 3);
    assert_eq!(r.env.image[3][0], 50);
    assert_eq!(r.state.temp_lane(1, 0)[1], 0);
    assert_eq!(s.oob_reads, 1);
    assert!(r.env.image_units.iter().all(|&u| u == 3));
}

#[test]
fn texture_instructions_pass_their_operands() {
    use glemu_programs::exec::TexOp;
    use glemu_programs::ir::{DataType, TexTarget};
    let text = "!!NVfp5.0\nTEMP r;\nINT TEMP i;\nMOV.S i, {1, 2, 0, 0};\nTEX r, {0.5, 0.5, 0, 0}, texture[0], 2D;\nTXB r, {0.5, 0.5, 0, 2}, texture[0], 2D;\nTXL r, {0.5, 0.5, 0, 3}, texture[0], 2D;\nTXP r, {1, 1, 0, 2}, texture[0], 2D;\nTXD r, {0.5, 0.5, 0, 0}, {0.25, 0, 0, 0}, {0.75, 0, 0, 0}, texture[0], 2D;\nTXF.S r, i, texture[1], 2D;\nTXQ i, i.x, texture[1], 2D;\nTEX r, {0.5, 0.5, 0, 0}, texture[0], 2D, (1, -1);\nTXG r, {0.5, 0.5, 0, 0}, texture[0].z, 2D;\nTXGO r, {0.5, 0.5, 0, 0}, {1, 2, 3, 4}, {5, 6, 7, 8}, texture[0], 2D;\nLOD r, {0.5, 0.5, 0, 0}, texture[0], 2D;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let r = run_with(&p, 4, &[], TestEnv::default(), |_| {});
    r.stats.expect("run");
    let ops: Vec<TexOp> = r.env.tex_ops.iter().map(|t| t.op).collect();
    assert_eq!(
        ops,
        vec![
            TexOp::Sample,
            TexOp::Bias,
            TexOp::Lod,
            TexOp::Proj,
            TexOp::Grad,
            TexOp::Fetch,
            TexOp::Query,
            TexOp::Sample,
            TexOp::Gather,
            TexOp::GatherOffsets,
            TexOp::QueryLod
        ]
    );
    let t = &r.env.tex_ops;
    assert!(t.iter().all(|t| t.target == TexTarget::T2D));
    assert_eq!(t[4].operand2, Some(0.25f32.to_bits()));
    assert_eq!(t[4].operand3, Some(0.75f32.to_bits()));
    assert_eq!(t[5].dtype, DataType::S32);
    assert_eq!(t[7].offsets, Some([1, -1, 0]));
    assert_eq!(t[8].gather_comp, 2);
    // TXGO offsets arrive as integers.
    assert_eq!(t[9].operand2, Some(1));
    assert_eq!(t[9].operand3, Some(5));
    // Every call covered the whole batch once.
    assert!(r.env.tex_calls.iter().all(|&(_, lanes)| lanes == 0xf));
}

#[test]
fn vp2_address_round_and_add() {
    let text = "!!VP2.0\nARR A0, v[OPOS];\nARA A1, A0;\nMOV o[HPOS], c[A1.x];\nMOV o[COL0], c[A1.y];\nEND\n";
    let p = assemble(text, Stage::Vertex);
    let locals: Vec<[f32; 4]> = (0..256).map(|i| [i as f32; 4]).collect();
    let r = run_with(&p, 1, &locals, TestEnv::default(), |st| {
        // round-half-even: 2.5 → 2, 1.5 → 2, -0.5 → 0, 10.5 → 10.
        st.set_input_f32(0, 0, [2.5, 1.5, 10.5, -0.5]);
    });
    r.stats.expect("run");
    assert_eq!(r.state.address_lane(0, 0), [2, 2, 10, 0]);
    // ARA: x = x + z, y = y + w.
    assert_eq!(r.state.address_lane(1, 0), [12, 2, 12, 2]);
    assert_eq!(r.state.output_f32(0, 0), [12.0; 4]);
}

#[test]
fn ipac_ipas_and_emits() {
    use glemu_programs::exec::InterpKind;
    let text = "!!NVfp5.0\nTEMP r;\nIPAC r, fragment.texcoord[1];\nIPAS r, fragment.texcoord[1], 3;\nMOV result.color, r;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let r = run_with(&p, 2, &[], TestEnv::default(), |_| {});
    r.stats.expect("run");
    let kinds: Vec<InterpKind> = r.env.interp_calls.iter().map(|c| c.0).collect();
    assert_eq!(kinds, vec![InterpKind::Centroid, InterpKind::Sample]);
    assert!(r.env.interp_calls.iter().all(|c| c.2 == 0b11));
    // The test environment returns the operand: IPAS's sample number.
    assert_eq!(r.state.output_lane(0, 1)[0], 3);

    let gp = "!!NVgp5.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 2;\nMOV result.position, vertex[0].position;\nEMITS 1;\nEMIT;\nEND\n";
    let p = assemble(gp, Stage::Geometry);
    let r = run_with(&p, 1, &[], TestEnv::default(), |_| {});
    r.stats.expect("run");
    let streams: Vec<u32> = r.env.emitted.iter().map(|e| e.0).collect();
    assert_eq!(streams, vec![1, 0]);
}

fn words(w: &[u32]) -> Vec<u8> {
    bytemuck::cast_slice(w).to_vec()
}

/// NV_shader_storage_buffer_object: the STORAGE index is a byte offset, which may be a
/// register component plus a constant (`<arrayMemRel>`); offsets below zero are out of
/// range.
#[test]
fn storage_offsets_add_a_constant_to_the_register() {
    let text = "!!NVfp5.0\nOPTION NV_shader_storage_buffer;\nSTORAGE s = program.storage[0];\nINT TEMP a;\nUINT TEMP r, t;\nMOV.S a, {4, -8, 0, 0};\nLDB.U32 t, s[a.x + 8];\nMOV.U r.x, t.x;\nLDB.U32 t, s[a.y + 4];\nMOV.U r.y, t.x;\nSTB.U32 {77, 0, 0, 0}, s[a.x + 12];\nATOMB.ADD.U32 r.z, {5, 0, 0, 0}, s[a.x + 4];\nLDB.U32 t, s[a.x + 12];\nMOV.U r.w, t.x;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let env = mem_with(&[10, 11, 12, 13, 14, 15]);
    let r = run_with(&p, 1, &[], env, |_| {});
    let s = r.stats.expect("run");
    // word 3; byte -4 is out of range; ATOMB returns word 2's old value; the store hit word 4.
    assert_eq!(r.state.temp_lane(1, 0), [13, 0, 12, 77]);
    assert_eq!(s.oob_reads, 1);
    assert_eq!(&r.env.mem[8..12], &17u32.to_le_bytes());
}

/// `program.storage[a..b]` / `program.buffer[a..b]`: "the first index specifying an offset
/// into the range of buffer object binding points" (NV_shader_storage_buffer_object,
/// NV_gpu_program5 section 2.X.3.6), constant or relative.
#[test]
fn buffer_variables_over_several_binding_points() {
    use glemu_programs::exec::MemRegion;
    let text = "!!NVfp5.0\nOPTION NV_shader_storage_buffer;\nSTORAGE s = program.storage[1..2];\nCBUFFER cb[] = { program.buffer[3..4] };\nBUFFER4 b[2] = { program.buffer[5..6][0..1] };\nINT TEMP i;\nUINT TEMP r, t;\nTEMP q, f;\nFLR.S i, fragment.color;\nLDB.U32 t, s[1][4];\nMOV.U r.x, t.x;\nLDB.U32 t, s[i.x][0];\nMOV.U r.y, t.x;\nSTB.U32 {99, 0, 0, 0}, s[i.x][8];\nLDC.U32 t, cb[0][4];\nMOV.U r.z, t.x;\nLDC.U32 t, cb[i.x][0];\nMOV.U r.w, t.x;\nMOV f, b[i.x][1];\nMOV q, b[1][0];\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let env = TestEnv {
        bound: vec![
            (MemRegion::Storage { binding: 1 }, words(&[100, 101, 0])),
            (MemRegion::Storage { binding: 2 }, words(&[200, 201, 0])),
            (MemRegion::ParamBuffer { binding: 3 }, words(&[300, 301])),
            (MemRegion::ParamBuffer { binding: 4 }, words(&[400, 401])),
            (
                MemRegion::ParamBuffer { binding: 5 },
                words(&[1, 2, 3, 4, 5, 6, 7, 8]),
            ),
            (
                MemRegion::ParamBuffer { binding: 6 },
                words(&[9, 10, 11, 12, 13, 14, 15, 16]),
            ),
        ],
        ..Default::default()
    };
    // Lane 0 indexes binding 0 of each range, lane 1 binding 1, lane 2 is out of range.
    let r = run_with(&p, 3, &[], env, |st| {
        for l in 0..3 {
            st.set_input_f32(0, l, [l as f32, 0.0, 0.0, 0.0]);
        }
    });
    let s = r.stats.expect("run");
    assert_eq!(r.state.temp_lane(1, 0), [201, 100, 301, 300]);
    assert_eq!(r.state.temp_lane(1, 1), [201, 200, 301, 400]);
    assert_eq!(r.state.temp_lane(1, 2), [201, 0, 301, 0]);
    assert_eq!(r.state.temp_lane(4, 0), [5, 6, 7, 8]);
    assert_eq!(r.state.temp_lane(4, 1), [13, 14, 15, 16]);
    assert_eq!(r.state.temp_lane(4, 2), [0; 4]);
    assert_eq!(r.state.temp_lane(3, 0), [9, 10, 11, 12]);
    assert_eq!(&r.env.bound[0].1[8..12], &99u32.to_le_bytes());
    assert_eq!(&r.env.bound[1].1[8..12], &99u32.to_le_bytes());
    // Lane 2: the LDB, the LDC and the BUFFER4 read miss; its STB is dropped.
    assert_eq!(s.oob_reads, 3);
    assert_eq!(s.oob_writes, 1);
}

/// EXT_shader_image_load_store: `<imageUnit> ::= <imageVarName> <optArrayMem>` allows a
/// relative element of an IMAGE array; the target zeroes the coordinates it does not use.
#[test]
fn image_arrays_index_relatively_and_targets_mask_coordinates() {
    use glemu_programs::ir::TexTarget;
    let text = "!!NVfp5.0\nIMAGE im[3] = { image[4..6] };\nINT TEMP i;\nUINT TEMP r, t;\nFLR.S i, fragment.color;\nLOADIM.U32 r.x, {1, 2, 3, 4}, im[i.x + 1], 2D;\nLOADIM.U32 t, {1, 2, 3, 4}, im[0], 1D;\nMOV.U r.y, t.x;\nSTOREIM.U32 im[i.x], {5, 0, 0, 0}, {0, 0, 7, 1}, ARRAY2DMS;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let env = TestEnv {
        image: (0..16).map(|i| [i, 0, 0, 0]).collect(),
        ..Default::default()
    };
    let r = run_with(&p, 3, &[], env, |st| {
        for l in 0..3 {
            st.set_input_f32(0, l, [l as f32, 0.0, 0.0, 0.0]);
        }
    });
    let s = r.stats.expect("run");
    assert_eq!(r.state.temp_lane(1, 0)[..2], [9, 1]);
    assert_eq!(r.state.temp_lane(1, 1)[..2], [9, 1]);
    // Lane 2's LOADIM index 3 is past the array: read as zero, counted.
    assert_eq!(r.state.temp_lane(1, 2)[..2], [0, 1]);
    assert_eq!(s.oob_reads, 1);
    let calls = &r.env.image_calls;
    assert!(calls.contains(&(5, TexTarget::T2D, [1, 2, 0, 0])));
    assert!(calls.contains(&(6, TexTarget::T2D, [1, 2, 0, 0])));
    assert!(calls.contains(&(4, TexTarget::T1D, [1, 0, 0, 0])));
    for (u, l) in [(4, 0), (5, 1), (6, 2)] {
        assert!(
            calls.contains(&(u, TexTarget::Array2DMs, [0, 0, 7, 1])),
            "lane {l} stores to unit {u}"
        );
    }
}

/// NV_gpu_program5 IPAC/IPAO/IPAS take "a fragment program attribute variable", which
/// may be an array element chosen at run time: one call per attribute the lanes name.
#[test]
fn interpolation_of_relatively_indexed_attributes() {
    use glemu_programs::exec::InterpKind;
    use glemu_programs::ir::InputBinding;
    let text = "!!NVfp5.0\nATTRIB tc[3] = { fragment.texcoord[0..2] };\nINT TEMP i;\nTEMP r;\nFLR.S i, fragment.color;\nMOV r, 9;\nIPAO r, tc[i.x], {0.25, -0.5, 0, 0};\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let color = input_slot(&p, |b| matches!(b, InputBinding::FragColor { .. }));
    let r = run_with(&p, 4, &[], TestEnv::default(), |st| {
        for (l, i) in [0.0, 1.0, 1.0, 5.0].into_iter().enumerate() {
            st.set_input_f32(color, l, [i, 0.0, 0.0, 0.0]);
        }
    });
    let s = r.stats.expect("run");
    assert_eq!(
        r.env.interp_calls,
        vec![
            (InterpKind::Offset, 0, 0b0001),
            (InterpKind::Offset, 1, 0b0110)
        ]
    );
    for l in 0..3 {
        assert_eq!(
            r.state.temp_lane(1, l).map(f32::from_bits)[..2],
            [0.25, -0.5]
        );
    }
    // Lane 3's index is past the array: zero, counted.
    assert_eq!(r.state.temp_lane(1, 3), [0; 4]);
    assert_eq!(s.oob_reads, 1);
}

/// NV_gpu_program5_mem_extended: BufferMemoryLoad/Store of 8/16-bit and F16 vectors, one
/// element per component, sign- or zero-extended on load and truncated on store.
#[test]
fn mem_extended_small_vector_loads_and_stores() {
    let text = "!!NVfp5.0\nOPTION NV_gpu_program5_mem_extended;\nCBUFFER cb[] = { program.buffer[0] };\nINT TEMP i;\nUINT TEMP u;\nTEMP f;\nLONG UINT TEMP a;\nMOV.U64 a, 0;\nLOAD.S8X4 i, a.x;\nLDC.U16X2 u, cb[4];\nLDC.F16X4 f, cb[8];\nSTORE.S16X2 {-2, 70000, 0, 0}, a.x;\nMOV.U64 a, 4;\nSTORE.U8X4 {1, 258, 3, 4}, a.x;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let env = mem_with(&[0x80ff_017f, 0xffff_0001, 0xc000_3c00, 0x7c00_3800]);
    let r = run_with(&p, 1, &[], env, |_| {});
    r.stats.expect("run");
    assert_eq!(
        r.state.temp_lane(0, 0).map(|x| x as i32),
        [127, 1, -1, -128]
    );
    assert_eq!(r.state.temp_lane(1, 0), [1, 0xffff, 0, 0]);
    assert_eq!(
        r.state.temp_lane(2, 0).map(f32::from_bits),
        [1.0, -2.0, 0.5, f32::INFINITY]
    );
    // -2 and 70000 keep their low 16 bits; 258 its low 8.
    assert_eq!(&r.env.mem[0..4], &[0xfe, 0xff, 0x70, 0x11]);
    assert_eq!(&r.env.mem[4..8], &[1, 2, 3, 4]);
}

/// NV_shader_thread_shuffle over an 8-lane batch whose thread ids are the lane indices:
/// (in range, value) per lane, with segments from the mask operand's bits 8-12.
#[test]
fn thread_shuffles_read_other_lanes() {
    let text = "!!NVfp5.0\nOPTION NV_shader_thread_shuffle;\nTEMP v, a, b, c, d;\nMOV v, fragment.color;\nSHFDOWN a, v.x, 1, 7171;\nSHFUP b, v.x, 1, 7168;\nSHFXOR c, v.x, 1, 31;\nSHFIDX d, v.x, 2, 7171;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let r = run_with(&p, 8, &[], TestEnv::default(), |st| {
        for l in 0..8 {
            st.set_input_f32(0, l, [100.0 + l as f32, 0.0, 0.0, 0.0]);
        }
    });
    r.stats.expect("run");
    let got = |t: usize| -> Vec<(f32, f32)> {
        (0..8)
            .map(|l| {
                let v = r.state.temp_lane(t, l).map(f32::from_bits);
                (v[0], v[1])
            })
            .collect()
    };
    // 7171 = segments of 4 (mask 0x1c << 8) clamped to 3: down stays inside a segment.
    let down: Vec<(f32, f32)> = (0..8)
        .map(|l| {
            if l % 4 == 3 {
                (0.0, 100.0 + l as f32)
            } else {
                (1.0, 101.0 + l as f32)
            }
        })
        .collect();
    assert_eq!(got(1), down);
    // 7168 = segments of 4, clamp 0: up reads the previous lane except at a segment start.
    let up: Vec<(f32, f32)> = (0..8)
        .map(|l| {
            if l % 4 == 0 {
                (0.0, 100.0 + l as f32)
            } else {
                (1.0, 99.0 + l as f32)
            }
        })
        .collect();
    assert_eq!(got(2), up);
    // XOR 1 over the whole warp swaps neighbours.
    let xor: Vec<(f32, f32)> = (0..8).map(|l| (1.0, 100.0 + (l ^ 1) as f32)).collect();
    assert_eq!(got(3), xor);
    // IDX 2 within segments of 4: every lane reads its segment's third lane.
    let idx: Vec<(f32, f32)> = (0..8).map(|l| (1.0, 102.0 + (l & 4) as f32)).collect();
    assert_eq!(got(4), idx);
}

#[test]
fn buffer_operands_feed_memory_instructions() {
    // A BUFFER element as STORE data, ATOM operand and LOAD address: memory instructions
    // read parameter-buffer operands like any other instruction.
    let text = "!!NVfp5.0\nBUFFER b[] = { program.buffer[1] };\nUINT TEMP o, l, a;\nMOV.U a, {0, 4, 0, 0};\nSTORE.U32 b[0], a.x;\nATOM.ADD.U32 o.x, b[1], a.y;\nLOAD.U32 l, b[2].x;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let mut env = mem_with(&[0, 10]);
    env.bound.push((
        glemu_programs::exec::MemRegion::ParamBuffer { binding: 1 },
        words(&[77, 5, 4]),
    ));
    let r = run_with(&p, 1, &[], env, |_| {});
    r.stats.expect("run");
    assert_eq!(
        (r.state.temp_lane(0, 0)[0], r.state.temp_lane(1, 0)[0]),
        (10, 15)
    );
    assert_eq!(r.env.mem, words(&[77, 15]));
}
