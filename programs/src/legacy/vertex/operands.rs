//! Vertex-program operands: destination and source registers, attribute and result
//! names, program parameters with their relative addressing.

use super::{ParamKey, Sourced, VpParser, ATTRIB_NAMES};
use crate::error::ProgramError;
use crate::ir::{
    Dst, File, Index, IndexReg, InputBinding, OutputBinding, ParamSource, RegInfo, Src, VaryingSlot,
};
use crate::legacy::common::{dst, numbered, opt_paren_cc, opt_swizzle, opt_write_mask};
use crate::legacy::vertex_ops::Level;
use crate::lexer::Tok;
use crate::parse::{semantic, syntax};
use crate::span::Span;

impl<'a> VpParser<'a> {
    /// `A0` or `A1` (VP2).
    pub(super) fn addr_reg(&mut self) -> Result<(u32, Span), ProgramError> {
        let (name, span) = self.cur.ident("an address register (A0)")?;
        let reg = match name.as_str() {
            "A0" => 0,
            "A1" if self.env.vp2() => 1,
            _ => {
                let have = if self.env.vp2() { "A0 or A1" } else { "A0" };
                return Err(syntax(
                    span,
                    format!("expected address register {have}, found '{name}'"),
                ));
            }
        };
        self.b.address_regs = self.b.address_regs.max(reg + 1);
        Ok((reg, span))
    }

    pub(super) fn addr_dst(&mut self) -> Result<Dst, ProgramError> {
        let (reg, span) = self.addr_reg()?;
        let mask = if self.env.vp2() {
            opt_write_mask(&mut self.cur)?
        } else {
            self.cur.expect(&Tok::Dot, "'.x' after A0")?;
            let (c, cspan) = self.cur.ident("'x'")?;
            if c != "x" {
                return Err(syntax(
                    cspan,
                    format!("'A0.{c}': only A0.x exists before !!VP2.0"),
                ));
            }
            1
        };
        let mut d = dst(File::Address, reg, mask, span);
        if self.env.vp2() {
            d.cond = opt_paren_cc(&mut self.cur, true)?;
        }
        Ok(d)
    }

    pub(super) fn dst(&mut self) -> Result<Dst, ProgramError> {
        let (name, span) = self.cur.ident("a destination register")?;
        let (file, slot) = match name.as_str() {
            "o" if !self.env.vsp => {
                let (slot, is_hpos) = self.result_reg()?;
                if is_hpos {
                    if self.env.position_invariant {
                        return Err(semantic(
                            span,
                            "'o[HPOS]' is written, but a position-invariant program \
                             (OPTION NV_position_invariant) may not write HPOS",
                        ));
                    }
                    self.wrote_hpos = true;
                }
                (File::Output, slot)
            }
            "c" if self.env.vsp => {
                self.cur.expect(&Tok::LBracket, "'['")?;
                let n = self.int_in(0, 95, "program parameter number")?;
                self.cur.expect(&Tok::RBracket, "']'")?;
                self.wrote_param = true;
                let binding = OutputBinding::EnvParam(n);
                let slot = self
                    .b
                    .output(binding, RegInfo::default(), &format!("c[{n}]"));
                (File::Output, slot)
            }
            "CC" if self.env.vp2() => (File::Temp, self.b.temp("CC", RegInfo::default())),
            _ => match self.temp_number(&name) {
                Some(_) => (File::Temp, self.b.temp(&name, RegInfo::default())),
                None => return Err(self.bad_dst(&name, span)),
            },
        };
        let mask = opt_write_mask(&mut self.cur)?;
        let mut d = dst(file, slot, mask, span);
        if self.env.vp2() {
            d.cond = opt_paren_cc(&mut self.cur, true)?;
        }
        Ok(d)
    }

    pub(super) fn bad_dst(&self, name: &str, span: Span) -> ProgramError {
        let what = if self.env.vsp {
            match name {
                "o" => "a vertex state program may not write result registers o[]",
                "v" => "vertex attribute registers are read-only",
                _ => "expected a temporary R0-R11 or a program parameter c[n]",
            }
        } else {
            match name {
                "c" => "program parameters c[] are read-only in vertex programs",
                "v" => "vertex attribute registers v[] are read-only",
                _ if self.env.vp2() => "expected a temporary R0-R15, a result o[...] or CC",
                _ => "expected a temporary R0-R11 or a result register o[...]",
            }
        };
        syntax(span, format!("invalid destination '{name}': {what}"))
    }

    /// `R<n>` within the environment's temporary count.
    pub(super) fn temp_number(&self, name: &str) -> Option<u32> {
        numbered(name, "R").filter(|&n| n < self.env.temp_count())
    }

