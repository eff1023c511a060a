//! gfx950's (CDNA4) new VALU and LDS operations that IREE emits: the
//! packing conversions `v_cvt_pk_f16_f32` and `v_cvt_pk_bf16_f32`, the
//! three-input bitwise functions `v_bitop3_b32`/`_b16`, the lane swaps
//! `v_permlane16_swap_b32`/`v_permlane32_swap_b32` (Triton's), and the
//! transposing LDS read `ds_read_b64_tr_b16`. (Its new MFMA shapes run in
//! `exec::mfma` by the same layout rule as gfx942's.)
//!
//! Definitions, from AMD's "AMD Instinct CDNA4 Instruction Set
//! Architecture" guide and LLVM's gfx950 instruction selection:
//!
//! - `v_cvt_pk_f16_f32 D, S0, S1`: D.f16[0] = S0 and D.f16[1] = S1, each
//!   rounded to nearest even; VOP3's abs and neg apply to the sources and
//!   clamp to the results. `v_cvt_pk_bf16_f32`: the same to bfloat16.
//! - `v_bitop3_b32 D, S0, S1, S2 bitop3:T`: bit `i` of D is bit
//!   `S0[i] << 2 | S1[i] << 1 | S2[i]` of the 8-bit table T (so `T =
//!   0xf0` is S0, `0xcc` S1, `0xaa` S2, LLVM's `BitOp3` constants). The
//!   encoding spreads T over VOP3's modifier fields (`T[2:0]` in neg,
//!   `T[5:3]` in abs, `T[7:6]` in omod; `llvm-mc-22 -show-encoding`), the
//!   decoder gathers it into `inst.imm`. `_b16`: the 16-bit halves
//!   `op_sel` picks, the result into the half `op_sel[3]` picks (the other
//!   half kept).
//! - `ds_read_b64_tr_b16 D, ADDR`: in each group of 16 lanes, lane `L`'s
//!   address names four 16-bit elements `e[L][0..4]` (8 bytes); the group
//!   holds a 4 x 16 tile, row `r` in lanes `4r..4r+4`, and lane `i` of the
//!   group receives column `i`: element `r` of its result (register
//!   `r / 2`, half `r % 2`) is `e[4r + i / 4][i % 4]`. Every lane of the
//!   group supplies its address whatever EXEC says; active lanes are
//!   written.
//! - `v_permlane16_swap_b32 VDST, SRC0`: the odd rows (16 lanes each) of
//!   VDST trade values with the even rows of SRC0; `v_permlane32_swap_b32`:
//!   VDST's rows 2 and 3 with SRC0's rows 0 and 1 (LLVM's
//!   `llvm.amdgcn.permlane16.swap`/`.permlane32.swap`, whose first operand
//!   is VDST's old value).

use crate::arch::Chip;
use crate::exec::float::{clamp01, f32_to_f16, modifiers32};
use crate::exec::lanes::write16_keeping;
use crate::exec::lanes::{active, int16_width};
use crate::inst::Inst;
use crate::op::Valu;
use crate::wave::{Wave, Width};

/// Lanes that exchange data in one transposing read.
const TRANSPOSE_GROUP: usize = 16;

/// Runs a gfx950 VALU operation of this module.
pub(crate) fn alu(wave: &mut Wave, inst: &Inst, op: Valu, chip: Chip) {
    let lanes: Vec<usize> = active(wave.exec() & wave.lane_mask()).collect();
    match op {
        Valu::CvtPkF16F32 | Valu::CvtPkBf16F32 => {
            let convert = if op == Valu::CvtPkF16F32 {
                f32_to_f16
            } else {
                f32_to_bf16
            };
            for lane in lanes {
                let [a, b] = [0u32, 1].map(|i| {
                    let x =
                        modifiers32(wave.src32(inst.src[i as usize], lane, Width::B32), inst, i);
                    convert(if inst.clamp { clamp01(x) } else { x })
                });
                wave.set_vreg(inst.dst[0], 0, lane, u32::from(a) | u32::from(b) << 16);
            }
        }
        Valu::Bitop3B32 => {
            for lane in lanes {
                let [a, b, c] = [0, 1, 2].map(|i| wave.src32(inst.src[i], lane, Width::B32));
                let d = bitop3(inst.imm as u8, a, b, c);
                wave.set_vreg(inst.dst[0], 0, lane, d);
            }
        }
        Valu::Bitop3B16 => {
            for lane in lanes {
                let [a, b, c] = [0, 1, 2].map(|i| {
                    let raw = wave.src32(inst.src[i], lane, int16_width(chip));
                    if inst.op_sel >> i & 1 == 1 {
                        raw >> 16
                    } else {
                        raw & 0xffff
                    }
                });
                let d = bitop3(inst.imm as u8, a, b, c) as u16;
                write16_keeping(wave, inst, chip, true, lane, d);
            }
        }
        Valu::Permlane16Swap | Valu::Permlane32Swap => {
            let rows = if op == Valu::Permlane16Swap { 16 } else { 32 };
            permlane_swap(wave, inst, rows);
        }
        _ => {}
    }
}

/// `v_permlane16_swap_b32` (`rows` 16) and `v_permlane32_swap_b32` (32):
/// lane `l` of VDST in an odd group of `rows` lanes trades values with
/// lane `l - rows` of SRC0. Whole registers are read first, so VDST and
/// SRC0 may be one register (its groups then trade places). Every lane
/// pair trades whatever EXEC says (LLVM's intrinsics use them with all
/// lanes on; the guide's handling of EXEC was not checked).
fn permlane_swap(wave: &mut Wave, inst: &Inst, rows: usize) {
    let (vdst, src) = (inst.dst[0], inst.src[0]);
    let old_dst: Vec<u32> = (0..wave.lanes).map(|l| wave.vreg(vdst, 0, l)).collect();
    let old_src: Vec<u32> = (0..wave.lanes).map(|l| wave.vreg(src, 0, l)).collect();
    for upper in (0..wave.lanes).filter(|l| l / rows % 2 == 1) {
        let lower = upper - rows;
        wave.set_vreg(src, 0, lower, old_dst[upper]);
        wave.set_vreg(vdst, 0, upper, old_src[lower]);
    }
}

