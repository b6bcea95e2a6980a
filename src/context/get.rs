//! `glGetIntegerv` for the objects and bindings glemu has: which object is bound where,
//! the viewport and scissor box, and the implementation limits apps size things by.

use super::gl_enum::{GlEnum, MatrixMode};
use super::Context;
use crate::caps::{self, Query};
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
        gl::TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY => Target::Array2DMs,
        _ => return None,
    })
}

/// The non-indexed binding a `*_BINDING` name reports, by buffer target.
fn buffer_binding_target(pname: u32) -> Option<u32> {
    Some(match pname {
        gl::ARRAY_BUFFER_BINDING => gl::ARRAY_BUFFER,
        gl::ELEMENT_ARRAY_BUFFER_BINDING => gl::ELEMENT_ARRAY_BUFFER,
        gl::UNIFORM_BUFFER_BINDING => gl::UNIFORM_BUFFER,
        gl::SHADER_STORAGE_BUFFER_BINDING => gl::SHADER_STORAGE_BUFFER,
        gl::ATOMIC_COUNTER_BUFFER_BINDING => gl::ATOMIC_COUNTER_BUFFER,
        gl::TRANSFORM_FEEDBACK_BUFFER_BINDING => gl::TRANSFORM_FEEDBACK_BUFFER,
        gl::DRAW_INDIRECT_BUFFER_BINDING => gl::DRAW_INDIRECT_BUFFER,
        gl::PARAMETER_BUFFER_BINDING => gl::PARAMETER_BUFFER,
        gl::DISPATCH_INDIRECT_BUFFER_BINDING => gl::DISPATCH_INDIRECT_BUFFER,
        // COPY_READ/WRITE_BUFFER_BINDING and TEXTURE_BUFFER share their target's value.
        gl::COPY_READ_BUFFER | gl::COPY_WRITE_BUFFER | gl::TEXTURE_BUFFER => pname,
        _ => return None,
    })
}

/// Indexed buffer-binding names: (target, what) with what 0 = buffer, 1 = start,
/// 2 = size.
fn indexed_binding(pname: u32) -> Option<(u32, u8)> {
    Some(match pname {
        gl::UNIFORM_BUFFER_BINDING => (gl::UNIFORM_BUFFER, 0),
        gl::UNIFORM_BUFFER_START => (gl::UNIFORM_BUFFER, 1),
        gl::UNIFORM_BUFFER_SIZE => (gl::UNIFORM_BUFFER, 2),
        gl::SHADER_STORAGE_BUFFER_BINDING => (gl::SHADER_STORAGE_BUFFER, 0),
        gl::SHADER_STORAGE_BUFFER_START => (gl::SHADER_STORAGE_BUFFER, 1),
        gl::SHADER_STORAGE_BUFFER_SIZE => (gl::SHADER_STORAGE_BUFFER, 2),
        gl::ATOMIC_COUNTER_BUFFER_BINDING => (gl::ATOMIC_COUNTER_BUFFER, 0),
        gl::ATOMIC_COUNTER_BUFFER_START => (gl::ATOMIC_COUNTER_BUFFER, 1),
        gl::ATOMIC_COUNTER_BUFFER_SIZE => (gl::ATOMIC_COUNTER_BUFFER, 2),
        gl::TRANSFORM_FEEDBACK_BUFFER_BINDING => (gl::TRANSFORM_FEEDBACK_BUFFER, 0),
        gl::TRANSFORM_FEEDBACK_BUFFER_START => (gl::TRANSFORM_FEEDBACK_BUFFER, 1),
        gl::TRANSFORM_FEEDBACK_BUFFER_SIZE => (gl::TRANSFORM_FEEDBACK_BUFFER, 2),
        _ => return None,
    })
}

/// Binding points of an indexed target.
fn indexed_count(target: u32) -> u32 {
    super::buffers::indexed_limit(target).unwrap_or(0)
}

