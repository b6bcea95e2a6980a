//! The per-draw snapshot the Context builds ([`DrawState`]) and what a draw reports back.
//!
//! The Context resolves everything that is GL object state into plain values here:
//! program parameters are already `[u32; 4]` per `Program::params` entry, buffers are
//! shared [`Buffer`]s, textures are glemu-textures objects. The pipeline never looks back
//! at the Context while drawing.

use crate::assembly::PrimitiveMode;
use crate::fetch::{AttribBinding, IndexBuffer};
use crate::images::ImageUnit;
use crate::memory::{Buffer, GpuMemory};
use glemu_programs::exec::Executor;
use glemu_programs::Program;
use glemu_textures::{SamplerState, Target, Texture};
use std::sync::Arc;

/// A range of a buffer bound to an indexed binding point (glBindBufferRange).
#[derive(Clone, Debug)]
pub struct BufferRange {
    /// The bound buffer.
    pub buffer: Arc<Buffer>,
    /// Byte offset of the range's start.
    pub offset: u64,
    /// Bytes visible through the binding; `None` = to the end of the buffer.
    pub size: Option<u64>,
}

impl BufferRange {
    /// A range covering the whole buffer.
    pub fn whole(buffer: Arc<Buffer>) -> BufferRange {
        BufferRange {
            buffer,
            offset: 0,
            size: None,
        }
    }
}

/// One programmable stage of the draw.
#[derive(Clone, Debug)]
pub struct StageProgram {
    /// The program the stage runs.
    pub program: Arc<Program>,
    /// The executor for `program` (build it once per program and keep it: it is `Sync`).
    pub executor: Arc<Executor>,
    /// One value per `program.params` entry (constants, env/local, GL state), raw bits.
    pub params: Vec<[u32; 4]>,
    /// Parameter buffers (NV_parameter_buffer_object) bound to this stage, by binding.
    pub param_buffers: Vec<Option<BufferRange>>,
    /// Subroutine uniform values: function index per `program.subroutine[n]` slot.
    pub subroutines: Vec<u32>,
}

impl StageProgram {
    /// A stage with a fresh executor; prefer [`StageProgram::with_executor`] with a cached
    /// one.
    pub fn new(program: Arc<Program>, params: Vec<[u32; 4]>) -> StageProgram {
        let executor = Arc::new(Executor::new(Arc::clone(&program)));
        StageProgram::with_executor(executor, params)
    }

    /// A stage running `executor`'s program.
    pub fn with_executor(executor: Arc<Executor>, params: Vec<[u32; 4]>) -> StageProgram {
        StageProgram {
            program: Arc::clone(executor.program()),
            executor,
            params,
            param_buffers: Vec::new(),
            subroutines: Vec::new(),
        }
    }
}

/// The programs of a draw. A missing vertex or fragment program is an error: the Context
/// supplies generated fixed-function programs instead.
#[derive(Clone, Debug, Default)]
pub struct StagePrograms {
    /// Vertex program (always present at draw time).
    pub vertex: Option<StageProgram>,
    /// Tessellation control program, if any.
    pub tess_control: Option<StageProgram>,
    /// Tessellation evaluation program; present iff tessellation is on.
    pub tess_eval: Option<StageProgram>,
    /// Geometry program, if any.
    pub geometry: Option<StageProgram>,
    /// Fragment program (always present at draw time).
    pub fragment: Option<StageProgram>,
}

/// Which vertices to draw.
#[derive(Clone, Debug)]
pub struct DrawCall {
    /// The primitive mode.
    pub mode: PrimitiveMode,
    /// First vertex (non-indexed draws).
    pub first: u32,
    /// Number of vertices (or indices) drawn per instance.
    pub count: u32,
    /// Instance count (1 for non-instanced draws).
    pub instances: u32,
    /// Added to every index of an indexed draw.
    pub base_vertex: i32,
    /// Added to the instance index of instanced attributes (`vertex.baseinstance`).
    pub base_instance: u32,
    /// Index of this draw within a glMultiDraw* command (0 otherwise): ARB_shader_draw_parameters'
    /// `vertex.draw.id`.
    pub draw_id: u32,
    /// `Some` for glDrawElements*.
    pub indices: Option<IndexBuffer>,
    /// The primitive restart index when GL_PRIMITIVE_RESTART is enabled.
    pub primitive_restart: Option<u32>,
}

