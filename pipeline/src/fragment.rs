//! The fragment stage: runs the fragment program as the rasterizer's [`FragmentShader`].
//!
//! [`FragmentPlan`] links the fragment program's inputs to the last vertex stage's
//! varyings (by [`VaryingSlot`]) and decides the scalar varyings the rasterizer
//! interpolates, with each input's interpolation modifiers. Two-sided colour: when
//! enabled, both front and back colours are interpolated and the shader picks one per
//! primitive from its facing.

use crate::clip::RasterPlan;
use crate::env::forward_env_to_base;
use crate::env::{Resources, StageEnv};
use crate::error::PipelineError;
use crate::state::{FogParams, StageProgram};
use crate::vertices::Vertices;
use glemu_programs::compile::{BlockKernel, BlockSpec};
use glemu_programs::exec::{
    BlockState, Env, EnvError, Fragment, FragmentHooks, ImageCall, InterpCall, InterpKind,
    LaneState, MemRegion, TexCall, Vec4, MAX_LANES,
};
use glemu_programs::ir::{
    FogMode, InputBinding, OpClass, Opcode, OutputBinding, Stage, ThreadMaskKind, VarType,
    VaryingSlot,
};
use glemu_raster::{
    flat_strips, perspective_strips, store_block, store_block_flat, store_block_samples,
    store_strip, store_strip_samples, BlockRows, FragmentBatch, FragmentOutputs, FragmentShader,
    InterpLocation, InterpMode, SampleRows, ShaderError, ShaderInfo, Strip, StripColors,
    VaryingInterp, LANES, MAX_COLOR_TARGETS,
};
use std::sync::Arc;

/// Where one fragment program input comes from.
#[derive(Clone, Debug, PartialEq)]
enum FragSrc {
    /// Raster varyings `base..base+4`; `back` = the back colour's base for two-sided
    /// selection; `scalar` = only x is a varying (fog, clip distance): (v, 0, 0, 1).
    Varying {
        base: usize,
        back: Option<usize>,
        scalar: bool,
    },
    Const([u32; 4]),
    Position,
    Facing,
    PrimitiveId,
    SampleId,
    SampleMask,
    SamplePosition,
    PointCoord,
    Helper,
    Thread(Option<ThreadMaskKind>),
}

/// Output routing of one fragment program output.
#[derive(Clone, Copy, Debug, PartialEq)]
enum FragDst {
    Color(usize),
    /// `result.color[n].secondary` (ARB_blend_func_extended): SRC1 of colour `n`.
    Secondary(usize),
    Depth,
    SampleMask,
}

const ONE: u32 = 0x3f80_0000;

/// How the fragment program's inputs and outputs connect to the rest of the draw.
#[derive(Clone, Debug)]
pub struct FragmentPlan {
    /// The varyings the rasterizer interpolates and how.
    pub raster: RasterPlan,
    /// What the rasterizer needs to know of the program (depth and sample mask writes,
    /// kill, early tests ...).
    pub info: ShaderInfo,
    inputs: Vec<FragSrc>,
    outputs: Vec<(usize, FragDst)>,
    origin_upper_left: bool,
    pixel_center_integer: bool,
    /// `OPTION ARB_fog_*`: mode, parameters and the raster varying holding the fog
    /// coordinate (None = the previous stage writes none: coordinate 0).
    fog: Option<(FogMode, FogParams, Option<usize>)>,
}

fn varying_for(b: &InputBinding) -> Option<(VaryingSlot, bool)> {
    Some(match b {
        InputBinding::FragColor { secondary } => (
            VaryingSlot::Color {
                back: false,
                secondary: *secondary,
            },
            false,
        ),
        InputBinding::FragTexCoord(n) => (VaryingSlot::TexCoord(*n), false),
        InputBinding::FragAttrib(n) => (VaryingSlot::Attrib(*n), false),
        InputBinding::FragFogCoord => (VaryingSlot::FogCoord, true),
        InputBinding::FragClipDistance(n) => (VaryingSlot::ClipDistance(*n), true),
        InputBinding::FragLayer => (VaryingSlot::Layer, true),
        InputBinding::FragViewportIndex => (VaryingSlot::ViewportIndex, true),
        _ => return None,
    })
}

