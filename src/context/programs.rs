//! Program objects (ARB_vertex_program's object model, shared by every NV program target):
//! loading text, binding, env/local/named parameters, error position and string.

use super::gl_enum::{GlEnum, TrackTransform, TrackedMatrix};
use super::stage_map::StageMap;
use super::Context;
use crate::error::{Cause, Error, ProgramLocation, Result};
use crate::gl;
use glemu_pipeline::PipelineError;
use glemu_programs::{assemble_with, Program, Stage};
use std::collections::HashMap;
use std::sync::Arc;

/// `MAX_PROGRAM_ENV_PARAMETERS_ARB` for every target.
///
/// ```
/// use glemu::{context::programs::MAX_ENV_PARAMETERS, gl, Context, GlError};
/// let mut ctx = Context::new(4, 4).unwrap();
/// let last = MAX_ENV_PARAMETERS as u32 - 1;
/// ctx.program_env_parameter_4f(gl::VERTEX_PROGRAM_ARB, last, [1.0; 4]).unwrap();
/// let e = ctx.program_env_parameter_4f(gl::VERTEX_PROGRAM_ARB, last + 1, [1.0; 4]);
/// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
/// ```
pub const MAX_ENV_PARAMETERS: usize = crate::caps::LIMITS.max_program_env_parameters as usize;
/// `MAX_PROGRAM_LOCAL_PARAMETERS_ARB` for every target.
///
/// ```
/// assert!(glemu::context::programs::MAX_LOCAL_PARAMETERS >= 96); // ARB_vertex_program's minimum
/// ```
pub const MAX_LOCAL_PARAMETERS: usize = crate::caps::LIMITS.max_program_local_parameters as usize;
/// The stage a program target runs at; `FRAGMENT_PROGRAM_NV` shares the fragment stage
/// with `FRAGMENT_PROGRAM_ARB`.
///
/// ```
/// use glemu::{context::programs::{stage_target, target_stage}, gl, programs::Stage};
/// assert_eq!(target_stage(gl::FRAGMENT_PROGRAM_NV), Some(Stage::Fragment));
/// assert_eq!(target_stage(gl::TRIANGLES), None);
/// for s in [Stage::Vertex, Stage::TessControl, Stage::TessEval, Stage::Geometry, Stage::Fragment, Stage::Compute] {
///     assert_eq!(target_stage(stage_target(s)), Some(s));
/// }
/// ```
pub const fn target_stage(target: u32) -> Option<Stage> {
    match target {
        gl::VERTEX_PROGRAM_ARB => Some(Stage::Vertex),
        gl::FRAGMENT_PROGRAM_ARB | gl::FRAGMENT_PROGRAM_NV => Some(Stage::Fragment),
        gl::GEOMETRY_PROGRAM_NV => Some(Stage::Geometry),
        gl::TESS_CONTROL_PROGRAM_NV => Some(Stage::TessControl),
        gl::TESS_EVALUATION_PROGRAM_NV => Some(Stage::TessEval),
        gl::COMPUTE_PROGRAM_NV => Some(Stage::Compute),
        _ => None,
    }
}

/// The program target of a stage (the ARB name where there are two).
pub const fn stage_target(stage: Stage) -> u32 {
    match stage {
        Stage::Vertex => gl::VERTEX_PROGRAM_ARB,
        Stage::TessControl => gl::TESS_CONTROL_PROGRAM_NV,
        Stage::TessEval => gl::TESS_EVALUATION_PROGRAM_NV,
        Stage::Geometry => gl::GEOMETRY_PROGRAM_NV,
        Stage::Fragment => gl::FRAGMENT_PROGRAM_ARB,
        Stage::Compute => gl::COMPUTE_PROGRAM_NV,
    }
}

/// One program object.
#[derive(Clone, Debug, Default)]
pub(crate) struct ProgramObject {
    /// The target's stage once first bound.
    pub target: Option<Stage>,
    pub program: Option<Arc<Program>>,
    pub source: String,
    /// Local parameters up to the highest one written (the rest read as zero): a program
    /// name costs a few bytes until its parameters are set.
    pub local: Vec<[u32; 4]>,
    pub named: HashMap<String, [u32; 4]>,
}

