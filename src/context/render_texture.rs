//! Render to texture: texture images as framebuffer attachments
//! (`glFramebufferTexture*`), multisample texture storage, and moving texels between a
//! texture level/layer and the framebuffer storage draws render into.
//!
//! The texture is the truth. A framebuffer object keeps a rasterizer `Framebuffer` per
//! layout; before a draw, clear or blit writes it, the attached texture images are loaded
//! into it, and afterwards what it holds is stored back into those images, so a later draw
//! samples what was rendered. Renderbuffers keep their contents the same way (as a
//! texture image of their format), so framebuffers sharing one see each other's writes;
//! they are reloaded only when another framebuffer stored into them. While a texture is both sampled and rendered to (a feedback
//! loop, GL 4.6 section 9.3.1: undefined results, no error), a draw samples the texture as
//! it was before the draw began.

use super::fbo_state::{Attachment, Fbo, Renderbuffer, Storage, TexImage, MAX_COLOR_ATTACHMENTS};
use super::textures::{from_tex, Textures};
use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_pipeline::DrawState;
use glemu_programs::ir::{OutputBinding, VaryingSlot};
use glemu_raster::{ColorFormat, DepthFormat, Framebuffer};
use glemu_textures::{Base, Channel, Format, Target, Texture};
use std::collections::HashMap;
use std::sync::Arc;

const MAX_LEVEL: u32 = crate::caps::MAX_TEXTURE_LEVEL;
/// `MAX_ARRAY_TEXTURE_LAYERS` and `MAX_3D_TEXTURE_SIZE`.
const MAX_LAYERS: i32 = crate::caps::MAX_ARRAY_TEXTURE_LAYERS as i32;

/// The rasterizer storage a texture format renders through, when one holds every value
/// the format stores exactly (and converts the way writes to the format do). Formats with
/// no such storage make the framebuffer `FRAMEBUFFER_UNSUPPORTED`.
pub(crate) fn storage_of_texture(fmt: Format) -> Option<Storage> {
    let color = |c| Some(Storage::Color(c));
    match fmt {
        Format::Plain(Base::R | Base::Rg | Base::Rgb | Base::Rgba, ch) => match ch {
            Channel::Unorm8 => color(ColorFormat::Rgba8Unorm),
            Channel::F16 => color(ColorFormat::Rgba16F),
            Channel::F32 => color(ColorFormat::Rgba32F),
            Channel::U8 | Channel::U16 | Channel::U32 => color(ColorFormat::Rgba32Ui),
            Channel::I8 | Channel::I16 | Channel::I32 => color(ColorFormat::Rgba32I),
            Channel::Snorm8 | Channel::Unorm16 | Channel::Snorm16 => None,
        },
        Format::Srgb8 | Format::Srgb8Alpha8 => color(ColorFormat::Srgb8Alpha8),
        Format::Depth16 | Format::Depth24 | Format::Depth24Stencil8 => {
            Some(Storage::Depth(DepthFormat::D24S8))
        }
        Format::Depth32F | Format::Depth32FStencil8 => Some(Storage::Depth(DepthFormat::D32FS8)),
        _ => None,
    }
}

/// The physical slice an attachment renders into: its layer, or for layered attachments
/// the layer being drawn (0, where primitives go when no program selects a layer).
fn slice(t: &TexImage, render_layer: u32) -> u32 {
    if t.layered {
        render_layer
    } else {
        t.layer
    }
}

fn image<'a>(textures: &'a Textures, t: &TexImage) -> Option<&'a Texture> {
    textures.objects.get(&t.id)?.image.as_deref()
}

/// Visits every (x, y, sample) of a `w`×`h` image with `samples` samples in texel order.
fn each_texel(w: u32, h: u32, samples: u32, mut f: impl FnMut(u32, u32, u32)) {
    for y in 0..h {
        for x in 0..w {
            for s in 0..samples {
                f(x, y, s);
            }
        }
    }
}

/// Which part of the framebuffer an image is moved to or from: a colour plane, or the
/// depth and/or stencil of the depth buffer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    Color(usize),
    DepthStencil { depth: bool, stencil: bool },
}

