//! Cube map face selection (GL 4.6 table 8.19) and the seamless-filtering edge remap.

/// Face indices in storage order.
pub const POS_X: u32 = 0;
/// -X face.
pub const NEG_X: u32 = 1;
/// +Y face.
pub const POS_Y: u32 = 2;
/// -Y face.
pub const NEG_Y: u32 = 3;
/// +Z face.
pub const POS_Z: u32 = 4;
/// -Z face.
pub const NEG_Z: u32 = 5;

/// Face and (sc, tc, ma) for a direction: the major axis picks the face (ties go to X
/// before Y before Z, as Mesa does); `ma` is the signed major-axis component.
#[inline]
pub fn select(dir: [f32; 3]) -> (u32, f32, f32, f32) {
    let [rx, ry, rz] = dir;
    let (ax, ay, az) = (rx.abs(), ry.abs(), rz.abs());
    if ax >= ay && ax >= az {
        if rx >= 0.0 {
            (POS_X, -rz, -ry, rx)
        } else {
            (NEG_X, rz, -ry, rx)
        }
    } else if ay >= az {
        if ry >= 0.0 {
            (POS_Y, rx, rz, ry)
        } else {
            (NEG_Y, rx, -rz, ry)
        }
    } else if rz >= 0.0 {
        (POS_Z, rx, -ry, rz)
    } else {
        (NEG_Z, -rx, -ry, rz)
    }
}

/// (sc, tc, ma) of `dir` measured on a given face.
#[inline]
pub fn on_face(face: u32, dir: [f32; 3]) -> (f32, f32, f32) {
    let [rx, ry, rz] = dir;
    match face {
        POS_X => (-rz, -ry, rx),
        NEG_X => (rz, -ry, rx),
        POS_Y => (rx, rz, ry),
        NEG_Y => (rx, -rz, ry),
        POS_Z => (rx, -ry, rz),
        _ => (-rx, -ry, rz),
    }
}

/// Face (s, t) in `[0, 1]` for a direction: `s = (sc/|ma| + 1) / 2`.
#[inline]
pub fn project(dir: [f32; 3]) -> (u32, f32, f32) {
    let (face, sc, tc, ma) = select(dir);
    let m = ma.abs();
    if m == 0.0 || !m.is_finite() {
        return (face, 0.5, 0.5);
    }
    (face, 0.5 * (sc / m + 1.0), 0.5 * (tc / m + 1.0))
}

/// Derivative of the face coordinates (s, t) of a direction on `face` with respect to a
/// screen axis, given the direction's derivative `d` (quotient rule on `sc / |ma|`).
#[inline]
pub fn face_derivative(face: u32, dir: [f32; 3], d: [f32; 3]) -> (f32, f32) {
    let (sc, tc, ma) = on_face(face, dir);
    let (dsc, dtc, dma) = on_face(face, d);
    let sign = if ma < 0.0 { -1.0 } else { 1.0 };
    let m = ma.abs();
    if m == 0.0 {
        return (0.0, 0.0);
    }
    let dm = sign * dma;
    let inv = 0.5 / (m * m);
    ((dsc * m - sc * dm) * inv, (dtc * m - tc * dm) * inv)
}

/// The direction through the centre of texel (i, j) of `face` (size `n`), which may lie
/// just outside the face; used to find the texel on the adjacent face.
fn texel_direction(face: u32, i: i32, j: i32, n: i32) -> [f32; 3] {
    let sc = (i as f32 + 0.5) / n as f32 * 2.0 - 1.0;
    let tc = (j as f32 + 0.5) / n as f32 * 2.0 - 1.0;
    match face {
        POS_X => [1.0, -tc, -sc],
        NEG_X => [-1.0, -tc, sc],
        POS_Y => [sc, 1.0, tc],
        NEG_Y => [sc, -1.0, -tc],
        POS_Z => [sc, -tc, 1.0],
        _ => [-sc, -tc, -1.0],
    }
}

/// Seamless cube filtering: maps a texel location that fell off `face` onto the texel of
/// the adjacent face it touches. Corner texels (off two edges) land on one of the two
/// neighbouring faces (GL allows any of the three corner texels or their average).
pub fn remap_texel(face: u32, i: i32, j: i32, n: i32) -> (u32, i32, i32) {
    if (0..n).contains(&i) && (0..n).contains(&j) {
        return (face, i, j);
    }
    let (f, s, t) = project(texel_direction(face, i, j, n));
    let fi = ((s * n as f32).floor() as i32).clamp(0, n - 1);
    let fj = ((t * n as f32).floor() as i32).clamp(0, n - 1);
    (f, fi, fj)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn face_selection_table() {
        // (direction, face, s, t)
        let cases = [
            (
                [1.0, 0.5, 0.25],
                POS_X,
                0.5 * (-0.25 + 1.0),
                0.5 * (-0.5 + 1.0),
            ),
            (
                [-1.0, 0.5, 0.25],
                NEG_X,
                0.5 * (0.25 + 1.0),
                0.5 * (-0.5 + 1.0),
            ),
            (
                [0.5, 1.0, 0.25],
                POS_Y,
                0.5 * (0.5 + 1.0),
                0.5 * (0.25 + 1.0),
            ),
            (
                [0.5, -1.0, 0.25],
                NEG_Y,
                0.5 * (0.5 + 1.0),
                0.5 * (-0.25 + 1.0),
            ),
            (
                [0.5, 0.25, 1.0],
                POS_Z,
                0.5 * (0.5 + 1.0),
                0.5 * (-0.25 + 1.0),
            ),
            (
                [0.5, 0.25, -1.0],
                NEG_Z,
                0.5 * (-0.5 + 1.0),
                0.5 * (-0.25 + 1.0),
            ),
        ];
        for (dir, face, s, t) in cases {
            assert_eq!(project(dir), (face, s, t), "{dir:?}");
            // Scaling the direction does not change the result.
            assert_eq!(project(dir.map(|c| c * 3.0)), (face, s, t));
        }
        assert_eq!(select([1.0, 1.0, 1.0]).0, POS_X);
        assert_eq!(select([0.0, -1.0, 1.0]).0, NEG_Y);
    }

    #[test]
    fn seamless_remap_crosses_to_neighbours() {
        // Right of +X (s grows toward -Z) is -Z's left column.
        assert_eq!(remap_texel(POS_X, 4, 1, 4), (NEG_Z, 0, 1));
        // Left of +X is +Z's right column.
        assert_eq!(remap_texel(POS_X, -1, 2, 4), (POS_Z, 3, 2));
        // Above +Z (t < 0 is toward +Y): +Y's bottom row (t = 1 there).
        assert_eq!(remap_texel(POS_Z, 1, -1, 4), (POS_Y, 1, 3));
        // Inside stays put.
        assert_eq!(remap_texel(NEG_Y, 2, 3, 4), (NEG_Y, 2, 3));
    }

    #[test]
    fn face_derivatives_match_finite_differences() {
        let dir = [1.0, 0.3, -0.2];
        let d = [0.01, 0.02, -0.03];
        let (face, s0, t0) = project(dir);
        let (_, s1, t1) = project([
            dir[0] + d[0] * 1e-3,
            dir[1] + d[1] * 1e-3,
            dir[2] + d[2] * 1e-3,
        ]);
        let (ds, dt) = face_derivative(face, dir, d);
        assert!(((s1 - s0) / 1e-3 - ds).abs() < 1e-3);
        assert!(((t1 - t0) / 1e-3 - dt).abs() < 1e-3);
    }
}
