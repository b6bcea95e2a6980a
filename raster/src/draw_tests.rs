//! Whole-draw tests: watertightness, fill rule, lines, points, MSAA, tests and blending.

use super::*;
use crate::color::ColorFormat;
use crate::error::ShaderError;
use crate::framebuffer::DepthFormat;
use crate::input::{Primitive, WindowVertex};
use crate::shader::{FragmentBatch, FragmentOutputs, InterpMode, ShaderInfo, VaryingInterp, LANES};
use crate::state::*;

/// Writes varyings 0..4 as the colour of output 0 (missing varyings: `fill`), optional
/// kill below `kill_below` of varying 0, optional depth from varying 1.
struct VaryShader {
    info: ShaderInfo,
    fill: [f32; 4],
    use_varyings: bool,
    centroid_out: bool,
    kill_below: Option<f32>,
    /// Takes `shade_strips` (the trait's default, over `shade`).
    strips: bool,
    /// Batches shaded, and those whose lanes are not whole quads of one primitive
    /// (the lane-packed path: `ShaderInfo::lanes_independent`).
    batches: std::sync::atomic::AtomicU64,
    packed: std::sync::atomic::AtomicU64,
}

impl VaryShader {
    fn constant(c: [f32; 4]) -> Self {
        VaryShader {
            info: ShaderInfo::default(),
            fill: c,
            use_varyings: false,
            centroid_out: false,
            kill_below: None,
            strips: false,
            batches: 0.into(),
            packed: 0.into(),
        }
    }
    fn with(info: ShaderInfo) -> Self {
        VaryShader {
            info,
            fill: [0.0, 0.0, 0.0, 1.0],
            use_varyings: true,
            centroid_out: false,
            kill_below: None,
            strips: false,
            batches: 0.into(),
            packed: 0.into(),
        }
    }
}

impl FragmentShader for VaryShader {
    type Scratch = u64;
    fn info(&self) -> &ShaderInfo {
        &self.info
    }
    fn shades_strips(&self) -> bool {
        self.strips
    }
    fn new_scratch(&self) -> u64 {
        0
    }
    fn shade(
        &self,
        calls: &mut u64,
        b: &FragmentBatch<'_>,
        out: &mut FragmentOutputs,
    ) -> Result<(), ShaderError> {
        *calls += 1;
        use std::sync::atomic::Ordering::Relaxed;
        self.batches.fetch_add(1, Relaxed);
        if !quad_shaped(b) {
            self.packed.fetch_add(1, Relaxed);
        }
        let mut v = [0u32; LANES];
        for ch in 0..4 {
            if self.use_varyings && ch < b.varyings() {
                if self.centroid_out {
                    b.interpolate_at_centroid(ch, &mut v);
                } else {
                    b.interpolate(ch, &mut v);
                }
                out.color[0][ch] = v;
            } else {
                out.color[0][ch] = [self.fill[ch].to_bits(); LANES];
            }
        }
        if let Some(t) = self.kill_below {
            for lane in 0..LANES {
                if f32::from_bits(out.color[0][0][lane]) < t {
                    out.kill |= 1 << lane;
                }
            }
        }
        if self.info.writes_depth {
            out.depth = out.color[0][1].map(f32::from_bits);
        }
        Ok(())
    }
}

/// Whether every quad of `b` in use is a 2×2 quad of one primitive.
fn quad_shaped(b: &FragmentBatch<'_>) -> bool {
    let (x, y, ids) = (b.pixel_x(), b.pixel_y(), b.primitive_ids());
    (0..b.quads() * 4).all(|l| {
        let q = l & !3;
        x[l] == x[q] + (l & 1) as i32 && y[l] == y[q] + ((l >> 1) & 1) as i32 && ids[l] == ids[q]
    })
}

/// Random triangles of about `size` pixels or less (many cover one pixel or none) over
/// `w`×`h`, with random depth and 1/w planes and four colour varyings.
fn small_triangles(w: f32, h: f32, n: usize, size: f32, seed: u64) -> DrawInput {
    let mut rng = Lcg(seed);
    let mut inp = DrawInput::new(4);
    for i in 0..n {
        let (cx, cy) = (rng.next() * w, rng.next() * h);
        let flat_w = rng.next() < 0.5;
        let iw = 0.5 + rng.next();
        let mut v = [0u32; 3];
        for k in &mut v {
            let col = [rng.next() * 1.2 - 0.1, rng.next(), rng.next(), rng.next()];
            *k = inp.push_vertex(
                WindowVertex {
                    pos: [
                        cx + (rng.next() - 0.5) * size,
                        cy + (rng.next() - 0.5) * size,
                        rng.next() * 1.2 - 0.1,
                        if flat_w { iw } else { 0.5 + rng.next() },
                    ],
                    point_size: -1.0,
                },
                &col.map(f32::to_bits),
            );
        }
        inp.primitives.push(Primitive::triangle(v, 0, i as u32));
    }
    inp
}

/// A stateless shader made from a closure, for one-off test shaders.
struct FnShader<F>(ShaderInfo, F);

impl<F> FragmentShader for FnShader<F>
where
    F: Fn(&FragmentBatch<'_>, &mut FragmentOutputs) -> Result<(), ShaderError> + Sync,
{
    type Scratch = ();
    fn info(&self) -> &ShaderInfo {
        &self.0
    }
    fn new_scratch(&self) {}
    fn shade(
        &self,
        _: &mut (),
        b: &FragmentBatch<'_>,
        out: &mut FragmentOutputs,
    ) -> Result<(), ShaderError> {
        (self.1)(b, out)
    }
}

fn fb(w: u32, h: u32, samples: u32, f: ColorFormat) -> Framebuffer {
    Framebuffer::new(w, h, samples, &[f], DepthFormat::D24S8).unwrap_or_else(|e| panic!("{e}"))
}

fn vtx(x: f32, y: f32) -> WindowVertex {
    WindowVertex {
        pos: [x, y, 0.5, 1.0],
        point_size: -1.0,
    }
}

/// SRC_ALPHA, ONE_MINUS_SRC_ALPHA blending on attachment 0.
fn alpha_blended() -> FixedFunctionState {
    let mut st = FixedFunctionState::default();
    st.blend.targets[0] = BlendTarget {
        enabled: true,
        src_rgb: BlendFactor::SrcAlpha,
        dst_rgb: BlendFactor::OneMinusSrcAlpha,
        ..Default::default()
    };
    st
}

fn additive() -> FixedFunctionState {
    let mut st = FixedFunctionState::default();
    st.blend.targets[0] = BlendTarget {
        enabled: true,
        src_rgb: BlendFactor::One,
        dst_rgb: BlendFactor::One,
        src_alpha: BlendFactor::One,
        dst_alpha: BlendFactor::One,
        ..Default::default()
    };
    st
}

fn draw(
    r: &Rasterizer,
    f: &mut Framebuffer,
    st: &FixedFunctionState,
    inp: &DrawInput,
    s: &VaryShader,
) -> DrawStats {
    r.draw(f, st, inp, s).unwrap_or_else(|e| panic!("{e}"))
}

/// Deterministic pseudo-random numbers in [0, 1).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 40) as f32) / (1u64 << 24) as f32
    }
}

fn fan(cx: f32, cy: f32, n: usize, radius: f32) -> DrawInput {
    let mut inp = DrawInput::new(0);
    let c = inp.push_vertex(vtx(cx, cy), &[]);
    let first = inp.vertices.len() as u32;
    for i in 0..n {
        let a = i as f32 / n as f32 * std::f32::consts::TAU;
        inp.push_vertex(vtx(cx + radius * a.cos(), cy + radius * a.sin()), &[]);
    }
    for i in 0..n as u32 {
        let j = (i + 1) % n as u32;
        inp.primitives
            .push(Primitive::triangle([c, first + i, first + j], 2, i));
    }
    inp
}

/// A jittered grid covering [-20, w+20]×[-20, h+20], split with random diagonals and
/// random vertex order (both windings).
fn random_mesh(w: f32, h: f32, n: usize, seed: u64) -> DrawInput {
    let mut rng = Lcg(seed);
    let mut inp = DrawInput::new(4);
    let (sx, sy) = ((w + 40.0) / n as f32, (h + 40.0) / n as f32);
    for j in 0..=n {
        for i in 0..=n {
            let border = i == 0 || j == 0 || i == n || j == n;
            let (jx, jy) = if border {
                (0.0, 0.0)
            } else {
                (rng.next() - 0.5, rng.next() - 0.5)
            };
            let x = -20.0 + (i as f32 + jx * 0.4) * sx;
            let y = -20.0 + (j as f32 + jy * 0.4) * sy;
            let col = [rng.next(), rng.next(), rng.next(), rng.next()].map(f32::to_bits);
            inp.push_vertex(
                WindowVertex {
                    pos: [x, y, rng.next(), 0.5 + rng.next()],
                    point_size: -1.0,
                },
                &col,
            );
        }
    }
    let idx = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    let mut id = 0;
    for j in 0..n {
        for i in 0..n {
            let (a, b, c, d) = (idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1));
            let tris = if rng.next() < 0.5 {
                [[a, b, c], [a, c, d]]
            } else {
                [[a, b, d], [b, c, d]]
            };
            for mut t in tris {
                if rng.next() < 0.5 {
                    t.swap(1, 2);
                }
                inp.primitives.push(Primitive::triangle(t, 0, id));
                id += 1;
            }
        }
    }
    inp
}

fn assert_all_samples(f: &Framebuffer, want: f32) {
    for y in 0..f.height() {
        for x in 0..f.width() {
            for s in 0..f.samples() {
                let v = f.read_sample(0, x, y, s).unwrap_or([-1.0; 4]);
                assert_eq!(v[0], want, "pixel ({x},{y}) sample {s}");
            }
        }
    }
}

#[test]
fn fan_is_watertight_1x_and_4x() {
    let r = Rasterizer::new(2).unwrap_or_else(|e| panic!("{e}"));
    for samples in [1, 4] {
        let mut f = fb(150, 130, samples, ColorFormat::Rgba32F);
        let inp = fan(71.3, 64.7, 37, 400.0);
        let stats = draw(
            &r,
            &mut f,
            &additive(),
            &inp,
            &VaryShader::constant([1.0, 0.0, 0.0, 1.0]),
        );
        assert_all_samples(&f, 1.0);
        assert_eq!(stats.samples_passed, 150 * 130 * u64::from(samples));
    }
}

#[test]
fn fan_through_pixel_centres_is_watertight() {
    // Centre and rim on exact pixel centres: at 1× many centres lie exactly on the
    // horizontal, vertical and diagonal edges; 4× checks the same mesh per sample.
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let mut inp = DrawInput::new(0);
    let c = inp.push_vertex(vtx(32.5, 32.5), &[]);
    let rim = [
        (-40.0, -40.0),
        (32.5, -40.0),
        (100.0, -40.0),
        (100.0, 32.5),
        (100.0, 100.0),
        (32.5, 100.0),
        (-40.0, 100.0),
        (-40.0, 32.5),
    ];
    for &(x, y) in &rim {
        inp.push_vertex(vtx(x, y), &[]);
    }
    for i in 0..8u32 {
        inp.primitives
            .push(Primitive::triangle([c, 1 + i, 1 + (i + 1) % 8], 0, i));
    }
    for samples in [1, 4] {
        let mut f = fb(64, 64, samples, ColorFormat::Rgba32F);
        draw(
            &r,
            &mut f,
            &additive(),
            &inp,
            &VaryShader::constant([1.0; 4]),
        );
        assert_all_samples(&f, 1.0);
    }
}

