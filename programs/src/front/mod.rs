//! Front end for `!!ARBvp1.0`/`!!ARBfp1.0` (with every OPTION) and the NV_gpu_program4/4_1/5
//! family: one recursive-descent parser that checks each "will fail to load" rule as it
//! reads and lowers straight into [`crate::ir::Program`].
//!
//! - `opcodes`: Table X.13 and the ARB option tables;
//! - `decls`: OPTION and naming statements; `bindings`/`state`: `vertex.*`, `result.*`,
//!   `state.*`, `program.*` to slots; `operands`: source/destination operands;
//! - `inst`: instructions, modifiers, textures, memory, block matching (IF/REP/LOOP);
//! - `flow`: label resolution and whole-program checks; `limits`: the enforced limits.

mod bindings;
mod compute;
mod decls;
mod flow;
mod inst;
pub mod limits;
mod opcodes;
mod operands;
mod state;
#[cfg(test)]
mod tests;

pub(crate) use inst::target_name;

use crate::error::ProgramError;
use crate::header::Header;
use crate::ir::*;
use crate::lexer::Tok;
use crate::parse::{syntax, Cursor};
use crate::slots::Slots;
use crate::span::Span;
use limits::Limits;
use std::collections::HashMap;

/// Assembles an ARB or NV_gpu_program4/5 program whose header was already read.
pub(crate) fn assemble_gpu(
    text: &str,
    header: Header,
    lim: &Limits,
) -> Result<Program, ProgramError> {
    let mut p = Parser::new(text, header, lim)?;
    p.program()?;
    p.finish()
}

/// What a declared name stands for.
#[derive(Clone, Debug)]
pub(crate) enum Sym {
    /// `ty`: the explicit data type modifier; `None` = typeless (any type may be used).
    Temp {
        first: u32,
        len: Option<u32>,
        ty: Option<VarType>,
    },
    Address {
        index: u32,
    },
    /// `per_vertex`: a geometry/tessellation input whose first `[n]` picks the vertex.
    Attrib {
        first: u32,
        len: Option<u32>,
        per_vertex: bool,
        ty: Option<VarType>,
    },
    Param {
        first: u32,
        len: Option<u32>,
        ty: Option<VarType>,
    },
    Output {
        first: u32,
        len: Option<u32>,
        ty: Option<VarType>,
    },
    Texture {
        first: u32,
        len: Option<u32>,
    },
    /// `array`: declared with `[n]`/`[]`, so operands name an element.
    Buffer {
        index: u32,
        ty: Option<VarType>,
        array: bool,
    },
    Counter {
        index: u32,
    },
    Image {
        index: u32,
    },
    SubroutineType {
        labels: Vec<String>,
    },
    SubroutineVar {
        index: u32,
        type_name: String,
    },
}

/// NV options enabled in an ARB program.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct NvOpts {
    pub vp2: bool,
    pub vp3: bool,
    pub fpo: bool,
    pub fp2: bool,
    /// NV_shader_thread_group: TGBALLOT.
    pub thread_group: bool,
    /// ARB_derivative_control: `.FINE` / `.COARSE` on DDX and DDY.
    pub derivative_control: bool,
    /// ARB_fragment_layer_viewport: `fragment.layer`, `fragment.viewport`.
    pub layer_viewport: bool,
    /// ARB_shader_draw_parameters: `vertex.baseVertex`, `vertex.baseInstance`,
    /// `vertex.draw.id`.
    pub draw_parameters: bool,
    /// EXT_shader_image_load_formatted: LOADIM with a data type instead of a storage
    /// modifier.
    pub image_load_formatted: bool,
    /// NV_shader_atomic_fp16_vector: F16X2/F16X4 storage modifiers on the atomics.
    pub atomic_fp16_vector: bool,
    /// NV_viewport_array2: `result.viewportmask[]`.
    pub viewport_array2: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Block {
    If,
    Else { if_at: u32 },
    Rep,
    Loop,
}