impl DrawCall {
    /// glDrawArrays(mode, first, count).
    pub fn arrays(mode: PrimitiveMode, first: u32, count: u32) -> DrawCall {
        DrawCall {
            mode,
            first,
            count,
            instances: 1,
            base_vertex: 0,
            base_instance: 0,
            draw_id: 0,
            indices: None,
            primitive_restart: None,
        }
    }
}

/// Clipping state.
#[derive(Clone, Debug, Default)]
pub struct ClipState {
    /// Bit n set: GL_CLIP_PLANEn / GL_CLIP_DISTANCEn enabled.
    pub enabled: u8,
    /// User clip planes already transformed to clip coordinates, used for enabled planes
    /// whose distance the last vertex stage does not write (fixed function /
    /// position-invariant programs). Distances the program writes (`result.clip[n]`,
    /// VP2 `o[CLPn]`) take precedence.
    pub planes: [[f32; 4]; 8],
    /// GL_DEPTH_CLAMP: no near/far clipping; depth clamped to the depth range.
    pub depth_clamp: bool,
}

/// glViewportIndexedf + glDepthRangeIndexed: one viewport of the array.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Viewport {
    /// Left edge in window pixels.
    pub x: f32,
    /// Bottom edge in window pixels.
    pub y: f32,
    /// Width in pixels.
    pub width: f32,
    /// Height in pixels.
    pub height: f32,
    /// Depth the near plane maps to.
    pub near: f32,
    /// Depth the far plane maps to.
    pub far: f32,
}

impl Viewport {
    /// The viewport covering a `width`×`height` framebuffer, depth range [0, 1].
    pub fn new(width: u32, height: u32) -> Viewport {
        Viewport {
            x: 0.0,
            y: 0.0,
            width: width as f32,
            height: height as f32,
            near: 0.0,
            far: 1.0,
        }
    }

    /// The pixels whose centre lies inside the viewport: what the rasterizer bounds a
    /// primitive by, since x and y are clipped only to a guard band.
    pub fn pixel_rect(&self) -> glemu_raster::Rect {
        let lo = |a: f32| (f64::from(a) - 0.5).ceil();
        let hi = |a: f32, d: f32| (f64::from(a) + f64::from(d) - 0.5).ceil();
        let (x0, y0) = (lo(self.x), lo(self.y));
        let (x1, y1) = (hi(self.x, self.width), hi(self.y, self.height));
        let int = |v: f64| v.clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32;
        glemu_raster::Rect {
            x: int(x0),
            y: int(y0),
            width: int((x1 - x0).max(0.0)),
            height: int((y1 - y0).max(0.0)),
        }
    }
}

/// Tessellation state without a control program (glPatchParameterfv defaults) and
/// GL_PATCH_VERTICES.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TessState {
    /// Vertices per patch (GL_PATCH_VERTICES).
    pub patch_vertices: u32,
    /// Outer levels used when there is no control program (GL_PATCH_DEFAULT_OUTER_LEVEL).
    pub default_outer: [f32; 4],
    /// Inner levels used when there is no control program (GL_PATCH_DEFAULT_INNER_LEVEL).
    pub default_inner: [f32; 2],
}

impl Default for TessState {
    fn default() -> Self {
        TessState {
            patch_vertices: 3,
            default_outer: [1.0; 4],
            default_inner: [1.0; 2],
        }
    }
}

/// glFog state (GL defaults: black, density 1, start 0, end 1).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FogParams {
    /// GL_FOG_COLOR.
    pub color: [f32; 4],
    /// GL_FOG_DENSITY (exp and exp2 modes).
    pub density: f32,
    /// GL_FOG_START (linear mode).
    pub start: f32,
    /// GL_FOG_END (linear mode).
    pub end: f32,
}

