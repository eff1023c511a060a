//! M0-relative register moves, as the RDNA3/RDNA4 guides define them (the
//! register an operand names is a base that M0 adds to): `v_movrels_b32`
//! (D = VGPR[S0 + M0]), `v_movreld_b32` (VGPR[D + M0] = S0), `v_movrelsd_b32`
//! (both indexed), `v_movrelsd_2_b32` (source + M0[9:0], destination +
//! M0[25:16]) on gfx1100 and gfx1201 (LLVM gives gfx90a and gfx942 none),
//! each lane its own registers; `s_movrels_b32`/`_b64`, `s_movreld_b32` on
//! gfx942, gfx1100 and gfx1201 and `s_movrelsd_2_b32` on the last two. An
//! index past the register file is a fault naming it. Words from
//! `llvm-mc-19 --arch=amdgcn --mcpu=CHIP -show-encoding` of the text beside
//! each (the same words on gfx1100 and gfx1201).

mod handmade;

use amdgpu_isa::{Chip, FaultKind, Program, Regions};
use handmade::{bytes, per_lane, per_lane32, run};

const RDNA: [Chip; 2] = [Chip::Gfx1100, Chip::Gfx1201];

/// Lane inputs (v2-v5): distinct in every register and lane.
fn inputs() -> [Vec<u32>; 4] {
    std::array::from_fn(|r| (0..32).map(|lane| (r as u32 + 1) << 16 | lane).collect())
}

#[test]
fn vector_relative_moves_index_each_lanes_registers_by_m0() {
    let [a, b, c, d] = inputs();
    let lanes: [&[u32]; 4] = [&a, &b, &c, &d];
    let cases: [(&str, &[u32], &[u32]); 5] = [
        // v6 = v[2 + 2] = c
        (
            "s_mov_b32 m0, 2; v_movrels_b32_e32 v6, v2",
            &[0xbefd0082, 0x7e0c8702],
            &c,
        ),
        // v[5 + 1] = v2 = a
        (
            "s_mov_b32 m0, 1; v_movreld_b32_e32 v5, v2",
            &[0xbefd0081, 0x7e0a8502],
            &a,
        ),
        // v[5 + 1] = v[2 + 1] = b
        (
            "s_mov_b32 m0, 1; v_movrelsd_b32_e32 v5, v2",
            &[0xbefd0081, 0x7e0a8902],
            &b,
        ),
        // v[5 + 1] = v[2 + 2] = c
        (
            "s_mov_b32 m0, 0x10002; v_movrelsd_2_b32_e32 v5, v2",
            &[0xbefd00ff, 0x00010002, 0x7e0a9102],
            &c,
        ),
        // v[3 + 3] = a literal in every lane
        (
            "s_mov_b32 m0, 3; v_movreld_b32_e32 v3, 0x1234",
            &[0xbefd0083, 0x7e0684ff, 0x00001234],
            &[0x1234; 32],
        ),
    ];
    for chip in RDNA {
        for (text, words, want) in cases {
            assert_eq!(per_lane32(chip, words, &lanes), want, "{chip:?}: {text}");
        }
    }
}

#[test]
fn scalar_relative_moves_index_sgprs_by_m0() {
    // s20-s23 = 20-23 (`s_mov_b32 s2N, 2N`), then the moves; v6 (and v7)
    // the result.
    let setup = [0xbe940094, 0xbe950095, 0xbe960096, 0xbe970097];
    let gfx9: [(&str, &[u32], u64); 3] = [
        (
            "s_mov_b32 m0, 2; s_movrels_b32 s30, s20; v_mov_b32_e32 v6, s30",
            &[0xbefc0082, 0xbe9e2a14, 0x7e0c021e],
            22,
        ),
        (
            "s_mov_b32 m0, 2; s_movrels_b64 s[30:31], s[20:21]; v_mov_b32 v6, s30; \
             v_mov_b32 v7, s31",
            &[0xbefc0082, 0xbe9e2b14, 0x7e0c021e, 0x7e0e021f],
            23 << 32 | 22,
        ),
        (
            "s_mov_b32 m0, 3; s_movreld_b32 s20, 0x77; v_mov_b32_e32 v6, s23",
            &[0xbefc0083, 0xbe942cff, 0x00000077, 0x7e0c0217],
            0x77,
        ),
    ];
    let rdna: [(&str, &[u32], u64); 4] = [
        (
            "s_mov_b32 m0, 2; s_movrels_b32 s30, s20; v_mov_b32_e32 v6, s30",
            &[0xbefd0082, 0xbe9e4014, 0x7e0c021e],
            22,
        ),
        (
            "s_mov_b32 m0, 2; s_movrels_b64 s[30:31], s[20:21]; v_mov_b32 v6, s30; \
             v_mov_b32 v7, s31",
            &[0xbefd0082, 0xbe9e4114, 0x7e0c021e, 0x7e0e021f],
            23 << 32 | 22,
        ),
        (
            "s_mov_b32 m0, 3; s_movreld_b32 s20, 0x77; v_mov_b32_e32 v6, s23",
            &[0xbefd0083, 0xbe9442ff, 0x00000077, 0x7e0c0217],
            0x77,
        ),
        // s[20 + 3] = s[21 + 1]
        (
            "s_mov_b32 m0, 0x30001; s_movrelsd_2_b32 s20, s21; v_mov_b32_e32 v6, s23",
            &[0xbefd00ff, 0x00030001, 0xbe944415, 0x7e0c0217],
            22,
        ),
    ];
    let runs = [(Chip::Gfx942, &gfx9[..])]
        .into_iter()
        .chain(RDNA.map(|chip| (chip, &rdna[..])));
    for (chip, cases) in runs {
        for (text, words, want) in cases {
            let code = [&setup[..], words].concat();
            assert_eq!(per_lane(chip, &code, &[&[0]]), [*want], "{chip:?}: {text}");
        }
    }
}

#[test]
fn a_relative_index_past_the_register_file_is_a_fault() {
    // s_mov_b32 m0, 0x100; v_movrels_b32_e32 v0, v1; s_endpgm: v257.
    let vector = [0xbefd00ff, 0x00000100, 0x7e008701, 0xbfb00000];
    // s_mov_b32 m0, 100; s_movrels_b32 s0, s10; s_endpgm: s110, past VCC.
    let scalar = [0xbefd00ff, 0x00000064, 0xbe80400a, 0xbfb00000];
    let cases = [
        (
            vector,
            "v_movrels_b32: M0-relative register 257 is outside the 256 registers it may index",
        ),
        (
            scalar,
            "s_movrels_b32: M0-relative register 110 is outside the 106 registers it may index",
        ),
    ];
    for chip in RDNA {
        for (words, reason) in cases {
            let program = Program::decode(chip, &bytes(&words)).unwrap();
            let fault = run(&program, &[], 1, &mut Regions::new(vec![])).unwrap_err();
            assert_eq!(fault.kind, FaultKind::Device, "{chip:?}: {fault}");
            assert_eq!(fault.reason, reason, "{chip:?}");
        }
    }
}