/// A float state value as GetIntegerv reports it: rounded to the nearest integer.
pub(crate) fn round_int(v: f32) -> i32 {
    v.round() as i32
}

fn int(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// # Chapter 22 — Context state queries
impl Context {
    /// `glGetIntegerv(pname)`: bindings (`VERTEX_ARRAY_BINDING`, `ARRAY_BUFFER_BINDING`,
    /// `ELEMENT_ARRAY_BUFFER_BINDING`, `DRAW_FRAMEBUFFER_BINDING` = `FRAMEBUFFER_BINDING`,
    /// `READ_FRAMEBUFFER_BINDING`, `RENDERBUFFER_BINDING`, `TEXTURE_BINDING_*` of the active
    /// unit, `ACTIVE_TEXTURE`), `VIEWPORT`, `SCISSOR_BOX`, `SAMPLES` of the draw
    /// framebuffer, and limits (`MAX_COLOR_ATTACHMENTS`, `MAX_DRAW_BUFFERS`,
    /// `MAX_VERTEX_ATTRIBS`, `MAX_TEXTURE_SIZE`, `MAX_RENDERBUFFER_SIZE`, `MAX_SAMPLES`,
    /// `MAX_LIGHTS`, `MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV`, `MAX_PROGRAM_SUBROUTINE_NUM_NV`,
    /// texture, clip-plane, viewport, patch and stream-out limits); also the other buffer
    /// bindings (`UNIFORM_`, `SHADER_STORAGE_`, `ATOMIC_COUNTER_`, `TRANSFORM_FEEDBACK_`,
    /// `DRAW_INDIRECT_BUFFER_BINDING`, `PARAMETER_BUFFER_BINDING`, `COPY_READ/WRITE_BUFFER`,
    /// `TEXTURE_BUFFER`), `TRANSFORM_FEEDBACK_BINDING` and the bound object's
    /// `TRANSFORM_FEEDBACK_(BUFFER_)ACTIVE/PAUSED`,
    /// `SAMPLER_BINDING`, `SAMPLE_BUFFERS`, `PATCH_VERTICES`, `PRIMITIVE_RESTART_INDEX`,
    /// `DEPTH_FUNC`, `CULL_FACE_MODE`, `FRONT_FACE`, `DRAW_BUFFER`, `DRAW_BUFFERi`,
    /// `READ_BUFFER`. Other names are `INVALID_ENUM`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(8, 4).unwrap();
    /// let vao = ctx.gen_vertex_arrays(1).unwrap()[0];
    /// ctx.bind_vertex_array(vao).unwrap();
    /// assert_eq!(ctx.get_integer_v(gl::VERTEX_ARRAY_BINDING).unwrap(), vec![vao as i32]);
    /// assert_eq!(ctx.get_integer_v(gl::VIEWPORT).unwrap(), vec![0, 0, 8, 4]);
    /// assert_eq!(ctx.get_integer_v(gl::TRIANGLES).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn get_integer_v(&self, pname: u32) -> Result<Vec<i32>> {
        if let Some(l) = caps::limit_by_pname(Query::Integer, pname) {
            return Ok(l.value.to_vec());
        }
        if let Some(t) = texture_binding_target(pname) {
            let id = self
                .textures
                .bound
                .get(&(self.st.active_texture, t))
                .copied()
                .unwrap_or(0);
            return Ok(vec![int(id)]);
        }
        if let Some(target) = buffer_binding_target(pname) {
            let id = self.buffers.bound.get(&target).copied().unwrap_or(0);
            return Ok(vec![int(id)]);
        }
        let one = |v: u32| Ok(vec![int(v)]);
        let st = &self.st;
        let draw_buffers = self.buffers(self.fbos.draw).draw;
        if let Some(i) = pname.checked_sub(gl::DRAW_BUFFER0) {
            if let Some(&b) = draw_buffers.get(i as usize) {
                return one(b);
            }
        }
        match pname {
            gl::VERTEX_ARRAY_BINDING => one(self.arrays.bound_vao),
            gl::TRANSFORM_FEEDBACK_BINDING => one(self.xfb.bound),
            // TRANSFORM_FEEDBACK_BUFFER_ACTIVE/_PAUSED share these values.
            gl::TRANSFORM_FEEDBACK_ACTIVE => one(u32::from(self.xfb.cur.state.active)),
            gl::TRANSFORM_FEEDBACK_PAUSED => one(u32::from(self.xfb.cur.state.paused)),
            gl::DRAW_FRAMEBUFFER_BINDING => one(self.fbos.draw),
            gl::READ_FRAMEBUFFER_BINDING => one(self.fbos.read),
            gl::RENDERBUFFER_BINDING => one(self.fbos.bound_rb),
            gl::ACTIVE_TEXTURE => one(TEXTURE0 + self.st.active_texture),
            gl::VIEWPORT => Ok(self.st.viewports[0].map(round_int).to_vec()),
            gl::SCISSOR_BOX => Ok(self.st.scissors[0].to_vec()),
            gl::LAYER_PROVOKING_VERTEX | gl::VIEWPORT_INDEX_PROVOKING_VERTEX => {
                one(gl::PROVOKING_VERTEX)
            }
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
            gl::DRAW_BUFFER => one(draw_buffers[0]),
            gl::READ_BUFFER => one(self.buffers(self.fbos.read).read),
            gl::SAMPLER_BINDING => one(self.sampler_binding(st.active_texture)?),
            gl::SAMPLE_BUFFERS => {
                let samples = self.get_integer_v(gl::SAMPLES)?;
                Ok(vec![i32::from(samples.first().is_some_and(|&s| s > 0))])
            }
            gl::PATCH_VERTICES => one(st.patch_vertices),
            gl::PRIMITIVE_RESTART_INDEX => one(st.primitive_restart_index),
            gl::DEPTH_FUNC => one(st.depth_func.to_gl()),
            gl::CULL_FACE_MODE => one(st.cull_mode.to_gl()),
            gl::FRONT_FACE => one(st.front_face.to_gl()),
            gl::LOGIC_OP_MODE => one(st.logic_op_mode.to_gl()),
            gl::STENCIL_WRITEMASK => one(st.stencil[0].write_mask),
            gl::STENCIL_BACK_WRITEMASK => one(st.stencil[1].write_mask),
            gl::STENCIL_CLEAR_VALUE => Ok(vec![st.clear_stencil]),
            gl::COLOR_WRITEMASK => Ok(st.draw_blend[0].color_mask.map(i32::from).to_vec()),
            gl::MODELVIEW_STACK_DEPTH => one(self.stack_depth_of(MatrixMode::ModelView) as u32),
            gl::PROJECTION_STACK_DEPTH => one(self.stack_depth_of(MatrixMode::Projection) as u32),
            gl::TEXTURE_STACK_DEPTH => one(self.stack_depth_of(MatrixMode::Texture) as u32),
            gl::CURRENT_MATRIX_STACK_DEPTH_ARB => one(self.stack_depth() as u32),
            gl::MAJOR_VERSION => one(caps::GL_VERSION / 10),
            gl::MINOR_VERSION => one(caps::GL_VERSION % 10),
            p => Err(Error::invalid_enum("integer state", p)),
        }
    }

    /// `glGetString(name)`: `VENDOR`, `RENDERER`, `VERSION` and `EXTENSIONS` (the
    /// space-separated [`caps::EXTENSIONS`]); other names are `INVALID_ENUM`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let ctx = Context::new(4, 4).unwrap();
    /// assert!(ctx.get_string(gl::VERSION).unwrap().starts_with("4.6"));
    /// assert!(ctx.get_string(gl::EXTENSIONS).unwrap().split(' ').any(|e| e == "GL_NV_gpu_program5"));
    /// assert_eq!(ctx.get_string(gl::TRIANGLES).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn get_string(&self, name: u32) -> Result<String> {
        Ok(match name {
            gl::VENDOR => caps::VENDOR.to_string(),
            gl::RENDERER => caps::RENDERER.to_string(),
            gl::VERSION => caps::VERSION.to_string(),
            gl::EXTENSIONS => caps::EXTENSIONS.join(" "),
            n => return Err(Error::invalid_enum("string name", n)),
        })
    }

    /// `glGetStringi(EXTENSIONS, index)`: one extension, `index` below `NUM_EXTENSIONS`
    /// (else `INVALID_VALUE`); other names are `INVALID_ENUM`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let ctx = Context::new(4, 4).unwrap();
    /// let n = ctx.get_integer_v(gl::NUM_EXTENSIONS).unwrap()[0] as u32;
    /// assert!(ctx.get_string_i(gl::EXTENSIONS, n - 1).unwrap().starts_with("GL_"));
    /// assert_eq!(ctx.get_string_i(gl::EXTENSIONS, n).unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn get_string_i(&self, name: u32, index: u32) -> Result<String> {
        if name != gl::EXTENSIONS {
            return Err(Error::invalid_enum("indexed string name", name));
        }
        caps::EXTENSIONS
            .get(index as usize)
            .map(|e| e.to_string())
            .ok_or_else(|| {
                Error::invalid_value(format!(
                    "extension index {index} (NUM_EXTENSIONS is {})",
                    caps::EXTENSIONS.len()
                ))
            })
    }

    /// `glGetIntegeri_v(pname, index)` for the indexed buffer bindings of
    /// `UNIFORM_BUFFER`, `SHADER_STORAGE_BUFFER`, `ATOMIC_COUNTER_BUFFER` and
    /// `TRANSFORM_FEEDBACK_BUFFER`: `*_BINDING` (the buffer), `*_START` and `*_SIZE` (0
    /// for a whole-buffer `bind_buffer_base`), and the image unit bindings
    /// (`IMAGE_BINDING_*`, see [`Context::bind_image_texture`]). An index past the
    /// target's binding points is `INVALID_VALUE`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let b = ctx.gen_buffers(1).unwrap()[0];
    /// ctx.bind_buffer(gl::UNIFORM_BUFFER, b).unwrap();
    /// ctx.buffer_data_size(gl::UNIFORM_BUFFER, 256, gl::STATIC_DRAW).unwrap();
    /// ctx.bind_buffer_range(gl::UNIFORM_BUFFER, 3, b, 64, 32).unwrap();
    /// assert_eq!(ctx.get_integer_i_v(gl::UNIFORM_BUFFER_BINDING, 3).unwrap(), b as i64);
    /// assert_eq!(ctx.get_integer_i_v(gl::UNIFORM_BUFFER_START, 3).unwrap(), 64);
    /// assert_eq!(ctx.get_integer_i_v(gl::UNIFORM_BUFFER_SIZE, 3).unwrap(), 32);
    /// let e = ctx.get_integer_i_v(gl::UNIFORM_BUFFER_BINDING, 16).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn get_integer_i_v(&self, pname: u32, index: u32) -> Result<i64> {
        if let Some(v) = self.image_binding_query(pname, index) {
            return v;
        }
        if let Some(v) = Context::compute_limit_indexed(pname, index) {
            return v;
        }
        let (target, what) = indexed_binding(pname)
            .ok_or_else(|| Error::invalid_enum("indexed integer state", pname))?;
        if index >= indexed_count(target) {
            return Err(Error::invalid_value(format!(
                "binding point {index} of {} (max {})",
                crate::gl::name(target),
                indexed_count(target) - 1
            )));
        }
        let b = self.buffers.indexed.get(&(target, index));
        let v = match (what, b) {
            (_, None) => 0,
            (0, Some(b)) => u64::from(b.id),
            (1, Some(b)) => b.offset,
            (_, Some(b)) => b.size.unwrap_or(0),
        };
        Ok(i64::try_from(v).unwrap_or(i64::MAX))
    }
}

