//! gfx942's conversions from f32 to its 8-bit floats: fp8 is E4M3FNUZ and
//! bf8 E5M2FNUZ (biases 8 and 16, no infinities, no -0, 0x80 the only
//! NaN), as `v_cvt_pk_fp8_f32`, `v_cvt_pk_bf8_f32` (to nearest even) and
//! `v_cvt_sr_fp8_f32`, `v_cvt_sr_bf8_f32` (stochastic) compute them.
//!
//! - NaN becomes 0x80; a zero result is 0x00 whatever the sign (-0 and
//!   negative values that round to zero included), since 0x80 is the NaN.
//! - Denormals of the 8-bit format are kept; f32 values are rounded once,
//!   from their exact value, at the quantum of the result's binade (that
//!   of the smallest normal below it).
//! - Overflow (a rounded magnitude above 0x7f: 240 for fp8, 57344 for bf8)
//!   and infinities become the NaN: the hardware does not saturate.
//!   MLIR's ArithToAMDGPU lowering of `arith.truncf` to `f8E4M3FNUZ`/
//!   `f8E5M2FNUZ` for gfx942 clamps finite inputs itself first, "so that
//!   subsequent conversion instructions don't overflow those out-of-range
//!   values to NaN" (`clampInput`, its `saturateFP8Truncf` option), as do
//!   HIP's and RCCL's fp8 types (a `v_med3_f32` to ±240 before
//!   `v_cvt_pk_fp8_f32`). With VOP3's clamp bit the result saturates to
//!   ±max instead (NaN still 0x80): the bit's meaning on the later chips'
//!   forms of these instructions; LLVM gives gfx942's forms no clamp
//!   operand, so no compiler sets it there.
//! - Stochastic rounding adds the random bits below the kept ones and
//!   truncates, as AMD's software model of the instruction does (the
//!   `stoch` path of `cast_to_f8` in HIP's and hipBLASLt's fp8 headers):
//!   the low `23 - m` bits of the random word (m: the format's mantissa
//!   bits; 20 for fp8, 21 for bf8) are added to the f32 mantissa bits
//!   below the kept ones, after a value below the smallest normal has been
//!   shifted to the denormal quantum (the bits shifted out are lost), and
//!   a carry out of them rounds the magnitude up.

/// How a conversion rounds.
#[derive(Clone, Copy)]
pub(crate) enum Rounding {
    /// To nearest, ties to even.
    NearestEven,
    /// Stochastically, with these random bits.
    Stochastic(u32),
}

/// The NaN (and only value with the sign bit and nothing else).
const NAN: u8 = 0x80;
/// The largest magnitude's bits in both formats.
const MAX: u8 = 0x7f;

/// `x` as an E4M3FNUZ (`exponent_bits` 4) or E5M2FNUZ (5) byte, rounded
/// as `rounding` says; an overflow is the NaN or, with `saturate`, the
/// largest magnitude of `x`'s sign.
pub(crate) fn f32_to_fnuz8(x: f32, exponent_bits: u32, rounding: Rounding, saturate: bool) -> u8 {
    let bits = x.to_bits();
    if x.is_nan() {
        return NAN;
    }
    let sign = ((bits >> 31) as u8) << 7;
    let overflow = if saturate { sign | MAX } else { NAN };
    if x.is_infinite() {
        return overflow;
    }
    let bias = 1i32 << (exponent_bits - 1);
    // The random word's low bits, those below the kept ones.
    let random = match rounding {
        Rounding::Stochastic(random) => Some(random),
        Rounding::NearestEven => None,
    };
    let magnitude = rounded_magnitude(bits, exponent_bits, bias, random);
    if magnitude > u64::from(MAX) {
        overflow
    } else if magnitude == 0 {
        0
    } else {
        sign | magnitude as u8
    }
}

/// The magnitude of the finite f32 `bits` in an 8-bit float of
/// `exponent_bits` exponent bits (the rest of seven mantissa bits) and
/// this `bias`, as the byte's low seven bits would hold it, unbounded
/// above (their order is the magnitudes' order, so rounding up is adding
/// one): to nearest even, or with `random`'s low `23 - mantissa bits` bits
/// (aligned to the f32 mantissa bits below the kept ones of a normal
/// result) added to the dropped bits and truncated.
/// Shared by gfx942's FNUZ formats and OCP's (`exec::ocp8`).
pub(super) fn rounded_magnitude(
    bits: u32,
    exponent_bits: u32,
    bias: i32,
    random: Option<u32>,
) -> u64 {
    // Kept mantissa bits, and the f32 mantissa bits below them for a
    // result in a normal binade.
    let kept_bits = 7 - exponent_bits;
    let dropped = 23 - kept_bits;
    let field = (bits >> 23 & 0xff) as i32;
    let (significand, exponent) = if field == 0 {
        (bits & 0x7f_ffff, -126)
    } else {
        (bits & 0x7f_ffff | 0x80_0000, field - 127)
    };
    // The result's biased exponent if it is normal; below 1, the further
    // shift to the denormal quantum (past 40 every bit of a 24-bit
    // significand is dropped, which is all that matters).
    let target = exponent + bias;
    let shift = (1 - target).clamp(0, 40) as u32;
    let width = dropped + shift;
    let significand = u64::from(significand);
    let kept = significand >> width;
    let fraction = significand & ((1u64 << width) - 1);
    // The magnitude truncated.
    let truncated = (((target.max(1) - 1) as u64) << kept_bits) + kept;
    let up = match random {
        None => {
            let half = 1u64 << (width - 1);
            fraction > half || (fraction == half && truncated & 1 == 1)
        }
        Some(random) => {
            let mask = (1u64 << dropped) - 1;
            (fraction >> shift) + (u64::from(random) & mask) > mask
        }
    };
    truncated + u64::from(up)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp8(x: f32) -> u8 {
        f32_to_fnuz8(x, 4, Rounding::NearestEven, false)
    }

    #[test]
    fn round_trips_every_byte() {
        for exponent_bits in [4, 5] {
            for byte in 0..=255u8 {
                let x = crate::exec::mfma::fnuz8(byte, exponent_bits) as f32;
                let back = f32_to_fnuz8(x, exponent_bits, Rounding::NearestEven, false);
                assert_eq!(
                    back, byte,
                    "{byte:#04x} ({x}) with {exponent_bits} exponent bits"
                );
                for random in [0, u32::MAX] {
                    let sr = f32_to_fnuz8(x, exponent_bits, Rounding::Stochastic(random), false);
                    assert_eq!(sr, byte, "{byte:#04x}: exact values never round");
                }
            }
        }
    }

    #[test]
    fn edges() {
        assert_eq!(fp8(-0.0), 0);
        assert_eq!(fp8(f32::INFINITY), NAN);
        assert_eq!(fp8(247.9), MAX);
        assert_eq!(fp8(248.0), NAN);
        assert_eq!(f32_to_fnuz8(-1e9, 4, Rounding::NearestEven, true), 0xff);
        assert_eq!(f32_to_fnuz8(f32::NAN, 4, Rounding::NearestEven, true), NAN);
        assert_eq!(fp8(f32::from_bits(1)), 0);
    }
}
