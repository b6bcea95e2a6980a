//! OPTION statements and naming statements (TEMP, PARAM, ATTRIB, OUTPUT, ADDRESS, ALIAS,
//! TEXTURE, BUFFER*, COUNTER, IMAGE, STORAGE, SUBROUTINE*) and the stage declarations
//! (PRIMITIVE_IN ... TESS_POINT_MODE).

use super::{Parser, Sym};
use crate::error::ProgramError;
use crate::ir::*;
use crate::lexer::Tok;
use crate::parse::{clamp_u32, semantic, syntax};
use crate::slots::Slots;
use crate::span::Span;

/// Variable modifiers in front of a declaration.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct VarMods {
    pub ty: Option<(VarType, Span)>,
    pub size: Option<(bool, Span)>, // true = LONG, false = SHORT
    pub interp: Interp,
    pub interp_span: Option<Span>,
}

impl Parser {
    pub(crate) fn option(&mut self) -> Result<(), ProgramError> {
        let kw = self.c.bump();
        if self.seen_statement {
            return Err(syntax(kw, "OPTION must come before every other statement"));
        }
        let (name, span) = self.c.ident("an option name")?;
        let frag = self.stage == Stage::Fragment;
        let vert = self.stage == Stage::Vertex;
        let o = &mut self.prog.options;
        let arb = self.nv == 0;
        let ok = match name.as_str() {
            "ARB_position_invariant" if vert => {
                o.position_invariant = true;
                true
            }
            "ARB_fog_exp" | "ARB_fog_exp2" | "ARB_fog_linear" if frag => {
                let mode = match name.as_str() {
                    "ARB_fog_exp" => FogMode::Exp,
                    "ARB_fog_exp2" => FogMode::Exp2,
                    _ => FogMode::Linear,
                };
                if o.fog.is_some_and(|m| m != mode) {
                    return Err(semantic(
                        span,
                        format!("'{name}': only one ARB_fog option may be given"),
                    ));
                }
                o.fog = Some(mode);
                true
            }
            "ARB_precision_hint_fastest" | "ARB_precision_hint_nicest" if frag => {
                let fastest = name.ends_with("fastest");
                if (fastest && o.precision_hint_nicest) || (!fastest && o.precision_hint_fastest) {
                    return Err(semantic(
                        span,
                        format!(
                            "'{name}': ARB_precision_hint_fastest and _nicest exclude each other"
                        ),
                    ));
                }
                if fastest {
                    o.precision_hint_fastest = true;
                } else {
                    o.precision_hint_nicest = true;
                }
                true
            }
            // NV_fragment_program4 2.X.6.Y: in NV programs the option "is not illegal but
            // has no additional effect"; NV_vertex_program3 adds it to ARB vertex programs.
            "ARB_fragment_program_shadow" if frag || (arb && self.opts.vp3) => {
                o.fragment_program_shadow = true;
                true
            }
            "ARB_draw_buffers" | "ATI_draw_buffers" if frag => {
                o.draw_buffers = true;
                true
            }
            "ARB_fragment_coord_origin_upper_left" if frag => {
                o.origin_upper_left = true;
                true
            }
            "ARB_fragment_coord_pixel_center_integer" if frag => {
                o.pixel_center_integer = true;
                true
            }
            "ARB_blend_func_extended" if frag => {
                o.blend_func_extended = true;
                true
            }
            "NV_early_fragment_tests" if frag && self.nv >= 50 => {
                o.early_fragment_tests = true;
                true
            }
            "NV_vertex_program2" if vert && arb => {
                self.opts.vp2 = true;
                true
            }
            "NV_vertex_program3" if vert && arb => {
                self.opts.vp2 = true;
                self.opts.vp3 = true;
                true
            }
            "NV_fragment_program" if frag && arb => {
                self.opts.fpo = true;
                true
            }
            "NV_fragment_program2" if frag && arb => {
                self.opts.fpo = true;
                self.opts.fp2 = true;
                true
            }
            "NV_shader_thread_shuffle" if self.nv >= 50 => true,
            "NV_gpu_program5_mem_extended" if self.nv >= 50 => true,
            // NVIDIA's compiler puts this undocumented option first in every program it
            // prints, and emulators copied it: nothing to enable.
            "NV_internal" if !arb => true,
            "NV_shader_thread_group" if !arb => {
                self.opts.thread_group = true;
                true
            }
            "ARB_derivative_control" if frag && !arb => {
                self.opts.derivative_control = true;
                true
            }
            "ARB_fragment_layer_viewport" if frag && !arb => {
                self.opts.layer_viewport = true;
                true
            }
            "ARB_shader_draw_parameters" if vert && !arb => {
                self.opts.draw_parameters = true;
                true
            }
            // Both spellings NV_geometry_shader_passthrough uses for its option.
            "NV_geometry_shader_passthrough" | "NV_geometry_program_passthrough"
                if self.stage == Stage::Geometry && !arb =>
            {
                self.prog.decls.passthrough = true;
                true
            }
            "NV_viewport_array2" if !frag && !arb => {
                self.opts.viewport_array2 = true;
                true
            }
            "NV_shader_atomic_fp16_vector" if self.nv >= 50 => {
                self.opts.atomic_fp16_vector = true;
                true
            }
            "EXT_shader_image_load_formatted" if self.nv >= 50 => {
                self.opts.image_load_formatted = true;
                true
            }
            // `.SPARSE`, `.LODCLAMP` and the RESIDENT/NONRESIDENT tests need no option
            // in their specs; emulators print one anyway.
            "EXT_sparse_texture2" | "ARB_sparse_texture_clamp" if self.nv >= 50 => true,
            "ARB_viewport_array" if !arb => true,
            // Options whose syntax the front end gates on the option's name
            // (`Parser::has_option`). NV_gpu_program5 already has LOAD and LDC ("without
            // needing to declare" the option), so naming those options there is allowed.
            "NV_parameter_buffer_object2"
            | "NV_shader_buffer_load"
            | "NV_explicit_multisample"
            | "NV_texture_multisample"
                if !arb =>
            {
                true
            }
            "NV_shader_atomic_counters"
            | "NV_shader_storage_buffer"
            | "NV_shader_atomic_float"
            | "NV_shader_atomic_int64"
            | "NV_bindless_texture"
            | "NV_gpu_program_fp64"
                if self.nv >= 50 =>
            {
                true
            }
            _ => false,
        };
        if !ok {
            return Err(semantic(
                span,
                format!(
                    "unknown or unsupported option '{name}' for a {} program",
                    self.stage.name()
                ),
            ));
        }
        if !self.prog.options.names.contains(&name) {
            self.prog.options.names.push(name);
        }
        self.end_statement()
    }

