//! Instruction modifiers: opcode suffixes (`ADDC_SAT`, `MOV.F32`) and `.MOD` items, the storage
//! modifiers of memory instructions and their option gates.

use super::*;

pub(super) fn data_type_mod(m: &str) -> Option<DataType> {
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
pub(super) fn mem_type_mod(m: &str, small_vectors: bool) -> Option<MemType> {
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

pub(super) fn atom_op(m: &str) -> Option<AtomOp> {
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

impl Parser {
    pub(super) fn suffix_mods(
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

    pub(super) fn dot_mods(&mut self, info: &OpInfo, m: &mut Mods) -> Result<(), ProgramError> {
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
    pub(super) fn check_storage_modifier(
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
}
