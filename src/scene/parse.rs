//! Splitting a `.shader_test` file into sections, and the `[require]`, `[vertex data]` and
//! `[elements]` sections.

use super::command::{parse_command, Command};
use super::SceneError;
use glemu_programs::Stage;

/// One program section: its stage, text and the scene-file line its text starts on.
#[derive(Clone, Debug, PartialEq)]
///
/// ```
/// let s = glemu::scene::parse("[vertex program]\n!!ARBvp1.0\nEND\n[test]\n").unwrap();
/// assert_eq!(s.programs[0].stage, glemu::programs::Stage::Vertex);
/// assert_eq!(s.programs[0].first_line, 2);
/// assert_eq!(s.programs[0].text, "!!ARBvp1.0\nEND\n");
/// ```
pub struct ProgramSection {
    /// Stage named by the section header.
    pub stage: Stage,
    /// Program text, verbatim.
    pub text: String,
    /// 1-based scene line of the first text line (the line after the header).
    pub first_line: usize,
}

/// A `[require]` line.
#[derive(Clone, Debug, PartialEq)]
///
/// ```
/// use glemu::scene::{parse, Require};
/// let s = parse("[require]\nGL >= 3.3\n!GL_ARB_foo\nsamples 4\n").unwrap();
/// assert_eq!(s.requires[0].1, Require::GlVersion { op: ">=".into(), version: 33 });
/// assert_eq!(s.requires[1].1, Require::Extension { name: "GL_ARB_foo".into(), present: false });
/// assert_eq!(s.samples(), 4);
/// ```
pub enum Require {
    /// `GL >= 3.3` style: operator and version ×10.
    GlVersion {
        /// Comparison operator (`>=`, `<` ...).
        op: String,
        /// Version ×10 (33 for 3.3).
        version: u32,
    },
    /// `GL_ext` (true) or `!GL_ext` (false).
    Extension {
        /// Extension name.
        name: String,
        /// Whether it must be present (false for `!GL_ext`).
        present: bool,
    },
    /// `SIZE W H`.
    Size(u32, u32),
    /// `samples N`.
    Samples(u32),
    /// `INT GL_MAX_x >= n` and similar limit checks.
    Limit {
        /// The limit's GL name (`GL_MAX_...`).
        name: String,
        /// Comparison operator.
        op: String,
        /// The value it is compared with.
        value: i64,
    },
}

/// One `[vertex data]` column.
#[derive(Clone, Debug, PartialEq)]
///
/// ```
/// use glemu::{gl, scene::{parse, AttribTarget}};
/// let s = parse("[vertex data]\nvertex/float/2 3/ubyte/4\n0 0 255 0 0 255\n").unwrap();
/// let v = s.vertex_data.unwrap();
/// assert_eq!(v.columns[1].target, AttribTarget::Generic(3));
/// assert_eq!((v.columns[1].ty, v.columns[1].size, v.columns[1].offset), (gl::UNSIGNED_BYTE, 4, 8));
/// ```
pub struct Column {
    /// Where the column goes.
    pub target: AttribTarget,
    /// GL type enum of the stored values.
    pub ty: u32,
    /// Components (1..=4).
    pub size: u32,
    /// Whether the values are integers read with the `I` pointer forms.
    pub integer: bool,
    /// Byte offset inside one vertex.
    pub offset: usize,
}

/// A vertex-data column's destination.
#[derive(Clone, Debug, PartialEq, Eq)]
///
/// ```
/// use glemu::scene::{parse, AttribTarget};
/// let s = parse("[vertex data]\ntexcoord1/float/2 color/float/3\n0 0 1 1 1\n").unwrap();
/// let v = s.vertex_data.unwrap();
/// assert_eq!(v.columns[0].target, AttribTarget::TexCoord(1));
/// assert_eq!(v.columns[1].target, AttribTarget::Color);
/// ```
pub enum AttribTarget {
    /// Generic attribute N.
    Generic(u32),
    /// `vertex`/`position`.
    Position,
    /// Primary colour.
    Color,
    /// Secondary colour.
    SecondaryColor,
    /// Normal.
    Normal,
    /// Fog coordinate.
    FogCoord,
    /// Texture coordinate set N.
    TexCoord(u32),
}

