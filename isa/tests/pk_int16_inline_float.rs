//! An inline float constant (0.5, 1.0, 2.0, ...) as a source of a packed
//! 16-bit integer operation (`v_pk_add_u16`, `v_pk_sub_i16`,
//! `v_pk_mad_u16`, ...) is its f32 bits, on GFX9 and GFX11 alike: the low
//! half 0x0000, the high half (what `op_sel`/`op_sel_hi` pick) 0x3f00 for
//! 0.5. A packed f16 operation gets the f16 bits in the low half and 0 in
//! the high one. LLVM's `getInlineEncodingV216` (AMDGPUBaseInfo.cpp)
//! states the hardware's rule ("for UI16 instructions: corresponding
//! single-precision float value") with no subtarget condition, and
//! `llvm-mc-19` on gfx942 and gfx1100 alike assembles the literal
//! 0x3f000000 on `v_pk_add_u16` as the inline 0.5 (and refuses 0x3800 on
//! gfx942). Words from `llvm-mc-19 --arch=amdgcn --mcpu=CHIP
//! -show-encoding` of the text.

#[path = "sixteen/mod.rs"]
mod sixteen;

use amdgpu_isa::Chip;
use sixteen::check;

const GFX9: [Chip; 2] = [Chip::Gfx90a, Chip::Gfx942];

/// (text, GFX9's first word, GFX11's, the second word, v2, v4, v6).
const CASES: [(&str, u32, u32, u32, u32, u32, u32); 4] = [
    // 0.5 = 0x3f000000: 2 + 0, 1 + 0x3f00.
    (
        "v_pk_add_u16 v6, v2, 0.5",
        0xd38a_4006,
        0xcc0a_4006,
        0x1801_e102,
        0x0001_0002,
        0,
        0x3f01_0002,
    ),
    // Both halves of the result from the constant's low half.
    (
        "v_pk_add_u16 v6, v2, 0.5 op_sel_hi:[1,0]",
        0xd38a_4006,
        0xcc0a_4006,
        0x0801_e102,
        0x0001_0002,
        0,
        0x0001_0002,
    ),
    // 2.0 = 0x40000000, halves swapped: 2 - 0x4000, 1 - 0.
    (
        "v_pk_sub_i16 v6, v2, 2.0 op_sel:[0,1] op_sel_hi:[1,0]",
        0xd383_5006,
        0xcc03_5006,
        0x0801_e902,
        0x0001_0002,
        0,
        0x0001_c002,
    ),
    // 1.0 = 0x3f800000: 3 * 0 + 7, 2 * 0x3f80 + 5.
    (
        "v_pk_mad_u16 v6, v2, 1.0, v4",
        0xd389_4006,
        0xcc09_4006,
        0x1c11_e502,
        0x0002_0003,
        0x0005_0007,
        0x7f05_0007,
    ),
];

#[test]
fn packed_integer_operations_read_the_f32_constant() {
    for (text, gfx9, gfx11, second, v2, v4, want) in CASES {
        for chip in GFX9 {
            check(
                chip,
                text,
                &[gfx9, second],
                [&[v2], &[], &[v4], &[0]],
                &[want],
            );
        }
        let words = [gfx11, second];
        check(
            Chip::Gfx1100,
            text,
            &words,
            [&[v2], &[], &[v4], &[0]],
            &[want],
        );
    }
}
