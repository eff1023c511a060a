//! A work-group's LDS is allocated in whole granules of 128 dwords (512
//! bytes) on gfx7 to gfx11 (AMDGPUUsage, `COMPUTE_PGM_RSRC2.LDS_SIZE`:
//! the packet processor rounds the packet's group segment size up to
//! them), so an access past the kernel's group segment but inside its last
//! granule reads and writes LDS like any other.
//!
//! LLVM relies on it: IREE's gfx1100 kernel for an i16 3x7 * 7x33 matmul
//! (`main_dispatch_0_matmul_3x33x7_i16xi16xi32`, group segment 462 bytes)
//! stores a 14-byte row of A at 448 with `ds_store_b64`/`_b32`/`_b16` and
//! reads it back with one `ds_load_b128 v[1:4], v1 offset:448`, widened to
//! the row's 16-byte alignment. With LDS sized exactly 462 bytes the load
//! crossed its end and read zeros, and every product was 0 (iree-diff's
//! class `gfx1100-small-int-matmul-zeros`, seed 83).
//!
//! The kernels here do the same with a 462-byte group segment: the row's
//! 14 bytes at 448, then 16 bytes read there. Expected: the bytes stored
//! (0x11111111, 0x22222222, 0x33333333, then 0x4444 and the two bytes of
//! the zeroed LDS past the row: 0x00004444). Then a dword stored and read
//! at 512, past the one granule: dropped, read as 0.

mod handmade;

use amdgpu_isa::{Chip, Dispatch, Inputs, MAX_WAVE_INSTRUCTIONS, Program, Regions, run_dispatch};
use handmade::{bytes, descriptor};

const GFX1100: &[u32] = &[
    0x7e140280, // v_mov_b32_e32 v10, 0
    0x7e1802ff, 0x11111111, // v_mov_b32_e32 v12, 0x11111111
    0x7e1a02ff, 0x22222222, // v_mov_b32_e32 v13, 0x22222222
    0x7e1c02ff, 0x33333333, // v_mov_b32_e32 v14, 0x33333333
    0x7e1e02ff, 0x00004444, // v_mov_b32_e32 v15, 0x4444
    0xd93401c0, 0x00000c0a, // ds_store_b64 v10, v[12:13] offset:448
    0xd83401c8, 0x00000e0a, // ds_store_b32 v10, v14 offset:456
    0xd87c01cc, 0x00000f0a, // ds_store_b16 v10, v15 offset:460
    0xdbfc01c0, 0x0600000a, // ds_load_b128 v[6:9], v10 offset:448
    0xd8340200, 0x00000e0a, // ds_store_b32 v10, v14 offset:512
    0xd8d80200, 0x1000000a, // ds_load_b32 v16, v10 offset:512
    0xbf89fc07, // s_waitcnt lgkmcnt(0)
    0xdc760000, 0x0000060a, // global_store_b128 v10, v[6:9], s[0:1]
    0xdc6a0010, 0x0000100a, // global_store_b32 v10, v16, s[0:1] offset:16
    0xbfb00000, // s_endpgm
];

const GFX9: &[u32] = &[
    0x7e140280, // v_mov_b32_e32 v10, 0
    0x7e1802ff, 0x11111111, // v_mov_b32_e32 v12, 0x11111111
    0x7e1a02ff, 0x22222222, // v_mov_b32_e32 v13, 0x22222222
    0x7e1c02ff, 0x33333333, // v_mov_b32_e32 v14, 0x33333333
    0x7e1e02ff, 0x00004444, // v_mov_b32_e32 v15, 0x4444
    0xd89a01c0, 0x00000c0a, // ds_write_b64 v10, v[12:13] offset:448
    0xd81a01c8, 0x00000e0a, // ds_write_b32 v10, v14 offset:456
    0xd83e01cc, 0x00000f0a, // ds_write_b16 v10, v15 offset:460
    0xd9fe01c0, 0x0600000a, // ds_read_b128 v[6:9], v10 offset:448
    0xd81a0200, 0x00000e0a, // ds_write_b32 v10, v14 offset:512
    0xd86c0200, 0x1000000a, // ds_read_b32 v16, v10 offset:512
    0xbf8cc07f, // s_waitcnt lgkmcnt(0)
    0xdc7c8000, 0x0000060a, // global_store_dwordx4 v10, v[6:9], s[0:1]
    0xdc708010, 0x0000100a, // global_store_dword v10, v16, s[0:1] offset:16
    0xbf810000, // s_endpgm
];

const OUTPUT: u64 = 0x10_0000;

/// Runs `code` as one wave with a 462-byte group segment; the five dwords
/// it stores.
fn run(chip: Chip, code: &[u32]) -> Vec<u32> {
    let program = Program::decode(chip, &bytes(code)).unwrap();
    let mut kd = descriptor(2, chip == Chip::Gfx1100);
    kd.group_segment_fixed_size = 462;
    let lanes = if chip == Chip::Gfx1100 { 32 } else { 64 };
    let user = [OUTPUT as u32, (OUTPUT >> 32) as u32];
    let dispatch = Dispatch {
        program: &program,
        descriptor: kd,
        grid_size: [lanes, 1, 1],
        block: [lanes, 1, 1],
        dynamic_lds: 0,
        inputs: Inputs::UserData(&user),
        instruction_limit: MAX_WAVE_INSTRUCTIONS,
    };
    let mut memory = Regions::new(vec![(OUTPUT, vec![0xee; 20])]);
    run_dispatch(&dispatch, &mut memory).unwrap_or_else(|e| panic!("{chip:?}: {e}"));
    memory
        .bytes(OUTPUT)
        .unwrap()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

const EXPECTED: [u32; 5] = [0x11111111, 0x22222222, 0x33333333, 0x00004444, 0];

#[test]
fn gfx1100_reads_past_the_group_segment_inside_its_granule() {
    assert_eq!(run(Chip::Gfx1100, GFX1100), EXPECTED);
}

#[test]
fn gfx942_reads_past_the_group_segment_inside_its_granule() {
    assert_eq!(run(Chip::Gfx942, GFX9), EXPECTED);
}

#[test]
fn gfx90a_reads_past_the_group_segment_inside_its_granule() {
    assert_eq!(run(Chip::Gfx90a, GFX9), EXPECTED);
}
