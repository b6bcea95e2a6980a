//! Memory instructions: LDC, BUFFER/BUFFER4 operands, LOAD/STORE/ATOM (global and
//! storage buffers), ATOMCTR, MEMBAR, LOADIM/STOREIM/ATOMIM. Every access goes through the
//! [`Env`]; out-of-range and misaligned accesses read zero / drop the write and are
//! counted, never touching host memory.

use super::env::{Env, ImageCall, MemRegion, RunEnv};
use super::error::{invariant, ExecErrorKind};
use super::operand::{load32, load64, resolve_index, Raw, Wide};
use super::run::{write32, write64, Group, Run};
use super::{Vec4, MAX_LANES};
use crate::ir::{
    AtomOp, BufferKind, DataType, File, Inst, MemInfo, MemScalar, MemSpace, MemType, Opcode, Src,
    TexTarget,
};

type Res<T> = Result<T, ExecErrorKind>;

fn env_err(e: super::env::EnvError) -> ExecErrorKind {
    ExecErrorKind::Env(e.0)
}

/// The register data type a memory type loads into / stores from.
pub(crate) fn reg_type(s: MemScalar) -> DataType {
    match s {
        MemScalar::F16 | MemScalar::F32 => DataType::F32,
        MemScalar::F64 => DataType::F64,
        MemScalar::S8 | MemScalar::S16 | MemScalar::S32 => DataType::S32,
        MemScalar::S64 => DataType::S64,
        MemScalar::U8 | MemScalar::U16 | MemScalar::U32 => DataType::U32,
        MemScalar::U64 => DataType::U64,
    }
}

/// Decode one component (little-endian) to register bits (64-bit wide).
fn decode(s: MemScalar, b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    for (d, x) in w.iter_mut().zip(b.iter()) {
        *d = *x;
    }
    let raw = u64::from_le_bytes(w);
    match s {
        MemScalar::S8 => i64::from(raw as u8 as i8) as u64,
        MemScalar::S16 => i64::from(raw as u16 as i16) as u64,
        MemScalar::S32 => i64::from(raw as u32 as i32) as u64,
        MemScalar::F16 => u64::from(half::f16::from_bits(raw as u16).to_f32().to_bits()),
        MemScalar::U8 | MemScalar::U16 | MemScalar::U32 => raw,
        MemScalar::F32 => raw & 0xffff_ffff,
        _ => raw,
    }
}

/// Encode register bits (64-bit wide) as one component.
fn encode(s: MemScalar, v: u64, out: &mut [u8]) {
    let bits = match s {
        MemScalar::F16 => u64::from(half::f16::from_f32(f32::from_bits(v as u32)).to_bits()),
        _ => v,
    };
    let b = bits.to_le_bytes();
    for (d, x) in out.iter_mut().zip(b.iter()) {
        *d = *x;
    }
}

fn lane_on(mask: u32, l: usize) -> bool {
    mask & (1 << l) != 0
}

