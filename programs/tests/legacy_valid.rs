//! Valid VP1.0 / VP1.1 / VP2.0 / VSP1.0 / FP1.0 programs covering every opcode of each
//! dialect, checked against the compiled form they must lower to.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::assemble;
use glemu_programs::ir::*;

fn ok(text: &str) -> Program {
    match assemble(text, None) {
        Ok(p) => p,
        Err(e) => panic!("{}\n{text}", e.render(text)),
    }
}

fn ops(p: &Program) -> Vec<Opcode> {
    p.instructions.iter().map(|i| i.op).collect()
}

fn out_binding(p: &Program, inst: usize) -> OutputBinding {
    let d = p.instructions[inst].dst.as_ref().unwrap();
    assert_eq!(d.file, File::Output);
    let Index::Direct(slot) = d.index else {
        panic!("relative output")
    };
    p.outputs[slot as usize].binding.clone()
}

fn param_of(p: &Program, s: &Src) -> ParamSource {
    assert_eq!(s.file, File::Param);
    let Index::Direct(slot) = s.index else {
        panic!("relative param")
    };
    p.params[slot as usize].clone()
}

fn input_of(p: &Program, s: &Src) -> InputBinding {
    assert_eq!(s.file, File::Input);
    let Index::Direct(slot) = s.index else {
        panic!("relative input")
    };
    p.inputs[slot as usize].binding.clone()
}

const VP10_ALL: &str = "!!VP1.0
ARL A0.x, v[0].x;
MOV R0, v[OPOS];
LIT R1, R0;
RCP R2.x, R0.w;
RSQ R2.y, R0.x;
EXP R3, R0.y;
LOG R4, R0.z;
MUL R5, R0, c[1];
ADD R5, R5, -c[A0.x + 4];
DP3 R6.x, R0, c[2];
DP4 o[HPOS].x, R0, c[3];
DST R7, R0, R1;
MIN R8, R0, R1.xxxx;
MAX R9, R0, R1.w;
SLT R10, R0, c[A0.x - 64];
SGE R11, R0, R1;
MAD o[COL0], R0, c[95], R11;
END
";

#[test]
fn vp10_every_opcode() {
    let p = ok(VP10_ALL);
    use Opcode::*;
    assert_eq!(
        ops(&p),
        vec![Arl, Mov, Lit, Rcp, Rsq, Exp, Log, Mul, Add, Dp3, Dp4, Dst, Min, Max, Slt, Sge, Mad]
    );
    assert_eq!((p.stage, p.dialect), (Stage::Vertex, Dialect::Vp10));
    assert_eq!(p.address_regs, 1);
    assert_eq!(p.temps.len(), 12);
    // ARL writes A0.x from a float scalar.
    let arl = &p.instructions[0];
    assert_eq!(arl.dst.as_ref().unwrap().file, File::Address);
    assert_eq!(arl.dst.as_ref().unwrap().mask, 1);
    assert_eq!(arl.srcs[0].swizzle, [0; 4]);
    assert_eq!(input_of(&p, &arl.srcs[0]), InputBinding::VertexPosition);
    // Relative addressing: c[] is one block of 96 env params at slot 0.
    let add = &p.instructions[8];
    assert!(add.srcs[1].negate);
    assert_eq!(
        add.srcs[1].index,
        Index::Relative {
            reg: IndexReg::Address { reg: 0, comp: 0 },
            offset: 4,
            base: 0,
            len: 96
        }
    );
    assert!(matches!(
        p.instructions[14].srcs[1].index,
        Index::Relative { offset: -64, .. }
    ));
    assert_eq!(
        param_of(&p, &p.instructions[16].srcs[1]),
        ParamSource::Env(95)
    );
    // Scalar and replicated swizzles; write masks.
    assert_eq!(p.instructions[3].srcs[0].swizzle, [3; 4]);
    assert_eq!(p.instructions[12].srcs[1].swizzle, [0; 4]);
    assert_eq!(p.instructions[10].dst.as_ref().unwrap().mask, 1);
    assert_eq!(
        out_binding(&p, 10),
        OutputBinding::Varying(VaryingSlot::Position)
    );
    assert_eq!(
        out_binding(&p, 16),
        OutputBinding::Varying(VaryingSlot::Color {
            back: false,
            secondary: false
        })
    );
}

