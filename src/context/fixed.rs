//! Fixed-function stages as programs: when a vertex or fragment target is disabled the
//! draw runs ARB program text generated from the state (and cached by the text, which
//! is the state it depends on).

use super::gl_enum::{ColorMaterialMode, Face, FogCoordSrc, FogMode, GlEnum};
use super::state::{tex_enable, GlState, MAX_LIGHTS, MAX_TEXTURE_COORDS};
use super::Context;
use crate::error::{Error, Result};
use crate::gl;
use glemu_programs::{assemble_with, Program, Stage};
use glemu_textures::Target;
use std::collections::HashMap;
use std::sync::Arc;

/// Generated and rewritten programs.
#[derive(Debug, Default)]
pub(crate) struct FixedCache {
    generated: HashMap<String, Arc<Program>>,
}

/// What the generated vertex program depends on besides texture matrices.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct VertexFixed {
    pub lighting: Option<Lighting>,
    /// Fog coordinate to write: `Some(true)` = `|z_eye|` (FRAGMENT_DEPTH), `Some(false)` =
    /// the vertex's fog coordinate.
    pub fog_depth: Option<bool>,
}

/// The lighting configuration (GL 2.1 section 2.14.1).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Lighting {
    /// Enabled lights: (index, local, spot).
    pub lights: Vec<(usize, bool, bool)>,
    pub local_viewer: bool,
    pub two_side: bool,
    pub separate_specular: bool,
    pub normalize: bool,
    /// COLOR_MATERIAL: per face (front, back), the material properties that track the
    /// vertex colour (bits: AMBIENT, DIFFUSE, SPECULAR, EMISSION).
    pub tracked: [u8; 2],
}

const T_AMBIENT: u8 = 1;
const T_DIFFUSE: u8 = 2;
const T_SPECULAR: u8 = 4;
const T_EMISSION: u8 = 8;

/// The material properties `glColorMaterial(face, mode)` makes track the colour, per face.
fn tracked(face: Face, mode: ColorMaterialMode) -> [u8; 2] {
    let bits = match mode {
        ColorMaterialMode::Ambient => T_AMBIENT,
        ColorMaterialMode::Diffuse => T_DIFFUSE,
        ColorMaterialMode::Specular => T_SPECULAR,
        ColorMaterialMode::Emission => T_EMISSION,
        ColorMaterialMode::AmbientAndDiffuse => T_AMBIENT | T_DIFFUSE,
    };
    match face {
        Face::Front => [bits, 0],
        Face::Back => [0, bits],
        Face::FrontAndBack => [bits, bits],
    }
}

/// GL 2.1 lighting of one face for light `i`, added to `col` (and `spec` when the
/// specular colour is separate); `dir`, `h`, `att` hold the light's vector, half vector
/// and attenuation × spot factor. ARB programs read state only through PARAMs, so the
/// light products are declared here as `L{i}{f|b}{a|d|s}`.
fn light_face(s: &mut String, i: usize, back: bool, separate: bool, tracked: u8) {
    let (face, f, n, col, spec) = if back {
        ("back.", "b", "-n", "bcol", "bspec")
    } else {
        ("", "f", "n", "col", "spec")
    };
    // Each product is light × material; a material property that tracks the colour
    // (COLOR_MATERIAL) is multiplied in here instead of in the bound state.
    let mut operand = |prop: &str, bit: u8, temp: &str| -> String {
        let p = &prop[..1];
        if tracked & bit != 0 {
            *s += &format!("PARAM L{i}{f}{p}l = state.light[{i}].{prop};\n");
            *s += &format!("MUL {temp}, L{i}{f}{p}l, vertex.color;\n");
            temp.to_string()
        } else {
            *s += &format!("PARAM L{i}{f}{p} = state.lightprod[{i}].{face}{prop};\n");
            format!("L{i}{f}{p}")
        }
    };
    let a = operand("ambient", T_AMBIENT, "pa");
    let d = operand("diffuse", T_DIFFUSE, "pd");
    let sp = operand("specular", T_SPECULAR, "ps");
    *s += &format!(
        "DP3 tmp.x, {n}, dir;\nDP3 tmp.y, {n}, h;\nMOV tmp.w, state.material.{face}shininess.x;\nLIT lit, tmp;\n"
    );
    *s += &format!("MAD acc.xyz, lit.y, {d}, {a};\n");
    if separate {
        *s += &format!("MAD {col}.xyz, acc, att.x, {col};\n");
        *s += &format!("MUL acc.xyz, lit.z, {sp};\nMAD {spec}.xyz, acc, att.x, {spec};\n");
    } else {
        *s += &format!("MAD acc.xyz, lit.z, {sp}, acc;\nMAD {col}.xyz, acc, att.x, {col};\n");
    }
}

