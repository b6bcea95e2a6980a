//! Transform feedback objects (ARB_transform_feedback2, GL 4.6 section 13.2): each owns
//! its `TRANSFORM_FEEDBACK_BUFFER` indexed bindings, its active/paused capture state and
//! the vertex counts its last capture recorded per stream, which
//! `draw_transform_feedback*` (ARB_transform_feedback2/3, GL 4.6 section 10.5) draw.
//!
//! The bound object's bindings live in the buffer binding table while it is bound (so
//! every binding query and `begin_transform_feedback` see them) and move into the object
//! when another is bound. A buffer deleted while its object is not bound is dropped from
//! the object's bindings when it is bound again (GL would keep the deleted store alive;
//! a capture already begun keeps its stores either way).

use super::buffers::IndexedBinding;
use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_pipeline::xfb::{XfbAttrib, XfbState};
use std::collections::HashMap;

/// Vertex streams (MAX_VERTEX_STREAMS).
const MAX_STREAMS: u32 = crate::caps::LIMITS.max_vertex_streams;

/// One transform feedback object's state.
#[derive(Clone, Debug, Default)]
pub(crate) struct XfbObject {
    /// Capture state (buffers snapshotted at begin, as GL forbids rebinding while active).
    pub state: XfbState,
    /// Primitives written per stream since begin.
    pub written: [u64; 4],
    /// Vertices per stream captured by the last operation that ended; `None` until the
    /// first end.
    pub last_vertices: Option<[u64; 4]>,
    /// `TRANSFORM_FEEDBACK_BUFFER` indexed bindings while the object is not bound.
    pub bindings: Vec<(u32, IndexedBinding)>,
    /// Bound at least once: a generated name is not an object before that.
    pub created: bool,
}

/// Transform feedback state: the attribute lists per stream and buffer mode (context
/// state), the bound object and the others.
#[derive(Clone, Debug, Default)]
pub(crate) struct Xfb {
    pub streams: [Vec<XfbAttrib>; 4],
    pub separate: bool,
    /// The bound object's name (0 = the default object).
    pub bound: u32,
    /// The bound object.
    pub cur: XfbObject,
    /// Every other object and generated name, the default object (0) among them while
    /// another is bound.
    pub objects: HashMap<u32, XfbObject>,
    pub next_id: u32,
}

impl Xfb {
    /// The bound object is between begin and end (paused or not).
    pub(crate) fn is_active(&self) -> bool {
        self.cur.state.active
    }

    /// Object `id` if it exists (0, the default object, always does).
    fn object(&self, id: u32) -> Option<&XfbObject> {
        if id == self.bound {
            Some(&self.cur)
        } else {
            self.objects.get(&id).filter(|o| o.created || id == 0)
        }
    }

    /// Counts what a draw wrote while the bound object captured.
    pub(crate) fn add_written(&mut self, primitives: &[u64; 4]) {
        for (w, p) in self.cur.written.iter_mut().zip(primitives) {
            *w += p;
        }
    }
}

/// # Chapter 13.3 — Transform feedback objects and their draws
impl Context {
    /// `glGenTransformFeedbacks`: names that become objects when first bound.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let ids = ctx.gen_transform_feedbacks(2).unwrap();
    /// assert_eq!(ids.len(), 2);
    /// assert!(!ids.contains(&0) && !ctx.is_transform_feedback(ids[0]));
    /// ```
    pub fn gen_transform_feedbacks(&mut self, n: usize) -> Result<Vec<u32>> {
        let room = self.memory_room();
        let x = &mut self.xfb;
        // The bound object lives outside `objects`.
        let bound = x.bound;
        super::names::generate(
            "transform feedback",
            n,
            room,
            &mut x.next_id,
            &mut x.objects,
            (1, &|id| id == bound),
            XfbObject::default,
        )
    }

