//! GFX12's new scalar operations (gfx1201), each against its definition
//! in AMD's RDNA4 instruction set guide: the 64-bit `s_add_nc_u64`,
//! `s_sub_nc_u64` (which keep SCC) and `s_mul_u64` (low 64 bits), the
//! scalar float `s_add_f32`, `s_sub_f32`, `s_mul_f32`, `s_min_num_f32`,
//! `s_max_num_f32`, `s_fmac_f32`, the conversions (`s_cvt_f32_i32`,
//! `s_cvt_f32_u32`, `s_cvt_i32_f32`, `s_cvt_u32_f32`) and roundings
//! (`s_trunc_f32`, `s_floor_f32`, `s_ceil_f32`, `s_rndne_f32`), the float
//! compares (`s_cmp_lt_f32`, ...: as `v_cmp_*`), the VOP3-encoded scalar
//! transcendentals (`v_s_sqrt_f32`, `v_s_rcp_f32`), and the narrow scalar loads (`s_load_u8`, `s_load_i8`,
//! `s_load_u16`, `s_load_i16`: one value zero- or sign-extended) and
//! `s_load_b96`. Words from `llvm-mc-19 --arch=amdgcn --mcpu=gfx1201
//! -show-encoding` of the text beside each.

mod handmade;

use amdgpu_isa::{Chip, Program, Regions};
use handmade::bytes;

const INPUT: u64 = 0x10_0000;
const OUTPUT: u64 = 0x20_0000;

/// s[0:1] = X, s[2:3] = Y, s[4:5] = the output, s[6:7] = the input; the
/// results (s8-s22, SCC after `s_add_nc_u64` as s24, `s_load_b96`'s three,
/// then the conversions, roundings and `s_fmac_f32`, s31-s39, and SCC after
/// three float compares, s40-s42, `v_s_sqrt_f32` and `v_s_rcp_f32` of 16,
/// s43 and s45) stored in that order.
const KERNEL: &[u32] = &[
    0xbf060000, // s_cmp_eq_u32 s0, s0
    0xa9880200, // s_add_nc_u64 s[8:9], s[0:1], s[2:3]
    0x98188081, // s_cselect_b32 s24, 1, 0
    0xaa0a0200, // s_sub_nc_u64 s[10:11], s[0:1], s[2:3]
    0xaa8c0200, // s_mul_u64 s[12:13], s[0:1], s[2:3]
    0xa00e0200, // s_add_f32 s14, s0, s2
    0xa08f0200, // s_sub_f32 s15, s0, s2
    0xa2100200, // s_mul_f32 s16, s0, s2
    0xa1110200, // s_min_num_f32 s17, s0, s2
    0xa1920200, // s_max_num_f32 s18, s0, s2
    0xf40124c3, 0xf8000001, // s_load_u8 s19, s[6:7], 0x1
    0xf4010503, 0xf8000001, // s_load_i8 s20, s[6:7], 0x1
    0xf4016543, 0xf8000002, // s_load_u16 s21, s[6:7], 0x2
    0xf4014583, 0xf8000002, // s_load_i16 s22, s[6:7], 0x2
    0xf400a703, 0xf8000004, // s_load_b96 s[28:30], s[6:7], 0x4
    0xbe9f6402, // s_cvt_f32_i32 s31, s2
    0xbea06502, // s_cvt_f32_u32 s32, s2
    0xbea16602, // s_cvt_i32_f32 s33, s2
    0xbea26702, // s_cvt_u32_f32 s34, s2
    0xbea362ff, 0xc0200000, // s_trunc_f32 s35, 0xc0200000
    0xbea461ff, 0xc0200000, // s_floor_f32 s36, 0xc0200000
    0xbea560ff, 0xc0200000, // s_ceil_f32 s37, 0xc0200000
    0xbea663ff, 0xc0200000, // s_rndne_f32 s38, 0xc0200000
    0xbea70000, // s_mov_b32 s39, s0
    0xa3a70200, // s_fmac_f32 s39, s0, s2
    0xbf410002, // s_cmp_lt_f32 s2, s0
    0x98288081, // s_cselect_b32 s40, 1, 0
    0xbf4e0002, // s_cmp_nlt_f32 s2, s0
    0x98298081, // s_cselect_b32 s41, 1, 0
    0xbf48ff00, 0x7fc00000, // s_cmp_u_f32 s0, 0x7fc00000
    0x982a8081, // s_cselect_b32 s42, 1, 0
    0xbeac00ff, 0x41800000, // s_mov_b32 s44, 0x41800000
    0xd688002b, 0x0000002c, // v_s_sqrt_f32 s43, s44
    0xd684002d, 0x0000002c, // v_s_rcp_f32 s45, s44
    0xbfc70000, // s_wait_kmcnt 0x0
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
    0x7e200218, // v_mov_b32_e32 v16, s24
    0x7e22021c, // v_mov_b32_e32 v17, s28
    0x7e24021d, // v_mov_b32_e32 v18, s29
    0x7e26021e, // v_mov_b32_e32 v19, s30
    0x7e280280, // v_mov_b32_e32 v20, 0
    0xee074004, 0x00800000, 0x00000000, // global_store_b128 v0, v[1:4], s[4:5]
    0xee074004, 0x02800000, 0x00001000, // global_store_b128 v0, v[5:8], s[4:5] offset:16
    0xee074004, 0x04800000, 0x00002000, // global_store_b128 v0, v[9:12], s[4:5] offset:32
    0xee074004, 0x06800000, 0x00003000, // global_store_b128 v0, v[13:16], s[4:5] offset:48
    0xee074004, 0x08800000, 0x00004000, // global_store_b128 v0, v[17:20], s[4:5] offset:64
    0x7e2a021f, // v_mov_b32_e32 v21, s31
    0x7e2c0220, // v_mov_b32_e32 v22, s32
    0x7e2e0221, // v_mov_b32_e32 v23, s33
    0x7e300222, // v_mov_b32_e32 v24, s34
    0x7e320223, // v_mov_b32_e32 v25, s35
    0x7e340224, // v_mov_b32_e32 v26, s36
    0x7e360225, // v_mov_b32_e32 v27, s37
    0x7e380226, // v_mov_b32_e32 v28, s38
    0x7e3a0227, // v_mov_b32_e32 v29, s39
    0x7e3c0228, // v_mov_b32_e32 v30, s40
    0x7e3e0229, // v_mov_b32_e32 v31, s41
    0x7e40022a, // v_mov_b32_e32 v32, s42
    0xee074004, 0x0a800000, 0x00005000, // global_store_b128 v0, v[21:24], s[4:5] offset:80
    0xee074004, 0x0c800000, 0x00006000, // global_store_b128 v0, v[25:28], s[4:5] offset:96
    0xee074004, 0x0e800000, 0x00007000, // global_store_b128 v0, v[29:32], s[4:5] offset:112
    0x7e42022b, // v_mov_b32_e32 v33, s43
    0x7e44022d, // v_mov_b32_e32 v34, s45
    0x7e460280, // v_mov_b32_e32 v35, 0
    0x7e480280, // v_mov_b32_e32 v36, 0
    0xee074004, 0x10800000, 0x00008000, // global_store_b128 v0, v[33:36], s[4:5] offset:128
    0xbfb00000, // s_endpgm
];

