//! Executor throughput in lane-instructions per second (one core).
//!
//! - `alu64`: a 64-instruction ALU fragment program;
//! - `fill_1080p_fp`: the 10-instruction fragment program of
//!   `shared/oracle/bench_scenes/fill_1080p.shader_test` (its TEX goes to a trivial
//!   environment, so this measures the executor, not filtering);
//! - `vp_4dp4`: a vertex program of four DP4s.
//!
//! Each program runs on the interpreter (`NAME`) and as native code (`NAME/native`);
//! the fragment programs also as a fully covered block's four strips (`NAME/block`,
//! `exec::BlockProgram`).
//! Each iteration runs 64 batches of 16 lanes; throughput is reported per lane-instruction
//! (counted by the interpreter, so both backends divide the same work).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic
#![allow(clippy::needless_range_loop)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glemu_programs::exec::{
    Backend, BlockProgram, Env, EnvError, Executor, LaneState, TexCall, Vec4, MAX_LANES,
};
use glemu_programs::ir::{ParamSource, Stage};
use std::hint::black_box;
use std::sync::Arc;

struct BenchEnv;

impl Env for BenchEnv {
    fn texture(&mut self, call: &TexCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
        for c in 0..4 {
            for l in 0..MAX_LANES {
                out[c][l] = call.coord[c & 1][l];
            }
        }
        Ok(())
    }
}

const FILL_FP: &str = "!!ARBfp1.0
PARAM k0 = program.env[0];
PARAM k1 = program.env[1];
TEMP t0, t1, t2;
TEX t0, fragment.texcoord[0], texture[0], 2D;
MUL t1, t0, k0;
MAD t1, fragment.color, k1, t1;
DP3 t2.x, t1, k0;
ADD t2.y, t1.y, k1.x;
MUL t2.z, t2.x, t2.y;
LRP t1, k1.w, t1, t0;
MAD t1.xyz, t2.z, k1, t1;
MIN t1, t1, k0.w;
MOV result.color, t1;
END
";

const VP_4DP4: &str = "!!ARBvp1.0
PARAM m[4] = { program.env[0..3] };
DP4 result.position.x, m[0], vertex.position;
DP4 result.position.y, m[1], vertex.position;
DP4 result.position.z, m[2], vertex.position;
DP4 result.position.w, m[3], vertex.position;
END
";

fn alu64() -> String {
    let ops = [
        "MAD t0, t1, k0, t2;",
        "MUL t1, t0, k1;",
        "ADD t2, t1, -t0;",
        "DP3 t3.x, t0, t2;",
        "MIN t1, t1, t3.x;",
        "MAX t2, t2, k0;",
        "DP4 t3.y, t1, t2;",
        "LRP t0, k1.w, t1, t2;",
    ];
    let mut s = String::from(
        "!!ARBfp1.0\nPARAM k0 = program.env[0];\nPARAM k1 = program.env[1];\nTEMP t0, t1, t2, t3;\nMOV t0, fragment.color;\nMOV t1, fragment.texcoord[0];\nMOV t2, k0;\n",
    );
    for i in 0..60 {
        s.push_str(ops[i % ops.len()]);
        s.push('\n');
    }
    s.push_str("MOV result.color, t0;\nEND\n");
    s
}

/// bench/scenes/alu_flow_1080p.nv.shader_test's fragment program (its vertex program's
/// texcoord scale folded in): a 6-iteration REP around a data-dependent IF/ELSE.
const ALU_FLOW_FP: &str = r#"!!NVfp5.0
PARAM k = {0.37, 0.61, 0.83, 1.13};
PARAM m = {1.7, 2.3, 0.5, 0.25};
TEMP p, a, t, u;
MUL p, fragment.texcoord[0], {7.3, 5.1, 0.0, 1.0};
MOV a, {0.0, 0.0, 0.0, 1.0};
REP 6;
  MAD p.xy, p.yxzw, m, k.zwxy;
  FRC p.xy, p;
  MUL t.x, p.x, p.y;
  SGT.CC t.y, t.x, 0.25;
  IF GT.y;
    MAD a.xyz, p.xyxw, k, a;
    MUL a.z, a.z, 0.5;
  ELSE;
    ADD a.xyz, a, t.x;
    MUL a.xy, a, 0.75;
  ENDIF;