impl ProgramObject {
    fn new(target: Option<Stage>) -> ProgramObject {
        ProgramObject {
            target,
            ..Default::default()
        }
    }

    /// The local parameters `range` (inside `MAX_LOCAL_PARAMETERS`), zero until written.
    fn locals_mut(&mut self, range: std::ops::Range<usize>) -> &mut [[u32; 4]] {
        if self.local.len() < range.end {
            self.local.resize(range.end, [0; 4]);
        }
        &mut self.local[range]
    }
}

/// A VP1 `TrackMatrixNV` entry: env parameters `address..address+4` follow a matrix.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tracking {
    pub address: u32,
    pub matrix: TrackedMatrix,
    pub transform: TrackTransform,
}

/// All program objects and per-target bindings.
#[derive(Debug)]
pub(crate) struct ProgramObjects {
    pub objects: HashMap<u32, ProgramObject>,
    /// Each target's default program (name 0).
    pub defaults: StageMap<ProgramObject>,
    pub bound: StageMap<u32>,
    pub env: StageMap<Vec<[u32; 4]>>,
    pub next_id: u32,
    pub error_position: i32,
    pub error_string: String,
    pub tracking: Vec<Tracking>,
}

impl Default for ProgramObjects {
    fn default() -> ProgramObjects {
        ProgramObjects {
            objects: HashMap::new(),
            defaults: StageMap::from_fn(|s| ProgramObject::new(Some(s))),
            bound: StageMap::default(),
            env: StageMap::from_fn(|_| vec![[0; 4]; MAX_ENV_PARAMETERS]),
            next_id: 0,
            error_position: -1,
            error_string: String::new(),
            tracking: Vec::new(),
        }
    }
}

impl ProgramObjects {
    pub(crate) fn bound_object(&self, t: Stage) -> Option<&ProgramObject> {
        match self.bound[t] {
            0 => Some(&self.defaults[t]),
            id => self.objects.get(&id),
        }
    }

    fn bound_object_mut(&mut self, t: Stage) -> Option<&mut ProgramObject> {
        match self.bound[t] {
            0 => Some(&mut self.defaults[t]),
            id => self.objects.get_mut(&id),
        }
    }
}

/// The stage of a program target, `INVALID_ENUM` for anything else.
pub(crate) fn target(target: u32) -> Result<Stage> {
    target_stage(target).ok_or_else(|| Error::invalid_enum("program target", target))
}

fn param_index(index: u32, max: usize) -> Result<usize> {
    let i = index as usize;
    if i >= max {
        return Err(Error::invalid_value(format!(
            "program parameter index {index} is out of range (max {})",
            max - 1
        )));
    }
    Ok(i)
}

/// Parameters `index..index + count` when they all exist (EXT_gpu_program_parameters).
fn param_range(index: u32, count: usize, max: usize) -> Result<std::ops::Range<usize>> {
    let start = index as usize;
    match start.checked_add(count) {
        Some(end) if end <= max => Ok(start..end),
        _ => Err(Error::invalid_value(format!(
            "program parameters {index}..{index}+{count} run past the last one ({})",
            max - 1
        ))),
    }
}

/// # Chapter 11 — Assembly programs
///
/// Program objects, `program_string`, env/local parameters (see the program-binding table
/// on [`Context`]).
impl Context {
    /// `glGenProgramsARB`: reserves `n` program names.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let ids = ctx.gen_programs(2).unwrap();
    /// assert_eq!(ids.len(), 2);
    /// assert_ne!(ids[0], ids[1]);
    /// ```
    pub fn gen_programs(&mut self, n: usize) -> Result<Vec<u32>> {
        let room = self.memory_room();
        let p = &mut self.programs;
        super::names::generate(
            "program",
            n,
            room,
            &mut p.next_id,
            &mut p.objects,
            super::names::NONE_OUTSIDE,
            || ProgramObject::new(None),
        )
    }

