//! Framebuffer and renderbuffer objects: multisampled colour/depth renderbuffers attached
//! to framebuffer objects, the draw/read bindings, and blits (with MSAA resolve).
//!
//! A framebuffer object owns the rasterizer storage draws write (built when its
//! attachments change); the attached images themselves (textures and renderbuffers) are
//! loaded into it and stored back around each write (see `render_texture`), so images
//! shared by several framebuffers keep one content.

use super::fbo_state::{
    Attachment, DefaultBuffers, Fbo, Layout, Renderbuffer, Storage, MAX_COLOR_ATTACHMENTS,
};
use super::framebuffer::from_raster;
use super::limits::{framebuffer_bytes, framebuffer_bytes_for};
use super::render_texture;
use super::snapshot::scissor_rect;
use super::textures::{from_tex, Textures};
use super::Context;
use crate::error::{Error, GlError, Result};
use crate::gl;
use glemu_raster::{ColorFormat, DepthFormat, Framebuffer};
use glemu_textures::{Base, Channel, Format, Target, Texture};
use std::collections::HashMap;

/// `GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT`: an attached image is missing or of the wrong
/// kind (here a depth image at a colour attachment point).
///
/// ```
/// use glemu::{gl, Context};
/// use glemu::context::fbo::FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
/// let mut ctx = Context::new(4, 4).unwrap();
/// let f = ctx.gen_framebuffers(1).unwrap()[0];
/// ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
/// ctx.bind_renderbuffer(gl::RENDERBUFFER, 1).unwrap();
/// ctx.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH24_STENCIL8, 4, 4).unwrap();
/// ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, 1).unwrap();
/// assert_eq!(ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap(), FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
/// ```
pub const FRAMEBUFFER_INCOMPLETE_ATTACHMENT: u32 = gl::FRAMEBUFFER_INCOMPLETE_ATTACHMENT;
/// `GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT`: nothing is attached.
///
/// ```
/// use glemu::{gl, Context};
/// use glemu::context::fbo::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT;
/// let mut ctx = Context::new(4, 4).unwrap();
/// let f = ctx.gen_framebuffers(1).unwrap()[0];
/// ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
/// assert_eq!(ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap(), FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT);
/// ```
pub const FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT: u32 =
    gl::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT;
/// `GL_FRAMEBUFFER_UNSUPPORTED`: a combination glemu cannot render to, e.g. attachments of
/// different sizes (GL allows them; glemu's framebuffers have one size).
///
/// ```
/// use glemu::{gl, Context};
/// use glemu::context::fbo::FRAMEBUFFER_UNSUPPORTED;
/// let mut ctx = Context::new(4, 4).unwrap();
/// let f = ctx.gen_framebuffers(1).unwrap()[0];
/// ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
/// ctx.bind_renderbuffer(gl::RENDERBUFFER, 1).unwrap();
/// ctx.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, 4, 4).unwrap();
/// ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, 1).unwrap();
/// ctx.bind_renderbuffer(gl::RENDERBUFFER, 2).unwrap();
/// ctx.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH24_STENCIL8, 8, 8).unwrap();
/// ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::DEPTH_ATTACHMENT, gl::RENDERBUFFER, 2).unwrap();
/// assert_eq!(ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap(), FRAMEBUFFER_UNSUPPORTED);
/// ```
pub const FRAMEBUFFER_UNSUPPORTED: u32 = gl::FRAMEBUFFER_UNSUPPORTED;
/// `GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE`: attachments with different sample counts.
///
/// ```
/// use glemu::{gl, Context};
/// use glemu::context::fbo::FRAMEBUFFER_INCOMPLETE_MULTISAMPLE;
/// let mut ctx = Context::new(4, 4).unwrap();
/// let f = ctx.gen_framebuffers(1).unwrap()[0];
/// ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
/// ctx.bind_renderbuffer(gl::RENDERBUFFER, 1).unwrap();
/// ctx.renderbuffer_storage_multisample(gl::RENDERBUFFER, 4, gl::RGBA8, 4, 4).unwrap();
/// ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, 1).unwrap();
/// ctx.bind_renderbuffer(gl::RENDERBUFFER, 2).unwrap();
/// ctx.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH24_STENCIL8, 4, 4).unwrap();
/// ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::DEPTH_ATTACHMENT, gl::RENDERBUFFER, 2).unwrap();
/// assert_eq!(ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap(), FRAMEBUFFER_INCOMPLETE_MULTISAMPLE);
/// ```
pub const FRAMEBUFFER_INCOMPLETE_MULTISAMPLE: u32 = gl::FRAMEBUFFER_INCOMPLETE_MULTISAMPLE;
/// `GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS`: a layered attachment beside a non-layered one.
///
/// ```
/// use glemu::{gl, Context};
/// use glemu::context::fbo::FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS;
/// let mut ctx = Context::new(4, 4).unwrap();
/// let (f, t) = (ctx.gen_framebuffers(1).unwrap()[0], ctx.gen_textures(1).unwrap()[0]);
/// ctx.bind_texture(gl::TEXTURE_2D_ARRAY, t).unwrap();
/// ctx.tex_image(gl::TEXTURE_2D_ARRAY, 0, gl::RGBA8, [4, 4, 3], gl::RGBA, gl::UNSIGNED_BYTE, None).unwrap();
/// ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
/// ctx.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, t, 0).unwrap(); // layered
/// ctx.bind_renderbuffer(gl::RENDERBUFFER, 1).unwrap();
/// ctx.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH24_STENCIL8, 4, 4).unwrap();
/// ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::DEPTH_ATTACHMENT, gl::RENDERBUFFER, 1).unwrap();
/// assert_eq!(ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap(), FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS);
/// ```
pub const FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS: u32 = gl::FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS;

