//! Texture objects and units: images (glemu-textures `Texture`s) with their sampler
//! state, bound per unit and target.

use super::gl_enum::{pixel_format, pixel_type, GlEnum};
use super::limits::charge;
use super::state::MAX_TEXTURE_UNITS;
use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use crate::GlError;
use glemu_pipeline::{TextureBinding, TextureUnit};
use glemu_textures::texture::full_chain_levels;
use glemu_textures::upload::{unpack, Pixels};
use glemu_textures::{
    Base, Channel, Filter, Format, SampleType, SamplerState, Target, TexError, Texture,
};
use std::collections::HashMap;
use std::sync::Arc;

pub(crate) fn from_tex(e: TexError) -> Error {
    match e {
        TexError::TooLarge(m) => Error::out_of_memory(m),
        TexError::Unsupported(m) => Error::not_supported(m),
        e => Error::invalid_value(e.to_string()),
    }
}

/// A buffer texture's view of a buffer object: the texels are that range of its data
/// store, read when a draw samples them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct TexBuffer {
    pub buffer: u32,
    pub format: Format,
    pub offset: u64,
    /// `None`: to the end of the buffer (`glTexBuffer`).
    pub size: Option<u64>,
}

/// One texture object.
#[derive(Clone, Debug, Default)]
pub(crate) struct TexObject {
    pub target: Option<Target>,
    pub image: Option<Arc<Texture>>,
    pub sampler: SamplerState,
    /// Bit `l` of entry `f`: level `l` of cube face `f` (entry 0 for other targets) was
    /// given an image. Completeness (GL 4.6 §8.17) asks about these, not about what the
    /// image happens to hold.
    pub defined: [u32; 6],
    /// `TEXTURE_IMMUTABLE_LEVELS` once `glTexStorage*` gave it storage.
    pub immutable: Option<u32>,
    /// The buffer a `TEXTURE_BUFFER` texture views (`glTexBuffer`).
    pub buffer: Option<TexBuffer>,
}

impl TexObject {
    /// Whether level `level` of `face` (0 unless a cube map) was given an image.
    pub(crate) fn is_defined(&self, face: u32, level: u32) -> bool {
        let bit = 1u32.checked_shl(level).unwrap_or(0);
        self.defined
            .get(face as usize)
            .is_some_and(|f| f & bit != 0)
    }

    /// Marks level `level` of `face` defined.
    fn define(&mut self, face: u32, level: u32) {
        if let Some(f) = self.defined.get_mut(face as usize) {
            *f |= 1u32.checked_shl(level).unwrap_or(0);
        }
    }

    /// Whether sampling this texture through `s` sees its images (GL 4.6 §8.17): the base
    /// level is defined (on every face of a cube map); with a mipmap filter, every level
    /// from the base to `min(p, MAX_LEVEL)` is (p: the last level the base's size
    /// implies) and `BASE_LEVEL <= MAX_LEVEL`; an integer texture is filtered `NEAREST`.
    /// Sampling an incomplete texture returns (0, 0, 0, 1).
    pub(crate) fn is_complete(&self, s: &SamplerState) -> bool {
        let Some(img) = self.image.as_deref() else {
            return false;
        };
        let t = img.target();
        if t.is_multisample() || t == Target::Buffer {
            return true;
        }
        // Immutable storage clamps the levels to the ones it has (GL 4.6 section 8.17).
        let (base, max_level) = match self.immutable {
            Some(n) => {
                let base = s.base_level.min(n - 1);
                (base, s.max_level.clamp(base, n - 1))
            }
            None => (s.base_level, s.max_level),
        };
        let Some(b) = img.level(base) else {
            return false;
        };
        let last = match s.min_filter.mipmap {
            None => base,
            Some(_) if base > max_level => return false,
            Some(_) => {
                let d = if t == Target::T3D { b.depth } else { 1 };
                let p = base + full_chain_levels(b.width, b.height, d) - 1;
                p.min(max_level)
            }
        };
        let faces = if t == Target::Cube { 6 } else { 1 };
        let all_defined = self.defined[..faces]
            .iter()
            .all(|&f| (base..=last).all(|l| l < 32 && f & (1 << l) != 0));
        let nearest = s.mag_filter == Filter::Nearest
            && s.min_filter.filter == Filter::Nearest
            && s.min_filter.mipmap != Some(Filter::Linear);
        all_defined && (nearest || !img.format().is_integer())
    }
}

