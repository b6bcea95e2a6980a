//! `[require]`: the GL version, extensions, sample counts and limits a scene needs,
//! checked against what glemu claims (`crate::caps`); and the "not supported" errors
//! that turn a run into a skip.

use crate::scene::parse::{Require, Scene};

/// GL version glemu reports (×10).
///
/// ```
/// let text = "[require]\nGL >= 4.7\n[test]\nclear\n";
/// assert_eq!(glemu::scene::GL_VERSION, 46);
/// let r = glemu::scene::run_text(text, std::path::Path::new("."));
/// assert!(matches!(r.outcome, glemu::scene::Outcome::Skip(_)));
/// ```
pub use crate::caps::GL_VERSION;
/// Largest sample count.
///
/// ```
/// assert_eq!(glemu::scene::limit("GL_MAX_SAMPLES"), Some(i64::from(glemu::scene::MAX_SAMPLES)));
/// assert!(glemu::Context::with_samples(4, 4, glemu::scene::MAX_SAMPLES).is_ok());
/// ```
pub use crate::caps::MAX_SAMPLES;

/// Extensions glemu claims in `[require]` and `glemu info`: [`crate::caps::EXTENSIONS`].
///
/// ```
/// assert!(glemu::scene::extensions().contains(&"GL_NV_gpu_program5"));
/// ```
pub fn extensions() -> &'static [&'static str] {
    crate::caps::EXTENSIONS
}

/// Integer limits a `[require]` `INT` line may test: the first value of the
/// [`crate::caps::LIMIT_TABLE`] row the name finds.
///
/// ```
/// assert_eq!(glemu::scene::limit("GL_MAX_PROGRAM_ENV_PARAMETERS_ARB"), Some(256));
/// assert_eq!(glemu::scene::limit("GL_NOT_A_LIMIT"), None);
/// ```
pub fn limit(name: &str) -> Option<i64> {
    crate::caps::limit_by_name(name)
        .and_then(|l| l.value.first())
        .map(|&v| i64::from(v))
}

fn compare(op: &str, a: i64, b: i64) -> bool {
    match op {
        ">=" => a >= b,
        ">" => a > b,
        "<=" => a <= b,
        "<" => a < b,
        "==" | "=" => a == b,
        "!=" => a != b,
        _ => false,
    }
}

/// Why the scene would be skipped, if it would.
///
/// ```
/// use glemu::scene::{check_requirements, parse};
/// let ok = parse("[require]\nGL_NV_gpu_program5\n[test]\nclear\n").unwrap();
/// assert_eq!(check_requirements(&ok), None);
/// let skip = parse("[require]\nGL_EXT_no_such_thing\n[test]\nclear\n").unwrap();
/// assert!(check_requirements(&skip).unwrap().contains("GL_EXT_no_such_thing"));
/// ```
pub fn check_requirements(scene: &Scene) -> Option<String> {
    for (_, r) in &scene.requires {
        match r {
            Require::GlVersion { op, version }
                if !compare(op, i64::from(GL_VERSION), i64::from(*version)) =>
            {
                return Some(format!(
                    "GL {op} {}.{} not met (glemu is GL {}.{})",
                    version / 10,
                    version % 10,
                    GL_VERSION / 10,
                    GL_VERSION % 10
                ));
            }
            Require::Extension { name, present } => {
                let have = extensions().contains(&name.as_str());
                if have != *present {
                    return Some(if *present {
                        format!("{name} is not supported")
                    } else {
                        format!("{name} is supported")
                    });
                }
            }
            Require::Samples(n) if *n > MAX_SAMPLES => {
                return Some(format!("{n} samples (max {MAX_SAMPLES})"))
            }
            Require::Limit { name, op, value } => match limit(name) {
                Some(v) if compare(op, v, *value) => {}
                Some(v) => return Some(format!("{name} = {v}, need {op} {value}")),
                None => return Some(format!("unknown limit {name}")),
            },
            _ => {}
        }
    }
    None
}

/// `not supported: X` when an error message says a feature glemu lacks stopped the run.
///
/// ```
/// let r = glemu::scene::run_text("[require]\nSIZE 4 4\nsamples 3\n[test]\nclear\n", std::path::Path::new("."));
/// assert!(matches!(&r.outcome, glemu::scene::Outcome::Skip(w) if w.starts_with("not supported: 3 samples")), "{r:?}");
/// ```
pub(super) fn unsupported(message: &str) -> Option<String> {
    message
        .find("not supported: ")
        .map(|i| message[i..].to_string())
}
