//! Sampler and texture parameters (everything `glTexParameter` sets that affects lookups).

/// Wrap modes (GL 4.6 table 8.20 plus the EXT_texture_mirror_clamp modes).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Wrap {
    /// `REPEAT`.
    Repeat,
    /// `MIRRORED_REPEAT`.
    MirroredRepeat,
    /// Legacy `GL_CLAMP`: coordinates clamped to `[0, 1]`, linear filtering blends the border.
    Clamp,
    /// `CLAMP_TO_EDGE`.
    ClampToEdge,
    /// `CLAMP_TO_BORDER`.
    ClampToBorder,
    /// `MIRROR_CLAMP_EXT`.
    MirrorClamp,
    /// `MIRROR_CLAMP_TO_EDGE`.
    MirrorClampToEdge,
    /// `MIRROR_CLAMP_TO_BORDER_EXT`.
    MirrorClampToBorder,
}

/// Magnification filter, also the per-level part of a minification filter.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Filter {
    /// `NEAREST`.
    Nearest,
    /// `LINEAR`.
    Linear,
}

/// Minification filter: the filter within a level and the mipmap mode.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MinFilter {
    /// Filter within a level.
    pub filter: Filter,
    /// `None` = no mipmapping (NEAREST/LINEAR), else the filter between levels.
    pub mipmap: Option<Filter>,
}

/// Depth comparison functions (TEXTURE_COMPARE_FUNC).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CompareFunc {
    /// `NEVER`.
    Never,
    /// `LESS`.
    Less,
    /// `EQUAL`.
    Equal,
    /// `LEQUAL`.
    Lequal,
    /// `GREATER`.
    Greater,
    /// `NOTEQUAL`.
    Notequal,
    /// `GEQUAL`.
    Gequal,
    /// `ALWAYS`.
    Always,
}

impl CompareFunc {
    /// Evaluates `reference OP texel` (GL 4.6 table 8.22).
    #[inline]
    pub fn test(self, reference: f32, texel: f32) -> bool {
        match self {
            CompareFunc::Never => false,
            CompareFunc::Less => reference < texel,
            CompareFunc::Equal => reference == texel,
            CompareFunc::Lequal => reference <= texel,
            CompareFunc::Greater => reference > texel,
            CompareFunc::Notequal => reference != texel,
            CompareFunc::Gequal => reference >= texel,
            CompareFunc::Always => true,
        }
    }
}

/// How a depth (or compared) value becomes RGBA (DEPTH_TEXTURE_MODE).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DepthMode {
    /// (d, d, d, 1) — the compatibility-profile default.
    Luminance,
    /// (d, d, d, d).
    Intensity,
    /// (0, 0, 0, d).
    Alpha,
    /// (d, 0, 0, 1) — the core-profile behaviour.
    Red,
}

/// One component of a texture swizzle.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Swizzle {
    /// Red.
    R,
    /// Green.
    G,
    /// Blue.
    B,
    /// Alpha.
    A,
    /// `ZERO`.
    Zero,
    /// `ONE`.
    One,
}

