//! MFMA with i8 inputs and wrapping i32 accumulation
//! (`v_mfma_i32_*_i8` on gfx942, `*i8` on gfx90a, one and several
//! blocks), against the plain product over the layout AMD's matrix
//! instruction calculator prints (tests/mfma/mod.rs); C near the ends of
//! i32, so the sums wrap.

mod handmade;
mod mfma;

use mfma::{T, check_all};

#[test]
fn i8_mfma_of_every_shape_accumulates_wrapping_i32() {
    let n = check_all(|c| c.types[0] == T::I8);
    assert_eq!(n, 10);
}
