//! What glemu claims to be, in one place: the [`LIMITS`] the assembler is given, the
//! [`LIMIT_TABLE`] that `glGetIntegerv`, `glGetProgramivARB`, `[require]` lines and
//! `glemu info` read, and the [`EXTENSIONS`] list that `glGetString(GL_EXTENSIONS)`,
//! `glGetStringi`, `[require]` and `glemu info` read. Every other module takes its numbers
//! from here, so what is reported is what is enforced (`tests/caps.rs` cross-checks them).

use crate::gl;
use glemu_programs::Limits;

/// The implementation limits: every program glemu loads is assembled against this value.
pub const LIMITS: Limits = Limits::NVIDIA;

/// The GL version glemu implements (4.6 compatibility), as `major * 10 + minor`.
pub const GL_VERSION: u32 = 46;

/// `MAX_SAMPLES`: the largest sample count the rasterizer supports.
pub const MAX_SAMPLES: u32 = 16;

/// `MAX_TEXTURE_SIZE`, `MAX_RENDERBUFFER_SIZE`: the rasterizer's largest framebuffer
/// side, so every texture level can be rendered to.
pub const MAX_TEXTURE_SIZE: u32 = glemu_raster::framebuffer::MAX_SIZE;

/// `MAX_CUBE_MAP_TEXTURE_SIZE` (GL 4.6's minimum): six faces of this side make one
/// level, which glemu-textures' per-level limit (`MAX_LEVEL_TEXELS`) is sized for.
pub const MAX_CUBE_MAP_TEXTURE_SIZE: u32 = MAX_TEXTURE_SIZE;
const _: () = {
    let face = MAX_CUBE_MAP_TEXTURE_SIZE as u64 * MAX_CUBE_MAP_TEXTURE_SIZE as u64;
    assert!(6 * face <= glemu_textures::texture::MAX_LEVEL_TEXELS);
};

/// The last mipmap level of a `MAX_TEXTURE_SIZE` texture (levels past it are
/// `INVALID_VALUE`).
pub const MAX_TEXTURE_LEVEL: u32 = MAX_TEXTURE_SIZE.ilog2();

/// Largest program text `program_string` accepts, in bytes (the assembled form takes
/// tens of times the text; real programs are a few kilobytes).
pub const MAX_PROGRAM_TEXT_BYTES: usize = 8 << 20;

/// Largest scene or program file the command line reads, in bytes (`glemu run /dev/zero`
/// stops here instead of reading until memory runs out).
pub const MAX_INPUT_FILE_BYTES: u64 = 64 << 20;

