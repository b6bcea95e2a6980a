//! Operand unpacking for the NVIDIA assembly texture instructions: turns the register
//! operands of TEX/TXB/TXL/TXP/TXD/TXF/TXFMS/TXQ/TXG/TXGO/LOD into [`Lanes`] and a
//! [`TexOp`], following NV_gpu_program4 tables X.17 / X.18 and NV_gpu_program5.
//!
//! Operands are registers in SoA form, `[[u32; N]; 4]` (f32 bits for float operands,
//! two's complement for integer ones), in instruction order after the result.
//!
//! Coordinate use (table X.17, extended for the NV5 cube-array targets):
//!
//! | target | s t r | layer | reference |
//! |---|---|---|---|
//! | 1D / 2D / 3D / RECT / CUBE | x, xy, xyz, xy, xyz | – | – |
//! | ARRAY1D / ARRAY2D / ARRAYCUBE | x, xy, xyz | y, z, w | – |
//! | SHADOW1D / SHADOW2D / SHADOWRECT | x, xy, xy | – | z |
//! | SHADOWCUBE | xyz | – | w |
//! | SHADOWARRAY1D / SHADOWARRAY2D | x, xy | y, z | z, w |
//! | SHADOWARRAYCUBE | xyz | w | second operand .x |
//!
//! TXB/TXL take the bias/LOD from `w`; when the target already uses `w`, from the next
//! operand's `.x` (`.y` for SHADOWARRAYCUBE, whose `.x` is the reference).

use crate::error::TexError;
use crate::request::{Lanes, LodMode, OpKind, TexOp};
use crate::texture::Target;

/// A texture opcode of the assembly languages.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum NvOpcode {
    /// `TEX`.
    Tex,
    /// `TXB`.
    Txb,
    /// `TXL`.
    Txl,
    /// `TXP`.
    Txp,
    /// `TXD`.
    Txd,
    /// `TXF`.
    Txf,
    /// `TXFMS`.
    Txfms,
    /// `TXQ`.
    Txq,
    /// `TXG`.
    Txg,
    /// `TXGO`.
    Txgo,
    /// `LOD`.
    Lod,
}

/// Texel offsets of an instruction.
#[derive(Copy, Clone, Debug)]
pub enum NvOffset<'a, const N: usize> {
    /// No offset.
    None,
    /// Immediate `(x, y, z)`.
    Const([i32; 3]),
    /// Register operand (NV5), signed integers in x, y, z.
    Register(&'a [[u32; N]; 4]),
}

