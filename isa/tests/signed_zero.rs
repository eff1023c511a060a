//! `v_min_*`/`v_max_*` and their three-operand forms order -0 below +0, as
//! AMD's pseudocode has them (CDNA3 and RDNA3 ISA guides, V_MIN_F32: "if
//! S0 == +0.0 && S1 == -0.0 then S1, elsif S0 == -0.0 && S1 == +0.0 then
//! S0"; V_MAX_F32 the other way), whichever order the zeros come in; a
//! quiet NaN operand yields the other operand (IEEE minNum). `v_med3_f32`
//! follows its pseudocode: with a NaN operand, min3; else the larger of
//! the two operands other than the maximum of three. The expected results
//! are written out per lane.

mod handmade;

use amdgpu_isa::Chip;
use handmade::per_lane;

const GFX942: &[(&str, &[u32])] = &[
    ("min_f32", &[0x140c0702]),                 // v_min_f32_e32 v6, v2, v3
    ("max_f32", &[0x160c0702]),                 // v_max_f32_e32 v6, v2, v3
    ("min_f32_e64", &[0xd10a0006, 0x00020702]), // v_min_f32_e64 v6, v2, v3
    ("max_f32_e64", &[0xd10b0006, 0x00020702]), // v_max_f32_e64 v6, v2, v3
    ("min3_f32", &[0xd1d00006, 0x04120702]),    // v_min3_f32 v6, v2, v3, v4
    ("max3_f32", &[0xd1d30006, 0x04120702]),    // v_max3_f32 v6, v2, v3, v4
    ("med3_f32", &[0xd1d60006, 0x04120702]),    // v_med3_f32 v6, v2, v3, v4
    ("min_f64", &[0xd2820006, 0x00020902]),     // v_min_f64 v[6:7], v[2:3], v[4:5]
    ("max_f64", &[0xd2830006, 0x00020902]),     // v_max_f64 v[6:7], v[2:3], v[4:5]
    ("min_f16", &[0x5c0c0702]),                 // v_min_f16_e32 v6, v2, v3
    ("max_f16", &[0x5a0c0702]),                 // v_max_f16_e32 v6, v2, v3
    ("pk_min_f16", &[0xd3914006, 0x18020702]),  // v_pk_min_f16 v6, v2, v3
    ("pk_max_f16", &[0xd3924006, 0x18020702]),  // v_pk_max_f16 v6, v2, v3
];
const GFX1100: &[(&str, &[u32])] = &[
    ("min_f32", &[0x1e0c0702]),                 // v_min_f32_e32 v6, v2, v3
    ("max_f32", &[0x200c0702]),                 // v_max_f32_e32 v6, v2, v3
    ("min_f32_e64", &[0xd50f0006, 0x00020702]), // v_min_f32_e64 v6, v2, v3
    ("max_f32_e64", &[0xd5100006, 0x00020702]), // v_max_f32_e64 v6, v2, v3
    ("min3_f32", &[0xd6190006, 0x04120702]),    // v_min3_f32 v6, v2, v3, v4
    ("max3_f32", &[0xd61c0006, 0x04120702]),    // v_max3_f32 v6, v2, v3, v4
    ("med3_f32", &[0xd61f0006, 0x04120702]),    // v_med3_f32 v6, v2, v3, v4
    ("min_f64", &[0xd7290006, 0x00020902]),     // v_min_f64 v[6:7], v[2:3], v[4:5]
    ("max_f64", &[0xd72a0006, 0x00020902]),     // v_max_f64 v[6:7], v[2:3], v[4:5]
    ("min_f16", &[0x740c0702]),                 // v_min_f16_e32 v6, v2, v3
    ("max_f16", &[0x720c0702]),                 // v_max_f16_e32 v6, v2, v3
    ("pk_min_f16", &[0xcc114006, 0x18020702]),  // v_pk_min_f16 v6, v2, v3
    ("pk_max_f16", &[0xcc124006, 0x18020702]),  // v_pk_max_f16 v6, v2, v3
];