/// The texture format holding a renderbuffer storage's values exactly (depth formats
/// keep a stencil, as the rasterizer's depth buffers do).
fn image_format(storage: Storage) -> Format {
    match storage {
        Storage::Color(ColorFormat::Rgba8Unorm) => Format::RGBA8,
        Storage::Color(ColorFormat::Srgb8Alpha8) => Format::Srgb8Alpha8,
        Storage::Color(ColorFormat::Rgba16F) => Format::Plain(Base::Rgba, Channel::F16),
        Storage::Color(ColorFormat::Rgba32F) => Format::Plain(Base::Rgba, Channel::F32),
        Storage::Color(ColorFormat::Rgba32Ui) => Format::Plain(Base::Rgba, Channel::U32),
        Storage::Color(ColorFormat::Rgba32I) => Format::Plain(Base::Rgba, Channel::I32),
        Storage::Depth(DepthFormat::D24S8) => Format::Depth24Stencil8,
        Storage::Depth(DepthFormat::D32FS8) => Format::Depth32FStencil8,
    }
}

/// Zeroed contents for new renderbuffer storage; depth starts at 1 (the far plane), as
/// a fresh framebuffer's does.
fn new_image(storage: Storage, w: u32, h: u32, samples: u32) -> Result<Texture> {
    let fmt = image_format(storage);
    let mut img = if samples > 1 {
        Texture::new_multisample(Target::T2DMs, fmt, [w, h, 1], samples)
    } else {
        Texture::new(Target::T2D, fmt, [w, h, 1], 1)
    }
    .map_err(from_tex)?;
    if let Storage::Depth(_) = storage {
        let n = w as usize * h as usize * samples as usize;
        let mut far = Vec::new();
        far.try_reserve_exact(n).map_err(|_| {
            Error::out_of_memory(format!(
                "the depth values of a {w}x{h}x{samples} renderbuffer"
            ))
        })?;
        far.resize(n, [1.0f32.to_bits(), 0, 0, 1.0f32.to_bits()]);
        img.write_texels(0, [0, 0, 0], [w, h, 1], &far)
            .map_err(from_tex)?;
    }
    Ok(img)
}

/// Framebuffer/renderbuffer objects and bindings.
#[derive(Debug, Default)]
pub(crate) struct Fbos {
    pub(crate) renderbuffers: HashMap<u32, Renderbuffer>,
    pub(crate) objects: HashMap<u32, Fbo>,
    next_rb: u32,
    next_fb: u32,
    pub(crate) bound_rb: u32,
    pub(crate) draw: u32,
    pub(crate) read: u32,
    pub(crate) default_buffers: DefaultBuffers,
}

fn storage_of(internal_format: u32) -> Result<Storage> {
    Ok(match internal_format {
        gl::RGBA | gl::RGBA8 => Storage::Color(ColorFormat::Rgba8Unorm),
        gl::SRGB8_ALPHA8 => Storage::Color(ColorFormat::Srgb8Alpha8),
        gl::RGBA16F => Storage::Color(ColorFormat::Rgba16F),
        gl::RGBA32F => Storage::Color(ColorFormat::Rgba32F),
        gl::RGBA32UI => Storage::Color(ColorFormat::Rgba32Ui),
        gl::RGBA32I => Storage::Color(ColorFormat::Rgba32I),
        gl::DEPTH24_STENCIL8 | gl::DEPTH_COMPONENT24 | gl::DEPTH_COMPONENT | gl::DEPTH_STENCIL => {
            Storage::Depth(DepthFormat::D24S8)
        }
        gl::DEPTH_COMPONENT32F | gl::DEPTH32F_STENCIL8 => Storage::Depth(DepthFormat::D32FS8),
        f => return Err(Error::invalid_enum("renderbuffer internal format", f)),
    })
}

