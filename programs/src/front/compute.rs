//! NV_compute_program5: the GROUP_SIZE and SHARED_MEMORY declarations, SHARED variables,
//! the LDS/STS/ATOMS shared-memory instructions and the whole-program checks of compute
//! programs.

use super::{Parser, Sym};
use crate::error::ProgramError;
use crate::ir::*;
use crate::lexer::Tok;
use crate::parse::{semantic, syntax};
use crate::span::Span;

impl Parser {
    /// `GROUP_SIZE x [y [z]]` or `SHARED_MEMORY n` (the keyword is read).
    pub(crate) fn compute_declaration(&mut self, kw: &str, span: Span) -> Result<(), ProgramError> {
        if self.stage != Stage::Compute {
            return Err(semantic(
                span,
                format!("'{kw}' is only allowed in compute programs"),
            ));
        }
        if self.seen_body {
            return Err(syntax(
                span,
                format!("'{kw}' must come before every instruction and variable declaration"),
            ));
        }
        if kw == "GROUP_SIZE" {
            if self.prog.decls.group_size.is_some() {
                return Err(semantic(span, "'GROUP_SIZE' declared more than once"));
            }
            let mut size = [1u32; 3];
            let mut total = 1u64;
            for (d, limit) in self.lim.max_compute_work_group_size.iter().enumerate() {
                if d > 0 && !matches!(self.c.peek(), Tok::Int(_)) {
                    break;
                }
                let (n, ns) = self.c.int("a work group size")?;
                if n == 0 || n > u64::from(*limit) {
                    return Err(semantic(
                        ns,
                        format!(
                            "GROUP_SIZE dimension {d} is {n}: it must be between 1 and {limit}"
                        ),
                    ));
                }
                size[d] = n as u32;
                total *= n;
            }
            let max = self.lim.max_compute_work_group_invocations;
            if total > u64::from(max) {
                return Err(semantic(
                    span,
                    format!("GROUP_SIZE has {total} invocations: the limit is {max}"),
                ));
            }
            self.prog.decls.group_size = Some(size);
        } else {
            if self.prog.decls.shared_memory.is_some() {
                return Err(semantic(span, "'SHARED_MEMORY' declared more than once"));
            }
            let (n, ns) = self.c.int("a shared memory size")?;
            let max = self.lim.max_compute_shared_memory_size;
            if n > u64::from(max) {
                return Err(semantic(
                    ns,
                    format!("SHARED_MEMORY {n} exceeds the limit of {max} bytes"),
                ));
            }
            self.prog.decls.shared_memory = Some(n as u32);
        }
        Ok(())
    }

    /// `SHARED name = program.sharedmem[a];` or
    /// `SHARED name[n] = { program.sharedmem[a..b] };` / `{ program.sharedmem }`.
    pub(crate) fn decl_shared(&mut self, span: Span) -> Result<(), ProgramError> {
        if self.stage != Stage::Compute {
            return Err(semantic(
                span,
                "'SHARED' is only allowed in compute programs",
            ));
        }
        let (name, nspan) = self.c.ident("a shared memory variable name")?;
        let size = self.opt_array_size()?;
        self.c.expect(&Tok::Eq, "in a SHARED declaration")?;
        let braced = self.c.eat(&Tok::LBrace);
        let bspan = self
            .c
            .expect_ident("program", "in a shared memory binding")?;
        self.c.expect(&Tok::Dot, "after 'program'")?;
        self.c
            .expect_ident("sharedmem", "in a shared memory binding")?;
        // Elements are bytes; no index = the whole of SHARED_MEMORY (`len` None).
        let (first, len) = if self.c.peek() == &Tok::LBracket {
            let (a, b, rs) = self.index_or_range()?;
            if a != b && !braced {
                return Err(syntax(
                    rs,
                    "a shared memory range needs braces: { program.sharedmem[a..b] }",
                ));
            }
            (a, Some(b - a + 1))
        } else {
            if !braced {
                return Err(syntax(
                    bspan,
                    "'program.sharedmem' without an element needs braces: { program.sharedmem }",
                ));
            }
            (0, None)
        };
        if braced {
            self.c
                .expect(&Tok::RBrace, "to end the SHARED initializer")?;
        }
        if let (Some(Some((n, ns))), Some(l)) = (size, len) {
            if n != l {
                return Err(semantic(
                    ns,
                    format!("'{name}': declared size {n} does not match the {l} bytes bound"),
                ));
            }
        }
        if size.is_none() && len != Some(1) {
            return Err(semantic(
                nspan,
                format!("'{name}' binds several bytes of shared memory: declare it as an array"),
            ));
        }
        let index = self.prog.buffers.len() as u32;
        self.prog.buffers.push(BufferVar {
            name: name.clone(),
            binding: 0,
            bindings: 1,
            first,
            len,
            kind: BufferKind::Shared,
            info: RegInfo::default(),
        });
        self.shared_decls.push((index, nspan));
        self.declare(
            &name,
            nspan,
            Sym::Buffer {
                index,
                ty: None,
                array: size.is_some(),
            },
        )
    }

    /// Whole-program rules of NV_compute_program5 section 2.X.7.Y.
    pub(crate) fn check_compute(&self, span: Span) -> Result<(), ProgramError> {
        let d = &self.prog.decls;
        if d.group_size.is_none() {
            return Err(semantic(
                span,
                "compute programs must declare GROUP_SIZE exactly once",
            ));
        }
        let shared_mem = d.shared_memory;
        for (index, s) in &self.shared_decls {
            let Some(var) = self.prog.buffers.get(*index as usize) else {
                continue;
            };
            let Some(total) = shared_mem else {
                return Err(semantic(
                    *s,
                    format!(
                        "'{}' binds shared memory, but the program declares no SHARED_MEMORY",
                        var.name
                    ),
                ));
            };
            let end = u64::from(var.first) + u64::from(var.len.unwrap_or(total));
            if end > u64::from(total) {
                return Err(semantic(
                    *s,
                    format!(
                        "'{}' ends at byte {end}, beyond SHARED_MEMORY {total}",
                        var.name
                    ),
                ));
            }
        }
        for inst in &self.prog.instructions {
            let Extra::Mem(m) = &inst.extra else {
                continue;
            };
            let MemSpace::Shared { buffer } = m.space else {
                continue;
            };
            let Some(total) = shared_mem else {
                return Err(semantic(
                    inst.span,
                    "LDS, STS and ATOMS need a SHARED_MEMORY declaration",
                ));
            };
            // A constant offset must keep the whole access inside shared memory.
            let operand = inst.srcs.iter().find(|s| s.file == File::Buffer);
            let (Some(var), Some(Index::Direct(off))) = (
                self.prog.buffers.get(buffer as usize),
                operand.map(|s| s.index),
            ) else {
                continue;
            };
            let size = u64::from(m.ty.bytes());
            let end = u64::from(var.first) + u64::from(off) + size;
            if end > u64::from(total) {
                return Err(semantic(
                    operand.map_or(inst.span, |s| s.span),
                    format!("this access ends at byte {end}, beyond SHARED_MEMORY {total}"),
                ));
            }
        }
        Ok(())
    }
}
