//! gfx950's `f8f6f4` MFMA (`v_mfma_f32_16x16x128_f8f6f4`,
//! `v_mfma_f32_32x32x64_f8f6f4`) and the scales `v_mfma_ld_scale_b32`
//! gives it (LLVM's `v_mfma_scale_f32_*_f8f6f4` is that pair, printed as
//! one instruction).
//!
//! - Formats: CBSZ picks A's and BLGP B's (LLVM's `cbsz`/`blgp` operands
//!   of the intrinsic): 0 fp8 (E4M3FN), 1 bf8 (E5M2), 2 fp6 (E2M3), 3 bf6
//!   (E3M2), 4 fp4 (E2M1). An operand holds 32 elements a lane, packed
//!   without gaps: 8 registers of fp8/bf8, 6 of fp6/bf6, 4 of fp4 (the
//!   decoder gives the instruction those types; fp8 and bf8 are OCP's,
//!   `exec::ocp8`: an E4M3FN NaN or an E5M2 infinity or NaN element makes
//!   its products NaN or infinite).
//! - Layout: the general rule of `exec::mfma` with `E = 32` elements a
//!   lane: `A[i][k]` is element `k % 32` of lane `M (k / 32) + i`, `B[k][j]`
//!   element `k % 32` of lane `N (k / 32) + j`; C and D as every f32 MFMA.
//!   So each lane holds one 32-element block of K of one row (column),
//!   OCP MX's block size.
//! - Scales: `v_mfma_ld_scale_b32 SA, SB op_sel:[a0,b0] op_sel_hi:[a1,b1]`
//!   takes, per lane, byte `a1 a0` of SA as the E8M0 scale of the A block
//!   that lane holds and byte `b1 b0` of SB as that of its B block (the
//!   intrinsic's `opsel_a`/`opsel_b`, encoded so by `llc-22`). It applies
//!   to the MFMA right after it, whose bit 11 (ABID's low bit on other
//!   MFMA; the decoder keeps it in `inst.imm`) is set (`llvm-mc-22` encodes
//!   the pair so and clears the bit in a lone MFMA; LLVM emits nothing
//!   between them); an `f8f6f4` MFMA without both scales by 1. A NaN scale
//!   (0xff) makes its block's products NaN.
//! - Arithmetic: each element times its scale is exact in f64, and so is
//!   each product; they are summed with C in f64 in K order and rounded
//!   once to f32, as the other MFMA here. AMD's guides state no order of
//!   accumulation or intermediate rounding for these instructions, so
//!   sums that are not exact in f64 may differ from a GPU's in the last
//!   bit. EXEC does not mask the instruction.

use super::output_at;
use crate::exec::error::ExecError;
use crate::exec::microscaling::{self, BF6, FP4, FP6, Minifloat};
use crate::exec::ocp8::{Ocp8Format, ocp8_to_f32};
use crate::inst::Inst;
use crate::op::{MatrixType, Mfma, Narrow};
use crate::wave::{LANES, PendingScales, Wave, Width};

/// Elements of A or B one lane holds: one scaling block.
const BLOCK: usize = 32;

/// The most registers one lane's block takes: 32 elements of 8 bits.
const MAX_REGS: usize = BLOCK * 8 / 32;

/// E8M0's 1.0: the scale of an MFMA without `v_mfma_ld_scale_b32`.
const UNIT_SCALE: u8 = 127;

/// `v_mfma_ld_scale_b32`: the bytes `op_sel`/`op_sel_hi` pick of each
/// lane's two sources, kept for the next instruction.
pub(crate) fn load_scales(wave: &mut Wave, inst: &Inst) {
    let pick = |i: u32| (inst.op_sel >> i & 1) | (inst.op_sel_hi >> i & 1) << 1;
    let (byte_a, byte_b) = (pick(0), pick(1));
    let byte = |operand, lane, which: u8| {
        (wave.src32(operand, lane, Width::B32) >> (8 * u32::from(which))) as u8
    };
    let a = std::array::from_fn(|lane| byte(inst.src[0], lane, byte_a));
    let b = std::array::from_fn(|lane| byte(inst.src[1], lane, byte_b));
    wave.mfma_scales = Some(Box::new(PendingScales {
        pc: inst.pc + u32::from(inst.len),
        a,
        b,
    }));
}

/// An operand's element format: a microscaling one, or OCP's fp8/bf8.
#[derive(Clone, Copy)]
enum Element {
    Mx(Minifloat),
    Ocp8(Ocp8Format),
}

impl Element {
    fn of(ty: MatrixType) -> Option<Element> {
        Some(match ty {
            MatrixType::Mx(Narrow::Fp4) => Element::Mx(FP4),
            MatrixType::Mx(Narrow::Fp6) => Element::Mx(FP6),
            MatrixType::Mx(Narrow::Bf6) => Element::Mx(BF6),
            MatrixType::OcpFp8 => Element::Ocp8(Ocp8Format::E4m3fn),
            MatrixType::OcpBf8 => Element::Ocp8(Ocp8Format::E5m2),
            _ => return None,
        })
    }

    fn bits(self) -> usize {
        match self {
            Element::Mx(format) => format.bits() as usize,
            Element::Ocp8(_) => 8,
        }
    }

    /// A code's exact value.
    fn value(self, code: u8) -> f64 {
        match self {
            Element::Mx(format) => format.value(code),
            Element::Ocp8(format) => f64::from(ocp8_to_f32(code, format)),
        }
    }
}