/// Which attachment point an image is checked for.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Point {
    Color,
    Depth,
    Stencil,
}

/// An attached image's shape: storage, width, height, samples, layered.
type Shape = (Storage, u32, u32, u32, bool);

impl Fbos {
    /// The shape of the image at an attachment point, or the status that makes it
    /// incomplete (GL 4.6 section 9.4.1, "framebuffer attachment completeness").
    fn shape(
        &self,
        a: Attachment,
        point: Point,
        textures: &Textures,
    ) -> std::result::Result<Shape, u32> {
        let incomplete = Err(FRAMEBUFFER_INCOMPLETE_ATTACHMENT);
        let (storage, w, h, s, layered, has_stencil) = match a {
            Attachment::Renderbuffer(id) => match self.renderbuffers.get(&id) {
                Some(Renderbuffer {
                    storage: Some((st, w, h, s)),
                    ..
                }) => (*st, *w, *h, *s, false, matches!(st, Storage::Depth(_))),
                _ => return incomplete,
            },
            Attachment::Texture(t) => {
                let Some(o) = textures.objects.get(&t.id) else {
                    return incomplete;
                };
                let Some(img) = o.image.as_ref() else {
                    return incomplete;
                };
                let Some(l) = img.level(t.level) else {
                    return incomplete;
                };
                // The attached image must have been defined (every face when layered).
                let faces = match (img.target() == Target::Cube, t.layered) {
                    (true, true) => 0..6,
                    (true, false) => t.layer..t.layer + 1,
                    _ => 0..1,
                };
                if !faces.into_iter().all(|f| o.is_defined(f, t.level)) {
                    return incomplete;
                }
                if !t.layered && t.layer >= l.depth {
                    return incomplete;
                }
                let fmt = img.format();
                let Some(st) = render_texture::storage_of_texture(fmt) else {
                    return if fmt.is_depth() == (point == Point::Color) {
                        incomplete
                    } else {
                        Err(FRAMEBUFFER_UNSUPPORTED)
                    };
                };
                (
                    st,
                    l.width,
                    l.height,
                    img.samples(),
                    t.layered,
                    fmt.has_stencil(),
                )
            }
        };
        match (point, storage) {
            (Point::Color, Storage::Color(_)) | (Point::Depth, Storage::Depth(_)) => {}
            (Point::Stencil, Storage::Depth(_)) if has_stencil => {}
            _ => return incomplete,
        }
        Ok((storage, w, h, s, layered))
    }

    /// Completeness status and, when complete, the layout to build (GL 4.6 section 9.4.2).
    fn status(&self, fbo: &Fbo, textures: &Textures) -> (u32, Option<Layout>) {
        let mut dims: Option<Layout> = None;
        let mut colors = Vec::new();
        let mut depth = DepthFormat::D24S8;
        let points = fbo
            .color
            .iter()
            .map(|a| (*a, Point::Color))
            .chain([(fbo.depth, Point::Depth), (fbo.stencil, Point::Stencil)]);
        for (a, point) in points {
            let Some(a) = a else {
                continue;
            };
            let (storage, width, height, samples, layered) = match self.shape(a, point, textures) {
                Ok(shape) => shape,
                Err(status) => return (status, None),
            };
            match storage {
                // One plane per attached colour image, in attachment order.
                Storage::Color(f) => colors.push(f),
                Storage::Depth(f) => depth = f,
            }
            match &dims {
                Some(d) if d.samples != samples => {
                    return (FRAMEBUFFER_INCOMPLETE_MULTISAMPLE, None)
                }
                Some(d) if d.layered != layered => {
                    return (FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS, None)
                }
                // GL allows differing sizes (rendering is limited to the intersection);
                // glemu's framebuffers have one size.
                Some(d) if (d.width, d.height) != (width, height) => {
                    return (FRAMEBUFFER_UNSUPPORTED, None)
                }
                Some(_) => {}
                None => {
                    dims = Some(Layout {
                        width,
                        height,
                        samples,
                        colors: Vec::new(),
                        depth,
                        layered,
                    })
                }
            }
        }
        // Depth and stencil share one buffer in the rasterizer: two different images
        // cannot both be attached when either is a texture.
        if let (Some(d), Some(s)) = (fbo.depth, fbo.stencil) {
            let textured =
                matches!(d, Attachment::Texture(_)) || matches!(s, Attachment::Texture(_));
            if textured && d != s {
                return (FRAMEBUFFER_UNSUPPORTED, None);
            }
        }
        match dims {
            Some(d) => (
                gl::FRAMEBUFFER_COMPLETE,
                Some(Layout { colors, depth, ..d }),
            ),
            None => (FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT, None),
        }
    }

