//! The 16-bit three-operand min/max/median, `v_min3_{u16,i16,f16}`,
//! `v_max3_*`, `v_med3_*`, on gfx942, gfx90a and gfx1100: IREE's i8/i16
//! min/max reductions and f16 minimumf/maximumf reductions stopped at them
//! (iree-diff class `isa-16bit-min3-max3`).
//!
//! Definitions (RDNA3 ISA guide): V_MIN3_F16 "D0.f16 =
//! v_min_f16(v_min_f16(S0.f16, S1.f16), S2.f16)"; V_MED3_F16: with any NaN
//! operand `v_min3_f16` of the three, else the larger of the two operands
//! other than the one `v_max3_f16` equals (compared as floats, so +0 ==
//! -0); the integer forms alike. `v_min_f16`/`v_max_f16` order -0 below +0
//! and take a quiet NaN's other operand, as the 32-bit forms do. Expected
//! values written by hand per lane; the result's half by `op_sel[3]`, the
//! other half of v6 (which starts as v5) kept.

mod sixteen;

use amdgpu_isa::Chip;
use sixteen::check;

/// Each chip's opcode word of `v_{min3,max3,med3}_{u16,i16,f16} v6, v2,
/// v3, v4` (`llvm-mc-19 -show-encoding`; gfx90a's are gfx942's).
struct Words {
    chip: Chip,
    min3: [u32; 3],
    max3: [u32; 3],
    med3: [u32; 3],
}

/// The first word of each form, in the order u16, i16, f16.
const CHIPS: [Words; 3] = [
    Words {
        chip: Chip::Gfx942,
        min3: [0xd1f60006, 0xd1f50006, 0xd1f40006],
        max3: [0xd1f90006, 0xd1f80006, 0xd1f70006],
        med3: [0xd1fc0006, 0xd1fb0006, 0xd1fa0006],
    },
    Words {
        chip: Chip::Gfx90a,
        min3: [0xd1f60006, 0xd1f50006, 0xd1f40006],
        max3: [0xd1f90006, 0xd1f80006, 0xd1f70006],
        med3: [0xd1fc0006, 0xd1fb0006, 0xd1fa0006],
    },
    Words {
        chip: Chip::Gfx1100,
        min3: [0xd64b0006, 0xd64a0006, 0xd6490006],
        max3: [0xd64e0006, 0xd64d0006, 0xd64c0006],
        med3: [0xd6510006, 0xd6500006, 0xd64f0006],
    },
];

/// The second word: v2, v3, v4; with `neg` bits.
const SOURCES: u32 = 0x0412_0702;
const OLD: [u32; 5] = [0xabcd_1234; 5];

fn over(values: &[u32]) -> Vec<u32> {
    values.iter().map(|v| 0xabcd_0000 | v).collect()
}

#[test]
fn integers() {
    // Lanes: 1, 2, 3; 0xffff, 0, 0x8000 (unsigned: MAX, 0, 0x8000; signed:
    // -1, 0, MIN); 7, 7, 1; and high halves that must not be read.
    let a = [0x5555_0001, 0x5555_ffff, 0x5555_0007];
    let b = [0x5555_0002, 0x5555_0000, 0x5555_0007];
    let c = [0x5555_0003, 0x5555_8000, 0x5555_0001];
    let inputs = [&a[..], &b, &c, &OLD[..3]];
    for w in &CHIPS {
        let chip = w.chip;
        let run = |name: &str, word: u32, want: [u32; 3]| {
            let text = format!("{name} v6, v2, v3, v4");
            check(chip, &text, &[word, SOURCES], inputs, &over(&want));
        };
        run("v_min3_u16", w.min3[0], [1, 0, 1]);
        run("v_max3_u16", w.max3[0], [3, 0xffff, 7]);
        run("v_med3_u16", w.med3[0], [2, 0x8000, 7]);
        run("v_min3_i16", w.min3[1], [1, 0x8000, 1]);
        run("v_max3_i16", w.max3[1], [3, 0, 7]);
        run("v_med3_i16", w.med3[1], [2, 0xffff, 7]);
        // Clamp changes no integer selection.
        let text = "v_max3_i16 v6, v2, v3, v4 clamp";
        let want = over(&[3, 0, 7]);
        check(chip, text, &[w.max3[1] | 0x8000, SOURCES], inputs, &want);
    }
}

