//! Matrix stack calls and the lighting/material/fog state ARB `state.*` bindings read.

use super::gl_enum::{Face, FogCoordSrc, FogMode, GlEnum, MatrixMode};
use super::state::{inverse_or_zero, MAX_LIGHTS, MAX_TEXTURE_COORDS};
use super::Context;
use crate::error::{Error, GlError, Result};
use crate::gl;
use glam::{DMat4, DVec3, DVec4};

const MAX_MODELVIEW_STACK_DEPTH: usize = crate::caps::MAX_MODELVIEW_STACK_DEPTH as usize;
const MAX_OTHER_STACK_DEPTH: usize = crate::caps::MAX_OTHER_STACK_DEPTH as usize;

/// `glFrustum`'s matrix (GL 4.6 compatibility profile, section 12.1.1).
fn frustum_matrix(l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) -> DMat4 {
    DMat4::from_cols(
        DVec4::new(2.0 * n / (r - l), 0.0, 0.0, 0.0),
        DVec4::new(0.0, 2.0 * n / (t - b), 0.0, 0.0),
        DVec4::new(
            (r + l) / (r - l),
            (t + b) / (t - b),
            -(f + n) / (f - n),
            -1.0,
        ),
        DVec4::new(0.0, 0.0, -2.0 * f * n / (f - n), 0.0),
    )
}

