//! Following the fragments of one pixel through a draw (`glemu trace`): which lane of a
//! fragment batch is the pixel, and what the fragment program did there, recorded by the
//! executor's own traced run ([`glemu_programs::exec::Executor::run_traced`]).

use crate::state::Viewport;
use glemu_programs::exec::{
    lanes_mask, ExecError, ExecStats, LaneState, LaneTrace, RunEnv, MAX_LANES,
};
use glemu_programs::ir::{Program, Stage};
use glemu_raster::FragmentBatch;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

/// The pixel (window coordinates, origin bottom-left as in probes) and optional sample
/// to follow, and what was recorded.
#[derive(Debug, Default)]
pub struct FragmentTrace {
    /// Window x of the pixel.
    pub x: i32,
    /// Window y of the pixel (origin bottom-left).
    pub y: i32,
    /// With per-sample shading: only this sample's invocations.
    pub sample: Option<u32>,
    /// Every fragment program run for the pixel, in the order they ran.
    pub fragments: Mutex<Vec<TracedFragment>>,
    /// The per-fragment state of the last draw (what its tests and blending used).
    pub ops_state: Mutex<Option<OpsState>>,
    /// `glemu trace --stage`: the earlier stages followed, and what they recorded.
    pub stages: Option<Arc<StageTrace>>,
}

/// What the per-fragment operations of a draw used: `glemu trace` replays them for the
/// traced pixel with the rasterizer's own functions (`glemu_raster::fragops`).
#[derive(Clone, Debug)]
pub struct OpsState {
    /// Depth and stencil tests of the draw.
    pub depth_stencil: glemu_raster::DepthStencilState,
    /// Blending and colour masks of the draw.
    pub blend: glemu_raster::BlendState,
    /// Sample coverage, alpha-to-coverage and sample shading state.
    pub multisample: glemu_raster::MultisampleState,
    /// Samples per pixel of the framebuffer.
    pub samples: u32,
    /// Format of the depth buffer.
    pub depth_format: glemu_raster::DepthFormat,
    /// Format of each colour attachment.
    pub color_formats: Vec<glemu_raster::ColorFormat>,
}

/// One fragment program invocation for the traced pixel.
#[derive(Clone, Debug)]
pub struct TracedFragment {
    /// The primitive it belongs to (`primitive.id`).
    pub primitive: u32,
    /// The sample it runs for (per-sample shading), else None.
    pub sample: Option<u32>,
    /// Covered samples (bit per sample).
    pub coverage: u32,
    /// The primitive faces the front (selects the stencil face).
    pub front: bool,
    /// `fragment.position` (x, y, z, 1/w), the z the depth test uses.
    pub position: [f32; 4],
    /// Each program input slot's value (raw bits), in `Program::inputs` order.
    pub inputs: Vec<[u32; 4]>,
    /// The fragment program that ran (a scene may switch programs between draws, and
    /// fixed-function fragment processing runs a generated one); None when the early
    /// tests rejected the fragment.
    pub program: Option<Arc<Program>>,
    /// What the program did.
    pub trace: LaneTrace,
    /// Each program output slot after the run (raw bits).
    pub outputs: Vec<[u32; 4]>,
    /// What each output slot is (`Program::outputs` bindings of the program that ran:
    /// fixed-function fragment processing runs a generated one).
    pub output_bindings: Vec<glemu_programs::ir::OutputBinding>,
    /// Colour output 0 after `OPTION ARB_fog_*` (or fixed-function fog) blended the fog
    /// colour in, when fog applies (raw bits); this is what the per-fragment operations get.
    pub fogged: Option<[u32; 4]>,
    /// The early depth or stencil test rejected it before the program ran: no inputs,
    /// steps or outputs (the replay of the tests shows why).
    pub rejected_early: bool,
    /// KIL discarded it.
    pub killed: bool,
    /// The run failed (the draw fails with the same error).
    pub error: Option<String>,
}

