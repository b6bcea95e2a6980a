//! 64-bit arithmetic (`.F64`, `.S64`, `.U64`; NV_gpu_program5 and
//! NV_shader_atomic_int64/NV_gpu_shader5 style) on `LONG` registers.

use super::env::RunEnv;
use super::error::{invariant, ExecErrorKind};
use super::operand::{load64, Wide};
use super::run::{write64, Group, Run};
use super::{Vec4, MAX_LANES};
use crate::ir::{DataType, Inst, Opcode, Src};

type Res<T> = Result<T, ExecErrorKind>;

#[inline]
fn map2(a: &Wide, b: &Wide, f: impl Fn(u64, u64) -> u64) -> Wide {
    let mut r = [[0u64; MAX_LANES]; 4];
    for c in 0..4 {
        for l in 0..MAX_LANES {
            r[c][l] = f(a[c][l], b[c][l]);
        }
    }
    r
}

#[inline]
fn map1(a: &Wide, f: impl Fn(u64) -> u64) -> Wide {
    let b = *a;
    map2(a, &b, |x, _| f(x))
}

fn d(x: u64) -> f64 {
    f64::from_bits(x)
}

fn truth64(dt: DataType, t: bool) -> u64 {
    match (t, dt.is_float()) {
        (false, _) => 0,
        (true, true) => 1.0f64.to_bits(),
        (true, false) => u64::MAX,
    }
}

fn fmin(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b || (a == b && a.is_sign_negative()) {
        a
    } else {
        b
    }
}

fn fmax(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b || (a == b && b.is_sign_negative()) {
        a
    } else {
        b
    }
}

/// Per-lane "component is non-zero" of a 64-bit operand (for TGALL/TGANY/TGEQ).
pub(crate) fn load_as32_nonzero<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &Group,
    s: &Src,
    dt: DataType,
) -> Res<Vec4> {
    let acc = run.access(g);
    let v = load64(run.st, &acc, s, dt, &mut run.stats)?;
    Ok(v.map(|c| {
        c.map(|x| {
            u32::from(if dt.is_float() {
                f64::from_bits(x) != 0.0
            } else {
                x != 0
            })
        })
    }))
}

/// Write a TRUE/FALSE vector computed as 32-bit truth values, as 64-bit values.
pub(crate) fn write_truth<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &Group,
    inst: &Inst,
    r: &Vec4,
) -> Res<()> {
    let dt = inst.dtype;
    let w: Wide = r.map(|c| c.map(|x| truth64(dt, x != 0)));
    write64(run, g, inst, dt, &w)
}

