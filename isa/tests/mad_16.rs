//! The 16-bit multiply-adds: `v_mad_u16`/`v_mad_i16` (gfx90a and gfx942's
//! op_sel forms, GFX11's), GFX9's `v_mad_legacy_u16`/`_i16`,
//! `v_mad_u32_u16`/`v_mad_i32_i16` and `v_pk_mad_u16`/`_i16`. IREE's
//! address arithmetic in small f16 and i8 matmuls and convolutions stopped
//! at them (iree-diff class `isa-v_mad_u16`).
//!
//! The ISA guides' definitions (RDNA3 V_MAD_U16: "D0.u16 = S0.u16 *
//! S1.u16 + S2.u16 ... Supports saturation (unsigned 16-bit integer domain)";
//! V_MAD_U32_U16: "D0.u32 = 32'U(S0.u16) * 32'U(S1.u16) + S2.u32"): the
//! result wraps to its width, or under clamp saturates to its type's range.
//! Which half a 16-bit result goes to (`op_sel[3]`) and what becomes of the
//! other: the CDNA2 guide's V_MAD_U16 keeps it, its V_MAD_LEGACY_U16 zeroes
//! the high half when writing the low one; GFX11 keeps it. v6 starts as v5
//! (0xabcd1234) to show it. Expected values by hand; the two products
//! marked below checked with Python (`hex((0x1111 * 0x2222 + 0x1fffe) &
//! 0xffffffff)` is 0x2488640, `hex((-32768 * 32767 - 2**31) &
//! 0xffffffff)` 0x40008000).

mod sixteen;

use amdgpu_isa::Chip;
use sixteen::check;

const CDNA: [Chip; 2] = [Chip::Gfx942, Chip::Gfx90a];
const OLD: [u32; 5] = [0xabcd_1234; 5];

/// Lanes: 3 * 5 + 7; 0xffff * 0xffff + 1 (wraps to 2); 0x100 * 0x100
/// (wraps to 0); 0 * 0 + 0xffff; and (op_sel) high halves 2 * 3 + 5, whose
/// low halves give 9 * 3 + 8.
const U_A: [u32; 5] = [3, 0xffff, 0x100, 0, 0x0002_0009];
const U_B: [u32; 5] = [5, 0xffff, 0x100, 0, 0x0009_0003];
const U_C: [u32; 5] = [7, 1, 0, 0xffff, 0x0005_0008];
const U_WRAPPED: [u32; 5] = [0x16, 0x2, 0x0, 0xffff, 0x23];
const U_CLAMPED: [u32; 5] = [0x16, 0xffff, 0xffff, 0xffff, 0x23];

/// Lanes (high halves 0x5555, never read): -3 * 5 + 7 = -8; MIN * -1 =
/// 32768 (wraps to MIN, clamps to MAX); MAX * 2 = 65534 (0xfffe, clamps to
/// MAX); MIN * 2 - 1 = -65537 (0xffff, clamps to MIN).
const I_A: [u32; 4] = [0x5555_fffd, 0x5555_8000, 0x5555_7fff, 0x5555_8000];
const I_B: [u32; 4] = [0x5555_0005, 0x5555_ffff, 0x5555_0002, 0x5555_0002];
const I_C: [u32; 4] = [0x5555_0007, 0x5555_0000, 0x5555_0000, 0x5555_ffff];
const I_WRAPPED: [u32; 4] = [0xfff8, 0x8000, 0xfffe, 0xffff];
const I_CLAMPED: [u32; 4] = [0xfff8, 0x7fff, 0x7fff, 0x8000];

/// `value`'s low halves over `high`.
fn over(high: u32, values: &[u32]) -> Vec<u32> {
    values.iter().map(|v| high << 16 | v).collect()
}

#[test]
fn mad_u16_keeps_the_other_half() {
    for (chip, words) in [
        (Chip::Gfx942, [0xd2040006, 0x04120702]),
        (Chip::Gfx90a, [0xd2040006, 0x04120702]),
        (Chip::Gfx1100, [0xd6410006, 0x04120702]),
    ] {
        let inputs = [&U_A[..], &U_B, &U_C, &OLD];
        let text = "v_mad_u16 v6, v2, v3, v4";
        check(chip, text, &words, inputs, &over(0xabcd, &U_WRAPPED));
        let clamp = [words[0] | 0x8000, words[1]];
        let text = "v_mad_u16 v6, v2, v3, v4 clamp";
        check(chip, text, &clamp, inputs, &over(0xabcd, &U_CLAMPED));
        // op_sel:[1,0,1,1]: S0 and S2's high halves, the result to the high
        // half, the low half kept: only the last lane's high halves are
        // not zero (2 * 3 + 5 = 11).
        let op_sel = [words[0] | 0x6800, words[1]];
        let text = "v_mad_u16 v6, v2, v3, v4 op_sel:[1,0,1,1]";
        let want = [0x1234, 0x1234, 0x1234, 0x1234, 0x000b_1234];
        check(chip, text, &op_sel, inputs, &want);
    }
}

#[test]
fn mad_i16_wraps_or_saturates() {
    for (chip, words) in [
        (Chip::Gfx942, [0xd2050006, 0x04120702]),
        (Chip::Gfx90a, [0xd2050006, 0x04120702]),
        (Chip::Gfx1100, [0xd6530006, 0x04120702]),
    ] {
        let inputs = [&I_A[..], &I_B, &I_C, &OLD[..4]];
        check(
            chip,
            "v_mad_i16 v6, v2, v3, v4",
            &words,
            inputs,
            &over(0xabcd, &I_WRAPPED),
        );
        check(
            chip,
            "v_mad_i16 v6, v2, v3, v4 clamp",
            &[words[0] | 0x8000, words[1]],
            inputs,
            &over(0xabcd, &I_CLAMPED),
        );
    }
}

