//! Program subroutine parameters (ARB_shader_subroutine, "Dependencies on
//! NV_gpu_program5"): per program target, the SUBROUTINENUM each `program.subroutine[n]`
//! slot selects for `CALI`. They are context state, not program state, and reset when the
//! target's program is bound or respecified.

use super::stage_map::StageMap;
use super::Context;
use crate::error::{Error, Result};
use glemu_programs::{Program, Stage};

/// `MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV`.
///
/// ```
/// use glemu::{context::subroutines::MAX_PROGRAM_SUBROUTINE_PARAMETERS, gl, Context};
/// let ctx = Context::new(4, 4).unwrap();
/// let n = ctx.get_integer_v(gl::MAX_PROGRAM_SUBROUTINE_PARAMETERS_NV).unwrap();
/// assert_eq!(n, vec![MAX_PROGRAM_SUBROUTINE_PARAMETERS as i32]);
/// ```
pub const MAX_PROGRAM_SUBROUTINE_PARAMETERS: u32 = crate::caps::MAX_PROGRAM_SUBROUTINE_PARAMETERS;
/// `MAX_PROGRAM_SUBROUTINE_NUM_NV`: SUBROUTINENUMs are below this.
///
/// ```
/// assert!(glemu::context::subroutines::MAX_PROGRAM_SUBROUTINE_NUM >= 256); // the spec's minimum
/// ```
pub const MAX_PROGRAM_SUBROUTINE_NUM: u32 = crate::caps::MAX_PROGRAM_SUBROUTINE_NUM;

/// The values set per program target; `None` until the app sets them after the last
/// bind or load of that target's program.
#[derive(Debug, Default)]
pub(crate) struct Subroutines {
    values: StageMap<Option<Vec<u32>>>,
}

impl Subroutines {
    /// Back to the defaults, as binding or loading a program does.
    pub(crate) fn reset(&mut self, t: Stage) {
        self.values[t] = None;
    }
}

/// One plus the highest `program.subroutine[n]` slot `program` uses (0 if none).
fn slots_used(program: &Program) -> u32 {
    program
        .subroutine_vars
        .iter()
        .map(|v| v.first.saturating_add(v.len))
        .max()
        .unwrap_or(0)
}

/// The defaults the spec leaves arbitrary: each slot selects the lowest SUBROUTINENUM of
/// its type, so a program drawn before the app sets anything still runs a function of
/// the right type.
fn defaults(program: &Program) -> Vec<u32> {
    let mut out = vec![0; slots_used(program) as usize];
    for var in &program.subroutine_vars {
        let lowest = var.functions.iter().map(|f| f.0).min().unwrap_or(0);
        for slot in var.first..var.first.saturating_add(var.len) {
            if let Some(v) = out.get_mut(slot as usize) {
                *v = lowest;
            }
        }
    }
    out
}

/// # Chapter 11 — Program subroutines (NV_gpu_program5)
impl Context {
    /// `glProgramSubroutineParametersuivNV(target, count, params)`: sets
    /// `program.subroutine[0..params.len()]` of the program bound to `target`.
    /// `INVALID_ENUM` for a non-program target, `INVALID_OPERATION` when the bound program
    /// is not loaded or a value is not a SUBROUTINENUM of the slot's SUBROUTINETYPE,
    /// `INVALID_VALUE` when `params.len()` is not one plus the highest slot the program
    /// uses.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, "!!NVfp5.0
    /// SUBROUTINETYPE Paint { red, green };
    /// SUBROUTINE Paint paint = program.subroutine[0];
    /// red SUBROUTINENUM(3):
    /// MOV.F result.color, {1, 0, 0, 1};
    /// RET;
    /// green SUBROUTINENUM(7):
    /// MOV.F result.color, {0, 1, 0, 1};
    /// RET;
    /// main:
    /// CALI paint;
    /// END").unwrap();
    /// ctx.program_subroutine_parameters_uiv(gl::FRAGMENT_PROGRAM_ARB, &[7]).unwrap();
    /// assert_eq!(ctx.get_program_subroutine_parameter_uiv(gl::FRAGMENT_PROGRAM_ARB, 0).unwrap(), 7);
    /// let e = ctx.program_subroutine_parameters_uiv(gl::FRAGMENT_PROGRAM_ARB, &[5]).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation); // 5 is not a Paint function
    /// let e = ctx.program_subroutine_parameters_uiv(gl::FRAGMENT_PROGRAM_ARB, &[3, 3]).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue); // the program uses one slot
    /// ```
    pub fn program_subroutine_parameters_uiv(&mut self, target: u32, params: &[u32]) -> Result<()> {
        let t = super::programs::target(target)?;
        let program = self
            .programs
            .bound_object(t)
            .and_then(|o| o.program.clone())
            .ok_or_else(|| {
                Error::invalid_operation(format!(
                    "the program bound to {} is not loaded",
                    crate::gl::name(target)
                ))
            })?;
        let used = slots_used(&program);
        if params.len() as u64 != u64::from(used) {
            return Err(Error::invalid_value(format!(
                "{} subroutine parameters given; the bound program uses {used}",
                params.len()
            )));
        }
        for var in &program.subroutine_vars {
            for slot in var.first..var.first.saturating_add(var.len) {
                let Some(&v) = params.get(slot as usize) else {
                    continue;
                };
                if !var.functions.iter().any(|f| f.0 == v) {
                    return Err(Error::invalid_operation(format!(
                        "program.subroutine[{slot}] ('{}') cannot select SUBROUTINENUM {v}",
                        var.name
                    )));
                }
            }
        }
        self.subroutines.values[t] = Some(params.to_vec());
        Ok(())
    }

