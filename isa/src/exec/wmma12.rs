//! GFX12's (RDNA4's) `v_wmma_*_16x16x16_*`, wave32: D = A × B + C for
//! 16×16 tiles, with RDNA4's register layout, in which every element is
//! held once (RDNA3 repeats A and B in both halves of the wave and keeps
//! a 16-bit D in one half of each register, `mfma.rs`). As AMD's RDNA4
//! instruction set guide lays the tiles out ("Wave Matrix Multiply
//! Accumulate"): lane `l` holds row `l % 16` of A (column `l % 16` of B),
//! lanes 0-15 its elements K = 0-7 and lanes 16-31 K = 8-15, packed
//! low bits first into 1, 2 or 4 registers by element width; D (and C)
//! holds column `l % 16`, lanes 0-15 rows 0-7 and lanes 16-31 rows 8-15,
//! one row a register (f32, i32) or two (f16, bf16: the even row in the
//! low half). A and B of the fp8/bf8 forms (`v_wmma_f32_16x16x16_fp8_bf8`
//! and the others) are OCP's E4M3FN and E5M2 (`exec::ocp8`), four to a
//! register like i8. Float products are summed exactly in K order and
//! rounded once to the result type; integer ones wrap, or saturate under
//! clamp.

use crate::exec::error::ExecError;
use crate::exec::float::{f16_to_f32, f32_to_f16, odd32};
use crate::exec::ocp8::{Ocp8Format, ocp8_to_f32};
use crate::inst::Inst;
use crate::op::Wmma;
use crate::wave::Wave;

/// Lanes of the wave32 the tiles fill.
const LANES: usize = 32;
/// The tiles' side (M = N = K).
const N: usize = 16;
/// Elements of K (rows of D) one lane holds.
const PER_LANE: usize = 8;

/// Where element `index` (of K for A and B, of the rows for D) of the
/// row or column `line` lives: (register, lane, bit shift).
fn place(line: usize, index: usize, bits: usize) -> (usize, usize, u32) {
    let per_reg = 32 / bits;
    let within = index % PER_LANE;
    (
        within / per_reg,
        line + N * (index / PER_LANE),
        (bits * (within % per_reg)) as u32,
    )
}

/// One element's raw bits of A (`source` 0) or B (1).
fn raw(wave: &Wave, inst: &Inst, source: usize, line: usize, k: usize, bits: usize) -> u32 {
    let (reg, lane, shift) = place(line, k, bits);
    let word = wave.vreg(inst.src[source], reg, lane);
    (word >> shift) & ((1u64 << bits) - 1) as u32
}

/// A float input of A (`source` 0) or B (1) as f64, exactly: f16, bf16,
/// or OCP's E4M3FN ("fp8") or E5M2 ("bf8") as the mnemonic names A's
/// and B's types.
fn float_input(kind: Wmma, source: usize, raw: u32) -> f64 {
    let ocp = |fp8: bool| {
        let format = if fp8 {
            Ocp8Format::E4m3fn
        } else {
            Ocp8Format::E5m2
        };
        f64::from(ocp8_to_f32(raw as u8, format))
    };
    match (kind, source) {
        (Wmma::F32F16 | Wmma::F16F16, _) => f64::from(f16_to_f32(raw as u16)),
        (Wmma::F32Fp8Fp8, _) | (Wmma::F32Fp8Bf8, 0) | (Wmma::F32Bf8Fp8, 1) => ocp(true),
        (Wmma::F32Bf8Bf8, _) | (Wmma::F32Fp8Bf8, _) | (Wmma::F32Bf8Fp8, _) => ocp(false),
        _ => f64::from(f32::from_bits(raw << 16)),
    }
}

/// An integer input, signed where `neg_lo` bit `source` says so.
fn integer_input(inst: &Inst, source: usize, value: u32, bits: usize) -> i64 {
    if inst.neg >> source & 1 == 1 {
        let shift = 32 - bits as u32;
        i64::from(((value << shift) as i32) >> shift)
    } else {
        i64::from(value)
    }
}

/// An f64 rounded once to bf16 (to nearest even; NaN stays quiet).
fn to_bf16(x: f64) -> u16 {
    let bits = odd32(x).to_bits();
    if x.is_nan() {
        return (bits >> 16) as u16 | 0x40;
    }
    (bits.wrapping_add(0x7fff + (bits >> 16 & 1)) >> 16) as u16
}

/// Runs one GFX12 WMMA.
pub(crate) fn run(wave: &mut Wave, inst: &Inst, kind: Wmma) -> Result<(), ExecError> {
    if wave.lanes != LANES {
        return Err(ExecError::WaveSize {
            mnemonic: inst.mnemonic,
            lanes: wave.lanes,
        });
    }
    let bits = usize::from(kind.input_bits());
    let integer = kind.integer();
    let half = kind.half_output();
    let mut out = [[0u32; N]; N];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, slot) in row.iter_mut().enumerate() {
            let (reg, lane, shift) = if half {
                place(j, i, 16)
            } else {
                place(j, i, 32)
            };
            let c_word = wave.src32_at(inst.src[2], reg, lane);
            *slot = if integer {
                let mut acc = i64::from(c_word as i32);
                for k in 0..N {
                    let a = integer_input(inst, 0, raw(wave, inst, 0, i, k, bits), bits);
                    let b = integer_input(inst, 1, raw(wave, inst, 1, j, k, bits), bits);
                    acc += a * b;
                }
                if inst.clamp {
                    acc.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32
                } else {
                    acc as i32 as u32
                }
            } else {
                let mut acc = if half {
                    float_input(kind, 2, c_word >> shift & 0xffff)
                } else {
                    f64::from(f32::from_bits(c_word))
                };
                for k in 0..N {
                    let a = float_input(kind, 0, raw(wave, inst, 0, i, k, bits));
                    let b = float_input(kind, 1, raw(wave, inst, 1, j, k, bits));
                    acc += a * b;
                }
                match kind {
                    Wmma::F16F16 => u32::from(f32_to_f16(odd32(acc))),
                    Wmma::Bf16Bf16 => u32::from(to_bf16(acc)),
                    _ => (acc as f32).to_bits(),
                }
            };
        }
    }
    // Every result is computed before any is written: D may be C, A or B.
    for (i, row) in out.iter().enumerate() {
        for (j, &value) in row.iter().enumerate() {
            if half {
                let (reg, lane, shift) = place(j, i, 16);
                let old = wave.vreg(inst.dst[0], reg, lane);
                let mask = 0xffffu32 << shift;
                wave.set_vreg(inst.dst[0], reg, lane, (old & !mask) | value << shift);
            } else {
                let (reg, lane, _) = place(j, i, 32);
                wave.set_vreg(inst.dst[0], reg, lane, value);
            }
        }
    }
    Ok(())
}