impl FragmentPlan {
    /// Links `fp` to the varyings `last` produces.
    pub fn new(
        fp: &StageProgram,
        last: &Vertices,
        two_side: bool,
        flat_shading: bool,
        fog: FogParams,
    ) -> Result<FragmentPlan, PipelineError> {
        let prog = &fp.program;
        if prog.stage != Stage::Fragment {
            return Err(PipelineError::invalid_op(
                "the fragment stage's program is not a fragment program",
            ));
        }
        let mut raster = RasterPlan::default();
        let mut interps: Vec<VaryingInterp> = Vec::new();
        let mut inputs = Vec::new();
        let mut per_sample = false;
        for input in &prog.inputs {
            let b = &input.binding;
            let src = if let Some((slot, scalar)) = varying_for(b) {
                let is_color = matches!(slot, VaryingSlot::Color { .. });
                let integer = input.info.ty != VarType::Float;
                let flat = input.interp.flat
                    || integer
                    || (is_color && flat_shading)
                    || matches!(slot, VaryingSlot::Layer | VaryingSlot::ViewportIndex);
                let vi = VaryingInterp {
                    mode: if flat {
                        InterpMode::Flat
                    } else if input.interp.noperspective {
                        InterpMode::NoPerspective
                    } else {
                        InterpMode::Perspective
                    },
                    location: if input.interp.sample {
                        InterpLocation::Sample
                    } else if input.interp.centroid {
                        InterpLocation::Centroid
                    } else {
                        InterpLocation::Center
                    },
                };
                per_sample |= input.interp.sample;
                let mut add = |slot: VaryingSlot| -> Option<usize> {
                    let k = last.find(slot)?;
                    let base = raster.picks.len();
                    for c in 0..4 {
                        raster.picks.push((Some(k), c, flat));
                        interps.push(vi);
                    }
                    Some(base)
                };
                let front = add(slot);
                let back = match slot {
                    VaryingSlot::Color { secondary, .. } if two_side => add(VaryingSlot::Color {
                        back: true,
                        secondary,
                    }),
                    _ => None,
                };
                match (front, back) {
                    (Some(base), back) => FragSrc::Varying { base, back, scalar },
                    (None, Some(b)) => FragSrc::Varying {
                        base: b,
                        back: Some(b),
                        scalar,
                    },
                    // Not written by the previous stage: undefined in GL; (0,0,0,1) here.
                    (None, None) => FragSrc::Const([0, 0, 0, ONE]),
                }
            } else {
                match b {
                    InputBinding::FragPosition => FragSrc::Position,
                    InputBinding::FragFacing => FragSrc::Facing,
                    InputBinding::PrimitiveId => FragSrc::PrimitiveId,
                    InputBinding::FragSampleId => {
                        per_sample = true;
                        FragSrc::SampleId
                    }
                    InputBinding::FragSampleMask => FragSrc::SampleMask,
                    InputBinding::FragSamplePosition => {
                        per_sample = true;
                        FragSrc::SamplePosition
                    }
                    InputBinding::FragPointCoord => FragSrc::PointCoord,
                    InputBinding::FragHelperThread => FragSrc::Helper,
                    InputBinding::ThreadId => FragSrc::Thread(None),
                    InputBinding::ThreadMask(k) => FragSrc::Thread(Some(*k)),
                    // One SM running one warp at a time (see the ir docs).
                    InputBinding::WarpId | InputBinding::SmId => FragSrc::Const([0; 4]),
                    other => {
                        return Err(PipelineError::not_supported(format!(
                            "fragment program input {other:?}"
                        )))
                    }
                }
            };
            inputs.push(src);
        }
        let mut outputs = Vec::new();
        let (mut writes_depth, mut writes_mask) = (false, false);
        for (i, o) in prog.outputs.iter().enumerate() {
            let dst = match o.binding {
                OutputBinding::FragColor { target, index: 0 } => FragDst::Color(target as usize),
                OutputBinding::FragColor { target, .. } => FragDst::Secondary(target as usize),
                OutputBinding::FragColorHalf => FragDst::Color(0),
                OutputBinding::FragDepth => {
                    writes_depth = true;
                    FragDst::Depth
                }
                OutputBinding::FragSampleMask => {
                    writes_mask = true;
                    FragDst::SampleMask
                }
                ref other => {
                    return Err(PipelineError::not_supported(format!(
                        "fragment program output {other:?}"
                    )))
                }
            };
            outputs.push((i, dst));
        }
        let fog = prog.options.fog.map(|mode| {
            let k = last.find(VaryingSlot::FogCoord).map(|k| {
                let base = raster.picks.len();
                raster.picks.push((Some(k), 0, false));
                interps.push(VaryingInterp::default());
                base
            });
            (mode, fog, k)
        });
        let has = |ops: &[Opcode]| prog.instructions.iter().any(|i| ops.contains(&i.op));
        let info = ShaderInfo {
            varyings: interps,
            writes_depth,
            writes_sample_mask: writes_mask,
            may_kill: has(&[Opcode::Kil]),
            side_effects: has(&[
                Opcode::Store,
                Opcode::Atom,
                Opcode::Atomctr,
                Opcode::Storeim,
                Opcode::Atomim,
            ]),
            per_sample,
            early_fragment_tests: prog.options.early_fragment_tests,
            lanes_independent: lanes_independent(prog, &inputs),
        };
        Ok(FragmentPlan {
            raster,
            info,
            inputs,
            outputs,
            origin_upper_left: prog.options.origin_upper_left,
            pixel_center_integer: prog.options.pixel_center_integer,
            fog,
        })
    }
}

/// Whether no lane of `prog` reads another lane or its place in a quad (and it has no
/// side effects), so raster may pack single pixels of several primitives into a batch
/// ([`ShaderInfo::lanes_independent`]). Texture lookups count as dependent (implicit
/// LOD takes the quad's derivatives), and so do IPAC/IPAS/IPAO and memory other than LDC.
fn lanes_independent(prog: &glemu_programs::ir::Program, inputs: &[FragSrc]) -> bool {
    use Opcode::*;
    let op_ok = |op: Opcode| match op.class() {
        OpClass::Alu => !matches!(
            op,
            Ddx | Ddy
                | DdxCoarse
                | DdyCoarse
                | Tgall
                | Tgany
                | Tgeq
                | Tgballot
                | Shfdown
                | Shfidx
                | Shfup
                | Shfxor
        ),
        OpClass::Flow => true,
        OpClass::Memory => op == Ldc,
        _ => false,
    };
    let input_ok = |s: &FragSrc| {
        !matches!(
            s,
            FragSrc::Helper
                | FragSrc::Thread(_)
                | FragSrc::SampleId
                | FragSrc::SampleMask
                | FragSrc::SamplePosition
        )
    };
    prog.instructions.iter().all(|i| op_ok(i.op)) && inputs.iter().all(input_ok)
}

/// ARB_fragment_program's fog factor for fog coordinate `c`, clamped to [0, 1].
pub fn fog_factor(mode: FogMode, p: &FogParams, c: f32) -> f32 {
    let f = match mode {
        FogMode::Linear => (p.end - c) / (p.end - p.start),
        FogMode::Exp => (-p.density * c).exp(),
        FogMode::Exp2 => (-(p.density * c) * (p.density * c)).exp(),
    };
    if f.is_nan() {
        0.0
    } else {
        f.clamp(0.0, 1.0)
    }
}

