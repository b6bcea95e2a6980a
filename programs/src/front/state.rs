//! `state.*` and `program.env/local` bindings to parameter rows.

use super::Parser;
use crate::error::ProgramError;
use crate::ir::*;
use crate::lexer::Tok;
use crate::parse::{semantic, syntax};
use crate::span::Span;

impl Parser {
    fn dot_ident(&mut self, what: &str) -> Result<(String, Span), ProgramError> {
        self.c.expect(&Tok::Dot, &format!("before {what}"))?;
        self.c.ident(what)
    }

    /// Optional `[n]` with a limit; `default` when absent.
    fn opt_index(&mut self, default: u32, limit: u32, what: &str) -> Result<u32, ProgramError> {
        if self.c.peek() != &Tok::LBracket {
            return Ok(default);
        }
        self.index_limited(limit, what)
    }

    pub(crate) fn index_limited(&mut self, limit: u32, what: &str) -> Result<u32, ProgramError> {
        let (n, span) = self.c.bracket_int(what)?;
        if n >= limit {
            return Err(semantic(
                span,
                format!("{what} index {n} is out of range (limit {limit})"),
            ));
        }
        Ok(n)
    }

    /// `.front` / `.back` if present.
    fn opt_face(&mut self) -> bool {
        if self.c.peek() == &Tok::Dot {
            if self.c.peek_ident_at(1) == Some("back") {
                self.c.bump();
                self.c.bump();
                return true;
            }
            if self.c.peek_ident_at(1) == Some("front") {
                self.c.bump();
                self.c.bump();
            }
        }
        false
    }

