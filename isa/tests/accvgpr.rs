//! CDNA's moves to, from and between AGPRs: `v_accvgpr_write_b32` (a VGPR,
//! SGPR or inline constant into an AGPR), `v_accvgpr_read_b32` (an AGPR
//! into a VGPR) and `v_accvgpr_mov_b32` (AGPR to AGPR), in the AGPRs MFMA
//! uses (after ACCUM_OFFSET's VGPRs; the test descriptor puts them after
//! 256). IREE's scan and pad kernels failed to launch with them. Words
//! from `llvm-mc-19 --arch=amdgcn --mcpu=gfx942 -show-encoding` (the same
//! for gfx90a) of the text in the table, which the disassembler must print.

mod handmade;

use amdgpu_isa::{Chip, Program, disassemble};
use handmade::per_lane;

const CODE: [(&str, &[u32]); 6] = [
    ("v_accvgpr_write_b32 a1, v2", &[0xd3d94001, 0x18000102]),
    ("v_accvgpr_write_b32 a3, 5", &[0xd3d94003, 0x18000085]),
    ("v_accvgpr_mov_b32 a2, a1", &[0x7e04a501]),
    ("v_accvgpr_read_b32 v6, a2", &[0xd3d84006, 0x18000102]),
    ("v_accvgpr_read_b32 v7, a3", &[0xd3d84007, 0x18000103]),
    ("v_accvgpr_write_b32 a2, s10", &[0xd3d94002, 0x1800000a]),
];

#[test]
fn accvgpr_moves_through_agprs() {
    let inputs: [u32; 3] = [7, 0xdead_beef, 0x8000_0000];
    for chip in [Chip::Gfx90a, Chip::Gfx942] {
        // a1 = v2, a3 = 5, a2 = a1, v6 = a2, v7 = a3; the VGPRs v1-v3 the
        // AGPRs share numbers with are not written.
        let code: Vec<u32> = CODE[..5]
            .iter()
            .flat_map(|(_, w)| w.iter().copied())
            .collect();
        let got = per_lane(chip, &code, &[&inputs]);
        let want: Vec<u64> = inputs.iter().map(|&v| u64::from(v) | 5 << 32).collect();
        assert_eq!(got, want, "{chip:?}");
        // An SGPR into an AGPR: s10 = 0x1234, a2 = s10, v6 = a2.
        let mut code = vec![0xbe8a00ff, 0x1234]; // s_mov_b32 s10, 0x1234
        code.extend(CODE[5].1);
        code.extend(CODE[3].1);
        let got = per_lane(chip, &code, &[&inputs]);
        assert_eq!(got, [0x1234; 3], "{chip:?}");
    }
}

#[test]
fn accvgpr_prints_as_llvm_does() {
    for chip in [Chip::Gfx90a, Chip::Gfx942] {
        for (text, words) in CODE {
            let program = Program::decode(chip, &handmade::bytes(words)).unwrap();
            let inst = program.instructions().first().unwrap();
            assert_eq!(disassemble(inst, chip), text, "{chip:?}");
        }
    }
}
