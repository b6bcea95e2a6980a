//! `!!VP1.0`, `!!VP1.1`, `!!VP2.0` vertex programs and `!!VSP1.0` vertex state programs
//! (NV_vertex_program, NV_vertex_program1_1, NV_vertex_program2).
//!
//! Lowering choices:
//! - `v[n]` reads the conventional attribute NV_vertex_program aliases to register `n`
//!   (`v[0]`/`v[OPOS]` = position, `v[TEX0]` = texcoord 0, ...); `v[6]`/`v[7]`, which
//!   alias nothing, are generic attributes. A VSP's `v[0]` is generic attribute 0, which
//!   ExecuteProgramNV loads from its `params`.
//! - `c[n]` is program env parameter `n` (tracked matrices are the app's job). When a
//!   program uses relative addressing, `c[0..96]` (`c[0..256]` for VP2) occupy param slots
//!   `0..len` so `c[A0.x + n]` is `Index::Relative { base: 0, len }`.
//! - A VSP's writes to `c[n]` go to `OutputBinding::EnvParam(n)` slots.
//! - VP2's `main:` label sets `Program::entry`. `Program::labels` stays empty: unlike
//!   NV_gpu_program4, a VP2 subroutine does not end at the next label, only at RET.

use super::builder::Builder;
use super::common::{dst, opt_paren_cc, opt_swizzle, opt_write_mask, src};
use super::cursor::{semantic, syntax, Cursor};
use super::vertex_ops::{decode, Level, Shape, VpOp};
use crate::assemble::Header;
use crate::error::ProgramError;
use crate::ir::{DataType, Options, Program};
use crate::ir::{
    Dialect, Extra, File, Index, IndexReg, InputBinding, Inst, OutputBinding, ParamSource,
    Precision, RegInfo, Saturate, Src, Stage, VaryingSlot,
};
use crate::lexer::{Lexer, Tok};
use crate::span::Span;
use smallvec::SmallVec;
use std::collections::HashMap;

const ATTRIB_NAMES: [&str; 16] = [
    "OPOS", "WGHT", "NRML", "COL0", "COL1", "FOGC", "6", "7", "TEX0", "TEX1", "TEX2", "TEX3",
    "TEX4", "TEX5", "TEX6", "TEX7",
];

/// Which rules apply: derived from the header and the options.
struct Env {
    dialect: Dialect,
    level: Level,
    vsp: bool,
    position_invariant: bool,
}

impl Env {
    fn vp2(&self) -> bool {
        self.level == Level::Vp20
    }
    fn param_count(&self) -> u32 {
        if self.vp2() {
            256
        } else {
            96
        }
    }
    fn temp_count(&self) -> u32 {
        if self.vp2() {
            16
        } else {
            12
        }
    }
    fn max_instructions(&self) -> u32 {
        let base = if self.vp2() { 256 } else { 128 };
        if self.position_invariant {
            base - 4
        } else {
            base
        }
    }
}

/// What one instruction sources, for the one-unique-parameter/attribute rules.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ParamKey {
    Abs(u32),
    Rel { reg: u32, comp: u8, offset: i32 },
}

#[derive(Default)]
struct Sourced {
    params: Vec<(ParamKey, Span)>,
    attribs: Vec<(u32, Span)>,
}

struct VpParser<'a> {
    cur: Cursor<'a>,
    env: Env,
    b: Builder,
    env_block: bool,
    labels: HashMap<String, (u32, Span)>,
    branches: Vec<(usize, String, Span)>,
    count: u32,
    wrote_hpos: bool,
    wrote_param: bool,
}

/// True if the text (up to `END`) indexes `c[]` with an address register.
fn uses_relative_addressing(text: &str) -> bool {
    let mut lx = Lexer::new(text);
    let mut window: [Option<Tok>; 3] = [None, None, None];
    while let Ok(t) = lx.next_token() {
        if t.tok == Tok::Eof || matches!(&t.tok, Tok::Ident(s) if s == "END") {
            return false;
        }
        window = [window[1].take(), window[2].take(), Some(t.tok)];
        if let [Some(Tok::Ident(c)), Some(Tok::LBracket), Some(Tok::Ident(a))] = &window {
            if c == "c" && (a == "A0" || a == "A1") {
                return true;
            }
        }
    }
    false
}

pub(crate) fn assemble_vertex(text: &str, header: Header) -> Result<Program, ProgramError> {
    let env = Env {
        dialect: header.dialect,
        level: Level::of(header.dialect),
        vsp: header.dialect == Dialect::Vsp10,
        position_invariant: false,
    };
    let mut p = VpParser {
        cur: Cursor::after_header(text)?,
        env,
        b: Builder::default(),
        env_block: false,
        labels: HashMap::new(),
        branches: Vec::new(),
        count: 0,
        wrote_hpos: false,
        wrote_param: false,
    };
    if uses_relative_addressing(text) {
        p.env_block = true;
        let len = p.env.param_count();
        p.b.env_block(len);
    }
    let options = p.options()?;
    p.body()?;
    p.finish(options)
}

