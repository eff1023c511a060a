//! `v_fma_f16`, GFX11's `v_fmac_f16` and `v_pk_fma_f16` round `a * b + c`
//! once to f16, as a fused multiply-add does (the CDNA3 and RDNA3 guides:
//! "fused"; LLVM selects them for `llvm.fma.f16`). Computing it in f32
//! first and then rounding to f16 rounds twice, which differs where the
//! f32 result lands exactly on an f16 tie. The case, found with exact
//! rationals:
//!
//! ```python
//! from fractions import Fraction as F
//! a = -(1 + F(1, 2**10))            # 0xbc01
//! b = (1 - F(1, 2**10)) / 2**11      # 0x0ffe
//! c = 1 + F(1, 2**10)                # 0x3c01
//! a * b + c == 1 + F(1, 2**11) + F(1, 2**31)
//! import numpy as np                # exact in f64, so f64 -> f16 is one rounding
//! x = float(a * b + c)
//! np.float16(x) == 1 + 2**-10       # 0x3c01
//! np.float16(np.float32(x)) == 1.0  # 0x3c00: f32 first, then f16
//! ```
//!
//! 2^-31 above the tie between 1.0 (0x3c00) and 1 + 2^-10 (0x3c01), so
//! once rounded it is 0x3c01; in f32 (ulp 2^-23) it is the tie itself,
//! which f16 rounds to even, 0x3c00. Lane 1 is an exact tie (1 + 2^-11,
//! to 0x3c00) either way. Words from `llvm-mc-19 --arch=amdgcn
//! --mcpu=CHIP -show-encoding` of the text.

#[path = "sixteen/mod.rs"]
mod sixteen;

use amdgpu_isa::Chip;
use sixteen::check;

#[test]
fn fma_f16_rounds_once() {
    let a: &[u32] = &[0xbc01, 0x3c00];
    let b: &[u32] = &[0x0ffe, 0x1000];
    let c: &[u32] = &[0x3c01, 0x3c00];
    let init: &[u32] = &[0xa5a5_a5a5; 2];
    let want = [0xa5a5_3c01, 0xa5a5_3c00];
    for chip in [Chip::Gfx90a, Chip::Gfx942] {
        let text = "v_fma_f16 v6, v2, v3, v4";
        check(
            chip,
            text,
            &[0xd206_0006, 0x0412_0702],
            [a, b, c, init],
            &want,
        );
    }
    let text = "v_fma_f16 v6, v2, v3, v4";
    check(
        Chip::Gfx1100,
        text,
        &[0xd648_0006, 0x0412_0702],
        [a, b, c, init],
        &want,
    );
    // The accumulator is the destination (v6 starts as v5).
    let acc: &[u32] = &[0xa5a5_3c01, 0xa5a5_3c00];
    let text = "v_fmac_f16_e32 v6, v2, v3";
    check(Chip::Gfx1100, text, &[0x6c0c_0702], [a, b, &[], acc], &want);
}

#[test]
fn pk_fma_f16_rounds_once() {
    // The tie in the low half, the near-tie in the high half.
    let a: &[u32] = &[0xbc01_3c00];
    let b: &[u32] = &[0x0ffe_1000];
    let c: &[u32] = &[0x3c01_3c00];
    let text = "v_pk_fma_f16 v6, v2, v3, v4";
    for chip in [Chip::Gfx90a, Chip::Gfx942] {
        check(
            chip,
            text,
            &[0xd38e_4006, 0x1c12_0702],
            [a, b, c, &[0]],
            &[0x3c01_3c00],
        );
    }
    let words = [0xcc0e_4006, 0x1c12_0702];
    check(Chip::Gfx1100, text, &words, [a, b, c, &[0]], &[0x3c01_3c00]);
}
