//! Source and destination operands: variables, inline bindings and constants, array
//! indexing (absolute and relative), swizzles, write masks and condition-code tests.

use super::{Parser, Sym};
use crate::error::ProgramError;
use crate::ir::*;
use crate::lexer::Tok;
use crate::parse::{components, ordered_mask, semantic, syntax};
use crate::span::Span;

/// What an operand resolved to before swizzling, plus the variable's declared type
/// (`None` for constants, whose type follows the instruction).
pub(crate) struct Operand {
    pub file: File,
    pub index: Index,
    pub vertex: Option<Index>,
    pub buffer: u32,
    pub ty: Option<VarType>,
}

pub(crate) struct ParsedSrc {
    pub src: Src,
    pub ty: Option<VarType>,
    /// The operand had a single-component suffix (`.x`) or is a scalar literal.
    pub scalar: bool,
}

impl Parser {
    fn rgba_ok(&self) -> bool {
        self.is_nv() || self.stage == Stage::Fragment
    }

    /// `.xyzw`-style swizzle after an operand; identity when absent. Returns
    /// (swizzle, is_scalar_suffix).
    pub(crate) fn swizzle_suffix(&mut self) -> Result<([Comp; 4], bool), ProgramError> {
        if self.c.peek() != &Tok::Dot {
            return Ok(([0, 1, 2, 3], false));
        }
        let Some(name) = self.c.peek_ident_at(1).map(str::to_string) else {
            self.c.bump();
            return Err(self.c.unexpected("a swizzle"));
        };
        let span = self.c.span_at(1);
        let Some(comps) = components(&name, self.rgba_ok()) else {
            return Err(syntax(span, format!("'{name}' is not a valid swizzle")));
        };
        self.c.bump();
        self.c.bump();
        match comps[..] {
            [c] => Ok(([c; 4], true)),
            [a, b, c, d] => Ok(([a, b, c, d], false)),
            _ => Err(syntax(
                span,
                format!("swizzle '{name}' must have 1 or 4 components"),
            )),
        }
    }

    /// A write mask (ordered subset of xyzw/rgba); 0xF when absent.
    pub(crate) fn write_mask(&mut self) -> Result<u8, ProgramError> {
        if self.c.peek() != &Tok::Dot {
            return Ok(0xF);
        }
        let Some(name) = self.c.peek_ident_at(1).map(str::to_string) else {
            self.c.bump();
            return Err(self.c.unexpected("a write mask"));
        };
        let span = self.c.span_at(1);
        let comps = components(&name, self.rgba_ok())
            .ok_or_else(|| syntax(span, format!("'{name}' is not a valid write mask")))?;
        let mask = ordered_mask(&comps).ok_or_else(|| {
            syntax(
                span,
                format!("write mask '{name}' must list components once each, in xyzw order"),
            )
        })?;
        self.c.bump();
        self.c.bump();
        Ok(mask)
    }

    /// `EQ.xyzw`, `NE1.x`, ... (without parentheses).
    pub(crate) fn cc_test(&mut self) -> Result<CondTest, ProgramError> {
        let (name, span) = self.c.ident("a condition code test such as 'NE.x'")?;
        let (base, cc) = if let Some(b) = name.strip_suffix('0') {
            (b, 0u8)
        } else if let Some(b) = name.strip_suffix('1') {
            (b, 1u8)
        } else {
            (name.as_str(), 0)
        };
        let explicit = base.len() != name.len();
        let op = match base {
            "EQ" => CondOp::Eq,
            "NE" => CondOp::Ne,
            "LT" => CondOp::Lt,
            "GE" => CondOp::Ge,
            "LE" => CondOp::Le,
            "GT" => CondOp::Gt,
            "TR" => CondOp::Tr,
            "FL" => CondOp::Fl,
            "NAN" => CondOp::Nan,
            "LEG" => CondOp::Leg,
            "CF" => CondOp::Cf,
            "NCF" => CondOp::Ncf,
            "OF" => CondOp::Of,
            "NOF" => CondOp::Nof,
            "AB" => CondOp::Ab,
            "BLE" => CondOp::Ble,
            "SF" => CondOp::Sf,
            "NSF" => CondOp::Nsf,
            // EXT_sparse_texture2's sparse condition code: every texel glemu stores is
            // resident, so its RESF flag is always set.
            "RESIDENT" if self.nv >= 50 => CondOp::Tr,
            "NONRESIDENT" if self.nv >= 50 => CondOp::Fl,
            _ => {
                return Err(syntax(
                    span,
                    format!("'{name}' is not a condition code test"),
                ))
            }
        };
        let basic = matches!(
            op,
            CondOp::Eq
                | CondOp::Ne
                | CondOp::Lt
                | CondOp::Ge
                | CondOp::Le
                | CondOp::Gt
                | CondOp::Tr
                | CondOp::Fl
        );
        if self.nv == 0 && (!basic || (explicit && !(self.opts.vp3 || self.opts.fp2))) {
            return Err(syntax(
                span,
                format!("condition '{name}' is not available with these options"),
            ));
        }
        let (swizzle, _) = self.swizzle_suffix()?;
        Ok(CondTest { op, cc, swizzle })
    }