#[test]
fn vp10_attribute_mnemonics_and_results() {
    let p = ok("!!VP1.0
MOV o[HPOS], v[0];
MOV o[COL1], v[COL1];
MOV o[BFC0], v[NRML];
MOV o[BFC1], v[WGHT];
MOV o[FOGC].x, v[FOGC];
MOV o[PSIZ].x, v[6];
MOV o[TEX7], v[TEX7];
MOV R0, v[8];
MOV o[COL0], v[COL0];
END");
    let binds: Vec<_> = p
        .instructions
        .iter()
        .map(|i| input_of(&p, &i.srcs[0]))
        .collect();
    assert_eq!(
        binds,
        vec![
            InputBinding::VertexPosition,
            InputBinding::VertexColor { secondary: true },
            InputBinding::VertexNormal,
            InputBinding::VertexWeight(0),
            InputBinding::VertexFogCoord,
            InputBinding::VertexAttrib(6),
            InputBinding::VertexTexCoord(7),
            InputBinding::VertexTexCoord(0),
            InputBinding::VertexColor { secondary: false },
        ]
    );
    use VaryingSlot::*;
    let outs: Vec<_> = [1, 2, 3, 4, 5, 6]
        .iter()
        .map(|&i| out_binding(&p, i))
        .collect();
    assert_eq!(
        outs,
        vec![
            OutputBinding::Varying(Color {
                back: false,
                secondary: true
            }),
            OutputBinding::Varying(Color {
                back: true,
                secondary: false
            }),
            OutputBinding::Varying(Color {
                back: true,
                secondary: true
            }),
            OutputBinding::Varying(FogCoord),
            OutputBinding::Varying(PointSize),
            OutputBinding::Varying(TexCoord(7)),
        ]
    );
    // No relative addressing: no env block, only what is used.
    assert!(p.params.is_empty());
}

#[test]
fn vp10_same_parameter_twice_is_one_unique_parameter() {
    let p = ok("!!VP1.0\nMAD o[HPOS], c[3], v[0], c[3].x;\nEND");
    assert_eq!(p.params, vec![ParamSource::Env(3)]);
}

#[test]
fn text_after_end_is_ignored() {
    ok("!!VP1.0\nMOV o[HPOS], v[0];\nEND\n@@@ garbage { ");
}

#[test]
fn vp11_new_opcodes_and_position_invariance() {
    let p = ok("!!VP1.1
OPTION NV_position_invariant;
ABS R0, -v[NRML];
RCC R1.x, +R0.y;
DPH R2, R0, c[4];
SUB o[COL0], R0, +c[5];
END");
    use Opcode::*;
    assert_eq!(ops(&p), vec![Abs, Rcc, Dph, Sub]);
    assert_eq!(p.dialect, Dialect::Vp11);
    assert!(p.options.position_invariant);
    assert_eq!(p.options.names, vec!["NV_position_invariant".to_string()]);
    assert!(p.instructions[0].srcs[0].negate);
    assert!(!p.instructions[1].srcs[0].negate);
}

const VP20_ALL: &str = "!!VP2.0
OPTION NV_position_invariant;
BRA main;
sub:
  COS R0.x, R1.y;
  SIN R0.y, -|R1.x|;
  EX2 R0.z, R1.z;
  LG2C R0.w, R1.w;
  RET (GT.x);
  RET;
main:
  ARL A0, v[0];
  ARR A1.xy, v[0].yxzw;
  ARAC A0.zw (NE), A0;
  MOV R15, c[A1.w + 255];
  MOV R14, c[A0.y - 256];
  FLR R1, v[0];
  FRC R2, v[0];
  SSG R3, v[0];
  SEQ R4, R1, R2;
  SFL R4, R1, R2;
  SGT R4, R1, R2;
  SLE R4, R1, R2;
  SNE R4, R1, R2;
  STR R4, R1, R2;
  MOVC CC, R1;
  MOV o[COL0].xy (LE.zzzz), R2;
  CAL sub (EQ);
  MADC o[CLP5].x, R0, c[255], |R1|;
  ABSC R5, R0;
  DPHC R6, R0, R1;
  SUBC R6, R0, R1;
  RCCC R7.x, R0.x;
  MOVC o[TEX0], R7;
END";

#[test]
fn vp20_every_new_opcode_branches_and_cc() {
    let p = ok(VP20_ALL);
    use Opcode::*;
    assert_eq!(
        ops(&p),
        vec![
            Bra, Cos, Sin, Ex2, Lg2, Ret, Ret, Arl, Arr, Ara, Mov, Mov, Flr, Frc, Ssg, Seq, Sfl,
            Sgt, Sle, Sne, Str, Mov, Mov, Cal, Mad, Abs, Dph, Sub, Rcc, Mov
        ]
    );
    assert_eq!(p.dialect, Dialect::Vp20);
    assert_eq!(p.address_regs, 2);
    // `main:` labels instruction 7 (ARL); BRA main and CAL sub resolve.
    assert_eq!(p.entry, 7);
    assert!(matches!(
        p.instructions[0].extra,
        Extra::Flow {
            target: 7,
            cond: None
        }
    ));
    let Extra::Flow { target, cond } = &p.instructions[23].extra else {
        panic!("CAL without flow info")
    };
    assert_eq!(*target, 1);
    assert_eq!(cond.unwrap().op, CondOp::Eq);
    let Extra::Flow { cond, .. } = &p.instructions[5].extra else {
        panic!()
    };
    assert_eq!(
        *cond,
        Some(CondTest {
            op: CondOp::Gt,
            cc: 0,
            swizzle: [0; 4]
        })
    );
    assert_eq!(
        p.instructions[6].extra,
        Extra::Flow {
            target: 0,
            cond: None
        }
    );
    // |abs| operands.
    let sin = &p.instructions[2].srcs[0];
    assert!(sin.abs && sin.negate);
    // C suffix updates CC0; conditional write masks.
    assert_eq!(p.instructions[4].cc_update, Some(0));
    assert_eq!(p.instructions[1].cc_update, None);
    let ara = &p.instructions[9];
    assert_eq!(ara.dtype, DataType::F32);
    assert_eq!(ara.srcs[0].file, File::Address);
    assert_eq!(ara.dst.as_ref().unwrap().mask, 0b1100);
    assert_eq!(ara.dst.as_ref().unwrap().cond.unwrap().op, CondOp::Ne);
    assert_eq!(p.instructions[7].dst.as_ref().unwrap().mask, 0xF);
    assert_eq!(
        p.instructions[10].srcs[0].index,
        Index::Relative {
            reg: IndexReg::Address { reg: 1, comp: 3 },
            offset: 255,
            base: 0,
            len: 256
        }
    );
    let w = p.instructions[22].dst.as_ref().unwrap();
    assert_eq!(w.mask, 0b0011);
    assert_eq!(w.cond.unwrap().swizzle, [2; 4]);
    assert_eq!(
        out_binding(&p, 24),
        OutputBinding::Varying(VaryingSlot::ClipLegacy(5))
    );
    // The CC null register is a scratch temp, not an output.
    assert_eq!(p.instructions[21].dst.as_ref().unwrap().file, File::Temp);
}

#[test]
fn vp20_forward_branch_and_label_at_end() {
    let p = ok("!!VP2.0\nMOV o[HPOS], v[0];\nBRA done (FL);\nMOV o[COL0], v[3];\ndone:\nEND");
    assert!(matches!(
        p.instructions[1].extra,
        Extra::Flow { target: 3, .. }
    ));
    assert_eq!(p.entry, 0);
}

#[test]
fn vsp10_writes_program_parameters() {
    let p = ok("!!VSP1.0
MOV R0, v[0];
DP4 c[10].x, R0, c[A0.x + 2];
ARL A0.x, R0.w;
ADD c[95], R0, c[10];
END");
    assert_eq!((p.stage, p.dialect), (Stage::Vertex, Dialect::Vsp10));
    // Written parameters live in temps for the run: loaded first, stored last.
    assert_eq!(p.instructions.len(), 2 + 4 + 2);
    let n = p.instructions.len();
    let mut stored: Vec<_> = (n - 2..n).map(|i| out_binding(&p, i)).collect();
    stored.sort_by_key(|b| format!("{b:?}"));
    assert_eq!(
        stored,
        vec![OutputBinding::EnvParam(10), OutputBinding::EnvParam(95)]
    );
    assert_eq!(
        param_of(&p, &p.instructions[0].srcs[0]),
        ParamSource::Env(10)
    );
    let dp4 = &p.instructions[3];
    assert_eq!(dp4.dst.as_ref().unwrap().file, File::Temp);
    // c[10] read after the write comes from the same temp.
    let add = &p.instructions[5];
    assert_eq!(add.srcs[1].file, File::Temp);
    assert_eq!(add.srcs[1].index, dp4.dst.as_ref().unwrap().index);
    assert_eq!(
        input_of(&p, &p.instructions[2].srcs[0]),
        InputBinding::VertexAttrib(0)
    );
}

const FP10_ALL: &str = "!!FP1.0
DEFINE half = 0.5;
DEFINE tint = {0.25, 0.5};
DECLARE fog = {1, 2, 3, 4};
DECLARE plain;
DDX R0, f[TEX0];
DDYH H0, f[TEX0];
FLRX H1, R0;
FRCC R1, R0;
LITR_SAT R2, R0;
MOVHC_SAT RC, R0;
PK2H R3.x, R0;
PK2US R3.y, R0;
PK4B R3.z, R0;
PK4UB R3.w, R0;
COS R4.x, R0.x;
EX2R R4.y, R0.y;
LG2H H2.z, R0.z;
RCPC R4.w, |R0.w|;
RSQ_SAT R5.x, -R0.x;
SINRC_SAT R5.y, R0.y;
UP2H H3, R3.x;
UP2US R6, R3.y;
UP4B R7, p[63].x;
UP4UBC R8, f[COL0].x;
POW R9.x, R0.x, half;
ADD R10, R0, tint;
DP3 R10.x, R0, fog;
DP4X R10.y, R0, {1, 2, 3, 4};
DST R11, R0, R1;
MAX R12, R0, -2;
MIN R12, R0, plain.xxyy;
MUL R12, R0, p[0];
RFL R13.xyz, R0, R1;
SEQ R14, R0, R1;
SFL R14, R0, R1;
SGE R14, R0, R1;
SGT R14, R0, R1;
SLE R14, R0, R1;
SLT R14, R0, R1;
SNE R14, R0, R1;
STR R14, R0, R1;
SUB R14, R0, R1;
MAD R15, R0, 2, -1;
LRP R15, R0, R1, R2;
X2D R15, R0, R1, R2;
KIL NE.xyzw;
TEX R16, f[TEX0], TEX0, 2D;
TXP R17, f[TEX1], TEX15, CUBE;
TXD R18, f[TEX2], R1, R2, TEX3, 3D;
TEX R19, R0, TEX4, 1D;
TEX R20, R0, TEX5, RECT;
TEX R20, R1, TEX0, 2D;
MOV o[COLR], R20;
MOV o[DEPR].z, R0;
END";

#[test]
fn fp10_every_opcode() {
    let p = ok(FP10_ALL);
    use Opcode::*;
    assert_eq!(
        ops(&p),
        vec![
            Ddx, Ddy, Flr, Frc, Lit, Mov, Pk2h, Pk2us, Pk4b, Pk4ub, Cos, Ex2, Lg2, Rcp, Rsq, Sin,
            Up2h, Up2us, Up4b, Up4ub, Pow, Add, Dp3, Dp4, Dst, Max, Min, Mul, Rfl, Seq, Sfl, Sge,
            Sgt, Sle, Slt, Sne, Str, Sub, Mad, Lrp, X2d, Kil, Tex, Txp, Txd, Tex, Tex, Tex, Mov,
            Mov
        ]
    );
    assert_eq!((p.stage, p.dialect), (Stage::Fragment, Dialect::Fp10));
    let i = &p.instructions;
    // Precision: explicit letters, else the destination's.
    assert_eq!(i[0].precision, Precision::Full);
    assert_eq!(i[1].precision, Precision::Half);
    assert_eq!(i[2].precision, Precision::Fixed);
    assert_eq!(i[4].precision, Precision::Full);
    assert_eq!(i[12].precision, Precision::Half);
    // C and _SAT.
    assert_eq!((i[3].cc_update, i[3].sat), (Some(0), Saturate::None));
    assert_eq!((i[5].cc_update, i[5].sat), (Some(0), Saturate::Sat));
    assert_eq!(i[5].precision, Precision::Half);
    // H registers are fp16 temps, distinct from R registers.
    let Index::Direct(h0) = i[1].dst.as_ref().unwrap().index else {
        panic!()
    };
    assert!(p.temps[h0 as usize].short);
    // Constants: scalar replicated, short vector expanded, named local.
    let bits = |v: [f32; 4]| ParamSource::Constant(v.map(f32::to_bits));
    assert_eq!(param_of(&p, &i[20].srcs[1]), bits([0.5; 4]));
    assert_eq!(param_of(&p, &i[21].srcs[1]), bits([0.25, 0.5, 0.0, 1.0]));
    assert_eq!(
        param_of(&p, &i[22].srcs[1]),
        ParamSource::Named {
            name: "fog".into(),
            initial: [1.0f32, 2.0, 3.0, 4.0].map(f32::to_bits)
        }
    );
    assert_eq!(param_of(&p, &i[25].srcs[1]), bits([-2.0; 4]));
    assert!(!i[25].srcs[1].negate);
    assert_eq!(
        param_of(&p, &i[26].srcs[1]),
        ParamSource::Named {
            name: "plain".into(),
            initial: [0; 4]
        }
    );
    assert_eq!(i[26].srcs[1].swizzle, [0, 0, 1, 1]);
    assert_eq!(param_of(&p, &i[27].srcs[1]), ParamSource::Local(0));
    assert_eq!(param_of(&p, &i[18].srcs[0]), ParamSource::Local(63));
    assert!(i[13].srcs[0].abs);
    assert!(i[14].srcs[0].negate);
    // KIL carries its condition.
    assert_eq!(
        i[41].extra,
        Extra::Flow {
            target: 41,
            cond: Some(CondTest {
                op: CondOp::Ne,
                cc: 0,
                swizzle: [0, 1, 2, 3]
            })
        }
    );
    assert!(i[41].srcs.is_empty() && i[41].dst.is_none());
    // Texture units and targets.
    let Extra::Tex(t) = &i[44].extra else {
        panic!()
    };
    assert_eq!((t.unit, t.target), (TexUnit::Fixed(3), TexTarget::T3D));
    assert_eq!(i[44].srcs.len(), 3);
    let mut targets = p.texture_targets.clone();
    targets.sort_by_key(|t| t.0);
    assert_eq!(
        targets,
        vec![
            (0, TexTarget::T2D),
            (3, TexTarget::T3D),
            (4, TexTarget::T1D),
            (5, TexTarget::Rect),
            (15, TexTarget::Cube)
        ]
    );
    assert_eq!(
        out_binding(&p, 48),
        OutputBinding::FragColor {
            target: 0,
            index: 0
        }
    );
    assert_eq!(out_binding(&p, 49), OutputBinding::FragDepth);
}

#[test]
fn fp10_sign_and_absolute_forms() {
    let p = ok("!!FP1.0
MOV R0, -R1;
MOV R0, +R1;
MOV R0, |-R1|;
MOV R0, -|R1|;
MOV R0, -|-R1|;
MOV R0, |-{1, -2}|;
MOV o[COLH], H0;
END");
    let flags: Vec<_> = p
        .instructions
        .iter()
        .map(|i| (i.srcs[0].negate, i.srcs[0].abs))
        .collect();
    assert_eq!(
        flags,
        vec![
            (true, false),
            (false, false),
            (false, true),
            (true, true),
            (true, true),
            (false, true),
            (false, false)
        ]
    );
    assert_eq!(out_binding(&p, 6), OutputBinding::FragColorHalf);
    assert_eq!(p.instructions[6].precision, Precision::Half);
}

#[test]
fn fp10_constants_merge_when_four_values_or_fewer() {
    // The spec's own examples of legal multi-constant instructions.
    let p = ok("!!FP1.0
MAD R0, R1, 2, -1;
ADD R0, {1,2,3,4}, 4;
MADR R1.xyz, {1.5, 0, 0, 0}.x, R1, {1.5, 0, 0, 0}.y;
MOV o[COLR], R0;
END");
    assert_eq!(p.instructions.len(), 4);
}

#[test]
fn fp10_condition_masks() {
    let p = ok("!!FP1.0
MOVC RC.x, R0.x;
MOV o[COLR] (NE), R0;
MOV o[COLR].xy (EQ.wzyx), R0;
MOV o[COLR] (GT.y), R0;
KIL LT.x;
END");
    let conds: Vec<_> = p.instructions[1..4]
        .iter()
        .map(|i| i.dst.as_ref().unwrap().cond.unwrap())
        .collect();
    assert_eq!(conds[0].swizzle, [0, 1, 2, 3]);
    assert_eq!(conds[1].swizzle, [3, 2, 1, 0]);
    assert_eq!((conds[2].op, conds[2].swizzle), (CondOp::Gt, [1; 4]));
}

#[test]
fn crlf_and_comments_are_whitespace() {
    let text = "!!FP1.0\r\n# comment\r\nTEX R0, f[TEX0], TEX0, 2D; # trailing\r\nMOV o[COLR], R0;\r\nEND\r\n";
    let p = ok(text);
    assert_eq!(p.instructions.len(), 2);
    // Spans stay byte offsets into the original text.
    let tex = &p.instructions[0];
    assert_eq!(
        &text[tex.span.start as usize..tex.span.start as usize + 3],
        "TEX"
    );
}
