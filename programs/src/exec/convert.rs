//! Conversions and packing: I2F, F2I, CVT (every type pair and rounding mode),
//! PK2H/PK2US/PK4B/PK4UB and their unpacks, PK64/UP64.

use super::env::RunEnv;
use super::error::{invariant, ExecErrorKind};
use super::operand::{load32, load64, Wide};
use super::run::{write32, write64, Group, Run};
use super::{Vec4, MAX_LANES};
use crate::ir::{DataType, Extra, Inst, MemScalar, Opcode, Rounding, Saturate};

type Res<T> = Result<T, ExecErrorKind>;

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

pub(crate) fn exec<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &mut Group,
    inst: &Inst,
) -> Res<()> {
    let s = inst
        .srcs
        .first()
        .ok_or_else(|| invariant("conversion without its source operand"))?;
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
                    r[c][l] = float_to_int(f, scalar_of(rt), true);
                }
            }
            if rt.is_64() {
                write64(run, g, inst, rt, &r)
            } else {
                write32(run, g, inst, rt, narrow(&r), None)
            }
        }
        Opcode::Cvt => {
            let (from, to, rounding) = match &inst.extra {
                Extra::Convert { from, to, rounding } => (*from, *to, *rounding),
                _ => return Err(invariant("CVT without its storage types")),
            };
            // An F16 operand is raw bits; every other type loads as its register type
            // (which sign- or zero-extends 32-bit registers and keeps 64-bit ones).
            let load_t = match from {
                MemScalar::F16 => DataType::U64,
                _ => to64(scalar_reg_type(from)),
            };
            let v = load64(run.st, &acc, s, load_t, &mut run.stats)?;
            let mut r: Wide = [[0; MAX_LANES]; 4];
            for c in 0..4 {
                for l in 0..MAX_LANES {
                    r[c][l] = cvt(v[c][l], from, to, rounding, inst.sat);
                }
            }
            if dt.is_64() {
                write64(run, g, inst, dt, &r)
            } else if to == MemScalar::F16 {
                // Half bits are stored as they are: saturation happened before rounding
                // to half, and no f32 rule applies to them.
                write32(run, g, inst, DataType::U32, narrow(&r), None)
            } else {
                // Integer saturation already happened in `cvt`; .SAT on an f32 result
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
        _ => Err(invariant("not a conversion")),
    }
}

fn scalar_of(d: DataType) -> MemScalar {
    match d {
        DataType::F32 => MemScalar::F32,
        DataType::F64 => MemScalar::F64,
        DataType::S32 => MemScalar::S32,
        DataType::U32 => MemScalar::U32,
        DataType::S64 => MemScalar::S64,
        DataType::U64 => MemScalar::U64,
    }
}

fn narrow(r: &Wide) -> Vec4 {
    r.map(|c| c.map(|x| x as u32))
}

/// Round an integral-valued f64 to an integer of type `to`: saturating when `sat`,
/// otherwise keeping the low bits of the (range-limited) integer. NaN → 0.
fn float_to_int(f: f64, to: MemScalar, sat: bool) -> u64 {
    if f.is_nan() {
        return 0;
    }
    // i128 holds every integer an f64 within the 64-bit ranges can be; beyond that the
    // cast saturates, which is as good as any "undefined" value.
    let i = f as i128;
    int_to_int(i, to, sat)
}

/// Bits of an integer storage type.
fn int_bits(t: MemScalar) -> u32 {
    match t {
        MemScalar::S8 | MemScalar::U8 => 8,
        MemScalar::S16 | MemScalar::U16 | MemScalar::F16 => 16,
        MemScalar::S32 | MemScalar::U32 | MemScalar::F32 => 32,
        MemScalar::S64 | MemScalar::U64 | MemScalar::F64 => 64,
    }
}

fn is_signed(t: MemScalar) -> bool {
    matches!(
        t,
        MemScalar::S8 | MemScalar::S16 | MemScalar::S32 | MemScalar::S64
    )
}

fn is_float(t: MemScalar) -> bool {
    matches!(t, MemScalar::F16 | MemScalar::F32 | MemScalar::F64)
}

