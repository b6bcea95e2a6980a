//! Finding the scenes the harness runs: the suite's own scenes, the piglit corpus and the
//! shared NV example scenes.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// One scene to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneEntry {
    /// Stable name used in reports and in `expected-failures.txt`, e.g.
    /// `raster/blend_src_alpha`, `piglit/arb_fragment_program/kil-swizzle`,
    /// `shared/ldc_basic`.
    pub id: String,
    /// The summary group: the scene folder for suite scenes, `piglit/<dir>` for the
    /// corpus, `shared` for the shared NV scenes.
    pub group: String,
    /// The scene file glemu runs.
    pub path: PathBuf,
}

/// Where the three scene sources live; the external two may be absent.
#[derive(Clone, Debug)]
pub struct Roots {
    /// `reftests/scenes`.
    pub suite: PathBuf,
    /// `shared/corpus/piglit/tests`.
    pub piglit: Option<PathBuf>,
    /// `shared/scenes`.
    pub shared_scenes: Option<PathBuf>,
}

/// All files below `dir` (recursively) whose names satisfy `keep`, sorted. A missing
/// directory yields no files: the corpus is optional outside the shared checkout.
fn walk(dir: &Path, keep: &dyn Fn(&str) -> bool, out: &mut Vec<PathBuf>) -> io::Result<()> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            walk(&path, keep, out)?;
        } else if path.file_name().and_then(|n| n.to_str()).is_some_and(keep) {
            out.push(path);
        }
    }
    out.sort();
    Ok(())
}

fn rel_id(root: &Path, path: &Path, strip: &str) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let s: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let joined = s.join("/");
    joined.strip_suffix(strip).unwrap_or(&joined).to_string()
}

/// The suite's scenes: every `NAME.shader_test` below `suite` except the oracle twins
/// (`NAME.glsl.shader_test`), grouped by their folder.
pub fn suite_scenes(suite: &Path) -> io::Result<Vec<SceneEntry>> {
    let mut files = Vec::new();
    walk(
        suite,
        &|n| n.ends_with(".shader_test") && !n.ends_with(".glsl.shader_test"),
        &mut files,
    )?;
    Ok(files
        .into_iter()
        .map(|path| {
            let id = rel_id(suite, &path, ".shader_test");
            let group = id.rsplit_once('/').map_or("", |(g, _)| g).to_string();
            SceneEntry { id, group, path }
        })
        .collect())
}

/// The piglit corpus: `spec/**/*.shader_test` and `shaders/generic/*.vpfp`, grouped by
/// their first directory below `spec/` (or `shaders/generic`).
pub fn piglit_scenes(piglit: &Path) -> io::Result<Vec<SceneEntry>> {
    let mut out = Vec::new();
    let spec = piglit.join("spec");
    let mut files = Vec::new();
    walk(&spec, &|n| n.ends_with(".shader_test"), &mut files)?;
    for path in files {
        let rel = rel_id(&spec, &path, ".shader_test");
        let dir = rel.split('/').next().unwrap_or("").to_string();
        out.push(SceneEntry {
            id: format!("piglit/{rel}"),
            group: format!("piglit/{dir}"),
            path,
        });
    }
    let generic = piglit.join("shaders").join("generic");
    let mut files = Vec::new();
    walk(&generic, &|n| n.ends_with(".vpfp"), &mut files)?;
    for path in files {
        let rel = rel_id(&generic, &path, "");
        out.push(SceneEntry {
            id: format!("piglit/generic/{rel}"),
            group: "piglit/generic".to_string(),
            path,
        });
    }
    Ok(out)
}

/// The shared NV example scenes `*.nv.shader_test`.
pub fn shared_scenes(dir: &Path) -> io::Result<Vec<SceneEntry>> {
    let mut files = Vec::new();
    walk(dir, &|n| n.ends_with(".nv.shader_test"), &mut files)?;
    Ok(files
        .into_iter()
        .map(|path| SceneEntry {
            id: format!("shared/{}", rel_id(dir, &path, ".nv.shader_test")),
            group: "shared".to_string(),
            path,
        })
        .collect())
}

/// Every scene of the three sources, suite first.
pub fn all_scenes(roots: &Roots) -> io::Result<Vec<SceneEntry>> {
    let mut all = suite_scenes(&roots.suite)?;
    if let Some(piglit) = &roots.piglit {
        all.extend(piglit_scenes(piglit)?);
    }
    if let Some(shared) = &roots.shared_scenes {
        all.extend(shared_scenes(shared)?);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty directory, removed when the test ends (passed or failed).
    fn tmpdir(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("glemu-reftests-{name}-"))
            .tempdir()
            .expect("temp dir")
    }

    fn touch(p: &Path) {
        fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        fs::write(p, "x").expect("write");
    }

    #[test]
    fn suite_skips_twins_and_groups_by_folder() {
        let t = tmpdir("suite");
        let d = t.path();
        touch(&d.join("raster/a.shader_test"));
        touch(&d.join("raster/a.glsl.shader_test"));
        touch(&d.join("raster/a.png"));
        touch(&d.join("msaa/b.shader_test"));
        let s = suite_scenes(d).expect("walk");
        let ids: Vec<_> = s
            .iter()
            .map(|e| (e.id.as_str(), e.group.as_str()))
            .collect();
        assert_eq!(ids, vec![("msaa/b", "msaa"), ("raster/a", "raster")]);
    }

    #[test]
    fn piglit_and_shared_names() {
        let t = tmpdir("piglit");
        let d = t.path();
        touch(&d.join("spec/arb_fp/sub/x.shader_test"));
        touch(&d.join("shaders/generic/nv-add.vpfp"));
        let p = piglit_scenes(d).expect("walk");
        assert_eq!(p[0].id, "piglit/arb_fp/sub/x");
        assert_eq!(p[0].group, "piglit/arb_fp");
        assert_eq!(p[1].id, "piglit/generic/nv-add.vpfp");
        let ts = tmpdir("shared");
        let s = ts.path();
        touch(&s.join("ldc.nv.shader_test"));
        touch(&s.join("ldc.glsl.shader_test"));
        let sh = shared_scenes(s).expect("walk");
        assert_eq!(sh.len(), 1);
        assert_eq!(sh[0].id, "shared/ldc");
    }

    #[test]
    fn missing_directories_are_empty() {
        let t = tmpdir("missing");
        let d = t.path().join("nope");
        assert!(suite_scenes(&d).expect("walk").is_empty());
        assert!(piglit_scenes(&d).expect("walk").is_empty());
    }
}