impl TracedFragment {
    /// Lane `lane` of `batch` before a program runs for it: where it is, nothing run.
    pub(crate) fn of_lane(batch: &FragmentBatch<'_>, lane: usize) -> TracedFragment {
        let mut pos = [[0u32; glemu_raster::LANES]; 4];
        batch.position(&mut pos);
        TracedFragment {
            primitive: batch.primitive_ids()[lane],
            sample: batch.sample_id().map(|ids| ids[lane]),
            coverage: batch.coverage()[lane],
            front: batch.front_facing(),
            position: std::array::from_fn(|c| f32::from_bits(pos[c][lane])),
            inputs: Vec::new(),
            program: None,
            trace: LaneTrace::new(lane),
            outputs: Vec::new(),
            output_bindings: Vec::new(),
            fogged: None,
            rejected_early: false,
            killed: false,
            error: None,
        }
    }
}

impl FragmentTrace {
    /// A trace of pixel (x, y).
    pub fn new(x: i32, y: i32, sample: Option<u32>) -> FragmentTrace {
        FragmentTrace {
            x,
            y,
            sample,
            fragments: Mutex::new(Vec::new()),
            ops_state: Mutex::new(None),
            stages: None,
        }
    }

    /// Also follows the invocations of the earlier `stages` that feed the pixel's
    /// primitives ([`StageTrace`]).
    pub fn with_stages(mut self, stages: Vec<Stage>) -> FragmentTrace {
        self.stages = Some(Arc::new(StageTrace::new(stages)));
        self
    }

    /// Fragments recorded so far.
    pub(crate) fn count(&self) -> usize {
        self.fragments
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .len()
    }

    /// The fragments recorded from the `first`-th on, with their indices.
    pub(crate) fn recorded_since(&self, first: usize) -> Vec<(usize, TracedFragment)> {
        let all = self.fragments.lock().unwrap_or_else(|p| p.into_inner());
        all.iter()
            .enumerate()
            .skip(first)
            .map(|(i, f)| (i, f.clone()))
            .collect()
    }

    /// The lane of `batch` (among its first `lanes`) that is the traced pixel (and
    /// sample), if it is covered there.
    pub fn lane_in(&self, batch: &FragmentBatch<'_>, lanes: usize) -> Option<usize> {
        let (xs, ys, cov) = (batch.pixel_x(), batch.pixel_y(), batch.coverage());
        (0..lanes).find(|&i| {
            xs[i] == self.x
                && ys[i] == self.y
                && cov[i] != 0
                && match (self.sample, batch.sample_id()) {
                    (Some(s), Some(ids)) => ids[i] == s,
                    _ => true,
                }
        })
    }

    /// Takes the per-fragment state the last traced draw recorded.
    pub fn take_ops_state(&self) -> Option<OpsState> {
        self.ops_state
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }

    pub(crate) fn set_ops_state(&self, s: OpsState) {
        *self.ops_state.lock().unwrap_or_else(|p| p.into_inner()) = Some(s);
    }

