//! Matrix stack calls and the lighting/material/fog state ARB `state.*` bindings read.

use super::matrix::{self, Mat4};
use super::state::{MAX_LIGHTS, MAX_PROGRAM_MATRICES, MAX_TEXTURE_COORDS};
use super::Context;
use crate::error::{Error, Result};
use crate::gl;

impl Context {
    /// `glMatrixMode` (`MODELVIEW`, `PROJECTION`, `TEXTURE` of the active unit,
    /// `MATRIX0_ARB + n`).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.matrix_mode(gl::PROJECTION).unwrap();
    /// assert!(ctx.matrix_mode(gl::TRIANGLES).is_err());
    /// ```
    pub fn matrix_mode(&mut self, mode: u32) -> Result<()> {
        let ok = matches!(mode, gl::MODELVIEW | gl::PROJECTION | gl::TEXTURE)
            || (gl::MATRIX0_ARB..gl::MATRIX0_ARB + MAX_PROGRAM_MATRICES as u32).contains(&mode);
        if !ok {
            return Err(Error::invalid_enum("matrix mode", mode));
        }
        self.st.matrix_mode = mode;
        Ok(())
    }

    /// The active texture unit index (`glGetIntegerv(ACTIVE_TEXTURE) - TEXTURE0`).
    ///
    /// ```
    /// let ctx = glemu::Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.active_texture_unit(), 0);
    /// ```
    pub fn active_texture_unit(&self) -> u32 {
        self.st.active_texture
    }

    fn current_matrix(&mut self) -> Result<&mut Mat4> {
        let st = &mut self.st;
        Ok(match st.matrix_mode {
            gl::MODELVIEW => &mut st.modelview,
            gl::PROJECTION => &mut st.projection,
            gl::TEXTURE => st
                .texture_matrix
                .get_mut(st.active_texture as usize)
                .ok_or_else(|| {
                    Error::invalid_operation(format!(
                        "texture unit {} has no texture matrix (max {})",
                        st.active_texture,
                        MAX_TEXTURE_COORDS - 1
                    ))
                })?,
            m => st
                .program_matrix
                .get_mut((m - gl::MATRIX0_ARB) as usize)
                .ok_or_else(|| Error::invalid_enum("matrix mode", m))?,
        })
    }

    /// `glLoadIdentity`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.load_identity().unwrap();
    /// ```
    pub fn load_identity(&mut self) -> Result<()> {
        *self.current_matrix()? = matrix::IDENTITY;
        Ok(())
    }

    /// `glLoadMatrixf` (column-major).
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let mut m = [0.0; 16];
    /// m[0] = 2.0; m[5] = 2.0; m[10] = 2.0; m[15] = 1.0;
    /// ctx.load_matrix_f(&m).unwrap();
    /// ```
    pub fn load_matrix_f(&mut self, m: &[f32; 16]) -> Result<()> {
        *self.current_matrix()? = m.map(f64::from);
        Ok(())
    }

    /// `glMultMatrixf`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let mut m = [0.0f32; 16];
    /// m[0] = 1.0; m[5] = 1.0; m[10] = 1.0; m[15] = 1.0;
    /// ctx.mult_matrix_f(&m).unwrap();
    /// ```
    pub fn mult_matrix_f(&mut self, m: &[f32; 16]) -> Result<()> {
        let cur = self.current_matrix()?;
        *cur = matrix::mul(cur, &m.map(f64::from));
        Ok(())
    }

