//! What a texture instruction asks for: the operation and its per-lane inputs, in
//! structure-of-arrays form for a batch of `N` lanes.

use crate::texture::Target;

/// Where the level of detail of a filtered lookup comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LodMode {
    /// TEX/TXP: from quad derivatives of the coordinates (zero outside fragment programs).
    Implicit,
    /// TXB: implicit, plus [`Lanes::lod`] as the shader bias.
    Bias,
    /// TXL: [`Lanes::lod`] replaces lambda_base; no derivatives (isotropic).
    Explicit,
    /// TXD: from [`Lanes::ddx`] / [`Lanes::ddy`] (coordinate-space derivatives; for cube
    /// targets, derivatives of the direction vector).
    Gradients,
}

/// The operation of a texture instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// TEX, TXB, TXL, TXD, TXP (projection already divided out by the caller).
    Sample(LodMode),
    /// TXF: texel fetch at integer [`Lanes::icoord`] (x, y, z/layer, lod).
    Fetch,
    /// TXFMS: fetch of one sample: icoord (x, y, layer, sample).
    FetchMs,
    /// TXG: the 2×2 LINEAR footprint at the base level, one component (`comp` 0..3) of each
    /// texel, in the order (i0,j1), (i1,j1), (i1,j0), (i0,j0). Shadow: 0/1 compare results.
    Gather {
        /// Component selected (after swizzle); ignored for shadow gathers.
        comp: u8,
    },
    /// TXGO: like `Gather` but each of the four texels is the (i0, j0) texel of the
    /// footprint moved by its own offset ([`Lanes::gather_offsets`]).
    GatherOffsets {
        /// Component selected (after swizzle); ignored for shadow gathers.
        comp: u8,
    },
    /// LOD: x = level accessed relative to the base level (as a float, fractional for
    /// LINEAR mipmapping), y = lambda' (biased, unclamped); z = w = 0.
    QueryLod,
    /// TXQ: integer size of level `base_level + icoord.x` (see [`crate::Texture::size`]).
    Size,
}

/// A texture instruction: operation, target named by the instruction, whether it is a
/// SHADOW target (depth comparison against [`Lanes::reference`]), and whether implicit
/// derivatives exist (fragment programs: lanes `4q..4q+3` form a 2×2 quad
/// (x,y), (x+1,y), (x,y+1), (x+1,y+1); other stages: derivatives are zero).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TexOp {
    /// What to do.
    pub kind: OpKind,
    /// Target named by the instruction; must equal the texture's target.
    pub target: Target,
    /// SHADOW form: compare with `SamplerState::compare_func`.
    pub shadow: bool,
    /// Implicit derivatives from quads are available (fragment stage).
    pub quad_derivatives: bool,
}

/// Per-lane inputs, structure of arrays. Fill only what the operation reads:
///
/// * `coord`: s, t, r (cube targets: the direction x, y, z). RECT uses texel units.
/// * `layer`: array layer (rounded to nearest and clamped).
/// * `reference`: depth reference of SHADOW lookups.
/// * `lod`: TXB bias or TXL level of detail.
/// * `ddx`, `ddy`: TXD derivatives of s, t, r.
/// * `offset`: texel offsets (immediate offsets broadcast to every lane).
/// * `gather_offsets`: TXGO offsets, `[x or y][texel 0..4][lane]`.
/// * `icoord`: integer inputs of TXF/TXFMS/TXQ.
///
/// For implicit derivatives, the coordinates of *inactive* lanes of a quad with an active
/// lane are read too (helper invocations), so fill them.
#[derive(Clone, Debug)]
pub struct Lanes<const N: usize> {
    /// s, t, r (or cube direction).
    pub coord: [[f32; N]; 3],
    /// Array layer.
    pub layer: [f32; N],
    /// Depth reference.
    pub reference: [f32; N],
    /// Bias (TXB) or explicit LOD (TXL).
    pub lod: [f32; N],
    /// d(s,t,r)/dx.
    pub ddx: [[f32; N]; 3],
    /// d(s,t,r)/dy.
    pub ddy: [[f32; N]; 3],
    /// Texel offsets (u, v, w).
    pub offset: [[i32; N]; 3],
    /// TXGO per-texel offsets: `[axis][texel][lane]`.
    pub gather_offsets: [[[i32; N]; 4]; 2],
    /// Integer coordinates (x, y, z/layer, lod or sample).
    pub icoord: [[i32; N]; 4],
    /// Minimum LOD of implicit-LOD lookups (ARB_sparse_texture_clamp); `-inf` = none.
    pub lod_clamp: [f32; N],
}

impl<const N: usize> Lanes<N> {
    /// All inputs zero.
    pub fn new() -> Self {
        Lanes {
            coord: [[0.0; N]; 3],
            layer: [0.0; N],
            reference: [0.0; N],
            lod: [0.0; N],
            ddx: [[0.0; N]; 3],
            ddy: [[0.0; N]; 3],
            offset: [[0; N]; 3],
            gather_offsets: [[[0; N]; 4]; 2],
            icoord: [[0; N]; 4],
            lod_clamp: [f32::NEG_INFINITY; N],
        }
    }
}

impl<const N: usize> Default for Lanes<N> {
    fn default() -> Self {
        Self::new()
    }
}