/// The colour lighting starts from: emission + model ambient × material ambient, alpha =
/// material diffuse alpha (GL 2.1 section 2.14.1), with tracked properties taken from
/// the vertex colour.
fn scene_color(s: &mut String, back: bool, tracked: u8) {
    let (face, f, col) = if back {
        ("back.", "b", "bcol")
    } else {
        ("", "f", "col")
    };
    if tracked & (T_AMBIENT | T_EMISSION) == 0 {
        *s +=
            &format!("PARAM {f}scene = state.lightmodel.{face}scenecolor;\nMOV {col}, {f}scene;\n");
    } else {
        let em = if tracked & T_EMISSION != 0 {
            "vertex.color".to_string()
        } else {
            *s += &format!("PARAM {f}em = state.material.{face}emission;\n");
            format!("{f}em")
        };
        let am = if tracked & T_AMBIENT != 0 {
            "vertex.color".to_string()
        } else {
            *s += &format!("PARAM {f}am = state.material.{face}ambient;\n");
            format!("{f}am")
        };
        *s += &format!(
            "PARAM {f}lma = state.lightmodel.ambient;\nMAD {col}.xyz, {f}lma, {am}, {em};\n"
        );
        *s += &format!("PARAM {f}md = state.material.{face}diffuse;\nMOV {col}.w, {f}md.w;\n");
    }
    if tracked & T_DIFFUSE != 0 {
        *s += &format!("MOV {col}.w, vertex.color.w;\n");
    }
}

fn lighting_text(s: &mut String, l: &Lighting) {
    *s += "PARAM mvit[4] = { state.matrix.modelview.invtrans };\n";
    *s += "PARAM c = { 0, 1, 0.5, 0 };\n";
    *s += "TEMP n, dir, h, t, tmp, lit, att, acc, col, spec, bcol, bspec, ve, pa, pd, ps;\n";
    for (k, c) in ["x", "y", "z"].iter().enumerate() {
        *s += &format!("DP3 n.{c}, mvit[{k}], vertex.normal;\n");
    }
    if l.normalize {
        *s += "DP3 t.x, n, n;\nRSQ t.x, t.x;\nMUL n.xyz, n, t.x;\n";
    }
    if l.local_viewer {
        // The eye is at the origin: VPe = normalize(-eye).
        *s += "DP3 t.x, eye, eye;\nRSQ t.x, t.x;\nMUL ve.xyz, -eye, t.x;\n";
    }
    scene_color(s, false, l.tracked[0]);
    *s += "MOV spec, c.x;\n";
    if l.two_side {
        scene_color(s, true, l.tracked[1]);
        *s += "MOV bspec, c.x;\n";
    }
    for &(i, local, spot) in &l.lights {
        *s += &format!("PARAM L{i}pos = state.light[{i}].position;\n");
        *s += &format!("PARAM L{i}att = state.light[{i}].attenuation;\n");
        if local {
            // VP = P/w - V; attenuation 1 / (k0 + k1 d + k2 d^2) with DST = (1, d, d^2, 1/d).
            *s += &format!(
                "RCP t.x, L{i}pos.w;\nMUL tmp.xyz, L{i}pos, t.x;\nSUB dir.xyz, tmp, eye;\n"
            );
            *s += "DP3 t.w, dir, dir;\nRSQ t.y, t.w;\nMUL dir.xyz, dir, t.y;\nDST tmp, t.w, t.y;\n";
            *s += &format!("DP3 att.x, tmp, L{i}att;\nRCP att.x, att.x;\n");
        } else {
            *s += &format!("DP3 t.w, L{i}pos, L{i}pos;\nRSQ t.w, t.w;\nMUL dir.xyz, L{i}pos, t.w;\nMOV att.x, c.y;\n");
        }
        if spot {
            // Spot factor: (-VP . s)^e inside the cone (cos >= cos(cutoff)), 0 outside.
            *s += &format!("PARAM L{i}spot = state.light[{i}].spot.direction;\n");
            *s += &format!(
                "DP3 t.w, L{i}spot, L{i}spot;\nRSQ t.w, t.w;\nMUL tmp.xyz, L{i}spot, t.w;\n"
            );
            *s += &format!("DP3 t.x, -dir, tmp;\nSGE t.y, t.x, L{i}spot.w;\nMAX t.x, t.x, c.x;\n");
            *s +=
                &format!("POW t.x, t.x, L{i}att.w;\nMUL t.x, t.x, t.y;\nMUL att.x, att.x, t.x;\n");
        }
        let eye_dir = if l.local_viewer { "ve" } else { "c.xxyx" };
        *s += &format!(
            "ADD h.xyz, dir, {eye_dir};\nDP3 t.w, h, h;\nRSQ t.w, t.w;\nMUL h.xyz, h, t.w;\n"
        );
        light_face(s, i, false, l.separate_specular, l.tracked[0]);
        if l.two_side {
            light_face(s, i, true, l.separate_specular, l.tracked[1]);
        }
    }
    *s += "MOV result.color, col;\nMOV result.color.secondary, spec;\n";
    if l.two_side {
        *s += "MOV result.color.back, bcol;\nMOV result.color.back.secondary, bspec;\n";
    }
}