    fn cc_mask_paren(&mut self) -> Result<Option<CondTest>, ProgramError> {
        if self.c.peek() != &Tok::LParen || !self.nv_syntax() {
            return Ok(None);
        }
        self.c.bump();
        let t = self.cc_test()?;
        self.c.expect(&Tok::RParen, "after a condition code test")?;
        Ok(Some(t))
    }

    /// Optional `(cc)` branch condition.
    pub(crate) fn opt_branch_cond(&mut self) -> Result<Option<CondTest>, ProgramError> {
        self.cc_mask_paren()
    }

    fn sym(&self, name: &str) -> Option<Sym> {
        self.syms.get(name).map(|(s, _)| s.clone())
    }

    /// `[n]`, `[reg.c]`, `[reg.c + n]`, `[reg.c - n]` into an array at `base` of `len`.
    pub(crate) fn array_index(
        &mut self,
        name: &str,
        base: u32,
        len: u32,
        relative_ok: bool,
    ) -> Result<Index, ProgramError> {
        let open = self.c.expect(&Tok::LBracket, "before an array index")?;
        if let Tok::Int(n) = self.c.peek().clone() {
            let span = self.c.bump();
            self.c.expect(&Tok::RBracket, "after an array index")?;
            if n >= u64::from(len) {
                return Err(semantic(
                    span,
                    format!("index {n} is out of bounds for '{name}' (size {len})"),
                ));
            }
            return Ok(Index::Direct(base + n as u32));
        }
        let (reg_name, rspan) = self.c.ident("an array index")?;
        if !relative_ok {
            return Err(semantic(
                rspan,
                format!("relative addressing of '{name}' is not allowed here"),
            ));
        }
        let reg = match self.sym(&reg_name) {
            Some(Sym::Address { index }) => {
                let (sw, scalar) = self.swizzle_suffix()?;
                if !scalar || (sw[0] != 0 && !self.opts.vp2) {
                    return Err(semantic(rspan, format!("address register '{reg_name}' must be used as '{reg_name}.x' in an index")));
                }
                IndexReg::Address {
                    reg: index,
                    comp: sw[0],
                }
            }
            Some(Sym::Temp {
                first,
                len: None,
                ty,
            }) if self.is_nv() => {
                let (sw, scalar) = self.swizzle_suffix()?;
                if !scalar {
                    return Err(semantic(
                        rspan,
                        format!("index register '{reg_name}' needs a scalar suffix like '.x'"),
                    ));
                }
                if ty == Some(VarType::Float) {
                    return Err(semantic(
                        rspan,
                        format!("index register '{reg_name}' must be an INT or UINT variable"),
                    ));
                }
                IndexReg::Temp {
                    reg: first,
                    comp: sw[0],
                }
            }
            Some(Sym::Attrib {
                first, len: None, ..
            }) if self.is_nv() => {
                let (sw, scalar) = self.swizzle_suffix()?;
                if !scalar {
                    return Err(semantic(
                        rspan,
                        format!("index register '{reg_name}' needs a scalar suffix like '.x'"),
                    ));
                }
                IndexReg::Input {
                    slot: first,
                    comp: sw[0],
                }
            }
            _ => {
                return Err(semantic(
                    rspan,
                    format!("'{reg_name}' cannot be used as an array index register"),
                ))
            }
        };
        let mut offset: i64 = 0;
        if matches!(self.c.peek(), Tok::Plus | Tok::Minus) {
            let neg = self.c.peek() == &Tok::Minus;
            self.c.bump();
            let (n, nspan) = self.c.int("an index offset")?;
            let n = n.min(1 << 40) as i64;
            offset = if neg { -n } else { n };
            if self.nv == 0
                && !(i64::from(self.lim.min_arb_address_offset)
                    ..=i64::from(self.lim.max_arb_address_offset))
                    .contains(&offset)
            {
                return Err(semantic(
                    nspan,
                    format!("address offset {offset} is out of range ({min_arb_address_offset}..{max_arb_address_offset})", max_arb_address_offset = self.lim.max_arb_address_offset, min_arb_address_offset = self.lim.min_arb_address_offset),
                ));
            }
        }
        if self.nv > 0 && !(0..i64::from(len)).contains(&offset) {
            return Err(semantic(
                self.c.prev_span(),
                format!("relative offset {offset} for '{name}' is outside [0, {}] (the array size minus one)", i64::from(len) - 1),
            ));
        }
        let close = self.c.expect(&Tok::RBracket, "after an array index")?;
        let offset = i32::try_from(offset)
            .map_err(|_| semantic(open.to(close), "index offset too large"))?;
        Ok(Index::Relative {
            reg,
            offset,
            base,
            len,
        })
    }