/// # Chapter 12 — Fixed-function vertex processing
///
/// Matrix stacks (`matrix_mode`, `push_matrix`, `rotate`, `ortho`, `frustum`, ...),
/// lighting, materials.
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
        self.st.matrix_mode = MatrixMode::parse(mode)?;
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

    /// The stack `glPushMatrix` of the current mode uses, and its depth limit.
    fn stack_key(&self) -> ((MatrixMode, u32), usize) {
        match self.st.matrix_mode {
            m @ MatrixMode::ModelView => ((m, 0), MAX_MODELVIEW_STACK_DEPTH),
            m @ MatrixMode::Texture => ((m, self.st.active_texture), MAX_OTHER_STACK_DEPTH),
            m @ (MatrixMode::Projection | MatrixMode::Program(_)) => {
                ((m, 0), MAX_OTHER_STACK_DEPTH)
            }
        }
    }

    /// Matrices on the current mode's stack, the current one included
    /// (`CURRENT_MATRIX_STACK_DEPTH_ARB`).
    pub(crate) fn stack_depth(&self) -> usize {
        let (key, _) = self.stack_key();
        1 + self.st.matrix_stacks.get(&key).map_or(0, Vec::len)
    }

    /// Matrices on the stack of `mode` (`MODELVIEW`, `PROJECTION`, `TEXTURE` of the
    /// active unit), the current one included (`*_STACK_DEPTH`).
    pub(crate) fn stack_depth_of(&self, mode: MatrixMode) -> usize {
        let unit = if mode == MatrixMode::Texture {
            self.st.active_texture
        } else {
            0
        };
        1 + self.st.matrix_stacks.get(&(mode, unit)).map_or(0, Vec::len)
    }

    /// The current matrix of the current mode (`CURRENT_MATRIX_ARB`).
    pub(crate) fn current_matrix_value(&self) -> Result<DMat4> {
        let st = &self.st;
        let m = match st.matrix_mode {
            MatrixMode::ModelView => Some(&st.modelview),
            MatrixMode::Projection => Some(&st.projection),
            MatrixMode::Texture => st.texture_matrix.get(st.active_texture as usize),
            MatrixMode::Program(n) => st.program_matrix.get(n as usize),
        };
        m.copied()
            .ok_or_else(|| Error::invalid_operation("the current matrix mode has no matrix"))
    }

    fn current_matrix(&mut self) -> Result<&mut DMat4> {
        let st = &mut self.st;
        Ok(match st.matrix_mode {
            MatrixMode::ModelView => &mut st.modelview,
            MatrixMode::Projection => &mut st.projection,
            MatrixMode::Texture => st
                .texture_matrix
                .get_mut(st.active_texture as usize)
                .ok_or_else(|| {
                    Error::invalid_operation(format!(
                        "texture unit {} has no texture matrix (max {})",
                        st.active_texture,
                        MAX_TEXTURE_COORDS - 1
                    ))
                })?,
            m @ MatrixMode::Program(n) => st
                .program_matrix
                .get_mut(n as usize)
                .ok_or_else(|| Error::invalid_enum("matrix mode", m.to_gl()))?,
        })
    }

    /// `glLoadIdentity`.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.load_identity().unwrap();
    /// ```
    pub fn load_identity(&mut self) -> Result<()> {
        *self.current_matrix()? = DMat4::IDENTITY;
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
        *self.current_matrix()? = DMat4::from_cols_array(&m.map(f64::from));
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
        self.mult(DMat4::from_cols_array(&m.map(f64::from)))
    }

    /// Current matrix ← current · `m`.
    fn mult(&mut self, m: DMat4) -> Result<()> {
        let cur = self.current_matrix()?;
        *cur *= m;
        Ok(())
    }

    /// `glPushMatrix`: saves the current matrix of the current mode; a full stack is
    /// `STACK_OVERFLOW` (32 modelview matrices, 4 of the others).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.matrix_mode(gl::PROJECTION).unwrap();
    /// for _ in 0..3 {
    ///     ctx.push_matrix().unwrap();
    /// }
    /// assert_eq!(ctx.get_integer_v(gl::PROJECTION_STACK_DEPTH).unwrap(), [4]);
    /// assert_eq!(ctx.push_matrix().unwrap_err().gl, GlError::StackOverflow);
    /// ```
    pub fn push_matrix(&mut self) -> Result<()> {
        let cur = *self.current_matrix()?;
        let (key, max) = self.stack_key();
        let stack = self.st.matrix_stacks.entry(key).or_default();
        if stack.len() + 1 >= max {
            return Err(Error::new(
                GlError::StackOverflow,
                format!("glPushMatrix: the stack holds {max} matrices"),
            ));
        }
        stack.push(cur);
        Ok(())
    }

    /// `glPopMatrix`: restores the matrix the last `push_matrix` of this mode saved; with
    /// none saved it is `STACK_UNDERFLOW`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.push_matrix().unwrap();
    /// ctx.translate(1.0, 2.0, 3.0).unwrap();
    /// ctx.pop_matrix().unwrap();
    /// assert_eq!(ctx.get_float_v(gl::MODELVIEW_MATRIX).unwrap()[12], 0.0);
    /// assert_eq!(ctx.pop_matrix().unwrap_err().gl, GlError::StackUnderflow);
    /// ```
    pub fn pop_matrix(&mut self) -> Result<()> {
        let (key, _) = self.stack_key();
        self.current_matrix()?;
        let m = self.st.matrix_stacks.get_mut(&key).and_then(Vec::pop);
        let m = m.ok_or_else(|| {
            Error::new(GlError::StackUnderflow, "glPopMatrix: nothing was pushed")
        })?;
        *self.current_matrix()? = m;
        Ok(())
    }

    /// `glTranslated`: current ← current · T(x, y, z).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.translate(1.0, 2.0, 3.0).unwrap();
    /// assert_eq!(ctx.get_float_v(gl::MODELVIEW_MATRIX).unwrap()[12..], [1.0, 2.0, 3.0, 1.0]);
    /// ```
    pub fn translate(&mut self, x: f64, y: f64, z: f64) -> Result<()> {
        self.mult(DMat4::from_translation(DVec3::new(x, y, z)))
    }

    /// `glScaled`: current ← current · S(x, y, z).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.scale(2.0, 3.0, 4.0).unwrap();
    /// let m = ctx.get_float_v(gl::MODELVIEW_MATRIX).unwrap();
    /// assert_eq!([m[0], m[5], m[10], m[15]], [2.0, 3.0, 4.0, 1.0]);
    /// ```
    pub fn scale(&mut self, x: f64, y: f64, z: f64) -> Result<()> {
        self.mult(DMat4::from_scale(DVec3::new(x, y, z)))
    }

    /// `glRotated`: current ← current · R, a rotation by `angle` degrees
    /// counter-clockwise about the axis (x, y, z), which is normalized first. A zero axis
    /// leaves the matrix as it is (GL leaves it undefined).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.rotate(90.0, 0.0, 0.0, 2.0).unwrap();
    /// let m = ctx.get_float_v(gl::MODELVIEW_MATRIX).unwrap();
    /// // x goes to y: the first column is (0, 1, 0, 0).
    /// assert!(m[0].abs() < 1e-7 && m[1] == 1.0);
    /// ```
    pub fn rotate(&mut self, angle: f64, x: f64, y: f64, z: f64) -> Result<()> {
        let axis = DVec3::new(x, y, z);
        if axis.length_squared() == 0.0 || !axis.is_finite() {
            return self.current_matrix().map(|_| ());
        }
        self.mult(DMat4::from_axis_angle(axis.normalize(), angle.to_radians()))
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
        self.mult(DMat4::orthographic_rh_gl(l, r, b, t, n, f))
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
        self.mult(frustum_matrix(l, r, b, t, n, f))
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
                let p = mv * DVec4::from_array(v4(v).map(f64::from));
                l.position = p.to_array().map(|x| x as f32);
            }
            gl::SPOT_DIRECTION => {
                let d = mv * DVec4::new(v[0].into(), v[1].into(), v[2].into(), 0.0);
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
    pub fn light_model_ambient(&mut self, v: impl Into<[f32; 4]>) -> Result<()> {
        let v = v.into();
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
        let faces = Face::parse(face)?.indices();
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
                f.mode = FogMode::parse(first as u32)?;
            }
            gl::FOG_DENSITY => {
                if first < 0.0 {
                    return Err(Error::invalid_value("negative fog density"));
                }
                f.density = first
            }
            gl::FOG_COORD_SRC => {
                self.st.fog_coord_src = FogCoordSrc::parse(first as u32)?;
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
    pub fn tex_gen_plane(
        &mut self,
        coord: u32,
        pname: u32,
        plane: impl Into<[f32; 4]>,
    ) -> Result<()> {
        let plane = plane.into();
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
            // A row vector times the inverse modelview.
            let inv = inverse_or_zero(&self.st.modelview);
            let p = inv.transpose() * DVec4::from_array(plane.map(f64::from));
            p.to_array().map(|x| x as f32)
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
    pub fn tex_env_color(&mut self, c: impl Into<[f32; 4]>) -> Result<()> {
        let c = c.into();
        let unit = self.st.active_texture as usize;
        let slot = self.st.tex_env_color.get_mut(unit).ok_or_else(|| {
            Error::invalid_operation(format!("texture unit {unit} has no texenv state"))
        })?;
        *slot = c;
        Ok(())
    }
}