    /// Takes what was recorded so far.
    pub fn take(&self) -> Vec<TracedFragment> {
        std::mem::take(&mut *self.fragments.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// Changes the last recorded fragment (what happens to it after the program).
    pub(crate) fn amend_last(&self, change: impl FnOnce(&mut TracedFragment)) {
        if let Some(f) = self
            .fragments
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .last_mut()
        {
            change(f);
        }
    }

    pub(crate) fn push(&self, f: TracedFragment) {
        self.fragments
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(f);
    }
}

/// `glemu trace --stage`: the invocations of earlier stages to record, and what a draw
/// needs to find the ones that fed the traced pixel's primitives.
///
/// While a draw runs, every batch of a followed stage runs traced (all its lanes, up to
/// [`MAX_TRACED`] invocations per stage and draw) and each stage notes where its output
/// rows came from ([`InstanceRecord`]); after the rasterizer, [`StageTrace::link`] walks
/// back from each traced fragment's primitive to the invocations that made it and keeps
/// only those ([`FedPrimitive`]).
#[derive(Debug, Default)]
pub struct StageTrace {
    /// The stages followed.
    pub stages: Vec<Stage>,
    /// The instance the later stages are running (instances run one at a time when
    /// traced).
    pub instance: AtomicU32,
    invocations: Mutex<Vec<TracedInvocation>>,
    instances: Mutex<Vec<InstanceRecord>>,
    /// The draw's vertex ids in draw order (what each vertex-stage row shaded).
    vertex_ids: Mutex<Vec<u32>>,
    /// What [`StageTrace::link`] found, per draw, until taken.
    primitives: Mutex<Vec<FedPrimitive>>,
}

/// Invocations traced per stage and draw; past it a stage runs untraced (the trace says
/// which invocations were not recorded).
pub const MAX_TRACED: usize = 4096;

/// Which invocation of a stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invocation {
    /// A vertex-program invocation.
    Vertex {
        /// The vertex id it shaded.
        id: u32,
    },
    /// A tessellation control invocation.
    Control {
        /// The patch (its `primitive.id`).
        patch: u32,
        /// `primitive.invocation`: the output vertex it writes.
        invocation: u32,
    },
    /// A tessellation evaluation invocation.
    Eval {
        /// The patch (its `primitive.id`).
        patch: u32,
        /// Which of the patch's generated vertices, in the tessellator's order.
        point: u32,
    },
    /// A geometry-program invocation.
    Geometry {
        /// The input primitive (its index among the stage's input primitives).
        primitive: u32,
        /// `primitive.invocation` (INVOCATIONS).
        invocation: u32,
    },
}

/// One traced invocation of an earlier stage.
#[derive(Clone, Debug)]
pub struct TracedInvocation {
    /// The stage it belongs to.
    pub stage: Stage,
    /// The draw's instance it ran for.
    pub instance: u32,
    /// Which invocation of the stage.
    pub at: Invocation,
    /// The program that ran (to print its source lines).
    pub program: Arc<Program>,
    /// Input values (raw bits): `inputs[v][slot]` for vertex copy `v` (one copy for the
    /// vertex stage; one per input vertex for the others).
    pub inputs: Vec<Vec<[u32; 4]>>,
    /// What it did.
    pub trace: LaneTrace,
    /// Each output slot after the run (raw bits; a geometry program's are what it
    /// holds at its end, its emitted vertices are in the steps).
    pub outputs: Vec<[u32; 4]>,
    /// The batch failed (the draw fails with the same error).
    pub error: Option<String>,
}

/// Where one instance's vertices came from, stage by stage (rows are indices into each
/// stage's output vertices).
#[derive(Clone, Debug, Default)]
pub struct InstanceRecord {
    /// The instance.
    pub instance: u32,
    /// Vertex-stage rows of the draw's vertices in draw order (its post-transform cache
    /// slots; restart kept).
    pub sequence: Vec<u32>,
    /// The assembled primitives (vertex-stage rows) and vertices per primitive.
    pub assembled: (Vec<u32>, usize),
    /// Tessellation: (patch, generated vertex) of each evaluation output row (its
    /// patches are the assembled primitives).
    pub tess: Option<StageRows>,
    /// Geometry: (input primitive, invocation) of each emitted row.
    pub geometry: Option<StageRows>,
    /// Primitives sent to the rasterizer (rows of the last stage), vertices per
    /// primitive, their `primitive.id`s (empty: the index) and the result.position of
    /// each of their vertices (`prims[k]`'s at k).
    pub last: (Vec<u32>, usize, Vec<u32>, Vec<[f32; 4]>),
}

/// Where a stage's output rows came from.
#[derive(Clone, Debug, Default)]
pub struct StageRows {
    /// Per output row, the invocation that wrote it (see [`InstanceRecord`]).
    pub source: Vec<(u32, u32)>,
    /// The stage's input primitives (rows of the stage before), `per` vertices each.
    pub input: Vec<u32>,
    /// Vertices per input primitive.
    pub per: usize,
}

/// A primitive that reached the traced pixel, and the invocations that made it.
#[derive(Clone, Debug)]
pub struct FedPrimitive {
    /// The traced fragments (indices into the draw's) it produced.
    pub fragments: Vec<usize>,
    /// The instance it belongs to.
    pub instance: u32,
    /// Its index among the instance's rasterized primitives.
    pub index: usize,
    /// result.position of its vertices as the last stage wrote them.
    pub positions: Vec<[f32; 4]>,
    /// The invocations that fed it, in pipeline order.
    pub invocations: Vec<TracedInvocation>,
    /// Invocations that fed it but were not recorded (past [`MAX_TRACED`]).
    pub missing: Vec<(Stage, Invocation)>,
}

impl StageTrace {
    /// Follows `stages` (the fragment stage is [`FragmentTrace`]'s own).
    pub fn new(stages: Vec<Stage>) -> StageTrace {
        StageTrace {
            stages,
            ..StageTrace::default()
        }
    }

