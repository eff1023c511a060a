//! CDNA's 16-bit integer dot products (gfx90a and gfx942; gfx1100 has
//! none, `llvm-mc-19 --mcpu=gfx1100` refuses them): `v_dot2_i32_i16` and
//! `v_dot2c_i32_i16` (signed halves and accumulator), `v_dot2_u32_u16`
//! (unsigned), `a.lo * b.lo + a.hi * b.hi + c` summed exactly, wrapping to
//! 32 bits or, under clamp, saturating to the signed (unsigned) range as
//! the four-byte forms do (`isa/tests/dot_products.rs`). An inline float
//! constant is its f32 bits, as for the packed integer operations
//! (`isa/tests/pk_int16_inline_float.rs`). Expected values from:
//!
//! ```python
//! def s16(x): x &= 0xffff; return x - 0x10000 if x & 0x8000 else x
//! def s32(x): x &= 0xffffffff; return x - 2**32 if x & 0x80000000 else x
//! def dot(a, b, c, signed, clamp):
//!     h = s16 if signed else (lambda x: x & 0xffff)
//!     v = h(a) * h(b) + h(a >> 16) * h(b >> 16) + (s32(c) if signed else c)
//!     if clamp:
//!         v = max(-2**31, min(2**31 - 1, v)) if signed else max(0, min(2**32 - 1, v))
//!     return v & 0xffffffff
//! ```
//!
//! Words from `llvm-mc-19 --arch=amdgcn --mcpu=gfx942 -show-encoding` of
//! the text (gfx90a's are the same), which the disassembler must print.

mod handmade;

use amdgpu_isa::{Chip, Program, disassemble};
use handmade::per_lane32;

const A: [u32; 6] = [
    0x0003_fffe,
    0x7fff_7fff,
    0x8000_8000,
    0xffff_ffff,
    0x1234_5678,
    0x8000_8000,
];
const B: [u32; 6] = [
    0x0005_0007,
    0x7fff_7fff,
    0x8000_8000,
    0xffff_ffff,
    0x0002_0003,
    0x7fff_7fff,
];
const C: [u32; 6] = [
    10,
    0x7fff_0000,
    0x8000_0000,
    0xffff_fff0,
    0xffff_ffff,
    0x8000_0000,
];

const SIGNED: [u32; 6] = [
    0x0000000b, 0xfffd0002, 0x00000000, 0xfffffff2, 0x000127cf, 0x00010000,
];
const SIGNED_CLAMP: [u32; 6] = [
    0x0000000b, 0x7fffffff, 0x00000000, 0xfffffff2, 0x000127cf, 0x80000000,
];
const UNSIGNED: [u32; 6] = [
    0x0007000b, 0xfffd0002, 0x00000000, 0xfffbfff2, 0x000127cf, 0xffff0000,
];
const UNSIGNED_CLAMP: [u32; 6] = [
    0x0007000b, 0xfffd0002, 0xffffffff, 0xffffffff, 0xffffffff, 0xffff0000,
];

/// `v_mov_b32_e32 v6, v4`: the accumulator of the `c` forms.
const MOV_V6_V4: u32 = 0x7e0c_0304;

#[test]
fn dot2_int16() {
    let cases: [(&str, &[u32], [u32; 6]); 6] = [
        (
            "v_dot2_i32_i16 v6, v2, v3, v4",
            &[0xd3a6_4006, 0x1c12_0702],
            SIGNED,
        ),
        (
            "v_dot2_i32_i16 v6, v2, v3, v4 clamp",
            &[0xd3a6_c006, 0x1c12_0702],
            SIGNED_CLAMP,
        ),
        (
            "v_dot2_u32_u16 v6, v2, v3, v4",
            &[0xd3a7_4006, 0x1c12_0702],
            UNSIGNED,
        ),
        (
            "v_dot2_u32_u16 v6, v2, v3, v4 clamp",
            &[0xd3a7_c006, 0x1c12_0702],
            UNSIGNED_CLAMP,
        ),
        ("v_dot2c_i32_i16_e32 v6, v2, v3", &[0x700c_0702], SIGNED),
        (
            "v_dot2c_i32_i16_e64 v6, v2, v3 clamp",
            &[0xd138_8006, 0x0002_0702],
            SIGNED_CLAMP,
        ),
    ];
    for chip in [Chip::Gfx90a, Chip::Gfx942] {
        for (text, words, want) in cases {
            let program = Program::decode(chip, &handmade::bytes(words)).unwrap();
            assert_eq!(disassemble(&program.instructions()[0], chip), text);
            let code = [&[MOV_V6_V4][..], words].concat();
            let got = per_lane32(chip, &code, &[&A, &B, &C]);
            assert_eq!(got, want, "{chip:?}: {text}");
        }
    }
}

/// 0.5 is 0x3f000000: 3 * 0 + 2 * 0x3f00 + 10.
#[test]
fn float_constant_is_its_f32_bits() {
    let text = "v_dot2_i32_i16 v6, v2, 0.5, v4";
    let words = [0xd3a6_4006, 0x1c11_e102];
    let program = Program::decode(Chip::Gfx942, &handmade::bytes(&words)).unwrap();
    assert_eq!(disassemble(&program.instructions()[0], Chip::Gfx942), text);
    let got = per_lane32(Chip::Gfx942, &words, &[&[0x0002_0003], &[0], &[10]]);
    assert_eq!(got, [0x7e0a]);
}