fn vertex_text(texmat: &[bool], fixed: &VertexFixed) -> String {
    let mut s = String::from("!!ARBvp1.0\nPARAM mvp[4] = { state.matrix.mvp };\n");
    for c in ["x", "y", "z", "w"].iter().enumerate() {
        s += &format!(
            "DP4 result.position.{}, mvp[{}], vertex.position;\n",
            c.1, c.0
        );
    }
    if fixed.lighting.is_some() || fixed.fog_depth == Some(true) {
        s += "PARAM mv[4] = { state.matrix.modelview };\nTEMP eye;\n";
        for (i, c) in ["x", "y", "z", "w"].iter().enumerate() {
            s += &format!("DP4 eye.{c}, mv[{i}], vertex.position;\n");
        }
    }
    match &fixed.lighting {
        Some(l) => lighting_text(&mut s, l),
        None => {
            s += "MOV result.color, vertex.color;\nMOV result.color.secondary, vertex.color.secondary;\n"
        }
    }
    match fixed.fog_depth {
        // GL allows the eye-plane distance |z_eye| for the fragment's distance to the eye.
        Some(true) => s += "ABS result.fogcoord.x, eye.z;\n",
        Some(false) => s += "MOV result.fogcoord.x, vertex.fogcoord.x;\n",
        None => {}
    }
    for (u, &m) in texmat.iter().enumerate() {
        if m {
            s += &format!("PARAM tm{u}[4] = {{ state.matrix.texture[{u}] }};\n");
            for (i, c) in ["x", "y", "z", "w"].iter().enumerate() {
                s += &format!("DP4 result.texcoord[{u}].{c}, tm{u}[{i}], vertex.texcoord[{u}];\n");
            }
        } else {
            s += &format!("MOV result.texcoord[{u}], vertex.texcoord[{u}];\n");
        }
    }
    s += "END\n";
    s
}

/// `ARB_fog_*` option of a fog mode: the fragment program blends with the fog colour by
/// GL's fog factor of the interpolated fog coordinate (GL 2.1 section 3.10).
fn fog_option(mode: FogMode) -> &'static str {
    match mode {
        FogMode::Linear => "OPTION ARB_fog_linear;\n",
        FogMode::Exp => "OPTION ARB_fog_exp;\n",
        FogMode::Exp2 => "OPTION ARB_fog_exp2;\n",
    }
}

