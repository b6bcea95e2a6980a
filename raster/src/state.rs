//! Fixed-function state a draw needs: rasterization, multisample, depth/stencil, blending.
//!
//! The pipeline snapshots GL state into a [`FixedFunctionState`] per draw. Defaults are GL's initial
//! state (no tests, no blending, CCW front faces, no culling).

/// Maximum number of colour attachments / fragment colour outputs.
pub const MAX_COLOR_TARGETS: usize = 8;

/// Viewports a primitive can be routed to (ARB_viewport_array's `MAX_VIEWPORTS`).
pub const MAX_VIEWPORTS: usize = 16;

/// Comparison used by depth and stencil tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CompareFunc {
    /// GL_NEVER: always fails.
    Never,
    #[default]
    /// GL_LESS.
    Less,
    /// GL_EQUAL.
    Equal,
    /// GL_LEQUAL.
    LessEqual,
    /// GL_GREATER.
    Greater,
    /// GL_NOTEQUAL.
    NotEqual,
    /// GL_GEQUAL.
    GreaterEqual,
    /// GL_ALWAYS: always passes.
    Always,
}

impl CompareFunc {
    /// `a FUNC b` (fragment value on the left, stored value on the right).
    #[inline]
    pub fn test<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            CompareFunc::Never => false,
            CompareFunc::Less => a < b,
            CompareFunc::Equal => a == b,
            CompareFunc::LessEqual => a <= b,
            CompareFunc::Greater => a > b,
            CompareFunc::NotEqual => a != b,
            CompareFunc::GreaterEqual => a >= b,
            CompareFunc::Always => true,
        }
    }
}

/// `$call` with `$cmp` bound to [`CompareFunc::test`]'s comparison of `$func` on u32 words
/// as a closure of its own per function (so each call site's per-sample loop is
/// specialised, with no branch on the state); `$never` for GL_NEVER instead.
macro_rules! per_compare {
    ($func:expr, never => $never:expr, |$cmp:ident| $call:expr) => {{
        use $crate::state::CompareFunc as F;
        match $func {
            F::Never => $never,
            F::Less => {
                let $cmp = |a: u32, b: u32| a < b;
                $call
            }
            F::Equal => {
                let $cmp = |a: u32, b: u32| a == b;
                $call
            }
            F::LessEqual => {
                let $cmp = |a: u32, b: u32| a <= b;
                $call
            }
            F::Greater => {
                let $cmp = |a: u32, b: u32| a > b;
                $call
            }
            F::NotEqual => {
                let $cmp = |a: u32, b: u32| a != b;
                $call
            }
            F::GreaterEqual => {
                let $cmp = |a: u32, b: u32| a >= b;
                $call
            }
            F::Always => {
                let $cmp = |_: u32, _: u32| true;
                $call
            }
        }
    }};
}
pub(crate) use per_compare;

/// Stencil update operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StencilOp {
    #[default]
    /// GL_KEEP: leave the stored value.
    Keep,
    /// GL_ZERO: store 0.
    Zero,
    /// GL_REPLACE: store the reference value.
    Replace,
    /// GL_INCR: increment, clamped at the maximum.
    Incr,
    /// GL_DECR: decrement, clamped at 0.
    Decr,
    /// GL_INVERT: bitwise complement.
    Invert,
    /// GL_INCR_WRAP: increment, wrapping to 0.
    IncrWrap,
    /// GL_DECR_WRAP: decrement, wrapping to the maximum.
    DecrWrap,
}

/// Stencil state of one face.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StencilFace {
    /// Comparison of the reference against the stored value.
    pub func: CompareFunc,
    /// Reference value (clamped to the 8-bit range when used).
    pub reference: i32,
    /// Bits of reference and stored value the test compares.
    pub value_mask: u32,
    /// Bits the stencil update may change.
    pub write_mask: u32,
    /// Operation when the stencil test fails.
    pub fail: StencilOp,
    /// Operation when the stencil test passes and the depth test fails.
    pub depth_fail: StencilOp,
    /// Operation when both tests pass (or the depth test is off).
    pub pass: StencilOp,
}

impl Default for StencilFace {
    fn default() -> Self {
        StencilFace {
            func: CompareFunc::Always,
            reference: 0,
            value_mask: !0,
            write_mask: !0,
            fail: StencilOp::Keep,
            depth_fail: StencilOp::Keep,
            pass: StencilOp::Keep,
        }
    }
}

