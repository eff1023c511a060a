//! The f16 VOP1s `v_ceil_f16`, `v_floor_f16`, `v_trunc_f16`,
//! `v_rndne_f16`, `v_fract_f16`, `v_sqrt_f16`, `v_rcp_f16`, `v_rsq_f16`,
//! `v_exp_f16`, `v_log_f16`, `v_sin_f16`, `v_cos_f16` (IREE's f16 math
//! failed to launch): each result the exact or correctly rounded value
//! rounded once to f16, as the f32 forms are (docs/ISA.md, "Float
//! results"); `v_fract_f16` below 0x3bff, the largest f16 under 1, and NaN
//! for infinities; `v_sin_f16`/`v_cos_f16` take revolutions (sin(x * 2pi)).
//! Expected values from numpy: the f16 inputs as float64, numpy's f64
//! functions, rounded once to float16 (`astype(np.float16)`); any NaN
//! stands for NaN. GFX9 zeroes the destination's high half, GFX11 keeps
//! it (zero here). Words from `llvm-mc-19 --arch=amdgcn
//! --mcpu=gfx942|gfx1100 -show-encoding` of `v_<op>_f16 v6, v2`.

mod handmade;

use amdgpu_isa::{Chip, Program, disassemble};
use handmade::per_lane32;

const INPUTS: [u16; 14] = [
    0x3e00, 0xc100, 0x34cd, 0x564b, 0x8000, 0x7c00, 0x4000, 0x399a, 0x0010, 0xfc00, 0x3000, 0xc740,
    0x7bff, 0x01f7,
];

/// (op, gfx9 word, gfx11 word, results for [`INPUTS`]).
type Case = (&'static str, u32, u32, [u16; 14]);

#[rustfmt::skip]
const CASES: [Case; 12] = [
    ("ceil", 0x7e0c8b02, 0x7e0cb902, [0x4000, 0xc000, 0x3c00, 0x5650, 0x8000, 0x7c00, 0x4000, 0x3c00, 0x3c00, 0xfc00, 0x3c00, 0xc700, 0x7bff, 0x3c00]),
    ("floor", 0x7e0c8902, 0x7e0cb702, [0x3c00, 0xc200, 0x0000, 0x5640, 0x8000, 0x7c00, 0x4000, 0x0000, 0x0000, 0xfc00, 0x0000, 0xc800, 0x7bff, 0x0000]),
    ("trunc", 0x7e0c8d02, 0x7e0cbb02, [0x3c00, 0xc000, 0x0000, 0x5640, 0x8000, 0x7c00, 0x4000, 0x0000, 0x0000, 0xfc00, 0x0000, 0xc700, 0x7bff, 0x0000]),
    ("rndne", 0x7e0c8f02, 0x7e0cbd02, [0x4000, 0xc000, 0x0000, 0x5650, 0x8000, 0x7c00, 0x4000, 0x3c00, 0x0000, 0xfc00, 0x0000, 0xc700, 0x7bff, 0x0000]),
    ("fract", 0x7e0c9102, 0x7e0cbf02, [0x3800, 0x3800, 0x34cd, 0x3980, 0x0000, 0x7e00, 0x0000, 0x399a, 0x0010, 0x7e00, 0x3000, 0x3a00, 0x0000, 0x01f7]),
    ("sqrt", 0x7e0c7d02, 0x7e0cab02, [0x3ce6, 0xfe00, 0x3862, 0x4904, 0x8000, 0x7c00, 0x3da8, 0x3ab2, 0x1400, 0xfe00, 0x35a8, 0xfe00, 0x5bff, 0x1d9b]),
    ("rcp", 0x7e0c7b02, 0x7e0ca902, [0x3955, 0xb666, 0x42aa, 0x2116, 0xfc00, 0x0000, 0x3800, 0x3db6, 0x7c00, 0x8000, 0x4800, 0xb06a, 0x0100, 0x7812]),
    ("rsq", 0x7e0c7f02, 0x7e0cad02, [0x3a88, 0xfe00, 0x3f4d, 0x2e61, 0xfc00, 0x0000, 0x39a8, 0x3cc8, 0x6400, 0xfe00, 0x41a8, 0xfe00, 0x1c00, 0x59b5]),
    ("exp", 0x7e0c8302, 0x7e0cb102, [0x41a8, 0x31a8, 0x3ced, 0x7c00, 0x3c00, 0x7c00, 0x4400, 0x3e80, 0x3c00, 0x0000, 0x3c5d, 0x1eba, 0x7c00, 0x3c00]),
    ("log", 0x7e0c8102, 0x7e0caf02, [0x38ae, 0x7e00, 0xbef2, 0x46a7, 0xfc00, 0x7c00, 0x3c00, 0xb81d, 0xcd00, 0x7e00, 0xc200, 0x7e00, 0x4c00, 0xcb83]),
    ("sin", 0x7e0c9302, 0x7e0cc102, [0x0000, 0x8000, 0x3b9c, 0xbb64, 0x8000, 0xfe00, 0x8000, 0xbb9d, 0x0065, 0xfe00, 0x39a8, 0xbc00, 0x8000, 0x0a2c]),
    ("cos", 0x7e0c9502, 0x7e0cc302, [0xbc00, 0xbc00, 0xb4f3, 0xb61f, 0x3c00, 0xfe00, 0x3c00, 0xb4ed, 0x3c00, 0xfe00, 0x39a8, 0x8000, 0x3c00, 0x3c00]),
];

fn is_nan(h: u32) -> bool {
    h & 0x7c00 == 0x7c00 && h & 0x3ff != 0
}

#[test]
fn f16_unary_results_rounded_once() {
    let inputs: Vec<u32> = INPUTS.iter().map(|&h| u32::from(h)).collect();
    for chip in [Chip::Gfx90a, Chip::Gfx942, Chip::Gfx1100] {
        for (name, gfx9, gfx11, want) in CASES {
            let word = if chip == Chip::Gfx1100 { gfx11 } else { gfx9 };
            let got = per_lane32(chip, &[word], &[&inputs]);
            for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
                let w = u32::from(w);
                let ok = if is_nan(w) {
                    is_nan(g) && g >> 16 == 0
                } else {
                    g == w
                };
                assert!(
                    ok,
                    "{chip:?} v_{name}_f16 of {:#06x}: {g:#x}, want {w:#06x}",
                    INPUTS[i]
                );
            }
        }
    }
}

#[test]
fn f16_unary_prints_as_llvm_does() {
    for chip in [Chip::Gfx942, Chip::Gfx1100] {
        for (name, gfx9, gfx11, _) in CASES {
            let word = if chip == Chip::Gfx1100 { gfx11 } else { gfx9 };
            let program = Program::decode(chip, &handmade::bytes(&[word])).unwrap();
            let inst = program.instructions().first().unwrap();
            let text = format!("v_{name}_f16_e32 v6, v2");
            assert_eq!(disassemble(inst, chip), text, "{chip:?}");
        }
    }
}

#[test]
fn f16_unary_source_modifiers() {
    // v_sqrt_f16_e64 v6, |v2|: sqrt(|-4|) = 2.
    let got = per_lane32(Chip::Gfx942, &[0xd17e0106, 0x00000102], &[&[0xc400]]);
    assert_eq!(got, [0x4000]);
    // v_sqrt_f16_e64 v6, -|v2|: sqrt(-4), a NaN.
    let got = per_lane32(Chip::Gfx942, &[0xd17e0106, 0x20000102], &[&[0xc400]]);
    assert!(is_nan(got[0]), "{got:x?}");
}
