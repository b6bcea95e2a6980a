//! Input (`vertex.*`, `fragment.*`, `primitive.*`) and output (`result.*`) bindings, per
//! stage, and the slots they resolve to.

use super::Parser;
use crate::error::ProgramError;
use crate::ir::*;
use crate::lexer::Tok;
use crate::parse::{semantic, syntax};
use crate::slots::Slots;
use crate::span::Span;

/// A parsed input binding (possibly a range in declarations).
pub(crate) struct InputRef {
    pub items: Vec<InputBinding>,
    /// The binding needs a vertex index (`vertex.position` in a geometry program).
    pub per_vertex: bool,
    /// Explicit `vertex[n]`.
    pub vertex: Option<u32>,
    /// NV_fragment_program2 `fragment.texcoord[A0.x + n]`: a loop-counter index into the
    /// texture coordinate inputs.
    pub relative: Option<Index>,
    pub span: Span,
}

impl Parser {
    fn vertex_arrays(&self) -> bool {
        matches!(
            self.stage,
            Stage::Geometry | Stage::TessControl | Stage::TessEval
        )
    }

    /// `[n]` or `[a..b]` (range only when `range_ok`), checked against `limit`.
    fn binding_index(
        &mut self,
        limit: u32,
        what: &str,
        range_ok: bool,
    ) -> Result<(u32, u32), ProgramError> {
        let (a, b, span) = self.index_or_range()?;
        if a != b && !range_ok {
            return Err(syntax(
                span,
                format!("a {what} range is only allowed in a declaration"),
            ));
        }
        if b >= limit {
            return Err(semantic(
                span,
                format!("{what}[{b}] is out of range (limit {limit})"),
            ));
        }
        Ok((a, b))
    }

    fn opt_binding_index(
        &mut self,
        limit: u32,
        what: &str,
        range_ok: bool,
    ) -> Result<(u32, u32), ProgramError> {
        if self.c.peek() == &Tok::LBracket {
            self.binding_index(limit, what, range_ok)
        } else {
            Ok((0, 0))
        }
    }

    /// `.primary` / `.secondary` (and `.front`/`.back` before them when `faces`).
    fn color_suffix(&mut self, faces: bool) -> Result<(bool, bool), ProgramError> {
        let mut back = false;
        let mut secondary = false;
        if faces && self.c.peek() == &Tok::Dot {
            match self.c.peek_ident_at(1) {
                Some("front") => {
                    self.c.bump();
                    self.c.bump();
                }
                Some("back") => {
                    self.c.bump();
                    self.c.bump();
                    back = true;
                }
                _ => {}
            }
        }
        if self.c.peek() == &Tok::Dot {
            match self.c.peek_ident_at(1) {
                Some("primary") => {
                    self.c.bump();
                    self.c.bump();
                }
                Some("secondary") => {
                    self.c.bump();
                    self.c.bump();
                    secondary = true;
                }
                _ => {}
            }
        }
        Ok((back, secondary))
    }

    /// An input binding in a declaration: ranges allowed.
    pub(crate) fn input_binding_decl(&mut self) -> Result<InputRef, ProgramError> {
        self.input_binding(true)
    }

    pub(crate) fn input_binding(&mut self, range_ok: bool) -> Result<InputRef, ProgramError> {
        let (prefix, start) = self.c.ident("an attribute binding")?;
        let r = match prefix.as_str() {
            "vertex" if self.stage != Stage::Compute => self.vertex_binding(range_ok)?,
            "fragment" if self.stage == Stage::Fragment => self.fragment_binding(range_ok)?,
            "primitive" if self.is_nv() => self.primitive_binding(range_ok)?,
            "invocation" if self.stage == Stage::Compute => self.invocation_binding()?,
            _ => {
                return Err(semantic(
                    start,
                    format!(
                        "'{prefix}' does not start an attribute binding in a {} program",
                        self.stage.name()
                    ),
                ))
            }
        };
        let span = start.to(self.c.prev_span());
        // NV_shader_thread_group: "If this option is not specified, a program will fail to
        // compile if it uses those instructions or bindings."
        let thread_group = r.items.iter().any(|b| {
            matches!(
                b,
                InputBinding::ThreadId
                    | InputBinding::WarpId
                    | InputBinding::SmId
                    | InputBinding::ThreadMask(_)
                    | InputBinding::FragHelperThread
            )
        });
        if thread_group {
            self.require_option(&["NV_shader_thread_group"], "this binding", span)?;
        }
        Ok(InputRef { span, ..r })
    }

