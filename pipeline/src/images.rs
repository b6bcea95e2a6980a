//! Image units of a draw (EXT_shader_image_load_store) and the LOADIM / STOREIM / ATOMIM
//! accesses every stage makes through them.
//!
//! A unit carries an [`ImageMemory`]: the bound texture level as atomic words, shared by
//! every invocation on every thread of the draw. Units that bind the same texture level
//! must share one memory (the Context does this), so stores through one are seen through
//! the other. After the draw the owner of the texture writes the memory back
//! ([`ImageMemory::write_back`]) when [`ImageMemory::written`] says it changed.

use crate::error::PipelineError;
use glemu_programs::exec::{EnvError, ImageCall};
use glemu_programs::ir::{MemScalar, MemType, TexTarget};
use glemu_textures::image::{DataType, Elem, ImageBinding, ImageMemory, Storage, StoreKind};
use glemu_textures::{Target, Texture};
use std::sync::Arc;

/// How programs may use a unit (`BindImageTextureEXT`'s `access`). A load from a
/// WRITE_ONLY unit or a store or atomic to a READ_ONLY one is undefined in GL; glemu
/// treats it as an invalid access (loads give 0, stores and atomics do nothing).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ImageAccess {
    /// GL_READ_ONLY: loads only.
    ReadOnly,
    /// GL_WRITE_ONLY: stores only.
    WriteOnly,
    /// GL_READ_WRITE: loads, stores and atomics.
    ReadWrite,
}

impl ImageAccess {
    fn reads(self) -> bool {
        self != ImageAccess::WriteOnly
    }

    fn writes(self) -> bool {
        self != ImageAccess::ReadOnly
    }
}

/// One bound image unit.
#[derive(Clone, Debug)]
pub struct ImageUnit {
    /// Level, layered/layer and the image unit format.
    pub binding: ImageBinding,
    /// What programs may do with the unit.
    pub access: ImageAccess,
    /// The bound level's storage for this draw.
    pub memory: Arc<ImageMemory>,
}

impl ImageUnit {
    /// A unit binding `binding.level` of `texture` with its own fresh memory.
    pub fn new(
        texture: &Texture,
        binding: ImageBinding,
        access: ImageAccess,
    ) -> Result<ImageUnit, PipelineError> {
        let memory = ImageMemory::new(texture, binding.level)
            .map_err(|e| PipelineError::invalid_value(e.to_string()))?;
        Ok(ImageUnit {
            binding,
            access,
            memory: Arc::new(memory),
        })
    }
}

/// The texture target an image instruction names.
fn target(t: TexTarget) -> Result<Target, EnvError> {
    use TexTarget as T;
    Ok(match t {
        T::T1D => Target::T1D,
        T::T2D => Target::T2D,
        T::T3D => Target::T3D,
        T::Rect => Target::Rect,
        T::Cube => Target::Cube,
        T::Buffer => Target::Buffer,
        T::Array1D => Target::Array1D,
        T::Array2D => Target::Array2D,
        T::ArrayCube => Target::ArrayCube,
        T::T2DMs => Target::T2DMs,
        T::Array2DMs => Target::Array2DMs,
        other => return Err(EnvError::not_supported(&format!("image target {other:?}"))),
    })
}

fn packed(elem: Elem, count: u8) -> Storage {
    Storage::Packed { elem, count }
}

/// Table X.3's storage modifier (or a NV_gpu_program5_mem_extended one) for an
/// instruction's memory type.
fn storage(ty: MemType) -> Result<Storage, EnvError> {
    use MemScalar as S;
    Ok(match (ty.scalar, ty.count) {
        (S::S8, 1) => Storage::S8,
        (S::U8, 1) => Storage::U8,
        (S::S16, 1) => Storage::S16,
        (S::U16, 1) => Storage::U16,
        (S::F32, 1) => Storage::F32,
        (S::S32, 1) => Storage::S32,
        (S::U32, 1) => Storage::U32,
        (S::F32, 2) => Storage::F32X2,
        (S::S32, 2) => Storage::S32X2,
        (S::U32, 2) => Storage::U32X2,
        (S::F32, 4) => Storage::F32X4,
        (S::S32, 4) => Storage::S32X4,
        (S::U32, 4) => Storage::U32X4,
        // NV_gpu_program5_mem_extended.
        (S::F16, n @ (1 | 2 | 4)) => packed(Elem::F16, n),
        (S::S8, n @ (2 | 4)) => packed(Elem::S8, n),
        (S::U8, n @ (2 | 4)) => packed(Elem::U8, n),
        (S::S16, n @ (2 | 4)) => packed(Elem::S16, n),
        (S::U16, n @ (2 | 4)) => packed(Elem::U16, n),
        (s, n) => {
            return Err(EnvError::not_supported(&format!(
                "image access with storage modifier {s:?}x{n}"
            )))
        }
    })
}