    /// The register part of a source operand (no sign, no swizzle).
    fn src_register(&mut self, const_ty: VarType) -> Result<(Operand, bool), ProgramError> {
        let span = self.c.span();
        match self.c.peek().clone() {
            Tok::LBrace => {
                let v = self.constant_vector(const_ty)?;
                let slot = self.param_slot(ParamSource::Constant(v));
                Ok((
                    Operand {
                        file: File::Param,
                        index: Index::Direct(slot),
                        vertex: None,
                        buffer: 0,
                        ty: None,
                    },
                    false,
                ))
            }
            Tok::Int(_) | Tok::Float(_) => {
                let (v, _) = self.signed_scalar(const_ty)?;
                let slot = self.param_slot(ParamSource::Constant([v; 4]));
                Ok((
                    Operand {
                        file: File::Param,
                        index: Index::Direct(slot),
                        vertex: None,
                        buffer: 0,
                        ty: None,
                    },
                    true,
                ))
            }
            Tok::Ident(name) => {
                match name.as_str() {
                    "vertex" | "fragment" | "primitive" | "invocation"
                        if !self.syms.contains_key(&name) =>
                    {
                        let r = self.input_binding(false)?;
                        if r.items.len() != 1 {
                            return Err(semantic(
                                r.span,
                                "an attribute range cannot be an operand",
                            ));
                        }
                        if r.per_vertex {
                            return Err(semantic(
                                r.span,
                                "this attribute needs a vertex index: 'vertex[n].'",
                            ));
                        }
                        if let Some(index) = r.relative {
                            return Ok((
                                Operand {
                                    file: File::Input,
                                    index,
                                    vertex: None,
                                    buffer: 0,
                                    ty: None,
                                },
                                false,
                            ));
                        }
                        let b = r
                            .items
                            .into_iter()
                            .next()
                            .ok_or_else(|| syntax(span, "empty binding"))?;
                        // "Fragment program attribute bindings used directly ... will
                        // inherit the interpolation modifiers of any explicitly declared
                        // attribute variable using the same binding" (NV_fragment_program4).
                        let interp = self.slots.input_interps(&b).next().unwrap_or_default();
                        let slot = self.input_slot_typed(b, interp, RegInfo::default(), r.span)?;
                        // Bindings used directly are typeless: only explicitly typed
                        // variables are checked (NV_gpu_program4 section 2.X.3.1).
                        let ty = None;
                        return Ok((
                            Operand {
                                file: File::Input,
                                index: Index::Direct(slot),
                                vertex: r.vertex.map(Index::Direct),
                                buffer: 0,
                                ty,
                            },
                            false,
                        ));
                    }
                    "state" if !self.syms.contains_key(&name) => {
                        let rows = self.state_binding()?;
                        if rows.len() != 1 {
                            return Err(semantic(
                                span,
                                "a multi-row state binding cannot be an operand; use a PARAM array",
                            ));
                        }
                        let row = rows
                            .into_iter()
                            .next()
                            .ok_or_else(|| syntax(span, "empty binding"))?;
                        let slot = self.param_slot(ParamSource::State(row));
                        return Ok((
                            Operand {
                                file: File::Param,
                                index: Index::Direct(slot),
                                vertex: None,
                                buffer: 0,
                                ty: Some(VarType::Float),
                            },
                            false,
                        ));
                    }
                    "program" if !self.syms.contains_key(&name) => {
                        let items = self.program_param_binding(false)?;
                        let item = items
                            .into_iter()
                            .next()
                            .ok_or_else(|| syntax(span, "empty binding"))?;
                        let slot = self.param_slot(item);
                        return Ok((
                            Operand {
                                file: File::Param,
                                index: Index::Direct(slot),
                                vertex: None,
                                buffer: 0,
                                ty: None,
                            },
                            false,
                        ));
                    }
                    "result" if !self.syms.contains_key(&name) => {
                        return Err(semantic(
                            span,
                            "result variables are write-only and cannot be read",
                        ));
                    }
                    _ => {}
                }
                self.c.bump();
                let Some(sym) = self.sym(&name) else {
                    if name == "texture" {
                        return Err(syntax(span, "too few source operands before the texture"));
                    }
                    return Err(semantic(span, format!("'{name}' is not declared")));
                };
                self.operand_of_sym(&name, sym, span).map(|o| (o, false))
            }
            _ => Err(self.c.unexpected("a source operand")),
        }
    }