/// Reads a scene or program file of at most [`MAX_INPUT_FILE_BYTES`] as text.
///
/// ```
/// let e = glemu::caps::read_input_file(std::path::Path::new("/dev/zero")).unwrap_err();
/// assert!(e.contains("larger than"), "{e}");
/// assert!(glemu::caps::read_input_file(std::path::Path::new("/nonexistent")).is_err());
/// ```
pub fn read_input_file(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut bytes = Vec::new();
    f.take(MAX_INPUT_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT_FILE_BYTES {
        return Err(format!(
            "cannot read: the file is larger than {} MiB (glemu's limit for scenes and programs)",
            MAX_INPUT_FILE_BYTES >> 20
        ));
    }
    String::from_utf8(bytes).map_err(|e| format!("cannot read: not UTF-8 text ({e})"))
}

/// `MAX_ARRAY_TEXTURE_LAYERS` and `MAX_3D_TEXTURE_SIZE`'s depth.
pub const MAX_ARRAY_TEXTURE_LAYERS: u32 = 2048;

/// `MAX_VIEWPORT_DIMS` (each side): `viewport` clamps sizes to it.
pub const MAX_VIEWPORT_DIM: i32 = MAX_TEXTURE_SIZE as i32;

/// `VIEWPORT_BOUNDS_RANGE`: `viewport` clamps its origin to it (GL 4.6 section 13.6.1),
/// which keeps every window coordinate of a draw far inside the rasterizer's range.
pub const VIEWPORT_BOUNDS_RANGE: [i32; 2] = [-32768, 32767];

/// `MAX_VERTEX_ATTRIB_BINDINGS`: vertex buffer binding points, one per attribute.
pub const MAX_VERTEX_ATTRIB_BINDINGS: u32 = LIMITS.max_vertex_attribs;
/// `MAX_VERTEX_ATTRIB_RELATIVE_OFFSET`.
pub const MAX_VERTEX_ATTRIB_RELATIVE_OFFSET: u32 = 2047;
/// `MAX_VERTEX_ATTRIB_STRIDE`.
pub const MAX_VERTEX_ATTRIB_STRIDE: u32 = 2048;

/// `MAX_COMPUTE_WORK_GROUP_COUNT` in each dimension (ARB_compute_shader's minimum).
pub const MAX_COMPUTE_WORK_GROUP_COUNT: u32 = 65535;

/// `MAX_MODELVIEW_STACK_DEPTH`: matrices the modelview stack holds, the current one
/// included.
pub const MAX_MODELVIEW_STACK_DEPTH: u32 = 32;
/// `MAX_PROJECTION_STACK_DEPTH`, `MAX_TEXTURE_STACK_DEPTH` and
/// `MAX_PROGRAM_MATRIX_STACK_DEPTH_ARB`.
pub const MAX_OTHER_STACK_DEPTH: u32 = 4;

/// `MAX_VIEWPORTS`: viewports, scissor boxes and depth ranges (ARB_viewport_array).
pub const MAX_VIEWPORTS: u32 = glemu_raster::MAX_VIEWPORTS as u32;

/// `MAX_DUAL_SOURCE_DRAW_BUFFERS` (ARB_blend_func_extended): the rasterizer reads colour
/// output 1 as draw buffer 0's second source, so dual-source blending writes draw buffer 0
/// only.
pub const MAX_DUAL_SOURCE_DRAW_BUFFERS: u32 = 1;

/// `VIEWPORT_SUBPIXEL_BITS`: window coordinates are snapped to 1/256 pixel.
pub const VIEWPORT_SUBPIXEL_BITS: u32 = 8;

/// `MAX_TRANSFORM_FEEDBACK_BUFFERS`: stream-out binding points.
pub const MAX_TRANSFORM_FEEDBACK_BUFFERS: u32 = 4;

/// `MAX_TESS_GEN_LEVEL`.
pub const MAX_TESS_GEN_LEVEL: u32 = 64;

/// Program matrices (`state.matrix.program[n]`, `MATRIXn_ARB`): the size of the state's
/// array and the bound of the matrix modes.
pub const MAX_PROGRAM_MATRICES: usize = LIMITS.max_program_matrices as usize;

/// `MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV`: `program.subroutine[n]` slots.
pub const MAX_PROGRAM_SUBROUTINE_PARAMETERS: u32 = LIMITS.max_subroutine_uniform_locations;

/// `MAX_PROGRAM_SUBROUTINE_NUM_NV`: SUBROUTINENUMs are below this.
pub const MAX_PROGRAM_SUBROUTINE_NUM: u32 = 256;

/// `GL_VENDOR`.
pub const VENDOR: &str = "glemu";
/// `GL_RENDERER`.
pub const RENDERER: &str = "glemu software GPU (NVIDIA assembly programs)";
/// `GL_VERSION`: "4.6 glemu" and the crate version.
pub const VERSION: &str = concat!("4.6 glemu ", env!("CARGO_PKG_VERSION"));

/// Which GL query reports a limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// `glGetIntegerv(pname)`.
    Integer,
    /// `glGetProgramivARB(target, pname)`, for every program target.
    Program,
}

/// One reported limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The GL name without the `GL_` prefix.
    pub name: &'static str,
    /// Its enum value.
    pub pname: u32,
    /// The query that reports it.
    pub query: Query,
    /// The value (two for ranges and `MAX_VIEWPORT_DIMS`).
    pub value: &'static [i32],
}

const fn row(query: Query, name: &'static str, pname: u32, value: &'static [i32]) -> Limit {
    Limit {
        name,
        pname,
        query,
        value,
    }
}

use Query::{Integer as I, Program as P};