impl Default for FogParams {
    fn default() -> Self {
        FogParams {
            color: [0.0; 4],
            density: 1.0,
            start: 0.0,
            end: 1.0,
        }
    }
}

/// Vertex processing state that is not part of a program.
#[derive(Clone, Debug)]
pub struct VertexProcessing {
    /// User clip planes and depth clamp.
    pub clip: ClipState,
    /// The viewport array (ARB_viewport_array); a primitive uses the one its provoking
    /// vertex selects with `result.viewport` (0 when not written or out of range).
    pub viewports: [Viewport; glemu_raster::MAX_VIEWPORTS],
    /// GL_VERTEX_PROGRAM_TWO_SIDE: back-facing triangles take back colours.
    pub two_side: bool,
    /// GL_LAST_VERTEX_CONVENTION.
    pub provoking_last: bool,
    /// Patch size and default levels.
    pub tess: TessState,
    /// GL_RASTERIZER_DISCARD.
    pub rasterizer_discard: bool,
    /// Point size when the program does not write one (glPointSize).
    pub point_size: f32,
    /// glShadeModel(GL_FLAT): colours take the provoking vertex's value.
    pub flat_shading: bool,
    /// Fog parameters read by fragment programs with `OPTION ARB_fog_*`.
    pub fog: FogParams,
    /// Rows of PROJECTION·MODELVIEW (clip = M · position), used for the position of
    /// `OPTION ARB_position_invariant` vertex programs.
    pub mvp: [[f32; 4]; 4],
    /// GL_PROGRAM_POINT_SIZE / VERTEX_PROGRAM_POINT_SIZE: use `result.pointsize`.
    pub program_point_size: bool,
    /// GL_CLAMP_VERTEX_COLOR (TRUE by default in a compatibility context): the colours the
    /// last vertex-processing stage writes are clamped to [0, 1] before they are captured
    /// and interpolated.
    pub clamp_vertex_color: bool,
}

impl VertexProcessing {
    /// The state a fresh context has, with one viewport covering `width`×`height`.
    pub fn new(width: u32, height: u32) -> VertexProcessing {
        VertexProcessing {
            clip: ClipState::default(),
            viewports: [Viewport::new(width, height); glemu_raster::MAX_VIEWPORTS],
            two_side: false,
            provoking_last: true,
            tess: TessState::default(),
            rasterizer_discard: false,
            point_size: 1.0,
            flat_shading: false,
            fog: FogParams::default(),
            mvp: [
                [1.0, 0.0, 0.0, 0.0],
                [0.0, 1.0, 0.0, 0.0],
                [0.0, 0.0, 1.0, 0.0],
                [0.0, 0.0, 0.0, 1.0],
            ],
            program_point_size: false,
            clamp_vertex_color: true,
        }
    }
}

/// A texture and the sampler state it is read with.
#[derive(Clone, Debug)]
pub struct TextureBinding {
    /// The texture.
    pub texture: Arc<Texture>,
    /// Filtering, wrapping, LOD and comparison state to read it with.
    pub sampler: SamplerState,
}

/// One texture image unit: GL binds one texture per target on each unit; an instruction
/// reads the one whose target it names.
#[derive(Clone, Debug, Default)]
pub struct TextureUnit {
    /// One texture per target bound on the unit.
    pub bindings: Vec<TextureBinding>,
}

impl TextureUnit {
    /// The texture bound to `target`, if any.
    pub fn for_target(&self, target: Target) -> Option<&TextureBinding> {
        self.bindings.iter().find(|b| b.texture.target() == target)
    }
}

