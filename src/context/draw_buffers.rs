//! Draw and read buffers (`glDrawBuffers`, `glDrawBuffer`, `glReadBuffer`): which colour
//! attachment each fragment colour output writes, and which one reads and blits read.
//!
//! A framebuffer object's storage has one plane per attached colour image, in attachment
//! order; the draw buffers become the rasterizer's map from plane to fragment output.

use super::fbo_state::{Buffers, Fbo, MAX_COLOR_ATTACHMENTS};
use super::Context;
use crate::error::{Error, Result};
use crate::gl;

/// `FRONT_LEFT`, `FRONT_RIGHT`, `BACK_LEFT`, `BACK_RIGHT`: the default framebuffer's
/// buffers `glDrawBuffers` names one by one. glemu's default framebuffer has one colour
/// buffer, which all of them (and `FRONT`, `BACK`, `LEFT`, `FRONT_AND_BACK` for the
/// single-buffer calls) stand for.
const FRONT_LEFT: u32 = gl::FRONT_LEFT;
const BACK_RIGHT: u32 = gl::BACK_RIGHT;
const LEFT: u32 = 0x0406;
const RIGHT: u32 = 0x0407;

fn attachment_index(buf: u32) -> Option<usize> {
    buf.checked_sub(gl::COLOR_ATTACHMENT0)
        .map(|i| i as usize)
        .filter(|&i| i < 32)
}

/// Checks one buffer name for a framebuffer object (`fbo`) or the default framebuffer;
/// `single` allows the multi-buffer names of `glDrawBuffer`/`glReadBuffer`.
fn check_buffer(buf: u32, fbo: bool, single: bool) -> Result<()> {
    let default_name = (FRONT_LEFT..=BACK_RIGHT).contains(&buf)
        || (single
            && matches!(
                buf,
                gl::FRONT | gl::BACK | LEFT | RIGHT | gl::FRONT_AND_BACK
            ));
    match (buf, attachment_index(buf)) {
        (gl::NONE, _) => Ok(()),
        (_, Some(i)) if fbo && i < MAX_COLOR_ATTACHMENTS => Ok(()),
        (_, Some(_)) => Err(Error::invalid_operation(format!(
            "{} is not a colour buffer of the bound framebuffer",
            gl::name(buf)
        ))),
        _ if default_name && !fbo => Ok(()),
        _ if default_name => Err(Error::invalid_operation(format!(
            "{} names a default-framebuffer buffer while a framebuffer object is bound",
            gl::name(buf)
        ))),
        _ => Err(Error::invalid_enum("colour buffer", buf)),
    }
}

/// Plane of the storage that holds attachment `k`: its rank among the attached colour
/// images.
fn plane_of(fbo: &Fbo, k: usize) -> Option<usize> {
    fbo.color.get(k)?.as_ref()?;
    Some(fbo.color.iter().take(k).flatten().count())
}

/// # Chapter 17.4.1 — Selecting draw and read buffers
impl Context {
    fn buffers_mut(&mut self) -> &mut Buffers {
        match self.fbos.draw {
            0 => &mut self.fbos.default_buffers.0,
            id => &mut self.fbos.objects.entry(id).or_default().buffers,
        }
    }

