//! Arithmetic, logic and comparison instructions on 32-bit values (64-bit types go to
//! [`wide`](super::wide), conversions and packing to [`convert`](super::convert)).

use super::env::RunEnv;
use super::error::{invariant, ExecErrorKind};
use super::float::{
    add, exp_partial, f2s, f2u, fmax, fmin, lit, log_partial, lrp, mad, mul, rcc, round_even,
    round_keep_nan, ssg,
};
use super::int;
use super::operand::{
    load32, load32_into, store32, store_address_vec, CarryFlags, Ints, WriteInfo,
};
use super::run::{write32, Group, Next, Run};
use super::state::{CF, OF};
use super::{convert, wide, Vec4, MAX_LANES};
use crate::ir::{DataType, Dialect, File, Inst, Opcode, Src};

type Res<T> = Result<T, ExecErrorKind>;

#[inline]
fn map1(a: &Vec4, f: impl Fn(u32) -> u32) -> Vec4 {
    let mut r = [[0u32; MAX_LANES]; 4];
    for c in 0..4 {
        for l in 0..MAX_LANES {
            r[c][l] = f(a[c][l]);
        }
    }
    r
}

#[inline]
fn map2(a: &Vec4, b: &Vec4, f: impl Fn(u32, u32) -> u32) -> Vec4 {
    let mut r = [[0u32; MAX_LANES]; 4];
    for c in 0..4 {
        for l in 0..MAX_LANES {
            r[c][l] = f(a[c][l], b[c][l]);
        }
    }
    r
}

#[inline]
fn map3(a: &Vec4, b: &Vec4, d: &Vec4, f: impl Fn(u32, u32, u32) -> u32) -> Vec4 {
    let mut r = [[0u32; MAX_LANES]; 4];
    for c in 0..4 {
        for l in 0..MAX_LANES {
            r[c][l] = f(a[c][l], b[c][l], d[c][l]);
        }
    }
    r
}

/// Float lanes helpers: apply `f` to f32 views.
#[inline]
fn fmap1(a: &Vec4, f: impl Fn(f32) -> f32) -> Vec4 {
    map1(a, |x| f(f32::from_bits(x)).to_bits())
}
#[inline]
fn fmap2(a: &Vec4, b: &Vec4, f: impl Fn(f32, f32) -> f32) -> Vec4 {
    map2(a, b, |x, y| {
        f(f32::from_bits(x), f32::from_bits(y)).to_bits()
    })
}
#[inline]
fn fmap3(a: &Vec4, b: &Vec4, d: &Vec4, f: impl Fn(f32, f32, f32) -> f32) -> Vec4 {
    map3(a, b, d, |x, y, z| {
        f(f32::from_bits(x), f32::from_bits(y), f32::from_bits(z)).to_bits()
    })
}

/// A scalar (x of every lane) broadcast to all four components, computed by `f`.
#[inline]
fn fscalar(a: &Vec4, f: impl Fn(f32) -> f32) -> Vec4 {
    let mut x = [0u32; MAX_LANES];
    for l in 0..MAX_LANES {
        x[l] = f(f32::from_bits(a[0][l])).to_bits();
    }
    [x, x, x, x]
}

/// Dot product of the first `n` components (+ `b.w` when `homogeneous`), replicated.
#[inline]
fn dot(a: &Vec4, b: &Vec4, n: usize, homogeneous: bool) -> Vec4 {
    let mut x = [0f32; MAX_LANES];
    for c in 0..n {
        for l in 0..MAX_LANES {
            x[l] = add(x[l], mul(f32::from_bits(a[c][l]), f32::from_bits(b[c][l])));
        }
    }
    if homogeneous {
        for l in 0..MAX_LANES {
            x[l] = add(x[l], f32::from_bits(b[3][l]));
        }
    }
    let x = x.map(f32::to_bits);
    [x, x, x, x]
}

/// TRUE/FALSE of the "set on" and thread-group instructions for a type.
#[inline]
pub(crate) fn truth(dtype: DataType, b: bool) -> u32 {
    match (b, dtype.is_float()) {
        (false, _) => 0,
        (true, true) => 1.0f32.to_bits(),
        (true, false) => u32::MAX,
    }
}

