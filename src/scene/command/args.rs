//! Reading a command line: words, numbers, enums and counts, each error saying what
//! was expected.

use super::ParamKind;
use crate::gl;
use bytemuck::bytes_of;

/// Splits a line into words, treating `(`, `)` and `,` as separators.
pub(super) fn words(line: &str) -> Vec<&str> {
    line.split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',' || c == ';')
        .filter(|w| !w.is_empty())
        .collect()
}

pub(super) struct Args<'a> {
    pub(super) w: Vec<&'a str>,
    pub(super) pos: usize,
}

impl<'a> Args<'a> {
    pub(super) fn next(&mut self, what: &str) -> Result<&'a str, String> {
        let w = self
            .w
            .get(self.pos)
            .copied()
            .ok_or_else(|| format!("expected {what}"))?;
        self.pos += 1;
        Ok(w)
    }
    pub(super) fn peek(&self) -> Option<&'a str> {
        self.w.get(self.pos).copied()
    }
    pub(super) fn eat(&mut self, word: &str) -> bool {
        if self.peek() == Some(word) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    pub(super) fn f64(&mut self, what: &str) -> Result<f64, String> {
        let w = self.next(what)?;
        parse_f64(w).ok_or_else(|| format!("expected {what} (a number), found '{w}'"))
    }
    /// A number a probe compares with: NaN or infinity would make the comparison pass or
    /// cover no pixel, so the probe would check nothing.
    pub(super) fn finite(&mut self, what: &str) -> Result<f64, String> {
        let w = self.next(what)?;
        parse_f64(w)
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("expected {what} (a finite number), found '{w}'"))
    }
    /// A probe tolerance: finite and not negative.
    pub(super) fn tolerance(&mut self) -> Result<f64, String> {
        let w = self.next("a tolerance")?;
        parse_tolerance(w)
    }
    pub(super) fn f32(&mut self, what: &str) -> Result<f32, String> {
        Ok(self.f64(what)? as f32)
    }
    pub(super) fn i64(&mut self, what: &str) -> Result<i64, String> {
        let w = self.next(what)?;
        parse_i64(w).ok_or_else(|| format!("expected {what} (an integer), found '{w}'"))
    }
    pub(super) fn u32(&mut self, what: &str) -> Result<u32, String> {
        let v = self.i64(what)?;
        u32::try_from(v).map_err(|_| format!("expected {what} (an unsigned integer), found {v}"))
    }
    /// An index below `n` (a light, a clip plane): the runner adds it to an enum base.
    pub(super) fn index_below(&mut self, what: &str, n: usize) -> Result<u32, String> {
        let v = self.i64(what)?;
        u32::try_from(v)
            .ok()
            .filter(|&u| (u as usize) < n)
            .ok_or_else(|| format!("expected {what} from 0 to {}, found {v}", n - 1))
    }
    /// A GLsizei-range count or index (0 to i32::MAX), so draws never wrap negative.
    pub(super) fn sizei(&mut self, what: &str) -> Result<u32, String> {
        let v = self.i64(what)?;
        sizei(v, what)
    }
    pub(super) fn i32(&mut self, what: &str) -> Result<i32, String> {
        let v = self.i64(what)?;
        i32::try_from(v).map_err(|_| format!("{what} {v} is out of range"))
    }
    pub(super) fn en(&mut self, what: &str) -> Result<u32, String> {
        let w = self.next(what)?;
        gl::enum_by_name(w).ok_or_else(|| format!("expected {what} (a GL enum), found '{w}'"))
    }
    pub(super) fn f32n<const N: usize>(&mut self, what: &str) -> Result<[f32; N], String> {
        let mut out = [0.0; N];
        for v in &mut out {
            *v = self.f32(what)?;
        }
        Ok(out)
    }
    pub(super) fn f64n<const N: usize>(&mut self, what: &str) -> Result<[f64; N], String> {
        let mut out = [0.0; N];
        for v in &mut out {
            *v = self.f64(what)?;
        }
        Ok(out)
    }
    pub(super) fn rest(&mut self) -> Vec<&'a str> {
        let r = self.w.get(self.pos..).unwrap_or(&[]).to_vec();
        self.pos = self.w.len();
        r
    }
    pub(super) fn rest_f32(&mut self, what: &str) -> Result<Vec<f32>, String> {
        self.rest()
            .iter()
            .map(|w| {
                parse_f64(w)
                    .map(|v| v as f32)
                    .ok_or_else(|| format!("expected {what}, found '{w}'"))
            })
            .collect()
    }
    pub(super) fn done(&self) -> Result<(), String> {
        match self.peek() {
            None => Ok(()),
            Some(w) => Err(format!("unexpected '{w}' at the end of the command")),
        }
    }
}

pub(crate) fn parse_f64(w: &str) -> Option<f64> {
    if w.starts_with("0x") {
        return parse_i64(w).map(|v| v as f64);
    }
    w.parse::<f64>().ok()
}

pub(super) fn parse_tolerance(w: &str) -> Result<f64, String> {
    parse_f64(w)
        .filter(|v| v.is_finite() && *v >= 0.0)
        .ok_or_else(|| format!("expected a tolerance (a finite number >= 0), found '{w}'"))
}

/// Parentheses must pair up: the word splitter drops them, so without this check
/// `clear color (1, 0, 0, 1` would pass for a complete line.
pub(super) fn check_parens(line: &str) -> Result<(), String> {
    let mut depth = 0usize;
    for c in line.chars() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| "')' without a matching '('".to_string())?
            }
            _ => {}
        }
    }
    if depth == 0 {
        Ok(())
    } else {
        Err("unclosed '('".into())
    }
}