    /// Parses a naming statement or stage declaration if `first` starts one; returns
    /// false (consuming nothing) otherwise.
    pub(crate) fn naming_statement(&mut self, first: &str) -> Result<bool, ProgramError> {
        let is_mod = matches!(
            first,
            "INT"
                | "UINT"
                | "FLOAT"
                | "SHORT"
                | "LONG"
                | "FLAT"
                | "CENTROID"
                | "NOPERSPECTIVE"
                | "SAMPLE"
        );
        let is_decl = matches!(
            first,
            "TEMP"
                | "PARAM"
                | "ATTRIB"
                | "OUTPUT"
                | "ADDRESS"
                | "ALIAS"
                | "TEXTURE"
                | "BUFFER"
                | "BUFFER4"
                | "CBUFFER"
                | "COUNTER"
                | "IMAGE"
                | "STORAGE"
                | "SUBROUTINETYPE"
                | "SUBROUTINE"
                | "PRIMITIVE_IN"
                | "PRIMITIVE_OUT"
                | "VERTICES_OUT"
                | "INVOCATIONS"
                | "TESS_MODE"
                | "TESS_SPACING"
                | "TESS_VERTEX_ORDER"
                | "TESS_POINT_MODE"
                | "PASSTHROUGH"
                | "GROUP_SIZE"
                | "SHARED_MEMORY"
                | "SHARED"
        );
        if !is_mod && !is_decl {
            return Ok(false);
        }
        // `INT`... could name a variable in ARB programs (not reserved there), followed by
        // something that is not a declaration keyword; then it is not a statement start.
        if is_mod && self.nv == 0 && !matches!(first, "SHORT" | "LONG") {
            return Ok(false);
        }
        if self.nv == 0
            && !matches!(
                first,
                "TEMP" | "PARAM" | "ATTRIB" | "OUTPUT" | "ADDRESS" | "ALIAS"
            )
            && !(matches!(first, "SHORT" | "LONG") && self.opts.fpo)
        {
            return Ok(false);
        }
        let mods = self.var_mods()?;
        let (kw, kw_span) = self.c.ident("a declaration keyword")?;
        if !matches!(
            kw.as_str(),
            "PRIMITIVE_IN"
                | "PRIMITIVE_OUT"
                | "VERTICES_OUT"
                | "INVOCATIONS"
                | "TESS_MODE"
                | "TESS_SPACING"
                | "TESS_VERTEX_ORDER"
                | "TESS_POINT_MODE"
                | "PASSTHROUGH"
                | "GROUP_SIZE"
                | "SHARED_MEMORY"
        ) {
            self.seen_body = true;
        }
        match kw.as_str() {
            "TEMP" => self.decl_temp(mods),
            "ADDRESS" => {
                self.no_mods(&mods, "ADDRESS")?;
                self.decl_address(kw_span)
            }
            "PARAM" => self.decl_param(mods),
            "ATTRIB" => self.decl_attrib(mods),
            "OUTPUT" => self.decl_output(mods),
            "ALIAS" => {
                self.no_mods(&mods, "ALIAS")?;
                self.decl_alias()
            }
            "TEXTURE" if self.nv >= 50 => {
                self.no_mods(&mods, "TEXTURE")?;
                self.decl_texture()
            }
            "BUFFER" | "BUFFER4" | "CBUFFER" => self.decl_buffer(&kw, kw_span, mods),
            "COUNTER" if self.nv >= 50 => {
                self.require_option(&["NV_shader_atomic_counters"], "COUNTER", kw_span)?;
                self.no_mods(&mods, "COUNTER")?;
                self.decl_counter()
            }
            "IMAGE" if self.nv >= 50 => {
                self.no_mods(&mods, "IMAGE")?;
                self.decl_image()
            }
            "STORAGE" if self.nv >= 50 => {
                self.require_option(&["NV_shader_storage_buffer"], "STORAGE", kw_span)?;
                self.no_mods(&mods, "STORAGE")?;
                self.decl_storage()
            }
            "SUBROUTINETYPE" if self.nv >= 50 => self.decl_subroutine_type(),
            "SUBROUTINE" if self.nv >= 50 => self.decl_subroutine(),
            "PASSTHROUGH" => {
                self.no_mods(&mods, &kw)?;
                self.decl_passthrough(kw_span)
            }
            "GROUP_SIZE" | "SHARED_MEMORY" if self.nv >= 50 => {
                self.no_mods(&mods, &kw)?;
                self.compute_declaration(&kw, kw_span)
            }
            "SHARED" if self.nv >= 50 => {
                self.no_mods(&mods, "SHARED")?;
                self.decl_shared(kw_span)
            }
            "PRIMITIVE_IN" | "PRIMITIVE_OUT" | "VERTICES_OUT" | "INVOCATIONS" | "TESS_MODE"
            | "TESS_SPACING" | "TESS_VERTEX_ORDER" | "TESS_POINT_MODE" => {
                self.no_mods(&mods, &kw)?;
                self.stage_declaration(&kw, kw_span)
            }
            _ => Err(syntax(
                kw_span,
                format!("'{kw}' cannot start a declaration in this program"),
            )),
        }
        .map(|()| true)
    }

    fn var_mods(&mut self) -> Result<VarMods, ProgramError> {
        let mut m = VarMods::default();
        while let Some(name) = self.c.peek_ident() {
            let span = self.c.span();
            match name {
                "INT" | "UINT" | "FLOAT" if self.nv > 0 => {
                    let ty = match name {
                        "INT" => VarType::Int,
                        "UINT" => VarType::Uint,
                        _ => VarType::Float,
                    };
                    if m.ty.is_some() {
                        return Err(semantic(
                            span,
                            format!("'{name}': more than one data type modifier"),
                        ));
                    }
                    m.ty = Some((ty, span));
                }
                "SHORT" | "LONG" => {
                    if m.size.is_some() {
                        return Err(semantic(
                            span,
                            format!("'{name}': more than one size modifier"),
                        ));
                    }
                    m.size = Some((name == "LONG", span));
                }
                "FLAT" | "CENTROID" | "NOPERSPECTIVE" | "SAMPLE" if self.nv > 0 => {
                    if name == "SAMPLE" && self.nv < 41 {
                        return Err(syntax(
                            span,
                            "'SAMPLE' interpolation needs NV_gpu_program4_1",
                        ));
                    }
                    if self.stage != Stage::Fragment {
                        return Err(semantic(
                            span,
                            format!("'{name}': interpolation modifiers are only allowed in fragment programs"),
                        ));
                    }
                    let i = &mut m.interp;
                    let dup = match name {
                        "FLAT" => std::mem::replace(&mut i.flat, true),
                        "CENTROID" => std::mem::replace(&mut i.centroid, true),
                        "NOPERSPECTIVE" => std::mem::replace(&mut i.noperspective, true),
                        _ => std::mem::replace(&mut i.sample, true),
                    };
                    if dup {
                        return Err(semantic(span, format!("'{name}' given twice")));
                    }
                    if (i.flat && (i.centroid || i.noperspective || i.sample))
                        || (i.centroid && i.sample)
                    {
                        return Err(semantic(
                            span,
                            format!("'{name}': conflicting interpolation modifiers (FLAT excludes the others; CENTROID excludes SAMPLE)"),
                        ));
                    }
                    m.interp_span.get_or_insert(span);
                }
                _ => break,
            }
            self.c.bump();
        }
        Ok(m)
    }

