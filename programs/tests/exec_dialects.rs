//! Older dialects and the less common instructions: ARB/VP1 EXP, LOG, RSQ(|x|), XPD, SWZ,
//! KIL with an operand; VP1 ARL; FP1 precision suffixes; reconvergence after divergence.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod exec_util;
use exec_util::*;
use glemu_programs::exec::{Executor, LaneState};
use glemu_programs::ir::{InputBinding, OutputBinding, Stage, VaryingSlot};

fn vp(text: &str, pos: [f32; 4]) -> [f32; 4] {
    let p = assemble(text, Stage::Vertex);
    let slot = 0;
    let r = run_with(&p, 1, &[], TestEnv::default(), |st| {
        st.set_input_f32(slot, 0, pos);
    });
    r.stats.expect("run");
    r.state.output_f32(0, 0)
}

#[test]
fn arb_exp_log_rsq_xpd_swz() {
    let e = vp(
        "!!ARBvp1.0\nEXP result.position, vertex.position.x;\nEND\n",
        [2.5, 0.0, 0.0, 0.0],
    );
    assert_eq!(e[0], 4.0);
    assert_eq!(e[1], 0.5);
    assert!((e[2] - 2.5f32.exp2()).abs() < 1e-5);
    assert_eq!(e[3], 1.0);
    let l = vp(
        "!!ARBvp1.0\nLOG result.position, vertex.position.x;\nEND\n",
        [-12.0, 0.0, 0.0, 0.0],
    );
    assert_eq!(&l[..2], &[3.0, 1.5]);
    assert!((l[2] - 12f32.log2()).abs() < 1e-6);
    assert_eq!(l[3], 1.0);
    // ARB RSQ takes |x|.
    let r = vp(
        "!!ARBvp1.0\nRSQ result.position, vertex.position.x;\nEND\n",
        [-4.0, 0.0, 0.0, 0.0],
    );
    assert_eq!(r, [0.5; 4]);
    let x = vp(
        "!!ARBvp1.0\nPARAM b = {0, 1, 0, 0};\nXPD result.position.xyz, vertex.position, b;\nEND\n",
        [1.0, 0.0, 0.0, 0.0],
    );
    assert_eq!(&x[..3], &[0.0, 0.0, 1.0]);
    let s = vp(
        "!!ARBvp1.0\nSWZ result.position, vertex.position, -y, 1, 0, -x;\nEND\n",
        [2.0, 3.0, 0.0, 0.0],
    );
    assert_eq!(s, [-3.0, 1.0, 0.0, -2.0]);
}

#[test]
fn arb_kil_with_operand_kills_negative_lanes() {
    let p = assemble(
        "!!ARBfp1.0\nKIL fragment.color;\nMOV result.color, 1;\nEND\n",
        Stage::Fragment,
    );
    let r = run_with(&p, 4, &[], TestEnv::default(), |st| {
        st.set_input_f32(0, 0, [1.0, 1.0, 1.0, 1.0]);
        st.set_input_f32(0, 1, [1.0, -0.5, 1.0, 1.0]);
        st.set_input_f32(0, 2, [0.0, 0.0, 0.0, -0.0]);
        st.set_input_f32(0, 3, [1.0, 1.0, 1.0, -1e-30]);
    });
    r.stats.expect("run");
    assert_eq!(r.state.kill_mask(), 0b1010);
    // Killed lanes stop: their outputs keep the cleared value.
    assert_eq!(r.state.output_f32(0, 1), [0.0; 4]);
    assert_eq!(r.state.output_f32(0, 0), [1.0; 4]);
}