#[test]
fn gfx12_scalar_operations_compute_their_definitions() {
    // X's low half is 3.0f, Y's -2.0f.
    let x: u64 = 0x0000_0003_4040_0000;
    let y: u64 = 0x8000_0001_c000_0000;
    let input: Vec<u8> = [0x11, 0x82, 0x34, 0xf2, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0].to_vec();
    let program = Program::decode(Chip::Gfx1201, &bytes(KERNEL)).unwrap();
    let mut memory = Regions::new(vec![(INPUT, input), (OUTPUT, vec![0; 144])]);
    let user = [
        x as u32,
        (x >> 32) as u32,
        y as u32,
        (y >> 32) as u32,
        OUTPUT as u32,
        (OUTPUT >> 32) as u32,
        INPUT as u32,
        (INPUT >> 32) as u32,
    ];
    handmade::run(&program, &user, 1, &mut memory).unwrap();
    let out: Vec<u32> = memory
        .bytes(OUTPUT)
        .unwrap()
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect();
    let pair = |i: usize| u64::from(out[i]) | u64::from(out[i + 1]) << 32;
    assert_eq!(pair(0), x.wrapping_add(y), "s_add_nc_u64");
    assert_eq!(pair(2), x.wrapping_sub(y), "s_sub_nc_u64");
    assert_eq!(pair(4), x.wrapping_mul(y), "s_mul_u64");
    let float = |i: usize| f32::from_bits(out[i]);
    assert_eq!(float(6), 1.0, "s_add_f32");
    assert_eq!(float(7), 5.0, "s_sub_f32");
    assert_eq!(float(8), -6.0, "s_mul_f32");
    assert_eq!(float(9), -2.0, "s_min_num_f32");
    assert_eq!(float(10), 3.0, "s_max_num_f32");
    assert_eq!(out[11], 0x82, "s_load_u8");
    assert_eq!(out[12], 0xffff_ff82, "s_load_i8");
    assert_eq!(out[13], 0xf234, "s_load_u16");
    assert_eq!(out[14], 0xffff_f234, "s_load_i16");
    assert_eq!(out[15], 1, "SCC kept by s_add_nc_u64");
    assert_eq!(&out[16..19], &[1, 2, 3], "s_load_b96");
    // Y's low half as an integer is 0xc000_0000.
    assert_eq!(float(20), -1_073_741_824.0, "s_cvt_f32_i32");
    assert_eq!(float(21), 3_221_225_472.0, "s_cvt_f32_u32");
    assert_eq!(out[22] as i32, -2, "s_cvt_i32_f32");
    assert_eq!(out[23], 0, "s_cvt_u32_f32 saturates a negative value to 0");
    assert_eq!(float(24), -2.0, "s_trunc_f32 -2.5");
    assert_eq!(float(25), -3.0, "s_floor_f32 -2.5");
    assert_eq!(float(26), -2.0, "s_ceil_f32 -2.5");
    assert_eq!(float(27), -2.0, "s_rndne_f32 -2.5 (ties to even)");
    assert_eq!(float(28), 3.0f32.mul_add(-2.0, 3.0), "s_fmac_f32");
    assert_eq!(
        &out[29..32],
        &[1, 0, 1],
        "s_cmp_lt_f32, s_cmp_nlt_f32, s_cmp_u_f32 of a NaN"
    );
}