pub(crate) struct Parser {
    pub c: Cursor,
    /// The limits the program is checked against.
    pub lim: Limits,
    pub stage: Stage,
    /// NV_gpu_program version (40, 41, 50); 0 for ARB.
    pub nv: u8,
    pub opts: NvOpts,
    pub prog: Program,
    pub syms: HashMap<String, (Sym, Span)>,
    /// Input, output and parameter slots by binding.
    pub slots: Slots,
    pub labels: HashMap<String, u32>,
    pub label_refs: Vec<(String, usize, Span)>,
    pub blocks: Vec<(Block, u32, Span)>,
    pub tex_units: HashMap<u32, (TexTarget, Span)>,
    /// Hidden temp standing for the `CC`/`CC0`/`CC1` dummy destination.
    pub cc_temp: Option<u32>,
    /// First of the eight consecutive `fragment.texcoord` slots `A0.x` indexes (FP2), or of
    /// the `vertex.texcoord` slots an address register indexes (NV_vertex_program3).
    pub texcoord_array: Option<u32>,
    /// NV_vertex_program3: first of the input slots `vertex.attrib[A0.x + n]` indexes,
    /// and of the eight `result.texcoord` output slots every texcoord result goes to.
    pub attrib_array: Option<u32>,
    pub texcoord_out_array: Option<u32>,
    /// PARAM arrays already checked for duplicate bindings (ARB relative addressing).
    pub unique_checked: std::collections::HashSet<u32>,
    /// Parameter, attribute and result bindings of relatively addressed arrays: binding →
    /// first slot of its array.
    pub relative_params: HashMap<String, u32>,
    pub seen_statement: bool,
    /// An instruction, label or variable declaration was seen: stage declarations
    /// (PRIMITIVE_IN ... TESS_POINT_MODE) must come before them.
    pub seen_body: bool,
    /// Conventional vertex attributes bound (ARB aliasing check): generic index → span.
    pub arb_alias: HashMap<u32, (bool, Span)>,
    /// SUBROUTINENUM of labelled functions: label → number.
    pub subroutine_nums: HashMap<String, u32>,
    /// SHARED variables (buffer index, name span), checked against SHARED_MEMORY at the end.
    pub shared_decls: Vec<(u32, Span)>,
}

impl Parser {
    fn new(text: &str, header: Header, lim: &Limits) -> Result<Parser, ProgramError> {
        let mut c = Cursor::new(text)?;
        // The header token itself.
        if matches!(c.peek(), Tok::Header(_)) {
            c.bump();
        }
        let nv = match header.dialect {
            Dialect::Nv4 => 40,
            Dialect::Nv41 => 41,
            Dialect::Nv5 => 50,
            _ => 0,
        };
        Ok(Parser {
            c,
            lim: *lim,
            stage: header.stage,
            nv,
            opts: NvOpts::default(),
            prog: Program {
                stage: header.stage,
                dialect: header.dialect,
                entry: 0,
                labels: Vec::new(),
                options: Options::default(),
                decls: Declarations::default(),
                instructions: Vec::new(),
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
            },
            syms: HashMap::new(),
            slots: Slots::default(),
            labels: HashMap::new(),
            label_refs: Vec::new(),
            blocks: Vec::new(),
            tex_units: HashMap::new(),
            cc_temp: None,
            texcoord_array: None,
            attrib_array: None,
            texcoord_out_array: None,
            unique_checked: std::collections::HashSet::new(),
            relative_params: HashMap::new(),
            seen_statement: false,
            seen_body: false,
            arb_alias: HashMap::new(),
            subroutine_nums: HashMap::new(),
            shared_decls: Vec::new(),
        })
    }

    pub(crate) fn is_nv(&self) -> bool {
        self.nv > 0
    }

    /// Whether the program named `OPTION name`.
    pub(crate) fn has_option(&self, name: &str) -> bool {
        self.prog.options.names.iter().any(|n| n == name)
    }

