//! `[test]` commands: one line → one [`Command`], parsed before anything runs so a bad
//! line is reported with what was expected. The types are here; `line` parses a line,
//! `probe` its probes, `args` reads the words.

mod args;
mod line;
mod probe;

pub use line::parse_command;

/// Which program-parameter array a `parameter` command writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
///
/// ```
/// use glemu::{gl, scene::{parse_command, Command}};
/// let Command::Parameter { kind, index, .. } = parse_command("parameter local_fp 3 (1, 2, 3, 4)").unwrap() else { panic!() };
/// assert_eq!((kind.target, kind.env, index), (gl::FRAGMENT_PROGRAM_ARB, false, 3));
/// ```
pub struct ParamKind {
    /// Program target enum (`VERTEX_PROGRAM_ARB`, ...).
    pub target: u32,
    /// `env_*` (true) or `local_*` (false).
    pub env: bool,
}

/// A texture pattern command.
#[derive(Clone, Debug, PartialEq)]
///
/// ```
/// use glemu::scene::{parse_command, Command};
/// assert!(matches!(parse_command("texture rgbw 0 (8, 8)").unwrap(), Command::Texture { .. }));
/// ```
pub enum TextureCmd {
    /// `texture rgbw N (W, H) [FORMAT]`.
    Rgbw {
        /// Width.
        w: u32,
        /// Height.
        h: u32,
        /// Internal format (GL enum), RGBA8 when absent.
        format: Option<u32>,
    },
    /// `texture rgbw 1D N`.
    Rgbw1D,
    /// `texture rgbw 3D N`.
    Rgbw3D,
    /// `texture checkerboard N LEVEL (W, H) (c0) (c1) [(SQW, SQH)]`.
    Checkerboard {
        /// Mipmap level.
        level: u32,
        /// Width.
        w: u32,
        /// Height.
        h: u32,
        /// Colour of the first square.
        c0: [f32; 4],
        /// Colour of the other squares.
        c1: [f32; 4],
        /// Square size (SQW, SQH); half the texture when absent.
        square: Option<(u32, u32)>,
    },
    /// `texture quads N LEVEL (W, H) (SW, SH) (bl) (br) (tl) (tr)`.
    Quads {
        /// Mipmap level.
        level: u32,
        /// Width.
        w: u32,
        /// Height.
        h: u32,
        /// Cell width (SW).
        sw: u32,
        /// Cell height (SH).
        sh: u32,
        /// Cell colours, repeating every two cells: bottom-left, bottom-right, top-left,
        /// top-right of each 2×2 block of cells.
        colors: [[f32; 4]; 4],
    },
    /// `texture miptree N`.
    Miptree,
    /// `texture shadow2D|shadowRect|shadow1D|shadow2DArray`.
    Shadow {
        /// Texture target (GL enum).
        target: u32,
        /// Width.
        w: u32,
        /// Height.
        h: u32,
        /// Array layers (1 for a non-array target).
        layers: u32,
    },
    /// `texture ramp N (W, H)`.
    Ramp {
        /// Width.
        w: u32,
        /// Height.
        h: u32,
    },
    /// `texture cube N (S)`.
    Cube {
        /// Face width and height.
        size: u32,
    },
    /// `texture layers N TARGET (W, H, L)`.
    Layers {
        /// Texture target (GL enum).
        target: u32,
        /// Width.
        w: u32,
        /// Height.
        h: u32,
        /// Layer (or depth) count.
        layers: u32,
    },
    /// `texture png N FILE [mipmap]`.
    Png {
        /// Image file, relative to the scene.
        file: String,
        /// Build the mipmap chain from it.
        mipmap: bool,
    },
}

/// Which matrix a `matrix` command loads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
///
/// ```
/// use glemu::scene::{parse_command, Command, MatrixTarget};
/// let c = parse_command("matrix texture2 identity").unwrap();
/// assert!(matches!(c, Command::Matrix(MatrixTarget::Texture(2), _)));
/// ```
pub enum MatrixTarget {
    /// The modelview matrix.
    ModelView,
    /// The projection matrix.
    Projection,
    /// Texture matrix of unit N.
    Texture(u32),
    /// Program matrix N (`state.matrix.program[n]`).
    Program(u32),
}

