//! Straight-line fragment programs run an instruction at a time over all the strips of a
//! fully covered block (up to four batches of 16 lanes), each register component a lane
//! array that the widest vector unit the CPU has (AVX-512 here: one register per strip
//! and component) computes whole.
//!
//! Why: the compiled kernels are Cranelift's 128-bit code, four vectors for each of a
//! strip's register components, and a fully covered block pays the kernel call, the
//! strip set-up and the input planes once per strip. A program without flow control,
//! condition codes or memory needs none of the interpreter's lane bookkeeping, so here an
//! instruction is decoded once per block and its arithmetic runs over 64 lanes.
//!
//! The bits are the interpreter's: every lane is computed by the same scalar functions
//! (`float::add`, `mul`, `mad`, `lrp`, `fmin`, `fmax`, `operand::clamp_lane`) in the same
//! order, the operands swizzled and modified as `operand::load32_into` does, and the
//! texture instructions call the draw's sites or [`Env::texture`] with the same calls the
//! kernels make. `tests/exec_block_program.rs` holds the differential tests.
//!
//! What runs here ([`BlockProgram::new`] says why a program does not): MOV, ABS, ADD,
//! SUB, MUL, MAD, MIN, MAX, LRP, CMP, DP2, DP3, DP4, DPH on F32 operands, and TEX, TXP,
//! TXB and TXL with a fixed unit and no register offsets; temps, inputs, outputs and
//! parameters with fixed indices; no condition codes, no reduced precision. Every
//! component a program reads from a temp or an output must have been written before, and
//! every component of the outputs a caller reads must be written, so nothing depends on
//! what a register held before the run.

use super::env::{Env, TexCall, TexOffsets, TexOp};
use super::error::{ExecError, ExecErrorKind};
use super::float::{add, fmax, fmin, lrp, mad, mul};
use super::operand::clamp_lane;
use super::texture::{fixed_offsets, tex_op};
use super::{Vec4, MAX_LANES};
use crate::compile::AluCode;
use crate::ir::{
    DataType, Extra, File, Index, Inst, Opcode, Precision, Program, Saturate, Src, TexTarget,
    TexUnit,
};
use std::sync::Arc;

/// Strips a block run holds: a fully covered 8x8 block is four strips of two rows.
pub const STRIPS: usize = 4;

/// A register: per strip, its four components' lanes. Aligned to the cache line: every
/// row (16 lanes, 64 bytes) then loads and stores as one line, not split over two.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct Reg([Vec4; STRIPS]);

const ZERO_REG: Reg = Reg([[[0; MAX_LANES]; 4]; STRIPS]);

