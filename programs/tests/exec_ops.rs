//! One test per opcode family against values from the specs' pseudo-code, including
//! the special cases the brief lists (NaN, inf, -0, overflow, shift counts ≥ 32, BFE
//! width 0 and offset+width > 32, CVT rounding modes, RCC clamps, PK/UP round trips).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

mod exec_util;
use exec_util::*;

fn rel_err(got: f32, want: f64) -> f64 {
    if want == 0.0 {
        f64::from(got).abs()
    } else {
        ((f64::from(got) - want) / want).abs()
    }
}

#[test]
fn add_sub_mul_mad() {
    assert_eq!(
        t0f("TEMP r;\nADD r, {1, 2, 3, 4}, {0.5, -2, 1e30, -4};"),
        [1.5, 0.0, 1e30, 0.0]
    );
    assert_eq!(
        t0f("TEMP r;\nSUB r, {1, 2, 3, 4}, {0.5, -2, 3, 5};"),
        [0.5, 4.0, 0.0, -1.0]
    );
    assert_eq!(
        t0f("TEMP r;\nMUL r, {1, 2, 3, 4}, {0.5, -2, 0, 4};"),
        [0.5, -4.0, 0.0, 16.0]
    );
    assert_eq!(
        t0f("TEMP r;\nMAD r, {1, 2, 3, 4}, {2, 2, 2, 2}, {1, 1, 1, -8};"),
        [3.0, 5.0, 7.0, 0.0]
    );
}

#[test]
fn float_specials() {
    // inf - inf and 0 * inf are NaN; overflow gives inf.
    let r = t0f("TEMP r;\nTEMP big;\nMOV big, 3e38;\nADD r.x, big, big;\nMUL r.y, big, -big;\nRCP big.x, 0;\nADD r.z, big.x, -big.x;\nMUL r.w, big.x, 0;");
    assert_eq!(r[0], f32::INFINITY);
    assert_eq!(r[1], f32::NEG_INFINITY);
    assert!(r[2].is_nan() && r[3].is_nan());
    // Negating zero gives -0; |-0| is +0.
    let z = t0("TEMP r;\nTEMP z;\nMOV z, 0;\nMOV r.x, -z.x;\nMOV r.y, |r.x|;\nRCP r.z, -z.x;\nRCP r.w, z.x;");
    assert_eq!(z[0], 0x8000_0000);
    assert_eq!(z[1], 0);
    assert_eq!(f32::from_bits(z[2]), f32::NEG_INFINITY);
    assert_eq!(f32::from_bits(z[3]), f32::INFINITY);
    // Denormals are kept (the specs allow flushing; glemu does not).
    let d = t0f("TEMP r;\nMUL r, 1e-20, 1e-20;");
    assert!(d[0] > 0.0 && d[0] < f32::MIN_POSITIVE);
}

#[test]
fn min_max_with_nan_and_signed_zero() {
    let r = t0f("TEMP r;\nTEMP n;\nMOV n, 0;\nRCP n.x, 0;\nADD n.x, n.x, -n.x;\nMIN r.x, n.x, 2;\nMAX r.y, 3, n.x;\nMIN r.z, -4, 2;\nMAX r.w, -4, 2;");
    assert_eq!(r, [2.0, 3.0, -4.0, 2.0]);
    let z = t0("TEMP r;\nTEMP z;\nMOV z, 0;\nMIN r.x, z.x, -z.x;\nMAX r.y, -z.x, z.x;");
    assert_eq!(z[0], 0x8000_0000);
    assert_eq!(z[1], 0);
}

#[test]
fn cmp_lrp_and_dot_products() {
    assert_eq!(
        t0f("TEMP r;\nCMP r, {-1, 0, 1, -0.5}, {10, 10, 10, 10}, {20, 20, 20, 20};"),
        [10.0, 20.0, 20.0, 10.0]
    );
    assert_eq!(
        t0f("TEMP r;\nLRP r, {0, 1, 0.5, 0.25}, {4, 4, 4, 4}, {8, 8, 8, 8};"),
        [8.0, 4.0, 6.0, 7.0]
    );
    assert_eq!(
        t0f("TEMP r;\nDP2 r, {1, 2, 3, 4}, {5, 6, 7, 8};"),
        [17.0; 4]
    );
    assert_eq!(
        t0f("TEMP r;\nDP3 r, {1, 2, 3, 4}, {5, 6, 7, 8};"),
        [38.0; 4]
    );
    assert_eq!(
        t0f("TEMP r;\nDP4 r, {1, 2, 3, 4}, {5, 6, 7, 8};"),
        [70.0; 4]
    );
    assert_eq!(
        t0f("TEMP r;\nDPH r, {1, 2, 3, 4}, {5, 6, 7, 8};"),
        [46.0; 4]
    );
    assert_eq!(
        t0f("TEMP r;\nDP2A r, {1, 2, 3, 4}, {5, 6, 7, 8}, {100, 0, 0, 0};"),
        [117.0; 4]
    );
}

