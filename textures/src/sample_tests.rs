//! Tests of [`crate::sample::execute`] against the GL formulas.

use crate::format::Format;
use crate::patterns;
use crate::request::{Lanes, LodMode, OpKind, TexOp};
use crate::sample::execute;
use crate::sampler::{CompareFunc, DepthMode, Filter, MinFilter, SamplerState, Swizzle, Wrap};
use crate::texture::{Target, Texture};

fn op(kind: OpKind, target: Target) -> TexOp {
    TexOp {
        kind,
        target,
        shadow: false,
        quad_derivatives: true,
    }
}

fn sample_op(target: Target) -> TexOp {
    op(OpKind::Sample(LodMode::Implicit), target)
}

/// Runs one quad; returns per-lane RGBA floats.
fn run(tex: &Texture, s: &SamplerState, op: &TexOp, l: &Lanes<4>) -> [[f32; 4]; 4] {
    let mut out = [[0u32; 4]; 4];
    execute(tex, s, op, l, 0xf, &mut out).unwrap();
    std::array::from_fn(|lane| std::array::from_fn(|c| f32::from_bits(out[c][lane])))
}

/// A quad at (s, t) whose lanes step by (dx, dy) in s and t.
fn quad(s: f32, t: f32, dx: f32, dy: f32) -> Lanes<4> {
    let mut l = Lanes::new();
    l.coord[0] = [s, s + dx, s, s + dx];
    l.coord[1] = [t, t, t + dy, t + dy];
    l
}

/// Same coordinate in all lanes (zero derivatives).
fn point(s: f32, t: f32) -> Lanes<4> {
    quad(s, t, 0.0, 0.0)
}

fn r8(w: u32, h: u32, data: &[u8]) -> Texture {
    let mut t = Texture::new(Target::T2D, Format::R8, [w, h, 1], 1).unwrap();
    t.write_bytes(0, [0, 0, 0], [w, h, 1], data).unwrap();
    t
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-5
}

#[test]
fn nearest_and_bilinear_weights() {
    // 2x2: (0,0)=0, (1,0)=255, (0,1)=51, (1,1)=102
    let t = r8(2, 2, &[0, 255, 51, 102]);
    let near = SamplerState::simple(Filter::Nearest, Wrap::ClampToEdge);
    assert_eq!(
        run(&t, &near, &sample_op(Target::T2D), &point(0.74, 0.2))[0][0],
        1.0
    );
    assert_eq!(
        run(&t, &near, &sample_op(Target::T2D), &point(0.2, 0.76))[0][0],
        0.2
    );
    let lin = SamplerState::simple(Filter::Linear, Wrap::ClampToEdge);
    // Centre: average of four texels.
    let v = run(&t, &lin, &sample_op(Target::T2D), &point(0.5, 0.5))[0][0];
    assert!(close(v, (0.0 + 1.0 + 0.2 + 0.4) / 4.0), "{v}");
    // u = 0.5*2 - 0.5 = 0.5 → alpha 0.5 between texels 0 and 1 on row 0 (t at centre).
    let v = run(&t, &lin, &sample_op(Target::T2D), &point(0.5, 0.25))[0][0];
    assert!(close(v, 0.5), "{v}");
    // 3/8 along: u = 0.25 → weights 0.75 / 0.25.
    let v = run(&t, &lin, &sample_op(Target::T2D), &point(0.375, 0.25))[0][0];
    assert!(close(v, 0.25), "{v}");
    // Missing components: R8 → (r, 0, 0, 1).
    let v = run(&t, &lin, &sample_op(Target::T2D), &point(0.75, 0.25))[0];
    assert_eq!(v, [1.0, 0.0, 0.0, 1.0]);
}

#[test]
fn wrap_modes_through_sampling() {
    let t = r8(4, 1, &[0, 85, 170, 255]);
    let mut s = SamplerState::simple(Filter::Nearest, Wrap::Repeat);
    let at = |s: &SamplerState, x: f32| run(&t, s, &sample_op(Target::T2D), &point(x, 0.5))[0][0];
    assert!(close(at(&s, 1.1), 0.0)); // repeat: texel 0
    assert!(close(at(&s, -0.1), 1.0)); // repeat: texel 3
    s.wrap = [Wrap::MirroredRepeat; 3];
    assert!(close(at(&s, 1.1), 1.0)); // mirrored: texel 3
    assert!(close(at(&s, -0.1), 0.0)); // mirrored: texel 0
    assert!(close(at(&s, 1.9), 0.0));
    s.wrap = [Wrap::ClampToBorder; 3];
    s.border = [0.5f32.to_bits(), 0, 0, 0];
    assert!(close(at(&s, 1.01), 0.5));
    assert!(close(at(&s, 0.99), 1.0));
    // Border of an R8 texture: missing components from the format, alpha 1.
    let v = run(&t, &s, &sample_op(Target::T2D), &point(-0.5, 0.5))[0];
    assert_eq!(v, [0.5, 0.0, 0.0, 1.0]);
    s.wrap = [Wrap::MirrorClampToEdge; 3];
    assert!(close(at(&s, -0.1), 0.0));
    assert!(close(at(&s, -0.9), 1.0));
    assert!(close(at(&s, -3.0), 1.0));
    // Legacy CLAMP with LINEAR: at s = 0 half of the border is blended in.
    let mut c = SamplerState::simple(Filter::Linear, Wrap::Clamp);
    c.border = [1.0f32.to_bits(), 0, 0, 0];
    let v = at(&c, 0.0);
    assert!(close(v, 0.5), "{v}");
    let v = at(&c, -5.0);
    assert!(close(v, 0.5), "{v}");
    c.wrap = [Wrap::ClampToEdge; 3];
    assert!(close(at(&c, 0.0), 0.0));
}