/// # Chapter 22 — Context state queries
impl Context {
    /// `glGetFloatv`: float state as stored (`COLOR_CLEAR_VALUE`, `DEPTH_CLEAR_VALUE`,
    /// `BLEND_COLOR`, `VIEWPORT`, `DEPTH_RANGE`, `POINT_SIZE`, `LINE_WIDTH`,
    /// `POLYGON_OFFSET_FACTOR`/`UNITS`, `CURRENT_COLOR`, `MAX_TEXTURE_MAX_ANISOTROPY`,
    /// the `MODELVIEW`/`PROJECTION`/`TEXTURE`/`CURRENT_MATRIX_ARB` matrices, column-major)
    /// and every [`Context::get_integer_v`] name converted.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(8, 4).unwrap();
    /// ctx.clear_color([0.25, 0.5, 0.75, 1.0]).unwrap();
    /// assert_eq!(ctx.get_float_v(gl::COLOR_CLEAR_VALUE).unwrap(), [0.25, 0.5, 0.75, 1.0]);
    /// assert_eq!(ctx.get_float_v(gl::VIEWPORT).unwrap(), [0.0, 0.0, 8.0, 4.0]);
    /// assert_eq!(ctx.get_float_v(gl::PROJECTION_MATRIX).unwrap()[0], 1.0);
    /// assert_eq!(ctx.get_float_v(gl::TRIANGLES).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn get_float_v(&self, pname: u32) -> Result<Vec<f32>> {
        let st = &self.st;
        let matrix = |m: &glam::DMat4| m.to_cols_array().map(|v| v as f32).to_vec();
        Ok(match pname {
            gl::COLOR_CLEAR_VALUE => st.clear_color.to_vec(),
            gl::DEPTH_CLEAR_VALUE => vec![st.clear_depth as f32],
            gl::BLEND_COLOR => st.blend_color.to_vec(),
            gl::VIEWPORT => st.viewports[0].to_vec(),
            gl::DEPTH_RANGE => st.depth_ranges[0].map(|v| v as f32).to_vec(),
            gl::POINT_SIZE => vec![st.point_size],
            gl::LINE_WIDTH => vec![st.line_width],
            gl::POLYGON_OFFSET_FACTOR => vec![st.polygon_offset[0]],
            gl::POLYGON_OFFSET_UNITS => vec![st.polygon_offset[1]],
            gl::CURRENT_COLOR => st.current_color.to_vec(),
            gl::MAX_TEXTURE_MAX_ANISOTROPY => vec![16.0],
            gl::MODELVIEW_MATRIX => matrix(&st.modelview),
            gl::PROJECTION_MATRIX => matrix(&st.projection),
            gl::TEXTURE_MATRIX => {
                let unit = (st.active_texture as usize).min(st.texture_matrix.len() - 1);
                matrix(&st.texture_matrix[unit])
            }
            gl::CURRENT_MATRIX_ARB => matrix(&self.current_matrix_value()?),
            p => self
                .get_integer_v(p)
                .map_err(|_| Error::invalid_enum("float state", p))?
                .into_iter()
                .map(|v| v as f32)
                .collect(),
        })
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
        let f = ctx.gen_framebuffers(2).unwrap();
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
    fn transform_feedback_and_parameter_buffer_bindings() {
        let mut ctx = Context::new(4, 4).unwrap();
        let get = |c: &Context, p| c.get_integer_v(p).unwrap();
        assert_eq!(get(&ctx, gl::TRANSFORM_FEEDBACK_BINDING), vec![0]);
        let t = ctx.gen_transform_feedbacks(1).unwrap()[0];
        ctx.bind_transform_feedback(gl::TRANSFORM_FEEDBACK, t)
            .unwrap();
        assert_eq!(get(&ctx, gl::TRANSFORM_FEEDBACK_BINDING), vec![t as i32]);
        assert_eq!(get(&ctx, gl::TRANSFORM_FEEDBACK_ACTIVE), vec![0]);
        ctx.begin_transform_feedback(gl::POINTS).unwrap();
        ctx.pause_transform_feedback(true).unwrap();
        assert_eq!(get(&ctx, gl::TRANSFORM_FEEDBACK_ACTIVE), vec![1]);
        assert_eq!(get(&ctx, gl::TRANSFORM_FEEDBACK_PAUSED), vec![1]);
        ctx.bind_buffer(gl::PARAMETER_BUFFER, 6).unwrap();
        assert_eq!(get(&ctx, gl::PARAMETER_BUFFER_BINDING), vec![6]);
    }

