//! Each function three ways over its inputs: the scalar port, the vector form ([`lanes`],
//! when the CPU has AVX2 and FMA) and, on x86-64 glibc with AVX2 and FMA (whose `f32`
//! functions are glibc's FMA build, which the reftests' images were made on), the C
//! library; every result bit for bit, NaN payloads included.
//!
//! The default tests cover every input the vector forms compute (and every non-negative
//! log2 input) on two threads, and a stride of the rest; `every_input_of_every_function`
//! (ignored: several minutes) covers all 2^32 inputs of each.

use crate::{lanes, pow, pow_lanes, Func, LANES};
use proptest::prelude::*;

/// The C library here is glibc's FMA build.
fn glibc_fma() -> bool {
    #[cfg(all(target_arch = "x86_64", target_os = "linux", target_env = "gnu"))]
    return is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
    #[cfg(not(all(target_arch = "x86_64", target_os = "linux", target_env = "gnu")))]
    false
}

fn libm(f: Func) -> fn(f32) -> f32 {
    match f {
        Func::Sin => f32::sin,
        Func::Cos => f32::cos,
        Func::Exp2 => f32::exp2,
        Func::Log2 => f32::log2,
    }
}

/// Bits `from, from + step, ...` below `to`, sixteen at a time, three ways.
fn sweep(f: Func, from: u64, to: u64, step: u64) {
    let (port, c) = (f.scalar(), libm(f));
    let glibc = glibc_fma();
    let mut x = from;
    while x < to {
        let v: [u32; LANES] = std::array::from_fn(|k| (x + k as u64 * step).min(to - 1) as u32);
        let mut got = v;
        lanes(f, &mut got);
        for (g, x) in got.into_iter().zip(v) {
            let want = port(f32::from_bits(x)).to_bits();
            assert_eq!(g, want, "{f:?} lanes({x:#x}) = {g:#x}, the port {want:#x}");
            if glibc {
                let lib = c(f32::from_bits(x)).to_bits();
                assert_eq!(want, lib, "{f:?} port({x:#x}) = {want:#x}, libm {lib:#x}");
            }
        }
        x += LANES as u64 * step;
    }
}

/// [`sweep`] of `[from, to)` in two halves on two threads.
fn sweep2(f: Func, from: u64, to: u64, step: u64) {
    let mid = from + (to - from) / 2 / step * step;
    std::thread::scope(|sc| {
        sc.spawn(|| sweep(f, from, mid, step));
        sweep(f, mid, to, step);
    });
}

/// The vector forms ran on this CPU (else the tests above compared the port with itself).
fn vector_ran() -> bool {
    let mut out = [0; LANES];
    crate::simd::unary(Func::Sin, &[0; LANES], &mut out).is_some()
}

/// Says so when `test` compares nothing: without AVX2 and FMA the vector forms are the
/// port (and glibc is not the FMA build), so all the test checks is that the port runs
/// on its inputs without a panic.
fn say_if_nothing_compared(test: &str) {
    if !vector_ran() {
        eprintln!("{test}: no AVX2 and FMA on this CPU: the port ran, nothing compared");
    }
}

#[test]
fn log2_every_non_negative_input() {
    say_if_nothing_compared("log2_every_non_negative_input");
    sweep2(Func::Log2, 0, 0x8000_0000, 1);
    sweep(Func::Log2, 0x8000_0000, 1 << 32, 4099);
}

#[test]
fn exp2_every_input_below_128() {
    say_if_nothing_compared("exp2_every_input_below_128");
    // Below 128 in magnitude (and NaN, inf, the overflows at a stride).
    sweep2(Func::Exp2, 0, 0x4300_0000, 1);
    sweep2(Func::Exp2, 0x8000_0000, 0xc300_0000, 1);
    sweep(Func::Exp2, 0x4300_0000, 0x8000_0000, 4099);
    sweep(Func::Exp2, 0xc300_0000, 1 << 32, 4099);
}

