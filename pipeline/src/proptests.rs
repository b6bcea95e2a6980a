//! Property tests: nothing a draw can contain makes assembly, tessellation or clipping
//! panic, and their outputs keep their invariants.

use crate::assembly::{assemble, PrimClass, PrimitiveMode, Primitives};
use crate::clip::{ClipContext, RasterPlan};
use crate::fetch::RESTART;
use crate::state::VertexProcessing;
use crate::tessellator::{tessellate, TessConfig};
use crate::vertices::Vertices;
use glemu_programs::ir::{TessMode, TessSpacing, VaryingSlot};
use glemu_raster::DrawInput;
use proptest::prelude::*;

const MODES: [PrimitiveMode; 15] = [
    PrimitiveMode::Points,
    PrimitiveMode::Lines,
    PrimitiveMode::LineLoop,
    PrimitiveMode::LineStrip,
    PrimitiveMode::Triangles,
    PrimitiveMode::TriangleStrip,
    PrimitiveMode::TriangleFan,
    PrimitiveMode::Quads,
    PrimitiveMode::QuadStrip,
    PrimitiveMode::Polygon,
    PrimitiveMode::LinesAdjacency,
    PrimitiveMode::LineStripAdjacency,
    PrimitiveMode::TrianglesAdjacency,
    PrimitiveMode::TriangleStripAdjacency,
    PrimitiveMode::Patches,
];

fn any_float() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -4.0f32..4.0,
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(-1e30f32),
        1 => Just(0.0f32),
    ]
}

proptest! {
    #[test]
    fn assembly_keeps_its_shape(
        mode in 0usize..MODES.len(),
        seq in proptest::collection::vec(prop_oneof![9 => 0u32..50, 1 => Just(RESTART)], 0..60),
        patch in 0u32..40,
        last in any::<bool>(),
    ) {
        if let Ok((class, p)) = assemble(MODES[mode], &seq, patch, last) {
            let per = class.vertices();
            prop_assert_eq!(p.verts.len(), p.len() * per);
            prop_assert!(p.verts.iter().all(|v| *v != RESTART));
            prop_assert!(p.provoking.iter().all(|k| (*k as usize) < per.max(1)));
            prop_assert!(p.edge_flags.is_empty() || p.edge_flags.len() == p.len());
        }
    }

    #[test]
    fn tessellation_never_panics_and_covers_the_domain(
        mode in 0usize..3,
        spacing in 0usize..3,
        outer in proptest::array::uniform4(any_float()),
        inner in proptest::array::uniform2(any_float()),
        cw in any::<bool>(),
    ) {
        let cfg = TessConfig {
            mode: [TessMode::Triangles, TessMode::Quads, TessMode::Isolines][mode],
            spacing: [TessSpacing::Equal, TessSpacing::FractionalOdd, TessSpacing::FractionalEven][spacing],
            cw,
            point_mode: false,
        };
        let t = tessellate(&cfg, outer, inner);
        let per = t.class.vertices();
        prop_assert_eq!(t.indices.len() % per, 0);
        prop_assert!(t.indices.iter().all(|i| (*i as usize) < t.coords.len()));
        prop_assert!(t.coords.iter().all(|c| c.iter().all(|x| x.is_finite() && (-1e-5..=1.0 + 1e-5).contains(x))));
        if t.class == PrimClass::Triangles && !t.indices.is_empty() {
            // Signed areas in (u, v) all have the declared orientation and sum to the
            // domain's area.
            let area: f64 = t.indices.chunks(3).map(|tri| {
                let p: Vec<(f64, f64)> = tri.iter().map(|i| {
                    let c = t.coords[*i as usize];
                    (c[0] as f64, c[1] as f64)
                }).collect();
                let a = 0.5 * ((p[1].0 - p[0].0) * (p[2].1 - p[0].1) - (p[2].0 - p[0].0) * (p[1].1 - p[0].1));
                if cw { -a } else { a }
            }).inspect(|a| assert!(*a >= -1e-6)).sum();
            let want = if cfg.mode == TessMode::Quads { 1.0 } else { 0.5 };
            prop_assert!((area - want).abs() < 1e-4, "area {}", area);
        }
    }

    #[test]
    fn clipping_never_panics_and_emits_finite_vertices(
        pos in proptest::collection::vec(proptest::array::uniform4(any_float()), 3..12),
        class in 0usize..3,
        user in any::<u8>(),
        clamp in any::<bool>(),
    ) {
        let mut v = Vertices::new(vec![VaryingSlot::Position, VaryingSlot::ClipDistance(0)]);
        for p in &pos {
            v.push_row(&[p.map(f32::to_bits), [p[0].to_bits(), 0, 0, 0]]);
        }
        let plan = RasterPlan { picks: vec![(Some(1), 0, false), (Some(0), 3, true)] };
        let mut vp = VertexProcessing::new(64, 64);
        vp.clip.enabled = user;
        vp.clip.depth_clamp = clamp;
        vp.clip.planes = [[0.3, -0.2, 0.1, 0.5]; 8];
        let class = [PrimClass::Points, PrimClass::Lines, PrimClass::Triangles][class];
        let per = class.vertices();
        let n = pos.len() / per * per;
        let prims = Primitives {
            verts: (0..n as u32).collect(),
            provoking: vec![0; n / per],
            edge_flags: vec![],
        };
        let cc = ClipContext::new(&v, &plan, &vp);
        let mut out = DrawInput::new(plan.picks.len());
        cc.add(class, &prims, &[], 0..prims.len(), &mut out);
        for w in &out.vertices {
            prop_assert!(w.pos.iter().all(|x| x.is_finite()), "{:?}", w.pos);
        }
        let shared = cc.shared();
        let n = shared.vertices.len();
        for p in &out.primitives {
            for &i in &p.v {
                let i = i as usize;
                let w = if i < n { shared.vertices.get(i) } else { out.vertices.get(i - n) };
                prop_assert!(w.is_some_and(|w| w.pos.iter().all(|x| x.is_finite())), "{:?}", w);
            }
        }
    }
}
