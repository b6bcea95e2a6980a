//! `!!FP1.0` fragment programs (NV_fragment_program).
//!
//! Lowering choices:
//! - R0-R31 and H0-H63 are separate temps (the spec guarantees they do not overlap); H
//!   temps are `RegInfo::short` (fp16 storage). `RC`/`HC`, the write-only condition-code
//!   targets, are scratch temps of their own.
//! - `Inst::precision` is the rounding applied to the result: the suffix's, except that
//!   a result stored into an fp16 register (H, HC, o[COLH]) is rounded to fp16 whatever
//!   the suffix asked, since the spec converts results to the destination's precision.
//! - Embedded and DEFINEd constants become `ParamSource::Constant` params (scalars
//!   replicated, `{a,b}` expanded to `{a,b,0,1}`); `p[n]` is `ParamSource::Local(n)`;
//!   DECLAREd names are `ParamSource::Named`.
//! - `KIL cc` is `Opcode::Kil` with no source and `Extra::Flow { cond }`.

use super::builder::Builder;
use super::common::{cc_mask, dst, numbered, opt_paren_cc, opt_swizzle, opt_write_mask, src};
use super::cursor::{semantic, syntax, Cursor};
use super::fragment_consts::{signed_number, Named, Names, Value};
use super::fragment_ops::{decode, FpOp, FpShape};
use crate::error::ProgramError;
use crate::ir::{
    DataType, Dialect, Dst, Extra, File, Index, InputBinding, Inst, Options, OutputBinding,
    ParamSource, Precision, Program, RegInfo, Saturate, Src, Stage, TexInfo, TexTarget, TexUnit,
};
use crate::lexer::Tok;
use crate::span::Span;
use smallvec::SmallVec;
use std::collections::BTreeSet;

const MAX_INSTRUCTIONS: u32 = 1024;
const MAX_REGISTER_UNITS: u32 = 64;
const LOCAL_PARAMS: u64 = 64;

/// How a parameter reference counts for the one-unique-parameter rule.
#[derive(Clone, PartialEq)]
enum ParamKey {
    Constant(Value),
    Local(u32),
    Named(String),
}

#[derive(Default)]
struct Sourced {
    params: Vec<(ParamKey, Span)>,
    attribs: Vec<(String, Span)>,
    /// Whether any operand read an fp16 register (UP* need 32-bit operands).
    half_operand: Option<Span>,
}

/// What the destination is, for the per-opcode rules.
struct DstInfo {
    half: bool,
    /// An R register, o[COLR] or o[DEPR].
    full_reg: bool,
}

struct FpParser<'a> {
    cur: Cursor<'a>,
    b: Builder,
    names: Names,
    count: u32,
    /// Register units used: 2 per fp32 temp/output, 1 per fp16 one.
    used_regs: BTreeSet<String>,
    wrote_colr: bool,
    wrote_colh: bool,
}

pub(crate) fn assemble_fragment(text: &str) -> Result<Program, ProgramError> {
    let mut p = FpParser {
        cur: Cursor::after_header(text)?,
        b: Builder::default(),
        names: Names::default(),
        count: 0,
        used_regs: BTreeSet::new(),
        wrote_colr: false,
        wrote_colh: false,
    };
    p.body()?;
    p.finish()
}

impl<'a> FpParser<'a> {
    fn body(&mut self) -> Result<(), ProgramError> {
        loop {
            let t = self.cur.peek()?.clone();
            match &t.tok {
                Tok::Ident(s) if s == "END" => {
                    self.cur.next()?;
                    return Ok(());
                }
                Tok::Ident(s) if s == "DEFINE" => self.define()?,
                Tok::Ident(s) if s == "DECLARE" => self.declare()?,
                Tok::Ident(_) => self.instruction()?,
                Tok::Eof => return Err(syntax(t.span, "missing 'END' at the end of the program")),
                other => {
                    return Err(syntax(
                        t.span,
                        format!("expected an instruction, found {}", other.describe()),
                    ))
                }
            }
            self.cur.expect(&Tok::Semi, "';' after the statement")?;
        }
    }

