//! `[test]` commands: each parsed [`Command`] as the Context calls it stands for.

use super::Runner;
use crate::context::buffers::param_buffer_target_for;
use crate::scene::command::{Command, MatrixTarget, ParamKind};
use crate::{gl, Error};
use glemu_textures::SampleType;

impl Runner {
    pub(super) fn restart_occlusion(&mut self) -> Result<(), Error> {
        if self.occlusion.is_some() {
            self.ctx.end_query(gl::SAMPLES_PASSED)?;
        }
        let q = match self.occlusion {
            Some(q) => q,
            None => self.ctx.gen_queries(1)?[0],
        };
        self.ctx.begin_query(gl::SAMPLES_PASSED, q)?;
        self.occlusion = Some(q);
        self.samples_passed = 0;
        Ok(())
    }

    pub(super) fn set_param(
        &mut self,
        kind: ParamKind,
        index: u32,
        bits: [u32; 4],
    ) -> Result<(), Error> {
        if kind.env {
            self.ctx
                .program_env_parameter_bits(kind.target, index, bits)
        } else {
            self.ctx
                .program_local_parameter_bits(kind.target, index, bits)
        }
    }

    pub(super) fn command(&mut self, line: usize, cmd: &Command) -> Result<(), Error> {
        let c = &mut self.ctx;
        match cmd {
            Command::ClearColor(v) => c.clear_color(*v)?,
            Command::ClearDepth(d) => c.clear_depth(*d)?,
            Command::ClearStencil(s) => c.clear_stencil(*s)?,
            Command::Clear => {
                c.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT)?;
                self.restart_occlusion()?;
            }
            Command::Size(w, h) => {
                let s = c.samples();
                c.resize_framebuffer(*w, *h, s)?
            }
            Command::Samples(n) => {
                let (w, h) = c.size();
                c.resize_framebuffer(w, h, *n)?
            }
            Command::Viewport(v) => c.viewport(v[0], v[1], v[2], v[3])?,
            Command::Scissor(v) => c.scissor(v[0], v[1], v[2], v[3])?,
            Command::ViewportIndexed(i, [x, y, w, h]) => {
                c.viewport_indexed_f(*i, *x, *y, *w, *h)?
            }
            Command::ScissorIndexed(i, [x, y, w, h]) => c.scissor_indexed(*i, *x, *y, *w, *h)?,
            Command::DepthRange(None, [n, f]) => c.depth_range(*n, *f)?,
            Command::DepthRange(Some(i), [n, f]) => c.depth_range_indexed(*i, *n, *f)?,
            Command::Enable(cap) => c.enable(*cap)?,
            Command::Disable(cap) => c.disable(*cap)?,
            Command::EnableIndexed(cap, i, true) => c.enable_i(*cap, *i)?,
            Command::EnableIndexed(cap, i, false) => c.disable_i(*cap, *i)?,
            Command::DepthFunc(f) => c.depth_func(*f)?,
            Command::DepthMask(m) => c.depth_mask(*m)?,
            Command::StencilFunc(f, r, m) => c.stencil_func(*f, *r, *m)?,
            Command::StencilOp(a, b, d) => c.stencil_op(*a, *b, *d)?,
            Command::BlendFunc(a, b, d, e) => c.blend_func_separate(*a, *b, *d, *e)?,
            Command::BlendEquation(a, b) => c.blend_equation_separate(*a, *b)?,
            Command::BlendColor(v) => c.blend_color(*v)?,
            Command::ColorMask(m) => c.color_mask(*m)?,
            Command::CullFace(f) => c.cull_face(*f)?,
            Command::FrontFace(f) => c.front_face(*f)?,
            Command::ShadeModel(m) => c.shade_model(*m)?,
            Command::ProvokingVertex(m) => c.provoking_vertex(*m)?,
            Command::PolygonMode(f, m) => c.polygon_mode(*f, *m)?,
            Command::PolygonOffset(f, u) => c.polygon_offset(*f, *u)?,
            Command::PointSize(s) => c.point_size(*s)?,
            Command::LineWidth(w) => c.line_width(*w)?,
            Command::MinSampleShading(v) => c.min_sample_shading(*v)?,
            Command::SampleMask(m) => {
                c.enable(gl::SAMPLE_MASK)?;
                c.sample_mask_i(0, *m)?
            }
            Command::PrimitiveRestartIndex(i) => c.primitive_restart_index(*i)?,
            Command::Color(v) => c.color_4f(*v)?,
            Command::TexCoord(u, v) => c.multi_tex_coord_4f(*u, *v)?,
            Command::ClipPlane(n, p) => c.clip_plane(gl::CLIP_PLANE0 + n, *p)?,
            Command::Hint(t, m) => c.hint(*t, *m)?,
            Command::Tolerance(t) => self.tolerance = *t,
            Command::OrthoWindow => {
                let (w, h) = c.size();
                c.matrix_mode(gl::PROJECTION)?;
                c.load_identity()?;
                c.ortho(0.0, f64::from(w), 0.0, f64::from(h), -1.0, 1.0)?;
                c.matrix_mode(gl::MODELVIEW)?;
                c.load_identity()?;
            }
            Command::Ortho(v) => {
                c.matrix_mode(gl::PROJECTION)?;
                c.load_identity()?;
                c.ortho(v[0], v[1], v[2], v[3], -1.0, 1.0)?;
                c.matrix_mode(gl::MODELVIEW)?;
            }
            Command::Frustum(v) => {
                c.matrix_mode(gl::PROJECTION)?;
                c.load_identity()?;
                c.frustum(v[0], v[1], v[2], v[3], v[4], v[5])?;
                c.matrix_mode(gl::MODELVIEW)?;
            }
            Command::Matrix(t, m) => {
                let saved_unit = c.active_texture_unit();
                match t {
                    MatrixTarget::ModelView => c.matrix_mode(gl::MODELVIEW)?,
                    MatrixTarget::Projection => c.matrix_mode(gl::PROJECTION)?,
                    MatrixTarget::Texture(n) => {
                        c.active_texture(*n)?;
                        c.matrix_mode(gl::TEXTURE)?
                    }
                    MatrixTarget::Program(n) => c.matrix_mode(gl::MATRIX0_ARB + n)?,
                }
                match m {
                    Some(m) => c.load_matrix_f(m)?,
                    None => c.load_identity()?,
                }
                c.matrix_mode(gl::MODELVIEW)?;
                c.active_texture(saved_unit)?;
            }
            Command::Light(n, p, v) => c.light_fv(gl::LIGHT0 + n, *p, v)?,
            Command::LightModelAmbient(v) => c.light_model_ambient(*v)?,
            Command::Material(f, p, v) => c.material_fv(*f, *p, v)?,
            Command::Fog(p, v) => c.fog_fv(*p, v)?,
            Command::Parameter { kind, index, bits } => self.set_param(*kind, *index, *bits)?,
            Command::ParameterBuffer {
                stage,
                binding,
                offset,
                data,
            } => {
                let target = param_buffer_target_for(*stage)
                    .ok_or_else(|| Error::invalid_enum("stage", *stage))?;
                let key = (target, *binding);
                let id = match self.param_buffers.get(&key) {
                    Some(id) => *id,
                    None => {
                        let id = self.ctx.gen_buffers(1)?[0];
                        self.param_buffers.insert(key, id);
                        id
                    }
                };
                self.write_growing(id, *offset, data)?;
                self.ctx.bind_buffer_base(target, *binding, id)?;
            }
            Command::AtomicCounters { binding, values } => {
                let id = match self.counter_buffers.get(binding) {
                    Some(id) => *id,
                    None => {
                        let id = self.ctx.gen_buffers(1)?[0];
                        self.counter_buffers.insert(*binding, id);
                        id
                    }
                };
                self.ctx.bind_buffer(gl::ATOMIC_COUNTER_BUFFER, id)?;
                self.ctx
                    .buffer_data(gl::ATOMIC_COUNTER_BUFFER, values, gl::DYNAMIC_DRAW)?;
                self.ctx
                    .bind_buffer_base(gl::ATOMIC_COUNTER_BUFFER, *binding, id)?;
            }
            Command::ProbeAtomicCounter {
                binding,
                index,
                value,
            } => {
                let id = *self.counter_buffers.get(binding).ok_or_else(|| {
                    Error::invalid_operation(format!(
                        "no atomic counter buffer at binding {binding}"
                    ))
                })?;
                self.ctx.bind_buffer(gl::COPY_READ_BUFFER, id)?;
                let b =
                    self.ctx
                        .get_buffer_sub_data(gl::COPY_READ_BUFFER, u64::from(*index) * 4, 4)?;
                let got = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                if got != *value {
                    self.probe_fail(
                        line,
                        format!(
                            "atomic counter {binding}[{index}]: expected {value}, observed {got}"
                        ),
                    );
                }
            }
            Command::Buffer { name, size, data } => {
                let id = match self.named_buffers.get(name) {
                    Some(id) => *id,
                    None => {
                        let id = self.ctx.gen_buffers(1)?[0];
                        self.named_buffers.insert(name.clone(), id);
                        id
                    }
                };
                // Allocated once, by the context (fallibly), then the given values.
                let total = (*size).max(data.len()) as u64;
                self.ctx.bind_buffer(gl::COPY_WRITE_BUFFER, id)?;
                self.ctx
                    .buffer_data_size(gl::COPY_WRITE_BUFFER, total, gl::DYNAMIC_DRAW)?;
                if !data.is_empty() {
                    self.ctx.buffer_sub_data(gl::COPY_WRITE_BUFFER, 0, data)?;
                }
                self.ctx
                    .make_buffer_resident(gl::COPY_WRITE_BUFFER, gl::READ_WRITE)?;
            }
            Command::BufferAddress {
                kind,
                index,
                name,
                offset,
            } => {
                let id = *self
                    .named_buffers
                    .get(name)
                    .ok_or_else(|| Error::invalid_operation(format!("no buffer named '{name}'")))?;
                self.ctx.bind_buffer(gl::COPY_WRITE_BUFFER, id)?;
                let a = self
                    .ctx
                    .buffer_gpu_address(gl::COPY_WRITE_BUFFER)?
                    .wrapping_add(*offset);
                self.set_param(*kind, *index, [a as u32, (a >> 32) as u32, 0, 0])?;
            }
            Command::Compute(g) => self.ctx.dispatch_compute(g[0], g[1], g[2])?,
            Command::ComputeIndirect { name, offset } => {
                let id = self.named_buffer(name)?;
                self.ctx.bind_buffer(gl::DISPATCH_INDIRECT_BUFFER, id)?;
                self.ctx.dispatch_compute_indirect(*offset)?;
            }
            Command::StorageBuffer { index, name } => {
                let id = self.named_buffer(name)?;
                self.ctx
                    .bind_buffer_base(gl::SHADER_STORAGE_BUFFER, *index, id)?;
            }
            Command::MemoryBarrier => self.ctx.memory_barrier(gl::ALL_BARRIER_BITS)?,
            Command::MapBufferWrite { name, offset, data } => {
                let id = self.named_buffer(name)?;
                self.ctx.bind_buffer(gl::COPY_WRITE_BUFFER, id)?;
                let map = self.ctx.map_buffer_range(
                    gl::COPY_WRITE_BUFFER,
                    *offset,
                    data.len() as u64,
                    gl::MAP_WRITE_BIT,
                )?;
                let written = map.write(0, data);
                self.ctx.unmap_buffer(gl::COPY_WRITE_BUFFER)?;
                written?;
            }
            Command::ImageUnit {
                unit,
                texture_unit,
                format,
                access,
                level,
                layer,
            } => {
                let (_, id) = *self.unit_textures.get(texture_unit).ok_or_else(|| {
                    Error::invalid_operation(format!(
                        "no texture command bound a texture to unit {texture_unit}"
                    ))
                })?;
                self.ctx.bind_image_texture(
                    *unit,
                    id,
                    *level,
                    layer.is_none(),
                    layer.unwrap_or(0),
                    *access,
                    *format,
                )?;
            }
            Command::ProbeImage { unit, at, values } => {
                let (texel, format) = self.ctx.image_unit_texel(*unit, *at)?;
                let got: Vec<f64> = texel
                    .iter()
                    .map(|&b| match format.sample_type() {
                        SampleType::Sint => f64::from(b as i32),
                        SampleType::Uint => f64::from(b),
                        _ => f64::from(f32::from_bits(b)),
                    })
                    .collect();
                let exact = format.is_integer();
                let bad = values.iter().enumerate().any(|(i, want)| {
                    let d = (got[i] - want).abs();
                    if exact {
                        d != 0.0
                    } else {
                        d > self.tolerance[i]
                    }
                });
                if bad {
                    let [x, y, z] = at;
                    self.probe_fail(
                        line,
                        format!(
                            "image unit {unit} texel ({x}, {y}, layer {z}): expected {values:?}, observed {:?}",
                            &got[..values.len()]
                        ),
                    );
                }
            }
            Command::ProbeBuffer {
                name,
                offset,
                ty,
                values,
            } => {
                let id = *self
                    .named_buffers
                    .get(name)
                    .ok_or_else(|| Error::invalid_operation(format!("no buffer named '{name}'")))?;
                self.ctx.bind_buffer(gl::COPY_READ_BUFFER, id)?;
                self.probe_buffer(line, *offset as u64, ty, values)?;
            }
            Command::Texture { unit, cmd } => {
                // Repeated frames (bench) reuse the texture the line made the first time.
                if let Some(&(target, id)) = self.texture_cache.get(&line) {
                    self.ctx.active_texture(*unit)?;
                    self.ctx.bind_texture(target, id)?;
                    self.unit_textures.insert(*unit, (target, id));
                } else {
                    self.texture(*unit, cmd)?;
                    if let Some(made) = self.last_texture.take() {
                        self.texture_cache.insert(line, made);
                        self.unit_textures.insert(*unit, made);
                    }
                }
            }
            Command::TexParameter {
                target,
                pname,
                values,
            } => self.ctx.tex_parameter_fv(*target, *pname, values)?,
            Command::ActiveTexture(u) => c.active_texture(*u)?,
            Command::DrawRect {
                ortho,
                patch,
                rect,
                tex,
                instances,
            } => self.draw_rect(*ortho, *patch, *rect, *tex, *instances)?,
            Command::DrawArrays {
                mode,
                first,
                count,
                instances,
            } => {
                self.bind_vertex_data()?;
                self.count_tris(*mode, *count, *instances);
                self.ctx.draw_arrays_instanced(
                    *mode,
                    *first as i32,
                    *count as i32,
                    *instances as i32,
                )?
            }
            Command::DrawElements {
                mode,
                count,
                base_vertex,
                instances,
            } => {
                self.bind_vertex_data()?;
                let eb = self.element_buffer.ok_or_else(|| {
                    Error::invalid_operation("draw elements without an [elements] section")
                })?;
                self.ctx.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, eb)?;
                self.count_tris(*mode, *count, *instances);
                self.ctx.draw_elements_instanced_base_vertex(
                    *mode,
                    *count as i32,
                    gl::UNSIGNED_INT,
                    0,
                    *instances as i32,
                    *base_vertex,
                )?
            }
            Command::DrawGrid(nx, ny) => self.draw_grid(*nx, *ny)?,
            Command::DrawTransformFeedback {
                mode,
                stream,
                instances,
            } => {
                self.bind_vertex_data()?;
                self.ctx.draw_transform_feedback_stream_instanced(
                    *mode,
                    0,
                    *stream,
                    *instances as i32,
                )?
            }
            Command::PatchVertices(n) => c.patch_vertices(*n)?,
            Command::PatchOuter(o) => {
                let inner = c.patch_default_inner();
                c.patch_default_levels(*o, inner)?
            }
            Command::PatchInner(i) => {
                let outer = c.patch_default_outer();
                c.patch_default_levels(outer, *i)?
            }
            Command::XfbAttribs { stream, names } => {
                let refs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
                c.transform_feedback_attribs(*stream, &refs)?
            }
            Command::XfbInterleaved(i) => c.transform_feedback_buffer_mode(if *i {
                gl::INTERLEAVED_ATTRIBS
            } else {
                gl::SEPARATE_ATTRIBS
            })?,
            Command::XfbBuffer(index, size) => {
                let id = match self.xfb_buffers.get(index) {
                    Some(id) => *id,
                    None => {
                        let id = self.ctx.gen_buffers(1)?[0];
                        self.xfb_buffers.insert(*index, id);
                        id
                    }
                };
                self.ctx.bind_buffer(gl::TRANSFORM_FEEDBACK_BUFFER, id)?;
                self.ctx.buffer_data_size(
                    gl::TRANSFORM_FEEDBACK_BUFFER,
                    *size as u64,
                    gl::DYNAMIC_DRAW,
                )?;
                self.ctx
                    .bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, *index, id)?;
            }
            Command::BeginTransformFeedback(mode) => {
                self.xfb_queries.clear();
                for s in 0..4 {
                    for (written, target) in [
                        (false, gl::PRIMITIVES_GENERATED),
                        (true, gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN),
                    ] {
                        let q = self.ctx.gen_queries(1)?[0];
                        self.ctx.begin_query_indexed(target, s, q)?;
                        self.xfb_queries.push((u32::from(written), s, q));
                    }
                }
                self.ctx.begin_transform_feedback(*mode)?
            }
            Command::EndTransformFeedback => {
                self.ctx.end_transform_feedback()?;
                self.xfb_results.clear();
                for (written, s, q) in std::mem::take(&mut self.xfb_queries) {
                    let target = if written == 1 {
                        gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN
                    } else {
                        gl::PRIMITIVES_GENERATED
                    };
                    self.ctx.end_query_indexed(target, s)?;
                    self.xfb_results
                        .insert((written == 1, s), self.ctx.get_query_result(q)?);
                }
            }
            Command::ProbeXfb {
                index,
                offset,
                values,
            } => {
                let id = *self.xfb_buffers.get(index).ok_or_else(|| {
                    Error::invalid_operation(format!("no transform feedback buffer {index}"))
                })?;
                self.ctx.bind_buffer(gl::COPY_READ_BUFFER, id)?;
                let bytes = self.ctx.get_buffer_sub_data(
                    gl::COPY_READ_BUFFER,
                    (*offset as u64) * 4,
                    values.len() as u64 * 4,
                )?;
                for (k, (want, got)) in values.iter().zip(bytes.chunks_exact(4)).enumerate() {
                    let got = f32::from_le_bytes([got[0], got[1], got[2], got[3]]);
                    if (got - want).abs() > 1e-5 + 1e-5 * want.abs()
                        || got.is_nan() != want.is_nan()
                    {
                        self.probe_fail(
                            line,
                            format!(
                                "xfb buffer {index} float {}: expected {want}, observed {got}",
                                offset + k
                            ),
                        );
                    }
                }
            }
            Command::ProbePrimitives {
                written,
                stream,
                count,
            } => {
                let got = self
                    .xfb_results
                    .get(&(*written, *stream))
                    .copied()
                    .ok_or_else(|| {
                        Error::invalid_operation(
                            "no transform feedback results (begin/end transform feedback first)",
                        )
                    })?;
                if got != *count {
                    let what = if *written { "written" } else { "generated" };
                    self.probe_fail(
                        line,
                        format!(
                            "primitives {what} (stream {stream}): expected {count}, observed {got}"
                        ),
                    );
                }
            }
            Command::ProbeSamplesPassed(n) => {
                if let Some(q) = self.occlusion {
                    self.ctx.end_query(gl::SAMPLES_PASSED)?;
                    self.samples_passed += self.ctx.get_query_result(q)?;
                    self.ctx.begin_query(gl::SAMPLES_PASSED, q)?;
                }
                if self.samples_passed != *n {
                    self.probe_fail(
                        line,
                        format!(
                            "samples passed: expected {n}, observed {}",
                            self.samples_passed
                        ),
                    );
                }
            }
            Command::ProbeColor {
                region,
                rgba,
                expected,
            } => self.probe_color(line, region, *rgba, *expected)?,
            Command::ProbeDepth(x, y, d) => {
                let got = f64::from(c.read_depth(*x, *y)?);
                if (got - d).abs() > self.tolerance[0] {
                    self.probe_fail(
                        line,
                        format!("depth at ({x}, {y}): expected {d}, observed {got}"),
                    );
                }
            }
            Command::ProbeStencil(x, y, s) => {
                let got = u32::from(c.read_stencil(*x, *y)?);
                if got != *s {
                    self.probe_fail(
                        line,
                        format!("stencil at ({x}, {y}): expected {s}, observed {got}"),
                    );
                }
            }
            Command::ProbeSample {
                x,
                y,
                sample,
                expected,
            } => {
                let got = c.read_sample(*x, *y, *sample)?;
                if !self.close(got, *expected, true) {
                    self.probe_fail(line, format!("sample {sample} at ({x}, {y}): expected {expected:?}, observed {got:?}"));
                }
            }
            Command::ProbePng {
                file,
                tolerance,
                pixels,
            } => {
                if !self.opts.skip_png_probes {
                    self.probe_png(line, file, *tolerance, *pixels)?
                }
            }
        }
        Ok(())
    }

    pub(super) fn write_growing(
        &mut self,
        id: u32,
        offset: usize,
        data: &[u8],
    ) -> Result<(), Error> {
        self.ctx.bind_buffer(gl::COPY_WRITE_BUFFER, id)?;
        let size = self.ctx.buffer_size(gl::COPY_WRITE_BUFFER)? as usize;
        let end = offset.saturating_add(data.len());
        if end as u64 > glemu_pipeline::memory::MAX_BUFFER_SIZE {
            return Err(Error::out_of_memory(format!(
                "parameter buffer of {end} bytes"
            )));
        }
        if end > size {
            let mut bytes = self
                .ctx
                .get_buffer_sub_data(gl::COPY_WRITE_BUFFER, 0, size as u64)?;
            bytes.resize(end, 0);
            self.ctx
                .buffer_data(gl::COPY_WRITE_BUFFER, &bytes, gl::DYNAMIC_DRAW)?;
        }
        self.ctx
            .buffer_sub_data(gl::COPY_WRITE_BUFFER, offset as u64, data)
    }
}
