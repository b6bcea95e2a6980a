//! The compiled form of a program: what every front end (ARB, NV_gpu_program4/5, VP1/VP2,
//! FP1) lowers to and what the executor runs.
//!
//! Everything that can be decided at load time is decided here, so the executor never looks
//! at names or text: bindings are resolved to slots, swizzles and masks are decoded,
//! flow-control instructions carry the index of their matching instruction, and each
//! instruction has one resolved data type.
//!
//! Register files, from the executor's point of view:
//! - `Temp`: read/write vec4 registers (TEMP, VP1 `R`, FP1 `R`/`H`), `Program::temps` long.
//!   Arrays of temps are consecutive registers; `Program::temp_arrays` records them so
//!   relative indexing can be bounds-checked.
//! - `Input`: per-invocation inputs, one slot per entry of `Program::inputs`.
//! - `Param`: read-only vec4 values, one slot per entry of `Program::params`; the pipeline
//!   fills them once per draw (constants, env/local, GL state).
//! - `Output`: per-invocation results, one slot per entry of `Program::outputs`.
//! - `Address`: integer address registers (ADDRESS, VP1 `A0`), `Program::address_regs`.
//! - `Buffer`: BUFFER/BUFFER4 parameter-buffer variables (read through a trait).
//!
//! Values are stored as raw 32-bit patterns (`u32`) whose meaning (f32, s32, u32) is chosen by
//! each instruction's [`DataType`]. Variables declared `LONG` (`RegInfo::long`) hold 64-bit
//! components; only they can hold 64-bit results without truncation.

use crate::span::Span;
use smallvec::SmallVec;

/// The programmable stage a program is compiled for.
///
/// ```
/// use glemu_programs::{assemble, Stage};
/// let p = assemble("!!NVgp5.0\nPRIMITIVE_IN POINTS;\nPRIMITIVE_OUT POINTS;\nVERTICES_OUT 1;\nEND", None).unwrap();
/// assert_eq!(p.stage, Stage::Geometry);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Vertex programs (`!!ARBvp1.0`, `!!NVvp*`, `!!VP*`): one invocation per vertex.
    Vertex,
    /// Tessellation control programs (`!!NVtcp5.0`): one invocation per output patch
    /// vertex.
    TessControl,
    /// Tessellation evaluation programs (`!!NVtep5.0`): one invocation per tessellated
    /// point.
    TessEval,
    /// Geometry programs (`!!NVgp*`): one invocation per input primitive (times
    /// INVOCATIONS).
    Geometry,
    /// Fragment programs (`!!ARBfp1.0`, `!!NVfp*`, `!!FP1.0`): one invocation per fragment.
    Fragment,
    /// NV_compute_program5 (`!!NVcp5.0`): work groups of GROUP_SIZE invocations.
    Compute,
}

impl Stage {
    /// The stage's name as `glemu check --target` spells it.
    ///
    /// ```
    /// assert_eq!(glemu_programs::Stage::TessEval.name(), "tess-eval");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::TessControl => "tess-control",
            Stage::TessEval => "tess-eval",
            Stage::Geometry => "geometry",
            Stage::Fragment => "fragment",
            Stage::Compute => "compute",
        }
    }
}

/// The language a program text was written in (from its `!!` header).
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!VP1.0\nMOV o[HPOS], v[OPOS];\nEND", None).unwrap();
/// assert_eq!(p.dialect, Dialect::Vp10);
/// let p = assemble("!!NVfp5.0\nMOV result.color, 1;\nEND", None).unwrap();
/// assert_eq!(p.dialect, Dialect::Nv5);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// `!!ARBvp1.0` / `!!ARBfp1.0` (NV options are recorded in `Program::options`).
    Arb,
    /// `!!NVvp4.0`, `!!NVfp4.0`, `!!NVgp4.0` (NV_gpu_program4).
    Nv4,
    /// `!!NVvp4.1`, ... (NV_gpu_program4_1).
    Nv41,
    /// `!!NVvp5.0`, `!!NVtcp5.0`, `!!NVtep5.0`, `!!NVgp5.0`, `!!NVfp5.0` (NV_gpu_program5).
    Nv5,
    /// `!!VP1.0` (NV_vertex_program).
    Vp10,
    /// `!!VP1.1` (NV_vertex_program1_1).
    Vp11,
    /// `!!VP2.0` (NV_vertex_program2).
    Vp20,
    /// `!!VSP1.0` (vertex state program).
    Vsp10,
    /// `!!FP1.0` (NV_fragment_program).
    Fp10,
}

/// Data type an instruction operates in. Chosen from the opcode modifier (`.F .S .U .F64`
/// ...), the variable types or the instruction's fixed types; never "unknown" after checking.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp4.0\nINT TEMP t;\nADD.U t.x, t.x, 2;\nMOV result.position, 0;\nEND", None).unwrap();
/// assert_eq!(p.instructions[0].dtype, DataType::U32);
/// assert_eq!(p.instructions[1].dtype, DataType::F32);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum DataType {
    #[default]
    /// 32-bit float (the type of plain ARB/NV operations).
    F32,
    /// 32-bit two's-complement integer (`.S`, `INT` variables).
    S32,
    /// 32-bit unsigned integer (`.U`, `UINT` variables).
    U32,
    /// 64-bit float (`.F64`, NV_gpu_program_fp64): needs `LONG` registers to keep full
    /// width.
    F64,
    /// 64-bit signed integer (`.S64`, NV_shader_buffer_load / int64).
    S64,
    /// 64-bit unsigned integer (`.U64`): addresses of the emulated GPU memory.
    U64,
}

impl DataType {
    pub(crate) fn is_64(self) -> bool {
        matches!(self, DataType::F64 | DataType::S64 | DataType::U64)
    }
    /// True for F32 and F64 (the types float opcode modifiers and conversions treat as IEEE).
    ///
    /// ```
    /// # use glemu_programs::{assemble, ir::*};
    /// assert!(DataType::F64.is_float());
    /// assert!(!DataType::S32.is_float());
    /// ```
    pub fn is_float(self) -> bool {
        matches!(self, DataType::F32 | DataType::F64)
    }
}

/// Declared type of a variable (`INT TEMP`, `UINT ATTRIB`, plain = float).
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp4.0\nINT TEMP i;\nTEMP f;\nMOV.S i, 1;\nMOV result.position, f;\nEND", None).unwrap();
/// assert_eq!(p.temps[0].ty, VarType::Int);
/// assert_eq!(p.temps[1].ty, VarType::Float);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum VarType {
    #[default]
    /// Components hold f32 bits (no type keyword).
    Float,
    /// Components hold s32 bits (`INT`).
    Int,
    /// Components hold u32 bits (`UINT`).
    Uint,
}

/// Result clamping (`.SAT` / `.SSAT`; VP/FP1 `_SAT`/`_SSAT`, ARB `_SAT`).
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBfp1.0\nMOV_SAT result.color, fragment.color;\nEND", None).unwrap();
/// assert_eq!(p.instructions[0].sat, Saturate::Sat);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Saturate {
    #[default]
    /// The result is written unclamped.
    None,
    /// Clamp to [0, 1].
    Sat,
    /// Clamp to [-1, 1].
    SSat,
}

/// Reduced precision requested by FP1/NV_fragment_program_option suffixes
/// (`R` = fp32, `H` = fp16, `X` = fixed s1.10) or by `SHORT` variables.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!FP1.0\nMOVH o[COLH], f[COL0];\nEND", None).unwrap();
/// assert_eq!(p.instructions[0].precision, Precision::Half);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Precision {
    #[default]
    /// Full 32-bit float precision (the default, and FP1's `R` suffix).
    Full,
    /// Results rounded to fp16 (FP1 `H` suffix, `SHORT` variables).
    Half,
    /// Results clamped and quantised to the s1.10 fixed-point format (FP1 `X` suffix).
    Fixed,
}

