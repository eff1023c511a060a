//! GFX12's scalar f16 ALU and the scalar float operations that came with it
//! (gfx1201): `s_add_f16`, `s_sub_f16`, `s_mul_f16`, `s_fmac_f16`,
//! `s_min_num_f16`, `s_max_num_f16`, `s_minimum_f16`, `s_maximum_f16`, the
//! f16 roundings (`s_ceil_f16`, `s_floor_f16`, `s_trunc_f16`,
//! `s_rndne_f16`), the conversions `s_cvt_f32_f16`, `s_cvt_hi_f32_f16`,
//! `s_cvt_f16_f32`, `s_cvt_pk_rtz_f16_f32`, the f32 `s_fmaak_f32`,
//! `s_fmamk_f32` (K a literal, also shared with a literal source),
//! `s_minimum_f32`, `s_maximum_f32`, and `s_pack_hl_b32_b16`. Each case's
//! expected results come from `scalar_half/generate.py` (numpy's IEEE half
//! and single precision, exact rationals for the fused forms), which
//! follows the RDNA4 guide's definitions: the VALU's results, f16 sources
//! the low half of their SGPR, and an f16 result clearing the high half
//! (the sources' high halves here are not zero, to show both). Kernel words
//! from `llvm-mc-19 --arch=amdgcn --mcpu=gfx1201 -show-encoding` of the text
//! beside each.

mod handmade;

use amdgpu_isa::{Chip, Program, Regions};
use handmade::bytes;

const OUTPUT: u64 = 0x20_0000;
/// The results the kernel stores, in `cases.txt`'s order.
const RESULTS: usize = 24;
const CASES: &str = include_str!("scalar_half/cases.txt");

/// s0-s4 the case's inputs (s0: an f16 in each half, s1 and s2 an f16 in
/// the low half, s3 and s4 f32), s[6:7] the output; results in s8-s31,
/// stored in that order.
const KERNEL: &[u32] = &[
    0xa4880100, // s_add_f16 s8, s0, s1
    0xa5090100, // s_sub_f16 s9, s0, s1
    0xa68a0100, // s_mul_f16 s10, s0, s1
    0xbe8b0002, // s_mov_b32 s11, s2
    0xa70b0100, // s_fmac_f16 s11, s0, s1
    0xa58c0100, // s_min_num_f16 s12, s0, s1
    0xa60d0100, // s_max_num_f16 s13, s0, s1
    0xa88e0100, // s_minimum_f16 s14, s0, s1
    0xa90f0100, // s_maximum_f16 s15, s0, s1
    0xbe906b00, // s_ceil_f16 s16, s0
    0xbe916c00, // s_floor_f16 s17, s0
    0xbe926d00, // s_trunc_f16 s18, s0
    0xbe936e00, // s_rndne_f16 s19, s0
    0xbe946900, // s_cvt_f32_f16 s20, s0
    0xbe956a00, // s_cvt_hi_f32_f16 s21, s0
    0xbe966803, // s_cvt_f16_f32 s22, s3
    0xa4170403, // s_cvt_pk_rtz_f16_f32 s23, s3, s4
    0xa2980403, 0x3fc00000, // s_fmaak_f32 s24, s3, s4, 0x3fc00000
    0xa3190403, 0xc0400000, // s_fmamk_f32 s25, s3, 0xc0400000, s4
    0xa79a0403, // s_minimum_f32 s26, s3, s4
    0xa81b0403, // s_maximum_f32 s27, s3, s4
    0x9a9c0100, // s_pack_hl_b32_b16 s28, s0, s1
    0xa49df200, // s_add_f16 s29, s0, 1.0
    0xa69eff00, 0x00004200, // s_mul_f16 s30, s0, 0x4200
    0xa29f04ff, 0x3fc00000, // s_fmaak_f32 s31, 0x3fc00000, s4, 0x3fc00000
    0x7e020208, // v_mov_b32_e32 v1, s8
    0x7e040209, // v_mov_b32_e32 v2, s9
    0x7e06020a, // v_mov_b32_e32 v3, s10
    0x7e08020b, // v_mov_b32_e32 v4, s11
    0x7e0a020c, // v_mov_b32_e32 v5, s12
    0x7e0c020d, // v_mov_b32_e32 v6, s13
    0x7e0e020e, // v_mov_b32_e32 v7, s14
    0x7e10020f, // v_mov_b32_e32 v8, s15
    0x7e120210, // v_mov_b32_e32 v9, s16
    0x7e140211, // v_mov_b32_e32 v10, s17
    0x7e160212, // v_mov_b32_e32 v11, s18
    0x7e180213, // v_mov_b32_e32 v12, s19
    0x7e1a0214, // v_mov_b32_e32 v13, s20
    0x7e1c0215, // v_mov_b32_e32 v14, s21
    0x7e1e0216, // v_mov_b32_e32 v15, s22
    0x7e200217, // v_mov_b32_e32 v16, s23
    0x7e220218, // v_mov_b32_e32 v17, s24
    0x7e240219, // v_mov_b32_e32 v18, s25
    0x7e26021a, // v_mov_b32_e32 v19, s26
    0x7e28021b, // v_mov_b32_e32 v20, s27
    0x7e2a021c, // v_mov_b32_e32 v21, s28
    0x7e2c021d, // v_mov_b32_e32 v22, s29
    0x7e2e021e, // v_mov_b32_e32 v23, s30
    0x7e30021f, // v_mov_b32_e32 v24, s31
    0xee074006, 0x00800000, 0x00000000, // global_store_b128 v0, v[1:4], s[6:7]
    0xee074006, 0x02800000, 0x00001000, // global_store_b128 v0, v[5:8], s[6:7] offset:16
    0xee074006, 0x04800000, 0x00002000, // global_store_b128 v0, v[9:12], s[6:7] offset:32
    0xee074006, 0x06800000, 0x00003000, // global_store_b128 v0, v[13:16], s[6:7] offset:48
    0xee074006, 0x08800000, 0x00004000, // global_store_b128 v0, v[17:20], s[6:7] offset:64
    0xee074006, 0x0a800000, 0x00005000, // global_store_b128 v0, v[21:24], s[6:7] offset:80
    0xbfb00000, // s_endpgm
];

