//! Windowed demos (winit + softbuffer); each also renders headless to PNG.