/// Depth and stencil tests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DepthStencilState {
    /// GL_DEPTH_TEST.
    pub depth_test: bool,
    /// glDepthFunc.
    pub depth_func: CompareFunc,
    /// Depth writes (GL depth mask); only effective when the depth test is enabled.
    pub depth_write: bool,
    /// GL_DEPTH_CLAMP: fragment depth is clamped to the primitive's viewport depth range
    /// ([`ViewportState::depth_range`]) instead of [0, 1].
    pub depth_clamp: bool,
    /// GL_STENCIL_TEST.
    pub stencil_test: bool,
    /// Stencil state of front-facing primitives (and of points and lines).
    pub front: StencilFace,
    /// Stencil state of back-facing triangles.
    pub back: StencilFace,
    /// Ask for depth/stencil tests before the shader even when the rasterizer could not
    /// prove it safe (EXT_shader_image_load_store's early_fragment_tests).
    pub force_early_tests: bool,
}

impl Default for DepthStencilState {
    fn default() -> Self {
        DepthStencilState {
            depth_test: false,
            depth_func: CompareFunc::Less,
            depth_write: true,
            depth_clamp: false,
            stencil_test: false,
            front: StencilFace::default(),
            back: StencilFace::default(),
            force_early_tests: false,
        }
    }
}

/// Blend factor (GL names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BlendFactor {
    /// GL_ZERO.
    Zero,
    #[default]
    /// GL_ONE.
    One,
    /// GL_SRC_COLOR.
    SrcColor,
    /// GL_ONE_MINUS_SRC_COLOR.
    OneMinusSrcColor,
    /// GL_DST_COLOR.
    DstColor,
    /// GL_ONE_MINUS_DST_COLOR.
    OneMinusDstColor,
    /// GL_SRC_ALPHA.
    SrcAlpha,
    /// GL_ONE_MINUS_SRC_ALPHA.
    OneMinusSrcAlpha,
    /// GL_DST_ALPHA.
    DstAlpha,
    /// GL_ONE_MINUS_DST_ALPHA.
    OneMinusDstAlpha,
    /// GL_CONSTANT_COLOR: the blend colour.
    ConstantColor,
    /// GL_ONE_MINUS_CONSTANT_COLOR.
    OneMinusConstantColor,
    /// GL_CONSTANT_ALPHA: the blend colour's alpha.
    ConstantAlpha,
    /// GL_ONE_MINUS_CONSTANT_ALPHA.
    OneMinusConstantAlpha,
    /// GL_SRC_ALPHA_SATURATE: min(source alpha, 1 - destination alpha); alpha 1.
    SrcAlphaSaturate,
    /// GL_SRC1_COLOR: the second (dual-source) colour output.
    Src1Color,
    /// GL_ONE_MINUS_SRC1_COLOR.
    OneMinusSrc1Color,
    /// GL_SRC1_ALPHA: the second colour output's alpha.
    Src1Alpha,
    /// GL_ONE_MINUS_SRC1_ALPHA.
    OneMinusSrc1Alpha,
}

impl BlendFactor {
    /// Whether the factor reads the second (dual-source) colour.
    pub fn is_dual_source(self) -> bool {
        matches!(
            self,
            BlendFactor::Src1Color
                | BlendFactor::OneMinusSrc1Color
                | BlendFactor::Src1Alpha
                | BlendFactor::OneMinusSrc1Alpha
        )
    }
}

/// Blend equation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BlendEquation {
    #[default]
    /// GL_FUNC_ADD: source × factor + destination × factor.
    Add,
    /// GL_FUNC_SUBTRACT: source term minus destination term.
    Subtract,
    /// GL_FUNC_REVERSE_SUBTRACT: destination term minus source term.
    ReverseSubtract,
    /// GL_MIN: the smaller value, factors ignored.
    Min,
    /// GL_MAX: the larger value, factors ignored.
    Max,
}

/// Logic operation (glLogicOp); applies to UNORM and integer targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogicOp {
    /// GL_CLEAR: 0.
    Clear,
    /// GL_AND: s & d.
    And,
    /// GL_AND_REVERSE: s & !d.
    AndReverse,
    #[default]
    /// GL_COPY: s.
    Copy,
    /// GL_AND_INVERTED: !s & d.
    AndInverted,
    /// GL_NOOP: d.
    Noop,
    /// GL_XOR: s ^ d.
    Xor,
    /// GL_OR: s | d.
    Or,
    /// GL_NOR: !(s | d).
    Nor,
    /// GL_EQUIV: !(s ^ d).
    Equiv,
    /// GL_INVERT: !d.
    Invert,
    /// GL_OR_REVERSE: s | !d.
    OrReverse,
    /// GL_COPY_INVERTED: !s.
    CopyInverted,
    /// GL_OR_INVERTED: !s | d.
    OrInverted,
    /// GL_NAND: !(s & d).
    Nand,
    /// GL_SET: all ones.
    Set,
}