    fn no_mods(&self, m: &VarMods, what: &str) -> Result<(), ProgramError> {
        if let Some(span) = m.ty.map(|t| t.1).or(m.size.map(|s| s.1)).or(m.interp_span) {
            return Err(semantic(
                span,
                format!("variable modifiers are not allowed on {what}"),
            ));
        }
        Ok(())
    }

    fn no_interp(&self, m: &VarMods, what: &str) -> Result<(), ProgramError> {
        if let Some(span) = m.interp_span {
            return Err(semantic(
                span,
                format!("interpolation modifiers are only allowed on fragment ATTRIB, not {what}"),
            ));
        }
        Ok(())
    }

    /// The data type and size modifiers of a declaration. NV_gpu_program5 2.X.3.1: "The
    /// "LONG" modifier is supported only for declarations of temporary variables ("TEMP"),
    /// and attribute variables ("ATTRIB") in vertex programs. The "SHORT" modifier is
    /// supported only for declarations of temporary variables and result variables
    /// ("OUTPUT")" (NV_gpu_program4: LONG only on TEMP); NV_fragment_program_option puts
    /// either on TEMP and OUTPUT.
    fn reg_info(&self, m: &VarMods, what: &str) -> Result<RegInfo, ProgramError> {
        let mut info = RegInfo {
            ty: m.ty.map_or(VarType::Float, |t| t.0),
            long: false,
            short: false,
        };
        if let Some((long, span)) = m.size {
            let ok = match what {
                "TEMP" => true,
                "OUTPUT" => self.nv == 0 || !long,
                "ATTRIB" => long && self.stage == Stage::Vertex && self.nv >= 50,
                _ => false,
            };
            if !ok {
                let rule = if long {
                    "LONG is only allowed on TEMP, and on ATTRIB in NV_gpu_program5 vertex programs"
                } else {
                    "SHORT is only allowed on TEMP and OUTPUT"
                };
                return Err(semantic(
                    span,
                    format!(
                        "'{}' is not allowed on {what}: {rule}",
                        if long { "LONG" } else { "SHORT" }
                    ),
                ));
            }
            info.long = long;
            info.short = !long;
        }
        Ok(info)
    }

    /// `[n]` or `[]` after a declared name; `Ok(None)` without brackets, `Some(None)` for `[]`.
    /// Closes a `{ binding, ... }` initializer of an ATTRIB or OUTPUT declaration and checks
    /// the binding count against the declaration: several bindings need an array, and an
    /// array's declared size must equal the number of bindings.
    fn end_binding_list(
        &mut self,
        braced: bool,
        kind: &str,
        name: &str,
        span: Span,
        size: Option<Option<(u32, Span)>>,
        count: usize,
    ) -> Result<(), ProgramError> {
        if braced {
            self.c
                .expect(&Tok::RBrace, &format!("to end the {kind} initializer"))?;
        }
        if size.is_none() && count != 1 {
            return Err(semantic(
                span,
                format!("'{name}': a binding range needs an {kind} array"),
            ));
        }
        if let Some(Some((n, nspan))) = size {
            if n as usize != count {
                return Err(semantic(
                    nspan,
                    format!("'{name}': declared size {n} does not match the {count} bindings"),
                ));
            }
        }
        Ok(())
    }

    pub(crate) fn opt_array_size(&mut self) -> Result<Option<Option<(u32, Span)>>, ProgramError> {
        if !self.c.eat(&Tok::LBracket) {
            return Ok(None);
        }
        if self.c.eat(&Tok::RBracket) {
            return Ok(Some(None));
        }
        let (n, span) = self.c.int("an array size")?;
        self.c.expect(&Tok::RBracket, "after the array size")?;
        if n == 0 {
            return Err(semantic(span, "array size must be at least 1"));
        }
        Ok(Some(Some((clamp_u32(n), span))))
    }

    fn decl_temp(&mut self, m: VarMods) -> Result<(), ProgramError> {
        self.no_interp(&m, "TEMP")?;
        let info = self.reg_info(&m, "TEMP")?;
        loop {
            let (name, span) = self.c.ident("a variable name")?;
            let mut len = None;
            if self.c.peek() == &Tok::LBracket {
                if self.nv == 0 {
                    return Err(syntax(self.c.span(), "TEMP arrays need NV_gpu_program4"));
                }
                match self.opt_array_size()? {
                    Some(Some((n, _))) => len = Some(n),
                    _ => return Err(syntax(self.c.prev_span(), "a TEMP array needs a size")),
                }
            }
            let first = self.prog.temps.len() as u32;
            if u64::from(first) + u64::from(len.unwrap_or(1))
                > u64::from(self.lim.max_program_temporaries)
            {
                return Err(semantic(
                    span,
                    format!(
                        "'{name}': more than {max_program_temporaries} temporary registers",
                        max_program_temporaries = self.lim.max_program_temporaries
                    ),
                ));
            }
            for _ in 0..len.unwrap_or(1) {
                self.prog.temps.push(info);
            }
            if let Some(n) = len {
                self.prog.temp_arrays.push((first, n));
            }
            self.declare(
                &name,
                span,
                Sym::Temp {
                    first,
                    len,
                    ty: m.ty.map(|t| t.0),
                },
            )?;
            if !self.c.eat(&Tok::Comma) {
                return Ok(());
            }
        }
    }

    fn decl_address(&mut self, kw: Span) -> Result<(), ProgramError> {
        if self.nv > 0 || self.stage != Stage::Vertex {
            return Err(syntax(
                kw,
                "ADDRESS registers exist only in ARB vertex programs",
            ));
        }
        loop {
            let (name, span) = self.c.ident("an address register name")?;
            let index = self.prog.address_regs;
            if index >= self.lim.max_program_address_registers || (index >= 1 && !self.opts.vp2) {
                return Err(semantic(
                    span,
                    format!(
                        "'{name}': too many ADDRESS registers (limit {})",
                        if self.opts.vp2 {
                            self.lim.max_program_address_registers
                        } else {
                            1
                        }
                    ),
                ));
            }
            self.declare(&name, span, Sym::Address { index })?;
            self.prog.address_regs += 1;
            if !self.c.eat(&Tok::Comma) {
                return Ok(());
            }
        }
    }