#[test]
fn random_mesh_is_watertight_1x_and_4x() {
    let r = Rasterizer::new(2).unwrap_or_else(|e| panic!("{e}"));
    for (samples, seed) in [(1, 7), (4, 11), (1, 12345)] {
        let mut f = fb(133, 97, samples, ColorFormat::Rgba32F);
        let inp = random_mesh(133.0, 97.0, 9, seed);
        draw(
            &r,
            &mut f,
            &additive(),
            &inp,
            &VaryShader::constant([1.0, 0.0, 0.0, 1.0]),
        );
        assert_all_samples(&f, 1.0);
    }
}

#[test]
fn tiny_triangles_cover_the_centres_their_edges_hold() {
    // Triangles within 2.6 pixels (most take the tiny-region path, some straddle quads
    // and tiles), counted per pixel by additive blending, against every pixel centre
    // tested with the set-up edges.
    let (w, h) = (150u32, 140u32);
    let mut rng = Lcg(99);
    let mut inp = DrawInput::new(0);
    for id in 0..3000 {
        let (cx, cy) = (
            rng.next() * (w as f32 + 4.0) - 2.0,
            rng.next() * (h as f32 + 4.0) - 2.0,
        );
        let mut t = [0u32; 3];
        for v in t.iter_mut() {
            // Half the vertices on quarter pixels, where centres lie on edges.
            let mut p = [cx + rng.next() * 2.6, cy + rng.next() * 2.6];
            if rng.next() < 0.5 {
                p = p.map(|c| (c * 4.0).round() / 4.0);
            }
            *v = inp.push_vertex(vtx(p[0], p[1]), &[]);
        }
        inp.primitives.push(Primitive::triangle(t, 0, id));
    }
    let st = additive();
    let target = Target {
        width: w,
        height: h,
        depth_format: DepthFormat::D24S8,
        multisample: false,
    };
    let set = crate::setup::setup_draw(&inp, &st, &ShaderInfo::default(), target)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut want = vec![0u32; (w * h) as usize];
    for p in &set.prims {
        for y in 0..h as i64 {
            for x in 0..w as i64 {
                let (sx, sy) = (x * 256 + 128, y * 256 + 128);
                if p.edges().iter().all(|e| e.at(sx, sy) >= 0) {
                    want[(y * w as i64 + x) as usize] += 1;
                }
            }
        }
    }
    let r = Rasterizer::new(2).unwrap_or_else(|e| panic!("{e}"));
    let mut f = fb(w, h, 1, ColorFormat::Rgba32F);
    draw(
        &r,
        &mut f,
        &st,
        &inp,
        &VaryShader::constant([1.0, 0.0, 0.0, 1.0]),
    );
    let mut got = vec![0u32; (w * h) as usize];
    for y in 0..h {
        for x in 0..w {
            got[(y * w + x) as usize] = f.read_sample(0, x, y, 0).unwrap_or([0.0; 4])[0] as u32;
        }
    }
    assert!(
        want.iter().sum::<u32>() > 1000,
        "the triangles cover pixels"
    );
    assert_eq!(got, want);
}

#[test]
fn identical_bytes_at_one_two_and_eight_threads() {
    let mut st = alpha_blended();
    st.depth_stencil.depth_test = true;
    st.depth_stencil.depth_func = CompareFunc::LessEqual;
    let info = ShaderInfo::default();
    let shader = VaryShader::with(info);
    let mut images = Vec::new();
    // The last mesh has ~72,000 triangles: many chunks and several waves of them at
    // every thread count.
    let meshes: Vec<DrawInput> = [(13, 1), (13, 2), (13, 3), (190, 4)]
        .iter()
        .map(|&(n, seed)| random_mesh(300.0, 200.0, n, seed))
        .collect();
    assert!(meshes[3].primitives.len() > 32 * crate::CHUNK_PRIMS);
    for threads in [1, 2, 8] {
        let r = Rasterizer::new(threads).unwrap_or_else(|e| panic!("{e}"));
        let mut f = fb(300, 200, 4, ColorFormat::Rgba8Unorm);
        // Overlapping meshes so order matters.
        for m in &meshes {
            draw(&r, &mut f, &st, m, &shader);
        }
        images.push(f);
    }
    assert!(
        images[0] == images[1],
        "images differ between 1 and 2 threads"
    );
    assert!(
        images[0] == images[2],
        "images differ between 1 and 8 threads"
    );
}

/// Which pixels of a 1× RGBA32F framebuffer have red ≥ 0.5.
fn covered(f: &Framebuffer) -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    for y in 0..f.height() {
        for x in 0..f.width() {
            if f.read_sample(0, x, y, 0).unwrap_or([0.0; 4])[0] >= 0.5 {
                v.push((x, y));
            }
        }
    }
    v
}

#[test]
fn fill_rule_left_and_bottom_edges_own_ties() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    // Square with corners on pixel centres (1.5,1.5)-(4.5,4.5) as two triangles.
    let mut f = fb(8, 8, 1, ColorFormat::Rgba32F);
    let mut inp = DrawInput::new(0);
    for (x, y) in [(1.5, 1.5), (4.5, 1.5), (4.5, 4.5), (1.5, 4.5)] {
        inp.push_vertex(vtx(x, y), &[]);
    }
    inp.primitives.push(Primitive::triangle([0, 1, 2], 0, 0));
    inp.primitives.push(Primitive::triangle([0, 2, 3], 0, 1));
    draw(
        &r,
        &mut f,
        &additive(),
        &inp,
        &VaryShader::constant([1.0; 4]),
    );
    // Left column x=1 and bottom row y=1 are in; right x=4 and top y=4 are out.
    let mut want = Vec::new();
    for y in 1..4 {
        for x in 1..4 {
            want.push((x, y));
        }
    }
    assert_eq!(covered(&f), want);
    // The shared diagonal is covered once (additive blend would show 2).
    assert_eq!(f.read_sample(0, 2, 2, 0).map(|c| c[0]), Some(1.0));
}

#[test]
fn culling_and_front_face() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let mut inp = DrawInput::new(0);
    for (x, y) in [(0.0, 0.0), (8.0, 0.0), (0.0, 8.0)] {
        inp.push_vertex(vtx(x, y), &[]);
    }
    inp.primitives.push(Primitive::triangle([0, 1, 2], 0, 0)); // CCW
    let mut st = FixedFunctionState::default();
    st.raster.cull = CullMode::Back;
    let mut f = fb(8, 8, 1, ColorFormat::Rgba32F);
    // Centres with i + j <= 6; the hypotenuse through centres i + j = 7 is a right edge.
    assert_eq!(
        draw(&r, &mut f, &st, &inp, &VaryShader::constant([1.0; 4])).samples_passed,
        28
    );
    st.raster.front_face = FrontFace::Cw;
    let mut f = fb(8, 8, 1, ColorFormat::Rgba32F);
    assert_eq!(
        draw(&r, &mut f, &st, &inp, &VaryShader::constant([1.0; 4])).samples_passed,
        0
    );
}

fn line_pixels(a: (f32, f32), b: (f32, f32), width: f32) -> Vec<(u32, u32)> {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let mut f = fb(16, 16, 1, ColorFormat::Rgba32F);
    let mut inp = DrawInput::new(0);
    inp.push_vertex(vtx(a.0, a.1), &[]);
    inp.push_vertex(vtx(b.0, b.1), &[]);
    inp.primitives.push(Primitive::line(0, 1, 1, 0));
    let mut st = additive();
    st.raster.line_width = width;
    draw(&r, &mut f, &st, &inp, &VaryShader::constant([1.0; 4]));
    covered(&f)
}

#[test]
fn lines_follow_diamond_exit() {
    assert_eq!(
        line_pixels((1.5, 2.5), (5.5, 2.5), 1.0),
        vec![(1, 2), (2, 2), (3, 2), (4, 2)]
    );
    // Reverse direction: start pixel drawn, end pixel not.
    assert_eq!(
        line_pixels((5.5, 2.5), (1.5, 2.5), 1.0),
        vec![(2, 2), (3, 2), (4, 2), (5, 2)]
    );
    // Vertical (y-major).
    assert_eq!(
        line_pixels((3.5, 1.5), (3.5, 4.5), 1.0),
        vec![(3, 1), (3, 2), (3, 3)]
    );
    // Diagonal: one pixel per column.
    let d = line_pixels((0.5, 0.5), (6.5, 3.5), 1.0);
    assert_eq!(d.len(), 6);
    let mut cols: Vec<u32> = d.iter().map(|p| p.0).collect();
    cols.sort_unstable();
    assert_eq!(cols, vec![0, 1, 2, 3, 4, 5]);
    // Width 3: three rows per column.
    let w = line_pixels((1.5, 5.5), (4.5, 5.5), 3.0);
    assert_eq!(w.len(), 9);
    assert!(w
        .iter()
        .all(|p| (4..=6).contains(&p.1) && (1..=3).contains(&p.0)));
}

#[test]
fn connected_lines_share_no_pixel() {
    // A strip: the joint pixel belongs to exactly one segment.
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let mut f = fb(16, 16, 1, ColorFormat::Rgba32F);
    let mut inp = DrawInput::new(0);
    for (x, y) in [(1.5, 1.5), (6.5, 3.5), (12.5, 2.5)] {
        inp.push_vertex(vtx(x, y), &[]);
    }
    inp.primitives.push(Primitive::line(0, 1, 1, 0));
    inp.primitives.push(Primitive::line(1, 2, 1, 1));
    draw(
        &r,
        &mut f,
        &additive(),
        &inp,
        &VaryShader::constant([1.0; 4]),
    );
    for y in 0..16 {
        for x in 0..16 {
            let v = f.read_sample(0, x, y, 0).unwrap_or([0.0; 4])[0];
            assert!(v <= 1.0, "pixel ({x},{y}) drawn twice");
        }
    }
    assert_eq!(covered(&f).len(), 11);
}

#[test]
fn points_sizes_and_sprite_coords() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let mut inp = DrawInput::new(0);
    inp.push_vertex(vtx(5.5, 5.5), &[]);
    inp.push_vertex(
        WindowVertex {
            pos: [10.5, 10.5, 0.5, 1.0],
            point_size: 3.0,
        },
        &[],
    );
    inp.primitives.push(Primitive::point(0, 0));
    inp.primitives.push(Primitive::point(1, 1));
    let mut f = fb(16, 16, 1, ColorFormat::Rgba32F);
    draw(
        &r,
        &mut f,
        &additive(),
        &inp,
        &VaryShader::constant([1.0; 4]),
    );
    let mut want = vec![(5, 5)];
    for y in 9..12 {
        for x in 9..12 {
            want.push((x, y));
        }
    }
    want.sort_by_key(|p| (p.1, p.0));
    assert_eq!(covered(&f), want);

    // Sprite coordinates: 4×4 sprite at (8, 8); pixel (6, 9) centre → s = 1/8, t (upper
    // left origin) = 0.5 - 1.5/4 = 1/8.
    let pc_shader = FnShader(
        ShaderInfo::default(),
        |b: &FragmentBatch<'_>, out: &mut FragmentOutputs| {
            let mut pc = [[0; LANES]; 2];
            b.point_coord(&mut pc);
            out.color[0][0] = pc[0];
            out.color[0][1] = pc[1];
            Ok(())
        },
    );
    let mut inp = DrawInput::new(0);
    inp.push_vertex(
        WindowVertex {
            pos: [8.0, 8.0, 0.5, 1.0],
            point_size: 4.0,
        },
        &[],
    );
    inp.primitives.push(Primitive::point(0, 0));
    let mut st = FixedFunctionState::default();
    st.raster.point_sprite = true;
    let mut f = fb(16, 16, 1, ColorFormat::Rgba32F);
    r.draw(&mut f, &st, &inp, &pc_shader)
        .unwrap_or_else(|e| panic!("{e}"));
    let v = f.read_sample(0, 6, 9, 0).unwrap_or_default();
    assert_eq!((v[0], v[1]), (0.125, 0.125));
    st.raster.point_sprite_origin = PointSpriteOrigin::LowerLeft;
    r.draw(&mut f, &st, &inp, &pc_shader)
        .unwrap_or_else(|e| panic!("{e}"));
    let v = f.read_sample(0, 6, 9, 0).unwrap_or_default();
    assert_eq!((v[0], v[1]), (0.125, 0.875));
}

