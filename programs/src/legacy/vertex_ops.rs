//! The vertex-program opcode table: which opcodes each environment (VP1.0, VP1.1, VP2.0)
//! offers and what operand shape each one takes.

use crate::ir::{Dialect, Opcode};

/// Operand shape of an instruction (the grammar rule it matches).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `ARL/ARR A0.mask, src` (VP1: scalar source; VP2: vector source).
    AddrLoad,
    /// `ARA A0.mask, A0`.
    AddrAdd,
    Vector,
    Scalar,
    Binary,
    Ternary,
    /// `BRA/CAL label (cc)`.
    Branch,
    /// `RET (cc)`.
    Return,
}

/// The oldest environment that has an opcode.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    Vp10,
    Vp11,
    Vp20,
}

impl Level {
    pub(crate) fn of(dialect: Dialect) -> Level {
        match dialect {
            Dialect::Vp11 => Level::Vp11,
            Dialect::Vp20 => Level::Vp20,
            _ => Level::Vp10,
        }
    }

    pub(crate) fn header(self) -> &'static str {
        match self {
            Level::Vp10 => "!!VP1.0",
            Level::Vp11 => "!!VP1.1",
            Level::Vp20 => "!!VP2.0",
        }
    }
}

const TABLE: &[(&str, Opcode, Shape, Level)] = &[
    ("ARL", Opcode::Arl, Shape::AddrLoad, Level::Vp10),
    ("MOV", Opcode::Mov, Shape::Vector, Level::Vp10),
    ("LIT", Opcode::Lit, Shape::Vector, Level::Vp10),
    ("RCP", Opcode::Rcp, Shape::Scalar, Level::Vp10),
    ("RSQ", Opcode::Rsq, Shape::Scalar, Level::Vp10),
    ("EXP", Opcode::Exp, Shape::Scalar, Level::Vp10),
    ("LOG", Opcode::Log, Shape::Scalar, Level::Vp10),
    ("MUL", Opcode::Mul, Shape::Binary, Level::Vp10),
    ("ADD", Opcode::Add, Shape::Binary, Level::Vp10),
    ("DP3", Opcode::Dp3, Shape::Binary, Level::Vp10),
    ("DP4", Opcode::Dp4, Shape::Binary, Level::Vp10),
    ("DST", Opcode::Dst, Shape::Binary, Level::Vp10),
    ("MIN", Opcode::Min, Shape::Binary, Level::Vp10),
    ("MAX", Opcode::Max, Shape::Binary, Level::Vp10),
    ("SLT", Opcode::Slt, Shape::Binary, Level::Vp10),
    ("SGE", Opcode::Sge, Shape::Binary, Level::Vp10),
    ("MAD", Opcode::Mad, Shape::Ternary, Level::Vp10),
    ("ABS", Opcode::Abs, Shape::Vector, Level::Vp11),
    ("RCC", Opcode::Rcc, Shape::Scalar, Level::Vp11),
    ("DPH", Opcode::Dph, Shape::Binary, Level::Vp11),
    ("SUB", Opcode::Sub, Shape::Binary, Level::Vp11),
    ("ARR", Opcode::Arr, Shape::AddrLoad, Level::Vp20),
    ("ARA", Opcode::Ara, Shape::AddrAdd, Level::Vp20),
    ("BRA", Opcode::Bra, Shape::Branch, Level::Vp20),
    ("CAL", Opcode::Cal, Shape::Branch, Level::Vp20),
    ("RET", Opcode::Ret, Shape::Return, Level::Vp20),
    ("FLR", Opcode::Flr, Shape::Vector, Level::Vp20),
    ("FRC", Opcode::Frc, Shape::Vector, Level::Vp20),
    ("SSG", Opcode::Ssg, Shape::Vector, Level::Vp20),
    ("COS", Opcode::Cos, Shape::Scalar, Level::Vp20),
    ("EX2", Opcode::Ex2, Shape::Scalar, Level::Vp20),
    ("LG2", Opcode::Lg2, Shape::Scalar, Level::Vp20),
    ("SIN", Opcode::Sin, Shape::Scalar, Level::Vp20),
    ("SEQ", Opcode::Seq, Shape::Binary, Level::Vp20),
    ("SFL", Opcode::Sfl, Shape::Binary, Level::Vp20),
    ("SGT", Opcode::Sgt, Shape::Binary, Level::Vp20),
    ("SLE", Opcode::Sle, Shape::Binary, Level::Vp20),
    ("SNE", Opcode::Sne, Shape::Binary, Level::Vp20),
    ("STR", Opcode::Str, Shape::Binary, Level::Vp20),
];

/// A decoded opcode name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct VpOp {
    pub op: Opcode,
    pub shape: Shape,
    /// The `C` suffix (update the condition code): VP2 only.
    pub cc: bool,
    /// The oldest environment that accepts this spelling.
    pub level: Level,
}

/// Decodes `name` without regard to environment; the caller checks `level`.
pub(crate) fn decode(name: &str) -> Option<VpOp> {
    let find = |n: &str| TABLE.iter().find(|e| e.0 == n);
    if let Some(&(_, op, shape, level)) = find(name) {
        return Some(VpOp {
            op,
            shape,
            cc: false,
            level,
        });
    }
    // Every VP2 opcode except the branches has a condition-code-updating `...C` form.
    let base = name.strip_suffix('C')?;
    let &(_, op, shape, _) = find(base)?;
    if matches!(shape, Shape::Branch | Shape::Return) {
        return None;
    }
    Some(VpOp {
        op,
        shape,
        cc: true,
        level: Level::Vp20,
    })
}

#[cfg(test)]
/// Names of all opcodes available in `level` (for the tests that cover every opcode).
pub(crate) fn names(level: Level) -> impl Iterator<Item = &'static str> {
    TABLE.iter().filter(move |e| e.3 <= level).map(|e| e.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cc_forms_are_vp2_only() {
        let rcc = decode("RCC").unwrap();
        assert_eq!(
            (rcc.op, rcc.cc, rcc.level),
            (Opcode::Rcc, false, Level::Vp11)
        );
        let rccc = decode("RCCC").unwrap();
        assert_eq!(
            (rccc.op, rccc.cc, rccc.level),
            (Opcode::Rcc, true, Level::Vp20)
        );
        assert!(decode("BRAC").is_none());
        assert!(decode("FOO").is_none());
    }

    #[test]
    fn vp1_has_seventeen_opcodes() {
        assert_eq!(names(Level::Vp10).count(), 17);
        assert_eq!(names(Level::Vp11).count(), 21);
    }
}
