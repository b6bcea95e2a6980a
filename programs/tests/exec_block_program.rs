//! Straight-line programs over a block's strips (`exec::BlockProgram`) against the
//! reference: the same program run strip by strip in the interpreter. Random programs of
//! every opcode the block executor takes, with swizzles, negation, absolute values, write
//! masks and both saturations, over inputs that probe the specials (NaN payloads, ±0,
//! infinities, denormals); texture instructions through a site, a declining site and the
//! environment. Every output component and every strip is compared bit for bit, under
//! each instruction set the CPU has.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::assemble;

mod exec_util;
use exec_util::texel_lookup as lookup;
use glemu_programs::exec::{
    Backend, BlockProgram, Env, EnvError, Executor, TexCall, TexOp, TexSite, TexSites, Vec4,
    MAX_LANES,
};
use glemu_programs::ir::{ParamSource, Program};
use proptest::prelude::*;
use std::sync::Arc;

struct Site {
    unit: u32,
    op: TexOp,
    decline: bool,
}

impl TexSite for Site {
    fn sample(&self, coord: &Vec4, mask: u32, out: &mut Vec4) -> bool {
        if self.decline {
            return false;
        }
        lookup(self.unit, self.op, coord, mask, out);
        true
    }
}

#[derive(Default)]
struct Sampling {
    sites: Option<TexSites>,
}

impl Env for Sampling {
    fn texture(&mut self, call: &TexCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
        lookup(call.unit, call.op, call.coord, call.lanes, out);
        Ok(())
    }

    fn texture_sites(&self) -> Option<&TexSites> {
        self.sites.as_ref()
    }
}

/// 0: no sites; 1: every instruction a site; 2: sites that decline.
fn env_for(prog: &Arc<Program>, sites: u8) -> Sampling {
    Sampling {
        sites: (sites > 0).then(|| {
            TexSites::new(prog, |call| {
                Some(Arc::new(Site {
                    unit: call.unit,
                    op: call.op,
                    decline: sites == 2,
                }) as Arc<dyn TexSite>)
            })
        }),
    }
}

fn params(p: &Program) -> Vec<[u32; 4]> {
    p.params
        .iter()
        .map(|s| match s {
            ParamSource::Constant(v) => *v,
            _ => [0x3f00_0000, 0xbf80_0000, 0x7fc0_0001, 0x8000_0000],
        })
        .collect()
}

/// `[strip][slot]` inputs.
type Inputs = Vec<Vec<Vec4>>;

/// The reference: every strip in the interpreter; each strip's outputs.
fn reference(prog: &Arc<Program>, inputs: &Inputs, sites: u8) -> Vec<Vec<Vec4>> {
    let ex = Executor::new(prog.clone()).with_backend(Backend::Interpreter);
    let mut st = ex.new_state(MAX_LANES);
    let mut env = env_for(prog, sites);
    let mut outs = Vec::new();
    ex.run_each(
        &mut st,
        &params(prog),
        &mut env,
        inputs.len(),
        |i, st| {
            for (slot, v) in inputs[i].iter().enumerate() {
                if let Some(r) = st.input_mut(slot) {
                    *r = *v;
                }
            }
            (1 << MAX_LANES) - 1
        },
        |_, st| {
            outs.push(
                (0..prog.outputs.len())
                    .map(|o| *st.output(o).unwrap())
                    .collect(),
            )
        },
    )
    .unwrap_or_else(|e| panic!("reference run: {e}"));
    outs
}

fn block(prog: &Arc<Program>, bp: &BlockProgram, inputs: &Inputs, sites: u8) -> Vec<Vec<Vec4>> {
    let mut st = bp.new_state(&params(prog)).expect("parameters in range");
    for (s, strip) in inputs.iter().enumerate() {
        for (slot, v) in strip.iter().enumerate() {
            if let Some(r) = bp.input_mut(&mut st, slot, s) {
                *r = *v;
            }
        }
    }
    let mut env = env_for(prog, sites);
    bp.run(prog, &mut st, inputs.len(), &mut env)
        .unwrap_or_else(|e| panic!("block run: {e}"));
    (0..inputs.len())
        .map(|s| {
            (0..prog.outputs.len())
                .map(|o| *bp.output(&st, o, s).expect("output written whole"))
                .collect()
        })
        .collect()
}

fn special() -> impl Strategy<Value = u32> {
    prop_oneof![
        4 => (-4.0f32..4.0).prop_map(f32::to_bits),
        1 => prop::sample::select(vec![
            f32::NAN.to_bits(),
            0xffc0_0001,
            0x7f80_0001,
            0x8000_0000,
            0,
            f32::INFINITY.to_bits(),
            f32::NEG_INFINITY.to_bits(),
            1.0f32.to_bits(),
            (-1.0f32).to_bits(),
            0x0000_0001,
            0x8000_0001,
        ]),
        1 => any::<u32>(),
    ]
}

