//! What a program reaches outside its registers, stated as traits the pipeline implements.
//!
//! [`Env`] is what every stage shares (textures, buffer memory, counters, images,
//! subroutine uniforms, barriers, the watchdog); every method has a default that fails
//! with a "not supported: X" [`EnvError`], so an environment only implements what its
//! draw binds. What only one stage does is a hook trait whose methods have no default:
//! [`FragmentHooks`] (IPAC/IPAS/IPAO) and [`GeometryHooks`] (EMIT/EMITS/ENDPRIM). A run
//! takes a [`RunEnv`]: any `Env` is one without hooks, and [`Fragment`] and
//! [`Geometry`] wrap an environment that has the stage's hooks, so a fragment or geometry
//! environment that lacks one fails to compile. A program that needs hooks its run was not
//! given is refused before it starts. Texture and interpolation calls cover a whole group
//! of lanes (SoA operands plus a lane mask); memory, counter and image calls are per lane
//! because each lane has its own address.

use super::state::LaneState;
use super::{LaneMask, Vec4};
use crate::ir::{DataType, Extra, MemSpace, MemType, OpClass, Opcode, Program, Stage, TexTarget};
use std::fmt;

/// A failure reported by the environment; the executor wraps it in an
/// [`ExecError`](super::ExecError) carrying the instruction index and span.
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// let p = assemble("!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nEND", None).unwrap();
/// let ex = Executor::new(Arc::new(p));
/// let mut st = ex.new_state(1);
/// let e = ex.run(&mut st, 1, &[], &mut NullEnv).unwrap_err();
/// assert_eq!(e.kind, ExecErrorKind::Env(EnvError::not_supported("texture access in this stage").0));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnvError(pub String);

impl EnvError {
    /// `not supported: <what>`.
    ///
    /// ```
    /// # use glemu_programs::exec::EnvError;
    /// let e = EnvError::not_supported("cube arrays");
    /// assert_eq!(e.to_string(), "not supported: cube arrays");
    /// ```
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
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// # struct Rec(Option<(TexOp, u32, u32)>, [i32; 3]);
/// # impl Env for Rec {
/// #     fn texture(&mut self, c: &TexCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
/// #         self.0 = Some((c.op, c.unit, c.lanes));
/// #         if let TexOffsets::Const(o) = c.offsets { self.1 = o; }
/// #         out[0] = [7; MAX_LANES];
/// #         Ok(())
/// #     }
/// # }
/// let p = assemble("!!NVfp4.0\nTXL result.color, fragment.texcoord[0], texture[2], 2D;\nEND", None).unwrap();
/// let ex = Executor::new(Arc::new(p));
/// let mut st = ex.new_state(4);
/// let mut env = Rec(None, [0; 3]);
/// ex.run(&mut st, 0b0110, &[], &mut env).unwrap();
/// assert_eq!(env.0, Some((TexOp::Lod, 2, 0b0110)));
/// ```
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
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// # struct Rec(Option<(TexOp, u32, u32)>, [i32; 3]);
/// # impl Env for Rec {
/// #     fn texture(&mut self, c: &TexCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
/// #         self.0 = Some((c.op, c.unit, c.lanes));
/// #         if let TexOffsets::Const(o) = c.offsets { self.1 = o; }
/// #         out[0] = [7; MAX_LANES];
/// #         Ok(())
/// #     }
/// # }
/// let p = assemble("!!NVfp4.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D, (1, -2);\nEND", None).unwrap();
/// let ex = Executor::new(Arc::new(p));
/// let mut st = ex.new_state(4);
/// let mut env = Rec(None, [0; 3]);
/// ex.run(&mut st, 1, &[], &mut env).unwrap();
/// assert_eq!(env.1, [1, -2, 0]);
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum TexOffsets<'a> {
    /// No offset.
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
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// # struct Rec(Option<(TexOp, u32, u32)>, [i32; 3]);
/// # impl Env for Rec {
/// #     fn texture(&mut self, c: &TexCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
/// #         self.0 = Some((c.op, c.unit, c.lanes));
/// #         if let TexOffsets::Const(o) = c.offsets { self.1 = o; }
/// #         out[0] = [7; MAX_LANES];
/// #         Ok(())
/// #     }
/// # }
/// let p = assemble("!!NVfp4.0\nTXL result.color, fragment.texcoord[0], texture[2], 2D;\nEND", None).unwrap();
/// let ex = Executor::new(Arc::new(p));
/// let mut st = ex.new_state(4);
/// let mut env = Rec(None, [0; 3]);
/// ex.run(&mut st, 0b0110, &[], &mut env).unwrap();
/// assert_eq!(env.0, Some((TexOp::Lod, 2, 0b0110)));
/// assert_eq!(st.output_lane(0, 1)[0], 7);
/// ```
#[derive(Copy, Clone, Debug)]
pub struct TexCall<'a> {
    /// Which texture instruction (how the operands are read).
    pub op: TexOp,
    /// Stage of the program, for the environment's per-stage rules (implicit derivatives
    /// only in fragment programs).
    pub stage: Stage,
    /// Texture image unit (already resolved from a texture array if indexed).
    pub unit: u32,
    /// Target named in the instruction (coordinate layout, comparison).
    pub target: TexTarget,
    /// Lanes to compute.
    pub lanes: LaneMask,
    /// The first operand (coordinates). Lanes outside `lanes` hold their last values,
    /// so a fragment quad's other lanes still give derivatives.
    pub coord: &'a Vec4,
    /// The second operand (derivatives, offsets, reference or LOD for some targets), if the
    /// instruction has one.
    pub operand2: Option<&'a Vec4>,
    /// The third operand (TXD's y derivatives, TXGO's y offsets), if the instruction has
    /// one.
    pub operand3: Option<&'a Vec4>,
    /// Texel offsets to apply.
    pub offsets: TexOffsets<'a>,
    /// TXG/TXGO component select (0 = x ... 3 = w).
    pub gather_comp: u8,
    /// `.LODCLAMP`: the LOD is at least the clamp value (see [`crate::ir::TexInfo`]).
    pub lod_clamp: bool,
    /// Result type the instruction expects.
    pub dtype: DataType,
}