    /// Whether `stage` is followed.
    pub fn follows(&self, stage: Stage) -> bool {
        self.stages.contains(&stage)
    }

    fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
        m.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Forgets what the last draw recorded (a draw starts).
    pub(crate) fn start_draw(&self, vertex_ids: Vec<u32>) {
        Self::lock(&self.invocations).clear();
        Self::lock(&self.instances).clear();
        *Self::lock(&self.vertex_ids) = vertex_ids;
    }

    pub(crate) fn record_instance(&self, r: InstanceRecord) {
        Self::lock(&self.instances).push(r);
    }

    /// The primitives the last draws' traced fragments came from (taken).
    pub fn take_primitives(&self) -> Vec<FedPrimitive> {
        std::mem::take(&mut *Self::lock(&self.primitives))
    }

    /// How many invocations of `stage` are recorded so far in this draw.
    fn recorded(&self, stage: Stage) -> usize {
        Self::lock(&self.invocations)
            .iter()
            .filter(|i| i.stage == stage)
            .count()
    }

    /// Runs `lanes` lanes of `ls` through `sp`'s program, traced when this stage is
    /// followed: `at(lane)` names each invocation (with its instance).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run<E: RunEnv + ?Sized>(
        me: Option<&StageTrace>,
        stage: Stage,
        sp: &crate::state::StageProgram,
        ls: &mut LaneState,
        lanes: usize,
        env: &mut E,
        at: impl Fn(usize) -> (u32, Invocation),
    ) -> Result<ExecStats, ExecError> {
        let active = lanes_mask(lanes);
        let Some(t) = me.filter(|t| t.follows(stage) && t.recorded(stage) < MAX_TRACED) else {
            return sp.executor.run(ls, active, &sp.params, env);
        };
        let inputs: Vec<Vec<Vec<[u32; 4]>>> = (0..lanes).map(|l| lane_inputs(sp, ls, l)).collect();
        let mut traces: Vec<LaneTrace> = (0..lanes).map(LaneTrace::new).collect();
        let r = sp
            .executor
            .run_traced_lanes(ls, active, &sp.params, env, &mut traces);
        let mut all = Self::lock(&t.invocations);
        for ((lane, trace), inputs) in traces.into_iter().enumerate().zip(inputs) {
            let (instance, at) = at(lane);
            all.push(TracedInvocation {
                stage,
                instance,
                at,
                program: sp.program.clone(),
                inputs,
                trace,
                outputs: (0..sp.program.outputs.len())
                    .map(|o| ls.output_lane(o, lane))
                    .collect(),
                error: r.as_ref().err().map(|e| e.to_string()),
            });
        }
        r
    }

