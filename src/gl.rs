//! GL enum values the API takes, and the name table scene files use to spell them.
//!
//! The Context takes raw `u32` enums (as GL does) so that a wrong value can be reported as
//! `INVALID_ENUM` instead of being unrepresentable.

macro_rules! gl_enums {
    ($($name:ident = $val:expr,)*) => {
        $(#[allow(missing_docs)] pub const $name: u32 = $val;)*
        /// Every named enum: (`NAME` without the `GL_` prefix, value).
        ///
        /// ```
        /// assert!(glemu::gl::NAMES.contains(&("TRIANGLES", glemu::gl::TRIANGLES)));
        /// ```
        pub const NAMES: &[(&str, u32)] = &[$((stringify!($name), $val),)*];
    };
}

gl_enums! {
    NONE = 0,
    ZERO = 0,
    ONE = 1,
    // errors
    NO_ERROR = 0,
    INVALID_ENUM = 0x0500,
    INVALID_VALUE = 0x0501,
    INVALID_OPERATION = 0x0502,
    STACK_OVERFLOW = 0x0503,
    STACK_UNDERFLOW = 0x0504,
    OUT_OF_MEMORY = 0x0505,
    INVALID_FRAMEBUFFER_OPERATION = 0x0506,
    // primitives
    POINTS = 0x0000,
    LINES = 0x0001,
    LINE_LOOP = 0x0002,
    LINE_STRIP = 0x0003,
    TRIANGLES = 0x0004,
    TRIANGLE_STRIP = 0x0005,
    TRIANGLE_FAN = 0x0006,
    QUADS = 0x0007,
    QUAD_STRIP = 0x0008,
    POLYGON = 0x0009,
    LINES_ADJACENCY = 0x000A,
    LINE_STRIP_ADJACENCY = 0x000B,
    TRIANGLES_ADJACENCY = 0x000C,
    TRIANGLE_STRIP_ADJACENCY = 0x000D,
    PATCHES = 0x000E,
    // compare functions
    NEVER = 0x0200,
    LESS = 0x0201,
    EQUAL = 0x0202,
    LEQUAL = 0x0203,
    GREATER = 0x0204,
    NOTEQUAL = 0x0205,
    GEQUAL = 0x0206,
    ALWAYS = 0x0207,
    // blend factors
    SRC_COLOR = 0x0300,
    ONE_MINUS_SRC_COLOR = 0x0301,
    SRC_ALPHA = 0x0302,
    ONE_MINUS_SRC_ALPHA = 0x0303,
    DST_ALPHA = 0x0304,
    ONE_MINUS_DST_ALPHA = 0x0305,
    DST_COLOR = 0x0306,
    ONE_MINUS_DST_COLOR = 0x0307,
    SRC_ALPHA_SATURATE = 0x0308,
    CONSTANT_COLOR = 0x8001,
    ONE_MINUS_CONSTANT_COLOR = 0x8002,
    CONSTANT_ALPHA = 0x8003,
    ONE_MINUS_CONSTANT_ALPHA = 0x8004,
    SRC1_ALPHA = 0x8589,
    SRC1_COLOR = 0x88F9,
    ONE_MINUS_SRC1_COLOR = 0x88FA,
    ONE_MINUS_SRC1_ALPHA = 0x88FB,
    // blend equations
    FUNC_ADD = 0x8006,
    MIN = 0x8007,
    MAX = 0x8008,
    FUNC_SUBTRACT = 0x800A,
    FUNC_REVERSE_SUBTRACT = 0x800B,
    // stencil ops
    KEEP = 0x1E00,
    REPLACE = 0x1E01,
    INCR = 0x1E02,
    DECR = 0x1E03,
    INVERT = 0x150A,
    INCR_WRAP = 0x8507,
    DECR_WRAP = 0x8508,
    // faces, winding, polygon modes
    FRONT = 0x0404,
    BACK = 0x0405,
    FRONT_AND_BACK = 0x0408,
    CW = 0x0900,
    CCW = 0x0901,
    POINT = 0x1B00,
    LINE = 0x1B01,
    FILL = 0x1B02,
    FLAT = 0x1D00,
    SMOOTH = 0x1D01,
    FIRST_VERTEX_CONVENTION = 0x8E4D,
    LAST_VERTEX_CONVENTION = 0x8E4E,
    // capabilities
    FOG = 0x0B60,
    LIGHTING = 0x0B50,
    LIGHT0 = 0x4000,
    CULL_FACE = 0x0B44,
    DEPTH_TEST = 0x0B71,
    STENCIL_TEST = 0x0B90,
    NORMALIZE = 0x0BA1,
    ALPHA_TEST = 0x0BC0,
    DITHER = 0x0BD0,
    BLEND = 0x0BE2,
    SCISSOR_TEST = 0x0C11,
    TEXTURE_1D = 0x0DE0,
    TEXTURE_2D = 0x0DE1,
    TEXTURE_3D = 0x806F,
    TEXTURE_RECTANGLE = 0x84F5,
    TEXTURE_CUBE_MAP = 0x8513,
    TEXTURE_1D_ARRAY = 0x8C18,
    TEXTURE_2D_ARRAY = 0x8C1A,
    TEXTURE_CUBE_MAP_ARRAY = 0x9009,
    TEXTURE_BUFFER = 0x8C2A,
    TEXTURE_2D_MULTISAMPLE = 0x9100,
    TEXTURE_2D_MULTISAMPLE_ARRAY = 0x9102,
    TEXTURE_CUBE_MAP_POSITIVE_X = 0x8515,
    POLYGON_OFFSET_POINT = 0x2A01,
    POLYGON_OFFSET_LINE = 0x2A02,
    POLYGON_OFFSET_FILL = 0x8037,
    MULTISAMPLE = 0x809D,
    SAMPLE_ALPHA_TO_COVERAGE = 0x809E,
    SAMPLE_ALPHA_TO_ONE = 0x809F,
    SAMPLE_COVERAGE = 0x80A0,
    SAMPLE_SHADING = 0x8C36,
    SAMPLE_MASK = 0x8E51,
    CLIP_PLANE0 = 0x3000,
    CLIP_DISTANCE0 = 0x3000,
    DEPTH_CLAMP = 0x864F,
    RASTERIZER_DISCARD = 0x8C89,
    PROGRAM_POINT_SIZE = 0x8642,
    VERTEX_PROGRAM_POINT_SIZE = 0x8642,
    VERTEX_PROGRAM_TWO_SIDE = 0x8643,
    POINT_SPRITE = 0x8861,
    PRIMITIVE_RESTART = 0x8F9D,
    PRIMITIVE_RESTART_FIXED_INDEX = 0x8D69,
    FRAMEBUFFER_SRGB = 0x8DB9,
    COLOR_LOGIC_OP = 0x0BF2,
    LINE_SMOOTH = 0x0B20,
    POINT_SMOOTH = 0x0B10,
    POLYGON_SMOOTH = 0x0B41,
    COLOR_MATERIAL = 0x0B57,
    TEXTURE_GEN_S = 0x0C60,
    TEXTURE_GEN_T = 0x0C61,
    TEXTURE_GEN_R = 0x0C62,
    TEXTURE_GEN_Q = 0x0C63,
    // program targets
    VERTEX_PROGRAM_ARB = 0x8620,
    VERTEX_STATE_PROGRAM_NV = 0x8621,
    FRAGMENT_PROGRAM_ARB = 0x8804,
    FRAGMENT_PROGRAM_NV = 0x8870,
    GEOMETRY_PROGRAM_NV = 0x8C26,
    TESS_CONTROL_PROGRAM_NV = 0x891E,
    TESS_EVALUATION_PROGRAM_NV = 0x891F,
    PROGRAM_FORMAT_ASCII_ARB = 0x8875,
    // glGetProgramivARB names.
    PROGRAM_LENGTH_ARB = 0x8627,
    PROGRAM_BINDING_ARB = 0x8677,
    PROGRAM_FORMAT_ARB = 0x8876,
    PROGRAM_INSTRUCTIONS_ARB = 0x88A0,
    MAX_PROGRAM_INSTRUCTIONS_ARB = 0x88A1,
    PROGRAM_NATIVE_INSTRUCTIONS_ARB = 0x88A2,
    MAX_PROGRAM_NATIVE_INSTRUCTIONS_ARB = 0x88A3,
    PROGRAM_TEMPORARIES_ARB = 0x88A4,
    MAX_PROGRAM_TEMPORARIES_ARB = 0x88A5,
    PROGRAM_NATIVE_TEMPORARIES_ARB = 0x88A6,
    MAX_PROGRAM_NATIVE_TEMPORARIES_ARB = 0x88A7,
    PROGRAM_PARAMETERS_ARB = 0x88A8,
    MAX_PROGRAM_PARAMETERS_ARB = 0x88A9,
    PROGRAM_NATIVE_PARAMETERS_ARB = 0x88AA,
    MAX_PROGRAM_NATIVE_PARAMETERS_ARB = 0x88AB,
    PROGRAM_ATTRIBS_ARB = 0x88AC,
    MAX_PROGRAM_ATTRIBS_ARB = 0x88AD,
    PROGRAM_NATIVE_ATTRIBS_ARB = 0x88AE,
    MAX_PROGRAM_NATIVE_ATTRIBS_ARB = 0x88AF,
    PROGRAM_ADDRESS_REGISTERS_ARB = 0x88B0,
    MAX_PROGRAM_ADDRESS_REGISTERS_ARB = 0x88B1,
    PROGRAM_NATIVE_ADDRESS_REGISTERS_ARB = 0x88B2,
    MAX_PROGRAM_NATIVE_ADDRESS_REGISTERS_ARB = 0x88B3,
    MAX_PROGRAM_LOCAL_PARAMETERS_ARB = 0x88B4,
    MAX_PROGRAM_ENV_PARAMETERS_ARB = 0x88B5,
    PROGRAM_UNDER_NATIVE_LIMITS_ARB = 0x88B6,
    PROGRAM_ALU_INSTRUCTIONS_ARB = 0x8805,
    PROGRAM_TEX_INSTRUCTIONS_ARB = 0x8806,
    PROGRAM_TEX_INDIRECTIONS_ARB = 0x8807,
    PROGRAM_NATIVE_ALU_INSTRUCTIONS_ARB = 0x8808,
    PROGRAM_NATIVE_TEX_INSTRUCTIONS_ARB = 0x8809,
    PROGRAM_NATIVE_TEX_INDIRECTIONS_ARB = 0x880A,
    MAX_PROGRAM_ALU_INSTRUCTIONS_ARB = 0x880B,
    MAX_PROGRAM_TEX_INSTRUCTIONS_ARB = 0x880C,
    MAX_PROGRAM_TEX_INDIRECTIONS_ARB = 0x880D,
    MAX_PROGRAM_NATIVE_ALU_INSTRUCTIONS_ARB = 0x880E,
    MAX_PROGRAM_NATIVE_TEX_INSTRUCTIONS_ARB = 0x880F,
    MAX_PROGRAM_NATIVE_TEX_INDIRECTIONS_ARB = 0x8810,
    // buffers
    ARRAY_BUFFER = 0x8892,
    ELEMENT_ARRAY_BUFFER = 0x8893,
    UNIFORM_BUFFER = 0x8A11,
    SHADER_STORAGE_BUFFER = 0x90D2,
    ATOMIC_COUNTER_BUFFER = 0x92C0,
    TRANSFORM_FEEDBACK_BUFFER = 0x8C8E,
    DRAW_INDIRECT_BUFFER = 0x8F3F,
    COPY_READ_BUFFER = 0x8F36,
    COPY_WRITE_BUFFER = 0x8F37,
    VERTEX_PROGRAM_PARAMETER_BUFFER_NV = 0x8DA2,
    GEOMETRY_PROGRAM_PARAMETER_BUFFER_NV = 0x8DA3,
    FRAGMENT_PROGRAM_PARAMETER_BUFFER_NV = 0x8DA4,
    TESS_CONTROL_PROGRAM_PARAMETER_BUFFER_NV = 0x8C74,
    TESS_EVALUATION_PROGRAM_PARAMETER_BUFFER_NV = 0x8C75,
    STATIC_DRAW = 0x88E4,
    DYNAMIC_DRAW = 0x88E8,
    STREAM_DRAW = 0x88E0,
    READ_ONLY = 0x88B8,
    WRITE_ONLY = 0x88B9,
    READ_WRITE = 0x88BA,
    // types
    BYTE = 0x1400,
    UNSIGNED_BYTE = 0x1401,
    SHORT = 0x1402,
    UNSIGNED_SHORT = 0x1403,
    INT = 0x1404,
    UNSIGNED_INT = 0x1405,
    FLOAT = 0x1406,
    DOUBLE = 0x140A,
    HALF_FLOAT = 0x140B,
    // texture parameters
    TEXTURE_MAG_FILTER = 0x2800,
    TEXTURE_MIN_FILTER = 0x2801,
    TEXTURE_WRAP_S = 0x2802,
    TEXTURE_WRAP_T = 0x2803,
    TEXTURE_WRAP_R = 0x8072,
    TEXTURE_BORDER_COLOR = 0x1004,
    TEXTURE_MIN_LOD = 0x813A,
    TEXTURE_MAX_LOD = 0x813B,
    TEXTURE_BASE_LEVEL = 0x813C,
    TEXTURE_MAX_LEVEL = 0x813D,
    TEXTURE_LOD_BIAS = 0x8501,
    TEXTURE_MAX_ANISOTROPY = 0x84FE,
    TEXTURE_COMPARE_MODE = 0x884C,
    TEXTURE_COMPARE_FUNC = 0x884D,
    DEPTH_TEXTURE_MODE = 0x884B,
    TEXTURE_SWIZZLE_R = 0x8E42,
    TEXTURE_SWIZZLE_G = 0x8E43,
    TEXTURE_SWIZZLE_B = 0x8E44,
    TEXTURE_SWIZZLE_A = 0x8E45,
    TEXTURE_SRGB_DECODE_EXT = 0x8A48,
    DECODE_EXT = 0x8A49,
    SKIP_DECODE_EXT = 0x8A4A,
    NEAREST = 0x2600,
    LINEAR = 0x2601,
    NEAREST_MIPMAP_NEAREST = 0x2700,
    LINEAR_MIPMAP_NEAREST = 0x2701,
    NEAREST_MIPMAP_LINEAR = 0x2702,
    LINEAR_MIPMAP_LINEAR = 0x2703,
    REPEAT = 0x2901,
    CLAMP = 0x2900,
    CLAMP_TO_EDGE = 0x812F,
    CLAMP_TO_BORDER = 0x812D,
    MIRRORED_REPEAT = 0x8370,
    MIRROR_CLAMP_EXT = 0x8742,
    MIRROR_CLAMP_TO_EDGE = 0x8743,
    MIRROR_CLAMP_TO_BORDER_EXT = 0x8912,
    COMPARE_REF_TO_TEXTURE = 0x884E,
    COMPARE_R_TO_TEXTURE = 0x884E,
    LUMINANCE = 0x1909,
    INTENSITY = 0x8049,
    ALPHA = 0x1906,
    RED = 0x1903,
    GREEN = 0x1904,
    BLUE = 0x1905,
    RGB = 0x1907,
    RGBA = 0x1908,
    RGBA8 = 0x8058,
    // Client pixel layouts and pixel-store state (glTexImage/glTexSubImage/glPixelStore).
    UNPACK_ALIGNMENT = 0x0CF5,
    PACK_ALIGNMENT = 0x0D05,
    RG = 0x8227,
    BGR = 0x80E0,
    LUMINANCE_ALPHA = 0x190A,
    RED_INTEGER = 0x8D94,
    RG_INTEGER = 0x8228,
    RGB_INTEGER = 0x8D98,
    RGBA_INTEGER = 0x8D99,
    BGR_INTEGER = 0x8D9A,
    BGRA_INTEGER = 0x8D9B,
    UNSIGNED_BYTE_3_3_2 = 0x8032,
    UNSIGNED_SHORT_5_6_5 = 0x8363,
    UNSIGNED_SHORT_4_4_4_4 = 0x8033,
    UNSIGNED_SHORT_5_5_5_1 = 0x8034,
    UNSIGNED_INT_8_8_8_8 = 0x8035,
    UNSIGNED_INT_8_8_8_8_REV = 0x8367,
    UNSIGNED_INT_10_10_10_2 = 0x8036,
    UNSIGNED_INT_24_8 = 0x84FA,
    UNSIGNED_INT_10F_11F_11F_REV = 0x8C3B,
    UNSIGNED_INT_5_9_9_9_REV = 0x8C3E,
    FLOAT_32_UNSIGNED_INT_24_8_REV = 0x8DAD,
    COMPRESSED_RGB_S3TC_DXT1_EXT = 0x83F0,
    COMPRESSED_RGBA_S3TC_DXT1_EXT = 0x83F1,
    COMPRESSED_RGBA_S3TC_DXT3_EXT = 0x83F2,
    COMPRESSED_RGBA_S3TC_DXT5_EXT = 0x83F3,
    SAMPLER_BINDING = 0x8919,
    SRGB8_ALPHA8 = 0x8C43,
    RGBA16F = 0x881A,
    RGBA32F = 0x8814,
    RGBA32UI = 0x8D70,
    RGBA32I = 0x8D82,
    DEPTH_COMPONENT = 0x1902,
    DEPTH_COMPONENT24 = 0x81A6,
    DEPTH24_STENCIL8 = 0x88F0,
    DEPTH_STENCIL = 0x84F9,
    STENCIL_INDEX = 0x1901,
    // clear bits
    DEPTH_BUFFER_BIT = 0x0100,
    STENCIL_BUFFER_BIT = 0x0400,
    COLOR_BUFFER_BIT = 0x4000,
    // queries
    SAMPLES_PASSED = 0x8914,
    ANY_SAMPLES_PASSED = 0x8C2F,
    PRIMITIVES_GENERATED = 0x8C87,
    TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN = 0x8C88,
    TIME_ELAPSED = 0x88BF,
    // transform feedback
    INTERLEAVED_ATTRIBS = 0x8C8C,
    SEPARATE_ATTRIBS = 0x8C8D,
    // matrices
    MODELVIEW = 0x1700,
    PROJECTION = 0x1701,
    TEXTURE = 0x1702,
    MATRIX0_ARB = 0x88C0,
    // lights, material, fog
    AMBIENT = 0x1200,
    DIFFUSE = 0x1201,
    SPECULAR = 0x1202,
    POSITION = 0x1203,
    SPOT_DIRECTION = 0x1204,
    SPOT_EXPONENT = 0x1205,
    SPOT_CUTOFF = 0x1206,
    CONSTANT_ATTENUATION = 0x1207,
    LINEAR_ATTENUATION = 0x1208,
    QUADRATIC_ATTENUATION = 0x1209,
    EMISSION = 0x1600,
    SHININESS = 0x1601,
    AMBIENT_AND_DIFFUSE = 0x1602,
    LIGHT_MODEL_AMBIENT = 0x0B53,
    FOG_DENSITY = 0x0B62,
    FOG_START = 0x0B63,
    FOG_END = 0x0B64,
    FOG_MODE = 0x0B65,
    FOG_COLOR = 0x0B66,
    EXP = 0x0800,
    EXP2 = 0x0801,
    // texgen / texenv
    S = 0x2000,
    T = 0x2001,
    R = 0x2002,
    Q = 0x2003,
    OBJECT_PLANE = 0x2501,
    EYE_PLANE = 0x2502,
    TEXTURE_ENV = 0x2300,
    TEXTURE_ENV_COLOR = 0x2201,
    // hints
    DONT_CARE = 0x1100,
    FASTEST = 0x1101,
    NICEST = 0x1102,
    PERSPECTIVE_CORRECTION_HINT = 0x0C50,
    POINT_SMOOTH_HINT = 0x0C51,
    LINE_SMOOTH_HINT = 0x0C52,
    POLYGON_SMOOTH_HINT = 0x0C53,
    FOG_HINT = 0x0C54,
    FRAGMENT_SHADER_DERIVATIVE_HINT = 0x8B8B,
    // client arrays
    VERTEX_ARRAY = 0x8074,
    NORMAL_ARRAY = 0x8075,
    COLOR_ARRAY = 0x8076,
    TEXTURE_COORD_ARRAY = 0x8078,
    SECONDARY_COLOR_ARRAY = 0x845E,
    FOG_COORD_ARRAY = 0x8457,
    INT_2_10_10_10_REV = 0x8D9F,
    UNSIGNED_INT_2_10_10_10_REV = 0x8368,
    BGRA = 0x80E1,
    // framebuffers
    FRAMEBUFFER = 0x8D40,
    READ_FRAMEBUFFER = 0x8CA8,
    DRAW_FRAMEBUFFER = 0x8CA9,
    RENDERBUFFER = 0x8D41,
    COLOR_ATTACHMENT0 = 0x8CE0,
    DEPTH_ATTACHMENT = 0x8D00,
    STENCIL_ATTACHMENT = 0x8D20,
    DEPTH_STENCIL_ATTACHMENT = 0x821A,
    FRAMEBUFFER_COMPLETE = 0x8CD5,
}

/// Looks an enum up by name; the `GL_` prefix is optional and case is ignored. Hex and
/// decimal numbers are accepted too (piglit allows `enable 0x0B71`).
///
/// ```
/// use glemu::gl::{self, enum_by_name};
/// assert_eq!(enum_by_name("GL_TRIANGLES"), Some(gl::TRIANGLES));
/// assert_eq!(enum_by_name("depth_test"), Some(gl::DEPTH_TEST));
/// assert_eq!(enum_by_name("0x0B71"), Some(0x0B71));
/// assert_eq!(enum_by_name("GL_LIGHT3"), Some(gl::LIGHT0 + 3));
/// assert_eq!(enum_by_name("NOT_AN_ENUM"), None);
/// ```
pub fn enum_by_name(name: &str) -> Option<u32> {
    let n = name.strip_prefix("GL_").unwrap_or(name);
    if let Some(hex) = n.strip_prefix("0x").or_else(|| n.strip_prefix("0X")) {
        return u32::from_str_radix(hex, 16).ok();
    }
    if let Ok(v) = n.parse::<u32>() {
        return Some(v);
    }
    // CLIP_PLANEn / CLIP_DISTANCEn / LIGHTn / TEXTUREn are families, not single names.
    for (prefix, base) in [
        ("CLIP_PLANE", CLIP_PLANE0),
        ("CLIP_DISTANCE", CLIP_DISTANCE0),
        ("LIGHT", LIGHT0),
        ("MATRIX", MATRIX0_ARB),
    ] {
        if let Some(rest) = n.to_ascii_uppercase().strip_prefix(prefix) {
            let rest = rest.strip_suffix("_ARB").unwrap_or(rest);
            if let Ok(i) = rest.parse::<u32>() {
                if i < 32 {
                    return Some(base + i);
                }
            }
        }
    }
    let upper = n.to_ascii_uppercase();
    let bare = ["_ARB", "_EXT", "_NV"]
        .iter()
        .find_map(|s| upper.strip_suffix(s))
        .unwrap_or(&upper);
    NAMES
        .iter()
        .find(|(k, _)| *k == upper || *k == bare)
        .map(|&(_, v)| v)
}

/// The canonical name of an error code, for messages.
///
/// ```
/// use glemu::gl;
/// assert_eq!(gl::error_name(gl::INVALID_VALUE), "GL_INVALID_VALUE");
/// assert_eq!(gl::error_name(0xFFFF), "GL_UNKNOWN_ERROR");
/// ```
pub fn error_name(code: u32) -> &'static str {
    match code {
        NO_ERROR => "GL_NO_ERROR",
        INVALID_ENUM => "GL_INVALID_ENUM",
        INVALID_VALUE => "GL_INVALID_VALUE",
        INVALID_OPERATION => "GL_INVALID_OPERATION",
        STACK_OVERFLOW => "GL_STACK_OVERFLOW",
        STACK_UNDERFLOW => "GL_STACK_UNDERFLOW",
        OUT_OF_MEMORY => "GL_OUT_OF_MEMORY",
        INVALID_FRAMEBUFFER_OPERATION => "GL_INVALID_FRAMEBUFFER_OPERATION",
        _ => "GL_UNKNOWN_ERROR",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_with_and_without_prefix() {
        assert_eq!(enum_by_name("GL_TRIANGLES"), Some(TRIANGLES));
        assert_eq!(enum_by_name("triangle_strip"), Some(TRIANGLE_STRIP));
        assert_eq!(enum_by_name("GL_CLIP_PLANE3"), Some(CLIP_PLANE0 + 3));
        assert_eq!(
            enum_by_name("GL_VERTEX_PROGRAM_ARB"),
            Some(VERTEX_PROGRAM_ARB)
        );
        assert_eq!(enum_by_name("0x0B71"), Some(DEPTH_TEST));
        assert_eq!(enum_by_name("GL_NOT_A_THING"), None);
    }
}
