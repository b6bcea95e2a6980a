//! End-to-end draws through real programs, the rasterizer and a framebuffer.

use crate::assembly::{PrimClass, PrimitiveMode};
use crate::fetch::{AttribBinding, AttribFormat, AttribSlot, IndexBuffer, IndexType, VertexArray};
use crate::memory::{Buffer, GpuMemory};
use crate::state::*;
use crate::xfb::{parse_attrib, XfbBinding, XfbMode, XfbState};
use glemu_programs::{assemble, Stage};
use glemu_raster::{ColorFormat, DepthFormat, Framebuffer, Rasterizer};
use std::sync::Arc;

const W: u32 = 16;

/// A stage program assembled from `text`, its env/local slots from `params` and its
/// constants from the program (shared by the pipeline's unit tests).
pub(crate) fn stage(text: &str, st: Stage, params: Vec<[u32; 4]>) -> StageProgram {
    let p = assemble(text, Some(st)).unwrap_or_else(|e| panic!("{}", e.render(text)));
    let n = p.params.len();
    let mut params = params;
    // Constants come from the program itself.
    for (i, src) in p.params.iter().enumerate() {
        if let glemu_programs::ir::ParamSource::Constant(c) = src {
            if i >= params.len() {
                params.resize(n, [0; 4]);
            }
            params[i] = *c;
        }
    }
    params.resize(n, [0; 4]);
    StageProgram::new(Arc::new(p), params)
}

const PASS_VP: &str =
    "!!ARBvp1.0\nMOV result.position, vertex.position;\nMOV result.color, vertex.color;\nEND\n";
const COLOR_FP: &str = "!!ARBfp1.0\nMOV result.color, fragment.color;\nEND\n";

/// [`COLOR_FP`] with a KIL that kills nothing (the colours are not negative): it runs
/// through the fused block kernels, not the whole-block runs (which take no KIL).
const KEEP_COLOR_FP: &str =
    "!!ARBfp1.0\nKIL fragment.color;\nMOV result.color, fragment.color;\nEND\n";

fn floats(v: &[f32]) -> Arc<Buffer> {
    Buffer::from_bytes(bytemuck::cast_slice(v).to_vec())
}

/// An array of `size` floats per element; a `stride` of 0 is tightly packed.
fn array(buf: &Arc<Buffer>, size: u8, stride: u32, offset: u64) -> VertexArray {
    VertexArray {
        buffer: buf.clone(),
        offset,
        stride: if stride == 0 {
            4 * u32::from(size)
        } else {
            stride
        },
        format: AttribFormat::float(size),
        divisor: 0,
    }
}

fn base_state(mode: PrimitiveMode, count: u32, attribs: Vec<AttribBinding>) -> DrawState {
    DrawState {
        programs: StagePrograms {
            vertex: Some(stage(PASS_VP, Stage::Vertex, vec![])),
            fragment: Some(stage(COLOR_FP, Stage::Fragment, vec![])),
            ..Default::default()
        },
        attribs,
        call: DrawCall::arrays(mode, 0, count),
        vertex: VertexProcessing::new(W, W),
        textures: Vec::new(),
        raster: glemu_raster::FixedFunctionState::default(),
        counter_buffers: Vec::new(),
        storage_buffers: Vec::new(),
        memory: Arc::new(GpuMemory::new()),
        images: Vec::new(),
        layers: None,
    }
}

fn attrib(slot: AttribSlot, array: Option<VertexArray>, current: [f32; 4]) -> AttribBinding {
    AttribBinding {
        slot,
        array,
        current: current.map(f32::to_bits),
    }
}

fn fb() -> Framebuffer {
    Framebuffer::new(W, W, 1, &[ColorFormat::Rgba32F], DepthFormat::D24S8).unwrap()
}

fn run(state: &DrawState, fb: &mut Framebuffer, xfb: Option<&mut XfbState>) -> DrawStats {
    let r = Rasterizer::new(1).unwrap();
    crate::draw(state, &r, fb, xfb).unwrap_or_else(|e| panic!("{e}"))
}

fn px(fb: &Framebuffer, x: u32, y: u32) -> [f32; 4] {
    fb.read_pixel(0, x, y).unwrap()
}

/// A full-screen quad as a triangle strip with per-vertex colours.
/// An interleaved stream-out of one attribute into a new buffer of `bytes` bytes.
fn capture(attrib: &str, bytes: u64) -> (Arc<Buffer>, XfbState) {
    let buf = Buffer::new(bytes).unwrap();
    let x = XfbState {
        mode: XfbMode::Interleaved,
        attribs: vec![parse_attrib(attrib, 0).unwrap()],
        buffers: vec![Some(XfbBinding {
            buffer: buf.clone(),
            offset: 0,
            size: None,
        })],
        ..Default::default()
    };
    (buf, x)
}