    /// Fails unless one of `options` was named: "Features in program options not declared
    /// by the program are ignored" (NV_gpu_program4 section 2.X.6), so their syntax does
    /// not exist without the option.
    pub(crate) fn require_option(
        &self,
        options: &[&str],
        what: &str,
        span: Span,
    ) -> Result<(), ProgramError> {
        if options.iter().any(|o| self.has_option(o)) {
            return Ok(());
        }
        let list = options
            .iter()
            .map(|o| format!("OPTION {o}"))
            .collect::<Vec<_>>()
            .join(" or ");
        Err(crate::parse::semantic(span, format!("{what} needs {list}")))
    }

    /// Whether NV-style syntax (condition codes, `|abs|`, branches) is on: an NV_gpu
    /// program or an ARB program with any NV option.
    pub(crate) fn nv_syntax(&self) -> bool {
        self.is_nv() || self.opts.vp2 || self.opts.vp3 || self.opts.fpo || self.opts.fp2
    }

    fn program(&mut self) -> Result<(), ProgramError> {
        loop {
            match self.c.peek().clone() {
                Tok::Eof => {
                    return Err(syntax(
                        self.c.span(),
                        "missing END at the end of the program",
                    ))
                }
                Tok::Ident(name) => {
                    if name == "END" {
                        self.c.bump();
                        return Ok(());
                    }
                    self.statement(&name)?;
                }
                _ => return Err(self.c.unexpected("an instruction or declaration")),
            }
        }
    }

    fn statement(&mut self, name: &str) -> Result<(), ProgramError> {
        if name == "OPTION" {
            return self.option();
        }
        // Labels: `name:` (NV, and ARB with branch-capable options), with NV5
        // `name SUBROUTINENUM(n):`.
        if matches!(self.c.peek_at(1), Tok::Colon)
            || (self.c.peek_ident_at(1) == Some("SUBROUTINENUM"))
        {
            self.seen_statement = true;
            self.seen_body = true;
            return self.label();
        }
        self.seen_statement = true;
        if self.naming_statement(name)? {
            return self.end_statement();
        }
        self.seen_body = true;
        self.instruction()?;
        self.end_statement()
    }

    pub(crate) fn end_statement(&mut self) -> Result<(), ProgramError> {
        if self.c.eat(&Tok::Semi) {
            Ok(())
        } else {
            Err(self.c.unexpected("';'"))
        }
    }

    fn label(&mut self) -> Result<(), ProgramError> {
        let (name, span) = self.c.ident("a label")?;
        check_identifier(&name, span)?;
        let branch_ok = self.is_nv() || self.opts.vp2 || self.opts.fp2;
        if !branch_ok {
            return Err(syntax(
                span,
                format!("label '{name}' needs NV_vertex_program2/NV_fragment_program2 options"),
            ));
        }
        if !self.blocks.is_empty() {
            return Err(crate::parse::semantic(
                span,
                format!(
                    "label '{name}' inside an IF/REP/LOOP block: blocks may not contain labels"
                ),
            ));
        }
        if self.c.eat_ident("SUBROUTINENUM") {
            if self.nv < 50 {
                return Err(syntax(
                    self.c.prev_span(),
                    "SUBROUTINENUM needs NV_gpu_program5",
                ));
            }
            self.c.expect(&Tok::LParen, "after SUBROUTINENUM")?;
            let (n, _) = self.c.int("a subroutine number")?;
            self.c.expect(&Tok::RParen, "after the subroutine number")?;
            self.subroutine_nums
                .insert(name.clone(), crate::parse::clamp_u32(n));
        }
        self.c.expect(&Tok::Colon, "after a label")?;
        if self.labels.contains_key(&name) {
            return Err(crate::parse::semantic(
                span,
                format!("label '{name}' is already defined (names must be unique)"),
            ));
        }
        self.labels
            .insert(name, self.prog.instructions.len() as u32);
        Ok(())
    }