/// Every opcode of every dialect. Aliases are lowered (VP1 `ARL` and ARB `ARL` are the same;
/// FP1 `DDX` is `DDX`; `SWZ` keeps its extended swizzle in `Src::ext_swizzle`).
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nDP4 result.position.x, vertex.position, vertex.normal;\nEND", None).unwrap();
/// assert_eq!(p.instructions[0].op, Opcode::Dp4);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Opcode {
    // arithmetic
    /// Per-component absolute value.
    Abs,
    /// Per-component sum.
    Add,
    /// Per-component select: second operand where the first is negative, else the third.
    Cmp,
    /// Round each component up to an integer.
    Ceil,
    /// Cosine of the scalar operand, replicated.
    Cos,
    /// DDX/DDY, and `.FINE` (ARB_derivative_control): per row / column of the 2×2 quad.
    Ddx,
    /// Vertical derivative (per column of the 2×2 quad; `.FINE` the same).
    Ddy,
    /// `DDX.COARSE` / `DDY.COARSE`: one derivative for the whole 2×2 quad.
    DdxCoarse,
    /// `DDY.COARSE`: one vertical derivative for the whole 2×2 quad.
    DdyCoarse,
    /// Per-component division by a scalar operand (`DIV r, a, b.x`).
    Div,
    /// Two-component dot product, replicated.
    Dp2,
    /// Two-component dot product plus the third operand's `x` (`a.x*b.x + a.y*b.y + c.x`).
    Dp2a,
    /// Three-component dot product, replicated.
    Dp3,
    /// Four-component dot product, replicated.
    Dp4,
    /// Homogeneous dot product: `a.xyz · b.xyz + b.w`.
    Dph,
    /// Distance vector `(1, a.y*b.y, a.z, b.w)` for attenuation.
    Dst,
    /// Base-2 exponential of the scalar operand, replicated.
    Ex2,
    /// ARB/VP1 partial-precision `EXP`: `(2^floor(x), frac(x), 2^x approximation, 1)`.
    Exp,
    /// Round each component down to an integer.
    Flr,
    /// Fractional part of each component (`x - floor(x)`).
    Frc,
    /// Base-2 logarithm of the scalar operand, replicated.
    Lg2,
    /// Lighting coefficients `(1, diffuse, specular, 1)` from `(n·l, n·h, -, power)`.
    Lit,
    /// ARB/VP1 partial-precision `LOG`: `(exponent, mantissa, log2 approximation, 1)`.
    Log,
    /// Per-component linear interpolation `a*b + (1-a)*c`.
    Lrp,
    /// Per-component multiply-add `a*b + c`.
    Mad,
    /// Per-component maximum.
    Max,
    /// Per-component minimum.
    Min,
    /// Copy the operand (after its swizzle and modifiers) to the destination.
    Mov,
    /// Per-component product (integer products keep the low 32 bits).
    Mul,
    /// `MUL.S.HI` / `MUL.U.HI`: the high 32 bits of the 64-bit integer product (`dtype` S32
    /// or U32). `MUL.S24`/`.U24` lower to `Mul` with S32/U32.
    MulHi,
    /// Normalise the `xyz` vector; `w` passes through.
    Nrm,
    /// `a.x` raised to the power `b.x`, replicated.
    Pow,
    /// Reciprocal of the scalar operand with its magnitude clamped to VP1.1's range.
    Rcc,
    /// Reciprocal of the scalar operand, replicated.
    Rcp,
    /// Reflection of the second vector about the first axis.
    Rfl,
    /// Round each component to the nearest integer (ties to even).
    Round,
    /// Reciprocal square root of `|x|`, replicated.
    Rsq,
    /// `(cos x, sin x, -, -)` of the scalar operand.
    Scs,
    /// Per-component `a == b` (1.0 / all-ones when true, else 0).
    Seq,
    /// Set every component to false (0).
    Sfl,
    /// Per-component `a >= b`.
    Sge,
    /// Per-component `a > b`.
    Sgt,
    /// Sine of the scalar operand, replicated.
    Sin,
    /// Per-component `a <= b`.
    Sle,
    /// Per-component `a < b`.
    Slt,
    /// Per-component `a != b`.
    Sne,
    /// Per-component sign: -1, 0 or 1.
    Ssg,
    /// Set every component to true (1.0 or all-ones).
    Str,
    /// Per-component difference `a - b`.
    Sub,
    /// ARB extended swizzle: components picked, zeroed or set to one (see
    /// `Src::ext_swizzle`).
    Swz,
    /// Round each component toward zero.
    Trunc,
    /// 2D transform: `a.xy` plus `b.xy` times the 2×2 matrix in `c` (`xyxy`).
    X2d,
    /// Cross product of the `xyz` vectors.
    Xpd,
    // integer and bit operations
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Bitwise complement.
    Not,
    /// Shift left by the second operand.
    Shl,
    /// Shift right (arithmetic for `.S`, logical for `.U`).
    Shr,
    /// Integer remainder.
    Mod,
    /// Per-component sum of the absolute difference `|a - b|` and the third operand.
    Sad,
    /// Bit field extract: width and offset from the first operand, bits from the second.
    Bfe,
    /// Bit field insert: the second operand's low bits into the third, width and offset
    /// from the first.
    Bfi,
    /// Reverse the bit order of each component.
    Bfr,
    /// Count the set bits of each component.
    Btc,
    /// Index of the lowest set bit (-1 when none).
    Btfl,
    /// Index of the most significant bit that differs from the sign (-1 when none).
    Btfm,
    // conversions and packing
    /// Integer to float conversion (`I2F.S` / `I2F.U`).
    I2f,
    /// Float to integer conversion, rounding toward zero (`F2I.S` / `F2I.U`).
    F2i,
    /// Conversion between two storage types with a rounding (see `Extra::Convert`).
    Cvt,
    /// Pack `x` and `y` as two fp16 values into one 32-bit word.
    Pk2h,
    /// Pack `x` and `y`, clamped to [0, 1], as two 16-bit unsigned norms.
    Pk2us,
    /// Pack four components, clamped to [-1, 1], as signed 8-bit norms.
    Pk4b,
    /// Pack four components, clamped to [0, 1], as unsigned 8-bit norms.
    Pk4ub,
    /// Pack pairs of 32-bit components into 64-bit ones (`xy` → x, `zw` → y).
    Pk64,
    /// Unpack two fp16 values from the operand's `x` into `(x, y, x, y)`.
    Up2h,
    /// Unpack two 16-bit unsigned norms into [0, 1] floats.
    Up2us,
    /// Unpack four signed 8-bit norms into [-1, 1] floats.
    Up4b,
    /// Unpack four unsigned 8-bit norms into [0, 1] floats.
    Up4ub,
    /// Split 64-bit components into pairs of 32-bit ones (x → `xy`, y → `zw`).
    Up64,
    // address registers
    /// Load an address register with the floor of a float (or an integer as is).
    Arl,
    /// Load an address register with a float rounded to the nearest integer.
    Arr,
    /// Address register add: `A.xy + A.zw` into `xy` and again into `zw`
    /// (NV_vertex_program2).
    Ara,
    /// Push an address register onto the call/return stack.
    Pusha,
    /// Pop an address register from the call/return stack.
    Popa,
    // flow control
    /// Start a conditional block; lanes whose condition fails go to its ELSE / ENDIF.
    If,
    /// Switch the lanes of an IF block to the other branch.
    Else,
    /// End of an IF block: the lanes that split at its IF merge again.
    EndIf,
    /// Start a block repeated a number of times (or forever without an operand).
    Rep,
    /// End of a REP block: back to its start while iterations remain.
    EndRep,
    /// Start of a LOOP block with counter, count and step (`aL` in FP2/VP2).
    Loop,
    /// End of a LOOP block: step the counter and go back while iterations remain.
    EndLoop,
    /// Leave the innermost loop (for the lanes whose condition passes).
    Brk,
    /// Skip to the next iteration of the innermost loop.
    Cont,
    /// Jump to a label (VP2, NV_gpu_program4).
    Bra,
    /// Call the subroutine at a label; its RET comes back here.
    Cal,
    /// Call a subroutine chosen by a subroutine variable (NV_gpu_program5 `CALI`).
    Cali,
    /// Return from a subroutine; in the main program, end the invocation.
    Ret,
    /// Discard the fragment (per component test of the operand, or a condition code test).
    Kil,
    // texture
    /// Sample a texture with implicit LOD.
    Tex,
    /// Sample with a bias added to the implicit LOD.
    Txb,
    /// Sample with explicit derivatives given as two operands.
    Txd,
    /// Fetch one texel by integer coordinates and level (no filtering).
    Txf,
    /// Fetch one sample of a multisample texture by integer coordinates.
    Txfms,
    /// Sample at an explicit LOD.
    Txl,
    /// Projective sampling: the coordinate divided by its `w` first.
    Txp,
    /// Query the size of a texture level.
    Txq,
    /// Gather one component of the four texels bilinear filtering would read.
    Txg,
    /// Gather with a separate offset per texel (two offset operands).
    Txgo,
    /// The LOD the sampler would use for a coordinate (`(clamped, unclamped, -, -)`).
    Lod,
    // interpolation (fragment)
    /// Interpolate an attribute at the fragment's centroid.
    Ipac,
    /// Interpolate an attribute at an offset from the pixel centre.
    Ipao,
    /// Interpolate an attribute at a sample's position.
    Ipas,
    // memory
    /// Load from a constant buffer (`CBUFFER`) by byte offset.
    Ldc,
    /// Load from memory (a GPU address, a storage buffer or shared memory).
    Load,
    /// Store to memory.
    Store,
    /// Atomic read-modify-write of memory, returning the old value.
    Atom,
    /// Atomic operation on an atomic counter.
    Atomctr,
    /// Memory barrier: order the invocation's memory writes.
    Membar,
    /// Load a texel from an image unit.
    Loadim,
    /// Store a texel to an image unit.
    Storeim,
    /// Atomic read-modify-write of an image texel.
    Atomim,
    // thread group
    /// True in every lane when the operand is non-zero in every running lane.
    Tgall,
    /// True in every lane when the operand is non-zero in some running lane.
    Tgany,
    /// True in every lane when the operand is equal in every running lane.
    Tgeq,
    /// NV_shader_thread_group: per component, the mask of running lanes whose operand is
    /// non-zero.
    Tgballot,
    /// NV_compute_program5 BAR: wait until every invocation of the work group (the
    /// tessellation control patch) reached it.
    Bar,
    /// NV_shader_thread_shuffle: result (in-range predicate, value) from another lane.
    Shfdown,
    /// Read a lane chosen by index.
    Shfidx,
    /// Read the lane at a given distance below.
    Shfup,
    /// Read the lane whose index is this lane's xor a mask.
    Shfxor,
    // geometry
    /// Emit the current result vertex to stream 0.
    Emit,
    /// Emit the current result vertex to the stream of the operand.
    Emits,
    /// End the current output primitive (strip).
    EndPrim,
}

/// What an instruction works on, which decides who runs it: the executor dispatches on
/// it, the front end checks memory and texture modifiers with it, and the native back end
/// knows from it which instructions call the environment.
///
/// ```
/// use glemu_programs::ir::{OpClass, Opcode};
/// assert_eq!(Opcode::Txl.class(), OpClass::Texture);
/// assert_eq!(Opcode::Atomctr.class(), OpClass::Memory);
/// assert_eq!(Opcode::Popa.class(), OpClass::Flow);
/// assert_eq!(Opcode::Mad.class(), OpClass::Alu);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OpClass {
    /// Registers in, registers out: arithmetic, integer and bit operations, conversions,
    /// packing, address register loads, thread-group votes and shuffles.
    Alu,
    /// Flow control (IF ... RET, BRA, CALI), KIL, and the address stack (PUSHA/POPA).
    Flow,
    /// Texture lookups and queries: TEX, TXB, TXD, TXF, TXFMS, TXL, TXP, TXQ, TXG, TXGO,
    /// LOD.
    Texture,
    /// Buffer, counter and image memory: LDC, LOAD, STORE, ATOM, ATOMCTR, MEMBAR,
    /// LOADIM, STOREIM, ATOMIM.
    Memory,
    /// Interpolation at another position: IPAC, IPAO, IPAS.
    Interpolate,
    /// Geometry program output: EMIT, EMITS, ENDPRIM.
    GeometryOutput,
    /// BAR: a work group's (or a tessellation control patch's) barrier.
    Barrier,
}

