//! `glemu trace`'s per-fragment operations: the stencil and depth tests (early or late),
//! KIL, and the blend (factors, source, destination, result) of each traced fragment,
//! replayed in order from the pixel as it stood before the draw with the rasterizer's own
//! functions (`glemu_raster::fragops`, `color`, `encode_depth`) and the state the draw
//! used (recorded by the pipeline: [`OpsState`]). The replay ends in a check against the
//! pixel the draw really left, so a trace never claims what the rasterizer did not do.

use crate::{OpsState, TracedFragment};
use glemu_programs::ir::OutputBinding;
use glemu_raster::color::{decode, encode};
use glemu_raster::fragops;
use glemu_raster::framebuffer::{decode_depth, encode_depth};
use glemu_raster::ColorFormat;

/// The stencil test of one fragment.
#[derive(Clone, Debug, PartialEq)]
pub struct StencilOutcome {
    /// The comparison function's name.
    pub func: String,
    /// The reference value.
    pub reference: i32,
    /// The mask both sides are ANDed with before comparing.
    pub value_mask: u32,
    /// The stored value it was compared with.
    pub stored: u8,
    /// The test passed.
    pub pass: bool,
    /// The stored value after the test's stencil operation.
    pub after: u8,
}

/// The depth test of one fragment.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthOutcome {
    /// The comparison function's name.
    pub func: String,
    /// The fragment's depth (its `result.depth` when the program writes one).
    pub z: f32,
    /// The stored depth it was compared with.
    pub stored: f32,
    /// The test passed.
    pub pass: bool,
    /// The depth buffer was written.
    pub written: bool,
}

/// The blend of one fragment into colour attachment 0.
#[derive(Clone, Debug, PartialEq)]
pub struct BlendOutcome {
    /// Factor names: source rgb, destination rgb, source alpha, destination alpha.
    pub factor_names: [String; 4],
    /// Equation names: rgb, alpha.
    pub equations: [String; 2],
    /// The source factor (rgb from the rgb factor, alpha from the alpha one).
    pub src_factor: [f32; 4],
    /// The destination factor, likewise.
    pub dst_factor: [f32; 4],
    /// The fragment's colour (clamped).
    pub src: [f32; 4],
    /// The stored colour.
    pub dst: [f32; 4],
    /// The blended result.
    pub result: [f32; 4],
}

/// What the per-fragment operations did with one traced fragment.
#[derive(Clone, Debug, PartialEq)]
pub struct FragmentOps {
    /// The tests ran before the program (`force_early_tests`).
    pub early: bool,
    /// The stencil test, when enabled.
    pub stencil: Option<StencilOutcome>,
    /// The depth test, when enabled.
    pub depth: Option<DepthOutcome>,
    /// Discarded by KIL.
    pub killed: bool,
    /// It reached the colour buffer (tests passed, not killed).
    pub written: bool,
    /// The blend, when enabled and the fragment was written.
    pub blend: Option<BlendOutcome>,
    /// The pixel's stored colour after this fragment.
    pub color: [f32; 4],
}

/// The pixel as the replay carries it: colour words of attachment 0, depth word, stencil.
#[derive(Clone, Copy, Debug)]
struct Stored {
    color: [u32; 4],
    depth: u32,
    stencil: u8,
}

/// Why a draw's operations cannot be replayed here (the trace says so instead).
fn unsupported(s: &OpsState) -> Option<String> {
    if s.samples > 1 {
        return Some(format!(
            "{}x multisampled framebuffer (tests and blending are per sample)",
            s.samples
        ));
    }
    match s.color_formats.first() {
        Some(ColorFormat::Rgba8Unorm) => {}
        Some(f) => return Some(format!("colour format {f:?}")),
        None => return Some("no colour attachment".into()),
    }
    if s.blend.logic_op.is_some() {
        return Some("a logic op".into());
    }
    if s.multisample.alpha_to_coverage {
        return Some("alpha to coverage".into());
    }
    None
}

fn output(f: &TracedFragment, want: OutputBinding) -> Option<[f32; 4]> {
    let slot = f.output_bindings.iter().position(|b| *b == want)?;
    f.outputs.get(slot).map(|v| v.map(f32::from_bits))
}

fn tests(
    s: &OpsState,
    f: &TracedFragment,
    z: f32,
    px: &mut Stored,
) -> (Option<StencilOutcome>, Option<DepthOutcome>, bool) {
    let ds = &s.depth_stencil;
    let face = if f.front { &ds.front } else { &ds.back };
    let (stored_stencil, stored_depth) = (px.stencil, px.depth);
    // The rasterizer's own test updates the stored values; the outcomes are read back.
    let pass = fragops::depth_stencil_sample(
        ds,
        f.front,
        s.depth_format,
        z,
        &mut px.depth,
        &mut px.stencil,
    );
    let reference = face.reference.clamp(0, 255) as u8;
    let m = face.value_mask as u8;
    let stencil_pass = !ds.stencil_test || face.func.test(reference & m, stored_stencil & m);
    let stencil = ds.stencil_test.then(|| StencilOutcome {
        func: format!("{:?}", face.func),
        reference: face.reference,
        value_mask: face.value_mask,
        stored: stored_stencil,
        pass: stencil_pass,
        after: px.stencil,
    });
    let depth = (ds.depth_test && stencil_pass).then(|| DepthOutcome {
        func: format!("{:?}", ds.depth_func),
        z,
        stored: decode_depth(s.depth_format, stored_depth),
        pass,
        written: px.depth != stored_depth,
    });
    (stencil, depth, pass)
}

