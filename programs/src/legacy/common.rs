//! Operand pieces every legacy dialect shares: write masks, swizzles and condition-code
//! masks, plus the plain `Dst` constructor.

use crate::error::ProgramError;
use crate::ir::{CondOp, CondTest, Dst, File, Index};
use crate::lexer::Tok;
use crate::parse::{components, ordered_mask, syntax, LazyCursor};
use crate::span::Span;

pub(crate) const IDENTITY: [u8; 4] = [0, 1, 2, 3];

/// Decodes a write mask such as `xzw`: components in x, y, z, w order, each at most once.
pub(crate) fn mask_bits(s: &str) -> Option<u8> {
    components(s, false).as_deref().and_then(ordered_mask)
}

/// `.mask` after a destination register, if present.
pub(crate) fn opt_write_mask(cur: &mut LazyCursor) -> Result<u8, ProgramError> {
    if cur.peek_tok()? != Tok::Dot {
        return Ok(0xF);
    }
    cur.next()?;
    let (s, span) = cur.ident("a write mask such as 'xyz'")?;
    mask_bits(&s).ok_or_else(|| {
        syntax(
            span,
            format!("invalid write mask '{s}': use components x, y, z, w in that order"),
        )
    })
}

/// A swizzle suffix (`.x` or `.xyzw`); `allow_scalar`/`allow_vector` say which lengths
/// the grammar rule admits here. Without a suffix the swizzle is the identity.
pub(crate) fn opt_swizzle(
    cur: &mut LazyCursor,
    allow_scalar: bool,
    allow_vector: bool,
    required: bool,
) -> Result<[u8; 4], ProgramError> {
    if cur.peek_tok()? != Tok::Dot {
        if required {
            let t = cur.peek()?.clone();
            return Err(syntax(
                t.span,
                format!(
                    "expected a scalar component suffix such as '.x' (this operand must be a \
                     scalar), found {}",
                    t.tok.describe()
                ),
            ));
        }
        return Ok(IDENTITY);
    }
    cur.next()?;
    let (s, span) = cur.ident("a swizzle such as 'x' or 'xyzw'")?;
    let comps = components(&s, false);
    match comps.as_deref() {
        Some([c]) if allow_scalar => Ok([*c; 4]),
        Some([a, b, c, d]) if allow_vector => Ok([*a, *b, *c, *d]),
        _ => {
            let want = match (allow_scalar, allow_vector) {
                (true, true) => "one or four components",
                (true, false) => "exactly one component",
                _ => "four components",
            };
            Err(syntax(
                span,
                format!("invalid swizzle '{s}': this operand takes {want} of x, y, z, w"),
            ))
        }
    }
}

fn cond_op(s: &str) -> Option<CondOp> {
    Some(match s {
        "EQ" => CondOp::Eq,
        "GE" => CondOp::Ge,
        "GT" => CondOp::Gt,
        "LE" => CondOp::Le,
        "LT" => CondOp::Lt,
        "NE" => CondOp::Ne,
        "TR" => CondOp::Tr,
        "FL" => CondOp::Fl,
        _ => return None,
    })
}

/// `RULE[.swizzle]` (the inside of a condition-code mask). `allow_scalar` admits `.x`.
pub(crate) fn cc_mask(cur: &mut LazyCursor, allow_scalar: bool) -> Result<CondTest, ProgramError> {
    let (s, span) = cur.ident("a condition (EQ, GE, GT, LE, LT, NE, TR or FL)")?;
    let op = cond_op(&s).ok_or_else(|| {
        syntax(
            span,
            format!("unknown condition '{s}': expected EQ, GE, GT, LE, LT, NE, TR or FL"),
        )
    })?;
    let swizzle = opt_swizzle(cur, allow_scalar, true, false)?;
    Ok(CondTest { op, cc: 0, swizzle })
}

/// `( RULE[.swizzle] )` after a destination, if present.
pub(crate) fn opt_paren_cc(
    cur: &mut LazyCursor,
    allow_scalar: bool,
) -> Result<Option<CondTest>, ProgramError> {
    if cur.eat(&Tok::LParen)?.is_none() {
        return Ok(None);
    }
    let t = cc_mask(cur, allow_scalar)?;
    cur.expect(&Tok::RParen, "')' closing the condition")?;
    Ok(Some(t))
}

pub(crate) fn dst(file: File, slot: u32, mask: u8, span: Span) -> Dst {
    Dst {
        file,
        index: Index::Direct(slot),
        mask,
        cond: None,
        span,
    }
}

/// Parses `R<n>`-style names: the number after `prefix`, without leading zeros.
pub(crate) fn numbered(name: &str, prefix: &str) -> Option<u32> {
    let digits = name.strip_prefix(prefix)?;
    if digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || (digits.len() > 1 && digits.starts_with('0'))
        || digits.len() > 4
    {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_must_be_ordered() {
        assert_eq!(mask_bits("xzw"), Some(0b1101));
        assert_eq!(mask_bits("zx"), None);
        assert_eq!(mask_bits("xx"), None);
        assert_eq!(mask_bits("q"), None);
    }

    #[test]
    fn numbered_names() {
        assert_eq!(numbered("R11", "R"), Some(11));
        assert_eq!(numbered("R01", "R"), None);
        assert_eq!(numbered("R", "R"), None);
        assert_eq!(numbered("TEX7", "TEX"), Some(7));
    }
}