impl Opcode {
    /// The opcode's [`OpClass`].
    pub fn class(self) -> OpClass {
        use Opcode::*;
        match self {
            If | Else | EndIf | Rep | EndRep | Loop | EndLoop | Brk | Cont | Bra | Cal | Cali
            | Ret | Kil | Pusha | Popa => OpClass::Flow,
            Tex | Txb | Txd | Txf | Txfms | Txl | Txp | Txq | Txg | Txgo | Lod => OpClass::Texture,
            Ldc | Load | Store | Atom | Atomctr | Membar | Loadim | Storeim | Atomim => {
                OpClass::Memory
            }
            Ipac | Ipao | Ipas => OpClass::Interpolate,
            Emit | Emits | EndPrim => OpClass::GeometryOutput,
            Bar => OpClass::Barrier,
            Abs | Add | Cmp | Ceil | Cos | Ddx | Ddy | DdxCoarse | DdyCoarse | Div | Dp2 | Dp2a
            | Dp3 | Dp4 | Dph | Dst | Ex2 | Exp | Flr | Frc | Lg2 | Lit | Log | Lrp | Mad | Max
            | Min | Mov | Mul | MulHi | Nrm | Pow | Rcc | Rcp | Rfl | Round | Rsq | Scs | Seq
            | Sfl | Sge | Sgt | Sin | Sle | Slt | Sne | Ssg | Str | Sub | Swz | Trunc | X2d
            | Xpd | And | Or | Xor | Not | Shl | Shr | Mod | Sad | Bfe | Bfi | Bfr | Btc | Btfl
            | Btfm | I2f | F2i | Cvt | Pk2h | Pk2us | Pk4b | Pk4ub | Pk64 | Up2h | Up2us | Up4b
            | Up4ub | Up64 | Arl | Arr | Ara | Tgall | Tgany | Tgeq | Tgballot | Shfdown
            | Shfidx | Shfup | Shfxor => OpClass::Alu,
        }
    }

    /// How many source operands the opcode reads at least (the validator checks it, so
    /// the executor indexes them freely). Texture coordinates, KIL's and REP's operand,
    /// IPAO's offset and ATOMCTR's counter index are optional.
    ///
    /// ```
    /// # use glemu_programs::ir::Opcode;
    /// assert_eq!((Opcode::Mad.sources(), Opcode::Rep.sources()), (3, 0));
    /// ```
    pub fn sources(self) -> usize {
        use Opcode::*;
        match self {
            Sfl | Str | If | Else | EndIf | Rep | EndRep | EndLoop | Brk | Cont | Bra | Cal
            | Cali | Ret | Kil | Popa | Tex | Txb | Txd | Txf | Txfms | Txl | Txp | Txq | Txg
            | Txgo | Lod | Atomctr | Membar | Bar | Emit | EndPrim => 0,
            Abs | Ceil | Cos | Ddx | Ddy | DdxCoarse | DdyCoarse | Ex2 | Exp | Flr | Frc | Lg2
            | Lit | Log | Mov | Nrm | Rcc | Rcp | Round | Rsq | Scs | Sin | Ssg | Swz | Trunc
            | Not | Bfr | Btc | Btfl | Btfm | I2f | F2i | Cvt | Pk2h | Pk2us | Pk4b | Pk4ub
            | Pk64 | Up2h | Up2us | Up4b | Up4ub | Up64 | Arl | Arr | Ara | Pusha | Loop | Ipac
            | Ipao | Ipas | Ldc | Load | Loadim | Tgall | Tgany | Tgeq | Tgballot | Emits => 1,
            Add | Div | Dp2 | Dp3 | Dp4 | Dph | Dst | Max | Min | Mul | MulHi | Pow | Rfl | Seq
            | Sge | Sgt | Sle | Slt | Sne | Sub | Xpd | And | Or | Xor | Shl | Shr | Mod | Bfe
            | Store | Atom | Storeim | Atomim => 2,
            Cmp | Dp2a | Lrp | Mad | X2d | Sad | Bfi | Shfdown | Shfidx | Shfup | Shfxor => 3,
        }
    }
}

/// Vector component index (x=0, y=1, z=2, w=3).
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nMOV result.position, vertex.position.wzyx;\nEND", None).unwrap();
/// let swizzle: [Comp; 4] = p.instructions[0].srcs[0].swizzle;
/// assert_eq!(swizzle, [3, 2, 1, 0]);
/// ```
pub type Comp = u8;

/// How an operand's index is computed.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nPARAM c[4] = { program.env[0..3] };\nADDRESS a;\nARL a.x, vertex.position.x;\nMOV result.position, c[a.x + 1];\nEND", None).unwrap();
/// let i = p.instructions[1].srcs[0].index;
/// assert!(matches!(i, Index::Relative { offset: 1, len: 4, .. }));
/// assert_eq!(p.instructions[1].dst.as_ref().unwrap().index, Index::Direct(0));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Index {
    /// A fixed slot.
    Direct(u32),
    /// `array[A0.x + offset]` / `array[T.y + offset]`: `base` is the array's first slot,
    /// `len` its length; an effective index outside `0..len` reads zero / drops the write.
    Relative {
        /// The register whose component gives the index at run time.
        reg: IndexReg,
        /// Constant added to the register's value.
        offset: i32,
        /// The array's first slot.
        base: u32,
        /// Number of elements of the array.
        len: u32,
    },
}

/// The register that supplies a runtime index.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nPARAM c[4] = { program.env[0..3] };\nADDRESS a;\nARL a.x, vertex.position.x;\nMOV result.position, c[a.x + 1];\nEND", None).unwrap();
/// let Index::Relative { reg, .. } = p.instructions[1].srcs[0].index else { panic!() };
/// assert_eq!(reg, IndexReg::Address { reg: 0, comp: 0 });
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IndexReg {
    /// An address register component (ADDRESS, `A0.x`).
    Address {
        /// Address register index.
        reg: u32,
        /// Component read.
        comp: Comp,
    },
    /// An integer temp component (NV_gpu_program4: `array[T.x]` with `INT TEMP T`).
    Temp {
        /// Temp register index.
        reg: u32,
        /// Component read.
        comp: Comp,
    },
    /// An input component (e.g. `primitive.invocation.x` used directly as an index).
    Input {
        /// Input slot.
        slot: u32,
        /// Component read.
        comp: Comp,
    },
    /// The loop counter `A0.x` of `LOOP` blocks in FP2/NV_fragment_program2 (`aL`).
    LoopCounter,
}

/// Register file an operand names (`Src::file`, `Dst::file`); `Immediate` operands carry
/// their value in `Src::imm`.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nMOV result.position, vertex.position;\nEND", None).unwrap();
/// assert_eq!(p.instructions[0].srcs[0].file, File::Input);
/// assert_eq!(p.instructions[0].dst.as_ref().unwrap().file, File::Output);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum File {
    /// Read/write temporary registers (`Program::temps`).
    Temp,
    /// Per-invocation inputs (`Program::inputs`).
    Input,
    /// Read-only parameters the pipeline fills (`Program::params`).
    Param,
    /// Per-invocation results (`Program::outputs`).
    Output,
    /// Address registers (`Program::address_regs`), integer.
    Address,
    /// A BUFFER / BUFFER4 variable; `Src::index` is the element index within it and
    /// `Src::buffer` names the variable.
    Buffer,
    /// A literal vector of an operand read as a 64-bit type (`ADD.F64 d, d, 0.1`), kept
    /// inline at full precision in `Src::imm`; it reads like a `LONG` register.
    Immediate,
}

/// A source operand.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp4.0\nMOV result.position, -|vertex.position|;\nEND", None).unwrap();
/// let s = &p.instructions[0].srcs[0];
/// assert!(s.negate && s.abs);
/// assert_eq!(s.swizzle, [0, 1, 2, 3]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Src {
    /// Register file the operand reads.
    pub file: File,
    /// Slot within the file (fixed or computed from a register).
    pub index: Index,
    /// Per-vertex index for geometry/tess inputs (`vertex[2].position`, `vertex[A0.x]...`).
    /// For `File::Buffer` operands of a variable spanning several binding points
    /// (`program.buffer[a..b]`, `program.storage[a..b]`): the outer index, which selects
    /// the binding point relative to `a` (`buf[A0.x][3]`).
    pub vertex: Option<Index>,
    /// For `File::Buffer`: index into `Program::buffers`.
    pub buffer: u32,
    /// Inline value for `File::Immediate`: the 64-bit raw bits of each component (f64
    /// bits, or two's-complement integers).
    pub imm: [u64; 4],
    /// Component selected for each of x, y, z, w.
    pub swizzle: [Comp; 4],
    /// `SWZ`'s extended swizzle: per component 0, 1 or a component, each possibly negated.
    pub ext_swizzle: Option<[ExtSwizzle; 4]>,
    /// `|operand|` (applied before negate).
    pub abs: bool,
    /// `-operand`.
    pub negate: bool,
    /// Where the operand is in the program text.
    pub span: Span,
}

impl Src {
    /// An operand reading `index` of `file` as it is: identity swizzle, no modifiers.
    pub(crate) fn plain(file: File, index: Index, span: Span) -> Src {
        Src {
            file,
            index,
            vertex: None,
            buffer: 0,
            imm: [0; 4],
            swizzle: [0, 1, 2, 3],
            ext_swizzle: None,
            abs: false,
            negate: false,
            span,
        }
    }
}

/// One component of an ARB `SWZ` extended swizzle: a source component, 0 or 1, optionally negated.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nSWZ result.position, vertex.position, 0, 1, -x, w;\nEND", None).unwrap();
/// use ExtSwizzle::*;
/// assert_eq!(p.instructions[0].srcs[0].ext_swizzle, Some([Zero, One, NegComp(0), Comp(3)]));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExtSwizzle {
    /// Constant 0.
    Zero,
    /// Constant 1.
    One,
    /// Source component (0 = x ... 3 = w).
    Comp(Comp),
    /// Constant -0.
    NegZero,
    /// Constant -1.
    NegOne,
    /// Negated source component.
    NegComp(Comp),
}

/// A destination operand.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nMOV result.position.xw, vertex.position;\nEND", None).unwrap();
/// let d = p.instructions[0].dst.as_ref().unwrap();
/// assert_eq!(d.mask, 0b1001);
/// assert_eq!(d.cond, None);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Dst {
    /// `File::Temp`, `File::Output` or `File::Address` (ARL/ARA/ARR/POPA).
    pub file: File,
    /// Slot within the file (fixed or computed from a register).
    pub index: Index,
    /// Write mask: bit 0 = x ... bit 3 = w.
    pub mask: u8,
    /// Conditional write mask, e.g. `R0 (GT.x)` / `R0.xy (NE1.zwzw)`.
    pub cond: Option<CondTest>,
    /// Where the operand is in the program text.
    pub span: Span,
}

