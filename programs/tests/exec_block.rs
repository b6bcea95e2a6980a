//! Fused block kernels (`Executor::run_block`) against the reference: the same program
//! run strip by strip (`Executor::run_each` in the interpreter), its colour output packed
//! as RGBA8 UNORM and stored where the coverage is not 0 and the lane was not killed (at
//! several samples a pixel: to each sample whose coverage bit is set, one at a time).
//! Each case also checks that the fused kernel ran (`compile::native_batches`), or, for
//! the programs that must fall back, that the interpreter stored the strip instead.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::compile::{native_batches, native_whole_strips, BlockSpec};
use glemu_programs::exec::{Backend, Executor, LaneState, NullEnv, MAX_LANES};
use glemu_programs::ir::ParamSource;
use glemu_programs::{assemble, Program};
use proptest::prelude::*;
use std::sync::Arc;

/// The raster's unorm8 (glemu_raster::color::unorm8), the reference of the kernel's pack.
#[allow(clippy::manual_clamp)] // clamp keeps NaN; max/min give 0, as the raster's
fn unorm8(v: f32) -> u32 {
    ((v.max(0.0).min(1.0) * 255.0) + 8_388_608.0).to_bits() & 0xff
}

/// The reference store of one strip: output `slot` of `st` packed into `rows` (its two
/// rows) where `cov` is not 0 and the lane was not killed; multisampled, into each
/// sample of the pixel whose bit `cov` has.
fn store<R: AsMut<[u32]>>(
    rows: &mut [R],
    st: &LaneState,
    spec: &BlockSpec,
    cov: &[u32; MAX_LANES],
) {
    let kill = st.kill_mask();
    let ns = spec.samples();
    let out = st.output(spec.color).copied().unwrap_or_default();
    for (lane, &c) in cov.iter().enumerate() {
        if c == 0 || kill & (1 << lane) != 0 {
            continue;
        }
        let ch = |k: usize| unorm8(f32::from_bits(out[k][lane])) << (8 * k);
        let mut w = ch(0) | ch(1) | ch(2) | ch(3);
        if spec.alpha_one {
            w |= 0xff << 24;
        }
        let (r, col) = lane_pos(lane);
        if ns == 1 {
            rows[r].as_mut()[col] = w;
            continue;
        }
        for s in 0..ns {
            if c & (1 << s) != 0 {
                rows[r].as_mut()[col * ns + s] = w;
            }
        }
    }
}

/// Row and column of each lane in its strip: lane 4q + i is quad q's pixel (i & 1, i >> 1).
fn lane_pos(lane: usize) -> (usize, usize) {
    ((lane >> 1) & 1, 2 * (lane / 4) + (lane & 1))
}

#[derive(Debug, Clone)]
struct Case {
    /// Four strips of inputs: `[strip][slot][comp][lane]` words.
    inputs: Vec<Vec<[[u32; MAX_LANES]; 4]>>,
    covs: [[u32; MAX_LANES]; 4],
    /// Eight rows of 8 · samples words.
    rows: Vec<Vec<u32>>,
    alpha_one: bool,
}

/// The program's literal parameters (the only kind these programs have).
fn params(p: &Program) -> Vec<[u32; 4]> {
    p.params
        .iter()
        .map(|s| match s {
            ParamSource::Constant(v) => *v,
            _ => [0; 4],
        })
        .collect()
}

fn fill(st: &mut LaneState, inputs: &[[[u32; MAX_LANES]; 4]]) {
    for (slot, v) in inputs.iter().enumerate() {
        if let Some(r) = st.input_mut(slot) {
            *r = *v;
        }
    }
}

/// The reference: `run_each` in the interpreter, then the store.
fn reference(prog: &Arc<Program>, spec: &BlockSpec, c: &Case) -> Vec<Vec<u32>> {
    let ex = Executor::new(prog.clone());
    let mut st = ex.new_state(MAX_LANES);
    let mut rows = c.rows.clone();
    let all = (1u32 << MAX_LANES) - 1;
    ex.run_each(
        &mut st,
        &params(prog),
        &mut NullEnv,
        c.covs.len(),
        |i, st| {
            fill(st, &c.inputs[i]);
            all
        },
        |i, st| {
            let [a, b] = &mut rows[2 * i..2 * i + 2] else {
                unreachable!()
            };
            store(&mut [a, b], st, spec, &c.covs[i]);
        },
    )
    .unwrap_or_else(|e| panic!("reference run: {e}"));
    rows
}

