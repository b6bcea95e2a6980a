//! `glGetProgramivARB`: the loaded program's resource counts and glemu's program limits.

use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_programs::ir::{Extra, File, Index, Opcode, Program};
use glemu_programs::Stage;
use std::collections::HashSet;

/// Limits glemu does not impose report this: any count loads and runs (programs are
/// bounded by the text the app supplies and, at run time, the per-invocation
/// instruction budget).
const UNLIMITED: i32 = i32::MAX;

/// Whether ARB_fragment_program counts `inst` as a texture instruction (TEX/TXP/TXB and
/// KIL; every NV texture-unit instruction likewise).
fn is_texture(inst: &glemu_programs::ir::Inst) -> bool {
    matches!(inst.extra, Extra::Tex(_)) || inst.op == Opcode::Kil
}

/// Texture indirections as ARB_fragment_program section 3.11.4.5 defines them: a new
/// one starts when a texture instruction reads a temporary written since the current
/// one began, or writes a temporary an ALU instruction of the current one read.
fn texture_indirections(p: &Program) -> i32 {
    let mut count = 1;
    let mut written: HashSet<u32> = HashSet::new();
    let mut alu_read: HashSet<u32> = HashSet::new();
    let temp = |file: File, index: &Index| match (file, index) {
        (File::Temp, Index::Direct(i)) => Some(*i),
        _ => None,
    };
    for inst in &p.instructions {
        let dst = inst.dst.as_ref().and_then(|d| temp(d.file, &d.index));
        if is_texture(inst) {
            let reads_new = inst
                .srcs
                .iter()
                .filter_map(|s| temp(s.file, &s.index))
                .any(|t| written.contains(&t));
            let overwrites_read = dst.is_some_and(|d| alu_read.contains(&d));
            if reads_new || overwrites_read {
                count += 1;
                written.clear();
                alu_read.clear();
            }
        } else {
            alu_read.extend(inst.srcs.iter().filter_map(|s| temp(s.file, &s.index)));
        }
        if let Some(d) = dst {
            written.insert(d);
        }
    }
    count
}

