//! `glemu info`: dialects, extensions, limits, sample positions, IPAO range.

use std::io::Write;

/// Print what glemu implements: dialects, extensions, limits, sample positions.
///
/// Also the GL version and the IPAO offset range.
///
/// The values are the ones `[require]` lines and glGet* queries see.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  glemu info\n  glemu info --json | jq .limits.GL_MAX_SAMPLES")]
pub struct InfoArgs {
    /// One JSON object instead of text: {gl_version, dialects, extensions, limits:
    /// {NAME: [values]}, sample_positions: {"N": [[x, y], ...]}, ipao: {min, max, step}}.
    #[arg(long)]
    pub json: bool,
}

const DIALECTS: &[&str] = &[
    "!!ARBvp1.0",
    "!!ARBfp1.0",
    "!!NVvp4.0",
    "!!NVfp4.0",
    "!!NVgp4.0",
    "!!NVvp4.1",
    "!!NVfp4.1",
    "!!NVgp4.1",
    "!!NVvp5.0",
    "!!NVtcp5.0",
    "!!NVtep5.0",
    "!!NVgp5.0",
    "!!NVfp5.0",
    "!!VP1.0",
    "!!VP1.1",
    "!!VP2.0",
    "!!VSP1.0",
    "!!FP1.0",
];

/// Sample positions of every supported count: (count, [(x, y)]).
fn sample_positions() -> Vec<(u32, Vec<[f32; 2]>)> {
    glemu_raster::samples::SUPPORTED_SAMPLE_COUNTS
        .iter()
        .map(|&n| {
            let pos = (0..n)
                .filter_map(|i| glemu_raster::samples::sample_position(n, i))
                .map(|p| [p[0], p[1]])
                .collect();
            (n, pos)
        })
        .collect()
}

/// Prints what glemu implements.
///
/// ```
/// let mut out = Vec::new();
/// assert_eq!(glemu::cli::info::run(&mut out), 0);
/// assert!(String::from_utf8(out).unwrap().contains("!!NVtcp5.0"));
/// ```
pub fn run(out: &mut dyn Write) -> i32 {
    exec(&InfoArgs { json: false }, out)
}

/// `glemu info` with parsed arguments.
///
/// ```
/// let mut out = Vec::new();
/// assert_eq!(glemu::cli::info::exec(&glemu::cli::info::InfoArgs { json: true }, &mut out), 0);
/// let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
/// assert!(v["extensions"].as_array().unwrap().iter().any(|e| e == "GL_NV_gpu_program5"));
/// ```
pub fn exec(args: &InfoArgs, out: &mut dyn Write) -> i32 {
    let s = if args.json { json() } else { text() };
    let _ = out.write_all(s.as_bytes());
    0
}

fn json() -> String {
    let limits: serde_json::Map<String, serde_json::Value> = crate::caps::LIMIT_TABLE
        .iter()
        .map(|l| (format!("GL_{}", l.name), serde_json::json!(l.value)))
        .collect();
    let samples: serde_json::Map<String, serde_json::Value> = sample_positions()
        .into_iter()
        .map(|(n, p)| (n.to_string(), serde_json::json!(p)))
        .collect();
    let v = serde_json::json!({
        "gl_version": format!("{}.{}", crate::caps::GL_VERSION / 10, crate::caps::GL_VERSION % 10),
        "profile": "compatibility",
        "dialects": DIALECTS,
        "extensions": crate::caps::EXTENSIONS,
        "limits": limits,
        "sample_positions": samples,
        "ipao": { "min": -0.5, "max": 0.4375, "step": 0.0625 },
    });
    format!("{v:#}\n")
}

fn text() -> String {
    let mut s = String::new();
    s += "glemu: a software GPU running NVIDIA assembly programs\n";
    s += &format!(
        "GL version: {}.{} compatibility\n",
        crate::caps::GL_VERSION / 10,
        crate::caps::GL_VERSION % 10
    );
    s += &format!("dialects: {}\n", DIALECTS.join(" "));
    s += "extensions:\n";
    for e in crate::caps::EXTENSIONS {
        s += &format!("  {e}\n");
    }
    s += "limits:\n";
    for l in crate::caps::LIMIT_TABLE {
        let v: Vec<String> = l.value.iter().map(i32::to_string).collect();
        s += &format!("  GL_{} = {}\n", l.name, v.join(" "));
    }
    s += "sample positions (x, y within the pixel):\n";
    for (n, pos) in sample_positions() {
        let pos: Vec<String> = pos
            .iter()
            .map(|p| format!("({}, {})", p[0], p[1]))
            .collect();
        s += &format!("  {n}x: {}\n", pos.join(" "));
    }
    s += "IPAO offsets: [-0.5, 0.4375] in steps of 1/16 pixel (offsets are clamped to the range, then snapped to 1/16)\n";
    s
}
