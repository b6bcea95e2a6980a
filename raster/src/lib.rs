//! glemu-raster (see ARCHITECTURE.md).