#[test]
fn vp1_arl_floors_and_indexes_constants() {
    let text = "!!VP1.0\nARL A0.x, v[OPOS].x;\nMOV o[HPOS], c[A0.x + 2];\nEND\n";
    let p = assemble(text, Stage::Vertex);
    let ex = Executor::new(p.clone());
    let mut st = LaneState::new(&p, 2);
    st.set_input_f32(0, 0, [1.7, 0.0, 0.0, 0.0]);
    st.set_input_f32(0, 1, [-2.5, 0.0, 0.0, 0.0]);
    let mut locals = vec![[0.0f32; 4]; 96];
    for (i, l) in locals.iter_mut().enumerate() {
        *l = [i as f32; 4];
    }
    let prm = params(&p, &locals);
    run_stage(&ex, &mut st, 0b11, &prm, &mut TestEnv::default()).expect("run");
    // floor(1.7) + 2 = 3; floor(-2.5) + 2 = -1 → out of range → zero.
    assert_eq!(st.output_f32(0, 0), [3.0; 4]);
    assert_eq!(st.output_f32(0, 1), [0.0; 4]);
    assert_eq!(st.address_lane(0, 1)[0], -3);
}

#[test]
fn fp1_half_and_fixed_precision() {
    // 1/3 rounded to fp16 (H) and to s1.10 fixed point (X); R keeps fp32.
    let text = "!!FP1.0\nMOVR R0, {0.33333334, 3.0, 0, 0};\nMOVH H2, R0;\nMOVX R1, R0;\nMOVR o[COLR], R0;\nMOVR o[COLR].y, H2.x;\nMOVR o[COLR].z, R1.x;\nMOVR o[COLR].w, R1.y;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let r = run_with(&p, 1, &[], TestEnv::default(), |_| {});
    r.stats.expect("run");
    let o = r.state.output_f32(0, 0);
    assert_eq!(o[0], 0.333_333_34);
    assert_eq!(o[1], half::f16::from_f32(0.333_333_34).to_f32());
    assert_eq!(o[2], (0.333_333_34f32 * 1024.0).round() / 1024.0);
    // Fixed point saturates below 2.
    assert_eq!(o[3], 2.0 - 1.0 / 1024.0);
}

#[test]
fn divergent_if_reconverges_after_endif() {
    // 2 + IF + 1 + ELSE + 1 + ENDIF + 10: a split batch issues both branches once and the
    // tail once (merged), not twice.
    let mut text = String::from(
        "!!NVfp4.0\nTEMP R0;\nMOV.CC R0, fragment.color;\nMOV R0, 0;\nIF GT.x;\nADD R0.x, R0.x, 1;\nELSE;\nADD R0.y, R0.y, 1;\nENDIF;\n",
    );
    for _ in 0..10 {
        text.push_str("ADD R0.z, R0.z, 1;\n");
    }
    text.push_str("MOV result.color, R0;\nEND\n");
    let p = assemble(&text, Stage::Fragment);
    let r = run_with(&p, 16, &[], TestEnv::default(), |st| {
        for l in 0..16 {
            st.set_input_f32(0, l, [l as f32 - 7.5, 0.0, 0.0, 0.0]);
        }
    });
    let s = r.stats.expect("run");
    assert_eq!(s.splits, 1);
    // MOV.CC, MOV, IF, ADD, ELSE (taken lanes), ADD, ENDIF x2 (not yet merged), 10 ADD, MOV.
    assert!(s.instructions <= 2 + 1 + 2 + 2 + 2 + 10 + 1, "{s:?}");
    assert_eq!(r.state.output_f32(0, 0), [0.0, 1.0, 10.0, 0.0]);
    assert_eq!(r.state.output_f32(0, 15), [1.0, 0.0, 10.0, 0.0]);
}

#[test]
fn pusha_popa_round_trip_the_address_register() {
    let text = "!!ARBvp1.0\nOPTION NV_vertex_program3;\nADDRESS A0;\nPARAM arr[8] = { program.env[0..7] };\nARL A0, {3, 4, 5, 6};\nPUSHA A0;\nARL A0, {0, 0, 0, 0};\nPOPA A0;\nMOV result.position, arr[A0.y];\nEND\n";
    let p = assemble(text, Stage::Vertex);
    let locals: Vec<[f32; 4]> = (0..8).map(|i| [i as f32; 4]).collect();
    let r = run_with(&p, 1, &locals, TestEnv::default(), |_| {});
    r.stats.expect("run");
    assert_eq!(r.state.output_f32(0, 0), [4.0; 4]);
    assert_eq!(r.state.address_lane(0, 0), [3, 4, 5, 6]);
}

