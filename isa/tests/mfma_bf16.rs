//! MFMA with bf16 inputs: gfx942's `v_mfma_f32_*_bf16` (one block) and
//! `_2b/_4b/_16b_bf16`, gfx90a's `*bf16_1k` and its older `*bf16` (two
//! elements of K per register), against the plain product over the layout
//! AMD's matrix instruction calculator prints (tests/mfma/mod.rs).

mod handmade;
mod mfma;

use mfma::{T, check_all};

#[test]
fn bf16_mfma_of_every_shape_matches_the_plain_product() {
    let n = check_all(|c| c.types[0] == T::Bf16);
    assert_eq!(n, 15);
}