impl<'a> VpParser<'a> {
    fn options(&mut self) -> Result<Options, ProgramError> {
        let mut options = Options::default();
        while self.cur.at_ident("OPTION")? {
            let span = self.cur.next()?.span;
            if self.env.level == Level::Vp10 {
                return Err(syntax(
                    span,
                    format!(
                        "'OPTION' is not part of the {} grammar (options need !!VP1.1 or !!VP2.0)",
                        if self.env.vsp { "!!VSP1.0" } else { "!!VP1.0" }
                    ),
                ));
            }
            let (name, nspan) = self.cur.ident("an option name")?;
            if name != "NV_position_invariant" {
                return Err(syntax(
                    nspan,
                    format!("unknown option '{name}': the only option is NV_position_invariant"),
                ));
            }
            self.cur.expect(&Tok::Semi, "';' after the option")?;
            self.env.position_invariant = true;
            options.position_invariant = true;
            options.names.push(name);
        }
        Ok(options)
    }

    fn body(&mut self) -> Result<(), ProgramError> {
        loop {
            let t = self.cur.peek()?.clone();
            match &t.tok {
                Tok::Ident(s) if s == "END" => {
                    self.cur.next()?;
                    return Ok(());
                }
                Tok::Ident(s) if self.cur.peek_at(1)?.tok == Tok::Colon => {
                    let name = s.clone();
                    self.label(name, t.span)?;
                }
                Tok::Ident(_) => self.instruction()?,
                Tok::Eof => return Err(syntax(t.span, "missing 'END' at the end of the program")),
                other => {
                    return Err(syntax(
                        t.span,
                        format!("expected an instruction, found {}", other.describe()),
                    ))
                }
            }
        }
    }