    /// `glBindProgramARB`: binds program `id` (0 = the target's default program) to
    /// `target`. A name used with another target is `INVALID_OPERATION`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let id = ctx.gen_programs(1).unwrap()[0];
    /// ctx.bind_program(gl::VERTEX_PROGRAM_ARB, id).unwrap();
    /// let e = ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, id).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation);
    /// ```
    pub fn bind_program(&mut self, target_enum: u32, id: u32) -> Result<()> {
        let t = target(target_enum)?;
        if id != 0 {
            let obj = self
                .programs
                .objects
                .entry(id)
                .or_insert_with(|| ProgramObject::new(None));
            match obj.target {
                Some(o) if o != t => {
                    return Err(Error::invalid_operation(format!(
                        "program {id} was created for another target"
                    )))
                }
                _ => obj.target = Some(t),
            }
        }
        self.programs.bound[t] = id;
        self.subroutines.reset(t);
        Ok(())
    }

    /// `glDeleteProgramsARB`. Deleting a bound program binds the default one.
    ///
    /// ```
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let id = ctx.gen_programs(1).unwrap()[0];
    /// ctx.delete_programs(&[id]);
    /// ```
    pub fn delete_programs(&mut self, ids: &[u32]) {
        for id in ids {
            if *id == 0 {
                continue;
            }
            self.programs.objects.remove(id);
            for b in self.programs.bound.values_mut() {
                if b == id {
                    *b = 0;
                }
            }
        }
    }

    /// `glProgramStringARB(target, PROGRAM_FORMAT_ASCII_ARB, text)`: assembles `text` into
    /// the program bound to `target`. On failure the error position and string are set
    /// (see [`Context::program_error_position`]) and `INVALID_OPERATION` is returned; the
    /// previously loaded program stays.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let bad = ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, "!!ARBvp1.0\nEND\n");
    /// assert!(bad.is_err());
    /// assert_eq!(ctx.program_error_position(), 0);
    /// ```
    pub fn program_string(&mut self, target_enum: u32, text: &str) -> Result<()> {
        let t = target(target_enum)?;
        let max = crate::caps::MAX_PROGRAM_TEXT_BYTES;
        if text.len() > max {
            let m = format!(
                "program text of {} bytes exceeds glemu's limit of {max} bytes",
                text.len()
            );
            // Reported like a load error too (PROGRAM_ERROR_STRING, position 0).
            self.programs.error_position = 0;
            self.programs.error_string = format!("1:1: {m}");
            let at = ProgramLocation::new(t, text, 0, None);
            return Err(Error::out_of_memory(m).at(at));
        }
        match assemble_with(text, Some(t), &crate::caps::LIMITS) {
            Ok(program) => {
                self.programs.error_position = -1;
                self.programs.error_string.clear();
                let obj = self
                    .programs
                    .bound_object_mut(t)
                    .ok_or_else(|| Error::invalid_operation("no program object is bound"))?;
                obj.program = Some(Arc::new(program));
                obj.source = text.to_string();
                obj.named.clear();
                self.subroutines.reset(t);
                Ok(())
            }
            Err(e) => {
                self.programs.error_position = i32::try_from(e.position()).unwrap_or(i32::MAX);
                let at = ProgramLocation::new(t, text, e.span.start, None);
                self.programs.error_string = format!("{}:{}: {}", at.line, at.column, e.message);
                Err(Error::invalid_operation(format!(
                    "program failed to load: {}",
                    self.programs.error_string
                ))
                .at(at)
                .caused_by(Cause::Load(e)))
            }
        }
    }

    /// `e` located in the text of the enabled program whose run-time error it wraps (a
    /// draw or dispatch's [`PipelineError::Program`]).
    pub(crate) fn locate_run_error(&self, e: Error) -> Error {
        let Some(Cause::Pipeline(PipelineError::Program { stage, source, .. })) =
            e.cause.as_deref()
        else {
            return e;
        };
        let (stage, byte, inst) = (*stage, source.span.start, source.inst);
        // A stage without an enabled program ran a generated (fixed-function) one.
        let enabled = self.st.program_enabled[stage];
        match self.programs.bound_object(stage) {
            Some(o) if enabled && !o.source.is_empty() => {
                let at = ProgramLocation::new(stage, &o.source, byte, Some(inst));
                e.at(at)
            }
            _ => e,
        }
    }

