//! Fixed-function stages as programs: when a vertex or fragment target is disabled the
//! draw runs ARB program text generated from the state (and cached by the text, which
//! is the state it depends on).

use super::state::{tex_enable, MAX_TEXTURE_COORDS};
use super::Context;
use crate::error::{Error, Result};
use glemu_programs::{assemble, Program, Stage};
use std::collections::HashMap;
use std::sync::Arc;

/// Generated and rewritten programs.
#[derive(Debug, Default)]
pub(crate) struct FixedCache {
    generated: HashMap<String, Arc<Program>>,
}

fn vertex_text(texmat: &[bool]) -> String {
    let mut s = String::from("!!ARBvp1.0\nPARAM mvp[4] = { state.matrix.mvp };\n");
    for c in ["x", "y", "z", "w"].iter().enumerate() {
        s += &format!(
            "DP4 result.position.{}, mvp[{}], vertex.position;\n",
            c.1, c.0
        );
    }
    s += "MOV result.color, vertex.color;\nMOV result.color.secondary, vertex.color.secondary;\n";
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

fn fragment_text(texture_2d: bool) -> String {
    if texture_2d {
        "!!ARBfp1.0\nTEMP t;\nTEX t, fragment.texcoord[0], texture[0], 2D;\nMUL result.color, fragment.color, t;\nEND\n".into()
    } else {
        "!!ARBfp1.0\nMOV result.color, fragment.color;\nEND\n".into()
    }
}

impl Context {
    /// The generated program standing in for a disabled vertex or fragment target.
    pub(crate) fn fixed_function_program(&mut self, stage: Stage) -> Result<Arc<Program>> {
        let st = &self.st;
        let text = match stage {
            Stage::Vertex => {
                if st.lighting {
                    return Err(Error::not_supported(
                        "fixed-function lighting (use a vertex program)",
                    ));
                }
                let texmat: Vec<bool> = (0..MAX_TEXTURE_COORDS)
                    .map(|u| st.texture_matrix[u] != super::matrix::IDENTITY)
                    .collect();
                vertex_text(&texmat)
            }
            Stage::Fragment => {
                if st.fog_enabled {
                    return Err(Error::not_supported(
                        "fixed-function fog (use a fragment program)",
                    ));
                }
                let e = st.texture_enables.first().copied().unwrap_or(0);
                if e & !tex_enable::T2D != 0 {
                    return Err(Error::not_supported(
                        "fixed-function texturing of targets other than 2D",
                    ));
                }
                fragment_text(e & tex_enable::T2D != 0)
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
        let program = assemble(&text, Some(stage)).map_err(|e| {
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
    fn generated_texts_name_the_state_they_read() {
        assert!(vertex_text(&[false, true]).contains("state.matrix.texture[1]"));
        assert!(fragment_text(true).contains("TEX"));
        assert!(!fragment_text(false).contains("TEX"));
    }
}
