//! Texture instructions and attribute interpolation: one environment call per group (per
//! distinct texture unit when the unit is indexed), with SoA operands.

use super::env::{Env, InterpCall, InterpKind, RunEnv, TexCall, TexOffsets, TexOp};
use super::error::{invariant, ExecErrorKind, ExecStats};
use super::operand::{index_reg, load32, load_raw, resolve_index, shape32, Raw};
use super::run::{write32, Group, Run};
use super::{LaneMask, Vec4, MAX_LANES};
use crate::ir::{
    DataType, Extra, File, Index, Inst, Opcode, Src, Stage, TexInfo, TexOffset, TexUnit,
};

type Res<T> = Result<T, ExecErrorKind>;

fn lane_on(mask: LaneMask, l: usize) -> bool {
    mask & (1 << l) != 0
}

/// The environment operation of a texture opcode.
pub(crate) fn tex_op(op: Opcode) -> Option<TexOp> {
    Some(match op {
        Opcode::Tex => TexOp::Sample,
        Opcode::Txb => TexOp::Bias,
        Opcode::Txl => TexOp::Lod,
        Opcode::Txd => TexOp::Grad,
        Opcode::Txp => TexOp::Proj,
        Opcode::Txf => TexOp::Fetch,
        Opcode::Txfms => TexOp::FetchMs,
        Opcode::Txq => TexOp::Query,
        Opcode::Txg => TexOp::Gather,
        Opcode::Txgo => TexOp::GatherOffsets,
        Opcode::Lod => TexOp::QueryLod,
        _ => return None,
    })
}

/// A texture instruction's offsets as a compiled kernel's call carries them (`TexSites`,
/// `compile::frame::texture`): constant or none; `None` for register offsets, which
/// `compile::scan::native_texture` leaves to the interpreter.
pub(crate) fn fixed_offsets(offset: &Option<TexOffset>) -> Option<TexOffsets<'static>> {
    match offset {
        Some(TexOffset::Const(o)) => Some(TexOffsets::Const(o.map(i32::from))),
        None => Some(TexOffsets::None),
        Some(TexOffset::Register(_)) => None,
    }
}

/// Data types of a texture operation's coordinate and of its extra operands.
pub(crate) fn operand_types(op: TexOp) -> (DataType, DataType) {
    let coord = if matches!(op, TexOp::Fetch | TexOp::FetchMs | TexOp::Query) {
        DataType::S32
    } else {
        DataType::F32
    };
    let extra = if matches!(op, TexOp::GatherOffsets) {
        DataType::S32
    } else {
        DataType::F32
    };
    (coord, extra)
}

/// Type of the value a texture operation writes: sizes and levels are integers.
pub(crate) fn result_type(op: TexOp, dtype: DataType) -> DataType {
    match op {
        TexOp::Query => DataType::S32,
        TexOp::QueryLod => DataType::F32,
        _ => dtype,
    }
}

/// Loaded operands of one texture instruction.
pub(crate) struct TexOperands<'a> {
    pub coord: &'a Vec4,
    pub operand2: Option<&'a Vec4>,
    pub operand3: Option<&'a Vec4>,
    pub offsets: TexOffsets<'a>,
    /// Texture unit per lane (None: an out-of-range indexed unit).
    pub units: &'a [Option<u32>; MAX_LANES],
}

/// One environment call per distinct unit among the lanes of `mask`; lanes outside it
/// read zero.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sample<E: RunEnv + ?Sized>(
    env: &mut E,
    stage: Stage,
    info: &TexInfo,
    op: TexOp,
    dtype: DataType,
    mask: LaneMask,
    ops: &TexOperands<'_>,
    stats: &mut ExecStats,
) -> Res<Vec4> {
    let mut out: Vec4 = [[0; MAX_LANES]; 4];
    let mut todo = mask;
    while todo != 0 {
        let l = todo.trailing_zeros() as usize;
        let unit = ops.units[l];
        let mut lanes: LaneMask = 0;
        for (k, u) in ops.units.iter().enumerate() {
            if lane_on(todo, k) && *u == unit {
                lanes |= 1 << k;
            }
        }
        todo &= !lanes;
        let Some(unit) = unit else {
            stats.oob_reads += u64::from(lanes.count_ones());
            continue;
        };
        let call = TexCall {
            op,
            stage,
            unit,
            target: info.target,
            lanes,
            coord: ops.coord,
            operand2: ops.operand2,
            operand3: ops.operand3,
            offsets: ops.offsets,
            gather_comp: info.gather_comp,
            lod_clamp: info.lod_clamp,
            dtype,
        };
        let mut part: Vec4 = [[0; MAX_LANES]; 4];
        env.resources()
            .texture(&call, &mut part)
            .map_err(|e| ExecErrorKind::Env(e.0))?;
        for c in 0..4 {
            for k in 0..MAX_LANES {
                if lane_on(lanes, k) {
                    out[c][k] = part[c][k];
                }
            }
        }
    }
    Ok(out)
}

