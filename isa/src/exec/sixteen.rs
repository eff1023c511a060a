//! The 16-bit three-operand VOP3 operations (multiply-adds, min/max/median
//! of three, the f16 division fix-up), the packed 16-bit multiply-adds and
//! the sums of absolute differences, kept apart from `vector.rs` because they share one rule of
//! their own: which halves they read and which half they write.
//!
//! Halves. Each 16-bit source is the half of its register (or of an SGPR
//! or constant) that its `op_sel` bit picks, read as a 16-bit operand (an
//! inline float constant is its f16 bits for a float operand, and for an
//! integer one what `lanes::int16_width` says: GFX9 the low half of its f32
//! bits), and a 16-bit result goes to the half `op_sel[3]` picks.
//! GFX11 encodes its true16 `v1.h` operands of VOP3 in the same `op_sel`
//! bits, so one reading serves both its true16 and fake16 forms.
//!
//! The other half of the destination. The CDNA2 ISA guide (its
//! V_MAD_LEGACY_* and V_MAD_U16 rows, as an analysis of its text quotes
//! them) says GFX9's native op_sel operations (`v_mad_u16`, `v_mad_i16`,
//! `v_fma_f16`, `v_div_fixup_f16`, ...) keep the half they do not write,
//! while the `_legacy` opcodes (GFX8's encodings) write zeros into the high
//! half when they write the low one (and keep the low half when `op_sel[3]`
//! sends the result high); LLVM's `GCNSubtarget::zeroesHigh16BitsOfDest`
//! lists those legacy opcodes as zeroing on GFX9 too. The 16-bit
//! min3/max3/med3 came with GFX9's op_sel and are taken to keep it, as the
//! native rows do. GFX11 keeps it always.

use crate::arch::{Chip, Family};
use crate::exec::float::{f16_to_f32, f32_to_f16, fma16, max32, med3_32, min32, output32};
use crate::exec::lanes::{active, half_source, int16_width, pk_16};
use crate::exec::saturate;
use crate::inst::Inst;
use crate::op::Valu;
use crate::wave::{Wave, Width};

/// Executes `op`, one of this module's operations (any other is left to
/// `vector.rs`, which sends only these here).
pub(crate) fn run(wave: &mut Wave, inst: &Inst, op: Valu, chip: Chip) {
    use Valu::*;
    let clamp = inst.clamp;
    // GFX9's legacy opcodes zero the high half of a low-half result.
    let zero_high = chip.family() == Family::Gfx9
        && matches!(op, MadLegacyU16 | MadLegacyI16 | DivFixupLegacyF16);
    let unsigned = |x: i64| saturate::unsigned(i128::from(x), 16, clamp) as u16;
    let signed = |x: i64| saturate::signed(i128::from(x), 16, clamp) as u16;
    match op {
        // v_mad_u16, v_mad_legacy_u16
        MadU16 | MadLegacyU16 => int3(wave, inst, chip, zero_high, |[a, b, c]| {
            unsigned(i64::from(a) * i64::from(b) + i64::from(c))
        }),
        // v_mad_i16, v_mad_legacy_i16
        MadI16 | MadLegacyI16 => int3(wave, inst, chip, zero_high, |[a, b, c]| {
            let [a, b, c] = [a, b, c].map(|x| i64::from(x as i16));
            signed(a * b + c)
        }),
        // v_min3_u16
        Min3U16 => int3(wave, inst, chip, false, |[a, b, c]| a.min(b).min(c)),
        // v_max3_u16
        Max3U16 => int3(wave, inst, chip, false, |[a, b, c]| a.max(b).max(c)),
        // v_med3_u16
        Med3U16 => int3(wave, inst, chip, false, |[a, b, c]| med3(a, b, c)),
        // v_min3_i16
        Min3I16 => int3(wave, inst, chip, false, |[a, b, c]| {
            (a as i16).min(b as i16).min(c as i16) as u16
        }),
        // v_max3_i16
        Max3I16 => int3(wave, inst, chip, false, |[a, b, c]| {
            (a as i16).max(b as i16).max(c as i16) as u16
        }),
        // v_med3_i16
        Med3I16 => int3(wave, inst, chip, false, |[a, b, c]| {
            med3(a as i16, b as i16, c as i16) as u16
        }),
        // v_min3_f16
        Min3F16 => f16_3(wave, inst, |[a, b, c]| min32(min32(a, b), c)),
        // v_max3_f16
        Max3F16 => f16_3(wave, inst, |[a, b, c]| max32(max32(a, b), c)),
        // v_med3_f16
        Med3F16 => f16_3(wave, inst, |[a, b, c]| med3_32(a, b, c)),
        // v_div_fixup_f16, v_div_fixup_legacy_f16
        DivFixupF16 | DivFixupLegacyF16 => {
            for lane in active(wave.exec()) {
                let [q, d, n] = std::array::from_fn(|i| modified_half(wave, inst, i, lane));
                let mut r = div_fixup16(q, d, n);
                if inst.clamp || inst.omod != 0 {
                    r = f32_to_f16(output32(f16_to_f32(r), inst));
                }
                write_half(wave, inst, lane, r, zero_high);
            }
        }
        // v_mad_u32_u16, v_mad_i32_i16
        MadU32U16 | MadI32I16 => {
            for lane in active(wave.exec()) {
                let [a, b] = [0, 1].map(|i| half(wave, inst, i, lane, int16_width(chip)));
                let c = wave.src32(inst.src[2], lane, Width::B32);
                let d = if op == MadU32U16 {
                    let exact = i128::from(a) * i128::from(b) + i128::from(c);
                    saturate::unsigned(exact, 32, clamp)
                } else {
                    let exact = i128::from(a as i16) * i128::from(b as i16) + i128::from(c as i32);
                    saturate::signed(exact, 32, clamp)
                };
                wave.set_vreg(inst.dst[0], 0, lane, d as u32);
            }
        }
        // v_pk_fmac_f16
        PkFmacF16 => {
            for lane in active(wave.exec()) {
                let [a, b, c] = [0, 1, 2].map(|i| wave.src32(inst.src[i], lane, Width::F16));
                let half = |x: u32, high: bool| f16_to_f32((if high { x >> 16 } else { x }) as u16);
                let [lo, hi] = [false, true].map(|h| fma16(half(a, h), half(b, h), half(c, h)));
                wave.set_vreg(inst.dst[0], 0, lane, u32::from(lo) | u32::from(hi) << 16);
            }
        }
        // v_pk_mad_u16
        PkMadU16 => pk_16::<3>(wave, inst, Width::B32, |_, [a, b, c]| {
            unsigned(i64::from(a) * i64::from(b) + i64::from(c))
        }),
        // v_pk_mad_i16
        PkMadI16 => pk_16::<3>(wave, inst, Width::B32, |_, [a, b, c]| {
            let [a, b, c] = [a, b, c].map(|x| i64::from(x as i16));
            signed(a * b + c)
        }),
        // v_sad_u8, v_sad_hi_u8, v_sad_u16, v_sad_u32, v_msad_u8
        SadU8 | SadHiU8 | SadU16 | SadU32 | MsadU8 => sad(wave, inst, op),
        _ => {}
    }
}

