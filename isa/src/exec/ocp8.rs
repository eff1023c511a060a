//! OCP's 8-bit floats (the Open Compute Project's "OFP8" formats), which
//! gfx950 (CDNA4) and GFX12 (RDNA4) take where gfx942 took its FNUZ ones
//! (`exec::fp8`): their conversions (`v_cvt_*fp8*`, `*bf8*`), their fp8
//! MFMA and WMMA inputs. AMD's CDNA4 and RDNA4 ISA guides call E4M3FN
//! "FP8" and E5M2 "BF8".
//!
//! - E4M3FN: 4 exponent bits (bias 7), 3 mantissa bits; no infinities;
//!   0x7f and 0xff are the NaNs; the largest magnitude 448 (0x7e); a -0.
//! - E5M2: 5 exponent bits (bias 15), 2 mantissa bits, IEEE-like:
//!   exponent field 31 holds ±infinity (mantissa 0: 0x7c, 0xfc) and NaNs;
//!   the largest magnitude 57344 (0x7b); a -0.
//!
//! Both have denormals. From f32 (`f32_to_ocp8`), as AMD's host model of
//! these conversions (`from_float` and `from_float_sr` in HIP's
//! `amd_hip_ocp_host.hpp`) and the OCP 8-bit float specification define
//! them:
//!
//! - NaN becomes the format's NaN of its sign (E4M3FN 0x7f, E5M2 0x7e);
//!   zeros and values that round to zero keep their sign.
//! - f32 values (denormals kept) round once from their exact value, at the
//!   quantum of the result's binade, by `exec::fp8::rounded_magnitude`
//!   (gfx942's rule, OCP's bias).
//! - Non-saturating (no clamp): a rounded magnitude past the largest, and
//!   an infinity, is the NaN (E4M3FN) or the infinity (E5M2) of its sign.
//!   With VOP3's clamp bit the conversion saturates (OCP's "saturating
//!   mode"): those become ±largest; NaN stays NaN.
//! - Stochastic rounding adds the random word's high `23 - m` bits (m: the
//!   mantissa bits) to the f32 mantissa bits below the kept ones and
//!   truncates, as `from_float_sr` does (`seed >> (32 - 23 + m)`; gfx942's
//!   model, `exec::fp8`, takes the low bits instead); a value below the
//!   smallest normal is first shifted to the denormal quantum.

use super::fp8::{Rounding, rounded_magnitude};

/// One of OCP's 8-bit float formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ocp8Format {
    /// E4M3FN ("fp8"): bias 7, no infinities, NaN 0x7f/0xff.
    E4m3fn,
    /// E5M2 ("bf8"): bias 15, infinities and NaNs as IEEE's.
    E5m2,
}

impl Ocp8Format {
    /// The exponent field's width.
    fn exponent_bits(self) -> u32 {
        match self {
            Ocp8Format::E4m3fn => 4,
            Ocp8Format::E5m2 => 5,
        }
    }

    /// The mantissa field's width.
    fn mantissa_bits(self) -> u32 {
        7 - self.exponent_bits()
    }

    /// The exponent bias: IEEE's, `2^(e-1) - 1`.
    fn bias(self) -> i32 {
        (1 << (self.exponent_bits() - 1)) - 1
    }

    /// The largest finite magnitude's low seven bits.
    fn largest(self) -> u8 {
        match self {
            Ocp8Format::E4m3fn => 0x7e,
            Ocp8Format::E5m2 => 0x7b,
        }
    }

    /// The NaN's low seven bits that conversions from f32 write.
    fn nan(self) -> u8 {
        match self {
            Ocp8Format::E4m3fn => 0x7f,
            Ocp8Format::E5m2 => 0x7e,
        }
    }

    /// What an overflow and an infinity become without saturation: the
    /// NaN (E4M3FN) or the infinity (E5M2), as low seven bits.
    fn overflow(self) -> u8 {
        match self {
            Ocp8Format::E4m3fn => 0x7f,
            Ocp8Format::E5m2 => 0x7c,
        }
    }
}

/// The f32 quiet NaN's bits (its sign apart).
const F32_QUIET_NAN: u32 = 0x7fc0_0000;

/// An OCP 8-bit float as f32, exactly (every value of both formats is an
/// f32): a NaN byte is f32's quiet NaN of the byte's sign, E5M2's
/// infinities are f32's.
pub(crate) fn ocp8_to_f32(byte: u8, format: Ocp8Format) -> f32 {
    let sign = u32::from(byte >> 7) << 31;
    let magnitude = byte & 0x7f;
    let m = format.mantissa_bits();
    let special = match format {
        Ocp8Format::E4m3fn => magnitude == 0x7f,
        Ocp8Format::E5m2 => magnitude >= 0x7c,
    };
    if special {
        let bits = if magnitude == 0x7c {
            f32::INFINITY.to_bits()
        } else {
            F32_QUIET_NAN
        };
        return f32::from_bits(sign | bits);
    }
    let field = i32::from(magnitude >> m);
    let fraction = u32::from(magnitude) & ((1 << m) - 1);
    // value = significand * 2^(exponent - bias - m), the significand with
    // its implicit bit when normal; both are exact in f32.
    let (significand, exponent) = if field == 0 {
        (fraction, 1)
    } else {
        (fraction | 1 << m, field)
    };
    let scale = exponent - format.bias() - m as i32;
    let value = significand as f32 * 2f32.powi(scale);
    f32::from_bits(sign | value.to_bits())
}

/// `x` as an OCP 8-bit float, rounded as `rounding` says; an overflow or
/// infinity is the format's NaN (E4M3FN) or infinity (E5M2) or, with
/// `saturate`, its largest magnitude, of `x`'s sign.
pub(crate) fn f32_to_ocp8(x: f32, format: Ocp8Format, rounding: Rounding, saturate: bool) -> u8 {
    let bits = x.to_bits();
    let sign = ((bits >> 31) as u8) << 7;
    if x.is_nan() {
        return sign | format.nan();
    }
    let overflow = sign
        | if saturate {
            format.largest()
        } else {
            format.overflow()
        };
    if x.is_infinite() {
        return overflow;
    }
    // The random word's high bits, aligned to the dropped ones.
    let random = match rounding {
        Rounding::NearestEven => None,
        Rounding::Stochastic(random) => Some(random >> (9 + format.mantissa_bits())),
    };
    let magnitude = rounded_magnitude(bits, format.exponent_bits(), format.bias(), random);
    if magnitude > u64::from(format.largest()) {
        overflow
    } else {
        sign | magnitude as u8
    }
}

#[cfg(test)]
mod tests;