    /// Makes `id`'s storage match its attachments (rebuilt when the layout changed), then
    /// loads the attached images into it.
    /// `room`: bytes the memory budget has left for the storage (beside what the old
    /// storage holds).
    pub(crate) fn refresh(&mut self, id: u32, textures: &Textures, room: u64) {
        let Some(fbo) = self.objects.get(&id) else {
            return;
        };
        let layout = self.status(fbo, textures).1;
        if layout != fbo.layout {
            self.flush_held_by(id);
        }
        self.flush_for(id);
        let Some(fbo) = self.objects.get_mut(&id) else {
            return;
        };
        if layout != fbo.layout || fbo.fb.is_none() {
            let room = room.saturating_add(fbo.fb.as_ref().map_or(0, framebuffer_bytes));
            fbo.fb = None;
            fbo.storage_error = None;
            if let Some(l) = &layout {
                let (w, h, s) = (l.width, l.height, l.samples.max(1));
                let bytes = framebuffer_bytes_for(w, h, s, &l.colors);
                let built = match bytes <= room {
                    true => {
                        Framebuffer::new(w, h, s, &l.colors, l.depth).map_err(|e| e.to_string())
                    }
                    false => Err(format!(
                        "the storage of framebuffer {id} ({w}x{h}, {s} samples, {bytes} bytes) \
                         is past the memory budget ({room} bytes left; Context::set_memory_budget)"
                    )),
                };
                match built {
                    Ok(fb) => fbo.fb = Some(fb),
                    Err(e) => fbo.storage_error = Some(e),
                }
            }
            fbo.layout = layout;
            fbo.loaded.clear();
            fbo.loaded_textures.clear();
        }
        render_texture::load(id, fbo, textures, &self.renderbuffers);
    }

    /// Stores renderbuffer `rb`'s pending writes from the framebuffer holding them.
    pub(crate) fn flush_renderbuffer(&mut self, rb: u32) {
        let Some(r) = self.renderbuffers.get_mut(&rb) else {
            return;
        };
        let Some(holder) = r.dirty_in.take() else {
            return;
        };
        let Some(fbo) = self.objects.get_mut(&holder) else {
            return;
        };
        let (Some(fb), Some(img)) = (fbo.fb.as_ref(), r.image.as_mut()) else {
            return;
        };
        for (part, a) in render_texture::parts(fbo) {
            if a == Attachment::Renderbuffer(rb) {
                // A failed store leaves the old contents: the image's shape is the
                // storage's, so this cannot fail for a complete framebuffer.
                let _ = render_texture::store_image(fb, part, img, 0, 0..1);
            }
        }
        r.version += 1;
        fbo.loaded.insert(rb, r.version);
    }

    /// Stores every renderbuffer whose pending writes framebuffer `id` holds (before its
    /// storage is rebuilt, re-attached or deleted).
    pub(crate) fn flush_held_by(&mut self, id: u32) {
        let held: Vec<u32> = self
            .renderbuffers
            .iter()
            .filter(|(_, r)| r.dirty_in == Some(id))
            .map(|(k, _)| *k)
            .collect();
        for rb in held {
            self.flush_renderbuffer(rb);
        }
    }

    /// Stores the pending writes another framebuffer holds for the renderbuffers `id`
    /// is about to load.
    fn flush_for(&mut self, id: u32) {
        let Some(fbo) = self.objects.get(&id) else {
            return;
        };
        let wanted: Vec<u32> = render_texture::parts(fbo)
            .into_iter()
            .filter_map(|(_, a)| match a {
                Attachment::Renderbuffer(rb) => Some(rb),
                Attachment::Texture(_) => None,
            })
            .filter(|rb| {
                self.renderbuffers
                    .get(rb)
                    .and_then(|r| r.dirty_in)
                    .is_some_and(|h| h != id)
            })
            .collect();
        for rb in wanted {
            self.flush_renderbuffer(rb);
        }
    }

