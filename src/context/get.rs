//! `glGetIntegerv` for the objects and bindings glemu has: which object is bound where,
//! the viewport and scissor box, and the implementation limits apps size things by.

use super::fbo::MAX_COLOR_ATTACHMENTS;
use super::state::{MAX_LIGHTS, MAX_VERTEX_ATTRIBS};
use super::subroutines::{MAX_PROGRAM_SUBROUTINE_NUM, MAX_PROGRAM_SUBROUTINE_PARAMETERS};
use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_textures::Target;

/// `GL_TEXTURE0`: `ACTIVE_TEXTURE` answers `TEXTURE0 + unit`.
const TEXTURE0: u32 = 0x84C0;

fn texture_binding_target(pname: u32) -> Option<Target> {
    Some(match pname {
        gl::TEXTURE_BINDING_1D => Target::T1D,
        gl::TEXTURE_BINDING_2D => Target::T2D,
        gl::TEXTURE_BINDING_3D => Target::T3D,
        gl::TEXTURE_BINDING_CUBE_MAP => Target::Cube,
        gl::TEXTURE_BINDING_RECTANGLE => Target::Rect,
        gl::TEXTURE_BINDING_1D_ARRAY => Target::Array1D,
        gl::TEXTURE_BINDING_2D_ARRAY => Target::Array2D,
        gl::TEXTURE_BINDING_CUBE_MAP_ARRAY => Target::ArrayCube,
        gl::TEXTURE_BINDING_2D_MULTISAMPLE => Target::T2DMs,
        _ => return None,
    })
}

