//! `glemu-demos <demo> [--headless OUT.png] [--frames N] [--size WxH] [--no-overlay] [--keys KEYS]`.

use glemu_demos::{args, headless, window, DemoError};
use std::process::ExitCode;

fn run() -> Result<(), DemoError> {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.iter().any(|a| a == "-h" || a == "--help") {
        print!("{}", args::usage());
        return Ok(());
    }
    let a = args::parse(argv.iter().map(String::as_str))?;
    match &a.headless {
        Some(path) => {
            let mut demo = glemu_demos::by_name(&a.demo)
                .ok_or_else(|| DemoError::Usage(format!("no demo '{}'", a.demo)))?;
            a.keys.chars().for_each(|c| demo.key(c));
            let frame = a.frames.unwrap_or(0);
            let start = std::time::Instant::now();
            let (w, h) = a.size;
            let ctx = if a.overlay {
                headless::rendered_with_overlay(&a.demo, demo.as_mut(), w, h, frame)?
            } else {
                headless::rendered(demo.as_mut(), w, h, frame)?
            };
            let ms = start.elapsed().as_secs_f64() * 1e3;
            ctx.save_png(path)?;
            println!(
                "wrote {} (frame {frame}, {}x{}, setup + draw {ms:.1} ms)",
                path.display(),
                a.size.0,
                a.size.1
            );
            Ok(())
        }
        None => window::run(&a.demo, a.size, a.frames, a.overlay, &a.keys),
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(DemoError::Usage(m)) => {
            eprintln!("{m}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("glemu-demos: {e}");
            ExitCode::FAILURE
        }
    }
}