/// The values the lanes hold, in each width.
#[derive(Clone, Copy, Debug)]
enum V {
    /// +0.
    P,
    /// -0.
    N,
    /// 1.0.
    One,
    /// A quiet NaN.
    Nan,
}
use V::*;

impl V {
    fn f16(self) -> u32 {
        match self {
            P => 0,
            N => 0x8000,
            One => 0x3c00,
            Nan => 0x7e00,
        }
    }
    fn f32(self) -> u32 {
        match self {
            P => 0,
            N => 0x8000_0000,
            One => 0x3f80_0000,
            Nan => 0x7fc0_0000,
        }
    }
    fn f64(self) -> u64 {
        match self {
            P => 0,
            N => 0x8000_0000_0000_0000,
            One => 0x3ff0_0000_0000_0000,
            Nan => 0x7ff8_0000_0000_0000,
        }
    }
}

/// Per lane: a, b, c, then min(a, b), max(a, b), min3, max3, med3.
const LANES: [[V; 8]; 9] = [
    [N, P, P, N, P, N, P, P],
    [P, N, N, N, P, N, P, N],
    [N, N, One, N, N, N, One, N],
    [P, P, N, P, P, N, P, P],
    [One, N, P, N, One, N, One, P],
    [Nan, N, P, N, N, N, P, N],
    [N, Nan, P, N, N, N, P, N],
    [P, N, One, N, P, N, One, P],
    [N, P, One, N, P, N, One, P],
];

/// The column of LANES that `name` returns.
fn column(name: &str) -> usize {
    match name {
        n if n.starts_with("min3") => 5,
        n if n.starts_with("max3") => 6,
        n if n.starts_with("med3") => 7,
        n if n.starts_with("min") || n.starts_with("pk_min") => 3,
        _ => 4,
    }
}

#[test]
fn min_and_max_order_negative_zero_below_positive_zero() {
    let col = |i: usize| LANES.map(|lane| lane[i]);
    let (a, b, c) = (col(0), col(1), col(2));
    for (chip, table) in [(Chip::Gfx942, GFX942), (Chip::Gfx1100, GFX1100)] {
        for &(name, code) in table {
            let want = col(column(name));
            // Each width's inputs in v2-v5, and the result from v[6:7].
            let (inputs, expected): ([Vec<u32>; 4], Vec<u64>) = if name.ends_with("f64") {
                let lo = |x: [V; 9]| x.iter().map(|v| v.f64() as u32).collect();
                let hi = |x: [V; 9]| x.iter().map(|v| (v.f64() >> 32) as u32).collect();
                (
                    [lo(a), hi(a), lo(b), hi(b)],
                    want.iter().map(|v| v.f64()).collect(),
                )
            } else if name.starts_with("pk_") {
                // Both halves, the operands swapped in the high one.
                let pack = |x: V, y: V| x.f16() | y.f16() << 16;
                (
                    [
                        (0..9).map(|i| pack(a[i], b[i])).collect(),
                        (0..9).map(|i| pack(b[i], a[i])).collect(),
                        vec![],
                        vec![],
                    ],
                    want.iter().map(|&v| u64::from(pack(v, v))).collect(),
                )
            } else if name.ends_with("f16") {
                let bits = |x: [V; 9]| x.iter().map(|v| v.f16()).collect();
                (
                    [bits(a), bits(b), vec![], vec![]],
                    want.iter().map(|v| u64::from(v.f16())).collect(),
                )
            } else {
                let bits = |x: [V; 9]| x.iter().map(|v| v.f32()).collect();
                (
                    [bits(a), bits(b), bits(c), vec![]],
                    want.iter().map(|v| u64::from(v.f32())).collect(),
                )
            };
            let refs: Vec<&[u32]> = inputs.iter().map(|v| v.as_slice()).collect();
            let got = per_lane(chip, code, &refs);
            for lane in 0..9 {
                assert_eq!(
                    got[lane], expected[lane],
                    "{chip:?} {name}, lane {lane} ({:?}): got {:#x}, want {:#x}",
                    LANES[lane], got[lane], expected[lane]
                );
            }
        }
    }
}