/// Everything one draw call reads, snapshotted by the Context. Pass it to
/// [`crate::draw()`] with the framebuffer, the rasterizer and the stream-out state.
#[derive(Clone, Debug)]
pub struct DrawState {
    /// The programs of every stage.
    pub programs: StagePrograms,
    /// Attribute arrays and current values, one entry per slot the Context knows.
    pub attribs: Vec<AttribBinding>,
    /// What to draw.
    pub call: DrawCall,
    /// Fixed vertex processing state (viewports, clipping, point size, ...).
    pub vertex: VertexProcessing,
    /// Texture image units, by unit number.
    pub textures: Vec<TextureUnit>,
    /// Rasterization, multisample, depth/stencil and blend state.
    pub raster: glemu_raster::FixedFunctionState,
    /// Atomic counter buffers (NV_shader_atomic_counters), by binding.
    pub counter_buffers: Vec<Option<BufferRange>>,
    /// Shader storage buffers (`program.storage[n]`), by binding.
    pub storage_buffers: Vec<Option<BufferRange>>,
    /// The GPU address space LOAD/STORE/ATOM use.
    pub memory: Arc<GpuMemory>,
    /// Image units (EXT_shader_image_load_store), by unit number.
    pub images: Vec<Option<ImageUnit>>,
    /// `Some(n)`: the target is layered with `n` layers; each primitive goes to the
    /// layer its provoking vertex selects (`result.layer.x`, 0 when not written) and the
    /// stages before rasterization run once ([`crate::layer`]). `None`: one framebuffer.
    pub layers: Option<u32>,
}

/// Counters a draw adds to (queries and their per-stream variants, and the pipeline
/// statistics of ARB_pipeline_statistics_query).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawStats {
    /// Vertices the draw fetched, every instance (VERTICES_SUBMITTED).
    pub vertices_submitted: u64,
    /// Primitives (or patches) assembled from them (PRIMITIVES_SUBMITTED).
    pub primitives_submitted: u64,
    /// Vertices the vertex program ran for (after the post-transform cache).
    pub vertex_invocations: u64,
    /// Patches the tessellation control program ran for (TESS_CONTROL_SHADER_PATCHES).
    pub tess_control_patches: u64,
    /// Domain points the tessellation evaluation program ran for.
    pub tess_eval_invocations: u64,
    /// Geometry program invocations: input primitives times INVOCATIONS.
    pub geometry_invocations: u64,
    /// Primitives geometry programs emitted, every stream.
    pub geometry_primitives_emitted: u64,
    /// Primitives that reached clipping (stream 0, every instance; none with rasterizer
    /// discard).
    pub clipping_input_primitives: u64,
    /// Fragments the fragment program ran for (helper lanes not counted; one per
    /// sample with per-sample shading).
    pub fragment_invocations: u64,
    /// Primitives that reached clipping, per vertex stream.
    pub primitives_generated: [u64; 4],
    /// Primitives written to stream-out buffers, per stream.
    pub primitives_written: [u64; 4],
    /// Primitives handed to the rasterizer after clipping.
    pub primitives_rasterized: u64,
    /// Samples that passed depth/stencil (occlusion query).
    pub samples_passed: u64,
    /// GPU memory faults during the draw.
    pub memory_faults: u64,
    /// Vertex rows walked or copied between the last vertex-processing stage and the
    /// rasterizer (colour clamp, gathering instances, clipping's per-vertex pass): the
    /// work that must grow with vertices × instances, not faster.
    pub vertex_rows_touched: u64,
}

impl DrawStats {
    /// Add another draw's counts to these.
    pub fn add(&mut self, o: &DrawStats) {
        self.vertices_submitted += o.vertices_submitted;
        self.primitives_submitted += o.primitives_submitted;
        self.vertex_invocations += o.vertex_invocations;
        self.tess_control_patches += o.tess_control_patches;
        self.tess_eval_invocations += o.tess_eval_invocations;
        self.geometry_invocations += o.geometry_invocations;
        self.geometry_primitives_emitted += o.geometry_primitives_emitted;
        self.clipping_input_primitives += o.clipping_input_primitives;
        self.fragment_invocations += o.fragment_invocations;
        for s in 0..4 {
            self.primitives_generated[s] += o.primitives_generated[s];
            self.primitives_written[s] += o.primitives_written[s];
        }
        self.primitives_rasterized += o.primitives_rasterized;
        self.samples_passed += o.samples_passed;
        self.memory_faults += o.memory_faults;
        self.vertex_rows_touched += o.vertex_rows_touched;
    }
}
