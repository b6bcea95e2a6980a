//! Reading source operands and writing destinations for a group of lanes: relative
//! indexing with bounds checks, swizzles, negate/abs per data type, 32/64-bit register
//! conversion, saturation, reduced precision, condition-code updates and conditional
//! write masks.

use super::error::{invariant, ExecErrorKind, ExecStats};
use super::state::{LaneState, RegFile, CF, OF, SF, ZF};
use super::{LaneMask, Vec4, MAX_LANES};
use crate::ir::{
    CondOp, CondTest, DataType, Dst, ExtSwizzle, File, Index, IndexReg, Precision, Saturate, Src,
};

/// 64-bit values across lanes.
pub(crate) type Wide = [[u64; MAX_LANES]; 4];

/// Per-lane signed values (indices, counts).
pub(crate) type Ints = [i32; MAX_LANES];

/// What operand access needs besides the lane state.
pub(crate) struct Access<'a> {
    pub params: &'a [[u32; 4]],
    /// Counter of the innermost LOOP block of the running group (`A0.x` in FP2 loops).
    pub loop_counter: i32,
    pub mask: LaneMask,
    /// BUFFER/BUFFER4 operands of the current instruction, read through the environment
    /// before it runs: (buffer variable, element index, contents).
    /// (Owned: an empty Vec costs nothing to clone and keeps `Access` free of borrows of
    /// the run, so operands can be loaded while the lane state is borrowed mutably.)
    pub prefetched: Vec<(u32, Index, Option<Index>, Raw)>,
}

type Res<T> = Result<T, ExecErrorKind>;

/// Per-lane values of the register that supplies a relative index.
pub(crate) fn index_reg(st: &LaneState, acc: &Access, reg: IndexReg) -> Res<Ints> {
    let mut out = [0i32; MAX_LANES];
    match reg {
        IndexReg::Address { reg, comp } => {
            let a = st
                .address
                .get(reg as usize)
                .ok_or_else(|| invariant("address register out of range"))?;
            out = a[(comp & 3) as usize];
        }
        IndexReg::Temp { reg, comp } => {
            let t = st
                .temps
                .lo
                .get(reg as usize)
                .ok_or_else(|| invariant("index temp out of range"))?;
            for (o, v) in out.iter_mut().zip(t[(comp & 3) as usize].iter()) {
                *o = *v as i32;
            }
        }
        IndexReg::Input { slot, comp } => {
            let t = st
                .inputs
                .lo
                .get(slot as usize)
                .ok_or_else(|| invariant("index input out of range"))?;
            for (o, v) in out.iter_mut().zip(t[(comp & 3) as usize].iter()) {
                *o = *v as i32;
            }
        }
        IndexReg::LoopCounter => out = [acc.loop_counter; MAX_LANES],
    }
    Ok(out)
}

/// Resolve an index to a per-lane slot (`None` = out of range for that lane).
pub(crate) fn resolve_index(
    st: &LaneState,
    acc: &Access,
    index: &Index,
) -> Res<[Option<u32>; MAX_LANES]> {
    match *index {
        Index::Direct(i) => Ok([Some(i); MAX_LANES]),
        Index::Relative {
            reg,
            offset,
            base,
            len,
        } => {
            let r = index_reg(st, acc, reg)?;
            let mut out = [None; MAX_LANES];
            for (o, v) in out.iter_mut().zip(r.iter()) {
                let e = i64::from(*v) + i64::from(offset);
                if e >= 0 && e < i64::from(len) {
                    *o = base.checked_add(e as u32);
                }
            }
            Ok(out)
        }
    }
}

/// True if every lane resolved to the same slot.
fn uniform(slots: &[Option<u32>; MAX_LANES], mask: LaneMask) -> Option<Option<u32>> {
    let mut first: Option<Option<u32>> = None;
    for (l, s) in slots.iter().enumerate() {
        if mask & (1 << l) == 0 {
            continue;
        }
        match first {
            None => first = Some(*s),
            Some(f) if f != *s => return None,
            _ => {}
        }
    }
    Some(first.unwrap_or(None))
}

/// Raw register contents of an operand before swizzle: low words and, for 64-bit
/// registers, high words. `long` reports whether the source holds 64-bit values.
#[derive(Clone, Debug)]
pub(crate) struct Raw {
    pub lo: Vec4,
    pub hi: Vec4,
    pub long: bool,
}