/// Everything about a lookup that is texture/sampler state rather than instruction input.
/// Defaults are GL's initial values.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplerState {
    /// Wrap for s, t, r.
    pub wrap: [Wrap; 3],
    /// Minification filter.
    pub min_filter: MinFilter,
    /// Magnification filter.
    pub mag_filter: Filter,
    /// TEXTURE_MIN_LOD.
    pub min_lod: f32,
    /// TEXTURE_MAX_LOD.
    pub max_lod: f32,
    /// TEXTURE_LOD_BIAS (added to the instruction's bias; the sum is clamped to
    /// ±[`MAX_LOD_BIAS`]).
    pub lod_bias: f32,
    /// TEXTURE_BASE_LEVEL.
    pub base_level: u32,
    /// TEXTURE_MAX_LEVEL.
    pub max_level: u32,
    /// TEXTURE_MAX_ANISOTROPY (1 = isotropic; clamped to [1, 16]).
    pub max_anisotropy: f32,
    /// TEXTURE_COMPARE_MODE is COMPARE_REF_TO_TEXTURE. Lookups through a SHADOW
    /// instruction target compare whatever this says (the assembly specs leave a mismatch
    /// undefined; comparing is what fixed-function ARB_shadow and hardware do).
    pub compare_mode: bool,
    /// TEXTURE_COMPARE_FUNC.
    pub compare_func: CompareFunc,
    /// DEPTH_TEXTURE_MODE.
    pub depth_mode: DepthMode,
    /// TEXTURE_BORDER_COLOR as raw bits: f32 bits for float-returning textures, integers
    /// for integer textures (set with `TexParameterIiv` / `Iuiv`).
    pub border: [u32; 4],
    /// TEXTURE_SWIZZLE_RGBA.
    pub swizzle: [Swizzle; 4],
    /// TEXTURE_SRGB_DECODE_EXT = DECODE (true) or SKIP_DECODE (false).
    pub srgb_decode: bool,
    /// TEXTURE_CUBE_MAP_SEAMLESS: filter across cube faces.
    pub seamless_cube: bool,
    /// Use the pre-GL 3.1 magnification switch-over point `c = 0.5` for mag LINEAR with
    /// min NEAREST_MIPMAP_*; otherwise `c = 0` (as llvmpipe does). See
    /// [`crate::lod::mag_threshold`].
    pub legacy_mag_threshold: bool,
}

/// MIN_PROGRAM_TEXEL_OFFSET (immediate and register texel offsets).
pub const MIN_TEXEL_OFFSET: i32 = -8;
/// MAX_PROGRAM_TEXEL_OFFSET.
pub const MAX_TEXEL_OFFSET: i32 = 7;
/// MIN_PROGRAM_TEXTURE_GATHER_OFFSET (TXGO).
pub const MIN_GATHER_OFFSET: i32 = -32;
/// MAX_PROGRAM_TEXTURE_GATHER_OFFSET (TXGO).
pub const MAX_GATHER_OFFSET: i32 = 31;

/// MAX_TEXTURE_LOD_BIAS.
pub const MAX_LOD_BIAS: f32 = 16.0;
/// MAX_TEXTURE_MAX_ANISOTROPY.
pub const MAX_ANISOTROPY: f32 = 16.0;

impl Default for SamplerState {
    fn default() -> Self {
        SamplerState {
            wrap: [Wrap::Repeat; 3],
            min_filter: MinFilter {
                filter: Filter::Nearest,
                mipmap: Some(Filter::Linear),
            },
            mag_filter: Filter::Linear,
            min_lod: -1000.0,
            max_lod: 1000.0,
            lod_bias: 0.0,
            base_level: 0,
            max_level: 1000,
            max_anisotropy: 1.0,
            compare_mode: false,
            compare_func: CompareFunc::Lequal,
            depth_mode: DepthMode::Luminance,
            border: [0; 4],
            swizzle: [Swizzle::R, Swizzle::G, Swizzle::B, Swizzle::A],
            srgb_decode: true,
            seamless_cube: false,
            legacy_mag_threshold: false,
        }
    }
}

impl SamplerState {
    /// GL's initial state for a texture of `target`: rectangle textures start with
    /// CLAMP_TO_EDGE and LINEAR (ARB_texture_rectangle), buffer and multisample textures
    /// are never filtered (NEAREST), everything else uses [`SamplerState::default`].
    pub fn for_target(target: crate::texture::Target) -> Self {
        use crate::texture::Target;
        match target {
            Target::Rect => SamplerState::simple(Filter::Linear, Wrap::ClampToEdge),
            Target::Buffer | Target::T2DMs | Target::Array2DMs => {
                SamplerState::simple(Filter::Nearest, Wrap::ClampToEdge)
            }
            _ => SamplerState::default(),
        }
    }

