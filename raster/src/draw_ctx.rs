//! Per-draw facts every tile reads, resolved once before the tiles run: the draw's
//! context and how each colour attachment is written.

use crate::color::ColorFormat;
use crate::framebuffer::{channel_keep_masks, DepthFormat};
use crate::shader_info::ShaderInfo;
use crate::state::{BlendTarget, FixedFunctionState, LogicOp, MAX_COLOR_TARGETS};

/// Per-draw facts every tile needs.
pub(crate) struct DrawCtx<'a, S> {
    pub shader: &'a S,
    pub info: &'a ShaderInfo,
    pub state: &'a FixedFunctionState,
    pub samples: u32,
    /// Sample offsets in 1/256 pixel.
    pub sample_fixed: Vec<(i64, i64)>,
    pub sample_pos: Vec<[f32; 2]>,
    pub fb_height: u32,
    /// How each attachment is written.
    pub targets: Vec<Option<RtInfo>>,
    pub depth_format: DepthFormat,
    /// Shade each covered sample separately.
    pub per_sample: bool,
    /// Depth/stencil before the shader.
    pub early: bool,
    /// Depth/stencil work exists.
    pub tests: bool,
    /// Coverage is evaluated per sample (multisampled and GL_MULTISAMPLE on).
    pub msaa: bool,
    pub full_mask: u32,
    /// Coverage ANDed with the sample mask state.
    pub coverage_mask: u32,
    /// Fully covered blocks take the block path (crate::block).
    pub blocks: bool,
    /// The block path shades a block's strips in one [`crate::FragmentShader::shade_strips`]
    /// call and writes each strip's colours straight from the program's registers
    /// (`tile::strips_allowed`).
    pub strips: bool,
    /// With `strips`: the attachment (index) and output a block's strips may store
    /// themselves ([`crate::FragmentShader::shade_block`], `tile::block_target`).
    pub block_target: Option<(usize, usize)>,
    /// Small primitives' covered pixels are packed one per lane, not quad by quad
    /// ([`crate::ShaderInfo::lanes_independent`], not per-sample shading).
    pub pack: bool,
}

/// How one attachment is written, resolved once per draw.
#[derive(Debug, Clone, Copy)]
pub(crate) enum RtMode {
    /// Integer target: raw bits, optional logic op.
    Integer,
    /// Source replaces destination (no blending; UNORM without logic op, or float).
    Replace,
    /// UNORM target with a logic op.
    Logic(LogicOp),
    /// Blending.
    Blend,
}

/// Per-attachment write information, resolved once per draw.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RtInfo {
    pub output: usize,
    pub format: ColorFormat,
    pub keep: [u32; 4],
    pub mode: RtMode,
    pub srgb: bool,
    pub dual_source: bool,
    pub blend: BlendTarget,
}

/// Resolves how each attachment is written; `None` = not written.
pub(crate) fn resolve_targets(
    state: &FixedFunctionState,
    formats: &[ColorFormat],
) -> Vec<Option<RtInfo>> {
    let bs = &state.blend;
    formats
        .iter()
        .enumerate()
        .map(|(rt, &format)| {
            let output = (*bs.draw_buffers.get(rt)?)? as usize;
            let bt = bs.targets.get(rt)?;
            if bt.color_mask == [false; 4] || output >= MAX_COLOR_TARGETS {
                return None;
            }
            let mode = if format.is_integer() {
                RtMode::Integer
            } else if let (Some(op), true) = (bs.logic_op, format.is_unorm()) {
                RtMode::Logic(op)
            } else if bt.enabled {
                RtMode::Blend
            } else {
                RtMode::Replace
            };
            Some(RtInfo {
                output,
                format,
                keep: channel_keep_masks(format, bt.color_mask),
                mode,
                srgb: format == ColorFormat::Srgb8Alpha8 && bs.framebuffer_srgb,
                dual_source: bt.uses_src1(),
                blend: *bt,
            })
        })
        .collect()
}