    /// `[NAME]` after `o`: the slot, and whether it is HPOS.
    pub(super) fn result_reg(&mut self) -> Result<(u32, bool), ProgramError> {
        self.cur.expect(&Tok::LBracket, "'[' after 'o'")?;
        let (name, span) = self.cur.ident("a result register name such as HPOS")?;
        let slot = match name.as_str() {
            "HPOS" => VaryingSlot::Position,
            "COL0" => VaryingSlot::Color {
                back: false,
                secondary: false,
            },
            "COL1" => VaryingSlot::Color {
                back: false,
                secondary: true,
            },
            "BFC0" => VaryingSlot::Color {
                back: true,
                secondary: false,
            },
            "BFC1" => VaryingSlot::Color {
                back: true,
                secondary: true,
            },
            "FOGC" => VaryingSlot::FogCoord,
            "PSIZ" => VaryingSlot::PointSize,
            _ => match (numbered(&name, "TEX"), numbered(&name, "CLP")) {
                (Some(n), _) if n < 8 => VaryingSlot::TexCoord(n),
                (_, Some(n)) if n < 6 && self.env.vp2() => VaryingSlot::ClipLegacy(n),
                _ => {
                    return Err(syntax(
                        span,
                        format!(
                            "unknown result register 'o[{name}]' (expected HPOS, COL0, COL1, \
                             BFC0, BFC1, FOGC, PSIZ, TEX0-TEX7{})",
                            if self.env.vp2() { ", CLP0-CLP5" } else { "" }
                        ),
                    ))
                }
            },
        };
        self.cur.expect(&Tok::RBracket, "']'")?;
        let is_hpos = slot == VaryingSlot::Position;
        let out = self.b.output(
            OutputBinding::Varying(slot),
            RegInfo::default(),
            &format!("o[{name}]"),
        );
        Ok((out, is_hpos))
    }

    /// An integer token in `lo..=hi`.
    pub(super) fn int_in(&mut self, lo: u32, hi: u32, what: &str) -> Result<u32, ProgramError> {
        let t = self.cur.next()?;
        match t.tok {
            Tok::Int(v) if v >= u64::from(lo) && v <= u64::from(hi) => Ok(v as u32),
            Tok::Int(v) => Err(syntax(
                t.span,
                format!("{what} {v} is out of range: it must be from {lo} to {hi}"),
            )),
            other => Err(syntax(
                t.span,
                format!("expected a {what}, found {}", other.describe()),
            )),
        }
    }

    /// A source operand: `[-|+] reg[.swizzle]`, or VP2 `[-|+] |[-|+] reg[.swizzle]|`.
    pub(super) fn source(
        &mut self,
        scalar: bool,
        sourced: &mut Sourced,
    ) -> Result<Src, ProgramError> {
        let start = self.cur.peek()?.span;
        let outer_neg = self.sign()?;
        if let Some(bar) = self.cur.eat(&Tok::Bar)? {
            if !self.env.vp2() {
                return Err(syntax(
                    bar,
                    "absolute value '|operand|' needs !!VP2.0 (use ABS in !!VP1.1)",
                ));
            }
            // The inner sign cannot matter once the absolute value is taken.
            self.sign()?;
            let mut s = self.base_source(scalar, sourced)?;
            let close = self
                .cur
                .expect(&Tok::Bar, "'|' closing the absolute value")?;
            s.abs = true;
            s.negate = outer_neg;
            s.span = start.to(close);
            return Ok(s);
        }
        let mut s = self.base_source(scalar, sourced)?;
        s.negate = outer_neg;
        s.span = self.cur.since(start);
        Ok(s)
    }

    /// An optional sign: `-` always, `+` from VP1.1 on. True if negated.
    pub(super) fn sign(&mut self) -> Result<bool, ProgramError> {
        if self.cur.eat(&Tok::Minus)?.is_some() {
            return Ok(true);
        }
        if let Some(span) = self.cur.eat(&Tok::Plus)? {
            if self.env.level == Level::Vp10 {
                return Err(syntax(
                    span,
                    "a '+' sign on an operand needs !!VP1.1 or !!VP2.0",
                ));
            }
        }
        Ok(false)
    }

    pub(super) fn base_source(
        &mut self,
        scalar: bool,
        sourced: &mut Sourced,
    ) -> Result<Src, ProgramError> {
        let (name, span) = self.cur.ident("a source register")?;
        let mut s = match name.as_str() {
            "v" => {
                let n = self.attrib_index()?;
                sourced.attribs.push((n, span));
                let binding = if self.env.vsp {
                    InputBinding::VertexAttrib(0)
                } else {
                    attrib_binding(n)
                };
                let label = format!("v[{}]", ATTRIB_NAMES.get(n as usize).unwrap_or(&"?"));
                Src::plain(
                    File::Input,
                    Index::Direct(self.b.input(binding, &label)),
                    span,
                )
            }
            "c" => {
                let (index, key) = self.param_index()?;
                sourced.params.push((key, span));
                Src::plain(File::Param, index, span)
            }
            _ => match self.temp_number(&name) {
                Some(_) => Src::plain(
                    File::Temp,
                    Index::Direct(self.b.temp(&name, RegInfo::default())),
                    span,
                ),
                None => {
                    let why = match name.as_str() {
                        "o" => "result registers o[] cannot be read",
                        "CC" => "CC is a write-only register",
                        _ if self.env.vp2() => "expected v[...], c[...] or a temporary R0-R15",
                        _ => "expected v[...], c[...] or a temporary R0-R11",
                    };
                    return Err(syntax(span, format!("invalid source '{name}': {why}")));
                }
            },
        };
        s.swizzle = opt_swizzle(&mut self.cur, true, !scalar, scalar)?;
        s.span = self.cur.since(span);
        Ok(s)
    }

