//! Query objects: occlusion (samples passed, any samples passed, conservative or not),
//! primitives generated / written per vertex stream, transform feedback overflow (any
//! stream, or one), time elapsed (the time the draws
//! between begin and end took to execute; clears and blits are not timed), and
//! timestamps (`query_counter`: nanoseconds since the context was made, which is when
//! every earlier command has completed). Results are available as soon as the query
//! ends (draws are synchronous).

use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use std::collections::HashMap;
use std::time::Instant;

/// One query object.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Query {
    pub target: u32,
    pub result: u64,
}

/// Query objects and which are active.
#[derive(Debug)]
pub(crate) struct Queries {
    pub objects: HashMap<u32, Query>,
    pub next_id: u32,
    /// (target, stream index) → query id.
    pub active: HashMap<(u32, u32), u32>,
    /// Time zero of TIMESTAMP queries.
    pub epoch: Instant,
    /// Every draw's pipeline statistics, summed.
    pub totals: PipelineStatistics,
}

impl Default for Queries {
    fn default() -> Queries {
        Queries {
            objects: HashMap::new(),
            next_id: 0,
            active: HashMap::new(),
            epoch: Instant::now(),
            totals: PipelineStatistics::default(),
        }
    }
}

/// What the pipeline did, counted by its stages (ARB_pipeline_statistics_query): one
/// draw's counts, or their sums since the context was made
/// ([`Context::pipeline_statistics`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PipelineStatistics {
    /// Vertices fetched, every instance (`GL_VERTICES_SUBMITTED_ARB`).
    pub vertices_submitted: u64,
    /// Primitives or patches assembled from them (`GL_PRIMITIVES_SUBMITTED_ARB`).
    pub primitives_submitted: u64,
    /// Vertex program runs, after the post-transform cache.
    pub vertex_invocations: u64,
    /// Patches the tessellation control program ran for.
    pub tess_control_patches: u64,
    /// Tessellation evaluation program runs (domain points).
    pub tess_eval_invocations: u64,
    /// Geometry program runs: input primitives times `INVOCATIONS`.
    pub geometry_invocations: u64,
    /// Primitives geometry programs emitted (every stream).
    pub geometry_primitives_emitted: u64,
    /// Primitives reaching clipping (none under rasterizer discard).
    pub clipping_input_primitives: u64,
    /// Primitives left after clipping, culling and zero-area removal.
    pub clipping_output_primitives: u64,
    /// Fragment program runs (helper invocations not counted; per sample when shading
    /// per sample).
    pub fragment_invocations: u64,
    /// Samples that passed the depth and stencil tests.
    pub samples_passed: u64,
}

impl PipelineStatistics {
    /// A draw's counters from the pipeline's.
    pub(crate) fn of(d: &glemu_pipeline::DrawStats) -> PipelineStatistics {
        PipelineStatistics {
            vertices_submitted: d.vertices_submitted,
            primitives_submitted: d.primitives_submitted,
            vertex_invocations: d.vertex_invocations,
            tess_control_patches: d.tess_control_patches,
            tess_eval_invocations: d.tess_eval_invocations,
            geometry_invocations: d.geometry_invocations,
            geometry_primitives_emitted: d.geometry_primitives_emitted,
            clipping_input_primitives: d.clipping_input_primitives,
            clipping_output_primitives: d.primitives_rasterized,
            fragment_invocations: d.fragment_invocations,
            samples_passed: d.samples_passed,
        }
    }

    fn add(&mut self, o: &PipelineStatistics) {
        self.vertices_submitted += o.vertices_submitted;
        self.primitives_submitted += o.primitives_submitted;
        self.vertex_invocations += o.vertex_invocations;
        self.tess_control_patches += o.tess_control_patches;
        self.tess_eval_invocations += o.tess_eval_invocations;
        self.geometry_invocations += o.geometry_invocations;
        self.geometry_primitives_emitted += o.geometry_primitives_emitted;
        self.clipping_input_primitives += o.clipping_input_primitives;
        self.clipping_output_primitives += o.clipping_output_primitives;
        self.fragment_invocations += o.fragment_invocations;
        self.samples_passed += o.samples_passed;
    }

