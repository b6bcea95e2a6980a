//! GL state → the rasterizer's per-draw state (`glemu_raster::FixedFunctionState`): the state holds
//! the rasterizer's own enum values (parsed by the setters), so this only copies them.

use super::state::{DrawBufferBlend, GlState};
use glemu_raster::{BlendTarget, CullMode, FixedFunctionState, Rect, StencilFace};

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
pub(crate) fn raster_state(st: &GlState) -> FixedFunctionState {
    let mut d = FixedFunctionState::default();
    d.raster.front_face = st.front_face;
    d.raster.cull = if st.cull_face {
        st.cull_mode.cull_mode()
    } else {
        CullMode::None
    };
    [d.raster.polygon_mode_front, d.raster.polygon_mode_back] = st.polygon_mode;
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
    ds.depth_func = st.depth_func;
    ds.depth_write = st.depth_mask;
    ds.depth_clamp = st.depth_clamp;
    ds.stencil_test = st.stencil_test;
    let face = |i: usize| {
        let s = &st.stencil[i];
        StencilFace {
            func: s.func,
            reference: s.reference,
            value_mask: s.value_mask,
            write_mask: s.write_mask,
            fail: s.ops[0],
            depth_fail: s.ops[1],
            pass: s.ops[2],
        }
    };
    ds.front = face(0);
    ds.back = face(1);

    // Indexed by draw buffer here; the draw moves each to the plane its buffer writes.
    let target = |b: &DrawBufferBlend| BlendTarget {
        enabled: b.enabled,
        src_rgb: b.func[0],
        dst_rgb: b.func[1],
        src_alpha: b.func[2],
        dst_alpha: b.func[3],
        eq_rgb: b.equation[0],
        eq_alpha: b.equation[1],
        color_mask: b.color_mask,
    };
    for (t, b) in d.blend.targets.iter_mut().zip(&st.draw_blend) {
        *t = target(b);
    }
    d.blend.constant = st.blend_color;
    d.blend.logic_op = st.logic_op.then_some(st.logic_op_mode);
    d.blend.framebuffer_srgb = st.framebuffer_srgb;
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use glemu_raster::{BlendFactor, BlendFactor::*, CompareFunc};

    #[test]
    fn blend_and_depth_follow_gl_state() {
        let mut st = GlState::new(8, 8);
        for b in &mut st.draw_blend {
            b.enabled = true;
            b.func = [SrcAlpha, OneMinusSrcAlpha, One, Zero];
        }
        st.depth_test = true;
        st.depth_func = CompareFunc::GreaterEqual;
        st.cull_face = true;
        let d = raster_state(&st);
        assert!(d.blend.targets[0].enabled);
        assert_eq!(d.blend.targets[3].dst_rgb, BlendFactor::OneMinusSrcAlpha);
        assert_eq!(d.depth_stencil.depth_func, CompareFunc::GreaterEqual);
        assert_eq!(d.raster.cull, CullMode::Back);
    }

    #[test]
    fn logic_op_replaces_blending_only_while_enabled() {
        let mut st = GlState::new(8, 8);
        st.logic_op_mode = glemu_raster::LogicOp::Xor;
        assert_eq!(raster_state(&st).blend.logic_op, None);
        st.logic_op = true;
        assert_eq!(
            raster_state(&st).blend.logic_op,
            Some(glemu_raster::LogicOp::Xor)
        );
    }
}