#[test]
fn gfx9_legacy_mads_zero_the_high_half() {
    for chip in CDNA {
        let inputs = [&U_A[..], &U_B, &U_C, &OLD];
        let words = [0xd1eb0006, 0x04120702];
        check(
            chip,
            "v_mad_legacy_u16 v6, v2, v3, v4",
            &words,
            inputs,
            &U_WRAPPED,
        );
        let words = [0xd1eb8006, 0x04120702];
        let text = "v_mad_legacy_u16 v6, v2, v3, v4 clamp";
        check(chip, text, &words, inputs, &U_CLAMPED);
        let inputs = [&I_A[..], &I_B, &I_C, &OLD[..4]];
        let words = [0xd1ec0006, 0x04120702];
        check(
            chip,
            "v_mad_legacy_i16 v6, v2, v3, v4",
            &words,
            inputs,
            &I_WRAPPED,
        );
        let words = [0xd1ec8006, 0x04120702];
        let text = "v_mad_legacy_i16 v6, v2, v3, v4 clamp";
        check(chip, text, &words, inputs, &I_CLAMPED);
    }
}

#[test]
fn mad_u32_u16_and_mad_i32_i16() {
    for (chip, u, i) in [
        (Chip::Gfx942, 0xd1f10006u32, 0xd1f20006u32),
        (Chip::Gfx90a, 0xd1f10006, 0xd1f20006),
        (Chip::Gfx1100, 0xd6590006, 0xd65a0006),
    ] {
        // 0xffff * 0xffff + 0x1fffe = 0xffffffff; + 0x20000 wraps to 1 (or
        // clamps); 0 * 0 + 5, whose high halves give 3 * 4 + 5.
        let a = [0x1111_ffff, 0xffff, 0x0003_0000];
        let b = [0x2222_ffff, 0xffff, 0x0004_0000];
        let c = [0x0001_fffe, 0x0002_0000, 5];
        let inputs = [&a[..], &b, &c, &OLD[..3]];
        let text = "v_mad_u32_u16 v6, v2, v3, v4";
        check(chip, text, &[u, 0x04120702], inputs, &[0xffff_ffff, 1, 5]);
        let text = "v_mad_u32_u16 v6, v2, v3, v4 clamp";
        let want = [0xffff_ffff, 0xffff_ffff, 5];
        check(chip, text, &[u | 0x8000, 0x04120702], inputs, &want);
        // The high halves: 0x1111 * 0x2222 + 0x1fffe (Python, above).
        let text = "v_mad_u32_u16 v6, v2, v3, v4 op_sel:[1,1,0,0]";
        let want = [0x0248_8640, 0x0002_0000, 17];
        check(chip, text, &[u | 0x1800, 0x04120702], inputs, &want);
        // -2 * 3 + 10; MIN * MIN + MAX32 (wraps; clamps to MAX32); MIN *
        // MAX + MIN32 (wraps to 0x40008000, Python above; clamps to MIN32).
        let a = [0xfffe, 0x8000, 0x8000];
        let b = [3, 0x8000, 0x7fff];
        let c = [10, 0x7fff_ffff, 0x8000_0000];
        let inputs = [&a[..], &b, &c, &OLD[..3]];
        let text = "v_mad_i32_i16 v6, v2, v3, v4";
        let want = [4, 0xbfff_ffff, 0x4000_8000];
        check(chip, text, &[i, 0x04120702], inputs, &want);
        let text = "v_mad_i32_i16 v6, v2, v3, v4 clamp";
        let want = [4, 0x7fff_ffff, 0x8000_0000];
        check(chip, text, &[i | 0x8000, 0x04120702], inputs, &want);
    }
}

#[test]
fn packed_mads() {
    for (chip, u, i) in [
        (Chip::Gfx942, 0xd3894006u32, 0xd3804006u32),
        (Chip::Gfx90a, 0xd3894006, 0xd3804006),
        (Chip::Gfx1100, 0xcc094006, 0xcc004006),
    ] {
        // (2 * 4 + 1, 3 * 5 + 1); (0xffff * 2 = 0x1fffe, 0x100 * 0x100 =
        // 0x10000): wrapped or saturated per half.
        let a = [0x0002_0003, 0xffff_0100];
        let b = [0x0004_0005, 0x0002_0100];
        let c = [0x0001_0001, 0];
        let inputs = [&a[..], &b, &c, &OLD[..2]];
        let text = "v_pk_mad_u16 v6, v2, v3, v4";
        check(
            chip,
            text,
            &[u, 0x1c120702],
            inputs,
            &[0x0009_0010, 0xfffe_0000],
        );
        let text = "v_pk_mad_u16 v6, v2, v3, v4 clamp";
        let want = [0x0009_0010, 0xffff_ffff];
        check(chip, text, &[u | 0x8000, 0x1c120702], inputs, &want);
        // (-2 * 3 + 1, 3 * -5 + 2); (MIN * MIN = 2^30, MAX * MAX =
        // 0x3fff0001): low 16 bits.
        let a = [0xfffe_0003, 0x8000_7fff];
        let b = [0x0003_fffb, 0x8000_7fff];
        let c = [0x0001_0002, 0];
        let inputs = [&a[..], &b, &c, &OLD[..2]];
        let text = "v_pk_mad_i16 v6, v2, v3, v4";
        check(
            chip,
            text,
            &[i, 0x1c120702],
            inputs,
            &[0xfffb_fff3, 0x0000_0001],
        );
    }
}