    /// The counter a pipeline-statistics query target reads (`None`: not one of them).
    fn counter(&self, target: u32) -> Option<u64> {
        Some(match target {
            gl::VERTICES_SUBMITTED_ARB => self.vertices_submitted,
            gl::PRIMITIVES_SUBMITTED_ARB => self.primitives_submitted,
            gl::VERTEX_SHADER_INVOCATIONS_ARB => self.vertex_invocations,
            gl::TESS_CONTROL_SHADER_PATCHES_ARB => self.tess_control_patches,
            gl::TESS_EVALUATION_SHADER_INVOCATIONS_ARB => self.tess_eval_invocations,
            gl::GEOMETRY_SHADER_INVOCATIONS => self.geometry_invocations,
            gl::GEOMETRY_SHADER_PRIMITIVES_EMITTED_ARB => self.geometry_primitives_emitted,
            gl::CLIPPING_INPUT_PRIMITIVES_ARB => self.clipping_input_primitives,
            gl::CLIPPING_OUTPUT_PRIMITIVES_ARB => self.clipping_output_primitives,
            gl::FRAGMENT_SHADER_INVOCATIONS_ARB => self.fragment_invocations,
            // glemu has no compute stage.
            gl::COMPUTE_SHADER_INVOCATIONS_ARB => 0,
            _ => return None,
        })
    }
}

/// Counts one draw produced, as queries see them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct QueryCounts {
    pub stats: PipelineStatistics,
    pub samples_passed: u64,
    /// Nanoseconds the draw took (draws are synchronous: this is its execution time).
    pub nanoseconds: u64,
    pub generated: [u64; 4],
    pub written: [u64; 4],
    /// Per stream: transform feedback dropped primitives for lack of buffer space.
    pub overflowed: [bool; 4],
}

/// How many indices (vertex streams) a target glBeginQueryIndexed takes has; `None` for
/// targets it does not take.
fn query_streams(target: u32) -> Option<u32> {
    match target {
        gl::SAMPLES_PASSED
        | gl::ANY_SAMPLES_PASSED
        | gl::ANY_SAMPLES_PASSED_CONSERVATIVE
        | gl::TIME_ELAPSED
        | gl::TRANSFORM_FEEDBACK_OVERFLOW
        | gl::VERTICES_SUBMITTED_ARB
        | gl::PRIMITIVES_SUBMITTED_ARB
        | gl::VERTEX_SHADER_INVOCATIONS_ARB
        | gl::TESS_CONTROL_SHADER_PATCHES_ARB
        | gl::TESS_EVALUATION_SHADER_INVOCATIONS_ARB
        | gl::GEOMETRY_SHADER_INVOCATIONS
        | gl::GEOMETRY_SHADER_PRIMITIVES_EMITTED_ARB
        | gl::FRAGMENT_SHADER_INVOCATIONS_ARB
        | gl::COMPUTE_SHADER_INVOCATIONS_ARB
        | gl::CLIPPING_INPUT_PRIMITIVES_ARB
        | gl::CLIPPING_OUTPUT_PRIMITIVES_ARB => Some(1),
        gl::PRIMITIVES_GENERATED
        | gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN
        | gl::TRANSFORM_FEEDBACK_STREAM_OVERFLOW => Some(4),
        _ => None,
    }
}

