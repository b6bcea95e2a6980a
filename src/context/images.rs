//! Image units (EXT_shader_image_load_store): `bind_image_texture`, `memory_barrier`, and
//! the per-draw image memory programs reach with LOADIM / STOREIM / ATOMIM.
//!
//! A draw gets, for every unit its programs name, the bound texture level as
//! [`ImageMemory`] (atomic words shared by all its threads; units binding one texture
//! level share one memory). When the draw ends, memories that were written go back into
//! their texture objects, so the next command — a draw sampling the texture, a read-back,
//! another image draw — sees the stores. Draws are complete when they return, which is why
//! [`Context::memory_barrier`] has nothing left to wait for.

use super::textures::from_tex;
use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_pipeline::{ImageAccess, ImageUnit, StageProgram, StagePrograms};
use glemu_textures::image::{is_image_format, ImageBinding, ImageMemory};
use glemu_textures::{Format, Texture};
use std::collections::HashMap;
use std::sync::{Arc, Weak};

/// `MAX_IMAGE_UNITS_EXT`: the units `program.image[n]` may name (the assembler's limit).
///
/// ```
/// use glemu::{gl, Context};
/// use glemu::context::images::MAX_IMAGE_UNITS;
/// let ctx = Context::new(4, 4).unwrap();
/// assert_eq!(ctx.get_integer_v(gl::MAX_IMAGE_UNITS).unwrap(), vec![MAX_IMAGE_UNITS as i32]);
/// ```
pub const MAX_IMAGE_UNITS: u32 = crate::caps::LIMITS.max_image_units;

/// Every bit `MemoryBarrier` defines: EXT_shader_image_load_store's and GL 4.3/4.4's
/// SHADER_STORAGE, CLIENT_MAPPED_BUFFER and QUERY_BUFFER bits (`ALL_BARRIER_BITS` is
/// accepted too).
const BARRIER_BITS: u32 = 0xFFEF;

/// What `bind_image_texture` stored for one unit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct UnitState {
    pub texture: u32,
    pub binding: ImageBinding,
    pub access: ImageAccess,
    /// The GL enums given, for the IMAGE_BINDING_ACCESS / FORMAT queries.
    pub access_enum: u32,
    pub format_enum: u32,
}

/// Image units and the memories of the draw in flight.
#[derive(Debug, Default)]
pub(crate) struct Images {
    pub units: [Option<UnitState>; MAX_IMAGE_UNITS as usize],
    /// ((texture name, level), memory) of the draw being submitted, for the write-back.
    pub in_flight: Vec<((u32, u32), Arc<ImageMemory>)>,
    /// Memories kept between draws, by (texture name, level), with a weak reference to
    /// the texture image they equal. Any change to the image (`Arc::make_mut` on an
    /// upload, a write-back, a redefinition) disassociates the weak reference, so a
    /// memory is reused only while its texture is untouched: repeated image draws do not
    /// copy the level again.
    pub cache: HashMap<(u32, u32), (Weak<Texture>, Arc<ImageMemory>)>,
}

impl Images {
    /// Detaches `texture` from every unit (DeleteTextures).
    pub fn detach(&mut self, texture: u32) {
        for u in self.units.iter_mut() {
            if u.is_some_and(|s| s.texture == texture) {
                *u = None;
            }
        }
    }
}

/// Unsized GL formats that name image formats in glemu's table but are not in Table X.2.
fn is_unsized(format: u32) -> bool {
    matches!(format, 4 | gl::RED | 0x8227 | gl::RGBA)
}

