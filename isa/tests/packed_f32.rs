//! gfx90a's and gfx942's packed f32 (`v_pk_fma_f32`, `v_pk_mul_f32`,
//! `v_pk_add_f32`, `v_pk_mov_b32`) read each source as a 64-bit pair, an
//! SGPR source too: `s[10:11]` gives s10 as its low dword and s11 as its
//! high, and `op_sel` (low result) and `op_sel_hi` (high result) pick
//! which dword of each pair feeds each half (CDNA3 ISA guide, VOP3P;
//! LLVM's operands for them are 64-bit registers). LLVM's log1p and
//! Winograd kernels multiply by constants kept in SGPR pairs this way.
//! Expected values are written out from that definition.

mod handmade;

use amdgpu_isa::Chip;
use handmade::per_lane;

/// s10 = 2.0, s11 = 3.0 before the instruction under test.
const CONSTANTS: [u32; 3] = [
    0xbe8a00f4, // s_mov_b32 s10, 2.0
    0xbe8b00ff, 0x40400000, // s_mov_b32 s11, 0x40400000 (3.0)
];

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// Runs `op` after [`CONSTANTS`] with v2, v3, v4, v5 per lane; returns
/// (v6, v7) per lane.
fn run(chip: Chip, op: &[u32], v: [&[f32]; 4]) -> Vec<(f32, f32)> {
    let code = [&CONSTANTS[..], op].concat();
    let inputs: Vec<Vec<u32>> = v
        .iter()
        .map(|a| a.iter().map(|&x| f(x)).collect())
        .collect();
    let refs: Vec<&[u32]> = inputs.iter().map(|a| &a[..]).collect();
    per_lane(chip, &code, &refs)
        .into_iter()
        .map(|q| (f32::from_bits(q as u32), f32::from_bits((q >> 32) as u32)))
        .collect()
}

const V2: [f32; 3] = [1.5, -4.0, 10.0];
const V3: [f32; 3] = [0.25, 7.0, -3.0];
const V4: [f32; 3] = [100.0, 0.5, -1.0];
const V5: [f32; 3] = [-8.0, 16.0, 0.125];

#[test]
fn pk_mul_f32_sgpr_pair() {
    for chip in [Chip::Gfx90a, Chip::Gfx942] {
        // v_pk_mul_f32 v[6:7], v[2:3], s[10:11]
        let got = run(chip, &[0xd3b14006, 0x18001502], [&V2, &V3, &V4, &V5]);
        let want: Vec<_> = (0..3).map(|i| (V2[i] * 2.0, V3[i] * 3.0)).collect();
        assert_eq!(got, want, "{chip:?}");
    }
}

#[test]
fn pk_fma_f32_sgpr_pair_op_sel() {
    for chip in [Chip::Gfx90a, Chip::Gfx942] {
        // v_pk_fma_f32 v[6:7], v[2:3], s[10:11], v[4:5] op_sel:[1,0,0] op_sel_hi:[0,1,1]
        let got = run(chip, &[0xd3b04806, 0x14101502], [&V2, &V3, &V4, &V5]);
        // Low: v3 * s10 + v4; high: v2 * s11 + v5.
        let want: Vec<_> = (0..3)
            .map(|i| (V3[i] * 2.0 + V4[i], V2[i] * 3.0 + V5[i]))
            .collect();
        assert_eq!(got, want, "{chip:?}");
    }
}

#[test]
fn pk_add_f32_sgpr_pair_first() {
    for chip in [Chip::Gfx90a, Chip::Gfx942] {
        // v_pk_add_f32 v[6:7], s[10:11], v[2:3] op_sel:[1,0] op_sel_hi:[0,1]
        let got = run(chip, &[0xd3b24806, 0x1002040a], [&V2, &V3, &V4, &V5]);
        // Low: s11 + v2; high: s10 + v3.
        let want: Vec<_> = (0..3).map(|i| (3.0 + V2[i], 2.0 + V3[i])).collect();
        assert_eq!(got, want, "{chip:?}");
    }
}

#[test]
fn pk_mov_b32_sgpr_pair() {
    for chip in [Chip::Gfx90a, Chip::Gfx942] {
        // v_pk_mov_b32 v[6:7], s[10:11], v[2:3] op_sel:[1,1]
        let got = run(chip, &[0xd3b35806, 0x1802040a], [&V2, &V3, &V4, &V5]);
        // Low: s11; high: v3.
        let want: Vec<_> = (0..3).map(|i| (3.0, V3[i])).collect();
        assert_eq!(got, want, "{chip:?}");
    }
}