fn gather_file(
    file: &RegFile,
    slots: &[Option<u32>; MAX_LANES],
    bias: usize,
    mask: LaneMask,
    stats: &mut ExecStats,
    raw: &mut Raw,
) {
    if let Some(u) = uniform(slots, mask) {
        match u.map(|s| s as usize + bias) {
            Some(i) if i < file.lo.len() => {
                raw.lo = file.lo[i];
                if file.is_long(i) {
                    if let Some(h) = file.hi.get(i) {
                        raw.hi = *h;
                        raw.long = true;
                    }
                }
            }
            _ => stats.oob_reads += u64::from(mask.count_ones()),
        }
        return;
    }
    for (l, s) in slots.iter().enumerate() {
        let i = s.map(|s| s as usize + bias);
        match i.and_then(|i| file.lo.get(i).map(|r| (i, r))) {
            Some((i, r)) => {
                for c in 0..4 {
                    raw.lo[c][l] = r[c][l];
                }
                if file.is_long(i) {
                    if let Some(h) = file.hi.get(i) {
                        for c in 0..4 {
                            raw.hi[c][l] = h[c][l];
                        }
                        raw.long = true;
                    }
                }
            }
            None => {
                if mask & (1 << l) != 0 {
                    stats.oob_reads += 1;
                }
            }
        }
    }
}

/// Load the unswizzled register behind `src`.
pub(crate) fn load_raw(st: &LaneState, acc: &Access, src: &Src, stats: &mut ExecStats) -> Res<Raw> {
    let mut raw = Raw {
        lo: [[0; MAX_LANES]; 4],
        hi: [[0; MAX_LANES]; 4],
        long: false,
    };
    match src.file {
        File::Immediate => {
            for c in 0..4 {
                raw.lo[c] = [src.imm[c] as u32; MAX_LANES];
                raw.hi[c] = [(src.imm[c] >> 32) as u32; MAX_LANES];
            }
            raw.long = true;
        }
        File::Temp => {
            let slots = resolve_index(st, acc, &src.index)?;
            gather_file(&st.temps, &slots, 0, acc.mask, stats, &mut raw);
        }
        File::Output => {
            let slots = resolve_index(st, acc, &src.index)?;
            gather_file(&st.outputs, &slots, 0, acc.mask, stats, &mut raw);
        }
        File::Input => {
            let slots = resolve_index(st, acc, &src.index)?;
            match &src.vertex {
                None => gather_file(&st.inputs, &slots, 0, acc.mask, stats, &mut raw),
                Some(vi) => {
                    let verts = resolve_index(st, acc, vi)?;
                    // Per-vertex inputs: fold the vertex into the slot (one copy of all
                    // input slots per vertex).
                    let n = st.n_inputs as u64;
                    let mut comb = [None; MAX_LANES];
                    for l in 0..MAX_LANES {
                        if let (Some(v), Some(s)) = (verts[l], slots[l]) {
                            if (v as usize) < st.vertices {
                                comb[l] = u32::try_from(u64::from(v) * n + u64::from(s)).ok();
                            }
                        }
                    }
                    gather_file(&st.inputs, &comb, 0, acc.mask, stats, &mut raw);
                }
            }
        }
        File::Param => {
            let slots = resolve_index(st, acc, &src.index)?;
            if let Some(u) = uniform(&slots, acc.mask) {
                match u.and_then(|s| acc.params.get(s as usize)) {
                    Some(p) => {
                        for c in 0..4 {
                            raw.lo[c] = [p[c]; MAX_LANES];
                        }
                    }
                    None => stats.oob_reads += u64::from(acc.mask.count_ones()),
                }
            } else {
                for (l, s) in slots.iter().enumerate() {
                    match s.and_then(|s| acc.params.get(s as usize)) {
                        Some(p) => {
                            for c in 0..4 {
                                raw.lo[c][l] = p[c];
                            }
                        }
                        None => {
                            if acc.mask & (1 << l) != 0 {
                                stats.oob_reads += 1;
                            }
                        }
                    }
                }
            }
        }
        File::Address => {
            let slots = resolve_index(st, acc, &src.index)?;
            for (l, s) in slots.iter().enumerate() {
                if let Some(a) = s.and_then(|s| st.address.get(s as usize)) {
                    for c in 0..4 {
                        raw.lo[c][l] = a[c][l] as u32;
                    }
                }
            }
        }
        File::Buffer => {
            match acc
                .prefetched
                .iter()
                .find(|(b, i, v, _)| *b == src.buffer && *i == src.index && *v == src.vertex)
            {
                Some((_, _, _, r)) => return Ok(r.clone()),
                None => {
                    return Err(invariant(
                        "a BUFFER operand read as a value was not fetched",
                    ))
                }
            }
        }
    }
    Ok(raw)
}

