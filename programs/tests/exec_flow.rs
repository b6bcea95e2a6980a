//! Divergence: a batch where lanes take different paths through nested flow control
//! gives exactly what running each lane alone gives.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod exec_util;
use exec_util::*;
use glemu_programs::exec::{ExecErrorKind, Executor, LaneState};
use glemu_programs::ir::{Program, Stage};
use std::sync::Arc;

/// Run `p` on 16 lanes whose input 0 is `input(lane)`, once as a batch and once lane by
/// lane; assert outputs, kill masks and errors agree; return the batch state.
fn batch_equals_alone(p: &Arc<Program>, input: impl Fn(usize) -> [f32; 4]) -> LaneState {
    let ex = Executor::new(p.clone());
    let prm = params(p, &[]);
    let mut batch = LaneState::new(p, 16);
    for l in 0..16 {
        batch.set_input_f32(0, l, input(l));
    }
    let all = batch.all_lanes();
    let stats = run_stage(&ex, &mut batch, all, &prm, &mut TestEnv::default()).expect("batch run");
    for l in 0..16 {
        let mut one = LaneState::new(p, 1);
        one.set_input_f32(0, 0, input(l));
        run_stage(&ex, &mut one, 1, &prm, &mut TestEnv::default()).expect("single run");
        for o in 0..p.outputs.len() {
            assert_eq!(
                batch.output_lane(o, l),
                one.output_lane(o, 0),
                "lane {l} output {o}"
            );
        }
        assert_eq!(
            (batch.kill_mask() >> l) & 1,
            one.kill_mask() & 1,
            "lane {l} kill"
        );
    }
    assert!(stats.lane_instructions >= stats.instructions);
    batch
}

const NESTED: &str = "!!NVfp4.0
TEMP R1;
INT TEMP i, n, t;
main:
MOV R1, 0;
FLR.S n, fragment.color;
MOV.S i, 0;
REP.S n.x;
  ADD.S i.x, i.x, 1;
  MOD.S t.y, i.x, {3}.x;
  MOV.S.CC t.z, t.y;
  IF EQ.z;
    ADD R1.y, R1.y, 10;
    CONT;
  ENDIF;
  SGT.S.CC t.w, i.x, n.y;
  BRK (NE.w);
  CAL sub;
  REP.S {2}.x;
    ADD R1.w, R1.w, 1;
    MOV.S.CC t.x, n.z;
    BRK (GT.x);
  ENDREP;
ENDREP;
MOV.S.CC t.x, n.w;
KIL LT.x;
MOV result.color, R1;
RET;
sub:
  ADD R1.x, R1.x, 1;
  MOV.S.CC t.z, i.x;
  SGT.S.CC t.z, i.x, {4}.x;
  RET (NE.z);
  ADD R1.z, R1.z, 1;
  RET;
END
";

#[test]
fn nested_flow_batch_equals_each_lane_alone() {
    let p = assemble(NESTED, Stage::Fragment);
    let input = |l: usize| {
        [
            l as f32,
            (l % 5) as f32,
            (l % 3) as f32 - 1.0,
            if l % 4 == 1 { -1.0 } else { 1.0 },
        ]
    };
    let st = batch_equals_alone(&p, input);
    // Spot-check lane 7 by hand: 7 iterations, break when i > 2 (n.y = 2): i=1: sub
    // (x+1, z+1), inner REP: n.z = 0 → two w increments; i=2: same; i=3: %3==0 →
    // y += 10, CONT; i=4 > 2 → BRK.
    assert_eq!(st.output_f32(0, 7), [2.0, 10.0, 2.0, 4.0]);
    // Lanes with n.w < 0 were killed.
    for l in 0..16 {
        assert_eq!((st.kill_mask() >> l) & 1 == 1, l % 4 == 1, "lane {l}");
    }
}

#[test]
fn zero_and_negative_rep_counts_skip_the_block() {
    let p = assemble(
        "!!NVfp4.0\nTEMP R0;\nINT TEMP n;\nFLR.S n, fragment.color;\nMOV R0, 0;\nREP.S n.x;\nADD R0.x, R0.x, 1;\nENDREP;\nREP fragment.color.y;\nADD R0.y, R0.y, 1;\nENDREP;\nMOV result.color, R0;\nEND\n",
        Stage::Fragment,
    );
    let st = batch_equals_alone(&p, |l| [l as f32 - 3.0, 2.7 - l as f32 * 0.5, 0.0, 0.0]);
    assert_eq!(st.output_f32(0, 0)[..2], [0.0, 2.0]);
    assert_eq!(st.output_f32(0, 5)[..2], [2.0, 0.0]);
}

#[test]
fn runaway_loop_ends_with_budget_error() {
    let p = assemble(
        "!!NVfp4.0\nTEMP R0;\nMOV R0, 0;\nREP;\nADD R0.x, R0.x, 1;\nMOV.CC R0.y, -1;\nBRK (GT.y);\nENDREP;\nMOV result.color, R0;\nEND\n",
        Stage::Fragment,
    );
    let ex = Executor::new(p.clone()).with_budget(1000);
    let mut st = LaneState::new(&p, 4);
    let e = ex
        .run(&mut st, 0xf, &params(&p, &[]), &mut TestEnv::default())
        .expect_err("must stop");
    assert_eq!(e.kind, ExecErrorKind::BudgetExceeded(1000));
    assert!(e.inst > 0 && e.span.end > e.span.start);
}

