//! The shape of a fragment batch's lanes, shared by the shader contract ([`crate::shader`])
//! and the block kernels ([`crate::block`]) without either importing the other.

/// Lanes per shader call.
pub const LANES: usize = 16;
/// 2×2 quads per shader call.
pub const QUADS_PER_BATCH: usize = LANES / 4;

/// Lane data the rasterizer fills for each batch (reused, never reallocated).
#[derive(Debug, Clone)]
pub(crate) struct LaneData {
    pub quads: usize,
    pub x: [i32; LANES],
    pub y: [i32; LANES],
    pub coverage: [u32; LANES],
    /// Sample index being shaded per lane (per-sample shading only).
    pub sample_id: [u32; LANES],
    pub per_sample: bool,
    /// Default evaluation position relative to the primitive's plane origin.
    pub rx: [f32; LANES],
    pub ry: [f32; LANES],
    /// Perspective factor (w = 1 / interpolated 1/w) at the default position.
    pub w: [f32; LANES],
}

impl Default for LaneData {
    fn default() -> Self {
        LaneData {
            quads: 0,
            x: [0; LANES],
            y: [0; LANES],
            coverage: [0; LANES],
            sample_id: [0; LANES],
            per_sample: false,
            rx: [0.0; LANES],
            ry: [0.0; LANES],
            w: [1.0; LANES],
        }
    }
}
