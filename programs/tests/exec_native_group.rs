//! Compute work groups (`Executor::run_group`) as machine code against the interpreter,
//! bit for bit: every batch's registers, shared and global memory, counters, errors
//! (budget, interrupt, memory) and the environment's log must agree, and the machine-code
//! run must have run as machine code (`compile::native_batches`) or stopped for a rerun
//! (`compile::native_reruns`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod exec_util;
use exec_util::*;
use glemu_programs::compile::native_reruns;
use glemu_programs::exec::{
    Backend, Compute, ExecError, ExecErrorKind, ExecStats, Executor, LaneState, MemRegion,
    MAX_LANES,
};
use glemu_programs::ir::{InputBinding, Program, Stage};
use proptest::prelude::*;
use std::sync::Arc;

/// Shared memory of the test environment (a region of its own, so global memory stays
/// apart) and global memory.
fn env() -> TestEnv {
    TestEnv {
        mem: (0..4096u32).map(|i| (i * 7) as u8).collect(),
        counters: vec![0; 8],
        subroutines: vec![0; 8],
        image: (0..16u32).map(|i| [i, i * 3, i ^ 5, 7]).collect(),
        bound: vec![(MemRegion::Shared, vec![0; 1024])],
        ..Default::default()
    }
}

/// One run of a work group: every batch's state, the result and the environment.
struct GroupRun {
    states: Vec<LaneState>,
    stats: Result<ExecStats, ExecError>,
    env: TestEnv,
}

/// The states of a group of `invocations` for `p`: each invocation's local index, ids and
/// thread inputs as the pipeline sets them (a one-dimensional group), other inputs from
/// the invocation number.
fn group_states(p: &Arc<Program>, invocations: usize) -> Vec<LaneState> {
    let batches = invocations.div_ceil(MAX_LANES).max(1);
    (0..batches)
        .map(|b| {
            let mut st = LaneState::new(p, MAX_LANES);
            for l in 0..MAX_LANES {
                let i = (b * MAX_LANES + l) as u32;
                for (s, inp) in p.inputs.iter().enumerate() {
                    let v = match inp.binding {
                        InputBinding::LocalId | InputBinding::GlobalId => [i, 0, 0, 0],
                        InputBinding::LocalIndex | InputBinding::ThreadId => [i; 4],
                        InputBinding::GroupId => [0; 4],
                        InputBinding::GroupCount => [1, 1, 1, 0],
                        InputBinding::GroupSize => [invocations as u32, 1, 1, 0],
                        _ => [i ^ 5, i * 3, 7, i],
                    };
                    st.set_input(s, l, v);
                }
            }
            st
        })
        .collect()
}

/// `p`'s group of `invocations` in the interpreter and as machine code (all registers
/// written back), each from the same states and a fresh `env`; with how many batches the
/// second ran as machine code and how many kernel calls stopped for a rerun.
fn group_both(
    p: &Arc<Program>,
    invocations: usize,
    budget: u64,
    env: &dyn Fn() -> TestEnv,
) -> (GroupRun, GroupRun, u64, u64) {
    let prm = params(p, &[[0.5, 1.0, 2.0, 0.25]; 16]);
    let st = group_states(p, invocations);
    let run = |backend: Backend| {
        let ex = Executor::new(p.clone())
            .with_budget(budget)
            .with_backend(backend);
        let mut states = st.clone();
        let mut e = env();
        let stats = ex.run_group(&mut states, invocations, &prm, &mut Compute(&mut e));
        GroupRun {
            states,
            stats,
            env: e,
        }
    };
    let a = run(Backend::Interpreter);
    let before = native_reruns();
    let (b, native) = counting_native(|| run(Backend::NativeAllRegisters));
    (a, b, native, native_reruns() - before)
}

