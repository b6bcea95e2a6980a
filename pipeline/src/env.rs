//! The executor's [`Env`] for every stage: textures through glemu-textures, parameter and
//! storage buffers, the GPU address space, atomic counters and subroutine uniforms.
//!
//! [`Resources`] is shared (read-only, `Sync`) by every invocation of a draw; each batch
//! builds a small [`StageEnv`] around it. Geometry and fragment stages wrap a `StageEnv`
//! to add EMIT and IPAx.

use crate::error::PipelineError;
use crate::images::{self, ImageUnit};
use crate::memory::{atomic_on, Buffer, GpuMemory};
use crate::state::{BufferRange, StageProgram, TextureUnit};
use glemu_programs::exec::{
    Env, EnvError, ImageCall, MemRegion, TexCall, TexOffsets, TexOp as ExecTexOp, TexSite,
    TexSites, Vec4, MAX_LANES,
};
use glemu_programs::ir::{Stage, TexTarget};
use glemu_raster::Deadline;
use glemu_textures::nv::{unpack, unpack_lod_clamp, NvOffset, NvOpcode};
use glemu_textures::{Bound, Lanes, Target};
use std::sync::Arc;

/// Everything a draw's programs can reach outside their registers.
#[derive(Clone, Debug, Default)]
pub struct Resources {
    /// Texture bindings by unit, prepared once per draw ([`Resources::bind_textures`]).
    pub textures: Vec<Vec<Bound>>,
    /// Atomic counter buffer bindings, by binding point.
    pub counter_buffers: Vec<Option<BufferRange>>,
    /// Shader storage buffer bindings, by binding point.
    pub storage_buffers: Vec<Option<BufferRange>>,
    /// The GPU address space LOAD/STORE/ATOM reach; without one they fail as not
    /// supported.
    pub memory: Option<Arc<GpuMemory>>,
    /// Image units, by unit number.
    pub images: Vec<Option<ImageUnit>>,
    /// The draw's watchdog (programs in long loops are interrupted past it).
    pub deadline: Option<Deadline>,
    /// `glemu trace --stage`: the earlier stages whose invocations run traced.
    pub stage_trace: Option<Arc<crate::trace::StageTrace>>,
    /// Each stage's texture instructions resolved to their samplers, by `Stage as usize`
    /// ([`Resources::texture_sites`]); a stage without them takes [`Env::texture`].
    pub texture_sites: Vec<Option<TexSites>>,
}

impl Resources {
    /// `Err` once the draw's deadline has passed: stages call it per batch of work, so
    /// native kernels (which never ask [`Env::interrupted`]) stop too.
    pub fn check_deadline(&self) -> Result<(), PipelineError> {
        Deadline::check(self.deadline).map_err(PipelineError::from)
    }
}

impl Resources {
    /// Each unit's bindings prepared for a draw: completeness, borders and the sampling
    /// path of every texture are decided here once, not per lookup.
    pub fn bind_textures(units: &[TextureUnit]) -> Vec<Vec<Bound>> {
        units
            .iter()
            .map(|u| {
                u.bindings
                    .iter()
                    .map(|b| Bound::new(b.texture.clone(), b.sampler.clone()))
                    .collect()
            })
            .collect()
    }
}

/// The binding of `target` on `unit` among a draw's `textures`, if complete.
fn binding(textures: &[Vec<Bound>], unit: u32, target: Target) -> Option<&Bound> {
    textures
        .get(unit as usize)?
        .iter()
        .find(|b| b.texture().target() == target)
}

impl Resources {
    /// The texture sites of `programs`' stages for a draw with `textures` bound: each
    /// texture instruction that [`StageEnv::texture`] would send to a binding's
    /// specialised path gets that path resolved once ([`Bound::site`]).
    pub fn texture_sites<'p>(
        textures: &[Vec<Bound>],
        programs: impl IntoIterator<Item = &'p StageProgram>,
    ) -> Vec<Option<TexSites>> {
        let mut sites = Vec::new();
        for p in programs {
            let stage = p.program.stage as usize;
            if sites.len() <= stage {
                sites.resize(stage + 1, None);
            }
            let found = TexSites::new(&p.program, |call| site(textures, call));
            sites[stage] = (found.count() > 0).then_some(found);
        }
        sites
    }
}

