//! Shared helpers for the executor tests: assemble, fill params, run, read back.
#![allow(dead_code, clippy::needless_range_loop)]

use glemu_programs::exec::{
    Backend, Compute, ComputeHooks, Env, EnvError, ExecError, ExecStats, Executor, Fragment,
    FragmentHooks, Geometry, GeometryHooks, ImageCall, InterpCall, LaneMask, LaneState, MemRegion,
    TexCall, TexOffsets, TexOp, Vec4, MAX_LANES,
};
use glemu_programs::ir::{ParamSource, Program, Stage};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub fn assemble(text: &str, stage: Stage) -> Arc<Program> {
    match glemu_programs::assemble(text, Some(stage)) {
        Ok(p) => Arc::new(p),
        Err(e) => panic!("assemble failed: {}\n{}", e.render(text), text),
    }
}

/// A full batch's lane state for `p` with `vertices` copies of every input, each word
/// `word(lane, component, copy)`.
pub fn state_with_inputs(
    p: &Arc<Program>,
    vertices: usize,
    word: impl Fn(usize, usize, usize) -> u32,
) -> LaneState {
    let mut st = LaneState::with_vertices(p, MAX_LANES, vertices);
    for v in 0..vertices {
        for s in 0..p.inputs.len() {
            if let Some(r) = st.input_vertex_mut(v, s) {
                for (c, comp) in r.iter_mut().enumerate() {
                    for (l, x) in comp.iter_mut().enumerate() {
                        *x = word(l, c, v);
                    }
                }
            }
        }
    }
    st
}

/// Param values: constants from the program, `program.local[n]` / env from `locals`.
pub fn params(p: &Program, locals: &[[f32; 4]]) -> Vec<[u32; 4]> {
    p.params
        .iter()
        .map(|s| match s {
            ParamSource::Constant(v) => *v,
            ParamSource::Local(n) | ParamSource::Env(n) => locals
                .get(*n as usize)
                .copied()
                .unwrap_or([0.0; 4])
                .map(f32::to_bits),
            _ => [0; 4],
        })
        .collect()
}

/// What one texture call asked for (lane 0's values).
#[derive(Clone, Debug, PartialEq)]
pub struct TexLog {
    pub op: TexOp,
    pub target: glemu_programs::ir::TexTarget,
    pub operand2: Option<u32>,
    pub operand3: Option<u32>,
    pub offsets: Option<[i32; 3]>,
    pub gather_comp: u8,
    pub dtype: glemu_programs::ir::DataType,
}

/// A little environment: flat memory for every region, counters, a fake texture that
/// returns its coordinates (plus the unit in w for TEX), interpolation returning the
/// operand, and a log of emitted vertices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TestEnv {
    pub mem: Vec<u8>,
    pub counters: Vec<u32>,
    pub emitted: Vec<(u32, usize, [u32; 4])>,
    pub ended: Vec<usize>,
    pub tex_calls: Vec<(u32, u32)>,
    /// Per texture call: op, target, whether operands 2/3 came, offsets, gather comp.
    pub tex_ops: Vec<TexLog>,
    pub subroutines: Vec<u32>,
    /// A 4×4 image (texel = y * 4 + x) on every image unit; units used are logged.
    pub image: Vec<[u32; 4]>,
    pub image_units: Vec<u32>,
    pub interp_calls: Vec<(glemu_programs::exec::InterpKind, u32, u32)>,
    /// Memory of particular regions (binding points); every other region uses `mem`.
    pub bound: Vec<(MemRegion, Vec<u8>)>,
    /// Per image call: unit, target and the coordinates the environment received.
    pub image_calls: Vec<(u32, glemu_programs::ir::TexTarget, [i32; 4])>,
    /// With `interrupt_from` set: times the executor asked whether the run was
    /// interrupted, and from which of those times on the answer is yes. (Only group
    /// kernels ask, as the interpreter does: other kernels are stopped by the budget.)
    pub interrupt_asks: u32,
    pub interrupt_from: Option<u32>,
}

