//! The shape every demo has, and the list of them by name.

use crate::Result;
use glemu::Context;

/// One demo: state made once, then frames drawn from a time in seconds.
pub trait Demo {
    /// Samples per pixel the framebuffer should have.
    fn samples(&self) -> u32 {
        1
    }

    /// Loads programs and uploads buffers/textures; called once on a fresh context.
    fn setup(&mut self, ctx: &mut Context) -> Result<()>;

    /// Clears and draws the frame at time `t` seconds into the whole framebuffer
    /// (the size may change between frames: read it from `ctx.size()`).
    fn draw(&mut self, ctx: &mut Context, t: f32) -> Result<()>;

    /// A key was pressed (the window forwards letters); demos may toggle things.
    fn key(&mut self, _key: char) {}
}

/// The demos, by the name the command line takes, with a one-line description.
pub const NAMES: [(&str, &str); 4] = [
    (
        "tess",
        "NV_tessellation_program5: a rippling surface, levels from distance to a moving focus",
    ),
    (
        "sprites",
        "NV_gpu_program5 geometry program: points -> sprites, INVOCATIONS 3 kaleidoscope",
    ),
    (
        "lit",
        "ARB vertex + fragment programs: textured, per-pixel lit cube with 4x MSAA",
    ),
    (
        "legacy",
        "!!VP1.0 (tracked MVP matrix) + !!FP1.0 (DECLAREd time) plasma",
    ),
];

/// The demo called `name`, or `None`.
pub fn by_name(name: &str) -> Option<Box<dyn Demo>> {
    match name {
        "tess" => Some(Box::new(crate::tess::Tess::default())),
        "sprites" => Some(Box::new(crate::sprites::Sprites::default())),
        "lit" => Some(Box::new(crate::lit::Lit::default())),
        "legacy" => Some(Box::new(crate::legacy::Legacy::default())),
        _ => None,
    }
}

/// A context of `width`×`height` set up for `demo`.
pub fn context_for(demo: &mut dyn Demo, width: u32, height: u32) -> Result<Context> {
    let mut ctx = Context::with_samples(width, height, demo.samples())?;
    demo.setup(&mut ctx)?;
    Ok(ctx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_name_makes_a_demo() {
        for (name, _) in NAMES {
            assert!(by_name(name).is_some(), "{name}");
        }
        assert!(by_name("nope").is_none());
    }
}
