//! The opcode table: which modifiers each instruction accepts, its operand shapes and which
//! dialect or option introduced it. The NV_gpu_program5 rows are Table X.13 of that spec,
//! kept verbatim so the checks can be compared against it line by line.

use crate::ir::{DataType, Opcode};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Support of a data-type modifier family (`F` or `I` column).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum TypeMods {
    None,
    /// Unsized and sized modifiers below 64 bits ("X").
    Sized32,
    /// All, including 64-bit ("6").
    All,
}

/// The shape of one operand (input/output columns of Table X.13).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `v`: a vector of the operation's type.
    Vector,
    /// `vf`: a vector, always float.
    FloatVector,
    /// `vs`: a vector, always signed integer.
    SignedVector,
    /// `vu`: a vector, always unsigned integer.
    UnsignedVector,
    /// `s`: a scalar (needs a scalar suffix) of the operation's type.
    Scalar,
    /// `su`: a scalar, always unsigned integer.
    UnsignedScalar,
    /// `c`: a condition code test.
    CondTest,
    /// `vc`: a vector operand or a condition code test (KIL).
    VectorOrCondTest,
    /// `t`: a texture access.
    Texture,
}

// ARB availability bits: the base ARB programs and each NV option.
pub(crate) const AV: u16 = 1;
pub(crate) const AF: u16 = 2;
pub(crate) const V2: u16 = 4;
pub(crate) const V3: u16 = 8;
pub(crate) const FO: u16 = 16;
pub(crate) const F2: u16 = 32;

#[derive(Clone, Debug)]
pub(crate) struct OpInfo {
    pub name: &'static str,
    pub op: Opcode,
    /// First NV_gpu_program version: 40, 41 or 50; 0 = not an NV_gpu_program4/5 opcode.
    pub nv: u8,
    pub f: TypeMods,
    pub i: TypeMods,
    pub cc: bool,
    pub sat: bool,
    pub half: bool,
    /// Type used when no data-type modifier is given (`None` for typeless ops).
    pub default: Option<DataType>,
    /// Result shape; `None` for instructions without a result.
    pub out: Option<Shape>,
    pub ins: Vec<Shape>,
    /// ARB availability bits (AV/AF base, V2/V3/FO/F2 options).
    pub arb: u16,
}

