//! The dot-product instructions IREE's and Triton's kernels use:
//! `v_dot2_f32_f16`, `v_dot2c_f32_f16` (GFX11: `v_dot2acc_f32_f16`),
//! `v_dot4_i32_i8`, `v_dot4c_i32_i8`, `v_dot4_u32_u8` and GFX11's
//! `v_dot4_i32_iu8` (signedness by `neg_lo`), with clamp; each lane against
//! the sum written out here (bytes and halves taken apart independently of
//! the interpreter). Words from `llvm-mc-19 --arch=amdgcn
//! --mcpu=gfx90a|gfx942|gfx1100 -show-encoding` of `text`, which the
//! interpreter's disassembler must print. Inputs keep f16 sums exact in
//! f32, so the order and rounding of the additions do not matter; integer
//! accumulators near the ends of their range, so sums wrap or clamp.

mod handmade;
mod mfma;

use amdgpu_isa::{Chip, Program, disassemble};
use handmade::per_lane32;
use mfma::{Rng, f16_bits};

#[derive(Clone, Copy)]
enum Kind {
    /// a.lo * b.lo + a.hi * b.hi + c, clamped to [0, 1] or not.
    Dot2 { clamp: bool },
    /// Four byte products plus c: A's and B's bytes signed or not; the
    /// result unsigned (`_u32_u8`) or signed; clamped or wrapping.
    Dot4 {
        signed: [bool; 2],
        unsigned_out: bool,
        clamp: bool,
    },
}

const GFX9: &[Chip] = &[Chip::Gfx90a, Chip::Gfx942];
const GFX11: &[Chip] = &[Chip::Gfx1100];

/// Chips, words (reading v2, v3, v4, writing v6), the dot instruction's
/// text, what it computes.
const CASES: &[(&[Chip], &[u32], &str, Kind)] = &[
    (
        GFX9,
        &[0xd3a3_4006, 0x1c12_0702],
        "v_dot2_f32_f16 v6, v2, v3, v4",
        Kind::Dot2 { clamp: false },
    ),
    (
        GFX9,
        &[0xd3a3_c006, 0x1c12_0702],
        "v_dot2_f32_f16 v6, v2, v3, v4 clamp",
        Kind::Dot2 { clamp: true },
    ),
    (
        GFX9,
        // v_mov_b32_e32 v6, v4
        &[0x7e0c_0304, 0x6e0c_0702],
        "v_dot2c_f32_f16_e32 v6, v2, v3",
        Kind::Dot2 { clamp: false },
    ),
    (
        GFX9,
        &[0x7e0c_0304, 0xd137_8006, 0x0002_0702],
        "v_dot2c_f32_f16_e64 v6, v2, v3 clamp",
        Kind::Dot2 { clamp: true },
    ),
    (
        GFX9,
        &[0xd3a8_4006, 0x1c12_0702],
        "v_dot4_i32_i8 v6, v2, v3, v4",
        Kind::Dot4 {
            signed: [true, true],
            unsigned_out: false,
            clamp: false,
        },
    ),
    (
        GFX9,
        &[0xd3a8_c006, 0x1c12_0702],
        "v_dot4_i32_i8 v6, v2, v3, v4 clamp",
        Kind::Dot4 {
            signed: [true, true],
            unsigned_out: false,
            clamp: true,
        },
    ),
    (
        GFX9,
        &[0xd3a9_4006, 0x1c12_0702],
        "v_dot4_u32_u8 v6, v2, v3, v4",
        Kind::Dot4 {
            signed: [false, false],
            unsigned_out: true,
            clamp: false,
        },
    ),
    (
        GFX9,
        &[0xd3a9_c006, 0x1c12_0702],
        "v_dot4_u32_u8 v6, v2, v3, v4 clamp",
        Kind::Dot4 {
            signed: [false, false],
            unsigned_out: true,
            clamp: true,
        },
    ),
    (
        GFX9,
        &[0x7e0c_0304, 0x720c_0702],
        "v_dot4c_i32_i8_e32 v6, v2, v3",
        Kind::Dot4 {
            signed: [true, true],
            unsigned_out: false,
            clamp: false,
        },
    ),
    (
        GFX9,
        &[0x7e0c_0304, 0xd139_8006, 0x0002_0702],
        "v_dot4c_i32_i8_e64 v6, v2, v3 clamp",
        Kind::Dot4 {
            signed: [true, true],
            unsigned_out: false,
            clamp: true,
        },
    ),
    (
        GFX11,
        &[0xcc13_4006, 0x1c12_0702],
        "v_dot2_f32_f16 v6, v2, v3, v4",
        Kind::Dot2 { clamp: false },
    ),
    (
        GFX11,
        &[0xcc13_c006, 0x1c12_0702],
        "v_dot2_f32_f16 v6, v2, v3, v4 clamp",
        Kind::Dot2 { clamp: true },
    ),
    (
        GFX11,
        &[0x7e0c_0304, 0x040c_0702],
        "v_dot2acc_f32_f16 v6, v2, v3",
        Kind::Dot2 { clamp: false },
    ),
    (
        GFX11,
        &[0xcc16_4006, 0x1c12_0702],
        "v_dot4_i32_iu8 v6, v2, v3, v4",
        Kind::Dot4 {
            signed: [false, false],
            unsigned_out: false,
            clamp: false,
        },
    ),
    (
        GFX11,
        &[0xcc16_4006, 0x3c12_0702],
        "v_dot4_i32_iu8 v6, v2, v3, v4 neg_lo:[1,0,0]",
        Kind::Dot4 {
            signed: [true, false],
            unsigned_out: false,
            clamp: false,
        },
    ),
    (
        GFX11,
        &[0xcc16_c006, 0x7c12_0702],
        "v_dot4_i32_iu8 v6, v2, v3, v4 neg_lo:[1,1,0] clamp",
        Kind::Dot4 {
            signed: [true, true],
            unsigned_out: false,
            clamp: true,
        },
    ),
    (
        GFX11,
        &[0xcc17_c006, 0x1c12_0702],
        "v_dot4_u32_u8 v6, v2, v3, v4 clamp",
        Kind::Dot4 {
            signed: [false, false],
            unsigned_out: true,
            clamp: true,
        },
    ),
];