    /// [`StageTrace::run`] for the lock-step invocations of one tessellation control
    /// patch.
    pub(crate) fn run_patch<E: RunEnv + ?Sized>(
        me: Option<&StageTrace>,
        sp: &crate::state::StageProgram,
        states: &mut [LaneState],
        invocations: usize,
        env: &mut E,
        patch: u32,
    ) -> Result<ExecStats, ExecError> {
        let stage = Stage::TessControl;
        let Some(t) = me.filter(|t| t.follows(stage) && t.recorded(stage) < MAX_TRACED) else {
            return sp.executor.run_patch(states, invocations, &sp.params, env);
        };
        let lanes = |b: usize| invocations.saturating_sub(b * MAX_LANES).min(MAX_LANES);
        let inputs: Vec<Vec<Vec<[u32; 4]>>> = (0..invocations)
            .filter_map(|m| {
                let ls = states.get_mut(m / MAX_LANES)?;
                Some(lane_inputs(sp, ls, m % MAX_LANES))
            })
            .collect();
        let mut traces: Vec<Vec<LaneTrace>> = (0..states.len())
            .map(|b| (0..lanes(b)).map(LaneTrace::new).collect())
            .collect();
        let r = sp
            .executor
            .run_patch_traced(states, invocations, &sp.params, env, &mut traces);
        let instance = t.instance.load(Ordering::Relaxed);
        let mut all = Self::lock(&t.invocations);
        let mut inputs = inputs.into_iter();
        for (b, batch) in traces.into_iter().enumerate() {
            for (lane, trace) in batch.into_iter().enumerate() {
                let m = b * MAX_LANES + lane;
                all.push(TracedInvocation {
                    stage,
                    instance,
                    at: Invocation::Control {
                        patch,
                        invocation: m as u32,
                    },
                    program: sp.program.clone(),
                    inputs: inputs.next().unwrap_or_default(),
                    trace,
                    outputs: (0..sp.program.outputs.len())
                        .map(|o| states.get(b).map_or([0; 4], |ls| ls.output_lane(o, lane)))
                        .collect(),
                    error: r.as_ref().err().map(|e| e.to_string()),
                });
            }
        }
        r
    }

    /// After the draw: for each traced fragment (`fragments`, this draw's, with their
    /// index) the primitive it came from and the invocations that fed it.
    pub(crate) fn link(&self, fragments: &[(usize, TracedFragment)], viewport: &Viewport) {
        let instances = Self::lock(&self.instances);
        let invocations = Self::lock(&self.invocations);
        let ids = Self::lock(&self.vertex_ids);
        let mut found: Vec<FedPrimitive> = Vec::new();
        for (fi, f) in fragments {
            let Some((r, index)) = covering(&instances, f, viewport) else {
                continue;
            };
            if let Some(p) = found
                .iter_mut()
                .find(|p| p.instance == r.instance && p.index == index)
            {
                p.fragments.push(*fi);
                continue;
            }
            let (wanted, positions) = feeders(r, index, &ids);
            let mut p = FedPrimitive {
                fragments: vec![*fi],
                instance: r.instance,
                index,
                positions,
                invocations: Vec::new(),
                missing: Vec::new(),
            };
            for (stage, at) in wanted {
                if !self.follows(stage) {
                    continue;
                }
                let ours = |i: &&TracedInvocation| i.stage == stage && i.instance == r.instance;
                let before = p.invocations.len();
                match at {
                    // Every invocation of the patch: they read each other's results.
                    Invocation::Control { patch, .. } => p.invocations.extend(
                        invocations
                            .iter()
                            .filter(ours)
                            .filter(|i| {
                                matches!(i.at, Invocation::Control { patch: q, .. } if q == patch)
                            })
                            .cloned(),
                    ),
                    _ => p
                        .invocations
                        .extend(invocations.iter().filter(ours).find(|i| i.at == at).cloned()),
                }
                if p.invocations.len() == before {
                    p.missing.push((stage, at));
                }
            }
            found.push(p);
        }
        Self::lock(&self.primitives).extend(found);
    }
}

