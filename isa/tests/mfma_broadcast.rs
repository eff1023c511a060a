//! MFMA broadcast controls, as AMD's matrix instruction calculator defines
//! them (`_get_cbsz_abid_transformed_block`, `_get_blgp_transformed_lane`,
//! transcribed in tests/mfma/mod.rs): CBSZ/ABID give each block the A of
//! one block of its group of 2^CBSZ, BLGP swizzles the lanes B is read
//! from. Where the calculator says an instruction has no such control, or
//! a value is out of its range, the kernel fails to decode, naming it.

mod handmade;
mod mfma;

use amdgpu_isa::{Chip, Program};
use mfma::{Modifiers, case, check, kernel};

/// Chip, mnemonic, llvm-mc's words and text, CBSZ, ABID, BLGP.
type Run = (Chip, &'static str, [u32; 2], &'static str, u32, usize, u32);

const RUNS: &[Run] = &[
    (
        Chip::Gfx942,
        "v_mfma_f32_16x16x1_4b_f32",
        [0xd3c1_0a40, 0x6482_1908],
        "v_mfma_f32_16x16x1_4b_f32 v[64:79], v8, v12, v[32:47] cbsz:2 abid:1 blgp:3",
        2,
        1,
        3,
    ),
    (
        Chip::Gfx942,
        "v_mfma_i32_32x32x4_2b_i8",
        [0xd3d0_0940, 0x2482_1908],
        "v_mfma_i32_32x32x4_2b_i8 v[64:95], v8, v12, v[32:63] cbsz:1 abid:1 blgp:1",
        1,
        1,
        1,
    ),
    (
        Chip::Gfx942,
        "v_mfma_f32_32x32x2_f32",
        [0xd3c4_0040, 0xa482_1908],
        "v_mfma_f32_32x32x2_f32 v[64:79], v8, v12, v[32:47] blgp:5",
        0,
        0,
        5,
    ),
    (
        Chip::Gfx942,
        "v_mfma_f32_4x4x1_16b_f32",
        [0xd3c2_2b40, 0xe482_1908],
        "v_mfma_f32_4x4x1_16b_f32 v[64:67], v8, v12, v[32:35] cbsz:3 abid:5 blgp:7",
        3,
        5,
        7,
    ),
    (
        Chip::Gfx942,
        "v_mfma_f32_32x32x4_2b_bf16",
        [0xd3dd_0040, 0x8482_1908],
        "v_mfma_f32_32x32x4_2b_bf16 v[64:95], v[8:9], v[12:13], v[32:63] blgp:4",
        0,
        0,
        4,
    ),
    (
        Chip::Gfx90a,
        "v_mfma_f32_4x4x4f16",
        [0xd3ca_4c40, 0xc482_1908],
        "v_mfma_f32_4x4x4f16 v[64:67], v[8:9], v[12:13], v[32:35] cbsz:4 abid:9 blgp:6",
        4,
        9,
        6,
    ),
    (
        Chip::Gfx90a,
        "v_mfma_f32_32x32x2bf16",
        [0xd3e8_0040, 0x4482_1908],
        "v_mfma_f32_32x32x2bf16 v[64:95], v8, v12, v[32:63] blgp:2",
        0,
        0,
        2,
    ),
    (
        Chip::Gfx90a,
        "v_mfma_f32_32x32x8f16",
        [0xd3cc_0040, 0x6482_1908],
        "v_mfma_f32_32x32x8f16 v[64:79], v[8:9], v[12:13], v[32:47] blgp:3",
        0,
        0,
        3,
    ),
];

#[test]
fn cbsz_abid_broadcast_a_blocks_and_blgp_swizzles_b_lanes() {
    for (seed, &(chip, mnemonic, words, text, cbsz, abid, blgp)) in RUNS.iter().enumerate() {
        let modifiers = Modifiers {
            cbsz,
            abid,
            blgp,
            ..Modifiers::default()
        };
        check(
            case(chip, mnemonic),
            &words,
            text,
            modifiers,
            50 + seed as u64,
        );
    }
}

#[test]
fn controls_the_calculator_does_not_define_fail_to_decode_by_name() {
    for (chip, mnemonic, words, name) in [
        // gfx942's one-block f16 has no BLGP (the calculator; gfx90a's has).
        (
            Chip::Gfx942,
            "v_mfma_f32_32x32x8_f16",
            [0xd3cc_0040, 0x2482_1908], // ... v[32:47] blgp:1
            "BLGP",
        ),
        // One block: no CBSZ.
        (
            Chip::Gfx942,
            "v_mfma_f32_32x32x2_f32",
            [0xd3c4_0140, 0x0482_1908], // ... v[32:47] cbsz:1
            "CBSZ",
        ),
        // ABID past 2^CBSZ - 1.
        (
            Chip::Gfx942,
            "v_mfma_f32_16x16x1_4b_f32",
            [0xd3c1_1140, 0x0482_1908], // ... cbsz:1 abid:2
            "CBSZ",
        ),
        // CBSZ past log2(4 blocks).
        (
            Chip::Gfx942,
            "v_mfma_f32_16x16x1_4b_f32",
            [0xd3c1_0340, 0x0482_1908], // ... cbsz:3
            "CBSZ",
        ),
        // fp8: no BLGP.
        (
            Chip::Gfx942,
            "v_mfma_f32_16x16x32_fp8_fp8",
            [0xd3f3_0040, 0x4482_1908], // ... blgp:2
            "BLGP",
        ),
        // gfx90a's f64: no BLGP (gfx942's negates).
        (
            Chip::Gfx90a,
            "v_mfma_f64_16x16x4f64",
            [0xd3ee_0040, 0x2482_1908], // ... v[32:39] blgp:1
            "BLGP",
        ),
    ] {
        let c = case(chip, mnemonic);
        let err = Program::decode(chip, &handmade::bytes(&kernel(c, &words)))
            .err()
            .unwrap_or_else(|| panic!("{chip:?} {mnemonic} {words:x?} decoded"))
            .to_string();
        assert!(
            err.contains(name) && err.contains(mnemonic),
            "{chip:?} {mnemonic}: {err}"
        );
    }
}
