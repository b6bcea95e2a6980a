//! 4×4 matrices, column-major like GL (`m[col * 4 + row]`), in f64 so that products and
//! inverses of the usual matrices round to f32 the way a careful driver would.

/// A column-major 4×4 matrix.
///
/// ```
/// use glemu::context::matrix::{Mat4, IDENTITY};
/// let mut m: Mat4 = IDENTITY;
/// m[12] = 5.0; // column 3, row 0: a translation by x = 5
/// assert_eq!(glemu::context::matrix::transform(&m, [1.0, 0.0, 0.0, 1.0]), [6.0, 0.0, 0.0, 1.0]);
/// ```
pub type Mat4 = [f64; 16];

/// The identity matrix.
///
/// ```
/// use glemu::context::matrix::{mul, ortho, IDENTITY};
/// let p = ortho(0.0, 4.0, 0.0, 4.0, -1.0, 1.0);
/// assert_eq!(mul(&IDENTITY, &p), p);
/// ```
pub const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// `a · b`.
///
/// ```
/// use glemu::context::matrix::{mul, transform, IDENTITY};
/// let mut t = IDENTITY;
/// t[12] = 1.0; // translate x by 1
/// let mut s = IDENTITY;
/// s[0] = 2.0; // scale x by 2
/// // (t · s) scales first, then translates.
/// assert_eq!(transform(&mul(&t, &s), [1.0, 0.0, 0.0, 1.0])[0], 3.0);
/// ```
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut r = [0.0; 16];
    for c in 0..4 {
        for row in 0..4 {
            r[c * 4 + row] = (0..4).map(|k| a[k * 4 + row] * b[c * 4 + k]).sum();
        }
    }
    r
}

/// Transpose.
///
/// ```
/// use glemu::context::matrix::{transpose, IDENTITY};
/// let mut m = IDENTITY;
/// m[12] = 7.0;
/// assert_eq!(transpose(&m)[3], 7.0);
/// assert_eq!(transpose(&transpose(&m)), m);
/// ```
pub fn transpose(m: &Mat4) -> Mat4 {
    let mut r = [0.0; 16];
    for c in 0..4 {
        for row in 0..4 {
            r[c * 4 + row] = m[row * 4 + c];
        }
    }
    r
}

/// Inverse by cofactors; a singular matrix gives the zero matrix (GL leaves the result
/// undefined; zero keeps programs finite).
///
/// ```
/// use glemu::context::matrix::{inverse, mul, ortho, IDENTITY};
/// let p = ortho(-2.0, 2.0, -1.0, 1.0, 1.0, 10.0);
/// let i = mul(&p, &inverse(&p));
/// assert!(i.iter().zip(IDENTITY.iter()).all(|(a, b)| (a - b).abs() < 1e-12));
/// assert_eq!(inverse(&[0.0; 16]), [0.0; 16]);
/// ```
pub fn inverse(m: &Mat4) -> Mat4 {
    let a = |c: usize, r: usize| m[c * 4 + r];
    let mut inv = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            // cofactor of element (row r, col c), placed transposed
            let mut sub = [0.0; 9];
            let mut k = 0;
            for cc in (0..4).filter(|&x| x != c) {
                for rr in (0..4).filter(|&x| x != r) {
                    sub[k] = a(cc, rr);
                    k += 1;
                }
            }
            let det3 = sub[0] * (sub[4] * sub[8] - sub[5] * sub[7])
                - sub[3] * (sub[1] * sub[8] - sub[2] * sub[7])
                + sub[6] * (sub[1] * sub[5] - sub[2] * sub[4]);
            let sign = if (r + c) % 2 == 0 { 1.0 } else { -1.0 };
            inv[r * 4 + c] = sign * det3;
        }
    }
    let det: f64 = (0..4).map(|c| a(c, 0) * inv[c]).sum();
    if det == 0.0 || !det.is_finite() {
        return [0.0; 16];
    }
    inv.map(|v| v / det)
}

/// `glOrtho`.
///
/// ```
/// use glemu::context::matrix::{ortho, transform};
/// let p = ortho(0.0, 100.0, 0.0, 50.0, -1.0, 1.0);
/// assert_eq!(transform(&p, [100.0, 50.0, 0.0, 1.0]), [1.0, 1.0, 0.0, 1.0]);
/// ```
pub fn ortho(l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) -> Mat4 {
    let mut m = IDENTITY;
    m[0] = 2.0 / (r - l);
    m[5] = 2.0 / (t - b);
    m[10] = -2.0 / (f - n);
    m[12] = -(r + l) / (r - l);
    m[13] = -(t + b) / (t - b);
    m[14] = -(f + n) / (f - n);
    m
}

/// `glFrustum`.
///
/// ```
/// use glemu::context::matrix::{frustum, transform};
/// let p = frustum(-1.0, 1.0, -1.0, 1.0, 1.0, 10.0);
/// let v = transform(&p, [0.0, 0.0, -1.0, 1.0]); // on the near plane
/// assert!((v[2] / v[3] + 1.0).abs() < 1e-12);
/// ```
pub fn frustum(l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) -> Mat4 {
    let mut m = [0.0; 16];
    m[0] = 2.0 * n / (r - l);
    m[5] = 2.0 * n / (t - b);
    m[8] = (r + l) / (r - l);
    m[9] = (t + b) / (t - b);
    m[10] = -(f + n) / (f - n);
    m[11] = -1.0;
    m[14] = -2.0 * f * n / (f - n);
    m
}

/// Row `r` of `m` as a vec4.
///
/// ```
/// use glemu::context::matrix::{row, IDENTITY};
/// assert_eq!(row(&IDENTITY, 2), [0.0, 0.0, 1.0, 0.0]);
/// ```
pub fn row(m: &Mat4, r: usize) -> [f64; 4] {
    [m[r], m[4 + r], m[8 + r], m[12 + r]]
}

/// `m · v`.
///
/// ```
/// use glemu::context::matrix::{transform, IDENTITY};
/// assert_eq!(transform(&IDENTITY, [1.0, 2.0, 3.0, 1.0]), [1.0, 2.0, 3.0, 1.0]);
/// ```
pub fn transform(m: &Mat4, v: [f64; 4]) -> [f64; 4] {
    let mut out = [0.0; 4];
    for (r, o) in out.iter_mut().enumerate() {
        *o = (0..4).map(|c| m[c * 4 + r] * v[c]).sum();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_of_ortho_undoes_it() {
        let m = ortho(0.0, 250.0, 0.0, 100.0, -1.0, 1.0);
        let p = mul(&inverse(&m), &m);
        for (i, v) in p.iter().enumerate() {
            assert!((v - IDENTITY[i]).abs() < 1e-12, "{p:?}");
        }
        let v = transform(&m, [250.0, 100.0, 0.0, 1.0]);
        assert_eq!(v, [1.0, 1.0, 0.0, 1.0]);
        assert_eq!(row(&transpose(&m), 3), [m[12], m[13], m[14], m[15]]);
    }

    #[test]
    fn singular_inverse_is_zero() {
        assert_eq!(inverse(&[0.0; 16]), [0.0; 16]);
    }
}
