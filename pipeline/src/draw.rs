//! A draw call end to end: vertex stage → (tessellation) → (geometry) → stream-out →
//! clipping and viewport → rasterizer with the fragment program, once per layer of a
//! layered target (the stages before run once).

use crate::assembly::{assemble, drop_adjacency, PrimClass, Primitives};
use crate::clip::ClipContext;
use crate::env::Resources;
use crate::error::PipelineError;
use crate::fragment::{FragmentPlan, ProgramShader};
use crate::layer::{self, LayerShare, RenderTarget};
use crate::state::{DrawState, DrawStats};
use crate::trace::{FragmentTrace, InstanceRecord, StageRows};
use crate::vertex_stage::programs_have_side_effects;
use crate::vertices::{clamp_colors, colour_slots, Vertices};
use crate::xfb::XfbState;
use crate::{geometry, tess, vertex_stage};
use glemu_raster::{DrawInput, PolygonMode, PrimitiveSource, RasterError, Rasterizer, CHUNK_PRIMS};
use rayon::prelude::*;
use std::borrow::Cow;

/// Primitives of the last vertex-processing stage, ready for stream-out and clipping.
struct Stage2<'a> {
    verts: Cow<'a, Vertices>,
    class: PrimClass,
    /// Per vertex stream (only stream 0 without a geometry program).
    streams: Vec<(Primitives, Vec<u32>)>,
    /// What the stages of this instance counted (pipeline statistics).
    counts: DrawStats,
}

/// Runs one draw call into `target` (a `&mut Framebuffer`, or with
/// [`DrawState::layers`] one framebuffer per layer). `xfb` is the stream-out state when
/// the context has one (it is updated while capturing). Query counters come back in
/// [`DrawStats`].
pub fn draw(
    state: &DrawState,
    rasterizer: &Rasterizer,
    target: &mut dyn RenderTarget,
    xfb: Option<&mut XfbState>,
) -> Result<DrawStats, PipelineError> {
    draw_with(state, rasterizer, target, xfb, None)
}

/// [`draw`], recording in `trace` what the fragment program did for its pixel (the
/// interpreter runs the batches holding it; the image is the same).
pub fn draw_traced(
    state: &DrawState,
    rasterizer: &Rasterizer,
    target: &mut dyn RenderTarget,
    xfb: Option<&mut XfbState>,
    trace: &FragmentTrace,
) -> Result<DrawStats, PipelineError> {
    draw_with(state, rasterizer, target, xfb, Some(trace))
}

fn draw_with(
    state: &DrawState,
    rasterizer: &Rasterizer,
    target: &mut dyn RenderTarget,
    xfb: Option<&mut XfbState>,
    trace: Option<&FragmentTrace>,
) -> Result<DrawStats, PipelineError> {
    let progs = &state.programs;
    if progs.vertex.is_none() {
        return Err(PipelineError::invalid_op("draw without a vertex program"));
    }
    let class0 = state.call.mode.class(state.vertex.tess.patch_vertices);
    let tessellating = progs.tess_eval.is_some();
    let is_patches = matches!(class0, PrimClass::Patches(_));
    // Patches go to tessellation, or straight to a geometry program that declares
    // PRIMITIVE_IN PATCHES (NV_gpu_program5).
    let gs_takes_patches = progs
        .geometry
        .as_ref()
        .and_then(|g| g.program.decls.primitive_in)
        .is_some_and(|k| matches!(k, glemu_programs::ir::PrimKind::Patches(_)));
    if tessellating && !is_patches {
        return Err(PipelineError::invalid_op(
            "a tessellation evaluation program needs GL_PATCHES",
        ));
    }
    if is_patches && !tessellating && !gs_takes_patches {
        return Err(PipelineError::invalid_op(
            "GL_PATCHES needs a tessellation evaluation program or a geometry program taking patches",
        ));
    }
    let textures = Resources::bind_textures(&state.textures);
    let stage_programs = [
        &progs.vertex,
        &progs.tess_control,
        &progs.tess_eval,
        &progs.geometry,
        &progs.fragment,
    ];
    let res = Resources {
        texture_sites: Resources::texture_sites(&textures, stage_programs.into_iter().flatten()),
        textures,
        counter_buffers: state.counter_buffers.clone(),
        storage_buffers: state.storage_buffers.clone(),
        memory: Some(state.memory.clone()),
        images: state.images.clone(),
        deadline: state.raster.deadline,
        stage_trace: trace.and_then(|t| t.stages.clone()),
    };
    let faults_before = state.memory.faults();
    if state.call.count == 0 || state.call.instances == 0 {
        return Ok(DrawStats::default());
    }
    rasterizer.install(|| {
        let mut stats = run_stages(state, rasterizer, target, xfb, &res, trace).map_err(|e| {
            // Whichever stage noticed first, a draw past its deadline says so.
            match state.raster.deadline {
                Some(d) if d.passed() => PipelineError::TimedOut { limit: d.limit },
                _ => e,
            }
        })?;
        stats.memory_faults = state.memory.faults() - faults_before;
        Ok(stats)
    })
}

