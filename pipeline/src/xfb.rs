//! Stream-out (NV_transform_feedback, ARB_transform_feedback3).
//!
//! Vertices of the last stage before the rasterizer are captured per primitive (strips
//! and fans decomposed into independent primitives). A primitive that does not fit in
//! every buffer it would be written to is not written at all — nor are later ones of the
//! same size — so what was captured stays intact; it still counts as generated.

use crate::assembly::{PrimClass, Primitives};
use crate::error::PipelineError;
use crate::memory::Buffer;
use crate::vertices::Vertices;
use glemu_programs::ir::VaryingSlot;
use std::sync::Arc;

/// How captured attributes are laid out in buffers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum XfbMode {
    /// All attributes of stream S interleaved in buffer S.
    #[default]
    Interleaved,
    /// Attribute i alone in buffer i.
    Separate,
}

/// One captured attribute.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct XfbAttrib {
    /// The varying captured.
    pub slot: VaryingSlot,
    /// 32-bit components written (1..=4).
    pub components: u8,
    /// Vertex stream it is captured from.
    pub stream: u32,
}

/// Parses an NV_transform_feedback attribute name (`result.position`,
/// `result.texcoord[1]`, `result.attrib[3]`, `result.color.back.secondary`, ...).
pub fn parse_attrib(name: &str, stream: u32) -> Result<XfbAttrib, PipelineError> {
    let bad = || PipelineError::invalid_value(format!("unknown stream-out attribute '{name}'"));
    let rest = name.trim().strip_prefix("result.").ok_or_else(bad)?;
    let (base, index) = match rest.find('[') {
        Some(p) => {
            let close = rest.find(']').ok_or_else(bad)?;
            let n: u32 = rest
                .get(p + 1..close)
                .and_then(|s| s.trim().parse().ok())
                .ok_or_else(bad)?;
            let tail = rest.get(close + 1..).unwrap_or("");
            if !tail.is_empty() {
                return Err(bad());
            }
            (rest.get(..p).unwrap_or(""), Some(n))
        }
        None => (rest, None),
    };
    let one = |slot| (slot, 1u8);
    let four = |slot| (slot, 4u8);
    let (slot, components) = match (base, index) {
        ("position", None) => four(VaryingSlot::Position),
        ("texcoord", i) => four(VaryingSlot::TexCoord(i.unwrap_or(0))),
        ("attrib", Some(i)) => four(VaryingSlot::Attrib(i)),
        ("fogcoord", None) => one(VaryingSlot::FogCoord),
        ("pointsize", None) => one(VaryingSlot::PointSize),
        ("clip", Some(i)) => one(VaryingSlot::ClipDistance(i)),
        ("primid", None) => one(VaryingSlot::PrimitiveId),
        ("id", None) => one(VaryingSlot::VertexId),
        ("layer", None) => one(VaryingSlot::Layer),
        ("viewport", None) => one(VaryingSlot::ViewportIndex),
        (c, None) if c == "color" || c.starts_with("color.") => {
            let mut back = false;
            let mut secondary = false;
            for part in c.split('.').skip(1) {
                match part {
                    "front" | "primary" => {}
                    "back" => back = true,
                    "secondary" => secondary = true,
                    _ => return Err(bad()),
                }
            }
            four(VaryingSlot::Color { back, secondary })
        }
        _ => return Err(bad()),
    };
    Ok(XfbAttrib {
        slot,
        components,
        stream,
    })
}

/// A buffer bound to a stream-out binding point.
#[derive(Clone, Debug)]
pub struct XfbBinding {
    /// The buffer written.
    pub buffer: Arc<Buffer>,
    /// Byte offset of the first captured value.
    pub offset: u64,
    /// Bytes available; `None` = to the end of the buffer.
    pub size: Option<u64>,
}

/// Stream-out state, owned by the Context and updated by every draw while active.
#[derive(Clone, Debug, Default)]
pub struct XfbState {
    /// Interleaved in one buffer or one attribute per buffer.
    pub mode: XfbMode,
    /// The varyings captured, in order.
    pub attribs: Vec<XfbAttrib>,
    /// Binding points, by index.
    pub buffers: Vec<Option<XfbBinding>>,
    /// Between begin and end.
    pub active: bool,
    /// Between pause and resume: draws capture nothing.
    pub paused: bool,
    /// The primitive mode given to begin (points, lines or triangles).
    pub primitive: Option<PrimClass>,
    /// Bytes written to each binding since begin.
    pub written: Vec<u64>,
}

