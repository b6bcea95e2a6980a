//! Where the legacy-dialect test programs live: the real-world VP1/VP1.1/VSP1/FP1 programs
//! are read from the shared corpus (never copied here), the `!!VP1.0` programs extracted
//! from piglit's `.vpfp` files from `tests/legacy/`.

use std::path::{Path, PathBuf};

/// Real-world corpus files of the legacy dialects, then the piglit extracts, sorted by name.
pub fn paths() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let realworld = root.join("../../shared/corpus/realworld");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&realworld)
        .unwrap_or_else(|e| panic!("{}: {e}", realworld.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into());
            ["vp1_", "vp11_", "vsp1_", "fp1_"]
                .iter()
                .any(|pre| name.starts_with(pre))
                && name.ends_with(".txt")
        })
        .collect();
    let extracts = root.join("tests/legacy");
    files.extend(
        std::fs::read_dir(&extracts)
            .unwrap_or_else(|e| panic!("{}: {e}", extracts.display()))
            .filter_map(|e| e.ok().map(|e| e.path())),
    );
    files.sort_by_key(|p| p.file_name().map(|n| n.to_owned()));
    files
}
