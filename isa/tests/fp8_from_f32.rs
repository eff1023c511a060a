//! gfx942's conversions from f32 to fp8 (E4M3FNUZ: bias 8) and bf8
//! (E5M2FNUZ: bias 16; neither has infinities or -0, 0x80 is their NaN):
//! `v_cvt_pk_fp8_f32`/`_bf8_f32` round both sources to nearest even into
//! the word `op_sel[3]` picks (source 0 in its low byte), `v_cvt_sr_*`
//! rounds source 0 stochastically with source 1's bits into the byte
//! `op_sel[3:2]` picks; the rest of the destination is kept (it starts as
//! 0xa5a5a5a5 here). IREE's `linalg/small_float_arith.mlir` on gfx942
//! failed to launch without `v_cvt_pk_bf8_f32`. gfx90a has none of them
//! (`llvm-mc-19 --mcpu=gfx90a` refuses them).
//!
//! Expected values: to nearest even from `ml_dtypes` 0.7 (numpy's
//! `float8_e4m3fnuz`/`float8_e5m2fnuz`, APFloat's rounding: NaN, infinity
//! and overflow to 0x80, negative zero to 0x00); stochastic from the rule
//! of `isa/src/exec/fp8.rs` (the low 20 (fp8) or 21 (bf8) random bits added
//! to the bits below the kept ones at the result's quantum; a carry rounds
//! up), over the magnitudes `ml_dtypes` enumerates; with clamp, an
//! overflow or infinity saturates to ±max. The script:
//!
//! ```python
//! import numpy as np, ml_dtypes
//! from fractions import Fraction as F
//! T = {'fp8': ml_dtypes.float8_e4m3fnuz, 'bf8': ml_dtypes.float8_e5m2fnuz}
//! def rne(x, t): return int(np.array([np.float32(x)]).astype(T[t]).view(np.uint8)[0])
//! def sr(x, r, t):
//!     m = 3 if t == 'fp8' else 2; x = np.float32(x)
//!     if np.isnan(x) or np.isinf(x): return 0x80
//!     mags = [(F(float(np.array([b], np.uint8).view(T[t])[0])), b) for b in range(0x80)]
//!     a = F(float(x)); s = 0x80 if a < 0 else 0; a = abs(a)
//!     lo = max((v, b) for v, b in mags if v <= a)
//!     q = mags[lo[1] + 1][0] - lo[0] if lo[1] < 0x7f else lo[0] - mags[0x7e][0]
//!     d = 23 - m
//!     b = lo[1] + (int((a - lo[0]) / q * 2**d) + (r & (2**d - 1)) >= 2**d)
//!     return 0x80 if b > 0x7f else 0 if b == 0 else s | b
//! ```
//!
//! Words from `llvm-mc-19 --arch=amdgcn --mcpu=gfx942 -show-encoding` of
//! the text, which the disassembler must print, but for the clamp forms:
//! LLVM gives gfx942's forms no clamp operand (its disassembler refuses
//! bit 15 there), so those words are the plain ones with bit 15 set and
//! the text is the interpreter's.

#[path = "sixteen/mod.rs"]
mod sixteen;

use amdgpu_isa::Chip;
use sixteen::check;

const INIT: [u32; 10] = [0xa5a5_a5a5; 10];

/// Pairs (a, b): 1.0, 0.5; ties 1.0625 (to even: 1.0) and 1.1875 (1.25);
/// 2^-11 (a tie to 0) and 1.5 * 2^-11 (fp8's smallest denormal); -0 and
/// -1e-6 (both 0x00); 240 (fp8's max) and 247; 248 (a tie past the max:
/// NaN) and 1e6; NaN and infinity; -3 and -infinity; bf8's max 57344 and
/// 61440 (past it); -1.25 * 2^-16 and 2^-18 (bf8's denormals).
const PK_A: [u32; 10] = [
    0x3f800000, 0x3f880000, 0x3a000000, 0x80000000, 0x43700000, 0x43780000, 0x7fc00000, 0xc0400000,
    0x47600000, 0xb7a00000,
];
const PK_B: [u32; 10] = [
    0x3f000000, 0x3f980000, 0x3a400000, 0xb58637bd, 0x43770000, 0x49742400, 0x7f800000, 0xff800000,
    0x47700000, 0x36800000,
];

/// (x, random bits): 1 + 2^-5 (a quarter of fp8's quantum above 1.0) with
/// 0, 3/4 of the 20 bits (up), one less (down), and bits only above them
/// (down); 1.25 * 2^-10 (a quarter above fp8's smallest denormal) with
/// 3/4 (up); 241 with all 20 bits (up past the max: NaN); -0; NaN;
/// ±(1 + 2^-4) with 3/4 of 21 bits (bf8: up) and one less (down).
const SR_X: [u32; 10] = [
    0x3f840000, 0x3f840000, 0x3f840000, 0x3f840000, 0x3aa00000, 0x43710000, 0x80000000, 0x7fc00000,
    0x3f880000, 0xbf880000,
];
const SR_R: [u32; 10] = [
    0x00000000, 0x000c0000, 0x000bffff, 0xfff00000, 0x000c0000, 0x000fffff, 0xffffffff, 0x00000000,
    0x00180000, 0x0017ffff,
];