/// Source `i` (the validator guarantees [`Opcode::sources`] of them).
fn src(inst: &Inst, i: usize) -> Res<&Src> {
    inst.srcs
        .get(i)
        .ok_or_else(|| invariant("fewer source operands than the opcode reads"))
}

pub(crate) fn exec<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &mut Group,
    inst: &Inst,
) -> Res<()> {
    use Opcode::*;
    match inst.op {
        I2f | F2i | Cvt | Pk2h | Pk2us | Pk4b | Pk4ub | Up2h | Up2us | Up4b | Up4ub | Pk64
        | Up64 => convert::exec(run, g, inst),
        Arl | Arr | Ara => address(run, g, inst),
        Tgall | Tgany | Tgeq => thread_group(run, g, inst),
        Tgballot => ballot(run, g, inst),
        Shfdown | Shfidx | Shfup | Shfxor => shuffle(run, g, inst),
        _ if inst.dtype.is_64() => wide::exec(run, g, inst),
        _ => arith32(run, g, inst),
    }
}

/// DDX/DDY outside fragment programs: the derivative of anything is zero.
pub(crate) fn zero_result<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &mut Group,
    inst: &Inst,
) -> Res<Next> {
    let z = [[0u32; MAX_LANES]; 4];
    write32(run, g, inst, inst.dtype, z, None)?;
    Ok(Next::Seq)
}

/// Load the instruction's sources into `out` (unused slots stay zero).
#[inline(always)]
fn loads<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &Group,
    inst: &Inst,
    dtype: DataType,
    out: &mut [Vec4; 3],
) -> Res<()> {
    let acc = run.access(g);
    for (o, s) in out.iter_mut().zip(inst.srcs.iter()) {
        load32_into(run.st, &acc, s, dtype, &mut run.stats, o)?;
    }
    Ok(())
}

/// The legacy dialects take |x| in RSQ and LG2 (ARB_vertex_program, NV_vertex_program).
fn legacy_abs(d: Dialect) -> bool {
    matches!(
        d,
        Dialect::Arb | Dialect::Vp10 | Dialect::Vp11 | Dialect::Vp20 | Dialect::Vsp10
    )
}

fn arith32<E: RunEnv + ?Sized>(run: &mut Run<'_, E>, g: &mut Group, inst: &Inst) -> Res<()> {
    // ROUND/TRUNC/FLR/CEIL always read floats and write the instruction's type.
    let load_ty = match inst.op {
        Opcode::Round | Opcode::Trunc | Opcode::Flr | Opcode::Ceil => DataType::F32,
        _ => inst.dtype,
    };
    // The operand buffer is reused across instructions so the loaded slots are not
    // zeroed first; only the slots this instruction does not load are cleared.
    let mut srcs = run
        .srcs
        .take()
        .unwrap_or_else(|| Box::new([[[0u32; MAX_LANES]; 4]; 3]));
    let res = loads(run, g, inst, load_ty, &mut srcs).and_then(|()| {
        for slot in srcs.iter_mut().skip(inst.srcs.len()) {
            *slot = [[0; MAX_LANES]; 4];
        }
        arith32_on(run, g, inst, &srcs)
    });
    run.srcs = Some(srcs);
    res
}