    fn decl_param(&mut self, m: VarMods) -> Result<(), ProgramError> {
        self.no_interp(&m, "PARAM")?;
        let info = self.reg_info(&m, "PARAM")?;
        let (name, span) = self.c.ident("a parameter name")?;
        let size = self.opt_array_size()?;
        self.c.expect(&Tok::Eq, "in a PARAM declaration")?;
        let mut sources: Vec<ParamSource> = Vec::new();
        match size {
            None => {
                let item_span = self.c.span();
                self.param_items(&mut sources, false, info.ty)?;
                if sources.len() != 1 {
                    return Err(semantic(
                        item_span,
                        format!("'{name}': a single PARAM needs a single-vector binding, this one has {} rows", sources.len()),
                    ));
                }
            }
            Some(declared) => {
                self.c
                    .expect(&Tok::LBrace, "to start the PARAM array initializer")?;
                loop {
                    self.param_items(&mut sources, true, info.ty)?;
                    if !self.c.eat(&Tok::Comma) {
                        break;
                    }
                }
                let close = self
                    .c
                    .expect(&Tok::RBrace, "to end the PARAM array initializer")?;
                if let Some((n, nspan)) = declared {
                    if n as usize != sources.len() {
                        return Err(semantic(
                            nspan,
                            format!(
                                "'{name}': declared size {n} does not match the {} initializers",
                                sources.len()
                            ),
                        ));
                    }
                }
                let _ = close;
            }
        }
        // Arrays get consecutive fresh slots; singles are shared with identical bindings.
        let len = size.map(|_| sources.len() as u32);
        let first = if len.is_some() {
            Slots::param_array(&mut self.prog.params, sources)
        } else {
            let src = sources.pop().unwrap_or(ParamSource::Constant([0; 4]));
            self.param_slot(src)
        };
        self.declare(
            &name,
            span,
            Sym::Param {
                first,
                len,
                ty: m.ty.map(|t| t.0),
            },
        )
    }

    /// Slot for one parameter vector, shared between identical uses.
    pub(crate) fn param_slot(&mut self, src: ParamSource) -> u32 {
        self.slots.param(&mut self.prog.params, src)
    }

    /// One parameter initializer item: constant, `state.*` or `program.env/local`.
    fn param_items(
        &mut self,
        out: &mut Vec<ParamSource>,
        multi: bool,
        ty: VarType,
    ) -> Result<(), ProgramError> {
        match self.c.peek().clone() {
            Tok::LBrace => {
                let v = self.constant_vector(ty)?;
                out.push(ParamSource::Constant(v));
            }
            Tok::Minus | Tok::Plus | Tok::Int(_) | Tok::Float(_) => {
                let (v, _) = self.signed_scalar(ty)?;
                out.push(ParamSource::Constant([v; 4]));
            }
            Tok::Ident(s) if s == "state" => {
                let span = self.c.span();
                let rows = self.state_binding()?;
                if !multi && rows.len() != 1 {
                    return Err(semantic(
                        span,
                        "a multi-row state binding needs a PARAM array",
                    ));
                }
                out.extend(rows.into_iter().map(ParamSource::State));
            }
            Tok::Ident(s) if s == "program" => {
                let span = self.c.span();
                let items = self.program_param_binding(multi)?;
                if !multi && items.len() != 1 {
                    return Err(semantic(span, "a parameter range needs a PARAM array"));
                }
                out.extend(items);
            }
            _ => {
                return Err(self
                    .c
                    .unexpected("a constant, 'state' or 'program' binding"))
            }
        }
        Ok(())
    }

    fn decl_attrib(&mut self, m: VarMods) -> Result<(), ProgramError> {
        let info = self.reg_info(&m, "ATTRIB")?;
        if self.stage == Stage::Fragment
            && matches!(info.ty, VarType::Int | VarType::Uint)
            && !m.interp.flat
        {
            if let Some((_, span)) = m.ty {
                return Err(semantic(
                    span,
                    "integer fragment attributes must be declared FLAT",
                ));
            }
        }
        let (name, span) = self.c.ident("an attribute name")?;
        let size = if self.nv > 0 {
            self.opt_array_size()?
        } else {
            None
        };
        self.c.expect(&Tok::Eq, "in an ATTRIB declaration")?;
        let braced = self.c.eat(&Tok::LBrace);
        let mut items = Vec::new();
        let mut per_vertex = false;
        loop {
            let b = self.input_binding_decl()?;
            per_vertex |= b.per_vertex;
            items.extend(b.items);
            if !(braced && self.c.eat(&Tok::Comma)) {
                break;
            }
        }
        self.end_binding_list(braced, "ATTRIB", &name, span, size, items.len())?;
        let keys: Vec<_> = items.iter().map(input_key).collect();
        check_consecutive(&keys, "ATTRIB", &name, span)?;
        let len = size.map(|_| items.len() as u32);
        let first = if len.is_some() {
            Slots::input_array(&mut self.prog.inputs, items, m.interp, info)
        } else {
            let b = items
                .pop()
                .ok_or_else(|| syntax(span, "missing attribute binding"))?;
            self.input_slot_typed(b, m.interp, info, span)?
        };
        self.declare(
            &name,
            span,
            Sym::Attrib {
                first,
                len,
                per_vertex,
                ty: m.ty.map(|t| t.0),
            },
        )
    }

    fn decl_output(&mut self, m: VarMods) -> Result<(), ProgramError> {
        self.no_interp(&m, "OUTPUT")?;
        let info = self.reg_info(&m, "OUTPUT")?;
        let (name, span) = self.c.ident("an output name")?;
        let size = if self.nv > 0 {
            self.opt_array_size()?
        } else {
            None
        };
        self.c.expect(&Tok::Eq, "in an OUTPUT declaration")?;
        let braced = self.c.eat(&Tok::LBrace);
        let mut items = Vec::new();
        loop {
            items.extend(self.output_binding(true)?.0);
            if !(braced && self.c.eat(&Tok::Comma)) {
                break;
            }
        }
        self.end_binding_list(braced, "OUTPUT", &name, span, size, items.len())?;
        if self.is_nv() && self.stage == Stage::Fragment && size.is_some() {
            return Err(semantic(
                span,
                format!("'{name}': fragment program results may not be declared as arrays"),
            ));
        }
        let keys: Vec<_> = items.iter().map(output_key).collect();
        check_consecutive(&keys, "OUTPUT", &name, span)?;
        let len = size.map(|_| items.len() as u32);
        let mut first = None;
        if len.is_some() {
            if !items.is_empty() {
                first = Some(self.slots.output_array(&mut self.prog.outputs, items, info));
            }
        } else {
            for b in items {
                let slot = self.output_slot(b, span)?;
                if let Some(o) = self.prog.outputs.get_mut(slot as usize) {
                    o.info = info;
                }
                first.get_or_insert(slot);
            }
        }
        let first = first.unwrap_or(0);
        self.declare(
            &name,
            span,
            Sym::Output {
                first,
                len,
                ty: m.ty.map(|t| t.0),
            },
        )
    }

    fn decl_alias(&mut self) -> Result<(), ProgramError> {
        let (name, span) = self.c.ident("an alias name")?;
        self.c.expect(&Tok::Eq, "in an ALIAS declaration")?;
        let (target, tspan) = self.c.ident("a declared name")?;
        let Some((sym, _)) = self.syms.get(&target).cloned() else {
            return Err(semantic(
                tspan,
                format!("'{target}' is not declared (ALIAS needs an existing name)"),
            ));
        };
        self.declare(&name, span, sym)
    }

