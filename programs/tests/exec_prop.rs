//! Random programs never panic and give identical results at batch width 1 and 16.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod exec_util;
use exec_util::*;
use glemu_programs::exec::{Executor, LaneState, MAX_LANES};
use glemu_programs::ir::Stage;
use proptest::prelude::*;

const FOPS: &[&str] = &[
    "ADD", "MUL", "MIN", "MAX", "SLT", "SGE", "SNE", "SUB", "DP3", "DP4", "DPH",
];
const FOPS1: &[&str] = &[
    "FRC", "FLR", "ABS", "RCP", "RSQ", "EX2", "LG2", "SIN", "COS", "SSG", "MOV", "CEIL", "ROUND",
    "TRUNC", "NRM",
];
const IOPS: &[&str] = &[
    "ADD.S", "MUL.S", "AND.S", "OR.S", "XOR.S", "MIN.S", "MAX.S", "SUB.S",
];
const SWZ: &[&str] = &["", ".x", ".yzwx", ".wwzz", ".y", ".zxyw"];
const MASK: &[&str] = &["", ".x", ".yw", ".xyz", ".w"];
const CC: &[&str] = &["GT", "LT", "EQ", "NE", "GE", "LE"];

fn pick<'a>(t: &[&'a str], b: u8) -> &'a str {
    t[b as usize % t.len()]
}

/// Build a balanced NVfp5 program from byte tokens: temps R0..R3 (float), I0..I1 (int).
fn build(tokens: &[[u8; 5]]) -> String {
    let mut body = String::new();
    let mut open: Vec<&str> = Vec::new();
    let freg = |b: u8| format!("R{}", b % 4);
    let ireg = |b: u8| format!("I{}", b % 2);
    for t in tokens {
        let [k, a, b, c, d] = *t;
        let line = match k % 16 {
            0..=4 => format!(
                "{}{} {}{}, {}{}, {}{};",
                pick(FOPS, a),
                if d % 5 == 0 { ".CC" } else { "" },
                freg(b),
                pick(MASK, c),
                if d % 3 == 0 { "-" } else { "" },
                freg(c),
                freg(d),
                pick(SWZ, a / 7)
            ),
            5..=7 => {
                let op = pick(FOPS1, a);
                let scalar = matches!(op, "RCP" | "RSQ" | "EX2" | "LG2" | "SIN" | "COS");
                let comp = if scalar {
                    pick(&[".x", ".y", ".z", ".w"], b / 4)
                } else {
                    ""
                };
                let bar = if d % 2 == 0 { "|" } else { "" };
                format!(
                    "{}{} {}{}, {bar}{}{comp}{bar};",
                    op,
                    if d % 4 == 0 { ".SAT" } else { "" },
                    freg(b),
                    if op == "NRM" { ".xyz" } else { pick(MASK, c) },
                    freg(c),
                )
            }
            8 => format!("{} {}, {}, {};", pick(IOPS, a), ireg(b), ireg(c), ireg(d)),
            9 => format!("FLR.S {}, {};", ireg(b), freg(c)),
            10 => format!(
                "MOV{} {} ({}.{}), {};",
                if a % 2 == 0 { ".CC" } else { "" },
                freg(b),
                pick(CC, c),
                pick(&["x", "y", "z", "w"], d),
                freg(a)
            ),
            11 if open.len() < 4 => {
                open.push("ENDIF");
                format!("IF {}.{};", pick(CC, c), pick(&["x", "y", "z", "w"], d))
            }
            12 if open.len() < 4 => {
                open.push("ENDREP");
                if a % 2 == 0 {
                    format!("REP.S {{{}}}.x;", a % 4)
                } else {
                    // A per-lane count in 0..=3: lanes split by count.
                    format!("AND.S I1.x, {}.x, {{3}}.x;\nREP.S I1.x;", ireg(b))
                }
            }
            13 if open.contains(&"ENDREP") => {
                if a % 2 == 0 {
                    format!("BRK ({}.{});", pick(CC, c), pick(&["x", "y"], d))
                } else {
                    format!("CONT ({}.{});", pick(CC, c), pick(&["z", "w"], d))
                }
            }
            14 => match open.last() {
                Some(&"ENDIF") if a % 3 == 0 => {
                    open.pop();
                    open.push("ENDIF ");
                    "ELSE;".to_string()
                }
                Some(e) => {
                    let e = e.trim().to_string();
                    open.pop();
                    format!("{e};")
                }
                None => format!("KIL {}.{};", pick(CC, c), pick(&["x", "y"], d)),
            },
            _ => format!("CAL f{} ({}.x);", a % 2, pick(CC, c)),
        };
        body.push_str(&line);
        body.push('\n');
    }
    while let Some(e) = open.pop() {
        body.push_str(e.trim());
        body.push_str(";\n");
    }
    format!(
        "!!NVfp5.0\nOPTION ARB_draw_buffers;\nTEMP R0, R1, R2, R3;\nINT TEMP I0, I1;\nmain:\nMOV R0, fragment.color;\nMOV R1, fragment.texcoord[0];\nMOV R2, -fragment.color.yzwx;\nMOV R3, 0.5;\nFLR.S I0, fragment.texcoord[0];\nMOV.S I1, 3;\nMOV.CC R3, R0;\n{body}MOV result.color, R0;\nMOV result.color[1], R1;\nRET;\nf0:\nADD R1, R1, R2;\nMOV.CC R2, -R2;\nRET (GT.x);\nMUL R0, R0, 0.5;\nRET;\nf1:\nSUB R2, R2, R0;\nREP.S {{2}}.x;\nADD R3, R3, 1;\nBRK (LT.y);\nENDREP;\nRET;\nEND\n"
    )
}