/// Blending and write mask of one colour target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlendTarget {
    /// GL_BLEND for this target.
    pub enabled: bool,
    /// Source factor of the colour channels.
    pub src_rgb: BlendFactor,
    /// Destination factor of the colour channels.
    pub dst_rgb: BlendFactor,
    /// Source factor of alpha.
    pub src_alpha: BlendFactor,
    /// Destination factor of alpha.
    pub dst_alpha: BlendFactor,
    /// Equation of the colour channels.
    pub eq_rgb: BlendEquation,
    /// Equation of alpha.
    pub eq_alpha: BlendEquation,
    /// Write mask per channel (r, g, b, a).
    pub color_mask: [bool; 4],
}

impl BlendTarget {
    /// Whether a factor reads the second source colour (dual-source blending).
    pub fn uses_src1(&self) -> bool {
        [self.src_rgb, self.dst_rgb, self.src_alpha, self.dst_alpha]
            .iter()
            .any(|f| f.is_dual_source())
    }
}

impl Default for BlendTarget {
    fn default() -> Self {
        BlendTarget {
            enabled: false,
            src_rgb: BlendFactor::One,
            dst_rgb: BlendFactor::Zero,
            src_alpha: BlendFactor::One,
            dst_alpha: BlendFactor::Zero,
            eq_rgb: BlendEquation::Add,
            eq_alpha: BlendEquation::Add,
            color_mask: [true; 4],
        }
    }
}

/// Blending of every target.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlendState {
    /// Per colour attachment.
    pub targets: [BlendTarget; MAX_COLOR_TARGETS],
    /// glBlendColor.
    pub constant: [f32; 4],
    /// Logic op replaces blending when set (GL_COLOR_LOGIC_OP enabled).
    pub logic_op: Option<LogicOp>,
    /// GL_FRAMEBUFFER_SRGB: sRGB attachments encode on write and decode for blending.
    pub framebuffer_srgb: bool,
    /// Which fragment colour output feeds each attachment (glDrawBuffers); `None` = no
    /// writes. Default: output i → attachment i.
    pub draw_buffers: [Option<u8>; MAX_COLOR_TARGETS],
}

impl Default for BlendState {
    fn default() -> Self {
        let mut draw_buffers = [None; MAX_COLOR_TARGETS];
        for (i, d) in draw_buffers.iter_mut().enumerate() {
            *d = Some(i as u8);
        }
        BlendState {
            targets: [BlendTarget::default(); MAX_COLOR_TARGETS],
            constant: [0.0; 4],
            logic_op: None,
            framebuffer_srgb: false,
            draw_buffers,
        }
    }
}

/// Which winding is front-facing (window coordinates, y up).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FrontFace {
    #[default]
    /// Counter-clockwise triangles face front (GL_CCW).
    Ccw,
    /// Clockwise triangles face front (GL_CW).
    Cw,
}

/// Which faces are culled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CullMode {
    #[default]
    /// No culling.
    None,
    /// Front-facing triangles are culled.
    Front,
    /// Back-facing triangles are culled.
    Back,
    /// Every triangle is culled (points and lines still draw).
    FrontAndBack,
}

/// How a polygon face is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PolygonMode {
    #[default]
    /// Filled (GL_FILL).
    Fill,
    /// Edges drawn as lines (GL_LINE).
    Line,
    /// Vertices drawn as points (GL_POINT).
    Point,
}

/// glPolygonOffset plus its three enables.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PolygonOffset {
    /// Scales the triangle's maximum depth slope.
    pub factor: f32,
    /// Scales the depth format's smallest resolvable difference.
    pub units: f32,
    /// GL_POLYGON_OFFSET_FILL.
    pub fill: bool,
    /// GL_POLYGON_OFFSET_LINE.
    pub line: bool,
    /// GL_POLYGON_OFFSET_POINT.
    pub point: bool,
}

/// Where point-sprite coordinate (0, 0) is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PointSpriteOrigin {
    #[default]
    /// GL_UPPER_LEFT: t grows downward.
    UpperLeft,
    /// GL_LOWER_LEFT: t grows upward.
    LowerLeft,
}