/// Which buffer memory a LOAD/STORE/ATOM/LDC reaches.
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// # struct Rec(Vec<(MemRegion, u64)>);
/// # impl Env for Rec {
/// #     fn mem_read(&mut self, r: MemRegion, a: u64, out: &mut [u8]) -> Result<bool, EnvError> {
/// #         self.0.push((r, a));
/// #         out.fill(1);
/// #         Ok(true)
/// #     }
/// # }
/// let p = assemble("!!NVfp5.0\nOPTION NV_shader_storage_buffer;\nSTORAGE s = program.storage[2];\nUINT TEMP t;\nLDB.U32 t, s[8];\nEND", None).unwrap();
/// let ex = Executor::new(Arc::new(p));
/// let mut st = ex.new_state(1);
/// let mut env = Rec(Vec::new());
/// ex.run(&mut st, 1, &[], &mut env).unwrap();
/// assert_eq!(env.0, vec![(MemRegion::Storage { binding: 2 }, 8)]);
/// assert_eq!(st.temp_lane(0, 0)[0], 0x0101_0101);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MemRegion {
    /// The emulated GPU address space (NV_shader_buffer_load/store): `address` is a GPU
    /// address.
    Global,
    /// `program.buffer[binding]` parameter buffer (LDC, BUFFER/BUFFER4 operands):
    /// `address` is a byte offset into the binding.
    ParamBuffer {
        /// Binding point index.
        binding: u32,
    },
    /// `program.storage[binding]` (NV_shader_storage_buffer_object): byte offset.
    Storage {
        /// Binding point index.
        binding: u32,
    },
    /// The work group's shared memory (NV_compute_program5 LDS/STS/ATOMS): byte offset.
    /// Only the invocations of one work group reach it, all on one thread. It is reached
    /// through [`ComputeHooks`]: `Env`'s memory calls never see this region.
    Shared,
}