/// The site of `call` (as [`TexSites::new`] describes it), when [`StageEnv::texture`]
/// would take the binding's specialised path for it.
fn site(textures: &[Vec<Bound>], call: &TexCall<'_>) -> Option<Arc<dyn TexSite>> {
    let (target, shadow) = split_target(call.target)?;
    let offset = plain_2d_offset(call, target, shadow)?;
    let fragment = call.stage == Stage::Fragment;
    let site = binding(textures, call.unit, target)?.site(nv_opcode(call.op), offset, fragment)?;
    Some(Arc::new(Site2d(site)))
}

/// The texel offset of `call` on `target` when a binding's specialised path may take it
/// (a 2D lookup without shadow, LOD clamp or register offsets): one test for
/// [`StageEnv::texture`] and [`site`], so that sites exist exactly where that path is.
fn plain_2d_offset(call: &TexCall<'_>, target: Target, shadow: bool) -> Option<[i32; 2]> {
    if target != Target::T2D || shadow || call.lod_clamp {
        return None;
    }
    match call.offsets {
        TexOffsets::None => Some([0, 0]),
        TexOffsets::Const(o) => Some([o[0], o[1]]),
        TexOffsets::PerLane(_) => None,
    }
}

/// A [`glemu_textures::bound::Site`] as the executor's [`TexSite`].
struct Site2d(glemu_textures::bound::Site);

impl TexSite for Site2d {
    #[inline]
    fn sample(&self, coord: &Vec4, mask: u32, out: &mut Vec4) -> bool {
        self.0.sample(coord, u64::from(mask), out)
    }
}

/// Per-stage view of [`Resources`] plus the stage's own parameter buffers.
pub struct StageEnv<'a> {
    /// The draw's shared resources.
    pub(crate) res: &'a Resources,
    /// Stage the program runs in (decides which texture and interpolation calls it may
    /// make).
    pub(crate) stage: Stage,
    /// The stage's parameter buffers, by binding point.
    pub(crate) param_buffers: &'a [Option<BufferRange>],
    /// The stage's subroutine uniform values (function index per slot).
    pub(crate) subroutines: &'a [u32],
}

/// Resolves `size` bytes at `offset` of a bound range to (buffer, absolute offset).
fn in_range(r: &BufferRange, offset: u64, size: u64) -> Option<(&Arc<Buffer>, u64)> {
    let limit = match r.size {
        Some(s) => s,
        None => r.buffer.len().saturating_sub(r.offset),
    };
    let end = offset.checked_add(size)?;
    (end <= limit).then_some((&r.buffer, r.offset.checked_add(offset)?))
}

/// Instruction target → texture target and whether it is a SHADOW form.
pub fn split_target(t: TexTarget) -> Option<(Target, bool)> {
    use TexTarget as T;
    Some(match t {
        T::T1D => (Target::T1D, false),
        T::T2D => (Target::T2D, false),
        T::T3D => (Target::T3D, false),
        T::Cube => (Target::Cube, false),
        T::Rect => (Target::Rect, false),
        T::Array1D => (Target::Array1D, false),
        T::Array2D => (Target::Array2D, false),
        T::ArrayCube => (Target::ArrayCube, false),
        T::Shadow1D => (Target::T1D, true),
        T::Shadow2D => (Target::T2D, true),
        T::ShadowRect => (Target::Rect, true),
        T::ShadowCube => (Target::Cube, true),
        T::ShadowArray1D => (Target::Array1D, true),
        T::ShadowArray2D => (Target::Array2D, true),
        T::ShadowArrayCube => (Target::ArrayCube, true),
        T::Buffer => (Target::Buffer, false),
        T::T2DMs => (Target::T2DMs, false),
        T::Array2DMs => (Target::Array2DMs, false),
        T::Renderbuffer => return None,
    })
}

/// The texture crate's name for an instruction's operation.
fn nv_opcode(op: ExecTexOp) -> NvOpcode {
    match op {
        ExecTexOp::Sample => NvOpcode::Tex,
        ExecTexOp::Bias => NvOpcode::Txb,
        ExecTexOp::Lod => NvOpcode::Txl,
        ExecTexOp::Grad => NvOpcode::Txd,
        ExecTexOp::Proj => NvOpcode::Txp,
        ExecTexOp::Fetch => NvOpcode::Txf,
        ExecTexOp::FetchMs => NvOpcode::Txfms,
        ExecTexOp::Query => NvOpcode::Txq,
        ExecTexOp::Gather => NvOpcode::Txg,
        ExecTexOp::GatherOffsets => NvOpcode::Txgo,
        ExecTexOp::QueryLod => NvOpcode::Lod,
    }
}