/// The tests a condition code can be put through.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp4.0\nTEMP t;\nMOVC t, vertex.position;\nMOV result.position (GT.x), t;\nEND", None).unwrap();
/// assert_eq!(p.instructions[0].cc_update, Some(0));
/// let c = p.instructions[1].dst.as_ref().unwrap().cond.unwrap();
/// assert_eq!(c.op, CondOp::Gt);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CondOp {
    /// Equal (zero).
    Eq,
    /// Not equal (non-zero or NaN).
    Ne,
    /// Less than zero.
    Lt,
    /// Greater than or equal to zero.
    Ge,
    /// Less than or equal to zero.
    Le,
    /// Greater than zero.
    Gt,
    /// Always true.
    Tr,
    /// Always false.
    Fl,
    // NaN-aware and unsigned forms of NV_gpu_program4
    /// Unordered: the value was NaN.
    Nan,
    /// Ordered: less, equal or greater (not NaN).
    Leg,
    /// Carry flag set (unsigned overflow of an integer add).
    Cf,
    /// Carry flag clear.
    Ncf,
    /// Overflow flag set (signed overflow of an integer add).
    Of,
    /// Overflow flag clear.
    Nof,
    /// Unsigned above: carry set and not zero.
    Ab,
    /// Unsigned below or equal: carry clear or zero.
    Ble,
    /// Sign flag set.
    Sf,
    /// Sign flag clear.
    Nsf,
}

/// `COND.swizzle` on condition register `cc` (0 or 1).
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp4.0\nTEMP t;\nMOVC t, vertex.position;\nMOV result.position (GT.x), t;\nEND", None).unwrap();
/// assert_eq!(p.instructions[0].cc_update, Some(0));
/// let c = p.instructions[1].dst.as_ref().unwrap().cond.unwrap();
/// assert_eq!((c.cc, c.swizzle), (0, [0, 0, 0, 0]));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CondTest {
    /// The test applied to the condition code components.
    pub op: CondOp,
    /// Which condition register: 0 (`CC0`) or 1 (`CC1`).
    pub cc: u8,
    /// Condition code component tested for each destination component.
    pub swizzle: [Comp; 4],
}

/// Texture targets of every dialect. `Shadow*` forms compare against a reference.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[1], 2D;\nEND", None).unwrap();
/// let Extra::Tex(t) = &p.instructions[0].extra else { panic!() };
/// assert_eq!(t.target, TexTarget::T2D);
/// assert_eq!(p.texture_targets, vec![(1, TexTarget::T2D)]);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TexTarget {
    /// One-dimensional texture (`1D`).
    T1D,
    /// Two-dimensional texture (`2D`).
    T2D,
    /// Three-dimensional texture (`3D`).
    T3D,
    /// Cube map (`CUBE`).
    Cube,
    /// Rectangle texture with unnormalised coordinates (`RECT`).
    Rect,
    /// Array of 1D layers (`ARRAY1D`).
    Array1D,
    /// Array of 2D layers (`ARRAY2D`).
    Array2D,
    /// Array of cube maps (`ARRAYCUBE`).
    ArrayCube,
    /// 1D depth texture compared against a reference (`SHADOW1D`).
    Shadow1D,
    /// 2D depth texture compared against a reference (`SHADOW2D`).
    Shadow2D,
    /// Rectangle depth texture compared against a reference (`SHADOWRECT`).
    ShadowRect,
    /// Cube depth texture compared against a reference (`SHADOWCUBE`).
    ShadowCube,
    /// 1D array depth texture compared against a reference (`SHADOWARRAY1D`).
    ShadowArray1D,
    /// 2D array depth texture compared against a reference (`SHADOWARRAY2D`).
    ShadowArray2D,
    /// Cube array depth texture compared against a reference (`SHADOWARRAYCUBE`).
    ShadowArrayCube,
    /// Buffer texture: texels of a buffer object, fetched by index (`BUFFER`).
    Buffer,
    /// 2D multisample texture (`2DMS`).
    T2DMs,
    /// Array of 2D multisample layers (`ARRAY2DMS`).
    Array2DMs,
    /// Renderbuffer target (`RENDERBUFFER`): a multisample image read like `2DMS`.
    Renderbuffer,
}

/// Which texture unit an instruction samples.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[1], 2D;\nEND", None).unwrap();
/// let Extra::Tex(t) = &p.instructions[0].extra else { panic!() };
/// assert_eq!(t.unit, TexUnit::Fixed(1));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TexUnit {
    /// The unit named in the instruction (`texture[n]`).
    Fixed(u32),
    /// `TEX r, c, texarray[A0.x + n], 2D` through a TEXTURE array declaration (NV5).
    Relative {
        /// The register whose component gives the element at run time.
        reg: IndexReg,
        /// Constant added to the register's value.
        offset: i32,
        /// The first unit of the texture array.
        base: u32,
        /// Number of units of the texture array.
        len: u32,
    },
}

/// Texel offsets: `(1,-2,0)` after the target, or a register operand (NV5 TXGO / offset
/// modifier).
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D, (1, -2);\nEND", None).unwrap();
/// let Extra::Tex(t) = &p.instructions[0].extra else { panic!() };
/// assert_eq!(t.offset, Some(TexOffset::Const([1, -2, 0])));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum TexOffset {
    /// Offsets in the instruction text, per dimension.
    Const([i8; 3]),
    /// Offsets read from a register operand per lane.
    Register(Src),
}

/// Texture operand of a TEX-family instruction: unit, target, texel offset and gather component.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[1], 2D;\nEND", None).unwrap();
/// let Extra::Tex(t) = &p.instructions[0].extra else { panic!() };
/// assert_eq!((t.unit, t.target, t.offset.clone()), (TexUnit::Fixed(1), TexTarget::T2D, None));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TexInfo {
    /// Texture image unit sampled.
    pub unit: TexUnit,
    /// Target the instruction names (decides coordinate layout and comparison).
    pub target: TexTarget,
    /// Texel offset, if the instruction has one.
    pub offset: Option<TexOffset>,
    /// TXG component select (`TXG r, c, texture[0], 2D.y`... spelled as the swizzle on the
    /// texture operand); 0 = x.
    pub gather_comp: Comp,
    /// `.LODCLAMP` (ARB_sparse_texture_clamp): a minimum LOD comes from the second
    /// operand (`y` for cube targets with a reference or layer there, else `x`), or for
    /// TXD from the `w` of the y-derivative operand.
    pub lod_clamp: bool,
    /// `.SPARSE` (EXT_sparse_texture2): the access sets the sparse condition code. Every
    /// texel glemu stores is resident, so `RESIDENT` / `NONRESIDENT` tests compile to
    /// `TR` / `FL`.
    pub sparse: bool,
}

/// Memory access width/type modifiers of LDC/LOAD/STORE/ATOM (`.F32X4`, `.U8` ...).
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp5.0\nTEMP r;\nLONG TEMP a;\nLOAD.U32X2 r.xy, a.x;\nMOV result.position, r;\nEND", None).unwrap();
/// let Extra::Mem(m) = &p.instructions[0].extra else { panic!() };
/// assert_eq!(m.ty, MemType { scalar: MemScalar::U32, count: 2 });
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MemType {
    /// Type of each component.
    pub scalar: MemScalar,
    /// Number of components: 1, 2 or 4.
    pub count: u8,
}

/// Element type of a memory access or conversion (the storage modifier: `.F32`, `.S8`, `.U64` ...).
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp5.0\nTEMP r;\nLONG TEMP a;\nLOAD.U32X2 r.xy, a.x;\nMOV result.position, r;\nEND", None).unwrap();
/// let Extra::Mem(m) = &p.instructions[0].extra else { panic!() };
/// assert_eq!(m.ty.scalar, MemScalar::U32);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MemScalar {
    /// Half float (16 bits).
    F16,
    /// Float (32 bits).
    F32,
    /// Double (64 bits).
    F64,
    /// Signed byte.
    S8,
    /// Signed 16-bit integer.
    S16,
    /// Signed 32-bit integer.
    S32,
    /// Signed 64-bit integer.
    S64,
    /// Unsigned byte.
    U8,
    /// Unsigned 16-bit integer.
    U16,
    /// Unsigned 32-bit integer.
    U32,
    /// Unsigned 64-bit integer.
    U64,
}

impl MemScalar {
    /// Bytes one element takes in memory.
    ///
    /// ```
    /// # use glemu_programs::ir::*;
    /// assert_eq!(MemScalar::F16.bytes(), 2);
    /// assert_eq!(MemType { scalar: MemScalar::U64, count: 2 }.bytes(), 16);
    /// ```
    pub fn bytes(self) -> u32 {
        match self {
            MemScalar::S8 | MemScalar::U8 => 1,
            MemScalar::F16 | MemScalar::S16 | MemScalar::U16 => 2,
            MemScalar::F32 | MemScalar::S32 | MemScalar::U32 => 4,
            MemScalar::F64 | MemScalar::S64 | MemScalar::U64 => 8,
        }
    }
}

impl MemType {
    /// Bytes one access reads or writes: every component.
    pub fn bytes(self) -> u32 {
        self.scalar.bytes() * u32::from(self.count.max(1))
    }
}

/// The operation modifier of ATOM/ATOMB/ATOMIM/ATOMCTR (`.ADD`, `.CSWAP`, `.INCR` ...).
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp5.0\nUINT TEMP r;\nLONG TEMP a;\nATOM.ADD.U32 r.x, 1, a.x;\nMOV result.position, 0;\nEND", None).unwrap();
/// let Extra::Mem(m) = &p.instructions[0].extra else { panic!() };
/// assert_eq!(m.atom, Some(AtomOp::Add));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AtomOp {
    /// Add the operand; return the old value.
    Add,
    /// Store the minimum of the old value and the operand.
    Min,
    /// Store the maximum of the old value and the operand.
    Max,
    /// Increment, wrapping to 0 past the operand (`.IWRAP`).
    IWrap,
    /// Decrement, wrapping to the operand at 0 or above it (`.DWRAP`).
    DWrap,
    /// Bitwise and with the operand.
    And,
    /// Bitwise or with the operand.
    Or,
    /// Bitwise exclusive or with the operand.
    Xor,
    /// Store the operand (exchange).
    Exch,
    /// Store the second operand where the old value equals the first (compare and swap).
    CSwap,
    /// ATOMCTR only
    Incr,
    /// ATOMCTR only: decrement the counter, returning the new value.
    Decr,
    /// ATOMCTR only: read the counter without changing it.
    Get,
}

/// Rounding of CVT and the `.ROUND/.CEIL/.FLR/.TRUNC` modifiers.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVfp5.0\nINT TEMP s;\nTEMP r;\nCVT.F16.F64.CEIL r, s;\nEND", None).unwrap();
/// let Extra::Convert { rounding, .. } = p.instructions[0].extra else { panic!() };
/// assert_eq!(rounding, Rounding::Ceil);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rounding {
    #[default]
    /// No rounding modifier: the instruction's default rounding.
    Default,
    /// `.ROUND`: to nearest, ties to even.
    Nearest,
    /// `.CEIL`: toward +infinity.
    Ceil,
    /// `.FLR`: toward -infinity.
    Floor,
    /// `.TRUNC`: toward zero.
    Trunc,
}

