//! Matrix instructions. CDNA's matrix fused multiply-add (`v_mfma_*`) for
//! one block of 16×16 or
//! 32×32 outputs, with the register layout of AMD's matrix instruction
//! calculator: A's row `i` and B's column `j` sit in lane `i` (`j`) of each
//! group of M lanes, K spread over the groups and each lane's elements; D
//! and C hold column `lane % M` and rows by register and lane group.

use crate::exec::float::f16_to_f32;
use crate::inst::Inst;
use crate::op::{Mfma, Ty};
use crate::wave::{Wave, Width};

pub(crate) fn run(wave: &mut Wave, inst: &Inst, shape: Mfma) -> Result<(), String> {
    let m = usize::from(shape.m);
    let k = usize::from(shape.k);
    if shape.blocks != 1 || !(m == 16 || m == 32) || wave.lanes != 64 {
        return Err(format!(
            "v_mfma with {} blocks of {m}x{m}x{k} is not supported by the interpreter",
            shape.blocks
        ));
    }
    // Elements of A (and B) per lane.
    let per_lane = m * k / 64;
    let element = |lane: usize, e: usize, operand| -> f32 {
        match shape.input {
            Ty::F16 => {
                let word = wave.src32(operand, lane, Width::B32);
                let reg_word = wave.vreg_or(operand, e / 2, lane, word);
                let half = if e.is_multiple_of(2) {
                    reg_word
                } else {
                    reg_word >> 16
                } as u16;
                f16_to_f32(half)
            }
            _ => f32::from_bits(wave.vreg_or(
                operand,
                e,
                lane,
                wave.src32(operand, lane, Width::B32),
            )),
        }
    };
    let a = |i: usize, kk: usize| element(i + m * (kk / per_lane), kk % per_lane, inst.src[0]);
    let b = |kk: usize, j: usize| element(j + m * (kk / per_lane), kk % per_lane, inst.src[1]);
    let regs = m * m / 64;
    let mut out = vec![0u32; regs * 64];
    for lane in 0..64 {
        let j = lane % m;
        for r in 0..regs {
            let i = if m == 16 {
                4 * (lane / 16) + r
            } else {
                (r % 4) + 8 * (r / 4) + 4 * (lane / 32)
            };
            let c = f32::from_bits(wave.src32_at(inst.src[2], r, lane));
            let mut acc = f64::from(c);
            for kk in 0..k {
                acc += f64::from(a(i, kk)) * f64::from(b(kk, j));
            }
            out[r * 64 + lane] = (acc as f32).to_bits();
        }
    }
    for r in 0..regs {
        for lane in 0..64 {
            wave.set_vreg(inst.dst[0], r, lane, out[r * 64 + lane]);
        }
    }
    Ok(())
}

/// A bf16's bits as f32 (exact: bf16 is f32's high half).
fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits(u32::from(h) << 16)
}

/// RDNA3's `v_wmma_f32_16x16x16_{f16,bf16}` in wave32 (AMD's RDNA3 WMMA
/// layout): lane `l` holds row `l % 16` of A and column `l % 16` of B, all
/// 16 K elements two per register (the upper half-wave repeats the lower);
/// D and C register `r` of lane `l` is row `2r + l / 16`, column `l % 16`.
pub(crate) fn wmma(wave: &mut Wave, inst: &Inst, input: Ty) -> Result<(), String> {
    if wave.lanes != 32 {
        return Err("v_wmma in wave64 is not supported by the interpreter".into());
    }
    if inst.neg != 0 || inst.neg_hi != 0 || inst.op_sel != 0 {
        return Err(
            "v_wmma with neg or op_sel modifiers is not supported by the interpreter".into(),
        );
    }
    let element = |operand, lane: usize, k: usize| -> f32 {
        let word = wave.vreg(operand, k / 2, lane);
        let half = if k.is_multiple_of(2) {
            word
        } else {
            word >> 16
        } as u16;
        if input == Ty::F16 {
            f16_to_f32(half)
        } else {
            bf16_to_f32(half)
        }
    };
    let mut out = [[0u32; 32]; 8];
    for (r, row_out) in out.iter_mut().enumerate() {
        for (lane, slot) in row_out.iter_mut().enumerate() {
            let (i, j) = (2 * r + lane / 16, lane % 16);
            let mut acc = f64::from(f32::from_bits(wave.src32_at(inst.src[2], r, lane)));
            for k in 0..16 {
                acc +=
                    f64::from(element(inst.src[0], i, k)) * f64::from(element(inst.src[1], j, k));
            }
            *slot = (acc as f32).to_bits();
        }
    }
    for (r, row_out) in out.iter().enumerate() {
        for (lane, &v) in row_out.iter().enumerate() {
            wave.set_vreg(inst.dst[0], r, lane, v);
        }
    }
    Ok(())
}