fn arith32_on<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &mut Group,
    inst: &Inst,
    srcs: &[Vec4; 3],
) -> Res<()> {
    use Opcode::*;
    let dt = inst.dtype;
    let float = dt.is_float();
    let [a, b, c] = srcs;
    let n = inst.srcs.len();
    let need = |k: usize| -> Res<()> {
        if n < k {
            Err(invariant("fewer source operands than the opcode reads"))
        } else {
            Ok(())
        }
    };
    let mut carry: Option<CarryFlags> = None;
    let r: Vec4 = match inst.op {
        Mov | Swz => {
            need(1)?;
            *a
        }
        Abs => {
            need(1)?;
            match dt {
                DataType::S32 => map1(a, |x| (x as i32).wrapping_abs() as u32),
                DataType::U32 => *a,
                _ => map1(a, |x| x & 0x7fff_ffff),
            }
        }
        Add | Sub => {
            need(2)?;
            let sub = inst.op == Sub;
            if float {
                if sub {
                    fmap2(a, b, |x, y| x - y)
                } else {
                    fmap2(a, b, add)
                }
            } else {
                if inst.cc_update.is_some() {
                    carry = Some(add_flags(run, g, inst, sub)?);
                }
                if sub {
                    map2(a, b, u32::wrapping_sub)
                } else {
                    map2(a, b, u32::wrapping_add)
                }
            }
        }
        Mul => {
            need(2)?;
            if float {
                fmap2(a, b, mul)
            } else {
                map2(a, b, u32::wrapping_mul)
            }
        }
        MulHi => {
            need(2)?;
            if dt == DataType::U32 {
                map2(a, b, |x, y| ((u64::from(x) * u64::from(y)) >> 32) as u32)
            } else {
                map2(a, b, |x, y| {
                    ((i64::from(x as i32) * i64::from(y as i32)) >> 32) as u32
                })
            }
        }
        Mad => {
            need(3)?;
            if float {
                fmap3(a, b, c, mad)
            } else {
                if inst.cc_update.is_some() {
                    let p = map2(a, b, u32::wrapping_mul);
                    carry = Some(flags_of(&p, c, false));
                }
                map3(a, b, c, |x, y, z| x.wrapping_mul(y).wrapping_add(z))
            }
        }
        Min | Max => {
            need(2)?;
            let max = inst.op == Max;
            match dt {
                DataType::S32 => map2(a, b, |x, y| {
                    let (x, y) = (x as i32, y as i32);
                    (if max { x.max(y) } else { x.min(y) }) as u32
                }),
                DataType::U32 => map2(a, b, |x, y| if max { x.max(y) } else { x.min(y) }),
                _ => {
                    if max {
                        fmap2(a, b, fmax)
                    } else {
                        fmap2(a, b, fmin)
                    }
                }
            }
        }
        Cmp => {
            need(3)?;
            map3(a, b, c, |x, y, z| {
                let neg = match dt {
                    DataType::S32 => (x as i32) < 0,
                    DataType::U32 => false,
                    _ => f32::from_bits(x) < 0.0,
                };
                if neg {
                    y
                } else {
                    z
                }
            })
        }
        Lrp => {
            need(3)?;
            fmap3(a, b, c, lrp)
        }
        Dp2 => {
            need(2)?;
            dot(a, b, 2, false)
        }
        Dp3 => {
            need(2)?;
            dot(a, b, 3, false)
        }
        Dp4 => {
            need(2)?;
            dot(a, b, 4, false)
        }
        Dph => {
            need(2)?;
            dot(a, b, 3, true)
        }
        Dp2a => {
            need(3)?;
            let mut d = dot(a, b, 2, false);
            for l in 0..MAX_LANES {
                let v = add(f32::from_bits(d[0][l]), f32::from_bits(c[0][l])).to_bits();
                for comp in d.iter_mut() {
                    comp[l] = v;
                }
            }
            d
        }
        Dst => {
            need(2)?;
            let mut r = [[0u32; MAX_LANES]; 4];
            for l in 0..MAX_LANES {
                r[0][l] = 1.0f32.to_bits();
                r[1][l] = mul(f32::from_bits(a[1][l]), f32::from_bits(b[1][l])).to_bits();
                r[2][l] = a[2][l];
                r[3][l] = b[3][l];
            }
            r
        }
        Xpd => {
            need(2)?;
            let mut r = [[0u32; MAX_LANES]; 4];
            for l in 0..MAX_LANES {
                let af = [0, 1, 2].map(|k| f32::from_bits(a[k][l]));
                let bf = [0, 1, 2].map(|k| f32::from_bits(b[k][l]));
                r[0][l] = (mul(af[1], bf[2]) - mul(af[2], bf[1])).to_bits();
                r[1][l] = (mul(af[2], bf[0]) - mul(af[0], bf[2])).to_bits();
                r[2][l] = (mul(af[0], bf[1]) - mul(af[1], bf[0])).to_bits();
            }
            r
        }
        Nrm => {
            need(1)?;
            let mut r = [[0u32; MAX_LANES]; 4];
            for l in 0..MAX_LANES {
                let v = [0, 1, 2].map(|k| f32::from_bits(a[k][l]));
                let sq = add(add(mul(v[0], v[0]), mul(v[1], v[1])), mul(v[2], v[2]));
                let s = 1.0 / sq.sqrt();
                for k in 0..3 {
                    r[k][l] = mul(v[k], s).to_bits();
                }
                r[3][l] = a[3][l];
            }
            r
        }
        Rfl => {
            need(2)?;
            let mut r = [[0u32; MAX_LANES]; 4];
            for l in 0..MAX_LANES {
                let ax = [0, 1, 2].map(|k| f32::from_bits(a[k][l]));
                let d = [0, 1, 2].map(|k| f32::from_bits(b[k][l]));
                let w = ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2];
                let t = 2.0 * (ax[0] * d[0] + ax[1] * d[1] + ax[2] * d[2]) / w;
                for k in 0..3 {
                    r[k][l] = (t * ax[k] - d[k]).to_bits();
                }
                r[3][l] = b[3][l];
            }
            r
        }
        X2d => {
            need(3)?;
            let mut r = [[0u32; MAX_LANES]; 4];
            for l in 0..MAX_LANES {
                let f = |v: &Vec4, k: usize| f32::from_bits(v[k][l]);
                let x = f(a, 0) + f(b, 0) * f(c, 0) + f(b, 1) * f(c, 1);
                let y = f(a, 1) + f(b, 0) * f(c, 2) + f(b, 1) * f(c, 3);
                r[0][l] = x.to_bits();
                r[1][l] = y.to_bits();
                r[2][l] = x.to_bits();
                r[3][l] = y.to_bits();
            }
            r
        }
        Div => {
            need(2)?;
            let s = [b[0]; 4];
            match dt {
                DataType::S32 => map2(a, &s, |x, y| int::sdiv(x as i32, y as i32) as u32),
                DataType::U32 => map2(a, &s, int::udiv),
                _ => fmap2(a, &s, |x, y| x / y),
            }
        }
        Mod => {
            need(2)?;
            let s = [b[0]; 4];
            match dt {
                DataType::U32 => map2(a, &s, |x, y| x.checked_rem(y).unwrap_or(0)),
                _ => map2(a, &s, |x, y| {
                    (x as i32).checked_rem(y as i32).unwrap_or(0) as u32
                }),
            }
        }
        Rcp => {
            need(1)?;
            fscalar(a, |x| 1.0 / x)
        }
        Rcc => {
            need(1)?;
            fscalar(a, rcc)
        }
        Rsq => {
            need(1)?;
            let abs = legacy_abs(run.prog.dialect);
            fscalar(a, |x| 1.0 / (if abs { x.abs() } else { x }).sqrt())
        }
        Ex2 => {
            need(1)?;
            fscalar(a, glemu_math::exp2)
        }
        Lg2 => {
            need(1)?;
            let abs = legacy_abs(run.prog.dialect);
            fscalar(a, |x| glemu_math::log2(if abs { x.abs() } else { x }))
        }
        Sin => {
            need(1)?;
            fscalar(a, glemu_math::sin)
        }
        Cos => {
            need(1)?;
            fscalar(a, glemu_math::cos)
        }
        Pow => {
            need(2)?;
            let mut x = [0u32; MAX_LANES];
            for l in 0..MAX_LANES {
                x[l] = glemu_math::pow(f32::from_bits(a[0][l]), f32::from_bits(b[0][l])).to_bits();
            }
            [x, x, x, x]
        }
        Scs => {
            need(1)?;
            let mut r = [[0u32; MAX_LANES]; 4];
            for l in 0..MAX_LANES {
                let x = f32::from_bits(a[0][l]);
                r[0][l] = glemu_math::cos(x).to_bits();
                r[1][l] = glemu_math::sin(x).to_bits();
            }
            r
        }
        Lit => {
            need(1)?;
            let mut r = [[0u32; MAX_LANES]; 4];
            for l in 0..MAX_LANES {
                let f = |k: usize| f32::from_bits(a[k][l]);
                let v = lit(f(0), f(1), f(3));
                for k in 0..4 {
                    r[k][l] = v[k].to_bits();
                }
            }
            r
        }
        Exp | Log => {
            need(1)?;
            let mut r = [[0u32; MAX_LANES]; 4];
            for l in 0..MAX_LANES {
                let x = f32::from_bits(a[0][l]);
                let v = if inst.op == Exp {
                    exp_partial(x)
                } else {
                    log_partial(x)
                };
                for k in 0..4 {
                    r[k][l] = v[k].to_bits();
                }
            }
            r
        }
        Frc => {
            need(1)?;
            fmap1(a, |x| {
                let r = x - x.floor();
                // Tiny negative values round up to 1.0; keep the result below 1.
                if r >= 1.0 {
                    f32::from_bits(0x3f7f_ffff)
                } else {
                    r
                }
            })
        }
        Flr | Ceil | Round | Trunc => {
            need(1)?;
            let f: fn(f32) -> f32 = match inst.op {
                Flr => f32::floor,
                Ceil => f32::ceil,
                Round => round_even,
                _ => f32::trunc,
            };
            match dt {
                DataType::S32 => map1(a, |x| f2s(f(f32::from_bits(x)))),
                DataType::U32 => map1(a, |x| f2u(f(f32::from_bits(x)))),
                _ => fmap1(a, |x| round_keep_nan(f, x)),
            }
        }
        Ssg => {
            need(1)?;
            match dt {
                DataType::S32 => map1(a, |x| (x as i32).signum() as u32),
                DataType::U32 => map1(a, |x| u32::from(x != 0)),
                _ => fmap1(a, ssg),
            }
        }
        Seq | Sne | Slt | Sle | Sgt | Sge => {
            need(2)?;
            let op = inst.op;
            map2(a, b, |x, y| {
                let ord = match dt {
                    DataType::S32 => Some((x as i32).cmp(&(y as i32))),
                    DataType::U32 => Some(x.cmp(&y)),
                    _ => f32::from_bits(x).partial_cmp(&f32::from_bits(y)),
                };
                use std::cmp::Ordering::*;
                let t = match (op, ord) {
                    // Unordered (NaN): only "not equal" is true.
                    (Sne, None) => true,
                    (_, None) => false,
                    (Seq, Some(o)) => o == Equal,
                    (Sne, Some(o)) => o != Equal,
                    (Slt, Some(o)) => o == Less,
                    (Sle, Some(o)) => o != Greater,
                    (Sgt, Some(o)) => o == Greater,
                    (_, Some(o)) => o != Less,
                };
                truth(dt, t)
            })
        }
        Sfl => [[truth(dt, false); MAX_LANES]; 4],
        Str => [[truth(dt, true); MAX_LANES]; 4],
        Ddx | Ddy => {
            need(1)?;
            derivative(a, inst.op == Ddy)
        }
        DdxCoarse | DdyCoarse => {
            need(1)?;
            coarse_derivative(a, inst.op == DdyCoarse)
        }
        And => {
            need(2)?;
            map2(a, b, |x, y| x & y)
        }
        Or => {
            need(2)?;
            map2(a, b, |x, y| x | y)
        }
        Xor => {
            need(2)?;
            map2(a, b, |x, y| x ^ y)
        }
        Not => {
            need(1)?;
            map1(a, |x| !x)
        }
        Shl => {
            need(2)?;
            let s = [b[0]; 4];
            map2(a, &s, int::shl)
        }
        Shr => {
            need(2)?;
            let s = [b[0]; 4];
            if dt == DataType::U32 {
                map2(a, &s, int::shr_u)
            } else {
                map2(a, &s, int::shr_s)
            }
        }
        Sad => {
            need(3)?;
            // The third operand is always unsigned (no negate difference for bits).
            let d = match dt {
                DataType::U32 => map2(a, b, |x, y| x.abs_diff(y)),
                _ => map2(a, b, |x, y| (x as i32).abs_diff(y as i32)),
            };
            if inst.cc_update.is_some() {
                carry = Some(flags_of(&d, c, false));
            }
            let r = map2(&d, c, u32::wrapping_add);
            return write32(run, g, inst, DataType::U32, r, carry.as_ref());
        }
        Bfe => {
            need(2)?;
            let signed = dt != DataType::U32;
            let (w, o) = ([a[0]; 4], [a[1]; 4]);
            map3(&w, &o, b, |w, o, v| int::bfe(w as i32, o as i32, v, signed))
        }
        Bfi => {
            need(3)?;
            let (w, o) = ([a[0]; 4], [a[1]; 4]);
            let mut r = [[0u32; MAX_LANES]; 4];
            for k in 0..4 {
                for l in 0..MAX_LANES {
                    r[k][l] = int::bfi(w[k][l] as i32, o[k][l] as i32, b[k][l], c[k][l]);
                }
            }
            r
        }
        Bfr => {
            need(1)?;
            map1(a, u32::reverse_bits)
        }
        Btc => {
            need(1)?;
            map1(a, u32::count_ones)
        }
        Btfl => {
            need(1)?;
            map1(a, |x| if x == 0 { u32::MAX } else { x.trailing_zeros() })
        }
        Btfm => {
            need(1)?;
            let signed = dt != DataType::U32;
            map1(a, |x| int::find_msb(x, signed))
        }
        _ => {
            return Err(ExecErrorKind::NotSupported(format!(
                "{:?} with data type {:?}",
                inst.op, dt
            )))
        }
    };
    write32(run, g, inst, dt, r, carry.as_ref())
}

