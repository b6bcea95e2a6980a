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

    /// The demo's keys, as the overlay lists them (`"w wireframe  +/- level"`).
    fn keys(&self) -> &'static str {
        ""
    }

    /// What the keys have set, for the overlay (`"level 4, EQUAL"`); empty for nothing.
    fn status(&self) -> String {
        String::new()
    }
}

/// The demos, by the name the command line takes, with a one-line description.
pub const NAMES: [(&str, &str); 8] = [
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
    (
        "terrain",
        "tessellation + geometry program: hills, level +/-, spacing s, GP wireframe overlay w",
    ),
    (
        "particles",
        "stream-out: vertex-program simulation, transform feedback ping-pong, GP sprites, +/- count",
    ),
    (
        "supersample",
        "IPAS/IPAO programmable supersampling beside plain shading, split screen, MSAA m",
    ),
    (
        "emulator",
        "emulator-form NVgp5 frame: CBUFFER/LDC, ATOMCTR, ATOMB/LDB/STB, 4x MSAA blit, heat map h",
    ),
];

/// The demo called `name`, or `None`.
pub fn by_name(name: &str) -> Option<Box<dyn Demo>> {
    match name {
        "tess" => Some(Box::new(crate::tess::Tess::default())),
        "sprites" => Some(Box::new(crate::sprites::Sprites::default())),
        "lit" => Some(Box::new(crate::lit::Lit::default())),
        "legacy" => Some(Box::new(crate::legacy::Legacy::default())),
        "terrain" => Some(Box::new(crate::terrain::Terrain::default())),
        "particles" => Some(Box::new(crate::particles::Particles::default())),
        "supersample" => Some(Box::new(crate::supersample::Supersample::default())),
        "emulator" => Some(Box::new(crate::emulator::Emulator::default())),
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

    /// Every demo animates (time reaches its parameters) and a frame is reproducible.
    #[test]
    fn frames_move_with_time_and_repeat_exactly() {
        for (name, _) in NAMES {
            let frame = |n| {
                let mut demo = by_name(name).unwrap();
                crate::headless::render(demo.as_mut(), 48, 36, n).unwrap()
            };
            let (a, b, again) = (frame(0), frame(15), frame(15));
            assert_ne!(a, b, "{name}: frames 0 and 15 are the same");
            assert_eq!(b, again, "{name}: frame 15 differs between runs");
        }
    }

    #[test]
    fn one_context_survives_a_resize() {
        for (name, _) in NAMES {
            let mut demo = by_name(name).unwrap();
            let mut ctx = context_for(demo.as_mut(), 32, 32).unwrap();
            demo.draw(&mut ctx, 0.5).unwrap();
            ctx.resize_framebuffer(40, 20, demo.samples()).unwrap();
            demo.draw(&mut ctx, 0.5).unwrap();
            assert_eq!(ctx.size(), (40, 20), "{name}");
            assert_eq!(ctx.read_image().unwrap().len(), 40 * 20 * 4, "{name}");
        }
    }
}
