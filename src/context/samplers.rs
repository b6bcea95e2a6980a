//! Sampler objects (ARB_sampler_objects, GL 3.3): filtering and wrapping state bound per
//! texture unit that overrides the sampling state of whatever texture the unit holds.

use super::textures::apply_param;
use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_textures::SamplerState;

/// Parameters that belong to the texture, not to sampler objects (GL 4.6 table 23.18
/// vs 23.19): setting them on a sampler is `INVALID_ENUM`.
fn texture_only(pname: u32) -> bool {
    matches!(
        pname,
        gl::TEXTURE_BASE_LEVEL
            | gl::TEXTURE_MAX_LEVEL
            | gl::TEXTURE_SWIZZLE_R
            | gl::TEXTURE_SWIZZLE_G
            | gl::TEXTURE_SWIZZLE_B
            | gl::TEXTURE_SWIZZLE_A
            | gl::DEPTH_TEXTURE_MODE
    )
}

/// # Chapter 8.2 — Sampler objects
impl Context {
    /// `glGenSamplers`: new sampler names, each with GL's initial sampler state.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let s = ctx.gen_samplers(2).unwrap();
    /// assert!(ctx.is_sampler(s[0]) && ctx.is_sampler(s[1]) && s[0] != s[1]);
    /// ```
    pub fn gen_samplers(&mut self, n: usize) -> Result<Vec<u32>> {
        let room = self.memory_room();
        let t = &mut self.textures;
        super::names::generate(
            "sampler",
            n,
            room,
            &mut t.next_sampler,
            &mut t.samplers,
            super::names::NONE_OUTSIDE,
            SamplerState::default,
        )
    }

    /// `glIsSampler`.
    ///
    /// ```
    /// let ctx = glemu::Context::new(4, 4).unwrap();
    /// assert!(!ctx.is_sampler(7));
    /// ```
    pub fn is_sampler(&self, id: u32) -> bool {
        self.textures.samplers.contains_key(&id)
    }

    /// `glDeleteSamplers`: deleting a bound sampler unbinds it from every unit; unknown
    /// names and 0 are ignored.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let s = ctx.gen_samplers(1).unwrap();
    /// ctx.bind_sampler(3, s[0]).unwrap();
    /// ctx.delete_samplers(&s);
    /// assert!(!ctx.is_sampler(s[0]));
    /// assert_eq!(ctx.sampler_binding(3).unwrap(), 0);
    /// ```
    pub fn delete_samplers(&mut self, ids: &[u32]) {
        for id in ids {
            self.textures.samplers.remove(id);
            self.textures.sampler_bound.retain(|_, b| b != id);
        }
    }

    /// `glBindSampler`: binds sampler `id` (0 = none) to texture unit `unit`. A unit at
    /// or beyond `MAX_COMBINED_TEXTURE_IMAGE_UNITS` is `INVALID_VALUE`; a name that
    /// `gen_samplers` did not return is `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let s = ctx.gen_samplers(1).unwrap()[0];
    /// ctx.bind_sampler(0, s).unwrap();
    /// assert_eq!(ctx.bind_sampler(0, s + 1).unwrap_err().gl, GlError::InvalidOperation);
    /// assert_eq!(ctx.bind_sampler(4096, s).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn bind_sampler(&mut self, unit: u32, id: u32) -> Result<()> {
        check_unit(unit)?;
        if id == 0 {
            self.textures.sampler_bound.remove(&unit);
            return Ok(());
        }
        if !self.is_sampler(id) {
            return Err(Error::invalid_operation(format!(
                "{id} is not a sampler object name"
            )));
        }
        self.textures.sampler_bound.insert(unit, id);
        Ok(())
    }

    /// `SAMPLER_BINDING` of a unit: the sampler bound to it, or 0.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.sampler_binding(1).unwrap(), 0);
    /// ```
    pub fn sampler_binding(&self, unit: u32) -> Result<u32> {
        check_unit(unit)?;
        Ok(self.textures.sampler_bound.get(&unit).copied().unwrap_or(0))
    }

    /// `glSamplerParameteri`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let s = ctx.gen_samplers(1).unwrap()[0];
    /// ctx.sampler_parameter_i(s, gl::TEXTURE_WRAP_S, gl::CLAMP_TO_EDGE as i32).unwrap();
    /// // Base level is texture state, not sampler state.
    /// let e = ctx.sampler_parameter_i(s, gl::TEXTURE_BASE_LEVEL, 1).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidEnum);
    /// ```
    pub fn sampler_parameter_i(&mut self, sampler: u32, pname: u32, value: i32) -> Result<()> {
        self.sampler_parameter_fv(sampler, pname, &[value as f32])
    }

    /// `glSamplerParameterf`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let s = ctx.gen_samplers(1).unwrap()[0];
    /// ctx.sampler_parameter_f(s, gl::TEXTURE_MAX_ANISOTROPY, 8.0).unwrap();
    /// ```
    pub fn sampler_parameter_f(&mut self, sampler: u32, pname: u32, value: f32) -> Result<()> {
        self.sampler_parameter_fv(sampler, pname, &[value])
    }

    /// `glSamplerParameterfv` (the border colour takes 4 values). An unknown sampler is
    /// `INVALID_OPERATION`; a texture-only or unknown parameter is `INVALID_ENUM`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let s = ctx.gen_samplers(1).unwrap()[0];
    /// ctx.sampler_parameter_fv(s, gl::TEXTURE_BORDER_COLOR, &[0.0, 1.0, 0.0, 1.0]).unwrap();
    /// let e = ctx.sampler_parameter_fv(99, gl::TEXTURE_MIN_LOD, &[0.0]).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation);
    /// ```
    pub fn sampler_parameter_fv(&mut self, sampler: u32, pname: u32, values: &[f32]) -> Result<()> {
        if texture_only(pname) {
            return Err(Error::invalid_enum("sampler parameter", pname));
        }
        // Applied to a copy first: a bad parameter is reported before an unknown name.
        let mut set = self
            .textures
            .samplers
            .get(&sampler)
            .cloned()
            .unwrap_or_default();
        apply_param(&mut set, pname, values)?;
        let s = self.textures.samplers.get_mut(&sampler).ok_or_else(|| {
            Error::invalid_operation(format!("{sampler} is not a sampler object name"))
        })?;
        *s = set;
        Ok(())
    }
}

fn check_unit(unit: u32) -> Result<()> {
    if unit as usize >= super::state::MAX_TEXTURE_UNITS {
        return Err(Error::invalid_value(format!(
            "texture unit {unit} is not below MAX_COMBINED_TEXTURE_IMAGE_UNITS ({})",
            super::state::MAX_TEXTURE_UNITS
        )));
    }
    Ok(())
}