/// Apply a swizzle (or SWZ's extended swizzle) to raw 32-bit words.
fn swizzle32(src: &Src, v: &Vec4, dtype: DataType) -> Vec4 {
    let mut out = [[0u32; MAX_LANES]; 4];
    match &src.ext_swizzle {
        None => {
            for c in 0..4 {
                out[c] = v[(src.swizzle[c] & 3) as usize];
            }
        }
        Some(ext) => {
            let one = match dtype {
                DataType::F32 | DataType::F64 => 1.0f32.to_bits(),
                _ => 1,
            };
            for c in 0..4 {
                out[c] = match ext[c] {
                    ExtSwizzle::Zero => [0; MAX_LANES],
                    ExtSwizzle::One => [one; MAX_LANES],
                    ExtSwizzle::Comp(k) => v[(k & 3) as usize],
                    ExtSwizzle::NegZero => [negate32(0, dtype); MAX_LANES],
                    ExtSwizzle::NegOne => [negate32(one, dtype); MAX_LANES],
                    ExtSwizzle::NegComp(k) => v[(k & 3) as usize].map(|x| negate32(x, dtype)),
                };
            }
        }
    }
    out
}

#[inline]
fn negate32(x: u32, dtype: DataType) -> u32 {
    match dtype {
        DataType::F32 | DataType::F64 => x ^ 0x8000_0000,
        _ => x.wrapping_neg(),
    }
}

/// Load a source operand as 32-bit values of type `dtype` (swizzled, negate/abs applied).
/// A 64-bit register is narrowed first: f64 → f32 rounding, integers truncated.
pub(crate) fn load32(
    st: &LaneState,
    acc: &Access,
    src: &Src,
    dtype: DataType,
    stats: &mut ExecStats,
) -> Res<Vec4> {
    let mut out = [[0u32; MAX_LANES]; 4];
    load32_into(st, acc, src, dtype, stats, &mut out)?;
    Ok(out)
}

/// The register a direct, 32-bit operand reads (the common case), if `src` is one.
fn direct_reg<'s>(st: &'s LaneState, src: &Src) -> Option<&'s Vec4> {
    let Index::Direct(i) = src.index else {
        return None;
    };
    if src.vertex.is_some() || src.ext_swizzle.is_some() {
        return None;
    }
    let i = i as usize;
    let file = match src.file {
        File::Temp => &st.temps,
        File::Input => &st.inputs,
        File::Output => &st.outputs,
        _ => return None,
    };
    if file.is_long(i) {
        return None;
    }
    file.lo.get(i)
}

/// [`load32`] into a caller's buffer; direct 32-bit registers and params are swizzled
/// straight from the register file without intermediate copies.
pub(crate) fn load32_into(
    st: &LaneState,
    acc: &Access,
    src: &Src,
    dtype: DataType,
    stats: &mut ExecStats,
    out: &mut Vec4,
) -> Res<()> {
    if let Some(r) = direct_reg(st, src) {
        for c in 0..4 {
            out[c] = r[(src.swizzle[c] & 3) as usize];
        }
        apply_mods32(out, src, dtype);
        return Ok(());
    }
    if let (File::Param, Index::Direct(i), None) = (src.file, src.index, &src.ext_swizzle) {
        match acc.params.get(i as usize) {
            Some(p) => {
                for c in 0..4 {
                    out[c] = [p[(src.swizzle[c] & 3) as usize]; MAX_LANES];
                }
            }
            None => {
                stats.oob_reads += u64::from(acc.mask.count_ones());
                *out = [[0; MAX_LANES]; 4];
            }
        }
        apply_mods32(out, src, dtype);
        return Ok(());
    }
    let raw = load_raw(st, acc, src, stats)?;
    *out = shape32(&raw, src, dtype);
    Ok(())
}

