//! Texture sampling throughput: bilinear, trilinear and 16x anisotropic lookups of an
//! RGBA8 256x256 mipmapped texture, 16 lanes (4 quads) per call, one core; each through
//! the per-lane reference path and through `execute` with every instruction set the CPU
//! has (`sample/bilinear/avx2`, ...), and through the per-draw `Bound` straight from
//! coordinate registers (`sample/bilinear/bound`; `trilinear_txb/bound` and
//! `trilinear_txl/bound` the LOD operands); `sample/magnified/bound` is fill_1080p's shape
//! (one level magnified, strips of quads, REPEAT), `sample/magnified_edge/bound` the same
//! with CLAMP_TO_EDGE. Each `bound` case has a `site` twin: the same lookups through the
//! instruction's per-draw `bound::Site`, the path compiled kernels take.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use glemu_textures::nv::NvOpcode;
use glemu_textures::simd::{detected, force, Isa};
use glemu_textures::{
    execute, execute_reference, Bound, Filter, Format, Lanes, LodMode, MinFilter, OpKind,
    SamplerState, Target, TexOp, Texture, Wrap,
};

const N: usize = 16;

fn texture() -> Texture {
    let size = 256u32;
    let mut t = Texture::new(Target::T2D, Format::RGBA8, [size, size, 1], 1).expect("texture");
    let bytes: Vec<u8> = (0..size * size * 4)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    t.write_bytes(0, [0, 0, 0], [size, size, 1], &bytes)
        .expect("upload");
    t.generate_mipmaps(0).expect("mipmaps");
    t
}

/// fill_1080p's texture: 256x256 RGBA8, squares of 32 texels in (0.9, 0.2, 0.1, 1.0) and
/// (0.1, 0.3, 0.9, 1.0).
fn checkerboard() -> Texture {
    let size = 256u32;
    let mut t = Texture::new(Target::T2D, Format::RGBA8, [size, size, 1], 1).expect("texture");
    let colours = [[230u8, 51, 26, 255], [26, 77, 230, 255]];
    let bytes: Vec<u8> = (0..size * size)
        .flat_map(|i| colours[(((i % size) >> 5) ^ ((i / size) >> 5)) as usize & 1])
        .collect();
    t.write_bytes(0, [0, 0, 0], [size, size, 1], &bytes)
        .expect("upload");
    t
}

/// Four quads spread over the texture, each pixel stepping `dx`/`dy` texels.
fn lanes(dx: f32, dy: f32, frame: u32) -> Lanes<N> {
    let mut l = Lanes::new();
    let base = (frame % 97) as f32 / 97.0;
    for q in 0..N / 4 {
        let s = base + q as f32 * 0.23;
        let t = base * 0.7 + q as f32 * 0.17;
        for (k, (ox, oy)) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
            .iter()
            .enumerate()
        {
            l.coord[0][q * 4 + k] = s + ox * dx / 256.0;
            l.coord[1][q * 4 + k] = t + oy * dy / 256.0;
        }
    }
    l
}

