//! The scalar bit counts of a 64-bit source and the signed leading-bit
//! count: GFX11's `s_clz_i32_u64`, `s_cls_i32`, `s_cls_i32_i64` (and
//! `s_ctz_i32_b64`, already implemented) and GFX9's names for the same,
//! `s_flbit_i32_b64`, `s_flbit_i32`, `s_flbit_i32_i64`, `s_ff1_i32_b64`.
//! IREE's `math.ctlz` of a wave-uniform i64 stopped at `s_clz_i32_u64`
//! (iree-diff class `isa-s_clz_i32_u64`, seed 213).
//!
//! Definitions (RDNA3 ISA guide): S_CLZ_I32_U64 "D0.i32 = -1; for i in 0 :
//! 63 do if S0.u64[63 - i] == 1'1U then D0.i32 = i; break": the leading
//! zeros, -1 for 0; S_CLS_I32(_I64): the position from the top of the
//! first bit that differs from the sign bit, -1 for 0 and -1; S_CTZ_I32_B64
//! the trailing zeros, -1 for 0. Expected values by hand.

mod sixteen;

use amdgpu_isa::Chip;

/// `s_mov_b32 s10, lo`, `s_mov_b32 s11, hi` (with literals: the same
/// words on both families), `op`, then `v_mov_b32_e32 v6, s12`; v6.
fn count(chip: Chip, op: u32, value: u64) -> u32 {
    let code = [
        0xbe8a_00ff,
        value as u32,
        0xbe8b_00ff,
        (value >> 32) as u32,
        op,
        0x7e0c_020c,
    ];
    sixteen::scalar(chip, &code)
}

const NONE: u32 = u32::MAX;

#[test]
fn sixty_four_bit_counts() {
    // GFX11's then GFX9's opcode words (`s12, s[10:11]` / `s12, s10`).
    for (chip, clz, cls64, cls32, ctz) in [
        (
            Chip::Gfx1100,
            0xbe8c0b0a,
            0xbe8c0d0a,
            0xbe8c0c0a,
            0xbe8c090a,
        ),
        (Chip::Gfx942, 0xbe8c130a, 0xbe8c150a, 0xbe8c140a, 0xbe8c110a),
        (Chip::Gfx90a, 0xbe8c130a, 0xbe8c150a, 0xbe8c140a, 0xbe8c110a),
    ] {
        for (value, want) in [
            (0, NONE),
            (1, 63),
            (1 << 32, 31),
            (1 << 31, 32),
            (1 << 63, 0),
            (u64::MAX, 0),
        ] {
            assert_eq!(count(chip, clz, value), want, "{chip:?} clz {value:#x}");
        }
        for (value, want) in [
            (0, NONE),
            (u64::MAX, NONE),
            (1, 63),
            (0xc000_0000_0000_0000, 2),
            (1 << 63, 1),
            (0x4000_0000_0000_0000, 1),
            (0xffff_ffff_0000_0000, 32),
        ] {
            assert_eq!(count(chip, cls64, value), want, "{chip:?} cls64 {value:#x}");
        }
        // The 32-bit form reads s10 alone.
        for (value, want) in [
            (0, NONE),
            (0xffff_ffff, NONE),
            (0x4000_0000, 1),
            (0xffff_fffe, 31),
            (0x0001_0000, 15),
            (0x8000_0000, 1),
        ] {
            assert_eq!(count(chip, cls32, value), want, "{chip:?} cls32 {value:#x}");
        }
        for (value, want) in [(0, NONE), (1 << 40, 40), (1 << 63 | 1 << 5, 5)] {
            assert_eq!(count(chip, ctz, value), want, "{chip:?} ctz {value:#x}");
        }
    }
}

#[test]
fn disassembly() {
    for (chip, word, text) in [
        (Chip::Gfx1100, 0xbe8c0b0a, "s_clz_i32_u64 s12, s[10:11]"),
        (Chip::Gfx1100, 0xbe8c0d0a, "s_cls_i32_i64 s12, s[10:11]"),
        (Chip::Gfx1100, 0xbe8c0c0a, "s_cls_i32 s12, s10"),
        (Chip::Gfx942, 0xbe8c130a, "s_flbit_i32_b64 s12, s[10:11]"),
        (Chip::Gfx942, 0xbe8c150a, "s_flbit_i32_i64 s12, s[10:11]"),
        (Chip::Gfx942, 0xbe8c140a, "s_flbit_i32 s12, s10"),
    ] {
        assert_eq!(sixteen::text(chip, &[word]), text);
    }
}