/// Shader facts for one varying interpolated with `mode` at `location`.
fn one_varying(mode: InterpMode, location: InterpLocation) -> ShaderInfo {
    ShaderInfo {
        varyings: vec![VaryingInterp { mode, location }],
        ..Default::default()
    }
}

/// `inp` drawn into a 4×4, 4-sample float target by a shader writing its varyings.
fn shade_4x(r: &Rasterizer, inp: &DrawInput, info: ShaderInfo) -> Framebuffer {
    let mut f = fb(4, 4, 4, ColorFormat::Rgba32F);
    draw(
        r,
        &mut f,
        &FixedFunctionState::default(),
        inp,
        &VaryShader::with(info),
    );
    f
}

/// Triangle covering the left part of pixel (0,0) with a varying equal to window x.
fn x_ramp_triangle(edge_x: f32) -> DrawInput {
    let mut inp = DrawInput::new(1);
    for (x, y) in [(-10.0, -10.0), (edge_x, -10.0), (edge_x, 10.0)] {
        inp.push_vertex(vtx(x, y), &[x.to_bits()]);
    }
    inp.push_vertex(vtx(-10.0, 10.0), &[(-10.0f32).to_bits()]);
    inp.primitives.push(Primitive::triangle([0, 1, 2], 0, 0));
    inp.primitives.push(Primitive::triangle([0, 2, 3], 0, 1));
    inp
}

#[test]
fn msaa_coverage_per_sample_and_sample_mask() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    // Vertical edge at x = 0.5: of the 4× samples (.375,.125) (.875,.375) (.125,.625)
    // (.625,.875) only 0 and 2 are left of it.
    let inp = x_ramp_triangle(0.5);
    let mut f = fb(4, 4, 4, ColorFormat::Rgba32F);
    let st = additive();
    draw(&r, &mut f, &st, &inp, &VaryShader::constant([1.0; 4]));
    let got: Vec<f32> = (0..4)
        .map(|s| f.read_sample(0, 0, 0, s).unwrap_or_default()[0])
        .collect();
    assert_eq!(got, vec![1.0, 0.0, 1.0, 0.0]);
    assert_eq!(f.read_pixel(0, 0, 0).map(|p| p[0]), Some(0.5));
    // Sample mask 0b0110 leaves only sample 2.
    let mut f = fb(4, 4, 4, ColorFormat::Rgba32F);
    let mut st = additive();
    st.multisample.sample_mask = 0b0110;
    draw(&r, &mut f, &st, &inp, &VaryShader::constant([1.0; 4]));
    let got: Vec<f32> = (0..4)
        .map(|s| f.read_sample(0, 0, 0, s).unwrap_or_default()[0])
        .collect();
    assert_eq!(got, vec![0.0, 0.0, 1.0, 0.0]);
    // GL_MULTISAMPLE off: the centre (.5,.5) is on the edge, which is a right edge here
    // → not covered; at 0.6 it is, and all samples are written.
    let mut st = additive();
    st.multisample.enabled = false;
    let mut f = fb(4, 4, 4, ColorFormat::Rgba32F);
    draw(&r, &mut f, &st, &inp, &VaryShader::constant([1.0; 4]));
    assert_eq!(f.read_pixel(0, 0, 0).map(|p| p[0]), Some(0.0));
    draw(
        &r,
        &mut f,
        &st,
        &x_ramp_triangle(0.6),
        &VaryShader::constant([1.0; 4]),
    );
    assert_eq!(f.read_pixel(0, 0, 0).map(|p| p[0]), Some(1.0));
}

#[test]
fn centroid_uses_first_covered_sample() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let inp = x_ramp_triangle(0.5);
    let info = one_varying(InterpMode::NoPerspective, InterpLocation::Centroid);
    let f = shade_4x(&r, &inp, info.clone());
    // Partially covered pixel (0,0): first covered sample is 0 at x = 0.375.
    let v = f.read_sample(0, 0, 0, 0).unwrap_or_default()[0];
    assert!((v - 0.375).abs() < 1e-5, "{v}");
    // Fully covered pixel... none here at x>0; use the centre mode for comparison.
    let info_c = one_varying(InterpMode::NoPerspective, InterpLocation::Center);
    let f = shade_4x(&r, &inp, info_c);
    let v = f.read_sample(0, 0, 0, 0).unwrap_or_default()[0];
    assert!((v - 0.5).abs() < 1e-5, "{v}");
    // Fully covered pixel with centroid = centre.
    let inp = x_ramp_triangle(3.0);
    let f = shade_4x(&r, &inp, info);
    let v = f.read_sample(0, 1, 1, 0).unwrap_or_default()[0];
    assert!((v - 1.5).abs() < 1e-5, "{v}");
}

#[test]
fn per_sample_shading_evaluates_at_samples() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let inp = x_ramp_triangle(3.0);
    let info = one_varying(InterpMode::NoPerspective, InterpLocation::Sample);
    let f = shade_4x(&r, &inp, info);
    for (s, want) in [0.375, 0.875, 0.125, 0.625].iter().enumerate() {
        let v = f.read_sample(0, 1, 2, s as u32).unwrap_or_default()[0];
        assert!((v - (1.0 + want)).abs() < 1e-5, "sample {s}: {v}");
    }
    // Min sample shading does the same without a SAMPLE varying.
    let mut st = FixedFunctionState::default();
    st.multisample.sample_shading = Some(1.0);
    let info = one_varying(InterpMode::NoPerspective, InterpLocation::Center);
    let mut f = fb(4, 4, 4, ColorFormat::Rgba32F);
    draw(&r, &mut f, &st, &inp, &VaryShader::with(info));
    let v = f.read_sample(0, 1, 2, 1).unwrap_or_default()[0];
    assert!((v - 1.875).abs() < 1e-5, "{v}");
}

#[test]
fn perspective_correct_interpolation() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    // Left side w = 1, right side w = 4; attribute 0 → 1 left to right. At window x the
    // screen fraction f gives attr = (f / 4) / ((1 - f) + f / 4).
    let mut inp = DrawInput::new(1);
    let v = |x: f32, y: f32, iw: f32, a: f32| {
        (
            WindowVertex {
                pos: [x, y, 0.5, iw],
                point_size: -1.0,
            },
            a,
        )
    };
    for (p, a) in [
        v(0.0, 0.0, 1.0, 0.0),
        v(16.0, 0.0, 0.25, 1.0),
        v(16.0, 16.0, 0.25, 1.0),
        v(0.0, 16.0, 1.0, 0.0),
    ] {
        inp.push_vertex(p, &[a.to_bits()]);
    }
    inp.primitives.push(Primitive::triangle([0, 1, 2], 0, 0));
    inp.primitives.push(Primitive::triangle([0, 2, 3], 0, 1));
    let mut f = fb(16, 16, 1, ColorFormat::Rgba32F);
    draw(
        &r,
        &mut f,
        &FixedFunctionState::default(),
        &inp,
        &VaryShader::with(ShaderInfo::default()),
    );
    for x in [0u32, 5, 8, 15] {
        let fr = (x as f32 + 0.5) / 16.0;
        let want = (fr / 4.0) / ((1.0 - fr) + fr / 4.0);
        let got = f.read_sample(0, x, 7, 0).unwrap_or_default()[0];
        assert!((got - want).abs() < 1e-5, "x={x}: {got} vs {want}");
    }
}

#[test]
fn flat_takes_provoking_vertex_bits() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let mut inp = DrawInput::new(1);
    for (i, (x, y)) in [(0.0, 0.0), (8.0, 0.0), (0.0, 8.0)].iter().enumerate() {
        inp.push_vertex(vtx(*x, *y), &[0xdead_0000 + i as u32]);
    }
    inp.primitives.push(Primitive::triangle([0, 1, 2], 2, 0));
    let info = one_varying(InterpMode::Flat, InterpLocation::Center);
    let mut f = Framebuffer::new(8, 8, 1, &[ColorFormat::Rgba32Ui], DepthFormat::D24S8)
        .unwrap_or_else(|e| panic!("{e}"));
    draw(
        &r,
        &mut f,
        &FixedFunctionState::default(),
        &inp,
        &VaryShader::with(info),
    );
    assert_eq!(
        f.read_sample_raw(0, 1, 1, 0).map(|c| c[0]),
        Some(0xdead_0002)
    );
}

fn quad(inp: &mut DrawInput, x0: f32, y0: f32, x1: f32, y1: f32, z: f32, a: [f32; 4]) {
    let base = inp.vertices.len() as u32;
    for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] {
        inp.push_vertex(
            WindowVertex {
                pos: [x, y, z, 1.0],
                point_size: -1.0,
            },
            &a.map(f32::to_bits),
        );
    }
    let id = inp.primitives.len() as u32;
    inp.primitives
        .push(Primitive::triangle([base, base + 1, base + 2], 0, id));
    inp.primitives
        .push(Primitive::triangle([base, base + 2, base + 3], 0, id + 1));
}

#[test]
fn depth_test_keeps_nearest_and_counts_occlusion() {
    let r = Rasterizer::new(2).unwrap_or_else(|e| panic!("{e}"));
    let mut inp = DrawInput::new(4);
    quad(&mut inp, 0.0, 0.0, 8.0, 8.0, 0.25, [0.0, 1.0, 0.0, 1.0]);
    quad(&mut inp, 4.0, 0.0, 12.0, 8.0, 0.75, [1.0, 0.0, 0.0, 1.0]);
    let mut st = FixedFunctionState::default();
    st.depth_stencil.depth_test = true;
    let mut f = fb(16, 8, 4, ColorFormat::Rgba8Unorm);
    let s = draw(
        &r,
        &mut f,
        &st,
        &inp,
        &VaryShader::with(ShaderInfo::default()),
    );
    assert_eq!(f.read_pixel(0, 5, 3), Some([0.0, 1.0, 0.0, 1.0]));
    assert_eq!(f.read_pixel(0, 10, 3), Some([1.0, 0.0, 0.0, 1.0]));
    assert_eq!(s.samples_passed, (64 + 32) * 4);
    let d = f.read_depth(5, 3, 2).unwrap_or_default();
    assert!((d - 0.25).abs() < 1e-6);
    // Shader-written depth (late tests) from varying 1 (green): 1.0 on the first quad
    // fails LESS against 0.25.
    let info = ShaderInfo {
        writes_depth: true,
        ..Default::default()
    };
    let mut inp = DrawInput::new(4);
    quad(&mut inp, 0.0, 0.0, 8.0, 8.0, 0.0, [0.0, 1.0, 0.0, 1.0]);
    let s = draw(&r, &mut f, &st, &inp, &VaryShader::with(info));
    assert_eq!(s.samples_passed, 0);
}