    fn decl_texture(&mut self) -> Result<(), ProgramError> {
        let (name, span) = self.c.ident("a texture variable name")?;
        let size = self.opt_array_size()?;
        self.c.expect(&Tok::Eq, "in a TEXTURE declaration")?;
        let braced = self.c.eat(&Tok::LBrace);
        let mut units: Vec<u32> = Vec::new();
        loop {
            self.c.expect_ident("texture", "in a TEXTURE declaration")?;
            let (a, b, s) = self.index_or_range()?;
            if b >= self.lim.max_texture_image_units {
                return Err(semantic(
                    s,
                    format!(
                        "texture unit {b} exceeds the limit of {}",
                        self.lim.max_texture_image_units
                    ),
                ));
            }
            if !braced && a != b {
                return Err(semantic(s, "a texture range needs a TEXTURE array"));
            }
            units.extend(a..=b);
            if !(braced && self.c.eat(&Tok::Comma)) {
                break;
            }
        }
        if braced {
            self.c
                .expect(&Tok::RBrace, "to end the TEXTURE initializer")?;
        }
        if let Some(Some((n, nspan))) = size {
            if n as usize != units.len() {
                return Err(semantic(
                    nspan,
                    format!(
                        "'{name}': declared size {n} does not match the {} units",
                        units.len()
                    ),
                ));
            }
        }
        // NV_gpu_program5 section 2.X.3.8: "the list of texture image units assigned to
        // the array must increase consecutively".
        let first = units.first().copied().unwrap_or(0);
        if units
            .iter()
            .enumerate()
            .any(|(i, u)| *u != first + i as u32)
        {
            return Err(semantic(
                span,
                format!("'{name}': the texture image units of a TEXTURE array must increase consecutively"),
            ));
        }
        let len = size.map(|_| units.len() as u32);
        self.declare(&name, span, Sym::Texture { first, len })
    }

    /// `[n]` or `[a..b]`, returning (a, b, span).
    pub(crate) fn index_or_range(&mut self) -> Result<(u32, u32, Span), ProgramError> {
        let open = self.c.expect(&Tok::LBracket, "before an index")?;
        let (a, _) = self.c.int("an index")?;
        let b = if self.c.eat(&Tok::DotDot) {
            self.c.int("the end of a range")?.0
        } else {
            a
        };
        let close = self.c.expect(&Tok::RBracket, "after an index")?;
        if b < a {
            return Err(semantic(
                open.to(close),
                format!("invalid range [{a}..{b}]: end before start"),
            ));
        }
        Ok((clamp_u32(a), clamp_u32(b), open.to(close)))
    }

    fn decl_buffer(&mut self, kw: &str, kw_span: Span, m: VarMods) -> Result<(), ProgramError> {
        self.no_interp(&m, kw)?;
        if kw == "CBUFFER" && self.nv < 50 {
            self.require_option(&["NV_parameter_buffer_object2"], "CBUFFER", kw_span)?;
        }
        let info = self.reg_info(&m, kw)?;
        let (name, span) = self.c.ident("a buffer variable name")?;
        let mut size = self.opt_array_size()?;
        let declared_array = size.is_some();
        // CBUFFER allows a second size: `CBUFFER cb[n][m]` is n binding points of m
        // elements each; the outer size must match the binding range.
        let mut outer = None;
        if kw == "CBUFFER" {
            if let Some(inner) = self.opt_array_size()? {
                outer = size;
                size = Some(inner);
            }
        }
        self.c.expect(&Tok::Eq, "in a buffer declaration")?;
        let braced = self.c.eat(&Tok::LBrace);
        self.c.expect_ident("program", "in a buffer binding")?;
        self.c.expect(&Tok::Dot, "after 'program'")?;
        self.c.expect_ident("buffer", "in a buffer binding")?;
        let (binding, bhi, bspan) = self.index_or_range()?;
        if bhi >= self.lim.max_program_parameter_buffer_bindings {
            return Err(semantic(bspan, format!("program.buffer[{bhi}] exceeds the {max_program_parameter_buffer_bindings} binding points", max_program_parameter_buffer_bindings = self.lim.max_program_parameter_buffer_bindings)));
        }
        // NV_gpu_program5 section 2.X.3.6 adds "program.buffer[a..b]": one variable over
        // several binding points, indexed by binding first.
        if bhi != binding && self.nv < 50 {
            return Err(semantic(
                bspan,
                format!("program.buffer[{binding}..{bhi}] spans several binding points, which needs NV_gpu_program5"),
            ));
        }
        let bindings = bhi - binding + 1;
        if let Some(Some((n, nspan))) = outer {
            if n != bindings {
                return Err(semantic(
                    nspan,
                    format!("'{name}': declared {n} buffers, but the binding names {bindings} binding points"),
                ));
            }
        }
        let mut first = 0;
        let mut count = None;
        if self.c.peek() == &Tok::LBracket {
            let (a, b, _) = self.index_or_range()?;
            first = a;
            count = Some(b - a + 1);
        }
        // NV_gpu_program4/5 2.X.3.6: "all bindings assigned to the array must use the same
        // binding point or binding point range, and must increase consecutively".
        while braced && self.c.eat(&Tok::Comma) {
            let item = self.c.expect_ident("program", "in a buffer binding")?;
            self.c.expect(&Tok::Dot, "after 'program'")?;
            self.c.expect_ident("buffer", "in a buffer binding")?;
            let (b0, b1, _) = self.index_or_range()?;
            let elems = if self.c.peek() == &Tok::LBracket {
                Some(self.index_or_range()?)
            } else {
                None
            };
            let ok = (b0, b1) == (binding, bhi)
                && matches!((elems, count), (Some((a, _, _)), Some(c)) if a == first + c);
            if !ok {
                return Err(semantic(
                    item.to(self.c.prev_span()),
                    format!("'{name}': the bindings of a {kw} array must use one binding point and increase consecutively"),
                ));
            }
            if let (Some((a, b, _)), Some(c)) = (elems, count) {
                count = Some(c + b - a + 1);
            }
        }
        if braced {
            self.c
                .expect(&Tok::RBrace, "to end the buffer initializer")?;
        }
        if size.is_none() && count != Some(1) && kw != "CBUFFER" && (!braced || count.is_some()) {
            {
                return Err(semantic(
                    span,
                    format!("'{name}': a single {kw} variable needs a single element binding"),
                ));
            }
        }
        if let (Some(Some((n, nspan))), Some(c)) = (size, count) {
            if n != c {
                return Err(semantic(
                    nspan,
                    format!("'{name}': declared size {n} does not match the {c} elements"),
                ));
            }
        }
        let len = match size {
            Some(Some((n, _))) => Some(n),
            _ => count,
        };
        if len.is_some_and(|l| l > self.lim.max_program_parameter_buffer_size) {
            return Err(semantic(
                span,
                format!(
                    "'{name}' is larger than {max_program_parameter_buffer_size} elements",
                    max_program_parameter_buffer_size = self.lim.max_program_parameter_buffer_size
                ),
            ));
        }
        let kind = match kw {
            "BUFFER" => BufferKind::Buffer,
            "BUFFER4" => BufferKind::Buffer4,
            _ => BufferKind::CBuffer,
        };
        let clash = self.prog.buffers.iter().any(|b| {
            b.binding <= bhi
                && binding < b.binding.saturating_add(b.bindings)
                && matches!(
                    (b.kind, kind),
                    (BufferKind::Buffer, BufferKind::Buffer4)
                        | (BufferKind::Buffer4, BufferKind::Buffer)
                )
        });
        if clash {
            return Err(semantic(
                bspan,
                format!("program.buffer[{binding}] is used by both BUFFER and BUFFER4 variables"),
            ));
        }
        let index = self.prog.buffers.len() as u32;
        self.prog.buffers.push(BufferVar {
            name: name.clone(),
            binding,
            bindings,
            first,
            len,
            kind: match kw {
                "BUFFER" => BufferKind::Buffer,
                "BUFFER4" => BufferKind::Buffer4,
                _ => BufferKind::CBuffer,
            },
            info,
        });
        self.declare(
            &name,
            span,
            Sym::Buffer {
                index,
                ty: m.ty.map(|t| t.0),
                array: declared_array,
            },
        )
    }

