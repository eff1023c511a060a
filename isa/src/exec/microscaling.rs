//! The OCP Microscaling (MX v1.0) element formats gfx950 (CDNA4) computes
//! with, and their E8M0 scale: FP4 (E2M1), FP6 (E2M3) and BF6 (E3M2), as
//! `v_cvt_scalef32_*` (`exec::scaled_convert`) and the `f8f6f4` MFMA
//! (`exec::mfma::scaled`) read and write them.
//!
//! - The formats have no infinities and no NaN; every code is a finite
//!   value, and -0 exists (the sign bit with a zero magnitude). Biases: 1
//!   (E2M1, E2M3) and 3 (E3M2); the largest magnitudes 6, 7.5 and 28.
//! - E8M0 (a scale): the biased exponent alone, `2^(e - 127)`; 0xff is the
//!   NaN (OCP MX v1.0, 5.4.1), and a NaN scale makes every element of its
//!   block NaN.
//! - Encoding (AMD's host model of the gfx950 conversions, `from_float` and
//!   `from_float_sr` of `amd_hip_ocp_host.hpp` in HIP, which state its
//!   overflow behaviour as the hardware's): the value is divided by the
//!   scale exactly, then rounded once at the quantum of its binade (that of
//!   the smallest normal below it), to nearest even or stochastically;
//!   results past the largest magnitude, infinities and NaNs saturate to
//!   the largest magnitude of their sign (these formats have nothing else
//!   to give), as does a NaN scale. A result that rounds to zero keeps the
//!   sign.
//! - Stochastic rounding (the same model): the source's mantissa bits
//!   below the kept ones (`w` of them: the source format's mantissa bits
//!   minus the target's, after a value below the smallest normal was
//!   shifted to the denormal quantum, losing what it shifted out) are added
//!   to the top `w` bits of the 32 random bits, and a carry out of them
//!   rounds the magnitude up.

/// A microscaling element format: a sign, `exponent_bits`, `mantissa_bits`,
/// no infinities or NaN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Minifloat {
    exponent_bits: u32,
    mantissa_bits: u32,
    bias: i32,
}

/// FP4: E2M1, bias 1 (0.5 ... 6).
pub(crate) const FP4: Minifloat = Minifloat {
    exponent_bits: 2,
    mantissa_bits: 1,
    bias: 1,
};
/// FP6: E2M3, bias 1 (0.125 ... 7.5).
pub(crate) const FP6: Minifloat = Minifloat {
    exponent_bits: 2,
    mantissa_bits: 3,
    bias: 1,
};
/// BF6: E3M2, bias 3 (0.0625 ... 28).
pub(crate) const BF6: Minifloat = Minifloat {
    exponent_bits: 3,
    mantissa_bits: 2,
    bias: 3,
};

/// E8M0's NaN.
pub(crate) const SCALE_NAN: u8 = 0xff;
/// E8M0's bias: the code of 1.0.
pub(crate) const SCALE_BIAS: i32 = 127;

/// How an encoding rounds.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Round {
    /// To nearest, ties to even.
    NearestEven,
    /// Stochastically: the random word, and the source format's mantissa
    /// bits (f32 23, f16 10, bf16 7).
    Stochastic { random: u32, source_mantissa: u32 },
}

impl Minifloat {
    /// Bits of a code.
    pub(crate) fn bits(self) -> u32 {
        1 + self.exponent_bits + self.mantissa_bits
    }

    /// The sign bit of a code.
    fn sign_bit(self) -> u8 {
        1 << (self.exponent_bits + self.mantissa_bits)
    }

    /// The largest magnitude's code (every bit but the sign).
    fn max_code(self) -> u8 {
        self.sign_bit() - 1
    }

    /// The exact value of `code` (its low [`Minifloat::bits`] bits).
    pub(crate) fn value(self, code: u8) -> f64 {
        let m = self.mantissa_bits;
        let field = i32::from(code >> m) & ((1 << self.exponent_bits) - 1);
        let mantissa = f64::from(code & ((1 << m) - 1));
        let quantum = |e: i32| 2f64.powi(e - m as i32);
        let magnitude = if field == 0 {
            mantissa * quantum(1 - self.bias)
        } else {
            (mantissa + f64::from(1u32 << m)) * quantum(field - self.bias)
        };
        if code & self.sign_bit() != 0 {
            -magnitude
        } else {
            magnitude
        }
    }

