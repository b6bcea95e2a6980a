//! End-to-end use of the public API the way the pipeline and the scene runner use it:
//! create, upload client pixels, set parameters by name, unpack NV operands, execute.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic

use glemu_textures::nv::{unpack, NvOffset, NvOpcode};
use glemu_textures::upload::{PixelFormat, PixelType, Pixels};
use glemu_textures::{execute, patterns, Format, Lanes, SamplerState, Target, Texture};

fn reg(v: [f32; 4]) -> [[u32; 16]; 4] {
    v.map(|c| [c.to_bits(); 16])
}

#[test]
fn upload_configure_and_sample_through_nv_operands() {
    // 2x2 RGB/UNSIGNED_BYTE with the default unpack alignment of 4 (rows padded to 8).
    let data = [255, 0, 0, 0, 255, 0, 0, 0, 0, 0, 255, 255, 255, 255, 0, 0];
    let mut tex = Texture::new(
        Target::T2D,
        Format::from_name("GL_RGBA8").unwrap(),
        [2, 2, 1],
        1,
    )
    .unwrap();
    let px = Pixels {
        format: PixelFormat::Rgb,
        ty: PixelType::UnsignedByte,
        data: &data,
        alignment: 4,
    };
    tex.upload(0, [0, 0, 0], [2, 2, 1], &px).unwrap();
    let mut s = SamplerState::default();
    s.set_param("min", "GL_NEAREST").unwrap();
    s.set_param("mag", "GL_NEAREST").unwrap();
    s.set_param("wrap_s", "GL_CLAMP_TO_EDGE").unwrap();

    // TEX r, {0.75, 0.75}, texture[0], 2D — top-right texel is white.
    let coord = reg([0.75, 0.75, 0.0, 1.0]);
    let mut lanes = Lanes::<16>::new();
    let op = unpack(
        NvOpcode::Tex,
        Target::T2D,
        false,
        &[&coord],
        NvOffset::None,
        0,
        true,
        &mut lanes,
    )
    .unwrap();
    let mut out = [[0u32; 16]; 4];
    execute(&tex, &s, &op, &lanes, 0xffff, &mut out).unwrap();
    for channel in &out {
        assert_eq!(f32::from_bits(channel[7]), 1.0);
    }
    // TXP divides by q: (1.5, 0.5, _, 2) → (0.75, 0.25): bottom-right green.
    let coord = reg([1.5, 0.5, 0.0, 2.0]);
    let op = unpack(
        NvOpcode::Txp,
        Target::T2D,
        false,
        &[&coord],
        NvOffset::None,
        0,
        true,
        &mut lanes,
    )
    .unwrap();
    execute(&tex, &s, &op, &lanes, 1, &mut out).unwrap();
    assert_eq!([out[0][0], out[1][0]], [0, 1.0f32.to_bits()]);
}

#[test]
fn shadow_pattern_through_arb_style_txp() {
    // piglit's txp-shadow2d: texcoord (x+1, y+1, y+1, 2) → s = (x+1)/2, r = (y+1)/2, and
    // the depth texture holds s, so comparison GREATER passes where r > s.
    let p = patterns::shadow(Target::T2D, [32, 32, 1]).unwrap();
    let mut s = p.sampler.clone();
    s.set_param("depth_mode", "luminance").unwrap();
    let (x, y) = (-0.9f32, 0.8f32); // top-left region: r > s → 1
    let coord = reg([x + 1.0, y + 1.0, y + 1.0, 2.0]);
    let mut lanes = Lanes::<16>::new();
    let op = unpack(
        NvOpcode::Txp,
        Target::T2D,
        true,
        &[&coord],
        NvOffset::None,
        0,
        true,
        &mut lanes,
    )
    .unwrap();
    let mut out = [[0u32; 16]; 4];
    execute(&p.texture, &s, &op, &lanes, 1, &mut out).unwrap();
    assert_eq!([out[0][0], out[3][0]], [1.0f32.to_bits(); 2]);
    let coord = reg([0.8 + 1.0, -0.9 + 1.0, -0.9 + 1.0, 2.0]); // bottom-right: fails
    unpack(
        NvOpcode::Txp,
        Target::T2D,
        true,
        &[&coord],
        NvOffset::None,
        0,
        true,
        &mut lanes,
    )
    .unwrap();
    execute(&p.texture, &s, &op, &lanes, 1, &mut out).unwrap();
    assert_eq!([out[0][0], out[3][0]], [0, 1.0f32.to_bits()]);
}