    fn operand_of_sym(
        &mut self,
        name: &str,
        sym: Sym,
        span: Span,
    ) -> Result<Operand, ProgramError> {
        let has_index = self.c.peek() == &Tok::LBracket;
        let mk = |file, index, ty| Operand {
            file,
            index,
            vertex: None,
            buffer: 0,
            ty,
        };
        let arb_rel = self.nv == 0 && self.stage == Stage::Vertex;
        match sym {
            Sym::Temp { first, len, ty } => {
                let index = self.maybe_array(name, first, len, has_index, true, span)?;
                Ok(mk(File::Temp, index, ty))
            }
            Sym::Param { first, len, ty } => {
                let index =
                    self.maybe_array(name, first, len, has_index, arb_rel || self.is_nv(), span)?;
                if let (Index::Relative { .. }, Some(n), true) =
                    (&index, len, arb_rel || self.is_nv())
                {
                    self.check_unique_params(name, first, n, span)?;
                }
                Ok(mk(File::Param, index, ty))
            }
            Sym::Attrib {
                first,
                len,
                per_vertex,
                ty,
            } => {
                let mut vertex = None;
                if per_vertex {
                    if !has_index {
                        return Err(semantic(
                            span,
                            format!("'{name}' is per-vertex: index it as '{name}[vertex]'"),
                        ));
                    }
                    vertex = Some(self.array_index(name, 0, self.lim.max_patch_vertices, true)?);
                }
                let has_index = self.c.peek() == &Tok::LBracket;
                let index = self.maybe_array(name, first, len, has_index, self.is_nv(), span)?;
                if let (Index::Relative { .. }, Some(n)) = (&index, len) {
                    let keys: Vec<String> = (first..first + n)
                        .filter_map(|i| self.prog.inputs.get(i as usize))
                        .map(|s| format!("in {:?}", s.binding))
                        .collect();
                    self.claim_relative(name, first, keys, span)?;
                }
                Ok(Operand {
                    file: File::Input,
                    index,
                    vertex,
                    buffer: 0,
                    ty,
                })
            }
            Sym::Output { .. } => Err(semantic(
                span,
                format!("'{name}' is an output and cannot be read"),
            )),
            Sym::Address { .. } => Err(semantic(
                span,
                format!("address register '{name}' can only be used as an index"),
            )),
            Sym::Buffer {
                index: b,
                ty,
                array,
            } => {
                let var = self.prog.buffers.get(b as usize).cloned();
                let len = var
                    .as_ref()
                    .and_then(|v| v.len)
                    .unwrap_or(self.lim.max_program_parameter_buffer_size);
                match var.as_ref().map(|v| v.kind) {
                    Some(BufferKind::CBuffer) => {
                        return Err(semantic(
                            span,
                            format!("'{name}' is a CBUFFER variable: only LDC reads it"),
                        ))
                    }
                    Some(BufferKind::Storage) => {
                        return Err(semantic(
                            span,
                            format!(
                                "'{name}' is a STORAGE variable: only LDB, STB and ATOMB access it"
                            ),
                        ))
                    }
                    // NV_compute_program5 2.X.3.6: "Shared memory variables may only be
                    // used as operands in the ATOMS, LDS, and STS instructions".
                    Some(BufferKind::Shared) => {
                        return Err(semantic(
                            span,
                            format!(
                                "'{name}' is a SHARED variable: only LDS, STS and ATOMS access it"
                            ),
                        ))
                    }
                    _ => {}
                }
                let binding = self.buffer_binding_index(name, b, span)?;
                let has_index = self.c.peek() == &Tok::LBracket;
                let index =
                    self.maybe_array(name, 0, array.then_some(len), has_index, true, span)?;
                Ok(Operand {
                    file: File::Buffer,
                    index,
                    vertex: binding,
                    buffer: b,
                    ty,
                })
            }
            _ => Err(semantic(
                span,
                format!("'{name}' cannot be used as an operand here"),
            )),
        }
    }