/// Byte `i` of `x` as a signed or unsigned integer.
fn byte(x: u32, i: usize, signed: bool) -> i64 {
    let b = x.to_le_bytes()[i];
    if signed { b as i8 as i64 } else { b as i64 }
}

/// An f16 half of a packed pair as f64 (values built by `f16_bits`, so
/// normal or zero).
fn half(x: u32, high: bool) -> f64 {
    let h = if high { x >> 16 } else { x & 0xffff };
    if h & 0x7fff == 0 {
        return 0.0;
    }
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = ((h >> 10) & 0x1f) as i32 - 15;
    sign * (1.0 + (h & 0x3ff) as f64 / 1024.0) * 2f64.powi(exponent)
}

#[test]
fn dot_products_match_the_sum_in_every_lane() {
    for (n, &(chips, words, text, kind)) in CASES.iter().enumerate() {
        for &chip in chips {
            let lanes = if chip == Chip::Gfx1100 { 32 } else { 64 };
            let mut rng = Rng::new(n as u64 + 1);
            let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..lanes {
                match kind {
                    Kind::Dot2 { .. } => {
                        let mut pair = || {
                            let lo = f16_bits(rng.int(64) as f32 / 4.0);
                            let hi = f16_bits(rng.int(64) as f32 / 4.0);
                            u32::from(lo) | u32::from(hi) << 16
                        };
                        a.push(pair());
                        b.push(pair());
                        // Small enough that clamp's [0, 1] is often inside.
                        c.push((rng.int(64) as f32 / 8.0).to_bits());
                    }
                    Kind::Dot4 { unsigned_out, .. } => {
                        a.push(rng.next() as u32);
                        b.push(rng.next() as u32);
                        let near = (rng.next() % 200_000) as u32;
                        c.push(match (unsigned_out, rng.next() % 3) {
                            (_, 0) => rng.next() as u32,
                            (true, 1) => u32::MAX - near,
                            (true, _) => near,
                            (false, 1) => i32::MAX as u32 - near,
                            (false, _) => (i32::MIN as u32).wrapping_add(near),
                        });
                    }
                }
            }
            let got = per_lane32(chip, words, &[&a, &b, &c]);
            for lane in 0..lanes {
                let want = match kind {
                    Kind::Dot2 { clamp } => {
                        let sum = half(a[lane], false) * half(b[lane], false)
                            + half(a[lane], true) * half(b[lane], true)
                            + f64::from(f32::from_bits(c[lane]));
                        let sum = if clamp { sum.clamp(0.0, 1.0) } else { sum };
                        (sum as f32).to_bits()
                    }
                    Kind::Dot4 {
                        signed,
                        unsigned_out,
                        clamp,
                    } => {
                        let mut sum = if unsigned_out {
                            c[lane] as i64
                        } else {
                            c[lane] as i32 as i64
                        };
                        for i in 0..4 {
                            sum += byte(a[lane], i, signed[0]) * byte(b[lane], i, signed[1]);
                        }
                        if clamp && unsigned_out {
                            sum.clamp(0, u32::MAX as i64) as u32
                        } else if clamp {
                            sum.clamp(i32::MIN as i64, i32::MAX as i64) as u32
                        } else {
                            sum as u32
                        }
                    }
                };
                assert_eq!(
                    got[lane], want,
                    "{chip:?} {text}, lane {lane}: a {:#x} b {:#x} c {:#x}",
                    a[lane], b[lane], c[lane]
                );
            }
            let program = Program::decode(chip, &handmade::bytes(words)).unwrap();
            let last = program.instructions().last().unwrap();
            assert_eq!(disassemble(last, chip), text, "{chip:?}");
        }
    }
}