pub(crate) fn exec<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &mut Group,
    inst: &Inst,
) -> Res<()> {
    use Opcode::*;
    let dt = inst.dtype;
    let float = dt.is_float();
    let signed = matches!(dt, DataType::S64);
    let load_ty = match inst.op {
        Round | Trunc | Flr | Ceil => DataType::F64,
        _ => dt,
    };
    let acc = run.access(g);
    let mut s = [[[0u64; MAX_LANES]; 4]; 3];
    for (i, src) in inst.srcs.iter().take(3).enumerate() {
        // SAD's third operand is always unsigned (NV_gpu_program4 section 2.X.8.Z).
        let ty = if inst.op == Sad && i == 2 {
            DataType::U64
        } else {
            load_ty
        };
        s[i] = load64(run.st, &acc, src, ty, &mut run.stats)?;
    }
    if inst.srcs.len() < inst.op.sources() {
        return Err(invariant("fewer source operands than the opcode reads"));
    }
    let [a, b, c] = s;
    let fop = |f: fn(f64, f64) -> f64| map2(&a, &b, |x, y| f(d(x), d(y)).to_bits());
    let scalar = |f: &dyn Fn(f64) -> f64| {
        let mut x = [0u64; MAX_LANES];
        for l in 0..MAX_LANES {
            x[l] = f(d(a[0][l])).to_bits();
        }
        [x, x, x, x]
    };
    let r: Wide = match inst.op {
        Mov | Swz => a,
        Abs => match dt {
            DataType::S64 => map1(&a, |x| (x as i64).wrapping_abs() as u64),
            DataType::U64 => a,
            _ => map1(&a, |x| x & !(1 << 63)),
        },
        Add if float => fop(|x, y| x + y),
        Sub if float => fop(|x, y| x - y),
        Mul if float => fop(|x, y| x * y),
        Add => map2(&a, &b, u64::wrapping_add),
        Sub => map2(&a, &b, u64::wrapping_sub),
        Mul => map2(&a, &b, u64::wrapping_mul),
        Mad => {
            let mut r = [[0u64; MAX_LANES]; 4];
            for k in 0..4 {
                for l in 0..MAX_LANES {
                    r[k][l] = if float {
                        (d(a[k][l]) * d(b[k][l]) + d(c[k][l])).to_bits()
                    } else {
                        a[k][l].wrapping_mul(b[k][l]).wrapping_add(c[k][l])
                    };
                }
            }
            r
        }
        Min | Max => {
            let max = inst.op == Max;
            map2(&a, &b, |x, y| match dt {
                DataType::S64 => {
                    let (x, y) = (x as i64, y as i64);
                    (if max { x.max(y) } else { x.min(y) }) as u64
                }
                DataType::U64 => {
                    if max {
                        x.max(y)
                    } else {
                        x.min(y)
                    }
                }
                _ => (if max {
                    fmax(d(x), d(y))
                } else {
                    fmin(d(x), d(y))
                })
                .to_bits(),
            })
        }
        Cmp => {
            let mut r = [[0u64; MAX_LANES]; 4];
            for k in 0..4 {
                for l in 0..MAX_LANES {
                    let neg = match dt {
                        DataType::S64 => (a[k][l] as i64) < 0,
                        DataType::U64 => false,
                        _ => d(a[k][l]) < 0.0,
                    };
                    r[k][l] = if neg { b[k][l] } else { c[k][l] };
                }
            }
            r
        }
        Div => {
            let sb = [b[0]; 4];
            map2(&a, &sb, |x, y| match dt {
                DataType::S64 => {
                    let (x, y) = (x as i64, y as i64);
                    (if y == 0 {
                        if x < 0 {
                            1
                        } else {
                            -1
                        }
                    } else {
                        x.wrapping_div(y)
                    }) as u64
                }
                DataType::U64 => x.checked_div(y).unwrap_or(u64::MAX),
                _ => (d(x) / d(y)).to_bits(),
            })
        }
        Mod if !float => {
            let sb = [b[0]; 4];
            map2(&a, &sb, |x, y| {
                if signed {
                    (x as i64).checked_rem(y as i64).unwrap_or(0) as u64
                } else {
                    x.checked_rem(y).unwrap_or(0)
                }
            })
        }
        Sad if !float => {
            // |op0 - op1| + op2, the sum unsigned and wrapping.
            let diff = map2(&a, &b, |x, y| {
                if signed {
                    (x as i64).abs_diff(y as i64)
                } else {
                    x.abs_diff(y)
                }
            });
            let r = map2(&diff, &c, u64::wrapping_add);
            return write64(run, g, inst, DataType::U64, &r);
        }
        Rcp if float => scalar(&|x| 1.0 / x),
        Rsq if float => scalar(&|x| 1.0 / x.sqrt()),
        Dp2 | Dp3 | Dp4 | Dph if float => {
            let n = match inst.op {
                Dp2 => 2,
                Dp4 => 4,
                _ => 3,
            };
            let mut x = [0f64; MAX_LANES];
            for k in 0..n {
                for l in 0..MAX_LANES {
                    x[l] += d(a[k][l]) * d(b[k][l]);
                }
            }
            if inst.op == Dph {
                for l in 0..MAX_LANES {
                    x[l] += d(b[3][l]);
                }
            }
            let x = x.map(f64::to_bits);
            [x, x, x, x]
        }
        Frc if float => map1(&a, |x| (d(x) - d(x).floor()).to_bits()),
        Flr | Ceil | Round | Trunc => {
            let f: fn(f64) -> f64 = match inst.op {
                Flr => f64::floor,
                Ceil => f64::ceil,
                Round => f64::round_ties_even,
                _ => f64::trunc,
            };
            map1(&a, |x| {
                let v = f(d(x));
                match dt {
                    DataType::S64 => (v as i64) as u64,
                    DataType::U64 => v as u64,
                    _ => v.to_bits(),
                }
            })
        }
        Ssg => map1(&a, |x| match dt {
            DataType::S64 => (x as i64).signum() as u64,
            DataType::U64 => u64::from(x != 0),
            _ => {
                let v = d(x);
                (if v > 0.0 {
                    1.0
                } else if v < 0.0 {
                    -1.0
                } else {
                    0.0f64
                })
                .to_bits()
            }
        }),
        Seq | Sne | Slt | Sle | Sgt | Sge => {
            let op = inst.op;
            map2(&a, &b, |x, y| {
                let ord = match dt {
                    DataType::S64 => Some((x as i64).cmp(&(y as i64))),
                    DataType::U64 => Some(x.cmp(&y)),
                    _ => d(x).partial_cmp(&d(y)),
                };
                use std::cmp::Ordering::*;
                let t = match (op, ord) {
                    (Sne, None) => true,
                    (_, None) => false,
                    (Seq, Some(o)) => o == Equal,
                    (Sne, Some(o)) => o != Equal,
                    (Slt, Some(o)) => o == Less,
                    (Sle, Some(o)) => o != Greater,
                    (Sgt, Some(o)) => o == Greater,
                    (_, Some(o)) => o != Less,
                };
                truth64(dt, t)
            })
        }
        Sfl => [[truth64(dt, false); MAX_LANES]; 4],
        Str => [[truth64(dt, true); MAX_LANES]; 4],
        And if !float => map2(&a, &b, |x, y| x & y),
        Or if !float => map2(&a, &b, |x, y| x | y),
        Xor if !float => map2(&a, &b, |x, y| x ^ y),
        Not if !float => map1(&a, |x| !x),
        Shl if !float => {
            let sb = [b[0]; 4];
            map2(&a, &sb, |x, n| x << (n & 63))
        }
        Shr if !float => {
            let sb = [b[0]; 4];
            map2(&a, &sb, |x, n| {
                if signed {
                    ((x as i64) >> (n & 63)) as u64
                } else {
                    x >> (n & 63)
                }
            })
        }
        _ => {
            return Err(ExecErrorKind::NotSupported(format!(
                "{:?} with 64-bit data type {:?}",
                inst.op, dt
            )))
        }
    };
    write64(run, g, inst, dt, &r)
}