    /// `COUNTER c = program.counter[a][b];` or an array over consecutive elements of one
    /// binding point; `program.counter[a]` in an array stands for "elements 0 through
    /// n-1, where n is either the size of the array (if declared) or the
    /// implementation-dependent maximum" (NV_shader_atomic_counters 2.X.3.Y).
    fn decl_counter(&mut self) -> Result<(), ProgramError> {
        let (name, span) = self.c.ident("a counter name")?;
        let size = self.opt_array_size()?;
        self.c.eat(&Tok::Eq);
        let braced = self.c.eat(&Tok::LBrace);
        let mut binding = None;
        // (first element, count); None for a whole-buffer item.
        let mut elems: Option<(u32, u32)> = None;
        let mut whole = false;
        loop {
            let item = self.c.expect_ident("program", "in a counter binding")?;
            self.c.expect(&Tok::Dot, "after 'program'")?;
            self.c.expect_ident("counter", "in a counter binding")?;
            let (b, bspan) = self.c.bracket_int("a counter binding")?;
            if b >= self.lim.max_atomic_counter_bindings {
                return Err(semantic(
                    bspan,
                    format!(
                        "program.counter[{b}] exceeds the {} counter bindings",
                        self.lim.max_atomic_counter_bindings
                    ),
                ));
            }
            if binding.is_some_and(|x| x != b) {
                return Err(semantic(
                    bspan,
                    format!(
                        "'{name}': all bindings of a COUNTER array must use the same binding point"
                    ),
                ));
            }
            binding = Some(b);
            let range = if self.c.peek() == &Tok::LBracket {
                let (lo, hi, _) = self.index_or_range()?;
                Some((lo, hi))
            } else {
                None
            };
            let item_span = item.to(self.c.prev_span());
            match (range, elems, whole) {
                (Some((lo, hi)), None, false) => elems = Some((lo, hi - lo + 1)),
                (Some((lo, hi)), Some((first, n)), false) if lo == first + n => {
                    elems = Some((first, n + hi - lo + 1))
                }
                (None, None, false) => whole = true,
                _ => {
                    return Err(semantic(
                        item_span,
                        format!("'{name}': the bindings of a COUNTER array must name consecutive elements of one buffer"),
                    ))
                }
            }
            if !(braced && self.c.eat(&Tok::Comma)) {
                break;
            }
        }
        if braced {
            self.c
                .expect(&Tok::RBrace, "to end the counter initializer")?;
        }
        let (first, len) = match (size, elems) {
            (None, Some((first, 1))) => (first, 1),
            (None, _) => {
                return Err(semantic(
                    span,
                    format!("'{name}': a single COUNTER binds one element (program.counter[a][b]); declare an array for more"),
                ))
            }
            (Some(Some((n, nspan))), Some((first, count))) => {
                if n != count {
                    return Err(semantic(
                        nspan,
                        format!("'{name}': declared size {n} does not match the {count} counters"),
                    ));
                }
                (first, n)
            }
            (Some(None), Some(e)) => e,
            (Some(Some((n, _))), None) => (0, n),
            (Some(None), None) => (0, self.lim.max_atomic_counter_buffer_size / 4),
        };
        let index = self.prog.counters.len() as u32;
        self.prog.counters.push(CounterVar {
            name: name.clone(),
            binding: binding.unwrap_or(0),
            first,
            len,
        });
        self.declare(&name, span, Sym::Counter { index })
    }

    fn decl_image(&mut self) -> Result<(), ProgramError> {
        let (name, span) = self.c.ident("an image variable name")?;
        let size = self.opt_array_size()?;
        self.c.expect(&Tok::Eq, "in an IMAGE declaration")?;
        let braced = self.c.eat(&Tok::LBrace);
        self.c.expect_ident("image", "in an IMAGE declaration")?;
        let (a, b, s) = self.index_or_range()?;
        if b >= self.lim.max_image_units {
            return Err(semantic(
                s,
                format!(
                    "image unit {b} exceeds the limit of {max_image_units}",
                    max_image_units = self.lim.max_image_units
                ),
            ));
        }
        if braced {
            self.c
                .expect(&Tok::RBrace, "to end the IMAGE initializer")?;
        }
        let len = b - a + 1;
        if let Some(Some((n, nspan))) = size {
            if n != len {
                return Err(semantic(
                    nspan,
                    format!("'{name}': declared size {n} does not match the {len} image units"),
                ));
            }
        }
        let index = self.prog.images.len() as u32;
        self.prog.images.push(ImageVar {
            name: name.clone(),
            first: a,
            len,
        });
        self.declare(&name, span, Sym::Image { index })
    }

    fn decl_storage(&mut self) -> Result<(), ProgramError> {
        let (name, span) = self.c.ident("a storage variable name")?;
        let _ = self.opt_array_size()?;
        self.c.expect(&Tok::Eq, "in a STORAGE declaration")?;
        let braced = self.c.eat(&Tok::LBrace);
        self.c.expect_ident("program", "in a storage binding")?;
        self.c.expect(&Tok::Dot, "after 'program'")?;
        self.c.expect_ident("storage", "in a storage binding")?;
        let (a, b, s) = self.index_or_range()?;
        if b >= self.lim.max_storage_buffer_bindings {
            return Err(semantic(s, format!("program.storage[{b}] exceeds the {max_storage_buffer_bindings} storage bindings", max_storage_buffer_bindings = self.lim.max_storage_buffer_bindings)));
        }
        if braced {
            self.c
                .expect(&Tok::RBrace, "to end the STORAGE initializer")?;
        }
        let index = self.prog.buffers.len() as u32;
        self.prog.buffers.push(BufferVar {
            name: name.clone(),
            binding: a,
            bindings: b - a + 1,
            first: 0,
            len: None,
            kind: BufferKind::Storage,
            info: RegInfo::default(),
        });
        self.declare(
            &name,
            span,
            Sym::Buffer {
                index,
                ty: None,
                array: true,
            },
        )
    }