    fn define(&mut self) -> Result<(), ProgramError> {
        self.cur.next()?;
        let (name, span) = self.cur.ident("a constant name")?;
        self.cur
            .expect(&Tok::Eq, "'=' and a value after the DEFINE name")?;
        let value = self.names.value(&mut self.cur)?;
        self.names.bind(&name, span, Named::Constant(value))
    }

    fn declare(&mut self) -> Result<(), ProgramError> {
        self.cur.next()?;
        let (name, span) = self.cur.ident("a local parameter name")?;
        let initial = if self.cur.eat(&Tok::Eq)?.is_some() {
            self.names.value(&mut self.cur)?.splat()
        } else {
            [0.0; 4]
        };
        // Checked before the slot exists so a bad name leaves no trace.
        self.names.bind(&name, span, Named::Local(0))?;
        let slot = self.b.param(
            ParamSource::Named {
                name: name.clone(),
                initial: initial.map(f32::to_bits),
            },
            &name,
        );
        self.names.rebind_local(&name, slot);
        Ok(())
    }

    fn instruction(&mut self) -> Result<(), ProgramError> {
        let (name, span) = self.cur.ident("an instruction")?;
        let op = decode(&name).ok_or_else(|| {
            syntax(
                span,
                format!("unknown instruction '{name}' (or a suffix it does not take)"),
            )
        })?;
        self.count += 1;
        if self.count > MAX_INSTRUCTIONS {
            return Err(semantic(
                span,
                format!(
                    "'{name}' is instruction {}: a fragment program may have at most \
                     {MAX_INSTRUCTIONS} instructions",
                    self.count
                ),
            ));
        }
        let mut sourced = Sourced::default();
        let mut srcs: SmallVec<[Src; 3]> = SmallVec::new();
        let mut extra = Extra::None;
        let mut dst_reg = None;
        let mut precision = op.precision.unwrap_or(Precision::Full);
        if op.shape == FpShape::Kil {
            let cond = cc_mask(&mut self.cur, true)?;
            // As the ARB/NV front end does: a conditional KIL "targets" itself.
            extra = Extra::Flow {
                target: self.b.instructions.len() as u32,
                cond: Some(cond),
            };
        } else {
            let (d, info) = self.dst()?;
            // The result is converted to the destination's precision after the operation,
            // so an fp32 (or unsuffixed) result stored in an fp16 register is rounded to
            // fp16: the executor's one per-instruction rounding must say Half.
            if info.half && precision == Precision::Full {
                precision = Precision::Half;
            }
            self.opcode_dst_rules(&name, op, &d, &info)?;
            dst_reg = Some(d);
            let (n, scalar) = match op.shape {
                FpShape::Scalar => (1, true),
                FpShape::BinScalar => (2, true),
                FpShape::Binary => (2, false),
                FpShape::Ternary => (3, false),
                FpShape::Txd => (3, false),
                _ => (1, false),
            };
            for _ in 0..n {
                self.cur.expect(&Tok::Comma, "','")?;
                srcs.push(self.source(scalar, &mut sourced)?);
            }
            if matches!(op.shape, FpShape::Tex | FpShape::Txd) {
                self.cur.expect(&Tok::Comma, "',' and a texture unit")?;
                extra = Extra::Tex(Box::new(self.texture()?));
            }
        }
        if let (true, Some(at)) = (is_unpack(op), sourced.half_operand) {
            return Err(semantic(
                at,
                format!(
                    "'{name}' unpacks a 32-bit scalar: its operand must come from an R \
                     register, a fragment attribute or a program parameter, not an fp16 \
                     H register"
                ),
            ));
        }
        check_unique(&sourced)?;
        self.b.instructions.push(Inst {
            op: op.op,
            dtype: DataType::F32,
            sat: if op.sat {
                Saturate::Sat
            } else {
                Saturate::None
            },
            precision,
            cc_update: op.cc.then_some(0),
            dst: dst_reg,
            srcs,
            extra,
            span: self.cur.since(span),
        });
        Ok(())
    }