/// What sampling an incomplete texture of `like`'s target and kind returns everywhere:
/// (0, 0, 0, 1), as floats or integers (GL 4.6 §11.1.3.5; ARB_fragment_program issue 23).
pub(crate) fn incomplete_stand_in(like: &Texture) -> Result<Texture> {
    let t = like.target();
    let (fmt, one) = match like.format().sample_type() {
        SampleType::Sint => (Format::Plain(Base::Rgba, Channel::I32), 1),
        SampleType::Uint => (Format::Plain(Base::Rgba, Channel::U32), 1),
        _ => (Format::RGBA8, 1.0f32.to_bits()),
    };
    let size = match t {
        Target::ArrayCube => [1, 1, 6],
        _ => [1, 1, 1],
    };
    let mut img = Texture::new(t, fmt, size, 1).map_err(from_tex)?;
    let n = img.level(0).map_or(0, |l| l.depth as usize);
    img.write_texels(0, [0, 0, 0], [1, 1, n as u32], &vec![[0, 0, 0, one]; n])
        .map_err(from_tex)?;
    Ok(img)
}

/// Largest width, height or depth of a texture level (`MAX_TEXTURE_SIZE`).
///
/// ```
/// use glemu::{gl, Context, GlError};
/// use glemu::context::textures::MAX_TEXTURE_SIZE;
/// let mut ctx = Context::new(4, 4).unwrap();
/// assert_eq!(ctx.get_integer_v(gl::MAX_TEXTURE_SIZE).unwrap(), vec![MAX_TEXTURE_SIZE as i32]);
/// ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
/// let w = MAX_TEXTURE_SIZE + 1;
/// let e = ctx.tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, w, 1, gl::RGBA, gl::UNSIGNED_BYTE, None);
/// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
/// ```
pub const MAX_TEXTURE_SIZE: u32 = crate::caps::MAX_TEXTURE_SIZE;

/// Texture objects, sampler objects and per-unit bindings.
#[derive(Debug)]
pub(crate) struct Textures {
    pub objects: HashMap<u32, TexObject>,
    pub next_id: u32,
    /// (unit, target) → texture id.
    pub bound: HashMap<(u32, Target), u32>,
    /// Sampler objects (ARB_sampler_objects) by name.
    pub samplers: HashMap<u32, SamplerState>,
    pub next_sampler: u32,
    /// unit → sampler object bound to it.
    pub sampler_bound: HashMap<u32, u32>,
    /// `UNPACK_ALIGNMENT` (1, 2, 4 or 8; GL's initial value is 4).
    pub unpack_alignment: usize,
    /// `PACK_ALIGNMENT`: the row padding of `read_pixels` (GL's initial value is 4).
    pub pack_alignment: usize,
}

impl Default for Textures {
    fn default() -> Textures {
        Textures {
            objects: HashMap::new(),
            next_id: 0,
            bound: HashMap::new(),
            samplers: HashMap::new(),
            next_sampler: 0,
            sampler_bound: HashMap::new(),
            unpack_alignment: 4,
            pack_alignment: 4,
        }
    }
}

