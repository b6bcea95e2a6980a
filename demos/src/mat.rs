//! Just enough 4×4 matrix maths for cameras. Matrices are column-major `[f32; 16]`
//! (what `load_matrix_f` takes); [`row`] gives the rows programs `DP4` against.

/// A column-major 4×4 matrix.
pub type Mat4 = [f32; 16];

/// The identity.
pub const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// `a · b`.
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut m = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            m[c * 4 + r] = (0..4).map(|k| a[k * 4 + r] * b[c * 4 + k]).sum();
        }
    }
    m
}

/// `gluPerspective`: vertical field of view in radians.
pub fn perspective(fovy: f32, aspect: f32, near: f32, far: f32) -> Mat4 {
    let f = 1.0 / (fovy * 0.5).tan();
    let mut m = [0.0; 16];
    m[0] = f / aspect;
    m[5] = f;
    m[10] = (far + near) / (near - far);
    m[11] = -1.0;
    m[14] = 2.0 * far * near / (near - far);
    m
}

/// A translation.
pub fn translate(x: f32, y: f32, z: f32) -> Mat4 {
    let mut m = IDENTITY;
    m[12] = x;
    m[13] = y;
    m[14] = z;
    m
}

/// A rotation by `angle` radians about the unit axis (`x`, `y`, `z`).
pub fn rotate(angle: f32, x: f32, y: f32, z: f32) -> Mat4 {
    let (s, c) = angle.sin_cos();
    let t = 1.0 - c;
    [
        t * x * x + c,
        t * x * y + s * z,
        t * x * z - s * y,
        0.0,
        t * x * y - s * z,
        t * y * y + c,
        t * y * z + s * x,
        0.0,
        t * x * z + s * y,
        t * y * z - s * x,
        t * z * z + c,
        0.0,
        0.0,
        0.0,
        0.0,
        1.0,
    ]
}

/// Row `r` of `m`, for a program parameter that `DP4`s it with a position.
pub fn row(m: &Mat4, r: usize) -> [f32; 4] {
    [m[r], m[4 + r], m[8 + r], m[12 + r]]
}

/// `m · v`.
pub fn transform(m: &Mat4, v: [f32; 4]) -> [f32; 4] {
    let dot = |r: usize| {
        let rr = row(m, r);
        rr.iter().zip(v).map(|(a, b)| a * b).sum()
    };
    [dot(0), dot(1), dot(2), dot(3)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translate_then_transform_moves_a_point() {
        let p = transform(&translate(1.0, 2.0, 3.0), [1.0, 1.0, 1.0, 1.0]);
        assert_eq!(p, [2.0, 3.0, 4.0, 1.0]);
    }

    #[test]
    fn quarter_turn_about_z_maps_x_to_y() {
        let p = transform(
            &rotate(std::f32::consts::FRAC_PI_2, 0.0, 0.0, 1.0),
            [1.0, 0.0, 0.0, 1.0],
        );
        assert!((p[0]).abs() < 1e-6 && (p[1] - 1.0).abs() < 1e-6, "{p:?}");
    }

    #[test]
    fn mul_composes_right_to_left() {
        let m = mul(
            &translate(1.0, 0.0, 0.0),
            &rotate(std::f32::consts::FRAC_PI_2, 0.0, 0.0, 1.0),
        );
        let p = transform(&m, [1.0, 0.0, 0.0, 1.0]);
        assert!(
            (p[0] - 1.0).abs() < 1e-6 && (p[1] - 1.0).abs() < 1e-6,
            "{p:?}"
        );
    }

    #[test]
    fn perspective_maps_near_plane_to_minus_one() {
        let p = transform(&perspective(1.0, 1.0, 1.0, 10.0), [0.0, 0.0, -1.0, 1.0]);
        assert!((p[2] / p[3] + 1.0).abs() < 1e-6, "{p:?}");
    }
}
