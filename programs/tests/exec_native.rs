//! The native backend against the interpreter, bit for bit: every program of the corpus
//! and the reftests, and random programs over every opcode and modifier the back end
//! lowers (plus some it runs as interpreted steps), with NaN payloads, -0, infinities
//! and denormals in the inputs. Registers, kill masks, errors, out-of-range counters
//! and everything the environment saw must agree.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod exec_util;
use exec_util::*;
use glemu_programs::compile::native_reruns;
use glemu_programs::exec::{Backend, ExecStats, Executor, LaneState, MAX_LANES};
use glemu_programs::ir::{InputBinding, Program, Stage};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Input words of lane `l`, component `c`, vertex copy `v`: ordinary values in most lanes,
/// special ones (NaN payloads, -0, infinities, denormals, integers) in others.
fn input_word(l: usize, c: usize, v: usize) -> u32 {
    const SPECIAL: [u32; 10] = [
        0x7fc0_0000, // quiet NaN
        0xffc1_2345, // negative NaN with payload
        0x7f80_0001, // signalling NaN
        0x8000_0000, // -0
        0x7f80_0000, // +inf
        0xff80_0000, // -inf
        0x0000_0001, // smallest denormal
        0x807f_ffff, // largest negative denormal
        0xffff_fffe, // -2 as an integer
        0x0000_0003, // 3 as an integer
    ];
    if l % 5 == 4 {
        return SPECIAL[(l / 5 + c + v) % SPECIAL.len()];
    }
    ((l as f32 - 7.0) * 0.25 + c as f32 + v as f32).to_bits()
}

/// [`env`], where a test's `env` parameter hides it.
fn env_of() -> TestEnv {
    env()
}

fn env() -> TestEnv {
    TestEnv {
        mem: (0..4096u32).map(|i| (i * 7) as u8).collect(),
        counters: vec![0; 8],
        subroutines: vec![0; 8],
        image: (0..16u32).map(|i| [i, i * 3, i ^ 5, 7]).collect(),
        ..Default::default()
    }
}

/// Vertex copies of every input in [`both`]: the largest patch (32 control points), so
/// adjacency primitives (6) and patches fit the kernels. With fewer copies than a
/// program reads, its kernel does not fit and the run goes to the interpreter.
const VERTICES: usize = 32;

/// A full batch's lane state for `p` with `vertices` copies of every input, each word
/// `input_word` of its lane, component and copy.
fn filled_state(p: &Arc<Program>, vertices: usize) -> LaneState {
    state_with_inputs(p, vertices, input_word)
}

/// Run `p` both ways on the same inputs with lane mask `active`; the native run must
/// have gone through machine code (else the test compared the interpreter with itself).
fn both(p: &Arc<Program>, active: u32, params: &[[u32; 4]], budget: u64) -> (Ran, Ran) {
    let (a, b, native) = both_counted(p, active, params, budget);
    assert_eq!(native, 1, "the native run fell back to the interpreter");
    (a, b)
}

/// [`both`], with how many batches the native run ran as machine code (0 or 1).
fn both_counted(
    p: &Arc<Program>,
    active: u32,
    params: &[[u32; 4]],
    budget: u64,
) -> (Ran, Ran, u64) {
    let mut st = filled_state(p, VERTICES);
    st.set_helper_mask(0x8000);
    run_both(p, &st, active, params, budget)
}

/// `st` run with lanes `active` in the interpreter and as machine code (each from a copy
/// of `st` and a fresh [`env`]), with how many batches the second ran as machine code.
fn run_both(
    p: &Arc<Program>,
    st: &LaneState,
    active: u32,
    params: &[[u32; 4]],
    budget: u64,
) -> (Ran, Ran, u64) {
    let run = |backend: Backend| {
        let ex = Executor::new(p.clone())
            .with_budget(budget)
            .with_backend(backend);
        let mut state = st.clone();
        let mut e = env();
        let stats = run_stage(&ex, &mut state, active, params, &mut e);
        Ran {
            state,
            stats,
            env: e,
        }
    };
    let a = run(Backend::Interpreter);
    let (b, native) = counting_native(|| run(Backend::NativeAllRegisters));
    (a, b, native)
}

/// A full batch's lane state for `p` with inputs 0 and 1 of each lane from `vals`.
fn random_lanes(p: &Arc<Program>, vals: &[u32]) -> LaneState {
    let mut st = LaneState::new(p, MAX_LANES);
    for l in 0..MAX_LANES {
        st.set_input(0, l, [0, 1, 2, 3].map(|i| lane_word(vals, l, 0, i)));
        st.set_input(1, l, [0, 1, 2, 3].map(|i| lane_word(vals, l, 1, i)));
    }
    st
}

/// Masks every program runs with: all lanes (the "full" kernel), whole quads, and
/// scattered lanes.
const MASKS: [u32; 3] = [0xffff, 0x0ff0, 0b1011_0110_0010_1101];

#[test]
fn reftest_programs_native_equals_interpreter() {
    // Per-lane loop counts (`REP a.x` on a varying register): the kernel stops with a
    // rerun by the interpreter, on every mask (`compile/lower/flow.rs`).
    compare_all(
        reftest_paths(),
        100,
        &[
            "flow_rep_brk.shader_test",
            "flow_rep_cont_nested.shader_test",
        ],
    );
}

#[test]
fn corpus_native_equals_interpreter() {
    if let Some(paths) =
        corpus_paths("programs/tests/exec_native.rs corpus_native_equals_interpreter")
    {
        compare_all(paths, 200, &[]);
    }
}

/// Every program that assembles in `paths` (at least `min` of them), both ways, with
/// each of [`MASKS`]; prints how many compiled and why the others fall back. Every run
/// of a program that compiles must run as machine code, except in the files named in
/// `reruns` (each of which must have such a run).
fn compare_all(paths: Vec<std::path::PathBuf>, min: usize, reruns: &[&str]) {
    let (mut ran, mut native) = (0, 0);
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    // Runs of compiled programs that still went to the interpreter: none may.
    let mut interpreted = Vec::new();
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for prog in programs(&text) {
            let Ok(p) = glemu_programs::assemble(&prog, None) else {
                continue;
            };
            let p = Arc::new(p);
            ran += 1;
            let status = Executor::new(p.clone())
                .with_backend(Backend::Native)
                .native_status()
                .expect("native backend");
            let compiled = status.is_ok();
            // (Compute work groups and control patches in lock-step also run as machine
            // code: tests/exec_native_group.rs, `control_patches_native_equal_interpreter`.)
            match status {
                Ok(()) => native += 1,
                Err(f) => *reasons.entry(f.reason).or_default() += 1,
            }
            let prm = params(&p, &[[0.5, 1.0, 2.0, 0.25]; 16]);
            for mask in MASKS {
                let before = native_reruns();
                let (a, b, batches) = both_counted(&p, mask, &prm, 100_000);
                let reruns = native_reruns() - before;
                let what = format!("({}, mask {mask:#06x})\n{prog}", path.display());
                assert_same(&p, &a, &b, &what);
                // A run that neither ran as machine code nor stopped for a rerun fell
                // back silently, wherever it is.
                assert!(
                    !compiled || batches + reruns == 1,
                    "{batches} batches ran as machine code, {reruns} reruns {what}"
                );
                if compiled && batches == 0 {
                    let file = path.file_name().map(|f| f.to_string_lossy().into_owned());
                    interpreted.push((file.unwrap_or_default(), what));
                }
            }
        }
    }
    println!("{ran} programs, {native} compiled; fallbacks:");
    for (r, n) in &reasons {
        println!("  {n:5}  {r}");
    }
    println!(
        "{} runs of compiled programs went to the interpreter (expected in {reruns:?})",
        interpreted.len()
    );
    let unexpected: Vec<&str> = interpreted
        .iter()
        .filter(|(file, _)| !reruns.contains(&file.as_str()))
        .map(|(_, what)| what.as_str())
        .collect();
    assert!(
        unexpected.is_empty(),
        "{} runs of programs that compile went to the interpreter:\n{}",
        unexpected.len(),
        unexpected.join("\n---\n")
    );
    for file in reruns {
        assert!(
            interpreted.iter().any(|(f, _)| f == file),
            "{file} no longer reruns in the interpreter: take it off the list"
        );
    }
    assert!(ran >= min, "only {ran} programs found");
}

/// [`assert_patch_same`] at the default budget, on the same inputs in every batch (every
/// input, vertex copy and lane: `input_word`).
fn patch_same(p: &Arc<Program>, invocations: usize, params: &[[u32; 4]], what: &str) -> (u64, u64) {
    let batches = invocations.div_ceil(MAX_LANES).max(1);
    let states = vec![filled_state(p, invocations.max(3)); batches];
    assert_patch_same(p, &states, invocations, params, 100_000, env, what)
}

/// Whether `p` reads other invocations' results (`vertex.out` / `primitive.out`), which
/// takes its patches to the lock-step kernels.
fn reads_patch(p: &Program) -> bool {
    p.inputs.iter().any(|i| {
        matches!(
            i.binding,
            InputBinding::VertexOut(_) | InputBinding::PatchOut(_)
        )
    })
}