impl TestEnv {
    fn memory(&mut self, r: MemRegion) -> &mut Vec<u8> {
        match self.bound.iter().position(|(b, _)| *b == r) {
            Some(i) => &mut self.bound[i].1,
            None => &mut self.mem,
        }
    }

    fn texel(&mut self, call: &ImageCall, c: [i32; 4]) -> Option<&mut [u32; 4]> {
        self.image_units.push(call.unit);
        self.image_calls.push((call.unit, call.target, c));
        if !(0..4).contains(&c[0]) || !(0..4).contains(&c[1]) {
            return None;
        }
        self.image.get_mut((c[1] * 4 + c[0]) as usize)
    }
}

impl FragmentHooks for TestEnv {
    fn interpolate(&mut self, call: &InterpCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
        self.interp_calls.push((call.kind, call.input, call.lanes));
        for l in 0..MAX_LANES {
            if call.lanes & (1 << l) != 0 {
                for c in 0..4 {
                    out[c][l] = call.operand[c][l];
                }
            }
        }
        Ok(())
    }
}

impl GeometryHooks for TestEnv {
    fn emit(&mut self, stream: u32, lane: usize, state: &LaneState) -> Result<(), EnvError> {
        self.emitted
            .push((stream, lane, state.output_lane(0, lane)));
        Ok(())
    }
    fn end_primitive(&mut self, lane: usize) -> Result<(), EnvError> {
        self.ended.push(lane);
        Ok(())
    }
}

