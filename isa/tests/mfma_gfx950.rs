//! gfx950's (CDNA4) new dense MFMA shapes (`v_mfma_f32_16x16x32_f16`,
//! `_32x32x16_f16`, their bf16 twins, `v_mfma_i32_16x16x64_i8`,
//! `_32x32x32_i8`), each against the plain product over the layout below,
//! with the MFMA tests' kernel, inputs and expression reader
//! (tests/mfma/mod.rs).
//!
//! The layouts are written from AMD's "AMD Instinct CDNA4 Instruction Set
//! Architecture" guide (chapter 7, "Matrix Arithmetic Instructions": these
//! shapes double K of gfx942's `16x16x16`/`32x32x8` f16 and bf16 and
//! `16x16x32`/`32x32x16` i8 forms by giving each lane a run of eight
//! (i8: sixteen) consecutive elements of K in four registers, lanes
//! `M * floor(k / run) + row`; C and D as gfx942's shapes of the same M),
//! in the calculator's notation, not from the interpreter's general rule
//! (`isa/src/exec/mfma.rs`). IREE's CPU results check
//! `v_mfma_f32_16x16x32_f16` independently again: the kernel corpus's
//! `matmul_f16` on `mi355x-8` (tests/it/sim/kernels_corpus.rs). The words
//! are `llvm-mc-22 --arch=amdgcn --mcpu=gfx950 -show-encoding` of the text,
//! which the interpreter's disassembler must also print.

mod handmade;
mod mfma;

use amdgpu_isa::Chip;
use mfma::{Case, Modifiers, T, check};

/// A, B, C and D in v[8:], v[12:], v[32:] and v[64:], as tests/mfma/mod.rs's
/// cases.
const CASES: &[Case] = &[
    Case {
        chip: Chip::Gfx950,
        text: "v_mfma_f32_16x16x32_f16 v[64:67], v[8:11], v[12:15], v[32:35]",
        words: [0xd3d4_0040, 0x0482_1908],
        mnk_blocks: [16, 16, 32, 1],
        types: [T::F16, T::F16],
        regs: [4, 4, 4],
        layout: [
            "(floor(k / 2) % 4).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * floor(k / 8) + i",
            "(floor(k / 2) % 4).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * floor(k / 8) + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx950,
        text: "v_mfma_f32_32x32x16_f16 v[64:79], v[8:11], v[12:15], v[32:47]",
        words: [0xd3d5_0040, 0x0482_1908],
        mnk_blocks: [32, 32, 16, 1],
        types: [T::F16, T::F16],
        regs: [4, 4, 16],
        layout: [
            "(floor(k / 2) % 4).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * floor(k / 8) + i",
            "(floor(k / 2) % 4).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * floor(k / 8) + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx950,
        text: "v_mfma_f32_16x16x32_bf16 v[64:67], v[8:11], v[12:15], v[32:35]",
        words: [0xd3b5_0040, 0x0482_1908],
        mnk_blocks: [16, 16, 32, 1],
        types: [T::Bf16, T::Bf16],
        regs: [4, 4, 4],
        layout: [
            "(floor(k / 2) % 4).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * floor(k / 8) + i",
            "(floor(k / 2) % 4).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * floor(k / 8) + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx950,
        text: "v_mfma_f32_32x32x16_bf16 v[64:79], v[8:11], v[12:15], v[32:47]",
        words: [0xd3b7_0040, 0x0482_1908],
        mnk_blocks: [32, 32, 16, 1],
        types: [T::Bf16, T::Bf16],
        regs: [4, 4, 16],
        layout: [
            "(floor(k / 2) % 4).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * floor(k / 8) + i",
            "(floor(k / 2) % 4).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * floor(k / 8) + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx950,
        text: "v_mfma_i32_16x16x64_i8 v[64:67], v[8:11], v[12:15], v[32:35]",
        words: [0xd3b6_0040, 0x0482_1908],
        mnk_blocks: [16, 16, 64, 1],
        types: [T::I8, T::I8],
        regs: [4, 4, 4],
        layout: [
            "(floor(k / 4) % 4).[8*(k % 4)+7 : 8*(k % 4)]",
            "16 * floor(k / 16) + i",
            "(floor(k / 4) % 4).[8*(k % 4)+7 : 8*(k % 4)]",
            "16 * floor(k / 16) + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx950,
        text: "v_mfma_i32_32x32x32_i8 v[64:79], v[8:11], v[12:15], v[32:47]",
        words: [0xd3b8_0040, 0x0482_1908],
        mnk_blocks: [32, 32, 32, 1],
        types: [T::I8, T::I8],
        regs: [4, 4, 16],
        layout: [
            "(floor(k / 4) % 4).[8*(k % 4)+7 : 8*(k % 4)]",
            "32 * floor(k / 16) + i",
            "(floor(k / 4) % 4).[8*(k % 4)+7 : 8*(k % 4)]",
            "32 * floor(k / 16) + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
];

#[test]
fn gfx950_dense_shapes_compute_the_product_in_the_cdna4_layout() {
    for (seed, case) in CASES.iter().enumerate() {
        check(
            case,
            &case.words,
            case.text,
            Modifiers::default(),
            100 + seed as u64,
        );
    }
    assert_eq!(CASES.len(), 6);
}