/// The attachments of `fbo` with the part of the storage each one fills (depth and
/// stencil once when they are the same image).
pub(crate) fn parts(fbo: &Fbo) -> Vec<(Part, Attachment)> {
    // Planes follow the attached colour images in order.
    let mut out: Vec<(Part, Attachment)> = fbo
        .color
        .iter()
        .flatten()
        .enumerate()
        .map(|(rt, a)| (Part::Color(rt), *a))
        .collect();
    match (fbo.depth, fbo.stencil) {
        (Some(d), Some(s)) if d == s => out.push((
            Part::DepthStencil {
                depth: true,
                stencil: true,
            },
            d,
        )),
        (d, s) => {
            if let Some(d) = d {
                let part = Part::DepthStencil {
                    depth: true,
                    stencil: false,
                };
                out.push((part, d));
            }
            if let Some(s) = s {
                let part = Part::DepthStencil {
                    depth: false,
                    stencil: true,
                };
                out.push((part, s));
            }
        }
    }
    out
}

/// Copies slice `z` of level `level` of `img` into `part` of `fb`.
fn load_image(fb: &mut Framebuffer, part: Part, img: &Texture, level: u32, z: u32) {
    let Some(l) = img.level(level) else {
        return;
    };
    let (w, h, n) = (l.width, l.height, img.samples());
    let base = z as usize * w as usize * h as usize * n as usize;
    // Texel by texel from the level as stored: decoding the whole level first would
    // allocate 16 bytes a texel of every layer beside the texture.
    let texels = l.source();
    each_texel(w.min(fb.width()), h.min(fb.height()), n, |x, y, s| {
        let at = base + ((y as usize * w as usize + x as usize) * n as usize + s as usize);
        let Some(v) = texels.get(at) else {
            return;
        };
        match part {
            Part::Color(rt) => {
                fb.write_sample_raw(rt, x, y, s, v);
            }
            Part::DepthStencil { depth, stencil } => {
                if depth {
                    fb.write_depth(x, y, s, f32::from_bits(v[0]));
                }
                if stencil {
                    fb.write_stencil(x, y, s, v[1].min(255) as u8);
                }
            }
        }
    });
}

/// Loads the images attached to `fbo` into its storage: textures always (anything may
/// have changed them), renderbuffers when another framebuffer stored into them since.
pub(crate) fn load(
    id: u32,
    fbo: &mut Fbo,
    textures: &Textures,
    renderbuffers: &HashMap<u32, Renderbuffer>,
) {
    let layer = fbo.render_layer;
    for (part, a) in parts(fbo) {
        let Some(fb) = fbo.fb.as_mut() else {
            return;
        };
        match a {
            Attachment::Texture(t) => {
                let Some(img) = textures.objects.get(&t.id).and_then(|o| o.image.as_ref()) else {
                    continue;
                };
                let key = (t, layer);
                let held = fbo.loaded_textures.get(&key);
                if !held.is_some_and(|h| std::ptr::eq(h.as_ptr(), Arc::as_ptr(img))) {
                    load_image(fb, part, img, t.level, slice(&t, layer));
                    fbo.loaded_textures.insert(key, Arc::downgrade(img));
                }
            }
            Attachment::Renderbuffer(rb_id) => {
                let Some(rb) = renderbuffers.get(&rb_id) else {
                    continue;
                };
                let Some(img) = rb.image.as_ref() else {
                    continue;
                };
                // Pending writes held here are newer than the image.
                let held_here = rb.dirty_in == Some(id);
                if !held_here && fbo.loaded.get(&rb_id) != Some(&rb.version) {
                    load_image(fb, part, img, 0, 0);
                    fbo.loaded.insert(rb_id, rb.version);
                }
            }
        }
    }
}

