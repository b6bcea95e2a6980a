//! Fixed-function stages as programs: when a vertex or fragment target is disabled the
//! draw runs ARB program text generated from the state (and cached by the state it
//! depends on); `OPTION ARB_position_invariant` programs get the same position transform
//! prepended to their instructions.

use super::state::{tex_enable, MAX_TEXTURE_COORDS};
use super::Context;
use crate::error::{Error, Result};
use glemu_programs::ir::{
    DataType, Dst, Extra, File, Index, InputBinding, InputSlot, Inst, Interp, MatrixModifier,
    MatrixName, Opcode, OutputBinding, OutputSlot, ParamSource, Precision, RegInfo, Saturate, Src,
    StateBinding, VaryingSlot,
};
use glemu_programs::{assemble, Program, Stage};
use smallvec::smallvec;
use std::collections::HashMap;
use std::sync::Arc;

/// Generated and rewritten programs.
#[derive(Debug, Default)]
pub(crate) struct FixedCache {
    generated: HashMap<String, Arc<Program>>,
    /// (user program, the program with the position transform prepended).
    invariant: Vec<(Arc<Program>, Arc<Program>)>,
}

fn vertex_text(texmat: &[bool]) -> String {
    let mut s = String::from("!!ARBvp1.0\nPARAM mvp[4] = { state.matrix.mvp };\n");
    for c in ["x", "y", "z", "w"].iter().enumerate() {
        s += &format!(
            "DP4 result.position.{}, mvp[{}], vertex.position;\n",
            c.1, c.0
        );
    }
    s += "MOV result.color, vertex.color;\nMOV result.color.secondary, vertex.color.secondary;\n";
    for (u, &m) in texmat.iter().enumerate() {
        if m {
            s += &format!("PARAM tm{u}[4] = {{ state.matrix.texture[{u}] }};\n");
            for (i, c) in ["x", "y", "z", "w"].iter().enumerate() {
                s += &format!("DP4 result.texcoord[{u}].{c}, tm{u}[{i}], vertex.texcoord[{u}];\n");
            }
        } else {
            s += &format!("MOV result.texcoord[{u}], vertex.texcoord[{u}];\n");
        }
    }
    s += "END\n";
    s
}

fn fragment_text(texture_2d: bool) -> String {
    if texture_2d {
        "!!ARBfp1.0\nTEMP t;\nTEX t, fragment.texcoord[0], texture[0], 2D;\nMUL result.color, fragment.color, t;\nEND\n".into()
    } else {
        "!!ARBfp1.0\nMOV result.color, fragment.color;\nEND\n".into()
    }
}

fn src(file: File, slot: u32) -> Src {
    Src {
        file,
        index: Index::Direct(slot),
        vertex: None,
        buffer: 0,
        imm: [0; 4],
        swizzle: [0, 1, 2, 3],
        ext_swizzle: None,
        abs: false,
        negate: false,
        span: Default::default(),
    }
}

/// `program` with `result.position = MVP · vertex.position` computed first.
fn prepend_position_transform(program: &Program) -> Program {
    let mut p = program.clone();
    let input = match p
        .inputs
        .iter()
        .position(|i| i.binding == InputBinding::VertexPosition)
    {
        Some(i) => i as u32,
        None => {
            p.inputs.push(InputSlot {
                binding: InputBinding::VertexPosition,
                interp: Interp::default(),
                info: RegInfo::default(),
            });
            (p.inputs.len() - 1) as u32
        }
    };
    let pos = OutputBinding::Varying(VaryingSlot::Position);
    let output = match p.outputs.iter().position(|o| o.binding == pos) {
        Some(o) => o as u32,
        None => {
            p.outputs.push(OutputSlot {
                binding: pos,
                info: RegInfo::default(),
            });
            (p.outputs.len() - 1) as u32
        }
    };
    let first_param = p.params.len() as u32;
    for row in 0..4 {
        p.params.push(ParamSource::State(StateBinding::MatrixRow {
            matrix: MatrixName::Mvp,
            modifier: MatrixModifier::None,
            row,
        }));
    }
    let at = p.entry;
    let shift = |x: &mut u32| {
        if *x >= at {
            *x += 4
        }
    };
    for inst in &mut p.instructions {
        if let Extra::Flow { target, .. } = &mut inst.extra {
            shift(target);
        }
    }
    for l in &mut p.labels {
        if *l > at {
            *l += 4;
        }
    }
    for sv in &mut p.subroutine_vars {
        for (_, t) in &mut sv.functions {
            shift(t);
        }
    }
    let new: Vec<Inst> = (0..4u32)
        .map(|row| Inst {
            op: Opcode::Dp4,
            dtype: DataType::F32,
            sat: Saturate::None,
            precision: Precision::Full,
            cc_update: None,
            dst: Some(Dst {
                file: File::Output,
                index: Index::Direct(output),
                mask: 1 << row,
                cond: None,
                span: Default::default(),
            }),
            srcs: smallvec![src(File::Param, first_param + row), src(File::Input, input)],
            extra: Extra::None,
            span: Default::default(),
        })
        .collect();
    let at = at as usize;
    let at = at.min(p.instructions.len());
    p.instructions.splice(at..at, new);
    p
}

