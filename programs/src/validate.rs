//! Validation of the compiled form between the front ends and execution (as naga
//! validates a module before any back end sees it).
//!
//! The front ends build [`Program`]s that hold these invariants by construction;
//! [`validate`] checks them for any `Program`, including ones built or edited by hand, so
//! that what the executor may assume is written down in one place:
//!
//! - every operand names a slot of its register file (`Temp` < `temps`, `Input` <
//!   `inputs`, `Param` < `params`, `Output` < `outputs`, `Address` < `address_regs`), a
//!   relatively addressed array lies inside its file, and the register a run-time index
//!   comes from exists; buffer operands name a buffer variable;
//! - components are `0..4`, write masks four bits, condition registers 0 or 1;
//! - every instruction has at least the source operands its opcode reads
//!   ([`Opcode::sources`]);
//! - destinations are temps or results; ARL/ARA/ARR/POPA write an address register;
//! - flow control is matched: IF targets its ELSE or ENDIF, ELSE an ENDIF, REP/LOOP
//!   their ENDREP/ENDLOOP and back, BRA/CAL a place in the program, CALI a subroutine
//!   variable whose functions are places in the program; the entry point and labels are
//!   places in the program;
//! - loops nest: REP/LOOP bodies do not cross, ENDREP/ENDLOOP closes the innermost
//!   open loop, BRK/CONT sit inside a loop, and no jump enters a loop body (IF/ELSE land
//!   in their own loop or an enclosing one; calls, branches, labels, subroutines and the
//!   entry point outside every loop), so whenever a BRK, CONT, ENDREP or ENDLOOP runs
//!   the innermost frame of the run is a loop's;
//! - texture instructions carry their texture operand, memory instructions their memory
//!   operand naming a variable that exists (ATOM/ATOMCTR/ATOMIM an operation, image
//!   instructions an image and a target; LDC/LOAD/STORE/ATOM buffer memory, ATOM a
//!   32- or 64-bit type or F16), CVT its storage types, IPAx an attribute;
//! - a `Buffer` operand read as a value names a BUFFER/BUFFER4 variable: CBUFFER,
//!   STORAGE and SHARED variables are only the memory operand of LDC/LOAD (operand 0)
//!   or STORE/ATOM (operand 1).
//!
//! [`crate::assemble`] validates what its front ends produce, and an
//! [`crate::exec::Executor`] refuses to run a program that does not validate.

use crate::ir::*;
use std::fmt;

