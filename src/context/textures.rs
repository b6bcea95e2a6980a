//! Texture objects and units: images (glemu-textures `Texture`s) with their sampler
//! state, bound per unit and target.

use super::state::MAX_TEXTURE_UNITS;
use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_pipeline::{TextureBinding, TextureUnit};
use glemu_textures::texture::full_chain_levels;
use glemu_textures::{Format, SamplerState, Target, TexError, Texture};
use std::collections::HashMap;
use std::sync::Arc;

pub(crate) fn from_tex(e: TexError) -> Error {
    Error::invalid_value(e.to_string())
}

/// One texture object.
#[derive(Clone, Debug)]
pub(crate) struct TexObject {
    pub target: Option<Target>,
    pub image: Option<Arc<Texture>>,
    pub sampler: SamplerState,
}

/// Texture objects and per-unit bindings.
#[derive(Debug, Default)]
pub(crate) struct Textures {
    pub objects: HashMap<u32, TexObject>,
    pub next_id: u32,
    /// (unit, target) → texture id.
    pub bound: HashMap<(u32, Target), u32>,
}

/// Texture target of a GL enum (cube faces map to the cube target with their face).
fn target_of(t: u32) -> Result<(Target, Option<u32>)> {
    Ok(match t {
        gl::TEXTURE_1D => (Target::T1D, None),
        gl::TEXTURE_2D => (Target::T2D, None),
        gl::TEXTURE_3D => (Target::T3D, None),
        gl::TEXTURE_RECTANGLE => (Target::Rect, None),
        gl::TEXTURE_CUBE_MAP => (Target::Cube, None),
        gl::TEXTURE_1D_ARRAY => (Target::Array1D, None),
        gl::TEXTURE_2D_ARRAY => (Target::Array2D, None),
        gl::TEXTURE_CUBE_MAP_ARRAY => (Target::ArrayCube, None),
        f if (gl::TEXTURE_CUBE_MAP_POSITIVE_X..gl::TEXTURE_CUBE_MAP_POSITIVE_X + 6)
            .contains(&f) =>
        {
            (Target::Cube, Some(f - gl::TEXTURE_CUBE_MAP_POSITIVE_X))
        }
        t => return Err(Error::invalid_enum("texture target", t)),
    })
}

/// A level's size as one image upload covers it: w×h×depth, one face for cube maps.
fn storage_dims(l: &glemu_textures::Level, t: Target) -> [u32; 3] {
    if t == Target::Cube {
        [l.width, l.height, 1]
    } else {
        [l.width, l.height, l.depth]
    }
}

/// Name of a texture-parameter enum value as the sampler parser reads it.
fn value_name(v: u32) -> Option<&'static str> {
    Some(match v {
        gl::NEAREST => "NEAREST",
        gl::LINEAR => "LINEAR",
        gl::NEAREST_MIPMAP_NEAREST => "NEAREST_MIPMAP_NEAREST",
        gl::LINEAR_MIPMAP_NEAREST => "LINEAR_MIPMAP_NEAREST",
        gl::NEAREST_MIPMAP_LINEAR => "NEAREST_MIPMAP_LINEAR",
        gl::LINEAR_MIPMAP_LINEAR => "LINEAR_MIPMAP_LINEAR",
        gl::REPEAT => "REPEAT",
        gl::CLAMP => "CLAMP",
        gl::CLAMP_TO_EDGE => "CLAMP_TO_EDGE",
        gl::CLAMP_TO_BORDER => "CLAMP_TO_BORDER",
        gl::MIRRORED_REPEAT => "MIRRORED_REPEAT",
        gl::MIRROR_CLAMP_EXT => "MIRROR_CLAMP_EXT",
        gl::MIRROR_CLAMP_TO_EDGE => "MIRROR_CLAMP_TO_EDGE",
        gl::MIRROR_CLAMP_TO_BORDER_EXT => "MIRROR_CLAMP_TO_BORDER_EXT",
        gl::NEVER => "NEVER",
        gl::LESS => "LESS",
        gl::EQUAL => "EQUAL",
        gl::LEQUAL => "LEQUAL",
        gl::GREATER => "GREATER",
        gl::NOTEQUAL => "NOTEQUAL",
        gl::GEQUAL => "GEQUAL",
        gl::ALWAYS => "ALWAYS",
        gl::COMPARE_REF_TO_TEXTURE => "COMPARE_REF_TO_TEXTURE",
        gl::LUMINANCE => "LUMINANCE",
        gl::INTENSITY => "INTENSITY",
        gl::ALPHA => "ALPHA",
        gl::RED => "RED",
        gl::GREEN => "GREEN",
        gl::BLUE => "BLUE",
        gl::DECODE_EXT => "DECODE_EXT",
        gl::SKIP_DECODE_EXT => "SKIP_DECODE_EXT",
        _ => return None,
    })
}