    fn opcode_dst_rules(
        &self,
        name: &str,
        op: FpOp,
        d: &Dst,
        info: &DstInfo,
    ) -> Result<(), ProgramError> {
        use crate::ir::Opcode::*;
        if matches!(op.op, Pk2h | Pk2us | Pk4b | Pk4ub) && !info.full_reg {
            return Err(semantic(
                d.span,
                format!(
                    "'{name}' packs into a 32-bit scalar: its result must go to an R \
                     register, o[COLR] or o[DEPR]"
                ),
            ));
        }
        if op.op == Rfl && d.mask & 8 != 0 {
            return Err(semantic(
                d.span,
                format!("'{name}' may not write the w component (remove w from the write mask)"),
            ));
        }
        Ok(())
    }

    fn dst(&mut self) -> Result<(Dst, DstInfo), ProgramError> {
        let (name, span) = self.cur.ident("a destination register")?;
        let (file, slot, info) = match name.as_str() {
            "o" => {
                self.cur.expect(&Tok::LBracket, "'[' after 'o'")?;
                let (reg, rspan) = self.cur.ident("COLR, COLH or DEPR")?;
                let (binding, half) = match reg.as_str() {
                    "COLR" => (
                        OutputBinding::FragColor {
                            target: 0,
                            index: 0,
                        },
                        false,
                    ),
                    "COLH" => (OutputBinding::FragColorHalf, true),
                    "DEPR" => (OutputBinding::FragDepth, false),
                    _ => {
                        return Err(syntax(
                            rspan,
                            format!(
                                "unknown output 'o[{reg}]': expected o[COLR], o[COLH] or \
                                 o[DEPR]"
                            ),
                        ))
                    }
                };
                self.cur.expect(&Tok::RBracket, "']'")?;
                if half {
                    self.wrote_colh = true;
                } else if reg == "COLR" {
                    self.wrote_colr = true;
                }
                if self.wrote_colr && self.wrote_colh {
                    return Err(semantic(
                        span,
                        "the program writes both o[COLR] and o[COLH]; a fragment program \
                         may write only one of them",
                    ));
                }
                let full = format!("o[{reg}]");
                self.used_regs.insert(full.clone());
                let info = RegInfo {
                    short: half,
                    ..RegInfo::default()
                };
                let slot = self.b.output(binding, info, &full);
                (
                    File::Output,
                    slot,
                    DstInfo {
                        half,
                        full_reg: !half,
                    },
                )
            }
            "RC" | "HC" => {
                let half = name == "HC";
                let info = RegInfo {
                    short: half,
                    ..RegInfo::default()
                };
                let slot = self.b.temp(&name, info);
                (
                    File::Temp,
                    slot,
                    DstInfo {
                        half,
                        full_reg: false,
                    },
                )
            }
            _ => match self.temp(&name) {
                Some((slot, half)) => (
                    File::Temp,
                    slot,
                    DstInfo {
                        half,
                        full_reg: !half,
                    },
                ),
                None => {
                    let why = match name.as_str() {
                        "f" => "fragment attributes f[] are read-only",
                        "p" => "program parameters p[] are read-only",
                        _ => "expected R0-R31, H0-H63, RC, HC or o[COLR/COLH/DEPR]",
                    };
                    return Err(syntax(span, format!("invalid destination '{name}': {why}")));
                }
            },
        };
        let mut d = dst(file, slot, 0xF, span);
        d.mask = opt_write_mask(&mut self.cur)?;
        d.cond = opt_paren_cc(&mut self.cur, true)?;
        d.span = self.cur.since(span);
        Ok((d, info))
    }

    /// `R<n>` (n < 32) or `H<n>` (n < 64): the temp slot and whether it is fp16.
    fn temp(&mut self, name: &str) -> Option<(u32, bool)> {
        let half = match (numbered(name, "R"), numbered(name, "H")) {
            (Some(n), _) if n < 32 => false,
            (_, Some(n)) if n < 64 => true,
            _ => return None,
        };
        let info = RegInfo {
            short: half,
            ..RegInfo::default()
        };
        self.used_regs.insert(name.to_string());
        Some((self.b.temp(name, info), half))
    }

