//! `glIsTexture` and `glIsProgramARB`: whether a name is an object. In both models a
//! name from `gen_*` is reserved but becomes an object only when first bound.

use super::Context;

/// # Chapter 5 — Object queries
///
/// `is_texture`, `is_program`, ...
impl Context {
    /// `glIsTexture`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let t = ctx.gen_textures(1).unwrap()[0];
    /// assert!(!ctx.is_texture(t)); // generated, never bound
    /// ctx.bind_texture(gl::TEXTURE_2D, t).unwrap();
    /// assert!(ctx.is_texture(t));
    /// ctx.delete_textures(&[t]);
    /// assert!(!ctx.is_texture(t) && !ctx.is_texture(0));
    /// ```
    pub fn is_texture(&self, id: u32) -> bool {
        self.textures
            .objects
            .get(&id)
            .is_some_and(|t| t.target.is_some())
    }

    /// `glIsProgramARB`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let p = ctx.gen_programs(1).unwrap()[0];
    /// assert!(!ctx.is_program(p)); // generated, never bound
    /// ctx.bind_program(gl::VERTEX_PROGRAM_ARB, p).unwrap();
    /// assert!(ctx.is_program(p));
    /// ctx.delete_programs(&[p]);
    /// assert!(!ctx.is_program(p) && !ctx.is_program(0));
    /// ```
    pub fn is_program(&self, id: u32) -> bool {
        id != 0
            && self
                .programs
                .objects
                .get(&id)
                .is_some_and(|p| p.target.is_some())
    }
}
