//! AVX-512 machine code for a run of a [`BlockProgram`](super::BlockProgram)'s ALU
//! instructions: one function per run, which loops over the block's four strips and
//! keeps each register component it touches in a 512-bit register (one strip's 16 lanes)
//! between instructions.
//!
//! Why: decoded one instruction at a time, every operation loads its operands from the
//! block state and stores its result back, and the decoding (swizzles, masks, modifiers,
//! saturation) is paid per instruction and strip. Cranelift has no 512-bit vectors, so the
//! code is assembled here (iced-x86's assembler) and loaded by `compile::load_alu`.
//!
//! The bits are the interpreter's, operation by operation:
//! - ADD, SUB, MUL (and MAD, LRP, the dot products built from them) are `vaddps`,
//!   `vsubps`, `vmulps` with their operands in the order the interpreter writes them: the
//!   hardware then returns the first NaN operand quieted, `float::add`'s rule.
//! - MIN and MAX select by comparisons that spell out `float::fmin` and `fmax` (a NaN
//!   operand yields the other, -0 below +0); CMP selects on `x < 0`.
//! - Saturation is `operand::clamp_lane` as two compare-and-replace steps.
//! - A result is bound to its destination only after every component of the instruction
//!   is computed, so an instruction that reads a component it writes sees the old value,
//!   as the interpreter's `res` gives it.
//!
//! Only components that something after the run reads (a later instruction, or an output)
//! are stored; the rest live and die in registers. `tests/exec_block_program.rs` compares
//! the result with the interpreter on random programs.

use super::block::{Alu, Kind, Op, Operand};
use iced_x86::code_asm::*;

/// Bytes of one block register: 4 strips of 4 components of 16 lanes.
pub(super) const REG_BYTES: usize = 1024;
/// Bytes of one strip of a register, and of one component's row within it.
const STRIP_BYTES: i32 = 256;
const ROW_BYTES: usize = 64;

const ZMM: [AsmRegisterZmm; 32] = [
    zmm0, zmm1, zmm2, zmm3, zmm4, zmm5, zmm6, zmm7, zmm8, zmm9, zmm10, zmm11, zmm12, zmm13, zmm14,
    zmm15, zmm16, zmm17, zmm18, zmm19, zmm20, zmm21, zmm22, zmm23, zmm24, zmm25, zmm26, zmm27,
    zmm28, zmm29, zmm30, zmm31,
];

// Predicates of `vcmpps` (Intel SDM, table 5-...): ordered/unordered, signalling or not
// (exceptions are masked, so only the truth table matters).
const EQ_OQ: i32 = 0x00;
const LT_OS: i32 = 0x01;
const ORD_Q: i32 = 0x07;
const NLE_US: i32 = 0x06;
const NGE_US: i32 = 0x09;
const NGT_US: i32 = 0x0a;
const GT_OS: i32 = 0x0e;

/// What a vector register holds while a strip's code is generated.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Held {
    Free,
    /// A constant of [`Consts`], for the whole function.
    Const,
    /// A register component of the current strip; `dirty` when it differs from memory.
    Row {
        reg: usize,
        comp: usize,
        dirty: bool,
    },
    /// An instruction's intermediate value or result not yet bound.
    Temp,
}

/// The constants a run may need, by index into `Gen::consts` and [`CONST_BITS`].
const SIGN: usize = 0;
const ABS: usize = 1;
const ONE: usize = 2;
const ZERO: usize = 3;
const MINUS_ONE: usize = 4;
const CONST_BITS: [u32; 5] = [0x8000_0000, 0x7fff_ffff, 0x3f80_0000, 0, 0xbf80_0000];

struct Gen {
    a: CodeAssembler,
    held: [Held; 32],
    /// When each register was last used (for eviction).
    last: [u32; 32],
    clock: u32,
    /// Registers the current instruction uses: not evicted.
    locked: u32,
    /// The register of each constant the run needs.
    consts: [Option<usize>; 5],
    /// Registers the code addresses (the highest index + 1).
    regs: usize,
}

type R<T> = Result<T, String>;

fn asm(e: IcedError) -> String {
    format!("assembler: {e}")
}

/// `z` with write mask `k` (1 ..= 2).
fn masked(z: AsmRegisterZmm, k: u8) -> AsmRegisterZmm {
    match k {
        1 => z.k1(),
        _ => z.k2(),
    }
}

impl Gen {
    fn new() -> R<Gen> {
        Ok(Gen {
            a: CodeAssembler::new(64).map_err(asm)?,
            held: [Held::Free; 32],
            last: [0; 32],
            clock: 0,
            locked: 0,
            consts: [None; 5],
            regs: 0,
        })
    }

