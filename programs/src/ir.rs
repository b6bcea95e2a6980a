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
    Vertex,
    TessControl,
    TessEval,
    Geometry,
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
    F32,
    S32,
    U32,
    F64,
    S64,
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
    Float,
    Int,
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
    Full,
    Half,
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
    Abs,
    Add,
    Cmp,
    Ceil,
    Cos,
    /// DDX/DDY, and `.FINE` (ARB_derivative_control): per row / column of the 2×2 quad.
    Ddx,
    Ddy,
    /// `DDX.COARSE` / `DDY.COARSE`: one derivative for the whole 2×2 quad.
    DdxCoarse,
    DdyCoarse,
    Div,
    Dp2,
    Dp2a,
    Dp3,
    Dp4,
    Dph,
    Dst,
    Ex2,
    Exp,
    Flr,
    Frc,
    Lg2,
    Lit,
    Log,
    Lrp,
    Mad,
    Max,
    Min,
    Mov,
    Mul,
    /// `MUL.S.HI` / `MUL.U.HI`: the high 32 bits of the 64-bit integer product (`dtype` S32
    /// or U32). `MUL.S24`/`.U24` lower to `Mul` with S32/U32.
    MulHi,
    Nrm,
    Pow,
    Rcc,
    Rcp,
    Rfl,
    Round,
    Rsq,
    Scs,
    Seq,
    Sfl,
    Sge,
    Sgt,
    Sin,
    Sle,
    Slt,
    Sne,
    Ssg,
    Str,
    Sub,
    Swz,
    Trunc,
    X2d,
    Xpd,
    // integer and bit operations
    And,
    Or,
    Xor,
    Not,
    Shl,
    Shr,
    Mod,
    Sad,
    Bfe,
    Bfi,
    Bfr,
    Btc,
    Btfl,
    Btfm,
    // conversions and packing
    I2f,
    F2i,
    Cvt,
    Pk2h,
    Pk2us,
    Pk4b,
    Pk4ub,
    Pk64,
    Up2h,
    Up2us,
    Up4b,
    Up4ub,
    Up64,
    // address registers
    Arl,
    Arr,
    Ara,
    Pusha,
    Popa,
    // flow control
    If,
    Else,
    EndIf,
    Rep,
    EndRep,
    Loop,
    EndLoop,
    Brk,
    Cont,
    Bra,
    Cal,
    Cali,
    Ret,
    Kil,
    // texture
    Tex,
    Txb,
    Txd,
    Txf,
    Txfms,
    Txl,
    Txp,
    Txq,
    Txg,
    Txgo,
    Lod,
    // interpolation (fragment)
    Ipac,
    Ipao,
    Ipas,
    // memory
    Ldc,
    Load,
    Store,
    Atom,
    Atomctr,
    Membar,
    Loadim,
    Storeim,
    Atomim,
    // thread group
    Tgall,
    Tgany,
    Tgeq,
    /// NV_shader_thread_group: per component, the mask of running lanes whose operand is
    /// non-zero.
    Tgballot,
    /// NV_compute_program5 BAR: wait until every invocation of the work group (the
    /// tessellation control patch) reached it.
    Bar,
    /// NV_shader_thread_shuffle: result (in-range predicate, value) from another lane.
    Shfdown,
    Shfidx,
    Shfup,
    Shfxor,
    // geometry
    Emit,
    Emits,
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
        reg: IndexReg,
        offset: i32,
        base: u32,
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
    Address { reg: u32, comp: Comp },
    /// An integer temp component (NV_gpu_program4: `array[T.x]` with `INT TEMP T`).
    Temp { reg: u32, comp: Comp },
    /// An input component (e.g. `primitive.invocation.x` used directly as an index).
    Input { slot: u32, comp: Comp },
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
    Temp,
    Input,
    Param,
    Output,
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
    pub file: File,
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
    pub span: Span,
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
    Zero,
    One,
    Comp(Comp),
    NegZero,
    NegOne,
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
    pub index: Index,
    /// Write mask: bit 0 = x ... bit 3 = w.
    pub mask: u8,
    /// Conditional write mask, e.g. `R0 (GT.x)` / `R0.xy (NE1.zwzw)`.
    pub cond: Option<CondTest>,
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
    Eq,
    Ne,
    Lt,
    Ge,
    Le,
    Gt,
    Tr,
    Fl,
    // NaN-aware and unsigned forms of NV_gpu_program4
    Nan,
    Leg,
    Cf,
    Ncf,
    Of,
    Nof,
    Ab,
    Ble,
    Sf,
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
    pub op: CondOp,
    pub cc: u8,
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
    T1D,
    T2D,
    T3D,
    Cube,
    Rect,
    Array1D,
    Array2D,
    ArrayCube,
    Shadow1D,
    Shadow2D,
    ShadowRect,
    ShadowCube,
    ShadowArray1D,
    ShadowArray2D,
    ShadowArrayCube,
    Buffer,
    T2DMs,
    Array2DMs,
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
    Fixed(u32),
    /// `TEX r, c, texarray[A0.x + n], 2D` through a TEXTURE array declaration (NV5).
    Relative {
        reg: IndexReg,
        offset: i32,
        base: u32,
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
    Const([i8; 3]),
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
    pub unit: TexUnit,
    pub target: TexTarget,
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
    F16,
    F32,
    F64,
    S8,
    S16,
    S32,
    S64,
    U8,
    U16,
    U32,
    U64,
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
    Add,
    Min,
    Max,
    IWrap,
    DWrap,
    And,
    Or,
    Xor,
    Exch,
    CSwap,
    /// ATOMCTR only
    Incr,
    Decr,
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
    Default,
    Nearest,
    Ceil,
    Floor,
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
    Constant { buffer: u32 },
    /// `program.storage[n]` (NV_shader_storage_buffer_object).
    Storage { buffer: u32 },
    /// ATOMCTR on a COUNTER variable (`Program::counters`, index into it and offset).
    Counter { counter: u32 },
    /// LOADIM/STOREIM/ATOMIM on an IMAGE variable (`Program::images`).
    Image { image: u32 },
    /// LDS/STS/ATOMS on a SHARED variable (`Program::buffers`): the work group's shared
    /// memory (NV_compute_program5).
    Shared { buffer: u32 },
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
    pub space: MemSpace,
    pub ty: MemType,
    pub atom: Option<AtomOp>,
    pub coherent: bool,
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
    None,
    Tex(Box<TexInfo>),
    Mem(Box<MemInfo>),
    /// Flow control: index of the matching instruction (IF → its ELSE or ENDIF; ELSE →
    /// ENDIF; REP/LOOP → ENDREP/ENDLOOP; ENDREP/ENDLOOP → REP/LOOP; BRK/CONT → enclosing
    /// loop start; BRA/CAL → label target), plus the condition if any (`BRK (GT.x)`,
    /// `IF NE.x`, `KIL GT.x`).
    Flow {
        target: u32,
        cond: Option<CondTest>,
    },
    /// CALI through a subroutine variable: index into `Program::subroutine_vars`.
    CallIndirect {
        var: u32,
        array_index: Option<Index>,
        cond: Option<CondTest>,
    },
    /// `CVT.<to>.<from>`: the two storage modifiers (every size, F16 included) and the
    /// rounding. `Inst::dtype` is the register type of `to` (F16 → F32, S8/S16 → S32,
    /// U8/U16 → U32); `Inst::sat` clamps integer results to `to`'s range and float results
    /// to `[0, 1]` / `[-1, 1]`.
    Convert {
        from: MemScalar,
        to: MemScalar,
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
    pub op: Opcode,
    pub dtype: DataType,
    pub sat: Saturate,
    pub precision: Precision,
    /// `.CC` / `.CC0` → Some(0), `.CC1` → Some(1).
    pub cc_update: Option<u8>,
    pub dst: Option<Dst>,
    pub srcs: SmallVec<[Src; 3]>,
    pub extra: Extra,
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
    pub ty: VarType,
    pub long: bool,
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
    pub flat: bool,
    pub centroid: bool,
    pub noperspective: bool,
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
    VertexAttrib(u32),
    VertexPosition,
    VertexWeight(u32),
    VertexNormal,
    VertexColor {
        secondary: bool,
    },
    VertexFogCoord,
    VertexTexCoord(u32),
    VertexMatrixIndex(u32),
    VertexId,
    VertexInstance,
    /// ARB_shader_draw_parameters: the draw's base vertex (0 for non-indexed draws),
    /// base instance, and index within a multi-draw.
    VertexBaseVertex,
    VertexBaseInstance,
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
    FragPosition,
    FragColor {
        secondary: bool,
    },
    FragTexCoord(u32),
    FragFogCoord,
    FragAttrib(u32),
    FragFacing,
    FragClipDistance(u32),
    FragPointCoord,
    FragSampleId,
    FragSampleMask,
    FragSamplePosition,
    FragHelperThread,
    FragLayer,
    FragViewportIndex,
    FragBarycentric,
    // geometry / tessellation per-vertex inputs: varyings written by the previous stage;
    // `Src::vertex` selects the vertex.
    Varying(VaryingSlot),
    PrimitiveId,
    PrimitiveInvocation,
    PrimitiveVertexCount,
    TessCoord,
    /// TEP/TCP `primitive.patch.*` and TCP `primitive.out` reads.
    PatchIn(VaryingSlot),
    PatchOut(VaryingSlot),
    /// TCP `vertex.out[m].*`: a per-vertex result of output vertex `m` (written by
    /// invocation `m`); `Src::vertex` selects `m`.
    VertexOut(VaryingSlot),
    TessOuter(u32),
    TessInner(u32),
    /// NV_shader_thread_group built-ins.
    ThreadId,
    /// `*.warpid` and `*.smid` (NV_shader_thread_group): glemu is one SM running one warp
    /// (an executor batch) at a time, so both are always 0 -- deterministic, and within the
    /// ranges the spec gives (0..WARPS_PER_SM_NV-1, 0..SM_COUNT_NV-1) for one SM of one
    /// resident warp.
    WarpId,
    SmId,
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
    Eq,
    Ge,
    Gt,
    Le,
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
    Position,
    Color {
        back: bool,
        secondary: bool,
    },
    TexCoord(u32),
    Attrib(u32),
    FogCoord,
    PointSize,
    ClipDistance(u32),
    /// VP2 `o[CLP0-5]` / ARB `result.clip[n]` as one scalar each.
    ClipLegacy(u32),
    Layer,
    ViewportIndex,
    ViewportMask,
    /// TCP/TEP per-patch attributes (`result.patch.attrib[n]`).
    PatchAttrib(u32),
    TessOuter(u32),
    TessInner(u32),
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
        target: u32,
        index: u32,
    },
    FragDepth,
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
    pub binding: InputBinding,
    pub interp: Interp,
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
    pub binding: OutputBinding,
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
    Env(u32),
    Local(u32),
    State(StateBinding),
    /// FP1 `DECLARE name = {..};`: a named local parameter the app sets by name
    /// (ProgramNamedParameter4fNV); `initial` (raw f32 bits) until it does.
    Named {
        name: String,
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
        matrix: MatrixName,
        modifier: MatrixModifier,
        row: u32,
    },
    Material {
        back: bool,
        prop: MaterialProp,
    },
    Light {
        light: u32,
        prop: LightProp,
    },
    LightModelAmbient,
    LightModelSceneColor {
        back: bool,
    },
    LightProduct {
        light: u32,
        back: bool,
        prop: LightProductProp,
    },
    TexGen {
        unit: u32,
        coord: u32,
        eye: bool,
    },
    FogColor,
    FogParams,
    ClipPlane(u32),
    PointSize,
    PointAttenuation,
    DepthRange,
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
    ModelView(u32),
    Projection,
    Mvp,
    Texture(u32),
    Palette(u32),
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
    None,
    Inverse,
    Transpose,
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
    Ambient,
    Diffuse,
    Specular,
    Emission,
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
    Ambient,
    Diffuse,
    Specular,
    Position,
    Attenuation,
    SpotDirection,
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
    Ambient,
    Diffuse,
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
    pub kind: BufferKind,
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
    pub name: String,
    pub binding: u32,
    pub first: u32,
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
    pub name: String,
    pub first: u32,
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
    pub names: Vec<String>,
    pub position_invariant: bool,
    pub early_fragment_tests: bool,
    pub origin_upper_left: bool,
    pub pixel_center_integer: bool,
    pub fog: Option<FogMode>,
    pub draw_buffers: bool,
    pub blend_func_extended: bool,
    pub fragment_program_shadow: bool,
    pub precision_hint_fastest: bool,
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
    Exp,
    Exp2,
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
    Points,
    Lines,
    LinesAdjacency,
    Triangles,
    TrianglesAdjacency,
    LineStrip,
    TriangleStrip,
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
    Triangles,
    Quads,
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
    Equal,
    FractionalOdd,
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
    pub primitive_in: Option<PrimKind>,
    pub primitive_out: Option<PrimKind>,
    pub vertices_out: Option<u32>,
    pub invocations: Option<u32>,
    pub tess_mode: Option<TessMode>,
    pub tess_spacing: Option<TessSpacing>,
    /// true = CW.
    pub tess_cw: Option<bool>,
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
    pub name: String,
    pub first: u32,
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
    pub stage: Stage,
    pub dialect: Dialect,
    /// Index of the first instruction executed: the one after a `main:` label, else 0.
    pub entry: u32,
    /// Index of the instruction following each instruction label (sorted, deduplicated).
    /// A subroutine entered by CAL ends at the next label (NV_gpu_program4 section 2.X.5:
    /// "until ... program execution reaches another instruction label").
    pub labels: Vec<u32>,
    pub options: Options,
    pub decls: Declarations,
    pub instructions: Vec<Inst>,
    /// One entry per temp register.
    pub temps: Vec<RegInfo>,
    /// (first register, length) of each temp array, for bounds checks and `--ir`.
    pub temp_arrays: Vec<(u32, u32)>,
    pub address_regs: u32,
    pub inputs: Vec<InputSlot>,
    pub outputs: Vec<OutputSlot>,
    pub params: Vec<ParamSource>,
    pub buffers: Vec<BufferVar>,
    pub counters: Vec<CounterVar>,
    pub images: Vec<ImageVar>,
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
    pub name: String,
    pub file: File,
    pub first: u32,
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