/// What `fb` holds for `part`, as canonical texels of row `y` of slice `z` of `old`'s
/// level (parts of a depth-stencil texel the storage does not take keep their old value).
fn stored_row(
    fb: &Framebuffer,
    part: Part,
    old: &Texture,
    level: u32,
    [y, z]: [u32; 2],
    out: &mut Vec<[u32; 4]>,
) {
    out.clear();
    let Some(l) = old.level(level) else {
        return;
    };
    let (w, h, n) = (l.width, l.height, old.samples());
    let row = (z as usize * h as usize + y as usize) * w as usize * n as usize;
    let previous = l.source();
    let mut i = row;
    each_texel(w, 1, n, |x, _, s| {
        let prev = previous.get(i).unwrap_or([0; 4]);
        i += 1;
        out.push(match part {
            Part::Color(rt) => fb.read_sample_raw(rt, x, y, s).unwrap_or(prev),
            Part::DepthStencil { depth, stencil } => {
                let d = match depth {
                    true => fb.read_depth(x, y, s).map_or(prev[0], f32::to_bits),
                    false => prev[0],
                };
                let st = match stencil {
                    true => fb.read_stencil(x, y, s).map_or(prev[1], u32::from),
                    false => prev[1],
                };
                [d, st, 0, 1.0f32.to_bits()]
            }
        });
    });
}

/// Stores `part` of `fb` into slices `zs` of level `level` of `img`, a row at a time (what
/// the store allocates beside the texture is one row of texels).
pub(crate) fn store_image(
    fb: &Framebuffer,
    part: Part,
    img: &mut Texture,
    level: u32,
    zs: std::ops::Range<u32>,
) -> Result<()> {
    let Some(l) = img.level(level) else {
        return Ok(());
    };
    let (w, h) = (l.width, l.height);
    let mut values = Vec::new();
    for y in 0..h {
        stored_row(fb, part, img, level, [y, zs.start], &mut values);
        for z in zs.clone() {
            img.write_texels(level, [0, y, z], [w, 1, 1], &values)
                .map_err(from_tex)?;
        }
    }
    Ok(())
}

/// `FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE` values.
const RENDERBUFFER_TYPE: i32 = gl::RENDERBUFFER as i32;
const TEXTURE_TYPE: i32 = gl::TEXTURE as i32;

/// # Chapter 9.2.8 — Attaching texture images to a framebuffer
impl Context {
    /// Stores what the draw framebuffer holds into the images attached to it (every
    /// layer of a layered attachment when `all_layers`, as clears write).
    pub(crate) fn store_draw_target(&mut self, all_layers: bool) -> Result<()> {
        let draw = self.fbos.draw;
        let Some(fbo) = self.fbos.objects.get(&draw) else {
            return Ok(());
        };
        let Some(fb) = fbo.fb.as_ref() else {
            return Ok(());
        };
        let layer = fbo.render_layer;
        let mut held = Vec::new();
        let written: Vec<Attachment> = parts(fbo).into_iter().map(|(_, a)| a).collect();
        for (part, a) in parts(fbo) {
            match a {
                Attachment::Texture(t) => {
                    let obj = self.textures.objects.get_mut(&t.id);
                    let Some(img) = obj.and_then(|o| o.image.as_mut()) else {
                        continue;
                    };
                    let z = slice(&t, layer);
                    let depth = img.level(t.level).map_or(1, |l| l.depth);
                    let zs = if t.layered && all_layers {
                        0..depth
                    } else {
                        z..z + 1
                    };
                    store_image(fb, part, Arc::make_mut(img), t.level, zs)?;
                    held.push(((t, layer), Arc::downgrade(img)));
                }
                Attachment::Renderbuffer(id) => {
                    // Deferred: only framebuffers read renderbuffers, and they flush
                    // this storage's writes before they need them.
                    if let Some(rb) = self.fbos.renderbuffers.get_mut(&id) {
                        rb.dirty_in = Some(draw);
                    }
                }
            }
        }
        // The storage holds what was just stored: no reload before the next write.
        if let Some(fbo) = self.fbos.objects.get_mut(&draw) {
            fbo.loaded_textures.extend(held);
        }
        // A separate read framebuffer sharing an image reads what was just written.
        let read = self.fbos.read;
        let shares = |f: &Fbo| {
            let mut all = f.color.iter().chain([&f.depth, &f.stencil]).flatten();
            all.any(|a| written.contains(a))
        };
        if read != draw && self.fbos.objects.get(&read).is_some_and(shares) {
            self.refresh_fbo(read);
        }
        Ok(())
    }

