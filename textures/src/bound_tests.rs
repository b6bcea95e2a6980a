//! Differential tests: [`Bound::sample_nv`] against unpacking the same registers and
//! running [`execute_reference`], bit for bit, under every instruction set this CPU has.

use super::Bound;
use crate::fast::tests::{coord, lod_value, sampler, texture_of};
use crate::format::Format;
use crate::nv::{unpack, NvOffset, NvOpcode};
use crate::request::Lanes;
use crate::sample::execute_reference;
use crate::sampler::{Filter, SamplerState};
use crate::simd::{force, Isa};
use crate::texture::{Target, Texture};
use proptest::prelude::*;
use std::sync::Arc;

const N: usize = 16;

/// Coordinate registers: quads at random points with random steps (so implicit LOD
/// varies per quad), z and w random (w is the TXB/TXL value and the TXP divisor).
fn registers() -> impl Strategy<Value = [[u32; N]; 4]> {
    (
        prop::collection::vec((coord(), coord(), -0.6f32..0.6, -0.6f32..0.6), 4),
        prop::collection::vec(coord(), N),
        prop::collection::vec(prop_oneof![4 => lod_value(), 1 => coord()], N),
    )
        .prop_map(|(quads, z, w)| quad_registers(&quads, &z, &w))
}

/// Registers of four quads, each at (s, t) stepping (dx, dy) across it, with z and w per
/// lane.
fn quad_registers(quads: &[(f32, f32, f32, f32)], z: &[f32], w: &[f32]) -> [[u32; N]; 4] {
    let mut r = [[0u32; N]; 4];
    for (q, &(s, t, dx, dy)) in quads.iter().enumerate() {
        for k in 0..4 {
            let i = q * 4 + k;
            r[0][i] = (s + if k & 1 != 0 { dx } else { 0.0 }).to_bits();
            r[1][i] = (t + if k & 2 != 0 { dy } else { 0.0 }).to_bits();
            r[2][i] = z[i].to_bits();
            r[3][i] = w[i].to_bits();
        }
    }
    r
}

/// [`sampler`], mostly without sRGB decode (which the specialised path does not take).
fn plain_sampler() -> impl Strategy<Value = SamplerState> {
    (sampler(), any::<bool>()).prop_map(|(mut s, plain)| {
        if plain {
            s.srgb_decode = false;
        }
        s
    })
}

fn opcode() -> impl Strategy<Value = NvOpcode> {
    prop::sample::select(vec![
        NvOpcode::Tex,
        NvOpcode::Txp,
        NvOpcode::Txb,
        NvOpcode::Txl,
    ])
}

/// Returns how many of the instruction sets tried took the specialised path (tests that
/// need it to have run assert on the sum).
#[allow(clippy::too_many_arguments)]
fn compare(
    tex: Texture,
    s: SamplerState,
    opcode: NvOpcode,
    reg: &[[u32; N]; 4],
    offset: [i32; 2],
    fragment: bool,
    mask: u64,
    fill: u32,
) -> usize {
    let mut lanes = Lanes::<N>::new();
    let op = unpack(
        opcode,
        Target::T2D,
        false,
        &[reg],
        NvOffset::Const([offset[0], offset[1], 0]),
        0,
        fragment,
        &mut lanes,
    )
    .expect("unpack");
    let mut want = [[fill; N]; 4];
    execute_reference(&tex, &s, &op, &lanes, mask, &mut want).expect("reference");
    let b = Bound::new(Arc::new(tex), s);
    let mut specialised = 0;
    for isa in [Isa::Baseline, Isa::Avx2, Isa::Avx512] {
        let used = force(isa);
        let mut got = [[fill; N]; 4];
        let site = b.site(opcode, offset, fragment);
        if b.sample_nv(opcode, reg, offset, fragment, mask, &mut got) {
            specialised += 1;
            assert_eq!(got, want, "{used:?} {opcode:?} {:?}", b.sampler());
            // The per-draw site of the instruction gives the same bits, and ran.
            let site = site.expect("a site where sample_nv specialises");
            let mut got = [[fill; N]; 4];
            let before = super::SITE_CALLS.with(|n| n.get());
            assert!(mask == 0 || site.sample(reg, mask, &mut got), "{used:?}");
            assert!(mask == 0 || super::SITE_CALLS.with(|n| n.get()) > before);
            assert_eq!(got, want, "site, {used:?} {opcode:?} {:?}", b.sampler());
        } else {
            assert!(site.is_none(), "{used:?} {opcode:?} {:?}", b.sampler());
            let mut got = [[fill; N]; 4];
            b.execute(&op, &lanes, mask, &mut got).expect("execute");
            assert_eq!(got, want, "{used:?} {opcode:?} {:?}", b.sampler());
        }
    }
    specialised
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn sample_nv_equals_reference(
        tex in texture_of(vec![Format::RGBA8, Format::RGBA8, Format::RGBA8, Format::RGBA16F]),
        s in plain_sampler(),
        opcode in opcode(),
        reg in registers(),
        offset in (-8i32..8, -8i32..8),
        fragment in any::<bool>(),
        mask in any::<u16>(),
        fill in any::<u32>(),
    ) {
        compare(tex, s, opcode, &reg, [offset.0, offset.1], fragment, u64::from(mask), fill);
    }
}

