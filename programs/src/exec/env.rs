//! What a program reaches outside its registers, stated as a trait the pipeline implements.
//!
//! Every method has a default that fails with a "not supported: X" [`EnvError`], so an
//! environment only implements what its stage and draw need. Texture and interpolation
//! calls cover a whole group of lanes (SoA operands plus a lane mask); memory, counter and
//! image calls are per lane because each lane has its own address.

use super::state::LaneState;
use super::{LaneMask, Vec4};
use crate::ir::{DataType, MemType, Stage, TexTarget};
use std::fmt;

/// A failure reported by the environment; the executor wraps it in an
/// [`ExecError`](super::ExecError) carrying the instruction index and span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvError(pub String);

impl EnvError {
    /// `not supported: <what>`.
    pub fn not_supported(what: &str) -> EnvError {
        EnvError(format!("not supported: {what}"))
    }
}

impl fmt::Display for EnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EnvError {}

/// Which texture operation a [`TexCall`] asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TexOp {
    /// TEX: implicit LOD (from quad derivatives in fragment programs, 0 elsewhere).
    Sample,
    /// TXB: LOD bias from `coord.w` (or `operand2.x` for CUBE-array/shadow-cube forms).
    Bias,
    /// TXL: explicit LOD from `coord.w` (or `operand2.x`).
    Lod,
    /// TXD: explicit derivatives, `operand2` = d/dx, `operand3` = d/dy.
    Grad,
    /// TXP: the environment divides the coordinates (and a shadow reference) by
    /// `coord.w` before sampling, so the target-specific rules stay in one place.
    Proj,
    /// TXF: integer texel fetch, LOD in `coord.w` (raw s32 bits).
    Fetch,
    /// TXFMS: integer texel fetch from a multisample texture, sample in `coord.w`.
    FetchMs,
    /// TXQ: size query, LOD in `coord.x` (s32); result (width, height, depth/layers, levels).
    Query,
    /// TXG: gather of component `gather_comp` of the four bilinear texels.
    Gather,
    /// TXGO: gather with per-texel offsets: `operand2` holds the four x offsets and
    /// `operand3` the four y offsets (s32).
    GatherOffsets,
    /// LOD: (computed LOD after clamping, unclamped LOD) in x, y.
    QueryLod,
}

/// Texel offsets of a texture instruction.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum TexOffsets<'a> {
    None,
    /// A constant offset from the instruction text.
    Const([i32; 3]),
    /// A register offset (NV_gpu_program5), per lane: `[comp][lane]`, s32.
    PerLane(&'a [[i32; super::MAX_LANES]; 3]),
}

/// One texture instruction applied to a group of lanes.
///
/// Operands are raw bits as the program computed them (f32 for sampling, s32 for fetch
/// and query), after swizzle and negate/abs. Lanes are in batch order; lanes `4q..4q+3`
/// form the 2×2 quad `(x,y), (x+1,y), (x,y+1), (x+1,y+1)` for implicit derivatives. The
/// result for every lane in `lanes` must be written to `out` (`out[comp][lane]`, raw
/// bits interpreted by `dtype`); other lanes may be left as they are.
#[derive(Copy, Clone, Debug)]
pub struct TexCall<'a> {
    pub op: TexOp,
    pub stage: Stage,
    /// Texture image unit (already resolved from a texture array if indexed).
    pub unit: u32,
    pub target: TexTarget,
    /// Lanes to compute.
    pub lanes: LaneMask,
    /// The first operand (coordinates). Lanes outside `lanes` hold their last values,
    /// so a fragment quad's other lanes still give derivatives.
    pub coord: &'a Vec4,
    pub operand2: Option<&'a Vec4>,
    pub operand3: Option<&'a Vec4>,
    pub offsets: TexOffsets<'a>,
    /// TXG/TXGO component select (0 = x ... 3 = w).
    pub gather_comp: u8,
    /// Result type the instruction expects.
    pub dtype: DataType,
}

/// Which buffer memory a LOAD/STORE/ATOM/LDC reaches.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MemRegion {
    /// The emulated GPU address space (NV_shader_buffer_load/store): `address` is a GPU
    /// address.
    Global,
    /// `program.buffer[binding]` parameter buffer (LDC, BUFFER/BUFFER4 operands):
    /// `address` is a byte offset into the binding.
    ParamBuffer { binding: u32 },
    /// `program.storage[binding]` (NV_shader_storage_buffer_object): byte offset.
    Storage { binding: u32 },
}

/// The image a LOADIM/STOREIM/ATOMIM lane accesses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ImageCall {
    /// Image unit (`program.image[unit]`, already resolved from an IMAGE array).
    pub unit: u32,
    /// The instruction's image target. The executor has already zeroed the coordinates
    /// the target does not use (EXT_shader_image_load_store section 2.X.8.Z, LOADIM:
    /// y for 1D/BUFFER, z for 1D/2D/BUFFER/RECT/2DMS, w except for 2DMS/ARRAY2DMS).
    pub target: TexTarget,
    /// The data format of the instruction (`LOADIM.U32X4` ...); for a formatted STOREIM,
    /// only the data type (F32, S32 or U32, count 1).
    pub ty: MemType,
    /// A STOREIM without a storage modifier: the data is converted to the unit's format.
    pub formatted: bool,
    /// Lane index within the batch.
    pub lane: u32,
}

