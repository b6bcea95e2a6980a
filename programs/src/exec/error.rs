//! Run-time errors and counters.

use crate::ir::Program;
use crate::span::Span;
use std::fmt;

/// Why a run stopped.
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// let p = assemble("!!NVvp4.0\nREP;\nBRK (FL.x);\nENDREP;\nMOV result.position, 0;\nEND", None).unwrap();
/// let ex = Executor::new(Arc::new(p)).with_budget(100);
/// let mut st = ex.new_state(1);
/// let e = ex.run(&mut st, 1, &[], &mut NullEnv).unwrap_err();
/// assert_eq!(e.kind, ExecErrorKind::BudgetExceeded(100));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecErrorKind {
    /// An invocation executed more instructions than the executor's budget.
    BudgetExceeded(u64),
    /// The environment asked the run to stop ([`Env::interrupted`](super::Env::interrupted)).
    Interrupted,
    /// CAL/CALI nested deeper than the executor's call depth limit (32), or PUSHA
    /// deeper than the same limit.
    CallStackOverflow,
    /// POPA with nothing pushed.
    AddressStackUnderflow,
    /// A construct this executor does not implement ("not supported: X").
    NotSupported(String),
    /// The program breaks an invariant of the compiled form (bad jump target, operand
    /// count); a front-end bug, reported instead of panicking.
    Malformed(String),
    /// The environment failed (texture, memory, emit ...).
    Env(String),
    /// The lane state was built for another program or with a bad width.
    BadState(String),
}

/// An invariant that [`crate::validate::validate`] guarantees for every program an
/// [`super::Executor`] runs was found broken: a debug assertion in debug builds, and in
/// release builds the instruction fails as malformed instead of reaching outside a
/// register file or a table.
#[cold]
pub(crate) fn invariant(what: &str) -> ExecErrorKind {
    debug_assert!(false, "a validated program broke an invariant: {what}");
    ExecErrorKind::Malformed(what.to_string())
}

/// A run-time error at instruction `inst` (index into `Program::instructions`).
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// let p = assemble("!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nEND", None).unwrap();
/// let ex = Executor::new(Arc::new(p));
/// let mut st = ex.new_state(1);
/// let e = ex.run(&mut st, 1, &[], &mut NullEnv).unwrap_err();
/// assert_eq!(e.inst, 0);
/// assert_eq!(e.kind, ExecErrorKind::Env("not supported: texture access in this stage".into()));
/// assert!(e.to_string().starts_with("instruction 0 (byte 11): "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecError {
    /// Index of the failing instruction in `Program::instructions`.
    pub inst: u32,
    /// Where the failing instruction is in the program text.
    pub span: Span,
    /// What went wrong.
    pub kind: ExecErrorKind,
}

impl ExecError {
    pub(crate) fn new(inst: u32, span: Span, kind: ExecErrorKind) -> ExecError {
        ExecError { inst, span, kind }
    }

    /// An error at instruction `inst` of `prog`, with that instruction's span (the
    /// default span when `inst` is past the end).
    pub(crate) fn at(prog: &Program, inst: u32, kind: ExecErrorKind) -> ExecError {
        let span = prog
            .instructions
            .get(inst as usize)
            .map(|i| i.span)
            .unwrap_or_default();
        ExecError::new(inst, span, kind)
    }
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "instruction {} (byte {}): ", self.inst, self.span.start)?;
        match &self.kind {
            ExecErrorKind::BudgetExceeded(n) => {
                write!(f, "instruction budget of {n} per invocation exceeded")
            }
            ExecErrorKind::Interrupted => write!(f, "interrupted (the draw's time limit)"),
            ExecErrorKind::CallStackOverflow => write!(f, "call stack overflow"),
            ExecErrorKind::AddressStackUnderflow => write!(f, "POPA with an empty stack"),
            ExecErrorKind::NotSupported(m) => write!(f, "not supported: {m}"),
            ExecErrorKind::Malformed(m) => write!(f, "malformed program: {m}"),
            ExecErrorKind::Env(m) => write!(f, "{m}"),
            ExecErrorKind::BadState(m) => write!(f, "bad lane state: {m}"),
        }
    }
}

impl std::error::Error for ExecError {}

/// Counters of one run (add them up across batches with `+=`).
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// let p = Arc::new(assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap());
/// let ex = Executor::new(p);
/// let mut st = ex.new_state(3);
/// let s = ex.run(&mut st, 0b111, &[], &mut NullEnv).unwrap();
/// assert_eq!((s.instructions, s.lane_instructions, s.splits), (1, 3, 0));
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ExecStats {
    /// Instructions issued (once per group).
    pub instructions: u64,
    /// Sum over issued instructions of the lanes running them.
    pub lane_instructions: u64,
    /// Times a group split because its lanes disagreed at a branch.
    pub splits: u64,
    /// Reads through an out-of-range index or address (they read zero).
    pub oob_reads: u64,
    /// Writes through an out-of-range index or address (they were dropped).
    pub oob_writes: u64,
    /// Memory accesses whose address was not aligned to the access size (treated as out
    /// of range).
    pub misaligned: u64,
}

impl std::ops::AddAssign for ExecStats {
    fn add_assign(&mut self, o: ExecStats) {
        self.instructions += o.instructions;
        self.lane_instructions += o.lane_instructions;
        self.splits += o.splits;
        self.oob_reads += o.oob_reads;
        self.oob_writes += o.oob_writes;
        self.misaligned += o.misaligned;
    }
}
