//! GL state as the API sets it (enum parameters as the typed values their setters parsed,
//! see `gl_enum`). Converted into the pipeline's per-draw
//! snapshot by `snapshot.rs`, and read by ARB `state.*` bindings through `params.rs`.

use super::gl_enum::{
    ColorMaterialMode, Face, FogCoordSrc, FogMode, MatrixMode, ProvokingVertex, ShadeModel,
};
use super::stage_map::StageMap;
use crate::caps::{LIMITS, MAX_PROGRAM_MATRICES};
use glam::DMat4;
use glemu_raster::{
    BlendEquation, BlendFactor, CompareFunc, FrontFace, LogicOp, PolygonMode, StencilOp,
};
use std::collections::HashMap;

/// Texture image units (each with its own fixed-function enables and env colour).
pub const MAX_TEXTURE_UNITS: usize = LIMITS.max_texture_image_units as usize;
/// Texture coordinate sets / texture matrices.
pub const MAX_TEXTURE_COORDS: usize = LIMITS.max_texture_coords as usize;
/// Fixed-function lights.
pub const MAX_LIGHTS: usize = LIMITS.max_lights as usize;
/// User clip planes / clip distances.
pub const MAX_CLIP_PLANES: usize = LIMITS.max_clip_planes as usize;
/// Generic vertex attributes.
pub const MAX_VERTEX_ATTRIBS: usize = LIMITS.max_vertex_attribs as usize;
/// Viewports, scissor boxes and depth ranges (ARB_viewport_array's `MAX_VIEWPORTS`).
pub const MAX_VIEWPORTS: usize = glemu_raster::MAX_VIEWPORTS;

/// One light's state (GL 1.x defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct Light {
    pub ambient: [f32; 4],
    pub diffuse: [f32; 4],
    pub specular: [f32; 4],
    /// Eye-space position (transformed by the modelview when set, as GL does).
    pub position: [f32; 4],
    /// Eye-space spot direction.
    pub spot_direction: [f32; 3],
    pub spot_exponent: f32,
    pub spot_cutoff: f32,
    /// Constant, linear, quadratic.
    pub attenuation: [f32; 3],
}

impl Light {
    fn new(index: usize) -> Light {
        let on = if index == 0 { 1.0 } else { 0.0 };
        Light {
            ambient: [0.0, 0.0, 0.0, 1.0],
            diffuse: [on, on, on, 1.0],
            specular: [on, on, on, 1.0],
            position: [0.0, 0.0, 1.0, 0.0],
            spot_direction: [0.0, 0.0, -1.0],
            spot_exponent: 0.0,
            spot_cutoff: 180.0,
            attenuation: [1.0, 0.0, 0.0],
        }
    }
}

/// Material of one face.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    pub ambient: [f32; 4],
    pub diffuse: [f32; 4],
    pub specular: [f32; 4],
    pub emission: [f32; 4],
    pub shininess: f32,
}

impl Default for Material {
    fn default() -> Material {
        Material {
            ambient: [0.2, 0.2, 0.2, 1.0],
            diffuse: [0.8, 0.8, 0.8, 1.0],
            specular: [0.0, 0.0, 0.0, 1.0],
            emission: [0.0, 0.0, 0.0, 1.0],
            shininess: 0.0,
        }
    }
}

/// Fog state.
#[derive(Clone, Debug, PartialEq)]
pub struct Fog {
    pub mode: FogMode,
    pub density: f32,
    pub start: f32,
    pub end: f32,
    pub color: [f32; 4],
}

/// Texture-coordinate generation planes of one unit (`state.texgen`).
#[derive(Clone, Debug, PartialEq)]
pub struct TexGen {
    /// Eye planes s, t, r, q.
    pub eye: [[f32; 4]; 4],
    /// Object planes s, t, r, q.
    pub object: [[f32; 4]; 4],
}

impl Default for TexGen {
    fn default() -> TexGen {
        let p = [
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0; 4],
            [0.0; 4],
        ];
        TexGen { eye: p, object: p }
    }
}