/// The two runs agree: the result (error, or counters), every batch's registers and the
/// environment.
fn assert_group_same(p: &Program, a: &GroupRun, b: &GroupRun, what: &str) {
    if let (Ok(x), Ok(y)) = (&a.stats, &b.stats) {
        assert_eq!(
            (x.instructions, x.lane_instructions),
            (y.instructions, y.lane_instructions),
            "instruction counters differ {what}"
        );
    }
    for (sa, sb) in a.states.iter().zip(&b.states) {
        let ra = Ran {
            state: sa.clone(),
            stats: a.stats.clone(),
            env: a.env.clone(),
        };
        let rb = Ran {
            state: sb.clone(),
            stats: b.stats.clone(),
            env: b.env.clone(),
        };
        assert_same(p, &ra, &rb, what);
    }
    // Memory is compared after errors too: what ran before one must be the same.
    assert!(a.env == b.env, "environments differ {what}");
}

/// Compares `p`'s group of `invocations` both ways; the machine-code run must run every
/// batch that holds an invocation as machine code (else the test compared the interpreter
/// with itself), or stop once for a rerun when `rerun` allows. Gives the interpreter's run.
fn check(p: &Arc<Program>, invocations: usize, budget: u64, rerun: bool, what: &str) -> GroupRun {
    let (a, b, native, reruns) = group_both(p, invocations, budget, &env);
    assert_group_same(p, &a, &b, what);
    let batches = invocations.div_ceil(MAX_LANES) as u64;
    let status = Executor::new(p.clone())
        .with_backend(Backend::Native)
        .native_status();
    if let Some(Err(f)) = status {
        assert!(rerun, "does not compile: {f}\n{what}");
        assert_eq!((native, reruns), (0, 0), "{what}");
        return a;
    }
    match (&b.stats, reruns) {
        (_, 1) if rerun => assert_eq!(native, 0, "{what}"),
        // An error stops the group at the batch that made it.
        (Err(_), 0) => assert!((1..=batches).contains(&native), "{native} batches {what}"),
        (Ok(_), 0) => assert_eq!(native, batches, "batches run as machine code {what}"),
        _ => panic!("{reruns} reruns {what}"),
    }
    a
}

/// A compute program of `n` invocations with shared memory `s` (`bytes`), temps `i` =
/// the local index, `a`, `r`, `t`.
fn compute(n: usize, bytes: usize, body: &str) -> String {
    format!(
        "!!NVcp5.0\nGROUP_SIZE {n};\nSHARED_MEMORY {bytes};\nSHARED s[] = {{ program.sharedmem }};\n\
         UINT TEMP i, a, r, t;\nMOV.U i, invocation.localindex;\n{body}\nEND\n"
    )
}

const TREE: &str = "MUL.U a.x, i.x, 4;\nSTS.U32 i, s[a.x];\nBAR;\n\
     MOV.U r.y, 32;\nREP;\n\
     SLT.U.CC r.z, i.x, r.y;\nIF NE.z;\n\
     ADD.U r.w, i.x, r.y;\nMUL.U r.w, r.w, 4;\nLDS.U32 r.x, s[r.w];\n\
     LDS.U32 t.x, s[a.x];\nADD.U r.x, r.x, t.x;\nSTS.U32 r.x, s[a.x];\nENDIF;\n\
     BAR;\nSHR.U r.y, r.y, 1;\nSEQ.U.CC r.z, r.y, 0;\nBRK (NE.z);\nENDREP;";

