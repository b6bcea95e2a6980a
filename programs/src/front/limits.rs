//! Implementation limits the front end enforces, with NVIDIA-like values (GeForce 400+
//! class drivers). The ones other crates read (the context's program queries) are public;
//! the rest are crate-private.

/// Texture image units an NV_gpu_program4/5 program may name (`texture[n]`).
pub(crate) const MAX_TEXTURE_UNITS_NV: u32 = 32;
/// Texture image units an ARB fragment/vertex program may name.
pub(crate) const MAX_TEXTURE_IMAGE_UNITS_ARB: u32 = 16;
/// Texture coordinate sets (`vertex.texcoord[n]`, `fragment.texcoord[n]`,
/// `result.texcoord[n]`, `state.texgen[n]`, `state.matrix.texture[n]`).
pub(crate) const MAX_TEXTURE_COORDS: u32 = 8;
/// Generic vertex attributes (`vertex.attrib[n]`).
///
/// ```
/// use glemu_programs::{assemble, front::limits::MAX_VERTEX_ATTRIBS};
/// let vp = |n: u32| format!("!!ARBvp1.0\nMOV result.position, vertex.attrib[{n}];\nEND");
/// assert!(assemble(&vp(MAX_VERTEX_ATTRIBS - 1), None).is_ok());
/// assert!(assemble(&vp(MAX_VERTEX_ATTRIBS), None).is_err());
/// ```
pub const MAX_VERTEX_ATTRIBS: u32 = 16;
/// Generic varyings between stages (`result.attrib[n]`, `fragment.attrib[n]`).
pub(crate) const MAX_GENERIC_VARYINGS: u32 = 32;
/// Per-patch generic attributes (`result.patch.attrib[n]`).
pub(crate) const MAX_PATCH_ATTRIBS: u32 = 30;
/// `program.env[n]`.
pub(crate) const MAX_PROGRAM_ENV_PARAMETERS: u32 = 256;
/// `program.local[n]`.
pub(crate) const MAX_PROGRAM_LOCAL_PARAMETERS: u32 = 1024;
/// ARB address registers per vertex program (`ADDRESS`).
///
/// ```
/// use glemu_programs::{assemble, front::limits::MAX_PROGRAM_ADDRESS_REGISTERS};
/// assert_eq!(MAX_PROGRAM_ADDRESS_REGISTERS, 2);
/// let vp = |decl: &str| format!("!!ARBvp1.0\nOPTION NV_vertex_program2;\nADDRESS {decl};\nMOV result.position, 0;\nEND");
/// assert!(assemble(&vp("a, b"), None).is_ok());
/// assert!(assemble(&vp("a, b, c"), None).is_err());
/// ```
pub const MAX_PROGRAM_ADDRESS_REGISTERS: u32 = 2;
/// `state.matrix.program[n]`.
pub(crate) const MAX_PROGRAM_MATRICES: u32 = 8;
/// `state.matrix.modelview[n]` (no ARB_vertex_blend: only 0).
pub(crate) const MAX_VERTEX_UNITS: u32 = 1;
/// `state.matrix.palette[n]` (no ARB_matrix_palette).
pub(crate) const MAX_PALETTE_MATRICES: u32 = 0;
/// `state.light[n]`, `state.lightprod[n]`.
pub(crate) const MAX_LIGHTS: u32 = 8;
/// `state.clip[n].plane`, `result.clip[n]`.
pub(crate) const MAX_CLIP_PLANES: u32 = 8;
/// `result.color[n]` with ARB_draw_buffers / NV_fragment_program4.
pub(crate) const MAX_DRAW_BUFFERS: u32 = 8;
/// Parameter buffer binding points (`program.buffer[n]`).
pub(crate) const MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS: u32 = 14;
/// Elements (vec4) a BUFFER/BUFFER4 variable may hold.
pub(crate) const MAX_PROGRAM_PARAMETER_BUFFER_SIZE: u32 = 4096;
/// `VERTICES_OUT` limit of geometry programs.
pub(crate) const MAX_GEOMETRY_VERTICES_OUT: u32 = 1024;
/// `INVOCATIONS` limit of NVgp5 programs.
pub(crate) const MAX_GEOMETRY_INVOCATIONS: u32 = 32;
/// Vertex streams (`EMITS` index).
///
/// ```
/// use glemu_programs::front::limits::MAX_VERTEX_STREAMS;
/// assert_eq!(MAX_VERTEX_STREAMS, 4);
/// ```
pub const MAX_VERTEX_STREAMS: u32 = 4;
/// Vertices per patch (`VERTICES_OUT` of tess control, `PATCHES` size).
pub(crate) const MAX_PATCH_VERTICES: u32 = 32;
/// Atomic counter buffer bindings (`program.counter[n]`).
pub(crate) const MAX_ATOMIC_COUNTER_BINDINGS: u32 = 8;
/// Image units (`image[n]`).
pub(crate) const MAX_IMAGE_UNITS: u32 = 8;
/// Shader storage buffer bindings (`program.storage[n]`).
pub(crate) const MAX_STORAGE_BUFFER_BINDINGS: u32 = 16;
/// Subroutine uniform slots (`program.subroutine[n]`).
pub(crate) const MAX_SUBROUTINE_UNIFORM_LOCATIONS: u32 = 1024;
/// Constant texel offsets `(x,y,z)` range.
pub(crate) const MIN_PROGRAM_TEXEL_OFFSET: i32 = -8;
pub(crate) const MAX_PROGRAM_TEXEL_OFFSET: i32 = 7;
/// Register texel offsets of TXGO / `offset(...)` on TXG.
///
/// ```
/// use glemu_programs::front::limits::*;
/// assert_eq!((MIN_PROGRAM_TEXTURE_GATHER_OFFSET, MAX_PROGRAM_TEXTURE_GATHER_OFFSET), (-32, 31));
/// ```
pub const MIN_PROGRAM_TEXTURE_GATHER_OFFSET: i32 = -32;
/// Largest register texel offset of TXGO (NV_gpu_program5).
///
/// ```
/// use glemu_programs::front::limits::MAX_PROGRAM_TEXTURE_GATHER_OFFSET;
/// assert_eq!(MAX_PROGRAM_TEXTURE_GATHER_OFFSET, 31);
/// ```
pub const MAX_PROGRAM_TEXTURE_GATHER_OFFSET: i32 = 31;
/// ARB vertex program relative-address offsets `c[A0.x + n]`.
///
/// ARB_vertex_program's grammar names -64..63 as the range every implementation must
/// support (issue 26); implementations may accept more, and both NVIDIA's driver and Mesa
/// (whose limit is the 4096 local parameters) do. piglit's
/// `vp-arl-constant-array-huge-relative-offset` relies on that, so glemu accepts the same
/// range as Mesa: a positive offset below 4096 and a negative one down to -4096.
pub(crate) const MAX_ARB_ADDRESS_OFFSET: i32 = 4095;
pub(crate) const MIN_ARB_ADDRESS_OFFSET: i32 = -4096;
/// IF/ELSE/ENDIF nesting depth (MAX_PROGRAM_IF_DEPTH_NV).
pub(crate) const MAX_PROGRAM_IF_DEPTH: u32 = 64;
/// REP/LOOP nesting depth (MAX_PROGRAM_LOOP_DEPTH_NV).
pub(crate) const MAX_PROGRAM_LOOP_DEPTH: u32 = 64;
/// Vertex limit x result components of a geometry program
/// (MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS).
pub(crate) const MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS: u32 = 1024;
/// Temporary registers, counting every element of TEMP arrays.
///
/// ```
/// use glemu_programs::{assemble, front::limits::MAX_PROGRAM_TEMPORARIES};
/// let vp = |n: u32| format!("!!NVvp4.0\nTEMP t[{n}];\nMOV result.position, t[0];\nEND");
/// assert!(assemble(&vp(MAX_PROGRAM_TEMPORARIES), None).is_ok());
/// let e = assemble(&vp(MAX_PROGRAM_TEMPORARIES + 1), None).unwrap_err();
/// assert!(e.message.contains("temporary registers"));
/// ```
pub const MAX_PROGRAM_TEMPORARIES: u32 = 4096;