/// How many batches `run_patch` of `invocations` runs as machine code (unless a kernel
/// stops for the interpreter): one batch whose invocations read no other invocation's
/// results runs as one kernel, any other patch as lock-step kernels (one per batch) when
/// they compile; none with LONG results (see `Executor::run_patch`).
fn patch_batches(p: &Arc<Program>, invocations: usize) -> u64 {
    let ex = Executor::new(p.clone()).with_backend(Backend::Native);
    if invocations == 0 || p.outputs.iter().any(|o| o.info.long) {
        return 0;
    }
    if invocations <= MAX_LANES && !reads_patch(p) {
        return u64::from(ex.native_status() == Some(Ok(())));
    }
    match ex.native_patch_status() {
        Some(Ok(())) => invocations.div_ceil(MAX_LANES) as u64,
        _ => 0,
    }
}

/// Tessellation control programs of the reftests and the corpus through `run_patch`,
/// natively and interpreted, at several patch sizes (one batch and two).
#[test]
fn control_patches_native_equal_interpreter() {
    let mut paths = reftest_paths();
    paths.extend(corpus_paths("programs/tests/exec_native.rs control_patches").unwrap_or_default());
    let (mut n, mut compiled, mut reran) = (0, 0, 0);
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for prog in programs(&text) {
            let Ok(p) = glemu_programs::assemble(&prog, None) else {
                continue;
            };
            if p.stage != Stage::TessControl {
                continue;
            }
            let p = Arc::new(p);
            n += 1;
            let prm = params(&p, &[[0.5, 1.0, 2.0, 0.25]; 16]);
            let out = p.decls.vertices_out.map_or(4, |v| v as usize);
            for invocations in [out, 1, 16, 20, 32] {
                let what = format!("({}, {invocations} invocations)\n{prog}", path.display());
                let (native, reruns) = patch_same(&p, invocations, &prm, &what);
                let want = patch_batches(&p, invocations);
                // A kernel that stops for the interpreter (per-lane loop counts) hands it
                // the whole patch.
                if reruns == 0 || want == 0 {
                    assert_eq!((native, reruns), (want, 0), "machine code ran? {what}");
                } else {
                    assert_eq!(native, 0, "{what}");
                    reran += 1;
                }
                compiled += native;
            }
        }
    }
    println!(
        "{n} tessellation control programs, {compiled} batches run as machine code, \
         {reran} patches handed to the interpreter"
    );
    assert!(
        compiled >= 10,
        "only {compiled} patches ran as machine code"
    );
    assert!(n >= 10, "only {n} tessellation control programs found");
}

/// Per-patch results written by some invocations, differently, in branches and loops,
/// read back by others: the highest writing invocation wins at each instruction, as in
/// the lock-step interpreter.
#[test]
fn control_patch_results_published_as_interpreted() {
    let bodies = [
        "MOV result.patch.tessouter[0].x, vertex[1].attrib[0].x;\nMOV result.patch.tessouter[0].y, vertex[0].attrib[0].y;",
        "MOV result.patch.attrib[0], primitive.invocation.x;\nMUL result.patch.attrib[0].y, primitive.invocation.x, 2;",
        "TEMP t;\nSLT.CC t.x, primitive.invocation.x, 3;\nIF GT.x;\nMOV result.patch.tessinner[0].x, primitive.invocation.x;\nELSE;\nMOV result.patch.tessinner[1].x, -1;\nENDIF;\nADD result.attrib[0], primitive.invocation.x, 1;",
        "TEMP t;\nINT TEMP i;\nMOV t, 0;\nMOV.S i.x, primitive.invocation.x;\nREP.S i.x;\nADD t.y, t.y, 1;\nMOV result.patch.tessouter[1].y, t.y;\nENDREP;\nMOV result.attrib[1], t;",
        "TEMP t;\nMOV t, primitive.invocation;\nMOV result.patch.attrib[2].xz, t;\nSIN result.patch.attrib[2].y, t.x;",
    ];
    for (n, body) in bodies.into_iter().enumerate() {
        let text = format!("!!NVtcp5.0\nVERTICES_OUT 4;\n{body}\nEND\n");
        let p = assemble(&text, Stage::TessControl);
        let prm = params(&p, &[]);
        for invocations in [1, 3, 4, 7, 16, 17, 32] {
            let (native, reruns) = patch_same(&p, invocations, &prm, &text);
            // Past one batch the invocations run in lock-step kernels, one per batch. The
            // fourth body's loop count comes from the invocation input, so lanes entering
            // it with different counts make the kernel hand the patch to the interpreter
            // (it does at 16 invocations and more).
            let batches = invocations.div_ceil(MAX_LANES) as u64;
            let want = if n == 3 && invocations >= MAX_LANES {
                (0, 1)
            } else {
                (batches, 0)
            };
            if n != 3 || invocations >= MAX_LANES {
                assert_eq!((native, reruns), want, "{invocations} invocations\n{text}");
            }
        }
    }
}

/// Runs with a short parameter list go to the interpreter, and runs cut short by the
/// budget stop in the kernel; both report exactly what the interpreter reports.
#[test]
fn short_params_and_budget_fall_back() {
    let p = assemble(
        "!!ARBfp1.0\nPARAM k = program.env[3];\nTEMP t;\nMUL t, fragment.color, k;\nMUL result.color, t, k;\nEND",
        Stage::Fragment,
    );
    let (a, b, native) = both_counted(&p, 0xffff, &[], 100);
    assert_eq!(native, 0, "short parameters run in the interpreter");
    assert_eq!(a.stats.as_ref().map(|s| s.oob_reads), Ok(32));
    assert_same(&p, &a, &b, "short params");
    let (a, b, native) = both_counted(&p, 0xffff, &params(&p, &[]), 0);
    // The budget stops the kernel itself, which reports the interpreter's error.
    assert_eq!(native, 1, "the budget error comes from the kernel");
    assert!(a.stats.is_err());
    assert_same(&p, &a, &b, "budget");
}

#[test]
fn straight_line_fragment_programs_compile() {
    let p = assemble(
        "!!ARBfp1.0\nTEMP t;\nTEX t, fragment.texcoord[0], texture[0], 2D;\nMUL t, t, fragment.color;\nKIL fragment.color;\nMOV result.color, t;\nEND",
        Stage::Fragment,
    );
    let ex = Executor::new(p.clone()).with_backend(Backend::Native);
    assert_eq!(ex.native_status(), Some(Ok(())));
    let (a, b) = both(&p, 0xffff, &[], 100);
    assert_ne!(a.state.kill_mask(), 0);
    assert_same(&p, &a, &b, "tex + kil");
    let s: ExecStats = b.stats.expect("native run");
    let i: ExecStats = a.stats.expect("interpreted run");
    assert_eq!(
        (s.instructions, s.lane_instructions),
        (i.instructions, i.lane_instructions)
    );
}

/// MIN and MAX on every pair of special values (NaN payloads in either or both
/// operands, ±0 ties both ways, infinities, denormals): kernels build them from MINPS and
/// MAXPS with fix-ups, which must give the interpreter's rules bit for bit.
#[test]
fn min_max_every_special_pair() {
    const VALS: [u32; 12] = [
        0x0000_0000,
        0x8000_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x7fc0_0000,
        0xffc1_2345,
        0x7f80_0001,
        0x7f80_0000,
        0xff80_0000,
        0x0000_0001,
        0x807f_ffff,
        0x4020_0000,
    ];
    let p = assemble(MIN_MAX, Stage::Fragment);
    // Lane l, component c of batch j pairs value (4l + c) % 12 with value j.
    for (j, &y) in VALS.iter().enumerate() {
        let mut st = LaneState::new(&p, MAX_LANES);
        for l in 0..MAX_LANES {
            st.set_input(0, l, [0, 1, 2, 3].map(|c| VALS[(4 * l + c) % VALS.len()]));
            st.set_input(1, l, [y; 4]);
        }
        let (a, b, native) = run_both(&p, &st, 0xffff, &[], 100);
        assert_eq!(native, 1, "the native run fell back to the interpreter");
        assert_same(&p, &a, &b, &format!("second operand {y:#010x} (value {j})"));
    }
}

/// MIN and MAX of the first two texture coordinates into temps `a` and `b`, which
/// [`assert_same`] compares lane by lane.
const MIN_MAX: &str = "!!ARBfp1.0\nTEMP a, b;\nMIN a, fragment.texcoord[0], fragment.texcoord[1];\nMAX b, fragment.texcoord[0], fragment.texcoord[1];\nADD result.color, a, b;\nEND";

/// f32 bits weighted towards MIN/MAX's fix-ups: NaNs of any payload, sign and kind
/// (quiet or signalling), signed zeros and denormals, infinities, any bits.
fn min_max_word() -> impl Strategy<Value = u32> {
    let sign = |s: bool| u32::from(s) << 31;
    prop_oneof![
        any::<u32>(),
        (1u32..0x0080_0000, any::<bool>()).prop_map(move |(m, s)| 0x7f80_0000 | m | sign(s)),
        (0u32..0x0080_0000, any::<bool>()).prop_map(move |(m, s)| m | sign(s)),
        any::<bool>().prop_map(sign),
        Just(0x7f80_0000),
        Just(0xff80_0000),
    ]
}

