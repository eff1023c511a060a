//! What the MFMA tests share (the sparse `v_smfmac_*` have their own,
//! tests/smfmac.rs, which borrows the helpers): every gfx90a and gfx942 `v_mfma_*` (not the
//! sparse `v_smfmac_*`) with the layout AMD's matrix instruction calculator
//! prints for it, a hand-assembled kernel that loads A, B and C by that
//! layout, runs the instruction and stores D, and the expected D from a
//! plain matrix product over the logical matrices.
//!
//! The oracle is independent of the interpreter: each case's `layout` is
//! the calculator's own text, copied verbatim from
//! `python3 matrix_calculator.py --architecture cdna2|cdna3 --instruction
//! NAME --detail-instruction` ("Matrix element to register mapping with no
//! modifiers": A's GPR and lane, B's, C/D's;
//! <https://github.com/ROCm/amd_matrix_instruction_calculator>, commit
//! 2ef9189), and evaluated here by a small expression reader; the
//! interpreter uses the calculator's general rule instead
//! (`isa/src/exec/mfma.rs`). The modifiers' oracle is the calculator's
//! `_get_cbsz_abid_transformed_block` and `_get_blgp_transformed_lane`,
//! transcribed below. The words are `llvm-mc-19 --arch=amdgcn
//! --mcpu=gfx90a|gfx942 -show-encoding` of `text`, which is also what the
//! interpreter's disassembler must print.
//!
//! Inputs are chosen so that every product and every sum is exact in f64
//! (small dyadic values; fp8 and bf8 codes of a bounded exponent range), so
//! the expected D does not depend on the order of accumulation: C plus the
//! exact sum, rounded once to f32 (f64 and i32 outputs: exact, i32
//! wrapping).

#![allow(dead_code)]

use crate::handmade;
use amdgpu_isa::{Chip, Program, Regions, disassemble};

/// An element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum T {
    F64,
    F32,
    Xf32,
    F16,
    Bf16,
    I8,
    Fp8,
    Bf8,
    /// gfx950's fp8: OCP's E4M3FN.
    OcpFp8,
    /// gfx950's bf8: OCP's E5M2.
    OcpBf8,
}

impl T {
    pub fn bits(self) -> u32 {
        match self {
            T::F64 => 64,
            T::F32 | T::Xf32 => 32,
            T::F16 | T::Bf16 => 16,
            T::I8 | T::Fp8 | T::Bf8 | T::OcpFp8 | T::OcpBf8 => 8,
        }
    }
}

