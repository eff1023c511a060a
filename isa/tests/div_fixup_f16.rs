//! `v_div_fixup_f16` (gfx942, gfx90a, gfx1100) and GFX9's
//! `v_div_fixup_legacy_f16`, the last step of LLVM's f16 division
//! (`arith.divf` on f16 stopped at it: iree-diff class
//! `isa-v_div_fixup_f16`). LLVM computes the quotient in f32 (`v_rcp_f32`,
//! `v_mul_f32`, `v_cvt_f16_f32`) and hands it to the fix-up with the
//! denominator and numerator.
//!
//! The RDNA3 ISA guide's pseudocode (S0 the quotient, S1 the denominator,
//! S2 the numerator; sign_out = sign(S1) ^ sign(S2)): a NaN S2, else a NaN
//! S1, comes back quiet; 0/0 and inf/inf give 0xfe00; x/0 and inf/y
//! infinity, x/inf and 0/y zero, each with sign_out; otherwise S0's
//! magnitude with sign_out. Expected values written by hand from it, per
//! lane. The legacy form zeroes the high half when it writes the low one
//! (CDNA2 guide), the other keeps it; v6 starts as v5 (0xabcd1234).

mod sixteen;

use amdgpu_isa::Chip;
use sixteen::check;

/// (quotient, denominator, numerator, result) per lane.
const CASES: [(u32, u32, u32, u32); 13] = [
    (0x3555, 0x4200, 0x3c00, 0x3555), // 1/3: the quotient
    (0x3555, 0xc200, 0x3c00, 0xb555), // 1/-3: its magnitude, negative
    (0xb555, 0xc200, 0xbc00, 0x3555), // -1/-3: positive whatever S0's sign
    (0x1234, 0x0000, 0x0000, 0xfe00), // 0/0
    (0x1234, 0x7c00, 0xfc00, 0xfe00), // -inf/inf
    (0x1234, 0x8000, 0x4000, 0xfc00), // 2/-0: -inf
    (0x1234, 0x3c00, 0x7c00, 0x7c00), // inf/1: inf
    (0x1234, 0xfc00, 0x4000, 0x8000), // 2/-inf: -0
    (0x1234, 0x4000, 0x8000, 0x8000), // -0/2: -0
    (0x1234, 0x7e01, 0x7d00, 0x7f00), // sNaN/NaN: the numerator, quiet
    (0x1234, 0xfd00, 0x3c00, 0xff00), // 1/-sNaN: the denominator, quiet
    (0x0001, 0x3c00, 0x0001, 0x0001), // a denormal numerator is no zero
    (0x7e00, 0x3c00, 0xbc00, 0xfe00), // a NaN quotient keeps its NaN bits
];

fn column(i: usize) -> Vec<u32> {
    CASES.iter().map(|c| [c.0, c.1, c.2, c.3][i]).collect()
}

#[test]
fn special_cases_and_signs() {
    let (q, d, n, want) = (column(0), column(1), column(2), column(3));
    let old = vec![0xabcd_1234; CASES.len()];
    let inputs = [&q[..], &d, &n, &old];
    let kept: Vec<u32> = want.iter().map(|w| 0xabcd_0000 | w).collect();
    for (chip, word) in [
        (Chip::Gfx942, 0xd2070006),
        (Chip::Gfx90a, 0xd2070006),
        (Chip::Gfx1100, 0xd6540006),
    ] {
        let text = "v_div_fixup_f16 v6, v2, v3, v4";
        check(chip, text, &[word, 0x04120702], inputs, &kept);
        // All halves high: the result to the high half, the low kept.
        let high = |v: &[u32]| v.iter().map(|x| x << 16).collect::<Vec<_>>();
        let (qh, dh, nh) = (high(&q), high(&d), high(&n));
        let inputs = [&qh[..], &dh, &nh, &old];
        let want: Vec<u32> = want.iter().map(|w| w << 16 | 0x1234).collect();
        let text = "v_div_fixup_f16 v6, v2, v3, v4 op_sel:[1,1,1,1]";
        check(chip, text, &[word | 0x7800, 0x04120702], inputs, &want);
    }
    for chip in [Chip::Gfx942, Chip::Gfx90a] {
        let text = "v_div_fixup_legacy_f16 v6, v2, v3, v4";
        check(chip, text, &[0xd1ef0006, 0x04120702], inputs, &want);
    }
}

#[test]
fn modifiers() {
    // -v2, v3, |v4| clamp: S0's sign never matters; 1/3 stays; 2/1 = 2
    // clamps to 1; 1/-2 = -0.5 clamps to +0; |-1|/-0 = -inf clamps to 0;
    // NaN/1 clamps to 0.
    let q = [0x3555, 0x4000, 0x3800, 0x1234, 0x1234];
    let d = [0x4200, 0x3c00, 0xc000, 0x8000, 0x3c00];
    let n = [0xbc00, 0x4000, 0x3c00, 0xbc00, 0x7e00];
    let old = [0xabcd_1234; 5];
    let inputs = [&q[..], &d, &n, &old];
    let want = [
        0xabcd_3555,
        0xabcd_3c00,
        0xabcd_0000,
        0xabcd_0000,
        0xabcd_0000,
    ];
    for (chip, word) in [
        (Chip::Gfx942, 0xd2078406),
        (Chip::Gfx90a, 0xd2078406),
        (Chip::Gfx1100, 0xd6548406),
    ] {
        let text = "v_div_fixup_f16 v6, -v2, v3, |v4| clamp";
        check(chip, text, &[word, 0x24120702], inputs, &want);
    }
}
