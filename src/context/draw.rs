//! Draw calls: validate, snapshot the state a draw reads into the pipeline's `DrawState`
//! (programs with resolved parameters, arrays, buffers, raster state), submit, and feed
//! the results to active queries.

use super::buffers::param_buffer_target;
use super::gl_enum::{GlEnum, ProvokingVertex, ShadeModel};
use super::programs::stage_target;
use super::queries::QueryCounts;
use super::state::MAX_CLIP_PLANES;
use super::Context;
use crate::error::from_pipeline;
use crate::error::{Error, Result};
use crate::gl;
use glemu_pipeline::fetch::{IndexBuffer, IndexType};
use glemu_pipeline::{
    ClipState, DrawCall, DrawState, FogParams, PipelineError, PrimClass, PrimitiveMode,
    RenderTarget, StageProgram, StagePrograms, TessState, VertexProcessing, Viewport,
};
use glemu_programs::Stage;
use glemu_raster::Framebuffer;
use std::sync::Arc;

/// Parameter-buffer bindings per stage.
const MAX_PARAM_BUFFERS: u32 = crate::caps::LIMITS.max_program_parameter_buffer_bindings;

pub(super) fn primitive_mode(mode: u32) -> Result<PrimitiveMode> {
    PrimitiveMode::parse(mode)
}

pub(super) fn index_type(ty: u32) -> Result<IndexType> {
    Ok(match ty {
        gl::UNSIGNED_BYTE => IndexType::U8,
        gl::UNSIGNED_SHORT => IndexType::U16,
        gl::UNSIGNED_INT => IndexType::U32,
        t => return Err(Error::invalid_enum("index type", t)),
    })
}

pub(super) fn count(n: i32, what: &str) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::invalid_value(format!("negative {what} {n}")))
}

/// The class of primitives a draw mode feeds into transform feedback (when no geometry
/// or tessellation program changes it).
fn xfb_class(mode: PrimitiveMode) -> PrimClass {
    match mode.class(0) {
        PrimClass::Points => PrimClass::Points,
        PrimClass::Lines | PrimClass::LinesAdjacency => PrimClass::Lines,
        PrimClass::Triangles | PrimClass::TrianglesAdjacency | PrimClass::Patches(_) => {
            PrimClass::Triangles
        }
    }
}