/// Swizzle and modify raw register contents as a 32-bit operand of type `dtype`.
pub(crate) fn shape32(raw: &Raw, src: &Src, dtype: DataType) -> Vec4 {
    let mut v = raw.lo;
    if raw.long {
        for c in 0..4 {
            for l in 0..MAX_LANES {
                let w = u64::from(raw.lo[c][l]) | (u64::from(raw.hi[c][l]) << 32);
                v[c][l] = match dtype {
                    DataType::F32 | DataType::F64 => (f64::from_bits(w) as f32).to_bits(),
                    _ => w as u32,
                };
            }
        }
    }
    let mut v = swizzle32(src, &v, dtype);
    apply_mods32(&mut v, src, dtype);
    v
}

pub(crate) fn apply_mods32(v: &mut Vec4, src: &Src, dtype: DataType) {
    if !src.abs && !src.negate {
        return;
    }
    match dtype {
        DataType::F32 | DataType::F64 => {
            let and = if src.abs { 0x7fff_ffff } else { u32::MAX };
            let xor = if src.negate { 0x8000_0000 } else { 0 };
            for c in v.iter_mut() {
                for x in c.iter_mut() {
                    *x = (*x & and) ^ xor;
                }
            }
        }
        DataType::S32 | DataType::S64 => {
            for c in v.iter_mut() {
                for x in c.iter_mut() {
                    let mut y = *x as i32;
                    if src.abs {
                        y = y.wrapping_abs();
                    }
                    if src.negate {
                        y = y.wrapping_neg();
                    }
                    *x = y as u32;
                }
            }
        }
        DataType::U32 | DataType::U64 => {
            // Absolute value has no effect on unsigned operands; negate is two's complement.
            if src.negate {
                for c in v.iter_mut() {
                    for x in c.iter_mut() {
                        *x = x.wrapping_neg();
                    }
                }
            }
        }
    }
}

/// Load a source operand as 64-bit values of type `dtype`. A 32-bit register is widened
/// first: f32 → f64, s32 sign-extended, u32 zero-extended.
pub(crate) fn load64(
    st: &LaneState,
    acc: &Access,
    src: &Src,
    dtype: DataType,
    stats: &mut ExecStats,
) -> Res<Wide> {
    let raw = load_raw(st, acc, src, stats)?;
    Ok(shape64(&raw, src, dtype))
}

/// Swizzle and modify raw register contents as a 64-bit operand of type `dtype`.
pub(crate) fn shape64(raw: &Raw, src: &Src, dtype: DataType) -> Wide {
    let mut w: Wide = [[0; MAX_LANES]; 4];
    for c in 0..4 {
        for l in 0..MAX_LANES {
            let lo = raw.lo[c][l];
            w[c][l] = if raw.long {
                u64::from(lo) | (u64::from(raw.hi[c][l]) << 32)
            } else {
                match dtype {
                    DataType::F32 | DataType::F64 => f64::from(f32::from_bits(lo)).to_bits(),
                    DataType::S32 | DataType::S64 => i64::from(lo as i32) as u64,
                    DataType::U32 | DataType::U64 => u64::from(lo),
                }
            };
        }
    }
    let mut out: Wide = [[0; MAX_LANES]; 4];
    match &src.ext_swizzle {
        None => {
            for c in 0..4 {
                out[c] = w[(src.swizzle[c] & 3) as usize];
            }
        }
        Some(ext) => {
            let one = if dtype.is_float() {
                1.0f64.to_bits()
            } else {
                1
            };
            for c in 0..4 {
                out[c] = match ext[c] {
                    ExtSwizzle::Zero => [0; MAX_LANES],
                    ExtSwizzle::One => [one; MAX_LANES],
                    ExtSwizzle::Comp(k) => w[(k & 3) as usize],
                    ExtSwizzle::NegZero => [neg64(0, dtype); MAX_LANES],
                    ExtSwizzle::NegOne => [neg64(one, dtype); MAX_LANES],
                    ExtSwizzle::NegComp(k) => w[(k & 3) as usize].map(|x| neg64(x, dtype)),
                };
            }
        }
    }
    if src.abs || src.negate {
        for c in out.iter_mut() {
            for x in c.iter_mut() {
                *x = match dtype {
                    DataType::F32 | DataType::F64 => {
                        let a = if src.abs { *x & !(1u64 << 63) } else { *x };
                        if src.negate {
                            a ^ (1u64 << 63)
                        } else {
                            a
                        }
                    }
                    DataType::S32 | DataType::S64 => {
                        let mut y = *x as i64;
                        if src.abs {
                            y = y.wrapping_abs();
                        }
                        if src.negate {
                            y = y.wrapping_neg();
                        }
                        y as u64
                    }
                    DataType::U32 | DataType::U64 => {
                        if src.negate {
                            x.wrapping_neg()
                        } else {
                            *x
                        }
                    }
                };
            }
        }
    }
    out
}

