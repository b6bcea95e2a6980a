//! FP1 constants: embedded scalar and vector constants, `DEFINE`d named constants and
//! `DECLARE`d named local parameters, and the rules for their names.

use super::common::numbered;
use super::fragment_ops;
use crate::error::ProgramError;
use crate::lexer::Tok;
use crate::parse::{semantic, syntax, LazyCursor};
use crate::span::Span;
use std::collections::HashMap;

/// A constant value as written: scalars replicate when used as vectors, vector
/// constants are always expanded to four components.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Scalar(f32),
    Vector([f32; 4]),
}

impl Value {
    pub(crate) fn splat(self) -> [f32; 4] {
        match self {
            Value::Scalar(v) => [v; 4],
            Value::Vector(v) => v,
        }
    }

    /// The distinct scalars a merged constant would need (before swizzle/negation).
    pub(crate) fn scalars(self) -> Vec<u32> {
        match self {
            Value::Scalar(v) => vec![v.to_bits()],
            Value::Vector(v) => v.iter().map(|f| f.to_bits()).collect(),
        }
    }
}

/// What a name was bound to.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Named {
    Constant(Value),
    /// A DECLAREd local parameter: its param slot.
    Local(u32),
}

#[derive(Default)]
pub(crate) struct Names {
    map: HashMap<String, (Named, Span)>,
}

fn reserved(name: &str) -> Option<&'static str> {
    const WORDS: &[&str] = &[
        "DEFINE", "DECLARE", "END", "RC", "HC", "f", "p", "o", "x", "y", "z", "w", "EQ", "GE",
        "GT", "LE", "LT", "NE", "TR", "FL", "WPOS", "COL0", "COL1", "FOGC", "COLR", "COLH", "DEPR",
        "CUBE", "RECT",
    ];
    if name.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return Some("names cannot start with a digit");
    }
    if WORDS.contains(&name) || fragment_ops::decode(name).is_some() {
        return Some("it is a keyword of the grammar");
    }
    if numbered(name, "R").is_some_and(|n| n < 32) || numbered(name, "H").is_some_and(|n| n < 64) {
        return Some("it names a temporary register");
    }
    if numbered(name, "TEX").is_some_and(|n| n < 16) {
        return Some("it names a texture unit or coordinate");
    }
    None
}

impl Names {
    pub(crate) fn get(&self, name: &str) -> Option<&Named> {
        self.map.get(name).map(|(n, _)| n)
    }

    /// Binds a new name, checking the DEFINE/DECLARE naming rules.
    pub(crate) fn bind(&mut self, name: &str, span: Span, what: Named) -> Result<(), ProgramError> {
        if let Some(why) = reserved(name) {
            return Err(semantic(
                span,
                format!("invalid constant or parameter name '{name}': {why}"),
            ));
        }
        if let Some((_, first)) = self.map.get(name) {
            return Err(semantic(
                span,
                format!(
                    "'{name}' is already defined (at byte {}): DEFINE and DECLARE may not \
                     re-define a name",
                    first.start
                ),
            ));
        }
        self.map.insert(name.to_string(), (what, span));
        Ok(())
    }

    /// Points a DECLAREd name at its param slot once the slot exists.
    pub(crate) fn rebind_local(&mut self, name: &str, slot: u32) {
        if let Some((n, _)) = self.map.get_mut(name) {
            *n = Named::Local(slot);
        }
    }

    /// `<vectorConstant>` or `<scalarConstant>` (the right side of DEFINE/DECLARE).
    pub(crate) fn value(&self, cur: &mut LazyCursor) -> Result<Value, ProgramError> {
        if cur.peek_tok()? == Tok::LBrace {
            return self.vector_literal(cur).map(Value::Vector);
        }
        if let Tok::Ident(_) = cur.peek_tok()? {
            let (name, span) = cur.ident("a constant")?;
            return self.constant_named(&name, span);
        }
        signed_number(cur).map(Value::Scalar)
    }

    /// A named constant used where a constant value is required.
    fn constant_named(&self, name: &str, span: Span) -> Result<Value, ProgramError> {
        match self.get(name) {
            Some(Named::Constant(v)) => Ok(*v),
            Some(Named::Local(_)) => Err(semantic(
                span,
                format!(
                    "'{name}' is a DECLAREd local parameter, not a constant: only numbers \
                     and DEFINEd constants can give a constant value"
                ),
            )),
            None => Err(semantic(
                span,
                format!("'{name}' was not defined by a previous DEFINE or DECLARE"),
            )),
        }
    }

    /// `{ a [, b [, c [, d]]] }`, missing y/z filled with 0 and a missing w with 1.
    pub(crate) fn vector_literal(&self, cur: &mut LazyCursor) -> Result<[f32; 4], ProgramError> {
        cur.expect(&Tok::LBrace, "'{'")?;
        let mut v = [0.0, 0.0, 0.0, 1.0];
        for (i, slot) in v.iter_mut().enumerate() {
            *slot = match cur.peek_tok()? {
                Tok::Ident(_) => {
                    let (name, span) = cur.ident("a scalar constant")?;
                    match self.constant_named(&name, span)? {
                        Value::Scalar(s) => s,
                        Value::Vector(_) => {
                            return Err(syntax(
                                span,
                                format!(
                                    "'{name}' is a vector constant; a vector constant's \
                                     components must be scalars"
                                ),
                            ))
                        }
                    }
                }
                _ => signed_number(cur)?,
            };
            if i == 3 || cur.eat(&Tok::Comma)?.is_none() {
                break;
            }
        }
        cur.expect(
            &Tok::RBrace,
            "'}' closing the vector constant (at most 4 values)",
        )?;
        Ok(v)
    }
}

/// `[+|-] number`.
pub(crate) fn signed_number(cur: &mut LazyCursor) -> Result<f32, ProgramError> {
    let neg = if cur.eat(&Tok::Minus)?.is_some() {
        true
    } else {
        cur.eat(&Tok::Plus)?;
        false
    };
    let t = cur.next()?;
    let v = match t.tok {
        Tok::Int(i) => i as f32,
        Tok::Float(f) => f as f32,
        other => {
            return Err(syntax(
                t.span,
                format!("expected a number, found {}", other.describe()),
            ))
        }
    };
    Ok(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_names() {
        assert!(reserved("R31").is_some());
        assert!(reserved("R32").is_none());
        assert!(reserved("H63").is_some());
        assert!(reserved("TEX15").is_some());
        assert!(reserved("MOVH_SAT").is_some());
        assert!(reserved("color$1").is_none());
        assert!(reserved("9lives").is_some());
    }

    #[test]
    fn short_vectors_expand() {
        let names = Names::default();
        let mut c = LazyCursor::after_header("!!FP1.0 {5, 6, 7}").unwrap();
        assert_eq!(names.vector_literal(&mut c).unwrap(), [5.0, 6.0, 7.0, 1.0]);
    }
}