fn int(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

impl Context {
    /// `glGetIntegerv(pname)`: bindings (`VERTEX_ARRAY_BINDING`, `ARRAY_BUFFER_BINDING`,
    /// `ELEMENT_ARRAY_BUFFER_BINDING`, `DRAW_FRAMEBUFFER_BINDING` = `FRAMEBUFFER_BINDING`,
    /// `READ_FRAMEBUFFER_BINDING`, `RENDERBUFFER_BINDING`, `TEXTURE_BINDING_*` of the active
    /// unit, `ACTIVE_TEXTURE`), `VIEWPORT`, `SCISSOR_BOX`, `SAMPLES` of the draw
    /// framebuffer, and limits (`MAX_COLOR_ATTACHMENTS`, `MAX_DRAW_BUFFERS`,
    /// `MAX_VERTEX_ATTRIBS`, `MAX_TEXTURE_SIZE`, `MAX_RENDERBUFFER_SIZE`, `MAX_SAMPLES`,
    /// `MAX_LIGHTS`, `MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV`, `MAX_PROGRAM_SUBROUTINE_NUM_NV`).
    /// Other names are `INVALID_ENUM`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(8, 4).unwrap();
    /// let vao = ctx.gen_vertex_arrays(1)[0];
    /// ctx.bind_vertex_array(vao).unwrap();
    /// assert_eq!(ctx.get_integer_v(gl::VERTEX_ARRAY_BINDING).unwrap(), vec![vao as i32]);
    /// assert_eq!(ctx.get_integer_v(gl::VIEWPORT).unwrap(), vec![0, 0, 8, 4]);
    /// assert_eq!(ctx.get_integer_v(gl::TRIANGLES).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn get_integer_v(&self, pname: u32) -> Result<Vec<i32>> {
        if let Some(t) = texture_binding_target(pname) {
            let id = self
                .textures
                .bound
                .get(&(self.st.active_texture, t))
                .copied()
                .unwrap_or(0);
            return Ok(vec![int(id)]);
        }
        let buffer = |target: u32| int(self.buffers.bound.get(&target).copied().unwrap_or(0));
        let one = |v: u32| Ok(vec![int(v)]);
        match pname {
            gl::VERTEX_ARRAY_BINDING => one(self.arrays.bound_vao),
            gl::ARRAY_BUFFER_BINDING => Ok(vec![buffer(gl::ARRAY_BUFFER)]),
            gl::ELEMENT_ARRAY_BUFFER_BINDING => Ok(vec![buffer(gl::ELEMENT_ARRAY_BUFFER)]),
            gl::DRAW_FRAMEBUFFER_BINDING => one(self.fbos.draw),
            gl::READ_FRAMEBUFFER_BINDING => one(self.fbos.read),
            gl::RENDERBUFFER_BINDING => one(self.fbos.bound_rb),
            gl::ACTIVE_TEXTURE => one(TEXTURE0 + self.st.active_texture),
            gl::VIEWPORT => Ok(self.st.viewport.to_vec()),
            gl::SCISSOR_BOX => Ok(self.st.scissor.to_vec()),
            gl::SAMPLES => {
                let samples = match self.fbos.draw {
                    0 => Some(self.fb.samples()),
                    id => self
                        .fbos
                        .objects
                        .get(&id)
                        .and_then(|f| f.fb.as_ref())
                        .map(|f| f.samples()),
                };
                // GL counts a single-sampled framebuffer as 0 samples.
                one(samples.filter(|&s| s > 1).unwrap_or(0))
            }
            gl::MAX_COLOR_ATTACHMENTS | gl::MAX_DRAW_BUFFERS => one(MAX_COLOR_ATTACHMENTS as u32),
            gl::MAX_VERTEX_ATTRIBS => one(MAX_VERTEX_ATTRIBS as u32),
            gl::MAX_TEXTURE_SIZE | gl::MAX_RENDERBUFFER_SIZE => one(16384),
            gl::MAX_SAMPLES => one(16),
            gl::MAX_LIGHTS => one(MAX_LIGHTS as u32),
            gl::MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV => one(MAX_PROGRAM_SUBROUTINE_PARAMETERS),
            gl::MAX_PROGRAM_SUBROUTINE_NUM_NV => one(MAX_PROGRAM_SUBROUTINE_NUM),
            p => Err(Error::invalid_enum("integer state", p)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_follow_binds() {
        let mut ctx = Context::new(4, 4).unwrap();
        let get = |c: &Context, p| c.get_integer_v(p).unwrap();
        assert_eq!(get(&ctx, gl::VERTEX_ARRAY_BINDING), vec![0]);
        ctx.bind_buffer(gl::ARRAY_BUFFER, 7).unwrap();
        ctx.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, 9).unwrap();
        assert_eq!(get(&ctx, gl::ARRAY_BUFFER_BINDING), vec![7]);
        assert_eq!(get(&ctx, gl::ELEMENT_ARRAY_BUFFER_BINDING), vec![9]);
        let f = ctx.gen_framebuffers(2);
        ctx.bind_framebuffer(gl::DRAW_FRAMEBUFFER, f[0]).unwrap();
        ctx.bind_framebuffer(gl::READ_FRAMEBUFFER, f[1]).unwrap();
        assert_eq!(get(&ctx, gl::DRAW_FRAMEBUFFER_BINDING), vec![f[0] as i32]);
        assert_eq!(get(&ctx, gl::READ_FRAMEBUFFER_BINDING), vec![f[1] as i32]);
        ctx.active_texture(3).unwrap();
        ctx.bind_texture(gl::TEXTURE_CUBE_MAP, 5).unwrap();
        assert_eq!(get(&ctx, gl::ACTIVE_TEXTURE), vec![0x84C3]);
        assert_eq!(get(&ctx, gl::TEXTURE_BINDING_CUBE_MAP), vec![5]);
        assert_eq!(get(&ctx, gl::TEXTURE_BINDING_2D), vec![0]);
        ctx.active_texture(0).unwrap();
        assert_eq!(get(&ctx, gl::TEXTURE_BINDING_CUBE_MAP), vec![0]);
    }

    #[test]
    fn element_buffer_binding_is_per_vertex_array() {
        let mut ctx = Context::new(4, 4).unwrap();
        let v = ctx.gen_vertex_arrays(1)[0];
        ctx.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, 4).unwrap();
        ctx.bind_vertex_array(v).unwrap();
        assert_eq!(
            ctx.get_integer_v(gl::VERTEX_ARRAY_BINDING).unwrap(),
            vec![v as i32]
        );
        assert_eq!(
            ctx.get_integer_v(gl::ELEMENT_ARRAY_BUFFER_BINDING).unwrap(),
            vec![0]
        );
        ctx.bind_vertex_array(0).unwrap();
        assert_eq!(
            ctx.get_integer_v(gl::ELEMENT_ARRAY_BUFFER_BINDING).unwrap(),
            vec![4]
        );
    }

    #[test]
    fn samples_of_the_default_framebuffer() {
        let ctx = Context::with_samples(4, 4, 4).unwrap();
        assert_eq!(ctx.get_integer_v(gl::SAMPLES).unwrap(), vec![4]);
        let ctx = Context::new(4, 4).unwrap();
        assert_eq!(ctx.get_integer_v(gl::SAMPLES).unwrap(), vec![0]);
    }
}