    /// The row of component `comp` of register `reg` in the current strip (rdi points at
    /// the strip's first row in register 0).
    fn row(&mut self, reg: usize, comp: usize) -> R<AsmMemoryOperand> {
        self.regs = self.regs.max(reg + 1);
        let off = reg
            .checked_mul(REG_BYTES)
            .and_then(|o| o.checked_add(comp * ROW_BYTES))
            .and_then(|o| i32::try_from(o).ok())
            .ok_or("register offset out of range")?;
        Ok(zmmword_ptr(rdi + off))
    }

    fn touch(&mut self, z: usize) {
        self.clock += 1;
        self.last[z] = self.clock;
        self.locked |= 1 << z;
    }

    /// A free register for a temporary (locked), evicting the least recently used row
    /// no instruction holds (stored first when dirty).
    fn alloc(&mut self) -> R<usize> {
        let z = match self.held.iter().position(|h| *h == Held::Free) {
            Some(z) => z,
            None => {
                let victim = (0..32)
                    .filter(|&z| self.locked & (1 << z) == 0)
                    .filter(|&z| matches!(self.held[z], Held::Row { .. }))
                    .min_by_key(|&z| self.last[z])
                    .ok_or("out of vector registers")?;
                if let Held::Row {
                    reg,
                    comp,
                    dirty: true,
                } = self.held[victim]
                {
                    let m = self.row(reg, comp)?;
                    self.a.vmovups(m, ZMM[victim]).map_err(asm)?;
                }
                victim
            }
        };
        self.held[z] = Held::Temp;
        self.touch(z);
        Ok(z)
    }

    /// Frees a temporary.
    fn release(&mut self, z: usize) {
        if self.held[z] == Held::Temp {
            self.held[z] = Held::Free;
        }
        self.locked &= !(1 << z);
    }

    fn find(&self, reg: usize, comp: usize) -> Option<usize> {
        self.held
            .iter()
            .position(|h| matches!(*h, Held::Row { reg: r, comp: c, .. } if r == reg && c == comp))
    }

    /// Component `comp` of register `reg` in a register (loaded when not held).
    fn load(&mut self, reg: usize, comp: usize) -> R<usize> {
        if let Some(z) = self.find(reg, comp) {
            self.touch(z);
            return Ok(z);
        }
        let z = self.alloc()?;
        let m = self.row(reg, comp)?;
        self.a.vmovups(ZMM[z], m).map_err(asm)?;
        self.held[z] = Held::Row {
            reg,
            comp,
            dirty: false,
        };
        Ok(z)
    }

    /// Source `o` for result component `c`: swizzled, with its modifiers (then in a
    /// temporary). The second value says whether it is a temporary.
    fn operand(&mut self, o: &Operand, c: usize) -> R<(usize, bool)> {
        let z = self.load(o.reg, o.swizzle[c & 3] & 3)?;
        if o.and == u32::MAX && o.xor == 0 {
            return Ok((z, false));
        }
        let t = self.alloc()?;
        let mut from = z;
        if o.and != u32::MAX {
            let abs = self.konst(ABS)?;
            self.a.vpandd(ZMM[t], ZMM[from], ZMM[abs]).map_err(asm)?;
            from = t;
        }
        if o.xor != 0 {
            let sign = self.konst(SIGN)?;
            self.a.vpxord(ZMM[t], ZMM[from], ZMM[sign]).map_err(asm)?;
        }
        Ok((t, true))
    }

    fn konst(&self, c: usize) -> R<usize> {
        self.consts[c].ok_or_else(|| "constant not set up".to_string())
    }

    /// `z` (a result) bound to component `comp` of `reg`, dirty; what held it before is
    /// dropped.
    fn bind(&mut self, z: usize, reg: usize, comp: usize) {
        if let Some(old) = self.find(reg, comp) {
            self.held[old] = Held::Free;
        }
        self.held[z] = Held::Row {
            reg,
            comp,
            dirty: true,
        };
    }

    /// Sets up the constants `ops` need, before the strip loop.
    fn constants(&mut self, ops: &[Op]) -> R<()> {
        let mut need = [false; 5];
        for op in ops {
            let Kind::Alu(alu) = op.kind else {
                continue;
            };
            for o in op.src.iter().take(super::block::alu_sources(alu)) {
                need[SIGN] |= o.xor != 0;
                need[ABS] |= o.and != u32::MAX;
            }
            need[SIGN] |= matches!(alu, Alu::Min | Alu::Max);
            need[ABS] |= matches!(alu, Alu::Abs);
            need[ONE] |= matches!(alu, Alu::Lrp) || op.sat.is_some();
            need[ZERO] |= matches!(alu, Alu::Cmp) || op.sat == Some(0.0);
            need[MINUS_ONE] |= op.sat == Some(-1.0);
        }
        for (k, bits) in CONST_BITS.into_iter().enumerate() {
            if !need[k] {
                continue;
            }
            let z = self
                .held
                .iter()
                .position(|h| *h == Held::Free)
                .ok_or("no register")?;
            self.held[z] = Held::Const;
            if bits == 0 {
                self.a.vpxord(ZMM[z], ZMM[z], ZMM[z]).map_err(asm)?;
            } else {
                self.a.mov(eax, bits).map_err(asm)?;
                self.a.vpbroadcastd(ZMM[z], eax).map_err(asm)?;
            }
            self.consts[k] = Some(z);
        }
        Ok(())
    }