/// Why a compiled program is not valid: the instruction (if the fault is in one) and
/// the invariant it breaks.
///
/// ```
/// use glemu_programs::{assemble, validate::validate};
/// let mut p = assemble("!!ARBvp1.0\nTEMP t;\nMOV t, vertex.position;\nMOV result.position, t;\nEND", None).unwrap();
/// assert!(validate(&p).is_ok());
/// p.temps.clear();
/// let e = validate(&p).unwrap_err();
/// assert_eq!(e.inst, Some(0));
/// assert_eq!(e.to_string(), "instruction 0: temp 0 of 0");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// Index of the offending instruction; `None` for program-wide faults (entry point,
    /// labels, arrays, subroutine tables).
    pub inst: Option<u32>,
    /// The broken invariant.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.inst {
            Some(i) => write!(f, "instruction {i}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ValidationError {}

/// Checks every invariant of the module comment.
pub fn validate(prog: &Program) -> Result<(), ValidationError> {
    let v = Validator { prog };
    let len = prog.instructions.len() as u64;
    let global = |message: String| ValidationError {
        inst: None,
        message,
    };
    if u64::from(prog.entry) > len {
        return Err(global(format!("entry point {} of {len}", prog.entry)));
    }
    if let Some(l) = prog.labels.iter().find(|&&l| u64::from(l) > len) {
        return Err(global(format!("label at {l} of {len}")));
    }
    for &(first, n) in &prog.temp_arrays {
        if u64::from(first) + u64::from(n) > prog.temps.len() as u64 {
            return Err(global(format!(
                "temp array {first}+{n} of {} temps",
                prog.temps.len()
            )));
        }
    }
    for sv in &prog.subroutine_vars {
        if let Some((_, at)) = sv.functions.iter().find(|(_, at)| u64::from(*at) > len) {
            return Err(global(format!(
                "subroutine variable '{}': function at {at} of {len}",
                sv.name
            )));
        }
    }
    for (i, inst) in prog.instructions.iter().enumerate() {
        v.inst(inst).map_err(|message| ValidationError {
            inst: Some(i as u32),
            message,
        })?;
    }
    loops(prog)
}

/// The loop structure of the module comment. Runs after every instruction validated, so
/// flow targets are in range and name the right opcodes.
fn loops(prog: &Program) -> Result<(), ValidationError> {
    let insts = &prog.instructions;
    let at = |i: usize, message: String| ValidationError {
        inst: Some(i as u32),
        message,
    };
    // owner[i]: the REP/LOOP whose body (after it, up to its ENDREP/ENDLOOP) holds
    // instruction i; owner[len] (the end of the program) is outside every loop.
    let mut owner: Vec<Option<u32>> = vec![None; insts.len() + 1];
    let mut open: Vec<(u32, u32)> = Vec::new();
    for (i, inst) in insts.iter().enumerate() {
        while open.last().is_some_and(|&(_, end)| (end as usize) < i) {
            open.pop();
        }
        owner[i] = open.last().map(|&(start, _)| start);
        let end = match &inst.extra {
            Extra::Flow { target, .. } => *target,
            _ => 0,
        };
        match inst.op {
            Opcode::Rep | Opcode::Loop => {
                if end as usize <= i {
                    return Err(at(i, format!("{:?} ends at {end}, not after it", inst.op)));
                }
                if let Some(&(start, outer)) = open.last().filter(|&&(_, outer)| end > outer) {
                    return Err(at(
                        i,
                        format!("loop {i}..{end} crosses the end of loop {start}..{outer}"),
                    ));
                }
                open.push((i as u32, end));
            }
            Opcode::EndRep | Opcode::EndLoop
                if open.last().map(|&(_, end)| end as usize) != Some(i) =>
            {
                return Err(at(i, format!("{:?} closes no open loop", inst.op)));
            }
            Opcode::Brk | Opcode::Cont if owner[i].is_none() => {
                return Err(at(i, format!("{:?} outside a loop", inst.op)));
            }
            _ => {}
        }
    }
    // Whether `outer` is `inner` or a loop around it (None: outside every loop).
    let encloses = |outer: Option<u32>, mut inner: Option<u32>| loop {
        if inner == outer {
            return true;
        }
        match inner {
            Some(start) => inner = owner.get(start as usize).copied().flatten(),
            None => return false,
        }
    };
    let owner_of = |t: u32| owner.get(t as usize).copied().flatten();
    let outside = |what: &str, t: u32| -> Result<(), String> {
        match owner_of(t) {
            Some(start) => Err(format!("{what} at {t} is inside the loop at {start}")),
            None => Ok(()),
        }
    };
    outside("the entry point", prog.entry).map_err(|m| ValidationError {
        inst: None,
        message: m,
    })?;
    for (what, t) in prog.labels.iter().map(|&l| ("a label", l)).chain(
        prog.subroutine_vars
            .iter()
            .flat_map(|sv| sv.functions.iter().map(|&(_, t)| ("a subroutine", t))),
    ) {
        outside(what, t).map_err(|message| ValidationError {
            inst: None,
            message,
        })?;
    }
    for (i, inst) in insts.iter().enumerate() {
        let Extra::Flow { target, .. } = inst.extra else {
            continue;
        };
        match inst.op {
            Opcode::If | Opcode::Else if !encloses(owner_of(target), owner[i]) => {
                return Err(at(
                    i,
                    format!("{:?} jumps into a loop body (to {target})", inst.op),
                ));
            }
            Opcode::Bra | Opcode::Cal => {
                outside(&format!("{:?} target", inst.op), target).map_err(|m| at(i, m))?
            }
            _ => {}
        }
    }
    Ok(())
}

type Check = Result<(), String>;

struct Validator<'a> {
    prog: &'a Program,
}

