//! gfx950's and gfx1201's 8-bit float conversions, which take OCP's
//! E4M3FN ("fp8": bias 7, a -0, NaN 0x7f/0xff, no infinities) and E5M2
//! ("bf8": bias 15, IEEE-like infinities and NaNs) where gfx942's take
//! FNUZ formats (`fp8_convert.rs`, `fp8_from_f32.rs`). IREE's
//! `linalg/small_float_arith.mlir` on both chips needs them.
//!
//! - From 8 bits: `v_cvt_f32_fp8`/`_bf8` of byte 0 (gfx950's SDWA: the byte
//!   `src0_sel` picks; gfx1201's VOP3: `byte_sel`), `v_cvt_pk_f32_*` of
//!   bytes 0 and 1 into a pair (of the high word under SDWA's `WORD_1` or
//!   gfx1201's `op_sel:[1,0]`).
//! - To 8 bits: `v_cvt_pk_*_f32` to nearest even into the word
//!   `op_sel[3]` picks, `v_cvt_sr_*_f32` stochastically into the byte
//!   `op_sel[3:2]` (gfx1201: `byte_sel`) picks; the rest of the
//!   destination (0xa5a5a5a5 here) kept.
//!
//! Expected values from `ml_dtypes` 0.7 and `isa/tests/ocp8/generate.py`'s
//! stochastic rule, printed by `isa/tests/ocp8/expected.py` (which holds
//! the same inputs). Words from `llvm-mc-22 --mcpu=gfx950` and
//! `llvm-mc-19 --mcpu=gfx1201` `-show-encoding` of the text, which the
//! disassembler must print.

#[path = "sixteen/mod.rs"]
mod sixteen;

use amdgpu_isa::{Chip, Program, disassemble};
use sixteen::check;
use sixteen::handmade::{bytes, per_lane};

/// v2 of four lanes: bytes (low first) 40 38 7f 01, 80 c4 7e 7c,
/// ff fb 7d 08, 00 04 fc 83: ±1-ish values, -0, both formats' NaNs, 448,
/// E5M2's infinities, denormals.
const WORDS: [u32; 4] = [0x017f3840, 0x7c7ec480, 0x087dfbff, 0x83fc0400];

/// (a, b): 1.0, 0.5; ties 1.0625 (fp8: to 1.0) and 1.1875 (to 1.25); -0
/// and -1e-9 (both -0); 448 (fp8's largest) and 464 (the tie past it: to
/// even, 448); 464.5 (fp8: NaN) and 480; NaN and -NaN; ±infinity; 57344
/// (bf8's largest) and 61440 (the tie past it: to even, infinity);
/// 2^-9 (fp8's smallest denormal) and 1.5 * 2^-17 (bf8: 2^-16); -3 and
/// 1e6.
const PK_A: [u32; 10] = [
    0x3f800000, 0x3f880000, 0x80000000, 0x43e00000, 0x43e84000, 0x7fc00000, 0x7f800000, 0x47600000,
    0x3b000000, 0xc0400000,
];
const PK_B: [u32; 10] = [
    0x3f000000, 0x3f980000, 0xb0897e3a, 0x43e80000, 0x43f00000, 0xffc00000, 0xff800000, 0x47700000,
    0x37c00000, 0x49742400,
];

/// (x, random word): 1 + 2^-5 (a quarter of fp8's quantum above 1) with
/// no bits, 3/4 of the high bits (up), one less (down), and only bits
/// below the 20 used (down); 1.25 * 2^-9 with 3/4 (up); 449 with every
/// bit (fp8: past the largest, NaN); -0; NaN; ±(1 + 2^-4) with 3/4 and
/// one less.
const SR_X: [u32; 10] = [
    0x3f840000, 0x3f840000, 0x3f840000, 0x3f840000, 0x3b200000, 0x43e08000, 0x80000000, 0x7fc00000,
    0x3f880000, 0xbf880000,
];
const SR_R: [u32; 10] = [
    0x00000000, 0xc0000000, 0xbfffffff, 0x00000fff, 0xc0000000, 0xffffffff, 0xffffffff, 0x00000000,
    0xc0000000, 0xbfffffff,
];

const INIT: [u32; 10] = [0xa5a5_a5a5; 10];