/// # Chapter 10.4 — Drawing commands
impl Context {
    /// `glDrawArrays`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.draw_arrays(0x1234, 0, 3).unwrap_err().gl, GlError::InvalidEnum);
    /// assert_eq!(ctx.draw_arrays(gl::TRIANGLES, 0, -1).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn draw_arrays(&mut self, mode: u32, first: i32, n: i32) -> Result<()> {
        self.draw_arrays_instanced_base_instance(mode, first, n, 1, 0)
    }

    /// `glDrawArraysInstanced`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.draw_arrays_instanced(gl::POINTS, 0, 1, -2).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn draw_arrays_instanced(
        &mut self,
        mode: u32,
        first: i32,
        n: i32,
        instances: i32,
    ) -> Result<()> {
        self.draw_arrays_instanced_base_instance(mode, first, n, instances, 0)
    }

    /// `glDrawArraysInstancedBaseInstance`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.draw_arrays_instanced_base_instance(gl::POINTS, -1, 1, 1, 0).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn draw_arrays_instanced_base_instance(
        &mut self,
        mode: u32,
        first: i32,
        n: i32,
        instances: i32,
        base_instance: u32,
    ) -> Result<()> {
        let pm = primitive_mode(mode)?;
        let call = DrawCall {
            mode: pm,
            first: count(first, "first")?,
            count: count(n, "count")?,
            instances: count(instances, "instance count")?,
            base_vertex: 0,
            base_instance,
            draw_id: self.st.draw_id,
            indices: None,
            primitive_restart: None,
        };
        self.submit(call)
    }

    /// `glDrawElements`: `offset` is a byte offset into the bound `ELEMENT_ARRAY_BUFFER`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.draw_elements(gl::TRIANGLES, 3, gl::UNSIGNED_INT, 0).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // no element array buffer
    /// assert_eq!(ctx.draw_elements(gl::TRIANGLES, 3, gl::FLOAT, 0).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn draw_elements(&mut self, mode: u32, n: i32, ty: u32, offset: u64) -> Result<()> {
        self.draw_elements_instanced_base_vertex_base_instance(mode, n, ty, offset, 1, 0, 0)
    }

    /// `glDrawElementsBaseVertex`: `base_vertex` is added to every index (after
    /// primitive restart is checked against the raw index).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.draw_elements_base_vertex(gl::TRIANGLES, 3, gl::UNSIGNED_INT, 0, 4).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // no element array buffer
    /// ```
    pub fn draw_elements_base_vertex(
        &mut self,
        mode: u32,
        n: i32,
        ty: u32,
        offset: u64,
        base_vertex: i32,
    ) -> Result<()> {
        self.draw_elements_instanced_base_vertex_base_instance(
            mode,
            n,
            ty,
            offset,
            1,
            base_vertex,
            0,
        )
    }

    /// `glDrawRangeElementsBaseVertex`: [`Context::draw_range_elements`] with
    /// `base_vertex` added to every index (`start..=end` bound the indices before it is
    /// added).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.draw_range_elements_base_vertex(gl::POINTS, 3, 1, 1, gl::UNSIGNED_BYTE, 0, 2);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn draw_range_elements_base_vertex(
        &mut self,
        mode: u32,
        start: u32,
        end: u32,
        n: i32,
        ty: u32,
        offset: u64,
        base_vertex: i32,
    ) -> Result<()> {
        if end < start {
            return Err(Error::invalid_value(format!(
                "end {end} is below start {start}"
            )));
        }
        self.draw_elements_base_vertex(mode, n, ty, offset, base_vertex)
    }

    /// `glDrawElementsInstancedBaseInstance`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.draw_elements_instanced_base_instance(gl::LINES, 2, gl::UNSIGNED_SHORT, 0, -1, 3);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn draw_elements_instanced_base_instance(
        &mut self,
        mode: u32,
        n: i32,
        ty: u32,
        offset: u64,
        instances: i32,
        base_instance: u32,
    ) -> Result<()> {
        self.draw_elements_instanced_base_vertex_base_instance(
            mode,
            n,
            ty,
            offset,
            instances,
            0,
            base_instance,
        )
    }

    /// `glDrawElementsInstancedBaseVertex`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.draw_elements_instanced_base_vertex(gl::TRIANGLES, -3, gl::UNSIGNED_INT, 0, 1, 0).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn draw_elements_instanced_base_vertex(
        &mut self,
        mode: u32,
        n: i32,
        ty: u32,
        offset: u64,
        instances: i32,
        base_vertex: i32,
    ) -> Result<()> {
        self.draw_elements_instanced_base_vertex_base_instance(
            mode,
            n,
            ty,
            offset,
            instances,
            base_vertex,
            0,
        )
    }

    /// `glDrawElementsInstanced`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// assert!(ctx.draw_elements_instanced(gl::TRIANGLES, 3, gl::UNSIGNED_SHORT, 0, 2).is_err());
    /// ```
    pub fn draw_elements_instanced(
        &mut self,
        mode: u32,
        n: i32,
        ty: u32,
        offset: u64,
        instances: i32,
    ) -> Result<()> {
        self.draw_elements_instanced_base_vertex_base_instance(mode, n, ty, offset, instances, 0, 0)
    }

    /// `glDrawElementsInstancedBaseVertexBaseInstance`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx
    ///     .draw_elements_instanced_base_vertex_base_instance(gl::LINES, 2, gl::UNSIGNED_BYTE, 0, 1, 0, 0)
    ///     .unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn draw_elements_instanced_base_vertex_base_instance(
        &mut self,
        mode: u32,
        n: i32,
        ty: u32,
        offset: u64,
        instances: i32,
        base_vertex: i32,
        base_instance: u32,
    ) -> Result<()> {
        let pm = primitive_mode(mode)?;
        let ity = index_type(ty)?;
        let n = count(n, "count")?;
        let instances = count(instances, "instance count")?;
        let id = self
            .buffers
            .bound
            .get(&gl::ELEMENT_ARRAY_BUFFER)
            .copied()
            .ok_or_else(|| Error::invalid_operation("no ELEMENT_ARRAY_BUFFER is bound"))?;
        let buffer = self.buffer_store(id)?;
        let restart = self
            .st
            .primitive_restart
            .then_some(self.st.primitive_restart_index);
        let call = DrawCall {
            mode: pm,
            first: 0,
            count: n,
            instances,
            base_vertex,
            base_instance,
            draw_id: self.st.draw_id,
            indices: Some(IndexBuffer {
                buffer,
                offset,
                ty: ity,
            }),
            primitive_restart: restart,
        };
        self.submit(call)
    }

    /// `glDrawRangeElements`: `draw_elements` with the promise that every index lies in
    /// `start..=end`. `end < start` is `INVALID_VALUE`; glemu fetches only the indices it
    /// is given, so a broken promise cannot read outside the arrays (GL leaves the
    /// result undefined; glemu draws what the indices say).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.draw_range_elements(gl::TRIANGLES, 5, 2, 3, gl::UNSIGNED_INT, 0);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn draw_range_elements(
        &mut self,
        mode: u32,
        start: u32,
        end: u32,
        n: i32,
        ty: u32,
        offset: u64,
    ) -> Result<()> {
        self.draw_range_elements_base_vertex(mode, start, end, n, ty, offset, 0)
    }

    /// The program of stage `t` for this draw: the bound one when its target is enabled,
    /// a generated fixed-function one for vertex/fragment otherwise.
    pub(crate) fn stage_program(&mut self, t: Stage) -> Result<Option<StageProgram>> {
        if !self.st.program_enabled[t] {
            return match t {
                Stage::Vertex | Stage::Fragment => {
                    let program = self.fixed_function_program(t)?;
                    let obj = super::programs::ProgramObject::default();
                    let params = self.resolve_params(t, &obj, &program)?;
                    let executor = self.executors.get(&program);
                    Ok(Some(StageProgram::with_executor(executor, params)))
                }
                Stage::TessControl | Stage::TessEval | Stage::Geometry | Stage::Compute => Ok(None),
            };
        }
        let loaded = self
            .programs
            .bound_object(t)
            .ok_or_else(|| Error::invalid_operation("no program object is bound"))?
            .program
            .clone();
        let program = loaded.ok_or_else(|| {
            Error::invalid_operation(format!(
                "{} programs are enabled but the bound program (target {}) is not loaded",
                t.name(),
                crate::gl::name(stage_target(t))
            ))
        })?;
        let obj = self
            .programs
            .bound_object(t)
            .ok_or_else(|| Error::invalid_operation("no program object is bound"))?;
        let params = self.resolve_params(t, obj, &program)?;
        let mut sp = StageProgram::with_executor(self.executors.get(&program), params);
        sp.subroutines = self.subroutine_values(t);
        for i in 0..MAX_PARAM_BUFFERS {
            let r = self.indexed_range(param_buffer_target(t), i)?;
            if r.is_some() {
                sp.param_buffers.resize(i as usize + 1, None);
                sp.param_buffers[i as usize] = r;
            }
        }
        Ok(Some(sp))
    }

    /// Builds the draw snapshot for `call`.
    pub(crate) fn snapshot(&mut self, call: DrawCall) -> Result<DrawState> {
        let programs = StagePrograms {
            vertex: self.stage_program(Stage::Vertex)?,
            fragment: self.stage_program(Stage::Fragment)?,
            geometry: self.stage_program(Stage::Geometry)?,
            tess_control: self.stage_program(Stage::TessControl)?,
            tess_eval: self.stage_program(Stage::TessEval)?,
        };
        if call.mode == PrimitiveMode::Patches && programs.tess_eval.is_none() {
            return Err(Error::invalid_operation(
                "PATCHES drawn without a tessellation evaluation program",
            ));
        }
        if call.mode != PrimitiveMode::Patches && programs.tess_eval.is_some() {
            return Err(Error::invalid_operation(
                "a tessellation program is active but the mode is not PATCHES",
            ));
        }
        let st = &self.st;
        let mut vertex = VertexProcessing::new(self.width, self.height);
        for ((v, [x, y, width, height]), [near, far]) in vertex
            .viewports
            .iter_mut()
            .zip(st.viewports)
            .zip(st.depth_ranges)
        {
            *v = Viewport {
                x,
                y,
                width,
                height,
                near: near as f32,
                far: far as f32,
            };
        }
        let mut clip = ClipState {
            enabled: (st.clip_enabled & 0xff) as u8,
            depth_clamp: st.depth_clamp,
            ..Default::default()
        };
        // Eye-space planes → clip space: p_clip = p_eye · P⁻¹.
        let inv_p = super::state::inverse_or_zero(&st.projection);
        for (i, plane) in st.clip_planes.iter().enumerate().take(MAX_CLIP_PLANES) {
            // A row vector times P⁻¹: P⁻¹ᵀ times the column vector.
            let p = inv_p.transpose() * glam::DVec4::from_array(*plane);
            clip.planes[i] = p.to_array().map(|v| v as f32);
        }
        vertex.clip = clip;
        // Fixed-function two-sided lighting selects back colours like
        // VERTEX_PROGRAM_TWO_SIDE does for programs.
        let fixed_two_side = !st.program_enabled[Stage::Vertex] && st.lighting && st.light_two_side;
        vertex.two_side = st.two_side || fixed_two_side;
        vertex.provoking_last = st.provoking_vertex == ProvokingVertex::Last;
        vertex.tess = TessState {
            patch_vertices: st.patch_vertices,
            default_outer: st.patch_outer,
            default_inner: st.patch_inner,
        };
        vertex.rasterizer_discard = st.rasterizer_discard;
        vertex.flat_shading = st.shade_model == ShadeModel::Flat;
        vertex.fog = FogParams {
            color: st.fog.color,
            density: st.fog.density,
            start: st.fog.start,
            end: st.fog.end,
        };
        let mvp = st.projection * st.modelview;
        for (r, row) in vertex.mvp.iter_mut().enumerate() {
            *row = mvp.row(r).to_array().map(|v| v as f32);
        }
        vertex.point_size = st.point_size;
        vertex.program_point_size = st.program_point_size;
        let mut counter_buffers = Vec::new();
        let mut storage_buffers = Vec::new();
        for i in 0..16 {
            counter_buffers.push(self.indexed_range(gl::ATOMIC_COUNTER_BUFFER, i)?);
            storage_buffers.push(self.indexed_range(gl::SHADER_STORAGE_BUFFER, i)?);
        }
        let mut raster = super::snapshot::raster_state(&self.st);
        raster.blend.draw_buffers = self.plane_outputs();
        // Blend state is per draw buffer; the rasterizer takes it per plane.
        let by_buffer = raster.blend.targets;
        for (t, o) in raster
            .blend
            .targets
            .iter_mut()
            .zip(raster.blend.draw_buffers)
        {
            if let Some(b) = o.and_then(|o| by_buffer.get(usize::from(o))) {
                *t = *b;
            }
        }
        let dual = raster
            .blend
            .targets
            .iter()
            .any(|t| t.enabled && t.uses_src1());
        let draw = self.buffers(self.fbos.draw).draw;
        let max_dual = crate::caps::MAX_DUAL_SOURCE_DRAW_BUFFERS;
        if dual && draw.iter().skip(max_dual as usize).any(|&b| b != gl::NONE) {
            return Err(Error::invalid_operation(format!(
                "dual-source blending (a SRC1_* factor) with a draw buffer at index \
                 {max_dual} or above (MAX_DUAL_SOURCE_DRAW_BUFFERS)"
            )));
        }
        let images = self.image_units_for(&programs)?;
        Ok(DrawState {
            programs,
            attribs: self.attrib_bindings()?,
            textures: self.texture_units(),
            raster,
            call,
            vertex,
            counter_buffers,
            storage_buffers,
            memory: Arc::clone(&self.memory),
            images,
            layers: None,
        })
    }

    fn submit(&mut self, call: DrawCall) -> Result<()> {
        self.buffers.check_no_guard()?;
        let xs = &self.xfb.cur.state;
        if xs.capturing() {
            // With a geometry or tessellation program the pipeline checks its output.
            let programmable = self.st.program_enabled[Stage::Geometry]
                || self.st.program_enabled[Stage::TessEval];
            if !programmable && xs.primitive != Some(xfb_class(call.mode)) {
                return Err(Error::invalid_operation(
                    "draw mode does not match the transform feedback mode",
                ));
            }
        }
        if call.count == 0 || call.instances == 0 {
            return Ok(());
        }
        let mut state = self.snapshot(call)?;
        state.raster.deadline = self
            .limits
            .draw_time
            .and_then(glemu_raster::Deadline::after);
        // A layered framebuffer that a program selects layers of is the pipeline's
        // layered target: the stages run once and each layer is loaded and stored as the
        // pipeline rasterizes its primitives.
        state.layers = self.target_layers(&state);
        let rasterizer = std::sync::Arc::clone(&self.rasterizer);
        let capturing = self.xfb.cur.state.capturing();
        let started = std::time::Instant::now();
        let trace = self.trace.clone();
        // The stream-out state is moved out while the draw target is borrowed.
        let mut xfb_state = std::mem::take(&mut self.xfb.cur.state);
        let xfb = xfb_state.active.then_some(&mut xfb_state);
        let result = match state.layers {
            Some(_) => {
                let mut layers = LayerPasses {
                    ctx: self,
                    failed: None,
                };
                let r = run_pipeline(&state, &rasterizer, &mut layers, xfb, trace.as_deref());
                let failed = layers.failed.take();
                self.set_render_layer(0);
                r.map_err(|e| failed.unwrap_or(e))
            }
            None => self
                .draw_target()
                .and_then(|fb| run_pipeline(&state, &rasterizer, fb, xfb, trace.as_deref())),
        };
        self.xfb.cur.state = xfb_state;
        let stats = match result {
            Ok(s) => s,
            Err(e) => {
                // Image stores made before the failure still land, as on a GPU.
                let _ = self.write_back_images();
                return Err(self.locate_run_error(e));
            }
        };
        if capturing {
            self.xfb.add_written(&stats.primitives_written);
        }
        let layered = state.layers.is_some();
        // The snapshot's references to textures go first, so storing into a texture it
        // samples (a feedback loop) and writing image stores back do not copy the texture.
        drop(state);
        self.write_back_images()?;
        if !layered {
            self.store_draw_target(false)?;
        }
        // A stream overflowed when it had something to record and lost primitives.
        let st = &self.xfb.cur.state;
        let overflowed = std::array::from_fn(|s| {
            capturing
                && st.attribs.iter().any(|a| a.stream == s as u32)
                && stats.primitives_written[s] < stats.primitives_generated[s]
        });
        self.queries.add(&QueryCounts {
            stats: super::queries::PipelineStatistics::of(&stats),
            overflowed,
            samples_passed: stats.samples_passed,
            nanoseconds: u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX),
            generated: stats.primitives_generated,
            written: stats.primitives_written,
        });
        Ok(())
    }
}