    /// The binding-point index of a buffer variable declared over several binding points
    /// (`program.buffer[a..b]` / `program.storage[a..b]`), which NV_gpu_program5 section
    /// 2.X.3.6 says "must be accessed as an array, with the first index specifying an
    /// offset into the range of buffer object binding points". None for single bindings.
    pub(crate) fn buffer_binding_index(
        &mut self,
        name: &str,
        buffer: u32,
        span: Span,
    ) -> Result<Option<Index>, ProgramError> {
        let bindings = self
            .prog
            .buffers
            .get(buffer as usize)
            .map_or(1, |b| b.bindings);
        if bindings <= 1 {
            return Ok(None);
        }
        if self.c.peek() != &Tok::LBracket {
            return Err(semantic(
                span,
                format!("'{name}' spans {bindings} binding points and must be indexed by binding point first"),
            ));
        }
        let binding_name = format!("{name} (binding points)");
        self.array_index(&binding_name, 0, bindings, true).map(Some)
    }

    /// An array index where relative addressing is always allowed.
    pub(crate) fn array_index_rel(
        &mut self,
        name: &str,
        base: u32,
        len: u32,
    ) -> Result<Index, ProgramError> {
        self.array_index(name, base, len, true)
    }

    /// ARB_vertex_program 2.14.3.2 and NV_gpu_program4 2.X.3.3: "A program will fail to
    /// load if any program parameter binding is used more than once in a single array
    /// accessed using relative addressing or used at least once in two or more arrays
    /// accessed using relative addressing."
    fn check_unique_params(
        &mut self,
        name: &str,
        first: u32,
        len: u32,
        span: Span,
    ) -> Result<(), ProgramError> {
        // Checked once per array: relative accesses in a long program stay linear.
        if !self.unique_checked.insert(first) {
            return Ok(());
        }
        let rows = self
            .prog
            .params
            .iter()
            .skip(first as usize)
            .take(len as usize);
        let mut seen = std::collections::HashSet::new();
        let mut keys = Vec::new();
        for r in rows {
            if matches!(r, ParamSource::Constant(_)) {
                continue;
            }
            let key = format!("{r:?}");
            if !seen.insert(key.clone()) {
                return Err(semantic(
                    span,
                    format!("'{name}' binds a parameter more than once and cannot be addressed relatively"),
                ));
            }
            keys.push(key);
        }
        self.claim_relative(name, first, keys, span)
    }