ENDREP;
DP3 t.x, a, a;
ADD t.x, t.x, 1.0;
RSQ t.y, t.x;
MUL u.xyz, a, t.y;
LG2 t.z, t.x;
MUL t.z, t.z, -0.5;
EX2 t.w, t.z;
SIN u.w, a.x;
COS t.x, a.y;
MAD u.xyz, u, t.w, k;
MUL u.xy, u, t.x;
ADD u.z, u.z, u.w;
MAX u.xyz, u, -u;
MIN u.xyz, u, 4.0;
MAD u.xyz, u, k.yzxw, m.wzyx;
DP3 t.y, u, k;
MUL u.xyz, u, t.y;
FRC u.xyz, u;
MAD u.xyz, u, u, -u;
ADD u.xyz, -u, u.zxyw;
ABS u.xyz, u;
MUL u.xyz, u, 3.0;
MOV u.w, 1.0;
MOV result.color, u;
END
"#;

fn bench_program(c: &mut Criterion, name: &str, text: &str, stage: Stage) {
    bench_backend(c, name, text, stage, Backend::Interpreter);
    bench_backend(c, &format!("{name}/native"), text, stage, Backend::Native);
    if stage == Stage::Fragment {
        bench_block(c, &format!("{name}/block"), text);
    }
}

fn params_of(p: &glemu_programs::ir::Program) -> Vec<[u32; 4]> {
    p.params
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            ParamSource::Constant(v) => *v,
            _ => [0.5f32 + i as f32 * 0.1, 0.25, 0.75, 1.0].map(f32::to_bits),
        })
        .collect()
}

/// Four strips at a time through [`BlockProgram`] (programs it does not take are skipped).
fn bench_block(c: &mut Criterion, name: &str, text: &str) {
    let p = Arc::new(glemu_programs::assemble(text, Some(Stage::Fragment)).expect("program"));
    let Ok(bp) = BlockProgram::new(&p) else {
        return;
    };
    let params = params_of(&p);
    let mut st = bp.new_state(&params).expect("parameters");
    for slot in 0..p.inputs.len() {
        for s in 0..4 {
            if let Some(r) = bp.input_mut(&mut st, slot, s) {
                for l in 0..MAX_LANES {
                    let v = [(s * 16 + l) as f32 * 0.01, 0.5, 0.25, 1.0];
                    for c in 0..4 {
                        r[c][l] = v[c].to_bits();
                    }
                }
            }
        }
    }
    let mut ls = LaneState::new(&p, MAX_LANES);
    let all = ls.all_lanes();
    let per_strip = Executor::new(p.clone())
        .run(&mut ls, all, &params, &mut BenchEnv)
        .expect("bench run")
        .lane_instructions;
    // As many lanes as the other benches' 64 batches.
    const BLOCKS: u64 = 16;
    let mut g = c.benchmark_group("exec");
    g.throughput(Throughput::Elements(per_strip * 4 * BLOCKS));
    g.bench_function(name, |b| {
        b.iter(|| {
            for _ in 0..BLOCKS {
                let r = bp.run(&p, &mut st, 4, &mut BenchEnv);
                black_box(&r);
            }
        })
    });
    g.finish();
}

fn bench_backend(c: &mut Criterion, name: &str, text: &str, stage: Stage, backend: Backend) {
    let p = Arc::new(glemu_programs::assemble(text, Some(stage)).expect("bench program"));
    let params = params_of(&p);
    let ex = Executor::new(p.clone()).with_backend(backend);
    if backend != Backend::Interpreter {
        assert_eq!(ex.native_status(), Some(Ok(())), "{name} does not compile");
    }
    let mut st = LaneState::new(&p, MAX_LANES);
    for slot in 0..p.inputs.len() {
        for l in 0..MAX_LANES {
            st.set_input_f32(slot, l, [l as f32 * 0.01, 0.5, 0.25, 1.0]);
        }
    }
    let all = st.all_lanes();
    let per_batch = Executor::new(p.clone())
        .run(&mut st, all, &params, &mut BenchEnv)
        .expect("bench run")
        .lane_instructions;
    const BATCHES: u64 = 64;
    let mut g = c.benchmark_group("exec");
    g.throughput(Throughput::Elements(per_batch * BATCHES));
    g.bench_function(name, |b| {
        b.iter(|| {
            for _ in 0..BATCHES {
                let r = ex.run(&mut st, all, black_box(&params), &mut BenchEnv);
                black_box(&r);
            }
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    bench_program(c, "alu64", &alu64(), Stage::Fragment);
    bench_program(c, "fill_1080p_fp", FILL_FP, Stage::Fragment);
    bench_program(c, "vp_4dp4", VP_4DP4, Stage::Vertex);
    bench_program(c, "alu_flow_fp", ALU_FLOW_FP, Stage::Fragment);
}

criterion_group!(exec_benches, benches);
criterion_main!(exec_benches);