impl std::ops::Deref for Reg {
    type Target = [Vec4; STRIPS];
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Reg {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

/// Every lane of a strip.
const FULL: u32 = (1u32 << MAX_LANES) - 1;

/// A source operand: its register and how it is read.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Operand {
    pub(super) reg: usize,
    pub(super) swizzle: [usize; 4],
    /// `|x|`: the sign bit cleared (all ones otherwise).
    pub(super) and: u32,
    /// `-x`: the sign bit flipped (zero otherwise).
    pub(super) xor: u32,
}

impl Operand {
    #[inline(always)]
    fn modify(&self, x: u32) -> u32 {
        (x & self.and) ^ self.xor
    }
    fn plain(&self) -> bool {
        self.and == u32::MAX && self.xor == 0
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Alu {
    Mov,
    Abs,
    Add,
    Sub,
    Mul,
    Mad,
    Min,
    Max,
    Lrp,
    Cmp,
    Dot { n: usize, homogeneous: bool },
}

/// A texture instruction's call, all but its coordinates.
#[derive(Clone, Copy, Debug)]
pub(super) struct TexCallInfo {
    op: TexOp,
    unit: u32,
    target: TexTarget,
    offsets: TexOffsets<'static>,
    gather_comp: u8,
    lod_clamp: bool,
}

#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    Alu(Alu),
    Tex(TexCallInfo),
}

/// One instruction, decoded.
#[derive(Clone, Debug)]
pub(super) struct Op {
    pc: u32,
    pub(super) kind: Kind,
    pub(super) src: [Operand; 3],
    /// Some operand has a modifier.
    mods: bool,
    pub(super) dst: usize,
    pub(super) mask: u8,
    /// The lower bound of a saturated result (0 or -1).
    pub(super) sat: Option<f32>,
    /// A written component is read, through a source, by a component written after it
    /// (`MOV t0.xy, t0.yx`): [`ordered`] then computes them all before storing any.
    overlap: bool,
}

/// A straight-line fragment program decoded for [`BlockProgram::run`].
#[derive(Clone, Debug)]
pub struct BlockProgram {
    ops: Vec<Op>,
    /// How `ops` run: one at a time, or runs of ALU instructions as machine code.
    steps: Vec<Step>,
    /// Registers: temps, then inputs, then outputs, then parameters.
    regs: usize,
    /// Register of each input slot the program reads.
    inputs: Vec<Option<usize>>,
    /// Register of each output slot and the components the program writes.
    outputs: Vec<(usize, u8)>,
    /// Parameter index of each parameter register, from `params_base` on.
    params: Vec<usize>,
    params_base: usize,
}

/// A step of [`BlockProgram::run`].
#[derive(Clone, Debug)]
enum Step {
    /// `ops[i]`.
    Op(usize),
    /// `ops[range]`, all ALU instructions, as AVX-512 code (`block_asm`); decoded one by
    /// one when another instruction set is chosen at run time.
    Code(Arc<AluCode>, std::ops::Range<usize>),
}

/// The registers of one [`BlockProgram`] run (made once per draw and worker by
/// [`BlockProgram::new_state`]: the parameters are loaded there).
#[derive(Clone, Debug)]
pub struct BlockState {
    regs: Vec<Reg>,
    /// An instruction's result before its write mask and saturation.
    res: Reg,
    /// Per strip, a texture coordinate that is not a register as it stands.
    coord: Reg,
}

impl BlockProgram {
    /// `prog` decoded, or why it does not run here (it then runs as before).
    pub fn new(prog: &Program) -> Result<BlockProgram, String> {
        if prog.stage != crate::ir::Stage::Fragment {
            return Err("not a fragment program".into());
        }
        if prog.temps.iter().any(|t| t.long || t.short) {
            return Err("LONG or SHORT temps".into());
        }
        let temps = prog.temps.len();
        let inputs = prog.inputs.len();
        let outputs = prog.outputs.len();
        let params_base = temps + inputs + outputs;
        let mut params: Vec<usize> = Vec::new();
        // Components written so far, per temp and output register.
        let mut written = vec![0u8; params_base];
        let mut input_used = vec![None; inputs];
        let mut ops = Vec::with_capacity(prog.instructions.len());
        for (pc, inst) in prog.instructions.iter().enumerate() {
            let why = |m: &str| format!("instruction {pc}: {m}");
            let kind = kind_of(inst).ok_or_else(|| why("opcode or type"))?;
            if inst.cc_update.is_some() || inst.precision != Precision::Full {
                return Err(why("condition code or reduced precision"));
            }
            let dst = inst.dst.as_ref().ok_or_else(|| why("no destination"))?;
            if dst.cond.is_some() {
                return Err(why("conditional write"));
            }
            let n = match kind {
                Kind::Tex(_) => 1,
                Kind::Alu(a) => alu_sources(a),
            };
            if inst.srcs.len() != n {
                return Err(why("operand count"));
            }
            let mut src = [Operand::default(); 3];
            for (o, s) in src.iter_mut().zip(&inst.srcs) {
                let reg = match (s.file, s.index, &s.vertex, &s.ext_swizzle) {
                    (File::Temp, Index::Direct(i), None, None) if (i as usize) < temps => {
                        i as usize
                    }
                    (File::Input, Index::Direct(i), None, None) if (i as usize) < inputs => {
                        input_used[i as usize] = Some(temps + i as usize);
                        temps + i as usize
                    }
                    (File::Output, Index::Direct(i), None, None) if (i as usize) < outputs => {
                        temps + inputs + i as usize
                    }
                    (File::Param, Index::Direct(i), None, None) => {
                        let k = match params.iter().position(|&p| p == i as usize) {
                            Some(k) => k,
                            None => {
                                params.push(i as usize);
                                params.len() - 1
                            }
                        };
                        params_base + k
                    }
                    _ => return Err(why("operand register")),
                };
                *o = operand(s, reg);
            }
            // Components of each source this instruction reads, through its swizzle.
            for (k, o) in src.iter().enumerate().take(n) {
                if o.reg >= temps + inputs && o.reg < params_base || o.reg < temps {
                    let comps = read_components(kind, dst.mask, k);
                    let need = comps.iter().fold(0u8, |m, &c| m | 1 << o.swizzle[c]);
                    if written[o.reg] & need != need {
                        return Err(why("reads a component not written before"));
                    }
                }
            }
            let d = match (dst.file, dst.index) {
                (File::Temp, Index::Direct(i)) if (i as usize) < temps => i as usize,
                (File::Output, Index::Direct(i)) if (i as usize) < outputs => {
                    temps + inputs + i as usize
                }
                _ => return Err(why("destination register")),
            };
            written[d] |= dst.mask & 0xf;
            let mods = src.iter().take(n).any(|o| !o.plain());
            let mask = dst.mask & 0xf;
            // A dot product reads all its sources before it stores (see `ordered`).
            let componentwise = !matches!(kind, Kind::Alu(Alu::Dot { .. }));
            let overlap = componentwise
                && (0..4).filter(|c| mask & (1 << c) != 0).any(|c| {
                    src.iter().take(n).any(|o| {
                        o.reg == d && (c + 1..4).any(|l| mask & (1 << l) != 0 && o.swizzle[l] == c)
                    })
                });
            ops.push(Op {
                pc: pc as u32,
                kind,
                src,
                mods,
                dst: d,
                mask,
                overlap,
                sat: match inst.sat {
                    Saturate::None => None,
                    Saturate::Sat => Some(0.0),
                    Saturate::SSat => Some(-1.0),
                },
            });
        }
        let mut outputs: Vec<(usize, u8)> = (0..outputs)
            .map(|i| (temps + inputs + i, written[temps + inputs + i]))
            .collect();
        for out in &mut outputs {
            if let Some((k, from)) = moved_whole(&ops, out.0) {
                ops.remove(k);
                *out = (from, 0xf);
            }
        }
        let steps = steps(&ops, &outputs);
        Ok(BlockProgram {
            ops,
            steps,
            regs: params_base + params.len(),
            inputs: input_used,
            outputs,
            params,
            params_base,
        })
    }