/// The N of `textureN`/`programN`, below `count` (the runner adds it to an enum base).
pub(super) fn matrix_index(name: &str, count: usize) -> Result<u32, String> {
    name.get(7..)
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|&i| (i as usize) < count)
        .ok_or_else(|| format!("bad matrix name '{name}': N must be 0 to {}", count - 1))
}

/// A mipmap level: the runner builds the base level `size << level`, which must stay
/// below `MAX_TEXTURE_SIZE` (2^14).
pub(super) fn mip_level(a: &mut Args) -> Result<u32, String> {
    a.index_below("a level", 15)
}

/// `v` as a GLsizei-range value (0 to i32::MAX).
pub(super) fn sizei(v: i64, what: &str) -> Result<u32, String> {
    u32::try_from(v)
        .ok()
        .filter(|&u| i32::try_from(u).is_ok())
        .ok_or_else(|| format!("expected {what} from 0 to {}, found {v}", i32::MAX))
}

pub(crate) fn parse_i64(w: &str) -> Option<i64> {
    let (neg, body) = match w.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, w.strip_prefix('+').unwrap_or(w)),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else {
        body.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

pub(super) fn param_kind(w: &str) -> Option<ParamKind> {
    let (scope, stage) = w.split_once('_')?;
    let env = match scope {
        "env" => true,
        "local" => false,
        _ => return None,
    };
    Some(ParamKind {
        target: stage_target(stage)?,
        env,
    })
}

/// Program target of a stage abbreviation (`vp tcp tep gp fp`).
pub(crate) fn stage_target(s: &str) -> Option<u32> {
    Some(match s {
        "vp" => gl::VERTEX_PROGRAM_ARB,
        "fp" => gl::FRAGMENT_PROGRAM_ARB,
        "gp" => gl::GEOMETRY_PROGRAM_NV,
        "tcp" => gl::TESS_CONTROL_PROGRAM_NV,
        "tep" => gl::TESS_EVALUATION_PROGRAM_NV,
        "cp" => gl::COMPUTE_PROGRAM_NV,
        _ => return None,
    })
}

/// Encodes `values` of scene type `ty` little-endian.
pub(crate) fn encode_values(ty: &str, vals: &[&str]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    for w in vals {
        let bad = || format!("expected a {ty} value, found '{w}'");
        match ty {
            "float" => out.extend_from_slice(bytes_of(&(parse_f64(w).ok_or_else(bad)? as f32))),
            "double" => out.extend_from_slice(bytes_of(&parse_f64(w).ok_or_else(bad)?)),
            "int" | "uint" => {
                out.extend_from_slice(bytes_of(&(parse_i64(w).ok_or_else(bad)? as u32)))
            }
            "int64" | "uint64" => {
                out.extend_from_slice(bytes_of(&(parse_i64(w).ok_or_else(bad)? as u64)))
            }
            _ => return Err(format!("unknown value type '{ty}' (float int uint double)")),
        }
    }
    Ok(out)
}

pub(super) fn texture_target_name(w: &str) -> Option<u32> {
    Some(match w {
        "1D" => gl::TEXTURE_1D,
        "2D" => gl::TEXTURE_2D,
        "3D" => gl::TEXTURE_3D,
        "Rect" | "RECT" | "rect" => gl::TEXTURE_RECTANGLE,
        "Cube" | "CUBE" | "cube" => gl::TEXTURE_CUBE_MAP,
        "1DArray" => gl::TEXTURE_1D_ARRAY,
        "2DArray" => gl::TEXTURE_2D_ARRAY,
        "CubeArray" => gl::TEXTURE_CUBE_MAP_ARRAY,
        _ => return None,
    })
}

pub(super) fn texparam_name(w: &str) -> Option<u32> {
    Some(match w {
        "min" => gl::TEXTURE_MIN_FILTER,
        "mag" => gl::TEXTURE_MAG_FILTER,
        "wrap_s" => gl::TEXTURE_WRAP_S,
        "wrap_t" => gl::TEXTURE_WRAP_T,
        "wrap_r" => gl::TEXTURE_WRAP_R,
        "compare_func" => gl::TEXTURE_COMPARE_FUNC,
        "compare_mode" => gl::TEXTURE_COMPARE_MODE,
        "depth_mode" => gl::DEPTH_TEXTURE_MODE,
        "base_level" => gl::TEXTURE_BASE_LEVEL,
        "max_level" => gl::TEXTURE_MAX_LEVEL,
        "lod_bias" => gl::TEXTURE_LOD_BIAS,
        "min_lod" => gl::TEXTURE_MIN_LOD,
        "max_lod" => gl::TEXTURE_MAX_LOD,
        "max_anisotropy" => gl::TEXTURE_MAX_ANISOTROPY,
        "border_color" => gl::TEXTURE_BORDER_COLOR,
        "swizzle_r" => gl::TEXTURE_SWIZZLE_R,
        "swizzle_g" => gl::TEXTURE_SWIZZLE_G,
        "swizzle_b" => gl::TEXTURE_SWIZZLE_B,
        "swizzle_a" => gl::TEXTURE_SWIZZLE_A,
        "srgb" => gl::TEXTURE_SRGB_DECODE_EXT,
        _ => return gl::enum_by_name(w),
    })
}