/// The median of three integers (the ISA guides' V_MED3_*16: the larger
/// of the two operands other than the largest).
fn med3<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    a.max(b).min(a.min(b).max(c))
}

/// Source `i`'s 16 bits: the half of the 32-bit value `op_sel` bit `i`
/// picks, an inline float constant read at `width` (f16 for a float
/// operand, `int16_width` for an integer one).
fn half(wave: &Wave, inst: &Inst, i: usize, lane: usize, width: Width) -> u16 {
    let operand = inst.src.get(i).copied().unwrap_or_default();
    let raw = wave.src32(operand, lane, width);
    (if inst.op_sel >> i & 1 == 1 {
        raw >> 16
    } else {
        raw
    }) as u16
}

/// [`half`] with source `i`'s `abs` and `neg` applied to its sign bit.
fn modified_half(wave: &Wave, inst: &Inst, i: usize, lane: usize) -> u16 {
    let mut h = half(wave, inst, i, lane, Width::F16);
    if inst.abs >> i & 1 == 1 {
        h &= 0x7fff;
    }
    if inst.neg >> i & 1 == 1 {
        h ^= 0x8000;
    }
    h
}

/// Writes a 16-bit result to the half `op_sel[3]` picks, keeping the other
/// half, or, for a low-half result with `zero_high`, zeroing the high one.
fn write_half(wave: &mut Wave, inst: &Inst, lane: usize, value: u16, zero_high: bool) {
    let old = wave.vreg(inst.dst[0], 0, lane);
    let d = if inst.op_sel >> 3 & 1 == 1 {
        (old & 0xffff) | u32::from(value) << 16
    } else if zero_high {
        u32::from(value)
    } else {
        (old & 0xffff_0000) | u32::from(value)
    };
    wave.set_vreg(inst.dst[0], 0, lane, d);
}

/// A 16-bit integer operation of three sources (integer operations take no
/// `neg`/`abs`; LLVM neither prints nor applies them).
fn int3(wave: &mut Wave, inst: &Inst, chip: Chip, zero_high: bool, f: impl Fn([u16; 3]) -> u16) {
    let width = int16_width(chip);
    for lane in active(wave.exec()) {
        let args = std::array::from_fn(|i| half(wave, inst, i, lane, width));
        write_half(wave, inst, lane, f(args), zero_high);
    }
}

/// An f16 operation of three sources, computed on their exact f32 values
/// (min, max and median select one of them, so nothing rounds), then the
/// output modifier and clamp (to [0, 1], NaN to 0).
fn f16_3(wave: &mut Wave, inst: &Inst, f: impl Fn([f32; 3]) -> f32) {
    for lane in active(wave.exec()) {
        let args = std::array::from_fn(|i| half_source(wave, inst, i, lane));
        let d = f(args);
        let d = if inst.clamp || inst.omod != 0 {
            output32(d, inst)
        } else {
            d
        };
        write_half(wave, inst, lane, f32_to_f16(d), false);
    }
}

