//! VOPD (gfx1100 dual issue): the two halves of a pair read their sources
//! before either writes (RDNA3 ISA guide, VOPD), so a second half that
//! reads the first half's destination sees the register's old value, and
//! a first half that reads the second's destination sees its old value
//! too. Each kernel sets the first destination's old value from v5 (d),
//! runs one pair, and returns v6 and v7; a, b, c, d are v2-v5.

mod handmade;

use amdgpu_isa::Chip;
use handmade::per_lane;

const A: [f32; 4] = [1.5, -2.0, 0.25, 1024.0];
const B: [f32; 4] = [2.0, 3.0, 4.0, -1.0];
const C: [f32; 4] = [0.5, -4.0, 8.0, 0.125];
const D: [f32; 4] = [3.0, 7.0, -0.5, 2.5];

/// v6 and v7 of each lane after `code`.
fn run(code: &[u32]) -> Vec<(u32, u32)> {
    let bits = |x: [f32; 4]| x.map(f32::to_bits);
    let (a, b, c, d) = (bits(A), bits(B), bits(C), bits(D));
    per_lane(Chip::Gfx1100, code, &[&a, &b, &c, &d])
        .into_iter()
        .map(|q| (q as u32, (q >> 32) as u32))
        .collect()
}

#[test]
fn the_second_half_reads_the_first_halfs_destination_as_it_was() {
    let got = run(&[
        0x7e0c0305, // v_mov_b32_e32 v6, v5
        0xca200103, 0x06060506, // v_dual_mov_b32 v6, v3 :: v_dual_add_nc_u32 v7, v6, v2
    ]);
    for (lane, &(v6, v7)) in got.iter().enumerate() {
        assert_eq!(v6, B[lane].to_bits(), "lane {lane}: v6 = b");
        let old = D[lane].to_bits();
        assert_eq!(
            v7,
            old.wrapping_add(A[lane].to_bits()),
            "lane {lane}: v7 = d + a"
        );
    }
    let got = run(&[
        0x7e0c0305, // v_mov_b32_e32 v6, v5
        0xca060103, 0x06060d02, // v_dual_mov_b32 v6, v3 :: v_dual_mul_f32 v7, v2, v6
    ]);
    for (lane, &(v6, v7)) in got.iter().enumerate() {
        assert_eq!(f32::from_bits(v6), B[lane], "lane {lane}: v6 = b");
        assert_eq!(
            f32::from_bits(v7),
            A[lane] * D[lane],
            "lane {lane}: v7 = a * d"
        );
    }
}

#[test]
fn an_accumulating_first_half_and_a_second_half_reading_it_both_see_the_old_value() {
    let got = run(&[
        0x7e0c0305, // v_mov_b32_e32 v6, v5
        0xc8060702, 0x06060d04, // v_dual_fmac_f32 v6, v2, v3 :: v_dual_mul_f32 v7, v4, v6
    ]);
    for (lane, &(v6, v7)) in got.iter().enumerate() {
        // Exact in f32 for these inputs.
        let fma = A[lane] * B[lane] + D[lane];
        assert_eq!(f32::from_bits(v6), fma, "lane {lane}: v6 = a * b + d");
        assert_eq!(
            f32::from_bits(v7),
            C[lane] * D[lane],
            "lane {lane}: v7 = c * d"
        );
    }
}

#[test]
fn the_first_half_reads_the_second_halfs_destination_as_it_was() {
    let got = run(&[
        0x7e0e0305, // v_mov_b32_e32 v7, v5
        0xc9100f02, 0x06060103, // v_dual_add_f32 v6, v2, v7 :: v_dual_mov_b32 v7, v3
    ]);
    for (lane, &(v6, v7)) in got.iter().enumerate() {
        assert_eq!(
            f32::from_bits(v6),
            A[lane] + D[lane],
            "lane {lane}: v6 = a + d"
        );
        assert_eq!(f32::from_bits(v7), B[lane], "lane {lane}: v7 = b");
    }
}
