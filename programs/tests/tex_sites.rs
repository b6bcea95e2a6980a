//! Texture sites (`exec::TexSites`): a compiled kernel's texture call goes to the site of
//! its instruction when the environment has one, to `Env::texture` when it has none or
//! the site declines, and the registers are the interpreter's bit for bit either way
//! (lanes outside the mask read zero).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::assemble;

mod exec_util;
use exec_util::texel_lookup as lookup;
use glemu_programs::compile::native_batches;
use glemu_programs::exec::{
    Backend, Env, EnvError, Executor, TexCall, TexOp, TexSite, TexSites, Vec4, MAX_LANES,
};
use glemu_programs::ir::Program;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

struct Site {
    unit: u32,
    op: TexOp,
    /// Declines every call (the kernel must then ask `Env::texture`).
    decline: bool,
    hits: Arc<AtomicU64>,
    /// The address of the last call's coordinate.
    coord_at: Arc<AtomicU64>,
}

impl TexSite for Site {
    fn sample(&self, coord: &Vec4, mask: u32, out: &mut Vec4) -> bool {
        self.hits.fetch_add(1, Ordering::Relaxed);
        self.coord_at
            .store(coord as *const Vec4 as u64, Ordering::Relaxed);
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
    /// `Env::texture` calls.
    calls: u64,
}

impl Env for Sampling {
    fn texture(&mut self, call: &TexCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
        self.calls += 1;
        lookup(call.unit, call.op, call.coord, call.lanes, out);
        Ok(())
    }