#[test]
fn lod_selection_from_quad_derivatives() {
    let p = patterns::miptree().unwrap(); // 8x8 red, green, blue, white
    let o = sample_op(Target::T2D);
    // One texel per pixel: level 0 red.
    let v = run(
        &p.texture,
        &p.sampler,
        &o,
        &quad(0.5, 0.5, 1.0 / 8.0, 1.0 / 8.0),
    );
    assert_eq!(v[0], [1.0, 0.0, 0.0, 1.0]);
    // Two texels per pixel: rho 2, lambda 1 → green.
    let v = run(&p.texture, &p.sampler, &o, &quad(0.5, 0.5, 2.0 / 8.0, 0.0));
    assert_eq!(v[3], [0.0, 1.0, 0.0, 1.0]);
    // rho = max of the axis lengths: dy dominates (4 texels) → blue.
    let v = run(
        &p.texture,
        &p.sampler,
        &o,
        &quad(0.5, 0.5, 1.0 / 8.0, 4.0 / 8.0),
    );
    assert_eq!(v[1], [0.0, 0.0, 1.0, 1.0]);
    // Huge minification clamps to the last level.
    let v = run(&p.texture, &p.sampler, &o, &quad(0.5, 0.5, 100.0, 0.0));
    assert_eq!(v[2], [1.0, 1.0, 1.0, 1.0]);
    // lambda 1.4 rounds to level 1; 1.6 to level 2 (NEAREST_MIPMAP_NEAREST).
    let d = |lambda: f32| 2f32.powf(lambda) / 8.0;
    assert_eq!(
        run(&p.texture, &p.sampler, &o, &quad(0.5, 0.5, d(1.4), 0.0))[0][1],
        1.0
    );
    assert_eq!(
        run(&p.texture, &p.sampler, &o, &quad(0.5, 0.5, d(1.6), 0.0))[0][2],
        1.0
    );
}

#[test]
fn linear_mipmap_weights_bias_and_clamps() {
    let mut p = patterns::miptree().unwrap();
    p.sampler.min_filter = MinFilter {
        filter: Filter::Nearest,
        mipmap: Some(Filter::Linear),
    };
    let o = sample_op(Target::T2D);
    let d = |lambda: f32| 2f32.powf(lambda) / 8.0;
    // lambda 1.25 → 75 % green (level 1) + 25 % blue (level 2).
    let v = run(&p.texture, &p.sampler, &o, &quad(0.5, 0.5, d(1.25), 0.0))[0];
    assert!(close(v[1], 0.75) && close(v[2], 0.25), "{v:?}");
    // TXB adds the shader bias: 0.25 + 1.0 → lambda 1.25 again.
    let mut l = quad(0.5, 0.5, d(0.25), 0.0);
    l.lod = [1.0; 4];
    let v = run(
        &p.texture,
        &p.sampler,
        &op(OpKind::Sample(LodMode::Bias), Target::T2D),
        &l,
    )[0];
    assert!(close(v[1], 0.75) && close(v[2], 0.25), "{v:?}");
    // The sampler bias adds too.
    let mut s = p.sampler.clone();
    s.lod_bias = 1.0;
    let v = run(&p.texture, &s, &o, &quad(0.5, 0.5, d(0.25), 0.0))[0];
    assert!(close(v[1], 0.75), "{v:?}");
    // max_lod clamps lambda.
    let mut s = p.sampler.clone();
    s.max_lod = 1.0;
    let v = run(&p.texture, &s, &o, &quad(0.5, 0.5, d(2.5), 0.0))[0];
    assert_eq!(v, [0.0, 1.0, 0.0, 1.0]);
    // min_lod forces minification even when magnifying.
    let mut s = p.sampler.clone();
    s.min_lod = 2.0;
    let v = run(&p.texture, &s, &o, &quad(0.5, 0.5, d(-3.0), 0.0))[0];
    assert_eq!(v, [0.0, 0.0, 1.0, 1.0]);
    // Base level 1: lambda 0 (magnification) reads level 1; lambda 1 reads level 2.
    let mut s = p.sampler.clone();
    s.base_level = 1;
    s.min_filter.mipmap = Some(Filter::Nearest);
    let v = run(&p.texture, &s, &o, &quad(0.5, 0.5, 1.0 / 8.0, 0.0))[0];
    assert_eq!(v, [0.0, 1.0, 0.0, 1.0]);
    let v = run(&p.texture, &s, &o, &quad(0.5, 0.5, 4.0 / 8.0, 0.0))[0];
    assert_eq!(v, [0.0, 0.0, 1.0, 1.0]);
    // max_level 1 stops there.
    let mut s = p.sampler.clone();
    s.max_level = 1;
    let v = run(&p.texture, &s, &o, &quad(0.5, 0.5, 1.0, 0.0))[0];
    assert_eq!(v, [0.0, 1.0, 0.0, 1.0]);
    // TXL: explicit LOD, derivatives ignored.
    let mut l = quad(0.5, 0.5, 1.0, 1.0);
    l.lod = [2.5; 4];
    let v = run(
        &p.texture,
        &p.sampler,
        &op(OpKind::Sample(LodMode::Explicit), Target::T2D),
        &l,
    )[0];
    assert_eq!(v, [0.5, 0.5, 1.0, 1.0]); // half blue (level 2), half white (level 3)
                                         // TXD: gradients given explicitly.
    let mut l = point(0.5, 0.5);
    l.ddx[0] = [2.0 / 8.0; 4];
    let v = run(
        &p.texture,
        &p.sampler,
        &op(OpKind::Sample(LodMode::Gradients), Target::T2D),
        &l,
    )[0];
    assert_eq!(v, [0.0, 1.0, 0.0, 1.0]);
    // Without quad derivatives (vertex programs) lookups magnify: level 0.
    let mut o2 = o;
    o2.quad_derivatives = false;
    let v = run(&p.texture, &p.sampler, &o2, &quad(0.5, 0.5, 1.0, 1.0))[0];
    assert_eq!(v, [1.0, 0.0, 0.0, 1.0]);
}

