//! glemu: a software GPU that runs NVIDIA assembly programs.
pub use glemu_programs as programs;