#[test]
fn dst_x2d_rfl_nrm_div() {
    assert_eq!(
        t0f("TEMP r;\nDST r, {9, 2, 3, 9}, {9, 5, 9, 7};"),
        [1.0, 10.0, 3.0, 7.0]
    );
    // x = a.x + b.x*c.x + b.y*c.y; y = a.y + b.x*c.z + b.y*c.w
    assert_eq!(
        t0f("TEMP r;\nX2D r, {1, 2, 0, 0}, {3, 4, 0, 0}, {1, 2, 3, 4};"),
        [12.0, 27.0, 12.0, 27.0]
    );
    // Reflect (1,-1,0) about the y axis scaled by 2: 2*dot/|axis|^2 * axis - dir.
    let r = t0f("TEMP r;\nRFL r.xyz, {0, 2, 0, 0}, {1, -1, 0, 0};");
    assert_eq!(&r[..3], &[-1.0, -1.0, 0.0]);
    let n = t0f("TEMP r;\nNRM r.xyz, {3, 0, 4, 9};");
    assert!((n[0] - 0.6).abs() < 1e-6 && (n[2] - 0.8).abs() < 1e-6 && n[1] == 0.0);
    assert_eq!(
        t0f("TEMP r;\nDIV r, {1, 2, 3, 4}, {4, 1, 1, 1}.x;"),
        [0.25, 0.5, 0.75, 1.0]
    );
}

#[test]
fn transcendental_precision() {
    // NV_gpu_program4 / ARB bounds: RCP and RSQ within 2^-22 relative, EX2/LG2 2^-22 (on
    // [0,1] / [1,2]), SIN/COS absolute 2^-22 on [-pi, pi], POW as EX2(y*LG2(x)).
    let tight = 1.0 / f64::from(1u32 << 22);
    for x in [0.1f32, 0.7, 1.0, 3.0, 12.5, 1e-3] {
        let r = t0f(&format!(
            "TEMP r;\nRCP r.x, {x:e};\nRSQ r.y, {x:e};\nEX2 r.z, {x:e};\nLG2 r.w, {x:e};"
        ));
        let xd = f64::from(x);
        assert!(rel_err(r[0], 1.0 / xd) < tight, "rcp {x}");
        assert!(rel_err(r[1], 1.0 / xd.sqrt()) < tight, "rsq {x}");
        assert!(rel_err(r[2], xd.exp2()) < 1e-6, "ex2 {x}");
        assert!((f64::from(r[3]) - xd.log2()).abs() < 1e-6, "lg2 {x}");
    }
    for x in [-3.0f32, -1.0, 0.0, 0.5, 2.0, 3.1] {
        let r = t0f(&format!(
            "TEMP r;\nSIN r.x, {x:e};\nCOS r.y, {x:e};\nSCS r.zw, {x:e};"
        ));
        let xd = f64::from(x);
        assert!((f64::from(r[0]) - xd.sin()).abs() < tight);
        assert!((f64::from(r[1]) - xd.cos()).abs() < tight);
    }
    let p = t0f("TEMP r;\nPOW r, 2, 10;");
    assert!(rel_err(p[0], 1024.0) < 1e-6);
    // SCS: cosine in x, sine in y.
    let s = t0f("TEMP r;\nSCS r.xy, 0;");
    assert_eq!(&s[..2], &[1.0, 0.0]);
    // Specials: RCP(0)=inf, LG2(0)=-inf, EX2(-inf)=0, RSQ(inf)=0.
    let sp = t0f(
        "TEMP r;\nTEMP i;\nRCP i.x, 0;\nRCP r.x, 0;\nLG2 r.y, 0;\nEX2 r.z, -i.x;\nRSQ r.w, i.x;",
    );
    assert_eq!(sp, [f32::INFINITY, f32::NEG_INFINITY, 0.0, 0.0]);
}

#[test]
fn rcc_clamps_to_spec_ranges() {
    let max = f32::from_bits(0x5f80_0000);
    let min = f32::from_bits(0x1f80_0000);
    let r = t0f(
        "TEMP r;\nTEMP z;\nMOV z, 0;\nRCC r.x, z.x;\nRCC r.y, -z.x;\nRCC r.z, 1e-30;\nRCC r.w, 4;",
    );
    assert_eq!(r, [max, -max, max, 0.25]);
    let r = t0f("TEMP r;\nRCC r.x, 1e30;\nRCC r.y, -1e30;\nRCC r.z, -1e-25;");
    assert_eq!(&r[..3], &[min, -min, -max]);
}