/// A fragment program bound to a draw's resources.
pub struct ProgramShader<'a> {
    /// The fragment program and its parameters.
    pub(crate) fp: &'a StageProgram,
    /// How its inputs and outputs connect to the draw.
    pub(crate) plan: &'a FragmentPlan,
    /// The draw's textures, buffers and images.
    pub(crate) res: &'a Resources,
    /// Where each program output goes ([`FragmentPlan`]'s routing, with the secondary
    /// colour resolved for this draw's blending).
    outputs: Vec<(usize, FragDst)>,
    /// Live (non-helper) lanes shaded: FRAGMENT_SHADER_INVOCATIONS. Each worker's
    /// scratch adds its count when the draw drops it.
    invocations: &'a std::sync::atomic::AtomicU64,
    /// The pixel `glemu trace` follows (the batch holding it runs traced).
    pub trace: Option<&'a crate::trace::FragmentTrace>,
    /// Strips of fully covered blocks may run through `shade_strips`: no fog to apply
    /// after the program and no IPAC/IPAS/IPAO (the environment holds one strip's batch).
    strips: bool,
    /// The program fused with the draw's colour store (`shade_block`), made on first use,
    /// with the output it stores.
    block: std::sync::OnceLock<Option<(usize, BlockSpec, Arc<BlockKernel>)>>,
    /// How a strip fills the inputs when every one is simple (`strip_inputs`).
    strip_inputs: Option<Vec<StripInput>>,
}

/// One input as a fully covered strip fills it: a whole perspective varying at the
/// pixel centre (front and back base for two-sided colour), or a constant.
#[derive(Clone, Copy, Debug)]
enum StripInput {
    Planes {
        slot: usize,
        base: usize,
        back: Option<usize>,
    },
    Const {
        slot: usize,
        v: [u32; 4],
    },
}

/// The inputs as a strip fills them when each is a constant or a four-component
/// perspective varying at the pixel centre (None otherwise): decided once per draw, so a
/// strip skips `fill_inputs`' per-input dispatch and `interpolate_n`'s per-component
/// checks (together a fifth of a one-instruction program's scene).
fn strip_inputs(plan: &FragmentPlan) -> Option<Vec<StripInput>> {
    let plain = |base: usize| {
        (base..base + 4).all(|k| {
            plan.info.interp(k)
                == VaryingInterp {
                    mode: InterpMode::Perspective,
                    location: InterpLocation::Center,
                }
        })
    };
    plan.inputs
        .iter()
        .enumerate()
        .map(|(slot, src)| match *src {
            FragSrc::Varying {
                base,
                back,
                scalar: false,
            } if plain(base) && back.is_none_or(plain) => {
                Some(StripInput::Planes { slot, base, back })
            }
            FragSrc::Const(v) => Some(StripInput::Const { slot, v }),
            _ => None,
        })
        .collect()
}

impl<'a> ProgramShader<'a> {
    /// A shader for the draw's framebuffer. With
    /// `dual_source` blending (a SRC1_* factor; only draw buffer 0 may then be written,
    /// MAX_DUAL_SOURCE_DRAW_BUFFERS being 1) the rasterizer reads output 1 as colour 0's
    /// second source, so `result.color[0].secondary` goes there and `result.color[n]`,
    /// n ≥ 1, nowhere; without it the secondary colours go nowhere.
    pub fn new(
        fp: &'a StageProgram,
        plan: &'a FragmentPlan,
        res: &'a Resources,
        dual_source: bool,
        invocations: &'a std::sync::atomic::AtomicU64,
    ) -> Self {
        let outputs: Vec<(usize, FragDst)> = plan
            .outputs
            .iter()
            .filter_map(|&(slot, dst)| match dst {
                FragDst::Secondary(0) if dual_source => Some((slot, FragDst::Color(1))),
                FragDst::Secondary(_) => None,
                FragDst::Color(t) if dual_source && t > 0 => None,
                d => Some((slot, d)),
            })
            .collect();
        let interpolates = fp
            .program
            .instructions
            .iter()
            .any(|i| i.op.class() == OpClass::Interpolate);
        ProgramShader {
            fp,
            plan,
            res,
            outputs,
            invocations,
            trace: None,
            strips: plan.fog.is_none() && !interpolates,
            block: std::sync::OnceLock::new(),
            strip_inputs: strip_inputs(plan),
        }
    }

    /// The batch's run with `lane` traced, its record added to `trace`.
    fn run_traced(
        &self,
        s: &mut Scratch,
        batch: &FragmentBatch<'_>,
        active: glemu_programs::exec::LaneMask,
        env: &mut FragEnv<'_, '_>,
        trace: &crate::trace::FragmentTrace,
        lane: usize,
    ) -> Result<(), glemu_programs::exec::ExecError> {
        let n_in = self.fp.program.inputs.len();
        let inputs: Vec<[u32; 4]> = (0..n_in)
            .map(|i| {
                s.ls.input_mut(i)
                    .map_or([0; 4], |r| std::array::from_fn(|c| r[c][lane]))
            })
            .collect();
        let mut lt = glemu_programs::exec::LaneTrace::new(lane);
        let r = self.fp.executor.run_traced(
            &mut s.ls,
            active,
            &self.fp.params,
            &mut Fragment(env),
            &mut lt,
        );
        let outputs = (0..self.fp.program.outputs.len())
            .map(|i| s.ls.output_lane(i, lane))
            .collect();
        trace.push(crate::trace::TracedFragment {
            inputs,
            program: Some(self.fp.program.clone()),
            trace: lt,
            outputs,
            output_bindings: self
                .fp
                .program
                .outputs
                .iter()
                .map(|o| o.binding.clone())
                .collect(),
            killed: s.ls.kill_mask() & (1 << lane) != 0,
            error: r.as_ref().err().map(|e| e.to_string()),
            ..crate::trace::TracedFragment::of_lane(batch, lane)
        });
        r.map(drop)
    }

    /// Fragments shaded by the workers dropped so far (every one, once the rasterizer's
    /// draw has returned; helper lanes not counted).
    pub fn invocations(&self) -> u64 {
        self.invocations.load(std::sync::atomic::Ordering::Relaxed)
    }
}

// Interpolated varyings go straight into the executor's registers.
const _: () = assert!(LANES == MAX_LANES);