/// What a colour probe compares.
#[derive(Clone, Debug, PartialEq)]
///
/// ```
/// use glemu::scene::{parse_command, Command, ProbeRegion};
/// let c = parse_command("probe rect rgba (1, 2, 3, 4) (0, 0, 0, 1)").unwrap();
/// assert!(matches!(c, Command::ProbeColor { region: ProbeRegion::Rect(1, 2, 3, 4), rgba: true, .. }));
/// ```
pub enum ProbeRegion {
    /// One pixel in window coordinates.
    Pixel(i32, i32),
    /// A pixel at a fraction of the framebuffer.
    Relative(f64, f64),
    /// A rectangle in window coordinates.
    Rect(i32, i32, i32, i32),
    /// A rectangle in fractions of the framebuffer.
    RelativeRect(f64, f64, f64, f64),
    /// The whole framebuffer.
    All,
}

/// One `[test]` command.
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq)]
///
/// ```
/// use glemu::scene::{parse_command, Command};
/// assert_eq!(parse_command("depthmask off").unwrap(), Command::DepthMask(false));
/// assert!(parse_command("depthmask maybe").is_err());
/// ```
pub enum Command {
    ClearColor([f32; 4]),
    ClearDepth(f64),
    ClearStencil(i32),
    Clear,
    Size(u32, u32),
    Samples(u32),
    Viewport([i32; 4]),
    Scissor([i32; 4]),
    /// `viewport indexed I x y w h` (floats; glViewportIndexedf).
    ViewportIndexed(u32, [f32; 4]),
    /// `scissor indexed I x y w h` (glScissorIndexed).
    ScissorIndexed(u32, [i32; 4]),
    /// `depth range n f` / `depth range indexed I n f` (glDepthRange[Indexed]).
    DepthRange(Option<u32>, [f64; 2]),
    Enable(u32),
    Disable(u32),
    /// `enable CAP INDEX` / `disable CAP INDEX` (glEnablei / glDisablei).
    EnableIndexed(u32, u32, bool),
    DepthFunc(u32),
    DepthMask(bool),
    StencilFunc(u32, i32, u32),
    StencilOp(u32, u32, u32),
    BlendFunc(u32, u32, u32, u32),
    BlendEquation(u32, u32),
    BlendColor([f32; 4]),
    ColorMask([bool; 4]),
    CullFace(u32),
    FrontFace(u32),
    ShadeModel(u32),
    ProvokingVertex(u32),
    PolygonMode(u32, u32),
    PolygonOffset(f32, f32),
    PointSize(f32),
    LineWidth(f32),
    MinSampleShading(f32),
    SampleMask(u32),
    PrimitiveRestartIndex(u32),
    Color([f32; 4]),
    TexCoord(u32, [f32; 4]),
    ClipPlane(u32, [f64; 4]),
    Hint(u32, u32),
    Tolerance([f64; 4]),
    /// `ortho` with no arguments: window-pixel projection.
    OrthoWindow,
    Ortho([f64; 4]),
    Frustum([f64; 6]),
    /// `matrix NAME (16 floats) | identity` (None = identity).
    Matrix(MatrixTarget, Option<[f32; 16]>),
    Light(u32, u32, Vec<f32>),
    LightModelAmbient([f32; 4]),
    Material(u32, u32, Vec<f32>),
    Fog(u32, Vec<f32>),
    /// `parameter KIND N (...)`: raw bits of the 4 values.
    Parameter {
        kind: ParamKind,
        index: u32,
        bits: [u32; 4],
    },
    ParameterBuffer {
        stage: u32,
        binding: u32,
        offset: usize,
        data: Vec<u8>,
    },
    AtomicCounters {
        binding: u32,
        values: Vec<u32>,
    },
    ProbeAtomicCounter {
        binding: u32,
        index: u32,
        value: u32,
    },
    Buffer {
        name: String,
        size: usize,
        data: Vec<u8>,
    },
    BufferAddress {
        kind: ParamKind,
        index: u32,
        name: String,
        offset: u64,
    },
    ProbeBuffer {
        name: String,
        offset: usize,
        ty: String,
        values: Vec<f64>,
    },
    /// `compute X Y Z`: DispatchCompute.
    Compute([u32; 3]),
    /// `compute indirect NAME BYTE_OFFSET`: DispatchComputeIndirect from a `buffer`.
    ComputeIndirect {
        name: String,
        offset: u64,
    },
    /// `storage buffer N NAME`: binds a `buffer` to `program.storage[N]`.
    StorageBuffer {
        index: u32,
        name: String,
    },
    /// `memory barrier`: MemoryBarrier(ALL_BARRIER_BITS).
    MemoryBarrier,
    /// `map buffer NAME BYTE_OFFSET TYPE (v, ...)`: writes through a mapping of a `buffer`.
    MapBufferWrite {
        name: String,
        offset: u64,
        data: Vec<u8>,
    },
    /// `image unit N texture U FORMAT ACCESS [level L] [layer K]`: BindImageTexture with
    /// the texture a `texture` command bound to unit U (layered unless `layer` is given).
    ImageUnit {
        unit: u32,
        texture_unit: u32,
        format: u32,
        access: u32,
        level: i32,
        layer: Option<i32>,
    },
    /// `probe image N (x, y[, z]) (v, ...)`: the texel of the level bound to image unit N.
    ProbeImage {
        unit: u32,
        at: [u32; 3],
        values: Vec<f64>,
    },
    /// `draw transform feedback MODE [stream S] [instanced N]`: DrawTransformFeedback of
    /// what the last `begin/end transform feedback` captured.
    DrawTransformFeedback {
        mode: u32,
        stream: u32,
        instances: u32,
    },
    Texture {
        unit: u32,
        cmd: TextureCmd,
    },
    TexParameter {
        target: u32,
        pname: u32,
        values: Vec<f32>,
    },
    ActiveTexture(u32),
    DrawRect {
        ortho: bool,
        patch: bool,
        rect: [f32; 4],
        tex: Option<[f32; 4]>,
        instances: u32,
    },
    DrawArrays {
        mode: u32,
        first: u32,
        count: u32,
        instances: u32,
    },
    DrawElements {
        mode: u32,
        count: u32,
        base_vertex: i32,
        instances: u32,
    },
    DrawGrid(u32, u32),
    PatchVertices(u32),
    PatchOuter([f32; 4]),
    PatchInner([f32; 2]),
    XfbAttribs {
        stream: u32,
        names: Vec<String>,
    },
    XfbInterleaved(bool),
    XfbBuffer(u32, usize),
    BeginTransformFeedback(u32),
    EndTransformFeedback,
    ProbeXfb {
        index: u32,
        offset: usize,
        values: Vec<f32>,
    },
    ProbePrimitives {
        written: bool,
        stream: u32,
        count: u64,
    },
    ProbeSamplesPassed(u64),
    ProbeColor {
        region: ProbeRegion,
        rgba: bool,
        expected: [f64; 4],
    },
    ProbeDepth(i32, i32, f64),
    ProbeStencil(i32, i32, u32),
    ProbeSample {
        x: i32,
        y: i32,
        sample: u32,
        expected: [f64; 4],
    },
    ProbePng {
        file: String,
        tolerance: f64,
        pixels: usize,
    },
}

impl Command {
    /// Whether the line checks a result (a `probe ...` line) rather than changing state.
    ///
    /// ```
    /// use glemu::scene::parse_command;
    /// assert!(parse_command("probe all rgba 0 1 0 1").unwrap().is_probe());
    /// assert!(!parse_command("clear").unwrap().is_probe());
    /// ```
    pub fn is_probe(&self) -> bool {
        matches!(
            self,
            Command::ProbeAtomicCounter { .. }
                | Command::ProbeBuffer { .. }
                | Command::ProbeXfb { .. }
                | Command::ProbePrimitives { .. }
                | Command::ProbeSamplesPassed(_)
                | Command::ProbeColor { .. }
                | Command::ProbeDepth(..)
                | Command::ProbeStencil(..)
                | Command::ProbeSample { .. }
                | Command::ProbePng { .. }
        )
    }
}