    /// Records the bindings (`keys`) of the relatively addressed array at slot `first`,
    /// failing if another relatively addressed array has one of them: NV_gpu_program4
    /// 2.X.3.2, 2.X.3.3 and 2.X.3.5 allow each attribute, parameter and result binding "in
    /// no more than one array variable accessed with relative addressing" (parameters also
    /// in ARB_vertex_program).
    fn claim_relative(
        &mut self,
        name: &str,
        first: u32,
        keys: Vec<String>,
        span: Span,
    ) -> Result<(), ProgramError> {
        for key in keys {
            if let Some(&other) = self.relative_params.get(&key) {
                if other != first {
                    return Err(semantic(
                        span,
                        format!("'{name}' binds a variable binding that is also in another relatively addressed array"),
                    ));
                }
            }
            self.relative_params.insert(key, first);
        }
        Ok(())
    }

    /// A 64-bit literal: `{a, b, c, d}` (missing components are 0, 0, 0, 1) or a scalar,
    /// as raw bits of `dt`. Returns the bits and whether it was a scalar.
    fn literal64(&mut self, dt: DataType) -> Result<([u64; 4], bool), ProgramError> {
        let one = match dt {
            DataType::F64 => 1.0f64.to_bits(),
            _ => 1,
        };
        if !self.c.eat(&Tok::LBrace) {
            let (v, _) = self.signed_scalar64(dt)?;
            return Ok(([v; 4], true));
        }
        let mut v = [0, 0, 0, one];
        let mut n = 0;
        loop {
            let (x, s) = self.signed_scalar64(dt)?;
            match v.get_mut(n) {
                Some(slot) => *slot = x,
                None => return Err(syntax(s, "a constant vector has at most 4 components")),
            }
            n += 1;
            if !self.c.eat(&Tok::Comma) {
                break;
            }
        }
        self.c.expect(&Tok::RBrace, "to end a constant vector")?;
        Ok((v, false))
    }

    /// An optionally signed number as the raw bits of 64-bit type `dt`.
    fn signed_scalar64(&mut self, dt: DataType) -> Result<(u64, Span), ProgramError> {
        let start = self.c.span();
        let neg = if self.c.eat(&Tok::Minus) {
            true
        } else {
            self.c.eat(&Tok::Plus);
            false
        };
        let tok = self.c.peek().clone();
        let span = start.to(self.c.span());
        let bits = match (tok, dt) {
            (Tok::Int(i), DataType::F64) => (if neg { -(i as f64) } else { i as f64 }).to_bits(),
            (Tok::Float(f), DataType::F64) => (if neg { -f } else { f }).to_bits(),
            (Tok::Int(i), DataType::S64) => {
                if i > 1 << 63 || (i == 1 << 63 && !neg) {
                    return Err(semantic(span, "integer constant does not fit in 64 bits"));
                }
                if neg {
                    i.wrapping_neg()
                } else {
                    i
                }
            }
            (Tok::Int(i), _) => {
                if neg && i != 0 {
                    return Err(semantic(
                        span,
                        "a negative constant cannot be used where an unsigned integer is expected",
                    ));
                }
                i
            }
            (Tok::Float(_), _) => {
                return Err(semantic(
                    span,
                    "an integer variable needs an integer constant",
                ))
            }
            _ => return Err(self.c.unexpected("a number")),
        };
        self.c.bump();
        Ok((bits, span))
    }

    fn maybe_array(
        &mut self,
        name: &str,
        first: u32,
        len: Option<u32>,
        has_index: bool,
        rel_ok: bool,
        span: Span,
    ) -> Result<Index, ProgramError> {
        match (len, has_index) {
            (Some(n), true) => self.array_index(name, first, n, rel_ok),
            (Some(_), false) => Err(semantic(span, format!("array '{name}' must be indexed"))),
            (None, true) => Err(semantic(span, format!("'{name}' is not an array"))),
            (None, false) => Ok(Index::Direct(first)),
        }
    }

    /// A full source operand: sign, `|abs|`, register, swizzle.
    pub(crate) fn src_operand(&mut self, const_ty: VarType) -> Result<ParsedSrc, ProgramError> {
        self.src_operand_typed(const_ty, None)
    }