/// Fine derivatives over 2×2 quads: lanes 4q..4q+3 are (x,y), (x+1,y), (x,y+1),
/// (x+1,y+1). Each lane gets the difference along its own row (DDX) or column (DDY).
fn derivative(a: &Vec4, ddy: bool) -> Vec4 {
    let mut r = [[0u32; MAX_LANES]; 4];
    for c in 0..4 {
        for q in 0..MAX_LANES / 4 {
            let v = |i: usize| f32::from_bits(a[c][4 * q + i]);
            let d = if ddy {
                [v(2) - v(0), v(3) - v(1), v(2) - v(0), v(3) - v(1)]
            } else {
                [v(1) - v(0), v(1) - v(0), v(3) - v(2), v(3) - v(2)]
            };
            for i in 0..4 {
                r[c][4 * q + i] = d[i].to_bits();
            }
        }
    }
    r
}

/// ARB_derivative_control's coarse derivative: one value for the whole quad, taken from
/// its top row (x) or left column (y) — the pixel pair the fine derivative of lane 0 uses.
fn coarse_derivative(a: &Vec4, ddy: bool) -> Vec4 {
    let mut r = [[0u32; MAX_LANES]; 4];
    for c in 0..4 {
        for q in 0..MAX_LANES / 4 {
            let v = |i: usize| f32::from_bits(a[c][4 * q + i]);
            let d = if ddy { v(2) - v(0) } else { v(1) - v(0) };
            for i in 0..4 {
                r[c][4 * q + i] = d.to_bits();
            }
        }
    }
    r
}

