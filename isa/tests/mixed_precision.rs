//! VOP3P mixed-precision FMAs (`v_fma_mix_f32`, `v_fma_mixlo_f16`,
//! `v_fma_mixhi_f16`, which IREE and Triton emit for f16 arithmetic with
//! f32 accumulation): each source is an f32 (`op_sel_hi` bit clear) or the
//! f16 half `op_sel` picks, `neg_lo` negates it and `neg_hi` takes its
//! absolute value; the result is rounded once. Expected values worked out
//! by hand and checked with numpy (`np.float16`, `np.float32`, exact
//! products as fractions).

mod handmade;

use amdgpu_isa::Chip;
use handmade::per_lane32;

struct Case {
    name: &'static str,
    gfx9: &'static [u32],
    gfx11: &'static [u32],
    /// Per lane: v2, v3, v4, v5 and the expected v6.
    lanes: &'static [[u32; 5]],
}

const CASES: &[Case] = &[
    Case {
        // a: v2's low f16, b: v3's high f16, c: v4 as f32.
        name: "mix_f32 f16 halves and an f32",
        gfx9: &[0xd3a01006, 0x1c120702], // v_fma_mix_f32 v6, v2, v3, v4 op_sel:[0,1,0] op_sel_hi:[1,1,0]
        gfx11: &[0xcc201006, 0x1c120702], // v_fma_mix_f32 v6, v2, v3, v4 op_sel:[0,1,0] op_sel_hi:[1,1,0]
        lanes: &[
            // 1.5 * 2.0 + 0.25 = 3.25.
            [0x1234_3e00, 0x4000_5678, 0x3e80_0000, 0, 0x4050_0000],
            // -0.5 * 3.0 + 1.0 = -0.5.
            [0x1234_b800, 0x4200_5678, 0x3f80_0000, 0, 0xbf00_0000],
            // 65504 * 65504, past f16's range, exact in f32.
            [0x1234_7bff, 0x7bff_5678, 0, 0, 0x4f7f_c004],
        ],
    },
    Case {
        // -(v2's high f16) * |v3's low f16| + v4, clamped to [0, 1].
        name: "mix_f32 neg, abs and clamp",
        gfx9: &[0xd3a08a06, 0x3c120702], // v_fma_mix_f32 v6, -v2, |v3|, v4 op_sel:[1,0,0] op_sel_hi:[1,1,0] clamp
        gfx11: &[0xcc208a06, 0x3c120702], // v_fma_mix_f32 v6, -v2, |v3|, v4 op_sel:[1,0,0] op_sel_hi:[1,1,0] clamp
        lanes: &[
            // 1.0 * 0.5 + 0.25 = 0.75.
            [0xbc00_0000, 0x0000_b800, 0x3e80_0000, 0, 0x3f40_0000],
            // -2.0 * 1.0 + 0.5 = -1.5, clamped to 0.
            [0x4000_0000, 0x0000_3c00, 0x3f00_0000, 0, 0],
            // 2.0 * 2.0 + 0 = 4, clamped to 1.
            [0xc000_0000, 0x0000_4000, 0, 0, 0x3f80_0000],
        ],
    },
    Case {
        // f32 sources rounded once to f16 in the low half; the high half
        // (from v5) kept.
        name: "mixlo_f16 f32 sources",
        gfx9: &[
            0x7e0c0305, // v_mov_b32_e32 v6, v5
            0xd3a10006, 0x04120702, // v_fma_mixlo_f16 v6, v2, v3, v4
        ],
        gfx11: &[
            0x7e0c0305, // v_mov_b32_e32 v6, v5
            0xcc210006, 0x04120702, // v_fma_mixlo_f16 v6, v2, v3, v4
        ],
        lanes: &[
            // (1 + 2^-11)(1 + 2^-19) - 2^-19 = 1 + 2^-11 + 2^-30: above the
            // halfway point between f16's 1 and 1 + 2^-10, so 0x3c01;
            // rounding to f32 first would give the tie, and 1.0.
            [
                0x3f80_1000,
                0x3f80_0010,
                0xb600_0000,
                0xabcd_1234,
                0xabcd_3c01,
            ],
            // 2 * 3 + 1 = 7.
            [
                0x4000_0000,
                0x4040_0000,
                0x3f80_0000,
                0xabcd_1234,
                0xabcd_4700,
            ],
            // 256 * 256 = 65536: past f16's largest finite, infinity.
            [0x4380_0000, 0x4380_0000, 0, 0xabcd_1234, 0xabcd_7c00],
        ],
    },
    Case {
        // f16 sources (low halves) into the high half; the low half kept.
        name: "mixhi_f16 f16 sources",
        gfx9: &[
            0x7e0c0305, // v_mov_b32_e32 v6, v5
            0xd3a24006, 0x1c120702, // v_fma_mixhi_f16 v6, v2, v3, v4 op_sel_hi:[1,1,1]
        ],
        gfx11: &[
            0x7e0c0305, // v_mov_b32_e32 v6, v5
            0xcc224006, 0x1c120702, // v_fma_mixhi_f16 v6, v2, v3, v4 op_sel_hi:[1,1,1]
        ],
        lanes: &[
            // 1.5 * 2 + 0.25 = 3.25.
            [0x3e00, 0x4000, 0x3400, 0xabcd_1234, 0x4280_1234],
            // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20: 1 + 2^-9.
            [0x3c01, 0x3c01, 0, 0xabcd_1234, 0x3c02_1234],
            // -1 * 1 + 1 = +0.
            [0xbc00, 0x3c00, 0x3c00, 0xabcd_1234, 0x0000_1234],
        ],
    },
];

#[test]
fn mixed_precision_fma_reads_each_source_as_its_bits_say_and_rounds_once() {
    for chip in [Chip::Gfx90a, Chip::Gfx942, Chip::Gfx1100] {
        for case in CASES {
            let code = if chip == Chip::Gfx1100 {
                case.gfx11
            } else {
                case.gfx9
            };
            let column = |i: usize| case.lanes.iter().map(|l| l[i]).collect::<Vec<u32>>();
            let inputs = [column(0), column(1), column(2), column(3)];
            let refs: Vec<&[u32]> = inputs.iter().map(|v| v.as_slice()).collect();
            let got = per_lane32(chip, code, &refs);
            for (lane, want) in column(4).into_iter().enumerate() {
                assert_eq!(
                    got[lane], want,
                    "{chip:?} {}, lane {lane}: got {:#x}, want {want:#x}",
                    case.name, got[lane]
                );
            }
        }
    }
}