/// The fused run; returns the rows, the batches that ran as machine code and the strips
/// stored whole.
fn fused(prog: &Arc<Program>, spec: &BlockSpec, c: &Case) -> (Vec<Vec<u32>>, u64, u64) {
    let ex = Executor::new(prog.clone()).with_backend(Backend::Native);
    let kernel = ex
        .block_kernel(spec)
        .unwrap_or_else(|| panic!("no fused kernel"));
    let mut st = ex.new_state(MAX_LANES);
    let mut out = c.rows.clone();
    let all = (1u32 << MAX_LANES) - 1;
    let (before, whole) = (native_batches(), native_whole_strips());
    if spec.samples() == 1 {
        // One sample: rows as arrays, as the raster hands them.
        let mut arrays: Vec<[u32; 8]> = out
            .iter()
            .map(|r| r.as_slice().try_into().unwrap())
            .collect();
        let mut rows: Vec<&mut [u32; 8]> = arrays.iter_mut().collect();
        let covs: Vec<&[u32; MAX_LANES]> = c.covs.iter().collect();
        ex.run_block(
            &kernel,
            &mut st,
            &params(prog),
            &mut NullEnv,
            &mut rows,
            &covs,
            |i, st| {
                fill(st, &c.inputs[i]);
                all
            },
            |i, st, rows| {
                if let Some(rows) = rows {
                    store(rows, st, spec, &c.covs[i]);
                }
            },
        )
        .unwrap_or_else(|e| panic!("fused run: {e}"));
        out = arrays.iter().map(|r| r.to_vec()).collect();
    } else {
        let mut rows: Vec<&mut [u32]> = out.iter_mut().map(|r| r.as_mut_slice()).collect();
        let covs: Vec<&[u32; MAX_LANES]> = c.covs.iter().collect();
        ex.run_block(
            &kernel,
            &mut st,
            &params(prog),
            &mut NullEnv,
            &mut rows,
            &covs,
            |i, st| {
                fill(st, &c.inputs[i]);
                all
            },
            |i, st, rows| {
                // Handed back: the strip ran in the interpreter; stored as the raster
                // would.
                if let Some(rows) = rows {
                    store(rows, st, spec, &c.covs[i]);
                }
            },
        )
        .unwrap_or_else(|e| panic!("fused run: {e}"));
    }
    (
        out,
        native_batches() - before,
        native_whole_strips() - whole,
    )
}

/// Words that probe the pack's edges: NaN, ±0, ±inf, the rounding midpoints, out of range.
fn special() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => (0u32..=255).prop_map(|k| (k as f32 / 255.0).to_bits()),
        2 => (0u32..=510).prop_map(|k| (k as f32 / 510.0).to_bits()),
        1 => prop::sample::select(vec![
            f32::NAN.to_bits(),
            0xffc0_0001,
            0x8000_0000,
            0,
            f32::INFINITY.to_bits(),
            f32::NEG_INFINITY.to_bits(),
            1.0f32.to_bits(),
            1.5f32.to_bits(),
            (-0.25f32).to_bits(),
            (0.5f32 / 255.0).to_bits(),
        ]),
        2 => any::<u32>(),
    ]
}

/// Strips of `inputs` inputs into rows of `ns` samples a pixel.
fn case(inputs: usize, ns: usize) -> impl Strategy<Value = Case> {
    let full = (1u32 << ns) - 1;
    (
        prop::collection::vec(
            prop::collection::vec(
                prop::array::uniform4(prop::array::uniform16(special())),
                inputs,
            ),
            4,
        ),
        // Half the strips fully covered: the kernel stores those without reading the rows.
        prop::array::uniform4(prop_oneof![
            1 => Just([full; MAX_LANES]),
            1 => prop::array::uniform16(prop_oneof![3 => Just(full), 1 => Just(0u32), 2 => 0..=full]),
        ]),
        prop::collection::vec(prop::collection::vec(any::<u32>(), 8 * ns), 8),
        any::<bool>(),
    )
        .prop_map(|(inputs, covs, rows, alpha_one)| Case {
            inputs,
            covs,
            rows,
            alpha_one,
        })
}