/// The image a LOADIM/STOREIM/ATOMIM lane accesses.
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// # struct Rec(Vec<(u32, [i32; 4])>);
/// # impl Env for Rec {
/// #     fn image_load(&mut self, c: &ImageCall, xy: [i32; 4]) -> Result<Option<[u32; 4]>, EnvError> {
/// #         self.0.push((c.unit, xy));
/// #         Ok(Some([5, 6, 7, 8]))
/// #     }
/// # }
/// let p = assemble("!!NVfp5.0\nIMAGE im = image[3];\nUINT TEMP r;\nLOADIM.U32 r, {1, 2, 9, 9}, im, 2D;\nEND", None).unwrap();
/// let params: Vec<[u32; 4]> = p.params.iter().map(|s| match s { ParamSource::Constant(c) => *c, _ => [0; 4] }).collect();
/// let ex = Executor::new(Arc::new(p));
/// let mut st = ex.new_state(1);
/// let mut env = Rec(Vec::new());
/// ex.run(&mut st, 1, &params, &mut env).unwrap();
/// assert_eq!(env.0, vec![(3, [1, 2, 0, 0])]);
/// assert_eq!(st.temp_lane(0, 0)[0], 5);
/// ```
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
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// # struct Rec(Vec<(InterpKind, u32)>);
/// # impl Env for Rec {}
/// # impl FragmentHooks for Rec {
/// #     fn interpolate(&mut self, c: &InterpCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
/// #         self.0.push((c.kind, c.operand[0][0]));
/// #         out[0] = [9; MAX_LANES];
/// #         Ok(())
/// #     }
/// # }
/// let p = assemble("!!NVfp5.0\nTEMP r;\nIPAC r, fragment.texcoord[1];\nIPAS r, fragment.texcoord[1], 3;\nMOV result.color, r;\nEND", None).unwrap();
/// let params: Vec<[u32; 4]> = p.params.iter().map(|s| match s { ParamSource::Constant(c) => *c, _ => [0; 4] }).collect();
/// let ex = Executor::new(Arc::new(p));
/// let mut st = ex.new_state(1);
/// let mut env = Rec(Vec::new());
/// ex.run(&mut st, 1, &params, &mut Fragment(&mut env)).unwrap();
/// assert_eq!(env.0, vec![(InterpKind::Centroid, 0), (InterpKind::Sample, 3)]);
/// ```
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
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// # struct Rec(Vec<(InterpKind, u32)>);
/// # impl Env for Rec {}
/// # impl FragmentHooks for Rec {
/// #     fn interpolate(&mut self, c: &InterpCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
/// #         self.0.push((c.kind, c.operand[0][0]));
/// #         out[0] = [9; MAX_LANES];
/// #         Ok(())
/// #     }
/// # }
/// let p = assemble("!!NVfp5.0\nTEMP r;\nIPAC r, fragment.texcoord[1];\nIPAS r, fragment.texcoord[1], 3;\nMOV result.color, r;\nEND", None).unwrap();
/// let params: Vec<[u32; 4]> = p.params.iter().map(|s| match s { ParamSource::Constant(c) => *c, _ => [0; 4] }).collect();
/// let ex = Executor::new(Arc::new(p));
/// let mut st = ex.new_state(1);
/// let mut env = Rec(Vec::new());
/// ex.run(&mut st, 1, &params, &mut Fragment(&mut env)).unwrap();
/// assert_eq!(env.0[1].1, 3);
/// assert_eq!(st.output_lane(0, 0)[0], 9);
/// ```
#[derive(Copy, Clone, Debug)]
pub struct InterpCall<'a> {
    /// Where to interpolate.
    pub kind: InterpKind,
    /// Index into `Program::inputs`.
    pub input: u32,
    /// Lanes to compute.
    pub lanes: LaneMask,
    /// The second operand (sample index or offsets); zero for IPAC.
    pub operand: &'a Vec4,
}

