//! `s_bitset0_b32`/`_b64` and `s_bitset1_b32`/`_b64` clear or set bit
//! `S0[4:0]` (`S0[5:0]` for the 64-bit forms) of their destination and
//! leave the rest (CDNA3 and RDNA3 ISA guides, S_BITSET0_B32: "D0.u32[S0.u32[4
//! : 0]] = 1'0U"); SCC is unchanged. IREE's sine, cosine and batch matmul
//! kernels use them. Words from `llvm-mc-19 --arch=amdgcn
//! --mcpu=gfx942|gfx1100 -show-encoding` of the text in the comments,
//! which the disassembler must print.

mod handmade;

use amdgpu_isa::{Chip, Program, disassemble};
use handmade::per_lane;

/// (text, gfx9 words, gfx11 words) of the instructions under test.
const BITSET: [(&str, u32, u32); 5] = [
    ("s_bitset0_b32 s10, 3", 0xbe8a1883, 0xbe8a1083),
    ("s_bitset1_b32 s10, s14", 0xbe8a1a0e, 0xbe8a120e),
    ("s_bitset0_b32 s10, 0", 0xbe8a1880, 0xbe8a1080),
    ("s_bitset1_b64 s[12:13], s14", 0xbe8c1b0e, 0xbe8c130e),
    ("s_bitset0_b64 s[12:13], 4", 0xbe8c1984, 0xbe8c1184),
];

fn code(chip: Chip, b32: bool) -> Vec<u32> {
    let pick = |i: usize| {
        if chip == Chip::Gfx1100 {
            BITSET[i].2
        } else {
            BITSET[i].1
        }
    };
    let mut words = vec![
        0xbe8e00a3, // s_mov_b32 s14, 35
    ];
    if b32 {
        words.extend([0xbe8a00ff, 0xff]); // s_mov_b32 s10, 0xff
        words.extend([pick(0), pick(1), pick(2)]);
        words.extend([0x7e0c020a]); // v_mov_b32_e32 v6, s10
    } else {
        words.extend([0xbe8c00c1, 0xbe8d0080]); // s_mov_b32 s12, -1; s_mov_b32 s13, 0
        words.extend([pick(3), pick(4)]);
        words.extend([0x7e0c020c, 0x7e0e020d]); // v_mov_b32_e32 v6, s12; v7, s13
    }
    words
}

#[test]
fn bitset_clears_and_sets_one_bit() {
    for chip in [Chip::Gfx90a, Chip::Gfx942, Chip::Gfx1100] {
        // 0xff, bit 3 cleared (0xf7), bit 35 & 31 = 3 set (0xff), bit 0
        // cleared.
        let got = per_lane(chip, &code(chip, true), &[&[0]]);
        assert_eq!(got, [0xfe], "{chip:?} b32");
        // s[12:13] = 0x00000000_ffffffff, bit 35 set, bit 4 cleared.
        let got = per_lane(chip, &code(chip, false), &[&[0]]);
        assert_eq!(got, [0x0000_0008_ffff_ffef], "{chip:?} b64");
    }
}

#[test]
fn bitset_prints_as_llvm_does() {
    for chip in [Chip::Gfx942, Chip::Gfx1100] {
        for (text, gfx9, gfx11) in BITSET {
            let word = if chip == Chip::Gfx1100 { gfx11 } else { gfx9 };
            let program = Program::decode(chip, &handmade::bytes(&[word])).unwrap();
            let inst = program.instructions().first().unwrap();
            assert_eq!(disassemble(inst, chip), text, "{chip:?}");
        }
    }
}