/// The specialised path is taken for 2D RGBA8 bindings, and only there.
#[test]
fn specialised_for_rgba8_2d_only() {
    let make = |format| {
        let mut t = Texture::new(Target::T2D, format, [8, 8, 1], 4).expect("texture");
        t.generate_mipmaps(0).expect("mipmaps");
        Arc::new(t)
    };
    let mut trilinear = SamplerState::simple(Filter::Linear, crate::Wrap::Repeat);
    trilinear.min_filter.mipmap = Some(Filter::Linear);
    let cases = [
        (
            make(Format::RGBA8),
            SamplerState::simple(Filter::Linear, crate::Wrap::Repeat),
            true,
        ),
        (make(Format::RGBA8), trilinear, true),
        (
            make(Format::RGBA8),
            SamplerState::simple(Filter::Nearest, crate::Wrap::Repeat),
            true,
        ),
        (make(Format::RGBA8), SamplerState::default(), true),
        (
            make(Format::RGBA16F),
            SamplerState::simple(Filter::Linear, crate::Wrap::Repeat),
            false,
        ),
    ];
    for (tex, s, want) in cases {
        let b = Bound::new(tex, s);
        assert_eq!(b.specialised(), want, "{:?}", b.sampler());
    }
}

/// Lookups of one level in strips of quads (fill_1080p's shape at 0.53 texels a pixel,
/// and minified at 1.7 and 3.1 texels a pixel, x and y scaled apart), every wrap mode,
/// sizes power of two or not, some lanes at the seams and outside: the footprints permuted
/// out of whole rows (`avx2::window`: up to eight columns and four rows) and the gathered
/// ones (wider) give the reference's bits, and both paths ran.
#[test]
fn gathered_footprints_equal_reference() {
    use crate::sampler::Wrap;
    let wraps = [
        Wrap::Repeat,
        Wrap::ClampToEdge,
        Wrap::ClampToBorder,
        Wrap::MirroredRepeat,
        Wrap::Clamp,
        Wrap::MirrorClamp,
        Wrap::MirrorClampToEdge,
        Wrap::MirrorClampToBorder,
    ];
    let before = crate::simd::GATHERS.with(|g| g.get());
    let windows = crate::simd::WINDOWS.with(|g| g.get());
    let mut specialised = 0;
    for (k, &size) in [[256u32, 256], [64, 32], [37, 23], [7, 5]]
        .iter()
        .enumerate()
    {
        let mut tex =
            Texture::new(Target::T2D, Format::RGBA8, [size[0], size[1], 1], 1).expect("texture");
        let bytes: Vec<u8> = (0..size[0] * size[1] * 4)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        tex.write_bytes(0, [0, 0, 0], [size[0], size[1], 1], &bytes)
            .expect("upload");
        for (n, &wrap) in wraps.iter().enumerate() {
            let mut s = SamplerState::simple(Filter::Linear, wrap);
            s.wrap[1] = wraps[(n + k + 1) % wraps.len()];
            s.border = [0.25f32, 0.5, 0.75, 1.0].map(f32::to_bits);
            for (scale, strips) in [((0.53, 0.53), 64), ((1.7, 1.9), 24), ((3.1, 0.8), 16)] {
                for strip in 0..strips {
                    let mut reg = [[0u32; N]; 4];
                    for q in 0..4 {
                        for l in 0..4 {
                            let px = (strip * 8 + 2 * q + (l & 1)) as f32;
                            let py = (strip * 2 + (l >> 1)) as f32;
                            let u = (px - 40.0) * scale.0 / size[0] as f32;
                            let v = (py - 10.0) * scale.1 / size[1] as f32;
                            reg[0][4 * q + l] = u.to_bits();
                            reg[1][4 * q + l] = v.to_bits();
                        }
                    }
                    specialised += compare(
                        tex.clone(),
                        s.clone(),
                        NvOpcode::Tex,
                        &reg,
                        [0, 0],
                        true,
                        0xffff,
                        7,
                    );
                }
            }
        }
    }
    if crate::simd::detected() >= Isa::Avx2 {
        // The fallback (`Bound::execute`) gathers too: the count alone does not show
        // that `sample_nv` ran.
        assert!(specialised > 0, "sample_nv never took the specialised path");
        assert!(crate::simd::GATHERS.with(|g| g.get()) > before);
        assert!(crate::simd::WINDOWS.with(|g| g.get()) > windows);
    }
}