#[test]
fn incomplete_textures_return_black() {
    // Default sampler wants mipmaps; a single level is incomplete.
    let t = r8(4, 4, &[255; 16]);
    let v = run(
        &t,
        &SamplerState::default(),
        &sample_op(Target::T2D),
        &point(0.5, 0.5),
    )[0];
    assert_eq!(v, [0.0, 0.0, 0.0, 1.0]);
    // Integer textures with LINEAR filtering are incomplete.
    let mut i = Texture::new(Target::T2D, Format::RGBA32UI, [1, 1, 1], 1).unwrap();
    i.write_texels(0, [0, 0, 0], [1, 1, 1], &[[7, 8, 9, 10]])
        .unwrap();
    let mut out = [[0u32; 4]; 4];
    let lin = SamplerState::simple(Filter::Linear, Wrap::Repeat);
    execute(
        &i,
        &lin,
        &sample_op(Target::T2D),
        &point(0.5, 0.5),
        1,
        &mut out,
    )
    .unwrap();
    assert_eq!([out[0][0], out[1][0], out[2][0], out[3][0]], [0, 0, 0, 1]);
    let near = SamplerState::simple(Filter::Nearest, Wrap::Repeat);
    execute(
        &i,
        &near,
        &sample_op(Target::T2D),
        &point(0.5, 0.5),
        1,
        &mut out,
    )
    .unwrap();
    assert_eq!([out[0][0], out[1][0], out[2][0], out[3][0]], [7, 8, 9, 10]);
    // Target mismatch is an error.
    assert!(execute(
        &i,
        &near,
        &sample_op(Target::T3D),
        &point(0.5, 0.5),
        1,
        &mut out
    )
    .is_err());
}

#[test]
fn cube_faces_and_seamless_edges() {
    let p = patterns::cube(4).unwrap();
    let o = sample_op(Target::Cube);
    let colors = [
        ([1.0, 0.2, -0.3], [1.0, 0.0, 0.0]),
        ([-1.0, 0.2, -0.3], [0.0, 1.0, 1.0]),
        ([0.2, 1.0, -0.3], [0.0, 1.0, 0.0]),
        ([0.2, -1.0, -0.3], [1.0, 0.0, 1.0]),
        ([0.2, -0.3, 1.0], [0.0, 0.0, 1.0]),
        ([0.2, -0.3, -1.0], [1.0, 1.0, 0.0]),
    ];
    for (dir, rgb) in colors {
        let mut l = Lanes::<4>::new();
        for (dst, v) in l.coord.iter_mut().zip(dir) {
            *dst = [v; 4];
        }
        let v = run(&p.texture, &p.sampler, &o, &l)[0];
        assert_eq!([v[0], v[1], v[2]], rgb, "{dir:?}");
    }
    // On the +X face next to its -Z edge (s → 1), linear + seamless blends the -Z face's
    // yellow in; without seamless, clamp-to-edge stays red.
    let mut s = p.sampler.clone();
    s.mag_filter = Filter::Linear;
    s.min_filter.filter = Filter::Linear;
    let mut l = Lanes::<4>::new();
    l.coord[0] = [1.0; 4];
    l.coord[1] = [0.1; 4];
    l.coord[2] = [-0.99; 4];
    assert_eq!(run(&p.texture, &s, &o, &l)[0][1], 0.0);
    s.seamless_cube = true;
    let g = run(&p.texture, &s, &o, &l)[0][1];
    assert!(g > 0.3 && g < 0.7, "{g}");
    // Exactly at the +X/-Z/-Y corner the 2x2 footprint is red (+X), yellow (-Z),
    // magenta (-Y) and the corner texel, which is the mean of those three; equal weights.
    l.coord[0] = [1.0; 4];
    l.coord[1] = [-1.0; 4];
    l.coord[2] = [-1.0; 4];
    let v = run(&p.texture, &s, &o, &l)[0];
    let want = [1.0, 1.0 / 3.0, 1.0 / 3.0, 1.0];
    for c in 0..4 {
        assert!(close(v[c], want[c]), "{v:?}");
    }
}

#[test]
fn array_layers_round_and_clamp() {
    let p = patterns::layers(Target::Array2D, 2, 2, 3).unwrap(); // red, green, blue
    let o = sample_op(Target::Array2D);
    let layer = |z: f32| {
        let mut l = point(0.5, 0.5);
        l.layer = [z; 4];
        let v = run(&p.texture, &p.sampler, &o, &l)[0];
        [v[0], v[1], v[2]]
    };
    assert_eq!(layer(1.4), [0.0, 1.0, 0.0]);
    assert_eq!(layer(1.5), [0.0, 0.0, 1.0]);
    assert_eq!(layer(-7.0), [1.0, 0.0, 0.0]);
    assert_eq!(layer(99.0), [0.0, 0.0, 1.0]);
    let c = patterns::layers(Target::ArrayCube, 2, 2, 2).unwrap();
    let mut l = Lanes::<4>::new();
    l.coord[2] = [1.0; 4];
    l.layer = [1.0; 4];
    let v = run(&c.texture, &c.sampler, &sample_op(Target::ArrayCube), &l)[0];
    assert_eq!(v, [0.0, 1.0, 0.0, 1.0]);
}

