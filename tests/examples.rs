//! The programs in `examples/` run as part of the test suite: cargo builds them beside the
//! test binaries (`target/<profile>/examples/`), and each is run in a scratch directory and
//! its output checked.

use std::path::PathBuf;
use std::process::Command;

fn example_binary(name: &str) -> PathBuf {
    // target/<profile>/deps/examples-HASH -> target/<profile>/examples/NAME
    let exe = std::env::current_exe().expect("test binary path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

#[test]
fn triangle_example_writes_a_triangle() {
    let bin = example_binary("triangle");
    assert!(bin.exists(), "{} was not built", bin.display());
    let dir = std::env::temp_dir().join(format!("glemu-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let out = Command::new(&bin)
        .current_dir(&dir)
        .output()
        .expect("run example");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("wrote triangle.png"));
    let img = image::open(dir.join("triangle.png"))
        .expect("triangle.png")
        .to_rgba8();
    assert_eq!(img.dimensions(), (256, 256));
    // Top row first: the corner is the clear colour, the centre is inside the triangle and
    // mixes the three vertex colours.
    let bg = img.get_pixel(2, 2).0;
    assert_eq!(bg, [26, 26, 26, 255]);
    let c = img.get_pixel(128, 140).0;
    assert!(c[0] > 40 && c[1] > 40 && c[2] > 40, "centre {c:?}");
    assert_ne!(c, bg);
    let _ = std::fs::remove_dir_all(&dir);
}
