//! `v_perm_b32`: each byte of the result is chosen by the byte in the same
//! place of the selector (the third source): a byte of the 64-bit `{a, b}`
//! (0-7, `b` the low half), the sign of one of its 16-bit words spread over
//! the byte (8-11), 0 (12) or 0xff (13-255).

/// One lane, byte by byte: the definition.
pub(crate) fn perm(a: u32, b: u32, sel: u32) -> u32 {
    let bytes = (u64::from(a) << 32 | u64::from(b)).to_le_bytes();
    let mut out = 0u32;
    for i in 0..4 {
        let s = (sel >> (8 * i)) & 0xff;
        let byte = match s {
            0..=7 => u32::from(bytes.get(s as usize).copied().unwrap_or(0)),
            8..=11 => {
                // Sign of the 16-bit word: replicate bit 15 or 31 of a/b.
                let word = (u64::from(a) << 32 | u64::from(b)) >> (16 * (s - 8) + 15) & 1;
                if word == 1 { 0xff } else { 0 }
            }
            12 => 0,
            _ => 0xff,
        };
        out |= byte << (8 * i);
    }
    out
}

/// A selector that is the same in every lane (a scalar operand: IREE's
/// kernels pack two f16 into a register with `s_mov_b32 s10, 0x5040100`),
/// resolved once per instruction into shifts and masks, so that a lane is
/// a few shifts and masks the compiler runs four lanes at a time, not four
/// `match`es (on the gfx942 matmul the byte-by-byte form was an eighth of
/// the interpreter's instructions: docs/PERFORMANCE.md).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Uniform {
    /// Right shift of `a` and `b` that brings result byte `i`'s source
    /// byte to the bottom.
    shifts: [u32; 4],
    /// 0xff where result byte `i` comes from `a`, else 0.
    a_masks: [u32; 4],
    /// 0xff where result byte `i` comes from `b`, else 0.
    b_masks: [u32; 4],
    /// The constant bytes (selectors 12 and 13-255) in place.
    constant: u32,
}

impl Uniform {
    /// The plan of selector `sel`; `None` when a byte spreads a sign
    /// (8-11), which depends on the lane's values byte by byte.
    pub(crate) fn new(sel: u32) -> Option<Uniform> {
        let mut plan = Uniform {
            shifts: [0; 4],
            a_masks: [0; 4],
            b_masks: [0; 4],
            constant: 0,
        };
        for i in 0..4 {
            match (sel >> (8 * i)) & 0xff {
                s @ 0..=3 => {
                    plan.shifts[i] = 8 * s;
                    plan.b_masks[i] = 0xff;
                }
                s @ 4..=7 => {
                    plan.shifts[i] = 8 * (s - 4);
                    plan.a_masks[i] = 0xff;
                }
                8..=11 => return None,
                12 => {}
                _ => plan.constant |= 0xff << (8 * i),
            }
        }
        Some(plan)
    }

    /// One lane's result.
    #[inline(always)]
    pub(crate) fn apply(&self, a: u32, b: u32) -> u32 {
        let mut out = self.constant;
        for i in 0..4 {
            let shift = self.shifts[i];
            let byte = (a >> shift) & self.a_masks[i] | (b >> shift) & self.b_masks[i];
            out |= byte << (8 * i);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Every selector byte (0-15 and above, drawn so that each case is
        /// common) gives the byte-by-byte definition's result, and only
        /// the sign bytes have no plan.
        #[test]
        fn the_uniform_plan_is_the_definition(
            a in any::<u32>(),
            b in any::<u32>(),
            bytes in any::<[u8; 4]>(),
            wide in any::<[bool; 4]>(),
        ) {
            let sel = (0..4).fold(0u32, |sel, i| {
                let byte = if wide[i] { bytes[i] } else { bytes[i] % 16 };
                sel | u32::from(byte) << (8 * i)
            });
            let signs = (0..4).any(|i| (8..=11).contains(&((sel >> (8 * i)) & 0xff)));
            match Uniform::new(sel) {
                Some(plan) => {
                    prop_assert!(!signs, "{sel:#x} has a sign byte");
                    prop_assert_eq!(plan.apply(a, b), perm(a, b, sel), "selector {:#x}", sel);
                }
                None => prop_assert!(signs, "{sel:#x} has no sign byte"),
            }
        }
    }

    /// The selectors of the definition, against values worked by hand.
    #[test]
    fn known_selectors() {
        let (a, b) = (0x8877_6655, 0x4433_2211);
        // IREE's packing of the two low halves: b's, then a's.
        assert_eq!(
            Uniform::new(0x0504_0100).map(|p| p.apply(a, b)),
            Some(0x6655_2211)
        );
        // Every byte of a, reversed; then 0 and 0xff constants.
        assert_eq!(
            Uniform::new(0x0405_0607).map(|p| p.apply(a, b)),
            Some(0x5566_7788)
        );
        assert_eq!(
            Uniform::new(0x0c0d_0003).map(|p| p.apply(a, b)),
            Some(0x00ff_1144)
        );
        // Sign of b's high word (0x4433: positive) and a's high word
        // (0x8877: negative): lane by lane only.
        assert!(Uniform::new(0x0b09_0100).is_none());
        assert_eq!(perm(a, b, 0x0b09_0100), 0xff00_2211);
    }
}