    fn vertex_binding(&mut self, range_ok: bool) -> Result<InputRef, ProgramError> {
        let mut vertex = None;
        // TCP `vertex.out[m].*`: results of the output patch instead of the input's.
        let mut out = false;
        if self.vertex_arrays() && self.c.peek() == &Tok::LBracket {
            let (n, span) = self.c.bracket_int("a vertex index")?;
            if n >= self.lim.max_patch_vertices.max(6) {
                return Err(semantic(span, format!("vertex index {n} is out of range")));
            }
            vertex = Some(n);
        }
        self.c.expect(&Tok::Dot, "after 'vertex'")?;
        let (mut name, mut ns) = self.c.ident("a vertex attribute name")?;
        if self.vertex_arrays() && (name == "in" || name == "out") {
            if self.stage == Stage::Geometry {
                return Err(semantic(
                    ns,
                    format!("'vertex.{name}' is not available in geometry programs"),
                ));
            }
            if name == "out" && self.stage != Stage::TessControl {
                return Err(semantic(
                    ns,
                    "'vertex.out' is only available in tessellation control programs",
                ));
            }
            out = name == "out";
            if self.c.peek() == &Tok::LBracket {
                let (n, span) = self.c.bracket_int("a vertex index")?;
                // NV_tessellation_program5: vertex.out[m] with m >= VERTICES_OUT fails
                // to load (VERTICES_OUT precedes every statement).
                let limit = match (out, self.prog.decls.vertices_out) {
                    (true, Some(v)) => v,
                    _ => self.lim.max_patch_vertices,
                };
                if n >= limit {
                    return Err(semantic(span, format!("vertex index {n} is out of range")));
                }
                vertex = Some(n);
            }
            self.c.expect(&Tok::Dot, "after 'vertex.in'")?;
            (name, ns) = self.c.ident("a vertex attribute name")?;
        }
        let per_vertex = self.vertex_arrays() && vertex.is_none();
        let mk = |items: Vec<InputBinding>| InputRef {
            items,
            per_vertex,
            vertex,
            relative: None,
            span: ns,
        };
        if self.vp3_relative_at() && matches!(name.as_str(), "texcoord" | "attrib") {
            if range_ok {
                return Err(semantic(
                    ns,
                    format!("'vertex.{name}[A0.x + n]' can only be an instruction operand"),
                ));
            }
            let index = self.vp3_input_array(&name)?;
            return Ok(InputRef {
                relative: Some(index),
                ..mk(vec![if name == "texcoord" {
                    InputBinding::VertexTexCoord(0)
                } else {
                    InputBinding::VertexAttrib(0)
                }])
            });
        }
        if self.stage == Stage::Vertex {
            let one = |b: InputBinding| Ok(mk(vec![b]));
            return match name.as_str() {
                "position" => one(InputBinding::VertexPosition),
                "weight" => {
                    let (a, b) = self.opt_binding_index(
                        self.lim.max_vertex_units,
                        "vertex.weight",
                        range_ok,
                    )?;
                    Ok(mk((a..=b).map(InputBinding::VertexWeight).collect()))
                }
                "normal" => one(InputBinding::VertexNormal),
                "color" => {
                    let (_, secondary) = self.color_suffix(false)?;
                    one(InputBinding::VertexColor { secondary })
                }
                "fogcoord" => one(InputBinding::VertexFogCoord),
                "texcoord" => {
                    let (a, b) = self.opt_binding_index(
                        self.lim.max_texture_coords,
                        "vertex.texcoord",
                        range_ok,
                    )?;
                    Ok(mk((a..=b).map(InputBinding::VertexTexCoord).collect()))
                }
                "matrixindex" => Err(semantic(
                    ns,
                    "'vertex.matrixindex' needs ARB_matrix_palette, which glemu does not expose",
                )),
                "attrib" => {
                    let (a, b) =
                        self.binding_index(self.lim.max_vertex_attribs, "vertex.attrib", range_ok)?;
                    Ok(mk((a..=b).map(InputBinding::VertexAttrib).collect()))
                }
                "id" if self.is_nv() => one(InputBinding::VertexId),
                "instance" if self.is_nv() => one(InputBinding::VertexInstance),
                "baseVertex" | "baseInstance" | "draw" if self.is_nv() => {
                    if !self.opts.draw_parameters {
                        let full = if name == "draw" {
                            "draw.id"
                        } else {
                            name.as_str()
                        };
                        return Err(semantic(
                            ns,
                            format!("'vertex.{full}' needs OPTION ARB_shader_draw_parameters"),
                        ));
                    }
                    match name.as_str() {
                        "baseVertex" => one(InputBinding::VertexBaseVertex),
                        "baseInstance" => one(InputBinding::VertexBaseInstance),
                        _ => {
                            self.c.expect(&Tok::Dot, "after 'vertex.draw'")?;
                            self.c.expect_ident("id", "after 'vertex.draw.'")?;
                            one(InputBinding::VertexDrawId)
                        }
                    }
                }
                "threadid" if self.nv >= 50 => one(InputBinding::ThreadId),
                "warpid" if self.nv >= 50 => one(InputBinding::WarpId),
                "smid" if self.nv >= 50 => one(InputBinding::SmId),
                n if self.nv >= 50 && thread_mask(n).is_some() => one(InputBinding::ThreadMask(
                    thread_mask(n).unwrap_or(ThreadMaskKind::Eq),
                )),
                _ => Err(semantic(
                    ns,
                    format!("'vertex.{name}' is not a vertex attribute"),
                )),
            };
        }
        // Geometry / tessellation: per-vertex varyings of the previous stage (or, for
        // `vertex.out`, of this one).
        let v = |s: VaryingSlot| {
            if out {
                InputBinding::VertexOut(s)
            } else {
                InputBinding::Varying(s)
            }
        };
        let items = match name.as_str() {
            "position" => vec![v(VaryingSlot::Position)],
            "color" => {
                let (back, secondary) = self.color_suffix(true)?;
                vec![v(VaryingSlot::Color { back, secondary })]
            }
            "texcoord" => {
                let (a, b) = self.opt_binding_index(
                    self.lim.max_texture_coords,
                    "vertex.texcoord",
                    range_ok,
                )?;
                (a..=b).map(|i| v(VaryingSlot::TexCoord(i))).collect()
            }
            "attrib" => {
                let (a, b) =
                    self.binding_index(self.lim.max_generic_varyings, "vertex.attrib", range_ok)?;
                (a..=b).map(|i| v(VaryingSlot::Attrib(i))).collect()
            }
            "clip" => {
                let (a, b) =
                    self.binding_index(self.lim.max_clip_planes, "vertex.clip", range_ok)?;
                (a..=b).map(|i| v(VaryingSlot::ClipDistance(i))).collect()
            }
            "fogcoord" => vec![v(VaryingSlot::FogCoord)],
            "pointsize" => vec![v(VaryingSlot::PointSize)],
            // The previous stage's `result.id` (NV_geometry_program4, NV_tessellation_program5).
            "id" => vec![v(VaryingSlot::VertexId)],
            "tesscoord" if self.stage == Stage::TessEval && vertex.is_none() => {
                return Ok(InputRef {
                    items: vec![InputBinding::TessCoord],
                    per_vertex: false,
                    vertex: None,
                    relative: None,
                    span: ns,
                })
            }
            _ => {
                return Err(semantic(
                    ns,
                    format!(
                        "'vertex.{name}' is not a per-vertex attribute of {} programs",
                        self.stage.name()
                    ),
                ))
            }
        };
        Ok(mk(items))
    }

