//! Resolving a program's parameter slots (`Program::params`) to values for one draw:
//! constants, env/local/named parameters and the GL state `state.*` bindings read.

use super::gl_enum::{MatrixMode, TrackTransform, TrackedMatrix};
use super::programs::ProgramObject;
use super::state::inverse_or_zero;
use super::state::GlState;
use super::Context;
use crate::error::{Error, Result};
use glam::DMat4;
use glemu_programs::ir::{
    LightProductProp, LightProp, MaterialProp, MatrixModifier, MatrixName, ParamSource,
    StateBinding,
};
use glemu_programs::Program;
use glemu_programs::Stage;

fn bits(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

fn bits64(v: [f64; 4]) -> [u32; 4] {
    v.map(|x| (x as f32).to_bits())
}

/// The matrix a `state.matrix.*` name stands for.
pub(crate) fn named_matrix(st: &GlState, name: MatrixName) -> Result<DMat4> {
    Ok(match name {
        MatrixName::ModelView(0) => st.modelview,
        MatrixName::ModelView(n) => {
            return Err(Error::not_supported(format!(
                "state.matrix.modelview[{n}] (vertex blending)"
            )))
        }
        MatrixName::Projection => st.projection,
        MatrixName::Mvp => st.projection * st.modelview,
        MatrixName::Texture(n) => *st.texture_matrix.get(n as usize).ok_or_else(|| {
            Error::invalid_value(format!("state.matrix.texture[{n}] is out of range"))
        })?,
        MatrixName::Palette(n) => {
            return Err(Error::not_supported(format!(
                "state.matrix.palette[{n}] (matrix palette)"
            )))
        }
        MatrixName::Program(n) => *st.program_matrix.get(n as usize).ok_or_else(|| {
            Error::invalid_value(format!("state.matrix.program[{n}] is out of range"))
        })?,
    })
}

fn modified(m: &DMat4, modifier: MatrixModifier) -> DMat4 {
    match modifier {
        MatrixModifier::None => *m,
        MatrixModifier::Inverse => inverse_or_zero(m),
        MatrixModifier::Transpose => m.transpose(),
        MatrixModifier::InvTrans => inverse_or_zero(m).transpose(),
    }
}

fn mul4(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    [a[0] * b[0], a[1] * b[1], a[2] * b[2], a[3] * b[3]]
}

fn normalize3(v: [f32; 3]) -> [f32; 3] {
    let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if l == 0.0 {
        v
    } else {
        [v[0] / l, v[1] / l, v[2] / l]
    }
}

/// Value of one `state.*` binding.
pub(crate) fn state_value(st: &GlState, b: &StateBinding) -> Result<[u32; 4]> {
    let light = |n: u32| {
        st.lights
            .get(n as usize)
            .ok_or_else(|| Error::invalid_value(format!("state.light[{n}] is out of range")))
    };
    let material = |back: bool| &st.materials[usize::from(back)];
    Ok(match b {
        StateBinding::MatrixRow {
            matrix: name,
            modifier,
            row,
        } => {
            let m = modified(&named_matrix(st, *name)?, *modifier);
            bits64(m.row((*row as usize).min(3)).to_array())
        }
        StateBinding::Material { back, prop } => {
            let m = material(*back);
            bits(match prop {
                MaterialProp::Ambient => m.ambient,
                MaterialProp::Diffuse => m.diffuse,
                MaterialProp::Specular => m.specular,
                MaterialProp::Emission => m.emission,
                MaterialProp::Shininess => [m.shininess, 0.0, 0.0, 1.0],
            })
        }
        StateBinding::Light { light: n, prop } => {
            let l = light(*n)?;
            bits(match prop {
                LightProp::Ambient => l.ambient,
                LightProp::Diffuse => l.diffuse,
                LightProp::Specular => l.specular,
                LightProp::Position => l.position,
                LightProp::Attenuation => [
                    l.attenuation[0],
                    l.attenuation[1],
                    l.attenuation[2],
                    l.spot_exponent,
                ],
                LightProp::SpotDirection => {
                    let d = l.spot_direction;
                    [d[0], d[1], d[2], l.spot_cutoff.to_radians().cos()]
                }
                LightProp::Half => {
                    // infinite viewer: half-angle between the light direction and +z
                    let p = normalize3([l.position[0], l.position[1], l.position[2]]);
                    let h = normalize3([p[0], p[1], p[2] + 1.0]);
                    [h[0], h[1], h[2], 1.0]
                }
            })
        }
        StateBinding::LightModelAmbient => bits(st.light_model_ambient),
        StateBinding::LightModelSceneColor { back } => {
            let m = material(*back);
            let a = st.light_model_ambient;
            bits([
                m.emission[0] + a[0] * m.ambient[0],
                m.emission[1] + a[1] * m.ambient[1],
                m.emission[2] + a[2] * m.ambient[2],
                m.diffuse[3],
            ])
        }
        StateBinding::LightProduct {
            light: n,
            back,
            prop,
        } => {
            let l = light(*n)?;
            let m = material(*back);
            let (lc, mc) = match prop {
                LightProductProp::Ambient => (l.ambient, m.ambient),
                LightProductProp::Diffuse => (l.diffuse, m.diffuse),
                LightProductProp::Specular => (l.specular, m.specular),
            };
            let mut p = mul4(lc, mc);
            p[3] = mc[3];
            bits(p)
        }
        StateBinding::TexGen { unit, coord, eye } => {
            let tg = st.texgen.get(*unit as usize).ok_or_else(|| {
                Error::invalid_value(format!("state.texgen[{unit}] is out of range"))
            })?;
            let planes = if *eye { &tg.eye } else { &tg.object };
            bits(planes[(*coord as usize).min(3)])
        }
        StateBinding::FogColor => bits(st.fog.color),
        StateBinding::FogParams => {
            let f = &st.fog;
            let range = f.end - f.start;
            let inv = if range == 0.0 {
                f32::INFINITY
            } else {
                1.0 / range
            };
            bits([f.density, f.start, f.end, inv])
        }
        StateBinding::ClipPlane(n) => bits64(
            *st.clip_planes
                .get(*n as usize)
                .ok_or_else(|| Error::invalid_value(format!("state.clip[{n}] is out of range")))?,
        ),
        StateBinding::PointSize => bits([st.point_size, 0.0, f32::MAX, 1.0]),
        StateBinding::PointAttenuation => bits([1.0, 0.0, 0.0, 1.0]),
        StateBinding::DepthRange => {
            let [n, f] = st.depth_ranges[0];
            bits64([n, f, f - n, 1.0])
        }
        StateBinding::TexEnvColor(n) => {
            bits(*st.tex_env_color.get(*n as usize).ok_or_else(|| {
                Error::invalid_value(format!("state.texenv[{n}] is out of range"))
            })?)
        }
        StateBinding::Other(name) => {
            return Err(Error::not_supported(format!("state binding '{name}'")))
        }
    })
}

/// # Chapter 11 — Program parameters
impl Context {
    /// Env parameters of stage `t`'s target with `TrackMatrixNV` tracking applied (VP1
    /// tracks into the vertex program's env parameters).
    pub(crate) fn effective_env(&self, t: Stage) -> Result<Vec<[u32; 4]>> {
        let mut env = self.programs.env[t].clone();
        if t == Stage::Vertex {
            for tr in &self.programs.tracking {
                let st = &self.st;
                let m = match tr.matrix {
                    TrackedMatrix::Mode(MatrixMode::ModelView) => st.modelview,
                    TrackedMatrix::Mode(MatrixMode::Projection) => st.projection,
                    TrackedMatrix::ModelViewProjection => st.projection * st.modelview,
                    TrackedMatrix::Mode(MatrixMode::Texture) => {
                        st.texture_matrix
                            [(st.active_texture as usize).min(st.texture_matrix.len() - 1)]
                    }
                    // Program matrices past MAX_PROGRAM_MATRICES do not parse.
                    TrackedMatrix::Mode(MatrixMode::Program(n)) => *st
                        .program_matrix
                        .get(n as usize)
                        .unwrap_or(&DMat4::IDENTITY),
                };
                let m = match tr.transform {
                    TrackTransform::Identity => m,
                    TrackTransform::Inverse => inverse_or_zero(&m),
                    TrackTransform::Transpose => m.transpose(),
                    TrackTransform::InverseTranspose => inverse_or_zero(&m).transpose(),
                };
                for r in 0..4 {
                    if let Some(slot) = env.get_mut(tr.address as usize + r) {
                        *slot = bits64(m.row(r).to_array());
                    }
                }
            }
        }
        Ok(env)
    }

    /// Values of every parameter slot of `program` as loaded in object `obj` for target
    /// stage `t`.
    pub(crate) fn resolve_params(
        &self,
        t: Stage,
        obj: &ProgramObject,
        program: &Program,
    ) -> Result<Vec<[u32; 4]>> {
        let env = self.effective_env(t)?;
        program
            .params
            .iter()
            .map(|p| {
                Ok(match p {
                    ParamSource::Constant(v) => *v,
                    ParamSource::Env(i) => env.get(*i as usize).copied().unwrap_or([0; 4]),
                    ParamSource::Local(i) => obj.local.get(*i as usize).copied().unwrap_or([0; 4]),
                    ParamSource::State(b) => state_value(&self.st, b)?,
                    ParamSource::Named { name, initial } => {
                        obj.named.get(name).copied().unwrap_or(*initial)
                    }
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mvp_rows_and_fog_params() {
        let mut st = GlState::new(10, 10);
        st.projection = DMat4::orthographic_rh_gl(0.0, 10.0, 0.0, 10.0, -1.0, 1.0);
        let r0 = state_value(
            &st,
            &StateBinding::MatrixRow {
                matrix: MatrixName::Mvp,
                modifier: MatrixModifier::None,
                row: 0,
            },
        )
        .unwrap();
        assert_eq!(r0.map(f32::from_bits), [0.2, 0.0, 0.0, -1.0]);
        let inv = state_value(
            &st,
            &StateBinding::MatrixRow {
                matrix: MatrixName::Projection,
                modifier: MatrixModifier::Inverse,
                row: 0,
            },
        )
        .unwrap();
        assert_eq!(inv.map(f32::from_bits), [5.0, 0.0, 0.0, 5.0]);
        st.fog.start = 1.0;
        st.fog.end = 3.0;
        let f = state_value(&st, &StateBinding::FogParams)
            .unwrap()
            .map(f32::from_bits);
        assert_eq!(f, [1.0, 1.0, 3.0, 0.5]);
    }

    #[test]
    fn light_product_takes_material_alpha() {
        let mut st = GlState::new(1, 1);
        st.lights[0].diffuse = [0.5, 0.5, 0.5, 0.25];
        st.materials[0].diffuse = [0.5, 1.0, 0.0, 0.75];
        let p = state_value(
            &st,
            &StateBinding::LightProduct {
                light: 0,
                back: false,
                prop: LightProductProp::Diffuse,
            },
        )
        .unwrap()
        .map(f32::from_bits);
        assert_eq!(p, [0.25, 0.5, 0.0, 0.75]);
    }
}
