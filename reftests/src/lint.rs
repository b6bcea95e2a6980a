//! Structural rules for the suite's own scenes (README, "Adding a reftest"): a header
//! comment naming the spec sections and the tolerance, a last `probe png NAME.png` whose
//! reference exists, and an oracle twin (or a header saying the scene is its own twin).

use std::path::Path;

/// The problems of the suite scene at `path` with text `text`; empty if it follows the
/// rules. `exists` tells whether a file beside the scene exists (a parameter so the
/// rules can be tested without files).
pub fn problems(path: &Path, text: &str, exists: &dyn Fn(&Path) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    let Some(file) = path.file_name().and_then(|n| n.to_str()) else {
        return vec!["scene path has no file name".to_string()];
    };
    let name = file.strip_suffix(".shader_test").unwrap_or(file);
    let dir = path.parent().unwrap_or(Path::new("."));
    let header: Vec<&str> = text
        .lines()
        .take_while(|l| l.trim_start().starts_with('#'))
        .collect();
    if header.is_empty() {
        out.push("no header comment before the first section".to_string());
    }
    let header = header.join("\n");
    for key in ["Spec:", "Tolerance:"] {
        if !header.contains(key) {
            out.push(format!("header comment has no `{key}` line"));
        }
    }
    let png = format!("{name}.png");
    match crate::pngprobe::find(text) {
        Some(p) if p.file == png => {
            if !exists(&dir.join(&png)) {
                out.push(format!(
                    "reference {png} is missing (run reftests/regen.sh)"
                ));
            }
        }
        Some(p) => out.push(format!("`probe png {}` should name {png}", p.file)),
        None => out.push(format!("no `probe png {png}` line")),
    }
    let twin = format!("{name}.glsl.shader_test");
    if !exists(&dir.join(&twin)) && !header.contains("own twin") {
        out.push(format!(
            "no oracle twin {twin} (or a header saying the scene is its own twin)"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "# a: shows x\n# Spec: S 1.2\n# Tolerance: 1\n[require]\n\
                        SIZE 8 8\n[test]\nclear\nprobe png a.png tolerance 1 pixels 0\n";

    fn all_exist(_: &Path) -> bool {
        true
    }

    #[test]
    fn every_committed_scene_follows_the_rules() {
        let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        let scenes = crate::discover::suite_scenes(&suite).expect("list the suite");
        assert!(scenes.len() >= 150, "only {} scenes", scenes.len());
        let mut bad = Vec::new();
        for s in &scenes {
            let text = std::fs::read_to_string(&s.path).expect("read a scene");
            let p = problems(&s.path, &text, &|f: &Path| f.exists());
            if !p.is_empty() {
                bad.push(format!("{}: {}", s.id, p.join("; ")));
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    #[test]
    fn a_complete_scene_has_no_problems() {
        assert!(problems(Path::new("d/a.shader_test"), GOOD, &all_exist).is_empty());
    }

    #[test]
    fn reports_each_missing_piece() {
        let p = problems(Path::new("d/a.shader_test"), "[test]\nclear\n", &all_exist);
        assert_eq!(p.len(), 4, "{p:?}");
        let wrong = GOOD.replace("probe png a.png", "probe png b.png");
        let p = problems(Path::new("d/a.shader_test"), &wrong, &all_exist);
        assert_eq!(p, vec!["`probe png b.png` should name a.png".to_string()]);
        let none = |_: &Path| false;
        let p = problems(Path::new("d/a.shader_test"), GOOD, &none);
        assert_eq!(p.len(), 2, "{p:?}");
        let own = GOOD.replace("shows x", "shows x; it is its own twin");
        assert_eq!(problems(Path::new("d/a.shader_test"), &own, &none).len(), 1);
    }
}