/// Parsed `[vertex data]`: columns and interleaved bytes.
#[derive(Clone, Debug, PartialEq, Default)]
///
/// ```
/// let s = glemu::scene::parse("[vertex data]\n0/float/2\n0 0\n1 0\n0 1\n").unwrap();
/// let v = s.vertex_data.unwrap();
/// assert_eq!((v.count, v.stride, v.bytes.len()), (3, 8, 24));
/// ```
pub struct VertexData {
    /// The columns, in header order.
    pub columns: Vec<Column>,
    /// Bytes per vertex.
    pub stride: usize,
    /// Interleaved vertex bytes.
    pub bytes: Vec<u8>,
    /// Number of vertices.
    pub count: usize,
}

/// A parsed scene file.
#[derive(Clone, Debug, Default)]
///
/// ```
/// let s = glemu::scene::parse("[test]\nclear\n\nprobe all rgba 0 0 0 0\n").unwrap();
/// let lines: Vec<usize> = s.commands.iter().map(|(l, _)| *l).collect();
/// assert_eq!(lines, [2, 4]);
/// ```
pub struct Scene {
    /// `[require]` lines with their scene line numbers.
    pub requires: Vec<(usize, Require)>,
    /// Program sections in file order.
    pub programs: Vec<ProgramSection>,
    /// `[vertex data]`, if any.
    pub vertex_data: Option<VertexData>,
    /// `[elements]` indices.
    pub elements: Vec<u32>,
    /// `[test]` commands with their scene line numbers.
    pub commands: Vec<(usize, Command)>,
}

impl Scene {
    /// Framebuffer size from `[require]` (default 250×250).
    ///
    /// ```
    /// assert_eq!(glemu::scene::parse("[test]\n").unwrap().size(), (250, 250));
    /// assert_eq!(glemu::scene::parse("[require]\nSIZE 16 8\n").unwrap().size(), (16, 8));
    /// ```
    pub fn size(&self) -> (u32, u32) {
        self.requires
            .iter()
            .rev()
            .find_map(|(_, r)| match r {
                Require::Size(w, h) => Some((*w, *h)),
                _ => None,
            })
            .unwrap_or((250, 250))
    }

    /// Sample count from `[require]` (default 1 = single-sampled).
    ///
    /// ```
    /// assert_eq!(glemu::scene::parse("[test]\n").unwrap().samples(), 1);
    /// assert_eq!(glemu::scene::parse("[require]\nsamples 8\n").unwrap().samples(), 8);
    /// ```
    pub fn samples(&self) -> u32 {
        self.requires
            .iter()
            .rev()
            .find_map(|(_, r)| match r {
                Require::Samples(n) => Some(*n),
                _ => None,
            })
            .unwrap_or(1)
    }
}

fn err(line: usize, message: impl Into<String>) -> SceneError {
    SceneError {
        line,
        message: message.into(),
    }
}

/// Splits `text` into a [`Scene`].
///
/// ```
/// let s = glemu::scene::parse("[require]\nSIZE 8 4\n[test]\nclear\n").unwrap();
/// assert_eq!(s.size(), (8, 4));
/// assert_eq!(s.commands.len(), 1);
/// ```
pub fn parse(text: &str) -> Result<Scene, SceneError> {
    let mut scene = Scene::default();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    let mut section: Option<(String, usize)> = None;
    let mut body: Vec<(usize, &str)> = Vec::new();
    let mut seen_test = false;
    let mut seen_section = false;
    while i <= lines.len() {
        let line = lines.get(i).copied();
        let is_header = line.is_some_and(|l| l.starts_with('['));
        if is_header || line.is_none() {
            if let Some((name, hline)) = section.take() {
                finish_section(&mut scene, &name, hline, &body)?;
                if name == "test" {
                    seen_test = true;
                }
            }
            body.clear();
            if let Some(l) = line {
                let l = l.trim_end();
                let Some(name) = l.strip_prefix('[').and_then(|r| r.strip_suffix(']')) else {
                    return Err(err(
                        i + 1,
                        format!("expected a section header '[name]', found '{l}'"),
                    ));
                };
                if seen_test {
                    return Err(err(i + 1, "[test] must be the last section"));
                }
                section = Some((name.trim().to_string(), i + 1));
                seen_section = true;
            }
        } else if section.is_some() {
            if let Some(l) = line {
                body.push((i + 1, l));
            }
        }
        i += 1;
    }
    if !seen_section {
        // Text before the first section is ignored, so an empty file or one of garbage
        // would otherwise run nothing and PASS.
        return Err(err(
            lines.len().max(1),
            "no section ('[require]', '[vertex program]', '[test]', ...): not a scene file",
        ));
    }
    Ok(scene)
}