/// Stream 0 of every instance, gathered for one pass through clipping and the
/// rasterizer.
struct ToRaster<'a> {
    verts: Option<Cow<'a, Vertices>>,
    class: PrimClass,
    prims: Primitives,
    /// `primitive.id` per primitive; shorter than `prims` = the ids are the indices.
    ids: Vec<u32>,
    /// Instances not pushed yet, this one included (sizes the merged rows).
    instances_left: usize,
}

impl<'a> ToRaster<'a> {
    /// Adds an instance's primitives (`ids` empty: ids are indices); vertices shared with
    /// what is already there (the vertex stage's, without tessellation or geometry
    /// programs) are not copied, nor are the first instance's primitives. Returns the
    /// vertex rows copied.
    fn push(
        &mut self,
        verts: Cow<'a, Vertices>,
        class: PrimClass,
        prims: Primitives,
        ids: Vec<u32>,
    ) -> Result<u64, PipelineError> {
        self.class = class;
        let left = self.instances_left;
        self.instances_left = left.saturating_sub(1);
        let mut copied = 0;
        let base = match (&mut self.verts, verts) {
            (None, v) => {
                self.verts = Some(v);
                0
            }
            (Some(Cow::Borrowed(a)), Cow::Borrowed(b)) if std::ptr::eq(*a, b) => 0,
            (Some(mine), v) => {
                if mine.slots != v.slots {
                    return Err(PipelineError::not_supported(
                        "instances whose last stage writes different varyings",
                    ));
                }
                if let Cow::Borrowed(m) = mine {
                    copied += m.len() as u64;
                }
                copied += v.len() as u64;
                let m = mine.to_mut();
                if m.data.capacity() - m.data.len() < v.data.len() {
                    // Room for the instances still to come as big as this one (bounded),
                    // in a buffer kept between draws: grown by doubling, the merged rows
                    // were copied again at every step into memory the kernel had to
                    // fault in afresh each frame.
                    let more = v.data.len().saturating_mul(left.max(1)).min(1 << 22);
                    let mut big = crate::scratch::VEC4S.with_capacity(m.data.len() + more);
                    big.extend_from_slice(&m.data);
                    crate::scratch::VEC4S.give(std::mem::replace(&mut m.data, big));
                }
                let base = m.len() as u32;
                m.data.extend_from_slice(&v.data);
                base
            }
        };
        if self.prims.is_empty() && base == 0 {
            self.prims = prims;
            self.ids = ids;
            return Ok(copied);
        }
        let index_ids = |n: usize| 0..n as u32;
        if self.ids.len() < self.prims.len() {
            self.ids = index_ids(self.prims.len()).collect();
        }
        self.prims.append(&prims, base);
        if ids.len() < prims.len() {
            self.ids.extend(index_ids(prims.len()));
        } else {
            self.ids.extend_from_slice(&ids);
        }
        Ok(copied)
    }
}