/// Base-level bilinear lookups of strips (fill_1080p's shape: 8x2 pixels, quads in
/// order) whose sixteen footprints share three rows and sixteen columns, at 0.53 to 1.8
/// texels a pixel, on levels from 5x3 to 256x256, with offsets, partial masks, swizzles,
/// and strips across the wrap's seams and the level's last rows and columns: the taps
/// permuted out of whole rows for both groups at once (`avx2::taps16`, and the
/// instruction site's `avx2::level16`) give the reference's bits, and those paths ran
/// (and, at seams and wide footprints, declined: `level16` then gathers each tap).
#[test]
fn sixteen_lane_windows_equal_reference() {
    use crate::sampler::Wrap;
    let before = crate::simd::WINDOWS16.with(|n| n.get());
    let pairs = crate::simd::LEVEL_PAIRS.with(|n| n.get());
    let levels16 = crate::simd::LEVELS16.with(|n| n.get());
    let gathers16 = crate::simd::GATHERS16.with(|n| n.get());
    let finite16 = crate::simd::FINITE16.with(|n| n.get());
    let flat16 = crate::simd::FLAT16.with(|n| n.get());
    let flat_windows16 = crate::simd::FLAT_WINDOWS16.with(|n| n.get());
    let mut specialised = 0;
    let sizes = [[256u32, 256], [64, 32], [16, 16], [37, 23], [8, 8], [5, 3]];
    // Each size with noise; with blocks where a window's channels are the same in all
    // its texels, some of them or none: R everywhere, G in blocks of 8x4 texels, B of
    // 16x8, A but where every 32nd column starts 8 columns of noise; and as a checker
    // of two opaque colours in squares of 16x4 texels (fill_1080p's texture, its
    // squares shrunk so that a window's first two rows often lie in one square and its
    // third in the next: whole windows flat or not, row 2 alone differing).
    let patterns = sizes
        .iter()
        .flat_map(|&size| [(size, 0), (size, 1), (size, 2)]);
    for (k, (size, pattern)) in patterns.enumerate() {
        let k = k / 3;
        let mut tex =
            Texture::new(Target::T2D, Format::RGBA8, [size[0], size[1], 1], 1).expect("texture");
        let noise = |i: u32| (i.wrapping_mul(2_654_435_761) >> 11) as u8;
        let bytes: Vec<u8> = (0..size[0] * size[1] * 4)
            .map(|i| {
                let (x, y) = ((i / 4) % size[0], (i / 4) / size[0]);
                let square = ((x >> 4) ^ (y >> 2)) as usize & 1;
                match i % 4 {
                    _ if pattern == 0 => noise(i),
                    c if pattern == 2 => {
                        [[230, 51, 25, 255], [25, 76, 230, 255]][square][c as usize]
                    }
                    0 => 200,
                    1 => [17, 90][((x >> 3) ^ (y >> 2)) as usize & 1],
                    2 => [0, 255][((x >> 4) ^ (y >> 3)) as usize & 1],
                    _ if x % 32 >= 24 => noise(i),
                    _ => 255,
                }
            })
            .collect();
        tex.write_bytes(0, [0, 0, 0], [size[0], size[1], 1], &bytes)
            .expect("upload");
        for wrap in [Wrap::Repeat, Wrap::ClampToEdge] {
            for (n, scale) in [(0.53f32, 0.53f32), (0.9, 0.3), (1.8, 1.0), (0.25, -0.7)]
                .into_iter()
                .enumerate()
            {
                let mut s = SamplerState::simple(Filter::Linear, wrap);
                if n % 2 == 1 {
                    use crate::sampler::Swizzle;
                    s.swizzle = [Swizzle::B, Swizzle::One, Swizzle::R, Swizzle::Zero];
                }
                let (mut w0, mut p0, mut l0) = (0, 0, 0);
                for strip in 0..40u32 {
                    if strip == 12 {
                        w0 = crate::simd::WINDOWS16.with(|n| n.get());
                        p0 = crate::simd::LEVEL_PAIRS.with(|n| n.get());
                        l0 = crate::simd::LEVELS16.with(|n| n.get());
                    }
                    // Origins stepping over the whole level and past it (both seams).
                    let (ox, oy) = if strip < 12 {
                        (0.6 + (strip % 6) as f32 * 0.1, 0.6)
                    } else {
                        (
                            (strip * 7 + k as u32 * 3) as f32 * 0.37 - 3.0,
                            (strip * 5 + n as u32) as f32 * 0.29 - 2.0,
                        )
                    };
                    let mut reg = [[0u32; N]; 4];
                    for q in 0..4 {
                        for l in 0..4 {
                            let px = (2 * q + (l & 1)) as f32;
                            let py = (l >> 1) as f32;
                            let u = (ox + px * scale.0) / size[0] as f32;
                            let v = (oy + py * scale.1) / size[1] as f32;
                            reg[0][4 * q + l] = u.to_bits();
                            reg[1][4 * q + l] = v.to_bits();
                        }
                    }
                    // NaN, huge and tiny s or t in strips at the level's origin, where
                    // their taps (column or row 0 or the last) can share the window.
                    let special = [f32::NAN, -1e30, 1e-40, 3e9, f32::INFINITY, -0.0];
                    let offset = if strip < 12 {
                        let l = (strip as usize * 5 + 3) % N;
                        reg[strip as usize / 6][l] = special[strip as usize % 6].to_bits();
                        [0, 0]
                    } else {
                        [(strip % 5) as i32 - 2, (strip % 3) as i32 - 1]
                    };
                    let mask = match strip % 4 {
                        0 => 0x0ff0,
                        1 => 0x8001,
                        _ => 0xffff,
                    };
                    specialised += compare(
                        tex.clone(),
                        s.clone(),
                        NvOpcode::Tex,
                        &reg,
                        offset,
                        true,
                        mask,
                        9,
                    );
                }
                // fill_1080p's case: past the special lanes, every strip takes the
                // window but those at the seams.
                if k == 0 && n == 0 && crate::simd::detected() >= Isa::Avx512 {
                    let windows = crate::simd::WINDOWS16.with(|n| n.get()) - w0;
                    let pairs = crate::simd::LEVEL_PAIRS.with(|n| n.get()) - p0;
                    assert!(windows * 5 >= pairs * 4, "{wrap:?}: {windows} of {pairs}");
                    // The instruction's site takes its own window (`avx2::level16`, eight
                    // columns) as often: one site call a strip under AVX-512 as one pair.
                    let sites = crate::simd::LEVELS16.with(|n| n.get()) - l0;
                    assert!(sites * 5 >= pairs * 4, "{wrap:?}: {sites} of {pairs}");
                }
            }
        }
    }
    if crate::simd::detected() >= Isa::Avx512 {
        assert!(specialised > 0, "sample_nv never took the specialised path");
        let windows = crate::simd::WINDOWS16.with(|n| n.get()) - before;
        let pairs = crate::simd::LEVEL_PAIRS.with(|n| n.get()) - pairs;
        // The seams, the widest footprints and the smallest levels do not fit.
        assert!(windows > 0 && windows < pairs, "{windows} of {pairs}");
        // The site's window declines where `taps16`'s does; it then gathers the taps.
        let sites = crate::simd::LEVELS16.with(|n| n.get()) - levels16;
        let gathered = crate::simd::GATHERS16.with(|n| n.get()) - gathers16;
        assert!(sites > 0 && sites < pairs, "{sites} of {pairs}");
        assert!(gathered > 0, "the site's gathers never ran");
        // Both sides of the NaN test ran: the special lanes' calls canonicalise (each
        // gathering call gathers four taps).
        let finite = crate::simd::FINITE16.with(|n| n.get()) - finite16;
        let calls = sites + gathered / 4;
        assert!(finite > 0 && finite < calls, "{finite} of {calls}");
        // Channels the same in the whole window took one decode, others their lerps.
        let flat = crate::simd::FLAT16.with(|n| n.get()) - flat16;
        assert!(
            flat > 0 && flat < 4 * sites,
            "{flat} flat channels in {sites} windows"
        );
        let whole = crate::simd::FLAT_WINDOWS16.with(|n| n.get()) - flat_windows16;
        assert!(
            whole > 0 && whole < sites,
            "{whole} windows flat in all channels of {sites}"
        );
    } else {
        eprintln!("skipped: no AVX-512 on this CPU, no sixteen-lane window to check");
    }
}

