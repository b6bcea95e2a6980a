//! The `!!FP1.0` opcode table and the decoding of opcode suffixes: a precision letter
//! (`R` fp32, `H` fp16, `X` fx12), `C` (update the condition code) and `_SAT`, in that
//! order — each opcode admits only the combinations its grammar rule lists.

use crate::ir::{Opcode, Precision};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum FpShape {
    Vector,
    Scalar,
    /// POW: two scalar operands.
    BinScalar,
    Binary,
    Ternary,
    Kil,
    Tex,
    Txd,
}

/// (name, opcode, shape, precision letters allowed, `C` allowed, `_SAT` allowed)
type Entry = (&'static str, Opcode, FpShape, &'static str, bool, bool);

const TABLE: &[Entry] = &[
    ("DDX", Opcode::Ddx, FpShape::Vector, "RH", true, true),
    ("DDY", Opcode::Ddy, FpShape::Vector, "RH", true, true),
    ("FLR", Opcode::Flr, FpShape::Vector, "RHX", true, true),
    ("FRC", Opcode::Frc, FpShape::Vector, "RHX", true, true),
    ("LIT", Opcode::Lit, FpShape::Vector, "RH", true, true),
    ("MOV", Opcode::Mov, FpShape::Vector, "RHX", true, true),
    ("PK2H", Opcode::Pk2h, FpShape::Vector, "", false, false),
    ("PK2US", Opcode::Pk2us, FpShape::Vector, "", false, false),
    ("PK4B", Opcode::Pk4b, FpShape::Vector, "", false, false),
    ("PK4UB", Opcode::Pk4ub, FpShape::Vector, "", false, false),
    ("COS", Opcode::Cos, FpShape::Scalar, "RH", true, true),
    ("EX2", Opcode::Ex2, FpShape::Scalar, "RH", true, true),
    ("LG2", Opcode::Lg2, FpShape::Scalar, "RH", true, true),
    ("RCP", Opcode::Rcp, FpShape::Scalar, "RH", true, true),
    ("RSQ", Opcode::Rsq, FpShape::Scalar, "RH", true, true),
    ("SIN", Opcode::Sin, FpShape::Scalar, "RH", true, true),
    ("UP2H", Opcode::Up2h, FpShape::Scalar, "", true, true),
    ("UP2US", Opcode::Up2us, FpShape::Scalar, "", true, true),
    ("UP4B", Opcode::Up4b, FpShape::Scalar, "", true, true),
    ("UP4UB", Opcode::Up4ub, FpShape::Scalar, "", true, true),
    ("POW", Opcode::Pow, FpShape::BinScalar, "RH", true, true),
    ("ADD", Opcode::Add, FpShape::Binary, "RHX", true, true),
    ("DP3", Opcode::Dp3, FpShape::Binary, "RHX", true, true),
    ("DP4", Opcode::Dp4, FpShape::Binary, "RHX", true, true),
    ("DST", Opcode::Dst, FpShape::Binary, "RH", true, true),
    ("MAX", Opcode::Max, FpShape::Binary, "RHX", true, true),
    ("MIN", Opcode::Min, FpShape::Binary, "RHX", true, true),
    ("MUL", Opcode::Mul, FpShape::Binary, "RHX", true, true),
    ("RFL", Opcode::Rfl, FpShape::Binary, "RH", true, true),
    ("SEQ", Opcode::Seq, FpShape::Binary, "RHX", true, true),
    ("SFL", Opcode::Sfl, FpShape::Binary, "RHX", true, true),
    ("SGE", Opcode::Sge, FpShape::Binary, "RHX", true, true),
    ("SGT", Opcode::Sgt, FpShape::Binary, "RHX", true, true),
    ("SLE", Opcode::Sle, FpShape::Binary, "RHX", true, true),
    ("SLT", Opcode::Slt, FpShape::Binary, "RHX", true, true),
    ("SNE", Opcode::Sne, FpShape::Binary, "RHX", true, true),
    ("STR", Opcode::Str, FpShape::Binary, "RHX", true, true),
    ("SUB", Opcode::Sub, FpShape::Binary, "RHX", true, true),
    ("MAD", Opcode::Mad, FpShape::Ternary, "RHX", true, true),
    ("LRP", Opcode::Lrp, FpShape::Ternary, "RHX", true, true),
    ("X2D", Opcode::X2d, FpShape::Ternary, "RH", true, true),
    ("KIL", Opcode::Kil, FpShape::Kil, "", false, false),
    ("TEX", Opcode::Tex, FpShape::Tex, "", true, true),
    ("TXP", Opcode::Txp, FpShape::Tex, "", true, true),
    ("TXD", Opcode::Txd, FpShape::Txd, "", true, true),
];

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct FpOp {
    pub op: Opcode,
    pub shape: FpShape,
    /// None: no letter, so the destination register's precision applies.
    pub precision: Option<Precision>,
    pub cc: bool,
    pub sat: bool,
}

pub(crate) fn decode(name: &str) -> Option<FpOp> {
    let (body, sat) = match name.strip_suffix("_SAT") {
        Some(b) => (b, true),
        None => (name, false),
    };
    TABLE
        .iter()
        .find_map(|&(base, op, shape, precs, cc_ok, sat_ok)| {
            let rest = body.strip_prefix(base)?;
            let (letter, rest) = match rest.chars().next() {
                Some(c @ ('R' | 'H' | 'X')) if precs.contains(c) => (Some(c), &rest[1..]),
                _ => (None, rest),
            };
            let cc = match rest {
                "" => false,
                "C" if cc_ok => true,
                _ => return None,
            };
            if sat && !sat_ok {
                return None;
            }
            let precision = letter.map(|c| match c {
                'R' => Precision::Full,
                'H' => Precision::Half,
                _ => Precision::Fixed,
            });
            Some(FpOp {
                op,
                shape,
                precision,
                cc,
                sat,
            })
        })
}

#[cfg(test)]
/// Base opcode names (for tests that cover every opcode).
pub(crate) fn base_names() -> impl Iterator<Item = &'static str> {
    TABLE.iter().map(|e| e.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fp1_opcode_is_in_the_table() {
        assert_eq!(base_names().count(), 45);
    }

    #[test]
    fn suffixes_decode() {
        let op = decode("MADXC_SAT").unwrap();
        assert_eq!(
            (op.op, op.precision, op.cc, op.sat),
            (Opcode::Mad, Some(Precision::Fixed), true, true)
        );
        let frc = decode("FRC").unwrap();
        assert_eq!((frc.op, frc.cc), (Opcode::Frc, false));
        assert!(decode("FRCC").unwrap().cc);
        assert_eq!(decode("UP2HC").unwrap().op, Opcode::Up2h);
    }

    #[test]
    fn combinations_outside_the_grammar_are_rejected() {
        for bad in [
            "DDXX", "PK2HC", "PK4B_SAT", "KILC", "TEXR", "COSX", "MOVCR", "MOV_SATC",
        ] {
            assert!(decode(bad).is_none(), "{bad}");
        }
    }
}
