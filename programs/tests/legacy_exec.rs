//! Legacy programs run on the shared executor: the lowering must mean what the specs say
//! (piglit's own expected values for the VP1 tests, hand-computed ones for the rest).

use glemu_programs::assemble;
use glemu_programs::exec::{Env, Executor, LaneState};
use glemu_programs::ir::{InputBinding, OutputBinding, ParamSource, Program, VaryingSlot};
use std::collections::HashMap;
use std::sync::Arc;

struct NoEnv;
impl Env for NoEnv {}

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
    ex.run(&mut st, 1, &params, &mut NoEnv).unwrap();
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