/// Per-worker registers.
pub struct Scratch<'a> {
    ls: LaneState,
    tmp: [[u32; LANES]; 4],
    /// Live lanes this worker shaded, added to the shader's total when the worker is
    /// dropped at the end of the draw (one atomic add per worker, not per batch: the
    /// counter's cache line would bounce between the cores every batch).
    invocations: u64,
    total: &'a std::sync::atomic::AtomicU64,
    /// Strips filled through `fill_simple`, added to [`SIMPLE_STRIPS`] as `invocations`.
    simple: u64,
    /// The registers of the program's whole-block runs (`ProgramShader::run_whole`), when
    /// it has them.
    whole: Option<BlockState>,
    /// Blocks run whole, added to [`WHOLE_BLOCKS`] as `invocations`.
    whole_blocks: u64,
    /// Per entry of `strip_inputs`, the bits every lane of every strip of its register
    /// in `whole` holds, when `run_whole` filled it with one value (`flat_strips`); None
    /// when its lanes were last filled otherwise. A block run never writes its inputs,
    /// so a flat input the same as the block before's is not written again.
    flat: Vec<Option<[u32; 4]>>,
    /// Flat inputs `run_whole` took and blocks it stored as one colour, added to
    /// [`FLAT_INPUTS`] and [`FLAT_STORES`] as `invocations`.
    flat_inputs: u64,
    flat_stores: u64,
}