/// Texture target of a GL enum (cube faces map to the cube target with their face).
pub(super) fn target_of(t: u32) -> Result<(Target, Option<u32>)> {
    Ok(match t {
        gl::TEXTURE_1D => (Target::T1D, None),
        gl::TEXTURE_2D => (Target::T2D, None),
        gl::TEXTURE_3D => (Target::T3D, None),
        gl::TEXTURE_RECTANGLE => (Target::Rect, None),
        gl::TEXTURE_CUBE_MAP => (Target::Cube, None),
        gl::TEXTURE_1D_ARRAY => (Target::Array1D, None),
        gl::TEXTURE_2D_ARRAY => (Target::Array2D, None),
        gl::TEXTURE_CUBE_MAP_ARRAY => (Target::ArrayCube, None),
        gl::TEXTURE_2D_MULTISAMPLE => (Target::T2DMs, None),
        gl::TEXTURE_2D_MULTISAMPLE_ARRAY => (Target::Array2DMs, None),
        gl::TEXTURE_BUFFER => (Target::Buffer, None),
        f if (gl::TEXTURE_CUBE_MAP_POSITIVE_X..gl::TEXTURE_CUBE_MAP_POSITIVE_X + 6)
            .contains(&f) =>
        {
            (Target::Cube, Some(f - gl::TEXTURE_CUBE_MAP_POSITIVE_X))
        }
        t => return Err(Error::invalid_enum("texture target", t)),
    })
}

/// A level's size as one image upload covers it: w×h×depth, one face for cube maps.
pub(super) fn storage_dims(l: &glemu_textures::Level, t: Target) -> [u32; 3] {
    if t == Target::Cube {
        [l.width, l.height, 1]
    } else {
        [l.width, l.height, l.depth]
    }
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
        p => {
            return Err(Error::new(
                GlError::InvalidEnum,
                format!(
                    "texture parameter {}: not one glemu takes ({})",
                    gl::name(p),
                    ACCEPTED_PARAMETERS
                ),
            ))
        }
    })
}

/// The texture parameters `param_name` takes, as its errors list them.
const ACCEPTED_PARAMETERS: &str = "TEXTURE_MIN_FILTER, TEXTURE_MAG_FILTER, \
    TEXTURE_WRAP_S/T/R, TEXTURE_COMPARE_FUNC, TEXTURE_COMPARE_MODE, DEPTH_TEXTURE_MODE, \
    TEXTURE_BASE_LEVEL, TEXTURE_MAX_LEVEL, TEXTURE_LOD_BIAS, TEXTURE_MIN_LOD, \
    TEXTURE_MAX_LOD, TEXTURE_MAX_ANISOTROPY, TEXTURE_BORDER_COLOR, TEXTURE_SWIZZLE_R/G/B/A, \
    TEXTURE_SRGB_DECODE_EXT";

/// The values an enum-valued texture parameter accepts (GL 4.6 table 8.26), for errors.
fn accepted_values(pname: u32) -> &'static str {
    match pname {
        gl::TEXTURE_MIN_FILTER => {
            "NEAREST, LINEAR, NEAREST_MIPMAP_NEAREST, LINEAR_MIPMAP_NEAREST, \
             NEAREST_MIPMAP_LINEAR, LINEAR_MIPMAP_LINEAR"
        }
        gl::TEXTURE_MAG_FILTER => "NEAREST, LINEAR",
        gl::TEXTURE_WRAP_S | gl::TEXTURE_WRAP_T | gl::TEXTURE_WRAP_R => {
            "REPEAT, CLAMP, CLAMP_TO_EDGE, CLAMP_TO_BORDER, MIRRORED_REPEAT, \
             MIRROR_CLAMP_TO_EDGE, MIRROR_CLAMP_EXT, MIRROR_CLAMP_TO_BORDER_EXT"
        }
        gl::TEXTURE_COMPARE_FUNC => "NEVER, LESS, EQUAL, LEQUAL, GREATER, NOTEQUAL, GEQUAL, ALWAYS",
        gl::TEXTURE_COMPARE_MODE => "NONE, COMPARE_REF_TO_TEXTURE",
        gl::DEPTH_TEXTURE_MODE => "LUMINANCE, INTENSITY, ALPHA, RED",
        gl::TEXTURE_SWIZZLE_R
        | gl::TEXTURE_SWIZZLE_G
        | gl::TEXTURE_SWIZZLE_B
        | gl::TEXTURE_SWIZZLE_A => "RED, GREEN, BLUE, ALPHA, ZERO, ONE",
        gl::TEXTURE_SRGB_DECODE_EXT => "DECODE_EXT, SKIP_DECODE_EXT",
        _ => "a number",
    }
}