    /// `operand::clamp_lane` on every lane of `r`, in place.
    fn saturate(&mut self, r: usize, lo: Option<f32>) -> R<()> {
        let Some(lo) = lo else {
            return Ok(());
        };
        let one = self.konst(ONE)?;
        let a = &mut self.a;
        // x > 1 -> 1 (a NaN compares false).
        a.vcmpps(k1, ZMM[r], ZMM[one], GT_OS).map_err(asm)?;
        a.vmovaps(masked(ZMM[r], 1), ZMM[one]).map_err(asm)?;
        if lo == 0.0 {
            // NaN, x < 0 and both zeros -> +0.
            let zero = self.konst(ZERO)?;
            self.a.vcmpps(k2, ZMM[r], ZMM[zero], NGT_US).map_err(asm)?;
            self.a.vmovaps(masked(ZMM[r], 2), ZMM[zero]).map_err(asm)?;
        } else {
            // NaN and x < -1 -> -1 (-0 stays).
            let m1 = self.konst(MINUS_ONE)?;
            self.a.vcmpps(k2, ZMM[r], ZMM[m1], NGE_US).map_err(asm)?;
            self.a.vmovaps(masked(ZMM[r], 2), ZMM[m1]).map_err(asm)?;
        }
        Ok(())
    }

    /// `r = fmin(x, y)` (`max`: `fmax`): `x` where x is not NaN and (y is NaN, or x is
    /// below y — above for max —, or they are equal and the sign bit of x — of y for max
    /// — is set), else `y`.
    fn min_max(&mut self, r: usize, x: usize, y: usize, max: bool) -> R<()> {
        let sign = self.konst(SIGN)?;
        let a = &mut self.a;
        let (x, y) = (ZMM[x], ZMM[y]);
        a.vcmpps(k1, x, x, ORD_Q).map_err(asm)?;
        // Unordered or x < y (x > y): with x ordered, "y is NaN or x < y".
        let pred = if max { NLE_US } else { NGE_US };
        a.vcmpps(k1.k1(), x, y, pred).map_err(asm)?;
        a.vcmpps(k2, x, y, EQ_OQ).map_err(asm)?;
        a.vptestmd(k2.k2(), if max { y } else { x }, ZMM[sign])
            .map_err(asm)?;
        a.korw(k1, k1, k2).map_err(asm)?;
        a.vblendmps(masked(ZMM[r], 1), y, x).map_err(asm)?;
        Ok(())
    }

    /// One componentwise result: `alu` of the sources `s` into the new temporary `r`.
    fn component(&mut self, alu: Alu, r: usize, s: [usize; 3]) -> R<()> {
        let z = |k: usize| ZMM[s[k]];
        let rz = ZMM[r];
        match alu {
            Alu::Mov => self.a.vmovaps(rz, z(0)).map_err(asm)?,
            Alu::Abs => {
                let abs = self.konst(ABS)?;
                self.a.vpandd(rz, z(0), ZMM[abs]).map_err(asm)?
            }
            Alu::Add => self.a.vaddps(rz, z(0), z(1)).map_err(asm)?,
            Alu::Sub => self.a.vsubps(rz, z(0), z(1)).map_err(asm)?,
            Alu::Mul => self.a.vmulps(rz, z(0), z(1)).map_err(asm)?,
            Alu::Mad => {
                self.a.vmulps(rz, z(0), z(1)).map_err(asm)?;
                self.a.vaddps(rz, rz, z(2)).map_err(asm)?;
            }
            Alu::Lrp => {
                // t * x + (1 - t) * y, each product rounded.
                let one = self.konst(ONE)?;
                let t = self.alloc()?;
                self.a.vmulps(rz, z(0), z(1)).map_err(asm)?;
                self.a.vsubps(ZMM[t], ZMM[one], z(0)).map_err(asm)?;
                self.a.vmulps(ZMM[t], ZMM[t], z(2)).map_err(asm)?;
                self.a.vaddps(rz, rz, ZMM[t]).map_err(asm)?;
                self.release(t);
            }
            Alu::Min => self.min_max(r, s[0], s[1], false)?,
            Alu::Max => self.min_max(r, s[0], s[1], true)?,
            Alu::Cmp => {
                let zero = self.konst(ZERO)?;
                self.a.vcmpps(k1, z(0), ZMM[zero], LT_OS).map_err(asm)?;
                self.a.vblendmps(masked(rz, 1), z(2), z(1)).map_err(asm)?;
            }
            Alu::Dot { .. } => return Err("a dot product is not componentwise".into()),
        }
        Ok(())
    }