/// Where a memory instruction reaches.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp5.0\nTEMP r;\nLONG TEMP a;\nLOAD.U32X2 r.xy, a.x;\nMOV result.position, r;\nEND", None).unwrap();
/// let Extra::Mem(m) = &p.instructions[0].extra else { panic!() };
/// assert_eq!(m.space, MemSpace::Global);
/// let p = assemble("!!NVfp5.0\nOPTION NV_shader_atomic_counters;\nCOUNTER c = program.counter[0][0];\nUINT TEMP r;\nATOMCTR.U32.INCR r.x, c;\nEND", None).unwrap();
/// let Extra::Mem(m) = &p.instructions[0].extra else { panic!() };
/// assert_eq!(m.space, MemSpace::Counter { counter: 0 });
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum MemSpace {
    /// LOAD/STORE/ATOM through a GPU address (NV_shader_buffer_load/store); the address is
    /// the last source operand.
    Global,
    /// LDC from a CBUFFER variable (index into `Program::buffers`).
    Constant {
        /// Index into `Program::buffers`.
        buffer: u32,
    },
    /// `program.storage[n]` (NV_shader_storage_buffer_object).
    Storage {
        /// Index into `Program::buffers`.
        buffer: u32,
    },
    /// ATOMCTR on a COUNTER variable (`Program::counters`, index into it and offset).
    Counter {
        /// Index into `Program::counters`.
        counter: u32,
    },
    /// LOADIM/STOREIM/ATOMIM on an IMAGE variable (`Program::images`).
    Image {
        /// Index into `Program::images`.
        image: u32,
    },
    /// LDS/STS/ATOMS on a SHARED variable (`Program::buffers`): the work group's shared
    /// memory (NV_compute_program5).
    Shared {
        /// Index into `Program::buffers`.
        buffer: u32,
    },
}

/// Memory operand of LOAD/STORE/ATOM, LDB/STB/ATOMB, LDC, ATOMCTR and the image instructions.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp5.0\nTEMP r;\nLONG TEMP a;\nLOAD.U32X2 r.xy, a.x;\nMOV result.position, r;\nEND", None).unwrap();
/// let Extra::Mem(m) = &p.instructions[0].extra else { panic!() };
/// assert!(m.atom.is_none() && !m.volatile && !m.coherent);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct MemInfo {
    /// Which memory the instruction reaches.
    pub space: MemSpace,
    /// Element type and component count of the access.
    pub ty: MemType,
    /// The atomic operation, for ATOM/ATOMB/ATOMS/ATOMIM/ATOMCTR.
    pub atom: Option<AtomOp>,
    /// `.COH`: the access is coherent with other invocations' writes.
    pub coherent: bool,
    /// `.VOL`: the access may not be cached or merged.
    pub volatile: bool,
    /// LOADIM/STOREIM/ATOMIM: the image target named in the instruction.
    pub target: Option<TexTarget>,
    /// LOADIM/STOREIM/ATOMIM on an element of an IMAGE array chosen at run time
    /// (`img[A0.x + 1]`): the element, relative to the variable's first unit. An element
    /// outside the array makes the access out of range. None: the variable's first unit.
    pub element: Option<Index>,
    /// STOREIM without a storage modifier: a formatted store, the data converted to the
    /// image unit format (`ty` then only names the data type: F32, S32 or U32).
    pub formatted: bool,
}

/// Extra, opcode-specific operands.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp4.0\nCAL f;\nRET;\nf:\nMOV result.position, 1;\nRET;\nEND", None).unwrap();
/// assert_eq!(p.instructions[0].extra, Extra::Flow { target: 2, cond: None });
/// assert_eq!(p.instructions[2].extra, Extra::None);
/// let p = assemble("!!NVfp5.0\nINT TEMP s;\nTEMP r;\nCVT.F16.F64.CEIL r, s;\nEND", None).unwrap();
/// let Extra::Convert { from, to, .. } = p.instructions[0].extra else { panic!() };
/// assert_eq!((from, to), (MemScalar::F64, MemScalar::F16));
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Extra {
    #[default]
    /// No extra operand.
    None,
    /// Texture operand of a TEX-family instruction.
    Tex(Box<TexInfo>),
    /// Memory operand of a memory, counter or image instruction.
    Mem(Box<MemInfo>),
    /// Flow control: index of the matching instruction (IF → its ELSE or ENDIF; ELSE →
    /// ENDIF; REP/LOOP → ENDREP/ENDLOOP; ENDREP/ENDLOOP → REP/LOOP; BRK/CONT → enclosing
    /// loop start; BRA/CAL → label target), plus the condition if any (`BRK (GT.x)`,
    /// `IF NE.x`, `KIL GT.x`).
    Flow {
        /// Index of the matching instruction or label target.
        target: u32,
        /// Condition code test deciding which lanes take the instruction.
        cond: Option<CondTest>,
    },
    /// CALI through a subroutine variable: index into `Program::subroutine_vars`.
    CallIndirect {
        /// Index into `Program::subroutine_vars`.
        var: u32,
        /// Element of an array variable, if the variable is indexed.
        array_index: Option<Index>,
        /// Condition code test deciding which lanes call.
        cond: Option<CondTest>,
    },
    /// `CVT.<to>.<from>`: the two storage modifiers (every size, F16 included) and the
    /// rounding. `Inst::dtype` is the register type of `to` (F16 → F32, S8/S16 → S32,
    /// U8/U16 → U32); `Inst::sat` clamps integer results to `to`'s range and float results
    /// to `[0, 1]` / `[-1, 1]`.
    Convert {
        /// The operand's storage type.
        from: MemScalar,
        /// The result's storage type.
        to: MemScalar,
        /// How values that are not exact in `to` are rounded.
        rounding: Rounding,
    },
}

/// One decoded instruction.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nADD result.position, vertex.position, vertex.normal;\nEND", None).unwrap();
/// let i = &p.instructions[0];
/// assert_eq!((i.op, i.srcs.len(), i.dst.is_some()), (Opcode::Add, 2, true));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// What the instruction computes.
    pub op: Opcode,
    /// Type the operands are read and the result computed in.
    pub dtype: DataType,
    /// Clamping of the result.
    pub sat: Saturate,
    /// Precision the result is rounded to (FP1 / SHORT).
    pub precision: Precision,
    /// `.CC` / `.CC0` → Some(0), `.CC1` → Some(1).
    pub cc_update: Option<u8>,
    /// Destination, absent for instructions that write no register (flow control, STORE).
    pub dst: Option<Dst>,
    /// Source operands in text order.
    pub srcs: SmallVec<[Src; 3]>,
    /// Opcode-specific operands (texture, memory, flow target, conversion).
    pub extra: Extra,
    /// Where the instruction is in the program text.
    pub span: Span,
}

/// Per-variable register information (temps, inputs, outputs).
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp5.0\nLONG TEMP d;\nUINT TEMP u;\nMOV result.position, 0;\nEND", None).unwrap();
/// assert!(p.temps[0].long);
/// assert_eq!(p.temps[1], RegInfo { ty: VarType::Uint, long: false, short: false });
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct RegInfo {
    /// Component type of the variable.
    pub ty: VarType,
    /// `LONG`: components are 64 bits wide.
    pub long: bool,
    /// `SHORT`: results are kept at reduced precision.
    pub short: bool,
}

/// Interpolation of a fragment input (NV_fragment_program4 modifiers).
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVfp4.0\nFLAT ATTRIB c = fragment.attrib[0];\nMOV result.color, c;\nEND", None).unwrap();
/// assert!(p.inputs[0].interp.flat);
/// assert!(!p.inputs[0].interp.centroid);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Interp {
    /// `FLAT`: the provoking vertex's value, not interpolated.
    pub flat: bool,
    /// `CENTROID`: interpolated at a covered sample's position.
    pub centroid: bool,
    /// `NOPERSPECTIVE`: interpolated linearly in window space.
    pub noperspective: bool,
    /// `SAMPLE`: interpolated at each sample (per-sample shading).
    pub sample: bool,
}