/// The fixed-function fragment stage: texture 2D on unit 0 (MODULATE), colour sum
/// (GL 2.1 section 3.9: the secondary colour added, then clamped), fog.
fn fragment_text(texture_2d: bool, color_sum: bool, fog: Option<FogMode>) -> String {
    let mut s = String::from("!!ARBfp1.0\n");
    if let Some(mode) = fog {
        s += fog_option(mode);
    }
    let out = if color_sum { "c" } else { "result.color" };
    if color_sum {
        s += "TEMP c;\n";
    }
    if texture_2d {
        s += &format!(
            "TEMP t;\nTEX t, fragment.texcoord[0], texture[0], 2D;\nMUL {out}, fragment.color, t;\n"
        );
    } else {
        s += &format!("MOV {out}, fragment.color;\n");
    }
    if color_sum {
        s += "ADD_SAT result.color.xyz, c, fragment.color.secondary;\nMOV result.color.w, c.w;\n";
    }
    s += "END\n";
    s
}

/// The lighting and fog configuration the vertex program is generated for.
fn vertex_fixed(st: &GlState) -> Result<VertexFixed> {
    let lighting = if st.lighting {
        let lights = (0..MAX_LIGHTS)
            .filter(|&i| st.light_enabled[i])
            .filter_map(|i| {
                let l = st.lights.get(i)?;
                Some((i, l.position[3] != 0.0, l.spot_cutoff != 180.0))
            })
            .collect();
        Some(Lighting {
            lights,
            local_viewer: st.local_viewer,
            two_side: st.light_two_side,
            separate_specular: st.separate_specular,
            normalize: st.normalize,
            tracked: if st.color_material {
                tracked(st.color_material_face, st.color_material_mode)
            } else {
                [0, 0]
            },
        })
    } else {
        None
    };
    Ok(VertexFixed {
        lighting,
        fog_depth: st
            .fog_enabled
            .then_some(st.fog_coord_src == FogCoordSrc::FragmentDepth),
    })
}

/// # Chapter 12 — Fixed-function pipeline (programs generated from state)
impl Context {
    /// `glLightModeli` for `LIGHT_MODEL_LOCAL_VIEWER`, `LIGHT_MODEL_TWO_SIDE` (0 or not)
    /// and `LIGHT_MODEL_COLOR_CONTROL` (`SINGLE_COLOR` or `SEPARATE_SPECULAR_COLOR`), used by
    /// fixed-function lighting. (`LIGHT_MODEL_AMBIENT` is [`Context::light_model_ambient`].)
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.light_model_i(gl::LIGHT_MODEL_TWO_SIDE, 1).unwrap();
    /// ctx.light_model_i(gl::LIGHT_MODEL_COLOR_CONTROL, gl::SEPARATE_SPECULAR_COLOR as i32).unwrap();
    /// let e = ctx.light_model_i(gl::LIGHT_MODEL_COLOR_CONTROL, 7).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidEnum);
    /// ```
    pub fn light_model_i(&mut self, pname: u32, value: i32) -> Result<()> {
        match pname {
            gl::LIGHT_MODEL_LOCAL_VIEWER => self.st.local_viewer = value != 0,
            gl::LIGHT_MODEL_TWO_SIDE => self.st.light_two_side = value != 0,
            gl::LIGHT_MODEL_COLOR_CONTROL => {
                self.st.separate_specular = match value as u32 {
                    gl::SINGLE_COLOR => false,
                    gl::SEPARATE_SPECULAR_COLOR => true,
                    v => return Err(Error::invalid_enum("light model colour control", v)),
                }
            }
            p => return Err(Error::invalid_enum("light model parameter", p)),
        }
        Ok(())
    }

    /// `glColorMaterial(face, mode)`: with `COLOR_MATERIAL` enabled, the `mode` property
    /// (`EMISSION`, `AMBIENT`, `DIFFUSE`, `SPECULAR` or `AMBIENT_AND_DIFFUSE`, the
    /// default) of the `face` material (`FRONT`, `BACK`, `FRONT_AND_BACK`) is the vertex
    /// colour in fixed-function lighting.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// let mut ctx = Context::new(4, 4).unwrap();
    /// ctx.color_material(gl::FRONT, gl::DIFFUSE).unwrap();
    /// let e = ctx.color_material(gl::FRONT, gl::SHININESS).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidEnum);
    /// ```
    pub fn color_material(&mut self, face: u32, mode: u32) -> Result<()> {
        let face = Face::parse(face)?;
        self.st.color_material_mode = ColorMaterialMode::parse(mode)?;
        self.st.color_material_face = face;
        Ok(())
    }

