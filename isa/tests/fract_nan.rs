//! `v_fract_f32` and `v_fract_f64` of a NaN are a NaN (CDNA3 and RDNA3
//! ISA guides, V_FRACT_F32: x - floor(x), below 1.0, NaN for NaN and for
//! infinities); the interpreter's clamp below 1.0 took the bound when the
//! difference was a NaN (Rust's `min` returns the other operand), so a
//! NaN became 0x3f7fffff. Expected values written out by hand. Words from
//! `llvm-mc-19 --arch=amdgcn --mcpu=gfx942|gfx1100 -show-encoding`.

mod handmade;

use amdgpu_isa::Chip;
use handmade::per_lane;

#[test]
fn fract_of_nan_is_nan() {
    for (chip, f32_word, f64_word) in [
        (Chip::Gfx942, 0x7e0c3702u32, 0x7e0c6502u32), // v_fract_f32_e32 v6, v2; v_fract_f64_e32 v[6:7], v[2:3]
        (Chip::Gfx1100, 0x7e0c4102, 0x7e0c7d02),
    ] {
        // NaN, 1.25, -0.25.
        let got = per_lane(
            chip,
            &[f32_word],
            &[&[0x7fc0_0000, 0x3fa0_0000, 0xbe80_0000]],
        );
        let low: Vec<f32> = got.iter().map(|&q| f32::from_bits(q as u32)).collect();
        assert!(low[0].is_nan(), "{chip:?} f32: {low:?}");
        assert_eq!(low[1..], [0.25, 0.75], "{chip:?} f32");
        // The same in f64: v2 the low dwords, v3 the high.
        let got = per_lane(
            chip,
            &[f64_word],
            &[&[0, 0, 0], &[0x7ff8_0000, 0x3ff4_0000, 0xbfd0_0000]],
        );
        let d: Vec<f64> = got.iter().map(|&q| f64::from_bits(q)).collect();
        assert!(d[0].is_nan(), "{chip:?} f64: {d:?}");
        assert_eq!(d[1..], [0.25, 0.75], "{chip:?} f64");
    }
}
