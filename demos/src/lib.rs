//! Windowed demos of glemu (winit + softbuffer); each also renders headless to PNG.
//!
//! Every demo is a [`Demo`]: it sets up programs, buffers and textures once on a
//! [`glemu::Context`] and then draws frames from a time in seconds. The window loop
//! ([`window::run`]) and the headless renderer ([`headless::render`]) drive the same
//! code, so the tests (which use the headless path) check what the window shows.

#![warn(missing_docs)]

pub mod args;
pub mod demo;
pub mod emulator;
pub mod error;
pub mod headless;
pub mod legacy;
pub mod lit;
pub mod overlay;
pub mod particles;
pub mod present;
pub mod sprites;
pub mod supersample;
pub mod terrain;
pub mod tess;
#[cfg(test)]
mod testutil;
pub mod upload;
pub mod window;

pub use demo::{by_name, Demo, NAMES};
pub use error::{DemoError, Result};