/// The resources every stage shares. Implemented by the pipeline for each stage.
///
/// ```
/// # use glemu_programs::{assemble, exec::*, ir::ParamSource};
/// # use std::sync::Arc;
/// # struct Counter(u32);
/// # impl Env for Counter {
/// #     fn counter_atomic(&mut self, _: u32, _: u32, f: &dyn Fn(u32) -> u32) -> Result<Option<u32>, EnvError> {
/// #         let old = self.0;
/// #         self.0 = f(old);
/// #         Ok(Some(old))
/// #     }
/// # }
/// let p = assemble("!!NVfp5.0\nOPTION NV_shader_atomic_counters;\nCOUNTER c = program.counter[0][0];\nUINT TEMP r;\nATOMCTR.U32.INCR r.x, c;\nEND", None).unwrap();
/// let ex = Executor::new(Arc::new(p));
/// let mut st = ex.new_state(4);
/// let mut env = Counter(10);
/// ex.run(&mut st, 0b0111, &[], &mut env).unwrap();
/// assert_eq!(env.0, 13);
/// let mut got: Vec<u32> = (0..3).map(|l| st.temp_lane(0, l)[0]).collect();
/// got.sort();
/// assert_eq!(got, vec![10, 11, 12]);
/// ```
pub trait Env {
    /// A texture instruction for a group of lanes (see [`TexCall`]).
    fn texture(&mut self, call: &TexCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
        let _ = (call, out);
        Err(EnvError::not_supported("texture access in this stage"))
    }

    /// Samplers resolved once per draw for the texture instructions of the program this
    /// environment runs (compiled kernels call them instead of [`Env::texture`]); `None`:
    /// every call goes through [`Env::texture`].
    fn texture_sites(&self) -> Option<&super::TexSites> {
        None
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

    /// Asked every [`INTERRUPT_STEPS`](super::INTERRUPT_STEPS) instructions a group
    /// executes: true stops the run with [`ExecErrorKind::Interrupted`](super::ExecErrorKind)
    /// (a draw's watchdog ran out). The default never interrupts.
    ///
    /// ```
    /// # use glemu_programs::{assemble, exec::*};
    /// # use std::sync::Arc;
    /// struct Stop;
    /// impl Env for Stop {
    ///     fn interrupted(&mut self) -> bool { true }
    /// }
    /// // A loop whose only exit is never taken (FL: the false condition).
    /// let p = Arc::new(assemble("!!NVvp4.0\nREP;\nBRK (FL.x);\nENDREP;\nMOV result.position, 0;\nEND", None).unwrap());
    /// let ex = Executor::new(p);
    /// let e = ex.run(&mut ex.new_state(1), 1, &[], &mut Stop).unwrap_err();
    /// assert_eq!(e.kind, ExecErrorKind::Interrupted);
    /// ```
    fn interrupted(&mut self) -> bool {
        false
    }
}

/// An environment with nothing bound: every texture, memory, counter and image call
/// fails with the trait's "not supported" error, and nothing interrupts a run. For
/// examples, tests and tools that run programs of registers only.
///
/// ```
/// use glemu_programs::{assemble, exec::{Executor, NullEnv}};
/// use std::sync::Arc;
/// let p = assemble("!!NVvp4.0\nADD result.position, vertex.attrib[0], vertex.attrib[0];\nEND", None).unwrap();
/// let ex = Executor::new(Arc::new(p));
/// let mut st = ex.new_state(1);
/// st.set_input_f32(0, 0, [0.5; 4]);
/// ex.run(&mut st, 1, &[], &mut NullEnv).unwrap();
/// assert_eq!(f32::from_bits(st.output(0).unwrap()[0][0]), 1.0);
/// ```
#[derive(Copy, Clone, Debug, Default)]
pub struct NullEnv;

impl Env for NullEnv {}

/// The fragment stage's hook: IPAC/IPAS/IPAO. Run a fragment program that interpolates
/// with [`Fragment`]`(&mut env)`.
pub trait FragmentHooks: Env {
    /// IPAC/IPAS/IPAO for a group of fragment lanes.
    fn interpolate(&mut self, call: &InterpCall<'_>, out: &mut Vec4) -> Result<(), EnvError>;
}

/// The geometry stage's hooks: EMIT/EMITS/ENDPRIM. Run a geometry program with
/// [`Geometry`]`(&mut env)`.
pub trait GeometryHooks: Env {
    /// EMIT/EMITS from geometry lane `lane`: the current outputs of that lane
    /// (`state.output_lane(slot, lane)`) form a new vertex on vertex stream `stream`.
    fn emit(&mut self, stream: u32, lane: usize, state: &LaneState) -> Result<(), EnvError>;

