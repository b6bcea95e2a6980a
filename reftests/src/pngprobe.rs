//! The `probe png FILE [tolerance T] [pixels N]` line of a scene: which reference image the
//! harness compares a failed scene's output with, and how strictly.

/// A scene's `probe png` settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PngProbe {
    /// Reference file name, relative to the scene.
    pub file: String,
    /// Largest allowed channel difference, in 1/255 steps (default 2, as the oracle).
    pub tolerance: u8,
    /// Number of pixels allowed to exceed it (default 0).
    pub pixels: u64,
}

/// The last `probe png` line of a scene text, if any.
pub fn find(text: &str) -> Option<PngProbe> {
    let mut found = None;
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() < 3 || words[0] != "probe" || words[1] != "png" {
            continue;
        }
        let mut p = PngProbe {
            file: words[2].to_string(),
            tolerance: 2,
            pixels: 0,
        };
        let mut rest = words[3..].chunks_exact(2);
        for kv in &mut rest {
            match kv[0] {
                "tolerance" => p.tolerance = kv[1].parse::<f64>().ok()?.clamp(0.0, 255.0) as u8,
                "pixels" => p.pixels = kv[1].parse().ok()?,
                _ => return None,
            }
        }
        if !rest.remainder().is_empty() {
            return None;
        }
        found = Some(p);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_options_and_defaults() {
        let p = find("[test]\nclear\nprobe png a.png tolerance 3 pixels 40\n").expect("line");
        assert_eq!(
            p,
            PngProbe {
                file: "a.png".into(),
                tolerance: 3,
                pixels: 40
            }
        );
        let p = find("probe png b.png\n").expect("line");
        assert_eq!((p.tolerance, p.pixels), (2, 0));
        assert!(find("probe rgba 1 2 0 0 0 1\n").is_none());
        assert!(find("probe png c.png tolerance\n").is_none());
    }
}