    /// `state. ...` → one or more parameter rows (matrices give up to four).
    pub(crate) fn state_binding(&mut self) -> Result<Vec<StateBinding>, ProgramError> {
        let start = self.c.expect_ident("state", "")?;
        let (item, ispan) = self.dot_ident("a state item")?;
        let frag = self.stage == Stage::Fragment;
        let arb_vp_only = |p: &Parser| p.nv == 0 && frag;
        let one = |s: StateBinding| Ok(vec![s]);
        match item.as_str() {
            "material" => {
                let back = self.opt_face();
                let (prop, ps) = self.dot_ident("a material property")?;
                let prop = match prop.as_str() {
                    "ambient" => MaterialProp::Ambient,
                    "diffuse" => MaterialProp::Diffuse,
                    "specular" => MaterialProp::Specular,
                    "emission" => MaterialProp::Emission,
                    "shininess" => MaterialProp::Shininess,
                    _ => return Err(semantic(ps, format!("'{prop}' is not a material property"))),
                };
                one(StateBinding::Material { back, prop })
            }
            "light" => {
                if self.c.peek() != &Tok::LBracket {
                    return Err(semantic(
                        self.c.span(),
                        "state.light needs a light number [n]",
                    ));
                }
                let light = self.index_limited(self.lim.max_lights, "light")?;
                let (prop, ps) = self.dot_ident("a light property")?;
                let prop = match prop.as_str() {
                    "ambient" => LightProp::Ambient,
                    "diffuse" => LightProp::Diffuse,
                    "specular" => LightProp::Specular,
                    "position" => LightProp::Position,
                    "attenuation" => LightProp::Attenuation,
                    "half" => LightProp::Half,
                    "spot" => {
                        let (d, ds) = self.dot_ident("'direction'")?;
                        if d != "direction" {
                            return Err(semantic(
                                ds,
                                format!("'{d}': expected state.light[n].spot.direction"),
                            ));
                        }
                        LightProp::SpotDirection
                    }
                    _ => return Err(semantic(ps, format!("'{prop}' is not a light property"))),
                };
                one(StateBinding::Light { light, prop })
            }
            "lightmodel" => {
                if self.c.peek() == &Tok::Dot && self.c.peek_ident_at(1) == Some("ambient") {
                    self.c.bump();
                    self.c.bump();
                    return one(StateBinding::LightModelAmbient);
                }
                let back = self.opt_face();
                let (prop, ps) = self.dot_ident("a light model property")?;
                if prop != "scenecolor" {
                    return Err(semantic(
                        ps,
                        format!("'{prop}' is not a light model property"),
                    ));
                }
                one(StateBinding::LightModelSceneColor { back })
            }
            "lightprod" => {
                if self.c.peek() != &Tok::LBracket {
                    return Err(semantic(
                        self.c.span(),
                        "state.lightprod needs a light number [n]",
                    ));
                }
                let light = self.index_limited(self.lim.max_lights, "light")?;
                let back = self.opt_face();
                let (prop, ps) = self.dot_ident("a light product property")?;
                let prop = match prop.as_str() {
                    "ambient" => LightProductProp::Ambient,
                    "diffuse" => LightProductProp::Diffuse,
                    "specular" => LightProductProp::Specular,
                    _ => {
                        return Err(semantic(
                            ps,
                            format!("'{prop}' is not a light product property"),
                        ))
                    }
                };
                one(StateBinding::LightProduct { light, back, prop })
            }
            "texgen" if !arb_vp_only(self) => {
                let unit = self.opt_index(0, self.lim.max_texture_coords, "texgen")?;
                let (kind, ks) = self.dot_ident("'eye' or 'object'")?;
                let eye = match kind.as_str() {
                    "eye" => true,
                    "object" => false,
                    _ => return Err(semantic(ks, format!("'{kind}': expected eye or object"))),
                };
                let (coord, cs) = self.dot_ident("s, t, r or q")?;
                let coord = match coord.as_str() {
                    "s" => 0,
                    "t" => 1,
                    "r" => 2,
                    "q" => 3,
                    _ => return Err(semantic(cs, format!("'{coord}': expected s, t, r or q"))),
                };
                one(StateBinding::TexGen { unit, coord, eye })
            }
            "fog" => {
                let (prop, ps) = self.dot_ident("a fog property")?;
                match prop.as_str() {
                    "color" => one(StateBinding::FogColor),
                    "params" => one(StateBinding::FogParams),
                    _ => Err(semantic(ps, format!("'{prop}' is not a fog property"))),
                }
            }
            "clip" if !arb_vp_only(self) => {
                if self.c.peek() != &Tok::LBracket {
                    return Err(semantic(
                        self.c.span(),
                        "state.clip needs a plane number [n]",
                    ));
                }
                let n = self.index_limited(self.lim.max_clip_planes, "clip plane")?;
                let (prop, ps) = self.dot_ident("'plane'")?;
                if prop != "plane" {
                    return Err(semantic(
                        ps,
                        format!("'{prop}': expected state.clip[n].plane"),
                    ));
                }
                one(StateBinding::ClipPlane(n))
            }
            "point" if !arb_vp_only(self) => {
                let (prop, ps) = self.dot_ident("a point property")?;
                match prop.as_str() {
                    "size" => one(StateBinding::PointSize),
                    "attenuation" => one(StateBinding::PointAttenuation),
                    _ => Err(semantic(ps, format!("'{prop}' is not a point property"))),
                }
            }
            "depth" => {
                let (prop, ps) = self.dot_ident("'range'")?;
                if prop != "range" {
                    return Err(semantic(
                        ps,
                        format!("'{prop}': expected state.depth.range"),
                    ));
                }
                one(StateBinding::DepthRange)
            }
            "texenv" if frag || self.nv > 0 => {
                let unit = self.opt_index(0, self.lim.max_texture_coords, "texenv")?;
                let (prop, ps) = self.dot_ident("'color'")?;
                if prop != "color" {
                    return Err(semantic(
                        ps,
                        format!("'{prop}': expected state.texenv[n].color"),
                    ));
                }
                one(StateBinding::TexEnvColor(unit))
            }
            "matrix" => self.state_matrix(),
            "thread" if self.nv >= 50 => {
                self.require_option(&["NV_shader_thread_group"], "'state.thread'", ispan)?;
                let (prop, ps) = self.dot_ident("a thread property")?;
                match prop.as_str() {
                    // The draw path has no values for these (the executor's warps are
                    // its 16-lane batches, tessellation control runs 32-thread patches):
                    // refuse them here rather than fail every draw.
                    "warpsize" | "warpspersm" | "smcount" => Err(semantic(
                        ps,
                        format!("not supported: 'state.thread.{prop}'"),
                    )),
                    _ => Err(semantic(ps, format!("'{prop}' is not a thread property"))),
                }
            }
            _ => Err(semantic(
                start.to(ispan),
                format!(
                    "'state.{item}' is not a valid state binding in a {} program",
                    self.stage.name()
                ),
            )),
        }
    }

