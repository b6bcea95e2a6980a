//! 16 lanes of each function: the vector forms (`lanes`, `pow_lanes`) against the scalar
//! ports lane by lane and the C library lane by lane (what compiled kernels called before).
//! `cargo bench -p glemu-math --bench lanes`
#![allow(clippy::unwrap_used)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use glemu_math::{lanes, pow_lanes, Func, LANES};

/// A function with its C library counterpart.
type WithLibm = (Func, fn(f32) -> f32);

fn args() -> [u32; LANES] {
    std::array::from_fn(|l| (l as f32 * 0.37 + 0.11).to_bits())
}

fn bench(c: &mut Criterion) {
    let x = args();
    let libm: [WithLibm; 4] = [
        (Func::Sin, f32::sin),
        (Func::Cos, f32::cos),
        (Func::Exp2, f32::exp2),
        (Func::Log2, f32::log2),
    ];
    for (f, lib) in libm {
        c.bench_function(&format!("{f:?}/vector"), |b| {
            b.iter(|| {
                let mut v = black_box(x);
                lanes(f, &mut v);
                v
            })
        });
        c.bench_function(&format!("{f:?}/port"), |b| {
            b.iter(|| black_box(x).map(|v| f.scalar()(f32::from_bits(v)).to_bits()))
        });
        c.bench_function(&format!("{f:?}/libm"), |b| {
            b.iter(|| black_box(x).map(|v| lib(f32::from_bits(v)).to_bits()))
        });
    }
    let y: [u32; LANES] = std::array::from_fn(|l| (l as f32 * 0.21 - 1.5).to_bits());
    c.bench_function("Pow/vector", |b| {
        b.iter(|| {
            let mut v = black_box(x);
            pow_lanes(&mut v, &y);
            v
        })
    });
    c.bench_function("Pow/libm", |b| {
        b.iter(|| {
            let v = black_box(x);
            std::array::from_fn::<u32, LANES, _>(|l| {
                f32::from_bits(v[l]).powf(f32::from_bits(y[l])).to_bits()
            })
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(1));
    targets = bench
}
criterion_main!(benches);
