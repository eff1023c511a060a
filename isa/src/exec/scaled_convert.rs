//! gfx950's scaled conversions between f32, f16 or bf16 and the
//! microscaling formats FP4, FP6 and BF6 (`v_cvt_scalef32_*`): each
//! element is divided (to the narrow format) or multiplied (from it) by a
//! power of two, the scale, given as an f32 whose exponent field is read as
//! E8M0 ([`microscaling::scale_of_f32`]). The operands, as LLVM 22 defines
//! them (`llvm-mc-22`; `op_sel` is VOP3's, bits 14:11 of the first dword):
//!
//! - `v_cvt_scalef32_pk_{f32,f16,bf16}_fp4 D, S0, SCALE`: the two FP4 of
//!   byte `op_sel[1:0]` of S0 (low nibble first) to D's two elements (f32:
//!   a register pair; f16, bf16: one register, element 0 low).
//! - `v_cvt_scalef32_pk_fp4_f32 D, S0, S1, SCALE` and
//!   `v_cvt_scalef32_pk_fp4_{f16,bf16} D, S0, SCALE` (S0's two halves):
//!   two FP4 into byte `op_sel[3:2]` of D (element 0 the low nibble), D's
//!   other bytes kept. The `_sr_` forms take the random bits before the
//!   scale: `v_cvt_scalef32_sr_pk_fp4_f32 D, S0[2], RANDOM, SCALE`,
//!   `v_cvt_scalef32_sr_pk_fp4_{f16,bf16} D, S0, RANDOM, SCALE`.
//! - FP6 and BF6 convert 32 elements, packed six bits each into six
//!   registers (element `i` at bits `6i` of the 192, an element may span
//!   two registers): `v_cvt_scalef32_pk32_{f32,f16,bf16}_{fp6,bf6} D, S0[6],
//!   SCALE` (D: 32 f32 registers or 16 of two halves);
//!   `v_cvt_scalef32_2xpk16_{fp6,bf6}_f32 D[6], S0[16], S1[16], SCALE`
//!   (elements 0-15 from S0, 16-31 from S1);
//!   `v_cvt_scalef32_pk32_{fp6,bf6}_{f16,bf16} D[6], S0[16], SCALE`;
//!   `v_cvt_scalef32_sr_pk32_{fp6,bf6}_f32 D[6], S0[32], RANDOM, SCALE` and
//!   `_sr_pk32_{fp6,bf6}_{f16,bf16} D[6], S0[16], RANDOM, SCALE`. One random
//!   word rounds every element of the lane.
//!
//! Arithmetic ([`microscaling`] gives the formats): to the narrow format,
//! rounded once from the exact quotient, saturating (NaN, infinities, a NaN
//! scale: the largest magnitude of the source's sign); from it, the exact
//! product rounded once to the wide format (to nearest even; past its range
//! an infinity), a NaN scale giving a quiet NaN of the element's sign (f32
//! 0x7fc00000, f16 and bf16 0x7fff). Denormals are kept; MODE's denormal
//! and rounding fields are not consulted (AMD's host model of these
//! instructions has neither). Active lanes only.

use crate::exec::float::{f16_to_f32, f32_to_f16};
use crate::exec::gfx950::f32_to_bf16;
use crate::exec::lanes::active;
use crate::exec::microscaling::{self, BF6, FP4, FP6, Minifloat, Round, SCALE_NAN};
use crate::inst::Inst;
use crate::op::{Narrow, ScaledCvt, Wide};
use crate::wave::{Wave, Width};

/// Elements of one FP6/BF6 conversion.
const PACKED32: usize = 32;
/// Registers that hold 32 six-bit elements.
const SIX_BIT_REGS: usize = 6;

/// The format of a [`Narrow`].
fn format(narrow: Narrow) -> Minifloat {
    match narrow {
        Narrow::Fp4 => FP4,
        Narrow::Fp6 => FP6,
        Narrow::Bf6 => BF6,
    }
}

