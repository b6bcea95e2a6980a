//! Per-sample fragment operations: stencil and depth tests, blending, logic ops.

use crate::framebuffer::{encode_depth, DepthFormat};
use crate::state::{
    BlendEquation, BlendFactor, BlendTarget, CompareFunc, DepthStencilState, LogicOp, StencilFace,
    StencilOp,
};

/// Applies a stencil operation to the stored value.
#[inline]
pub fn stencil_op(op: StencilOp, v: u8, reference: u8) -> u8 {
    match op {
        StencilOp::Keep => v,
        StencilOp::Zero => 0,
        StencilOp::Replace => reference,
        StencilOp::Incr => v.saturating_add(1),
        StencilOp::Decr => v.saturating_sub(1),
        StencilOp::Invert => !v,
        StencilOp::IncrWrap => v.wrapping_add(1),
        StencilOp::DecrWrap => v.wrapping_sub(1),
    }
}

#[inline]
fn write_stencil(face: &StencilFace, op: StencilOp, stencil: &mut u8, reference: u8) {
    let new = stencil_op(op, *stencil, reference);
    let m = face.write_mask as u8;
    *stencil = (*stencil & !m) | (new & m);
}

/// Stencil then depth test of one sample against its stored values, updating them as GL
/// specifies. `z` is the fragment's window depth (already clamped). Returns whether the
/// sample survives.
#[inline]
pub fn depth_stencil_sample(
    ds: &DepthStencilState,
    front: bool,
    format: DepthFormat,
    z: f32,
    depth: &mut u32,
    stencil: &mut u8,
) -> bool {
    let face = if front { &ds.front } else { &ds.back };
    let reference = face.reference.clamp(0, 255) as u8;
    if ds.stencil_test {
        let m = face.value_mask as u8;
        if !face.func.test(reference & m, *stencil & m) {
            write_stencil(face, face.fail, stencil, reference);
            return false;
        }
    }
    if ds.depth_test {
        let zf = encode_depth(format, z);
        // Stored words are ordered like their depths (see `encode_depth`).
        let pass = ds.depth_func.test(zf, *depth);
        if !pass {
            if ds.stencil_test {
                write_stencil(face, face.depth_fail, stencil, reference);
            }
            return false;
        }
        if ds.depth_write {
            *depth = zf;
        }
    }
    if ds.stencil_test {
        write_stencil(face, face.pass, stencil, reference);
    }
    true
}

/// Whether depth/stencil work is needed at all.
pub fn tests_active(ds: &DepthStencilState) -> bool {
    ds.stencil_test || (ds.depth_test && (ds.depth_func != CompareFunc::Always || ds.depth_write))
}

/// The value of blend factor `f` (public for `glemu trace`, which shows the factors).
#[inline]
pub fn factor(
    f: BlendFactor,
    src: [f32; 4],
    src1: [f32; 4],
    dst: [f32; 4],
    k: [f32; 4],
) -> [f32; 4] {
    let splat = |v: f32| [v; 4];
    match f {
        BlendFactor::Zero => splat(0.0),
        BlendFactor::One => splat(1.0),
        BlendFactor::SrcColor => src,
        BlendFactor::OneMinusSrcColor => src.map(|v| 1.0 - v),
        BlendFactor::DstColor => dst,
        BlendFactor::OneMinusDstColor => dst.map(|v| 1.0 - v),
        BlendFactor::SrcAlpha => splat(src[3]),
        BlendFactor::OneMinusSrcAlpha => splat(1.0 - src[3]),
        BlendFactor::DstAlpha => splat(dst[3]),
        BlendFactor::OneMinusDstAlpha => splat(1.0 - dst[3]),
        BlendFactor::ConstantColor => k,
        BlendFactor::OneMinusConstantColor => k.map(|v| 1.0 - v),
        BlendFactor::ConstantAlpha => splat(k[3]),
        BlendFactor::OneMinusConstantAlpha => splat(1.0 - k[3]),
        BlendFactor::SrcAlphaSaturate => {
            let f = src[3].min(1.0 - dst[3]);
            [f, f, f, 1.0]
        }
        BlendFactor::Src1Color => src1,
        BlendFactor::OneMinusSrc1Color => src1.map(|v| 1.0 - v),
        BlendFactor::Src1Alpha => splat(src1[3]),
        BlendFactor::OneMinusSrc1Alpha => splat(1.0 - src1[3]),
    }
}