/// Where an input slot's value comes from.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nMOV result.position, vertex.position;\nMOV result.color, vertex.attrib[3];\nEND", None).unwrap();
/// let b: Vec<_> = p.inputs.iter().map(|s| s.binding.clone()).collect();
/// assert_eq!(b, vec![InputBinding::VertexPosition, InputBinding::VertexAttrib(3)]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum InputBinding {
    // vertex
    /// `vertex.attrib[n]`: generic attribute n.
    VertexAttrib(u32),
    /// `vertex.position` (conventional attribute 0).
    VertexPosition,
    /// `vertex.weight[n]` (vertex blending weights).
    VertexWeight(u32),
    /// `vertex.normal`.
    VertexNormal,
    /// `vertex.color` (`secondary`: `vertex.color.secondary`).
    VertexColor {
        /// The secondary colour rather than the primary one.
        secondary: bool,
    },
    /// `vertex.fogcoord`.
    VertexFogCoord,
    /// `vertex.texcoord[n]`.
    VertexTexCoord(u32),
    /// `vertex.matrixindex[n]` (matrix palette; rejected by the front end today).
    VertexMatrixIndex(u32),
    /// `vertex.id`: the vertex index of the draw.
    VertexId,
    /// `vertex.instance`: the instance index.
    VertexInstance,
    /// ARB_shader_draw_parameters: the draw's base vertex (0 for non-indexed draws),
    /// base instance, and index within a multi-draw.
    VertexBaseVertex,
    /// `vertex.baseinstance`.
    VertexBaseInstance,
    /// `vertex.drawid`.
    VertexDrawId,
    // compute (NV_compute_program5 `invocation.*`, unsigned, `w` undefined)
    /// `invocation.localid`: position within the work group.
    LocalId,
    /// `invocation.globalid`: position within the whole dispatch.
    GlobalId,
    /// `invocation.groupid`: the work group's position, in groups.
    GroupId,
    /// `invocation.groupcount`: the dispatch's size, in groups.
    GroupCount,
    /// `invocation.groupsize`: GROUP_SIZE.
    GroupSize,
    /// `invocation.localindex`: the flattened local id.
    LocalIndex,
    // fragment
    /// `fragment.position`: window coordinates and depth, 1/w.
    FragPosition,
    /// `fragment.color` (`secondary`: `fragment.color.secondary`).
    FragColor {
        /// The secondary colour rather than the primary one.
        secondary: bool,
    },
    /// `fragment.texcoord[n]`.
    FragTexCoord(u32),
    /// `fragment.fogcoord`.
    FragFogCoord,
    /// `fragment.attrib[n]`: generic varying n.
    FragAttrib(u32),
    /// `fragment.facing`: front or back facing primitive.
    FragFacing,
    /// `fragment.clip[n]`: interpolated clip distance.
    FragClipDistance(u32),
    /// `fragment.pointcoord`: position within a point sprite.
    FragPointCoord,
    /// `fragment.sampleid`: the sample being shaded.
    FragSampleId,
    /// `fragment.samplemask`: the covered samples.
    FragSampleMask,
    /// `fragment.samplepos`: the sample's position within the pixel.
    FragSamplePosition,
    /// `fragment.helperthread`: true in helper lanes that only feed derivatives.
    FragHelperThread,
    /// `fragment.layer`: the layer the primitive goes to.
    FragLayer,
    /// `fragment.viewport`: the viewport index of the primitive.
    FragViewportIndex,
    /// `fragment.barycentric` (NV_fragment_shader_barycentric): the front end rejects it as
    /// not supported.
    FragBarycentric,
    // geometry / tessellation per-vertex inputs: varyings written by the previous stage;
    // `Src::vertex` selects the vertex.
    /// A per-vertex varying of the previous stage.
    Varying(VaryingSlot),
    /// `primitive.id`: the primitive's index in the draw.
    PrimitiveId,
    /// `primitive.invocation`: the geometry INVOCATIONS index or the tessellation control
    /// invocation.
    PrimitiveInvocation,
    /// `primitive.vertexcount`: vertices of the input primitive or patch.
    PrimitiveVertexCount,
    /// `vertex.tesscoord`: the tessellated point's coordinates.
    TessCoord,
    /// TEP/TCP `primitive.patch.*` and TCP `primitive.out` reads.
    PatchIn(VaryingSlot),
    /// TCP `primitive.out.*` reads: a per-patch result of the output patch.
    PatchOut(VaryingSlot),
    /// TCP `vertex.out[m].*`: a per-vertex result of output vertex `m` (written by
    /// invocation `m`); `Src::vertex` selects `m`.
    VertexOut(VaryingSlot),
    /// A patch's outer tessellation level n (names `primitive.tessouter` arrays).
    TessOuter(u32),
    /// A patch's inner tessellation level n (names `primitive.tessinner` arrays).
    TessInner(u32),
    /// NV_shader_thread_group built-ins.
    ThreadId,
    /// `*.warpid` and `*.smid` (NV_shader_thread_group): glemu is one SM running one warp
    /// (an executor batch) at a time, so both are always 0 -- deterministic, and within the
    /// ranges the spec gives (0..WARPS_PER_SM_NV-1, 0..SM_COUNT_NV-1) for one SM of one
    /// resident warp.
    WarpId,
    /// `*.smid`; see `WarpId`.
    SmId,
    /// `*.threadeqmask`, `*.threadgemask`, ...: lanes relative to this one.
    ThreadMask(ThreadMaskKind),
}

/// Which `threadeqmask`/`threadgemask`/... input of NV_shader_thread_group a binding reads.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVfp5.0\nOPTION NV_shader_thread_group;\nUINT TEMP m;\nMOV.U m, fragment.threadeqmask;\nMOV.U result.color, m;\nEND", None).unwrap();
/// assert_eq!(p.inputs[0].binding, InputBinding::ThreadMask(ThreadMaskKind::Eq));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ThreadMaskKind {
    /// Only this lane.
    Eq,
    /// This lane and those above it.
    Ge,
    /// Lanes above this one.
    Gt,
    /// This lane and those below it.
    Le,
    /// Lanes below this one.
    Lt,
}

/// A varying (stage-to-stage value): what a `result.*` of one stage writes and a
/// `vertex.*` / `fragment.*` of the next one reads. Shared by inputs and outputs so the
/// pipeline can match them by value.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nMOV result.texcoord[2], vertex.position;\nEND", None).unwrap();
/// assert_eq!(p.outputs[0].binding, OutputBinding::Varying(VaryingSlot::TexCoord(2)));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VaryingSlot {
    /// `result.position`: the clip-space position.
    Position,
    /// `result.color`, front or back, primary or secondary.
    Color {
        /// The back-face colour (two-sided lighting).
        back: bool,
        /// The secondary (specular) colour.
        secondary: bool,
    },
    /// `result.texcoord[n]`.
    TexCoord(u32),
    /// `result.attrib[n]`: a generic varying.
    Attrib(u32),
    /// `result.fogcoord`.
    FogCoord,
    /// `result.pointsize`.
    PointSize,
    /// `result.clip[n]` as a clip distance (NV_gpu_program4).
    ClipDistance(u32),
    /// VP2 `o[CLP0-5]` / ARB `result.clip[n]` as one scalar each.
    ClipLegacy(u32),
    /// `result.layer`: the layer of a layered target the primitive goes to.
    Layer,
    /// `result.viewport`: the viewport index of the primitive.
    ViewportIndex,
    /// `result.viewportmask` (NV_viewport_array2): the viewports that receive the
    /// primitive.
    ViewportMask,
    /// TCP/TEP per-patch attributes (`result.patch.attrib[n]`).
    PatchAttrib(u32),
    /// `result.patch.tessouter[n]`: an outer tessellation level.
    TessOuter(u32),
    /// `result.patch.tessinner[n]`: an inner tessellation level.
    TessInner(u32),
    /// `result.primid` of a geometry program: the primitive ID its output carries on.
    PrimitiveId,
    /// `result.id` of vertex and tessellation programs, read by the next stage as
    /// `vertex[m].id` (NV_vertex_program4 "result.id", NV_geometry_program4).
    VertexId,
}

impl VaryingSlot {
    /// Per-patch values of a tessellation control program's output patch (one per patch,
    /// shared by its invocations), as opposed to per-vertex ones.
    ///
    /// ```
    /// # use glemu_programs::{assemble, ir::*};
    /// assert!(VaryingSlot::TessOuter(0).is_per_patch());
    /// assert!(!VaryingSlot::Position.is_per_patch());
    /// ```
    pub fn is_per_patch(self) -> bool {
        matches!(
            self,
            VaryingSlot::PatchAttrib(_) | VaryingSlot::TessOuter(_) | VaryingSlot::TessInner(_)
        )
    }
}

/// Where an output slot's value goes.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBfp1.0\nMOV result.depth.z, fragment.position.z;\nMOV result.color, fragment.color;\nEND", None).unwrap();
/// assert_eq!(p.outputs[0].binding, OutputBinding::FragDepth);
/// assert_eq!(p.outputs[1].binding, OutputBinding::FragColor { target: 0, index: 0 });
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OutputBinding {
    /// Vertex-like stages: a varying.
    Varying(VaryingSlot),
    /// Fragment: `result.color[n]` (and the dual-source `result.color[n].secondary` of
    /// ARB_blend_func_extended when `index` is 1).
    FragColor {
        /// Colour buffer (draw buffer) index n.
        target: u32,
        /// Dual-source blending index: 0 the primary, 1 the secondary output.
        index: u32,
    },
    /// `result.depth`: the fragment's depth (its `z`).
    FragDepth,
    /// `result.samplemask`: the samples the fragment covers.
    FragSampleMask,
    /// FP1 `o[COLH]` (half precision colour) — same target 0, kept for round-trips.
    FragColorHalf,
    /// VSP1.0 (vertex state program) write to program parameter `c[n]`: after the program
    /// runs, the pipeline stores the slot's value into env parameter `n`.
    EnvParam(u32),
}

/// One entry of `Program::inputs`: what the slot is bound to, how it is interpolated, its type.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVfp4.0\nFLAT INT ATTRIB i = fragment.attrib[1];\nMOV.S result.color, i;\nEND", None).unwrap();
/// assert_eq!(p.inputs[0].binding, InputBinding::FragAttrib(1));
/// assert_eq!(p.inputs[0].info.ty, VarType::Int);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct InputSlot {
    /// What feeds the slot.
    pub binding: InputBinding,
    /// Interpolation qualifiers (fragment inputs).
    pub interp: Interp,
    /// Type of the slot's components.
    pub info: RegInfo,
}

/// One entry of `Program::outputs`: what the result slot is bound to and its type.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp4.0\nMOV result.position, 0;\nEND", None).unwrap();
/// assert_eq!(p.outputs[0].binding, OutputBinding::Varying(VaryingSlot::Position));
/// assert!(!p.outputs[0].info.long);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct OutputSlot {
    /// Where the slot's value goes.
    pub binding: OutputBinding,
    /// Type of the slot's components.
    pub info: RegInfo,
}

/// A read-only vec4 the pipeline fills before a draw.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nPARAM k = { 1, 2, 3, 4 };\nADD result.position, k, program.local[3];\nEND", None).unwrap();
/// assert_eq!(p.params[0], ParamSource::Constant([1.0f32, 2.0, 3.0, 4.0].map(f32::to_bits)));
/// assert_eq!(p.params[1], ParamSource::Local(3));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum ParamSource {
    /// A literal (raw bits).
    Constant([u32; 4]),
    /// `program.env[n]`: shared by every program of a target.
    Env(u32),
    /// `program.local[n]`: this program's own.
    Local(u32),
    /// GL state (`state.*`), resolved by the pipeline for each draw.
    State(StateBinding),
    /// FP1 `DECLARE name = {..};`: a named local parameter the app sets by name
    /// (ProgramNamedParameter4fNV); `initial` (raw f32 bits) until it does.
    Named {
        /// The parameter's name.
        name: String,
        /// Value until the app sets one (raw f32 bits).
        initial: [u32; 4],
    },
}