/// The program sections of a scene file alone, found even when another section has an
/// error (what `glemu check` assembles).
///
/// ```
/// let text = "[vertex program]\n!!ARBvp1.0\nEND\n[test]\nnot a command\n";
/// assert!(glemu::scene::parse(text).is_err());
/// let p = glemu::scene::program_sections(text);
/// assert_eq!((p.len(), p[0].first_line), (1, 2));
/// ```
pub fn program_sections(text: &str) -> Vec<ProgramSection> {
    let mut out: Vec<ProgramSection> = Vec::new();
    let mut current: Option<usize> = None;
    for (i, l) in text.lines().enumerate() {
        if l.starts_with('[') {
            current = None;
            let name = l.trim_end().trim_start_matches('[').trim_end_matches(']');
            if let Some(stage) = program_stage(name.trim()) {
                out.push(ProgramSection {
                    stage,
                    text: String::new(),
                    first_line: i + 2,
                });
                current = Some(out.len() - 1);
            }
        } else if let Some(p) = current.and_then(|c| out.get_mut(c)) {
            p.text.push_str(l);
            p.text.push('\n');
        }
    }
    out
}

fn program_stage(name: &str) -> Option<Stage> {
    Some(match name {
        "vertex program" => Stage::Vertex,
        "tess control program" => Stage::TessControl,
        "tess eval program" => Stage::TessEval,
        "geometry program" => Stage::Geometry,
        "fragment program" => Stage::Fragment,
        "compute program" => Stage::Compute,
        _ => return None,
    })
}