fn param_name(p: u32) -> Result<&'static str> {
    Ok(match p {
        gl::TEXTURE_MIN_FILTER => "min",
        gl::TEXTURE_MAG_FILTER => "mag",
        gl::TEXTURE_WRAP_S => "wrap_s",
        gl::TEXTURE_WRAP_T => "wrap_t",
        gl::TEXTURE_WRAP_R => "wrap_r",
        gl::TEXTURE_COMPARE_FUNC => "compare_func",
        gl::TEXTURE_COMPARE_MODE => "compare_mode",
        gl::DEPTH_TEXTURE_MODE => "depth_mode",
        gl::TEXTURE_BASE_LEVEL => "base_level",
        gl::TEXTURE_MAX_LEVEL => "max_level",
        gl::TEXTURE_LOD_BIAS => "lod_bias",
        gl::TEXTURE_MIN_LOD => "min_lod",
        gl::TEXTURE_MAX_LOD => "max_lod",
        gl::TEXTURE_MAX_ANISOTROPY => "max_anisotropy",
        gl::TEXTURE_BORDER_COLOR => "border_color",
        gl::TEXTURE_SWIZZLE_R => "swizzle_r",
        gl::TEXTURE_SWIZZLE_G => "swizzle_g",
        gl::TEXTURE_SWIZZLE_B => "swizzle_b",
        gl::TEXTURE_SWIZZLE_A => "swizzle_a",
        gl::TEXTURE_SRGB_DECODE_EXT => "srgb",
        p => return Err(Error::invalid_enum("texture parameter", p)),
    })
}

/// Takes GL pixel data (`format`/`ty`) to canonical float texels.
fn to_texels(format: u32, ty: u32, data: &[u8], n: usize) -> Result<Vec<[u32; 4]>> {
    let comps = match format {
        gl::RGBA | gl::BGRA => 4,
        gl::RGB => 3,
        gl::RED | gl::LUMINANCE | gl::ALPHA | gl::INTENSITY | gl::DEPTH_COMPONENT => 1,
        f => return Err(Error::invalid_enum("pixel format", f)),
    };
    let size = match ty {
        gl::UNSIGNED_BYTE => 1,
        gl::FLOAT => 4,
        t => {
            return Err(Error::not_supported(format!(
                "pixel type 0x{t:04X} (use UNSIGNED_BYTE or FLOAT)"
            )))
        }
    };
    if data.len() < n * comps * size {
        return Err(Error::invalid_operation(format!(
            "{} bytes of pixel data, need {}",
            data.len(),
            n * comps * size
        )));
    }
    let read = |i: usize| -> f32 {
        if size == 1 {
            f32::from(data[i]) / 255.0
        } else {
            f32::from_le_bytes([
                data[i * 4],
                data[i * 4 + 1],
                data[i * 4 + 2],
                data[i * 4 + 3],
            ])
        }
    };
    Ok((0..n)
        .map(|t| {
            let c = |k: usize| read(t * comps + k);
            let v = match (format, comps) {
                (gl::BGRA, _) => [c(2), c(1), c(0), c(3)],
                (_, 4) => [c(0), c(1), c(2), c(3)],
                (_, 3) => [c(0), c(1), c(2), 1.0],
                (gl::LUMINANCE, _) => [c(0), c(0), c(0), 1.0],
                (gl::INTENSITY, _) => [c(0); 4],
                (gl::ALPHA, _) => [0.0, 0.0, 0.0, c(0)],
                _ => [c(0), 0.0, 0.0, 1.0],
            };
            v.map(f32::to_bits)
        })
        .collect())
}