/// GL state a program can bind (ARB/NV `state.*`, VP1 tracked matrices).
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nPARAM s = state.fog.color;\nMOV result.position, s;\nEND", None).unwrap();
/// let ParamSource::State(b) = &p.params[0] else { panic!() };
/// assert_eq!(*b, StateBinding::FogColor);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StateBinding {
    /// `state.matrix.NAME[.inverse|.transpose|.invtrans].row[r]`.
    MatrixRow {
        /// Which matrix.
        matrix: MatrixName,
        /// Inverse, transpose, both, or neither.
        modifier: MatrixModifier,
        /// Row of the (modified) matrix, 0 to 3.
        row: u32,
    },
    /// `state.material[.back].PROP`.
    Material {
        /// The back-face material rather than the front one.
        back: bool,
        /// Which property.
        prop: MaterialProp,
    },
    /// `state.light[n].PROP`.
    Light {
        /// Light index.
        light: u32,
        /// Which property.
        prop: LightProp,
    },
    /// `state.lightmodel.ambient`: the global ambient colour.
    LightModelAmbient,
    /// `state.lightmodel[.back].scenecolor`: emission + ambient × light model ambient.
    LightModelSceneColor {
        /// The back-face value rather than the front one.
        back: bool,
    },
    /// `state.lightprod[n][.back].PROP`: a light's colour times the material's.
    LightProduct {
        /// Light index.
        light: u32,
        /// The back-face material rather than the front one.
        back: bool,
        /// Which product.
        prop: LightProductProp,
    },
    /// `state.texgen[unit].eye|object.s|t|r|q`: a texture coordinate generation plane.
    TexGen {
        /// Texture unit.
        unit: u32,
        /// Coordinate: 0 = s, 1 = t, 2 = r, 3 = q.
        coord: u32,
        /// The eye-linear plane rather than the object-linear one.
        eye: bool,
    },
    /// `state.fog.color`.
    FogColor,
    /// `state.fog.params`: (density, start, end, 1/(end - start)).
    FogParams,
    /// `state.clip[n].plane`: a user clip plane in eye space.
    ClipPlane(u32),
    /// `state.point.size`: (size, minimum, maximum, fade threshold).
    PointSize,
    /// `state.point.attenuation`: constant, linear and quadratic factors.
    PointAttenuation,
    /// `state.depth.range`: (near, far, far - near, 1).
    DepthRange,
    /// `state.texenv[n].color`: the texture environment colour of unit n.
    TexEnvColor(u32),
    /// `state.lightmodel.ambient` etc. not listed above, and any other named vector the
    /// fixed-function state exposes, e.g. `program.buffer` sizes: name kept for the pipeline.
    Other(String),
}

/// Which matrix a `state.matrix.*` binding names.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nPARAM s = state.matrix.texture[1].transpose.row[2];\nMOV result.position, s;\nEND", None).unwrap();
/// let ParamSource::State(b) = &p.params[0] else { panic!() };
/// let StateBinding::MatrixRow { matrix, modifier, row } = b else { panic!() };
/// assert_eq!((*matrix, *row), (MatrixName::Texture(1), 2));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MatrixName {
    /// `modelview[n]`: a modelview matrix of vertex blending (0 = the modelview matrix).
    ModelView(u32),
    /// `projection`.
    Projection,
    /// `mvp`: projection × modelview.
    Mvp,
    /// `texture[n]`: unit n's texture matrix.
    Texture(u32),
    /// `palette[n]`: a matrix palette entry (ARB_matrix_palette).
    Palette(u32),
    /// `program[n]`: a program matrix (ARB_vertex_program's tracked matrices).
    Program(u32),
}

/// `.inverse`, `.transpose` or `.invtrans` of a `state.matrix.*` binding.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nPARAM s = state.matrix.texture[1].transpose.row[2];\nMOV result.position, s;\nEND", None).unwrap();
/// let ParamSource::State(b) = &p.params[0] else { panic!() };
/// let StateBinding::MatrixRow { matrix, modifier, row } = b else { panic!() };
/// assert_eq!(*modifier, MatrixModifier::Transpose);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum MatrixModifier {
    #[default]
    /// The matrix itself.
    None,
    /// Its inverse.
    Inverse,
    /// Its transpose.
    Transpose,
    /// The transpose of its inverse.
    InvTrans,
}

/// Property of `state.material.*`.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nPARAM s = state.material.back.diffuse;\nMOV result.position, s;\nEND", None).unwrap();
/// let ParamSource::State(b) = &p.params[0] else { panic!() };
/// assert_eq!(*b, StateBinding::Material { back: true, prop: MaterialProp::Diffuse });
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MaterialProp {
    /// `ambient` colour.
    Ambient,
    /// `diffuse` colour.
    Diffuse,
    /// `specular` colour.
    Specular,
    /// `emission` colour.
    Emission,
    /// `shininess` exponent (`(s, 0, 0, 1)`).
    Shininess,
}

/// Property of `state.light[n].*`.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nPARAM s = state.light[1].position;\nMOV result.position, s;\nEND", None).unwrap();
/// let ParamSource::State(b) = &p.params[0] else { panic!() };
/// assert_eq!(*b, StateBinding::Light { light: 1, prop: LightProp::Position });
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LightProp {
    /// `ambient` colour.
    Ambient,
    /// `diffuse` colour.
    Diffuse,
    /// `specular` colour.
    Specular,
    /// `position` in eye space.
    Position,
    /// `attenuation`: (constant, linear, quadratic, spot exponent).
    Attenuation,
    /// `spot.direction`: direction and cosine of the cutoff.
    SpotDirection,
    /// `half`: the infinite-viewer half-angle vector.
    Half,
}

/// Property of `state.lightprod[n].*`.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBvp1.0\nPARAM s = state.lightprod[0].front.specular;\nMOV result.position, s;\nEND", None).unwrap();
/// let ParamSource::State(b) = &p.params[0] else { panic!() };
/// let want = StateBinding::LightProduct { light: 0, back: false, prop: LightProductProp::Specular };
/// assert_eq!(*b, want);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LightProductProp {
    /// Light ambient × material ambient.
    Ambient,
    /// Light diffuse × material diffuse.
    Diffuse,
    /// Light specular × material specular.
    Specular,
}

/// A BUFFER / BUFFER4 / CBUFFER variable bound to `program.buffer[binding]`.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp4.0\nBUFFER b[] = { program.buffer[1] };\nMOV result.position, b[2];\nEND", None).unwrap();
/// assert_eq!((p.buffers[0].name.as_str(), p.buffers[0].binding), ("b", 1));
/// assert_eq!(p.buffers[0].len, None);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct BufferVar {
    /// Name the program declared it with.
    pub name: String,
    /// The (first) binding point.
    pub binding: u32,
    /// Number of consecutive binding points the variable spans (`program.buffer[a..b]`:
    /// b - a + 1); 1 for a single binding.
    pub bindings: u32,
    /// First element used (from `program.buffer[b][first..last]`).
    pub first: u32,
    /// Declared element count, if the declaration gave one.
    pub len: Option<u32>,
    /// Declaration the variable came from (decides its element layout).
    pub kind: BufferKind,
    /// Component type of its elements.
    pub info: RegInfo,
}

/// Which declaration made a buffer variable: `BUFFER`, `BUFFER4`, `CBUFFER` or `STORAGE`.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp4.0\nBUFFER b[] = { program.buffer[1] };\nMOV result.position, b[2];\nEND", None).unwrap();
/// assert_eq!(p.buffers[0].kind, BufferKind::Buffer);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BufferKind {
    /// BUFFER: one 32-bit word per element, replicated.
    Buffer,
    /// BUFFER4: one vec4 per element.
    Buffer4,
    /// CBUFFER: byte-addressed, read only with LDC.
    CBuffer,
    /// STORAGE (`program.storage[n]`).
    Storage,
    /// SHARED (`program.sharedmem`): bytes of the work group's shared memory, from
    /// `first`, read and written with LDS/STS/ATOMS.
    Shared,
}

/// A COUNTER variable (`program.counter[binding]`), possibly an array.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVfp5.0\nOPTION NV_shader_atomic_counters;\nCOUNTER c = program.counter[2][0];\nUINT TEMP r;\nATOMCTR.U32.INCR r.x, c;\nEND", None).unwrap();
/// assert_eq!((p.counters[0].name.as_str(), p.counters[0].binding, p.counters[0].len), ("c", 2, 1));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct CounterVar {
    /// Name the program declared it with.
    pub name: String,
    /// `program.counter[binding]`: the atomic counter buffer binding.
    pub binding: u32,
    /// First counter (element) of the binding the variable starts at.
    pub first: u32,
    /// Number of counters in the variable.
    pub len: u32,
}

/// An IMAGE variable (`program.image[first..]`).
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVfp5.0\nIMAGE im[3] = { image[4..6] };\nUINT TEMP r;\nLOADIM.U32 r, {1, 2, 0, 0}, im[1], 2D;\nEND", None).unwrap();
/// assert_eq!((p.images[0].first, p.images[0].len), (4, 3));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ImageVar {
    /// Name the program declared it with.
    pub name: String,
    /// First image unit the variable covers.
    pub first: u32,
    /// Number of image units (array elements).
    pub len: u32,
}

/// Options a program enabled (`OPTION NAME;`), kept as names in text order and decoded
/// into the flags the later stages need.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBfp1.0\nOPTION ARB_fog_linear;\nMOV result.color, fragment.color;\nEND", None).unwrap();
/// assert_eq!(p.options.names, vec!["ARB_fog_linear".to_string()]);
/// assert!(!p.options.position_invariant);
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Options {
    /// The option names in text order.
    pub names: Vec<String>,
    /// `ARB_position_invariant`: the position comes from the fixed-function transform.
    pub position_invariant: bool,
    /// `NV_early_fragment_tests`: depth and stencil tests run before the program.
    pub early_fragment_tests: bool,
    /// `ARB_fragment_coord_origin_upper_left`: `fragment.position` has its origin top-left.
    pub origin_upper_left: bool,
    /// `ARB_fragment_coord_pixel_center_integer`: pixel centres at integer coordinates.
    pub pixel_center_integer: bool,
    /// `ARB_fog_*`: fog the pipeline applies after the program.
    pub fog: Option<FogMode>,
    /// `ARB_draw_buffers` / `ATI_draw_buffers`: `result.color[n]` may name several targets.
    pub draw_buffers: bool,
    /// `ARB_blend_func_extended`: dual-source colour outputs allowed.
    pub blend_func_extended: bool,
    /// `ARB_fragment_program_shadow`: shadow texture targets allowed.
    pub fragment_program_shadow: bool,
    /// `ARB_precision_hint_fastest`.
    pub precision_hint_fastest: bool,
    /// `ARB_precision_hint_nicest`.
    pub precision_hint_nicest: bool,
}

/// Fog option of an ARB fragment program (`OPTION ARB_fog_exp|exp2|linear`).
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!ARBfp1.0\nOPTION ARB_fog_linear;\nMOV result.color, fragment.color;\nEND", None).unwrap();
/// assert_eq!(p.options.fog, Some(FogMode::Linear));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FogMode {
    /// `ARB_fog_exp`: `exp(-density × z)`.
    Exp,
    /// `ARB_fog_exp2`: `exp(-(density × z)²)`.
    Exp2,
    /// `ARB_fog_linear`: `(end - z) / (end - start)`.
    Linear,
}

