//! gfx950's (CDNA4) new VALU operations that IREE emits, per lane, against
//! values from outside the interpreter: `v_cvt_pk_f16_f32` and
//! `v_cvt_pk_bf16_f32` against numpy's (and ml_dtypes') round-to-nearest-
//! even conversions of the same f32 bits (`np.float32 -> np.float16`,
//! `-> ml_dtypes.bfloat16`, the clamped case through `np.clip`), pasted
//! below; `v_bitop3_b32`/`_b16` against the boolean function each truth
//! table stands for, written out by hand from the CDNA4 ISA guide's
//! definition (bit `{S0, S1, S2}` of the table, S0 the high bit). Words
//! from `llvm-mc-22 --arch=amdgcn --mcpu=gfx950 -show-encoding` of the text
//! beside them (LLVM 19 does not know gfx950).

mod handmade;

use amdgpu_isa::Chip;
use handmade::per_lane32;

/// f32 inputs (bits): ordinary values, f16's largest finite and the tie
/// just above it, an underflow, a subnormal result, a tie, infinities,
/// -0 and a value that rounds up.
const A: [u32; 10] = [
    0x3f80_0000,
    0xc020_0000,
    0x477f_e000,
    0x477f_f000,
    0x322b_cc77,
    0x37fb_a882,
    0x3f80_3000,
    0x7f80_0000,
    0x8000_0000,
    0x3eaa_aaab,
];
const B: [u32; 10] = [
    0x3f00_0000,
    0x42c8_0000,
    0xc77f_ef00,
    0x47c3_5000,
    0xb87f_da40,
    0x3380_0000,
    0x3300_0000,
    0xff80_0000,
    0x40e0_0000,
    0x3fff_ffff,
];

#[test]
fn cvt_pk_f16_f32_rounds_each_source_to_nearest_even() {
    // v_cvt_pk_f16_f32 v6, v2, v3
    let got = per_lane32(Chip::Gfx950, &[0xd267_0006, 0x0002_0702], &[&A, &B]);
    let want = [
        0x3800_3c00,
        0x5640_c100,
        0xfbff_7bff,
        0x7c00_7c00,
        0x83ff_0000,
        0x0001_01f7,
        0x0000_3c02,
        0xfc00_7c00,
        0x4700_8000,
        0x4000_3555,
    ];
    assert_eq!(got, want);
}

#[test]
fn cvt_pk_f16_f32_takes_neg_abs_and_clamp() {
    // v_cvt_pk_f16_f32 v6, -v2, |v3| clamp
    let got = per_lane32(Chip::Gfx950, &[0xd267_8206, 0x2002_0702], &[&A, &B]);
    let want = [
        0x3800_0000,
        0x3c00_3c00,
        0x3c00_0000,
        0x3c00_0000,
        0x03ff_0000,
        0x0001_0000,
        0,
        0x3c00_0000,
        0x3c00_0000,
        0x3c00_0000,
    ];
    assert_eq!(got, want);
}

#[test]
fn cvt_pk_bf16_f32_rounds_each_source_to_nearest_even() {
    // v_cvt_pk_bf16_f32 v6, v2, v3
    let got = per_lane32(Chip::Gfx950, &[0xd268_0006, 0x0002_0702], &[&A, &B]);
    let want = [
        0x3f00_3f80,
        0x42c8_c020,
        0xc780_4780,
        0x47c3_4780,
        0xb880_322c,
        0x3380_37fc,
        0x3300_3f80,
        0xff80_7f80,
        0x40e0_8000,
        0x4000_3eab,
    ];
    assert_eq!(got, want);
}

const X: [u32; 4] = [0x0000_0000, 0xffff_ffff, 0x1234_5678, 0xf0f0_0f0f];
const Y: [u32; 4] = [0xffff_ffff, 0x0000_ffff, 0x9abc_def0, 0x3c3c_3c3c];
const Z: [u32; 4] = [0x5555_aaaa, 0xff00_ff00, 0x0f0f_f0f0, 0xaaaa_5555];

#[test]
fn bitop3_b32_is_the_truth_tables_function() {
    type F = fn(u32, u32, u32) -> u32;
    let cases: [(&str, [u32; 2], F); 4] = [
        // bitop3:0x96, three-way exclusive or
        ("0x96", [0xd234_0206, 0xd412_0702], |a, b, c| a ^ b ^ c),
        // 0xc8: minterms 011, 110, 111
        ("0xc8", [0xd234_0106, 0x1c12_0702], |a, b, c| (a | c) & b),
        // 0x48: minterms 011, 110 (IREE's gfx950 address arithmetic)
        ("0x48", [0xd234_0106, 0x0c12_0702], |a, b, c| b & (a ^ c)),
        // 0xe8: majority
        ("0xe8", [0xd234_0506, 0x1c12_0702], |a, b, c| {
            (a & b) | (a & c) | (b & c)
        }),
    ];
    for (table, words, f) in cases {
        let got = per_lane32(Chip::Gfx950, &words, &[&X, &Y, &Z]);
        let want: Vec<u32> = (0..4).map(|i| f(X[i], Y[i], Z[i])).collect();
        assert_eq!(got, want, "bitop3:{table}");
    }
}

#[test]
fn bitop3_b16_reads_and_writes_the_halves_op_sel_picks() {
    // v_bitop3_b16 v6, v2, v3, v4 bitop3:0x96 op_sel:[1,0,1,1]: S0's and
    // S2's high halves, S1's low, into v6's high half (its low half, 0
    // before, kept).
    let got = per_lane32(Chip::Gfx950, &[0xd233_6a06, 0xd412_0702], &[&X, &Y, &Z]);
    let want: Vec<u32> = (0..4)
        .map(|i| ((X[i] >> 16) ^ (Y[i] & 0xffff) ^ (Z[i] >> 16)) << 16)
        .collect();
    assert_eq!(got, want);
}

#[test]
fn the_disassembler_prints_what_llvm_22_prints() {
    use amdgpu_isa::{Program, disassemble};
    for (words, text) in [
        (
            [0xd267_8206, 0x2002_0702],
            "v_cvt_pk_f16_f32 v6, -v2, |v3| clamp",
        ),
        ([0xd268_0006, 0x0002_0702], "v_cvt_pk_bf16_f32 v6, v2, v3"),
        (
            [0xd234_0206, 0xd412_0702],
            "v_bitop3_b32 v6, v2, v3, v4 bitop3:0x96",
        ),
        (
            [0xd234_0100, 0x240e_0501],
            "v_bitop3_b32 v0, v1, v2, v3 bitop3:9",
        ),
        (
            [0xd234_0100, 0x440e_0501],
            "v_bitop3_b32 v0, v1, v2, v3 bitop3:10",
        ),
        ([0xd234_0000, 0x040e_0501], "v_bitop3_b32 v0, v1, v2, v3"),
        (
            [0xd233_6a06, 0xd412_0702],
            "v_bitop3_b16 v6, v2, v3, v4 bitop3:0x96 op_sel:[1,0,1,1]",
        ),
    ] {
        let program = Program::decode(Chip::Gfx950, &handmade::bytes(&words)).unwrap();
        let inst = program.instructions().first().unwrap();
        assert_eq!(disassemble(inst, Chip::Gfx950), text);
    }
}
