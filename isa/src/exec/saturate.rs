//! Integer clamp: VOP3's `clamp` bit on an integer operation saturates the
//! result to its type's range (CDNA3 and RDNA3 ISA guides: unsigned
//! results to [0, max], signed ones to [min, max]) instead of wrapping.
//! Each operation computes its exact result, wider than its type, and
//! narrows it here.

/// The exact `value` as an unsigned `bits`-bit result (at most 64): clamped
/// to [0, 2^bits - 1] when `clamp`, else its low bits.
pub(crate) fn unsigned(value: i128, bits: u32, clamp: bool) -> u64 {
    let max = (1i128 << bits) - 1;
    if clamp {
        value.clamp(0, max) as u64
    } else {
        (value & max) as u64
    }
}

/// The exact `value` as a signed `bits`-bit result (at most 64), in the
/// low `bits` bits of the return: clamped to [-2^(bits-1), 2^(bits-1) - 1]
/// when `clamp`, else its low bits.
pub(crate) fn signed(value: i128, bits: u32, clamp: bool) -> u64 {
    let max = (1i128 << (bits - 1)) - 1;
    let narrowed = if clamp {
        value.clamp(-max - 1, max)
    } else {
        value
    };
    (narrowed & ((1i128 << bits) - 1)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamp_saturates_and_its_absence_wraps() {
        assert_eq!(unsigned(-1, 32, true), 0);
        assert_eq!(unsigned(-1, 32, false), 0xffff_ffff);
        assert_eq!(unsigned(1 << 32, 32, true), 0xffff_ffff);
        assert_eq!(unsigned(1 << 32, 32, false), 0);
        assert_eq!(unsigned(1 << 64, 64, true), u64::MAX);
        assert_eq!(signed(1 << 31, 32, true), 0x7fff_ffff);
        assert_eq!(signed(1 << 31, 32, false), 0x8000_0000);
        assert_eq!(signed(-(1 << 31) - 1, 32, true), 0x8000_0000);
        assert_eq!(signed(-(1 << 15) - 1, 16, true), 0x8000);
        assert_eq!(signed(-(1 << 15) - 1, 16, false), 0x7fff);
        assert_eq!(signed(-5, 16, false), 0xfffb);
        assert_eq!(signed(i128::from(i64::MAX) + 1, 64, true), i64::MAX as u64);
    }
}