    /// `glGetProgramSubroutineParameteruivNV(target, index)`: the SUBROUTINENUM slot
    /// `index` selects (the default for slots the app has not set).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let ctx = Context::new(4, 4).unwrap();
    /// assert_eq!(ctx.get_program_subroutine_parameter_uiv(gl::VERTEX_PROGRAM_ARB, 0).unwrap(), 0);
    /// let e = ctx.get_program_subroutine_parameter_uiv(gl::VERTEX_PROGRAM_ARB, 1024).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidValue);
    /// assert_eq!(ctx.get_program_subroutine_parameter_uiv(gl::BLEND, 0).unwrap_err().gl, GlError::InvalidEnum);
    /// ```
    pub fn get_program_subroutine_parameter_uiv(&self, target: u32, index: u32) -> Result<u32> {
        let t = super::programs::target(target)?;
        if index >= MAX_PROGRAM_SUBROUTINE_PARAMETERS {
            return Err(Error::invalid_value(format!(
                "subroutine parameter {index} (max {})",
                MAX_PROGRAM_SUBROUTINE_PARAMETERS - 1
            )));
        }
        Ok(self
            .subroutine_values(t)
            .get(index as usize)
            .copied()
            .unwrap_or(0))
    }

    /// The values a draw hands stage `t`'s program: what the app set, else the defaults.
    pub(crate) fn subroutine_values(&self, t: Stage) -> Vec<u32> {
        if let Some(v) = &self.subroutines.values[t] {
            return v.clone();
        }
        self.programs
            .bound_object(t)
            .and_then(|o| o.program.as_deref())
            .map(defaults)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gl;

    const TWO_TYPES: &str = "!!NVfp5.0
SUBROUTINETYPE A { a0, a1 };
SUBROUTINETYPE B { b0 };
SUBROUTINE A pick[2] = { program.subroutine[0..1] };
SUBROUTINE B other = program.subroutine[3];
a0 SUBROUTINENUM(4):
RET;
a1 SUBROUTINENUM(2):
RET;
b0 SUBROUTINENUM(9):
RET;
main:
CALI pick[0];
CALI other;
END";

    #[test]
    fn defaults_pick_the_lowest_function_of_each_slots_type() {
        let mut ctx = Context::new(2, 2).unwrap();
        ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, TWO_TYPES)
            .unwrap();
        // Slot 2 is unused: any value, 0 here.
        assert_eq!(ctx.subroutine_values(Stage::Fragment), vec![2, 2, 0, 9]);
    }

