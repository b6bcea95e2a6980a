//! What is deterministic (README, Determinism): an image whose colours come from atomic
//! *return values* is the same from run to run at one thread, while the final counts are
//! exact at any thread count.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use std::path::{Path, PathBuf};
use std::process::Command;

fn scene() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/atomic_order.shader_test")
}

fn glemu(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_glemu"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run glemu: {e}"))
}

fn render(threads: u32, out: &Path) -> Vec<u8> {
    let t = threads.to_string();
    let o = glemu(&[
        "render".as_ref(),
        scene().as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
        "--threads".as_ref(),
        t.as_ref(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read(out).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn atomic_tickets_repeat_at_one_thread_and_count_exactly_at_any() {
    let dir = std::env::temp_dir().join(format!("glemu-determinism-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let a = render(1, &dir.join("a.png"));
    let b = render(1, &dir.join("b.png"));
    assert!(a == b, "one thread: two runs gave different images");
    // Every fragment got a distinct ticket: the image is not flat.
    let img = image::load_from_memory(&a).unwrap_or_else(|e| panic!("{e}"));
    let px = img.to_rgba8();
    assert_ne!(px.get_pixel(0, 0), px.get_pixel(255, 255));
    // The final count (probe buffer) is exact at 2 threads.
    let o = glemu(&["run".as_ref(), scene().as_os_str()]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