    /// `glBindTransformFeedback(TRANSFORM_FEEDBACK, id)`: 0 is the default object. A
    /// name not from `gen_transform_feedbacks` (or deleted) is `INVALID_OPERATION`, as
    /// is changing the binding while the bound object captures unpaused.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let t = ctx.gen_transform_feedbacks(1).unwrap()[0];
    /// ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, t).unwrap();
    /// assert!(ctx.is_transform_feedback(t));
    /// ctx.begin_transform_feedback(gl::POINTS).unwrap();
    /// let e = ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, 0).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation);
    /// ctx.pause_transform_feedback(true).unwrap();
    /// ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, 0).unwrap(); // paused: allowed
    /// assert_eq!(ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, 77).unwrap_err().gl, GlError::InvalidOperation);
    /// assert_eq!(ctx.bind_transform_feedback(gl::ARRAY_BUFFER, 0).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn bind_transform_feedback(&mut self, target: u32, id: u32) -> Result<()> {
        if target != gl::TRANSFORM_FEEDBACK {
            return Err(Error::invalid_enum("transform feedback target", target));
        }
        let x = &self.xfb;
        if x.cur.state.capturing() {
            return Err(Error::invalid_operation(
                "the bound transform feedback object is active and not paused",
            ));
        }
        if id != 0 && id != x.bound && !x.objects.contains_key(&id) {
            return Err(Error::invalid_operation(format!(
                "{id} is not a transform feedback name from gen_transform_feedbacks"
            )));
        }
        if id == x.bound {
            self.xfb.cur.created = true;
            return Ok(());
        }
        // Park the bound object with its buffer bindings, then install the new one.
        let mut cur = std::mem::take(&mut self.xfb.cur);
        cur.bindings.clear();
        self.buffers.indexed.retain(|&(t, i), b| {
            let ours = t == gl::TRANSFORM_FEEDBACK_BUFFER;
            if ours {
                cur.bindings.push((i, *b));
            }
            !ours
        });
        let old = std::mem::replace(&mut self.xfb.bound, id);
        self.xfb.objects.insert(old, cur);
        let mut next = self.xfb.objects.remove(&id).unwrap_or_default();
        for (i, b) in next.bindings.drain(..) {
            if self.buffers.objects.contains_key(&b.id) {
                self.buffers
                    .indexed
                    .insert((gl::TRANSFORM_FEEDBACK_BUFFER, i), b);
            }
        }
        next.created = true;
        self.xfb.cur = next;
        Ok(())
    }

    /// `glDeleteTransformFeedbacks`: 0 and unknown names are ignored; deleting the bound
    /// object binds the default one. Any named object being active (even paused) is
    /// `INVALID_OPERATION` and deletes nothing.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let t = ctx.gen_transform_feedbacks(2).unwrap();
    /// ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, t[0]).unwrap();
    /// ctx.begin_transform_feedback(gl::POINTS).unwrap();
    /// assert_eq!(ctx.delete_transform_feedbacks(&t).unwrap_err().gl, GlError::InvalidOperation);
    /// ctx.end_transform_feedback().unwrap();
    /// ctx.delete_transform_feedbacks(&[t[0], t[1], 0, 99]).unwrap();
    /// assert!(!ctx.is_transform_feedback(t[0]));
    /// assert!(ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, t[1]).is_err());
    /// ```
    pub fn delete_transform_feedbacks(&mut self, ids: &[u32]) -> Result<()> {
        for &id in ids.iter().filter(|&&id| id != 0) {
            if self.xfb.object(id).is_some_and(|o| o.state.active) {
                return Err(Error::invalid_operation(format!(
                    "transform feedback object {id} is active"
                )));
            }
        }
        for &id in ids.iter().filter(|&&id| id != 0) {
            if id == self.xfb.bound {
                self.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, 0)?;
            }
            self.xfb.objects.remove(&id);
        }
        Ok(())
    }

    /// `glIsTransformFeedback`: true for names bound at least once and not deleted.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let t = ctx.gen_transform_feedbacks(1).unwrap()[0];
    /// assert!(!ctx.is_transform_feedback(t));
    /// ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, t).unwrap();
    /// ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, 0).unwrap();
    /// assert!(ctx.is_transform_feedback(t) && !ctx.is_transform_feedback(0));
    /// ```
    pub fn is_transform_feedback(&self, id: u32) -> bool {
        id != 0 && self.xfb.object(id).is_some_and(|o| o.created)
    }

    /// `glGetTransformFeedbackiv` for `TRANSFORM_FEEDBACK_ACTIVE` and
    /// `TRANSFORM_FEEDBACK_PAUSED` (0 or 1). A name that is not an object is
    /// `INVALID_OPERATION`, another pname `INVALID_ENUM`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.begin_transform_feedback(gl::LINES).unwrap();
    /// ctx.pause_transform_feedback(true).unwrap();
    /// assert_eq!(ctx.get_transform_feedback_iv(0, gl::TRANSFORM_FEEDBACK_ACTIVE).unwrap(), 1);
    /// assert_eq!(ctx.get_transform_feedback_iv(0, gl::TRANSFORM_FEEDBACK_PAUSED).unwrap(), 1);
    /// assert!(ctx.get_transform_feedback_iv(5, gl::TRANSFORM_FEEDBACK_ACTIVE).is_err());
    /// ```
    pub fn get_transform_feedback_iv(&self, id: u32, pname: u32) -> Result<i32> {
        let o = self.xfb.object(id).ok_or_else(|| {
            Error::invalid_operation(format!("{id} is not a transform feedback object"))
        })?;
        match pname {
            gl::TRANSFORM_FEEDBACK_ACTIVE => Ok(i32::from(o.state.active)),
            gl::TRANSFORM_FEEDBACK_PAUSED => Ok(i32::from(o.state.paused)),
            p => Err(Error::invalid_enum("transform feedback parameter", p)),
        }
    }

    /// `glGetTransformFeedbacki64_v` (and `i_v`): `TRANSFORM_FEEDBACK_BUFFER_BINDING`,
    /// `_START` or `_SIZE` of binding `index` of object `id`, bound or not (size 0 for a
    /// whole-buffer binding). A name that is not an object is `INVALID_OPERATION`, an
    /// index past 3 `INVALID_VALUE`, another pname `INVALID_ENUM`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let t = ctx.gen_transform_feedbacks(1).unwrap()[0];
    /// ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, t).unwrap();
    /// ctx.bind_buffer_range(gl::TRANSFORM_FEEDBACK_BUFFER, 2, 9, 16, 64).unwrap();
    /// ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, 0).unwrap();
    /// let get = |p, i| ctx.get_transform_feedback_i64_v(t, p, i);
    /// assert_eq!(get(gl::TRANSFORM_FEEDBACK_BUFFER_BINDING, 2).unwrap(), 9);
    /// assert_eq!(get(gl::TRANSFORM_FEEDBACK_BUFFER_START, 2).unwrap(), 16);
    /// assert_eq!(get(gl::TRANSFORM_FEEDBACK_BUFFER_SIZE, 2).unwrap(), 64);
    /// assert_eq!(get(gl::TRANSFORM_FEEDBACK_BUFFER_BINDING, 0).unwrap(), 0);
    /// assert_eq!(get(gl::TRANSFORM_FEEDBACK_BUFFER_BINDING, 4).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn get_transform_feedback_i64_v(&self, id: u32, pname: u32, index: u32) -> Result<i64> {
        let o = self.xfb.object(id).ok_or_else(|| {
            Error::invalid_operation(format!("{id} is not a transform feedback object"))
        })?;
        if !matches!(
            pname,
            gl::TRANSFORM_FEEDBACK_BUFFER_BINDING
                | gl::TRANSFORM_FEEDBACK_BUFFER_START
                | gl::TRANSFORM_FEEDBACK_BUFFER_SIZE
        ) {
            return Err(Error::invalid_enum("transform feedback parameter", pname));
        }
        if index >= MAX_STREAMS {
            return Err(Error::invalid_value(format!(
                "transform feedback binding {index} (max {})",
                MAX_STREAMS - 1
            )));
        }
        // The bound object's bindings are in the binding table, the others' in them.
        let b = if id == self.xfb.bound {
            self.buffers
                .indexed
                .get(&(gl::TRANSFORM_FEEDBACK_BUFFER, index))
                .copied()
        } else {
            o.bindings
                .iter()
                .find(|(i, _)| *i == index)
                .map(|(_, b)| *b)
        };
        let v = match (pname, b) {
            (_, None) => 0,
            (gl::TRANSFORM_FEEDBACK_BUFFER_BINDING, Some(b)) => u64::from(b.id),
            (gl::TRANSFORM_FEEDBACK_BUFFER_START, Some(b)) => b.offset,
            (_, Some(b)) => b.size.unwrap_or(0),
        };
        Ok(i64::try_from(v).unwrap_or(i64::MAX))
    }

    /// `glDrawTransformFeedback`: `draw_arrays(mode, 0, n)` with `n` the vertices object
    /// `id` captured on stream 0 in its last begin/end. A name that is not an object is
    /// `INVALID_VALUE`; an object that never ended a capture `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let t = ctx.gen_transform_feedbacks(1).unwrap()[0];
    /// ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, t).unwrap();
    /// let e = ctx.draw_transform_feedback(gl::POINTS, t).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // never ended
    /// ctx.begin_transform_feedback(gl::POINTS).unwrap();
    /// ctx.end_transform_feedback().unwrap();
    /// ctx.draw_transform_feedback(gl::POINTS, t).unwrap(); // zero vertices: draws nothing
    /// assert_eq!(ctx.draw_transform_feedback(gl::POINTS, 42).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn draw_transform_feedback(&mut self, mode: u32, id: u32) -> Result<()> {
        self.draw_transform_feedback_stream_instanced(mode, id, 0, 1)
    }

    /// `glDrawTransformFeedbackStream`: the vertices captured on vertex stream `stream`
    /// (0..4; more is `INVALID_VALUE`).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.begin_transform_feedback(gl::TRIANGLES).unwrap();
    /// ctx.end_transform_feedback().unwrap();
    /// ctx.draw_transform_feedback_stream(gl::TRIANGLES, 0, 3).unwrap();
    /// let e = ctx.draw_transform_feedback_stream(gl::TRIANGLES, 0, 4).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn draw_transform_feedback_stream(
        &mut self,
        mode: u32,
        id: u32,
        stream: u32,
    ) -> Result<()> {
        self.draw_transform_feedback_stream_instanced(mode, id, stream, 1)
    }

    /// `glDrawTransformFeedbackInstanced`: stream 0, `instances` instances.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.begin_transform_feedback(gl::POINTS).unwrap();
    /// ctx.end_transform_feedback().unwrap();
    /// let e = ctx.draw_transform_feedback_instanced(gl::POINTS, 0, -1).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn draw_transform_feedback_instanced(
        &mut self,
        mode: u32,
        id: u32,
        instances: i32,
    ) -> Result<()> {
        self.draw_transform_feedback_stream_instanced(mode, id, 0, instances)
    }

    /// `glDrawTransformFeedbackStreamInstanced`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.draw_transform_feedback_stream_instanced(gl::POINTS, 0, 1, 2).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // the default object never ended
    /// ```
    pub fn draw_transform_feedback_stream_instanced(
        &mut self,
        mode: u32,
        id: u32,
        stream: u32,
        instances: i32,
    ) -> Result<()> {
        if stream >= MAX_STREAMS {
            return Err(Error::invalid_value(format!(
                "vertex stream {stream} (max {})",
                MAX_STREAMS - 1
            )));
        }
        let o = self.xfb.object(id).ok_or_else(|| {
            Error::invalid_value(format!("{id} is not a transform feedback object"))
        })?;
        let counts = o.last_vertices.ok_or_else(|| {
            Error::invalid_operation(format!(
                "transform feedback object {id} has never ended a capture"
            ))
        })?;
        let n = counts.get(stream as usize).copied().unwrap_or(0);
        let n =
            i32::try_from(n).map_err(|_| Error::invalid_value(format!("{n} captured vertices")))?;
        self.draw_arrays_instanced(mode, 0, n, instances)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binding(ctx: &Context, i: u32) -> Option<u32> {
        ctx.buffers
            .indexed
            .get(&(gl::TRANSFORM_FEEDBACK_BUFFER, i))
            .map(|b| b.id)
    }

    #[test]
    fn bindings_move_with_the_object_and_drop_deleted_buffers() {
        let mut ctx = Context::new(4, 4).unwrap();
        let t = ctx.gen_transform_feedbacks(1).unwrap()[0];
        ctx.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, 1, 7)
            .unwrap();
        ctx.bind_buffer_base(gl::UNIFORM_BUFFER, 1, 8).unwrap();
        ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, t)
            .unwrap();
        assert_eq!(binding(&ctx, 1), None, "the default object's binding left");
        assert!(
            ctx.buffers.indexed.contains_key(&(gl::UNIFORM_BUFFER, 1)),
            "other targets stay"
        );
        ctx.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, 3, 9)
            .unwrap();
        ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, 0)
            .unwrap();
        assert_eq!((binding(&ctx, 1), binding(&ctx, 3)), (Some(7), None));
        ctx.delete_buffers(&[9]);
        ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, t)
            .unwrap();
        assert_eq!(binding(&ctx, 3), None, "buffer 9 was deleted meanwhile");
        assert_eq!(ctx.xfb.bound, t);
        assert!(
            ctx.xfb.objects.contains_key(&0),
            "the default object is parked"
        );
    }

    #[test]
    fn counts_are_vertices_of_the_last_ended_capture() {
        let mut ctx = Context::new(4, 4).unwrap();
        ctx.begin_transform_feedback(gl::LINES).unwrap();
        ctx.xfb.add_written(&[3, 0, 1, 0]);
        ctx.end_transform_feedback().unwrap();
        assert_eq!(ctx.xfb.cur.last_vertices, Some([6, 0, 2, 0]));
        // A new capture restarts the count but keeps the last one until it ends.
        ctx.begin_transform_feedback(gl::POINTS).unwrap();
        ctx.xfb.add_written(&[5, 0, 0, 0]);
        assert_eq!(ctx.xfb.cur.last_vertices, Some([6, 0, 2, 0]));
        ctx.end_transform_feedback().unwrap();
        assert_eq!(ctx.xfb.cur.last_vertices, Some([5, 0, 0, 0]));
    }
}