impl Context {
    /// `glGenTextures`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.gen_textures(2).len(), 2);
    /// ```
    pub fn gen_textures(&mut self, n: usize) -> Vec<u32> {
        let t = &mut self.textures;
        (0..n)
            .map(|_| {
                t.next_id += 1;
                t.objects.insert(
                    t.next_id,
                    TexObject {
                        target: None,
                        image: None,
                        sampler: SamplerState::default(),
                    },
                );
                t.next_id
            })
            .collect()
    }

    /// `glBindTexture` on the active unit; binding a name created for another target is
    /// `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let t = ctx.gen_textures(1)[0];
    /// ctx.bind_texture(gl::TEXTURE_2D, t).unwrap();
    /// assert_eq!(ctx.bind_texture(gl::TEXTURE_3D, t).unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn bind_texture(&mut self, target: u32, id: u32) -> Result<()> {
        let (t, face) = target_of(target)?;
        if face.is_some() {
            return Err(Error::invalid_enum("texture target", target));
        }
        let unit = self.st.active_texture;
        if id == 0 {
            self.textures.bound.remove(&(unit, t));
            return Ok(());
        }
        self.textures.next_id = self.textures.next_id.max(id);
        let o = self.textures.objects.entry(id).or_insert(TexObject {
            target: None,
            image: None,
            sampler: SamplerState::default(),
        });
        match o.target {
            Some(ot) if ot != t => {
                return Err(Error::invalid_operation(format!(
                    "texture {id} was created for another target"
                )))
            }
            _ => o.target = Some(t),
        }
        self.textures.bound.insert((unit, t), id);
        Ok(())
    }

    /// `glDeleteTextures`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let t = ctx.gen_textures(1);
    /// ctx.delete_textures(&t);
    /// ```
    pub fn delete_textures(&mut self, ids: &[u32]) {
        for id in ids {
            self.textures.objects.remove(id);
            self.textures.bound.retain(|_, b| b != id);
        }
    }

    fn bound_texture_mut(&mut self, target: u32) -> Result<(&mut TexObject, Target, Option<u32>)> {
        let (t, face) = target_of(target)?;
        let unit = self.st.active_texture;
        let id = *self.textures.bound.get(&(unit, t)).ok_or_else(|| {
            Error::invalid_operation(format!(
                "no texture is bound to target 0x{target:04X} of unit {unit}"
            ))
        })?;
        let o = self
            .textures
            .objects
            .get_mut(&id)
            .ok_or_else(|| Error::invalid_operation(format!("texture {id} does not exist")))?;
        Ok((o, t, face))
    }

    /// `glTexImage1D/2D/3D` in one call: defines level `level` of the bound texture
    /// (`size` = width, height, depth/layers; cube faces through the face targets) from
    /// `data` in `format`/`ty` (RGBA/RGB/RED/LUMINANCE/ALPHA/INTENSITY/DEPTH_COMPONENT,
    /// UNSIGNED_BYTE or FLOAT), or zeros when `data` is `None`. Defining level 0 allocates
    /// the full mip chain.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let t = ctx.gen_textures(1)[0];
    /// ctx.bind_texture(gl::TEXTURE_2D, t).unwrap();
    /// let red = [255u8, 0, 0, 255].repeat(4);
    /// ctx.tex_image(gl::TEXTURE_2D, 0, gl::RGBA8, [2, 2, 1], gl::RGBA, gl::UNSIGNED_BYTE, Some(&red)).unwrap();
    /// let e = ctx.tex_image(gl::TEXTURE_2D, 0, 0x1234, [2, 2, 1], gl::RGBA, gl::UNSIGNED_BYTE, None).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidEnum);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn tex_image(
        &mut self,
        target: u32,
        level: u32,
        internal_format: u32,
        size: [u32; 3],
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> Result<()> {
        let fmt = Format::from_gl(internal_format)
            .ok_or_else(|| Error::invalid_enum("internal format", internal_format))?;
        let n = size.iter().map(|&s| s as usize).product::<usize>();
        let texels = match data {
            Some(d) => Some(to_texels(format, ty, d, n)?),
            None => None,
        };
        self.tex_image_texels(target, level, fmt, size, texels.as_deref())
    }

    /// `glTexImage2D`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
    /// ctx.tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, 4, 4, gl::RGBA, gl::FLOAT, None).unwrap();
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn tex_image_2d(
        &mut self,
        target: u32,
        level: u32,
        internal_format: u32,
        width: u32,
        height: u32,
        format: u32,
        ty: u32,
        data: Option<&[u8]>,
    ) -> Result<()> {
        self.tex_image(
            target,
            level,
            internal_format,
            [width, height, 1],
            format,
            ty,
            data,
        )
    }

    /// Defines a level from canonical texels (`[u32; 4]` f32 bits for float/UNORM
    /// formats, raw integers for integer formats).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// use glemu_textures::Format;
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_1D, 1).unwrap();
    /// let texels = vec![[1.0f32.to_bits(), 0, 0, 1.0f32.to_bits()]; 4];
    /// ctx.tex_image_texels(gl::TEXTURE_1D, 0, Format::RGBA8, [4, 1, 1], Some(&texels)).unwrap();
    /// ```
    pub fn tex_image_texels(
        &mut self,
        target: u32,
        level: u32,
        fmt: Format,
        size: [u32; 3],
        texels: Option<&[[u32; 4]]>,
    ) -> Result<()> {
        if size.contains(&0) || size.iter().any(|&s| s > 16384) {
            return Err(Error::invalid_value(format!("texture size {size:?}")));
        }
        let (o, t, face) = self.bound_texture_mut(target)?;
        // `size` is in GL terms (a 1D array's layers are its height); `store` is the box
        // of texels it covers in glemu-textures' layout (layers as depth).
        let store = if t == Target::Array1D {
            [size[0], 1, size[1]]
        } else {
            size
        };
        let z = face.unwrap_or(0);
        let needs_new = match &o.image {
            None => true,
            Some(img) => {
                level == 0
                    && (img.format() != fmt
                        || img.level(0).map(|l| storage_dims(l, t)) != Some(store))
            }
        };
        if needs_new {
            if level != 0 {
                return Err(Error::not_supported("defining a mip level before level 0"));
            }
            let full = if t.has_mipmaps() {
                full_chain_levels(
                    store[0],
                    store[1],
                    if t == Target::T3D { store[2] } else { 1 },
                )
            } else {
                1
            };
            o.image = Some(Arc::new(
                Texture::new(t, fmt, size, full).map_err(from_tex)?,
            ));
        }
        let img = o
            .image
            .as_mut()
            .ok_or_else(|| Error::invalid_operation("texture has no image"))?;
        let img = Arc::make_mut(img);
        let want = img
            .level(level)
            .map(|l| storage_dims(l, t))
            .ok_or_else(|| {
                Error::invalid_value(format!("level {level} is beyond the mip chain"))
            })?;
        if want != store {
            return Err(Error::invalid_value(format!(
                "level {level} must be {want:?}, got {size:?}"
            )));
        }
        let n = size.iter().map(|&s| s as usize).product::<usize>();
        let zeros;
        let values = match texels {
            Some(v) => v,
            None => {
                zeros = vec![[0u32; 4]; n];
                &zeros
            }
        };
        if values.len() < n {
            return Err(Error::invalid_value(format!(
                "{} texels given, need {n}",
                values.len()
            )));
        }
        img.write_texels(level, [0, 0, z], store, values)
            .map_err(from_tex)
    }

    /// `glGenerateMipmap`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
    /// assert!(ctx.generate_mipmap(gl::TEXTURE_2D).is_err()); // no image yet
    /// ```
    pub fn generate_mipmap(&mut self, target: u32) -> Result<()> {
        let (o, _, _) = self.bound_texture_mut(target)?;
        let base = o.sampler.base_level;
        let img = o
            .image
            .as_mut()
            .ok_or_else(|| Error::invalid_operation("the texture has no image"))?;
        Arc::make_mut(img).generate_mipmaps(base).map_err(from_tex)
    }

    /// `glTexParameteri`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
    /// ctx.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32).unwrap();
    /// let e = ctx.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::REPEAT as i32).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidEnum);
    /// ```
    pub fn tex_parameter_i(&mut self, target: u32, pname: u32, value: i32) -> Result<()> {
        self.tex_parameter_fv(target, pname, &[value as f32])
    }

    /// `glTexParameterf`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
    /// ctx.tex_parameter_f(gl::TEXTURE_2D, gl::TEXTURE_LOD_BIAS, 0.5).unwrap();
    /// ```
    pub fn tex_parameter_f(&mut self, target: u32, pname: u32, value: f32) -> Result<()> {
        self.tex_parameter_fv(target, pname, &[value])
    }

    /// `glTexParameterfv`: enum values are given as floats of their value; the border
    /// colour takes 4 values.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
    /// ctx.tex_parameter_fv(gl::TEXTURE_2D, gl::TEXTURE_BORDER_COLOR, &[1.0, 0.0, 0.0, 1.0]).unwrap();
    /// let e = ctx.tex_parameter_fv(gl::TEXTURE_2D, gl::BLEND, &[0.0]).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidEnum);
    /// ```
    pub fn tex_parameter_fv(&mut self, target: u32, pname: u32, values: &[f32]) -> Result<()> {
        let name = param_name(pname)?;
        let first = *values
            .first()
            .ok_or_else(|| Error::invalid_value("no parameter value"))?;
        let value = match pname {
            gl::TEXTURE_BORDER_COLOR => {
                if values.len() < 4 {
                    return Err(Error::invalid_value("border colour needs 4 values"));
                }
                format!("{} {} {} {}", values[0], values[1], values[2], values[3])
            }
            gl::TEXTURE_BASE_LEVEL | gl::TEXTURE_MAX_LEVEL => {
                if first < 0.0 {
                    return Err(Error::invalid_value(format!("{name} {first} is negative")));
                }
                format!("{}", first as u32)
            }
            gl::TEXTURE_LOD_BIAS
            | gl::TEXTURE_MIN_LOD
            | gl::TEXTURE_MAX_LOD
            | gl::TEXTURE_MAX_ANISOTROPY => {
                format!("{first}")
            }
            gl::TEXTURE_SWIZZLE_R
            | gl::TEXTURE_SWIZZLE_G
            | gl::TEXTURE_SWIZZLE_B
            | gl::TEXTURE_SWIZZLE_A
                if first == 0.0 || first == 1.0 =>
            {
                if first == 0.0 { "ZERO" } else { "ONE" }.to_string()
            }
            gl::TEXTURE_COMPARE_MODE if first == 0.0 => "NONE".to_string(),
            _ => value_name(first as u32)
                .ok_or_else(|| Error::invalid_enum(name, first as u32))?
                .to_string(),
        };
        let (o, _, _) = self.bound_texture_mut(target)?;
        o.sampler
            .set_param(name, &value)
            .map_err(|m| Error::new(crate::GlError::InvalidEnum, m))
    }

    /// Texture units for a draw: on each unit, the texture bound to each target.
    pub(crate) fn texture_units(&self) -> Vec<TextureUnit> {
        let mut units: Vec<TextureUnit> = Vec::new();
        for (&(unit, _), id) in &self.textures.bound {
            let Some(img) = self
                .textures
                .objects
                .get(id)
                .and_then(|o| o.image.clone().map(|i| (i, o.sampler.clone())))
            else {
                continue;
            };
            let u = unit as usize;
            if u >= MAX_TEXTURE_UNITS {
                continue;
            }
            if units.len() <= u {
                units.resize_with(u + 1, TextureUnit::default);
            }
            if let Some(slot) = units.get_mut(u) {
                slot.bindings.push(TextureBinding {
                    texture: img.0,
                    sampler: img.1,
                });
            }
        }
        units
    }
}