/// Mantissa bits of a wide format (stochastic rounding's source bits).
fn mantissa_bits(wide: Wide) -> u32 {
    match wide {
        Wide::F32 => 23,
        Wide::F16 => 10,
        Wide::Bf16 => 7,
    }
}

/// A wide element's value (`bits` its low 32 or 16 bits), exactly.
fn wide_value(wide: Wide, bits: u32) -> f64 {
    match wide {
        Wide::F32 => f64::from(f32::from_bits(bits)),
        Wide::F16 => f64::from(f16_to_f32(bits as u16)),
        Wide::Bf16 => f64::from(f32::from_bits(bits << 16)),
    }
}

/// `x`, exact, rounded to the wide format's bits; `nan_sign` for a NaN
/// scale.
fn wide_bits(wide: Wide, x: f64) -> u32 {
    if x.is_nan() {
        let negative = x.is_sign_negative();
        return match wide {
            Wide::F32 => 0x7fc0_0000 | u32::from(negative) << 31,
            Wide::F16 | Wide::Bf16 => 0x7fff | u32::from(negative) << 15,
        };
    }
    // Every product of a narrow value (at most 4 significant bits) and a
    // power of two is exact in f32 or beyond its range, so rounding to f32
    // first does not round twice.
    let single = x as f32;
    match wide {
        Wide::F32 => single.to_bits(),
        Wide::F16 => u32::from(f32_to_f16(single)),
        Wide::Bf16 => u32::from(f32_to_bf16(single)),
    }
}

/// One element to the narrow format.
fn encode(cvt: ScaledCvt, bits: u32, scale: u8, random: u32) -> u8 {
    let x = wide_value(cvt.wide, bits);
    let quotient = if scale == SCALE_NAN {
        f64::NAN.copysign(x)
    } else {
        microscaling::unscale(x, scale)
    };
    let round = if cvt.stochastic {
        Round::Stochastic {
            random,
            source_mantissa: mantissa_bits(cvt.wide),
        }
    } else {
        Round::NearestEven
    };
    format(cvt.narrow).encode(quotient, round)
}

/// One element from the narrow format, as the wide format's bits.
fn decode(cvt: ScaledCvt, code: u8, scale: u8) -> u32 {
    let x = format(cvt.narrow).value(code);
    let product = if scale == SCALE_NAN {
        f64::NAN.copysign(x)
    } else {
        x * microscaling::scale_value(scale)
    };
    wide_bits(cvt.wide, product)
}