/// Shared memory is one more region of the flat memory.
impl ComputeHooks for TestEnv {
    fn shared_read(&mut self, a: u64, out: &mut [u8]) -> Result<bool, EnvError> {
        self.mem_read(MemRegion::Shared, a, out)
    }
    fn shared_write(&mut self, a: u64, d: &[u8]) -> Result<bool, EnvError> {
        self.mem_write(MemRegion::Shared, a, d)
    }
    fn shared_atomic(
        &mut self,
        a: u64,
        size: u8,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<Option<u64>, EnvError> {
        self.mem_atomic(MemRegion::Shared, a, size, update)
    }
}

/// `ex.run` with the hooks of the program's stage (fragment, geometry and compute
/// programs get theirs through `Fragment` / `Geometry` / `Compute`).
pub fn run_stage(
    ex: &Executor,
    st: &mut LaneState,
    active: LaneMask,
    params: &[[u32; 4]],
    env: &mut TestEnv,
) -> Result<ExecStats, ExecError> {
    match ex.program().stage {
        Stage::Fragment => ex.run(st, active, params, &mut Fragment(env)),
        Stage::Geometry => ex.run(st, active, params, &mut Geometry(env)),
        Stage::Compute => ex.run(st, active, params, &mut Compute(env)),
        _ => ex.run(st, active, params, env),
    }
}

impl Env for TestEnv {
    fn texture(&mut self, call: &TexCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
        self.tex_calls.push((call.unit, call.lanes));
        self.tex_ops.push(TexLog {
            op: call.op,
            target: call.target,
            operand2: call.operand2.map(|v| v[0][0]),
            operand3: call.operand3.map(|v| v[0][0]),
            offsets: match call.offsets {
                TexOffsets::None => None,
                TexOffsets::Const(o) => Some(o),
                TexOffsets::PerLane(o) => Some([o[0][0], o[1][0], o[2][0]]),
            },
            gather_comp: call.gather_comp,
            dtype: call.dtype,
        });
        for l in 0..MAX_LANES {
            if call.lanes & (1 << l) != 0 {
                out[0][l] = call.coord[0][l];
                out[1][l] = call.coord[1][l];
                out[2][l] = call.coord[2][l];
                out[3][l] = (call.unit as f32).to_bits();
            }
        }
        Ok(())
    }
    fn mem_read(&mut self, r: MemRegion, a: u64, out: &mut [u8]) -> Result<bool, EnvError> {
        let a = a as usize;
        match self.memory(r).get(a..a + out.len()) {
            Some(s) => {
                out.copy_from_slice(s);
                Ok(true)
            }
            None => Ok(false),
        }
    }
    fn mem_write(&mut self, r: MemRegion, a: u64, d: &[u8]) -> Result<bool, EnvError> {
        let a = a as usize;
        match self.memory(r).get_mut(a..a + d.len()) {
            Some(s) => {
                s.copy_from_slice(d);
                Ok(true)
            }
            None => Ok(false),
        }
    }
    fn mem_atomic(
        &mut self,
        r: MemRegion,
        a: u64,
        size: u8,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<Option<u64>, EnvError> {
        let a = a as usize;
        let n = size as usize;
        let Some(s) = self.memory(r).get_mut(a..a + n) else {
            return Ok(None);
        };
        let mut w = [0u8; 8];
        w[..n].copy_from_slice(s);
        let old = u64::from_le_bytes(w);
        if let Some(new) = update(old) {
            s.copy_from_slice(&new.to_le_bytes()[..n]);
        }
        Ok(Some(old))
    }
    fn counter_atomic(
        &mut self,
        _binding: u32,
        index: u32,
        update: &dyn Fn(u32) -> u32,
    ) -> Result<Option<u32>, EnvError> {
        match self.counters.get_mut(index as usize) {
            Some(c) => {
                let old = *c;
                *c = update(old);
                Ok(Some(old))
            }
            None => Ok(None),
        }
    }
    fn image_load(&mut self, call: &ImageCall, c: [i32; 4]) -> Result<Option<[u32; 4]>, EnvError> {
        Ok(self.texel(call, c).map(|t| *t))
    }
    fn image_store(
        &mut self,
        call: &ImageCall,
        c: [i32; 4],
        v: [u32; 4],
    ) -> Result<bool, EnvError> {
        Ok(match self.texel(call, c) {
            Some(t) => {
                *t = v;
                true
            }
            None => false,
        })
    }
    fn image_atomic(
        &mut self,
        call: &ImageCall,
        c: [i32; 4],
        update: &dyn Fn(u32) -> Option<u32>,
    ) -> Result<Option<u32>, EnvError> {
        Ok(self.texel(call, c).map(|t| {
            let old = t[0];
            if let Some(n) = update(old) {
                t[0] = n;
            }
            old
        }))
    }
    fn interrupted(&mut self) -> bool {
        let Some(from) = self.interrupt_from else {
            return false;
        };
        self.interrupt_asks += 1;
        self.interrupt_asks >= from
    }
    fn subroutine(&mut self, slot: u32) -> Result<u32, EnvError> {
        self.subroutines
            .get(slot as usize)
            .copied()
            .ok_or_else(|| EnvError("no such subroutine slot".into()))
    }
}

/// Index of the input slot bound to `binding`.
pub fn input_slot(p: &Program, pred: impl Fn(&glemu_programs::ir::InputBinding) -> bool) -> usize {
    p.inputs
        .iter()
        .position(|s| pred(&s.binding))
        .expect("input slot")
}

/// A fragment program run: input 0..n set per lane from `inputs[lane]` (first input
/// slot), returns the state.
pub struct Ran {
    pub state: LaneState,
    pub stats: Result<ExecStats, ExecError>,
    pub env: TestEnv,
}

/// Why a program of these tests may not compile, so that [`run_with`] compares the
/// interpreter with itself: flow the native backend leaves to the interpreter.
const INTERPRETED: &[&str] = &["flow control: CALI"];

/// The batches the calling thread ran as machine code during `f`.
pub fn counting_native<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = glemu_programs::compile::native_batches();
    let r = f();
    (r, glemu_programs::compile::native_batches() - before)
}

/// Runs `p` on one batch of `width` lanes set up by `set`, in the interpreter (whose
/// run it returns) and as machine code, and asserts the two agree; the machine-code run
/// must not fall back to the interpreter unless the program does not compile for a
/// reason in [`INTERPRETED`].
pub fn run_with(
    p: &Arc<Program>,
    width: usize,
    locals: &[[f32; 4]],
    env: TestEnv,
    set: impl Fn(&mut LaneState),
) -> Ran {
    let ex = Executor::new(p.clone());
    let mut st = LaneState::new(p, width);
    set(&mut st);
    let prm = params(p, locals);
    let all = st.all_lanes();
    // Every executor test is also a differential test of the native backend.
    let mut native_state = st.clone();
    let mut env_native = env.clone();
    let mut env = env;
    let stats = run_stage(&ex, &mut st, all, &prm, &mut env);
    let ran = Ran {
        state: st,
        stats,
        env,
    };
    let nx = Executor::new(p.clone()).with_backend(Backend::NativeAllRegisters);
    let (stats, batches) =
        counting_native(|| run_stage(&nx, &mut native_state, all, &prm, &mut env_native));
    let native = Ran {
        state: native_state,
        stats,
        env: env_native,
    };
    assert_same(p, &ran, &native, "");
    // Else the test compared the interpreter with itself.
    match nx.native_status() {
        Some(Ok(())) => assert_eq!(batches, 1, "the native run fell back to the interpreter"),
        Some(Err(f)) => assert!(
            INTERPRETED.contains(&f.reason.as_str()),
            "the program does not compile ({f:?}): name the reason in INTERPRETED \
             if the native backend is not meant to run it"
        ),
        None => unreachable!("a native backend was asked for"),
    }
    ran
}

/// Assert that two runs of `p` (interpreter and native) agree bit for bit: the result
/// (error, or the out-of-range counters), every register of every lane, the kill mask and
/// everything the environment saw.
pub fn assert_same(p: &Program, a: &Ran, b: &Ran, what: &str) {
    match (&a.stats, &b.stats) {
        (Ok(x), Ok(y)) => assert_eq!(
            (x.oob_reads, x.oob_writes, x.misaligned),
            (y.oob_reads, y.oob_writes, y.misaligned),
            "out-of-range counters differ {what}"
        ),
        (Err(x), Err(y)) => assert_eq!(x, y, "errors differ {what}"),
        (x, y) => panic!("interpreter {x:?} vs native {y:?} {what}"),
    }
    if a.stats.is_err() {
        return;
    }
    let (s, t) = (&a.state, &b.state);
    for l in 0..MAX_LANES {
        for o in 0..p.outputs.len() {
            assert_eq!(
                s.output_lane(o, l),
                t.output_lane(o, l),
                "output {o} lane {l} {what}"
            );
            assert_eq!(
                s.output_hi(o).map(|r| [r[0][l], r[1][l], r[2][l], r[3][l]]),
                t.output_hi(o).map(|r| [r[0][l], r[1][l], r[2][l], r[3][l]]),
                "output {o} (high) lane {l} {what}"
            );
        }
        for r in 0..p.temps.len() {
            assert_eq!(
                s.temp_lane(r, l),
                t.temp_lane(r, l),
                "temp {r} lane {l} {what}"
            );
        }
        for r in 0..p.address_regs as usize {
            assert_eq!(
                s.address_lane(r, l),
                t.address_lane(r, l),
                "address {r} lane {l} {what}"
            );
        }
        for c in 0..2 {
            assert_eq!(s.cc_lane(c, l), t.cc_lane(c, l), "cc{c} lane {l} {what}");
        }
    }
    assert_eq!(s.kill_mask(), t.kill_mask(), "kill mask {what}");
    assert!(a.env == b.env, "environments differ {what}");
}

/// Run a fragment program whose only input is `fragment.color` (or the first input) with
/// per-lane values, returning output 0 of each lane as floats.
pub fn frag(text: &str, lanes: &[[f32; 4]]) -> Vec<[f32; 4]> {
    let p = assemble(text, Stage::Fragment);
    let r = run_with(&p, lanes.len(), &[], TestEnv::default(), |st| {
        for (l, v) in lanes.iter().enumerate() {
            st.set_input_f32(0, l, *v);
        }
    });
    if let Err(e) = &r.stats {
        panic!("run failed: {e}");
    }
    (0..lanes.len()).map(|l| r.state.output_f32(0, l)).collect()
}

/// `frag` with one lane.
pub fn frag1(text: &str, input: [f32; 4]) -> [f32; 4] {
    frag(text, &[input])[0]
}

/// Run an NVfp4-style body with raw u32 result bits of output 0 of one lane.
pub fn frag_bits(text: &str, input: [u32; 4]) -> [u32; 4] {
    let p = assemble(text, Stage::Fragment);
    let r = run_with(&p, 1, &[], TestEnv::default(), |st| {
        st.set_input(0, 0, input);
    });
    if let Err(e) = &r.stats {
        panic!("run failed: {e}");
    }
    r.state.output_lane(0, 0)
}

/// Run `!!NVfp5.0 <body> END` on one lane (fragment.color = `color`) and return temp 0's
/// raw bits (the first TEMP the body declares).
pub fn t0_with(body: &str, color: [f32; 4]) -> [u32; 4] {
    let text = format!("!!NVfp5.0\n{body}\nEND\n");
    let p = assemble(&text, Stage::Fragment);
    let r = run_with(&p, 1, &[], TestEnv::default(), |st| {
        if !p.inputs.is_empty() {
            st.set_input_f32(0, 0, color);
        }
    });
    if let Err(e) = &r.stats {
        panic!("run failed: {e}\n{text}");
    }
    r.state.temp_lane(0, 0)
}

pub fn t0(body: &str) -> [u32; 4] {
    t0_with(body, [0.0; 4])
}

/// `t0` as floats.
pub fn t0f(body: &str) -> [f32; 4] {
    t0(body).map(f32::from_bits)
}

/// `t0` as signed ints.
pub fn t0i(body: &str) -> [i32; 4] {
    t0(body).map(|x| x as i32)
}

/// Run a program and return the error.
pub fn t0_err(body: &str) -> ExecError {
    let text = format!("!!NVfp5.0\n{body}\nEND\n");
    let p = assemble(&text, Stage::Fragment);
    let r = run_with(&p, 1, &[], TestEnv::default(), |_| {});
    match r.stats {
        Ok(_) => panic!("expected an error\n{text}"),
        Err(e) => e,
    }
}

pub fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Program texts in a file: the whole file if it starts with `!!`, the `=== loads` cases
/// of a load-rule file (`tests/load_rules`), else the sections of a shader_test that start
/// with `!!` (up to the next `[section]`).
pub fn programs(text: &str) -> Vec<String> {
    if text.trim_start().starts_with("!!") {
        return vec![text.to_string()];
    }
    if text.lines().any(|l| l.starts_with("=== ")) {
        let mut out = Vec::new();
        let mut cur: Option<String> = None;
        for line in text.lines() {
            if let Some(head) = line.strip_prefix("=== ") {
                out.extend(cur.take());
                cur = (head.trim() == "loads").then(String::new);
            } else if let Some(c) = &mut cur {
                c.push_str(line);
                c.push('\n');
            }
        }
        out.extend(cur);
        return out;
    }
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in text.lines() {
        if line.starts_with('[') {
            if let Some(c) = cur.take() {
                out.push(c);
            }
            continue;
        }
        match &mut cur {
            Some(c) => {
                c.push_str(line);
                c.push('\n');
            }
            None if line.trim_start().starts_with("!!") => cur = Some(format!("{line}\n")),
            None => {}
        }
    }
    out.extend(cur);
    out
}

/// Every file under the shared corpus and the oracle's folder for the test `test`, sorted
/// (None when they are absent outside CI: the test is skipped).
pub fn corpus_paths(test: &str) -> Option<Vec<PathBuf>> {
    let dirs = glemu_test_support::externals(test, &["corpus", "oracle"])?;
    let mut paths = Vec::new();
    for d in dirs {
        files(&d, &mut paths);
    }
    paths.sort();
    Some(paths)
}

/// The reftests' scene files (always in the repository), sorted.
pub fn reftest_paths() -> Vec<PathBuf> {
    let mut paths = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../reftests"),
        &mut paths,
    );
    paths.sort();
    paths
}