/// OF/CF of `x + y` (or `x - y` when `sub`) per component and lane.
fn flags_of(x: &Vec4, y: &Vec4, sub: bool) -> CarryFlags {
    let mut f = [[0u8; MAX_LANES]; 4];
    for c in 0..4 {
        for l in 0..MAX_LANES {
            let (a, b) = (x[c][l], y[c][l]);
            let (of, cf) = if sub {
                ((a as i32).checked_sub(b as i32).is_none(), a >= b)
            } else {
                (
                    (a as i32).checked_add(b as i32).is_none(),
                    a.checked_add(b).is_none(),
                )
            };
            f[c][l] = if of { OF } else { 0 } | if cf { CF } else { 0 };
        }
    }
    f
}

/// OF/CF for integer ADD/SUB, where a negated operand turns an add into a subtract and
/// vice versa (NV_gpu_program4 section 2.X.4.3).
fn add_flags<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &Group,
    inst: &Inst,
    sub: bool,
) -> Res<CarryFlags> {
    let (s0, s1) = (src(inst, 0)?, src(inst, 1)?);
    let mut p0 = s0.clone();
    let mut p1 = s1.clone();
    p0.negate = false;
    p1.negate = false;
    let acc = run.access(g);
    let x = load32(run.st, &acc, &p0, inst.dtype, &mut run.stats)?;
    let y = load32(run.st, &acc, &p1, inst.dtype, &mut run.stats)?;
    // Effective operation: sign of each term.
    let n0 = s0.negate;
    let n1 = s1.negate ^ sub;
    Ok(match (n0, n1) {
        (false, false) => flags_of(&x, &y, false),
        (false, true) => flags_of(&x, &y, true),
        (true, false) => flags_of(&y, &x, true),
        // -A-B: flags undefined; report the add of the negated values.
        (true, true) => {
            let xn = map1(&x, u32::wrapping_neg);
            let yn = map1(&y, u32::wrapping_neg);
            flags_of(&xn, &yn, false)
        }
    })
}