/// Every limit glemu reports, with its value. `u32` limits fit `i32` (checked by a test).
#[rustfmt::skip]
pub const LIMIT_TABLE: &[Limit] = &[
    row(I, "MAX_VERTEX_ATTRIBS", gl::MAX_VERTEX_ATTRIBS, &[LIMITS.max_vertex_attribs as i32]),
    row(I, "MAX_VERTEX_ATTRIB_BINDINGS", gl::MAX_VERTEX_ATTRIB_BINDINGS, &[MAX_VERTEX_ATTRIB_BINDINGS as i32]),
    row(I, "MAX_VERTEX_ATTRIB_RELATIVE_OFFSET", gl::MAX_VERTEX_ATTRIB_RELATIVE_OFFSET, &[MAX_VERTEX_ATTRIB_RELATIVE_OFFSET as i32]),
    row(I, "MAX_VERTEX_ATTRIB_STRIDE", gl::MAX_VERTEX_ATTRIB_STRIDE, &[MAX_VERTEX_ATTRIB_STRIDE as i32]),
    row(I, "MAX_TEXTURE_COORDS", gl::MAX_TEXTURE_COORDS, &[LIMITS.max_texture_coords as i32]),
    // Fixed-function texture units: one per texture coordinate set.
    row(I, "MAX_TEXTURE_UNITS", gl::MAX_TEXTURE_UNITS, &[LIMITS.max_texture_coords as i32]),
    row(I, "MAX_TEXTURE_IMAGE_UNITS", gl::MAX_TEXTURE_IMAGE_UNITS, &[LIMITS.max_texture_image_units as i32]),
    row(I, "MAX_COMBINED_TEXTURE_IMAGE_UNITS", gl::MAX_COMBINED_TEXTURE_IMAGE_UNITS, &[LIMITS.max_texture_image_units as i32]),
    row(I, "MAX_LIGHTS", gl::MAX_LIGHTS, &[LIMITS.max_lights as i32]),
    row(I, "MAX_CLIP_PLANES", gl::MAX_CLIP_PLANES, &[LIMITS.max_clip_planes as i32]),
    row(I, "MAX_DRAW_BUFFERS", gl::MAX_DRAW_BUFFERS, &[LIMITS.max_draw_buffers as i32]),
    row(I, "MAX_COLOR_ATTACHMENTS", gl::MAX_COLOR_ATTACHMENTS, &[LIMITS.max_draw_buffers as i32]),
    row(I, "MAX_PROGRAM_MATRICES_ARB", gl::MAX_PROGRAM_MATRICES_ARB, &[LIMITS.max_program_matrices as i32]),
    row(I, "MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV", gl::MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV, &[LIMITS.max_program_parameter_buffer_bindings as i32]),
    row(I, "MAX_PROGRAM_PARAMETER_BUFFER_SIZE_NV", gl::MAX_PROGRAM_PARAMETER_BUFFER_SIZE_NV, &[LIMITS.max_program_parameter_buffer_size as i32]),
    row(I, "MAX_ATOMIC_COUNTER_BUFFER_BINDINGS", gl::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS, &[LIMITS.max_atomic_counter_bindings as i32]),
    row(I, "MAX_ATOMIC_COUNTER_BUFFER_SIZE", gl::MAX_ATOMIC_COUNTER_BUFFER_SIZE, &[LIMITS.max_atomic_counter_buffer_size as i32]),
    row(I, "MAX_SHADER_STORAGE_BUFFER_BINDINGS", gl::MAX_SHADER_STORAGE_BUFFER_BINDINGS, &[LIMITS.max_storage_buffer_bindings as i32]),
    row(I, "MAX_IMAGE_UNITS", gl::MAX_IMAGE_UNITS, &[LIMITS.max_image_units as i32]),
    row(I, "MAX_VERTEX_STREAMS", gl::MAX_VERTEX_STREAMS, &[LIMITS.max_vertex_streams as i32]),
    row(I, "MAX_TRANSFORM_FEEDBACK_BUFFERS", gl::MAX_TRANSFORM_FEEDBACK_BUFFERS, &[MAX_TRANSFORM_FEEDBACK_BUFFERS as i32]),
    row(I, "MAX_PATCH_VERTICES", gl::MAX_PATCH_VERTICES, &[LIMITS.max_patch_vertices as i32]),
    row(I, "MAX_TESS_GEN_LEVEL", gl::MAX_TESS_GEN_LEVEL, &[MAX_TESS_GEN_LEVEL as i32]),
    row(I, "MAX_GEOMETRY_OUTPUT_VERTICES", gl::MAX_GEOMETRY_OUTPUT_VERTICES, &[LIMITS.max_geometry_vertices_out as i32]),
    row(I, "MAX_GEOMETRY_SHADER_INVOCATIONS", gl::MAX_GEOMETRY_SHADER_INVOCATIONS, &[LIMITS.max_geometry_invocations as i32]),
    row(I, "MIN_PROGRAM_TEXEL_OFFSET", gl::MIN_PROGRAM_TEXEL_OFFSET, &[LIMITS.min_program_texel_offset]),
    row(I, "MAX_PROGRAM_TEXEL_OFFSET", gl::MAX_PROGRAM_TEXEL_OFFSET, &[LIMITS.max_program_texel_offset]),
    row(I, "MIN_PROGRAM_TEXTURE_GATHER_OFFSET", gl::MIN_PROGRAM_TEXTURE_GATHER_OFFSET, &[LIMITS.min_program_texture_gather_offset]),
    row(I, "MAX_PROGRAM_TEXTURE_GATHER_OFFSET", gl::MAX_PROGRAM_TEXTURE_GATHER_OFFSET, &[LIMITS.max_program_texture_gather_offset]),
    row(I, "MAX_PROGRAM_TEXTURE_GATHER_COMPONENTS", gl::MAX_PROGRAM_TEXTURE_GATHER_COMPONENTS, &[4]),
    row(I, "MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV", gl::MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV, &[MAX_PROGRAM_SUBROUTINE_PARAMETERS as i32]),
    row(I, "MAX_PROGRAM_SUBROUTINE_NUM_NV", gl::MAX_PROGRAM_SUBROUTINE_NUM_NV, &[MAX_PROGRAM_SUBROUTINE_NUM as i32]),
    row(I, "MAX_COMPUTE_WORK_GROUP_INVOCATIONS", gl::MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &[LIMITS.max_compute_work_group_invocations as i32]),
    row(I, "MAX_COMPUTE_SHARED_MEMORY_SIZE", gl::MAX_COMPUTE_SHARED_MEMORY_SIZE, &[LIMITS.max_compute_shared_memory_size as i32]),
    row(I, "MAX_SAMPLES", gl::MAX_SAMPLES, &[MAX_SAMPLES as i32]),
    row(I, "MAX_TEXTURE_SIZE", gl::MAX_TEXTURE_SIZE, &[MAX_TEXTURE_SIZE as i32]),
    row(I, "MAX_RENDERBUFFER_SIZE", gl::MAX_RENDERBUFFER_SIZE, &[MAX_TEXTURE_SIZE as i32]),
    row(I, "MAX_CUBE_MAP_TEXTURE_SIZE", gl::MAX_CUBE_MAP_TEXTURE_SIZE, &[MAX_CUBE_MAP_TEXTURE_SIZE as i32]),
    row(I, "MAX_3D_TEXTURE_SIZE", gl::MAX_3D_TEXTURE_SIZE, &[MAX_TEXTURE_SIZE as i32]),
    row(I, "MAX_ARRAY_TEXTURE_LAYERS", gl::MAX_ARRAY_TEXTURE_LAYERS, &[MAX_ARRAY_TEXTURE_LAYERS as i32]),
    row(I, "MAX_TEXTURE_BUFFER_SIZE", gl::MAX_TEXTURE_BUFFER_SIZE, &[glemu_textures::texture::MAX_TEXELS as i32]),
    row(I, "MAX_VIEWPORT_DIMS", gl::MAX_VIEWPORT_DIMS, &[MAX_VIEWPORT_DIM, MAX_VIEWPORT_DIM]),
    row(I, "MAX_VIEWPORTS", gl::MAX_VIEWPORTS, &[MAX_VIEWPORTS as i32]),
    row(I, "VIEWPORT_SUBPIXEL_BITS", gl::VIEWPORT_SUBPIXEL_BITS, &[VIEWPORT_SUBPIXEL_BITS as i32]),
    // ARB_blend_func_extended: one colour output with a second source.
    row(I, "MAX_DUAL_SOURCE_DRAW_BUFFERS", gl::MAX_DUAL_SOURCE_DRAW_BUFFERS, &[MAX_DUAL_SOURCE_DRAW_BUFFERS as i32]),
    row(I, "VIEWPORT_BOUNDS_RANGE", gl::VIEWPORT_BOUNDS_RANGE, &VIEWPORT_BOUNDS_RANGE),
    row(I, "MAX_MODELVIEW_STACK_DEPTH", gl::MAX_MODELVIEW_STACK_DEPTH, &[MAX_MODELVIEW_STACK_DEPTH as i32]),
    row(I, "MAX_PROJECTION_STACK_DEPTH", gl::MAX_PROJECTION_STACK_DEPTH, &[MAX_OTHER_STACK_DEPTH as i32]),
    row(I, "MAX_TEXTURE_STACK_DEPTH", gl::MAX_TEXTURE_STACK_DEPTH, &[MAX_OTHER_STACK_DEPTH as i32]),
    row(I, "MAX_PROGRAM_MATRIX_STACK_DEPTH_ARB", gl::MAX_PROGRAM_MATRIX_STACK_DEPTH_ARB, &[MAX_OTHER_STACK_DEPTH as i32]),
    row(I, "NUM_EXTENSIONS", gl::NUM_EXTENSIONS, &[EXTENSIONS.len() as i32]),
    row(P, "MAX_PROGRAM_ENV_PARAMETERS_ARB", gl::MAX_PROGRAM_ENV_PARAMETERS_ARB, &[LIMITS.max_program_env_parameters as i32]),
    row(P, "MAX_PROGRAM_LOCAL_PARAMETERS_ARB", gl::MAX_PROGRAM_LOCAL_PARAMETERS_ARB, &[LIMITS.max_program_local_parameters as i32]),
    row(P, "MAX_PROGRAM_TEMPORARIES_ARB", gl::MAX_PROGRAM_TEMPORARIES_ARB, &[LIMITS.max_program_temporaries as i32]),
    row(P, "MAX_PROGRAM_NATIVE_TEMPORARIES_ARB", gl::MAX_PROGRAM_NATIVE_TEMPORARIES_ARB, &[LIMITS.max_program_temporaries as i32]),
    row(P, "MAX_PROGRAM_ATTRIBS_ARB", gl::MAX_PROGRAM_ATTRIBS_ARB, &[LIMITS.max_vertex_attribs as i32]),
    row(P, "MAX_PROGRAM_NATIVE_ATTRIBS_ARB", gl::MAX_PROGRAM_NATIVE_ATTRIBS_ARB, &[LIMITS.max_vertex_attribs as i32]),
    row(P, "MAX_PROGRAM_ADDRESS_REGISTERS_ARB", gl::MAX_PROGRAM_ADDRESS_REGISTERS_ARB, &[LIMITS.max_program_address_registers as i32]),
    row(P, "MAX_PROGRAM_NATIVE_ADDRESS_REGISTERS_ARB", gl::MAX_PROGRAM_NATIVE_ADDRESS_REGISTERS_ARB, &[LIMITS.max_program_address_registers as i32]),
    row(P, "MAX_PROGRAM_IF_DEPTH_NV", gl::MAX_PROGRAM_IF_DEPTH_NV, &[LIMITS.max_program_if_depth as i32]),
    row(P, "MAX_PROGRAM_LOOP_DEPTH_NV", gl::MAX_PROGRAM_LOOP_DEPTH_NV, &[LIMITS.max_program_loop_depth as i32]),
    row(P, "MAX_PROGRAM_GENERIC_ATTRIBS_NV", gl::MAX_PROGRAM_GENERIC_ATTRIBS_NV, &[LIMITS.max_generic_varyings as i32]),
    row(P, "MAX_PROGRAM_GENERIC_RESULTS_NV", gl::MAX_PROGRAM_GENERIC_RESULTS_NV, &[LIMITS.max_generic_varyings as i32]),
    row(P, "MAX_PROGRAM_PATCH_ATTRIBS_NV", gl::MAX_PROGRAM_PATCH_ATTRIBS_NV, &[LIMITS.max_patch_attribs as i32]),
    row(P, "MAX_PROGRAM_OUTPUT_VERTICES_NV", gl::MAX_PROGRAM_OUTPUT_VERTICES_NV, &[LIMITS.max_geometry_vertices_out as i32]),
    row(P, "MAX_PROGRAM_TOTAL_OUTPUT_COMPONENTS_NV", gl::MAX_PROGRAM_TOTAL_OUTPUT_COMPONENTS_NV, &[LIMITS.max_geometry_total_output_components as i32]),
];

