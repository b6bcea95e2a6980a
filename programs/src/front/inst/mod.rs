//! Instructions: the opcode and its availability, the data type, operands by opcode shape
//! and the per-instruction load-time checks. Modifiers (modifiers.rs), memory and image
//! operands (memory.rs), texture operands (texture.rs) and flow control (flow.rs) are
//! their own modules.

use super::opcodes::{self, OpInfo, Shape, TypeMods, AF, AV, F2, FO, V2, V3};
use super::operands::ParsedSrc;
use super::{Block, Parser, Sym};
use crate::error::ProgramError;
use crate::ir::*;
use crate::lexer::Tok;
use crate::parse::{semantic, syntax};
use crate::span::Span;
use smallvec::SmallVec;

mod flow;
mod memory;
mod modifiers;
mod texture;

pub(crate) use texture::target_name;

/// Modifiers collected from suffixes and `.MOD` items.
#[derive(Default)]
struct Mods {
    dtype: Option<(DataType, Span)>,
    mem: Option<(MemType, Span)>,
    cc: Option<u8>,
    sat: Saturate,
    precision: Precision,
    ntc: bool,
    /// S24 / U24 / HI on MUL.
    mul_mod: Option<(String, Span)>,
    atom: Option<(AtomOp, Span)>,
    coherent: bool,
    volatile: bool,
    rounding: Rounding,
    /// CVT's two storage modifiers (result type, then operand type).
    cvt: Vec<(MemScalar, Span)>,
    /// ARB_derivative_control: Some(true) for `.COARSE`, Some(false) for `.FINE`.
    coarse: Option<bool>,
    /// EXT_sparse_texture2 `.SPARSE`.
    sparse: bool,
    /// ARB_sparse_texture_clamp `.LODCLAMP`.
    lod_clamp: Option<Span>,
}

fn mem_dtype(t: MemType) -> DataType {
    match t.scalar {
        MemScalar::F16 | MemScalar::F32 => DataType::F32,
        MemScalar::F64 => DataType::F64,
        MemScalar::S8 | MemScalar::S16 | MemScalar::S32 => DataType::S32,
        MemScalar::S64 => DataType::S64,
        MemScalar::U8 | MemScalar::U16 | MemScalar::U32 => DataType::U32,
        MemScalar::U64 => DataType::U64,
    }
}

/// A memory instruction that takes the storage modifiers (COH, VOL) and names its data
/// type: every [`OpClass::Memory`] opcode but ATOMCTR and MEMBAR.
fn is_mem(op: Opcode) -> bool {
    op.class() == OpClass::Memory && !matches!(op, Opcode::Atomctr | Opcode::Membar)
}

fn is_tex(op: Opcode) -> bool {
    op.class() == OpClass::Texture
}

fn var_of(d: DataType) -> VarType {
    match d {
        DataType::F32 | DataType::F64 => VarType::Float,
        DataType::S32 | DataType::S64 => VarType::Int,
        DataType::U32 | DataType::U64 => VarType::Uint,
    }
}

impl Parser {
    pub(crate) fn instruction(&mut self) -> Result<(), ProgramError> {
        let (name, nspan) = self.c.ident("an instruction")?;
        let Some((info, sfx)) = opcodes::split_suffixes(&name) else {
            return Err(syntax(
                nspan,
                format!("'{name}' is not an instruction or declaration"),
            ));
        };
        self.check_available(info, &name, nspan)?;
        self.check_option_gates(info, nspan)?;
        let mut mods = self.suffix_mods(info, sfx, &name, nspan)?;
        self.dot_mods(info, &mut mods)?;
        let mut dtype = self.pick_dtype(info, &mods);
        let mut op = info.op;
        if let Some((mm, span)) = &mods.mul_mod {
            // S24/U24 imply their type; HI needs an explicit .S or .U.
            match (mm.as_str(), mods.dtype) {
                ("S24" | "U24", Some(_)) => {
                    return Err(semantic(
                        *span,
                        format!(
                            "'.{mm}' implies the data type: no other data type modifier allowed"
                        ),
                    ));
                }
                ("S24", None) => dtype = DataType::S32,
                ("U24", None) => dtype = DataType::U32,
                (_, Some((DataType::S32 | DataType::U32, _))) => op = Opcode::MulHi,
                _ => {
                    return Err(semantic(
                        *span,
                        "'.HI' needs the .S or .U data type modifier",
                    ));
                }
            }
        }
        if mods.coarse == Some(true) {
            op = if op == Opcode::Ddy {
                Opcode::DdyCoarse
            } else {
                Opcode::DdxCoarse
            };
        }
        let inst = Inst {
            op,
            dtype,
            sat: mods.sat,
            precision: mods.precision,
            cc_update: mods.cc,
            dst: None,
            srcs: SmallVec::new(),
            extra: Extra::None,
            span: nspan,
        };
        let mut inst = self.operands(info, &mods, inst)?;
        inst.span = nspan.to(self.c.prev_span());
        self.prog.instructions.push(inst);
        Ok(())
    }