    /// `src_operand`, where a literal read as the 64-bit type `wide` (fp64/int64
    /// instructions) is kept at full precision as an immediate instead of a 32-bit
    /// parameter.
    pub(crate) fn src_operand_typed(
        &mut self,
        const_ty: VarType,
        wide: Option<DataType>,
    ) -> Result<ParsedSrc, ProgramError> {
        let start = self.c.span();
        let mut negate = false;
        if self.c.eat(&Tok::Minus) {
            negate = true;
        } else {
            self.c.eat(&Tok::Plus);
        }
        let abs = self.c.peek() == &Tok::Bar;
        if abs {
            if !self.nv_syntax() {
                return Err(syntax(
                    self.c.span(),
                    "'|x|' absolute value needs an NV option or NV program",
                ));
            }
            self.c.bump();
            if self.c.eat(&Tok::Minus) {
                // |-x| == |x|
            } else {
                self.c.eat(&Tok::Plus);
            }
        }
        // A negative literal right after the sign: `-2` is parsed by the constant itself.
        let literal = matches!(self.c.peek(), Tok::Int(_) | Tok::Float(_) | Tok::LBrace);
        let (op, lit_scalar, imm) = match wide.filter(|_| literal) {
            Some(dt) => {
                let (imm, scalar) = self.literal64(dt)?;
                let op = Operand {
                    file: File::Immediate,
                    index: Index::Direct(0),
                    vertex: None,
                    buffer: 0,
                    ty: None,
                };
                (op, scalar, imm)
            }
            None => {
                let (op, scalar) = self.src_register(const_ty)?;
                (op, scalar, [0; 4])
            }
        };
        if literal && negate && const_ty == VarType::Uint {
            return Err(semantic(
                start.to(self.c.prev_span()),
                "a negative constant cannot be used where an unsigned integer is expected",
            ));
        }
        // A scalar literal may still carry a suffix in ARB programs (`3.14159.x`).
        let bare_literal = lit_scalar && self.c.peek() != &Tok::Dot;
        let (swizzle, scalar) = if bare_literal {
            ([0, 0, 0, 0], false)
        } else {
            self.swizzle_suffix()?
        };
        if abs {
            self.c.expect(&Tok::Bar, "to close the absolute value")?;
        }
        let span = start.to(self.c.prev_span());
        Ok(ParsedSrc {
            src: Src {
                file: op.file,
                index: op.index,
                vertex: op.vertex,
                buffer: op.buffer,
                imm,
                swizzle,
                ext_swizzle: None,
                abs,
                negate,
                span,
            },
            ty: op.ty,
            // ARB_vertex_program/ARB_fragment_program: `<scalarSrcReg> ::= <optionalSign>
            // <srcReg> <scalarSuffix>`, constants included; the NV options and NV programs
            // accept a bare `<constantScalar>` as a scalar operand.
            scalar: scalar || (bare_literal && self.nv_syntax()),
        })
    }