/// Which interpolation instruction an [`InterpCall`] performs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum InterpKind {
    /// IPAC: at the centroid.
    Centroid,
    /// IPAS: at sample `operand.x` (u32).
    Sample,
    /// IPAO: at pixel centre + (`operand.x`, `operand.y`) (f32).
    Offset,
}

/// IPAC/IPAS/IPAO on a group of fragment lanes: evaluate input slot `input` at another
/// position. `out[comp][lane]` must be written for every lane in `lanes`.
#[derive(Copy, Clone, Debug)]
pub struct InterpCall<'a> {
    pub kind: InterpKind,
    /// Index into `Program::inputs`.
    pub input: u32,
    pub lanes: LaneMask,
    /// The second operand (sample index or offsets); zero for IPAC.
    pub operand: &'a Vec4,
}

/// Everything outside registers. Implemented by the pipeline for each stage.
pub trait Env {
    /// A texture instruction for a group of lanes (see [`TexCall`]).
    fn texture(&mut self, call: &TexCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
        let _ = (call, out);
        Err(EnvError::not_supported("texture access in this stage"))
    }

    /// Read `out.len()` bytes at `address` of `region` (little-endian memory). Return
    /// `Ok(false)` when any byte is out of range: the executor then reads zeros and
    /// counts the access in [`ExecStats`](super::ExecStats).
    fn mem_read(
        &mut self,
        region: MemRegion,
        address: u64,
        out: &mut [u8],
    ) -> Result<bool, EnvError> {
        let _ = (region, address, out);
        Err(EnvError::not_supported("buffer memory reads"))
    }

    /// Write `data` at `address` of `region`; `Ok(false)` when out of range (nothing is
    /// written).
    fn mem_write(
        &mut self,
        region: MemRegion,
        address: u64,
        data: &[u8],
    ) -> Result<bool, EnvError> {
        let _ = (region, address, data);
        Err(EnvError::not_supported("buffer memory writes"))
    }

    /// Atomically read the `size`-byte (4 or 8) little-endian value at `address`, call
    /// `update(old)` and, if it returns `Some(new)`, store `new`. Returns the old value, or
    /// `Ok(None)` when out of range.
    fn mem_atomic(
        &mut self,
        region: MemRegion,
        address: u64,
        size: u8,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<Option<u64>, EnvError> {
        let _ = (region, address, size, update);
        Err(EnvError::not_supported("atomic memory operations"))
    }

    /// Atomically update atomic counter `index` of `program.counter[binding]` with
    /// `update(old) -> new` and return the old value (`Ok(None)` when out of range).
    fn counter_atomic(
        &mut self,
        binding: u32,
        index: u32,
        update: &dyn Fn(u32) -> u32,
    ) -> Result<Option<u32>, EnvError> {
        let _ = (binding, index, update);
        Err(EnvError::not_supported("atomic counters"))
    }

    /// LOADIM for one lane at integer coordinates (x, y, z/layer, sample). `Ok(None)`
    /// when out of range (reads zero).
    fn image_load(
        &mut self,
        call: &ImageCall,
        coord: [i32; 4],
    ) -> Result<Option<[u32; 4]>, EnvError> {
        let _ = (call, coord);
        Err(EnvError::not_supported("image loads"))
    }

    /// STOREIM for one lane; `Ok(false)` when out of range.
    fn image_store(
        &mut self,
        call: &ImageCall,
        coord: [i32; 4],
        value: [u32; 4],
    ) -> Result<bool, EnvError> {
        let _ = (call, coord, value);
        Err(EnvError::not_supported("image stores"))
    }

    /// ATOMIM for one lane: atomically apply `update` to the texel's first component
    /// (32-bit) and return the old value; `Ok(None)` when out of range.
    fn image_atomic(
        &mut self,
        call: &ImageCall,
        coord: [i32; 4],
        update: &dyn Fn(u32) -> Option<u32>,
    ) -> Result<Option<u32>, EnvError> {
        let _ = (call, coord, update);
        Err(EnvError::not_supported("image atomics"))
    }

    /// IPAC/IPAS/IPAO for a group of fragment lanes.
    fn interpolate(&mut self, call: &InterpCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
        let _ = (call, out);
        Err(EnvError::not_supported(
            "attribute interpolation instructions",
        ))
    }

    /// EMIT/EMITS from geometry lane `lane`: the current outputs of that lane
    /// (`state.output_lane(slot, lane)`) form a new vertex on vertex stream `stream`.
    fn emit(&mut self, stream: u32, lane: usize, state: &LaneState) -> Result<(), EnvError> {
        let _ = (stream, lane, state);
        Err(EnvError::not_supported("EMIT outside a geometry program"))
    }

    /// ENDPRIM from geometry lane `lane`: end the current primitive (stream 0).
    fn end_primitive(&mut self, lane: usize) -> Result<(), EnvError> {
        let _ = lane;
        Err(EnvError::not_supported(
            "ENDPRIM outside a geometry program",
        ))
    }

    /// The function index the application stored in subroutine uniform slot `slot`
    /// (`program.subroutine[slot]`), for CALI.
    fn subroutine(&mut self, slot: u32) -> Result<u32, EnvError> {
        let _ = slot;
        Err(EnvError::not_supported("subroutine uniforms"))
    }

    /// MEMBAR: make this invocation's earlier memory writes visible before later ones.
    /// The default does nothing, which is right for an environment that applies writes
    /// immediately.
    fn memory_barrier(&mut self) -> Result<(), EnvError> {
        Ok(())
    }
}