#[test]
fn texel_offsets_and_3d_linear() {
    let t = r8(4, 1, &[0, 85, 170, 255]);
    let s = SamplerState::simple(Filter::Nearest, Wrap::ClampToEdge);
    let mut l = point(0.1, 0.5);
    l.offset[0] = [2; 4];
    assert!(close(
        run(&t, &s, &sample_op(Target::T2D), &l)[0][0],
        170.0 / 255.0
    ));
    let p = patterns::rgbw_3d().unwrap();
    let mut s3 = p.sampler.clone();
    s3.mag_filter = Filter::Linear;
    s3.min_filter.filter = Filter::Linear;
    let mut l = point(0.5, 0.5);
    l.coord[2] = [0.5; 4];
    let v = run(&p.texture, &s3, &sample_op(Target::T3D), &l)[0];
    // Average of the 8 texels: r = (1+0+0+1+1+1+0+0)/8 = 0.5, g = 0.5, b = 0.5.
    assert!(
        close(v[0], 0.5) && close(v[1], 0.5) && close(v[2], 0.5),
        "{v:?}"
    );
}

#[test]
fn depth_compare_and_modes() {
    let mut p = patterns::shadow(Target::T2D, [5, 1, 1]).unwrap(); // depth x/4
    let mut o = sample_op(Target::T2D);
    o.shadow = true;
    let at = |p: &patterns::Pattern, x: f32, r: f32| {
        let mut l = point(x, 0.5);
        l.reference = [r; 4];
        run(&p.texture, &p.sampler, &o, &l)[0]
    };
    // GREATER: reference > texel passes.
    assert_eq!(at(&p, 0.1, 0.5), [1.0, 1.0, 1.0, 1.0]);
    assert_eq!(at(&p, 0.9, 0.5), [0.0, 0.0, 0.0, 1.0]);
    // Every function against a float depth of exactly 0.5.
    let mut half = Texture::new(Target::T2D, Format::Depth32F, [1, 1, 1], 1).unwrap();
    half.write_texels(0, [0, 0, 0], [1, 1, 1], &[[0.5f32.to_bits(), 0, 0, 0]])
        .unwrap();
    let mut hp = patterns::Pattern {
        texture: half,
        sampler: p.sampler.clone(),
    };
    let cases = [
        (CompareFunc::Never, [0.0, 0.0, 0.0]),
        (CompareFunc::Less, [1.0, 0.0, 0.0]),
        (CompareFunc::Equal, [0.0, 1.0, 0.0]),
        (CompareFunc::Lequal, [1.0, 1.0, 0.0]),
        (CompareFunc::Greater, [0.0, 0.0, 1.0]),
        (CompareFunc::Notequal, [1.0, 0.0, 1.0]),
        (CompareFunc::Gequal, [0.0, 1.0, 1.0]),
        (CompareFunc::Always, [1.0, 1.0, 1.0]),
    ];
    for (f, want) in cases {
        hp.sampler.compare_func = f;
        let got: Vec<f32> = [0.25, 0.5, 0.75]
            .iter()
            .map(|r| at(&hp, 0.5, *r)[0])
            .collect();
        assert_eq!(got, want.to_vec(), "{f:?}");
    }
    p.sampler.compare_func = CompareFunc::Greater;
    p.sampler.depth_mode = DepthMode::Alpha;
    assert_eq!(at(&p, 0.1, 0.5), [0.0, 0.0, 0.0, 1.0]);
    p.sampler.depth_mode = DepthMode::Red;
    assert_eq!(at(&p, 0.1, 0.5), [1.0, 0.0, 0.0, 1.0]);
    p.sampler.depth_mode = DepthMode::Intensity;
    assert_eq!(at(&p, 0.9, 0.5), [0.0; 4]);
    // Linear filtering averages comparison results (PCF): between texels 1 and 2.
    p.sampler.mag_filter = Filter::Linear;
    p.sampler.min_filter.filter = Filter::Linear;
    p.sampler.depth_mode = DepthMode::Red;
    let v = at(&p, 0.4, 0.4)[0]; // u = 1.5 → texels 1 (0.25) and 2 (0.5) half each
    assert!(close(v, 0.5), "{v}");
    // Non-shadow lookups return the depth value itself.
    let mut l = point(0.3, 0.5);
    l.reference = [0.0; 4];
    p.sampler.mag_filter = Filter::Nearest;
    let v = run(&p.texture, &p.sampler, &sample_op(Target::T2D), &l)[0];
    assert!(close(v[0], 0.25), "{v:?}");
}

#[test]
fn gather_order_components_and_shadow() {
    // 2x2 RGBA8: texel (i,j) has r = 10*(i+1) + j, g = 200.
    let mut t = Texture::new(Target::T2D, Format::RGBA8, [2, 2, 1], 1).unwrap();
    t.write_bytes(
        0,
        [0, 0, 0],
        [2, 2, 1],
        &[
            10, 200, 0, 255, 20, 200, 0, 255, 11, 200, 0, 255, 21, 200, 0, 255,
        ],
    )
    .unwrap();
    let s = SamplerState::simple(Filter::Nearest, Wrap::ClampToEdge);
    let g = run(
        &t,
        &s,
        &op(OpKind::Gather { comp: 0 }, Target::T2D),
        &point(0.5, 0.5),
    )[0];
    let want = [11.0, 21.0, 20.0, 10.0].map(|v: f32| v / 255.0); // (i0,j1) (i1,j1) (i1,j0) (i0,j0)
    for c in 0..4 {
        assert!(close(g[c], want[c]), "{g:?}");
    }
    let g = run(
        &t,
        &s,
        &op(OpKind::Gather { comp: 1 }, Target::T2D),
        &point(0.5, 0.5),
    )[0];
    assert!(g.iter().all(|v| close(*v, 200.0 / 255.0)));
    // Swizzle applies before the component is selected.
    let mut sw = s.clone();
    sw.swizzle[3] = Swizzle::One;
    let g = run(
        &t,
        &sw,
        &op(OpKind::Gather { comp: 3 }, Target::T2D),
        &point(0.5, 0.5),
    )[0];
    assert_eq!(g, [1.0; 4]);
    // TXGO: per-texel offsets pick texel (i0 + ox, j0 + oy).
    let mut l = point(0.25, 0.25);
    l.gather_offsets[0] = [[1; 4], [0; 4], [1; 4], [0; 4]];
    l.gather_offsets[1] = [[1; 4], [1; 4], [0; 4], [0; 4]];
    let g = run(
        &t,
        &s,
        &op(OpKind::GatherOffsets { comp: 0 }, Target::T2D),
        &l,
    )[0];
    let want = [21.0, 11.0, 20.0, 10.0].map(|v: f32| v / 255.0);
    for c in 0..4 {
        assert!(close(g[c], want[c]), "{g:?}");
    }
    // Shadow gather: 0/1 per texel.
    let p = patterns::shadow(Target::T2D, [2, 2, 1]).unwrap(); // depths 0, 1 per row
    let mut o = op(OpKind::Gather { comp: 2 }, Target::T2D);
    o.shadow = true;
    let mut l = point(0.5, 0.5);
    l.reference = [0.5; 4];
    let g = run(&p.texture, &p.sampler, &o, &l)[0];
    assert_eq!(g, [1.0, 0.0, 0.0, 1.0]);
}