impl Queries {
    pub(crate) fn add(&mut self, c: &QueryCounts) {
        self.totals.add(&c.stats);
        for (&(target, index), id) in &self.active {
            let Some(q) = self.objects.get_mut(id) else {
                continue;
            };
            let i = index as usize;
            q.result += match target {
                gl::SAMPLES_PASSED => c.samples_passed,
                gl::ANY_SAMPLES_PASSED | gl::ANY_SAMPLES_PASSED_CONSERVATIVE => {
                    u64::from(c.samples_passed > 0)
                }
                gl::TIME_ELAPSED => c.nanoseconds,
                gl::PRIMITIVES_GENERATED => c.generated.get(i).copied().unwrap_or(0),
                gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN => c.written.get(i).copied().unwrap_or(0),
                gl::TRANSFORM_FEEDBACK_OVERFLOW => u64::from(c.overflowed.contains(&true)),
                gl::TRANSFORM_FEEDBACK_STREAM_OVERFLOW => {
                    u64::from(c.overflowed.get(i).copied().unwrap_or(false))
                }
                t => c.stats.counter(t).unwrap_or(0),
            };
            if matches!(
                target,
                gl::ANY_SAMPLES_PASSED
                    | gl::ANY_SAMPLES_PASSED_CONSERVATIVE
                    | gl::TRANSFORM_FEEDBACK_OVERFLOW
                    | gl::TRANSFORM_FEEDBACK_STREAM_OVERFLOW
            ) {
                q.result = q.result.min(1);
            }
        }
    }
}

/// # Chapter 4 — Queries
///
/// Occlusion, primitive, transform-feedback, pipeline-statistics and timer queries.
impl Context {
    /// What the pipeline did since the context was made (or since
    /// [`Context::reset_pipeline_statistics`]): the counters of
    /// ARB_pipeline_statistics_query, summed over every draw, without a query object.
    /// `glemu bench` reads them around each frame.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(8, 8).unwrap();
    /// let q = ctx.gen_queries(1).unwrap()[0];
    /// ctx.begin_query(gl::FRAGMENT_SHADER_INVOCATIONS_ARB, q).unwrap();
    /// ctx.end_query(gl::FRAGMENT_SHADER_INVOCATIONS_ARB).unwrap();
    /// assert_eq!(ctx.pipeline_statistics().fragment_invocations, 0);
    /// ```
    pub fn pipeline_statistics(&self) -> PipelineStatistics {
        self.queries.totals
    }

    /// Zeroes [`Context::pipeline_statistics`].
    pub fn reset_pipeline_statistics(&mut self) {
        self.queries.totals = PipelineStatistics::default();
    }

    /// `glGenQueries`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.gen_queries(2).unwrap().len(), 2);
    /// ```
    pub fn gen_queries(&mut self, n: usize) -> Result<Vec<u32>> {
        let room = self.memory_room();
        let q = &mut self.queries;
        super::names::generate(
            "query",
            n,
            room,
            &mut q.next_id,
            &mut q.objects,
            super::names::NONE_OUTSIDE,
            Query::default,
        )
    }

    /// `glDeleteQueries`: 0 and unknown names are ignored. An active query's name is
    /// freed at once; its counting ends with the matching `end_query`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let q = ctx.gen_queries(1).unwrap()[0];
    /// ctx.begin_query(gl::SAMPLES_PASSED, q).unwrap();
    /// ctx.delete_queries(&[q, 0, 99]);
    /// assert!(!ctx.is_query(q));
    /// ctx.end_query(gl::SAMPLES_PASSED).unwrap();
    /// ```
    pub fn delete_queries(&mut self, ids: &[u32]) {
        for id in ids {
            self.queries.objects.remove(id);
        }
    }

    /// `glIsQuery`: a name from `gen_queries` becomes a query object at its first
    /// `begin_query`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let q = ctx.gen_queries(1).unwrap()[0];
    /// assert!(!ctx.is_query(q));
    /// ctx.begin_query(gl::ANY_SAMPLES_PASSED, q).unwrap();
    /// assert!(ctx.is_query(q));
    /// ```
    pub fn is_query(&self, id: u32) -> bool {
        self.queries.objects.get(&id).is_some_and(|q| q.target != 0)
    }