/// One tessellation control patch of `invocations` run both ways (`run_patch`) from
/// `states` (one per batch), each run with a fresh `env()`, and compared: errors,
/// counters and every batch's registers. Gives how many batches the machine-code run ran
/// as machine code, and how many of its kernel calls stopped for the interpreter to run
/// the patch.
pub fn assert_patch_same(
    p: &Arc<Program>,
    states: &[LaneState],
    invocations: usize,
    params: &[[u32; 4]],
    budget: u64,
    env: fn() -> TestEnv,
    what: &str,
) -> (u64, u64) {
    let run = |backend: Backend| {
        let ex = Executor::new(p.clone())
            .with_budget(budget)
            .with_backend(backend);
        let mut sts = states.to_vec();
        let before = glemu_programs::compile::native_reruns();
        let (r, native) =
            counting_native(|| ex.run_patch(&mut sts, invocations, params, &mut env()));
        (
            sts,
            r,
            native,
            glemu_programs::compile::native_reruns() - before,
        )
    };
    let a = run(Backend::Interpreter);
    let b = run(Backend::NativeAllRegisters);
    assert_eq!(a.2, 0, "the interpreter ran machine code");
    match (&a.1, &b.1) {
        (Ok(x), Ok(y)) => assert_eq!(
            (x.instructions, x.lane_instructions, x.oob_reads),
            (y.instructions, y.lane_instructions, y.oob_reads),
            "counters, {invocations} invocations {what}"
        ),
        (x, y) => assert_eq!(x, y, "{invocations} invocations {what}"),
    }
    for (sa, sb) in a.0.iter().zip(&b.0) {
        let ran = |state: &LaneState, stats: &Result<ExecStats, ExecError>| Ran {
            state: state.clone(),
            stats: stats.clone(),
            env: env(),
        };
        assert_same(
            p,
            &ran(sa, &a.1),
            &ran(sb, &b.1),
            &format!("{invocations} invocations {what}"),
        );
    }
    (b.2, b.3)
}

/// What every path returns for lane `l` of a lookup on `unit` with operation `op`: a mix
/// of the coordinate's words, so a wrong lane, unit, operation or operand shows.
pub fn texel(unit: u32, op: TexOp, coord: &Vec4, l: usize) -> [u32; 4] {
    let op = op as u32;
    [
        coord[0][l] ^ unit.wrapping_mul(0x9e37_79b9),
        coord[1][l].rotate_left(7) ^ op,
        coord[2][l].wrapping_add(coord[0][l]),
        coord[3][l] ^ (l as u32) << 20,
    ]
}

/// [`texel`] into the lanes of `mask` of `out` (the texture tests' sampler: a site's
/// and the environment's alike).
pub fn texel_lookup(unit: u32, op: TexOp, coord: &Vec4, mask: u32, out: &mut Vec4) {
    for l in (0..MAX_LANES).filter(|l| mask & (1 << l) != 0) {
        let t = texel(unit, op, coord, l);
        for (o, t) in out.iter_mut().zip(t) {
            o[l] = t;
        }
    }
}
