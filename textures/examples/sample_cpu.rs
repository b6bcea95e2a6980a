//! Sampling throughput measured in this thread's CPU time (from
//! /proc/thread-self/schedstat), so the figure holds on a loaded machine where wall-clock
//! benchmarks are not per-core numbers. Run: `cargo run --release -p glemu-textures
//! --example sample_cpu`.

use glemu_textures::{
    execute, Filter, Format, Lanes, LodMode, MinFilter, OpKind, SamplerState, Target, TexOp,
    Texture, Wrap,
};

const N: usize = 16;

fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut tex = Texture::new(Target::T2D, Format::RGBA8, [256, 256, 1], 1)?;
    let bytes: Vec<u8> = (0..256u32 * 256 * 4)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    tex.write_bytes(0, [0, 0, 0], [256, 256, 1], &bytes)?;
    tex.generate_mipmaps(0)?;
    let op = TexOp {
        kind: OpKind::Sample(LodMode::Implicit),
        target: Target::T2D,
        shadow: false,
        quad_derivatives: true,
    };
    let nearest = SamplerState::simple(Filter::Nearest, Wrap::Repeat);
    let bilinear = SamplerState::simple(Filter::Linear, Wrap::Repeat);
    let mut trilinear = bilinear.clone();
    trilinear.min_filter = MinFilter {
        filter: Filter::Linear,
        mipmap: Some(Filter::Linear),
    };
    let mut aniso = trilinear.clone();
    aniso.max_anisotropy = 16.0;
    let cases = [
        ("nearest", &nearest, 0.8f32, 0.8f32),
        ("bilinear", &bilinear, 0.8, 0.8),
        ("trilinear", &trilinear, 2.7, 2.3),
        ("aniso16 (8 probes)", &aniso, 12.0, 1.5),
    ];
    // GLEMU_TEX_LANES=k measures batches with only the first k lanes active.
    let active: u32 = std::env::var("GLEMU_TEX_LANES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(N as u32);
    let active = active.clamp(1, N as u32);
    let mask = u64::MAX >> (64 - active);
    // GLEMU_TEX_CASE=name runs one case only.
    let only = std::env::var("GLEMU_TEX_CASE").ok();
    for (name, s, dx, dy) in cases {
        if only.as_deref().is_some_and(|o| !name.starts_with(o)) {
            continue;
        }
        let inputs: Vec<Lanes<N>> = (0..64).map(|f| lanes(dx, dy, f)).collect();
        let mut out = [[0u32; N]; 4];
        let iters = 200_000u64;
        let t0 = cpu_ns().ok_or("no schedstat")?;
        let w0 = std::time::Instant::now();
        let mut check = 0u32;
        for i in 0..iters {
            execute(&tex, s, &op, &inputs[(i % 64) as usize], mask, &mut out)?;
            check = check.wrapping_add(out[0][(i % 16) as usize]);
        }
        let cpu = (cpu_ns().ok_or("no schedstat")? - t0) as f64;
        let samples = (iters * active as u64) as f64;
        println!(
            "{name:20} {:7.1} Msamples/s per core ({:.1} ns/sample CPU, wall {:.2}s) [{check:x}]",
            samples / cpu * 1e3,
            cpu / samples,
            w0.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