fn neg64(x: u64, dtype: DataType) -> u64 {
    if dtype.is_float() {
        x ^ (1 << 63)
    } else {
        x.wrapping_neg()
    }
}

/// Evaluate a condition-code test for every lane: `[comp][lane]` after the test's swizzle.
pub(crate) fn cond_test(st: &LaneState, t: &CondTest) -> [[bool; MAX_LANES]; 4] {
    let cc = &st.cc[(t.cc & 1) as usize];
    let mut out = [[false; MAX_LANES]; 4];
    for c in 0..4 {
        let src = &cc[(t.swizzle[c] & 3) as usize];
        for l in 0..MAX_LANES {
            out[c][l] = test_flags(t.op, src[l]);
        }
    }
    out
}

/// Table X.16 of NV_gpu_program4.
#[inline]
pub(crate) fn test_flags(op: CondOp, f: u8) -> bool {
    let sf = f & SF != 0;
    let zf = f & ZF != 0;
    let of = f & OF != 0;
    let cf = f & CF != 0;
    match op {
        CondOp::Eq => !sf && zf,
        CondOp::Ne => sf || !zf,
        CondOp::Lt => (sf && !zf) ^ of,
        CondOp::Ge => !(sf ^ of),
        CondOp::Le => sf ^ (zf || of),
        CondOp::Gt => (!sf ^ of) && !zf,
        CondOp::Tr => true,
        CondOp::Fl => false,
        CondOp::Nan => sf && zf,
        CondOp::Leg => !sf || !zf,
        CondOp::Cf => cf,
        CondOp::Ncf => !cf,
        CondOp::Of => of,
        CondOp::Nof => !of,
        CondOp::Ab => cf && !zf,
        CondOp::Ble => !cf || zf,
        CondOp::Sf => sf,
        CondOp::Nsf => !sf,
    }
}

/// Lanes (of `mask`) for which any component of the test passes: the rule for IF, BRK,
/// CONT, CAL, RET, BRA and KIL condition tests.
pub(crate) fn cond_any(st: &LaneState, t: &Option<CondTest>, mask: LaneMask) -> LaneMask {
    let t = match t {
        None => return mask,
        Some(t) => t,
    };
    let r = cond_test(st, t);
    let mut out = 0;
    for l in 0..MAX_LANES {
        if r[0][l] || r[1][l] || r[2][l] || r[3][l] {
            out |= 1 << l;
        }
    }
    out & mask
}

/// Extra flags (overflow, carry) of integer add/subtract results, `[comp][lane]`.
pub(crate) type CarryFlags = [[u8; MAX_LANES]; 4];

/// Everything a destination write needs.
pub(crate) struct WriteInfo<'a> {
    pub dst: &'a Dst,
    pub dtype: DataType,
    pub sat: Saturate,
    pub cc_update: Option<u8>,
    /// OF/CF for integer add-like instructions.
    pub carry: Option<&'a CarryFlags>,
}