/// ARL / ARR / ARA: address register loads.
fn address<E: RunEnv + ?Sized>(run: &mut Run<'_, E>, g: &mut Group, inst: &Inst) -> Res<()> {
    let dst = inst
        .dst
        .as_ref()
        .ok_or_else(|| invariant("address instruction without destination"))?;
    let s = src(inst, 0)?;
    let acc = run.access(g);
    // NV_vertex_program2 address registers hold [-512, 511].
    let clamp = matches!(
        run.prog.dialect,
        Dialect::Vp10 | Dialect::Vp11 | Dialect::Vp20 | Dialect::Vsp10
    ) || inst.op != Opcode::Arl;
    let mut out: [Ints; 4] = [[0; MAX_LANES]; 4];
    match inst.op {
        Opcode::Ara => {
            let v = load32(run.st, &acc, s, DataType::S32, &mut run.stats)?;
            for l in 0..MAX_LANES {
                let x = (v[0][l] as i32).wrapping_add(v[2][l] as i32);
                let y = (v[1][l] as i32).wrapping_add(v[3][l] as i32);
                out[0][l] = x;
                out[1][l] = y;
                out[2][l] = x;
                out[3][l] = y;
            }
        }
        _ => {
            let dt = inst.dtype;
            let v = load32(run.st, &acc, s, dt, &mut run.stats)?;
            for c in 0..4 {
                for l in 0..MAX_LANES {
                    out[c][l] = match dt {
                        DataType::F32 | DataType::F64 => {
                            let f = f32::from_bits(v[c][l]);
                            let r = if inst.op == Opcode::Arr {
                                round_even(f)
                            } else {
                                f.floor()
                            };
                            r as i32
                        }
                        _ => v[c][l] as i32,
                    };
                }
            }
        }
    }
    if clamp {
        for c in out.iter_mut() {
            for x in c.iter_mut() {
                *x = (*x).clamp(-512, 511);
            }
        }
    }
    if dst.file != File::Address {
        return Err(invariant("address instruction writing no address register"));
    }
    if let Some(cc) = inst.cc_update {
        // Condition codes from the integer results (VP2 ARLC/ARRC/ARAC).
        let v: Vec4 = out.map(|c| c.map(|x| x as u32));
        let w = WriteInfo {
            dst,
            dtype: DataType::S32,
            sat: inst.sat,
            cc_update: Some(cc),
            carry: None,
        };
        return store32(run.st, &acc, &w, &v, &mut run.stats);
    }
    store_address_vec(run.st, &acc, dst, &out)
}

