//! MFMA shapes of several blocks (`v_mfma_f32_32x32x1_2b_f32`,
//! `16x16x1_4b_f32`, `4x4x1_16b_f32`, their f16 counterparts, gfx90a's
//! unmarked `32x32x1f32`, `16x16x1f32`, `4x4x1f32`, `32x32x4f16`,
//! `16x16x4f16`, `4x4x4f16`), each against the plain product over the
//! layout AMD's matrix instruction calculator prints (tests/mfma/mod.rs);
//! and the one-block f32 and f16 shapes that ran before, against the same
//! oracle.

mod handmade;
mod mfma;

use mfma::{T, check_all};

#[test]
fn multi_block_f32_and_f16_shapes_compute_each_block_in_the_calculators_layout() {
    let n = check_all(|c| c.mnk_blocks[3] > 1 && matches!(c.types[0], T::F32 | T::F16));
    assert_eq!(n, 12);
}

#[test]
fn one_block_f32_and_f16_shapes_match_the_calculators_layout() {
    let n = check_all(|c| c.ran_before);
    assert_eq!(n, 8);
}
