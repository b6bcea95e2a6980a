//! GL state → the rasterizer's per-draw state (`glemu_raster::DrawState`).

use super::state::{DrawBufferBlend, GlState};
use crate::error::{Error, Result};
use crate::gl;
use glemu_raster::{
    BlendEquation, BlendFactor, BlendTarget, CompareFunc, CullMode, DrawState, FrontFace,
    PolygonMode, Rect, StencilFace, StencilOp,
};

fn compare(f: u32) -> CompareFunc {
    match f {
        gl::NEVER => CompareFunc::Never,
        gl::LESS => CompareFunc::Less,
        gl::EQUAL => CompareFunc::Equal,
        gl::LEQUAL => CompareFunc::LessEqual,
        gl::GREATER => CompareFunc::Greater,
        gl::NOTEQUAL => CompareFunc::NotEqual,
        gl::GEQUAL => CompareFunc::GreaterEqual,
        _ => CompareFunc::Always,
    }
}

fn stencil_op(o: u32) -> StencilOp {
    match o {
        gl::ZERO => StencilOp::Zero,
        gl::REPLACE => StencilOp::Replace,
        gl::INCR => StencilOp::Incr,
        gl::DECR => StencilOp::Decr,
        gl::INVERT => StencilOp::Invert,
        gl::INCR_WRAP => StencilOp::IncrWrap,
        gl::DECR_WRAP => StencilOp::DecrWrap,
        _ => StencilOp::Keep,
    }
}

fn factor(f: u32) -> BlendFactor {
    use BlendFactor::*;
    match f {
        gl::ZERO => Zero,
        gl::SRC_COLOR => SrcColor,
        gl::ONE_MINUS_SRC_COLOR => OneMinusSrcColor,
        gl::DST_COLOR => DstColor,
        gl::ONE_MINUS_DST_COLOR => OneMinusDstColor,
        gl::SRC_ALPHA => SrcAlpha,
        gl::ONE_MINUS_SRC_ALPHA => OneMinusSrcAlpha,
        gl::DST_ALPHA => DstAlpha,
        gl::ONE_MINUS_DST_ALPHA => OneMinusDstAlpha,
        gl::CONSTANT_COLOR => ConstantColor,
        gl::ONE_MINUS_CONSTANT_COLOR => OneMinusConstantColor,
        gl::CONSTANT_ALPHA => ConstantAlpha,
        gl::ONE_MINUS_CONSTANT_ALPHA => OneMinusConstantAlpha,
        gl::SRC_ALPHA_SATURATE => SrcAlphaSaturate,
        gl::SRC1_COLOR => Src1Color,
        gl::ONE_MINUS_SRC1_COLOR => OneMinusSrc1Color,
        gl::SRC1_ALPHA => Src1Alpha,
        gl::ONE_MINUS_SRC1_ALPHA => OneMinusSrc1Alpha,
        _ => One,
    }
}

fn equation(e: u32) -> BlendEquation {
    match e {
        gl::FUNC_SUBTRACT => BlendEquation::Subtract,
        gl::FUNC_REVERSE_SUBTRACT => BlendEquation::ReverseSubtract,
        gl::MIN => BlendEquation::Min,
        gl::MAX => BlendEquation::Max,
        _ => BlendEquation::Add,
    }
}

fn polygon_mode(m: u32) -> PolygonMode {
    match m {
        gl::POINT => PolygonMode::Point,
        gl::LINE => PolygonMode::Line,
        _ => PolygonMode::Fill,
    }
}

/// Viewport `i`'s scissor rectangle, when its test is on.
pub(crate) fn scissor_rect_i(st: &GlState, i: usize) -> Option<Rect> {
    let [x, y, width, height] = *st.scissors.get(i)?;
    (st.scissor_test & (1 << i) != 0).then_some(Rect {
        x,
        y,
        width,
        height,
    })
}

/// The scissor rectangle clears and blits use: viewport 0's (ARB_viewport_array).
pub(crate) fn scissor_rect(st: &GlState) -> Option<Rect> {
    scissor_rect_i(st, 0)
}