#[test]
fn dot_product_modifiers_other_than_clamp_fail_to_decode_by_name() {
    for (chip, words) in [
        // v_dot4_i32_i8 v6, v2, v3, v4 op_sel:[1,0,0]
        (Chip::Gfx90a, [0xd3a8_4806u32, 0x1c12_0702u32]),
        // v_dot4_i32_i8 v6, v2, v3, v4 neg_lo:[1,0,0]
        (Chip::Gfx942, [0xd3a8_4006, 0x3c12_0702]),
        // v_dot2c_f32_f16_e64 v6, -v2, |v3|
        (Chip::Gfx90a, [0xd137_0206, 0x2002_0702]),
    ] {
        let err = Program::decode(chip, &handmade::bytes(&words))
            .err()
            .unwrap_or_else(|| panic!("{chip:?} {words:x?} decoded"))
            .to_string();
        assert!(err.contains("dot product modifiers"), "{chip:?}: {err}");
    }
}

#[test]
fn gfx11_dual_issue_dot2acc_accumulates_into_its_destination() {
    // v_dual_dot2acc_f32_f16 v6, v2, v3 :: v_dual_mov_b32 v7, v4 (v6 starts
    // at 0 in the harness).
    let words = [0xcb10_0702, 0x0606_0104];
    let program = Program::decode(Chip::Gfx1100, &handmade::bytes(&words)).unwrap();
    assert_eq!(
        disassemble(&program.instructions()[0], Chip::Gfx1100),
        "v_dual_dot2acc_f32_f16 v6, v2, v3"
    );
    // (1.5 * 2 + -0.25 * 4) + 0 = 2; -3 * 0.5 + 1 * 1 = -0.5.
    let a = [0xb400_3e00u32, 0x3c00_c200];
    let b = [0x4400_4000u32, 0x3c00_3800];
    let c = [0x1234_5678u32, 0x9abc_def0];
    let got = handmade::per_lane(Chip::Gfx1100, &words, &[&a, &b, &c]);
    assert_eq!(got[0], u64::from(2f32.to_bits()) | 0x1234_5678 << 32);
    assert_eq!(got[1], u64::from((-0.5f32).to_bits()) | 0x9abc_def0 << 32);
}
