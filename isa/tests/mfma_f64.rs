//! f64 MFMA: `v_mfma_f64_16x16x4_f64` and `v_mfma_f64_4x4x4_4b_f64` on
//! gfx942 (`16x16x4f64`, `4x4x4f64` on gfx90a), with results in register
//! pairs laid out as AMD's matrix instruction calculator prints
//! (tests/mfma/mod.rs); gfx942's negations of A, B and C (the BLGP bits,
//! LLVM's `neg:[a,b,c]`).

mod handmade;
mod mfma;

use amdgpu_isa::Chip;
use mfma::{Modifiers, T, case, check, check_all};

#[test]
fn f64_mfma_of_both_shapes_matches_the_plain_product() {
    let n = check_all(|c| c.types[0] == T::F64);
    assert_eq!(n, 4);
}

#[test]
fn gfx942_f64_mfma_negates_a_b_and_c_by_its_blgp_bits() {
    let c = case(Chip::Gfx942, "v_mfma_f64_16x16x4_f64");
    // v_mfma_f64_16x16x4_f64 v[64:71], v[8:9], v[12:13], v[32:39] neg:[1,0,1]
    let words = [0xd3ee_0040, 0xa482_1908];
    let neg = [true, false, true];
    let text = "v_mfma_f64_16x16x4_f64 v[64:71], v[8:9], v[12:13], v[32:39] neg:[1,0,1]";
    check(
        c,
        &words,
        text,
        Modifiers {
            neg,
            ..Modifiers::default()
        },
        7,
    );
    let c = case(Chip::Gfx942, "v_mfma_f64_4x4x4_4b_f64");
    // v_mfma_f64_4x4x4_4b_f64 v[64:65], v[8:9], v[12:13], v[32:33] neg:[0,1,0]
    let words = [0xd3ef_0040, 0x4482_1908];
    let neg = [false, true, false];
    let text = "v_mfma_f64_4x4x4_4b_f64 v[64:65], v[8:9], v[12:13], v[32:33] neg:[0,1,0]";
    check(
        c,
        &words,
        text,
        Modifiers {
            neg,
            ..Modifiers::default()
        },
        8,
    );
}