    fn decl_subroutine_type(&mut self) -> Result<(), ProgramError> {
        let (name, span) = self.c.ident("a subroutine type name")?;
        self.c
            .expect(&Tok::LBrace, "to start the subroutine list")?;
        let mut labels = Vec::new();
        if self.c.peek() != &Tok::RBrace {
            loop {
                labels.push(self.c.ident("a function label")?.0);
                if !self.c.eat(&Tok::Comma) {
                    break;
                }
            }
        }
        self.c.expect(&Tok::RBrace, "to end the subroutine list")?;
        self.declare(&name, span, Sym::SubroutineType { labels })
    }

    fn decl_subroutine(&mut self) -> Result<(), ProgramError> {
        let (ty, tspan) = self.c.ident("a subroutine type")?;
        if !matches!(self.syms.get(&ty), Some((Sym::SubroutineType { .. }, _))) {
            return Err(semantic(tspan, format!("'{ty}' is not a SUBROUTINETYPE")));
        }
        let (name, span) = self.c.ident("a subroutine variable name")?;
        let size = self.opt_array_size()?;
        self.c.expect(&Tok::Eq, "in a SUBROUTINE declaration")?;
        let braced = self.c.eat(&Tok::LBrace);
        self.c.expect_ident("program", "in a subroutine binding")?;
        self.c.expect(&Tok::Dot, "after 'program'")?;
        self.c
            .expect_ident("subroutine", "in a subroutine binding")?;
        let (a, b, s) = self.index_or_range()?;
        if b >= self.lim.max_subroutine_uniform_locations {
            return Err(semantic(s, format!("program.subroutine[{b}] exceeds the limit of {max_subroutine_uniform_locations}", max_subroutine_uniform_locations = self.lim.max_subroutine_uniform_locations)));
        }
        if braced {
            self.c
                .expect(&Tok::RBrace, "to end the subroutine initializer")?;
        }
        let len = b - a + 1;
        if let Some(Some((n, nspan))) = size {
            if n != len {
                return Err(semantic(
                    nspan,
                    format!("'{name}': declared size {n} does not match the {len} slots"),
                ));
            }
        }
        let index = self.prog.subroutine_vars.len() as u32;
        self.prog.subroutine_vars.push(SubroutineVar {
            name: name.clone(),
            first: a,
            len,
            functions: Vec::new(),
        });
        self.declare(
            &name,
            span,
            Sym::SubroutineVar {
                index,
                type_name: ty,
            },
        )
    }

    /// NV_geometry_shader_passthrough `PASSTHROUGH <result binding> <write mask>;`.
    fn decl_passthrough(&mut self, span: Span) -> Result<(), ProgramError> {
        if self.seen_body {
            return Err(syntax(
                span,
                "'PASSTHROUGH' must come before every instruction and variable declaration",
            ));
        }
        if !self.prog.decls.passthrough {
            return Err(semantic(
                span,
                "'PASSTHROUGH' needs OPTION NV_geometry_shader_passthrough",
            ));
        }
        let (items, bspan) = self.output_binding(true)?;
        let mask = self.write_mask()?;
        for b in items {
            // Only results with an attribute of the same name in the next stage pass
            // through: not result.primid / layer / viewport / viewportmask.
            let slot = match b {
                OutputBinding::Varying(
                    s @ (VaryingSlot::Position
                    | VaryingSlot::Color { .. }
                    | VaryingSlot::TexCoord(_)
                    | VaryingSlot::Attrib(_)
                    | VaryingSlot::FogCoord
                    | VaryingSlot::PointSize
                    | VaryingSlot::ClipDistance(_)),
                ) => s,
                _ => {
                    return Err(semantic(
                        bspan,
                        format!(
                            "{b:?} cannot be passed through: it has no matching vertex attribute"
                        ),
                    ))
                }
            };
            self.output_slot(OutputBinding::Varying(slot), bspan)?;
            let d = &mut self.prog.decls.passthrough_slots;
            match d.iter_mut().find(|(s, _)| *s == slot) {
                Some((_, m)) => *m |= mask,
                None => d.push((slot, mask)),
            }
        }
        Ok(())
    }

    fn stage_declaration(&mut self, kw: &str, span: Span) -> Result<(), ProgramError> {
        if self.prog.decls.passthrough
            && matches!(kw, "PRIMITIVE_OUT" | "VERTICES_OUT" | "INVOCATIONS")
        {
            return Err(semantic(
                span,
                format!("'{kw}' is not allowed in a passthrough geometry program (its output is its input primitive)"),
            ));
        }
        if self.seen_body {
            return Err(syntax(
                span,
                format!("'{kw}' must come before every instruction and variable declaration"),
            ));
        }
        let st = self.stage;
        let allowed = match kw {
            "PRIMITIVE_IN" | "PRIMITIVE_OUT" => st == Stage::Geometry,
            "VERTICES_OUT" => matches!(st, Stage::Geometry | Stage::TessControl),
            "INVOCATIONS" => st == Stage::Geometry && self.nv >= 50,
            _ => st == Stage::TessEval,
        };
        if !allowed {
            return Err(semantic(
                span,
                format!("'{kw}' is not allowed in a {} program", st.name()),
            ));
        }
        let d = &self.prog.decls;
        let dup = match kw {
            "PRIMITIVE_IN" => d.primitive_in.is_some(),
            "PRIMITIVE_OUT" => d.primitive_out.is_some(),
            "VERTICES_OUT" => d.vertices_out.is_some(),
            "INVOCATIONS" => d.invocations.is_some(),
            "TESS_MODE" => d.tess_mode.is_some(),
            "TESS_SPACING" => d.tess_spacing.is_some(),
            "TESS_VERTEX_ORDER" => d.tess_cw.is_some(),
            _ => d.tess_point_mode,
        };
        if dup {
            return Err(semantic(span, format!("'{kw}' declared more than once")));
        }
        match kw {
            "PRIMITIVE_IN" => {
                let (v, vs) = self.c.ident("a primitive type")?;
                let k = match v.as_str() {
                    "POINTS" => PrimKind::Points,
                    "LINES" => PrimKind::Lines,
                    "LINES_ADJACENCY" => PrimKind::LinesAdjacency,
                    "TRIANGLES" => PrimKind::Triangles,
                    "TRIANGLES_ADJACENCY" => PrimKind::TrianglesAdjacency,
                    "PATCHES" if self.nv >= 50 => PrimKind::Patches(0),
                    _ => return Err(semantic(vs, format!("'{v}' is not a PRIMITIVE_IN type"))),
                };
                self.prog.decls.primitive_in = Some(k);
            }
            "PRIMITIVE_OUT" => {
                let (v, vs) = self.c.ident("a primitive type")?;
                let k = match v.as_str() {
                    "POINTS" => PrimKind::Points,
                    "LINE_STRIP" => PrimKind::LineStrip,
                    "TRIANGLE_STRIP" => PrimKind::TriangleStrip,
                    _ => return Err(semantic(vs, format!("'{v}' is not a PRIMITIVE_OUT type"))),
                };
                self.prog.decls.primitive_out = Some(k);
            }
            "VERTICES_OUT" | "INVOCATIONS" => {
                let (n, ns) = self.c.int("a count")?;
                let limit = match (kw, st) {
                    ("INVOCATIONS", _) => self.lim.max_geometry_invocations,
                    (_, Stage::TessControl) => self.lim.max_patch_vertices,
                    _ => self.lim.max_geometry_vertices_out,
                };
                if n == 0 || n > u64::from(limit) {
                    return Err(semantic(
                        ns,
                        format!("'{kw} {n}': must be between 1 and {limit}"),
                    ));
                }
                if kw == "INVOCATIONS" {
                    self.prog.decls.invocations = Some(n as u32);
                } else {
                    self.prog.decls.vertices_out = Some(n as u32);
                }
            }
            "TESS_MODE" => {
                let (v, vs) = self.c.ident("a tessellation mode")?;
                self.prog.decls.tess_mode = Some(match v.as_str() {
                    "TRIANGLES" => TessMode::Triangles,
                    "QUADS" => TessMode::Quads,
                    "ISOLINES" => TessMode::Isolines,
                    _ => return Err(semantic(vs, format!("'{v}' is not a TESS_MODE"))),
                });
            }
            "TESS_SPACING" => {
                let (v, vs) = self.c.ident("a tessellation spacing")?;
                self.prog.decls.tess_spacing = Some(match v.as_str() {
                    "EQUAL" => TessSpacing::Equal,
                    "FRACTIONAL_ODD" => TessSpacing::FractionalOdd,
                    "FRACTIONAL_EVEN" => TessSpacing::FractionalEven,
                    _ => return Err(semantic(vs, format!("'{v}' is not a TESS_SPACING"))),
                });
            }
            "TESS_VERTEX_ORDER" => {
                let (v, vs) = self.c.ident("CW or CCW")?;
                self.prog.decls.tess_cw = Some(match v.as_str() {
                    "CW" => true,
                    "CCW" => false,
                    _ => return Err(semantic(vs, format!("'{v}' is not a TESS_VERTEX_ORDER"))),
                });
            }
            _ => self.prog.decls.tess_point_mode = true,
        }
        Ok(())
    }