    /// The generated program standing in for a disabled vertex or fragment target.
    pub(crate) fn fixed_function_program(&mut self, stage: Stage) -> Result<Arc<Program>> {
        let st = &self.st;
        let text = match stage {
            Stage::Vertex => {
                let texmat: Vec<bool> = (0..MAX_TEXTURE_COORDS)
                    .map(|u| st.texture_matrix[u] != glam::DMat4::IDENTITY)
                    .collect();
                vertex_text(&texmat, &vertex_fixed(st)?)
            }
            Stage::Fragment => {
                let e = st.texture_enables.first().copied().unwrap_or(0);
                if e & !tex_enable::T2D != 0 {
                    return Err(Error::not_supported(
                        "fixed-function texturing of targets other than 2D",
                    ));
                }
                // Fixed-function lighting always sums the colours (ARB_vertex_program 3.9).
                let color_sum = st.color_sum || (st.lighting && !st.program_enabled[Stage::Vertex]);
                // An incomplete texture disables fixed-function texturing on its unit
                // (GL 2.1 section 3.8.10).
                let textured = e & tex_enable::T2D != 0 && self.bound_complete(0, Target::T2D);
                fragment_text(textured, color_sum, st.fog_enabled.then_some(st.fog.mode))
            }
            s => {
                return Err(Error::not_supported(format!(
                    "fixed-function {} stage",
                    s.name()
                )))
            }
        };
        if let Some(p) = self.fixed.generated.get(&text) {
            return Ok(Arc::clone(p));
        }
        let program = assemble_with(&text, Some(stage), &crate::caps::LIMITS).map_err(|e| {
            Error::not_supported(format!(
                "fixed-function {} program: {}",
                stage.name(),
                e.render(&text)
            ))
        })?;
        let p = Arc::new(program);
        self.fixed.generated.insert(text, Arc::clone(&p));
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lighting_variant_assembles() {
        for (local, spot, local_viewer, two_side, separate, normalize) in [
            (false, false, false, false, false, false),
            (true, true, true, true, true, true),
            (true, false, false, true, false, false),
            (false, true, true, false, true, true),
        ] {
            let fixed = VertexFixed {
                lighting: Some(Lighting {
                    lights: vec![(0, local, spot), (7, !local, spot)],
                    local_viewer,
                    two_side,
                    separate_specular: separate,
                    normalize,
                    tracked: if local {
                        [T_AMBIENT | T_DIFFUSE, T_EMISSION | T_SPECULAR]
                    } else {
                        [0, T_AMBIENT]
                    },
                }),
                fog_depth: Some(local),
            };
            let text = vertex_text(&[true], &fixed);
            if let Err(e) = glemu_programs::assemble(&text, Some(Stage::Vertex)) {
                panic!("{}\n{text}", e.render(&text));
            }
        }
        for (sum, mode) in [
            (true, FogMode::Linear),
            (false, FogMode::Exp),
            (true, FogMode::Exp2),
        ] {
            let text = fragment_text(sum, sum, Some(mode));
            assert!(
                glemu_programs::assemble(&text, Some(Stage::Fragment)).is_ok(),
                "{text}"
            );
        }
    }

    /// A quad over the window through the conventional vertex array, counter-clockwise
    /// (front-facing) or clockwise.
    fn quad(ctx: &mut Context, ccw: bool) {
        let mut q: Vec<f32> = vec![-1., -1., 1., -1., 1., 1., -1., -1., 1., 1., -1., 1.];
        if !ccw {
            for v in q.chunks_mut(2) {
                v[0] = -v[0];
            }
        }
        ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
        ctx.buffer_data(gl::ARRAY_BUFFER, &q, gl::STATIC_DRAW)
            .unwrap();
        ctx.vertex_pointer(2, gl::FLOAT, 0, 0).unwrap();
        ctx.enable_client_state(gl::VERTEX_ARRAY).unwrap();
        ctx.draw_arrays(gl::TRIANGLES, 0, 6).unwrap();
    }

    fn unorm(v: [f32; 4]) -> [f32; 4] {
        v.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() / 255.0)
    }