    /// Sampler with one filter for min and mag, no mipmapping, and one wrap mode.
    pub fn simple(filter: Filter, wrap: Wrap) -> Self {
        SamplerState {
            wrap: [wrap; 3],
            min_filter: MinFilter {
                filter,
                mipmap: None,
            },
            mag_filter: filter,
            ..Default::default()
        }
    }

    /// Sets a parameter from scene-file/GL names: `min mag wrap_s wrap_t wrap_r
    /// compare_func compare_mode depth_mode base_level max_level lod_bias min_lod max_lod
    /// max_anisotropy border_color border_color_i swizzle_r swizzle_g swizzle_b swizzle_a
    /// srgb`, also the GL
    /// names (`TEXTURE_MIN_FILTER`, ...). `value` is a GL enum name (with or without `GL_`)
    /// or number(s); a float border colour is given as numbers.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), String> {
        let key = name
            .trim_start_matches("GL_")
            .trim_start_matches("TEXTURE_")
            .to_ascii_lowercase();
        let v = value.trim();
        let upper = v.to_ascii_uppercase();
        let e = upper.trim_start_matches("GL_").to_string();
        let num = || {
            v.parse::<f32>()
                .map_err(|_| format!("bad number '{v}' for {name}"))
        };
        let int = || {
            v.parse::<u32>()
                .map_err(|_| format!("bad integer '{v}' for {name}"))
        };
        let bad = || format!("bad value '{v}' for {name}");
        match key.as_str() {
            "min" | "min_filter" => self.min_filter = parse_min(&e).ok_or_else(bad)?,
            "mag" | "mag_filter" => {
                self.mag_filter = match e.as_str() {
                    "NEAREST" => Filter::Nearest,
                    "LINEAR" => Filter::Linear,
                    _ => return Err(bad()),
                }
            }
            "wrap_s" => self.wrap[0] = parse_wrap(&e).ok_or_else(bad)?,
            "wrap_t" => self.wrap[1] = parse_wrap(&e).ok_or_else(bad)?,
            "wrap_r" => self.wrap[2] = parse_wrap(&e).ok_or_else(bad)?,
            "compare_func" => self.compare_func = parse_compare(&e).ok_or_else(bad)?,
            "compare_mode" => {
                self.compare_mode = match e.as_str() {
                    "NONE" => false,
                    "COMPARE_REF_TO_TEXTURE"
                    | "COMPARE_R_TO_TEXTURE"
                    | "COMPARE_R_TO_TEXTURE_ARB" => true,
                    _ => return Err(bad()),
                }
            }
            "depth_mode" | "depth_texture_mode" => {
                self.depth_mode = match e.as_str() {
                    "LUMINANCE" => DepthMode::Luminance,
                    "INTENSITY" => DepthMode::Intensity,
                    "ALPHA" => DepthMode::Alpha,
                    "RED" => DepthMode::Red,
                    _ => return Err(bad()),
                }
            }
            "base_level" => self.base_level = int()?,
            "max_level" => self.max_level = int()?,
            "lod_bias" => self.lod_bias = num()?,
            "min_lod" => self.min_lod = num()?,
            "max_lod" => self.max_lod = num()?,
            "max_anisotropy" | "max_anisotropy_ext" => {
                self.max_anisotropy = num()?.clamp(1.0, MAX_ANISOTROPY)
            }
            "border_color_i" | "border_color_ui" | "border_colori" | "border_colorui" => {
                // TexParameterIiv / Iuiv: raw integers for integer textures.
                let parts: Vec<u32> = v
                    .trim_matches(|c| c == '(' || c == ')')
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|s| !s.is_empty())
                    .map(|s| {
                        s.parse::<i64>()
                            .ok()
                            .and_then(|x| {
                                i32::try_from(x)
                                    .map(|x| x as u32)
                                    .ok()
                                    .or(u32::try_from(x).ok())
                            })
                            .ok_or_else(bad)
                    })
                    .collect::<Result<_, _>>()?;
                if parts.len() != 4 {
                    return Err(bad());
                }
                for (b, p) in self.border.iter_mut().zip(parts) {
                    *b = p;
                }
            }
            "border_color" => {
                let parts: Vec<f32> = v
                    .trim_matches(|c| c == '(' || c == ')')
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|s| !s.is_empty())
                    .map(|s| s.parse::<f32>().map_err(|_| bad()))
                    .collect::<Result<_, _>>()?;
                if parts.len() != 4 {
                    return Err(bad());
                }
                for (b, p) in self.border.iter_mut().zip(parts) {
                    *b = p.to_bits();
                }
            }
            "swizzle_r" => self.swizzle[0] = parse_swizzle(&e).ok_or_else(bad)?,
            "swizzle_g" => self.swizzle[1] = parse_swizzle(&e).ok_or_else(bad)?,
            "swizzle_b" => self.swizzle[2] = parse_swizzle(&e).ok_or_else(bad)?,
            "swizzle_a" => self.swizzle[3] = parse_swizzle(&e).ok_or_else(bad)?,
            "srgb" | "srgb_decode" | "srgb_decode_ext" => {
                self.srgb_decode = match e.as_str() {
                    "DECODE" | "DECODE_EXT" | "1" | "TRUE" | "ON" => true,
                    "SKIP_DECODE" | "SKIP_DECODE_EXT" | "0" | "FALSE" | "OFF" => false,
                    _ => return Err(bad()),
                }
            }
            "cube_map_seamless" | "seamless" => self.seamless_cube = v != "0" && e != "FALSE",
            _ => return Err(format!("unknown texture parameter '{name}'")),
        }
        Ok(())
    }
}