    fn fragment_binding(&mut self, range_ok: bool) -> Result<InputRef, ProgramError> {
        self.c.expect(&Tok::Dot, "after 'fragment'")?;
        let (name, ns) = self.c.ident("a fragment attribute name")?;
        let nv = self.is_nv();
        let b = match name.as_str() {
            "color" => {
                let (_, secondary) = self.color_suffix(false)?;
                InputBinding::FragColor { secondary }
            }
            "texcoord"
                if self.c.peek() == &Tok::LBracket && self.c.peek_ident_at(1) == Some("A0") =>
            {
                return self.texcoord_loop_index(ns);
            }
            "texcoord" => {
                let (a, b) = self.opt_binding_index(
                    self.lim.max_texture_coords,
                    "fragment.texcoord",
                    range_ok,
                )?;
                return Ok(self.many((a..=b).map(InputBinding::FragTexCoord).collect(), ns));
            }
            "fogcoord" => InputBinding::FragFogCoord,
            "position" => InputBinding::FragPosition,
            "facing" if nv || self.opts.fp2 => InputBinding::FragFacing,
            "attrib" if nv => {
                let (a, b) =
                    self.binding_index(self.lim.max_generic_varyings, "fragment.attrib", range_ok)?;
                return Ok(self.many((a..=b).map(InputBinding::FragAttrib).collect(), ns));
            }
            "clip" if nv => {
                let (a, b) =
                    self.binding_index(self.lim.max_clip_planes, "fragment.clip", range_ok)?;
                return Ok(self.many((a..=b).map(InputBinding::FragClipDistance).collect(), ns));
            }
            "layer" | "viewport" if nv => {
                if !self.opts.layer_viewport {
                    return Err(semantic(
                        ns,
                        format!("'fragment.{name}' needs OPTION ARB_fragment_layer_viewport"),
                    ));
                }
                if name == "layer" {
                    InputBinding::FragLayer
                } else {
                    InputBinding::FragViewportIndex
                }
            }
            "sampleid" if self.nv >= 41 => InputBinding::FragSampleId,
            "samplemask" if self.nv >= 50 => InputBinding::FragSampleMask,
            "samplepos" if self.nv >= 50 => InputBinding::FragSamplePosition,
            "pointcoord" if self.nv >= 50 => InputBinding::FragPointCoord,
            "helperthread" if self.nv >= 50 => InputBinding::FragHelperThread,
            // NV_fragment_shader_barycentric: no spec in this project's set and no
            // interpolation of it in the pipeline.
            "barycentric" if self.nv >= 50 => {
                return Err(semantic(ns, "not supported: 'fragment.barycentric'"))
            }
            "threadid" if self.nv >= 50 => InputBinding::ThreadId,
            "warpid" if self.nv >= 50 => InputBinding::WarpId,
            "smid" if self.nv >= 50 => InputBinding::SmId,
            n if self.nv >= 50 && thread_mask(n).is_some() => {
                InputBinding::ThreadMask(thread_mask(n).unwrap_or(ThreadMaskKind::Eq))
            }
            _ => {
                return Err(semantic(
                    ns,
                    format!("'fragment.{name}' is not a fragment attribute"),
                ))
            }
        };
        Ok(self.many(vec![b], ns))
    }