    /// Registers for runs with the parameters `params`; None when the program reads a
    /// parameter past them (the interpreter reads zeros and counts it: left to it).
    pub fn new_state(&self, params: &[[u32; 4]]) -> Option<BlockState> {
        let mut regs = vec![ZERO_REG; self.regs];
        for (k, &p) in self.params.iter().enumerate() {
            let v = params.get(p)?;
            let reg = regs.get_mut(self.params_base + k)?;
            for strip in reg.iter_mut() {
                for (c, comp) in strip.iter_mut().enumerate() {
                    *comp = [v[c]; MAX_LANES];
                }
            }
        }
        Some(BlockState {
            regs,
            res: ZERO_REG,
            coord: ZERO_REG,
        })
    }

    /// Input slot `slot` of strip `strip`, to be filled before a run; None when the
    /// program does not read it.
    pub fn input_mut<'s>(
        &self,
        st: &'s mut BlockState,
        slot: usize,
        strip: usize,
    ) -> Option<&'s mut Vec4> {
        let r = (*self.inputs.get(slot)?)?;
        st.regs.get_mut(r)?.get_mut(strip)
    }

    /// Input slot `slot` of every strip ([`Self::input_mut`] of each at once).
    pub fn input_strips_mut<'s>(
        &self,
        st: &'s mut BlockState,
        slot: usize,
    ) -> Option<&'s mut [Vec4; STRIPS]> {
        let r = (*self.inputs.get(slot)?)?;
        st.regs.get_mut(r).map(|x| &mut x.0)
    }

    /// Output slot `slot` of strip `strip` after a run; None unless the program writes
    /// every component of it.
    pub fn output<'s>(&self, st: &'s BlockState, slot: usize, strip: usize) -> Option<&'s Vec4> {
        let &(r, written) = self.outputs.get(slot)?;
        if written != 0xf {
            return None;
        }
        st.regs.get(r)?.get(strip)
    }

    /// Runs the program over strips `0..n` (at most [`STRIPS`]) of `st`, every lane
    /// active; `prog` is the program this was made from (texture calls and errors name
    /// its instructions).
    pub fn run<E: Env + ?Sized>(
        &self,
        prog: &Program,
        st: &mut BlockState,
        n: usize,
        env: &mut E,
    ) -> Result<(), ExecError> {
        let n = n.min(STRIPS);
        let native = glemu_math::Avx512::get().is_some();
        for step in &self.steps {
            match step {
                Step::Code(code, _) if native => {
                    if !code.call_alu(&mut st.regs) {
                        return Err(ExecError::at(
                            prog,
                            self.ops.first().map_or(0, |o| o.pc),
                            super::error::invariant("block state smaller than its program"),
                        ));
                    }
                }
                Step::Code(_, range) => {
                    for op in self.ops.get(range.clone()).unwrap_or_default() {
                        one(prog, op, st, n, env)?;
                    }
                }
                Step::Op(i) => {
                    if let Some(op) = self.ops.get(*i) {
                        one(prog, op, st, n, env)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether every ALU instruction runs as machine code when AVX-512 is chosen.
    pub fn alu_compiled(&self) -> bool {
        self.steps.iter().all(|s| match s {
            Step::Op(i) => self
                .ops
                .get(*i)
                .is_some_and(|o| matches!(o.kind, Kind::Tex(_))),
            Step::Code(..) => true,
        })
    }
}

/// One instruction decoded, on strips `0..n`.
fn one<E: Env + ?Sized>(
    prog: &Program,
    op: &Op,
    st: &mut BlockState,
    n: usize,
    env: &mut E,
) -> Result<(), ExecError> {
    match op.kind {
        Kind::Alu(a) => alu(a, op, &mut st.regs, &mut st.res, n),
        Kind::Tex(t) => {
            let direct =
                texture(prog, t, op, st, n, env).map_err(|e| ExecError::at(prog, op.pc, e))?;
            if !direct {
                write(op, &mut st.regs, &st.res, n);
            }
        }
    }
    Ok(())
}

/// The steps of `ops`: with AVX-512 on the machine, each run of ALU instructions as
/// machine code (left decoded when it cannot be assembled).
fn steps(ops: &[Op], outputs: &[(usize, u8)]) -> Vec<Step> {
    let mut steps = Vec::new();
    let avx512 = glemu_math::detected() == glemu_math::Isa::Avx512;
    let mut i = 0;
    while i < ops.len() {
        let end = (i..ops.len())
            .find(|&k| !matches!(ops[k].kind, Kind::Alu(_)))
            .unwrap_or(ops.len());
        if !avx512 || end == i {
            steps.push(Step::Op(i));
            i += 1;
            continue;
        }
        // Read after the run: any component of a register a later instruction reads, or
        // of an output.
        let live = |reg: usize, _comp: usize| {
            outputs.iter().any(|&(r, _)| r == reg)
                || ops[end..].iter().any(|o| {
                    let k = match o.kind {
                        Kind::Tex(_) => 1,
                        Kind::Alu(a) => alu_sources(a),
                    };
                    o.src.iter().take(k).any(|s| s.reg == reg)
                })
        };
        match super::block_asm::assemble(&ops[i..end], &live)
            .and_then(|(bytes, regs)| crate::compile::load_alu(&bytes, regs))
        {
            Ok(code) => steps.push(Step::Code(Arc::new(code), i..end)),
            Err(_) => steps.extend((i..end).map(Step::Op)),
        }
        i = end;
    }
    steps
}

/// When output register `out` is written only by a plain whole MOV from a register that
/// nothing writes after it, and nothing reads `out`: that MOV's index and its source.
/// The output then reads from the source register, and the copy is not made.
fn moved_whole(ops: &[Op], out: usize) -> Option<(usize, usize)> {
    let mut writes = ops.iter().enumerate().filter(|(_, o)| o.dst == out);
    let (k, op) = writes.next()?;
    let from = op.src[0];
    let plain = matches!(op.kind, Kind::Alu(Alu::Mov))
        && op.mask == 0xf
        && op.sat.is_none()
        && from.plain()
        && from.swizzle == [0, 1, 2, 3];
    let reads_out = |o: &Op| {
        let n = match o.kind {
            Kind::Tex(_) => 1,
            Kind::Alu(a) => alu_sources(a),
        };
        o.src.iter().take(n).any(|s| s.reg == out)
    };
    let later_write = ops.get(k + 1..)?.iter().any(|o| o.dst == from.reg);
    (plain && writes.next().is_none() && !later_write && !ops.iter().any(reads_out))
        .then_some((k, from.reg))
}

/// What [`BlockProgram`] computes for `inst`, if it runs here.
fn kind_of(inst: &Inst) -> Option<Kind> {
    use Opcode::*;
    if let (Extra::Tex(info), Some(op)) = (&inst.extra, tex_op(inst.op)) {
        if !matches!(inst.op, Tex | Txp | Txb | Txl) || inst.dtype != DataType::F32 {
            return None;
        }
        let TexUnit::Fixed(unit) = info.unit else {
            return None;
        };
        return Some(Kind::Tex(TexCallInfo {
            op,
            unit,
            target: info.target,
            offsets: fixed_offsets(&info.offset)?,
            gather_comp: info.gather_comp,
            lod_clamp: info.lod_clamp,
        }));
    }
    if inst.dtype != DataType::F32 || !matches!(inst.extra, Extra::None) {
        return None;
    }
    Some(Kind::Alu(match inst.op {
        Mov => Alu::Mov,
        Abs => Alu::Abs,
        Add => Alu::Add,
        Sub => Alu::Sub,
        Mul => Alu::Mul,
        Mad => Alu::Mad,
        Min => Alu::Min,
        Max => Alu::Max,
        Lrp => Alu::Lrp,
        Cmp => Alu::Cmp,
        Dp2 => Alu::Dot {
            n: 2,
            homogeneous: false,
        },
        Dp3 => Alu::Dot {
            n: 3,
            homogeneous: false,
        },
        Dp4 => Alu::Dot {
            n: 4,
            homogeneous: false,
        },
        Dph => Alu::Dot {
            n: 3,
            homogeneous: true,
        },
        _ => return None,
    }))
}

pub(super) fn alu_sources(a: Alu) -> usize {
    match a {
        Alu::Mov | Alu::Abs => 1,
        Alu::Add | Alu::Sub | Alu::Mul | Alu::Min | Alu::Max | Alu::Dot { .. } => 2,
        Alu::Mad | Alu::Lrp | Alu::Cmp => 3,
    }
}

/// The (swizzled) components of source `k` an instruction reads to write `mask`.
fn read_components(kind: Kind, mask: u8, k: usize) -> Vec<usize> {
    match kind {
        // The sampler may read every coordinate component (TXP's q, TXB's bias ...).
        Kind::Tex(_) => vec![0, 1, 2, 3],
        Kind::Alu(Alu::Dot { n, homogeneous }) => {
            let mut c: Vec<usize> = (0..n).collect();
            if homogeneous && k == 1 {
                c.push(3);
            }
            c
        }
        Kind::Alu(_) => (0..4).filter(|c| mask & (1 << c) != 0).collect(),
    }
}

fn operand(s: &Src, reg: usize) -> Operand {
    Operand {
        reg,
        swizzle: s.swizzle.map(|c| (c & 3) as usize),
        and: if s.abs { 0x7fff_ffff } else { u32::MAX },
        xor: if s.negate { 0x8000_0000 } else { 0 },
    }
}

glemu_math::multiversion! {
    /// An ALU instruction on strips `0..n`: its result components (those of its mask; a
    /// dot product's in every component of it), saturated, into its destination. With
    /// AVX-512 each strip's results are computed from its sources and stored straight
    /// into the destination ([`ordered`]); else through `res` and [`write_into`].
    fn alu(a: Alu, op: &Op, regs: &mut [Reg], res: &mut Reg, n: usize) {
        match (glemu_math::Avx512::get(), op.mods) {
            (Some(t), true) => ordered::<true>(t, a, op, regs, res, n),
            (Some(t), false) => ordered::<false>(t, a, op, regs, res, n),
            (None, true) => {
                alu_on::<true>(a, op, regs, res, n);
                write_into(op, regs, res, n);
            }
            (None, false) => {
                alu_on::<false>(a, op, regs, res, n);
                write_into(op, regs, res, n);
            }
        }
    }
}

/// A strip's row: one component's lanes as floats.
type Row = [f32; MAX_LANES];

/// [`alu`] with AVX-512: the additions, subtractions and multiplications are single
/// instructions with their operands in the interpreter's order ([`glemu_math::Avx512`]),
/// which gives the bits `float::add`'s and `mul`'s NaN selects spell out (the first NaN
/// operand quieted); results go straight into the destination, component by component
/// (through `res` when the op `overlap`s). Every strip is computed, also past `n` (on
/// registers no caller reads): a fixed count of strips unrolls, and a register's look-up
/// is checked once for all four.
#[inline(always)]
fn ordered<const MODS: bool>(
    t: glemu_math::Avx512,
    a: Alu,
    op: &Op,
    regs: &mut [Reg],
    res: &mut Reg,
    n: usize,
) {
    let one = [1.0f32; MAX_LANES];
    match a {
        Alu::Mov => by_rows::<MODS, 1>(op, regs, res, |[x]| x),
        Alu::Abs => by_rows::<MODS, 1>(op, regs, res, |[x]| each(|l| x[l].abs())),
        Alu::Add => by_rows::<MODS, 2>(op, regs, res, |[x, y]| t.add(x, y)),
        Alu::Sub => by_rows::<MODS, 2>(op, regs, res, |[x, y]| t.sub(x, y)),
        Alu::Mul => by_rows::<MODS, 2>(op, regs, res, |[x, y]| t.mul(x, y)),
        Alu::Min => by_rows::<MODS, 2>(op, regs, res, |[x, y]| each(|l| fmin(x[l], y[l]))),
        Alu::Max => by_rows::<MODS, 2>(op, regs, res, |[x, y]| each(|l| fmax(x[l], y[l]))),
        Alu::Mad => by_rows::<MODS, 3>(op, regs, res, |[x, y, z]| t.add(t.mul(x, y), z)),
        Alu::Lrp => by_rows::<MODS, 3>(op, regs, res, |[u, x, y]| {
            t.add(t.mul(u, x), t.mul(t.sub(one, u), y))
        }),
        Alu::Cmp => by_rows::<MODS, 3>(op, regs, res, |[x, y, z]| {
            each(|l| match x[l] < 0.0 {
                true => y[l],
                false => z[l],
            })
        }),
        Alu::Dot { n: k, homogeneous } => {
            let (d, mask, sat) = (op.dst, op.mask, op.sat);
            let [a, b, _] = op.src;
            if d >= regs.len() || a.reg >= regs.len() || b.reg >= regs.len() {
                return;
            }
            let row = |regs: &[Reg], o: &Operand, s: usize, c: usize| -> Row {
                let x = comp(regs, o, s, c);
                each(|l| f32::from_bits(modify::<MODS>(o, x[l])))
            };
            // A strip's sources are all read before its results are stored, and strips
            // do not share registers: no overlap.
            for s in 0..STRIPS {
                let mut x = [0f32; MAX_LANES];
                for c in 0..k.min(4) {
                    x = t.add(x, t.mul(row(regs, &a, s, c), row(regs, &b, s, c)));
                }
                if homogeneous {
                    x = t.add(x, row(regs, &b, s, 3));
                }
                let x = saturated(sat, x);
                for c in 0..4 {
                    if mask & (1 << c) != 0 {
                        regs[d][s][c] = x;
                    }
                }
            }
        }
    }
    if op.overlap {
        write_into(op, regs, res, n);
    }
}

/// `x` as bits, saturated to [`lo`, 1] as `operand::finish32` does when `sat` says so.
#[inline(always)]
fn saturated(sat: Option<f32>, x: Row) -> [u32; MAX_LANES] {
    match sat {
        None => each(|l| x[l].to_bits()),
        Some(lo) => each(|l| clamp_lane(x[l].to_bits(), lo)),
    }
}

/// The 16 lanes `f(0) ..= f(15)`, as a plain loop (the compiler vectorises it).
#[inline(always)]
fn each<T: Copy + Default>(f: impl Fn(usize) -> T) -> [T; MAX_LANES] {
    let mut out = [T::default(); MAX_LANES];
    for (l, o) in out.iter_mut().enumerate() {
        *o = f(l);
    }
    out
}

/// A componentwise instruction of `K` sources by [`ordered`]: per written component and
/// strip, `f` of the source rows, stored into the destination (into `res`, saturation
/// left to [`write_into`], when the op overlaps). The op's fields are copied to locals
/// first: the compiler cannot keep them in registers across the stores into `regs`.
#[inline(always)]
fn by_rows<const MODS: bool, const K: usize>(
    op: &Op,
    regs: &mut [Reg],
    res: &mut Reg,
    f: impl Fn([Row; K]) -> Row,
) {
    let (d, mask, sat, overlap) = (op.dst, op.mask, op.sat, op.overlap);
    // Scalars, not `Operand` copies: a copied struct is stored in pieces and read back
    // whole, which the store buffer cannot forward.
    let reg: [usize; K] = std::array::from_fn(|k| op.src[k].reg);
    let and: [u32; K] = std::array::from_fn(|k| op.src[k].and);
    let xor: [u32; K] = std::array::from_fn(|k| op.src[k].xor);
    if d >= regs.len() || reg.iter().any(|&r| r >= regs.len()) {
        return;
    }
    for c in 0..4 {
        if mask & (1 << c) == 0 {
            continue;
        }
        let comps: [usize; K] = std::array::from_fn(|k| op.src[k].swizzle[c] & 3);
        let rows = |regs: &[Reg], s: usize| -> [Row; K] {
            std::array::from_fn(|k| {
                let x = &regs[reg[k]][s][comps[k]];
                each(|l| {
                    f32::from_bits(match MODS {
                        true => (x[l] & and[k]) ^ xor[k],
                        false => x[l],
                    })
                })
            })
        };
        match overlap {
            false => {
                for s in 0..STRIPS {
                    let r = f(rows(regs, s));
                    regs[d][s][c] = saturated(sat, r);
                }
            }
            true => {
                for (s, out) in res.iter_mut().enumerate() {
                    let r = f(rows(regs, s));
                    out[c] = each(|l| r[l].to_bits());
                }
            }
        }
    }
}

#[inline(always)]
fn alu_on<const MODS: bool>(a: Alu, op: &Op, regs: &[Reg], res: &mut Reg, n: usize) {
    let f = f32::from_bits;
    match a {
        Alu::Mov => lanes1::<MODS>(op, regs, res, n, |x| x),
        Alu::Abs => lanes1::<MODS>(op, regs, res, n, |x| x & 0x7fff_ffff),
        Alu::Add => lanes2::<MODS>(op, regs, res, n, |x, y| add(f(x), f(y)).to_bits()),
        Alu::Sub => lanes2::<MODS>(op, regs, res, n, |x, y| (f(x) - f(y)).to_bits()),
        Alu::Mul => lanes2::<MODS>(op, regs, res, n, |x, y| mul(f(x), f(y)).to_bits()),
        Alu::Min => lanes2::<MODS>(op, regs, res, n, |x, y| fmin(f(x), f(y)).to_bits()),
        Alu::Max => lanes2::<MODS>(op, regs, res, n, |x, y| fmax(f(x), f(y)).to_bits()),
        Alu::Mad => lanes3::<MODS>(op, regs, res, n, |x, y, z| mad(f(x), f(y), f(z)).to_bits()),
        Alu::Lrp => lanes3::<MODS>(op, regs, res, n, |t, x, y| lrp(f(t), f(x), f(y)).to_bits()),
        Alu::Cmp => lanes3::<MODS>(op, regs, res, n, |x, y, z| match f(x) < 0.0 {
            true => y,
            false => z,
        }),
        Alu::Dot { n: k, homogeneous } => dot::<MODS>(op, regs, res, n, k, homogeneous),
    }
}

/// Operand `o`'s component `c` (after its swizzle) in strip `s`.
#[inline(always)]
fn comp<'r>(regs: &'r [Reg], o: &Operand, s: usize, c: usize) -> &'r [u32; MAX_LANES] {
    // `& 3`: a component index the compiler sees is in range (no check).
    &regs[o.reg][s][o.swizzle[c & 3] & 3]
}

#[inline(always)]
fn modify<const MODS: bool>(o: &Operand, x: u32) -> u32 {
    match MODS {
        true => o.modify(x),
        false => x,
    }
}

#[inline(always)]
fn lanes1<const MODS: bool>(
    op: &Op,
    regs: &[Reg],
    res: &mut Reg,
    n: usize,
    f: impl Fn(u32) -> u32,
) {
    let a = &op.src[0];
    for c in (0..4).filter(|c| op.mask & (1 << c) != 0) {
        for (s, r) in res.iter_mut().enumerate().take(n) {
            let x = comp(regs, a, s, c);
            for l in 0..MAX_LANES {
                r[c][l] = f(modify::<MODS>(a, x[l]));
            }
        }
    }
}

#[inline(always)]
fn lanes2<const MODS: bool>(
    op: &Op,
    regs: &[Reg],
    res: &mut Reg,
    n: usize,
    f: impl Fn(u32, u32) -> u32,
) {
    let [a, b, _] = &op.src;
    for c in (0..4).filter(|c| op.mask & (1 << c) != 0) {
        for (s, r) in res.iter_mut().enumerate().take(n) {
            let (x, y) = (comp(regs, a, s, c), comp(regs, b, s, c));
            for l in 0..MAX_LANES {
                r[c][l] = f(modify::<MODS>(a, x[l]), modify::<MODS>(b, y[l]));
            }
        }
    }
}

#[inline(always)]
fn lanes3<const MODS: bool>(
    op: &Op,
    regs: &[Reg],
    res: &mut Reg,
    n: usize,
    f: impl Fn(u32, u32, u32) -> u32,
) {
    let [a, b, d] = &op.src;
    for c in (0..4).filter(|c| op.mask & (1 << c) != 0) {
        for (s, r) in res.iter_mut().enumerate().take(n) {
            let (x, y, z) = (
                comp(regs, a, s, c),
                comp(regs, b, s, c),
                comp(regs, d, s, c),
            );
            for l in 0..MAX_LANES {
                r[c][l] = f(
                    modify::<MODS>(a, x[l]),
                    modify::<MODS>(b, y[l]),
                    modify::<MODS>(d, z[l]),
                );
            }
        }
    }
}

/// The interpreter's `alu::dot`: the products of the first `k` components summed from
/// 0.0 in order (+ `b.w`), replicated.
#[inline(always)]
fn dot<const MODS: bool>(
    op: &Op,
    regs: &[Reg],
    res: &mut Reg,
    n: usize,
    k: usize,
    homogeneous: bool,
) {
    let [a, b, _] = &op.src;
    let f = f32::from_bits;
    for (s, r) in res.iter_mut().enumerate().take(n) {
        let mut x = [0f32; MAX_LANES];
        for c in 0..k {
            let (u, v) = (comp(regs, a, s, c), comp(regs, b, s, c));
            for l in 0..MAX_LANES {
                let p = mul(f(modify::<MODS>(a, u[l])), f(modify::<MODS>(b, v[l])));
                x[l] = add(x[l], p);
            }
        }
        if homogeneous {
            let w = comp(regs, b, s, 3);
            for l in 0..MAX_LANES {
                x[l] = add(x[l], f(modify::<MODS>(b, w[l])));
            }
        }
        for c in (0..4).filter(|c| op.mask & (1 << c) != 0) {
            r[c] = x.map(f32::to_bits);
        }
    }
}

/// A texture instruction on every lane of strips `0..n`, into `st.res`: the draw's site
/// for it, else [`Env::texture`] (as `compile::frame::texture` calls it).
fn texture<E: Env + ?Sized>(
    prog: &Program,
    t: TexCallInfo,
    op: &Op,
    st: &mut BlockState,
    n: usize,
    env: &mut E,
) -> Result<bool, ExecErrorKind> {
    let a = &op.src[0];
    let as_is = a.plain() && a.swizzle == [0, 1, 2, 3];
    // A whole unsaturated result from another register's coordinates goes straight into
    // its destination; else into `res`, for [`write`].
    let direct = as_is && op.mask == 0xf && op.sat.is_none() && a.reg != op.dst;
    if !as_is {
        for s in 0..n {
            for c in 0..4 {
                let x = comp(&st.regs, a, s, c);
                for l in 0..MAX_LANES {
                    st.coord[s][c][l] = a.modify(x[l]);
                }
            }
        }
    }
    let (coords, outs): (&Reg, &mut Reg) = match (direct, as_is) {
        (true, _) => source_and_destination(&mut st.regs, a.reg, op.dst)
            .ok_or_else(|| super::error::invariant("block register out of range"))?,
        (false, true) => (
            st.regs
                .get(a.reg)
                .ok_or_else(|| super::error::invariant("block register out of range"))?,
            &mut st.res,
        ),
        (false, false) => (&st.coord, &mut st.res),
    };
    let (coords, outs) = (&coords[..n], &mut outs[..n]);
    // The site is looked up once for all the strips.
    let done = match env.texture_sites().and_then(|x| x.get(prog, op.pc)) {
        Some(site) => site.sample_strips(coords, outs),
        None => 0,
    };
    for (coord, out) in coords.iter().zip(outs.iter_mut()).skip(done) {
        *out = [[0; MAX_LANES]; 4];
        let call = TexCall {
            op: t.op,
            stage: prog.stage,
            unit: t.unit,
            target: t.target,
            lanes: FULL,
            coord,
            operand2: None,
            operand3: None,
            offsets: t.offsets,
            gather_comp: t.gather_comp,
            lod_clamp: t.lod_clamp,
            dtype: DataType::F32,
        };
        env.texture(&call, out)
            .map_err(|e| ExecErrorKind::Env(e.0))?;
    }
    Ok(direct)
}

/// Register `from` to read and register `to` to write at once (`from != to`).
fn source_and_destination(regs: &mut [Reg], from: usize, to: usize) -> Option<(&Reg, &mut Reg)> {
    if from < to {
        let (lo, hi) = regs.split_at_mut(to);
        Some((lo.get(from)?, hi.first_mut()?))
    } else {
        let (lo, hi) = regs.split_at_mut(from);
        let to = lo.get_mut(to)?;
        Some((hi.first()?, to))
    }
}

glemu_math::multiversion! {
    /// `res`'s components of the op's mask into its destination, saturated as
    /// `operand::finish32` does.
    fn write(op: &Op, regs: &mut [Reg], res: &Reg, n: usize) {
        write_into(op, regs, res, n)
    }
}

#[inline(always)]
fn write_into(op: &Op, regs: &mut [Reg], res: &Reg, n: usize) {
    let Some(d) = regs.get_mut(op.dst) else {
        return;
    };
    for c in (0..4).filter(|c| op.mask & (1 << c) != 0) {
        for (dst, r) in d.iter_mut().zip(res.iter()).take(n) {
            match op.sat {
                None => dst[c] = r[c],
                Some(lo) => {
                    for l in 0..MAX_LANES {
                        dst[c][l] = clamp_lane(r[c][l], lo);
                    }
                }
            }
        }
    }
}