/// V_DIV_FIXUP_F16 (RDNA3 ISA guide's pseudocode; the CDNA guides give the
/// same cases) on f16 bits: `q` the quotient the division sequence
/// computed, `d` the denominator, `n` the numerator. A NaN numerator, else
/// a NaN denominator, comes back quiet; 0/0 and inf/inf are the NaN
/// 0xfe00; x/0 and inf/y infinity, x/inf and 0/y zero, signed as the
/// quotient; otherwise `q`'s magnitude with the quotient's sign. Denormals
/// are neither zero nor flushed.
pub(crate) fn div_fixup16(q: u16, d: u16, n: u16) -> u16 {
    let sign = (d ^ n) & 0x8000;
    let magnitude = |x: u16| x & 0x7fff;
    let nan = |x: u16| magnitude(x) > 0x7c00;
    let inf = |x: u16| magnitude(x) == 0x7c00;
    let zero = |x: u16| magnitude(x) == 0;
    if nan(n) {
        n | 0x0200
    } else if nan(d) {
        d | 0x0200
    } else if (zero(d) && zero(n)) || (inf(d) && inf(n)) {
        0xfe00
    } else if zero(d) || inf(n) {
        sign | 0x7c00
    } else if inf(d) || zero(n) {
        sign
    } else {
        sign | magnitude(q)
    }
}

/// The sums of absolute differences (RDNA3 and CDNA3 ISA guides, V_SAD_U8,
/// V_SAD_HI_U8, V_SAD_U16, V_SAD_U32, V_MSAD_U8): unsigned differences of
/// S0's and S1's bytes, halves or words, plus S2; "overflow into the upper
/// bits is allowed" (the sum wraps), or under clamp saturates to u32, as
/// the interpreter's other integer adds do.
fn sad(wave: &mut Wave, inst: &Inst, op: Valu) {
    let diff = |a: u32, b: u32, shift: u32, mask: u32| {
        let (x, y) = (a >> shift & mask, b >> shift & mask);
        i128::from(x.abs_diff(y))
    };
    for lane in active(wave.exec()) {
        let [a, b, c] = [0, 1, 2].map(|i| wave.src32(inst.src[i], lane, Width::B32));
        let bytes = |masked: bool| {
            (0..4)
                .filter(|i| !masked || b >> (8 * i) & 0xff != 0)
                .map(|i| diff(a, b, 8 * i, 0xff))
                .sum::<i128>()
        };
        let sum = match op {
            Valu::SadU8 => bytes(false),
            Valu::MsadU8 => bytes(true),
            Valu::SadHiU8 => bytes(false) << 16,
            Valu::SadU16 => diff(a, b, 0, 0xffff) + diff(a, b, 16, 0xffff),
            _ => diff(a, b, 0, u32::MAX),
        };
        let d = saturate::unsigned(sum + i128::from(c), 32, inst.clamp) as u32;
        wave.set_vreg(inst.dst[0], 0, lane, d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn div_fixup16_special_cases() {
        // q, d, n: expected.
        for (q, d, n, want) in [
            (0x3c00, 0x4000, 0x4000, 0x3c00), // 2/2: q
            (0x3c00, 0xc000, 0x4000, 0xbc00), // 2/-2: q's magnitude, negative
            (0x0000, 0x0000, 0x0000, 0xfe00), // 0/0
            (0x0000, 0xfc00, 0x7c00, 0xfe00), // inf/-inf
            (0x0000, 0x8000, 0x3c00, 0xfc00), // 1/-0
            (0x0000, 0x3c00, 0xfc00, 0xfc00), // -inf/1
            (0x1234, 0x7c00, 0x3c00, 0x0000), // 1/inf
            (0x1234, 0xbc00, 0x0000, 0x8000), // 0/-1
            (0x1234, 0x7d00, 0x7c01, 0x7e01), // NaN/NaN: the numerator, quiet
            (0x1234, 0xfd00, 0x3c00, 0xff00), // 1/NaN: the denominator, quiet
            (0x7e00, 0x3c00, 0x3c00, 0x7e00), // a NaN quotient passes through
            (0x0001, 0x3c00, 0x0001, 0x0001), // denormals are numbers
        ] {
            assert_eq!(div_fixup16(q, d, n), want, "{q:#x} {d:#x} {n:#x}");
        }
    }

    #[test]
    fn median_of_three_integers() {
        assert_eq!(med3(1u16, 2, 3), 2);
        assert_eq!(med3(3u16, 1, 2), 2);
        assert_eq!(med3(-5i16, i16::MIN, i16::MAX), -5);
        assert_eq!(med3(7i16, 7, -1), 7);
    }
}