    fn label(&mut self, name: String, span: Span) -> Result<(), ProgramError> {
        if !self.env.vp2() {
            return Err(syntax(
                span,
                format!("label '{name}:' needs !!VP2.0 (labels and branches are VP2 features)"),
            ));
        }
        if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(syntax(
                span,
                format!("invalid label name '{name}': use letters, digits and '_'"),
            ));
        }
        self.cur.next()?;
        self.cur.next()?;
        let at = self.b.instructions.len() as u32;
        if let Some((_, first)) = self.labels.insert(name.clone(), (at, span)) {
            return Err(semantic(
                span,
                format!(
                    "label '{name}' is defined twice (first at byte {}); a branch to it \
                     would be ambiguous",
                    first.start
                ),
            ));
        }
        Ok(())
    }

    fn instruction(&mut self) -> Result<(), ProgramError> {
        let (name, span) = self.cur.ident("an instruction")?;
        if name == "OPTION" {
            return Err(syntax(
                span,
                "'OPTION' must come before the first instruction",
            ));
        }
        let op = self.opcode(&name, span)?;
        self.count += 1;
        if self.count > self.env.max_instructions() {
            return Err(semantic(
                span,
                format!(
                    "'{name}' is instruction {}: a {}{} program may have at most {} \
                     instructions",
                    self.count,
                    if self.env.vsp {
                        "!!VSP1.0"
                    } else {
                        self.env.level.header()
                    },
                    if self.env.position_invariant {
                        " position-invariant"
                    } else {
                        ""
                    },
                    self.env.max_instructions()
                ),
            ));
        }
        let mut sourced = Sourced::default();
        let mut extra = Extra::None;
        let mut srcs: SmallVec<[Src; 3]> = SmallVec::new();
        // ARL/ARR/ARA too: the ARB/NV front end gives address loads F32 (ARA's integer
        // operand is the executor's business).
        let dtype = DataType::F32;
        let dst = match op.shape {
            Shape::AddrLoad => {
                let d = self.addr_dst()?;
                self.comma()?;
                let scalar = !self.env.vp2();
                srcs.push(self.source(scalar, &mut sourced)?);
                Some(d)
            }
            Shape::AddrAdd => {
                let d = self.addr_dst()?;
                self.comma()?;
                let (reg, s) = self.addr_reg()?;
                srcs.push(src(File::Address, Index::Direct(reg), s));
                Some(d)
            }
            Shape::Vector | Shape::Scalar | Shape::Binary | Shape::Ternary => {
                let d = self.dst()?;
                let n = match op.shape {
                    Shape::Binary => 2,
                    Shape::Ternary => 3,
                    _ => 1,
                };
                for _ in 0..n {
                    self.comma()?;
                    srcs.push(self.source(op.shape == Shape::Scalar, &mut sourced)?);
                }
                Some(d)
            }
            Shape::Branch => {
                let (label, lspan) = self.cur.ident("a label name")?;
                self.branches
                    .push((self.b.instructions.len(), label, lspan));
                extra = Extra::Flow {
                    target: 0,
                    cond: opt_paren_cc(&mut self.cur, true)?,
                };
                None
            }
            Shape::Return => {
                extra = Extra::Flow {
                    target: 0,
                    cond: opt_paren_cc(&mut self.cur, true)?,
                };
                None
            }
        };
        let end = self.cur.expect(&Tok::Semi, "';' after the instruction")?;
        check_unique(&sourced)?;
        self.b.instructions.push(Inst {
            op: op.op,
            dtype,
            sat: Saturate::None,
            precision: Precision::Full,
            cc_update: op.cc.then_some(0),
            dst,
            srcs,
            extra,
            span: span.to(end),
        });
        Ok(())
    }

    fn opcode(&self, name: &str, span: Span) -> Result<VpOp, ProgramError> {
        let Some(op) = decode(name) else {
            return Err(syntax(span, format!("unknown instruction '{name}'")));
        };
        if op.level > self.env.level || (self.env.vsp && op.level > Level::Vp10) {
            let here = if self.env.vsp {
                "!!VSP1.0"
            } else {
                self.env.level.header()
            };
            return Err(syntax(
                span,
                format!(
                    "'{name}' is not available in {here} programs (it needs {})",
                    op.level.header()
                ),
            ));
        }
        Ok(op)
    }

    fn comma(&mut self) -> Result<(), ProgramError> {
        self.cur.expect(&Tok::Comma, "','").map(|_| ())
    }

    /// `A0` or `A1` (VP2).
    fn addr_reg(&mut self) -> Result<(u32, Span), ProgramError> {
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

    fn addr_dst(&mut self) -> Result<crate::ir::Dst, ProgramError> {
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

    fn dst(&mut self) -> Result<crate::ir::Dst, ProgramError> {
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

    fn bad_dst(&self, name: &str, span: Span) -> ProgramError {
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
    fn temp_number(&self, name: &str) -> Option<u32> {
        super::common::numbered(name, "R").filter(|&n| n < self.env.temp_count())
    }

    /// `[NAME]` after `o`: the slot, and whether it is HPOS.
    fn result_reg(&mut self) -> Result<(u32, bool), ProgramError> {
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
            _ => match (
                super::common::numbered(&name, "TEX"),
                super::common::numbered(&name, "CLP"),
            ) {
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
    fn int_in(&mut self, lo: u32, hi: u32, what: &str) -> Result<u32, ProgramError> {
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
    fn source(&mut self, scalar: bool, sourced: &mut Sourced) -> Result<Src, ProgramError> {
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
    fn sign(&mut self) -> Result<bool, ProgramError> {
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

    fn base_source(&mut self, scalar: bool, sourced: &mut Sourced) -> Result<Src, ProgramError> {
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
                src(
                    File::Input,
                    Index::Direct(self.b.input(binding, &label)),
                    span,
                )
            }
            "c" => {
                let (index, key) = self.param_index()?;
                sourced.params.push((key, span));
                src(File::Param, index, span)
            }
            _ => match self.temp_number(&name) {
                Some(_) => src(
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
    fn attrib_index(&mut self) -> Result<u32, ProgramError> {
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
    fn param_index(&mut self) -> Result<(Index, ParamKey), ProgramError> {
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

    fn finish(mut self, options: Options) -> Result<Program, ProgramError> {
        for (at, label, span) in std::mem::take(&mut self.branches) {
            let Some(&(target, _)) = self.labels.get(&label) else {
                return Err(semantic(
                    span,
                    format!("branch to undefined label '{label}'"),
                ));
            };
            if let Some(Inst {
                extra: Extra::Flow { target: t, .. },
                ..
            }) = self.b.instructions.get_mut(at)
            {
                *t = target;
            }
        }
        let end = self.cur.end_span();
        if self.env.vsp {
            if !self.wrote_param {
                return Err(semantic(
                    end,
                    "a vertex state program must write at least one program parameter c[n]",
                ));
            }
        } else if !self.env.position_invariant && !self.wrote_hpos {
            return Err(semantic(
                end,
                "the program never writes o[HPOS]: a vertex program must write at least one \
                 component of HPOS",
            ));
        }
        let entry = self.labels.get("main").map_or(0, |&(at, _)| at);
        Ok(self
            .b
            .finish(Stage::Vertex, self.env.dialect, options, entry))
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

/// At most one distinct program parameter and one distinct attribute per instruction.
fn check_unique(s: &Sourced) -> Result<(), ProgramError> {
    if let Some(&(first, _)) = s.params.first() {
        if let Some(&(_, span)) = s.params.iter().find(|(k, _)| *k != first) {
            return Err(semantic(
                span,
                "this instruction sources a second, different program parameter c[]: an \
                 instruction may source only one unique program parameter register",
            ));
        }
    }
    if let Some(&(first, _)) = s.attribs.first() {
        if let Some(&(_, span)) = s.attribs.iter().find(|(k, _)| *k != first) {
            return Err(semantic(
                span,
                "this instruction sources a second, different vertex attribute v[]: an \
                 instruction may source only one unique vertex attribute register",
            ));
        }
    }
    Ok(())
}