#[test]
fn stencil_masks_second_draw_and_kill_discards() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let mut f = fb(16, 16, 1, ColorFormat::Rgba8Unorm);
    let mut st = FixedFunctionState::default();
    st.depth_stencil.stencil_test = true;
    let write = StencilFace {
        func: CompareFunc::Always,
        reference: 1,
        pass: StencilOp::Replace,
        ..Default::default()
    };
    st.depth_stencil.front = write;
    st.depth_stencil.back = write;
    st.raster.polygon_mode_front = PolygonMode::Fill;
    let mut inp = DrawInput::new(4);
    quad(&mut inp, 0.0, 0.0, 8.0, 16.0, 0.5, [0.0, 0.0, 1.0, 1.0]);
    draw(
        &r,
        &mut f,
        &st,
        &inp,
        &VaryShader::with(ShaderInfo::default()),
    );
    assert_eq!(f.read_stencil(3, 3, 0), Some(1));
    assert_eq!(f.read_stencil(9, 3, 0), Some(0));
    let test = StencilFace {
        func: CompareFunc::Equal,
        reference: 1,
        ..Default::default()
    };
    st.depth_stencil.front = test;
    st.depth_stencil.back = test;
    let mut inp = DrawInput::new(4);
    quad(&mut inp, 0.0, 0.0, 16.0, 16.0, 0.5, [1.0, 0.0, 0.0, 1.0]);
    let s = draw(
        &r,
        &mut f,
        &st,
        &inp,
        &VaryShader::with(ShaderInfo::default()),
    );
    assert_eq!(s.samples_passed, 128);
    assert_eq!(f.read_pixel(0, 3, 3), Some([1.0, 0.0, 0.0, 1.0]));
    assert_eq!(f.read_pixel(0, 12, 3), Some([0.0; 4]));
    // Kill where red < 0.5: a varying ramp in red kills the left half.
    let mut inp = DrawInput::new(4);
    let base = 0;
    for (x, y) in [(0.0, 0.0), (16.0, 0.0), (16.0, 16.0), (0.0, 16.0)] {
        inp.push_vertex(
            vtx(x, y),
            &[(x / 16.0f32).to_bits(), 0, 0, 1.0f32.to_bits()],
        );
    }
    inp.primitives.push(Primitive::triangle([base, 1, 2], 0, 0));
    inp.primitives.push(Primitive::triangle([base, 2, 3], 0, 1));
    let mut g = fb(16, 16, 1, ColorFormat::Rgba32F);
    let mut sh = VaryShader::with(ShaderInfo {
        may_kill: true,
        ..Default::default()
    });
    sh.kill_below = Some(0.5);
    let s = draw(&r, &mut g, &FixedFunctionState::default(), &inp, &sh);
    assert_eq!(s.samples_passed, 128);
    assert_eq!(g.read_sample(0, 3, 3, 0), Some([0.0; 4]));
}

#[test]
fn blend_mrt_masks_srgb_and_integer_targets() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let mrt = |info: ShaderInfo| {
        FnShader(info, |_: &FragmentBatch<'_>, out: &mut FragmentOutputs| {
            for l in 0..LANES {
                out.set_color_f32(0, l, [1.0, 0.5, 0.0, 0.5]);
                out.set_color_f32(1, l, [0.215_860_5, 0.0, 1.0, 1.0]);
                for (c, v) in out.color[2].iter_mut().zip([7u32, (-3i32) as u32, 9, 11]) {
                    c[l] = v;
                }
            }
            Ok(())
        })
    };
    let formats = [
        ColorFormat::Rgba8Unorm,
        ColorFormat::Srgb8Alpha8,
        ColorFormat::Rgba32I,
    ];
    let mut f =
        Framebuffer::new(8, 8, 1, &formats, DepthFormat::D32FS8).unwrap_or_else(|e| panic!("{e}"));
    f.clear_color(0, [0.0, 0.0, 1.0, 1.0], None, [true; 4], false)
        .unwrap_or(());
    let mut st = FixedFunctionState::default();
    st.blend.targets[0] = BlendTarget {
        enabled: true,
        src_rgb: BlendFactor::SrcAlpha,
        dst_rgb: BlendFactor::OneMinusSrcAlpha,
        color_mask: [true, true, true, false],
        ..Default::default()
    };
    st.blend.framebuffer_srgb = true;
    let mut inp = DrawInput::new(0);
    quad(&mut inp, 0.0, 0.0, 8.0, 8.0, 0.5, [0.0; 4]);
    r.draw(&mut f, &st, &inp, &mrt(ShaderInfo::default()))
        .unwrap_or_else(|e| panic!("{e}"));
    let p = f
        .read_sample_raw(0, 2, 2, 0)
        .unwrap_or_default()
        .map(f32::from_bits);
    assert_eq!(p, [128.0 / 255.0, 64.0 / 255.0, 128.0 / 255.0, 1.0]);
    let p = f.read_sample(1, 2, 2, 0).unwrap_or_default();
    assert_eq!(p[0], 128.0 / 255.0, "sRGB encoded on write");
    assert_eq!(
        f.read_sample_raw(2, 2, 2, 0),
        Some([7, (-3i32) as u32, 9, 11])
    );
}

#[test]
fn alpha_to_coverage_keeps_half_the_samples() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let mut f = fb(8, 8, 4, ColorFormat::Rgba32F);
    let mut st = additive();
    st.multisample.alpha_to_coverage = true;
    let mut inp = DrawInput::new(0);
    quad(&mut inp, 0.0, 0.0, 8.0, 8.0, 0.5, [0.0; 4]);
    let s = draw(
        &r,
        &mut f,
        &st,
        &inp,
        &VaryShader::constant([1.0, 1.0, 1.0, 0.5]),
    );
    assert_eq!(s.samples_passed, 64 * 2);
    assert_eq!(f.read_pixel(0, 4, 4).map(|p| p[0]), Some(0.5));
}

#[test]
fn polygon_mode_line_outlines_triangle() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let mut st = additive();
    st.raster.polygon_mode_front = PolygonMode::Line;
    let mut inp = DrawInput::new(0);
    for (x, y) in [(1.5, 1.5), (9.5, 1.5), (1.5, 9.5)] {
        inp.push_vertex(vtx(x, y), &[]);
    }
    inp.primitives.push(Primitive::triangle([0, 1, 2], 0, 0));
    let mut f = fb(16, 16, 1, ColorFormat::Rgba32F);
    draw(&r, &mut f, &st, &inp, &VaryShader::constant([1.0; 4]));
    let c = covered(&f);
    assert!(c.contains(&(1, 1)) && c.contains(&(5, 1)) && c.contains(&(1, 5)));
    assert!(!c.contains(&(3, 3)), "interior not filled");
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let mut f = fb(8, 8, 1, ColorFormat::Rgba8Unorm);
    let mut inp = DrawInput::new(0);
    inp.push_vertex(vtx(0.0, 0.0), &[]);
    inp.primitives.push(Primitive::triangle([0, 1, 7], 0, 0));
    let e = r.draw(
        &mut f,
        &FixedFunctionState::default(),
        &inp,
        &VaryShader::constant([1.0; 4]),
    );
    assert!(matches!(e, Err(RasterError::Invalid(_))), "{e:?}");
    let mut inp = DrawInput::new(0);
    for (x, y) in [(0.0, 0.0), (1e9, 0.0), (0.0, 5.0)] {
        inp.push_vertex(vtx(x, y), &[]);
    }
    inp.primitives.push(Primitive::triangle([0, 1, 2], 0, 0));
    let e = r.draw(
        &mut f,
        &FixedFunctionState::default(),
        &inp,
        &VaryShader::constant([1.0; 4]),
    );
    assert!(matches!(e, Err(RasterError::NotSupported(_))), "{e:?}");
}

#[test]
fn scissor_limits_writes() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let mut f = fb(100, 100, 1, ColorFormat::Rgba32F);
    let mut st = additive();
    st.raster.viewports[0].scissor = Some(Rect {
        x: 60,
        y: 10,
        width: 10,
        height: 70,
    });
    let mut inp = DrawInput::new(0);
    quad(&mut inp, 0.0, 0.0, 100.0, 100.0, 0.5, [0.0; 4]);
    let s = draw(&r, &mut f, &st, &inp, &VaryShader::constant([1.0; 4]));
    assert_eq!(s.samples_passed, 700);
    assert_eq!(f.read_sample(0, 59, 50, 0).map(|c| c[0]), Some(0.0));
    assert_eq!(f.read_sample(0, 60, 10, 0).map(|c| c[0]), Some(1.0));
}

/// Each filled triangle stays inside its own viewport's rectangle ∩ scissor, whatever the
/// others use; an index past MAX_VIEWPORTS means 0. Points and wide lines (which the
/// pipeline clips to the view volume) keep their whole width: only the scissor and the
/// framebuffer bound them.
#[test]
fn primitives_stay_in_their_viewport_rectangle() {
    let r = Rasterizer::new(2).unwrap_or_else(|e| panic!("{e}"));
    let mut f = fb(64, 64, 1, ColorFormat::Rgba32F);
    let mut st = additive();
    st.raster.line_width = 5.0;
    st.raster.point_size = 9.0;
    let rect = |x, y, width, height| {
        Some(Rect {
            x,
            y,
            width,
            height,
        })
    };
    st.raster.viewports[0].rect = rect(0, 0, 32, 32);
    st.raster.viewports[3].rect = rect(32, 32, 32, 32);
    st.raster.viewports[3].scissor = rect(40, 0, 64, 64);
    let mut inp = DrawInput::new(0);
    // A full-window quad to viewport 3 and another with index 200 (= viewport 0).
    quad(&mut inp, 0.0, 0.0, 64.0, 64.0, 0.5, [0.0; 4]);
    quad(&mut inp, 0.0, 0.0, 64.0, 64.0, 0.5, [0.0; 4]);
    for (i, p) in inp.primitives.iter_mut().enumerate() {
        p.viewport = if i < 2 { 3 } else { 200 };
    }
    // A point and a wide line straddling viewport 0's top-right corner.
    let a = inp.push_vertex(vtx(30.0, 30.0), &[]);
    let b = inp.push_vertex(vtx(36.0, 30.5), &[]);
    inp.primitives.push(Primitive::point(a, 9));
    inp.primitives.push(Primitive::line(a, b, 0, 10));
    draw(&r, &mut f, &st, &inp, &VaryShader::constant([1.0; 4]));
    let red = |x, y| f.read_sample(0, x, y, 0).map(|c| c[0]).unwrap_or(-1.0);
    // Viewport 3 ∩ its scissor: x 40..64, y 32..64.
    assert_eq!(
        (red(39, 40), red(40, 40), red(63, 63), red(50, 31)),
        (0.0, 1.0, 1.0, 0.0)
    );
    // Viewport 0: the quad, with the point and the line over it; they go on past 32.
    assert_eq!((red(0, 0), red(31, 20)), (1.0, 1.0));
    assert_eq!((red(29, 29), red(31, 31)), (2.0, 3.0));
    assert_eq!((red(32, 30), red(35, 30), red(33, 33)), (2.0, 1.0, 1.0));
    assert_eq!((red(36, 30), red(31, 34)), (0.0, 0.0));
}

/// Writes IPAS (sample 3) of varying 0 to red, IPAO (+0.25, 0) to green, sample id to
/// blue (per-sample mode) and the coverage input to alpha.
fn ip_shader(
    info: ShaderInfo,
) -> FnShader<impl Fn(&FragmentBatch<'_>, &mut FragmentOutputs) -> Result<(), ShaderError>> {
    FnShader(info, |b: &FragmentBatch<'_>, out: &mut FragmentOutputs| {
        let mut v = [0u32; LANES];
        b.interpolate_at_sample(0, &[3; LANES], &mut v);
        out.color[0][0] = v;
        b.interpolate_at_offset(0, &[0.25; LANES], &[0.0; LANES], &mut v);
        out.color[0][1] = v;
        let ids = b.sample_id().copied().unwrap_or([99; LANES]);
        out.color[0][2] = ids.map(|i| (i as f32).to_bits());
        out.color[0][3] = b.coverage().map(|c| (c as f32).to_bits());
        Ok(())
    })
}

