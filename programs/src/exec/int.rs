//! Integer helpers with defined results where the specs leave them undefined, so a
//! program can never trap the host and every batch width agrees:
//! - shift counts use their low 5 bits (as D3D10+ and most hardware do);
//! - division by zero gives all ones (unsigned) / -1 or +1 by the dividend's sign
//!   (signed), `i32::MIN / -1` wraps;
//! - BFE/BFI: a width ≤ 0 or an offset outside 0..32 extracts zero / leaves the target
//!   unchanged; `offset + width > 32` uses the bits up to bit 31.

#[inline]
pub(crate) fn shl(x: u32, n: u32) -> u32 {
    x << (n & 31)
}

#[inline]
pub(crate) fn shr_u(x: u32, n: u32) -> u32 {
    x >> (n & 31)
}

#[inline]
pub(crate) fn shr_s(x: u32, n: u32) -> u32 {
    ((x as i32) >> (n & 31)) as u32
}

#[inline]
pub(crate) fn udiv(x: u32, y: u32) -> u32 {
    x.checked_div(y).unwrap_or(u32::MAX)
}

#[inline]
pub(crate) fn sdiv(x: i32, y: i32) -> i32 {
    if y == 0 {
        if x < 0 {
            1
        } else {
            -1
        }
    } else {
        x.wrapping_div(y)
    }
}

/// BitfieldExtract(bits, offset, value) of NV_gpu_program5.
pub(crate) fn bfe(bits: i32, offset: i32, value: u32, signed: bool) -> u32 {
    if bits <= 0 || !(0..32).contains(&offset) {
        return 0;
    }
    let bits = bits.min(32 - offset) as u32;
    let offset = offset as u32;
    let up = 32 - (bits + offset);
    let down = 32 - bits;
    if signed {
        (((value << up) as i32) >> down) as u32
    } else {
        (value << up) >> down
    }
}

/// BitfieldInsert(bits, offset, src, dst) of NV_gpu_program5.
pub(crate) fn bfi(bits: i32, offset: i32, src: u32, dst: u32) -> u32 {
    if bits <= 0 || !(0..32).contains(&offset) {
        return dst;
    }
    let bits = bits.min(32 - offset) as u32;
    if bits == 32 {
        return src;
    }
    let mask = ((1u32 << bits) - 1) << offset;
    ((src << offset) & mask) | (dst & !mask)
}

/// FindMSB: unsigned → highest one bit (all ones for 0); signed → highest bit that
/// differs from the sign (-1 for 0 and -1).
pub(crate) fn find_msb(x: u32, signed: bool) -> u32 {
    let v = if signed && (x as i32) < 0 { !x } else { x };
    if v == 0 {
        u32::MAX
    } else {
        31 - v.leading_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_mask_count() {
        assert_eq!(shl(1, 33), 2);
        assert_eq!(shl(1, 32), 1);
        assert_eq!(shr_s(0x8000_0000, 31), u32::MAX);
        assert_eq!(shr_u(0x8000_0000, 31), 1);
        assert_eq!(shr_u(0x8000_0000, 63), 1);
    }

    #[test]
    fn bfe_edges() {
        assert_eq!(bfe(0, 3, 0xffff_ffff, false), 0);
        assert_eq!(bfe(4, 4, 0xabcd, false), 0xc);
        assert_eq!(bfe(4, 4, 0xabcd, true), 0xffff_fffc);
        assert_eq!(bfe(32, 0, 0x1234_5678, false), 0x1234_5678);
        // offset + width > 32: the bits up to 31.
        assert_eq!(bfe(8, 28, 0xf000_0000, false), 0xf);
        assert_eq!(bfe(8, 28, 0x8000_0000, true), 0xffff_fff8);
        assert_eq!(bfe(4, 32, 0xffff_ffff, false), 0);
        assert_eq!(bfe(-1, 0, 0xffff_ffff, false), 0);
    }

    #[test]
    fn bfi_edges() {
        assert_eq!(bfi(4, 4, 0xf, 0), 0xf0);
        assert_eq!(bfi(0, 4, 0xf, 0x1), 0x1);
        assert_eq!(bfi(32, 0, 0xdead, 0xbeef), 0xdead);
        assert_eq!(bfi(8, 28, 0xff, 0), 0xf000_0000);
    }

    #[test]
    fn msb_and_division() {
        assert_eq!(find_msb(0, false), u32::MAX);
        assert_eq!(find_msb(1, false), 0);
        assert_eq!(find_msb(u32::MAX, true), u32::MAX);
        assert_eq!(find_msb(0xffff_fff0, true), 3);
        assert_eq!(udiv(5, 0), u32::MAX);
        assert_eq!(sdiv(i32::MIN, -1), i32::MIN);
        assert_eq!(sdiv(-7, 2), -3);
    }
}