proptest! {
    /// [`min_max_every_special_pair`] on random bit patterns: NaN payloads beyond its
    /// twelve values, both operands NaN, equal operands and ±0 ties (a quarter of the
    /// pairs each have y = x and y = x with the sign flipped).
    #[test]
    fn min_max_random_bits(
        pairs in proptest::collection::vec((min_max_word(), min_max_word(), 0u8..4), 4 * MAX_LANES),
    ) {
        let p = assemble(MIN_MAX, Stage::Fragment);
        let y_of = |(x, y, k): (u32, u32, u8)| match k {
            0 => x,
            1 => x ^ 0x8000_0000,
            _ => y,
        };
        let mut st = LaneState::new(&p, MAX_LANES);
        for (l, lane) in pairs.chunks_exact(4).enumerate() {
            st.set_input(0, l, [0, 1, 2, 3].map(|c| lane[c].0));
            st.set_input(1, l, [0, 1, 2, 3].map(|c| y_of(lane[c])));
        }
        let (a, b, native) = run_both(&p, &st, 0xffff, &[], 100);
        prop_assert_eq!(native, 1, "the native run fell back to the interpreter");
        assert_same(&p, &a, &b, &format!("{pairs:x?}"));
    }
}

/// SIN, COS, EX2, LG2, POW and SCS compiled (calls of the interpreter's libm functions,
/// `compile::math`): the same bits on NaN payloads, -0, infinities and denormals,
/// with the legacy dialects' |x| in LG2 and with saturation and condition codes.
#[test]
fn transcendentals_compile_and_match() {
    let arb = "!!ARBfp1.0\nTEMP t, u;\nLG2 t.x, -fragment.color.y;\nEX2 t.y, fragment.color.x;\nSIN t.z, fragment.texcoord[0].w;\nCOS t.w, -fragment.texcoord[0].x;\nPOW u.x, fragment.color.z, fragment.texcoord[0].y;\nSCS u.yz, fragment.color.w;\nPOW_SAT u.w, t.x, fragment.color.z;\nMOV result.color, t;\nMOV result.depth.z, u.w;\nADD result.color.xy, t, u;\nEND";
    let nv = "!!NVfp5.0\nOPTION ARB_draw_buffers;\nTEMP t, u;\nLG2.CC t.x, -fragment.color.y;\nEX2.SAT t.y, fragment.color.x;\nSIN t.z (GT.x), fragment.texcoord[0].w;\nCOS.SSAT t.w, |fragment.texcoord[0].x|;\nPOW u, fragment.color.z, fragment.texcoord[0].y;\nMOV result.color, t;\nMOV result.color[1], u;\nEND";
    for text in [arb, nv] {
        let p = assemble(text, Stage::Fragment);
        let ex = Executor::new(p.clone()).with_backend(Backend::Native);
        assert_eq!(ex.native_status(), Some(Ok(())), "{text}");
        for mask in MASKS {
            let (a, b) = both(&p, mask, &[], 100);
            assert_same(&p, &a, &b, &format!("mask {mask:#06x}\n{text}"));
        }
    }
}

/// Blocks that every lane enters and leaves together (IF/ELSE, REP with one count, no
/// KIL/BRK/RET inside) let the full-mask kernel write without masks after them and inside
/// the loop; blocks that can lose lanes keep masking. Each way against the interpreter.
#[test]
fn writes_after_blocks_that_keep_every_lane() {
    let alu_flow = "!!NVfp5.0\nPARAM k = {0.37, 0.61, 0.83, 1.13};\nPARAM m = {1.7, 2.3, 0.5, 0.25};\nTEMP p, a, t, u;\nMOV p, fragment.texcoord[0];\nMOV a, {0.0, 0.0, 0.0, 1.0};\nREP 6;\nMAD p.xy, p.yxzw, m, k.zwxy;\nFRC p.xy, p;\nMUL t.x, p.x, p.y;\nSGT.CC t.y, t.x, 0.25;\nIF GT.y;\nMAD a.xyz, p.xyxw, k, a;\nMUL a.z, a.z, 0.5;\nELSE;\nADD a.xyz, a, t.x;\nMUL a.xy, a, 0.75;\nENDIF;\nENDREP;\nDP3 t.x, a, a;\nADD t.x, t.x, 1.0;\nRSQ t.y, t.x;\nMUL u.xyz, a, t.y;\nLG2 t.z, t.x;\nSIN u.w, a.x;\nMAD u.xyz, u, t.z, k;\nMOV result.color, u;\nEND";
    let texts = [
        alu_flow,
        // KIL inside the IF: the lanes it kills must not be written after ENDIF.
        "!!NVfp5.0\nTEMP t;\nMOV t, fragment.color;\nSGT.CC t.w, t.x, 0.5;\nIF GT.w;\nMOV t.y, 2;\nELSE;\nKIL {-1, -1, -1, -1};\nENDIF;\nADD result.color, t, 1;\nEND",
        // BRK inside the loop: lanes leave at different iterations.
        "!!NVfp5.0\nTEMP t, u;\nMOV t, fragment.color;\nREP 5;\nADD t.x, t.x, 1;\nSGT.CC u.x, t.x, fragment.texcoord[0].y;\nBRK (GT.x);\nMUL t.z, t.z, 1.5;\nENDREP;\nMOV result.color, t;\nEND",
        // A loop count from a parameter, nested IFs, an IF without ELSE, a loop that runs
        // no iteration.
        "!!NVfp5.0\nPARAM n = program.local[0];\nTEMP t, u;\nMOV t, fragment.color;\nREP n.x;\nSGT.CC u, t, 0.3;\nIF GT.x;\nIF GT.y;\nADD t.y, t.y, 0.125;\nENDIF;\nMUL t.x, t.x, 0.5;\nENDIF;\nADD t.z, t.z, t.x;\nENDREP;\nREP 0;\nMOV t, 7;\nENDREP;\nMOV result.color, t;\nEND",
        // A count that differs per lane: the kernel stops and the interpreter reruns the
        // batch where the entering lanes' counts differ (the last text, see below).
        "!!NVfp5.0\nTEMP t, u;\nMOV t, fragment.color;\nFLR u.x, |t.x|;\nREP u.x;\nADD t.y, t.y, 1;\nENDREP;\nMOV result.color, t;\nEND",
    ];
    for (n, text) in texts.into_iter().enumerate() {
        let p = assemble(text, Stage::Fragment);
        let ex = Executor::new(p.clone()).with_backend(Backend::Native);
        assert_eq!(ex.native_status(), Some(Ok(())), "{text}");
        let prm = params(&p, &[[3.0, 1.0, 2.0, 0.25]; 4]);
        for mask in MASKS {
            let (a, b, native) = both_counted(&p, mask, &prm, 100_000);
            let reruns = n == texts.len() - 1;
            // The lanes of 0x0ff0 that enter the loop share one count (only lane 11's
            // |t.x| floors above 0), so that run stays in the kernel.
            let kernel = !reruns || mask == 0x0ff0;
            assert_eq!(
                native,
                u64::from(kernel),
                "mask {mask:#06x}, machine code? {text}"
            );
            assert_same(&p, &a, &b, &format!("mask {mask:#06x}\n{text}"));
            let (s, i) = (
                b.stats.expect("native run"),
                a.stats.expect("interpreted run"),
            );
            assert_eq!(
                (s.instructions, s.lane_instructions),
                (i.instructions, i.lane_instructions),
                "{text}"
            );
        }
    }
}