#[test]
fn ipas_ipao_sample_id_and_mask_inputs() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let inp = x_ramp_triangle(3.0);
    let info = one_varying(InterpMode::NoPerspective, InterpLocation::Center);
    let mut f = fb(4, 4, 4, ColorFormat::Rgba32F);
    r.draw(
        &mut f,
        &FixedFunctionState::default(),
        &inp,
        &ip_shader(info.clone()),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let p = f.read_sample(0, 1, 1, 0).unwrap_or_default();
    assert!(
        (p[0] - 1.625).abs() < 1e-5,
        "IPAS sample 3 at x=.625: {p:?}"
    );
    assert!((p[1] - 1.75).abs() < 1e-5, "IPAO +0.25: {p:?}");
    assert_eq!(p[2], 99.0, "no sample id outside per-sample shading");
    assert_eq!(p[3], 15.0, "fully covered mask");
    // Per-sample: each sample sees its own id and a one-bit mask.
    let info = ShaderInfo {
        per_sample: true,
        ..info
    };
    let mut f = fb(4, 4, 4, ColorFormat::Rgba32F);
    r.draw(
        &mut f,
        &FixedFunctionState::default(),
        &inp,
        &ip_shader(info),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    for s in 0..4 {
        let p = f.read_sample(0, 1, 1, s).unwrap_or_default();
        assert_eq!((p[2], p[3]), (s as f32, (1u32 << s) as f32));
    }
}

#[test]
fn eight_and_sixteen_samples_are_watertight() {
    let r = Rasterizer::new(2).unwrap_or_else(|e| panic!("{e}"));
    for samples in [2, 8, 16] {
        let mut f = fb(70, 66, samples, ColorFormat::Rgba32F);
        draw(
            &r,
            &mut f,
            &additive(),
            &fan(33.3, 30.9, 23, 200.0),
            &VaryShader::constant([1.0; 4]),
        );
        assert_all_samples(&f, 1.0);
    }
}

#[test]
fn polygon_offset_and_depth_clamp() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let mut st = FixedFunctionState::default();
    st.depth_stencil.depth_test = true;
    st.depth_stencil.depth_func = CompareFunc::Always;
    st.raster.polygon_offset = PolygonOffset {
        factor: 0.0,
        units: 1000.0,
        fill: true,
        line: false,
        point: false,
    };
    let mut inp = DrawInput::new(0);
    quad(&mut inp, 0.0, 0.0, 8.0, 8.0, 0.5, [0.0; 4]);
    let mut f = fb(8, 8, 1, ColorFormat::Rgba8Unorm);
    draw(&r, &mut f, &st, &inp, &VaryShader::constant([1.0; 4]));
    let d = f.read_depth(3, 3, 0).unwrap_or_default();
    assert!((d - (0.5 + 1000.0 / 16_777_215.0)).abs() < 1e-6, "{d}");
    // Slope factor: z goes 0 → 0.8 over 8 pixels (0.1 per pixel).
    let mut inp = DrawInput::new(0);
    for (x, y, z) in [
        (0.0, 0.0, 0.0),
        (8.0, 0.0, 0.8),
        (8.0, 8.0, 0.8),
        (0.0, 8.0, 0.0),
    ] {
        inp.push_vertex(
            WindowVertex {
                pos: [x, y, z, 1.0],
                point_size: -1.0,
            },
            &[],
        );
    }
    inp.primitives.push(Primitive::triangle([0, 1, 2], 0, 0));
    inp.primitives.push(Primitive::triangle([0, 2, 3], 0, 1));
    st.raster.polygon_offset = PolygonOffset {
        factor: 2.0,
        units: 0.0,
        fill: true,
        line: false,
        point: false,
    };
    draw(&r, &mut f, &st, &inp, &VaryShader::constant([1.0; 4]));
    let d = f.read_depth(2, 3, 0).unwrap_or_default();
    assert!((d - (0.25 + 0.2)).abs() < 1e-5, "{d}");
    // Depth clamp to the depth range [0.2, 0.4].
    st.raster.polygon_offset = PolygonOffset::default();
    st.depth_stencil.depth_clamp = true;
    st.raster.viewports[0].depth_range = [0.4, 0.2];
    draw(&r, &mut f, &st, &inp, &VaryShader::constant([1.0; 4]));
    assert!((f.read_depth(0, 3, 0).unwrap_or_default() - 0.2).abs() < 1e-6);
    assert!((f.read_depth(7, 3, 0).unwrap_or_default() - 0.4).abs() < 1e-6);
}

#[test]
fn logic_op_and_alpha_to_one() {
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let mut f = fb(8, 8, 4, ColorFormat::Rgba8Unorm);
    f.clear_color(0, [1.0, 0.0, 1.0, 0.0], None, [true; 4], false)
        .unwrap_or(());
    let mut st = FixedFunctionState::default();
    st.blend.logic_op = Some(LogicOp::Xor);
    st.multisample.alpha_to_one = true;
    let mut inp = DrawInput::new(0);
    quad(&mut inp, 0.0, 0.0, 8.0, 8.0, 0.5, [0.0; 4]);
    draw(
        &r,
        &mut f,
        &st,
        &inp,
        &VaryShader::constant([1.0, 1.0, 0.0, 0.0]),
    );
    // XOR: (ff,00,ff,00) ^ (ff,ff,00,ff) with alpha forced to one.
    assert_eq!(f.read_sample(0, 4, 4, 1), Some([0.0, 1.0, 1.0, 1.0]));
}

#[test]
fn shader_errors_propagate() {
    let fails = FnShader(
        ShaderInfo::default(),
        |_: &FragmentBatch<'_>, _: &mut FragmentOutputs| {
            Err(ShaderError::new("instruction budget exhausted"))
        },
    );
    let r = Rasterizer::new(2).unwrap_or_else(|e| panic!("{e}"));
    let mut f = fb(200, 200, 1, ColorFormat::Rgba8Unorm);
    let mut inp = DrawInput::new(0);
    quad(&mut inp, 0.0, 0.0, 200.0, 200.0, 0.5, [0.0; 4]);
    let e = r.draw(&mut f, &FixedFunctionState::default(), &inp, &fails);
    assert_eq!(
        e,
        Err(RasterError::Shader(ShaderError::new(
            "instruction budget exhausted"
        )))
    );
}

#[test]
fn depth_paths_agree_bit_for_bit() {
    // Early/late × depth-only fast path/generic stencil path must store identical depths,
    // or later draws at equal depth would disagree on LEQUAL.
    let r = Rasterizer::new(2).unwrap_or_else(|e| panic!("{e}"));
    let mut results = Vec::new();
    for (stencil, late) in [(false, false), (true, false), (false, true), (true, true)] {
        let mut st = FixedFunctionState::default();
        st.depth_stencil.depth_test = true;
        st.depth_stencil.depth_func = CompareFunc::LessEqual;
        st.depth_stencil.stencil_test = stencil;
        let info = ShaderInfo {
            may_kill: late,
            ..Default::default()
        };
        let mut f = fb(150, 100, 4, ColorFormat::Rgba8Unorm);
        for seed in [5, 6] {
            draw(
                &r,
                &mut f,
                &st,
                &random_mesh(150.0, 100.0, 7, seed),
                &VaryShader::with(info.clone()),
            );
        }
        let depths: Vec<f32> = (0..100 * 150 * 4)
            .map(|i| f.read_depth((i / 4) % 150, i / 600, i % 4).unwrap_or(-1.0))
            .collect();
        results.push((f.to_rgba8_top_down(0).unwrap_or_default(), depths));
    }
    for r in &results[1..] {
        assert!(r == &results[0]);
    }
}

mod prop {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Any fan around an arbitrary (subpixel) centre, with arbitrary rim angles and
        /// either winding, covers every sample of a 4× framebuffer exactly once.
        #[test]
        fn any_fan_covers_each_sample_once(
            cx in 0.0f32..40.0,
            cy in 0.0f32..40.0,
            mut angles in proptest::collection::vec(0.0f32..std::f32::consts::TAU, 3..12),
            reverse in any::<bool>(),
        ) {
            angles.sort_by(f32::total_cmp);
            angles.dedup_by(|a, b| (*a - *b).abs() < 1e-3);
            // Consecutive rim points must stay less than half a turn apart for a convex
            // cover of the centre; otherwise add the missing directions.
            let mut rim = Vec::new();
            for (i, &a) in angles.iter().enumerate() {
                rim.push(a);
                let next = angles.get(i + 1).copied().unwrap_or(angles[0] + std::f32::consts::TAU);
                let mut t = a + 2.0;
                while t < next - 1e-3 {
                    rim.push(t);
                    t += 2.0;
                }
            }
            let mut inp = DrawInput::new(0);
            let c = inp.push_vertex(vtx(cx, cy), &[]);
            for &a in &rim {
                inp.push_vertex(vtx(cx + 300.0 * a.cos(), cy + 300.0 * a.sin()), &[]);
            }
            let n = rim.len() as u32;
            for i in 0..n {
                let (a, b) = (1 + i, 1 + (i + 1) % n);
                let v = if reverse { [c, b, a] } else { [c, a, b] };
                inp.primitives.push(Primitive::triangle(v, 0, i));
            }
            let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
            let mut f = fb(40, 40, 4, ColorFormat::Rgba32F);
            draw(&r, &mut f, &additive(), &inp, &VaryShader::constant([1.0; 4]));
            for y in 0..40 {
                for x in 0..40 {
                    for s in 0..4 {
                        let v = f.read_sample(0, x, y, s).unwrap_or([-1.0; 4])[0];
                        prop_assert_eq!(v, 1.0, "pixel ({},{}) sample {}", x, y, s);
                    }
                }
            }
        }
    }
}

#[test]
fn multisampled_lines_are_rectangles() {
    // Width-1 line from (1, 2.5) to (5, 2.5) at 4×: the rectangle [1, 5]×[2, 3] holds
    // all samples of pixels 1..=4 in row 2 and nothing else.
    let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
    let mut f = fb(8, 8, 4, ColorFormat::Rgba32F);
    let mut inp = DrawInput::new(0);
    inp.push_vertex(vtx(1.0, 2.5), &[]);
    inp.push_vertex(vtx(5.0, 2.5), &[]);
    inp.primitives.push(Primitive::line(0, 1, 1, 0));
    let s = draw(
        &r,
        &mut f,
        &additive(),
        &inp,
        &VaryShader::constant([1.0; 4]),
    );
    assert_eq!(s.samples_passed, 16);
    for x in 1..5 {
        assert_eq!(f.read_pixel(0, x, 2).map(|p| p[0]), Some(1.0), "x={x}");
    }
    assert_eq!(f.read_pixel(0, 5, 2).map(|p| p[0]), Some(0.0));
    // GL_MULTISAMPLE off: diamond exit draws pixels 1..=4 (all samples of each).
    let mut st = additive();
    st.multisample.enabled = false;
    let mut f = fb(8, 8, 4, ColorFormat::Rgba32F);
    let s = draw(&r, &mut f, &st, &inp, &VaryShader::constant([1.0; 4]));
    assert_eq!(s.samples_passed, 16);
}

#[test]
fn whole_tiles_inside_a_triangle_are_filled_once() {
    // The diagonal leaves tiles entirely inside one triangle (whole-tile accept) and
    // tiles split by it; both paths must agree with the watertight count.
    let r = Rasterizer::new(2).unwrap_or_else(|e| panic!("{e}"));
    for samples in [1, 4] {
        let mut f = fb(256, 200, samples, ColorFormat::Rgba32F);
        let mut inp = DrawInput::new(0);
        quad(&mut inp, -3.0, -5.0, 260.0, 210.0, 0.5, [0.0; 4]);
        let s = draw(
            &r,
            &mut f,
            &additive(),
            &inp,
            &VaryShader::constant([1.0; 4]),
        );
        assert_eq!(s.samples_passed, 256 * 200 * u64::from(samples));
        assert_all_samples(&f, 1.0);
    }
}

/// Counts shader calls and live lanes; colours each lane by its varyings (perspective
/// and flat) and its primitive id.
struct CountingShader {
    info: ShaderInfo,
    calls: std::sync::atomic::AtomicU64,
    live: std::sync::atomic::AtomicU64,
}

