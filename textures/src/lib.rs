//! glemu-textures (see ARCHITECTURE.md).