impl XfbState {
    /// glBeginTransformFeedback: `primitive` is Points, Lines or Triangles.
    pub fn begin(&mut self, primitive: PrimClass) -> Result<(), PipelineError> {
        if self.active {
            return Err(PipelineError::invalid_op(
                "transform feedback is already active",
            ));
        }
        if !matches!(
            primitive,
            PrimClass::Points | PrimClass::Lines | PrimClass::Triangles
        ) {
            return Err(PipelineError::invalid_value(
                "transform feedback mode must be points, lines or triangles",
            ));
        }
        self.active = true;
        self.paused = false;
        self.primitive = Some(primitive);
        self.written = vec![0; self.buffers.len()];
        Ok(())
    }

    /// glEndTransformFeedback.
    pub fn end(&mut self) -> Result<(), PipelineError> {
        if !self.active {
            return Err(PipelineError::invalid_op(
                "transform feedback is not active",
            ));
        }
        self.active = false;
        self.paused = false;
        Ok(())
    }

    /// Capturing now (active and not paused).
    pub fn capturing(&self) -> bool {
        self.active && !self.paused
    }

    /// (buffer, attributes written to it in order) for stream `s`.
    fn targets(&self, s: u32) -> Vec<(usize, Vec<XfbAttrib>)> {
        match self.mode {
            XfbMode::Interleaved => {
                let a: Vec<XfbAttrib> = self
                    .attribs
                    .iter()
                    .copied()
                    .filter(|a| a.stream == s)
                    .collect();
                if a.is_empty() {
                    Vec::new()
                } else {
                    vec![(s as usize, a)]
                }
            }
            XfbMode::Separate => self
                .attribs
                .iter()
                .enumerate()
                .filter(|(_, a)| a.stream == s)
                .map(|(i, a)| (i, vec![*a]))
                .collect(),
        }
    }