impl StageEnv<'_> {
    fn region(&self, region: MemRegion) -> Option<&BufferRange> {
        match region {
            MemRegion::ParamBuffer { binding } => {
                self.param_buffers.get(binding as usize)?.as_ref()
            }
            MemRegion::Storage { binding } => {
                self.res.storage_buffers.get(binding as usize)?.as_ref()
            }
            // Shared memory belongs to a compute work group (`compute::GroupEnv`).
            MemRegion::Global | MemRegion::Shared => None,
        }
    }

    fn memory(&self) -> Result<&GpuMemory, EnvError> {
        self.res
            .memory
            .as_deref()
            .ok_or_else(|| EnvError::not_supported("GPU memory access without an address space"))
    }
}

impl Env for StageEnv<'_> {
    fn interrupted(&mut self) -> bool {
        self.res.deadline.is_some_and(|d| d.passed())
    }

    #[inline]
    fn texture_sites(&self) -> Option<&TexSites> {
        self.res.texture_sites.get(self.stage as usize)?.as_ref()
    }

    fn texture(&mut self, call: &TexCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
        let (target, shadow) = split_target(call.target)
            .ok_or_else(|| EnvError::not_supported("RENDERBUFFER texture target"))?;
        let binding = binding(&self.res.textures, call.unit, target);
        let Some(binding) = binding else {
            // No complete texture of this target on the unit: GL returns (0, 0, 0, 1).
            for i in 0..MAX_LANES {
                if call.lanes & (1 << i) != 0 {
                    out[0][i] = 0;
                    out[1][i] = 0;
                    out[2][i] = 0;
                    out[3][i] = if call.dtype.is_float() {
                        1.0f32.to_bits()
                    } else {
                        1
                    };
                }
            }
            return Ok(());
        };
        // Plain 2D lookups go straight from the coordinate register to the specialised
        // sampler when the binding has one.
        if let Some(offset) = plain_2d_offset(call, target, shadow) {
            let fragment = self.stage == Stage::Fragment;
            let mask = u64::from(call.lanes);
            let op = nv_opcode(call.op);
            if binding.sample_nv(op, call.coord, offset, fragment, mask, out) {
                return Ok(());
            }
        }
        // Operand layout per target (where the layer, reference, bias/LOD live) is
        // glemu-textures' `nv::unpack`, the one place that encodes tables X.17/X.18.
        let mut operands: [&Vec4; 3] = [call.coord; 3];
        let mut n_ops = 1;
        for o in [call.operand2, call.operand3].into_iter().flatten() {
            operands[n_ops] = o;
            n_ops += 1;
        }
        let reg_offset: Vec4;
        let offset = match call.offsets {
            TexOffsets::None => NvOffset::None,
            TexOffsets::Const(o) => NvOffset::Const(o),
            TexOffsets::PerLane(p) => {
                let mut r = [[0u32; MAX_LANES]; 4];
                for k in 0..3 {
                    for i in 0..MAX_LANES {
                        r[k][i] = p[k][i] as u32;
                    }
                }
                reg_offset = r;
                NvOffset::Register(&reg_offset)
            }
        };
        let mut lanes = Lanes::<MAX_LANES>::new();
        let op = unpack(
            nv_opcode(call.op),
            target,
            shadow,
            &operands[..n_ops],
            offset,
            call.gather_comp,
            self.stage == Stage::Fragment,
            &mut lanes,
        )
        .map_err(|e| EnvError(e.to_string()))?;
        if call.lod_clamp {
            unpack_lod_clamp(
                nv_opcode(call.op),
                target,
                shadow,
                &operands[..n_ops],
                &mut lanes,
            )
            .map_err(|e| EnvError(e.to_string()))?;
        }
        binding
            .execute(&op, &lanes, u64::from(call.lanes), out)
            .map_err(|e| EnvError(e.to_string()))
    }

    fn mem_read(
        &mut self,
        region: MemRegion,
        address: u64,
        out: &mut [u8],
    ) -> Result<bool, EnvError> {
        if region == MemRegion::Global {
            let align = (out.len() as u64).clamp(1, 16);
            return Ok(self.memory()?.load(address, align, out).is_ok());
        }
        let Some(r) = self.region(region) else {
            return Ok(false);
        };
        match in_range(r, address, out.len() as u64) {
            Some((buf, off)) => Ok(buf.read(off, out).is_ok()),
            None => Ok(false),
        }
    }

    fn mem_write(
        &mut self,
        region: MemRegion,
        address: u64,
        data: &[u8],
    ) -> Result<bool, EnvError> {
        if region == MemRegion::Global {
            let align = (data.len() as u64).clamp(1, 16);
            return Ok(self.memory()?.store(address, align, data).is_ok());
        }
        let Some(r) = self.region(region) else {
            return Ok(false);
        };
        match in_range(r, address, data.len() as u64) {
            Some((buf, off)) => Ok(buf.write(off, data).is_ok()),
            None => Ok(false),
        }
    }

    fn mem_atomic(
        &mut self,
        region: MemRegion,
        address: u64,
        size: u8,
        update: &dyn Fn(u64) -> Option<u64>,
    ) -> Result<Option<u64>, EnvError> {
        if region == MemRegion::Global {
            return Ok(self
                .memory()?
                .atomic_with(address, u64::from(size), update)
                .ok());
        }
        let Some(r) = self.region(region) else {
            return Ok(None);
        };
        let Some((buf, off)) = in_range(r, address, u64::from(size)) else {
            return Ok(None);
        };
        Ok(atomic_on(buf, off, u64::from(size), update))
    }

    fn counter_atomic(
        &mut self,
        binding: u32,
        index: u32,
        update: &dyn Fn(u32) -> u32,
    ) -> Result<Option<u32>, EnvError> {
        let Some(r) = self
            .res
            .counter_buffers
            .get(binding as usize)
            .and_then(|r| r.as_ref())
        else {
            return Ok(None);
        };
        let Some((buf, off)) = in_range(r, u64::from(index) * 4, 4) else {
            return Ok(None);
        };
        Ok(atomic_on(buf, off, 4, &|old| Some(u64::from(update(old as u32)))).map(|v| v as u32))
    }

    fn image_load(
        &mut self,
        call: &ImageCall,
        coord: [i32; 4],
    ) -> Result<Option<[u32; 4]>, EnvError> {
        images::load(&self.res.images, call, coord)
    }

    fn image_store(
        &mut self,
        call: &ImageCall,
        coord: [i32; 4],
        value: [u32; 4],
    ) -> Result<bool, EnvError> {
        images::store(&self.res.images, call, coord, value)
    }

    fn image_atomic(
        &mut self,
        call: &ImageCall,
        coord: [i32; 4],
        update: &dyn Fn(u32) -> Option<u32>,
    ) -> Result<Option<u32>, EnvError> {
        images::atomic(&self.res.images, call, coord, update)
    }

    fn subroutine(&mut self, slot: u32) -> Result<u32, EnvError> {
        self.subroutines
            .get(slot as usize)
            .copied()
            .ok_or_else(|| EnvError(format!("subroutine uniform {slot} has no value")))
    }
}

