//! Rendering a demo frame without any window or display.

use crate::demo::{context_for, Demo};
use crate::Result;

/// Frames per second of the fixed clock headless rendering uses: frame `n` is drawn
/// at `n / FPS` seconds.
pub const FPS: f32 = 30.0;

/// The frame `frame` of `demo` at `width`×`height`, as RGBA8 rows, top row first.
pub fn render(demo: &mut dyn Demo, width: u32, height: u32, frame: u32) -> Result<Vec<u8>> {
    let mut ctx = context_for(demo, width, height)?;
    demo.draw(&mut ctx, frame as f32 / FPS)?;
    Ok(ctx.read_rgba8_top_down()?)
}

/// Renders like [`render`] and writes the PNG `path`.
pub fn render_png(
    demo: &mut dyn Demo,
    width: u32,
    height: u32,
    frame: u32,
    path: &std::path::Path,
) -> Result<()> {
    let px = render(demo, width, height, frame)?;
    image::save_buffer(path, &px, width, height, image::ExtendedColorType::Rgba8)?;
    Ok(())
}