#[inline]
fn equation(eq: BlendEquation, s: f32, sf: f32, d: f32, df: f32) -> f32 {
    match eq {
        BlendEquation::Add => s * sf + d * df,
        BlendEquation::Subtract => s * sf - d * df,
        BlendEquation::ReverseSubtract => d * df - s * sf,
        BlendEquation::Min => s.min(d),
        BlendEquation::Max => s.max(d),
    }
}

/// Blends `src` (and dual-source `src1`) over `dst` with constant colour `k`.
#[inline]
pub fn blend(
    bt: &BlendTarget,
    k: [f32; 4],
    src: [f32; 4],
    src1: [f32; 4],
    dst: [f32; 4],
) -> [f32; 4] {
    let sf_rgb = factor(bt.src_rgb, src, src1, dst, k);
    let df_rgb = factor(bt.dst_rgb, src, src1, dst, k);
    let sf_a = factor(bt.src_alpha, src, src1, dst, k)[3];
    let df_a = factor(bt.dst_alpha, src, src1, dst, k)[3];
    [
        equation(bt.eq_rgb, src[0], sf_rgb[0], dst[0], df_rgb[0]),
        equation(bt.eq_rgb, src[1], sf_rgb[1], dst[1], df_rgb[1]),
        equation(bt.eq_rgb, src[2], sf_rgb[2], dst[2], df_rgb[2]),
        equation(bt.eq_alpha, src[3], sf_a, dst[3], df_a),
    ]
}

