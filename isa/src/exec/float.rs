//! Float helpers: half-precision conversions, VOP3 input and output
//! modifiers, and the hardware's definitions where Rust's differ.

use crate::inst::Inst;

/// An f16's bits as f32 (exact).
pub(crate) fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1f);
    let mant = u32::from(h & 0x3ff);
    let bits = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: normalize.
            let shift = m.leading_zeros() - 21;
            let m = (m << shift) & 0x3ff;
            sign | ((127 - 15 - shift + 1) << 23) | (m << 13)
        }
        (0x1f, 0) => sign | 0x7f80_0000,
        (0x1f, m) => sign | 0x7fc0_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// An f32 rounded to the nearest f16, ties to even.
pub(crate) fn f32_to_f16(f: f32) -> u16 {
    let bits = f.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let mant = bits & 0x7f_ffff;
    if exp == 0xff {
        return sign
            | 0x7c00
            | if mant != 0 {
                0x200 | (mant >> 13) as u16
            } else {
                0
            };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rest = m & ((1u32 << shift) - 1);
        let mut out = m >> shift;
        if rest > half || (rest == half && out & 1 == 1) {
            out += 1;
        }
        return sign | out as u16;
    }
    let mut out = ((e as u32) << 10) | (mant >> 13);
    let rest = mant & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && out & 1 == 1) {
        out += 1;
    }
    sign | out as u16
}

/// Source `i`'s VOP3 `abs` and `neg` applied to an f32's bits.
pub(crate) fn modifiers32(bits: u32, inst: &Inst, i: u32) -> f32 {
    let mut bits = bits;
    if inst.abs >> i & 1 == 1 {
        bits &= 0x7fff_ffff;
    }
    if inst.neg >> i & 1 == 1 {
        bits ^= 0x8000_0000;
    }
    f32::from_bits(bits)
}

/// Source `i`'s VOP3 `abs` and `neg` applied to an f64's bits.
pub(crate) fn modifiers64(bits: u64, inst: &Inst, i: u32) -> f64 {
    let mut bits = bits;
    if inst.abs >> i & 1 == 1 {
        bits &= !(1 << 63);
    }
    if inst.neg >> i & 1 == 1 {
        bits ^= 1 << 63;
    }
    f64::from_bits(bits)
}

/// Source `i`'s `abs` and `neg` applied to an f16's bits.
pub(crate) fn modifiers16(bits: u16, abs: bool, neg: bool) -> f32 {
    let mut bits = bits;
    if abs {
        bits &= 0x7fff;
    }
    if neg {
        bits ^= 0x8000;
    }
    f16_to_f32(bits)
}

/// The VOP3 output modifier and clamp applied to an f32 result.
pub(crate) fn output32(value: f32, inst: &Inst) -> f32 {
    let v = match inst.omod {
        1 => value * 2.0,
        2 => value * 4.0,
        3 => value * 0.5,
        _ => value,
    };
    if inst.clamp { clamp01(v) } else { v }
}

/// The output modifier and clamp applied to an f64 result.
pub(crate) fn output64(value: f64, inst: &Inst) -> f64 {
    let v = match inst.omod {
        1 => value * 2.0,
        2 => value * 4.0,
        3 => value * 0.5,
        _ => value,
    };
    if inst.clamp {
        if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) }
    } else {
        v
    }
}

/// Clamp to [0, 1]; NaN clamps to 0.
pub(crate) fn clamp01(v: f32) -> f32 {
    if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) }
}

/// `v_fract`: `x - floor(x)`, kept below 1.0.
pub(crate) fn fract32(x: f32) -> f32 {
    if x.is_nan() {
        return x;
    }
    if x.is_infinite() {
        return f32::NAN;
    }
    (x - x.floor()).min(f32::from_bits(0x3f7f_ffff))
}

/// `v_fract_f16` on an f16 input (in f32, exact): below the largest f16
/// under 1 (`0x3bff`), NaN for infinities.
pub(crate) fn fract16(x: f32) -> f32 {
    if x.is_nan() {
        return x;
    }
    if x.is_infinite() {
        return f32::NAN;
    }
    (x - x.floor()).min(1.0 - 1.0 / 2048.0)
}

/// `v_fract_f64`.
pub(crate) fn fract64(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x.is_infinite() {
        return f64::NAN;
    }
    (x - x.floor()).min(f64::from_bits(0x3fef_ffff_ffff_ffff))
}

/// `v_ldexp_f32`.
pub(crate) fn ldexp32(x: f32, e: i32) -> f32 {
    (f64::from(x) * 2f64.powi(e.clamp(-400, 400))) as f32
}