    fn check_available(&self, info: &OpInfo, name: &str, span: Span) -> Result<(), ProgramError> {
        if self.is_nv() {
            if info.nv == 0 || info.nv > self.nv {
                return Err(syntax(
                    span,
                    format!("'{name}' is not an instruction of this program version"),
                ));
            }
        } else {
            let mut bits = if self.stage == Stage::Vertex { AV } else { AF };
            if self.opts.vp2 {
                bits |= V2;
            }
            if self.opts.vp3 {
                bits |= V3;
            }
            if self.opts.fpo {
                bits |= FO;
            }
            if self.opts.fp2 {
                bits |= F2;
            }
            if info.arb & bits == 0 {
                return Err(syntax(
                    span,
                    format!(
                        "'{name}' is not available in ARB {} programs with these options",
                        self.stage.name()
                    ),
                ));
            }
        }
        let st = self.stage;
        let bad_stage = match info.op {
            Opcode::Ddx
            | Opcode::Ddy
            | Opcode::Kil
            | Opcode::Ipac
            | Opcode::Ipao
            | Opcode::Ipas => st != Stage::Fragment,
            Opcode::Emit | Opcode::Emits | Opcode::EndPrim => {
                if self.prog.decls.passthrough {
                    return Err(semantic(
                        span,
                        format!("'{name}' is not allowed in a passthrough geometry program"),
                    ));
                }
                st != Stage::Geometry
            }
            // NV_compute_program5's barrier. Tessellation control programs are a
            // deliberate leniency (programs/LOAD_RULES.md): emulators emit BAR for GLSL's
            // barrier() there, and NVIDIA's driver loads it.
            Opcode::Bar => !matches!(st, Stage::TessControl | Stage::Compute),
            _ if matches!(name, "LDS" | "STS" | "ATOMS") => st != Stage::Compute,
            _ => false,
        };
        if bad_stage {
            return Err(semantic(
                span,
                format!("'{name}' is not allowed in {} programs", st.name()),
            ));
        }
        Ok(())
    }

    /// Opcodes that exist only with a program option (each option's "Program Options"
    /// section: "If a program specifies the ... option, it may use ...").
    fn check_option_gates(&self, info: &OpInfo, span: Span) -> Result<(), ProgramError> {
        if !self.is_nv() {
            return Ok(());
        }
        let need: &[&str] = match info.name {
            "ATOMCTR" => &["NV_shader_atomic_counters"],
            "LDB" | "STB" | "ATOMB" => &["NV_shader_storage_buffer"],
            "LOAD" if self.nv < 50 => &["NV_shader_buffer_load"],
            "LDC" if self.nv < 50 => &["NV_parameter_buffer_object2"],
            "TXFMS" => &["NV_explicit_multisample", "NV_texture_multisample"],
            "SHFDOWN" | "SHFIDX" | "SHFUP" | "SHFXOR" => &["NV_shader_thread_shuffle"],
            "TGBALLOT" => &["NV_shader_thread_group"],
            _ => return Ok(()),
        };
        self.require_option(need, info.name, span)
    }