/// NV_gpu_program5 Table X.13: name, version, F, I, C, S, H, D, out, in. Rows after XPD
/// come from the other specs' opcode tables (ATOMCTR: NV_shader_atomic_counters; LDB, STB,
/// ATOMB: NV_shader_storage_buffer_object; the image opcodes: EXT_shader_image_load_store).
const NV_TABLE: &str = "
ABS 40 6 6 X X X F v v
ADD 40 6 6 X X X F v v,v
AND 40 - 6 X - - S v v,v
ATOM 50 - - X - - - s v,su
BFE 50 - X X - - S v v,v
BFI 50 - X X - - S v v,v,v
BFR 50 - X X - - S v v
BRK 40 - - - - - - - c
BTC 50 - X X - - S v v
BTFL 50 - X X - - S v v
BTFM 50 - X X - - S v v
CAL 40 - - - - - - - c
CEIL 40 6 6 X X X F v vf
CMP 40 6 6 X X X F v v,v,v
CONT 40 - - - - - - - c
COS 40 X - X X X F s s
CVT 50 - - X X - F v v
DDX 40 X - X X X F v v
DDY 40 X - X X X F v v
DIV 40 6 6 X X X F v v,s
DP2 40 X - X X X F s v,v
DP2A 40 X - X X X F s v,v,v
DP3 40 X - X X X F s v,v
DP4 40 X - X X X F s v,v
DPH 40 X - X X X F s v,v
DST 40 X - X X X F v v,v
ELSE 40 - - - - - - - -
EMIT 40 - - - - - - - -
EMITS 50 - X - - - S - s
ENDIF 40 - - - - - - - -
ENDPRIM 40 - - - - - - - -
ENDREP 40 - - - - - - - -
EX2 40 X - X X X F s s
FLR 40 6 6 X X X F v vf
FRC 40 6 - X X X F v v
I2F 40 - 6 X - - S vf v
IF 40 - - - - - - - c
IPAC 50 X - X X - F v v
IPAO 50 X - X X - F v v,v
IPAS 50 X - X X - F v v,su
KIL 40 X X - - X F - vc
LDC 40 - - X X - F v v
LG2 40 X - X X X F s s
LIT 40 X - X X X F v v
LOAD 40 - - X X - F v su
LOD 41 X - X X - F v vf,t
LRP 40 X - X X X F v v,v,v
MAD 40 6 6 X X X F v v,v,v
MAX 40 6 6 X X X F v v,v
MEMBAR 50 - - - - - - - -
MIN 40 6 6 X X X F v v,v
MOD 40 - 6 X - - S v v,s
MOV 40 6 6 X X X F v v
MUL 40 6 6 X X X F v v,v
NOT 40 - 6 X - - S v v
NRM 40 X - X X X F v v
OR 40 - 6 X - - S v v,v
PK2H 40 X X - - - F s vf
PK2US 40 X X - - - F s vf
PK4B 40 X X - - - F s vf
PK4UB 40 X X - - - F s vf
PK64 50 X X - - - F v v
POW 40 X - X X X F s s,s
RCC 40 X - X X X F s s
RCP 40 6 - X X X F s s
REP 40 6 6 - - X F - v
RET 40 - - - - - - - c
RFL 40 X - X X X F v v,v
ROUND 40 6 6 X X X F v vf
RSQ 40 6 - X X X F s s
SAD 40 - 6 X - - S vu v,v,vu
SCS 40 X - X X X F v s
SEQ 40 6 6 X X X F v v,v
SFL 40 6 6 X X X F v v,v
SGE 40 6 6 X X X F v v,v
SGT 40 6 6 X X X F v v,v
SHL 40 - 6 X - - S v v,s
SHR 40 - 6 X - - S v v,s
SIN 40 X - X X X F s s
SLE 40 6 6 X X X F v v,v
SLT 40 6 6 X X X F v v,v
SNE 40 6 6 X X X F v v,v
SSG 40 6 - X X X F v v
STORE 50 - - - - - - - v,su
STR 40 6 6 X X X F v v,v
SUB 40 6 6 X X X F v v,v
SWZ 40 X - X X X F v v
TEX 40 X X X X - F v vf,t
TGALL 50 X X X X - F v v
TGANY 50 X X X X - F v v
TGEQ 50 X X X X - F v v
TGBALLOT 50 X X X - - F vu v
BAR 50 - - - - - - - -
ATOMS 50 - - X - - - s v,su
LDS 50 - - X X - F v su
STS 50 - - - - - - - v,su
SHFDOWN 50 X X - - - F v v,vu,vu
SHFIDX 50 X X - - - F v v,vu,vu
SHFUP 50 X X - - - F v v,vu,vu
SHFXOR 50 X X - - - F v v,vu,vu
TRUNC 40 6 6 X X X F v vf
TXB 40 X X X X - F v vf,t
TXD 40 X X X X - F v vf,vf,vf,t
TXF 40 X X X X - F v vs,t
TXFMS 40 X X X X - F v vs,t
TXG 41 X X X X - F v vf,t
TXGO 50 X X X X - F v vf,vs,vs,t
TXL 40 X X X X - F v vf,t
TXP 40 X X X X - F v vf,t
TXQ 40 - - - - - S vs vs,t
UP2H 40 X X X X - F vf s
UP2US 40 X X X X - F vf s
UP4B 40 X X X X - F vf s
UP4UB 40 X X X X - F vf s
UP64 50 X X X X - F v v
X2D 40 X - X X X F v v,v,v
XOR 40 - 6 X - - S v v,v
XPD 40 X - X X X F v v,v
ARL 00 - - X X - F - s
ARR 00 - - X X - F - v
ARA 00 - - X - - - - v
PUSHA 00 - - - - - - - v
POPA 00 - - - - - - - -
EXP 00 - - X X - F v s
LOG 00 - - X X - F v s
BRA 00 - - - - - - - c
LOOP 00 - - - - - - - v
ENDLOOP 00 - - - - - - - -
LOADIM 50 - - X X - F v v
STOREIM 50 X X - - - F - v,v
ATOMIM 50 - - X - - - s v,v
ATOMCTR 50 - X X - - U s -
CALI 50 - - - - - - - c
LDB 50 - - X X - F v su
STB 50 - - - - - - - v,su
ATOMB 50 - - X - - - s v,su
";

