//! Following the fragments of one pixel through a draw (`glemu trace`): which lane of a
//! fragment batch is the pixel, and what the fragment program did there, recorded by the
//! executor's own traced run ([`glemu_programs::exec::Executor::run_traced`]).

use glemu_programs::exec::LaneTrace;
use glemu_raster::FragmentBatch;
use std::sync::Mutex;

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
    /// KIL discarded it.
    pub killed: bool,
    /// The run failed (the draw fails with the same error).
    pub error: Option<String>,
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
        }
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