/// Everything settable with enable/disable and the small state calls.
#[derive(Clone, Debug)]
pub struct GlState {
    /// The viewport array (ARB_viewport_array): x, y, width, height per index.
    pub viewports: [[f32; 4]; MAX_VIEWPORTS],
    /// Scissor boxes per viewport index.
    pub scissors: [[i32; 4]; MAX_VIEWPORTS],
    /// Bit i set: the scissor test of viewport i is on.
    pub scissor_test: u16,
    /// Depth ranges (near, far) per viewport index.
    pub depth_ranges: [[f64; 2]; MAX_VIEWPORTS],
    pub depth_test: bool,
    pub depth_func: CompareFunc,
    pub depth_mask: bool,
    pub depth_clamp: bool,
    pub stencil_test: bool,
    /// (func, ref, value mask, write mask, sfail, dpfail, dppass) for front and back.
    pub stencil: [StencilState; 2],
    /// Blending and colour masks per draw buffer (glBlendFunci & co. set one, the
    /// unindexed calls all).
    pub draw_blend: [DrawBufferBlend; MAX_DRAW_BUFFERS],
    pub blend_color: [f32; 4],
    pub cull_face: bool,
    /// glCullFace: the faces culled while GL_CULL_FACE is on.
    pub cull_mode: Face,
    pub front_face: FrontFace,
    /// Front, back.
    pub polygon_mode: [PolygonMode; 2],
    pub polygon_offset_fill: bool,
    pub polygon_offset_line: bool,
    pub polygon_offset_point: bool,
    pub polygon_offset: [f32; 2],
    pub shade_model: ShadeModel,
    pub provoking_vertex: ProvokingVertex,
    pub point_size: f32,
    pub line_width: f32,
    pub program_point_size: bool,
    pub point_sprite: bool,
    pub multisample: bool,
    pub sample_shading: bool,
    pub min_sample_shading: f32,
    pub alpha_to_coverage: bool,
    pub alpha_to_one: bool,
    pub sample_mask_enabled: bool,
    pub sample_mask: u32,
    pub primitive_restart: bool,
    pub primitive_restart_index: u32,
    /// Index of the draw a glMultiDraw* command is issuing (`vertex.draw.id`); 0 outside them.
    pub draw_id: u32,
    pub rasterizer_discard: bool,
    /// Bit n = CLIP_PLANEn / CLIP_DISTANCEn enabled.
    pub clip_enabled: u32,
    /// Eye-space planes.
    pub clip_planes: [[f64; 4]; MAX_CLIP_PLANES],
    pub two_side: bool,
    pub framebuffer_srgb: bool,
    pub logic_op: bool,
    /// glLogicOp.
    pub logic_op_mode: LogicOp,
    /// Fixed-function texture enables per unit: bit per target (1D, 2D, 3D, cube, rect).
    pub texture_enables: [u8; MAX_TEXTURE_UNITS],
    pub fog_enabled: bool,
    pub fog: Fog,
    pub lighting: bool,
    /// Fixed-function lighting: LIGHT_MODEL_LOCAL_VIEWER, LIGHT_MODEL_TWO_SIDE,
    /// LIGHT_MODEL_COLOR_CONTROL = SEPARATE_SPECULAR_COLOR, NORMALIZE, COLOR_MATERIAL.
    pub local_viewer: bool,
    pub light_two_side: bool,
    pub separate_specular: bool,
    pub normalize: bool,
    pub color_material: bool,
    /// glColorMaterial face and mode.
    pub color_material_face: Face,
    pub color_material_mode: ColorMaterialMode,
    /// COLOR_SUM: add the secondary colour in the fixed-function fragment stage.
    pub color_sum: bool,
    /// FOG_COORD_SRC: FRAGMENT_DEPTH or FOG_COORD.
    pub fog_coord_src: FogCoordSrc,
    pub light_enabled: [bool; MAX_LIGHTS],
    pub lights: Vec<Light>,
    pub light_model_ambient: [f32; 4],
    pub materials: [Material; 2],
    pub texgen: Vec<TexGen>,
    pub tex_env_color: [[f32; 4]; MAX_TEXTURE_UNITS],
    /// The fixed-function matrices, in f64 so that products and inverses round to f32
    /// the way a careful driver's do.
    pub modelview: DMat4,
    pub projection: DMat4,
    pub texture_matrix: [DMat4; MAX_TEXTURE_COORDS],
    pub program_matrix: [DMat4; MAX_PROGRAM_MATRICES],
    /// glPushMatrix stacks below the current matrices, by (matrix mode, texture unit
    /// for `TEXTURE`, else 0).
    pub matrix_stacks: HashMap<(MatrixMode, u32), Vec<DMat4>>,
    pub matrix_mode: MatrixMode,
    pub active_texture: u32,
    pub current_color: [f32; 4],
    pub current_secondary_color: [f32; 4],
    pub current_normal: [f32; 4],
    pub current_fog_coord: f32,
    pub current_texcoord: [[f32; 4]; MAX_TEXTURE_COORDS],
    pub current_attrib: [[u32; 4]; MAX_VERTEX_ATTRIBS],
    pub clear_color: [f32; 4],
    pub clear_depth: f64,
    pub clear_stencil: i32,
    pub patch_vertices: u32,
    pub patch_outer: [f32; 4],
    pub patch_inner: [f32; 2],
    /// VERTEX_PROGRAM_ARB, FRAGMENT_PROGRAM_ARB, ... enables.
    pub program_enabled: StageMap<bool>,
}

