//! `probe ...` lines: the region, the expected colour or depth and the tolerance.

use super::args::*;
use super::{Command, ProbeRegion};

pub(super) fn parse_probe(first: &str, mut a: Args) -> Result<Command, String> {
    let relative = first == "relative";
    if relative && !a.eat("probe") {
        return Err("expected 'relative probe ...'".into());
    }
    let w = a.next("a probe kind")?;
    let cmd = match w {
        "rgba" | "rgb" => {
            let rgba = w == "rgba";
            let region = if relative {
                ProbeRegion::Relative(a.finite("x")?, a.finite("y")?)
            } else {
                ProbeRegion::Pixel(a.i32("x")?, a.i32("y")?)
            };
            Command::ProbeColor {
                region,
                rgba,
                expected: expected(&mut a, rgba)?,
            }
        }
        "rect" => {
            let k = a.next("rgb|rgba")?;
            let rgba = match k {
                "rgba" => true,
                "rgb" => false,
                _ => return Err(format!("expected rgb|rgba, found '{k}'")),
            };
            let region = if relative {
                let (x, y) = (a.finite("x")?, a.finite("y")?);
                let (w, h) = (a.finite("w")?, a.finite("h")?);
                if w <= 0.0 || h <= 0.0 {
                    return Err(format!("probe rect of size {w}x{h} checks no pixel"));
                }
                ProbeRegion::RelativeRect(x, y, w, h)
            } else {
                let (x, y, w, h) = (a.i32("x")?, a.i32("y")?, a.i32("w")?, a.i32("h")?);
                if w <= 0 || h <= 0 {
                    return Err(format!("probe rect of size {w}x{h} checks no pixel"));
                }
                ProbeRegion::Rect(x, y, w, h)
            };
            Command::ProbeColor {
                region,
                rgba,
                expected: expected(&mut a, rgba)?,
            }
        }
        "all" => {
            let k = a.next("rgb|rgba")?;
            let rgba = match k {
                "rgba" => true,
                "rgb" => false,
                _ => return Err(format!("expected rgb|rgba, found '{k}'")),
            };
            Command::ProbeColor {
                region: ProbeRegion::All,
                rgba,
                expected: expected(&mut a, rgba)?,
            }
        }
        "depth" if !relative => Command::ProbeDepth(a.i32("x")?, a.i32("y")?, a.finite("a depth")?),
        "stencil" if !relative => {
            Command::ProbeStencil(a.i32("x")?, a.i32("y")?, a.u32("a stencil value")?)
        }
        "sample" if !relative => {
            if !a.eat("rgba") {
                return Err("expected 'probe sample rgba x y SAMPLE (r, g, b, a)'".into());
            }
            Command::ProbeSample {
                x: a.i32("x")?,
                y: a.i32("y")?,
                sample: a.u32("a sample index")?,
                expected: [
                    a.finite("red")?,
                    a.finite("green")?,
                    a.finite("blue")?,
                    a.finite("alpha")?,
                ],
            }
        }
        "png" if !relative => {
            let file = a.next("a PNG file")?.to_string();
            let mut tolerance = 2.0;
            let mut pixels = 0;
            while let Some(k) = a.peek() {
                a.pos += 1;
                match k {
                    "tolerance" => tolerance = a.tolerance()?,
                    "pixels" => pixels = a.u32("a pixel count")? as usize,
                    _ => return Err(format!("expected 'tolerance T' or 'pixels N', found '{k}'")),
                }
            }
            Command::ProbePng {
                file,
                tolerance,
                pixels,
            }
        }
        "xfb" if !relative => {
            let index = a.u32("a buffer index")?;
            let offset = a.u32("a float offset")? as usize;
            Command::ProbeXfb {
                index,
                offset,
                values: a.rest_f32("a float")?,
            }
        }
        "primitives" if !relative => {
            let written = match a.next("generated|written")? {
                "generated" => false,
                "written" => true,
                k => return Err(format!("expected generated|written, found '{k}'")),
            };
            let stream = if a.eat("stream") {
                a.u32("a stream")?
            } else {
                0
            };
            Command::ProbePrimitives {
                written,
                stream,
                count: a.i64("a count")? as u64,
            }
        }
        "samples" if !relative => {
            a.eat("passed");
            Command::ProbeSamplesPassed(a.i64("a count")? as u64)
        }
        "atomic" if !relative => {
            a.eat("counter");
            Command::ProbeAtomicCounter {
                binding: a.u32("a binding")?,
                index: a.u32("an index")?,
                value: a.i64("a value")? as u32,
            }
        }
        "buffer" if !relative => {
            let name = a.next("a buffer name")?.to_string();
            let offset = a.u32("a byte offset")? as usize;
            let ty = a.next("a type")?.to_string();
            let values = a
                .rest()
                .iter()
                .map(|w| parse_f64(w).ok_or_else(|| format!("expected a value, found '{w}'")))
                .collect::<Result<_, _>>()?;
            Command::ProbeBuffer {
                name,
                offset,
                ty,
                values,
            }
        }
        "image" if !relative => {
            let unit = a.u32("an image unit")?;
            let x = a.u32("x")?;
            let y = a.u32("y")?;
            let z = if a.eat("layer") { a.u32("a layer")? } else { 0 };
            let mut values = Vec::new();
            while a.peek().is_some() {
                values.push(a.finite("a texel component")?);
            }
            if values.is_empty() || values.len() > 4 {
                return Err(format!(
                    "expected 1 to 4 texel components, found {}",
                    values.len()
                ));
            }
            Command::ProbeImage {
                unit,
                at: [x, y, z],
                values,
            }
        }
        k => return Err(format!("unknown probe '{k}'")),
    };
    a.done()?;
    Ok(cmd)
}

pub(super) fn expected(a: &mut Args, rgba: bool) -> Result<[f64; 4], String> {
    let r = a.finite("red")?;
    let g = a.finite("green")?;
    let b = a.finite("blue")?;
    let al = if rgba { a.finite("alpha")? } else { 1.0 };
    Ok([r, g, b, al])
}