#[test]
fn recursion_overflows_the_call_stack() {
    let p = assemble(
        "!!NVfp4.0\nmain:\nCAL f;\nMOV result.color, 1;\nRET;\nf:\nCAL f;\nRET;\nEND\n",
        Stage::Fragment,
    );
    let ex = Executor::new(p.clone());
    let mut st = LaneState::new(&p, 1);
    let e = ex
        .run(&mut st, 1, &params(&p, &[]), &mut TestEnv::default())
        .expect_err("overflow");
    assert_eq!(e.kind, ExecErrorKind::CallStackOverflow);
}

#[test]
fn subroutine_ends_at_the_next_label() {
    // f has no RET: reaching label g returns to the caller.
    let p = assemble(
        "!!NVfp4.0\nTEMP R0;\nmain:\nMOV R0, 0;\nCAL f;\nADD R0.y, R0.y, 1;\nMOV result.color, R0;\nRET;\nf:\nADD R0.x, R0.x, 1;\ng:\nADD R0.x, R0.x, 100;\nRET;\nEND\n",
        Stage::Fragment,
    );
    let st = batch_equals_alone(&p, |_| [0.0; 4]);
    assert_eq!(st.output_f32(0, 0)[..2], [1.0, 1.0]);
}

#[test]
fn conditional_call_and_return_diverge() {
    let p = assemble(
        "!!NVfp4.0\nTEMP R0;\nmain:\nMOV R0, 0;\nMOV.CC R0.z, fragment.color.x;\nCAL f (GT.z);\nCAL f (LT.z);\nMOV result.color, R0;\nRET;\nf:\nADD R0.x, R0.x, 1;\nRET (LT.z);\nADD R0.y, R0.y, 1;\nRET;\nEND\n",
        Stage::Fragment,
    );
    let st = batch_equals_alone(&p, |l| [l as f32 - 8.0, 0.0, 0.0, 0.0]);
    assert_eq!(st.output_f32(0, 0)[..3], [1.0, 0.0, -8.0]);
    assert_eq!(st.output_f32(0, 8)[..3], [0.0, 0.0, 0.0]);
    assert_eq!(st.output_f32(0, 9)[..3], [1.0, 1.0, 1.0]);
}

#[test]
fn fragment_program2_loops_and_breaks() {
    // LOOP {3, 1, 2}: three iterations; the inner BRK leaves only the REP.
    let p = assemble(
        "!!ARBfp1.0\nOPTION NV_fragment_program2;\nTEMP R0;\nPARAM c = {3, 1, 2, 0};\nMOV R0, 0;\nMOVC R0.w, fragment.color.x;\nLOOP c;\nADD R0.y, R0.y, 1;\nREP c.x;\nADD R0.x, R0.x, 1;\nBRK (GT.w);\nENDREP;\nENDLOOP;\nMOV R0.w, 0;\nMOV result.color, R0;\nEND\n",
        Stage::Fragment,
    );
    let st = batch_equals_alone(&p, |l| [l as f32 - 1.0, 0.0, 0.0, 0.0]);
    assert_eq!(st.output_f32(0, 0)[..2], [9.0, 3.0]);
    assert_eq!(st.output_f32(0, 2)[..2], [3.0, 3.0]);
}

#[test]
fn branches_in_vp2_follow_each_lane() {
    let text = "!!VP2.0\nMOV R0, v[OPOS];\nMOV R1, c[0];\nMOVC R2.x, v[OPOS].x;\nBRA neg (LT.x);\nADD R1, R1, R0;\nBRA done;\nneg:\nADD R1, R1, -R0;\ndone:\nMOV o[HPOS], R1;\nEND\n";
    let p = assemble(text, Stage::Vertex);
    let st = batch_equals_alone(&p, |l| [l as f32 - 8.0, 1.0, 2.0, 3.0]);
    let hpos = 0;
    assert_eq!(st.output_f32(hpos, 3)[0], 5.0);
    assert_eq!(st.output_f32(hpos, 12)[0], 4.0);
}

#[test]
fn malformed_compiled_forms_are_errors_not_panics() {
    use glemu_programs::ir::{Extra, Index, IndexReg};
    let base = assemble(
        "!!NVfp4.0\nTEMP R0;\nMOV.CC R0, fragment.color;\nIF GT.x;\nADD R0, R0, 1;\nENDIF;\nREP {2}.x;\nADD R0, R0, 1;\nENDREP;\nMOV result.color, R0;\nEND\n",
        Stage::Fragment,
    );
    let n = base.instructions.len();
    let mut variants: Vec<Program> = Vec::new();
    for i in 0..n {
        // Jump targets far out of range.
        let mut p = (*base).clone();
        if let Extra::Flow { target, .. } = &mut p.instructions[i].extra {
            *target = u32::MAX;
            variants.push(p);
        }
        // Missing operands.
        let mut p = (*base).clone();
        p.instructions[i].srcs.clear();
        variants.push(p);
        // Relative index through a register that does not exist.
        let mut p = (*base).clone();
        if let Some(s) = p.instructions[i].srcs.first_mut() {
            s.index = Index::Relative {
                reg: IndexReg::Address { reg: 9, comp: 0 },
                offset: -5,
                base: u32::MAX,
                len: u32::MAX,
            };
            variants.push(p);
        }
    }
    let mut p = (*base).clone();
    p.entry = u32::MAX;
    variants.push(p);
    let mut errors = 0;
    for v in variants {
        let v = Arc::new(v);
        let ex = Executor::new(v.clone()).with_budget(10_000);
        let mut st = LaneState::new(&v, 16);
        for l in 0..16 {
            st.set_input_f32(0, l, [l as f32 - 8.0; 4]);
        }
        if ex
            .run(&mut st, 0xffff, &params(&v, &[]), &mut TestEnv::default())
            .is_err()
        {
            errors += 1;
        }
    }
    assert!(errors > 5, "{errors}");
}