    /// NV_compute_program5 `invocation.*`, and the thread-group bindings of
    /// NV_shader_thread_group under the same prefix.
    fn invocation_binding(&mut self) -> Result<InputRef, ProgramError> {
        self.c.expect(&Tok::Dot, "after 'invocation'")?;
        let (name, ns) = self.c.ident("an invocation attribute name")?;
        let b = match name.as_str() {
            "localid" => InputBinding::LocalId,
            "globalid" => InputBinding::GlobalId,
            "groupid" => InputBinding::GroupId,
            "groupcount" => InputBinding::GroupCount,
            "groupsize" => InputBinding::GroupSize,
            "localindex" => InputBinding::LocalIndex,
            "threadid" => InputBinding::ThreadId,
            "warpid" => InputBinding::WarpId,
            "smid" => InputBinding::SmId,
            n if thread_mask(n).is_some() => {
                InputBinding::ThreadMask(thread_mask(n).unwrap_or(ThreadMaskKind::Eq))
            }
            _ => {
                return Err(semantic(
                    ns,
                    format!("'invocation.{name}' is not a compute program attribute"),
                ))
            }
        };
        Ok(self.many(vec![b], ns))
    }

    fn many(&self, items: Vec<InputBinding>, span: Span) -> InputRef {
        InputRef {
            items,
            per_vertex: false,
            vertex: None,
            relative: None,
            span,
        }
    }

    /// `fragment.texcoord[A0.x + n]` inside a LOOP block (NV_fragment_program2): every
    /// texture coordinate set gets a consecutive input slot the loop counter indexes.
    fn texcoord_loop_index(&mut self, ns: Span) -> Result<InputRef, ProgramError> {
        self.c.expect(&Tok::LBracket, "before the loop index")?;
        let a0 = self.c.bump();
        if !self.opts.fp2 {
            return Err(semantic(
                a0,
                "'A0.x' indexing needs OPTION NV_fragment_program2",
            ));
        }
        if !self.blocks.iter().any(|b| b.0 == super::Block::Loop) {
            return Err(semantic(
                a0,
                "'A0.x' (the loop counter) can only be used inside a LOOP/ENDLOOP block",
            ));
        }
        self.c.expect(&Tok::Dot, "after 'A0'")?;
        self.c.expect_ident("x", "after 'A0.' (only A0.x exists)")?;
        let mut offset = 0i64;
        if matches!(self.c.peek(), Tok::Plus | Tok::Minus) {
            let neg = self.c.peek() == &Tok::Minus;
            self.c.bump();
            let (n, nspan) = self.c.int("an index offset")?;
            offset = if neg {
                -(n.min(1 << 20) as i64)
            } else {
                n.min(1 << 20) as i64
            };
            if !(0..i64::from(self.lim.max_texture_coords)).contains(&offset) {
                return Err(semantic(
                    nspan,
                    format!("texture coordinate offset {offset} is out of range"),
                ));
            }
        }
        self.c.expect(&Tok::RBracket, "after the loop index")?;
        let base = match self.texcoord_array {
            Some(b) => b,
            None => {
                let b = Slots::input_array(
                    &mut self.prog.inputs,
                    (0..self.lim.max_texture_coords).map(InputBinding::FragTexCoord),
                    Interp::default(),
                    RegInfo::default(),
                );
                self.texcoord_array = Some(b);
                b
            }
        };
        Ok(InputRef {
            items: vec![InputBinding::FragTexCoord(0)],
            per_vertex: false,
            vertex: None,
            relative: Some(Index::Relative {
                reg: IndexReg::LoopCounter,
                offset: offset as i32,
                base,
                len: self.lim.max_texture_coords,
            }),
            span: ns,
        })
    }