/// Blocks whose strips ran as one [`glemu_programs::exec::BlockProgram`] run, over the
/// process (tests check that the path ran).
static WHOLE_BLOCKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// [`WHOLE_BLOCKS`]: added once per worker and draw, when its scratch is dropped.
#[cfg(test)]
pub(crate) fn whole_blocks() -> u64 {
    WHOLE_BLOCKS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Inputs of whole-block runs found flat (`flat_strips`), over the process (tests check
/// that the path ran).
static FLAT_INPUTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Whole-block runs whose colour was a flat input, stored by `store_block_flat`, over the
/// process (tests check that the path ran).
static FLAT_STORES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// [`FLAT_INPUTS`] and [`FLAT_STORES`]: added once per worker and draw, when its scratch
/// is dropped.
#[cfg(test)]
pub(crate) fn flat_counts() -> [u64; 2] {
    [&FLAT_INPUTS, &FLAT_STORES].map(|c| c.load(std::sync::atomic::Ordering::Relaxed))
}

/// Strips whose inputs `fill_simple` filled, over the process (tests check that the path
/// ran).
static SIMPLE_STRIPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// [`SIMPLE_STRIPS`]: added once per worker and draw, when its scratch is dropped.
#[cfg(test)]
pub(crate) fn simple_strips() -> u64 {
    SIMPLE_STRIPS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Whether multisampled blocks may run whole (`run_whole`): tests turn it off to compare
/// with the fused kernels' strips, the reference of the same draw.
#[cfg(test)]
static WHOLE_SAMPLES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Whether multisampled blocks run whole: with AVX-512 (`shade_block_samples`), and in
/// tests unless turned off.
#[inline(always)]
fn whole_samples() -> bool {
    #[cfg(test)]
    if !WHOLE_SAMPLES.load(std::sync::atomic::Ordering::Relaxed) {
        return false;
    }
    glemu_raster::simd::isa() == glemu_raster::simd::Isa::Avx512
}

/// Lets multisampled blocks run whole or not (tests only; see [`WHOLE_SAMPLES`]): the
/// images are the same either way, so other tests drawing meanwhile see only a
/// different path.
#[cfg(test)]
pub(crate) fn set_whole_samples(on: bool) {
    WHOLE_SAMPLES.store(on, std::sync::atomic::Ordering::Relaxed);
}

impl Drop for Scratch<'_> {
    fn drop(&mut self) {
        self.total
            .fetch_add(self.invocations, std::sync::atomic::Ordering::Relaxed);
        if self.simple != 0 {
            SIMPLE_STRIPS.fetch_add(self.simple, std::sync::atomic::Ordering::Relaxed);
        }
        if self.whole_blocks != 0 {
            WHOLE_BLOCKS.fetch_add(self.whole_blocks, std::sync::atomic::Ordering::Relaxed);
        }
        if self.flat_inputs != 0 {
            FLAT_INPUTS.fetch_add(self.flat_inputs, std::sync::atomic::Ordering::Relaxed);
        }
        if self.flat_stores != 0 {
            FLAT_STORES.fetch_add(self.flat_stores, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

struct FragEnv<'a, 'b> {
    base: StageEnv<'a>,
    batch: &'a FragmentBatch<'b>,
    plan: &'a FragmentPlan,
}

impl Env for FragEnv<'_, '_> {
    forward_env_to_base!();
}

impl FragmentHooks for FragEnv<'_, '_> {
    fn interpolate(&mut self, call: &InterpCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
        let src = self.plan.inputs.get(call.input as usize);
        let Some(FragSrc::Varying { base, back, scalar }) = src.cloned() else {
            return Err(EnvError(format!(
                "IPA on input {} which is not an interpolated attribute",
                call.input
            )));
        };
        let base = match back {
            Some(b) if !self.batch.front_facing() => b,
            _ => base,
        };
        let comps = if scalar { 1 } else { 4 };
        let mut tmp = [0u32; LANES];
        // IPAO offsets are clamped to [MIN, MAX]_FRAGMENT_INTERPOLATION_OFFSET (±0.5) and
        // used unsnapped (finer than the 4 advertised bits), as llvmpipe evaluates them.
        let clamp_offset = |v: u32| {
            let o = f32::from_bits(v);
            if o.is_nan() {
                0.0
            } else {
                o.clamp(-0.5, 0.5)
            }
        };
        let (mut dx, mut dy) = ([0.0f32; LANES], [0.0f32; LANES]);
        if call.kind == InterpKind::Offset {
            for i in 0..LANES.min(MAX_LANES) {
                dx[i] = clamp_offset(call.operand[0][i]);
                dy[i] = clamp_offset(call.operand[1][i]);
            }
        }
        let mut sample = [0u32; LANES];
        sample[..LANES.min(MAX_LANES)].copy_from_slice(&call.operand[0][..LANES.min(MAX_LANES)]);
        for c in 0..comps {
            match call.kind {
                InterpKind::Centroid => self.batch.interpolate_at_centroid(base + c, &mut tmp),
                InterpKind::Sample => self
                    .batch
                    .interpolate_at_sample(base + c, &sample, &mut tmp),
                InterpKind::Offset => {
                    self.batch
                        .interpolate_at_offset(base + c, &dx, &dy, &mut tmp)
                }
            }
            for i in 0..LANES.min(MAX_LANES) {
                if call.lanes & (1 << i) != 0 {
                    out[c][i] = tmp[i];
                }
            }
        }
        if scalar {
            for i in 0..LANES.min(MAX_LANES) {
                if call.lanes & (1 << i) != 0 {
                    out[1][i] = 0;
                    out[2][i] = 0;
                    out[3][i] = ONE;
                }
            }
        }
        Ok(())
    }
}

impl ProgramShader<'_> {
    /// The program's environment for a run on `batch`.
    fn env<'e, 'b>(&'e self, batch: &'e FragmentBatch<'b>) -> FragEnv<'e, 'b> {
        FragEnv {
            base: StageEnv {
                res: self.res,
                stage: Stage::Fragment,
                param_buffers: &self.fp.param_buffers,
                subroutines: &self.fp.subroutines,
            },
            batch,
            plan: self.plan,
        }
    }

    fn fill_inputs(
        &self,
        ls: &mut LaneState,
        tmp: &mut [[u32; LANES]; 4],
        batch: &FragmentBatch<'_>,
    ) {
        let front = batch.front_facing();
        for (slot, src) in self.plan.inputs.iter().enumerate() {
            let Some(reg) = ls.input_mut(slot) else {
                continue;
            };
            let lanes = LANES.min(MAX_LANES);
            match src {
                FragSrc::Varying { base, back, scalar } => {
                    let base = match back {
                        Some(b) if !front => *b,
                        _ => *base,
                    };
                    // Straight into the register (batch and register widths agree, see
                    // the assertion below), all components in one call.
                    let comps = if *scalar { 1 } else { 4 };
                    batch.interpolate_n(base, comps, reg);
                    if *scalar {
                        for (c, v) in [(1, 0), (2, 0), (3, ONE)] {
                            reg[c] = [v; MAX_LANES];
                        }
                    }
                }
                FragSrc::Const(v) => {
                    for c in 0..4 {
                        reg[c] = [v[c]; MAX_LANES];
                    }
                }
                FragSrc::Position => {
                    batch.position(tmp);
                    let h = batch.framebuffer_height() as f32;
                    for i in 0..lanes {
                        let mut x = f32::from_bits(tmp[0][i]);
                        let mut y = f32::from_bits(tmp[1][i]);
                        if self.plan.origin_upper_left {
                            y = h - y;
                        }
                        if self.plan.pixel_center_integer {
                            x -= 0.5;
                            y -= 0.5;
                        }
                        reg[0][i] = x.to_bits();
                        reg[1][i] = y.to_bits();
                        reg[2][i] = tmp[2][i];
                        reg[3][i] = tmp[3][i];
                    }
                }
                FragSrc::Facing => {
                    let f = if front { 1.0f32 } else { -1.0 };
                    reg[0] = [f.to_bits(); MAX_LANES];
                    reg[1] = [0; MAX_LANES];
                    reg[2] = [0; MAX_LANES];
                    reg[3] = [ONE; MAX_LANES];
                }
                FragSrc::PrimitiveId => {
                    let ids = batch.primitive_ids();
                    reg[0][..lanes].copy_from_slice(&ids[..lanes]);
                    for c in 1..4 {
                        reg[c] = [0; MAX_LANES];
                    }
                }
                FragSrc::SampleId => {
                    let ids = batch.sample_id().copied().unwrap_or([0; LANES]);
                    reg[0][..lanes].copy_from_slice(&ids[..lanes]);
                }
                FragSrc::SampleMask => {
                    reg[0][..lanes].copy_from_slice(&batch.coverage()[..lanes]);
                }
                FragSrc::SamplePosition => {
                    let ids = batch.sample_id().copied().unwrap_or([0; LANES]);
                    for i in 0..lanes {
                        let p = batch.sample_position(ids[i]).unwrap_or([0.5, 0.5]);
                        reg[0][i] = p[0].to_bits();
                        reg[1][i] = p[1].to_bits();
                    }
                }
                FragSrc::PointCoord => {
                    let mut pc = [[0u32; LANES]; 2];
                    batch.point_coord(&mut pc);
                    reg[0][..lanes].copy_from_slice(&pc[0][..lanes]);
                    reg[1][..lanes].copy_from_slice(&pc[1][..lanes]);
                    reg[2] = [0; MAX_LANES];
                    reg[3] = [ONE; MAX_LANES];
                }
                FragSrc::Thread(k) => {
                    for i in 0..lanes {
                        reg[0][i] = crate::vertex_stage::thread_value(*k, i as u32);
                    }
                }
                FragSrc::Helper => {
                    let live = batch.live_mask();
                    for i in 0..lanes {
                        reg[0][i] = if live & (1 << i) == 0 { u32::MAX } else { 0 };
                    }
                }
            }
        }
    }
}

/// Strip `i`'s inputs and helper lanes, its live lanes counted into `invocations`
/// (`shade_strips`, `shade_block`): every lane runs; 0 past the last strip. Inlined into
/// the executor's strip loop: called, it cost more than a short program.
#[inline(always)]
fn fill_strip(
    shader: &ProgramShader<'_>,
    strips: &[Strip<'_>],
    i: usize,
    ls: &mut LaneState,
    tmp: &mut [[u32; LANES]; 4],
    invocations: &mut u64,
    simple: &mut u64,
) -> glemu_programs::exec::LaneMask {
    let active = glemu_programs::exec::lanes_mask(MAX_LANES);
    let Some(st) = strips.get(i) else {
        return 0;
    };
    match &shader.strip_inputs {
        Some(list) => {
            fill_simple(list, ls, st);
            *simple += 1;
        }
        None => shader.fill_inputs(ls, tmp, &st.batch),
    }
    ls.set_helper_mask(active & !st.live);
    // Every lane live is the common case; a count is ~12 instructions without POPCNT in
    // the baseline instruction set (1 % of fill_1080p_mov's instructions).
    let live = active & st.live;
    *invocations += match live == active {
        true => MAX_LANES as u64,
        false => u64::from(live.count_ones()),
    };
    active
}

/// [`ProgramShader::fill_inputs`] of inputs that are all [`StripInput`]s, for a strip
/// (whose lane arrays may be unset: `strips_read_planes_only`).
#[inline(always)]
fn fill_simple(list: &[StripInput], ls: &mut LaneState, strip: &Strip<'_>) {
    let front = strip.batch.front_facing();
    for input in list {
        if let Some(reg) = ls.input_mut(input.slot()) {
            fill_input(input, strip, front, reg);
        }
    }
}

/// One [`StripInput`] of `strip` into `reg` (`front`: the strip's primitive faces front).
#[inline(always)]
fn fill_input(input: &StripInput, strip: &Strip<'_>, front: bool, reg: &mut [[u32; LANES]; 4]) {
    match *input {
        StripInput::Planes { base, back, .. } => {
            let base = match back {
                Some(b) if !front => b,
                _ => base,
            };
            if !strip.perspective_n(base, 4, reg) {
                strip.batch.interpolate_n(base, 4, reg);
            }
        }
        StripInput::Const { v, .. } => *reg = v.map(|c| [c; MAX_LANES]),
    }
}

impl StripInput {
    fn slot(&self) -> usize {
        match *self {
            StripInput::Planes { slot, .. } | StripInput::Const { slot, .. } => slot,
        }
    }
}

impl ProgramShader<'_> {
    /// A fully covered block's strips (at most four) as one run of the program's
    /// [`BlockProgram`](glemu_programs::exec::BlockProgram), when it has one and every
    /// input is a [`StripInput`]: the strips' colours `output` handed to `store` (strip k
    /// at k; no lane is killed: such programs have no KIL), with the one colour of every
    /// lane when the output is a flat input's register as it stands (`store` says whether
    /// it stored that). False when the block is not taken (nothing done then).
    fn run_whole(
        &self,
        s: &mut Scratch<'_>,
        strips: &[Strip<'_>],
        output: usize,
        kills: &mut [u32; 4],
        store: impl FnOnce(&[&Vec4], Option<[u32; 4]>) -> bool,
    ) -> Result<bool, ShaderError> {
        let (Some(st), Some(list), Some(bp)) = (
            s.whole.as_mut(),
            &self.strip_inputs,
            self.fp.executor.block_program(),
        ) else {
            return Ok(false);
        };
        let Some(&(slot, _)) = self
            .outputs
            .iter()
            .find(|(_, d)| *d == FragDst::Color(output))
        else {
            return Ok(false);
        };
        let fits = strips.len() <= glemu_programs::exec::BLOCK_STRIPS;
        let (Some(first), true) = (strips.first(), fits && bp.output(st, slot, 0).is_some()) else {
            return Ok(false);
        };
        let all = glemu_programs::exec::lanes_mask(MAX_LANES);
        // One block's strips are one primitive's: it faces one way.
        let front = first.batch.front_facing();
        // A flat input's register (its first strip's) and its bits.
        let mut flat_reg: Option<(*const Vec4, [u32; 4])> = None;
        for (input, flat) in list.iter().zip(s.flat.iter_mut()) {
            // Constants were filled once, in `new_scratch`.
            let StripInput::Planes { slot, base, back } = *input else {
                continue;
            };
            let Some(regs) = bp.input_strips_mut(st, slot) else {
                continue;
            };
            let base = match back {
                Some(b) if !front => b,
                _ => base,
            };
            if let Some(v) = flat_strips(strips, base) {
                // Every strip's lanes, also those past this block's strips: a later block
                // with more strips finds them filled.
                if *flat != Some(v) {
                    for reg in regs.iter_mut() {
                        *reg = v.map(|c| [c; MAX_LANES]);
                    }
                    *flat = Some(v);
                }
                flat_reg = Some((&regs[0], v));
                s.flat_inputs += 1;
                continue;
            }
            *flat = None;
            if !perspective_strips(strips, base, 4, regs) {
                for (strip, reg) in strips.iter().zip(regs.iter_mut()) {
                    fill_input(input, strip, strip.batch.front_facing(), reg);
                }
            }
        }
        for strip in strips {
            // As `fill_strip` counts them.
            let live = all & strip.live;
            s.invocations += match live == all {
                true => MAX_LANES as u64,
                false => u64::from(live.count_ones()),
            };
        }
        let mut env = self.env(&first.batch);
        bp.run(&self.fp.program, st, strips.len(), &mut env)
            .map_err(ShaderError::new)?;
        let zero = [[0u32; MAX_LANES]; 4];
        let mut colors = [&zero; glemu_programs::exec::BLOCK_STRIPS];
        for (k, c) in colors.iter_mut().enumerate().take(strips.len()) {
            if let Some(v) = bp.output(st, slot, k) {
                *c = v;
            }
        }
        // The output is a flat input's register (a plain MOV of it, `BlockProgram::new`):
        // a block run never writes its inputs, so every lane holds that input's bits.
        let flat = flat_reg
            .filter(|&(reg, _)| std::ptr::eq(colors[0], reg))
            .map(|(_, v)| v);
        s.flat_stores += u64::from(store(&colors[..strips.len()], flat));
        *kills = [0; 4];
        s.simple += strips.len() as u64;
        s.whole_blocks += 1;
        Ok(true)
    }

    /// The draw's fused kernel storing `output` into rows of `samples` samples a pixel;
    /// None when the program does not compile. The spec depends only on the draw: decided
    /// at the first block, then only checked.
    fn block_kernel(
        &self,
        output: usize,
        alpha_one: bool,
        samples: usize,
    ) -> Option<(&BlockSpec, &BlockKernel)> {
        let kernel = self.block.get_or_init(|| {
            let spec = self.outputs.iter().find_map(|&(slot, d)| {
                (d == FragDst::Color(output)).then_some(BlockSpec {
                    color: slot,
                    alpha_one,
                    samples: samples as u32,
                })
            })?;
            Some((output, spec, self.fp.executor.block_kernel(&spec)?))
        });
        kernel
            .as_ref()
            .filter(|(o, spec, _)| {
                *o == output && spec.alpha_one == alpha_one && spec.samples() == samples
            })
            .map(|(_, spec, k)| (spec, &**k))
    }

    /// The environment, lane state and input filler ([`fill_strip`]) of the executor's
    /// loop over `strips` (`run_block`, `shade_strips`); None without strips. The
    /// environment's batch serves only IPAC/IPAS/IPAO, which a program shading strips
    /// does not have (`strips`).
    #[inline(always)]
    fn strip_run<'x>(
        &'x self,
        s: &'x mut Scratch<'_>,
        strips: &'x [Strip<'_>],
    ) -> Option<(
        FragEnv<'x, 'x>,
        &'x mut LaneState,
        impl FnMut(usize, &mut LaneState) -> glemu_programs::exec::LaneMask + 'x,
    )> {
        let first = strips.first()?;
        let Scratch {
            ls,
            tmp,
            invocations,
            simple,
            ..
        } = s;
        let fill = move |i: usize, ls: &mut LaneState| {
            fill_strip(self, strips, i, ls, tmp, invocations, simple)
        };
        Some((self.env(&first.batch), ls, fill))
    }

    /// The strips of one block through the fused `kernel`; a strip that ran in the
    /// interpreter is stored by `store(rows, colour, coverage, kill)`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn run_block<'s, R: AsMut<[u32]>>(
        &self,
        s: &mut Scratch<'s>,
        (spec, kernel): (&BlockSpec, &BlockKernel),
        strips: &[Strip<'_>],
        rows: &mut [R],
        covs: &[&[u32; LANES]],
        kills: &mut [u32; 4],
        store: impl Fn(&mut [R], Option<&[[u32; LANES]; 4]>, &[u32; LANES], u32),
    ) -> Result<(), ShaderError> {
        let Some((mut env, ls, fill)) = self.strip_run(s, strips) else {
            return Ok(());
        };
        let done = |i: usize, ls: &LaneState, rows: Option<&mut [R]>| {
            // Rows come back when the strip ran in the interpreter: stored here.
            if let (Some(rows), Some(cov)) = (rows, covs.get(i)) {
                store(rows, ls.output(spec.color), cov, ls.kill_mask());
            }
            if let Some(k) = kills.get_mut(i) {
                *k = ls.kill_mask();
            }
        };
        self.fp
            .executor
            .run_block(
                kernel,
                ls,
                &self.fp.params,
                &mut Fragment(&mut env),
                rows,
                covs,
                fill,
                done,
            )
            .map_err(ShaderError::new)
    }
}

impl<'a> FragmentShader for ProgramShader<'a> {
    type Scratch = Scratch<'a>;

    fn info(&self) -> &ShaderInfo {
        &self.plan.info
    }

    fn new_scratch(&self) -> Scratch<'a> {
        Scratch {
            ls: self.fp.executor.new_state(MAX_LANES),
            tmp: [[0; LANES]; 4],
            invocations: 0,
            total: self.invocations,
            simple: 0,
            // Only strips whose inputs are all simple run whole (`run_whole`).
            whole: match (self.strips, &self.strip_inputs) {
                (true, Some(list)) => self.fp.executor.block_program().and_then(|b| {
                    let mut st = b.new_state(&self.fp.params)?;
                    // A block run never writes its inputs: constants stay for every block.
                    for input in list {
                        if let (StripInput::Const { v, .. }, Some(regs)) =
                            (input, b.input_strips_mut(&mut st, input.slot()))
                        {
                            for reg in regs.iter_mut() {
                                *reg = v.map(|c| [c; MAX_LANES]);
                            }
                        }
                    }
                    Some(st)
                }),
                _ => None,
            },
            whole_blocks: 0,
            flat: vec![None; self.strip_inputs.as_ref().map_or(0, Vec::len)],
            flat_inputs: 0,
            flat_stores: 0,
        }
    }

    fn wants_early_rejects(&self) -> bool {
        self.trace.is_some()
    }

    fn early_rejected(&self, batch: &FragmentBatch<'_>) {
        let Some(t) = self.trace else {
            return;
        };
        let lanes = (batch.quads() * 4).min(MAX_LANES);
        let Some(lane) = t.lane_in(batch, lanes) else {
            return;
        };
        t.push(crate::trace::TracedFragment {
            rejected_early: true,
            ..crate::trace::TracedFragment::of_lane(batch, lane)
        });
    }

    fn shades_strips(&self) -> bool {
        self.strips && self.trace.is_none()
    }

    fn strips_read_planes_only(&self) -> bool {
        // `fill_simple`: constants and centre perspective varyings only.
        self.strip_inputs.is_some()
    }

    fn shade_strips(
        &self,
        s: &mut Scratch<'a>,
        strips: &[Strip<'_>],
        sink: &mut dyn FnMut(usize, u32, &StripColors<'_>),
    ) -> Result<(), ShaderError> {
        let Some((mut env, ls, fill)) = self.strip_run(s, strips) else {
            return Ok(());
        };
        let done = |i: usize, ls: &LaneState| {
            let mut colors = StripColors {
                color: [None; MAX_COLOR_TARGETS],
            };
            for (slot, dst) in &self.outputs {
                if let (FragDst::Color(t), Some(r)) = (dst, ls.output(*slot)) {
                    if let Some(c) = colors.color.get_mut(*t) {
                        *c = Some(r);
                    }
                }
            }
            sink(i, ls.kill_mask(), &colors);
        };
        self.fp
            .executor
            .run_each(
                ls,
                &self.fp.params,
                &mut Fragment(&mut env),
                strips.len(),
                fill,
                done,
            )
            .map_err(ShaderError::new)
    }

    fn shade_block(
        &self,
        s: &mut Scratch<'a>,
        strips: &[Strip<'_>],
        dst: &mut BlockRows<'_, '_>,
        kills: &mut [u32; 4],
    ) -> Result<(), ShaderError> {
        let (output, alpha_one) = (dst.output, dst.alpha_one);
        let n = strips.len().min(dst.covs.len());
        let (rows, covs) = (&mut *dst.rows, dst.covs);
        let whole = self.run_whole(s, &strips[..n], output, kills, |colors, flat| {
            let covs = &covs[..colors.len()];
            match flat {
                Some(c) => store_block_flat(rows, c, alpha_one, covs),
                None => store_block(rows, colors, alpha_one, covs),
            }
            flat.is_some()
        })?;
        if whole {
            return Ok(());
        }
        let Some(kernel) = self.block_kernel(output, alpha_one, 1) else {
            return glemu_raster::shade_block_by_strips(self, s, strips, dst, kills);
        };
        let n = strips.len().min(dst.covs.len());
        let covs = &dst.covs[..n];
        let store = |rows: &mut [&mut [u32; 8]],
                     c: Option<&[[u32; LANES]; 4]>,
                     cov: &[u32; LANES],
                     kill| { store_strip(rows, c, alpha_one, cov, kill) };
        self.run_block(
            s,
            kernel,
            strips,
            &mut dst.rows[..2 * n],
            covs,
            kills,
            store,
        )
    }

    fn shade_block_samples(
        &self,
        s: &mut Scratch<'a>,
        strips: &[Strip<'_>],
        dst: &mut SampleRows<'_, '_>,
        kills: &mut [u32; 4],
    ) -> Result<(), ShaderError> {
        let (output, alpha_one, ns) = (dst.output, dst.alpha_one, dst.samples);
        // A straight-line program's block as one run, its colours packed once per pixel
        // and written to each covered sample; the fused kernel's strips otherwise. Only
        // with AVX-512, where it was measured faster: the block run's and the store's
        // AVX2 copies took 29 % more instructions a frame of fill_1080p_msaa4 than the
        // fused kernels (cachegrind).
        let n = strips.len().min(dst.covs.len());
        let (rows, covs) = (&mut *dst.rows, dst.covs);
        let whole = whole_samples()
            && self.run_whole(s, &strips[..n], output, kills, |colors, _| {
                store_block_samples(rows, colors, alpha_one, ns, covs);
                false
            })?;
        if whole {
            return Ok(());
        }
        let Some(kernel) = self.block_kernel(output, alpha_one, ns) else {
            return glemu_raster::shade_samples_by_strips(self, s, strips, dst, kills);
        };
        let n = strips.len().min(dst.covs.len());
        let covs = &dst.covs[..n];
        let store =
            |rows: &mut [&mut [u32]], c: Option<&[[u32; LANES]; 4]>, cov: &[u32; LANES], kill| {
                store_strip_samples(rows, c, alpha_one, ns, cov, kill)
            };
        self.run_block(
            s,
            kernel,
            strips,
            &mut dst.rows[..2 * n],
            covs,
            kills,
            store,
        )
    }

    fn shade(
        &self,
        s: &mut Scratch<'a>,
        batch: &FragmentBatch<'_>,
        out: &mut FragmentOutputs,
    ) -> Result<(), ShaderError> {
        self.fill_inputs(&mut s.ls, &mut s.tmp, batch);
        let lanes = (batch.quads() * 4).min(MAX_LANES);
        let active = glemu_programs::exec::lanes_mask(lanes);
        let live = batch.live_mask();
        s.ls.set_helper_mask(active & !live);
        s.invocations += u64::from((active & live).count_ones());
        let mut env = self.env(batch);
        // Tracing costs one check per batch when off.
        let traced = self.trace.and_then(|t| Some((t, t.lane_in(batch, lanes)?)));
        let fog_trace = traced;
        match traced {
            None => self
                .fp
                .executor
                .run(&mut s.ls, active, &self.fp.params, &mut Fragment(&mut env))
                .map(drop),
            Some((t, lane)) => self.run_traced(s, batch, active, &mut env, t, lane),
        }
        .map_err(ShaderError::new)?;
        // Colours the program never writes keep the zeros the rasterizer's outputs start
        // with (see FragmentOutputs).
        for (slot, dst) in &self.outputs {
            let Some(r) = s.ls.output(*slot) else {
                continue;
            };
            match dst {
                FragDst::Color(t) => {
                    // Whole registers (a fixed-size copy): lanes past `lanes` are unused
                    // helpers whose outputs the rasterizer ignores.
                    if let Some(col) = out.color.get_mut(*t) {
                        *col = *r;
                    }
                }
                FragDst::Depth => {
                    for i in 0..lanes {
                        out.depth[i] = f32::from_bits(r[2][i]);
                    }
                }
                FragDst::SampleMask => out.sample_mask[..lanes].copy_from_slice(&r[0][..lanes]),
                FragDst::Secondary(_) => {}
            }
        }
        if let Some((mode, p, k)) = self.plan.fog {
            let mut z = [0u32; LANES];
            if let Some(k) = k {
                batch.interpolate(k, &mut z);
            }
            let col = &mut out.color[0];
            for i in 0..lanes {
                let c = f32::from_bits(z[i]).abs();
                let f = fog_factor(mode, &p, c);
                for ch in 0..3 {
                    let v = f32::from_bits(col[ch][i]);
                    col[ch][i] = (f * v + (1.0 - f) * p.color[ch]).to_bits();
                }
            }
            if let Some((t, lane)) = fog_trace {
                t.amend_last(|f| f.fogged = Some(std::array::from_fn(|c| col[c][lane])));
            }
        }
        out.kill = s.ls.kill_mask();
        Ok(())
    }
}