/// Runs `words` (`text`) over [`WORDS`] in v2 and returns v6 (and v7 with
/// `pair`) of each lane, after checking the disassembly.
fn from_bytes(chip: Chip, text: &str, words: &[u32], pair: bool) -> Vec<u32> {
    let program = Program::decode(chip, &bytes(words)).unwrap();
    let inst = program.instructions().first().unwrap();
    assert_eq!(disassemble(inst, chip), text, "{chip:?}");
    per_lane(chip, words, &[&WORDS])
        .into_iter()
        .flat_map(|q| {
            if pair {
                vec![q as u32, (q >> 32) as u32]
            } else {
                vec![q as u32]
            }
        })
        .collect()
}

/// Interleaves two lanes' results (v6, v7).
fn pairs(lo: [u32; 4], hi: [u32; 4]) -> Vec<u32> {
    lo.iter().zip(hi).flat_map(|(&a, b)| [a, b]).collect()
}

/// A conversion of one byte: its text, its words, v6 of each lane.
type SingleCase = (&'static str, &'static [u32], [u32; 4]);

/// A conversion of two bytes into a pair: its text, its words, v6 and v7
/// of each lane.
type PairCase = (&'static str, &'static [u32], [u32; 4], [u32; 4]);

/// Runs every case of `singles` and `pair_cases` on `chip` and compares each
/// lane's result.
fn check_from_bytes(chip: Chip, singles: &[SingleCase], pair_cases: &[PairCase]) {
    for (text, words, expected) in singles {
        assert_eq!(
            from_bytes(chip, text, words, false),
            expected.to_vec(),
            "{text}"
        );
    }
    for (text, words, lo, hi) in pair_cases {
        assert_eq!(
            from_bytes(chip, text, words, true),
            pairs(*lo, *hi),
            "{text}"
        );
    }
}

/// gfx950's conversions from bytes of one byte (text, words, v6 of each lane).
const GFX950_SINGLES: &[SingleCase] = &[
    (
        "v_cvt_f32_fp8_e32 v6, v2",
        &[0x7e0ca902],
        [0x40000000, 0x80000000, 0xffc00000, 0x00000000],
    ),
    (
        "v_cvt_f32_bf8_e32 v6, v2",
        &[0x7e0cab02],
        [0x40000000, 0x80000000, 0xffc00000, 0x00000000],
    ),
    (
        "v_cvt_f32_fp8_sdwa v6, v2 src0_sel:BYTE_2",
        &[0x7e0ca8f9, 0x00020602],
        [0x7fc00000, 0x43e00000, 0x43d00000, 0xc3c00000],
    ),
    (
        "v_cvt_f32_bf8_sdwa v6, v2 src0_sel:BYTE_3",
        &[0x7e0caaf9, 0x00030602],
        [0x37800000, 0x7f800000, 0x39000000, 0xb8400000],
    ),
];

/// gfx950's conversions from two bytes into a pair (text, words, v6 and v7 of each lane).
const GFX950_PAIRS: &[PairCase] = &[
    (
        "v_cvt_pk_f32_fp8_e32 v[6:7], v2",
        &[0x7e0cad02],
        [0x40000000, 0x80000000, 0xffc00000, 0x00000000],
        [0x3f800000, 0xc0400000, 0xc3b00000, 0x3c000000],
    ),
    (
        "v_cvt_pk_f32_bf8_sdwa v[6:7], v2 src0_sel:WORD_1",
        &[0x7e0caef9, 0x00050602],
        [0x7fc00000, 0x7fc00000, 0x7fc00000, 0xff800000],
        [0x37800000, 0x7f800000, 0x39000000, 0xb8400000],
    ),
];

#[test]
fn gfx950_converts_ocp_bytes_to_f32() {
    check_from_bytes(Chip::Gfx950, GFX950_SINGLES, GFX950_PAIRS);
}