    /// `{a, b, c, d}` (1 to 4 components; missing ones are 0,0,0,1 as in the ARB specs).
    pub(crate) fn constant_vector(&mut self, ty: VarType) -> Result<[u32; 4], ProgramError> {
        self.c.expect(&Tok::LBrace, "to start a constant vector")?;
        let mut v = match ty {
            VarType::Float => [0, 0, 0, 1.0f32.to_bits()],
            _ => [0, 0, 0, 1],
        };
        let mut n = 0;
        loop {
            let (x, s) = self.signed_scalar(ty)?;
            if n >= 4 {
                return Err(syntax(s, "a constant vector has at most 4 components"));
            }
            if let Some(slot) = v.get_mut(n) {
                *slot = x;
            }
            n += 1;
            if !self.c.eat(&Tok::Comma) {
                break;
            }
        }
        self.c.expect(&Tok::RBrace, "to end a constant vector")?;
        Ok(v)
    }

    /// An optionally signed number, converted to the raw bits of `ty`.
    pub(crate) fn signed_scalar(&mut self, ty: VarType) -> Result<(u32, Span), ProgramError> {
        let start = self.c.span();
        let neg = if self.c.eat(&Tok::Minus) {
            true
        } else {
            self.c.eat(&Tok::Plus);
            false
        };
        let (val, is_int, span) = match self.c.peek().clone() {
            Tok::Int(i) => (i as f64, true, self.c.bump()),
            Tok::Float(f) => (f, false, self.c.bump()),
            _ => return Err(self.c.unexpected("a number")),
        };
        let span = start.to(span);
        let bits = match ty {
            VarType::Float => {
                let v = if neg { -val } else { val };
                (v as f32).to_bits()
            }
            VarType::Int | VarType::Uint => {
                if !is_int {
                    return Err(semantic(
                        span,
                        "an integer variable needs an integer constant",
                    ));
                }
                let raw = val as u64;
                if raw > u64::from(u32::MAX) {
                    return Err(semantic(span, "integer constant does not fit in 32 bits"));
                }
                let r = raw as u32;
                if neg && ty == VarType::Uint && r != 0 {
                    return Err(semantic(
                        span,
                        "a negative constant cannot be used where an unsigned integer is expected",
                    ));
                }
                if neg {
                    r.wrapping_neg()
                } else {
                    r
                }
            }
        };
        Ok((bits, span))
    }
}

/// A binding of an attribute or result array as (kind, index) when it belongs to state
/// "grouped in arrays" (texture coordinates, generic attributes, clip distances ...).
type ArrayKey = Option<(&'static str, u32)>;

fn varying_key(v: &VaryingSlot) -> ArrayKey {
    Some(match *v {
        VaryingSlot::TexCoord(n) => ("texcoord", n),
        VaryingSlot::Attrib(n) => ("attrib", n),
        VaryingSlot::ClipDistance(n) | VaryingSlot::ClipLegacy(n) => ("clip", n),
        VaryingSlot::PatchAttrib(n) => ("patch.attrib", n),
        VaryingSlot::TessOuter(n) => ("tessouter", n),
        VaryingSlot::TessInner(n) => ("tessinner", n),
        _ => return None,
    })
}

fn input_key(b: &InputBinding) -> ArrayKey {
    Some(match b {
        InputBinding::VertexAttrib(n) => ("vertex.attrib", *n),
        InputBinding::VertexTexCoord(n) => ("vertex.texcoord", *n),
        InputBinding::VertexWeight(n) => ("vertex.weight", *n),
        InputBinding::FragTexCoord(n) => ("fragment.texcoord", *n),
        InputBinding::FragAttrib(n) => ("fragment.attrib", *n),
        InputBinding::FragClipDistance(n) => ("fragment.clip", *n),
        InputBinding::TessOuter(n) => ("tessouter", *n),
        InputBinding::TessInner(n) => ("tessinner", *n),
        InputBinding::Varying(v) | InputBinding::PatchIn(v) | InputBinding::PatchOut(v) => {
            return varying_key(v)
        }
        InputBinding::VertexOut(v) => return varying_key(v).map(|(k, n)| (k, n + 1000)),
        _ => return None,
    })
}

fn output_key(b: &OutputBinding) -> ArrayKey {
    match b {
        OutputBinding::Varying(v) => varying_key(v),
        OutputBinding::FragColor { target, index } => Some(("color", target * 2 + index)),
        _ => None,
    }
}

/// NV_gpu_program4 2.X.3.2 / 2.X.3.5: "all bindings assigned to the array must be of the
/// same binding type and must increase consecutively".
fn check_consecutive(
    keys: &[ArrayKey],
    kind: &str,
    name: &str,
    span: Span,
) -> Result<(), ProgramError> {
    for pair in keys.windows(2) {
        let ok = match (pair[0], pair[1]) {
            (Some((ka, a)), Some((kb, b))) => ka == kb && b == a + 1,
            (None, None) => true,
            _ => false,
        };
        if !ok {
            return Err(semantic(
                span,
                format!("'{name}': the bindings of an {kind} array must be of one type and increase consecutively"),
            ));
        }
    }
    Ok(())
}
