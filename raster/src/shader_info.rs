//! What the rasterizer must know about the fragment program: how each varying is
//! interpolated, and what the program writes or may do. Setup reads it to build the
//! varyings' planes; [`crate::shader`] re-exports it as part of the contract.

/// How a varying is interpolated across a primitive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InterpMode {
    /// Perspective-correct (the default).
    #[default]
    Perspective,
    /// Linear in window space (NOPERSPECTIVE).
    NoPerspective,
    /// The provoking vertex's raw bits (FLAT; integer varyings).
    Flat,
}

/// Where a varying is evaluated by default ([`crate::FragmentBatch::interpolate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InterpLocation {
    /// Pixel centre (or the sample, under per-sample shading).
    #[default]
    Center,
    /// CENTROID: the centre when fully covered, else the first covered sample.
    Centroid,
    /// SAMPLE: per-sample shading, at the sample being shaded.
    Sample,
}

/// Interpolation of one scalar varying.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VaryingInterp {
    /// Perspective-correct, linear in window space, or flat.
    pub mode: InterpMode,
    /// Where in the pixel the varying is evaluated.
    pub location: InterpLocation,
}

/// What the rasterizer must know about the fragment program.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ShaderInfo {
    /// Per scalar varying (index k of [`crate::DrawInput::varyings`]); varyings past the
    /// end are perspective-correct at the centre.
    pub varyings: Vec<VaryingInterp>,
    /// Writes `result.depth` ([`crate::FragmentOutputs::depth`] is used).
    pub writes_depth: bool,
    /// Writes `result.samplemask` ([`crate::FragmentOutputs::sample_mask`] is used).
    pub writes_sample_mask: bool,
    /// May kill fragments (KIL); disables the automatic early-test optimisation.
    pub may_kill: bool,
    /// Has side effects (stores, atomics, image writes): the shader must run for every
    /// fragment that reaches it, so tests are not moved early unless forced.
    pub side_effects: bool,
    /// Needs per-sample shading (reads the sample id/position or anything SAMPLE).
    pub per_sample: bool,
    /// Requests early depth/stencil tests (OPTION/qualifier early_fragment_tests).
    pub early_fragment_tests: bool,
    /// No lane's results depend on another lane or on the lane's place in its quad: no
    /// derivatives (DDX/DDY, implicit-LOD texture lookups), votes, shuffles, helper or
    /// thread inputs, and no side effects. The rasterizer may then fill a batch's lanes
    /// with single pixels of different primitives (small triangles), not whole quads.
    pub lanes_independent: bool,
}

impl ShaderInfo {
    /// Interpolation of varying `k`.
    #[inline]
    pub fn interp(&self, k: usize) -> VaryingInterp {
        self.varyings.get(k).copied().unwrap_or_default()
    }
}
