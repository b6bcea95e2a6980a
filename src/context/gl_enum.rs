//! GL enum parameters as Rust enums: a setter parses its raw `u32` once (`parse`, an
//! `INVALID_ENUM` for anything else) and stores the typed value, so a draw reads state
//! without converting it again. Each type's GL values are one table (`gl_enum!`) that
//! both directions are generated from: `to_gl` is an exhaustive match (a variant without
//! a GL value does not compile) and `from_gl` accepts exactly the table's values, so a
//! value a setter accepts always has a variant, and the draw never guesses.

use crate::caps::MAX_PROGRAM_MATRICES;
use crate::error::{Error, Result};
use crate::gl;
use glemu_pipeline::PrimitiveMode;
use glemu_raster::{
    BlendEquation, BlendFactor, CompareFunc, CullMode, FrontFace, LogicOp, PolygonMode, StencilOp,
};
use glemu_textures::upload::{PixelFormat, PixelType};
use glemu_textures::{CompareFunc as TexCompareFunc, DepthMode, Filter, MinFilter, Swizzle, Wrap};

/// A GL enum parameter with a Rust enum for its values.
pub(crate) trait GlEnum: Copy + Sized + 'static {
    /// What the parameter is called in an `INVALID_ENUM` message.
    const WHAT: &'static str;
    /// Every value, in the table's order (the tests walk it).
    #[cfg(test)]
    const ALL: &'static [Self];
    /// The GL value.
    fn to_gl(self) -> u32;
    /// The value for a GL enum, `None` for one the parameter does not take.
    fn from_gl(v: u32) -> Option<Self>;
    /// `from_gl`, or the `INVALID_ENUM` a setter reports.
    fn parse(v: u32) -> Result<Self> {
        Self::from_gl(v).ok_or_else(|| Error::invalid_enum(Self::WHAT, v))
    }
}

