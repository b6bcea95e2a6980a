//! Scene files are untrusted input: mutated corpus scenes (numbers changed, lines dropped,
//! duplicated or truncated) must end in PASS, FAIL or SKIP — never a panic or a hang.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu::scene;
use glemu_test_support::externals;
use std::path::{Path, PathBuf};

/// The external NV scenes and piglit's ARB program scenes, or `None` (skipped) when they
/// are not beside the repository.
fn corpus_scenes() -> Option<Vec<(PathBuf, String)>> {
    let dirs = externals(
        "tests/scene_robustness.rs mutated_scenes_never_panic",
        &[
            "scenes",
            "corpus/piglit/tests/spec/arb_vertex_program",
            "corpus/piglit/tests/spec/arb_fragment_program",
        ],
    )?;
    let mut out = Vec::new();
    for dir in dirs {
        let Ok(rd) = std::fs::read_dir(dir) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "shader_test") {
                if let Ok(t) = std::fs::read_to_string(&p) {
                    out.push((p, t));
                }
            }
        }
    }
    out.sort();
    Some(out)
}

/// A small deterministic generator (no external crates needed).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const NASTY: &[&str] = &[
    "-1",
    "0",
    "4294967295",
    "99999999",
    "1e38",
    "nan",
    "-inf",
    "0x7fffffff",
    "(",
    ")",
    "GL_BOGUS",
    "",
];

fn mutate(text: &str, rng: &mut Lcg) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..1 + rng.below(3) {
        if lines.is_empty() {
            break;
        }
        let i = rng.below(lines.len());
        match rng.below(4) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 => {
                let cut = rng.below(lines[i].len() + 1);
                let l = lines[i].chars().take(cut).collect();
                lines[i] = l;
            }
            _ => {
                let mut words: Vec<String> = lines[i].split(' ').map(str::to_string).collect();
                let w = rng.below(words.len());
                words[w] = NASTY[rng.below(NASTY.len())].to_string();
                lines[i] = words.join(" ");
            }
        }
    }
    lines.join("\n")
}

#[test]
fn mutated_scenes_never_panic() {
    let Some(scenes) = corpus_scenes() else {
        return;
    };
    assert!(!scenes.is_empty());
    let mut rng = Lcg(0x5eed);
    let mut runs = 0;
    for round in 0..4 {
        for (path, text) in &scenes {
            let m = mutate(text, &mut rng);
            let dir = path.parent().unwrap_or(Path::new("."));
            let r = std::panic::catch_unwind(|| {
                scene::run_text_with(
                    &m,
                    dir,
                    scene::RunOptions {
                        skip_png_probes: true,
                        ..Default::default()
                    },
                )
            });
            assert!(
                r.is_ok(),
                "round {round}: {} mutated to:\n{m}",
                path.display()
            );
            runs += 1;
        }
    }
    assert!(runs > 50);
}