/// The unit a call reaches if one is bound.
fn unit<'a>(units: &'a [Option<ImageUnit>], call: &ImageCall) -> Option<&'a ImageUnit> {
    units.get(call.unit as usize)?.as_ref()
}

/// LOADIM for one lane: `Ok(None)` for an invalid access (unbound unit, WRITE_ONLY,
/// incompatible format, missing texel).
pub fn load(
    units: &[Option<ImageUnit>],
    call: &ImageCall,
    coord: [i32; 4],
) -> Result<Option<[u32; 4]>, EnvError> {
    let t = target(call.target)?;
    let u = unit(units, call).filter(|u| u.access.reads());
    if call.formatted {
        return Ok(u.and_then(|u| u.memory.load_formatted(&u.binding, t, coord)));
    }
    let s = storage(call.ty)?;
    Ok(u.and_then(|u| u.memory.load(&u.binding, t, s, coord)))
}

/// STOREIM for one lane: `Ok(false)` when nothing was written.
pub fn store(
    units: &[Option<ImageUnit>],
    call: &ImageCall,
    coord: [i32; 4],
    value: [u32; 4],
) -> Result<bool, EnvError> {
    let t = target(call.target)?;
    let kind = if call.formatted {
        StoreKind::Formatted(match call.ty.scalar {
            MemScalar::F32 => DataType::F32,
            MemScalar::S32 => DataType::S32,
            MemScalar::U32 => DataType::U32,
            s => {
                return Err(EnvError::not_supported(&format!(
                    "formatted STOREIM of {s:?} data"
                )))
            }
        })
    } else {
        StoreKind::Raw(storage(call.ty)?)
    };
    Ok(unit(units, call)
        .filter(|u| u.access.writes())
        .is_some_and(|u| u.memory.store(&u.binding, t, kind, value, coord)))
}