/// gfx1201's conversions from bytes of one byte (text, words, v6 of each lane).
const GFX1201_SINGLES: &[SingleCase] = &[
    (
        "v_cvt_f32_fp8_e32 v6, v2",
        &[0x7e0cd902],
        [0x40000000, 0x80000000, 0xffc00000, 0x00000000],
    ),
    (
        "v_cvt_f32_bf8_e32 v6, v2",
        &[0x7e0cdb02],
        [0x40000000, 0x80000000, 0xffc00000, 0x00000000],
    ),
    (
        "v_cvt_f32_fp8_e64 v6, v2 byte_sel:1",
        &[0xd5ec1006, 0x00000102],
        [0x3f800000, 0xc0400000, 0xc3b00000, 0x3c000000],
    ),
    (
        "v_cvt_f32_fp8_e64 v6, v2 byte_sel:2",
        &[0xd5ec0806, 0x00000102],
        [0x7fc00000, 0x43e00000, 0x43d00000, 0xc3c00000],
    ),
    (
        "v_cvt_f32_bf8_e64 v6, v2 byte_sel:3",
        &[0xd5ed1806, 0x00000102],
        [0x37800000, 0x7f800000, 0x39000000, 0xb8400000],
    ),
];

/// gfx1201's conversions from two bytes into a pair (text, words, v6 and v7 of each lane).
const GFX1201_PAIRS: &[PairCase] = &[
    (
        "v_cvt_pk_f32_fp8_e32 v[6:7], v2",
        &[0x7e0cdd02],
        [0x40000000, 0x80000000, 0xffc00000, 0x00000000],
        [0x3f800000, 0xc0400000, 0xc3b00000, 0x3c000000],
    ),
    (
        "v_cvt_pk_f32_bf8_e64 v[6:7], v2 op_sel:[1,0]",
        &[0xd5ef0806, 0x00000102],
        [0x7fc00000, 0x7fc00000, 0x7fc00000, 0xff800000],
        [0x37800000, 0x7f800000, 0x39000000, 0xb8400000],
    ),
];

#[test]
fn gfx1201_converts_ocp_bytes_to_f32() {
    check_from_bytes(Chip::Gfx1201, GFX1201_SINGLES, GFX1201_PAIRS);
}

#[test]
fn gfx950_rounds_f32_to_nearest_even_into_a_word() {
    check(
        Chip::Gfx950,
        "v_cvt_pk_fp8_f32 v6, v2, v3",
        &[0xd2a20006, 0x00020702],
        [&PK_A, &PK_B, &[], &INIT],
        &[
            0xa5a53038, 0xa5a53a38, 0xa5a58080, 0xa5a57e7e, 0xa5a57f7f, 0xa5a5ff7f, 0xa5a5ff7f,
            0xa5a57f7f, 0xa5a50001, 0xa5a57fc4,
        ],
    );
    check(
        Chip::Gfx950,
        "v_cvt_pk_fp8_f32 v6, v2, v3 op_sel:[0,0,1]",
        &[0xd2a24006, 0x00020702],
        [&PK_A, &PK_B, &[], &INIT],
        &[
            0x3038a5a5, 0x3a38a5a5, 0x8080a5a5, 0x7e7ea5a5, 0x7f7fa5a5, 0xff7fa5a5, 0xff7fa5a5,
            0x7f7fa5a5, 0x0001a5a5, 0x7fc4a5a5,
        ],
    );
    check(
        Chip::Gfx950,
        "v_cvt_pk_bf8_f32 v6, -v2, |v3|",
        &[0xd2a30206, 0x20020702],
        [&PK_A, &PK_B, &[], &INIT],
        &[
            0xa5a538bc, 0xa5a53dbc, 0xa5a50000, 0xa5a55fdf, 0xa5a560df, 0xa5a57efe, 0xa5a57cfc,
            0xa5a57cfb, 0xa5a50298, 0xa5a57c42,
        ],
    );
    check(
        Chip::Gfx950,
        "v_cvt_pk_bf8_f32 v6, v2, v3 op_sel:[0,0,1]",
        &[0xd2a34006, 0x00020702],
        [&PK_A, &PK_B, &[], &INIT],
        &[
            0x383ca5a5, 0x3d3ca5a5, 0x8080a5a5, 0x5f5fa5a5, 0x605fa5a5, 0xfe7ea5a5, 0xfc7ca5a5,
            0x7c7ba5a5, 0x0218a5a5, 0x7cc2a5a5,
        ],
    );
}