#[test]
fn ddx_outside_fragment_programs_is_zero() {
    // Hand-built: a vertex program whose MOV is turned into DDX.
    let p = assemble(
        "!!NVvp4.0\nMOV result.position, vertex.position;\nEND\n",
        Stage::Vertex,
    );
    let mut prog = (*p).clone();
    prog.instructions[0].op = glemu_programs::ir::Opcode::Ddx;
    let p = std::sync::Arc::new(prog);
    let r = run_with(&p, 4, &[], TestEnv::default(), |st| {
        for l in 0..4 {
            st.set_input_f32(0, l, [l as f32 * 3.0; 4]);
        }
    });
    r.stats.expect("run");
    for l in 0..4 {
        assert_eq!(r.state.output_f32(0, l), [0.0; 4]);
    }
}

#[test]
fn cali_calls_the_function_the_application_selected() {
    let text = "!!NVfp5.0\nSUBROUTINETYPE st { f, g };\nSUBROUTINE st sv = program.subroutine[0];\nmain:\nCALI sv;\nRET;\nf SUBROUTINENUM(3):\nMOV result.color, 1;\nRET;\ng SUBROUTINENUM(5):\nMOV result.color, 2;\nRET;\nEND\n";
    let p = assemble(text, Stage::Fragment);
    let funcs = p.subroutine_vars[0].functions.clone();
    assert_eq!(funcs.len(), 2);
    for (func, at) in funcs {
        let env = TestEnv {
            subroutines: vec![func],
            ..Default::default()
        };
        let r = run_with(&p, 2, &[], env, |_| {});
        r.stats.expect("run");
        // The function at instruction `at` writes 1 (f, at 2) or 2 (g, at 4).
        let want = if at == 2 { 1.0 } else { 2.0 };
        assert_eq!(r.state.output_f32(0, 1), [want; 4]);
    }
    // An index no function has: the call is skipped and counted.
    let env = TestEnv {
        subroutines: vec![99],
        ..Default::default()
    };
    let r = run_with(&p, 1, &[], env, |_| {});
    assert_eq!(r.stats.expect("run").oob_reads, 1);
}

#[test]
fn vp3_address_register_indexes_texcoords_and_attribs() {
    // NV_vertex_program3: vertex.texcoord[A0.x + n], vertex.attrib[A0.x + n] and
    // result.texcoord[A0.x + n] pick the set the address register names at run time; the
    // direct result.texcoord[0] write lands in the same eight result slots.
    let text = "!!ARBvp1.0\nOPTION NV_vertex_program3;\nADDRESS A0;\nARL A0.x, program.env[0].x;\nMOV result.texcoord[A0.x + 1], vertex.texcoord[A0.x];\nADD result.texcoord[0], vertex.attrib[A0.x + 3], 0.5;\nMOV result.position, vertex.position;\nEND\n";
    let p = assemble(text, Stage::Vertex);
    let r = run_with(&p, 1, &[[2.0, 0.0, 0.0, 0.0]], TestEnv::default(), |st| {
        for (slot, input) in p.inputs.iter().enumerate() {
            let v = match input.binding {
                InputBinding::VertexTexCoord(n) => n as f32,
                InputBinding::VertexAttrib(n) => 100.0 + n as f32,
                _ => -1.0,
            };
            st.set_input_f32(slot, 0, [v; 4]);
        }
    });
    r.stats.expect("run");
    let out = |n: u32| {
        let slot = p
            .outputs
            .iter()
            .position(|o| o.binding == OutputBinding::Varying(VaryingSlot::TexCoord(n)))
            .expect("texcoord output");
        r.state.output_f32(slot, 0)[0]
    };
    assert_eq!((out(3), out(0)), (2.0, 105.5));
    let texcoord_slots = p
        .outputs
        .iter()
        .filter(|o| matches!(o.binding, OutputBinding::Varying(VaryingSlot::TexCoord(_))))
        .count();
    assert_eq!(texcoord_slots, 8, "one slot per texture coordinate set");
}