fn within(what: &str, i: u64, n: u64) -> Check {
    if i < n {
        Ok(())
    } else {
        Err(format!("{what} {i} of {n}"))
    }
}

fn comp(c: Comp) -> Check {
    within("component", u64::from(c), 4)
}

fn cond(c: &Option<CondTest>) -> Check {
    if let Some(t) = c {
        within("condition register", u64::from(t.cc), 2)?;
        t.swizzle.iter().try_for_each(|&c| comp(c))?;
    }
    Ok(())
}

impl Validator<'_> {
    /// Slots of `file`, `None` for files without a slot count (buffers, immediates).
    fn slots(&self, file: File) -> Option<(&'static str, u64)> {
        let p = self.prog;
        Some(match file {
            File::Temp => ("temp", p.temps.len() as u64),
            File::Input => ("input", p.inputs.len() as u64),
            File::Param => ("parameter", p.params.len() as u64),
            File::Output => ("result", p.outputs.len() as u64),
            File::Address => ("address register", u64::from(p.address_regs)),
            File::Buffer | File::Immediate => return None,
        })
    }

    fn index_reg(&self, r: &IndexReg) -> Check {
        let p = self.prog;
        match *r {
            IndexReg::Address { reg, comp: c } => {
                within(
                    "index address register",
                    u64::from(reg),
                    u64::from(p.address_regs),
                )?;
                comp(c)
            }
            IndexReg::Temp { reg, comp: c } => {
                within("index temp", u64::from(reg), p.temps.len() as u64)?;
                comp(c)
            }
            IndexReg::Input { slot, comp: c } => {
                within("index input", u64::from(slot), p.inputs.len() as u64)?;
                comp(c)
            }
            IndexReg::LoopCounter => Ok(()),
        }
    }

    /// `index` into `file`: in range when the file has a slot count.
    fn index(&self, file: File, index: &Index) -> Check {
        let slots = self.slots(file);
        match index {
            Index::Direct(i) => match slots {
                Some((what, n)) => within(what, u64::from(*i), n),
                None => Ok(()),
            },
            Index::Relative { reg, base, len, .. } => {
                self.index_reg(reg)?;
                match slots {
                    Some((what, n)) if u64::from(*base) + u64::from(*len) > n => {
                        Err(format!("{what} array {base}+{len} of {n}"))
                    }
                    _ => Ok(()),
                }
            }
        }
    }

    /// A source operand of `op`.
    fn src(&self, op: Opcode, s: &Src) -> Check {
        self.index(s.file, &s.index)?;
        if let Some(Index::Relative { reg, .. }) = &s.vertex {
            self.index_reg(reg)?;
        }
        if s.file == File::Buffer {
            // ATOMCTR's counter operand names a counter variable, the others a buffer.
            let (what, n) = if op == Opcode::Atomctr {
                ("counter variable", self.prog.counters.len())
            } else {
                ("buffer variable", self.prog.buffers.len())
            };
            within(what, u64::from(s.buffer), n as u64)?;
        }
        s.swizzle.iter().try_for_each(|&c| comp(c))?;
        if let Some(ext) = &s.ext_swizzle {
            for e in ext {
                if let ExtSwizzle::Comp(c) | ExtSwizzle::NegComp(c) = e {
                    comp(*c)?;
                }
            }
        }
        Ok(())
    }

    fn dst(&self, op: Opcode, d: &Dst) -> Check {
        match d.file {
            File::Temp | File::Output => {}
            File::Address
                if matches!(op, Opcode::Arl | Opcode::Ara | Opcode::Arr | Opcode::Popa) => {}
            other => return Err(format!("{op:?} writes {other:?}")),
        }
        self.index(d.file, &d.index)?;
        if d.mask > 0xf {
            return Err(format!("write mask {:#x}", d.mask));
        }
        cond(&d.cond)
    }

    /// `Extra::Flow`'s target for `op`, which must be one of `ops` (any place in the
    /// program, its end included, when `ops` is empty).
    fn target(&self, op: Opcode, extra: &Extra, ops: &[Opcode]) -> Check {
        let Extra::Flow { target, cond: c } = extra else {
            return Err(format!("{op:?} without a flow target"));
        };
        cond(c)?;
        let len = self.prog.instructions.len() as u64;
        if ops.is_empty() {
            return if u64::from(*target) <= len {
                Ok(())
            } else {
                Err(format!("{op:?} target {target} of {len}"))
            };
        }
        match self.prog.instructions.get(*target as usize) {
            Some(t) if ops.contains(&t.op) => Ok(()),
            Some(t) => Err(format!("{op:?} targets {:?}, not {ops:?}", t.op)),
            None => Err(format!("{op:?} target {target} of {len}")),
        }
    }

    fn mem(&self, inst: &Inst) -> Check {
        use Opcode::*;
        let Extra::Mem(m) = &inst.extra else {
            return Err(format!("{:?} without a memory operand", inst.op));
        };
        let p = self.prog;
        let buffers = p.buffers.len() as u64;
        match m.space {
            MemSpace::Global => {}
            MemSpace::Constant { buffer }
            | MemSpace::Storage { buffer }
            | MemSpace::Shared { buffer } => within("buffer variable", u64::from(buffer), buffers)?,
            MemSpace::Counter { counter } => within(
                "counter variable",
                u64::from(counter),
                p.counters.len() as u64,
            )?,
            MemSpace::Image { image } => {
                within("image variable", u64::from(image), p.images.len() as u64)?
            }
        }
        if let Some(Index::Relative { reg, .. }) = &m.element {
            self.index_reg(reg)?;
        }
        if matches!(inst.op, Atom | Atomctr | Atomim) && m.atom.is_none() {
            return Err(format!("{:?} without an operation", inst.op));
        }
        if matches!(inst.op, Ldc | Load | Store | Atom)
            && matches!(m.space, MemSpace::Counter { .. } | MemSpace::Image { .. })
        {
            return Err(format!("{:?} on {:?}, not buffer memory", inst.op, m.space));
        }
        if inst.op == Atom && m.ty.scalar.bytes() < 4 && m.ty.scalar != MemScalar::F16 {
            return Err(format!("ATOM on {:?} (8/16-bit integers)", m.ty.scalar));
        }
        if inst.op == Atomctr && !matches!(m.space, MemSpace::Counter { .. }) {
            return Err("ATOMCTR without a counter".into());
        }
        if matches!(inst.op, Loadim | Storeim | Atomim) {
            if !matches!(m.space, MemSpace::Image { .. }) {
                return Err(format!("{:?} without an image", inst.op));
            }
            if m.target.is_none() {
                return Err(format!("{:?} without an image target", inst.op));
            }
        }
        Ok(())
    }

    /// A `Buffer` operand at `pos` of `op`: read as a value unless it is the memory
    /// operand of a buffer memory instruction (or ATOMCTR's counter).
    fn buffer_use(&self, op: Opcode, pos: usize, s: &Src) -> Check {
        use Opcode::*;
        if s.file != File::Buffer || op == Atomctr {
            return Ok(());
        }
        let memory_operand = match op {
            Ldc | Load => pos == 0,
            Store | Atom => pos == 1,
            _ => false,
        };
        match self.prog.buffers.get(s.buffer as usize).map(|b| b.kind) {
            Some(BufferKind::Buffer | BufferKind::Buffer4) | None => Ok(()),
            Some(_) if memory_operand => Ok(()),
            Some(kind) => Err(format!(
                "operand {pos}: a {kind:?} variable read as a value (only BUFFER and BUFFER4 are)"
            )),
        }
    }

    fn inst(&self, inst: &Inst) -> Check {
        use Opcode::*;
        let need = inst.op.sources();
        if inst.srcs.len() < need {
            return Err(format!(
                "{:?} with {} source operands, needs {need}",
                inst.op,
                inst.srcs.len()
            ));
        }
        for (pos, s) in inst.srcs.iter().enumerate() {
            self.src(inst.op, s)?;
            self.buffer_use(inst.op, pos, s)?;
        }
        if let Some(d) = &inst.dst {
            self.dst(inst.op, d)?;
        }
        if matches!(inst.op, Arl | Ara | Arr | Popa)
            && !matches!(&inst.dst, Some(d) if d.file == File::Address)
        {
            return Err(format!(
                "{:?} without an address register destination",
                inst.op
            ));
        }
        if let Some(cc) = inst.cc_update {
            within("condition register", u64::from(cc), 2)?;
        }
        match inst.op.class() {
            OpClass::Texture => {
                let Extra::Tex(t) = &inst.extra else {
                    return Err(format!("{:?} without a texture operand", inst.op));
                };
                if let TexUnit::Relative { reg, .. } = &t.unit {
                    self.index_reg(reg)?;
                }
                if let Some(TexOffset::Register(s)) = &t.offset {
                    self.src(inst.op, s)?;
                }
                comp(t.gather_comp)?;
            }
            OpClass::Memory if inst.op != Membar => self.mem(inst)?,
            OpClass::Interpolate => match inst.srcs.first() {
                Some(s) if s.file == File::Input => {}
                _ => {
                    return Err(format!(
                        "{:?} of something other than an attribute",
                        inst.op
                    ))
                }
            },
            _ => {}
        }
        match inst.op {
            If => self.target(If, &inst.extra, &[Else, EndIf])?,
            Else => self.target(Else, &inst.extra, &[EndIf])?,
            Rep => self.target(Rep, &inst.extra, &[EndRep])?,
            Loop => self.target(Loop, &inst.extra, &[EndLoop])?,
            EndRep | EndLoop if inst.extra != Extra::None => {
                self.target(inst.op, &inst.extra, &[Rep, Loop])?
            }
            Bra | Cal => self.target(inst.op, &inst.extra, &[])?,
            Cali => {
                let Extra::CallIndirect {
                    var,
                    array_index,
                    cond: c,
                } = &inst.extra
                else {
                    return Err("CALI without a subroutine variable".into());
                };
                within(
                    "subroutine variable",
                    u64::from(*var),
                    self.prog.subroutine_vars.len() as u64,
                )?;
                if let Some(Index::Relative { reg, .. }) = array_index {
                    self.index_reg(reg)?;
                }
                cond(c)?;
            }
            Cvt if !matches!(inst.extra, Extra::Convert { .. }) => {
                return Err("CVT without its storage types".into())
            }
            _ => {
                if let Extra::Flow { cond: c, .. } = &inst.extra {
                    cond(c)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assemble;

    fn prog(text: &str) -> Program {
        assemble(text, None).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The error of validating `p` after `edit`.
    fn broken(p: &Program, edit: impl FnOnce(&mut Program)) -> ValidationError {
        assert_eq!(validate(p), Ok(()));
        let mut q = p.clone();
        edit(&mut q);
        match validate(&q) {
            Err(e) => e,
            Ok(()) => panic!("the edited program validated"),
        }
    }

    const LOOPS: &str = "!!NVfp4.0\nTEMP R0;\nMOV.CC R0, fragment.color;\nIF GT.x;\nADD R0, R0, 1;\n\
        ELSE;\nADD R0, R0, 2;\nENDIF;\nREP {2}.x;\nADD R0, R0, 1;\nENDREP;\nMOV result.color, R0;\nEND\n";

    #[test]
    fn operands_must_name_slots() {
        let p = prog(LOOPS);
        let e = broken(&p, |q| q.instructions[0].srcs[0].index = Index::Direct(7));
        assert_eq!(e.to_string(), "instruction 0: input 7 of 1");
        let e = broken(&p, |q| {
            if let Some(d) = q.instructions[2].dst.as_mut() {
                d.file = File::Param;
            }
        });
        assert_eq!(e.message, "Add writes Param");
        let e = broken(&p, |q| {
            q.instructions[2].srcs[0].index = Index::Relative {
                reg: IndexReg::Address { reg: 0, comp: 0 },
                offset: 0,
                base: 0,
                len: 1,
            }
        });
        assert_eq!(e.message, "index address register 0 of 0");
        let e = broken(&p, |q| q.instructions[2].srcs[1].swizzle[3] = 4);
        assert_eq!(e.message, "component 4 of 4");
        let e = broken(&p, |q| q.params.clear());
        assert_eq!(e.message, "parameter 0 of 0");
    }

    #[test]
    fn flow_control_must_match() {
        let p = prog(LOOPS);
        let at = |op| p.instructions.iter().position(|i| i.op == op).unwrap_or(0);
        let (if_at, rep_at) = (at(Opcode::If), at(Opcode::Rep));
        let e = broken(&p, |q| {
            q.instructions[if_at].extra = Extra::Flow {
                target: rep_at as u32,
                cond: None,
            }
        });
        assert_eq!(e.message, "If targets Rep, not [Else, EndIf]");
        assert_eq!(e.inst, Some(if_at as u32));
        let e = broken(&p, |q| q.instructions[rep_at].extra = Extra::None);
        assert_eq!(e.message, "Rep without a flow target");
        let e = broken(&p, |q| {
            q.instructions[rep_at].extra = Extra::Flow {
                target: u32::MAX,
                cond: None,
            }
        });
        assert!(e.message.starts_with("Rep target 4294967295 of"), "{e}");
        let e = broken(&p, |q| q.entry = 99);
        assert_eq!((e.inst, e.message.as_str()), (None, "entry point 99 of 10"));
    }

    #[test]
    fn subroutines_must_exist() {
        let t = "!!NVvp5.0\nSUBROUTINETYPE T { a };\nSUBROUTINE T v = program.subroutine[0];\n\
                 main:\nCALI v;\nRET;\na SUBROUTINENUM(1):\nRET;\nEND";
        let p = prog(t);
        let e = broken(&p, |q| q.subroutine_vars.clear());
        assert_eq!(e.message, "subroutine variable 0 of 0");
        let e = broken(&p, |q| q.subroutine_vars[0].functions[0].1 = 50);
        assert_eq!(e.message, "subroutine variable 'v': function at 50 of 3");
    }

    #[test]
    fn memory_and_texture_operands_must_exist() {
        let p = prog("!!NVfp5.0\nOPTION NV_shader_atomic_counters;\nCOUNTER c = program.counter[0][0];\n\
             UINT TEMP r;\nATOMCTR.U32.INCR r.x, c;\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nEND");
        let e = broken(&p, |q| q.counters.clear());
        assert_eq!(e.message, "counter variable 0 of 0");
        let e = broken(&p, |q| {
            if let Extra::Mem(m) = &mut q.instructions[0].extra {
                m.atom = None;
            }
        });
        assert_eq!(e.message, "Atomctr without an operation");
        let e = broken(&p, |q| q.instructions[1].extra = Extra::None);
        assert_eq!(e.message, "Tex without a texture operand");
    }

    const MEMORY: &str = "!!NVfp5.0\nCBUFFER cb[] = { program.buffer[0] };\nUINT TEMP r;\n\
        LONG TEMP p;\nLDC.U32 r, cb[4];\nATOM.ADD.U32 r.x, r.x, p.x;\nMOV.U result.color, r;\nEND";

    /// The memory operand of instruction `i` of `q`.
    fn mem(q: &mut Program, i: usize) -> &mut MemInfo {
        match &mut q.instructions[i].extra {
            Extra::Mem(m) => m,
            other => panic!("no memory operand: {other:?}"),
        }
    }

    #[test]
    fn instructions_have_the_operands_their_opcode_reads() {
        let p = prog(LOOPS);
        let e = broken(&p, |q| {
            q.instructions[2].srcs.pop();
        });
        assert_eq!(
            e.to_string(),
            "instruction 2: Add with 1 source operands, needs 2"
        );
        let p = prog(MEMORY);
        let e = broken(&p, |q| {
            q.instructions[1].srcs.truncate(1);
        });
        assert_eq!(e.message, "Atom with 1 source operands, needs 2");
    }

    #[test]
    fn address_instructions_write_address_registers() {
        let p = prog(
            "!!ARBvp1.0\nADDRESS a;\nPARAM c[2] = { program.env[0..1] };\n\
             ARL a.x, vertex.position.x;\nMOV result.position, c[a.x];\nEND",
        );
        let e = broken(&p, |q| {
            if let Some(d) = q.instructions[0].dst.as_mut() {
                d.file = File::Temp;
            }
            q.temps.push(RegInfo::default());
        });
        assert_eq!(e.message, "Arl without an address register destination");
        let e = broken(&p, |q| q.instructions[0].dst = None);
        assert_eq!(e.message, "Arl without an address register destination");
    }

    #[test]
    fn buffer_memory_instructions_reach_buffer_memory() {
        let p = prog(MEMORY);
        let e = broken(&p, |q| {
            q.images.push(ImageVar {
                name: "i".into(),
                first: 0,
                len: 1,
            });
            mem(q, 1).space = MemSpace::Image { image: 0 };
        });
        assert_eq!(e.inst, Some(1));
        assert_eq!(e.message, "Atom on Image { image: 0 }, not buffer memory");
    }

    #[test]
    fn atomics_are_32_or_64_bits_wide() {
        let p = prog(MEMORY);
        let e = broken(&p, |q| mem(q, 1).ty.scalar = MemScalar::U16);
        assert_eq!(e.message, "ATOM on U16 (8/16-bit integers)");
    }

    #[test]
    fn only_buffer_and_buffer4_operands_are_values() {
        let p = prog(MEMORY);
        // The CBUFFER operand of LDC is its memory; as ATOM's data it would be a value.
        let cb = p.instructions[0].srcs[0].clone();
        let e = broken(&p, |q| q.instructions[1].srcs[0] = cb);
        assert_eq!(
            e.message,
            "operand 0: a CBuffer variable read as a value (only BUFFER and BUFFER4 are)"
        );
    }

    #[test]
    fn loops_nest_and_are_entered_at_their_start() {
        let p = prog(LOOPS);
        let at = |op| p.instructions.iter().position(|i| i.op == op).unwrap_or(0);
        let (if_at, else_at, rep_at, end_at) = (
            at(Opcode::If),
            at(Opcode::Else),
            at(Opcode::Rep),
            at(Opcode::EndRep),
        );
        // BRK where the first ADD is: outside the loop.
        let brk = Inst {
            op: Opcode::Brk,
            extra: Extra::Flow {
                target: rep_at as u32,
                cond: None,
            },
            srcs: Default::default(),
            dst: None,
            ..p.instructions[if_at + 1].clone()
        };
        let e = broken(&p, |q| q.instructions[if_at + 1] = brk.clone());
        assert_eq!(
            (e.inst, e.message.as_str()),
            (Some(if_at as u32 + 1), "Brk outside a loop")
        );
        // ELSE jumping to an ENDIF inside the loop.
        let endif = |q: &mut Program, i: usize| {
            q.instructions[i].op = Opcode::EndIf;
            q.instructions[i].extra = Extra::None;
        };
        let e = broken(&p, |q| {
            endif(q, rep_at + 1);
            q.instructions[else_at].extra = Extra::Flow {
                target: rep_at as u32 + 1,
                cond: None,
            };
        });
        assert_eq!(
            e.message,
            format!("Else jumps into a loop body (to {})", rep_at + 1)
        );
        // A label (a CAL target) inside the loop.
        let e = broken(&p, |q| q.labels.push(rep_at as u32 + 1));
        assert_eq!(
            (e.inst, e.message),
            (
                None,
                format!("a label at {} is inside the loop at {rep_at}", rep_at + 1)
            )
        );
        // An ENDREP inside the loop that closes nothing.
        let e = broken(&p, |q| {
            q.instructions[rep_at + 1].op = Opcode::EndRep;
            q.instructions[rep_at + 1].extra = Extra::None;
        });
        assert_eq!(e.message, "EndRep closes no open loop");
        // A second loop starting inside the first and ending after it.
        let e = broken(&p, |q| {
            q.instructions[rep_at + 1].op = Opcode::Rep;
            q.instructions[rep_at + 1].extra = Extra::Flow {
                target: end_at as u32 + 1,
                cond: None,
            };
            q.instructions[end_at + 1].op = Opcode::EndRep;
            q.instructions[end_at + 1].extra = Extra::None;
        });
        assert_eq!(
            e.message,
            format!(
                "loop {}..{} crosses the end of loop {rep_at}..{end_at}",
                rep_at + 1,
                end_at + 1
            )
        );
    }
}