/// Parses a wrap mode name (`REPEAT`, `GL_CLAMP_TO_EDGE`, ...).
pub fn parse_wrap(e: &str) -> Option<Wrap> {
    Some(match e.trim_start_matches("GL_") {
        "REPEAT" => Wrap::Repeat,
        "MIRRORED_REPEAT" => Wrap::MirroredRepeat,
        "CLAMP" => Wrap::Clamp,
        "CLAMP_TO_EDGE" => Wrap::ClampToEdge,
        "CLAMP_TO_BORDER" | "CLAMP_TO_BORDER_ARB" => Wrap::ClampToBorder,
        "MIRROR_CLAMP_EXT" | "MIRROR_CLAMP_ATI" => Wrap::MirrorClamp,
        "MIRROR_CLAMP_TO_EDGE" | "MIRROR_CLAMP_TO_EDGE_EXT" | "MIRROR_CLAMP_TO_EDGE_ATI" => {
            Wrap::MirrorClampToEdge
        }
        "MIRROR_CLAMP_TO_BORDER_EXT" => Wrap::MirrorClampToBorder,
        _ => return None,
    })
}

/// Parses a minification filter name (`LINEAR_MIPMAP_NEAREST`, ...).
pub fn parse_min(e: &str) -> Option<MinFilter> {
    let (filter, mipmap) = match e.trim_start_matches("GL_") {
        "NEAREST" => (Filter::Nearest, None),
        "LINEAR" => (Filter::Linear, None),
        "NEAREST_MIPMAP_NEAREST" => (Filter::Nearest, Some(Filter::Nearest)),
        "LINEAR_MIPMAP_NEAREST" => (Filter::Linear, Some(Filter::Nearest)),
        "NEAREST_MIPMAP_LINEAR" => (Filter::Nearest, Some(Filter::Linear)),
        "LINEAR_MIPMAP_LINEAR" => (Filter::Linear, Some(Filter::Linear)),
        _ => return None,
    };
    Some(MinFilter { filter, mipmap })
}

/// Parses a compare function name (`LEQUAL`, ...).
pub fn parse_compare(e: &str) -> Option<CompareFunc> {
    Some(match e.trim_start_matches("GL_") {
        "NEVER" => CompareFunc::Never,
        "LESS" => CompareFunc::Less,
        "EQUAL" => CompareFunc::Equal,
        "LEQUAL" => CompareFunc::Lequal,
        "GREATER" => CompareFunc::Greater,
        "NOTEQUAL" => CompareFunc::Notequal,
        "GEQUAL" => CompareFunc::Gequal,
        "ALWAYS" => CompareFunc::Always,
        _ => return None,
    })
}