const SOURCES: &[&str] = &[
    "fragment.color",
    "fragment.texcoord[0]",
    "t0",
    "t1",
    "t2",
    "t3",
    "k",
    "{0.5, -2.0, 0.0, 1.0}",
    "program.env[1]",
];

fn source() -> impl Strategy<Value = String> {
    (
        prop::sample::select(SOURCES),
        prop::option::of(prop::array::uniform4(prop::sample::select(vec![
            'x', 'y', 'z', 'w',
        ]))),
        any::<bool>(),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(reg, swz, neg, abs)| {
            let mut s = reg.to_string();
            if let Some(w) = swz {
                s = format!("{s}.{}", w.iter().collect::<String>());
            }
            if abs {
                s = format!("|{s}|");
            }
            if neg {
                s = format!("-{s}");
            }
            s
        })
}

fn instruction() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![
            ("MOV", 1),
            ("ABS", 1),
            ("ADD", 2),
            ("SUB", 2),
            ("MUL", 2),
            ("MAD", 3),
            ("MIN", 2),
            ("MAX", 2),
            ("LRP", 3),
            ("CMP", 3),
            ("DP2", 2),
            ("DP3", 2),
            ("DP4", 2),
            ("DPH", 2),
            ("TEX", 1),
            ("TXP", 1),
            ("TXB", 1),
        ]),
        prop::sample::select(vec!["", "", "_SAT", "_SSAT"]),
        0usize..4,
        1u8..16,
        prop::collection::vec(source(), 3),
        0u32..3,
    )
        .prop_map(|((op, n), sat, dst, mask, srcs, unit)| {
            let m: String = "xyzw"
                .chars()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, c)| c)
                .collect();
            let srcs = srcs[..n].join(", ");
            match op {
                "TEX" | "TXP" | "TXB" => {
                    format!("{op}{sat} t{dst}.{m}, {srcs}, texture[{unit}], 2D;")
                }
                _ => format!("{op}{sat} t{dst}.{m}, {srcs};"),
            }
        })
}

fn program() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(instruction(), 1..10),
        prop::sample::select(vec!["", "_SAT"]),
        0usize..4,
    )
        .prop_map(|(body, sat, out)| {
            format!(
                "!!ARBfp1.0\nOPTION NV_fragment_program2;\nTEMP t0, t1, t2, t3;\n\
                 PARAM k = {{0.25, 3.0, -0.5, 2.0}};\n\
                 MOV t0, fragment.color;\nMOV t1, fragment.texcoord[0].yzwx;\n\
                 MUL t2, fragment.color, k;\nMOV t3, -fragment.texcoord[0];\n{}\n\
                 MOV{sat} result.color, t{out};\nEND",
                body.join("\n")
            )
        })
}

fn inputs(strips: usize) -> impl Strategy<Value = Inputs> {
    prop::collection::vec(
        prop::collection::vec(prop::array::uniform4(prop::array::uniform16(special())), 2),
        strips,
    )
}

/// The program through the block executor under every instruction set this CPU has,
/// each equal to the interpreter.
fn check(text: &str, inputs: &Inputs, sites: u8) -> Result<(), TestCaseError> {
    let prog = Arc::new(assemble(text, None).unwrap_or_else(|e| panic!("{e}\n{text}")));
    let bp = BlockProgram::new(&prog).unwrap_or_else(|e| panic!("not taken: {e}\n{text}"));
    // With AVX-512 every run of ALU instructions is machine code (the Avx512 pass below
    // runs it; the others run the same instructions decoded).
    if glemu_math::detected() == glemu_math::Isa::Avx512 {
        prop_assert!(bp.alu_compiled(), "an ALU run not compiled\n{}", text);
    }
    let want = reference(&prog, inputs, sites);
    for isa in [
        glemu_math::Isa::Baseline,
        glemu_math::Isa::Avx2,
        glemu_math::Isa::Avx512,
    ] {
        let used = glemu_math::force(isa);
        let got = block(&prog, &bp, inputs, sites);
        prop_assert_eq!(&got, &want, "{:?}\n{}", used, text);
    }
    glemu_math::force(glemu_math::Isa::Avx512);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn random_programs_equal_the_interpreter(
        text in program(),
        strips in 1usize..=4,
        ins in inputs(4),
        sites in 0u8..3,
    ) {
        check(&text, &ins[..strips].to_vec(), sites)?;
    }
}