#[test]
fn srgb_decode_and_skip() {
    let mut t = Texture::new(Target::T2D, Format::Srgb8Alpha8, [1, 1, 1], 1).unwrap();
    t.write_bytes(0, [0, 0, 0], [1, 1, 1], &[128, 0, 255, 128])
        .unwrap();
    let mut s = SamplerState::simple(Filter::Nearest, Wrap::Repeat);
    let v = run(&t, &s, &sample_op(Target::T2D), &point(0.5, 0.5))[0];
    assert!((v[0] - 0.215_861).abs() < 1e-5, "{v:?}");
    assert_eq!(v[2], 1.0);
    assert!(close(v[3], 128.0 / 255.0)); // alpha stays linear
    s.srgb_decode = false;
    let v = run(&t, &s, &sample_op(Target::T2D), &point(0.5, 0.5))[0];
    assert!(close(v[0], 128.0 / 255.0));
}

#[test]
fn fetch_size_and_query_lod() {
    let p = patterns::miptree().unwrap();
    let mut l = Lanes::<4>::new();
    l.icoord = [[1, 7, 8, -1], [1, 7, 0, 0], [0; 4], [1, 0, 0, 0]];
    let mut out = [[9u32; 4]; 4];
    execute(
        &p.texture,
        &p.sampler,
        &op(OpKind::Fetch, Target::T2D),
        &l,
        0xf,
        &mut out,
    )
    .unwrap();
    assert_eq!(f32::from_bits(out[1][0]), 1.0); // level 1 → green
    assert_eq!(f32::from_bits(out[0][1]), 1.0); // level 0 texel (7,7) → red
    assert_eq!([out[0][2], out[3][2]], [0, 0]); // x = 8 out of range → zero
    assert_eq!([out[0][3], out[3][3]], [0, 0]); // negative
                                                // Offsets apply to fetches.
    l.icoord = [[6; 4], [0; 4], [0; 4], [0; 4]];
    l.offset[0] = [2, 1, 0, 0];
    execute(
        &p.texture,
        &p.sampler,
        &op(OpKind::Fetch, Target::T2D),
        &l,
        0x3,
        &mut out,
    )
    .unwrap();
    assert_eq!([out[0][0], out[3][0]], [0, 0]);
    assert_eq!(f32::from_bits(out[0][1]), 1.0);
    // TXQ: level sizes relative to the base level.
    l.icoord[0] = [0, 1, 3, 9];
    execute(
        &p.texture,
        &p.sampler,
        &op(OpKind::Size, Target::T2D),
        &l,
        0xf,
        &mut out,
    )
    .unwrap();
    assert_eq!([out[0][0], out[1][0]], [8, 8]);
    assert_eq!([out[0][1], out[1][1]], [4, 4]);
    assert_eq!([out[0][2], out[1][2]], [1, 1]);
    assert_eq!([out[0][3], out[1][3]], [0, 0]);
    // LOD query: rho 4 texels → lambda 2.
    let mut s = p.sampler.clone();
    s.min_filter.mipmap = Some(Filter::Linear);
    let v = run(
        &p.texture,
        &s,
        &op(OpKind::QueryLod, Target::T2D),
        &quad(0.5, 0.5, 4.0 / 8.0, 0.0),
    )[0];
    assert_eq!([v[0], v[1]], [2.0, 2.0]);
    let v = run(
        &p.texture,
        &s,
        &op(OpKind::QueryLod, Target::T2D),
        &quad(0.5, 0.5, 64.0, 0.0),
    )[0];
    assert_eq!(v[0], 3.0);
}

#[test]
fn anisotropic_filtering_samples_along_the_major_axis() {
    // Level 0: alternating black/white columns; levels 1+: red. Isotropic filtering of a
    // footprint 8 texels wide and 1 high reads level 3 (red); 16x anisotropy reads level
    // 0 with 8 probes across the footprint, averaging to grey.
    let mut t = Texture::new(Target::T2D, Format::RGBA8, [16, 16, 1], 5).unwrap();
    let lv0: Vec<[u32; 4]> = (0..256)
        .map(|i| {
            if i % 2 == 0 {
                [0, 0, 0, 1.0f32.to_bits()]
            } else {
                [1.0f32.to_bits(); 4]
            }
        })
        .collect();
    t.write_texels(0, [0, 0, 0], [16, 16, 1], &lv0).unwrap();
    for l in 1..5u32 {
        let n = 16 >> l;
        let red = vec![[1.0f32.to_bits(), 0, 0, 1.0f32.to_bits()]; (n * n) as usize];
        t.write_texels(l, [0, 0, 0], [n, n, 1], &red).unwrap();
    }
    let mut s = SamplerState::simple(Filter::Nearest, Wrap::Repeat);
    s.min_filter = MinFilter {
        filter: Filter::Nearest,
        mipmap: Some(Filter::Nearest),
    };
    let q = quad(0.5, 0.5, 8.0 / 16.0, 1.0 / 16.0);
    let v = run(&t, &s, &sample_op(Target::T2D), &q)[0];
    assert_eq!(v, [1.0, 0.0, 0.0, 1.0]);
    s.max_anisotropy = 16.0;
    let v = run(&t, &s, &sample_op(Target::T2D), &q)[0];
    assert!(close(v[0], 0.5) && close(v[1], 0.5), "{v:?}");
}