/// Every input of lane `lane` of `ls`, per vertex copy.
fn lane_inputs(
    sp: &crate::state::StageProgram,
    ls: &mut LaneState,
    lane: usize,
) -> Vec<Vec<[u32; 4]>> {
    let n = sp.program.inputs.len();
    (0..ls.vertices().max(1))
        .map(|v| {
            (0..n)
                .map(|slot| {
                    ls.input_vertex_mut(v, slot)
                        .map_or([0; 4], |r| std::array::from_fn(|c| r[c][lane]))
                })
                .collect()
        })
        .collect()
}

/// The rasterized primitive `f` came from: among the instances' primitives with its
/// `primitive.id`, the one nearest the pixel centre in window coordinates (a
/// tessellated patch's triangles share an id), depth breaking ties.
fn covering<'a>(
    instances: &'a [InstanceRecord],
    f: &TracedFragment,
    vp: &Viewport,
) -> Option<(&'a InstanceRecord, usize)> {
    let centre = [f.position[0], f.position[1]];
    let mut best: Option<((f32, f32), &InstanceRecord, usize)> = None;
    for r in instances {
        let (prims, per, ids, pos) = &r.last;
        if *per == 0 {
            continue;
        }
        for (i, verts) in prims.chunks_exact(*per).enumerate() {
            let id = ids.get(i).copied().unwrap_or(i as u32);
            if id != f.primitive {
                continue;
            }
            let win: Vec<[f32; 3]> = (0..verts.len())
                .map(|k| window(pos.get(i * per + k).copied().unwrap_or_default(), vp))
                .collect();
            let score = (distance(centre, &win), depth_gap(&win, f.position[2]));
            if best.as_ref().is_none_or(|(s, _, _)| score < *s) {
                best = Some((score, r, i));
            }
        }
    }
    best.map(|(_, r, i)| (r, i))
}

/// Clip coordinates to window (x, y, z).
fn window(p: [f32; 4], vp: &Viewport) -> [f32; 3] {
    let w = if p[3] == 0.0 { 1.0 } else { p[3] };
    [
        vp.x + (p[0] / w + 1.0) * 0.5 * vp.width,
        vp.y + (p[1] / w + 1.0) * 0.5 * vp.height,
        vp.near + (p[2] / w + 1.0) * 0.5 * (vp.far - vp.near),
    ]
}