pub(crate) fn exec<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &mut Group,
    inst: &Inst,
) -> Res<()> {
    let info = match &inst.extra {
        Extra::Tex(t) => t,
        _ => return Err(invariant("texture instruction without texture info")),
    };
    let op = tex_op(inst.op).ok_or_else(|| invariant("not a texture instruction"))?;
    let (coord_ty, extra_ty) = operand_types(op);
    let acc = run.access(g);
    let coord = match inst.srcs.first() {
        Some(s) => load32(run.st, &acc, s, coord_ty, &mut run.stats)?,
        None => [[0; MAX_LANES]; 4],
    };
    let operand2 = match inst.srcs.get(1) {
        Some(s) => Some(load32(run.st, &acc, s, extra_ty, &mut run.stats)?),
        None => None,
    };
    let operand3 = match inst.srcs.get(2) {
        Some(s) => Some(load32(run.st, &acc, s, extra_ty, &mut run.stats)?),
        None => None,
    };
    let reg_off: Option<[[i32; MAX_LANES]; 3]> = match &info.offset {
        Some(TexOffset::Register(s)) => {
            let v = load32(run.st, &acc, s, DataType::S32, &mut run.stats)?;
            Some([0, 1, 2].map(|c| v[c].map(|x| x as i32)))
        }
        _ => None,
    };
    let offsets = match (&info.offset, &reg_off) {
        (Some(TexOffset::Const(o)), _) => TexOffsets::Const(o.map(i32::from)),
        (_, Some(r)) => TexOffsets::PerLane(r),
        _ => TexOffsets::None,
    };
    // Texture unit per lane.
    let units: [Option<u32>; MAX_LANES] = match info.unit {
        TexUnit::Fixed(u) => [Some(u); MAX_LANES],
        TexUnit::Relative {
            reg,
            offset,
            base,
            len,
        } => {
            let r = index_reg(run.st, &acc, reg)?;
            r.map(|v| {
                let e = i64::from(v) + i64::from(offset);
                if e >= 0 && e < i64::from(len) {
                    base.checked_add(e as u32)
                } else {
                    None
                }
            })
        }
    };
    let ops = TexOperands {
        coord: &coord,
        operand2: operand2.as_ref(),
        operand3: operand3.as_ref(),
        offsets,
        units: &units,
    };
    let out = sample(
        run.env,
        run.prog.stage,
        info,
        op,
        inst.dtype,
        g.mask,
        &ops,
        &mut run.stats,
    )?;
    write32(run, g, inst, result_type(op, inst.dtype), out, None)
}

/// IPAC / IPAS / IPAO.
pub(crate) fn interpolate<E: RunEnv + ?Sized>(
    run: &mut Run<'_, E>,
    g: &mut Group,
    inst: &Inst,
) -> Res<()> {
    let attr = inst
        .srcs
        .first()
        .ok_or_else(|| invariant("IPAx without its attribute operand"))?;
    if attr.file != File::Input {
        return Err(invariant("interpolation of a non-attribute"));
    }
    let kind = match inst.op {
        Opcode::Ipac => InterpKind::Centroid,
        Opcode::Ipas => InterpKind::Sample,
        _ => InterpKind::Offset,
    };
    let acc = run.access(g);
    let operand = match (kind, inst.srcs.get(1)) {
        (InterpKind::Sample, Some(s)) => load32(run.st, &acc, s, DataType::U32, &mut run.stats)?,
        (InterpKind::Offset, Some(s)) => load32(run.st, &acc, s, DataType::F32, &mut run.stats)?,
        _ => [[0; MAX_LANES]; 4],
    };
    // A relatively indexed attribute array may name a different attribute in each lane:
    // one call per distinct attribute, each for the lanes naming it.
    let slots = resolve_index(run.st, &acc, &attr.index)?;
    let mut raw = Raw {
        lo: [[0; MAX_LANES]; 4],
        hi: [[0; MAX_LANES]; 4],
        long: false,
    };
    let mut done: LaneMask = 0;
    for l in 0..MAX_LANES {
        if g.mask & (1 << l) == 0 || done & (1 << l) != 0 {
            continue;
        }
        let slot = slots[l];
        let same = (l..MAX_LANES)
            .filter(|&k| g.mask & (1 << k) != 0 && slots[k] == slot)
            .fold(0, |m, k| m | (1 << k));
        done |= same;
        let Some(slot) = slot else {
            run.stats.oob_reads += u64::from(same.count_ones());
            continue;
        };
        let one = Src {
            index: Index::Direct(slot),
            ..attr.clone()
        };
        let mut part = load_raw(run.st, &acc, &one, &mut run.stats)?;
        let call = InterpCall {
            kind,
            input: slot,
            lanes: same,
            operand: &operand,
        };
        run.env
            .interpolate(&call, &mut part.lo)
            .map_err(|e| ExecErrorKind::Env(e.0))?;
        for k in (0..MAX_LANES).filter(|&k| same & (1 << k) != 0) {
            for c in 0..4 {
                raw.lo[c][k] = part.lo[c][k];
            }
        }
    }
    let v = shape32(&raw, attr, DataType::F32);
    write32(run, g, inst, inst.dtype, v, None)
}