    /// `[-|+] |base|` or `base`, where base carries its own sign.
    /// A source operand; what it sources is reported at the whole operand's span.
    fn source(&mut self, scalar: bool, sourced: &mut Sourced) -> Result<Src, ProgramError> {
        let (np, na) = (sourced.params.len(), sourced.attribs.len());
        let s = self.operand(scalar, sourced)?;
        for (_, span) in sourced.params.iter_mut().skip(np) {
            *span = s.span;
        }
        for (_, span) in sourced.attribs.iter_mut().skip(na) {
            *span = s.span;
        }
        Ok(s)
    }

    fn operand(&mut self, scalar: bool, sourced: &mut Sourced) -> Result<Src, ProgramError> {
        let start = self.cur.peek()?.span;
        if matches!(self.cur.peek_tok()?, Tok::Minus | Tok::Plus)
            && self.cur.peek_at(1)?.tok == Tok::Bar
        {
            let neg = self.cur.next()?.tok == Tok::Minus;
            return self.abs_source(neg, start, scalar, sourced);
        }
        if self.cur.peek_tok()? == Tok::Bar {
            return self.abs_source(false, start, scalar, sourced);
        }
        let mut s = self.base_source(scalar, sourced)?;
        s.span = self.cur.since(start);
        Ok(s)
    }

    fn abs_source(
        &mut self,
        negate: bool,
        start: Span,
        scalar: bool,
        sourced: &mut Sourced,
    ) -> Result<Src, ProgramError> {
        self.cur.expect(&Tok::Bar, "'|'")?;
        let mut s = self.base_source(scalar, sourced)?;
        self.cur
            .expect(&Tok::Bar, "'|' closing the absolute value")?;
        // |-x| = |x|: the inner sign is gone once the absolute value is taken (a signed
        // number's sign is already part of its value).
        s.abs = true;
        s.negate = negate;
        s.span = self.cur.since(start);
        Ok(s)
    }

    fn base_source(&mut self, scalar: bool, sourced: &mut Sourced) -> Result<Src, ProgramError> {
        let start = self.cur.peek()?.span;
        // A sign directly before a number is part of the constant's value.
        let number_follows = |t: &Tok| matches!(t, Tok::Int(_) | Tok::Float(_));
        let signed_number_next = number_follows(&self.cur.peek_tok()?)
            || (matches!(self.cur.peek_tok()?, Tok::Minus | Tok::Plus)
                && number_follows(&self.cur.peek_at(1)?.tok));
        if signed_number_next {
            let v = signed_number(&mut self.cur)?;
            let span = self.cur.since(start);
            return Ok(self.constant(Value::Scalar(v), span, sourced));
        }
        let negate = if self.cur.eat(&Tok::Minus)?.is_some() {
            true
        } else {
            self.cur.eat(&Tok::Plus)?;
            false
        };
        let t = self.cur.peek()?.clone();
        let mut s = match &t.tok {
            Tok::LBrace => {
                let v = self.names.vector_literal(&mut self.cur)?;
                let span = self.cur.since(t.span);
                self.constant(Value::Vector(v), span, sourced)
            }
            Tok::Ident(name) => {
                let name = name.clone();
                self.cur.next()?;
                match self.named_source(&name, t.span, sourced)? {
                    Some(s) => s,
                    // A scalar constant: no suffix.
                    None => {
                        let v = match self.names.get(&name) {
                            Some(Named::Constant(v)) => *v,
                            _ => Value::Scalar(0.0),
                        };
                        let mut s = self.constant(v, t.span, sourced);
                        s.negate = negate;
                        return Ok(s);
                    }
                }
            }
            other => {
                return Err(syntax(
                    t.span,
                    format!("expected a source operand, found {}", other.describe()),
                ))
            }
        };
        s.negate = negate;
        s.swizzle = opt_swizzle(&mut self.cur, true, !scalar, scalar)?;
        Ok(s)
    }

