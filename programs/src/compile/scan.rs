//! What the back end compiles: the per-program check that yields a [`Fallback`] reason,
//! the per-instruction choice between native lowering and an interpreted step, and the
//! registers an interpreted step touches.

use crate::ir::{DataType, Extra, File, Index, IndexReg, Inst, Opcode, Program, Src, TexOffset};
use crate::ir::{OpClass, Precision, TexUnit};
use std::fmt;

/// Why a program runs in the interpreter instead of native code.
///
/// ```
/// # use glemu_programs::{assemble, exec::*};
/// # use std::sync::Arc;
/// // A loop count that differs between lanes, around a texture lookup.
/// let p = assemble("!!NVfp4.0\nTEMP t;\nINT TEMP i;\nFLR.S i, fragment.color;\nREP.S i.x;\nTEX t, fragment.texcoord[0], texture[0], 2D;\nENDREP;\nMOV result.color, t;\nEND", None).unwrap();
/// let ex = Executor::new(Arc::new(p)).with_backend(Backend::Native);
/// let Some(Err(f)) = ex.native_status() else { panic!("it compiled") };
/// assert!(f.reason.contains("environment calls"), "{f}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fallback {
    /// A short category ("flow control: BRA", "64-bit registers", ...), the same for
    /// every program that falls back for the same reason.
    pub reason: String,
    /// The instruction that decided it, when one did.
    pub inst: Option<u32>,
}

impl Fallback {
    pub(crate) fn at(inst: usize, reason: impl Into<String>) -> Fallback {
        Fallback {
            reason: reason.into(),
            inst: Some(inst as u32),
        }
    }

    pub(crate) fn program(reason: impl Into<String>) -> Fallback {
        Fallback {
            reason: reason.into(),
            inst: None,
        }
    }
}

