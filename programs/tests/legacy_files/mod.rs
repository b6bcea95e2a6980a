//! Where the legacy-dialect test programs live: the real-world VP1/VP1.1/VSP1/FP1 programs
//! are read from the external corpus (never copied here), the `!!VP1.0` programs extracted
//! from piglit's `.vpfp` files from `tests/legacy/`.

use glemu_test_support::external;
use std::path::{Path, PathBuf};

/// The piglit extracts in `tests/legacy/`, sorted by name.
pub fn extracts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/legacy");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    files
}

/// Real-world corpus files of the legacy dialects, sorted by name, or `None` (the test is
/// skipped) when the external corpus is not beside the repository.
pub fn realworld(test: &str) -> Option<Vec<PathBuf>> {
    let dir = external(test, "corpus/realworld")?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
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
    files.sort();
    Some(files)
}
