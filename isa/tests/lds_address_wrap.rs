//! A DS instruction's LDS address is the 32-bit sum of its ADDR register
//! and its offset, wrapping: LLVM folds a constant into the offset on
//! every chip since CI (`hasUsableDSOffset`) even when that leaves the
//! base register "negative" as a 32-bit value, as IREE's data-tiled
//! `multi_mma` matmuls for gfx942 do (`v_add_u32 v67, 0xffffe000, v96`,
//! then `ds_write_b64 v67, v[122:123] offset:8192`: lane `i` writes byte
//! `8 * i`). The interpreter summed in 64 bits, put such an access 4 GiB
//! past the end of LDS, dropped the write and read zeros, so those
//! matmuls' MFMAs multiplied zeros and returned the accumulator unchanged.
//!
//! Expected values written out by hand: lane `i` stores `i + 0x100` at
//! byte `4 * i` through base `4 * i - 8192` with `offset:8192`, and reads
//! it back through a plain base, and through a two-address read of base
//! `4 * i - 256` with `offset0:64 offset1:65` (dwords: bytes 256 and 260
//! past the base); an atomic add through the wrapped base returns the old
//! value and doubles it. Encodings from `llvm-mc-19 --arch=amdgcn
//! -show-encoding` (`--mcpu=gfx942`, `gfx1100`).

mod handmade;

use amdgpu_isa::{Chip, Dispatch, Inputs, MAX_WAVE_INSTRUCTIONS, Program, Regions, run_dispatch};
use handmade::{bytes, descriptor};

/// Where lane `i`'s v[6:7] is stored (s[8:9]).
const OUTPUT: u64 = 0x50_0000;

/// Stores v[6:7] at lane `i`'s qword of s[8:9]'s array and ends.
const STORE_GFX9: [u32; 4] = [
    0x24100083, // v_lshlrev_b32_e32 v8, 3, v0
    0xdc748000, 0x00080608, // global_store_dwordx2 v8, v[6:7], s[8:9]
    0xbf810000, // s_endpgm
];
const STORE_GFX11: [u32; 4] = [
    0x30100083, // v_lshlrev_b32_e32 v8, 3, v0
    0xdc6e0000, 0x00080608, // global_store_b64 v8, v[6:7], s[8:9]
    0xbfb00000, // s_endpgm
];

/// v1 = 4 * i, v2 = 4 * i - 8192 (wrapping), v3 = i + 0x100.
const SETUP_GFX9: [u32; 5] = [
    0x24020082, // v_lshlrev_b32_e32 v1, 2, v0
    0x680402ff, 0xffffe000, // v_add_u32_e32 v2, 0xffffe000, v1
    0x680600ff, 0x00000100, // v_add_u32_e32 v3, 0x100, v0
];
const SETUP_GFX11: [u32; 5] = [
    0x30020082, // v_lshlrev_b32_e32 v1, 2, v0
    0x4a0402ff, 0xffffe000, // v_add_nc_u32_e32 v2, 0xffffe000, v1
    0x4a0600ff, 0x00000100, // v_add_nc_u32_e32 v3, 0x100, v0
];

/// Runs the setup, `body` and the store as one wave with 1 KiB of LDS on
/// `chip`; returns each lane's (v6, v7).
fn run(chip: Chip, body: &[u32]) -> Vec<(u32, u32)> {
    let gfx11 = chip == Chip::Gfx1100;
    let lanes = if gfx11 { 32 } else { 64 };
    let (setup, store) = if gfx11 {
        (&SETUP_GFX11, &STORE_GFX11)
    } else {
        (&SETUP_GFX9, &STORE_GFX9)
    };
    let code: Vec<u32> = [&setup[..], body, &store[..]].concat();
    let program = Program::decode(chip, &bytes(&code)).unwrap();
    let mut memory = Regions::new(vec![(OUTPUT, vec![0; lanes * 8])]);
    let mut user = [0u32; 10];
    user[8] = OUTPUT as u32;
    user[9] = (OUTPUT >> 32) as u32;
    let dispatch = Dispatch {
        program: &program,
        descriptor: descriptor(user.len(), gfx11),
        grid_size: [lanes as u32, 1, 1],
        block: [lanes as u32, 1, 1],
        dynamic_lds: 1024,
        inputs: Inputs::UserData(&user),
        instruction_limit: MAX_WAVE_INSTRUCTIONS,
    };
    run_dispatch(&dispatch, &mut memory).unwrap_or_else(|e| panic!("{chip:?}: {e}"));
    memory
        .bytes(OUTPUT)
        .unwrap()
        .chunks_exact(8)
        .map(|c| {
            (
                u32::from_le_bytes(c[..4].try_into().unwrap()),
                u32::from_le_bytes(c[4..].try_into().unwrap()),
            )
        })
        .collect()
}