/// Parses a swizzle source name (`RED`, `GREEN`, `BLUE`, `ALPHA`, `ZERO`, `ONE`).
pub fn parse_swizzle(e: &str) -> Option<Swizzle> {
    Some(match e.trim_start_matches("GL_") {
        "RED" | "R" => Swizzle::R,
        "GREEN" | "G" => Swizzle::G,
        "BLUE" | "B" => Swizzle::B,
        "ALPHA" | "A" => Swizzle::A,
        "ZERO" | "0" => Swizzle::Zero,
        "ONE" | "1" => Swizzle::One,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_functions() {
        use CompareFunc::*;
        let cases = [
            (Never, false, false, false),
            (Less, true, false, false),
            (Equal, false, true, false),
            (Lequal, true, true, false),
            (Greater, false, false, true),
            (Notequal, true, false, true),
            (Gequal, false, true, true),
            (Always, true, true, true),
        ];
        for (f, lt, eq, gt) in cases {
            assert_eq!(f.test(0.25, 0.5), lt, "{f:?} <");
            assert_eq!(f.test(0.5, 0.5), eq, "{f:?} =");
            assert_eq!(f.test(0.75, 0.5), gt, "{f:?} >");
        }
    }

    #[test]
    fn initial_state_per_target() {
        use crate::texture::Target;
        let r = SamplerState::for_target(Target::Rect);
        assert_eq!(r.wrap, [Wrap::ClampToEdge; 3]);
        assert_eq!(
            r.min_filter,
            MinFilter {
                filter: Filter::Linear,
                mipmap: None
            }
        );
        let d = SamplerState::for_target(Target::T2D);
        assert_eq!(d.min_filter.mipmap, Some(Filter::Linear));
        assert_eq!(d.wrap, [Wrap::Repeat; 3]);
    }

    #[test]
    fn set_params_by_name() {
        let mut s = SamplerState::default();
        s.set_param("min", "GL_LINEAR_MIPMAP_NEAREST").unwrap();
        assert_eq!(
            s.min_filter,
            MinFilter {
                filter: Filter::Linear,
                mipmap: Some(Filter::Nearest)
            }
        );
        s.set_param("wrap_t", "MIRROR_CLAMP_TO_EDGE").unwrap();
        assert_eq!(s.wrap[1], Wrap::MirrorClampToEdge);
        s.set_param("compare_func", "GL_GREATER").unwrap();
        assert!(!s.compare_mode);
        s.set_param("compare_mode", "GL_COMPARE_REF_TO_TEXTURE")
            .unwrap();
        assert!(s.compare_mode);
        assert_eq!(s.compare_func, CompareFunc::Greater);
        s.set_param("border_color", "(0.5, 0, 1, 1)").unwrap();
        assert_eq!(s.border[0], 0.5f32.to_bits());
        s.set_param("border_color_i", "(-1, 2, 4000000000, 0)")
            .unwrap();
        assert_eq!(s.border, [u32::MAX, 2, 4_000_000_000, 0]);
        assert!(s.set_param("border_color_i", "(1, 2)").is_err());
        s.set_param("swizzle_a", "GL_ZERO").unwrap();
        assert_eq!(s.swizzle[3], Swizzle::Zero);
        s.set_param("depth_mode", "gl_intensity").unwrap();
        assert_eq!(s.depth_mode, DepthMode::Intensity);
        s.set_param("wrap_r", "clamp_to_border").unwrap();
        assert_eq!(s.wrap[2], Wrap::ClampToBorder);
        s.set_param("srgb", "GL_SKIP_DECODE_EXT").unwrap();
        assert!(!s.srgb_decode);
        assert!(s.set_param("bogus", "1").is_err());
        assert!(s.set_param("min", "LINEARISH").is_err());
        s.set_param("max_anisotropy", "64").unwrap();
        assert_eq!(s.max_anisotropy, 16.0);
    }
}