    fn users_of(&self, a: Attachment) -> Vec<u32> {
        self.objects
            .iter()
            .filter(|(_, f)| f.holds(a))
            .map(|(k, _)| *k)
            .collect()
    }
}

/// # Chapter 9 — Framebuffer objects and renderbuffers
///
/// Also `blit_framebuffer` (chapter 18.3.1).
impl Context {
    /// `glGenRenderbuffers`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.gen_renderbuffers(2).unwrap().len(), 2);
    /// ```
    pub fn gen_renderbuffers(&mut self, n: usize) -> Result<Vec<u32>> {
        let room = self.memory_room();
        let f = &mut self.fbos;
        super::names::generate(
            "renderbuffer",
            n,
            room,
            &mut f.next_rb,
            &mut f.renderbuffers,
            super::names::NONE_OUTSIDE,
            Renderbuffer::default,
        )
    }

    /// `glBindRenderbuffer(RENDERBUFFER, id)`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let rb = ctx.gen_renderbuffers(1).unwrap()[0];
    /// ctx.bind_renderbuffer(gl::RENDERBUFFER, rb).unwrap();
    /// assert!(ctx.bind_renderbuffer(gl::FRAMEBUFFER, rb).is_err());
    /// ```
    pub fn bind_renderbuffer(&mut self, target: u32, id: u32) -> Result<()> {
        if target != gl::RENDERBUFFER {
            return Err(Error::invalid_enum("renderbuffer target", target));
        }
        if id != 0 {
            self.fbos.renderbuffers.entry(id).or_default();
            self.fbos.next_rb = self.fbos.next_rb.max(id);
        }
        self.fbos.bound_rb = id;
        Ok(())
    }