/// IF/ELSE blocks in a loop with one count for every lane: while every lane runs, the
/// IF tests its condition without the mask (`Lower::mask_vals`), and a THEN or ELSE of
/// straight-line code hands its entering lanes on to ENDIF without reading them back
/// out of the mask (`keeps_mask`). Blocks that change the mask inside (KIL, a nested IF,
/// BRK, a nested loop with a count per lane, a subroutine's RET) and entry masks of some
/// lanes must take the lanes that really arrive: the
/// registers, kill masks and instruction counters equal the interpreter's.
#[test]
fn if_blocks_in_uniform_loops_pass_on_their_lanes() {
    let texts = [
        // Straight-line THEN and ELSE, in a loop and after it.
        "!!NVfp5.0\nTEMP t, u;\nMOV t, fragment.color;\nREP 4;\nSGT.CC u.x, t.x, 0.1;\nIF GT.x;\nMUL t.x, t.x, 0.5;\nADD t.y, t.y, 1;\nELSE;\nADD t.x, t.x, 0.75;\nENDIF;\nENDREP;\nSLT.CC u.y, t.y, 2;\nIF GT.y;\nMOV t.z, 3;\nELSE;\nMOV t.w, 4;\nENDIF;\nMOV result.color, t;\nEND",
        // KIL in the ELSE, a nested IF in the THEN: the arriving lanes differ from the
        // entering ones.
        "!!NVfp5.0\nTEMP t, u;\nMOV t, fragment.color;\nREP 3;\nSGT.CC u.x, t.x, 0.2;\nIF GT.x;\nSGT.CC u.y, t.y, 0.4;\nIF GT.y;\nMUL t.y, t.y, 0.5;\nENDIF;\nADD t.x, t.x, -0.25;\nELSE;\nSLT.CC u.z, t.z, 0.3;\nKIL LT.z;\nADD t.x, t.x, 0.5;\nENDIF;\nENDREP;\nMOV result.color, t;\nEND",
        // BRK in the THEN: the loop keeps fewer lanes.
        "!!NVfp5.0\nTEMP t, u;\nMOV t, fragment.color;\nREP 5;\nADD t.x, t.x, 0.3;\nSGT.CC u.x, t.x, fragment.texcoord[0].y;\nIF GT.x;\nBRK;\nELSE;\nMUL t.z, t.z, 1.5;\nENDIF;\nENDREP;\nMOV result.color, t;\nEND",
        // A loop with a count per lane (0 or 2) inside one that keeps every lane: the
        // lanes with 0 skip the inner loop and its IF, and every lane meets again after it.
        "!!NVfp5.0\nTEMP t, u, n;\nMOV t, fragment.color;\nSGT n.x, t.w, 0.5;\nMUL n.x, n.x, 2;\nREP 3;\nREP n.x;\nSGT.CC u.x, t.x, 0.3;\nIF GT.x;\nMUL t.x, t.x, 0.5;\nELSE;\nADD t.y, t.y, 0.25;\nENDIF;\nENDREP;\nADD t.z, t.z, t.x;\nSLT.CC u.y, t.z, 1;\nIF GT.y;\nADD t.w, t.w, 0.5;\nENDIF;\nENDREP;\nMOV result.color, t;\nEND",
        // Straight-line IF branches in a subroutine that some lanes call from a loop, and
        // a RET that some of them take after it.
        "!!NVfp5.0\nTEMP t, u;\nMOV t, fragment.color;\nREP 2;\nSGT.CC u.x, t.x, 0.4;\nCAL sub (GT.x);\nADD t.z, t.z, 0.125;\nENDREP;\nMOV result.color, t;\nRET;\nsub:\nSLT.CC u.y, t.y, 0.6;\nIF GT.y;\nMUL t.y, t.y, 1.5;\nELSE;\nADD t.w, t.w, -0.25;\nENDIF;\nRET (GT.y);\nADD t.x, t.x, 0.25;\nRET;\nEND",
    ];
    for text in texts {
        let p = assemble(text, Stage::Fragment);
        let ex = Executor::new(p.clone()).with_backend(Backend::Native);
        assert_eq!(ex.native_status(), Some(Ok(())), "{text}");
        let prm = params(&p, &[]);
        for mask in MASKS {
            let (a, b) = both(&p, mask, &prm, 100_000);
            assert_same(&p, &a, &b, &format!("mask {mask:#06x}\n{text}"));
            let (s, i) = (
                b.stats.expect("native run"),
                a.stats.expect("interpreted run"),
            );
            assert_eq!(
                (s.instructions, s.lane_instructions),
                (i.instructions, i.lane_instructions),
                "mask {mask:#06x}\n{text}"
            );
        }
    }
}

// ---- random programs ----

const F2: &[&str] = &[
    "ADD", "SUB", "MUL", "MIN", "MAX", "SLT", "SGE", "SLE", "SGT", "SEQ", "SNE", "DP2", "DP3",
    "DP4", "DPH", "XPD", "DST", "DIV", "POW",
];
const F3: &[&str] = &["MAD", "LRP", "CMP", "DP2A"];
const F1: &[&str] = &[
    "MOV", "ABS", "FRC", "FLR", "CEIL", "ROUND", "TRUNC", "SSG", "RCP", "RSQ", "NRM", "DDX", "DDY",
    "EX2", "LG2", "SIN", "COS", "RCC", "SCS", "LIT",
];
/// Opcodes whose (first) operand is a scalar.
const SCALAR: &[&str] = &[
    "RCP", "RSQ", "EX2", "LG2", "SIN", "COS", "RCC", "SCS", "POW",
];
/// Opcodes whose second operand is a scalar.
const SCALAR2: &[&str] = &["DIV", "POW", "SHL", "SHR", "MOD"];
const I2: &[&str] = &[
    "ADD", "SUB", "MUL", "MIN", "MAX", "AND", "OR", "XOR", "SLT", "SGE", "SEQ", "SNE", "SHL",
    "SHR", "DIV", "MOD",
];
const I1: &[&str] = &["MOV", "ABS", "NOT", "BFR", "BTC"];
const I1U: &[&str] = &["MOV", "NOT", "BFR", "BTC"];
const SWZ: &[&str] = &["", ".x", ".yzwx", ".wwzz", ".y", ".zxyw", ".xxyy"];
const MASK: &[&str] = &["", ".x", ".yw", ".xyz", ".w", ".xz"];
const CC: &[&str] = &[
    "GT", "LT", "EQ", "NE", "GE", "LE", "NAN", "LEG", "TR", "FL", "CF", "OF",
];
const CLAMP: &[&str] = &["", "", "", ".SAT", ".SSAT"];

fn pick<'a>(t: &[&'a str], b: u8) -> &'a str {
    t[b as usize % t.len()]
}

fn cond(b: u8) -> String {
    format!(
        "({}{}{})",
        pick(CC, b),
        if b & 0x40 != 0 { "1" } else { "" },
        pick(&[".x", ".y", ".z", ".w", ".xyzw", ".wzyx"], b / 13)
    )
}

/// A straight-line NVfp5 program from byte tokens: float temps R0..R3, signed I0..I1,
/// unsigned U0.
fn build(tokens: &[[u8; 6]]) -> String {
    build_with(tokens, false, true)
}

/// A flow instruction for token `t` given the open blocks (`I` IF, `E` ELSE, `R` REP),
/// or None for an ordinary instruction.
fn flow_line(t: [u8; 6], open: &mut Vec<char>) -> Option<String> {
    let [_, a, b, c, d, _] = t;
    let in_loop = open.contains(&'R');
    let c_opt = |x: u8| {
        if x & 1 == 0 {
            format!(" {}", cond(d))
        } else {
            String::new()
        }
    };
    Some(match a % 10 {
        0 | 1 => {
            open.push('I');
            format!("IF {};", cond(d).trim_matches(|c| c == '(' || c == ')'))
        }
        2 if open.last() == Some(&'I') => {
            *open.last_mut()? = 'E';
            "ELSE;".into()
        }
        2 | 3 => match open.pop()? {
            'R' => "ENDREP;".into(),
            _ => "ENDIF;".into(),
        },
        4 | 5 => {
            open.push('R');
            match b % 5 {
                0 => format!("REP {{{}}}.x;", c % 4),
                1 => format!("REP.S I{}.{};", c % 2, pick(&["x", "y", "z", "w"], d)),
                2 => format!("REP R{}.{};", c % 4, pick(&["x", "y", "z", "w"], d)),
                3 => format!("REP.U {{{}}}.x;", 1 + c % 3),
                // The assembler wants a way out of a REP without a count.
                _ => format!("REP;\nBRK {};", cond(c)),
            }
        }
        6 if in_loop => format!("BRK{};", c_opt(b)),
        7 if in_loop => format!("CONT{};", c_opt(b)),
        8 => format!("RET{};", c_opt(b)),
        9 => format!("CAL s{}{};", c % 2, c_opt(b)),
        _ => return None,
    })
}

/// [`build`] with flow control (`flow`: nested IF/ELSE/REP/BRK/CONT/RET from some
/// tokens) and with or without instructions that call the environment (`env`).
fn build_with(tokens: &[[u8; 6]], flow: bool, env: bool) -> String {
    let head = "!!NVfp5.0\nOPTION ARB_draw_buffers;\nTEMP R0, R1, R2, R3;\nINT TEMP I0, I1;\nMOV R0, fragment.color;\nMOV R1, fragment.texcoord[0];\nMOV R2, -fragment.color.yzwx;\nMOV.CC R3, fragment.texcoord[0].wxyz;\nFLR.S I0, fragment.texcoord[0];\nMOV.S.CC1 I1, fragment.color;\n";
    let tail = "MOV result.color, R0;\nMOV result.color[1], R1;\nMOV result.color[2], R2;\nMOV result.color[3], R3;\n";
    if !flow {
        return format!("{head}{}{tail}END\n", body_of(tokens, false, env));
    }
    // Main, then two subroutines (CAL from anywhere, recursion included). Some programs
    // have no RET before a label: main runs on into s0, s0 returns at s1 however its
    // lanes get there (a skipped IF, a loop's exit, a return, a partial CAL or RET).
    let (main, subs) = tokens.split_at(tokens.len() / 2);
    let (s0, s1) = subs.split_at(subs.len() / 2);
    let omit = tokens.first().map_or(0, |t| t[0] ^ t[5]);
    let ret = |bit: u8| if omit & bit != 0 { "" } else { "RET;\n" };
    format!(
        "{head}{}{tail}{}s0:\n{}{}s1:\n{}END\n",
        body_of(main, true, env),
        ret(0x10),
        body_of(s0, true, env),
        ret(0x03),
        body_of(s1, true, env)
    )
}