fn blend(s: &OpsState, src: [f32; 4], src1: [f32; 4], dst: [f32; 4]) -> BlendOutcome {
    let bt = &s.blend.targets[0];
    let k = s.blend.constant;
    let f = |x| fragops::factor(x, src, src1, dst, k);
    let (sf, df) = (f(bt.src_rgb), f(bt.dst_rgb));
    let (sa, da) = (f(bt.src_alpha)[3], f(bt.dst_alpha)[3]);
    BlendOutcome {
        factor_names: [bt.src_rgb, bt.dst_rgb, bt.src_alpha, bt.dst_alpha]
            .map(|x| format!("{x:?}")),
        equations: [format!("{:?}", bt.eq_rgb), format!("{:?}", bt.eq_alpha)],
        src_factor: [sf[0], sf[1], sf[2], sa],
        dst_factor: [df[0], df[1], df[2], da],
        src,
        dst,
        result: fragops::blend(bt, k, src, src1, dst).map(|v| v.clamp(0.0, 1.0)),
    }
}

/// The replay of one draw at the traced pixel.
#[derive(Clone, Debug, PartialEq)]
pub enum DrawOps {
    /// Each fragment's operations, and whether the replayed pixel equals the one the draw
    /// left (colour, depth and stencil).
    Replayed {
        /// Each traced fragment's operations, in order.
        fragments: Vec<FragmentOps>,
        /// The replayed pixel equals the one the draw left.
        matches: bool,
        /// The pixel's colour after the replay.
        color: [f32; 4],
    },
    /// Not replayed, and why.
    NotReplayed(String),
}

/// Replays the per-fragment operations of `frags` (one draw, in the order they ran) on
/// the pixel `before` (colour, depth, stencil), and compares with `after`.
pub fn replay(
    s: &OpsState,
    frags: &[TracedFragment],
    before: ([f32; 4], Option<f32>, Option<u8>),
    after: ([f32; 4], Option<f32>, Option<u8>),
) -> DrawOps {
    if let Some(why) = unsupported(s) {
        return DrawOps::NotReplayed(why);
    }
    let fmt = ColorFormat::Rgba8Unorm;
    let words = |c: [f32; 4]| {
        let mut w = [0u32; 4];
        encode(fmt, c, false, &mut w);
        w
    };
    let mut px = Stored {
        color: words(before.0),
        depth: encode_depth(s.depth_format, before.1.unwrap_or(1.0)),
        stencil: before.2.unwrap_or(0),
    };
    let early = s.depth_stencil.force_early_tests;
    let target = s.blend.draw_buffers[0];
    let bt = s.blend.targets[0];
    let mut out = Vec::with_capacity(frags.len());
    for f in frags {
        // A fragment the rasterizer rejected before its program ran was tested early,
        // whatever the draw's state says (the rasterizer picks early tests by more than
        // `force_early_tests`).
        let early = early || f.rejected_early;
        // result.depth is its z component
        let z = output(f, OutputBinding::FragDepth)
            .filter(|_| !early)
            .map_or(f.position[2], |d| d[2]);
        let (stencil, depth, pass) = if early || !f.killed {
            tests(s, f, z, &mut px)
        } else {
            (None, None, false)
        };
        let written = pass && !f.killed;
        let mut blended = None;
        if let (true, Some(t)) = (written, target) {
            let color = |index| {
                // Fog changes colour output 0 after the program: the tests get that.
                let fogged = f.fogged.filter(|_| t == 0 && index == 0);
                let binding = OutputBinding::FragColor {
                    target: u32::from(t),
                    index,
                };
                fogged
                    .map(|c| c.map(f32::from_bits))
                    .or_else(|| output(f, binding))
                    .unwrap_or([0.0; 4])
                    .map(|v| v.clamp(0.0, 1.0))
            };
            let src = color(0);
            let dst = decode(fmt, &px.color, false);
            let result = if bt.enabled {
                let b = blend(s, src, color(1), dst);
                let r = b.result;
                blended = Some(b);
                r
            } else {
                src
            };
            px.color = masked(px.color, words(result), bt.color_mask);
        }
        out.push(FragmentOps {
            early,
            stencil,
            depth,
            killed: f.killed,
            written,
            blend: blended,
            color: decode(fmt, &px.color, false),
        });
    }
    let color = decode(fmt, &px.color, false);
    let matches = color == after.0
        && after
            .1
            .is_none_or(|d| encode_depth(s.depth_format, d) == px.depth)
        && after.2.is_none_or(|st| st == px.stencil);
    DrawOps::Replayed {
        fragments: out,
        matches,
        color,
    }
}

/// RGBA8 words: the channels `mask` writes from `new`, the rest from `old` (one packed
/// word: channel c is byte c).
fn masked(old: [u32; 4], new: [u32; 4], mask: [bool; 4]) -> [u32; 4] {
    let mut w = old;
    let mut keep = 0u32;
    for (c, m) in mask.iter().enumerate() {
        if !m {
            keep |= 0xff << (8 * c);
        }
    }
    w[0] = (old[0] & keep) | (new[0] & !keep);
    w
}