/// ATOMIM for one lane: the old value, `Ok(None)` when invalid (the unit must be
/// READ_WRITE: an atomic both reads and writes).
pub fn atomic(
    units: &[Option<ImageUnit>],
    call: &ImageCall,
    coord: [i32; 4],
    update: &dyn Fn(u32) -> Option<u32>,
) -> Result<Option<u32>, EnvError> {
    let (t, s) = (target(call.target)?, storage(call.ty)?);
    Ok(unit(units, call)
        .filter(|u| u.access == ImageAccess::ReadWrite)
        .and_then(|u| u.memory.atomic(&u.binding, t, s, coord, update)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glemu_textures::Format;

    fn call(unit: u32, scalar: MemScalar, count: u8) -> ImageCall {
        ImageCall {
            unit,
            ty: MemType { scalar, count },
            target: TexTarget::T2D,
            formatted: false,
            lane: 0,
        }
    }

    fn units(access: ImageAccess) -> Vec<Option<ImageUnit>> {
        let tex = Texture::new(Target::T2D, Format::R32UI, [4, 4, 1], 1).unwrap();
        let b = ImageBinding {
            level: 0,
            layered: false,
            layer: 0,
            format: Format::R32UI,
        };
        vec![None, Some(ImageUnit::new(&tex, b, access).unwrap())]
    }

    #[test]
    fn unbound_units_and_access_modes() {
        let u = units(ImageAccess::ReadWrite);
        let c = call(1, MemScalar::U32, 1);
        assert!(store(&u, &c, [2, 3, 0, 0], [7, 0, 0, 0]).unwrap());
        assert_eq!(load(&u, &c, [2, 3, 0, 0]).unwrap(), Some([7, 0, 0, 1]));
        let inc = |v: u32| Some(v + 1);
        assert_eq!(atomic(&u, &c, [2, 3, 0, 0], &inc).unwrap(), Some(7));
        // Unit 0 has nothing bound, unit 5 does not exist.
        for n in [0, 5] {
            let c = call(n, MemScalar::U32, 1);
            assert_eq!(load(&u, &c, [0; 4]).unwrap(), None);
            assert!(!store(&u, &c, [0; 4], [1; 4]).unwrap());
            assert_eq!(atomic(&u, &c, [0; 4], &inc).unwrap(), None);
        }
        let ro = units(ImageAccess::ReadOnly);
        assert!(!store(&ro, &c, [0; 4], [1; 4]).unwrap());
        assert_eq!(atomic(&ro, &c, [0; 4], &inc).unwrap(), None);
        assert_eq!(load(&ro, &c, [0; 4]).unwrap(), Some([0, 0, 0, 1]));
        let wo = units(ImageAccess::WriteOnly);
        assert_eq!(load(&wo, &c, [0; 4]).unwrap(), None);
        assert_eq!(atomic(&wo, &c, [0; 4], &inc).unwrap(), None);
        assert!(store(&wo, &c, [0; 4], [1; 4]).unwrap());
    }

    #[test]
    fn formatted_and_unsupported_types() {
        let u = units(ImageAccess::ReadWrite);
        let mut c = call(1, MemScalar::S32, 1);
        c.formatted = true;
        assert!(store(&u, &c, [0; 4], [(-3i32) as u32, 0, 0, 0]).unwrap());
        c.ty.scalar = MemScalar::U64;
        let e = store(&u, &c, [0; 4], [0; 4]).unwrap_err();
        assert_eq!(e.0, "not supported: formatted STOREIM of U64 data");
        let e = load(&u, &call(1, MemScalar::F64, 1), [0; 4]).unwrap_err();
        assert_eq!(
            e.0,
            "not supported: image access with storage modifier F64x1"
        );
        // mem_extended: two halves fill a 32-bit texel.
        let h2 = call(1, MemScalar::F16, 2);
        let v = [1.5f32.to_bits(), 2.0f32.to_bits(), 0, 0];
        assert!(store(&u, &h2, [1, 0, 0, 0], v).unwrap());
        assert_eq!(load(&u, &h2, [1, 0, 0, 0]).unwrap(), Some(v));
        // The signed value was clamped to the unsigned format.
        assert_eq!(
            load(&u, &call(1, MemScalar::U32, 1), [0; 4]).unwrap(),
            Some([0, 0, 0, 1])
        );
    }

    /// A whole draw through `crate::draw`: a fragment ATOMIM.ADD per fragment counts
    /// exactly the pixels the triangle covers, at 1 and 2 rasterizer threads.
    #[test]
    fn fragment_atomics_count_covered_pixels_at_any_thread_count() {
        use crate::fetch::{AttribBinding, AttribFormat, AttribSlot, VertexArray};
        use crate::{
            draw, Buffer, DrawCall, DrawState, GpuMemory, PrimitiveMode, StagePrograms,
            VertexProcessing,
        };
        use glemu_programs::Stage;
        use glemu_raster::{ColorFormat, DepthFormat, Framebuffer, Rasterizer};

        let stage = |text: &str, st| crate::draw_tests::stage(text, st, vec![]);
        let vp = "!!NVvp5.0\nMOV result.position, vertex.position;\nEND\n";
        let fp = "!!NVfp5.0\nINT TEMP o;\n\
            ATOMIM.ADD.U32 o.x, {1, 0, 0, 0}, {0, 0, 0, 0}, image[0], 2D;\n\
            MOV result.color, {0, 1, 0, 1};\nEND\n";
        let xy: Vec<u8> = bytemuck::cast_slice(&[-0.9f32, -0.7, 0.8, -0.95, 0.1, 0.9]).to_vec();
        let mut counts = Vec::new();
        for threads in [1, 2] {
            let unit = units(ImageAccess::ReadWrite).swap_remove(1);
            let state = DrawState {
                programs: StagePrograms {
                    vertex: Some(stage(vp, Stage::Vertex)),
                    fragment: Some(stage(fp, Stage::Fragment)),
                    ..Default::default()
                },
                attribs: vec![AttribBinding {
                    slot: AttribSlot::Position,
                    array: Some(VertexArray {
                        buffer: Buffer::from_bytes(xy.clone()),
                        offset: 0,
                        stride: 8,
                        format: AttribFormat::float(2),
                        divisor: 0,
                    }),
                    current: [0, 0, 0, 1.0f32.to_bits()],
                }],
                call: DrawCall::arrays(PrimitiveMode::Triangles, 0, 3),
                vertex: VertexProcessing::new(16, 16),
                textures: Vec::new(),
                raster: glemu_raster::FixedFunctionState::default(),
                counter_buffers: Vec::new(),
                storage_buffers: Vec::new(),
                memory: Arc::new(GpuMemory::new()),
                images: vec![unit.clone()],
                layers: None,
            };
            let mut fb =
                Framebuffer::new(16, 16, 1, &[ColorFormat::Rgba8Unorm], DepthFormat::D24S8)
                    .unwrap();
            draw(&state, &Rasterizer::new(threads).unwrap(), &mut fb, None).unwrap();
            let covered = (0..16 * 16)
                .filter(|i| {
                    fb.read_pixel(0, i % 16, i / 16)
                        .is_some_and(|p| p[1] == 1.0)
                })
                .count() as u32;
            let unit = unit.unwrap();
            let count = unit
                .memory
                .load(&unit.binding, Target::T2D, Storage::U32, [0; 4])
                .unwrap()[0];
            assert!(covered > 40, "{covered}");
            assert_eq!(count, covered, "threads {threads}");
            assert!(unit.memory.written());
            counts.push(count);
        }
        assert_eq!(counts[0], counts[1]);
    }
}
