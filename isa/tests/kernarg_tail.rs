//! A kernarg load that runs past the end of the segment: LLVM widens the
//! loads of a kernel's arguments up to a 16-dword `s_load`, so a kernel
//! whose segment is 56 bytes (IREE's element-wise kernel with four inputs
//! and three outputs) loads 32 bytes at offset 32. On hardware the
//! runtime's kernarg buffer is larger than one segment; here the bytes past
//! the end read as zero, and the load must not fault (it did: `scalar load
//! of 32 bytes at 0xff000000000020`).

mod handmade;

use amdgpu_isa::{
    Chip, Dispatch, Inputs, KernelDescriptor, MAX_WAVE_INSTRUCTIONS, Program, Regions, run_dispatch,
};

/// Where the segment is: nothing else is there, as for a HIP launch.
const KERNARGS: u64 = 0x00ff_0000_0000_0000;
const OUTPUT: u64 = 0x10_0000;

#[test]
fn a_kernarg_load_past_the_segments_end_reads_zeros_there() {
    // s_load_dwordx2 s[2:3], s[0:1], 0x0     (the output's address)
    // s_load_dwordx8 s[8:15], s[0:1], 0x20   (bytes 32..64 of 56)
    // s_waitcnt lgkmcnt(0)
    // v_mov_b32 v1, 0; v_mov_b32 v2..v9, s8..s15
    // global_store_dwordx4 v1, v[2:5], s[2:3]
    // global_store_dwordx4 v1, v[6:9], s[2:3] offset:16
    // s_endpgm
    let code = handmade::bytes(&[
        0xc0060080, 0x00000000, 0xc00e0200, 0x00000020, 0xbf8cc07f, 0x7e020280, 0x7e040208,
        0x7e060209, 0x7e08020a, 0x7e0a020b, 0x7e0c020c, 0x7e0e020d, 0x7e10020e, 0x7e12020f,
        0xdc7c8000, 0x00020201, 0xdc7c8010, 0x00020601, 0xbf810000,
    ]);
    let program = Program::decode(Chip::Gfx942, &code).unwrap();
    // Bytes 8..56 hold the dwords 2..13 after the output's address.
    let mut kernargs = OUTPUT.to_le_bytes().to_vec();
    kernargs.extend((2u32..14).flat_map(u32::to_le_bytes));
    assert_eq!(kernargs.len(), 56);
    let mut kd = [0u8; 64];
    kd[48..52].copy_from_slice(&0x3fu32.to_le_bytes());
    // USER_SGPR_COUNT 2, ENABLE_SGPR_KERNARG_SEGMENT_PTR.
    kd[52..56].copy_from_slice(&(2u32 << 1).to_le_bytes());
    kd[56..58].copy_from_slice(&(1u16 << 3).to_le_bytes());
    let dispatch = Dispatch {
        program: &program,
        descriptor: KernelDescriptor::parse(&kd).unwrap(),
        grid_size: [1, 1, 1],
        block: [1, 1, 1],
        dynamic_lds: 0,
        inputs: Inputs::Packet {
            kernel_object: 0x1000,
            kernarg_address: KERNARGS,
            kernargs: &kernargs,
            packet_address: 0x00fe_0000_0000_0000,
        },
        instruction_limit: MAX_WAVE_INSTRUCTIONS,
    };
    let mut memory = Regions::new(vec![(OUTPUT, vec![0xee; 32])]);
    run_dispatch(&dispatch, &mut memory).unwrap();
    let out = memory.bytes(OUTPUT).unwrap();
    let words: Vec<u32> = out
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // Dwords 8..14 of the segment (its bytes 32..56), then zeros.
    assert_eq!(words, [8, 9, 10, 11, 12, 13, 0, 0]);
}
