//! The transcendental instructions kernels call out for: glemu-math's functions over the
//! sixteen lanes of one component in one call (AVX2 vectors where the CPU has them), which
//! give the bits of the scalar ports the interpreter calls, lane for lane.

use crate::exec::MAX_LANES;
use glemu_math::Func;

const _: () = assert!(MAX_LANES == glemu_math::LANES);

/// Which function (`Lower::math` passes it as an `i32`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum Op {
    Sin = 0,
    Cos = 1,
    Ex2 = 2,
    Lg2 = 3,
    Pow = 4,
}

/// `io[0] = f(io[0], io[1])` lane by lane, as `exec::alu` computes SIN, COS, EX2, LG2
/// (the legacy absolute value is applied by the kernel before) and POW.
pub(crate) fn lanes(op: u32, io: &mut [[u32; MAX_LANES]; 2]) {
    let [x, y] = io;
    let f = match op {
        o if o == Op::Sin as u32 => Func::Sin,
        o if o == Op::Cos as u32 => Func::Cos,
        o if o == Op::Ex2 as u32 => Func::Exp2,
        o if o == Op::Lg2 as u32 => Func::Log2,
        o if o == Op::Pow as u32 => return glemu_math::pow_lanes(x, y),
        // `Lower::math` passes only the values above.
        _ => return,
    };
    glemu_math::lanes(f, x);
}

#[cfg(test)]
mod tests {
    use crate::compile::scan;

    #[test]
    fn transcendentals_are_lowered_not_stepped() {
        for text in [
            "!!ARBfp1.0\nTEMP t;\nLG2 t.x, fragment.color.y;\nEX2 t.y, t.x;\nSIN t.z, t.y;\nCOS t.w, t.z;\nPOW t.x, t.w, t.y;\nSCS t.yz, t.x;\nMOV result.color, t;\nEND",
            "!!NVfp5.0\nTEMP t;\nLG2.CC t.x, fragment.color.y;\nEX2.SAT t.y, t.x;\nSIN t.z (GT.x), t.y;\nCOS t.w, |t.z|;\nPOW t, t.w, t.y;\nMOV result.color, t;\nEND",
        ] {
            let p = crate::assemble(text, None).expect("assembles");
            for inst in &p.instructions {
                if inst.dst.is_some() {
                    assert!(scan::native(&p, inst), "{:?} is stepped", inst.op);
                }
            }
        }
    }
}