/// Read BUFFER/BUFFER4 operands of `inst` for the running group. In a memory instruction
/// (`is_mem`) the CBUFFER or STORAGE operand is the memory it accesses, not a value.
pub(crate) fn prefetch_buffers<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &Group,
    inst: &Inst,
    is_mem: bool,
) -> Res<()> {
    for s in inst.srcs.iter().filter(|s| s.file == File::Buffer) {
        if run
            .prefetched
            .iter()
            .any(|(b, i, v, _)| *b == s.buffer && *i == s.index && *v == s.vertex)
        {
            continue;
        }
        let var = run
            .prog
            .buffers
            .get(s.buffer as usize)
            .ok_or_else(|| invariant("buffer variable out of range"))?;
        let four = match var.kind {
            BufferKind::Buffer4 => true,
            BufferKind::Buffer => false,
            BufferKind::CBuffer | BufferKind::Storage | BufferKind::Shared if is_mem => continue,
            _ => return Err(invariant("CBUFFER/STORAGE/SHARED variable read as a value")),
        };
        let acc = run.access(g);
        let slots = resolve_index(run.st, &acc, &s.index)?;
        let binds = binding_points(run.st, &acc, var, s)?;
        let mut raw = Raw {
            lo: [[0; MAX_LANES]; 4],
            hi: [[0; MAX_LANES]; 4],
            long: false,
        };
        let elem = if four { 16u64 } else { 4 };
        // Read each distinct element once.
        let mut done = 0u32;
        for l in 0..MAX_LANES {
            if !lane_on(g.mask, l) || lane_on(done, l) {
                continue;
            }
            let (slot, bind) = (slots[l], binds[l]);
            let mut same = 0u32;
            for k in l..MAX_LANES {
                if lane_on(g.mask, k) && slots[k] == slot && binds[k] == bind {
                    same |= 1 << k;
                }
            }
            done |= same;
            let in_decl = match (slot, var.len) {
                (Some(i), Some(n)) => i < n,
                (Some(_), None) => true,
                (None, _) => false,
            };
            let mut bytes = [0u8; 16];
            let ok = match (slot, bind) {
                (Some(i), Some(binding)) if in_decl => {
                    let addr = (u64::from(var.first) + u64::from(i)) * elem;
                    run.env
                        .resources()
                        .mem_read(
                            MemRegion::ParamBuffer { binding },
                            addr,
                            &mut bytes[..elem as usize],
                        )
                        .map_err(env_err)?
                }
                _ => false,
            };
            if !ok {
                run.stats.oob_reads += u64::from(same.count_ones());
                bytes = [0; 16];
            }
            let words: [u32; 4] = if four {
                [0, 1, 2, 3].map(|c| decode(MemScalar::U32, &bytes[4 * c..4 * c + 4]) as u32)
            } else {
                [decode(MemScalar::U32, &bytes[..4]) as u32; 4]
            };
            for k in 0..MAX_LANES {
                if lane_on(same, k) {
                    for c in 0..4 {
                        raw.lo[c][k] = words[c];
                    }
                }
            }
        }
        run.prefetched.push((s.buffer, s.index, s.vertex, raw));
    }
    Ok(())
}

fn mem_info(inst: &Inst) -> Res<&MemInfo> {
    match &inst.extra {
        crate::ir::Extra::Mem(m) => Ok(m),
        _ => Err(invariant("memory instruction without memory info")),
    }
}

fn src(inst: &Inst, i: usize) -> Res<&crate::ir::Src> {
    inst.srcs
        .get(i)
        .ok_or_else(|| invariant("fewer source operands than the opcode reads"))
}

/// Per-lane addresses from a scalar operand (64-bit capable).
fn addresses<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &Group,
    s: &crate::ir::Src,
) -> Res<[u64; MAX_LANES]> {
    let acc = run.access(g);
    let v = load64(run.st, &acc, s, DataType::U64, &mut run.stats)?;
    Ok(v[0])
}

/// Per lane, the binding point a buffer variable operand reaches: the variable's own, or
/// for a variable spanning several binding points the one its outer index (`Src::vertex`)
/// selects; None when that index is outside the range.
fn binding_points(
    st: &super::state::LaneState,
    acc: &super::operand::Access,
    var: &crate::ir::BufferVar,
    s: &Src,
) -> Res<[Option<u32>; MAX_LANES]> {
    match &s.vertex {
        None => Ok([Some(var.binding); MAX_LANES]),
        Some(idx) => Ok(resolve_index(st, acc, idx)?.map(|o| {
            o.filter(|&i| i < var.bindings)
                .and_then(|i| var.binding.checked_add(i))
        })),
    }
}

/// Where each lane's access goes: a region and a byte address in it, None when the
/// operand already selects something out of range.
type Targets = [Option<(MemRegion, u64)>; MAX_LANES];