/// One operand's elements, `[k][row]` (row `i` of A, column `j` of B),
/// each times its lane's scale.
fn gather(wave: &Wave, inst: &Inst, source: usize, shape: Mfma, scales: &[u8; LANES]) -> Vec<f64> {
    let (ty, rows) = if source == 0 {
        (shape.a, usize::from(shape.m))
    } else {
        (shape.b, usize::from(shape.n))
    };
    let kk = usize::from(shape.k);
    let mut out = vec![0.0; kk * rows];
    let Some(format) = Element::of(ty) else {
        return out;
    };
    let bits = format.bits();
    let regs = BLOCK * bits / 32;
    // Every code's value once per operand, not once per element.
    let values: [f64; 256] = std::array::from_fn(|code| format.value(code as u8));
    let operand = inst.src[source];
    for group in 0..kk / BLOCK {
        for row in 0..rows {
            let lane = rows * group + row;
            let mut words = [0u64; MAX_REGS];
            for (r, word) in words.iter_mut().enumerate().take(regs) {
                *word = u64::from(wave.src32_at(operand, r, lane));
            }
            let scale = microscaling::scale_value(scales[lane % LANES]);
            for e in 0..BLOCK {
                let bit = e * bits;
                let (r, shift) = (bit / 32, bit % 32);
                let window = words[r] | words.get(r + 1).copied().unwrap_or(0) << 32;
                let code = ((window >> shift) & ((1 << bits) - 1)) as u8;
                out[(group * BLOCK + e) * rows + row] = values[usize::from(code)] * scale;
            }
        }
    }
    out
}

/// Runs an `f8f6f4` MFMA whose formats the decoder resolved.
pub(crate) fn run(wave: &mut Wave, inst: &Inst, shape: Mfma) -> Result<(), ExecError> {
    if wave.lanes != LANES {
        return Err(ExecError::WaveSize {
            mnemonic: inst.mnemonic,
            lanes: wave.lanes,
        });
    }
    let scales = match wave.mfma_scales.take() {
        Some(pending) if pending.pc == inst.pc && inst.imm & 1 == 1 => *pending,
        _ => PendingScales {
            pc: inst.pc,
            a: [UNIT_SCALE; LANES],
            b: [UNIT_SCALE; LANES],
        },
    };
    let (m, n) = (usize::from(shape.m), usize::from(shape.n));
    let a = gather(wave, inst, 0, shape, &scales.a);
    let b = gather(wave, inst, 1, shape, &scales.b);
    let c: Vec<f64> = (0..m * n)
        .map(|x| {
            let (reg, lane) = output_at(shape, x / n, x % n, 0);
            f64::from(f32::from_bits(wave.src32_at(inst.src[2], reg, lane)))
        })
        .collect();
    let d = products(&a, &b, c, m, n);
    let mut out = vec![0u32; shape.output_regs() * LANES];
    for (x, &sum) in d.iter().enumerate() {
        let (reg, lane) = output_at(shape, x / n, x % n, 0);
        if let Some(slot) = out.get_mut(reg * LANES + lane) {
            *slot = (sum as f32).to_bits();
        }
    }
    super::write_registers(wave, inst.dst[0], &out);
    Ok(())
}

/// `D = C + A·B` in f64, `a` as `[k][i]`, `b` as `[k][j]`, `c` and D as
/// `[i][j]`: each sum is C's, then its products in `k` order. A row of D
/// at a time, its sums independent of each other, so that the `j` loop
/// vectorizes.
fn products(a: &[f64], b: &[f64], mut c: Vec<f64>, m: usize, n: usize) -> Vec<f64> {
    for (i, sums) in c.chunks_exact_mut(n.max(1)).enumerate() {
        for (k, row) in b.chunks_exact(n.max(1)).enumerate() {
            let x = a.get(k * m + i).copied().unwrap_or(0.0);
            for (sum, &y) in sums.iter_mut().zip(row) {
                *sum += x * y;
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A product's factor as the formats give them: a signed integer of up
    /// to 15 bits times a power of two, wide enough apart that sums round
    /// in f64; now and then an infinity or a NaN.
    fn value(bits: u32) -> f64 {
        match bits >> 28 {
            0 => f64::INFINITY,
            1 => f64::NAN,
            _ => f64::from(bits as i16) * 2f64.powi((bits >> 16 & 0x7f) as i32 - 64),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        /// The row-at-a-time sums are the bits of the element-by-element
        /// fold (C, then each product in `k` order), NaN payloads aside.
        #[test]
        fn rows_of_sums_are_the_element_by_element_fold(
            shape in prop::sample::select(vec![(16usize, 16usize, 128usize), (32, 32, 64), (4, 8, 3)]),
            words in prop::collection::vec(any::<u32>(), 32 * 128 * 2 + 32 * 32),
        ) {
            let (m, n, kk) = shape;
            let (a_words, rest) = words.split_at(kk * m);
            let (b_words, c_words) = rest.split_at(kk * n);
            let a: Vec<f64> = a_words.iter().map(|&w| value(w)).collect();
            let b: Vec<f64> = b_words.iter().map(|&w| value(w)).collect();
            let c: Vec<f64> = c_words[..m * n].iter().map(|&w| value(w)).collect();
            let d = products(&a, &b, c.clone(), m, n);
            for i in 0..m {
                for j in 0..n {
                    let fold = (0..kk).fold(c[i * n + j], |acc, k| acc + a[k * m + i] * b[k * n + j]);
                    let got = d[i * n + j];
                    prop_assert!(
                        fold.to_bits() == got.to_bits() || (fold.is_nan() && got.is_nan()),
                        "D[{i}][{j}]: {got:e}, the fold {fold:e}"
                    );
                }
            }
        }
    }
}
