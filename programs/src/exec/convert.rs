//! Conversions and packing: I2F, F2I, CVT (every type pair and rounding mode),
//! PK2H/PK2US/PK4B/PK4UB and their unpacks, PK64/UP64.

use super::alu::write32;
use super::env::Env;
use super::error::ExecErrorKind;
use super::executor::{Group, Run};
use super::operand::{load32, load64, store64, Wide, WriteInfo};
use super::{Vec4, MAX_LANES};
use crate::ir::{DataType, Extra, Inst, Opcode, Rounding, Saturate};

type Res<T> = Result<T, ExecErrorKind>;

fn malformed(m: &str) -> ExecErrorKind {
    ExecErrorKind::Malformed(m.to_string())
}

fn to64(d: DataType) -> DataType {
    match d {
        DataType::F32 | DataType::F64 => DataType::F64,
        DataType::S32 | DataType::S64 => DataType::S64,
        DataType::U32 | DataType::U64 => DataType::U64,
    }
}

fn to32(d: DataType) -> DataType {
    match d {
        DataType::F32 | DataType::F64 => DataType::F32,
        DataType::S32 | DataType::S64 => DataType::S32,
        DataType::U32 | DataType::U64 => DataType::U32,
    }
}

pub(crate) fn write64<E: Env + ?Sized>(
    run: &mut Run<'_, E>,
    g: &Group,
    inst: &Inst,
    rtype: DataType,
    v: &Wide,
) -> Res<()> {
    let Some(dst) = inst.dst.as_ref() else {
        return Ok(());
    };
    let acc = run.access(g);
    let w = WriteInfo {
        dst,
        dtype: rtype,
        sat: inst.sat,
        cc_update: inst.cc_update,
        carry: None,
    };
    store64(run.st, &acc, &w, v, &mut run.stats)
}

/// Pack two f32 as f16 bits (round to nearest even).
pub(crate) fn pk2h(x: f32, y: f32) -> u32 {
    u32::from(half::f16::from_f32(x).to_bits())
        | (u32::from(half::f16::from_f32(y).to_bits()) << 16)
}

