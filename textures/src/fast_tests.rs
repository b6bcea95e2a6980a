//! Differential tests: every specialised path against [`execute_reference`], bit for bit,
//! under every instruction set this CPU has.

use crate::format::Format;
use crate::request::{Lanes, LodMode, OpKind, TexOp};
use crate::sample::{execute, execute_reference};
use crate::sampler::{Filter, MinFilter, SamplerState, Swizzle, Wrap};
use crate::simd::{force, Isa};
use crate::texture::{Target, Texture};
use proptest::prelude::*;

const N: usize = 16;

const FORMATS: [Format; 14] = [
    Format::RGBA8,
    Format::R8,
    Format::RG8,
    Format::RGB8,
    Format::LUMINANCE8_ALPHA8,
    Format::ALPHA8,
    Format::RGBA16F,
    Format::RGBA32F,
    Format::R32F,
    Format::RGBA8_SNORM,
    Format::R11fG11fB10f,
    Format::Rgb565,
    Format::Srgb8Alpha8,
    Format::Bc1Rgba,
];

const WRAPS: [Wrap; 8] = [
    Wrap::Repeat,
    Wrap::MirroredRepeat,
    Wrap::Clamp,
    Wrap::ClampToEdge,
    Wrap::ClampToBorder,
    Wrap::MirrorClamp,
    Wrap::MirrorClampToEdge,
    Wrap::MirrorClampToBorder,
];

/// A coordinate: mostly inside a few repeats of the texture, sometimes hostile.
pub(crate) fn coord() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -2.0f32..3.0,
        1 => prop::sample::select(vec![
            f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, 0.0, 1.0, 0.5, 1e10, -1e10,
            3e9, -3e9, f32::MIN_POSITIVE,
        ]),
        1 => any::<f32>(),
    ]
}

pub(crate) fn lod_value() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -3.0f32..6.0,
        1 => prop::sample::select(vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0]),
    ]
}

/// A batch of four quads: each quad at a random point with random steps, so implicit
/// derivatives vary from quad to quad.
fn lanes() -> impl Strategy<Value = Lanes<N>> {
    (
        prop::collection::vec((coord(), coord(), -0.6f32..0.6, -0.6f32..0.6), 4),
        prop::collection::vec(lod_value(), N),
        prop::collection::vec(coord(), 6 * N),
        (-8i32..8, -8i32..8, any::<bool>()),
        any::<bool>(),
    )
        .prop_map(|(quads, lod, d, (ou, ov, per_lane), hostile)| {
            let mut l = Lanes::<N>::new();
            for (q, (s, t, dx, dy)) in quads.into_iter().enumerate() {
                for k in 0..4 {
                    let i = q * 4 + k;
                    l.coord[0][i] = s + if k & 1 != 0 { dx } else { 0.0 };
                    l.coord[1][i] = t + if k & 2 != 0 { dy } else { 0.0 };
                    l.coord[2][i] = if hostile { d[i] } else { 0.25 };
                }
            }
            l.lod.copy_from_slice(&lod);
            for i in 0..N {
                for a in 0..3 {
                    l.ddx[a][i] = d[N + a * N / 2 + i / 2] * 0.01;
                    l.ddy[a][i] = d[2 * N + a * N / 2 + i / 2] * 0.01;
                }
                let shift = if per_lane { i as i32 % 3 } else { 0 };
                l.offset[0][i] = ou + shift;
                l.offset[1][i] = ov - shift;
            }
            l
        })
}

pub(crate) fn filter() -> impl Strategy<Value = Filter> {
    prop_oneof![Just(Filter::Nearest), Just(Filter::Linear)]
}

pub(crate) fn sampler() -> impl Strategy<Value = SamplerState> {
    (
        (
            prop::sample::select(WRAPS.to_vec()),
            prop::sample::select(WRAPS.to_vec()),
        ),
        (filter(), filter(), prop::option::of(filter())),
        (0u32..3, 0u32..6, any::<bool>()),
        (-1.0f32..2.0, 0.0f32..8.0, -2.0f32..2.0),
        prop::array::uniform4(any::<u32>()),
        prop::array::uniform4(0usize..6),
        any::<bool>(),
    )
        .prop_map(
            |(
                wrap,
                (mag, min, mip),
                (base, max, legacy),
                (min_lod, max_lod, bias),
                border,
                swz,
                srgb,
            )| {
                let sw = [
                    Swizzle::R,
                    Swizzle::G,
                    Swizzle::B,
                    Swizzle::A,
                    Swizzle::Zero,
                    Swizzle::One,
                ];
                SamplerState {
                    wrap: [wrap.0, wrap.1, Wrap::Repeat],
                    mag_filter: mag,
                    min_filter: MinFilter {
                        filter: min,
                        mipmap: mip,
                    },
                    base_level: base,
                    max_level: max,
                    legacy_mag_threshold: legacy,
                    min_lod,
                    max_lod,
                    lod_bias: bias,
                    border,
                    swizzle: swz.map(|k| sw[k]),
                    srgb_decode: srgb,
                    ..Default::default()
                }
            },
        )
}

/// A 2D texture of `format`, `w`×`h`, with `levels` levels of random bytes (float
/// formats get NaNs, infinities and negative zeros among them).
fn texture() -> impl Strategy<Value = Texture> {
    texture_of(FORMATS.to_vec())
}

