//! gfx942's `v_mfma_f32_16x16x8_xf32` and `v_mfma_f32_32x32x4_xf32`: f32
//! registers read as xf32, the low 13 mantissa bits dropped (truncation,
//! as ROCm's libraries report the hardware does: ROCm/rocm-libraries pull
//! request 9176), against the plain product over the layout AMD's matrix
//! instruction calculator prints (tests/mfma/mod.rs).

mod handmade;
mod mfma;

use amdgpu_isa::Chip;
use mfma::{Modifiers, T, case, check, check_all};

#[test]
fn xf32_mfma_truncates_its_inputs_to_ten_mantissa_bits() {
    // Random inputs with junk below xf32's last place (tests/mfma).
    let n = check_all(|c| c.types[0] == T::Xf32);
    assert_eq!(n, 2);
    // Several seeds: junk of 0x1000 and more, where rounding would differ.
    let c = case(Chip::Gfx942, "v_mfma_f32_16x16x8_xf32");
    for seed in 100..104 {
        check(c, &c.words, c.text, Modifiers::default(), seed);
    }
}