/// The vertex stage, then per instance the later vertex-processing stages and
/// stream-out, then clipping and the rasterizer for all instances at once.
fn run_stages(
    state: &DrawState,
    rasterizer: &Rasterizer,
    target: &mut dyn RenderTarget,
    mut xfb: Option<&mut XfbState>,
    res: &Resources,
    trace: Option<&FragmentTrace>,
) -> Result<DrawStats, PipelineError> {
    let progs = &state.programs;
    let Some(vs) = progs.vertex.as_ref() else {
        return Err(PipelineError::invalid_op("draw without a vertex program"));
    };
    let mut stats = DrawStats::default();
    let tracer = res.stage_trace.as_deref();
    if let Some(t) = tracer {
        t.start_draw(vertex_stage::vertex_ids(state)?);
    }
    let vso = vertex_stage::run(state, vs, res)?;
    stats.vertex_invocations = vso.invocations;
    let vp = &state.vertex;
    // Without later stages every instance rasterizes the vertex stage's vertices (all
    // instances' in one set): clamped once, not once per instance, which made instanced
    // draws quadratic; the vertex stage clamps them as it writes them
    // (vertex_stage::clamps_colours).
    if vertex_stage::clamps_colours(state) && !colour_slots(&vso.vertices.slots).is_empty() {
        stats.vertex_rows_touched += vso.vertices.len() as u64;
    }
    let discard = state.vertex.rasterizer_discard;
    let mut to_raster = ToRaster {
        verts: None,
        class: PrimClass::Points,
        prims: Primitives::default(),
        ids: Vec::new(),
        instances_left: vso.sequences.len(),
    };
    let instance = |seq: &Vec<u32>| -> Result<Stage2<'_>, PipelineError> {
        res.check_deadline()?;
        let (class, prims) = assemble(
            state.call.mode,
            seq,
            vp.tess.patch_vertices,
            vp.provoking_last,
        )?;
        // Ids are the primitives' indices: left implicit.
        let ids: Vec<u32> = Vec::new();
        let mut record = tracer.map(|t| InstanceRecord {
            instance: t.instance.load(std::sync::atomic::Ordering::Relaxed),
            sequence: seq.clone(),
            assembled: (prims.verts.clone(), class.vertices()),
            ..InstanceRecord::default()
        });
        let mut counts = DrawStats {
            vertices_submitted: seq.len() as u64,
            primitives_submitted: prims.len() as u64,
            ..DrawStats::default()
        };
        let mut st = Stage2 {
            verts: Cow::Borrowed(&vso.vertices),
            class,
            streams: vec![(prims, ids)],
            counts: DrawStats::default(),
        };
        if let Some(tes) = &progs.tess_eval {
            let (p, i) = st.streams.swap_remove(0);
            let n_in = class.vertices();
            if progs.tess_control.is_some() {
                counts.tess_control_patches = p.len() as u64;
            }
            let mut t = tess::run(
                progs.tess_control.as_ref(),
                tes,
                res,
                &vp.tess,
                &st.verts,
                n_in,
                &p,
                &i,
            )?;
            counts.tess_eval_invocations = t.verts.len() as u64;
            if let Some(r) = &mut record {
                let rows = std::mem::take(&mut t.row_src);
                r.tess = Some(StageRows {
                    source: rows,
                    ..StageRows::default()
                });
            }
            // Generated primitives flat-shade from their last vertex under the default
            // LAST_VERTEX_CONVENTION, as any independent primitive does.
            if vp.provoking_last {
                let last = (t.class.vertices() - 1) as u8;
                t.prims.provoking.iter_mut().for_each(|p| *p = last);
            }
            st = Stage2 {
                verts: Cow::Owned(t.verts),
                class: t.class,
                streams: vec![(t.prims, t.ids)],
                counts: DrawStats::default(),
            };
        }
        if let Some(gs) = &progs.geometry {
            let (p, i) = st.streams.swap_remove(0);
            let mut g = geometry::run(gs, res, &st.verts, st.class, &p, &i, vp)?;
            if let Some(r) = &mut record {
                let rows = std::mem::take(&mut g.row_src);
                r.geometry = Some(StageRows {
                    source: rows,
                    input: p.verts.clone(),
                    per: st.class.vertices(),
                });
            }
            let per_prim = gs.program.decls.invocations.unwrap_or(1).max(1);
            counts.geometry_invocations = p.len() as u64 * u64::from(per_prim);
            counts.geometry_primitives_emitted =
                g.streams.iter().map(|s| s.prims.len() as u64).sum();
            st = Stage2 {
                verts: Cow::Owned(g.verts),
                class: g.class,
                streams: g.streams.into_iter().map(|s| (s.prims, s.ids)).collect(),
                counts: DrawStats::default(),
            };
        } else if matches!(
            st.class,
            PrimClass::LinesAdjacency | PrimClass::TrianglesAdjacency
        ) {
            let (p, i) = st.streams.swap_remove(0);
            let dropped = drop_adjacency(st.class, &p);
            st.class = st.class.without_adjacency();
            st.streams = vec![(dropped, i)];
        }
        if matches!(st.class, PrimClass::Patches(_)) {
            return Err(PipelineError::invalid_op(
                "patches cannot be rasterized without tessellation",
            ));
        }
        if vp.clamp_vertex_color {
            if let Cow::Owned(v) = &mut st.verts {
                counts.vertex_rows_touched += clamp_colors(v);
            }
        }
        st.counts = counts;
        if let (Some(t), Some(mut r), Some((p, ids))) = (tracer, record, st.streams.first()) {
            r.last = crate::trace::last_stage(&st.verts, p, st.class.vertices(), ids);
            t.record_instance(r);
        }
        Ok(st)
    };
    // Instances are independent until stream-out, which takes them in order; with
    // tessellation or geometry programs each is worth a task (unless a program stores or
    // counts, when invocations must run in one order).
    let later = [&progs.tess_control, &progs.tess_eval, &progs.geometry];
    let parallel = vso.sequences.len() > 1
        && tracer.is_none()
        && later.iter().any(|p| p.is_some())
        && !later
            .iter()
            .filter_map(|p| p.as_ref())
            .any(|p| programs_have_side_effects(&p.program));
    let mut done = if parallel {
        let v: Vec<Result<Stage2<'_>, PipelineError>> =
            vso.sequences.par_iter().map(instance).collect();
        Some(v.into_iter())
    } else {
        None
    };
    for (k, seq) in vso.sequences.iter().enumerate() {
        res.check_deadline()?;
        if let Some(t) = tracer {
            t.instance
                .store(k as u32, std::sync::atomic::Ordering::Relaxed);
        }
        let st = match done.as_mut().and_then(Iterator::next) {
            Some(st) => st?,
            None => instance(seq)?,
        };
        stats.add(&st.counts);
        for (s, (p, _)) in st.streams.iter().enumerate() {
            if let Some(g) = stats.primitives_generated.get_mut(s) {
                *g += p.len() as u64;
            }
            if let Some(x) = xfb.as_deref_mut() {
                let w = x.capture(s as u32, &st.verts, st.class, p)?;
                if let Some(c) = stats.primitives_written.get_mut(s) {
                    *c += w;
                }
            }
        }
        if discard {
            continue;
        }
        let Stage2 {
            verts,
            class,
            mut streams,
            ..
        } = st;
        if streams.is_empty() {
            continue;
        }
        let (p, ids) = streams.swap_remove(0);
        stats.vertex_rows_touched += to_raster.push(verts, class, p, ids)?;
    }
    let Some(verts) = to_raster.verts.as_deref() else {
        return Ok(stats);
    };
    let fp = progs
        .fragment
        .as_ref()
        .ok_or_else(|| PipelineError::invalid_op("draw without a fragment program"))?;
    let plan = FragmentPlan::new(fp, verts, vp.two_side, vp.flat_shading, vp.fog)?;
    if to_raster.prims.is_empty() {
        return Ok(stats);
    }
    stats.clipping_input_primitives = to_raster.prims.len() as u64;
    let rs = &state.raster.raster;
    let outlined =
        rs.polygon_mode_front != PolygonMode::Fill || rs.polygon_mode_back != PolygonMode::Fill;
    let cc = ClipContext::with_outlines(verts, &plan.raster, vp, outlined);
    stats.vertex_rows_touched += verts.len() as u64;
    let dual_source = (state.raster.blend.targets.iter()).any(|t| t.enabled && t.uses_src1());
    // Fragment invocations: each worker adds its count when the draw drops it.
    let invocations = std::sync::atomic::AtomicU64::new(0);
    let mut shader = ProgramShader::new(fp, &plan, res, dual_source, &invocations);
    shader.trace = trace;
    let traced_before = trace.map_or(0, |t| t.count());
    let mut rstate = state.raster;
    rstate.depth_stencil.depth_clamp |= vp.clip.depth_clamp;
    for (r, v) in rstate.raster.viewports.iter_mut().zip(&vp.viewports) {
        r.rect = Some(v.pixel_rect());
        r.depth_range = [v.near, v.far];
    }
    let shares = match state.layers {
        Some(layers) => layer::route(
            verts,
            to_raster.class,
            &to_raster.prims,
            &to_raster.ids,
            layers,
        ),
        None => vec![LayerShare {
            layer: 0,
            prims: std::mem::take(&mut to_raster.prims),
            ids: std::mem::take(&mut to_raster.ids),
        }],
    };
    for share in &shares {
        let source = ClipSource {
            cc: &cc,
            class: to_raster.class,
            prims: &share.prims,
            ids: &share.ids,
        };
        let fb = target.layer(share.layer)?;
        if let Some(t) = trace {
            t.set_ops_state(crate::trace::OpsState {
                depth_stencil: rstate.depth_stencil,
                blend: rstate.blend,
                multisample: rstate.multisample,
                samples: fb.samples(),
                depth_format: fb.depth_format(),
                color_formats: (0..fb.color_targets())
                    .filter_map(|i| fb.color_format(i))
                    .collect(),
            });
        }
        let r = rasterizer
            .draw_source(fb, &rstate, &source, &shader)
            .map_err(PipelineError::from)?;
        target.finish_layer(share.layer)?;
        stats.samples_passed += r.samples_passed;
        stats.primitives_rasterized += r.primitives_rasterized;
    }
    stats.fragment_invocations = shader.invocations();
    if let (Some(t), Some(st)) = (trace, tracer) {
        let fragments = t.recorded_since(traced_before);
        if let Some(v) = vp.viewports.first() {
            st.link(&fragments, v);
        }
    }
    drop(shader);
    for share in shares {
        crate::scratch::WORDS.give(share.prims.verts);
        crate::scratch::WORDS.give(share.ids);
    }
    cc.recycle();
    // Tessellation's or a geometry program's output vertices.
    if let Some(Cow::Owned(v)) = to_raster.verts {
        crate::scratch::VEC4S.give(v.data);
    }
    for seq in vso.sequences {
        crate::scratch::WORDS.give(seq);
    }
    crate::scratch::VEC4S.give(vso.vertices.data);
    Ok(stats)
}

/// Clipping as the rasterizer's source of primitives: chunks of [`CHUNK_PRIMS`]
/// primitives, each clipped by whichever worker sets it up.
struct ClipSource<'a> {
    cc: &'a ClipContext<'a>,
    class: PrimClass,
    prims: &'a Primitives,
    ids: &'a [u32],
}

impl PrimitiveSource for ClipSource<'_> {
    fn shared(&self) -> &DrawInput {
        self.cc.shared()
    }
    fn chunks(&self) -> usize {
        self.prims.len().div_ceil(CHUNK_PRIMS)
    }
    fn chunk(&self, index: usize, out: &mut DrawInput) -> Result<(), RasterError> {
        let lo = index * CHUNK_PRIMS;
        self.cc
            .add(self.class, self.prims, self.ids, lo..lo + CHUNK_PRIMS, out);
        Ok(())
    }
}
