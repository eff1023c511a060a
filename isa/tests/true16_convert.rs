//! GFX11's 16-bit conversions between f16 and i16/u16 (`v_cvt_i16_f16`,
//! `v_cvt_u16_f16`, `v_cvt_f16_i16`, `v_cvt_f16_u16`) read the half of
//! their source that true16 names: `v2.h` in VOP1 (bit 7 of the 8-bit
//! register field), `op_sel[0]` in VOP3, with VOP3's `abs`/`neg` on an f16
//! source. IREE's gfx1100 kernels keep two f16 values in one VGPR when the
//! registers run short (seed 319 of scripts/iree-diff: `v_cvt_i16_f16_e32
//! v1.h, v1.h` after the clamp of an `fptosi` to -128 converted the low
//! half, -65504, instead).
//!
//! Expected values from the RDNA3 ISA guide's definitions (V_CVT_I16_F16:
//! `D.i16 = f16_to_i16(S0.f16)`, saturating, NaN to 0; V_CVT_F16_I16 and
//! V_CVT_F16_U16: the integer rounded to nearest even in f16, above 65520
//! infinity), with f16 bits from `numpy.float16(x).view(numpy.uint16)`:
//! -128 0xd800, 127 0x57f0, -65504 0xfbff, -3 0xc200, 65408 0x7bfc,
//! 32767 and 32768 0x7800, 1 0x3c00, 65533 0x7c00.
//!
//! LLVM 19 neither assembles nor prints true16 operands, so each `.h` form
//! is its fake16 encoding (`llvm-mc-19 --arch=amdgcn --mcpu=gfx1100
//! -show-encoding`, whose disassembly is checked) with the half bits set
//! by hand; the VOP1 word `0x7f02a781` is the one IREE's compiler wrote.

mod sixteen;

use amdgpu_isa::Chip;
use sixteen::{check, text};

const GFX11: Chip = Chip::Gfx1100;
/// f16 pairs (high half read by the `.h` forms, low half a decoy): -128 |
/// 12, 127 | -2, -65504 | 1, NaN | 5, -3 | 0.
const F16_PAIRS: [u32; 5] = [
    0xd800_4a00,
    0x57f0_c000,
    0xfbff_3c00,
    0x7e00_4500,
    0xc200_0000,
];
/// 16-bit integer pairs (high half read): 0xff80 (-128 or 65408), 0x7fff,
/// 0x8000, 1, 0xfffd (-3 or 65533); low halves 2.
const INT_PAIRS: [u32; 5] = [
    0xff80_0002,
    0x7fff_0002,
    0x8000_0002,
    0x0001_0002,
    0xfffd_0002,
];
const OLD: [u32; 5] = [0xaaaa_bbbb; 5];

/// The fake16 base forms, as llvm-mc-19 prints them.
#[test]
fn base_encodings_disassemble_as_llvm_prints_them() {
    for (words, want) in [
        (&[0x7e0c_a702u32][..], "v_cvt_i16_f16_e32 v6, v2"),
        (&[0x7e0c_a302], "v_cvt_f16_i16_e32 v6, v2"),
        (&[0xd5d2_0006, 0x2000_0102], "v_cvt_u16_f16_e64 v6, -v2"),
        (&[0xd5d0_0006, 0x0000_0103], "v_cvt_f16_u16_e64 v6, v3"),
    ] {
        assert_eq!(text(GFX11, words), want);
    }
}

#[test]
fn cvt_i16_f16_reads_the_high_half() {
    // v_cvt_i16_f16_e32 v6.l, v2.h: src0 0x102 | 0x80 (v2.h); v6.h kept.
    let words = [0x7e0c_a782];
    let inputs: [&[u32]; 4] = [&F16_PAIRS, &[], &[], &OLD];
    let want = [
        0xaaaa_ff80,
        0xaaaa_007f,
        0xaaaa_8000,
        0xaaaa_0000,
        0xaaaa_fffd,
    ];
    check(GFX11, &text(GFX11, &words), &words, inputs, &want);
}

#[test]
fn cvt_u16_f16_reads_the_high_half_negated() {
    // v_cvt_u16_f16_e64 v6.h, -v2.h: the encoding above with op_sel bits
    // 11 (source 0 high) and 14 (destination high). -(-128) = 128,
    // -(127) saturates to 0, -(-65504) = 65504 (0xffe0), NaN 0, -(-3) 3.
    let words = [0xd5d2_4806, 0x2000_0102];
    let inputs: [&[u32]; 4] = [&F16_PAIRS, &[], &[], &OLD];
    let want = [
        0x0080_bbbb,
        0x0000_bbbb,
        0xffe0_bbbb,
        0x0000_bbbb,
        0x0003_bbbb,
    ];
    check(GFX11, &text(GFX11, &words), &words, inputs, &want);
}

#[test]
fn cvt_f16_i16_reads_the_high_half() {
    // v_cvt_f16_i16_e32 v6.h, v2.h: vdst 0x86, src0 0x182; v6.l kept.
    // -128, 32767 (to 32768), -32768, 1, -3.
    let words = [0x7f0c_a382];
    let inputs: [&[u32]; 4] = [&INT_PAIRS, &[], &[], &OLD];
    let want = [
        0xd800_bbbb,
        0x7800_bbbb,
        0xf800_bbbb,
        0x3c00_bbbb,
        0xc200_bbbb,
    ];
    check(GFX11, &text(GFX11, &words), &words, inputs, &want);
}

#[test]
fn cvt_f16_u16_reads_the_high_half() {
    // v_cvt_f16_u16_e64 v6.l, v3.h: op_sel bit 11 (source 0 high).
    // 65408, 32767 (to 32768), 32768, 1, 65533 (past 65520: infinity).
    let words = [0xd5d0_0806, 0x0000_0103];
    let inputs: [&[u32]; 4] = [&[], &INT_PAIRS, &[], &OLD];
    let want = [
        0xaaaa_7bfc,
        0xaaaa_7800,
        0xaaaa_7800,
        0xaaaa_3c00,
        0xaaaa_7c00,
    ];
    check(GFX11, &text(GFX11, &words), &words, inputs, &want);
}

/// IREE's own word: `v_cvt_i16_f16_e32 v1.h, v1.h` (seed 319), run on v6.
#[test]
fn cvt_i16_f16_high_to_high() {
    // 0x7f02a781 with v1 renumbered to v6: vdst 0x86, src0 0x186.
    let words = [0x7f0c_a786];
    let pairs = [0xd800_fbff, 0x57f0_5ae4];
    let inputs: [&[u32]; 4] = [&[], &[], &[], &pairs];
    check(
        GFX11,
        &text(GFX11, &words),
        &words,
        inputs,
        &[0xff80_fbff, 0x007f_5ae4],
    );
}