    /// Whether the next tokens are `[<identifier>` in an ARB vertex program with
    /// NV_vertex_program3, whose `vertex.texcoord[A+n]`, `vertex.attrib[A+n]` and
    /// `result.texcoord[A+n]` index by an address register.
    fn vp3_relative_at(&self) -> bool {
        self.nv == 0
            && self.opts.vp3
            && self.stage == Stage::Vertex
            && self.c.peek() == &Tok::LBracket
            && matches!(self.c.peek_at(1), Tok::Ident(_))
    }

    /// `[A0.x + n]` into consecutive input slots for every texture coordinate set or
    /// generic attribute (out-of-range indices read as undefined, as the spec allows).
    fn vp3_input_array(&mut self, name: &str) -> Result<Index, ProgramError> {
        let texcoord = name == "texcoord";
        let len = if texcoord {
            self.lim.max_texture_coords
        } else {
            self.lim.max_vertex_attribs
        };
        let cached = if texcoord {
            self.texcoord_array
        } else {
            self.attrib_array
        };
        let base = match cached {
            Some(b) => b,
            None => {
                let binding = if texcoord {
                    InputBinding::VertexTexCoord
                } else {
                    InputBinding::VertexAttrib
                };
                let b = Slots::input_array(
                    &mut self.prog.inputs,
                    (0..len).map(binding),
                    Interp::default(),
                    RegInfo::default(),
                );
                if texcoord {
                    self.texcoord_array = Some(b);
                } else {
                    self.attrib_array = Some(b);
                }
                b
            }
        };
        self.array_index(&format!("vertex.{name}"), base, len, true)
    }

    /// The eight consecutive `result.texcoord` slots of an NV_vertex_program3 program:
    /// every texture coordinate result lives there, so `result.texcoord[A0.x + n]` and
    /// `result.texcoord[n]` write the same slot.
    fn texcoord_out_array(&mut self) -> u32 {
        if let Some(b) = self.texcoord_out_array {
            return b;
        }
        let b = self.slots.output_array(
            &mut self.prog.outputs,
            (0..self.lim.max_texture_coords)
                .map(|i| OutputBinding::Varying(VaryingSlot::TexCoord(i))),
            RegInfo::default(),
        );
        self.texcoord_out_array = Some(b);
        b
    }

    /// `result.texcoord[A0.x + n]` as a destination (NV_vertex_program3); None (nothing
    /// consumed) when the next tokens are not that.
    pub(crate) fn vp3_relative_result(&mut self) -> Result<Option<Index>, ProgramError> {
        let at = self.c.peek_ident() == Some("result")
            && self.c.peek_at(1) == &Tok::Dot
            && self.c.peek_ident_at(2) == Some("texcoord");
        if !at || self.nv != 0 || !self.opts.vp3 || self.stage != Stage::Vertex {
            return Ok(None);
        }
        if !matches!(self.c.peek_at(4), Tok::Ident(_)) || self.c.peek_at(3) != &Tok::LBracket {
            return Ok(None);
        }
        self.c.bump();
        self.c.bump();
        self.c.bump();
        let base = self.texcoord_out_array();
        self.array_index("result.texcoord", base, self.lim.max_texture_coords, true)
            .map(Some)
    }