/// A buffer's contents as little-endian f32s.
fn captured(buf: &Buffer) -> Vec<f32> {
    let bytes = buf.to_vec();
    bytes
        .chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn quad_attribs() -> Vec<AttribBinding> {
    let pos = floats(&[-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]);
    vec![
        attrib(
            AttribSlot::Position,
            Some(array(&pos, 2, 0, 0)),
            [0.0, 0.0, 0.0, 1.0],
        ),
        attrib(AttribSlot::Color, None, [0.25, 0.5, 0.75, 1.0]),
    ]
}

/// An `n`x`n` RGBA8 + D24S8 framebuffer of `ns` samples with the full-screen quad at
/// `sloped`'s positions drawn into its depth (LESS), a rasterizer with the block path on
/// or off, and the state that draws the full-screen quad over it with colours `col`.
fn over_sloped_depth(
    n: u32,
    ns: u32,
    blocks: bool,
    sloped: &Arc<Buffer>,
    col: &Arc<Buffer>,
) -> (Framebuffer, Rasterizer, DrawState) {
    let mut f = Framebuffer::new(n, n, ns, &[ColorFormat::Rgba8Unorm], DepthFormat::D24S8).unwrap();
    let mut r = Rasterizer::new(1).unwrap();
    r.set_block_path(blocks);
    let mut under = base_state(PrimitiveMode::TriangleStrip, 4, quad_attribs());
    under.attribs[0] = attrib(
        AttribSlot::Position,
        Some(array(sloped, 4, 0, 0)),
        [0.0, 0.0, 0.0, 1.0],
    );
    under.vertex = VertexProcessing::new(n, n);
    under.raster.depth_stencil.depth_test = true;
    crate::draw(&under, &r, &mut f, None).unwrap_or_else(|e| panic!("{e}"));
    let mut st = under;
    st.attribs = quad_attribs();
    st.attribs[1] = attrib(AttribSlot::Color, Some(array(col, 4, 0, 0)), [0.0; 4]);
    (f, r, st)
}

#[test]
fn full_screen_quad_with_current_colour() {
    let st = base_state(PrimitiveMode::TriangleStrip, 4, quad_attribs());
    let mut f = fb();
    let s = run(&st, &mut f, None);
    assert_eq!(s.vertex_invocations, 4);
    assert_eq!(s.primitives_generated[0], 2);
    for (x, y) in [(0, 0), (15, 15), (7, 9)] {
        assert_eq!(px(&f, x, y), [0.25, 0.5, 0.75, 1.0]);
    }
}

#[test]
fn interpolated_colours_and_indexed_draw_with_cache() {
    let pos = floats(&[-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]);
    let col = floats(&[
        1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0,
    ]);
    let attribs = vec![
        attrib(AttribSlot::Position, Some(array(&pos, 2, 0, 0)), [0.0; 4]),
        attrib(AttribSlot::Color, Some(array(&col, 4, 0, 0)), [0.0; 4]),
    ];
    let mut st = base_state(PrimitiveMode::Triangles, 6, attribs);
    st.call.indices = Some(IndexBuffer {
        buffer: Buffer::from_bytes(bytemuck::cast_slice(&[0u16, 1, 2, 2, 1, 3]).to_vec()),
        offset: 0,
        ty: IndexType::U16,
    });
    let mut f = fb();
    let s = run(&st, &mut f, None);
    assert_eq!(s.vertex_invocations, 4, "shared vertices shaded once");
    let bottom = px(&f, 8, 0);
    let top = px(&f, 8, 15);
    assert!(bottom[0] > 0.9 && bottom[2] < 0.1, "{bottom:?}");
    assert!(top[2] > 0.9 && top[0] < 0.1, "{top:?}");
}

#[test]
fn instancing_with_divisor_and_instance_id() {
    // Two instances of a left-half quad; instance 1 moved right by a per-instance offset.
    let vp = "!!NVvp4.0\nATTRIB off = vertex.attrib[1];\nADD result.position, vertex.position, off;\nI2F result.color, vertex.instance;\nEND\n";
    let pos = floats(&[-1.0, -1.0, 0.0, -1.0, -1.0, 1.0, 0.0, 1.0]);
    let off = floats(&[0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
    let mut offs = array(&off, 4, 0, 0);
    offs.divisor = 1;
    let mut st = base_state(
        PrimitiveMode::TriangleStrip,
        4,
        vec![
            attrib(AttribSlot::Generic(0), Some(array(&pos, 2, 0, 0)), [0.0; 4]),
            attrib(AttribSlot::Generic(1), Some(offs), [0.0; 4]),
        ],
    );
    st.programs.vertex = Some(stage(vp, Stage::Vertex, vec![]));
    st.call.instances = 2;
    let mut f = fb();
    run(&st, &mut f, None);
    assert_eq!(px(&f, 2, 8)[0], 0.0);
    assert_eq!(px(&f, 13, 8)[0], 1.0);
}

#[test]
fn stream_out_and_rasterizer_discard() {
    let mut st = base_state(PrimitiveMode::TriangleStrip, 4, quad_attribs());
    st.vertex.rasterizer_discard = true;
    let (buf, mut x) = capture("result.position", 4 * 4 * 3);
    x.begin(PrimClass::Triangles).unwrap();
    let mut f = fb();
    let s = run(&st, &mut f, Some(&mut x));
    assert_eq!((s.primitives_generated[0], s.primitives_written[0]), (2, 1));
    let v = captured(&buf);
    assert_eq!(&v[..8], &[-1.0, -1.0, 0.0, 1.0, 1.0, -1.0, 0.0, 1.0]);
    assert_eq!(px(&f, 8, 8), [0.0; 4], "nothing rasterized");
}

#[test]
fn geometry_program_amplifies_points() {
    let gp = "!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT TRIANGLE_STRIP;\nVERTICES_OUT 4;\n\
        MOV result.color, {0, 1, 0, 1};\n\
        MOV result.position, {-1, -1, 0, 1}; EMIT;\n\
        MOV result.position, {1, -1, 0, 1}; EMIT;\n\
        MOV result.position, {-1, 1, 0, 1}; EMIT;\n\
        MOV result.position, {1, 1, 0, 1}; EMIT;\nEND\n";
    let mut st = base_state(PrimitiveMode::Points, 1, quad_attribs());
    st.programs.geometry = Some(stage(gp, Stage::Geometry, vec![]));
    let mut f = fb();
    let s = run(&st, &mut f, None);
    assert_eq!(s.primitives_generated[0], 2);
    assert_eq!(px(&f, 3, 12), [0.0, 1.0, 0.0, 1.0]);
}

/// Framebuffers per layer, recording the order the draw asks for and finishes them.
struct Layers {
    fbs: Vec<Framebuffer>,
    calls: Vec<(&'static str, u32)>,
}

impl crate::RenderTarget for Layers {
    fn layer(&mut self, layer: u32) -> Result<&mut Framebuffer, crate::PipelineError> {
        self.calls.push(("layer", layer));
        self.fbs
            .get_mut(layer as usize)
            .ok_or_else(|| crate::PipelineError::invalid_value("no such layer"))
    }
    fn finish_layer(&mut self, layer: u32) -> Result<(), crate::PipelineError> {
        self.calls.push(("finish", layer));
        Ok(())
    }
}

/// A geometry program sends quads to layers 3, 1 and 9 of a 4-layer target: the stages
/// run once, stream-out sees all three, and only layers 1 and 3 are asked for (in
/// order), each holding its quad.
#[test]
fn layered_target_gets_each_primitive_on_its_layer() {
    let gp = "!!NVgp4.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT TRIANGLE_STRIP;\nVERTICES_OUT 12;\n\
        PARAM layers[3] = { {3, 0, 0, 0}, {1, 0, 0, 0}, {9, 0, 0, 0} };\n\
        PARAM cols[3] = { {1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1} };\n\
        INT TEMP k, l;\nMOV.S k.x, 0;\nREP 3;\nFLR.S l.x, layers[k.x];\n\
        MOV result.color, cols[k.x]; MOV.S result.layer.x, l.x;\n\
        MOV result.position, {-1, -1, 0, 1}; EMIT;\n\
        MOV result.color, cols[k.x]; MOV.S result.layer.x, l.x;\n\
        MOV result.position, {1, -1, 0, 1}; EMIT;\n\
        MOV result.color, cols[k.x]; MOV.S result.layer.x, l.x;\n\
        MOV result.position, {-1, 1, 0, 1}; EMIT;\n\
        MOV result.color, cols[k.x]; MOV.S result.layer.x, l.x;\n\
        MOV result.position, {1, 1, 0, 1}; EMIT;\nENDPRIM;\nADD.S k.x, k.x, 1;\nENDREP;\nEND\n";
    let mut st = base_state(PrimitiveMode::Points, 1, quad_attribs());
    st.programs.geometry = Some(stage(gp, Stage::Geometry, vec![]));
    st.layers = Some(4);
    let mut target = Layers {
        fbs: (0..4).map(|_| fb()).collect(),
        calls: Vec::new(),
    };
    let (buf, mut x) = capture("result.color", 6 * 3 * 16);
    x.begin(PrimClass::Triangles).unwrap();
    let r = Rasterizer::new(2).unwrap();
    let s = crate::draw(&st, &r, &mut target, Some(&mut x)).unwrap();
    assert_eq!(s.geometry_invocations, 1);
    assert_eq!(
        s.primitives_written[0], 6,
        "every layer's triangles captured once"
    );
    assert_eq!(s.primitives_rasterized, 4, "layer 9's quad is not drawn");
    assert_eq!(captured(&buf)[..4], [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(
        target.calls,
        [("layer", 1), ("finish", 1), ("layer", 3), ("finish", 3)]
    );
    let want = [
        [0.0; 4],
        [0.0, 1.0, 0.0, 1.0],
        [0.0; 4],
        [1.0, 0.0, 0.0, 1.0],
    ];
    for (layer, want) in want.iter().enumerate() {
        assert_eq!(px(&target.fbs[layer], 8, 8), *want, "layer {layer}");
    }
}

#[test]
fn tessellated_quad_patch_covers_the_screen() {
    let tep = "!!NVtep5.0\nTESS_MODE QUADS;\nTEMP p;\n\
        MAD p, vertex.tesscoord, 2, -1;\nMOV p.zw, {0, 0, 0, 1};\nMOV result.position, p;\n\
        MOV result.color, vertex.tesscoord;\nEND\n";
    let mut st = base_state(PrimitiveMode::Patches, 4, quad_attribs());
    st.vertex.tess.patch_vertices = 4;
    st.vertex.tess.default_outer = [4.0; 4];
    st.vertex.tess.default_inner = [4.0; 2];
    st.programs.tess_eval = Some(stage(tep, Stage::TessEval, vec![]));
    let mut f = fb();
    let s = run(&st, &mut f, None);
    assert_eq!(s.primitives_generated[0], 32);
    let c = px(&f, 12, 4);
    assert!(
        (c[0] - 12.5 / 16.0).abs() < 0.02 && (c[1] - 4.5 / 16.0).abs() < 0.02,
        "{c:?}"
    );
}

#[test]
fn errors_are_values() {
    let mut st = base_state(PrimitiveMode::Triangles, 3, quad_attribs());
    st.programs.vertex = None;
    let r = Rasterizer::new(1).unwrap();
    assert!(crate::draw(&st, &r, &mut fb(), None).is_err());
    let mut st = base_state(PrimitiveMode::Patches, 3, quad_attribs());
    assert!(
        crate::draw(&st, &r, &mut fb(), None).is_err(),
        "patches without tessellation"
    );
    st.call = DrawCall::arrays(PrimitiveMode::Triangles, 0, u32::MAX);
    st.call.instances = 1 << 20;
    assert!(
        crate::draw(&st, &r, &mut fb(), None).is_err(),
        "huge draw fails cleanly"
    );
}

/// Timing of the geometry benchmark's phases (run with `--ignored --nocapture`).
#[test]
#[ignore]
fn time_grid_phases() {
    let n = 708u32;
    let mut pos = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            pos.extend([
                i as f32 / n as f32 * 2.0 - 1.0,
                j as f32 / n as f32 * 2.0 - 1.0,
            ]);
        }
    }
    let mut idx: Vec<u32> = Vec::new();
    for j in 0..n {
        for i in 0..n {
            let a = j * (n + 1) + i;
            idx.extend([a, a + 1, a + n + 1, a + n + 1, a + 1, a + n + 2]);
        }
    }
    let pos = floats(&pos);
    let mut st = base_state(
        PrimitiveMode::Triangles,
        idx.len() as u32,
        vec![attrib(
            AttribSlot::Position,
            Some(array(&pos, 2, 0, 0)),
            [0.0; 4],
        )],
    );
    st.call.indices = Some(IndexBuffer {
        buffer: Buffer::from_bytes(bytemuck::cast_slice(&idx[..]).to_vec()),
        offset: 0,
        ty: IndexType::U32,
    });
    let mut f = Framebuffer::new(
        1024,
        1024,
        1,
        &[ColorFormat::Rgba8Unorm],
        DepthFormat::D24S8,
    )
    .unwrap();
    st.vertex = VertexProcessing::new(1024, 1024);
    let r = Rasterizer::new(2).unwrap();
    let res = crate::env::Resources::default();
    let t = std::time::Instant::now();
    let vso = crate::vertex_stage::run(&st, st.programs.vertex.as_ref().unwrap(), &res).unwrap();
    eprintln!(
        "vertex stage: {:?} ({} invocations)",
        t.elapsed(),
        vso.invocations
    );
    st.vertex.rasterizer_discard = true;
    let t = std::time::Instant::now();
    crate::draw(&st, &r, &mut f, None).unwrap();
    eprintln!("draw with rasterizer discard: {:?}", t.elapsed());
    st.vertex.rasterizer_discard = false;
    st.vertex.clip.enabled = 0;
    let t = std::time::Instant::now();
    crate::draw(&st, &r, &mut f, None).unwrap();
    eprintln!("full draw: {:?}", t.elapsed());
}

#[test]
fn geometry_program_reads_patches_adjacency_ids_and_invocations() {
    // Each invocation of a 4-vertex patch emits one point at vertex[invocation],
    // coloured by primitive.id and the invocation number.
    let gp = "!!NVgp5.0\nOPTION NV_shader_thread_group;\nPRIMITIVE_IN PATCHES;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nINVOCATIONS 4;\n\
        INT TEMP i;\nTEMP c;\nATTRIB p = vertex.position;\n\
        MOV.S i.x, primitive.invocation.x;\nMOV result.position, p[i.x];\n\
        I2F c.x, primitive.id.x;\nI2F c.y, primitive.invocation.x;\nMUL c.y, c.y, 0.25;\n\
        MOV c.zw, {0, 0, 0, 1};\nMOV result.color, c;\nEMIT;\nEND\n";
    let pos = floats(&[
        -0.93, -0.93, 0.93, -0.93, 0.93, 0.93, -0.93, 0.93, // patch 0
        -0.53, -0.53, 0.53, -0.53, 0.53, 0.53, -0.53, 0.53, // patch 1
    ]);
    let mut st = base_state(
        PrimitiveMode::Patches,
        8,
        vec![attrib(
            AttribSlot::Position,
            Some(array(&pos, 2, 0, 0)),
            [0.0; 4],
        )],
    );
    st.vertex.tess.patch_vertices = 4;
    st.programs.geometry = Some(stage(gp, Stage::Geometry, vec![]));
    let mut f = fb();
    let s = run(&st, &mut f, None);
    assert_eq!(s.primitives_generated[0], 8);
    // patch 1, invocation 2 is the point at (0.5, 0.5) → pixel (12, 12)
    assert_eq!(px(&f, 12, 12), [1.0, 0.5, 0.0, 1.0]);
    // patch 0, invocation 0 at (-0.9, -0.9) → pixel (0, 0)
    assert_eq!(px(&f, 0, 0), [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn geometry_program_reads_default_levels_vertex_ids_and_thread_ids() {
    // Patches straight from the vertex stage carry the default levels
    // (NV_tessellation_program5); vertex[m].id is the vertex program's result.id.
    let vp = "!!NVvp4.0\nMOV result.position, vertex.position;\n\
        ADD.S result.id.x, vertex.id.x, 100;\nEND\n";
    let gp = "!!NVgp5.0\nOPTION NV_shader_thread_group;\nPRIMITIVE_IN PATCHES;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\n\
        INT TEMP i;\nTEMP c;\n\
        MOV c.x, primitive.tessouter[1].x;\nMOV c.y, primitive.tessinner[0].x;\n\
        MOV.S i.x, vertex[1].id.x;\nI2F c.z, i.x;\nMOV.U i.y, primitive.threadid.x;\nI2F c.w, i.y;\n\
        MOV result.attrib[0], c;\nMOV result.position, vertex[0].position;\nEMIT;\nEND\n";
    let pos = floats(&[-0.5, -0.5, 0.5, -0.5, 0.5, 0.5, -0.5, 0.5]);
    let mut st = base_state(
        PrimitiveMode::Patches,
        4,
        vec![attrib(
            AttribSlot::Position,
            Some(array(&pos, 2, 0, 0)),
            [0.0; 4],
        )],
    );
    st.vertex.tess.patch_vertices = 2;
    st.vertex.tess.default_outer = [2.0, 3.0, 4.0, 5.0];
    st.vertex.tess.default_inner = [6.0, 7.0];
    st.vertex.rasterizer_discard = true;
    st.programs.vertex = Some(stage(vp, Stage::Vertex, vec![]));
    st.programs.geometry = Some(stage(gp, Stage::Geometry, vec![]));
    let (buf, mut x) = capture("result.attrib[0]", 4 * 4 * 2);
    x.begin(PrimClass::Points).unwrap();
    let mut f = fb();
    run(&st, &mut f, Some(&mut x));
    let v = captured(&buf);
    assert_eq!(v, [3.0, 6.0, 101.0, 0.0, 3.0, 6.0, 103.0, 1.0]);
}

fn tri_attribs(cw: bool) -> Vec<AttribBinding> {
    let p = if cw {
        floats(&[-1.0, -1.0, -1.0, 3.0, 3.0, -1.0])
    } else {
        floats(&[-1.0, -1.0, 3.0, -1.0, -1.0, 3.0])
    };
    vec![attrib(
        AttribSlot::Position,
        Some(array(&p, 2, 0, 0)),
        [0.0; 4],
    )]
}

#[test]
fn two_sided_colour_follows_facing() {
    let vp = "!!ARBvp1.0\nMOV result.position, vertex.position;\n\
        MOV result.color.front, {1, 0, 0, 1};\nMOV result.color.back, {0, 0, 1, 1};\nEND\n";
    for (cw, two_side, want) in [
        (false, true, [1.0, 0.0, 0.0, 1.0]),
        (true, true, [0.0, 0.0, 1.0, 1.0]),
        (true, false, [1.0, 0.0, 0.0, 1.0]),
    ] {
        let mut st = base_state(PrimitiveMode::Triangles, 3, tri_attribs(cw));
        st.programs.vertex = Some(stage(vp, Stage::Vertex, vec![]));
        st.vertex.two_side = two_side;
        let mut f = fb();
        run(&st, &mut f, None);
        assert_eq!(px(&f, 5, 5), want, "cw {cw} two-side {two_side}");
    }
}

#[test]
fn program_clip_distances_cut_the_primitive() {
    let vp = "!!NVvp4.0\nMOV result.position, vertex.position;\nMOV result.clip[0].x, vertex.position.x;\n\
        MOV result.color, {0, 1, 0, 1};\nEND\n";
    let mut st = base_state(PrimitiveMode::Triangles, 3, tri_attribs(false));
    st.programs.vertex = Some(stage(vp, Stage::Vertex, vec![]));
    let mut f = fb();
    run(&st, &mut f, None);
    assert_eq!(px(&f, 2, 2)[1], 1.0, "not enabled: no clipping");
    st.vertex.clip.enabled = 1;
    let mut f = fb();
    run(&st, &mut f, None);
    assert_eq!(px(&f, 2, 2)[1], 0.0, "x < 0 clipped away");
    assert_eq!(px(&f, 10, 2)[1], 1.0);
}

#[test]
fn flat_shading_uses_the_provoking_vertex() {
    let col = floats(&[1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0]);
    let mut a = tri_attribs(false);
    a.push(attrib(
        AttribSlot::Color,
        Some(array(&col, 4, 0, 0)),
        [0.0; 4],
    ));
    for (last, want) in [(true, [0.0, 0.0, 1.0, 1.0]), (false, [1.0, 0.0, 0.0, 1.0])] {
        let mut st = base_state(PrimitiveMode::Triangles, 3, a.clone());
        st.vertex.flat_shading = true;
        st.vertex.provoking_last = last;
        let mut f = fb();
        run(&st, &mut f, None);
        assert_eq!(px(&f, 7, 3), want);
    }
}

#[test]
fn arb_fog_linear_blends_towards_the_fog_colour() {
    let vp =
        "!!ARBvp1.0\nMOV result.position, vertex.position;\nMOV result.fogcoord.x, 0.25;\nEND\n";
    let fp = "!!ARBfp1.0\nOPTION ARB_fog_linear;\nMOV result.color, {1, 1, 1, 1};\nEND\n";
    let mut st = base_state(PrimitiveMode::Triangles, 3, tri_attribs(false));
    st.programs.vertex = Some(stage(vp, Stage::Vertex, vec![]));
    st.programs.fragment = Some(stage(fp, Stage::Fragment, vec![]));
    st.vertex.fog.color = [0.0, 0.0, 1.0, 1.0];
    let mut f = fb();
    run(&st, &mut f, None);
    // f = (1 - 0.25) / (1 - 0) = 0.75
    assert_eq!(px(&f, 4, 4), [0.75, 0.75, 1.0, 1.0]);
}

#[test]
fn fragment_program_samples_and_fetches_textures() {
    use glemu_textures::{Base, Channel, Filter, Format, SamplerState, Target, Texture, Wrap};
    // 2×2 RGBA32F texture: texel (i, j) = (i, j, 0.5, 1).
    let mut tex = Texture::new(
        Target::T2D,
        Format::Plain(Base::Rgba, Channel::F32),
        [2, 2, 1],
        1,
    )
    .unwrap();
    let texels: Vec<[u32; 4]> = (0..4)
        .map(|k| [(k % 2) as f32, (k / 2) as f32, 0.5, 1.0].map(f32::to_bits))
        .collect();
    tex.write_texels(0, [0, 0, 0], [2, 2, 1], &texels).unwrap();
    let unit = TextureUnit {
        bindings: vec![TextureBinding {
            texture: Arc::new(tex),
            sampler: SamplerState::simple(Filter::Nearest, Wrap::ClampToEdge),
        }],
    };
    let fp_tex = "!!ARBfp1.0\nTEX result.color, fragment.position, texture[0], 2D;\nEND\n";
    let fp_fetch = "!!NVfp4.0\nINT TEMP c;\nMOV.S c, {1, 0, 0, 0};\nTXF result.color, c, texture[0], 2D;\nEND\n";
    for (fp, x, y, want) in [
        // window position / 16 as coordinates: pixel (12, 3) reads texel (1, 0)
        (fp_tex, 12, 3, [1.0, 0.0, 0.5, 1.0]),
        (fp_tex, 3, 12, [0.0, 1.0, 0.5, 1.0]),
        (fp_fetch, 5, 5, [1.0, 0.0, 0.5, 1.0]),
    ] {
        let mut st = base_state(PrimitiveMode::TriangleStrip, 4, quad_attribs());
        // Sample at fragment.position / 16: the framebuffer maps onto [0, 1]².
        let text = fp.replace(
            "TEX result.color, fragment.position, texture[0], 2D;",
            "TEMP p;\nMUL p, fragment.position, 0.0625;\nTEX result.color, p, texture[0], 2D;",
        );
        st.programs.fragment = Some(stage(&text, Stage::Fragment, vec![]));
        st.textures = vec![unit.clone()];
        let mut f = fb();
        run(&st, &mut f, None);
        assert_eq!(px(&f, x, y), want, "{text}");
    }
    // no texture of that target on the unit: (0, 0, 0, 1)
    let mut st = base_state(PrimitiveMode::TriangleStrip, 4, quad_attribs());
    st.programs.fragment = Some(stage(
        "!!ARBfp1.0\nTEX result.color, fragment.position, texture[0], 3D;\nEND\n",
        Stage::Fragment,
        vec![],
    ));
    st.textures = vec![unit];
    let mut f = fb();
    run(&st, &mut f, None);
    assert_eq!(px(&f, 1, 1), [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn tess_control_with_more_output_vertices_than_lanes() {
    // 20 output vertices (two batches of invocations); each copies input vertex
    // (invocation mod 4); the evaluation program uses vertices 0..3 and vertex 19's
    // attribute, which only the second batch writes.
    let tcp = "!!NVtcp5.0\nVERTICES_OUT 20;\nATTRIB ipos = vertex.position;\nINT TEMP id;\nTEMP c;\n\
        MOV.S id.x, primitive.invocation.x;\nMOD.S id.y, id.x, 4;\nMOV result.position, ipos[id.y];\n\
        I2F c.x, id.x;\nMUL c.x, c.x, 0.05;\nMOV c.yzw, {0, 0, 0, 1};\nMOV result.attrib[0], c;\n\
        MOV result.patch.tessouter[0].x, 1.0;\nMOV result.patch.tessouter[1].x, 1.0;\n\
        MOV result.patch.tessouter[2].x, 1.0;\nMOV result.patch.tessouter[3].x, 1.0;\n\
        MOV result.patch.tessinner[0].x, 1.0;\nMOV result.patch.tessinner[1].x, 1.0;\nEND\n";
    let tep = "!!NVtep5.0\nTESS_MODE QUADS;\nTEMP a, b;\n\
        LRP a, vertex.tesscoord.x, vertex[1].position, vertex[0].position;\n\
        LRP b, vertex.tesscoord.x, vertex[2].position, vertex[3].position;\n\
        LRP result.position, vertex.tesscoord.y, b, a;\nMOV result.color, vertex[19].attrib[0];\nEND\n";
    let pos = floats(&[-1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0]);
    let mut st = base_state(
        PrimitiveMode::Patches,
        4,
        vec![attrib(
            AttribSlot::Position,
            Some(array(&pos, 2, 0, 0)),
            [0.0; 4],
        )],
    );
    st.vertex.tess.patch_vertices = 4;
    st.programs.tess_control = Some(stage(tcp, Stage::TessControl, vec![]));
    st.programs.tess_eval = Some(stage(tep, Stage::TessEval, vec![]));
    let mut f = fb();
    let s = run(&st, &mut f, None);
    assert_eq!(s.primitives_generated[0], 2);
    assert!((px(&f, 8, 8)[0] - 0.95).abs() < 1e-6, "{:?}", px(&f, 8, 8));
}

#[test]
fn restart_base_vertex_and_xfb_of_strips_and_loops() {
    // Vertices 2..6 hold a strip; index 0xff restarts; base vertex 2 shifts the indices.
    let pos = floats(&[
        9.0, 9.0, 9.0, 9.0, // unused (before the base vertex)
        -1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 0.0, 0.0,
    ]);
    let mut st = base_state(
        PrimitiveMode::TriangleStrip,
        7,
        vec![attrib(
            AttribSlot::Position,
            Some(array(&pos, 2, 0, 0)),
            [0.0; 4],
        )],
    );
    st.call.indices = Some(IndexBuffer {
        buffer: Buffer::from_bytes(vec![0, 1, 2, 0xff, 1, 3, 2]),
        offset: 0,
        ty: IndexType::U8,
    });
    st.call.base_vertex = 2;
    st.call.primitive_restart = Some(0xff);
    let buf = Buffer::new(1024).unwrap();
    let mut x = XfbState {
        attribs: vec![parse_attrib("result.position", 0).unwrap()],
        buffers: vec![Some(XfbBinding {
            buffer: buf.clone(),
            offset: 0,
            size: None,
        })],
        ..Default::default()
    };
    x.begin(PrimClass::Triangles).unwrap();
    let mut f = fb();
    let s = run(&st, &mut f, Some(&mut x));
    assert_eq!((s.primitives_generated[0], s.primitives_written[0]), (2, 2));
    let v = captured(&buf);
    // second triangle starts at vertex 1+2 = (1, -1)
    assert_eq!(&v[12..14], &[1.0, -1.0]);
    assert_eq!(
        px(&f, 15, 15),
        [1.0; 4],
        "the second strip covers the top right"
    );
    // A line loop captured as lines closes back to its first vertex.
    x.end().unwrap();
    x.begin(PrimClass::Lines).unwrap();
    let mut st = base_state(PrimitiveMode::LineLoop, 3, quad_attribs());
    st.vertex.rasterizer_discard = true;
    let s = run(&st, &mut fb(), Some(&mut x));
    assert_eq!(s.primitives_written[0], 3);
    let v = captured(&buf);
    assert_eq!(&v[16..18], &[-1.0, 1.0], "last line starts at vertex 2");
    assert_eq!(&v[20..22], &[-1.0, -1.0], "and ends at vertex 0");
}

/// Runs `st` at 1, 2 and 8 threads capturing `result.texcoord[0]` (not clamped like
/// colours); asserts the captures and images agree and returns the capture.
fn same_at_any_thread_count(st: &DrawState, class: PrimClass, floats: u64) -> Vec<f32> {
    let mut out: Vec<(Vec<f32>, Framebuffer)> = Vec::new();
    for threads in [1, 2, 8] {
        let (buf, mut x) = capture("result.texcoord[0]", floats * 4);
        x.begin(class).unwrap();
        let mut f = fb();
        let r = Rasterizer::new(threads).unwrap();
        crate::draw(st, &r, &mut f, Some(&mut x)).unwrap_or_else(|e| panic!("{e}"));
        out.push((captured(&buf), f));
    }
    for (t, o) in [2, 8].iter().zip(&out[1..]) {
        assert!(o.0 == out[0].0, "capture at {t} threads differs");
        assert!(o.1 == out[0].1, "image at {t} threads differs");
    }
    out.swap_remove(0).0
}

#[test]
fn geometry_chunks_keep_primitive_order() {
    // 300 points (several chunks of input primitives), two invocations each; every
    // invocation emits one triangle coloured (primitive.id, invocation).
    let gp = "!!NVgp5.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT TRIANGLE_STRIP;\nVERTICES_OUT 3;\n\
        INVOCATIONS 2;\nTEMP c;\n\
        I2F c.x, primitive.id.x;\nI2F c.y, primitive.invocation.x;\nMOV c.zw, {0, 0, 0, 1};\n\
        MOV result.color, c;\nMOV result.texcoord[0], c;\n\
        ADD result.position, vertex[0].position, {0, 0, 0, 0}; EMIT;\n\
        ADD result.position, vertex[0].position, {0.1, 0, 0, 0}; EMIT;\n\
        ADD result.position, vertex[0].position, {0, 0.1, 0, 0}; EMIT;\nEND\n";
    let n = 300;
    let pos: Vec<f32> = (0..n)
        .flat_map(|i| [(i % 20) as f32 / 10.0 - 1.0, (i / 20) as f32 / 8.0 - 1.0])
        .collect();
    let pos = floats(&pos);
    let mut st = base_state(
        PrimitiveMode::Points,
        n,
        vec![attrib(
            AttribSlot::Position,
            Some(array(&pos, 2, 0, 0)),
            [0.0; 4],
        )],
    );
    st.programs.geometry = Some(stage(gp, Stage::Geometry, vec![]));
    let v = same_at_any_thread_count(&st, PrimClass::Triangles, u64::from(n) * 2 * 3 * 4);
    for (k, tri) in v.chunks(12).enumerate() {
        let want = [(k / 2) as f32, (k % 2) as f32, 0.0, 1.0];
        assert_eq!(&tri[..4], &want, "triangle {k}");
    }
}

#[test]
fn tessellation_chunks_keep_patch_order() {
    // 150 patches (several control-program chunks), each tessellated into 2 triangles
    // coloured by primitive.id.
    let tcp = "!!NVtcp5.0\nVERTICES_OUT 1;\nMOV result.position, vertex[0].position;\n\
        MOV result.patch.tessouter[0].x, 1.0;\nMOV result.patch.tessouter[1].x, 1.0;\n\
        MOV result.patch.tessouter[2].x, 1.0;\nMOV result.patch.tessouter[3].x, 1.0;\n\
        MOV result.patch.tessinner[0].x, 1.0;\nMOV result.patch.tessinner[1].x, 1.0;\nEND\n";
    let tep = "!!NVtep5.0\nTESS_MODE QUADS;\nTEMP p, c;\n\
        MAD p, vertex.tesscoord, 0.05, vertex[0].position;\nMOV p.zw, {0, 0, 0, 1};\n\
        MOV result.position, p;\nI2F c.x, primitive.id.x;\nMOV c.yzw, {0, 0, 0, 1};\n\
        MOV result.color, c;\nMOV result.texcoord[0], c;\nEND\n";
    let n = 150;
    let pos: Vec<f32> = (0..n)
        .flat_map(|i| [(i % 15) as f32 / 8.0 - 1.0, (i / 15) as f32 / 6.0 - 1.0])
        .collect();
    let pos = floats(&pos);
    let mut st = base_state(
        PrimitiveMode::Patches,
        n,
        vec![attrib(
            AttribSlot::Position,
            Some(array(&pos, 2, 0, 0)),
            [0.0; 4],
        )],
    );
    st.vertex.tess.patch_vertices = 1;
    st.programs.tess_control = Some(stage(tcp, Stage::TessControl, vec![]));
    st.programs.tess_eval = Some(stage(tep, Stage::TessEval, vec![]));
    let v = same_at_any_thread_count(&st, PrimClass::Triangles, u64::from(n) * 2 * 3 * 4);
    for (k, tri) in v.chunks(12).enumerate() {
        assert_eq!(tri[0], (k / 2) as f32, "triangle {k}");
    }
}

/// `result.color[0].secondary` is the second source of dual-source blending and nothing
/// else: without a SRC1_* factor draw buffer 1 gets `result.color[1]`, with one the
/// secondary colour feeds the blend and `result.color[1]` goes nowhere.
#[test]
fn secondary_colour_feeds_only_dual_source_blending() {
    const DUAL_FP: &str = "!!NVfp5.0\nOPTION ARB_blend_func_extended;\nOPTION ARB_draw_buffers;\n\
        MOV result.color.primary, {1.0, 0.5, 0.25, 1.0};\n\
        MOV result.color.secondary, {0.5, 0.5, 0.0, 0.25};\n\
        MOV result.color[1], {0.0, 0.0, 1.0, 1.0};\nEND\n";
    let mut st = base_state(PrimitiveMode::TriangleStrip, 4, quad_attribs());
    st.programs.fragment = Some(stage(DUAL_FP, Stage::Fragment, vec![]));
    let two = [ColorFormat::Rgba32F; 2];
    let mut f = Framebuffer::new(W, W, 1, &two, DepthFormat::D24S8).unwrap();
    run(&st, &mut f, None);
    assert_eq!(f.read_pixel(0, 3, 3).unwrap(), [1.0, 0.5, 0.25, 1.0]);
    assert_eq!(f.read_pixel(1, 3, 3).unwrap(), [0.0, 0.0, 1.0, 1.0]);
    let mut f = fb();
    f.clear_color(0, [0.5; 4], None, [true; 4], false).unwrap();
    st.raster.blend.targets[0] = glemu_raster::BlendTarget {
        enabled: true,
        src_rgb: glemu_raster::BlendFactor::Src1Color,
        dst_rgb: glemu_raster::BlendFactor::OneMinusSrc1Alpha,
        src_alpha: glemu_raster::BlendFactor::One,
        dst_alpha: glemu_raster::BlendFactor::Zero,
        ..Default::default()
    };
    run(&st, &mut f, None);
    // rgb = primary * secondary + 0.5 * (1 - 0.25)
    assert_eq!(px(&f, 3, 3), [0.875, 0.625, 0.375, 1.0]);
}

/// A fragment program that runs `iterations` loop trips per fragment (2 instructions
/// each: well inside the per-invocation budget).
fn looping_fp(iterations: u32) -> StageProgram {
    let text = format!(
        "!!NVfp5.0\nTEMP t;\nMOV t, 0;\nREP {iterations};\nADD t.x, t.x, 1;\nENDREP;\nMOV result.color, t;\nEND\n"
    );
    stage(&text, Stage::Fragment, vec![])
}

#[test]
fn a_passed_deadline_stops_the_draw_before_any_work() {
    let mut st = base_state(PrimitiveMode::TriangleStrip, 4, quad_attribs());
    st.raster.deadline = glemu_raster::Deadline::after(std::time::Duration::ZERO);
    let r = Rasterizer::new(1).unwrap();
    let mut f = fb();
    let e = crate::draw(&st, &r, &mut f, None).unwrap_err();
    assert_eq!(e.kind(), crate::PipelineErrorKind::TimedOut, "{e}");
    assert!(e.to_string().contains("time limit of 0.000 s"), "{e}");
    assert_eq!(px(&f, 7, 7), [0.0; 4], "nothing drawn");
    // Without a deadline the same state draws.
    st.raster.deadline = None;
    run(&st, &mut f, None);
    assert_eq!(px(&f, 7, 7), [0.25, 0.5, 0.75, 1.0]);
}

#[test]
fn the_watchdog_interrupts_a_long_fragment_loop() {
    // 64×64 fragments × 400,000 loop trips: tens of seconds uninterrupted, on any
    // backend; the watchdog ends it within its check interval of the deadline.
    let mut st = base_state(PrimitiveMode::TriangleStrip, 4, quad_attribs());
    st.vertex = VertexProcessing::new(64, 64);
    st.programs.fragment = Some(looping_fp(400_000));
    let limit = std::time::Duration::from_millis(50);
    st.raster.deadline = glemu_raster::Deadline::after(limit);
    let mut f = Framebuffer::new(64, 64, 1, &[ColorFormat::Rgba32F], DepthFormat::D24S8).unwrap();
    let t0 = std::time::Instant::now();
    let e = crate::draw(&st, &Rasterizer::new(2).unwrap(), &mut f, None).unwrap_err();
    assert_eq!(e.kind(), crate::PipelineErrorKind::TimedOut, "{e}");
    assert!(
        t0.elapsed() < std::time::Duration::from_secs(3),
        "{:?}",
        t0.elapsed()
    );
}

#[test]
fn instanced_draws_touch_each_vertex_a_fixed_number_of_times() {
    // Work after the vertex program counted, not timed: with and without a geometry
    // program, 50, 200 and 800 instances of a strip (colours clamped) touch
    // proportionally many vertex rows. It used to grow with the square of the
    // instances: every instance re-walked every instance's vertices.
    let gp = "!!NVgp4.0\nPRIMITIVE_IN TRIANGLES;\nPRIMITIVE_OUT TRIANGLE_STRIP;\nVERTICES_OUT 3;\n\
        MOV result.color, {0, 2, 0, 1};\n\
        MOV result.position, vertex[0].position; EMIT;\n\
        MOV result.position, vertex[1].position; EMIT;\n\
        MOV result.position, vertex[2].position; EMIT;\nEND\n";
    for geometry in [false, true] {
        let touched = |instances: u32| {
            let mut st = base_state(PrimitiveMode::TriangleStrip, 4, quad_attribs());
            st.call.instances = instances;
            if geometry {
                st.programs.geometry = Some(stage(gp, Stage::Geometry, vec![]));
            }
            let mut f = fb();
            let s = run(&st, &mut f, None);
            assert_eq!(s.primitives_generated[0], 2 * u64::from(instances));
            assert_eq!(px(&f, 3, 12)[3], 1.0);
            s.vertex_rows_touched
        };
        let (a, b, c) = (touched(50), touched(200), touched(800));
        // Affine in the instance count: equal steps for equal increments.
        assert!(a > 0 && b > a);
        assert_eq!(c - b, 4 * (b - a), "geometry program: {geometry}");
    }
}

#[test]
fn lanes_independent_only_without_cross_lane_reads() {
    use crate::fragment::FragmentPlan;
    use crate::vertices::Vertices;
    let vs = stage(PASS_VP, Stage::Vertex, vec![]);
    let verts = Vertices::new(
        Vertices::layout_of(&vs.program)
            .iter()
            .map(|(_, s)| *s)
            .collect(),
    );
    let independent = |body: &str| {
        let text = format!("!!NVfp5.0\n{body}\nEND\n");
        let fp = stage(&text, Stage::Fragment, vec![]);
        let plan = FragmentPlan::new(&fp, &verts, false, false, FogParams::default())
            .unwrap_or_else(|e| panic!("{e}"));
        plan.info.lanes_independent
    };
    assert!(independent("MOV result.color, fragment.color;"));
    assert!(independent(
        "TEMP t;\nMUL t, fragment.color, fragment.position;\nKIL t.x;\nMOV result.color, t;"
    ));
    // Derivatives, implicit-LOD lookups, IPA, stores and helper/thread inputs read
    // other lanes or must see every fragment: whole quads.
    for dependent in [
        "TEMP t;\nDDX t, fragment.color;\nMOV result.color, t;",
        "TEMP t;\nTEX t, fragment.color, texture[0], 2D;\nMOV result.color, t;",
        "TEMP t;\nIPAC t, fragment.color;\nMOV result.color, t;",
        "OPTION NV_shader_thread_group;\nMOV.S result.color.x, fragment.helperthread;",
        "OPTION NV_shader_thread_group;\nINT TEMP t;\nTGBALLOT t.x, {1}.x;\nI2F result.color, t;",
    ] {
        assert!(!independent(dependent), "{dependent}");
    }
}

/// A fully covered block's strips fill a program's inputs through `fill_simple` when
/// each is a constant or a whole perspective varying at the centre: the same bytes as
/// the per-quad path (`fill_inputs`, block path off), and the strips went that way.
#[test]
fn simple_strip_inputs_equal_the_per_quad_fill() {
    const N: u32 = 64;
    // Perspective (w from 1 to 3), then w = 1 at every corner: constant 1/w, whose
    // strips' planes are made from their position (`Strip::perspective_n`), not read
    // from lane arrays. Colours vary over the quad.
    let bent = floats(&[
        -1.0, -1.0, 0.0, 1.0, 2.0, -2.0, 0.0, 2.0, -1.5, 1.5, 0.0, 1.5, 3.0, 3.0, 0.0, 3.0,
    ]);
    let flat = floats(&[
        -1.0, -1.0, 0.0, 1.0, 1.0, -1.0, 0.0, 1.0, -1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0,
    ]);
    let col = floats(&[
        0.1, 0.9, 0.3, 1.0, 0.8, 0.2, 0.6, 0.5, 0.4, 0.4, 0.95, 0.0, 0.7, 0.05, 0.2, 0.75,
    ]);
    let vp = "!!ARBvp1.0\nMOV result.position, vertex.position;\nMOV result.color, vertex.color;\n\
        MOV result.texcoord[0], vertex.color.wzyx;\nEND\n";
    // texcoord[3] is not written by the vertex program: a constant input.
    let fp = "!!ARBfp1.0\nTEMP t;\nMUL t, fragment.color, fragment.texcoord[0];\n\
        ADD result.color, t, fragment.texcoord[3];\nEND\n";
    for pos in [bent, flat] {
        let mut st = base_state(
            PrimitiveMode::TriangleStrip,
            4,
            vec![
                attrib(
                    AttribSlot::Position,
                    Some(array(&pos, 4, 0, 0)),
                    [0.0, 0.0, 0.0, 1.0],
                ),
                attrib(AttribSlot::Color, Some(array(&col, 4, 0, 0)), [0.0; 4]),
            ],
        );
        st.vertex = VertexProcessing::new(N, N);
        st.programs.vertex = Some(stage(vp, Stage::Vertex, vec![]));
        st.programs.fragment = Some(stage(fp, Stage::Fragment, vec![]));
        let render = |blocks: bool| {
            let mut r = Rasterizer::new(1).unwrap();
            r.set_block_path(blocks);
            let mut f =
                Framebuffer::new(N, N, 1, &[ColorFormat::Rgba8Unorm], DepthFormat::D24S8).unwrap();
            let before = crate::fragment::simple_strips();
            crate::draw(&st, &r, &mut f, None).unwrap_or_else(|e| panic!("{e}"));
            let strips = crate::fragment::simple_strips() - before;
            let px: Vec<[u32; 4]> = (0..N * N)
                .map(|i| px(&f, i % N, i / N).map(f32::to_bits))
                .collect();
            (px, strips)
        };
        let (per_quad, _) = render(false);
        let (blocks, strips) = render(true);
        assert!(per_quad.iter().any(|p| p != &per_quad[0]), "a flat image");
        assert_eq!(blocks, per_quad);
        // Most of the 64x64 quad is fully covered 8x8 blocks of one triangle or the other
        // (other tests may add to the process-wide count, never take from it).
        assert!(strips >= 100, "{strips} strips filled simply");
    }
}

/// The fused block store (`FragmentShader::shade_block`: a compiled fragment program
/// that packs and stores its colour rows itself) runs in real draws, not only in the
/// programs crate's direct `run_block` tests: a fully covered RGBA8 target replaced whole
/// counts the strips the fused kernels stored, on the rasterizer's one worker thread, and
/// the image is the interpreter's (whose draw takes the reference store).
#[test]
fn fused_block_store_runs_in_draws() {
    use glemu_programs::exec::{Backend, Executor};
    let draw = |backend: Backend| {
        let mut st = base_state(PrimitiveMode::TriangleStrip, 4, quad_attribs());
        let fp = stage(KEEP_COLOR_FP, Stage::Fragment, vec![]);
        let ex = Executor::new(fp.program.clone()).with_backend(backend);
        st.programs.fragment = Some(StageProgram::with_executor(Arc::new(ex), fp.params));
        let mut f =
            Framebuffer::new(W, W, 1, &[ColorFormat::Rgba8Unorm], DepthFormat::D24S8).unwrap();
        let r = Rasterizer::new(1).unwrap();
        let before = r.install(glemu_programs::compile::native_whole_strips);
        crate::draw(&st, &r, &mut f, None).unwrap_or_else(|e| panic!("{e}"));
        let stored = r.install(glemu_programs::compile::native_whole_strips) - before;
        let pixels: Vec<[f32; 4]> = (0..W * W).map(|i| px(&f, i % W, i / W)).collect();
        (stored, pixels)
    };
    let (fused, native) = draw(Backend::Native);
    let (none, interpreted) = draw(Backend::Interpreter);
    // 16×16 pixels: four 8×8 blocks of four two-row strips each; the two blocks the
    // quad's diagonal crosses are shaded per quad.
    assert_eq!((fused, none), (8, 0));
    assert_eq!(native, interpreted);
    assert!(native.iter().all(|p| *p == native[0]));
}

/// The fused multisampled store (`FragmentShader::shade_block_samples`: the compiled
/// program packs its colour once and stores it into every covered sample) in real draws:
/// at 2, 4 and 8 samples, a quad covering every sample (strips stored whole, counted)
/// and then one through a sample mask (only some samples of each pixel: the per-sample
/// select), with alpha-to-one on and off; every sample equals the interpreter's draw,
/// which takes the reference store.
#[test]
fn fused_sample_store_runs_in_draws() {
    use glemu_programs::exec::{Backend, Executor};
    let col = floats(&[
        0.1, 0.9, 0.3, 0.2, 0.8, 0.2, 0.6, 0.5, 0.4, 0.4, 0.95, 0.0, 0.7, 0.05, 0.2, 0.75,
    ]);
    // The KIL (which kills nothing: the colours are not negative) keeps the program from
    // the whole-block runs (`whole_block_programs_run_in_draws`).
    let fp = "!!ARBfp1.0\nTEMP t;\nKIL fragment.color;\nMUL t, fragment.color, 1.5;\nMOV result.color, t;\nEND\n";
    for ns in [2u32, 4, 8] {
        let draw = |backend: Backend| {
            let mut attribs = quad_attribs();
            attribs[1] = attrib(AttribSlot::Color, Some(array(&col, 4, 0, 0)), [0.0; 4]);
            let mut st = base_state(PrimitiveMode::TriangleStrip, 4, attribs);
            let fp = stage(fp, Stage::Fragment, vec![]);
            let ex = Executor::new(fp.program.clone()).with_backend(backend);
            st.programs.fragment = Some(StageProgram::with_executor(Arc::new(ex), fp.params));
            let mut f =
                Framebuffer::new(W, W, ns, &[ColorFormat::Rgba8Unorm], DepthFormat::D24S8).unwrap();
            let r = Rasterizer::new(1).unwrap();
            use glemu_programs::compile::{native_selected_strips, native_whole_strips};
            let counts = || r.install(|| [native_whole_strips(), native_selected_strips()]);
            let mut stored = [[0; 2]; 2];
            for (k, (mask, one)) in [(!0u32, false), (0b0101, true)].into_iter().enumerate() {
                st.raster.multisample.sample_mask = mask;
                st.raster.multisample.alpha_to_one = one;
                let before = counts();
                crate::draw(&st, &r, &mut f, None).unwrap_or_else(|e| panic!("{e}"));
                let after = counts();
                stored[k] = [after[0] - before[0], after[1] - before[1]];
            }
            let samples: Vec<[u32; 4]> = (0..W * W * ns)
                .map(|i| {
                    f.read_sample_raw(0, i / ns % W, i / ns / W, i % ns)
                        .unwrap()
                })
                .collect();
            (stored, samples)
        };
        let (fused, native) = draw(Backend::Native);
        let (none, interpreted) = draw(Backend::Interpreter);
        // As `fused_block_store_runs_in_draws`: eight strips of two fully covered blocks,
        // [whole, selected]; through the sample mask none is whole.
        assert_eq!(
            (fused, none),
            ([[8, 0], [0, 8]], [[0; 2]; 2]),
            "{ns} samples"
        );
        assert_eq!(native, interpreted, "{ns} samples");
        assert!(native.iter().any(|p| p != &native[0]));
    }
}

/// Straight-line programs run over a fully covered block's strips at once
/// (`ProgramShader::run_whole`, `exec::BlockProgram`) in real draws of one sample a pixel
/// (multisampled ones: `whole_sample_blocks_equal_strip_kernels_and_quads`): the blocks
/// went that way, and every pixel is the interpreter's draw's.
#[test]
fn whole_block_programs_run_in_draws() {
    use glemu_programs::exec::{Backend, Executor};
    let col = floats(&[
        0.1, 0.9, 0.3, 0.2, 0.8, 0.2, 0.6, 0.5, 0.4, 0.4, 0.95, 0.0, 0.7, 0.05, 0.2, 0.75,
    ]);
    let fp = "!!ARBfp1.0\nOPTION NV_fragment_program2;\nTEMP t, u;\n\
        MUL t, fragment.color, {0.5, 1.5, 2.0, 1.0};\nMAD u, t.wzyx, fragment.color, -t;\n\
        MAD t, fragment.texcoord[3].wzyx, 0.25, t;\n\
        DP3 u.w, |u|, t;\nLRP_SAT t, fragment.color.x, u, t;\nMIN result.color, t, 0.75;\nEND\n";
    for ns in [1u32, 4] {
        let draw = |backend: Backend| {
            let mut attribs = quad_attribs();
            attribs[1] = attrib(AttribSlot::Color, Some(array(&col, 4, 0, 0)), [0.0; 4]);
            let mut st = base_state(PrimitiveMode::TriangleStrip, 4, attribs);
            let fp = stage(fp, Stage::Fragment, vec![]);
            let ex = Executor::new(fp.program.clone()).with_backend(backend);
            st.programs.fragment = Some(StageProgram::with_executor(Arc::new(ex), fp.params));
            let mut f =
                Framebuffer::new(W, W, ns, &[ColorFormat::Rgba8Unorm], DepthFormat::D24S8).unwrap();
            let r = Rasterizer::new(1).unwrap();
            let mut runs = 0;
            for mask in [!0u32, 0b0101] {
                st.raster.multisample.sample_mask = mask;
                let before = crate::fragment::whole_blocks();
                crate::draw(&st, &r, &mut f, None).unwrap_or_else(|e| panic!("{e}"));
                runs += crate::fragment::whole_blocks() - before;
            }
            let samples: Vec<[u32; 4]> = (0..W * W * ns)
                .map(|i| {
                    f.read_sample_raw(0, i / ns % W, i / ns / W, i % ns)
                        .unwrap()
                })
                .collect();
            (runs, samples)
        };
        let (runs, native) = draw(Backend::Native);
        let (_, interpreted) = draw(Backend::Interpreter);
        // Two fully covered blocks a draw, two draws (other tests may add to the
        // process-wide count, never take from it); none multisampled (a test running
        // meanwhile could add some, so only the one-sample count is checked).
        if ns == 1 {
            assert!(runs >= 4, "{runs} blocks run whole");
        }
        assert_eq!(native, interpreted, "{ns} samples");
        assert!(native.iter().any(|p| p != &native[0]));
    }
}

/// Inputs whose planes are flat over a primitive (`raster::flat_strips`) in whole-block
/// runs: written once while they stay the same and again when they change, and a colour
/// that is such an input as it stands stored from one packed word
/// (`raster::store_block_flat`). Two triangles over a sloped depth (so some blocks shade
/// only some strips), drawn three times nearer each time: flat colours that differ
/// between the triangles, then one flat and one interpolated (whose planes overwrite the
/// registers between the other's blocks), then flat colours with infinite, -0 and NaN
/// components. After each draw the pixels equal the per-quad path's (GLEMU_NO_BLOCKS)
/// and the interpreter's, for a program that moves the colour and one that adds an
/// interpolated texture coordinate to it; the flat inputs and the flat store ran. A band
/// of nearer depth along the bottom rows makes the first blocks of the bottom tiles
/// shade three strips.
#[test]
fn flat_inputs_equal_planes_and_quads() {
    use glemu_programs::exec::{Backend, Executor};
    const N: u32 = 128;
    let vp = "!!ARBvp1.0\nMOV result.position, vertex.position;\nMOV result.color, vertex.color;\n\
        MOV result.texcoord[0], vertex.texcoord[0];\nEND\n";
    let fps = [
        COLOR_FP,
        "!!ARBfp1.0\nMAD result.color, fragment.texcoord[0], 0.5, fragment.color;\nEND\n",
    ];
    // Window depth 0.8 .. 0.2 over the quad (as in the multisampled test).
    let sloped = floats(&[
        -1.0, -1.0, 0.6, 1.0, 1.0, -1.0, -0.2, 1.0, -1.0, 1.0, 0.1, 1.0, 1.0, 1.0, -0.6, 1.0,
    ]);
    let tris = |z: f32| {
        floats(&[
            -1.0, -1.0, z, 1.0, 1.0, -1.0, z, 1.0, 1.0, 1.0, z, 1.0, //
            -1.0, -1.0, z, 1.0, 1.0, 1.0, z, 1.0, -1.0, 1.0, z, 1.0,
        ])
    };
    let flat = |a: [f32; 4], b: [f32; 4]| [a, a, a, b, b, b].concat();
    let draws: [(f32, Vec<f32>); 3] = [
        (0.0, flat([0.2, 0.4, 0.6, 0.8], [0.9, 0.1, 0.3, 0.7])),
        (
            -0.1,
            [
                [0.2, 0.4, 0.6, 0.8].repeat(3),
                vec![0.1, 0.9, 0.5, 0.3, 0.6, 0.2, 0.8, 1.0, 0.95, 0.05, 0.4, 0.6],
            ]
            .concat(),
        ),
        (
            -0.2,
            flat([f32::INFINITY, -0.0, f32::NAN, 0.5], [-1.0, 2.0, 0.0, 0.25]),
        ),
    ];
    let tex = floats(&[
        0.1, 0.2, 0.0, 1.0, 0.9, 0.3, 0.0, 1.0, 0.5, 0.8, 0.0, 1.0, //
        0.1, 0.2, 0.0, 1.0, 0.5, 0.8, 0.0, 1.0, 0.3, 0.6, 0.0, 1.0,
    ]);
    #[derive(Clone, Copy, PartialEq)]
    enum Path {
        Blocks,
        Quads,
        Interpreter,
    }
    for (i, fp, ns) in [
        (0, fps[0], 1),
        (1, fps[1], 1),
        (0, fps[0], 4),
        (1, fps[1], 4),
    ] {
        let draw = |path: Path| {
            let col = floats(&draws[0].1);
            let (mut f, r, mut st) = over_sloped_depth(N, ns, path != Path::Quads, &sloped, &col);
            let backend = match path {
                Path::Interpreter => Backend::Interpreter,
                _ => Backend::Native,
            };
            // Nearest depth over pixel rows 0 and 1: the blocks of the bottom block row
            // shade strips 1-3 only, as the first three of the call, before the first
            // block whose fourth strip is shaded.
            let band = -1.0 + 4.0 / N as f32;
            let band = floats(&[
                -1.0, -1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0, -1.0, band, -1.0, 1.0, 1.0, band,
                -1.0, 1.0,
            ]);
            st.attribs[0] = attrib(AttribSlot::Position, Some(array(&band, 4, 0, 0)), [0.0; 4]);
            crate::draw(&st, &r, &mut f, None).unwrap_or_else(|e| panic!("{e}"));
            st.programs.vertex = Some(stage(vp, Stage::Vertex, vec![]));
            let fp = stage(fp, Stage::Fragment, vec![]);
            let ex = Executor::new(fp.program.clone()).with_backend(backend);
            st.programs.fragment = Some(StageProgram::with_executor(Arc::new(ex), fp.params));
            st.call = DrawCall::arrays(PrimitiveMode::Triangles, 0, 6);
            let mut counts = [0; 2];
            let mut images = Vec::new();
            for (z, colours) in &draws {
                st.attribs = vec![
                    attrib(
                        AttribSlot::Position,
                        Some(array(&tris(*z), 4, 0, 0)),
                        [0.0; 4],
                    ),
                    attrib(
                        AttribSlot::Color,
                        Some(array(&floats(colours), 4, 0, 0)),
                        [0.0; 4],
                    ),
                    attrib(
                        AttribSlot::TexCoord(0),
                        Some(array(&tex, 4, 0, 0)),
                        [0.0; 4],
                    ),
                ];
                let before = crate::fragment::flat_counts();
                crate::draw(&st, &r, &mut f, None).unwrap_or_else(|e| panic!("{e}"));
                let after = crate::fragment::flat_counts();
                counts = std::array::from_fn(|k| counts[k] + after[k] - before[k]);
                images.push(
                    (0..N * N * ns)
                        .map(|i| {
                            f.read_sample_raw(0, i / ns % N, i / ns / N, i % ns)
                                .unwrap()
                        })
                        .collect::<Vec<[u32; 4]>>(),
                );
            }
            (counts, images)
        };
        let ([inputs, stores], blocks) = draw(Path::Blocks);
        let (_, quads) = draw(Path::Quads);
        let (_, interpreted) = draw(Path::Interpreter);
        for (d, ((b, q), t)) in blocks.iter().zip(&quads).zip(&interpreted).enumerate() {
            let at = format!("program {i}, {ns} samples, draw {d}");
            assert!(b == q, "{at}: blocks and quads differ");
            assert!(b == t, "{at}: blocks and interpreter differ");
            assert!(b.iter().any(|p| p != &b[0]), "{at}: one colour");
        }
        // Of 256 blocks a draw, those wholly inside a triangle and not behind the slope or
        // the band: 362 in the three draws (the second draw's second triangle is not
        // flat). Other tests may add to the process-wide counts, never take from them.
        // Multisampled blocks run whole only with AVX-512 (`fragment::whole_samples`),
        // and are not stored flat.
        if ns == 1 || glemu_raster::simd::isa() == glemu_raster::simd::Isa::Avx512 {
            assert!(
                inputs >= 300,
                "program {i}, {ns} samples: {inputs} flat inputs"
            );
        }
        if i == 0 && ns == 1 {
            assert!(stores >= 300, "{stores} blocks stored flat");
        }
    }
}

/// Multisampled blocks of a straight-line program run whole too (`run_whole`, stored by
/// `raster::store_block_samples`): at 2 and 4 samples, over a sloped depth that rejects
/// part of each pixel's samples along a line, through every sample and then through a
/// sample mask with alpha-to-one, a 256x256 quad (regions walked whole off the diagonal,
/// blocks one at a time on it) leaves the same samples as the fused kernels' strips (the
/// path before), the per-quad path (GLEMU_NO_BLOCKS) and the interpreter; with AVX-512
/// the blocks ran whole and no strip reached a fused kernel, which the strips' run did.
#[test]
fn whole_sample_blocks_equal_strip_kernels_and_quads() {
    use glemu_programs::compile::{native_selected_strips, native_whole_strips};
    use glemu_programs::exec::{Backend, Executor};
    const N: u32 = 256;
    let col = floats(&[
        0.1, 0.9, 0.3, 0.2, 0.8, 0.2, 0.6, 0.5, 0.4, 0.4, 0.95, 0.0, 0.7, 0.05, 0.2, 0.75,
    ]);
    // Window depth 0.8 .. 0.2 over the quad: the test draw (depth 0.5) fails LESS where
    // this one is nearer, a line across the diagonal.
    let sloped = floats(&[
        -1.0, -1.0, 0.6, 1.0, 1.0, -1.0, -0.2, 1.0, -1.0, 1.0, 0.1, 1.0, 1.0, 1.0, -0.6, 1.0,
    ]);
    let fp = "!!ARBfp1.0\nOPTION NV_fragment_program2;\nTEMP t, u;\n\
        MUL t, fragment.color, {0.5, 1.5, 2.0, 1.0};\nMAD u, t.wzyx, fragment.color, -t;\n\
        MAD t, fragment.texcoord[3].wzyx, 0.25, t;\n\
        DP3 u.w, |u|, t;\nLRP_SAT t, fragment.color.x, u, t;\nMIN result.color, t, 0.75;\nEND\n";
    #[derive(Clone, Copy, PartialEq)]
    enum Path {
        Whole,
        Strips,
        Quads,
        Interpreter,
    }
    for ns in [2u32, 4] {
        let draw = |path: Path| {
            let (mut f, r, mut st) = over_sloped_depth(N, ns, path != Path::Quads, &sloped, &col);
            let backend = match path {
                Path::Interpreter => Backend::Interpreter,
                _ => Backend::Native,
            };
            let fp = stage(fp, Stage::Fragment, vec![]);
            let ex = Executor::new(fp.program.clone()).with_backend(backend);
            st.programs.fragment = Some(StageProgram::with_executor(Arc::new(ex), fp.params));
            let strips = || r.install(|| native_whole_strips() + native_selected_strips());
            let (mut blocks, mut kernel) = (0, 0);
            crate::fragment::set_whole_samples(path != Path::Strips);
            for (mask, one) in [(!0u32, false), (0b0101, true)] {
                st.raster.multisample.sample_mask = mask;
                st.raster.multisample.alpha_to_one = one;
                let (b, k) = (crate::fragment::whole_blocks(), strips());
                crate::draw(&st, &r, &mut f, None).unwrap_or_else(|e| panic!("{e}"));
                blocks += crate::fragment::whole_blocks() - b;
                kernel += strips() - k;
            }
            crate::fragment::set_whole_samples(true);
            let samples: Vec<[u32; 4]> = (0..N * N * ns)
                .map(|i| {
                    f.read_sample_raw(0, i / ns % N, i / ns / N, i % ns)
                        .unwrap()
                })
                .collect();
            (blocks, kernel, samples)
        };
        let (blocks, kernel, whole) = draw(Path::Whole);
        let (_, strip_kernel, strips) = draw(Path::Strips);
        let (.., quads) = draw(Path::Quads);
        let (.., interpreted) = draw(Path::Interpreter);
        // Of 1,024 blocks a draw, those not wholly behind the slope and not crossed by
        // the diagonal (462 at 2 samples; other tests may add to the process-wide count,
        // never take from it).
        // Only with AVX-512 (`fragment::whole_samples`); without, both draws are the
        // fused kernels'.
        if glemu_raster::simd::isa() == glemu_raster::simd::Isa::Avx512 {
            assert!(blocks >= 400, "{blocks} blocks run whole, {ns} samples");
            assert_eq!(kernel, 0, "{ns} samples");
        }
        assert!(strip_kernel >= 1200, "{strip_kernel} strips, {ns} samples");
        assert!(
            whole == strips,
            "{ns} samples: whole blocks and fused strips differ"
        );
        assert!(
            whole == quads,
            "{ns} samples: whole blocks and quads differ"
        );
        assert!(
            whole == interpreted,
            "{ns} samples: whole blocks and interpreter differ"
        );
        // Some pixels with samples of both draws, different colours over the quad.
        let partial = (0..(N * N) as usize)
            .filter(|&p| {
                let px = &whole[p * ns as usize..(p + 1) * ns as usize];
                px.iter().any(|s| s != &px[0])
            })
            .count();
        assert!(
            partial > 100,
            "{partial} pixels partly covered, {ns} samples"
        );
    }
}

/// A fully covered block's passed samples are counted from its strips' live lanes less
/// the program's kills, four strips' masks in one count (`tile::passed_lanes`), and its
/// invocations from the live lanes (`fill_strip`, every lane live the common case): a
/// program that kills part of a 64x64 quad drawn over a sloped depth that rejects part of
/// it (strips whole, partly killed, partly rejected) passes as many samples, runs as many
/// invocations and leaves the same pixels with the block path on (fused kernel, counted)
/// as per quad, and as the interpreter.
#[test]
fn killed_block_lanes_count_as_per_quad() {
    use glemu_programs::compile::{native_selected_strips, native_whole_strips};
    use glemu_programs::exec::{Backend, Executor};
    const N: u32 = 64;
    let col = floats(&[
        -0.4, 0.9, 0.3, 1.0, 0.8, 0.2, 0.6, 0.5, 0.1, 0.4, 0.95, 0.0, 1.3, 0.05, 0.2, 0.75,
    ]);
    // Window depth 0.8 .. 0.2 over the first quad: the second (depth 0.5) fails LESS
    // where the first is nearer, a line across the diagonal through the killed side.
    let sloped = floats(&[
        -1.0, -1.0, 0.6, 1.0, 1.0, -1.0, -0.2, 1.0, -1.0, 1.0, 0.1, 1.0, 1.0, 1.0, -0.6, 1.0,
    ]);
    let fp = "!!ARBfp1.0\nTEMP t;\nSUB t, fragment.color.x, 0.3;\nKIL t;\n\
        MOV result.color, fragment.color;\nEND\n";
    let draw = |backend: Backend, blocks: bool| {
        let (mut f, r, mut st) = over_sloped_depth(N, 1, blocks, &sloped, &col);
        // Tests before the program (a killing program's blocks take the block path only
        // then: `strips_allowed`).
        st.raster.depth_stencil.force_early_tests = true;
        let fp = stage(fp, Stage::Fragment, vec![]);
        let ex = Executor::new(fp.program.clone()).with_backend(backend);
        st.programs.fragment = Some(StageProgram::with_executor(Arc::new(ex), fp.params));
        let counts = || r.install(|| [native_whole_strips(), native_selected_strips()]);
        let before = counts();
        let stats = crate::draw(&st, &r, &mut f, None).unwrap_or_else(|e| panic!("{e}"));
        let after = counts();
        let pixels: Vec<[u32; 4]> = (0..N * N)
            .map(|i| px(&f, i % N, i / N).map(f32::to_bits))
            .collect();
        let stored = [after[0] - before[0], after[1] - before[1]];
        let counted = [stats.samples_passed, stats.fragment_invocations];
        (counted, pixels, stored)
    };
    let (counted, pixels, [whole, selected]) = draw(Backend::Native, true);
    let (per_quad, quad_pixels, _) = draw(Backend::Native, false);
    let (interpreted, ref_pixels, _) = draw(Backend::Interpreter, true);
    // Some strips stored whole, some through the kill mask.
    assert!(
        whole > 0 && selected > 0,
        "{whole} whole, {selected} selected"
    );
    let [passed, ran] = counted;
    let all = u64::from(N * N);
    assert!(0 < passed && passed < ran && ran < all, "{counted:?}");
    assert_eq!((counted, interpreted), (per_quad, per_quad));
    assert_eq!(pixels, quad_pixels);
    assert_eq!(pixels, ref_pixels);
}