    /// `glDrawBuffers`: fragment colour output `i` writes the buffer `bufs[i]` names
    /// (`NONE` or `COLOR_ATTACHMENTn` for a framebuffer object; `NONE`, `FRONT_LEFT`,
    /// `BACK_LEFT`, ... for the default framebuffer); outputs past the list write
    /// nothing. More than 8 buffers is `INVALID_VALUE`; a name repeated, or one the bound
    /// framebuffer does not have, `INVALID_OPERATION`; a non-buffer enum `INVALID_ENUM`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let f = ctx.gen_framebuffers(1).unwrap()[0];
    /// ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
    /// ctx.draw_buffers(&[gl::NONE, gl::COLOR_ATTACHMENT0 + 1]).unwrap();
    /// let twice = [gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT0];
    /// assert_eq!(ctx.draw_buffers(&twice).unwrap_err().gl, GlError::InvalidOperation);
    /// assert_eq!(ctx.draw_buffers(&[gl::BACK]).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn draw_buffers(&mut self, bufs: &[u32]) -> Result<()> {
        if bufs.len() > MAX_COLOR_ATTACHMENTS {
            return Err(Error::invalid_value(format!(
                "{} draw buffers (max {MAX_COLOR_ATTACHMENTS})",
                bufs.len()
            )));
        }
        let fbo = self.fbos.draw != 0;
        for (i, &b) in bufs.iter().enumerate() {
            check_buffer(b, fbo, false)?;
            if b != gl::NONE && bufs.iter().skip(i + 1).any(|&o| o == b) {
                return Err(Error::invalid_operation(format!(
                    "draw buffer {} is listed twice",
                    gl::name(b)
                )));
            }
        }
        let mut draw = [gl::NONE; MAX_COLOR_ATTACHMENTS];
        for (d, &b) in draw.iter_mut().zip(bufs) {
            *d = b;
        }
        self.buffers_mut().draw = draw;
        Ok(())
    }

    /// `glDrawBuffer`: output 0 writes `buf` (`NONE`, `COLOR_ATTACHMENTn`, or for the
    /// default framebuffer `FRONT`, `BACK`, `LEFT`, `FRONT_AND_BACK`, ...).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.draw_buffer(gl::FRONT_AND_BACK).unwrap();
    /// let e = ctx.draw_buffer(gl::COLOR_ATTACHMENT0).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // the default framebuffer is bound
    /// ```
    pub fn draw_buffer(&mut self, buf: u32) -> Result<()> {
        check_buffer(buf, self.fbos.draw != 0, true)?;
        let mut draw = [gl::NONE; MAX_COLOR_ATTACHMENTS];
        draw[0] = buf;
        self.buffers_mut().draw = draw;
        Ok(())
    }

    /// `glReadBuffer`: the colour buffer reads and blits of the read framebuffer take.
    /// With `NONE`, colour reads are `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.read_buffer(gl::NONE).unwrap();
    /// assert_eq!(ctx.read_pixel(0, 0).unwrap_err().gl, GlError::InvalidOperation);
    /// ctx.read_buffer(gl::BACK).unwrap();
    /// assert!(ctx.read_pixel(0, 0).is_ok());
    /// ```
    pub fn read_buffer(&mut self, buf: u32) -> Result<()> {
        check_buffer(buf, self.fbos.read != 0, true)?;
        match self.fbos.read {
            0 => self.fbos.default_buffers.0.read = buf,
            id => self.fbos.objects.entry(id).or_default().buffers.read = buf,
        }
        Ok(())
    }

    /// The draw buffer state of the bound draw framebuffer and the read buffer of the
    /// bound read framebuffer.
    pub(crate) fn buffers(&self, id: u32) -> Buffers {
        match id {
            0 => self.fbos.default_buffers.0,
            id => self
                .fbos
                .objects
                .get(&id)
                .map(|f| f.buffers)
                .unwrap_or_default(),
        }
    }

    /// For each plane of the draw framebuffer's storage, the fragment output that writes
    /// it (what the rasterizer's `draw_buffers` takes).
    pub(crate) fn plane_outputs(&self) -> [Option<u8>; MAX_COLOR_ATTACHMENTS] {
        let mut map = [None; MAX_COLOR_ATTACHMENTS];
        let b = self.buffers(self.fbos.draw);
        match self.fbos.objects.get(&self.fbos.draw) {
            None => {
                // The default framebuffer's one plane takes the first output naming a
                // colour buffer.
                map[0] = b.draw.iter().position(|&d| d != gl::NONE).map(|i| i as u8);
            }
            Some(fbo) => {
                for (i, &d) in b.draw.iter().enumerate() {
                    let plane = attachment_index(d).and_then(|k| plane_of(fbo, k));
                    if let Some(slot) = plane.and_then(|p| map.get_mut(p)) {
                        *slot = Some(i as u8);
                    }
                }
            }
        }
        map
    }

    /// The plane of the read framebuffer's storage colour reads take.
    pub(crate) fn read_plane(&self) -> Result<usize> {
        let b = self.buffers(self.fbos.read);
        if b.read == gl::NONE {
            return Err(Error::invalid_operation("the read buffer is NONE"));
        }
        match self.fbos.objects.get(&self.fbos.read) {
            None => Ok(0),
            Some(fbo) => attachment_index(b.read)
                .and_then(|k| plane_of(fbo, k))
                .ok_or_else(|| {
                    Error::invalid_operation(format!(
                        "the read buffer {} has no image attached",
                        gl::name(b.read)
                    ))
                }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planes_follow_attachments_and_outputs_follow_draw_buffers() {
        let mut ctx = Context::new(4, 4).unwrap();
        assert_eq!(ctx.plane_outputs()[..2], [Some(0), None]);
        let f = ctx.gen_framebuffers(1).unwrap()[0];
        ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
        let rb = ctx.gen_renderbuffers(2).unwrap();
        for (k, &r) in [(1u32, &rb[0]), (3, &rb[1])] {
            ctx.bind_renderbuffer(gl::RENDERBUFFER, r).unwrap();
            ctx.renderbuffer_storage(gl::RENDERBUFFER, gl::RGBA8, 4, 4)
                .unwrap();
            ctx.framebuffer_renderbuffer(
                gl::FRAMEBUFFER,
                gl::COLOR_ATTACHMENT0 + k,
                gl::RENDERBUFFER,
                r,
            )
            .unwrap();
        }
        // Default draw buffers: output 0 to attachment 0, which has no image.
        assert_eq!(ctx.plane_outputs()[..2], [None, None]);
        ctx.draw_buffers(&[
            gl::COLOR_ATTACHMENT0 + 3,
            gl::NONE,
            gl::COLOR_ATTACHMENT0 + 1,
        ])
        .unwrap();
        // Attachment 1 is plane 0, attachment 3 plane 1.
        assert_eq!(ctx.plane_outputs()[..3], [Some(2), Some(0), None]);
        assert!(ctx.read_plane().is_err(), "attachment 0 has no image");
        ctx.read_buffer(gl::COLOR_ATTACHMENT0 + 3).unwrap();
        assert_eq!(ctx.read_plane().unwrap(), 1);
    }

    #[test]
    fn buffer_names_are_checked_per_framebuffer_kind() {
        let mut ctx = Context::new(4, 4).unwrap();
        assert!(ctx.draw_buffers(&[FRONT_LEFT, gl::NONE]).is_ok());
        assert!(ctx.draw_buffers(&[gl::NONE; 9]).is_err());
        let f = ctx.gen_framebuffers(1).unwrap()[0];
        ctx.bind_framebuffer(gl::FRAMEBUFFER, f).unwrap();
        let e = ctx.draw_buffers(&[FRONT_LEFT]).unwrap_err();
        assert_eq!(e.gl, crate::GlError::InvalidOperation);
        let e = ctx.read_buffer(gl::COLOR_ATTACHMENT0 + 8).unwrap_err();
        assert_eq!(e.gl, crate::GlError::InvalidOperation);
        let e = ctx.read_buffer(gl::TRIANGLES).unwrap_err();
        assert_eq!(e.gl, crate::GlError::InvalidEnum);
    }
}