    fn pick_dtype(&self, info: &OpInfo, m: &Mods) -> DataType {
        if let Some((t, _)) = m.dtype {
            return t;
        }
        if let Some((t, _)) = m.mem {
            return mem_dtype(t);
        }
        if let Some(&(t, _)) = m.cvt.first() {
            return mem_dtype(MemType {
                scalar: t,
                count: 1,
            });
        }
        info.default.unwrap_or(DataType::F32)
    }

    /// Checks a source's declared type against what the instruction reads.
    fn check_src_type(
        &self,
        s: &ParsedSrc,
        kind: Shape,
        dtype: DataType,
        ntc: bool,
        name: &str,
    ) -> Result<(), ProgramError> {
        if !self.is_nv() || ntc {
            return Ok(());
        }
        let want = match kind {
            Shape::FloatVector => VarType::Float,
            Shape::SignedVector => VarType::Int,
            Shape::UnsignedVector | Shape::UnsignedScalar => VarType::Uint,
            _ => var_of(dtype),
        };
        if let Some(ty) = s.ty {
            let ok = (ty == VarType::Float) == (want == VarType::Float);
            if !ok {
                return Err(semantic(
                    s.src.span,
                    format!("{name}: operand type {ty:?} does not match the instruction's {want:?} operand (use .NTC to override)"),
                ));
            }
        }
        Ok(())
    }

    fn src(
        &mut self,
        kind: Shape,
        dtype: DataType,
        ntc: bool,
        name: &str,
    ) -> Result<Src, ProgramError> {
        let const_ty = match kind {
            Shape::FloatVector => VarType::Float,
            Shape::SignedVector => VarType::Int,
            Shape::UnsignedVector | Shape::UnsignedScalar => VarType::Uint,
            _ => var_of(dtype),
        };
        // Literals read as a 64-bit type keep their full precision (NV_gpu_program5:
        // fp64 and 64-bit integer operands).
        let wide = (dtype.is_64()
            && matches!(kind, Shape::Vector | Shape::Scalar | Shape::UnsignedScalar))
        .then_some(dtype);
        let s = self.src_operand_typed(const_ty, wide)?;
        if matches!(kind, Shape::Scalar | Shape::UnsignedScalar) && !s.scalar {
            return Err(semantic(
                s.src.span,
                format!("{name} needs a scalar operand here: add a component suffix such as '.x'"),
            ));
        }
        self.check_src_type(&s, kind, dtype, ntc, name)?;
        Ok(s.src)
    }

    fn comma(&mut self) -> Result<(), ProgramError> {
        self.c.expect(&Tok::Comma, "between operands").map(|_| ())
    }