    /// `PROGRAM_ERROR_POSITION_ARB`: byte offset of the last load error, -1 if the last
    /// load succeeded.
    ///
    /// ```
    /// let ctx = glemu::Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.program_error_position(), -1);
    /// ```
    pub fn program_error_position(&self) -> i32 {
        self.programs.error_position
    }

    /// `PROGRAM_ERROR_STRING_ARB`: `LINE:COL: message` of the last load error, empty
    /// after a successful load.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let _ = ctx.program_string(gl::VERTEX_PROGRAM_ARB, "!!ARBvp1.0\nFOO;\nEND\n");
    /// assert!(ctx.program_error_string().starts_with("2:"));
    /// ```
    pub fn program_error_string(&self) -> &str {
        &self.programs.error_string
    }

    /// The compiled program bound to `target`, if one is loaded: its interface (inputs,
    /// outputs, parameters, textures) for tools.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let ctx = Context::new(4, 4).unwrap();
    /// assert!(ctx.program(gl::VERTEX_PROGRAM_ARB).unwrap().is_none());
    /// ```
    pub fn program(&self, target_enum: u32) -> Result<Option<Arc<Program>>> {
        let t = target(target_enum)?;
        Ok(self
            .programs
            .bound_object(t)
            .and_then(|o| o.program.clone()))
    }