    fn state_matrix(&mut self) -> Result<Vec<StateBinding>, ProgramError> {
        let (name, ns) = self.dot_ident("a matrix name")?;
        let matrix = match name.as_str() {
            "modelview" => MatrixName::ModelView(self.opt_index(
                0,
                self.lim.max_vertex_units,
                "modelview matrix",
            )?),
            "projection" => MatrixName::Projection,
            "mvp" => MatrixName::Mvp,
            "texture" => MatrixName::Texture(self.opt_index(
                0,
                self.lim.max_texture_coords,
                "texture matrix",
            )?),
            "palette" => {
                if self.c.peek() != &Tok::LBracket {
                    return Err(semantic(self.c.span(), "state.matrix.palette needs [n]"));
                }
                MatrixName::Palette(
                    self.index_limited(self.lim.max_palette_matrices, "palette matrix")?,
                )
            }
            "program" => {
                if self.c.peek() != &Tok::LBracket {
                    return Err(semantic(self.c.span(), "state.matrix.program needs [n]"));
                }
                MatrixName::Program(
                    self.index_limited(self.lim.max_program_matrices, "program matrix")?,
                )
            }
            _ => return Err(semantic(ns, format!("'{name}' is not a matrix name"))),
        };
        let mut modifier = MatrixModifier::None;
        let mut rows = 0..4u32;
        while self.c.peek() == &Tok::Dot {
            let (m, ms) = self.dot_ident("a matrix modifier or 'row'")?;
            match m.as_str() {
                "inverse" | "transpose" | "invtrans"
                    if modifier == MatrixModifier::None && rows == (0..4) =>
                {
                    modifier = match m.as_str() {
                        "inverse" => MatrixModifier::Inverse,
                        "transpose" => MatrixModifier::Transpose,
                        _ => MatrixModifier::InvTrans,
                    };
                }
                "row" => {
                    let (a, b, rs) = self.index_or_range()?;
                    if b > 3 {
                        return Err(semantic(
                            rs,
                            format!("matrix row {b} is out of range (rows 0..3)"),
                        ));
                    }
                    rows = a..b + 1;
                    break;
                }
                _ => return Err(semantic(ms, format!("'{m}' is not a matrix modifier"))),
            }
        }
        Ok(rows
            .map(|row| StateBinding::MatrixRow {
                matrix,
                modifier,
                row,
            })
            .collect())
    }

    /// `program.env[..]`, `program.local[..]` (ranges only when `multi`).
    pub(crate) fn program_param_binding(
        &mut self,
        multi: bool,
    ) -> Result<Vec<ParamSource>, ProgramError> {
        self.c.expect_ident("program", "")?;
        let (kind, ks) = self.dot_ident("'env' or 'local'")?;
        let (limit, env) = match kind.as_str() {
            "env" => (self.lim.max_program_env_parameters, true),
            "local" => (self.lim.max_program_local_parameters, false),
            _ => {
                return Err(semantic(
                    ks,
                    format!("'program.{kind}' is not a parameter binding here"),
                ))
            }
        };
        let (a, b, rs) = self.index_or_range()?;
        if a != b && !multi {
            return Err(syntax(
                rs,
                "a parameter range is only allowed in a PARAM array initializer",
            ));
        }
        if b >= limit {
            return Err(semantic(
                rs,
                format!("program.{kind}[{b}] is out of range (limit {limit})"),
            ));
        }
        Ok((a..=b)
            .map(|i| {
                if env {
                    ParamSource::Env(i)
                } else {
                    ParamSource::Local(i)
                }
            })
            .collect())
    }
}