#[test]
fn lit_ssg_frc_rounding() {
    assert_eq!(
        t0f("TEMP r;\nLIT r, {0.5, 0.5, 0, 2};"),
        [1.0, 0.5, 0.25, 1.0]
    );
    assert_eq!(
        t0f("TEMP r;\nLIT r, {-0.5, 0.5, 0, 2};"),
        [1.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(t0f("TEMP r;\nLIT r, {0.5, 0, 0, 0};"), [1.0, 0.5, 1.0, 1.0]);
    assert_eq!(
        t0f("TEMP r;\nSSG r, {-3, 0, 2, -0.5};"),
        [-1.0, 0.0, 1.0, -1.0]
    );
    assert_eq!(
        t0f("TEMP r;\nFRC r, {-1.75, 1.25, 0, 3};"),
        [0.25, 0.25, 0.0, 0.0]
    );
    assert_eq!(
        t0f("TEMP r;\nFLR r, {-1.5, 1.5, 2, -0.5};"),
        [-2.0, 1.0, 2.0, -1.0]
    );
    assert_eq!(
        t0f("TEMP r;\nCEIL r, {-1.5, 1.5, 2, -0.5};")[..3],
        [-1.0, 2.0, 2.0]
    );
    // ROUND: ties to even.
    assert_eq!(
        t0f("TEMP r;\nROUND r, {0.5, 1.5, 2.5, -2.5};"),
        [0.0, 2.0, 2.0, -2.0]
    );
    assert_eq!(
        t0f("TEMP r;\nTRUNC r, {-1.7, 1.7, 3.7, -0.2};")[..3],
        [-1.0, 1.0, 3.0]
    );
    // Written as integers with .S / .U.
    assert_eq!(
        t0i("INT TEMP r;\nFLR.S r, {-1.5, 1.5, 2, -0.5};"),
        [-2, 1, 2, -1]
    );
    assert_eq!(
        t0("UINT TEMP r;\nROUND.U r, {0.5, 1.5, 7.5, 100.4};"),
        [0, 2, 8, 100]
    );
}

#[test]
fn saturation_modifiers() {
    assert_eq!(
        t0f("TEMP r;\nMOV.SAT r, {-1, 0.5, 2, -0};"),
        [0.0, 0.5, 1.0, 0.0]
    );
    assert_eq!(
        t0f("TEMP r;\nMOV.SSAT r, {-2, 0.5, 2, -0.5};"),
        [-1.0, 0.5, 1.0, -0.5]
    );
    // -0 saturates to +0.
    assert_eq!(t0("TEMP r;\nTEMP z;\nMOV z, 0;\nMOV.SAT r, -z;")[0], 0);
}

#[test]
fn set_on_instructions_true_values() {
    assert_eq!(
        t0f("TEMP r;\nSLT r, {1, 2, 3, 4}, {2, 2, 2, 2};"),
        [1.0, 0.0, 0.0, 0.0]
    );
    assert_eq!(
        t0f("TEMP r;\nSGE r, {1, 2, 3, 4}, {2, 2, 2, 2};"),
        [0.0, 1.0, 1.0, 1.0]
    );
    assert_eq!(
        t0f("TEMP r;\nSEQ r, {1, 2, 3, 4}, {2, 2, 2, 2};"),
        [0.0, 1.0, 0.0, 0.0]
    );
    assert_eq!(
        t0f("TEMP r;\nSNE r, {1, 2, 3, 4}, {2, 2, 2, 2};"),
        [1.0, 0.0, 1.0, 1.0]
    );
    assert_eq!(
        t0f("TEMP r;\nSLE r, {1, 2, 3, 4}, {2, 2, 2, 2};"),
        [1.0, 1.0, 0.0, 0.0]
    );
    assert_eq!(
        t0f("TEMP r;\nSGT r, {1, 2, 3, 4}, {2, 2, 2, 2};"),
        [0.0, 0.0, 1.0, 1.0]
    );
    assert_eq!(t0f("TEMP r;\nSTR r, 0, 0;"), [1.0; 4]);
    assert_eq!(t0f("TEMP r;\nSFL r, 1, 1;"), [0.0; 4]);
    // Integer TRUE is -1 / all ones.
    assert_eq!(
        t0i("INT TEMP r;\nSLT.S r, {-1, 2, 3, 4}, {0, 2, 2, 2};"),
        [-1, 0, 0, 0]
    );
    assert_eq!(
        t0("UINT TEMP r;\nSGT.U r, {4294967295, 2, 3, 4}, {0, 2, 2, 2};"),
        [u32::MAX, 0, u32::MAX, u32::MAX]
    );
    // NaN compares unordered: only SNE is true.
    let n = t0f("TEMP r;\nTEMP n;\nRCP n.x, 0;\nADD n.x, n.x, -n.x;\nSEQ r.x, n.x, n.x;\nSNE r.y, n.x, n.x;\nSLT r.z, n.x, 1;\nSGE r.w, n.x, 1;");
    assert_eq!(n, [0.0, 1.0, 0.0, 0.0]);
}

#[test]
fn integer_arithmetic_wraps() {
    assert_eq!(
        t0i("INT TEMP r;\nADD.S r, {2147483647, -2147483648, 5, 0}, {1, -1, -7, 0};"),
        [i32::MIN, i32::MAX, -2, 0]
    );
    assert_eq!(
        t0i("INT TEMP r;\nMUL.S r, {65536, -3, 7, 0}, {65536, 5, -1, 9};"),
        [0, -15, -7, 0]
    );
    assert_eq!(
        t0i("INT TEMP r;\nMAD.S r, {3, 3, 3, 3}, {4, -4, 0, 1}, {1, 1, 1, -3};"),
        [13, -11, 1, 0]
    );
    assert_eq!(
        t0i("INT TEMP r;\nMIN.S r, {-5, 3, 0, 7}, {2, 2, 2, 2};"),
        [-5, 2, 0, 2]
    );
    assert_eq!(
        t0("UINT TEMP r;\nMIN.U r, {4294967291, 3, 0, 7}, {2, 2, 2, 2};"),
        [2, 2, 0, 2]
    );
    assert_eq!(
        t0i("INT TEMP r;\nMAX.S r, {-5, 3, 0, 7}, {2, 2, 2, 2};"),
        [2, 3, 2, 7]
    );
    assert_eq!(
        t0i("INT TEMP r;\nABS.S r, {-5, 3, -2147483648, 0};"),
        [5, 3, i32::MIN, 0]
    );
    // Negating an unsigned operand is two's complement; |u| does nothing.
    assert_eq!(
        t0("UINT TEMP r;\nUINT TEMP t;\nMOV.U t, {1, 0, 2, 3};\nMOV.U r, -t;"),
        [u32::MAX, 0, u32::MAX - 1, u32::MAX - 2]
    );
    assert_eq!(
        t0i("INT TEMP r;\nSUB.S r, {1, 2, 3, 4}, {2, 2, 2, 2};"),
        [-1, 0, 1, 2]
    );
    assert_eq!(
        t0i("INT TEMP r;\nCMP.S r, {-1, 0, 1, -7}, {1, 1, 1, 1}, {2, 2, 2, 2};"),
        [1, 2, 2, 1]
    );
}

#[test]
fn integer_division_and_modulus() {
    assert_eq!(
        t0i("INT TEMP r;\nDIV.S r, {7, -7, 8, 0}, {2, 2, 2, 2}.x;"),
        [3, -3, 4, 0]
    );
    assert_eq!(
        t0("UINT TEMP r;\nDIV.U r, {7, 9, 8, 0}, {0, 1, 1, 1}.x;"),
        [u32::MAX; 4]
    );
    assert_eq!(
        t0("UINT TEMP r;\nMOD.U r, {7, 9, 8, 0}, {3, 3, 3, 3}.x;"),
        [1, 0, 2, 0]
    );
    assert_eq!(
        t0i("INT TEMP r;\nMOD.S r, {7, 9, 8, 0}, {0, 0, 0, 0}.x;"),
        [0; 4]
    );
    assert_eq!(
        t0("UINT TEMP r;\nSAD.U r, {1, 10, 5, 0}, {4, 3, 5, 0}, {100, 100, 100, 7};"),
        [103, 107, 100, 7]
    );
    assert_eq!(
        t0("UINT TEMP r;\nSAD.S r, {4294967295, 10, 5, 0}, {4, 4294967293, 5, 0}, {0, 0, 0, 0};"),
        [5, 13, 0, 0]
    );
}

#[test]
fn logic_and_shifts() {
    assert_eq!(
        t0("UINT TEMP r;\nAND.U r, {12, 10, 255, 0}, {10, 10, 15, 1};"),
        [8, 10, 15, 0]
    );
    assert_eq!(
        t0("UINT TEMP r;\nOR.U r, {12, 10, 255, 0}, {10, 10, 15, 1};"),
        [14, 10, 255, 1]
    );
    assert_eq!(
        t0("UINT TEMP r;\nXOR.U r, {12, 10, 255, 0}, {10, 10, 15, 1};"),
        [6, 0, 240, 1]
    );
    assert_eq!(t0("UINT TEMP r;\nNOT.U r, {0, 1, 2, 3};"), [!0, !1, !2, !3]);
    assert_eq!(
        t0("UINT TEMP r;\nSHL.U r, {1, 3, 5, 7}, 4;"),
        [16, 48, 80, 112]
    );
    // Counts >= 32 use their low five bits.
    assert_eq!(
        t0("UINT TEMP r;\nSHL.U r, {1, 3, 5, 7}, 33;"),
        [2, 6, 10, 14]
    );
    assert_eq!(t0("UINT TEMP r;\nSHL.U r, {1, 3, 5, 7}, 32;"), [1, 3, 5, 7]);
    assert_eq!(
        t0i("INT TEMP r;\nSHR.S r, {-16, 16, -1, 7}, 2;"),
        [-4, 4, -1, 1]
    );
    assert_eq!(
        t0("UINT TEMP r;\nSHR.U r, {4294967280, 16, 4294967295, 7}, 34;"),
        [0x3fff_fffc, 4, 0x3fff_ffff, 1]
    );
}

#[test]
fn bitfield_instructions() {
    // BFE(bits=4, offset=4).
    assert_eq!(
        t0("UINT TEMP r;\nBFE.U r, {4, 4, 0, 0}, {255, 171, 0, 1};"),
        [15, 10, 0, 0]
    );
    assert_eq!(
        t0i("INT TEMP r;\nBFE.S r, {4, 4, 0, 0}, {255, 171, 0, 128};"),
        [-1, -6, 0, -8]
    );
    // Width 0 extracts zero.
    assert_eq!(
        t0("UINT TEMP r;\nBFE.U r, {0, 4, 0, 0}, {255, 171, 0, 1};"),
        [0; 4]
    );
    // offset + width > 32: the bits up to 31.
    assert_eq!(
        t0("UINT TEMP r;\nBFE.U r, {8, 28, 0, 0}, {4294967295, 0, 0, 0};")[0],
        15
    );
    assert_eq!(
        t0("UINT TEMP r;\nBFI.U r, {4, 8, 0, 0}, {5, 255, 0, 0}, {0, 0, 4294967295, 0};"),
        [0x500, 0xf00, 0xffff_f0ff, 0]
    );
    assert_eq!(
        t0("UINT TEMP r;\nBFI.U r, {0, 8, 0, 0}, {5, 255, 0, 0}, {1, 2, 3, 4};"),
        [1, 2, 3, 4]
    );
    assert_eq!(
        t0("UINT TEMP r;\nBFR.U r, {1, 2, 0, 4294967295};"),
        [0x8000_0000, 0x4000_0000, 0, u32::MAX]
    );
    assert_eq!(
        t0("UINT TEMP r;\nBTC.U r, {0, 7, 4294967295, 256};"),
        [0, 3, 32, 1]
    );
    assert_eq!(
        t0("UINT TEMP r;\nBTFL.U r, {0, 8, 4294967295, 6};"),
        [u32::MAX, 3, 0, 1]
    );
    assert_eq!(t0i("INT TEMP r;\nBTFL.S r, {0, 8, -1, 6};"), [-1, 3, 0, 1]);
    assert_eq!(
        t0("UINT TEMP r;\nBTFM.U r, {0, 8, 4294967295, 6};"),
        [u32::MAX, 3, 31, 2]
    );
    assert_eq!(
        t0i("INT TEMP r;\nBTFM.S r, {0, 8, -1, -8};"),
        [-1, 3, -1, 2]
    );
}

#[test]
fn integer_condition_codes_overflow_and_carry() {
    // ADD.S.CC sets OF on signed overflow and CF on unsigned carry.
    let r = t0i("INT TEMP r;\nINT TEMP t;\nMOV.S r, 0;\nADD.S.CC t, {2147483647, -1, 1, 0}, {1, 1, 1, 0};\nMOV.S r (OF), 1;\nMOV.S r (CF), 2;");
    // x: OF (and no carry) -> 1; y: -1+1 carries -> 2; z: neither -> 0; w: zero -> 0.
    assert_eq!(r, [1, 2, 0, 0]);
    // Subtract: CF set when no borrow (a >= b unsigned).
    let r = t0i("INT TEMP r;\nINT TEMP t;\nMOV.S r, 0;\nSUB.S.CC t, {5, 1, -2147483648, 0}, {3, 2, 1, 0};\nMOV.S r (CF), 1;\nMOV.S r (OF), 2;");
    assert_eq!(r, [1, 0, 2, 1]);
    // A negated operand turns ADD into SUB for the flags.
    let r = t0i("INT TEMP r;\nINT TEMP t;\nMOV.S r, 0;\nADD.S.CC t, {5, 1, 0, 0}, -{3, 2, 0, 0};\nMOV.S r (CF), 1;");
    assert_eq!(r, [1, 0, 1, 1]);
}

#[test]
fn condition_code_tests_on_floats() {
    let body = |op: &str| {
        t0f(&format!(
            "TEMP r;\nTEMP c;\nTEMP n;\nRCP n.x, 0;\nADD n.x, n.x, -n.x;\nMOV c, {{-1, 0, 1, 0}};\nMOV c.w, n.x;\nMOV r, 0;\nMOV.CC c, c;\nMOV r ({op}), 1;"
        ))
    };
    assert_eq!(body("LT"), [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(body("EQ"), [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(body("GT"), [0.0, 0.0, 1.0, 0.0]);
    assert_eq!(body("NE"), [1.0, 0.0, 1.0, 1.0]);
    assert_eq!(body("LE"), [1.0, 1.0, 0.0, 0.0]);
    assert_eq!(body("GE"), [0.0, 1.0, 1.0, 0.0]);
    assert_eq!(body("NAN"), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(body("LEG"), [1.0, 1.0, 1.0, 0.0]);
    assert_eq!(body("TR"), [1.0; 4]);
    assert_eq!(body("FL"), [0.0; 4]);
    assert_eq!(body("SF"), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(body("NSF"), [0.0, 1.0, 1.0, 0.0]);
    // Swizzled test and CC1.
    let r = t0f(
        "TEMP r;\nTEMP c;\nMOV c, {-1, 2, 0, 0};\nMOV.CC1 c, c;\nMOV r, 0;\nMOV r (GT1.yyxx), 1;",
    );
    assert_eq!(r, [1.0, 1.0, 0.0, 0.0]);
    // Only components enabled in the write mask update the condition code.
    let r = t0f("TEMP r;\nTEMP c;\nMOV.CC c, {1, 1, 1, 1};\nMOV.CC c.x, {-1, -1, -1, -1};\nMOV r, 0;\nMOV r (LT), 1;");
    assert_eq!(r, [1.0, 0.0, 0.0, 0.0]);
}

#[test]
fn write_masks_and_swizzles() {
    assert_eq!(
        t0f("TEMP r;\nMOV r, 0;\nMOV r.yw, {1, 2, 3, 4};"),
        [0.0, 2.0, 0.0, 4.0]
    );
    assert_eq!(
        t0f("TEMP r;\nMOV r, {1, 2, 3, 4}.wzyx;"),
        [4.0, 3.0, 2.0, 1.0]
    );
    assert_eq!(t0f("TEMP r;\nMOV r, {1, 2, 3, 4}.y;"), [2.0; 4]);
    assert_eq!(
        t0f("TEMP r;\nMOV r, -|{-1, 2, -3, 4}|;"),
        [-1.0, -2.0, -3.0, -4.0]
    );
}

#[test]
fn conversions_i2f_and_cvt_rounding() {
    assert_eq!(
        t0f("TEMP r;\nI2F.S r, {-1, 2, 0, 16777217};"),
        [-1.0, 2.0, 0.0, 16777216.0]
    );
    assert_eq!(
        t0f("TEMP r;\nI2F.U r, {4294967295, 2, 0, 7};"),
        [4294967296.0, 2.0, 0.0, 7.0]
    );
    let v = "{-2.5, 2.5, -0.5, 3.5}";
    assert_eq!(
        t0i(&format!("INT TEMP r;\nCVT.S32.F32 r, {v};")),
        [-2, 2, 0, 4]
    );
    assert_eq!(
        t0i(&format!("INT TEMP r;\nCVT.S32.F32.ROUND r, {v};")),
        [-2, 2, 0, 4]
    );
    assert_eq!(
        t0i(&format!("INT TEMP r;\nCVT.S32.F32.FLR r, {v};")),
        [-3, 2, -1, 3]
    );
    assert_eq!(
        t0i(&format!("INT TEMP r;\nCVT.S32.F32.CEIL r, {v};")),
        [-2, 3, 0, 4]
    );
    assert_eq!(
        t0i(&format!("INT TEMP r;\nCVT.S32.F32.TRUNC r, {v};")),
        [-2, 2, 0, 3]
    );
    // Integer narrowing: SAT clamps, otherwise low bits.
    assert_eq!(
        t0("UINT TEMP r;\nCVT.U32.S32 r, {4294967291, 5, 0, 1};"),
        [(-5i32) as u32, 5, 0, 1]
    );
    assert_eq!(
        t0f("TEMP r;\nCVT.F32.U32 r, {7, 9, 0, 1};"),
        [7.0, 9.0, 0.0, 1.0]
    );
}

/// NV_gpu_program5 section 2.X.8.Z, CVT: F16 is "a floating-point type, but whose
/// sixteen least significant bits describe a 16-bit floating-point value"; 8/16-bit
/// operands are reduced to their size first; results "drop the most significant bits"
/// without SAT and are "clamped to the closest value representable" with it.
#[test]
fn cvt_f16_small_types_and_saturation() {
    // f32 → F16 bits (1.0, -2.0, 65504, 2^-24) and back.
    assert_eq!(
        t0("UINT TEMP r;\nCVT.F16.F32 r, {1, -2, 65504, 5.9604644775390625e-8};"),
        [0x3c00, 0xc000, 0x7bff, 0x0001]
    );
    assert_eq!(
        t0f("TEMP r;\nCVT.F32.F16 r, {15360, 49152, 31744, 1};"),
        [1.0, -2.0, f32::INFINITY, 5.960_464_5e-8]
    );
    // Rounding modifiers pick the half neighbour: 1 + 2^-11 is a tie.
    let tie = "{1.00048828125, -1.00048828125, 65519, 70000}";
    assert_eq!(
        t0(&format!("UINT TEMP r;\nCVT.F16.F32 r, {tie};")),
        [0x3c00, 0xbc00, 0x7bff, 0x7c00]
    );
    assert_eq!(
        t0(&format!("UINT TEMP r;\nCVT.F16.F32.CEIL r, {tie};")),
        [0x3c01, 0xbc00, 0x7c00, 0x7c00]
    );
    assert_eq!(
        t0(&format!("UINT TEMP r;\nCVT.F16.F32.FLR r, {tie};")),
        [0x3c00, 0xbc01, 0x7bff, 0x7bff]
    );
    assert_eq!(
        t0(&format!("UINT TEMP r;\nCVT.F16.F32.TRUNC r, {tie};")),
        [0x3c00, 0xbc00, 0x7bff, 0x7bff]
    );
    // 8/16-bit operands: only the low bits count, sign-extended for S8/S16.
    assert_eq!(
        t0i("INT TEMP r;\nCVT.S32.S8 r, {255, 384, 127, -129};"),
        [-1, -128, 127, 127]
    );
    assert_eq!(
        t0("UINT TEMP r;\nCVT.U32.U16 r, {65537, 4294967295, 7, 0};"),
        [1, 65535, 7, 0]
    );
    // 8/16-bit results: low bits (widened by sign) or clamped with SAT.
    assert_eq!(
        t0i("INT TEMP r;\nCVT.S8.S32 r, {200, -200, 5, 256};"),
        [-56, 56, 5, 0]
    );
    assert_eq!(
        t0i("INT TEMP r;\nCVT.S8.S32.SAT r, {200, -200, 5, 256};"),
        [127, -128, 5, 127]
    );
    assert_eq!(
        t0("UINT TEMP r;\nCVT.U16.F32.SAT r, {-3, 70000, 2.5, 65535.7};"),
        [0, 65535, 2, 65535]
    );
    // Integer saturation at 32 bits.
    assert_eq!(
        t0("UINT TEMP r;\nCVT.U32.S32.SAT r, {-1, 5, -2147483648, 0};"),
        [0, 5, 0, 0]
    );
    // 64-bit registers meet 8/16-bit and F16 types.
    assert_eq!(
        t0i("INT TEMP r;\nLONG INT TEMP d;\nCVT.S64.S8 d, {255, 128, 1, 0};\nCVT.S32.S64 r, d;"),
        [-1, -128, 1, 0]
    );
    assert_eq!(
        t0i("INT TEMP r;\nLONG INT TEMP d;\nMOV.S64 d, {-300, 300, 70000, 1};\nCVT.S16.S64.SAT r, d;"),
        [-300, 300, 32767, 1]
    );
    assert_eq!(
        t0f("TEMP r;\nLONG TEMP d;\nCVT.F64.F16 d, {15360, 48128, 0, 0};\nMOV.F r, d;"),
        [1.0, -1.0, 0.0, 0.0]
    );
    assert_eq!(
        t0("UINT TEMP r;\nLONG TEMP d;\nMOV.F64 d, {0.333333333333333333, 2, 0, 0};\nCVT.F16.F64 r, d;"),
        [0x3555, 0x4000, 0, 0]
    );
}

/// CVT into a 64-bit register: "the result components are converted to values of the
/// same base data type with a size matching the result register's component size"; an
/// F16 result keeps its definition (half bits in the 16 low bits).
#[test]
fn cvt_results_widen_to_64_bit_registers() {
    assert_eq!(
        t0("UINT TEMP r;\nLONG INT TEMP d;\nCVT.S32.F32 d, {-5, 3, 0, 0};\nUP64.U r, d;"),
        [0xffff_fffb, 0xffff_ffff, 3, 0]
    );
    let m5 = (-5.0f64).to_bits();
    assert_eq!(
        t0("UINT TEMP r;\nLONG TEMP d;\nCVT.F32.S32 d, {-5, 3, 0, 0};\nUP64.U r, d;"),
        [m5 as u32, (m5 >> 32) as u32, 0, 0x4008_0000]
    );
    assert_eq!(
        t0("UINT TEMP r;\nLONG TEMP d;\nCVT.F16.S32 d, {-5, 3, 0, 0};\nUP64.U r, d;"),
        [0xc500, 0, 0x4200, 0]
    );
    assert_eq!(
        t0("UINT TEMP r;\nLONG UINT TEMP d;\nCVT.U8.S32 d, {-5, 3, 0, 0};\nUP64.U r, d;"),
        [0xfb, 0, 3, 0]
    );
}

/// Literals of fp64 and 64-bit integer instructions keep full precision
/// (NV_gpu_program5 / NV_gpu_program_fp64): 0.1 + 0.2 - 0.3 is 2^-54 in f64, while f32
/// literals widened to f64 would give about -7.45e-9.
#[test]
fn literals_of_64_bit_instructions_keep_full_precision() {
    let f = t0f(
        "TEMP f;\nLONG TEMP d;\nADD.F64 d, 0.1, {0.2, 0, 0, 0};\nSUB.F64 d, d, 0.3;\nMOV.F f, d;",
    );
    assert_eq!(f[0], (0.1f64 + 0.2 - 0.3) as f32);
    assert_eq!(f[3], (0.1f64 - 0.3) as f32);
    // A 64-bit integer literal beyond 32 bits, split into words by UP64.
    assert_eq!(
        t0("UINT TEMP r;\nLONG UINT TEMP d;\nMOV.U64 d, {4294967301, 18446744073709551615, 0, 0};\nUP64.U r, d;"),
        [5, 1, 0xffff_ffff, 0xffff_ffff]
    );
    assert_eq!(
        t0("UINT TEMP r;\nLONG INT TEMP d;\nADD.S64 d, {-9223372036854775808, 0, 0, 0}, {1, 0, 0, 0};\nUP64.U r, d;"),
        [1, 0x8000_0000, 0, 0]
    );
    // 1/3 written out to f64 precision survives a CVT to F64 and back.
    let third = "0.33333333333333331483";
    let r = t0(&format!(
        "UINT TEMP r;\nLONG TEMP d;\nMOV.F64 d, {third};\nUP64.U r, d;"
    ));
    let bits = (1.0f64 / 3.0).to_bits();
    assert_eq!(r[..2], [bits as u32, (bits >> 32) as u32]);
}

/// SAD with 64-bit types (NV_gpu_program5 Table X.13 lists SAD with 64-bit integer
/// modifiers): |op0 - op1| + op2, op2 and the result unsigned, the sum wrapping.
#[test]
fn sad_64_bit() {
    assert_eq!(
        t0("UINT TEMP r;\nLONG INT TEMP d;\nLONG UINT TEMP u;\nSAD.S64 u, {-5, 10, -9223372036854775808, 0}, {5, -10, 9223372036854775807, 0}, {1, 2, 3, 0};\nUP64.U r, u;"),
        [11, 0, 22, 0]
    );
    assert_eq!(
        t0("UINT TEMP r;\nLONG INT TEMP d;\nLONG UINT TEMP u;\nSAD.S64 u, {-9223372036854775808, 0, 0, 0}, {9223372036854775807, 0, 0, 0}, {3, 0, 0, 0};\nUP64.U r, u;"),
        [2, 0, 0, 0]
    );
    assert_eq!(
        t0("UINT TEMP r;\nLONG UINT TEMP u;\nSAD.U64 u, {3, 18446744073709551615, 0, 0}, {5, 0, 0, 0}, {0, 1, 0, 0};\nUP64.U r, u;"),
        [2, 0, 0, 0]
    );
    assert_eq!(
        t0("UINT TEMP r;\nLONG UINT TEMP u;\nSAD.U64 u, {3, 18446744073709551615, 0, 0}, {5, 0, 0, 0}, {0, 1, 0, 0};\nUP64.U r, u.y;"),
        [0, 0, 0, 0]
    );
}

#[test]
fn pack_unpack_round_trips() {
    assert_eq!(
        t0f("TEMP r;\nTEMP p;\nPK2H p, {1.5, -2, 0, 0};\nUP2H r, p.x;"),
        [1.5, -2.0, 1.5, -2.0]
    );
    assert_eq!(
        t0f("TEMP r;\nTEMP p;\nPK2US p, {0, 1, 0, 0};\nUP2US r, p.x;"),
        [0.0, 1.0, 0.0, 1.0]
    );
    assert_eq!(
        t0f("TEMP r;\nTEMP p;\nPK4UB p, {0, 1, 2, -1};\nUP4UB r, p.x;"),
        [0.0, 1.0, 1.0, 0.0]
    );
    assert_eq!(
        t0f("TEMP r;\nTEMP p;\nPK4B p, {-1, 1, 0, 5};\nUP4B r, p.x;"),
        [-1.0, 1.0, 0.0, 1.0]
    );
    // Raw packing layout.
    assert_eq!(t0("UINT TEMP r;\nPK4UB.U r, {0, 1, 0, 1};")[0], 0xff00_ff00);
    assert_eq!(t0("UINT TEMP r;\nPK2H.U r, {1, 0, 0, 0};")[0], 0x3c00);
}

#[test]
fn fp64_and_pk64() {
    let text = "TEMP f;\nLONG TEMP d;\nMOV.F64 d, {1.5, 2, 3, 4};\nADD.F64 d, d, {0.25, 0.5, 1, -4};\nMUL.F64 d, d, 2;\nMOV.F f, d;";
    assert_eq!(t0f(text), [3.5, 5.0, 8.0, 0.0]);
    // 1/3 in f64 then narrowed.
    assert_eq!(
        t0f("TEMP f;\nLONG TEMP d;\nDIV.F64 d, 1, 3;\nMOV.F f, d;")[0],
        (1.0f64 / 3.0) as f32
    );
    // PK64 packs x|y<<32 and z|w<<32; UP64 undoes it.
    assert_eq!(
        t0("UINT TEMP r;\nLONG UINT TEMP d;\nPK64.U d, {1, 2, 3, 4};\nUP64.U r, d;"),
        [1, 2, 3, 4]
    );
    assert_eq!(
        t0("UINT TEMP r;\nLONG UINT TEMP d;\nMOV.U64 d, {4294967295, 0, 0, 0};\nADD.U64 d, d, 1;\nUP64.U r, d;"),
        [0, 1, 1, 0]
    );
}

#[test]
fn address_registers_and_relative_params() {
    let text = "!!NVfp4.0\nPARAM arr[4] = { {1,1,1,1}, {2,2,2,2}, {3,3,3,3}, {4,4,4,4} };\nINT TEMP a;\nTEMP r;\nFLR.S a, fragment.color;\nMOV r, 0;\nMOV r.x, arr[a.x].x;\nMOV r.y, arr[a.y + 1].x;\nMOV result.color, r;\nEND\n";
    let p = assemble(text, glemu_programs::ir::Stage::Fragment);
    let r = run_with(&p, 2, &[], TestEnv::default(), |st| {
        st.set_input_f32(0, 0, [2.5, 0.0, 0.0, 0.0]);
        // Lane 1: index 7 and 3+1 are out of range: read zero, counted.
        st.set_input_f32(0, 1, [7.0, 3.0, 0.0, 0.0]);
    });
    let stats = r.stats.expect("run");
    assert_eq!(r.state.output_f32(0, 0)[..2], [3.0, 2.0]);
    assert_eq!(r.state.output_f32(0, 1)[..2], [0.0, 0.0]);
    assert_eq!(stats.oob_reads, 2);
}

#[test]
fn mul_hi_and_24_bit_multiplies() {
    assert_eq!(
        t0("UINT TEMP r;\nMUL.U.HI r, {4294967295, 65536, 3, 0}, {4294967295, 65536, 5, 7};"),
        [0xffff_fffe, 1, 0, 0]
    );
    assert_eq!(
        t0i("INT TEMP r;\nMUL.S.HI r, {-1, -65536, 3, -2147483648}, {1, 65536, 5, -2147483648};"),
        [-1, -1, 0, 0x4000_0000]
    );
    assert_eq!(
        t0i("INT TEMP r;\nMUL.S24 r, {-3, 1000, 0, 8388607}, {5, 1000, 9, 2};"),
        [-15, 1_000_000, 0, 16_777_214]
    );
}

#[test]
fn relative_writes_out_of_range_are_dropped_and_counted() {
    let text = "!!NVfp4.0\nTEMP arr[3];\nINT TEMP i;\nTEMP r;\nFLR.S i, fragment.color;\nMOV arr[0], 0;\nMOV arr[1], 0;\nMOV arr[2], 0;\nMOV arr[i.x], 5;\nADD r, arr[0], arr[1];\nADD r, r, arr[2];\nMOV result.color, r;\nEND\n";
    let p = assemble(text, glemu_programs::ir::Stage::Fragment);
    let r = run_with(&p, 3, &[], TestEnv::default(), |st| {
        st.set_input_f32(0, 0, [1.0; 4]);
        st.set_input_f32(0, 1, [3.0; 4]);
        st.set_input_f32(0, 2, [-1.0; 4]);
    });
    let s = r.stats.expect("run");
    assert_eq!(r.state.output_f32(0, 0), [5.0; 4]);
    assert_eq!(r.state.output_f32(0, 1), [0.0; 4]);
    assert_eq!(r.state.output_f32(0, 2), [0.0; 4]);
    // Two lanes × four components dropped.
    assert_eq!(s.oob_writes, 8);
}

#[test]
fn long_registers_convert_at_32_bit_access() {
    // A 32-bit float result written to a LONG register is stored as f64 and read back
    // as f32; integers are sign- or zero-extended.
    let r = t0f("TEMP f;\nLONG TEMP d;\nMOV d, {0.1, -2, 3, 4};\nADD.F64 d, d, d;\nMOV f, d;");
    assert_eq!(r, [((0.1f32 as f64) * 2.0) as f32, -4.0, 6.0, 8.0]);
    // A 64-bit result written to a 32-bit register is narrowed.
    let r = t0f("TEMP f;\nLONG TEMP d;\nDIV.F64 d, {1, 2, 3, 4}, {3, 3, 3, 3}.x;\nMOV.F64 f, d;");
    assert_eq!(r, [1.0 / 3.0, 2.0 / 3.0, 1.0, 4.0 / 3.0]);
    // S32 into a LONG INT register sign-extends: UP64 shows the high word.
    assert_eq!(
        t0("UINT TEMP r;\nLONG INT TEMP d;\nMOV.S d, {-1, 5, 0, 0};\nUP64.S r, d;"),
        [u32::MAX, u32::MAX, 5, 0]
    );
    // 64-bit integer arithmetic wraps at 64 bits.
    assert_eq!(
        t0("UINT TEMP r;\nLONG UINT TEMP d;\nPK64.U d, {4294967295, 4294967295, 0, 0};\nADD.U64 d, d, {1, 0, 0, 0}.x;\nUP64.U r, d;"),
        [0, 0, 1, 0]
    );
}