/// The per-lane targets of memory operand `s`: a GPU address for `Global`; for CBUFFER and
/// STORAGE variables (`File::Buffer` operands) the index is the byte offset (from the
/// variable's first element for CBUFFER) and `Src::vertex` picks the binding point.
fn targets<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &Group,
    space: &MemSpace,
    s: &Src,
) -> Res<Targets> {
    let (buffer, constant) = match space {
        MemSpace::Global => {
            let a = addresses(run, g, s)?;
            return Ok(a.map(|a| Some((MemRegion::Global, a))));
        }
        MemSpace::Shared { buffer } => return shared_targets(run, g, *buffer, s),
        MemSpace::Constant { buffer } => (*buffer, true),
        MemSpace::Storage { buffer } => (*buffer, false),
        _ => return Err(invariant("LDC/LOAD/STORE/ATOM outside buffer memory")),
    };
    let var = run
        .prog
        .buffers
        .get(buffer as usize)
        .ok_or_else(|| invariant("buffer variable out of range"))?;
    let acc = run.access(g);
    let offsets = resolve_index(run.st, &acc, &s.index)?;
    let binds = binding_points(run.st, &acc, var, s)?;
    let base = if constant { u64::from(var.first) } else { 0 };
    let mut out: Targets = [None; MAX_LANES];
    for l in 0..MAX_LANES {
        if let (Some(o), Some(binding)) = (offsets[l], binds[l]) {
            let region = if constant {
                MemRegion::ParamBuffer { binding }
            } else {
                MemRegion::Storage { binding }
            };
            out[l] = Some((region, base + u64::from(o)));
        }
    }
    Ok(out)
}

/// Targets of a SHARED variable operand: the variable's first byte plus the index, when
/// the index lies inside the variable (the environment checks the group's memory size).
fn shared_targets<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &Group,
    buffer: u32,
    s: &Src,
) -> Res<Targets> {
    let var = run
        .prog
        .buffers
        .get(buffer as usize)
        .ok_or_else(|| invariant("shared variable out of range"))?;
    let acc = run.access(g);
    let offsets = resolve_index(run.st, &acc, &s.index)?;
    let (first, len) = (u64::from(var.first), var.len);
    Ok(offsets.map(|o| {
        o.filter(|&o| len.is_none_or(|n| o < n))
            .map(|o| (MemRegion::Shared, first + u64::from(o)))
    }))
}

/// Load `ty` at per-lane addresses; returns 64-bit register values per component.
fn load_vec<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    mask: u32,
    addr: &Targets,
    ty: MemType,
) -> Res<Wide> {
    let size = ty.scalar.bytes() as usize;
    let count = usize::from(ty.count.clamp(1, 4));
    let total = size * count;
    let mut out: Wide = [[0; MAX_LANES]; 4];
    for l in 0..MAX_LANES {
        if !lane_on(mask, l) {
            continue;
        }
        let Some((region, a)) = addr[l] else {
            run.stats.oob_reads += 1;
            continue;
        };
        // The specs' alignment rule: the fetch size for 1/2/4-component fetches.
        let align = (size * if count == 1 { 1 } else { count }) as u64;
        if a % align != 0 {
            run.stats.misaligned += 1;
            continue;
        }
        let mut bytes = [0u8; 32];
        let ok = run
            .env
            .region_read(region, a, &mut bytes[..total])
            .map_err(env_err)?;
        if !ok {
            run.stats.oob_reads += 1;
            continue;
        }
        for c in 0..count {
            out[c][l] = decode(ty.scalar, &bytes[c * size..(c + 1) * size]);
        }
    }
    Ok(out)
}

fn write_loaded<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &Group,
    inst: &Inst,
    ty: MemType,
    v: &Wide,
) -> Res<()> {
    let rt = reg_type(ty.scalar);
    if rt.is_64() {
        write64(run, g, inst, rt, v)
    } else {
        let n: Vec4 = v.map(|c| c.map(|x| x as u32));
        write32(run, g, inst, rt, n, None)
    }
}