/// Bitwise logic op of source and destination words.
#[inline]
pub fn logic_op(op: LogicOp, s: u32, d: u32) -> u32 {
    match op {
        LogicOp::Clear => 0,
        LogicOp::And => s & d,
        LogicOp::AndReverse => s & !d,
        LogicOp::Copy => s,
        LogicOp::AndInverted => !s & d,
        LogicOp::Noop => d,
        LogicOp::Xor => s ^ d,
        LogicOp::Or => s | d,
        LogicOp::Nor => !(s | d),
        LogicOp::Equiv => !(s ^ d),
        LogicOp::Invert => !d,
        LogicOp::OrReverse => s | !d,
        LogicOp::CopyInverted => !s,
        LogicOp::OrInverted => !s | d,
        LogicOp::Nand => !(s & d),
        LogicOp::Set => !0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ds() -> DepthStencilState {
        DepthStencilState {
            depth_test: true,
            ..Default::default()
        }
    }

    #[test]
    fn depth_less_and_write_mask() {
        let mut s = ds();
        let (mut d, mut st) = (encode_depth(DepthFormat::D24S8, 0.5), 0u8);
        assert!(depth_stencil_sample(
            &s,
            true,
            DepthFormat::D24S8,
            0.25,
            &mut d,
            &mut st
        ));
        assert_eq!(d, encode_depth(DepthFormat::D24S8, 0.25));
        assert!(!depth_stencil_sample(
            &s,
            true,
            DepthFormat::D24S8,
            0.25,
            &mut d,
            &mut st
        ));
        s.depth_func = CompareFunc::LessEqual;
        s.depth_write = false;
        assert!(depth_stencil_sample(
            &s,
            true,
            DepthFormat::D24S8,
            0.25,
            &mut d,
            &mut st
        ));
        assert!(depth_stencil_sample(
            &s,
            true,
            DepthFormat::D24S8,
            0.1,
            &mut d,
            &mut st
        ));
        assert_eq!(d, encode_depth(DepthFormat::D24S8, 0.25), "write mask off");
        let mut f = 0.5f32.to_bits();
        s.depth_func = CompareFunc::Greater;
        assert!(!depth_stencil_sample(
            &s,
            true,
            DepthFormat::D32FS8,
            0.4,
            &mut f,
            &mut st
        ));
        assert!(depth_stencil_sample(
            &s,
            true,
            DepthFormat::D32FS8,
            0.6,
            &mut f,
            &mut st
        ));
    }

    #[test]
    fn stencil_ops_per_face() {
        let mut s = ds();
        s.stencil_test = true;
        s.depth_func = CompareFunc::Less;
        s.front = StencilFace {
            func: CompareFunc::Equal,
            reference: 3,
            value_mask: 0xff,
            write_mask: 0xff,
            fail: StencilOp::Zero,
            depth_fail: StencilOp::Incr,
            pass: StencilOp::Replace,
        };
        s.back = StencilFace {
            func: CompareFunc::Always,
            pass: StencilOp::Invert,
            ..s.front
        };
        let mut d = encode_depth(DepthFormat::D24S8, 0.5);
        let mut st = 3u8;
        // Depth fails -> depth_fail op.
        assert!(!depth_stencil_sample(
            &s,
            true,
            DepthFormat::D24S8,
            0.9,
            &mut d,
            &mut st
        ));
        assert_eq!(st, 4);
        // Stencil fails (4 != 3) -> fail op.
        assert!(!depth_stencil_sample(
            &s,
            true,
            DepthFormat::D24S8,
            0.1,
            &mut d,
            &mut st
        ));
        assert_eq!(st, 0);
        st = 3;
        assert!(depth_stencil_sample(
            &s,
            true,
            DepthFormat::D24S8,
            0.1,
            &mut d,
            &mut st
        ));
        assert_eq!(st, 3);
        // Back face uses its own state.
        assert!(depth_stencil_sample(
            &s,
            false,
            DepthFormat::D24S8,
            0.0,
            &mut d,
            &mut st
        ));
        assert_eq!(st, !3u8);
        assert_eq!(stencil_op(StencilOp::Decr, 0, 0), 0);
        assert_eq!(stencil_op(StencilOp::DecrWrap, 0, 0), 255);
        assert_eq!(stencil_op(StencilOp::Incr, 255, 0), 255);
        assert_eq!(stencil_op(StencilOp::IncrWrap, 255, 0), 0);
    }

    #[test]
    fn blend_factors_and_equations() {
        let bt = BlendTarget {
            enabled: true,
            src_rgb: BlendFactor::SrcAlpha,
            dst_rgb: BlendFactor::OneMinusSrcAlpha,
            src_alpha: BlendFactor::One,
            dst_alpha: BlendFactor::Zero,
            ..Default::default()
        };
        let r = blend(
            &bt,
            [0.0; 4],
            [1.0, 0.0, 0.0, 0.25],
            [0.0; 4],
            [0.0, 0.0, 1.0, 1.0],
        );
        assert_eq!(r, [0.25, 0.0, 0.75, 0.25]);
        let bt = BlendTarget {
            eq_rgb: BlendEquation::Max,
            eq_alpha: BlendEquation::Min,
            ..bt
        };
        let r = blend(
            &bt,
            [0.0; 4],
            [0.5, 0.2, 0.0, 0.3],
            [0.0; 4],
            [0.1, 0.9, 0.0, 0.1],
        );
        assert_eq!(r, [0.5, 0.9, 0.0, 0.1]);
        let bt = BlendTarget {
            enabled: true,
            src_rgb: BlendFactor::ConstantColor,
            dst_rgb: BlendFactor::Src1Color,
            src_alpha: BlendFactor::SrcAlphaSaturate,
            dst_alpha: BlendFactor::OneMinusSrc1Alpha,
            eq_rgb: BlendEquation::ReverseSubtract,
            eq_alpha: BlendEquation::Subtract,
            color_mask: [true; 4],
        };
        let r = blend(
            &bt,
            [0.5; 4],
            [1.0, 1.0, 1.0, 0.5],
            [0.5, 0.25, 0.0, 0.75],
            [1.0, 1.0, 1.0, 0.5],
        );
        assert_eq!(r, [0.0, -0.25, -0.5, 0.5 - 0.5 * 0.25]);
    }

    #[test]
    fn logic_ops() {
        assert_eq!(logic_op(LogicOp::Xor, 0b1100, 0b1010), 0b0110);
        assert_eq!(logic_op(LogicOp::Noop, 1, 2), 2);
        assert_eq!(logic_op(LogicOp::AndInverted, 0b1100, 0b1010), 0b0010);
        assert_eq!(logic_op(LogicOp::Set, 0, 0), !0);
    }
}