/// Clamp/round a 32-bit result in place as `.SAT/.SSAT` and the precision ask.
pub(crate) fn finish32(v: &mut Vec4, dtype: DataType, sat: Saturate, precision: Precision) {
    if dtype != DataType::F32 {
        return;
    }
    match precision {
        Precision::Full => {}
        Precision::Half => {
            for c in v.iter_mut() {
                for x in c.iter_mut() {
                    *x = half::f16::from_f32(f32::from_bits(*x)).to_f32().to_bits();
                }
            }
        }
        Precision::Fixed => {
            // FP1 fixed point: s1.10, range [-2, 2), steps of 1/1024.
            for c in v.iter_mut() {
                for x in c.iter_mut() {
                    let f = f32::from_bits(*x);
                    let q = if f.is_nan() {
                        0.0
                    } else {
                        ((f * 1024.0).round() / 1024.0).clamp(-2.0, 2.0 - 1.0 / 1024.0)
                    };
                    *x = q.to_bits();
                }
            }
        }
    }
    match sat {
        Saturate::None => {}
        Saturate::Sat => clamp_f32(v, 0.0),
        Saturate::SSat => clamp_f32(v, -1.0),
    }
}

fn clamp_f32(v: &mut Vec4, lo: f32) {
    for c in v.iter_mut() {
        for x in c.iter_mut() {
            *x = clamp_lane(*x, lo);
        }
    }
}

/// One lane of a saturated result: clamped to [`lo`, 1] (`lo` is 0 or -1).
#[inline(always)]
pub(crate) fn clamp_lane(x: u32, lo: f32) -> u32 {
    let f = f32::from_bits(x);
    // NaN saturates to the lower bound (min/max ordering as hardware does it); -0
    // clamps to +0 for [0,1]. Selects, not branches: block runs vectorise it.
    let sel = |c: bool, a: u32, b: u32| {
        let m = u32::from(c).wrapping_neg();
        (a & m) | (b & !m)
    };
    let r = sel(f > 1.0, 1.0f32.to_bits(), x);
    let r = sel(f.is_nan() | (f < lo), lo.to_bits(), r);
    sel(lo == 0.0 && f32::from_bits(r) == 0.0, 0, r)
}

/// Condition-code flags of a 32-bit result.
#[inline]
fn flags32(x: u32, dtype: DataType) -> u8 {
    match dtype {
        DataType::F32 | DataType::F64 => {
            let f = f32::from_bits(x);
            if f.is_nan() {
                SF | ZF
            } else {
                (if f < 0.0 { SF } else { 0 }) | (if f == 0.0 { ZF } else { 0 })
            }
        }
        _ => (if x & 0x8000_0000 != 0 { SF } else { 0 }) | (if x == 0 { ZF } else { 0 }),
    }
}

#[inline]
fn flags64(x: u64, dtype: DataType) -> u8 {
    match dtype {
        DataType::F32 | DataType::F64 => {
            let f = f64::from_bits(x);
            if f.is_nan() {
                SF | ZF
            } else {
                (if f < 0.0 { SF } else { 0 }) | (if f == 0.0 { ZF } else { 0 })
            }
        }
        _ => (if x >> 63 != 0 { SF } else { 0 }) | (if x == 0 { ZF } else { 0 }),
    }
}

/// Per-component, per-lane write enable: write mask ∧ condition mask ∧ lane mask.
fn write_enables(st: &LaneState, dst: &Dst, mask: LaneMask) -> [LaneMask; 4] {
    let mut en = [0; 4];
    let cond = dst.cond.as_ref().map(|t| cond_test(st, t));
    for (c, e) in en.iter_mut().enumerate() {
        if dst.mask & (1 << c) == 0 {
            continue;
        }
        let mut m = mask;
        if let Some(r) = &cond {
            for l in 0..MAX_LANES {
                if !r[c][l] {
                    m &= !(1 << l);
                }
            }
        }
        *e = m;
    }
    en
}

fn dst_file(st: &mut LaneState, file: File) -> Res<&mut RegFile> {
    match file {
        File::Temp => Ok(&mut st.temps),
        File::Output => Ok(&mut st.outputs),
        _ => Err(invariant("destination is not a temp or output")),
    }
}