    fn operands(&mut self, info: &OpInfo, m: &Mods, mut inst: Inst) -> Result<Inst, ProgramError> {
        use Opcode::*;
        let op = info.op;
        let name = info.name;
        let dtype = inst.dtype;
        let idx = self.prog.instructions.len() as u32;
        if matches!(name, "LDB" | "STB" | "ATOMB") {
            return self.storage_inst(info, m, inst);
        }
        if matches!(name, "LDS" | "STS" | "ATOMS") {
            return self.shared_inst(info, m, inst);
        }
        match op {
            If | Else | EndIf | Rep | EndRep | Loop | EndLoop | Brk | Cont | Bra | Cal | Ret
            | Cali => {
                return self.flow_inst(info, m, inst, idx);
            }
            Kil => {
                // `KIL NE.x` (condition) or `KIL src`.
                let is_cond = self.nv_syntax()
                    && self.c.peek_ident().is_some_and(|s| {
                        let b = s.trim_end_matches(['0', '1']);
                        matches!(
                            b,
                            "EQ" | "NE"
                                | "LT"
                                | "GE"
                                | "LE"
                                | "GT"
                                | "TR"
                                | "FL"
                                | "NAN"
                                | "LEG"
                                | "CF"
                                | "NCF"
                                | "OF"
                                | "NOF"
                                | "AB"
                                | "BLE"
                                | "SF"
                                | "NSF"
                        )
                    })
                    && !self.syms.contains_key(self.c.peek_ident().unwrap_or(""));
                if is_cond {
                    let cond = self.cc_test()?;
                    inst.extra = Extra::Flow {
                        target: idx,
                        cond: Some(cond),
                    };
                } else {
                    let s = self.src(Shape::Vector, dtype, m.ntc, name)?;
                    inst.srcs.push(s);
                }
                return Ok(inst);
            }
            Emit | EndPrim | Membar | Bar | Popa if op != Popa => return Ok(inst),
            Emits => {
                let s = self.src(Shape::Scalar, DataType::S32, m.ntc, name)?;
                inst.dtype = DataType::S32;
                inst.srcs.push(s);
                return Ok(inst);
            }
            Arl | Arr | Ara | Popa => {
                let (dst, _) = self.dst_operand(true)?;
                if dst.file != File::Address {
                    return Err(semantic(
                        dst.span,
                        format!("{name} writes an address register"),
                    ));
                }
                if op == Popa && dst.mask != 0xF {
                    return Err(semantic(
                        dst.span,
                        "POPA writes the whole address register: no write mask allowed",
                    ));
                }
                // NV_vertex_program3: "or a condition code write mask test other than TR".
                if op == Popa && dst.cond.as_ref().is_some_and(|c| c.op != CondOp::Tr) {
                    return Err(semantic(
                        dst.span,
                        "POPA allows only the TR condition code test",
                    ));
                }
                if !self.opts.vp2 && dst.mask != 1 {
                    return Err(semantic(
                        dst.span,
                        format!("{name} can only write the x component of an address register"),
                    ));
                }
                inst.dst = Some(dst);
                if op != Popa {
                    self.comma()?;
                    if op == Ara {
                        let (n, s) = self.c.ident("an address register")?;
                        let Some(Sym::Address { index }) = self.syms.get(&n).map(|x| x.0.clone())
                        else {
                            return Err(semantic(
                                s,
                                format!("ARA reads an address register, '{n}' is not one"),
                            ));
                        };
                        if self.c.peek() == &Tok::Dot {
                            return Err(syntax(
                                self.c.span(),
                                "ARA reads the whole address register: no swizzle allowed",
                            ));
                        }
                        inst.srcs.push(addr_src(index, [0, 1, 2, 3], s));
                    } else {
                        let kind = if op == Arl && !self.opts.vp2 {
                            Shape::Scalar
                        } else {
                            Shape::Vector
                        };
                        let s = self.src(kind, DataType::F32, m.ntc, name)?;
                        inst.srcs.push(s);
                    }
                }
                inst.dtype = DataType::F32;
                return Ok(inst);
            }
            Pusha => {
                let (n, s) = self.c.ident("an address register")?;
                let Some(Sym::Address { index }) = self.syms.get(&n).map(|x| x.0.clone()) else {
                    return Err(semantic(
                        s,
                        format!("PUSHA pushes an address register, '{n}' is not one"),
                    ));
                };
                inst.srcs.push(addr_src(index, [0, 1, 2, 3], s));
                return Ok(inst);
            }
            Swz => {
                let (dst, dty) = self.dst_operand(false)?;
                self.check_dst_type(dty, Shape::Vector, dtype, m.ntc, name, dst.span)?;
                inst.dst = Some(dst);
                self.comma()?;
                let s = self.src_operand(var_of(dtype))?;
                let suffixed = self.c.peek_back(2) == &Tok::Dot
                    && matches!(self.c.peek_back(1), Tok::Ident(w)
                        if w.chars().all(|c| "xyzwrgba".contains(c)));
                if s.src.swizzle != [0, 1, 2, 3] || suffixed {
                    return Err(syntax(
                        s.src.span,
                        "SWZ takes its swizzle as four separate components",
                    ));
                }
                let mut src = s.src;
                self.comma()?;
                src.ext_swizzle = Some(self.ext_swizzle()?);
                inst.srcs.push(src);
                return Ok(inst);
            }
            Store => {
                let data = self.src(Shape::Vector, dtype, true, name)?;
                self.comma()?;
                let addr = self.src(Shape::UnsignedScalar, DataType::U64, true, name)?;
                inst.srcs.push(data);
                inst.srcs.push(addr);
                inst.extra = self.mem_info(m, MemSpace::Global, name, inst.span)?;
                return Ok(inst);
            }
            Storeim => {
                let (space, element, _) = self.image_unit()?;
                self.comma()?;
                let data = self.src(Shape::Vector, dtype, true, name)?;
                self.comma()?;
                let coord = self.src(Shape::SignedVector, DataType::S32, true, name)?;
                self.comma()?;
                let target = self.image_target()?;
                inst.srcs.push(data);
                inst.srcs.push(coord);
                inst.extra = self.image_info(m, space, element, target, name, inst.span)?;
                return Ok(inst);
            }
            _ => {}
        }
        // Everything else writes a destination first.
        // CVT.F16 writes raw half bits, which any variable can hold (as PK2H's do).
        let half_result = op == Cvt && m.cvt.first().is_some_and(|c| c.0 == MemScalar::F16);
        if info.out.is_some() {
            let (dst, dty) = self.dst_operand(false)?;
            let out_kind = info.out.unwrap_or(Shape::Vector);
            self.check_dst_type(
                dty,
                out_kind,
                dtype,
                m.ntc || is_mem(op) || op == Atomctr || half_result,
                name,
                dst.span,
            )?;
            inst.dst = Some(dst);
        }
        match op {
            Ldc => {
                self.comma()?;
                // "A final operand vector is derived from the base operand vector by
                // applying swizzle, negation, and absolute value operand modifiers"
                // (NV_parameter_buffer_object2, LDC).
                let start = self.c.span();
                let negate = self.c.eat(&Tok::Minus);
                if !negate {
                    self.c.eat(&Tok::Plus);
                }
                let abs = self.c.eat(&Tok::Bar);
                let (n, s) = self.c.ident("a CBUFFER variable")?;
                let Some(Sym::Buffer { index, .. }) = self.syms.get(&n).map(|x| x.0.clone()) else {
                    return Err(semantic(
                        s,
                        format!("LDC needs a CBUFFER variable, '{n}' is not one"),
                    ));
                };
                if !self
                    .prog
                    .buffers
                    .get(index as usize)
                    .is_some_and(|b| b.kind == BufferKind::CBuffer)
                {
                    return Err(semantic(
                        s,
                        format!("LDC needs a CBUFFER variable, '{n}' is not one"),
                    ));
                }
                let binding = self.buffer_binding_index(&n, index, s)?;
                let elem = self.buffer_index(&n, index)?;
                let (swizzle, _) = self.swizzle_suffix()?;
                if abs {
                    self.c.expect(&Tok::Bar, "to close the absolute value")?;
                }
                inst.srcs.push(Src {
                    vertex: binding,
                    buffer: index,
                    swizzle,
                    abs,
                    negate,
                    ..Src::plain(File::Buffer, elem, start.to(self.c.prev_span()))
                });
                inst.extra =
                    self.mem_info(m, MemSpace::Constant { buffer: index }, name, inst.span)?;
            }
            Load => {
                self.comma()?;
                let a = self.src(Shape::UnsignedScalar, DataType::U64, true, name)?;
                inst.srcs.push(a);
                inst.extra = self.mem_info(m, MemSpace::Global, name, inst.span)?;
            }
            Atom => {
                self.comma()?;
                let d = self.src(Shape::Vector, dtype, true, name)?;
                self.comma()?;
                let a = self.src(Shape::UnsignedScalar, DataType::U64, true, name)?;
                inst.srcs.push(d);
                inst.srcs.push(a);
                inst.extra = self.mem_info(m, MemSpace::Global, name, inst.span)?;
            }
            Loadim | Atomim => {
                self.comma()?;
                if op == Atomim {
                    let d = self.src(Shape::Vector, dtype, true, name)?;
                    inst.srcs.push(d);
                    self.comma()?;
                }
                let coord = self.src(Shape::SignedVector, DataType::S32, true, name)?;
                inst.srcs.push(coord);
                self.comma()?;
                let (space, element, _) = self.image_unit()?;
                self.comma()?;
                let target = self.image_target()?;
                inst.extra = self.image_info(m, space, element, target, name, inst.span)?;
            }
            Atomctr => {
                self.comma()?;
                let (n, s) = self.c.ident("a COUNTER variable")?;
                let Some(Sym::Counter { index }) = self.syms.get(&n).map(|x| x.0.clone()) else {
                    return Err(semantic(
                        s,
                        format!("ATOMCTR needs a COUNTER variable, '{n}' is not one"),
                    ));
                };
                let len = self.prog.counters.get(index as usize).map_or(1, |c| c.len);
                let elem = if self.c.peek() == &Tok::LBracket {
                    self.array_index_rel(&n, 0, len)?
                } else {
                    Index::Direct(0)
                };
                inst.srcs.push(Src {
                    buffer: index,
                    ..Src::plain(File::Buffer, elem, s)
                });
                if m.atom.is_none() {
                    return Err(semantic(
                        inst.span,
                        "ATOMCTR needs an operation modifier (.INCR, .DECR or .GET)",
                    ));
                }
                inst.extra = Extra::Mem(Box::new(MemInfo {
                    space: MemSpace::Counter { counter: index },
                    ty: MemType {
                        scalar: MemScalar::U32,
                        count: 1,
                    },
                    atom: m.atom.map(|a| a.0),
                    coherent: false,
                    volatile: false,
                    target: None,
                    element: None,
                    formatted: false,
                }));
            }
            Ipac | Ipao | Ipas => {
                self.comma()?;
                let s = self.src(Shape::Vector, dtype, m.ntc, name)?;
                let ok =
                    s.file == File::Input && s.vertex.is_none() && self.interpolatable(&s.index);
                if !ok {
                    return Err(semantic(
                        s.span,
                        format!("{name} needs a fragment attribute operand other than fragment.facing and primitive.id"),
                    ));
                }
                inst.srcs.push(s);
                if op != Ipac {
                    self.comma()?;
                    let k = if op == Ipao {
                        Shape::FloatVector
                    } else {
                        Shape::Scalar
                    };
                    let t = if op == Ipao {
                        DataType::F32
                    } else {
                        DataType::S32
                    };
                    let s2 = self.src(k, t, true, name)?;
                    inst.srcs.push(s2);
                }
            }
            Cvt => {
                self.comma()?;
                return self.convert(m, inst);
            }
            _ if is_tex(op) => {
                self.tex_operands(info, m, &mut inst)?;
            }
            _ => {
                for kind in &info.ins {
                    self.comma()?;
                    let s = self.src(*kind, dtype, m.ntc, name)?;
                    inst.srcs.push(s);
                }
                self.check_short_packing(&inst, name)?;
                if op == Rfl && !self.is_nv() && inst.dst.as_ref().is_some_and(|d| d.mask & 8 != 0)
                {
                    return Err(semantic(inst.span, "RFL may not write the w component"));
                }
            }
        }
        Ok(inst)
    }

