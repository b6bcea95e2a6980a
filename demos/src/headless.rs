//! Rendering a demo frame without any window or display.

use crate::demo::{context_for, Demo};
use crate::Result;

/// Frames per second of the fixed clock headless rendering uses: frame `n` is drawn
/// at `n / FPS` seconds.
pub const FPS: f32 = 30.0;

/// The context after drawing frame `frame` of `demo` at `width`×`height`.
pub fn rendered(
    demo: &mut dyn Demo,
    width: u32,
    height: u32,
    frame: u32,
) -> Result<glemu::Context> {
    let mut ctx = context_for(demo, width, height)?;
    demo.draw(&mut ctx, frame as f32 / FPS)?;
    Ok(ctx)
}

/// [`rendered`] with the overlay drawn over the frame, as the window shows it (the
/// headless clock's frame number where the window has fps).
pub fn rendered_with_overlay(
    name: &str,
    demo: &mut dyn Demo,
    width: u32,
    height: u32,
    frame: u32,
) -> Result<glemu::Context> {
    let mut ctx = rendered(demo, width, height, frame)?;
    let rate = format!("frame {frame} (headless)");
    let lines = crate::overlay::lines(name, &rate, &demo.status(), demo.keys());
    crate::overlay::Overlay::default().draw(&mut ctx, &lines)?;
    Ok(ctx)
}

/// The frame `frame` of `demo` at `width`×`height`, as RGBA8 rows, top row first.
pub fn render(demo: &mut dyn Demo, width: u32, height: u32, frame: u32) -> Result<Vec<u8>> {
    Ok(rendered(demo, width, height, frame)?
        .read_image()?
        .into_raw())
}

/// Renders like [`render`] and writes the PNG `path`.
pub fn render_png(
    demo: &mut dyn Demo,
    width: u32,
    height: u32,
    frame: u32,
    path: &std::path::Path,
) -> Result<()> {
    rendered(demo, width, height, frame)?.save_png(path)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_round_trips_the_frame() {
        let path = std::env::temp_dir().join(format!("glemu-demos-{}.png", std::process::id()));
        let mut demo = crate::legacy::Legacy::default();
        let want = render(&mut demo, 24, 16, 3).unwrap();
        render_png(&mut demo, 24, 16, 3, &path).unwrap();
        let got = image::open(&path).unwrap().to_rgba8();
        let _ = std::fs::remove_file(&path);
        assert_eq!(got.dimensions(), (24, 16));
        assert_eq!(got.into_raw(), want);
    }

    #[test]
    fn unwritable_path_is_an_error() {
        let mut demo = crate::legacy::Legacy::default();
        let bad = std::path::Path::new("/nonexistent-dir/x.png");
        assert!(render_png(&mut demo, 8, 8, 0, bad).is_err());
    }
}