/// The limit reported for `pname` by `query`.
pub fn limit_by_pname(query: Query, pname: u32) -> Option<&'static Limit> {
    LIMIT_TABLE
        .iter()
        .find(|l| l.query == query && l.pname == pname)
}

/// The limit a `[require]` line names: the `GL_` prefix and an `_ARB`/`_NV`/`_EXT` suffix
/// are optional; `MAX_CLIP_DISTANCES` is `MAX_CLIP_PLANES` (one enum value).
///
/// ```
/// let l = glemu::caps::limit_by_name("GL_MAX_PROGRAM_ENV_PARAMETERS").unwrap();
/// assert_eq!(l.value, &[256]);
/// assert!(glemu::caps::limit_by_name("GL_NOT_A_LIMIT").is_none());
/// ```
pub fn limit_by_name(name: &str) -> Option<&'static Limit> {
    fn bare(n: &str) -> &str {
        let n = n.strip_prefix("GL_").unwrap_or(n);
        ["_ARB", "_NV", "_EXT"]
            .iter()
            .find_map(|s| n.strip_suffix(s))
            .unwrap_or(n)
    }
    let want = match bare(name) {
        "MAX_CLIP_DISTANCES" => "MAX_CLIP_PLANES",
        n => n,
    };
    LIMIT_TABLE.iter().find(|l| bare(l.name) == want)
}

