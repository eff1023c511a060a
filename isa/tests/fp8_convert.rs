//! gfx942's conversions from fp8 (E4M3FNUZ: bias 8) and bf8 (E5M2FNUZ:
//! bias 16; neither has infinities, 0x80 is their NaN) to f32:
//! `v_cvt_f32_fp8`/`_bf8` convert byte 0 of the source (the SDWA form the
//! byte `src0_sel` picks), `v_cvt_pk_f32_fp8`/`_bf8` bytes 0 and 1 into a
//! register pair (SDWA: the word `src0_sel` picks); exact, then VOP3's
//! output modifier. IREE's data-tiled f8 kernels failed to launch with
//! them. Expected values worked out by hand from the formats. Words from
//! `llvm-mc-19 --arch=amdgcn --mcpu=gfx942 -show-encoding` of the text,
//! which the disassembler must print.

mod handmade;

use amdgpu_isa::{Chip, Program, disassemble};
use handmade::per_lane;

/// (text, words, (v6, v7) of lanes 0 and 1).
type Case = (&'static str, &'static [u32], [(f32, f32); 2]);

/// Lane 0's bytes 0x40, 0x38, 0x7f, 0x01; lane 1's 0x80, 0xc4, 0x00, 0x40.
const WORDS: [u32; 2] = [0x017f_3840, 0x4000_c480];

fn run(text: &str, words: &[u32]) -> Vec<(f32, f32)> {
    let program = Program::decode(Chip::Gfx942, &handmade::bytes(words)).unwrap();
    let inst = program.instructions().first().unwrap();
    assert_eq!(disassemble(inst, Chip::Gfx942), text);
    per_lane(Chip::Gfx942, words, &[&WORDS])
        .into_iter()
        .map(|q| (f32::from_bits(q as u32), f32::from_bits((q >> 32) as u32)))
        .collect()
}

/// Equal, NaN equal to NaN.
fn same(got: &[(f32, f32)], want: &[(f32, f32)]) -> bool {
    let eq = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
    got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| eq(g.0, w.0) && eq(g.1, w.1))
}

#[test]
fn fp8_to_f32() {
    let cases: [Case; 5] = [
        // Byte 0: 1.0; NaN.
        (
            "v_cvt_f32_fp8_e32 v6, v2",
            &[0x7e0ca902],
            [(1.0, 0.0), (f32::NAN, 0.0)],
        ),
        // Byte 2: 0x7f = 1.875 * 2^7; 0.
        (
            "v_cvt_f32_fp8_sdwa v6, v2 src0_sel:BYTE_2",
            &[0x7e0ca8f9, 0x00020602],
            [(240.0, 0.0), (0.0, 0.0)],
        ),
        // Bytes 0 and 1: 1.0, 0.5; NaN, 0xc4 = -1.5.
        (
            "v_cvt_pk_f32_fp8_e32 v[6:7], v2",
            &[0x7e0cad02],
            [(1.0, 0.5), (f32::NAN, -1.5)],
        ),
        // Bytes 2 and 3: 240, 0x01 = 1/8 * 2^-7 (a denormal); 0, 1.0.
        (
            "v_cvt_pk_f32_fp8_sdwa v[6:7], v2 src0_sel:WORD_1",
            &[0x7e0cacf9, 0x00050602],
            [(240.0, 2f32.powi(-10)), (0.0, 1.0)],
        ),
        // Byte 0 times 2.
        (
            "v_cvt_f32_fp8_e64 v6, v2 mul:2",
            &[0xd1940006, 0x08000102],
            [(2.0, 0.0), (f32::NAN, 0.0)],
        ),
    ];
    for (text, words, want) in cases {
        let got = run(text, words);
        assert!(same(&got, &want), "{text}: {got:?}, want {want:?}");
    }
}

#[test]
fn bf8_to_f32() {
    let cases: [Case; 2] = [
        // Byte 0: 0x40 = 2^(16-16); NaN.
        (
            "v_cvt_f32_bf8_e32 v6, v2",
            &[0x7e0cab02],
            [(1.0, 0.0), (f32::NAN, 0.0)],
        ),
        // Bytes 0 and 1: 1.0, 0x38 = 2^(14-16); NaN, 0xc4 = -2^(17-16).
        (
            "v_cvt_pk_f32_bf8_e32 v[6:7], v2",
            &[0x7e0caf02],
            [(1.0, 0.25), (f32::NAN, -2.0)],
        ),
    ];
    for (text, words, want) in cases {
        let got = run(text, words);
        assert!(same(&got, &want), "{text}: {got:?}, want {want:?}");
    }
}