/// `v_ldexp_f64`.
pub(crate) fn ldexp64(x: f64, e: i32) -> f64 {
    let e = e.clamp(-2200, 2200);
    // Two steps so that neither scale overflows.
    let half = e / 2;
    x * 2f64.powi(half) * 2f64.powi(e - half)
}

/// `v_frexp_mant_f32`: the mantissa in [0.5, 1) (NaN and infinity as is).
pub(crate) fn frexp_mant32(x: f32) -> f32 {
    if x.is_nan() || x.is_infinite() || x == 0.0 {
        return x;
    }
    let (m, _) = frexp(f64::from(x));
    m as f32
}

/// `v_frexp_exp_i32_f32`: the exponent such that `x = mant * 2^exp`.
pub(crate) fn frexp_exp32(x: f32) -> i32 {
    if x.is_nan() || x.is_infinite() || x == 0.0 {
        return 0;
    }
    frexp(f64::from(x)).1
}

/// `v_frexp_mant_f64`: as [`frexp_mant32`].
pub(crate) fn frexp_mant64(x: f64) -> f64 {
    if x.is_nan() || x.is_infinite() || x == 0.0 {
        return x;
    }
    frexp(x).0
}

/// `v_frexp_exp_i32_f64`: as [`frexp_exp32`] (0 for zero, infinity and
/// NaN; a denormal's exponent as if normalized, as C's `frexp`).
pub(crate) fn frexp_exp64(x: f64) -> i32 {
    if x.is_nan() || x.is_infinite() || x == 0.0 {
        return 0;
    }
    frexp(x).1
}

/// `x` (finite, not zero) as a mantissa in [0.5, 1) times 2 to an exponent.
fn frexp(x: f64) -> (f64, i32) {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        let (m, e) = frexp(x * 2f64.powi(64));
        return (m, e - 64);
    }
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, exp - 1022)
}

/// `v_min_f32` (and the f16 forms, computed in f32): IEEE minNum, a NaN
/// operand yielding the other operand, with -0 below +0 as AMD's
/// pseudocode orders them (`min(-0, +0)` is -0 in either order; Rust's
/// `f32::min` may return either zero).
pub(crate) fn min32(a: f32, b: f32) -> f32 {
    if a.is_nan() || (a == b && b.is_sign_negative()) || b < a {
        b
    } else {
        a
    }
}

/// `v_max_f32`: IEEE maxNum, with +0 above -0.
pub(crate) fn max32(a: f32, b: f32) -> f32 {
    if a.is_nan() || (a == b && b.is_sign_positive()) || b > a {
        b
    } else {
        a
    }
}

/// `s_minimum_f32` (and the f16 form, computed in f32): IEEE 754-2019
/// minimum, a NaN operand giving a NaN (the first NaN, quieted), -0 below
/// +0.
pub(crate) fn minimum32(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        return quiet32(if a.is_nan() { a } else { b });
    }
    if a == b {
        // Equal: only the zeros' signs may differ.
        return if a.is_sign_negative() { a } else { b };
    }
    if a < b { a } else { b }
}

/// `s_maximum_f32`: IEEE 754-2019 maximum, as [`minimum32`] with +0 above
/// -0.
pub(crate) fn maximum32(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        return quiet32(if a.is_nan() { a } else { b });
    }
    if a == b {
        return if a.is_sign_positive() { a } else { b };
    }
    if a > b { a } else { b }
}

/// A NaN with its quiet bit set (payload and sign kept).
fn quiet32(nan: f32) -> f32 {
    f32::from_bits(nan.to_bits() | 0x0040_0000)
}

/// `v_min_f64`, as [`min32`].
pub(crate) fn min64(a: f64, b: f64) -> f64 {
    if a.is_nan() || (a == b && b.is_sign_negative()) || b < a {
        b
    } else {
        a
    }
}

/// `v_max_f64`, as [`max32`].
pub(crate) fn max64(a: f64, b: f64) -> f64 {
    if a.is_nan() || (a == b && b.is_sign_positive()) || b > a {
        b
    } else {
        a
    }
}

/// The median of three, as `v_med3_f32` defines it (NaN-aware).
pub(crate) fn med3_32(a: f32, b: f32, c: f32) -> f32 {
    if a.is_nan() || b.is_nan() || c.is_nan() {
        return min32(min32(a, b), c);
    }
    let hi = max32(max32(a, b), c);
    if hi == a {
        max32(b, c)
    } else if hi == b {
        max32(a, c)
    } else {
        max32(a, b)
    }
}

/// `v_div_fixup_f32(quotient, denominator, numerator)`: the IEEE quotient
/// (special cases included) that the division sequence converges to.
pub(crate) fn div_fixup32(_quotient: f32, denominator: f32, numerator: f32) -> f32 {
    numerator / denominator
}