/// # Chapter 8.26 — Texture image units (image load/store)
impl Context {
    /// `glBindImageTextureEXT` (GL 4.2 `glBindImageTexture`): binds `level` of `texture` to
    /// image unit `unit` for programs' LOADIM / STOREIM / ATOMIM (`program.image[unit]`).
    /// `texture` 0 unbinds. With `layered` false only `layer` is bound (a layer, cube face,
    /// cube-array layer-face or 3D slice, used as a 1D, 2D or 2DMS image). `access` is
    /// `READ_ONLY`, `WRITE_ONLY` or `READ_WRITE`: reads through a write-only unit give 0 and
    /// writes through a read-only one are dropped. `format` is the image unit format
    /// (Table X.2); a texture whose internal format differs in size is bound, but every
    /// access to it is invalid (loads give 0, stores do nothing), as the spec says.
    ///
    /// Errors: `INVALID_VALUE` for `unit >= MAX_IMAGE_UNITS`, a texture name that does not
    /// exist, a negative level or layer, or a format outside Table X.2; `INVALID_ENUM` for
    /// another `access`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// use glemu::context::images::MAX_IMAGE_UNITS;
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let t = ctx.gen_textures(1).unwrap()[0];
    /// ctx.bind_texture(gl::TEXTURE_2D, t).unwrap();
    /// ctx.tex_image_2d(gl::TEXTURE_2D, 0, gl::R32UI, 4, 4, gl::RED, gl::FLOAT, None).unwrap();
    /// ctx.bind_image_texture(0, t, 0, false, 0, gl::READ_WRITE, gl::R32UI).unwrap();
    /// let e = ctx.bind_image_texture(MAX_IMAGE_UNITS, t, 0, false, 0, gl::READ_WRITE, gl::R32UI);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// let e = ctx.bind_image_texture(0, 99, 0, false, 0, gl::READ_WRITE, gl::R32UI);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// let e = ctx.bind_image_texture(0, t, 0, false, 0, gl::READ_WRITE, gl::RGBA); // unsized
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// let e = ctx.bind_image_texture(0, t, 0, false, 0, gl::STATIC_DRAW, gl::R32UI);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidEnum);
    /// assert_eq!(ctx.get_integer_i_v(gl::IMAGE_BINDING_NAME, 0).unwrap(), t as i64);
    /// assert_eq!(ctx.get_integer_i_v(gl::IMAGE_BINDING_FORMAT, 0).unwrap(), gl::R32UI as i64);
    /// ctx.bind_image_texture(0, 0, 0, false, 0, gl::READ_ONLY, gl::R32UI).unwrap(); // unbind
    /// assert_eq!(ctx.get_integer_i_v(gl::IMAGE_BINDING_NAME, 0).unwrap(), 0);
    /// assert_eq!(ctx.get_integer_i_v(gl::IMAGE_BINDING_FORMAT, 0).unwrap(), gl::R8 as i64);
    /// assert_eq!(ctx.get_integer_v(gl::MAX_IMAGE_UNITS).unwrap(), vec![MAX_IMAGE_UNITS as i32]);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn bind_image_texture(
        &mut self,
        unit: u32,
        texture: u32,
        level: i32,
        layered: bool,
        layer: i32,
        access: u32,
        format: u32,
    ) -> Result<()> {
        if unit >= MAX_IMAGE_UNITS {
            return Err(Error::invalid_value(format!(
                "image unit {unit} is not below MAX_IMAGE_UNITS ({MAX_IMAGE_UNITS})"
            )));
        }
        let access_enum = access;
        let access = match access {
            gl::READ_ONLY => ImageAccess::ReadOnly,
            gl::WRITE_ONLY => ImageAccess::WriteOnly,
            gl::READ_WRITE => ImageAccess::ReadWrite,
            a => return Err(Error::invalid_enum("image access", a)),
        };
        let fmt = Format::from_gl(format)
            .filter(|f| is_image_format(*f) && !is_unsized(format))
            .ok_or_else(|| {
                Error::invalid_value(format!(
                    "format {} is not an image unit format (Table X.2)",
                    crate::gl::name(format)
                ))
            })?;
        let (Ok(level), Ok(layer)) = (u32::try_from(level), u32::try_from(layer)) else {
            return Err(Error::invalid_value(format!(
                "negative image level {level} or layer {layer}"
            )));
        };
        let slot = self
            .images
            .units
            .get_mut(unit as usize)
            .ok_or_else(|| Error::invalid_value(format!("image unit {unit}")))?;
        if texture == 0 {
            *slot = None;
            return Ok(());
        }
        if !self.textures.objects.contains_key(&texture) {
            return Err(Error::invalid_value(format!(
                "texture {texture} does not exist"
            )));
        }
        *slot = Some(UnitState {
            texture,
            binding: ImageBinding {
                level,
                layered,
                layer,
                format: fmt,
            },
            access,
            access_enum,
            format_enum: format,
        });
        Ok(())
    }

    /// `glGetIntegeri_v` / `glGetBooleani_v` of `IMAGE_BINDING_NAME`, `_LEVEL`,
    /// `_LAYERED` (0 or 1), `_LAYER`, `_ACCESS` and `_FORMAT` for image unit `unit`
    /// (an unbound unit reports 0, 0, FALSE, 0, READ_ONLY, R8). `None` for other
    /// `pname`s; `INVALID_VALUE` for `unit >= MAX_IMAGE_UNITS`.
    pub(crate) fn image_binding_query(&self, pname: u32, unit: u32) -> Option<Result<i64>> {
        if !matches!(
            pname,
            gl::IMAGE_BINDING_NAME
                | gl::IMAGE_BINDING_LEVEL
                | gl::IMAGE_BINDING_LAYERED
                | gl::IMAGE_BINDING_LAYER
                | gl::IMAGE_BINDING_ACCESS
                | gl::IMAGE_BINDING_FORMAT
        ) {
            return None;
        }
        let Some(slot) = self.images.units.get(unit as usize) else {
            return Some(Err(Error::invalid_value(format!(
                "image unit {unit} is not below MAX_IMAGE_UNITS ({MAX_IMAGE_UNITS})"
            ))));
        };
        let v = match (pname, slot) {
            (gl::IMAGE_BINDING_ACCESS, None) => gl::READ_ONLY,
            (gl::IMAGE_BINDING_FORMAT, None) => gl::R8,
            (_, None) => 0,
            (gl::IMAGE_BINDING_NAME, Some(s)) => s.texture,
            (gl::IMAGE_BINDING_LEVEL, Some(s)) => s.binding.level,
            (gl::IMAGE_BINDING_LAYERED, Some(s)) => u32::from(s.binding.layered),
            (gl::IMAGE_BINDING_LAYER, Some(s)) => s.binding.layer,
            (gl::IMAGE_BINDING_ACCESS, Some(s)) => s.access_enum,
            (_, Some(s)) => s.format_enum,
        };
        Some(Ok(i64::from(v)))
    }

    /// `glMemoryBarrierEXT`: orders shader memory writes before later commands. glemu
    /// finishes every draw (and writes its image stores back into the textures) before the
    /// draw call returns, so the barrier only validates `bits`: `INVALID_VALUE` when bits
    /// other than the defined `*_BARRIER_BIT`s are set, unless `bits` is
    /// `ALL_BARRIER_BITS`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.memory_barrier(gl::SHADER_IMAGE_ACCESS_BARRIER_BIT | gl::TEXTURE_FETCH_BARRIER_BIT).unwrap();
    /// ctx.memory_barrier(gl::ALL_BARRIER_BITS).unwrap();
    /// assert_eq!(ctx.memory_barrier(0x10).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn memory_barrier(&mut self, bits: u32) -> Result<()> {
        if bits != gl::ALL_BARRIER_BITS && bits & !BARRIER_BITS != 0 {
            return Err(Error::invalid_value(format!(
                "memory barrier bits 0x{bits:08X} include undefined bits"
            )));
        }
        Ok(())
    }

    /// The texels of `level` of texture object `texture` as canonical values (f32 bits for
    /// float and normalized formats, raw integers for integer formats), x fastest, then y,
    /// then layer/slice (then sample) — `glGetTextureImage` without a pixel conversion.
    /// `INVALID_VALUE` if the texture or level does not exist, `INVALID_OPERATION` if the
    /// texture has no image.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let t = ctx.gen_textures(1).unwrap()[0];
    /// ctx.bind_texture(gl::TEXTURE_2D, t).unwrap();
    /// let red = [255u8, 0, 0, 255].repeat(4);
    /// ctx.tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, 2, 2, gl::RGBA, gl::UNSIGNED_BYTE, Some(&red)).unwrap();
    /// let texels = ctx.get_texture_texels(t, 0).unwrap();
    /// assert_eq!(texels[3], [1.0f32.to_bits(), 0, 0, 1.0f32.to_bits()]);
    /// assert!(ctx.get_texture_texels(t, 9).is_err());
    /// ```
    pub fn get_texture_texels(&self, texture: u32, level: u32) -> Result<Vec<[u32; 4]>> {
        let obj = self
            .textures
            .objects
            .get(&texture)
            .ok_or_else(|| Error::invalid_value(format!("texture {texture} does not exist")))?;
        let img = obj
            .image
            .as_ref()
            .ok_or_else(|| Error::invalid_operation(format!("texture {texture} has no image")))?;
        img.level(level)
            .map(|l| l.texels().into_owned())
            .ok_or_else(|| Error::invalid_value(format!("texture level {level} does not exist")))
    }

    /// The texel at `at` (x, y, layer or slice) of the level bound to image unit `unit`,
    /// as canonical values (f32 bits, or raw integers for integer formats) with the
    /// texture's format (for the scene runner's `probe image`). `INVALID_OPERATION` when the unit is
    /// unbound or `at` is outside the level.
    pub(crate) fn image_unit_texel(&self, unit: u32, at: [u32; 3]) -> Result<([u32; 4], Format)> {
        let s = self
            .images
            .units
            .get(unit as usize)
            .copied()
            .flatten()
            .ok_or_else(|| Error::invalid_operation(format!("image unit {unit} is unbound")))?;
        let tex = self
            .textures
            .objects
            .get(&s.texture)
            .and_then(|o| o.image.as_ref())
            .ok_or_else(|| {
                Error::invalid_operation(format!("texture {} has no image", s.texture))
            })?;
        let level = s.binding.level;
        let l = tex.level(level).ok_or_else(|| {
            Error::invalid_operation(format!("texture {} has no level {level}", s.texture))
        })?;
        let [x, y, z] = at;
        if x >= l.width || y >= l.height || z >= l.depth {
            return Err(Error::invalid_operation(format!(
                "texel ({x}, {y}, {z}) is outside level {level} ({} x {} x {})",
                l.width, l.height, l.depth
            )));
        }
        let i = (z as usize * l.height as usize + y as usize) * l.width as usize + x as usize;
        let texel = l.source().get(i).ok_or_else(|| {
            Error::invalid_operation(format!("texel ({x}, {y}, {z}) is not stored"))
        })?;
        Ok((texel, tex.format()))
    }

    /// The image units `programs` name, each with the memory of its texture level (one
    /// memory per texture level however many units bind it). Units whose texture has no
    /// image or no such level stay unbound, so every access to them is invalid.
    pub(crate) fn image_units_for(
        &mut self,
        programs: &StagePrograms,
    ) -> Result<Vec<Option<ImageUnit>>> {
        let stages = [
            &programs.vertex,
            &programs.tess_control,
            &programs.tess_eval,
            &programs.geometry,
            &programs.fragment,
        ];
        let stages: Vec<&StageProgram> = stages.into_iter().flatten().collect();
        self.image_units_of(&stages)
    }

    /// [`Context::image_units_for`] for any set of stage programs (a compute dispatch).
    ///
    /// A level whose image memory would go past the memory budget is `OUT_OF_MEMORY`.
    pub(crate) fn image_units_of(
        &mut self,
        stages: &[&StageProgram],
    ) -> Result<Vec<Option<ImageUnit>>> {
        self.images.in_flight.clear();
        let mut used = [false; MAX_IMAGE_UNITS as usize];
        for sp in stages {
            for v in &sp.program.images {
                for u in v.first..v.first.saturating_add(v.len.max(1)) {
                    if let Some(flag) = used.get_mut(u as usize) {
                        *flag = true;
                    }
                }
            }
        }
        if !used.contains(&true) {
            return Ok(Vec::new());
        }
        self.images
            .cache
            .retain(|_, (texture, _)| texture.strong_count() > 0);
        let mut room = self.memory_room();
        let cache = &mut self.images.cache;
        let mut shared: HashMap<(u32, u32), Arc<ImageMemory>> = HashMap::new();
        let mut units = Vec::with_capacity(MAX_IMAGE_UNITS as usize);
        for (n, state) in self.images.units.iter().enumerate() {
            let unit = state.filter(|_| used.get(n) == Some(&true)).and_then(|s| {
                let tex = self.textures.objects.get(&s.texture)?.image.as_ref()?;
                let key = (s.texture, s.binding.level);
                let memory = match shared.get(&key) {
                    Some(m) => Arc::clone(m),
                    None => {
                        let unchanged = cache
                            .get(&key)
                            .filter(|(t, _)| t.upgrade().is_some_and(|t| Arc::ptr_eq(&t, tex)));
                        let m = match unchanged {
                            Some((_, m)) => Arc::clone(m),
                            None => {
                                let level = s.binding.level;
                                // No such level: the unit stays unbound.
                                tex.level(level)?;
                                let old = cache.remove(&key).map_or(0, |(_, m)| m.heap_bytes());
                                let bytes = ImageMemory::bytes_for(tex, level);
                                let what = format_args!(
                                    "image memory of level {level} of texture {}",
                                    s.texture
                                );
                                let made = super::limits::charge(0, room, bytes, old, &what)
                                    .and_then(|()| ImageMemory::new(tex, level).map_err(from_tex));
                                let m = match made {
                                    Ok(m) => Arc::new(m),
                                    Err(e) => return Some(Err(e)),
                                };
                                room = (room + old).saturating_sub(m.heap_bytes());
                                cache.insert(key, (Arc::downgrade(tex), Arc::clone(&m)));
                                m
                            }
                        };
                        shared.insert(key, Arc::clone(&m));
                        self.images.in_flight.push((key, Arc::clone(&m)));
                        m
                    }
                };
                Some(Ok(ImageUnit {
                    binding: s.binding,
                    access: s.access,
                    memory,
                }))
            });
            units.push(unit.transpose()?);
        }
        Ok(units)
    }

    /// After a draw: stores and atomics go back into their texture objects.
    pub(crate) fn write_back_images(&mut self) -> Result<()> {
        for (key, memory) in std::mem::take(&mut self.images.in_flight) {
            if !memory.written() {
                continue;
            }
            let Some(img) = self
                .textures
                .objects
                .get_mut(&key.0)
                .and_then(|o| o.image.as_mut())
            else {
                continue;
            };
            memory
                .write_back(Arc::make_mut(img))
                .map_err(|e| Error::invalid_operation(format!("image write-back: {e}")))?;
            // The texture now equals the memory again: keep it for the next draw.
            self.images
                .cache
                .insert(key, (Arc::downgrade(img), Arc::clone(&memory)));
        }
        Ok(())
    }
}