/// The `Env` methods a stage's environment takes unchanged from its `base: StageEnv`
/// (textures, memory, counters, images, subroutines); a stage adds only what differs
/// (interpolation for fragments, emits for geometry).
macro_rules! forward_env_to_base {
    () => {
        fn texture(&mut self, call: &TexCall<'_>, out: &mut Vec4) -> Result<(), EnvError> {
            self.base.texture(call, out)
        }
        #[inline]
        fn texture_sites(&self) -> Option<&glemu_programs::exec::TexSites> {
            self.base.texture_sites()
        }
        fn mem_read(&mut self, r: MemRegion, a: u64, out: &mut [u8]) -> Result<bool, EnvError> {
            self.base.mem_read(r, a, out)
        }
        fn mem_write(&mut self, r: MemRegion, a: u64, d: &[u8]) -> Result<bool, EnvError> {
            self.base.mem_write(r, a, d)
        }
        fn mem_atomic(
            &mut self,
            r: MemRegion,
            a: u64,
            size: u8,
            update: &dyn Fn(u64) -> Option<u64>,
        ) -> Result<Option<u64>, EnvError> {
            self.base.mem_atomic(r, a, size, update)
        }
        $crate::env::forward_env_resources_to_base!();
        fn interrupted(&mut self) -> bool {
            self.base.interrupted()
        }
    };
}
pub(crate) use forward_env_to_base;