pub(crate) fn exec<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &mut Group,
    inst: &Inst,
) -> Res<()> {
    match inst.op {
        Opcode::Membar => run.env.resources().memory_barrier().map_err(env_err),
        Opcode::Ldc => {
            let m = mem_info(inst)?;
            let s = src(inst, 0)?;
            // The operand's array index is a byte offset into the binding.
            let addr = targets(run, g, &m.space, s)?;
            let v = load_vec(run, g.mask, &addr, m.ty)?;
            // Swizzle and modifiers of the operand apply to the fetched vector.
            let raw = wide_to_raw(&v, reg_type(m.ty.scalar));
            let rt = reg_type(m.ty.scalar);
            if rt.is_64() {
                let w = super::operand::shape64(&raw, s, rt);
                write64(run, g, inst, rt, &w)
            } else {
                let n = super::operand::shape32(&raw, s, rt);
                write32(run, g, inst, rt, n, None)
            }
        }
        Opcode::Load => {
            let m = mem_info(inst)?;
            let a = targets(run, g, &m.space, src(inst, 0)?)?;
            let v = load_vec(run, g.mask, &a, m.ty)?;
            write_loaded(run, g, inst, m.ty, &v)
        }
        Opcode::Store => store(run, g, inst),
        Opcode::Atom => atom(run, g, inst),
        Opcode::Atomctr => atomctr(run, g, inst),
        Opcode::Loadim | Opcode::Storeim | Opcode::Atomim => image(run, g, inst),
        _ => Err(invariant("not a memory instruction")),
    }
}

fn wide_to_raw(v: &Wide, rt: DataType) -> Raw {
    Raw {
        lo: v.map(|c| c.map(|x| x as u32)),
        hi: v.map(|c| c.map(|x| (x >> 32) as u32)),
        long: rt.is_64(),
    }
}

fn store<E: RunEnv + ?Sized>(run: &mut Run<'_, E>, g: &mut Group, inst: &Inst) -> Res<()> {
    let m = mem_info(inst)?;
    let rt = reg_type(m.ty.scalar);
    let acc = run.access(g);
    let value = load64(run.st, &acc, src(inst, 0)?, rt, &mut run.stats)?;
    let a = targets(run, g, &m.space, src(inst, 1)?)?;
    let size = m.ty.scalar.bytes() as usize;
    let count = usize::from(m.ty.count.clamp(1, 4));
    let live = g.mask & !run.st.helper;
    for l in 0..MAX_LANES {
        if !lane_on(live, l) {
            continue;
        }
        let Some((region, addr)) = a[l] else {
            run.stats.oob_writes += 1;
            continue;
        };
        let align = (size * if count == 1 { 1 } else { count }) as u64;
        if addr % align != 0 {
            run.stats.misaligned += 1;
            continue;
        }
        let mut bytes = [0u8; 32];
        for c in 0..count {
            let v = if rt == DataType::F32 {
                // The 64-bit operand load widened the f32 (F32 and F16 stores): narrow it
                // back (exact) before encoding.
                u64::from((f64::from_bits(value[c][l]) as f32).to_bits())
            } else {
                value[c][l]
            };
            encode(m.ty.scalar, v, &mut bytes[c * size..(c + 1) * size]);
        }
        let ok = run
            .env
            .region_write(region, addr, &bytes[..size * count])
            .map_err(env_err)?;
        if !ok {
            run.stats.oob_writes += 1;
        }
    }
    Ok(())
}

