//! `glemu info`: dialects, extensions, limits, sample positions, IPAO range.

use crate::scene;
use std::io::Write;

/// Prints what glemu implements.
///
/// ```
/// let mut out = Vec::new();
/// assert_eq!(glemu::cli::info::run(&mut out), 0);
/// assert!(String::from_utf8(out).unwrap().contains("!!NVtcp5.0"));
/// ```
pub fn run(out: &mut dyn Write) -> i32 {
    let mut s = String::new();
    s += "glemu: a software GPU running NVIDIA assembly programs\n";
    s += &format!(
        "GL version: {}.{} compatibility\n",
        scene::GL_VERSION / 10,
        scene::GL_VERSION % 10
    );
    s += "dialects: !!ARBvp1.0 !!ARBfp1.0 !!NVvp4.0 !!NVfp4.0 !!NVgp4.0 !!NVvp4.1 !!NVfp4.1 !!NVgp4.1 \
!!NVvp5.0 !!NVtcp5.0 !!NVtep5.0 !!NVgp5.0 !!NVfp5.0 !!VP1.0 !!VP1.1 !!VP2.0 !!VSP1.0 !!FP1.0\n";
    s += "extensions:\n";
    for e in scene::extensions() {
        s += &format!("  {e}\n");
    }
    s += "limits:\n";
    for name in [
        "GL_MAX_PROGRAM_ENV_PARAMETERS_ARB",
        "GL_MAX_PROGRAM_LOCAL_PARAMETERS_ARB",
        "GL_MAX_VERTEX_ATTRIBS",
        "GL_MAX_TEXTURE_COORDS",
        "GL_MAX_TEXTURE_IMAGE_UNITS",
        "GL_MAX_CLIP_PLANES",
        "GL_MAX_DRAW_BUFFERS",
        "GL_MAX_PROGRAM_PARAMETER_BUFFER_BINDINGS_NV",
        "GL_MAX_TRANSFORM_FEEDBACK_BUFFERS",
        "GL_MAX_VERTEX_STREAMS",
        "GL_MAX_PATCH_VERTICES",
        "GL_MAX_TESS_GEN_LEVEL",
        "GL_MAX_GEOMETRY_OUTPUT_VERTICES",
        "GL_MAX_SAMPLES",
    ] {
        if let Some(v) = scene::limit(name) {
            s += &format!("  {name} = {v}\n");
        }
    }
    s += "sample positions (x, y within the pixel):\n";
    for n in glemu_raster::samples::SUPPORTED_SAMPLE_COUNTS {
        let pos: Vec<String> = (0..n)
            .filter_map(|i| glemu_raster::samples::sample_position(n, i))
            .map(|p| format!("({}, {})", p[0], p[1]))
            .collect();
        s += &format!("  {n}x: {}\n", pos.join(" "));
    }
    s += "IPAO offsets: [-0.5, 0.4375] in steps of 1/16 pixel (offsets are clamped to the range, then snapped to 1/16)\n";
    let _ = out.write_all(s.as_bytes());
    0
}
