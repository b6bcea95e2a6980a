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
//! - destinations are temps, results or (for ARL/ARA/ARR/POPA) address registers;
//! - flow control is matched: IF targets its ELSE or ENDIF, ELSE an ENDIF, REP/LOOP
//!   their ENDREP/ENDLOOP and back, BRA/CAL a place in the program, CALI a subroutine
//!   variable whose functions are places in the program; the entry point and labels are
//!   places in the program;
//! - texture instructions carry their texture operand, memory instructions their memory
//!   operand naming a variable that exists (ATOM/ATOMCTR/ATOMIM an operation, image
//!   instructions an image and a target), CVT its storage types, IPAx an attribute.
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

    fn inst(&self, inst: &Inst) -> Check {
        use Opcode::*;
        for s in &inst.srcs {
            self.src(inst.op, s)?;
        }
        if let Some(d) = &inst.dst {
            self.dst(inst.op, d)?;
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
}