/// New memory value of an atomic operation, or None for "no store" (failed CSWAP).
pub(crate) fn atomic_update(op: AtomOp, s: MemScalar, old: u64, x: u64, y: u64) -> Option<u64> {
    let bits = s.bytes() as usize * 8;
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let sext = |v: u64| -> i64 {
        if bits >= 64 {
            v as i64
        } else {
            let sh = 64 - bits;
            ((v << sh) as i64) >> sh
        }
    };
    let signed = matches!(
        s,
        MemScalar::S8 | MemScalar::S16 | MemScalar::S32 | MemScalar::S64
    );
    let float = matches!(s, MemScalar::F32 | MemScalar::F64 | MemScalar::F16);
    let (o, xv) = (old & mask, x & mask);
    let r = match op {
        AtomOp::Add if float => {
            if bits == 64 {
                (f64::from_bits(o) + f64::from_bits(xv)).to_bits()
            } else {
                u64::from((f32::from_bits(o as u32) + f32::from_bits(xv as u32)).to_bits())
            }
        }
        AtomOp::Add => o.wrapping_add(xv),
        AtomOp::Min if signed => sext(o).min(sext(xv)) as u64,
        AtomOp::Max if signed => sext(o).max(sext(xv)) as u64,
        AtomOp::Min => o.min(xv),
        AtomOp::Max => o.max(xv),
        AtomOp::IWrap => {
            if o >= xv {
                0
            } else {
                o + 1
            }
        }
        AtomOp::DWrap => {
            if o == 0 || o > xv {
                xv
            } else {
                o - 1
            }
        }
        AtomOp::And => o & xv,
        AtomOp::Or => o | xv,
        AtomOp::Xor => o ^ xv,
        AtomOp::Exch => xv,
        AtomOp::CSwap => {
            if o == xv {
                y & mask
            } else {
                return None;
            }
        }
        AtomOp::Incr => o.wrapping_add(1),
        AtomOp::Decr => o.wrapping_sub(1),
        AtomOp::Get => return None,
    };
    Some(r & mask)
}

/// NV_shader_atomic_fp16_vector: `op` applied to both halves of the 32-bit word `old`
/// with the operand components `x` (f32 bits, rounded to half), each half on its own.
pub(crate) fn f16x2_update(op: AtomOp, old: u32, x: [u32; 2]) -> Option<u32> {
    let mut new = 0u32;
    for (k, xv) in x.into_iter().enumerate() {
        let cur = half::f16::from_bits((old >> (16 * k)) as u16);
        let v = f32::from_bits(xv);
        let r = match op {
            AtomOp::Add => half::f16::from_f32(cur.to_f32() + half::f16::from_f32(v).to_f32()),
            AtomOp::Min => half::f16::from_f32(cur.to_f32().min(v)),
            AtomOp::Max => half::f16::from_f32(cur.to_f32().max(v)),
            AtomOp::Exch => half::f16::from_f32(v),
            _ => return None,
        };
        new |= u32::from(r.to_bits()) << (16 * k);
    }
    Some(new)
}

/// The two halves of a word as f32 bits.
fn halves(w: u32) -> [u32; 2] {
    [w as u16, (w >> 16) as u16].map(|h| half::f16::from_bits(h).to_f32().to_bits())
}

/// ATOM/ATOMB.F16X2 and .F16X4: every 32-bit word of the vector is updated atomically
/// on its own (the spec guarantees atomicity per component only); the result holds the
/// old values.
fn atom_f16<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &mut Group,
    inst: &Inst,
    m: &MemInfo,
    op: AtomOp,
) -> Res<()> {
    let acc = run.access(g);
    let value = load32(run.st, &acc, src(inst, 0)?, DataType::F32, &mut run.stats)?;
    let a = targets(run, g, &m.space, src(inst, 1)?)?;
    let words = usize::from(m.ty.count.clamp(2, 4)) / 2;
    let mut out: Vec4 = [[0; MAX_LANES]; 4];
    let live = g.mask & !run.st.helper;
    for l in 0..MAX_LANES {
        if !lane_on(live, l) {
            continue;
        }
        let Some((region, addr)) = a[l] else {
            run.stats.oob_writes += 1;
            continue;
        };
        if addr % (4 * words as u64) != 0 {
            run.stats.misaligned += 1;
            continue;
        }
        for w in 0..words {
            let x = [value[2 * w][l], value[2 * w + 1][l]];
            let update = move |old: u64| f16x2_update(op, old as u32, x).map(u64::from);
            match run
                .env
                .region_atomic(region, addr + 4 * w as u64, 4, &update)
                .map_err(env_err)?
            {
                Some(old) => {
                    let [lo, hi] = halves(old as u32);
                    out[2 * w][l] = lo;
                    out[2 * w + 1][l] = hi;
                }
                None => run.stats.oob_writes += 1,
            }
        }
    }
    write32(run, g, inst, DataType::F32, out, None)
}

