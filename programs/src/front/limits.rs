//! The implementation limits a program is checked against: one [`Limits`] value, given to
//! the assembler ([`crate::assemble_with`]; [`crate::assemble`] uses [`Limits::NVIDIA`]).
//! glemu's GL queries (`glGetIntegerv`, `glGetProgramivARB`, `[require]`, `glemu info`)
//! report the same value, so what is reported is what the assembler enforces.

/// Implementation limits, with NVIDIA-like values in [`Limits::NVIDIA`] (GeForce 400+
/// class drivers).
///
/// ```
/// use glemu_programs::{assemble_with, Limits};
/// let vp = |n: u32| format!("!!ARBvp1.0\nMOV result.position, vertex.attrib[{n}];\nEND");
/// let l = Limits::NVIDIA;
/// assert!(assemble_with(&vp(l.max_vertex_attribs - 1), None, &l).is_ok());
/// assert!(assemble_with(&vp(l.max_vertex_attribs), None, &l).is_err());
/// let fewer = Limits { max_vertex_attribs: 4, ..Limits::NVIDIA };
/// assert!(assemble_with(&vp(4), None, &fewer).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Texture image units a program may name (`texture[n]`), in every dialect
    /// (`MAX_TEXTURE_IMAGE_UNITS`, which is also `MAX_TEXTURE_IMAGE_UNITS_ARB`).
    pub max_texture_image_units: u32,
    /// Texture coordinate sets (`vertex.texcoord[n]`, `fragment.texcoord[n]`,
    /// `result.texcoord[n]`, `state.texgen[n]`, `state.matrix.texture[n]`).
    pub max_texture_coords: u32,
    /// Generic vertex attributes (`vertex.attrib[n]`).
    pub max_vertex_attribs: u32,
    /// Generic varyings between stages (`result.attrib[n]`, `fragment.attrib[n]`).
    pub max_generic_varyings: u32,
    /// Per-patch generic attributes (`result.patch.attrib[n]`).
    pub max_patch_attribs: u32,
    /// `program.env[n]`.
    pub max_program_env_parameters: u32,
    /// `program.local[n]`.
    pub max_program_local_parameters: u32,
    /// ARB address registers per vertex program (`ADDRESS`).
    pub max_program_address_registers: u32,
    /// `state.matrix.program[n]`.
    pub max_program_matrices: u32,
    /// `state.matrix.modelview[n]` (no ARB_vertex_blend: only 0).
    pub max_vertex_units: u32,
    /// `state.matrix.palette[n]` (no ARB_matrix_palette).
    pub max_palette_matrices: u32,
    /// `state.light[n]`, `state.lightprod[n]`.
    pub max_lights: u32,
    /// `state.clip[n].plane`, `result.clip[n]`.
    pub max_clip_planes: u32,
    /// `result.color[n]` with ARB_draw_buffers / NV_fragment_program4.
    pub max_draw_buffers: u32,
    /// Parameter buffer binding points (`program.buffer[n]`).
    pub max_program_parameter_buffer_bindings: u32,
    /// Elements (vec4) a BUFFER/BUFFER4 variable may hold.
    pub max_program_parameter_buffer_size: u32,
    /// `VERTICES_OUT` limit of geometry programs.
    pub max_geometry_vertices_out: u32,
    /// `INVOCATIONS` limit of NVgp5 programs.
    pub max_geometry_invocations: u32,
    /// Vertex streams (`EMITS` index).
    pub max_vertex_streams: u32,
    /// Vertices per patch (`VERTICES_OUT` of tess control, `PATCHES` size).
    pub max_patch_vertices: u32,
    /// Atomic counter buffer bindings (`program.counter[n]`).
    pub max_atomic_counter_bindings: u32,
    /// Bytes of an atomic counter buffer binding a program reaches
    /// (`MAX_ATOMIC_COUNTER_BUFFER_SIZE`): an unsized `COUNTER c[] = { program.counter[a] }`
    /// covers this many bytes of 32-bit counters (NV_shader_atomic_counters 2.X.3.Y).
    pub max_atomic_counter_buffer_size: u32,
    /// Image units (`image[n]`).
    pub max_image_units: u32,
    /// Shader storage buffer bindings (`program.storage[n]`).
    pub max_storage_buffer_bindings: u32,
    /// Subroutine uniform slots (`program.subroutine[n]`).
    pub max_subroutine_uniform_locations: u32,
    /// Smallest constant texel offset `(x,y,z)`.
    pub min_program_texel_offset: i32,
    /// Largest constant texel offset.
    pub max_program_texel_offset: i32,
    /// Smallest register texel offset of TXGO / `offset(...)` on TXG.
    pub min_program_texture_gather_offset: i32,
    /// Largest register texel offset of TXGO (NV_gpu_program5).
    pub max_program_texture_gather_offset: i32,
    /// Largest ARB vertex program relative-address offset `c[A0.x + n]`.
    ///
    /// ARB_vertex_program's grammar names -64..63 as the range every implementation must
    /// support (issue 26); implementations may accept more, and both NVIDIA's driver and Mesa
    /// (whose limit is the 4096 local parameters) do. piglit's
    /// `vp-arl-constant-array-huge-relative-offset` relies on that, so glemu accepts the same
    /// range as Mesa: a positive offset below 4096 and a negative one down to -4096.
    pub max_arb_address_offset: i32,
    /// Most negative ARB relative-address offset (see `max_arb_address_offset`).
    pub min_arb_address_offset: i32,
    /// IF/ELSE/ENDIF nesting depth (MAX_PROGRAM_IF_DEPTH_NV).
    pub max_program_if_depth: u32,
    /// REP/LOOP nesting depth (MAX_PROGRAM_LOOP_DEPTH_NV).
    pub max_program_loop_depth: u32,
    /// Vertex limit x result components of a geometry program
    /// (MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS).
    pub max_geometry_total_output_components: u32,
    /// Temporary registers, counting every element of TEMP arrays.
    pub max_program_temporaries: u32,
    /// `MAX_COMPUTE_WORK_GROUP_SIZE` per dimension (x, y, z): the largest GROUP_SIZE.
    pub max_compute_work_group_size: [u32; 3],
    /// `MAX_COMPUTE_WORK_GROUP_INVOCATIONS`: the largest product of GROUP_SIZE.
    pub max_compute_work_group_invocations: u32,
    /// `MAX_COMPUTE_SHARED_MEMORY_SIZE`: the largest SHARED_MEMORY, in bytes.
    pub max_compute_shared_memory_size: u32,
}