    /// `glBeginQuery`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let q = ctx.gen_queries(1).unwrap()[0];
    /// ctx.begin_query(gl::SAMPLES_PASSED, q).unwrap();
    /// assert_eq!(ctx.begin_query(gl::SAMPLES_PASSED, q).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn begin_query(&mut self, target: u32, id: u32) -> Result<()> {
        self.begin_query_indexed(target, 0, id)
    }

    /// `glBeginQueryIndexed` (vertex stream `index` for primitive queries).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let q = ctx.gen_queries(1).unwrap()[0];
    /// ctx.begin_query_indexed(gl::PRIMITIVES_GENERATED, 2, q).unwrap();
    /// assert!(ctx.begin_query_indexed(gl::PRIMITIVES_GENERATED, 4, q).is_err());
    /// ```
    pub fn begin_query_indexed(&mut self, target: u32, index: u32, id: u32) -> Result<()> {
        let streams =
            query_streams(target).ok_or_else(|| Error::invalid_enum("query target", target))?;
        if index >= streams {
            return Err(Error::invalid_value(format!(
                "query index {index} (max {})",
                streams - 1
            )));
        }
        if id == 0 {
            return Err(Error::invalid_operation("query name 0"));
        }
        if self.queries.active.contains_key(&(target, index)) {
            return Err(Error::invalid_operation(
                "a query of this target is already active",
            ));
        }
        if self.queries.active.values().any(|&a| a == id) {
            return Err(Error::invalid_operation(format!(
                "query {id} is already active"
            )));
        }
        let q = self.queries.objects.entry(id).or_default();
        if q.target != 0 && q.target != target {
            return Err(Error::invalid_operation(format!(
                "query {id} was used with another target"
            )));
        }
        *q = Query { target, result: 0 };
        self.queries.active.insert((target, index), id);
        Ok(())
    }

    /// `glEndQuery`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.end_query(gl::SAMPLES_PASSED).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn end_query(&mut self, target: u32) -> Result<()> {
        self.end_query_indexed(target, 0)
    }

    /// `glEndQueryIndexed`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let q = ctx.gen_queries(1).unwrap()[0];
    /// ctx.begin_query_indexed(gl::PRIMITIVES_GENERATED, 1, q).unwrap();
    /// ctx.end_query_indexed(gl::PRIMITIVES_GENERATED, 1).unwrap();
    /// assert_eq!(ctx.get_query_result(q).unwrap(), 0);
    /// ```
    pub fn end_query_indexed(&mut self, target: u32, index: u32) -> Result<()> {
        if query_streams(target).is_none() {
            return Err(Error::invalid_enum("query target", target));
        }
        self.queries
            .active
            .remove(&(target, index))
            .map(|_| ())
            .ok_or_else(|| Error::invalid_operation("no query of this target is active"))
    }

    /// `glGetQueryObjectui64v(QUERY_RESULT)`; an active or unknown query is
    /// `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{Context, GlError};
    /// let ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.get_query_result(42).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn get_query_result(&self, id: u32) -> Result<u64> {
        if self.queries.active.values().any(|&a| a == id) {
            return Err(Error::invalid_operation(format!(
                "query {id} is still active"
            )));
        }
        match self.queries.objects.get(&id) {
            Some(q) if q.target != 0 => Ok(q.result),
            _ => Err(Error::invalid_operation(format!(
                "query {id} has never been run"
            ))),
        }
    }

    /// `glGetQueryObjectui64v`: `QUERY_RESULT`, `QUERY_RESULT_NO_WAIT`,
    /// `QUERY_RESULT_AVAILABLE` (always 1 for an ended query: draws are synchronous) and
    /// `QUERY_TARGET`. An unknown or active query is `INVALID_OPERATION`, another pname
    /// `INVALID_ENUM`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let q = ctx.gen_queries(1).unwrap()[0];
    /// ctx.begin_query(gl::PRIMITIVES_GENERATED, q).unwrap();
    /// let e = ctx.get_query_object_ui64v(q, gl::QUERY_RESULT).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // still active
    /// ctx.end_query(gl::PRIMITIVES_GENERATED).unwrap();
    /// assert_eq!(ctx.get_query_object_ui64v(q, gl::QUERY_RESULT_AVAILABLE).unwrap(), 1);
    /// assert_eq!(ctx.get_query_object_ui64v(q, gl::QUERY_RESULT).unwrap(), 0);
    /// let t = ctx.get_query_object_ui64v(q, gl::QUERY_TARGET).unwrap();
    /// assert_eq!(t, u64::from(gl::PRIMITIVES_GENERATED));
    /// ```
    pub fn get_query_object_ui64v(&self, id: u32, pname: u32) -> Result<u64> {
        if !matches!(
            pname,
            gl::QUERY_RESULT
                | gl::QUERY_RESULT_NO_WAIT
                | gl::QUERY_RESULT_AVAILABLE
                | gl::QUERY_TARGET
        ) {
            return Err(Error::invalid_enum("query object parameter", pname));
        }
        let result = self.get_query_result(id)?;
        Ok(match pname {
            gl::QUERY_RESULT_AVAILABLE => 1,
            gl::QUERY_TARGET => self
                .queries
                .objects
                .get(&id)
                .map_or(0, |q| u64::from(q.target)),
            _ => result,
        })
    }

    /// `glGetQueryObjecti64v`: [`Context::get_query_object_ui64v`] clamped to `i64`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let q = ctx.gen_queries(1).unwrap()[0];
    /// ctx.begin_query(gl::SAMPLES_PASSED, q).unwrap();
    /// ctx.end_query(gl::SAMPLES_PASSED).unwrap();
    /// assert_eq!(ctx.get_query_object_i64v(q, gl::QUERY_RESULT).unwrap(), 0);
    /// ```
    pub fn get_query_object_i64v(&self, id: u32, pname: u32) -> Result<i64> {
        let v = self.get_query_object_ui64v(id, pname)?;
        Ok(i64::try_from(v).unwrap_or(i64::MAX))
    }

    /// `glGetQueryObjectuiv`: [`Context::get_query_object_ui64v`] clamped to `u32`, as GL
    /// converts a result too large for the type.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let q = ctx.gen_queries(1).unwrap()[0];
    /// ctx.begin_query(gl::SAMPLES_PASSED, q).unwrap();
    /// ctx.end_query(gl::SAMPLES_PASSED).unwrap();
    /// assert_eq!(ctx.get_query_object_uiv(q, gl::QUERY_RESULT_AVAILABLE).unwrap(), 1);
    /// let e = ctx.get_query_object_uiv(q, gl::TEXTURE_2D).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidEnum);
    /// ```
    pub fn get_query_object_uiv(&self, id: u32, pname: u32) -> Result<u32> {
        let v = self.get_query_object_ui64v(id, pname)?;
        Ok(u32::try_from(v).unwrap_or(u32::MAX))
    }

    /// `glGetQueryObjectiv`: [`Context::get_query_object_ui64v`] clamped to `i32`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let q = ctx.gen_queries(1).unwrap()[0];
    /// ctx.begin_query(gl::ANY_SAMPLES_PASSED, q).unwrap();
    /// ctx.end_query(gl::ANY_SAMPLES_PASSED).unwrap();
    /// assert_eq!(ctx.get_query_object_iv(q, gl::QUERY_RESULT).unwrap(), 0);
    /// ```
    pub fn get_query_object_iv(&self, id: u32, pname: u32) -> Result<i32> {
        let v = self.get_query_object_ui64v(id, pname)?;
        Ok(i32::try_from(v).unwrap_or(i32::MAX))
    }

    /// `glGetQueryiv`: [`Context::get_query_indexed_iv`] of index 0.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let q = ctx.gen_queries(1).unwrap()[0];
    /// ctx.begin_query(gl::SAMPLES_PASSED, q).unwrap();
    /// assert_eq!(ctx.get_query_iv(gl::SAMPLES_PASSED, gl::CURRENT_QUERY).unwrap(), q as i32);
    /// ```
    pub fn get_query_iv(&self, target: u32, pname: u32) -> Result<i32> {
        self.get_query_indexed_iv(target, 0, pname)
    }

    /// `glGetQueryIndexediv`: `CURRENT_QUERY` (the active query of `target` on stream
    /// `index`, or 0) and `QUERY_COUNTER_BITS` (64). An index past the target's streams
    /// is `INVALID_VALUE`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let q = ctx.gen_queries(1).unwrap()[0];
    /// ctx.begin_query_indexed(gl::PRIMITIVES_GENERATED, 2, q).unwrap();
    /// let get = |i, p| ctx.get_query_indexed_iv(gl::PRIMITIVES_GENERATED, i, p);
    /// assert_eq!(get(2, gl::CURRENT_QUERY).unwrap(), q as i32);
    /// assert_eq!(get(1, gl::CURRENT_QUERY).unwrap(), 0);
    /// assert_eq!(get(0, gl::QUERY_COUNTER_BITS).unwrap(), 64);
    /// assert_eq!(get(4, gl::CURRENT_QUERY).unwrap_err().gl, GlError::InvalidValue);
    /// assert_eq!(ctx.get_query_iv(gl::TIME_ELAPSED, gl::QUERY_COUNTER_BITS).unwrap(), 64);
    /// ```
    pub fn get_query_indexed_iv(&self, target: u32, index: u32, pname: u32) -> Result<i32> {
        let streams = match target {
            gl::TIMESTAMP => 1,
            t => query_streams(t).ok_or_else(|| Error::invalid_enum("query target", t))?,
        };
        if index >= streams {
            return Err(Error::invalid_value(format!(
                "query index {index} (max {})",
                streams - 1
            )));
        }
        match pname {
            gl::CURRENT_QUERY if target == gl::TIMESTAMP => {
                Err(Error::invalid_enum("TIMESTAMP query parameter", pname))
            }
            gl::CURRENT_QUERY => {
                let id = self.queries.active.get(&(target, index)).copied();
                Ok(i32::try_from(id.unwrap_or(0)).unwrap_or(i32::MAX))
            }
            gl::QUERY_COUNTER_BITS => Ok(64),
            p => Err(Error::invalid_enum("query parameter", p)),
        }
    }

    /// `glQueryCounter(id, TIMESTAMP)`: records the time, in nanoseconds since the
    /// context was made, at which every earlier command has completed (at once: draws
    /// are synchronous). Another target is `INVALID_ENUM`; an active query, or one used
    /// with another target, `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let q = ctx.gen_queries(2).unwrap();
    /// ctx.query_counter(q[0], gl::TIMESTAMP).unwrap();
    /// ctx.query_counter(q[1], gl::TIMESTAMP).unwrap();
    /// let t = |i: usize| ctx.get_query_object_ui64v(q[i], gl::QUERY_RESULT).unwrap();
    /// assert!(t(1) >= t(0));
    /// assert_eq!(ctx.query_counter(q[0], gl::TIME_ELAPSED).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn query_counter(&mut self, id: u32, target: u32) -> Result<()> {
        if target != gl::TIMESTAMP {
            return Err(Error::invalid_enum("query counter target", target));
        }
        if id == 0 {
            return Err(Error::invalid_operation("query name 0"));
        }
        if self.queries.active.values().any(|&a| a == id) {
            return Err(Error::invalid_operation(format!("query {id} is active")));
        }
        let now = u64::try_from(self.queries.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX);
        let q = self.queries.objects.entry(id).or_default();
        if q.target != 0 && q.target != gl::TIMESTAMP {
            return Err(Error::invalid_operation(format!(
                "query {id} was used with another target"
            )));
        }
        *q = Query {
            target: gl::TIMESTAMP,
            result: now,
        };
        Ok(())
    }
}