#[test]
fn a_store_and_a_two_address_read_through_a_wrapped_base_reach_lds() {
    let gfx9 = [
        0xd81a2000, 0x00000302, // ds_write_b32 v2, v3 offset:8192
        0xbf8cc07f, // s_waitcnt lgkmcnt(0)
        0xbf8a0000, // s_barrier
        0xd86c0000, 0x06000001, // ds_read_b32 v6, v1
        0x680802ff, 0xffffff00, // v_add_u32_e32 v4, 0xffffff00, v1
        0xd86e4140, 0x0a000004, // ds_read2_b32 v[10:11], v4 offset0:64 offset1:65
        0xbf8cc07f, // s_waitcnt lgkmcnt(0)
        0x7e0e030a, // v_mov_b32_e32 v7, v10
    ];
    let gfx11 = [
        0xd8342000, 0x00000302, // ds_store_b32 v2, v3 offset:8192
        0xbf89fc07, // s_waitcnt lgkmcnt(0)
        0xbfbd0000, // s_barrier
        0xd8d80000, 0x06000001, // ds_load_b32 v6, v1
        0x4a0802ff, 0xffffff00, // v_add_nc_u32_e32 v4, 0xffffff00, v1
        0xd8dc4140, 0x0a000004, // ds_load_2addr_b32 v[10:11], v4 offset0:64 offset1:65
        0xbf89fc07, // s_waitcnt lgkmcnt(0)
        0x7e0e030a, // v_mov_b32_e32 v7, v10
    ];
    for (chip, body) in [
        (Chip::Gfx90a, &gfx9[..]),
        (Chip::Gfx942, &gfx9[..]),
        (Chip::Gfx1100, &gfx11[..]),
    ] {
        let got = run(chip, body);
        let want: Vec<(u32, u32)> = (0..got.len() as u32)
            .map(|i| (i + 0x100, i + 0x100))
            .collect();
        assert_eq!(got, want, "{chip:?}");
    }
}

#[test]
fn an_atomic_through_a_wrapped_base_returns_and_updates_the_lds_dword() {
    let gfx9 = [
        0xd81a0000, 0x00000301, // ds_write_b32 v1, v3
        0xbf8cc07f, // s_waitcnt lgkmcnt(0)
        0xd8402000, 0x06000302, // ds_add_rtn_u32 v6, v2, v3 offset:8192
        0xbf8cc07f, // s_waitcnt lgkmcnt(0)
        0xd86c0000, 0x07000001, // ds_read_b32 v7, v1
        0xbf8cc07f, // s_waitcnt lgkmcnt(0)
    ];
    let gfx11 = [
        0xd8340000, 0x00000301, // ds_store_b32 v1, v3
        0xbf89fc07, // s_waitcnt lgkmcnt(0)
        0xd8802000, 0x06000302, // ds_add_rtn_u32 v6, v2, v3 offset:8192
        0xbf89fc07, // s_waitcnt lgkmcnt(0)
        0xd8d80000, 0x07000001, // ds_load_b32 v7, v1
        0xbf89fc07, // s_waitcnt lgkmcnt(0)
    ];
    for (chip, body) in [
        (Chip::Gfx90a, &gfx9[..]),
        (Chip::Gfx942, &gfx9[..]),
        (Chip::Gfx1100, &gfx11[..]),
    ] {
        let got = run(chip, body);
        let want: Vec<(u32, u32)> = (0..got.len() as u32)
            .map(|i| (i + 0x100, 2 * (i + 0x100)))
            .collect();
        assert_eq!(got, want, "{chip:?}");
    }
}