/// Fragment programs with one colour output: straight, killing, not writing the colour,
/// with flow control, and one whose per-lane loop counts send strips to the interpreter.
const PROGRAMS: &[(&str, bool)] = &[
    ("!!ARBfp1.0\nMOV result.color, fragment.color;\nEND", true),
    (
        "!!ARBfp1.0\nTEMP t;\nMUL t, fragment.color, fragment.texcoord[0];\nADD result.color, t, fragment.color.wzyx;\nEND",
        true,
    ),
    (
        "!!ARBfp1.0\nTEMP t;\nSUB t, fragment.color, 0.5;\nKIL t;\nMOV result.color, fragment.texcoord[0];\nEND",
        true,
    ),
    ("!!ARBfp1.0\nTEMP t;\nMOV t, fragment.color;\nEND", true),
    (
        "!!NVfp5.0\nTEMP t;\nSGT.CC t.x, fragment.color.x, 0.5;\nIF GT.x;\nMOV result.color, fragment.color;\nELSE;\nMOV result.color, -fragment.texcoord[0];\nENDIF;\nEND",
        true,
    ),
    (
        "!!NVfp5.0\nINT TEMP n;\nTEMP t;\nMUL t, fragment.texcoord[0], 4;\nFLR.S n.x, t.x;\nMIN.S n.x, n.x, 8;\nMOV t, fragment.color;\nREP.S n.x;\nADD t, t, 0.125;\nENDREP;\nMOV result.color, t;\nEND",
        false,
    ),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn fused_block_store_equals_run_each_and_store(
        which in 0..PROGRAMS.len(),
        c in case(2, 1),
    ) {
        let (text, native) = PROGRAMS[which];
        let prog = Arc::new(assemble(text, None).unwrap_or_else(|e| panic!("{text}: {e}")));
        let spec = BlockSpec { color: 0, alpha_one: c.alpha_one, samples: 1 };
        let want = reference(&prog, &spec, &c);
        let (got, ran, whole) = fused(&prog, &spec, &c);
        prop_assert_eq!(got, want);
        if native {
            // Every strip ran as the fused kernel.
            prop_assert_eq!(ran, 4);
        }
        prop_assert!(whole <= ran);
    }

    /// Strips whose lanes are all covered and none killed are stored whole (no read of
    /// the rows), with the same bytes; the counter shows that path ran.
    #[test]
    fn fully_covered_strips_are_stored_whole(c in case(2, 1)) {
        let (text, _) = PROGRAMS[1];
        let prog = Arc::new(assemble(text, None).unwrap_or_else(|e| panic!("{text}: {e}")));
        let spec = BlockSpec { color: 0, alpha_one: c.alpha_one, samples: 1 };
        let mut c = c;
        c.covs[1] = [1; MAX_LANES];
        c.covs[3] = [u32::MAX; MAX_LANES];
        c.covs[2][5] = 0;
        let want = reference(&prog, &spec, &c);
        let (got, ran, whole) = fused(&prog, &spec, &c);
        prop_assert_eq!(got, want);
        prop_assert_eq!(ran, 4);
        let full = c.covs.iter().filter(|cv| cv.iter().all(|&w| w != 0)).count() as u64;
        prop_assert_eq!(whole, full);
        prop_assert!(whole >= 2);
    }
}

/// Samples per pixel of the multisampled cases, and a case of that many.
fn sampled_case() -> impl Strategy<Value = (usize, Case)> {
    prop::sample::select(vec![2usize, 4, 8, 16]).prop_flat_map(|ns| (Just(ns), case(2, ns)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The multisampled store: each lane's word to the samples its coverage word has,
    /// none where it was killed; strips with every sample of every lane are stored whole
    /// (the counter), the others through the per-sample select.
    #[test]
    fn fused_sample_store_equals_run_each_and_store(
        which in 0..PROGRAMS.len(),
        (ns, c) in sampled_case(),
    ) {
        let (text, native) = PROGRAMS[which];
        let prog = Arc::new(assemble(text, None).unwrap_or_else(|e| panic!("{text}: {e}")));
        let spec = BlockSpec { color: 0, alpha_one: c.alpha_one, samples: ns as u32 };
        let want = reference(&prog, &spec, &c);
        let (got, ran, whole) = fused(&prog, &spec, &c);
        prop_assert_eq!(got, want);
        if native {
            prop_assert_eq!(ran, 4);
            // Only a program that kills nothing stores its fully covered strips whole.
            if which != 2 {
                let full = (1u32 << ns) - 1;
                let n = c.covs.iter().filter(|cv| cv.iter().all(|&w| w == full)).count();
                prop_assert_eq!(whole, n as u64);
            }
        }
        prop_assert!(whole <= ran);
    }
}

/// A program whose loop counts differ between lanes runs each strip in the interpreter:
/// the fused path must then hand the rows back (checked above by equality); here, that
/// the fallback really happened for the case the table marks so.
#[test]
fn per_lane_loop_counts_fall_back_to_the_interpreter() {
    let (text, native) = PROGRAMS[PROGRAMS.len() - 1];
    assert!(!native);
    let prog = Arc::new(assemble(text, None).unwrap_or_else(|e| panic!("{e}")));
    let mut c = Case {
        inputs: vec![vec![[[0; MAX_LANES]; 4]; 2]; 4],
        covs: [[1; MAX_LANES]; 4],
        rows: vec![vec![7; 8]; 8],
        alpha_one: false,
    };
    for strip in &mut c.inputs {
        for lane in 0..MAX_LANES {
            for slot in strip.iter_mut() {
                slot[0][lane] = (lane as f32 / 4.0).to_bits();
            }
        }
    }
    let spec = BlockSpec {
        color: 0,
        alpha_one: false,
        samples: 1,
    };
    let want = reference(&prog, &spec, &c);
    let (got, ran, whole) = fused(&prog, &spec, &c);
    assert_eq!(got, want);
    assert_eq!(whole, 0);
    assert_eq!(
        ran, 0,
        "the kernel stops for the interpreter before finishing"
    );
    assert_ne!(got, c.rows, "the interpreter's strips were stored");
}