fn atom<E: RunEnv + ?Sized>(run: &mut Run<'_, E>, g: &mut Group, inst: &Inst) -> Res<()> {
    let m = mem_info(inst)?;
    let op = m
        .atom
        .ok_or_else(|| invariant("ATOM without an operation"))?;
    if m.ty.scalar == MemScalar::F16 {
        return atom_f16(run, g, inst, m, op);
    }
    let rt = reg_type(m.ty.scalar);
    let acc = run.access(g);
    let value = load64(run.st, &acc, src(inst, 0)?, rt, &mut run.stats)?;
    let a = targets(run, g, &m.space, src(inst, 1)?)?;
    let size = m.ty.scalar.bytes() as usize;
    if size < 4 {
        // The front end rejects these storage modifiers on ATOM (its Table X.Y).
        return Err(invariant("ATOM on an 8/16-bit integer type"));
    }
    let mut out: Wide = [[0; MAX_LANES]; 4];
    let live = g.mask & !run.st.helper;
    let scalar = m.ty.scalar;
    for l in 0..MAX_LANES {
        if !lane_on(live, l) {
            continue;
        }
        let Some((region, addr)) = a[l] else {
            run.stats.oob_writes += 1;
            continue;
        };
        if addr % size as u64 != 0 {
            run.stats.misaligned += 1;
            continue;
        }
        let to_mem = |v: u64| -> u64 {
            if scalar == MemScalar::F32 {
                u64::from((f64::from_bits(v) as f32).to_bits())
            } else {
                v
            }
        };
        let (x, y) = (to_mem(value[0][l]), to_mem(value[1][l]));
        let update = move |old: u64| atomic_update(op, scalar, old, x, y);
        match run
            .env
            .region_atomic(region, addr, size as u8, &update)
            .map_err(env_err)?
        {
            Some(old) => out[0][l] = decode(scalar, &old.to_le_bytes()[..size]),
            None => run.stats.oob_writes += 1,
        }
    }
    // The result is scalar (y, z, w undefined): replicate it so any write mask sees it.
    out = [out[0]; 4];
    write_loaded(run, g, inst, MemType { scalar, count: 1 }, &out)
}