    fn primitive_binding(&mut self, range_ok: bool) -> Result<InputRef, ProgramError> {
        self.c.expect(&Tok::Dot, "after 'primitive'")?;
        let (mut name, mut ns) = self.c.ident("a primitive attribute name")?;
        let mut out = false;
        if matches!(self.stage, Stage::TessControl | Stage::TessEval)
            && (name == "in" || name == "out")
        {
            out = name == "out";
            if out && self.stage != Stage::TessControl {
                return Err(semantic(
                    ns,
                    "'primitive.out' is only available in tessellation control programs",
                ));
            }
            self.c
                .expect(&Tok::Dot, "after 'primitive.in'/'primitive.out'")?;
            (name, ns) = self.c.ident("a primitive attribute name")?;
        }
        let st = self.stage;
        let patchy = matches!(st, Stage::TessControl | Stage::TessEval)
            || (st == Stage::Geometry && self.nv >= 50);
        let wrap = |s: VaryingSlot| {
            if out {
                InputBinding::PatchOut(s)
            } else {
                InputBinding::PatchIn(s)
            }
        };
        let items: Vec<InputBinding> = match name.as_str() {
            // "produces the same value" with primitive, primitive.in and primitive.out.
            "id" => vec![InputBinding::PrimitiveId],
            "tessouter" | "tessinner" | "patch" if st == Stage::TessControl && !out => {
                return Err(semantic(
                    ns,
                    format!(
                        "tessellation control programs read 'primitive.{name}' only as \
                         'primitive.out.{name}'"
                    ),
                ))
            }
            "invocation" if matches!(st, Stage::Geometry | Stage::TessControl) && self.nv >= 50 => {
                vec![InputBinding::PrimitiveInvocation]
            }
            "vertexcount" if patchy && !out => vec![InputBinding::PrimitiveVertexCount],
            "tessouter" if patchy => {
                let (a, b) = self.opt_binding_index(4, "primitive.tessouter", range_ok)?;
                (a..=b).map(|i| wrap(VaryingSlot::TessOuter(i))).collect()
            }
            "tessinner" if patchy => {
                let (a, b) = self.opt_binding_index(2, "primitive.tessinner", range_ok)?;
                (a..=b).map(|i| wrap(VaryingSlot::TessInner(i))).collect()
            }
            "patch" if patchy => {
                self.c.expect(&Tok::Dot, "after 'primitive.patch'")?;
                self.c.expect_ident("attrib", "after 'primitive.patch.'")?;
                let (a, b) = self.opt_binding_index(
                    self.lim.max_patch_attribs,
                    "primitive.patch.attrib",
                    range_ok,
                )?;
                (a..=b).map(|i| wrap(VaryingSlot::PatchAttrib(i))).collect()
            }
            "threadid" if self.nv >= 50 => vec![InputBinding::ThreadId],
            "warpid" if self.nv >= 50 => vec![InputBinding::WarpId],
            "smid" if self.nv >= 50 => vec![InputBinding::SmId],
            n if self.nv >= 50 && thread_mask(n).is_some() => {
                vec![InputBinding::ThreadMask(
                    thread_mask(n).unwrap_or(ThreadMaskKind::Eq),
                )]
            }
            _ => {
                return Err(semantic(
                    ns,
                    format!(
                        "'primitive.{name}' is not an attribute of {} programs",
                        st.name()
                    ),
                ))
            }
        };
        // Geometry programs see patch data only when they take patches as input.
        if st == Stage::Geometry
            && matches!(
                name.as_str(),
                "tessouter" | "tessinner" | "patch" | "vertexcount"
            )
            && !matches!(self.prog.decls.primitive_in, Some(PrimKind::Patches(_)))
        {
            return Err(semantic(
                ns,
                format!("'primitive.{name}' needs 'PRIMITIVE_IN PATCHES' declared first"),
            ));
        }
        Ok(self.many(items, ns))
    }

    /// Slot for an input, shared with earlier identical uses.
    pub(crate) fn input_slot_typed(
        &mut self,
        binding: InputBinding,
        interp: Interp,
        info: RegInfo,
        span: Span,
    ) -> Result<u32, ProgramError> {
        self.check_arb_alias(&binding, span)?;
        if interp != Interp::default() {
            let fixed = matches!(
                binding,
                InputBinding::FragPosition
                    | InputBinding::FragFacing
                    | InputBinding::FragFogCoord
                    | InputBinding::FragClipDistance(_)
            );
            if fixed {
                return Err(semantic(
                    span,
                    format!("interpolation modifiers are not allowed on {binding:?} (position, facing, fog coordinate and clip distances)"),
                ));
            }
        }
        if self.stage == Stage::Fragment {
            let other = self.slots.input_interps(&binding).any(|i| i != interp);
            if other {
                return Err(semantic(
                    span,
                    "attribute variables bound to the same fragment attribute must use the same interpolation modifiers",
                ));
            }
            if let InputBinding::FragColor { secondary } = binding {
                let twin = InputBinding::FragColor {
                    secondary: !secondary,
                };
                if self.slots.input_interps(&twin).any(|i| i != interp) {
                    return Err(semantic(
                        span,
                        "variables bound to the primary and secondary colors must use the same interpolation modifiers",
                    ));
                }
            }
        }
        let slot = self
            .slots
            .input(&mut self.prog.inputs, binding, interp, info);
        // A typed use of an untyped slot types it; two different types clash.
        if let Some(s) = self.prog.inputs.get_mut(slot as usize) {
            if s.info != info && info != RegInfo::default() {
                if s.info == RegInfo::default() {
                    s.info = info;
                } else {
                    return Err(semantic(
                        span,
                        "attribute bound twice with different data types",
                    ));
                }
            }
        }
        Ok(slot)
    }

