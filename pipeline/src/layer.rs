//! Layered rendering (NV_geometry_program4 section 2.14.6.5 as applied to framebuffer
//! objects): each primitive goes to the layer its provoking vertex writes to
//! `result.layer.x` (an integer; layer 0 when no stage writes it). The vertex,
//! tessellation and geometry stages run once per draw; [`route`] then splits their
//! primitives by layer and the draw rasterizes each layer's share into the framebuffer
//! the [`RenderTarget`] gives for it.

use crate::assembly::{PrimClass, Primitives};
use crate::error::PipelineError;
use crate::vertices::Vertices;
use glemu_programs::ir::VaryingSlot;
use glemu_raster::Framebuffer;
use std::collections::BTreeMap;

/// What a draw renders into: one framebuffer, or one per layer of a layered
/// attachment (`DrawState::layers`).
pub trait RenderTarget: Send {
    /// The framebuffer `layer` renders into, ready to be drawn to. The draw asks for each
    /// layer that has primitives once, in increasing order, and calls
    /// [`RenderTarget::finish_layer`] before asking for the next.
    fn layer(&mut self, layer: u32) -> Result<&mut Framebuffer, PipelineError>;

    /// `layer`'s primitives are drawn: the target may store what its framebuffer holds.
    fn finish_layer(&mut self, layer: u32) -> Result<(), PipelineError> {
        let _ = layer;
        Ok(())
    }
}

/// A single framebuffer is every layer's target (a draw without `layers` asks for 0 only).
impl RenderTarget for Framebuffer {
    fn layer(&mut self, _layer: u32) -> Result<&mut Framebuffer, PipelineError> {
        Ok(self)
    }
}

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

/// The primitives of one layer with their `primitive.id`s.
#[derive(Debug, Default)]
pub struct LayerShare {
    /// The layer these primitives go to.
    pub layer: u32,
    /// The primitives, indexing the draw's vertices.
    pub prims: Primitives,
    /// `primitive.id` of each primitive.
    pub ids: Vec<u32>,
}

/// Splits `prims` (with their ids; shorter than `prims` = ids are indices) by the layer
/// each selects, keeping submission order inside a layer. Only layers below `layers`
/// with at least one primitive are returned, in increasing order; a primitive selecting
/// a layer the target lacks is not drawn.
pub fn route(
    verts: &Vertices,
    class: PrimClass,
    prims: &Primitives,
    ids: &[u32],
    layers: u32,
) -> Vec<LayerShare> {
    let per = class.vertices();
    let mut shares: BTreeMap<u32, LayerShare> = BTreeMap::new();
    for p in 0..prims.len() {
        let Ok(layer) = u32::try_from(layer_of(verts, class, prims, p)) else {
            continue;
        };
        let Some(vs) = prims.verts.get(p * per..(p + 1) * per) else {
            continue;
        };
        if layer >= layers {
            continue;
        }
        let out = shares.entry(layer).or_insert_with(|| LayerShare {
            layer,
            ..LayerShare::default()
        });
        out.prims.verts.extend_from_slice(vs);
        out.prims
            .provoking
            .push(prims.provoking.get(p).copied().unwrap_or(0));
        if !prims.edge_flags.is_empty() {
            out.prims.edge_flags.push(prims.edges(p));
        }
        out.ids.push(ids.get(p).copied().unwrap_or(p as u32));
    }
    shares.into_values().collect()
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
        let shares = route(&verts, PrimClass::Triangles, &prims, &[7, 8], 8);
        let got: Vec<_> = shares
            .iter()
            .map(|s| (s.layer, s.prims.verts.clone(), s.ids.clone()))
            .collect();
        assert_eq!(
            got,
            [(2, vec![0, 1, 2], vec![7]), (5, vec![3, 4, 5], vec![8])]
        );
        // Layer 5 is past a 4-layer target: not drawn.
        let shares = route(&verts, PrimClass::Triangles, &prims, &[7, 8], 4);
        assert_eq!(shares.len(), 1);
        // A negative layer selects none.
        let neg = Primitives {
            verts: vec![4],
            provoking: vec![0],
            edge_flags: Vec::new(),
        };
        assert!(route(&verts, PrimClass::Points, &neg, &[], 8).is_empty());
        // Without a layer output every primitive is on layer 0; ids default to indices.
        let plain = Vertices::new(vec![VaryingSlot::Position]);
        let two = Primitives {
            verts: vec![0, 0],
            provoking: vec![0, 0],
            edge_flags: Vec::new(),
        };
        let shares = route(&plain, PrimClass::Points, &two, &[], 4);
        assert_eq!((shares.len(), shares[0].layer), (1, 0));
        assert_eq!(shares[0].ids, [0, 1]);
    }
}