/// ARB availability: which opcodes the base ARB programs and each NV option allow.
const ARB_TABLE: &[(&str, u16)] = &[
    ("ABS", AV | AF),
    ("ADD", AV | AF),
    ("ARL", AV),
    ("DP3", AV | AF),
    ("DP4", AV | AF),
    ("DPH", AV | AF),
    ("DST", AV | AF),
    ("EX2", AV | AF),
    ("EXP", AV),
    ("FLR", AV | AF),
    ("FRC", AV | AF),
    ("LG2", AV | AF),
    ("LIT", AV | AF),
    ("LOG", AV),
    ("MAD", AV | AF),
    ("MAX", AV | AF),
    ("MIN", AV | AF),
    ("MOV", AV | AF),
    ("MUL", AV | AF),
    ("POW", AV | AF),
    ("RCP", AV | AF),
    ("RSQ", AV | AF),
    ("SGE", AV | AF),
    ("SLT", AV | AF),
    ("SUB", AV | AF),
    ("SWZ", AV | AF),
    ("XPD", AV | AF),
    ("CMP", AF),
    ("COS", AF | V2),
    ("SIN", AF | V2),
    ("KIL", AF),
    ("LRP", AF),
    ("SCS", AF),
    ("TEX", AF | V3),
    ("TXB", AF | V3),
    ("TXP", AF | V3),
    ("TXL", V3 | F2),
    ("SSG", V2),
    ("RCC", V2),
    ("SEQ", V2 | FO),
    ("SFL", V2 | FO),
    ("SGT", V2 | FO),
    ("SLE", V2 | FO),
    ("SNE", V2 | FO),
    ("STR", V2 | FO),
    ("ARR", V2),
    ("ARA", V2),
    ("BRA", V2),
    ("CAL", V2 | F2),
    ("RET", V2 | F2),
    ("PUSHA", V3),
    ("POPA", V3),
    ("DDX", FO),
    ("DDY", FO),
    ("PK2H", FO),
    ("PK2US", FO),
    ("PK4B", FO),
    ("PK4UB", FO),
    ("UP2H", FO),
    ("UP2US", FO),
    ("UP4B", FO),
    ("UP4UB", FO),
    ("RFL", FO),
    ("X2D", FO),
    ("TXD", FO),
    ("BRK", F2),
    ("DIV", F2),
    ("DP2", F2),
    ("DP2A", F2),
    ("IF", F2),
    ("ELSE", F2),
    ("ENDIF", F2),
    ("LOOP", F2),
    ("ENDLOOP", F2),
    ("REP", F2),
    ("ENDREP", F2),
    ("NRM", F2),
];

