//! Transform feedback (NV_transform_feedback / ARB_transform_feedback3): which vertex
//! results are recorded, per stream, and the begin/end/pause state of the bound
//! transform feedback object (ARB_transform_feedback2, GL 4.6 section 13.3; objects and
//! their draws are in `xfb_objects`).

use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_pipeline::xfb::{XfbBinding, XfbMode};
use glemu_pipeline::PrimClass;

pub use glemu_pipeline::xfb::{parse_attrib, XfbAttrib};

pub(crate) use super::xfb_objects::Xfb;

/// # Chapter 13.3 — Transform feedback
impl Context {
    /// `glTransformFeedbackStreamAttribsNV` for one stream: the vertex results (by name,
    /// e.g. `result.position`, `result.attrib[3]`) recorded for `stream` (0..4).
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.transform_feedback_attribs(0, &["result.position", "result.attrib[0]"]).unwrap();
    /// assert!(ctx.transform_feedback_attribs(4, &["result.position"]).is_err());
    /// assert!(ctx.transform_feedback_attribs(0, &["result.nonsense"]).is_err());
    /// ```
    pub fn transform_feedback_attribs(&mut self, stream: u32, names: &[&str]) -> Result<()> {
        if self.xfb.is_active() {
            return Err(Error::invalid_operation("transform feedback is active"));
        }
        if stream >= 4 {
            return Err(Error::invalid_value(format!(
                "vertex stream {stream} (max 3)"
            )));
        }
        let attribs = names
            .iter()
            .map(|n| parse_attrib(n, stream).map_err(crate::error::from_pipeline))
            .collect::<Result<Vec<_>>>()?;
        if let Some(slot) = self.xfb.streams.get_mut(stream as usize) {
            *slot = attribs;
        }
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
        if self.xfb.is_active() {
            return Err(Error::invalid_operation("transform feedback is active"));
        }
        self.xfb.separate = match mode {
            gl::INTERLEAVED_ATTRIBS => false,
            gl::SEPARATE_ATTRIBS => true,
            m => return Err(Error::invalid_enum("transform feedback buffer mode", m)),
        };
        Ok(())
    }

    /// `glBeginTransformFeedback(POINTS | LINES | TRIANGLES)`: captures into the buffers
    /// bound to `TRANSFORM_FEEDBACK_BUFFER` bindings 0..4 now.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.begin_transform_feedback(gl::TRIANGLES).unwrap();
    /// assert_eq!(ctx.begin_transform_feedback(gl::TRIANGLES).unwrap_err().gl, GlError::InvalidOperation);
    /// ctx.end_transform_feedback().unwrap();
    /// ```
    pub fn begin_transform_feedback(&mut self, mode: u32) -> Result<()> {
        let class = match mode {
            gl::POINTS => PrimClass::Points,
            gl::LINES => PrimClass::Lines,
            gl::TRIANGLES => PrimClass::Triangles,
            m => return Err(Error::invalid_enum("transform feedback primitive mode", m)),
        };
        if self.xfb.is_active() {
            return Err(Error::invalid_operation(
                "transform feedback is already active",
            ));
        }
        let mut buffers = Vec::new();
        for i in 0..4 {
            buffers.push(
                self.indexed_range(gl::TRANSFORM_FEEDBACK_BUFFER, i)?
                    .map(|r| XfbBinding {
                        buffer: r.buffer,
                        offset: r.offset,
                        size: r.size,
                    }),
            );
        }
        let x = &mut self.xfb;
        let st = &mut x.cur.state;
        st.mode = if x.separate {
            XfbMode::Separate
        } else {
            XfbMode::Interleaved
        };
        st.attribs = x.streams.iter().flatten().copied().collect();
        st.buffers = buffers;
        st.begin(class).map_err(crate::error::from_pipeline)?;
        x.cur.written = [0; 4];
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
        if !self.xfb.is_active() {
            return Err(Error::invalid_operation("transform feedback is not active"));
        }
        let cur = &mut self.xfb.cur;
        let per = cur.state.primitive.map_or(0, |c| c.vertices() as u64);
        cur.state.end().map_err(crate::error::from_pipeline)?;
        cur.last_vertices = Some(cur.written.map(|p| p * per));
        Ok(())
    }

    /// `glPauseTransformFeedback` (true) / `glResumeTransformFeedback` (false): pausing
    /// a paused or inactive object, or resuming one that is not paused, is
    /// `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// assert!(ctx.pause_transform_feedback(true).is_err());
    /// ctx.begin_transform_feedback(gl::POINTS).unwrap();
    /// ctx.pause_transform_feedback(true).unwrap();
    /// ```
    pub fn pause_transform_feedback(&mut self, paused: bool) -> Result<()> {
        let st = &mut self.xfb.cur.state;
        if !st.active {
            return Err(Error::invalid_operation("transform feedback is not active"));
        }
        if st.paused == paused {
            return Err(Error::invalid_operation(if paused {
                "already paused"
            } else {
                "not paused"
            }));
        }
        st.paused = paused;
        Ok(())
    }

    /// `glResumeTransformFeedback`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.begin_transform_feedback(gl::POINTS).unwrap();
    /// assert_eq!(ctx.resume_transform_feedback().unwrap_err().gl, GlError::InvalidOperation);
    /// ctx.pause_transform_feedback(true).unwrap();
    /// ctx.resume_transform_feedback().unwrap();
    /// ```
    pub fn resume_transform_feedback(&mut self) -> Result<()> {
        self.pause_transform_feedback(false)
    }
}
