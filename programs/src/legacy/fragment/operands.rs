//! Fragment-program operands: destinations (temporaries, RC/HC, outputs), sources
//! (registers, attributes, `p[n]`, embedded and named constants, local parameters) and
//! texture units.

use super::{DstInfo, FpParser, ParamKey, Sourced, LOCAL_PARAMS};
use crate::error::ProgramError;
use crate::ir::{
    Dst, File, Index, InputBinding, OutputBinding, ParamSource, RegInfo, Src, TexInfo, TexTarget,
    TexUnit,
};
use crate::legacy::common::{dst, numbered, opt_paren_cc, opt_swizzle, opt_write_mask};
use crate::legacy::fragment_consts::{signed_number, Named, Value};
use crate::lexer::Tok;
use crate::parse::{semantic, syntax};
use crate::span::Span;

impl<'a> FpParser<'a> {
    pub(super) fn dst(&mut self) -> Result<(Dst, DstInfo), ProgramError> {
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
    pub(super) fn temp(&mut self, name: &str) -> Option<(u32, bool)> {
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

    /// A source operand (`[-|+] |base|` or `base`, where base carries its own sign); what it sources is reported at the whole operand's span.
    pub(super) fn source(
        &mut self,
        scalar: bool,
        sourced: &mut Sourced,
    ) -> Result<Src, ProgramError> {
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

    pub(super) fn operand(
        &mut self,
        scalar: bool,
        sourced: &mut Sourced,
    ) -> Result<Src, ProgramError> {
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

    pub(super) fn abs_source(
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

    pub(super) fn base_source(
        &mut self,
        scalar: bool,
        sourced: &mut Sourced,
    ) -> Result<Src, ProgramError> {
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
    pub(super) fn named_source(
        &mut self,
        name: &str,
        span: Span,
        sourced: &mut Sourced,
    ) -> Result<Option<Src>, ProgramError> {
        if let Some((slot, half)) = self.temp(name) {
            if half {
                sourced.half_operand = Some(span);
            }
            return Ok(Some(Src::plain(File::Temp, Index::Direct(slot), span)));
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
                Ok(Some(Src::plain(File::Input, Index::Direct(slot), span)))
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
                Ok(Some(Src::plain(File::Param, Index::Direct(slot), span)))
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
                    Ok(Some(Src::plain(File::Param, Index::Direct(*slot), span)))
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

    pub(super) fn constant(&mut self, v: Value, span: Span, sourced: &mut Sourced) -> Src {
        sourced.params.push((ParamKey::Constant(v), span));
        let bits = v.splat().map(f32::to_bits);
        let label = match v {
            Value::Scalar(s) => format!("{s}"),
            Value::Vector(c) => format!("{{{}, {}, {}, {}}}", c[0], c[1], c[2], c[3]),
        };
        let slot = self.b.param(ParamSource::Constant(bits), &label);
        Src::plain(File::Param, Index::Direct(slot), span)
    }

    /// `TEXn, TARGET` of TEX/TXP/TXD.
    pub(super) fn texture(&mut self) -> Result<TexInfo, ProgramError> {
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
            lod_clamp: false,
            sparse: false,
        })
    }
}