    /// ENDPRIM from geometry lane `lane`: end the current primitive (stream 0).
    fn end_primitive(&mut self, lane: usize) -> Result<(), EnvError>;
}

/// The compute stage's hooks: the work group's shared memory (LDS/STS/ATOMS and the
/// other accesses to `program.sharedmem`), at byte offsets. Run a compute program that
/// uses it with [`Compute`]`(&mut env)`.
pub trait ComputeHooks: Env {
    /// As [`Env::mem_read`] on the work group's shared memory.
    fn shared_read(&mut self, address: u64, out: &mut [u8]) -> Result<bool, EnvError>;

    /// As [`Env::mem_write`] on the work group's shared memory.
    fn shared_write(&mut self, address: u64, data: &[u8]) -> Result<bool, EnvError>;

    /// As [`Env::mem_atomic`] on the work group's shared memory.
    fn shared_atomic(
        &mut self,
        address: u64,
        size: u8,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<Option<u64>, EnvError>;
}

/// A compute environment with its hooks (shared memory), for a run.
pub struct Compute<'a, E: ?Sized>(pub &'a mut E);

/// A fragment environment with its hooks, for a run.
///
/// ```
/// # use glemu_programs::{assemble, exec::*};
/// # use std::sync::Arc;
/// struct At;
/// impl Env for At {}
/// impl FragmentHooks for At {
///     fn interpolate(&mut self, _: &InterpCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
///         out[0] = [4; MAX_LANES];
///         Ok(())
///     }
/// }
/// let p = assemble("!!NVfp5.0\nTEMP r;\nIPAC r, fragment.texcoord[0];\nMOV result.color, r;\nEND", None).unwrap();
/// let ex = Executor::new(Arc::new(p));
/// let mut st = ex.new_state(1);
/// ex.run(&mut st, 1, &[], &mut Fragment(&mut At)).unwrap();
/// assert_eq!(st.output_lane(0, 0)[0], 4);
/// // Without the hooks the program is refused before it runs.
/// let e = ex.run(&mut st, 1, &[], &mut At).unwrap_err();
/// assert!(matches!(e.kind, ExecErrorKind::BadState(_)));
/// ```
pub struct Fragment<'a, E: ?Sized>(pub &'a mut E);

/// A geometry environment with its hooks, for a run.
pub struct Geometry<'a, E: ?Sized>(pub &'a mut E);

/// What a run calls: the shared [`Env`] of its stage plus the stage's hooks. Every `Env`
/// is a `RunEnv` without hooks; [`Fragment`], [`Geometry`] and [`Compute`] add theirs.
pub trait RunEnv {
    /// The shared resources.
    type Resources: Env + ?Sized;

    /// The shared resources, for every call but the hooks.
    fn resources(&mut self) -> &mut Self::Resources;

    /// Which stage's hooks this run has (`Fragment`, `Geometry` or `Compute`; `None`
    /// for none).
    fn hooks(&self) -> Option<Stage> {
        None
    }

    /// IPAC/IPAS/IPAO (only with [`Fragment`]).
    fn interpolate(&mut self, call: &InterpCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
        let _ = (call, out);
        Err(EnvError::not_supported(
            "IPAC/IPAS/IPAO without fragment hooks",
        ))
    }

    /// EMIT/EMITS (only with [`Geometry`]).
    fn emit(&mut self, stream: u32, lane: usize, state: &LaneState) -> Result<(), EnvError> {
        let _ = (stream, lane, state);
        Err(EnvError::not_supported("EMIT without geometry hooks"))
    }

    /// ENDPRIM (only with [`Geometry`]).
    fn end_primitive(&mut self, lane: usize) -> Result<(), EnvError> {
        let _ = lane;
        Err(EnvError::not_supported("ENDPRIM without geometry hooks"))
    }