/// The `Env` methods for counters, images and subroutines taken unchanged from `base`:
/// part of [`forward_env_to_base`], and all a compute work group's environment forwards
/// (it handles textures and shared memory itself).
macro_rules! forward_env_resources_to_base {
    () => {
        fn counter_atomic(
            &mut self,
            binding: u32,
            index: u32,
            update: &dyn Fn(u32) -> u32,
        ) -> Result<Option<u32>, EnvError> {
            self.base.counter_atomic(binding, index, update)
        }
        fn image_load(
            &mut self,
            c: &ImageCall,
            xy: [i32; 4],
        ) -> Result<Option<[u32; 4]>, EnvError> {
            self.base.image_load(c, xy)
        }
        fn image_store(
            &mut self,
            c: &ImageCall,
            xy: [i32; 4],
            v: [u32; 4],
        ) -> Result<bool, EnvError> {
            self.base.image_store(c, xy, v)
        }
        fn image_atomic(
            &mut self,
            c: &ImageCall,
            xy: [i32; 4],
            update: &dyn Fn(u32) -> Option<u32>,
        ) -> Result<Option<u32>, EnvError> {
            self.base.image_atomic(c, xy, update)
        }
        fn subroutine(&mut self, slot: u32) -> Result<u32, EnvError> {
            self.base.subroutine(slot)
        }
    };
}
pub(crate) use forward_env_resources_to_base;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw_tests::stage;
    use crate::state::TextureBinding;
    use glemu_textures::{Base, Channel, Filter, Format, SamplerState, Texture, Wrap};

    fn unit(format: Format, target: Target) -> TextureUnit {
        let size = if target == Target::T3D {
            [4, 4, 4]
        } else {
            [4, 4, 1]
        };
        let tex = Texture::new(target, format, size, 1).expect("texture");
        TextureUnit {
            bindings: vec![TextureBinding {
                texture: Arc::new(tex),
                sampler: SamplerState::simple(Filter::Linear, Wrap::Repeat),
            }],
        }
    }

    /// Sites are resolved exactly for the instructions `StageEnv::texture` sends to a
    /// specialised path: 2D RGBA8 bindings, TEX/TXP/TXB/TXL with constant offsets, no
    /// shadow or LOD clamp, in every stage.
    #[test]
    fn sites_where_the_specialised_path_is() {
        if glemu_textures::simd::isa() < glemu_textures::simd::Isa::Avx2 {
            eprintln!("skipped: no AVX2 on this CPU, so no binding has a specialised path");
            return;
        }
        let rgba8 = unit(Format::RGBA8, Target::T2D);
        let rgba32f = unit(Format::Plain(Base::Rgba, Channel::F32), Target::T2D);
        let fp = |body: &str| {
            stage(
                &format!("!!NVfp5.0\nTEMP t;\n{body}\nMOV result.color, t;\nEND\n"),
                Stage::Fragment,
                vec![],
            )
        };
        for (body, units, want) in [
            ("TEX t, fragment.texcoord[0], texture[0], 2D;", vec![rgba8.clone()], 1),
            (
                "TEX t, fragment.texcoord[0], texture[0], 2D;\nTXP t, t, texture[0], 2D;\nTXB t, t, texture[0], 2D;\nTXL t, t, texture[0], 2D;",
                vec![rgba8.clone()],
                4,
            ),
            ("TEX t, fragment.texcoord[0], texture[0], 2D, (1, -2);", vec![rgba8.clone()], 1),
            ("TEX t, fragment.texcoord[0], texture[0], 2D;", vec![rgba32f], 0),
            ("TEX t, fragment.texcoord[0], texture[1], 2D;", vec![rgba8.clone()], 0),
            ("TEX t, fragment.texcoord[0], texture[0], SHADOW2D;", vec![rgba8.clone()], 0),
            ("TXF t, fragment.texcoord[0], texture[0], 2D;", vec![rgba8.clone()], 0),
            ("TEX.LODCLAMP t, fragment.texcoord[0], fragment.texcoord[1].x, texture[0], 2D;", vec![rgba8], 0),
        ] {
            let p = fp(body);
            let textures = Resources::bind_textures(&units);
            let sites = Resources::texture_sites(&textures, [&p]);
            let n = sites
                .get(Stage::Fragment as usize)
                .and_then(|s| s.as_ref())
                .map_or(0, TexSites::count);
            assert_eq!(n, want, "{body}");
        }
    }
}
