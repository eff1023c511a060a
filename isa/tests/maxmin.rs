//! GFX11's `v_maxmin_f32`/`_f16`/`_i32`/`_u32` (min(max(S0, S1), S2)) and
//! `v_minmax_*` (max(min(S0, S1), S2)) (RDNA3 ISA guide, V_MAXMIN_F32:
//! "D0.f32 = v_min_f32(v_max_f32(S0.f32, S1.f32), S2.f32)"): the float
//! forms order -0 below +0 and take a quiet NaN's other operand, as
//! v_min/v_max do. IREE's clamp kernels failed to launch with them.
//! Expected values written out per lane by hand. Words from `llvm-mc-19
//! --arch=amdgcn --mcpu=gfx1100 -show-encoding` of the text in the table,
//! which the disassembler must print.

mod handmade;

use amdgpu_isa::{Chip, Program, disassemble};
use handmade::per_lane32;

const F32_A: [f32; 6] = [1.0, -0.0, f32::NAN, 4.0, 0.0, -0.0];
const F32_B: [f32; 6] = [2.0, 0.0, 3.0, 1.0, -0.0, 0.0];
const F32_C: [f32; 6] = [1.5, 1.0, 5.0, -0.0, -1.0, -0.0];
const F16_A: [u32; 6] = [0x3c00, 0x8000, 0x7e00, 0x4400, 0x0000, 0x8000];
const F16_B: [u32; 6] = [0x4000, 0x0000, 0x4200, 0x3c00, 0x8000, 0x0000];
const F16_C: [u32; 6] = [0x3e00, 0x3c00, 0x4500, 0x8000, 0xbc00, 0x8000];
const INT_A: [u32; 3] = [5, -7i32 as u32, 1];
const INT_B: [u32; 3] = [-3i32 as u32, -9i32 as u32, 2];
const INT_C: [u32; 3] = [2, -8i32 as u32, 0];

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn check(text: &str, words: [u32; 2], inputs: [&[u32]; 3], want: &[u32]) {
    let got = per_lane32(Chip::Gfx1100, &words, &inputs);
    assert_eq!(got, want, "{text}");
    let program = Program::decode(Chip::Gfx1100, &handmade::bytes(&words)).unwrap();
    let inst = program.instructions().first().unwrap();
    assert_eq!(disassemble(inst, Chip::Gfx1100), text);
}

#[test]
fn maxmin_minmax_f32() {
    let (a, b, c) = (bits(&F32_A), bits(&F32_B), bits(&F32_C));
    let inputs = [&a[..], &b, &c];
    let want = bits(&[1.5, 0.0, 3.0, -0.0, -1.0, -0.0]);
    check(
        "v_maxmin_f32 v6, v2, v3, v4",
        [0xd65e0006, 0x04120702],
        inputs,
        &want,
    );
    let want = bits(&[1.5, 1.0, 5.0, 1.0, -0.0, -0.0]);
    check(
        "v_minmax_f32 v6, v2, v3, v4",
        [0xd65f0006, 0x04120702],
        inputs,
        &want,
    );
    // -1 and |-2|: max 2, min(2, 1.5) = 1.5, clamped to 1.
    let (a, b, c) = (bits(&[1.0]), bits(&[-2.0]), bits(&[1.5]));
    check(
        "v_maxmin_f32 v6, -v2, |v3|, v4 clamp",
        [0xd65e8206, 0x24120702],
        [&a, &b, &c],
        &bits(&[1.0]),
    );
}

#[test]
fn maxmin_minmax_f16() {
    let inputs = [&F16_A[..], &F16_B, &F16_C];
    let want = [0x3e00, 0x0000, 0x4200, 0x8000, 0xbc00, 0x8000];
    check(
        "v_maxmin_f16 v6, v2, v3, v4",
        [0xd6600006, 0x04120702],
        inputs,
        &want,
    );
    let want = [0x3e00, 0x3c00, 0x4500, 0x3c00, 0x8000, 0x8000];
    check(
        "v_minmax_f16 v6, v2, v3, v4",
        [0xd6610006, 0x04120702],
        inputs,
        &want,
    );
}

#[test]
fn maxmin_minmax_integers() {
    let inputs = [&INT_A[..], &INT_B, &INT_C];
    let want = [2, -8i32 as u32, 0];
    check(
        "v_maxmin_i32 v6, v2, v3, v4",
        [0xd6640006, 0x04120702],
        inputs,
        &want,
    );
    let want = [2, -8i32 as u32, 1];
    check(
        "v_minmax_i32 v6, v2, v3, v4",
        [0xd6650006, 0x04120702],
        inputs,
        &want,
    );
    let want = [2, -8i32 as u32, 0];
    check(
        "v_maxmin_u32 v6, v2, v3, v4",
        [0xd6620006, 0x04120702],
        inputs,
        &want,
    );
    let want = [5, -8i32 as u32, 1];
    check(
        "v_minmax_u32 v6, v2, v3, v4",
        [0xd6630006, 0x04120702],
        inputs,
        &want,
    );
}
