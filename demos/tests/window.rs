//! Every demo in a real X11 window: a private Xvfb display, each demo run for a few frames
//! (`--frames N` quits after N presented frames), exit status 0 and nothing on stderr.
//! Without Xvfb (Debian package `xvfb`) the test prints one SKIP line.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Xvfb(Child);

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts Xvfb on a display no other server uses; `None` when Xvfb is not installed.
fn start_xvfb() -> Option<(Xvfb, String)> {
    for n in 90..140 {
        let lock = format!("/tmp/.X{n}-lock");
        if std::path::Path::new(&lock).exists() {
            continue;
        }
        let display = format!(":{n}");
        let child = Command::new("Xvfb")
            .args([&display, "-screen", "0", "320x240x24", "-nolisten", "tcp"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let mut x = Xvfb(child);
        let socket = format!("/tmp/.X11-unix/X{n}");
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = x.0.try_wait() {
                break; // lost a race for this display: try the next
            }
            if std::path::Path::new(&socket).exists() {
                return Some((x, display));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    None
}

#[test]
fn every_demo_runs_in_a_window() {
    let Some((_xvfb, display)) = start_xvfb() else {
        println!("SKIP: Xvfb is not installed (Debian package xvfb); window test not run");
        return;
    };
    let bin = env!("CARGO_BIN_EXE_glemu-demos");
    let names: Vec<&str> = glemu_demos::NAMES.iter().map(|(n, _)| *n).collect();
    for name in names {
        let out = Command::new(bin)
            .args([name, "--frames", "3", "--size", "160x120"])
            .env("DISPLAY", &display)
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .expect("run glemu-demos");
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{name} in a window: {:?}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn no_display_is_a_clear_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_glemu-demos"))
        .args(["legacy", "--frames", "1"])
        .env("DISPLAY", ":239")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("run glemu-demos");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("glemu-demos: window:"), "{err}");
}