    /// One instruction of the current strip.
    fn op(&mut self, op: &Op) -> R<()> {
        let Kind::Alu(alu) = op.kind else {
            return Err("not an ALU instruction".into());
        };
        let mask = op.mask & 0xf;
        let mut results: Vec<(usize, usize)> = Vec::with_capacity(4);
        match alu {
            Alu::Dot { n, homogeneous } => {
                // The interpreter's `alu::dot`: products summed from +0 in order (+ b.w).
                let x = self.alloc()?;
                self.a.vpxord(ZMM[x], ZMM[x], ZMM[x]).map_err(asm)?;
                for c in 0..n.min(4) {
                    let (u, ut) = self.operand(&op.src[0], c)?;
                    let (v, vt) = self.operand(&op.src[1], c)?;
                    let p = self.alloc()?;
                    self.a.vmulps(ZMM[p], ZMM[u], ZMM[v]).map_err(asm)?;
                    self.a.vaddps(ZMM[x], ZMM[x], ZMM[p]).map_err(asm)?;
                    self.release(p);
                    for (z, t) in [(u, ut), (v, vt)] {
                        if t {
                            self.release(z);
                        }
                    }
                }
                if homogeneous {
                    let (w, wt) = self.operand(&op.src[1], 3)?;
                    self.a.vaddps(ZMM[x], ZMM[x], ZMM[w]).map_err(asm)?;
                    if wt {
                        self.release(w);
                    }
                }
                self.saturate(x, op.sat)?;
                let mut first = true;
                for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                    if first {
                        results.push((c, x));
                        first = false;
                    } else {
                        let y = self.alloc()?;
                        self.a.vmovaps(ZMM[y], ZMM[x]).map_err(asm)?;
                        results.push((c, y));
                    }
                }
                if first {
                    self.release(x);
                }
            }
            _ => {
                let k = super::block::alu_sources(alu);
                for c in (0..4).filter(|c| mask & (1 << c) != 0) {
                    let mut s = [0usize; 3];
                    let mut temps = Vec::with_capacity(3);
                    for (i, o) in op.src.iter().enumerate().take(k) {
                        let (z, t) = self.operand(o, c)?;
                        s[i] = z;
                        if t {
                            temps.push(z);
                        }
                    }
                    let r = self.alloc()?;
                    self.component(alu, r, s)?;
                    self.saturate(r, op.sat)?;
                    for t in temps {
                        self.release(t);
                    }
                    results.push((c, r));
                }
            }
        }
        for (c, r) in results {
            self.bind(r, op.dst, c);
        }
        self.locked = 0;
        Ok(())
    }

    /// The strip's dirty components that `live` says are read later, stored; every row
    /// forgotten (the next strip starts empty).
    fn flush(&mut self, live: &dyn Fn(usize, usize) -> bool) -> R<()> {
        for z in 0..32 {
            if let Held::Row { reg, comp, dirty } = self.held[z] {
                if dirty && live(reg, comp) {
                    let m = self.row(reg, comp)?;
                    self.a.vmovups(m, ZMM[z]).map_err(asm)?;
                }
                self.held[z] = Held::Free;
            }
        }
        Ok(())
    }
}

/// Machine code for `ops` (ALU instructions only), as a function
/// `extern "sysv64" fn(registers: *mut u8)` over a block state's registers; with the
/// number of registers it reads and writes (from the first). `live(reg, comp)` says
/// whether something after the run reads that component.
pub(super) fn assemble(ops: &[Op], live: &dyn Fn(usize, usize) -> bool) -> R<(Vec<u8>, usize)> {
    let mut g = Gen::new()?;
    g.constants(ops)?;
    g.a.mov(ecx, 4u32).map_err(asm)?;
    let mut top = g.a.create_label();
    g.a.set_label(&mut top).map_err(asm)?;
    for op in ops {
        g.op(op)?;
    }
    g.flush(live)?;
    g.a.add(rdi, STRIP_BYTES).map_err(asm)?;
    g.a.dec(ecx).map_err(asm)?;
    g.a.jnz(top).map_err(asm)?;
    g.a.vzeroupper().map_err(asm)?;
    g.a.ret().map_err(asm)?;
    let regs = g.regs;
    let bytes = g.a.assemble(0).map_err(asm)?;
    Ok((bytes, regs))
}