impl FragmentShader for CountingShader {
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
        use std::sync::atomic::Ordering::Relaxed;
        self.calls.fetch_add(1, Relaxed);
        self.live
            .fetch_add(u64::from(b.live_mask().count_ones()), Relaxed);
        let mut v = [0u32; LANES];
        for ch in 0..3 {
            b.interpolate(ch, &mut v);
            out.color[0][ch] = v;
        }
        let ids = b.primitive_ids();
        for lane in 0..LANES {
            out.color[0][3][lane] = ((ids[lane] % 7) as f32 / 8.0 + 0.125).to_bits();
        }
        Ok(())
    }
}

/// A grid of `n`×`n` cells over `size`² pixels, two triangles each and, with
/// `overlap`, a third covering the first again; per-vertex colours (varying 2 is flat).
/// `flip` reverses the winding of every other triangle (vertices 1 and 2 swapped, which
/// leaves every plane and edge function bit for bit the same).
fn tiny_grid(size: f32, n: usize, overlap: bool, flip: bool) -> DrawInput {
    let mut inp = DrawInput::new(3);
    let mut rng = Lcg(99);
    for j in 0..=n {
        for i in 0..=n {
            let (x, y) = (i as f32 * size / n as f32, j as f32 * size / n as f32);
            let c = [rng.next(), rng.next(), rng.next()].map(f32::to_bits);
            inp.push_vertex(
                WindowVertex {
                    pos: [x, y, 0.5, 0.5 + rng.next()],
                    point_size: -1.0,
                },
                &c,
            );
        }
    }
    let idx = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    let mut id = 0;
    for j in 0..n {
        for i in 0..n {
            let (a, b, c, d) = (idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1));
            let tris: &[[u32; 3]] = if overlap {
                &[[a, b, d], [d, b, c], [a, b, d]]
            } else {
                &[[a, b, d], [d, b, c]]
            };
            for t in tris {
                let t = if flip && id % 2 == 1 {
                    [t[0], t[2], t[1]]
                } else {
                    *t
                };
                inp.primitives.push(Primitive::triangle(t, 0, id));
                id += 1;
            }
        }
    }
    inp
}

#[test]
fn small_triangles_share_fragment_batches() {
    // ~1-pixel triangles, as in the geometry benchmark (1024 px / 708 cells), a third of
    // them drawn over another with alpha blending, so the order within a pixel shows.
    let info = ShaderInfo {
        varyings: vec![
            VaryingInterp::default(),
            VaryingInterp {
                mode: InterpMode::NoPerspective,
                ..Default::default()
            },
            VaryingInterp {
                mode: InterpMode::Flat,
                ..Default::default()
            },
        ],
        ..Default::default()
    };
    let st = alpha_blended();
    let r = Rasterizer::new(2).unwrap_or_else(|e| panic!("{e}"));
    let mut images = Vec::new();
    for flip in [false, true] {
        let inp = tiny_grid(256.0, 177, true, flip);
        let shader = CountingShader {
            info: info.clone(),
            calls: 0.into(),
            live: 0.into(),
        };
        let mut f = fb(256, 256, 1, ColorFormat::Rgba32F);
        r.draw(&mut f, &st, &inp, &shader)
            .unwrap_or_else(|e| panic!("{e}"));
        use std::sync::atomic::Ordering::Relaxed;
        let (calls, live) = (shader.calls.load(Relaxed), shader.live.load(Relaxed));
        let occupancy = live as f64 / (calls as f64 * LANES as f64);
        eprintln!(
            "{} triangles (alternate facings: {flip}): {calls} shader calls, {live} live \
             lanes, occupancy {:.1}%",
            inp.primitives.len(),
            occupancy * 100.0
        );
        assert!(live >= 256 * 256, "every pixel shaded at least once");
        if !flip {
            // One primitive per call gave 7.7% (one or two quads per call).
            assert!(occupancy > 0.2, "occupancy {occupancy}");
        }
        images.push(f);
    }
    // With alternating facings no two primitives share a call, as before batching
    // across primitives: the image must not change.
    assert!(images[0] == images[1], "batching changed the image");
}

#[test]
fn small_triangles_pack_one_pixel_per_lane() {
    // The grid of small_triangles_share_fragment_batches, blended over itself: a
    // program whose lanes are independent gets one covered pixel per lane, and the
    // image stays what whole quads give.
    let st = alpha_blended();
    let inp = tiny_grid(256.0, 177, true, false);
    let mut images = Vec::new();
    let mut occupancy = Vec::new();
    for packed in [false, true] {
        for threads in [1, 2] {
            let r = Rasterizer::new(threads).unwrap_or_else(|e| panic!("{e}"));
            let shader = CountingShader {
                info: ShaderInfo {
                    varyings: vec![
                        VaryingInterp::default(),
                        VaryingInterp {
                            mode: InterpMode::NoPerspective,
                            ..Default::default()
                        },
                        VaryingInterp {
                            mode: InterpMode::Flat,
                            ..Default::default()
                        },
                    ],
                    lanes_independent: packed,
                    ..Default::default()
                },
                calls: 0.into(),
                live: 0.into(),
            };
            let mut f = fb(256, 256, 1, ColorFormat::Rgba32F);
            r.draw(&mut f, &st, &inp, &shader)
                .unwrap_or_else(|e| panic!("{e}"));
            use std::sync::atomic::Ordering::Relaxed;
            let (calls, live) = (shader.calls.load(Relaxed), shader.live.load(Relaxed));
            let occ = live as f64 / (calls as f64 * LANES as f64);
            eprintln!(
                "lanes independent {packed}, {threads} threads: {calls} shader calls, \
                 {live} live lanes, occupancy {:.1}%",
                occ * 100.0
            );
            occupancy.push(occ);
            images.push(f);
        }
    }
    assert!(occupancy[0] < 0.4 && occupancy[1] < 0.4, "{occupancy:?}");
    assert!(occupancy[2] > 0.8 && occupancy[3] > 0.8, "{occupancy:?}");
    for (i, f) in images.iter().enumerate() {
        assert!(*f == images[0], "image {i} differs");
    }
}

/// Big random triangles (many fully covered blocks, partial ones at their edges) with
/// random depth and 1/w planes and four colour varyings.
fn big_triangles(w: f32, h: f32, n: usize, flat_z: bool, seed: u64) -> DrawInput {
    let mut rng = Lcg(seed);
    let mut inp = DrawInput::new(4);
    for i in 0..n {
        let z = rng.next();
        let iw = 0.5 + rng.next();
        let flat_w = rng.next() < 0.5;
        let mut v = [0u32; 3];
        for k in &mut v {
            let col = [rng.next() * 1.2 - 0.1, rng.next(), rng.next(), rng.next()];
            *k = inp.push_vertex(
                WindowVertex {
                    pos: [
                        rng.next() * (w + 80.0) - 40.0,
                        rng.next() * (h + 80.0) - 40.0,
                        if flat_z { z } else { rng.next() * 1.2 - 0.1 },
                        if flat_w { iw } else { 0.5 + rng.next() },
                    ],
                    point_size: -1.0,
                },
                &col.map(f32::to_bits),
            );
        }
        inp.primitives.push(Primitive::triangle(v, 0, i as u32));
    }
    inp
}

mod blocks {
    use super::*;
    use proptest::prelude::*;

    /// One random configuration of the state the block path specialises on.
    #[derive(Debug, Clone)]
    struct Config {
        samples: u32,
        msaa_on: bool,
        sample_mask: u32,
        d32f: bool,
        func: CompareFunc,
        depth_write: bool,
        stencil: bool,
        blend: bool,
        float_target: bool,
        alpha_to_one: bool,
        kill: bool,
        late_z: bool,
        scissor: bool,
        flat_z: bool,
        /// Fully covered blocks shaded through `shade_strips`.
        strips: bool,
        /// No depth test (so kill still lets the strips path run).
        no_depth: bool,
        seed: u64,
    }

    fn config() -> impl Strategy<Value = Config> {
        let funcs = proptest::sample::select(vec![
            CompareFunc::Less,
            CompareFunc::LessEqual,
            CompareFunc::Greater,
            CompareFunc::Equal,
            CompareFunc::NotEqual,
            CompareFunc::Always,
            CompareFunc::Never,
            CompareFunc::GreaterEqual,
        ]);
        (
            (
                proptest::sample::select(vec![1u32, 2, 4, 8]),
                any::<bool>(),
                0u32..256,
            ),
            (
                any::<bool>(),
                funcs,
                any::<bool>(),
                proptest::bool::weighted(0.2),
            ),
            (any::<bool>(), proptest::bool::weighted(0.3), any::<bool>()),
            (
                proptest::bool::weighted(0.2),
                proptest::bool::weighted(0.2),
                any::<bool>(),
            ),
            (any::<bool>(), any::<u64>()),
            (any::<bool>(), proptest::bool::weighted(0.25)),
        )
            .prop_map(
                |(
                    (samples, msaa_on, mask),
                    (d32f, func, depth_write, stencil),
                    (blend, float_target, alpha_to_one),
                    (kill, late_z, scissor),
                    (flat_z, seed),
                    (strips, no_depth),
                )| Config {
                    samples,
                    msaa_on,
                    sample_mask: if mask < 200 { !0 } else { mask },
                    d32f,
                    func,
                    depth_write,
                    stencil,
                    blend,
                    float_target,
                    alpha_to_one,
                    kill,
                    late_z,
                    scissor,
                    flat_z,
                    strips,
                    no_depth,
                    seed,
                },
            )
    }

    fn render(c: &Config, blocks: bool) -> (Framebuffer, Vec<DrawStats>) {
        render_with(c, blocks, None).0
    }