/// Write a 32-bit result of type `dtype` (already finished with [`finish32`]).
pub(crate) fn store32(
    st: &mut LaneState,
    acc: &Access,
    w: &WriteInfo,
    v: &Vec4,
    stats: &mut ExecStats,
) -> Res<()> {
    let en = write_enables(st, w.dst, acc.mask);
    if let Some(cc) = w.cc_update {
        let reg = &mut st.cc[(cc & 1) as usize];
        for c in 0..4 {
            for l in 0..MAX_LANES {
                if en[c] & (1 << l) != 0 {
                    let extra = w.carry.map_or(0, |k| k[c][l]);
                    reg[c][l] = flags32(v[c][l], w.dtype) | extra;
                }
            }
        }
    }
    if w.dst.file == File::Address {
        return store_address(st, acc, w.dst, &en, |c, l| v[c][l] as i32);
    }
    if let Index::Direct(i) = w.dst.index {
        let file = dst_file(st, w.dst.file)?;
        let i = i as usize;
        if !file.is_long(i) {
            // Common case: masked select into one 32-bit register (vectorizes).
            let Some(r) = file.lo.get_mut(i) else {
                stats.oob_writes += u64::from(en.iter().map(|m| m.count_ones()).sum::<u32>());
                return Ok(());
            };
            const ALL: LaneMask = (1 << MAX_LANES) - 1;
            for c in 0..4 {
                let m = en[c];
                if m == 0 {
                    continue;
                }
                if m & ALL == ALL {
                    r[c] = v[c];
                    continue;
                }
                // Branch-free select: expand the lane bits to word masks first.
                let mut sel = [0u32; MAX_LANES];
                for (l, x) in sel.iter_mut().enumerate() {
                    *x = 0u32.wrapping_sub((m >> l) & 1);
                }
                let d = &mut r[c];
                let s = &v[c];
                for l in 0..MAX_LANES {
                    d[l] = (s[l] & sel[l]) | (d[l] & !sel[l]);
                }
            }
            return Ok(());
        }
    }
    let slots = resolve_index(st, acc, &w.dst.index)?;
    let dtype = w.dtype;
    let file = dst_file(st, w.dst.file)?;
    for c in 0..4 {
        for l in 0..MAX_LANES {
            if en[c] & (1 << l) == 0 {
                continue;
            }
            let Some(i) = slots[l].map(|s| s as usize).filter(|&i| i < file.lo.len()) else {
                stats.oob_writes += 1;
                continue;
            };
            let x = v[c][l];
            if file.is_long(i) {
                let wv = widen(x, dtype);
                file.lo[i][c][l] = wv as u32;
                if let Some(h) = file.hi.get_mut(i) {
                    h[c][l] = (wv >> 32) as u32;
                }
            } else {
                file.lo[i][c][l] = x;
            }
        }
    }
    Ok(())
}

#[inline]
fn widen(x: u32, dtype: DataType) -> u64 {
    match dtype {
        DataType::F32 | DataType::F64 => f64::from(f32::from_bits(x)).to_bits(),
        DataType::S32 | DataType::S64 => i64::from(x as i32) as u64,
        DataType::U32 | DataType::U64 => u64::from(x),
    }
}

/// Write a 64-bit result of type `dtype` (a 32-bit destination receives the narrowed
/// value: f64 → f32 rounding, integers truncated).
pub(crate) fn store64(
    st: &mut LaneState,
    acc: &Access,
    w: &WriteInfo,
    v: &Wide,
    stats: &mut ExecStats,
) -> Res<()> {
    let en = write_enables(st, w.dst, acc.mask);
    let mut v = *v;
    if w.dtype.is_float() {
        match w.sat {
            Saturate::None => {}
            Saturate::Sat | Saturate::SSat => {
                let lo = if w.sat == Saturate::Sat { 0.0 } else { -1.0 };
                for c in v.iter_mut() {
                    for x in c.iter_mut() {
                        let f = f64::from_bits(*x);
                        let r = if f.is_nan() { lo } else { f.clamp(lo, 1.0) };
                        *x = (if r == 0.0 { 0.0 } else { r }).to_bits();
                    }
                }
            }
        }
    }
    if let Some(cc) = w.cc_update {
        let reg = &mut st.cc[(cc & 1) as usize];
        for c in 0..4 {
            for l in 0..MAX_LANES {
                if en[c] & (1 << l) != 0 {
                    let extra = w.carry.map_or(0, |k| k[c][l]);
                    reg[c][l] = flags64(v[c][l], w.dtype) | extra;
                }
            }
        }
    }
    if w.dst.file == File::Address {
        return store_address(st, acc, w.dst, &en, |c, l| v[c][l] as i32);
    }
    let slots = resolve_index(st, acc, &w.dst.index)?;
    let dtype = w.dtype;
    let file = dst_file(st, w.dst.file)?;
    for c in 0..4 {
        for l in 0..MAX_LANES {
            if en[c] & (1 << l) == 0 {
                continue;
            }
            let Some(i) = slots[l].map(|s| s as usize).filter(|&i| i < file.lo.len()) else {
                stats.oob_writes += 1;
                continue;
            };
            let x = v[c][l];
            if file.is_long(i) {
                file.lo[i][c][l] = x as u32;
                if let Some(h) = file.hi.get_mut(i) {
                    h[c][l] = (x >> 32) as u32;
                }
            } else {
                file.lo[i][c][l] = if dtype.is_float() {
                    (f64::from_bits(x) as f32).to_bits()
                } else {
                    x as u32
                };
            }
        }
    }
    Ok(())
}