/// A 16x16 texture of `slices` layers or faces with 5 levels: texel (x, level, slice)
/// coloured by `f`.
fn sliced(target: Target, slices: u32, f: impl Fn(u32, u32, u32) -> [f32; 4]) -> Texture {
    let mut t = Texture::new(target, Format::RGBA8, [16, 16, slices], 5).unwrap();
    for l in 0..5u32 {
        let n = 16 >> l;
        for z in 0..slices {
            let texels: Vec<[u32; 4]> = (0..n * n)
                .map(|i| f(i % n, l, z).map(f32::to_bits))
                .collect();
            t.write_texels(l, [0, 0, z], [n, n, 1], &texels).unwrap();
        }
    }
    t
}

const BLACK: [f32; 4] = [0.0, 0.0, 0.0, 1.0];
const WHITE: [f32; 4] = [1.0; 4];
const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

/// Level 0 in black/white columns, coarser levels red.
fn columns(x: u32, l: u32) -> [f32; 4] {
    match (l, x % 2) {
        (0, 0) => BLACK,
        (0, _) => WHITE,
        _ => RED,
    }
}

fn trilinear_aniso(max_aniso: f32) -> SamplerState {
    let mut s = SamplerState::simple(Filter::Linear, Wrap::ClampToEdge);
    s.min_filter.mipmap = Some(Filter::Linear);
    s.max_anisotropy = max_aniso;
    s
}

#[test]
fn anisotropic_filtering_of_array_layers() {
    // Layer 0 green everywhere at level 0; layer 1 black/white columns. An 8:1
    // footprint reads level 0 of the selected layer with 16x anisotropy, level 3 (red)
    // without; with 2x the level follows Pmax / 2 = 4 texels, so level 2 (red).
    let t = sliced(Target::Array2D, 2, |x, l, z| match (z, l) {
        (0, 0) => GREEN,
        (0, _) => RED,
        _ => columns(x, l),
    });
    let mut q = quad(0.5, 0.5, 8.0 / 16.0, 1.0 / 16.0);
    let o = sample_op(Target::Array2D);
    q.layer = [1.0; 4];
    let v = run(&t, &trilinear_aniso(16.0), &o, &q)[0];
    assert!(
        close(v[0], 0.5) && close(v[1], 0.5) && close(v[2], 0.5),
        "{v:?}"
    );
    assert_eq!(run(&t, &trilinear_aniso(1.0), &o, &q)[0], RED);
    assert_eq!(run(&t, &trilinear_aniso(2.0), &o, &q)[0], RED);
    q.layer = [0.0; 4];
    assert_eq!(run(&t, &trilinear_aniso(16.0), &o, &q)[0], GREEN);
}

#[test]
fn anisotropic_filtering_of_cube_faces() {
    // +Z (face 4) has black/white columns at level 0, every other face is blue, coarser
    // levels red. Direction (x, y, 1) maps to s = (x + 1) / 2 on +Z, so a quad stepping x
    // by 1 and y by 1/8 has an 8:1 footprint (8 texels along s, 1 along t).
    let t = sliced(Target::Cube, 6, |x, l, z| match (z, l) {
        (4, _) => columns(x, l),
        (_, 0) => BLUE,
        _ => RED,
    });
    let o = sample_op(Target::Cube);
    let quad_at = |x: f32| {
        let mut l = Lanes::<4>::new();
        l.coord[0] = [x, x + 1.0, x, x + 1.0];
        l.coord[1] = [0.0, 0.0, 0.125, 0.125];
        l.coord[2] = [1.0; 4];
        l
    };
    // At the face centre the ellipse stays on +Z: an even mix of the columns.
    let v = run(&t, &trilinear_aniso(16.0), &o, &quad_at(0.0))[0];
    assert!(close(v[0], 0.5) && close(v[2], 0.5), "{v:?}");
    assert_eq!(run(&t, &trilinear_aniso(1.0), &o, &quad_at(0.0))[0], RED);
    // Near the +X edge it reaches 8 texels past it: seamless filtering takes them from
    // the blue +X face, per-face filtering clamps to the last column of +Z (white).
    let mut s = trilinear_aniso(16.0);
    s.seamless_cube = true;
    let v = run(&t, &s, &o, &quad_at(0.75))[0];
    assert!(v[2] > v[0] + 0.05, "{v:?}");
    s.seamless_cube = false;
    let v = run(&t, &s, &o, &quad_at(0.75))[0];
    assert!(close(v[0], v[2]) && v[0] > 0.5, "{v:?}");
}

#[test]
fn anisotropic_filtering_limits_and_magnification() {
    // Magnified along both axes: the magnification filter (here NEAREST) as without
    // anisotropy, not a blur.
    let t = sliced(Target::T2D, 1, |x, l, _| columns(x, l));
    let mut s = trilinear_aniso(16.0);
    s.mag_filter = Filter::Nearest;
    let q = quad(0.57, 0.5, 0.25 / 16.0, 0.25 / 16.0);
    assert_eq!(run(&t, &s, &sample_op(Target::T2D), &q)[0], WHITE);
    // Explicit LOD (TXL) has no footprint: trilinear.
    let mut l = quad(0.5, 0.5, 8.0 / 16.0, 1.0 / 16.0);
    l.lod = [2.0; 4];
    let o = op(OpKind::Sample(LodMode::Explicit), Target::T2D);
    assert_eq!(run(&t, &s, &o, &l)[0], RED);
    // Derivatives given by TXD drive the ellipse like implicit ones.
    let mut g = point(0.5, 0.5);
    g.ddx[0] = [0.5; 4];
    g.ddy[1] = [1.0 / 16.0; 4];
    let o = op(OpKind::Sample(LodMode::Gradients), Target::T2D);
    let v = run(&t, &s, &o, &g)[0];
    assert!(close(v[0], 0.5), "{v:?}");
}