    /// Re-reads the attached textures of the bound draw and read framebuffers after a
    /// texture upload, so reads through them see it (others are refreshed when bound or
    /// drawn to).
    pub(crate) fn refresh_bound_fbos(&mut self) {
        for id in [self.fbos.draw, self.fbos.read] {
            let textured = self
                .fbos
                .objects
                .get(&id)
                .is_some_and(|f| f.textures().next().is_some());
            if textured {
                self.refresh_fbo(id);
            }
        }
    }

    /// The layers of the pipeline's layered target: `Some(n)` when the draw framebuffer is
    /// layered and a program of `state` writes `result.layer`; n is the fewest layers
    /// among its attachments (GL 4.6 section 9.8).
    pub(crate) fn target_layers(&self, state: &DrawState) -> Option<u32> {
        let fbo = self.fbos.objects.get(&self.fbos.draw)?;
        if !fbo.layout.as_ref().is_some_and(|l| l.layered) {
            return None;
        }
        let layer_out = OutputBinding::Varying(VaryingSlot::Layer);
        let programs = [
            &state.programs.vertex,
            &state.programs.geometry,
            &state.programs.tess_eval,
        ];
        let selects = programs
            .into_iter()
            .flatten()
            .any(|sp| sp.program.outputs.iter().any(|o| o.binding == layer_out));
        if !selects {
            return None;
        }
        fbo.textures()
            .filter(|t| t.layered)
            .filter_map(|t| Some(image(&self.textures, &t)?.level(t.level)?.depth))
            .min()
    }

    /// Sets the layer of layered attachments that draws load, render and store.
    pub(crate) fn set_render_layer(&mut self, layer: u32) {
        if let Some(fbo) = self.fbos.objects.get_mut(&self.fbos.draw) {
            fbo.render_layer = layer;
        }
    }

    /// Checks a `glFramebufferTexture*` call: framebuffer target (not the default
    /// framebuffer), texture name, level. Returns the framebuffer id and the texture's
    /// target (`None` when detaching with texture 0).
    fn check_texture_attach(
        &self,
        target: u32,
        texture: u32,
        level: i32,
    ) -> Result<(u32, Option<Target>)> {
        let id = self.target_fbo(target)?;
        if id == 0 {
            return Err(Error::invalid_operation(
                "the default framebuffer has no attachment points",
            ));
        }
        if texture == 0 {
            return Ok((id, None));
        }
        let t = self
            .textures
            .objects
            .get(&texture)
            .and_then(|o| o.target)
            .ok_or_else(|| {
                Error::invalid_operation(format!(
                    "texture {texture} is not an existing texture object"
                ))
            })?;
        let max = if t.has_mipmaps() { MAX_LEVEL } else { 0 };
        if level < 0 || level as u32 > max {
            return Err(Error::invalid_value(format!(
                "level {level} of a {t:?} texture (0..={max})"
            )));
        }
        Ok((id, Some(t)))
    }