    /// `glOrtho` (multiplies the current matrix).
    ///
    /// ```
    /// use glemu::{Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.ortho(0.0, 4.0, 0.0, 4.0, -1.0, 1.0).unwrap();
    /// assert_eq!(ctx.ortho(1.0, 1.0, 0.0, 4.0, -1.0, 1.0).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn ortho(&mut self, l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) -> Result<()> {
        if l == r || b == t || n == f {
            return Err(Error::invalid_value("glOrtho with an empty volume"));
        }
        let cur = self.current_matrix()?;
        *cur = matrix::mul(cur, &matrix::ortho(l, r, b, t, n, f));
        Ok(())
    }

    /// `glFrustum` (multiplies the current matrix).
    ///
    /// ```
    /// use glemu::{Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.frustum(-1.0, 1.0, -1.0, 1.0, 1.0, 10.0).unwrap();
    /// assert_eq!(ctx.frustum(-1.0, 1.0, -1.0, 1.0, 0.0, 10.0).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn frustum(&mut self, l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) -> Result<()> {
        if n <= 0.0 || f <= 0.0 || l == r || b == t || n == f {
            return Err(Error::invalid_value("glFrustum with a bad volume"));
        }
        let cur = self.current_matrix()?;
        *cur = matrix::mul(cur, &matrix::frustum(l, r, b, t, n, f));
        Ok(())
    }

    /// `glLightfv`. Positions and spot directions are transformed by the modelview, as
    /// GL does.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.light_fv(gl::LIGHT0, gl::DIFFUSE, &[1.0, 0.5, 0.0, 1.0]).unwrap();
    /// assert_eq!(ctx.light_fv(gl::LIGHT0, gl::DIFFUSE, &[1.0]).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn light_fv(&mut self, light: u32, pname: u32, v: &[f32]) -> Result<()> {
        let i = light.wrapping_sub(gl::LIGHT0) as usize;
        if i >= MAX_LIGHTS {
            return Err(Error::invalid_enum("light", light));
        }
        let need = match pname {
            gl::AMBIENT | gl::DIFFUSE | gl::SPECULAR | gl::POSITION => 4,
            gl::SPOT_DIRECTION => 3,
            gl::SPOT_EXPONENT
            | gl::SPOT_CUTOFF
            | gl::CONSTANT_ATTENUATION
            | gl::LINEAR_ATTENUATION
            | gl::QUADRATIC_ATTENUATION => 1,
            p => return Err(Error::invalid_enum("light parameter", p)),
        };
        if v.len() < need {
            return Err(Error::invalid_value(format!(
                "light parameter needs {need} values"
            )));
        }
        let mv = self.st.modelview;
        let l = &mut self.st.lights[i];
        let v4 = |v: &[f32]| [v[0], v[1], v[2], v.get(3).copied().unwrap_or(1.0)];
        match pname {
            gl::AMBIENT => l.ambient = v4(v),
            gl::DIFFUSE => l.diffuse = v4(v),
            gl::SPECULAR => l.specular = v4(v),
            gl::POSITION => {
                l.position = matrix::transform(&mv, v4(v).map(f64::from)).map(|x| x as f32);
            }
            gl::SPOT_DIRECTION => {
                let d = matrix::transform(
                    &mv,
                    [f64::from(v[0]), f64::from(v[1]), f64::from(v[2]), 0.0],
                );
                l.spot_direction = [d[0] as f32, d[1] as f32, d[2] as f32];
            }
            gl::SPOT_EXPONENT => l.spot_exponent = v[0],
            gl::SPOT_CUTOFF => l.spot_cutoff = v[0],
            gl::CONSTANT_ATTENUATION => l.attenuation[0] = v[0],
            gl::LINEAR_ATTENUATION => l.attenuation[1] = v[0],
            _ => l.attenuation[2] = v[0],
        }
        Ok(())
    }

    /// `glLightModelfv(LIGHT_MODEL_AMBIENT)`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.light_model_ambient([0.1, 0.1, 0.1, 1.0]).unwrap();
    /// ```
    pub fn light_model_ambient(&mut self, v: [f32; 4]) -> Result<()> {
        self.st.light_model_ambient = v;
        Ok(())
    }

    /// `glMaterialfv`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.material_fv(gl::FRONT, gl::SHININESS, &[8.0]).unwrap();
    /// assert!(ctx.material_fv(gl::FRONT, gl::POSITION, &[0.0; 4]).is_err());
    /// ```
    pub fn material_fv(&mut self, face: u32, pname: u32, v: &[f32]) -> Result<()> {
        let faces: &[usize] = match face {
            gl::FRONT => &[0],
            gl::BACK => &[1],
            gl::FRONT_AND_BACK => &[0, 1],
            f => return Err(Error::invalid_enum("face", f)),
        };
        let need = if pname == gl::SHININESS { 1 } else { 4 };
        if !matches!(
            pname,
            gl::AMBIENT
                | gl::DIFFUSE
                | gl::SPECULAR
                | gl::EMISSION
                | gl::SHININESS
                | gl::AMBIENT_AND_DIFFUSE
        ) {
            return Err(Error::invalid_enum("material parameter", pname));
        }
        if v.len() < need {
            return Err(Error::invalid_value(format!(
                "material parameter needs {need} values"
            )));
        }
        for &f in faces {
            let m = &mut self.st.materials[f];
            let c = || [v[0], v[1], v[2], v[3]];
            match pname {
                gl::AMBIENT => m.ambient = c(),
                gl::DIFFUSE => m.diffuse = c(),
                gl::SPECULAR => m.specular = c(),
                gl::EMISSION => m.emission = c(),
                gl::SHININESS => m.shininess = v[0],
                _ => {
                    m.ambient = c();
                    m.diffuse = c();
                }
            }
        }
        Ok(())
    }

    /// `glFogfv` / `glFogi` (`FOG_MODE` takes the mode enum as a float).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.fog_fv(gl::FOG_START, &[2.0]).unwrap();
    /// ctx.fog_fv(gl::FOG_MODE, &[gl::LINEAR as f32]).unwrap();
    /// ```
    pub fn fog_fv(&mut self, pname: u32, v: &[f32]) -> Result<()> {
        let first = *v
            .first()
            .ok_or_else(|| Error::invalid_value("fog parameter needs a value"))?;
        let f = &mut self.st.fog;
        match pname {
            gl::FOG_MODE => {
                let m = first as u32;
                if !matches!(m, gl::LINEAR | gl::EXP | gl::EXP2) {
                    return Err(Error::invalid_enum("fog mode", m));
                }
                f.mode = m;
            }
            gl::FOG_DENSITY => {
                if first < 0.0 {
                    return Err(Error::invalid_value("negative fog density"));
                }
                f.density = first
            }
            gl::FOG_COORD_SRC => {
                let src = first as u32;
                if !matches!(src, gl::FRAGMENT_DEPTH | gl::FOG_COORD) {
                    return Err(Error::invalid_enum("fog coordinate source", src));
                }
                self.st.fog_coord_src = src;
            }
            gl::FOG_START => f.start = first,
            gl::FOG_END => f.end = first,
            gl::FOG_COLOR => {
                if v.len() < 4 {
                    return Err(Error::invalid_value("fog colour needs 4 values"));
                }
                f.color = [v[0], v[1], v[2], v[3]];
            }
            p => return Err(Error::invalid_enum("fog parameter", p)),
        }
        Ok(())
    }

    /// Default outer tessellation levels (`PATCH_DEFAULT_OUTER_LEVEL`).
    ///
    /// ```
    /// assert_eq!(glemu::Context::new(4, 4).unwrap().patch_default_outer(), [1.0; 4]);
    /// ```
    pub fn patch_default_outer(&self) -> [f32; 4] {
        self.st.patch_outer
    }

    /// Default inner tessellation levels (`PATCH_DEFAULT_INNER_LEVEL`).
    ///
    /// ```
    /// assert_eq!(glemu::Context::new(4, 4).unwrap().patch_default_inner(), [1.0; 2]);
    /// ```
    pub fn patch_default_inner(&self) -> [f32; 2] {
        self.st.patch_inner
    }

    /// `glTexGenfv(coord, OBJECT_PLANE | EYE_PLANE, plane)` for the active texture unit
    /// (read by `state.texgen[n].*`); eye planes are transformed by the inverse
    /// modelview, as GL does.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.tex_gen_plane(gl::S, gl::EYE_PLANE, [1.0, 0.0, 0.0, 0.5]).unwrap();
    /// assert_eq!(ctx.tex_gen_plane(gl::S, gl::FOG, [0.0; 4]).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn tex_gen_plane(&mut self, coord: u32, pname: u32, plane: [f32; 4]) -> Result<()> {
        let c = match coord {
            gl::S | gl::T | gl::R | gl::Q => (coord - gl::S) as usize,
            x => return Err(Error::invalid_enum("texgen coordinate", x)),
        };
        let eye = match pname {
            gl::EYE_PLANE => true,
            gl::OBJECT_PLANE => false,
            p => return Err(Error::invalid_enum("texgen plane", p)),
        };
        let unit = self.st.active_texture as usize;
        let value = if eye {
            let inv = matrix::inverse(&self.st.modelview);
            let mut out = [0.0f32; 4];
            for (k, o) in out.iter_mut().enumerate() {
                *o = (0..4)
                    .map(|r| f64::from(plane[r]) * inv[k * 4 + r])
                    .sum::<f64>() as f32;
            }
            out
        } else {
            plane
        };
        let tg = self.st.texgen.get_mut(unit).ok_or_else(|| {
            Error::invalid_operation(format!("texture unit {unit} has no texgen state"))
        })?;
        if eye {
            tg.eye[c] = value;
        } else {
            tg.object[c] = value;
        }
        Ok(())
    }

    /// `glTexEnvfv(TEXTURE_ENV, TEXTURE_ENV_COLOR, c)` for the active texture unit (read
    /// by `state.texenv[n].color`).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.tex_env_color([0.5, 0.5, 0.5, 1.0]).unwrap();
    /// ```
    pub fn tex_env_color(&mut self, c: [f32; 4]) -> Result<()> {
        let unit = self.st.active_texture as usize;
        let slot = self.st.tex_env_color.get_mut(unit).ok_or_else(|| {
            Error::invalid_operation(format!("texture unit {unit} has no texenv state"))
        })?;
        *slot = c;
        Ok(())
    }
}