#[test]
fn fill_scenes_program_equals_the_interpreter() {
    // fill_1080p's fragment program.
    let text = "!!ARBfp1.0\nPARAM k0 = program.env[0];\nPARAM k1 = program.env[1];\n\
        TEMP t0, t1, t2;\nTEX t0, fragment.texcoord[0], texture[0], 2D;\n\
        MUL t1, t0, k0;\nMAD t1, fragment.color, k1, t1;\nDP3 t2.x, t1, k0;\n\
        ADD t2.y, t1.y, k1.x;\nMUL t2.z, t2.x, t2.y;\nLRP t1, k1.w, t1, t0;\n\
        MAD t1.xyz, t2.z, k1, t1;\nMIN t1, t1, k0.w;\nMOV result.color, t1;\nEND";
    let ins: Inputs = (0..4)
        .map(|s| {
            (0..2)
                .map(|i| {
                    std::array::from_fn(|c| {
                        std::array::from_fn(|l| {
                            ((s * 64 + i * 16 + c * 4 + l) as f32 * 0.37).to_bits()
                        })
                    })
                })
                .collect()
        })
        .collect();
    for sites in 0..3 {
        check(text, &ins, sites).unwrap();
    }
}

/// Strips of inputs with varied values, specials among them.
fn fixed_inputs() -> Inputs {
    let specials = [f32::NAN.to_bits(), 0xffc0_0001, 0x8000_0000, 0x7f80_0000];
    (0..4)
        .map(|s| {
            (0..2)
                .map(|i| {
                    std::array::from_fn(|c| {
                        std::array::from_fn(|l| match (s + i + c + l) % 7 {
                            0 => specials[(s + c) % 4],
                            _ => ((s * 64 + i * 16 + c * 4 + l) as f32 * -0.37).to_bits(),
                        })
                    })
                })
                .collect()
        })
        .collect()
}

#[test]
fn output_moves_equal_the_interpreter() {
    // A whole plain MOV into an output is not made when its source stays as it was: the
    // output reads the source register (fill_1080p_mov's program is one such MOV).
    for (text, from_input) in [
        (
            "!!ARBfp1.0
MOV result.color, fragment.color;
END",
            true,
        ),
        (
            "!!ARBfp1.0
MOV result.color, program.env[1];
END",
            false,
        ),
        (
            "!!ARBfp1.0
MOV result.color, -fragment.color;
END",
            false,
        ),
        (
            "!!ARBfp1.0
MOV result.color.xyzw, fragment.texcoord[0].xyzw;
END",
            true,
        ),
        (
            "!!ARBfp1.0
TEMP t;
MOV t, fragment.color;
MOV result.color, t;
             ADD t, t, fragment.texcoord[0];
END",
            false,
        ),
        (
            "!!ARBfp1.0
TEMP t;
MOV t, fragment.color;
MOV result.color, t;
END",
            false,
        ),
    ] {
        let ins = fixed_inputs();
        check(text, &ins, 0).unwrap();
        let prog = assemble(text, None).unwrap();
        let bp = BlockProgram::new(&prog).unwrap();
        let mut st = bp.new_state(&params(&prog)).unwrap();
        let out = bp.output(&st, 0, 0).map(|r| r as *const Vec4);
        let aliased =
            (0..2).any(|slot| bp.input_mut(&mut st, slot, 0).map(|r| r as *const Vec4) == out);
        assert_eq!(aliased, from_input, "{text}");
    }
}

#[test]
fn what_does_not_run_here_says_why() {
    for (text, why) in [
        (
            "!!ARBfp1.0\nTEMP t;\nMOV t.x, fragment.color;\nMOV result.color, t;\nEND",
            "not written before",
        ),
        (
            "!!ARBfp1.0\nTEMP t;\nSUB t, fragment.color, 0.5;\nKIL t;\nMOV result.color, t;\nEND",
            "opcode",
        ),
        (
            "!!ARBfp1.0\nTEMP t;\nEX2 t, fragment.color.x;\nMOV result.color, t;\nEND",
            "opcode",
        ),
        (
            "!!NVfp4.0\nTEMP t;\nMOVC t, fragment.color;\nMOV result.color, t;\nEND",
            "condition code",
        ),
    ] {
        let prog = assemble(text, None).unwrap();
        let e = BlockProgram::new(&prog).expect_err(text);
        assert!(e.contains(why), "{text}: {e}");
    }
    // An output not written whole is not handed out.
    let prog = assemble(
        "!!ARBfp1.0\nMOV result.color.xyz, fragment.color;\nEND",
        None,
    )
    .unwrap();
    let bp = BlockProgram::new(&prog).unwrap();
    let st = bp.new_state(&[]).unwrap();
    assert!(bp.output(&st, 0, 0).is_none());
}