    /// PK2H/PK2US/PK4B/PK4UB may not write, and UP2H/UP2US/UP4B/UP4UB may not read, a
    /// SHORT variable (too narrow to hold the packed bits).
    fn check_short_packing(&self, inst: &Inst, name: &str) -> Result<(), ProgramError> {
        use Opcode::*;
        let short = |file: File, index: &Index| {
            let slot = match index {
                Index::Direct(i) => *i,
                Index::Relative { base, .. } => *base,
            };
            match file {
                File::Temp => self.prog.temps.get(slot as usize).is_some_and(|t| t.short),
                File::Output => self
                    .prog
                    .outputs
                    .get(slot as usize)
                    .is_some_and(|o| o.info.short),
                _ => false,
            }
        };
        if matches!(inst.op, Pk2h | Pk2us | Pk4b | Pk4ub) {
            if let Some(d) = inst.dst.as_ref().filter(|d| short(d.file, &d.index)) {
                return Err(semantic(
                    d.span,
                    format!("{name} cannot write a SHORT variable"),
                ));
            }
        }
        let long = |file: File, index: &Index| {
            let slot = match index {
                Index::Direct(i) => *i,
                Index::Relative { base, .. } => *base,
            };
            match file {
                File::Temp => self.prog.temps.get(slot as usize).is_some_and(|t| t.long),
                File::Output => self
                    .prog
                    .outputs
                    .get(slot as usize)
                    .is_some_and(|o| o.info.long),
                File::Input => self
                    .prog
                    .inputs
                    .get(slot as usize)
                    .is_some_and(|i| i.info.long),
                _ => false,
            }
        };
        if inst.op == Pk64 {
            if let Some(d) = inst.dst.as_ref().filter(|d| !long(d.file, &d.index)) {
                return Err(semantic(d.span, "PK64 must write a variable declared LONG"));
            }
        }
        if inst.op == Up64 {
            if let Some(s) = inst.srcs.iter().find(|s| !long(s.file, &s.index)) {
                return Err(semantic(s.span, "UP64 must read a variable declared LONG"));
            }
        }
        if matches!(inst.op, Up2h | Up2us | Up4b | Up4ub) {
            if let Some(s) = inst.srcs.iter().find(|s| short(s.file, &s.index)) {
                return Err(semantic(
                    s.span,
                    format!("{name} cannot read a SHORT variable"),
                ));
            }
        }
        Ok(())
    }