    /// `glFramebufferTexture2D`: attaches level `level` of 2D, rectangle, multisample or
    /// cube-map-face texture `texture` (0 detaches) at `attachment` of the framebuffer
    /// bound to `target`. `textarget` names the texture's target (a face for cube maps):
    /// another target is `INVALID_ENUM`, one that does not match the texture
    /// `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let (f, t) = (ctx.gen_framebuffers(1).unwrap()[0], ctx.gen_textures(1).unwrap()[0]);
    /// ctx.bind_texture(gl::TEXTURE_2D, t).unwrap();
    /// ctx.tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, 8, 8, gl::RGBA, gl::UNSIGNED_BYTE, None).unwrap();
    /// ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    /// ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, t, 0).unwrap();
    /// assert_eq!(ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap(), gl::FRAMEBUFFER_COMPLETE);
    /// ctx.clear_color([0.0, 1.0, 0.0, 1.0]).unwrap();
    /// ctx.clear(gl::COLOR_BUFFER_BIT).unwrap(); // the texture is green now
    /// let e = ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_3D, t, 0);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidEnum);
    /// let e = ctx.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_RECTANGLE, t, 0);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidOperation);
    /// ```
    pub fn framebuffer_texture_2d(
        &mut self,
        target: u32,
        attachment: u32,
        textarget: u32,
        texture: u32,
        level: i32,
    ) -> Result<()> {
        let (want, face) = match textarget {
            gl::TEXTURE_2D => (Target::T2D, 0),
            gl::TEXTURE_RECTANGLE => (Target::Rect, 0),
            gl::TEXTURE_2D_MULTISAMPLE => (Target::T2DMs, 0),
            f if (gl::TEXTURE_CUBE_MAP_POSITIVE_X..gl::TEXTURE_CUBE_MAP_POSITIVE_X + 6)
                .contains(&f) =>
            {
                (Target::Cube, f - gl::TEXTURE_CUBE_MAP_POSITIVE_X)
            }
            t => return Err(Error::invalid_enum("FramebufferTexture2D textarget", t)),
        };
        let (id, t) = self.check_texture_attach(target, texture, level)?;
        let v = match t {
            None => None,
            Some(t) if t != want => {
                return Err(Error::invalid_operation(format!(
                    "texture {texture} is a {t:?} texture, not {}",
                    gl::name(textarget)
                )))
            }
            Some(_) => Some(Attachment::Texture(TexImage {
                id: texture,
                level: level as u32,
                layer: face,
                layered: false,
            })),
        };
        self.attach(id, attachment, v)
    }

