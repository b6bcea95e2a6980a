//! Pixels from the colour buffer into the shape a window surface wants.

/// RGBA8 rows (top row first, what `Context::read_image` returns) into
/// softbuffer's `0RGB` words; stops at the shorter of the two.
pub fn rgba8_to_0rgb(rgba: &[u8], out: &mut [u32]) {
    for (px, o) in rgba.chunks_exact(4).zip(out.iter_mut()) {
        if let [r, g, b, _] = *px {
            *o = (u32::from(r) << 16) | (u32::from(g) << 8) | u32::from(b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_red_green_blue_and_drops_alpha() {
        let mut out = [7u32; 2];
        rgba8_to_0rgb(&[0x12, 0x34, 0x56, 0x78, 255, 0, 1, 0], &mut out);
        assert_eq!(out, [0x0012_3456, 0x00FF_0001]);
    }

    #[test]
    fn short_output_is_not_overrun() {
        let mut out = [0u32; 1];
        rgba8_to_0rgb(&[1, 2, 3, 4, 5, 6, 7, 8], &mut out);
        assert_eq!(out, [0x0001_0203]);
    }
}