/// `INVALID_ENUM` for a value parameter `pname` does not take, saying what it takes.
pub(crate) fn bad_value(pname: u32, value: f32) -> Error {
    let v = if value.fract() == 0.0 && value >= 0.0 && value <= u32::MAX as f32 {
        gl::name(value as u32).to_string()
    } else {
        value.to_string()
    };
    Error::new(
        GlError::InvalidEnum,
        format!(
            "{} {v}: it takes {}",
            gl::name(pname),
            accepted_values(pname)
        ),
    )
}

/// Unpacks client pixels (`format`/`ty`, rows padded to `alignment`) covering `size`
/// (GL terms) into canonical texels for `target`. A format/type pair that does not fit
/// the internal format (integer data for a float texture, too little data, ...) is
/// `INVALID_OPERATION`, as glTexImage reports it.
/// A refused pixel unpack: data that does not fit the format is `INVALID_OPERATION`,
/// memory that could not be had `OUT_OF_MEMORY`.
pub(super) fn from_unpack(e: TexError) -> Error {
    match e {
        TexError::TooLarge(_) => from_tex(e),
        e => Error::invalid_operation(e.to_string()),
    }
}

pub(super) fn unpack_client(
    format: u32,
    ty: u32,
    data: &[u8],
    size: [u32; 3],
    alignment: usize,
    target: Format,
) -> Result<Vec<[u32; 4]>> {
    let px = Pixels {
        format: pixel_format(format)?,
        ty: pixel_type(ty)?,
        data,
        alignment,
    };
    unpack(&px, size[0], size[1], size[2], target)
        .map_err(|e| Error::invalid_operation(e.to_string()))
}

/// The state a draw samples with when sampler object `object` is bound on the unit:
/// the sampler's wrap, filter, LOD, anisotropy, comparison, border and sRGB-decode
/// state; the texture keeps what GL leaves with the texture (base/max level, swizzle,
/// depth mode). A deleted or unknown name falls back to the texture's own state.
pub(crate) fn combined(texture: &SamplerState, object: Option<&SamplerState>) -> SamplerState {
    let Some(o) = object else {
        return texture.clone();
    };
    SamplerState {
        base_level: texture.base_level,
        max_level: texture.max_level,
        swizzle: texture.swizzle,
        depth_mode: texture.depth_mode,
        seamless_cube: texture.seamless_cube,
        legacy_mag_threshold: texture.legacy_mag_threshold,
        ..o.clone()
    }
}