fn opcode_of(name: &str) -> Option<Opcode> {
    use Opcode::*;
    Some(match name {
        "ABS" => Abs,
        "ADD" => Add,
        "AND" => And,
        "ATOM" => Atom,
        "BFE" => Bfe,
        "BFI" => Bfi,
        "BFR" => Bfr,
        "BRK" => Brk,
        "BTC" => Btc,
        "BTFL" => Btfl,
        "BTFM" => Btfm,
        "CAL" => Cal,
        "CEIL" => Ceil,
        "CMP" => Cmp,
        "CONT" => Cont,
        "COS" => Cos,
        "CVT" => Cvt,
        "DDX" => Ddx,
        "DDY" => Ddy,
        "DIV" => Div,
        "DP2" => Dp2,
        "DP2A" => Dp2a,
        "DP3" => Dp3,
        "DP4" => Dp4,
        "DPH" => Dph,
        "DST" => Dst,
        "ELSE" => Else,
        "EMIT" => Emit,
        "EMITS" => Emits,
        "ENDIF" => EndIf,
        "ENDPRIM" => EndPrim,
        "ENDREP" => EndRep,
        "EX2" => Ex2,
        "FLR" => Flr,
        "FRC" => Frc,
        "I2F" => I2f,
        "IF" => If,
        "IPAC" => Ipac,
        "IPAO" => Ipao,
        "IPAS" => Ipas,
        "KIL" => Kil,
        "LDC" => Ldc,
        "LG2" => Lg2,
        "LIT" => Lit,
        "LOAD" => Load,
        "LOD" => Lod,
        "LRP" => Lrp,
        "MAD" => Mad,
        "MAX" => Max,
        "MEMBAR" => Membar,
        "MIN" => Min,
        "MOD" => Mod,
        "MOV" => Mov,
        "MUL" => Mul,
        "NOT" => Not,
        "NRM" => Nrm,
        "OR" => Or,
        "PK2H" => Pk2h,
        "PK2US" => Pk2us,
        "PK4B" => Pk4b,
        "PK4UB" => Pk4ub,
        "PK64" => Pk64,
        "POW" => Pow,
        "RCC" => Rcc,
        "RCP" => Rcp,
        "REP" => Rep,
        "RET" => Ret,
        "RFL" => Rfl,
        "ROUND" => Round,
        "RSQ" => Rsq,
        "SAD" => Sad,
        "SCS" => Scs,
        "SEQ" => Seq,
        "SFL" => Sfl,
        "SGE" => Sge,
        "SGT" => Sgt,
        "SHL" => Shl,
        "SHR" => Shr,
        "SIN" => Sin,
        "SLE" => Sle,
        "SLT" => Slt,
        "SNE" => Sne,
        "SSG" => Ssg,
        "STORE" => Store,
        "STR" => Str,
        "SUB" => Sub,
        "SWZ" => Swz,
        "TEX" => Tex,
        "TGALL" => Tgall,
        "TGANY" => Tgany,
        "TGEQ" => Tgeq,
        "TGBALLOT" => Tgballot,
        "BAR" => Bar,
        "SHFDOWN" => Shfdown,
        "SHFIDX" => Shfidx,
        "SHFUP" => Shfup,
        "SHFXOR" => Shfxor,
        "TRUNC" => Trunc,
        "TXB" => Txb,
        "TXD" => Txd,
        "TXF" => Txf,
        "TXFMS" => Txfms,
        "TXG" => Txg,
        "TXGO" => Txgo,
        "TXL" => Txl,
        "TXP" => Txp,
        "TXQ" => Txq,
        "UP2H" => Up2h,
        "UP2US" => Up2us,
        "UP4B" => Up4b,
        "UP4UB" => Up4ub,
        "UP64" => Up64,
        "X2D" => X2d,
        "XOR" => Xor,
        "XPD" => Xpd,
        "ARL" => Arl,
        "ARR" => Arr,
        "ARA" => Ara,
        "PUSHA" => Pusha,
        "POPA" => Popa,
        "EXP" => Exp,
        "LOG" => Log,
        "BRA" => Bra,
        "LOOP" => Loop,
        "ENDLOOP" => EndLoop,
        "LOADIM" => Loadim,
        "STOREIM" => Storeim,
        "ATOMIM" => Atomim,
        "ATOMCTR" => Atomctr,
        "CALI" => Cali,
        // NV_shader_storage_buffer_object: LOAD/STORE/ATOM on a STORAGE variable.
        "LDB" => Load,
        "STB" => Store,
        "ATOMB" => Atom,
        // NV_compute_program5: the same on a SHARED variable.
        "LDS" => Load,
        "STS" => Store,
        "ATOMS" => Atom,
        _ => return None,
    })
}

fn kind_of(s: &str) -> Option<Shape> {
    Some(match s {
        "v" => Shape::Vector,
        "vf" => Shape::FloatVector,
        "vs" => Shape::SignedVector,
        "vu" => Shape::UnsignedVector,
        "s" => Shape::Scalar,
        "su" => Shape::UnsignedScalar,
        "c" => Shape::CondTest,
        "vc" => Shape::VectorOrCondTest,
        "t" => Shape::Texture,
        _ => return None,
    })
}

fn type_mods(s: &str) -> TypeMods {
    match s {
        "6" => TypeMods::All,
        "X" => TypeMods::Sized32,
        _ => TypeMods::None,
    }
}