/// f16 lanes: 1, 2, -0.5; -0, +0, +0; NaN, 3, 1; inf, -inf, 5; NaN, NaN,
/// -2.
const F_A: [u32; 5] = [0x3c00, 0x8000, 0x7e00, 0x7c00, 0x7e00];
const F_B: [u32; 5] = [0x4000, 0x0000, 0x4200, 0xfc00, 0x7e00];
const F_C: [u32; 5] = [0xb800, 0x0000, 0x3c00, 0x4500, 0xc000];

#[test]
fn halves_with_signed_zeros_nans_and_infinities() {
    let inputs = [&F_A[..], &F_B, &F_C, &OLD];
    for w in &CHIPS {
        let chip = w.chip;
        let run = |name: &str, word: u32, want: [u32; 5]| {
            let text = format!("{name} v6, v2, v3, v4");
            check(chip, &text, &[word, SOURCES], inputs, &over(&want));
        };
        // min(-0, +0) is -0; a NaN yields the others; two NaNs the third.
        run(
            "v_min3_f16",
            w.min3[2],
            [0xb800, 0x8000, 0x3c00, 0xfc00, 0xc000],
        );
        run(
            "v_max3_f16",
            w.max3[2],
            [0x4000, 0x0000, 0x4200, 0x7c00, 0xc000],
        );
        // The median of -0, +0, +0: the largest (+0) equals S0 (-0) as a
        // float, so max(S1, S2) = +0. With a NaN: the min3.
        run(
            "v_med3_f16",
            w.med3[2],
            [0x3c00, 0x0000, 0x3c00, 0x4500, 0xc000],
        );
    }
}

#[test]
fn modifiers_and_halves() {
    for w in &CHIPS {
        let chip = w.chip;
        // -v2, |v3|, v4 clamp: min(-1, 2, -0.5) = -1 clamps to 0; min(2,
        // 1, 0.5) = 0.5; min(-(-0), |-inf|, NaN) = +0.
        let a = [0x3c00, 0xc000, 0x8000];
        let b = [0x4000, 0xbc00, 0xfc00];
        let c = [0xb800, 0x3800, 0x7e00];
        let inputs = [&a[..], &b, &c, &OLD[..3]];
        let text = "v_min3_f16 v6, -v2, |v3|, v4 clamp";
        let words = [w.min3[2] | 0x8200, SOURCES | 0x2000_0000];
        check(chip, text, &words, inputs, &over(&[0, 0x3800, 0]));
        // op_sel:[1,1,1,1]: the high halves in, the result to the high
        // half, the low half kept. max(1, 2, -0.5) = 2; max(-1, -2, -inf)
        // = -1.
        let a = [0x3c00_7e00, 0xbc00_0000];
        let b = [0x4000_7e00, 0xc000_0000];
        let c = [0xb800_7e00, 0xfc00_0000];
        let inputs = [&a[..], &b, &c, &OLD[..2]];
        let text = "v_max3_f16 v6, v2, v3, v4 op_sel:[1,1,1,1]";
        let words = [w.max3[2] | 0x7800, SOURCES];
        check(chip, text, &words, inputs, &[0x4000_1234, 0xbc00_1234]);
        // med3 of the high halves 3, 9, 5 is 5.
        let (a, b, c) = ([0x0003_0000], [0x0009_0000], [0x0005_0000]);
        let inputs = [&a[..], &b, &c, &OLD[..1]];
        let text = "v_med3_u16 v6, v2, v3, v4 op_sel:[1,1,1,1]";
        let words = [w.med3[0] | 0x7800, SOURCES];
        check(chip, text, &words, inputs, &[0x0005_1234]);
    }
}