/// Sets texture or sampler parameter `pname` of `s` from `values` (enum values arrive as
/// floats of their value, the border colour as 4 values): enum values are parsed once
/// into the sampler's own types (`gl_enum` tables), anything else is the `INVALID_ENUM`
/// that names what the parameter takes.
pub(crate) fn apply_param(s: &mut SamplerState, pname: u32, values: &[f32]) -> Result<()> {
    let name = param_name(pname)?;
    let first = *values
        .first()
        .ok_or_else(|| Error::invalid_value("no parameter value"))?;
    let e = || first as u32;
    fn parsed<T: GlEnum>(pname: u32, first: f32) -> Result<T> {
        T::from_gl(first as u32).ok_or_else(|| bad_value(pname, first))
    }
    match pname {
        gl::TEXTURE_MIN_FILTER => s.min_filter = parsed(pname, first)?,
        gl::TEXTURE_MAG_FILTER => s.mag_filter = parsed(pname, first)?,
        gl::TEXTURE_WRAP_S => s.wrap[0] = parsed(pname, first)?,
        gl::TEXTURE_WRAP_T => s.wrap[1] = parsed(pname, first)?,
        gl::TEXTURE_WRAP_R => s.wrap[2] = parsed(pname, first)?,
        gl::TEXTURE_COMPARE_FUNC => s.compare_func = parsed(pname, first)?,
        gl::TEXTURE_COMPARE_MODE => {
            s.compare_mode = match e() {
                gl::NONE => false,
                gl::COMPARE_REF_TO_TEXTURE => true,
                _ => return Err(bad_value(pname, first)),
            }
        }
        gl::DEPTH_TEXTURE_MODE => s.depth_mode = parsed(pname, first)?,
        gl::TEXTURE_SWIZZLE_R => s.swizzle[0] = parsed(pname, first)?,
        gl::TEXTURE_SWIZZLE_G => s.swizzle[1] = parsed(pname, first)?,
        gl::TEXTURE_SWIZZLE_B => s.swizzle[2] = parsed(pname, first)?,
        gl::TEXTURE_SWIZZLE_A => s.swizzle[3] = parsed(pname, first)?,
        gl::TEXTURE_SRGB_DECODE_EXT => {
            s.srgb_decode = match e() {
                gl::DECODE_EXT => true,
                gl::SKIP_DECODE_EXT => false,
                _ => return Err(bad_value(pname, first)),
            }
        }
        gl::TEXTURE_BASE_LEVEL | gl::TEXTURE_MAX_LEVEL => {
            if first < 0.0 {
                return Err(Error::invalid_value(format!("{name} {first} is negative")));
            }
            if pname == gl::TEXTURE_BASE_LEVEL {
                s.base_level = first as u32;
            } else {
                s.max_level = first as u32;
            }
        }
        gl::TEXTURE_LOD_BIAS => s.lod_bias = first,
        gl::TEXTURE_MIN_LOD => s.min_lod = first,
        gl::TEXTURE_MAX_LOD => s.max_lod = first,
        gl::TEXTURE_MAX_ANISOTROPY => {
            s.max_anisotropy = first.clamp(1.0, glemu_textures::sampler::MAX_ANISOTROPY)
        }
        gl::TEXTURE_BORDER_COLOR => {
            let [r, g, b, a] = values else {
                return Err(Error::invalid_value("border colour needs 4 values"));
            };
            s.border = [r, g, b, a].map(|c| c.to_bits());
        }
        // param_name accepted nothing else.
        p => return Err(Error::invalid_enum("texture parameter", p)),
    }
    Ok(())
}

/// # Chapter 8 — Textures
///
/// Texture objects, image definition (`tex_image*`), parameters, mipmaps.
impl Context {
    /// `glActiveTexture` with `unit` as an index (0 = `GL_TEXTURE0`).
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.active_texture(2).unwrap();
    /// assert!(ctx.active_texture(99).is_err());
    /// ```
    pub fn active_texture(&mut self, unit: u32) -> Result<()> {
        if unit as usize >= MAX_TEXTURE_UNITS {
            return Err(super::bad_texture_unit(unit, MAX_TEXTURE_UNITS));
        }
        self.st.active_texture = unit;
        Ok(())
    }

    /// `glGenTextures`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.gen_textures(2).unwrap().len(), 2);
    /// ```
    pub fn gen_textures(&mut self, n: usize) -> Result<Vec<u32>> {
        let room = self.memory_room();
        let t = &mut self.textures;
        super::names::generate(
            "texture",
            n,
            room,
            &mut t.next_id,
            &mut t.objects,
            super::names::NONE_OUTSIDE,
            TexObject::default,
        )
    }

    /// `glBindTexture` on the active unit; binding a name created for another target is
    /// `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let t = ctx.gen_textures(1).unwrap()[0];
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
        let o = self.textures.objects.entry(id).or_default();
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
    /// let t = ctx.gen_textures(1).unwrap();
    /// ctx.delete_textures(&t);
    /// ```
    pub fn delete_textures(&mut self, ids: &[u32]) {
        for id in ids {
            self.textures.objects.remove(id);
            self.textures.bound.retain(|_, b| b != id);
            self.images.detach(*id);
        }
        self.detach_deleted(ids, &[]);
    }