/// `pipeline::draw` (traced when `trace` is set) into `target`.
fn run_pipeline(
    state: &DrawState,
    rasterizer: &glemu_raster::Rasterizer,
    target: &mut dyn RenderTarget,
    xfb: Option<&mut glemu_pipeline::XfbState>,
    trace: Option<&glemu_pipeline::FragmentTrace>,
) -> Result<glemu_pipeline::DrawStats> {
    match trace {
        None => glemu_pipeline::draw(state, rasterizer, target, xfb),
        Some(t) => glemu_pipeline::draw_traced(state, rasterizer, target, xfb, t),
    }
    .map_err(from_pipeline)
}

/// The layers of the draw framebuffer's layered attachments as the pipeline's target:
/// a layer is loaded into the framebuffer object's storage when the pipeline asks for it
/// and stored back into the attached images when its primitives are drawn.
struct LayerPasses<'a> {
    ctx: &'a mut Context,
    /// The Context's own error, reported instead of the pipeline's copy of it.
    failed: Option<Error>,
}

impl LayerPasses<'_> {
    fn fail(failed: &mut Option<Error>, e: Error) -> PipelineError {
        let message = e.to_string();
        *failed = Some(e);
        PipelineError::invalid_op(message)
    }
}

impl RenderTarget for LayerPasses<'_> {
    fn layer(&mut self, layer: u32) -> std::result::Result<&mut Framebuffer, PipelineError> {
        self.ctx.set_render_layer(layer);
        match self.ctx.draw_target() {
            Ok(fb) => Ok(fb),
            Err(e) => Err(Self::fail(&mut self.failed, e)),
        }
    }

    fn finish_layer(&mut self, _layer: u32) -> std::result::Result<(), PipelineError> {
        self.ctx
            .store_draw_target(false)
            .map_err(|e| Self::fail(&mut self.failed, e))
    }
}