/// NV_shader_thread_shuffle: each lane reads `op0.x` of a source lane computed from its
/// thread id (its lane index, as `*.threadid` reports), `op1.x` (index) and `op2.x` (clamp
/// in bits 0-4, segmentation mask in bits 8-12); the result is (in range, value, 0, 0).
///
/// The spec's prose says "lower than" / "greater than" maxThreadId; read strictly that
/// would keep SHFUP from ever reading thread 0 and SHFDOWN from reading the segment's last
/// thread, so the bounds are inclusive, as in NVIDIA's SHFL instruction that these
/// opcodes expose. A source lane outside the batch (a warp here is a batch) or not running
/// this instruction is an "inactive thread" (undefined result): the lane keeps its own value.
fn shuffle<E: RunEnv + ?Sized>(run: &mut Run<'_, E>, g: &mut Group, inst: &Inst) -> Res<()> {
    let dt = inst.dtype;
    let acc = run.access(g);
    let value = load32(run.st, &acc, src(inst, 0)?, dt, &mut run.stats)?;
    let index = load32(run.st, &acc, src(inst, 1)?, DataType::U32, &mut run.stats)?;
    let mask = load32(run.st, &acc, src(inst, 2)?, DataType::U32, &mut run.stats)?;
    let mut r = [[0u32; MAX_LANES]; 4];
    for l in 0..MAX_LANES {
        if g.mask & (1 << l) == 0 {
            continue;
        }
        let lane = l as i64;
        let b = i64::from(index[0][l] & 31);
        let clamp = i64::from(mask[0][l] & 31);
        let seg = i64::from((mask[0][l] >> 8) & 31);
        let min = lane & seg;
        let max = min | (clamp & !seg);
        let (j, ok) = match inst.op {
            Opcode::Shfdown => (lane + b, lane + b <= max),
            Opcode::Shfup => (lane - b, lane - b >= max),
            Opcode::Shfxor => (lane ^ b, (lane ^ b) <= max),
            _ => {
                let j = (b & !seg) | min;
                (j, j <= max)
            }
        };
        let from = usize::try_from(j)
            .ok()
            .filter(|&j| ok && j < MAX_LANES && g.mask & (1 << j) != 0)
            .unwrap_or(l);
        r[0][l] = truth(dt, ok);
        r[1][l] = value[0][from];
    }
    write32(run, g, inst, dt, r, None)
}