/// The 24 results for `user`'s inputs.
fn results(program: &Program, inputs: &[u32; 5]) -> Vec<u32> {
    let mut memory = Regions::new(vec![(OUTPUT, vec![0; RESULTS * 4])]);
    let mut user = inputs.to_vec();
    user.extend([0, OUTPUT as u32, (OUTPUT >> 32) as u32]);
    handmade::run(program, &user, 1, &mut memory).unwrap();
    memory
        .bytes(OUTPUT)
        .unwrap()
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect()
}

/// Whether `got` is what `want` (a hex word, `nan16` or `nan32`) says.
fn matches(got: u32, want: &str) -> bool {
    match want {
        // Any f16 NaN, the high half clear.
        "nan16" => got >> 16 == 0 && got & 0x7c00 == 0x7c00 && got & 0x3ff != 0,
        "nan32" => f32::from_bits(got).is_nan(),
        hex => u32::from_str_radix(hex, 16).unwrap() == got,
    }
}

const NAMES: [&str; RESULTS] = [
    "s_add_f16",
    "s_sub_f16",
    "s_mul_f16",
    "s_fmac_f16",
    "s_min_num_f16",
    "s_max_num_f16",
    "s_minimum_f16",
    "s_maximum_f16",
    "s_ceil_f16",
    "s_floor_f16",
    "s_trunc_f16",
    "s_rndne_f16",
    "s_cvt_f32_f16",
    "s_cvt_hi_f32_f16",
    "s_cvt_f16_f32",
    "s_cvt_pk_rtz_f16_f32",
    "s_fmaak_f32",
    "s_fmamk_f32",
    "s_minimum_f32",
    "s_maximum_f32",
    "s_pack_hl_b32_b16",
    "s_add_f16 (inline 1.0)",
    "s_mul_f16 (literal 3.0)",
    "s_fmaak_f32 (shared literal)",
];

