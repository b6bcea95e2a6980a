//! Transform feedback (NV_transform_feedback / ARB_transform_feedback3): which vertex
//! results are recorded, per stream, and the begin/end state.

use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_programs::ir::VaryingSlot;

/// One recorded attribute: the varying and how many components of it are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct XfbAttrib {
    /// The vertex result.
    pub slot: VaryingSlot,
    /// Components recorded (1..=4).
    pub components: u32,
}

/// The active capture.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct XfbActive {
    pub mode: u32,
    pub paused: bool,
}

/// Transform feedback state.
#[derive(Clone, Debug)]
pub(crate) struct Xfb {
    pub streams: [Vec<XfbAttrib>; 4],
    pub interleaved: bool,
    pub active: Option<XfbActive>,
}

impl Default for Xfb {
    fn default() -> Xfb {
        Xfb {
            streams: Default::default(),
            interleaved: true,
            active: None,
        }
    }
}

fn bracket_index(s: &str) -> Result<(String, Option<u32>)> {
    match s.split_once('[') {
        None => Ok((s.to_string(), None)),
        Some((base, rest)) => {
            let n = rest
                .strip_suffix(']')
                .and_then(|n| n.trim().parse::<u32>().ok())
                .ok_or_else(|| Error::invalid_value(format!("bad index in '{s}'")))?;
            Ok((base.to_string(), Some(n)))
        }
    }
}

/// Parses a vertex result name (`result.position`, `result.texcoord[1]`,
/// `result.attrib[3]`, `result.color.back.secondary`, ...) into what is recorded.
///
/// ```
/// use glemu::context::xfb::parse_result_name;
/// use glemu::programs::ir::VaryingSlot;
/// assert_eq!(parse_result_name("result.attrib[3]").unwrap().slot, VaryingSlot::Attrib(3));
/// assert_eq!(parse_result_name("result.fogcoord").unwrap().components, 1);
/// assert!(parse_result_name("result.nonsense").is_err());
/// ```
pub fn parse_result_name(name: &str) -> Result<XfbAttrib> {
    let rest = name.strip_prefix("result.").ok_or_else(|| {
        Error::invalid_value(format!("'{name}' is not a vertex result (result.*)"))
    })?;
    let mut parts = rest.split('.');
    let head = parts.next().unwrap_or("");
    let (base, idx) = bracket_index(head)?;
    let tail: Vec<&str> = parts.collect();
    let (slot, components) = match base.as_str() {
        "position" => (VaryingSlot::Position, 4),
        "color" => {
            let back = tail.contains(&"back");
            let secondary = tail.contains(&"secondary");
            (VaryingSlot::Color { back, secondary }, 4)
        }
        "texcoord" => (VaryingSlot::TexCoord(idx.unwrap_or(0)), 4),
        "attrib" | "generic" => (
            VaryingSlot::Attrib(
                idx.ok_or_else(|| Error::invalid_value(format!("'{name}' needs an index")))?,
            ),
            4,
        ),
        "fogcoord" | "fog" => (VaryingSlot::FogCoord, 1),
        "pointsize" => (VaryingSlot::PointSize, 1),
        "clip" => (
            VaryingSlot::ClipDistance(
                idx.ok_or_else(|| Error::invalid_value(format!("'{name}' needs an index")))?,
            ),
            1,
        ),
        "layer" => (VaryingSlot::Layer, 1),
        "viewport" => (VaryingSlot::ViewportIndex, 1),
        "primid" => (VaryingSlot::PrimitiveId, 1),
        _ => {
            return Err(Error::invalid_value(format!(
                "unknown vertex result '{name}'"
            )))
        }
    };
    Ok(XfbAttrib { slot, components })
}

impl Context {
    /// `glTransformFeedbackStreamAttribsNV` for one stream: the vertex results (by name,
    /// e.g. `result.position`) recorded for `stream` (0..4).
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.transform_feedback_attribs(0, &["result.position", "result.attrib[0]"]).unwrap();
    /// assert!(ctx.transform_feedback_attribs(4, &["result.position"]).is_err());
    /// ```
    pub fn transform_feedback_attribs(&mut self, stream: u32, names: &[&str]) -> Result<()> {
        if self.xfb.active.is_some() {
            return Err(Error::invalid_operation("transform feedback is active"));
        }
        let attribs = names
            .iter()
            .map(|n| parse_result_name(n))
            .collect::<Result<Vec<_>>>()?;
        let slot = self
            .xfb
            .streams
            .get_mut(stream as usize)
            .ok_or_else(|| Error::invalid_value(format!("vertex stream {stream} (max 3)")))?;
        *slot = attribs;
        Ok(())
    }

    /// Buffer mode: `INTERLEAVED_ATTRIBS` (stream S writes buffer S) or
    /// `SEPARATE_ATTRIBS` (attribute k writes buffer k).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.transform_feedback_buffer_mode(gl::SEPARATE_ATTRIBS).unwrap();
    /// assert!(ctx.transform_feedback_buffer_mode(gl::TRIANGLES).is_err());
    /// ```
    pub fn transform_feedback_buffer_mode(&mut self, mode: u32) -> Result<()> {
        if self.xfb.active.is_some() {
            return Err(Error::invalid_operation("transform feedback is active"));
        }
        self.xfb.interleaved = match mode {
            gl::INTERLEAVED_ATTRIBS => true,
            gl::SEPARATE_ATTRIBS => false,
            m => return Err(Error::invalid_enum("transform feedback buffer mode", m)),
        };
        Ok(())
    }

    /// `glBeginTransformFeedback(POINTS | LINES | TRIANGLES)`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.begin_transform_feedback(gl::TRIANGLES).unwrap();
    /// assert_eq!(ctx.begin_transform_feedback(gl::TRIANGLES).unwrap_err().gl, GlError::InvalidOperation);
    /// ctx.end_transform_feedback().unwrap();
    /// ```
    pub fn begin_transform_feedback(&mut self, mode: u32) -> Result<()> {
        if !matches!(mode, gl::POINTS | gl::LINES | gl::TRIANGLES) {
            return Err(Error::invalid_enum(
                "transform feedback primitive mode",
                mode,
            ));
        }
        if self.xfb.active.is_some() {
            return Err(Error::invalid_operation(
                "transform feedback is already active",
            ));
        }
        self.xfb.active = Some(XfbActive {
            mode,
            paused: false,
        });
        Ok(())
    }

    /// `glEndTransformFeedback`.
    ///
    /// ```
    /// use glemu::{Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.end_transform_feedback().unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn end_transform_feedback(&mut self) -> Result<()> {
        if self.xfb.active.take().is_none() {
            return Err(Error::invalid_operation("transform feedback is not active"));
        }
        Ok(())
    }

    /// `glPauseTransformFeedback` / `glResumeTransformFeedback`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// assert!(ctx.pause_transform_feedback(true).is_err());
    /// ctx.begin_transform_feedback(gl::POINTS).unwrap();
    /// ctx.pause_transform_feedback(true).unwrap();
    /// ```
    pub fn pause_transform_feedback(&mut self, paused: bool) -> Result<()> {
        match &mut self.xfb.active {
            Some(a) if a.paused != paused => {
                a.paused = paused;
                Ok(())
            }
            Some(_) => Err(Error::invalid_operation(if paused {
                "already paused"
            } else {
                "not paused"
            })),
            None => Err(Error::invalid_operation("transform feedback is not active")),
        }
    }
}
