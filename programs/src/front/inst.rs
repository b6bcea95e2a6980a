//! Instructions: opcode name and suffixes, `.MOD` modifiers, operands by opcode shape,
//! texture accesses and memory operations, with the per-instruction load-time checks.

use super::cursor::{semantic, syntax};
use super::opcodes::{self, Kind, OpInfo, TypeMods, AF, AV, F2, FO, V2, V3};
use super::operands::ParsedSrc;
use super::{Block, Sym, P};
use crate::error::ProgramError;
use crate::ir::*;
use crate::lexer::Tok;
use crate::span::Span;
use smallvec::SmallVec;

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

fn data_type_mod(m: &str) -> Option<DataType> {
    Some(match m {
        "F" | "F32" => DataType::F32,
        "S" | "S32" => DataType::S32,
        "U" | "U32" => DataType::U32,
        "F64" => DataType::F64,
        "S64" => DataType::S64,
        "U64" => DataType::U64,
        _ => return None,
    })
}

/// A storage modifier: `F32`, `U8`, `S32X4` ... Vectors of 8/16-bit and F16 components
/// (`S8X4`, `F16X2` ...) only exist with NV_gpu_program5_mem_extended; `small_vectors` says
/// whether to accept them.
fn mem_type_mod(m: &str, small_vectors: bool) -> Option<MemType> {
    // `F16x2` / `F16x4`: the spelling emulators print for NV_shader_atomic_fp16_vector
    // (a deliberate leniency, programs/LOAD_RULES.md).
    let (base, count) = match m.split_once('X').or_else(|| {
        m.split_once('x')
            .filter(|(b, n)| *b == "F16" && matches!(*n, "2" | "4"))
    }) {
        Some((b, n)) => (b, n.parse::<u8>().ok()?),
        None => (m, 1),
    };
    if !matches!(count, 1 | 2 | 4) {
        return None;
    }
    let scalar = match base {
        "F16" => MemScalar::F16,
        "F32" => MemScalar::F32,
        "F64" => MemScalar::F64,
        "S8" => MemScalar::S8,
        "S16" => MemScalar::S16,
        "S32" => MemScalar::S32,
        "S64" => MemScalar::S64,
        "U8" => MemScalar::U8,
        "U16" => MemScalar::U16,
        "U32" => MemScalar::U32,
        "U64" => MemScalar::U64,
        _ => return None,
    };
    if count > 1
        && !small_vectors
        && !matches!(
            scalar,
            MemScalar::F32
                | MemScalar::F64
                | MemScalar::S32
                | MemScalar::S64
                | MemScalar::U32
                | MemScalar::U64
        )
    {
        return None;
    }
    Some(MemType { scalar, count })
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

fn atom_op(m: &str) -> Option<AtomOp> {
    Some(match m {
        "ADD" => AtomOp::Add,
        "MIN" => AtomOp::Min,
        "MAX" => AtomOp::Max,
        "IWRAP" => AtomOp::IWrap,
        "DWRAP" => AtomOp::DWrap,
        "AND" => AtomOp::And,
        "OR" => AtomOp::Or,
        "XOR" => AtomOp::Xor,
        "EXCH" => AtomOp::Exch,
        "CSWAP" => AtomOp::CSwap,
        "INCR" => AtomOp::Incr,
        "DECR" => AtomOp::Decr,
        "GET" => AtomOp::Get,
        _ => return None,
    })
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

impl P {
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

    fn suffix_mods(
        &self,
        info: &OpInfo,
        sfx: opcodes::Suffixes,
        name: &str,
        span: Span,
    ) -> Result<Mods, ProgramError> {
        let mut m = Mods::default();
        let arb = !self.is_nv();
        if let Some(p) = sfx.precision {
            let ok_opt = if arb { self.opts.fpo } else { p != 'X' };
            let ok_op = match p {
                'R' => info.f != TypeMods::None || info.half,
                _ => info.half,
            };
            if !ok_opt || !ok_op {
                return Err(syntax(
                    span,
                    format!("'{name}': precision suffix '{p}' is not allowed here"),
                ));
            }
            m.precision = match p {
                'H' => Precision::Half,
                'X' => Precision::Fixed,
                _ => Precision::Full,
            };
            m.dtype = Some((DataType::F32, span));
        }
        if let Some(cc) = sfx.cc {
            let ok_opt = !arb || self.opts.vp2 || self.opts.fpo;
            let ok_cc1 = cc == 0 || !arb || self.opts.vp3 || self.opts.fp2;
            if !ok_opt || !ok_cc1 || !info.cc {
                return Err(syntax(
                    span,
                    format!("'{name}': condition code suffix is not allowed here"),
                ));
            }
            m.cc = Some(cc);
        }
        if sfx.sat > 0 {
            let ok_opt = if arb {
                if sfx.sat == 2 {
                    self.opts.fp2
                } else {
                    self.stage == Stage::Fragment || self.opts.vp3
                }
            } else {
                true
            };
            if !ok_opt || !info.sat {
                return Err(syntax(
                    span,
                    format!("'{name}': saturation suffix is not allowed here"),
                ));
            }
            m.sat = if sfx.sat == 2 {
                Saturate::SSat
            } else {
                Saturate::Sat
            };
        }
        Ok(m)
    }

    fn dot_mods(&mut self, info: &OpInfo, m: &mut Mods) -> Result<(), ProgramError> {
        while self.c.peek() == &Tok::Dot {
            let Some(name) = self.c.peek_ident_at(1).map(str::to_string) else {
                break;
            };
            if !self.is_nv() {
                return Err(syntax(
                    self.c.span(),
                    "'.MODIFIER' opcode modifiers need an NV_gpu_program4/5 program",
                ));
            }
            self.c.bump();
            let span = self.c.bump();
            let dup =
                |what: &str| semantic(span, format!("'.{name}': more than one {what} modifier"));
            let not_ok = || semantic(span, format!("'.{name}' is not allowed on {}", info.name));
            let op = info.op;
            if is_mem(op) {
                if let Some(t) = mem_type_mod(&name, true) {
                    if m.mem.is_some() {
                        return Err(dup("storage type"));
                    }
                    self.check_storage_modifier(info, t, &name, span)?;
                    m.mem = Some((t, span));
                    continue;
                }
            }
            if op == Opcode::Cvt {
                if let Some(t) = mem_type_mod(&name, false).filter(|t| t.count == 1) {
                    if m.cvt.len() >= 2 {
                        return Err(dup("storage type"));
                    }
                    m.cvt.push((t.scalar, span));
                    continue;
                }
            }
            if matches!(op, Opcode::Atom | Opcode::Atomim | Opcode::Atomctr) {
                if let Some(a) = atom_op(&name) {
                    let ctr = matches!(a, AtomOp::Incr | AtomOp::Decr | AtomOp::Get);
                    if ctr != (op == Opcode::Atomctr) {
                        return Err(not_ok());
                    }
                    if m.atom.is_some() {
                        return Err(dup("atomic operation"));
                    }
                    m.atom = Some((a, span));
                    continue;
                }
            }
            if let Some(t) = data_type_mod(&name) {
                // EXT_shader_image_load_formatted gives LOADIM the F and I columns.
                let allowed = if op == Opcode::Loadim && self.opts.image_load_formatted {
                    TypeMods::Sized32
                } else if t.is_float() {
                    info.f
                } else {
                    info.i
                };
                let ok = match allowed {
                    TypeMods::None => false,
                    TypeMods::Sized32 => !t.is_64(),
                    TypeMods::All => true,
                };
                if !ok && op == Opcode::Loadim && !t.is_64() {
                    return Err(semantic(
                        span,
                        format!("'.{name}' on LOADIM (a formatted load) needs OPTION EXT_shader_image_load_formatted"),
                    ));
                }
                if !ok || (t.is_64() && self.nv < 50) {
                    return Err(not_ok());
                }
                if m.dtype.is_some() {
                    return Err(dup("data type"));
                }
                m.dtype = Some((t, span));
                continue;
            }
            match name.as_str() {
                "CC" | "CC0" | "CC1" => {
                    if !info.cc {
                        return Err(not_ok());
                    }
                    if m.cc.is_some() {
                        return Err(dup("condition code"));
                    }
                    m.cc = Some(u8::from(name == "CC1"));
                }
                "SAT" | "SSAT" => {
                    if !info.sat {
                        return Err(not_ok());
                    }
                    if m.sat != Saturate::None {
                        return Err(dup("clamping"));
                    }
                    m.sat = if name == "SAT" {
                        Saturate::Sat
                    } else {
                        Saturate::SSat
                    };
                }
                "NTC" => m.ntc = true,
                "S24" | "U24" | "HI" => {
                    if op != Opcode::Mul {
                        return Err(not_ok());
                    }
                    if m.mul_mod.is_some() {
                        return Err(dup("multiply"));
                    }
                    m.mul_mod = Some((name.clone(), span));
                }
                "COH" | "VOL" if is_mem(op) || op == Opcode::Atom => {
                    if name == "COH" {
                        m.coherent = true;
                    } else {
                        m.volatile = true;
                    }
                }
                "PREC" if self.nv >= 50 => {}
                // NV_compute_program5: MEMBAR.CTA orders memory for the work group only;
                // glemu applies every write at once, so it is MEMBAR.
                "CTA" if op == Opcode::Membar && self.stage == Stage::Compute => {}
                "SPARSE"
                    if self.nv >= 50
                        && (is_tex(op) && !matches!(op, Opcode::Txq | Opcode::Lod)
                            || matches!(op, Opcode::Loadim | Opcode::Atomim)) =>
                {
                    if m.sparse {
                        return Err(dup("sparse"));
                    }
                    m.sparse = true;
                }
                "LODCLAMP"
                    if self.nv >= 50 && matches!(op, Opcode::Tex | Opcode::Txb | Opcode::Txd) =>
                {
                    if m.lod_clamp.is_some() {
                        return Err(dup("LOD clamp"));
                    }
                    m.lod_clamp = Some(span);
                }
                "FINE" | "COARSE" if matches!(op, Opcode::Ddx | Opcode::Ddy) => {
                    if !self.opts.derivative_control {
                        return Err(semantic(
                            span,
                            format!("'.{name}' needs OPTION ARB_derivative_control"),
                        ));
                    }
                    if m.coarse.is_some() {
                        return Err(dup("derivative"));
                    }
                    m.coarse = Some(name == "COARSE");
                }
                "ROUND" | "CEIL" | "FLR" | "TRUNC" if op == Opcode::Cvt => {
                    if m.rounding != Rounding::Default {
                        return Err(dup("rounding"));
                    }
                    m.rounding = match name.as_str() {
                        "ROUND" => Rounding::Nearest,
                        "CEIL" => Rounding::Ceil,
                        "FLR" => Rounding::Floor,
                        _ => Rounding::Trunc,
                    };
                }
                _ => {
                    if mem_type_mod(&name, true).is_some() || atom_op(&name).is_some() {
                        return Err(not_ok());
                    }
                    return Err(syntax(
                        span,
                        format!("'.{name}' is not an instruction modifier"),
                    ));
                }
            }
        }
        if m.sat != Saturate::None && info.op != Opcode::Cvt {
            if let Some((t, span)) = m.dtype {
                if !t.is_float() {
                    return Err(semantic(
                        span,
                        format!(
                            "clamping modifiers need a floating-point result, not on {}.{:?}",
                            info.name, t
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Which storage modifiers a load, store or atomic accepts (beyond the opcode's own
    /// atomic table, checked in `mem_info`).
    fn check_storage_modifier(
        &self,
        info: &OpInfo,
        t: MemType,
        name: &str,
        span: Span,
    ) -> Result<(), ProgramError> {
        let op = info.op;
        let atomic = matches!(op, Opcode::Atom | Opcode::Atomim);
        let image = matches!(op, Opcode::Loadim | Opcode::Storeim | Opcode::Atomim);
        let wide = matches!(t.scalar, MemScalar::F64 | MemScalar::S64 | MemScalar::U64);
        // F16 and 8/16-bit vectors: NV_gpu_program5_mem_extended for loads and stores,
        // NV_shader_atomic_fp16_vector (F16X2/F16X4) for atomics.
        let extended = t.scalar == MemScalar::F16 || mem_type_mod(name, false).is_none();
        if extended && atomic {
            if t.scalar == MemScalar::F16 && t.count > 1 {
                return self.require_option(
                    &["NV_shader_atomic_fp16_vector"],
                    &format!("{}.{name}", info.name),
                    span,
                );
            }
            return Err(semantic(
                span,
                format!("'.{name}' is not allowed on {}", info.name),
            ));
        }
        if extended {
            return self.require_option(
                &["NV_gpu_program5_mem_extended"],
                &format!("the '.{name}' storage modifier"),
                span,
            );
        }
        if wide && image {
            return Err(semantic(
                span,
                format!(
                    "'.{name}' is not allowed on {}: images hold 8, 16 and 32-bit components",
                    info.name
                ),
            ));
        }
        if wide && self.nv < 50 {
            return Err(semantic(
                span,
                format!("'.{name}': 64-bit storage modifiers need NV_gpu_program5"),
            ));
        }
        Ok(())
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
        kind: Kind,
        dtype: DataType,
        ntc: bool,
        name: &str,
    ) -> Result<(), ProgramError> {
        if !self.is_nv() || ntc {
            return Ok(());
        }
        let want = match kind {
            Kind::Vf => VarType::Float,
            Kind::Vs => VarType::Int,
            Kind::Vu | Kind::Su => VarType::Uint,
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
        kind: Kind,
        dtype: DataType,
        ntc: bool,
        name: &str,
    ) -> Result<Src, ProgramError> {
        let const_ty = match kind {
            Kind::Vf => VarType::Float,
            Kind::Vs => VarType::Int,
            Kind::Vu | Kind::Su => VarType::Uint,
            _ => var_of(dtype),
        };
        // Literals read as a 64-bit type keep their full precision (NV_gpu_program5:
        // fp64 and 64-bit integer operands).
        let wide = (dtype.is_64() && matches!(kind, Kind::V | Kind::S | Kind::Su)).then_some(dtype);
        let s = self.src_operand_typed(const_ty, wide)?;
        if matches!(kind, Kind::S | Kind::Su) && !s.scalar {
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
                    let s = self.src(Kind::V, dtype, m.ntc, name)?;
                    inst.srcs.push(s);
                }
                return Ok(inst);
            }
            Emit | EndPrim | Membar | Bar | Popa if op != Popa => return Ok(inst),
            Emits => {
                let s = self.src(Kind::S, DataType::S32, m.ntc, name)?;
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
                            Kind::S
                        } else {
                            Kind::V
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
                self.check_dst_type(dty, Kind::V, dtype, m.ntc, name, dst.span)?;
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
                let data = self.src(Kind::V, dtype, true, name)?;
                self.comma()?;
                let addr = self.src(Kind::Su, DataType::U64, true, name)?;
                inst.srcs.push(data);
                inst.srcs.push(addr);
                inst.extra = self.mem_info(m, MemSpace::Global, name, inst.span)?;
                return Ok(inst);
            }
            Storeim => {
                let (space, element, _) = self.image_unit()?;
                self.comma()?;
                let data = self.src(Kind::V, dtype, true, name)?;
                self.comma()?;
                let coord = self.src(Kind::Vs, DataType::S32, true, name)?;
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
            let out_kind = info.out.unwrap_or(Kind::V);
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
                    file: File::Buffer,
                    index: elem,
                    vertex: binding,
                    buffer: index,
                    imm: [0; 4],
                    swizzle,
                    ext_swizzle: None,
                    abs,
                    negate,
                    span: start.to(self.c.prev_span()),
                });
                inst.extra =
                    self.mem_info(m, MemSpace::Constant { buffer: index }, name, inst.span)?;
            }
            Load => {
                self.comma()?;
                let a = self.src(Kind::Su, DataType::U64, true, name)?;
                inst.srcs.push(a);
                inst.extra = self.mem_info(m, MemSpace::Global, name, inst.span)?;
            }
            Atom => {
                self.comma()?;
                let d = self.src(Kind::V, dtype, true, name)?;
                self.comma()?;
                let a = self.src(Kind::Su, DataType::U64, true, name)?;
                inst.srcs.push(d);
                inst.srcs.push(a);
                inst.extra = self.mem_info(m, MemSpace::Global, name, inst.span)?;
            }
            Loadim | Atomim => {
                self.comma()?;
                if op == Atomim {
                    let d = self.src(Kind::V, dtype, true, name)?;
                    inst.srcs.push(d);
                    self.comma()?;
                }
                let coord = self.src(Kind::Vs, DataType::S32, true, name)?;
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
                    file: File::Buffer,
                    index: elem,
                    vertex: None,
                    buffer: index,
                    imm: [0; 4],
                    swizzle: [0, 1, 2, 3],
                    ext_swizzle: None,
                    abs: false,
                    negate: false,
                    span: s,
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
                let s = self.src(Kind::V, dtype, m.ntc, name)?;
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
                    let k = if op == Ipao { Kind::Vf } else { Kind::S };
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

    /// LDB/STB/ATOMB lower to LOAD/STORE/ATOM with a `Storage` memory space; their last
    /// source is the STORAGE variable as a `File::Buffer` operand whose index is the byte
    /// offset (and whose `vertex` selects the binding point of a `program.storage[a..b]`
    /// variable).
    fn storage_inst(
        &mut self,
        info: &OpInfo,
        m: &Mods,
        mut inst: Inst,
    ) -> Result<Inst, ProgramError> {
        let name = info.name;
        let dtype = inst.dtype;
        if name != "STB" {
            let (dst, _) = self.dst_operand(false)?;
            inst.dst = Some(dst);
            self.comma()?;
        }
        if name != "LDB" {
            let d = self.src(Kind::V, dtype, true, name)?;
            inst.srcs.push(d);
            self.comma()?;
        }
        let (n, s) = self.c.ident("a STORAGE variable")?;
        let buffer = match self.syms.get(&n).map(|x| x.0.clone()) {
            Some(Sym::Buffer { index, .. })
                if self
                    .prog
                    .buffers
                    .get(index as usize)
                    .is_some_and(|b| b.kind == BufferKind::Storage) =>
            {
                index
            }
            _ => {
                return Err(semantic(
                    s,
                    format!("{name} needs a STORAGE variable, '{n}' is not one"),
                ))
            }
        };
        let binding = self.buffer_binding_index(&n, buffer, s)?;
        // The byte offset: a constant, a register component, or either plus a constant
        // (the loop counter included); the executor resolves it like any array index.
        let idx = if self.c.peek() == &Tok::LBracket {
            self.array_index_rel(&n, 0, u32::MAX / 2)?
        } else {
            Index::Direct(0)
        };
        let addr = Src {
            file: File::Buffer,
            index: idx,
            vertex: binding,
            buffer,
            imm: [0; 4],
            swizzle: [0, 1, 2, 3],
            ext_swizzle: None,
            abs: false,
            negate: false,
            span: s.to(self.c.prev_span()),
        };
        inst.srcs.push(addr);
        inst.extra = self.mem_info(m, MemSpace::Storage { buffer }, name, inst.span)?;
        Ok(inst)
    }

    /// LDS/STS/ATOMS (NV_compute_program5) lower to LOAD/STORE/ATOM with a `Shared`
    /// memory space; their last source is the SHARED variable (see `shared_operand`).
    fn shared_inst(
        &mut self,
        info: &OpInfo,
        m: &Mods,
        mut inst: Inst,
    ) -> Result<Inst, ProgramError> {
        let name = info.name;
        if let Some((_, span)) = m.dtype {
            return Err(semantic(
                span,
                format!("{name} takes a storage modifier (such as .U32), not a data type"),
            ));
        }
        let Some((ty, tspan)) = m.mem else {
            return Err(semantic(
                inst.span,
                format!("{name} needs a storage modifier such as .U32"),
            ));
        };
        if name == "ATOMS" {
            // NV_compute_program5's table X.Y for ATOMS.
            use MemScalar::*;
            let ok = match m.atom.map(|a| a.0) {
                Some(AtomOp::Add | AtomOp::Exch) => matches!(ty.scalar, U32 | S32 | U64 | F32),
                Some(AtomOp::Min | AtomOp::Max | AtomOp::And | AtomOp::Or | AtomOp::Xor) => {
                    matches!(ty.scalar, U32 | S32)
                }
                Some(AtomOp::IWrap | AtomOp::DWrap) => ty.scalar == U32,
                Some(AtomOp::CSwap) => matches!(ty.scalar, U32 | S32 | U64),
                _ => true,
            };
            if !ok || ty.count != 1 {
                return Err(semantic(
                    tspan,
                    "ATOMS does not support this storage modifier with its operation",
                ));
            }
        }
        let dtype = inst.dtype;
        if name != "STS" {
            let (dst, _) = self.dst_operand(false)?;
            inst.dst = Some(dst);
            self.comma()?;
        }
        if name != "LDS" {
            let d = self.src(Kind::V, dtype, true, name)?;
            inst.srcs.push(d);
            self.comma()?;
        }
        let (buffer, addr) = self.shared_operand(name)?;
        inst.srcs.push(addr);
        inst.extra = self.mem_info(m, MemSpace::Shared { buffer }, name, inst.span)?;
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
        let src = self.src(Kind::V, from_t, true, "CVT")?;
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
        kind: Kind,
        dtype: DataType,
        ntc: bool,
        name: &str,
        span: Span,
    ) -> Result<(), ProgramError> {
        if !self.is_nv() || ntc {
            return Ok(());
        }
        let want = match kind {
            Kind::Vf => VarType::Float,
            Kind::Vs => VarType::Int,
            Kind::Vu => VarType::Uint,
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

    fn buffer_index(&mut self, name: &str, index: u32) -> Result<Index, ProgramError> {
        if self.c.peek() != &Tok::LBracket {
            return Ok(Index::Direct(0));
        }
        let len = self
            .prog
            .buffers
            .get(index as usize)
            .and_then(|b| b.len)
            .unwrap_or(u32::MAX / 2);
        self.array_index_rel(name, 0, len)
    }

    fn mem_info(
        &self,
        m: &Mods,
        space: MemSpace,
        name: &str,
        span: Span,
    ) -> Result<Extra, ProgramError> {
        let ty = match (m.mem, m.dtype) {
            (Some((t, _)), _) => t,
            // "These instructions must specify exactly one of these modifiers"
            // (NV_gpu_program5 2.X.4.1; LDC, LOAD, STORE, ATOM and the storage-buffer
            // LDB, STB, ATOMB). Image stores, and image loads with
            // EXT_shader_image_load_formatted, may be formatted instead (`image_info`).
            _ if !matches!(name, "STOREIM" | "LOADIM") => {
                return Err(semantic(
                    span,
                    format!(
                    "{name} requires exactly one storage modifier such as .F32, .S32X2 or .U32X4"
                ),
                ))
            }
            // A formatted STOREIM or LOADIM: the data type modifier (or F32) says how to
            // read the operand or write the result.
            (None, dt) => MemType {
                scalar: match dt.map_or(DataType::F32, |d| d.0) {
                    DataType::F32 | DataType::F64 => MemScalar::F32,
                    DataType::S32 | DataType::S64 => MemScalar::S32,
                    DataType::U32 | DataType::U64 => MemScalar::U32,
                },
                count: 1,
            },
        };
        let atomic = matches!(name, "ATOM" | "ATOMIM" | "ATOMB" | "ATOMS");
        if atomic && m.atom.is_none() {
            return Err(semantic(
                span,
                format!("{name} needs an atomic operation modifier such as .ADD"),
            ));
        }
        if let (true, Some((a, aspan))) = (atomic, m.atom) {
            self.check_atomic(name, a, ty, aspan)?;
        }
        if atomic && ty.count != 1 && ty.scalar != MemScalar::F16 {
            return Err(semantic(
                span,
                format!(
                    "{name} operates on a single value; vector storage modifiers are not allowed"
                ),
            ));
        }
        Ok(Extra::Mem(Box::new(MemInfo {
            space,
            ty,
            atom: m.atom.map(|a| a.0),
            coherent: m.coherent,
            volatile: m.volatile,
            target: None,
            element: None,
            formatted: false,
        })))
    }

    /// The atomic operation and storage modifier pairs of the ATOM table (NV_gpu_program5),
    /// the ATOMB table (NV_shader_storage_buffer_object: F32 ADD/EXCH as well) and the
    /// ATOMIM table (EXT_shader_image_load_store: 32-bit integers only), widened by
    /// OPTION NV_shader_atomic_float (F32 ADD/EXCH on ATOM, ATOMIM) and
    /// NV_shader_atomic_int64 (S64 everywhere but IWRAP/DWRAP, U64 MIN/MAX/AND/OR/XOR on
    /// ATOM, ATOMB).
    fn check_atomic(
        &self,
        name: &str,
        a: AtomOp,
        ty: MemType,
        span: Span,
    ) -> Result<(), ProgramError> {
        use AtomOp::*;
        use MemScalar::*;
        let image = name == "ATOMIM";
        let core = match (a, ty.scalar) {
            // NV_shader_atomic_fp16_vector, whose option the storage modifier needed.
            (Add | Min | Max | Exch, F16) => ty.count > 1,
            (_, U32) => true,
            (IWrap | DWrap, _) => false,
            (_, S32) => true,
            (Add | Exch | CSwap, U64) => !image,
            (Add | Exch, F32) => name == "ATOMB",
            _ => false,
        };
        if core {
            return Ok(());
        }
        let option = match (a, ty.scalar) {
            (Add | Exch, F32) => Some("NV_shader_atomic_float"),
            (IWrap | DWrap, _) => None,
            (_, S64) | (Min | Max | And | Or | Xor, U64) if !image => {
                Some("NV_shader_atomic_int64")
            }
            _ => None,
        };
        let op = format!("{a:?}").to_uppercase();
        let what = format!("{name}.{op} with the .{:?} storage modifier", ty.scalar);
        match option {
            Some(o) => self.require_option(&[o], &what, span),
            None => Err(semantic(
                span,
                format!("{what} is not supported by the spec's atomic table"),
            )),
        }
    }

    /// `mem_info` plus the image target and the run-time IMAGE array element.
    fn image_info(
        &self,
        m: &Mods,
        space: MemSpace,
        element: Option<Index>,
        target: TexTarget,
        name: &str,
        span: Span,
    ) -> Result<Extra, ProgramError> {
        // ATOMIM is always unformatted; STOREIM without a storage modifier is a formatted
        // store, and so is LOADIM with EXT_shader_image_load_formatted.
        let formatted = m.mem.is_none();
        if formatted && name == "LOADIM" && !self.opts.image_load_formatted {
            return Err(semantic(
                span,
                "LOADIM needs a storage modifier such as .U32 (a formatted load with .F, .S or .U needs OPTION EXT_shader_image_load_formatted)",
            ));
        }
        if formatted && name == "ATOMIM" {
            return Err(semantic(
                span,
                format!("{name} needs a storage modifier such as .U32"),
            ));
        }
        let mut extra = self.mem_info(m, space, name, span)?;
        if let Extra::Mem(info) = &mut extra {
            info.target = Some(target);
            info.element = element;
            info.formatted = formatted;
        }
        Ok(extra)
    }

    fn image_unit(&mut self) -> Result<(MemSpace, Option<Index>, Span), ProgramError> {
        let (n, s) = self.c.ident("an image")?;
        if n == "image" && !self.syms.contains_key(&n) {
            let (u, us) = self.c.bracket_int("an image unit")?;
            if u >= self.lim.max_image_units {
                return Err(semantic(
                    us,
                    format!(
                        "image unit {u} exceeds the limit of {max_image_units}",
                        max_image_units = self.lim.max_image_units
                    ),
                ));
            }
            let image = match self
                .prog
                .images
                .iter()
                .position(|i| i.name.is_empty() && i.first == u)
            {
                Some(i) => i as u32,
                None => {
                    self.prog.images.push(ImageVar {
                        name: String::new(),
                        first: u,
                        len: 1,
                    });
                    self.prog.images.len() as u32 - 1
                }
            };
            return Ok((MemSpace::Image { image }, None, s));
        }
        let Some(Sym::Image { index }) = self.syms.get(&n).map(|x| x.0.clone()) else {
            return Err(semantic(s, format!("'{n}' is not an IMAGE variable")));
        };
        if self.c.peek() == &Tok::LBracket {
            // A constant element of an IMAGE array is a single-unit image of its own.
            let (first, len, var_name) = match self.prog.images.get(index as usize) {
                Some(v) => (v.first, v.len, v.name.clone()),
                None => return Err(semantic(s, format!("'{n}' is not an IMAGE variable"))),
            };
            match self.array_index_rel(&n, 0, len)? {
                Index::Direct(k) => {
                    let unit = first + k;
                    let name = format!("{var_name}[{k}]");
                    let image = match self.prog.images.iter().position(|i| i.name == name) {
                        Some(i) => i as u32,
                        None => {
                            self.prog.images.push(ImageVar {
                                name,
                                first: unit,
                                len: 1,
                            });
                            self.prog.images.len() as u32 - 1
                        }
                    };
                    return Ok((MemSpace::Image { image }, None, s));
                }
                rel @ Index::Relative { .. } => {
                    return Ok((MemSpace::Image { image: index }, Some(rel), s));
                }
            }
        }
        Ok((MemSpace::Image { image: index }, None, s))
    }

    fn image_target(&mut self) -> Result<TexTarget, ProgramError> {
        let (t, s) = self.c.ident("an image target")?;
        let target = match t.as_str() {
            "1D" => TexTarget::T1D,
            "2D" => TexTarget::T2D,
            "3D" => TexTarget::T3D,
            "RECT" => TexTarget::Rect,
            "CUBE" => TexTarget::Cube,
            "BUFFER" => TexTarget::Buffer,
            "ARRAY1D" => TexTarget::Array1D,
            "ARRAY2D" => TexTarget::Array2D,
            "ARRAYCUBE" => TexTarget::ArrayCube,
            "2DMS" => TexTarget::T2DMs,
            "ARRAY2DMS" => TexTarget::Array2DMs,
            _ => return Err(semantic(s, format!("'{t}' is not an image target"))),
        };
        Ok(target)
    }

    fn tex_operands(
        &mut self,
        info: &OpInfo,
        m: &Mods,
        inst: &mut Inst,
    ) -> Result<(), ProgramError> {
        use Opcode::*;
        let op = info.op;
        let name = info.name;
        let dtype = inst.dtype;
        // Operands before the texture: everything but the final `t`.
        let fixed: Vec<Kind> = info.ins.iter().copied().filter(|k| *k != Kind::T).collect();
        for k in &fixed {
            self.comma()?;
            let s = self.src(*k, dtype, m.ntc, name)?;
            inst.srcs.push(s);
        }
        self.comma()?;
        // NV5: an extra operand (cube-array shadow reference / bias / lod).
        let mut extra_operand = None;
        if self.nv >= 50 && !self.at_texture() {
            let s = self.src(Kind::Vf, DataType::F32, m.ntc, name)?;
            extra_operand = Some(s);
            self.comma()?;
        }
        let (unit, unit_span, units, comp) = self.texture_unit()?;
        self.comma()?;
        let (tname, tspan) = self.c.ident("a texture target")?;
        let target = self.tex_target(&tname, tspan)?;
        if let Some(cspan) = m.lod_clamp {
            // ARB_sparse_texture_clamp table X.17: rectangle textures have no LOD.
            if matches!(target, TexTarget::Rect | TexTarget::ShadowRect) {
                return Err(semantic(
                    cspan,
                    format!("'.LODCLAMP' is not supported with target '{tname}'"),
                ));
            }
            // TEX/TXB read the clamp from a second operand; TXD from its y derivatives' w.
            if op != Txd && extra_operand.is_none() {
                return Err(semantic(
                    cspan,
                    format!("{name}.LODCLAMP needs a second operand holding the LOD clamp"),
                ));
            }
        }
        if let Some(s) = extra_operand {
            let ok = (matches!(
                target,
                TexTarget::ArrayCube
                    | TexTarget::ShadowArrayCube
                    | TexTarget::ShadowCube
                    | TexTarget::ShadowArray2D
            ) && matches!(op, Tex | Txb | Txl | Txg))
                || (m.lod_clamp.is_some() && matches!(op, Tex | Txb));
            if !ok {
                return Err(semantic(s.span, format!("{name} takes a second coordinate operand only with cube-map array or shadow cube targets, or with .LODCLAMP")));
            }
            inst.srcs.push(s);
        }
        // Which instructions may use which targets.
        let ms = matches!(
            target,
            TexTarget::T2DMs | TexTarget::Array2DMs | TexTarget::Renderbuffer
        );
        if ms != (op == Txfms) && !(ms && op == Txq) {
            return Err(semantic(
                tspan,
                format!("target '{tname}' cannot be used with {name}"),
            ));
        }
        if target == TexTarget::Buffer && !matches!(op, Txf | Txq) {
            return Err(semantic(
                tspan,
                format!("BUFFER textures can only be read with TXF or TXQ, not {name}"),
            ));
        }
        if op == Txf
            && matches!(
                target,
                TexTarget::Shadow1D
                    | TexTarget::Shadow2D
                    | TexTarget::ShadowRect
                    | TexTarget::ShadowCube
                    | TexTarget::ShadowArray1D
                    | TexTarget::ShadowArray2D
                    | TexTarget::ShadowArrayCube
                    | TexTarget::Cube
                    | TexTarget::ArrayCube
            )
        {
            return Err(semantic(
                tspan,
                format!("TXF cannot fetch from a '{tname}' texture (no SHADOW or CUBE targets)"),
            ));
        }
        if matches!(op, Txb | Txl | Txp)
            && matches!(target, TexTarget::ShadowCube | TexTarget::ShadowArray2D)
            && (op == Txp || inst.srcs.len() < 2)
        {
            return Err(semantic(
                tspan,
                format!("{name} cannot use target '{tname}' (no room for the reference value)"),
            ));
        }
        // NV_gpu_program5: "TXG only operates on 2D, SHADOW2D, CUBE, SHADOWCUBE, ARRAY2D,
        // SHADOWARRAY2D, ARRAYCUBE, SHADOWARRAYCUBE, RECT, and SHADOWRECT"; TXGO on the
        // same without the cube targets.
        let gather_2d = matches!(
            target,
            TexTarget::T2D
                | TexTarget::Shadow2D
                | TexTarget::Array2D
                | TexTarget::ShadowArray2D
                | TexTarget::Rect
                | TexTarget::ShadowRect
        );
        let gather_cube = matches!(
            target,
            TexTarget::Cube
                | TexTarget::ShadowCube
                | TexTarget::ArrayCube
                | TexTarget::ShadowArrayCube
        );
        if (op == Txg && !gather_2d && !gather_cube) || (op == Txgo && !gather_2d) {
            return Err(semantic(
                tspan,
                format!("{name} cannot gather from a '{tname}' texture"),
            ));
        }
        if let Some((c, cspan)) = comp {
            if !matches!(op, Txg | Txgo) {
                return Err(semantic(
                    cspan,
                    format!("texture component selection is only allowed on TXG/TXGO, not {name}"),
                ));
            }
            let _ = c;
        }
        // Offsets.
        let mut offset = None;
        let comma_then = self.c.peek() == &Tok::Comma;
        if comma_then && self.c.peek_at(1) == &Tok::LParen {
            self.c.bump();
            let open = self.c.bump();
            let mut v = [0i8; 3];
            let mut n = 0;
            let mut spans = Vec::new();
            loop {
                let neg = if self.c.eat(&Tok::Minus) {
                    true
                } else {
                    self.c.eat(&Tok::Plus);
                    false
                };
                let (x, xs) = self.c.int("a texel offset")?;
                let x = i64::try_from(x.min(1 << 20)).unwrap_or(0) * if neg { -1 } else { 1 };
                if !(i64::from(self.lim.min_program_texel_offset)
                    ..=i64::from(self.lim.max_program_texel_offset))
                    .contains(&x)
                {
                    return Err(semantic(xs, format!("texel offset {x} is out of range ({min_program_texel_offset}..{max_program_texel_offset})", max_program_texel_offset = self.lim.max_program_texel_offset, min_program_texel_offset = self.lim.min_program_texel_offset)));
                }
                if n >= 3 {
                    return Err(syntax(xs, "a texel offset has at most 3 components"));
                }
                if let Some(slot) = v.get_mut(n) {
                    *slot = x as i8;
                }
                spans.push(xs);
                n += 1;
                if !self.c.eat(&Tok::Comma) {
                    break;
                }
            }
            let close = self.c.expect(&Tok::RParen, "after texel offsets")?;
            let span = open.to(close);
            if !self.is_nv() {
                return Err(syntax(span, "texel offsets need NV_gpu_program4"));
            }
            let dims = match target {
                TexTarget::T1D
                | TexTarget::Array1D
                | TexTarget::Shadow1D
                | TexTarget::ShadowArray1D => 1,
                TexTarget::T3D => 3,
                TexTarget::Cube
                | TexTarget::ShadowCube
                | TexTarget::ArrayCube
                | TexTarget::ShadowArrayCube
                | TexTarget::Buffer => 0,
                _ => 2,
            };
            if v.iter().skip(dims).any(|&x| x != 0) {
                return Err(semantic(
                    span,
                    format!("non-zero texel offset component not allowed for target '{tname}'"),
                ));
            }
            if op == Txgo && v.iter().any(|&x| x != 0) {
                return Err(semantic(
                    span,
                    "TXGO takes its offsets as operands; constant offsets must be zero",
                ));
            }
            offset = Some(TexOffset::Const(v));
        } else if (comma_then && self.c.peek_ident_at(1) == Some("offset"))
            || self.c.is_ident("offset")
        {
            self.c.eat(&Tok::Comma);
            let kw = self.c.bump();
            if self.nv < 50 {
                return Err(syntax(kw, "register texel offsets need NV_gpu_program5"));
            }
            self.c.expect(&Tok::LParen, "after 'offset'")?;
            let s = self.src(Kind::Vs, DataType::S32, m.ntc, name)?;
            self.c.expect(&Tok::RParen, "after the offset operand")?;
            if matches!(op, Txd | Txgo) {
                return Err(semantic(
                    kw,
                    format!("{name} cannot take a register texel offset"),
                ));
            }
            if matches!(
                target,
                TexTarget::Cube
                    | TexTarget::ShadowCube
                    | TexTarget::ArrayCube
                    | TexTarget::ShadowArrayCube
            ) {
                return Err(semantic(
                    kw,
                    format!(
                        "register texel offsets are not allowed with cube map target '{tname}'"
                    ),
                ));
            }
            offset = Some(TexOffset::Register(s));
        }
        // One target per unit, counting every unit of a texture array.
        for u in units.clone() {
            match self.tex_units.get(&u) {
                Some((t, _)) if *t != target => {
                    return Err(semantic(
                        tspan,
                        format!(
                            "texture unit {u} is used with two targets ('{tname}' and '{}'); a unit may have only one",
                            target_name(*t)
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    self.tex_units.insert(u, (target, unit_span));
                }
            }
        }
        inst.extra = Extra::Tex(Box::new(TexInfo {
            unit,
            target,
            offset,
            gather_comp: comp.map_or(0, |c| c.0),
            lod_clamp: m.lod_clamp.is_some(),
            sparse: m.sparse,
        }));
        Ok(())
    }

    fn at_texture(&self) -> bool {
        match self.c.peek_ident() {
            Some("texture") => !self.syms.contains_key("texture"),
            Some(n) => matches!(self.syms.get(n), Some((Sym::Texture { .. }, _))),
            None => false,
        }
    }

    /// `texture`, `texture[n]`, or an NV5 TEXTURE variable (optionally indexed), with an
    /// optional `.c` gather component.
    #[allow(clippy::type_complexity)]
    fn texture_unit(
        &mut self,
    ) -> Result<(TexUnit, Span, std::ops::Range<u32>, Option<(Comp, Span)>), ProgramError> {
        let (n, s) = self.c.ident("a texture unit")?;
        let limit = self.lim.max_texture_image_units;
        let (unit, units) = if n == "texture" {
            let u = if self.c.peek() == &Tok::LBracket {
                let (u, us) = self.c.bracket_int("a texture unit")?;
                if u >= limit {
                    return Err(semantic(
                        us,
                        format!("texture unit {u} exceeds the limit of {limit}"),
                    ));
                }
                u
            } else {
                0
            };
            (TexUnit::Fixed(u), u..u + 1)
        } else {
            match self.syms.get(&n).map(|x| x.0.clone()) {
                Some(Sym::Texture { first, len }) => match len {
                    Some(l) => {
                        let idx = self.array_index_rel(&n, first, l)?;
                        match idx {
                            Index::Direct(u) => (TexUnit::Fixed(u), first..first + l),
                            Index::Relative {
                                reg,
                                offset,
                                base,
                                len,
                            } => (
                                TexUnit::Relative {
                                    reg,
                                    offset,
                                    base,
                                    len,
                                },
                                first..first + l,
                            ),
                        }
                    }
                    None => (TexUnit::Fixed(first), first..first + 1),
                },
                _ => {
                    return Err(semantic(
                        s,
                        format!("'{n}' is not a texture unit or TEXTURE variable"),
                    ))
                }
            }
        };
        let mut comp = None;
        if self.c.peek() == &Tok::Dot {
            let (sw, scalar) = self.swizzle_suffix()?;
            let span = self.c.prev_span();
            if !scalar {
                return Err(semantic(
                    span,
                    "texture component selection takes a single component",
                ));
            }
            comp = Some((sw[0], span));
        }
        Ok((unit, s, units, comp))
    }

    fn tex_target(&self, t: &str, span: Span) -> Result<TexTarget, ProgramError> {
        use TexTarget::*;
        let nv = self.nv;
        let shadow_ok = nv > 0 || self.prog.options.fragment_program_shadow;
        let target = match t {
            "1D" => T1D,
            "2D" => T2D,
            "3D" => T3D,
            "CUBE" => Cube,
            "RECT" => Rect,
            "SHADOW1D" if shadow_ok => Shadow1D,
            "SHADOW2D" if shadow_ok => Shadow2D,
            "SHADOWRECT" if shadow_ok => ShadowRect,
            "ARRAY1D" if nv > 0 => Array1D,
            "ARRAY2D" if nv > 0 => Array2D,
            "SHADOWCUBE" if nv > 0 => ShadowCube,
            "SHADOWARRAY1D" if nv > 0 => ShadowArray1D,
            "SHADOWARRAY2D" if nv > 0 => ShadowArray2D,
            "BUFFER" if nv > 0 => Buffer,
            "RENDERBUFFER" if nv > 0 => Renderbuffer,
            "2DMS" if nv > 0 => T2DMs,
            "ARRAY2DMS" if nv > 0 => Array2DMs,
            "ARRAYCUBE" if nv >= 50 => ArrayCube,
            "SHADOWARRAYCUBE" if nv >= 50 => ShadowArrayCube,
            _ => {
                return Err(semantic(
                    span,
                    format!("'{t}' is not a texture target available in this program"),
                ))
            }
        };
        // NV_explicit_multisample adds RENDERBUFFER, NV_texture_multisample 2DMS and
        // ARRAY2DMS, each only "if a program specifies the ... program option".
        match target {
            Renderbuffer => {
                self.require_option(
                    &["NV_explicit_multisample"],
                    "texture target RENDERBUFFER",
                    span,
                )?;
                // The context has no texture renderbuffers (TEXTURE_RENDERBUFFER_NV) to
                // bind, so no draw could run the instruction.
                return Err(semantic(
                    span,
                    "not supported: the RENDERBUFFER texture target (NV_explicit_multisample texture renderbuffers)",
                ));
            }
            T2DMs | Array2DMs => self.require_option(
                &["NV_texture_multisample"],
                &format!("texture target {t}"),
                span,
            )?,
            _ => {}
        }
        Ok(target)
    }

    fn flow_inst(
        &mut self,
        info: &OpInfo,
        _m: &Mods,
        mut inst: Inst,
        idx: u32,
    ) -> Result<Inst, ProgramError> {
        use Opcode::*;
        let span = inst.span;
        match info.op {
            If => {
                let depth = self
                    .blocks
                    .iter()
                    .filter(|b| matches!(b.0, Block::If | Block::Else { .. }))
                    .count();
                if depth as u32 >= self.lim.max_program_if_depth {
                    return Err(semantic(
                        span,
                        format!(
                            "IF nested {depth} deep: the limit is {max_program_if_depth}",
                            max_program_if_depth = self.lim.max_program_if_depth
                        ),
                    ));
                }
                let cond = self.cc_test()?;
                inst.extra = Extra::Flow {
                    target: idx,
                    cond: Some(cond),
                };
                self.blocks.push((Block::If, idx, span));
            }
            Else => {
                let Some((Block::If, start, _)) = self.blocks.last().copied() else {
                    return Err(semantic(span, "ELSE without a matching IF"));
                };
                self.blocks.pop();
                self.set_flow_target(start, idx);
                inst.extra = Extra::Flow {
                    target: idx,
                    cond: None,
                };
                self.blocks.push((Block::Else { if_at: start }, idx, span));
            }
            EndIf => {
                let (if_at, start) = match self.blocks.last().copied() {
                    Some((Block::If, start, _)) => (start, start),
                    Some((Block::Else { if_at }, start, _)) => (if_at, start),
                    _ => return Err(semantic(span, "ENDIF without a matching IF")),
                };
                self.blocks.pop();
                self.set_flow_target(start, idx);
                // ENDIF points back at its IF.
                inst.extra = Extra::Flow {
                    target: if_at,
                    cond: None,
                };
            }
            Rep | Loop => {
                let depth = self
                    .blocks
                    .iter()
                    .filter(|b| matches!(b.0, Block::Rep | Block::Loop))
                    .count();
                if depth as u32 >= self.lim.max_program_loop_depth {
                    return Err(semantic(
                        span,
                        format!(
                            "{} nested {depth} deep: the limit is {max_program_loop_depth}",
                            info.name,
                            max_program_loop_depth = self.lim.max_program_loop_depth
                        ),
                    ));
                }
                let has_operand = self.c.peek() != &Tok::Semi;
                if has_operand {
                    let kind = Kind::V;
                    let dt = if self.is_nv() {
                        inst.dtype
                    } else {
                        DataType::F32
                    };
                    let s = self.src(kind, dt, true, info.name)?;
                    if !self.is_nv() && s.file != File::Param {
                        return Err(semantic(
                            s.span,
                            format!("the {} operand must be a program parameter", info.name),
                        ));
                    }
                    inst.srcs.push(s);
                } else if info.op == Loop || !self.is_nv() {
                    return Err(self.c.unexpected("a loop count operand"));
                }
                inst.extra = Extra::Flow {
                    target: idx,
                    cond: None,
                };
                self.blocks.push((
                    if info.op == Rep {
                        Block::Rep
                    } else {
                        Block::Loop
                    },
                    idx,
                    span,
                ));
            }
            EndRep | EndLoop => {
                let want = if info.op == EndRep {
                    Block::Rep
                } else {
                    Block::Loop
                };
                match self.blocks.last().copied() {
                    Some((b, start, rep_span)) if b == want => {
                        self.blocks.pop();
                        if b == Block::Rep {
                            self.check_rep_exit(start, rep_span)?;
                        }
                        self.set_flow_target(start, idx);
                        inst.extra = Extra::Flow {
                            target: start,
                            cond: None,
                        };
                    }
                    _ => {
                        return Err(semantic(
                            span,
                            format!(
                                "{} without a matching {}",
                                info.name,
                                if want == Block::Rep { "REP" } else { "LOOP" }
                            ),
                        ))
                    }
                }
            }
            Brk | Cont => {
                let Some(&(_, start, _)) = self
                    .blocks
                    .iter()
                    .rev()
                    .find(|b| matches!(b.0, Block::Rep | Block::Loop))
                else {
                    return Err(semantic(
                        span,
                        format!("{} outside of a REP or LOOP block", info.name),
                    ));
                };
                let cond = self.opt_branch_cond()?;
                inst.extra = Extra::Flow {
                    target: start,
                    cond,
                };
            }
            Ret => {
                let cond = self.opt_branch_cond()?;
                inst.extra = Extra::Flow { target: idx, cond };
            }
            Bra | Cal => {
                let (label, ls) = self.c.ident("a label")?;
                let cond = self.opt_branch_cond()?;
                self.label_refs
                    .push((label, self.prog.instructions.len(), ls));
                inst.extra = Extra::Flow { target: 0, cond };
            }
            Cali => {
                let (n, s) = self.c.ident("a subroutine variable")?;
                let Some(Sym::SubroutineVar { index, .. }) = self.syms.get(&n).map(|x| x.0.clone())
                else {
                    return Err(semantic(
                        s,
                        format!("CALI needs a SUBROUTINE variable, '{n}' is not one"),
                    ));
                };
                let len = self
                    .prog
                    .subroutine_vars
                    .get(index as usize)
                    .map_or(1, |v| v.len);
                let array_index = if self.c.peek() == &Tok::LBracket {
                    Some(self.array_index_rel(&n, 0, len)?)
                } else {
                    None
                };
                let cond = self.opt_branch_cond()?;
                inst.extra = Extra::CallIndirect {
                    var: index,
                    array_index,
                    cond,
                };
            }
            _ => {}
        }
        Ok(inst)
    }

    /// NV_gpu_program4 2.X.5: "a program will fail to load if it contains a REP/ENDREP
    /// block that contains neither a BRK instruction at the current nesting level or a
    /// RET instruction at any nesting level" -- for a REP without a loop count.
    fn check_rep_exit(&self, start: u32, span: Span) -> Result<(), ProgramError> {
        let body = self.prog.instructions.get(start as usize..).unwrap_or(&[]);
        let Some((rep, body)) = body.split_first() else {
            return Ok(());
        };
        if !rep.srcs.is_empty() {
            return Ok(());
        }
        let exits = body.iter().any(|i| {
            i.op == Opcode::Ret
                || (i.op == Opcode::Brk
                    && matches!(i.extra, Extra::Flow { target, .. } if target == start))
        });
        if exits {
            return Ok(());
        }
        Err(semantic(
            span,
            "a REP without a loop count needs a BRK for this loop or a RET inside it (an obvious infinite loop)",
        ))
    }

    fn set_flow_target(&mut self, at: u32, target: u32) {
        if let Some(Inst {
            extra: Extra::Flow { target: t, .. },
            ..
        }) = self.prog.instructions.get_mut(at as usize)
        {
            *t = target;
        }
    }
}

fn addr_src(index: u32, swizzle: [Comp; 4], span: Span) -> Src {
    Src {
        file: File::Address,
        index: Index::Direct(index),
        vertex: None,
        buffer: 0,
        imm: [0; 4],
        swizzle,
        ext_swizzle: None,
        abs: false,
        negate: false,
        span,
    }
}

/// A texture target as programs spell it.
pub(crate) fn target_name(t: TexTarget) -> &'static str {
    use TexTarget::*;
    match t {
        T1D => "1D",
        T2D => "2D",
        T3D => "3D",
        Cube => "CUBE",
        Rect => "RECT",
        Array1D => "ARRAY1D",
        Array2D => "ARRAY2D",
        ArrayCube => "ARRAYCUBE",
        Shadow1D => "SHADOW1D",
        Shadow2D => "SHADOW2D",
        ShadowRect => "SHADOWRECT",
        ShadowCube => "SHADOWCUBE",
        ShadowArray1D => "SHADOWARRAY1D",
        ShadowArray2D => "SHADOWARRAY2D",
        ShadowArrayCube => "SHADOWARRAYCUBE",
        Buffer => "BUFFER",
        T2DMs => "2DMS",
        Array2DMs => "ARRAY2DMS",
        Renderbuffer => "RENDERBUFFER",
    }
}