/// Work groups whose barriers sit at the top level, in loops, in IF and ELSE blocks, in
/// subroutines, taken by some batches only, with shared atomics: at group sizes of one
/// batch, several, and a partial last batch.
#[test]
fn barriers_everywhere_run_as_machine_code() {
    let bodies = [
        TREE,
        "ATOMS.ADD.U32 r.x, 1, s[0];\nAND.U a.x, i.x, 1;\nMUL.U a.x, a.x, 4;\nATOMS.MAX.U32 r.x, i.x, s[4];",
        "SLT.U.CC r.x, i.x, 16;\nIF NE.x;\nBAR;\nATOMS.ADD.U32 r.y, 1, s[0];\nENDIF;",
        // Each invocation stores, waits, reads its neighbour: in an ELSE, in a subroutine.
        "MUL.U a.x, i.x, 4;\nSTS.U32 i, s[a.x];\nSLT.U.CC r.x, i.x, 100;\nIF EQ.x;\nMOV.U r.y, 0;\nELSE;\nBAR;\n\
         ADD.U t.x, i.x, 1;\nMOD.U t.x, t.x, 40;\nMUL.U t.x, t.x, 4;\nLDS.U32 r.y, s[t.x];\nENDIF;",
        "CAL sub;\nADD.U r.z, r.y, 1;\nRET;\nsub:\nMUL.U a.x, i.x, 4;\nSTS.U32 i, s[a.x];\nBAR;\n\
         SUB.U t.x, 39, i.x;\nMIN.U t.x, t.x, 39;\nMUL.U t.x, t.x, 4;\nLDS.U32 r.y, s[t.x];\nRET;",
        // A loop whose count is the same in every lane, a BAR per iteration, a CONT.
        "MOV.U r.w, 0;\nREP.U {3}.x;\nATOMS.ADD.U32 r.x, i.x, s[8];\nBAR;\nLDS.U32 r.y, s[8];\n\
         ADD.U r.w, r.w, r.y;\nCONT;\nBAR;\nENDREP;",
        // Barriers in divergent flow: some lanes of a batch wait while the others run on.
        "AND.U.CC t.x, i.x, 3;\nIF NE.x;\nATOMS.ADD.U32 r.x, 1, s[0];\nBAR;\nLDS.U32 r.y, s[0];\n\
         ELSE;\nATOMS.ADD.U32 r.x, 2, s[4];\nBAR;\nLDS.U32 r.y, s[4];\nENDIF;\nBAR;\nLDS.U32 r.z, s[0];",
        // Lanes that end before a barrier.
        "SGE.U.CC t.x, i.x, 5;\nRET (NE.x);\nSTS.U32 i, s[4];\nBAR;\nLDS.U32 r.x, s[4];",
    ];
    for body in bodies {
        for n in [1, 16, 20, 40, 64] {
            let text = compute(n, 256, body);
            let p = assemble(&text, Stage::Compute);
            check(&p, n, 100_000, false, &text);
        }
    }
    // The reduction sums every index.
    let p = assemble(&compute(64, 256, TREE), Stage::Compute);
    let a = check(&p, 64, 100_000, false, "tree");
    let shared = &a.env.bound[0].1;
    let sum = u32::from_le_bytes([shared[0], shared[1], shared[2], shared[3]]);
    assert_eq!(sum, (0..64).sum::<u32>());
}

/// Budgets that run out everywhere, at barriers included (the interpreter charges a BAR
/// when it steps a batch past it, after every batch has stopped): the same error at the
/// same instruction, the same memory before it.
#[test]
fn budgets_stop_groups_where_the_interpreter_does() {
    let text = compute(40, 256, TREE);
    let p = assemble(&text, Stage::Compute);
    let mut errors = 0;
    for budget in 1..120 {
        let a = check(&p, 40, budget, false, &format!("budget {budget}\n{text}"));
        errors += usize::from(a.stats.is_err());
    }
    assert!(errors > 80, "only {errors} budgets ran out");
}

/// An environment that says the run was interrupted: the group stops at the same
/// instruction, after the same number of questions.
#[test]
fn interrupts_stop_groups_where_the_interpreter_does() {
    // Each invocation loops about 90 000 steps: its groups pass multiples of
    // INTERRUPT_STEPS inside the loop. In the second program the BAR is step 16384 of
    // every group: the question comes when the host steps the batches past it.
    let long = "MOV.U r.x, 0;\nREP.U {30000}.x;\nADD.U r.x, r.x, 1;\nATOMS.ADD.U32 r.y, 1, s[0];\nENDREP;\nBAR;\nLDS.U32 r.z, s[0];";
    let at_bar = "MOV.U r.x, 0;\nREP.U {8190}.x;\nADD.U r.x, r.x, 1;\nENDREP;\nBAR;\nATOMS.ADD.U32 r.y, 1, s[0];";
    for (body, asks) in [(long, 8), (at_bar, 2)] {
        let p = assemble(&compute(20, 64, body), Stage::Compute);
        for from in [Some(u32::MAX), Some(1), Some(2), Some(3), Some(5)] {
            let make = || TestEnv {
                interrupt_from: from,
                ..env()
            };
            let (a, b, native, _) = group_both(&p, 20, 1 << 20, &make);
            let what = format!("interrupted from question {from:?}\n{body}");
            assert_group_same(&p, &a, &b, &what);
            assert!(native >= 1, "{what}");
            match (&a.stats, from) {
                (Err(e), Some(n)) => {
                    assert_eq!(e.kind, ExecErrorKind::Interrupted, "{what}");
                    assert_eq!(a.env.interrupt_asks, n, "{what}");
                }
                (Ok(_), Some(n)) => {
                    assert!(a.env.interrupt_asks >= asks && n > asks, "{what}")
                }
                (r, _) => panic!("{r:?} {what}"),
            }
        }
    }
}

