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
//! - A VSP's writes to `c[n]` reach `OutputBinding::EnvParam(n)` slots, through a temp
//!   for the run (see `state_program.rs`).
//! - VP2's `main:` label sets `Program::entry`. `Program::labels` stays empty: unlike
//!   NV_gpu_program4, a VP2 subroutine does not end at the next label, only at RET.

mod operands;
mod state_program;

use super::builder::Builder;
use super::common::opt_paren_cc;
use super::vertex_ops::{decode, Level, Shape, VpOp};
use crate::error::ProgramError;
use crate::header::Header;
use crate::ir::{DataType, Options, Program};
use crate::ir::{Dialect, Extra, File, Index, Inst, Precision, Saturate, Src, Stage};
use crate::lexer::{Lexer, Tok};
use crate::parse::{semantic, syntax, LazyCursor};
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
    cur: LazyCursor<'a>,
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
        cur: LazyCursor::after_header(text)?,
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
                srcs.push(Src::plain(File::Address, Index::Direct(reg), s));
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
        check_unique(&sourced, &self.cur)?;
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
        if self.env.vsp {
            self.route_state_writes_through_temps();
        }
        let entry = self.labels.get("main").map_or(0, |&(at, _)| at);
        Ok(self
            .b
            .finish(Stage::Vertex, self.env.dialect, options, entry))
    }
}

/// At most one distinct program parameter and one distinct attribute per instruction.
fn check_unique(s: &Sourced, cur: &LazyCursor) -> Result<(), ProgramError> {
    if let Some(&(first, _)) = s.params.first() {
        if let Some(&(_, span)) = s.params.iter().find(|(k, _)| *k != first) {
            return Err(semantic(
                span,
                format!(
                    "'{}' is a second, different program parameter in this instruction: an \
                     instruction may source only one unique program parameter register",
                    cur.text_of(span)
                ),
            ));
        }
    }
    if let Some(&(first, _)) = s.attribs.first() {
        if let Some(&(_, span)) = s.attribs.iter().find(|(k, _)| *k != first) {
            return Err(semantic(
                span,
                format!(
                    "'{}' is a second, different vertex attribute in this instruction: an \
                     instruction may source only one unique vertex attribute register",
                    cur.text_of(span)
                ),
            ));
        }
    }
    Ok(())
}