/// Fills `lanes` for the active lanes from the operands and returns the operation.
/// `operands` are the vector operands after the result, excluding a register offset
/// (pass that as `offset`). `comp` is the TXG/TXGO component (0..3); `fragment` says
/// whether quad derivatives exist. Errors name missing operands.
#[allow(clippy::too_many_arguments)]
pub fn unpack<const N: usize>(
    opcode: NvOpcode,
    target: Target,
    shadow: bool,
    operands: &[&[[u32; N]; 4]],
    offset: NvOffset<'_, N>,
    comp: u8,
    fragment: bool,
    lanes: &mut Lanes<N>,
) -> Result<TexOp, TexError> {
    let op0 = *operands
        .first()
        .ok_or_else(|| TexError::Invalid(format!("{opcode:?} needs a coordinate operand")))?;
    let operand = |k: usize| -> Result<&[[u32; N]; 4], TexError> {
        operands.get(k).copied().ok_or_else(|| {
            TexError::Invalid(format!("{opcode:?} {target:?} needs operand {}", k + 1))
        })
    };
    let f = |v: u32| f32::from_bits(v);
    let kind = match opcode {
        NvOpcode::Tex | NvOpcode::Txp => OpKind::Sample(LodMode::Implicit),
        NvOpcode::Txb => OpKind::Sample(LodMode::Bias),
        NvOpcode::Txl => OpKind::Sample(LodMode::Explicit),
        NvOpcode::Txd => OpKind::Sample(LodMode::Gradients),
        NvOpcode::Txf => OpKind::Fetch,
        NvOpcode::Txfms => OpKind::FetchMs,
        NvOpcode::Txq => OpKind::Size,
        NvOpcode::Txg => OpKind::Gather { comp },
        NvOpcode::Txgo => OpKind::GatherOffsets { comp },
        NvOpcode::Lod => OpKind::QueryLod,
    };
    let op = TexOp {
        kind,
        target,
        shadow,
        quad_derivatives: fragment,
    };
    match opcode {
        NvOpcode::Txf | NvOpcode::Txfms | NvOpcode::Txq => {
            for (dst, src) in lanes.icoord.iter_mut().zip(op0) {
                *dst = src.map(|v| v as i32);
            }
        }
        _ => {
            let uses_w = matches!(target, Target::ArrayCube)
                || (shadow && matches!(target, Target::Cube | Target::Array2D));
            let layer_c = match target {
                Target::Array1D => Some(1),
                Target::Array2D => Some(2),
                Target::ArrayCube => Some(3),
                _ => None,
            };
            let ref_src: Option<(usize, usize)> = if !shadow {
                None
            } else {
                Some(match target {
                    Target::Cube | Target::Array2D => (0, 3),
                    Target::ArrayCube => (1, 0),
                    _ => (0, 2),
                })
            };
            let lod_src: Option<(usize, usize)> = match opcode {
                NvOpcode::Txb | NvOpcode::Txl => Some(if !uses_w {
                    (0, 3)
                } else if shadow && target == Target::ArrayCube {
                    (1, 1)
                } else {
                    (1, 0)
                }),
                _ => None,
            };
            let refop = match ref_src {
                Some((k, _)) => Some(operand(k)?),
                None => None,
            };
            let lodop = match lod_src {
                Some((k, _)) => Some(operand(k)?),
                None => None,
            };
            let (ddx, ddy) = if opcode == NvOpcode::Txd {
                (Some(operand(1)?), Some(operand(2)?))
            } else {
                (None, None)
            };
            for i in 0..N {
                let mut c = [f(op0[0][i]), f(op0[1][i]), f(op0[2][i]), f(op0[3][i])];
                if opcode == NvOpcode::Txp {
                    let q = c[3];
                    c[0] /= q;
                    c[1] /= q;
                    c[2] /= q;
                }
                lanes.coord[0][i] = c[0];
                lanes.coord[1][i] = c[1];
                lanes.coord[2][i] = c[2];
                if let Some(l) = layer_c {
                    lanes.layer[i] = c[l];
                }
                if let (Some(r), Some((k, comp))) = (refop, ref_src) {
                    lanes.reference[i] = if k == 0 { c[comp] } else { f(r[comp][i]) };
                }
                if let (Some(l), Some((k, comp))) = (lodop, lod_src) {
                    lanes.lod[i] = if k == 0 { c[comp] } else { f(l[comp][i]) };
                }
                if let (Some(dx), Some(dy)) = (ddx, ddy) {
                    for a in 0..3 {
                        lanes.ddx[a][i] = f(dx[a][i]);
                        lanes.ddy[a][i] = f(dy[a][i]);
                    }
                }
            }
            if opcode == NvOpcode::Txgo {
                let (ox, oy) = (operand(1)?, operand(2)?);
                for t in 0..4 {
                    for i in 0..N {
                        lanes.gather_offsets[0][t][i] = ox[t][i] as i32;
                        lanes.gather_offsets[1][t][i] = oy[t][i] as i32;
                    }
                }
            }
        }
    }
    match offset {
        NvOffset::None => lanes.offset = [[0; N]; 3],
        NvOffset::Const(o) => {
            for (dst, v) in lanes.offset.iter_mut().zip(o) {
                *dst = [v; N];
            }
        }
        NvOffset::Register(r) => {
            for (dst, src) in lanes.offset.iter_mut().zip(r) {
                *dst = src.map(|v| v as i32);
            }
        }
    }
    // Components an offset does not apply to are ignored (NV_gpu_program5).
    let dims = target.dims();
    for a in dims..3 {
        lanes.offset[a] = [0; N];
    }
    Ok(op)
}

