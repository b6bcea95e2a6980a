//! The transcendental instructions kernels call out for: the interpreter's own libm
//! functions over the sixteen lanes of one component, so compiled and interpreted runs
//! give the same bits (a vector approximation would not).

use crate::exec::MAX_LANES;

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
    let f = |x: &mut [u32; MAX_LANES], g: fn(f32) -> f32| {
        for v in x.iter_mut() {
            *v = g(f32::from_bits(*v)).to_bits();
        }
    };
    match op {
        o if o == Op::Sin as u32 => f(x, f32::sin),
        o if o == Op::Cos as u32 => f(x, f32::cos),
        o if o == Op::Ex2 as u32 => f(x, f32::exp2),
        o if o == Op::Lg2 as u32 => f(x, f32::log2),
        o if o == Op::Pow as u32 => {
            for (a, b) in x.iter_mut().zip(y.iter()) {
                *a = f32::from_bits(*a).powf(f32::from_bits(*b)).to_bits();
            }
        }
        // `Lower::math` passes only the values above.
        _ => {}
    }
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