    /// `glFramebufferTextureLayer`: attaches one layer of a 3D, array, cube-map (a face)
    /// or cube-map-array (a layer-face) texture level. `INVALID_OPERATION` for other
    /// texture kinds, `INVALID_VALUE` for a negative or too large layer.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let (f, t) = (ctx.gen_framebuffers(1).unwrap()[0], ctx.gen_textures(1).unwrap()[0]);
    /// ctx.bind_texture(gl::TEXTURE_2D_ARRAY, t).unwrap();
    /// ctx.tex_image(gl::TEXTURE_2D_ARRAY, 0, gl::RGBA8, [4, 4, 3], gl::RGBA, gl::UNSIGNED_BYTE, None).unwrap();
    /// ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    /// ctx.framebuffer_texture_layer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, t, 0, 2).unwrap();
    /// assert_eq!(ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap(), gl::FRAMEBUFFER_COMPLETE);
    /// ctx.framebuffer_texture_layer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, t, 0, 3).unwrap();
    /// assert_eq!(ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap(), gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
    /// let e = ctx.framebuffer_texture_layer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, t, 0, -1);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn framebuffer_texture_layer(
        &mut self,
        target: u32,
        attachment: u32,
        texture: u32,
        level: i32,
        layer: i32,
    ) -> Result<()> {
        let (id, t) = self.check_texture_attach(target, texture, level)?;
        let v = match t {
            None => None,
            Some(t) => {
                let max = match t {
                    Target::T3D | Target::Array1D | Target::Array2D | Target::Array2DMs => {
                        MAX_LAYERS
                    }
                    Target::Cube => 6,
                    Target::ArrayCube => MAX_LAYERS * 6,
                    t => {
                        return Err(Error::invalid_operation(format!(
                            "FramebufferTextureLayer of a {t:?} texture"
                        )))
                    }
                };
                if !(0..max).contains(&layer) {
                    return Err(Error::invalid_value(format!("layer {layer} (0..{max})")));
                }
                Some(Attachment::Texture(TexImage {
                    id: texture,
                    level: level as u32,
                    layer: layer as u32,
                    layered: false,
                }))
            }
        };
        self.attach(id, attachment, v)
    }

    /// `glFramebufferTexture`: attaches a whole texture level. A 3D, array or cube-map
    /// texture is a layered attachment: clears write every layer; each primitive goes to
    /// the layer its provoking vertex writes to `result.layer` (layer 0 when no program
    /// writes it; primitives selecting a layer the framebuffer lacks are not drawn).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let (f, t) = (ctx.gen_framebuffers(1).unwrap()[0], ctx.gen_textures(1).unwrap()[0]);
    /// ctx.bind_texture(gl::TEXTURE_2D, t).unwrap();
    /// ctx.tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8, 8, 8, gl::RGBA, gl::UNSIGNED_BYTE, None).unwrap();
    /// ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    /// ctx.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, t, 1).unwrap();
    /// // Level 1 has no image yet: the attachment is incomplete until it has one.
    /// let incomplete = gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
    /// assert_eq!(ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap(), incomplete);
    /// ctx.tex_image_2d(gl::TEXTURE_2D, 1, gl::RGBA8, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, None).unwrap();
    /// assert_eq!(ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap(), gl::FRAMEBUFFER_COMPLETE);
    /// assert!(ctx.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, t, 15).is_err());
    /// ```
    pub fn framebuffer_texture(
        &mut self,
        target: u32,
        attachment: u32,
        texture: u32,
        level: i32,
    ) -> Result<()> {
        let (id, t) = self.check_texture_attach(target, texture, level)?;
        let v = t.map(|t| {
            Attachment::Texture(TexImage {
                id: texture,
                level: level as u32,
                layer: 0,
                layered: matches!(
                    t,
                    Target::T3D
                        | Target::Cube
                        | Target::Array1D
                        | Target::Array2D
                        | Target::ArrayCube
                        | Target::Array2DMs
                ),
            })
        });
        self.attach(id, attachment, v)
    }

    /// `glGetFramebufferAttachmentParameteriv` for `FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE`
    /// (`NONE`, `RENDERBUFFER`, `TEXTURE`), `..._OBJECT_NAME`, `..._TEXTURE_LEVEL`,
    /// `..._TEXTURE_CUBE_MAP_FACE`, `..._TEXTURE_LAYER` and `..._LAYERED`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let f = ctx.gen_framebuffers(1).unwrap()[0];
    /// ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    /// let ty = gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE;
    /// assert_eq!(ctx.get_framebuffer_attachment_parameter_iv(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, ty).unwrap(), 0);
    /// let e = ctx.get_framebuffer_attachment_parameter_iv(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::BLEND);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn get_framebuffer_attachment_parameter_iv(
        &self,
        target: u32,
        attachment: u32,
        pname: u32,
    ) -> Result<i32> {
        let id = self.target_fbo(target)?;
        let fbo = self
            .fbos
            .objects
            .get(&id)
            .filter(|_| id != 0)
            .ok_or_else(|| {
                Error::invalid_operation(
                    "attachment queries of the default framebuffer are not supported",
                )
            })?;
        let n = gl::COLOR_ATTACHMENT0;
        let a = match attachment {
            a if (n..n + MAX_COLOR_ATTACHMENTS as u32).contains(&a) => {
                fbo.color.get((a - n) as usize).copied().flatten()
            }
            gl::DEPTH_ATTACHMENT => fbo.depth,
            gl::STENCIL_ATTACHMENT => fbo.stencil,
            gl::DEPTH_STENCIL_ATTACHMENT => {
                if fbo.depth != fbo.stencil {
                    return Err(Error::invalid_operation(
                        "depth and stencil attachments differ",
                    ));
                }
                fbo.depth
            }
            a => return Err(Error::invalid_enum("attachment", a)),
        };
        let tex = match a {
            Some(Attachment::Texture(t)) => Some(t),
            _ => None,
        };
        let cube = tex.is_some_and(|t| {
            self.textures.objects.get(&t.id).and_then(|o| o.target) == Some(Target::Cube)
        });
        let int = |v: u32| i32::try_from(v).unwrap_or(i32::MAX);
        Ok(match (pname, a) {
            (gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, None) => 0,
            (gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, Some(Attachment::Renderbuffer(_))) => {
                RENDERBUFFER_TYPE
            }
            (gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, Some(Attachment::Texture(_))) => TEXTURE_TYPE,
            (gl::FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, None) => 0,
            (gl::FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, Some(Attachment::Renderbuffer(r))) => int(r),
            (gl::FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, Some(Attachment::Texture(t))) => int(t.id),
            (gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, Some(Attachment::Texture(t))) => {
                int(t.level)
            }
            (gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE, Some(Attachment::Texture(t))) => {
                if cube && !t.layered {
                    int(gl::TEXTURE_CUBE_MAP_POSITIVE_X + t.layer)
                } else {
                    0
                }
            }
            (gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER, Some(Attachment::Texture(t))) => {
                if cube || t.layered {
                    0
                } else {
                    int(t.layer)
                }
            }
            (gl::FRAMEBUFFER_ATTACHMENT_LAYERED, Some(Attachment::Texture(t))) => {
                i32::from(t.layered)
            }
            (
                gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL
                | gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE
                | gl::FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER
                | gl::FRAMEBUFFER_ATTACHMENT_LAYERED,
                _,
            ) => {
                return Err(Error::invalid_enum(
                    "texture attachment parameter of a non-texture attachment",
                    pname,
                ))
            }
            (p, _) => return Err(Error::invalid_enum("framebuffer attachment parameter", p)),
        })
    }

    /// `glTexImage2DMultisample(TEXTURE_2D_MULTISAMPLE, samples, ...)`: multisample
    /// storage (1, 2, 4, 8 or 16 samples; other counts up to 16 round up) for the texture
    /// bound to `TEXTURE_2D_MULTISAMPLE`, contents zero. Sample positions are always the
    /// standard fixed ones, so `fixed_sample_locations` changes nothing.
    ///
    /// Errors: another target or a compressed format `INVALID_ENUM`; 0 samples, a side
    /// of 0 or past `MAX_TEXTURE_SIZE` `INVALID_VALUE`; more than `MAX_SAMPLES` samples
    /// or a texture with immutable storage `INVALID_OPERATION`; past the memory budget
    /// `OUT_OF_MEMORY`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_texture(gl::TEXTURE_2D_MULTISAMPLE, 1).unwrap();
    /// ctx.tex_image_2d_multisample(gl::TEXTURE_2D_MULTISAMPLE, 4, gl::RGBA8, 8, 8, true).unwrap();
    /// let e = ctx.tex_image_2d_multisample(gl::TEXTURE_2D_MULTISAMPLE, 0, gl::RGBA8, 8, 8, true);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn tex_image_2d_multisample(
        &mut self,
        target: u32,
        samples: u32,
        internal_format: u32,
        width: u32,
        height: u32,
        fixed_sample_locations: bool,
    ) -> Result<()> {
        let _ = fixed_sample_locations;
        let size = [width, height, 1];
        self.multisample_storage(target, 2, samples, internal_format, size, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glemu_textures::Format;

    #[test]
    fn renderable_formats_map_to_exact_storage() {
        let c = |f| storage_of_texture(f);
        assert_eq!(
            c(Format::RGBA8),
            Some(Storage::Color(ColorFormat::Rgba8Unorm))
        );
        assert_eq!(
            c(Format::Plain(Base::R, Channel::F16)),
            Some(Storage::Color(ColorFormat::Rgba16F))
        );
        assert_eq!(
            c(Format::Plain(Base::Rg, Channel::U16)),
            Some(Storage::Color(ColorFormat::Rgba32Ui))
        );
        assert_eq!(
            c(Format::Depth32F),
            Some(Storage::Depth(DepthFormat::D32FS8))
        );
        // No rasterizer storage rounds like these.
        assert_eq!(c(Format::Plain(Base::Rgba, Channel::Unorm16)), None);
        assert_eq!(c(Format::Plain(Base::L, Channel::Unorm8)), None);
        assert_eq!(c(Format::Rgb10A2), None);
    }
}