/// A window-space rectangle in pixels (x, y = lower-left corner, GL convention).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rect {
    /// Left edge.
    pub x: i32,
    /// Bottom edge.
    pub y: i32,
    /// Width in pixels.
    pub width: i32,
    /// Height in pixels.
    pub height: i32,
}

/// What the rasterizer needs of one viewport (ARB_viewport_array): each primitive names
/// its viewport ([`crate::Primitive::viewport`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewportState {
    /// The pixels whose centre lies in the viewport rectangle; `None` = no bound but the
    /// framebuffer. It bounds filled triangles only: the pipeline clips those in x and y
    /// to a guard band far outside the viewport, and this rectangle gives the image
    /// clipping them to the view volume would (exactly for viewports on whole pixels).
    /// Points and lines are clipped to the view volume itself, so that a wide point or
    /// line whose centre is inside may cover pixels outside the viewport, as GL says.
    pub rect: Option<Rect>,
    /// The scissor box when this viewport's scissor test is enabled.
    pub scissor: Option<Rect>,
    /// glDepthRangeIndexed (near, far), used by depth clamp.
    pub depth_range: [f32; 2],
}

impl Default for ViewportState {
    fn default() -> Self {
        ViewportState {
            rect: None,
            scissor: None,
            depth_range: [0.0, 1.0],
        }
    }
}

/// Primitive rasterization state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RasterState {
    /// Which winding faces front.
    pub front_face: FrontFace,
    /// Which faces are culled.
    pub cull: CullMode,
    /// How front-facing triangles are drawn.
    pub polygon_mode_front: PolygonMode,
    /// How back-facing triangles are drawn.
    pub polygon_mode_back: PolygonMode,
    /// Depth offset of triangles (and their lines and points in polygon mode).
    pub polygon_offset: PolygonOffset,
    /// Line width in pixels (aliased lines; widths are rounded as GL specifies, min 1).
    pub line_width: f32,
    /// Point size when the vertex does not supply one (`WindowVertex::point_size` < 0).
    pub point_size: f32,
    /// Point sprites: points are squares and `point_coord` is meaningful.
    pub point_sprite: bool,
    /// Where sprite coordinate (0, 0) lies.
    pub point_sprite_origin: PointSpriteOrigin,
    /// Viewport rectangle, scissor and depth range per viewport index.
    pub viewports: [ViewportState; MAX_VIEWPORTS],
}

impl Default for RasterState {
    fn default() -> Self {
        RasterState {
            front_face: FrontFace::Ccw,
            cull: CullMode::None,
            polygon_mode_front: PolygonMode::Fill,
            polygon_mode_back: PolygonMode::Fill,
            polygon_offset: PolygonOffset::default(),
            line_width: 1.0,
            point_size: 1.0,
            point_sprite: false,
            point_sprite_origin: PointSpriteOrigin::UpperLeft,
            viewports: [ViewportState::default(); MAX_VIEWPORTS],
        }
    }
}

/// Multisample state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MultisampleState {
    /// GL_MULTISAMPLE. When off on a multisampled framebuffer, coverage is decided at the
    /// pixel centre and applies to every sample.
    pub enabled: bool,
    /// glSampleMaski word 0 (when GL_SAMPLE_MASK is off leave it all ones).
    pub sample_mask: u32,
    /// GL_SAMPLE_ALPHA_TO_COVERAGE: alpha of output 0 masks samples.
    pub alpha_to_coverage: bool,
    /// GL_SAMPLE_ALPHA_TO_ONE: alpha is replaced by 1 after coverage.
    pub alpha_to_one: bool,
    /// GL_SAMPLE_SHADING with its minimum fraction; per-sample shading happens when
    /// `min_fraction * samples > 1`.
    pub sample_shading: Option<f32>,
}

impl Default for MultisampleState {
    fn default() -> Self {
        MultisampleState {
            enabled: true,
            sample_mask: !0,
            alpha_to_coverage: false,
            alpha_to_one: false,
            sample_shading: None,
        }
    }
}

/// Everything fixed-function a draw needs.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FixedFunctionState {
    /// Primitive rasterization: facing, culling, polygon mode, offset, points, lines,
    /// viewports.
    pub raster: RasterState,
    /// Multisampling and sample masks.
    pub multisample: MultisampleState,
    /// Depth and stencil tests.
    pub depth_stencil: DepthStencilState,
    /// Blending, logic op and colour masks.
    pub blend: BlendState,
    /// The per-draw watchdog: past it the draw stops with [`crate::RasterError::TimedOut`].
    pub deadline: Option<crate::Deadline>,
}
