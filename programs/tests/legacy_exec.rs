//! Legacy programs run on the shared executor: the lowering must mean what the specs say
//! (piglit's own expected values for the VP1 tests, hand-computed ones for the rest).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::assemble;
use glemu_programs::exec::{Executor, LaneState, NullEnv};
use glemu_programs::ir::{InputBinding, OutputBinding, ParamSource, Program, VaryingSlot};
use std::collections::HashMap;
use std::sync::Arc;

/// Runs one lane: `inputs` by binding, `env` by env parameter number; returns outputs by
/// binding.
fn run(
    text: &str,
    inputs: &[(InputBinding, [f32; 4])],
    env: &[(u32, [f32; 4])],
    locals: &[(u32, [f32; 4])],
) -> (Program, HashMap<OutputBinding, [f32; 4]>, bool) {
    let p = assemble(text, None).unwrap_or_else(|e| panic!("{}", e.render(text)));
    let params: Vec<[u32; 4]> = p
        .params
        .iter()
        .map(|s| match s {
            ParamSource::Constant(v) => *v,
            ParamSource::Env(n) => env
                .iter()
                .find(|e| e.0 == *n)
                .map_or([0; 4], |e| e.1.map(f32::to_bits)),
            ParamSource::Local(n) => locals
                .iter()
                .find(|e| e.0 == *n)
                .map_or([0; 4], |e| e.1.map(f32::to_bits)),
            ParamSource::Named { initial, .. } => *initial,
            ParamSource::State(_) => [0; 4],
        })
        .collect();
    let ex = Executor::new(Arc::new(p.clone()));
    let mut st: LaneState = ex.new_state(1);
    for (b, v) in inputs {
        if let Some(slot) = p.inputs.iter().position(|i| &i.binding == b) {
            assert!(st.set_input_f32(slot, 0, *v));
        }
    }
    ex.run(&mut st, 1, &params, &mut NullEnv).unwrap();
    let outs = p
        .outputs
        .iter()
        .enumerate()
        .map(|(i, o)| (o.binding.clone(), st.output_f32(i, 0)))
        .collect();
    let killed = st.kill_mask() & 1 != 0;
    (p, outs, killed)
}

fn close(a: [f32; 4], b: [f32; 4]) {
    for c in 0..4 {
        assert!((a[c] - b[c]).abs() < 1e-5, "{a:?} vs {b:?}");
    }
}

const COL0: OutputBinding = OutputBinding::Varying(VaryingSlot::Color {
    back: false,
    secondary: false,
});

fn piglit(name: &str) -> String {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/legacy")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn piglit_nv_add() {
    let (_, out, _) = run(
        &piglit("piglit_nv-add.txt"),
        &[(InputBinding::VertexTexCoord(0), [-0.1, 0.4, 1.7, 0.1])],
        &[(17, [0.3, -0.1, -1.2, 0.5])],
        &[],
    );
    close(out[&COL0], [0.2, 0.3, 0.5, 0.6]);
}

#[test]
fn piglit_nv_arl_relative_addressing() {
    let (_, out, _) = run(
        &piglit("piglit_nv-arl.txt"),
        &[(InputBinding::VertexTexCoord(0), [-2.0, 2.0, 5.0, 12.0])],
        &[
            (18, [0.7, -0.1, -0.1, -0.1]),
            (22, [-0.1, 0.5, -0.1, -0.1]),
            (25, [-0.1, -0.1, 1.1, -0.1]),
            (32, [-0.1, -0.1, -0.1, 0.8]),
        ],
        &[],
    );
    close(out[&COL0], [0.4, 0.2, 0.8, 0.5]);
}

