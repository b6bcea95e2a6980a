//! One `[test]` line → one [`Command`]: the command words and their arguments.

use super::args::*;
use super::probe::parse_probe;
use super::{Command, MatrixTarget, TextureCmd};
use crate::caps::MAX_PROGRAM_MATRICES;
use crate::context::state::MAX_TEXTURE_COORDS;
use crate::gl;

/// Parses one `[test]` line (already trimmed, not a comment).
///
/// ```
/// use glemu::scene::{parse_command, Command};
/// assert_eq!(parse_command("clear color 0 0 1 1").unwrap(), Command::ClearColor([0.0, 0.0, 1.0, 1.0]));
/// assert!(parse_command("draw rect 1 2").is_err());
/// ```
pub fn parse_command(line: &str) -> Result<Command, String> {
    check_parens(line)?;
    let mut a = Args {
        w: words(line),
        pos: 0,
    };
    let first = a.next("a command")?;
    let cmd = match first {
        "clear" => match a.peek() {
            None => Command::Clear,
            Some("color") => {
                a.pos += 1;
                Command::ClearColor(a.f32n("a colour component")?)
            }
            Some("depth") => {
                a.pos += 1;
                Command::ClearDepth(a.f64("a depth")?)
            }
            Some("stencil") => {
                a.pos += 1;
                Command::ClearStencil(a.i32("a stencil value")?)
            }
            Some(w) => {
                return Err(format!(
                    "expected 'clear', 'clear color|depth|stencil', found 'clear {w}'"
                ))
            }
        },
        "size" => Command::Size(a.u32("a width")?, a.u32("a height")?),
        "samples" => Command::Samples(a.u32("a sample count")?),
        "viewport" if a.eat("indexed") => {
            Command::ViewportIndexed(a.u32("a viewport index")?, a.f32n("x, y, width, height")?)
        }
        "viewport" => {
            Command::Viewport([a.i32("x")?, a.i32("y")?, a.i32("width")?, a.i32("height")?])
        }
        "scissor" if a.eat("indexed") => Command::ScissorIndexed(
            a.u32("a viewport index")?,
            [a.i32("x")?, a.i32("y")?, a.i32("width")?, a.i32("height")?],
        ),
        "scissor" => {
            Command::Scissor([a.i32("x")?, a.i32("y")?, a.i32("width")?, a.i32("height")?])
        }
        "depth" => {
            if !a.eat("range") {
                return Err("expected 'depth range [indexed I] NEAR FAR'".into());
            }
            let index = if a.eat("indexed") {
                Some(a.u32("a viewport index")?)
            } else {
                None
            };
            Command::DepthRange(index, a.f64n("near and far")?)
        }
        "enable" | "disable" => {
            let cap = a.en("a capability")?;
            match a.peek() {
                Some(_) => Command::EnableIndexed(cap, a.u32("an index")?, first == "enable"),
                None if first == "enable" => Command::Enable(cap),
                None => Command::Disable(cap),
            }
        }
        "depthfunc" => Command::DepthFunc(a.en("a depth function")?),
        "depthmask" => Command::DepthMask(match a.next("on|off")? {
            "on" | "1" | "true" | "GL_TRUE" => true,
            "off" | "0" | "false" | "GL_FALSE" => false,
            w => return Err(format!("expected on|off, found '{w}'")),
        }),
        "stencil" => match a.next("func|op")? {
            "func" => Command::StencilFunc(
                a.en("a stencil function")?,
                a.i32("a reference")?,
                a.i64("a mask")? as u32,
            ),
            "op" => Command::StencilOp(a.en("sfail")?, a.en("dpfail")?, a.en("dppass")?),
            w => {
                return Err(format!(
                    "expected 'stencil func' or 'stencil op', found 'stencil {w}'"
                ))
            }
        },
        "blend" => match a.next("func|equation|color")? {
            "func" => {
                let s = a.en("a source factor")?;
                let d = a.en("a destination factor")?;
                if a.peek().is_some() {
                    Command::BlendFunc(
                        s,
                        d,
                        a.en("a source alpha factor")?,
                        a.en("a destination alpha factor")?,
                    )
                } else {
                    Command::BlendFunc(s, d, s, d)
                }
            }
            "equation" => {
                let m = a.en("a blend equation")?;
                let ma = if a.peek().is_some() {
                    a.en("an alpha blend equation")?
                } else {
                    m
                };
                Command::BlendEquation(m, ma)
            }
            "color" => Command::BlendColor(a.f32n("a colour component")?),
            w => {
                return Err(format!(
                    "expected 'blend func|equation|color', found 'blend {w}'"
                ))
            }
        },
        "color" => {
            if a.eat("mask") {
                let mut m = [false; 4];
                for v in &mut m {
                    *v = match a.i64("0 or 1")? {
                        0 => false,
                        1 => true,
                        n => return Err(format!("expected 0 or 1 in 'color mask', found {n}")),
                    };
                }
                Command::ColorMask(m)
            } else {
                let r = a.f32("red")?;
                let g = a.f32("green")?;
                let b = a.f32("blue")?;
                let al = if a.peek().is_some() {
                    a.f32("alpha")?
                } else {
                    1.0
                };
                Command::Color([r, g, b, al])
            }
        }
        "cull" => {
            if !a.eat("face") {
                return Err("expected 'cull face F'".into());
            }
            Command::CullFace(a.en("a face")?)
        }
        "frontface" => Command::FrontFace(a.en("cw|ccw")?),
        "front" => {
            if !a.eat("face") {
                return Err("expected 'front face cw|ccw'".into());
            }
            Command::FrontFace(a.en("cw|ccw")?)
        }
        "shade" => {
            a.eat("model");
            Command::ShadeModel(a.en("flat|smooth")?)
        }
        "provoking" => {
            a.eat("vertex");
            Command::ProvokingVertex(match a.next("first|last")? {
                "first" => gl::FIRST_VERTEX_CONVENTION,
                "last" => gl::LAST_VERTEX_CONVENTION,
                w => gl::enum_by_name(w)
                    .ok_or_else(|| format!("expected first|last, found '{w}'"))?,
            })
        }
        "polygon" => match a.next("mode|offset")? {
            "mode" => Command::PolygonMode(a.en("a face")?, a.en("a polygon mode")?),
            "offset" => Command::PolygonOffset(a.f32("a factor")?, a.f32("units")?),
            w => {
                return Err(format!(
                    "expected 'polygon mode|offset', found 'polygon {w}'"
                ))
            }
        },
        "point" => {
            a.eat("size");
            Command::PointSize(a.f32("a point size")?)
        }
        "line" => {
            a.eat("width");
            Command::LineWidth(a.f32("a line width")?)
        }
        "min" => {
            if !(a.eat("sample") && a.eat("shading")) {
                return Err("expected 'min sample shading F'".into());
            }
            Command::MinSampleShading(a.f32("a fraction")?)
        }
        "sample" => {
            a.eat("mask");
            Command::SampleMask(a.i64("a mask")? as u32)
        }
        "primitive" => {
            if !(a.eat("restart") && a.eat("index")) {
                return Err("expected 'primitive restart index I'".into());
            }
            Command::PrimitiveRestartIndex(a.i64("an index")? as u32)
        }
        "texcoord" => Command::TexCoord(a.u32("a texture unit")?, {
            let v = a.rest_f32("a coordinate")?;
            let mut out = [0.0, 0.0, 0.0, 1.0];
            if v.is_empty() || v.len() > 4 {
                return Err("expected 1 to 4 texture coordinates".into());
            }
            out[..v.len()].copy_from_slice(&v);
            out
        }),
        "clip" => {
            a.eat("plane");
            Command::ClipPlane(
                a.index_below("a plane index", crate::context::state::MAX_CLIP_PLANES)?,
                a.f64n("a plane coefficient")?,
            )
        }
        "hint" => Command::Hint(a.en("a hint target")?, a.en("a hint mode")?),
        "tolerance" => {
            let v: Vec<f64> = a
                .rest()
                .iter()
                .map(|w| parse_tolerance(w))
                .collect::<Result<_, _>>()?;
            match v[..] {
                [t] => Command::Tolerance([t; 4]),
                [r, g, b, al] => Command::Tolerance([r, g, b, al]),
                _ => return Err("expected 'tolerance t' or 'tolerance r g b a'".into()),
            }
        }
        "ortho" => {
            if a.peek().is_none() {
                Command::OrthoWindow
            } else {
                Command::Ortho(a.f64n("an ortho bound")?)
            }
        }
        "frustum" => Command::Frustum(a.f64n("a frustum bound")?),
        "matrix" => {
            let name = a.next("modelview|projection|textureN|programN")?;
            let mode = match name {
                "modelview" => MatrixTarget::ModelView,
                "projection" => MatrixTarget::Projection,
                n if n.starts_with("texture") => {
                    MatrixTarget::Texture(matrix_index(n, MAX_TEXTURE_COORDS)?)
                }
                n if n.starts_with("program") => {
                    MatrixTarget::Program(matrix_index(n, MAX_PROGRAM_MATRICES)?)
                }
                n => {
                    return Err(format!(
                        "expected modelview|projection|textureN|programN, found '{n}'"
                    ))
                }
            };
            if a.eat("identity") {
                Command::Matrix(mode, None)
            } else {
                Command::Matrix(
                    mode,
                    Some(a.f32n("a matrix element (16 column-major floats)")?),
                )
            }
        }
        "light" => {
            if a.eat("model") {
                a.eat("ambient");
                Command::LightModelAmbient(a.f32n("a colour component")?)
            } else {
                let n = a.index_below("a light index", crate::context::state::MAX_LIGHTS)?;
                let p = a.en("a light parameter")?;
                Command::Light(n, p, a.rest_f32("a value")?)
            }
        }
        "material" => {
            let face = a.en("a face")?;
            let p = a.en("a material parameter")?;
            Command::Material(face, p, a.rest_f32("a value")?)
        }
        "fog" => {
            let p = a.en("a fog parameter")?;
            if p == gl::FOG_MODE {
                let m = a.en("a fog mode")?;
                Command::Fog(p, vec![m as f32])
            } else {
                Command::Fog(p, a.rest_f32("a value")?)
            }
        }
        "parameter" | "parameteri" | "parameterui" => {
            if first == "parameter" && a.eat("buffer") {
                let st = a.next("a stage (vp tcp tep gp fp)")?;
                let stage = stage_target(st)
                    .ok_or_else(|| format!("expected a stage (vp tcp tep gp fp), found '{st}'"))?;
                let binding = a.u32("a binding")?;
                let offset = a.u32("a byte offset")? as usize;
                let ty = a.next("a type (float int uint double)")?;
                let data = encode_values(ty, &a.rest())?;
                return Ok(Command::ParameterBuffer {
                    stage,
                    binding,
                    offset,
                    data,
                });
            }
            let k = a.next("a parameter kind (env_vp, local_fp, ...)")?;
            let kind = param_kind(k).ok_or_else(|| {
                format!("expected a parameter kind (env_vp, local_fp, ...), found '{k}'")
            })?;
            let index = a.u32("a parameter index")?;
            let mut bits = [0u32; 4];
            for b in &mut bits {
                *b = if first == "parameter" {
                    a.f32("a value")?.to_bits()
                } else {
                    a.i64("an integer")? as u32
                };
            }
            Command::Parameter { kind, index, bits }
        }
        "atomic" => {
            if !a.eat("counters") {
                return Err("expected 'atomic counters BINDING (v...)'".into());
            }
            let binding = a.u32("a binding")?;
            let values = a
                .rest()
                .iter()
                .map(|w| {
                    parse_i64(w)
                        .map(|v| v as u32)
                        .ok_or_else(|| format!("expected a counter value, found '{w}'"))
                })
                .collect::<Result<_, _>>()?;
            Command::AtomicCounters { binding, values }
        }
        "compute" => {
            if a.eat("indirect") {
                let name = a.next("a buffer name")?.to_string();
                let offset = u64::from(a.u32("a byte offset")?);
                Command::ComputeIndirect { name, offset }
            } else {
                Command::Compute([
                    a.u32("a work group count")?,
                    a.u32("a work group count")?,
                    a.u32("a work group count")?,
                ])
            }
        }
        "storage" => {
            if !a.eat("buffer") {
                return Err("expected 'storage buffer N NAME'".into());
            }
            let index = a.u32("a storage binding")?;
            let name = a.next("a buffer name")?.to_string();
            Command::StorageBuffer { index, name }
        }
        "memory" => {
            if !a.eat("barrier") {
                return Err("expected 'memory barrier'".into());
            }
            Command::MemoryBarrier
        }
        "buffer" => {
            if a.eat("address") {
                let k = a.next("a parameter kind")?;
                let kind = param_kind(k).ok_or_else(|| {
                    format!("expected a parameter kind (env_vp, ...), found '{k}'")
                })?;
                let index = a.u32("a parameter index")?;
                let name = a.next("a buffer name")?.to_string();
                let mut offset = 0;
                if let Some(w) = a.peek() {
                    let w = w.strip_prefix('+').unwrap_or(w);
                    let w = if w.is_empty() {
                        a.pos += 1;
                        a.next("an offset")?
                    } else {
                        w
                    };
                    offset = parse_i64(w).ok_or_else(|| format!("expected +OFFSET, found '{w}'"))?
                        as u64;
                    a.pos = a.w.len();
                }
                Command::BufferAddress {
                    kind,
                    index,
                    name,
                    offset,
                }
            } else {
                let name = a.next("a buffer name")?.to_string();
                let size = a.u32("a size in bytes")? as usize;
                let data = match a.peek() {
                    None => Vec::new(),
                    Some(_) => {
                        let ty = a.next("a type")?;
                        encode_values(ty, &a.rest())?
                    }
                };
                Command::Buffer { name, size, data }
            }
        }
        "texture" => parse_texture(&mut a)?,
        "map" => {
            if !a.eat("buffer") {
                return Err("expected 'map buffer NAME BYTE_OFFSET TYPE (v, ...)'".into());
            }
            let name = a.next("a buffer name")?.to_string();
            let offset = u64::from(a.u32("a byte offset")?);
            let ty = a.next("a type")?;
            let data = encode_values(ty, &a.rest())?;
            if data.is_empty() {
                return Err("expected values to write".into());
            }
            Command::MapBufferWrite { name, offset, data }
        }
        "image" => {
            if !a.eat("unit") {
                return Err("expected 'image unit N texture U FORMAT ACCESS'".into());
            }
            let unit = a.u32("an image unit")?;
            if !a.eat("texture") {
                return Err("expected 'texture U' after the image unit".into());
            }
            let texture_unit = a.u32("a texture unit")?;
            let format = a.en("an image format")?;
            let access = a.en("GL_READ_ONLY, GL_WRITE_ONLY or GL_READ_WRITE")?;
            let (mut level, mut layer) = (0, None);
            loop {
                if a.eat("level") {
                    level = a.i32("a level")?;
                } else if a.eat("layer") {
                    layer = Some(a.i32("a layer")?);
                } else {
                    break;
                }
            }
            Command::ImageUnit {
                unit,
                texture_unit,
                format,
                access,
                level,
                layer,
            }
        }
        "texparameter" => {
            let t = a.next("a texture target")?;
            let target = texture_target_name(t).ok_or_else(|| format!("expected a texture target (1D 2D 3D Rect Cube 1DArray 2DArray CubeArray), found '{t}'"))?;
            let p = a.next("a texture parameter")?;
            let pname =
                texparam_name(p).ok_or_else(|| format!("unknown texture parameter '{p}'"))?;
            let values = a
                .rest()
                .iter()
                .map(|w| {
                    parse_f64(w)
                        .map(|v| v as f32)
                        .or_else(|| gl::enum_by_name(w).map(|e| e as f32))
                        .ok_or_else(|| format!("expected a value for {p}, found '{w}'"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            if values.is_empty() {
                return Err(format!("expected a value for {p}"));
            }
            Command::TexParameter {
                target,
                pname,
                values,
            }
        }
        "active" => {
            a.eat("texture");
            let w = a.next("a texture unit")?;
            let n = w.strip_prefix("GL_TEXTURE").unwrap_or(w);
            Command::ActiveTexture(
                n.parse()
                    .map_err(|_| format!("expected a texture unit, found '{w}'"))?,
            )
        }
        "draw" => parse_draw(&mut a)?,
        "patch" => {
            if !a.eat("parameter") {
                return Err("expected 'patch parameter ...'".into());
            }
            match a.next("vertices|default")? {
                "vertices" => Command::PatchVertices(a.u32("a vertex count")?),
                "default" => {
                    a.eat("level");
                    match a.next("outer|inner")? {
                        "outer" => Command::PatchOuter(a.f32n("a level")?),
                        "inner" => Command::PatchInner(a.f32n("a level")?),
                        w => return Err(format!("expected outer|inner, found '{w}'")),
                    }
                }
                w => {
                    return Err(format!(
                        "expected 'vertices' or 'default level', found '{w}'"
                    ))
                }
            }
        }
        "xfb" => match a.next("attribs|interleaved|separate|buffer")? {
            "attribs" => {
                let stream = if a.eat("stream") {
                    a.u32("a stream")?
                } else {
                    0
                };
                let names: Vec<String> = a.rest().iter().map(|s| s.to_string()).collect();
                if names.is_empty() {
                    return Err("expected attribute names".into());
                }
                Command::XfbAttribs {
                    stream,
                    names: join_brackets(names),
                }
            }
            "interleaved" => Command::XfbInterleaved(true),
            "separate" => Command::XfbInterleaved(false),
            "buffer" => {
                Command::XfbBuffer(a.u32("a buffer index")?, a.u32("a size in bytes")? as usize)
            }
            "varyings" => {
                return Err("not supported: 'xfb varyings' (GLSL only; use 'xfb attribs')".into())
            }
            w => {
                return Err(format!(
                    "expected 'xfb attribs|interleaved|separate|buffer', found 'xfb {w}'"
                ))
            }
        },
        "begin" => {
            if !(a.eat("transform") && a.eat("feedback")) {
                return Err("expected 'begin transform feedback MODE'".into());
            }
            Command::BeginTransformFeedback(a.en("a primitive mode")?)
        }
        "end" => {
            if !(a.eat("transform") && a.eat("feedback")) {
                return Err("expected 'end transform feedback'".into());
            }
            Command::EndTransformFeedback
        }
        "probe" | "relative" => return parse_probe(first, a),
        "uniform" => return Err("not supported: 'uniform' (GLSL only)".into()),
        w => return Err(format!("unknown command '{w}'")),
    };
    a.done()?;
    Ok(cmd)
}

/// `result.texcoord[1]` may have been split by the word splitter? It is not (brackets are
/// kept), but names with spaces inside brackets are rejoined for robustness.
pub(super) fn join_brackets(names: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        match out.last_mut() {
            Some(last) if last.matches('[').count() > last.matches(']').count() => {
                last.push_str(&n)
            }
            _ => out.push(n),
        }
    }
    out
}

pub(super) fn parse_texture(a: &mut Args) -> Result<Command, String> {
    let kind = a.next("a texture kind")?;
    let (unit, cmd) = match kind {
        "rgbw" => match a.peek() {
            Some("1D") => {
                a.pos += 1;
                (a.u32("a unit")?, TextureCmd::Rgbw1D)
            }
            Some("3D") => {
                a.pos += 1;
                (a.u32("a unit")?, TextureCmd::Rgbw3D)
            }
            _ => {
                let unit = a.u32("a unit")?;
                let w = a.u32("a width")?;
                let h = a.u32("a height")?;
                let format = match a.peek() {
                    Some(f) => {
                        a.pos += 1;
                        Some(gl::enum_by_name(f).ok_or_else(|| format!("unknown format '{f}'"))?)
                    }
                    None => None,
                };
                (unit, TextureCmd::Rgbw { w, h, format })
            }
        },
        "checkerboard" => {
            let unit = a.u32("a unit")?;
            let level = mip_level(a)?;
            let w = a.u32("a width")?;
            let h = a.u32("a height")?;
            let c0 = a.f32n("a colour component")?;
            let c1 = a.f32n("a colour component")?;
            let square = if a.peek().is_some() { Some((a.u32("a square width")?, a.u32("a square height")?)) } else { None };
            (unit, TextureCmd::Checkerboard { level, w, h, c0, c1, square })
        }
        "quads" => {
            let unit = a.u32("a unit")?;
            let level = mip_level(a)?;
            let w = a.u32("a width")?;
            let h = a.u32("a height")?;
            let sw = a.u32("a tile width")?;
            let sh = a.u32("a tile height")?;
            let colors = [a.f32n("a colour")?, a.f32n("a colour")?, a.f32n("a colour")?, a.f32n("a colour")?];
            (unit, TextureCmd::Quads { level, w, h, sw, sh, colors })
        }
        "miptree" => (a.u32("a unit")?, TextureCmd::Miptree),
        "shadow2D" | "shadowRect" => {
            let unit = a.u32("a unit")?;
            let w = a.u32("a width")?;
            let h = a.u32("a height")?;
            let target = if kind == "shadow2D" { gl::TEXTURE_2D } else { gl::TEXTURE_RECTANGLE };
            (unit, TextureCmd::Shadow { target, w, h, layers: 1 })
        }
        "shadow1D" => {
            let unit = a.u32("a unit")?;
            let w = a.u32("a width")?;
            (unit, TextureCmd::Shadow { target: gl::TEXTURE_1D, w, h: 1, layers: 1 })
        }
        "shadow2DArray" => {
            let unit = a.u32("a unit")?;
            let w = a.u32("a width")?;
            let h = a.u32("a height")?;
            let layers = a.u32("a layer count")?;
            (unit, TextureCmd::Shadow { target: gl::TEXTURE_2D_ARRAY, w, h, layers })
        }
        "ramp" => {
            let unit = a.u32("a unit")?;
            (unit, TextureCmd::Ramp { w: a.u32("a width")?, h: a.u32("a height")? })
        }
        "cube" => {
            let unit = a.u32("a unit")?;
            (unit, TextureCmd::Cube { size: a.u32("a face size")? })
        }
        "layers" => {
            let unit = a.u32("a unit")?;
            let t = a.next("1DArray|2DArray|CubeArray|3D")?;
            let target = match t {
                "1DArray" | "2DArray" | "CubeArray" | "3D" => texture_target_name(t).unwrap_or(gl::TEXTURE_2D_ARRAY),
                _ => return Err(format!("expected 1DArray|2DArray|CubeArray|3D, found '{t}'")),
            };
            (unit, TextureCmd::Layers { target, w: a.u32("a width")?, h: a.u32("a height")?, layers: a.u32("a layer count")? })
        }
        "png" => {
            let unit = a.u32("a unit")?;
            let file = a.next("a PNG file name")?.to_string();
            let mipmap = a.eat("mipmap");
            (unit, TextureCmd::Png { file, mipmap })
        }
        w => return Err(format!("unknown texture kind '{w}' (rgbw checkerboard quads miptree shadow2D shadowRect shadow1D shadow2DArray ramp cube layers png)")),
    };
    Ok(Command::Texture { unit, cmd })
}

pub(super) fn parse_draw(a: &mut Args) -> Result<Command, String> {
    match a.next("rect|arrays|elements|grid|instanced")? {
        "rect" => {
            let mut ortho = false;
            let mut patch = false;
            let mut tex = false;
            loop {
                if a.eat("ortho") {
                    ortho = true;
                } else if a.eat("patch") {
                    patch = true;
                } else if a.eat("tex") {
                    tex = true;
                } else {
                    break;
                }
            }
            let rect = a.f32n("x y w h")?;
            let tex = if tex {
                Some(a.f32n("tx ty tw th")?)
            } else {
                None
            };
            Ok(Command::DrawRect {
                ortho,
                patch,
                rect,
                tex,
                instances: 1,
            })
        }
        "instanced" => {
            if !a.eat("rect") {
                return Err("expected 'draw instanced rect N x y w h'".into());
            }
            let ortho = a.eat("ortho");
            let instances = a.sizei("an instance count")?;
            let rect = a.f32n("x y w h")?;
            Ok(Command::DrawRect {
                ortho,
                patch: false,
                rect,
                tex: None,
                instances,
            })
        }
        "arrays" => {
            let inst = a.eat("instanced");
            let mode = a.en("a primitive mode")?;
            let first = a.sizei("first")?;
            let count = a.sizei("count")?;
            let instances = if inst {
                a.sizei("an instance count")?
            } else {
                1
            };
            Ok(Command::DrawArrays {
                mode,
                first,
                count,
                instances,
            })
        }
        "elements" => {
            let inst = a.eat("instanced");
            let mode = a.en("a primitive mode")?;
            let count = a.sizei("count")?;
            let rest: Vec<i64> = a
                .rest()
                .iter()
                .map(|w| parse_i64(w).ok_or_else(|| format!("expected an integer, found '{w}'")))
                .collect::<Result<_, _>>()?;
            let (base_vertex, instances) = match (inst, &rest[..]) {
                (_, []) => (0, 1),
                (false, [b]) => (*b, 1),
                (true, [n]) => (0, *n),
                (_, [b, n]) => (*b, *n),
                _ => return Err("too many arguments to 'draw elements'".into()),
            };
            let base_vertex =
                i32::try_from(base_vertex).map_err(|_| "base vertex out of range".to_string())?;
            let instances = sizei(instances, "an instance count")?;
            Ok(Command::DrawElements {
                mode,
                count,
                base_vertex,
                instances,
            })
        }
        "grid" => Ok(Command::DrawGrid(a.u32("NX")?, a.u32("NY")?)),
        "transform" => {
            if !a.eat("feedback") {
                return Err("expected 'draw transform feedback MODE'".into());
            }
            let mode = a.en("a primitive mode")?;
            let (mut stream, mut instances) = (0, 1);
            loop {
                if a.eat("stream") {
                    stream = a.u32("a vertex stream")?;
                } else if a.eat("instanced") {
                    instances = a.sizei("an instance count")?;
                } else {
                    break;
                }
            }
            Ok(Command::DrawTransformFeedback {
                mode,
                stream,
                instances,
            })
        }
        w => Err(format!(
            "expected 'draw rect|arrays|elements|grid|transform feedback', found 'draw {w}'"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::command::{ParamKind, ProbeRegion};

    #[test]
    fn draw_counts_stay_in_glsizei_range() {
        for (line, what) in [
            (
                "draw arrays instanced GL_TRIANGLES 0 3 4000000000",
                "an instance count",
            ),
            ("draw arrays GL_TRIANGLES 0 2147483648", "count"),
            ("draw arrays GL_TRIANGLES -1 3", "first"),
            (
                "draw elements instanced GL_TRIANGLES 3 4294967297",
                "an instance count",
            ),
            (
                "draw instanced rect 2147483648 -1 -1 2 2",
                "an instance count",
            ),
        ] {
            let e = parse_command(line).unwrap_err();
            assert!(
                e.contains(what) && e.contains("0 to 2147483647"),
                "{line}: {e}"
            );
        }
        assert!(parse_command("draw arrays instanced GL_TRIANGLES 0 3 2147483647").is_ok());
        let e = parse_command("light 4294967295 GL_DIFFUSE 1 1 1 1").unwrap_err();
        assert!(e.contains("from 0 to 7"), "{e}");
        let e = parse_command("clip plane 8 0 0 1 0").unwrap_err();
        assert!(e.contains("from 0 to 7"), "{e}");
    }

    #[test]
    fn common_commands() {
        assert_eq!(
            parse_command("draw rect -1 -1 2 2").unwrap(),
            Command::DrawRect {
                ortho: false,
                patch: false,
                rect: [-1.0, -1.0, 2.0, 2.0],
                tex: None,
                instances: 1
            }
        );
        assert_eq!(
            parse_command("relative probe rgba (0.5, 0.5) (1.0, 0.0, 0.25, 0.5)").unwrap(),
            Command::ProbeColor {
                region: ProbeRegion::Relative(0.5, 0.5),
                rgba: true,
                expected: [1.0, 0.0, 0.25, 0.5]
            }
        );
        assert_eq!(
            parse_command("parameter local_vp 2 (-1.0, 0.0, 0.25, -0.5)").unwrap(),
            Command::Parameter {
                kind: ParamKind {
                    target: gl::VERTEX_PROGRAM_ARB,
                    env: false
                },
                index: 2,
                bits: [
                    (-1.0f32).to_bits(),
                    0,
                    0.25f32.to_bits(),
                    (-0.5f32).to_bits()
                ]
            }
        );
        assert_eq!(
            parse_command("probe png a.png tolerance 1 pixels 3").unwrap(),
            Command::ProbePng {
                file: "a.png".into(),
                tolerance: 1.0,
                pixels: 3
            }
        );
        assert_eq!(
            parse_command("xfb attribs result.position result.attrib[0]").unwrap(),
            Command::XfbAttribs {
                stream: 0,
                names: vec!["result.position".into(), "result.attrib[0]".into()]
            }
        );
        assert_eq!(
            parse_command("draw elements instanced GL_TRIANGLES 6 3").unwrap(),
            Command::DrawElements {
                mode: gl::TRIANGLES,
                count: 6,
                base_vertex: 0,
                instances: 3
            }
        );
    }

    #[test]
    fn viewport_array_commands() {
        let p = |l: &str| parse_command(l).unwrap();
        assert_eq!(
            p("viewport indexed 3 (0.5, 1, 16, 8)"),
            Command::ViewportIndexed(3, [0.5, 1.0, 16.0, 8.0])
        );
        assert_eq!(
            p("scissor indexed 15 1 2 3 4"),
            Command::ScissorIndexed(15, [1, 2, 3, 4])
        );
        assert_eq!(
            p("depth range 0.25 1"),
            Command::DepthRange(None, [0.25, 1.0])
        );
        assert_eq!(
            p("depth range indexed 2 0 0.5"),
            Command::DepthRange(Some(2), [0.0, 0.5])
        );
        assert_eq!(
            p("enable GL_SCISSOR_TEST 4"),
            Command::EnableIndexed(gl::SCISSOR_TEST, 4, true)
        );
        assert_eq!(
            p("disable GL_SCISSOR_TEST 0"),
            Command::EnableIndexed(gl::SCISSOR_TEST, 0, false)
        );
        assert_eq!(p("disable GL_BLEND"), Command::Disable(gl::BLEND));
        for bad in [
            "depth 0 1",
            "viewport indexed 1 0 0 4",
            "enable GL_SCISSOR_TEST x",
        ] {
            assert!(parse_command(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn errors_say_what_was_expected() {
        assert!(parse_command("clear color 1 2")
            .unwrap_err()
            .contains("colour"));
        assert!(parse_command("enable GL_NOPE")
            .unwrap_err()
            .contains("capability"));
        assert!(parse_command("probe rgb 1 1 1 1 1 1")
            .unwrap_err()
            .contains("unexpected"));
        assert!(parse_command("nonsense")
            .unwrap_err()
            .contains("unknown command"));
    }

    #[test]
    fn probes_that_check_nothing_are_rejected() {
        for line in [
            "probe png a.png tolerance nan",
            "probe png a.png tolerance inf",
            "probe png a.png tolerance -1",
            "tolerance nan",
            "tolerance 0.1 0.1 nan 0.1",
            "relative probe rect rgba (nan, 0, 1, 1) (1, 0, 0, 1)",
            "relative probe rect rgba (0, 0, nan, 1) (1, 0, 0, 1)",
            "relative probe rect rgba (0, 0, 0, 1) (1, 0, 0, 1)",
            "relative probe rgba (0.5, nan) (1, 0, 0, 1)",
            "probe rect rgba (0, 0, 0, 5) (1, 0, 0, 1)",
            "probe rect rgb (0, 0, 5, -1) (1, 0, 0)",
            "probe rgba 1 1 nan 0 0 1",
            "probe all rgb 1 inf 0",
            "probe depth 1 1 nan",
            "probe sample rgba 1 1 0 (nan, 0, 0, 1)",
        ] {
            let e = parse_command(line).expect_err(line);
            assert!(
                e.contains("finite") || e.contains("checks no pixel"),
                "{line}: {e}"
            );
        }
        assert!(parse_command("probe png a.png tolerance 0 pixels 0").is_ok());
        assert!(parse_command("relative probe rect rgba (0, 0, 0.5, 0.5) (1, 0, 0, 1)").is_ok());
    }

    #[test]
    fn out_of_range_indices_are_parse_errors() {
        for line in [
            "matrix program4294967295 identity",
            "matrix program8 identity",
            "matrix texture4294967296 identity",
            "matrix program identity",
            "texture checkerboard 0 4294967295 (4, 4) (1, 0, 0, 1) (0, 0, 1, 1)",
            "texture checkerboard 0 15 (4, 4) (1, 0, 0, 1) (0, 0, 1, 1)",
            "texture quads 0 32 (4, 4) (2, 2) (1, 0, 0, 1) (0, 1, 0, 1) (0, 0, 1, 1) (1, 1, 1, 1)",
        ] {
            let e = parse_command(line).expect_err(line);
            assert!(
                e.contains("matrix name") || e.contains("level"),
                "{line}: {e}"
            );
        }
        assert!(parse_command("matrix program7 identity").is_ok());
        assert!(
            parse_command("texture checkerboard 0 14 (1, 1) (1, 0, 0, 1) (0, 0, 1, 1)").is_ok()
        );
    }

    #[test]
    fn unbalanced_parentheses_and_bad_masks_are_rejected() {
        for (line, want) in [
            ("clear color (1, 0, 0, 1", "unclosed"),
            ("probe rgba (1, 1) (1, 0, 0, 1", "unclosed"),
            ("clear color 1, 0, 0, 1)", "without a matching"),
            ("color mask 2 3 4 5", "0 or 1"),
            ("color mask 1 1 1 -1", "0 or 1"),
        ] {
            let e = parse_command(line).expect_err(line);
            assert!(e.contains(want), "{line}: {e}");
        }
        assert_eq!(
            parse_command("color mask 0 1 1 0").unwrap(),
            Command::ColorMask([false, true, true, false])
        );
        let e = crate::scene::parse("[test]\nclear\nclear color (1, 0, 0, 1\n").unwrap_err();
        assert_eq!(e.line, 3);
        let e = crate::scene::parse("[test]\ncolor mask 2 3 4 5\n").unwrap_err();
        assert_eq!(e.line, 2);
    }
}