/// The instructions of `tokens`, every block closed.
fn body_of(tokens: &[[u8; 6]], flow: bool, env: bool) -> String {
    let mut body = String::new();
    let mut open: Vec<char> = Vec::new();
    let f = |b: u8| format!("R{}", b % 4);
    let i = |b: u8| format!("I{}", b % 2);
    for t in tokens {
        let [k, a, b, c, d, e] = *t;
        if flow && e % 3 == 2 {
            if let Some(line) = flow_line(*t, &mut open) {
                body.push_str(&line);
                body.push('\n');
                continue;
            }
        }
        let neg = |x: u8| if x.is_multiple_of(3) { "-" } else { "" };
        let bar = |x: u8, r: String| {
            if x.is_multiple_of(5) {
                format!("|{r}|")
            } else {
                r
            }
        };
        let cc = match e % 6 {
            0 => ".CC",
            1 => ".CC1",
            _ => "",
        };
        let wc = if e.is_multiple_of(7) {
            cond(d)
        } else {
            String::new()
        };
        let dst = |r: String| format!("{r}{}{wc}", pick(MASK, c));
        let comp = |x: u8| pick(&[".x", ".y", ".z", ".w"], x);
        let line = match k % 12 {
            0..=3 => {
                let op = pick(F2, a);
                let s1 = if SCALAR.contains(&op) { comp(c) } else { "" };
                let s2 = if SCALAR2.contains(&op) {
                    comp(d)
                } else {
                    pick(SWZ, a / 7)
                };
                format!(
                    "{op}{}{cc} {}, {}{}, {}{s2};",
                    pick(CLAMP, e / 6),
                    dst(f(b)),
                    neg(d),
                    bar(e, format!("{}{s1}", f(c))),
                    f(d),
                )
            }
            4..=5 => format!(
                "{}{}{cc} {}, {}{}, {}, {}{};",
                pick(F3, a),
                pick(CLAMP, e / 6),
                dst(f(b)),
                neg(d),
                f(c),
                bar(e, f(d)),
                f(a),
                pick(SWZ, e / 3)
            ),
            6..=7 => {
                let op = pick(F1, a);
                let (m, sw) = match op {
                    _ if SCALAR.contains(&op) => (pick(MASK, c), comp(d)),
                    "NRM" => (".xyz", pick(SWZ, d / 2)),
                    _ => (pick(MASK, c), pick(SWZ, d / 2)),
                };
                format!(
                    "{op}{}{cc} {}{m}{wc}, {}{};",
                    pick(CLAMP, e / 6),
                    f(b),
                    neg(d),
                    bar(e, format!("{}{sw}", f(c))),
                )
            }
            8 => {
                let op = pick(I2, a);
                let s2 = if SCALAR2.contains(&op) { comp(e) } else { "" };
                format!(
                    "{op}.{}{cc} {}, {}{}, {}{s2};",
                    if a & 0x80 != 0 { "U" } else { "S" },
                    dst(i(b)),
                    neg(d),
                    i(c),
                    i(d)
                )
            }
            9 => {
                let u = a & 0x80 != 0;
                format!(
                    "{}.{}{cc} {}, {}{};",
                    if u { pick(I1U, a) } else { pick(I1, a) },
                    if u { "U" } else { "S" },
                    dst(i(b)),
                    neg(d),
                    i(c)
                )
            }
            10 => format!(
                "{}.{} {}, {}{};",
                pick(&["FLR", "CEIL", "ROUND", "TRUNC"], a),
                pick(&["S", "U"], b),
                dst(i(c)),
                neg(d),
                f(e)
            ),
            _ => match a % 7 {
                3..=5 if !env => format!("MOV{cc} {}, {};", dst(f(b)), f(c)),
                0 => format!("KIL {};", cond(d).trim_matches(|c| c == '(' || c == ')')),
                1 => format!("KIL {}{};", neg(d), f(c)),
                2 => format!("I2F {}, {};", dst(f(b)), i(c)),
                3 => format!(
                    "{}{}{cc} {}, {}{}{}, texture[{}], 2D;",
                    pick(&["TEX", "TXB", "TXL", "TXP"], d),
                    pick(CLAMP, e / 6),
                    dst(f(b)),
                    neg(d),
                    f(c),
                    pick(SWZ, e),
                    a % 3
                ),
                4 => format!("TXF.S {}, {}, texture[1], 2D;", dst(i(b)), i(c)),
                5 => format!("TXQ {}, {}.x, texture[2], 2D;", dst(i(b)), i(c)),
                _ => format!("MOV{cc} {}, {};", dst(f(b)), f(c)),
            },
        };
        body.push_str(&line);
        body.push('\n');
    }
    while let Some(o) = open.pop() {
        body.push_str(if o == 'R' { "ENDREP;\n" } else { "ENDIF;\n" });
    }
    body
}

fn lane_word(vals: &[u32], l: usize, k: usize, i: usize) -> u32 {
    vals[(l * 8 + k * 4 + i) % vals.len()]
}