fn atomctr<E: RunEnv + ?Sized>(run: &mut Run<'_, E>, g: &mut Group, inst: &Inst) -> Res<()> {
    let m = mem_info(inst)?;
    let op = m
        .atom
        .ok_or_else(|| invariant("ATOMCTR without an operation"))?;
    let MemSpace::Counter { counter } = m.space else {
        return Err(invariant("ATOMCTR without a counter"));
    };
    let var = run
        .prog
        .counters
        .get(counter as usize)
        .ok_or_else(|| invariant("counter variable out of range"))?;
    let acc = run.access(g);
    let idx = match inst.srcs.first() {
        Some(s) => resolve_index(run.st, &acc, &s.index)?,
        None => [Some(0); MAX_LANES],
    };
    let (binding, first, len) = (var.binding, var.first, var.len.max(1));
    let mut out = [[0u32; MAX_LANES]; 4];
    let live = g.mask & !run.st.helper;
    for l in 0..MAX_LANES {
        if !lane_on(live, l) {
            continue;
        }
        let Some(i) = idx[l].filter(|&i| i < len) else {
            run.stats.oob_reads += 1;
            continue;
        };
        let update: &dyn Fn(u32) -> u32 = match op {
            AtomOp::Incr => &|v: u32| v.wrapping_add(1),
            AtomOp::Decr => &|v: u32| v.wrapping_sub(1),
            _ => &|v: u32| v,
        };
        match run
            .env
            .resources()
            .counter_atomic(binding, first.saturating_add(i), update)
            .map_err(env_err)?
        {
            // INCR returns the old value, DECR the decremented one, GET the value.
            Some(old) => {
                out[0][l] = if op == AtomOp::Decr {
                    old.wrapping_sub(1)
                } else {
                    old
                }
            }
            None => run.stats.oob_reads += 1,
        }
    }
    // Scalar result (y, z, w undefined): replicated, typed as the instruction's .S/.U.
    write32(run, g, inst, inst.dtype, [out[0]; 4], None)
}

/// EXT_shader_image_load_store section 2.X.8.Z, LOADIM: the coordinates a target does
/// not use are zero ("if (target == 1D || target == BUFFER) coords.y = 0; ...").
fn image_coords(target: TexTarget, mut c: [i32; 4]) -> [i32; 4] {
    use TexTarget::*;
    if matches!(target, T1D | Buffer) {
        c[1] = 0;
    }
    if matches!(target, T1D | T2D | Buffer | Rect | T2DMs) {
        c[2] = 0;
    }
    if !matches!(target, T2DMs | Array2DMs) {
        c[3] = 0;
    }
    c
}