#[test]
fn vp2_subroutine_branch_and_condition_codes() {
    // main: calls `double` twice on R0 = v[0] (x4), then takes the branch only when
    // R0.x > 10, skipping the write of 7.
    let text = "!!VP2.0
double:
  ADD R0, R0, R0;
  RET;
main:
  MOV R0, v[0];
  CAL double;
  CAL double;
  MOVC CC.x, R0.x;
  SGT R1.x, R0.x, c[0].x;
  MOVC CC.x, R1.x;
  MOV o[COL0], R0;
  BRA skip (GT.x);
  MOV o[COL0].y, c[0].y;
skip:
  MOV o[HPOS], v[0];
  MOV o[TEX0] (EQ.x), c[0];
END";
    let env = [(0, [10.0, 7.0, 0.0, 0.0])];
    let (p, out, _) = run(
        text,
        &[(InputBinding::VertexPosition, [3.0, 1.0, 2.0, 1.0])],
        &env,
        &[],
    );
    assert_eq!(p.entry, 2);
    close(out[&COL0], [12.0, 4.0, 8.0, 4.0]);
    let (_, out, _) = run(
        text,
        &[(InputBinding::VertexPosition, [2.0, 1.0, 2.0, 1.0])],
        &env,
        &[],
    );
    close(out[&COL0], [8.0, 7.0, 8.0, 4.0]);
    close(
        out[&OutputBinding::Varying(VaryingSlot::TexCoord(0))],
        [10.0, 7.0, 0.0, 0.0],
    );
}

#[test]
fn vsp_writes_env_parameter_outputs() {
    let (_, out, _) = run(
        "!!VSP1.0\nMOV R0, c[0].wzyx;\nADD c[2], R0, v[0];\nEND",
        &[(InputBinding::VertexAttrib(0), [1.0, 1.0, 1.0, 1.0])],
        &[(0, [1.0, 2.0, 3.0, 4.0])],
        &[],
    );
    close(out[&OutputBinding::EnvParam(2)], [5.0, 4.0, 3.0, 2.0]);
}

#[test]
fn vsp_reads_see_earlier_writes_and_partial_writes_keep_the_rest() {
    let (_, out, _) = run(
        "!!VSP1.0\nMOV c[2].x, v[0];\nADD c[3], c[2], c[2];\nEND",
        &[(InputBinding::VertexAttrib(0), [7.0, 0.0, 0.0, 0.0])],
        &[(2, [1.0, 2.0, 3.0, 4.0])],
        &[],
    );
    close(out[&OutputBinding::EnvParam(2)], [7.0, 2.0, 3.0, 4.0]);
    close(out[&OutputBinding::EnvParam(3)], [14.0, 4.0, 6.0, 8.0]);
}

#[test]
fn fp1_constants_locals_and_kil() {
    let text = "!!FP1.0
DEFINE k = {0.5, 2};
DECLARE bias = 0.25;
MAD R0, f[COL0], k.y, -k.w;
ADD R0, R0, bias;
MUL R0.w, R0.w, p[3].x;
MOVC RC, f[COL0].x;
KIL EQ.x;
MOV o[COLR], R0;
END";
    let (_, out, killed) = run(
        text,
        &[(
            InputBinding::FragColor { secondary: false },
            [1.0, 0.5, 0.0, 1.0],
        )],
        &[],
        &[(3, [3.0, 0.0, 0.0, 0.0])],
    );
    assert!(!killed);
    close(
        out[&OutputBinding::FragColor {
            target: 0,
            index: 0,
        }],
        [1.25, 0.25, -0.75, 3.75],
    );
    let (_, _, killed) = run(
        text,
        &[(
            InputBinding::FragColor { secondary: false },
            [0.0, 0.5, 0.0, 1.0],
        )],
        &[],
        &[],
    );
    assert!(killed);
}

#[test]
fn fp1_precision_suffixes_round() {
    // fx12 keeps 10 fraction bits and clamps to [-2, 2); fp16 rounds 1/3.
    let (_, out, _) = run(
        "!!FP1.0\nMOVX R0.x, 5;\nMOVX R0.y, 0.3;\nMOVH R0.z, 0.3333333;\nMOVR R0.w, 0.3333333;\nMOV o[COLR], R0;\nEND",
        &[],
        &[],
        &[],
    );
    let c = out[&OutputBinding::FragColor {
        target: 0,
        index: 0,
    }];
    assert_eq!(c[0], 2.0 - 1.0 / 1024.0);
    assert_eq!(c[1], (0.3f32 * 1024.0).round() / 1024.0);
    assert_eq!(c[2], half::f16::from_f32(0.333_333_3).to_f32());
    assert_eq!(c[3], 0.333_333_3);
}