#[test]
fn pk_rounds_to_nearest_even_into_a_word() {
    let cases: [(&str, [u32; 2], [u32; 10]); 4] = [
        (
            "v_cvt_pk_fp8_f32 v6, v2, v3",
            [0xd2a20006, 0x00020702],
            [
                0xa5a53840, 0xa5a54240, 0xa5a50100, 0xa5a50000, 0xa5a57f7f, 0xa5a58080, 0xa5a58080,
                0xa5a580cc, 0xa5a58080, 0xa5a50000,
            ],
        ),
        (
            "v_cvt_pk_fp8_f32 v6, v2, v3 op_sel:[0,0,1]",
            [0xd2a24006, 0x00020702],
            [
                0x3840a5a5, 0x4240a5a5, 0x0100a5a5, 0x0000a5a5, 0x7f7fa5a5, 0x8080a5a5, 0x8080a5a5,
                0x80cca5a5, 0x8080a5a5, 0x0000a5a5,
            ],
        ),
        (
            "v_cvt_pk_bf8_f32 v6, v2, v3",
            [0xd2a30006, 0x00020702],
            [
                0xa5a53c40, 0xa5a54140, 0xa5a51614, 0xa5a50000, 0xa5a56060, 0xa5a58060, 0xa5a58080,
                0xa5a580c6, 0xa5a5807f, 0xa5a50082,
            ],
        ),
        // Source modifiers act before the conversion.
        (
            "v_cvt_pk_bf8_f32 v6, -v2, |v3| op_sel:[0,0,1]",
            [0xd2a34206, 0x20020702],
            [
                0x3cc0a5a5, 0x41c0a5a5, 0x1694a5a5, 0x0000a5a5, 0x60e0a5a5, 0x80e0a5a5, 0x8080a5a5,
                0x8046a5a5, 0x80ffa5a5, 0x0002a5a5,
            ],
        ),
    ];
    for (text, words, want) in cases {
        check(
            Chip::Gfx942,
            text,
            &words,
            [&PK_A, &PK_B, &[], &INIT],
            &want,
        );
    }
}

#[test]
fn sr_rounds_with_the_random_bits_into_a_byte() {
    let cases: [(&str, [u32; 2], [u32; 10]); 4] = [
        (
            "v_cvt_sr_fp8_f32 v6, v2, v3",
            [0xd2a40006, 0x00020702],
            [
                0xa5a5a540, 0xa5a5a541, 0xa5a5a540, 0xa5a5a540, 0xa5a5a502, 0xa5a5a580, 0xa5a5a500,
                0xa5a5a580, 0xa5a5a541, 0xa5a5a5c0,
            ],
        ),
        (
            "v_cvt_sr_fp8_f32 v6, v2, v3 op_sel:[0,0,1,1]",
            [0xd2a46006, 0x00020702],
            [
                0x40a5a5a5, 0x41a5a5a5, 0x40a5a5a5, 0x40a5a5a5, 0x02a5a5a5, 0x80a5a5a5, 0x00a5a5a5,
                0x80a5a5a5, 0x41a5a5a5, 0xc0a5a5a5,
            ],
        ),
        (
            "v_cvt_sr_bf8_f32 v6, v2, v3 op_sel:[0,0,1,0]",
            [0xd2a52006, 0x00020702],
            [
                0xa5a540a5, 0xa5a540a5, 0xa5a540a5, 0xa5a540a5, 0xa5a519a5, 0xa5a560a5, 0xa5a500a5,
                0xa5a580a5, 0xa5a541a5, 0xa5a5c0a5,
            ],
        ),
        (
            "v_cvt_sr_bf8_f32 v6, -|v2|, v3 op_sel:[0,0,0,1]",
            [0xd2a54106, 0x20020702],
            [
                0xa5c0a5a5, 0xa5c0a5a5, 0xa5c0a5a5, 0xa5c0a5a5, 0xa599a5a5, 0xa5e0a5a5, 0xa500a5a5,
                0xa580a5a5, 0xa5c1a5a5, 0xa5c0a5a5,
            ],
        ),
    ];
    for (text, words, want) in cases {
        check(
            Chip::Gfx942,
            text,
            &words,
            [&SR_X, &SR_R, &[], &INIT],
            &want,
        );
    }
}

/// VOP3's clamp bit saturates an overflow or infinity to ±max; NaN stays
/// 0x80.
#[test]
fn clamp_saturates() {
    check(
        Chip::Gfx942,
        "v_cvt_pk_fp8_f32 v6, v2, v3 clamp",
        &[0xd2a28006, 0x00020702],
        [&PK_A, &PK_B, &[], &INIT],
        &[
            0xa5a53840, 0xa5a54240, 0xa5a50100, 0xa5a50000, 0xa5a57f7f, 0xa5a57f7f, 0xa5a57f80,
            0xa5a5ffcc, 0xa5a57f7f, 0xa5a50000,
        ],
    );
    check(
        Chip::Gfx942,
        "v_cvt_sr_fp8_f32 v6, v2, v3 clamp",
        &[0xd2a48006, 0x00020702],
        [&SR_X, &SR_R, &[], &INIT],
        &[
            0xa5a5a540, 0xa5a5a541, 0xa5a5a540, 0xa5a5a540, 0xa5a5a502, 0xa5a5a57f, 0xa5a5a500,
            0xa5a5a580, 0xa5a5a541, 0xa5a5a5c0,
        ],
    );
}