/// A value of every magnitude: a random sign, exponent and mantissa, or a special one.
fn any_size() -> impl Strategy<Value = f32> {
    prop_oneof![
        6 => (any::<bool>(), -40i32..40, 1.0f32..2.0)
            .prop_map(|(neg, e, m)| if neg { -m } else { m } * 2f32.powi(e)),
        1 => prop::sample::select(vec![
            0.0f32, -0.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, f32::MIN_POSITIVE,
            1e-45, f32::MAX, 1.0, 0.5,
        ]),
        1 => any::<f32>(),
    ]
}

/// Coordinate registers whose quads have derivatives of every size (LOD from far below
/// the base level to far past the last, rho subnormal, infinite or NaN), z of every size
/// too (its derivative is scaled by 0: an infinite one makes rho NaN), w (the TXB/TXL
/// operand and TXP divisor) of every size.
fn lod_registers() -> impl Strategy<Value = [[u32; N]; 4]> {
    (
        prop::collection::vec((coord(), coord(), any_size(), any_size()), 4),
        prop::collection::vec(prop_oneof![3 => Just(0.25f32), 1 => any_size()], N),
        prop::collection::vec(prop_oneof![3 => lod_value(), 1 => any_size()], N),
        any::<bool>(),
    )
        .prop_map(|(quads, z, w, uniform_w)| {
            let w = if uniform_w { vec![w[0]; N] } else { w };
            quad_registers(&quads, &z, &w)
        })
}