    /// One infinite light along the normal: scene colour 0.2 * 0.2 plus diffuse 0.8 * 1
    /// (GL 2.1 defaults), 0.84 -> 214/255.
    #[test]
    fn headlight_on_a_facing_quad() {
        let mut ctx = Context::new(4, 4).unwrap();
        ctx.enable(gl::LIGHTING).unwrap();
        ctx.enable(gl::LIGHT0).unwrap();
        quad(&mut ctx, true);
        assert_eq!(
            ctx.read_pixel(1, 1).unwrap(),
            unorm([0.84, 0.84, 0.84, 1.0])
        );
        // Light 0 off: only the scene colour 0.04.
        ctx.disable(gl::LIGHT0).unwrap();
        quad(&mut ctx, true);
        assert_eq!(
            ctx.read_pixel(1, 1).unwrap(),
            unorm([0.04, 0.04, 0.04, 1.0])
        );
    }

    /// Back faces: lit with the back material and the negated normal when two-sided,
    /// with the front colour otherwise (GL 2.1 section 2.14.1, "two-sided lighting").
    #[test]
    fn two_sided_lighting_uses_the_back_material() {
        let mut ctx = Context::new(4, 4).unwrap();
        ctx.enable(gl::LIGHTING).unwrap();
        ctx.enable(gl::LIGHT0).unwrap();
        // The light comes from behind the quad (-z), where the back face looks.
        ctx.light_fv(gl::LIGHT0, gl::POSITION, &[0.0, 0.0, -1.0, 0.0])
            .unwrap();
        ctx.material_fv(gl::BACK, gl::DIFFUSE, &[0.0, 0.5, 0.0, 1.0])
            .unwrap();
        quad(&mut ctx, false);
        // One-sided: the front normal (0, 0, 1) faces away from the light.
        assert_eq!(
            ctx.read_pixel(1, 1).unwrap(),
            unorm([0.04, 0.04, 0.04, 1.0])
        );
        ctx.light_model_i(gl::LIGHT_MODEL_TWO_SIDE, 1).unwrap();
        quad(&mut ctx, false);
        assert_eq!(
            ctx.read_pixel(1, 1).unwrap(),
            unorm([0.04, 0.54, 0.04, 1.0])
        );
        // Front faces keep the front material.
        quad(&mut ctx, true);
        assert_eq!(
            ctx.read_pixel(1, 1).unwrap(),
            unorm([0.04, 0.04, 0.04, 1.0])
        );
    }