    /// Declares `name`, rejecting duplicates (every name lives in one namespace).
    pub(crate) fn declare(&mut self, name: &str, span: Span, sym: Sym) -> Result<(), ProgramError> {
        check_identifier(name, span)?;
        if self.syms.contains_key(name) {
            return Err(crate::parse::semantic(
                span,
                format!("'{name}' is already declared (variable names must be unique)"),
            ));
        }
        if is_reserved(name, self) {
            return Err(syntax(
                span,
                format!("'{name}' is a reserved word and cannot name a variable"),
            ));
        }
        let sym_entry = match &sym {
            Sym::Temp { first, len, .. } => Some((File::Temp, *first, len.unwrap_or(1))),
            Sym::Address { index } => Some((File::Address, *index, 1)),
            Sym::Attrib { first, len, .. } => Some((File::Input, *first, len.unwrap_or(1))),
            Sym::Param { first, len, .. } => Some((File::Param, *first, len.unwrap_or(1))),
            Sym::Output { first, len, .. } => Some((File::Output, *first, len.unwrap_or(1))),
            Sym::Buffer { index, .. } => Some((File::Buffer, *index, 1)),
            _ => None,
        };
        if let Some((file, first, len)) = sym_entry {
            self.prog.symbols.push(Symbol {
                name: name.to_string(),
                file,
                first,
                len,
            });
        }
        self.syms.insert(name.to_string(), (sym, span));
        Ok(())
    }

    fn finish(mut self) -> Result<Program, ProgramError> {
        if let Some((b, _, span)) = self.blocks.last() {
            let what = match b {
                Block::If | Block::Else { .. } => "IF without ENDIF",
                Block::Rep => "REP without ENDREP",
                Block::Loop => "LOOP without ENDLOOP",
            };
            return Err(crate::parse::semantic(
                *span,
                format!("{what}: block not terminated"),
            ));
        }
        self.resolve_labels()?;
        self.prog.entry = self.labels.get("main").copied().unwrap_or(0);
        let mut labels: Vec<u32> = self.labels.values().copied().collect();
        labels.sort_unstable();
        labels.dedup();
        self.prog.labels = labels;
        self.check_program()?;
        if self.stage == Stage::Compute {
            self.check_compute(self.c.prev_span())?;
        }
        let mut units: Vec<(u32, TexTarget)> =
            self.tex_units.iter().map(|(u, (t, _))| (*u, *t)).collect();
        units.sort_by_key(|(u, _)| *u);
        self.prog.texture_targets = units;
        Ok(self.prog)
    }
}

/// NV_gpu_program4 2.X.2 (and the ARB grammars): an identifier's "first character must not
/// be a number". The lexer reads `2D`-style texture targets as words, so names are checked
/// where they are established.
fn check_identifier(name: &str, span: Span) -> Result<(), ProgramError> {
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(syntax(
            span,
            format!("'{name}' is not a name: the first character must not be a digit"),
        ));
    }
    Ok(())
}

/// Names that cannot be declared as variables. ARB programs reserve their own stage's
/// keywords and base opcodes only (piglit reserved_words-01: `TEMP ARL;` is fine in a
/// fragment program).
fn is_reserved(name: &str, p: &Parser) -> bool {
    const ALWAYS: &[&str] = &[
        "ALIAS", "ATTRIB", "END", "OPTION", "OUTPUT", "PARAM", "TEMP", "program", "result", "state",
    ];
    if ALWAYS.contains(&name) {
        return true;
    }
    let vert = p.stage == Stage::Vertex;
    if p.is_nv() {
        const NV: &[&str] = &[
            "primitive",
            "BUFFER",
            "BUFFER4",
            "CBUFFER",
            "INT",
            "UINT",
            "FLOAT",
            "SHORT",
            "LONG",
            "FLAT",
            "CENTROID",
            "NOPERSPECTIVE",
            "TEXTURE",
            "texture",
            "fragment",
            "vertex",
        ];
        return NV.contains(&name);
    }
    if vert && matches!(name, "ADDRESS" | "vertex") {
        return true;
    }
    if !vert && matches!(name, "fragment" | "texture") {
        return true;
    }
    let bit = if vert { opcodes::AV } else { opcodes::AF };
    opcodes::lookup(name).is_some_and(|info| info.arb & bit != 0)
}