    /// `x` (exact: an f64 holding the source value already divided by its
    /// scale) as a code, rounded as `round` says, saturating.
    pub(crate) fn encode(self, x: f64, round: Round) -> u8 {
        let sign = if x.is_sign_negative() {
            self.sign_bit()
        } else {
            0
        };
        let a = x.abs();
        if a.is_nan() || a.is_infinite() {
            return sign | self.max_code();
        }
        if a == 0.0 {
            return sign;
        }
        let m = self.mantissa_bits as i32;
        let min_exponent = 1 - self.bias;
        let max_exponent = (1 << self.exponent_bits) - 1 - self.bias;
        // The binade of `a` (the smallest normal's below it).
        let exponent = binade(a).max(min_exponent);
        if exponent > max_exponent {
            return sign | self.max_code();
        }
        // `a` in units of its binade's quantum: exact (a power-of-two
        // scaling of a value with at most 53 significant bits).
        let units = a * 2f64.powi(m - exponent);
        let kept = units.floor();
        let rest = units - kept;
        let up = match round {
            Round::NearestEven => rest > 0.5 || (rest == 0.5 && kept % 2.0 == 1.0),
            Round::Stochastic {
                random,
                source_mantissa,
            } => {
                let w = source_mantissa.saturating_sub(self.mantissa_bits).min(31);
                let fraction = (rest * f64::from(1u32 << w)).floor() as u64;
                // The top `w` bits (none when `w` is 0).
                let added = random.checked_shr(32 - w).map_or(0, u64::from);
                w > 0 && fraction + added >= 1u64 << w
            }
        };
        // The code's magnitude bits are ordered as the magnitudes, so
        // rounding up is adding one (into the next binade at its top).
        let magnitude = (((exponent - min_exponent) as u64) << m) + kept as u64 + u64::from(up);
        if magnitude > u64::from(self.max_code()) {
            sign | self.max_code()
        } else {
            sign | magnitude as u8
        }
    }
}

/// `floor(log2(a))` of a finite positive f64.
fn binade(a: f64) -> i32 {
    let bits = a.to_bits();
    let field = (bits >> 52 & 0x7ff) as i32;
    if field == 0 {
        // An f64 denormal (not reached from the instructions' values).
        -1023 - (bits.leading_zeros() as i32 - 12)
    } else {
        field - 1023
    }
}

/// An E8M0 scale's value (NaN for 0xff).
pub(crate) fn scale_value(e8m0: u8) -> f64 {
    if e8m0 == SCALE_NAN {
        f64::NAN
    } else {
        2f64.powi(i32::from(e8m0) - SCALE_BIAS)
    }
}

/// The E8M0 scale of a `v_cvt_scalef32_*` scale operand: the f32's biased
/// exponent field (its sign and mantissa are not looked at), so 0xff (an
/// infinity or NaN) is the NaN scale and a zero or denormal f32 the
/// smallest, 2^-127, as MLIR's conversion of `f8E8M0FNU` to f32 produces.
pub(crate) fn scale_of_f32(bits: u32) -> u8 {
    (bits >> 23) as u8
}

/// `x / 2^(e8m0 - 127)` exactly (NaN for the NaN scale).
pub(crate) fn unscale(x: f64, e8m0: u8) -> f64 {
    if e8m0 == SCALE_NAN {
        f64::NAN
    } else {
        x * 2f64.powi(SCALE_BIAS - i32::from(e8m0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_and_smallest_magnitudes() {
        for (format, max, min) in [(FP4, 6.0, 0.5), (FP6, 7.5, 0.125), (BF6, 28.0, 0.0625)] {
            assert_eq!(format.value(format.max_code()), max);
            assert_eq!(format.value(1), min);
            assert_eq!(format.value(format.sign_bit() | 1), -min);
            assert_eq!(format.encode(1e30, Round::NearestEven), format.max_code());
            assert_eq!(
                format.encode(f64::NAN, Round::NearestEven),
                format.max_code()
            );
            assert_eq!(
                format.encode(f64::NEG_INFINITY, Round::NearestEven),
                format.sign_bit() | format.max_code()
            );
        }
    }

    #[test]
    fn every_code_round_trips() {
        for format in [FP4, FP6, BF6] {
            for code in 0..1u8 << format.bits() {
                let x = format.value(code);
                assert_eq!(
                    format.encode(x, Round::NearestEven),
                    code,
                    "{format:?} {code}"
                );
                for random in [0, u32::MAX] {
                    let round = Round::Stochastic {
                        random,
                        source_mantissa: 23,
                    };
                    assert_eq!(format.encode(x, round), code, "exact values never round");
                }
            }
        }
    }

    #[test]
    fn stochastic_rounding_carries_out_of_the_dropped_bits() {
        // 1.25 in FP4 lies halfway between 1.0 (code 2) and 1.5 (code 3):
        // its dropped f32 bits are 0b1000..., 22 of them.
        let sr = |random| {
            FP4.encode(
                1.25,
                Round::Stochastic {
                    random,
                    source_mantissa: 23,
                },
            )
        };
        assert_eq!(sr(0), 2);
        assert_eq!(sr(0x7fff_ffff), 2); // top 22 bits 0x1fffff: one short
        assert_eq!(sr(0x8000_0000), 3);
        assert_eq!(sr(u32::MAX), 3);
    }

    #[test]
    fn scales() {
        assert_eq!(scale_value(127), 1.0);
        assert_eq!(scale_value(0), 2f64.powi(-127));
        assert!(scale_value(SCALE_NAN).is_nan());
        assert_eq!(scale_of_f32(2.0f32.to_bits()), 128);
        assert_eq!(scale_of_f32(f32::INFINITY.to_bits()), SCALE_NAN);
        assert_eq!(unscale(4.0, 128), 2.0);
    }
}
