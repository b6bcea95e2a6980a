//! Texture instructions' operands: the coordinate, unit, target, offsets and the
//! per-unit target checks.

use super::*;

/// A texture target as programs spell it.
pub(crate) fn target_name(t: TexTarget) -> &'static str {
    use TexTarget::*;
    match t {
        T1D => "1D",
        T2D => "2D",
        T3D => "3D",
        Cube => "CUBE",
        Rect => "RECT",
        Array1D => "ARRAY1D",
        Array2D => "ARRAY2D",
        ArrayCube => "ARRAYCUBE",
        Shadow1D => "SHADOW1D",
        Shadow2D => "SHADOW2D",
        ShadowRect => "SHADOWRECT",
        ShadowCube => "SHADOWCUBE",
        ShadowArray1D => "SHADOWARRAY1D",
        ShadowArray2D => "SHADOWARRAY2D",
        ShadowArrayCube => "SHADOWARRAYCUBE",
        Buffer => "BUFFER",
        T2DMs => "2DMS",
        Array2DMs => "ARRAY2DMS",
        Renderbuffer => "RENDERBUFFER",
    }
}

impl Parser {
    pub(super) fn tex_operands(
        &mut self,
        info: &OpInfo,
        m: &Mods,
        inst: &mut Inst,
    ) -> Result<(), ProgramError> {
        use Opcode::*;
        let op = info.op;
        let name = info.name;
        let dtype = inst.dtype;
        // Operands before the texture: everything but the final `t`.
        let fixed: Vec<Shape> = info
            .ins
            .iter()
            .copied()
            .filter(|k| *k != Shape::Texture)
            .collect();
        for k in &fixed {
            self.comma()?;
            let s = self.src(*k, dtype, m.ntc, name)?;
            inst.srcs.push(s);
        }
        self.comma()?;
        // NV5: an extra operand (cube-array shadow reference / bias / lod).
        let mut extra_operand = None;
        if self.nv >= 50 && !self.at_texture() {
            let s = self.src(Shape::FloatVector, DataType::F32, m.ntc, name)?;
            extra_operand = Some(s);
            self.comma()?;
        }
        let (unit, unit_span, units, comp) = self.texture_unit()?;
        self.comma()?;
        let (tname, tspan) = self.c.ident("a texture target")?;
        let target = self.tex_target(&tname, tspan)?;
        if let Some(cspan) = m.lod_clamp {
            // ARB_sparse_texture_clamp table X.17: rectangle textures have no LOD.
            if matches!(target, TexTarget::Rect | TexTarget::ShadowRect) {
                return Err(semantic(
                    cspan,
                    format!("'.LODCLAMP' is not supported with target '{tname}'"),
                ));
            }
            // TEX/TXB read the clamp from a second operand; TXD from its y derivatives' w.
            if op != Txd && extra_operand.is_none() {
                return Err(semantic(
                    cspan,
                    format!("{name}.LODCLAMP needs a second operand holding the LOD clamp"),
                ));
            }
        }
        if let Some(s) = extra_operand {
            let ok = (matches!(
                target,
                TexTarget::ArrayCube
                    | TexTarget::ShadowArrayCube
                    | TexTarget::ShadowCube
                    | TexTarget::ShadowArray2D
            ) && matches!(op, Tex | Txb | Txl | Txg))
                || (m.lod_clamp.is_some() && matches!(op, Tex | Txb));
            if !ok {
                return Err(semantic(s.span, format!("{name} takes a second coordinate operand only with cube-map array or shadow cube targets, or with .LODCLAMP")));
            }
            inst.srcs.push(s);
        }
        // Which instructions may use which targets.
        let ms = matches!(
            target,
            TexTarget::T2DMs | TexTarget::Array2DMs | TexTarget::Renderbuffer
        );
        if ms != (op == Txfms) && !(ms && op == Txq) {
            return Err(semantic(
                tspan,
                format!("target '{tname}' cannot be used with {name}"),
            ));
        }
        if target == TexTarget::Buffer && !matches!(op, Txf | Txq) {
            return Err(semantic(
                tspan,
                format!("BUFFER textures can only be read with TXF or TXQ, not {name}"),
            ));
        }
        if op == Txf
            && matches!(
                target,
                TexTarget::Shadow1D
                    | TexTarget::Shadow2D
                    | TexTarget::ShadowRect
                    | TexTarget::ShadowCube
                    | TexTarget::ShadowArray1D
                    | TexTarget::ShadowArray2D
                    | TexTarget::ShadowArrayCube
                    | TexTarget::Cube
                    | TexTarget::ArrayCube
            )
        {
            return Err(semantic(
                tspan,
                format!("TXF cannot fetch from a '{tname}' texture (no SHADOW or CUBE targets)"),
            ));
        }
        if matches!(op, Txb | Txl | Txp)
            && matches!(target, TexTarget::ShadowCube | TexTarget::ShadowArray2D)
            && (op == Txp || inst.srcs.len() < 2)
        {
            return Err(semantic(
                tspan,
                format!("{name} cannot use target '{tname}' (no room for the reference value)"),
            ));
        }
        // NV_gpu_program5: "TXG only operates on 2D, SHADOW2D, CUBE, SHADOWCUBE, ARRAY2D,
        // SHADOWARRAY2D, ARRAYCUBE, SHADOWARRAYCUBE, RECT, and SHADOWRECT"; TXGO on the
        // same without the cube targets.
        let gather_2d = matches!(
            target,
            TexTarget::T2D
                | TexTarget::Shadow2D
                | TexTarget::Array2D
                | TexTarget::ShadowArray2D
                | TexTarget::Rect
                | TexTarget::ShadowRect
        );
        let gather_cube = matches!(
            target,
            TexTarget::Cube
                | TexTarget::ShadowCube
                | TexTarget::ArrayCube
                | TexTarget::ShadowArrayCube
        );
        if (op == Txg && !gather_2d && !gather_cube) || (op == Txgo && !gather_2d) {
            return Err(semantic(
                tspan,
                format!("{name} cannot gather from a '{tname}' texture"),
            ));
        }
        if let Some((c, cspan)) = comp {
            if !matches!(op, Txg | Txgo) {
                return Err(semantic(
                    cspan,
                    format!("texture component selection is only allowed on TXG/TXGO, not {name}"),
                ));
            }
            let _ = c;
        }
        // Offsets.
        let mut offset = None;
        let comma_then = self.c.peek() == &Tok::Comma;
        if comma_then && self.c.peek_at(1) == &Tok::LParen {
            self.c.bump();
            let open = self.c.bump();
            let mut v = [0i8; 3];
            let mut n = 0;
            let mut spans = Vec::new();
            loop {
                let neg = if self.c.eat(&Tok::Minus) {
                    true
                } else {
                    self.c.eat(&Tok::Plus);
                    false
                };
                let (x, xs) = self.c.int("a texel offset")?;
                let x = i64::try_from(x.min(1 << 20)).unwrap_or(0) * if neg { -1 } else { 1 };
                if !(i64::from(self.lim.min_program_texel_offset)
                    ..=i64::from(self.lim.max_program_texel_offset))
                    .contains(&x)
                {
                    return Err(semantic(xs, format!("texel offset {x} is out of range ({min_program_texel_offset}..{max_program_texel_offset})", max_program_texel_offset = self.lim.max_program_texel_offset, min_program_texel_offset = self.lim.min_program_texel_offset)));
                }
                if n >= 3 {
                    return Err(syntax(xs, "a texel offset has at most 3 components"));
                }
                if let Some(slot) = v.get_mut(n) {
                    *slot = x as i8;
                }
                spans.push(xs);
                n += 1;
                if !self.c.eat(&Tok::Comma) {
                    break;
                }
            }
            let close = self.c.expect(&Tok::RParen, "after texel offsets")?;
            let span = open.to(close);
            if !self.is_nv() {
                return Err(syntax(span, "texel offsets need NV_gpu_program4"));
            }
            let dims = match target {
                TexTarget::T1D
                | TexTarget::Array1D
                | TexTarget::Shadow1D
                | TexTarget::ShadowArray1D => 1,
                TexTarget::T3D => 3,
                TexTarget::Cube
                | TexTarget::ShadowCube
                | TexTarget::ArrayCube
                | TexTarget::ShadowArrayCube
                | TexTarget::Buffer => 0,
                _ => 2,
            };
            if v.iter().skip(dims).any(|&x| x != 0) {
                return Err(semantic(
                    span,
                    format!("non-zero texel offset component not allowed for target '{tname}'"),
                ));
            }
            if op == Txgo && v.iter().any(|&x| x != 0) {
                return Err(semantic(
                    span,
                    "TXGO takes its offsets as operands; constant offsets must be zero",
                ));
            }
            offset = Some(TexOffset::Const(v));
        } else if (comma_then && self.c.peek_ident_at(1) == Some("offset"))
            || self.c.is_ident("offset")
        {
            self.c.eat(&Tok::Comma);
            let kw = self.c.bump();
            if self.nv < 50 {
                return Err(syntax(kw, "register texel offsets need NV_gpu_program5"));
            }
            self.c.expect(&Tok::LParen, "after 'offset'")?;
            let s = self.src(Shape::SignedVector, DataType::S32, m.ntc, name)?;
            self.c.expect(&Tok::RParen, "after the offset operand")?;
            if matches!(op, Txd | Txgo) {
                return Err(semantic(
                    kw,
                    format!("{name} cannot take a register texel offset"),
                ));
            }
            if matches!(
                target,
                TexTarget::Cube
                    | TexTarget::ShadowCube
                    | TexTarget::ArrayCube
                    | TexTarget::ShadowArrayCube
            ) {
                return Err(semantic(
                    kw,
                    format!(
                        "register texel offsets are not allowed with cube map target '{tname}'"
                    ),
                ));
            }
            offset = Some(TexOffset::Register(s));
        }
        // One target per unit, counting every unit of a texture array.
        for u in units.clone() {
            match self.tex_units.get(&u) {
                Some((t, _)) if *t != target => {
                    return Err(semantic(
                        tspan,
                        format!(
                            "texture unit {u} is used with two targets ('{tname}' and '{}'); a unit may have only one",
                            target_name(*t)
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    self.tex_units.insert(u, (target, unit_span));
                }
            }
        }
        inst.extra = Extra::Tex(Box::new(TexInfo {
            unit,
            target,
            offset,
            gather_comp: comp.map_or(0, |c| c.0),
            lod_clamp: m.lod_clamp.is_some(),
            sparse: m.sparse,
        }));
        Ok(())
    }

    pub(super) fn at_texture(&self) -> bool {
        match self.c.peek_ident() {
            Some("texture") => !self.syms.contains_key("texture"),
            Some(n) => matches!(self.syms.get(n), Some((Sym::Texture { .. }, _))),
            None => false,
        }
    }

    /// `texture`, `texture[n]`, or an NV5 TEXTURE variable (optionally indexed), with an
    /// optional `.c` gather component.
    #[allow(clippy::type_complexity)]
    pub(super) fn texture_unit(
        &mut self,
    ) -> Result<(TexUnit, Span, std::ops::Range<u32>, Option<(Comp, Span)>), ProgramError> {
        let (n, s) = self.c.ident("a texture unit")?;
        let limit = self.lim.max_texture_image_units;
        let (unit, units) = if n == "texture" {
            let u = if self.c.peek() == &Tok::LBracket {
                let (u, us) = self.c.bracket_int("a texture unit")?;
                if u >= limit {
                    return Err(semantic(
                        us,
                        format!("texture unit {u} exceeds the limit of {limit}"),
                    ));
                }
                u
            } else {
                0
            };
            (TexUnit::Fixed(u), u..u + 1)
        } else {
            match self.syms.get(&n).map(|x| x.0.clone()) {
                Some(Sym::Texture { first, len }) => match len {
                    Some(l) => {
                        let idx = self.array_index_rel(&n, first, l)?;
                        match idx {
                            Index::Direct(u) => (TexUnit::Fixed(u), first..first + l),
                            Index::Relative {
                                reg,
                                offset,
                                base,
                                len,
                            } => (
                                TexUnit::Relative {
                                    reg,
                                    offset,
                                    base,
                                    len,
                                },
                                first..first + l,
                            ),
                        }
                    }
                    None => (TexUnit::Fixed(first), first..first + 1),
                },
                _ => {
                    return Err(semantic(
                        s,
                        format!("'{n}' is not a texture unit or TEXTURE variable"),
                    ))
                }
            }
        };
        let mut comp = None;
        if self.c.peek() == &Tok::Dot {
            let (sw, scalar) = self.swizzle_suffix()?;
            let span = self.c.prev_span();
            if !scalar {
                return Err(semantic(
                    span,
                    "texture component selection takes a single component",
                ));
            }
            comp = Some((sw[0], span));
        }
        Ok((unit, s, units, comp))
    }

    pub(super) fn tex_target(&self, t: &str, span: Span) -> Result<TexTarget, ProgramError> {
        use TexTarget::*;
        let nv = self.nv;
        let shadow_ok = nv > 0 || self.prog.options.fragment_program_shadow;
        let target = match t {
            "1D" => T1D,
            "2D" => T2D,
            "3D" => T3D,
            "CUBE" => Cube,
            "RECT" => Rect,
            "SHADOW1D" if shadow_ok => Shadow1D,
            "SHADOW2D" if shadow_ok => Shadow2D,
            "SHADOWRECT" if shadow_ok => ShadowRect,
            "ARRAY1D" if nv > 0 => Array1D,
            "ARRAY2D" if nv > 0 => Array2D,
            "SHADOWCUBE" if nv > 0 => ShadowCube,
            "SHADOWARRAY1D" if nv > 0 => ShadowArray1D,
            "SHADOWARRAY2D" if nv > 0 => ShadowArray2D,
            "BUFFER" if nv > 0 => Buffer,
            "RENDERBUFFER" if nv > 0 => Renderbuffer,
            "2DMS" if nv > 0 => T2DMs,
            "ARRAY2DMS" if nv > 0 => Array2DMs,
            "ARRAYCUBE" if nv >= 50 => ArrayCube,
            "SHADOWARRAYCUBE" if nv >= 50 => ShadowArrayCube,
            _ => {
                return Err(semantic(
                    span,
                    format!("'{t}' is not a texture target available in this program"),
                ))
            }
        };
        // NV_explicit_multisample adds RENDERBUFFER, NV_texture_multisample 2DMS and
        // ARRAY2DMS, each only "if a program specifies the ... program option".
        match target {
            Renderbuffer => {
                self.require_option(
                    &["NV_explicit_multisample"],
                    "texture target RENDERBUFFER",
                    span,
                )?;
                // The context has no texture renderbuffers (TEXTURE_RENDERBUFFER_NV) to
                // bind, so no draw could run the instruction.
                return Err(semantic(
                    span,
                    "not supported: the RENDERBUFFER texture target (NV_explicit_multisample texture renderbuffers)",
                ));
            }
            T2DMs | Array2DMs => self.require_option(
                &["NV_texture_multisample"],
                &format!("texture target {t}"),
                span,
            )?,
            _ => {}
        }
        Ok(target)
    }
}
