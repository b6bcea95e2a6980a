//! What the pipeline hands the rasterizer: clipped, viewport-transformed primitives.

/// A vertex in window coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct WindowVertex {
    /// (x_w, y_w, z_w, 1/w_clip): window x/y in pixels (origin bottom-left, y up), z after
    /// the depth range transform, and the reciprocal of clip-space w.
    pub pos: [f32; 4],
    /// Point size from the program (`result.pointsize`); negative = use the state's size.
    pub point_size: f32,
}

/// Kind of primitive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrimitiveKind {
    /// One vertex: `v[0]`.
    Point,
    /// Two vertices: `v[0]`, `v[1]`.
    Line,
    /// Three vertices.
    Triangle,
}

/// One primitive: indices into [`DrawInput::vertices`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Primitive {
    /// Point, line or triangle: how many of `v` are used.
    pub kind: PrimitiveKind,
    /// Indices into [`DrawInput::vertices`].
    pub v: [u32; 3],
    /// Which of `v` (0..3) supplies FLAT varyings.
    pub provoking: u8,
    /// `primitive.id` as the fragment program sees it.
    pub id: u32,
    /// Edge flags for polygon mode LINE/POINT: bit i set = the edge/vertex starting at
    /// `v[i]` is drawn. Use 0b111 when the pipeline has no edge flags.
    pub edge_flags: u8,
    /// Viewport index (below [`crate::MAX_VIEWPORTS`]; others are treated as 0): whose
    /// rectangle, scissor and depth range apply.
    pub viewport: u8,
}

impl Primitive {
    /// A triangle with default edge flags.
    pub fn triangle(v: [u32; 3], provoking: u8, id: u32) -> Self {
        Primitive {
            kind: PrimitiveKind::Triangle,
            v,
            provoking,
            id,
            edge_flags: 0b111,
            viewport: 0,
        }
    }
    /// A line segment.
    pub fn line(a: u32, b: u32, provoking: u8, id: u32) -> Self {
        Primitive {
            kind: PrimitiveKind::Line,
            v: [a, b, b],
            provoking,
            id,
            edge_flags: 0b111,
            viewport: 0,
        }
    }
    /// A point.
    pub fn point(a: u32, id: u32) -> Self {
        Primitive {
            kind: PrimitiveKind::Point,
            v: [a; 3],
            provoking: 0,
            id,
            edge_flags: 0b111,
            viewport: 0,
        }
    }
}

/// One draw's worth of primitives.
///
/// Varyings are scalars stored as raw 32-bit words: f32 bits unless the varying is FLAT,
/// in which case the bits are passed through untouched (integer varyings).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DrawInput {
    /// Every vertex the primitives index.
    pub vertices: Vec<WindowVertex>,
    /// `vertices.len() * varyings_per_vertex` words; vertex i's are at
    /// `i * varyings_per_vertex ..`.
    pub varyings: Vec<u32>,
    /// Scalar varyings each vertex carries.
    pub varyings_per_vertex: usize,
    /// In submission order; the framebuffer sees them in this order.
    pub primitives: Vec<Primitive>,
}

impl DrawInput {
    /// An empty draw with `varyings_per_vertex` scalar varyings per vertex.
    pub fn new(varyings_per_vertex: usize) -> Self {
        DrawInput {
            varyings_per_vertex,
            ..Default::default()
        }
    }

    /// Appends a vertex with its varyings (f32 or raw bits) and returns its index.
    /// Missing varyings are zero; extra ones are ignored.
    pub fn push_vertex(&mut self, v: WindowVertex, varyings: &[u32]) -> u32 {
        let idx = self.vertices.len() as u32;
        self.vertices.push(v);
        for k in 0..self.varyings_per_vertex {
            self.varyings.push(varyings.get(k).copied().unwrap_or(0));
        }
        idx
    }

    /// The varyings of vertex `i`, if it exists.
    pub fn vertex_varyings(&self, i: u32) -> Option<&[u32]> {
        let n = self.varyings_per_vertex;
        let start = (i as usize).checked_mul(n)?;
        self.varyings.get(start..start.checked_add(n)?)
    }
}
