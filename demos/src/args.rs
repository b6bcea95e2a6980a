//! The command line: `glemu-demos <demo> [--headless OUT.png] [--frames N] [--size WxH]`.

use crate::DemoError;
use std::path::PathBuf;

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Args {
    /// Demo name (see [`crate::NAMES`]).
    pub demo: String,
    /// Render to this PNG instead of opening a window.
    pub headless: Option<PathBuf>,
    /// Headless: the frame to render. Windowed: quit after this many frames.
    pub frames: Option<u32>,
    /// Framebuffer (and initial window) size.
    pub size: (u32, u32),
    /// Draw the overlay (fps and keys); `--no-overlay` turns it off.
    pub overlay: bool,
    /// Keys pressed before the first frame (`--keys hm`), as if typed in the window.
    pub keys: String,
}

/// Help text listing the demos.
pub fn usage() -> String {
    let mut s = String::from(
        "glemu-demos <demo> [--headless OUT.png] [--frames N] [--size WxH] [--no-overlay] [--keys KEYS]\n\
         \x20 --headless OUT.png  render frame N (default 0) to OUT.png, no window\n\
         \x20 --frames N          headless: which frame; windowed: quit after N frames\n\
         \x20 --size WxH          framebuffer size (default 640x480)\n\
         \x20 --no-overlay        no text over the frame (fps or frame, the demo's keys)\n\
         \x20 --keys KEYS         press these keys before the first frame (e.g. --keys h)\n\
         keys: Esc quits, o toggles the overlay; each demo's own keys are in its overlay\n\
         demos:\n",
    );
    for (name, what) in crate::NAMES {
        s.push_str(&format!("  {name:12} {what}\n"));
    }
    s
}

fn value<'a>(it: &mut impl Iterator<Item = &'a str>, flag: &str) -> Result<&'a str, DemoError> {
    it.next()
        .ok_or_else(|| DemoError::Usage(format!("{flag} needs a value")))
}

fn size(s: &str) -> Result<(u32, u32), DemoError> {
    let bad = || DemoError::Usage(format!("--size wants WxH, got '{s}'"));
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.parse().map_err(|_| bad())?;
    let h: u32 = h.parse().map_err(|_| bad())?;
    if w == 0 || h == 0 || w > 8192 || h > 8192 {
        return Err(bad());
    }
    Ok((w, h))
}

/// Parses the arguments after the program name.
pub fn parse<'a>(args: impl IntoIterator<Item = &'a str>) -> Result<Args, DemoError> {
    let mut it = args.into_iter();
    let mut out = Args {
        demo: String::new(),
        headless: None,
        frames: None,
        size: (640, 480),
        overlay: true,
        keys: String::new(),
    };
    while let Some(a) = it.next() {
        match a {
            "--headless" => out.headless = Some(PathBuf::from(value(&mut it, a)?)),
            "--frames" => {
                let v = value(&mut it, a)?;
                let n = v
                    .parse()
                    .map_err(|_| DemoError::Usage(format!("--frames wants a count, got '{v}'")))?;
                out.frames = Some(n);
            }
            "--size" => out.size = size(value(&mut it, a)?)?,
            "--no-overlay" => out.overlay = false,
            "--keys" => out.keys = value(&mut it, a)?.to_string(),
            "-h" | "--help" => return Err(DemoError::Usage(usage())),
            flag if flag.starts_with('-') => {
                return Err(DemoError::Usage(format!(
                    "unknown option {flag}\n{}",
                    usage()
                )))
            }
            name if out.demo.is_empty() => out.demo = name.to_string(),
            extra => return Err(DemoError::Usage(format!("unexpected argument '{extra}'"))),
        }
    }
    if out.demo.is_empty() {
        return Err(DemoError::Usage(usage()));
    }
    if crate::by_name(&out.demo).is_none() {
        return Err(DemoError::Usage(format!(
            "no demo '{}'\n{}",
            out.demo,
            usage()
        )));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headless_with_frame_and_size() {
        let a = parse([
            "tess",
            "--headless",
            "o.png",
            "--frames",
            "7",
            "--size",
            "32x16",
        ])
        .unwrap();
        assert_eq!(a.demo, "tess");
        assert_eq!(a.headless, Some(PathBuf::from("o.png")));
        assert_eq!(a.frames, Some(7));
        assert_eq!(a.size, (32, 16));
    }

    #[test]
    fn bad_input_is_a_usage_error() {
        for bad in [
            &[][..],
            &["nope"][..],
            &["tess", "--frames"][..],
            &["tess", "--frames", "x"][..],
            &["tess", "--size", "0x4"][..],
            &["tess", "--bogus"][..],
            &["tess", "lit"][..],
        ] {
            assert!(
                matches!(parse(bad.iter().copied()), Err(DemoError::Usage(_))),
                "{bad:?}"
            );
        }
    }
}
