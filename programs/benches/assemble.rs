//! Assembles the whole program corpus (piglit asmparsertest, real-world programs and the
//! front-end test programs); criterion reports programs per second.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glemu_programs::assemble;
use std::hint::black_box;
use std::path::Path;

fn corpus() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dirs = [
        root.join("../../shared/corpus/piglit/tests/asmparsertest/shaders/ARBvp1.0"),
        root.join("../../shared/corpus/piglit/tests/asmparsertest/shaders/ARBfp1.0"),
        root.join("../../shared/corpus/realworld"),
        root.join("tests/programs/valid"),
    ];
    let mut v = Vec::new();
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().and_then(|x| x.to_str()) == Some("txt") {
                if let Ok(t) = std::fs::read_to_string(&p) {
                    v.push(t);
                }
            }
        }
    }
    v
}

fn bench(c: &mut Criterion) {
    let progs = corpus();
    let bytes: usize = progs.iter().map(String::len).sum();
    let mut g = c.benchmark_group("assemble");
    g.throughput(Throughput::Elements(progs.len() as u64));
    g.bench_function(
        format!("corpus ({} programs, {bytes} bytes)", progs.len()),
        |b| {
            b.iter(|| {
                for p in &progs {
                    let _ = black_box(assemble(black_box(p), None));
                }
            })
        },
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