    /// A register, attribute, `p[n]` or named parameter; `None` for a named scalar
    /// constant (which takes no suffix).
    fn named_source(
        &mut self,
        name: &str,
        span: Span,
        sourced: &mut Sourced,
    ) -> Result<Option<Src>, ProgramError> {
        if let Some((slot, half)) = self.temp(name) {
            if half {
                sourced.half_operand = Some(span);
            }
            return Ok(Some(src(File::Temp, Index::Direct(slot), span)));
        }
        match name {
            "f" if self.cur.peek_tok()? == Tok::LBracket => {
                self.cur.next()?;
                let (reg, rspan) = self.cur.ident("a fragment attribute such as TEX0")?;
                let binding = match reg.as_str() {
                    "WPOS" => InputBinding::FragPosition,
                    "COL0" => InputBinding::FragColor { secondary: false },
                    "COL1" => InputBinding::FragColor { secondary: true },
                    "FOGC" => InputBinding::FragFogCoord,
                    _ => match numbered(&reg, "TEX") {
                        Some(n) if n < 8 => InputBinding::FragTexCoord(n),
                        _ => {
                            return Err(syntax(
                                rspan,
                                format!(
                                    "unknown fragment attribute 'f[{reg}]' (expected WPOS, \
                                     COL0, COL1, FOGC or TEX0-TEX7)"
                                ),
                            ))
                        }
                    },
                };
                self.cur.expect(&Tok::RBracket, "']'")?;
                sourced.attribs.push((reg.clone(), span));
                let slot = self.b.input(binding, &format!("f[{reg}]"));
                Ok(Some(src(File::Input, Index::Direct(slot), span)))
            }
            "p" if self.cur.peek_tok()? == Tok::LBracket => {
                self.cur.next()?;
                let t = self.cur.next()?;
                let n = match t.tok {
                    Tok::Int(n) if n < LOCAL_PARAMS => n as u32,
                    other => {
                        return Err(syntax(
                            t.span,
                            format!(
                                "invalid local parameter number {}: p[] has entries 0 to {}",
                                other.describe(),
                                LOCAL_PARAMS - 1
                            ),
                        ))
                    }
                };
                self.cur.expect(&Tok::RBracket, "']'")?;
                sourced.params.push((ParamKey::Local(n), span));
                let slot = self.b.param(ParamSource::Local(n), &format!("p[{n}]"));
                Ok(Some(src(File::Param, Index::Direct(slot), span)))
            }
            "o" => Err(syntax(span, "output registers o[] cannot be read")),
            "RC" | "HC" => Err(syntax(
                span,
                format!("'{name}' is write-only: it only updates the condition code"),
            )),
            _ => match self.names.get(name) {
                Some(Named::Constant(Value::Scalar(_))) => Ok(None),
                Some(Named::Constant(v)) => {
                    let v = *v;
                    Ok(Some(self.constant(v, span, sourced)))
                }
                Some(Named::Local(slot)) => {
                    sourced
                        .params
                        .push((ParamKey::Named(name.to_string()), span));
                    Ok(Some(src(File::Param, Index::Direct(*slot), span)))
                }
                None => Err(semantic(
                    span,
                    format!(
                        "'{name}' is not a register and was not defined by a previous DEFINE \
                         or DECLARE"
                    ),
                )),
            },
        }
    }

    fn constant(&mut self, v: Value, span: Span, sourced: &mut Sourced) -> Src {
        sourced.params.push((ParamKey::Constant(v), span));
        let bits = v.splat().map(f32::to_bits);
        let label = match v {
            Value::Scalar(s) => format!("{s}"),
            Value::Vector(c) => format!("{{{}, {}, {}, {}}}", c[0], c[1], c[2], c[3]),
        };
        let slot = self.b.param(ParamSource::Constant(bits), &label);
        src(File::Param, Index::Direct(slot), span)
    }

