//! gfx942's fp8/bf8 MFMA (`v_mfma_f32_16x16x32_*` and
//! `v_mfma_f32_32x32x16_*` with `fp8_fp8`, `fp8_bf8`, `bf8_fp8`,
//! `bf8_bf8`): fp8 is E4M3FNUZ (bias 8) and bf8 E5M2FNUZ (bias 16), no
//! infinities, 0x80 a NaN; against the plain product over the layout AMD's
//! matrix instruction calculator prints (tests/mfma/mod.rs), and special
//! codes by hand.

mod handmade;
mod mfma;

use amdgpu_isa::{Chip, Program, Regions};
use mfma::{T, case, check_all, kernel};

#[test]
fn fp8_and_bf8_mfma_of_both_shapes_and_all_four_pairings_match_the_plain_product() {
    let n = check_all(|c| matches!(c.types[0], T::Fp8 | T::Bf8));
    assert_eq!(n, 8);
}

/// D[0][0] of `v_mfma_f32_16x16x32_fp8_bf8` with A[0][0] and B[0][0] set to
/// `a` and `b`, every other input and C zero. A[0][k] is byte k of v8 (k
/// < 4) in lane 0, B[k][0] likewise in v12 (the calculator's layout).
fn one_product(a: u8, b: u8) -> u32 {
    let c = case(Chip::Gfx942, "v_mfma_f32_16x16x32_fp8_bf8");
    let program = Program::decode(Chip::Gfx942, &handmade::bytes(&kernel(c, &c.words))).unwrap();
    let mut a_img = vec![0u8; 64 * 128];
    let mut b_img = vec![0u8; 64 * 128];
    a_img[0] = a;
    b_img[0] = b;
    let mut memory = Regions::new(vec![
        (0x10_0000, a_img),
        (0x20_0000, b_img),
        (0x30_0000, vec![0; 64 * 128]),
        (0x40_0000, vec![0; 64 * 128]),
    ]);
    let user = [0x10_0000, 0, 0x20_0000, 0, 0x30_0000, 0, 0x40_0000, 0];
    handmade::run(&program, &user, 64, &mut memory).unwrap();
    // D[0][0]: v64, lane 0.
    let d = memory.bytes(0x40_0000).unwrap();
    u32::from_le_bytes(d[..4].try_into().unwrap())
}

#[test]
fn fp8_and_bf8_special_codes_decode_as_fnuz() {
    // fp8 0x7f: 1.875 * 2^7 = 240 (largest); bf8 0x7f: 1.75 * 2^15 = 57344.
    assert_eq!(f32::from_bits(one_product(0x7f, 0x7f)), 240.0 * 57344.0);
    // fp8 0x01: 2^-10 (smallest subnormal); bf8 0x40: exponent field 16,
    // 1.0.
    assert_eq!(f32::from_bits(one_product(0x01, 0x40)), 2f32.powi(-10));
    // fp8 0x40: field 8, 1.0; bf8 0x01: 2^-17 (smallest subnormal).
    assert_eq!(f32::from_bits(one_product(0x40, 0x01)), 2f32.powi(-17));
    // Signs: fp8 0xc0 = -1.0, bf8 0xc1 = -1.25; fp8 0x44 = 1.5, bf8 0x44
    // = 2.0.
    assert_eq!(f32::from_bits(one_product(0xc0, 0xc1)), 1.25);
    assert_eq!(f32::from_bits(one_product(0x44, 0x44)), 3.0);
    // 0x80 is NaN (not -0) in either operand; 0x00 is zero.
    assert!(f32::from_bits(one_product(0x80, 0x40)).is_nan());
    assert!(f32::from_bits(one_product(0x40, 0x80)).is_nan());
    assert_eq!(one_product(0x00, 0x7f), 0);
}