#[test]
fn sin_cos_every_input_below_120() {
    say_if_nothing_compared("sin_cos_every_input_below_120");
    for f in [Func::Sin, Func::Cos] {
        sweep2(f, 0, 0x42f0_0000, 1);
        sweep2(f, 0x8000_0000, 0xc2f0_0000, 1);
        // The large reduction at a stride; every input in the ignored test.
        sweep2(f, 0x42f0_0000, 0x8000_0000, 61);
        sweep2(f, 0xc2f0_0000, 1 << 32, 61);
    }
}

#[test]
#[ignore = "all 2^32 inputs of four functions: several minutes"]
fn every_input_of_every_function() {
    say_if_nothing_compared("every_input_of_every_function");
    for f in [Func::Sin, Func::Cos, Func::Exp2, Func::Log2] {
        sweep2(f, 0, 1 << 32, 1);
    }
}

/// `pow` three ways on the pairs `x`, `y`.
fn pow_check(x: [u32; LANES], y: [u32; LANES]) {
    let glibc = glibc_fma();
    let mut got = x;
    pow_lanes(&mut got, &y);
    for l in 0..LANES {
        let (a, b) = (f32::from_bits(x[l]), f32::from_bits(y[l]));
        let want = pow(a, b).to_bits();
        assert_eq!(
            got[l], want,
            "pow lanes({a:e}, {b:e}) = {:#x}, the port {want:#x}",
            got[l]
        );
        if glibc {
            let lib = a.powf(b).to_bits();
            assert_eq!(
                want, lib,
                "pow port({:#x}, {:#x}) = {want:#x}, libm {lib:#x}",
                x[l], y[l]
            );
        }
    }
}

/// A xorshift stream of bit patterns.
fn stream(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    }
}

#[test]
fn pow_on_many_pairs() {
    say_if_nothing_compared("pow_on_many_pairs");
    let run = |seed: u64| {
        let mut next = stream(seed);
        for round in 0..1 << 19 {
            let x: [u32; LANES] = std::array::from_fn(|_| {
                let r = next();
                match round % 4 {
                    // Any bits, positive numbers near 1, small y: the common ranges.
                    0 => r as u32,
                    1 => 0x3f00_0000 + (r as u32 & 0x00ff_ffff),
                    _ => r as u32 & 0x7fff_ffff,
                }
            });
            let y: [u32; LANES] = std::array::from_fn(|_| {
                let r = next() >> 32;
                match round % 4 {
                    0 => r as u32,
                    // Moderate exponents of both signs.
                    2 => (0x3c00_0000 + (r as u32 & 0x07ff_ffff)) | ((r as u32) << 31),
                    // Integers, odd and even, of both signs.
                    3 => ((r % 128) as f32 - 64.0).to_bits(),
                    _ => r as u32 & 0xbfff_ffff,
                }
            });
            pow_check(x, y);
        }
    };
    std::thread::scope(|sc| {
        sc.spawn(|| run(0x9e37_79b9_7f4a_7c15));
        run(0xd1b5_4a32_d192_ed03);
    });
}