    /// ARB_vertex_program: a conventional attribute and the generic one it aliases may not
    /// both be bound.
    fn check_arb_alias(&mut self, b: &InputBinding, span: Span) -> Result<(), ProgramError> {
        if self.stage != Stage::Vertex {
            return Ok(());
        }
        let (index, generic) = match b {
            InputBinding::VertexAttrib(n) => (*n, true),
            InputBinding::VertexPosition => (0, false),
            InputBinding::VertexWeight(0) => (1, false),
            InputBinding::VertexNormal => (2, false),
            InputBinding::VertexColor { secondary: false } => (3, false),
            InputBinding::VertexColor { secondary: true } => (4, false),
            InputBinding::VertexFogCoord => (5, false),
            InputBinding::VertexTexCoord(n) => (8 + n, false),
            _ => return Ok(()),
        };
        match self.arb_alias.get(&index) {
            Some(&(g, _)) if g != generic => Err(semantic(
                span,
                format!(
                    "vertex.attrib[{index}] and the conventional attribute it aliases cannot both be bound"
                ),
            )),
            _ => {
                self.arb_alias.insert(index, (generic, span));
                Ok(())
            }
        }
    }

    /// `result.*` → output bindings (a range only in declarations when `range_ok`).
    pub(crate) fn output_binding(
        &mut self,
        range_ok: bool,
    ) -> Result<(Vec<OutputBinding>, Span), ProgramError> {
        let start = self.c.expect_ident("result", "")?;
        if self.stage == Stage::Compute {
            return Err(semantic(
                start,
                "compute programs have no results: write to memory instead",
            ));
        }
        self.c.expect(&Tok::Dot, "after 'result'")?;
        let (name, ns) = self.c.ident("a result name")?;
        let nv = self.is_nv();
        let st = self.stage;
        let v = |s: VaryingSlot| OutputBinding::Varying(s);
        let items: Vec<OutputBinding> = if st == Stage::Fragment {
            match name.as_str() {
                "color" => {
                    let (a, b) = if self.c.peek() == &Tok::LBracket {
                        // ARB_draw_buffers, and NV_fragment_program4 2.X.6.Y (which
                        // NV_gpu_program5 keeps): without the option "a fragment program
                        // that attempts to bind result.color[n] will fail to load".
                        self.require_option(
                            &["ARB_draw_buffers", "ATI_draw_buffers"],
                            "result.color[n]",
                            ns,
                        )?;
                        self.binding_index(self.lim.max_draw_buffers, "result.color", range_ok)?
                    } else {
                        (0, 0)
                    };
                    // ARB_blend_func_extended: `.primary` / `.secondary` (dual source).
                    let mut index = 0;
                    if self.c.peek() == &Tok::Dot
                        && matches!(self.c.peek_ident_at(1), Some("primary" | "secondary"))
                    {
                        self.c.bump();
                        let (which, ws) = self.c.ident("primary or secondary")?;
                        if !self.prog.options.blend_func_extended {
                            return Err(semantic(
                                ws,
                                format!(
                                    "'result.color.{which}' needs OPTION ARB_blend_func_extended"
                                ),
                            ));
                        }
                        index = u32::from(which == "secondary");
                    }
                    (a..=b)
                        .map(|target| OutputBinding::FragColor { target, index })
                        .collect()
                }
                "depth" => vec![OutputBinding::FragDepth],
                "samplemask" if self.nv >= 50 => vec![OutputBinding::FragSampleMask],
                _ => {
                    return Err(semantic(
                        ns,
                        format!("'result.{name}' is not a fragment program result"),
                    ))
                }
            }
        } else {
            match name.as_str() {
                "position" => vec![v(VaryingSlot::Position)],
                "color" => {
                    let (back, secondary) = self.color_suffix(true)?;
                    vec![v(VaryingSlot::Color { back, secondary })]
                }
                "texcoord" => {
                    let (a, b) = self.opt_binding_index(
                        self.lim.max_texture_coords,
                        "result.texcoord",
                        range_ok,
                    )?;
                    (a..=b).map(|i| v(VaryingSlot::TexCoord(i))).collect()
                }
                "fogcoord" => vec![v(VaryingSlot::FogCoord)],
                "pointsize" => vec![v(VaryingSlot::PointSize)],
                "clip" if nv || self.opts.vp2 => {
                    let (a, b) =
                        self.binding_index(self.lim.max_clip_planes, "result.clip", range_ok)?;
                    (a..=b)
                        .map(|i| {
                            v(if nv {
                                VaryingSlot::ClipDistance(i)
                            } else {
                                VaryingSlot::ClipLegacy(i)
                            })
                        })
                        .collect()
                }
                "attrib" if nv => {
                    let (a, b) = self.binding_index(
                        self.lim.max_generic_varyings,
                        "result.attrib",
                        range_ok,
                    )?;
                    (a..=b).map(|i| v(VaryingSlot::Attrib(i))).collect()
                }
                "primid" if st == Stage::Geometry => vec![v(VaryingSlot::PrimitiveId)],
                // Geometry programs have result.layer and result.viewport; NV_viewport_array2
                // adds them to the other stages "if a ... program specifies the
                // NV_viewport_array2 option".
                "layer" | "viewport" if nv && st != Stage::TessControl => {
                    if st != Stage::Geometry {
                        self.require_option(
                            &["NV_viewport_array2"],
                            &format!("'result.{name}' in a {} program", st.name()),
                            ns,
                        )?;
                    }
                    vec![v(if name == "layer" {
                        VaryingSlot::Layer
                    } else {
                        VaryingSlot::ViewportIndex
                    })]
                }
                "viewportmask" if nv => {
                    if !self.opts.viewport_array2 {
                        return Err(semantic(
                            ns,
                            "'result.viewportmask' needs OPTION NV_viewport_array2",
                        ));
                    }
                    // One 32-bit word holds a bit for each of the MAX_VIEWPORTS (16).
                    if self.c.peek() == &Tok::LBracket {
                        self.binding_index(1, "result.viewportmask", false)?;
                    }
                    vec![v(VaryingSlot::ViewportMask)]
                }
                "id" if nv && st == Stage::Geometry => vec![v(VaryingSlot::PrimitiveId)],
                // The vertex ID handed to the next stage's `vertex[m].id`.
                "id" if nv => vec![v(VaryingSlot::VertexId)],
                "patch" if st == Stage::TessControl => {
                    self.c.expect(&Tok::Dot, "after 'result.patch'")?;
                    let (k, ks) = self.c.ident("attrib, tessouter or tessinner")?;
                    match k.as_str() {
                        "attrib" => {
                            let (a, b) = self.binding_index(
                                self.lim.max_patch_attribs,
                                "result.patch.attrib",
                                range_ok,
                            )?;
                            (a..=b).map(|i| v(VaryingSlot::PatchAttrib(i))).collect()
                        }
                        "tessouter" => {
                            let (a, b) =
                                self.binding_index(4, "result.patch.tessouter", range_ok)?;
                            (a..=b).map(|i| v(VaryingSlot::TessOuter(i))).collect()
                        }
                        "tessinner" => {
                            let (a, b) =
                                self.binding_index(2, "result.patch.tessinner", range_ok)?;
                            (a..=b).map(|i| v(VaryingSlot::TessInner(i))).collect()
                        }
                        _ => {
                            return Err(semantic(
                                ks,
                                format!("'result.patch.{k}' is not a patch result"),
                            ))
                        }
                    }
                }
                _ => {
                    return Err(semantic(
                        ns,
                        format!("'result.{name}' is not a result of {} programs", st.name()),
                    ))
                }
            }
        };
        Ok((items, start.to(self.c.prev_span())))
    }

    pub(crate) fn output_slot(
        &mut self,
        b: OutputBinding,
        _span: Span,
    ) -> Result<u32, ProgramError> {
        if let OutputBinding::Varying(VaryingSlot::TexCoord(i)) = b {
            if self.nv == 0 && self.opts.vp3 && self.stage == Stage::Vertex {
                return Ok(self.texcoord_out_array() + i);
            }
        }
        Ok(self
            .slots
            .output(&mut self.prog.outputs, b, RegInfo::default()))
    }
}

fn thread_mask(name: &str) -> Option<ThreadMaskKind> {
    Some(match name {
        "threadeqmask" => ThreadMaskKind::Eq,
        "threadgemask" => ThreadMaskKind::Ge,
        "threadgtmask" => ThreadMaskKind::Gt,
        "threadlemask" => ThreadMaskKind::Le,
        "threadltmask" => ThreadMaskKind::Lt,
        _ => return None,
    })
}
