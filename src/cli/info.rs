//! `glemu info`: dialects, extensions, limits, sample positions, IPAO range.

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
        crate::caps::GL_VERSION / 10,
        crate::caps::GL_VERSION % 10
    );
    s += "dialects: !!ARBvp1.0 !!ARBfp1.0 !!NVvp4.0 !!NVfp4.0 !!NVgp4.0 !!NVvp4.1 !!NVfp4.1 !!NVgp4.1 \
!!NVvp5.0 !!NVtcp5.0 !!NVtep5.0 !!NVgp5.0 !!NVfp5.0 !!VP1.0 !!VP1.1 !!VP2.0 !!VSP1.0 !!FP1.0\n";
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
