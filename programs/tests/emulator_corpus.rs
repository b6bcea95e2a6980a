//! glemu's own corpus of programs in the textual form emulator GLASM back ends print
//! (`programs/tests/emulator_corpus/`): the header line, then one line of `;`-joined
//! statements — `OPTION NV_internal;` and the options the emitter adds, `TEMP R0,..,RC;`,
//! `LONG TEMP ..,DC;`, declarations, instructions, `END`. Written for this repository from
//! the shapes such a back end produces (constant and storage buffers, the bindless
//! fallback through program.local addresses, textures, images, atomics, warp operations,
//! fp64/int64, safety-counter loops, passthrough, compute). Every file must load for the
//! stage its header names; the runnable ones are drawn by the scenes of `tests/emulator/`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_programs::ir::Stage;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/emulator_corpus")
}

/// (file, the emitter path it stands for).
const CORPUS: &[(&str, &str)] = &[
    ("cp_shared", "compute: shared memory, LDS/STS/ATOMS, BAR"),
    (
        "fp_atomics",
        "atomics on storage: u32, s32, f32, u64, f16x2",
    ),
    (
        "fp_images",
        "images: LOADIM typed and formatted, STOREIM, ATOMIM",
    ),
    ("fp_loops", "loops with the safety counter"),
    (
        "fp_mrt_local_memory",
        "local memory array, y_direction PARAM, two colour outputs",
    ),
    (
        "fp_textures",
        "textures: TEX/TXB/TXL/TXG/TXQ/TXF, shadow, SPARSE, LODCLAMP, derivatives",
    ),
    (
        "fp_warp",
        "warp operations: thread masks, shuffles, votes, FSWZ tables",
    ),
    ("gp_passthrough", "passthrough geometry"),
    (
        "gp_triangle_strip",
        "geometry with vertex-indexed attribute arrays",
    ),
    (
        "tcp_levels",
        "tessellation control: levels and per-vertex copies",
    ),
    ("tep_triangles", "tessellation evaluation"),
    (
        "vp_bindless_fallback",
        "storage through program.local addresses (bindless fallback)",
    ),
    ("vp_cbuffer", "constant buffers (CBUFFER/LDC)"),
    ("vp_fp64_int64", "fp64 and int64"),
    ("vp_storage", "storage buffers (STORAGE/LDB/ATOMB)"),
    (
        "vp_viewport_mask",
        "viewport mask and layer from a vertex program",
    ),
];

fn stage_of(header: &str) -> Option<Stage> {
    Some(match header.trim() {
        "!!NVvp5.0" => Stage::Vertex,
        "!!NVtcp5.0" => Stage::TessControl,
        "!!NVtep5.0" => Stage::TessEval,
        "!!NVgp5.0" => Stage::Geometry,
        "!!NVfp5.0" => Stage::Fragment,
        "!!NVcp5.0" => Stage::Compute,
        _ => return None,
    })
}

#[test]
fn every_program_loads_as_emitted() {
    for (name, what) in CORPUS {
        let path = dir().join(format!("{name}.glasm"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut lines = text.lines();
        let header = lines.next().unwrap_or_default();
        let stage = stage_of(header).unwrap_or_else(|| panic!("{name}: header '{header}'"));
        // The emitted form: the header line, then exactly one line of statements.
        let body: Vec<&str> = lines.filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(
            body.len(),
            1,
            "{name}: one line of statements after the header"
        );
        assert!(
            body[0].starts_with("OPTION NV_internal;") && body[0].ends_with("END"),
            "{name}: starts with OPTION NV_internal; and ends with END"
        );
        match glemu_programs::assemble(&text, Some(stage)) {
            Ok(p) => assert_eq!(p.stage, stage, "{name}"),
            Err(e) => panic!("{name} ({what}) does not load:\n{}", e.render(&text)),
        }
    }
}

#[test]
fn every_stage_is_covered_and_every_file_listed() {
    let mut files: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| {
            let n = e.ok()?.file_name().into_string().ok()?;
            n.strip_suffix(".glasm").map(str::to_string)
        })
        .collect();
    files.sort();
    let listed: Vec<&str> = CORPUS.iter().map(|(n, _)| *n).collect();
    assert_eq!(files, listed);
    for prefix in ["vp_", "tcp_", "tep_", "gp_", "fp_", "cp_"] {
        assert!(
            listed.iter().any(|n| n.starts_with(prefix)),
            "no {prefix} program"
        );
    }
}

#[test]
fn a_broken_program_is_refused() {
    // Without its option the storage program must not load (NV_shader_storage_buffer
    // gates STORAGE/LDB/ATOMB), so the corpus checks what it claims.
    let text = std::fs::read_to_string(dir().join("vp_storage.glasm")).unwrap();
    let stripped = text.replace("OPTION NV_shader_storage_buffer;", "");
    assert_ne!(stripped, text);
    assert!(glemu_programs::assemble(&stripped, Some(Stage::Vertex)).is_err());
}