/// `v_div_fixup_f64`.
pub(crate) fn div_fixup64(_quotient: f64, denominator: f64, numerator: f64) -> f64 {
    numerator / denominator
}

/// `a * b + c` rounded once, as the hardware's f32 FMA: the product is
/// exact in f64, the sum is rounded to odd in f64 (its last bit set when
/// inexact), and f64 carries more than twice f32's precision plus two bits,
/// so the final rounding to f32 is the correctly rounded result (Boldo and
/// Melquiond's round-to-odd theorem). `f32::mul_add` computes the same
/// through a call into the standard library's software FMA on targets
/// built without the FMA instruction, the default x86-64 target included.
#[inline(always)]
pub(crate) fn fma32(a: f32, b: f32, c: f32) -> f32 {
    fma_odd(a, b, c) as f32
}

/// `a * b + c` rounded once to f16 (`v_fma_mixlo_f16`): the f64 rounded
/// to odd as for [`fma32`], then to f32 rounded to odd (24 bits, more than
/// f16's 11 plus two), then to f16 to nearest: one correct rounding.
pub(crate) fn fma16(a: f32, b: f32, c: f32) -> u16 {
    f32_to_f16(odd32(fma_odd(a, b, c)))
}

/// `x` rounded to an f32 by rounding to odd: an inexact result is the
/// neighbour whose last bit is set.
pub(crate) fn odd32(x: f64) -> f32 {
    let r = x as f32;
    if x.is_nan() || f64::from(r) == x || r.to_bits() & 1 == 1 {
        return r;
    }
    if r.is_infinite() {
        // Past the largest finite f32, which is odd.
        return f32::from_bits(r.to_bits() - 1);
    }
    // The last bit is even (r's magnitude at least its ulp, or zero when
    // x underflowed): one ulp toward x.
    let bits = r.to_bits();
    f32::from_bits(if x.abs() > f64::from(r).abs() {
        bits + 1
    } else {
        bits - 1
    })
}

/// `a * b + c` in f64 rounded to odd: the product is exact in f64, the sum
/// rounded to odd (its last bit set when inexact).
#[inline(always)]
fn fma_odd(a: f32, b: f32, c: f32) -> f64 {
    let product = f64::from(a) * f64::from(b);
    let c = f64::from(c);
    let sum = product + c;
    // TwoSum: the exact error of the rounded sum (NaN when the sum is not
    // finite, which leaves the sum as it is below).
    let b_virtual = sum - product;
    let error = (product - (sum - b_virtual)) + (c - b_virtual);
    let bits = sum.to_bits();
    let inexact_even = (error != 0.0 && !error.is_nan()) & (bits & 1 == 0);
    // One ulp toward the exact value: the neighbour with an odd last bit.
    let toward = if (error > 0.0) == (sum > 0.0) {
        1
    } else {
        u64::MAX
    };
    let odd = if inexact_even {
        bits.wrapping_add(toward)
    } else {
        bits
    };
    f64::from_bits(odd)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn same(x: f32, y: f32) -> bool {
        x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100_000))]

        #[test]
        fn fma32_is_the_correctly_rounded_fma(a in any::<u32>(), b in any::<u32>(), c in any::<u32>()) {
            let (a, b, c) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
            prop_assert!(same(fma32(a, b, c), a.mul_add(b, c)), "{a:e} * {b:e} + {c:e}");
        }

        #[test]
        fn fma32_is_exact_near_cancellation(a in -1e4f32..1e4, b in -1e4f32..1e4, ulps in -4i32..=4) {
            // c within a few ulps of -a*b: where rounding the product first,
            // or the sum twice, would give another answer.
            let c = f32::from_bits((-(a * b)).to_bits().wrapping_add_signed(ulps));
            prop_assert!(same(fma32(a, b, c), a.mul_add(b, c)), "{a:e} * {b:e} + {c:e}");
        }

        #[test]
        fn fma32_is_exact_near_the_bottom_of_the_range(a in any::<u32>(), b in any::<u32>(), c in any::<u32>()) {
            // Small exponents: subnormal products and sums.
            let small = |x: u32| f32::from_bits(x & 0x8fff_ffff);
            let (a, b, c) = (small(a), small(b) * 1e20, small(c));
            prop_assert!(same(fma32(a, b, c), a.mul_add(b, c)), "{a:e} * {b:e} + {c:e}");
        }
    }

    #[test]
    fn half_precision_round_trips_every_value() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            if f.is_nan() {
                continue;
            }
            assert_eq!(f32_to_f16(f), h, "{h:#06x}");
        }
    }
}