fn word() -> impl Strategy<Value = u32> {
    prop_oneof![
        (-4.0f32..4.0).prop_map(f32::to_bits),
        (-100i32..100).prop_map(|x| x as u32),
        Just(0u32),
        Just(0x8000_0000),
        Just(0x7f80_0000),
        Just(0xff80_0000),
        Just(0x7fc0_0000),
        Just(0xffc0_1234),
        Just(0x7fa0_0001),
        Just(0x0000_0003),
        Just(0x807f_fff0),
        any::<u32>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn random_straight_line_programs(
        tokens in proptest::collection::vec(any::<[u8; 6]>(), 1..40),
        vals in proptest::collection::vec(word(), 8..64),
        mask in prop_oneof![Just(0xffffu32), Just(0x0ff0), any::<u16>().prop_map(u32::from)],
    ) {
        let text = build(&tokens);
        let p = match glemu_programs::assemble(&text, Some(Stage::Fragment)) {
            Ok(p) => Arc::new(p),
            Err(e) => panic!("generator made an invalid program: {}\n{text}", e.render(&text)),
        };
        let ex = Executor::new(p.clone()).with_backend(Backend::Native);
        prop_assert_eq!(ex.native_status(), Some(Ok(())), "{}", text);
        let prm = params(&p, &[]);
        // Straight-line programs of at most 40 instructions: any budget past that is
        // the default budget's run.
        let (a, b, native) = run_both(&p, &random_lanes(&p, &vals), mask, &prm, 100_000);
        assert_same(&p, &a, &b, &text);
        // No mask, no run: the kernel is not called.
        prop_assert_eq!(native, u64::from(mask != 0), "fell back to the interpreter\n{}", text);
    }
}

/// A random program's run both ways on inputs from `vals`: registers, errors and
/// counters must agree. Gives how many batches the native run ran as machine code.
fn random_run(
    p: &Arc<Program>,
    vals: &[u32],
    mask: u32,
    prm: &[[u32; 4]],
    budget: u64,
    text: &str,
) -> Result<u64, TestCaseError> {
    let (a, b, native) = run_both(p, &random_lanes(p, vals), mask, prm, budget);
    assert_same(p, &a, &b, text);
    if let (Ok(x), Ok(y)) = (&a.stats, &b.stats) {
        prop_assert_eq!(
            (x.instructions, x.lane_instructions),
            (y.instructions, y.lane_instructions),
            "{}",
            text
        );
    }
    Ok(native)
}

/// Whether a compiled random flow program may stop its kernel with a rerun by the
/// interpreter: per-lane loop counts (REP on a register) and CONT split the lanes of an
/// iteration (`compile/lower/flow.rs`). Every batch of other programs must run as
/// machine code; those of these programs must each run as machine code or stop for a
/// rerun (counted by `compile::native_reruns`).
fn may_rerun(text: &str) -> bool {
    text.contains("REP.S I") || text.contains("REP R") || text.contains("CONT")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    /// Divergent flow: nested IF/ELSE/REP (per-lane and uniform counts)/BRK/CONT/RET/KIL
    /// and CAL (conditional, nested, recursive up to the call depth) with random condition
    /// codes, small budgets (runaway loops stop at the same
    /// instruction), registers and counters compared.
    #[test]
    fn random_flow_programs(
        tokens in proptest::collection::vec(any::<[u8; 6]>(), 1..60),
        vals in proptest::collection::vec(word(), 8..64),
        mask in prop_oneof![Just(0xffffu32), Just(0x0ff0), any::<u16>().prop_map(u32::from)],
        env in any::<bool>(),
        budget in prop_oneof![Just(40u64), Just(300), Just(5000)],
    ) {
        let text = build_with(&tokens, true, env);
        let p = match glemu_programs::assemble(&text, Some(Stage::Fragment)) {
            Ok(p) => Arc::new(p),
            Err(e) => panic!("generator made an invalid program: {}\n{text}", e.render(&text)),
        };
        let ex = Executor::new(p.clone()).with_backend(Backend::Native);
        let compiled = match ex.native_status() {
            Some(Ok(())) => true,
            Some(Err(f)) if env && f.reason.contains("environment") => false,
            // Subroutines calling each other from several sites: 2^32 copies inline.
            Some(Err(f)) if f.reason.contains("too deep to inline") => false,
            other => { prop_assert!(false, "{:?}\n{}", other, text); false }
        };
        let before = native_reruns();
        let native = random_run(&p, &vals, mask, &params(&p, &[]), budget, &text)?;
        let reruns = native_reruns() - before;
        if !compiled || mask == 0 {
            prop_assert_eq!((native, reruns), (0, 0), "{}", text);
        } else {
            prop_assert_eq!(native + reruns, 1, "fell back to the interpreter\n{}", text);
            prop_assert!(reruns == 0 || may_rerun(&text), "an unexpected rerun\n{}", text);
        }
    }
}

/// Every condition test of flags a kernel wrote itself, on floats (NaN payloads, -0,
/// infinities, denormals) and integers, as write masks and IF conditions right after the
/// write (compared in the kernel as results, not flags) and after a block boundary
/// (tested from the flags): the same lanes as the interpreter.
#[test]
fn condition_tests_of_fresh_results() {
    for op in [
        "EQ", "NE", "LT", "GE", "LE", "GT", "NAN", "LEG", "CF", "NCF", "OF", "NOF", "AB", "BLE",
        "SF", "NSF", "TR", "FL",
    ] {
        let text = format!(
            "!!NVfp5.0\nOPTION ARB_draw_buffers;\nTEMP R0, R1, R2;\nINT TEMP I0;\n\
             MOV R1, 0;\nMOV R2, 0;\nMOV.CC R0, fragment.texcoord[0];\n\
             MOV R1 ({op}.xyzw), 1;\nIF {op}.y;\nMOV R1.w, 2;\nENDIF;\n\
             MOV R2 ({op}.wzyx), 3;\n\
             ADD.SAT.CC R0, fragment.color, -0.5;\nMOV R2.x ({op}.z), 4;\n\
             MOV.S.CC1 I0, fragment.color;\nMOV R1.z ({op}1.x), 5;\nIF {op}1.w;\nMOV R2.y, 6;\nENDIF;\n\
             MOV.U.CC1 I0, fragment.texcoord[0];\nMOV R2.z ({op}1.y), 7;\n\
             MOV result.color, R1;\nMOV result.color[1], R2;\nEND\n"
        );
        let p = assemble(&text, Stage::Fragment);
        let ex = Executor::new(p.clone()).with_backend(Backend::Native);
        assert_eq!(ex.native_status(), Some(Ok(())), "{text}");
        let prm = params(&p, &[]);
        for mask in MASKS {
            let (a, b) = both(&p, mask, &prm, 1000);
            assert_eq!(a.stats.as_ref().map(|s| s.oob_reads), Ok(0), "{text}");
            assert_same(&p, &a, &b, &format!("mask {mask:#06x}\n{text}"));
        }
    }
}

/// A REP with one count for every lane around IF/ELSE/ENDIF blocks and float
/// instructions (`ops`: a selector and an instruction token each): loops whose body the
/// full-mask kernel runs unmasked, and IF tests of condition codes written in the same
/// stretch (tested as comparisons of the result, `Lower::test_value`).
fn uniform_loop_program(count: &str, ops: &[(u8, [u8; 6])]) -> String {
    let mut body = String::new();
    let mut open: Vec<char> = Vec::new();
    for &(sel, mut t) in ops {
        match sel % 8 {
            0 => {
                open.push('I');
                body.push_str(&format!(
                    "IF {};\n",
                    cond(t[3]).trim_matches(|c| c == '(' || c == ')')
                ));
            }
            1 if open.last() == Some(&'I') => {
                *open.last_mut().unwrap() = 'E';
                body.push_str("ELSE;\n");
            }
            2 if open.pop().is_some() => body.push_str("ENDIF;\n"),
            _ => {
                // Float instructions only (integer and texture ones are steps or calls).
                t[0] %= 8;
                body.push_str(&body_of(&[t], false, false));
            }
        }
    }
    for _ in open {
        body.push_str("ENDIF;\n");
    }
    let head = "!!NVfp5.0\nOPTION ARB_draw_buffers;\nTEMP R0, R1, R2, R3;\nINT TEMP I0, I1;\nMOV R0, fragment.color;\nMOV R1, fragment.texcoord[0];\nMOV R2, -fragment.color.yzwx;\nMOV.CC R3, fragment.texcoord[0].wxyz;\nFLR.S I0, fragment.texcoord[0];\nMOV.S.CC1 I1, fragment.color;\n";
    let tail = "ADD R0, R0, R1;\nMOV result.color, R0;\nMOV result.color[1], R1;\nMOV result.color[2], R2;\nMOV result.color[3], R3;\n";
    format!("{head}REP{count};\n{body}ENDREP;\n{tail}END\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    /// Uniform REP loops: registers, condition codes, counters and budget errors as the
    /// interpreter's, for counts of none, some, many, negative and fractional, at budgets
    /// that stop inside the loop.
    #[test]
    fn random_uniform_loops(
        ops in proptest::collection::vec((any::<u8>(), any::<[u8; 6]>()), 1..24),
        count in prop_oneof![
            Just(" {0}.x"), Just(" {1}.x"), Just(" {3}.x"), Just(" {6}.x"), Just(" {64}.x"),
            Just(" {65}.x"), Just(" {-2.5}.x"), Just(" {2.7}.x"), Just(".U {5}.x"),
            Just(".S {-1}.x"), Just(" program.local[0].y"),
        ],
        vals in proptest::collection::vec(word(), 8..64),
        mask in prop_oneof![Just(0xffffu32), Just(0x0ff0), any::<u16>().prop_map(u32::from)],
        budget in prop_oneof![Just(30u64), Just(300), Just(100_000)],
    ) {
        let text = uniform_loop_program(count, &ops);
        let p = match glemu_programs::assemble(&text, Some(Stage::Fragment)) {
            Ok(p) => Arc::new(p),
            Err(e) => panic!("generator made an invalid program: {}\n{text}", e.render(&text)),
        };
        let ex = Executor::new(p.clone()).with_backend(Backend::Native);
        prop_assert_eq!(ex.native_status(), Some(Ok(())), "{}", text);
        let prm = params(&p, &[[0.0, 4.5, 0.0, 0.0]]);
        let native = random_run(&p, &vals, mask, &prm, budget, &text)?;
        prop_assert_eq!(native, u64::from(mask != 0), "fell back to the interpreter\n{}", text);
    }
}

/// The kernel of the ALU benchmark's fragment program (bench/scenes/alu_flow_1080p)
/// keeps its register pressure: vector moves between registers and the stack frame
/// (spills, reloads and the transcendentals' argument slots) in Cranelift's allocation.
/// 143 stores and 271 loads when this was written (147 and 277 while its IF still tested
/// computed flags, 142 and 258 since MIN/MAX are MINPS/MAXPS with fix-ups, 139 and 252
/// since they take y itself for a NaN x, 137 and 227 in 1413 lines of code since the mask
/// of a loop that keeps every lane is a constant and an IF hands on the lanes it set); a
/// lowering change that spills much more, or loses those, fails here.
#[test]
fn alu_benchmark_kernel_stack_traffic() {
    let scene = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../bench/scenes/alu_flow_1080p.nv.shader_test"
    ))
    .unwrap();
    let start = scene.find("!!NVfp5.0").unwrap();
    let end = start + scene[start..].find("\nEND\n").unwrap() + 4;
    let p = assemble(&scene[start..end], Stage::Fragment);
    let text = glemu_programs::compile::disassemble(&p, true).unwrap();
    let moves = |to_stack: bool| {
        text.lines()
            .filter(|l| {
                let l = l.trim_start();
                let Some((op, args)) = l.split_once(' ') else {
                    return false;
                };
                let Some((from, to)) = args.split_once(", ") else {
                    return false;
                };
                let (reg, mem) = if to_stack { (from, to) } else { (to, from) };
                op.contains("mov") && reg.starts_with("%xmm") && mem.contains("(%rsp)")
            })
            .count()
    };
    let (stores, loads) = (moves(true), moves(false));
    assert!(stores > 0 && loads > 0, "no stack traffic found:\n{text}");
    assert!(
        stores <= 160 && loads <= 260,
        "{stores} vector stores to the stack and {loads} loads:\n{text}"
    );
    let lines = text.lines().count();
    assert!(lines <= 1450, "{lines} lines of machine code:\n{text}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, .. ProptestConfig::default() })]

    /// `Executor::run_each` (one frame for several batches, the fully covered blocks'
    /// path) against `Executor::run` of each batch in turn in the interpreter: the same
    /// outputs and kill mask after every batch, the same error, the same environment
    /// calls; with divergent flow, environment calls and small budgets, so batches end
    /// in kernels, in reruns by the interpreter and in errors.
    #[test]
    fn run_each_equals_run_per_batch(
        tokens in proptest::collection::vec(any::<[u8; 6]>(), 1..40),
        vals in proptest::collection::vec(word(), 8..64),
        masks in proptest::collection::vec(
            prop_oneof![Just(0xffffu32), Just(0), any::<u16>().prop_map(u32::from)], 1..5),
        env in any::<bool>(),
        budget in prop_oneof![Just(40u64), Just(5000)],
    ) {
        let text = build_with(&tokens, true, env);
        let p = match glemu_programs::assemble(&text, Some(Stage::Fragment)) {
            Ok(p) => Arc::new(p),
            Err(e) => panic!("generator made an invalid program: {}\n{text}", e.render(&text)),
        };
        let prm = params(&p, &[]);
        let fill = |i: usize, st: &mut LaneState| {
            for l in 0..MAX_LANES {
                st.set_input(0, l, [0, 1, 2, 3].map(|c| lane_word(&vals, l + i, 0, c)));
                st.set_input(1, l, [0, 1, 2, 3].map(|c| lane_word(&vals, l + 3 * i, 1, c)));
            }
            st.set_helper_mask(0x8000 >> i);
            masks[i]
        };
        let outputs = |st: &LaneState| -> Vec<(Vec<[u32; 4]>, u32)> {
            vec![(
                (0..p.outputs.len())
                    .flat_map(|o| (0..MAX_LANES).map(move |l| (o, l)))
                    .map(|(o, l)| st.output_lane(o, l))
                    .collect(),
                st.kill_mask(),
            )]
        };
        // Reference: each batch through `run` in the interpreter.
        let ex = Executor::new(p.clone()).with_backend(Backend::Interpreter).with_budget(budget);
        let mut st = LaneState::new(&p, MAX_LANES);
        let mut e1 = env_of();
        let mut want = Vec::new();
        let mut want_err = None;
        // Batches with lanes up to the first error: the kernels must run all of them.
        let mut batches = 0;
        for i in 0..masks.len() {
            let m = fill(i, &mut st);
            if m == 0 {
                continue;
            }
            batches += 1;
            match ex.run(&mut st, m, &prm, &mut e1) {
                Ok(_) => want.extend(outputs(&st)),
                Err(e) => {
                    want_err = Some(e);
                    break;
                }
            }
        }
        for backend in [Backend::Interpreter, Backend::Native] {
            let ex = Executor::new(p.clone()).with_backend(backend).with_budget(budget);
            let mut st = LaneState::new(&p, MAX_LANES);
            let mut e2 = env_of();
            let mut got = Vec::new();
            let before = native_reruns();
            let (r, native) = counting_native(|| {
                ex.run_each(&mut st, &prm, &mut e2, masks.len(), fill, |_, st| {
                    got.extend(outputs(st))
                })
            });
            let reruns = native_reruns() - before;
            if backend == Backend::Interpreter || ex.native_status() != Some(Ok(())) {
                prop_assert_eq!((native, reruns), (0, 0), "{:?} {}", backend, text);
            } else {
                prop_assert_eq!(native + reruns, batches, "fell back to the interpreter\n{}", text);
                prop_assert!(reruns == 0 || may_rerun(&text), "an unexpected rerun\n{}", text);
            }
            prop_assert_eq!(&got, &want, "{:?} {}", backend, text);
            prop_assert_eq!(r.err(), want_err.clone(), "{:?} {}", backend, text);
            prop_assert_eq!(&e2, &e1, "{:?} {}", backend, text);
        }
    }
}

/// A random ARBvp1.0 program with NV_vertex_program3's flow: BRA to labels anywhere
/// (backwards too, into and out of subroutines), conditional CAL (recursion included)
/// and RET, PUSHA/POPA, ARL and arithmetic with condition codes. Without `bra` the
/// labels end subroutines (the interpreter's rule where no BRA exists).
fn vp3_program(tokens: &[[u8; 6]], bra: bool) -> String {
    let mut text = String::from(
        "!!ARBvp1.0\nOPTION NV_vertex_program3;\nADDRESS A0;\nPARAM k[] = { {1, 2, 3, 4}, {-5, 6, 0.5, 8}, {9, -1, 11, 0}, {13, 0.25, 15, -16} };\nTEMP R0, R1, R2, R3;\nMOV R0, vertex.color;\nMOV R1, vertex.texcoord[0];\nMOVC R2, -vertex.color.yzwx;\nMOV R3, vertex.texcoord[0].wxyz;\nARL A0, vertex.color;\n",
    );
    let third = tokens.len() / 3;
    let r = |b: u8| format!("R{}", b % 4);
    let c_opt = |x: u8, d: u8| {
        if x & 1 == 0 {
            let cc = ["EQ", "NE", "LT", "GE", "LE", "GT", "TR", "FL"];
            format!(
                " ({}{})",
                pick(&cc, d),
                pick(&[".x", ".y", ".z", ".w", ".xyzw", ".wzyx"], d / 13)
            )
        } else {
            String::new()
        }
    };
    let mut labels = 0;
    for (n, t) in tokens.iter().enumerate() {
        let [k, a, b, c, d, e] = *t;
        if n == third.max(1) {
            text.push_str("MOV result.position, R0;\nMOV result.color, R1;\nMOV result.texcoord[0], R2;\nMOV result.texcoord[1], R3;\nRET;\ns0:\n");
        }
        if n == (2 * third).max(2) {
            // Sometimes s0 ends at the label alone.
            text.push_str(if k % 3 == 0 { "s1:\n" } else { "RET;\ns1:\n" });
        }
        if labels < 4 && e % 5 == 0 {
            text.push_str(&format!("l{labels}:\n"));
            labels += 1;
        }
        let wc = if e % 7 == 3 {
            c_opt(0, d)
        } else {
            String::new()
        };
        let line = match k % 10 {
            0 if bra => format!("BRA l{}{};", a % 4, c_opt(b, d)),
            1 => format!("CAL s{}{};", a % 2, c_opt(b, d)),
            2 => format!("RET{};", c_opt(b, d)),
            // Mostly balanced (else the stack's depth differs between paths).
            3 if a % 8 == 0 => "PUSHA A0;".into(),
            3 => format!("PUSHA A0;\nARL A0, {}.wzyx;\nPOPA A0;", r(b)),
            4 if a % 8 == 0 => "POPA A0;".into(),
            4 => format!(
                "PUSHA A0;\nADD {}, {}, k[A0.{}+1];\nPOPA A0;",
                r(b),
                r(c),
                pick(&["x", "y", "z", "w"], d)
            ),
            5 => format!("ARL A0, {}{};", r(a), pick(SWZ, b)),
            6 => format!(
                "{}{} {}{}{wc}, {}, {}{};",
                pick(
                    &["ADD", "MUL", "MIN", "MAX", "SLT", "SGE", "SEQ", "SNE", "DP3"],
                    a
                ),
                if c & 1 == 0 { "C" } else { "" },
                r(b),
                pick(MASK, c),
                r(d),
                r(e),
                pick(SWZ, a / 9)
            ),
            7 => {
                let op = pick(&["FLR", "FRC", "MOV", "ABS", "SSG", "RCP", "EX2"], a);
                let swz = if matches!(op, "RCP" | "EX2") {
                    ".y"
                } else {
                    pick(SWZ, a / 7)
                };
                format!(
                    "{op}{} {}{}{wc}, {}{swz};",
                    if c & 1 == 0 { "C" } else { "" },
                    r(b),
                    pick(MASK, c),
                    r(d),
                )
            }
            8 => format!("ADDC {}.x, {}.x, -1.0;", r(b), r(b)),
            _ => format!("MAD {}, {}, {}, {};", r(b), r(c), r(d), r(a)),
        };
        text.push_str(&line);
        text.push('\n');
    }
    if tokens.len() < 2 {
        text.push_str("MOV result.position, R0;\nRET;\ns0:\n");
    }
    if tokens.len() < 3 {
        text.push_str("RET;\ns1:\n");
    }
    while labels < 4 {
        text.push_str(&format!("l{labels}:\n"));
        labels += 1;
    }
    text.push_str("MOV R0, R1;\nEND\n");
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, .. ProptestConfig::default() })]

    /// BRA, CAL/RET and PUSHA/POPA programs (`compile::graph`): registers, errors
    /// (budget, call depth, address stack) and counters as the interpreter's, and the
    /// batch run as machine code whenever the program compiles.
    #[test]
    fn random_branch_programs(
        tokens in proptest::collection::vec(any::<[u8; 6]>(), 1..50),
        vals in proptest::collection::vec(word(), 8..64),
        mask in prop_oneof![Just(0xffffu32), Just(0x0ff0), any::<u16>().prop_map(u32::from)],
        bra in any::<bool>(),
        budget in prop_oneof![Just(40u64), Just(300), Just(5000)],
    ) {
        let text = vp3_program(&tokens, bra);
        let p = match glemu_programs::assemble(&text, Some(Stage::Vertex)) {
            Ok(p) => Arc::new(p),
            Err(e) => panic!("generator made an invalid program: {}\n{text}", e.render(&text)),
        };
        let ex = Executor::new(p.clone()).with_backend(Backend::Native);
        let compiled = match ex.native_status() {
            Some(Ok(())) => true,
            // The PUSHA stack's depth differs between the paths to an instruction, or
            // subroutines call each other from too many sites to translate.
            Some(Err(f)) if f.reason.contains("PUSHA stack depth")
                || f.reason.contains("too deep to inline") => false,
            other => { prop_assert!(false, "{:?}\n{}", other, text); false }
        };
        let native = random_run(&p, &vals, mask, &params(&p, &[]), budget, &text)?;
        prop_assert_eq!(native, u64::from(compiled && mask != 0), "{}", text);
    }
}