/// Every extension glemu implements, and nothing else. `tests/caps.rs` shows each one's
/// entry points or program option at work.
pub const EXTENSIONS: &[&str] = &[
    "GL_ARB_vertex_program",
    "GL_ARB_fragment_program",
    "GL_ARB_fragment_program_shadow",
    "GL_ARB_fragment_coord_conventions",
    "GL_ARB_draw_buffers",
    "GL_ARB_texture_rectangle",
    "GL_ARB_texture_cube_map",
    "GL_ARB_texture_gather",
    "GL_ARB_sample_shading",
    "GL_ARB_transform_feedback3",
    "GL_ARB_viewport_array",
    "GL_ARB_derivative_control",
    "GL_ARB_shader_draw_parameters",
    "GL_ARB_fragment_layer_viewport",
    "GL_ARB_blend_func_extended",
    "GL_ARB_pipeline_statistics_query",
    "GL_ARB_vertex_attrib_binding",
    "GL_ARB_copy_image",
    "GL_ARB_texture_storage",
    "GL_ARB_texture_buffer_object",
    "GL_ATI_draw_buffers",
    "GL_EXT_texture3D",
    "GL_EXT_texture_array",
    "GL_EXT_shader_image_load_store",
    "GL_EXT_shader_image_load_formatted",
    "GL_NV_vertex_program",
    "GL_NV_vertex_program1_1",
    "GL_NV_vertex_program2",
    "GL_NV_vertex_program2_option",
    "GL_NV_vertex_program3",
    "GL_NV_fragment_program",
    "GL_NV_fragment_program_option",
    "GL_NV_fragment_program2",
    "GL_NV_gpu_program4",
    "GL_NV_gpu_program4_1",
    "GL_NV_gpu_program5",
    "GL_NV_gpu_program5_mem_extended",
    "GL_NV_gpu_program_fp64",
    "GL_NV_geometry_program4",
    "GL_NV_geometry_shader_passthrough",
    "GL_NV_viewport_array2",
    "GL_NV_tessellation_program5",
    "GL_NV_compute_program5",
    "GL_NV_parameter_buffer_object",
    "GL_NV_parameter_buffer_object2",
    "GL_NV_shader_atomic_counters",
    "GL_NV_shader_buffer_load",
    "GL_NV_shader_buffer_store",
    "GL_NV_shader_storage_buffer_object",
    "GL_NV_shader_thread_group",
    "GL_NV_shader_thread_shuffle",
    "GL_NV_transform_feedback",
];

/// Whether glemu implements `name` (the `GL_` prefix is required, as GL spells it).
///
/// ```
/// assert!(glemu::caps::has_extension("GL_NV_gpu_program5"));
/// assert!(!glemu::caps::has_extension("GL_EXT_no_such_thing"));
/// ```
pub fn has_extension(name: &str) -> bool {
    EXTENSIONS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_enums_agree_and_rows_are_unique() {
        for l in LIMIT_TABLE {
            assert_eq!(gl::enum_by_name(l.name), Some(l.pname), "{}", l.name);
            let same = LIMIT_TABLE
                .iter()
                .filter(|m| m.query == l.query && m.pname == l.pname)
                .count();
            assert_eq!(same, 1, "{} twice", l.name);
            assert!(!l.value.is_empty() && l.value.len() <= 2, "{}", l.name);
        }
        let mut seen = std::collections::HashSet::new();
        for e in EXTENSIONS {
            assert!(e.starts_with("GL_") && seen.insert(e), "{e}");
        }
    }
}