fn build() -> HashMap<&'static str, OpInfo> {
    let mut map = HashMap::new();
    for line in NV_TABLE.lines() {
        let cols: Vec<&'static str> = line.split_whitespace().collect();
        let [name, ver, f, i, c, s, h, d, out, ins] = cols[..] else {
            continue;
        };
        let Some(op) = opcode_of(name) else {
            continue;
        };
        let info = OpInfo {
            name,
            op,
            nv: ver.parse().unwrap_or(0),
            f: type_mods(f),
            i: type_mods(i),
            cc: c == "X",
            sat: s == "X",
            half: h == "X",
            default: match d {
                "F" => Some(DataType::F32),
                "S" => Some(DataType::S32),
                "U" => Some(DataType::U32),
                _ => None,
            },
            out: kind_of(out),
            ins: ins.split(',').filter_map(kind_of).collect(),
            arb: 0,
        };
        map.insert(name, info);
    }
    for &(name, bits) in ARB_TABLE {
        if let Some(info) = map.get_mut(name) {
            info.arb = bits;
        }
    }
    map
}

/// Looks up an opcode by its base name (no suffixes).
pub(crate) fn lookup(name: &str) -> Option<&'static OpInfo> {
    static TABLE: OnceLock<HashMap<&'static str, OpInfo>> = OnceLock::new();
    TABLE.get_or_init(build).get(name)
}

/// Suffixes concatenated onto an opcode name (Table X.15 / the NV option specs).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Suffixes {
    /// 'R', 'H' or 'X'.
    pub precision: Option<char>,
    /// Some(0) for C/C0, Some(1) for C1.
    pub cc: Option<u8>,
    /// 1 = _SAT, 2 = _SSAT.
    pub sat: u8,
}

/// Splits `ADDRC1_SAT` into the base opcode and its suffixes. Exact names win, so
/// `PK2H`, `RCC` or `TXFMS` are never read as suffixed forms.
pub(crate) fn split_suffixes(name: &str) -> Option<(&'static OpInfo, Suffixes)> {
    let mut sfx = Suffixes::default();
    let mut rest = name;
    if let Some(r) = rest.strip_suffix("_SSAT") {
        sfx.sat = 2;
        rest = r;
    } else if let Some(r) = rest.strip_suffix("_SAT") {
        sfx.sat = 1;
        rest = r;
    }
    if let Some(info) = lookup(rest) {
        return Some((info, sfx));
    }
    for (suffix, cc) in [("C0", 0u8), ("C1", 1), ("C", 0)] {
        if let Some(r) = rest.strip_suffix(suffix) {
            if let Some(info) = lookup(r) {
                sfx.cc = Some(cc);
                return Some((info, sfx));
            }
            if let Some((info, p)) = strip_precision(r) {
                sfx.cc = Some(cc);
                sfx.precision = Some(p);
                return Some((info, sfx));
            }
        }
    }
    let (info, p) = strip_precision(rest)?;
    sfx.precision = Some(p);
    Some((info, sfx))
}

fn strip_precision(name: &str) -> Option<(&'static OpInfo, char)> {
    for p in ['R', 'H', 'X'] {
        if let Some(r) = name.strip_suffix(p) {
            if let Some(info) = lookup(r) {
                return Some((info, p));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_every_row() {
        assert!(lookup("TXGO").is_some_and(|i| i.nv == 50 && i.ins.len() == 4));
        assert!(lookup("SAD").is_some_and(|i| i.out == Some(Shape::UnsignedVector)));
        assert!(lookup("ABS").is_some_and(|i| i.f == TypeMods::All && i.arb == AV | AF));
        assert!(lookup("NOPE").is_none());
    }

    #[test]
    fn suffixes_split_in_order() {
        let (i, s) = split_suffixes("ADDRC1_SSAT").unwrap();
        assert_eq!(i.name, "ADD");
        assert_eq!((s.precision, s.cc, s.sat), (Some('R'), Some(1), 2));
        let (i, s) = split_suffixes("PK2H").unwrap();
        assert_eq!((i.name, s), ("PK2H", Suffixes::default()));
        let (i, s) = split_suffixes("RCCC").unwrap();
        assert_eq!((i.name, s.cc), ("RCC", Some(0)));
        assert!(split_suffixes("MOVQ").is_none());
    }
}
