//! The reftest harness: runs every scene under reftests/scenes in `cargo test`.