    /// `[n]` or `[MNEMONIC]` after `v`.
    pub(super) fn attrib_index(&mut self) -> Result<u32, ProgramError> {
        self.cur.expect(&Tok::LBracket, "'[' after 'v'")?;
        let t = self.cur.next()?;
        let n = match &t.tok {
            Tok::Int(0) => 0,
            Tok::Int(v) if self.env.vsp => {
                return Err(syntax(
                    t.span,
                    format!("'v[{v}]': a vertex state program may only read v[0]"),
                ))
            }
            Tok::Int(v) if *v < 16 => *v as u32,
            Tok::Ident(m) if !self.env.vsp => match ATTRIB_NAMES.iter().position(|a| a == m) {
                Some(i) if i != 6 && i != 7 => i as u32,
                _ => return Err(syntax(t.span, format!("unknown vertex attribute 'v[{m}]'"))),
            },
            other => {
                let what = if self.env.vsp {
                    "a vertex state program may only read v[0]"
                } else {
                    "expected an attribute number 0-15 or a name such as OPOS"
                };
                return Err(syntax(
                    t.span,
                    format!("invalid vertex attribute {}: {what}", other.describe()),
                ));
            }
        };
        self.cur.expect(&Tok::RBracket, "']'")?;
        Ok(n)
    }

    /// `[n]`, `[A0.x]`, `[A0.x + n]` or `[A0.x - n]` after `c`.
    pub(super) fn param_index(&mut self) -> Result<(Index, ParamKey), ProgramError> {
        self.cur.expect(&Tok::LBracket, "'[' after 'c'")?;
        let t = self.cur.peek()?.clone();
        if let Tok::Int(_) = t.tok {
            let max = self.env.param_count() - 1;
            let n = self.int_in(0, max, "program parameter number")?;
            self.cur.expect(&Tok::RBracket, "']'")?;
            let slot = if self.env_block {
                n
            } else {
                self.b.param(ParamSource::Env(n), &format!("c[{n}]"))
            };
            return Ok((Index::Direct(slot), ParamKey::Abs(n)));
        }
        if self.env.position_invariant && self.env.level == Level::Vp11 {
            return Err(semantic(
                t.span,
                "relative addressing of c[] is not allowed in a position-invariant !!VP1.1 \
                 program",
            ));
        }
        let (reg, _) = self.addr_reg()?;
        self.cur
            .expect(&Tok::Dot, "'.' and a component after the address register")?;
        let (c, cspan) = self.cur.ident("an address component")?;
        let comp = match (c.as_str(), self.env.vp2()) {
            ("x", _) => 0,
            ("y", true) => 1,
            ("z", true) => 2,
            ("w", true) => 3,
            _ => {
                return Err(syntax(
                    cspan,
                    format!(
                        "invalid address component '{c}': expected {}",
                        if self.env.vp2() { "x, y, z or w" } else { "x" }
                    ),
                ))
            }
        };
        let (pos_max, neg_max) = if self.env.vp2() { (255, 256) } else { (63, 64) };
        let offset = if self.cur.eat(&Tok::Plus)?.is_some() {
            self.int_in(0, pos_max, "positive offset")? as i32
        } else if self.cur.eat(&Tok::Minus)?.is_some() {
            -(self.int_in(0, neg_max, "negative offset")? as i32)
        } else {
            0
        };
        self.cur.expect(&Tok::RBracket, "']'")?;
        let index = Index::Relative {
            reg: IndexReg::Address { reg, comp },
            offset,
            base: 0,
            len: self.env.param_count(),
        };
        Ok((index, ParamKey::Rel { reg, comp, offset }))
    }
}

fn attrib_binding(n: u32) -> InputBinding {
    match n {
        0 => InputBinding::VertexPosition,
        1 => InputBinding::VertexWeight(0),
        2 => InputBinding::VertexNormal,
        3 => InputBinding::VertexColor { secondary: false },
        4 => InputBinding::VertexColor { secondary: true },
        5 => InputBinding::VertexFogCoord,
        8..=15 => InputBinding::VertexTexCoord(n - 8),
        _ => InputBinding::VertexAttrib(n),
    }
}