#[test]
fn gfx950_rounds_f32_stochastically_into_a_byte() {
    check(
        Chip::Gfx950,
        "v_cvt_sr_fp8_f32 v6, v2, v3",
        &[0xd2a40006, 0x00020702],
        [&SR_X, &SR_R, &[], &INIT],
        &[
            0xa5a5a538, 0xa5a5a539, 0xa5a5a538, 0xa5a5a538, 0xa5a5a502, 0xa5a5a57f, 0xa5a5a580,
            0xa5a5a57f, 0xa5a5a539, 0xa5a5a5b9,
        ],
    );
    check(
        Chip::Gfx950,
        "v_cvt_sr_fp8_f32 v6, v2, v3 op_sel:[0,0,1,1]",
        &[0xd2a46006, 0x00020702],
        [&SR_X, &SR_R, &[], &INIT],
        &[
            0x38a5a5a5, 0x39a5a5a5, 0x38a5a5a5, 0x38a5a5a5, 0x02a5a5a5, 0x7fa5a5a5, 0x80a5a5a5,
            0x7fa5a5a5, 0x39a5a5a5, 0xb9a5a5a5,
        ],
    );
    check(
        Chip::Gfx950,
        "v_cvt_sr_bf8_f32 v6, v2, v3 op_sel:[0,0,1,0]",
        &[0xd2a52006, 0x00020702],
        [&SR_X, &SR_R, &[], &INIT],
        &[
            0xa5a53ca5, 0xa5a53ca5, 0xa5a53ca5, 0xa5a53ca5, 0xa5a519a5, 0xa5a560a5, 0xa5a580a5,
            0xa5a57ea5, 0xa5a53da5, 0xa5a5bca5,
        ],
    );
    check(
        Chip::Gfx950,
        "v_cvt_sr_bf8_f32 v6, -v2, v3 op_sel:[0,0,0,1]",
        &[0xd2a54006, 0x20020702],
        [&SR_X, &SR_R, &[], &INIT],
        &[
            0xa5bca5a5, 0xa5bca5a5, 0xa5bca5a5, 0xa5bca5a5, 0xa599a5a5, 0xa5e0a5a5, 0xa500a5a5,
            0xa5fea5a5, 0xa5bda5a5, 0xa53ca5a5,
        ],
    );
}

#[test]
fn gfx1201_rounds_f32_to_nearest_even_into_a_word() {
    check(
        Chip::Gfx1201,
        "v_cvt_pk_fp8_f32 v6, v2, v3",
        &[0xd7690006, 0x00020702],
        [&PK_A, &PK_B, &[], &INIT],
        &[
            0xa5a53038, 0xa5a53a38, 0xa5a58080, 0xa5a57e7e, 0xa5a57f7f, 0xa5a5ff7f, 0xa5a5ff7f,
            0xa5a57f7f, 0xa5a50001, 0xa5a57fc4,
        ],
    );
    check(
        Chip::Gfx1201,
        "v_cvt_pk_fp8_f32 v6, v2, v3 op_sel:[0,0,1]",
        &[0xd7694006, 0x00020702],
        [&PK_A, &PK_B, &[], &INIT],
        &[
            0x3038a5a5, 0x3a38a5a5, 0x8080a5a5, 0x7e7ea5a5, 0x7f7fa5a5, 0xff7fa5a5, 0xff7fa5a5,
            0x7f7fa5a5, 0x0001a5a5, 0x7fc4a5a5,
        ],
    );
    check(
        Chip::Gfx1201,
        "v_cvt_pk_bf8_f32 v6, -v2, |v3|",
        &[0xd76a0206, 0x20020702],
        [&PK_A, &PK_B, &[], &INIT],
        &[
            0xa5a538bc, 0xa5a53dbc, 0xa5a50000, 0xa5a55fdf, 0xa5a560df, 0xa5a57efe, 0xa5a57cfc,
            0xa5a57cfb, 0xa5a50298, 0xa5a57c42,
        ],
    );
    check(
        Chip::Gfx1201,
        "v_cvt_pk_bf8_f32 v6, v2, v3 op_sel:[0,0,1]",
        &[0xd76a4006, 0x00020702],
        [&PK_A, &PK_B, &[], &INIT],
        &[
            0x383ca5a5, 0x3d3ca5a5, 0x8080a5a5, 0x5f5fa5a5, 0x605fa5a5, 0xfe7ea5a5, 0xfc7ca5a5,
            0x7c7ba5a5, 0x0218a5a5, 0x7cc2a5a5,
        ],
    );
}

