//! The waves of a work-group run in step. A compute unit issues for all of
//! a work-group's waves in turn, so waves doing the same work read a
//! location before any of them writes it back; kernels that race on one
//! location without a barrier get their hardware result only from such a
//! schedule (IREE 3.13's `topk_v2` ROCm kernel inserts the same values
//! into one output from every wave: run one wave after the other, the
//! second inserts them again — docs/IREE-DEFECTS.md, 11).
//!
//! The kernel: every lane of every wave loads the dword at `s[0:1]`, adds
//! one and stores it back, with no barrier. In step, every wave loads 0
//! before any stores: the dword ends at 1 however many waves run. With an
//! `s_barrier` between two such increments, every wave's first store lands
//! before any second load: 2. Words from `llvm-mc-19 --arch=amdgcn
//! -show-encoding` of the text beside them.

mod handmade;

use amdgpu_isa::{
    Chip, Dispatch, Inputs, MAX_WAVE_INSTRUCTIONS, Memory, Program, Regions, run_dispatch,
};
use handmade::{bytes, descriptor};

const COUNTER: u64 = 0x10_0000;

/// `v_mov_b32 v1, 0`, then load, wait, add one and store the dword at
/// s[0:1] (`global_load_dword v2, v1, s[0:1]`, `s_waitcnt vmcnt(0)`,
/// `v_add_u32 v2, 1, v2`, `global_store_dword v1, v2, s[0:1]`).
const INCREMENT_GFX9: [u32; 7] = [
    0x7e020280, 0xdc508000, 0x02000001, 0xbf8c0f70, 0x68040481, 0xdc708000, 0x00000201,
];
const BARRIER_GFX9: u32 = 0xbf8a0000;
const END_GFX9: u32 = 0xbf810000;
/// The same in GFX11's spelling (`global_load_b32`, `v_add_nc_u32`,
/// `global_store_b32`).
const INCREMENT_GFX11: [u32; 7] = [
    0x7e020280, 0xdc520000, 0x02000001, 0xbf8903f7, 0x4a040481, 0xdc6a0000, 0x00000201,
];
const BARRIER_GFX11: u32 = 0xbfbd0000;
const END_GFX11: u32 = 0xbfb00000;

/// The counter after one work-group of `waves` waves ran `increments`
/// increments, an `s_barrier` between each two.
fn counter_after(chip: Chip, waves: u32, increments: usize) -> u32 {
    let (increment, barrier, end) = if chip == Chip::Gfx1100 {
        (INCREMENT_GFX11, BARRIER_GFX11, END_GFX11)
    } else {
        (INCREMENT_GFX9, BARRIER_GFX9, END_GFX9)
    };
    let mut words = Vec::new();
    for i in 0..increments {
        if i > 0 {
            words.push(barrier);
        }
        words.extend(increment);
    }
    words.push(end);
    let program = Program::decode(chip, &bytes(&words)).unwrap();
    let wave32 = chip == Chip::Gfx1100;
    let lanes = if wave32 { 32 } else { 64 } * waves;
    let user = [COUNTER as u32, (COUNTER >> 32) as u32];
    let dispatch = Dispatch {
        program: &program,
        descriptor: descriptor(user.len(), wave32),
        grid_size: [lanes, 1, 1],
        block: [lanes, 1, 1],
        dynamic_lds: 0,
        inputs: Inputs::UserData(&user),
        instruction_limit: MAX_WAVE_INSTRUCTIONS,
    };
    let mut memory = Regions::new(vec![(COUNTER, vec![0; 4])]);
    run_dispatch(&dispatch, &mut memory).unwrap();
    let mut word = [0u8; 4];
    memory.read(COUNTER, &mut word).unwrap();
    u32::from_le_bytes(word)
}

#[test]
fn waves_without_a_barrier_read_before_any_writes() {
    for chip in [Chip::Gfx90a, Chip::Gfx942, Chip::Gfx1100] {
        for waves in [1, 2, 4] {
            assert_eq!(counter_after(chip, waves, 1), 1, "{chip:?}, {waves} waves");
        }
    }
}

#[test]
fn a_barrier_orders_every_wave_s_store_before_the_next_load() {
    for chip in [Chip::Gfx90a, Chip::Gfx942, Chip::Gfx1100] {
        for waves in [1, 2, 4] {
            assert_eq!(counter_after(chip, waves, 2), 2, "{chip:?}, {waves} waves");
            assert_eq!(counter_after(chip, waves, 3), 3, "{chip:?}, {waves} waves");
        }
    }
}