    /// `glRenderbufferStorageMultisample` (samples 0 = single-sampled).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_renderbuffer(gl::RENDERBUFFER, 1).unwrap();
    /// ctx.renderbuffer_storage_multisample(gl::RENDERBUFFER, 4, gl::RGBA8, 16, 16).unwrap();
    /// let e = ctx.renderbuffer_storage_multisample(gl::RENDERBUFFER, 64, gl::RGBA8, 16, 16).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn renderbuffer_storage_multisample(
        &mut self,
        target: u32,
        samples: u32,
        internal_format: u32,
        w: u32,
        h: u32,
    ) -> Result<()> {
        if target != gl::RENDERBUFFER {
            return Err(Error::invalid_enum("renderbuffer target", target));
        }
        let storage = storage_of(internal_format)?;
        if samples > crate::caps::MAX_SAMPLES {
            return Err(Error::invalid_value(format!(
                "{samples} samples (max {})",
                crate::caps::MAX_SAMPLES
            )));
        }
        let max = crate::caps::MAX_TEXTURE_SIZE;
        if w == 0 || h == 0 || w > max || h > max {
            return Err(Error::invalid_value(format!("renderbuffer size {w}x{h}")));
        }
        // Sample counts round up to a supported one, as GL allows.
        let s = [1, 2, 4, 8, 16]
            .into_iter()
            .find(|&c| c >= samples.max(1))
            .unwrap_or(16);
        let id = self.fbos.bound_rb;
        let (in_use, budget) = (self.memory_in_use(), self.memory_budget());
        let rb = self
            .fbos
            .renderbuffers
            .get_mut(&id)
            .filter(|_| id != 0)
            .ok_or_else(|| Error::invalid_operation("no renderbuffer is bound"))?;
        let (target, size) = match s {
            1 => (Target::T2D, [w, h, 1]),
            _ => (Target::T2DMs, [w, h, 1]),
        };
        let bytes = Texture::bytes_for(target, image_format(storage), size, 1, s);
        let old = rb.image.as_ref().map_or(0, Texture::heap_bytes);
        let what = format_args!("a {w}x{h} renderbuffer with {s} samples");
        super::limits::charge(in_use, budget, bytes.unwrap_or(u64::MAX), old, &what)?;
        rb.image = Some(new_image(storage, w, h, s)?);
        rb.dirty_in = None;
        rb.storage = Some((storage, w, h, s));
        rb.requested = Format::from_gl(internal_format);
        rb.version += 1;
        for u in self.fbos.users_of(Attachment::Renderbuffer(id)) {
            self.refresh_fbo(u);
        }
        Ok(())
    }

    /// `glRenderbufferStorage`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_renderbuffer(gl::RENDERBUFFER, 1).unwrap();
    /// ctx.renderbuffer_storage(gl::RENDERBUFFER, gl::DEPTH24_STENCIL8, 8, 8).unwrap();
    /// ```
    pub fn renderbuffer_storage(
        &mut self,
        target: u32,
        internal_format: u32,
        w: u32,
        h: u32,
    ) -> Result<()> {
        self.renderbuffer_storage_multisample(target, 0, internal_format, w, h)
    }

    /// `glDeleteRenderbuffers`: deleted renderbuffers are unbound and detached from the
    /// bound framebuffers.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let rb = ctx.gen_renderbuffers(1).unwrap();
    /// ctx.bind_renderbuffer(gl::RENDERBUFFER, rb[0]).unwrap();
    /// ctx.delete_renderbuffers(&rb);
    /// assert!(!ctx.is_renderbuffer(rb[0]));
    /// assert_eq!(ctx.get_integer_v(gl::RENDERBUFFER_BINDING).unwrap(), vec![0]);
    /// ```
    pub fn delete_renderbuffers(&mut self, ids: &[u32]) {
        for id in ids {
            self.fbos.renderbuffers.remove(id);
            if self.fbos.bound_rb == *id {
                self.fbos.bound_rb = 0;
            }
        }
        self.detach_deleted(&[], ids);
    }

    /// `glIsRenderbuffer`: true for names bound or given storage at least once.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_renderbuffer(gl::RENDERBUFFER, 3).unwrap();
    /// assert!(ctx.is_renderbuffer(3));
    /// assert!(!ctx.is_renderbuffer(0));
    /// ```
    pub fn is_renderbuffer(&self, id: u32) -> bool {
        id != 0 && self.fbos.renderbuffers.contains_key(&id)
    }

    /// `glIsFramebuffer`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let f = ctx.gen_framebuffers(1).unwrap()[0];
    /// assert!(ctx.is_framebuffer(f));
    /// ctx.delete_framebuffers(&[f]);
    /// assert!(!ctx.is_framebuffer(f));
    /// ```
    pub fn is_framebuffer(&self, id: u32) -> bool {
        id != 0 && self.fbos.objects.contains_key(&id)
    }

    /// Detaches deleted textures and renderbuffers from the bound draw and read
    /// framebuffers (GL 4.6 sections 9.2.5 and 9.2.8: images attached to other
    /// framebuffers stay attached, and those framebuffers become incomplete).
    pub(crate) fn detach_deleted(&mut self, textures: &[u32], renderbuffers: &[u32]) {
        let gone = |a: &Option<Attachment>| match a {
            Some(Attachment::Texture(t)) => textures.contains(&t.id),
            Some(Attachment::Renderbuffer(r)) => renderbuffers.contains(r),
            None => false,
        };
        for id in [self.fbos.draw, self.fbos.read] {
            let Some(fbo) = self.fbos.objects.get_mut(&id) else {
                continue;
            };
            for a in fbo
                .color
                .iter_mut()
                .chain([&mut fbo.depth, &mut fbo.stencil])
            {
                if gone(a) {
                    *a = None;
                }
            }
            self.refresh_fbo(id);
        }
    }

    /// `glGenFramebuffers`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.gen_framebuffers(1).unwrap().len(), 1);
    /// ```
    pub fn gen_framebuffers(&mut self, n: usize) -> Result<Vec<u32>> {
        let room = self.memory_room();
        let f = &mut self.fbos;
        super::names::generate(
            "framebuffer",
            n,
            room,
            &mut f.next_fb,
            &mut f.objects,
            super::names::NONE_OUTSIDE,
            Fbo::default,
        )
    }

    /// `glBindFramebuffer(FRAMEBUFFER | DRAW_FRAMEBUFFER | READ_FRAMEBUFFER, id)`; 0 is the
    /// default framebuffer.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let f = ctx.gen_framebuffers(1).unwrap()[0];
    /// ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    /// assert!(ctx.bind_framebuffer(gl::RENDERBUFFER, f).is_err());
    /// ```
    pub fn bind_framebuffer(&mut self, target: u32, id: u32) -> Result<()> {
        let (draw, read) = match target {
            gl::FRAMEBUFFER => (true, true),
            gl::DRAW_FRAMEBUFFER => (true, false),
            gl::READ_FRAMEBUFFER => (false, true),
            t => return Err(Error::invalid_enum("framebuffer target", t)),
        };
        if id != 0 {
            self.fbos.objects.entry(id).or_default();
            self.fbos.next_fb = self.fbos.next_fb.max(id);
        }
        if draw {
            self.fbos.draw = id;
        }
        if read {
            self.fbos.read = id;
        }
        // Texture images may have changed since the framebuffer last used them.
        self.refresh_fbo(id);
        Ok(())
    }

    pub(crate) fn target_fbo(&self, target: u32) -> Result<u32> {
        match target {
            gl::FRAMEBUFFER | gl::DRAW_FRAMEBUFFER => Ok(self.fbos.draw),
            gl::READ_FRAMEBUFFER => Ok(self.fbos.read),
            t => Err(Error::invalid_enum("framebuffer target", t)),
        }
    }

    /// `glFramebufferRenderbuffer`: attaches renderbuffer `rb` (0 detaches) at
    /// `COLOR_ATTACHMENTn`, `DEPTH_ATTACHMENT`, `STENCIL_ATTACHMENT` or
    /// `DEPTH_STENCIL_ATTACHMENT` of the framebuffer bound to `target`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.framebuffer_renderbuffer(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, 1).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // the default framebuffer is bound
    /// ```
    pub fn framebuffer_renderbuffer(
        &mut self,
        target: u32,
        attachment: u32,
        rb_target: u32,
        rb: u32,
    ) -> Result<()> {
        let id = self.target_fbo(target)?;
        if rb_target != gl::RENDERBUFFER {
            return Err(Error::invalid_enum("renderbuffer target", rb_target));
        }
        if id == 0 {
            return Err(Error::invalid_operation(
                "the default framebuffer has no attachment points",
            ));
        }
        if rb != 0 && !self.fbos.renderbuffers.contains_key(&rb) {
            return Err(Error::invalid_operation(format!(
                "renderbuffer {rb} does not exist"
            )));
        }
        self.attach(
            id,
            attachment,
            (rb != 0).then_some(Attachment::Renderbuffer(rb)),
        )
    }

    /// Sets an attachment point of framebuffer `id` (not 0) and refreshes its storage.
    pub(crate) fn attach(&mut self, id: u32, attachment: u32, v: Option<Attachment>) -> Result<()> {
        // The storage may stop holding an image: store what it holds first.
        self.fbos.flush_held_by(id);
        let fbo = self.fbos.objects.entry(id).or_default();
        match attachment {
            a if (gl::COLOR_ATTACHMENT0..gl::COLOR_ATTACHMENT0 + MAX_COLOR_ATTACHMENTS as u32)
                .contains(&a) =>
            {
                fbo.color[(a - gl::COLOR_ATTACHMENT0) as usize] = v
            }
            gl::DEPTH_ATTACHMENT => fbo.depth = v,
            gl::STENCIL_ATTACHMENT => fbo.stencil = v,
            gl::DEPTH_STENCIL_ATTACHMENT => {
                fbo.depth = v;
                fbo.stencil = v;
            }
            a => return Err(Error::invalid_enum("attachment", a)),
        }
        self.refresh_fbo(id);
        Ok(())
    }

    /// `glCheckFramebufferStatus`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap(), gl::FRAMEBUFFER_COMPLETE);
    /// let f = ctx.gen_framebuffers(1).unwrap()[0];
    /// ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    /// assert_ne!(ctx.check_framebuffer_status(gl::FRAMEBUFFER).unwrap(), gl::FRAMEBUFFER_COMPLETE);
    /// ```
    pub fn check_framebuffer_status(&self, target: u32) -> Result<u32> {
        let id = self.target_fbo(target)?;
        if id == 0 {
            return Ok(gl::FRAMEBUFFER_COMPLETE);
        }
        Ok(self
            .fbos
            .objects
            .get(&id)
            .map(|f| self.fbos.status(f, &self.textures).0)
            .unwrap_or(FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT))
    }

    /// `glDeleteFramebuffers` (binding 0 where they were bound).
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let f = ctx.gen_framebuffers(1).unwrap();
    /// ctx.delete_framebuffers(&f);
    /// ```
    pub fn delete_framebuffers(&mut self, ids: &[u32]) {
        for id in ids {
            self.fbos.flush_held_by(*id);
            self.fbos.objects.remove(id);
            if self.fbos.draw == *id {
                self.fbos.draw = 0;
            }
            if self.fbos.read == *id {
                self.fbos.read = 0;
            }
        }
    }

    /// The framebuffer draws and clears write, holding the current contents of the
    /// texture images attached to it. After writing, [`Context::store_draw_target`] puts
    /// what was written back into those textures.
    pub(crate) fn draw_target(&mut self) -> Result<&mut Framebuffer> {
        let draw = self.fbos.draw;
        // Attached images may have been written since (uploads, other framebuffers).
        self.refresh_fbo(draw);
        self.storage_error(draw)?;
        match draw {
            0 => Ok(&mut self.fb),
            id => self
                .fbos
                .objects
                .get_mut(&id)
                .filter(|f| f.layout.is_some())
                .and_then(|f| f.fb.as_mut())
                .ok_or_else(|| {
                    Error::new(
                        GlError::InvalidFramebufferOperation,
                        "the draw framebuffer is not complete",
                    )
                }),
        }
    }

    /// `OUT_OF_MEMORY` when framebuffer `id`'s storage could not be built.
    fn storage_error(&self, id: u32) -> Result<()> {
        match self
            .fbos
            .objects
            .get(&id)
            .and_then(|f| f.storage_error.as_ref())
        {
            Some(e) => Err(Error::out_of_memory(e.clone())),
            None => Ok(()),
        }
    }

    /// Brings framebuffer `id`'s storage up to date with its attachments, within the
    /// memory budget.
    pub(crate) fn refresh_fbo(&mut self, id: u32) {
        let room = self.memory_room();
        self.fbos.refresh(id, &self.textures, room);
    }

    /// The framebuffer reads and blits read.
    pub(crate) fn read_target(&self) -> Result<&Framebuffer> {
        self.storage_error(self.fbos.read)?;
        match self.fbos.read {
            0 => Ok(&self.fb),
            id => self
                .fbos
                .objects
                .get(&id)
                .filter(|f| f.layout.is_some())
                .and_then(|f| f.fb.as_ref())
                .ok_or_else(|| {
                    Error::new(
                        GlError::InvalidFramebufferOperation,
                        "the read framebuffer is not complete",
                    )
                }),
        }
    }

    /// `glBlitFramebuffer` from the read to the draw framebuffer: `COLOR_BUFFER_BIT`
    /// (multisampled sources are resolved by averaging), `DEPTH_BUFFER_BIT`,
    /// `STENCIL_BUFFER_BIT`; `NEAREST` or `LINEAR` (colour only; sampled at the nearest
    /// source pixel centre).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.blit_framebuffer([0, 0, 4, 4], [0, 0, 4, 4], gl::COLOR_BUFFER_BIT, gl::NEAREST).unwrap();
    /// let e = ctx.blit_framebuffer([0, 0, 4, 4], [0, 0, 4, 4], gl::DEPTH_BUFFER_BIT, gl::LINEAR).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation);
    /// ```
    pub fn blit_framebuffer(
        &mut self,
        src: [i32; 4],
        dst: [i32; 4],
        mask: u32,
        filter: u32,
    ) -> Result<()> {
        let all = gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT;
        if mask & !all != 0 {
            return Err(Error::invalid_value(format!("blit mask 0x{mask:X}")));
        }
        if !matches!(filter, gl::NEAREST | gl::LINEAR) {
            return Err(Error::invalid_enum("blit filter", filter));
        }
        if filter == gl::LINEAR && mask & (gl::DEPTH_BUFFER_BIT | gl::STENCIL_BUFFER_BIT) != 0 {
            return Err(Error::invalid_operation(
                "depth/stencil blits must use NEAREST",
            ));
        }
        if src[0] == src[2] || src[1] == src[3] || dst[0] == dst[2] || dst[1] == dst[3] {
            return Ok(());
        }
        let scissor = scissor_rect(&self.st);
        let draw_size = {
            let d = self.draw_target()?;
            (d.width(), d.height())
        };
        // Read source values first: read and draw may be the same framebuffer.
        self.refresh_fbo(self.fbos.read);
        // Colour goes from the read buffer to every draw buffer; a NONE read buffer
        // copies no colour.
        let color = (mask & gl::COLOR_BUFFER_BIT != 0)
            .then(|| self.read_plane().ok())
            .flatten();
        let blit = glemu_raster::Blit {
            src,
            dst,
            scissor,
            filter: if filter == gl::LINEAR {
                glemu_raster::BlitFilter::Linear
            } else {
                glemu_raster::BlitFilter::Nearest
            },
            color,
            depth: mask & gl::DEPTH_BUFFER_BIT != 0,
            stencil: mask & gl::STENCIL_BUFFER_BIT != 0,
        };
        let planes: Vec<(usize, [bool; 4])> = self
            .draw_planes()
            .into_iter()
            .map(|(rt, _, m)| (rt, m))
            .collect();
        let texels = blit.read(self.read_target()?, draw_size);
        texels
            .write(self.draw_target()?, &planes)
            .map_err(from_raster)?;
        self.store_draw_target(false)
    }
}