    /// A memory read of any region: shared memory through the compute hooks (only with
    /// [`Compute`]), the others through [`Env::mem_read`].
    fn region_read(
        &mut self,
        region: MemRegion,
        address: u64,
        out: &mut [u8],
    ) -> Result<bool, EnvError> {
        match region {
            MemRegion::Shared => Err(no_shared_memory()),
            _ => self.resources().mem_read(region, address, out),
        }
    }

    /// A memory write of any region (see [`RunEnv::region_read`]).
    fn region_write(
        &mut self,
        region: MemRegion,
        address: u64,
        data: &[u8],
    ) -> Result<bool, EnvError> {
        match region {
            MemRegion::Shared => Err(no_shared_memory()),
            _ => self.resources().mem_write(region, address, data),
        }
    }

    /// An atomic of any region (see [`RunEnv::region_read`]).
    fn region_atomic(
        &mut self,
        region: MemRegion,
        address: u64,
        size: u8,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<Option<u64>, EnvError> {
        match region {
            MemRegion::Shared => Err(no_shared_memory()),
            _ => self.resources().mem_atomic(region, address, size, update),
        }
    }
}

fn no_shared_memory() -> EnvError {
    EnvError::not_supported("shared memory without compute hooks")
}

impl<E: ComputeHooks + ?Sized> RunEnv for Compute<'_, E> {
    type Resources = E;
    fn resources(&mut self) -> &mut E {
        self.0
    }
    fn hooks(&self) -> Option<Stage> {
        Some(Stage::Compute)
    }
    fn region_read(
        &mut self,
        region: MemRegion,
        address: u64,
        out: &mut [u8],
    ) -> Result<bool, EnvError> {
        match region {
            MemRegion::Shared => self.0.shared_read(address, out),
            _ => self.0.mem_read(region, address, out),
        }
    }
    fn region_write(
        &mut self,
        region: MemRegion,
        address: u64,
        data: &[u8],
    ) -> Result<bool, EnvError> {
        match region {
            MemRegion::Shared => self.0.shared_write(address, data),
            _ => self.0.mem_write(region, address, data),
        }
    }
    fn region_atomic(
        &mut self,
        region: MemRegion,
        address: u64,
        size: u8,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<Option<u64>, EnvError> {
        match region {
            MemRegion::Shared => self.0.shared_atomic(address, size, update),
            _ => self.0.mem_atomic(region, address, size, update),
        }
    }
}

impl<E: Env + ?Sized> RunEnv for E {
    type Resources = E;
    fn resources(&mut self) -> &mut E {
        self
    }
}

impl<E: FragmentHooks + ?Sized> RunEnv for Fragment<'_, E> {
    type Resources = E;
    fn resources(&mut self) -> &mut E {
        self.0
    }
    fn hooks(&self) -> Option<Stage> {
        Some(Stage::Fragment)
    }
    fn interpolate(&mut self, call: &InterpCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
        self.0.interpolate(call, out)
    }
}

impl<E: GeometryHooks + ?Sized> RunEnv for Geometry<'_, E> {
    type Resources = E;
    fn resources(&mut self) -> &mut E {
        self.0
    }
    fn hooks(&self) -> Option<Stage> {
        Some(Stage::Geometry)
    }
    fn emit(&mut self, stream: u32, lane: usize, state: &LaneState) -> Result<(), EnvError> {
        self.0.emit(stream, lane, state)
    }
    fn end_primitive(&mut self, lane: usize) -> Result<(), EnvError> {
        self.0.end_primitive(lane)
    }
}

/// The first instruction of `prog` that calls stage hooks, with the hooks' stage: a run
/// without them is refused before it starts.
pub(crate) fn hooks_needed(prog: &Program) -> Option<(Stage, u32, Opcode)> {
    prog.instructions
        .iter()
        .enumerate()
        .find_map(|(at, i)| match (i.op.class(), &i.extra) {
            (OpClass::Interpolate, _) => Some((Stage::Fragment, at as u32, i.op)),
            (OpClass::GeometryOutput, _) => Some((Stage::Geometry, at as u32, i.op)),
            (OpClass::Memory, Extra::Mem(m)) if matches!(m.space, MemSpace::Shared { .. }) => {
                Some((Stage::Compute, at as u32, i.op))
            }
            _ => None,
        })
}