    /// `glProgramEnvParameter4fARB`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.program_env_parameter_4f(gl::VERTEX_PROGRAM_ARB, 3, [1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let e = ctx.program_env_parameter_4f(gl::VERTEX_PROGRAM_ARB, 9999, [0.0; 4]).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn program_env_parameter_4f(
        &mut self,
        target_enum: u32,
        index: u32,
        v: impl Into<[f32; 4]>,
    ) -> Result<()> {
        self.program_env_parameter_bits(target_enum, index, v.into().map(f32::to_bits))
    }

    /// `glProgramEnvParameterI4iNV` / `I4uiNV`: raw 32-bit values.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.program_env_parameter_bits(gl::FRAGMENT_PROGRAM_ARB, 0, [1, 2, 3, 4]).unwrap();
    /// assert_eq!(ctx.get_program_env_parameter(gl::FRAGMENT_PROGRAM_ARB, 0).unwrap(), [1, 2, 3, 4]);
    /// ```
    pub fn program_env_parameter_bits(
        &mut self,
        target_enum: u32,
        index: u32,
        v: [u32; 4],
    ) -> Result<()> {
        let t = target(target_enum)?;
        let i = param_index(index, MAX_ENV_PARAMETERS)?;
        if let Some(slot) = self.programs.env[t].get_mut(i) {
            *slot = v;
        }
        Ok(())
    }

    /// `glProgramEnvParameters4fvEXT` (EXT_gpu_program_parameters): env parameters
    /// `index..index + params.len()` of `target` at once. Running past the last
    /// parameter is `INVALID_VALUE` and writes nothing.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let rows = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]];
    /// ctx.program_env_parameters_4fv(gl::VERTEX_PROGRAM_ARB, 4, &rows).unwrap();
    /// assert_eq!(ctx.get_program_env_parameter(gl::VERTEX_PROGRAM_ARB, 5).unwrap()[1], 1.0f32.to_bits());
    /// let e = ctx.program_env_parameters_4fv(gl::VERTEX_PROGRAM_ARB, 255, &rows).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// ```
    pub fn program_env_parameters_4fv<T: Copy + Into<[f32; 4]>>(
        &mut self,
        target_enum: u32,
        index: u32,
        params: &[T],
    ) -> Result<()> {
        let t = target(target_enum)?;
        let range = param_range(index, params.len(), MAX_ENV_PARAMETERS)?;
        if let Some(slots) = self.programs.env[t].get_mut(range) {
            for (slot, v) in slots.iter_mut().zip(params) {
                *slot = (*v).into().map(f32::to_bits);
            }
        }
        Ok(())
    }

    /// Writes the four rows of `m` to env parameters `index..index + 4` of `target`:
    /// the vectors a `DP4 result.position.x, c[index], pos;` .. `DP4 ...w, c[index + 3],
    /// pos;` transform reads (GL matrices are column-major; programs dot rows).
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let m = glam::Mat4::from_translation(glam::Vec3::new(1.0, 2.0, 3.0));
    /// ctx.program_env_matrix(gl::VERTEX_PROGRAM_ARB, 8, m).unwrap();
    /// let row0 = ctx.get_program_env_parameter(gl::VERTEX_PROGRAM_ARB, 8).unwrap();
    /// assert_eq!(row0.map(f32::from_bits), [1.0, 0.0, 0.0, 1.0]);
    /// ```
    pub fn program_env_matrix(
        &mut self,
        target_enum: u32,
        index: u32,
        m: glam::Mat4,
    ) -> Result<()> {
        let rows = [m.row(0), m.row(1), m.row(2), m.row(3)];
        self.program_env_parameters_4fv(target_enum, index, &rows)
    }

    /// `glProgramLocalParameters4fvEXT`: local parameters `index..index + params.len()`
    /// of the program bound to `target`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 1).unwrap();
    /// ctx.program_local_parameters_4fv(gl::FRAGMENT_PROGRAM_ARB, 0, &[[0.5; 4]; 3]).unwrap();
    /// assert_eq!(ctx.get_program_local_parameter(gl::FRAGMENT_PROGRAM_ARB, 2).unwrap(), [0.5f32.to_bits(); 4]);
    /// let e = ctx.program_local_parameters_4fv(gl::FRAGMENT_PROGRAM_ARB, 1023, &[[0.0; 4]; 2]);
    /// assert_eq!(e.unwrap_err().gl, GlError::InvalidValue);
    /// ```
    pub fn program_local_parameters_4fv<T: Copy + Into<[f32; 4]>>(
        &mut self,
        target_enum: u32,
        index: u32,
        params: &[T],
    ) -> Result<()> {
        let t = target(target_enum)?;
        let range = param_range(index, params.len(), MAX_LOCAL_PARAMETERS)?;
        let obj = self
            .programs
            .bound_object_mut(t)
            .ok_or_else(|| Error::invalid_operation("no program object is bound"))?;
        for (slot, v) in obj.locals_mut(range).iter_mut().zip(params) {
            *slot = (*v).into().map(f32::to_bits);
        }
        Ok(())
    }

    /// `glGetProgramEnvParameter*`: raw bits.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.get_program_env_parameter(gl::VERTEX_PROGRAM_ARB, 0).unwrap(), [0; 4]);
    /// ```
    pub fn get_program_env_parameter(&self, target_enum: u32, index: u32) -> Result<[u32; 4]> {
        let t = target(target_enum)?;
        let i = param_index(index, MAX_ENV_PARAMETERS)?;
        Ok(self.programs.env[t].get(i).copied().unwrap_or([0; 4]))
    }

    /// `glProgramLocalParameter4fARB` on the program bound to `target`.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.program_local_parameter_4f(gl::FRAGMENT_PROGRAM_ARB, 1, [0.5; 4]).unwrap();
    /// ```
    pub fn program_local_parameter_4f(
        &mut self,
        target_enum: u32,
        index: u32,
        v: impl Into<[f32; 4]>,
    ) -> Result<()> {
        self.program_local_parameter_bits(target_enum, index, v.into().map(f32::to_bits))
    }

    /// `glProgramLocalParameterI4iNV` / `I4uiNV`: raw 32-bit values.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.program_local_parameter_bits(gl::VERTEX_PROGRAM_ARB, 1, [7; 4]).unwrap();
    /// assert_eq!(ctx.get_program_local_parameter(gl::VERTEX_PROGRAM_ARB, 1).unwrap(), [7; 4]);
    /// ```
    pub fn program_local_parameter_bits(
        &mut self,
        target_enum: u32,
        index: u32,
        v: [u32; 4],
    ) -> Result<()> {
        let t = target(target_enum)?;
        let i = param_index(index, MAX_LOCAL_PARAMETERS)?;
        let obj = self
            .programs
            .bound_object_mut(t)
            .ok_or_else(|| Error::invalid_operation("no program object is bound"))?;
        obj.locals_mut(i..i + 1)[0] = v;
        Ok(())
    }

    /// `glGetProgramLocalParameter*`: raw bits.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.get_program_local_parameter(gl::VERTEX_PROGRAM_ARB, 0).unwrap(), [0; 4]);
    /// ```
    pub fn get_program_local_parameter(&self, target_enum: u32, index: u32) -> Result<[u32; 4]> {
        let t = target(target_enum)?;
        let i = param_index(index, MAX_LOCAL_PARAMETERS)?;
        let obj = self
            .programs
            .bound_object(t)
            .ok_or_else(|| Error::invalid_operation("no program object is bound"))?;
        Ok(obj.local.get(i).copied().unwrap_or([0; 4]))
    }

    /// `glProgramNamedParameter4fNV`: sets an FP1 `DECLARE`d parameter of the fragment
    /// program bound to `FRAGMENT_PROGRAM_NV`. An unknown name is `INVALID_VALUE`.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let e = ctx.program_named_parameter_4f("nope", [0.0; 4]).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation);
    /// ```
    pub fn program_named_parameter_4f(&mut self, name: &str, v: impl Into<[f32; 4]>) -> Result<()> {
        let v = v.into();
        let obj = self
            .programs
            .bound_object_mut(Stage::Fragment)
            .ok_or_else(|| Error::invalid_operation("no fragment program is bound"))?;
        let Some(program) = &obj.program else {
            return Err(Error::invalid_operation(
                "the bound fragment program is not loaded",
            ));
        };
        let known = program.params.iter().any(
            |p| matches!(p, glemu_programs::ir::ParamSource::Named { name: n, .. } if n == name),
        );
        if !known {
            return Err(Error::invalid_value(format!(
                "the fragment program declares no parameter '{name}'"
            )));
        }
        obj.named.insert(name.to_string(), v.map(f32::to_bits));
        Ok(())
    }

    /// `glTrackMatrixNV`: env parameters `address..address+4` of the vertex target follow
    /// `matrix` (`MODELVIEW`, `PROJECTION`, `0x8629` MODELVIEW_PROJECTION_NV, `TEXTURE`,
    /// `MATRIXi`) under `transform` (`0x862A` IDENTITY_NV, `0x862B` INVERSE_NV, `0x862C`
    /// TRANSPOSE_NV, `0x862D` INVERSE_TRANSPOSE_NV); `NONE` stops tracking.
    ///
    /// ```
    /// use glemu::{gl, Context};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.track_matrix_nv(gl::VERTEX_PROGRAM_ARB, 0, 0x8629, 0x862A).unwrap();
    /// assert!(ctx.track_matrix_nv(gl::VERTEX_PROGRAM_ARB, 2, 0x8629, 0x862A).is_err());
    /// ```
    pub fn track_matrix_nv(
        &mut self,
        target_enum: u32,
        address: u32,
        matrix: u32,
        transform: u32,
    ) -> Result<()> {
        if target_enum != gl::VERTEX_PROGRAM_ARB {
            return Err(Error::invalid_enum("TrackMatrixNV target", target_enum));
        }
        if !address.is_multiple_of(4) || address as usize + 4 > MAX_ENV_PARAMETERS {
            return Err(Error::invalid_value(format!(
                "TrackMatrixNV address {address} is not a multiple of 4 in range"
            )));
        }
        // NONE stops tracking.
        let matrix = match matrix {
            gl::NONE => None,
            m => Some(TrackedMatrix::parse(m)?),
        };
        let transform = TrackTransform::parse(transform)?;
        self.programs.tracking.retain(|t| t.address != address);
        if let Some(matrix) = matrix {
            self.programs.tracking.push(Tracking {
                address,
                matrix,
                transform,
            });
        }
        Ok(())
    }
}