/// TGBALLOT: bit `l` of each result component is set when lane `l` runs this
/// instruction with a non-zero operand component (a batch is the thread group).
fn ballot<E: RunEnv + ?Sized>(run: &mut Run<'_, E>, g: &mut Group, inst: &Inst) -> Res<()> {
    let dt = inst.dtype;
    let s = src(inst, 0)?;
    let acc = run.access(g);
    let v = if dt.is_64() {
        wide::load_as32_nonzero(run, g, s, dt)?
    } else {
        let v = load32(run.st, &acc, s, dt, &mut run.stats)?;
        map1(&v, |x| {
            u32::from(if dt.is_float() {
                f32::from_bits(x) != 0.0
            } else {
                x != 0
            })
        })
    };
    let mut r = [[0u32; MAX_LANES]; 4];
    for c in 0..4 {
        let bits = (0..MAX_LANES)
            .filter(|&l| g.mask & (1 << l) != 0 && v[c][l] != 0)
            .fold(0u32, |m, l| m | 1 << l);
        r[c] = [bits; MAX_LANES];
    }
    write32(run, g, inst, DataType::U32, r, None)
}

/// TGALL / TGANY / TGEQ over the lanes of the running group.
fn thread_group<E: RunEnv + ?Sized>(run: &mut Run<'_, E>, g: &mut Group, inst: &Inst) -> Res<()> {
    let dt = inst.dtype;
    let s = src(inst, 0)?;
    let acc = run.access(g);
    let v = if dt.is_64() {
        wide::load_as32_nonzero(run, g, s, dt)?
    } else {
        let v = load32(run.st, &acc, s, dt, &mut run.stats)?;
        map1(&v, |x| {
            u32::from(if dt.is_float() {
                f32::from_bits(x) != 0.0
            } else {
                x != 0
            })
        })
    };
    let mut r = [[0u32; MAX_LANES]; 4];
    for c in 0..4 {
        let mut all = true;
        let mut any = false;
        for l in 0..MAX_LANES {
            if g.mask & (1 << l) != 0 {
                if v[c][l] == 0 {
                    all = false;
                } else {
                    any = true;
                }
            }
        }
        let t = match inst.op {
            Opcode::Tgall => all,
            Opcode::Tgany => any,
            _ => all == any,
        };
        r[c] = [truth(dt, t); MAX_LANES];
    }
    if dt.is_64() {
        return wide::write_truth(run, g, inst, &r);
    }
    write32(run, g, inst, dt, r, None)
}