    /// `TEXn, TARGET` of TEX/TXP/TXD.
    fn texture(&mut self) -> Result<TexInfo, ProgramError> {
        let (unit_name, uspan) = self.cur.ident("a texture unit TEX0-TEX15")?;
        let unit = numbered(&unit_name, "TEX")
            .filter(|&n| n < 16)
            .ok_or_else(|| {
                syntax(
                    uspan,
                    format!("invalid texture unit '{unit_name}': expected TEX0-TEX15"),
                )
            })?;
        self.cur.expect(&Tok::Comma, "',' and a texture target")?;
        let (tname, tspan) = self
            .cur
            .ident("a texture target (1D, 2D, 3D, CUBE, RECT)")?;
        let target = match tname.as_str() {
            "1D" => TexTarget::T1D,
            "2D" => TexTarget::T2D,
            "3D" => TexTarget::T3D,
            "CUBE" => TexTarget::Cube,
            "RECT" => TexTarget::Rect,
            _ => {
                return Err(syntax(
                    tspan,
                    format!("invalid texture target '{tname}': expected 1D, 2D, 3D, CUBE or RECT"),
                ))
            }
        };
        match self.b.texture_targets.iter().find(|(u, _)| *u == unit) {
            Some(&(_, t)) if t != target => {
                return Err(semantic(
                    tspan,
                    format!(
                        "texture unit {unit_name} is used as {tname} here but as {t:?} earlier: \
                         all lookups on one texture unit must use the same target"
                    ),
                ))
            }
            Some(_) => {}
            None => self.b.texture_targets.push((unit, target)),
        }
        Ok(TexInfo {
            unit: TexUnit::Fixed(unit),
            target,
            offset: None,
            gather_comp: 0,
        })
    }

    fn finish(self) -> Result<Program, ProgramError> {
        let end = self.cur.end_span();
        if self.b.outputs.is_empty() {
            return Err(semantic(
                end,
                "the program writes no output register: a fragment program must write \
                 o[COLR], o[COLH] or o[DEPR]",
            ));
        }
        let units: u32 = self
            .used_regs
            .iter()
            .map(|r| {
                if r.starts_with('H') || r == "o[COLH]" {
                    1
                } else {
                    2
                }
            })
            .sum();
        if units > MAX_REGISTER_UNITS {
            return Err(semantic(
                end,
                format!(
                    "the program uses {units} register units (fp32 temporaries and outputs \
                     count 2, fp16 ones 1); at most {MAX_REGISTER_UNITS} are allowed"
                ),
            ));
        }
        Ok(self
            .b
            .finish(Stage::Fragment, Dialect::Fp10, Options::default(), 0))
    }
}

fn is_unpack(op: FpOp) -> bool {
    use crate::ir::Opcode::*;
    matches!(op.op, Up2h | Up2us | Up4b | Up4ub)
}

/// At most one distinct fragment attribute and one distinct program parameter per
/// instruction; several constants are fine while they hold at most four distinct scalars
/// (the GL merges them into one vector constant).
fn check_unique(s: &Sourced) -> Result<(), ProgramError> {
    if let Some((first, _)) = s.attribs.first() {
        if let Some((_, span)) = s.attribs.iter().find(|(a, _)| a != first) {
            return Err(semantic(
                *span,
                "this instruction reads a second, different fragment attribute f[]: an \
                 instruction may source only one unique attribute register",
            ));
        }
    }
    let Some((first, _)) = s.params.first() else {
        return Ok(());
    };
    let Some((_, span)) = s.params.iter().find(|(k, _)| k != first) else {
        return Ok(());
    };
    let mut scalars = BTreeSet::new();
    for (k, kspan) in &s.params {
        match k {
            ParamKey::Constant(v) => scalars.extend(v.scalars()),
            _ => {
                return Err(semantic(
                    if kspan == &s.params[0].1 {
                        *span
                    } else {
                        *kspan
                    },
                    "this instruction sources more than one unique program parameter (only \
                     constants holding at most four distinct values can be combined)",
                ))
            }
        }
    }
    if scalars.len() > 4 {
        return Err(semantic(
            *span,
            format!(
                "the constants of this instruction hold {} distinct values; they can be \
                 merged into one program parameter only if there are at most four",
                scalars.len()
            ),
        ));
    }
    Ok(())
}