    pub(super) fn bound_texture_mut(
        &mut self,
        target: u32,
    ) -> Result<(&mut TexObject, Target, Option<u32>)> {
        let (t, face) = target_of(target)?;
        let unit = self.st.active_texture;
        let id = *self.textures.bound.get(&(unit, t)).ok_or_else(|| {
            Error::invalid_operation(format!(
                "no texture is bound to target {} of unit {unit}",
                gl::name(target)
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
    /// `data` in any GL client `format`/`ty` (RED..BGRA, LUMINANCE(_ALPHA), the `_INTEGER`
    /// forms, DEPTH_COMPONENT/DEPTH_STENCIL; every base and packed type), rows padded to
    /// the `UNPACK_ALIGNMENT` of [`Context::pixel_store_i`]; zeros when `data` is `None`.
    /// Each call defines one level: a texture sampled with a mipmap filter needs every
    /// level (or `generate_mipmap`), else it is incomplete and samples (0, 0, 0, 1).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let t = ctx.gen_textures(1).unwrap()[0];
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
        if fmt.is_compressed() {
            return Err(Error::invalid_operation(
                "compressed internal formats take compressed_tex_image",
            ));
        }
        if size.contains(&0) || size.iter().any(|&s| s > MAX_TEXTURE_SIZE) {
            return Err(Error::invalid_value(format!(
                "texture size {size:?}: each side must be 1..={MAX_TEXTURE_SIZE}"
            )));
        }
        // The format/type pair is checked even without data, as GL does.
        let px = Pixels {
            format: pixel_format(format)?,
            ty: pixel_type(ty)?,
            data: data.unwrap_or(&[]),
            alignment: self.textures.unpack_alignment,
        };
        if data.is_none() {
            return self.tex_image_texels(target, level, fmt, size, None);
        }
        // Checked before the level is (re)defined, so a refused upload changes nothing.
        glemu_textures::upload::check(&px, size[0], size[1], size[2], fmt).map_err(from_unpack)?;
        let (img, store, z) = self.define_level(target, level, fmt, size)?;
        img.upload(level, [0, 0, z], store, &px)
            .map_err(from_unpack)?;
        self.refresh_bound_fbos();
        Ok(())
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
        if size.contains(&0) || size.iter().any(|&s| s > MAX_TEXTURE_SIZE) {
            return Err(Error::invalid_value(format!(
                "texture size {size:?}: each side must be 1..={MAX_TEXTURE_SIZE}"
            )));
        }
        let (img, store, z) = self.define_level(target, level, fmt, size)?;
        let n = size.iter().map(|&s| s as usize).product::<usize>();
        let Some(values) = texels else {
            // No data: zero bytes in the internal format (zero in every format), a
            // quarter of the zero texels an RGBA8 image would otherwise need.
            // A few rows at a time, so the zeros beside the image stay small.
            let [w, h, d] = store;
            let rows = match fmt.is_compressed() {
                true => h,
                false => ((1 << 20) / fmt.image_bytes(w, 1, 1).max(1)).clamp(1, h as usize) as u32,
            };
            let zeros = vec![0u8; fmt.image_bytes(w, rows, 1)];
            for zz in 0..d {
                for y in (0..h).step_by(rows as usize) {
                    let n = rows.min(h - y);
                    img.write_bytes(level, [0, y, z + zz], [w, n, 1], &zeros)
                        .map_err(from_tex)?;
                }
            }
            self.refresh_bound_fbos();
            return Ok(());
        };
        if values.len() < n {
            return Err(Error::invalid_value(format!(
                "{} texels given, need {n}",
                values.len()
            )));
        }
        img.write_texels(level, [0, 0, z], store, values)
            .map_err(from_tex)?;
        self.refresh_bound_fbos();
        Ok(())
    }

    /// Makes level `level` of the bound texture (re)defined as `fmt` × `size` (GL terms),
    /// allocating the texture when level 0 changes shape or format, and returns the image
    /// with the level's box in glemu-textures' layout and the cube face (as z).
    pub(super) fn define_level(
        &mut self,
        target: u32,
        level: u32,
        fmt: Format,
        size: [u32; 3],
    ) -> Result<(&mut Texture, [u32; 3], u32)> {
        let (in_use, budget) = (self.memory_in_use(), self.memory_budget());
        let (o, t, face) = self.bound_texture_mut(target)?;
        if o.immutable.is_some() {
            return Err(Error::invalid_operation(
                "the texture's storage is immutable (glTexStorage): update it with tex_sub_image",
            ));
        }
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
            let old = o.image.as_deref().map_or(0, Texture::heap_bytes);
            let bytes = Texture::bytes_for(t, fmt, size, 1, 1).unwrap_or(u64::MAX);
            let texels: u64 = size.iter().map(|&s| u64::from(s)).product();
            let what = format_args!("a {size:?} {} texture image of {texels} texels", fmt.name());
            charge(in_use, budget, bytes, old, &what)?;
            // Only level 0: later levels exist once defined (an app that forgets its
            // mipmaps gets an incomplete texture, as on any GL).
            o.image = Some(Arc::new(Texture::new(t, fmt, size, 1).map_err(from_tex)?));
            o.defined = [0; 6];
        }
        let img = o
            .image
            .as_mut()
            .ok_or_else(|| Error::invalid_operation("texture has no image"))?;
        let img = Arc::make_mut(img);
        if img.format() != fmt {
            return Err(Error::not_supported(format!(
                "level {level} in {} while level 0 is {}",
                fmt.name(),
                img.format().name()
            )));
        }
        let grow = img.bytes_to_grow(level.saturating_add(1));
        charge(
            in_use,
            budget,
            grow,
            0,
            &format_args!("mip levels up to {level}"),
        )?;
        img.ensure_levels(level.saturating_add(1))
            .map_err(from_tex)?;
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
        o.define(face.unwrap_or(0), level);
        let img = o
            .image
            .as_mut()
            .map(Arc::make_mut)
            .ok_or_else(|| Error::invalid_operation("texture has no image"))?;
        Ok((img, store, z))
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
        let img = Arc::make_mut(img);
        img.generate_mipmaps(base).map_err(from_tex)?;
        let levels = img.num_levels();
        for f in o.defined.iter_mut().filter(|f| **f != 0) {
            for l in base..levels.min(32) {
                *f |= 1 << l;
            }
        }
        self.refresh_bound_fbos();
        Ok(())
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
        // A bad parameter is reported before a bad target (checked on a scratch state).
        apply_param(&mut SamplerState::default(), pname, values)?;
        let (o, _, _) = self.bound_texture_mut(target)?;
        apply_param(&mut o.sampler, pname, values)
    }

    /// Whether the texture bound to `target` on `unit` is complete for the sampler state
    /// it is used with (the unit's sampler object, else its own).
    pub(crate) fn bound_complete(&self, unit: u32, target: Target) -> bool {
        let t = &self.textures;
        let Some(o) = t
            .bound
            .get(&(unit, target))
            .and_then(|id| t.objects.get(id))
        else {
            return false;
        };
        match t.sampler_bound.get(&unit) {
            Some(s) => o.is_complete(&combined(&o.sampler, t.samplers.get(s))),
            None => o.is_complete(&o.sampler),
        }
    }

    /// Texture units for a draw: on each unit, the texture bound to each target;
    /// incomplete textures are replaced by a stand-in that samples (0, 0, 0, 1).
    pub(crate) fn texture_units(&self) -> Vec<TextureUnit> {
        let mut units: Vec<TextureUnit> = Vec::new();
        for (&(unit, _), id) in &self.textures.bound {
            let Some(img) = self.textures.objects.get(id).and_then(|o| {
                let sampler = match self.textures.sampler_bound.get(&unit) {
                    Some(s) => combined(&o.sampler, self.textures.samplers.get(s)),
                    None => o.sampler.clone(),
                };
                if let Some(tb) = &o.buffer {
                    return Some((Arc::new(self.buffer_texture(tb)?), sampler));
                }
                let img = o.image.clone()?;
                if o.is_complete(&sampler) {
                    return Some((img, sampler));
                }
                let stand_in = incomplete_stand_in(&img).ok()?;
                Some((Arc::new(stand_in), SamplerState::default()))
            }) else {
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