/// Geometry/tessellation primitive kinds used by declarations.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVgp4.0\nPRIMITIVE_IN TRIANGLES;\nPRIMITIVE_OUT LINE_STRIP;\nVERTICES_OUT 4;\nEND", None).unwrap();
/// assert_eq!(p.decls.primitive_in, Some(PrimKind::Triangles));
/// assert_eq!(p.decls.primitive_out, Some(PrimKind::LineStrip));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PrimKind {
    /// `POINTS`.
    Points,
    /// `LINES`.
    Lines,
    /// `LINES_ADJACENCY`.
    LinesAdjacency,
    /// `TRIANGLES`.
    Triangles,
    /// `TRIANGLES_ADJACENCY`.
    TrianglesAdjacency,
    /// `LINE_STRIP` (geometry output).
    LineStrip,
    /// `TRIANGLE_STRIP` (geometry output).
    TriangleStrip,
    /// `PATCHES` with this many vertices per patch.
    Patches(u32),
}

/// `TESS_MODE` of a tessellation evaluation program.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVtep5.0\nTESS_MODE QUADS;\nTESS_SPACING FRACTIONAL_ODD;\nMOV result.position, 0;\nEND", None).unwrap();
/// assert_eq!(p.decls.tess_mode, Some(TessMode::Quads));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TessMode {
    /// Triangular domain (barycentric `tesscoord`).
    Triangles,
    /// Quad domain (`u`, `v` in [0, 1]).
    Quads,
    /// Lines across a quad domain.
    Isolines,
}

/// `TESS_SPACING` of a tessellation evaluation program.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVtep5.0\nTESS_MODE QUADS;\nTESS_SPACING FRACTIONAL_ODD;\nMOV result.position, 0;\nEND", None).unwrap();
/// assert_eq!(p.decls.tess_spacing, Some(TessSpacing::FractionalOdd));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TessSpacing {
    /// Integer tessellation levels (rounded up).
    Equal,
    /// Fractional levels rounded to odd segment counts.
    FractionalOdd,
    /// Fractional levels rounded to even segment counts.
    FractionalEven,
}

/// Stage-specific declarations.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVgp4.0\nPRIMITIVE_IN TRIANGLES;\nPRIMITIVE_OUT LINE_STRIP;\nVERTICES_OUT 4;\nEND", None).unwrap();
/// assert_eq!((p.decls.vertices_out, p.decls.invocations), (Some(4), None));
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Declarations {
    /// `PRIMITIVE_IN`: what a geometry program receives.
    pub primitive_in: Option<PrimKind>,
    /// `PRIMITIVE_OUT`: what a geometry program emits.
    pub primitive_out: Option<PrimKind>,
    /// `VERTICES_OUT`: most vertices a geometry invocation emits (or a tessellation control
    /// patch holds).
    pub vertices_out: Option<u32>,
    /// `INVOCATIONS`: geometry program runs per input primitive.
    pub invocations: Option<u32>,
    /// `TESS_MODE`: the tessellation domain.
    pub tess_mode: Option<TessMode>,
    /// `TESS_SPACING`: how levels become segments.
    pub tess_spacing: Option<TessSpacing>,
    /// true = CW.
    pub tess_cw: Option<bool>,
    /// `TESS_POINT_MODE`: the tessellator outputs points, not triangles or lines.
    pub tess_point_mode: bool,
    /// NV_geometry_shader_passthrough: the geometry program runs once per input primitive
    /// and that primitive goes on with results the program writes broadcast to its
    /// vertices.
    pub passthrough: bool,
    /// `PASSTHROUGH` declarations: result bindings (and their components, bit c =
    /// component c) copied from each input vertex to its output vertex.
    pub passthrough_slots: Vec<(VaryingSlot, u8)>,
    /// Compute programs: `GROUP_SIZE` (missing dimensions are 1).
    pub group_size: Option<[u32; 3]>,
    /// Compute programs: `SHARED_MEMORY` bytes per work group.
    pub shared_memory: Option<u32>,
}

/// A subroutine variable (`SUBROUTINE type var[n] = program.subroutine[..]`), whose slots
/// the app fills with function indices; each function has its label's instruction index.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let t = "!!NVvp5.0\nSUBROUTINETYPE T { a, b };\nSUBROUTINE T v = program.subroutine[2];\nmain:\nCALI v;\nRET;\na SUBROUTINENUM(5):\nRET;\nb SUBROUTINENUM(1):\nRET;\nEND";
/// let p = assemble(t, None).unwrap();
/// let v = &p.subroutine_vars[0];
/// assert_eq!((v.name.as_str(), v.first, v.len, v.functions.len()), ("v", 2, 1, 2));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SubroutineVar {
    /// Name the program declared it with.
    pub name: String,
    /// First `program.subroutine[n]` slot the variable covers.
    pub first: u32,
    /// Number of slots (array elements).
    pub len: u32,
    /// Instruction index of each function that may be called through it, by function index.
    pub functions: Vec<(u32, u32)>,
}

/// A checked, compiled program: its instructions with bindings resolved to slots, and
/// its interface (inputs read, outputs written, parameters, buffers, textures, ...).
///
/// ```
/// use glemu_programs::assemble;
/// let p = assemble("!!ARBvp1.0\nPARAM m[4] = { state.matrix.mvp };\nDP4 result.position.x, m[0], vertex.position;\nEND", None).unwrap();
/// assert_eq!(p.params.len(), 4);
/// assert_eq!(p.instructions.len(), 1);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// Stage the program runs in (from its header).
    pub stage: Stage,
    /// Dialect of the program text (from its header).
    pub dialect: Dialect,
    /// Index of the first instruction executed: the one after a `main:` label, else 0.
    pub entry: u32,
    /// Index of the instruction following each instruction label (sorted, deduplicated).
    /// A subroutine entered by CAL ends at the next label (NV_gpu_program4 section 2.X.5:
    /// "until ... program execution reaches another instruction label").
    pub labels: Vec<u32>,
    /// The options the program enabled.
    pub options: Options,
    /// Stage-specific declarations (primitives, tessellation, group size ...).
    pub decls: Declarations,
    /// The instructions, in text order; flow targets index into this.
    pub instructions: Vec<Inst>,
    /// One entry per temp register.
    pub temps: Vec<RegInfo>,
    /// (first register, length) of each temp array, for bounds checks and `--ir`.
    pub temp_arrays: Vec<(u32, u32)>,
    /// Number of address registers declared.
    pub address_regs: u32,
    /// Input slots (`File::Input` operands index this).
    pub inputs: Vec<InputSlot>,
    /// Output slots (`File::Output` operands index this).
    pub outputs: Vec<OutputSlot>,
    /// Parameter slots (`File::Param` operands index this).
    pub params: Vec<ParamSource>,
    /// Buffer variables (`Src::buffer` and `MemSpace` buffers index this).
    pub buffers: Vec<BufferVar>,
    /// Counter variables (`MemSpace::Counter` indexes this).
    pub counters: Vec<CounterVar>,
    /// Image variables (`MemSpace::Image` indexes this).
    pub images: Vec<ImageVar>,
    /// Subroutine variables (`Extra::CallIndirect::var` indexes this).
    pub subroutine_vars: Vec<SubroutineVar>,
    /// Texture unit → target, for every unit the program samples (a unit may have only one
    /// target).
    pub texture_targets: Vec<(u32, TexTarget)>,
    /// Names of declared variables with the slot they resolved to, for `--ir` and tools.
    pub symbols: Vec<Symbol>,
}

/// A declared name and the slots it covers, kept so `print_program` and tools can name them.
///
/// ```
/// # use glemu_programs::{assemble, ir::*};
/// let p = assemble("!!NVvp4.0\nTEMP t[3];\nMOV result.position, t[1];\nEND", None).unwrap();
/// let s = p.symbols.iter().find(|s| s.name == "t").unwrap();
/// assert_eq!((s.file, s.first, s.len), (File::Temp, 0, 3));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Symbol {
    /// The declared name.
    pub name: String,
    /// Register file of its slots.
    pub file: File,
    /// First slot.
    pub first: u32,
    /// Number of slots.
    pub len: u32,
}

impl Program {
    /// PROGRAM_ATTRIB_COMPONENTS_NV (NV_gpu_program4 section 2.X.3.2): four per input slot
    /// an instruction reads (every element of a relatively addressed array); attributes
    /// only declared are not counted, as the spec requires.
    ///
    /// ```
    /// let p = glemu_programs::assemble("!!NVvp4.0\nATTRIB a[3] = { vertex.attrib[0..2] };\nATTRIB b = vertex.attrib[5];\nMOV result.position, a[1];\nEND", None).unwrap();
    /// assert_eq!(p.attrib_components(), 4);
    /// ```
    pub fn attrib_components(&self) -> u32 {
        let mut used = vec![false; self.inputs.len()];
        for inst in &self.instructions {
            let offset_src = match &inst.extra {
                Extra::Tex(t) => match &t.offset {
                    Some(TexOffset::Register(s)) => Some(s),
                    _ => None,
                },
                _ => None,
            };
            for s in inst.srcs.iter().chain(offset_src) {
                if s.file == File::Input {
                    mark(&mut used, &s.index);
                }
            }
        }
        4 * used.iter().filter(|u| **u).count() as u32
    }

    /// PROGRAM_RESULT_COMPONENTS_NV (NV_gpu_program4 section 2.X.3.5): four per output
    /// slot an instruction writes (every element of a relatively addressed array).
    ///
    /// ```
    /// let p = glemu_programs::assemble("!!NVvp4.0\nMOV result.position, 0;\nMOV result.color.x, 1;\nEND", None).unwrap();
    /// assert_eq!(p.result_components(), 8);
    /// ```
    pub fn result_components(&self) -> u32 {
        let mut used = vec![false; self.outputs.len()];
        for d in self.instructions.iter().filter_map(|i| i.dst.as_ref()) {
            if d.file == File::Output {
                mark(&mut used, &d.index);
            }
        }
        4 * used.iter().filter(|u| **u).count() as u32
    }
}

/// Flag the slots `index` can reach.
fn mark(used: &mut [bool], index: &Index) {
    let (first, len) = match *index {
        Index::Direct(i) => (i, 1),
        Index::Relative { base, len, .. } => (base, len),
    };
    for u in used.iter_mut().skip(first as usize).take(len as usize) {
        *u = true;
    }
}