impl Context {
    /// The generated program standing in for a disabled vertex or fragment target.
    pub(crate) fn fixed_function_program(&mut self, stage: Stage) -> Result<Arc<Program>> {
        let st = &self.st;
        let text = match stage {
            Stage::Vertex => {
                if st.lighting {
                    return Err(Error::not_supported(
                        "fixed-function lighting (use a vertex program)",
                    ));
                }
                let texmat: Vec<bool> = (0..MAX_TEXTURE_COORDS)
                    .map(|u| st.texture_matrix[u] != super::matrix::IDENTITY)
                    .collect();
                vertex_text(&texmat)
            }
            Stage::Fragment => {
                if st.fog_enabled {
                    return Err(Error::not_supported(
                        "fixed-function fog (use a fragment program)",
                    ));
                }
                let e = st.texture_enables.first().copied().unwrap_or(0);
                if e & !tex_enable::T2D != 0 {
                    return Err(Error::not_supported(
                        "fixed-function texturing of targets other than 2D",
                    ));
                }
                fragment_text(e & tex_enable::T2D != 0)
            }
            s => {
                return Err(Error::not_supported(format!(
                    "fixed-function {} stage",
                    s.name()
                )))
            }
        };
        if let Some(p) = self.fixed.generated.get(&text) {
            return Ok(Arc::clone(p));
        }
        let program = assemble(&text, Some(stage)).map_err(|e| {
            Error::not_supported(format!(
                "fixed-function {} program: {}",
                stage.name(),
                e.render(&text)
            ))
        })?;
        let p = Arc::new(program);
        self.fixed.generated.insert(text, Arc::clone(&p));
        Ok(p)
    }

    /// `program`, or its position-invariant rewrite when it asks for one.
    pub(crate) fn with_position_invariance(&mut self, program: Arc<Program>) -> Arc<Program> {
        if !program.options.position_invariant || program.stage != Stage::Vertex {
            return program;
        }
        if let Some((_, p)) = self
            .fixed
            .invariant
            .iter()
            .find(|(k, _)| Arc::ptr_eq(k, &program))
        {
            return Arc::clone(p);
        }
        let p = Arc::new(prepend_position_transform(&program));
        if self.fixed.invariant.len() > 64 {
            self.fixed.invariant.remove(0);
        }
        self.fixed.invariant.push((program, Arc::clone(&p)));
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_transform_goes_first_and_shifts_targets() {
        let mut p = Program {
            stage: Stage::Vertex,
            dialect: glemu_programs::ir::Dialect::Arb,
            options: Default::default(),
            decls: Default::default(),
            instructions: Vec::new(),
            entry: 0,
            labels: vec![1],
            temps: Vec::new(),
            temp_arrays: Vec::new(),
            address_regs: 0,
            inputs: Vec::new(),
            outputs: Vec::new(),
            params: Vec::new(),
            buffers: Vec::new(),
            counters: Vec::new(),
            images: Vec::new(),
            subroutine_vars: Vec::new(),
            texture_targets: Vec::new(),
            symbols: Vec::new(),
        };
        p.options.position_invariant = true;
        let q = prepend_position_transform(&p);
        assert_eq!(q.instructions.len(), 4);
        assert_eq!(q.params.len(), 4);
        assert_eq!(q.labels, vec![5]);
        assert_eq!(q.inputs[0].binding, InputBinding::VertexPosition);
        assert_eq!(q.instructions[3].dst.as_ref().map(|d| d.mask), Some(8));
    }

    #[test]
    fn generated_texts_name_the_state_they_read() {
        assert!(vertex_text(&[false, true]).contains("state.matrix.texture[1]"));
        assert!(fragment_text(true).contains("TEX"));
        assert!(!fragment_text(false).contains("TEX"));
    }
}