/// Bit patterns weighted towards what is special: NaNs with payloads and both signs,
/// signed zeros, infinities, subnormals, ±1, huge and tiny numbers, integers.
fn special() -> impl Strategy<Value = u32> {
    prop_oneof![
        any::<u32>(),
        Just(0u32),
        Just(0x8000_0000),
        Just(0x7f80_0000),
        Just(0xff80_0000),
        Just(0x3f80_0000),
        Just(0xbf80_0000),
        (0u32..0x0080_0000, any::<bool>()).prop_map(|(m, s)| m | (s as u32) << 31),
        (1u32..0x0080_0000, any::<bool>()).prop_map(|(m, s)| 0x7f80_0000 | m | (s as u32) << 31),
        (-200i32..200).prop_map(|n| (n as f32).to_bits()),
        (-200i32..200).prop_map(|n| (n as f32 + 0.5).to_bits()),
        (0x4e00_0000u32..0x7f80_0000, any::<bool>()).prop_map(|(m, s)| m | (s as u32) << 31),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn special_operands(x in prop::array::uniform16(special()), y in prop::array::uniform16(special())) {
        say_if_nothing_compared("special_operands");
        pow_check(x, y);
        pow_check(y, x);
        for f in [Func::Sin, Func::Cos, Func::Exp2, Func::Log2] {
            for v in [x, y] {
                let mut got = v;
                lanes(f, &mut got);
                for l in 0..LANES {
                    let a = f32::from_bits(v[l]);
                    let want = f.scalar()(a).to_bits();
                    prop_assert_eq!(got[l], want);
                    if glibc_fma() {
                        prop_assert_eq!(want, libm(f)(a).to_bits(), "{:?}({:#x})", f, v[l]);
                    }
                }
            }
        }
    }
}

#[test]
fn the_vector_forms_run_where_the_cpu_has_them() {
    #[cfg(target_arch = "x86_64")]
    assert_eq!(
        vector_ran(),
        is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")
    );
    // Common arguments are not left to the scalar port.
    if vector_ran() {
        let x: [u32; LANES] = std::array::from_fn(|l| (l as f32 * 0.37 - 2.0).to_bits());
        let y: [u32; LANES] = std::array::from_fn(|l| (l as f32 * 0.21 + 0.5).to_bits());
        for f in [Func::Sin, Func::Cos, Func::Exp2] {
            let mut out = [0; LANES];
            assert_eq!(crate::simd::unary(f, &x, &mut out), Some(0), "{f:?}");
        }
        let mut out = [0; LANES];
        assert_eq!(crate::simd::unary(Func::Log2, &y, &mut out), Some(0));
        assert_eq!(crate::simd::pow(&y, &x, &mut out), Some(0));
    }
}

/// The ports as baseline x86-64 compiles them (`mul_add` a call of libm's `fma`) give the
/// bits of the FMA-compiled ones the public functions run here.
#[cfg(target_arch = "x86_64")]
#[test]
fn baseline_build_equals_fma_build() {
    if !is_x86_feature_detected!("fma") {
        // The public functions run the baseline build too: there is nothing to compare.
        eprintln!("baseline_build_equals_fma_build: no FMA on this CPU, nothing compared");
        return;
    }
    let mut next = stream(0x2545_f491_4f6c_dd1d);
    for _ in 0..1 << 20 {
        let (a, b) = (next() as u32, next() as u32);
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        for f in [Func::Sin, Func::Cos, Func::Exp2, Func::Log2] {
            assert_eq!(
                crate::simd::port(f, x).to_bits(),
                f.scalar()(x).to_bits(),
                "{f:?}({a:#x})"
            );
        }
        assert_eq!(
            crate::pow::pow(x, y).to_bits(),
            pow(x, y).to_bits(),
            "pow({a:#x}, {b:#x})"
        );
    }
}

#[test]
fn special_values() {
    use crate::{cos, exp2, log2, sin};
    assert_eq!(log2(1.0).to_bits(), 0);
    assert_eq!(log2(-0.0), f32::NEG_INFINITY);
    assert_eq!(log2(f32::INFINITY), f32::INFINITY);
    assert_eq!(log2(-1.0).to_bits(), 0xffc0_0000);
    assert_eq!(log2(f32::from_bits(0x7f80_0001)).to_bits(), 0x7fc0_0001);
    assert_eq!(log2(f32::from_bits(1)), -149.0);
    assert_eq!(exp2(3.0), 8.0);
    assert_eq!(exp2(f32::NEG_INFINITY), 0.0);
    assert_eq!(exp2(200.0), f32::INFINITY);
    assert_eq!(sin(-0.0).to_bits(), 0x8000_0000);
    assert_eq!(cos(0.0), 1.0);
    assert_eq!(sin(f32::INFINITY).to_bits(), 0xffc0_0000);
    assert_eq!(pow(-2.0, 3.0), -8.0);
    assert_eq!(pow(f32::NAN, 0.0), 1.0);
    assert_eq!(pow(-1.0, 0.5).to_bits(), 0xffc0_0000);
    assert_eq!(pow(-0.0, -3.0), f32::NEG_INFINITY);
}