    /// Captures the primitives of stream `stream`; returns how many were written.
    pub fn capture(
        &mut self,
        stream: u32,
        verts: &Vertices,
        class: PrimClass,
        prims: &Primitives,
    ) -> Result<u64, PipelineError> {
        if !self.capturing() {
            return Ok(0);
        }
        if let Some(p) = self.primitive {
            if p != class {
                return Err(PipelineError::invalid_op(format!(
                    "transform feedback expects {p:?} but the draw produces {class:?}"
                )));
            }
        }
        let targets = self.targets(stream);
        if targets.is_empty() {
            return Ok(0);
        }
        if self.written.len() < self.buffers.len() {
            self.written.resize(self.buffers.len(), 0);
        }
        let mut bindings = Vec::new();
        for (b, attrs) in &targets {
            let binding = self
                .buffers
                .get(*b)
                .and_then(|x| x.clone())
                .ok_or_else(|| {
                    PipelineError::invalid_op(format!("no buffer bound to stream-out binding {b}"))
                })?;
            let stride: u64 = attrs.iter().map(|a| u64::from(a.components) * 4).sum();
            let cols: Vec<(Option<usize>, u8)> = attrs
                .iter()
                .map(|a| (verts.find(a.slot), a.components))
                .collect();
            bindings.push((*b, binding, stride, cols));
        }
        let per = class.vertices();
        let mut written = 0;
        let mut bytes = Vec::new();
        for vs in prims.verts.chunks_exact(per) {
            let fits = bindings.iter().all(|(b, bind, stride, _)| {
                let cap = bind
                    .size
                    .unwrap_or_else(|| bind.buffer.len().saturating_sub(bind.offset));
                self.written.get(*b).copied().unwrap_or(0) + stride * per as u64 <= cap
            });
            if !fits {
                continue;
            }
            for (b, bind, _, cols) in &bindings {
                bytes.clear();
                for v in vs {
                    for (k, n) in cols {
                        let val = k.map(|k| verts.get(*v as usize, k)).unwrap_or([0; 4]);
                        for c in val.iter().take(usize::from(*n)) {
                            bytes.extend_from_slice(&c.to_le_bytes());
                        }
                    }
                }
                let at = self.written.get(*b).copied().unwrap_or(0);
                bind.buffer.write(bind.offset + at, &bytes)?;
                if let Some(w) = self.written.get_mut(*b) {
                    *w += bytes.len() as u64;
                }
            }
            written += 1;
        }
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_names() {
        assert_eq!(
            parse_attrib("result.position", 0).unwrap().slot,
            VaryingSlot::Position
        );
        assert_eq!(
            parse_attrib("result.texcoord[1]", 0).unwrap().slot,
            VaryingSlot::TexCoord(1)
        );
        let a = parse_attrib("result.attrib[3]", 2).unwrap();
        assert_eq!(
            (a.slot, a.components, a.stream),
            (VaryingSlot::Attrib(3), 4, 2)
        );
        assert_eq!(
            parse_attrib("result.color.back.secondary", 0).unwrap().slot,
            VaryingSlot::Color {
                back: true,
                secondary: true
            }
        );
        assert_eq!(parse_attrib("result.fogcoord", 0).unwrap().components, 1);
        assert_eq!(
            parse_attrib("result.clip[2]", 0).unwrap().slot,
            VaryingSlot::ClipDistance(2)
        );
        for bad in [
            "position",
            "result.bogus",
            "result.texcoord[x]",
            "result.attrib",
            "result.color.side",
        ] {
            assert!(parse_attrib(bad, 0).is_err(), "{bad}");
        }
    }

    fn setup(size: u64, mode: XfbMode) -> (XfbState, Vertices) {
        let mut v = Vertices::new(vec![VaryingSlot::Position, VaryingSlot::TexCoord(0)]);
        for i in 0..6u32 {
            v.push_row(&[[i, i, i, i], [100 + i, 0, 0, 0]]);
        }
        let mut st = XfbState {
            mode,
            attribs: vec![
                parse_attrib("result.texcoord[0]", 0).unwrap(),
                XfbAttrib {
                    slot: VaryingSlot::Position,
                    components: 2,
                    stream: 0,
                },
            ],
            buffers: vec![
                Some(XfbBinding {
                    buffer: Buffer::new(size).unwrap(),
                    offset: 0,
                    size: None,
                }),
                Some(XfbBinding {
                    buffer: Buffer::new(size).unwrap(),
                    offset: 4,
                    size: Some(size - 4),
                }),
            ],
            ..Default::default()
        };
        st.begin(PrimClass::Points).unwrap();
        (st, v)
    }

    fn words(b: &Buffer) -> Vec<u32> {
        b.to_vec()
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    #[test]
    fn interleaved_overflow_keeps_what_was_written() {
        let (mut st, v) = setup(48, XfbMode::Interleaved);
        let prims = Primitives {
            verts: vec![0, 1, 2],
            provoking: vec![0; 3],
            edge_flags: vec![],
        };
        // 24 bytes per point: two fit
        assert_eq!(st.capture(0, &v, PrimClass::Points, &prims).unwrap(), 2);
        let b = st.buffers[0].clone().unwrap().buffer;
        assert_eq!(words(&b), vec![100, 0, 0, 0, 0, 0, 101, 0, 0, 0, 1, 1]);
        assert_eq!(st.capture(0, &v, PrimClass::Points, &prims).unwrap(), 0);
        assert_eq!(words(&b)[6], 101);
        assert!(
            st.capture(0, &v, PrimClass::Lines, &prims).is_err(),
            "mode mismatch"
        );
        st.paused = true;
        assert_eq!(st.capture(0, &v, PrimClass::Points, &prims).unwrap(), 0);
    }

    #[test]
    fn separate_buffers_with_offsets() {
        let (mut st, v) = setup(40, XfbMode::Separate);
        let prims = Primitives {
            verts: vec![3, 4],
            provoking: vec![0; 2],
            edge_flags: vec![],
        };
        assert_eq!(st.capture(0, &v, PrimClass::Points, &prims).unwrap(), 2);
        let b0 = st.buffers[0].clone().unwrap().buffer;
        let b1 = st.buffers[1].clone().unwrap().buffer;
        assert_eq!(&words(&b0)[..8], &[103, 0, 0, 0, 104, 0, 0, 0]);
        assert_eq!(&words(&b1)[..5], &[0, 3, 3, 4, 4]);
        assert!(st.end().is_ok());
        assert!(st.end().is_err());
    }
}