fn image<E: RunEnv + ?Sized>(run: &mut Run<'_, E>, g: &mut Group, inst: &Inst) -> Res<()> {
    let m = mem_info(inst)?;
    let MemSpace::Image { image } = m.space else {
        return Err(invariant("image instruction without an image"));
    };
    let var = run
        .prog
        .images
        .get(image as usize)
        .ok_or_else(|| invariant("image variable out of range"))?;
    let target = m
        .target
        .ok_or_else(|| invariant("image instruction without a target"))?;
    let rt = reg_type(m.ty.scalar);
    let acc = run.access(g);
    // Each lane's image unit: the variable's first, or the element its index selects.
    let units: [Option<u32>; MAX_LANES] = match &m.element {
        None => [Some(var.first); MAX_LANES],
        Some(idx) => resolve_index(run.st, &acc, idx)?.map(|o| {
            o.filter(|&k| k < var.len)
                .and_then(|k| var.first.checked_add(k))
        }),
    };
    // LOADIM: coords in operand 0; STOREIM/ATOMIM: data in 0, coords in 1.
    let (data, coord_src) = match inst.op {
        Opcode::Loadim => (None, src(inst, 0)?),
        _ => (
            Some(load32(run.st, &acc, src(inst, 0)?, rt, &mut run.stats)?),
            src(inst, 1)?,
        ),
    };
    let coords = load32(run.st, &acc, coord_src, DataType::S32, &mut run.stats)?;
    let live = if inst.op == Opcode::Loadim {
        g.mask
    } else {
        g.mask & !run.st.helper
    };
    let mut out = [[0u32; MAX_LANES]; 4];
    for l in 0..MAX_LANES {
        if !lane_on(live, l) {
            continue;
        }
        let Some(unit) = units[l] else {
            if inst.op == Opcode::Loadim {
                run.stats.oob_reads += 1;
            } else {
                run.stats.oob_writes += 1;
            }
            continue;
        };
        let call = ImageCall {
            unit,
            target,
            ty: m.ty,
            formatted: m.formatted,
            lane: l as u32,
        };
        let c = image_coords(target, [0, 1, 2, 3].map(|k| coords[k][l] as i32));
        match inst.op {
            Opcode::Loadim => match run.env.resources().image_load(&call, c).map_err(env_err)? {
                Some(v) => {
                    for k in 0..4 {
                        out[k][l] = v[k];
                    }
                }
                None => run.stats.oob_reads += 1,
            },
            Opcode::Storeim => {
                let d = data
                    .as_ref()
                    .map_or([0; 4], |d| [d[0][l], d[1][l], d[2][l], d[3][l]]);
                if !run
                    .env
                    .resources()
                    .image_store(&call, c, d)
                    .map_err(env_err)?
                {
                    run.stats.oob_writes += 1;
                }
            }
            _ => {
                let op = m
                    .atom
                    .ok_or_else(|| invariant("ATOMIM without an operation"))?;
                let (x, y) = data
                    .as_ref()
                    .map_or((0, 0), |d| (u64::from(d[0][l]), u64::from(d[1][l])));
                let scalar = m.ty.scalar;
                let f16 = scalar == MemScalar::F16;
                let update = move |old: u32| {
                    if f16 {
                        f16x2_update(op, old, [x as u32, y as u32])
                    } else {
                        atomic_update(op, scalar, u64::from(old), x, y).map(|v| v as u32)
                    }
                };
                match run
                    .env
                    .resources()
                    .image_atomic(&call, c, &update)
                    .map_err(env_err)?
                {
                    Some(old) if f16 => [out[0][l], out[1][l]] = halves(old),
                    Some(old) => out[0][l] = old,
                    None => run.stats.oob_writes += 1,
                }
            }
        }
    }
    if inst.op == Opcode::Storeim {
        return Ok(());
    }
    if inst.op == Opcode::Atomim && m.ty.scalar != MemScalar::F16 {
        out = [out[0]; 4];
    }
    write32(
        run,
        g,
        inst,
        if rt.is_64() { DataType::U32 } else { rt },
        out,
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_ops_follow_pseudocode() {
        use AtomOp::*;
        let u = MemScalar::U32;
        assert_eq!(atomic_update(Add, u, 0xffff_ffff, 1, 0), Some(0));
        assert_eq!(atomic_update(IWrap, u, 5, 5, 0), Some(0));
        assert_eq!(atomic_update(IWrap, u, 4, 5, 0), Some(5));
        assert_eq!(atomic_update(DWrap, u, 0, 7, 0), Some(7));
        assert_eq!(atomic_update(DWrap, u, 9, 7, 0), Some(7));
        assert_eq!(atomic_update(DWrap, u, 3, 7, 0), Some(2));
        assert_eq!(atomic_update(CSwap, u, 3, 3, 9), Some(9));
        assert_eq!(atomic_update(CSwap, u, 3, 4, 9), None);
        assert_eq!(
            atomic_update(Min, MemScalar::S32, 5, 0xffff_ffff, 0),
            Some(0xffff_ffff)
        );
        assert_eq!(atomic_update(Min, u, 5, 0xffff_ffff, 0), Some(5));
        assert_eq!(atomic_update(Max, MemScalar::S64, 5, u64::MAX, 0), Some(5));
        assert_eq!(
            atomic_update(
                Add,
                MemScalar::F32,
                u64::from(1.5f32.to_bits()),
                u64::from(2.0f32.to_bits()),
                0
            ),
            Some(u64::from(3.5f32.to_bits()))
        );
    }

    #[test]
    fn decode_sign_extends() {
        assert_eq!(decode(MemScalar::S8, &[0x80]) as i64, -128);
        assert_eq!(decode(MemScalar::U8, &[0x80]), 0x80);
        assert_eq!(decode(MemScalar::S16, &[0xff, 0xff]) as i64, -1);
        assert_eq!(
            f32::from_bits(decode(MemScalar::F16, &[0x00, 0x3c]) as u32),
            1.0
        );
    }
}
