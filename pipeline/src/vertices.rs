//! Processed vertices between stages: each vertex is a row of vec4 varyings, one per
//! [`VaryingSlot`] the producing stage writes. Stages are linked by matching slots.

use glemu_programs::ir::{OutputBinding, Program, VaryingSlot};

/// Vertices produced by a stage: `data[v * slots.len() + k]` is slot `k` of vertex `v`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Vertices {
    /// The varying each column of a row holds.
    pub slots: Vec<VaryingSlot>,
    /// Rows of `slots.len()` vec4s, one per vertex, raw bits.
    pub data: Vec<[u32; 4]>,
}

impl Vertices {
    /// No vertices, with rows laid out as `slots`.
    pub fn new(slots: Vec<VaryingSlot>) -> Vertices {
        Vertices {
            slots,
            data: Vec::new(),
        }
    }

    /// The layout of a program's varying outputs: (output slot, varying) pairs.
    pub fn layout_of(program: &Program) -> Vec<(usize, VaryingSlot)> {
        program
            .outputs
            .iter()
            .enumerate()
            .filter_map(|(i, o)| match o.binding {
                OutputBinding::Varying(v) => Some((i, v)),
                _ => None,
            })
            .collect()
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        if self.slots.is_empty() {
            self.data.len()
        } else {
            self.data.len() / self.slots.len()
        }
    }

    /// True when there are no vertices.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Index of `slot` in the layout.
    pub fn find(&self, slot: VaryingSlot) -> Option<usize> {
        self.slots.iter().position(|s| *s == slot)
    }

    /// Value of layout entry `k` of vertex `v` (zeros when absent).
    pub fn get(&self, v: usize, k: usize) -> [u32; 4] {
        self.data
            .get(v * self.slots.len() + k)
            .copied()
            .unwrap_or([0; 4])
    }

    /// Value of `slot` for vertex `v`, if the producing stage wrote it.
    pub fn slot(&self, v: usize, slot: VaryingSlot) -> Option<[u32; 4]> {
        self.find(slot).map(|k| self.get(v, k))
    }

    /// The row of vertex `v`.
    pub fn row(&self, v: usize) -> &[[u32; 4]] {
        let n = self.slots.len();
        self.data.get(v * n..(v + 1) * n).unwrap_or(&[])
    }

    /// Appends a vertex; returns its index.
    pub fn push_row(&mut self, row: &[[u32; 4]]) -> u32 {
        let n = self.slots.len();
        let idx = self.len() as u32;
        for k in 0..n {
            self.data.push(row.get(k).copied().unwrap_or([0; 4]));
        }
        idx
    }

    /// Clip-space position of vertex `v` as floats ((0,0,0,0) when not written).
    pub fn position(&self, v: usize) -> [f32; 4] {
        self.slot(v, VaryingSlot::Position)
            .unwrap_or([0; 4])
            .map(f32::from_bits)
    }
}

/// The colour slots of a vertex layout (what GL_CLAMP_VERTEX_COLOR clamps).
pub(crate) fn colour_slots(slots: &[VaryingSlot]) -> Vec<usize> {
    (slots.iter().enumerate())
        .filter(|(_, s)| matches!(s, VaryingSlot::Color { .. }))
        .map(|(i, _)| i)
        .collect()
}

/// One colour component's bits clamped to [0, 1]. NaN becomes 0, as `f32::clamp` would
/// keep it and a NaN colour must not reach blending unclamped.
#[inline]
pub(crate) fn clamp_colour(bits: u32) -> u32 {
    let v = f32::from_bits(bits);
    if v >= 1.0 {
        1.0f32.to_bits()
    } else if v > 0.0 {
        bits
    } else {
        0.0f32.to_bits()
    }
}

/// Clamps every colour varying of `verts` to [0, 1] (GL_CLAMP_VERTEX_COLOR, see
/// [`clamp_colour`]). Returns the vertex rows it looked at.
pub(crate) fn clamp_colors(verts: &mut Vertices) -> u64 {
    let colour_slots = colour_slots(&verts.slots);
    // Also covers a layout of no slots (a zero stride).
    if colour_slots.is_empty() {
        return 0;
    }
    let stride = verts.slots.len();
    for v in verts.data.chunks_mut(stride) {
        for &k in &colour_slots {
            if let Some(c) = v.get_mut(k) {
                for b in c.iter_mut() {
                    *b = clamp_colour(*b);
                }
            }
        }
    }
    verts.len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_and_slots() {
        let mut v = Vertices::new(vec![VaryingSlot::Position, VaryingSlot::TexCoord(2)]);
        assert_eq!(v.push_row(&[[1, 2, 3, 4], [5, 6, 7, 8]]), 0);
        assert_eq!(v.push_row(&[[9, 9, 9, 9]]), 1);
        assert_eq!(v.len(), 2);
        assert_eq!(v.slot(0, VaryingSlot::TexCoord(2)), Some([5, 6, 7, 8]));
        assert_eq!(v.slot(1, VaryingSlot::TexCoord(2)), Some([0; 4]));
        assert_eq!(v.slot(1, VaryingSlot::FogCoord), None);
        assert_eq!(v.row(1), &[[9, 9, 9, 9], [0; 4]]);
        assert_eq!(v.get(5, 0), [0; 4]);
    }
}
