//! gfx942's fp8/bf8 MFMA (`v_mfma_f32_16x16x32_*` and
//! `v_mfma_f32_32x32x16_*` with `fp8_fp8`, `fp8_bf8`, `bf8_fp8`,
//! `bf8_bf8`): fp8 is E4M3FNUZ (bias 8) and bf8 E5M2FNUZ (bias 16), no
//! infinities, 0x80 a NaN; against the plain product over the layout AMD's
//! matrix instruction calculator prints (tests/mfma/mod.rs), and special
//! codes by hand. gfx950 runs the same instructions (the same words:
//! `llvm-mc-22 --mcpu=gfx950 -show-encoding` of the same text) in the same
//! layout (AMD's CDNA4 ISA guide keeps gfx942's fp8 shapes) on OCP's
//! E4M3FN (bias 7, a -0, NaN 0x7f/0xff) and E5M2 (bias 15, IEEE's
//! infinities and NaNs).

mod handmade;
mod mfma;

use amdgpu_isa::{Chip, Program, Regions};
use mfma::{Case, Modifiers, T, case, check, check_all, kernel};

#[test]
fn fp8_and_bf8_mfma_of_both_shapes_and_all_four_pairings_match_the_plain_product() {
    let n = check_all(|c| matches!(c.types[0], T::Fp8 | T::Bf8));
    assert_eq!(n, 8);
}

/// D[0][0] of `v_mfma_f32_16x16x32_fp8_bf8` with A[0][0] and B[0][0] set to
/// `a` and `b`, every other input and C zero. A[0][k] is byte k of v8 (k
/// < 4) in lane 0, B[k][0] likewise in v12 (the calculator's layout).
fn one_product(a: u8, b: u8) -> u32 {
    one_product_on(Chip::Gfx942, a, b)
}

/// [`one_product`] on `chip`.
fn one_product_on(chip: Chip, a: u8, b: u8) -> u32 {
    let c = case(Chip::Gfx942, "v_mfma_f32_16x16x32_fp8_bf8");
    let program = Program::decode(chip, &handmade::bytes(&kernel(c, &c.words))).unwrap();
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

/// The eight fp8/bf8 instructions.
const MNEMONICS: [&str; 8] = [
    "v_mfma_f32_16x16x32_bf8_bf8",
    "v_mfma_f32_16x16x32_bf8_fp8",
    "v_mfma_f32_16x16x32_fp8_bf8",
    "v_mfma_f32_16x16x32_fp8_fp8",
    "v_mfma_f32_32x32x16_bf8_bf8",
    "v_mfma_f32_32x32x16_bf8_fp8",
    "v_mfma_f32_32x32x16_fp8_bf8",
    "v_mfma_f32_32x32x16_fp8_fp8",
];

#[test]
fn gfx950_runs_the_fp8_and_bf8_mfma_on_ocp_formats() {
    let ocp = |t: T| match t {
        T::Fp8 => T::OcpFp8,
        T::Bf8 => T::OcpBf8,
        t => t,
    };
    for (seed, mnemonic) in MNEMONICS.iter().enumerate() {
        let gfx942 = case(Chip::Gfx942, mnemonic);
        let gfx950 = Case {
            chip: Chip::Gfx950,
            types: gfx942.types.map(ocp),
            ..*gfx942
        };
        check(
            &gfx950,
            &gfx950.words,
            gfx950.text,
            Modifiers::default(),
            seed as u64 + 950,
        );
    }
}

#[test]
fn gfx950_special_codes_decode_as_ocp() {
    let product = |a, b| f32::from_bits(one_product_on(Chip::Gfx950, a, b));
    // fp8 0x7e: 1.75 * 2^8 = 448 (largest); bf8 0x7b: 1.75 * 2^15 = 57344.
    assert_eq!(product(0x7e, 0x7b), 448.0 * 57344.0);
    // fp8 0x01: 2^-9 (smallest subnormal); bf8 0x3c: field 15, 1.0.
    assert_eq!(product(0x01, 0x3c), 2f32.powi(-9));
    // fp8 0x38: field 7, 1.0; bf8 0x01: 2^-16 (smallest subnormal).
    assert_eq!(product(0x38, 0x01), 2f32.powi(-16));
    // Signs: fp8 0xb8 = -1.0, bf8 0xbd = -1.25.
    assert_eq!(product(0xb8, 0xbd), 1.25);
    // fp8 0x7f and 0xff are NaN; 0x80 is -0 (the sum with C's +0 is +0).
    assert!(product(0x7f, 0x3c).is_nan());
    assert!(product(0xff, 0x3c).is_nan());
    assert_eq!(one_product_on(Chip::Gfx950, 0x80, 0x3c), 0);
    // bf8 0x7c is infinity, 0xfd a NaN; infinity times 0 is NaN.
    assert_eq!(product(0x38, 0x7c), f32::INFINITY);
    assert_eq!(product(0x38, 0xfc), f32::NEG_INFINITY);
    assert!(product(0x38, 0xfd).is_nan());
    assert!(product(0x00, 0x7c).is_nan());
}