/// [`plain_sampler`] with MIN_LOD, MAX_LOD and LOD_BIAS of every size some of the time,
/// and mostly mipmapped.
fn lod_sampler() -> impl Strategy<Value = SamplerState> {
    let lod = prop_oneof![3 => Just(None), 1 => any_size().prop_map(Some)];
    (
        plain_sampler(),
        (lod.clone(), lod.clone(), lod),
        prop::option::weighted(
            0.8,
            prop::sample::select(vec![Filter::Nearest, Filter::Linear]),
        ),
    )
        .prop_map(|(mut s, (min, max, bias), mip)| {
            s.min_lod = min.unwrap_or(s.min_lod);
            s.max_lod = max.unwrap_or(s.max_lod);
            s.lod_bias = bias.unwrap_or(s.lod_bias);
            if mip.is_some() {
                s.min_filter.mipmap = mip;
            }
            s
        })
}

/// An RGBA8 texture of up to 64x64 with a full mip chain (or a few levels).
fn mipmapped() -> impl Strategy<Value = Texture> {
    (0u32..7, 0u32..7, any::<bool>(), any::<u64>()).prop_map(|(lw, lh, full, seed)| {
        let (w, h) = (1u32 << lw, (1u32 << lh) + u32::from(lh == 3));
        let levels = if full {
            32 - w.max(h).leading_zeros()
        } else {
            2
        };
        let mut t = Texture::new(Target::T2D, Format::RGBA8, [w, h, 1], levels).expect("texture");
        let bytes: Vec<u8> = (0..w * h * 4)
            .map(|i| ((u64::from(i) ^ seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as u8)
            .collect();
        t.write_bytes(0, [0, 0, 0], [w, h, 1], &bytes)
            .expect("upload");
        t.generate_mipmaps(0).expect("mipmaps");
        t
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The vector LOD (rho, log2, bias, clamps, level choice) against the reference:
    /// derivatives and LOD state of every size, every mipmap mode, TEX/TXP/TXB/TXL in
    /// and outside fragment programs; the vector LOD ran.
    #[test]
    fn vector_lod_equals_reference(
        tex in mipmapped(),
        s in lod_sampler(),
        opcode in opcode(),
        reg in lod_registers(),
        fragment in any::<bool>(),
        mask in prop_oneof![3 => Just(0xffffu16), 1 => any::<u16>()],
    ) {
        let before = crate::simd::LOD_GROUPS.with(|n| n.get());
        let quads_before = crate::simd::LOD_QUADS.with(|n| n.get());
        let specialised =
            compare(tex, s.clone(), opcode, &reg, [0, 0], fragment, u64::from(mask), 0x7f80_0001);
        let lod_matters = s.min_filter.mipmap.is_some() || s.min_filter.filter != s.mag_filter;
        if specialised > 0 && lod_matters && mask != 0 && !s.srgb_decode {
            prop_assert!(crate::simd::LOD_GROUPS.with(|n| n.get()) > before);
            // Without a per-lane operand, levels are chosen once per quad.
            if matches!(opcode, NvOpcode::Tex | NvOpcode::Txp) {
                prop_assert!(crate::simd::LOD_QUADS.with(|n| n.get()) > quads_before);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// REPEAT or CLAMP_TO_EDGE on both axes with LINEAR filters: CLAMP_TO_EDGE, and
    /// REPEAT on power-of-two levels, run with the wrap fixed when compiled
    /// (`avx2::filter_as`), other levels with the wrap read at run time; all give the
    /// reference's bits for coordinates and derivatives of every size, offsets, TXB/TXL
    /// operands and partial masks.
    #[test]
    fn fixed_wrap_filter_equals_reference(
        tex in prop_oneof![mipmapped(), texture_of(vec![Format::RGBA8])],
        s in lod_sampler(),
        edge in any::<bool>(),
        opcode in opcode(),
        reg in prop_oneof![registers(), lod_registers()],
        offset in (-8i32..8, -8i32..8),
        fragment in any::<bool>(),
        mask in prop_oneof![3 => Just(0xffffu16), 1 => any::<u16>()],
    ) {
        let mut s = s;
        s.wrap = [if edge { crate::Wrap::ClampToEdge } else { crate::Wrap::Repeat }; 3];
        s.mag_filter = Filter::Linear;
        s.min_filter.filter = Filter::Linear;
        s.srgb_decode = false;
        let b = Bound::new(Arc::new(tex.clone()), s.clone());
        let fixed = b.rgba8.as_ref().map(|k| edge || k.pow2 == [true; 2]);
        compare(tex, s, opcode, &reg, [offset.0, offset.1], fragment, u64::from(mask), 3);
        // Which path ran is counted around one `sample_nv` call of its own, at the set
        // `compare` left forced on this thread (the widest this CPU has): `compare` also
        // ran the baseline set, which has no fixed-wrap filter to count.
        let before = crate::simd::FIXED_WRAP_FILTERS.with(|n| n.get());
        let mut out = [[3; N]; 4];
        let took = b.sample_nv(opcode, &reg, [offset.0, offset.1], fragment, u64::from(mask), &mut out);
        let ran = crate::simd::FIXED_WRAP_FILTERS.with(|n| n.get()) > before;
        if took && mask != 0 {
            prop_assert_eq!(ran, fixed == Some(true));
        }
    }
}

/// Trilinear lookups whose lanes read two levels, bilinear in both, run through
/// `avx2::lookup_two` (both filters in one kernel) with the reference's bits.
#[test]
fn two_levels_in_one_kernel() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut s = SamplerState::simple(Filter::Linear, crate::Wrap::Repeat);
    s.min_filter.mipmap = Some(Filter::Linear);
    let before = crate::simd::TWO_LEVELS.with(|n| n.get());
    for k in 0..64 {
        let tex = mipmapped()
            .new_tree(&mut runner)
            .expect("texture")
            .current();
        // Steps of ~2.8 texels of a 64-texel level: lambda ~1.5 there, less on smaller
        // textures.
        let d = 0.044 * (1.0 + (k % 4) as f32 * 0.3);
        let quads: Vec<_> = (0..4)
            .map(|q| (0.1 + 0.2 * q as f32, 0.7 - 0.1 * q as f32, d, d * 0.8))
            .collect();
        let reg = quad_registers(&quads, &[0.0; N], &[0.0; N]);
        compare(tex, s.clone(), NvOpcode::Tex, &reg, [0, 0], true, 0xffff, 0);
    }
    // Without AVX2 the reference path ran for every lookup: the comparisons above
    // still hold, but there is no two-level kernel whose run could be counted.
    if crate::simd::isa() < Isa::Avx2 {
        eprintln!("skipped: no AVX2 on this CPU, no two-level kernel to check");
        return;
    }
    assert!(crate::simd::TWO_LEVELS.with(|n| n.get()) > before);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Lookups of the base level with the bilinear filter take two groups at once
    /// (`avx2::lookup_level_pair`: decode and lerps in 512-bit vectors) where the CPU has
    /// AVX-512, with the reference's bits: every wrap (REPEAT and CLAMP_TO_EDGE fixed when
    /// compiled; the others read at run time, border taps included), coordinates of every
    /// size, offsets, partial masks.
    #[test]
    fn level_pairs_equal_reference(
        tex in prop_oneof![mipmapped(), texture_of(vec![Format::RGBA8])],
        wrap in prop::sample::select(vec![
            crate::Wrap::Repeat,
            crate::Wrap::ClampToEdge,
            crate::Wrap::ClampToBorder,
            crate::Wrap::MirroredRepeat,
            crate::Wrap::Clamp,
        ]),
        border in prop::array::uniform4(prop_oneof![Just(0.25f32), Just(f32::NAN), -2.0f32..2.0]),
        opcode in opcode(),
        reg in registers(),
        offset in (-8i32..8, -8i32..8),
        mask in prop_oneof![3 => Just(0xffffu16), 1 => any::<u16>()],
    ) {
        let mut s = SamplerState::simple(Filter::Linear, wrap);
        s.border = border.map(f32::to_bits);
        let b = Bound::new(Arc::new(tex.clone()), s.clone());
        let before = crate::simd::LEVEL_PAIRS.with(|n| n.get());
        let specialised =
            compare(tex, s, opcode, &reg, [offset.0, offset.1], true, u64::from(mask), 5);
        // AVX2 without AVX-512 (an AVX2-only CPU, GLEMU_SIMD=avx2) takes the groups one at
        // a time through the 256-bit kernel: `compare` checked its bits, this that it ran
        // (counted where the wrap is fixed when compiled) and the pair kernel did not.
        if force(Isa::Avx2) == Isa::Avx2 {
            let fixed = b.rgba8.as_ref().is_some_and(|k| super::fixed_wrap(k) != super::ANY_WRAP);
            let pairs = crate::simd::LEVEL_PAIRS.with(|n| n.get());
            let groups = crate::simd::FIXED_WRAP_FILTERS.with(|n| n.get());
            let mut out = [[5; N]; 4];
            if b.sample_nv(opcode, &reg, [offset.0, offset.1], true, u64::from(mask), &mut out) {
                prop_assert_eq!(crate::simd::LEVEL_PAIRS.with(|n| n.get()), pairs);
                let ran = crate::simd::FIXED_WRAP_FILTERS.with(|n| n.get()) > groups;
                prop_assert_eq!(ran, fixed && mask != 0);
            }
            force(Isa::Avx512);
        }
        if crate::simd::detected() < Isa::Avx512 {
            // The comparisons above still ran (the 256-bit kernel, baseline), but there is
            // no pair kernel whose run could be counted.
            static SAID: std::sync::Once = std::sync::Once::new();
            SAID.call_once(|| eprintln!("skipped: no AVX-512 on this CPU, no pair kernel to check"));
        } else if specialised > 0 && mask != 0 {
            prop_assert!(crate::simd::LEVEL_PAIRS.with(|n| n.get()) > before);
        }
    }
}
