//! What the tests of the 16-bit VOP3 operations share: one instruction run
//! per lane over inputs in v2, v3, v4, with v6 (the destination) first
//! set to v5, so that a 16-bit result shows which half it wrote and what
//! became of the other; and its disassembly, which must be the text
//! `llvm-mc-19 --arch=amdgcn --mcpu=CHIP -show-encoding` printed for the
//! words.

#![allow(dead_code)]

#[path = "../handmade/mod.rs"]
pub mod handmade;

use amdgpu_isa::{Chip, Program, disassemble};

/// `v_mov_b32_e32 v6, v5`, the same word on GFX9 and GFX11.
const MOV_V6_V5: u32 = 0x7e0c_0305;

/// Runs `words` (one instruction, `text`) on `chip` per lane over
/// `inputs` (v2, v3, v4, v5), v6 starting as v5, and checks v6 of each
/// lane against `want` and the instruction's disassembly against `text`.
pub fn check(chip: Chip, text: &str, words: &[u32], inputs: [&[u32]; 4], want: &[u32]) {
    let code: Vec<u32> = [&[MOV_V6_V5][..], words].concat();
    let got: Vec<u32> = handmade::per_lane(chip, &code, &inputs)
        .into_iter()
        .map(|q| q as u32)
        .collect();
    let hex = |v: &[u32]| v.iter().map(|x| format!("{x:#010x}")).collect::<Vec<_>>();
    assert_eq!(hex(&got), hex(want), "{chip:?}: {text}");
    let program = Program::decode(chip, &handmade::bytes(words)).unwrap();
    let inst = program.instructions().first().unwrap();
    assert_eq!(disassemble(inst, chip), text, "{chip:?}");
}

/// Runs scalar code (ending with `v_mov_b32_e32 v6, s12`) once and returns
/// v6.
pub fn scalar(chip: Chip, code: &[u32]) -> u32 {
    handmade::per_lane(chip, code, &[&[0]])[0] as u32
}

/// The disassembly of the first instruction of `words` on `chip`.
pub fn text(chip: Chip, words: &[u32]) -> String {
    let program = Program::decode(chip, &handmade::bytes(words)).unwrap();
    disassemble(program.instructions().first().unwrap(), chip)
}