/// One instruction as the calculator describes it.
pub struct Case {
    pub chip: Chip,
    /// What LLVM prints (and the interpreter's disassembler must).
    pub text: &'static str,
    pub words: [u32; 2],
    /// M, N, K, blocks.
    pub mnk_blocks: [usize; 4],
    /// A's and B's element types.
    pub types: [T; 2],
    /// Registers per lane of A, B, C (and D).
    pub regs: [usize; 3],
    /// The calculator's formulas: A GPR, A lane, B GPR, B lane, C/D GPR,
    /// C/D lane.
    pub layout: [&'static str; 6],
    /// One block of f32 or f16 inputs: ran before the general layout.
    pub ran_before: bool,
}

/// A, B, C and D live in v[8:], v[12:], v[32:] and v[64:].
pub const CASES: &[Case] = &[
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_16x16x16bf16_1k v[64:67], v[8:9], v[12:13], v[32:35]",
        words: [0xd3e70040, 0x04821908],
        mnk_blocks: [16, 16, 16, 1],
        types: [T::Bf16, T::Bf16],
        regs: [2, 2, 4],
        layout: [
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * floor(k / 4) + i",
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * floor(k / 4) + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_16x16x16f16 v[64:67], v[8:9], v[12:13], v[32:35]",
        words: [0xd3cd0040, 0x04821908],
        mnk_blocks: [16, 16, 16, 1],
        types: [T::F16, T::F16],
        regs: [2, 2, 4],
        layout: [
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * floor(k / 4) + i",
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * floor(k / 4) + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: true,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_16x16x1f32 v[64:79], v8, v12, v[32:47]",
        words: [0xd3c10040, 0x04821908],
        mnk_blocks: [16, 16, 1, 4],
        types: [T::F32, T::F32],
        regs: [1, 1, 16],
        layout: [
            "0",
            "16 * block + i",
            "0",
            "16 * block + j",
            "4 * block + (i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_16x16x2bf16 v[64:79], v8, v12, v[32:47]",
        words: [0xd3e90040, 0x04821908],
        mnk_blocks: [16, 16, 2, 4],
        types: [T::Bf16, T::Bf16],
        regs: [1, 1, 16],
        layout: [
            "0.[16*k+15 : 16*k]",
            "16 * block + i",
            "0.[16*k+15 : 16*k]",
            "16 * block + j",
            "4 * block + (i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_16x16x4bf16_1k v[64:79], v[8:9], v[12:13], v[32:47]",
        words: [0xd3e40040, 0x04821908],
        mnk_blocks: [16, 16, 4, 4],
        types: [T::Bf16, T::Bf16],
        regs: [2, 2, 16],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * block + i",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * block + j",
            "4 * block + (i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_16x16x4f16 v[64:79], v[8:9], v[12:13], v[32:47]",
        words: [0xd3c90040, 0x04821908],
        mnk_blocks: [16, 16, 4, 4],
        types: [T::F16, T::F16],
        regs: [2, 2, 16],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * block + i",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * block + j",
            "4 * block + (i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_16x16x4f32 v[64:67], v8, v12, v[32:35]",
        words: [0xd3c50040, 0x04821908],
        mnk_blocks: [16, 16, 4, 1],
        types: [T::F32, T::F32],
        regs: [1, 1, 4],
        layout: [
            "0",
            "16 * k + i",
            "0",
            "16 * k + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: true,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_16x16x8bf16 v[64:67], v8, v12, v[32:35]",
        words: [0xd3ed0040, 0x04821908],
        mnk_blocks: [16, 16, 8, 1],
        types: [T::Bf16, T::Bf16],
        regs: [1, 1, 4],
        layout: [
            "0.[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * floor(k / 2) + i",
            "0.[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * floor(k / 2) + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_32x32x1f32 v[64:95], v8, v12, v[32:63]",
        words: [0xd3c00040, 0x04821908],
        mnk_blocks: [32, 32, 1, 2],
        types: [T::F32, T::F32],
        regs: [1, 1, 32],
        layout: [
            "0",
            "32 * block + i",
            "0",
            "32 * block + j",
            "16 * block + 4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_32x32x2bf16 v[64:95], v8, v12, v[32:63]",
        words: [0xd3e80040, 0x04821908],
        mnk_blocks: [32, 32, 2, 2],
        types: [T::Bf16, T::Bf16],
        regs: [1, 1, 32],
        layout: [
            "0.[16*k+15 : 16*k]",
            "32 * block + i",
            "0.[16*k+15 : 16*k]",
            "32 * block + j",
            "16 * block + 4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_32x32x2f32 v[64:79], v8, v12, v[32:47]",
        words: [0xd3c40040, 0x04821908],
        mnk_blocks: [32, 32, 2, 1],
        types: [T::F32, T::F32],
        regs: [1, 1, 16],
        layout: [
            "0",
            "32 * k + i",
            "0",
            "32 * k + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: true,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_32x32x4bf16 v[64:79], v8, v12, v[32:47]",
        words: [0xd3ec0040, 0x04821908],
        mnk_blocks: [32, 32, 4, 1],
        types: [T::Bf16, T::Bf16],
        regs: [1, 1, 16],
        layout: [
            "0.[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * floor(k / 2) + i",
            "0.[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * floor(k / 2) + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_32x32x4bf16_1k v[64:95], v[8:9], v[12:13], v[32:63]",
        words: [0xd3e30040, 0x04821908],
        mnk_blocks: [32, 32, 4, 2],
        types: [T::Bf16, T::Bf16],
        regs: [2, 2, 32],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * block + i",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * block + j",
            "16 * block + 4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_32x32x4f16 v[64:95], v[8:9], v[12:13], v[32:63]",
        words: [0xd3c80040, 0x04821908],
        mnk_blocks: [32, 32, 4, 2],
        types: [T::F16, T::F16],
        regs: [2, 2, 32],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * block + i",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * block + j",
            "16 * block + 4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_32x32x8bf16_1k v[64:79], v[8:9], v[12:13], v[32:47]",
        words: [0xd3e60040, 0x04821908],
        mnk_blocks: [32, 32, 8, 1],
        types: [T::Bf16, T::Bf16],
        regs: [2, 2, 16],
        layout: [
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * floor(k / 4) + i",
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * floor(k / 4) + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_32x32x8f16 v[64:79], v[8:9], v[12:13], v[32:47]",
        words: [0xd3cc0040, 0x04821908],
        mnk_blocks: [32, 32, 8, 1],
        types: [T::F16, T::F16],
        regs: [2, 2, 16],
        layout: [
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * floor(k / 4) + i",
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * floor(k / 4) + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: true,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_4x4x1f32 v[64:67], v8, v12, v[32:35]",
        words: [0xd3c20040, 0x04821908],
        mnk_blocks: [4, 4, 1, 16],
        types: [T::F32, T::F32],
        regs: [1, 1, 4],
        layout: [
            "0",
            "4 * block + i",
            "0",
            "4 * block + j",
            "i",
            "4 * block + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_4x4x2bf16 v[64:67], v8, v12, v[32:35]",
        words: [0xd3eb0040, 0x04821908],
        mnk_blocks: [4, 4, 2, 16],
        types: [T::Bf16, T::Bf16],
        regs: [1, 1, 4],
        layout: [
            "0.[16*k+15 : 16*k]",
            "4 * block + i",
            "0.[16*k+15 : 16*k]",
            "4 * block + j",
            "i",
            "4 * block + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_4x4x4bf16_1k v[64:67], v[8:9], v[12:13], v[32:35]",
        words: [0xd3e50040, 0x04821908],
        mnk_blocks: [4, 4, 4, 16],
        types: [T::Bf16, T::Bf16],
        regs: [2, 2, 4],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "4 * block + i",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "4 * block + j",
            "i",
            "4 * block + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f32_4x4x4f16 v[64:67], v[8:9], v[12:13], v[32:35]",
        words: [0xd3ca0040, 0x04821908],
        mnk_blocks: [4, 4, 4, 16],
        types: [T::F16, T::F16],
        regs: [2, 2, 4],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "4 * block + i",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "4 * block + j",
            "i",
            "4 * block + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f64_16x16x4f64 v[64:71], v[8:9], v[12:13], v[32:39]",
        words: [0xd3ee0040, 0x04821908],
        mnk_blocks: [16, 16, 4, 1],
        types: [T::F64, T::F64],
        regs: [2, 2, 8],
        layout: [
            "[1:0]",
            "16 * k + i",
            "[1:0]",
            "16 * k + j",
            "[2*floor(i / 4)+1 : 2*floor(i / 4)]",
            "16 * (i % 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_f64_4x4x4f64 v[64:65], v[8:9], v[12:13], v[32:33]",
        words: [0xd3ef0040, 0x04821908],
        mnk_blocks: [4, 4, 4, 4],
        types: [T::F64, T::F64],
        regs: [2, 2, 2],
        layout: [
            "[1:0]",
            "4 * block + 16 * k + i",
            "[1:0]",
            "4 * block + 16 * k + j",
            "[1:0]",
            "16 * (i % 4) + 4 * block + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_i32_16x16x16i8 v[64:67], v8, v12, v[32:35]",
        words: [0xd3d50040, 0x04821908],
        mnk_blocks: [16, 16, 16, 1],
        types: [T::I8, T::I8],
        regs: [1, 1, 4],
        layout: [
            "0.[8*(k % 4)+7 : 8*(k % 4)]",
            "16 * floor(k / 4) + i",
            "0.[8*(k % 4)+7 : 8*(k % 4)]",
            "16 * floor(k / 4) + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_i32_16x16x4i8 v[64:79], v8, v12, v[32:47]",
        words: [0xd3d10040, 0x04821908],
        mnk_blocks: [16, 16, 4, 4],
        types: [T::I8, T::I8],
        regs: [1, 1, 16],
        layout: [
            "0.[8*k+7 : 8*k]",
            "16 * block + i",
            "0.[8*k+7 : 8*k]",
            "16 * block + j",
            "4 * block + (i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_i32_32x32x4i8 v[64:95], v8, v12, v[32:63]",
        words: [0xd3d00040, 0x04821908],
        mnk_blocks: [32, 32, 4, 2],
        types: [T::I8, T::I8],
        regs: [1, 1, 32],
        layout: [
            "0.[8*k+7 : 8*k]",
            "32 * block + i",
            "0.[8*k+7 : 8*k]",
            "32 * block + j",
            "16 * block + 4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_i32_32x32x8i8 v[64:79], v8, v12, v[32:47]",
        words: [0xd3d40040, 0x04821908],
        mnk_blocks: [32, 32, 8, 1],
        types: [T::I8, T::I8],
        regs: [1, 1, 16],
        layout: [
            "0.[8*(k % 4)+7 : 8*(k % 4)]",
            "32 * floor(k / 4) + i",
            "0.[8*(k % 4)+7 : 8*(k % 4)]",
            "32 * floor(k / 4) + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx90a,
        text: "v_mfma_i32_4x4x4i8 v[64:67], v8, v12, v[32:35]",
        words: [0xd3d20040, 0x04821908],
        mnk_blocks: [4, 4, 4, 16],
        types: [T::I8, T::I8],
        regs: [1, 1, 4],
        layout: [
            "0.[8*k+7 : 8*k]",
            "4 * block + i",
            "0.[8*k+7 : 8*k]",
            "4 * block + j",
            "i",
            "4 * block + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_16x16x16_bf16 v[64:67], v[8:9], v[12:13], v[32:35]",
        words: [0xd3e10040, 0x04821908],
        mnk_blocks: [16, 16, 16, 1],
        types: [T::Bf16, T::Bf16],
        regs: [2, 2, 4],
        layout: [
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * floor(k / 4) + i",
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * floor(k / 4) + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_16x16x16_f16 v[64:67], v[8:9], v[12:13], v[32:35]",
        words: [0xd3cd0040, 0x04821908],
        mnk_blocks: [16, 16, 16, 1],
        types: [T::F16, T::F16],
        regs: [2, 2, 4],
        layout: [
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * floor(k / 4) + i",
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * floor(k / 4) + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: true,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_16x16x1_4b_f32 v[64:79], v8, v12, v[32:47]",
        words: [0xd3c10040, 0x04821908],
        mnk_blocks: [16, 16, 1, 4],
        types: [T::F32, T::F32],
        regs: [1, 1, 16],
        layout: [
            "0",
            "16 * block + i",
            "0",
            "16 * block + j",
            "4 * block + (i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_16x16x32_bf8_bf8 v[64:67], v[8:9], v[12:13], v[32:35]",
        words: [0xd3f00040, 0x04821908],
        mnk_blocks: [16, 16, 32, 1],
        types: [T::Bf8, T::Bf8],
        regs: [2, 2, 4],
        layout: [
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "16 * floor(k / 8) + i",
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "16 * floor(k / 8) + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_16x16x32_bf8_fp8 v[64:67], v[8:9], v[12:13], v[32:35]",
        words: [0xd3f10040, 0x04821908],
        mnk_blocks: [16, 16, 32, 1],
        types: [T::Bf8, T::Fp8],
        regs: [2, 2, 4],
        layout: [
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "16 * floor(k / 8) + i",
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "16 * floor(k / 8) + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_16x16x32_fp8_bf8 v[64:67], v[8:9], v[12:13], v[32:35]",
        words: [0xd3f20040, 0x04821908],
        mnk_blocks: [16, 16, 32, 1],
        types: [T::Fp8, T::Bf8],
        regs: [2, 2, 4],
        layout: [
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "16 * floor(k / 8) + i",
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "16 * floor(k / 8) + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_16x16x32_fp8_fp8 v[64:67], v[8:9], v[12:13], v[32:35]",
        words: [0xd3f30040, 0x04821908],
        mnk_blocks: [16, 16, 32, 1],
        types: [T::Fp8, T::Fp8],
        regs: [2, 2, 4],
        layout: [
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "16 * floor(k / 8) + i",
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "16 * floor(k / 8) + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_16x16x4_4b_bf16 v[64:79], v[8:9], v[12:13], v[32:47]",
        words: [0xd3de0040, 0x04821908],
        mnk_blocks: [16, 16, 4, 4],
        types: [T::Bf16, T::Bf16],
        regs: [2, 2, 16],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * block + i",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * block + j",
            "4 * block + (i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_16x16x4_4b_f16 v[64:79], v[8:9], v[12:13], v[32:47]",
        words: [0xd3c90040, 0x04821908],
        mnk_blocks: [16, 16, 4, 4],
        types: [T::F16, T::F16],
        regs: [2, 2, 16],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * block + i",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "16 * block + j",
            "4 * block + (i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_16x16x4_f32 v[64:67], v8, v12, v[32:35]",
        words: [0xd3c50040, 0x04821908],
        mnk_blocks: [16, 16, 4, 1],
        types: [T::F32, T::F32],
        regs: [1, 1, 4],
        layout: [
            "0",
            "16 * k + i",
            "0",
            "16 * k + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: true,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_16x16x8_xf32 v[64:67], v[8:9], v[12:13], v[32:35]",
        words: [0xd3be0040, 0x04821908],
        mnk_blocks: [16, 16, 8, 1],
        types: [T::Xf32, T::Xf32],
        regs: [2, 2, 4],
        layout: [
            "(k % 2)",
            "16 * floor(k / 2) + i",
            "(k % 2)",
            "16 * floor(k / 2) + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_32x32x16_bf8_bf8 v[64:79], v[8:9], v[12:13], v[32:47]",
        words: [0xd3f40040, 0x04821908],
        mnk_blocks: [32, 32, 16, 1],
        types: [T::Bf8, T::Bf8],
        regs: [2, 2, 16],
        layout: [
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "32 * floor(k / 8) + i",
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "32 * floor(k / 8) + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_32x32x16_bf8_fp8 v[64:79], v[8:9], v[12:13], v[32:47]",
        words: [0xd3f50040, 0x04821908],
        mnk_blocks: [32, 32, 16, 1],
        types: [T::Bf8, T::Fp8],
        regs: [2, 2, 16],
        layout: [
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "32 * floor(k / 8) + i",
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "32 * floor(k / 8) + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_32x32x16_fp8_bf8 v[64:79], v[8:9], v[12:13], v[32:47]",
        words: [0xd3f60040, 0x04821908],
        mnk_blocks: [32, 32, 16, 1],
        types: [T::Fp8, T::Bf8],
        regs: [2, 2, 16],
        layout: [
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "32 * floor(k / 8) + i",
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "32 * floor(k / 8) + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_32x32x16_fp8_fp8 v[64:79], v[8:9], v[12:13], v[32:47]",
        words: [0xd3f70040, 0x04821908],
        mnk_blocks: [32, 32, 16, 1],
        types: [T::Fp8, T::Fp8],
        regs: [2, 2, 16],
        layout: [
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "32 * floor(k / 8) + i",
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "32 * floor(k / 8) + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_32x32x1_2b_f32 v[64:95], v8, v12, v[32:63]",
        words: [0xd3c00040, 0x04821908],
        mnk_blocks: [32, 32, 1, 2],
        types: [T::F32, T::F32],
        regs: [1, 1, 32],
        layout: [
            "0",
            "32 * block + i",
            "0",
            "32 * block + j",
            "16 * block + 4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_32x32x2_f32 v[64:79], v8, v12, v[32:47]",
        words: [0xd3c40040, 0x04821908],
        mnk_blocks: [32, 32, 2, 1],
        types: [T::F32, T::F32],
        regs: [1, 1, 16],
        layout: [
            "0",
            "32 * k + i",
            "0",
            "32 * k + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: true,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_32x32x4_2b_bf16 v[64:95], v[8:9], v[12:13], v[32:63]",
        words: [0xd3dd0040, 0x04821908],
        mnk_blocks: [32, 32, 4, 2],
        types: [T::Bf16, T::Bf16],
        regs: [2, 2, 32],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * block + i",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * block + j",
            "16 * block + 4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_32x32x4_2b_f16 v[64:95], v[8:9], v[12:13], v[32:63]",
        words: [0xd3c80040, 0x04821908],
        mnk_blocks: [32, 32, 4, 2],
        types: [T::F16, T::F16],
        regs: [2, 2, 32],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * block + i",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * block + j",
            "16 * block + 4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_32x32x4_xf32 v[64:79], v[8:9], v[12:13], v[32:47]",
        words: [0xd3bf0040, 0x04821908],
        mnk_blocks: [32, 32, 4, 1],
        types: [T::Xf32, T::Xf32],
        regs: [2, 2, 16],
        layout: [
            "(k % 2)",
            "32 * floor(k / 2) + i",
            "(k % 2)",
            "32 * floor(k / 2) + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_32x32x8_bf16 v[64:79], v[8:9], v[12:13], v[32:47]",
        words: [0xd3e00040, 0x04821908],
        mnk_blocks: [32, 32, 8, 1],
        types: [T::Bf16, T::Bf16],
        regs: [2, 2, 16],
        layout: [
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * floor(k / 4) + i",
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * floor(k / 4) + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_32x32x8_f16 v[64:79], v[8:9], v[12:13], v[32:47]",
        words: [0xd3cc0040, 0x04821908],
        mnk_blocks: [32, 32, 8, 1],
        types: [T::F16, T::F16],
        regs: [2, 2, 16],
        layout: [
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * floor(k / 4) + i",
            "(floor(k / 2) % 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "32 * floor(k / 4) + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: true,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_4x4x1_16b_f32 v[64:67], v8, v12, v[32:35]",
        words: [0xd3c20040, 0x04821908],
        mnk_blocks: [4, 4, 1, 16],
        types: [T::F32, T::F32],
        regs: [1, 1, 4],
        layout: [
            "0",
            "4 * block + i",
            "0",
            "4 * block + j",
            "i",
            "4 * block + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_4x4x4_16b_bf16 v[64:67], v[8:9], v[12:13], v[32:35]",
        words: [0xd3df0040, 0x04821908],
        mnk_blocks: [4, 4, 4, 16],
        types: [T::Bf16, T::Bf16],
        regs: [2, 2, 4],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "4 * block + i",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "4 * block + j",
            "i",
            "4 * block + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f32_4x4x4_16b_f16 v[64:67], v[8:9], v[12:13], v[32:35]",
        words: [0xd3ca0040, 0x04821908],
        mnk_blocks: [4, 4, 4, 16],
        types: [T::F16, T::F16],
        regs: [2, 2, 4],
        layout: [
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "4 * block + i",
            "floor(k / 2).[16*(k % 2)+15 : 16*(k % 2)]",
            "4 * block + j",
            "i",
            "4 * block + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f64_16x16x4_f64 v[64:71], v[8:9], v[12:13], v[32:39]",
        words: [0xd3ee0040, 0x04821908],
        mnk_blocks: [16, 16, 4, 1],
        types: [T::F64, T::F64],
        regs: [2, 2, 8],
        layout: [
            "[1:0]",
            "16 * k + i",
            "[1:0]",
            "16 * k + j",
            "[2*floor(i / 4)+1 : 2*floor(i / 4)]",
            "16 * (i % 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_f64_4x4x4_4b_f64 v[64:65], v[8:9], v[12:13], v[32:33]",
        words: [0xd3ef0040, 0x04821908],
        mnk_blocks: [4, 4, 4, 4],
        types: [T::F64, T::F64],
        regs: [2, 2, 2],
        layout: [
            "[1:0]",
            "4 * block + 16 * k + i",
            "[1:0]",
            "4 * block + 16 * k + j",
            "[1:0]",
            "16 * (i % 4) + 4 * block + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_i32_16x16x32_i8 v[64:67], v[8:9], v[12:13], v[32:35]",
        words: [0xd3d70040, 0x04821908],
        mnk_blocks: [16, 16, 32, 1],
        types: [T::I8, T::I8],
        regs: [2, 2, 4],
        layout: [
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "16 * floor(k / 8) + i",
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "16 * floor(k / 8) + j",
            "(i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_i32_16x16x4_4b_i8 v[64:79], v8, v12, v[32:47]",
        words: [0xd3d10040, 0x04821908],
        mnk_blocks: [16, 16, 4, 4],
        types: [T::I8, T::I8],
        regs: [1, 1, 16],
        layout: [
            "0.[8*k+7 : 8*k]",
            "16 * block + i",
            "0.[8*k+7 : 8*k]",
            "16 * block + j",
            "4 * block + (i % 4)",
            "16 * floor(i / 4) + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_i32_32x32x16_i8 v[64:79], v[8:9], v[12:13], v[32:47]",
        words: [0xd3d60040, 0x04821908],
        mnk_blocks: [32, 32, 16, 1],
        types: [T::I8, T::I8],
        regs: [2, 2, 16],
        layout: [
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "32 * floor(k / 8) + i",
            "(floor(k / 4) % 2).[8*(k % 4)+7 : 8*(k % 4)]",
            "32 * floor(k / 8) + j",
            "4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_i32_32x32x4_2b_i8 v[64:95], v8, v12, v[32:63]",
        words: [0xd3d00040, 0x04821908],
        mnk_blocks: [32, 32, 4, 2],
        types: [T::I8, T::I8],
        regs: [1, 1, 32],
        layout: [
            "0.[8*k+7 : 8*k]",
            "32 * block + i",
            "0.[8*k+7 : 8*k]",
            "32 * block + j",
            "16 * block + 4 * floor(i / 8) + (i % 4)",
            "(32 * floor(i / 4)) % 64 + j",
        ],
        ran_before: false,
    },
    Case {
        chip: Chip::Gfx942,
        text: "v_mfma_i32_4x4x4_16b_i8 v[64:67], v8, v12, v[32:35]",
        words: [0xd3d20040, 0x04821908],
        mnk_blocks: [4, 4, 4, 16],
        types: [T::I8, T::I8],
        regs: [1, 1, 4],
        layout: [
            "0.[8*k+7 : 8*k]",
            "4 * block + i",
            "0.[8*k+7 : 8*k]",
            "4 * block + j",
            "i",
            "4 * block + j",
        ],
        ran_before: false,
    },
];

/// Evaluates one of the calculator's integer expressions (`+`, `*`, `/`
/// inside `floor`, `%`, parentheses, `i`, `j`, `k`, `block`).
pub fn eval(text: &str, vars: &[(&str, i64)]) -> i64 {
    let tokens: Vec<String> = {
        let mut out = Vec::new();
        let mut chars = text.chars().peekable();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() {
                chars.next();
            } else if c.is_ascii_alphanumeric() || c == '_' {
                let mut word = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_ascii_alphanumeric() || c == '_' {
                        word.push(c);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push(word);
            } else {
                out.push(c.to_string());
                chars.next();
            }
        }
        out
    };
    let mut at = 0;
    let value = sum(&tokens, &mut at, vars);
    assert_eq!(at, tokens.len(), "unread tail in {text:?}");
    value
}

fn sum(t: &[String], at: &mut usize, vars: &[(&str, i64)]) -> i64 {
    let mut value = product(t, at, vars);
    while *at < t.len() && (t[*at] == "+" || t[*at] == "-") {
        let plus = t[*at] == "+";
        *at += 1;
        let rhs = product(t, at, vars);
        value = if plus { value + rhs } else { value - rhs };
    }
    value
}

fn product(t: &[String], at: &mut usize, vars: &[(&str, i64)]) -> i64 {
    let mut value = atom(t, at, vars);
    while *at < t.len() && matches!(t[*at].as_str(), "*" | "/" | "%") {
        let op = t[*at].clone();
        *at += 1;
        let rhs = atom(t, at, vars);
        value = match op.as_str() {
            "*" => value * rhs,
            "/" => value.div_euclid(rhs),
            _ => value.rem_euclid(rhs),
        };
    }
    value
}

fn atom(t: &[String], at: &mut usize, vars: &[(&str, i64)]) -> i64 {
    let token = t[*at].clone();
    *at += 1;
    if token == "(" || token == "floor" {
        if token == "floor" {
            assert_eq!(t[*at], "(");
            *at += 1;
        }
        let value = sum(t, at, vars);
        assert_eq!(t[*at], ")");
        *at += 1;
        return value;
    }
    if let Ok(n) = token.parse::<i64>() {
        return n;
    }
    vars.iter()
        .find(|(name, _)| *name == token)
        .unwrap_or_else(|| panic!("unknown name {token}"))
        .1
}

/// Where the calculator's GPR text puts an element: first register, low
/// bit, width in bits (`v[1:0]`-style pairs are 64 bits).
pub fn gpr(text: &str, vars: &[(&str, i64)], element_bits: u32) -> (usize, u32, u32) {
    let text = text.trim();
    if let Some(pair) = text.strip_prefix('[') {
        let (hi, lo) = pair.trim_end_matches(']').split_once(':').unwrap();
        let (hi, lo) = (eval(hi, vars), eval(lo, vars));
        assert_eq!(hi, lo + 1, "{text}");
        return (lo as usize, 0, 64);
    }
    if let Some((reg, bits)) = text.split_once(".[") {
        let (hi, lo) = bits.trim_end_matches(']').split_once(':').unwrap();
        let (hi, lo) = (eval(hi, vars), eval(lo, vars));
        assert_eq!((hi - lo + 1) as u32, element_bits, "{text}");
        return (eval(reg, vars) as usize, lo as u32, element_bits);
    }
    (eval(text, vars) as usize, 0, 32)
}

/// The calculator's `_get_cbsz_abid_transformed_block`.
pub fn cbsz_abid_block(block: usize, cbsz: u32, abid: usize) -> usize {
    let receiving = 1usize << cbsz;
    block / receiving * receiving + abid
}

/// The calculator's `_get_blgp_transformed_lane`.
pub fn blgp_lane(lane: usize, blgp: u32) -> usize {
    let mut to = lane;
    if blgp == 1 {
        to = lane % 32;
    } else if blgp == 2 && lane < 32 {
        to = lane + 32;
    } else if blgp == 3 {
        to = (lane + 16) % 64;
    } else if blgp == 4 {
        to %= 16;
    } else if blgp == 5 {
        if lane < 16 {
            to = lane + 16;
        } else if lane >= 48 {
            to = lane - 32;
        } else if lane >= 32 {
            to = lane - 16;
        }
    } else if blgp == 6 {
        if lane >= 48 {
            to = lane - 16;
        } else if lane < 16 {
            to = lane + 32;
        } else if lane < 32 {
            to = lane + 16;
        }
    } else if blgp == 7 {
        to = lane + (3 - lane / 16) * 16;
    }
    to
}

/// A small deterministic generator.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// An integer in [-range, range].
    pub fn int(&mut self, range: i64) -> i64 {
        (self.next() % (2 * range as u64 + 1)) as i64 - range
    }
}

/// An fp8 (E4M3FNUZ, `exponent_bits` 4) or bf8 (E5M2FNUZ, 5) code's
/// value: bias 2^(e-1), no infinities, 0x80 NaN.
pub fn fnuz(code: u8, exponent_bits: i32) -> f64 {
    if code == 0x80 {
        return f64::NAN;
    }
    let mantissa_bits = 7 - exponent_bits;
    let bias = 1 << (exponent_bits - 1);
    let field = ((code & 0x7f) >> mantissa_bits) as i32;
    let mantissa = (code & ((1 << mantissa_bits) - 1)) as f64 / (1 << mantissa_bits) as f64;
    let value = if field == 0 {
        mantissa * 2f64.powi(1 - bias)
    } else {
        (1.0 + mantissa) * 2f64.powi(field - bias)
    };
    if code & 0x80 != 0 { -value } else { value }
}

/// An OCP E4M3FN (`exponent_bits` 4) or E5M2 (5) code's value, from the
/// OCP 8-bit float specification: IEEE's bias 2^(e-1) - 1, a -0; E4M3FN
/// has no infinities and only 0x7f/0xff as NaN, E5M2 has IEEE's
/// infinities and NaNs in exponent field 31.
pub fn ocp(code: u8, exponent_bits: i32) -> f64 {
    let mantissa_bits = 7 - exponent_bits;
    let bias = (1 << (exponent_bits - 1)) - 1;
    let field = ((code & 0x7f) >> mantissa_bits) as i32;
    let fraction = code & ((1 << mantissa_bits) - 1);
    let negative = code & 0x80 != 0;
    let magnitude = match exponent_bits {
        4 if code & 0x7f == 0x7f => f64::NAN,
        5 if field == 31 && fraction != 0 => f64::NAN,
        5 if field == 31 => f64::INFINITY,
        _ => {
            let mantissa = f64::from(fraction) / f64::from(1 << mantissa_bits);
            if field == 0 {
                mantissa * 2f64.powi(1 - bias)
            } else {
                (1.0 + mantissa) * 2f64.powi(field - bias)
            }
        }
    };
    if negative { -magnitude } else { magnitude }
}

/// A random input element: its bits and the value the instruction should
/// compute with.
pub fn element(ty: T, rng: &mut Rng) -> (u64, f64) {
    match ty {
        T::F64 => {
            let v = rng.int(64) as f64 / 16.0;
            (v.to_bits(), v)
        }
        T::F32 => {
            let v = rng.int(64) as f32 / 8.0;
            (u64::from(v.to_bits()), f64::from(v))
        }
        T::Xf32 => {
            // At most 8 significant bits, then junk in the 13 bits xf32
            // drops (truncated: the value stays; rounding would add one
            // unit of xf32's last place for junk of 0x1000 or more).
            let v = rng.int(64) as f32 / 8.0;
            let junk = if v == 0.0 {
                0
            } else {
                rng.next() as u32 & 0x1fff
            };
            (u64::from(v.to_bits() | junk), f64::from(v))
        }
        T::F16 => {
            let v = rng.int(64) as f32 / 8.0;
            (u64::from(f16_bits(v)), f64::from(v))
        }
        T::Bf16 => {
            let v = rng.int(64) as f32 / 8.0;
            (u64::from(v.to_bits() >> 16), f64::from(v))
        }
        T::I8 => {
            let v = rng.next() as u8;
            (u64::from(v), f64::from(v as i8))
        }
        T::Fp8 => {
            let mut code = rng.next() as u8;
            if code == 0x80 {
                code = 0;
            }
            (u64::from(code), fnuz(code, 4))
        }
        T::Bf8 => {
            // Exponent field 8..=23 (2^-8 to about 2^8), sums exact in f64.
            let code = (rng.next() as u8 & 0x83) | ((8 + (rng.next() % 16) as u8) << 2);
            (u64::from(code), fnuz(code, 5))
        }
        T::OcpFp8 => {
            // Any code but the NaNs.
            let code = rng.next() as u8;
            let code = if code & 0x7f == 0x7f {
                code & 0x80
            } else {
                code
            };
            (u64::from(code), ocp(code, 4))
        }
        T::OcpBf8 => {
            // Exponent field 8..=23 (2^-7 to about 2^9), as for bf8.
            let code = (rng.next() as u8 & 0x83) | ((8 + (rng.next() % 16) as u8) << 2);
            (u64::from(code), ocp(code, 5))
        }
    }
}

/// An f16's bits for a value exactly representable as a normal f16 (or
/// zero).
pub fn f16_bits(v: f32) -> u16 {
    if v == 0.0 {
        return 0;
    }
    let bits = v.to_bits();
    let sign = (bits >> 16) & 0x8000;
    let exponent = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    assert!((1..31).contains(&exponent));
    assert_eq!(bits & 0x1fff, 0);
    (sign | (exponent as u32) << 10 | (bits >> 13) & 0x3ff) as u16
}

/// Where each matrix's registers sit in memory: lane `l`'s register `r` at
/// dword `32 l + r`.
const A_AT: u64 = 0x10_0000;
const B_AT: u64 = 0x20_0000;
const C_AT: u64 = 0x30_0000;
const D_AT: u64 = 0x40_0000;
const LANE_DWORDS: usize = 32;

/// `global_load_dword v{reg}, v1, s[{pair}:{pair+1}] offset:{4 index}`
/// (`[0x04,0x80,0x50,0xdc,0x01,0x00,0x02,0x09]` is `global_load_dword v9,
/// v1, s[2:3] offset:4` on gfx90a and gfx942).
pub fn load(reg: usize, pair: u32, index: usize) -> [u32; 2] {
    [
        0xdc50_8000 | (4 * index as u32),
        (reg as u32) << 24 | pair << 16 | 1,
    ]
}

/// `global_store_dword v1, v{reg}, s[6:7] offset:{4 index}`
/// (`[0x08,0x80,0x70,0xdc,0x01,0x41,0x06,0x00]` is `global_store_dword v1,
/// v65, s[6:7] offset:8`).
pub fn store(reg: usize, index: usize) -> [u32; 2] {
    [
        0xdc70_8000 | (4 * index as u32),
        6 << 16 | (reg as u32) << 8 | 1,
    ]
}

/// The kernel: lane offsets, A, B and C loaded, `mfma`, D stored.
pub fn kernel(case: &Case, mfma: &[u32]) -> Vec<u32> {
    let mut code = vec![0x2402_0087]; // v_lshlrev_b32_e32 v1, 7, v0
    let [ra, rb, rc] = case.regs;
    for r in 0..ra {
        code.extend(load(8 + r, 0, r));
    }
    for r in 0..rb {
        code.extend(load(12 + r, 2, r));
    }
    for r in 0..rc {
        code.extend(load(32 + r, 4, r));
    }
    code.push(0xbf8c_0f70); // s_waitcnt vmcnt(0)
    code.extend(mfma);
    for r in 0..rc {
        code.extend(store(64 + r, r));
    }
    code.push(0xbf81_0000); // s_endpgm
    code
}

/// Places `bits` (an element of `width` bits) at register `reg`, bit `lo`,
/// lane `lane` of a register image.
pub fn put(image: &mut [u32], reg: usize, lo: u32, width: u32, lane: usize, bits: u64) {
    let at = lane * LANE_DWORDS + reg;
    match width {
        64 => {
            image[at] = bits as u32;
            image[at + 1] = (bits >> 32) as u32;
        }
        32 => image[at] = bits as u32,
        _ => {
            let mask = ((1u32 << width) - 1) << lo;
            assert_eq!(image[at] & mask, 0, "two elements in one place");
            image[at] |= (bits as u32) << lo & mask;
        }
    }
}

/// The broadcast controls a run applies: CBSZ, ABID, BLGP; or, on gfx942's
/// f64 forms, negations of A, B and C.
#[derive(Clone, Copy, Default)]
pub struct Modifiers {
    pub cbsz: u32,
    pub abid: usize,
    pub blgp: u32,
    pub neg: [bool; 3],
}

/// Runs `case`'s instruction (or `words`, the same instruction with
/// modifiers, printed as `text`) on random inputs and checks D element by
/// element against the plain product, and the disassembly against `text`.
pub fn check(case: &Case, words: &[u32], text: &str, modifiers: Modifiers, seed: u64) {
    let [m, n, k, blocks] = case.mnk_blocks;
    let [ta, tb] = case.types;
    let out = if ta == T::F64 {
        T::F64
    } else if ta == T::I8 {
        T::I8
    } else {
        T::F32
    };
    let mut rng = Rng::new(seed);
    let var = |i: usize, j: usize, kk: usize, b: usize| {
        [
            ("i", i as i64),
            ("j", j as i64),
            ("k", kk as i64),
            ("block", b as i64),
        ]
    };
    let image = || vec![0u32; 64 * LANE_DWORDS];
    let (mut a_img, mut b_img, mut c_img) = (image(), image(), image());
    // Logical matrices, per block.
    let mut a = vec![0.0; blocks * m * k];
    let mut b = vec![0.0; blocks * k * n];
    let mut c = vec![0.0; blocks * m * n];
    let mut c_int = vec![0i32; blocks * m * n];
    for blk in 0..blocks {
        for i in 0..m {
            for kk in 0..k {
                let (bits, value) = element(ta, &mut rng);
                let v = var(i, 0, kk, blk);
                let (reg, lo, width) = gpr(case.layout[0], &v, ta.bits());
                let lane = eval(case.layout[1], &v) as usize;
                put(&mut a_img, reg, lo, width, lane, bits);
                a[(blk * m + i) * k + kk] = value;
            }
        }
        for kk in 0..k {
            for j in 0..n {
                let (bits, value) = element(tb, &mut rng);
                let v = var(0, j, kk, blk);
                let (reg, lo, width) = gpr(case.layout[2], &v, tb.bits());
                let lane = eval(case.layout[3], &v) as usize;
                put(&mut b_img, reg, lo, width, lane, bits);
                b[(blk * k + kk) * n + j] = value;
            }
        }
        for i in 0..m {
            for j in 0..n {
                let v = var(i, j, 0, blk);
                let (reg, lo, width) = gpr(case.layout[4], &v, out.bits().max(32));
                let lane = eval(case.layout[5], &v) as usize;
                let at = (blk * m + i) * n + j;
                let bits = match out {
                    T::F64 => {
                        c[at] = rng.int(256) as f64 / 4.0;
                        c[at].to_bits()
                    }
                    T::I8 => {
                        // Near the ends of i32, so that sums wrap.
                        let near = (rng.next() % 300_000) as i32;
                        c_int[at] = if rng.next().is_multiple_of(2) {
                            i32::MAX - near
                        } else {
                            i32::MIN + near
                        };
                        u64::from(c_int[at] as u32)
                    }
                    _ => {
                        c[at] = rng.int(256) as f64 / 4.0;
                        u64::from((c[at] as f32).to_bits())
                    }
                };
                put(&mut c_img, reg, lo, width, lane, bits);
            }
        }
    }
    // B as the instruction sees it under BLGP: the B register image read
    // at the swizzled lane, mapped back to the logical element there.
    let mut b_where = std::collections::HashMap::new();
    for blk in 0..blocks {
        for kk in 0..k {
            for j in 0..n {
                let v = var(0, j, kk, blk);
                let (reg, lo, _) = gpr(case.layout[2], &v, tb.bits());
                let lane = eval(case.layout[3], &v) as usize;
                b_where.insert((reg, lo, lane), b[(blk * k + kk) * n + j]);
            }
        }
    }
    let b_seen = |blk: usize, kk: usize, j: usize| -> f64 {
        let v = var(0, j, kk, blk);
        let (reg, lo, _) = gpr(case.layout[2], &v, tb.bits());
        let lane = blgp_lane(eval(case.layout[3], &v) as usize, modifiers.blgp);
        *b_where
            .get(&(reg, lo, lane))
            .unwrap_or_else(|| panic!("no B element at v{reg}.[{lo}] lane {lane}"))
    };

    let code = kernel(case, words);
    let program = Program::decode(case.chip, &handmade::bytes(&code))
        .unwrap_or_else(|e| panic!("{:?} {text}: {e}", case.chip));
    let printed = program
        .instructions()
        .iter()
        .find(|inst| inst.mnemonic.starts_with("v_mfma"))
        .map(|inst| disassemble(inst, case.chip))
        .unwrap();
    assert_eq!(printed, text, "{:?}: the disassembly", case.chip);
    let to_bytes = |img: &[u32]| {
        img.iter()
            .flat_map(|w| w.to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let mut memory = Regions::new(vec![
        (A_AT, to_bytes(&a_img)),
        (B_AT, to_bytes(&b_img)),
        (C_AT, to_bytes(&c_img)),
        (D_AT, vec![0; 64 * LANE_DWORDS * 4]),
    ]);
    let mut user = Vec::new();
    for at in [A_AT, B_AT, C_AT, D_AT] {
        user.extend([at as u32, (at >> 32) as u32]);
    }
    handmade::run(&program, &user, 64, &mut memory)
        .unwrap_or_else(|e| panic!("{:?} {text}: {e}", case.chip));
    let d: Vec<u32> = memory
        .bytes(D_AT)
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let mut checked = 0;
    let sign = |negate: bool| if negate { -1.0 } else { 1.0 };
    for blk in 0..blocks {
        let a_blk = cbsz_abid_block(blk, modifiers.cbsz, modifiers.abid);
        for i in 0..m {
            for j in 0..n {
                let v = var(i, j, 0, blk);
                let (reg, _, _) = gpr(case.layout[4], &v, out.bits().max(32));
                let lane = eval(case.layout[5], &v) as usize;
                let at = lane * LANE_DWORDS + reg;
                let cell = (blk * m + i) * n + j;
                let (got, want) = match out {
                    T::I8 => {
                        let mut acc = c_int[cell];
                        for kk in 0..k {
                            let p = a[(a_blk * m + i) * k + kk] * b_seen(blk, kk, j);
                            acc = acc.wrapping_add(p as i32);
                        }
                        (u64::from(d[at]), u64::from(acc as u32))
                    }
                    T::F64 => {
                        let mut acc = sign(modifiers.neg[2]) * c[cell];
                        for kk in 0..k {
                            acc += sign(modifiers.neg[0])
                                * a[(a_blk * m + i) * k + kk]
                                * sign(modifiers.neg[1])
                                * b_seen(blk, kk, j);
                        }
                        checked += 1;
                        (u64::from(d[at]) | u64::from(d[at + 1]) << 32, acc.to_bits())
                    }
                    _ => {
                        let mut acc = c[cell];
                        for kk in 0..k {
                            acc += a[(a_blk * m + i) * k + kk] * b_seen(blk, kk, j);
                        }
                        (u64::from(d[at]), u64::from((acc as f32).to_bits()))
                    }
                };
                checked += 1;
                assert_eq!(
                    got,
                    want,
                    "{:?} {text}: D[{i}][{j}] of block {blk} (v{} lane {lane})",
                    case.chip,
                    64 + reg
                );
            }
        }
    }
    // Every dword of D was an element.
    assert_eq!(checked, 64 * case.regs[2], "{:?} {text}", case.chip);
}

/// Checks every case `pick` selects, without modifiers.
pub fn check_all(pick: impl Fn(&Case) -> bool) -> usize {
    let mut count = 0;
    for (seed, case) in CASES.iter().enumerate() {
        if pick(case) {
            check(
                case,
                &case.words,
                case.text,
                Modifiers::default(),
                seed as u64 + 1,
            );
            count += 1;
        }
    }
    count
}

/// The case of `mnemonic` on `chip`.
pub fn case(chip: Chip, mnemonic: &str) -> &'static Case {
    CASES
        .iter()
        .find(|c| c.chip == chip && c.text.split(' ').next() == Some(mnemonic))
        .unwrap_or_else(|| panic!("no case {mnemonic}"))
}