impl Limits {
    /// The limits glemu reports and enforces.
    pub const NVIDIA: Limits = Limits {
        max_texture_image_units: 32,
        max_texture_coords: 8,
        max_vertex_attribs: 16,
        max_generic_varyings: 32,
        max_patch_attribs: 30,
        max_program_env_parameters: 256,
        max_program_local_parameters: 1024,
        max_program_address_registers: 2,
        max_program_matrices: 8,
        max_vertex_units: 1,
        max_palette_matrices: 0,
        max_lights: 8,
        max_clip_planes: 8,
        max_draw_buffers: 8,
        max_program_parameter_buffer_bindings: 14,
        max_program_parameter_buffer_size: 4096,
        max_geometry_vertices_out: 1024,
        max_geometry_invocations: 32,
        max_vertex_streams: 4,
        max_patch_vertices: 32,
        max_atomic_counter_bindings: 8,
        max_atomic_counter_buffer_size: 65536,
        max_image_units: 8,
        max_storage_buffer_bindings: 16,
        max_subroutine_uniform_locations: 1024,
        min_program_texel_offset: -8,
        max_program_texel_offset: 7,
        min_program_texture_gather_offset: -32,
        max_program_texture_gather_offset: 31,
        max_arb_address_offset: 4095,
        min_arb_address_offset: -4096,
        max_program_if_depth: 64,
        max_program_loop_depth: 64,
        max_geometry_total_output_components: 1024,
        max_program_temporaries: 4096,
        max_compute_work_group_size: [1024, 1024, 64],
        max_compute_work_group_invocations: 1024,
        max_compute_shared_memory_size: 49152,
    };
}

impl Default for Limits {
    /// [`Limits::NVIDIA`].
    fn default() -> Limits {
        Limits::NVIDIA
    }
}