fn lane_input(vals: &[f32], l: usize, k: usize) -> [f32; 4] {
    let at = |i: usize| vals[(l * 8 + k * 4 + i) % vals.len()];
    [at(0), at(1), at(2), at(3)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    #[test]
    fn width_one_equals_width_sixteen(
        tokens in proptest::collection::vec(any::<[u8; 5]>(), 1..40),
        vals in proptest::collection::vec(prop_oneof![
            -4.0f32..4.0,
            Just(0.0f32), Just(-0.0f32), Just(f32::INFINITY), Just(f32::NAN), Just(1e-40f32)
        ], 8..64),
    ) {
        let text = build(&tokens);
        let p = match glemu_programs::assemble(&text, Some(Stage::Fragment)) {
            Ok(p) => std::sync::Arc::new(p),
            Err(e) => panic!("generator made an invalid program: {}\n{text}", e.render(&text)),
        };
        let ex = Executor::new(p.clone());
        let prm = params(&p, &[]);
        let mut batch = LaneState::new(&p, MAX_LANES);
        for l in 0..MAX_LANES {
            batch.set_input_f32(0, l, lane_input(&vals, l, 0));
            batch.set_input_f32(1, l, lane_input(&vals, l, 1));
        }
        let all = batch.all_lanes();
        let rb = run_stage(&ex, &mut batch, all, &prm, &mut TestEnv::default());
        for l in 0..MAX_LANES {
            let mut one = LaneState::new(&p, 1);
            one.set_input_f32(0, 0, lane_input(&vals, l, 0));
            one.set_input_f32(1, 0, lane_input(&vals, l, 1));
            let r1 = run_stage(&ex, &mut one, 1, &prm, &mut TestEnv::default());
            prop_assert_eq!(rb.is_ok(), r1.is_ok(), "{}", text);
            if rb.is_err() {
                continue;
            }
            prop_assert_eq!((batch.kill_mask() >> l) & 1, one.kill_mask() & 1);
            for o in 0..p.outputs.len() {
                prop_assert_eq!(batch.output_lane(o, l), one.output_lane(o, 0), "lane {} output {}\n{}", l, o, text);
            }
            for t in 0..p.temps.len() {
                prop_assert_eq!(batch.temp_lane(t, l), one.temp_lane(t, 0), "lane {} temp {}\n{}", l, t, text);
            }
        }
    }
}

/// The generator does produce divergent programs (so the property above compares real
/// splits, not just uniform runs).
#[test]
fn generated_programs_diverge() {
    // IF on a per-lane condition, then a per-lane REP count.
    let text = build(&[[11, 0, 0, 0, 0], [12, 1, 0, 0, 0], [0, 1, 1, 1, 1]]);
    let p = std::sync::Arc::new(
        glemu_programs::assemble(&text, Some(Stage::Fragment)).expect("valid program"),
    );
    let ex = Executor::new(p.clone());
    let mut st = LaneState::new(&p, MAX_LANES);
    for l in 0..MAX_LANES {
        st.set_input_f32(0, l, [l as f32 - 8.0, 1.0, -1.0, 0.5]);
        st.set_input_f32(1, l, [(l % 4) as f32, 0.0, 0.0, 0.0]);
    }
    let all = st.all_lanes();
    let s = ex
        .run(&mut st, all, &params(&p, &[]), &mut TestEnv::default())
        .expect("run");
    assert!(s.splits >= 2, "{s:?}\n{text}");
}
