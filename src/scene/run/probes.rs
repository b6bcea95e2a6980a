//! Probes: pixels, rectangles, whole images and buffers compared with what a scene
//! expects (piglit's tolerance rules); a failed probe is recorded, not fatal.

use super::{DiffImages, Runner};
use crate::scene::command::ProbeRegion;
use crate::{gl, Error};

impl Runner {
    pub(super) fn probe_fail(&mut self, line: usize, msg: String) {
        self.failed = true;
        self.messages.push(format!("line {line}: {msg}"));
    }

    /// The id of a buffer the scene made with `buffer NAME SIZE`.
    pub(super) fn named_buffer(&self, name: &str) -> Result<u32, Error> {
        self.named_buffers
            .get(name)
            .copied()
            .ok_or_else(|| Error::invalid_operation(format!("no buffer named '{name}'")))
    }

    pub(super) fn probe_buffer(
        &mut self,
        line: usize,
        offset: u64,
        ty: &str,
        values: &[f64],
    ) -> Result<(), Error> {
        let size = match ty {
            "double" | "int64" | "uint64" => 8,
            _ => 4,
        };
        let bytes = self.ctx.get_buffer_sub_data(
            gl::COPY_READ_BUFFER,
            offset,
            values.len() as u64 * size,
        )?;
        for (k, (want, b)) in values
            .iter()
            .zip(bytes.chunks_exact(size as usize))
            .enumerate()
        {
            let mut w = [0u8; 8];
            w[..b.len()].copy_from_slice(b);
            let raw = u64::from_le_bytes(w);
            let (got, ok) = match ty {
                "float" => {
                    let g = f64::from(f32::from_bits(raw as u32));
                    (g, (g - want).abs() <= 1e-5 + 1e-5 * want.abs())
                }
                "double" => {
                    let g = f64::from_bits(raw);
                    (g, (g - want).abs() <= 1e-9 + 1e-9 * want.abs())
                }
                "int" => (
                    (raw as u32 as i32) as f64,
                    (raw as u32 as i32) as f64 == *want,
                ),
                "int64" => ((raw as i64) as f64, (raw as i64) as f64 == *want),
                "uint64" => (raw as f64, raw as f64 == *want),
                _ => (raw as u32 as f64, raw as u32 as f64 == *want),
            };
            if !ok {
                self.probe_fail(
                    line,
                    format!(
                        "buffer at byte {}: expected {want}, observed {got}",
                        offset + k as u64 * size
                    ),
                );
            }
        }
        Ok(())
    }

    pub(super) fn close(&self, got: [f32; 4], want: [f64; 4], rgba: bool) -> bool {
        let n = if rgba { 4 } else { 3 };
        (0..n).all(|i| (f64::from(got[i]) - want[i]).abs() <= self.tolerance[i])
    }

    pub(super) fn probe_color(
        &mut self,
        line: usize,
        region: &ProbeRegion,
        rgba: bool,
        expected: [f64; 4],
    ) -> Result<(), Error> {
        let (w, h) = self.ctx.size();
        let (w, h) = (w as i32, h as i32);
        let (x0, y0, rw, rh) = match *region {
            ProbeRegion::Pixel(x, y) => (x, y, 1, 1),
            ProbeRegion::Relative(fx, fy) => {
                let x = ((fx * f64::from(w)) as i32).min(w - 1);
                let y = ((fy * f64::from(h)) as i32).min(h - 1);
                (x, y, 1, 1)
            }
            ProbeRegion::Rect(x, y, rw, rh) => (x, y, rw, rh),
            ProbeRegion::RelativeRect(fx, fy, fw, fh) => (
                (fx * f64::from(w)) as i32,
                (fy * f64::from(h)) as i32,
                // A positive size (the parser checks) covers at least one pixel.
                ((fw * f64::from(w)) as i32).max(1),
                ((fh * f64::from(h)) as i32).max(1),
            ),
            ProbeRegion::All => (0, 0, w, h),
        };
        let px = self.read_probe(x0, y0, rw, rh)?;
        for (i, p) in px.iter().enumerate() {
            if !self.close(*p, expected, rgba) {
                let x = x0 + (i as i32 % rw.max(1));
                let y = y0 + (i as i32 / rw.max(1));
                let n = if rgba { 4 } else { 3 };
                self.probe_fail(
                    line,
                    format!(
                        "probe at ({x}, {y}): expected {:?}, observed {:?}",
                        &expected[..n],
                        &p[..n]
                    ),
                );
                break;
            }
        }
        Ok(())
    }

    /// The probed rectangle as floats: `RGBA`/`FLOAT`, or for integer colour buffers
    /// (which GL reads only with integer formats) their values converted.
    pub(super) fn read_probe(
        &self,
        x: i32,
        y: i32,
        w: i32,
        h: i32,
    ) -> Result<Vec<[f32; 4]>, Error> {
        match self
            .ctx
            .read_pixels_as::<[f32; 4]>(x, y, w, h, gl::RGBA, gl::FLOAT)
        {
            Err(_)
                if self
                    .ctx
                    .read_pixels(0, 0, 0, 0, gl::RGBA_INTEGER, gl::INT)
                    .is_ok() =>
            {
                let px: Vec<[i32; 4]> =
                    self.ctx
                        .read_pixels_as(x, y, w, h, gl::RGBA_INTEGER, gl::INT)?;
                Ok(px.into_iter().map(|p| p.map(|c| c as f32)).collect())
            }
            r => r,
        }
    }

    pub(super) fn probe_png(
        &mut self,
        line: usize,
        file: &str,
        tolerance: f64,
        pixels: usize,
    ) -> Result<(), Error> {
        let path = self.dir.join(file);
        let img = glemu_textures::load::open_rgba8(&path, crate::caps::MAX_TEXTURE_SIZE)
            .map_err(|e| Error::invalid_operation(format!("cannot read {e}")))?;
        let (w, h) = self.ctx.size();
        if img.width() != w || img.height() != h {
            self.probe_fail(
                line,
                format!(
                    "{file} is {}x{}, the framebuffer is {w}x{h}",
                    img.width(),
                    img.height()
                ),
            );
            return Ok(());
        }
        let ours = self.ctx.read_image()?.into_raw();
        let theirs = img.as_raw();
        let mut bad = 0usize;
        let mut diff = image::RgbaImage::new(w, h);
        for (i, (a, b)) in ours.chunks_exact(4).zip(theirs.chunks_exact(4)).enumerate() {
            let d = a
                .iter()
                .zip(b)
                .map(|(x, y)| (i32::from(*x) - i32::from(*y)).abs())
                .max()
                .unwrap_or(0);
            let px = if f64::from(d) > tolerance {
                bad += 1;
                [255, 0, 0, 255]
            } else {
                [a[0] / 3, a[1] / 3, a[2] / 3, 255]
            };
            diff.put_pixel(i as u32 % w, i as u32 / w, image::Rgba(px));
        }
        if bad > pixels {
            let name = format!("{file}.diff.png");
            let dpath = match &self.opts.diff_images {
                DiffImages::BesideReference => Some(self.dir.join(name)),
                DiffImages::In(d) => std::fs::create_dir_all(d).ok().map(|()| d.join(name)),
                DiffImages::Off => None,
            };
            let saved = dpath.filter(|p| diff.save(p).is_ok());
            self.probe_fail(
                line,
                format!(
                    "{bad} pixels differ from {file} by more than {tolerance}/255 (allowed {pixels}){}",
                    saved.map_or(String::new(), |p| format!("; see {}", p.display()))
                ),
            );
        }
        Ok(())
    }
}