    /// SEPARATE_SPECULAR_COLOR moves the specular term to the secondary colour, which the
    /// colour sum adds back after texturing: untextured, the sum equals the single colour.
    #[test]
    fn separate_specular_is_summed_after_texturing() {
        let mut ctx = Context::new(4, 4).unwrap();
        ctx.enable(gl::LIGHTING).unwrap();
        ctx.enable(gl::LIGHT0).unwrap();
        ctx.material_fv(gl::FRONT, gl::SPECULAR, &[0.1, 0.1, 0.1, 1.0])
            .unwrap();
        // n = h = (0, 0, 1): the specular term is 0.1 * 1^0.
        quad(&mut ctx, true);
        let single = ctx.read_pixel(1, 1).unwrap();
        assert_eq!(single, unorm([0.94, 0.94, 0.94, 1.0]));
        ctx.light_model_i(
            gl::LIGHT_MODEL_COLOR_CONTROL,
            gl::SEPARATE_SPECULAR_COLOR as i32,
        )
        .unwrap();
        quad(&mut ctx, true);
        assert_eq!(ctx.read_pixel(1, 1).unwrap(), single);
        // A black texture removes the primary colour only.
        ctx.bind_texture(gl::TEXTURE_2D, 5).unwrap();
        let black = [0u8, 0, 0, 255];
        ctx.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8,
            1,
            1,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&black),
        )
        .unwrap();
        ctx.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32)
            .unwrap();
        ctx.enable(gl::TEXTURE_2D).unwrap();
        quad(&mut ctx, true);
        assert_eq!(ctx.read_pixel(1, 1).unwrap(), unorm([0.1, 0.1, 0.1, 1.0]));
        // A 2x2 texture with only level 0 and a mipmap filter is incomplete: as if
        // texturing were disabled (GL 2.1 section 3.8.10).
        let black = black.repeat(4);
        ctx.tex_image_2d(
            gl::TEXTURE_2D,
            0,
            gl::RGBA8,
            2,
            2,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            Some(&black),
        )
        .unwrap();
        let mip = gl::NEAREST_MIPMAP_NEAREST as i32;
        ctx.tex_parameter_i(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, mip)
            .unwrap();
        quad(&mut ctx, true);
        assert_eq!(ctx.read_pixel(1, 1).unwrap(), single);
        ctx.generate_mipmap(gl::TEXTURE_2D).unwrap();
        quad(&mut ctx, true);
        assert_eq!(ctx.read_pixel(1, 1).unwrap(), unorm([0.1, 0.1, 0.1, 1.0]));
    }

    /// Fog from the vertex's fog coordinate (FOG_COORD_SRC = FOG_COORD), LINEAR from 0 to
    /// 1: f = 1 - c, colour = f * C + (1 - f) * fog colour (GL 2.1 section 3.10).
    #[test]
    fn linear_fog_of_the_fog_coordinate() {
        let mut ctx = Context::new(4, 4).unwrap();
        ctx.enable(gl::FOG).unwrap();
        ctx.fog_fv(gl::FOG_MODE, &[gl::LINEAR as f32]).unwrap();
        ctx.fog_fv(gl::FOG_START, &[0.0]).unwrap();
        ctx.fog_fv(gl::FOG_END, &[1.0]).unwrap();
        ctx.fog_fv(gl::FOG_COLOR, &[1.0, 0.0, 0.0, 1.0]).unwrap();
        ctx.fog_fv(gl::FOG_COORD_SRC, &[gl::FOG_COORD as f32])
            .unwrap();
        ctx.st.current_color = [0.0, 0.0, 1.0, 1.0];
        ctx.st.current_fog_coord = 0.25;
        quad(&mut ctx, true);
        assert_eq!(ctx.read_pixel(1, 1).unwrap(), unorm([0.25, 0.0, 0.75, 1.0]));
        // From the depth instead: the quad is at z_eye = 0, so no fog.
        ctx.fog_fv(gl::FOG_COORD_SRC, &[gl::FRAGMENT_DEPTH as f32])
            .unwrap();
        quad(&mut ctx, true);
        assert_eq!(ctx.read_pixel(1, 1).unwrap(), unorm([0.0, 0.0, 1.0, 1.0]));
        let e = ctx
            .fog_fv(gl::FOG_COORD_SRC, &[gl::FOG as f32])
            .unwrap_err();
        assert_eq!(e.gl, crate::GlError::InvalidEnum);
    }

    /// COLOR_MATERIAL (AMBIENT_AND_DIFFUSE): the colour (0.5, 0.2, 0, 0.5) is the material
    /// ambient and diffuse: 0.2 * c + 1 * c = 1.2 * c.
    #[test]
    fn color_material_tracks_the_vertex_colour() {
        let mut ctx = Context::new(4, 4).unwrap();
        ctx.enable(gl::LIGHTING).unwrap();
        ctx.enable(gl::LIGHT0).unwrap();
        ctx.enable(gl::COLOR_MATERIAL).unwrap();
        ctx.st.current_color = [0.5, 0.2, 0.0, 0.5];
        quad(&mut ctx, true);
        assert_eq!(ctx.read_pixel(1, 1).unwrap(), unorm([0.6, 0.24, 0.0, 0.5]));
        // EMISSION only: 0.04 + 0.8 from the default material, plus the colour.
        ctx.color_material(gl::FRONT_AND_BACK, gl::EMISSION)
            .unwrap();
        quad(&mut ctx, true);
        assert_eq!(ctx.read_pixel(1, 1).unwrap(), unorm([1.0, 1.0, 0.84, 1.0]));
    }

    #[test]
    fn generated_texts_name_the_state_they_read() {
        let plain = VertexFixed::default();
        assert!(vertex_text(&[false, true], &plain).contains("state.matrix.texture[1]"));
        assert!(fragment_text(true, false, None).contains("TEX"));
        assert!(!fragment_text(false, false, None).contains("TEX"));
        assert!(fragment_text(false, false, Some(FogMode::Exp2)).contains("ARB_fog_exp2"));
        assert!(fragment_text(false, true, None).contains("fragment.color.secondary"));
    }
}
