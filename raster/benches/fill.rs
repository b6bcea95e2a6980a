//! Fill rate: a full-screen 1920×1080 quad (2 triangles) with a trivial shader, at 1× and
//! 4× MSAA, on 1 thread and on all threads. Throughput is reported in pixels.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glemu_raster::*;

struct Flat {
    info: ShaderInfo,
    interpolate: bool,
}

impl FragmentShader for Flat {
    type Scratch = ();
    fn info(&self) -> &ShaderInfo {
        &self.info
    }
    fn new_scratch(&self) {}
    fn shade(
        &self,
        _: &mut (),
        b: &FragmentBatch<'_>,
        out: &mut FragmentOutputs,
    ) -> Result<(), ShaderError> {
        if self.interpolate {
            for ch in 0..4 {
                let mut v = [0u32; LANES];
                b.interpolate(ch, &mut v);
                out.color[0][ch] = v;
            }
        } else {
            let c = [0.25f32, 0.5, 0.75, 1.0];
            for (ch, v) in c.iter().enumerate() {
                out.color[0][ch] = [v.to_bits(); LANES];
            }
        }
        Ok(())
    }
}

fn fullscreen(w: f32, h: f32) -> DrawInput {
    let mut inp = DrawInput::new(4);
    let corners = [
        (0.0, 0.0, [1.0f32, 0.0, 0.0, 1.0]),
        (w, 0.0, [0.0, 1.0, 0.0, 1.0]),
        (w, h, [0.0, 0.0, 1.0, 1.0]),
        (0.0, h, [1.0, 1.0, 1.0, 1.0]),
    ];
    for (x, y, c) in corners {
        inp.push_vertex(
            WindowVertex {
                pos: [x, y, 0.5, 1.0],
                point_size: -1.0,
            },
            &c.map(f32::to_bits),
        );
    }
    inp.primitives.push(Primitive::triangle([0, 1, 2], 0, 0));
    inp.primitives.push(Primitive::triangle([0, 2, 3], 0, 1));
    inp
}

/// CPU time of this process (sum over its threads, from /proc/self/task/*/schedstat in
/// ns), so figures are not skewed by other processes sharing the machine.
fn cpu_time() -> std::time::Duration {
    let mut ns = 0u64;
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        for t in tasks.flatten() {
            let stat = std::fs::read_to_string(t.path().join("schedstat")).unwrap_or_default();
            ns += stat
                .split_whitespace()
                .next()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
        }
    }
    std::time::Duration::from_nanos(ns)
}

fn fill(c: &mut Criterion) {
    let (w, h) = (1920u32, 1080u32);
    let inp = fullscreen(w as f32, h as f32);
    let state = FixedFunctionState::default();
    let mut g = c.benchmark_group("fill_1920x1080");
    g.throughput(Throughput::Elements(u64::from(w) * u64::from(h)));
    g.sample_size(10);
    g.measurement_time(std::time::Duration::from_secs(3));
    for threads in [1usize, 0] {
        let Ok(r) = Rasterizer::new(threads) else {
            return;
        };
        for samples in [1u32, 4] {
            let Ok(mut fb) = Framebuffer::new(
                w,
                h,
                samples,
                &[ColorFormat::Rgba8Unorm],
                DepthFormat::D24S8,
            ) else {
                return;
            };
            for interpolate in [false, true] {
                let shader = Flat {
                    info: ShaderInfo::default(),
                    interpolate,
                };
                let name = format!(
                    "{}x_{}_{}t",
                    samples,
                    if interpolate { "interp" } else { "const" },
                    r.threads()
                );
                g.bench_function(format!("wall_{name}"), |b| {
                    b.iter(|| {
                        r.draw(&mut fb, &state, &inp, &shader)
                            .map(|s| s.samples_passed)
                    })
                });
                g.bench_function(format!("cpu_{name}"), |b| {
                    b.iter_custom(|iters| {
                        let t0 = cpu_time();
                        for _ in 0..iters {
                            let _ = r.draw(&mut fb, &state, &inp, &shader);
                        }
                        cpu_time().saturating_sub(t0)
                    })
                });
            }
        }
    }
    // The oracle's fill scenes run with GL_DEPTH_TEST: LEQUAL at one depth passes every
    // time, so every fragment is tested (early), shaded and written.
    let mut depth = FixedFunctionState::default();
    depth.depth_stencil.depth_test = true;
    depth.depth_stencil.depth_func = CompareFunc::LessEqual;
    if let (Ok(r), Ok(mut fb)) = (
        Rasterizer::new(1),
        Framebuffer::new(w, h, 1, &[ColorFormat::Rgba8Unorm], DepthFormat::D24S8),
    ) {
        let shader = Flat {
            info: ShaderInfo::default(),
            interpolate: true,
        };
        g.bench_function("cpu_1x_interp_depth_1t", |b| {
            b.iter_custom(|iters| {
                let t0 = cpu_time();
                for _ in 0..iters {
                    let _ = r.draw(&mut fb, &depth, &inp, &shader);
                }
                cpu_time().saturating_sub(t0)
            })
        });
    }
    g.finish();
}

/// An `n`×`n` grid of quads over the screen (2·n² small triangles, 4 varyings).
fn grid(w: f32, h: f32, n: usize) -> DrawInput {
    let mut inp = DrawInput::new(4);
    for j in 0..=n {
        for i in 0..=n {
            let (x, y) = (w * i as f32 / n as f32, h * j as f32 / n as f32);
            let c = [i as f32 / n as f32, j as f32 / n as f32, 0.5, 1.0];
            inp.push_vertex(
                WindowVertex {
                    pos: [x, y, 0.5, 1.0],
                    point_size: -1.0,
                },
                &c.map(f32::to_bits),
            );
        }
    }
    let idx = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    for j in 0..n {
        for i in 0..n {
            let id = (2 * (j * n + i)) as u32;
            inp.primitives.push(Primitive::triangle(
                [idx(i, j), idx(i + 1, j), idx(i + 1, j + 1)],
                0,
                id,
            ));
            inp.primitives.push(Primitive::triangle(
                [idx(i, j), idx(i + 1, j + 1), idx(i, j + 1)],
                0,
                id + 1,
            ));
        }
    }
    inp
}

fn small_triangles(c: &mut Criterion) {
    let (w, h, n) = (1920u32, 1080u32, 250usize);
    let inp = grid(w as f32, h as f32, n);
    let state = FixedFunctionState::default();
    let mut g = c.benchmark_group("grid_125k_tris");
    g.throughput(Throughput::Elements(inp.primitives.len() as u64));
    g.sample_size(10);
    g.measurement_time(std::time::Duration::from_secs(3));
    let Ok(r) = Rasterizer::new(1) else { return };
    let Ok(mut fb) = Framebuffer::new(w, h, 1, &[ColorFormat::Rgba8Unorm], DepthFormat::D24S8)
    else {
        return;
    };
    let shader = Flat {
        info: ShaderInfo::default(),
        interpolate: true,
    };
    g.bench_function("cpu_1x_interp_1t", |b| {
        b.iter_custom(|iters| {
            let t0 = cpu_time();
            for _ in 0..iters {
                let _ = r.draw(&mut fb, &state, &inp, &shader);
            }
            cpu_time().saturating_sub(t0)
        })
    });
    g.finish();
}

criterion_group!(benches, fill, small_triangles);
criterion_main!(benches);
