//! gfx90a reaches private memory through the private segment buffer, a
//! swizzled buffer resource (ADD_TID_ENABLE, element size 4, index stride
//! 64: AMDGPUUsage, "Memory Spaces", and LLVM's scratch descriptor): a
//! wave's scratch holds dword `k` of lane `l` at byte `(k * 64 + l) * 4`.
//! VADDR's offset and the instruction's are the lane's own offset, swizzled
//! by the hardware; SOFFSET and the resource's base are added unswizzled,
//! so LLVM writes a frame offset past MUBUF's 12-bit immediate as that
//! offset times the wave size in SOFFSET (`s_mov_b32 s0, 0x40100` for
//! private offset 4,100: IREE's gfx90a `scan_configured.mlir` kernel, whose
//! private segment is 4,312 bytes). The interpreter added SOFFSET to the
//! lane's own offset and faulted at private offset 0x40100.
//!
//! Here each lane stores 1000 + lane at private offset 4,100 and 2000 +
//! lane at 4,108 through SOFFSET = 4,100 * 64 (the second with `offset:8`),
//! and loads both back through VADDR = 4,100: on hardware, and by the
//! swizzle above, the same dwords. Encodings from `llvm-mc-19
//! --arch=amdgcn --mcpu=gfx90a -show-encoding`.

mod handmade;

use amdgpu_isa::{
    Chip, Dispatch, Inputs, KernelDescriptor, MAX_WAVE_INSTRUCTIONS, Program, Regions, run_dispatch,
};

const OUTPUT: u64 = 0x10_0000;
const KERNARGS: u64 = 0x20_0000;
const LANES: usize = 64;

#[test]
fn soffset_addresses_the_wave_scaled_private_segment() {
    let code = handmade::bytes(&[
        0xc0060202, 0x00000000, // s_load_dwordx2 s[8:9], s[4:5], 0x0
        0x80000600, // s_add_u32 s0, s0, s6 (the wave's scratch offset)
        0x82018001, // s_addc_u32 s1, s1, 0
        0x680400ff, 0x000003e8, // v_add_u32_e32 v2, 0x3e8, v0
        0x680c00ff, 0x000007d0, // v_add_u32_e32 v6, 0x7d0, v0
        0xbe8a00ff, 0x00040100, // s_mov_b32 s10, 0x40100
        0xe0700000, 0x0a000200, // buffer_store_dword v2, off, s[0:3], s10
        0xe0700008, 0x0a000600, // buffer_store_dword v6, off, s[0:3], s10 offset:8
        0x7e0602ff, 0x00001004, // v_mov_b32_e32 v3, 0x1004
        0xbf8c0f70, // s_waitcnt vmcnt(0)
        0xe0501000, 0x80000403, // buffer_load_dword v4, v3, s[0:3], 0 offen
        0xe0501008, 0x80000503, // buffer_load_dword v5, v3, s[0:3], 0 offen offset:8
        0x24020083, // v_lshlrev_b32_e32 v1, 3, v0
        0xbf8c0070, // s_waitcnt vmcnt(0) lgkmcnt(0)
        0xdc748000, 0x00080401, // global_store_dwordx2 v1, v[4:5], s[8:9]
        0xbf810000, // s_endpgm
    ]);
    let program = Program::decode(Chip::Gfx90a, &code).unwrap();
    let mut kd = [0u8; 64];
    // 4,112 private bytes per work-item: offset 0x40100 read per lane lies
    // far past them.
    kd[4..8].copy_from_slice(&4112u32.to_le_bytes());
    kd[44..48].copy_from_slice(&0x3fu32.to_le_bytes());
    kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
    // USER_SGPR_COUNT 6, ENABLE_PRIVATE_SEGMENT (the wave offset in s6).
    kd[52..56].copy_from_slice(&(6u32 << 1 | 1).to_le_bytes());
    // ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER (s[0:3]), ENABLE_SGPR_KERNARG_SEGMENT_PTR (s[4:5]).
    kd[56..58].copy_from_slice(&(1u16 | 1 << 3).to_le_bytes());
    let kernargs = OUTPUT.to_le_bytes();
    let dispatch = Dispatch {
        program: &program,
        descriptor: KernelDescriptor::parse(&kd).unwrap(),
        grid_size: [LANES as u32, 1, 1],
        block: [LANES as u32, 1, 1],
        dynamic_lds: 0,
        inputs: Inputs::Packet {
            kernel_object: 0x1000,
            kernarg_address: KERNARGS,
            kernargs: &kernargs,
            packet_address: 0x30_0000,
        },
        instruction_limit: MAX_WAVE_INSTRUCTIONS,
    };
    let mut memory = Regions::new(vec![(OUTPUT, vec![0; LANES * 8])]);
    run_dispatch(&dispatch, &mut memory).unwrap();
    let got: Vec<(u32, u32)> = memory
        .bytes(OUTPUT)
        .unwrap()
        .chunks_exact(8)
        .map(|c| {
            let word = |i: usize| u32::from_le_bytes(c[i..i + 4].try_into().unwrap());
            (word(0), word(4))
        })
        .collect();
    let want: Vec<(u32, u32)> = (0..LANES as u32).map(|l| (1000 + l, 2000 + l)).collect();
    assert_eq!(got, want);
}