    fn texture_sites(&self) -> Option<&TexSites> {
        self.sites.as_ref()
    }
}

const TEXT: &str = "!!ARBfp1.0
TEMP a, b;
TEX a, fragment.texcoord[0], texture[0], 2D;
ADD b, a, fragment.texcoord[1];
TXP b, b, texture[1], 2D;
ADD b, b, a;
MOV result.color, b;
END";

/// Every output word of every lane after running `ex` on the lanes of `mask`.
fn run(ex: &Executor, mask: u32, env: &mut Sampling) -> Vec<[u32; 4]> {
    run_at(ex, mask, env).0
}

/// [`run`], and the addresses of the lane state's input registers.
fn run_at(ex: &Executor, mask: u32, env: &mut Sampling) -> (Vec<[u32; 4]>, Vec<u64>) {
    let mut st = ex.new_state(MAX_LANES);
    let mut at = Vec::new();
    for slot in 0..ex.program().inputs.len() {
        let reg = st.input_mut(slot).expect("input");
        for (c, comp) in reg.iter_mut().enumerate() {
            for (l, w) in comp.iter_mut().enumerate() {
                *w = ((l as f32 - 5.5) * 0.37 + c as f32 + slot as f32 * 0.5).to_bits();
            }
        }
        at.push(reg as *const Vec4 as u64);
    }
    ex.run(&mut st, mask, &[], env).expect("run");
    ((0..MAX_LANES).map(|l| st.output_lane(0, l)).collect(), at)
}

/// Sites for `prog`: unit 1's site declines when `decline_txp`.
fn sites(prog: &Arc<Program>, decline_txp: bool, hits: &Arc<AtomicU64>) -> TexSites {
    TexSites::new(prog, |call| {
        Some(Arc::new(Site {
            unit: call.unit,
            op: call.op,
            decline: decline_txp && call.unit == 1,
            hits: hits.clone(),
            coord_at: Arc::new(AtomicU64::new(0)),
        }) as Arc<dyn TexSite>)
    })
}

#[test]
fn kernels_call_sites_with_the_interpreters_bits() {
    let prog = Arc::new(assemble(TEXT, None).expect("assemble"));
    let reference = Executor::new(prog.clone());
    let native = Executor::new(prog.clone()).with_backend(Backend::Native);
    for mask in [0xffff, 0x0f0f, 0x8001, 0x0010] {
        let want = run(&reference, mask, &mut Sampling::default());
        for decline in [false, true] {
            let hits = Arc::new(AtomicU64::new(0));
            let mut env = Sampling {
                sites: Some(sites(&prog, decline, &hits)),
                calls: 0,
            };
            assert_eq!(env.sites.as_ref().map(TexSites::count), Some(2));
            let before = native_batches();
            let got = run(&native, mask, &mut env);
            assert!(native_batches() > before, "the kernel ran");
            assert_eq!(got, want, "mask {mask:#x}, declining {decline}");
            // Both instructions reach their sites; only declined calls reach the
            // environment.
            assert_eq!(hits.load(Ordering::Relaxed), 2, "mask {mask:#x}");
            assert_eq!(env.calls, u64::from(decline), "mask {mask:#x}");
        }
    }
}

/// Sites resolved for another program (here: the same text assembled again) are never
/// used.
#[test]
fn sites_of_another_program_are_not_used() {
    let prog = Arc::new(assemble(TEXT, None).expect("assemble"));
    let other = Arc::new(assemble(TEXT, None).expect("assemble"));
    let native = Executor::new(prog.clone()).with_backend(Backend::Native);
    let want = run(&Executor::new(prog), 0xffff, &mut Sampling::default());
    let hits = Arc::new(AtomicU64::new(0));
    let mut env = Sampling {
        sites: Some(sites(&other, false, &hits)),
        calls: 0,
    };
    let before = native_batches();
    assert_eq!(run(&native, 0xffff, &mut env), want);
    // Else the interpreter ran, which never asks for sites, and the test proved nothing.
    assert!(native_batches() > before, "the kernel ran");
    assert_eq!(hits.load(Ordering::Relaxed), 0);
    assert_eq!(env.calls, 2);
}

/// A coordinate that is an input register as it stands reaches the site where the lane
/// state holds it (no copy in the kernel); one with a swizzle or a sign reaches it as the
/// kernel computed it; without sites, `Env::texture` gets either. Each with the
/// interpreter's bits, at every mask. The input read is
/// the second slot, and TXP and TXB read its third and fourth components too, so an
/// input read at the wrong offset shows in the bits.
#[test]
fn coordinates_read_in_place_are_the_interpreters() {
    for (coord, in_place) in [
        ("fragment.texcoord[1]", true),
        ("fragment.texcoord[1].yxzw", false),
        ("fragment.texcoord[1].xyzz", false),
        ("-fragment.texcoord[1]", false),
    ] {
        for op in ["TEX", "TXP", "TXB"] {
            let text = format!(
                "!!ARBfp1.0
TEMP a, t;
MOV t, fragment.texcoord[0];
{op} a, {coord}, texture[0], 2D;
ADD result.color, a, t;
END"
            );
            let prog = Arc::new(assemble(&text, None).expect("assemble"));
            let reference = Executor::new(prog.clone());
            let native = Executor::new(prog.clone()).with_backend(Backend::Native);
            let coord_at = Arc::new(AtomicU64::new(0));
            let hits = Arc::new(AtomicU64::new(0));
            let sites = TexSites::new(&prog, |call| {
                Some(Arc::new(Site {
                    unit: call.unit,
                    op: call.op,
                    decline: false,
                    hits: hits.clone(),
                    coord_at: coord_at.clone(),
                }) as Arc<dyn TexSite>)
            });
            for mask in [0xffff, 0x0f0f, 0x8001] {
                let want = run(&reference, mask, &mut Sampling::default());
                let mut env = Sampling {
                    sites: Some(sites.clone()),
                    calls: 0,
                };
                let before = native_batches();
                let (got, inputs) = run_at(&native, mask, &mut env);
                let what = format!("{op} {coord}, mask {mask:#x}");
                assert!(native_batches() > before, "the kernel ran: {what}");
                assert_eq!(got, want, "{what}");
                assert_eq!(env.calls, 0, "{what}");
                let at = coord_at.load(Ordering::Relaxed);
                assert_eq!(inputs.len(), 2, "{what}");
                if in_place {
                    assert_eq!(at, inputs[1], "read in place: {what}");
                } else {
                    assert!(at != 0 && !inputs.contains(&at), "a copy: {what}");
                }
                // Without sites, the environment gets the same coordinate.
                let mut env = Sampling::default();
                assert_eq!(run(&native, mask, &mut env), want, "no sites: {what}");
                assert_eq!(env.calls, 1, "no sites: {what}");
            }
        }
    }
}