/// How often the random branch programs compile: most must, or the proptest above
/// compares little machine code.
#[test]
fn random_branch_programs_mostly_compile() {
    // xorshift64: a fixed sequence of token bytes.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let (mut n, mut compiled) = (0, 0);
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for i in 0..120 {
        let len = 1 + (next() % 50) as usize;
        let tokens: Vec<[u8; 6]> = (0..len)
            .map(|_| {
                let w = next().to_le_bytes();
                [w[0], w[1], w[2], w[3], w[4], w[5]]
            })
            .collect();
        let text = vp3_program(&tokens, i % 2 == 0);
        let p = Arc::new(glemu_programs::assemble(&text, Some(Stage::Vertex)).unwrap());
        n += 1;
        match Executor::new(p)
            .with_backend(Backend::Native)
            .native_status()
        {
            Some(Ok(())) => compiled += 1,
            Some(Err(f)) => *reasons.entry(f.reason).or_default() += 1,
            None => {}
        }
    }
    println!("{compiled} of {n} random branch programs compile; {reasons:?}");
    assert!(compiled * 2 > n, "{compiled} of {n} compile: {reasons:?}");
}

/// Lanes that reach a BRA target later with fewer steps merge with the lanes waiting
/// there under the larger count (the interpreter's `Group::absorb`): the budget then
/// runs out in the loop after it at the interpreter's instruction.
#[test]
fn branch_merges_keep_the_larger_steps() {
    let long = "ADD R1.y, R1.y, 1.0;\n".repeat(5);
    let text = format!(
        "!!ARBvp1.0\nOPTION NV_vertex_program2;\nTEMP R0, R1;\nMOV R0, vertex.color;\nSLTC R1.x, R0.x, 0.5;\nBRA far (NE.x);\n{long}BRA join;\nfar:\nADD R1.z, R1.z, 1.0;\njoin:\nADD R1.w, R1.w, 1.0;\nBRA join;\nMOV result.position, R1;\nEND\n"
    );
    let p = assemble(&text, Stage::Vertex);
    for budget in [100, 101, 1000] {
        let (a, b) = both(&p, 0xffff, &params(&p, &[]), budget);
        assert!(a.stats.is_err(), "the loop never ends");
        assert_same(&p, &a, &b, &text);
    }
}