#[test]
fn swizzle_integer_and_masks() {
    let mut i = Texture::new(Target::T2D, Format::RG32I, [1, 1, 1], 1).unwrap();
    i.write_texels(0, [0, 0, 0], [1, 1, 1], &[[(-3i32) as u32, 4, 0, 0]])
        .unwrap();
    let mut s = SamplerState::simple(Filter::Nearest, Wrap::Repeat);
    s.swizzle = [Swizzle::G, Swizzle::R, Swizzle::One, Swizzle::A];
    let mut out = [[0u32; 4]; 4];
    execute(
        &i,
        &s,
        &sample_op(Target::T2D),
        &point(0.5, 0.5),
        0b0100,
        &mut out,
    )
    .unwrap();
    assert_eq!(
        [out[0][2], out[1][2], out[2][2], out[3][2]],
        [4, (-3i32) as u32, 1, 1]
    );
    // Inactive lanes are untouched.
    assert_eq!(out[0][0], 0);
    // Batches need whole quads for implicit derivatives.
    let l1 = Lanes::<3>::new();
    let mut o3 = [[0u32; 3]; 4];
    assert!(execute(&i, &s, &sample_op(Target::T2D), &l1, 1, &mut o3).is_err());
}

#[test]
fn hostile_inputs_never_panic() {
    let wraps = [
        Wrap::Repeat,
        Wrap::MirroredRepeat,
        Wrap::Clamp,
        Wrap::ClampToEdge,
        Wrap::ClampToBorder,
        Wrap::MirrorClamp,
        Wrap::MirrorClampToEdge,
        Wrap::MirrorClampToBorder,
    ];
    let weird = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        3e38,
        -3e38,
        1e-40,
        -0.0,
        0.5,
    ];
    let textures = [
        (
            Target::T1D,
            Texture::new(Target::T1D, Format::RGBA8, [4, 1, 1], 3).unwrap(),
        ),
        (Target::T2D, patterns::miptree().unwrap().texture),
        (Target::T3D, patterns::rgbw_3d().unwrap().texture),
        (Target::Cube, patterns::cube(2).unwrap().texture),
        (
            Target::Rect,
            Texture::new(Target::Rect, Format::R32F, [3, 2, 1], 1).unwrap(),
        ),
        (
            Target::Array1D,
            patterns::layers(Target::Array1D, 4, 1, 2).unwrap().texture,
        ),
        (
            Target::Array2D,
            patterns::layers(Target::Array2D, 2, 2, 2).unwrap().texture,
        ),
        (
            Target::ArrayCube,
            patterns::layers(Target::ArrayCube, 2, 2, 2)
                .unwrap()
                .texture,
        ),
    ];
    let kinds = [
        OpKind::Sample(LodMode::Implicit),
        OpKind::Sample(LodMode::Bias),
        OpKind::Sample(LodMode::Explicit),
        OpKind::Sample(LodMode::Gradients),
        OpKind::Fetch,
        OpKind::Gather { comp: 3 },
        OpKind::GatherOffsets { comp: 9 },
        OpKind::QueryLod,
        OpKind::Size,
    ];
    for (target, tex) in &textures {
        for (wi, wrap) in wraps.iter().enumerate() {
            let mut s = SamplerState::simple(Filter::Linear, *wrap);
            s.min_filter.mipmap = Some(Filter::Linear);
            s.max_anisotropy = 16.0;
            s.seamless_cube = wi % 2 == 0;
            for kind in kinds {
                for shadow in [false, true] {
                    let mut l = Lanes::<4>::new();
                    for (k, w) in weird.iter().enumerate() {
                        for c in 0..3 {
                            l.coord[c][k % 4] = weird[(k + c) % weird.len()];
                            l.ddx[c][k % 4] = *w;
                        }
                        l.layer[k % 4] = *w;
                        l.lod[k % 4] = *w;
                        l.reference[k % 4] = *w;
                    }
                    l.offset = [[i32::MAX, i32::MIN, -8, 7]; 3];
                    l.icoord = [[i32::MAX, i32::MIN, -1, 0]; 4];
                    l.gather_offsets = [[[i32::MIN, i32::MAX, 0, 1]; 4]; 2];
                    let o = TexOp {
                        kind,
                        target: *target,
                        shadow,
                        quad_derivatives: true,
                    };
                    let mut out = [[0u32; 4]; 4];
                    let _ = execute(tex, &s, &o, &l, 0xf, &mut out);
                }
            }
        }
    }
}