#[test]
fn fp1_fp32_results_stored_in_h_registers_are_fp16() {
    let (_, out, _) = run(
        "!!FP1.0\nMOVR H0.x, 0.3333333;\nMOVR R1, H0;\nMOV o[COLR], R1;\nEND",
        &[],
        &[],
        &[],
    );
    let c = out[&OutputBinding::FragColor {
        target: 0,
        index: 0,
    }];
    assert_eq!(c[0], half::f16::from_f32(0.333_333_3).to_f32());
}

/// Every opcode the legacy front ends emit runs (no "not supported" from the executor).
#[test]
fn every_legacy_opcode_executes() {
    let programs = [
        "!!VP1.1
ARL A0.x, v[0].x;
MOV R0, v[0];
LIT R1, R0;
RCP R2.x, R0.w;
RSQ R2.y, R0.x;
EXP R3, R0.y;
LOG R4, R0.z;
MUL R5, R0, c[1];
ADD R5, R5, -c[A0.x + 4];
DP3 R6.x, R0, c[2];
DP4 o[HPOS].x, R0, c[3];
DST R7, R0, R1;
MIN R8, R0, R1.xxxx;
MAX R9, R0, R1.w;
SLT R10, R0, c[A0.x - 64];
SGE R11, R0, R1;
MAD o[COL0], R0, c[95], R11;
ABS R0, -v[0];
RCC R1.x, R0.y;
DPH R2, R0, c[4];
SUB o[COL1], R0, c[5];
END",
        "!!VP2.0
ARL A0, v[0];
ARR A1.xy, v[0].yxzw;
ARAC A0.zw (NE), A0;
MOV R15, c[A1.w + 255];
FLR R1, v[0];
FRC R2, v[0];
SSG R3, v[0];
COS R0.x, R1.y;
SIN R0.y, -|R1.x|;
EX2 R0.z, R1.z;
LG2C R0.w, R1.w;
SEQ R4, R1, R2;
SFL R4, R1, R2;
SGT R4, R1, R2;
SLE R4, R1, R2;
SNE R4, R1, R2;
STR R4, R1, R2;
MOVC CC, R1;
MOV o[CLP0].x (LE.z), R2;
MOV o[HPOS], R4;
END",
        "!!VSP1.0\nMOV R0, v[0];\nMUL c[3], R0, c[A0.x + 1];\nEND",
        "!!FP1.0
DDX R0, f[TEX0];
DDYH H0, f[TEX0];
FLRX H1, R0;
FRCC R1, R0;
LITR_SAT R2, R0;
MOVHC_SAT RC, R0;
PK2H R3.x, R0;
PK2US R3.y, R0;
PK4B R3.z, R0;
PK4UB R3.w, R0;
COS R4.x, R0.x;
EX2R R4.y, R0.y;
LG2H H2.z, R0.z;
RCPC R4.w, |R0.w|;
RSQ_SAT R5.x, -R0.x;
SINRC_SAT R5.y, R0.y;
UP2H H3, R3.x;
UP2US R6, R3.y;
UP4B R7, R3.z;
UP4UBC R8, R3.w;
POW R9.x, R0.x, 0.5;
DST R11, R0, R1;
RFL R13.xyz, R0, R1;
SFL R14, R0, R1;
STR R14, R0, R1;
SUB R14, R0, R1;
LRP R15, R0, R1, R2;
X2D R15, R0, R1, R2;
KIL NE.xyzw;
MOV o[COLR], R15;
END",
    ];
    for text in programs {
        let p = assemble(text, None).unwrap_or_else(|e| panic!("{}", e.render(text)));
        let params = vec![[0x3f00_0000u32; 4]; p.params.len()];
        let ex = Executor::new(Arc::new(p));
        let mut st = ex.new_state(4);
        for l in 0..4 {
            for slot in 0..st_inputs(&ex) {
                st.set_input_f32(slot, l, [0.25 * l as f32, 1.5, -2.0, 0.75]);
            }
        }
        if let Err(e) = ex.run(&mut st, 0xF, &params, &mut NullEnv) {
            panic!("{e:?}\n{text}");
        }
    }
}

fn st_inputs(ex: &Executor) -> usize {
    ex.program().inputs.len()
}