/// The R0.xyz a label test wants of a lane given its `x`.
type Want = dyn Fn(f32) -> [f32; 3];

/// 1 for the lanes that pass `GT.w` in a label test, else 0.
fn gt(x: f32) -> f32 {
    if x > 0.0 {
        1.0
    } else {
        0.0
    }
}

/// Lane `l` of a label test reads `l - 8` in the x of its only input.
fn signed_lanes(p: &Arc<Program>) -> LaneState {
    let mut st = LaneState::new(p, MAX_LANES);
    for l in 0..MAX_LANES {
        st.set_input_f32(0, l, [l as f32 - 8.0, 0.0, 0.0, 0.0]);
    }
    st
}

/// Runs `text` (its R0 copied to output 0, lane `l` with `x = l - 8` in R0.w) both ways
/// and checks each lane's R0.xyz against `want(x)`: the interpreter against the spec,
/// the machine code against the interpreter.
fn assert_r0(text: &str, stage: Stage, want: impl Fn(f32) -> [f32; 3]) {
    let p = assemble(text, stage);
    let (a, b, native) = run_both(&p, &signed_lanes(&p), 0xffff, &params(&p, &[]), 10_000);
    assert!(a.stats.is_ok(), "{:?}\n{text}", a.stats);
    for l in 0..MAX_LANES {
        let x = l as f32 - 8.0;
        let w = want(x);
        assert_eq!(
            a.state.output_f32(0, l),
            [w[0], w[1], w[2], x],
            "interpreter, lane {l}\n{text}"
        );
    }
    assert_same(&p, &a, &b, text);
    assert_eq!(
        native, 1,
        "the native run fell back to the interpreter\n{text}"
    );
}

/// [`assert_r0`] for each `(body, want)` of `cases`, the program `head`, body, END.
fn assert_cases(head: &str, stage: Stage, cases: &[(&str, &Want)]) {
    for (body, want) in cases {
        assert_r0(&format!("{head}{body}END\n"), stage, want);
    }
}

/// NV_gpu_program4 section 2.X.8.Z (CAL): "If a CAL instruction is executed and
/// subsequent program execution reaches an instruction label before a corresponding RET
/// instruction is executed, the subroutine call returns immediately". It does however
/// the lanes get there: stepping onto it, skipping a failed IF, leaving a loop,
/// returning from a call, or left behind by a CAL or RET only some lanes took.
#[test]
fn labels_end_subroutines_however_lanes_arrive() {
    let head = "!!NVfp4.0\nTEMP R0;\nMOV R0, 0;\nMOV.CC R0.w, fragment.color.x;\nCAL s0;\nMOV result.color, R0;\nRET;\ns0:\n";
    let cases: [(&str, &Want); 8] = [
        // The lanes failing the IF skip to the label.
        (
            "IF GT.w;\nADD R0.x, R0.x, 1;\nENDIF;\ns1:\nADD R0.z, R0.z, 1;\nRET;\n",
            &|x| [gt(x), 0.0, 0.0],
        ),
        // ELSE lanes step onto it; THEN lanes jump over the ELSE block to the ENDIF.
        (
            "IF GT.w;\nADD R0.x, R0.x, 1;\nELSE;\nADD R0.y, R0.y, 1;\nENDIF;\ns1:\nADD R0.z, R0.z, 1;\nRET;\n",
            &|x| [gt(x), 1.0 - gt(x), 0.0],
        ),
        // Leaving a loop: by BRK and after the last iteration.
        (
            "REP {3}.x;\nADD R0.x, R0.x, 1;\nBRK (GT.w);\nENDREP;\ns1:\nADD R0.z, R0.z, 1;\nRET;\n",
            &|x| [if x > 0.0 { 1.0 } else { 3.0 }, 0.0, 0.0],
        ),
        // Returning from a call (by RET) to the instruction after the CAL.
        (
            "ADD R0.x, R0.x, 1;\nCAL s2;\ns1:\nADD R0.z, R0.z, 1;\nRET;\ns2:\nADD R0.y, R0.y, 1;\nRET;\n",
            &|_| [1.0, 1.0, 0.0],
        ),
        // ... by the end of the text.
        (
            "ADD R0.x, R0.x, 1;\nCAL s2;\ns1:\nADD R0.z, R0.z, 1;\nRET;\ns2:\nADD R0.y, R0.y, 1;\n",
            &|_| [1.0, 1.0, 0.0],
        ),
        // ... by reaching the next label.
        (
            "ADD R0.x, R0.x, 1;\nCAL s2;\ns1:\nADD R0.z, R0.z, 1;\nRET;\ns2:\nADD R0.y, R0.y, 1;\ns3:\nADD R0.y, R0.y, 10;\nRET;\n",
            &|_| [1.0, 1.0, 0.0],
        ),
        // A CAL only some lanes take: the others wait at the label.
        (
            "ADD R0.x, R0.x, 1;\nCAL s2 (GT.w);\ns1:\nADD R0.z, R0.z, 1;\nRET;\ns2:\nADD R0.y, R0.y, 1;\nRET;\n",
            &|x| [1.0, gt(x), 0.0],
        ),
        // A RET only some lanes take.
        (
            "ADD R0.x, R0.x, 1;\nRET (GT.w);\ns1:\nADD R0.z, R0.z, 1;\nRET;\n",
            &|_| [1.0, 0.0, 0.0],
        ),
    ];
    assert_cases(head, Stage::Fragment, &cases);
}

/// The main subroutine has no call to return from: "Instructions are executed in
/// sequence until either a RET instruction is issued in the main subroutine or the end of
/// the program text is reached", through labels, however the lanes reach them.
#[test]
fn main_runs_on_through_labels() {
    assert_r0(
        "!!NVfp4.0\nTEMP R0;\nMOV R0, 0;\nMOV.CC R0.w, fragment.color.x;\nIF GT.w;\nADD R0.x, R0.x, 1;\nENDIF;\ns0:\nADD R0.z, R0.z, 1;\ns1:\nADD R0.y, R0.y, 1;\nMOV result.color, R0;\nEND\n",
        Stage::Fragment,
        |x| [gt(x), 1.0, 1.0],
    );
}

/// With PUSHA but no BRA (NV_vertex_program3, `compile::graph`), labels end subroutines
/// as in NV_gpu_program4: lanes a partial CAL or RET leaves behind, and lanes returning
/// to a label, return.
#[test]
fn labels_end_subroutines_in_pusha_programs() {
    let head = "!!ARBvp1.0\nOPTION NV_vertex_program3;\nADDRESS A0;\nTEMP R0;\nMOV R0, 0;\nMOVC R0.w, vertex.color.x;\nARL A0.x, R0.w;\nPUSHA A0;\nCAL s0;\nPOPA A0;\nMOV result.position, R0;\nRET;\ns0:\nADD R0.x, R0.x, 1;\n";
    let cases: [(&str, &Want); 3] = [
        (
            "CAL s2 (GT.w);\ns1:\nADD R0.z, R0.z, 1;\nRET;\ns2:\nADD R0.y, R0.y, 1;\nRET;\n",
            &|x| [1.0, gt(x), 0.0],
        ),
        (
            "CAL s2;\ns1:\nADD R0.z, R0.z, 1;\nRET;\ns2:\nADD R0.y, R0.y, 1;\n",
            &|_| [1.0, 1.0, 0.0],
        ),
        ("RET (GT.w);\ns1:\nADD R0.z, R0.z, 1;\nRET;\n", &|_| {
            [1.0, 0.0, 0.0]
        }),
    ];
    assert_cases(head, Stage::Vertex, &cases);
}

/// Where BRA exists (NV_vertex_program2/3) labels are branch targets and end nothing:
/// the lanes that branch and those that fall through both run on past the label.
#[test]
fn labels_are_only_branch_targets_with_bra() {
    assert_r0(
        "!!ARBvp1.0\nOPTION NV_vertex_program2;\nTEMP R0;\nMOV R0, 0;\nMOVC R0.w, vertex.color.x;\nCAL s0;\nMOV result.position, R0;\nRET;\ns0:\nADD R0.x, R0.x, 1;\nBRA s1 (GT.w);\nADD R0.y, R0.y, 1;\ns1:\nADD R0.z, R0.z, 1;\nRET;\nEND\n",
        Stage::Vertex,
        |x| [1.0, 1.0 - gt(x), 1.0],
    );
}