/// Each bit of the result: bit `{a, b, c}` of `table`.
pub(crate) fn bitop3(table: u8, a: u32, b: u32, c: u32) -> u32 {
    (0..8u32)
        .filter(|index| table >> index & 1 == 1)
        .map(|index| {
            let pick = |bit: u32, x: u32| if index & bit != 0 { x } else { !x };
            pick(4, a) & pick(2, b) & pick(1, c)
        })
        .fold(0, |acc, minterm| acc | minterm)
}

/// An f32 rounded to the nearest bfloat16, ties to even; a NaN stays a
/// (quiet) NaN of its sign.
pub(crate) fn f32_to_bf16(x: f32) -> u16 {
    let bits = x.to_bits();
    if x.is_nan() {
        return (bits >> 16) as u16 | 0x40;
    }
    (bits.wrapping_add(0x7fff + (bits >> 16 & 1)) >> 16) as u16
}

/// `ds_read_b64_tr_b16` (`bits` 16) and `ds_read_b64_tr_b8` (8):
/// `addresses` are the lanes' LDS addresses (with the instruction's
/// offset); `read` gives the 8 bytes at one. Returns, per lane, the two
/// result registers. With `E = 64 / bits` elements a lane, a group's tile
/// has E rows of 16 elements, `16 / E` lanes a row: element `r` of lane
/// `i`'s result is element `i % E` of lane `(16 / E) r + i / E`.
pub(crate) fn transposed(
    bits: u8,
    lanes: usize,
    addresses: &[u64],
    mut read: impl FnMut(u64) -> [u8; 8],
) -> Vec<[u32; 2]> {
    let bits = u32::from(bits.clamp(8, 16));
    let per_lane = (64 / bits) as usize;
    let mask = (1u64 << bits) - 1;
    let words: Vec<u64> = addresses
        .iter()
        .take(lanes)
        .map(|&address| u64::from_le_bytes(read(address)))
        .collect();
    (0..lanes)
        .map(|lane| {
            let group = lane / TRANSPOSE_GROUP * TRANSPOSE_GROUP;
            let i = lane % TRANSPOSE_GROUP;
            let result = (0..per_lane).fold(0u64, |acc, r| {
                let source = group + TRANSPOSE_GROUP / per_lane * r + i / per_lane;
                let shift = bits * (i % per_lane) as u32;
                let element = words.get(source).map_or(0, |w| w >> shift & mask);
                acc | element << (bits * r as u32)
            });
            [result as u32, (result >> 32) as u32]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_truth_tables_of_single_sources_are_llvms_constants() {
        let (a, b, c) = (0x1234_5678, 0x9abc_def0, 0x0f0f_f0f0);
        assert_eq!(bitop3(0xf0, a, b, c), a);
        assert_eq!(bitop3(0xcc, a, b, c), b);
        assert_eq!(bitop3(0xaa, a, b, c), c);
        assert_eq!(bitop3(0x96, a, b, c), a ^ b ^ c);
        assert_eq!(bitop3(0x80, a, b, c), a & b & c);
        assert_eq!(bitop3(0xfe, a, b, c), a | b | c);
        assert_eq!(bitop3(0, a, b, c), 0);
        assert_eq!(bitop3(0xff, a, b, c), u32::MAX);
        // `(a & b) | c`'s table, as IREE's gfx950 code uses it (0xc8 is
        // `(a | c) & b`).
        assert_eq!(bitop3(0xc8, a, b, c), (a | c) & b);
    }

    #[test]
    fn bfloat16_rounds_to_nearest_even() {
        assert_eq!(f32_to_bf16(1.0), 0x3f80);
        assert_eq!(f32_to_bf16(f32::from_bits(0x3f80_8000)), 0x3f80); // tie, even
        assert_eq!(f32_to_bf16(f32::from_bits(0x3f81_8000)), 0x3f82); // tie, up to even
        assert_eq!(f32_to_bf16(f32::from_bits(0x3f80_8001)), 0x3f81);
        assert_eq!(f32_to_bf16(f32::INFINITY), 0x7f80);
        assert_eq!(f32_to_bf16(f32::MAX), 0x7f80);
        assert_eq!(f32_to_bf16(f32::NAN) & 0x7fc0, 0x7fc0);
    }

    #[test]
    fn a_transposed_read_gives_each_lane_a_column_of_its_groups_tile() {
        // Lane L's 8 bytes hold elements 4L..4L+4 of a 64 x 4 array (each
        // element's value its index): the group's tile, row r = lanes
        // 4r..4r+4 = elements 16r..16r+16.
        let addresses: Vec<u64> = (0..64).map(|l| 8 * l as u64).collect();
        let got = transposed(16, 64, &addresses, |address| {
            let first = address / 2;
            let mut bytes = [0u8; 8];
            for e in 0..4 {
                bytes[2 * e..2 * e + 2].copy_from_slice(&((first + e as u64) as u16).to_le_bytes());
            }
            bytes
        });
        for (lane, got) in got.iter().enumerate() {
            let (group, i) = (lane / 16, lane % 16);
            let want: Vec<u32> = (0..4).map(|r| (64 * group + 16 * r + i) as u32).collect();
            assert_eq!(
                *got,
                [want[0] | want[1] << 16, want[2] | want[3] << 16],
                "lane {lane}"
            );
        }
    }
}
