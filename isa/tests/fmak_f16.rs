//! GFX11's `v_fmamk_f16` (S0 * K + S1) and `v_fmaak_f16` (S0 * S1 + K),
//! K a 16-bit literal in the dword after the instruction, each rounded
//! once to f16; IREE's f16 kernels failed to launch with them. Expected
//! values worked out by hand (3 * (1 + 2^-10) = 3 + 1.5 ulp of f16 at 3,
//! a tie, to even: 0x4202). Words from `llvm-mc-19 --arch=amdgcn
//! --mcpu=gfx1100 -show-encoding` of the text, which the disassembler must
//! print.

mod handmade;

use amdgpu_isa::{Chip, Program, disassemble};
use handmade::per_lane32;

const A: [u32; 3] = [0x3e00, 0xc000, 0x3c01];
const B: [u32; 3] = [0x3400, 0x3c00, 0x8000];

fn check(text: &str, words: [u32; 2], want: [u32; 3]) {
    let got = per_lane32(Chip::Gfx1100, &words, &[&A, &B]);
    assert_eq!(got, want, "{text}");
    let program = Program::decode(Chip::Gfx1100, &handmade::bytes(&words)).unwrap();
    let inst = program.instructions().first().unwrap();
    assert_eq!(disassemble(inst, Chip::Gfx1100), text);
}

#[test]
fn fmamk_f16() {
    // 1.5 * 3 + 0.25, -2 * 3 + 1, (1 + 2^-10) * 3 - 0.
    check(
        "v_fmamk_f16 v6, v2, 0x4200, v3",
        [0x6e0c0702, 0x4200],
        [0x44c0, 0xc500, 0x4202],
    );
}

#[test]
fn fmaak_f16() {
    // 1.5 * 0.25 + 3, -2 * 1 + 3, (1 + 2^-10) * -0 + 3.
    check(
        "v_fmaak_f16 v6, v2, v3, 0x4200",
        [0x700c0702, 0x4200],
        [0x42c0, 0x3c00, 0x4200],
    );
}
