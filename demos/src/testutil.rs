//! Helpers the demo tests share: reading pixels of a headless frame.

use crate::demo::Demo;
use crate::headless;

/// A rendered frame: RGBA8, top row first.
pub struct Frame {
    pub w: u32,
    pub h: u32,
    pub px: Vec<u8>,
}

/// Renders frame `frame` of `demo` headless at `w`×`h`.
pub fn render(demo: &mut dyn Demo, w: u32, h: u32, frame: u32) -> Frame {
    let px = headless::render(demo, w, h, frame).unwrap();
    assert_eq!(px.len(), (w * h * 4) as usize);
    Frame { w, h, px }
}

impl Frame {
    /// The pixel at GL window coordinates (`x`, `y`), (0, 0) bottom-left, as floats.
    pub fn at(&self, x: u32, y: u32) -> [f32; 4] {
        let i = (((self.h - 1 - y) * self.w + x) * 4) as usize;
        let p = &self.px[i..i + 4];
        [p[0], p[1], p[2], p[3]].map(|c| f32::from(c) / 255.0)
    }

    /// How many different RGBA values the frame has.
    pub fn distinct(&self) -> usize {
        let mut v: Vec<&[u8]> = self.px.chunks_exact(4).collect();
        v.sort_unstable();
        v.dedup();
        v.len()
    }

    /// Pixels whose colour `pred` accepts.
    pub fn count(&self, pred: impl Fn([u8; 4]) -> bool) -> usize {
        self.px
            .chunks_exact(4)
            .filter(|p| pred([p[0], p[1], p[2], p[3]]))
            .count()
    }
}

/// Asserts each of the first `n` channels of `got` is within `tol` of `want`.
pub fn assert_near(got: [f32; 4], want: &[f32], tol: f32, what: &str) {
    for (i, w) in want.iter().enumerate() {
        assert!(
            (got[i] - w).abs() <= tol,
            "{what}: channel {i}: got {got:?}, want {want:?} (tolerance {tol})"
        );
    }
}

/// Asserts `frame` matches the reviewed reference `reference/NAME.png` (made by
/// `glemu-demos NAME --headless reference/NAME.png --size WxH --frames N --no-overlay`
/// and looked at; reference/README.md says why it has no oracle twin): every channel
/// within 2/255.
pub fn assert_matches_reference(name: &str, frame: &Frame) {
    assert_matches_png(name, frame, 0);
}

/// Asserts `frame` matches `reference/NAME.png`, which the oracle rendered from the GLSL
/// twin `reference/NAME.glsl.shader_test`: every channel within 2/255 except in at most
/// `outliers` pixels (where the two renderers' float rounding puts a sample on the other
/// side of a hard edge).
pub fn assert_matches_oracle(name: &str, frame: &Frame, outliers: usize) {
    assert_matches_png(name, frame, outliers);
}

fn assert_matches_png(name: &str, frame: &Frame, outliers: usize) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("reference")
        .join(format!("{name}.png"));
    let want = image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .to_rgba8();
    assert_eq!(want.dimensions(), (frame.w, frame.h), "{name}: size");
    let mut off = Vec::new();
    for (i, (a, b)) in frame
        .px
        .chunks_exact(4)
        .zip(want.as_raw().chunks_exact(4))
        .enumerate()
    {
        let d = a
            .iter()
            .zip(b)
            .map(|(x, y)| x.abs_diff(*y))
            .max()
            .unwrap_or(0);
        if d > 2 {
            off.push((i as u32 % frame.w, i as u32 / frame.w, d));
        }
    }
    assert!(
        off.len() <= outliers,
        "{name}: {} pixels differ by more than 2/255 (allowed {outliers}); first (x, y from the top, difference): {:?}",
        off.len(),
        &off[..off.len().min(8)]
    );
}