#[test]
fn gfx1201_rounds_f32_stochastically_into_a_byte() {
    check(
        Chip::Gfx1201,
        "v_cvt_sr_fp8_f32 v6, v2, v3",
        &[0xd76b0006, 0x00020702],
        [&SR_X, &SR_R, &[], &INIT],
        &[
            0xa5a5a538, 0xa5a5a539, 0xa5a5a538, 0xa5a5a538, 0xa5a5a502, 0xa5a5a57f, 0xa5a5a580,
            0xa5a5a57f, 0xa5a5a539, 0xa5a5a5b9,
        ],
    );
    check(
        Chip::Gfx1201,
        "v_cvt_sr_fp8_f32 v6, v2, v3 byte_sel:3",
        &[0xd76b6006, 0x00020702],
        [&SR_X, &SR_R, &[], &INIT],
        &[
            0x38a5a5a5, 0x39a5a5a5, 0x38a5a5a5, 0x38a5a5a5, 0x02a5a5a5, 0x7fa5a5a5, 0x80a5a5a5,
            0x7fa5a5a5, 0x39a5a5a5, 0xb9a5a5a5,
        ],
    );
    check(
        Chip::Gfx1201,
        "v_cvt_sr_bf8_f32 v6, v2, v3 byte_sel:1",
        &[0xd76c2006, 0x00020702],
        [&SR_X, &SR_R, &[], &INIT],
        &[
            0xa5a53ca5, 0xa5a53ca5, 0xa5a53ca5, 0xa5a53ca5, 0xa5a519a5, 0xa5a560a5, 0xa5a580a5,
            0xa5a57ea5, 0xa5a53da5, 0xa5a5bca5,
        ],
    );
    check(
        Chip::Gfx1201,
        "v_cvt_sr_bf8_f32 v6, -v2, v3 byte_sel:2",
        &[0xd76c4006, 0x20020702],
        [&SR_X, &SR_R, &[], &INIT],
        &[
            0xa5bca5a5, 0xa5bca5a5, 0xa5bca5a5, 0xa5bca5a5, 0xa599a5a5, 0xa5e0a5a5, 0xa500a5a5,
            0xa5fea5a5, 0xa5bda5a5, 0xa53ca5a5,
        ],
    );
}

/// GFX12's DPP forms (LLVM gives the pairs from 8-bit floats none): the
/// source moved across lanes first (`quad_perm:[1,0,2,3]` and DPP8's
/// `[1,0,...]` swap lanes 0 and 1 of each group), then the conversion;
/// the expected values are the lanes' of the tests above, swapped.
#[test]
fn gfx1201_dpp_forms_move_the_source_then_convert() {
    let chip = Chip::Gfx1201;
    let got = from_bytes(
        chip,
        "v_cvt_f32_fp8_dpp v6, v2 quad_perm:[1,0,2,3] row_mask:0xf bank_mask:0xf",
        &[0x7e0cd8fa, 0xff00e102],
        false,
    );
    assert_eq!(got, [0x80000000, 0x40000000, 0xffc00000, 0x00000000]);
    let got = from_bytes(
        chip,
        "v_cvt_f32_fp8_e64_dpp v6, v2 byte_sel:2 quad_perm:[1,0,2,3] row_mask:0xf bank_mask:0xf",
        &[0xd5ec0806, 0x000000fa, 0xff00e102],
        false,
    );
    assert_eq!(got, [0x43e00000, 0x7fc00000, 0x43d00000, 0xc3c00000]);
    let got = from_bytes(
        chip,
        "v_cvt_f32_bf8_dpp v6, v2 dpp8:[1,0,2,3,4,5,6,7]",
        &[0x7e0cdae9, 0xfac68102],
        false,
    );
    assert_eq!(got, [0x80000000, 0x40000000, 0xffc00000, 0x00000000]);
    // Source 0 of the quads' lanes 0 and 1 swapped, source 1 in place.
    check(
        chip,
        "v_cvt_pk_fp8_f32_e64_dpp v6, v2, v3 quad_perm:[1,0,2,3] row_mask:0xf bank_mask:0xf",
        &[0xd7690006, 0x000206fa, 0xff00e102],
        [&PK_A, &PK_B, &[], &INIT],
        &[
            0xa5a53038, 0xa5a53a38, 0xa5a58080, 0xa5a57e7e, 0xa5a57f7f, 0xa5a5ff7f, 0xa5a5ff7f,
            0xa5a57f7f, 0xa5a500c4, 0xa5a57f01,
        ],
    );
}
