//! `v_pk_fmac_f16` (VOP2, gfx942, gfx90a, gfx1100): each half of the
//! destination becomes the fused S0 * S1 + D of the same halves, rounded
//! once (RDNA3 ISA guide: "D0[31 : 16].f16 = fma(S0[31 : 16].f16,
//! S1[31 : 16].f16, D0[31 : 16].f16); D0[15 : 0].f16 = fma(S0[15 : 0].f16,
//! S1[15 : 0].f16, D0[15 : 0].f16)"). v6 starts as v5, the accumulator.
//! Expected values by hand; the single rounding checked with Python's
//! exact fractions: (1 + 2^-10)^2 - (1 + 2^-9) is 2^-20 (f16 0x0010),
//! where rounding the product first would give 0.

mod sixteen;

use amdgpu_isa::Chip;
use sixteen::check;

#[test]
fn each_half_fused() {
    // (hi, lo): (-1 * 3 + 1, 1.5 * 2 + 0.25); ((1 + 2^-10)^2 - 0, (1 +
    // 2^-10)^2 - (1 + 2^-9)): 1 + 2^-9 (0x3c02) and 2^-20; (-inf * 2 + 1,
    // 2 * inf + 1).
    let a = [0xbc00_3e00, 0x3c01_3c01, 0xfc00_4000];
    let b = [0x4200_4000, 0x3c01_3c01, 0x4000_7c00];
    let c = [0x3c00_3400, 0x8000_bc02, 0x3c00_3c00];
    let want = [0xc000_4280, 0x3c02_0010, 0xfc00_7c00];
    for (chip, text) in [
        (Chip::Gfx942, "v_pk_fmac_f16_e32 v6, v2, v3"),
        (Chip::Gfx90a, "v_pk_fmac_f16_e32 v6, v2, v3"),
        (Chip::Gfx1100, "v_pk_fmac_f16 v6, v2, v3"),
    ] {
        check(chip, text, &[0x780c_0702], [&a, &b, &[0; 3], &c], &want);
    }
}

#[test]
fn constant_source_disassembly() {
    for (chip, text) in [
        (Chip::Gfx942, "v_pk_fmac_f16_e32 v6, 1.0, v3"),
        (Chip::Gfx1100, "v_pk_fmac_f16 v6, 1.0, v3"),
    ] {
        assert_eq!(sixteen::text(chip, &[0x780c_06f2]), text);
    }
}