/// Draw buffers with their own blend state (`MAX_DRAW_BUFFERS`).
pub(crate) const MAX_DRAW_BUFFERS: usize = LIMITS.max_draw_buffers as usize;

/// The blend state of one draw buffer (GL 4.6 section 17.3.6) and its colour mask.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawBufferBlend {
    pub enabled: bool,
    /// src rgb, dst rgb, src alpha, dst alpha.
    pub func: [BlendFactor; 4],
    /// rgb, alpha.
    pub equation: [BlendEquation; 2],
    pub color_mask: [bool; 4],
}

impl Default for DrawBufferBlend {
    fn default() -> DrawBufferBlend {
        DrawBufferBlend {
            enabled: false,
            func: [
                BlendFactor::One,
                BlendFactor::Zero,
                BlendFactor::One,
                BlendFactor::Zero,
            ],
            equation: [BlendEquation::Add; 2],
            color_mask: [true; 4],
        }
    }
}

/// One face's stencil state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StencilState {
    pub func: CompareFunc,
    pub reference: i32,
    pub value_mask: u32,
    pub write_mask: u32,
    /// Stencil fail, depth fail, depth pass.
    pub ops: [StencilOp; 3],
}

impl GlState {
    /// GL's initial state for a `w`×`h` framebuffer.
    pub fn new(w: u32, h: u32) -> GlState {
        let st = StencilState {
            func: CompareFunc::Always,
            reference: 0,
            value_mask: !0,
            write_mask: !0,
            ops: [StencilOp::Keep; 3],
        };
        let (w, h) = (w as i32, h as i32);
        let mut materials = [Material::default(), Material::default()];
        materials[1] = Material::default();
        GlState {
            viewports: [[0.0, 0.0, w as f32, h as f32]; MAX_VIEWPORTS],
            scissors: [[0, 0, w, h]; MAX_VIEWPORTS],
            scissor_test: 0,
            depth_ranges: [[0.0, 1.0]; MAX_VIEWPORTS],
            depth_test: false,
            depth_func: CompareFunc::Less,
            depth_mask: true,
            depth_clamp: false,
            stencil_test: false,
            stencil: [st, st],
            draw_blend: [DrawBufferBlend::default(); MAX_DRAW_BUFFERS],
            blend_color: [0.0; 4],
            cull_face: false,
            cull_mode: Face::Back,
            front_face: FrontFace::Ccw,
            polygon_mode: [PolygonMode::Fill; 2],
            polygon_offset_fill: false,
            polygon_offset_line: false,
            polygon_offset_point: false,
            polygon_offset: [0.0, 0.0],
            shade_model: ShadeModel::Smooth,
            provoking_vertex: ProvokingVertex::Last,
            point_size: 1.0,
            line_width: 1.0,
            program_point_size: false,
            point_sprite: false,
            multisample: true,
            sample_shading: false,
            min_sample_shading: 0.0,
            alpha_to_coverage: false,
            alpha_to_one: false,
            sample_mask_enabled: false,
            sample_mask: !0,
            primitive_restart: false,
            primitive_restart_index: 0,
            draw_id: 0,
            rasterizer_discard: false,
            clip_enabled: 0,
            clip_planes: [[0.0; 4]; MAX_CLIP_PLANES],
            two_side: false,
            framebuffer_srgb: false,
            logic_op: false,
            logic_op_mode: LogicOp::Copy,
            texture_enables: [0; MAX_TEXTURE_UNITS],
            fog_enabled: false,
            fog: Fog {
                mode: FogMode::Exp,
                density: 1.0,
                start: 0.0,
                end: 1.0,
                color: [0.0; 4],
            },
            lighting: false,
            local_viewer: false,
            light_two_side: false,
            separate_specular: false,
            normalize: false,
            color_material: false,
            color_material_face: Face::FrontAndBack,
            color_material_mode: ColorMaterialMode::AmbientAndDiffuse,
            color_sum: false,
            fog_coord_src: FogCoordSrc::FragmentDepth,
            light_enabled: [false; MAX_LIGHTS],
            lights: (0..MAX_LIGHTS).map(Light::new).collect(),
            light_model_ambient: [0.2, 0.2, 0.2, 1.0],
            materials,
            texgen: vec![TexGen::default(); MAX_TEXTURE_COORDS],
            tex_env_color: [[0.0; 4]; MAX_TEXTURE_UNITS],
            modelview: DMat4::IDENTITY,
            projection: DMat4::IDENTITY,
            texture_matrix: [DMat4::IDENTITY; MAX_TEXTURE_COORDS],
            program_matrix: [DMat4::IDENTITY; MAX_PROGRAM_MATRICES],
            matrix_stacks: HashMap::new(),
            matrix_mode: MatrixMode::ModelView,
            active_texture: 0,
            current_color: [1.0; 4],
            current_secondary_color: [0.0, 0.0, 0.0, 1.0],
            current_normal: [0.0, 0.0, 1.0, 0.0],
            current_fog_coord: 0.0,
            current_texcoord: [[0.0, 0.0, 0.0, 1.0]; MAX_TEXTURE_COORDS],
            current_attrib: [[0, 0, 0, 1.0f32.to_bits()]; MAX_VERTEX_ATTRIBS],
            clear_color: [0.0; 4],
            clear_depth: 1.0,
            clear_stencil: 0,
            patch_vertices: 3,
            patch_outer: [1.0; 4],
            patch_inner: [1.0; 2],
            program_enabled: StageMap::default(),
        }
    }
}

/// Bits of `GlState::texture_enables`.
pub mod tex_enable {
    pub const T1D: u8 = 1;
    pub const T2D: u8 = 2;
    pub const T3D: u8 = 4;
    pub const CUBE: u8 = 8;
    pub const RECT: u8 = 16;
}

/// `m⁻¹`, or the zero matrix when `m` is singular (GL leaves the inverse of a singular
/// matrix undefined; zero keeps programs finite).
///
/// ```ignore
/// assert_eq!(inverse_or_zero(&DMat4::ZERO), DMat4::ZERO);
/// ```
pub(crate) fn inverse_or_zero(m: &DMat4) -> DMat4 {
    let det = m.determinant();
    if det == 0.0 || !det.is_finite() {
        return DMat4::ZERO;
    }
    m.inverse()
}
