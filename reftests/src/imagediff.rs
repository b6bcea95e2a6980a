//! Comparing a rendered RGBA8 image with a reference and drawing the difference.

/// An RGBA8 image, top row first (the PNG row order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgba8 {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes.
    pub data: Vec<u8>,
}

impl Rgba8 {
    /// An image from raw bytes; `None` unless there are exactly `width * height * 4`.
    pub fn new(width: u32, height: u32, data: Vec<u8>) -> Option<Rgba8> {
        let expected = (width as usize)
            .checked_mul(height as usize)?
            .checked_mul(4)?;
        (data.len() == expected).then_some(Rgba8 {
            width,
            height,
            data,
        })
    }

    /// Reads a PNG file as RGBA8.
    pub fn load_png(path: &std::path::Path) -> Result<Rgba8, String> {
        let img = image::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let rgba = img.to_rgba8();
        let (w, h) = rgba.dimensions();
        Rgba8::new(w, h, rgba.into_raw()).ok_or_else(|| format!("{}: bad size", path.display()))
    }

    /// Writes the image as a PNG file.
    pub fn save_png(&self, path: &std::path::Path) -> Result<(), String> {
        image::save_buffer(
            path,
            &self.data,
            self.width,
            self.height,
            image::ExtendedColorType::Rgba8,
        )
        .map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The outcome of a comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// Pixels where some channel differs by more than the tolerance.
    pub bad_pixels: u64,
    /// The largest channel difference anywhere (0..=255).
    pub max_diff: u8,
    /// Bad pixels in red over a dimmed grey copy of the reference.
    pub diff: Rgba8,
}

/// Compares `actual` with `reference`: a pixel is bad if any channel differs by more
/// than `tolerance` (in 1/255 steps, as `probe png` counts). `None` if the sizes differ.
pub fn compare(actual: &Rgba8, reference: &Rgba8, tolerance: u8) -> Option<Comparison> {
    if actual.width != reference.width || actual.height != reference.height {
        return None;
    }
    let mut bad_pixels = 0;
    let mut max_diff = 0u8;
    let mut diff = Vec::with_capacity(reference.data.len());
    for (a, r) in actual
        .data
        .chunks_exact(4)
        .zip(reference.data.chunks_exact(4))
    {
        let d = a
            .iter()
            .zip(r)
            .map(|(x, y)| x.abs_diff(*y))
            .max()
            .unwrap_or(0);
        max_diff = max_diff.max(d);
        if d > tolerance {
            bad_pixels += 1;
            diff.extend_from_slice(&[255, 0, 0, 255]);
        } else {
            // Dimmed luminance of the reference keeps the picture recognisable.
            let lum = (u32::from(r[0]) * 3 + u32::from(r[1]) * 6 + u32::from(r[2])) / 10;
            let g = (lum / 3) as u8;
            diff.extend_from_slice(&[g, g, g, 255]);
        }
    }
    let diff = Rgba8 {
        width: reference.width,
        height: reference.height,
        data: diff,
    };
    Some(Comparison {
        bad_pixels,
        max_diff,
        diff,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn img(px: &[[u8; 4]], w: u32) -> Rgba8 {
        let h = px.len() as u32 / w;
        Rgba8::new(w, h, px.iter().flatten().copied().collect()).expect("size")
    }

    #[test]
    fn counts_pixels_over_tolerance() {
        let a = img(&[[10, 10, 10, 255], [100, 0, 0, 255]], 2);
        let r = img(&[[12, 10, 10, 255], [100, 0, 9, 255]], 2);
        let c = compare(&a, &r, 2).expect("same size");
        assert_eq!(c.bad_pixels, 1);
        assert_eq!(c.max_diff, 9);
        assert_eq!(&c.diff.data[4..8], &[255, 0, 0, 255]);
        assert_ne!(&c.diff.data[0..4], &[255, 0, 0, 255]);
        assert_eq!(compare(&a, &r, 9).expect("same size").bad_pixels, 0);
    }

    #[test]
    fn size_mismatch_is_none() {
        let a = img(&[[0; 4], [0; 4]], 2);
        let b = img(&[[0; 4], [0; 4]], 1);
        assert!(compare(&a, &b, 0).is_none());
        assert!(Rgba8::new(2, 2, vec![0; 15]).is_none());
    }

    #[test]
    fn png_round_trip() {
        let a = img(&[[1, 2, 3, 4], [5, 6, 7, 8]], 1);
        let dir = tempfile::Builder::new()
            .prefix("glemu-reftests-")
            .tempdir()
            .expect("temp dir");
        let p = dir.path().join("rt.png");
        a.save_png(&p).expect("save");
        assert_eq!(Rgba8::load_png(&p).expect("load"), a);
    }
}
