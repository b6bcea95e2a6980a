//! Single-object helpers beside GL's `gen_*` calls: `create_buffer()` and friends return
//! one new name, the way most code uses `glGen*(1, &name)`.

use super::textures::target_of;
use super::Context;
use crate::error::{Error, Result};

/// The one name a `gen_*(1)` call made.
fn one(names: Result<Vec<u32>>) -> Result<u32> {
    names?
        .into_iter()
        .next()
        .ok_or_else(|| Error::out_of_memory("no name was generated"))
}

/// # Chapter 5 — Object names
///
/// Single-object helpers beside the `gen_*` calls: `create_buffer`,
/// `create_texture(target)`, ...
impl Context {
    /// A new buffer name (`gen_buffers(1)`).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.create_buffer().unwrap();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, b).unwrap();
    /// ctx.buffer_data(gl::ARRAY_BUFFER, &[0.5f32, 1.0], gl::STATIC_DRAW).unwrap();
    /// assert!(ctx.is_buffer(b));
    /// ```
    pub fn create_buffer(&mut self) -> Result<u32> {
        one(self.gen_buffers(1))
    }

    /// A new texture object whose target is `target` already, as `glCreateTextures` makes
    /// them: binding it to another target is `INVALID_OPERATION`. An unknown target is
    /// `INVALID_ENUM`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let t = ctx.create_texture(gl::TEXTURE_CUBE_MAP).unwrap();
    /// assert_eq!(ctx.bind_texture(gl::TEXTURE_2D, t).unwrap_err().gl, GlError::InvalidOperation);
    /// assert_eq!(ctx.create_texture(gl::TRIANGLES).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn create_texture(&mut self, target: u32) -> Result<u32> {
        let (t, face) = target_of(target)?;
        if face.is_some() {
            return Err(Error::invalid_enum("texture target", target));
        }
        let id = one(self.gen_textures(1))?;
        if let Some(o) = self.textures.objects.get_mut(&id) {
            o.target = Some(t);
        }
        Ok(id)
    }

    /// A new framebuffer name (`gen_framebuffers(1)`).
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let f = ctx.create_framebuffer().unwrap();
    /// ctx.bind_framebuffer(glemu::gl::FRAMEBUFFER, f).unwrap();
    /// ```
    pub fn create_framebuffer(&mut self) -> Result<u32> {
        one(self.gen_framebuffers(1))
    }

    /// A new renderbuffer name (`gen_renderbuffers(1)`).
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let r = ctx.create_renderbuffer().unwrap();
    /// ctx.bind_renderbuffer(glemu::gl::RENDERBUFFER, r).unwrap();
    /// ```
    pub fn create_renderbuffer(&mut self) -> Result<u32> {
        one(self.gen_renderbuffers(1))
    }

    /// A new vertex array object name (`gen_vertex_arrays(1)`).
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let v = ctx.create_vertex_array().unwrap();
    /// ctx.bind_vertex_array(v).unwrap();
    /// ```
    pub fn create_vertex_array(&mut self) -> Result<u32> {
        one(self.gen_vertex_arrays(1))
    }

    /// A new program name (`gen_programs(1)`).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let p = ctx.create_program().unwrap();
    /// ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, p).unwrap();
    /// ```
    pub fn create_program(&mut self) -> Result<u32> {
        one(self.gen_programs(1))
    }

    /// A new sampler object (`gen_samplers(1)`).
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let s = ctx.create_sampler().unwrap();
    /// ctx.bind_sampler(0, s).unwrap();
    /// ```
    pub fn create_sampler(&mut self) -> Result<u32> {
        one(self.gen_samplers(1))
    }

    /// A new query name (`gen_queries(1)`).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let q = ctx.create_query().unwrap();
    /// ctx.begin_query(gl::SAMPLES_PASSED, q).unwrap();
    /// ```
    pub fn create_query(&mut self) -> Result<u32> {
        one(self.gen_queries(1))
    }

    /// A new transform feedback object name (`gen_transform_feedbacks(1)`).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let x = ctx.create_transform_feedback().unwrap();
    /// ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, x).unwrap();
    /// ```
    pub fn create_transform_feedback(&mut self) -> Result<u32> {
        one(self.gen_transform_feedbacks(1))
    }
}