/// `gl_enum!(Type, "what" { Variant = gl::VALUE, ... })`: the `GlEnum` impl of a table;
/// `gl_enum!(/// docs\n enum Type, "what" { ... })` also declares the enum from it.
macro_rules! gl_enum {
    // glemu's own parameter types: the enum is declared from its table too.
    ($(#[$doc:meta])* enum $ty:ident, $what:literal { $($variant:ident = $gl:path),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub(crate) enum $ty {
            $($variant),+
        }
        gl_enum!($ty, $what { $($variant = $gl),+ });
    };
    ($ty:ident, $what:literal { $($variant:ident = $gl:path),+ $(,)? }) => {
        impl GlEnum for $ty {
            const WHAT: &'static str = $what;
            #[cfg(test)]
            const ALL: &'static [Self] = &[$($ty::$variant),+];
            fn to_gl(self) -> u32 {
                match self {
                    $($ty::$variant => $gl,)+
                }
            }
            fn from_gl(v: u32) -> Option<Self> {
                match v {
                    $($gl => Some($ty::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

gl_enum!(CompareFunc, "comparison function" {
    Never = gl::NEVER,
    Less = gl::LESS,
    Equal = gl::EQUAL,
    LessEqual = gl::LEQUAL,
    Greater = gl::GREATER,
    NotEqual = gl::NOTEQUAL,
    GreaterEqual = gl::GEQUAL,
    Always = gl::ALWAYS,
});

gl_enum!(StencilOp, "stencil operation" {
    Keep = gl::KEEP,
    Zero = gl::ZERO,
    Replace = gl::REPLACE,
    Incr = gl::INCR,
    Decr = gl::DECR,
    Invert = gl::INVERT,
    IncrWrap = gl::INCR_WRAP,
    DecrWrap = gl::DECR_WRAP,
});

gl_enum!(BlendFactor, "blend factor" {
    Zero = gl::ZERO,
    One = gl::ONE,
    SrcColor = gl::SRC_COLOR,
    OneMinusSrcColor = gl::ONE_MINUS_SRC_COLOR,
    DstColor = gl::DST_COLOR,
    OneMinusDstColor = gl::ONE_MINUS_DST_COLOR,
    SrcAlpha = gl::SRC_ALPHA,
    OneMinusSrcAlpha = gl::ONE_MINUS_SRC_ALPHA,
    DstAlpha = gl::DST_ALPHA,
    OneMinusDstAlpha = gl::ONE_MINUS_DST_ALPHA,
    ConstantColor = gl::CONSTANT_COLOR,
    OneMinusConstantColor = gl::ONE_MINUS_CONSTANT_COLOR,
    ConstantAlpha = gl::CONSTANT_ALPHA,
    OneMinusConstantAlpha = gl::ONE_MINUS_CONSTANT_ALPHA,
    SrcAlphaSaturate = gl::SRC_ALPHA_SATURATE,
    Src1Color = gl::SRC1_COLOR,
    OneMinusSrc1Color = gl::ONE_MINUS_SRC1_COLOR,
    Src1Alpha = gl::SRC1_ALPHA,
    OneMinusSrc1Alpha = gl::ONE_MINUS_SRC1_ALPHA,
});

gl_enum!(BlendEquation, "blend equation" {
    Add = gl::FUNC_ADD,
    Subtract = gl::FUNC_SUBTRACT,
    ReverseSubtract = gl::FUNC_REVERSE_SUBTRACT,
    Min = gl::MIN,
    Max = gl::MAX,
});

gl_enum!(LogicOp, "logic operation" {
    Clear = gl::CLEAR,
    And = gl::AND,
    AndReverse = gl::AND_REVERSE,
    Copy = gl::COPY,
    AndInverted = gl::AND_INVERTED,
    Noop = gl::NOOP,
    Xor = gl::XOR,
    Or = gl::OR,
    Nor = gl::NOR,
    Equiv = gl::EQUIV,
    Invert = gl::INVERT,
    OrReverse = gl::OR_REVERSE,
    CopyInverted = gl::COPY_INVERTED,
    OrInverted = gl::OR_INVERTED,
    Nand = gl::NAND,
    Set = gl::SET,
});

gl_enum!(FrontFace, "front face" {
    Cw = gl::CW,
    Ccw = gl::CCW,
});

gl_enum!(PolygonMode, "polygon mode" {
    Point = gl::POINT,
    Line = gl::LINE,
    Fill = gl::FILL,
});

gl_enum!(PrimitiveMode, "primitive mode" {
    Points = gl::POINTS,
    Lines = gl::LINES,
    LineLoop = gl::LINE_LOOP,
    LineStrip = gl::LINE_STRIP,
    Triangles = gl::TRIANGLES,
    TriangleStrip = gl::TRIANGLE_STRIP,
    TriangleFan = gl::TRIANGLE_FAN,
    Quads = gl::QUADS,
    QuadStrip = gl::QUAD_STRIP,
    Polygon = gl::POLYGON,
    LinesAdjacency = gl::LINES_ADJACENCY,
    LineStripAdjacency = gl::LINE_STRIP_ADJACENCY,
    TrianglesAdjacency = gl::TRIANGLES_ADJACENCY,
    TriangleStripAdjacency = gl::TRIANGLE_STRIP_ADJACENCY,
    Patches = gl::PATCHES,
});

gl_enum!(Wrap, "texture wrap mode" {
    Repeat = gl::REPEAT,
    MirroredRepeat = gl::MIRRORED_REPEAT,
    Clamp = gl::CLAMP,
    ClampToEdge = gl::CLAMP_TO_EDGE,
    ClampToBorder = gl::CLAMP_TO_BORDER,
    MirrorClamp = gl::MIRROR_CLAMP_EXT,
    MirrorClampToEdge = gl::MIRROR_CLAMP_TO_EDGE,
    MirrorClampToBorder = gl::MIRROR_CLAMP_TO_BORDER_EXT,
});

gl_enum!(Filter, "magnification filter" {
    Nearest = gl::NEAREST,
    Linear = gl::LINEAR,
});

gl_enum!(TexCompareFunc, "texture comparison function" {
    Never = gl::NEVER,
    Less = gl::LESS,
    Equal = gl::EQUAL,
    Lequal = gl::LEQUAL,
    Greater = gl::GREATER,
    Notequal = gl::NOTEQUAL,
    Gequal = gl::GEQUAL,
    Always = gl::ALWAYS,
});

gl_enum!(DepthMode, "depth texture mode" {
    Luminance = gl::LUMINANCE,
    Intensity = gl::INTENSITY,
    Alpha = gl::ALPHA,
    Red = gl::RED,
});

gl_enum!(Swizzle, "texture swizzle" {
    R = gl::RED,
    G = gl::GREEN,
    B = gl::BLUE,
    A = gl::ALPHA,
    Zero = gl::ZERO,
    One = gl::ONE,
});

/// The minification filter: a filter within a level and, with mipmapping, one between
/// levels (a struct, so its table is written out).
impl GlEnum for MinFilter {
    const WHAT: &'static str = "minification filter";
    #[cfg(test)]
    const ALL: &'static [Self] = &[
        MinFilter {
            filter: Filter::Nearest,
            mipmap: None,
        },
        MinFilter {
            filter: Filter::Linear,
            mipmap: None,
        },
        MinFilter {
            filter: Filter::Nearest,
            mipmap: Some(Filter::Nearest),
        },
        MinFilter {
            filter: Filter::Linear,
            mipmap: Some(Filter::Nearest),
        },
        MinFilter {
            filter: Filter::Nearest,
            mipmap: Some(Filter::Linear),
        },
        MinFilter {
            filter: Filter::Linear,
            mipmap: Some(Filter::Linear),
        },
    ];
    fn to_gl(self) -> u32 {
        use Filter::{Linear, Nearest};
        match (self.filter, self.mipmap) {
            (Nearest, None) => gl::NEAREST,
            (Linear, None) => gl::LINEAR,
            (Nearest, Some(Nearest)) => gl::NEAREST_MIPMAP_NEAREST,
            (Linear, Some(Nearest)) => gl::LINEAR_MIPMAP_NEAREST,
            (Nearest, Some(Linear)) => gl::NEAREST_MIPMAP_LINEAR,
            (Linear, Some(Linear)) => gl::LINEAR_MIPMAP_LINEAR,
        }
    }
    fn from_gl(v: u32) -> Option<Self> {
        use Filter::{Linear, Nearest};
        let (filter, mipmap) = match v {
            gl::NEAREST => (Nearest, None),
            gl::LINEAR => (Linear, None),
            gl::NEAREST_MIPMAP_NEAREST => (Nearest, Some(Nearest)),
            gl::LINEAR_MIPMAP_NEAREST => (Linear, Some(Nearest)),
            gl::NEAREST_MIPMAP_LINEAR => (Nearest, Some(Linear)),
            gl::LINEAR_MIPMAP_LINEAR => (Linear, Some(Linear)),
            _ => return None,
        };
        Some(MinFilter { filter, mipmap })
    }
}

gl_enum!(
    /// The faces a face parameter names (glCullFace, glStencilFuncSeparate, glPolygonMode).
    enum Face, "face" {
        Front = gl::FRONT,
        Back = gl::BACK,
        FrontAndBack = gl::FRONT_AND_BACK,
    }
);

impl Face {
    /// Indices of the per-face state it selects: 0 = front, 1 = back.
    pub(crate) fn indices(self) -> &'static [usize] {
        match self {
            Face::Front => &[0],
            Face::Back => &[1],
            Face::FrontAndBack => &[0, 1],
        }
    }

    /// The rasterizer's culling when GL_CULL_FACE is on.
    pub(crate) fn cull_mode(self) -> CullMode {
        match self {
            Face::Front => CullMode::Front,
            Face::Back => CullMode::Back,
            Face::FrontAndBack => CullMode::FrontAndBack,
        }
    }
}

gl_enum!(
    /// glShadeModel.
    enum ShadeModel, "shade model" {
        Flat = gl::FLAT,
        Smooth = gl::SMOOTH,
    }
);

gl_enum!(
    /// glProvokingVertex.
    enum ProvokingVertex, "provoking vertex" {
        First = gl::FIRST_VERTEX_CONVENTION,
        Last = gl::LAST_VERTEX_CONVENTION,
    }
);

gl_enum!(
    /// glFog's `FOG_MODE`: the fixed-function fog factor.
    enum FogMode, "fog mode" {
        Linear = gl::LINEAR,
        Exp = gl::EXP,
        Exp2 = gl::EXP2,
    }
);

gl_enum!(
    /// glFog's `FOG_COORD_SRC`: what the fog factor is computed from.
    enum FogCoordSrc, "fog coordinate source" {
        FragmentDepth = gl::FRAGMENT_DEPTH,
        FogCoord = gl::FOG_COORD,
    }
);

gl_enum!(
    /// glColorMaterial's `mode`: the material property that tracks the vertex colour.
    enum ColorMaterialMode, "colour material mode" {
        Emission = gl::EMISSION,
        Ambient = gl::AMBIENT,
        Diffuse = gl::DIFFUSE,
        Specular = gl::SPECULAR,
        AmbientAndDiffuse = gl::AMBIENT_AND_DIFFUSE,
    }
);

/// glMatrixMode: the matrix the matrix calls change.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum MatrixMode {
    ModelView,
    Projection,
    /// The active texture unit's.
    Texture,
    /// `MATRIXn_ARB`, `n` below `MAX_PROGRAM_MATRICES`.
    Program(u32),
}

impl MatrixMode {
    pub(crate) fn to_gl(self) -> u32 {
        match self {
            MatrixMode::ModelView => gl::MODELVIEW,
            MatrixMode::Projection => gl::PROJECTION,
            MatrixMode::Texture => gl::TEXTURE,
            MatrixMode::Program(n) => gl::MATRIX0_ARB + n,
        }
    }

    pub(crate) fn parse(mode: u32) -> Result<MatrixMode> {
        let programs = gl::MATRIX0_ARB..gl::MATRIX0_ARB + MAX_PROGRAM_MATRICES as u32;
        Ok(match mode {
            gl::MODELVIEW => MatrixMode::ModelView,
            gl::PROJECTION => MatrixMode::Projection,
            gl::TEXTURE => MatrixMode::Texture,
            m if programs.contains(&m) => MatrixMode::Program(m - gl::MATRIX0_ARB),
            m => return Err(Error::invalid_enum("matrix mode", m)),
        })
    }
}

gl_enum!(
    /// glTrackMatrixNV's `transform`: how the tracked matrix is written.
    enum TrackTransform, "TrackMatrixNV transform" {
        Identity = gl::IDENTITY_NV,
        Inverse = gl::INVERSE_NV,
        Transpose = gl::TRANSPOSE_NV,
        InverseTranspose = gl::INVERSE_TRANSPOSE_NV,
    }
);

/// glTrackMatrixNV's `matrix`: a matrix glMatrixMode selects, or the product
/// `MODELVIEW_PROJECTION_NV`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum TrackedMatrix {
    Mode(MatrixMode),
    ModelViewProjection,
}

impl TrackedMatrix {
    #[cfg(test)]
    pub(crate) fn to_gl(self) -> u32 {
        match self {
            TrackedMatrix::Mode(m) => m.to_gl(),
            TrackedMatrix::ModelViewProjection => gl::MODELVIEW_PROJECTION_NV,
        }
    }

    pub(crate) fn parse(matrix: u32) -> Result<TrackedMatrix> {
        match matrix {
            gl::MODELVIEW_PROJECTION_NV => Ok(TrackedMatrix::ModelViewProjection),
            m => MatrixMode::parse(m)
                .map(TrackedMatrix::Mode)
                .map_err(|_| Error::invalid_enum("TrackMatrixNV matrix", m)),
        }
    }
}

/// A GL pixel `format` enum as glemu-textures' layout, through its GL name.
pub(crate) fn pixel_format(format: u32) -> Result<PixelFormat> {
    gl::NAMES
        .iter()
        .filter(|(_, v)| *v == format)
        .find_map(|(n, _)| PixelFormat::from_name(n))
        .ok_or_else(|| Error::invalid_enum("pixel format", format))
}

/// A GL pixel `type` enum as glemu-textures' element type, through its GL name.
pub(crate) fn pixel_type(ty: u32) -> Result<PixelType> {
    gl::NAMES
        .iter()
        .filter(|(_, v)| *v == ty)
        .find_map(|(n, _)| PixelType::from_name(n))
        .ok_or_else(|| Error::invalid_enum("pixel type", ty))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value survives GL and back, and no two share a GL value.
    fn round_trips<T: GlEnum + PartialEq + std::fmt::Debug>() {
        for (i, &v) in T::ALL.iter().enumerate() {
            assert_eq!(T::from_gl(v.to_gl()), Some(v), "{}: {v:?}", T::WHAT);
            for &w in &T::ALL[..i] {
                assert_ne!(v.to_gl(), w.to_gl(), "{}: {v:?} and {w:?}", T::WHAT);
            }
        }
        let e = T::parse(gl::TEXTURE_2D).unwrap_err();
        assert_eq!(e.gl, crate::GlError::InvalidEnum, "{}", T::WHAT);
        assert!(e.message.contains(T::WHAT), "{}", e.message);
    }

    #[test]
    fn every_setter_enum_round_trips() {
        round_trips::<CompareFunc>();
        round_trips::<StencilOp>();
        round_trips::<BlendFactor>();
        round_trips::<BlendEquation>();
        round_trips::<LogicOp>();
        round_trips::<FrontFace>();
        round_trips::<PolygonMode>();
        round_trips::<PrimitiveMode>();
        round_trips::<Face>();
        round_trips::<ShadeModel>();
        round_trips::<ProvokingVertex>();
        round_trips::<FogMode>();
        round_trips::<FogCoordSrc>();
        round_trips::<ColorMaterialMode>();
        round_trips::<TrackTransform>();
        round_trips::<Wrap>();
        round_trips::<Filter>();
        round_trips::<MinFilter>();
        round_trips::<TexCompareFunc>();
        round_trips::<DepthMode>();
        round_trips::<Swizzle>();
    }

    #[test]
    fn matrix_modes_round_trip() {
        let programs = (0..MAX_PROGRAM_MATRICES as u32).map(MatrixMode::Program);
        let modes = [
            MatrixMode::ModelView,
            MatrixMode::Projection,
            MatrixMode::Texture,
        ];
        for m in modes.into_iter().chain(programs) {
            assert_eq!(MatrixMode::parse(m.to_gl()).unwrap(), m);
        }
        let tracked = [
            TrackedMatrix::ModelViewProjection,
            TrackedMatrix::Mode(MatrixMode::Texture),
        ];
        for m in tracked {
            assert_eq!(TrackedMatrix::parse(m.to_gl()).unwrap(), m);
        }
        let past = gl::MATRIX0_ARB + MAX_PROGRAM_MATRICES as u32;
        assert!(TrackedMatrix::parse(past).is_err());
        assert!(MatrixMode::parse(past).is_err());
        assert!(MatrixMode::parse(gl::TRIANGLES).is_err());
    }
}