/// Memory accesses out of range are counted, not made, in both; a loop count that differs
/// between lanes, or a CONT some lanes take, in a program without memory hands the group
/// to the interpreter.
#[test]
fn bounds_and_reruns() {
    let text = compute(
        24,
        64,
        "MUL.U a.x, i.x, 8;\nSTS.U32 i, s[a.x];\nBAR;\nLDS.U32 r.x, s[a.x];\nATOMS.ADD.U32 r.y, 1, s[a.x];",
    );
    let p = assemble(&text, Stage::Compute);
    let a = check(&p, 24, 100_000, false, &text);
    // Shared memory is 1024 bytes here: invocations 128/8 = 16.. stay in range; the
    // environment is what counts, not the declared size.
    assert!(a.stats.is_ok());
    let text = compute(
        20,
        16,
        "MOV.U r.x, 0;\nREP.U i.x;\nADD.U r.x, r.x, 3;\nENDREP;\nBAR;\nADD.U r.y, r.x, 1;",
    );
    let p = assemble(&text, Stage::Compute);
    check(&p, 20, 100_000, true, &text);
    // A CONT taken by the odd lanes only, in a program without memory: it compiles, and
    // its kernel hands the group to the interpreter.
    let text = compute(
        16,
        16,
        "REP.U {1}.x;\nAND.U.CC t.z, i.x, 1;\nCONT (NE.z);\nENDREP;\nADD.U r.x, i.x, 1;",
    );
    let p = assemble(&text, Stage::Compute);
    let status = Executor::new(p.clone())
        .with_backend(Backend::Native)
        .native_status();
    assert_eq!(status, Some(Ok(())), "{text}");
    let (a, b, native, reruns) = group_both(&p, 16, 100_000, &env);
    assert_group_same(&p, &a, &b, &text);
    assert_eq!((native, reruns), (0, 1), "{text}");
}

/// The compute programs of the emulator scenes and corpus (and any in the reftests and
/// the shared corpus), at their group size and at others.
#[test]
fn emulator_compute_programs_run_as_machine_code() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    files(&root.join("../tests/emulator"), &mut paths);
    files(&root.join("tests/emulator_corpus"), &mut paths);
    paths.extend(reftest_paths());
    paths.extend(corpus_paths("programs/tests/exec_native_group.rs").unwrap_or_default());
    let mut n = 0;
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for prog in programs(&text) {
            let Ok(p) = glemu_programs::assemble(&prog, None) else {
                continue;
            };
            if p.stage != Stage::Compute {
                continue;
            }
            let p = Arc::new(p);
            let status = Executor::new(p.clone())
                .with_backend(Backend::Native)
                .native_status();
            assert_eq!(status, Some(Ok(())), "{}\n{prog}", path.display());
            n += 1;
            let size = p
                .decls
                .group_size
                .map_or(1, |s| s.iter().map(|&d| d as usize).product());
            for invocations in [size, 1, 17, 64] {
                let what = format!("({}, {invocations} invocations)\n{prog}", path.display());
                check(&p, invocations, 100_000, false, &what);
            }
        }
    }
    println!("{n} compute programs, every group run as machine code");
    assert!(n >= 5, "only {n} compute programs found");
}