#[test]
fn gfx12_scalar_f16_and_float_operations_compute_their_definitions() {
    let program = Program::decode(Chip::Gfx1201, &bytes(KERNEL)).unwrap();
    let mut wrong = Vec::new();
    let mut cases = 0;
    for line in CASES.lines() {
        let (inputs, wants) = line.split_once(" : ").expect("INPUTS : RESULTS");
        let inputs: Vec<u32> = inputs
            .split_whitespace()
            .map(|w| u32::from_str_radix(w, 16).unwrap())
            .collect();
        let wants: Vec<&str> = wants.split_whitespace().collect();
        assert_eq!((inputs.len(), wants.len()), (5, RESULTS), "{line}");
        let got = results(&program, &inputs.clone().try_into().unwrap());
        for (i, (&got, want)) in got.iter().zip(&wants).enumerate() {
            if !matches(got, want) {
                wrong.push(format!(
                    "{} {inputs:08x?}: {got:08x}, want {want}",
                    NAMES[i]
                ));
            }
        }
        cases += 1;
    }
    assert!(cases > 400, "only {cases} cases");
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// `v_s_rcp_f16`, `v_s_rsq_f16`, `v_s_sqrt_f16`, `v_s_exp_f16`,
/// `v_s_log_f16` (s8-s12) of s0-s4, stored in that order.
const TRANSCENDENTALS: &[u32] = &[
    0xd6850008, 0x00000000, // v_s_rcp_f16 s8, s0
    0xd6870009, 0x00000001, // v_s_rsq_f16 s9, s1
    0xd689000a, 0x00000002, // v_s_sqrt_f16 s10, s2
    0xd681000b, 0x00000003, // v_s_exp_f16 s11, s3
    0xd683000c, 0x00000004, // v_s_log_f16 s12, s4
    0x7e020208, // v_mov_b32_e32 v1, s8
    0x7e040209, // v_mov_b32_e32 v2, s9
    0x7e06020a, // v_mov_b32_e32 v3, s10
    0x7e08020b, // v_mov_b32_e32 v4, s11
    0x7e0a020c, // v_mov_b32_e32 v5, s12
    0xee074006, 0x00800000, 0x00000000, // global_store_b128 v0, v[1:4], s[6:7]
    0xee068006, 0x02800000, 0x00001000, // global_store_b32 v0, v5, s[6:7] offset:16
    0xbfb00000, // s_endpgm
];

/// GFX12's scalar f16 transcendentals give the results the RDNA4 guide's
/// functional examples of their per-lane forms (`V_RCP_F16`, `V_RSQ_F16`,
/// `V_SQRT_F16`, `V_EXP_F16`, `V_LOG_F16`) list, the high half cleared
/// (each source's high half is not zero).
#[test]
fn gfx12_scalar_f16_transcendentals_give_the_guides_examples() {
    let program = Program::decode(Chip::Gfx1201, &bytes(TRANSCENDENTALS)).unwrap();
    // (rcp, rsq, sqrt, exp, log): input -> result, from the guide.
    let cases: [[(u32, u32); 5]; 3] = [
        [
            (0xc000, 0xb800), // rcp(-2.0) = -0.5
            (0x4400, 0x3800), // rsq(+4.0) = +0.5
            (0x4400, 0x4000), // sqrt(+4.0) = +2.0
            (0x8000, 0x3c00), // exp(-0.0) = 1
            (0x3c00, 0x0000), // log(+1.0) = 0
        ],
        [
            (0x8000, 0xfc00), // rcp(-0.0) = -INF
            (0x0000, 0x7c00), // rsq(+0.0) = +INF
            (0x8000, 0x8000), // sqrt(-0.0) = -0
            (0xfc00, 0x0000), // exp(-INF) = 0
            (0x0000, 0xfc00), // log(+0.0) = -INF
        ],
        [
            (0x7c00, 0x0000), // rcp(+INF) = +0
            (0x7c00, 0x0000), // rsq(+INF) = +0
            (0x7c00, 0x7c00), // sqrt(+INF) = +INF
            (0x7c00, 0x7c00), // exp(+INF) = +INF
            (0x7c00, 0x7c00), // log(+INF) = +INF
        ],
    ];
    for case in cases {
        let mut memory = Regions::new(vec![(OUTPUT, vec![0; 20])]);
        let mut user: Vec<u32> = case.iter().map(|&(x, _)| 0xa5a5_0000 | x).collect();
        user.extend([0, OUTPUT as u32, (OUTPUT >> 32) as u32]);
        handmade::run(&program, &user, 1, &mut memory).unwrap();
        let got: Vec<u32> = memory
            .bytes(OUTPUT)
            .unwrap()
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
            .collect();
        let want: Vec<u32> = case.iter().map(|&(_, d)| d).collect();
        assert_eq!(got, want, "inputs {case:x?}");
    }
}