#[test]
fn multisample_buffer_and_array_fetches() {
    let mut ms = Texture::new_multisample(Target::T2DMs, Format::R32UI, [2, 2, 1], 4).unwrap();
    for smp in 0..4 {
        ms.set_texel(0, 1, 1, 0, smp, [10 + smp, 0, 0, 0]).unwrap();
    }
    let s = SamplerState::simple(Filter::Nearest, Wrap::ClampToEdge);
    let mut l = Lanes::<4>::new();
    l.icoord = [[1, 1, 1, 0], [1, 1, 1, 0], [0; 4], [0, 3, 4, 0]];
    let mut out = [[9u32; 4]; 4];
    execute(
        &ms,
        &s,
        &op(OpKind::FetchMs, Target::T2DMs),
        &l,
        0xf,
        &mut out,
    )
    .unwrap();
    assert_eq!([out[0][0], out[0][1], out[0][2], out[0][3]], [10, 13, 0, 0]);
    assert_eq!(out[3][0], 1); // R32UI → (r, 0, 0, 1)
                              // Filtered lookups from multisample textures are rejected.
    assert!(execute(
        &ms,
        &s,
        &sample_op(Target::T2DMs),
        &point(0.5, 0.5),
        1,
        &mut out
    )
    .is_err());

    let buf = Texture::from_buffer(Format::R32UI, bytemuck::cast_slice(&[5u32, 6, 7])).unwrap();
    l.icoord = [[0, 2, 3, -1], [0; 4], [0; 4], [0; 4]];
    execute(
        &buf,
        &s,
        &op(OpKind::Fetch, Target::Buffer),
        &l,
        0xf,
        &mut out,
    )
    .unwrap();
    assert_eq!([out[0][0], out[0][1], out[0][2], out[0][3]], [5, 7, 0, 0]);
    l.icoord[0] = [0; 4];
    execute(&buf, &s, &op(OpKind::Size, Target::Buffer), &l, 1, &mut out).unwrap();
    assert_eq!(out[0][0], 3);

    // 1D array: TXF takes the layer from y.
    let arr = patterns::layers(Target::Array1D, 4, 1, 3).unwrap();
    l.icoord = [[2, 2, 2, 2], [0, 1, 2, 3], [0; 4], [0; 4]];
    execute(
        &arr.texture,
        &arr.sampler,
        &op(OpKind::Fetch, Target::Array1D),
        &l,
        0xf,
        &mut out,
    )
    .unwrap();
    let f = |c: usize, i: usize| f32::from_bits(out[c][i]);
    assert_eq!([f(0, 0), f(1, 1), f(2, 2), f(3, 3)], [1.0, 1.0, 1.0, 0.0]);
}

#[test]
fn compressed_textures_sample_decoded_blocks() {
    let mut t = Texture::new(Target::T2D, Format::Bc1Rgb, [4, 4, 1], 1).unwrap();
    // c0 = red, c1 = blue, all indices 1 → blue everywhere.
    t.write_bytes(
        0,
        [0, 0, 0],
        [4, 4, 1],
        &[0x00, 0xf8, 0x1f, 0x00, 0x55, 0x55, 0x55, 0x55],
    )
    .unwrap();
    let s = SamplerState::simple(Filter::Linear, Wrap::Repeat);
    let v = run(&t, &s, &sample_op(Target::T2D), &point(0.3, 0.6))[0];
    assert_eq!(v, [0.0, 0.0, 1.0, 1.0]);
    assert!(t.write_bytes(0, [1, 0, 0], [2, 2, 1], &[0; 8]).is_err());
}

#[test]
fn srgb_compressed_textures_decode_colour_not_alpha() {
    // One BC3 block: alpha a0 = 128 everywhere (index 0); colour c0 = c1 = 565 grey
    // (16, 32, 16) -> RGB8 (132, 130, 132), index 0 everywhere.
    let grey = 16u16 << 11 | 32 << 5 | 16;
    let [g0, g1] = grey.to_le_bytes();
    let block = [128, 0, 0, 0, 0, 0, 0, 0, g0, g1, g0, g1, 0, 0, 0, 0];
    let srgb = |c: f32| ((c / 255.0 + 0.055) / 1.055).powf(2.4);
    let mut s = SamplerState::simple(Filter::Nearest, Wrap::Repeat);
    for (format, bytes, alpha) in [
        (Format::Bc3Srgb, &block[..], 128.0 / 255.0),
        (Format::Bc1Srgb, &block[8..], 1.0),
    ] {
        let mut t = Texture::new(Target::T2D, format, [4, 4, 1], 1).unwrap();
        t.write_bytes(0, [0, 0, 0], [4, 4, 1], bytes).unwrap();
        s.srgb_decode = true;
        let v = run(&t, &s, &sample_op(Target::T2D), &point(0.4, 0.6))[0];
        let want = [srgb(132.0), srgb(130.0), srgb(132.0), alpha];
        for c in 0..4 {
            assert!((v[c] - want[c]).abs() < 1e-4, "{format:?} {v:?} {want:?}");
        }
        // SKIP_DECODE_EXT: the stored values.
        s.srgb_decode = false;
        let v = run(&t, &s, &sample_op(Target::T2D), &point(0.4, 0.6))[0];
        assert_eq!(v, [132.0 / 255.0, 130.0 / 255.0, 132.0 / 255.0, alpha]);
    }
}

#[test]
fn gather_with_offset_and_depth_without_compare() {
    let t = r8(4, 1, &[0, 85, 170, 255]);
    let s = SamplerState::simple(Filter::Nearest, Wrap::ClampToEdge);
    let mut l = point(0.25, 0.5); // footprint texels 0 and 1
    l.offset[0] = [2; 4];
    let g = run(&t, &s, &op(OpKind::Gather { comp: 0 }, Target::T2D), &l)[0];
    // 1-row texture clamps j: (i0,j1) (i1,j1) (i1,j0) (i0,j0) = texels 2, 3, 3, 2.
    let want = [170.0, 255.0, 255.0, 170.0].map(|v: f32| v / 255.0);
    for c in 0..4 {
        assert!(close(g[c], want[c]), "{g:?}");
    }
    let p = patterns::shadow(Target::T2D, [2, 1, 1]).unwrap();
    let g = run(
        &p.texture,
        &p.sampler,
        &op(OpKind::Gather { comp: 0 }, Target::T2D),
        &point(0.5, 0.5),
    )[0];
    assert_eq!(g, [0.0, 1.0, 1.0, 0.0]); // depths, luminance mode, component r
}