/// A random compute program: integer and float arithmetic on registers seeded from the
/// local index, shared-memory stores, loads and atomics at addresses from registers
/// (some out of range), barriers anywhere (in IF/ELSE, loops, subroutines), nested
/// IF/ELSE/REP/BRK/CONT/RET and CALs.
fn random_compute(tokens: &[[u8; 5]], n: usize) -> String {
    let mut body = String::new();
    let mut open: Vec<char> = Vec::new();
    let reg = |b: u8| ["i", "a", "r", "t"][b as usize % 4];
    let comp = |b: u8| ["x", "y", "z", "w"][b as usize % 4];
    let line = |t: &[u8; 5], open: &mut Vec<char>, sub: bool| -> String {
        let [k, a, b, c, d] = *t;
        let in_loop = open.contains(&'R');
        let addr = format!(
            "AND.U t.w, {}.{}, {};\nMUL.U t.w, t.w, 4;",
            reg(a),
            comp(b),
            [15, 63, 255, 511][c as usize % 4]
        );
        match k % 16 {
            0 => "BAR;".into(),
            1 => {
                open.push('I');
                format!(
                    "AND.U.CC t.z, {}.{}, {};\nIF NE.z;",
                    reg(a),
                    comp(b),
                    1 + c % 7
                )
            }
            2 if open.last() == Some(&'I') => {
                *open.last_mut().unwrap() = 'E';
                "ELSE;".into()
            }
            2 | 3 => match open.pop() {
                Some('R') => "ENDREP;".into(),
                Some(_) => "ENDIF;".into(),
                None => "MOV.U r.w, i.x;".into(),
            },
            4 => {
                open.push('R');
                format!("REP.U {{{}}}.x;", 1 + c % 3)
            }
            5 if in_loop => format!(
                "SEQ.U.CC t.z, {}.{}, {};\nBRK (NE.z);",
                reg(a),
                comp(b),
                c % 4
            ),
            6 if in_loop && d % 4 == 0 => format!("AND.U.CC t.z, i.x, {};\nCONT (NE.z);", c % 2),
            7 => format!("SGT.U.CC t.z, i.x, {};\nRET (NE.z);", 8 + c % 40),
            8 if !sub => format!("CAL s{};", c % 2),
            9 => format!("{addr}\nSTS.U32 {}, s[t.w];", reg(d)),
            10 => format!("{addr}\nLDS.U32 {}.{}, s[t.w];", reg(d), comp(c)),
            11 => format!(
                "{addr}\nATOMS.{}.U32 {}.{}, {}.x, s[t.w];",
                ["ADD", "MAX", "MIN", "EXCH", "AND", "OR", "XOR"][a as usize % 7],
                reg(d),
                comp(c),
                reg(b)
            ),
            12 => format!(
                "{}.U {}.{}, {}, {}.{};",
                ["ADD", "MUL", "XOR", "SHR", "MAX"][a as usize % 5],
                reg(b),
                comp(c),
                reg(d),
                reg(a),
                comp(d)
            ),
            13 => format!(
                "I2F.U f, {};\nMAD f, f, 0.5, {{1.5, -2, 0.25, 3}};\nFLR.U {}.{}, f;",
                reg(a),
                reg(b),
                comp(c)
            ),
            14 => format!("MOV.U {}.{}, {};", reg(b), comp(c), d % 50),
            _ => format!("ADD.U {}, {}, {};", reg(b), reg(c), reg(d)),
        }
    };
    let third = tokens.len() / 3;
    let parts = [
        &tokens[..third],
        &tokens[third..2 * third],
        &tokens[2 * third..],
    ];
    for (s, part) in parts.iter().enumerate() {
        if s > 0 {
            body.push_str(&format!("RET;\ns{}:\n", s - 1));
        }
        for t in part.iter() {
            body.push_str(&line(t, &mut open, s > 0));
            body.push('\n');
        }
        while let Some(o) = open.pop() {
            body.push_str(if o == 'R' { "ENDREP;\n" } else { "ENDIF;\n" });
        }
    }
    compute(n, 1024, &format!("TEMP f;\n{body}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, .. ProptestConfig::default() })]

    #[test]
    fn random_compute_groups(
        tokens in proptest::collection::vec(any::<[u8; 5]>(), 3..45),
        n in prop_oneof![Just(16usize), Just(20), Just(48), 1usize..70],
        budget in prop_oneof![Just(60u64), Just(600), Just(100_000)],
    ) {
        let text = random_compute(&tokens, n);
        let p = match glemu_programs::assemble(&text, Some(Stage::Compute)) {
            Ok(p) => Arc::new(p),
            Err(e) => panic!("generator made an invalid program: {}\n{text}", e.render(&text)),
        };
        let status = Executor::new(p.clone()).with_backend(Backend::Native).native_status();
        // A CONT that some lanes take and others not goes to the interpreter: with memory
        // in the program compile refuses it, without any the kernel stops for a rerun.
        match status {
            Some(Ok(())) => {}
            Some(Err(f)) if f.reason.contains("environment calls") && text.contains("CONT") => {}
            other => prop_assert!(false, "{:?}\n{}", other, text),
        }
        check(&p, n, budget, text.contains("CONT"), &text);
    }
}

/// [`assert_patch_same`] of one tessellation control patch of `invocations`: every input
/// from its lane, copy and component, and each invocation's number.
fn patch_both(p: &Arc<Program>, invocations: usize, budget: u64, what: &str) -> (u64, u64) {
    let prm = params(p, &[[0.5, 1.0, 2.0, 0.25]; 16]);
    let vertices = invocations.max(4);
    let st = state_with_inputs(p, vertices, |l, c, v| {
        ((l as f32 - 3.0) * 0.5 + c as f32 + v as f32 * 2.0).to_bits()
    });
    let inv = p
        .inputs
        .iter()
        .position(|i| i.binding == InputBinding::PrimitiveInvocation);
    let batches = invocations.div_ceil(MAX_LANES).max(1);
    let states: Vec<LaneState> = (0..batches)
        .map(|b| {
            let mut s = st.clone();
            for l in 0..MAX_LANES {
                if let Some(i) = inv {
                    s.set_input(i, l, [(b * MAX_LANES + l) as u32; 4]);
                }
            }
            s
        })
        .collect();
    assert_patch_same(p, &states, invocations, &prm, budget, env, what)
}

/// `patch_both`, and every batch ran as machine code (or, with `rerun`, a kernel may
/// have handed the patch to the interpreter).
fn patch_check(p: &Arc<Program>, invocations: usize, budget: u64, rerun: bool, what: &str) {
    let (native, reruns) = patch_both(p, invocations, budget, what);
    let batches = invocations.div_ceil(MAX_LANES) as u64;
    if rerun && reruns > 0 {
        assert_eq!((native, reruns), (0, 1), "{invocations} invocations {what}");
    } else {
        assert_eq!(
            (native, reruns),
            (batches, 0),
            "{invocations} invocations {what}"
        );
    }
}

const ID: &str = "INT TEMP id, n;\nTEMP t, u;\nMOV.S id, primitive.invocation.x;\nI2F t.x, id.x;\n";

/// The lock-step cases of `exec/lockstep.rs` (neighbours' results, per-patch values read
/// after other invocations wrote them, IF/ELSE order, calls, BAR, a value read before it
/// is written), and loops whose iterations interleave between the batches, at one batch
/// and two.
#[test]
fn control_patches_in_lock_step_run_as_machine_code() {
    let bodies = [
        "ATTRIB o[] = { vertex.out.attrib[0] };\nMUL result.attrib[0].x, t.x, 10;\n\
         ADD.S n.x, id.x, 1;\nAND.S n.x, n.x, 3;\nADD result.attrib[0].y, o[n.x][0].x, 0;\n\
         MOV result.attrib[0].x, o[n.x][0].y;",
        "SEQ.S.CC id.y, id.x, 2;\nIF NE.y;\nMOV result.patch.tessouter[0].x, 7.5;\nENDIF;\n\
         ADD result.attrib[0].x, primitive.out.tessouter[0].x, t.x;",
        "SEQ.S.CC id.y, id.x, 19;\nIF NE.y;\nMOV result.patch.tessouter[0].x, 4;\nENDIF;\n\
         BAR;\nADD result.attrib[0].x, primitive.out.tessouter[0].x, t.x;",
        "MOV result.attrib[0].x, primitive.out.tessouter[0].x;\n\
         SEQ.S.CC id.y, id.x, 1;\nIF NE.y;\nMOV result.patch.tessouter[0].x, 3;\nENDIF;",
        "REP 3;\nSEQ.S.CC id.y, id.x, 0;\nIF NE.y;\n\
         ADD result.patch.tessouter[0].x, primitive.out.tessouter[0].x, 1.0;\nENDIF;\n\
         SUB.S id.x, id.x, 1;\nENDREP;",
        "SLT.CC t.y, t.x, 2;\nIF NE.y;\nMOV result.patch.attrib[0].x, 5.0;\n\
         ELSE;\nADD result.attrib[0].x, primitive.out.patch.attrib[0].x, t.x;\nENDIF;",
        "SEQ.S.CC id.y, id.x, 0;\nCAL setlevel (NE.y);\n\
         MOV result.attrib[0].x, primitive.out.tessouter[0].x;\nRET;\n\
         setlevel:\nMOV result.patch.tessouter[0].x, 6.0;\nRET;",
        "ATTRIB o[] = { vertex.out.attrib[0] };\nMOV result.attrib[0].y, t.x;\n\
         SEQ.S.CC id.y, id.x, 31;\nIF NE.y;\nMOV result.patch.tessouter[0].x, 100;\nENDIF;\n\
         SUB.S n.x, 31, id.x;\nMIN.S n.x, n.x, 3;\n\
         ADD result.attrib[0].x, o[n.x][0].y, primitive.out.tessouter[0].x;",
        // A loop whose iterations interleave: each invocation adds the level to its
        // result, and the last one raises the level, every iteration.
        "MOV u, 0;\nREP 4;\nADD u.x, u.x, primitive.out.tessouter[0].x;\nMOV result.attrib[0].x, u.x;\n\
         SEQ.S.CC id.y, id.x, 19;\nIF NE.y;\nADD result.patch.tessouter[0].x, primitive.out.tessouter[0].x, 1;\nENDIF;\n\
         MUL u.y, u.y, 2;\nENDREP;",
        // The same with an early exit and a CONT of the whole group.
        "MOV u, 0;\nREP 5;\nADD u.x, u.x, primitive.out.tessouter[0].x;\nMOV result.attrib[0].x, u.x;\n\
         SGT.S.CC id.y, id.x, 8;\nIF NE.y;\nADD result.patch.tessouter[0].x, primitive.out.tessouter[0].x, 1;\nENDIF;\n\
         SEQ.CC u.w, primitive.out.tessouter[0].x, 6;\nBRK (NE.w);\nCONT;\nENDREP;",
    ];
    for body in bodies {
        let text = format!("!!NVtcp5.0\nVERTICES_OUT 4;\n{ID}{body}\nEND\n");
        let p = assemble(&text, Stage::TessControl);
        for invocations in [1, 3, 4, 16, 17, 20, 32] {
            patch_check(&p, invocations, 100_000, false, &text);
        }
    }
}

/// Budgets that run out (the kernels hand the patch to the interpreter, whose error it
/// is) and per-lane loop counts.
#[test]
fn control_patches_hand_errors_and_reruns_to_the_interpreter() {
    let text = format!(
        "!!NVtcp5.0\nVERTICES_OUT 4;\n{ID}REP 40;\nADD result.patch.tessouter[0].x, primitive.out.tessouter[0].x, 1;\nENDREP;\nEND\n"
    );
    let p = assemble(&text, Stage::TessControl);
    // About 85 steps a group.
    for budget in [3, 10, 50, 80] {
        for invocations in [4, 20] {
            let (native, reruns) = patch_both(&p, invocations, budget, &text);
            assert_eq!((native, reruns), (0, 1), "budget {budget}");
        }
    }
    let text = format!(
        "!!NVtcp5.0\nVERTICES_OUT 4;\n{ID}REP.S id.x;\nADD result.patch.tessouter[0].x, primitive.out.tessouter[0].x, 1;\nENDREP;\nEND\n"
    );
    let p = assemble(&text, Stage::TessControl);
    patch_check(&p, 20, 100_000, true, &text);
}

/// A random control program: per-vertex and per-patch results written in branches,
/// loops and a subroutine, read back through `vertex.out` (fixed and per-lane indices)
/// and `primitive.out`.
fn random_control(tokens: &[[u8; 5]], vertices: usize) -> String {
    let line = |t: &[u8; 5], open: &mut Vec<char>, sub: bool| -> String {
        let [k, a, b, c, d] = *t;
        let comp = |x: u8| ["x", "y", "z", "w"][x as usize % 4];
        let in_loop = open.contains(&'R');
        match k % 14 {
            0 => format!(
                "ADD result.attrib[{}].{}, t.{}, {};",
                a % 2,
                comp(b),
                comp(c),
                d % 5
            ),
            1 => format!(
                "MOV result.patch.tessouter[{}].{}, t.{};",
                a % 4,
                comp(b),
                comp(c)
            ),
            2 => "MAD result.patch.attrib[0], t, 0.5, u;".into(),
            3 => format!(
                "ADD t.{}, t.{}, vertex.out[{}].attrib[{}].{};",
                comp(a),
                comp(b),
                c as usize % vertices,
                d % 2,
                comp(d / 2)
            ),
            4 => format!(
                "ADD.S n.x, id.x, {};\nMOD.S n.x, n.x, {vertices};\nADD u, o[n.x][{}], t;",
                a % 7,
                b % 2
            ),
            5 => format!(
                "ADD t.{}, t.{}, primitive.out.tessouter[{}].x;",
                comp(a),
                comp(b),
                c % 4
            ),
            6 => {
                open.push('I');
                format!(
                    "SLT.S.CC n.y, id.x, {};\nIF NE.y;",
                    a as usize % (vertices + 2)
                )
            }
            7 if open.last() == Some(&'I') => {
                *open.last_mut().unwrap_or(&mut 'I') = 'E';
                "ELSE;".into()
            }
            7 | 8 => match open.pop() {
                Some('R') => "ENDREP;".into(),
                Some(_) => "ENDIF;".into(),
                None => "MOV u, t.yzwx;".into(),
            },
            9 => {
                open.push('R');
                format!("REP {};", 1 + a % 3)
            }
            10 if in_loop => format!("SGT.CC u.w, t.{}, {};\nBRK (NE.w);", comp(a), b % 9),
            11 => format!(
                "SIN u.{}, t.{};\nMUL t, t, {{0.75, -1.5, 2, 0.5}};",
                comp(a),
                comp(b)
            ),
            12 if !sub => "CAL s0;".into(),
            13 => "BAR;".into(),
            _ => format!("MOV t.{}, {};", comp(a), b % 11),
        }
    };
    let (main, sub) = tokens.split_at(tokens.len() * 2 / 3);
    let mut body = String::new();
    for (part, is_sub) in [(main, false), (sub, true)] {
        let mut open = Vec::new();
        if is_sub {
            body.push_str("RET;\ns0:\n");
        }
        for t in part {
            body.push_str(&line(t, &mut open, is_sub));
            body.push('\n');
        }
        while let Some(o) = open.pop() {
            body.push_str(if o == 'R' { "ENDREP;\n" } else { "ENDIF;\n" });
        }
    }
    format!(
        "!!NVtcp5.0\nVERTICES_OUT {vertices};\nATTRIB o[] = {{ vertex.out.attrib[0..1] }};\n{ID}MOV u, 0;\n{body}END\n"
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, .. ProptestConfig::default() })]

    #[test]
    fn random_control_patches(
        tokens in proptest::collection::vec(any::<[u8; 5]>(), 3..40),
        vertices in 1usize..=32,
        more in any::<bool>(),
    ) {
        let text = random_control(&tokens, vertices);
        let p = match glemu_programs::assemble(&text, Some(Stage::TessControl)) {
            Ok(p) => Arc::new(p),
            Err(e) => panic!("generator made an invalid program: {}\n{text}", e.render(&text)),
        };
        let status = Executor::new(p.clone()).with_backend(Backend::Native).native_patch_status();
        prop_assert_eq!(status, Some(Ok(())), "{}", text);
        // The patch's own size, or more invocations (up to two batches).
        let invocations = if more { (vertices + 7).min(32) } else { vertices };
        patch_check(&p, invocations, 100_000, false, &text);
    }
}