    /// CVT.<to>.<from>: one `Cvt` carrying both storage modifiers; the executor does the
    /// whole conversion (operand narrowing, rounding, saturation, result widening).
    fn convert(&mut self, m: &Mods, mut inst: Inst) -> Result<Inst, ProgramError> {
        let span = inst.span;
        let [(to, _), (from, _)] = m.cvt[..] else {
            return Err(semantic(
                span,
                "CVT needs two storage modifiers (result type, operand type), e.g. CVT.F32.S32",
            ));
        };
        let mem = |scalar| MemType { scalar, count: 1 };
        // An F16 operand is the 16 low bits of an integer-looking component; read it raw.
        let from_t = match from {
            MemScalar::F16 => DataType::U32,
            _ => mem_dtype(mem(from)),
        };
        let src = self.src(Shape::Vector, from_t, true, "CVT")?;
        if src.negate || src.abs {
            return Err(semantic(
                src.span,
                "CVT does not support negation or absolute value on its operand",
            ));
        }
        inst.dtype = mem_dtype(mem(to));
        inst.srcs.push(src);
        inst.extra = Extra::Convert {
            from,
            to,
            rounding: m.rounding,
        };
        Ok(inst)
    }

    /// Whether IPAC/IPAO/IPAS may read `index`: an attribute variable (every element of a
    /// relatively indexed array) other than fragment.facing and primitive.id.
    fn interpolatable(&self, index: &Index) -> bool {
        let slots = match *index {
            Index::Direct(slot) => slot..slot + 1,
            Index::Relative { base, len, .. } => base..base.saturating_add(len),
        };
        !slots.is_empty() && slots.into_iter().all(|slot| self.interpolatable_slot(slot))
    }