/// 0 inside a triangle, else the distance to the nearest vertex or edge.
fn distance(c: [f32; 2], v: &[[f32; 3]]) -> f32 {
    let seg = |a: [f32; 3], b: [f32; 3]| {
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len = dx * dx + dy * dy;
        let t = if len > 0.0 {
            (((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / len).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let (px, py) = (a[0] + t * dx - c[0], a[1] + t * dy - c[1]);
        (px * px + py * py).sqrt()
    };
    match v {
        [a, b, c3] => {
            let edge = |p: [f32; 3], q: [f32; 3]| {
                (q[0] - p[0]) * (c[1] - p[1]) - (q[1] - p[1]) * (c[0] - p[0])
            };
            let e = [edge(*a, *b), edge(*b, *c3), edge(*c3, *a)];
            if e.iter().all(|x| *x >= 0.0) || e.iter().all(|x| *x <= 0.0) {
                0.0
            } else {
                seg(*a, *b).min(seg(*b, *c3)).min(seg(*c3, *a))
            }
        }
        [a, b] => seg(*a, *b),
        [a] => seg(*a, *a),
        _ => f32::INFINITY,
    }
}

/// How far the primitive's mean depth is from the fragment's.
fn depth_gap(v: &[[f32; 3]], z: f32) -> f32 {
    let n = v.len().max(1) as f32;
    (v.iter().map(|p| p[2]).sum::<f32>() / n - z).abs()
}

/// The invocations that made primitive `index` of `r`, in pipeline order, and its
/// vertices' positions.
fn feeders(
    r: &InstanceRecord,
    index: usize,
    vertex_ids: &[u32],
) -> (Vec<(Stage, Invocation)>, Vec<[f32; 4]>) {
    let (prims, per, _, pos) = &r.last;
    let mut rows: Vec<u32> = prims
        .get(index * per..(index + 1) * per)
        .unwrap_or(&[])
        .to_vec();
    let positions = pos
        .get(index * per..(index + 1) * per)
        .unwrap_or(&[])
        .to_vec();
    let mut later: Vec<(Stage, Invocation)> = Vec::new();
    let push = |list: &mut Vec<(Stage, Invocation)>, x: (Stage, Invocation)| {
        if !list.contains(&x) {
            list.push(x);
        }
    };
    if let Some(StageRows {
        source: src,
        input,
        per: in_per,
    }) = &r.geometry
    {
        let mut before = Vec::new();
        for row in &rows {
            let Some(&(p, inv)) = src.get(*row as usize) else {
                continue;
            };
            push(
                &mut later,
                (
                    Stage::Geometry,
                    Invocation::Geometry {
                        primitive: p,
                        invocation: inv,
                    },
                ),
            );
            for v in input
                .get(p as usize * in_per..(p as usize + 1) * in_per)
                .unwrap_or(&[])
            {
                if !before.contains(v) {
                    before.push(*v);
                }
            }
        }
        rows = before;
    }
    let mut tess = Vec::new();
    if let Some(StageRows { source: src, .. }) = &r.tess {
        let mut patches = Vec::new();
        for row in &rows {
            let Some(&(patch, point)) = src.get(*row as usize) else {
                continue;
            };
            push(
                &mut tess,
                (Stage::TessEval, Invocation::Eval { patch, point }),
            );
            if !patches.contains(&patch) {
                patches.push(patch);
            }
        }
        let (assembled, n_in) = &r.assembled;
        let mut control = Vec::new();
        rows = Vec::new();
        for patch in patches {
            let pv = assembled
                .get(patch as usize * n_in..(patch as usize + 1) * n_in)
                .unwrap_or(&[]);
            for v in pv {
                if !rows.contains(v) {
                    rows.push(*v);
                }
            }
            // All of the patch's invocations (`link` finds them).
            push(
                &mut control,
                (
                    Stage::TessControl,
                    Invocation::Control {
                        patch,
                        invocation: 0,
                    },
                ),
            );
        }
        tess = control.into_iter().chain(tess).collect();
    }
    let mut out = Vec::new();
    for row in rows {
        let id = r
            .sequence
            .iter()
            .position(|s| *s == row)
            .and_then(|k| vertex_ids.get(k).copied());
        if let Some(id) = id {
            push(&mut out, (Stage::Vertex, Invocation::Vertex { id }));
        }
    }
    out.extend(tess);
    out.extend(later);
    (out, positions)
}

/// [`InstanceRecord::last`] of primitives `prims` (`per` vertices each, rows of
/// `verts`) with their `ids`.
pub(crate) fn last_stage(
    verts: &crate::vertices::Vertices,
    prims: &crate::assembly::Primitives,
    per: usize,
    ids: &[u32],
) -> (Vec<u32>, usize, Vec<u32>, Vec<[f32; 4]>) {
    let k = verts.find(glemu_programs::ir::VaryingSlot::Position);
    let positions = prims
        .verts
        .iter()
        .map(|v| k.map_or([0.0; 4], |k| verts.get(*v as usize, k).map(f32::from_bits)))
        .collect();
    (prims.verts.clone(), per, ids.to_vec(), positions)
}