/// The rasterizer state for a draw.
pub(crate) fn raster_state(st: &GlState) -> Result<DrawState> {
    if st.logic_op {
        return Err(Error::not_supported(
            "GL_COLOR_LOGIC_OP from the Context API",
        ));
    }
    let mut d = DrawState::default();
    d.raster.front_face = if st.front_face == gl::CW {
        FrontFace::Cw
    } else {
        FrontFace::Ccw
    };
    d.raster.cull = if !st.cull_face {
        CullMode::None
    } else {
        match st.cull_mode {
            gl::FRONT => CullMode::Front,
            gl::BACK => CullMode::Back,
            _ => CullMode::FrontAndBack,
        }
    };
    d.raster.polygon_mode_front = polygon_mode(st.polygon_mode[0]);
    d.raster.polygon_mode_back = polygon_mode(st.polygon_mode[1]);
    d.raster.polygon_offset.factor = st.polygon_offset[0];
    d.raster.polygon_offset.units = st.polygon_offset[1];
    d.raster.polygon_offset.fill = st.polygon_offset_fill;
    d.raster.polygon_offset.line = st.polygon_offset_line;
    d.raster.polygon_offset.point = st.polygon_offset_point;
    d.raster.line_width = st.line_width;
    d.raster.point_size = st.point_size;
    d.raster.point_sprite = st.point_sprite;
    // The pipeline fills in the viewport rectangles and depth ranges.
    for (i, v) in d.raster.viewports.iter_mut().enumerate() {
        v.scissor = scissor_rect_i(st, i);
    }

    d.multisample.enabled = st.multisample;
    d.multisample.sample_mask = if st.sample_mask_enabled {
        st.sample_mask
    } else {
        !0
    };
    d.multisample.alpha_to_coverage = st.alpha_to_coverage;
    d.multisample.alpha_to_one = st.alpha_to_one;
    d.multisample.sample_shading = st.sample_shading.then_some(st.min_sample_shading);

    let ds = &mut d.depth_stencil;
    ds.depth_test = st.depth_test;
    ds.depth_func = compare(st.depth_func);
    ds.depth_write = st.depth_mask;
    ds.depth_clamp = st.depth_clamp;
    ds.stencil_test = st.stencil_test;
    let face = |i: usize| {
        let s = &st.stencil[i];
        StencilFace {
            func: compare(s.func),
            reference: s.reference,
            value_mask: s.value_mask,
            write_mask: s.write_mask,
            fail: stencil_op(s.ops[0]),
            depth_fail: stencil_op(s.ops[1]),
            pass: stencil_op(s.ops[2]),
        }
    };
    ds.front = face(0);
    ds.back = face(1);

    // Indexed by draw buffer here; the draw moves each to the plane its buffer writes.
    let target = |b: &DrawBufferBlend| BlendTarget {
        enabled: b.enabled,
        src_rgb: factor(b.func[0]),
        dst_rgb: factor(b.func[1]),
        src_alpha: factor(b.func[2]),
        dst_alpha: factor(b.func[3]),
        eq_rgb: equation(b.equation[0]),
        eq_alpha: equation(b.equation[1]),
        color_mask: b.color_mask,
    };
    for (t, b) in d.blend.targets.iter_mut().zip(&st.draw_blend) {
        *t = target(b);
    }
    d.blend.constant = st.blend_color;
    d.blend.framebuffer_srgb = st.framebuffer_srgb;
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blend_and_depth_follow_gl_state() {
        let mut st = GlState::new(8, 8);
        for b in &mut st.draw_blend {
            b.enabled = true;
            b.func = [gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA, gl::ONE, gl::ZERO];
        }
        st.depth_test = true;
        st.depth_func = gl::GEQUAL;
        st.cull_face = true;
        let d = raster_state(&st).unwrap();
        assert!(d.blend.targets[0].enabled);
        assert_eq!(d.blend.targets[3].dst_rgb, BlendFactor::OneMinusSrcAlpha);
        assert_eq!(d.depth_stencil.depth_func, CompareFunc::GreaterEqual);
        assert_eq!(d.raster.cull, CullMode::Back);
    }
}