    #[test]
    fn element_buffer_binding_is_per_vertex_array() {
        let mut ctx = Context::new(4, 4).unwrap();
        let v = ctx.gen_vertex_arrays(1).unwrap()[0];
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
    fn buffer_bindings_plain_and_indexed() {
        let mut ctx = Context::new(4, 4).unwrap();
        let b = ctx.gen_buffers(1).unwrap()[0];
        ctx.bind_buffer(gl::TRANSFORM_FEEDBACK_BUFFER, b).unwrap();
        ctx.buffer_data_size(gl::TRANSFORM_FEEDBACK_BUFFER, 64, gl::STATIC_DRAW)
            .unwrap();
        ctx.bind_buffer_base(gl::TRANSFORM_FEEDBACK_BUFFER, 2, b)
            .unwrap();
        let get = |p| ctx.get_integer_v(p).unwrap();
        assert_eq!(get(gl::TRANSFORM_FEEDBACK_BUFFER_BINDING), vec![b as i32]);
        assert_eq!(get(gl::DRAW_INDIRECT_BUFFER_BINDING), vec![0]);
        let xfb = |p, i| ctx.get_integer_i_v(p, i).unwrap();
        assert_eq!(xfb(gl::TRANSFORM_FEEDBACK_BUFFER_BINDING, 2), i64::from(b));
        assert_eq!(xfb(gl::TRANSFORM_FEEDBACK_BUFFER_BINDING, 1), 0);
        assert_eq!(
            xfb(gl::TRANSFORM_FEEDBACK_BUFFER_SIZE, 2),
            0,
            "whole buffer"
        );
        assert!(ctx
            .get_integer_i_v(gl::TRANSFORM_FEEDBACK_BUFFER_START, 4)
            .is_err());
        assert!(ctx.get_integer_i_v(gl::VIEWPORT, 0).is_err());
    }

    #[test]
    fn plain_state_and_limits() {
        let mut ctx = Context::new(4, 4).unwrap();
        ctx.depth_func(gl::GEQUAL).unwrap();
        ctx.patch_vertices(5).unwrap();
        let get = |c: &Context, p| c.get_integer_v(p).unwrap();
        assert_eq!(get(&ctx, gl::DEPTH_FUNC), vec![gl::GEQUAL as i32]);
        assert_eq!(get(&ctx, gl::PATCH_VERTICES), vec![5]);
        assert_eq!(get(&ctx, gl::FRONT_FACE), vec![gl::CCW as i32]);
        assert_eq!(
            get(&ctx, gl::MAX_VIEWPORT_DIMS),
            vec![caps::MAX_TEXTURE_SIZE as i32; 2]
        );
        assert_eq!(get(&ctx, gl::SAMPLE_BUFFERS), vec![0]);
    }

    #[test]
    fn samples_of_the_default_framebuffer() {
        let ctx = Context::with_samples(4, 4, 4).unwrap();
        assert_eq!(ctx.get_integer_v(gl::SAMPLES).unwrap(), vec![4]);
        let ctx = Context::new(4, 4).unwrap();
        assert_eq!(ctx.get_integer_v(gl::SAMPLES).unwrap(), vec![0]);
    }
}
