//! The reftest harness's building blocks, independent of how a scene is run: finding the
//! scenes ([`discover`]), the expected-failure list ([`expected`]), a scene's `probe png`
//! line ([`pngprobe`]), comparing images and drawing diffs ([`imagediff`]), the result
//! line a scene's child process prints ([`child`]), the structural rules for suite scenes
//! ([`lint`]), and classifying and summarising results ([`report`]).
//!
//! The harness itself is `tests/reftests.rs` (`cargo test -p glemu-reftests --test
//! reftests`); it runs each scene through glemu's public scene API and uses these modules
//! for everything else.

#![warn(missing_docs)]

pub mod child;
pub mod discover;
pub mod expected;
pub mod imagediff;
pub mod lint;
pub mod pngprobe;
pub mod report;