    #[test]
    fn count_must_cover_the_highest_slot_and_values_their_type() {
        let mut ctx = Context::new(2, 2).unwrap();
        ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, TWO_TYPES)
            .unwrap();
        let t = gl::FRAGMENT_PROGRAM_ARB;
        assert!(ctx.program_subroutine_parameters_uiv(t, &[4, 2]).is_err());
        assert!(ctx
            .program_subroutine_parameters_uiv(t, &[4, 2, 0, 4])
            .is_err());
        ctx.program_subroutine_parameters_uiv(t, &[4, 2, 77, 9])
            .unwrap();
        assert_eq!(ctx.subroutine_values(Stage::Fragment), vec![4, 2, 77, 9]);
    }

    #[test]
    fn binding_or_loading_resets_to_defaults() {
        let mut ctx = Context::new(2, 2).unwrap();
        let t = gl::FRAGMENT_PROGRAM_ARB;
        ctx.program_string(t, TWO_TYPES).unwrap();
        ctx.program_subroutine_parameters_uiv(t, &[4, 4, 0, 9])
            .unwrap();
        ctx.bind_program(t, 0).unwrap();
        assert_eq!(ctx.subroutine_values(Stage::Fragment), vec![2, 2, 0, 9]);
        ctx.program_subroutine_parameters_uiv(t, &[4, 4, 0, 9])
            .unwrap();
        ctx.program_string(t, TWO_TYPES).unwrap();
        assert_eq!(ctx.get_program_subroutine_parameter_uiv(t, 0).unwrap(), 2);
    }

    /// A full-window quad through a pass-through vertex program.
    fn quad(ctx: &mut Context) {
        let quad: [f32; 12] = [-1., -1., 1., -1., 1., 1., -1., -1., 1., 1., -1., 1.];
        ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
        ctx.buffer_data(gl::ARRAY_BUFFER, &quad, gl::STATIC_DRAW)
            .unwrap();
        ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 0, 0)
            .unwrap();
        ctx.enable_vertex_attrib_array(0).unwrap();
        ctx.program_string(
            gl::VERTEX_PROGRAM_ARB,
            "!!ARBvp1.0\nMOV result.position, vertex.attrib[0];\nEND\n",
        )
        .unwrap();
        ctx.enable(gl::VERTEX_PROGRAM_ARB).unwrap();
        ctx.enable(gl::FRAGMENT_PROGRAM_ARB).unwrap();
    }

    /// Three functions of one type; slot 1 picks the colour, slot 0 (another type) a
    /// brightness, so a mix-up of slots shows in the probe.
    const PICK: &str = "!!NVfp5.0
SUBROUTINETYPE Colour { red, green, blue };
SUBROUTINETYPE Scale { full, half };
SUBROUTINE Scale scale = program.subroutine[0];
SUBROUTINE Colour colour = program.subroutine[1];
TEMP c;
red SUBROUTINENUM(10):
MOV.F c, {1, 0, 0, 1};
RET;
green SUBROUTINENUM(11):
MOV.F c, {0, 1, 0, 1};
RET;
blue SUBROUTINENUM(12):
MOV.F c, {0, 0, 1, 1};
RET;
full SUBROUTINENUM(1):
RET;
half SUBROUTINENUM(2):
MUL.F c.xyz, c, 0.5;
RET;
main:
CALI colour;
CALI scale;
MOV.F result.color, c;
END";

    #[test]
    fn cali_calls_the_function_each_slot_selects() {
        let mut ctx = Context::new(4, 4).unwrap();
        quad(&mut ctx);
        let t = gl::FRAGMENT_PROGRAM_ARB;
        ctx.program_string(t, PICK).unwrap();
        let draw = |ctx: &mut Context, params: Option<&[u32]>| {
            if let Some(p) = params {
                ctx.program_subroutine_parameters_uiv(t, p).unwrap();
            }
            ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
            ctx.read_pixel(2, 2).unwrap()
        };
        // Defaults: the lowest SUBROUTINENUM of each type (full, red).
        assert_eq!(draw(&mut ctx, None), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(draw(&mut ctx, Some(&[1, 11])), [0.0, 1.0, 0.0, 1.0]);
        assert_eq!(
            draw(&mut ctx, Some(&[2, 12])),
            [0.0, 0.0, 128.0 / 255.0, 1.0]
        );
        assert_eq!(
            draw(&mut ctx, Some(&[2, 10])),
            [128.0 / 255.0, 0.0, 0.0, 1.0]
        );
        // A rejected update leaves the previous values.
        assert!(ctx.program_subroutine_parameters_uiv(t, &[12, 1]).is_err());
        assert_eq!(draw(&mut ctx, None), [128.0 / 255.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn unloaded_program_is_invalid_operation() {
        let mut ctx = Context::new(2, 2).unwrap();
        let e = ctx
            .program_subroutine_parameters_uiv(gl::VERTEX_PROGRAM_ARB, &[])
            .unwrap_err();
        assert_eq!(e.gl, crate::GlError::InvalidOperation);
    }
}
