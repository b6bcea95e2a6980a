//! Layered rendering (NV_geometry_program4 section 2.14.6.5 as applied to framebuffer
//! objects): each primitive goes to the layer its provoking vertex writes to
//! `result.layer.x` (an integer; layer 0 when no stage writes it). The context renders a
//! layered framebuffer one layer at a time; this picks the primitives of one layer.

use crate::assembly::{PrimClass, Primitives};
use crate::vertices::Vertices;
use glemu_programs::ir::VaryingSlot;

/// The layer primitive `p` of `prims` selects.
fn layer_of(verts: &Vertices, class: PrimClass, prims: &Primitives, p: usize) -> i64 {
    let per = class.vertices();
    let prov = prims.provoking.get(p).copied().unwrap_or(0) as usize;
    let Some(&v) = prims.verts.get(p * per + prov.min(per.saturating_sub(1))) else {
        return 0;
    };
    verts
        .slot(v as usize, VaryingSlot::Layer)
        .map_or(0, |l| i64::from(l[0] as i32))
}

/// The primitives (with their ids) that select `layer`; others are dropped (a layer
/// outside the framebuffer's layers selects none, so its primitives are not drawn).
pub fn select(
    verts: &Vertices,
    class: PrimClass,
    prims: &Primitives,
    ids: &[u32],
    layer: u32,
) -> (Primitives, Vec<u32>) {
    let per = class.vertices();
    let mut out = Primitives::default();
    let mut out_ids = Vec::new();
    for p in 0..prims.len() {
        if layer_of(verts, class, prims, p) != i64::from(layer) {
            continue;
        }
        if let Some(vs) = prims.verts.get(p * per..(p + 1) * per) {
            out.verts.extend_from_slice(vs);
            out.provoking
                .push(prims.provoking.get(p).copied().unwrap_or(0));
            if !prims.edge_flags.is_empty() {
                out.edge_flags.push(prims.edges(p));
            }
            out_ids.push(ids.get(p).copied().unwrap_or(p as u32));
        }
    }
    (out, out_ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primitives_follow_their_provoking_vertex_layer() {
        let mut verts = Vertices::new(vec![VaryingSlot::Position, VaryingSlot::Layer]);
        for layer in [0u32, 2, 2, 5, (-1i32) as u32, 2] {
            verts.push_row(&[[0; 4], [layer, 0, 0, 0]]);
        }
        // Two triangles: vertices 0-2 (provoking = last, layer 2) and 3-5 (provoking =
        // first, layer 5).
        let prims = Primitives {
            verts: vec![0, 1, 2, 3, 4, 5],
            provoking: vec![2, 0],
            edge_flags: Vec::new(),
        };
        let (p, ids) = select(&verts, PrimClass::Triangles, &prims, &[7, 8], 2);
        assert_eq!((p.verts, ids), (vec![0, 1, 2], vec![7]));
        let (p, ids) = select(&verts, PrimClass::Triangles, &prims, &[7, 8], 5);
        assert_eq!((p.verts, ids), (vec![3, 4, 5], vec![8]));
        assert!(select(&verts, PrimClass::Triangles, &prims, &[7, 8], 0)
            .0
            .is_empty());
        // Without a layer output every primitive is on layer 0.
        let plain = Vertices::new(vec![VaryingSlot::Position]);
        let one = Primitives {
            verts: vec![0],
            provoking: vec![0],
            edge_flags: Vec::new(),
        };
        assert_eq!(select(&plain, PrimClass::Points, &one, &[], 0).0.len(), 1);
        assert!(select(&plain, PrimClass::Points, &one, &[], 1).0.is_empty());
    }
}