    /// [`render`], with small triangles drawn after the big ones when `packed` is given,
    /// the program's lanes then independent or not; also (batches shaded, lane-packed
    /// ones) of the small triangles' draws and the strip paths' counts
    /// ([`crate::block::strip_paths`]) of all the draws.
    #[allow(clippy::type_complexity)]
    fn render_with(
        c: &Config,
        blocks: bool,
        packed: Option<bool>,
    ) -> ((Framebuffer, Vec<DrawStats>), (u64, u64, [u64; 8])) {
        let mut r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
        r.set_block_path(blocks);
        let format = match c.float_target {
            true => ColorFormat::Rgba32F,
            false => ColorFormat::Rgba8Unorm,
        };
        let depth = match c.d32f {
            true => DepthFormat::D32FS8,
            false => DepthFormat::D24S8,
        };
        let mut f = Framebuffer::new(150, 100, c.samples, &[format], depth)
            .unwrap_or_else(|e| panic!("{e}"));
        f.clear_depth(0.6, None);
        let mut st = FixedFunctionState::default();
        let ds = &mut st.depth_stencil;
        ds.depth_test = !c.no_depth;
        ds.depth_func = c.func;
        ds.depth_write = c.depth_write;
        ds.stencil_test = c.stencil;
        ds.front.pass = StencilOp::Incr;
        ds.back.pass = StencilOp::Incr;
        st.multisample.enabled = c.msaa_on;
        st.multisample.sample_mask = c.sample_mask;
        st.multisample.alpha_to_one = c.alpha_to_one;
        if c.blend {
            use BlendEquation as E;
            use BlendFactor as B;
            let presets = [
                (
                    B::SrcAlpha,
                    B::OneMinusSrcAlpha,
                    B::One,
                    B::OneMinusSrcAlpha,
                    E::Add,
                ),
                (B::DstColor, B::SrcColor, B::DstAlpha, B::Zero, E::Subtract),
                (
                    B::SrcAlphaSaturate,
                    B::One,
                    B::ConstantAlpha,
                    B::One,
                    E::ReverseSubtract,
                ),
                (
                    B::OneMinusDstColor,
                    B::ConstantColor,
                    B::Src1Alpha,
                    B::One,
                    E::Add,
                ),
                (B::One, B::One, B::One, B::One, E::Min),
                (
                    B::One,
                    B::OneMinusConstantColor,
                    B::OneMinusDstAlpha,
                    B::One,
                    E::Max,
                ),
            ];
            let (src_rgb, dst_rgb, src_alpha, dst_alpha, eq) =
                presets[(c.seed % presets.len() as u64) as usize];
            st.blend.constant = [0.3, -0.5, 1.5, 0.75];
            st.blend.targets[0] = BlendTarget {
                enabled: true,
                src_rgb,
                dst_rgb,
                src_alpha,
                dst_alpha,
                eq_rgb: eq,
                eq_alpha: if eq == E::Subtract { E::Add } else { eq },
                ..Default::default()
            };
        }
        if c.scissor {
            st.raster.viewports[0].scissor = Some(Rect {
                x: 13,
                y: 7,
                width: 101,
                height: 77,
            });
        }
        let info = ShaderInfo {
            may_kill: c.kill,
            writes_depth: c.late_z,
            lanes_independent: packed == Some(true),
            ..Default::default()
        };
        let mut shader = VaryShader::with(info);
        shader.kill_below = c.kill.then_some(0.3);
        shader.strips = c.strips;
        let mut stats = Vec::new();
        for k in 0..3 {
            let inp = big_triangles(150.0, 100.0, 4, c.flat_z, c.seed.wrapping_add(k));
            stats.push(draw(&r, &mut f, &st, &inp, &shader));
        }
        use std::sync::atomic::Ordering::Relaxed;
        shader.batches.store(0, Relaxed);
        shader.packed.store(0, Relaxed);
        if packed.is_some() {
            for (k, size) in [(3, 1.5), (4, 4.0), (5, 9.0)] {
                let inp = small_triangles(150.0, 100.0, 300, size, c.seed.wrapping_add(k));
                stats.push(draw(&r, &mut f, &st, &inp, &shader));
            }
        }
        // One worker: every tile ran on the thread whose counts these are.
        let paths = r.install(crate::block::strip_paths);
        let counts = (
            shader.batches.load(Relaxed),
            shader.packed.load(Relaxed),
            paths,
        );
        ((f, stats), counts)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

        /// Fully covered blocks through the block path store exactly what the per-quad
        /// path stores (colour, depth, stencil, every sample) and count the same samples.
        #[test]
        fn block_path_equals_per_quad_path(c in config()) {
            let (fa, sa) = render(&c, true);
            let (fb_, sb) = render(&c, false);
            prop_assert_eq!(sa, sb);
            prop_assert!(fa == fb_, "framebuffers differ");
        }

        /// Small triangles' pixels packed one per lane store exactly what whole quads
        /// store; the packed path ran (its batches mix primitives inside a quad) and the
        /// quad path never packs.
        #[test]
        fn packed_lanes_equal_quad_batches(c in config()) {
            let ((fa, sa), (batches, packed, _)) = render_with(&c, true, Some(true));
            let ((fq, sq), (_, packed_q, _)) = render_with(&c, true, Some(false));
            prop_assert_eq!(sa, sq);
            prop_assert!(fa == fq, "framebuffers differ");
            prop_assert_eq!(packed_q, 0);
            prop_assert!(batches < 20 || packed > 0, "{} batches, none packed", batches);
        }
    }

    /// A blended, depth-tested draw with the strip path on, at `samples` (multisampling
    /// on when above 1): the base of the kernel tests below.
    fn blended_strips(samples: u32, seed: u64) -> Config {
        Config {
            samples,
            msaa_on: samples > 1,
            sample_mask: !0,
            d32f: false,
            func: CompareFunc::LessEqual,
            depth_write: true,
            stencil: false,
            blend: true,
            float_target: false,
            alpha_to_one: false,
            kill: false,
            late_z: false,
            scissor: false,
            flat_z: false,
            strips: true,
            no_depth: false,
            seed,
        }
    }

    /// The kernels give the same bits with every instruction set.
    #[test]
    fn every_isa_gives_the_same_image() {
        use crate::simd::{force, Isa};
        let c = blended_strips(4, 11);
        let mut images = Vec::new();
        for isa in [Isa::Baseline, Isa::Avx2, Isa::Avx512] {
            // On a CPU without the wider set, force runs a narrower kernel under its name,
            // and comparing that with itself would check nothing: only sets it has run.
            if force(isa) != isa {
                eprintln!("every_isa_gives_the_same_image: no {isa:?} on this CPU, skipped");
                continue;
            }
            // The draws run on a rasterizer's pool, which must run with this thread's set.
            let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(r.install(crate::simd::isa), isa);
            for samples in [1, 4] {
                images.push(
                    render(
                        &Config {
                            samples,
                            ..c.clone()
                        },
                        true,
                    )
                    .0,
                );
            }
        }
        force(Isa::Avx512);
        for i in 2..images.len() {
            assert!(images[i] == images[i % 2], "image {i}");
        }
    }

    /// Draws that allow them run the one-sample strip blend, the 2- and 4-sample row
    /// stores, the whole multisampled strip fill (counted where they store) and the
    /// block depth kernel, and store what the per-quad path stores.
    #[test]
    fn strip_blend_and_sample_row_stores_run_in_draws() {
        let base = blended_strips(1, 5);
        use crate::block::StripPath::{Blend, DepthBlock, SampleBlock};
        // (samples, blend, the paths that must run). A multisampled target replaced whole
        // has its blocks stored by the shader (`shade_block_samples`); the raster's row
        // stores (`store_rgba8`) serve the draws writing several targets, and
        // `store_rgba8_equals_per_sample_store` checks them.
        let cases: [(u32, bool, &[crate::block::StripPath]); 4] = [
            (1, true, &[Blend, DepthBlock]),
            (2, false, &[SampleBlock, DepthBlock]),
            (4, false, &[SampleBlock, DepthBlock]),
            (8, false, &[SampleBlock, DepthBlock]),
        ];
        for (samples, blend, want) in cases {
            let c = Config {
                samples,
                msaa_on: samples > 1,
                blend,
                ..base.clone()
            };
            let ((fa, sa), (_, _, paths)) = render_with(&c, true, None);
            let ((fq, sq), _) = render_with(&c, false, None);
            assert_eq!(sa, sq, "{samples} samples");
            assert!(fa == fq, "{samples} samples: framebuffers differ");
            for &path in want {
                assert!(
                    paths[path as usize] > 0,
                    "{samples} samples, {path:?}: {paths:?}"
                );
            }
        }
    }

    /// Replaced one-sample blocks the shader stores whole, some of whose strips failed
    /// the depth test: the shaded strips' rows are handed over first, and the image is
    /// the per-quad path's.
    #[test]
    fn blocks_with_unshaded_strips_store_the_right_rows() {
        let mut reordered = 0;
        for seed in 0..4 {
            let c = Config {
                blend: false,
                ..blended_strips(1, seed)
            };
            let ((fa, sa), (_, _, paths)) = render_with(&c, true, None);
            let ((fq, sq), _) = render_with(&c, false, None);
            assert_eq!(sa, sq, "seed {seed}");
            assert!(fa == fq, "seed {seed}: framebuffers differ");
            reordered += paths[crate::block::StripPath::Reorder as usize];
        }
        assert!(reordered > 0, "no block had unshaded strips");
    }
}