fn bench(c: &mut Criterion) {
    let tex = texture();
    let op = TexOp {
        kind: OpKind::Sample(LodMode::Implicit),
        target: Target::T2D,
        shadow: false,
        quad_derivatives: true,
    };
    let bilinear = SamplerState::simple(Filter::Linear, Wrap::Repeat);
    let mut trilinear = bilinear.clone();
    trilinear.min_filter = MinFilter {
        filter: Filter::Linear,
        mipmap: Some(Filter::Linear),
    };
    let mut aniso = trilinear.clone();
    aniso.max_anisotropy = 16.0;
    let nearest = SamplerState::simple(Filter::Nearest, Wrap::Repeat);
    let cases = [
        ("nearest", &nearest, 0.8f32, 0.8f32),
        ("bilinear", &bilinear, 0.8f32, 0.8f32),
        ("trilinear", &trilinear, 2.7, 2.3),
        ("aniso16", &aniso, 12.0, 1.0),
    ];
    let mut g = c.benchmark_group("sample");
    g.throughput(Throughput::Elements(N as u64));
    let mut paths = vec![("reference", None)];
    for isa in [Isa::Baseline, Isa::Avx2, Isa::Avx512] {
        if isa <= detected() {
            paths.push((
                match isa {
                    Isa::Baseline => "baseline",
                    Isa::Avx2 => "avx2",
                    Isa::Avx512 => "avx512",
                },
                Some(isa),
            ));
        }
    }
    for (name, s, dx, dy) in cases {
        let inputs: Vec<Lanes<N>> = (0..64).map(|f| lanes(dx, dy, f)).collect();
        let mut out = [[0u32; N]; 4];
        let mut i = 0usize;
        for (path, isa) in &paths {
            if let Some(isa) = isa {
                force(*isa);
            }
            let run = if isa.is_some() {
                execute::<N>
            } else {
                execute_reference::<N>
            };
            g.bench_function(format!("{name}/{path}"), |b| {
                b.iter(|| {
                    i = (i + 1) % inputs.len();
                    run(&tex, s, &op, &inputs[i], u64::MAX >> (64 - N), &mut out).expect("sample");
                    black_box(&out);
                })
            });
        }
    }
    // The per-draw prepared binding, straight from coordinate registers: TEX, and the
    // other inputs of the vector LOD, TXB (a per-lane bias on the quads' lambda) and TXL
    // (a per-lane lambda), trilinear.
    let tex = std::sync::Arc::new(tex);
    force(detected());
    let with_lod = [
        ("trilinear_txb", &trilinear, 2.7f32, 2.3f32, NvOpcode::Txb),
        ("trilinear_txl", &trilinear, 2.7, 2.3, NvOpcode::Txl),
    ];
    let bound_cases = cases
        .iter()
        .map(|&(name, s, dx, dy)| (name, s, dx, dy, NvOpcode::Tex))
        .chain(with_lod);
    for (name, s, dx, dy, opcode) in bound_cases {
        let bound = Bound::new(tex.clone(), s.clone());
        if !bound.specialised() || detected() < Isa::Avx2 {
            continue;
        }
        let regs: Vec<[[u32; N]; 4]> = (0..64)
            .map(|f| {
                let l = lanes(dx, dy, f);
                let mut r = [[0u32; N]; 4];
                r[0] = l.coord[0].map(f32::to_bits);
                r[1] = l.coord[1].map(f32::to_bits);
                r[3] = std::array::from_fn(|i| (0.2 + 0.17 * i as f32 - 0.01 * f as f32).to_bits());
                r
            })
            .collect();
        let mut out = [[0u32; N]; 4];
        let mask = u64::MAX >> (64 - N);
        // Both paths declined would time an early return.
        assert!(bound.sample_nv(opcode, &regs[0], [0, 0], true, mask, &mut out));
        let site = bound.site(opcode, [0, 0], true).expect("a site");
        assert!(
            site.sample(&regs[0], 0xffff, &mut out),
            "{name}: the site ran"
        );
        let mut i = 0usize;
        g.bench_function(format!("{name}/bound"), |b| {
            b.iter(|| {
                i = (i + 1) % regs.len();
                bound.sample_nv(opcode, &regs[i], [0, 0], true, mask, &mut out);
                black_box(&out);
            })
        });
        g.bench_function(format!("{name}/site"), |b| {
            b.iter(|| {
                i = (i + 1) % regs.len();
                site.sample(&regs[i], 0xffff, &mut out);
                black_box(&out);
            })
        });
    }
    // fill_1080p's lookups: a 256x256 RGBA8 texture (LINEAR, no mipmapping) magnified to
    // 0.53 texels a pixel, 2x8-pixel strips of quads walking a frame row by row; every
    // group of eight lanes reads one level with adjacent columns (the footprints permuted
    // out of whole rows). `magnified` wraps with REPEAT (fill_1080p's), `magnified_edge`
    // clamps to the edge (the frame maps to the texture once). Both read noise;
    // `magnified_checker` reads fill_1080p's own texture (squares of 32 texels in two
    // opaque colours), where most windows are flat.
    let mut edge = bilinear.clone();
    edge.wrap = [Wrap::ClampToEdge; 3];
    let checker = std::sync::Arc::new(checkerboard());
    for (name, s, scale, tex) in [
        ("magnified", &bilinear, 4.0f32, &tex),
        ("magnified_edge", &edge, 1.0, &tex),
        ("magnified_checker", &bilinear, 4.0, &checker),
    ] {
        let bound = Bound::new(tex.clone(), s.clone());
        if !bound.specialised() || detected() < Isa::Avx2 {
            continue;
        }
        let strips: Vec<[[u32; N]; 4]> = (0..4096u32)
            .map(|k| {
                let (x, y) = ((k % 240) * 8, (k / 240) * 2);
                let mut r = [[0u32; N]; 4];
                for q in 0..4 {
                    for l in 0..4 {
                        let px = (x + 2 * q + (l & 1)) as f32 + 0.5;
                        let py = (y + (l >> 1)) as f32 + 0.5;
                        let i = 4 * q as usize + l as usize;
                        r[0][i] = (px * scale / 1920.0).to_bits();
                        r[1][i] = (py * scale / 1080.0).to_bits();
                    }
                }
                r
            })
            .collect();
        let mut out = [[0u32; N]; 4];
        assert!(bound.sample_nv(NvOpcode::Tex, &strips[0], [0, 0], true, 0xffff, &mut out));
        let site = bound.site(NvOpcode::Tex, [0, 0], true).expect("a site");
        assert!(
            site.sample(&strips[0], 0xffff, &mut out),
            "{name}: the site ran"
        );
        let mut i = 0usize;
        g.bench_function(format!("{name}/bound"), |b| {
            b.iter(|| {
                i = (i + 1) % strips.len();
                bound.sample_nv(NvOpcode::Tex, &strips[i], [0, 0], true, 0xffff, &mut out);
                black_box(&out);
            })
        });
        g.bench_function(format!("{name}/site"), |b| {
            b.iter(|| {
                i = (i + 1) % strips.len();
                site.sample(&strips[i], 0xffff, &mut out);
                black_box(&out);
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