/// The 32/64-bit register type holding a storage type.
fn scalar_reg_type(t: MemScalar) -> DataType {
    match t {
        MemScalar::F16 | MemScalar::F32 => DataType::F32,
        MemScalar::F64 => DataType::F64,
        MemScalar::S8 | MemScalar::S16 | MemScalar::S32 => DataType::S32,
        MemScalar::S64 => DataType::S64,
        MemScalar::U8 | MemScalar::U16 | MemScalar::U32 => DataType::U32,
        MemScalar::U64 => DataType::U64,
    }
}

/// An integer converted to integer type `to`: clamped to its range with `sat`, else its
/// low bits; the result sign- or zero-extended to 64 bits ("the same base data type with
/// the register's size", NV_gpu_program5 section 2.X.8.Z, CVT).
fn int_to_int(i: i128, to: MemScalar, sat: bool) -> u64 {
    let bits = int_bits(to);
    let (lo, hi): (i128, i128) = if is_signed(to) {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    let v = if sat { i.clamp(lo, hi) } else { i };
    let low = (v as u64) & (u64::MAX >> (64 - bits));
    if is_signed(to) && bits < 64 {
        let sh = 64 - bits;
        (((low << sh) as i64) >> sh) as u64
    } else {
        low
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

/// Round the exact value `f` to half precision per `r` (NV_gpu_program5 CVT: "rounded to
/// one of the two nearest values in the destination type according to the rounding
/// modifier"; ROUND/default = nearest even). Overflow gives infinity or the largest
/// finite half as the direction demands; NaN stays NaN; subnormal halves are kept.
pub(crate) fn f64_to_f16(f: f64, r: Rounding) -> u16 {
    let sign: u16 = if f.is_sign_negative() { 0x8000 } else { 0 };
    if f.is_nan() {
        return sign | 0x7e00;
    }
    let a = f.abs();
    // Whether rounding moves the magnitude up when it is not exact.
    let away = match r {
        Rounding::Ceil => sign == 0,
        Rounding::Floor => sign != 0,
        Rounding::Trunc | Rounding::Default | Rounding::Nearest => false,
    };
    let nearest = matches!(r, Rounding::Default | Rounding::Nearest);
    const MAX: f64 = 65504.0;
    if a >= 65536.0 {
        // Beyond every half (infinity included): round-to-nearest and outward rounding
        // overflow; inward rounding stops at the largest finite value.
        let inf = a.is_infinite();
        return sign
            | if inf || nearest || away {
                0x7c00
            } else {
                0x7bff
            };
    }
    if a == 0.0 {
        return sign;
    }
    // Spacing of halves around `a`: 2^(e-10) for normals, 2^-24 for subnormals.
    let e = ((a.to_bits() >> 52) & 0x7ff) as i64 - 1023;
    let quantum = f64::from_bits(((e.max(-14) - 10 + 1023) as u64) << 52);
    let m = a / quantum; // exact: dividing by a power of two
    let floor = m.floor();
    let frac = m - floor;
    let k = if frac == 0.0 {
        floor
    } else if nearest {
        if frac > 0.5 || (frac == 0.5 && floor % 2.0 != 0.0) {
            floor + 1.0
        } else {
            floor
        }
    } else if away {
        floor + 1.0
    } else {
        floor
    };
    let v = k * quantum;
    if v > MAX {
        return sign | 0x7c00;
    }
    // `v` is a half value, so this conversion is exact.
    sign | half::f16::from_f64(v).to_bits()
}

/// The exact value of a CVT operand.
enum Exact {
    Float(f64),
    Int(i128),
}

/// CVT of one component. `x` is the operand as a 64-bit operand load gives it (floats as
/// f64 bits, integers sign- or zero-extended, F16 as raw bits in the low 16). The result
/// is in the register form of `to`: f32 bits for F32, f64 bits for F64, half bits in the
/// low 16 for F16 (the F16 storage modifier's definition), integers sign- or
/// zero-extended from `to`'s size to 64 bits.
pub(crate) fn cvt(x: u64, from: MemScalar, to: MemScalar, r: Rounding, sat: Saturate) -> u64 {
    // The operand is first reduced to `from`'s size (the register may be wider).
    let v = match from {
        MemScalar::F16 => Exact::Float(half::f16::from_bits(x as u16).to_f64()),
        MemScalar::F32 | MemScalar::F64 => Exact::Float(f64::from_bits(x)),
        _ => Exact::Int(match from {
            MemScalar::S8 => i128::from(x as i8),
            MemScalar::S16 => i128::from(x as i16),
            MemScalar::S32 => i128::from(x as i32),
            MemScalar::S64 => i128::from(x as i64),
            MemScalar::U8 => i128::from(x as u8),
            MemScalar::U16 => i128::from(x as u16),
            MemScalar::U32 => i128::from(x as u32),
            _ => i128::from(x),
        }),
    };
    if !is_float(to) {
        let sat = sat != Saturate::None;
        return match v {
            Exact::Float(f) => float_to_int(round_f64(f, r), to, sat),
            Exact::Int(i) => int_to_int(i, to, sat),
        };
    }
    match (v, to) {
        (Exact::Float(f), MemScalar::F64) => f.to_bits(),
        (Exact::Float(f), MemScalar::F32) => {
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
        (Exact::Float(f), _) => u64::from(f64_to_f16(saturate(f, sat), r)),
        (Exact::Int(i), MemScalar::F64) => int_to_f64(i, r).to_bits(),
        (Exact::Int(i), MemScalar::F32) => {
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
        (Exact::Int(i), _) => {
            // Integers beyond 2^53 are far beyond every half: any value that large rounds
            // the same way, and 2^60 is exact in f64.
            let f = if i.unsigned_abs() > 1 << 53 {
                (1u64 << 60) as f64 * if i < 0 { -1.0 } else { 1.0 }
            } else {
                i as f64
            };
            u64::from(f64_to_f16(saturate(f, sat), r))
        }
    }
}

/// `.SAT`/`.SSAT` of a float result that is rounded afterwards (F16): NaN → the low end.
fn saturate(f: f64, sat: Saturate) -> f64 {
    let lo = match sat {
        Saturate::None => return f,
        Saturate::Sat => 0.0,
        Saturate::SSat => -1.0,
    };
    if f.is_nan() {
        lo
    } else {
        f.clamp(lo, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use MemScalar::*;
    const NO: Saturate = Saturate::None;
    const SAT: Saturate = Saturate::Sat;

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
        assert_eq!(cvt(v, F32, S32, Rounding::Default, NO), 2);
        assert_eq!(cvt(v, F32, S32, Rounding::Ceil, NO), 3);
        assert_eq!(cvt(v, F32, S32, Rounding::Floor, NO), 2);
        assert_eq!(cvt(v, F32, S32, Rounding::Trunc, NO), 2);
        let n = f2u(-2.5);
        assert_eq!(cvt(n, F32, S32, Rounding::Nearest, NO) as i32, -2);
        assert_eq!(cvt(n, F32, S32, Rounding::Floor, NO) as i32, -3);
        assert_eq!(cvt(n, F32, S32, Rounding::Ceil, NO) as i32, -2);
        assert_eq!(cvt(n, F32, S32, Rounding::Trunc, NO) as i32, -2);
        assert_eq!(cvt(n, F32, U32, Rounding::Default, SAT), 0);
        assert_eq!(
            cvt(f2u(3e9), F32, S32, Rounding::Default, SAT) as i32,
            i32::MAX
        );
        // Without SAT the low bits are kept.
        assert_eq!(
            cvt(f2u(4294967296.0 + 512.0), F32, U32, Rounding::Default, NO),
            512
        );
    }

    #[test]
    fn cvt_int_to_float_modes() {
        let big = (1u64 << 24) + 1; // not representable in f32
        assert_eq!(
            f32::from_bits(cvt(big, U32, F32, Rounding::Nearest, NO) as u32),
            16777216.0
        );
        assert_eq!(
            f32::from_bits(cvt(big, U32, F32, Rounding::Ceil, NO) as u32),
            16777218.0
        );
        assert_eq!(
            f32::from_bits(cvt(big, U32, F32, Rounding::Floor, NO) as u32),
            16777216.0
        );
        let nb = (-(1i64 << 24) - 1) as u64;
        assert_eq!(
            f32::from_bits(cvt(nb, S64, F32, Rounding::Trunc, NO) as u32),
            -16777216.0
        );
        assert_eq!(
            f32::from_bits(cvt(nb, S64, F32, Rounding::Floor, NO) as u32),
            -16777218.0
        );
        assert_eq!(
            f64::from_bits(cvt(u64::MAX, U64, F64, Rounding::Floor, NO)),
            18446744073709549568.0
        );
    }

    #[test]
    fn cvt_float_float_and_int_int() {
        let third = (1.0f64 / 3.0).to_bits();
        let n = f32::from_bits(cvt(third, F64, F32, Rounding::Nearest, NO) as u32);
        let c = f32::from_bits(cvt(third, F64, F32, Rounding::Ceil, NO) as u32);
        let fl = f32::from_bits(cvt(third, F64, F32, Rounding::Floor, NO) as u32);
        assert!(f64::from(c) > 1.0 / 3.0 && f64::from(fl) < 1.0 / 3.0);
        assert!(n == c || n == fl);
        assert_eq!(cvt(0x1_0000_0005, U64, U32, Rounding::Default, NO), 5);
        assert_eq!(
            cvt(0x1_0000_0005, U64, U32, Rounding::Default, SAT),
            0xffff_ffff
        );
        assert_eq!(
            cvt(u64::from(u32::MAX), S32, S64, Rounding::Default, NO),
            u64::MAX
        );
        assert_eq!(
            cvt(u64::from(u32::MAX), U32, S64, Rounding::Default, NO),
            0xffff_ffff
        );
        assert_eq!(cvt((-5i64) as u64, S64, U32, Rounding::Default, SAT), 0);
    }

    fn h(x: f64, r: Rounding) -> u16 {
        cvt(x.to_bits(), F64, F16, r, NO) as u16
    }

    #[test]
    fn cvt_to_f16_rounding_modes() {
        // 1 + 2^-11 lies halfway between 1 and the next half (1 + 2^-10): ties go even.
        let tie = 1.0 + 2f64.powi(-11);
        assert_eq!(h(tie, Rounding::Nearest), 0x3c00);
        assert_eq!(h(tie, Rounding::Ceil), 0x3c01);
        assert_eq!(h(tie, Rounding::Floor), 0x3c00);
        assert_eq!(h(-tie, Rounding::Floor), 0xbc01);
        assert_eq!(h(-tie, Rounding::Trunc), 0xbc00);
        // Just above the tie: a sticky bit below half precision decides (an f64 → f16
        // conversion that drops low mantissa bits would round to even here).
        assert_eq!(h(tie + 2f64.powi(-40), Rounding::Nearest), 0x3c01);
        // 1 + 3·2^-11 is a tie with an odd lower neighbour: rounds up.
        assert_eq!(h(1.0 + 3.0 * 2f64.powi(-11), Rounding::Default), 0x3c02);
        // Overflow: 65520 is the first value rounding to infinity.
        assert_eq!(h(65519.0, Rounding::Nearest), 0x7bff);
        assert_eq!(h(65520.0, Rounding::Nearest), 0x7c00);
        assert_eq!(h(65505.0, Rounding::Ceil), 0x7c00);
        assert_eq!(h(1e10, Rounding::Trunc), 0x7bff);
        assert_eq!(h(-1e10, Rounding::Ceil), 0xfbff);
        assert_eq!(h(-1e10, Rounding::Floor), 0xfc00);
        assert_eq!(h(f64::INFINITY, Rounding::Trunc), 0x7c00);
        assert_eq!(h(f64::NEG_INFINITY, Rounding::Nearest), 0xfc00);
        assert_eq!(h(f64::NAN, Rounding::Nearest) & 0x7e00, 0x7e00);
        // Subnormal halves: 2^-24 is the smallest; half of it ties to zero (even).
        assert_eq!(h(2f64.powi(-24), Rounding::Nearest), 0x0001);
        assert_eq!(h(2f64.powi(-25), Rounding::Nearest), 0x0000);
        assert_eq!(h(2f64.powi(-25), Rounding::Ceil), 0x0001);
        assert_eq!(h(-2f64.powi(-30), Rounding::Ceil), 0x8000);
        assert_eq!(h(3.0 * 2f64.powi(-25), Rounding::Nearest), 0x0002);
        assert_eq!(h(-0.0, Rounding::Nearest), 0x8000);
    }

    #[test]
    fn cvt_from_f16_and_int_to_f16() {
        // Only the 16 low bits count; the value converts exactly.
        assert_eq!(
            f32::from_bits(cvt(0xdead_3e00, F16, F32, Rounding::Default, NO) as u32),
            1.5
        );
        assert_eq!(
            f64::from_bits(cvt(0x0001, F16, F64, Rounding::Default, NO)),
            2f64.powi(-24)
        );
        assert!(f32::from_bits(cvt(0x7c01, F16, F32, Rounding::Default, NO) as u32).is_nan());
        assert_eq!(
            f32::from_bits(cvt(0xfc00, F16, F32, Rounding::Default, NO) as u32),
            f32::NEG_INFINITY
        );
        // F16 → integer rounds per the modifier.
        assert_eq!(cvt(0x4100, F16, S8, Rounding::Nearest, NO), 2); // 2.5 → 2 (even)
        assert_eq!(cvt(0x4100, F16, S8, Rounding::Ceil, NO), 3);
        assert_eq!(cvt(0xc100, F16, S32, Rounding::Floor, NO) as i64, -3);
        // Integers to half: 2049 sits between 2048 and 2050.
        assert_eq!(cvt(2049, S32, F16, Rounding::Nearest, NO), 0x6800);
        assert_eq!(cvt(2049, S32, F16, Rounding::Ceil, NO), 0x6801);
        assert_eq!(cvt(u64::MAX, U64, F16, Rounding::Nearest, NO), 0x7c00);
        assert_eq!(cvt(u64::MAX, U64, F16, Rounding::Floor, NO), 0x7bff);
        assert_eq!(cvt(u64::MAX, S64, F16, Rounding::Nearest, NO), 0xbc00);
        assert_eq!(cvt(i64::MIN as u64, S64, F16, Rounding::Ceil, NO), 0xfbff);
        // Float saturation applies before rounding to half.
        assert_eq!(
            cvt(2.0f64.to_bits(), F64, F16, Rounding::Default, SAT),
            0x3c00
        );
        assert_eq!(
            cvt((-0.5f64).to_bits(), F64, F16, Rounding::Default, SAT),
            0x0000
        );
    }

    #[test]
    fn cvt_small_integers() {
        // The operand is first reduced to its declared size (drop high bits).
        assert_eq!(cvt(0x1ff, U8, U32, Rounding::Default, NO), 0xff);
        assert_eq!(cvt(0x1ff, S8, S32, Rounding::Default, NO) as i64, -1);
        assert_eq!(
            cvt(0x1_8000, S16, S64, Rounding::Default, NO) as i64,
            -32768
        );
        // Results keep their low bits without SAT, clamp with it, then widen by sign.
        assert_eq!(cvt(300, S32, U8, Rounding::Default, NO), 44);
        assert_eq!(cvt(300, S32, U8, Rounding::Default, SAT), 255);
        assert_eq!(cvt(200, S32, S8, Rounding::Default, NO) as i64, -56);
        assert_eq!(cvt(200, S32, S8, Rounding::Default, SAT), 127);
        assert_eq!(
            cvt((-200i64) as u64, S64, S8, Rounding::Default, SAT) as i64,
            -128
        );
        assert_eq!(cvt((-1i64) as u64, S64, U16, Rounding::Default, SAT), 0);
        assert_eq!(cvt((-1i64) as u64, S64, U16, Rounding::Default, NO), 0xffff);
        assert_eq!(
            cvt(0xffff_ffff_ffff, U64, S16, Rounding::Default, SAT),
            32767
        );
        // 64-bit and small types meet directly.
        assert_eq!(cvt(0xff, U8, U64, Rounding::Default, NO), 0xff);
        assert_eq!(cvt(0x80, S8, U64, Rounding::Default, NO), (-128i64) as u64);
        assert_eq!(cvt(0x80, S8, U64, Rounding::Default, SAT), 0);
        assert_eq!(
            f64::from_bits(cvt(0x80, S8, F64, Rounding::Default, NO)),
            -128.0
        );
        assert_eq!(cvt(1e3f64.to_bits(), F64, S8, Rounding::Default, SAT), 127);
        assert_eq!(cvt(1e3f64.to_bits(), F64, U16, Rounding::Default, NO), 1000);
        assert_eq!(
            cvt(70000.5f64.to_bits(), F64, U16, Rounding::Ceil, NO),
            70001 & 0xffff
        );
        // Integer saturation to 32 bits from a 64-bit operand.
        assert_eq!(
            cvt(1 << 40, S64, S32, Rounding::Default, SAT),
            i32::MAX as u64
        );
    }
}