#[test]
fn interpolate_n_equals_interpolate_per_component() {
    use std::sync::atomic::Ordering::Relaxed;
    let mismatch = std::sync::atomic::AtomicU64::new(0);
    let calls = std::sync::atomic::AtomicU64::new(0);
    // Batches whose lanes are of several primitives (the per-lane gather of planes).
    let mixed = std::sync::atomic::AtomicU64::new(0);
    // Batches `perspective_n` evaluated (one primitive's lanes, at the centre).
    let persp = std::sync::atomic::AtomicU64::new(0);
    for (samples, location) in [
        (1, InterpLocation::Center),
        (4, InterpLocation::Center),
        (4, InterpLocation::Centroid),
    ] {
        let vi = VaryingInterp {
            mode: InterpMode::Perspective,
            location,
        };
        for packed in [false, true] {
            let info = ShaderInfo {
                varyings: vec![vi; 4],
                lanes_independent: packed,
                ..Default::default()
            };
            let shader = FnShader(info, |b: &FragmentBatch<'_>, out: &mut FragmentOutputs| {
                let mut all = [[0u32; LANES]; 4];
                b.interpolate_n(0, 4, &mut all);
                for (k, got) in all.iter().enumerate() {
                    let mut want = [0u32; LANES];
                    b.interpolate(k, &mut want);
                    if *got != want {
                        mismatch.fetch_add(1, Relaxed);
                    }
                }
                let mut p = [[0u32; LANES]; 4];
                if location == InterpLocation::Center && b.perspective_n(0, 4, &mut p) {
                    persp.fetch_add(1, Relaxed);
                    if p != all {
                        mismatch.fetch_add(1, Relaxed);
                    }
                }
                let ids = b.primitive_ids();
                if ids.iter().any(|&id| id != ids[0]) {
                    mixed.fetch_add(1, Relaxed);
                }
                calls.fetch_add(1, Relaxed);
                out.color[0] = all;
                Ok(())
            });
            let r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
            let mut f = fb(150, 100, samples, ColorFormat::Rgba32F);
            let mut inputs = vec![big_triangles(150.0, 100.0, 6, false, 3)];
            if packed {
                inputs.push(small_triangles(150.0, 100.0, 300, 3.0, 5));
            }
            for inp in &inputs {
                r.draw(&mut f, &FixedFunctionState::default(), inp, &shader)
                    .unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
    assert!(calls.into_inner() > 100);
    assert!(mixed.into_inner() > 0, "no batch mixed primitives");
    assert!(persp.into_inner() > 100, "perspective_n ran");
    assert_eq!(mismatch.into_inner(), 0);
}

#[test]
fn a_passed_deadline_ends_the_draw_with_timed_out() {
    let r = Rasterizer::new(2).unwrap_or_else(|e| panic!("{e}"));
    let mut f = fb(150, 130, 1, ColorFormat::Rgba32F);
    let inp = fan(71.3, 64.7, 37, 400.0);
    let mut st = additive();
    let limit = std::time::Duration::ZERO;
    st.deadline = crate::Deadline::after(limit);
    let shader = VaryShader::constant([1.0, 0.0, 0.0, 1.0]);
    assert_eq!(
        r.draw(&mut f, &st, &inp, &shader),
        Err(RasterError::TimedOut(limit))
    );
    // Far away: the same draw completes.
    st.deadline = crate::Deadline::after(std::time::Duration::from_secs(3600));
    assert!(r.draw(&mut f, &st, &inp, &shader).is_ok());
}

/// A shader that reads its strips only through `Strip::perspective_n` (four perspective
/// varyings at the centre as the colour), as the pipeline's simple fill does.
struct PlanesShader {
    info: ShaderInfo,
    /// Strips whose planes came from their position (`Strip::origin`), and from the
    /// lane arrays.
    origin: std::sync::atomic::AtomicU64,
    lanes: std::sync::atomic::AtomicU64,
    /// Kill the lanes whose red has mantissa bit 12 set ([`planes_kills`]).
    kill: bool,
}

/// [`PlanesShader`]'s kills when it kills: lanes of colour `c` whose red's bit 12 is set.
fn planes_kills(c: &[[u32; LANES]; 4]) -> u32 {
    let mut k = 0;
    for (lane, &r) in c[0].iter().enumerate() {
        k |= ((r >> 12) & 1) << lane;
    }
    k
}

impl FragmentShader for PlanesShader {
    type Scratch = ();
    fn info(&self) -> &ShaderInfo {
        &self.info
    }
    fn new_scratch(&self) {}
    fn shades_strips(&self) -> bool {
        true
    }
    fn strips_read_planes_only(&self) -> bool {
        true
    }
    fn shade(
        &self,
        _: &mut (),
        b: &FragmentBatch<'_>,
        out: &mut FragmentOutputs,
    ) -> Result<(), ShaderError> {
        b.interpolate_n(0, 4, &mut out.color[0]);
        out.kill = match self.kill {
            true => planes_kills(&out.color[0]),
            false => 0,
        };
        Ok(())
    }
    fn shade_strips(
        &self,
        _: &mut (),
        strips: &[crate::shader::Strip<'_>],
        sink: &mut dyn FnMut(usize, u32, &crate::shader::StripColors<'_>),
    ) -> Result<(), ShaderError> {
        use std::sync::atomic::Ordering::Relaxed;
        for (i, s) in strips.iter().enumerate() {
            match s.origin {
                Some(_) => self.origin.fetch_add(1, Relaxed),
                None => self.lanes.fetch_add(1, Relaxed),
            };
            let mut c = [[0u32; LANES]; 4];
            assert!(s.perspective_n(0, 4, &mut c));
            let mut colors = crate::shader::StripColors::default();
            colors.color[0] = Some(&c);
            let kill = match self.kill {
                true => planes_kills(&c),
                false => 0,
            };
            sink(i, kill, &colors);
        }
        Ok(())
    }
}

/// Strips of a shader that reads only centre planes: with constant 1/w their planes are
/// evaluated from the strip's position, the lane arrays left unset (stale from other
/// strips), and the image is the per-quad path's, replaced or blended.
#[test]
fn strips_from_their_origin_equal_the_per_quad_path() {
    use std::sync::atomic::Ordering::Relaxed;
    let info = ShaderInfo {
        varyings: vec![
            VaryingInterp {
                mode: InterpMode::Perspective,
                location: InterpLocation::Center,
            };
            4
        ],
        ..Default::default()
    };
    let shader = PlanesShader {
        info,
        origin: 0.into(),
        lanes: 0.into(),
        kill: false,
    };
    // big_triangles: half of them with constant 1/w.
    let inp = big_triangles(150.0, 100.0, 8, false, 11);
    for st in [FixedFunctionState::default(), alpha_blended()] {
        let render = |blocks: bool| {
            let mut r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
            r.set_block_path(blocks);
            let mut f = fb(150, 100, 1, ColorFormat::Rgba8Unorm);
            r.draw(&mut f, &st, &inp, &shader)
                .unwrap_or_else(|e| panic!("{e}"));
            let mut px = vec![[0u32; 4]; 150];
            let mut all = Vec::new();
            for y in 0..100 {
                f.read_row_raw(0, 0, y, &mut px);
                all.extend_from_slice(&px);
            }
            all
        };
        let before = shader.origin.load(Relaxed);
        let blocks = render(true);
        assert!(
            shader.origin.load(Relaxed) - before > 50,
            "strips from their origin"
        );
        assert!(blocks == render(false), "framebuffers differ");
    }
    // Multisampled, one target replaced whole: its blocks are handed to the shader to
    // store (`shade_block_samples`) and read only their planes too; every sample is the
    // per-quad path's.
    let st = FixedFunctionState::default();
    for ns in [2u32, 4, 8] {
        let render = |blocks: bool| {
            let mut r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
            r.set_block_path(blocks);
            let mut f = fb(150, 100, ns, ColorFormat::Rgba8Unorm);
            let before =
                r.install(crate::block::strip_paths)[crate::block::StripPath::SampleBlock as usize];
            r.draw(&mut f, &st, &inp, &shader)
                .unwrap_or_else(|e| panic!("{e}"));
            let handed =
                r.install(crate::block::strip_paths)[crate::block::StripPath::SampleBlock as usize];
            let all: Vec<[u32; 4]> = (0..150 * 100 * ns)
                .map(|i| {
                    f.read_sample_raw(0, i / ns % 150, i / ns / 150, i % ns)
                        .unwrap_or_default()
                })
                .collect();
            (all, handed - before)
        };
        let before = shader.origin.load(Relaxed);
        let (blocks, handed) = render(true);
        assert!(
            shader.origin.load(Relaxed) - before > 50,
            "{ns} samples: strips from their origin"
        );
        assert!(
            handed > 20,
            "{ns} samples: {handed} blocks handed to the shader"
        );
        let (per_quad, none) = render(false);
        assert_eq!(none, 0);
        assert!(blocks == per_quad, "{ns} samples: framebuffers differ");
    }
    assert!(shader.lanes.into_inner() > 50, "strips from lane arrays");
}

/// A quad (two triangles) with its own depth and colour at each corner, w = 1.
fn sloped_quad(inp: &mut DrawInput, r: [f32; 4], z: [f32; 4], col: [[f32; 4]; 4]) {
    let base = inp.vertices.len() as u32;
    let [x0, y0, x1, y1] = r;
    for (i, (x, y)) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        .into_iter()
        .enumerate()
    {
        inp.push_vertex(
            WindowVertex {
                pos: [x, y, z[i], 1.0],
                point_size: -1.0,
            },
            &col[i].map(f32::to_bits),
        );
    }
    let id = inp.primitives.len() as u32;
    inp.primitives
        .push(Primitive::triangle([base, base + 1, base + 2], 0, id));
    inp.primitives
        .push(Primitive::triangle([base, base + 2, base + 3], 0, id + 1));
}

/// Regions whose blocks are all fully covered, walked whole with their strips made once
/// (`tile::full_region`): every depth function, with and without depth writes, flat and
/// sloped depth (strips rejected whole or in part, so the call lists fewer strips),
/// lanes killed or not, one and four samples: colours, depth and samples passed are the
/// per-quad path's.
#[test]
fn full_regions_equal_the_per_quad_path() {
    let info = ShaderInfo {
        varyings: vec![
            VaryingInterp {
                mode: InterpMode::Perspective,
                location: InterpLocation::Center,
            };
            4
        ],
        ..Default::default()
    };
    let mut inp = DrawInput::new(4);
    let c = |a: f32| {
        [
            [a, 0.2, 0.9, 1.0],
            [0.1, a, 0.3, 0.5],
            [0.7, 0.4, a, 0.2],
            [0.3, 0.8, 0.6, a],
        ]
    };
    // Whole framebuffer at flat depths each side of the cleared 0.6, a slope across it,
    // and a quad off the block grid (no region of full blocks).
    sloped_quad(&mut inp, [0.0, 0.0, 200.0, 136.0], [0.5; 4], c(0.9));
    sloped_quad(&mut inp, [0.0, 0.0, 200.0, 136.0], [0.7; 4], c(0.4));
    // The first depth again: ties with what it wrote (the equal cases of the tests).
    sloped_quad(&mut inp, [0.0, 0.0, 200.0, 136.0], [0.5; 4], c(0.3));
    sloped_quad(
        &mut inp,
        [0.0, 0.0, 200.0, 136.0],
        [0.2, 0.9, 0.8, 0.3],
        c(0.6),
    );
    // Depth rising with y: blocks whose first strips fail and last pass, or the reverse.
    let whole = [0.0, 0.0, 200.0, 136.0];
    sloped_quad(&mut inp, whole, [0.3, 0.35, 0.95, 0.9], c(0.8));
    sloped_quad(&mut inp, whole, [0.9, 0.95, 0.35, 0.3], c(0.2));
    sloped_quad(
        &mut inp,
        [13.0, 5.5, 141.0, 90.0],
        [0.4, 0.45, 0.5, 0.55],
        c(0.1),
    );
    // Flat depths inside the range the slopes leave (below 0.5 for the less tests,
    // above 0.7 for the greater ones): a block's pixels pass or fail apart, so a lane
    // given another pixel's result shows.
    sloped_quad(&mut inp, whole, [0.4; 4], c(0.7));
    sloped_quad(&mut inp, whole, [0.8; 4], c(0.5));
    let (mut regions, mut reordered, mut flats) = (0, 0, 0);
    use crate::simd::{force, Isa};
    // Each instruction set's depth kernel (one this CPU lacks would run a narrower one
    // under its name: skipped).
    for (isa, kill) in [Isa::Baseline, Isa::Avx2, Isa::Avx512]
        .into_iter()
        .flat_map(|isa| [(isa, false), (isa, true)])
    {
        if force(isa) != isa {
            continue;
        }
        let shader = PlanesShader {
            info: info.clone(),
            origin: 0.into(),
            lanes: 0.into(),
            kill,
        };
        for ns in [1u32, 4] {
            for func in [
                CompareFunc::Less,
                CompareFunc::LessEqual,
                CompareFunc::Greater,
                CompareFunc::GreaterEqual,
                CompareFunc::Equal,
                CompareFunc::NotEqual,
                CompareFunc::Always,
                CompareFunc::Never,
            ] {
                // A scissor on the block grid (regions inside it walked whole) and off it
                // (the blocks it cuts are not full), with one function.
                let rect = |x, y, width, height| {
                    Some(Rect {
                        x,
                        y,
                        width,
                        height,
                    })
                };
                let scissors = match func {
                    CompareFunc::Less => vec![None, rect(8, 16, 176, 104), rect(13, 7, 150, 97)],
                    _ => vec![None],
                };
                for (write, test, scissor) in scissors
                    .into_iter()
                    .flat_map(|sc| [(true, true, sc), (false, true, sc), (true, false, sc)])
                {
                    let mut st = FixedFunctionState::default();
                    st.raster.viewports[0].scissor = scissor;
                    st.depth_stencil.depth_test = test;
                    st.depth_stencil.depth_func = func;
                    st.depth_stencil.depth_write = write;
                    let render = |blocks: bool| {
                        let mut r = Rasterizer::new(1).unwrap_or_else(|e| panic!("{e}"));
                        r.set_block_path(blocks);
                        let mut f = fb(200, 136, ns, ColorFormat::Rgba8Unorm);
                        f.clear_depth(0.6, None);
                        let paths = || r.install(crate::block::strip_paths);
                        let before = paths();
                        let passed = r
                            .draw(&mut f, &st, &inp, &shader)
                            .unwrap_or_else(|e| panic!("{e}"))
                            .samples_passed;
                        let after = paths();
                        let mut all = Vec::new();
                        for i in 0..200 * 136 * ns {
                            let (x, y, s) = (i / ns % 200, i / ns / 200, i % ns);
                            let px = f.read_sample_raw(0, x, y, s).unwrap_or_default();
                            let d = f.read_depth(x, y, s).unwrap_or_default();
                            all.push((px, d.to_bits()));
                        }
                        let ran =
                            |p: crate::block::StripPath| after[p as usize] - before[p as usize];
                        use crate::block::StripPath as P;
                        let flat = ran(P::FlatDepth);
                        ((all, passed), ran(P::Region), ran(P::Reorder), flat)
                    };
                    let (blocks, region, reorder, flat) = render(true);
                    let (per_quad, none, _, _) = render(false);
                    assert_eq!(none, 0);
                    regions += region;
                    reordered += reorder;
                    flats += flat;
                    let what = format!(
                        "{isa:?}, kill {kill}, {ns} samples, {func:?}, write {write}, test {test}, \
                         scissor {scissor:?}"
                    );
                    let on_grid = scissor.is_none_or(|r| r.x % 8 == 0);
                    assert!(region > 0 || !on_grid, "{what}: no region walked whole");
                    assert!(
                        blocks.1 == per_quad.1,
                        "{what}: samples passed {} against {}",
                        blocks.1,
                        per_quad.1
                    );
                    assert!(blocks.0 == per_quad.0, "{what}: framebuffers differ");
                }
            }
        }
    }
    force(Isa::Avx512);
    assert!(regions > 100, "{regions} regions walked whole");
    assert!(reordered > 100, "{reordered} blocks with strips left out");
    // The flat one-sample depth kernel ran wherever the CPU has AVX-512.
    assert!(
        flats > 100 || crate::simd::detected() != Isa::Avx512,
        "{flats} blocks through the flat depth kernel"
    );
}