/// [`texture`] of one of `formats`.
pub(crate) fn texture_of(formats: Vec<Format>) -> impl Strategy<Value = Texture> {
    (
        prop::sample::select(formats),
        prop_oneof![
            Just(1u32),
            Just(2),
            Just(3),
            Just(4),
            Just(5),
            Just(8),
            Just(16)
        ],
        prop_oneof![
            Just(1u32),
            Just(2),
            Just(3),
            Just(4),
            Just(7),
            Just(8),
            Just(32)
        ],
        1u32..6,
        any::<u64>(),
    )
        .prop_map(|(format, w, h, levels, seed)| {
            let mut t = Texture::new(Target::T2D, format, [w, h, 1], levels).expect("texture");
            let mut x = seed | 1;
            for l in 0..t.num_levels() {
                let Some(lv) = t.level(l) else { continue };
                let (lw, lh) = (lv.width, lv.height);
                let n = lv.bytes().len();
                let bytes: Vec<u8> = (0..n)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        (x >> 24) as u8
                    })
                    .collect();
                t.write_bytes(l, [0, 0, 0], [lw, lh, 1], &bytes)
                    .expect("upload");
            }
            t
        })
}

fn op() -> impl Strategy<Value = TexOp> {
    (
        prop::sample::select(vec![
            LodMode::Implicit,
            LodMode::Bias,
            LodMode::Explicit,
            LodMode::Gradients,
        ]),
        any::<bool>(),
    )
        .prop_map(|(mode, quad_derivatives)| TexOp {
            kind: OpKind::Sample(mode),
            target: Target::T2D,
            shadow: false,
            quad_derivatives,
        })
}

fn compare(tex: &Texture, s: &SamplerState, op: &TexOp, l: &Lanes<N>, mask: u64, fill: u32) {
    let mut want = [[fill; N]; 4];
    execute_reference(tex, s, op, l, mask, &mut want).expect("reference");
    for isa in [Isa::Baseline, Isa::Avx2, Isa::Avx512] {
        let used = force(isa);
        let mut got = [[fill; N]; 4];
        execute(tex, s, op, l, mask, &mut got).expect("fast");
        assert_eq!(got, want, "{used:?} {:?} {s:?} {op:?}", tex.format());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn sample_2d_equals_reference(
        tex in texture(),
        s in sampler(),
        op in op(),
        l in lanes(),
        mask in any::<u16>(),
        fill in any::<u32>(),
    ) {
        compare(&tex, &s, &op, &l, u64::from(mask), fill);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// The RGBA8 kernels (the benchmark scenes' format) get a run of their own.
    #[test]
    fn rgba8_equals_reference(
        tex in texture_of(vec![Format::RGBA8]),
        s in sampler(),
        op in op(),
        l in lanes(),
        mask in any::<u16>(),
    ) {
        compare(&tex, &s, &op, &l, u64::from(mask), 0);
    }
}

/// The benchmark scenes' cases, every lane active, with many coordinates.
#[test]
fn bilinear_and_trilinear_rgba8_equal_reference() {
    let size = 64u32;
    let mut t = Texture::new(Target::T2D, Format::RGBA8, [size, size, 1], 1).expect("texture");
    let bytes: Vec<u8> = (0..size * size * 4)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    t.write_bytes(0, [0, 0, 0], [size, size, 1], &bytes)
        .expect("upload");
    t.generate_mipmaps(0).expect("mipmaps");
    let bilinear = SamplerState::simple(Filter::Linear, Wrap::Repeat);
    let mut trilinear = SamplerState::simple(Filter::Linear, Wrap::ClampToEdge);
    trilinear.min_filter.mipmap = Some(Filter::Linear);
    let op = TexOp {
        kind: OpKind::Sample(LodMode::Implicit),
        target: Target::T2D,
        shadow: false,
        quad_derivatives: true,
    };
    let before = crate::simd::BILINEAR_GROUPS.with(|n| n.get());
    for k in 0..500u32 {
        let mut l = Lanes::<N>::new();
        let step = 0.3 + (k % 17) as f32 * 0.4;
        for q in 0..4 {
            let s = (k * 7 + q as u32 * 13) as f32 * 0.0137 - 1.0;
            let tt = (k * 3 + q as u32 * 29) as f32 * 0.0091 - 0.5;
            for i in 0..4 {
                l.coord[0][q * 4 + i] = s + (i & 1) as f32 * step / size as f32;
                l.coord[1][q * 4 + i] = tt + (i >> 1) as f32 * step / size as f32;
            }
        }
        compare(&t, &bilinear, &op, &l, 0xffff, 0);
        compare(&t, &trilinear, &op, &l, 0xffff, 0);
    }
    if crate::simd::detected() >= Isa::Avx2 {
        // `execute` takes the multiversioned loops when the AVX2 kernel declines: the
        // comparisons alone would pass without it.
        let ran = crate::simd::BILINEAR_GROUPS.with(|n| n.get()) - before;
        assert!(ran > 0, "the AVX2 bilinear kernel never ran");
    }
}

/// The RGBA8 tap decodes a byte as `v as f32 / 255.0`: equal to the format's decode.
#[test]
fn unorm8_division_equals_decode() {
    for v in 0..=255u32 {
        assert_eq!(
            (v as f32 / 255.0).to_bits(),
            crate::pack::unorm_to_f32(v, 8).to_bits(),
            "{v}"
        );
    }
}

/// With FMA the RGBA8 tap computes x / 255 as q = x·r, q + (x - q·255)·r: the same bits.
#[test]
fn unorm8_fma_reciprocal_equals_division() {
    const R: f32 = 1.0 / 255.0;
    for v in 0..=255u32 {
        let x = v as f32;
        let q = x * R;
        let f = (-q).mul_add(255.0, x).mul_add(R, q);
        assert_eq!(f.to_bits(), (x / 255.0).to_bits(), "{v}");
    }
}