/// Strips a `#` comment (whole-line only: values never contain `#`) and blank lines.
fn content_lines<'a>(body: &'a [(usize, &'a str)]) -> impl Iterator<Item = (usize, &'a str)> {
    body.iter().filter_map(|&(n, l)| {
        let t = l.trim();
        (!t.is_empty() && !t.starts_with('#')).then_some((n, t))
    })
}

fn finish_section(
    scene: &mut Scene,
    name: &str,
    hline: usize,
    body: &[(usize, &str)],
) -> Result<(), SceneError> {
    if let Some(stage) = program_stage(name) {
        // One program per stage: a second section would silently replace the first.
        if let Some(first) = scene.programs.iter().find(|p| p.stage == stage) {
            return Err(err(
                hline,
                format!(
                    "a second [{name}] section (the first is on line {}): one program per stage",
                    first.first_line - 1
                ),
            ));
        }
        let mut text = String::new();
        for (_, l) in body {
            text.push_str(l);
            text.push('\n');
        }
        scene.programs.push(ProgramSection {
            stage,
            text,
            first_line: hline + 1,
        });
        return Ok(());
    }
    match name {
        "require" => {
            for (n, l) in content_lines(body) {
                if let Some(r) = parse_require(l).map_err(|m| err(n, m))? {
                    scene.requires.push((n, r));
                }
            }
        }
        "vertex data" => scene.vertex_data = Some(parse_vertex_data(body)?),
        "elements" => {
            for (n, l) in content_lines(body) {
                for w in l.split_whitespace() {
                    let v = parse_uint(w)
                        .ok_or_else(|| err(n, format!("expected an index, found '{w}'")))?;
                    scene.elements.push(v);
                }
            }
        }
        "test" => {
            for (n, l) in content_lines(body) {
                let c = parse_command(l).map_err(|m| err(n, m))?;
                scene.commands.push((n, c));
            }
        }
        "vertex shader"
        | "vertex shader passthrough"
        | "fragment shader"
        | "geometry shader"
        | "tessellation control shader"
        | "tessellation evaluation shader"
        | "compute shader" => {
            return Err(err(hline, format!("not supported: GLSL section [{name}]")))
        }
        other => return Err(err(hline, format!("unknown section [{other}]"))),
    }
    Ok(())
}

/// Parses an unsigned integer, decimal or `0x` hex.
pub(crate) fn parse_uint(s: &str) -> Option<u32> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u32::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

fn parse_require(l: &str) -> Result<Option<Require>, String> {
    let words: Vec<&str> = l.split_whitespace().collect();
    let Some(&first) = words.first() else {
        return Ok(None);
    };
    let num = |i: usize| -> Result<u32, String> {
        let w = words
            .get(i)
            .ok_or_else(|| format!("'{l}': expected a number"))?;
        parse_uint(w).ok_or_else(|| format!("'{l}': expected a number, found '{w}'"))
    };
    match first {
        "GL" | "GLSL" | "GLES" => {
            // optional COMPAT/CORE, then operator and version
            let rest: Vec<&str> = words[1..]
                .iter()
                .copied()
                .filter(|w| !matches!(*w, "COMPAT" | "CORE" | "ES"))
                .collect();
            if first != "GL" {
                return Ok(None);
            }
            let (Some(op), Some(v)) = (rest.first(), rest.get(1)) else {
                return Err(format!("'{l}': expected 'GL OP VERSION'"));
            };
            let version = parse_version(v).ok_or_else(|| format!("'{l}': bad version '{v}'"))?;
            Ok(Some(Require::GlVersion {
                op: op.to_string(),
                version,
            }))
        }
        "SIZE" | "size" if words.len() == 3 => Ok(Some(Require::Size(num(1)?, num(2)?))),
        "SIZE" | "size" => Err(format!("'{l}': expected 'SIZE WIDTH HEIGHT'")),
        "samples" | "SAMPLES" if words.len() == 2 => Ok(Some(Require::Samples(num(1)?))),
        "samples" | "SAMPLES" => Err(format!("'{l}': expected 'samples N'")),
        "depthbuffer" => Ok(None),
        "INT" | "FLOAT" => {
            let (Some(name), Some(op), Some(v)) = (words.get(1), words.get(2), words.get(3)) else {
                return Err(format!("'{l}': expected 'INT GL_MAX_x OP VALUE'"));
            };
            let value = v
                .parse::<i64>()
                .map_err(|_| format!("'{l}': bad value '{v}'"))?;
            Ok(Some(Require::Limit {
                name: name.to_string(),
                op: op.to_string(),
                value,
            }))
        }
        w => {
            let (present, name) = match w.strip_prefix('!') {
                Some(n) => (false, n),
                None => (true, w),
            };
            // Old piglit files spell extensions without the GL_ prefix.
            let is_ext = ["GL_", "ARB_", "EXT_", "NV_", "ATI_", "MESA_", "KHR_"]
                .iter()
                .any(|p| name.starts_with(p));
            if !is_ext {
                return Ok(None);
            }
            let name = if name.starts_with("GL_") {
                name.to_string()
            } else {
                format!("GL_{name}")
            };
            Ok(Some(Require::Extension { name, present }))
        }
    }
}

fn parse_version(v: &str) -> Option<u32> {
    let (a, b) = v.split_once('.').unwrap_or((v, "0"));
    let b = b.get(..1).unwrap_or("0");
    Some(a.parse::<u32>().ok()? * 10 + b.parse::<u32>().ok()?)
}

fn attrib_target(name: &str) -> Option<AttribTarget> {
    use AttribTarget::*;
    let n = name.strip_prefix("attrib").unwrap_or(name);
    let n = n.trim_start_matches('[').trim_end_matches(']');
    if let Ok(i) = n.parse::<u32>() {
        return Some(Generic(i));
    }
    Some(match name {
        "vertex" | "position" | "pos" | "piglit_vertex" | "gl_Vertex" => Position,
        "color" | "gl_Color" => Color,
        "secondary_color" | "gl_SecondaryColor" => SecondaryColor,
        "normal" | "gl_Normal" => Normal,
        "fogcoord" | "gl_FogCoord" => FogCoord,
        "texcoord" | "piglit_texcoord" => TexCoord(0),
        _ => {
            let idx = name
                .strip_prefix("texcoord")
                .or_else(|| name.strip_prefix("gl_MultiTexCoord"))?;
            TexCoord(idx.parse().ok()?)
        }
    })
}

fn type_info(ty: &str) -> Option<(u32, usize, bool)> {
    use crate::gl;
    Some(match ty {
        "float" => (gl::FLOAT, 4, false),
        "half" => (gl::HALF_FLOAT, 2, false),
        "double" => (gl::DOUBLE, 8, false),
        "byte" => (gl::BYTE, 1, true),
        "ubyte" => (gl::UNSIGNED_BYTE, 1, true),
        "short" => (gl::SHORT, 2, true),
        "ushort" => (gl::UNSIGNED_SHORT, 2, true),
        "int" => (gl::INT, 4, true),
        "uint" => (gl::UNSIGNED_INT, 4, true),
        _ => return None,
    })
}

fn size_info(s: &str) -> Option<u32> {
    if let Ok(n) = s.parse::<u32>() {
        return (1..=4).contains(&n).then_some(n);
    }
    let n = s
        .strip_prefix("vec")
        .or_else(|| s.strip_prefix("ivec"))
        .or_else(|| s.strip_prefix("uvec"))
        .or_else(|| s.strip_prefix("dvec"))?;
    let n: u32 = n.parse().ok()?;
    (2..=4).contains(&n).then_some(n)
}

fn parse_vertex_data(body: &[(usize, &str)]) -> Result<VertexData, SceneError> {
    let mut vd = VertexData::default();
    let mut lines = content_lines(body);
    let Some((hn, header)) = lines.next() else {
        return Ok(vd);
    };
    for col in header.split_whitespace() {
        let parts: Vec<&str> = col.split('/').collect();
        let [name, ty, size] = parts[..] else {
            return Err(err(
                hn,
                format!("vertex data column '{col}': expected NAME/TYPE/SIZE"),
            ));
        };
        let target = attrib_target(name).ok_or_else(|| {
            err(
                hn,
                format!("vertex data column '{col}': unknown attribute '{name}'"),
            )
        })?;
        let (ty_enum, bytes, integer_ty) = type_info(ty).ok_or_else(|| {
            err(
                hn,
                format!("vertex data column '{col}': unknown type '{ty}'"),
            )
        })?;
        let size = size_info(size)
            .ok_or_else(|| err(hn, format!("vertex data column '{col}': bad size '{size}'")))?;
        vd.columns.push(Column {
            target,
            ty: ty_enum,
            size,
            integer: integer_ty,
            offset: vd.stride,
        });
        vd.stride += bytes * size as usize;
    }
    let total: usize = vd.columns.iter().map(|c| c.size as usize).sum();
    for (n, l) in lines {
        let words: Vec<&str> = l.split_whitespace().collect();
        if words.len() != total {
            return Err(err(
                n,
                format!("expected {total} values per vertex, found {}", words.len()),
            ));
        }
        let mut w = words.iter();
        for c in &vd.columns {
            for _ in 0..c.size {
                let s = w.next().copied().unwrap_or("0");
                push_value(&mut vd.bytes, c.ty, s).map_err(|m| err(n, m))?;
            }
        }
        vd.count += 1;
    }
    Ok(vd)
}

fn push_value(out: &mut Vec<u8>, ty: u32, s: &str) -> Result<(), String> {
    use crate::gl;
    use bytemuck::bytes_of;
    let bad = || format!("bad vertex value '{s}'");
    let int = || -> Result<i64, String> {
        if let Some(h) = s.strip_prefix("0x") {
            i64::from_str_radix(h, 16).map_err(|_| bad())
        } else {
            s.parse::<i64>().map_err(|_| bad())
        }
    };
    match ty {
        gl::FLOAT => out.extend_from_slice(bytes_of(&s.parse::<f32>().map_err(|_| bad())?)),
        gl::DOUBLE => out.extend_from_slice(bytes_of(&s.parse::<f64>().map_err(|_| bad())?)),
        gl::HALF_FLOAT => {
            let v = half::f16::from_f32(s.parse::<f32>().map_err(|_| bad())?);
            out.extend_from_slice(bytes_of(&v.to_bits()))
        }
        gl::BYTE | gl::UNSIGNED_BYTE => out.push(int()? as u8),
        gl::SHORT | gl::UNSIGNED_SHORT => out.extend_from_slice(bytes_of(&(int()? as u16))),
        _ => out.extend_from_slice(bytes_of(&(int()? as u32))),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_and_line_numbers() {
        let s = parse("junk\n[require]\nGL >= 1.3\nARB_vertex_program\n[vertex program]\n!!ARBvp1.0\nEND\n[test]\n\n# c\nclear\n").unwrap();
        assert_eq!(s.programs[0].first_line, 6);
        assert_eq!(s.programs[0].text, "!!ARBvp1.0\nEND\n");
        assert_eq!(s.commands[0].0, 11);
        assert!(s.requires.iter().any(|(_, r)| *r
            == Require::Extension {
                name: "GL_ARB_vertex_program".into(),
                present: true
            }));
        assert!(s.requires.iter().any(|(_, r)| *r
            == Require::GlVersion {
                op: ">=".into(),
                version: 13
            }));
    }

    #[test]
    fn vertex_data_columns_interleave() {
        let s = parse("[vertex data]\nvertex/float/2 1/ubyte/4\n0 1 1 2 3 4\n").unwrap();
        let vd = s.vertex_data.unwrap();
        assert_eq!(vd.stride, 12);
        assert_eq!(vd.count, 1);
        assert_eq!(vd.columns[1].target, AttribTarget::Generic(1));
        assert_eq!(&vd.bytes[8..], &[1, 2, 3, 4]);
    }

    #[test]
    fn bad_lines_name_their_line() {
        let e = parse("[vertex data]\nvertex/float/2\n1 2 3\n").unwrap_err();
        assert_eq!(e.line, 3);
        let e = parse("[test]\nfrobnicate 1\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = parse("[test]\nclear\n[require]\n").unwrap_err();
        assert_eq!(e.line, 3);
        let e = parse("[require]\nGL >= 2.0\nSIZE 64 64 64\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.to_string().contains("SIZE WIDTH HEIGHT"), "{e}");
        let e = parse("[require]\nsamples\n").unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn empty_or_garbage_files_are_not_scenes() {
        for text in [
            "",
            "\n\n",
            "garbage\n\x01\x02 ((\nmore",
            "# only a comment\n",
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.message.contains("not a scene file"), "{text:?}: {e}");
            let r = crate::scene::run_text(text, std::path::Path::new("."));
            assert_eq!(r.outcome, crate::scene::Outcome::Fail, "{text:?}");
        }
        assert_eq!(parse("a\nb\nc\n").unwrap_err().line, 3);
    }

    #[test]
    fn duplicate_program_sections_name_both_lines() {
        let text = "[vertex program]\n!!ARBvp1.0\nEND\n[fragment program]\n!!ARBfp1.0\nEND\n\
                    [vertex program]\n!!ARBvp1.0\nEND\n[test]\n";
        let e = parse(text).unwrap_err();
        assert_eq!(e.line, 7);
        assert!(e.message.contains("line 1"), "{e}");
        assert!(e.message.contains("[vertex program]"), "{e}");
    }
}
