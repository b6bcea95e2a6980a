//! Label resolution and whole-program checks run after the last statement.

use super::{Parser, Sym};
use crate::error::ProgramError;
use crate::ir::*;
use crate::parse::semantic;

impl Parser {
    pub(crate) fn resolve_labels(&mut self) -> Result<(), ProgramError> {
        for (name, at, span) in std::mem::take(&mut self.label_refs) {
            let Some(&target) = self.labels.get(&name) else {
                return Err(semantic(span, format!("label '{name}' is not defined")));
            };
            if let Some(Inst {
                extra: Extra::Flow { target: t, .. },
                ..
            }) = self.prog.instructions.get_mut(at)
            {
                *t = target;
            }
        }
        // Subroutine variables: functions of their type with their SUBROUTINENUM.
        let syms: Vec<(String, Sym)> = self
            .syms
            .iter()
            .map(|(k, v)| (k.clone(), v.0.clone()))
            .collect();
        for (_, sym) in syms {
            if let Sym::SubroutineVar { index, type_name } = sym {
                let labels = match self.syms.get(&type_name) {
                    Some((Sym::SubroutineType { labels }, _)) => labels.clone(),
                    _ => Vec::new(),
                };
                let mut funcs = Vec::new();
                for l in labels {
                    if let (Some(&at), Some(&num)) =
                        (self.labels.get(&l), self.subroutine_nums.get(&l))
                    {
                        funcs.push((num, at));
                    }
                }
                funcs.sort_unstable();
                if let Some(v) = self.prog.subroutine_vars.get_mut(index as usize) {
                    v.functions = funcs;
                }
            }
        }
        Ok(())
    }

    pub(crate) fn check_program(&mut self) -> Result<(), ProgramError> {
        let span = self.c.prev_span();
        // ARB_position_invariant: the program may not write result.position itself.
        if self.prog.options.position_invariant {
            let pos = self
                .prog
                .outputs
                .iter()
                .position(|o| o.binding == OutputBinding::Varying(VaryingSlot::Position));
            if let Some(p) = pos {
                let written = self.prog.instructions.iter().find(|i| {
                    i.dst.as_ref().is_some_and(|d| {
                        d.file == File::Output && d.index == Index::Direct(p as u32)
                    })
                });
                if let Some(i) = written {
                    return Err(semantic(
                        i.span,
                        "result.position cannot be written with OPTION ARB_position_invariant",
                    ));
                }
            }
        }
        if self.stage == Stage::Geometry && self.is_nv() {
            if self.prog.decls.primitive_in.is_none() {
                return Err(semantic(
                    span,
                    "geometry programs must declare PRIMITIVE_IN",
                ));
            }
            if self.prog.decls.passthrough {
                self.check_passthrough(span)?;
            } else if self.prog.decls.primitive_out.is_none() {
                return Err(semantic(
                    span,
                    "geometry programs must declare PRIMITIVE_OUT",
                ));
            } else if self.prog.decls.vertices_out.is_none() {
                return Err(semantic(
                    span,
                    "geometry programs must declare VERTICES_OUT",
                ));
            }
        }
        if self
            .prog
            .decls
            .primitive_out
            .is_some_and(|k| k != PrimKind::Points)
        {
            if let Some(i) = self
                .prog
                .instructions
                .iter()
                .find(|i| i.op == Opcode::Emits)
            {
                return Err(semantic(
                    i.span,
                    "EMITS needs 'PRIMITIVE_OUT POINTS' (multiple streams only for points)",
                ));
            }
        }
        if let (Stage::Geometry, Some(n)) = (self.stage, self.prog.decls.vertices_out) {
            // "the number of result variable components written by the program"
            // (NV_geometry_program4 section 2.14.6.4).
            let comps = self.prog.result_components();
            if n.saturating_mul(comps) > self.lim.max_geometry_total_output_components {
                return Err(semantic(
                    span,
                    format!("VERTICES_OUT {n} x {comps} result components exceeds the limit of {max_geometry_total_output_components}", max_geometry_total_output_components = self.lim.max_geometry_total_output_components),
                ));
            }
        }
        if self.opts.viewport_array2 {
            let find = |s: VaryingSlot| {
                self.prog
                    .outputs
                    .iter()
                    .position(|o| o.binding == OutputBinding::Varying(s))
                    .and_then(|k| self.first_write(k as u32))
            };
            if let (Some(_), Some(i)) = (
                find(VaryingSlot::ViewportIndex),
                find(VaryingSlot::ViewportMask),
            ) {
                return Err(semantic(
                    i,
                    "a program may not write both result.viewport and result.viewportmask (NV_viewport_array2)",
                ));
            }
        }
        if self.stage == Stage::TessControl && self.prog.decls.vertices_out.is_none() {
            return Err(semantic(
                span,
                "tessellation control programs must declare VERTICES_OUT",
            ));
        }
        if self.stage == Stage::TessEval && self.prog.decls.tess_mode.is_none() {
            return Err(semantic(
                span,
                "tessellation evaluation programs must declare TESS_MODE",
            ));
        }
        Ok(())
    }

    /// The span of the first instruction writing output slot `k`.
    fn first_write(&self, k: u32) -> Option<crate::span::Span> {
        self.prog
            .instructions
            .iter()
            .find(|i| {
                i.dst.as_ref().is_some_and(|d| {
                    d.file == File::Output
                        && match d.index {
                            Index::Direct(s) => s == k,
                            Index::Relative { base, len, .. } => (base..base + len).contains(&k),
                        }
                })
            })
            .map(|i| i.span)
    }

    /// NV_geometry_shader_passthrough's load rules: POINTS, LINES or TRIANGLES in, and no
    /// result both passed through and written by an instruction.
    fn check_passthrough(&self, span: crate::span::Span) -> Result<(), ProgramError> {
        let d = &self.prog.decls;
        if !matches!(
            d.primitive_in,
            Some(PrimKind::Points | PrimKind::Lines | PrimKind::Triangles)
        ) {
            return Err(semantic(
                span,
                "a passthrough geometry program must declare PRIMITIVE_IN POINTS, LINES or TRIANGLES",
            ));
        }
        for (slot, _) in &d.passthrough_slots {
            let k = self
                .prog
                .outputs
                .iter()
                .position(|o| o.binding == OutputBinding::Varying(*slot));
            if let Some(i) = k.and_then(|k| self.first_write(k as u32)) {
                return Err(semantic(
                    i,
                    format!("{slot:?} is declared PASSTHROUGH and may not also be written"),
                ));
            }
        }
        Ok(())
    }
}