    fn interpolatable_slot(&self, slot: u32) -> bool {
        matches!(
            self.prog.inputs.get(slot as usize).map(|s| &s.binding),
            Some(
                InputBinding::FragColor { .. }
                    | InputBinding::FragTexCoord(_)
                    | InputBinding::FragFogCoord
                    | InputBinding::FragAttrib(_)
                    | InputBinding::FragClipDistance(_)
                    | InputBinding::FragPosition
                    | InputBinding::FragPointCoord
                    | InputBinding::FragBarycentric
            )
        )
    }

    fn check_dst_type(
        &self,
        dty: Option<VarType>,
        kind: Shape,
        dtype: DataType,
        ntc: bool,
        name: &str,
        span: Span,
    ) -> Result<(), ProgramError> {
        if !self.is_nv() || ntc {
            return Ok(());
        }
        let want = match kind {
            Shape::FloatVector => VarType::Float,
            Shape::SignedVector => VarType::Int,
            Shape::UnsignedVector => VarType::Uint,
            _ => var_of(dtype),
        };
        if let Some(ty) = dty {
            let ok = (ty == VarType::Float) == (want == VarType::Float);
            if !ok {
                return Err(semantic(
                    span,
                    format!("{name}: result type {want:?} does not match the {ty:?} destination variable (use .NTC to override)"),
                ));
            }
        }
        Ok(())
    }
}

fn addr_src(index: u32, swizzle: [Comp; 4], span: Span) -> Src {
    Src {
        swizzle,
        ..Src::plain(File::Address, Index::Direct(index), span)
    }
}