/// Runs a `v_cvt_scalef32_*` conversion on the active lanes.
pub(crate) fn run(wave: &mut Wave, inst: &Inst, cvt: ScaledCvt) {
    let lanes: Vec<usize> = active(wave.exec() & wave.lane_mask()).collect();
    // The scale is the last source; the random bits, if any, come before it.
    let (scale_src, random_src) = match (cvt.narrow, cvt.to_narrow, cvt.stochastic) {
        (_, true, true) => (2, Some(1)),
        (Narrow::Fp4, true, false) if cvt.wide == Wide::F32 => (2, None),
        (Narrow::Fp6 | Narrow::Bf6, true, false) if cvt.wide == Wide::F32 => (2, None),
        _ => (1, None),
    };
    for lane in lanes {
        let scale = microscaling::scale_of_f32(wave.src32(inst.src[scale_src], lane, Width::B32));
        let random = random_src.map_or(0, |i| wave.src32(inst.src[i], lane, Width::B32));
        // Register `r` of source `i` in this lane.
        let reg = |i: usize, r: usize| wave.src32_at(inst.src[i], r, lane);
        match (cvt.narrow, cvt.to_narrow) {
            (Narrow::Fp4, false) => {
                let byte = reg(0, 0) >> (8 * u32::from(inst.op_sel & 3)) & 0xff;
                let [low, high] = [byte & 0xf, byte >> 4].map(|c| decode(cvt, c as u8, scale));
                if cvt.wide == Wide::F32 {
                    wave.set_vreg(inst.dst[0], 0, lane, low);
                    wave.set_vreg(inst.dst[0], 1, lane, high);
                } else {
                    wave.set_vreg(inst.dst[0], 0, lane, low | high << 16);
                }
            }
            (Narrow::Fp4, true) => {
                let elements = match (cvt.wide, cvt.stochastic) {
                    (Wide::F32, false) => [reg(0, 0), reg(1, 0)],
                    (Wide::F32, true) => [reg(0, 0), reg(0, 1)],
                    _ => [reg(0, 0) & 0xffff, reg(0, 0) >> 16],
                };
                let [low, high] = elements.map(|e| u32::from(encode(cvt, e, scale, random)));
                let shift = 8 * u32::from(inst.op_sel >> 2 & 3);
                let old = wave.vreg(inst.dst[0], 0, lane);
                let d = old & !(0xff << shift) | (low | high << 4) << shift;
                wave.set_vreg(inst.dst[0], 0, lane, d);
            }
            (_, false) => {
                let words: Vec<u32> = (0..SIX_BIT_REGS).map(|r| reg(0, r)).collect();
                let codes = unpack6(&words);
                for (i, &code) in codes.iter().enumerate() {
                    let value = decode(cvt, code, scale);
                    if cvt.wide == Wide::F32 {
                        wave.set_vreg(inst.dst[0], i, lane, value);
                    } else {
                        let r = i / 2;
                        let old = if i % 2 == 0 {
                            0
                        } else {
                            wave.vreg(inst.dst[0], r, lane)
                        };
                        wave.set_vreg(inst.dst[0], r, lane, old | value << (16 * (i % 2)));
                    }
                }
            }
            (_, true) => {
                let elements: Vec<u32> = (0..PACKED32)
                    .map(|i| match (cvt.wide, cvt.stochastic) {
                        (Wide::F32, false) => reg(i / 16, i % 16),
                        (Wide::F32, true) => reg(0, i),
                        _ => reg(0, i / 2) >> (16 * (i % 2)) & 0xffff,
                    })
                    .collect();
                let codes: Vec<u8> = elements
                    .iter()
                    .map(|&e| encode(cvt, e, scale, random))
                    .collect();
                for (r, word) in pack6(&codes).into_iter().enumerate() {
                    wave.set_vreg(inst.dst[0], r, lane, word);
                }
            }
        }
    }
}

/// 32 six-bit codes from six registers: code `i` is bits `6i..6i + 6` of
/// the registers' 192 bits (register 0 lowest).
pub(crate) fn unpack6(words: &[u32]) -> [u8; PACKED32] {
    std::array::from_fn(|i| {
        let bit = 6 * i;
        let (r, shift) = (bit / 32, bit % 32);
        let low = u64::from(words.get(r).copied().unwrap_or(0));
        let high = u64::from(words.get(r + 1).copied().unwrap_or(0));
        ((low | high << 32) >> shift & 0x3f) as u8
    })
}

/// The inverse of [`unpack6`].
pub(crate) fn pack6(codes: &[u8]) -> [u32; SIX_BIT_REGS] {
    let mut words = [0u64; SIX_BIT_REGS + 1];
    for (i, &code) in codes.iter().take(PACKED32).enumerate() {
        let bit = 6 * i;
        let (r, shift) = (bit / 32, bit % 32);
        let placed = u64::from(code & 0x3f) << shift;
        words[r] |= placed & 0xffff_ffff;
        words[r + 1] |= placed >> 32;
    }
    std::array::from_fn(|r| words[r] as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_bit_codes_pack_without_gaps() {
        let codes: Vec<u8> = (0..32).map(|i| (i * 7 + 3) as u8 & 0x3f).collect();
        let words = pack6(&codes);
        assert_eq!(unpack6(&words).to_vec(), codes);
        // Code 5 is bits 30..36: two bits in register 0, four in register 1.
        let mut one = [0u8; 32];
        one[5] = 0b11_1111;
        assert_eq!(pack6(&one), [0xc000_0000, 0xf, 0, 0, 0, 0]);
    }
}
