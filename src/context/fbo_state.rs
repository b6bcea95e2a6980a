//! A framebuffer object's state, below the modules that act on it (`fbo`,
//! `draw_buffers`, `render_texture`, `readback`): its attachment points and what they
//! hold, its draw and read buffers, the raster storage built for its layout, and the
//! renderbuffers it can attach.

use crate::error::{Error, Result};
use crate::gl;
use glemu_raster::{ColorFormat, DepthFormat, Framebuffer};
use glemu_textures::{Format, Texture};
use std::collections::HashMap;
use std::sync::Weak;

/// Colour attachment points.
pub(crate) const MAX_COLOR_ATTACHMENTS: usize = crate::caps::LIMITS.max_draw_buffers as usize;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Storage {
    Color(ColorFormat),
    Depth(DepthFormat),
}

/// A complete framebuffer's shape: what its raster storage is built for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) width: u32,
    pub(crate) height: u32,
    /// Samples per pixel as the attachments give it (0 for single-sampled images).
    pub(crate) samples: u32,
    /// One plane per attached colour image, in attachment order.
    pub(crate) colors: Vec<ColorFormat>,
    pub(crate) depth: DepthFormat,
    /// The attachments are layered (every one of them: completeness requires it).
    pub(crate) layered: bool,
}

/// A renderbuffer: its storage description and contents (a texture image of its format,
/// one level, `samples` per texel), which every framebuffer it is attached to loads and
/// stores; `version` counts stores so a framebuffer reloads only what changed. Only
/// framebuffers see renderbuffers, so their stores wait until another one needs them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Renderbuffer {
    pub(crate) storage: Option<(Storage, u32, u32, u32)>,
    pub(crate) image: Option<Texture>,
    pub(crate) version: u64,
    /// The framebuffer whose storage holds writes not yet stored into `image`: stores
    /// are deferred until another framebuffer needs the contents or that storage goes.
    pub(crate) dirty_in: Option<u32>,
    /// The internal format the app asked for (`image` may hold a wider one).
    pub(crate) requested: Option<Format>,
}

impl Renderbuffer {
    /// The image `copy_image_sub_data` reads and writes: only one stored in the format
    /// asked for, since a raw copy of a widened image (R8 kept as RGBA8 ...) would move
    /// other bits than GL's.
    pub(crate) fn raw_image(&self, name: u32) -> Result<&Texture> {
        let img = self
            .image
            .as_ref()
            .ok_or_else(|| Error::invalid_value(format!("renderbuffer {name} has no storage")))?;
        match self.requested {
            Some(f) if f == img.format() => Ok(img),
            f => Err(Error::not_supported(format!(
                "copy_image_sub_data of renderbuffer {name}: its {} is stored as {}",
                f.map_or("format", |f| f.name()),
                img.format().name()
            ))),
        }
    }
}

/// One image of a texture attached to a framebuffer: `layer` is the physical slice (array
/// layer, 3D slice, cube face, cube-array layer-face); a layered attachment covers every
/// slice of the level.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TexImage {
    pub id: u32,
    pub level: u32,
    pub layer: u32,
    pub layered: bool,
}

/// What an attachment point holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Attachment {
    Renderbuffer(u32),
    Texture(TexImage),
}

/// A framebuffer object.
#[derive(Debug, Default)]
pub(crate) struct Fbo {
    pub(crate) color: [Option<Attachment>; MAX_COLOR_ATTACHMENTS],
    pub(crate) depth: Option<Attachment>,
    pub(crate) stencil: Option<Attachment>,
    /// The storage draws render into, and the layout it was built for.
    pub(crate) fb: Option<Framebuffer>,
    pub(crate) layout: Option<Layout>,
    pub(crate) buffers: Buffers,
    /// The layer of layered attachments a draw is rendering (drawn one at a time).
    pub(crate) render_layer: u32,
    /// Renderbuffer id → the version of its contents `fb` holds.
    pub(crate) loaded: HashMap<u32, u64>,
    /// (texture image, layer) → the texture `fb` holds that image of. A change to the
    /// texture moves it out of this allocation (`Arc::make_mut` with only weak
    /// references left moves the value instead of copying its texels; the weak
    /// reference keeps the address from being reused), so an unchanged pointer means an
    /// unchanged image and the load is skipped.
    pub(crate) loaded_textures: HashMap<(TexImage, u32), Weak<Texture>>,
    /// Why `fb` could not be built for a complete layout (past the memory budget, or
    /// the allocation failed): draws, clears and reads report it.
    pub(crate) storage_error: Option<String>,
}

impl Fbo {
    pub(crate) fn holds(&self, a: Attachment) -> bool {
        self.color.contains(&Some(a)) || self.depth == Some(a) || self.stencil == Some(a)
    }

    /// Texture images attached anywhere.
    pub(crate) fn textures(&self) -> impl Iterator<Item = TexImage> + '_ {
        self.color
            .iter()
            .chain([&self.depth, &self.stencil])
            .filter_map(|a| match a {
                Some(Attachment::Texture(t)) => Some(*t),
                _ => None,
            })
    }
}

/// The draw and read buffer state of one framebuffer (GL 4.6 section 17.4.1): draw buffer
/// `i` names the image output `i` writes (`NONE`, `COLOR_ATTACHMENTn`, or for the default
/// framebuffer its one colour buffer).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Buffers {
    pub draw: [u32; MAX_COLOR_ATTACHMENTS],
    pub read: u32,
}

impl Buffers {
    /// GL's initial state of a framebuffer object: output 0 to attachment 0.
    pub(crate) fn object() -> Buffers {
        let mut draw = [gl::NONE; MAX_COLOR_ATTACHMENTS];
        draw[0] = gl::COLOR_ATTACHMENT0;
        Buffers {
            draw,
            read: gl::COLOR_ATTACHMENT0,
        }
    }

    /// GL's initial state of the (double-buffered) default framebuffer.
    pub(crate) fn default_framebuffer() -> Buffers {
        let mut draw = [gl::NONE; MAX_COLOR_ATTACHMENTS];
        draw[0] = gl::BACK;
        Buffers {
            draw,
            read: gl::BACK,
        }
    }
}

impl Default for Buffers {
    fn default() -> Buffers {
        Buffers::object()
    }
}

/// The default framebuffer's buffers, starting as GL's (`BACK`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct DefaultBuffers(pub Buffers);

impl Default for DefaultBuffers {
    fn default() -> DefaultBuffers {
        DefaultBuffers(Buffers::default_framebuffer())
    }
}