fn count(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// # Chapter 11 — Program queries
///
/// `get_program_iv` and friends.
impl Context {
    /// `glGetProgramivARB(target, pname)`: for the program bound to `target`, its text
    /// length, format and binding, the instructions, temporaries, parameters, attributes
    /// and address registers it uses (the `NATIVE` counts are the same: glemu runs
    /// every program as written, so `PROGRAM_UNDER_NATIVE_LIMITS` is 1 once loaded), the
    /// ALU/texture instruction split and texture indirections of fragment programs, and
    /// the `MAX_*` limits (`i32::MAX` where glemu imposes none).
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// let fp = "!!ARBfp1.0\nTEMP t;\nTEX t, fragment.texcoord[0], texture[0], 2D;\nMUL result.color, t, program.local[0];\nEND\n";
    /// ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 5).unwrap();
    /// ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, fp).unwrap();
    /// let q = |p| ctx.get_program_iv(gl::FRAGMENT_PROGRAM_ARB, p).unwrap();
    /// assert_eq!(q(gl::PROGRAM_INSTRUCTIONS_ARB), 2);
    /// assert_eq!(q(gl::PROGRAM_TEX_INSTRUCTIONS_ARB), 1);
    /// assert_eq!(q(gl::PROGRAM_ALU_INSTRUCTIONS_ARB), 1);
    /// assert_eq!(q(gl::PROGRAM_TEMPORARIES_ARB), 1);
    /// assert_eq!(q(gl::PROGRAM_BINDING_ARB), 5);
    /// assert_eq!(q(gl::PROGRAM_LENGTH_ARB), fp.len() as i32);
    /// let e = ctx.get_program_iv(gl::FRAGMENT_PROGRAM_ARB, gl::BLEND).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidEnum);
    /// ```
    pub fn get_program_iv(&self, target: u32, pname: u32) -> Result<i32> {
        let t = super::programs::target(target)?;
        let fragment = t == Stage::Fragment;
        // Limits first: they do not need a program.
        let limit = match pname {
            gl::MAX_PROGRAM_INSTRUCTIONS_ARB
            | gl::MAX_PROGRAM_NATIVE_INSTRUCTIONS_ARB
            | gl::MAX_PROGRAM_PARAMETERS_ARB
            | gl::MAX_PROGRAM_NATIVE_PARAMETERS_ARB => Some(UNLIMITED),
            gl::MAX_PROGRAM_ALU_INSTRUCTIONS_ARB
            | gl::MAX_PROGRAM_NATIVE_ALU_INSTRUCTIONS_ARB
            | gl::MAX_PROGRAM_TEX_INSTRUCTIONS_ARB
            | gl::MAX_PROGRAM_NATIVE_TEX_INSTRUCTIONS_ARB
            | gl::MAX_PROGRAM_TEX_INDIRECTIONS_ARB
            | gl::MAX_PROGRAM_NATIVE_TEX_INDIRECTIONS_ARB
                if fragment =>
            {
                Some(UNLIMITED)
            }
            p => crate::caps::limit_by_pname(crate::caps::Query::Program, p)
                .and_then(|l| l.value.first().copied()),
        };
        if let Some(v) = limit {
            return Ok(v);
        }
        let binding = self.programs.bound[t];
        let object = self.programs.bound_object(t);
        let program = object.and_then(|o| o.program.as_deref());
        let used = |f: fn(&Program) -> i32| program.map_or(0, f);
        Ok(match pname {
            gl::PROGRAM_LENGTH_ARB => count(object.map_or(0, |o| o.source.len())),
            gl::PROGRAM_FORMAT_ARB => gl::PROGRAM_FORMAT_ASCII_ARB as i32,
            gl::PROGRAM_BINDING_ARB => i32::try_from(binding).unwrap_or(i32::MAX),
            gl::PROGRAM_INSTRUCTIONS_ARB | gl::PROGRAM_NATIVE_INSTRUCTIONS_ARB => {
                used(|p| count(p.instructions.len()))
            }
            gl::PROGRAM_TEMPORARIES_ARB | gl::PROGRAM_NATIVE_TEMPORARIES_ARB => {
                used(|p| count(p.temps.len()))
            }
            gl::PROGRAM_PARAMETERS_ARB | gl::PROGRAM_NATIVE_PARAMETERS_ARB => {
                used(|p| count(p.params.len()))
            }
            gl::PROGRAM_ATTRIBS_ARB | gl::PROGRAM_NATIVE_ATTRIBS_ARB => {
                used(|p| count(p.inputs.len()))
            }
            gl::PROGRAM_ADDRESS_REGISTERS_ARB | gl::PROGRAM_NATIVE_ADDRESS_REGISTERS_ARB => {
                used(|p| i32::try_from(p.address_regs).unwrap_or(i32::MAX))
            }
            gl::PROGRAM_UNDER_NATIVE_LIMITS_ARB => i32::from(program.is_some()),
            gl::PROGRAM_ALU_INSTRUCTIONS_ARB | gl::PROGRAM_NATIVE_ALU_INSTRUCTIONS_ARB
                if fragment =>
            {
                used(|p| count(p.instructions.iter().filter(|i| !is_texture(i)).count()))
            }
            gl::PROGRAM_TEX_INSTRUCTIONS_ARB | gl::PROGRAM_NATIVE_TEX_INSTRUCTIONS_ARB
                if fragment =>
            {
                used(|p| count(p.instructions.iter().filter(|i| is_texture(i)).count()))
            }
            gl::PROGRAM_TEX_INDIRECTIONS_ARB | gl::PROGRAM_NATIVE_TEX_INDIRECTIONS_ARB
                if fragment =>
            {
                used(texture_indirections)
            }
            p => return Err(Error::invalid_enum("program parameter name", p)),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{gl, Context};

    fn fp_query(text: &str, pname: u32) -> i32 {
        let mut ctx = Context::new(4, 4).unwrap();
        ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 1).unwrap();
        ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, text).unwrap();
        ctx.get_program_iv(gl::FRAGMENT_PROGRAM_ARB, pname).unwrap()
    }

    #[test]
    fn dependent_reads_start_new_texture_indirections() {
        let independent = "!!ARBfp1.0\nTEMP a, b;\nTEX a, fragment.texcoord[0], texture[0], 2D;\nTEX b, fragment.texcoord[1], texture[1], 2D;\nADD result.color, a, b;\nEND\n";
        assert_eq!(fp_query(independent, gl::PROGRAM_TEX_INDIRECTIONS_ARB), 1);
        // The second lookup's coordinate comes from the first: a dependent read.
        let dependent = "!!ARBfp1.0\nTEMP a, b;\nTEX a, fragment.texcoord[0], texture[0], 2D;\nTEX b, a, texture[1], 2D;\nMOV result.color, b;\nEND\n";
        assert_eq!(fp_query(dependent, gl::PROGRAM_TEX_INDIRECTIONS_ARB), 2);
        // An ALU result as a coordinate is a dependency too; so is KIL of one.
        let alu = "!!ARBfp1.0\nTEMP a;\nMUL a, fragment.texcoord[0], 2;\nKIL a;\nTEX result.color, a, texture[0], 2D;\nEND\n";
        assert_eq!(fp_query(alu, gl::PROGRAM_TEX_INDIRECTIONS_ARB), 2);
        assert_eq!(fp_query(alu, gl::PROGRAM_TEX_INSTRUCTIONS_ARB), 2);
        assert_eq!(fp_query(alu, gl::PROGRAM_ALU_INSTRUCTIONS_ARB), 1);
    }

    #[test]
    fn counts_without_a_program_are_zero_and_limits_hold() {
        let ctx = Context::new(4, 4).unwrap();
        let q = |p| ctx.get_program_iv(gl::VERTEX_PROGRAM_ARB, p).unwrap();
        assert_eq!(q(gl::PROGRAM_INSTRUCTIONS_ARB), 0);
        assert_eq!(q(gl::PROGRAM_UNDER_NATIVE_LIMITS_ARB), 0);
        assert_eq!(q(gl::MAX_PROGRAM_ENV_PARAMETERS_ARB), 256);
        // Fragment-only names on a vertex target.
        assert!(ctx
            .get_program_iv(gl::VERTEX_PROGRAM_ARB, gl::PROGRAM_TEX_INSTRUCTIONS_ARB)
            .is_err());
    }

    #[test]
    fn vertex_program_counts() {
        let mut ctx = Context::new(4, 4).unwrap();
        let vp = "!!ARBvp1.0\nADDRESS a;\nTEMP t, u;\nPARAM m[2] = { program.env[0..1] };\nARL a.x, vertex.attrib[1].x;\nADD t, vertex.position, m[a.x];\nMOV u, vertex.color;\nADD result.position, t, u;\nEND\n";
        ctx.bind_program(gl::VERTEX_PROGRAM_ARB, 3).unwrap();
        ctx.program_string(gl::VERTEX_PROGRAM_ARB, vp).unwrap();
        let q = |p| ctx.get_program_iv(gl::VERTEX_PROGRAM_ARB, p).unwrap();
        assert_eq!(q(gl::PROGRAM_INSTRUCTIONS_ARB), 4);
        assert_eq!(q(gl::PROGRAM_TEMPORARIES_ARB), 2);
        assert_eq!(q(gl::PROGRAM_ADDRESS_REGISTERS_ARB), 1);
        assert_eq!(q(gl::PROGRAM_ATTRIBS_ARB), 3);
        assert_eq!(q(gl::PROGRAM_PARAMETERS_ARB), 2);
        assert_eq!(q(gl::PROGRAM_UNDER_NATIVE_LIMITS_ARB), 1);
    }
}
