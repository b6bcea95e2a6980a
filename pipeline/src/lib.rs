//! glemu-pipeline (see ARCHITECTURE.md).