impl fmt::Display for Fallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.inst {
            Some(i) => write!(f, "{} (instruction {i})", self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

/// The condition test of a flow instruction (IF, KIL cc, RET cc ...).
pub(crate) fn flow_cond(inst: &Inst) -> Option<crate::ir::CondTest> {
    match &inst.extra {
        Extra::Flow { cond, .. } => *cond,
        Extra::CallIndirect { cond, .. } => *cond,
        _ => None,
    }
}

/// Whether `inst` calls the environment (textures, memory, interpolation, geometry
/// output, subroutine lookup): a kernel that might stop with `RERUN` must not have.
fn calls_env(inst: &Inst) -> bool {
    matches!(
        inst.op.class(),
        OpClass::Texture | OpClass::Memory | OpClass::Interpolate | OpClass::GeometryOutput
    ) || inst.op == Opcode::Cali
        || inst.srcs.iter().any(|s| s.file == File::Buffer)
}

/// Most instructions a kernel may hold once subroutines are inlined at their CALs.
const MAX_INLINED: usize = 3_000;

/// Instructions of `[from, to)` with every CAL's subroutine inlined, `depth` calls deep
/// (up to the interpreter's call depth, beyond which a CAL is an error); stops counting
/// past [`MAX_INLINED`]. `memo[depth]` caches per subroutine start.
fn inlined_size(
    prog: &Program,
    from: usize,
    to: usize,
    depth: usize,
    memo: &mut Vec<Vec<(usize, usize)>>,
) -> usize {
    let mut size = to.saturating_sub(from);
    for inst in prog.instructions.get(from..to).unwrap_or(&[]) {
        if size > MAX_INLINED {
            break;
        }
        if inst.op != Opcode::Cal || depth >= crate::exec::executor::MAX_CALL_DEPTH {
            continue;
        }
        let Some(sub) = flow_target(inst) else {
            continue;
        };
        if memo.len() <= depth + 1 {
            memo.resize(depth + 2, Vec::new());
        }
        let known = memo[depth + 1].iter().find(|(s, _)| *s == sub).map(|m| m.1);
        let n = match known {
            Some(n) => n,
            None => {
                let n = inlined_size(prog, sub, sub_end(prog, sub), depth + 1, memo);
                memo[depth + 1].push((sub, n));
                n
            }
        };
        size = size.saturating_add(n);
    }
    size
}

/// Where the subroutine starting at `sub` ends: at the next label or the end of the text.
pub(crate) fn sub_end(prog: &Program, sub: usize) -> usize {
    prog.labels
        .iter()
        .map(|&l| l as usize)
        .find(|&l| l > sub)
        .unwrap_or(prog.instructions.len())
}

/// A source with the same value in every lane.
pub(crate) fn uniform(s: &Src) -> bool {
    matches!(s.index, Index::Direct(_)) && matches!(s.file, File::Param | File::Immediate)
}

/// The jump, call or block-matching target of a flow instruction.
pub(crate) fn flow_target(inst: &Inst) -> Option<usize> {
    match &inst.extra {
        Extra::Flow { target, .. } => Some(*target as usize),
        _ => None,
    }
}

/// The whole-program check of a structured program (one without BRA or PUSHA/POPA,
/// which `graph::build` checks instead): anything the translator cannot express at all.
pub(crate) fn check(prog: &Program) -> Result<(), Fallback> {
    let n = prog.instructions.len();
    let unstructured = |i: usize| Fallback::at(i, "unstructured flow control");
    // Open blocks: (opcode, pc); IF blocks within the innermost loop make a CONT partial.
    let mut open: Vec<(Opcode, usize)> = Vec::new();
    let mut rerun_at = None;
    let mut env_at = None;
    let mut labels = prog.labels.iter().peekable();
    for (i, inst) in prog.instructions.iter().enumerate() {
        while labels.next_if(|&&l| (l as usize) <= i).is_some() {
            if !open.is_empty() {
                return Err(Fallback::at(i, "label inside a block"));
            }
        }
        use Opcode::*;
        if calls_env(inst) {
            env_at.get_or_insert(i);
        }
        let t = flow_target(inst);
        match inst.op {
            Cali => {
                return Err(Fallback::at(
                    i,
                    format!("flow control: {}", format!("{:?}", inst.op).to_uppercase()),
                ))
            }
            Cal => {
                let target = t.unwrap_or(n);
                if !prog.labels.contains(&(target as u32)) {
                    return Err(unstructured(i));
                }
            }
            If | Rep | Loop => {
                if inst.dtype.is_64() {
                    return Err(Fallback::at(i, "64-bit loop count"));
                }
                if inst.op != If {
                    if let Some(s) = inst.srcs.first() {
                        if !src_native(prog, s) {
                            return Err(Fallback::at(i, "REP of an indexed or 64-bit operand"));
                        }
                        if !uniform(s) {
                            rerun_at.get_or_insert(i);
                        }
                    }
                }
                open.push((inst.op, i));
            }
            Else => match (open.last_mut(), t) {
                (Some((op @ If, at)), Some(t))
                    if flow_target(&prog.instructions[*at]) == Some(i) && t < n =>
                {
                    *op = Else;
                    *at = i;
                }
                _ => return Err(unstructured(i)),
            },
            EndIf => match open.pop() {
                Some((If | Else, at)) if flow_target(&prog.instructions[at]) == Some(i) => {}
                _ => return Err(unstructured(i)),
            },
            EndRep | EndLoop => match open.pop() {
                Some((op @ (Rep | Loop), at))
                    if flow_target(&prog.instructions[at]) == Some(i)
                        && (op == Rep) == (inst.op == EndRep) => {}
                _ => return Err(unstructured(i)),
            },
            Brk | Cont => {
                let Some(l) = open.iter().rposition(|(op, _)| matches!(op, Rep | Loop)) else {
                    return Err(Fallback::at(i, "BRK/CONT outside a loop"));
                };
                if inst.op == Cont && (flow_cond(inst).is_some() || l + 1 < open.len()) {
                    rerun_at.get_or_insert(i);
                }
            }
            Kil => {
                if let Some(s) = inst.srcs.first() {
                    if !src_native(prog, s) {
                        return Err(Fallback::at(i, "KIL of an indexed or 64-bit operand"));
                    }
                }
            }
            _ => {}
        }
    }
    if !open.is_empty() {
        return Err(unstructured(n));
    }
    if inlined_size(prog, prog.entry as usize, n, 0, &mut Vec::new()) > MAX_INLINED {
        return Err(Fallback::program("subroutine calls too deep to inline"));
    }
    if let (Some(r), Some(_)) = (rerun_at, env_at) {
        return Err(Fallback::at(
            r,
            "per-lane loop count or partial CONT with environment calls",
        ));
    }
    Ok(())
}

/// What a control patch's lock-step kernel (`Variant::lockstep`) cannot run: the
/// environment calls, whose order between the batches the kernel does not keep.
pub(crate) fn check_lockstep(prog: &Program) -> Result<(), Fallback> {
    match prog.instructions.iter().position(calls_env) {
        Some(i) => Err(Fallback::at(
            i,
            "a control patch in lock-step with environment calls",
        )),
        None => Ok(()),
    }
}

/// Whether `inst` reads or writes a result register, or reads the output patch
/// (`vertex.out`, `primitive.out`): in a lock-step kernel, a point where the order between
/// batches matters.
pub(crate) fn reads_or_writes_patch(prog: &Program, inst: &Inst) -> bool {
    let patch_input = |s: &Src| {
        let (base, len) = range(&s.index);
        prog.inputs
            .iter()
            .skip(base as usize)
            .take(len as usize)
            .any(|i| is_output_patch(&i.binding))
    };
    inst.dst.as_ref().is_some_and(|d| d.file == File::Output)
        || inst
            .srcs
            .iter()
            .any(|s| s.file == File::Output || (s.file == File::Input && patch_input(s)))
}

/// Whether an input is part of the output patch (`vertex.out`, `primitive.out`), which
/// changes between the calls of a lock-step kernel.
pub(crate) fn is_output_patch(binding: &crate::ir::InputBinding) -> bool {
    use crate::ir::InputBinding;
    matches!(
        binding,
        InputBinding::VertexOut(_) | InputBinding::PatchOut(_)
    )
}

/// Whether the program has 64-bit (LONG) registers, whose high words only interpreted
/// steps read and write (in the lane state).
pub(crate) fn has_long(prog: &Program) -> bool {
    prog.temps
        .iter()
        .chain(prog.inputs.iter().map(|s| &s.info))
        .chain(prog.outputs.iter().map(|s| &s.info))
        .any(|i| i.long)
}

/// A 32-bit register the kernel keeps (LONG ones are read and written by interpreted
/// steps only, which see their high words).
fn short_reg(prog: &Program, file: File, i: u32) -> bool {
    let i = i as usize;
    match file {
        File::Temp => prog.temps.get(i).is_some_and(|r| !r.long),
        File::Output => prog.outputs.get(i).is_some_and(|r| !r.info.long),
        File::Input => prog.inputs.get(i).is_some_and(|r| !r.info.long),
        _ => false,
    }
}

/// A source the translator loads itself (else the instruction is interpreted).
pub(crate) fn src_native(prog: &Program, s: &Src) -> bool {
    let Index::Direct(i) = s.index else {
        return false;
    };
    match s.file {
        File::Temp | File::Output => short_reg(prog, s.file, i),
        File::Input => {
            short_reg(prog, s.file, i) && matches!(s.vertex, None | Some(Index::Direct(_)))
        }
        File::Param | File::Immediate => true,
        File::Address | File::Buffer => false,
    }
}

/// Full precision, 32-bit, a direct temp/output destination (if any) and sources the
/// translator loads itself.
fn operands_native(prog: &Program, inst: &Inst) -> bool {
    if inst.precision != Precision::Full || inst.dtype.is_64() {
        return false;
    }
    if let Some(d) = &inst.dst {
        let ok = match (d.file, d.index) {
            (File::Temp | File::Output, Index::Direct(i)) => short_reg(prog, d.file, i),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    inst.srcs.iter().all(|s| src_native(prog, s))
}

/// A texture instruction whose operands the kernel loads and whose unit and offsets are
/// fixed at compile time: one call into the sampler with SoA operands.
pub(crate) fn native_texture(prog: &Program, inst: &Inst) -> bool {
    let Extra::Tex(info) = &inst.extra else {
        return false;
    };
    crate::exec::texture::tex_op(inst.op).is_some()
        && matches!(info.unit, TexUnit::Fixed(_))
        && !matches!(info.offset, Some(TexOffset::Register(_)))
        && inst.srcs.len() <= 3
        && operands_native(prog, inst)
}

/// Whether `inst` is lowered to vector code (else it runs as an interpreted step).
pub(crate) fn native(prog: &Program, inst: &Inst) -> bool {
    use Opcode::*;
    if !operands_native(prog, inst) {
        return false;
    }
    let int = matches!(inst.dtype, DataType::S32 | DataType::U32);
    let n = inst.srcs.len();
    let (min, ok) = match inst.op {
        Mov | Swz | Abs | Frc | Flr | Ceil | Round | Trunc | Ssg | Not => (1, true),
        Rcp | Rsq | Nrm | Ddx | Ddy => (1, !int),
        Sin | Cos | Ex2 | Lg2 | Scs => (1, !int),
        Pow => (2, !int),
        Add | Sub | Mad => (
            if inst.op == Mad { 3 } else { 2 },
            !int || inst.cc_update.is_none(),
        ),
        Mul | Min | Max | And | Or | Xor => (2, true),
        Seq | Sne | Slt | Sle | Sgt | Sge => (2, true),
        Dp2 | Dp3 | Dp4 | Dph | Dst | Xpd => (2, !int),
        Div => (2, !int),
        Cmp => (3, true),
        Lrp | Dp2a => (3, !int),
        Sfl | Str => (0, true),
        _ => (0, false),
    };
    ok && n >= min
}

/// Registers an interpreted step may read or write (beyond inputs and params, which live
/// in memory already): the kernel stores them before the step and reloads the written
/// ones after it.
#[derive(Default, Debug)]
pub(crate) struct Touch {
    pub temps: Vec<(u32, u32)>,
    pub outputs: Vec<(u32, u32)>,
    pub temps_written: Vec<(u32, u32)>,
    pub outputs_written: Vec<(u32, u32)>,
    pub all_outputs: bool,
    pub address: bool,
    pub address_written: bool,
    pub cc: bool,
}

fn range(index: &Index) -> (u32, u32) {
    match *index {
        Index::Direct(i) => (i, 1),
        Index::Relative { base, len, .. } => (base, len),
    }
}

impl Touch {
    fn index_reg(&mut self, r: IndexReg) {
        match r {
            IndexReg::Address { .. } => self.address = true,
            IndexReg::Temp { reg, .. } => self.temps.push((reg, 1)),
            IndexReg::Input { .. } | IndexReg::LoopCounter => {}
        }
    }

    fn index(&mut self, index: &Index) {
        if let Index::Relative { reg, .. } = *index {
            self.index_reg(reg);
        }
    }

    fn src(&mut self, s: &Src) {
        self.index(&s.index);
        if let Some(v) = &s.vertex {
            self.index(v);
        }
        match s.file {
            File::Temp => self.temps.push(range(&s.index)),
            File::Output => self.outputs.push(range(&s.index)),
            File::Address => self.address = true,
            _ => {}
        }
    }

    pub(crate) fn of(inst: &Inst) -> Touch {
        let mut t = Touch::default();
        for s in &inst.srcs {
            t.src(s);
        }
        match &inst.extra {
            Extra::Tex(info) => {
                if let Some(TexOffset::Register(s)) = &info.offset {
                    t.src(s);
                }
                if let TexUnit::Relative { reg, .. } = info.unit {
                    t.index_reg(reg);
                }
            }
            Extra::Mem(m) => {
                if let Some(e) = &m.element {
                    t.index(e);
                }
            }
            _ => {}
        }
        if let Some(d) = &inst.dst {
            t.index(&d.index);
            let r = range(&d.index);
            match d.file {
                File::Temp => {
                    t.temps.push(r);
                    t.temps_written.push(r);
                }
                File::Output => {
                    t.outputs.push(r);
                    t.outputs_written.push(r);
                }
                File::Address => {
                    t.address = true;
                    t.address_written = true;
                }
                _ => {}
            }
            if d.cond.is_some() || inst.cc_update.is_some() {
                t.cc = true;
            }
        }
        if matches!(inst.op, Opcode::Emit | Opcode::Emits | Opcode::EndPrim) {
            t.all_outputs = true;
        }
        t
    }
}