/// ARB_sparse_texture_clamp: fills `lanes.lod_clamp` for an instruction with the
/// `.LODCLAMP` modifier, from the operands [`unpack`] received. TXD reads the clamp from
/// `w` of its third operand (the y derivatives); TEX and TXB from their second operand:
/// `.y` for SHADOWCUBE and the cube-array targets (whose `.x` holds a bias or the
/// reference), `.x` otherwise (table X.17's second "lod" entry).
pub fn unpack_lod_clamp<const N: usize>(
    opcode: NvOpcode,
    target: Target,
    shadow: bool,
    operands: &[&[[u32; N]; 4]],
    lanes: &mut Lanes<N>,
) -> Result<(), TexError> {
    let (k, comp) = match opcode {
        NvOpcode::Txd => (2, 3),
        NvOpcode::Tex | NvOpcode::Txb => {
            let y = target == Target::ArrayCube || (shadow && target == Target::Cube);
            (1, usize::from(y))
        }
        _ => {
            return Err(TexError::Invalid(format!(
                "{opcode:?} has no LOD clamp (only TEX, TXB and TXD)"
            )))
        }
    };
    let op = operands
        .get(k)
        .ok_or_else(|| TexError::Invalid(format!("{opcode:?}.LODCLAMP needs operand {}", k + 1)))?;
    for i in 0..N {
        lanes.lod_clamp[i] = f32::from_bits(op[comp][i]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lod_clamp_components() {
        let c = reg([0.0; 4]);
        let two = reg([1.0, 2.0, 3.0, 4.0]);
        let mut l = Lanes::<4>::new();
        assert_eq!(l.lod_clamp[0], f32::NEG_INFINITY);
        unpack_lod_clamp(NvOpcode::Tex, Target::T2D, false, &[&c, &two], &mut l).unwrap();
        assert_eq!(l.lod_clamp[0], 1.0);
        unpack_lod_clamp(NvOpcode::Txb, Target::ArrayCube, false, &[&c, &two], &mut l).unwrap();
        assert_eq!(l.lod_clamp[0], 2.0);
        unpack_lod_clamp(NvOpcode::Tex, Target::Cube, true, &[&c, &two], &mut l).unwrap();
        assert_eq!(l.lod_clamp[0], 2.0);
        unpack_lod_clamp(NvOpcode::Txd, Target::T2D, false, &[&c, &c, &two], &mut l).unwrap();
        assert_eq!(l.lod_clamp[0], 4.0);
        assert!(unpack_lod_clamp(NvOpcode::Tex, Target::T2D, false, &[&c], &mut l).is_err());
        assert!(unpack_lod_clamp(NvOpcode::Txl, Target::T2D, false, &[&c, &two], &mut l).is_err());
    }

    fn reg(v: [f32; 4]) -> [[u32; 4]; 4] {
        v.map(|c| [c.to_bits(); 4])
    }

    #[test]
    fn shadow_and_array_components() {
        let mut l = Lanes::<4>::new();
        let r = reg([0.1, 0.2, 0.3, 0.4]);
        let op = unpack(
            NvOpcode::Tex,
            Target::Array2D,
            true,
            &[&r],
            NvOffset::None,
            0,
            true,
            &mut l,
        )
        .unwrap();
        assert_eq!(op.kind, OpKind::Sample(LodMode::Implicit));
        assert_eq!((l.layer[0], l.reference[0]), (0.3, 0.4));
        let op = unpack(
            NvOpcode::Txb,
            Target::T2D,
            true,
            &[&r],
            NvOffset::Const([1, -2, 3]),
            0,
            true,
            &mut l,
        )
        .unwrap();
        assert!(op.shadow);
        assert_eq!((l.reference[1], l.lod[1]), (0.3, 0.4));
        assert_eq!((l.offset[0][2], l.offset[1][2], l.offset[2][2]), (1, -2, 0));
        let extra = reg([0.7, 0.8, 0.0, 0.0]);
        unpack(
            NvOpcode::Txl,
            Target::ArrayCube,
            true,
            &[&r, &extra],
            NvOffset::None,
            0,
            false,
            &mut l,
        )
        .unwrap();
        assert_eq!((l.layer[3], l.reference[3], l.lod[3]), (0.4, 0.7, 0.8));
        assert!(unpack(
            NvOpcode::Txl,
            Target::ArrayCube,
            false,
            &[&r],
            NvOffset::None,
            0,
            false,
            &mut l
        )
        .is_err());
    }

    #[test]
    fn projection_and_integer_operands() {
        let mut l = Lanes::<4>::new();
        let r = reg([1.0, 2.0, 3.0, 2.0]);
        unpack(
            NvOpcode::Txp,
            Target::T3D,
            false,
            &[&r],
            NvOffset::None,
            0,
            true,
            &mut l,
        )
        .unwrap();
        assert_eq!(
            (l.coord[0][0], l.coord[1][0], l.coord[2][0]),
            (0.5, 1.0, 1.5)
        );
        let ints = [[3u32; 4], [(-1i32) as u32; 4], [0; 4], [2; 4]];
        let op = unpack(
            NvOpcode::Txf,
            Target::T2D,
            false,
            &[&ints],
            NvOffset::None,
            0,
            true,
            &mut l,
        )
        .unwrap();
        assert_eq!(op.kind, OpKind::Fetch);
        assert_eq!((l.icoord[0][0], l.icoord[1][0], l.icoord[3][0]), (3, -1, 2));
    }
}