fn store_address(
    st: &mut LaneState,
    acc: &Access,
    dst: &Dst,
    en: &[LaneMask; 4],
    value: impl Fn(usize, usize) -> i32,
) -> Res<()> {
    let slots = resolve_index(st, acc, &dst.index)?;
    for c in 0..4 {
        for l in 0..MAX_LANES {
            if en[c] & (1 << l) == 0 {
                continue;
            }
            if let Some(a) = slots[l].and_then(|s| st.address.get_mut(s as usize)) {
                a[c][l] = value(c, l);
            }
        }
    }
    Ok(())
}

/// Write per-lane address-register values (ARL/ARR/ARA/POPA), honouring the write and
/// condition masks.
pub(crate) fn store_address_vec(
    st: &mut LaneState,
    acc: &Access,
    dst: &Dst,
    v: &[Ints; 4],
) -> Res<()> {
    let en = write_enables(st, dst, acc.mask);
    store_address(st, acc, dst, &en, |c, l| v[c][l])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn condition_table_x16() {
        use CondOp::*;
        // (SF, ZF, OF, CF) patterns: negative, zero, positive, NaN, carry, overflow.
        let neg = SF;
        let zero = ZF;
        let pos = 0;
        let nan = SF | ZF;
        let carry = CF;
        let ovf_pos = OF; // signed overflow with a positive-looking result
        let ab_eq = CF | ZF;
        assert!(test_flags(Lt, neg) && !test_flags(Lt, zero) && !test_flags(Lt, pos));
        assert!(!test_flags(Lt, nan));
        assert!(
            test_flags(Lt, ovf_pos),
            "positive-looking overflowed sum is less"
        );
        assert!(test_flags(Ge, zero) && test_flags(Ge, pos) && !test_flags(Ge, neg));
        assert!(!test_flags(Gt, zero) && test_flags(Gt, pos));
        assert!(test_flags(Le, zero) && test_flags(Le, neg) && !test_flags(Le, pos));
        assert!(test_flags(Eq, zero) && !test_flags(Eq, nan));
        assert!(test_flags(Ne, nan) && test_flags(Ne, pos) && !test_flags(Ne, zero));
        assert!(test_flags(Nan, nan) && !test_flags(Nan, neg));
        assert!(test_flags(Leg, neg) && !test_flags(Leg, nan));
        assert!(test_flags(Cf, carry) && !test_flags(Ncf, carry) && test_flags(Ncf, pos));
        assert!(test_flags(Of, ovf_pos) && !test_flags(Nof, ovf_pos));
        assert!(test_flags(Ab, carry) && !test_flags(Ab, ab_eq) && !test_flags(Ab, pos));
        assert!(test_flags(Ble, ab_eq) && test_flags(Ble, pos) && !test_flags(Ble, carry));
        assert!(test_flags(Sf, neg) && test_flags(Nsf, pos));
        assert!(test_flags(Tr, nan) && !test_flags(Fl, nan));
    }

    #[test]
    fn float_flags() {
        assert_eq!(flags32(0x8000_0000, DataType::F32), ZF); // -0 is zero, not negative
        assert_eq!(flags32((-1.0f32).to_bits(), DataType::F32), SF);
        assert_eq!(flags32(f32::NAN.to_bits(), DataType::F32), SF | ZF);
        assert_eq!(flags32(0x8000_0000, DataType::S32), SF);
        assert_eq!(flags64(f64::NAN.to_bits(), DataType::F64), SF | ZF);
    }
}