pub(crate) fn pk2us(x: f32, y: f32) -> u32 {
    let q = |v: f32| (v.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u32;
    q(x) | (q(y) << 16)
}

pub(crate) fn pk4b(v: [f32; 4]) -> u32 {
    let mut r = 0;
    for (i, x) in v.iter().enumerate() {
        let c = x.clamp(-128.0 / 127.0, 1.0);
        let b = (127.0 * c + 128.0).round_ties_even() as u32 & 0xff;
        r |= b << (8 * i);
    }
    r
}

pub(crate) fn pk4ub(v: [f32; 4]) -> u32 {
    let mut r = 0;
    for (i, x) in v.iter().enumerate() {
        let b = (x.clamp(0.0, 1.0) * 255.0).round_ties_even() as u32 & 0xff;
        r |= b << (8 * i);
    }
    r
}

pub(crate) fn up2h(b: u32) -> [f32; 4] {
    let x = half::f16::from_bits(b as u16).to_f32();
    let y = half::f16::from_bits((b >> 16) as u16).to_f32();
    [x, y, x, y]
}

pub(crate) fn up2us(b: u32) -> [f32; 4] {
    let x = (b & 0xffff) as f32 / 65535.0;
    let y = (b >> 16) as f32 / 65535.0;
    [x, y, x, y]
}

pub(crate) fn up4b(b: u32) -> [f32; 4] {
    [0, 1, 2, 3].map(|i| (((b >> (8 * i)) & 0xff) as f32 - 128.0) / 127.0)
}

pub(crate) fn up4ub(b: u32) -> [f32; 4] {
    [0, 1, 2, 3].map(|i| ((b >> (8 * i)) & 0xff) as f32 / 255.0)
}

pub(crate) fn exec<E: Env + ?Sized>(run: &mut Run<'_, E>, g: &mut Group, inst: &Inst) -> Res<()> {
    let s = inst
        .srcs
        .first()
        .ok_or_else(|| malformed("missing source operand"))?;
    let dt = inst.dtype;
    let acc = run.access(g);
    match inst.op {
        Opcode::I2f => {
            let src_ty = if dt.is_float() { DataType::S32 } else { dt };
            let v = load64(run.st, &acc, s, src_ty, &mut run.stats)?;
            let mut r = [[0u32; MAX_LANES]; 4];
            for c in 0..4 {
                for l in 0..MAX_LANES {
                    let x = v[c][l];
                    r[c][l] = match src_ty {
                        DataType::U32 | DataType::U64 => x as f32,
                        _ => (x as i64) as f32,
                    }
                    .to_bits();
                }
            }
            write32(run, g, inst, DataType::F32, r, None)
        }
        Opcode::F2i => {
            let v = load64(run.st, &acc, s, DataType::F64, &mut run.stats)?;
            let rt = if dt.is_float() { DataType::S32 } else { dt };
            let mut r: Wide = [[0; MAX_LANES]; 4];
            for c in 0..4 {
                for l in 0..MAX_LANES {
                    let f = f64::from_bits(v[c][l]).trunc();
                    r[c][l] = float_to_int(f, rt, true);
                }
            }
            if rt.is_64() {
                write64(run, g, inst, rt, &r)
            } else {
                write32(run, g, inst, rt, narrow(&r), None)
            }
        }
        Opcode::Cvt => {
            let (from, rounding) = match &inst.extra {
                Extra::Convert { from, rounding } => (*from, *rounding),
                _ => return Err(malformed("CVT without a source type")),
            };
            let v = load64(run.st, &acc, s, from, &mut run.stats)?;
            let sat = inst.sat != Saturate::None;
            let mut r: Wide = [[0; MAX_LANES]; 4];
            for c in 0..4 {
                for l in 0..MAX_LANES {
                    r[c][l] = cvt(v[c][l], from, dt, rounding, sat);
                }
            }
            if dt.is_64() {
                write64(run, g, inst, dt, &r)
            } else {
                // Integer saturation already happened in `cvt`; .SAT on a float result
                // clamps to [0,1] in the write.
                write32(run, g, inst, dt, narrow(&r), None)
            }
        }
        Opcode::Pk2h | Opcode::Pk2us | Opcode::Pk4b | Opcode::Pk4ub => {
            let v = load32(run.st, &acc, s, DataType::F32, &mut run.stats)?;
            let mut x = [0u32; MAX_LANES];
            for l in 0..MAX_LANES {
                let f = |c: usize| f32::from_bits(v[c][l]);
                x[l] = match inst.op {
                    Opcode::Pk2h => pk2h(f(0), f(1)),
                    Opcode::Pk2us => pk2us(f(0), f(1)),
                    Opcode::Pk4b => pk4b([f(0), f(1), f(2), f(3)]),
                    _ => pk4ub([f(0), f(1), f(2), f(3)]),
                };
            }
            // The packed bits are stored unchanged whatever the result type, so skip
            // float saturation/precision rounding by writing them as unsigned.
            let rt = if dt.is_float() { DataType::U32 } else { dt };
            write32(run, g, inst, rt, [x, x, x, x], None)
        }
        Opcode::Up2h | Opcode::Up2us | Opcode::Up4b | Opcode::Up4ub => {
            let v = load32(run.st, &acc, s, DataType::U32, &mut run.stats)?;
            let mut r: Vec4 = [[0; MAX_LANES]; 4];
            for l in 0..MAX_LANES {
                let b = v[0][l];
                let u = match inst.op {
                    Opcode::Up2h => up2h(b),
                    Opcode::Up2us => up2us(b),
                    Opcode::Up4b => up4b(b),
                    _ => up4ub(b),
                };
                for c in 0..4 {
                    r[c][l] = u[c].to_bits();
                }
            }
            write32(run, g, inst, DataType::F32, r, None)
        }
        Opcode::Pk64 => {
            let v = load32(run.st, &acc, s, to32(dt), &mut run.stats)?;
            let mut r: Wide = [[0; MAX_LANES]; 4];
            for l in 0..MAX_LANES {
                let x = u64::from(v[0][l]) | (u64::from(v[1][l]) << 32);
                let y = u64::from(v[2][l]) | (u64::from(v[3][l]) << 32);
                r[0][l] = x;
                r[1][l] = y;
                r[2][l] = x;
                r[3][l] = y;
            }
            write64(run, g, inst, to64(dt), &r)
        }
        Opcode::Up64 => {
            let v = load64(run.st, &acc, s, to64(dt), &mut run.stats)?;
            let mut r: Vec4 = [[0; MAX_LANES]; 4];
            for l in 0..MAX_LANES {
                r[0][l] = v[0][l] as u32;
                r[1][l] = (v[0][l] >> 32) as u32;
                r[2][l] = v[1][l] as u32;
                r[3][l] = (v[1][l] >> 32) as u32;
            }
            // Raw halves: write as unsigned so no float rounding touches them.
            let rt = if dt.is_float() {
                DataType::U32
            } else {
                to32(dt)
            };
            write32(run, g, inst, rt, r, None)
        }
        _ => Err(malformed("not a conversion")),
    }
}

fn narrow(r: &Wide) -> Vec4 {
    r.map(|c| c.map(|x| x as u32))
}

/// Round an integral-valued or fractional f64 to an integer of type `to`: saturating
/// when `sat`, otherwise keeping the low bits of the (range-limited) integer. NaN → 0.
fn float_to_int(f: f64, to: DataType, sat: bool) -> u64 {
    if f.is_nan() {
        return 0;
    }
    // i128 holds every integer an f64 within the 64-bit ranges can be; beyond that the
    // cast saturates, which is as good as any "undefined" value.
    let i = f as i128;
    int_to_int(i, to, sat)
}

fn int_to_int(i: i128, to: DataType, sat: bool) -> u64 {
    let (lo, hi): (i128, i128) = match to {
        DataType::S32 => (i32::MIN.into(), i32::MAX.into()),
        DataType::U32 => (0, u32::MAX.into()),
        DataType::S64 => (i64::MIN.into(), i64::MAX.into()),
        _ => (0, u64::MAX.into()),
    };
    let v = if sat { i.clamp(lo, hi) } else { i };
    match to {
        DataType::S32 => (v as i32) as i64 as u64,
        DataType::U32 => u64::from(v as u32),
        _ => v as u64,
    }
}

fn round_f64(f: f64, r: Rounding) -> f64 {
    match r {
        Rounding::Default | Rounding::Nearest => f.round_ties_even(),
        Rounding::Ceil => f.ceil(),
        Rounding::Floor => f.floor(),
        Rounding::Trunc => f.trunc(),
    }
}

fn next_up32(x: f32) -> f32 {
    if x.is_nan() || x == f32::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f32::from_bits(1);
    }
    let b = x.to_bits();
    f32::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

fn next_down32(x: f32) -> f32 {
    -next_up32(-x)
}

/// Round an exact value (given as f64 plus an exact comparison) to f32 per mode.
fn to_f32_directed(nearest: f32, cmp: std::cmp::Ordering, r: Rounding, negative: bool) -> f32 {
    use std::cmp::Ordering::*;
    // `cmp` = ordering of the f32 candidate against the exact value.
    match (r, cmp) {
        (_, Equal) | (Rounding::Default | Rounding::Nearest, _) => nearest,
        (Rounding::Ceil, Less) => next_up32(nearest),
        (Rounding::Floor, Greater) => next_down32(nearest),
        (Rounding::Trunc, Greater) if !negative => next_down32(nearest),
        (Rounding::Trunc, Less) if negative => next_up32(nearest),
        _ => nearest,
    }
}

/// Round an i128 (within 64-bit range) to f64 per mode.
fn int_to_f64(i: i128, r: Rounding) -> f64 {
    let n = i as f64;
    let back = if n.is_finite() { n as i128 } else { i };
    let cmp = back.cmp(&i);
    use std::cmp::Ordering::*;
    let up = |x: f64| {
        let b = x.to_bits();
        if x == 0.0 {
            f64::from_bits(1)
        } else if x > 0.0 {
            f64::from_bits(b + 1)
        } else {
            f64::from_bits(b - 1)
        }
    };
    let down = |x: f64| -up(-x);
    match (r, cmp) {
        (_, Equal) | (Rounding::Default | Rounding::Nearest, _) => n,
        (Rounding::Ceil, Less) => up(n),
        (Rounding::Floor, Greater) => down(n),
        (Rounding::Trunc, Greater) if i >= 0 => down(n),
        (Rounding::Trunc, Less) if i < 0 => up(n),
        _ => n,
    }
}

/// CVT of one component. `x` is the operand in 64-bit register form (floats as f64 bits,
/// integers sign- or zero-extended), as 64-bit operand loads produce; the result is raw
/// bits of type `to` (f32 bits in the low half for F32).
pub(crate) fn cvt(x: u64, from: DataType, to: DataType, r: Rounding, sat: bool) -> u64 {
    let from_int = |x: u64| -> i128 {
        match from {
            DataType::S32 => i128::from(x as u32 as i32),
            DataType::S64 => i128::from(x as i64),
            DataType::U32 => i128::from(x as u32),
            _ => i128::from(x),
        }
    };
    match (from.is_float(), to.is_float()) {
        (true, true) => {
            let f = f64::from_bits(x);
            if to == DataType::F64 {
                f.to_bits()
            } else {
                let n = f as f32;
                let cmp = if n.is_nan() || f.is_infinite() {
                    std::cmp::Ordering::Equal
                } else {
                    f64::from(n)
                        .partial_cmp(&f)
                        .unwrap_or(std::cmp::Ordering::Equal)
                };
                u64::from(to_f32_directed(n, cmp, r, f < 0.0).to_bits())
            }
        }
        (true, false) => {
            let f = f64::from_bits(x);
            float_to_int(round_f64(f, r), to, sat)
        }
        (false, true) => {
            let i = from_int(x);
            let d = int_to_f64(i, r);
            if to == DataType::F64 {
                d.to_bits()
            } else {
                // Two roundings (int → f64 → f32) could differ from one; decide from the
                // exact integer instead.
                let n = i as f32;
                let back = n as i128;
                let cmp = if n.is_finite() {
                    back.cmp(&i)
                } else {
                    std::cmp::Ordering::Greater
                };
                u64::from(to_f32_directed(n, cmp, r, i < 0).to_bits())
            }
        }
        (false, false) => int_to_int(from_int(x), to, sat),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use DataType::*;

    fn f2u(x: f32) -> u64 {
        f64::from(x).to_bits()
    }

    #[test]
    fn pack_round_trips() {
        assert_eq!(up2h(pk2h(1.5, -2.0))[..2], [1.5, -2.0]);
        assert_eq!(up2us(pk2us(0.0, 1.0))[..2], [0.0, 1.0]);
        assert_eq!(pk2us(2.0, -1.0), 0xffff);
        assert_eq!(
            up4ub(pk4ub([0.0, 1.0, 0.5, 2.0])),
            [0.0, 1.0, 128.0 / 255.0, 1.0]
        );
        assert_eq!(pk4b([-2.0, 1.0, 0.0, 0.0]) & 0xffff, 0xff00);
        assert_eq!(
            up4b(pk4b([-128.0 / 127.0, 1.0, 0.0, -1.0])),
            [-128.0 / 127.0, 1.0, 0.0, -1.0]
        );
    }

    #[test]
    fn cvt_float_to_int_modes() {
        let v = f2u(2.5);
        assert_eq!(cvt(v, F32, S32, Rounding::Default, false), 2);
        assert_eq!(cvt(v, F32, S32, Rounding::Ceil, false), 3);
        assert_eq!(cvt(v, F32, S32, Rounding::Floor, false), 2);
        assert_eq!(cvt(v, F32, S32, Rounding::Trunc, false), 2);
        let n = f2u(-2.5);
        assert_eq!(cvt(n, F32, S32, Rounding::Nearest, false) as i32, -2);
        assert_eq!(cvt(n, F32, S32, Rounding::Floor, false) as i32, -3);
        assert_eq!(cvt(n, F32, S32, Rounding::Ceil, false) as i32, -2);
        assert_eq!(cvt(n, F32, S32, Rounding::Trunc, false) as i32, -2);
        assert_eq!(cvt(n, F32, U32, Rounding::Default, true), 0);
        assert_eq!(
            cvt(f2u(3e9), F32, S32, Rounding::Default, true) as i32,
            i32::MAX
        );
        // Without SAT the low bits are kept.
        assert_eq!(
            cvt(
                f2u(4294967296.0 + 512.0),
                F32,
                U32,
                Rounding::Default,
                false
            ),
            512
        );
    }

    #[test]
    fn cvt_int_to_float_modes() {
        let big = (1u64 << 24) + 1; // not representable in f32
        assert_eq!(
            f32::from_bits(cvt(big, U32, F32, Rounding::Nearest, false) as u32),
            16777216.0
        );
        assert_eq!(
            f32::from_bits(cvt(big, U32, F32, Rounding::Ceil, false) as u32),
            16777218.0
        );
        assert_eq!(
            f32::from_bits(cvt(big, U32, F32, Rounding::Floor, false) as u32),
            16777216.0
        );
        let nb = (-(1i64 << 24) - 1) as u64;
        assert_eq!(
            f32::from_bits(cvt(nb, S64, F32, Rounding::Trunc, false) as u32),
            -16777216.0
        );
        assert_eq!(
            f32::from_bits(cvt(nb, S64, F32, Rounding::Floor, false) as u32),
            -16777218.0
        );
        assert_eq!(
            f64::from_bits(cvt(u64::MAX, U64, F64, Rounding::Floor, false)),
            18446744073709549568.0
        );
    }

    #[test]
    fn cvt_float_float_and_int_int() {
        let third = (1.0f64 / 3.0).to_bits();
        let n = f32::from_bits(cvt(third, F64, F32, Rounding::Nearest, false) as u32);
        let c = f32::from_bits(cvt(third, F64, F32, Rounding::Ceil, false) as u32);
        let fl = f32::from_bits(cvt(third, F64, F32, Rounding::Floor, false) as u32);
        assert!(f64::from(c) > 1.0 / 3.0 && f64::from(fl) < 1.0 / 3.0);
        assert!(n == c || n == fl);
        assert_eq!(cvt(0x1_0000_0005, U64, U32, Rounding::Default, false), 5);
        assert_eq!(
            cvt(0x1_0000_0005, U64, U32, Rounding::Default, true),
            0xffff_ffff
        );
        assert_eq!(
            cvt(u64::from(u32::MAX), S32, S64, Rounding::Default, false),
            u64::MAX
        );
        assert_eq!(
            cvt(u64::from(u32::MAX), U32, S64, Rounding::Default, false),
            0xffff_ffff
        );
        assert_eq!(cvt((-5i64) as u64, S64, U32, Rounding::Default, true), 0);
    }
}