    /// The destination register; `addr` allows address registers (ARL/ARA/ARR/POPA).
    pub(crate) fn dst_operand(
        &mut self,
        addr: bool,
    ) -> Result<(Dst, Option<VarType>), ProgramError> {
        let start = self.c.span();
        let (name, span) = match self.c.peek() {
            Tok::Ident(n) => (n.clone(), self.c.span()),
            _ => return Err(self.c.unexpected("a destination register")),
        };
        let relative_result = if self.syms.contains_key(&name) {
            None
        } else {
            self.vp3_relative_result()?
        };
        let (file, index, ty) = if let Some(index) = relative_result {
            (File::Output, index, None)
        } else if name == "result" && !self.syms.contains_key(&name) {
            let (items, bspan) = self.output_binding(false)?;
            let b = items
                .into_iter()
                .next()
                .ok_or_else(|| syntax(bspan, "empty result binding"))?;
            let slot = self.output_slot(b, bspan)?;
            (File::Output, Index::Direct(slot), None)
        } else if matches!(name.as_str(), "CC" | "CC0" | "CC1")
            && !self.syms.contains_key(&name)
            && self.nv_syntax()
        {
            self.c.bump();
            let slot = match self.cc_temp {
                Some(s) => s,
                None => {
                    let s = self.prog.temps.len() as u32;
                    self.prog.temps.push(RegInfo::default());
                    self.cc_temp = Some(s);
                    s
                }
            };
            (File::Temp, Index::Direct(slot), None)
        } else {
            self.c.bump();
            let has_index = self.c.peek() == &Tok::LBracket;
            match self.sym(&name) {
                Some(Sym::Temp { first, len, ty }) => (
                    File::Temp,
                    self.maybe_array(&name, first, len, has_index, true, span)?,
                    ty,
                ),
                Some(Sym::Output { first, len, ty }) => {
                    let index = self.maybe_array(&name, first, len, has_index, true, span)?;
                    if let (Index::Relative { .. }, Some(n)) = (&index, len) {
                        let keys: Vec<String> = (first..first + n)
                            .filter_map(|i| self.prog.outputs.get(i as usize))
                            .map(|s| format!("out {:?}", s.binding))
                            .collect();
                        self.claim_relative(&name, first, keys, span)?;
                    }
                    (File::Output, index, ty)
                }
                Some(Sym::Address { index }) if addr => {
                    (File::Address, Index::Direct(index), Some(VarType::Int))
                }
                Some(_) => {
                    return Err(semantic(
                        span,
                        format!("'{name}' cannot be written (not a TEMP or OUTPUT variable)"),
                    ))
                }
                None if name == "vertex"
                    || name == "fragment"
                    || name == "state"
                    || name == "program" =>
                {
                    return Err(semantic(span, format!("'{name}' bindings are read-only")))
                }
                None => return Err(semantic(span, format!("'{name}' is not declared"))),
            }
        };
        if file != File::Address && addr && self.nv == 0 {
            return Err(semantic(
                span,
                format!("'{name}' is not an address register"),
            ));
        }
        let mask = self.write_mask()?;
        let cond = self.cc_mask_paren()?;
        Ok((
            Dst {
                file,
                index,
                mask,
                cond,
                span: start.to(self.c.prev_span()),
            },
            ty,
        ))
    }

    /// SWZ's extended swizzle: four comma-separated `[-]0|1|x|y|z|w`.
    pub(crate) fn ext_swizzle(&mut self) -> Result<[ExtSwizzle; 4], ProgramError> {
        let mut out = [ExtSwizzle::Zero; 4];
        let mut kind: Option<bool> = None; // Some(true)=rgba
        for (i, slot) in out.iter_mut().enumerate() {
            if i > 0 {
                self.c
                    .expect(&Tok::Comma, "between extended swizzle components")?;
            }
            let neg = if self.c.eat(&Tok::Minus) {
                true
            } else {
                self.c.eat(&Tok::Plus);
                false
            };
            let span = self.c.span();
            let sel = match self.c.peek().clone() {
                Tok::Int(0) => None,
                Tok::Int(1) => Some(None),
                Tok::Ident(s) if s.len() == 1 => {
                    let rgba = matches!(s.as_str(), "r" | "g" | "b" | "a");
                    let comps = components(&s, self.stage == Stage::Fragment || self.is_nv())
                        .ok_or_else(|| {
                            syntax(span, format!("'{s}' is not an extended swizzle component"))
                        })?;
                    if kind.is_some_and(|k| k != rgba) {
                        return Err(syntax(
                            span,
                            "extended swizzle mixes xyzw and rgba components",
                        ));
                    }
                    kind = Some(rgba);
                    Some(comps.first().copied())
                }
                _ => {
                    return Err(syntax(
                        span,
                        format!(
                            "{} is not an extended swizzle component (0, 1, x, y, z, w)",
                            self.c.peek().describe()
                        ),
                    ))
                }
            };
            self.c.bump();
            *slot = match (sel, neg) {
                (None, false) => ExtSwizzle::Zero,
                (None, true) => ExtSwizzle::NegZero,
                (Some(None), false) => ExtSwizzle::One,
                (Some(None), true) => ExtSwizzle::NegOne,
                (Some(Some(c)), false) => ExtSwizzle::Comp(c),
                (Some(Some(c)), true) => ExtSwizzle::NegComp(c),
            };
        }
        Ok(out)
    }
}
