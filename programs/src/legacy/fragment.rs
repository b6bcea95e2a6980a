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

mod operands;

use super::builder::Builder;
use super::common::cc_mask;
use super::fragment_consts::{Named, Names, Value};
use super::fragment_ops::{decode, FpOp, FpShape};
use crate::error::ProgramError;
use crate::ir::{
    DataType, Dialect, Dst, Extra, Inst, Options, ParamSource, Precision, Program, Saturate, Src,
    Stage,
};
use crate::lexer::Tok;
use crate::parse::{semantic, syntax, LazyCursor};
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
    cur: LazyCursor<'a>,
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
        cur: LazyCursor::after_header(text)?,
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
        check_unique(&sourced, &self.cur)?;
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
fn check_unique(s: &Sourced, cur: &LazyCursor) -> Result<(), ProgramError> {
    if let Some((first, _)) = s.attribs.first() {
        if let Some((_, span)) = s.attribs.iter().find(|(a, _)| a != first) {
            return Err(semantic(
                *span,
                format!(
                    "'{}' is a second, different fragment attribute in this instruction: an \
                     instruction may source only one unique attribute register",
                    cur.text_of(*span)
                ),
            ));
        }
    }
    let Some((first, _)) = s.params.first() else {
        return Ok(());
    };
    let Some(&(_, second)) = s.params.iter().find(|(k, _)| k != first) else {
        return Ok(());
    };
    let mut scalars = BTreeSet::new();
    for (i, (k, kspan)) in s.params.iter().enumerate() {
        match k {
            ParamKey::Constant(v) => scalars.extend(v.scalars()),
            _ => {
                // Blame the later of the two operands that clash.
                let at = if i == 0 { second } else { *kspan };
                return Err(semantic(
                    at,
                    format!(
                        "'{}' makes more than one unique program parameter in this \
                         instruction (only constants holding at most four distinct values \
                         can be combined)",
                        cur.text_of(at)
                    ),
                ));
            }
        }
    }
    if scalars.len() > 4 {
        return Err(semantic(
            second,
            format!(
                "with '{}' the constants of this instruction hold {} distinct values; they \
                 can be merged into one program parameter only if there are at most four",
                cur.text_of(second),
                scalars.len()
            ),
        ));
    }
    Ok(())
}
